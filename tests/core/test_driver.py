"""The core's driver and declared tables (:mod:`sims.core.driver`, :mod:`sims.core.layout`), through the worked
example game (docs/examples/triumph, installed by the Makefile)."""

from __future__ import annotations

import doctest
from types import SimpleNamespace

import numpy as np
import pytest

from sims.core import driver, layout
from sims.core.layout import Table, Tally

SEATS = Table("seat", ("tricks", "trump_tricks"), bins=3, size=4, record="seat_{i}_{component}")
HAND = Table("hand", ("hands", "lead"), who=("all",), record="{component}")
ENDINGS = Table("ending", ("deals",), who=("won", "drawn"), totals="count", record="{who}")
TALLY = Tally("deal", [SEATS, HAND, ENDINGS], parts=[HAND], log=("hand_log", "hand", 1))  # logs one part an item
JOB = SimpleNamespace(rules=SimpleNamespace(players=2), kind="deals", records=True, option=lambda name: True)


@pytest.fixture
def in_python(monkeypatch):
    """The loop's njit functions run as Python (the kernels compile them inline: nothing to compile here)."""
    for name in ("add_blocks", "clear_blocks", "record_blocks", "add_part"):
        monkeypatch.setattr(layout, name, getattr(layout, name).py_func)


def _play(items):
    """Each item's ``out`` as a kernel would leave it, added (and recorded) by the loop's own functions."""
    lay = TALLY.layout(JOB)
    blocks, split = lay.kernel
    acc = np.zeros(lay.size, dtype=np.int64)
    rows = np.zeros((len(items), 1 + lay.log_size, lay.width), dtype=np.int64)
    for i, (seats, hands, ending) in enumerate(items):
        out, parts = np.zeros(TALLY.shape, dtype=np.int64), np.array([0, split])
        out[: len(seats), : len(seats[0])] = seats
        for part in hands:
            out[TALLY.row(HAND), :2] = part
            layout.add_part((blocks, acc, rows[i], parts), out)
        out[TALLY.row(ENDINGS) + ending, 0] = 1
        layout.add_blocks(blocks, acc, out, 0, split)
        layout.record_blocks(blocks, rows[i, 0], out, 0, split)
    return TALLY.batch(JOB, lay, acc, rows, 10, len(items))


def test_the_layout_doctests():
    assert doctest.testmod(layout).failed == 0


def test_a_tally_adds_up_its_tables_and_records_them(in_python):
    """Two deals by hand: seat 1 sits out the second (ABSENT), the hand rows are two parts of each deal."""
    absent = layout.ABSENT
    batch = _play([([[2, 1], [5, 7]], [[1, 4], [0, 3]], 0), ([[3, 0], [absent, absent]], [[2, 2], [1, 1]], 1)])
    totals = batch.totals.set_index(["scope", "who", "component"])
    assert totals.loc[("seat", "seat 0", "tricks")].tolist() == [2, 5, 13]  # n, sum, sumsq
    assert totals.loc[("seat", "seat 1", "trump_tricks")].tolist() == [1, 7, 49]  # absent: not counted
    assert totals.loc[("hand", "all", "lead")].tolist() == [4, 10, 30]  # four parts, each n 1
    assert totals.loc[("ending", "drawn", "deals")].tolist() == [2, 1, 1]
    hist = batch.histograms.set_index(["who", "component", "value"])["count"]
    assert hist[("seat 0", "tricks", 2)] == 2 and hist[("seat 1", "trump_tricks", 2)] == 1  # 7 in the last bin
    assert hist.xs("seat 1", level="who").sum() == 2  # absent values in no bin
    assert list(batch.rows["deals"].columns) == [
        "deal",
        "seat_0_tricks",
        "seat_0_trump_tricks",
        "seat_1_tricks",
        "seat_1_trump_tricks",
        "won",
        "drawn",
    ]
    assert batch.rows["deals"]["deal"].tolist() == [10, 11] and batch.rows["deals"]["drawn"].tolist() == [0, 1]
    assert batch.rows["hand_log"].values.tolist() == [[10, 0, 1, 4], [11, 0, 2, 2]]  # deal, hand, hands, lead


def test_a_table_can_take_its_n_from_another_value(in_python):
    weighted = Table("hand", ("lead",), who=("all",), n=(SEATS, "tricks"))
    tally = Tally("game", [SEATS, weighted])
    lay = tally.layout(JOB)
    acc, out = np.zeros(lay.size, dtype=np.int64), np.zeros(tally.shape, dtype=np.int64)
    out[0, 0], out[tally.row(weighted), 0] = 6, 2  # seat 0 took 6 tricks: 6 hands of the lead's n
    layout.add_blocks(lay.blocks, acc, out, 0, len(lay.blocks))
    job = SimpleNamespace(**{**vars(JOB), "records": False})
    totals = tally.batch(job, lay, acc, np.zeros((0, 1, 0), dtype=np.int64), 0, 1).totals
    assert totals[totals["scope"] == "hand"][["n", "sum", "sumsq"]].values.tolist() == [[6, 2, 4]]


def test_a_tally_without_histograms_or_totals_gives_empty_tables_with_their_columns(in_python):
    """A table with neither bins nor totals, only recorded: the batch's totals and histograms are empty tables of
    the usual columns, and two batches still merge."""
    recorded = Table("hand", ("lead",), who=("all",), totals=None, record="{component}")
    tally = Tally("deal", [recorded])
    lay = tally.layout(JOB)
    out, rows = np.zeros(tally.shape, dtype=np.int64), np.zeros((1, 1, lay.width), dtype=np.int64)
    out[0, 0] = 3
    layout.record_blocks(lay.blocks, rows[0, 0], out, 0, len(lay.blocks))
    acc = np.zeros(lay.size, dtype=np.int64)
    both = tally.batch(JOB, lay, acc, rows, 0, 1).merge(tally.batch(JOB, lay, acc, rows, 1, 1))
    assert list(both.histograms.columns) == ["scope", "who", "component", "value", "count"] and both.histograms.empty
    assert list(both.totals.columns) == ["scope", "who", "component", "n", "sum", "sumsq"] and both.totals.empty
    assert both.n == 2 and both.rows["deals"].values.tolist() == [[0, 3], [1, 3]]


def test_a_tally_can_record_its_tables_in_another_order(in_python):
    """The ending's column before the seats' (their totals stay in the tables' order); the values follow."""
    tally = Tally("deal", [SEATS, ENDINGS], record_order=[ENDINGS, SEATS])
    lay = tally.layout(JOB)
    out, rows = np.zeros(tally.shape, dtype=np.int64), np.zeros((1, 1, lay.width), dtype=np.int64)
    out[:2, :2] = [[2, 1], [5, 7]]
    out[tally.row(ENDINGS) + 1, 0] = 1
    layout.record_blocks(lay.blocks, rows[0, 0], out, 0, len(lay.blocks))
    batch = tally.batch(JOB, lay, np.zeros(lay.size, dtype=np.int64), rows, 3, 1)
    assert list(batch.rows["deals"].columns) == ["deal", "won", "drawn"] + [
        f"seat_{i}_{c}" for i in (0, 1) for c in ("tricks", "trump_tricks")
    ]
    assert batch.rows["deals"].values.tolist() == [[3, 0, 1, 2, 1, 5, 7]]
    assert batch.totals["scope"].drop_duplicates().tolist() == ["seat", "ending"]


def test_rows_of_one_name_add_up_as_one_with_bins_from_the_job(in_python):
    """Each losing side's score: rows all named ``all`` pool their sums and histogram; the bins are the target."""
    losers = Table("loser", ("score",), bins=lambda job: job.target, who=lambda job: ("all",) * 3, size=4)
    tally, job = Tally("game", [losers]), SimpleNamespace(**{**vars(JOB), "records": False, "target": 61})
    lay = tally.layout(job)
    acc, out = np.zeros(lay.size, dtype=np.int64), np.zeros(tally.shape, dtype=np.int64)
    out[:3, 0] = 40, layout.ABSENT, 60  # the winner's row is absent
    layout.add_blocks(lay.blocks, acc, out, 0, len(lay.blocks))
    batch = tally.batch(job, lay, acc, np.zeros((0, 1, 0), dtype=np.int64), 0, 1)
    assert batch.totals[["who", "n", "sum", "sumsq"]].values.tolist() == [["all", 2, 100, 5200]]
    assert batch.histograms[["who", "value", "count"]].values.tolist() == [["all", 40, 1], ["all", 60, 1]]


def test_a_table_refuses_what_it_cannot_lay_out():
    with pytest.raises(ValueError, match="give the size"):
        Table("role", ("points",), who=lambda job: ("dealer",))
    with pytest.raises(ValueError, match="room for 4"):
        SEATS.names(5)
    with pytest.raises(ValueError, match="parts are some of them"):
        Tally("deal", [SEATS], parts=[HAND])
    with pytest.raises(ValueError, match="each of its recorded tables"):
        Tally("deal", [SEATS, ENDINGS], record_order=[SEATS])


@pytest.fixture(scope="module")
def triumph():
    pytest.importorskip("triumph")
    from triumph.game import GAME

    return GAME


def test_the_reference_harness_fails_on_a_wrong_reference(triumph):
    """The sentinel for the conformance suite's reference check: a reference that credits the wrong seat fails."""
    from triumph.reference import deal_tally

    driver.assert_same_deals(triumph, "two-hand", None, 30, 5, deal_tally)
    with pytest.raises(AssertionError, match="deal 0: engine"):
        driver.assert_same_deals(triumph, "two-hand", None, 30, 5, lambda *args: deal_tally(*args)[::-1])


def test_item_streams_are_the_chunk_keys_of_the_item(triumph):
    from sims.core.rng import chunk_keys, seed_state

    item = triumph.chunk_size["deals"] + 3  # chunk 1, index 3
    deck, seats = driver.item_streams(triumph, 9, item)
    expected = np.empty(4, dtype=np.uint64)
    seed_state(expected, chunk_keys(9, 1, 1, triumph.n_streams)[0, 2], 3)
    assert seats.shape == (triumph.max_seats, 4) and np.array_equal(seats[1], expected)


def test_the_loop_is_cached_beside_the_games_module(triumph):
    from triumph.engine import LOOPS

    loop = LOOPS["deals"]
    assert loop.py_func.__module__ == "triumph.play"
    assert "/triumph/play-" in loop.dispatcher._cache._cache_path.replace("\\", "/")


def test_a_call_cuts_its_chunks_into_pieces_only_when_they_are_too_few_for_its_threads():
    per_thread = driver.PIECES_PER_THREAD
    assert driver.pieces_per_chunk(1, 4096, threads=2) == 2 * per_thread  # one chunk: as many pieces a thread
    assert driver.pieces_per_chunk(7, 4096, threads=2) == -(-2 * per_thread // 7)  # at least as many a thread
    assert driver.pieces_per_chunk(2 * per_thread, 4096, threads=2) == 1  # enough chunks: whole
    assert driver.pieces_per_chunk(1, 5, threads=2) == 5  # never more pieces than items


@pytest.mark.parametrize("threads", [1, 2])
def test_pieces_of_a_chunk_play_its_items_as_the_whole_chunk_does(triumph, monkeypatch, threads):
    """Items keep their chunk's streams and rows whatever piece plays them: a job of two chunks (one of them
    short) cut into pieces gives the numbers and records of the same job played chunk by chunk."""
    from sims.core.jobs import Job
    from sims.core.runner import run

    def played():
        job = Job.make(triumph, "deals", None, None, 150, 4, records=True, chunk_size=100)
        return run(job, threads=threads, progress=False)

    pieces = played()
    monkeypatch.setattr(driver, "PIECES_PER_THREAD", 0)  # every chunk one piece
    whole = played()
    assert pieces.summary == whole.summary
    assert pieces.records.equals(whole.records) and len(whole.records) == 150
