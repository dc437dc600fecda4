"""The baseline policies: ``random`` and ``greedy``, for discarding and for the play.

They allocate nothing and keep no array they are given, so they are compiled without reference counting
(``refcounts=False``, :func:`sims.core.kernel.njit`): the engine calls them millions of times a second.
"""

from __future__ import annotations

import numpy as np

from ...core.kernel import njit
from ...core.masks import nth_bit
from ...core.rng import randint
from ..pegging import MAX_COUNT, card_value, points_if_laid
from ..rules import R_BATH, R_THROW
from ..scoring import kept_points
from ..contract import DISCARD_SIG, PEG_SIG, S_COUNT, S_COUNT_START, S_N_PLAYED, is_legal_play, next_throw


@njit(DISCARD_SIG, cache=True, refcounts=False)
def random_discard(hand, state, rules, rng, params):
    """Throw a uniformly random set of cards."""
    n = hand.shape[0]
    k = rules[R_THROW]
    mask = 0
    chosen = 0
    while chosen < k:
        i = randint(rng, n)
        if not (mask >> i) & 1:
            mask |= 1 << i
            chosen += 1
    return mask


@njit(DISCARD_SIG, cache=True, refcounts=False)
def greedy_discard(hand, state, rules, rng, params):
    """Keep the cards that score most on their own (no starter); ties to the first throw found."""
    n = hand.shape[0]
    k = rules[R_THROW]
    best, best_mask = -1, 0
    mask = next_throw(-1, n, k)
    while mask >= 0:
        points = kept_points(hand, mask)
        if points > best:
            best, best_mask = points, mask
        mask = next_throw(mask, n, k)
    return best_mask


@njit(PEG_SIG, cache=True, refcounts=False)
def random_peg(hand, played, state, rules, rng, params):
    """Lay a uniformly random legal card: the pick-th legal card in hand order, found by
    :func:`sims.core.masks.nth_bit`.  No branch depends on the cards: loops that counted up to the random pick, and a
    test of each card laid, made half of a random deal's mispredicted branches (valgrind's branch simulation)."""
    count = state[S_COUNT]
    legal = 0
    n_legal = 0
    for i in range(hand.shape[0]):
        ok = np.int64((hand[i] >= 0) & (count + card_value(hand[i]) <= MAX_COUNT))
        legal |= ok << i
        n_legal += ok
    return nth_bit(legal, randint(rng, n_legal))


@njit(PEG_SIG, cache=True, refcounts=False)
def greedy_peg(hand, played, state, rules, rng, params):
    """Lay the card that scores most at once; ties to the highest card."""
    count = state[S_COUNT]
    start, n = state[S_COUNT_START], state[S_N_PLAYED]
    best, best_i = -1, -1
    for i in range(hand.shape[0]):
        if not is_legal_play(hand, i, count):
            continue
        points = points_if_laid(played, start, n, hand[i], rules[R_BATH] != 0)  # played is read-only
        if points > best or (points == best and hand[i] > hand[best_i]):
            best, best_i = points, i
    return best_i
