"""Loo decisions as a player at the table knows them: :class:`DeclareSituation`, :class:`ExchangeSituation`,
:class:`CardSituation`.

The public facts of one decision (Mottoes "Three-Card Loo", "Five-Card Loo",
Sections 87-96 §95-96, RULES.md): the rules (players, stake, limited or unlimited), my
place from the dealer, my cards, the card turned for trump, the money ``carry``
held over into this pool from the last deal (0: a clean deal, a *single* under
``single = always-first``), what each player before me declared in turn from the
dealer's left (``pass``, ``play``, or ``miss`` for "I take the miss"), how many
cards each stander changed (five-card), and the cards played so far in order.
Who played which card follows from the laws, which the situation checks: the
first stander on the dealer's left leads, the winner of a trick leads the next, and
the others follow in turn; my own cards obey the laws of following and heading
(:class:`sims.loo.reference.Laws`), and a player who did not follow the suit led has
none of it.

``hand`` is my cards in hand order; in the play, ``-`` (or -1) may stand where a
card already played lay, so the arrays are exactly the engine's (the order of the
cards decides ties between equal choices, and which cards a mask names).
:meth:`to_state` builds the arrays the kernel's policy is called with, as the engine
fills them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import numpy as np

from ..cards import Card, Cards, check_disjoint, format_card, format_cards, parse_cards
from .contract import (
    DECLARATIONS,
    MAX_PLAYS,
    MAX_SEATS,
    MISS,
    PASS,
    PLAY,
    S_BEST,
    S_DEALER,
    S_DEALER_CHOICE,
    S_DECLARED,
    S_EXCHANGED,
    S_LEADER,
    S_LEGAL,
    S_LOO,
    S_MISS,
    S_MISS_TAKER,
    S_N_PLAYED,
    S_N_STOOD,
    S_PACK,
    S_PAM,
    S_PLAYERS,
    S_POOL,
    S_ROLE,
    S_SEAT,
    S_SHARE,
    S_SINGLE,
    S_SIZE,
    S_STAKE,
    S_STOOD,
    S_TRICK,
    S_TRICK_START,
    S_TRICKS,
    S_TRUMP,
    S_TRUMP_SUIT,
    S_WINNING,
)
from .rules import Rules, get_rules

WORDS = {"pass": PASS, "play": PLAY, "miss": MISS, "take the miss": MISS, "stand": PLAY}
EMPTY = ("-", "--", "-1", None, -1)


class State(NamedTuple):
    """What a Loo policy is called with (besides its stream and parameters)."""

    hand: np.ndarray  # int64[cards]: the cards in hand order, -1 where one was played
    played: np.ndarray  # int64[MAX_PLAYS, 2]: (card, role) of every card played, then -1
    state: np.ndarray  # int64[S_SIZE]
    rules: np.ndarray  # int64[R_SIZE]


def role_name(role: int) -> str:
    """``dealer``, ``eldest`` (on his left), then ``player 2``, ``player 3``, ... round to the left."""
    return "dealer" if role == 0 else ("eldest" if role == 1 else f"player {role}")


def role_of(rules: Rules, role) -> int:
    """Place from the dealer: ``dealer`` 0, ``eldest`` 1 (on his left), then 2, 3, ... round the table."""
    if role in ("dealer", "eldest"):
        return 0 if role == "dealer" else 1
    if isinstance(role, str) and role.isdigit():
        role = int(role)
    if isinstance(role, (int, np.integer)) and not isinstance(role, bool) and 0 <= role < rules.players:
        return int(role)
    raise ValueError(
        f"role must be dealer, eldest or 0..{rules.players - 1} (places from the dealer, to his left), got {role!r}"
    )


def _hand(cards: Cards) -> tuple[int, ...]:
    """Cards in hand order, -1 for a place whose card was played (``-``)."""
    tokens = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    ids = [None if t in EMPTY else t for t in tokens]
    parsed = iter(parse_cards([t for t in ids if t is not None]))
    return tuple(-1 if t is None else next(parsed) for t in ids)


def _declarations(declared: Cards) -> tuple[int, ...]:
    """``"pass,play,miss"`` (or a list of words or of PASS/PLAY/MISS) -> PASS/PLAY/MISS."""
    items = declared.replace(",", " ").split() if isinstance(declared, str) else list(declared)
    out = []
    for d in items:
        if isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d in (PASS, PLAY, MISS):
            out.append(int(d))
        elif isinstance(d, str) and d.strip().lower() in WORDS:
            out.append(WORDS[d.strip().lower()])
        else:
            raise ValueError(f"a declaration is pass, play or miss (take the miss), got {d!r}")
    return tuple(out)


def first_illegal(laws, holdings: dict, played, roles, standers: int):
    """The first card of ``played`` that the laws did not allow its player, as ``(index, the cards allowed)``,
    for the players of ``holdings`` (role -> his cards when the play began); None if each was allowed."""
    held = {r: list(h) for r, h in holdings.items()}
    for i, (card, role) in enumerate(zip(played, roles)):
        if role not in held:
            continue
        hand = held[role]
        forced = laws.forced_lead(hand) if i == 0 else None
        allowed = (
            [hand[forced]]
            if forced is not None
            else [hand[j] for j in laws.legal(hand, list(played[i - i % standers : i]))]
        )
        if card not in allowed:
            return i, allowed
        hand[hand.index(card)] = -1
    return None


@dataclass(frozen=True, init=False)
class _Facts:
    """Facts every decision shares (see the module docstring)."""

    # as kept, checked (the constructor takes them as a reader writes them)
    hand: tuple[int, ...]  # -1 for a place whose card was played
    trump: int
    role: int
    declared: tuple[int, ...]  # PASS, PLAY or MISS
    exchanged: tuple[int, ...]
    carry: int
    rules: Rules
    dealer: int
    pool: int = field(init=False, repr=False, compare=False)
    single: bool = field(init=False, repr=False, compare=False)
    standers: tuple[int, ...] = field(init=False, repr=False, compare=False)

    DECISION: ClassVar[str]

    def __init__(
        self,
        hand: Cards,
        trump: Card,
        role: int | str = "eldest",
        declared: Cards = (),
        exchanged: Iterable[int] = (),
        carry: int | None = None,
        rules: Rules | str = "three-card",
        dealer: int = 0,
    ) -> None:
        self._common(None, hand, trump, role, declared, exchanged, carry, rules, dealer)
        self._check()

    def _check(self) -> None:
        """What this decision asks of the facts besides what every decision does."""

    def _common(
        self,
        n_declared: int | None,
        hand: Cards,
        trump: Card,
        role: int | str,
        declared: Cards,
        exchanged: Iterable[int],
        carry: int | None,
        rules: Rules | str,
        dealer: int,
    ) -> None:
        rules = get_rules(rules)
        role = role_of(rules, role)
        hand = _hand(hand)
        trump = parse_cards([trump])[0]
        declared = _declarations(declared)
        exchanged = tuple(int(x) for x in exchanged)
        carry = rules.stake if carry is None else int(carry)
        n, k = rules.players, rules.cards
        if len(hand) != k:
            raise ValueError(f"{rules.name} deals {k} cards to each player, got {len(hand)}")
        check_disjoint([c for c in hand if c >= 0], [trump])
        if not 0 <= int(dealer) < n:
            raise ValueError(f"the dealer's seat must be 0..{n - 1}, got {dealer}")
        if carry < 0 or carry % k:
            raise ValueError(f"carry is the money held over into this pool, a multiple of {k}, got {carry}")
        single = carry == 0 and rules.single == "always-first"
        if single and any(d != PLAY for d in declared):
            raise ValueError("a single (nothing held over): everyone plays, nobody passes or takes the miss")
        order = n if role == 0 else role  # my turn to declare, 1 .. n
        want = order - 1 if n_declared is None else n_declared
        if len(declared) != want:
            raise ValueError(
                f"give the declarations of the {want} player(s) who declared before you in turn from "
                f"the dealer's left, got {len(declared)}"
            )
        if sum(d == MISS for d in declared) > 1 or (MISS in declared and (k != 3 or single)):
            raise ValueError("the miss is taken once at most, in three-card loo, and not in a single")
        standers = [t % n for t, d in zip(range(1, n + 1), declared) if d != PASS]
        if len(exchanged) not in (0, len(standers)) or (exchanged and k != 5):
            raise ValueError(
                f"exchanged: how many cards each stander changed, in turn (five-card), one for each of "
                f"the {len(standers)} standing"
            )
        if any(not 0 <= x <= k for x in exchanged):
            raise ValueError(f"a stander changes 0 to {k} cards, got {list(exchanged)}")
        pool = carry + rules.stake * (n if carry == 0 and rules.single == "stake-all" else 1)
        for name, value in (
            ("rules", rules),
            ("role", role),
            ("hand", hand),
            ("trump", trump),
            ("declared", declared),
            ("exchanged", exchanged or (0,) * len(standers) * (k == 5)),
            ("carry", carry),
            ("dealer", int(dealer)),
            ("pool", pool),
            ("single", single),
            ("standers", tuple(standers)),
        ):
            object.__setattr__(self, name, value)

    @property
    def seat(self) -> int:
        return (self.dealer + self.role) % self.rules.players

    @property
    def laws(self):
        from .reference import Laws

        return Laws.of_deal(self.rules, self.trump)

    @property
    def miss_dealt(self) -> bool:
        return self.rules.cards == 3 and not self.single

    @property
    def loo(self) -> int:
        """What a player looed pays: the stake, or (unlimited) what the pool held up to ``loo_limit``."""
        return min(self.pool, self.rules.loo_limit) if self.rules.unlimited else self.rules.stake

    def _base_state(self) -> np.ndarray:
        """The state after the declarations given, as the engine keeps it."""
        rules, n = self.rules, self.rules.players
        state = np.zeros(S_SIZE, dtype=np.int64)
        state[S_SEAT], state[S_ROLE], state[S_DEALER], state[S_PLAYERS] = self.seat, self.role, self.dealer, n
        state[S_TRUMP], state[S_TRUMP_SUIT], state[S_PAM] = self.trump, self.trump & 3, self.laws.pam
        state[S_POOL], state[S_SHARE], state[S_LOO] = self.pool, self.pool // rules.cards, self.loo
        state[S_STAKE], state[S_SINGLE] = rules.stake, self.single
        state[S_MISS] = self.miss_dealt and MISS not in self.declared
        state[S_MISS_TAKER] = next((t % n for t, d in zip(range(1, n + 1), self.declared) if d == MISS), -1)
        state[S_STOOD] = sum(1 << r for r in self.standers)
        state[S_N_STOOD] = len(self.standers)
        state[S_DECLARED] = len(self.declared)
        # The dealer, one player standing, plays or gives up the stakes (shown until the declarations end).
        state[S_DEALER_CHOICE] = self.role == 0 and not self.single and len(self.standers) == 1
        dealt = rules.cards * (n + self.miss_dealt) + 1
        state[S_PACK] = 52 - dealt - sum(self.exchanged) if rules.cards == 5 else 0
        state[S_LEADER] = state[S_BEST] = state[S_WINNING] = -1
        state[S_EXCHANGED : S_EXCHANGED + MAX_SEATS] = -1
        for r, x in zip(self.standers, self.exchanged):
            state[S_EXCHANGED + r] = x
        return state

    def _arrays(self, state) -> State:
        return State(
            np.asarray(self.hand, dtype=np.int64),
            np.full((MAX_PLAYS, 2), -1, dtype=np.int64),
            state,
            self.rules.to_kernel(),
        )

    def _describe(self) -> dict:
        return {
            "decision": self.DECISION,
            "rules": self.rules.name,
            "players": self.rules.players,
            "role": role_name(self.role),
            "hand": [format_card(c) if c >= 0 else "-" for c in self.hand],
            "trump": format_card(self.trump),
            "pool": self.pool,
            "carry": self.carry,
            "single": self.single,
            "declared": [DECLARATIONS[d] for d in self.declared],
            "exchanged": list(self.exchanged),
        }


@dataclass(frozen=True, init=False)
class DeclareSituation(_Facts):
    """Play, take the miss or pass (five-card: stand or throw up); the dealer's play or give up the stakes when
    one player stands."""

    DECISION = "declare"

    def _check(self) -> None:
        if -1 in self.hand:
            raise ValueError("no card is played before the declarations")
        if self.single:
            raise ValueError("a single (nothing held over): everyone plays, there is nothing to declare")
        if self.role == 0 and not self.standers:
            raise ValueError("nobody stood before the dealer: he takes the pool, there is nothing to declare")
        if self.exchanged and len(self.exchanged) != len(self.standers):
            raise ValueError("exchanged: one count for each stander before you")

    def legal(self) -> tuple:
        """``pass``, ``play`` and, while it lies untaken, ``take the miss``."""
        return tuple(DECLARATIONS[d] for d in (PASS, PLAY, MISS) if d != MISS or self._base_state()[S_MISS])

    def to_state(self) -> State:
        return self._arrays(self._base_state())

    def decide(self, policy, rng) -> str:
        from ..core.errors import PolicyError

        arrays = self.to_state()
        answer = int(policy.fn(arrays.hand, arrays.state, arrays.rules, rng, policy.params_array()))
        if answer not in (PASS, PLAY, MISS) or DECLARATIONS[answer] not in self.legal():
            raise PolicyError(
                f"declare policy {policy.label()!r} answered {answer} holding "
                f"{format_cards(self.hand)}: it must answer {', '.join(self.legal())}"
            )
        return self.choice_of(answer)

    def answer(self, choice: str, hand=None) -> int:
        """The engine's answer to ``choice`` (``pass``, ``play``/``stand``, ``miss``/``take the miss``); a
        one-line ValueError unless it is legal here."""
        from ..core.choices import word_index

        return word_index(choice, WORDS, self.legal(), "declaration")

    def choice_of(self, answer: int, hand=None) -> str:
        return DECLARATIONS[int(answer)]

    def describe(self) -> dict:
        return self._describe()


@dataclass(frozen=True, init=False)
class ExchangeSituation(_Facts):
    """Five-card: having stood, which cards to change for cards from the pack (the cards named, ``-`` none)."""

    DECISION = "exchange"

    def _check(self) -> None:
        if self.rules.cards != 5:
            raise ValueError("only five-card loo exchanges cards")
        if -1 in self.hand:
            raise ValueError("no card is played before the exchanges")
        if self.role == 0 and not self.standers and not self.single:
            raise ValueError("nobody stood before the dealer: he takes the pool, there is nothing to exchange")

    def _stood(self) -> np.ndarray:
        state = self._base_state()
        state[S_STOOD] |= 1 << self.role
        state[S_N_STOOD] += 1
        return state

    def masks(self) -> tuple[int, ...]:
        """Every exchange the pack allows, as masks of hand positions."""
        pack = int(self._stood()[S_PACK])
        return tuple(m for m in range(1 << len(self.hand)) if bin(m).count("1") <= pack)

    def label(self, mask: int) -> str:
        return format_cards(c for i, c in enumerate(self.hand) if (mask >> i) & 1) or "-"

    def legal(self) -> tuple:
        return tuple(self.label(m) for m in self.masks())

    def to_state(self) -> State:
        return self._arrays(self._stood())

    def decide(self, policy, rng) -> str:
        from ..core.errors import PolicyError

        arrays = self.to_state()
        mask = int(policy.fn(arrays.hand, arrays.state, arrays.rules, rng, policy.params_array()))
        if mask not in self.masks():
            raise PolicyError(
                f"exchange policy {policy.label()!r} answered mask {mask} holding "
                f"{format_cards(self.hand)} with {int(arrays.state[S_PACK])} cards in the pack"
            )
        return self.label(mask)

    def answer(self, choice: str, hand=None) -> int:
        """The engine's answer changing ``choice`` (cards held, ``-`` none): the mask of their positions; a
        one-line ValueError unless they are held and the pack has that many."""
        from ..core.choices import cards_mask

        mask = cards_mask(choice, self.hand, "exchange", empty="-")
        if bin(mask).count("1") > int(self._stood()[S_PACK]):  # cards held: legal unless the pack is short
            raise ValueError(f"the pack holds {int(self._stood()[S_PACK])} cards: {choice!r} changes too many")
        return mask

    def choice_of(self, answer: int, hand=None) -> str:
        return self.label(int(answer))

    def describe(self) -> dict:
        return self._describe()


@dataclass(frozen=True, init=False)
class CardSituation(_Facts):
    """Which card to play, where the laws leave a choice.  ``declared`` holds every player's declaration (in a
    single it may be left out: everyone plays); ``played`` the cards played so far, in order."""

    played: tuple[int, ...]
    laid_by: tuple[int, ...] = field(init=False, repr=False, compare=False)  # the role of each card's player
    tricks: dict[int, int] = field(init=False, repr=False, compare=False)  # role -> tricks taken

    DECISION = "card"

    def __init__(
        self,
        hand: Cards,
        trump: Card,
        role: int | str = "eldest",
        declared: Cards = (),
        exchanged: Iterable[int] = (),
        carry: int | None = None,
        rules: Rules | str = "three-card",
        dealer: int = 0,
        played: Cards = (),
    ) -> None:
        rules = get_rules(rules)
        single = (rules.stake if carry is None else int(carry)) == 0 and rules.single == "always-first"
        declared = declared or ((PLAY,) * rules.players if single else ())
        held = _hand(hand)
        held += (-1,) * (rules.cards - len(held))  # the cards played last
        self._common(rules.players, held, trump, role, declared, exchanged, carry, rules, dealer)
        played = tuple(parse_cards(played))
        check_disjoint([c for c in self.hand if c >= 0], played, [self.trump])
        if self.role not in self.standers:
            raise ValueError(f"you ({role_name(self.role)}) did not stand: you have no card to play")
        if len(self.standers) < 2:
            raise ValueError("fewer than two standers: the deal ends without play")
        object.__setattr__(self, "played", played)
        laid_by, tricks = self._walk()
        for name, value in (("laid_by", laid_by), ("tricks", tricks)):
            object.__setattr__(self, name, value)

    def _walk(self):
        """The player of every card played (the laws of the module docstring, checked) and the tricks each has
        taken."""
        laws, m, k = self.laws, len(self.standers), self.rules.cards
        roles, voids, tricks = [], {}, {}
        lead = 0
        for t in range(0, len(self.played), m):
            trick = list(self.played[t : t + m])
            order = [self.standers[(lead + j) % m] for j in range(len(trick))]
            for j, (card, role) in enumerate(zip(trick, order)):
                if laws.suit(card) in voids.get(role, ()) and card != laws.pam:  # Pam be civil: kept back
                    raise ValueError(
                        f"illegal play: the {role_name(role)} showed he had none of that suit, so "
                        f"cannot play {format_card(card)}"
                    )
                if j and laws.suit(card) != laws.suit(trick[0]):
                    voids.setdefault(role, set()).add(laws.suit(trick[0]))
            roles += order
            if len(trick) == m:
                w, _ = laws.winning(trick)
                tricks[order[w]] = tricks.get(order[w], 0) + 1
                lead = self.standers.index(order[w])
        self._check_my_plays(roles)
        if len(self.played) >= m * k:
            raise ValueError("the deal is over: every card has been played")
        nxt = self.standers[(lead + len(self.played) % m) % m]
        if nxt != self.role:
            raise ValueError(
                f"illegal turn: after {format_cards(self.played) or 'no card'} it is the "
                f"{role_name(nxt)}'s turn to play, not yours ({role_name(self.role)})"
            )
        mine_played = sum(r == self.role for r in roles)
        held = [c for c in self.hand if c >= 0]
        if len(held) + mine_played != k:
            raise ValueError(
                f"you were dealt {k} cards and played {mine_played}, so you hold {k - mine_played}, not {len(held)}"
            )
        return tuple(roles), tricks

    def _check_my_plays(self, roles):
        """Each card I played was one the laws allowed me (following, heading, the forced first lead)."""
        mine = [c for c in self.hand if c >= 0] + [c for c, r in zip(self.played, roles) if r == self.role]
        wrong = first_illegal(self.laws, {self.role: mine}, self.played, roles, len(self.standers))
        if wrong is not None:
            raise ValueError(
                f"illegal play: you could not play {format_card(self.played[wrong[0]])} there; the "
                f"laws allowed {format_cards(wrong[1])}"
            )

    def legal(self) -> tuple:
        """The cards I may play: the forced first lead, else following and heading (:class:`Laws`)."""
        laws = self.laws
        hand = list(self.hand)
        if not self.played and laws.forced_lead(hand) is not None:
            return (hand[laws.forced_lead(hand)],)
        trick = list(self.played[len(self.played) - len(self.played) % len(self.standers) :])
        return tuple(hand[i] for i in laws.legal(hand, trick))

    def to_state(self) -> State:
        rules, m = self.rules, len(self.standers)
        state = self._base_state()
        state[S_DECLARED], state[S_DEALER_CHOICE] = rules.players, 0
        n_played = len(self.played)
        start = n_played - n_played % m
        trick = list(self.played[start:])
        state[S_N_PLAYED], state[S_TRICK], state[S_TRICK_START] = n_played, n_played // m, start
        lead = self.laid_by[start] if trick else self.role
        state[S_LEADER] = lead
        if trick:
            w, _ = self.laws.winning(trick)
            state[S_BEST], state[S_WINNING] = trick[w], self.laid_by[start + w]
        legal = self.legal()
        state[S_LEGAL] = sum(1 << i for i, c in enumerate(self.hand) if c in legal)
        for r, t in self.tricks.items():
            state[S_TRICKS + r] = t
        hand = np.full(rules.cards, -1, dtype=np.int64)
        hand[: len(self.hand)] = self.hand
        played = np.full((MAX_PLAYS, 2), -1, dtype=np.int64)
        played[:n_played, 0], played[:n_played, 1] = self.played, self.laid_by
        return State(hand, played, state, rules.to_kernel())

    def decide(self, policy, rng) -> str:
        """The card ``policy`` plays, as the engine calls it (a forced lead, or one card the laws allow, is
        played without asking); an illegal answer is a PolicyError."""
        from ..core.advice import card_answer

        return card_answer(self, policy, rng, self.legal(), "follow suit and head the trick")

    def answer(self, choice: str, hand=None) -> int:
        """The engine's answer playing ``choice`` (e.g. ``"7H"``): its position in the hand; a one-line
        ValueError unless the laws allow it."""
        from ..core.choices import card_index

        return card_index(choice, self.hand, self.legal(), "card", "follow suit and head the trick")

    def choice_of(self, answer: int, hand=None) -> str:
        from ..core.choices import card_of

        return card_of(answer, self.hand)

    def describe(self) -> dict:
        out = self._describe()
        out["played"] = [{"card": format_card(c), "by": role_name(r)} for c, r in zip(self.played, self.laid_by)]
        return out


def from_engine(decision: str, hand, played, state, rules, laid_by=None):
    """The public situation of an engine decision, from the arrays its policy sees (``played`` None but for a
    card): declarations and exchanges follow from who stands and who took the miss, the money held over from
    the pool less the dealer's stake; ``laid_by`` is not needed (the laws say who played each card)."""
    n, role = rules.players, int(state[S_ROLE])
    standers = [t % n for t in range(1, n + 1) if (int(state[S_STOOD]) >> (t % n)) & 1]
    declared = [
        MISS if t % n == state[S_MISS_TAKER] else (PLAY if t % n in standers else PASS) for t in range(1, n + 1)
    ][: int(state[S_DECLARED])]
    exchanged = [int(state[S_EXCHANGED + r]) for r in standers if state[S_EXCHANGED + r] >= 0]
    facts: dict[str, Any] = dict(
        trump=int(state[S_TRUMP]),
        role=role,
        declared=declared,
        exchanged=exchanged,
        carry=int(state[S_POOL]) - int(state[S_STAKE]),
        rules=rules,
        dealer=int(state[S_DEALER]),
    )
    if decision == "card":
        return CardSituation(
            ["-" if c < 0 else int(c) for c in hand],
            played=[int(c) for c in played[: int(state[S_N_PLAYED]), 0]],
            **facts,
        )
    return (DeclareSituation if decision == "declare" else ExchangeSituation)([int(c) for c in hand], **facts)
