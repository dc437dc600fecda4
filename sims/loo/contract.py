"""What a Loo policy is: the njit signatures of its three decisions, what it sees, and the legality checks.

A **declare policy** says whether to play, take the miss or pass (Mottoes:
"I play", "I take the miss", or neither), and is the dealer's choice to play or
give up the stakes when one player stands; in five-card loo, PASS is throwing
up the hand::

    @njit(DECIDE_SIG, cache=True)
    def my_declare(hand, state, rules, rng, params):
        # hand:   int64[cards], the cards dealt to this player
        # state:  int64[S_SIZE], the situation (S_* indices below)
        # rules:  int64[R_SIZE], Rules.to_kernel() (R_* indices in sims.loo.rules)
        # rng:    uint64[4], this seat's own random stream (sims.core.rng.uniform / randint)
        # params: float64[:], this policy's parameters (empty if it takes none)
        return PASS or PLAY or MISS   # MISS only while state[S_MISS] == 1

An **exchange policy** (five-card) names the cards a standing player changes
for cards from the pack, in turn from the dealer's left::

    @njit(DECIDE_SIG, cache=True)
    def my_exchange(hand, state, rules, rng, params):
        return mask   # bit i: change hand[i]; at most state[S_PACK] bits

A **card policy** chooses the card to play where the laws leave a choice (the
engine plays forced leads and a lone legal card itself)::

    @njit(CARD_SIG, cache=True)
    def my_card(hand, played, state, rules, rng, params):
        # hand:   int64[cards]; a card already played is -1
        # played: int64[MAX_PLAYS, 2]: (card, role) of every card played this deal, in order;
        #         rows :state[S_N_PLAYED] are valid, the current trick began at state[S_TRICK_START]
        return i      # an index with bit i of state[S_LEGAL] set

Every array but ``rng`` is read-only: numba refuses to compile a policy that writes into one.
Roles count from the dealer: 0 the dealer, 1 the eldest hand (on his left), 2 ...
The engine checks every answer and stops with a PolicyError naming the policy and
the situation when one is illegal.
"""

from __future__ import annotations

from numba import types

from ..core.kernel import njit
from ..core.kernel_types import F64_1R, I64_1R, I64_2R, U64_1
from ..core.masks import popcount


DECIDE_SIG = types.int64(I64_1R, I64_1R, I64_1R, U64_1, F64_1R)  # read-only but the random stream
CARD_SIG = types.int64(I64_1R, I64_2R, I64_1R, I64_1R, U64_1, F64_1R)
DecideFn = types.FunctionType(DECIDE_SIG)
CardFn = types.FunctionType(CARD_SIG)

MAX_SEATS = 10
MAX_CARDS = 5
MAX_PLAYS = MAX_SEATS * MAX_CARDS

# Declarations.
PASS, PLAY, MISS = 0, 1, 2
DECLARATIONS = ("pass", "play", "take the miss")

# What a policy sees: indices into ``state``.
S_SEAT = 0  # this player's seat (0 .. players-1)
S_ROLE = 1  # place from the dealer: 0 the dealer, 1 the eldest hand, ...
S_DEALER = 2  # the dealer's seat
S_PLAYERS = 3  # players at the table
S_TRUMP = 4  # the card turned for trump
S_TRUMP_SUIT = 5  # its suit
S_PAM = 6  # the card that is Pam (-1 in three-card loo)
S_POOL = 7  # money in the pool this deal (a trick takes S_SHARE of it)
S_SHARE = 8  # a trick's share of the pool
S_LOO = 9  # what a player looed this deal pays
S_STAKE = 10  # the stake
S_SINGLE = 11  # 1 in a single: no miss, everyone plays
S_MISS = 12  # 1 while the miss lies on the table untaken
S_MISS_TAKER = 13  # role of the player who took the miss, or -1
S_STOOD = 14  # bit r set: the player in role r stands (plays)
S_N_STOOD = 15  # how many stand so far
S_DECLARED = 16  # players who have declared before this one
S_DEALER_CHOICE = 17  # 1: the dealer, one player standing, plays or gives up the stakes
S_PACK = 18  # cards left in the pack for exchanges (five-card)
S_N_PLAYED = 19  # cards played this deal
S_TRICK = 20  # the trick being played (0 ...)
S_TRICK_START = 21  # row of ``played`` where this trick began
S_LEADER = 22  # role who led this trick
S_BEST = 23  # the card winning this trick so far (-1 if none yet)
S_WINNING = 24  # role playing that card (-1)
S_LEGAL = 25  # bit i: hand[i] may be played
S_TRICKS = 26  # S_TRICKS + r: tricks taken so far by the player in role r
S_EXCHANGED = S_TRICKS + MAX_SEATS  # S_EXCHANGED + r: cards the player in role r changed (-1: not yet)
S_SIZE = S_EXCHANGED + MAX_SEATS


@njit(cache=True, inline="always")
def is_legal_declaration(answer, state):
    """PASS or PLAY; MISS only while the miss lies untaken."""
    return answer == PASS or answer == PLAY or (answer == MISS and state[S_MISS] == 1)


@njit(cache=True, inline="always")
def is_legal_exchange(mask, n_cards, pack):
    """A mask of hand positions, no more of them than the pack has cards."""
    return 0 <= mask < (1 << n_cards) and popcount(mask) <= pack


@njit(cache=True, inline="always")
def is_legal_card(i, legal):
    """Index ``i`` of the hand, allowed by the laws (bit ``i`` of ``legal``)."""
    return 0 <= i < 63 and (legal >> i) & 1 == 1
