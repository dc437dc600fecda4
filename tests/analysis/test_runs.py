"""sims.analysis.runs: a missing or mismatched run directory is refused in plain words."""

from types import SimpleNamespace

import pytest

import sims
from sims.analysis.runs import load_run
from sims.core.registry import get_game
from sims.cribbage import get_rules


@pytest.fixture
def fake_load_run(monkeypatch):
    def fake(path):
        summary = (path / "summary").read_text() and SUMMARY
        return SimpleNamespace(summary=summary, path=path, job=SimpleNamespace(game=get_game("cribbage")))

    monkeypatch.setattr(sims, "load_run", fake, raising=False)


SUMMARY = {"kind": "deals", "rules": get_rules("six-card").to_dict(), "n": 10}


@pytest.fixture
def run_dir(tmp_path):
    (tmp_path / "summary").write_text("x")
    return tmp_path


def test_loads_a_matching_run(fake_load_run, run_dir):
    run = load_run(run_dir, kind="deals", rules="six-card")
    assert run.summary is SUMMARY
    assert load_run(str(run_dir)).path == run_dir


def test_missing_directory(fake_load_run, tmp_path):
    with pytest.raises(ValueError, match=r"run directory .*nowhere does not exist"):
        load_run(tmp_path / "nowhere")


def test_wrong_kind(fake_load_run, run_dir):
    with pytest.raises(ValueError, match="is a 'deals' run; this needs a 'games' run"):
        load_run(run_dir, kind="games")


def test_wrong_or_modified_rules(fake_load_run, run_dir):
    with pytest.raises(ValueError, match="used rules 'six-card'; this needs 'five-card'"):
        load_run(run_dir, rules="five-card")
    with pytest.raises(ValueError, match="used other settings of the rules 'six-card' than this needs"):
        load_run(run_dir, rules=get_rules("six-card").replace(bath_flush=True))
    with pytest.raises(ValueError, match="unknown rules"):
        load_run(run_dir, rules="nine-card")
