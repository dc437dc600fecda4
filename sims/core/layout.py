"""Tables declared by name: what one item (a deal, a game, a session) adds up, laid out once for kernels and frames.

A :class:`Table` names a scope's two axes, ``who`` (its rows: fixed names such as ``("all",)``, or names made
from the job, as the roles of the rules' players) and its ``components``, and says how its values add up:
as totals (``n``, ``sum``, ``sumsq`` of each value), as counts (0/1 values, ``sumsq`` the ``sum``), as a
histogram (``bins``), and whether they go into the item's record row (``record``, a column-name format).

A :class:`Tally` is the tables of one kind of item, in the order their frames come, laid out as one int64
array ``out[row, column]`` for the kernel: table ``T`` holds rows ``TALLY.row(T)`` .. ``+ T.size - 1`` and its
components are the columns ``T.at.<component>``.  An item writes its values there (``out[ROLE + r,
AT.money]``; the rows the job names are zero when it starts, the others its own scratch), or :data:`ABSENT`
where it has none (a seat sitting out, the winner's loser score): an absent value adds nothing to sums, n or
histograms.  The tables named in ``parts`` are added once
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

# The columns of a layout's blocks, one per table (Tally.layout): its first row in ``out``, its rows and columns
# (W, K); where its sums start in the accumulator (then its sums of squares and the n of its absent values,
# W * K each, then the n of all its items; -1: no totals); where its histograms start (W * K * bins; -1: none) and its bins; 1 for a part's table; where its n is
# in ``out`` (-1: each value counts 1); where its values start in the record row (-1: not recorded).
B_ROW, B_W, B_K, B_SUM, B_HIST, B_BINS, B_PART, B_NROW, B_NCOL, B_REC, B_POOL = range(11)
N_BLOCK = 11


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
    """A tally laid out for one job: ``blocks[t]`` (the B_* columns) for table ``t`` (its rows the job names),
    the accumulator's length ``size``, the record row's length ``recorded`` and the log row's ``logged`` (after
    its flag), the parts an item may log (``log_size``), and each table's names (None: left out)."""

    blocks: np.ndarray
    size: int
    recorded: int
    logged: int
    log_size: int
    names: tuple

    @property
    def kernel(self) -> tuple[np.ndarray, int]:
        """The blocks as the loop takes them, the item's first and the parts' after (their order otherwise kept),
        and the number of the item's."""
        order = np.argsort(self.blocks[:, B_PART], kind="stable")
        return np.ascontiguousarray(self.blocks[order]), int((self.blocks[:, B_PART] == 0).sum())

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
        """The blocks of the rows ``job`` names, table by table (values who by who, component by component)."""
        blocks, size, recorded, logged = [], 0, 0, 0
        names = [t.names(job.rules.players, job) for t in self.tables]
        first_column = {}  # each recorded table's first column, in the record order
        for t in self.record_order:
            first_column[id(t)], recorded = recorded, recorded + len(names[self._index(t)] or ()) * len(t.components)
        for k, t in enumerate(self.tables):
            who, bins = names[k] or (), t.bins_of(job)
            pooled = len(set(who)) == 1 < len(who)  # rows of one name add up as one
            if len(set(who)) not in (len(who), 1):
                raise ValueError(f"{t.scope}: rows share a name only when all of them do, got {who}")
            part = any(p is t for p in self.parts)
            values = (1 if pooled else len(who)) * len(t.components)
            block = [self._rows[k], len(who), len(t.components), -1, -1, bins, part, -1, -1, -1, pooled]
            if t.n:
                block[B_NROW], block[B_NCOL] = self.row(t.n[0]), t.n[0].components.index(t.n[1])
            if t.totals:
                block[B_SUM], size = size, size + 3 * values + 1
            if bins:
                block[B_HIST], size = size, size + values * bins
            if t.record and part:
                block[B_REC], logged = 1 + logged, logged + len(who) * len(t.components)  # after the log's flag
            elif t.record:
                block[B_REC] = first_column[id(t)]
            blocks.append(block)
        table = np.asarray(blocks, dtype=np.int64).reshape(-1, N_BLOCK)
        return Layout(table, size, recorded, logged, self.log[2] if self.log else 0, tuple(names))

    def batch(self, job, layout: Layout, acc, rows, first_item: int, n_items: int) -> Batch:
        """The batch of ``n_items`` items from the accumulator ``acc`` (summed over chunks) and the record rows."""
        totals, histograms = [], []
        for t, who, block in zip(self.tables, layout.names, layout.blocks):
            if who is None:
                continue
            who = tuple(dict.fromkeys(who)) if block[B_POOL] else who  # rows of one name: one row of sums
            shape = (len(who), len(t.components))
            values = shape[0] * shape[1]
            if t.totals:
                sums, sumsq, absent = (acc[block[B_SUM] + d * values :][:values].reshape(shape) for d in range(3))
                n = acc[block[B_SUM] + 3 * values] - absent
                squares = sums if t.totals == "count" else sumsq
                totals.append(total_columns(t.scope, who, t.components, sums, squares, n))
            if block[B_BINS]:
                bins = block[B_BINS]
                hist = acc[block[B_HIST] :][: values * bins].reshape(*shape, bins)
                histograms.append(histogram_columns(t.scope, who, t.components, hist))
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
        no_totals = total_columns("", (), (), [], [], [])  # a tally with no totals or no histograms: none
        no_histograms = histogram_columns("", (), (), np.zeros((0, 0, 0), dtype=np.int64))
        return Batch(job.kind, n_items, concat(totals, no_totals), concat(histograms, no_histograms), records)

    def records(self, layout: Layout, rows, items: np.ndarray, parts: bool) -> pd.DataFrame:
        """One row per item (``items`` their indices), then the columns of the recorded tables (those of
        ``parts``, or the others) in order (``rows_frame``: the int64 values as one block)."""
        names, others, first = [self.item], {}, 1 if parts else 0
        tables = [t for t in self.tables if any(p is t for p in self.parts)] if parts else self.record_order
        for t in tables:
            who = layout.names[self._index(t)]
            if not t.record or not who:
                continue
            labels = dict(t.labels)
            for name, component in zip(t.columns(who), t.components * len(who)):
                j = first + len(names) - 1
                if component in labels:
                    others[name] = np.asarray(labels[component], dtype=object)[rows[:, j]]
                elif np.dtype(t.dtype) != np.int64:
                    others[name] = rows[:, j].astype(t.dtype)
                names.append(name)
        return rows_frame(items, rows[:, first : first + len(names) - 1], names, others)


@njit(cache=True, inline="always")
def add_blocks(blocks, acc, out, first, end):
    """Add the values of ``out`` in blocks ``first`` .. ``end`` - 1 (the item's, or its parts':
    :attr:`Layout.kernel`) to the accumulator ``acc``: sums, sums of squares and n (1, or the value of the
    block's n), histogram bins."""
    for b in range(first, end):
        row, w_end, k_end = blocks[b, B_ROW], blocks[b, B_W], blocks[b, B_K]
        at, hist, bins, pooled = blocks[b, B_SUM], blocks[b, B_HIST], blocks[b, B_BINS], blocks[b, B_POOL]
        size = k_end if pooled else w_end * k_end
        n = 1 if blocks[b, B_NROW] < 0 else out[blocks[b, B_NROW], blocks[b, B_NCOL]]
        if at >= 0:  # n: every item's (each pooled row's), less the absent values' (counted apart: they are few)
            acc[at + 3 * size] += n * w_end if pooled else n
            for w in range(w_end):
                u = 0 if pooled else w * k_end
                for k in range(k_end):
                    v = out[row + w, k]
                    if v == ABSENT:
                        acc[at + 2 * size + u + k] += n
                    else:
                        acc[at + u + k] += v
                        acc[at + size + u + k] += v * v
        if hist >= 0:
            for w in range(w_end):
                u = 0 if pooled else w * k_end
                for k in range(k_end):
                    v = out[row + w, k]
                    if v != ABSENT:
                        acc[hist + (u + k) * bins + min(max(v, 0), bins - 1)] += 1


@njit(cache=True, inline="always")
def clear_blocks(blocks, out, first, end):
    """Zero blocks ``first`` .. ``end`` - 1 of ``out`` (the rows the job names: what an item writes elsewhere
    stays)."""
    for b in range(first, end):
        for w in range(blocks[b, B_ROW], blocks[b, B_ROW] + blocks[b, B_W]):
            for k in range(blocks[b, B_K]):
                out[w, k] = 0


@njit(cache=True, inline="always")
def add_part(tally, out):
    """Add one part of an item (a deal of a session): the values of ``out`` in the tally's ``parts`` tables
    (``tally`` what the item loop hands the item), which start again from zero; log them while the item's log
    has room."""
    blocks, acc, rows, parts = tally  # parts: the parts added so far, where the parts' blocks start
    k, first, end = parts[0], parts[1], blocks.shape[0]
    if k + 1 < rows.shape[0]:
        rows[1 + k, 0] = 1
        record_blocks(blocks, rows[1 + k], out, first, end)
    parts[0] = k + 1
    add_blocks(blocks, acc, out, first, end)
    clear_blocks(blocks, out, first, end)


@njit(cache=True, inline="always")
def record_blocks(blocks, row, out, first, end):
    """Copy the recorded values of ``out`` in blocks ``first`` .. ``end`` - 1 into ``row``."""
    for b in range(first, end):
        at = blocks[b, B_REC]
        if at >= 0:
            for w in range(blocks[b, B_W]):
                for k in range(blocks[b, B_K]):
                    row[at + w * blocks[b, B_K] + k] = out[blocks[b, B_ROW] + w, k]
