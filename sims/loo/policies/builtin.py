"""The baseline policies: ``random``, ``always`` and ``threshold`` declarations; ``keep``, ``random`` and
``threshold`` exchanges; ``random`` and ``greedy`` card play.

Each draws from its seat's stream only as its docstring says, so the plain-Python
reference engine (:mod:`sims.loo.reference`) can replay it exactly.  The threshold
policies' parameters are named in :mod:`sims.loo.policies` (``THRESHOLD_DECLARE``,
``THRESHOLD_EXCHANGE``).
"""

from __future__ import annotations

import numpy as np

from ...core.kernel import njit
from ...core.masks import nth_bit
from ...core.rng import randint
from ..contract import (
    CARD_SIG,
    DECIDE_SIG,
    MISS,
    PASS,
    PLAY,
    S_BEST,
    S_LEGAL,
    S_MISS,
    S_N_PLAYED,
    S_N_STOOD,
    S_PACK,
    S_PAM,
    S_TRICK_START,
    S_TRUMP_SUIT,
    popcount,
)
from ..tricks import power, suit_of
from .hands import C_PLAIN_LOW, category, strength


@njit(DECIDE_SIG, cache=True, refcounts=False)
def random_declare(hand, state, rules, rng, params):
    """Pass, play or (while it lies untaken) take the miss, uniformly: one draw."""
    return randint(rng, 3 if state[S_MISS] == 1 else 2)


@njit(DECIDE_SIG, cache=True, refcounts=False)
def always_declare(hand, state, rules, rng, params):
    """Always play."""
    return PLAY


@njit(DECIDE_SIG, cache=True, refcounts=False)
def threshold_declare(hand, state, rules, rng, params):
    """Play when the hand's strength reaches ``stand_at`` plus ``per_stander`` for each player already
    standing; else take the miss, while it lies untaken, when the strength is below ``miss_below``; else pass."""
    score = strength(hand, state[S_TRUMP_SUIT], state[S_PAM], params)
    if score >= params[6] + params[7] * state[S_N_STOOD]:
        return PLAY
    if state[S_MISS] == 1 and score < params[8]:
        return MISS
    return PASS


@njit(DECIDE_SIG, cache=True, refcounts=False)
def keep_exchange(hand, state, rules, rng, params):
    """Change nothing."""
    return 0


@njit(DECIDE_SIG, cache=True, refcounts=False)
def random_exchange(hand, state, rules, rng, params):
    """Each card with chance one half (one draw of a mask); the lowest positions are kept when the pack is
    short."""
    mask = randint(rng, 1 << hand.shape[0])
    while popcount(mask) > state[S_PACK]:
        top = 1
        while top <= mask:
            top <<= 1
        mask ^= top >> 1
    return mask


@njit(DECIDE_SIG, cache=True)
def threshold_exchange(hand, state, rules, rng, params):
    """Change the cards whose weight is below ``keep_at``, the weakest first while the pack lasts (ties to
    the first in hand)."""
    trump_suit, pam = state[S_TRUMP_SUIT], state[S_PAM]
    n = hand.shape[0]
    weight = np.empty(n, dtype=np.float64)
    for i in range(n):
        c = category(hand[i], trump_suit, pam)
        weight[i] = params[c] if c < C_PLAIN_LOW else 0.0
    mask = 0
    for _ in range(min(n, state[S_PACK])):
        worst = -1
        for i in range(n):
            if not (mask >> i) & 1 and weight[i] < params[6] and (worst < 0 or weight[i] < weight[worst]):
                worst = i
        if worst < 0:
            break
        mask |= 1 << worst
    return mask


@njit(CARD_SIG, cache=True, refcounts=False)
def random_card(hand, played, state, rules, rng, params):
    """A uniformly random legal card: one draw among the legal cards, in hand order."""
    legal = state[S_LEGAL]
    return nth_bit(legal, randint(rng, popcount(legal)))


@njit(cache=True, refcounts=False)
def greedy_choice(hand, legal, led_card, best_card, trump_suit, pam):
    """Leading, the strongest card; following, the cheapest card that wins the trick, else the weakest
    card (trumps kept longest); ties to the first in hand."""
    best_i, best_key = -1, 0
    led_suit = suit_of(led_card, trump_suit, pam) if led_card >= 0 else -1
    beat = power(best_card, led_suit, trump_suit, pam) if best_card >= 0 else -1
    for i in range(hand.shape[0]):
        if not (legal >> i) & 1:
            continue
        card = hand[i]
        own = power(card, suit_of(card, trump_suit, pam), trump_suit, pam)
        if led_card < 0:
            key = -own
        else:
            p = power(card, led_suit, trump_suit, pam)
            key = p if p > beat else 1000 + own  # the cheapest winner, else the weakest card
        if best_i < 0 or key < best_key:
            best_i, best_key = i, key
    return best_i


@njit(CARD_SIG, cache=True, refcounts=False)
def greedy_card(hand, played, state, rules, rng, params):
    """:func:`greedy_choice` at this point of the trick."""
    start = state[S_TRICK_START]
    led = played[start, 0] if state[S_N_PLAYED] > start else -1
    return greedy_choice(hand, state[S_LEGAL], led, state[S_BEST], state[S_TRUMP_SUIT], state[S_PAM])
