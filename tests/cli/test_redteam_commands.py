"""Hostile input to the newer commands (``peg``, ``advise``, ``review``, ``play --record``, ``duel``, ``verify``,
``py:`` policies, output paths, TLS files, ``crib-tables``): one line on stderr, exit status 2, no traceback,
nothing written, an answer within seconds.

Each case's name starts with what it did before the error boundary (:mod:`sims.cli.boundary`) and the path checks
(:mod:`sims.core.paths`): ``traceback``, ``hang``, ``accepted`` (a wrong exit 0) or ``smaller`` (a poor answer).
Most run :func:`sims.cli.main` in this process (what once began long work has that work replaced by a stand-in
that fails the test, so a relapse fails rather than hangs); those about a real process (``sys.exit`` in user
code, the environment, a scheduler's timeout) run ``python -m sims`` with a timeout.
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sims.cli import main
from sims.cli.boundary import LONGEST

ROOT = Path(__file__).resolve().parents[2]
HAND = ["5H", "5S", "JD", "6C", "4H", "KD"]
PEG = ["peg", "7H", "8C", "5D", "--played", "KS,2S,5H", "--starter", "2C", "--dealer"]
SIM = ["simulate", "--deals", "10", "--quiet"]
PLAY = ["play", "--games", "2", "--quiet", "--record"]
RUN = ["run", "--deals", "10", "--quiet"]
AF_KNAVE = ["advise", "--game", "allfours", "play", "JH", "3S", "--turned", "7H", "--role", "dealer"]
AF_KNAVE += ["--played", "KS,2S,QD,3D,9C,AC,4H,10H,8S"]  # the README's knave position
CRIB_RECORD = str(ROOT / "sims/cribbage/data/example-record.jsonl")
LONG = "x" * 300
SCHEDULER = ["--scheduler", "tls://127.0.0.1:9"]

# name: (argv, what the one line says); {inputs} the module's input folder, {tmp} the test's own
CASES = {
    # a py: module that fails at import, in every command that takes a policy
    "traceback: simulate, a py: module raising RuntimeError": (
        [*SIM, "--peg", "py:boom.fn"],
        "'py:boom.fn': importing boom failed: RuntimeError: boom",
    ),
    "traceback: peg, a py: module raising RuntimeError": (
        [*PEG, "--playout", "py:boom.fn"],
        "importing boom failed: RuntimeError: boom",
    ),
    "traceback: advise, a py: module raising RuntimeError": (
        ["advise", "--game", "allfours", "beg", *HAND, "--turned", "7H", "--playout", "py:boom.fn"],
        "importing boom failed: RuntimeError: boom",
    ),
    "traceback: review, a py: module raising RuntimeError": (
        ["review", CRIB_RECORD, "--playout", "py:boom.fn"],
        "importing boom failed: RuntimeError: boom",
    ),
    "traceback: duel, a py: module raising RuntimeError": (
        ["duel", "--game", "cribbage", "--against", "peg=py:boom.fn"],
        "importing boom failed",
    ),
    "traceback: simulate, a py: module with a SyntaxError": (
        [*SIM, "--peg", "py:broken_syntax.fn"],
        "importing broken_syntax failed: SyntaxError",
    ),
    "traceback: simulate, a py: module recursing at import": (
        [*SIM, "--peg", "py:recurse.fn"],
        "importing recurse failed: RecursionError",
    ),
    "traceback: simulate, a py: module whose eager njit does not type": (
        [*SIM, "--peg", "py:eager.fn"],
        "importing eager failed: TypingError",
    ),
    "traceback: simulate, a py: module raising OSError": (
        [*SIM, "--peg", "py:oserr.fn"],
        "importing oserr failed: FileNotFoundError",
    ),
    # output paths, checked before any game is played
    "traceback: play --record a directory": ([*PLAY, "{tmp}"], "is a directory"),
    "traceback: play --record in a place that cannot be written": (
        [*PLAY, "/sys/sims-record.jsonl"],
        "cannot be written",
    ),
    "traceback: play --record a name too long": ([*PLAY, "{tmp}/" + LONG], "a name of 300 bytes"),
    "traceback: play --record ''": ([*PLAY, ""], "--record: an empty path"),
    "traceback: duel --record a name too long": (
        ["duel", "--game", "cribbage", "--record", "{tmp}/" + LONG],
        "a name of 300 bytes",
    ),
    "traceback: duel --record a directory": (["duel", "--game", "cribbage", "--record", "{tmp}"], "is a directory"),
    "traceback: verify a name too long": (["verify", "{tmp}/" + LONG], "File name too long"),
    "traceback: run --tls-ca-file a name too long": (
        [*RUN, *SCHEDULER, "--tls-ca-file", "{tmp}/" + LONG, "--out", "{tmp}/out"],
        "a name of 300 bytes",
    ),
    "traceback: run --out under a file": ([*RUN, "--out", "{inputs}/garbage.pem/run"], "is not a directory"),
    "accepted: play --record a named pipe": ([*PLAY, "{inputs}/pipe"], "is a named pipe"),
    "accepted: play --record a character device": ([*PLAY, "{inputs}/device"], "is a device"),
    "accepted: play --record a symlink to a named pipe": ([*PLAY, "{inputs}/to-pipe"], "is a named pipe"),
    "accepted: play --record a symlink to standard output": ([*PLAY, "{inputs}/to-stdout"], "leads to"),
    "accepted: duel --record a named pipe": (
        ["duel", "--game", "cribbage", "--record", "{inputs}/pipe"],
        "is a named pipe",
    ),
    # ignored flags, play-outs checked before grading
    "accepted: crib-tables --discard with --iterate": (
        ["crib-tables", "--iterate", "2", "--discard", "greedy", "--deals", "100"],
        "--discard is not used with --iterate",
    ),
    "accepted: crib-tables --tol without --iterate": (
        ["crib-tables", "--tol", "0.1", "--deals", "100"],
        "--tol is used only with --iterate",
    ),
    "hang: crib-tables --iterate a billion": (
        ["crib-tables", "--iterate", "1000000000", "--deals", "100"],
        "--iterate must be 1 .. 50",
    ),
    "accepted: crib-tables --out a named pipe": (
        ["crib-tables", "--deals", "100", "--out", "{inputs}/table.csv"],
        "is a named pipe",
    ),
    "accepted: crib-tables --out a directory": (
        ["crib-tables", "--deals", "100", "--out", "{inputs}/folder.csv"],
        "is a directory",
    ),
    "accepted: review --playout nosuch": (
        ["review", CRIB_RECORD, "--playout", "nosuch"],
        "unknown peg policy 'nosuch'",
    ),
    "accepted: review --playout a discard policy": (
        ["review", CRIB_RECORD, "--playout", "expected_net"],
        "unknown peg policy 'expected_net'",
    ),
    "accepted: review --playout a bad parameter": (
        ["review", CRIB_RECORD, "--playout", "defensive:nosuch=1"],
        "nosuch",
    ),
    "accepted: review --playout rollout samples 0": (
        ["review", CRIB_RECORD, "--playout", "rollout:samples=0"],
        "'samples' takes a whole",
    ),
    "accepted: review --playout py: alone": (
        ["review", CRIB_RECORD, "--playout", "py:"],
        "write py:PACKAGE.MODULE.FUNCTION",
    ),
    "accepted: review --playout an unknown decision": (
        ["review", CRIB_RECORD, "--playout", "bid=greedy"],
        "--playout: cribbage's play-outs take",
    ),
    "accepted: review of All Fours, --playout play=nosuch": (
        ["review", str(ROOT / "sims/allfours/data/example-record.jsonl"), "--playout", "play=nosuch"],
        "unknown play policy 'nosuch'",
    ),
    "accepted: peg --infer of neither reading": ([*PEG, "--infer", "x"], "infer is one of playout, laws"),
    "accepted: advise All Fours, --infer of neither reading": (
        [*AF_KNAVE, "--infer", "x"],
        "infer is one of playout, laws",
    ),
    "accepted: review of All Fours, --playout nosuch=maxims": (
        ["review", str(ROOT / "sims/allfours/data/example-record.jsonl"), "--playout", "nosuch=maxims"],
        "--playout: allfours's play-outs take",
    ),
    # TLS files: the file and the problem
    "smaller: run --tls-ca-file not a certificate": (
        [*RUN, *SCHEDULER, "--tls-ca-file", "{inputs}/garbage.pem", "--out", "{tmp}/out"],
        "garbage.pem: not a PEM certificate",
    ),
    "smaller: run --tls-cert not a certificate": (
        [*RUN, *SCHEDULER, "--tls-cert", "{inputs}/garbage.pem", "--out", "{tmp}/out"],
        "garbage.pem: not a PEM certificate",
    ),
    "smaller: run --tls-ca-file a directory": (
        [*RUN, *SCHEDULER, "--tls-ca-file", "{tmp}", "--out", "{tmp}/out"],
        "is a directory",
    ),
    "smaller: run --tls-key a named pipe": (
        [*RUN, *SCHEDULER, "--tls-key", "{inputs}/pipe", "--out", "{tmp}/out"],
        "is a named pipe",
    ),
    # echoed input cut to a readable length
    "smaller: simulate, a 200,000-character policy name": ([*SIM, "--peg", "p" * 200_000], "unknown peg policy"),
    "smaller: review --playout of 200,000 characters": (
        ["review", CRIB_RECORD, "--playout", "p" * 200_000],
        "unknown peg policy",
    ),
    "smaller: run --rule of 200,000 characters": ([*RUN, "--rule", "q" * 200_000 + "=1", "--out", "{tmp}/out"], "qqq"),
    "smaller: discard --crib of 200,000 characters": (
        ["discard", *HAND, "--dealer", "--crib", "c" * 200_000],
        "unknown crib source",
    ),
}
# The cases a process of their own shows best: a hang before, the environment, the user's sys.exit.
FIRST_RUN = "sims: compiling the "  # the notice of a first run with a cold kernel cache (sims.core.first_run)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("inputs")
    modules = {
        "boom": "raise RuntimeError('boom')\n",
        "broken_syntax": "def fn(:\n",
        "recurse": "def f(n):\n    return f(n + 1)\nf(0)\n",
        "oserr": "open('/no/such/file/at/all')\n",
        "leave": "import sys\nsys.exit(0)\n",
        "eager": (
            "from numba import njit\nfrom sims.cribbage.contract import PEG_SIG\n\n\n"
            "@njit(PEG_SIG)\ndef fn(hand, played, mine, state, rng, params):\n"
            "    hand[0] = 1\n    return 0\n"
        ),
    }
    for name, text in modules.items():
        (folder / f"{name}.py").write_text(text)
    os.mkfifo(folder / "pipe")
    os.mkfifo(folder / "table.csv")
    (folder / "folder.csv").mkdir()
    os.mknod(folder / "device", stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own
    (folder / "to-pipe").symlink_to(folder / "pipe")
    (folder / "to-stdout").symlink_to("/proc/self/fd/1")
    (folder / "garbage.pem").write_text("not a certificate\n")
    return folder


def _unchanged(inputs: Path) -> None:
    assert stat.S_ISFIFO(os.lstat(inputs / "pipe").st_mode)
    assert stat.S_ISCHR(os.lstat(inputs / "device").st_mode)
    assert os.path.islink(inputs / "to-pipe") and os.path.islink(inputs / "to-stdout")


def _one_line(code, out, err, command, says) -> None:
    lines = [line for line in err.splitlines() if not line.startswith(FIRST_RUN)]
    assert "Traceback" not in err, err[-3000:]
    assert code == 2, (code, err[-2000:])
    assert len(lines) == 1, err[-2000:]
    assert lines[0].startswith(f"sims {command}: error: ") and says in lines[0], lines[0][:1000]
    assert len(lines[0]) <= LONGEST, lines[0][:1000]
    assert not out


@pytest.mark.parametrize("case", CASES)
def test_one_line_status_2_nothing_written(case, inputs, tmp_path, capsys, monkeypatch):
    argv, says = CASES[case]
    argv = [a.format(tmp=tmp_path, inputs=inputs) for a in argv]
    monkeypatch.chdir(tmp_path)
    import sims.core.api
    import sims.core.table
    import sims.cribbage.lab.crib_self_play

    monkeypatch.syspath_prepend(str(inputs))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))

    def nothing_played(*args, **kwargs):
        raise AssertionError("the work began before the bad input was refused")

    if argv[0] == "play":  # an output path is checked before the games are played
        monkeypatch.setattr(sims.core.api, "simulate", nothing_played)
        monkeypatch.setattr(sims.core.table, "play", nothing_played)
    monkeypatch.setattr(sims.cribbage.lab.crib_self_play, "iterate_tables", nothing_played)  # no endless iterating
    monkeypatch.setattr(sims.cribbage.lab.crib_self_play, "self_play_tables", nothing_played)
    code = main(argv)
    out, err = capsys.readouterr()
    _one_line(code, out, err, argv[0], says)
    assert not list(tmp_path.iterdir())
    _unchanged(inputs)


def _process(argv, inputs, tmp_path, **env):
    return subprocess.run(
        [sys.executable, "-m", "sims", *argv],
        capture_output=True,
        timeout=60,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": f"{ROOT}:{inputs}", **env},
    )


def test_traceback_sys_exit_in_a_py_module_is_one_line(inputs, tmp_path):
    done = _process([*SIM, "--peg", "py:leave.fn"], inputs, tmp_path)
    _one_line(
        done.returncode,
        done.stdout.decode(),
        done.stderr.decode(),
        "simulate",
        "importing leave failed: it called sys.exit(0)",
    )


def test_traceback_a_cache_directory_name_too_long_is_one_line(inputs, tmp_path):
    done = _process(PEG, inputs, tmp_path, SIMS_CACHE_DIR=str(tmp_path / LONG))
    _one_line(done.returncode, done.stdout.decode(), done.stderr.decode(), "peg", "SIMS_CACHE_DIR")


def test_traceback_an_undecodable_record_name_is_written_with_the_stores_permissions_and_printed(
    tmp_path, capsys, monkeypatch
):
    """A file name that is not UTF-8 (bytes from another system): the record is written, 0644 as the run store's
    files under the usual umask (not mkstemp's 0600), and its name printed escaped (capsys's output, like a
    UTF-8 terminal's, cannot encode it as it is)."""
    name = os.fsdecode(b"game-\xff.jsonl")
    monkeypatch.chdir(tmp_path)
    before = os.umask(0o022)
    try:
        code = main(["play", "--games", "1", "--quiet", "--record", name])
    finally:
        os.umask(before)
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert "game record: game-\\udcff.jsonl" in out
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left
    assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644


def test_smaller_a_refused_scheduler_run_leaves_no_out_folder(tmp_path, capsys, monkeypatch):
    """Nothing answers at the address: one line within the scheduler's timeout (1 s here), and no --out folder
    left."""
    import sims.core.executors

    monkeypatch.setattr(sims.core.executors, "SCHEDULER_SECONDS", 1)
    code = main([*RUN, "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    _one_line(code, out, err, "run", "no Dask scheduler answered")
    assert not (tmp_path / "out").exists()


def _duel(monkeypatch, capsys, stdin, *argv):
    monkeypatch.setattr(sys, "stdin", stdin)
    try:
        code = main(["duel", "--game", "cribbage", "--rules", "six-card-61", *argv])
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("answer", ["²", "9" * 5000, "", "-1", "1.5"])
def test_smaller_a_duel_answer_that_is_no_choice_asks_again(answer, monkeypatch, capsys):
    code, out, err = _duel(monkeypatch, capsys, io.StringIO(f"{answer}\nq\n"))
    assert "Traceback" not in err and code == 1, (code, err[-2000:])
    assert "not a legal choice here" in out and out.rstrip().splitlines()[-1].startswith("game ended (quit)")
    assert max(len(line) for line in out.splitlines()) <= LONGEST


def test_traceback_a_duel_with_standard_input_closed_ends_in_one_line(monkeypatch, capsys):
    code, out, err = _duel(monkeypatch, capsys, None)
    assert "Traceback" not in err and code == 1, (code, err[-2000:])
    assert out.rstrip().splitlines()[-1].startswith("game ended (end of input)")


def test_a_bug_in_sims_still_shows_its_traceback_and_says_so(monkeypatch, capsys):
    """Not the user's doing (a TypeError inside a command): the traceback, then one line calling it a bug."""
    import sims.cli.verify

    def slipped(args):
        raise TypeError("an internal slip")

    monkeypatch.setattr(sims.cli.verify, "run", slipped)
    code = main(["verify", "somewhere"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" in err and "TypeError: an internal slip" in err
    assert err.splitlines()[-1].startswith("sims verify: internal error, a bug in sims (TypeError)")
