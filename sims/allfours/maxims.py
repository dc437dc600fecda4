"""The four "Maxims for All-Fours" (Sections 87-96 §94, Mottoes) as advice a kernel can compute.

Each maxim, given what a player sees (:mod:`sims.allfours.contract`), returns the bit mask
of the positions in his hand it advises; 0 when it has nothing to say.  The ``maxims``
play policy follows them; the engine's agreement tally asks how often another policy
(the expert) plays a card a maxim advises.

i.   "Make your knave as soon as you can": the knave of trumps, as soon as playing it makes
     the trick surely his side's.
ii.  "Secure your tens by playing any small cards, by which you may throw the lead into your
     adversary's hand": holding a ten when he leads, a small card (not a trump, not a counting
     card); following, a ten that makes the trick surely his side's.
iii. "Win your adversary's best cards when you can, either by trumping or with superior
     cards": when an adversary's counting card (A K Q J 10) is winning the trick, any card
     that takes it, trumps included.
iv.  "If, being eldest hand, you hold either ace, king, or queen of trumps, without the knave
     or ten, play them immediately": the eldest, leading, plays his highest of them while the
     knave or ten of trumps is still out.

"Surely": the trick is won by his side whatever the players after him hold, that is he is
the last to play, or no card he has not seen can beat the card winning it.
"""

from __future__ import annotations

import numpy as np

from ..core.kernel import njit
from ..core.masks import bit
from .cards import ACE, KING, QUEEN, TEN, beats, game_points, knave_of, suit_mask, whist_rank
from .contract import (
    P_CARD,
    P_ROLE,
    S_LEAD_SUIT,
    S_N_PLAYED,
    S_PLAYERS,
    S_ROLE,
    S_TRICK_START,
    S_TRUMP,
    legal_mask,
    trick_best,
    unseen_cards,
)
from .rules import R_MAY_TRUMP

MAXIMS = ("i knave", "ii tens", "iii best cards", "iv eldest trumps")
N_MAXIMS = len(MAXIMS)
M_KNAVE, M_TENS, M_BEST_CARDS, M_ELDEST_TRUMPS = range(N_MAXIMS)


# By card id, the cards of its suit that rank above it (a 52-bit mask): those that take a trick from it but trumps.
HIGHER = np.array(
    [
        sum(1 << (r * 4 + (c & 3)) for r in range(13) if whist_rank.py_func(r * 4 + (c & 3)) > whist_rank.py_func(c))
        for c in range(52)
    ],
    dtype=np.int64,
)


@njit(cache=True, inline="always")
def higher_unseen(card, trump, unseen):
    """Some card not yet seen beats ``card`` when it is winning a trick: a higher card of its suit, or
    (``card`` not a trump) any trump."""
    if card & 3 != trump and unseen & suit_mask(trump):
        return True
    return unseen & HIGHER[card] != 0


@njit(cache=True, inline="always")
def surely_ours(card, state, unseen, best, role):
    """Playing ``card`` now makes the current trick surely won by my side (``best``, ``role``: the card winning
    it so far and its player's role, -1 when I lead)."""
    trump = state[S_TRUMP]
    me = state[S_ROLE]
    if best < 0 or beats(card, best, trump):
        best, role = card, me
    if (role - me) % 2 != 0:
        return False
    later = state[S_PLAYERS] - 1 - (state[S_N_PLAYED] - state[S_TRICK_START])
    return later == 0 or not higher_unseen(best, trump, unseen)


@njit(cache=True, inline="always")
def _holds_rank(hand, rank):
    for c in hand:
        if c >= 0 and c >> 2 == rank:
            return True
    return False


@njit(cache=True, inline="always")
def knave_advice(hand, state, legal, unseen, best, role):
    """Maxim i: the knave of trumps when it surely makes."""
    jack = knave_of(state[S_TRUMP])
    for i in range(hand.shape[0]):
        if hand[i] == jack:
            if (legal >> i) & 1 and surely_ours(jack, state, unseen, best, role):
                return np.int64(1) << i
    return np.int64(0)


@njit(cache=True, inline="always")
def tens_advice(hand, state, legal, unseen, best, role):
    """Maxim ii: leading with a ten in hand, a small card; following, a ten that surely makes."""
    trump = state[S_TRUMP]
    if not _holds_rank(hand, TEN):
        return np.int64(0)
    leading = state[S_LEAD_SUIT] < 0
    tens, small = np.int64(0), np.int64(0)
    for i in range(hand.shape[0]):
        c = hand[i]
        if c < 0 or not (legal >> i) & 1:
            continue
        if c >> 2 == TEN:
            if not leading and surely_ours(c, state, unseen, best, role):
                tens |= np.int64(1) << i
        elif c & 3 != trump and game_points(c) == 0:
            small |= np.int64(1) << i
    return small if leading else tens


@njit(cache=True, inline="always")
def best_cards_advice(hand, played, state, legal, best, role):
    """Maxim iii: when an adversary's counting card is winning the trick, the cards that take it."""
    trump = state[S_TRUMP]
    if state[S_LEAD_SUIT] < 0:
        return np.int64(0)
    if (role - state[S_ROLE]) % 2 == 0:
        return np.int64(0)
    counting = False
    for k in range(state[S_TRICK_START], state[S_N_PLAYED]):
        if (played[P_ROLE, k] - state[S_ROLE]) % 2 != 0 and game_points(played[P_CARD, k]) > 0:
            counting = True
    if not counting:
        return np.int64(0)
    mask = np.int64(0)
    for i in range(hand.shape[0]):
        if (legal >> i) & 1 and beats(hand[i], best, trump):
            mask |= np.int64(1) << i
    return mask


@njit(cache=True, inline="always")
def eldest_trumps_advice(hand, state, unseen):
    """Maxim iv: the eldest, leading with A, K or Q of trumps but not the knave or ten, plays the highest
    of them while the knave or ten of trumps is still out."""
    trump = state[S_TRUMP]
    if state[S_ROLE] != 1 or state[S_LEAD_SUIT] >= 0:
        return np.int64(0)
    knave, ten = knave_of(trump), TEN * 4 + trump
    best = -1
    for i in range(hand.shape[0]):
        c = hand[i]
        if c == knave or c == ten:
            return np.int64(0)  # "without the knave or ten"
        if c >= 0 and c & 3 == trump and (c >> 2 == ACE or c >> 2 == KING or c >> 2 == QUEEN):
            if best < 0 or whist_rank(c) > whist_rank(hand[best]):
                best = i
    if best < 0 or not unseen & (bit(knave) | bit(ten)):
        return np.int64(0)  # no honour, or nothing left to catch
    return np.int64(1) << best


@njit(cache=True, inline="always")
def situation(hand, played, state, rules):
    """What every maxim looks at, worked out once: the legal cards (a mask of positions in ``hand``), the cards
    not seen (:func:`unseen_cards`), and the card winning the trick so far with its player's role
    (:func:`trick_best`)."""
    legal = legal_mask(hand, state[S_LEAD_SUIT], state[S_TRUMP], rules[R_MAY_TRUMP] != 0)
    best, role = trick_best(played, state, state[S_TRUMP])
    return legal, unseen_cards(hand, played, state), best, role


@njit(cache=True, refcounts=False, reads=("hand", "played", "state"))
def advise(k, hand, played, state, legal, unseen, best, role):
    """The mask maxim ``k`` (``M_*``) advises, given the :func:`situation`."""
    if k == M_KNAVE:
        return knave_advice(hand, state, legal, unseen, best, role)
    if k == M_TENS:
        return tens_advice(hand, state, legal, unseen, best, role)
    if k == M_BEST_CARDS:
        return best_cards_advice(hand, played, state, legal, best, role)
    return eldest_trumps_advice(hand, state, unseen)


@njit(cache=True, refcounts=False)
def advice(k, hand, played, state, rules):
    """The mask maxim ``k`` (``M_*``) advises."""
    legal, unseen, best, role = situation(hand, played, state, rules)
    return advise(k, hand, played, state, legal, unseen, best, role)
