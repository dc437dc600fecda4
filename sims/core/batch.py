"""A batch of results in tidy form: exact integer totals, histograms and optional per-item rows.

Every game reports in the same three shapes, which the run store writes as they are:

* ``totals``: one row per (``scope``, ``who``, ``component``) with ``n``, ``sum`` and ``sumsq``
  (int64): e.g. ``role, dealer, hand`` or ``seat, seat 1, total`` or ``side, seats 0+2, wins``;
* ``histograms``: one row per (``scope``, ``who``, ``component``, ``value``) with ``count``;
* ``rows`` (when asked for): named tables (``deals``, ``games``, ``score_log`` ...) of one row per deal,
  game or event, the item index (``deal`` / ``game``) first, then named columns.

Totals and counts are exact integers, so :meth:`Batch.merge` is order-free and a
run's result does not depend on how its batches were cut or where they ran.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

TOTAL_KEYS = ["scope", "who", "component"]
TOTAL_VALUES = ["n", "sum", "sumsq"]
HIST_KEYS = ["scope", "who", "component", "value"]
HIST_VALUES = ["count"]


def totals_frame(scope: str, who, components, sums, sumsq, n) -> pd.DataFrame:
    """Long-form totals of ``sums[w, k]`` / ``sumsq[w, k]`` over ``n`` (a count, or one per ``who``)."""
    who, components = list(who), list(components)
    sums = np.asarray(sums, dtype=np.int64).reshape(len(who), len(components))
    sumsq = np.asarray(sumsq, dtype=np.int64).reshape(len(who), len(components))
    counts = np.broadcast_to(np.asarray(n, dtype=np.int64).reshape(-1, 1), sums.shape)
    return pd.DataFrame({"scope": scope, "who": np.repeat(who, len(components)), "component": components * len(who),
                         "n": counts.ravel(), "sum": sums.ravel(), "sumsq": sumsq.ravel()})


def counts_frame(scope: str, who, components, counts, n) -> pd.DataFrame:
    """Totals of 0/1 outcomes (wins, lurches): sum = sumsq = the count."""
    return totals_frame(scope, who, components, counts, counts, n)


def hist_frame(scope: str, who, components, hist) -> pd.DataFrame:
    """Long-form histograms of ``hist[w, k, value]``, keeping only the values that occurred."""
    hist = np.asarray(hist, dtype=np.int64)
    w, k, v = np.nonzero(hist)
    return pd.DataFrame({"scope": scope, "who": np.asarray(list(who), dtype=object)[w],
                         "component": np.asarray(list(components), dtype=object)[k],
                         "value": v.astype(np.int64), "count": hist[w, k, v]})


def _add(a: pd.DataFrame, b: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    if a.empty:
        return b
    if b.empty:
        return a
    if len(a) == len(b) and a[keys].equals(b[keys]):   # the usual case: one layout per job
        out = a.copy()
        values = [c for c in a.columns if c not in keys]
        out[values] = a[values].to_numpy() + b[values].to_numpy()
        return out
    return pd.concat([a, b], ignore_index=True).groupby(keys, sort=False, as_index=False).sum()


@dataclass
class Batch:
    """The results of ``n`` items (deals or games) of one job."""

    kind: str
    n: int
    totals: pd.DataFrame
    histograms: pd.DataFrame
    rows: dict[str, pd.DataFrame] = field(default_factory=dict)

    def merge(self, other: "Batch") -> "Batch":
        """Totals and histograms add; row tables are concatenated (``other`` after ``self``)."""
        if self.kind != other.kind or set(self.rows) != set(other.rows):
            raise ValueError("cannot merge batches of different jobs")
        rows = {name: pd.concat([frame, other.rows[name]], ignore_index=True) for name, frame in self.rows.items()}
        return Batch(self.kind, self.n + other.n, _add(self.totals, other.totals, TOTAL_KEYS),
                     _add(self.histograms, other.histograms, HIST_KEYS), rows)

    def total(self, scope: str, who: str, component: str) -> tuple[int, int, int]:
        """(n, sum, sumsq) of one total."""
        t = self.totals
        row = t[(t["scope"] == scope) & (t["who"] == who) & (t["component"] == component)]
        if len(row) != 1:
            raise KeyError(f"no total {scope}/{who}/{component}")
        return tuple(int(row[c].iloc[0]) for c in TOTAL_VALUES)

    def histogram(self, scope: str, who: str, component: str) -> pd.Series:
        """Counts by value of one histogram (values that never occurred are absent)."""
        h = self.histograms
        sel = h[(h["scope"] == scope) & (h["who"] == who) & (h["component"] == component)]
        return sel.set_index("value")["count"].sort_index()
