"""``sims score`` (issue 2, must-have 6 and "Bad input")."""

import json
import subprocess
import sys

import pytest

from sims.cli import main
from sims.cribbage.commands.score import number_words


def run_cli(capsys, *argv):
    """Exit status, stdout and stderr of ``sims ARGV``; argparse's own errors exit via SystemExit."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_29_hand_is_counted_aloud(capsys):
    code, out, err = run_cli(capsys, "score", "5H", "5C", "5S", "JD", "--starter", "5D")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "hand 5H 5C 5S JD, starter 5D"
    sayings = [line.split("  ")[1] if line.startswith("  ") else line for line in lines[1:]]
    assert [s.strip() for s in sayings[:8]] == [f"fifteen {number_words(p)}" for p in range(2, 17, 2)]
    assert lines[1].split() == ["fifteen", "two", "5H", "JD"]
    assert lines[9].split()[-4:] == ["5H", "5C", "5S", "5D"] and "double pair-royal is twenty-eight" in lines[9]
    assert "one for his nob is twenty-nine" in lines[10] and lines[10].endswith("JD")
    assert lines[-1] == "= 29"


def test_json_shape(capsys):
    code, out, _ = run_cli(capsys, "score", "5h,5c", "5s", "jd", "--starter", "5♦", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["hand"] == ["5H", "5C", "5S", "JD"] and result["starter"] == "5D"
    assert result["crib"] is False and result["total"] == 29
    assert result["components"] == {"fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1}
    assert all(set(item) == {"kind", "cards", "points"} for item in result["items"])
    assert [i["points"] for i in result["items"] if i["kind"] == "pairs"] == [12]
    for kind, points in result["components"].items():
        assert sum(i["points"] for i in result["items"] if i["kind"] == kind) == points


@pytest.mark.parametrize(
    "argv, total",
    [
        (["AH", "3H", "7H", "QH", "--starter", "KS"], 4),
        (["AH", "3H", "7H", "QH", "--starter", "KS", "--crib"], 0),
        (["AH", "3H", "7H", "QH", "--starter", "KS", "--crib", "--crib-flush-four"], 4),
        (["AH", "3H", "7H", "QH", "--starter", "KH", "--crib"], 5),
        (["9H", "6C", "6D", "--starter", "6S"], 12),  # Article, five-card game
        (["5H", "5C", "5S", "JD", "4H", "6H", "--starter", "5D"], 49),  # eight-card game: six kept
    ],
)
def test_hand_crib_and_options(capsys, argv, total):
    code, out, _ = run_cli(capsys, "score", *argv, "--json")
    assert code == 0 and json.loads(out)["total"] == total
    run_cli(capsys, "score", *argv)


def test_a_bilked_crib(capsys):
    code, out, _ = run_cli(capsys, "score", "2C", "4D", "6S", "8D", "--starter", "KH", "--crib")
    assert code == 0 and "nothing (bilked)" in out and out.splitlines()[-1] == "= 0"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["5X", "5C", "5S", "JD", "--starter", "5D"], "'5X'"),
        (["5H", "5C", "5H", "JD", "--starter", "5D"], "duplicate card 5H"),
        (["5H", "5C", "5S", "JD", "--starter", "5H"], "starter 5H is also in the hand"),
        (["5H", "5C", "5S", "JD", "2C", "--starter", "5D"], "got 5"),
        (["5H", "5C", "5S", "JD", "2C", "3C", "4C", "--starter", "5D"], "got 7"),
        (["5H", "5C", "5S", "--starter", "5D", "--crib"], "a crib has 4 cards, got 3"),
        (["5H", "5C", "5S", "JD", "--starter", "5X"], "'5X'"),
        (["5H", "5C", "5S", "JD"], "required: --starter"),
        (["--starter", "5D"], "required: CARD"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, "score", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sims score: error: ") and message in err
    assert "Traceback" not in err


def test_help_lists_the_commands(capsys):
    code, out, _ = run_cli(capsys, "--help")
    assert code == 0 and "score" in out and "count a hand or crib" in out


def test_number_words():
    assert [number_words(n) for n in (0, 2, 15, 20, 24, 29, 30, 48)] == [
        "nothing",
        "two",
        "fifteen",
        "twenty",
        "twenty-four",
        "twenty-nine",
        "thirty",
        "forty-eight",
    ]


def test_subprocess_exit_codes_and_output():
    """The installed entry point, once, as a user would run it."""

    def sims(*argv):
        return subprocess.run(
            [sys.executable, "-m", "sims", "score", *argv], capture_output=True, text=True, timeout=120
        )

    ok = sims("5H", "5C", "5S", "JD", "--starter", "5D", "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["total"] == 29 and ok.stderr == ""
    bad = sims("5X", "5C", "5S", "JD", "--starter", "5D")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "sims score: error: bad card '5X': unknown suit 'X'\n"
    missing = sims("5H", "5C", "5S", "JD")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr
