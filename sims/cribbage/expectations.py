"""Exact expectations of a throw: the kept hand over the unseen starters and the crib when the others
throw at random, and a throw's crib value from a 13x13 table.

Every expectation here is exact over the cards a player has not seen (the 52
less his own dealt cards): the starter is equally likely to be any of them,
and cards the other players throw at random form a uniformly random subset of
them.  Sums over starters are taken by rank (13 table loads instead of one show
per starter), sums over the others' throws by rank multiset, with nobs and
flushes counted from the suit counts (:func:`starter_total`, :func:`crib_total`).

The discard policies (:mod:`sims.cribbage.policies.discard`) and the advisor
(:mod:`sims.cribbage.discards`) use these kernels; the advisor loads only them.
"""

from __future__ import annotations

import numpy as np

from ..core.kernel import njit
from .contract import next_throw, split_throw
from .crib_tables import N_RANKS
from .scoring import CRIB_SIZE, JACK
from .tables import BASE, EMPTY, RANK_TABLE, WITH_EACH_WORK, rank_points_with_each

STARTER_WORK = 2 * N_RANKS + WITH_EACH_WORK  # starter_total's scratch: a histogram, its shows, rank_points_with_each's


@njit(cache=True)
def unseen_counts(hand):
    """The cards not in ``hand`` by rank and by suit, the suits of the unseen jacks (bit mask),
    and how many there are."""
    rank_counts = np.full(N_RANKS, 4, dtype=np.int64)
    suit_counts = np.full(4, 13, dtype=np.int64)
    jacks = 15
    for c in hand:
        rank_counts[c >> 2] -= 1
        suit_counts[c & 3] -= 1
        if c >> 2 == JACK:
            jacks &= ~(1 << (c & 3))
    return rank_counts, suit_counts, jacks, 52 - hand.shape[0]


@njit(cache=True)
def starter_total(cards, n, rank_counts, suit_counts, n_pool, crib, crib_flush_four, work):
    """Sum of the show points of ``cards[:n]`` over every starter of a pool of ``n_pool`` cards (``work``:
    :data:`STARTER_WORK` integers of scratch for a show of more than five cards).

    The pool is given by its rank and suit counts.  Fifteens, pairs and runs:
    one rank-table load per starter rank, weighted by how many of that rank the
    pool holds.  Nobs: each jack shown scores once per pool card of its suit.
    Flush (``n >= 3`` of one suit): a hand scores ``n`` with any starter and one
    more with a starter of its suit; a crib needs that suit unless ``crib_flush_four``.
    """
    total = 0
    if n + 1 <= 5:
        prefix = 0
        for i in range(n):
            prefix = prefix * BASE + (cards[i] >> 2)
        pad = 0
        scale = 1
        for _ in range(n + 1, 5):
            pad = pad * BASE + EMPTY
            scale *= BASE
        for r in range(N_RANKS):
            if rank_counts[r]:
                total += rank_counts[r] * np.int64(RANK_TABLE[(prefix * BASE + r) * scale + pad])
    else:  # the eight-card game's 6 + 1 show
        counts, with_starter = work[:N_RANKS], work[N_RANKS : 2 * N_RANKS]
        counts[:] = 0
        for i in range(n):
            counts[cards[i] >> 2] += 1
        rank_points_with_each(counts, with_starter, work[2 * N_RANKS :])
        for r in range(N_RANKS):
            total += rank_counts[r] * with_starter[r]
    return total + starter_suits(cards, n, suit_counts, n_pool, crib, crib_flush_four)


@njit(cache=True)
def starter_suits(cards, n, suit_counts, n_pool, crib, crib_flush_four):
    """The nobs and flushes of :func:`starter_total`: the part of the sum that depends on suits."""
    total = 0
    for i in range(n):
        if cards[i] >> 2 == JACK:
            total += suit_counts[cards[i] & 3]
    if n >= 3:
        suit = cards[0] & 3
        same = True
        for i in range(1, n):
            if cards[i] & 3 != suit:
                same = False
        if same:
            if crib and not crib_flush_four:
                total += (n + 1) * suit_counts[suit]
            else:
                total += n * n_pool + suit_counts[suit]
    return total


@njit(cache=True)
def _choose(n, k):
    if k < 0 or k > n:
        return 0
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)
    return c


@njit(cache=True)
def crib_total(thrown, n_thrown, rank_counts, suit_counts, pool_jacks, n_pool, crib_flush_four):
    """Sum of crib points over every way the others complete the crib at random and every starter.

    The crib is ``thrown[:n_thrown]`` plus any ``m = 4 - n_thrown`` pool cards (the
    other players' random throws and, in three-hand, the pack card), the starter any
    remaining pool card; divide by :func:`crib_ways` for the expectation.  The pool is
    ``n_pool`` cards given by rank and suit counts and ``pool_jacks`` (bit ``j``: the
    jack of suit ``j`` is unseen).  Counted in closed form rather than card by card:

    * fifteens, pairs, runs: by rank multiset of the completion, which ``prod C(n_r, k_r)``
      card sets share, and starter rank (``rank_counts`` is restored on return);
    * nobs: a thrown jack of suit ``j`` scores with ``S_j (C(P,m) - C(P-1,m-1))`` of the
      outcomes, an unseen jack of suit ``j`` with ``(S_j - 1) (C(P-1,m-1) - C(P-2,m-2))``
      (``P`` pool cards, ``S_j`` of suit ``j``);
    * flush: thrown cards of one suit ``q`` and a completion of suit ``q`` (``C(S_q, m)`` ways)
      score 5 with each of the ``S_q - m`` starters of the suit, and with ``crib_flush_four``
      4 with each of the ``P - S_q`` others.
    """
    m = CRIB_SIZE - n_thrown
    prefix = 0
    for i in range(n_thrown):
        prefix = prefix * BASE + (thrown[i] >> 2)
    total = 0
    ranks = np.zeros(m, dtype=np.int64)  # the completion's ranks, non-decreasing
    while True:
        ways = 1
        base = prefix
        for j in range(m):
            r = ranks[j]
            before = 0
            while before < j and ranks[j - 1 - before] == r:
                before += 1
            ways = ways * (rank_counts[r] - before) // (before + 1) if rank_counts[r] > before else 0
            base = base * BASE + r
        if ways:
            for j in range(m):
                rank_counts[ranks[j]] -= 1
            base *= BASE
            part = 0
            for r in range(N_RANKS):
                part += rank_counts[r] * np.int64(RANK_TABLE[base + r])
            total += ways * part
            for j in range(m):
                rank_counts[ranks[j]] += 1
        j = m - 1  # the next non-decreasing rank sequence
        while j >= 0 and ranks[j] == N_RANKS - 1:
            j -= 1
        if j < 0:
            break
        ranks[j] += 1
        for i in range(j + 1, m):
            ranks[i] = ranks[j]

    all_ways, with_one, with_two = _choose(n_pool, m), _choose(n_pool - 1, m - 1), _choose(n_pool - 2, m - 2)
    for i in range(n_thrown):
        if thrown[i] >> 2 == JACK:
            total += suit_counts[thrown[i] & 3] * (all_ways - with_one)
    for j in range(4):
        if (pool_jacks >> j) & 1:
            total += (suit_counts[j] - 1) * (with_one - with_two)

    suit = thrown[0] & 3
    for i in range(1, n_thrown):
        if thrown[i] & 3 != suit:
            return total
    flushes = _choose(suit_counts[suit], m)
    total += flushes * 5 * (suit_counts[suit] - m)
    if crib_flush_four:
        total += flushes * 4 * (n_pool - suit_counts[suit])
    return total


@njit(cache=True)
def crib_ways(n_thrown, n_pool):
    """Equally likely (completion, starter) outcomes summed by :func:`crib_total`."""
    m = CRIB_SIZE - n_thrown
    ways = 1
    for i in range(m):
        ways = ways * (n_pool - i) // (i + 1)
    return ways * (n_pool - m)


@njit(cache=True)
def throw_expectations(hand, n_throw, crib_flush_four, with_crib):
    """For every throw mask: the exact expected hand and (``with_crib``) random-opponent crib.

    Returns ``(masks, hand_mean, crib_mean)``; the crib is the thrown cards plus
    a uniformly random completion from the unseen cards (NaN when not asked).
    """
    n = hand.shape[0]
    k = n - n_throw
    rank_counts, suit_counts, jacks, n_pool = unseen_counts(hand)
    n_masks = _choose(n, n_throw)
    masks = np.empty(n_masks, dtype=np.int64)
    hand_mean = np.empty(n_masks, dtype=np.float64)
    crib_mean = np.full(n_masks, np.nan)
    kept = np.empty(k, dtype=np.int64)
    thrown = np.empty(n_throw, dtype=np.int64)
    work = np.empty(STARTER_WORK, dtype=np.int64)
    ways = crib_ways(n_throw, n_pool)
    mask = next_throw(-1, n, n_throw)
    for j in range(n_masks):
        masks[j] = mask
        split_throw(hand, mask, kept, thrown)
        hand_mean[j] = starter_total(kept, k, rank_counts, suit_counts, n_pool, False, crib_flush_four, work) / n_pool
        if with_crib:
            crib_mean[j] = crib_total(thrown, n_throw, rank_counts, suit_counts, jacks, n_pool, crib_flush_four) / ways
        mask = next_throw(mask, n, n_throw)
    return masks, hand_mean, crib_mean


@njit(cache=True)
def table_crib_value(thrown, n_thrown, params, mine):
    """Crib value of the thrown ranks from the 13x13 table in ``params`` (dealer 0:169, pone 169:338).

    One card thrown (three- and four-hand): the table row averaged over the
    partner card's rank, weighted by the cards of that rank left (4, or 3 for its own rank).
    """
    base = 0 if mine else N_RANKS * N_RANKS
    r = thrown[0] >> 2
    if n_thrown == 2:
        return params[base + r * N_RANKS + (thrown[1] >> 2)]
    total = 0.0
    for s in range(N_RANKS):
        total += (3.0 if s == r else 4.0) * params[base + r * N_RANKS + s]
    return total / 51.0
