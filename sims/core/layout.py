"""Tables declared by name: what one item (a deal, a game, a session) adds up, laid out once for kernels and frames.

A :class:`Table` names a scope's two axes, ``who`` (its rows: fixed names such as ``("all",)``, or names made
from the job, as the roles of the rules' players) and its ``components``, and says how its values add up:
as totals (``n``, ``sum``, ``sumsq`` of each value), as counts (0/1 values, ``sumsq`` the ``sum``), as a
histogram (``bins``), and whether they go into the item's record row (``record``, a column-name format).

A :class:`Tally` is the tables of one kind of item, in the order their frames come, laid out as one int64
array ``out[row, column]`` for the kernel: table ``T`` holds rows ``TALLY.row(T)`` .. ``+ T.size - 1`` and its
components are the columns ``T.at.<component>``.  An item writes its values there, zeroed before each item
(``out[ROLE + r, AT.money]``), or :data:`ABSENT` where it has none (a seat sitting out, the winner's loser
score): an absent value adds nothing to sums, n or histograms.  The tables named in ``parts`` are added once
per part of the item (each deal of a session) by :func:`add_part`; the others once per item, by the loop
(:mod:`sims.core.driver`), which also turns the sums into the batch's totals, histograms and records.  The
recorded values of the parts go to the tally's ``log`` instead (one row per part, as a score after every
deal), when the job asks for it.

>>> SEATS = Table("seat", ("tricks", "trumps"), bins=6, size=4, record="{who}_{component}")
>>> GAME = Table("game", ("hands",), who=("all",))
>>> TALLY = Tally("deal", (SEATS, GAME))
>>> SEATS.at.trumps, TALLY.row(GAME), TALLY.shape, SEATS.names(2)
(1, 4, (5, 2), ('seat 0', 'seat 1'))
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..stats import mean_se
from .batch import Batch, concat, histogram_columns, rows_frame, total_columns
from .kernel import njit

if TYPE_CHECKING:  # pandas is imported where a DataFrame is made
    import pandas as pd

ABSENT = np.iinfo(np.int64).min  # a value an item does not have: skipped by sums, n and histograms

# The columns of a layout's cells (Tally.layout): where the value is in ``out``; where its sum, sum of squares and
# n are in the accumulator (-1: no totals); where its histogram starts (-1: none) and its bins; 1 for a part's
# cell; where its n is in ``out`` (-1: each value counts 1); its place in the record row (-1: none).
C_ROW, C_COL, C_SUM, C_HIST, C_BINS, C_PART, C_NROW, C_NCOL, C_REC = range(9)
N_CELL = 9


@dataclass(frozen=True)
class Table:
    """Per-item values of one scope by ``who`` and component.

    ``who`` is a tuple of names, a function of the job giving them (at most ``size``; None: the table is not in
    this job's frames, as a switch that is off), or None: ``"<scope> 0"`` ... one per seat of the rules.  ``size`` is the rows the table holds in ``out`` (the most names; a tuple's
    length by default).  ``totals`` is ``"total"`` (n, sum, sumsq), ``"count"`` (values 0 or 1: sumsq is the
    sum) or None (no totals); ``bins`` histogram bins (values 0 .. bins - 1, larger values in the last bin; 0:
    no histogram), or a function of the job giving them (a game's target).  Rows given one name add up as one
    (each losing side of a game, all named ``all``).  ``record`` formats the record column of each value from ``who``, ``i`` (its row),
    ``scope`` and ``component`` (None: not recorded), as ``dtype``, or as the names ``labels[component]``
    index (``(("ending", ENDINGS),)``).  ``n`` (a table and one of its components) makes each item add that
    value to n instead of 1 (per-hand rates of values tallied per game)."""

    scope: str
    components: tuple[str, ...]
    bins: int | Callable = 0
    who: tuple[str, ...] | Callable | None = None
    size: int = 0
    totals: str | None = "total"
    record: str | None = None
    dtype: str = "int64"
    labels: tuple = ()
    n: tuple | None = None

    def __post_init__(self):
        if self.totals not in ("total", "count", None):
            raise ValueError(f"{self.scope}: totals must be 'total', 'count' or None, got {self.totals!r}")
        if not self.size:
            if not isinstance(self.who, tuple):
                raise ValueError(f"{self.scope}: give the size of a table whose names come from the job")
            object.__setattr__(self, "size", len(self.who))

    @property
    def at(self):
        """The index of each component by name: ``TABLE.at.tricks`` (a namedtuple, a constant in kernels)."""
        return namedtuple(f"{self.scope.title().replace(' ', '')}Components", self.components)(
            *range(len(self.components))
        )

    def bins_of(self, job) -> int:
        """The histogram's bins for ``job``: ``bins``, or what it gives for the job."""
        return self.bins(job) if callable(self.bins) else self.bins

    def names(self, players: int, job=None) -> tuple[str, ...] | None:
        """The names of the rows: ``who``'s, or ``<scope> i`` for ``players`` seats."""
        if self.who is None:
            names = tuple(f"{self.scope} {i}" for i in range(players))
        elif isinstance(self.who, tuple):
            names = self.who
        else:
            names = self.who(job)
            if names is None:
                return None
            names = tuple(names)
        if len(names) > self.size:
            raise ValueError(f"{self.scope}: {len(names)} names, room for {self.size}")
        return names

    def columns(self, names) -> list[str]:
        """The record columns of the values, who by who (``record`` formatted)."""
        return [
            str(self.record).format(who=who, i=i, scope=self.scope, component=component)
            for i, who in enumerate(names)
            for component in self.components
        ]

    def frame(self, totals: pd.DataFrame) -> pd.DataFrame:
        """This scope's totals as means per item: who (named by the scope), component, mean, se, n."""
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


@dataclass(frozen=True)
class Layout:
    """A tally laid out for one job: ``cells[j]`` (the C_* columns) for every value of a named row, the
    accumulator's length ``size``, the record row's length ``recorded`` and the log row's ``logged`` (after
    its flag), the parts an item may log (``log_size``), and each table's names (None: left out)."""

    cells: np.ndarray
    size: int
    recorded: int
    logged: int
    log_size: int
    names: tuple

    @property
    def width(self) -> int:
        """The length of an item's record rows: its record, and each logged part (a flag, then the values)."""
        return max(self.recorded, 1 + self.logged if self.log_size else 0)


class Tally:
    """What one item adds up: ``tables`` in the order of their frames, ``parts`` those of them added once per
    part of the item (:func:`add_part`); ``item`` names the item (``deal``, ``game``), the records' first
    column.  ``log``, ``(name, part, size)``, keeps the recorded values of the first ``size`` parts of each item
    as the rows table ``name`` (the item, ``part`` the part's number, then the values) when the job's option
    ``name`` is on.  ``record_order`` lists the item's recorded tables in the order of their record columns
    (None: the order of ``tables``)."""

    def __init__(self, item: str, tables, parts=(), log: tuple[str, str, int] | None = None, record_order=None):
        self.item, self.tables, self.parts, self.log = item, tuple(tables), tuple(parts), log
        if len(set(map(id, self.tables))) != len(self.tables) or not all(
            any(p is t for t in self.tables) for p in self.parts
        ):
            raise ValueError("a tally's tables are distinct, and its parts are some of them")
        recorded = [t for t in self.tables if t.record and not any(p is t for p in self.parts)]
        self.record_order = recorded if record_order is None else list(record_order)
        if sorted(map(id, self.record_order)) != sorted(map(id, recorded)):
            raise ValueError("a tally's record order lists each of its recorded tables (not parts) once")
        self._rows = np.cumsum([0] + [t.size for t in self.tables])
        self.shape = (int(self._rows[-1]), max(len(t.components) for t in self.tables))

    def _index(self, table: Table) -> int:
        return next(k for k, t in enumerate(self.tables) if t is table)

    def row(self, table: Table) -> int:
        """The first row of ``table`` in ``out`` (a constant for kernels)."""
        return int(self._rows[self._index(table)])

    def logged(self, job) -> bool:
        """Whether ``job`` keeps the log of parts."""
        return self.log is not None and bool(job.option(self.log[0]))

    def layout(self, job) -> Layout:
        """The cells of the rows ``job`` names, table by table, who by who, component by component."""
        cells, size, recorded, logged = [], 0, 0, 0
        names = [t.names(job.rules.players, job) for t in self.tables]
        first_column = {}  # each recorded table's first column, in the record order
        for t in self.record_order:
            first_column[id(t)], recorded = recorded, recorded + len(names[self._index(t)] or ()) * len(t.components)
        for k, t in enumerate(self.tables):
            who = names[k] or ()
            pooled, bins = tuple(dict.fromkeys(who)), t.bins_of(job)
            part = any(p is t for p in self.parts)
            n_row, n_col = (self.row(t.n[0]), t.n[0].components.index(t.n[1])) if t.n else (-1, -1)
            hist = size + 3 * len(pooled) * len(t.components) if t.totals else size
            for w in range(len(who)):
                u = pooled.index(who[w])  # rows of one name add up together
                for c in range(len(t.components)):
                    cell = [self._rows[k] + w, c, -1, -1, bins, part, n_row, n_col, -1]
                    if t.totals:
                        cell[C_SUM] = size + 3 * (u * len(t.components) + c)
                    if bins:
                        cell[C_HIST] = hist + (u * len(t.components) + c) * bins
                    if t.record and part:
                        logged += 1
                        cell[C_REC] = logged  # after the log row's flag
                    elif t.record:
                        cell[C_REC] = first_column[id(t)] + w * len(t.components) + c
                    cells.append(cell)
            size = hist + len(pooled) * len(t.components) * bins
        table = np.asarray(cells, dtype=np.int64).reshape(-1, N_CELL)
        return Layout(table, size, recorded, logged, self.log[2] if self.log else 0, tuple(names))

    def batch(self, job, layout: Layout, acc, rows, first_item: int, n_items: int) -> Batch:
        """The batch of ``n_items`` items from the accumulator ``acc`` (summed over chunks) and the record rows."""
        totals, histograms, j = [], [], 0
        for t, who in zip(self.tables, layout.names):
            if who is None:
                continue
            cells = layout.cells[j : j + len(who) * len(t.components)]
            j += len(cells)
            pooled, bins = tuple(dict.fromkeys(who)), t.bins_of(job)  # a name's first row holds its sums
            cells = cells.reshape(len(who), len(t.components), N_CELL)[[who.index(p) for p in pooled]]
            cells, shape = cells.reshape(-1, N_CELL), (len(pooled), len(t.components))
            if t.totals:
                at = cells[:, C_SUM]
                sums, sumsq, n = (acc[at + d].reshape(shape) for d in range(3))
                squares = sums if t.totals == "count" else sumsq
                totals.append(total_columns(t.scope, pooled, t.components, sums, squares, n))
            if bins:
                start = cells[0, C_HIST] if len(cells) else 0
                hist = acc[start : start + len(cells) * bins].reshape(*shape, bins)
                histograms.append(histogram_columns(t.scope, pooled, t.components, hist))
        records = {}
        if job.records:
            items = np.arange(first_item, first_item + n_items, dtype=np.int64)
            records[job.kind] = self.records(layout, rows[:, 0], items, False)
        if self.log is not None and self.logged(job):
            name, number, _ = self.log
            item, part = np.nonzero(rows[:, 1:, 0])
            log = self.records(layout, rows[item, 1 + part], first_item + item, True)
            log.insert(1, number, part.astype(np.int64))
            records[name] = log
        return Batch(job.kind, n_items, concat(totals), concat(histograms), records)

    def records(self, layout: Layout, rows, items: np.ndarray, parts: bool) -> pd.DataFrame:
        """One row per item (``items`` their indices), then the columns of the recorded tables (those of
        ``parts``, or the others) in order."""
        data, j = {self.item: items.astype(np.int64)}, 1 if parts else 0
        tables = [t for t in self.tables if any(p is t for p in self.parts)] if parts else self.record_order
        for t in tables:
            who = layout.names[self._index(t)]
            if not t.record or not who:
                continue
            labels = dict(t.labels)
            for name, component in zip(t.columns(who), t.components * len(who)):
                if component in labels:
                    data[name] = np.asarray(labels[component], dtype=object)[rows[:, j]]
                else:
                    data[name] = rows[:, j].astype(t.dtype)
                j += 1
        return rows_frame(data)


@njit(cache=True, inline="always")
def add_cells(cells, acc, out, part):
    """Add the values of ``out`` in the cells of ``part`` (0: the item's, 1: a part's, which are then zeroed) to
    the accumulator ``acc``: sum, sum of squares and n (1, or the value of the cell's n), histogram bin."""
    for j in range(cells.shape[0]):
        if cells[j, C_PART] != part:
            continue
        v = out[cells[j, C_ROW], cells[j, C_COL]]
        if part:
            out[cells[j, C_ROW], cells[j, C_COL]] = 0
        if v == ABSENT:
            continue
        at = cells[j, C_SUM]
        if at >= 0:
            acc[at] += v
            acc[at + 1] += v * v
            acc[at + 2] += 1 if cells[j, C_NROW] < 0 else out[cells[j, C_NROW], cells[j, C_NCOL]]
        at = cells[j, C_HIST]
        if at >= 0:
            acc[at + min(max(v, 0), cells[j, C_BINS] - 1)] += 1


@njit(cache=True, inline="always")
def add_part(tally, out):
    """Add one part of an item (a deal of a session): the values of ``out`` in the tally's ``parts`` tables
    (``tally`` what the item loop hands the item), which start again from zero; log them while the item's log
    has room."""
    cells, acc, rows, parts = tally
    k = parts[0]
    if k + 1 < rows.shape[0]:
        rows[1 + k, 0] = 1
        record_cells(cells, rows[1 + k], out, 1)
    parts[0] = k + 1
    add_cells(cells, acc, out, 1)


@njit(cache=True, inline="always")
def record_cells(cells, row, out, part):
    """Copy the recorded values of ``out`` in the cells of ``part`` (0: the item's, 1: a part's) into ``row``."""
    for j in range(cells.shape[0]):
        at = cells[j, C_REC]
        if at >= 0 and cells[j, C_PART] == part:
            row[at] = out[cells[j, C_ROW], cells[j, C_COL]]
