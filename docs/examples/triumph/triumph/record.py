"""Triumph's decision as a situation, and its part of game records and of the table (:mod:`sims.core.record`,
:mod:`sims.core.table`): a record line holds the fields of :class:`CardSituation`, e.g.
``{"player": 1, "decision": "card", "hand": "AH - 2C 9D -", "turned": "7S", "played": "KH 3H JC QC 4H",
"seat": 1, "choice": "9D"}``."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sims.cards import format_card, format_cards, parse_card, parse_cards
from sims.core.driver import item_streams
from sims.core.record import paired_grade, situation_fields

from . import reference
from .game import GAME
from .rules import S_SEAT, S_TURNED, get_rules

EXAMPLE = Path(__file__).parent / "data" / "example-record.jsonl"    # one game of sims play --record


@dataclass(frozen=True)
class CardSituation:
    """The card to play: ``hand`` the cards held in the order dealt (``-`` where one was played), ``turned`` the
    card turned up for trumps, ``played`` this deal's cards so far in order, ``seat`` the player's."""

    hand: str
    turned: str
    played: str = ""
    seat: int = 0
    rules: object = None

    DECISION = "card"

    def __post_init__(self):
        rules = get_rules(self.rules)
        cards = [-1 if c == "-" else parse_card(c) for c in str(self.hand).split()]
        played, held, n = parse_cards(self.played) if self.played else [], [c for c in cards if c >= 0], rules.cards
        seen = [*held, *played, parse_card(self.turned)]
        if len(set(seen)) < len(seen):
            raise ValueError(f"a card is given twice: {format_cards(seen)}")
        if not 0 <= self.seat < rules.players:
            raise ValueError(f"seat must be 0..{rules.players - 1}, got {self.seat}")
        if len(cards) > n or len(held) != n - len(played) // rules.players:
            raise ValueError(f"after {len(played) // rules.players} tricks of {n} a player holds "
                             f"{n - len(played) // rules.players} cards, not {len(held)}")
        trick, trump = played[len(played) - len(played) % rules.players:], seen[-1] % 4
        for name, value in dict(rules=rules, cards=cards, played_cards=played, trick=trick, trump=trump,
                                leader=(self.seat - len(trick)) % rules.players,
                                led=trick[0] % 4 if trick else None,
                                best=trick[reference.taker(trick, trump)] if trick else None).items():
            object.__setattr__(self, name, value)

    def legal(self) -> tuple:
        """The cards he may play: the suit led if he holds it, else any card."""
        held = [c for c in self.cards if c >= 0]
        return tuple(c for c in held if c % 4 == self.led) or tuple(held)

    def answer(self, choice: str, hand=None) -> int:
        if parse_card(choice) not in self.legal():
            raise ValueError(f"{choice} cannot be played: the legal cards are {format_cards(self.legal())}")
        return self.cards.index(parse_card(choice))

    def choice_of(self, answer: int, hand=None) -> str:
        if not 0 <= answer < len(self.cards) or self.cards[answer] not in self.legal():
            raise ValueError(f"index {answer} is no legal card: the legal cards are {format_cards(self.legal())}")
        return format_card(self.cards[answer])


SITUATIONS = {"card": CardSituation}


def situation(decision: str, hand, played, state, rules, earlier=()) -> CardSituation:
    """An engine decision's situation: this deal's cards so far are the choices of ``earlier`` (the game's
    decisions before it) since the deal began (each deal before it had every card played)."""
    this_deal = earlier[len(earlier) - len(earlier) % (rules.players * rules.cards):]
    return CardSituation(" ".join("-" if c < 0 else format_card(c) for c in hand), format_card(state[S_TURNED]),
                         " ".join(d.choice for d in this_deal), int(state[S_SEAT]), rules)


def fields(situation) -> dict:
    return situation_fields(situation, {})


def play_game(rules, fns: dict, seed: int, item: int) -> dict:
    """Game ``item`` of the run ``seed`` by the reference engine on the kernel's streams, seat s's cards chosen by
    ``fns["card"][s]`` called as the kernel calls a policy: who dealt first, who won, each seat's tricks."""
    deck_rng, seat_rngs = item_streams(GAME, seed, item)

    def choose(seat, hand, trump, led, best, turned):
        state = np.array([trump, -1 if led is None else led, -1 if best is None else best, seat, turned])
        return fns["card"][seat](np.array([-1 if c is None else c for c in hand]), state, rules.to_kernel(),
                                 seat_rngs[seat], np.zeros(0))

    tally = reference.play_game(rules, item, deck_rng, choose)
    return {"first_dealer": item % rules.players, "winner": next(s for s, t in enumerate(tally) if t[2]),
            **{f"tricks_{s}": t[0] for s, t in enumerate(tally)}}


def grade(situation, choice: str, samples: int, seed: int, playout=None) -> dict:
    """``choice`` against the advisor (:func:`triumph.advice.advise`), in tricks, paired over the same deals."""
    from .advice import advise      # which imports this module

    return paired_grade(advise(situation, playout, samples, seed), "choice", choice)
