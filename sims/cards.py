"""Cards: ids, parsing and formatting, shared by every game.

A card id is ``rank * 4 + suit`` with rank 0 = ace ... 12 = king and suit
0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades.  ``rank = id >> 2``,
``suit = id & 3``.  Pretty strings exist only at the Python edge; kernels see
plain int64 arrays, and sets of cards as int64 bit masks (:mod:`sims.core.masks`).  This module imports no
other module of sims: everything stands on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
RANK_WORDS = {"10": "T", "1": "A"}
N_CARDS = 52

_TOKEN = re.compile(r"[\s,]+")
# What a situation accepts for a card and for cards: an id 0..51 or a name ("10H", "TH"); a string of names
# ("7H 8C 5D" or "7H,8C,5D") or a sequence of ids and names (parse_cards)
Card = int | str
Cards = str | Iterable[int | str]


def rank_of(card: int) -> int:
    """Rank 0 (ace) ... 12 (king)."""
    return int(card) >> 2


def suit_of(card: int) -> int:
    """Suit 0..3 = clubs, diamonds, hearts, spades."""
    return int(card) & 3


def value_of(card: int) -> int:
    """Pip value for counting: ace 1, court cards 10."""
    return min(rank_of(card) + 1, 10)


def parse_card(token: str) -> int:
    """Parse one card such as ``5H``, ``10h``, ``TH``, ``5♥`` or ``as``."""
    text = str(token).strip()
    if len(text) < 2:
        raise ValueError(f"bad card {token!r}: expected rank then suit, e.g. 5H")
    rank_text, suit_text = text[:-1].upper(), text[-1]
    suit_text = SUIT_SYMBOLS.get(suit_text, suit_text.upper())
    rank_text = RANK_WORDS.get(rank_text, rank_text)
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise ValueError(f"bad card {token!r}: unknown rank {text[:-1]!r}")
    if suit_text not in SUITS:
        raise ValueError(f"bad card {token!r}: unknown suit {text[-1]!r}")
    return RANKS.index(rank_text) * 4 + SUITS.index(suit_text)


def parse_cards(cards: str | Iterable, n: int | tuple[int, ...] | None = None) -> list[int]:
    """Parse a space/comma separated string or a list of cards (strings or ids).

    Raises ValueError naming the bad token, a duplicate, or a wrong count
    (``n`` is the allowed count or a tuple of allowed counts).
    """
    tokens = [t for t in _TOKEN.split(cards.strip())] if isinstance(cards, str) else list(cards)
    tokens = [t for t in tokens if not (isinstance(t, str) and t == "")]
    ids = []
    for tok in tokens:
        if isinstance(tok, (int, np.integer)):
            if not 0 <= int(tok) < N_CARDS:
                raise ValueError(f"bad card id {tok!r}: must be 0..51")
            card = int(tok)
        else:
            card = parse_card(tok)
        if card in ids:
            raise ValueError(f"duplicate card {format_card(card)}")
        ids.append(card)
    if n is not None:
        allowed = (n,) if isinstance(n, int) else tuple(n)
        if len(ids) not in allowed:
            want = " or ".join(str(a) for a in allowed)
            raise ValueError(f"expected {want} cards, got {len(ids)}")
    return ids


def format_card(card: int) -> str:
    """``0 -> 'AC'``, ``38 -> '10H'``... uses 10 for ten, as the books write it."""
    rank = RANKS[rank_of(card)]
    return ("10" if rank == "T" else rank) + SUITS[suit_of(card)]


def format_cards(cards: Iterable[int]) -> str:
    """Space separated card strings."""
    return " ".join(format_card(c) for c in cards)


def check_disjoint(*groups: Iterable[int]) -> None:
    """Raise ValueError if any card appears in more than one group."""
    seen: set[int] = set()
    for group in groups:
        for card in group:
            if card in seen:
                raise ValueError(f"duplicate card {format_card(card)}")
            seen.add(card)
