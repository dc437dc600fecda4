"""All Fours at the terminal (:mod:`sims.core.duel`): the beg, the answer and the play as a player at the table
sees and hears them.

A decision shows the hand, who deals, the score, every card turned up (the first for trump, then
those turned running the cards, Sections 87-96 §93 v), what the eldest and the dealer said, the tricks
played with who took each (the highest trump, else the highest card of the suit led) and the
trick being played.  Another player's beg, answer and card are told as the table sees them (a
card the laws left alone to play, Mottoes' law iii, as forced); a card thrown out after a run
(``discard_to_six``) goes face down.  Every point is told as it is scored, with its reason and
the score after it: a knave turned up (1 to the dealer), the gift (1 to the eldest), and, when
the last trick is turned, high (the highest trump in play), low (the lowest trump in play, to
whom it was dealt), jack (who won the knave of trumps) and game, with each side's count for
game (tens 10, aces 4, kings 3, queens 2, knaves 1), in that order, until a side reaches the
target.
"""

from __future__ import annotations

from ..cards import format_card, format_cards, parse_card
from ..core.duel import View as CoreView, scored, side_result
from .cards import SUIT_NAMES
from .reference import KNAVE, reckon, suit, trick_winner, whist_rank

SAID = {
    "beg": {"stand": ("stands", ""), "beg": ("begs", "")},
    "answer": {"give": ("gives", " one"), "run": ("runs", " the cards")},
}
COUNT = "tens 10, aces 4, kings 3, queens 2, knaves 1"
POINTS = {"turned": "a knave turned up", "gift": "the gift"}  # the names of the other points are theirs
ENDS = ("high", "low", "jack", "game")  # the points of the end of a hand, in the order they are scored


class View(CoreView):
    game = "allfours"
    values = {
        d: "value: your side's points less the other side's from here to the end of the hand"
        for d in ("beg", "answer", "play")
    }

    def __init__(self, names):
        super().__init__(names)
        self.hand = 0
        self.playing = False  # a hand is being played (from its first decision to its end, :meth:`dealt`)
        self.told_cards = 0  # cards of this hand told or shown (a card the laws force is played unasked)
        self.turned = []  # the cards turned up this hand told
        self.told_points = {}  # points of this hand told before its end, by what scored them
        self.running = [0, 0]  # each side's score as told

    def show(self, situation) -> list[str]:
        lines = self._begin(situation, telling=False) + self._news(situation)
        rules = situation.rules
        lines += [
            f"hand {self.hand}: {self.does(situation.dealer, 'deals')}; {self.score_line(situation, _side)}",
            f"turned up: {format_cards(situation.turned)}; {SUIT_NAMES[situation.trump]} are trumps",
        ]
        if situation.DECISION == "beg":
            return lines + [f"your cards: {format_cards(situation.hand)}", "you are the eldest: stand, or beg?"]
        if situation.DECISION == "answer":
            return lines + [
                f"your cards: {format_cards(situation.hand)}",
                f"{self.names(self.seat_of(situation, 1))}, the eldest, begs: give one, or run the cards?",
            ]
        if situation.begged:
            lines.append("the eldest begged; the dealer " + ("gave one" if situation.gave else "ran the cards"))
        if situation.DECISION == "play":
            seats = [self.seat_of(situation, r) for r in situation.laid_by]
            lines += self.tricks(situation.played, seats, rules.players, lambda cards: _winner(situation, cards))
            return lines + [f"your cards: {format_cards(situation.hand)}", "play a card:"]
        return lines + [f"your cards: {format_cards(situation.hand)}", "throw out a card (you keep six):"]

    def told(self, situation, choice: str) -> list[str]:
        lines = self._begin(situation, telling=True) + self._news(situation)
        if situation.DECISION in SAID:
            verb, rest = SAID[situation.DECISION][choice]
            line = f"{self.does(situation.seat, verb)}{rest}"
            if choice == "give":  # "take one": a point to the eldest at once
                line += ": " + self._scores(situation.rules, self.seat_of(situation, 1), "gift")
            return lines + [line]
        if situation.DECISION == "discard":
            what = choice if self.names(situation.seat) == "you" else "a card"
            return lines + [f"{self.does(situation.seat, 'throws')} out {what}"]
        cards = list(situation.played) + [parse_card(choice)]
        seats = [self.seat_of(situation, r) for r in situation.laid_by + (situation.role,)]
        lines += self.plays(
            cards,
            seats,
            situation.rules.players,
            lambda trick: _winner(situation, trick),
            self.told_cards,
            chosen=len(cards) - 1,
        )
        self.told_cards = len(cards)
        return lines

    def dealt(self, hand) -> list[str]:
        """The tricks played after the last decision (every card forced), then high, low, jack and game, each
        with who took it, as far as the game went."""
        rules, n = hand.rules, hand.rules.players
        lines = (
            [] if self.playing else self._start(hand.dealer) + self._turned(rules, hand.dealer, hand.turned)
        )  # it asked nobody anything
        seat = [(hand.dealer + r) % n for r in range(n)]
        cards = [c for trick in hand.tricks for _, c in trick]
        lines += self.plays(
            cards,
            [seat[r] for trick in hand.tricks for r, _ in trick],
            n,
            lambda trick: trick_winner([(None, c) for c in trick], hand.trump),
            self.told_cards,
        )
        told = dict(self.told_points)
        ends = {}
        for score in hand.scores:
            if told.get(score.component):  # told as it happened
                told[score.component] -= 1
            elif score.component in ENDS:
                ends[score.component] = score
            else:  # a knave turned, or the gift, that no decision came after
                lines.append(self._point(hand, seat, score))
        for what in ENDS:
            if hand.winner is not None and not ends:  # the game ended at the last point told
                break
            if what in ends:
                lines.append(self._point(hand, seat, ends.pop(what)))
            elif what != "low":
                lines.append(self._unscored(hand, seat, what))
        self.playing = False
        score = ", ".join(f"{name} {points}" for name, points in zip(self.sides(n, _side), self.running))
        return lines + [f"hand {self.hand} is over: {score}"]

    def strongest(self, rules) -> dict:
        return {"play": "expert"}

    def result(self, row, rules, seat: int) -> dict:
        winner = row["winner"]
        return side_result(
            self,
            rules.players,
            _side,
            [int(row["score_0"]), int(row["score_1"])],
            None if winner is None else int(winner),
        )

    def _scores(self, rules, seat: int, what: str, points: int = 1) -> str:
        """``seat 1 scores 1 for high (you 3, seat 1 5)``: the point told, the running score moved."""
        self.running[_side(seat)] += points
        self.told_points[what] = self.told_points.get(what, 0) + 1
        return scored(
            self.names(seat),
            "scores",
            points,
            [f"{POINTS.get(what, what)} {points}"],
            dict(zip(self.sides(rules.players, _side), self.running)),
        )

    def _point(self, hand, seat, score) -> str:
        """A point of the end of a hand, with what won it."""
        who = seat[score.role]
        trumps = sorted((c for cards in hand.dealt for c in cards if suit(c) == hand.trump), key=whist_rank)
        why = {
            "turned": "the dealer turned a knave",
            "gift": "the eldest begged and the dealer gave one",
            "high": f"high {format_card(trumps[-1]) if trumps else ''}: the highest trump in play",
            "low": f"low {format_card(trumps[0]) if trumps else ''}: the lowest trump in play, dealt to "
            f"{self.names(who)}",
            "jack": f"jack {format_card(KNAVE * 4 + hand.trump)}: won in a trick by {self.names(who)}",
            "game": f"game, counting {COUNT}: {self._counts(hand, seat)}",
        }[score.component]
        return f"{why}: {self._scores(hand.rules, who, score.component, score.points)}"

    def _unscored(self, hand, seat, what: str) -> str:
        """Why nobody scored high and low, jack or game at the end of a hand."""
        return {
            "high": "no trump in play: nobody scores high or low",
            "jack": f"jack: the {format_card(KNAVE * 4 + hand.trump)} was not in play",
            "game": f"game, counting {COUNT}: {self._counts(hand, seat)}: nobody scores game",
        }[what]

    def _counts(self, hand, seat) -> str:
        """``you 23, seat 1 12``: each side's count for game in the tricks it took."""
        counts = [0, 0]
        for trick in hand.tricks:
            counts[_side(seat[trick[trick_winner(trick, hand.trump)][0]])] += reckon(c for _, c in trick)
        return ", ".join(f"{name} {c}" for name, c in zip(self.sides(hand.rules.players, _side), counts))

    def _begin(self, situation, telling: bool) -> list[str]:
        """The first decision of a hand (the first after the last hand's end) begins it; ``telling`` another
        player's decision, say which hand this is."""
        if self.playing:
            return []
        lines = self._start(situation.dealer)
        return lines if telling else []

    def _start(self, dealer: int) -> list[str]:
        """A new hand, and its number."""
        self.hand += 1
        self.playing, self.told_cards, self.turned, self.told_points = True, 0, [], {}
        return [f"hand {self.hand}: {self.does(dealer, 'deals')}"]

    def _turned(self, rules, dealer: int, turned) -> list[str]:
        """The cards of ``turned`` (the cards turned up this hand: the first for trump, then those turned running
        the cards, the last last) not told yet; a knave scores 1 to the dealer (running the cards: with
        ``run_knaves``).  A card told missing: the pack ran short running the cards, and the same dealer deals
        again."""
        lines = []
        if not set(self.turned) <= set(turned):
            lines.append(f"the pack ran short: {self.does(dealer, 'deals')} again")
            self.turned = []
        for card in (c for c in turned if c not in self.turned):
            first = not self.turned
            line = f"{'' if first else 'running the cards: '}turned up {format_card(card)}"
            if card >> 2 == KNAVE and (first or rules.run_knaves):
                line += ": " + self._scores(rules, dealer, "turned")
            lines.append(line)
            self.turned.append(card)
        return lines

    def _news(self, situation) -> list[str]:
        """What the table saw since the last decision told: the cards turned up (:meth:`_turned`), and the cards the
        laws played unasked (forced)."""
        lines = self._turned(situation.rules, situation.dealer, situation.turned)
        if situation.DECISION == "play":
            seats = [self.seat_of(situation, r) for r in situation.laid_by]
            lines += self.plays(
                situation.played,
                seats,
                situation.rules.players,
                lambda cards: _winner(situation, cards),
                self.told_cards,
            )
            self.told_cards = len(situation.played)
        return lines


def _side(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 against 1 and 3."""
    return seat % 2


def _winner(situation, cards) -> int:
    return trick_winner([(None, c) for c in cards], situation.trump)
