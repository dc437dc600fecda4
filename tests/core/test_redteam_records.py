"""Hostile game records given to ``sims review`` (:mod:`sims.core.record_schema`, docs/records.md): one line on
stderr naming the line and the field, exit status 2, no traceback, before any decision is graded.

Each case's name starts with what it did before the schema: ``traceback``, ``hang``, ``accepted`` (graded as if
sound) or ``control`` (refused already, kept so that it stays refused)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sims.cli import main

ROOT = Path(__file__).resolve().parents[2]
HEADER = {
    "format": "sims-record/2",
    "game": "cribbage",
    "rules": "six-card",
    "seed": 0,
    "games": 1,
    "players": ["Ann", "Bob"],
}
PEG = {
    "player": 0,
    "decision": "peg",
    "hand": "KS 5H 4D 5C",
    "role": "pone",
    "starter": "2C",
    "thrown": "9S JC",
    "score": [104, 97],
    "choice": "KS",
}
DEEP = "[" * 5000 + "]" * 5000


def _lines(header=None, decision=None, drop=()) -> str:
    header = {k: v for k, v in {**HEADER, **(header or {})}.items() if k not in drop}
    return "\n".join([json.dumps(header), json.dumps({**PEG, **(decision or {})})]) + "\n"


# name: (the record's text, what the one line says)
CASES = {
    "traceback: header nested 5,000 deep": (
        '{"format": "sims-record/2", "rules": ' + DEEP + "}\n",
        "line 1: nested deeper than",
    ),
    "traceback: decision nested 5,000 deep": (
        _lines().splitlines()[0] + '\n{"hand": ' + DEEP + "}\n",
        "line 2: nested deeper than",
    ),
    "traceback: a line that is 5,000 lists deep": (DEEP + "\n", "line 1: nested deeper than"),
    "traceback: header without a game": (_lines(drop=("game",)), "line 1: game: missing"),
    "traceback: a game with no records module": (
        _lines({"game": "triumph", "rules": "two-hand"}),
        "line 1: game: triumph keeps no game records",
    ),
    "traceback: games a list": (_lines({"games": [1]}), "line 1: games: a whole number from 1 to"),
    "traceback: players a string": (_lines({"players": "Ann"}), "line 1: players: a list of 1 to"),
    "accepted: games -5": (_lines({"games": -5}), "line 1: games: a whole number from 1 to"),
    "accepted: games 0": (_lines({"games": 0}), "line 1: games: a whole number from 1 to"),
    "accepted: games 1e300": (_lines({"games": 1e300}), "line 1: games: a whole number from 1 to"),
    "accepted: games a trillion": (_lines({"games": 10**12}), "line 1: games: a whole number from 1 to"),
    "accepted: games true": (_lines({"games": True}), "line 1: games: a whole number from 1 to"),
    "accepted: seed 'abc'": (_lines({"seed": "abc"}), "line 1: seed: a whole number from 0 to"),
    "accepted: seed -1": (_lines({"seed": -1}), "line 1: seed: a whole number from 0 to"),
    "accepted: seed 1.5": (_lines({"seed": 1.5}), "line 1: seed: a whole number from 0 to"),
    "accepted: seed true": (_lines({"seed": True}), "line 1: seed: a whole number from 0 to"),
    "accepted: an unknown header key": (_lines({"colour": "red"}), "line 1: unknown field 'colour'"),
    "accepted: a player's name of 10,000 characters": (
        _lines({"players": ["A" * 10_000, "Bob"]}),
        "line 1: players: a list of 1 to",
    ),
    "accepted: an empty player's name": (_lines({"players": ["", "Bob"]}), "line 1: players: a list of 1 to"),
    "accepted: score [97.5, 104]": (_lines(decision={"score": [97.5, 104]}), "line 2: score: whole numbers"),
    "accepted: score [true, false]": (_lines(decision={"score": [True, False]}), "line 2: score: whole numbers"),
    "accepted: score [-3, 4]": (_lines(decision={"score": [-3, 4]}), "line 2: score: whole numbers"),
    "accepted: score a million": (_lines(decision={"score": [10**6, 4]}), "line 2: score: whole numbers"),
    "accepted: a hand of 10,000 characters": (_lines(decision={"hand": "KS " * 3_000}), "line 2: hand: a text of"),
    "accepted: a result of lists": (
        _lines() + '{"game": 0, "result": {"winner": [[1]]}}\n',
        "line 3: result: a table of names to numbers",
    ),
    "control: format unknown": (_lines({"format": "pgn"}), "line 1: the header must say format"),
    "control: an unknown decision": (_lines(decision={"decision": "bid"}), "line 2: decision must be"),
    "control: player true": (_lines(decision={"player": True}), "line 2: player must be"),
    "control: a line that is not JSON": (_lines() + "{\n", "line 3: not JSON"),
}
LONGEST = 400


@pytest.mark.parametrize("case", CASES)
def test_a_bad_record_is_one_line_before_grading(case, tmp_path, capsys, monkeypatch):
    import sims.core.record

    text, says = CASES[case]
    path = tmp_path / "game.jsonl"
    path.write_text(text)

    def graded(*args, **kwargs):
        raise AssertionError("a decision was graded")

    monkeypatch.setattr(sims.core.record, "records_module", _no_grading(sims.core.record.records_module, graded))
    code = main(["review", str(path), "--samples", "2"])
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert "Traceback" not in err and code == 2, (code, err[-2000:])
    assert len(lines) == 1 and lines[0].startswith("sims review: error: ") and says in lines[0], lines[0][:1000]
    assert f"{path.name} line" in lines[0]
    assert len(lines[0]) <= LONGEST and not out
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]


def _no_grading(records_module, graded):
    """``records_module`` with its ``grade`` replaced by ``graded`` (which fails the test)."""
    import types

    def patched(game):
        module = records_module(game)
        return types.SimpleNamespace(**{**vars(module), "grade": graded})

    return patched


@pytest.fixture
def specials(tmp_path) -> Path:
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "zero.jsonl").symlink_to("/dev/zero")
    with open(tmp_path / "huge.jsonl", "wb") as out:  # sparse: 200 MB of nothing on disk
        out.truncate(200 * 2**20)
    return tmp_path


@pytest.mark.parametrize("name, says", [("pipe.jsonl", "is a named pipe"), ("zero.jsonl", "is a device")])
def test_hang_a_record_that_is_no_regular_file_is_refused_unread(specials, name, says):
    """A process of its own, with a timeout: read, a named pipe blocks and a device never ends."""
    done = subprocess.run(
        [sys.executable, "-m", "sims", "review", str(specials / name)],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines = done.stderr.splitlines()
    assert "Traceback" not in done.stderr and done.returncode == 2, done.stderr[-2000:]
    assert len(lines) == 1 and says in lines[0], lines


def test_smaller_a_record_too_large_is_refused_unread(specials, capsys):
    assert main(["review", str(specials / "huge.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "huge.jsonl: a record of 209,715,200 bytes, and at most" in err, err


def test_hang_a_long_review_says_how_long_first_and_shows_a_bar(tmp_path, capsys, monkeypatch):
    """2,000 decisions (half a minute or more to grade; the issue's 20,000 took minutes): how many comes before
    the grading, a bar with the time left during it; with ``--quiet`` neither.  The grading itself is replaced
    here by a stand-in that stops the review after a few decisions."""
    import sims.core.progress
    import sims.core.record

    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(HEADER) + "\n" + (json.dumps(PEG) + "\n") * 2_000)
    calls = []

    def graded(situation, choice, samples, seed, playout):
        calls.append(choice)
        if len(calls) > 3:
            raise KeyboardInterrupt("stop here")  # the test has seen what it needs
        return {"best": choice, "points_lost": 0.0, "points_lost_se": 0.0, "win": None, "win_lost": None}

    monkeypatch.setattr(sims.core.record, "records_module", _no_grading(sims.core.record.records_module, graded))
    monkeypatch.setattr(sims.core.progress, "DELAY", 0)
    assert main(["review", str(path)]) == 130
    err = capsys.readouterr().err
    assert "sims review: 2,000 decisions to grade" in err and "/2000" in err, err[-2000:]
    calls.clear()
    assert main(["review", str(path), "--quiet"]) == 130
    assert capsys.readouterr().err.splitlines() == ["sims review: stop here"]
