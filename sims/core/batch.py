"""A batch of results in tidy form: exact integer totals, histograms and optional per-item rows.

Every game reports in the same three shapes, which the run store writes as they are:

* ``totals``: one row per (``scope``, ``who``, ``component``) with ``n``, ``sum`` and ``sumsq``
  (int64): e.g. ``role, dealer, hand`` or ``seat, seat 1, total`` or ``side, seats 0+2, wins``;
* ``histograms``: one row per (``scope``, ``who``, ``component``, ``value``) with ``count``;
* ``rows`` (when asked for): named tables (``deals``, ``games``, ``score_log`` ...) of one row per deal,
  game or event, the item index (``deal`` / ``game``) first, then named columns.

Totals and counts are exact integers, so :meth:`Batch.merge` is order-free and a
run's result does not depend on how its batches were cut or where they ran.  A batch holds its totals
and histograms as numpy :class:`Columns`, added batch by batch without pandas; ``Batch.totals`` and
``Batch.histograms`` are their DataFrames, made when first asked for (pandas is imported then, not
before a deal is played).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..stats import mean_se

if TYPE_CHECKING:  # pandas is imported where a DataFrame is made, after the deals are played
    import pandas as pd

TOTAL_KEYS = ["scope", "who", "component"]
TOTAL_VALUES = ["n", "sum", "sumsq"]
HIST_KEYS = ["scope", "who", "component", "value"]
HIST_VALUES = ["count"]


class Columns:
    """A long-form table as named numpy columns of one length; :meth:`frame` is its DataFrame.  ``labels`` gives
    the pandas dtype of each label column (``"str"``, or ``"object"`` where pandas makes one: an empty label
    column, and any concatenation with one), so the DataFrame is the one pandas made batch by batch before.
    Made from a DataFrame (a stored batch's), it gives back that DataFrame."""

    def __init__(self, columns: dict[str, np.ndarray], labels: dict | None = None, frame=None):
        self.columns, self.labels, self._frame = columns, labels or {}, frame

    @classmethod
    def of(cls, table) -> Columns:
        """``table`` itself if it is Columns, else the Columns of a DataFrame."""
        if isinstance(table, Columns):
            return table
        labels = {name: dtype for name, dtype in table.dtypes.items() if dtype.kind not in "iufb"}
        return cls({name: table[name].to_numpy() for name in table.columns}, labels, table)

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()), ()))

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def frame(self) -> pd.DataFrame:
        """The DataFrame of these columns (made once)."""
        if self._frame is None:
            import pandas as pd

            self._frame = pd.DataFrame(
                {
                    name: pd.Series(column, dtype=self.labels[name]) if name in self.labels else column
                    for name, column in self.columns.items()
                }
            )
        return self._frame

    def where(self, **labels) -> Columns:
        """The rows whose columns have the given values (``scope="role"``), in order."""
        keep = np.ones(len(self), dtype=bool)
        for name, value in labels.items():
            keep &= self.columns[name] == value
        return Columns({name: column[keep] for name, column in self.columns.items()}, self.labels)


def concat(parts, empty: Columns | None = None) -> Columns:
    """The rows of ``parts`` (Columns with the same columns) one after another; a label column is ``"object"``
    unless it is of one dtype in every part (as ``pandas.concat`` makes it); ``empty`` when there is no part."""
    parts = list(parts)
    if not parts and empty is not None:
        return empty
    labels = {
        name: dtype if all(p.labels.get(name) == dtype for p in parts) else "object"
        for name, dtype in parts[0].labels.items()
    }
    return Columns({name: np.concatenate([p[name] for p in parts]) for name in parts[0].columns}, labels)


def rows_frame(items: np.ndarray, values: np.ndarray, names: list[str], others: dict | None = None) -> pd.DataFrame:
    """A table of per-item rows (``Batch.rows``): ``items`` (the item indices), then the int64 columns
    ``values[:, k]``, named ``names`` (the items' first), except those given in ``others`` by name (labels,
    narrower integers).  The int64 values stay ``values``' own block, neither copied nor gathered column by
    column: that took longer than playing the deals (pandas imported when first needed)."""
    import pandas as pd

    others = others or {}
    plain = [k for k, name in enumerate(names[1:]) if name not in others]
    block = values if len(plain) == values.shape[1] else values[:, plain]
    frame = pd.DataFrame(block, columns=[names[1 + k] for k in plain], copy=False)
    frame.insert(0, names[0], np.asarray(items, dtype=np.int64))
    for at, name in enumerate(names):
        if name in others:
            frame.insert(at, name, others[name])
    return frame


def concat_rows(frames: list) -> pd.DataFrame:
    """Tables of per-item rows one after another, the rows numbered afresh (as ``pandas.concat(frames,
    ignore_index=True)``); tables of the same int64 columns alone, as :func:`rows_frame` makes them, are
    joined as one block of values after their items."""
    import pandas as pd

    columns = frames[0].columns
    if len(frames) > 1 and all(f.columns.equals(columns) and (f.dtypes == np.int64).all() for f in frames):
        items = np.concatenate([f.iloc[:, 0].to_numpy() for f in frames])
        return rows_frame(items, np.concatenate([f.iloc[:, 1:].to_numpy() for f in frames]), list(columns))
    return pd.concat(frames, ignore_index=True)


def _labels(values) -> np.ndarray:
    return np.asarray(list(values), dtype=object)


def _label_dtypes(size: int) -> dict:
    """Label columns as pandas made them: the scope a string, who and component strings unless empty."""
    kind = "str" if size else "object"
    return {"scope": "str", "who": kind, "component": kind}


def total_columns(scope: str, who, components, sums, sumsq, n) -> Columns:
    """Long-form totals of ``sums[w, k]`` / ``sumsq[w, k]`` over ``n`` (a count, one per ``who``, or one per
    ``[w, k]``)."""
    who, components = _labels(who), _labels(components)
    sums = np.asarray(sums, dtype=np.int64).reshape(len(who), len(components))
    sumsq = np.asarray(sumsq, dtype=np.int64).reshape(len(who), len(components))
    n = np.asarray(n, dtype=np.int64)
    counts = np.broadcast_to(n if n.ndim == 2 else n.reshape(-1, 1), sums.shape)
    return Columns(
        {
            "scope": np.full(sums.size, scope, dtype=object),
            "who": np.repeat(who, len(components)),
            "component": np.tile(components, len(who)),
            "n": counts.ravel(),
            "sum": sums.ravel(),
            "sumsq": sumsq.ravel(),
        },
        _label_dtypes(sums.size),
    )


def count_columns(scope: str, who, components, counts, n) -> Columns:
    """Totals of 0/1 outcomes (wins, lurches): sum = sumsq = the count."""
    return total_columns(scope, who, components, counts, counts, n)


def histogram_columns(scope: str, who, components, hist) -> Columns:
    """Long-form histograms of ``hist[w, k, value]``, keeping only the values that occurred."""
    hist = np.asarray(hist, dtype=np.int64)
    w, k, v = np.nonzero(hist)
    return Columns(
        {
            "scope": np.full(len(w), scope, dtype=object),
            "who": _labels(who)[w],
            "component": _labels(components)[k],
            "value": v.astype(np.int64),
            "count": hist[w, k, v],
        },
        _label_dtypes(len(w)),
    )


def _add(a: Columns, b: Columns, keys: list[str]) -> Columns:
    """The rows of ``a`` and ``b`` added by ``keys``, in order of first appearance (as ``groupby(keys,
    sort=False).sum()``): a histogram's values that occurred in one batch only are kept."""
    if not len(a):
        return b
    if not len(b):
        return a
    if len(a) == len(b) and a.labels == b.labels and all(np.array_equal(a[k], b[k]) for k in keys):
        return Columns(
            {name: column if name in keys else column + b[name] for name, column in a.columns.items()}, a.labels
        )  # the usual case: one layout per job
    both = concat([a, b])
    groups: dict = {}
    ids = np.fromiter(
        (groups.setdefault(key, len(groups)) for key in zip(*(both[k].tolist() for k in keys))),
        dtype=np.int64,
        count=len(both),
    )
    first = np.unique(ids, return_index=True)[1]
    columns = {}
    for name, column in both.columns.items():
        if name in keys:
            columns[name] = column[first]
        else:
            columns[name] = np.zeros(len(groups), dtype=column.dtype)
            np.add.at(columns[name], ids, column)
    return Columns(columns, both.labels)


class Batch:
    """The results of ``n`` items (deals or games) of one job: ``totals`` and ``histograms`` (Columns or
    DataFrames) and ``rows``, named DataFrames."""

    def __init__(self, kind: str, n: int, totals, histograms, rows: dict | None = None):
        self.kind, self.n, self.rows = kind, n, {} if rows is None else rows
        self.total_columns, self.histogram_columns = Columns.of(totals), Columns.of(histograms)

    @property
    def totals(self) -> pd.DataFrame:
        """The totals as a DataFrame: scope, who, component, n, sum, sumsq."""
        return self.total_columns.frame()

    @property
    def histograms(self) -> pd.DataFrame:
        """The histograms as a DataFrame: scope, who, component, value, count."""
        return self.histogram_columns.frame()

    def merge(self, other: Batch) -> Batch:
        """Totals and histograms add; row tables are concatenated (``other`` after ``self``)."""
        if self.kind != other.kind or set(self.rows) != set(other.rows):
            raise ValueError("cannot merge batches of different jobs")
        rows = {name: concat_rows([frame, other.rows[name]]) for name, frame in self.rows.items()}
        return Batch(
            self.kind,
            self.n + other.n,
            _add(self.total_columns, other.total_columns, TOTAL_KEYS),
            _add(self.histogram_columns, other.histogram_columns, HIST_KEYS),
            rows,
        )

    def total(self, scope: str, who: str, component: str) -> tuple[int, int, int]:
        """(n, sum, sumsq) of one total."""
        row = self.total_columns.where(scope=scope, who=who, component=component)
        if len(row) != 1:
            raise KeyError(f"no total {scope}/{who}/{component}")
        n, total, sumsq = (int(row[c][0]) for c in TOTAL_VALUES)
        return n, total, sumsq

    def means(self, scope: str) -> Columns:
        """The totals of ``scope`` with the mean per item of each and its standard error (``mean``, ``se``)."""
        t = self.total_columns.where(scope=scope)
        mean, se = mean_se(t["sum"], t["sumsq"], t["n"])
        return Columns({**t.columns, "mean": mean, "se": se}, t.labels)

    def nested_means(self, scope: str, leave_out: str | None = None) -> dict:
        """``{who: {component: {mean, se}}}`` of the totals of ``scope`` (but component ``leave_out``), as a
        summary gives them: made from the arrays, no DataFrame (a report asks for hundreds of summaries)."""
        m = self.means(scope)
        out: dict = {}
        for who, component, mean, se in zip(m["who"], m["component"], m["mean"], m["se"]):
            if component != leave_out:
                out.setdefault(who, {})[component] = {"mean": float(mean), "se": float(se)}
        return out

    def histogram_arrays(self, scope: str, who: str, component: str) -> tuple[np.ndarray, np.ndarray]:
        """(values, counts) of one histogram by increasing value (values that never occurred are absent): made
        from the arrays, no DataFrame."""
        h = self.histogram_columns.where(scope=scope, who=who, component=component)
        order = np.argsort(h["value"], kind="stable")
        return h["value"][order], h["count"][order]

    def histogram(self, scope: str, who: str, component: str) -> pd.Series:
        """Counts by value of one histogram (values that never occurred are absent)."""
        import pandas as pd

        values, counts = self.histogram_arrays(scope, who, component)
        # set_index, not pd.Index: evenly spaced values make a RangeIndex, as in a Series cut from the table
        return pd.DataFrame({"value": values, "count": counts}).set_index("value")["count"]


def quantile(values: np.ndarray, counts: np.ndarray, q: float) -> int:
    """The smallest value whose cumulative share of a histogram (``values`` increasing, with their ``counts``)
    reaches ``q``: q = 0.5 its median, q = 1 the largest value that occurred."""
    cum = np.cumsum(counts)
    return int(values[np.searchsorted(cum, q * cum[-1])])
