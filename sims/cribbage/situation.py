"""A pegging decision as a player at the table knows it: :class:`PegSituation`.

The public facts of one moment of the play (Mottoes, Sections 87-96): the rules, my place
from the dealer, the cards I still hold, every card laid this deal in order,
the starter, the cards I laid out for the crib, and the score.  Who laid which
card, where each count began and who has said go follow from the cards and the
rules of the play, which the situation checks:

* the eldest hand leads; a player who can play must; when the one in turn
  cannot, he says go and the next in turn plays; nobody plays past thirty-one;
* when nobody can play (so the next card laid does not fit the count), or the
  count reaches thirty-one, a new count begins, led by the player on the left of
  the last player; two-handed five-card has one count only;
* a player who has said go lays nothing more in that count; with a count of 21
  or less every card fits, so a player with cards left cannot have said go.

Each go, and each count that ends because nobody could lay, says something of the
hidden cards: the player held no card that fitted, so every card he holds now
(and every card he lays later) has more pips than the count left room for.
:attr:`Walk.room` keeps, for each role, the largest such room: the advisors deal
him only cards above it (:func:`sims.cribbage.advice.hidden_deals`).

When more than one order of players lays the cards, ``mine`` (the played cards
that are mine) or ``laid_by`` (the role of each card's player) says which.

:meth:`PegSituation.to_state` builds the arrays a pegging policy sees
(:mod:`sims.cribbage.contract`) with the engine's own function,
:func:`sims.cribbage.play._fill_state`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..cards import Card, Cards, check_disjoint, format_card, format_cards, parse_card, parse_cards
from .contract import ROLE_NAMES
from .pegging import MAX_COUNT
from .rules import MAX_SEATS, Rules, get_rules


class PegState(NamedTuple):
    """What the kernel's pegging policy is called with (besides its stream and parameters)."""

    hand: np.ndarray  # int64[kept]: the cards held, then -1 for each card laid
    played: np.ndarray  # int64[active * kept]: the cards laid in order, then -1
    state: np.ndarray  # int64[S_SIZE]
    rules: np.ndarray  # int64[R_SIZE]


def _value(card: int) -> int:
    return min((card >> 2) + 1, 10)


def role_of(rules: Rules, role) -> int:
    """Place from the dealer of a role name (``dealer``, ``pone``/``eldest``, ...) or number."""
    names = ROLE_NAMES[rules.active]
    if isinstance(role, (int, np.integer)) and not isinstance(role, bool):
        if not 0 <= role < rules.active:
            raise ValueError(f"role must be 0..{rules.active - 1} for {rules.name}, got {role}")
        return int(role)
    if rules.active == 2 and role == "eldest":
        role = "pone"
    if role not in names:
        raise ValueError(f"unknown role {role!r} for {rules.name}; choose from {', '.join(names)}")
    return names.index(role)


def _card(card) -> int:
    return int(card) if isinstance(card, (int, np.integer)) else parse_card(card)


@dataclass(frozen=True)
class Walk:
    """Where the play stands: the current count, where it began in ``played``, who has said go in it, and
    ``room[r]``: the most pips a card could have had and fitted when role ``r`` could not lay (0 if he
    always could), so every card he holds now has more pips than that."""

    count: int
    count_start: int
    go: frozenset
    room: tuple = ()


def walk(rules: Rules, role: int, hand, played, laid_by) -> Walk:
    """Replay the play of ``played`` laid by ``laid_by`` to this player's turn, by the rules of the
    module docstring; a ValueError in one line at the first thing that breaks them."""
    n, kept = rules.active, rules.kept
    names = ROLE_NAMES[n]
    laid = [0] * n
    count, start, go, last, turn = 0, 0, set(), None, 1 % n
    room = [0] * n
    over = False

    def held_at(k):  # my cards when card k was laid: those I hold now and those I laid from k on
        return list(hand) + [c for c, r in zip(played[k:], laid_by[k:]) if r == role]

    def could_not_lay(r, k, count):  # the player in role r had no card that fitted at ``count``
        if r == role:
            fits = [c for c in held_at(k) if count + _value(c) <= MAX_COUNT]
            if fits:
                raise ValueError(
                    f"illegal turn: at count {count} you held {format_card(fits[0])}, which fits, so you had to play it"
                )
            return
        if laid[r] < kept and count + 10 <= MAX_COUNT:
            raise ValueError(
                f"illegal turn: the {names[r]} still had cards at count {count}, where every card "
                f"fits, so he could not say go"
            )
        later = [c for c, w in zip(played[k:], laid_by[k:]) if w == r and count + _value(c) <= MAX_COUNT]
        if later:
            raise ValueError(
                f"illegal turn: the {names[r]} could not lay at count {count}, yet he held "
                f"{format_card(later[0])}, which fits"
            )
        room[r] = max(room[r], MAX_COUNT - count)

    def skip(r, k, count):  # the player in role r said go at ``count``
        could_not_lay(r, k, count)
        go.add(r)

    def nobody_could_lay(k, count):  # a new count begins after ``count``
        for r in range(n):
            if r not in go:
                could_not_lay(r, k, count)

    for k, (card, who) in enumerate(zip(played, laid_by)):
        if over:
            raise ValueError(
                f"impossible play: {rules.name} has one count only, and it ended before {format_card(card)}"
            )
        if count + _value(card) > MAX_COUNT:  # nobody could play: a new count
            nobody_could_lay(k, count)
            if rules.one_count:
                raise ValueError(
                    f"impossible count: {format_card(card)} would take the count {count} past "
                    f"{MAX_COUNT}, and {rules.name} has one count only"
                )
            assert last is not None  # a count past 21 holds cards laid
            count, start, go, turn = 0, k, set(), (last + 1) % n
        if who in go:
            raise ValueError(f"illegal turn: the {names[who]} said go in this count and cannot lay {format_card(card)}")
        r = turn
        while r != who:
            skip(r, k, count)
            r = (r + 1) % n
        laid[who] += 1
        if laid[who] > kept:
            raise ValueError(f"impossible play: the {names[who]} would lay more than his {kept} cards")
        count += _value(card)
        last, turn = who, (who + 1) % n
        if count == MAX_COUNT:
            count, start, go = 0, k + 1, set()
            over = bool(rules.one_count)
    if over:
        raise ValueError(f"the play is over: {rules.name} has one count only")
    if not any(count + _value(c) <= MAX_COUNT for c in hand):
        # Nobody could play (else he, not I, would be playing): a new count.
        if rules.one_count:
            raise ValueError(f"the play is over: at count {count} you cannot play, and {rules.name} has one count only")
        nobody_could_lay(len(played), count)
        assert last is not None  # every card fits a count of 0
        count, start, go, turn = 0, len(played), set(), (last + 1) % n
    r = turn
    k = len(played)
    while r != role:
        skip(r, k, count)
        r = (r + 1) % n
    return Walk(count, start, frozenset(go), tuple(room))


def _orders(rules: Rules, role: int, played, n_mine_laid: int):
    """Assignments of the cards laid to players that lay ``n_mine_laid`` of them by me and at most ``kept``
    by anyone, skipping in turn only players who may have said go (no cards left, or a count past 21)
    and never one who has; the alternating orders first.  :func:`walk` checks the rest."""
    n, kept = rules.active, rules.kept
    limit = [n_mine_laid if r == role else kept for r in range(n)]

    def extend(prefix, laid, turn, count, go, last):
        k = len(prefix)
        if k == len(played):
            if laid[role] == n_mine_laid:
                yield tuple(prefix)
            return
        value = _value(played[k])
        if count + value > MAX_COUNT:
            if last is None:
                return
            count, go, turn = 0, set(), (last + 1) % n
        for step in range(n):
            who = (turn + step) % n
            skipped = [(turn + j) % n for j in range(step)]
            if any(laid[r] < limit[r] and count + 10 <= MAX_COUNT for r in skipped):
                break
            if who in go or laid[who] >= limit[who]:
                continue
            laid[who] += 1
            after = count + value
            yield from extend(
                prefix + [who],
                laid,
                (who + 1) % n,
                0 if after == MAX_COUNT else after,
                set() if after == MAX_COUNT else go | set(skipped),
                who,
            )
            laid[who] -= 1

    yield from extend([], [0] * n, 1 % n, 0, set(), None)


MAX_ORDERS = 20_000


def resolve_laid_by(rules: Rules, role: int, hand, played) -> tuple[tuple[int, ...], Walk]:
    """The order of players that lays ``played`` with me to play now (the first found, alternating turns
    first), and where the play stands; a one-line error when no order does, or when orders that do
    disagree on where the count began or who has said go."""
    n_mine_laid = rules.kept - len(hand)
    found, first_error = [], None
    for i, order in enumerate(_orders(rules, role, played, n_mine_laid)):
        if i >= MAX_ORDERS:
            break
        try:
            found.append((order, walk(rules, role, hand, played, order)))
        except ValueError as exc:
            first_error = first_error or exc
    if not found:
        raise first_error or ValueError(
            f"illegal turn: no order of play lays {format_cards(played)} with you to play now"
        )
    states = {w for _, w in found}
    if len(states) > 1:
        raise ValueError(
            f"who laid which of {format_cards(played)} is ambiguous: give the cards you laid "
            f"(mine) or the player of every card (laid_by)"
        )
    return found[0]


def peg_state(
    rules: Rules, role: int, dealer: int, scores, starter: int, at: Walk, n_played: int, thrown=()
) -> np.ndarray:
    """The state a pegging policy in ``role`` sees where the play stands ``at`` after ``n_played`` cards, with the
    ``scores`` by side and the cards he ``thrown`` to the crib (none shown when unknown), filled by the engine's
    own ``_fill_state``."""
    from .contract import S_SIZE
    from .play import ROOM_BITS, _fill_state

    state = np.zeros(S_SIZE, dtype=np.int64)
    go_mask = sum(1 << r for r in at.go)
    room = sum(r << (ROOM_BITS * who) for who, r in enumerate(at.room))
    seat = (dealer + role) % rules.players
    position = (at.count, at.count_start, n_played, go_mask, room)
    shown = np.full(2, -1, dtype=np.int64)
    shown[: len(thrown[:2])] = thrown[:2]
    _fill_state(state, rules.to_kernel(), role, seat, dealer, scores, starter, position, shown)
    return state


@dataclass(frozen=True, init=False)
class PegSituation:
    """One pegging decision of one player (module docstring).

    ``hand``     the cards I still hold (readable, e.g. ``"7H 8C 5D"``, or ids)
    ``played``   every card laid in this deal, in order
    ``role``     my place from the dealer: ``dealer``, ``pone`` (three- and four-hand: ROLE_NAMES) or 0..3
    ``starter``  the card turned up
    ``thrown``   the cards I laid out for the crib (may be left out, except with a score)
    ``score``    ``(mine, theirs)`` now, the points pegged so far in this deal included; None if not given
    ``mine``     the played cards that are mine, when the order of play does not say
    ``laid_by``  the role of each played card's player (instead of ``mine``)
    ``dealer``   the dealer's seat (what the engine shows a policy; 0 by default)
    """

    # the facts as kept, checked (the constructor takes them as a reader writes them)
    hand: tuple[int, ...]
    played: tuple[int, ...]
    role: int
    starter: int
    thrown: tuple[int, ...]
    score: tuple[int, ...] | None
    rules: Rules
    mine: None  # what it says is kept in laid_by
    laid_by: tuple[int, ...]
    dealer: int
    at: Walk = field(init=False, repr=False, compare=False)

    DECISION = "peg"

    def __init__(
        self,
        hand: Cards,
        played: Cards = (),
        role: int | str = "pone",
        starter: Card | None = None,
        thrown: Cards = (),
        score: Sequence[int] | None = None,
        rules: Rules | str = "six-card",
        mine: Cards | None = None,
        laid_by: Sequence[int | str] | None = None,
        dealer: int = 0,
    ) -> None:
        rules = get_rules(rules)
        role = role_of(rules, role)
        hand, played = tuple(parse_cards(hand)), tuple(parse_cards(played))
        thrown = tuple(parse_cards(thrown))
        if starter is None:
            raise ValueError("the starter is needed: the play begins after it is turned up")
        starter = _card(starter)
        check_disjoint(hand, played, [starter], thrown)
        if not hand:
            raise ValueError("you hold no cards: there is no decision")
        if len(hand) > rules.kept:
            raise ValueError(f"{rules.name} players keep {rules.kept} cards, you hold {len(hand)}")
        if thrown and len(thrown) != rules.throw:
            raise ValueError(f"{rules.name} players lay out {rules.throw} card(s) for the crib, got {len(thrown)}")
        if len(played) + len(hand) > rules.active * rules.kept:
            raise ValueError(
                f"{len(played)} cards laid and {len(hand)} held: more than the {rules.active} "
                f"players' {rules.active * rules.kept} cards"
            )
        if score is not None:
            given, score = score, tuple(int(s) for s in score)
            if len(score) != 2 or not all(0 <= s < rules.target for s in score):
                raise ValueError(
                    f"the score is (mine, theirs), each 0..{rules.target - 1} for a game to "
                    f"{rules.target}, got {given!r}"
                )
            if not thrown:
                raise ValueError(
                    "with a score, give the cards you laid out for the crib (thrown): the crib "
                    "is part of the chance of winning"
                )
        if not 0 <= int(dealer) < rules.players:
            raise ValueError(f"the dealer's seat must be 0..{rules.players - 1}, got {dealer}")
        if mine is not None and laid_by is not None:
            raise ValueError("give mine or laid_by, not both")
        if mine is not None:
            yours = set(parse_cards(mine))
            if not yours <= set(played):
                raise ValueError(f"{format_cards(sorted(yours - set(played)))} in mine but not played")
            if rules.active != 2:
                raise ValueError(f"mine says only which cards are yours: with {rules.active} players give laid_by")
            laid_by = tuple(role if c in yours else 1 - role for c in played)
        elif laid_by is not None:
            laid_by = tuple(role_of(rules, r) for r in laid_by)
            if len(laid_by) != len(played):
                raise ValueError(f"laid_by names {len(laid_by)} players for {len(played)} cards laid")
        if laid_by is None:
            laid_by, at = resolve_laid_by(rules, role, hand, played)
        else:
            if sum(r == role for r in laid_by) != rules.kept - len(hand):
                raise ValueError(
                    f"you keep {rules.kept} cards and hold {len(hand)}, so you laid "
                    f"{rules.kept - len(hand)}, not {sum(r == role for r in laid_by)}"
                )
            at = walk(rules, role, hand, played, laid_by)
        for name, value in (
            ("rules", rules),
            ("role", role),
            ("hand", hand),
            ("played", played),
            ("thrown", thrown),
            ("starter", starter),
            ("score", score),
            ("laid_by", laid_by),
            ("at", at),
            ("dealer", int(dealer)),
            ("mine", None),
        ):
            object.__setattr__(self, name, value)

    @property
    def count(self) -> int:
        return self.at.count

    @property
    def seat(self) -> int:
        return (self.dealer + self.role) % self.rules.players

    @property
    def kept(self) -> tuple:
        """All the cards I kept, those held and those I laid."""
        return self.hand + tuple(c for c, r in zip(self.played, self.laid_by) if r == self.role)

    def left(self) -> list[int]:
        """Cards each role still holds (mine included)."""
        return [
            len(self.hand) if r == self.role else self.rules.kept - sum(x == r for x in self.laid_by)
            for r in range(self.rules.active)
        ]

    def legal(self) -> tuple:
        """The cards I may lay: those that keep the count within thirty-one."""
        return tuple(c for c in self.hand if self.count + _value(c) <= MAX_COUNT)

    def scores_by_side(self) -> np.ndarray:
        """The engine's scores array: my side on my score, every other side on theirs (the state keeps
        only the best opposing score)."""
        from .play import side_of

        mine, theirs = self.score or (0, 0)
        scores = np.full(MAX_SEATS, theirs, dtype=np.int64)
        scores[side_of(self.rules.to_kernel(), self.seat)] = mine
        return scores

    def to_state(self) -> PegState:
        """The arrays a pegging policy sees, the state filled by the engine's own ``_fill_state``."""
        rules = self.rules
        kernel_rules = rules.to_kernel()
        hand = np.full(rules.kept, -1, dtype=np.int64)
        hand[: len(self.hand)] = self.hand
        played = np.full(rules.active * rules.kept, -1, dtype=np.int64)
        played[: len(self.played)] = self.played
        state = peg_state(
            rules, self.role, self.dealer, self.scores_by_side(), self.starter, self.at, len(self.played), self.thrown
        )
        return PegState(hand, played, state, kernel_rules)

    def decide(self, policy, rng) -> str:
        """The card ``policy`` (a :class:`sims.core.policies.Policy`) lays here, drawing from ``rng``, as the
        engine calls it; an illegal answer is a PolicyError."""
        from ..core.errors import PolicyError
        from .contract import is_legal_play

        arrays = self.to_state()
        i = int(policy.fn(arrays.hand, arrays.played, arrays.state, arrays.rules, rng, policy.params_array()))
        if not is_legal_play(arrays.hand, i, self.count):
            raise PolicyError(
                f"peg policy {policy.label()!r} chose index {i} with count {self.count} and "
                f"{format_cards(self.hand)} in hand: it must pick a card still held that keeps the "
                f"count within 31"
            )
        return self.choice_of(i, arrays.hand)

    def answer(self, choice: str, hand=None) -> int:
        """The engine's answer laying ``choice`` (e.g. ``"7H"``): its position in ``hand`` (the engine's hand
        array; default :meth:`to_state`'s); a one-line ValueError unless it is a legal card."""
        from ..core.choices import card_index

        return card_index(
            choice,
            self.to_state().hand if hand is None else hand,
            self.legal(),
            "peg",
            "a card held that keeps the count within 31",
        )

    def choice_of(self, answer: int, hand=None) -> str:
        """The card the engine's ``answer`` lays (the inverse of :meth:`answer`)."""
        from ..core.choices import card_of

        return card_of(answer, self.to_state().hand if hand is None else hand)

    def describe(self) -> dict:
        """The situation in readable cards (JSON-able)."""
        names = ROLE_NAMES[self.rules.active]
        return {
            "rules": self.rules.name,
            "role": names[self.role],
            "hand": format_cards(self.hand).split(),
            "played": [{"card": format_card(c), "by": names[r]} for c, r in zip(self.played, self.laid_by)],
            "count": self.count,
            "go": sorted(names[r] for r in self.at.go),
            "starter": format_card(self.starter),
            "thrown": format_cards(self.thrown).split(),
            "score": list(self.score) if self.score else None,
        }


class DiscardState(NamedTuple):
    """What the kernel's discard policy is called with (besides its stream and parameters)."""

    hand: np.ndarray  # int64[cards_dealt], in the order dealt
    state: np.ndarray  # int64[S_SIZE]
    rules: np.ndarray  # int64[R_SIZE]


@dataclass(frozen=True, init=False)
class DiscardSituation:
    """Laying out for the crib (Mottoes): the cards dealt to me, in the order given, my place from the
    dealer and the score before the deal, ``(mine, theirs)``, or None."""

    # the facts as kept, checked (the constructor takes them as a reader writes them)
    hand: tuple[int, ...]
    role: int
    score: tuple[int, ...] | None
    rules: Rules
    dealer: int

    DECISION = "discard"

    def __init__(
        self,
        hand: Cards,
        role: int | str = "pone",
        score: Sequence[int] | None = None,
        rules: Rules | str = "six-card",
        dealer: int = 0,
    ) -> None:
        rules = get_rules(rules)
        role = role_of(rules, role)
        hand = tuple(parse_cards(hand))
        if len(hand) != rules.cards_dealt:
            raise ValueError(f"{rules.name} deals {rules.cards_dealt} cards to each player, got {len(hand)}")
        if score is not None:
            given, score = score, tuple(int(s) for s in score)
            if len(score) != 2 or not all(0 <= s < rules.target for s in score):
                raise ValueError(
                    f"the score is (mine, theirs), each 0..{rules.target - 1} for a game to "
                    f"{rules.target}, got {given!r}"
                )
        if not 0 <= int(dealer) < rules.players:
            raise ValueError(f"the dealer's seat must be 0..{rules.players - 1}, got {dealer}")
        for name, value in (
            ("rules", rules),
            ("role", role),
            ("hand", hand),
            ("score", score),
            ("dealer", int(dealer)),
        ):
            object.__setattr__(self, name, value)

    @property
    def seat(self) -> int:
        return (self.dealer + self.role) % self.rules.players

    def to_state(self) -> DiscardState:
        """The arrays a discard policy sees, the state filled by the engine's own ``_fill_state`` (no
        starter, no count, no throw yet)."""
        from .contract import S_SIZE
        from .play import _fill_state, side_of

        kernel_rules = self.rules.to_kernel()
        mine, theirs = self.score or (0, 0)
        scores = np.full(MAX_SEATS, theirs, dtype=np.int64)
        scores[side_of(kernel_rules, self.seat)] = mine
        state = np.zeros(S_SIZE, dtype=np.int64)
        _fill_state(
            state,
            kernel_rules,
            self.role,
            self.seat,
            self.dealer,
            scores,
            -1,
            (0, 0, 0, 0, 0),
            np.full(2, -1, dtype=np.int64),
        )
        return DiscardState(np.asarray(self.hand, dtype=np.int64), state, kernel_rules)

    def decide(self, policy, rng) -> str:
        """The cards ``policy`` throws (readable, in the order dealt), as the engine calls it."""
        from ..core.errors import PolicyError
        from .contract import is_valid_throw

        arrays = self.to_state()
        mask = int(policy.fn(arrays.hand, arrays.state, arrays.rules, rng, policy.params_array()))
        if not is_valid_throw(mask, len(self.hand), self.rules.throw):
            raise PolicyError(
                f"discard policy {policy.label()!r} returned mask {mask} for hand "
                f"{format_cards(self.hand)}: it must name exactly {self.rules.throw} of the "
                f"{len(self.hand)} cards"
            )
        return self.choice_of(mask)

    def answer(self, choice: str, hand=None) -> int:
        """The engine's answer throwing ``choice`` (e.g. ``"JD KD"``): the mask of their positions in the hand;
        a one-line ValueError unless it names exactly the cards laid out of those held."""
        from ..core.choices import cards_mask

        mask = cards_mask(choice, self.hand if hand is None else hand, "discard")
        if mask.bit_count() != self.rules.throw:
            raise ValueError(f"{self.rules.name} players lay out {self.rules.throw} cards for the crib, got {choice!r}")
        return mask

    def choice_of(self, answer: int, hand=None) -> str:
        """The cards the engine's mask ``answer`` throws, in the order dealt (the inverse of :meth:`answer`)."""
        from ..core.choices import cards_of

        return cards_of(answer, self.hand if hand is None else hand)

    def describe(self) -> dict:
        return {
            "rules": self.rules.name,
            "role": ROLE_NAMES[self.rules.active][self.role],
            "hand": format_cards(self.hand).split(),
            "score": list(self.score) if self.score else None,
        }


def from_engine(decision: str, hand, played, state, rules, laid_by=None):
    """The public situation of an engine decision, from the arrays its policy sees (``played`` None for a
    discard); ``laid_by`` the role of each card laid, needed only when the order of play does not say."""
    from .contract import S_DEALER, S_MY_SCORE, S_N_PLAYED, S_OPP_SCORE, S_ROLE, S_STARTER, S_THROWN

    facts = dict(
        hand=[int(c) for c in hand if c >= 0],
        role=int(state[S_ROLE]),
        rules=rules,
        score=(int(state[S_MY_SCORE]), int(state[S_OPP_SCORE])),
        dealer=int(state[S_DEALER]),
    )
    if decision == "discard":
        return DiscardSituation(**facts)
    facts.update(
        played=[int(c) for c in played[: int(state[S_N_PLAYED])]],
        starter=int(state[S_STARTER]),
        thrown=[int(c) for c in state[S_THROWN : S_THROWN + 2] if c >= 0],
    )
    try:
        return PegSituation(**facts)  # who laid which card, from the rules of the play
    except ValueError as exc:
        if laid_by is None or "ambiguous" not in str(exc):
            raise
    return PegSituation(**facts, laid_by=laid_by)
