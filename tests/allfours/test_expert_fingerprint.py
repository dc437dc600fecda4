"""The expert's choices stay the same when its search is made faster: every card played over fixed deals, hashed
(:func:`sims.bench.allfours_expert.fingerprint`), against the hashes the search gave before it was sped up.  The
runs cover the default search, a budget so tight that many decisions give up part of their samples (where
the choice depends on how many positions each sample's search visits), and four players with partners."""

import pytest

from sims.bench.allfours_expert import fingerprint

TIGHT = {"name": "expert", "params": [5, 20_000]}
# (rules, play by seat, deals, the hash of every card played): the search as of the claims report of issue 36.
RUNS = [
    ("two-hand", ["expert", "maxims"], 40, "677fb4ad47ab386d"),
    ("two-hand", ["maxims", TIGHT], 100, "e8aace4c730a45a1"),
    ("four-hand", ["expert", "maxims", "expert", "maxims"], 12, "b8a55cbd40493ec7"),
]


@pytest.mark.parametrize(("rules", "play", "deals", "expected"), RUNS)
def test_same_choices_as_before(rules, play, deals, expected):
    got, plays, _ = fingerprint(play, deals, seed=7, rules=rules)
    assert plays.sum() > 0
    assert got == expected
