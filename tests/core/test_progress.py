"""sims.core.progress: a run shows a progress bar on standard error once it has lasted DELAY seconds, so a
quick command prints none; --quiet shows none at all."""

from __future__ import annotations

from sims.cli import main
from sims.core import progress

SIMULATE = ["simulate", "--deals", "200", "--seed", "1", "--discard", "random", "--peg", "random"]


def test_a_quick_run_prints_no_bar(capsys):
    assert main(SIMULATE) == 0
    assert capsys.readouterr().err == ""


def test_a_run_past_the_delay_shows_its_bar_and_quiet_shows_none(capsys, monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    assert main(SIMULATE) == 0
    assert "cribbage six-card deals" in capsys.readouterr().err
    assert main([*SIMULATE, "--quiet"]) == 0
    assert capsys.readouterr().err == ""
