"""The expert's choices stay the same when its search is made faster: every card played over fixed deals, hashed
(:func:`sims.allfours.bench.expert.fingerprint`), against the hashes the search gave before it was sped up.  The
runs cover the default search, a budget so tight that many decisions give up part of their samples (where
the choice depends on how many positions each sample's search visits), and four players with partners.
With a budget no search reaches, the hashes of the search before the bounds of game and jack show that the
bounds change no value; with ``exact_cards`` above any hand, those before the horizon show that it changes
only the hands after the cards were run."""

import numpy as np
import pytest

from sims.allfours import simulate_deals
from sims.allfours.bench.expert import BIDDING, fingerprint, play_deals
from sims.bench import benchmarks


def expert(samples, max_nodes, exact_cards=9):
    return {"name": "expert", "params": [samples, max_nodes, exact_cards]}


TIGHT = expert(5, 20_000)
UNBOUNDED = expert(20, 2_147_483_647, 99)  # a budget no search here reaches, every hand solved to its end
# (rules, play by seat, deals, the hash of every card played): the search two tricks deep in hands of more than
# nine cards, greedy's play after that (the horizon, sims.allfours.policies.expert).  Where no hand holds more
# (four-hand here) the hash is the one before; the others changed with it (before: c4b28cc3be8b832a,
# 2aa6ba2a80584ee5, as test_exact_cards_above_every_hand_is_the_search_before shows).  Its strength, measured
# paired against the search before on 4,000 two-hand deals of each of seeds 11, 12 and 13 (the expert in seat 0
# against the maxims, threshold bidding): -0.0013 +/- 0.0062, -0.0010 +/- 0.0059 and -0.0027 +/- 0.0059 points a
# hand (pooled -0.0017 +/- 0.0035; the expert's edge over the maxims is +0.19), in 27-37% of the CPU; by sims rate
# --game allfours --player play=expert --player play=expert:exact_cards=99 --player play=maxims --games 600
# --seed 36, it won 599 of 1,200 games against the search to the end, and 710 against the maxims (the search to the
# end: 718).
# Before it, the search that stops at the bounds of game and jack values every card as the search before it
# (test below) but visits fewer positions, so a decision that ran out of its budget solves more samples: those
# hashes changed with it (before: 677fb4ad47ab386d, e8aace4c730a45a1, b8a55cbd40493ec7).  Its strength, measured
# by sims rate --game allfours --games 600 --seed 36 with the players play=expert, the search of commit 67109b3
# as a py: policy and play=maxims (two-hand games, seats exchanged, 1,200 a pairing): it won 603 of 1,200 against
# the search before (0.503, 95% interval 0.474-0.531); against the maxims it won 718 (0.598) and the search before
# 713 (0.594): a difference of +0.004, 95% interval +/- 0.039.
RUNS = [
    ("two-hand", ["expert", "maxims"], 40, "556bf1dbb1949be0"),
    ("two-hand", ["maxims", TIGHT], 100, "c9e23c411520763e"),
    ("four-hand", ["expert", "maxims", "expert", "maxims"], 12, "76d7060d829b9198"),
]


@pytest.mark.parametrize(("rules", "play", "deals", "expected"), RUNS)
def test_same_choices_as_before(rules, play, deals, expected):
    got, plays, _, _ = fingerprint(play, deals, seed=7, rules=rules)
    players = len(play)
    assert plays[:players].min() > 0 and plays[players:].sum() == 0
    assert got == expected


@pytest.mark.parametrize(
    ("rules", "play", "deals", "expected"),
    [
        ("two-hand", [expert(20, 1_000_000, 99), "maxims"], 40, "c4b28cc3be8b832a"),
        ("two-hand", ["maxims", expert(5, 20_000, 99)], 100, "2aa6ba2a80584ee5"),
    ],
)
def test_exact_cards_above_every_hand_is_the_search_before(rules, play, deals, expected):
    """With ``exact_cards`` above any hand the search goes to the end of every hand: the choices, and so the hashes,
    of the search before the horizon, the default search and the tight budget alike."""
    assert fingerprint(play, deals, seed=7, rules=rules)[0] == expected


@pytest.mark.parametrize(
    ("rules", "play", "deals", "expected"),
    [
        ("two-hand", [UNBOUNDED, "maxims"], 40, "1994de66b2c9a6ab"),
        ("four-hand", [UNBOUNDED, "maxims", UNBOUNDED, "maxims"], 12, "3d343ec525c06221"),
    ],
)
def test_the_bounds_leave_every_value_exact(rules, play, deals, expected):
    """Where no search runs out of positions, the search that stops at the bounds of game and jack chooses as the
    search before it did (the hashes of that search, commit 67109b3): it leaves out positions, never changes a
    value."""
    assert fingerprint(play, deals, seed=7, rules=rules)[0] == expected


def test_fingerprint_plays_the_deals_simulate_deals_plays():
    """The same seed, the same hands: the points scored over them are those ``simulate_deals`` adds up, and each
    seat plays a card a trick (six or more a hand)."""
    play = ["maxims", TIGHT]
    _, plays, points, _ = fingerprint(play, 100, seed=7)
    engine = simulate_deals("two-hand", {**BIDDING, "play": play}, 100, seed=7, threads=1)
    totals = engine.batch.totals
    assert points == int(totals[(totals.scope == "role") & (totals.component == "total")]["sum"].sum())
    assert plays[0] == plays[1] >= 6 * 100


def test_bench_rows():
    """The benchmark is found, and its row for a small run says whether the choices are those of the search
    before (a wrong stored fingerprint: not the same)."""
    bench = benchmarks()[0]["allfours_expert"]
    note, same, other, to_the_end, heading, *parts = bench.run(
        [
            ("agreement", ["expert", "maxims"], 40, 0, 1.0, "556bf1dbb1949be0"),
            ("agreement", ["expert", "maxims"], 40, 0, 1.0, "0000000000000000"),
        ],
        seed=7,
    )
    assert "load average" in note["what"]
    assert same["same choices"] and not other["same choices"]
    assert same["expert plays/s"] == pytest.approx(same["x before (recorded)"] * same["before (recorded): plays/s"])
    # The same run searched to the end of every hand, timed beside it (its hash is checked only at the report's size).
    assert "to its end" in to_the_end["what"] and to_the_end["x to the end"] > 0
    assert to_the_end["same choices"] is None and to_the_end["deals"] == 40
    # Where the time goes: every deal in one class of the cards held, the shares adding up.
    assert "where the time goes" in heading["what"] and len(parts) == 3
    assert sum(p["deals"] for p in parts) == 40 and parts[0]["deals"] > 20
    assert sum(p["share of deals"] for p in parts) == pytest.approx(1.0)
    assert sum(p["share of CPU"] for p in parts) == pytest.approx(1.0)


def test_the_cards_held_sort_the_deals_as_the_engine_deals_them():
    """The deals of one class of the cards held, played alone, are those deals of the whole run: the same points
    over the classes as over the run; and each deal's cards held are six and three a round of running the cards,
    as ``simulate_deals`` records the rounds run."""
    n, play = 200, ["maxims", "greedy"]
    _, _, points, _, held = play_deals(play, n, np.arange(n), 7, "two-hand")
    by_class = sum(play_deals(play, n, np.flatnonzero(held == k), 7, "two-hand")[2] for k in np.unique(held))
    assert by_class == points and set(np.unique(held)) <= {6, 9, 12, 15, 18, 21}
    records = simulate_deals("two-hand", {**BIDDING, "play": play}, n, seed=7, records=True, threads=1).records
    assert np.array_equal(held, 6 + 3 * records["rounds run"].to_numpy()) and (held > 6).any()
