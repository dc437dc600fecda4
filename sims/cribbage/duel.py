"""Cribbage at the terminal (:mod:`sims.core.duel`): the laying out, the play and the show as a player at the board
hears them.

A decision shows the deal, who deals (whose crib), the score, the starter, every card laid in
the play with its player (``|`` where a new count began: Mottoes, when nobody can play or the
count reaches thirty-one), the count and who has said go.  The cards laid out for the crib go
face down, so only their number is told until the crib is shown.  Every point is told as it is
pegged, with its reason and the score after it: three for last (five-card), his heels (a knave
turned up, 2 to the dealer), each card of the play with what it made
(:func:`sims.cribbage.literal_scoring.peg_items`: fifteen, thirty-one, pair, pair-royal, double
pair-royal, run, Bath flush), a card the laws left alone to play as forced, who says go, the go
and the last card (the end hole: 1), then each hand's show with the starter, eldest first, and
the crib turned up and shown (:func:`sims.cribbage.literal_scoring.show_items`: fifteens, pairs, runs,
flush, his nob), until a side reaches the target, where the telling stops as the game does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

from ..cards import format_card, format_cards, parse_card
from ..core.duel import View as CoreView
from ..core.duel import scored, side_result
from .literal_scoring import peg_items, show_items
from .pegging import MAX_COUNT
from .reference import JACK, side_of, value

PAIRS = {2: "pair", 3: "pair-royal", 4: "double pair-royal"}


class View(CoreView):
    game = "cribbage"
    values = {
        "peg": "value: your points less the others' from this card to the end of the play",
        "discard": "net: your hand's points with the starter, with the crib's added (your crib) or taken "
        "away (theirs), over every starter, the crib from the shipped six-card self-play table "
        "(as sims discard)",
    }

    def __init__(self, names):
        super().__init__(names)
        self.deal = 0
        self.in_play = True  # the last decision seen was one of the play (so a discard begins a deal)
        self.running = None  # each side's score as told
        self.starter = False  # the starter of this deal told
        self.laid = 0  # cards of this deal's play told
        self.count_start = 0  # where the count being told began
        self.said_go = set()  # the roles told saying go in this count
        self.goes = 0  # go points of this deal told

    def hint_note(self, situation, frame) -> str:
        """The core note, and what ranks the rows: the advisor's best choice (the chance of winning with a score,
        read from a sampled board-position table, so never exact)."""
        ranked = (
            "the chance of winning (win %, from the sampled board-position table: not exact), then the points"
            if "win" in frame
            else "the points"
        )
        return f"{super().hint_note(situation, frame)}; best first by {ranked}"

    def choices(self, situation) -> list[str]:
        if situation.DECISION == "peg":
            return [format_card(c) for c in situation.legal()]
        return [format_cards(thrown) for thrown in combinations(situation.hand, situation.rules.throw)]

    def show(self, situation) -> list[str]:
        lines = self._begin(situation, telling=False)
        rules = situation.rules
        if situation.DECISION == "discard":
            return lines + [
                self._header(situation),
                f"your cards: {format_cards(situation.hand)}",
                f"lay out {rules.throw} card{'s' * (rules.throw > 1)} for the crib:",
            ]
        lines += self._news(situation)
        go = sorted(self.names(self.seat_of(situation, r)) for r in situation.at.go)
        return lines + [
            self._header(situation),
            f"starter {format_card(situation.starter)}"
            + (f"; you laid out {format_cards(situation.thrown)}" if situation.thrown else ""),
            f"laid: {self._laid(situation)}",
            f"count {situation.count}"
            + (f" ({', '.join(go)} said go)" if go else "")
            + (" (a new count)" if situation.played and not situation.count else ""),
            f"your cards: {format_cards(situation.hand)}",
            "lay a card:",
        ]

    def told(self, situation, choice: str) -> list[str]:
        lines = self._begin(situation, telling=True)
        if situation.DECISION == "discard":
            n = situation.rules.throw
            what = choice if self.names(situation.seat) == "you" else f"{n} card{'s' * (n > 1)}"
            return lines + [f"{self.does(situation.seat, 'lays')} out {what} for the crib"]
        lines += self._news(situation)
        card = parse_card(choice)
        count_cards = list(situation.played[situation.at.count_start :]) + [card]
        count = situation.count + value(card)
        line = (
            f"{self.does(situation.seat, 'lays')} {choice}{' (forced)' * (len(situation.legal()) == 1)}: count {count}"
        )
        items = peg_items(count_cards, situation.rules.bath_flush)
        if items:
            line += "; " + self._pegs(
                situation.rules, situation.seat, sum(p for _, p in items), [f"{name} {p}" for name, p in items]
            )
        self.laid += 1
        if count == MAX_COUNT:
            self.count_start, self.said_go = self.laid, set()
        return lines + [line]

    def saw(self, situation, choice: str) -> None:
        self.in_play = situation.DECISION == "peg"

    def dealt(self, deal) -> list[str]:
        """The points of the deal after its last card laid (the go or the last card), each hand's show and the
        crib's, in the order they are pegged, as far as the game went."""
        rules = deal.rules
        lines = [] if self.starter else self._starter(rules, deal.seat(0), deal.starter)
        goes = [p for p in deal.pegs if p.component == "go"][self.goes :]
        for peg in goes:
            lines.append(self._pegs(rules, deal.seat(peg.role), peg.points, [f"{peg.what} {peg.points}"]))
        shows = [p for p in deal.pegs if p.component in ("hand", "crib")]
        if deal.winner is not None and not shows:  # the game ended before the show
            return lines
        for role, cards, crib in [(r, deal.kept[r], False) for r in list(range(1, rules.active)) + [0]] + [
            (0, deal.crib, True)
        ]:
            items = show_items(cards, deal.starter, crib, rules.crib_flush_four)
            shown = (
                f"{'the crib shows' if crib else self.does(deal.seat(role), 'shows')} {format_cards(cards)} "
                f"with {format_card(deal.starter)}"
            )
            if not items:
                lines.append(f"{shown}: nothing")
                continue
            lines.append(f"{shown}: " + self._pegs(rules, deal.seat(role), sum(p for _, _, p in items), reasons(items)))
            shows.pop(0)
            if deal.winner is not None and not shows:  # counted out: the game ends at this show
                break
        return lines

    def advise(self, situation, samples: int, seed: int):
        """The advisor's frame; without the chance of winning where it has no board-position table for the rules
        (or more than two players), rather than none."""
        try:
            return super().advise(situation, samples, seed)
        except ValueError:
            if situation.score is None:
                raise
            return super().advise(replace(situation, score=None), samples, seed)

    def strongest(self, rules) -> dict:
        """position_distilled where it has a board-position table (two-handed six-card, six-card-61, five-card),
        else the game's defaults."""
        from .policies.position import PRESETS
        from .rules import get_rules

        if any((get_rules(p).to_kernel() == rules.to_kernel()).all() for p in PRESETS):
            return {"discard": "position_distilled", "peg": "position_distilled"}
        return {}

    def result(self, row, rules, seat: int) -> dict:
        return side_result(
            self,
            rules.players,
            _sides(rules),
            [int(row[f"score_{side}"]) for side in range(rules.sides)],
            int(row["winner"]),
        )

    def _pegs(self, rules, seat: int, points: int, why) -> str:
        """``seat 1 pegs 4 for fifteen 2, pair 2 (you 9, seat 1 16)``: ``points`` to the seat's side, told."""
        side = side_of(rules, seat)
        self.running = self.running or [0] * rules.sides
        self.running[side] += points
        names = self.sides(rules.players, _sides(rules), rules.sides)
        return scored(self.names(seat), "pegs", points, why, dict(zip(names, self.running)))

    def _begin(self, situation, telling: bool) -> list[str]:
        """At the first laying out of a deal: three for last at the start of the game and, ``telling`` another
        player's decision, which deal this is."""
        if self.deal and (situation.DECISION != "discard" or not self.in_play):
            return []
        rules = situation.rules
        lines = []
        if not self.deal:
            self.running = [0] * rules.sides
            if rules.three_for_last:  # Rules of Cribbage, rule 10: the non-dealer's three at the commencement
                lines.append(self._pegs(rules, (situation.dealer + 1) % rules.players, 3, ["last 3"]))
        self.deal += 1
        self.in_play = False
        self.starter, self.laid, self.count_start, self.said_go, self.goes = False, 0, 0, set(), 0
        return lines + ([self._header(situation)] if telling else [])

    def _news(self, situation) -> list[str]:
        """What the play brought since the last card told: the starter (and his heels), who says go, and the go
        when nobody could lay (the count begun anew)."""
        rules = situation.rules
        lines = [] if self.starter else self._starter(rules, situation.dealer, situation.starter)
        if (
            len(situation.played) == self.laid
            and self.laid > self.count_start
            and situation.at.count_start == self.laid
        ):  # nobody could lay: the end hole to the last player
            last = self.seat_of(situation, situation.laid_by[-1])
            lines.append(self._pegs(rules, last, 1, ["go 1"]))
            self.goes += 1
            self.count_start, self.said_go = self.laid, set()
        for role in sorted(set(situation.at.go) - self.said_go):
            lines.append(f"{self.does(self.seat_of(situation, role), 'says')} go")
        self.said_go |= set(situation.at.go)
        return lines

    def _starter(self, rules, dealer: int, starter: int) -> list[str]:
        """The starter turned up; a knave is his heels, 2 to the dealer at once."""
        self.starter = True
        lines = [f"the starter: {format_card(starter)}"]
        if starter >> 2 == JACK:
            lines.append(self._pegs(rules, dealer, 2, ["his heels 2"]))
        return lines

    def _header(self, situation) -> str:
        """``deal 2: you deal: the crib is yours; score: ...``"""
        crib = (
            "you deal: the crib is yours"
            if self.names(situation.dealer) == "you"
            else f"{self.names(situation.dealer)} deals: the crib is theirs"
        )
        return f"deal {self.deal}: {crib}; {self.score_line(situation, _sides(situation.rules))}"

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


def reasons(items) -> list[str]:
    """A show's points by reason (``3 fifteens 6``, ``pair-royal 6``, ``2 runs of 3 6``, ``flush 4``,
    ``his nob 1``) from :func:`sims.cribbage.literal_scoring.show_items`."""
    fifteens = [p for name, _, p in items if name == "fifteens"]
    out = [f"{len(fifteens)} fifteens {sum(fifteens)}" if len(fifteens) > 1 else "fifteen 2"] if fifteens else []
    ranks = Counter(cards[0] >> 2 for name, cards, _ in items if name == "pairs")  # pairs of each rank
    for pairs in ranks.values():
        held = {1: 2, 3: 3, 6: 4}[pairs]
        out.append(f"{PAIRS[held]} {held * (held - 1)}")
    runs = Counter(p for name, _, p in items if name == "runs")
    out += [f"{n} runs of {k} {n * k}" if n > 1 else f"run of {k} {k}" for k, n in runs.items()]
    out += [f"flush {p}" for name, _, p in items if name == "flush"]
    out += [f"his nob {p}" for name, _, p in items if name == "nobs"]
    return out


def _sides(rules):
    """Seat -> side: partners (seats opposite) score together (:func:`sims.cribbage.reference.side_of`)."""
    return lambda seat: side_of(rules, seat)
