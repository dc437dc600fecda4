"""The table of the position-aware players (sims.cribbage.lab.odds.position): the zone's paired deals, the
recursion that uses them, and the table against whole games played on from positions in the zone."""

from __future__ import annotations

import numpy as np
import pytest

from sims.cribbage.lab.odds import position as odds_position
from sims.cribbage.lab.odds.build import win_table
from sims.cribbage.lab.odds.direct import games_from
from sims.cribbage.lab.odds.induction import solve
from sims.cribbage.policies.position import position_policies
from sims.cribbage.rules import get_rules
from tests.cribbage.odds.test_tables import counts_from
from tests.cribbage.odds.test_timings import deals, outcome


def test_reading_a_deal_at_a_position():
    _, ev, n_ev, _, _, _ = deals("six-card", 200, seed=9)
    out = np.zeros(3, dtype=np.int64)
    rng = np.random.default_rng(2)
    for g in range(200):
        d, p = rng.integers(90, 121, size=2)
        odds_position.read_deal(ev[g], n_ev[g], d, p, 121, out)
        who, have = outcome(ev[g, :, : n_ev[g]], 121 - d, 121 - p)
        if who is None:
            assert out.tolist() == [odds_position.GOES_ON, have[0], have[1]]
        else:
            assert out[0] == who and out[1] == (p + have[1] if who == 0 else d + have[0])


def test_deals_played_alike_leave_the_table_as_counted():
    # When the played deals of the zone come out as the counted ones, the zone adds nothing.
    _, ev, n_ev, _, _, _ = deals("six-card", 400, seed=3)
    target = 30
    counts = counts_from([ev[g, :, : n_ev[g]] for g in range(400)], target)
    index = odds_position.zone_of(get_rules("six-card").replace(target=target, lurch=0, double_lurch=0), 6)
    samples = np.zeros((int((index >= 0).sum()), 50, 2, 3), dtype=np.int64)
    positions = np.argwhere(index >= 0)
    for j, (d, p) in enumerate(positions):
        for i in range(50):
            odds_position.read_deal(ev[i], n_ev[i], d, p, target, samples[j, i, 0])
    samples[:, :, 1] = samples[:, :, 0]
    plain = solve(target, counts, 400, 0, 0)
    zoned = solve(target, counts, 400, 0, 0, zone=index, samples=samples)
    assert np.allclose(plain[0], zoned[0], atol=1e-12) and np.allclose(plain[1], zoned[1], atol=1e-12)


def test_the_position_table_agrees_with_games_played_on():
    # Five-card to 61, the players' zone the last 5 points: their table from 75 deals a position, against
    # whole games of the same players from four positions of the zone (within 4 standard errors; seed 5 lands
    # within 1.2, and within 1.9 at 150 deals a position, the size this test had).
    base = win_table("five-card", n_deals=40_000, seed=5, groups=10)
    players = position_policies([base], zone=5)
    table = odds_position.position_table("five-card", players, n_deals=40_000, per_position=75, seed=5, groups=10)
    assert table.provenance["zone"] == 5 and table.provenance["zone_positions"] == 61 * 61 - 56 * 56
    positions = [(57, 58), (58, 57), (56, 40), (40, 56)]
    direct = games_from("five-card", players, positions, 2500, seed=31)
    for row in direct.itertuples():
        se = np.hypot(table.win_se[row.dealer, row.pone], np.sqrt(row.win * (1 - row.win) / row.games))
        assert abs(table.win[row.dealer, row.pone] - row.win) < 4 * se, row
    # Outside the zone's reach the players play the baseline: far positions barely move.
    assert abs(table.win[0, 3] - base.win[0, 3]) < 0.01


def test_zone_deals_streamed_in_blocks_make_the_same_table(monkeypatch):
    # The zone's deals are played a diagonal and a block at a time and summed as they come (nothing kept per
    # deal): any block size gives the same bits, and a block is the deals zone_deals plays all at once.
    from sims.cribbage.lab.odds import induction

    base = win_table("five-card", n_deals=4000, seed=5, groups=4)
    players = position_policies([base], zone=4)
    whole = odds_position.position_table("five-card", players, n_deals=4000, per_position=10, seed=5, groups=4)
    monkeypatch.setattr(induction, "BLOCK_DEALS", 3)
    blocks = odds_position.position_table("five-card", players, n_deals=4000, per_position=10, seed=5, groups=4)
    for name in ("win", "win_se", "game_points", "game_points_se"):
        assert getattr(whole, name).tobytes() == getattr(blocks, name).tobytes(), name
    deals = odds_position.ZoneDeals("five-card", players, 4, 10, 5)
    stored = odds_position.zone_deals("five-card", players, 4, 10, 5)
    assert np.array_equal(deals(np.array([7, 2]), 4, 9), stored[[7, 2], 4:9])
    assert not np.array_equal(stored[7, 4:9], stored[2, 4:9])


def test_bad_input():
    with pytest.raises(ValueError, match="per_position"):
        odds_position.position_table("five-card", per_position=0)
    with pytest.raises(ValueError, match="no table for 'eight-card'"):
        odds_position.position_table("eight-card", per_position=5, n_deals=100, groups=2)


def test_throw_win_chances():
    # The pone on 115 needs 6: every throw that keeps six points whatever the starter (a run of three and
    # two fifteens, or three fifteens) nearly always wins; throwing the two fives keeps JD 6C 4H KD, which
    # needs a starter to make anything.  And the position-aware discard lays out the best throw.
    from sims.cribbage.odds.throws import throw_win_chances

    frame = throw_win_chances("5H 5S JD 6C 4H KD", "pone", 110, 115)
    assert len(frame) == 15 and frame["win"].is_monotonic_decreasing
    assert frame["win"].iloc[0] > 0.99
    assert frame.set_index("thrown").loc["5H 5S", "win"] < 0.5
    from sims.cards import parse_cards
    from sims.cribbage.contract import S_MY_SCORE, S_OPP_SCORE, S_ROLE, S_SIZE, S_TARGET
    from sims.cribbage.policies.position_throw import position_discard

    players = position_policies()
    hand = np.asarray(parse_cards("5H 5S JD 6C 4H KD"), dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE], state[S_MY_SCORE], state[S_OPP_SCORE], state[S_TARGET] = 1, 115, 110, 121
    mask = position_discard(
        hand,
        state,
        get_rules("six-card").to_kernel(),
        np.ones(4, dtype=np.uint64),
        np.asarray(players["discard"].params),
    )
    chosen = " ".join(sorted(c for i, c in enumerate("5H 5S JD 6C 4H KD".split()) if (mask >> i) & 1))
    best = frame[frame["win"] == frame["win"].max()]["thrown"].map(lambda t: " ".join(sorted(t.split())))
    assert chosen in set(best)


@pytest.mark.parametrize(
    "args, message",
    [
        (("5H 5S JD 6C 4H", "pone", 1, 2), "deals 6 cards"),
        (("5H 5S JD 6C 4H KD", "pone", 1, 121), "pone's score must be an integer 0..120"),
        (("5H 5S JD 6C 4H KD", "eldest", 1, 2), "role must be dealer or pone"),
    ],
)
def test_throw_win_chances_bad_input(args, message):
    from sims.cribbage.odds.throws import throw_win_chances

    with pytest.raises(ValueError, match=message):
        throw_win_chances(*args)
    with pytest.raises(ValueError, match="no board-position table"):
        throw_win_chances("5H 5S JD 6C 4H KD AS 2S", "pone", 1, 2, rules="eight-card")


@pytest.mark.parametrize(
    "rules, positions",
    [
        ("six-card", [(100, 110), (115, 95), (118, 119), (60, 117)]),
        ("six-card-61", [(45, 50), (55, 40), (58, 59), (30, 57)]),
        ("five-card", [(50, 45), (40, 55), (59, 58), (57, 30)]),
    ],
)
def test_the_shipped_position_players_table_says_what_it_is_and_agrees_with_their_games(rules, positions):
    import re

    import sims
    from sims.cribbage.odds.table import shipped_table

    table = shipped_table(rules, "position_distilled")
    p = table.provenance
    assert p["players"] == {"discard": "position_distilled", "peg": "position_distilled"}
    assert {d: {s["name"] for s in seats} for d, seats in p["policies"].items()} == {
        "discard": {"expected_peg"},
        "peg": {"distilled"},
    }  # the players far from home
    assert (p["zone"], p["n"], p["seed"], p["groups"]) == (40, 1_000_000, 0, 20) and p["per_position"] >= 100
    assert p["iteration"] == len(p["history"]) >= 2
    assert re.fullmatch("[0-9a-f]{40}", p["git_commit"]) and p["version"] == sims.__version__
    # The precision the docs state (sims/cribbage/data/README.md): 95% half-widths within 0.25 percentage points
    # outside the zone, 11 at most in it.
    half = table.half_width * table.win_se
    inside = odds_position.zone_of(table.rules, 40) >= 0
    assert half[~inside].max() < 0.0025 and half[inside].max() < 0.11
    # The players made from the table (the iteration's next round) play whole games from positions in the zone
    # as the table says: within 4 standard errors of the two combined, and the last round's largest change.
    players = position_policies([table], zone=40, base="distilled")
    direct = games_from(rules, players, positions, 1500, seed=41)
    slack = p["history"][-1]["max_abs_change"]
    for row in direct.itertuples():
        se = np.hypot(table.win_se[row.dealer, row.pone], np.sqrt(row.win * (1 - row.win) / row.games))
        assert abs(table.win[row.dealer, row.pone] - row.win) < 4 * se + slack, row
