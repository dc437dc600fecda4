"""What an All Fours policy is: the njit signatures, what a policy sees, and the legality checks.

Four decisions, each a first-class njit function compiled against a fixed signature
(so the engine compiles once for every policy and numba's disk cache works):

**beg** (the eldest, once a hand or ``begs`` times by agreement, Sections 87-96 §93 v, law ii) and
**answer** (the dealer, when the eldest has begged) and **discard** (only with ``discard_to_six``: a card thrown out
after the cards were run) take ``HAND_SIG``::

    @njit(HAND_SIG, cache=True)
    def my_beg(hand, state, rules, rng, params):
        # hand:   int64[cards dealt], the cards held (six, three more for each run); -1 once played or
        #         thrown out
        # state:  int64[S_SIZE], the situation (S_* indices below)
        # rules:  int64[R_SIZE], Rules.to_kernel() (R_* indices in sims.allfours.rules)
        # rng:    uint64[4], this seat's own random stream (sims.core.rng.uniform / randint)
        # params: float64[:], this policy's parameters (empty if it takes none)
        return BEG       # beg: BEG or STAND; answer: GIVE ("take one") or RUN; discard: an index into hand

**play** (the card to play, law iii) takes ``PLAY_SIG``::

    @njit(PLAY_SIG, cache=True)
    def my_play(hand, played, state, rules, rng, params):
        # played: int64[2, :], the cards played this hand in order: played[P_CARD, k] the card,
        #         played[P_ROLE, k] the role of its player; columns :state[S_N_PLAYED] are valid and
        #         the current trick began at column state[S_TRICK_START]
        return i         # index into hand of a legal card (legal_mask)

Every array but ``rng`` is read-only: numba refuses to compile a policy that writes into one.
A player with only one card he may play plays it without being asked.  A player sees his
own cards, the card(s) turned up, every card played and by whom, the scores, and (with
``discard_to_six``) his own discards; never another's hand.
The engine checks every answer and stops with a PolicyError naming the policy, the
seat and the situation when one is illegal.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..core.kernel import njit
from ..core.kernel_types import F64_1R, I64_1R, I64_2R, U64_1
from ..core.masks import bit
from .cards import ALL_CARDS, beats


HAND_SIG = types.int64(I64_1R, I64_1R, I64_1R, U64_1, F64_1R)  # read-only but the random stream
PLAY_SIG = types.int64(I64_1R, I64_2R, I64_1R, I64_1R, U64_1, F64_1R)
HandFn = types.FunctionType(HAND_SIG)
PlayFn = types.FunctionType(PLAY_SIG)

D_BEG, D_ANSWER, D_PLAY, D_DISCARD = range(4)  # the decisions, in the order of game.GAME.decisions
N_DECISIONS = 4
STAND, BEG = 0, 1  # the eldest's beg
RUN, GIVE = 0, 1  # the dealer's answer: run the cards, or give one ("take one")

P_CARD, P_ROLE = 0, 1  # rows of ``played``

# What a policy sees: indices into ``state``.
S_SEAT = 0  # this player's seat (0 .. players-1)
S_ROLE = 1  # place from the dealer: 0 dealer, 1 eldest, 2 the dealer's partner, 3 the eldest's
S_DEALER = 2  # the dealer's seat
S_PLAYERS = 3  # players at the table
S_TRUMP = 4  # the trump suit (0 clubs, 1 diamonds, 2 hearts, 3 spades)
S_TURNED = 5  # the card turned up for trump (the last one turned, when the cards were run)
S_TURNED_MASK = 6  # 52-bit mask of every card turned up this hand (seen by all, out of play)
S_BEGGED = 7  # times the eldest begged this deal (1 at most but by agreement, law ii)
S_RUNS = 8  # times the cards have been run this hand
S_MY_SCORE = 9  # my side's score, kept up to date during the hand
S_OPP_SCORE = 10  # the other side's score
S_TARGET = 11  # points that win
S_N_PLAYED = 12  # cards played this hand
S_TRICK_START = 13  # column of ``played`` where the current trick began
S_LEAD_SUIT = 14  # the suit led to the current trick, -1 when I lead
S_HELD = 15  # cards dealt to each player, runs included (in the play: held when it began)
S_DISCARDED = 16  # 52-bit mask of my own discards (discard_to_six)
S_SIZE = 17

EMPTY_PARAMS = np.zeros(0, dtype=np.float64)


@njit(cache=True, inline="always")
def legal_mask(hand, lead_suit, trump, may_trump):
    """Law iii, as a mask (bit i: ``hand[i]`` may be played): the leader plays any card; a player holding
    the suit led follows it or (``may_trump``) trumps; a player void in it plays any card."""
    held, follow, trumps = np.int64(0), np.int64(0), np.int64(0)
    for i in range(hand.shape[0]):
        c = hand[i]
        if c >= 0:
            b = np.int64(1) << i
            held |= b
            if c & 3 == lead_suit:
                follow |= b
            if c & 3 == trump:
                trumps |= b
    if lead_suit < 0 or follow == 0:
        return held
    return follow | trumps if may_trump else follow


@njit(cache=True, inline="always")
def is_choice(answer):
    """A beg (STAND/BEG) or an answer (RUN/GIVE) is 0 or 1."""
    return answer == 0 or answer == 1


@njit(cache=True, inline="always")
def is_held(hand, i):
    return 0 <= i < hand.shape[0] and hand[i] >= 0


@njit(cache=True, inline="always")
def trick_best(played, state, trump):
    """The card winning the current trick so far and its player's role; (-1, -1) when I lead."""
    best, role = -1, -1
    for k in range(state[S_TRICK_START], state[S_N_PLAYED]):
        card = played[P_CARD, k]
        if best < 0 or beats(card, best, trump):
            best, role = card, played[P_ROLE, k]
    return best, role


@njit(cache=True, inline="always")
def unseen_cards(hand, played, state):
    """The 52-bit mask of cards this player has not seen: not his, not played, not turned up, not his
    discards.  They are in the other hands or still in the pack."""
    seen = state[S_TURNED_MASK] | state[S_DISCARDED]
    for c in hand:
        if c >= 0:
            seen |= bit(c)
    for k in range(state[S_N_PLAYED]):
        seen |= bit(played[P_CARD, k])
    return ALL_CARDS & ~seen
