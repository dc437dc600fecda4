"""The show: scoring a hand or the crib with the starter (Mottoes, Rules of Cribbage, Article).

Fifteens 2, pairs 2 (pair-royal 6, double pair-royal 12), runs one point a
card for every distinct combination, flush, nobs 1.  A hand flush is all hand
cards of one suit, scoring their number, one more if the starter matches; a
crib flush needs the starter too "among professed gamesters" unless the
period option ``crib_flush_four`` is on.  The rank part comes from
:data:`sims.cribbage.tables.RANK_TABLE` (see its derivation there), looked up for
shows of up to five cards in :data:`SHOW_TABLE`, its entries by multiset of ranks.
"""

from __future__ import annotations

import itertools
from math import comb

import numba
import numpy as np
from numba import prange

from ..cards import check_disjoint, parse_cards
from ..core.kernel import njit
from .tables import BASE, EMPTY, RANK_TABLE, rank_points

JACK = 10
HAND_SIZES = (3, 4, 6)  # five-, six- and eight-card games
CRIB_SIZE = 4
MAX_SHOW = 30  # eight-card shows can exceed 29; histograms keep headroom
ONE = np.int64(1)  # card bit masks stay int64 (prange indices may be unsigned)
# Shows of up to four cards without a starter (the cards a throw keeps): the entries of RANK_TABLE whose fifth slot
# is empty, 14**4 of them in a row (38 KiB), which stay in cache where lookups spread over the whole table do not.
KEPT_TABLE = np.ascontiguousarray(RANK_TABLE[EMPTY::BASE])
# Shows of up to five cards by the multiset of their five rank slots (EMPTY counted as a fourteenth rank): with the
# slots sorted, v0 <= ... <= v4, the entry is at sum C(v_i + i, i + 1) (the combinatorial number system of the
# increasing v_i + i), C(18, 5) = 8,568 entries (8 KiB) that stay in the first-level cache.  RANK_TABLE's 525 KiB,
# one entry for every order of the slots, spread a deal's shows over the second-level cache and beyond: a show was
# the engine's slowest step after the play.
SLOTS = 5
BINOMIAL = np.array([[comb(s, k) for k in range(SLOTS + 1)] for s in range(BASE + SLOTS)], dtype=np.int64)


def _multiset_table() -> np.ndarray:
    """RANK_TABLE's entry for each sorted multiset of five rank slots, at its combinatorial index."""
    slots = np.array(list(itertools.combinations_with_replacement(range(BASE), SLOTS)), dtype=np.int64)
    index = BINOMIAL[slots + np.arange(SLOTS), np.arange(1, SLOTS + 1)].sum(axis=1)
    table = np.empty(len(slots), dtype=np.int8)
    table[index] = RANK_TABLE[slots @ BASE ** np.arange(SLOTS - 1, -1, -1)]
    return table


SHOW_TABLE = _multiset_table()


@njit(cache=True, inline="always")
def flush_points(hand, n, starter, crib, crib_flush_four):
    """Flush: all ``n >= 3`` cards one suit; the crib also needs the starter unless ``crib_flush_four``."""
    if n < 3:
        return 0
    suit = hand[0] & 3
    odd = 0
    for i in range(1, n):  # branch-free: no early exit
        odd |= (hand[i] ^ suit) & 3
    if odd:
        return 0
    matches = starter >= 0 and (starter & 3) == suit
    if matches:
        return n + 1
    if crib and not crib_flush_four:
        return 0
    return n


@njit(cache=True, inline="always")
def nobs_points(hand, n, starter):
    """Nobs: the jack of the starter's suit in hand or crib, 1."""
    if starter < 0:
        return 0
    nob = JACK * 4 + (starter & 3)
    found = False
    for i in range(n):  # branch-free: no early exit
        found |= hand[i] == nob
    return 1 if found else 0


@njit(cache=True, inline="always")
def _slot(hand, n, starter, i):
    """Rank slot ``i`` of a show: the hand's cards, then the starter (if any), then EMPTY."""
    if i < n:
        return hand[i] >> 2
    if i == n and starter >= 0:
        return starter >> 2
    return EMPTY


@njit(cache=True, inline="always")
def _ordered(a, b):
    return min(a, b), max(a, b)


@njit(cache=True, inline="always")
def rank_show_points(hand, n, starter):
    """Fifteens, pairs and runs of ``hand[:n]`` plus the starter (``-1``: none); a show of up to five cards
    allocates nothing (the engine's deal, compiled without reference counting, scores every show here)."""
    if n + (1 if starter >= 0 else 0) <= SLOTS:
        return slots_points(hand, n, starter)
    return counted_points(hand, n, starter)


@njit(cache=True)
def counted_points(hand, n, starter):
    """Fifteens, pairs and runs of a show of more than five cards (eight-card), from its rank histogram: called,
    not inlined, so that the array it counts in is its own."""
    counts = np.zeros(13, dtype=np.int64)
    for i in range(n):
        counts[hand[i] >> 2] += 1
    if starter >= 0:
        counts[starter >> 2] += 1
    return rank_points(counts)


@njit(cache=True, inline="always")
def slots_points(hand, n, starter):
    """Fifteens, pairs and runs of a show of up to five cards, ``hand[:n]`` and the starter (``-1``: none), from
    :data:`SHOW_TABLE`."""
    v0, v1, v2 = _slot(hand, n, starter, 0), _slot(hand, n, starter, 1), _slot(hand, n, starter, 2)
    v3, v4 = _slot(hand, n, starter, 3), _slot(hand, n, starter, 4)
    # A sorting network of five (nine exchanges, no branches).
    v0, v1 = _ordered(v0, v1)
    v3, v4 = _ordered(v3, v4)
    v2, v4 = _ordered(v2, v4)
    v2, v3 = _ordered(v2, v3)
    v1, v4 = _ordered(v1, v4)
    v0, v3 = _ordered(v0, v3)
    v0, v2 = _ordered(v0, v2)
    v1, v3 = _ordered(v1, v3)
    v1, v2 = _ordered(v1, v2)
    idx = BINOMIAL[v0, 1] + BINOMIAL[v1 + 1, 2] + BINOMIAL[v2 + 2, 3] + BINOMIAL[v3 + 3, 4] + BINOMIAL[v4 + 4, 5]
    return np.int64(SHOW_TABLE[idx])


@njit(cache=True, refcounts=False)
def show_points(hand, n, starter, crib, crib_flush_four):
    """Points of ``hand[:n]`` shown with ``starter`` (``-1`` while discarding), as hand or crib.  Called, not
    inlined: inlined, its seven callers compiled it again each (a tenth of ``sims compile``'s CPU), and called it
    runs as fast (it keeps no array it is given, so it needs no reference counting)."""
    return (
        rank_show_points(hand, n, starter)
        + flush_points(hand, n, starter, crib, crib_flush_four)
        + nobs_points(hand, n, starter)
    )


PARTS = 13 + 4  # starter_shows's scratch: a show's part for each rank of starter, then for each suit


@njit(cache=True)
def starter_shows(hand, n, starters, parts, out):
    """``out[i]``: :func:`show_points` of ``hand[:n]`` as a hand with ``starters[i]``; its fifteens, pairs and runs
    found once for each rank of starter, its flush and nobs once for each suit (``parts``: :data:`PARTS` integers
    of scratch)."""
    for r in range(13):
        parts[r] = -1
    for suit in range(4):  # card ``suit``: the ace of that suit
        parts[13 + suit] = flush_points(hand, n, suit, False, False) + nobs_points(hand, n, suit)
    for i in range(starters.shape[0]):
        s = starters[i]
        r = s >> 2
        if parts[r] < 0:
            parts[r] = rank_show_points(hand, n, s)
        out[i] = parts[r] + parts[13 + (s & 3)]


@njit(cache=True)
def kept_points(hand, throw_mask):
    """Points of the cards a throw keeps (those not in ``throw_mask``), shown without a starter.

    The discard policies' inner loop: no arrays are built for kept hands of up to five cards, and those of up
    to four are looked up in :data:`KEPT_TABLE`.
    """
    n = hand.shape[0]
    n_kept = 0
    idx = 0
    suits = 0
    for i in range(n):
        if not (throw_mask >> i) & 1:
            idx = idx * BASE + (hand[i] >> 2)
            suits |= 1 << (hand[i] & 3)
            n_kept += 1
    if n_kept > 5:
        counts = np.zeros(13, dtype=np.int64)
        for i in range(n):
            if not (throw_mask >> i) & 1:
                counts[hand[i] >> 2] += 1
        points = rank_points(counts)
    elif n_kept == 5:
        points = np.int64(RANK_TABLE[idx])
    else:
        for _ in range(n_kept, 4):
            idx = idx * BASE + EMPTY
        points = np.int64(KEPT_TABLE[idx])
    if n_kept >= 3 and suits & (suits - 1) == 0:
        points += n_kept
    return points


@njit(cache=True, parallel=True)
def _score_shows(hands, starters, crib, crib_flush_four, out):
    n = hands.shape[1]
    for i in prange(hands.shape[0]):
        out[i] = show_points(hands[i], n, starters[i], crib, crib_flush_four)


def _check_show(hand, starter, crib):
    sizes = (CRIB_SIZE,) if crib else HAND_SIZES
    what = "a crib" if crib else "a hand"
    hand = parse_cards(hand)
    if len(hand) not in sizes:
        raise ValueError(f"{what} has {' or '.join(map(str, sizes))} cards, got {len(hand)}")
    if starter is None:
        raise ValueError("the starter (turn-up) card is missing")
    starter = parse_cards([starter] if not isinstance(starter, (list, tuple)) else starter, n=1)[0]
    check_disjoint(hand, [starter])
    return hand, starter


def score_show(hand, starter, crib: bool = False, crib_flush_four: bool = False) -> int:
    """Points of a hand (3, 4 or 6 cards) or crib (4 cards) with the starter.

    >>> score_show("5H 5C 5S JD", "5D")
    29
    """
    hand, starter = _check_show(hand, starter, crib)
    arr = np.asarray(hand, dtype=np.int64)
    return int(show_points(arr, len(hand), starter, crib, crib_flush_four))


def show_breakdown(hand, starter, crib: bool = False, crib_flush_four: bool = False) -> dict:
    """Each scoring combination with the cards behind it, the way the books count aloud.

    Returns ``{"total": int, "components": {name: points}, "items": [(name, cards, points)]}``;
    the items come from the slow enumerator in :mod:`.literal_scoring`, the total is
    checked against the fast scorer.
    """
    from .literal_scoring import show_items

    hand, starter = _check_show(hand, starter, crib)
    items = show_items(hand, starter, crib, crib_flush_four)
    components = {name: 0 for name in ("fifteens", "pairs", "runs", "flush", "nobs")}
    for name, _, points in items:
        components[name] += points
    total = sum(components.values())
    fast = int(show_points(np.asarray(hand, dtype=np.int64), len(hand), starter, crib, crib_flush_four))
    if fast != total:  # pragma: no cover - the test suite pins these together
        raise RuntimeError(f"scorers disagree: table {fast}, enumeration {total}")
    return {"total": total, "components": components, "items": items}


def score_shows(hands, starters, crib: bool = False, crib_flush_four: bool = False) -> np.ndarray:
    """Vectorised, parallel show scoring: ``hands`` n x k card ids, ``starters`` n ids -> int64[n]."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    starters = np.ascontiguousarray(starters, dtype=np.int64)
    if hands.ndim != 2 or starters.shape != (hands.shape[0],):
        raise ValueError("hands must be n x k and starters length n")
    if hands.size and (hands.min() < 0 or hands.max() > 51 or starters.min() < 0 or starters.max() > 51):
        raise ValueError("card ids must be 0..51")
    out = np.empty(hands.shape[0], dtype=np.int64)
    _score_shows(hands, starters, bool(crib), bool(crib_flush_four), out)
    return out


@njit(cache=True, inline="always")
def _jack_bit(card):
    return (1 << (card & 3)) if card >> 2 == JACK else 0


@njit(cache=True, parallel=True)
def _show_histograms(crib, crib_flush_four):
    """Histogram of every (4-card hand, starter) show: ``[52, MAX_SHOW]`` by first card."""
    hist = np.zeros((52, MAX_SHOW), dtype=np.int64)
    for a in prange(52):
        h = hist[a]
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    base = ((((a >> 2) * BASE + (b >> 2)) * BASE + (c >> 2)) * BASE + (d >> 2)) * BASE
                    suit = a & 3
                    same = (b & 3) == suit and (c & 3) == suit and (d & 3) == suit
                    jacks = _jack_bit(a) | _jack_bit(b) | _jack_bit(c) | _jack_bit(d)
                    held = (ONE << a) | (ONE << b) | (ONE << c) | (ONE << d)
                    for r in range(13):  # the starter: one table load per rank, then its free suits
                        rank_part = RANK_TABLE[base + r]
                        for s in range(4):
                            if (held >> (4 * r + s)) & 1:
                                continue
                            p = rank_part + ((jacks >> s) & 1)
                            if same:
                                if s == suit:
                                    p += 5
                                elif not crib or crib_flush_four:
                                    p += 4
                            h[p] += 1
    return hist


def show_distribution(crib: bool = False, crib_flush_four: bool = False) -> np.ndarray:
    """Exact counts of each score over all 12,994,800 four-card shows with a starter."""
    with numba.parallel_chunksize(1):  # the work per first card falls steeply: deal it out one at a time
        return _show_histograms(bool(crib), bool(crib_flush_four)).sum(axis=0)
