"""Cribbage at the terminal (:mod:`sims.core.duel`): the laying out and the play as a player at the board sees them.

A decision shows the deal, who deals (whose crib), the score, the starter, every card laid in
the play with its player (``|`` where a new count began: seed 000, when nobody can play or the
count reaches thirty-one), the count and who has said go.  Another player's card is told with
what it pegged (:func:`sims.cribbage.reference.peg_items`: fifteen, pairs, runs, thirty-one); the
cards laid out for the crib go face down, so only their number is told.  When a deal is over
(a new one begins, or the game ends) each hand the play laid on the table is shown with what it
shows with the starter (:func:`sims.cribbage.reference.show_score`), and what each side scored
from the last card laid to the crib (the go, the shows, the crib, whose cards are not shown).
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from ..cards import format_card, format_cards, parse_card
from ..core.duel import View as CoreView, by_side, side_result
from .pegging import MAX_COUNT
from .reference_engine import side_of, value
from .reference import peg_items, show_score


class View(CoreView):
    game = "cribbage"
    values = {"peg": "value: your points less the others' from this card to the end of the play",
              "discard": "net: your hand's points with the starter, with the crib's added (your crib) or taken "
                         "away (theirs), over every starter and the others' throws at random"}

    def __init__(self, names):
        super().__init__(names)
        self.deal = 0
        self.in_play = True         # the last decision seen was one of the play (so a discard begins a deal)
        self.last = None            # the last card laid this deal: (its decision, the card)
        self.score = None           # the score by side at the last decision seen (two sides)

    def choices(self, situation) -> list[str]:
        if situation.DECISION == "peg":
            return [format_card(c) for c in situation.legal()]
        return [format_cards(thrown) for thrown in combinations(situation.hand, situation.rules.throw)]

    def show(self, situation) -> list[str]:
        lines = self._begin(situation, telling=False)
        rules = situation.rules
        lines.append(self._header(situation))
        if situation.DECISION == "discard":
            return lines + [f"your cards: {format_cards(situation.hand)}",
                            f"lay out {rules.throw} card{'s' * (rules.throw > 1)} for the crib:"]
        go = sorted(self.names(self.seat_of(situation, r)) for r in situation.at.go)
        return lines + [f"starter {format_card(situation.starter)}"
                        + (f"; you laid out {format_cards(situation.thrown)}" if situation.thrown else ""),
                        f"laid: {self._laid(situation)}",
                        f"count {situation.count}" + (f" ({', '.join(go)} said go)" if go else "")
                        + (" (a new count)" if situation.played and not situation.count else ""),
                        f"your cards: {format_cards(situation.hand)}", "lay a card:"]

    def told(self, situation, choice: str) -> list[str]:
        lines = self._begin(situation, telling=True)
        if situation.DECISION == "discard":
            n = situation.rules.throw
            what = choice if self.names(situation.seat) == "you" else f"{n} card{'s' * (n > 1)}"
            return lines + [f"{self.does(situation.seat, 'lays')} out {what} for the crib"]
        count_cards = list(situation.played[situation.at.count_start:]) + [parse_card(choice)]
        items = peg_items(count_cards, situation.rules.bath_flush)
        pegs = f", pegs {sum(p for _, p in items)} ({', '.join(n for n, _ in items)})" if items else ""
        count = situation.count + value(count_cards[-1])
        return lines + [f"{self.does(situation.seat, 'lays')} {choice}: count {count}{pegs}"]

    def saw(self, situation, choice: str) -> None:
        self.score = by_side(situation, _sides(situation.rules)) if situation.rules.sides == 2 else None
        self.in_play = situation.DECISION == "peg"
        if self.in_play:
            self.last = (situation, choice)

    def advise(self, situation, samples: int, seed: int):
        """The advisor's frame; without the chance of winning where it has no board-position table for the rules
        (or more than two players), rather than none."""
        try:
            return super().advise(situation, samples, seed)
        except ValueError:
            if situation.score is None:
                raise
            return super().advise(replace(situation, score=None), samples, seed)

    def finish(self) -> list[str]:
        shows = self._shows()
        return ["the last deal's hands (the game ends the moment a side reaches the target):"] + shows if shows else []

    def strongest(self, rules) -> dict:
        """position_distilled where it has a board-position table (two-handed six-card, six-card-61, five-card),
        else the game's defaults."""
        from .policies.position import PRESETS
        from .rules import get_rules

        if any((get_rules(p).to_kernel() == rules.to_kernel()).all() for p in PRESETS):
            return {"discard": "position_distilled", "peg": "position_distilled"}
        return {}

    def result(self, row, rules, seat: int) -> dict:
        return side_result(self, rules.players, _sides(rules),
                           [int(row[f"score_{side}"]) for side in range(rules.sides)], int(row["winner"]))

    def _begin(self, situation, telling: bool) -> list[str]:
        """At the first laying out of a deal: the last deal's shows, the deal counted and, ``telling`` another
        player's decision, which deal this is."""
        if self.deal and (situation.DECISION != "discard" or not self.in_play):
            return []
        self.deal += 1
        self.in_play = False
        lines = self._shows()
        now = by_side(situation, _sides(situation.rules))
        if self.score is not None and now is not None:
            lines.append(f"from the last card to the crib: "
                         f"{self.moved(self.score, now, situation.rules.players, _sides(situation.rules))}")
        return lines + ([self._header(situation)] if telling else [])

    def _header(self, situation) -> str:
        """``deal 2: you deal: the crib is yours; score: ...``"""
        crib = "you deal: the crib is yours" if self.names(situation.dealer) == "you" else \
            f"{self.names(situation.dealer)} deals: the crib is theirs"
        return f"deal {self.deal}: {crib}; {self.score_line(situation, _sides(situation.rules))}"

    def _shows(self) -> list[str]:
        """Each hand of the last deal that the play laid on the table, with its show."""
        if self.last is None:
            return []
        last, card = self.last
        self.last = None
        played, laid_by = last.played + (parse_card(card),), last.laid_by + (last.role,)
        lines = []
        for role in list(range(1, last.rules.active)) + [0]:     # the show: eldest first, the dealer last
            cards = [c for c, r in zip(played, laid_by) if r == role]
            if len(cards) == last.rules.kept:
                lines.append(f"the show: {self.names(self.seat_of(last, role))} {format_cards(cards)} with "
                             f"{format_card(last.starter)}: {show_score(cards, last.starter)}")
        return lines

    def _laid(self, situation) -> str:
        """Every card laid this deal with its player, ``|`` where a new count began."""
        parts, count = [], 0
        for card, role in zip(situation.played, situation.laid_by):
            if count + value(card) > MAX_COUNT:
                parts.append("|")
                count = 0
            parts.append(f"{format_card(card)} ({self.names(self.seat_of(situation, role))})")
            count += value(card)
            if count == MAX_COUNT:
                parts.append("|")
                count = 0
        return " ".join(parts) or "nothing yet"



def _sides(rules):
    """Seat -> side: partners (seats opposite) score together (:func:`sims.cribbage.reference_engine.side_of`)."""
    return lambda seat: side_of(rules, seat)
