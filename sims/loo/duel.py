"""Loo at the terminal (:mod:`sims.core.duel`): the declarations, the exchange and the play as a player at the
table sees and hears them.

A decision shows the deal of the session, who deals, what the pool holds (and what was carried
over into it, or that the deal is a single: everyone plays), the trump card, what each player
before me declared and how many cards each stander changed (five-card), the tricks played with
who took each (:meth:`sims.loo.reference.Laws.winning`: Pam, then trumps, then the suit led) and
the trick being played.  Another player's declaration, the number of cards he changed (not which)
and his card are told as the table sees them; a card the laws played unasked (the forced first
lead, or the one card that follows and heads) is told as forced.  Every stake is told as it
changes hands: the dealer's stake (everyone's, in a single of ``stake-all``), each trick's share
of the pool to its winner, the pool to the dealer when nobody stands, to the one stander when the
dealer gives up the stakes, to a flush that sweeps the board, and each loo paid into the next
pool by a player who stood and took no trick; at the end of each deal, each player's money so far.
"""

from __future__ import annotations

from ..cards import format_card, format_cards, parse_card
from ..core.duel import View as CoreView
from .contract import MISS, PASS, PLAY
from .reference import Laws

SAID = {"pass": "passes", "play": "stands", "take the miss": "takes the miss"}
DECLARED = {PASS: "passed", PLAY: "stood", MISS: "took the miss"}


class View(CoreView):
    game = "loo"
    aliases = {"miss": "take the miss", "none": "-", "keep": "-", "nothing": "-", "stand": "play"}
    values = {
        d: "value: your money from this deal: what you take from the pool less what you pay if looed"
        for d in ("declare", "exchange", "card")
    }

    def __init__(self, names):
        super().__init__(names)
        self.number = 0
        self.deal = None  # the trump card and the dealer of the deal being played
        self.told_cards = 0  # cards of this deal told or shown (a card the laws force is played unasked)
        self.money = None  # each seat's money over the session, as told
        self.carry = 0  # the looes the last deal carried into this one's pool

    def show(self, situation) -> list[str]:
        staked = self._begin(situation, telling=False)
        rules = situation.rules
        dealer = self.does(situation.dealer, "deals")
        pool = "a single: nothing carried over, everyone plays" if situation.single else f"{self.carry} carried over"
        forced = self._forced(situation) if situation.DECISION == "card" else []
        lines = (
            staked
            + forced
            + [
                f"deal {self.number} of {rules.session_deals}: {dealer}; the pool holds "
                f"{situation.pool} ({pool}); a loo costs {situation.loo}",
                f"trump: {format_card(situation.trump)}",
            ]
        )
        declared = [
            f"{self.names(self.seat_of(situation, r))} {DECLARED[d]}"
            for r, d in zip(_in_turn(situation), situation.declared)
        ]
        if declared and not situation.single:
            lines.append(
                f"declared: {', '.join(declared)}"
                + (
                    "; the miss lies untaken"
                    if situation.DECISION == "declare" and "take the miss" in situation.legal()
                    else ""
                )
            )
        if any(situation.exchanged):
            lines.append(
                "changed: "
                + ", ".join(
                    f"{self.names(self.seat_of(situation, r))} {x}"
                    for r, x in zip(situation.standers, situation.exchanged)
                )
            )
        hand = f"your cards: {' '.join(format_card(c) for c in situation.hand if c >= 0)}"
        if situation.DECISION == "declare":
            return lines + [hand, "your declaration:"]
        if situation.DECISION == "exchange":
            return lines + [hand, "the cards to change for cards from the pack (- none):"]
        seats = [self.seat_of(situation, r) for r in situation.laid_by]
        lines += self.tricks(
            situation.played, seats, len(situation.standers), lambda cards: situation.laws.winning(cards)[0]
        )
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
        lines += self.plays(
            cards,
            seats,
            len(situation.standers),
            lambda trick: situation.laws.winning(trick)[0],
            self.told_cards,
            chosen=len(cards) - 1,
            took=self._took(situation.pool, situation.rules),
        )
        self.told_cards = len(cards)
        return lines

    def dealt(self, deal) -> list[str]:
        """The cards played after the last decision (every one forced), then how the deal ended: the pool to the
        dealer, to the one stander, or to a flush; the looes paid; each player's money so far."""
        rules, n = deal.rules, deal.rules.players
        seat = [(deal.dealer + r) % n for r in range(n)]
        lines = (
            []
            if (deal.trump, deal.dealer) == self.deal
            else self._start(rules, deal.dealer, deal.trump, deal.pool, True)
        )
        laws = Laws.of_deal(rules, deal.trump)
        cards = [c for trick in deal.tricks for _, c in trick]
        lines += self.plays(
            cards,
            [seat[r] for trick in deal.tricks for r, _ in trick],
            len(deal.stood),
            lambda trick: laws.winning(trick)[0],
            self.told_cards,
            took=self._took(deal.pool, rules),
        )
        if deal.ending == "dealer takes the pool":
            lines.append(f"nobody stands: {self._moves(seat[0], deal.pool, 'the pool')}")
        elif deal.ending == "stakes given up":
            lines.append(
                f"{self.does(seat[0], 'gives')} up the stakes: "
                f"{self._moves(seat[next(iter(deal.stood))], deal.pool, 'the pool')}"
            )
        elif deal.ending == "flush":
            lines.append(
                f"{self.does(seat[deal.sweeper], 'shows')} a flush, {format_cards(_flush(deal))}, which "
                f"sweeps the board: {self._moves(seat[deal.sweeper], deal.pool, 'the pool')}"
            )
        for role in sorted(deal.looed, key=lambda r: (r - 1) % n):
            why = "a flush swept the board" if deal.ending == "flush" else "took no trick"
            lines.append(
                f"{self.names(seat[role])} stood and {why}: looed: "
                f"{self._moves(seat[role], -_loo(rules, deal.pool), 'a loo, into the next pool')}"
            )
        lines.append(
            f"deal {self.number} is over: "
            + (f"the looes carry {deal.carried_on} into the next pool" if deal.carried_on else "nobody was looed")
        )
        self.carry = deal.carried_on
        lines.append("money so far: " + ", ".join(f"{self.names(s)} {m:+d}" for s, m in enumerate(self.money)))
        return lines

    def strongest(self, rules) -> dict:
        return {"declare": "expert", "exchange": "expert", "card": "expert"}

    def result(self, row, rules, seat: int) -> dict:
        """The session's money: each seat's winnings less its stakes and looes; the most won wins."""
        money = [int(row[f"money_{s}"]) for s in range(rules.players)]
        top = [s for s, m in enumerate(money) if m == max(money)]
        lines = [
            "the session is over: " + ", ".join(f"{self.names(s)} {m:+d}" for s, m in enumerate(money)),
            f"{self.does(top[0], 'wins')} the most"
            if len(top) == 1
            else f"{' and '.join(self.names(s) for s in top)} tie for the most ({max(money):+d})",
        ]
        return {
            "winner": self.names(top[0]) if len(top) == 1 else None,
            "scores": {self.names(s): m for s, m in enumerate(money)},
            "lines": lines,
        }

    def _begin(self, situation, telling: bool) -> list[str]:
        """Count the deals (a new one has another trump card, or another dealer); at a new one the stakes and,
        ``telling`` another player's decision, which deal this is."""
        if (situation.trump, situation.dealer) == self.deal:
            return []
        return self._start(situation.rules, situation.dealer, situation.trump, situation.pool, telling)

    def _start(self, rules, dealer: int, trump: int, pool: int, telling: bool) -> list[str]:
        """A new deal: which it is (``telling``) and the stakes put into the pool (each player's, in a deal with
        nothing carried over under ``single=stake-all``)."""
        carry = self.carry
        n = rules.players
        if self.money is None:
            self.money = [0] * n
        self.number += 1
        self.deal, self.told_cards = (trump, dealer), 0
        lines = (
            [f"deal {self.number} of {rules.session_deals}: {self.does(dealer, 'deals')}; trump {format_card(trump)}"]
            if telling
            else []
        )
        stakers = range(n) if carry == 0 and rules.single == "stake-all" else [0]
        for role in stakers:
            lines.append(
                self._moves((dealer + role) % n, -rules.stake, "the dealer's stake" if role == 0 else "a stake")
            )
        return lines + ([f"the pool holds {pool}" + (f" ({carry} carried over)" if carry else "")] if telling else [])

    def _forced(self, situation) -> list[str]:
        """The cards the laws played unasked since the last card told."""
        seats = [self.seat_of(situation, r) for r in situation.laid_by]
        lines = self.plays(
            situation.played,
            seats,
            len(situation.standers),
            lambda cards: situation.laws.winning(cards)[0],
            self.told_cards,
            took=self._took(situation.pool, situation.rules),
        )
        self.told_cards = len(situation.played)
        return lines

    def _took(self, pool: int, rules):
        """What the winner of a trick takes: its share of the pool."""
        return lambda seat, trick: [self._moves(seat, pool // rules.cards, f"trick {trick}, its share of {pool}")]

    def _moves(self, seat: int, money: int, why: str) -> str:
        """``seat 2 takes 3 for trick 1`` (``money`` > 0) or ``you pay 3 for a loo`` (< 0), counted."""
        self.money[seat] += money
        return f"{self.does(seat, 'takes' if money >= 0 else 'pays')} {abs(money)} for {why}"


def _loo(rules, pool: int) -> int:
    """What a player looed pays: the stake, or (unlimited) what the pool held up to ``loo_limit``."""
    return min(pool, rules.loo_limit) if rules.unlimited else rules.stake


def _flush(deal) -> list[int]:
    """The cards of the flush that swept the board (five-card): the sweeper's hand after his exchange."""
    out, drawn = next(((out, drawn) for r, out, drawn in deal.exchanges if r == deal.sweeper), ([], []))
    return [c for c in deal.hands[deal.sweeper] if c not in out] + list(drawn)


def _in_turn(situation) -> list[int]:
    """The roles in the order they declare: from the dealer's left round to the dealer."""
    n = situation.rules.players
    return [t % n for t in range(1, n + 1)]
