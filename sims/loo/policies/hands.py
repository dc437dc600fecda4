"""What a Loo hand is worth at a glance: each card's category, a weighted strength, and hand classes.

A card's category depends on the trump and on Pam: Pam; a high trump (ace,
king); a middle trump (queen, knave, ten); a low trump; a plain ace; a plain
king; any other plain card.  :func:`strength` weighs the categories (the
``threshold`` policies); :func:`hand_class` numbers the hands by their
categories for the ``expert`` tables:

* three-card: the multiset of the three cards' categories (no Pam): 56 classes,
  and class 56 for the miss (a hand not seen);
* five-card: Pam or not, high trumps 0-2, other trumps 0-3 (3 meaning 3 or more),
  plain aces 0-2 (2 or more): 72 classes.
"""

from __future__ import annotations

import numpy as np

from ...core.kernel import njit
from ..tricks import rank_order

CATEGORIES = ("pam", "trump_high", "trump_mid", "trump_low", "plain_ace", "plain_king", "plain_low")
C_PAM, C_TRUMP_HIGH, C_TRUMP_MID, C_TRUMP_LOW, C_PLAIN_ACE, C_PLAIN_KING, C_PLAIN_LOW = range(7)
N_CATEGORIES = len(CATEGORIES)
THREE_CARD_CATEGORIES = 6  # no Pam: categories 1..6
THREE_CARD_CLASSES = 56  # multisets of 3 from 6
MISS_CLASS = THREE_CARD_CLASSES  # the miss, unseen
FIVE_CARD_CLASSES = 2 * 3 * 4 * 3


@njit(cache=True, inline="always")
def category(card, trump_suit, pam):
    """The category (``C_*``) of ``card`` when ``trump_suit`` is trumps and ``pam`` is Pam (-1: none)."""
    if card == pam:
        return C_PAM
    order = rank_order(card)
    if card & 3 == trump_suit:
        if order >= 11:
            return C_TRUMP_HIGH
        return C_TRUMP_MID if order >= 8 else C_TRUMP_LOW
    if order == 12:
        return C_PLAIN_ACE
    return C_PLAIN_KING if order == 11 else C_PLAIN_LOW


@njit(cache=True, refcounts=False)
def strength(hand, trump_suit, pam, weights):
    """The sum of ``weights[category]`` over the cards held (weights of the first six categories; plain low
    cards count 0)."""
    total = 0.0
    for card in hand:
        if card >= 0:
            c = category(card, trump_suit, pam)
            if c < C_PLAIN_LOW:
                total += weights[c]
    return total


def _multiset_index() -> np.ndarray:
    """index[a, b, c] for categories 1 <= a <= b <= c <= 6 (sorted), numbered in lexicographic order."""
    index = np.full((N_CATEGORIES,) * 3, -1, dtype=np.int64)
    k = 0
    for a in range(1, N_CATEGORIES):
        for b in range(a, N_CATEGORIES):
            for c in range(b, N_CATEGORIES):
                index[a, b, c] = k
                k += 1
    assert k == THREE_CARD_CLASSES
    return index


THREE_CARD_INDEX = _multiset_index()


@njit(cache=True, reads=("hand",))
def hand_class(hand, trump_suit, pam):
    """The class of a hand as dealt (module docstring)."""
    if hand.shape[0] == 3:
        a = category(hand[0], trump_suit, pam)
        b = category(hand[1], trump_suit, pam)
        c = category(hand[2], trump_suit, pam)
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        return THREE_CARD_INDEX[a, b, c]
    has_pam, high, other, aces = 0, 0, 0, 0
    for card in hand:
        cat = category(card, trump_suit, pam)
        if cat == C_PAM:
            has_pam = 1
        elif cat == C_TRUMP_HIGH:
            high += 1
        elif cat == C_TRUMP_MID or cat == C_TRUMP_LOW:
            other += 1
        elif cat == C_PLAIN_ACE:
            aces += 1
    return ((has_pam * 3 + high) * 4 + min(other, 3)) * 3 + min(aces, 2)
