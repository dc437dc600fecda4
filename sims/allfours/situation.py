"""All Fours decisions as a player at the table knows them: :class:`BegSituation`, :class:`AnswerSituation`,
:class:`PlaySituation`.

The public facts of one decision (Sections 87-96 §91-94, Mottoes "Laws of All-Fours",
RULES.md): the rules, my place from the dealer, my cards, every card turned up
(the first for trump, then one for each time the cards were run), whether the
eldest begged and whether the dealer gave one, every card played this hand in
order, and the score.  Who played which card follows from the laws of the play,
which the situation checks: the eldest leads the first trick, the winner of a
trick leads the next (the highest trump, else the highest card of the suit led),
a player holding the suit led follows it or trumps (law iii), and a player who
has shown himself void in a suit (by playing another plain card to it) cannot play
it later.

The score is ``(mine, theirs)`` *now*: a knave turned up (one to the dealer) and
the gift ("take one": one to the eldest) are already in it.

:meth:`to_state` builds the arrays the kernel's policy is called with (the hand
with -1 for each card played, the cards played with their players, the state of
:mod:`sims.allfours.contract`), as the engine fills them; a replay test checks them
against the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from ..cards import Card, Cards, check_disjoint, format_card, format_cards, parse_cards
from . import reference
from .cards import SUIT_NAMES
from .contract import (
    P_CARD,
    P_ROLE,
    S_BEGGED,
    S_DEALER,
    S_DISCARDED,
    S_HELD,
    S_LEAD_SUIT,
    S_MY_SCORE,
    S_N_PLAYED,
    S_OPP_SCORE,
    S_PLAYERS,
    S_ROLE,
    S_RUNS,
    S_SEAT,
    S_SIZE,
    S_TARGET,
    S_TRICK_START,
    S_TRUMP,
    S_TURNED,
    S_TURNED_MASK,
)
from .rules import HAND, PACKET, Rules, get_rules

ROLE_NAMES = {2: ("dealer", "eldest"), 4: ("dealer", "eldest", "dealer_partner", "eldest_partner")}


class State(NamedTuple):
    """What an All Fours policy is called with (besides its stream and parameters)."""

    hand: np.ndarray  # int64[cards dealt]: the cards held, then -1 for each card played
    played: np.ndarray | None  # int64[2, players * hand_max]: P_CARD, P_ROLE of each card played, then -1;
    # None but for the play
    state: np.ndarray  # int64[S_SIZE]
    rules: np.ndarray  # int64[R_SIZE]


def role_of(rules: Rules, role) -> int:
    """Place from the dealer of a role name (``dealer``, ``eldest``, ``dealer_partner``, ``eldest_partner``)
    or number."""
    names = ROLE_NAMES[rules.players]
    if isinstance(role, (int, np.integer)) and not isinstance(role, bool):
        if not 0 <= role < rules.players:
            raise ValueError(f"role must be 0..{rules.players - 1} for {rules.name}, got {role}")
        return int(role)
    if role not in names:
        raise ValueError(f"unknown role {role!r} for {rules.name}; choose from {', '.join(names)}")
    return names.index(role)


def legal_cards(hand, lead_suit: int | None, trump: int, may_trump: bool) -> list[int]:
    """Law iii: the cards of ``hand`` that may be played (the leader any; holding the suit led, it or a
    trump (``may_trump``); void in it, any)."""
    return [hand[i] for i in reference.legal_cards(list(hand), lead_suit, trump, may_trump)]


class _Facts:
    """The facts every decision shares: parsed, checked, and put into the state as the engine does."""

    # as kept, checked (each situation's constructor takes them as a reader writes them)
    hand: tuple[int, ...]
    turned: tuple[int, ...]
    role: int
    score: tuple[int, ...] | None
    rules: Rules
    dealer: int
    begged: bool
    gave: bool

    def _common(
        self,
        role: int,
        hand_size: tuple[int, ...],
        hand: Cards,
        turned: Card | Cards,
        score: Sequence[int] | None,
        rules: Rules | str,
        dealer: int,
    ) -> None:
        rules = get_rules(rules)
        hand = tuple(parse_cards(hand))
        turned = tuple(parse_cards([turned] if isinstance(turned, (int, np.integer)) else turned))
        if not turned:
            raise ValueError("the card turned up for trump is needed")
        if len(hand) not in hand_size:
            raise ValueError(
                f"you hold {len(hand)} cards; here you hold {' or '.join(str(n) for n in sorted(set(hand_size)))}"
            )
        if not 0 <= int(dealer) < rules.players:
            raise ValueError(f"the dealer's seat must be 0..{rules.players - 1}, got {dealer}")
        if score is not None:
            given, score = score, tuple(int(s) for s in score)
            if len(score) != 2 or not all(0 <= s < rules.target for s in score):
                raise ValueError(
                    f"the score is (mine, theirs), each 0..{rules.target - 1} for a game to "
                    f"{rules.target}, got {given!r}"
                )
        for name, value in (
            ("rules", rules),
            ("role", role),
            ("hand", hand),
            ("turned", turned),
            ("score", score),
            ("dealer", int(dealer)),
        ):
            object.__setattr__(self, name, value)

    @property
    def seat(self) -> int:
        return (self.dealer + self.role) % self.rules.players

    @property
    def trump(self) -> int:
        return self.turned[-1] & 3

    def scored(self) -> tuple[int, int]:
        """Points of this hand already scored, ``(mine, theirs)``: a knave turned up (the first always, those
        turned running the cards with ``run_knaves``) to the dealer, and the gift to the eldest."""
        knaves = sum(c >> 2 == reference.KNAVE for c in self.turned[:1]) + (
            sum(c >> 2 == reference.KNAVE for c in self.turned[1:]) if self.rules.run_knaves else 0
        )
        sides = [0, 0]  # by side role: the dealer's, the eldest's
        sides[0] += knaves
        sides[1] += int(self.gave)
        return sides[self.role % 2], sides[1 - self.role % 2]

    def _base_state(self, begged: int, runs: int, held: int) -> np.ndarray:
        state = np.zeros(S_SIZE, dtype=np.int64)
        mine, theirs = self.score or (0, 0)
        state[S_SEAT], state[S_ROLE], state[S_DEALER] = self.seat, self.role, self.dealer
        state[S_PLAYERS], state[S_TARGET] = self.rules.players, self.rules.target
        state[S_TRUMP], state[S_TURNED] = self.trump, self.turned[-1]
        state[S_TURNED_MASK] = sum(1 << c for c in self.turned)
        state[S_BEGGED], state[S_RUNS], state[S_HELD] = begged, runs, held
        state[S_MY_SCORE], state[S_OPP_SCORE] = mine, theirs
        state[S_LEAD_SUIT] = -1
        state[S_DISCARDED] = sum(1 << c for c in getattr(self, "discarded", ()))
        return state

    def _check_deal(self):
        """The beg, the answer and the cards turned agree (Sections 87-96 §93 v: the cards are run until a new suit
        turns up)."""
        rules, turned, runs = self.rules, self.turned, len(self.turned) - 1
        if (self.begged or self.gave) and not rules.begging:
            raise ValueError(f"rules {rules.name!r} have no begging (begging=false)")
        if self.gave and not self.begged:
            raise ValueError("the dealer gives one only when the eldest begs")
        if runs and (not self.begged or self.gave):
            raise ValueError(
                "the cards are run (more cards turned up) only when the eldest begs and the dealer does not give one"
            )
        if self.begged and not self.gave and not runs:
            raise ValueError(
                "the eldest begged and the dealer did not give one, so the cards were run: give every "
                "card turned up, in order"
            )
        if any(c & 3 != turned[0] & 3 for c in turned[1:-1]) or (runs and turned[-1] & 3 == turned[0] & 3):
            raise ValueError(
                "the cards are run until a new suit turns up: every card turned but the last is of "
                "the first suit, the last of another"
            )

    @property
    def dealt(self) -> int:
        """Cards dealt to each player: six, three more for each run."""
        return HAND + PACKET * (len(self.turned) - 1)

    def _discards(self, allowed: range, discarded: Cards) -> None:
        """My own cards thrown out (discard_to_six), parsed and checked."""
        discarded = tuple(parse_cards(discarded))
        if len(discarded) not in allowed:
            raise ValueError(
                f"with discard_to_six you throw out {self.dealt - HAND} cards after the cards are run "
                f"(none otherwise); {len(discarded)} given as thrown out"
            )
        check_disjoint(self.hand, discarded, self.turned, getattr(self, "played", ()))
        object.__setattr__(self, "discarded", discarded)

    def _check_score(self):
        if self.score is not None and any(s < k for s, k in zip(self.score, self.scored())):
            mine, theirs = self.scored()
            raise ValueError(
                f"the score {self.score[0]}-{self.score[1]} is less than this hand has already scored "
                f"({mine}-{theirs}: the knave turned up, the gift)"
            )


@dataclass(frozen=True, init=False)
class BegSituation(_Facts):
    """The eldest stands or begs (Sections 87-96 §93 v): his six cards, the card turned up, the score."""

    hand: tuple[int, ...]
    turned: tuple[int, ...]
    score: tuple[int, ...] | None
    rules: Rules
    dealer: int

    DECISION = "beg"
    CHOICES = ("stand", "beg")  # by the policy's answer, STAND 0 and BEG 1
    ROLE = 1  # the eldest begs
    begged = False
    gave = False

    def __init__(
        self,
        hand: Cards,
        turned: Card | Cards,
        score: Sequence[int] | None = None,
        rules: Rules | str = "two-hand",
        dealer: int = 0,
    ) -> None:
        self._common(self.ROLE, (HAND,), hand, turned, score, rules, dealer)
        if len(self.turned) != 1:
            raise ValueError(f"the {self.DECISION} comes on the first card turned up: give one card")
        if not self.rules.begging:
            raise ValueError(f"rules {self.rules.name!r} have no begging (begging=false)")
        check_disjoint(self.hand, self.turned)
        self._check_score()

    def to_state(self) -> State:
        return State(
            np.asarray(self.hand, dtype=np.int64),
            None,
            self._base_state(int(self.begged), 0, HAND),
            self.rules.to_kernel(),
        )

    def decide(self, policy, rng) -> str:
        """The answer of ``policy`` (a :class:`sims.core.policies.Policy`) drawing from ``rng``, as the engine
        calls it; anything but 0 or 1 is a PolicyError."""
        from ..core.errors import PolicyError

        arrays = self.to_state()
        answer = int(policy.fn(arrays.hand, arrays.state, arrays.rules, rng, policy.params_array()))
        if answer not in (0, 1):
            raise PolicyError(
                f"{self.DECISION} policy {policy.label()!r} answered {answer} holding "
                f"{format_cards(self.hand)}: it must answer 0 ({self.CHOICES[0]}) or 1 "
                f"({self.CHOICES[1]})"
            )
        return self.choice_of(answer)

    def answer(self, choice: str, hand=None) -> int:
        """The engine's answer to ``choice`` (a word of CHOICES); a one-line ValueError for anything else."""
        from ..core.choices import word_index

        return word_index(choice, {w: i for i, w in enumerate(self.CHOICES)}, self.CHOICES, self.DECISION)

    def choice_of(self, answer: int, hand=None) -> str:
        return self.CHOICES[int(answer)]

    def legal(self) -> tuple:
        return self.CHOICES

    def describe(self) -> dict:
        return _describe(self)


@dataclass(frozen=True, init=False)
class AnswerSituation(BegSituation):
    """The dealer, the eldest having begged, gives one ("take one") or runs the cards (Sections 87-96 §93 v)."""

    DECISION = "answer"
    CHOICES = ("run", "give")  # RUN 0, GIVE 1
    ROLE = 0  # the dealer answers
    begged = True


@dataclass(frozen=True, init=False)
class PlaySituation(_Facts):
    """Which card to play (law iii).

    Parameters
    ----------
    hand
        the cards I hold now (readable, e.g. ``"AH 10H 3C"``, or ids)
    turned
        the card turned up for trump; when the cards were run, every card turned, in order
    played
        every card played this hand, in order (the players follow from the laws)
    role
        my place from the dealer: ``dealer``, ``eldest`` (four-hand: also ``dealer_partner``,
        ``eldest_partner``) or 0..3
    begged
        the eldest begged; ``gave``: the dealer then gave one (else, with a beg, the cards were run)
    score
        ``(mine, theirs)`` now, or None
    dealer
        the dealer's seat (what the engine shows a policy; 0 by default)
    discarded
        with discard_to_six, the cards I threw out after the cards were run
    """

    hand: tuple[int, ...]
    turned: tuple[int, ...]
    played: tuple[int, ...]
    role: int
    begged: bool
    gave: bool
    score: tuple[int, ...] | None
    rules: Rules
    dealer: int
    discarded: tuple[int, ...]
    laid_by: tuple[int, ...] = field(init=False, repr=False, compare=False)  # the role of each card's player
    voids: dict[int, frozenset[int]] = field(init=False, repr=False, compare=False)

    DECISION = "play"

    def __init__(
        self,
        hand: Cards,
        turned: Card | Cards,
        played: Cards = (),
        role: int | str = "eldest",
        begged: bool = False,
        gave: bool = False,
        score: Sequence[int] | None = None,
        rules: Rules | str = "two-hand",
        dealer: int = 0,
        discarded: Cards = (),
    ) -> None:
        rules = get_rules(rules)
        runs = len(parse_cards([turned] if isinstance(turned, (int, np.integer)) else turned)) - 1
        held = HAND if rules.discard_to_six else HAND + PACKET * max(runs, 0)
        self._common(role_of(rules, role), tuple(range(1, held + 1)), hand, turned, score, rules, dealer)
        played = tuple(parse_cards(played))
        check_disjoint(self.hand, played, self.turned)
        for name, value in (("played", played), ("begged", bool(begged)), ("gave", bool(gave))):
            object.__setattr__(self, name, value)
        self._check_deal()
        thrown = self.dealt - self.held
        self._discards(range(thrown, thrown + 1), discarded)
        laid_by, voids = self._walk(self.held)
        object.__setattr__(self, "laid_by", laid_by)
        object.__setattr__(self, "voids", voids)
        self._check_score()

    @property
    def held(self) -> int:
        """Cards each player plays, those dealt, or six with discard_to_six."""
        return HAND if self.rules.discard_to_six else self.dealt

    def _walk(self, held: int) -> tuple:
        """The player of every card played, by the laws of the module docstring, checked (my turn now), and
        the suits each other player has shown himself void in."""
        n, trump, may_trump = self.rules.players, self.trump, self.rules.may_trump
        names = ROLE_NAMES[n]
        roles = _roles(self.played, n, trump)
        count = [0] * n
        voids: list[set[int]] = [set() for _ in range(n)]
        for k, (card, role) in enumerate(zip(self.played, roles)):
            lead = self.played[k - k % n] & 3 if k % n else None
            if card & 3 in voids[role]:
                raise ValueError(
                    f"illegal play: the {names[role]} showed he had no {SUIT_NAMES[card & 3]} "
                    f"earlier, so cannot play {format_card(card)}"
                )
            if role == self.role:
                holding = list(self.hand) + [c for c, r in zip(self.played[k:], roles[k:]) if r == role]
                if card not in legal_cards(holding, lead, trump, may_trump):
                    raise ValueError(
                        f"illegal play: you held the suit led, so you could not play "
                        f"{format_card(card)}, neither of it nor a trump (law iii)"
                    )
            if lead is not None and card & 3 != lead and (card & 3 != trump or not may_trump):
                voids[role].add(lead)
            count[role] += 1
            if count[role] > held:
                raise ValueError(f"impossible play: the {names[role]} would play more than his {held} cards")
        if len(self.played) >= n * held:
            raise ValueError("the hand is over: every card has been played")
        k = len(self.played) % n
        if k or not self.played:
            to_play = (roles[-k] + k) % n if k else 1 % n
        else:  # the winner of the last trick leads
            last = list(zip(roles[-n:], self.played[-n:]))
            to_play = last[reference.trick_winner(last, trump)][0]
        if to_play != self.role:
            raise ValueError(
                f"illegal turn: after {format_cards(self.played) or 'no card'} it is the "
                f"{names[to_play]}'s turn to play, not yours ({names[self.role]})"
            )
        if count[self.role] + len(self.hand) != held:
            raise ValueError(
                f"you were dealt {held} cards and played {count[self.role]}, so you hold "
                f"{held - count[self.role]}, not {len(self.hand)}"
            )
        return tuple(roles), {r: frozenset(v) for r, v in enumerate(voids) if v and r != self.role}

    @property
    def trick_start(self) -> int:
        return len(self.played) - len(self.played) % self.rules.players

    @property
    def lead_suit(self) -> int | None:
        return self.played[self.trick_start] & 3 if len(self.played) > self.trick_start else None

    def legal(self) -> tuple:
        """The cards I may play (law iii)."""
        return tuple(legal_cards(self.hand, self.lead_suit, self.trump, self.rules.may_trump))

    def to_state(self) -> State:
        rules = self.rules
        hand = np.full(self.dealt, -1, dtype=np.int64)
        hand[: len(self.hand)] = self.hand
        played = np.full((2, rules.players * rules.hand_max), -1, dtype=np.int64)
        played[P_CARD, : len(self.played)] = self.played
        played[P_ROLE, : len(self.played)] = self.laid_by
        state = self._base_state(int(self.begged), len(self.turned) - 1, self.held)
        state[S_N_PLAYED], state[S_TRICK_START] = len(self.played), self.trick_start
        state[S_LEAD_SUIT] = -1 if self.lead_suit is None else self.lead_suit
        return State(hand, played, state, rules.to_kernel())

    def decide(self, policy, rng) -> str:
        """The card ``policy`` plays here, drawing from ``rng``, as the engine calls it (a player with one card
        he may play is not asked); an illegal answer is a PolicyError."""
        from ..core.advice import card_answer

        return card_answer(self, policy, rng, self.legal(), "law iii")

    def answer(self, choice: str, hand=None) -> int:
        """The engine's answer playing ``choice`` (e.g. ``"7H"``): its position in ``hand`` (the engine's hand
        array; default :meth:`to_state`'s); a one-line ValueError unless law iii allows it."""
        from ..core.choices import card_index

        return card_index(
            choice,
            self.to_state().hand if hand is None else hand,
            self.legal(),
            "play",
            "law iii: follow suit or trump",
        )

    def choice_of(self, answer: int, hand=None) -> str:
        from ..core.choices import card_of

        return card_of(answer, self.to_state().hand if hand is None else hand)

    def describe(self) -> dict:
        out = _describe(self)
        names = ROLE_NAMES[self.rules.players]
        out.update(
            played=[{"card": format_card(c), "by": names[r]} for c, r in zip(self.played, self.laid_by)],
            begged=self.begged,
            gave=self.gave,
        )
        if self.discarded:
            out["discarded"] = format_cards(self.discarded).split()
        return out


@dataclass(frozen=True, init=False)
class DiscardSituation(_Facts):
    """With discard_to_six, after the cards were run: which card to throw out (each player keeps six, the
    eldest first).  ``hand`` the cards I hold, ``discarded`` those I have thrown out already."""

    hand: tuple[int, ...]
    turned: tuple[int, ...]
    role: int
    discarded: tuple[int, ...]
    score: tuple[int, ...] | None
    rules: Rules
    dealer: int

    DECISION = "discard"
    begged = True
    gave = False

    def __init__(
        self,
        hand: Cards,
        turned: Card | Cards,
        role: int | str = "eldest",
        discarded: Cards = (),
        score: Sequence[int] | None = None,
        rules: Rules | str = "two-hand",
        dealer: int = 0,
    ) -> None:
        rules = get_rules(rules)
        dealt = HAND + PACKET * (len(parse_cards([turned] if isinstance(turned, (int, np.integer)) else turned)) - 1)
        self._common(role_of(rules, role), tuple(range(HAND + 1, dealt + 1)), hand, turned, score, rules, dealer)
        if not self.rules.discard_to_six:
            raise ValueError(f"rules {self.rules.name!r} keep every card (discard_to_six=false)")
        self._check_deal()
        self._discards(range(0, self.dealt - HAND), discarded)
        if len(self.hand) + len(self.discarded) != self.dealt:
            raise ValueError(
                f"you were dealt {self.dealt} cards: {len(self.hand)} held and {len(self.discarded)} "
                f"thrown out do not make them"
            )
        self._check_score()

    def legal(self) -> tuple:
        return self.hand

    def to_state(self) -> State:
        hand = np.full(self.dealt, -1, dtype=np.int64)
        hand[: len(self.hand)] = self.hand
        return State(hand, None, self._base_state(1, len(self.turned) - 1, self.dealt), self.rules.to_kernel())

    def decide(self, policy, rng) -> str:
        """The card ``policy`` throws out, as the engine calls it; anything but a card held is a PolicyError."""
        from ..core.errors import PolicyError

        arrays = self.to_state()
        i = int(policy.fn(arrays.hand, arrays.state, arrays.rules, rng, policy.params_array()))
        if not (0 <= i < len(self.hand)):
            raise PolicyError(
                f"discard policy {policy.label()!r} chose index {i} holding {format_cards(self.hand)}: "
                f"it must pick a card held"
            )
        return self.choice_of(i, arrays.hand)

    def answer(self, choice: str, hand=None) -> int:
        """The engine's answer throwing out ``choice`` (one card held): its position in ``hand``."""
        from ..core.choices import card_index

        return card_index(choice, self.to_state().hand if hand is None else hand, self.hand, "discard", "a card held")

    def choice_of(self, answer: int, hand=None) -> str:
        from ..core.choices import card_of

        return card_of(answer, self.to_state().hand if hand is None else hand)

    def describe(self) -> dict:
        return {**_describe(self), "discarded": format_cards(self.discarded).split()}


def _roles(played, n: int, trump: int) -> list[int]:
    """The player of each card of ``played``: the eldest leads, the winner of each trick leads the next."""
    roles: list[int] = []
    trick: list[tuple[int, int]] = []  # (role, card)
    leader = 1 % n
    for card in played:
        role = (leader + len(trick)) % n
        roles.append(role)
        trick.append((role, card))
        if len(trick) == n:
            leader, trick = trick[reference.trick_winner(trick, trump)][0], []
    return roles


def _describe(situation) -> dict:
    """The situation in readable cards (JSON-able)."""
    return {
        "decision": situation.DECISION,
        "rules": situation.rules.name,
        "role": ROLE_NAMES[situation.rules.players][situation.role],
        "hand": format_cards(situation.hand).split(),
        "turned": format_cards(situation.turned).split(),
        "trump": "CDHS"[situation.trump],
        "score": list(situation.score) if situation.score else None,
    }


def _turned(state) -> list[int]:
    """The cards turned up, from the mask every player sees: those of the first suit, then the last."""
    last = int(state[S_TURNED])
    return [c for c in range(52) if (int(state[S_TURNED_MASK]) >> c) & 1 and c != last] + [last]


def from_engine(decision: str, hand, played, state, rules, laid_by=None):
    """The public situation of an engine decision, from the arrays its policy sees (``played`` None but for
    the play); ``laid_by`` is not needed (the laws say who played each card)."""
    held = [int(c) for c in hand if c >= 0]
    facts: dict[str, Any] = dict(
        score=(int(state[S_MY_SCORE]), int(state[S_OPP_SCORE])), rules=rules, dealer=int(state[S_DEALER])
    )
    discarded = [c for c in range(52) if (int(state[S_DISCARDED]) >> c) & 1]
    if decision == "discard":
        return DiscardSituation(held, _turned(state), int(state[S_ROLE]), discarded, **facts)
    if decision == "beg":
        return BegSituation(held, _turned(state), **facts)
    if decision == "answer":
        return AnswerSituation(held, _turned(state), **facts)
    begged = bool(state[S_BEGGED])
    return PlaySituation(
        held,
        _turned(state),
        played[P_CARD, : int(state[S_N_PLAYED])].tolist(),
        int(state[S_ROLE]),
        begged=begged,
        gave=begged and not state[S_RUNS],
        discarded=discarded,
        **facts,
    )
