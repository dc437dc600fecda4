"""Discard policies that look ahead to the starter, by the exact expectations of
:mod:`sims.cribbage.expectations`.

Policies (``DISCARD_SIG``); whose crib it is comes from ``state[S_CRIB_MINE]``
(three-hand: only the dealer's; four-hand: the dealer's side's); a crib that is
not one's own counts fully against, as in two-handed play:

* ``expected_hand`` – keep the cards with the best exact expected hand;
* ``expected_net``  – expected hand plus (own crib) or minus (opponent's) the
  crib value of the thrown ranks from a 13x13 table passed in ``params``
  (:func:`sims.cribbage.crib_tables.table_params`; Schell's six-card table by
  default, used as it stands in the other variants; :func:`expected_net_policy`
  makes the policy for another table);
* ``expected_peg``  – ``expected_net`` plus the net pegging the kept ranks are worth in one's
  role, from a table fitted to play-outs (:mod:`sims.cribbage.policies.kept_pegging`);
* ``weighted_peg``  – ``expected_peg`` with its crib and pegging terms weighed by three numbers
  that can be tuned (all 1: ``expected_peg``'s throws);
* ``exact_net``     – expected hand plus or minus the exact expected crib when
  the other players throw at random;
* ``hoyle``         – the Article's advice, read literally: the crib's owner throws the cards
  worth most to a crib, the others the cards worth least (see :func:`hoyle_discard`).
* ``hoyle_hand``    – the same advice with the pone's "very worst in his hand" read as the
  cards worth least to his own hand (see :func:`hoyle_hand_discard`).

The advisor :mod:`sims.cribbage.discards` tabulates the same expectations for every throw.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from ...core.kernel import njit
from ...core.policies import Policy
from ...core.unowned import stack_ints
from ..contract import DISCARD_SIG, S_CRIB_MINE, next_throw, split_throw
from ..crib_tables import PARAMS_SIZE, table_params
from ..expectations import STARTER_WORK, starter_suits, starter_total, table_crib_value, throw_expectations
from ..rules import R_ACTIVE, R_CRIB_FLUSH_FOUR, R_THROW
from ..scoring import show_points
from ..tables import BASE, RANK_TABLE

N_KEPT = 1820  # multisets of four ranks: C(13 + 3, 4)
SCRATCH = 13 + 4 + 2 * 52 + STARTER_WORK  # best_net_throw's stack: unseen by rank and by suit, the hand split,
# shows, starter_total's work


def kept_net_sums() -> np.ndarray:
    """By :func:`kept_index` of four kept ranks: their fifteens, pairs and runs summed over the starters a
    player holding them has not seen, before the cards he throws are taken out: ``4 - (kept of rank r)``
    starters of each rank ``r`` (``RANK_TABLE``)."""
    ranks = np.array(list(combinations_with_replacement(range(13), 4)), dtype=np.int64)
    a, b, c, d = ranks.T
    prefix = ((a * BASE + b) * BASE + c) * BASE + d
    index = a + (b + 1) * b // 2 + (c + 2) * (c + 1) * c // 6 + (d + 3) * (d + 2) * (d + 1) * d // 24
    unseen = 4 - (ranks[:, :, None] == np.arange(13)).sum(axis=1)
    sums = np.zeros(N_KEPT, dtype=np.int64)
    sums[index] = (unseen * RANK_TABLE[prefix[:, None] * BASE + np.arange(13)].astype(np.int64)).sum(axis=1)
    return sums


KEPT_NET_SUMS = kept_net_sums()


@njit(cache=True)
def kept_index(kept):
    """The index (0 .. N_KEPT-1) of the ranks of four kept cards, as a multiset: with the ranks sorted,
    r0 <= r1 <= r2 <= r3, the combination r0 < r1+1 < r2+2 < r3+3 in the combinatorial number system,
    C(r0, 1) + C(r1 + 1, 2) + C(r2 + 2, 3) + C(r3 + 3, 4)."""
    a, b, c, d = kept[0] >> 2, kept[1] >> 2, kept[2] >> 2, kept[3] >> 2
    a, b = min(a, b), max(a, b)  # a sorting network of four
    c, d = min(c, d), max(c, d)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    b, c, d = b + 1, c + 2, d + 3
    return a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6 + d * (d - 1) * (d - 2) * (d - 3) // 24


@njit(cache=True, refcounts=False)
def best_net_throw(hand, state, rules, params, crib_table, kept_table, own_crib, their_crib, pegging):
    """The throw mask of highest value (ties: the first in :func:`next_throw`'s order): the exact expected hand
    over the unseen starters; with ``crib_table``, plus (own crib) or minus (opponent's) the table value of
    the throw (``params[:PARAMS_SIZE]``) times ``own_crib`` or ``their_crib``; with ``kept_table`` (two-handed,
    four cards kept), plus ``pegging`` times the pegging the kept ranks are worth to the crib's owner
    (``params[PARAMS_SIZE:][kept_index]``) or to the pone (the next N_KEPT).  Weights of 1 change nothing
    (``x * 1.0 == x``).  One pass over the throws, nothing kept but the best."""
    n, n_throw = hand.shape[0], rules[R_THROW]
    k = n - n_throw
    mine = state[S_CRIB_MINE] != 0
    flush_four = rules[R_CRIB_FLUSH_FOUR] != 0
    scratch = stack_ints(SCRATCH)  # nothing allocated (sims.core.unowned)
    rank_counts, suit_counts, cards = scratch[:13], scratch[13:17], scratch[17 : 17 + n]
    for r in range(13):
        rank_counts[r] = 4
    for s in range(4):
        suit_counts[s] = 13
    for c in hand:
        rank_counts[c >> 2] -= 1
        suit_counts[c & 3] -= 1
    n_pool = 52 - n
    kept, thrown = cards[:k], cards[k:]
    without = scratch[17 + n : 17 + 2 * n]  # four kept of six: the show of the hand without card j
    work = scratch[SCRATCH - STARTER_WORK :]
    if k == 4 and n_throw == 2:
        for j in range(n):
            slots = 0
            for i in range(n):
                if i != j:
                    slots = slots * BASE + (hand[i] >> 2)
            without[j] = RANK_TABLE[slots]
    kept_at = PARAMS_SIZE + (0 if mine else N_KEPT)
    kept_table = kept_table and rules[R_ACTIVE] == 2 and k == 4
    best, best_value = -1, 0.0
    mask = next_throw(-1, n, n_throw)
    while mask >= 0:
        split_throw(hand, mask, kept, thrown)
        if k == 4:  # the sum over the starters not seen: all but the kept cards' (a table), less the thrown
            index = kept_index(kept)
            total = KEPT_NET_SUMS[index] + starter_suits(kept, k, suit_counts, n_pool, False, flush_four)
            if n_throw == 2:  # the kept cards with one thrown card: the hand without the other (a load a card)
                for j in range(n):
                    if (mask >> j) & 1:
                        total -= without[j]
            else:
                prefix = (
                    (((kept[0] >> 2) * BASE + (kept[1] >> 2)) * BASE + (kept[2] >> 2)) * BASE + (kept[3] >> 2)
                ) * BASE
                for c in thrown:
                    total -= np.int64(RANK_TABLE[prefix + (c >> 2)])
        else:
            index = 0
            total = starter_total(kept, k, rank_counts, suit_counts, n_pool, False, flush_four, work)
        value = total / n_pool
        if crib_table:
            crib = table_crib_value(thrown, n_throw, params, mine)
            value += own_crib * crib if mine else -(their_crib * crib)
        if kept_table:
            value += pegging * params[kept_at + index]
        if best < 0 or value > best_value:
            best, best_value = mask, value
        mask = next_throw(mask, n, n_throw)
    return best


@njit(DISCARD_SIG, cache=True, refcounts=False)
def expected_hand_discard(hand, state, rules, rng, params):
    """Keep the cards whose exact expected hand over the unseen starters is largest."""
    return best_net_throw(hand, state, rules, params, False, False, 1.0, 1.0, 1.0)


@njit(DISCARD_SIG, cache=True, refcounts=False)
def expected_net_discard(hand, state, rules, rng, params):
    """Exact expected hand plus (own crib) or minus (opponent's) the table value of the throw.

    ``params`` shorter than the 338 table values (a misuse :func:`expected_net_policy` prevents)
    is read as an empty table, making this ``expected_hand``.
    """
    return best_net_throw(hand, state, rules, params, params.shape[0] >= PARAMS_SIZE, False, 1.0, 1.0, 1.0)


@njit(DISCARD_SIG, cache=True, refcounts=False)
def expected_peg_discard(hand, state, rules, rng, params):
    """``expected_net``, plus the net pegging (mine less his) the kept ranks are worth in one's role, from
    the table after the crib table in ``params`` (:mod:`sims.cribbage.policies.kept_pegging`); with other
    than two players or four cards kept, ``expected_net``."""
    return best_net_throw(hand, state, rules, params, True, True, 1.0, 1.0, 1.0)


N_WEIGHTS = 3  # weighted_peg's parameters, before expected_peg's tables


@njit(DISCARD_SIG, cache=True, refcounts=False)
def weighted_peg_discard(hand, state, rules, rng, params):
    """``expected_peg`` with its terms weighed: ``params[0]`` times the crib table's value of a throw to one's
    own crib, ``params[1]`` times its value to the opponent's, ``params[2]`` times the kept ranks' pegging;
    then ``expected_peg``'s tables (the spec's fixed table)."""
    return best_net_throw(hand, state, rules, params[N_WEIGHTS:], True, True, params[0], params[1], params[2])


@njit(cache=True)
def _best(masks, values):
    """The mask with the largest value; ties to the first."""
    best = 0
    for j in range(1, masks.shape[0]):
        if values[j] > values[best]:
            best = j
    return masks[best]


@njit(DISCARD_SIG, cache=True)
def exact_net_discard(hand, state, rules, rng, params):
    """Exact expected hand plus (own crib) or minus (opponent's) the exact random-opponent crib."""
    masks, hand_mean, crib_mean = throw_expectations(hand, rules[R_THROW], rules[R_CRIB_FLUSH_FOUR] != 0, True)
    sign = 1.0 if state[S_CRIB_MINE] != 0 else -1.0
    return _best(masks, hand_mean + sign * crib_mean)


@njit(DISCARD_SIG, cache=True)
def hoyle_discard(hand, state, rules, rng, params):
    """Article: "the dealer lays down the two best cards he can for his crib; and his antagonist
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
    """The Article's advice under its other reading: the pone lays down "the very worst in his hand" for
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
