"""Triumph at the terminal (:mod:`sims.core.duel`): the hand, the card turned up and the trick in play."""

from sims.cards import format_card, format_cards, parse_card
from sims.core.duel import View as CoreView
from sims.core.duel import side_result

from .reference import taker


class View(CoreView):
    game = "triumph"

    def show(self, s) -> list[str]:
        laid = [f"{format_card(c)} ({self.names((s.leader + k) % s.rules.players)})" for k, c in enumerate(s.trick)]
        held = format_cards(c for c in s.cards if c >= 0)
        return [f"you hold {held}; {s.turned} turned up for trumps", f"the trick: {', '.join(laid) or 'yours to lead'}"]

    def told(self, s, choice: str) -> list[str]:
        trick = [*s.trick, parse_card(choice)]
        winner = self.names((s.leader + taker(trick, s.trump)) % s.rules.players)
        took = f": the trick to {winner}" if len(trick) == s.rules.players else ""
        return [f"{self.does(s.seat, 'plays')} {choice}{took}"]

    def strongest(self, rules) -> dict:
        return {"card": "greedy"}

    def result(self, row, rules, seat: int) -> dict:
        tricks = [int(row[f"tricks_{s}"]) for s in range(rules.players)]
        return side_result(self, rules.players, lambda s: s, tricks, int(row["winner"]))
