"""The ``maxims`` play policy: the four maxims of seed 003 §94, each switched on or off by a parameter.

``params[k]`` > 0.5 switches maxim k on (i knave, ii tens, iii best cards, iv eldest trumps;
:mod:`sims.allfours.maxims`).  The first maxim switched on that advises some legal card
decides, taking the cheapest card it advises; when none does, the play is greedy's.
"""
from __future__ import annotations


from ...core.kernel import njit
from ..contract import PLAY_SIG, S_LEAD_SUIT, S_TRUMP, legal_mask
from ..maxims import N_MAXIMS, advice
from ..rules import R_MAY_TRUMP
from .basic import cheapest, greedy_choice


@njit(cache=True)
def maxims_choice(hand, played, state, rules, switches):
    """The card the maxims switched on (``switches[k] > 0.5``) advise, else greedy's."""
    legal = legal_mask(hand, state[S_LEAD_SUIT], state[S_TRUMP], rules[R_MAY_TRUMP] != 0)
    for k in range(N_MAXIMS):
        if switches[k] > 0.5:
            mask = advice(k, hand, played, state, rules) & legal
            if mask:
                return cheapest(hand, mask, state[S_TRUMP])
    return greedy_choice(hand, played, state, rules)


@njit(PLAY_SIG, cache=True)
def maxims_play(hand, played, state, rules, rng, params):
    """Follow the maxims switched on (module docstring), else play greedy."""
    return maxims_choice(hand, played, state, rules, params)
