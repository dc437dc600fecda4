"""The baseline policies: random choices, fixed answers, greedy play and a cheapest-card discard.

*Cheap* (:func:`throw_cost`): a plain card before a trump, a card that counts nothing for
game before a counting card (A K Q J 10, Sections 87-96 §93 iv), a low card before a high one.
"""

from __future__ import annotations

import numpy as np

from ...core.kernel import njit
from ...core.masks import nth_bit, popcount
from ...core.rng import randint
from ..cards import beats, game_points, whist_rank
from ..contract import HAND_SIG, PLAY_SIG, S_LEAD_SUIT, S_ROLE, S_TRUMP, legal_mask, trick_best
from ..rules import R_MAY_TRUMP


@njit(cache=True, inline="always")
def throw_cost(card, trump):
    """How dear a card is to part with: trumps, then counting cards, then rank (see the module docstring)."""
    return 1000 * (card & 3 == trump) + 100 * (game_points(card) > 0) + whist_rank(card)


@njit(cache=True, inline="always")
def cheapest(hand, mask, trump):
    """The position in ``mask`` of the cheapest card (the first of equals); -1 for an empty mask."""
    best = -1
    for i in range(hand.shape[0]):
        if (mask >> i) & 1 and (best < 0 or throw_cost(hand[i], trump) < throw_cost(hand[best], trump)):
            best = i
    return best


@njit(cache=True, inline="always")
def held_mask(hand):
    """Bit i set when ``hand[i]`` holds a card."""
    held = np.int64(0)
    for i in range(hand.shape[0]):
        if hand[i] >= 0:
            held |= np.int64(1) << i
    return held


@njit(HAND_SIG, cache=True, refcounts=False)
def random_choice(hand, state, rules, rng, params):
    """Beg or stand, give or run: one fair draw."""
    return randint(rng, 2)


@njit(HAND_SIG, cache=True, refcounts=False)
def constant(hand, state, rules, rng, params):
    """Always the same answer, ``params[0]`` (stand 0 / beg 1; run 0 / give 1)."""
    return np.int64(params[0])


@njit(HAND_SIG, cache=True, refcounts=False)
def random_discard(hand, state, rules, rng, params):
    """Throw out a uniformly random card: the pick-th card held, in hand order."""
    held = held_mask(hand)
    return nth_bit(held, randint(rng, popcount(held)))


@njit(HAND_SIG, cache=True, refcounts=False)
def cheapest_discard(hand, state, rules, rng, params):
    """Throw out the cheapest card held."""
    return cheapest(hand, held_mask(hand), state[S_TRUMP])


@njit(PLAY_SIG, cache=True, refcounts=False)
def random_play(hand, played, state, rules, rng, params):
    """A uniformly random legal card: one draw among the legal cards, in hand order."""
    legal = legal_mask(hand, state[S_LEAD_SUIT], state[S_TRUMP], rules[R_MAY_TRUMP] != 0)
    return nth_bit(legal, randint(rng, popcount(legal)))


@njit(cache=True, refcounts=False)
def greedy_choice(hand, played, state, rules):
    """Win the trick when a card of the suit led can, with the lowest such card; else part with the
    cheapest card.  Leading, the highest plain card (trumps are kept to win tricks), or the cheapest
    trump when only trumps are left.  A trick the partner is winning is left to him."""
    legal = legal_mask(hand, state[S_LEAD_SUIT], state[S_TRUMP], rules[R_MAY_TRUMP] != 0)
    best, role = trick_best(played, state, state[S_TRUMP])
    return greedy_pick(hand, state, legal, best, role)


@njit(cache=True, refcounts=False, reads=("hand", "state"))
def greedy_pick(hand, state, legal, best, role):
    """:func:`greedy_choice` given the legal cards and the card winning the trick so far with its player's
    role (-1 when leading)."""
    trump = state[S_TRUMP]
    lead = state[S_LEAD_SUIT]
    if lead < 0:
        top = -1
        for i in range(hand.shape[0]):
            if (legal >> i) & 1 and hand[i] & 3 != trump and (top < 0 or whist_rank(hand[i]) > whist_rank(hand[top])):
                top = i
        return top if top >= 0 else cheapest(hand, legal, trump)
    if (role - state[S_ROLE]) % 2 != 0:
        win = -1
        for i in range(hand.shape[0]):
            if (
                (legal >> i) & 1
                and hand[i] & 3 == lead
                and beats(hand[i], best, trump)
                and (win < 0 or whist_rank(hand[i]) < whist_rank(hand[win]))
            ):
                win = i
        if win >= 0:
            return win
    return cheapest(hand, legal, trump)


@njit(PLAY_SIG, cache=True, refcounts=False)
def greedy_play(hand, played, state, rules, rng, params):
    """:func:`greedy_choice`."""
    return greedy_choice(hand, played, state, rules)
