"""All Fours at the terminal (:mod:`sims.core.duel`): the beg, the answer and the play as a player at the table
sees them.

A decision shows the hand, who deals, the score, every card turned up (the first for trump, then
those turned running the cards, seed 003 §93 v), what the eldest and the dealer said, the tricks
played with who took each (the highest trump, else the highest card of the suit led) and the
trick being played.  Another player's beg, answer and card are told as the table sees them; a
card thrown out after a run (``discard_to_six``) goes face down.
"""
from __future__ import annotations

from ..cards import format_card, format_cards, parse_card
from ..core.duel import View as CoreView, by_side, side_result
from .cards import SUIT_NAMES
from .reference import trick_winner

SAID = {"beg": {"stand": ("stands", ""), "beg": ("begs", "")},
        "answer": {"give": ("gives", " one (a point to the eldest)"), "run": ("runs", " the cards")}}


class View(CoreView):
    game = "allfours"
    values = {d: "value: your side's points less the other side's from here to the end of the hand"
              for d in ("beg", "answer", "play")}

    def __init__(self, names):
        super().__init__(names)
        self.hand = 0
        self.deal = None            # the first card turned and the dealer of the hand being played
        self.told_cards = 0         # cards of this hand told or shown (a card the laws force is played unasked)
        self.score = None           # the score by side at the last decision seen

    def show(self, situation) -> list[str]:
        lines = self._begin(situation, telling=False)
        rules = situation.rules
        lines += [f"hand {self.hand}: {self.does(situation.dealer, 'deals')}; {self.score_line(situation, _side)}",
                  f"turned up: {format_cards(situation.turned)}; {SUIT_NAMES[situation.trump]} are trumps"]
        if situation.DECISION == "beg":
            return lines + [f"your cards: {format_cards(situation.hand)}", "you are the eldest: stand, or beg?"]
        if situation.DECISION == "answer":
            return lines + [f"your cards: {format_cards(situation.hand)}",
                            f"{self.names(self.seat_of(situation, 1))}, the eldest, begs: give one, or run the cards?"]
        if situation.begged:
            lines.append("the eldest begged; the dealer " + ("gave one" if situation.gave else "ran the cards"))
        if situation.DECISION == "play":
            seats = [self.seat_of(situation, r) for r in situation.laid_by]
            lines += self.tricks(situation.played, seats, rules.players, lambda cards: _winner(situation, cards))
            self.told_cards = len(situation.played)
            return lines + [f"your cards: {format_cards(situation.hand)}", "play a card:"]
        return lines + [f"your cards: {format_cards(situation.hand)}", "throw out a card (you keep six):"]

    def told(self, situation, choice: str) -> list[str]:
        lines = self._begin(situation, telling=True)
        if situation.DECISION in SAID:
            verb, rest = SAID[situation.DECISION][choice]
            return lines + [f"{self.does(situation.seat, verb)}{rest}"]
        if situation.DECISION == "discard":
            what = choice if self.names(situation.seat) == "you" else "a card"
            return lines + [f"{self.does(situation.seat, 'throws')} out {what}"]
        cards = list(situation.played) + [parse_card(choice)]
        seats = [self.seat_of(situation, r) for r in situation.laid_by + (situation.role,)]
        lines += self.plays(cards, seats, situation.rules.players, lambda trick: _winner(situation, trick),
                            self.told_cards)
        self.told_cards = len(cards)
        return lines

    def saw(self, situation, choice: str) -> None:
        self.score = by_side(situation, _side)

    def strongest(self, rules) -> dict:
        return {"play": "expert"}

    def result(self, row, rules, seat: int) -> dict:
        winner = row["winner"]
        return side_result(self, rules.players, _side, [int(row["score_0"]), int(row["score_1"])],
                           None if winner is None else int(winner))

    def _begin(self, situation, telling: bool) -> list[str]:
        """Count the hands (a new one has another first card turned, or another dealer); at a new one, ``telling``
        another player's decision, say which hand this is."""
        deal = (situation.turned[0], situation.dealer)
        if deal == self.deal:
            return []
        self.hand += 1
        self.deal, self.told_cards = deal, 0
        lines = []
        now = by_side(situation, _side)
        if self.score is not None and now is not None:     # less this hand's knave turned up and gift
            before = [s - k for s, k in zip(now, by_side(situation, _side, situation.scored()))]
            lines.append(f"hand {self.hand - 1} is over (high, low, jack, game): "
                         f"{self.moved(self.score, before, situation.rules.players, _side)}")
        return lines + ([f"hand {self.hand}: {self.does(situation.dealer, 'deals')}; turned up "
                         f"{format_card(situation.turned[0])}; {self.score_line(situation, _side)}"] if telling else [])


def _side(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 against 1 and 3."""
    return seat % 2



def _winner(situation, cards) -> int:
    return trick_winner([(None, c) for c in cards], situation.trump)
