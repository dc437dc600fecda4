"""The board-position and distilled players by name (sims.cribbage.policies): the same policies as
position_policies() and distilled_policy(), bit for bit, from the Python API and the CLI."""

from __future__ import annotations

import json

from sims.cli import main
from sims.core.policies import sha256
from sims.cribbage import play_games
from sims.cribbage.policies import DISTILLED, POSITION, POSITION_DISTILLED, resolve
from sims.cribbage.policies import distilled, position, position_vectors


def test_table_sizes_are_the_policies():
    assert POSITION.size == POSITION_DISTILLED.size == position.VECTOR_SIZE
    assert DISTILLED.size == distilled.N_PARAMS


def test_names_resolve_to_the_policies_of_the_modules():
    for base, name in (("defensive", "position"), ("distilled", "position_distilled")):
        made = position.position_policies(base=base)
        for decision in ("discard", "peg"):
            named = resolve(decision, name)
            assert (named.name, named.fn, named.params) == (
                made[decision].name,
                made[decision].fn,
                made[decision].params,
            )
    named, made = resolve("peg", "distilled"), distilled.distilled_policy()
    assert (named.name, named.fn, named.params) == (made.name, made.fn, made.params)


def test_named_players_play_the_same_games_as_position_policies():
    # Whole games from the cut reach the zone near home, where the position-aware players differ from
    # the baseline; the same seed must give the same games.
    made = position.position_policies(base="distilled")
    a = play_games("six-card-61", {"discard": "position", "peg": "position_distilled"}, 300, seed=7, records=True).games
    b = play_games(
        "six-card-61",
        {"discard": position.position_policies()["discard"], "peg": made["peg"]},
        300,
        seed=7,
        records=True,
    ).games
    assert a.equals(b)
    c = play_games("six-card-61", {"discard": "expected_net", "peg": "distilled"}, 300, seed=7, records=True).games
    d = play_games(
        "six-card-61", {"discard": "expected_net", "peg": distilled.distilled_policy()}, 300, seed=7, records=True
    ).games
    assert c.equals(d)


def test_cli_play_names_the_tables(capsys):
    assert (
        main(
            [
                "play",
                "--games",
                "200",
                "--rules",
                "five-card",
                "--discard",
                "position",
                "--peg",
                "position_distilled",
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    policies = json.loads(capsys.readouterr().out)["policies"]
    discard, peg = policies["discard"][0], policies["peg"][0]
    assert discard["name"] == "position" and discard["params"]["table"] == "shipped"
    assert peg["name"] == "position_distilled" and peg["params"]["table"] == "shipped-distilled"
    assert peg["params"]["sha256"] == sha256(position_vectors.named_tables()["shipped-distilled"])


def test_the_position_players_refuse_games_of_more_than_two(capsys):
    """Their tables are of two-handed games: three or four players get one line before any deal is dealt."""
    import pytest

    from sims.cribbage import simulate_deals

    for decision, rules, players in (("discard", "three-hand", 3), ("peg", "four-hand", 4)):
        for name in ("position", "position_distilled"):
            message = f"{decision} policy '{name}' plays games of 2 players only; these rules have {players}"
            with pytest.raises(ValueError) as info:
                simulate_deals(rules, {decision: name}, 10, seed=1)
            assert str(info.value) == message
    assert main(["simulate", "--rules", "three-hand", "--peg", "position", "--deals", "10"]) == 2
    assert capsys.readouterr().err.strip().endswith("plays games of 2 players only; these rules have 3")
    assert simulate_deals("six-card", {"discard": "position", "peg": "position"}, 10, seed=1).job.n == 10
