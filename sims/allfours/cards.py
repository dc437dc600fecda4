"""Cards at All Fours: whist ranking, the counting cards for game, and who wins a trick.

Card ids are shared (:mod:`sims.cards`: ``rank * 4 + suit``, rank 0 = ace ... 12 = king).
"The cards rank the same as at whist" (Sections 87-96 §91): ace high, then K Q J 10 ... 2,
so the *whist rank* is 0 for a deuce ... 12 for an ace.  For game a player reckons
"four for an ace, three for a king, two for a queen, one for a knave, ten for a ten"
(§93 iv); the other cards count nothing.
"""

from __future__ import annotations

import numpy as np

from ..core.kernel import njit

ACE, TEN, KNAVE, QUEEN, KING = 0, 9, 10, 11, 12  # ranks in the shared ids
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

# Points for game by shared rank id: A 4, 10 10, J 1, Q 2, K 3 (Sections 87-96 §93 iv).
GAME_POINTS = np.array([4, 0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3], dtype=np.int64)
ALL_CARDS = (1 << 52) - 1


@njit(cache=True, inline="always")
def whist_rank(card):
    """0 for a deuce ... 11 for a king, 12 for an ace."""
    return ((card >> 2) + 12) % 13


# The cut for deal: the highest card deals, ranking as at whist (§91), so the lowest in this order.
CUT_ORDER = np.array([12 - whist_rank.py_func(card) for card in range(52)], dtype=np.int64)


@njit(cache=True, inline="always")
def suit(card):
    return card & 3


@njit(cache=True, inline="always")
def game_points(card):
    """What a card reckons for game (Sections 87-96 §93 iv)."""
    return GAME_POINTS[card >> 2]


@njit(cache=True, inline="always")
def knave_of(trump):
    """The knave of trumps, whose winner scores Jack."""
    return KNAVE * 4 + trump


@njit(cache=True, inline="always")
def beats(card, best, trump):
    """``card`` takes the trick from ``best`` (the card winning it so far, of the suit led or a trump):
    the highest trump wins, else the highest card of the suit led."""
    if card & 3 == best & 3:
        return whist_rank(card) > whist_rank(best)
    return card & 3 == trump


@njit(cache=True, inline="always")
def suit_mask(trump_or_suit):
    """The 52-bit mask of one suit's cards (ids ``rank * 4 + suit``)."""
    return np.int64(0x1111111111111) << trump_or_suit
