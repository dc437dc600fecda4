"""Triumph's one decision, the card to play, as a situation: what a player at the table knows."""

from dataclasses import dataclass, field

from sims.cards import format_cards, parse_card, parse_cards
from sims.core.choices import card_index, card_of

from .game import GAME
from .reference import taker


@dataclass(frozen=True)
class CardSituation:
    """The card to play (each fact's help says what it is; the facts of ``sims advise --game triumph card``);
    ``voids[s]`` the suits seat ``s`` showed he has none of, by not following them."""

    hand: str = field(metadata={"help": "the cards you hold in the order dealt (- where one was played)"})
    turned: str = field(metadata={"help": "the card turned up for trumps", "metavar": "CARD"})
    played: str = field(default="", metadata={"help": "every card played this deal, in order", "metavar": "CARDS"})
    seat: int = field(default=0, metadata={"help": "your seat (the trick's leader is the seat before)"})
    rules: object = None
    DECISION = "card"

    def __post_init__(self):
        rules, played = GAME.get_rules(self.rules), parse_cards(self.played) if self.played else []
        cards = [-1 if c == "-" else parse_card(c) for c in str(self.hand).split()]
        held, tricks, n = [c for c in cards if c >= 0], len(played) // rules.players, rules.cards
        seen = [*held, *played, parse_card(self.turned)]
        if len(set(seen)) < len(seen):
            raise ValueError(f"a card is given twice: {format_cards(seen)}")
        if not 0 <= self.seat < rules.players:
            raise ValueError(f"seat must be 0..{rules.players - 1}, got {self.seat}")
        if len(cards) > n or len(held) != n - tricks:
            raise ValueError(f"after {tricks} tricks of {n} a player holds {n - tricks} cards, not {len(held)}")
        players, trick, trump = rules.players, played[tricks * rules.players :], seen[-1] % 4
        facts = dict(rules=rules, cards=cards, played=format_cards(played), played_cards=played, trick=trick)
        facts.update(trump=trump, leader=(self.seat - len(trick)) % players, led=trick[0] % 4 if trick else None)
        facts.update(best=trick[taker(trick, trump)] if trick else None, voids=[set() for _ in range(players)])
        leader = facts["leader"]
        for t in range(tricks, -1, -1):  # each trick's leader, back from its winner, who led the next
            laid = played[t * players : (t + 1) * players]
            if t < tricks:
                leader = (leader - taker(laid, trump)) % players
            for k, card in enumerate(laid):  # a card not of the suit led: its player has none of that suit
                facts["voids"][(leader + k) % players] |= {laid[0] % 4} - {card % 4}
        for name, value in facts.items():  # what follows from the facts (frozen: set once, here)
            object.__setattr__(self, name, value)

    def legal(self) -> tuple:
        """The cards he may play: the suit led if he holds it, else any card."""
        return tuple(c for c in self.cards if c >= 0 and c % 4 == self.led) or tuple(c for c in self.cards if c >= 0)

    def answer(self, choice: str, hand=None) -> int:
        return card_index(choice, self.cards, self.legal(), "card", "the suit led when you hold it, else any card")

    def choice_of(self, answer: int, hand=None) -> str:
        return card_of(answer, self.cards)
