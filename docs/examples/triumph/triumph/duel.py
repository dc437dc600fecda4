"""Triumph at the terminal (:mod:`sims.core.duel`): the hand, the card turned up and the trick in play."""

from sims.cards import format_card, format_cards, parse_card
from sims.core.duel import View as CoreView
from sims.core.duel import side_result

from .reference import taker


class View(CoreView):
    game = "triumph"
    values = {"card": "value: the tricks you take from here to the end of the deal"}

    def show(self, s) -> list[str]:
        laid = ", ".join(
            f"{format_card(c)} ({self.names((s.leader + k) % s.rules.players)})" for k, c in enumerate(s.trick)
        )
        return [
            f"you hold {format_cards(c for c in s.cards if c >= 0)}; {s.turned} turned up for trumps",
            f"the trick: {laid or 'yours to lead'}",
        ]

    def told(self, s, choice: str) -> list[str]:
        trick = [*s.trick, parse_card(choice)]
        took = (
            f": the trick to {self.names((s.leader + taker(trick, s.trump)) % s.rules.players)}"
            if len(trick) == s.rules.players
            else ""
        )
        return [f"{self.does(s.seat, 'plays')} {choice}{took}"]

    def strongest(self, rules) -> dict:
        return {"card": "greedy"}

    def result(self, row, rules, seat: int) -> dict:
        tricks = [int(row[f"tricks_{s}"]) for s in range(rules.players)]
        return side_result(self, rules.players, lambda s: s, tricks, int(row["winner"]))
