"""A cribbage pegging policy named by path (``py:policy_plugin.tunable.wary_peg``) that declares a parameter
(:func:`sims.core.plugins.declare`), so that ``sims tune`` can search it."""

from numba import njit

from sims.core.plugins import declare
from sims.core.policies import Range
from sims.cribbage.contract import PEG_SIG, S_COUNT, S_COUNT_START, S_N_PLAYED
from sims.cribbage.pegging import card_value, points_if_laid


@declare(
    params=("risk",),
    defaults=(1.0,),
    ranges=(Range("number", 0, 4),),
    help="score most now, less risk for a count of 5 or 21 (a ten-card makes it fifteen or thirty-one)",
)
@njit(PEG_SIG, cache=True)
def wary_peg(hand, played, state, rules, rng, params):
    """The card that scores most now, less ``params[0]`` when it leaves the count at 5 or 21; ties to the lower
    card (the engine asks only when a card can be laid)."""
    count, start, n = state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED]
    best, best_value = -1, 0.0
    for i in range(hand.shape[0]):
        if hand[i] < 0 or count + card_value(hand[i]) > 31:
            continue
        after = count + card_value(hand[i])
        value = points_if_laid(played, start, n, hand[i], False) - (params[0] if after in (5, 21) else 0.0)
        if best < 0 or value > best_value or (value == best_value and hand[i] < hand[best]):
            best, best_value = i, value
    return best
