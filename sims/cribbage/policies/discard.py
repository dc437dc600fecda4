"""Discard policies that look ahead to the starter, and the exact expectation kernels behind them.

Every expectation here is exact over the cards a player has not seen (the 52
less his own dealt cards): the starter is equally likely to be any of them,
and cards the other players throw at random form a uniformly random subset of
them.  Sums over starters are taken by rank (13 table loads instead of one show
per starter), sums over the others' throws by rank multiset, with nobs and
flushes counted from the suit counts (:func:`starter_total`, :func:`crib_total`).

Policies (``DISCARD_SIG``); whose crib it is comes from ``state[S_CRIB_MINE]``
(three-hand: only the dealer's; four-hand: the dealer's side's); a crib that is
not one's own counts fully against, as in two-handed play:

* ``expected_hand`` – keep the cards with the best exact expected hand;
* ``expected_net``  – expected hand plus (own crib) or minus (opponent's) the
  crib value of the thrown ranks from a 13x13 table passed in ``params``
  (:func:`sims.cribbage.crib_tables.table_params`; Schell's six-card table by
  default, used as it stands in the other variants; :func:`expected_net_policy`
  makes the policy for another table);
* ``exact_net``     – expected hand plus or minus the exact expected crib when
  the other players throw at random;
* ``hoyle``         – seed 004's advice, read literally: the crib's owner throws the cards
  worth most to a crib, the others the cards worth least (see :func:`hoyle_discard`).
* ``hoyle_hand``    – the same advice with the pone's "very worst in his hand" read as the
  cards worth least to his own hand (see :func:`hoyle_hand_discard`).

The optimiser :mod:`sims.cribbage.discards` tabulates the same kernels for every throw.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.policies import Policy
from ..contract import DISCARD_SIG, S_CRIB_MINE, next_throw, split_throw
from ..crib_tables import N_RANKS, PARAMS_SIZE, table_params
from ..rules import R_CRIB_FLUSH_FOUR, R_THROW
from ..scoring import CRIB_SIZE, JACK, show_points
from ..tables import BASE, EMPTY, RANK_TABLE, rank_points


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
def starter_total(cards, n, rank_counts, suit_counts, n_pool, crib, crib_flush_four):
    """Sum of the show points of ``cards[:n]`` over every starter of a pool of ``n_pool`` cards.

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
        counts = np.zeros(N_RANKS, dtype=np.int64)
        for i in range(n):
            counts[cards[i] >> 2] += 1
        for r in range(N_RANKS):
            if rank_counts[r]:
                counts[r] += 1
                total += rank_counts[r] * rank_points(counts)
                counts[r] -= 1
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
    ways = crib_ways(n_throw, n_pool)
    mask = next_throw(-1, n, n_throw)
    for j in range(n_masks):
        masks[j] = mask
        split_throw(hand, mask, kept, thrown)
        hand_mean[j] = starter_total(kept, k, rank_counts, suit_counts, n_pool, False, crib_flush_four) / n_pool
        if with_crib:
            crib_mean[j] = crib_total(thrown, n_throw, rank_counts, suit_counts, jacks, n_pool,
                                      crib_flush_four) / ways
        mask = next_throw(mask, n, n_throw)
    return masks, hand_mean, crib_mean


@njit(cache=True)
def _best(masks, values):
    """The mask with the largest value; ties to the first."""
    best = 0
    for j in range(1, masks.shape[0]):
        if values[j] > values[best]:
            best = j
    return masks[best]


@njit(DISCARD_SIG, cache=True)
def expected_hand_discard(hand, state, rules, rng, params):
    """Keep the cards whose exact expected hand over the unseen starters is largest."""
    masks, hand_mean, _ = throw_expectations(hand, rules[R_THROW], rules[R_CRIB_FLUSH_FOUR] != 0, False)
    return _best(masks, hand_mean)


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


@njit(DISCARD_SIG, cache=True)
def expected_net_discard(hand, state, rules, rng, params):
    """Exact expected hand plus (own crib) or minus (opponent's) the table value of the throw.

    ``params`` shorter than the 338 table values (a misuse :func:`expected_net_policy` prevents)
    is read as an empty table, making this ``expected_hand``.
    """
    n_throw = rules[R_THROW]
    mine = state[S_CRIB_MINE] != 0
    masks, values, _ = throw_expectations(hand, n_throw, rules[R_CRIB_FLUSH_FOUR] != 0, False)
    if params.shape[0] < PARAMS_SIZE:
        return _best(masks, values)
    kept = np.empty(hand.shape[0] - n_throw, dtype=np.int64)
    thrown = np.empty(n_throw, dtype=np.int64)
    for j in range(masks.shape[0]):
        split_throw(hand, masks[j], kept, thrown)
        crib = table_crib_value(thrown, n_throw, params, mine)
        values[j] += crib if mine else -crib
    return _best(masks, values)


@njit(DISCARD_SIG, cache=True)
def exact_net_discard(hand, state, rules, rng, params):
    """Exact expected hand plus (own crib) or minus (opponent's) the exact random-opponent crib."""
    masks, hand_mean, crib_mean = throw_expectations(hand, rules[R_THROW], rules[R_CRIB_FLUSH_FOUR] != 0, True)
    sign = 1.0 if state[S_CRIB_MINE] != 0 else -1.0
    return _best(masks, hand_mean + sign * crib_mean)


@njit(DISCARD_SIG, cache=True)
def hoyle_discard(hand, state, rules, rng, params):
    """Seed 004: "the dealer lays down the two best cards he can for his crib; and his antagonist
    lays down the other two, the very worst in his hand, by reason the crib is the property of
    the dealer."

    Read literally, the advice judges the thrown cards by what they are worth *to the
    crib*, not by what is kept: a throw's worth is the exact expected crib it makes
    when the rest of the crib comes at random from the unseen cards.  The owner of
    the crib (``state[S_CRIB_MINE]``: the dealer, or his partner in four-hand) lays
    down the cards worth most, the others the cards worth least.  Ties go to the
    throw that keeps the most points in hand without the starter, then to the first.
    """
    n_throw = rules[R_THROW]
    n = hand.shape[0]
    masks, _, crib_mean = throw_expectations(hand, n_throw, rules[R_CRIB_FLUSH_FOUR] != 0, True)
    sign = 1.0 if state[S_CRIB_MINE] != 0 else -1.0
    kept = np.empty(n - n_throw, dtype=np.int64)
    thrown = np.empty(n_throw, dtype=np.int64)
    best, best_kept = 0, -1
    for j in range(masks.shape[0]):
        split_throw(hand, masks[j], kept, thrown)
        keeps = show_points(kept, n - n_throw, -1, False, False)
        worth, best_worth = sign * crib_mean[j], sign * crib_mean[best]
        if best_kept < 0 or worth > best_worth or (worth == best_worth and keeps > best_kept):
            best, best_kept = j, keeps
    return masks[best]


@njit(DISCARD_SIG, cache=True)
def hoyle_hand_discard(hand, state, rules, rng, params):
    """Seed 004's advice under its other reading: the pone lays down "the very worst in his hand" for
    *his hand*, keeping the cards with the best exact expected hand over the unseen starters (ties: the
    throw worth least to the dealer's crib); the dealer lays down the two best cards for his crib, as
    in :func:`hoyle_discard`.  The analysis tests the advice under both readings (claims 5a, 5b).
    """
    if state[S_CRIB_MINE] != 0:
        return hoyle_discard(hand, state, rules, rng, params)
    masks, hand_mean, crib_mean = throw_expectations(hand, rules[R_THROW], rules[R_CRIB_FLUSH_FOUR] != 0, True)
    best = 0
    for j in range(1, masks.shape[0]):
        if hand_mean[j] > hand_mean[best] or (hand_mean[j] == hand_mean[best] and crib_mean[j] < crib_mean[best]):
            best = j
    return masks[best]


def expected_net_policy(table) -> Policy:
    """The ``expected_net`` policy with a crib table (a DataFrame as in data/reference) or a
    338-value parameter vector (dealer table then pone table, row-major by rank)."""
    params = np.asarray(table_params(table) if hasattr(table, "columns") else table, dtype=np.float64)
    if params.shape != (PARAMS_SIZE,) or not np.isfinite(params).all():
        raise ValueError(f"an expected_net crib table needs {PARAMS_SIZE} finite values, got shape {params.shape}")
    from . import resolve

    return resolve("discard", "expected_net", params=params)
