"""Slow, obviously-correct scorers: the test oracle, and the working shown by ``sims score``.

Every combination is enumerated literally from the rule texts (Mottoes):
fifteens are subsets whose pips sum to 15; pairs are two cards of one rank;
a run is a set of three or more cards of distinct consecutive ranks that no
further card of the show extends; flush and nobs as in docs/rules.md.
"""

from __future__ import annotations

from itertools import combinations

JACK = 10


def _rank(card):
    return card >> 2


def _suit(card):
    return card & 3


def _value(card):
    return min(_rank(card) + 1, 10)


def _is_run(cards):
    ranks = sorted(_rank(c) for c in cards)
    return len(set(ranks)) == len(ranks) and ranks[-1] - ranks[0] == len(ranks) - 1


def show_items(hand, starter, crib=False, crib_flush_four=False):
    """Every scoring combination of ``hand`` + ``starter`` as ``(name, cards, points)``."""
    hand = list(hand)
    cards = hand + ([starter] if starter is not None and starter >= 0 else [])
    value = {c: _value(c) for c in cards}  # looked up, not recomputed, in the 2^n subsets below
    rank = {c: _rank(c) for c in cards}
    ranks_present = set(rank.values())
    items = []
    for k in range(2, len(cards) + 1):
        for combo in combinations(cards, k):
            if sum(map(value.get, combo)) == 15:
                items.append(("fifteens", combo, 2))
    for combo in combinations(cards, 2):
        if rank[combo[0]] == rank[combo[1]]:
            items.append(("pairs", combo, 2))
    for k in range(3, len(cards) + 1):
        for combo in combinations(cards, k):
            ranks = sorted(map(rank.get, combo))
            if len(set(ranks)) < k or ranks[-1] - ranks[0] != k - 1:  # not distinct consecutive ranks
                continue
            if ranks[0] - 1 not in ranks_present and ranks[-1] + 1 not in ranks_present:
                items.append(("runs", combo, k))
    if len(hand) >= 3 and len({_suit(c) for c in hand}) == 1:
        with_starter = starter is not None and starter >= 0 and _suit(starter) == _suit(hand[0])
        if with_starter:
            items.append(("flush", tuple(cards), len(cards)))
        elif not crib or crib_flush_four:
            items.append(("flush", tuple(hand), len(hand)))
    if starter is not None and starter >= 0:
        for c in hand:
            if _rank(c) == JACK and _suit(c) == _suit(starter):
                items.append(("nobs", (c,), 1))
    return items


def show_score(hand, starter, crib=False, crib_flush_four=False):
    """Total of :func:`show_items`."""
    return sum(points for _, _, points in show_items(hand, starter, crib, crib_flush_four))


def peg_items(cards, bath=False):
    """What the last card of the current count scores, as ``(name, points)`` items.

    ``cards`` are the cards laid since the count began, in order.
    """
    cards = list(cards)
    count = sum(_value(c) for c in cards)
    if count > 31:
        raise ValueError(f"the count would be {count}, past thirty-one")
    items = []
    if count == 15:
        items.append(("fifteen", 2))
    if count == 31:
        items.append(("thirty-one", 2))
    same = 1
    while same < len(cards) and _rank(cards[-1 - same]) == _rank(cards[-1]):
        same += 1
    if same >= 2:
        items.append(({2: "pair", 3: "pair-royal", 4: "double pair-royal"}[same], same * (same - 1)))
    for k in range(len(cards), 2, -1):
        if _is_run(cards[-k:]):
            items.append((f"run of {k}", k))
            break
    if bath:
        flush = 1
        while flush < len(cards) and _suit(cards[-1 - flush]) == _suit(cards[-1]):
            flush += 1
        if flush >= 3:
            items.append((f"flush of {flush}", flush))
    return items


def peg_score(cards, bath=False):
    """Total of :func:`peg_items`."""
    return sum(points for _, points in peg_items(cards, bath))
