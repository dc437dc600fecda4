"""A Loo card policy: the lowest legal card."""

from numba import njit

from sims.loo.contract import CARD_SIG, S_LEGAL


@njit(CARD_SIG, cache=True)
def low_card(hand, played, state, rules, rng, params):
    """The legal card (bit i of state[S_LEGAL]) of lowest rank, aces high."""
    best, best_rank = -1, 99
    for i in range(hand.shape[0]):
        if (state[S_LEGAL] >> i) & 1:
            rank = ((hand[i] >> 2) + 12) % 13  # two 0 ... king 11, ace 12
            if rank < best_rank:
                best, best_rank = i, rank
    return best
