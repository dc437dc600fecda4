"""The round robin of policy combos and the strength report."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sims.cli import main
from sims.cribbage.lab.tournament import LITERATURE, parse_combo, round_robin, strength, win_matrix

PAIR = ("greedy+greedy", "random+random")


def test_round_robin_rows_and_matrix():
    frame = round_robin("six-card", PAIR, n_games=100, seed=1)
    assert list(frame.combo) == list(PAIR) and list(frame.opponent) == list(PAIR[::-1])
    assert (frame.games == 100).all() and frame.wins.sum() == 100
    assert np.allclose(frame.rate, frame.wins / 100)
    assert (frame.lo <= frame.rate).all() and (frame.rate <= frame.hi).all()
    assert frame.lo[0] > 0.9  # greedy play beats random play nearly every game (it won 99 of 100 in tests)
    matrix = win_matrix(frame)
    assert list(matrix.index) == list(PAIR) and np.isnan(matrix.iloc[0, 0])
    assert matrix.loc[PAIR[0], PAIR[1]] + matrix.loc[PAIR[1], PAIR[0]] == pytest.approx(1)


def test_seats_exchanged_on_the_same_deals():
    # Half the games with each combo in seat 0 on the same seed: listing the combos the other way round
    # plays the very same games, so the result mirrors exactly.
    one = round_robin("six-card", ("greedy+greedy", "expected_hand+greedy"), n_games=60, seed=2)
    two = round_robin("six-card", ("expected_hand+greedy", "greedy+greedy"), n_games=60, seed=2)
    assert one.wins.tolist() == two.wins.tolist()[::-1]


def test_partners_and_multi_player_rules():
    frame = round_robin("four-hand", PAIR, n_games=20, seed=3)
    assert frame.wins.sum() == 20
    with pytest.raises(ValueError, match="needs two sides; three-hand has 3"):
        round_robin("three-hand", PAIR, n_games=20)


@pytest.mark.parametrize(
    "combos, n, message",
    [
        (("greedy", "random+random"), 10, "combo is DISCARD\\+PEG"),
        (("greedy+nope", "random+random"), 10, "unknown peg policy 'nope'"),
        (("nope+greedy", "random+random"), 10, "unknown discard policy 'nope'"),
        (("greedy+greedy",), 10, "at least two"),
        (("greedy+greedy", "greedy+greedy"), 10, "listed twice"),
        (PAIR, 1, "at least 2"),
    ],
)
def test_round_robin_bad_input(combos, n, message):
    with pytest.raises(ValueError, match=message):
        round_robin("six-card", combos, n_games=n)


def test_parse_combo():
    assert parse_combo(" expected_net+rollout ") == ("expected_net", "rollout")
    with pytest.raises(ValueError, match="DISCARD\\+PEG"):
        parse_combo("a+b+c")


def test_strength_table():
    frame = strength("six-card", "expected_net+defensive", n_deals=4_000, n_games=200, seed=1)
    rows = frame.set_index(["role", "component"])
    assert rows.loc[("dealer", "total"), "lit_lo"] == LITERATURE["dealer", "total"][0]
    parts = (
        rows.loc[("dealer", "hand"), "estimate"]
        + rows.loc[("dealer", "crib"), "estimate"]
        + rows.loc[("dealer", "pegging"), "estimate"]
        + rows.loc[("dealer", "heels"), "estimate"]
    )
    assert rows.loc[("dealer", "total"), "estimate"] == pytest.approx(parts)
    both = rows.loc[("dealer", "pegging+heels")]
    assert both.estimate == pytest.approx(
        rows.loc[("dealer", "pegging"), "estimate"] + rows.loc[("dealer", "heels"), "estimate"]
    )
    assert both.lo < both.estimate < both.hi and both.lit_lo == LITERATURE["dealer", "pegging"][0] == 3.5
    assert ("pone", "pegging+heels") not in rows.index
    wins = rows.loc[("first dealer", "wins")]
    assert wins.n == 200 and wins.lo < wins.estimate < wins.hi and wins.lit_lo == 0.55
    assert ("pone", "crib") not in rows.index
    other = strength("five-card", "greedy+greedy", n_deals=1_000, n_games=50, seed=1)
    assert other.lit_lo.isna().all()  # the expert figures are for six-card
    with pytest.raises(ValueError, match="two-handed"):
        strength("three-hand", "greedy+greedy", n_deals=100, n_games=10)


def test_cli(capsys):
    assert main(["round-robin", "--games", "20", "--policies", ",".join(PAIR)]) == 0
    out = capsys.readouterr().out
    assert "win rate of the row against the column" in out and "greedy+greedy" in out
    assert main(["round-robin", "--games", "20", "--policies", ",".join(PAIR), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["matrix"]["greedy+greedy"]["greedy+greedy"] is None and len(result["pairs"]) == 2
    assert main(["strength", "--deals", "1000", "--games", "20", "--policies", "greedy+greedy", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rows"][-1]["role"] == "first dealer"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["round-robin", "--policies", "greedy+greedy,nope+greedy"], "unknown discard policy 'nope'"),
        (["round-robin", "--rules", "three-hand"], "needs two sides"),
        (["strength", "--policies", "greedy"], "DISCARD+PEG"),
    ],
)
def test_cli_errors(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith(f"sims {argv[0]}: error:")
