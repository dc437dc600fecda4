"""The rank table shipped as package data is the one its derivation builds."""

import numpy as np

from sims.cribbage.tables import RANK_TABLE, TABLE_SIZE, build_rank_table


def test_the_shipped_rank_table_is_built_by_its_derivation():
    assert RANK_TABLE.dtype == np.int8 and RANK_TABLE.shape == (TABLE_SIZE,)
    assert np.array_equal(RANK_TABLE, build_rank_table())


def test_a_starter_of_each_rank_scores_as_the_histogram_with_that_card_added():
    """rank_points_with_each (the eight-card game's 6 + 1 shows over the starters) against rank_points card by
    card, on hand-counted shows and random six-card hands."""
    from sims.cribbage.tables import WITH_EACH_WORK, rank_points, rank_points_with_each

    five, six, seven, eight, ten = 4, 5, 6, 7, 9  # ranks (ace 0)
    counts = np.zeros(13, dtype=np.int64)
    counts[[five, six, seven, eight]] = [2, 1, 1, 1]  # 5 5 6 7 8
    out = np.empty(13, dtype=np.int64)
    work = np.full(WITH_EACH_WORK, 99, dtype=np.int64)  # scratch as a caller leaves it: reused, never cleared
    rank_points_with_each(counts, out, work)
    # a five turned: pair royal 6, triple run of four 12, fifteens 5+5+5 and 7+8: 4
    assert out[five] == 22
    # a ten turned: a pair 2, double run of four 8, fifteens 5+10 twice and 7+8: 6
    assert out[ten] == 16
    rng = np.random.default_rng(7)
    for _ in range(300):
        hand = rng.choice(52, 6, replace=False)
        counts = np.bincount(hand >> 2, minlength=13).astype(np.int64)
        rank_points_with_each(counts, out, work)
        for r in range(13):
            plus = counts.copy()
            plus[r] += 1
            assert out[r] == rank_points(plus)


def test_a_starter_of_each_rank_joins_and_lengthens_runs_as_counted_afresh():
    """Every histogram of up to seven cards whose ranks lie among five neighbours (the runs' cases: a starter
    inside a stretch, next to one, between two, alone), rank_points_with_each against rank_points."""
    import itertools

    from sims.cribbage.tables import WITH_EACH_WORK, rank_points, rank_points_with_each

    out = np.empty(13, dtype=np.int64)
    work = np.empty(WITH_EACH_WORK, dtype=np.int64)  # one scratch for every histogram, as the discard reuses it
    for low in (0, 4, 8):
        for held in itertools.product(range(3), repeat=5):
            counts = np.zeros(13, dtype=np.int64)
            counts[low : low + 5] = held
            rank_points_with_each(counts, out, work)
            for r in range(13):
                plus = counts.copy()
                plus[r] += 1
                assert out[r] == rank_points(plus)
