"""The expert's choices stay the same when its search is made faster: every card played over fixed deals, hashed
(:func:`sims.allfours.bench.expert.fingerprint`), against the hashes the search gave before it was sped up.  The
runs cover the default search, a budget so tight that many decisions give up part of their samples (where
the choice depends on how many positions each sample's search visits), and four players with partners."""

import pytest

from sims.allfours import simulate_deals
from sims.allfours.bench.expert import BIDDING, fingerprint
from sims.bench import benchmarks

TIGHT = {"name": "expert", "params": [5, 20_000]}
# (rules, play by seat, deals, the hash of every card played): the search as of the claims report of issue 36.
RUNS = [
    ("two-hand", ["expert", "maxims"], 40, "677fb4ad47ab386d"),
    ("two-hand", ["maxims", TIGHT], 100, "e8aace4c730a45a1"),
    ("four-hand", ["expert", "maxims", "expert", "maxims"], 12, "b8a55cbd40493ec7"),
]


@pytest.mark.parametrize(("rules", "play", "deals", "expected"), RUNS)
def test_same_choices_as_before(rules, play, deals, expected):
    got, plays, _, _ = fingerprint(play, deals, seed=7, rules=rules)
    players = len(play)
    assert plays[:players].min() > 0 and plays[players:].sum() == 0
    assert got == expected


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
    note, same, other = bench.run(
        [
            ("agreement", ["expert", "maxims"], 40, 0, 1.0, "677fb4ad47ab386d"),
            ("agreement", ["expert", "maxims"], 40, 0, 1.0, "0000000000000000"),
        ],
        seed=7,
    )
    assert "load average" in note["what"]
    assert same["same choices"] and not other["same choices"]
    assert same["expert plays/s"] == pytest.approx(same["x before"] * same["before: plays/s"])
