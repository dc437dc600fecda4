"""Lookup tables for the show, shipped as package data (``data/rank_table.npy``).

Derivation of ``RANK_TABLE``: fifteens, pairs and runs depend only on the
ranks of the cards shown, not on their order or suits.  A show of up to five
cards (four in hand or crib plus the starter; three plus the starter in the
five-card game; a hand alone while discarding) is described by five "rank
slots", each a rank 0..12 or 13 for an empty slot.  The index is the base-14
number ``s0*14**4 + s1*14**3 + s2*14**2 + s3*14 + s4``, so the table has
14**5 = 537,824 int8 entries (525 KiB, resident in L2) and a show costs one
load.  Each entry is ``rank_points(counts)`` of the multiset of ranks in the
slots, counted from the rank histogram:

* fifteens: the number of sub-multisets of pip values summing to 15, found
  by a subset-sum count over the cards (each card its own item), times 2;
* pairs: ``c*(c-1)`` points for a rank held ``c`` times (2, 6, 12);
* runs: for every maximal stretch of consecutive ranks present, of length
  ``L >= 3``, ``L`` points times the product of the counts in the stretch
  (double run of three 8, double-double run 16, triple run 15).

Flush and nobs depend on suits and are bit tests in :mod:`.scoring`.
Shows of more than five cards (the eight-card game's 6 + 1) use
``rank_points`` directly.

The shipped table is :func:`build_rank_table`'s (a test checks it); reading it
costs a millisecond, building it a tenth of a second at every start.  After a
change to the scoring, write it again with
``np.save("sims/cribbage/data/rank_table.npy", build_rank_table())``.
"""

from __future__ import annotations

import io
from importlib import resources

import numpy as np

from ..core.kernel import njit

EMPTY = 13
BASE = 14
TABLE_SIZE = BASE**5


@njit(cache=True)
def pip_value(rank):
    """Ace 1 ... ten and court cards 10."""
    return min(rank + 1, 10)


@njit(cache=True)
def fifteen_ways(counts, ways):
    """``ways[s]`` (of 16): how many sets of the cards of the rank histogram ``counts[13]`` have pips summing to
    ``s`` (``s`` up to 15; each card its own item)."""
    ways[:] = 0
    ways[0] = 1
    for r in range(13):
        v = pip_value(r)
        for _ in range(counts[r]):
            for s in range(15, v - 1, -1):
                ways[s] += ways[s - v]


@njit(cache=True)
def run_points(counts):
    """Runs of a rank histogram ``counts[13]``: each maximal stretch of ``L >= 3`` consecutive ranks, ``L``
    times the product of its counts."""
    points = 0
    r = 0
    while r < 13:
        if counts[r] == 0:
            r += 1
            continue
        length = 0
        product = 1
        while r < 13 and counts[r] > 0:
            length += 1
            product *= counts[r]
            r += 1
        if length >= 3:
            points += length * product
    return points


@njit(cache=True)
def pair_points(counts):
    """Pairs of a rank histogram ``counts[13]``: ``c*(c-1)`` for a rank held ``c`` times."""
    points = 0
    for r in range(13):
        points += counts[r] * (counts[r] - 1)
    return points


@njit(cache=True)
def rank_points(counts):
    """Fifteens + pairs + runs of a rank histogram ``counts[13]``."""
    ways = np.empty(16, dtype=np.int64)
    fifteen_ways(counts, ways)
    return 2 * ways[15] + pair_points(counts) + run_points(counts)


@njit(cache=True, inline="always")
def _run(length, product):
    """The points of a stretch of ``length`` consecutive ranks held, ``product`` the product of their counts."""
    return length * product if length >= 3 else 0


WITH_EACH_WORK = 16 + 2 * 14  # rank_points_with_each's scratch: the fifteens' ways, the stretches above


@njit(cache=True)
def rank_points_with_each(counts, out, work):
    """``out[r]``: :func:`rank_points` of ``counts[13]`` with one more card of rank ``r`` (a starter of each
    rank), the histogram's fifteens, pairs and runs counted once for all thirteen: the new card of pip ``v``
    adds the sets that make ``15 - v`` to the fifteens, two pairs with each card of its rank, and to the runs
    the stretch of ranks it joins (the ranks held next below and above it, in a row), in place of what that
    stretch, or the two it joins, scored before.  ``work``: :data:`WITH_EACH_WORK` integers of scratch (the
    eight-card discard weighs every throw so: nothing is allocated)."""
    ways = work[:16]
    fifteen_ways(counts, ways)
    pairs = pair_points(counts)
    runs = run_points(counts)
    above_length = work[16:30]  # the ranks held from r upwards, in a row
    above_product = work[30:44]
    above_length[13], above_product[13] = 0, 1
    for r in range(12, -1, -1):
        if counts[r] > 0:
            above_length[r], above_product[r] = above_length[r + 1] + 1, above_product[r + 1] * counts[r]
        else:
            above_length[r], above_product[r] = 0, 1
    below_length, below_product = 0, 1  # the ranks held from r - 1 downwards, in a row
    for r in range(13):
        c = counts[r]
        length = below_length + 1 + above_length[r + 1]
        others = below_product * above_product[r + 1]
        if c > 0:
            before = _run(length, others * c)
        else:
            before = _run(below_length, below_product) + _run(above_length[r + 1], above_product[r + 1])
        fifteens = 2 * (ways[15] + ways[15 - pip_value(r)])
        out[r] = fifteens + pairs + 2 * c + runs - before + _run(length, others * (c + 1))
        below_length, below_product = (below_length + 1, below_product * c) if c > 0 else (0, 1)


@njit(cache=True)
def build_rank_table():
    """``rank_points`` of every five-slot index (module docstring); -1 where a rank appears over four times."""
    table = np.empty(TABLE_SIZE, dtype=np.int8)
    counts = np.zeros(13, dtype=np.int64)
    for idx in range(TABLE_SIZE):
        counts[:] = 0
        x = idx
        for _ in range(5):
            slot = x % BASE
            x //= BASE
            if slot != EMPTY:
                counts[slot] += 1
        ok = True
        for r in range(13):
            if counts[r] > 4:
                ok = False
        table[idx] = rank_points(counts) if ok else -1
    return table


RANK_TABLE = np.load(io.BytesIO(resources.files(__package__).joinpath("data", "rank_table.npy").read_bytes()))
