"""Readable choices and the engine's answers, both ways: what every game's situations share.

A policy answers a decision with a number -- an index into the hand it was shown,
a mask of hand positions, or a word's number -- and a player at the table with a
readable choice (``7H``, ``JD KD``, ``stand``, ``-``).  Each situation class has
``answer(choice, hand=None)`` (readable -> the engine's answer, a one-line
ValueError for an illegal or malformed choice) and ``choice_of(answer, hand=None)``
(the inverse); ``hand`` is the hand array the engine showed the policy (default the
situation's own ``to_state().hand``), since the engine keeps a played card's place.
"""

from __future__ import annotations

from ..cards import format_card, format_cards, parse_cards


def _cards(choice, decision: str) -> list[int]:
    if not isinstance(choice, str):
        raise ValueError(f"a {decision} choice is readable cards such as '7H', got {choice!r}")
    try:
        return parse_cards(choice)
    except ValueError as exc:
        raise ValueError(f"{choice!r} is not a {decision} choice: {exc}") from None


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def card_index(choice, hand, allowed, decision: str, rule: str) -> int:
    """The position in ``hand`` of the one card ``choice`` names, which must be one of ``allowed``."""
    cards = _cards(choice, decision)
    if len(cards) != 1:
        raise ValueError(f"a {decision} is one card, got {choice!r}")
    if cards[0] not in allowed:
        raise ValueError(f"{format_card(cards[0])} is not a legal {decision} here: {format_cards(allowed)} ({rule})")
    return [int(c) for c in hand].index(cards[0])


def cards_mask(choice, hand, decision: str, empty: str | None = None) -> int:
    """The mask of the positions in ``hand`` of the cards ``choice`` names (``empty``, if given, names none; a card
    named twice is refused by the parser); each must be held."""
    cards = (
        [] if empty is not None and isinstance(choice, str) and choice.strip() == empty else _cards(choice, decision)
    )
    held = [int(c) for c in hand]
    if not set(cards) <= set(held):
        raise ValueError(
            f"{choice!r} is not {_a(decision)} here: name cards of {format_cards(c for c in held if c >= 0)}"
        )
    return sum(1 << held.index(c) for c in cards)


def cards_of(mask: int, hand) -> str:
    """The cards of ``hand`` at the positions of ``mask``, in hand order."""
    return format_cards(int(c) for i, c in enumerate(hand) if (int(mask) >> i) & 1)


def card_of(answer: int, hand) -> str:
    return format_card(int(hand[int(answer)]))


def word_index(choice, words: dict, legal, decision: str) -> int:
    """The number of the word ``choice`` (case and outer spaces aside) in ``words``; it must name one of the
    ``legal`` words."""
    word = choice.strip().lower() if isinstance(choice, str) else None
    if word not in words or words[word] not in {words[w] for w in legal}:
        raise ValueError(f"a {decision} here is {' or '.join(legal)}, got {choice!r}")
    return words[word]
