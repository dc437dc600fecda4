"""The play (pegging): what the card just laid scores (Mottoes "Fifteens", "Sequences").

The count never passes 31.  Fifteen 2 and thirty-one 2; a pair 2, pair-royal
6, double pair-royal 12 (consecutive cards of one rank); a run of ``n >= 3``
formed by the last ``n`` cards in any order scores ``n`` ("it is of no
consequence which card is thrown down first": ace, five, three, two, four
counts five); in the Bath game (Rules of Cribbage, rule 11) three or more cards of one
suit laid in unbroken succession score their number.  The go / end hole is
scored by the engine, which knows when nobody can play.
"""

from __future__ import annotations

import numpy as np

from ..cards import parse_cards
from ..core.kernel import njit, read_only

MAX_COUNT = 31


@njit(cache=True, inline="always")
def card_value(card):
    """Pip value: ace 1, court cards 10."""
    return min((card >> 2) + 1, 10)


@njit(cache=True, reads=("seq",))
def peg_points_kernel(seq, start, end, bath):
    """Points for the last card of ``seq[start:end]``, the cards of the current count in order."""
    return points_if_laid(seq, start, end - 1, seq[end - 1], bath)


@njit(cache=True, inline="always")
def points_if_laid(seq, start, end, card, bath):
    """Points for laying ``card`` on ``seq[start:end]``, the cards of the current count in order: fifteen and
    thirty-one two, pairs by the cards of a rank laid together, a run of three or more ranks in any order
    (a pair among them breaks it), and with ``bath`` a flush of three or more.  ``seq`` is only read (a
    policy sees the cards played read-only and weighs a candidate card without laying it)."""
    count = card_value(card)
    for i in range(start, end):
        count += card_value(seq[i])
    return count_points(count) + pattern_points(seq, start, end, card, bath)


@njit(cache=True, inline="always")
def count_points(count):
    """Fifteen and thirty-one: two each."""
    return 2 if count == 15 or count == MAX_COUNT else 0


@njit(cache=True, inline="always")
def pattern_points(seq, start, end, card, bath):
    """What laying ``card`` on ``seq[start:end]`` scores by pairs, runs and (``bath``) flushes.

    One pass back from the card: the run is the longest stretch of last cards whose ranks are distinct and
    consecutive; it cannot reach past a rank seen twice, and a pair with the card rules it out.
    """
    n = end - start + 1
    rank = card >> 2
    same = 1
    while same < n and seq[end - same] >> 2 == rank:
        same += 1
    points = same * (same - 1)
    if same == 1:
        seen, lo, hi, run = 1 << rank, rank, rank, 0
        for j in range(2, n + 1):  # the last j cards: seq[end - j + 1 .. end - 1] and the card
            r = seq[end - j + 1] >> 2
            if (seen >> r) & 1:
                break
            seen |= 1 << r
            lo, hi = min(lo, r), max(hi, r)
            if j >= 3 and hi - lo == j - 1:
                run = j
        points += run
    if bath:
        flush = 1
        while flush < n and seq[end - flush] & 3 == card & 3:
            flush += 1
        if flush >= 3:
            points += flush
    return points


def peg_points(cards_in_current_count, bath: bool = False) -> int:
    """What the last card laid scores, given the cards of the current count in order.

    >>> peg_points("AS 5H 3D 2C 4S")   # Mottoes: he counts five for the sequence (+2 for fifteen)
    7
    """
    cards = parse_cards(cards_in_current_count)
    if not cards:
        raise ValueError("no cards laid in the current count")
    arr = np.asarray(cards, dtype=np.int64)
    count = int(sum(min((c >> 2) + 1, 10) for c in cards))
    if count > MAX_COUNT:
        raise ValueError(f"the count would be {count}, past thirty-one")
    return int(peg_points_kernel(read_only(arr), 0, len(cards), bool(bath)))
