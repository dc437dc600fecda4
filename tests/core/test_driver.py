"""The core's driver and declared tables (:mod:`sims.core.driver`, :mod:`sims.core.layout`), through the worked
example game (docs/examples/triumph, installed by the Makefile)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from sims.core import driver, layout
from sims.core.layout import Table

TALLY = Table("seat", ("tricks", "trump_tricks"), bins=3)


def test_the_layout_doctests():
    assert doctest.testmod(layout).failed == 0


def test_a_table_names_its_axes_for_kernels_records_and_totals():
    assert (TALLY.at.tricks, TALLY.at.trump_tricks) == (0, 1)
    values = np.array([[[2, 1], [3, 0]], [[4, 2], [1, 1]]])  # [deal, seat, component]
    records = TALLY.records(values, first_item=10)
    assert list(records.columns) == [
        "deal",
        "seat_0_tricks",
        "seat_0_trump_tricks",
        "seat_1_tricks",
        "seat_1_trump_tricks",
    ]
    assert records["deal"].tolist() == [10, 11] and records["seat_1_tricks"].tolist() == [3, 1]
    totals = TALLY.totals(values.sum(0), (values**2).sum(0), 2).frame()
    row = totals[(totals["who"] == "seat 0") & (totals["component"] == "tricks")]
    assert (row["n"].item(), row["sum"].item(), row["sumsq"].item()) == (2, 6, 20)
    frame = TALLY.frame(totals).set_index(["seat", "component"])
    assert frame.loc[("seat 0", "tricks"), "mean"] == 3.0
    assert frame.loc[("seat 0", "tricks"), "se"] == pytest.approx(np.std([2, 4], ddof=1) / np.sqrt(2))


@pytest.fixture(scope="module")
def triumph():
    pytest.importorskip("triumph")
    from triumph.game import GAME

    return GAME


def test_the_reference_harness_fails_on_a_wrong_reference(triumph):
    """The sentinel for the conformance suite's reference check: a reference that credits the wrong seat fails."""
    from triumph.play import TALLY as tally
    from triumph.reference import deal_tally

    driver.assert_same_deals(triumph, "two-hand", None, 30, 5, tally, deal_tally)
    with pytest.raises(AssertionError, match="deal 0: engine"):
        driver.assert_same_deals(triumph, "two-hand", None, 30, 5, tally, lambda *args: deal_tally(*args)[::-1])


def test_item_streams_are_the_chunk_keys_of_the_item(triumph):
    from sims.core.rng import chunk_keys, seed_state

    item = triumph.chunk_size["deals"] + 3  # chunk 1, index 3
    deck, seats = driver.item_streams(triumph, 9, item)
    expected = np.empty(4, dtype=np.uint64)
    seed_state(expected, chunk_keys(9, 1, 1, triumph.n_streams)[0, 2], 3)
    assert seats.shape == (triumph.max_seats, 4) and np.array_equal(seats[1], expected)


def test_the_loop_is_cached_beside_the_games_module(triumph):
    from triumph.engine import LOOP

    assert LOOP.py_func.__module__ == "triumph.play"
    assert "/triumph/play-" in LOOP.dispatcher._cache._cache_path.replace("\\", "/")
