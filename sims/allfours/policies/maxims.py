"""The ``maxims`` play policy: the four maxims of Sections 87-96 §94, each switched on or off by a parameter.

``params[k]`` > 0.5 switches maxim k on (i knave, ii tens, iii best cards, iv eldest trumps;
:mod:`sims.allfours.maxims`).  The first maxim switched on that advises some legal card
decides, taking the cheapest card it advises; when none does, the play is greedy's.
"""

from __future__ import annotations

from ...core.kernel import njit
from ..contract import PLAY_SIG, S_TRUMP
from ..maxims import N_MAXIMS, advise, situation
from .basic import cheapest, greedy_pick


@njit(cache=True, refcounts=False, reads=("hand", "played", "state"))
def maxims_choice(hand, played, state, rules, switches):
    """The card the maxims switched on (``switches[k] > 0.5``) advise, else greedy's."""
    legal, unseen, best, role = situation(hand, played, state, rules)
    for k in range(N_MAXIMS):
        if switches[k] > 0.5:
            mask = advise(k, hand, played, state, legal, unseen, best, role) & legal
            if mask:
                return cheapest(hand, mask, state[S_TRUMP])
    return greedy_pick(hand, state, legal, best, role)


@njit(PLAY_SIG, cache=True, refcounts=False)
def maxims_play(hand, played, state, rules, rng, params):
    """Follow the maxims switched on (module docstring), else play greedy."""
    return maxims_choice(hand, played, state, rules, params)
