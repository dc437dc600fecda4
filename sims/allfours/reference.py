"""A slow, obviously-correct All Fours engine in plain Python: the oracle for the njit kernels.

Written from Sections 87-96 §91-94, the laws of Mottoes and docs/rules.md, one rule per step, with
no numba in its logic:

* the deal: six cards each, three at a time from the eldest; the next card turned for
  trump, a knave scoring one to the dealer at once;
* begging (§93 v): the eldest stands or begs; the dealer gives one or runs the cards,
  three more each and another turn while the suit first turned keeps turning, each
  knave turned scoring one to the dealer (``run_knaves``); law ii: once a deal, or
  ``begs`` times by agreement, each beg on the trump the last run turned up; a pack too
  short for the next round is dealt again; with ``discard_to_six`` each player then throws out down to six;
* the play (law iii): the eldest leads; a player holding the suit led follows it or
  trumps (``may_trump``), a void player plays anything; the highest trump, else the
  highest card of the suit led, wins, and the winner leads; a player with one card he
  may play is not asked;
* the points (§93 i-iv), in order: high to the holder of the highest trump in play, low
  to the player the lowest trump in play was dealt to, jack to the winner of the knave of
  trumps, game to the side whose tricks reckon most (A 4, K 3, Q 2, J 1, 10 10; equal
  totals per ``game_tie``; none with nothing to reckon); the game over the moment a side
  reaches the target;
* the game: the highest card cut deals (those tied cut again), the deal passing left.

**Same random streams.**  Cards are drawn from the streams the njit engine uses
(:mod:`sims.core.rng`): the deck stream draws each card dealt from those left (one
Fisher-Yates step per card, from a fresh pack at each new deal), the cut uses the game's
deck stream, and each hand of a game is shuffled from a stream keyed by the game
stream's next number; each seat's policy draws from that seat's own stream.  The
numbers come from the njit generator called from Python: they are inputs, not rules.

**Policies.**  ``random`` (one draw of ``randint(rng, 2)`` for a beg or an answer; one
``randint(rng, legal cards)`` for the play, the pick-th legal card in hand order; one
``randint(rng, cards held)`` for a discard), the fixed answers and ``greedy`` are written
again here in plain Python, so a bug in a built-in shows as a difference.  Any other
policy is called as it is, with numpy arrays laid out as :mod:`sims.allfours.contract`
says, so a policy that reads the state checks the state the engine shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..cards import format_cards
from ..core.cut import reference_cut_for_deal
from ..core.errors import PolicyError
from ..core import reference
from ..core.reference import SeatPolicy, twins
from ..core.rng import chunk_keys, next_u64, randint, seed_state
from .cards import CUT_ORDER
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
from .play import COMPONENTS, EVENTS
from .rules import R_MAY_TRUMP, get_rules

KNAVE = 10
GAME_POINTS = {0: 4, 12: 3, 11: 2, 10: 1, 9: 10}  # ace, king, queen, knave, ten (Sections 87-96 §93 iv)
MAX_HANDS = 100_000


def whist_rank(card: int) -> int:
    """Ace high, then K Q J 10 ... 2 (Sections 87-96 §91)."""
    return 12 if card >> 2 == 0 else (card >> 2) - 1


def suit(card: int) -> int:
    return card & 3


def reckon(cards) -> int:
    return sum(GAME_POINTS.get(c >> 2, 0) for c in cards)


def legal_cards(hand, lead_suit, trump, may_trump) -> list[int]:
    """Positions of the cards that may be played (law iii)."""
    held = [i for i, c in enumerate(hand) if c >= 0]
    if lead_suit is None:
        return held
    follow = [i for i in held if suit(hand[i]) == lead_suit]
    if not follow:
        return held
    return [i for i in held if suit(hand[i]) == lead_suit or (may_trump and suit(hand[i]) == trump)]


def trick_winner(trick, trump) -> int:
    """The index in ``trick`` of the winning card: the highest trump, else the highest of the suit led."""
    trumps = [k for k, (_, c) in enumerate(trick) if suit(c) == trump]
    candidates = trumps or [k for k, (_, c) in enumerate(trick) if suit(c) == suit(trick[0][1])]
    return max(candidates, key=lambda k: whist_rank(trick[k][1]))


# -- policies in plain Python, with the njit signatures -------------------------------------------


def random_choice(hand, state, rules, rng, params):
    return int(randint(rng, 2))


def constant(hand, state, rules, rng, params):
    return int(params[0])


def random_discard(hand, state, rules, rng, params):
    held = [i for i, c in enumerate(hand) if c >= 0]
    return held[int(randint(rng, len(held)))]


def _lead_suit(state):
    return None if state[S_LEAD_SUIT] < 0 else int(state[S_LEAD_SUIT])


def random_play(hand, played, state, rules, rng, params):
    legal = legal_cards(hand, _lead_suit(state), state[S_TRUMP], bool(rules[R_MAY_TRUMP]))
    return legal[int(randint(rng, len(legal)))]


def _cost(card, trump):
    """Trumps dearest, then counting cards, then rank."""
    return (suit(card) == trump, GAME_POINTS.get(card >> 2, 0) > 0, whist_rank(card))


def greedy_play(hand, played, state, rules, rng, params):
    """Win with the lowest card of the suit led that can, else the cheapest card; leading, the highest
    plain card, or the cheapest trump; a trick the partner is winning is left to him."""
    trump, lead = state[S_TRUMP], _lead_suit(state)
    legal = legal_cards(hand, lead, trump, bool(rules[R_MAY_TRUMP]))
    cheapest = min(legal, key=lambda i: (_cost(hand[i], trump), i))
    if lead is None:
        plain = [i for i in legal if suit(hand[i]) != trump]
        return max(plain, key=lambda i: (whist_rank(hand[i]), -i)) if plain else cheapest
    trick = [(int(played[P_ROLE, k]), int(played[P_CARD, k])) for k in range(state[S_TRICK_START], state[S_N_PLAYED])]
    w = trick_winner(trick, trump)
    if (trick[w][0] - state[S_ROLE]) % 2 == 0:
        return cheapest
    best = trick[w][1]
    winners = [
        i for i in legal if suit(hand[i]) == lead and suit(best) == lead and whist_rank(hand[i]) > whist_rank(best)
    ]
    return min(winners, key=lambda i: (whist_rank(hand[i]), i)) if winners else cheapest


# The built-in kernels' plain-Python twins, which the reference plays in their place.
PLAIN = twins("sims.allfours.policies.basic", random_choice, constant, random_discard, random_play, greedy_play)


def seat_policies(rules, policies) -> dict[str, list[SeatPolicy]]:
    """``{decision: spec}`` as for the engine -> per decision, per seat (:func:`sims.core.reference.seat_policies`)."""
    from .game import GAME

    return reference.seat_policies(GAME, rules, policies, PLAIN)


# -- one hand -------------------------------------------------------------------------------------


class GameOver(Exception):
    """A side has reached the target: the game stops at once."""

    def __init__(self, side):
        super().__init__(side)
        self.side = side


class Pack:
    """Cards dealt one by one: drawn at random from those left, or as a stacked deck lies."""

    def __init__(self, deck_rng=None, stacked=None):
        self.rng, self.stacked = deck_rng, None if stacked is None else list(stacked)
        self.packs = 0
        self.new_deal()

    def new_deal(self):
        if self.stacked is not None:
            if len(self.stacked) < 52 * (self.packs + 1):
                raise ValueError("the stacked deck ran out")
            self.cards = self.stacked[52 * self.packs : 52 * (self.packs + 1)]
        else:
            self.cards = list(range(52))
        self.packs += 1
        self.pos = 0

    def left(self) -> int:
        return 52 - self.pos

    def draw(self) -> int:
        if self.stacked is None:
            j = self.pos + int(randint(self.rng, 52 - self.pos))
            self.cards[self.pos], self.cards[j] = self.cards[j], self.cards[self.pos]
        self.pos += 1
        return self.cards[self.pos - 1]


@dataclass
class Score:
    role: int
    component: str
    points: int


@dataclass
class Hand:
    """Everything that happened in one hand (roles: 0 the dealer, 1 the eldest, ... to his right)."""

    rules: object
    dealer: int
    dealt: list = field(default_factory=list)  # by role: the cards held when the play began
    turned: list = field(default_factory=list)  # every card turned up, in order
    trump: int = -1
    tricks: list = field(default_factory=list)  # each a list of (role, card)
    scores: list = field(default_factory=list)  # Score, in the order scored
    events: dict = field(default_factory=lambda: dict.fromkeys(EVENTS, 0))
    winner: int | None = None

    def side(self, role) -> int:
        return ((self.dealer + role) % self.rules.players) % 2

    def components(self) -> np.ndarray:
        """``[side role, component]``: points by the dealer's side (0) and the eldest's (1)."""
        out = np.zeros((2, len(COMPONENTS)), dtype=np.int64)
        for s in self.scores:
            out[s.role % 2, COMPONENTS.index(s.component)] += s.points
            out[s.role % 2, -1] += s.points
        return out


class _Table:
    def __init__(self, hand, scores, check_target):
        self.hand, self.scores, self.check_target = hand, scores, check_target

    def score(self, role, component, points=1):
        side = self.hand.side(role)
        self.scores[side] += points
        self.hand.scores.append(Score(role, component, points))
        if self.check_target and self.scores[side] >= self.hand.rules.target:
            raise GameOver(side)


def _state(
    hand, rules, scores, role, trump, turned, runs, begged, held, discarded=0, played=(), trick_start=0, lead=None
):
    """What a policy sees (the S_* layout of sims.allfours.contract)."""
    state = np.zeros(S_SIZE, dtype=np.int64)
    seat = (hand.dealer + role) % rules.players
    state[S_SEAT], state[S_ROLE], state[S_DEALER], state[S_PLAYERS] = seat, role, hand.dealer, rules.players
    state[S_TRUMP], state[S_TURNED] = trump, turned[-1]
    state[S_TURNED_MASK] = sum(1 << c for c in turned)
    state[S_BEGGED], state[S_RUNS] = begged, runs
    state[S_MY_SCORE], state[S_OPP_SCORE], state[S_TARGET] = scores[seat % 2], scores[1 - seat % 2], rules.target
    state[S_N_PLAYED], state[S_TRICK_START] = len(played), trick_start
    state[S_LEAD_SUIT] = -1 if lead is None else lead
    state[S_HELD], state[S_DISCARDED] = held, discarded
    return state


def _hand_array(cards):
    return np.array(list(cards), dtype=np.int64)


def play_hand(rules, dealer, pack, seat_rngs, policies=None, scores=None, check_target=False) -> Hand:
    """Play one hand dealt by seat ``dealer`` from ``pack`` (:class:`Pack`) with ``policies`` as for the
    engine; ``scores`` per side are updated in place; the hand stops when a side reaches the target if
    ``check_target``."""
    rules = get_rules(rules)
    return _play_hand(rules, dealer, pack, seat_rngs, seat_policies(rules, policies), scores, check_target)


def _play_hand(rules, dealer, pack, seat_rngs, policies, scores, check_target) -> Hand:
    scores = [0, 0] if scores is None else scores
    hand = Hand(rules, dealer)
    try:
        _hand(hand, _Table(hand, scores, check_target), rules, pack, seat_rngs, policies, scores)
    except GameOver as over:
        hand.winner = over.side
    return hand


def _hand(hand, table, rules, pack, seat_rngs, policies, scores):
    n, size = rules.players, rules.hand_max
    kernel = rules.to_kernel()
    order = [(t + 1) % n for t in range(n)]  # the eldest first, the dealer last
    seat = [(hand.dealer + r) % n for r in range(n)]
    while True:
        cards = [[] for _ in range(n)]
        for _ in range(2):  # six each, three at a time
            for r in order:
                cards[r] += [pack.draw() for _ in range(3)]
        turned = [pack.draw()]
        hand.turned.append(turned[0])
        if turned[0] >> 2 == KNAVE:
            table.score(0, "turned")
        runs, begged, short = 0, 0, False
        while rules.begging and begged < rules.begs:  # law ii: once, or begs times by agreement
            trump = suit(turned[-1])
            view = _state(hand, rules, scores, 1 % n, trump, turned, runs, begged, 6 + 3 * runs)
            p = policies["beg"][seat[1 % n]]
            beg = int(p.fn(_hand_array(cards[1 % n]), view, kernel, seat_rngs[seat[1 % n]], p.params))
            if beg not in (0, 1):
                raise PolicyError(f"beg policy {p.name!r} (seat {seat[1 % n]}) returned {beg}")
            if not beg:
                break
            begged += 1
            hand.events["begs"] += 1
            view = _state(hand, rules, scores, 0, trump, turned, runs, begged, 6 + 3 * runs)
            p = policies["answer"][seat[0]]
            answer = int(p.fn(_hand_array(cards[0]), view, kernel, seat_rngs[seat[0]], p.params))
            if answer not in (0, 1):
                raise PolicyError(f"answer policy {p.name!r} (seat {seat[0]}) returned {answer}")
            if answer == 1:  # "take one"
                hand.events["gave one"] += 1
                table.score(1 % n, "gift")
                break
            while True:  # run the cards until the suit begged on changes
                if pack.left() < 3 * n + 1:
                    short = True
                    break
                for r in order:
                    cards[r] += [pack.draw() for _ in range(3)]
                turned.append(pack.draw())
                hand.turned.append(turned[-1])
                runs += 1
                hand.events["rounds run"] += 1
                hand.events["knaves turned running"] += turned[-1] >> 2 == KNAVE
                if rules.run_knaves and turned[-1] >> 2 == KNAVE:
                    table.score(0, "turned")
                if suit(turned[-1]) != trump:
                    break
            if short:
                break
        if not short:
            break
        hand.events["redeals"] += 1  # the pack ran short: the same dealer deals again
        pack.new_deal()

    trump = suit(turned[-1])
    hand.trump = trump
    held = 6 + 3 * runs
    discarded = [0] * n
    hands = [_hand_array(c) for c in cards]
    if rules.discard_to_six and held > 6:
        for r in order:
            for _ in range(held - 6):
                view = _state(hand, rules, scores, r, trump, turned, runs, begged, held, discarded[r])
                p = policies["discard"][seat[r]]
                i = int(p.fn(hands[r], view, kernel, seat_rngs[seat[r]], p.params))
                if not (0 <= i < len(hands[r]) and hands[r][i] >= 0):
                    raise PolicyError(f"discard policy {p.name!r} (seat {seat[r]}) chose {i}")
                discarded[r] |= 1 << int(hands[r][i])
                hands[r][i] = -1
        held = 6

    # The play.
    dealt_to = {int(c): r for r in range(n) for c in hands[r] if c >= 0}
    hand.dealt = [sorted(int(c) for c in hands[r] if c >= 0) for r in range(n)]
    played = np.full((2, n * size), -1, dtype=np.int64)
    count = 0
    leader = 1 % n
    taken = {}  # card -> role of the trick's winner
    for _ in range(held):
        trick = []
        for j in range(n):
            r = (leader + j) % n
            lead = suit(trick[0][1]) if trick else None
            view = _state(
                hand,
                rules,
                scores,
                r,
                trump,
                turned,
                runs,
                begged,
                held,
                discarded[r],
                played[0, :count],
                count - j,
                lead,
            )
            p = policies["play"][seat[r]]
            legal = legal_cards(hands[r], lead, trump, rules.may_trump)
            i = legal[0] if len(legal) == 1 else int(p.fn(hands[r], played, view, kernel, seat_rngs[seat[r]], p.params))
            if i not in legal:
                raise PolicyError(
                    f"play policy {p.name!r} (seat {seat[r]}) chose {i} holding "
                    f"{format_cards(c for c in hands[r] if c >= 0)}"
                )
            card = int(hands[r][i])
            hands[r][i] = -1
            trick.append((r, card))
            played[P_CARD, count], played[P_ROLE, count] = card, r
            count += 1
        winner = trick[trick_winner(trick, trump)][0]
        for _, c in trick:
            taken[c] = winner
        hand.tricks.append(trick)
        leader = winner

    # The points: high, low, jack, game, in that order.
    trumps = [c for c in dealt_to if suit(c) == trump]
    high = max(trumps, key=whist_rank) if trumps else None
    low = min(trumps, key=whist_rank) if trumps else None
    jack = KNAVE * 4 + trump
    reckoned = [0, 0]  # by side role: the dealer's, the eldest's
    for c, r in taken.items():
        reckoned[r % 2] += reckon([c])
    hand.events["trumps in play"] += len(trumps)
    hand.events["knave in play"] += jack in dealt_to
    game = None
    if reckoned[0] + reckoned[1] == 0:
        hand.events["nothing to reckon"] += 1
    elif reckoned[0] == reckoned[1]:
        hand.events["game tied on points"] += 1
        game = {"none": None, "eldest": 1, "dealer": 0}[rules.game_tie]
    else:
        game = 0 if reckoned[0] > reckoned[1] else 1
    if (
        high is not None
        and jack in taken
        and game is not None
        and dealt_to[high] % 2 == dealt_to[low] % 2 == taken[jack] % 2 == game
    ):
        hand.events["all fours"] += 1
        if len(trumps) == 1:
            hand.events["all fours, one trump"] += 1
            hand.events["one card all fours"] += reckoned[0] + reckoned[1] == 1
    if high is not None:
        table.score(dealt_to[high], "high")
        table.score(dealt_to[low], "low")
    if jack in taken:
        table.score(taken[jack], "jack")
    if game is not None:
        table.score(game, "game")


# -- the game -------------------------------------------------------------------------------------


@dataclass
class Game:
    """A whole game: the cuts, the first dealer, the hands in order, the final scores and the winner."""

    rules: object
    cuts: list
    first_dealer: int
    scores: list
    hands: list
    winner: int | None

    def record(self) -> dict:
        """The engine's per-game row (``play_games(..., records=True).games``)."""
        return {
            "first_dealer": self.first_dealer,
            "winner": self.winner,
            "hands": len(self.hands),
            "score_0": self.scores[0],
            "score_1": self.scores[1],
        }


def play_game(rules, deck_rng, seat_rngs, policies, on_deal=None) -> Game:
    """Cut for deal, then hands dealt in turn to the left until a side reaches the target; each hand
    from its own stream keyed by the game stream's next number; ``on_deal(hand)`` as each hand ends."""
    rules = get_rules(rules)
    if not (
        isinstance(policies, dict)
        and policies
        and all(isinstance(v, list) and all(isinstance(p, SeatPolicy) for p in v) for v in policies.values())
    ):
        policies = seat_policies(rules, policies)  # else seat policies already, as seat_policies gives
    cuts = []
    first = reference_cut_for_deal(deck_rng, rules.players, CUT_ORDER, cuts)
    scores = [0, 0]
    hands, dealer = [], first
    while len(hands) < MAX_HANDS:
        hand_rng = np.empty(4, dtype=np.uint64)
        seed_state(hand_rng, np.uint64(next_u64(deck_rng)), 0)
        hand = _play_hand(rules, dealer, Pack(hand_rng), seat_rngs, policies, scores, True)
        hands.append(hand)
        if on_deal is not None:
            on_deal(hand)
        if hand.winner is not None:
            break
        dealer = (dealer + 1) % rules.players
    return Game(rules, cuts, first, scores, hands, hands[-1].winner)


# -- runs from a master seed, as the engine cuts them ---------------------------------------------


def streams(keys, index, players):
    """The deck stream and the seats' streams of item ``index`` of a chunk with stream ``keys``."""
    deck_rng = np.empty(4, dtype=np.uint64)
    seed_state(deck_rng, keys[0], index)
    seat_rngs = np.empty((4, 4), dtype=np.uint64)
    for s in range(players):
        seed_state(seat_rngs[s], keys[1 + s], index)
    return deck_rng, seat_rngs


def run_keys(seed, n, chunk_size):
    """The stream keys of the chunks holding items 0 .. n-1 of a run."""
    from .game import GAME

    return chunk_keys(seed, 0, -(-n // chunk_size), GAME.n_streams)


def simulate_deals(rules, policies, n_deals, seed, chunk_size=4096) -> list[Hand]:
    """Hands 0 .. n_deals-1 of a run (hand ``g`` dealt by seat ``g % players``)."""
    rules = get_rules(rules)
    policies = seat_policies(rules, policies)
    keys = run_keys(seed, n_deals, chunk_size)
    out = []
    for g in range(n_deals):
        deck_rng, seat_rngs = streams(keys[g // chunk_size], g % chunk_size, rules.players)
        out.append(_play_hand(rules, g % rules.players, Pack(deck_rng), seat_rngs, policies, None, False))
    return out


def play_games(rules, policies, n_games, seed, chunk_size=256) -> list[Game]:
    """Games 0 .. n_games-1 of a run."""
    rules = get_rules(rules)
    keys = run_keys(seed, n_games, chunk_size)
    return [
        play_game(rules, *streams(keys[g // chunk_size], g % chunk_size, rules.players), policies)
        for g in range(n_games)
    ]
