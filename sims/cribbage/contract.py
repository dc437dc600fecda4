"""What a policy is: the two njit signatures, what a policy sees, and small helpers.

A **discard policy** chooses the cards to lay out for the crib::

    @njit(DISCARD_SIG, cache=True)
    def my_discard(hand, state, rules, rng, params):
        # hand:   int64[cards_dealt], the cards dealt to this seat
        # state:  int64[S_SIZE], the situation (S_* indices below)
        # rules:  int64[R_SIZE], Rules.to_kernel() (R_* indices in sims.cribbage.rules)
        # rng:    uint64[4], this seat's own random stream (sims.core.rng.uniform / randint)
        # params: float64[:], this policy's parameters (empty if it takes none)
        return mask   # int64 bit mask of positions in hand to throw: exactly rules[R_THROW] bits

A **pegging policy** chooses which card to lay in the play::

    @njit(PEG_SIG, cache=True)
    def my_peg(hand, played, state, rules, rng, params):
        # hand:   int64[kept], the cards kept; a card already laid is -1
        # played: int64[:], every card laid this deal in order; played[:state[S_N_PLAYED]] is valid,
        #         the current count began at state[S_COUNT_START] (a policy that scores a candidate
        #         card with peg_points_kernel lays it in its own copy, played.copy())
        # state:  int64[S_SIZE]; state[S_ROOM + r] says what the goes of the player in role r tell of his cards
        return i      # index into hand of a card with hand[i] >= 0 and count + value <= 31

Every array but ``rng`` is read-only: numba refuses to compile a policy that writes into one.
The engine calls a pegging policy only when it has a legal card, checks every
answer and stops with a :class:`sims.core.errors.PolicyError` naming the policy and the
situation when an answer is illegal.  Both kinds are compiled against the fixed
signatures so that the engine compiles once for all policies and numba's
on-disk cache works across processes.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..core.kernel import njit
from ..core.kernel_types import F64_1R, I64_1R, U64_1
from ..core.masks import popcount
from .pegging import MAX_COUNT, card_value
from .rules import MAX_SEATS

DISCARD_SIG = types.int64(I64_1R, I64_1R, I64_1R, U64_1, F64_1R)  # read-only but the random stream
PEG_SIG = types.int64(I64_1R, I64_1R, I64_1R, I64_1R, U64_1, F64_1R)
DiscardFn = types.FunctionType(DISCARD_SIG)
PegFn = types.FunctionType(PEG_SIG)

# What a policy sees: indices into ``state``.
S_SEAT = 0  # this player's seat (0 .. players-1)
S_ROLE = 1  # place from the dealer: 0 dealer, 1 eldest hand (the pone), 2, 3
S_DEALER = 2  # the dealer's seat
S_ACTIVE = 3  # players taking part in this deal
S_STARTER = 4  # the starter, -1 while discarding
S_COUNT = 5  # the current count
S_COUNT_START = 6  # index in ``played`` where the current count began
S_N_PLAYED = 7  # cards laid so far this deal
S_MY_SCORE = 8  # my side's score, kept up to date during the deal
S_OPP_SCORE = 9  # the best opposing score
S_TARGET = 10  # points that win
S_CRIB_MINE = 11  # 1 if the crib belongs to my side
S_GO_MASK = 12  # bit r set: the player in role r has said go in this count
S_THROWN = 13  # S_THROWN .. S_THROWN+1: the cards I threw (-1 if fewer)
S_ROOM = 15  # S_ROOM + r: for the player in role r (not me: 0), the most pips a card could have had and
# fitted when he could not lay in this deal (said go, or nobody could lay); 0 if he always
# could.  Every card he holds has more pips than that (Sections 87-96: a player who can play must)
S_SIZE = S_ROOM + MAX_SEATS

# The names of the places ``state[S_ROLE]`` counts from the dealer, by the number of players in the deal.
ROLE_NAMES = {
    2: ("dealer", "pone"),
    3: ("dealer", "eldest", "second"),
    4: ("dealer", "eldest", "dealer_partner", "eldest_partner"),
}

EMPTY_PARAMS = np.zeros(0, dtype=np.float64)


@njit(cache=True, inline="always")
def is_valid_throw(mask, n_cards, n_throw):
    """A throw mask must name exactly ``n_throw`` of the ``n_cards`` positions."""
    return mask >= 0 and mask < (1 << n_cards) and popcount(mask) == n_throw


@njit(cache=True, inline="always")
def split_throw(hand, mask, kept, thrown):
    """Copy the kept and thrown cards of ``hand`` for throw ``mask`` into the two arrays."""
    k = 0
    t = 0
    for i in range(hand.shape[0]):
        if (mask >> i) & 1:
            thrown[t] = hand[i]
            t += 1
        else:
            kept[k] = hand[i]
            k += 1


@njit(cache=True)
def next_throw(mask, n_cards, n_throw):
    """The next throw mask after ``mask`` in increasing order (start from -1), or -1 when done.

    Gosper's hack: the next larger integer with the same number of bits set.
    """
    if mask < 0:
        return (1 << n_throw) - 1
    low = mask & -mask
    ripple = mask + low
    m = (((ripple ^ mask) >> 2) // low) | ripple
    return m if m < (1 << n_cards) else -1


@njit(cache=True, inline="always")
def is_legal_play(hand, i, count):
    """Card ``hand[i]`` can be laid: still held and the count stays within thirty-one."""
    return 0 <= i < hand.shape[0] and hand[i] >= 0 and count + card_value(hand[i]) <= MAX_COUNT


@njit(cache=True, reads=("hand", "played", "state"))
def seen_cards(hand, played, state):
    """What this player knows: a 52-bit mask of his cards in hand, every card laid, the starter and his
    own throw, and how many cards he still holds."""
    seen = 0
    held = 0
    for c in hand:
        if c >= 0:
            seen |= 1 << c
            held += 1
    for i in range(state[S_N_PLAYED]):
        seen |= 1 << played[i]
    for c in (state[S_STARTER], state[S_THROWN], state[S_THROWN + 1]):
        if c >= 0:
            seen |= 1 << c
    return seen, held
