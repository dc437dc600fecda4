"""A slow, obviously-correct rules engine in plain Python: the oracle for the njit kernels.

Written from docs/rules.md and the seeds, one rule per step, with the
literal scorers of :mod:`sims.cribbage.literal_scoring` (``show_score``,
``peg_score``) and no numba in its logic:

* the deal: hands by role from the dealer (role 0) round to his left, the
  crib completed from the pack where the variant says so (three-hand), then
  the starter; "if a knave be turned up, the dealer marks two" (Mottoes),
  scored at once;
* laying out, "the left-hand player throws out first ... the dealer last"
  (Mottoes);
* the play: eldest leads; a player who can play must; when he cannot, the next
  in turn who can continues; when nobody can, the last player takes the end
  hole (1; thirty-one is 2, scored with the card) and the player to the left of
  the last player leads a new count; two-handed five-card has one count only
  and leaves the other cards unplayed; otherwise every card is played and the
  last card of all scores 1;
* the show: eldest first round to the dealer, then the crib;
* the game: cut for deal (lowest deals, ace low, those tied for lowest cut
  again), three for last to the first non-dealer in five-card, the deal
  passing left (three-rotation: the dealer deals to his left, the previous
  dealer sits out), partners scoring together, and the game over the instant a
  side reaches the target, in the play or in the middle of the show.

**Same random streams.**  A deal is played from the streams the njit engine
uses (:mod:`sims.rng`): the deck stream shuffles by the same partial
Fisher–Yates (only the cards needed are drawn) and cuts for deal the same way,
and each seat's policy draws from that seat's own stream.  The random numbers
themselves come from the njit generator ``sims.rng.randint`` called from
Python; they are inputs, not rules.

**Policies.**  ``"random"`` and ``"greedy"`` are re-implemented here in plain
Python, consuming each seat's stream exactly as the built-ins document
(random discard: ``randint(rng, cards)`` until ``throw`` distinct positions;
random peg: one ``randint(rng, legal cards)`` and the pick-th legal card in
hand order; greedy uses no random numbers and breaks ties to the first throw
in mask order / the highest card).  Re-implementing them, rather than calling
the njit built-ins, means that a bug in a built-in (its legal-card enumeration,
greedy's tie-break, its scoring) shows as a difference instead of being
shared by both sides.  Any other policy is a callable with the njit policy
signature; it is called with numpy arrays laid out as
:mod:`sims.cribbage.policies.base` documents, so a user's njit policy runs
here unchanged, and a policy that reads the state checks the state the engine
shows its policies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..cards import format_cards
from ..core.cut import reference_cut_for_deal
from ..core.errors import PolicyError
from ..core.jobs import per_seat
from ..core.policies import Policy
from ..core.reference import SeatPolicy, seat_policy, twins
from ..core.rng import chunk_keys, randint, seed_state
from .contract import (
    S_ACTIVE,
    S_COUNT,
    S_COUNT_START,
    S_CRIB_MINE,
    S_DEALER,
    S_GO_MASK,
    S_MY_SCORE,
    S_N_PLAYED,
    S_OPP_SCORE,
    S_ROLE,
    S_ROOM,
    S_SEAT,
    S_SIZE,
    S_STARTER,
    S_TARGET,
    S_THROWN,
)
from .game import GAME
from .literal_scoring import peg_score, show_score
from .play import COMPONENTS
from .policies import resolve
from .rules import CUT_ORDER, R_BATH, R_THROW, get_rules

JACK = 10
THIRTY_ONE = 31


def value(card: int) -> int:
    """Pip value: ace 1, court cards 10."""
    return min((card >> 2) + 1, 10)


# -- policies in plain Python, with the njit signatures -------------------------------------------


def random_discard(hand, state, rules, rng, params):
    """Throw uniformly random positions: draw positions until ``throw`` distinct ones are chosen."""
    chosen = set()
    while len(chosen) < rules[R_THROW]:
        chosen.add(int(randint(rng, len(hand))))
    return sum(1 << i for i in chosen)


def greedy_discard(hand, state, rules, rng, params):
    """Keep the cards that score most on their own (no starter); ties to the first throw in mask order."""
    best, best_mask = -1, 0
    for mask in range(1 << len(hand)):
        if mask.bit_count() != rules[R_THROW]:
            continue
        kept = [int(c) for i, c in enumerate(hand) if not (mask >> i) & 1]
        points = show_score(kept, None)
        if points > best:
            best, best_mask = points, mask
    return best_mask


def _legal(hand, count):
    return [i for i, c in enumerate(hand) if c >= 0 and count + value(int(c)) <= THIRTY_ONE]


def random_peg(hand, played, state, rules, rng, params):
    """Lay a uniformly random legal card: one draw among the legal cards, in hand order."""
    legal = _legal(hand, state[S_COUNT])
    return legal[int(randint(rng, len(legal)))]


def greedy_peg(hand, played, state, rules, rng, params):
    """Lay the card that scores most at once; ties to the highest card."""
    current = [int(c) for c in played[state[S_COUNT_START] : state[S_N_PLAYED]]]
    scored = [
        (peg_score(current + [int(hand[i])], bool(rules[R_BATH])), int(hand[i]), i)
        for i in _legal(hand, state[S_COUNT])
    ]
    return max(scored)[2]


# The built-in kernels' plain-Python twins, which the reference plays in their place.
PLAIN = twins("sims.cribbage.policies.builtin", random_discard, greedy_discard, random_peg, greedy_peg)


def _seat_policy(kind, spec):
    """A built-in (by name or as the engine's Policy) -> its plain-Python twin here; any other policy (an njit
    function, the engine's Policy of one, or a Python callable) is called as it is."""
    if isinstance(spec, str):
        spec = resolve(kind, spec)  # unknown names: the engine's ValueError
    if isinstance(spec, Policy):
        return seat_policy(spec, PLAIN)
    if callable(spec):
        return SeatPolicy(getattr(spec, "__name__", "user"), spec)
    raise ValueError(f"a {kind} policy must be a name or a callable, got {spec!r}")


def seat_policies(rules, policies) -> tuple[list[SeatPolicy], list[SeatPolicy]]:
    """``{"discard": spec, "peg": spec}`` (a name, a callable, or one per seat) -> per-seat policies."""
    policies = dict(policies or {})
    discard, peg = (
        [_seat_policy(d, s) for s in per_seat(policies.get(d, GAME.decision(d).default), rules.players, d)]
        for d in ("discard", "peg")
    )  # a decision not given: the game's default, as the engine plays it
    return discard, peg


# -- the streams ----------------------------------------------------------------------------------


def streams(keys, index):
    """The deck stream and the seats' streams of item ``index`` of a chunk with stream ``keys``."""
    deck_rng = np.empty(4, dtype=np.uint64)
    seed_state(deck_rng, keys[0], index)
    seat_rngs = np.empty((4, 4), dtype=np.uint64)
    for s in range(4):
        seed_state(seat_rngs[s], keys[1 + s], index)
    return deck_rng, seat_rngs


def item_streams(seed, item, chunk_size):
    """Streams of item ``item`` of a run: chunk ``item // chunk_size``, index ``item % chunk_size``."""
    keys = chunk_keys(seed, item // chunk_size, 1, GAME.n_streams)[0]
    return streams(keys, item % chunk_size)


def shuffled_deck(rules, deck_rng) -> list[int]:
    """The shuffle: a partial Fisher–Yates drawing only the cards the deal needs."""
    deck = list(range(52))
    for i in range(rules.active * rules.cards_dealt + rules.crib_from_pack + 1):
        j = i + int(randint(deck_rng, 52 - i))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def stacked_deck(hands, starter, from_pack=()) -> list[int]:
    """A deck that deals ``hands`` (by role: dealer first, then to his left), adds ``from_pack`` to
    the crib and turns up ``starter``; the unused cards follow in order."""
    top = [c for hand in hands for c in hand] + list(from_pack) + [starter]
    if len(set(top)) != len(top):
        raise ValueError("a card is dealt twice")
    return top + [c for c in range(52) if c not in top]


def side_of(rules, seat):
    """Partners (seats opposite) score together; otherwise each seat is its own side."""
    return seat % 2 if rules.partners else seat


# -- one deal -------------------------------------------------------------------------------------


class GameOver(Exception):
    """A side has reached the target: the game stops at once."""

    def __init__(self, side):
        super().__init__(side)
        self.side = side


@dataclass
class Peg:
    """Points pegged: to the player in ``role``, for ``component``: what ("heels", "play", "go",
    "last card", "hand", "crib") and the cards that made them (the count so far, in the play)."""

    role: int
    component: str
    points: int
    what: str
    cards: tuple = ()

    def __str__(self):
        return f"role {self.role}: {self.points} for {self.what} {format_cards(self.cards)}".rstrip()


@dataclass
class Deal:
    """Everything that happened in one deal (roles: 0 the dealer, 1 eldest, ... to the dealer's right)."""

    rules: object
    dealer: int
    deck: list
    hands: list = field(default_factory=list)
    kept: list = field(default_factory=list)
    thrown: list = field(default_factory=list)
    crib: list = field(default_factory=list)
    starter: int = -1
    laid: list = field(default_factory=list)  # every card laid in the play, as (role, card, count)
    counts: list = field(default_factory=list)  # each finished count's cards in order, as (role, card)
    holding: list = field(default_factory=list)  # cards kept, by role; -1 once laid
    pegs: list = field(default_factory=list)
    winner: int | None = None  # the side that reached the target in this deal

    @property
    def unplayed(self):
        """Cards still in hand when the play ended (two-handed five-card: one count only)."""
        return [[c for c in hand if c >= 0] for hand in self.holding]

    def seat(self, role):
        return (self.dealer + role) % self.rules.players

    def side(self, role):
        return side_of(self.rules, self.seat(role))

    def points(self, role, component=None):
        """Points the player in ``role`` pegged (for one component, ``pegging`` = play + go, or all)."""
        parts = {None: None, "total": None, "pegging": ("play", "go")}.get(component, (component,))
        return sum(p.points for p in self.pegs if p.role == role and (parts is None or p.component in parts))

    def components(self) -> np.ndarray:
        """``[role, component]`` points in the engine's component order (``play.COMPONENTS``)."""
        return np.array([[self.points(r, c) for c in COMPONENTS] for r in range(self.rules.active)], dtype=np.int64)

    def side_points(self):
        """Points each side made in this deal."""
        sides = [0] * self.rules.sides
        for p in self.pegs:
            sides[self.side(p.role)] += p.points
        return sides


class _Table:
    """The board: pegs points, records them and stops the game at the target."""

    def __init__(self, deal, scores, check_target):
        self.deal, self.scores, self.check_target = deal, scores, check_target

    def peg(self, role, component, points, what, cards=()):
        if points == 0:
            return
        side = self.deal.side(role)
        self.scores[side] += points
        self.deal.pegs.append(Peg(role, component, points, what, tuple(cards)))
        if self.check_target and self.scores[side] >= self.deal.rules.target:
            raise GameOver(side)


def _state(deal, scores, role, starter=-1, count=0, count_start=0, n_played=0, go=(), thrown=(), room=None):
    """What a policy sees (the S_* layout of sims.cribbage.contract); ``room[r]``: the most pips a card of
    role ``r`` could have had and fitted when he could not lay, shown for the others."""
    rules = deal.rules
    state = np.zeros(S_SIZE, dtype=np.int64)
    mine = deal.side(role)
    state[S_SEAT], state[S_ROLE], state[S_DEALER] = deal.seat(role), role, deal.dealer
    state[S_ACTIVE], state[S_STARTER], state[S_COUNT] = rules.active, starter, count
    state[S_COUNT_START], state[S_N_PLAYED] = count_start, n_played
    state[S_MY_SCORE] = scores[mine]
    state[S_OPP_SCORE] = max([0] + [s for side, s in enumerate(scores) if side != mine])
    state[S_TARGET] = rules.target
    state[S_CRIB_MINE] = int(deal.side(0) == mine)
    state[S_GO_MASK] = sum(1 << r for r in go)
    state[S_THROWN : S_THROWN + 2] = (list(thrown) + [-1, -1])[:2]
    for r, most in enumerate(room or ()):
        if r != role:
            state[S_ROOM + r] = most
    return state


def play_deal(rules, dealer, deck, seat_rngs, policies, scores=None, check_target=False) -> Deal:
    """Play one deal from ``deck`` (see :func:`shuffled_deck`, :func:`stacked_deck`).

    ``policies`` from :func:`seat_policies` (or the same spec as the engine); ``scores`` per side
    (updated in place; zeros if None).  Stops when a side reaches the target if ``check_target``.
    """
    rules = get_rules(rules)
    if isinstance(policies, dict) or policies is None:
        policies = seat_policies(rules, policies)
    discard, peg = policies
    scores = [0] * rules.sides if scores is None else scores
    deal = Deal(rules, dealer, list(deck))
    table = _Table(deal, scores, check_target)
    try:
        _deal(deal, table, seat_rngs, discard, peg)
    except GameOver as over:
        deal.winner = over.side
    return deal


def _deal(deal, table, seat_rngs, discard, peg):
    rules, scores = deal.rules, table.scores
    n, dealt = rules.active, rules.cards_dealt
    kernel_rules = rules.to_kernel()
    deck = iter(deal.deck)
    deal.hands = [[next(deck) for _ in range(dealt)] for _ in range(n)]

    # Laying out for the crib: eldest first, round to the dealer.
    deal.kept, deal.thrown = [None] * n, [None] * n
    for role in list(range(1, n)) + [0]:
        seat, hand = deal.seat(role), deal.hands[role]
        policy = discard[seat]
        mask = int(
            policy.fn(
                np.array(hand, dtype=np.int64), _state(deal, scores, role), kernel_rules, seat_rngs[seat], policy.params
            )
        )
        if not (0 <= mask < 1 << dealt and mask.bit_count() == rules.throw):
            raise PolicyError(
                f"discard policy {policy.name!r} (seat {seat}) returned mask {mask} for hand {format_cards(hand)}"
            )
        deal.kept[role] = [c for i, c in enumerate(hand) if not (mask >> i) & 1]
        deal.thrown[role] = [c for i, c in enumerate(hand) if (mask >> i) & 1]
        deal.crib += deal.thrown[role]
    deal.crib += [next(deck) for _ in range(rules.crib_from_pack)]

    # The starter; his heels.
    deal.starter = starter = next(deck)
    if starter >> 2 == JACK:
        table.peg(0, "heels", 2, "heels", (starter,))

    _the_play(deal, table, seat_rngs, peg, kernel_rules)

    # The show: eldest first round to the dealer, then the crib.
    for role in list(range(1, n)) + [0]:
        table.peg(role, "hand", show_score(deal.kept[role], starter), "hand", deal.kept[role] + [starter])
    table.peg(
        0,
        "crib",
        show_score(deal.crib, starter, crib=True, crib_flush_four=rules.crib_flush_four),
        "crib",
        deal.crib + [starter],
    )


def _the_play(deal, table, seat_rngs, peg, kernel_rules):
    rules, scores = deal.rules, table.scores
    n = rules.active
    deal.holding = holding = [list(k) for k in deal.kept]  # a card laid becomes -1 (positions are kept)
    played = []
    count, current, go = 0, [], set()
    last, turn = None, 1 % n  # eldest leads
    room = [0] * n  # a player who can play must: see _state

    def could_not_lay(roles):
        for r in roles:
            room[r] = max(room[r], THIRTY_ONE - count)

    def can_play(role):
        return any(c >= 0 and count + value(c) <= THIRTY_ONE for c in holding[role])

    def new_count():
        nonlocal count, current, go
        deal.counts.append(current)
        count, current, go = 0, [], set()

    while any(c >= 0 for hand in holding for c in hand):
        # The player in turn plays if he can; if not, the next in turn who can.
        order = [(turn + j) % n for j in range(n)]
        player = next((r for r in order if can_play(r)), None)
        if player is None:
            # Nobody can play: the end hole to the last player; the player on his left leads anew.
            could_not_lay(range(n))
            new_count()
            table.peg(last, "go", 1, "go", [c for _, c in deal.counts[-1]])
            if rules.one_count:
                return
            turn = (last + 1) % n
            continue
        go |= set(order[: order.index(player)])
        could_not_lay(order[: order.index(player)])
        seat = deal.seat(player)
        policy = peg[seat]
        hand = np.array(holding[player], dtype=np.int64)
        laid = np.full(n * rules.kept, -1, dtype=np.int64)
        laid[: len(played)] = played
        state = _state(
            deal,
            scores,
            player,
            deal.starter,
            count,
            len(played) - len(current),
            len(played),
            go,
            deal.thrown[player],
            room,
        )
        i = int(policy.fn(hand, laid, state, kernel_rules, seat_rngs[seat], policy.params))
        if not (0 <= i < len(hand) and hand[i] >= 0 and count + value(int(hand[i])) <= THIRTY_ONE):
            raise PolicyError(
                f"peg policy {policy.name!r} (seat {seat}) chose index {i} with count {count} and "
                f"cards {format_cards(c for c in holding[player] if c >= 0)} in hand"
            )
        card = holding[player][i]
        holding[player][i] = -1
        played.append(card)
        current.append((player, card))
        count += value(card)
        deal.laid.append((player, card, count))
        last, turn = player, (player + 1) % n
        cards = [c for _, c in current]
        table.peg(player, "play", peg_score(cards, rules.bath_flush), "play", cards)
        if count == THIRTY_ONE:  # its 2 are in peg_score; the player on the last player's left leads
            new_count()
            if rules.one_count:
                return
    if current:  # every card is out: the last card of all
        new_count()
        table.peg(last, "go", 1, "last card", [c for _, c in deal.counts[-1]])


# -- the game -------------------------------------------------------------------------------------


@dataclass
class Game:
    """A whole game: the cuts for deal, who dealt first, the deals in order, the final scores and the
    winning side."""

    rules: object
    cuts: list
    first_dealer: int
    scores: list
    deals: list
    winner: int

    def record(self) -> dict:
        """The columns of ``GameResult.games``: first_dealer, winner, deals, score_<side>, first_deal_<side>."""
        row = {"first_dealer": self.first_dealer, "winner": self.winner, "deals": len(self.deals)}
        row.update({f"score_{s}": v for s, v in enumerate(self.scores)})
        row.update({f"first_deal_{s}": v for s, v in enumerate(self.deals[0].side_points())})
        return row


def play_game(rules, deck_rng, seat_rngs, policies, on_deal=None) -> Game:
    """Cut for deal, three for last, deals passing left until a side reaches the target; ``on_deal(deal)`` as
    each deal ends."""
    rules = get_rules(rules)
    policies = seat_policies(rules, policies) if isinstance(policies, dict) or policies is None else policies
    cuts = []
    first = reference_cut_for_deal(deck_rng, rules.players, CUT_ORDER, cuts)
    scores = [0] * rules.sides
    if rules.three_for_last:  # Rules of Cribbage, rule 10: the non-dealer scores three at the commencement
        scores[side_of(rules, (first + 1) % rules.players)] += 3
    deals, dealer = [], first
    while True:
        deal = play_deal(rules, dealer, shuffled_deck(rules, deck_rng), seat_rngs, policies, scores, True)
        deals.append(deal)
        if on_deal is not None:
            on_deal(deal)
        if deal.winner is not None:
            return Game(rules, cuts, first, scores, deals, deal.winner)
        dealer = (dealer + 1) % rules.players


# -- runs from a master seed, as the engine cuts them ---------------------------------------------


def simulate_deals(rules, policies, n_deals, seed, chunk_size=GAME.chunk_size["deals"]):
    """Deals 0 .. n_deals-1 of a run (deal ``g`` dealt by seat ``g % players``), as :class:`Deal` s."""
    rules = get_rules(rules)
    policies = seat_policies(rules, policies)
    keys = chunk_keys(seed, 0, -(-n_deals // chunk_size), GAME.n_streams)
    deals = []
    for g in range(n_deals):
        deck_rng, seat_rngs = streams(keys[g // chunk_size], g % chunk_size)
        deals.append(play_deal(rules, g % rules.players, shuffled_deck(rules, deck_rng), seat_rngs, policies))
    return deals


def play_games(rules, policies, n_games, seed, chunk_size=GAME.chunk_size["games"]):
    """Games 0 .. n_games-1 of a run, as :class:`Game` s."""
    rules = get_rules(rules)
    policies = seat_policies(rules, policies)
    keys = chunk_keys(seed, 0, -(-n_games // chunk_size), GAME.n_streams)
    return [play_game(rules, *streams(keys[g // chunk_size], g % chunk_size), policies) for g in range(n_games)]
