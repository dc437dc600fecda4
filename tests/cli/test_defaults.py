"""Defaults: without a policy flag every game plays its strongest players at full speed (the same numbers as
naming them), and the command line says which defaults it used; the first run says it compiles, once."""

from __future__ import annotations

import json

import pytest

from sims.cli import main
from sims.core import first_run
from sims.core.api import simulate
from sims.core.cache import kernel_dir
from sims.core.registry import get_game

STRONGEST = {
    "cribbage": {"discard": "expected_peg", "peg": "distilled"},
    "allfours": {"beg": "threshold", "answer": "threshold", "play": "maxims", "discard": "cheapest"},
    "loo": {"declare": "expert", "exchange": "threshold", "card": "greedy"},
}


def test_the_defaults_are_the_strongest_players():
    assert {name: {d.name: d.default for d in get_game(name).decisions} for name in STRONGEST} == STRONGEST


@pytest.mark.parametrize("game", list(STRONGEST))
def test_default_numbers_are_those_of_the_named_players(game):
    rules = get_game(game).default_preset
    by_default = simulate(game, "deals", rules, None, 3000, seed=7).summary
    named = simulate(game, "deals", rules, STRONGEST[game], 3000, seed=7).summary
    assert by_default["roles"] == named["roles"] and by_default["policies"] == named["policies"]


def test_the_output_names_the_defaults_used(capsys):
    assert main(["simulate", "--deals", "200", "--quiet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["defaults"] == {"discard": "expected_peg", "peg": "distilled"}
    assert main(["simulate", "--deals", "200", "--discard", "greedy", "--quiet"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last == "default policies: peg distilled (the game's strongest at full speed; --peg to choose)"
    assert (
        main(
            [
                "play",
                "--game",
                "loo",
                "--games",
                "2",
                "--declare",
                "threshold",
                "--exchange",
                "keep",
                "--card",
                "greedy",
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["defaults"] == {}


def test_the_first_run_says_it_compiles_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SIMS_CACHE_DIR", str(tmp_path))
    loo = get_game("loo")
    engine = loo.engine
    assert first_run.is_cold(engine)
    first_run.announce(loo)
    first_run.announce(loo)  # another job before the kernels compiled: said once a cache
    assert capsys.readouterr().err == (
        f"sims: compiling the loo kernels, once (about {loo.compile_time} on 2 cores; later runs load them from "
        f"{tmp_path})\n"
    )
    folder = kernel_dir(tmp_path, (engine,))  # where the locator puts the engine's kernels
    assert folder.parent == tmp_path / "sims" / "loo" and folder.name.startswith("engine-")
    folder.mkdir(parents=True)
    assert first_run.is_cold(engine)  # an empty folder: nothing compiled yet
    (folder / "engine.play_chunks-1.nbi").write_bytes(b"")
    first_run.announce(loo)
    assert not first_run.is_cold(engine) and capsys.readouterr().err == ""


def test_a_game_whose_engine_defines_no_kernel_is_warm_once_its_policies_module_is(tmp_path, monkeypatch, capsys):
    """Triumph's engine only declares loops, which belong to the module of the items they play (its policies'):
    the engine's folder stays empty, and the game is warm once that module's is not (no notice every run)."""
    pytest.importorskip("triumph")
    monkeypatch.setenv("SIMS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(first_run, "_ANNOUNCED", set())
    triumph = get_game("triumph")
    folder = kernel_dir(tmp_path, ("triumph.play",))
    folder.mkdir(parents=True)
    (folder / "play.random_card-1.nbi").write_bytes(b"")
    assert first_run.is_cold(triumph.engine) and not first_run.is_cold(triumph.engine, ["triumph.play"])
    first_run.announce(triumph)
    assert capsys.readouterr().err == ""
