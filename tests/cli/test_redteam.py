"""Bad input through the command line: one line on stderr, exit status 2, no traceback, nothing written.

The cases that once gave no answer, the spec nested past Python's recursion limit (a process's own stack, not
this one's under pytest), and one refused by the argument parser, run ``python -m sims`` in a process of its own
(:data:`IN_A_PROCESS`), so the test sees exactly what a user sees, with a timeout; the others, those that once
gave a traceback too (one would fail the test here as well), call :func:`sims.cli.main` in this process (the same
code from the parsed arguments on, without a second or two of start-up each).  Each runs in an empty working directory; inputs that are files (a spec nested 5,000
levels deep, a named pipe) are made in a folder beside it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HAND = ["5H", "5S", "JD", "6C", "4H", "KD"]
RUN = ["run", "--deals", "10", "--quiet"]
ALLFOURS = ["run", "--game", "allfours", "--games", "2", "--quiet"]

CASES = {
    # tracebacks
    "samples beyond int64": (
        ["discard", *HAND, "--dealer", "--crib", "greedy", "--samples", "1" + "0" * 20],
        "samples must be an integer from 2 to",
    ),
    "an output name of 300 characters": ([*RUN, "--out", "{tmp}/out/" + "x" * 300], "the filesystem takes at most"),
    "a spec nested 5,000 levels": (["run", "{inputs}/deep.toml", "--out", "{tmp}/out"], "nests"),
    # no answer
    "a named pipe as the spec": (["run", "{inputs}/pipe.toml", "--out", "{tmp}/out"], "not a regular file"),
    "a billion samples": (
        ["discard", *HAND, "--dealer", "--crib", "greedy", "--samples", "1000000000"],
        "samples must be an integer from 2 to 100,000",
    ),
    "odds --position without --deals": (["odds", "--position", "--score", "5-5"], "say how many with --deals"),
    # accepted before
    "a million threads (run)": ([*RUN, "--threads", "1000000", "--out", "{tmp}/out"], "threads must be at most"),
    "a million threads (odds)": (
        ["odds", "--build", "--deals", "1000", "--threads", "1000000"],
        "threads must be at most",
    ),
    "review of a file that is not there": (
        ["review", "{tmp}/no-such-record.jsonl"],
        "no-such-record.jsonl: No such file or directory",
    ),
    "a million local Dask workers": (
        [*RUN, "--workers", "1000000", "--out", "{tmp}/out"],
        "workers must be a whole number from 1 to",
    ),
    "an 80-digit seed": ([*RUN, "--seed", "9" * 80, "--out", "{tmp}/out"], "got a number of 80 digits"),
    "a repeated parameter": (
        [*RUN, "--peg", "defensive:risk_weight=1:risk_weight=2", "--out", "{tmp}/out"],
        "'risk_weight' is given twice",
    ),
    "rollout samples 0": ([*RUN, "--peg", "rollout:samples=0", "--out", "{tmp}/out"], "'samples' takes a whole"),
    "rollout samples 0.5": ([*RUN, "--peg", "rollout:samples=0.5", "--out", "{tmp}/out"], "'samples' takes a whole"),
    "rollout samples 1e300": (
        [*RUN, "--peg", "rollout:samples=1e300", "--out", "{tmp}/out"],
        "'samples' takes a whole",
    ),
    "defensive keep_close 2": (
        [*RUN, "--peg", "defensive:keep_close=2", "--out", "{tmp}/out"],
        "'keep_close' takes 0 (off) or 1 (on)",
    ),
    "maxims knave 2": ([*ALLFOURS, "--play", "maxims:knave=2", "--out", "{tmp}/out"], "'knave' takes 0 (off) or 1"),
    "maxims knave 0.5": ([*ALLFOURS, "--play", "maxims:knave=0.5", "--out", "{tmp}/out"], "'knave' takes 0 (off)"),
    "all fours expert samples 0": (
        [*ALLFOURS, "--play", "expert:samples=0", "--out", "{tmp}/out"],
        "'samples' takes a whole",
    ),
    "all fours expert samples -3": (
        [*ALLFOURS, "--play", "expert:samples=-3", "--out", "{tmp}/out"],
        "'samples' takes a whole",
    ),
    "all fours expert max_nodes 0": (
        [*ALLFOURS, "--play", "expert:max_nodes=0", "--out", "{tmp}/out"],
        "'max_nodes' takes a whole",
    ),
    "all fours expert max_nodes -1": (
        [*ALLFOURS, "--play", "expert:max_nodes=-1", "--out", "{tmp}/out"],
        "'max_nodes' takes a whole",
    ),
    "all fours beg answer 2": ([*ALLFOURS, "--beg", "beg:answer=2", "--out", "{tmp}/out"], "'answer' takes 0"),
    "loo expert samples 0": (
        ["run", "--game", "loo", "--deals", "2", "--quiet", "--card", "expert:samples=0", "--out", "{tmp}/out"],
        "'samples' takes a whole",
    ),
    "compile --jobs 0": (["compile", "--jobs", "0"], "expected a positive integer"),
    "policies --game ''": (["policies", "--game", ""], "unknown game ''"),
    "discard --crib ''": (["discard", *HAND, "--dealer", "--crib", ""], "unknown crib source ''"),
    "discard --role eldest in a two-hand game": (["discard", *HAND, "--role", "eldest"], "unknown role 'eldest'"),
    "spec params [true, 1, 1, 1]": (
        ["run", "{inputs}/params.toml", "--out", "{tmp}/out"],
        "'risk_weight' must be a number, got True",
    ),
    "verify a directory that is not there": (["verify", "{tmp}/out"], "does not exist"),
    "TLS files without a tls:// scheduler": (
        [*RUN, "--tls-ca-file", "{inputs}/params.toml", "--out", "{tmp}/out"],
        "goes with a tls:// scheduler",
    ),
    "advise a card out of turn": (
        ["advise", "--game", "allfours", "play", "AH", "--turned", "7H", "--played", "KH"],
        "it is the dealer's turn to play, not yours",
    ),
    "advise a card seen twice": (
        ["advise", "--game", "loo", "declare", "AS", "5H", "9C", "--trump", "AS"],
        "duplicate card AS",
    ),
    "advise a billion samples": (
        ["advise", "--game", "allfours", "beg", *HAND, "--turned", "7H", "--samples", "1000000000"],
        "samples must be an integer from 2 to 100,000",
    ),
    "advise a score with a colon": (
        ["advise", "--game", "allfours", "beg", *HAND, "--turned", "7H", "--score", "6:8"],
        "the score is MINE-THEIRS",
    ),
    "advise exchanged x": (
        [
            "advise",
            "--game",
            "loo",
            "exchange",
            *HAND[:5],
            "--trump",
            "2H",
            "--rules",
            "five-card-pam",
            "--exchanged",
            "x",
        ],
        "--exchanged takes how many cards",
    ),
    "advise a Loo decision in All Fours": (
        ["advise", "--game", "allfours", "declare", *HAND[:3], "--trump", "2H"],
        "invalid choice: 'declare'",
    ),
    "advise an unknown playout": (
        ["advise", "--game", "allfours", "beg", *HAND, "--turned", "7H", "--playout", "wild"],
        "unknown play policy 'wild'",
    ),
    # policies from other packages (issue 19, item 6)
    "a policy path that does not import": (
        [*RUN, "--peg", "py:no_such_package.module.fn", "--out", "{tmp}/out"],
        "peg policy 'py:no_such_package.module.fn': importing no_such_package.module failed",
    ),
    "a policy path with parameters it does not declare": (
        [*RUN, "--peg", "py:sims.cribbage.policies.builtin.greedy_peg:x=1", "--out", "{tmp}/out"],
        "peg policy 'greedy_peg' declares no parameters, so none can be named",
    ),
    "an empty policy path": ([*RUN, "--peg", "py:", "--out", "{tmp}/out"], "write py:PACKAGE.MODULE.FUNCTION"),
    "a policy path to a plain function": (
        [*RUN, "--peg", "py:os.path.join", "--out", "{tmp}/out"],
        "peg policy 'join' must be an @njit function peg(hand: int64[:] read-only",
    ),
    "a policy path to a function of another decision": (
        [*RUN, "--peg", "py:sims.cribbage.policies.builtin.greedy_discard", "--out", "{tmp}/out"],
        "peg policy 'greedy_discard' does not compile as peg(hand: int64[:] read-only, played: int64[:] read-only",
    ),
    "a spec naming a policy by path": (
        ["run", "{inputs}/path.toml", "--out", "{tmp}/out"],
        "peg = 'py:sims.cribbage.policies.builtin.greedy_peg' names a function by path, "
        "which imports and runs its module",
    ),
    "an unknown policy name": (
        [*RUN, "--peg", "no_such_policy", "--out", "{tmp}/out"],
        "unknown peg policy 'no_such_policy'; choose from",
    ),
}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "deep.toml").write_text("deals = 10\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    os.mkfifo(folder / "pipe.toml")
    (folder / "params.toml").write_text(
        'deals = 10\nquiet = true\npeg = {name = "defensive", params = [true, 1, 1, 1]}\n'
    )
    (folder / "path.toml").write_text(
        'deals = 10\nquiet = true\npeg = "py:sims.cribbage.policies.builtin.greedy_peg"\n'
    )
    return folder


# No answer before (a process of their own, with a timeout), the recursion limit, and a usage error of the parser.
IN_A_PROCESS = {
    "a spec nested 5,000 levels",
    "a named pipe as the spec",
    "a billion samples",
    "advise a Loo decision in All Fours",
}
assert IN_A_PROCESS <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_line_and_status_2_with_nothing_written(case, inputs, tmp_path, capsys, monkeypatch):
    argv, says = CASES[case]
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    argv = [a.format(tmp=tmp_path, inputs=inputs) for a in argv]
    if case in IN_A_PROCESS:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-m", "sims", *argv],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
        code, out, err = done.returncode, done.stdout, done.stderr
    else:
        from sims.cli import main

        monkeypatch.chdir(cwd)
        code = main(argv)
        out, err = capsys.readouterr()
    lines = err.splitlines()
    assert code == 2, err[-2000:]
    assert len(lines) == 1 and "Traceback" not in err, err[-2000:]
    assert lines[0].startswith(f"sims {argv[0]}: error: ") and says in lines[0], lines[0]
    assert not out
    assert not any(cwd.iterdir()) and not (tmp_path / "out").exists()
