"""Tables declared by name: what one item (a deal) adds up, laid out once for kernels and for DataFrames.

A :class:`Table` says its two axes by name: ``who`` (``seat 0``, ``seat 1`` ... as many as the
rules seat) and its ``components`` (``tricks``, ``trumps`` ...).  A kernel writes one item's
values into ``out[who, component]`` through the generated constants ``TABLE.at.<component>``
(no offsets computed at call sites), and the same declaration turns the accumulated sums into
the batch's tidy totals and histograms (:mod:`sims.core.batch`), the per-item records, and the
result's DataFrame.

>>> TALLY = Table("seat", ("tricks", "trumps"), bins=6)
>>> TALLY.at.trumps, TALLY.who(2)
(1, ('seat 0', 'seat 1'))
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..stats import mean_se
from .batch import Columns, counts_frame, hist_frame, rows_frame, totals_frame

if TYPE_CHECKING:  # pandas is imported where a DataFrame is made
    import pandas as pd


@dataclass(frozen=True)
class Table:
    """Per-item values by ``who`` (``"<scope> <i>"``) and component; ``bins`` histogram bins for each
    (0 .. bins - 1, larger values counted in the last bin)."""

    scope: str
    components: tuple[str, ...]
    bins: int = 16

    @property
    def at(self):
        """The index of each component by name: ``TABLE.at.tricks`` (a namedtuple, a constant in kernels)."""
        return namedtuple(f"{self.scope.title()}Components", self.components)(*range(len(self.components)))

    def who(self, rows: int) -> tuple[str, ...]:
        return tuple(f"{self.scope} {i}" for i in range(rows))

    def zeros(self, *lead: int) -> np.ndarray:
        """int64 zeros of shape ``(*lead, len(components))``."""
        return np.zeros((*lead, len(self.components)), dtype=np.int64)

    def totals(self, sums, sumsq, n: int) -> Columns:
        """The tidy totals of ``sums[who, component]`` and ``sumsq`` over ``n`` items."""
        return totals_frame(self.scope, self.who(len(sums)), self.components, sums, sumsq, n)

    def histograms(self, hist) -> Columns:
        return hist_frame(self.scope, self.who(len(hist)), self.components, hist)

    def counts(self, counts, n: int) -> Columns:
        return counts_frame(self.scope, self.who(len(counts)), self.components, counts, n)

    def columns(self, rows: int) -> list[str]:
        """The record columns of the values, ``<who>_<component>`` (``seat_0_tricks``), who by who."""
        return [f"{who.replace(' ', '_')}_{component}" for who in self.who(rows) for component in self.components]

    def records(self, values, first_item: int, item: str = "deal") -> pd.DataFrame:
        """One row per item from ``values[item, who, component]``: the item's index, then :meth:`columns`."""
        data = {item: np.arange(first_item, first_item + len(values), dtype=np.int64)}
        data.update(zip(self.columns(values.shape[1]), values.reshape(len(values), -1).T))
        return rows_frame(data)

    def frame(self, totals: pd.DataFrame) -> pd.DataFrame:
        """This table's totals as means per item: who, component, mean, se, n."""
        import pandas as pd

        t = totals[totals["scope"] == self.scope]
        mean, se = mean_se(t["sum"].to_numpy(), t["sumsq"].to_numpy(), t["n"].to_numpy())
        return pd.DataFrame(
            {
                self.scope: t["who"].to_numpy(),
                "component": t["component"].to_numpy(),
                "mean": mean,
                "se": se,
                "n": t["n"].to_numpy(),
            }
        )
