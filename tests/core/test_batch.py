"""Batches add up as numpy arrays and make the DataFrames pandas would have made table by table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sims.core.batch import (
    HIST_KEYS,
    TOTAL_KEYS,
    Batch,
    Columns,
    concat,
    concat_rows,
    histogram_columns,
    quantile,
    rows_frame,
    total_columns,
)
from sims.core.jobs import Job


def _pandas_totals(scope, who, components, sums, n) -> pd.DataFrame:
    """A table of totals built as a DataFrame, from lists and a string (the reference for the dtypes)."""
    sums = np.asarray(sums, dtype=np.int64).ravel()
    return pd.DataFrame(
        {
            "scope": scope,
            "who": np.repeat(who, len(components)),
            "component": components * len(who),
            "n": np.full(len(sums), n, dtype=np.int64),
            "sum": sums,
            "sumsq": sums,
        }
    )


def _hist(counts) -> Columns:
    return histogram_columns("role", ["dealer", "pone"], ["hand"], np.asarray(counts).reshape(2, 1, -1))


def test_histograms_with_values_seen_in_one_batch_only_add_as_a_groupby_would():
    a, b = _hist([[0, 3, 0, 1], [2, 0, 0, 0]]), _hist([[1, 0, 5, 1], [0, 0, 0, 4]])
    merged = Batch("deals", 2, total_columns("game", ["all"], ["n"], [[1]], [[1]], 1), a).merge(
        Batch("deals", 3, total_columns("game", ["all"], ["n"], [[2]], [[4]], 2), b)
    )
    expected = pd.concat([a.frame(), b.frame()], ignore_index=True).groupby(HIST_KEYS, sort=False, as_index=False).sum()
    pd.testing.assert_frame_equal(merged.histograms, expected)
    assert merged.total("game", "all", "n") == (3, 3, 5) and merged.n == 5


def test_same_layouts_add_value_by_value():
    a = total_columns("seat", ["seat 0", "seat 1"], ["hand", "crib"], [[1, 2], [3, 4]], [[1, 4], [9, 16]], 10)
    merged = Batch("deals", 10, a, _hist([[1], [1]])).merge(Batch("deals", 10, a, _hist([[1], [1]])))
    assert merged.totals[TOTAL_KEYS].equals(a.frame()[TOTAL_KEYS])
    assert merged.totals["sum"].tolist() == [2, 4, 6, 8] and merged.totals["n"].tolist() == [20] * 4


def test_the_frames_have_the_dtypes_of_the_tables_pandas_concatenated():
    """Labels are strings; an empty part (a tally not kept) makes pandas keep the labels as objects."""
    tables = {
        "full": ("role", ["dealer", "pone"], ["hand"], [[3], [4]], 1),
        "empty": ("maxim", [], [], np.zeros((0, 0)), 1),
    }
    for names in (["full"], ["full", "empty"], ["empty", "full"]):
        got = concat([total_columns(*tables[t][:4], tables[t][3], tables[t][4]) for t in names]).frame()
        want = pd.concat([_pandas_totals(*tables[t]) for t in names], ignore_index=True)
        pd.testing.assert_frame_equal(got, want)


def _rows(first: int, n: int, labelled: bool):
    """Per-item rows of items ``first`` .. ``first + n - 1`` from a kernel's int64 rows (three values an item,
    the second a label's index when ``labelled``), and the same table built column by column."""
    values = np.arange(first * 3, (first + n) * 3, dtype=np.int64).reshape(n, 3) % 4
    items = np.arange(first, first + n)
    names = ["deal", "dealer", "ending", "points"]
    others = {"ending": np.array(["looed", "won", "sweep", "miss"], dtype=object)[values[:, 1]]} if labelled else {}
    reference = pd.DataFrame({"deal": items, **{name: values[:, k] for k, name in enumerate(names[1:])}, **others})
    return rows_frame(items, values, names, others), reference, values


def test_per_item_rows_are_the_tables_pandas_made_column_by_column_and_concatenated():
    for labelled in (False, True):
        (a, want_a, values), (b, want_b, _) = _rows(0, 5, labelled), _rows(5, 4, labelled)
        pd.testing.assert_frame_equal(a, want_a, check_exact=True)
        assert np.shares_memory(a["points"].to_numpy(), values) != labelled  # int64 alone: the kernel's rows
        want = pd.concat([want_a, want_b], ignore_index=True)
        pd.testing.assert_frame_equal(concat_rows([a, b]), want, check_exact=True)
        pd.testing.assert_frame_equal(concat_rows([want_a, want_b]), want, check_exact=True)  # as the store reads them
        merged = Batch("deals", 5, pd.DataFrame(), pd.DataFrame(), {"deals": a}).merge(
            Batch("deals", 4, pd.DataFrame(), pd.DataFrame(), {"deals": b})
        )
        pd.testing.assert_frame_equal(merged.rows["deals"], want, check_exact=True)


def test_a_batch_made_from_dataframes_gives_them_back():
    totals = total_columns("role", ["dealer"], ["hand"], [[3]], [[9]], 1).frame()
    histograms = pd.DataFrame(columns=HIST_KEYS + ["count"])
    batch = Batch("deals", 1, totals, histograms)
    assert batch.totals is totals and batch.histograms is histograms


def test_the_kernel_vector_is_made_once_a_job_from_its_own_policies():
    one = Job.make("cribbage", "deals", "six-card", {"discard": "greedy", "peg": "greedy"}, 10, seed=1)
    other = Job.make("allfours", "deals", "two-hand", {"play": "maxims:knave=0"}, 10, seed=1)
    default = Job.make("allfours", "deals", "two-hand", {"play": "maxims"}, 10, seed=1)
    assert one.kernel_policies() is one.kernel_policies()
    assert not np.array_equal(other.kernel_policies()[1], default.kernel_policies()[1])
    assert other.with_size(20).kernel_policies()[1].tolist() == other.kernel_policies()[1].tolist()


def test_means_per_item_with_their_standard_errors_by_who_and_component():
    # dealer's hand: 5 deals scoring 1, 1, 2, 3, 3 (sum 10, squares 24); pone's crib: all 0; a scope not asked for
    totals = concat(
        [
            total_columns("role", ["dealer", "pone"], ["hand", "crib"], [[10, 4], [0, 0]], [[24, 8], [0, 0]], 5),
            total_columns("seat", ["seat 0"], ["hand"], [[99]], [[99]], 5),
        ]
    )
    batch = Batch("deals", 5, totals, histogram_columns("role", [], [], np.zeros((0, 0, 1))))
    m = batch.means("role")
    assert list(m["who"]) == ["dealer", "dealer", "pone", "pone"] and list(m["component"]) == ["hand", "crib"] * 2
    assert m["mean"][0] == 2.0 and np.isclose(m["se"][0], np.sqrt((24 - 5 * 4) / 4 / 5))  # sample variance 1
    nested = batch.nested_means("role", leave_out="crib")
    assert nested == {
        "dealer": {"hand": {"mean": 2.0, "se": float(m["se"][0])}},
        "pone": {"hand": {"mean": 0.0, "se": 0.0}},
    }


def test_a_histogram_by_increasing_value_and_its_quantiles():
    # the dealer's hand: 0 and 3 in one batch, 0 and 1 in the next (the merged rows hold 0, 3, 1); the pone's: 0, 2
    def batch(dealer, pone):
        return Batch(
            "deals",
            2,
            total_columns("role", ["dealer"], ["hand"], [[0]], [[0]], 2),
            histogram_columns("role", ["dealer", "pone"], ["hand"], [[dealer], [pone]]),
        )

    merged = batch([1, 0, 0, 1], [1, 0, 1, 0]).merge(batch([1, 1, 0, 0], [1, 0, 1, 0]))
    assert merged.histogram_columns.where(who="dealer")["value"].tolist() == [0, 3, 1]
    values, counts = merged.histogram_arrays("role", "dealer", "hand")
    assert values.tolist() == [0, 1, 3] and counts.tolist() == [2, 1, 1]
    assert merged.histogram("role", "dealer", "hand").to_dict() == {0: 2, 1: 1, 3: 1}
    # cumulative counts 2, 3, 4 of 4 deals: a share of 1/2 reached at 0, 3/4 at 1, all at 3
    assert [quantile(values, counts, q) for q in (0.25, 0.5, 0.75, 0.9, 1.0)] == [0, 0, 1, 3, 3]
    for who in ("dealer", "pone"):  # the Series cut from the table, its index too (the pone's 0, 2: a RangeIndex)
        h = merged.histograms
        cut = h[h["who"] == who].set_index("value")["count"].sort_index()
        pd.testing.assert_series_equal(merged.histogram("role", who, "hand"), cut, check_index_type=True)
