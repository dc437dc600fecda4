"""A cribbage pegging policy: the lowest card, or a card making fifteen or thirty-one (Sections 87-96: two for each)."""

from numba import njit

from sims.cribbage.contract import PEG_SIG, S_COUNT


@njit(PEG_SIG, cache=True)
def low_peg(hand, played, state, rules, rng, params):
    """With ``params[0] == 1`` (the default, also when named by path without parameters) a card that brings
    the count to 15 or 31, else the lowest card that keeps the count within 31 (the engine asks only when
    there is one)."""
    fifteens = params[0] == 1.0 if params.shape[0] > 0 else True
    count = state[S_COUNT]
    best = -1
    for i in range(hand.shape[0]):
        if hand[i] < 0:
            continue
        after = count + min((hand[i] >> 2) + 1, 10)
        if after > 31:
            continue
        if fifteens and (after == 15 or after == 31):
            return i
        if best < 0 or hand[i] < hand[best]:
            best = i
    return best
