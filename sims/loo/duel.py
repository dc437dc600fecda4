"""Loo at the terminal (:mod:`sims.core.duel`): the declarations, the exchange and the play as a player at the
table sees them.

A decision shows the deal of the session, who deals, what the pool holds (and what was carried
over into it, or that the deal is a single: everyone plays), the trump card, what each player
before me declared and how many cards each stander changed (five-card), the tricks played with
who took each (:meth:`sims.loo.reference.Laws.winning`: Pam, then trumps, then the suit led) and
the trick being played.  Another player's declaration, the number of cards he changed (not which)
and his card are told as the table sees them.
"""
from __future__ import annotations

from ..cards import format_card, parse_card
from ..core.duel import View as CoreView
from .contract import MISS, PASS, PLAY

SAID = {"pass": "passes", "play": "stands", "take the miss": "takes the miss"}
DECLARED = {PASS: "passed", PLAY: "stood", MISS: "took the miss"}


class View(CoreView):
    game = "loo"
    aliases = {"miss": "take the miss", "none": "-", "keep": "-", "nothing": "-", "stand": "play"}
    values = {d: "value: your money from this deal: what you take from the pool less what you pay if looed"
              for d in ("declare", "exchange", "card")}

    def __init__(self, names):
        super().__init__(names)
        self.number = 0
        self.deal = None            # the trump card and the dealer of the deal being played
        self.told_cards = 0         # cards of this deal told or shown (a card the laws force is played unasked)

    def show(self, situation) -> list[str]:
        lines = self._begin(situation, telling=False)
        rules = situation.rules
        dealer = self.does(situation.dealer, "deals")
        pool = "a single: nothing carried over, everyone plays" if situation.single else \
            f"{situation.carry} carried over"
        lines += [f"deal {self.number} of {rules.session_deals}: {dealer}; the pool holds {situation.pool} ({pool}); "
                  f"a loo costs {situation.loo}",
                  f"trump: {format_card(situation.trump)}"]
        declared = [f"{self.names(self.seat_of(situation, r))} {DECLARED[d]}"
                    for r, d in zip(_in_turn(situation), situation.declared)]
        if declared and not situation.single:
            lines.append(f"declared: {', '.join(declared)}"
                         + ("; the miss lies untaken" if situation.DECISION == "declare" and "take the miss"
                            in situation.legal() else ""))
        if any(situation.exchanged):
            lines.append("changed: " + ", ".join(f"{self.names(self.seat_of(situation, r))} {x}"
                                                 for r, x in zip(situation.standers, situation.exchanged)))
        hand = f"your cards: {' '.join(format_card(c) for c in situation.hand if c >= 0)}"
        if situation.DECISION == "declare":
            return lines + [hand, "your declaration:"]
        if situation.DECISION == "exchange":
            return lines + [hand, "the cards to change for cards from the pack (- none):"]
        seats = [self.seat_of(situation, r) for r in situation.laid_by]
        lines += self.tricks(situation.played, seats, len(situation.standers),
                             lambda cards: situation.laws.winning(cards)[0])
        self.told_cards = len(situation.played)
        return lines + [hand, "play a card:"]

    def told(self, situation, choice: str) -> list[str]:
        lines = self._begin(situation, telling=True)
        if situation.DECISION == "declare":
            verb, _, rest = SAID[choice].partition(" ")
            return lines + [f"{self.does(situation.seat, verb)}{' ' + rest if rest else ''}"]
        if situation.DECISION == "exchange":
            n = 0 if choice == "-" else len(choice.split())
            what = choice if self.names(situation.seat) == "you" and n else f"{n} card{'s' * (n != 1)}"
            return lines + [f"{self.does(situation.seat, 'changes')} {what}"]
        cards = list(situation.played) + [parse_card(choice)]
        seats = [self.seat_of(situation, r) for r in situation.laid_by + (situation.role,)]
        lines += self.plays(cards, seats, len(situation.standers), lambda trick: situation.laws.winning(trick)[0],
                            self.told_cards)
        self.told_cards = len(cards)
        return lines

    def strongest(self, rules) -> dict:
        return {"declare": "expert", "exchange": "expert", "card": "expert"}

    def result(self, row, rules, seat: int) -> dict:
        """The session's money: each seat's winnings less its stakes and looes; the most won wins."""
        money = [int(row[f"money_{s}"]) for s in range(rules.players)]
        top = [s for s, m in enumerate(money) if m == max(money)]
        lines = ["the session is over: " + ", ".join(f"{self.names(s)} {m:+d}" for s, m in enumerate(money)),
                 f"{self.does(top[0], 'wins')} the most" if len(top) == 1 else
                 f"{' and '.join(self.names(s) for s in top)} tie for the most ({max(money):+d})"]
        return {"winner": self.names(top[0]) if len(top) == 1 else None,
                "scores": {self.names(s): m for s, m in enumerate(money)}, "lines": lines}

    def _begin(self, situation, telling: bool) -> list[str]:
        """Count the deals (a new one has another trump card, or another dealer); at a new one say what the last
        one left in the pool, and, ``telling`` another player's decision, which deal this is."""
        deal = (situation.trump, situation.dealer)
        if deal == self.deal:
            return []
        self.number += 1
        self.deal, self.told_cards = deal, 0
        lines = [] if self.number == 1 else \
            [f"deal {self.number - 1} is over: " + (f"the looes carry {situation.carry} into the next pool"
                                                    if situation.carry else "nobody was looed")]
        if telling:
            lines.append(f"deal {self.number} of {situation.rules.session_deals}: "
                         f"{self.does(situation.dealer, 'deals')}; trump {format_card(situation.trump)}")
        return lines



def _in_turn(situation) -> list[int]:
    """The roles in the order they declare: from the dealer's left round to the dealer."""
    n = situation.rules.players
    return [t % n for t in range(1, n + 1)]
