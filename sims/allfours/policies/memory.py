"""The ``forgetful`` play policy: the four maxims played by a player who does not track the cards.

He sees his own hand, the card(s) turned up and the trick on the table, but not the cards of
the tricks already played, so to him they are still unseen (in the other hand or the pack).
Law v (Sections 87-96 §92 v): "When a trump is played, it is allowable to ask your adversary if it be
either high or low": with ``asks`` on (``params[0]`` > 0.5) he asks of every trump that falls,
and so knows the trumps played in earlier tricks, though not the other cards.
"""

from __future__ import annotations

import numpy as np

from ...core.kernel import njit
from ..contract import P_CARD, P_ROLE, PLAY_SIG, S_N_PLAYED, S_TRICK_START, S_TRUMP
from .maxims import maxims_choice

ALL_MAXIMS = np.ones(4, dtype=np.float64)


@njit(cache=True)
def remembered(played, state, asks):
    """What he knows of the cards played: (``played`` with only the trumps of earlier tricks when he asks,
    none when he does not, then the current trick; the state with the counts to match)."""
    seen = np.empty_like(played)
    view = state.copy()
    m = 0
    start = state[S_TRICK_START]
    for k in range(start):
        if asks and played[P_CARD, k] & 3 == state[S_TRUMP]:
            seen[P_CARD, m], seen[P_ROLE, m] = played[P_CARD, k], played[P_ROLE, k]
            m += 1
    view[S_TRICK_START] = m
    for k in range(start, state[S_N_PLAYED]):
        seen[P_CARD, m], seen[P_ROLE, m] = played[P_CARD, k], played[P_ROLE, k]
        m += 1
    view[S_N_PLAYED] = m
    return seen, view


@njit(PLAY_SIG, cache=True)
def forgetful_play(hand, played, state, rules, rng, params):
    """The four maxims on what he remembers (module docstring), else greedy."""
    seen, view = remembered(played, state, params[0] > 0.5)
    return maxims_choice(hand, seen, view, rules, ALL_MAXIMS)
