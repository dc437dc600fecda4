"""``sims duel``: whole games of each game played through standard input (and one through a pseudo-terminal),
checked against the rules and the game record the table driver writes (:mod:`sims.cli.duel`).  Those games, a
closed output and the terminal run ``sims`` as a process; what is about the command's output alone (its seed,
--json, the one line of q) runs it in this process, with standard input replaced."""

from __future__ import annotations

import io
import json
import os
import re
import select
import subprocess
import sys
import time
from functools import cache

import pytest

from sims.cli import main

# Short games: cribbage to 61, All Fours to 7, Loo one round (each of the five players deals once).
GAMES = {
    "cribbage": ["--rules", "six-card-61"],
    "allfours": ["--rules", "seven-up"],
    "loo": ["--rule", "session_rounds=1"],
}
TARGET = {"cribbage": 61, "allfours": 7}
# An illegal entry first, then a hint, then the first choice every time (more answers than any short game needs).
ANSWERS = "zz\n?\n" + "1\n" * 400
pytestmark = pytest.mark.xdist_group("duel")  # one worker plays the Loo game three tests read (:func:`played`)


def duel(*argv, answers="", timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sims", "duel", *argv], input=answers, capture_output=True, text=True, timeout=timeout
    )


def duel_here(monkeypatch, capsys, *argv, answers="") -> tuple[int, str, str]:
    """``sims duel ARGV`` in this process with ``answers`` as standard input: (exit status, output, error)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    try:
        code = main(["duel", *argv])
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


@cache
def played(game: str, record: str) -> subprocess.CompletedProcess:
    return duel("--game", game, *GAMES[game], "--seed", "3", "--record", record, answers=ANSWERS)


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    return tmp_path_factory.mktemp("duel")


def result_of(record) -> dict:
    lines = [json.loads(line) for line in open(record)]
    return next(line["result"] for line in lines if "result" in line)


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_through_standard_input_ends_with_a_winner_and_the_records_scores(game, records):
    record = str(records / f"{game}.jsonl")
    done = played(game, record)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    row = result_of(record)
    if game == "loo":
        # The session's money is each seat's, as the record has it; stakes only change hands, so what the seats
        # won and lost and what the pool still holds come to nothing.
        money = [row[f"money_{s}"] for s in range(5)]
        names = ["you"] + [f"seat {s}" for s in range(1, 5)]
        assert f"the session is over: {', '.join(f'{n} {m:+d}' for n, m in zip(names, money))}" in out
        assert sum(money) + row["pool_left"] == 0
        assert "deal 5 of 5" in out and "deal 6" not in out
    else:
        scores = [row["score_0"], row["score_1"]]
        winner = row["winner"]
        # The winner reached the target, the loser did not (the game ends the moment a side reaches it).
        assert scores[winner] >= TARGET[game] > scores[1 - winner]
        said = "you win" if winner == 0 else "seat 1 wins"
        assert f"game over: {said} (you {scores[0]}, seat 1 {scores[1]})" in out
        counted = "deal" if game == "cribbage" else "hand"
        shown = max(int(n) for n in re.findall(rf"^{counted} (\d+):", out, re.M))
        assert shown == row["deals" if game == "cribbage" else "hands"]
    if game == "cribbage":
        # Every card of the play is told (the engine asks for each): eight a finished deal of six-card, four each.
        finished = re.split(r"^the crib shows .*$", out, flags=re.M)[:-1]
        assert len(finished) == row["deals"] - 1
        laid = r"^(you lay|seat 1 lays) \S+( \(forced\))?: count"
        assert [len(re.findall(laid, deal, re.M)) for deal in finished] == [8] * len(finished)
    lines = out.splitlines()
    illegal = [i for i, line in enumerate(lines) if "not a legal choice" in line]
    assert len(illegal) == 1 and lines[illegal[0]].endswith(
        "not a legal choice here: zz; type 1-" + lines[illegal[0]].split("type 1-")[1]
    )
    assert lines[illegal[0] + 1].startswith("your choice")
    assert any(line.startswith(("value:", "net:")) for line in lines)  # the hint's table
    assert "Traceback" not in out


def test_the_same_seed_and_answers_give_the_same_game_and_another_seed_another(records, monkeypatch, capsys):
    first = played("loo", str(records / "loo.jsonl")).stdout.removesuffix(f"game record: {records}/loo.jsonl\n")
    assert duel_here(monkeypatch, capsys, "--game", "loo", *GAMES["loo"], "--seed", "3", answers=ANSWERS) == (
        0,
        first,
        "",
    )
    code, other, _ = duel_here(monkeypatch, capsys, "--game", "loo", *GAMES["loo"], "--seed", "4", answers=ANSWERS)
    assert code == 0 and other != first


def test_with_json_the_table_goes_to_standard_error_and_the_result_is_json(tmp_path, monkeypatch, capsys):
    record = tmp_path / "game.jsonl"
    code, out, err = duel_here(
        monkeypatch,
        capsys,
        "--game",
        "allfours",
        *GAMES["allfours"],
        "--seed",
        "5",
        "--json",
        "--record",
        str(record),
        answers="1\n" * 200,
    )
    assert code == 0, err
    result, row = json.loads(out), result_of(record)
    assert result["scores"] == {"you": row["score_0"], "seat 1": row["score_1"]}
    assert result["winner"] == ("you", "seat 1")[row["winner"]]
    assert result["players"][0] == "you" and result["decisions"] == err.count("your choice (")
    assert "game over" in result["lines"][0] and "your choice" in err


@pytest.mark.parametrize("answers, why", [("q\n", "quit"), ("", "end of input")])
def test_q_or_the_end_of_the_input_ends_the_game_in_one_line_with_status_1(answers, why, tmp_path, monkeypatch, capsys):
    record = tmp_path / "game.jsonl"
    code, out, err = duel_here(
        monkeypatch, capsys, "--game", "allfours", "--seed", "1", "--record", str(record), answers=answers
    )
    assert code == 1
    assert err == ""
    assert out.splitlines()[-1] == f"game ended ({why}) at your decision 1; no record written"
    assert not record.exists()


def test_output_closed_early_ends_the_game_quietly():
    """``sims duel ... | head``: the pipe closes and the game ends with status 1, no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sims", "duel", "--game", "loo", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.read(100)
    proc.stdout.close()
    _, err = proc.communicate(b"1\n" * 100, timeout=300)
    assert proc.returncode == 1 and err == b""


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "cribbage", "--seat", "2"], "--seat must be 0 .. 1 for six-card, got 2"),
        (["--game", "cribbage", "--against", "peg=nosuch"], "unknown peg policy 'nosuch'"),
        (
            ["--game", "loo", "--against", "bid=expert"],
            "--against: write POLICY or DECISION=POLICY,...; loo's decisions "
            "are declare, exchange, card, got 'bid=expert'",
        ),
        (["--game", "allfours", "--rules", "nine-up"], "nine-up"),
        (["--game", "chess"], "invalid choice: 'chess'"),
        (["--game", "loo", "--record", "no/such/folder/game.jsonl"], "--record no/such/folder/game.jsonl: no folder"),
    ],
)
def test_bad_options_are_one_line_and_status_2_before_the_game(argv, message, capsys):
    assert main(["duel", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and message in err


@pytest.mark.parametrize(
    "argv, others",
    [
        (["--game", "cribbage", "--against", "greedy"], "discard greedy, peg greedy"),
        (["--game", "cribbage", "--rules", "eight-card"], "discard expected_peg, peg distilled"),  # no position table
        (
            ["--game", "allfours", "--against", "play=maxims:knave=0"],
            "beg threshold, answer threshold, play maxims:knave=0, discard cheapest",
        ),
        (["--game", "loo"], "declare expert, exchange expert, card expert"),
    ],
)
def test_against_names_the_others_policies_the_strongest_by_default(argv, others, monkeypatch, capsys):
    code, out, _ = duel_here(monkeypatch, capsys, *argv, answers="q\n")
    assert code == 1 and f"the others play {others}\n" in out


def test_a_game_at_a_terminal():
    """Through a pseudo-terminal, as a person plays: prompts, the terminal's own echo, and the end."""
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sims", "duel", "--game", "allfours", "--rules", "seven-up", "--seed", "3"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)
    screen, deadline = b"", time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the terminal closed: the game is over
                    break
                if not chunk:
                    break
                screen += chunk
                if screen.rstrip().endswith(b"help):"):
                    os.write(master, b"1\n")
            elif proc.poll() is not None:
                break
    finally:
        os.close(master)
        proc.wait(timeout=60)
    text = screen.decode().replace("\r\n", "\n")
    assert proc.returncode == 0, text[-2000:]
    assert re.search(r"^game over: (you win|seat 1 wins) \(you \d+, seat 1 \d+\)$", text, re.M)
    # At a terminal the entry is echoed once, by the terminal: "help): 1" then the next line.
    assert "help): 1\n" in text and "help): 1\n1\n" not in text


def test_the_record_of_a_duel_is_reviewed_with_the_terminal_seat_named_you(records, capsys):
    record = str(records / "loo.jsonl")
    assert played("loo", record).returncode == 0
    assert main(["review", record, "--samples", "50"]) == 0
    out = capsys.readouterr().out
    mine = sum(1 for line in open(record) if '"player": 0,' in line)
    assert re.search(rf"^  you: {mine} decisions, ", out, re.M)
