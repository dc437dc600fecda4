"""Begging and answering by the strength of a hand in trumps (Sections 87-96 §93 v).

*Strength* under the trump turned: one for each trump held and one more for each of its
honours for the points, A K Q J 10 (so 0 .. 12).  The eldest begs when his hand is weak;
the dealer, whose trump it is too, gives one rather than run the cards when his is strong.
"""

from __future__ import annotations


from ...core.kernel import njit
from ..cards import game_points
from ..contract import BEG, GIVE, HAND_SIG, RUN, S_OPP_SCORE, S_TARGET, S_TRUMP, STAND


@njit(cache=True, refcounts=False)
def strength(hand, trump):
    """Trumps held plus trump honours held (A K Q J 10, the cards that count for game)."""
    points = 0
    for c in hand:
        if c >= 0 and c & 3 == trump:
            points += 1 + (game_points(c) > 0)
    return points


@njit(HAND_SIG, cache=True, refcounts=False)
def threshold_beg(hand, state, rules, rng, params):
    """Beg when the hand's strength is below ``params[0]``."""
    return BEG if strength(hand, state[S_TRUMP]) < params[0] else STAND


@njit(HAND_SIG, cache=True, refcounts=False)
def threshold_answer(hand, state, rules, rng, params):
    """Give one when the hand's strength is at least ``params[0]``, unless the point would win the
    eldest the game."""
    if state[S_OPP_SCORE] + 1 >= state[S_TARGET]:
        return RUN
    return GIVE if strength(hand, state[S_TRUMP]) >= params[0] else RUN
