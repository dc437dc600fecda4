"""A slow, obviously-correct Loo engine in plain Python: the oracle for the njit kernels.

Written from docs/rules.md (Loo) and Mottoes, one law per step, with no numba
in its logic:

* the stakes: the dealer stakes; a deal with nothing held over is a single (no miss,
  everyone plays) or, under ``stake-all``, everyone stakes and a miss is dealt;
* the deal, "one at a time, face downwards", from the dealer's left round to the
  dealer, the miss as the last hand of each round; the next card turned for trump;
* declarations from the dealer's left: "I play", "I take the miss", or pass; if none
  stands before the dealer, he takes the pool; if "only one player stand the chance
  of the loo", the dealer "may either play or give up the stakes";
* five-card: a stander "can change all or any of the five cards" from the pack, in
  turn; a flush ("five cards of a suit, or four with pam") sweeps the board, the best
  flush winning (a trump flush over a plain one, then the higher top card, then the
  elder hand), and the other standers are looed except the holder of Pam (``pam_exempt``);
* the play: the first stander on the dealer's left leads; "if the first player
  possess two or three trumps, he must play the highest"; "with ace of trumps only,
  the first player must lead it"; "each player must follow suit if he can", "must
  head the trick if he can" (void, he must trump, and overtrump, when that wins);
  "Pam be civil": Pam may not be played on the led ace of trumps while its holder
  has another card; the highest trump wins, else the highest card of the suit led;
* settling: each trick takes its share of the pool; a stander without a trick is
  looed and pays the stake (limited) or what the pool held, up to ``loo_limit``
  (unlimited), into the next pool;
* a session: cut for deal (lowest deals, ace lowest, tens and courts ten, ties cut
  again), then ``session_rounds`` rounds, the deal passing left, the pool carried.

**Same random streams.**  The pack is shuffled as it is dealt, one Fisher-Yates
step per card from the deck stream (:mod:`sims.core.rng`), and each seat's policy
draws from that seat's stream; the random numbers come from the njit generator
called from Python: they are inputs, not rules.

**Policies.**  The built-in ``random``, ``always``, ``threshold``, ``keep`` and
``greedy`` are re-implemented here in plain Python, drawing from the streams as the
built-ins document, so a bug in a built-in shows as a difference.  Any other policy
(an njit function: a user's, or ``expert``) is called as it is, with numpy arrays
laid out as :mod:`sims.loo.contract` documents, so a policy that reads the state
checks the state the engine shows its policies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..cards import RANKS, format_cards, parse_card
from ..core.cut import reference_cut_for_deal
from ..core.errors import PolicyError
from ..core import reference
from ..core.reference import SeatPolicy, twins
from ..core.rng import chunk_keys, randint, seed_state
from . import contract as C
from .game import GAME
from .play import ENDINGS, INFO, OUTCOMES
from .rules import CUT_ORDER, get_rules

ACE_HIGH = "23456789TJQKA"
PASS, PLAY, MISS = C.PASS, C.PLAY, C.MISS


def order(card: int) -> int:
    """Ace high: the deuce 0 ... the king 11, the ace 12."""
    return ACE_HIGH.index(RANKS[card >> 2])


class Laws:
    """The order of the cards and the laws of the play for one deal's trump and Pam (-1: none)."""

    def __init__(self, trump_suit: int, pam: int, civil: bool = True):
        self.trump_suit, self.pam, self.civil = trump_suit, pam, civil
        self.trump_ace = parse_card("A" + "CDHS"[trump_suit])

    @classmethod
    def of_deal(cls, rules, trump: int) -> Laws:
        """Pam is the knave of clubs, or of trumps (five-card only)."""
        pam = -1
        if rules.cards == 5:
            pam = parse_card("J" + ("C" if rules.pam == "clubs" else "CDHS"[trump & 3]))
        return cls(trump & 3, pam, rules.pam_be_civil)

    def suit(self, card: int) -> int:
        """Pam belongs to the trumps."""
        return self.trump_suit if card == self.pam else card & 3

    def key(self, card: int, led_suit: int):
        """What a card is worth in a trick led in ``led_suit``: Pam, trumps, the suit led; None: it cannot win."""
        if card == self.pam:
            return (2, 13)
        if card & 3 == self.trump_suit:
            return (1, order(card))
        if card & 3 == led_suit:
            return (0, order(card))
        return None

    def winning(self, trick: list[int]):
        """The index in ``trick`` of the card winning it and that card's key."""
        led_suit = self.suit(trick[0])
        best = max(
            (i for i, c in enumerate(trick) if self.key(c, led_suit) is not None),
            key=lambda i: self.key(trick[i], led_suit),
        )
        return best, self.key(trick[best], led_suit)

    def legal(self, hand: list[int], trick: list[int]) -> list[int]:
        """Positions of ``hand`` (-1: played) that may be played to ``trick``."""
        held = [i for i, c in enumerate(hand) if c >= 0]
        if not trick:
            return held
        led_suit = self.suit(trick[0])
        if self.civil and trick[0] == self.trump_ace and len(held) > 1:
            held = [i for i in held if hand[i] != self.pam]
        _, best = self.winning(trick)
        same = [i for i in held if self.suit(hand[i]) == led_suit]
        if same:
            heads = [i for i in same if self.key(hand[i], led_suit) > best]
            return heads or same
        overtrumps = [i for i in held if self.suit(hand[i]) == self.trump_suit and self.key(hand[i], led_suit) > best]
        return overtrumps or held

    def forced_lead(self, hand: list[int]):
        """The position the first leader must lead, or None."""
        trumps = [i for i, c in enumerate(hand) if self.suit(c) == self.trump_suit]
        if len(trumps) >= 2:
            return max(trumps, key=lambda i: self.key(hand[i], self.trump_suit))
        if len(trumps) == 1 and hand[trumps[0]] == self.trump_ace:
            return trumps[0]
        return None

    def flush(self, hand: list[int]):
        """(trump flush, top card) of a flush, or None: five of a suit, or four and Pam."""
        others = [c for c in hand if c != self.pam]
        suits = {c & 3 for c in others}
        if len(suits) != 1:
            return None
        suit = suits.pop()
        top = 13 if self.pam in hand else max(order(c) for c in others)
        return (suit == self.trump_suit, top)


# -- built-in policies in plain Python, with the njit signatures ----------------------------------------

WEIGHT_OF = {"pam": 0, "trump_high": 1, "trump_mid": 2, "trump_low": 3, "plain_ace": 4, "plain_king": 5}


def card_weight(card, trump_suit, pam, params) -> float:
    """The threshold policies' weight of a card: by Pam, trump rank (A K / Q J 10 / lower), plain ace or king."""
    if card == pam:
        return params[WEIGHT_OF["pam"]]
    o = order(card)
    if card & 3 == trump_suit:
        return params[WEIGHT_OF["trump_high" if o >= 11 else "trump_mid" if o >= 8 else "trump_low"]]
    if o == 12:
        return params[WEIGHT_OF["plain_ace"]]
    return params[WEIGHT_OF["plain_king"]] if o == 11 else 0.0


def random_declare(hand, state, rules, rng, params):
    return int(randint(rng, 3 if state[C.S_MISS] == 1 else 2))


def always_declare(hand, state, rules, rng, params):
    return PLAY


def threshold_declare(hand, state, rules, rng, params):
    score = sum(card_weight(int(c), state[C.S_TRUMP_SUIT], state[C.S_PAM], params) for c in hand)
    if score >= params[6] + params[7] * state[C.S_N_STOOD]:
        return PLAY
    if state[C.S_MISS] == 1 and score < params[8]:
        return MISS
    return PASS


def keep_exchange(hand, state, rules, rng, params):
    return 0


def random_exchange(hand, state, rules, rng, params):
    mask = int(randint(rng, 1 << len(hand)))
    chosen = [i for i in range(len(hand)) if (mask >> i) & 1]
    while len(chosen) > state[C.S_PACK]:
        chosen.pop()  # keep the lowest positions when the pack is short
    return sum(1 << i for i in chosen)


def threshold_exchange(hand, state, rules, rng, params):
    weights = [card_weight(int(c), state[C.S_TRUMP_SUIT], state[C.S_PAM], params) for c in hand]
    weak = sorted((w, i) for i, w in enumerate(weights) if w < params[6])
    return sum(1 << i for _, i in weak[: state[C.S_PACK]])


def random_card(hand, played, state, rules, rng, params):
    legal = [i for i in range(len(hand)) if (state[C.S_LEGAL] >> i) & 1]
    return legal[int(randint(rng, len(legal)))]


def greedy_card(hand, played, state, rules, rng, params):
    """Leading, the strongest card; following, the cheapest winner, else the weakest card."""
    legal = [i for i in range(len(hand)) if (state[C.S_LEGAL] >> i) & 1]
    trick = [int(c) for c in played[state[C.S_TRICK_START] : state[C.S_N_PLAYED], 0]]
    laws = Laws(int(state[C.S_TRUMP_SUIT]), int(state[C.S_PAM]))

    def strength(i):  # trumps above everything plain; Pam above all
        card = int(hand[i])
        return laws.key(card, laws.suit(card))

    if not trick:
        return min(legal, key=lambda i: (tuple(-x for x in strength(i)), i))
    led_suit = laws.suit(trick[0])
    _, best = laws.winning(trick)
    winners = [i for i in legal if (laws.key(int(hand[i]), led_suit) or (-1,)) > best]
    if winners:
        return min(winners, key=lambda i: (laws.key(int(hand[i]), led_suit), i))
    return min(legal, key=lambda i: (strength(i), i))


# The built-in kernels' plain-Python twins, which the reference plays in their place.
PLAIN = twins(
    "sims.loo.policies.builtin",
    random_declare,
    always_declare,
    threshold_declare,
    keep_exchange,
    random_exchange,
    threshold_exchange,
    random_card,
    greedy_card,
)


def seat_policies(rules, policies) -> dict[str, list[SeatPolicy]]:
    """``{decision: spec}`` as for the engine -> per decision, per seat (:func:`sims.core.reference.seat_policies`)."""
    return reference.seat_policies(GAME, rules, policies, PLAIN)


# -- the pack and the streams -------------------------------------------------------------------------


class Pack:
    """The pack, shuffled as it is dealt: card k is drawn by one Fisher-Yates step the first time it is
    needed.  A stacked pack is drawn already."""

    def __init__(self, deck_rng=None, stacked=None):
        self.cards = list(range(52)) if stacked is None else list(stacked)
        self.rng = deck_rng
        self.shuffled = 0 if stacked is None else 52
        self.dealt = 0

    def deal(self) -> int:
        k = self.dealt
        if k >= self.shuffled:
            j = k + int(randint(self.rng, 52 - k))
            self.cards[k], self.cards[j] = self.cards[j], self.cards[k]
            self.shuffled = k + 1
        self.dealt += 1
        return self.cards[k]

    @property
    def left(self) -> int:
        return 52 - self.dealt


def streams(keys, index, players):
    """The deck stream and the seated players' streams of item ``index`` of a chunk with stream ``keys``."""
    deck_rng = np.empty(4, dtype=np.uint64)
    seed_state(deck_rng, keys[0], index)
    seat_rngs = np.zeros((C.MAX_SEATS, 4), dtype=np.uint64)
    for s in range(players):
        seed_state(seat_rngs[s], keys[1 + s], index)
    return deck_rng, seat_rngs


def stacked_deck(hands, trump, miss=(), pack=()) -> list[int]:
    """A pack that deals ``hands`` (by role: the dealer first, then round to his left) one card at a time
    from the dealer's left, the ``miss`` as the last hand of each round, turns ``trump``, and then gives
    ``pack`` for exchanges; the unused cards follow in order."""
    n, k = len(hands), len(hands[0])
    top = []
    for c in range(k):
        top += [hands[t % n][c] for t in range(1, n + 1)]
        if miss:
            top.append(miss[c])
    top += [trump] + list(pack)
    if len(set(top)) != len(top):
        raise ValueError("a card is dealt twice")
    return top + [c for c in range(52) if c not in top]


# -- one deal -----------------------------------------------------------------------------------------


@dataclass
class Deal:
    """Everything that happened in one deal (roles: 0 the dealer, 1 the eldest hand, ... round to the left)."""

    rules: object
    dealer: int
    carry: int
    hands: list = field(default_factory=list)  # as dealt, by role
    miss: list = field(default_factory=list)
    trump: int = -1
    single: bool = False
    pool: int = 0
    declarations: list = field(default_factory=list)  # (role, PASS / PLAY / MISS)
    exchanges: list = field(default_factory=list)  # (role, cards changed, cards drawn)
    tricks: list = field(default_factory=list)  # each trick as [(role, card), ...], and its winner
    winners: list = field(default_factory=list)
    sweeper: int | None = None
    ending: str = ENDINGS[0]
    money: dict = field(default_factory=dict)  # role -> money
    won: dict = field(default_factory=dict)  # role -> money taken from the pool
    stood: set = field(default_factory=set)
    took_miss: int | None = None
    looed: set = field(default_factory=set)
    carried_on: int = 0

    def pay(self, role, amount):
        self.money[role] = self.money.get(role, 0) - amount

    def take(self, role, amount):
        self.money[role] = self.money.get(role, 0) + amount
        self.won[role] = self.won.get(role, 0) + amount

    def outcomes(self) -> np.ndarray:
        """``[players, OUTCOMES]`` as the kernel's ``out``."""
        n = self.rules.players
        out = np.zeros((n, len(OUTCOMES)), dtype=np.int64)
        for r in range(n):
            tricks = sum(1 for w in self.winners if w == r)
            out[r] = [
                self.money.get(r, 0),
                self.won.get(r, 0),
                r in self.stood,
                r == self.took_miss,
                r in self.looed,
                tricks,
                r == self.sweeper,
            ]
        return out

    def info(self) -> np.ndarray:
        """The kernel's ``info`` (``INFO``)."""
        values = {
            "carry": self.carry,
            "pool": self.pool,
            "carried_on": self.carried_on,
            "standers": len(self.stood),
            "single": self.single,
            "ending": ENDINGS.index(self.ending),
            "dealer": self.dealer,
        }
        return np.array([values[k] for k in INFO], dtype=np.int64)

    def __str__(self):
        hands = "; ".join(f"role {r}: {format_cards(h)}" for r, h in enumerate(self.hands))
        return (
            f"dealer {self.dealer}, trump {format_cards([self.trump])}, {hands}; declarations "
            f"{self.declarations}; tricks {[format_cards(c for _, c in t) for t in self.tricks]}; {self.ending}"
        )


class _Table:
    """The state a policy sees, kept up to date as the deal goes (the contract's S_* layout)."""

    def __init__(self, rules, dealer, deal, laws, pack):
        self.state = np.zeros(C.S_SIZE, dtype=np.int64)
        s = self.state
        s[C.S_DEALER], s[C.S_PLAYERS], s[C.S_TRUMP] = dealer, rules.players, deal.trump
        s[C.S_TRUMP_SUIT] = laws.trump_suit
        s[C.S_PAM], s[C.S_POOL], s[C.S_SHARE] = laws.pam, deal.pool, deal.pool // rules.cards
        s[C.S_LOO] = min(deal.pool, rules.loo_limit) if rules.unlimited else rules.stake
        s[C.S_STAKE], s[C.S_SINGLE], s[C.S_MISS] = rules.stake, deal.single, bool(deal.miss)
        s[C.S_MISS_TAKER], s[C.S_PACK] = -1, pack.left if rules.cards == 5 else 0
        s[C.S_LEADER] = s[C.S_BEST] = s[C.S_WINNING] = -1
        s[C.S_EXCHANGED : C.S_EXCHANGED + C.MAX_SEATS] = -1
        self.played = np.full((C.MAX_PLAYS, 2), -1, dtype=np.int64)


def play_deal(rules, dealer, carry, pack, seat_rngs, policies) -> Deal:
    """One deal from ``pack`` (a :class:`Pack`), ``dealer`` dealing, ``carry`` held over in the pool;
    ``policies`` as :func:`seat_policies` returns (or a spec it takes)."""
    rules = get_rules(rules)
    if not isinstance(policies, dict) or not all(isinstance(v, list) for v in policies.values()):
        policies = seat_policies(rules, policies)
    n, k, stake = rules.players, rules.cards, rules.stake
    deal = Deal(rules, dealer, carry)
    rk = rules.to_kernel()
    seat = lambda role: (dealer + role) % n  # noqa: E731

    def call(decision, role, *args):
        p = policies[decision][seat(role)]
        return int(p.fn(*args, rk, seat_rngs[seat(role)], p.params))

    # The stakes, and the single.
    deal.single = carry == 0 and rules.single == "always-first"
    deal.pool = carry
    stakers = range(n) if carry == 0 and rules.single == "stake-all" else [0]
    for r in stakers:
        deal.pay(r, stake)
        deal.pool += stake

    # The deal.
    hands = [[None] * k for _ in range(n)]
    miss = [None] * k if k == 3 and not deal.single else []
    for c in range(k):
        for t in range(1, n + 1):
            hands[t % n][c] = pack.deal()
        if miss:
            miss[c] = pack.deal()
    deal.hands = [list(h) for h in hands]
    deal.miss = list(miss)
    deal.trump = pack.deal()
    laws = Laws.of_deal(rules, deal.trump)
    table = _Table(rules, dealer, deal, laws, pack)
    state = table.state
    loo = int(state[C.S_LOO])

    # Declarations, from the dealer's left round to the dealer.
    dealer_passed = False
    for t in range(1, n + 1):
        role = t % n
        state[C.S_SEAT], state[C.S_ROLE], state[C.S_DECLARED] = seat(role), role, t - 1
        if deal.single:
            answer = PLAY
        else:
            if role == 0 and not deal.stood:
                deal.take(0, deal.pool)
                deal.ending = "dealer takes the pool"
                return deal
            state[C.S_DEALER_CHOICE] = role == 0 and len(deal.stood) == 1
            answer = call("declare", role, np.array(hands[role], dtype=np.int64), state)
            if answer not in (PASS, PLAY) and not (answer == MISS and state[C.S_MISS] == 1):
                raise PolicyError(f"declare {answer}")
            deal.declarations.append((role, answer))
        if answer == PASS:
            dealer_passed = role == 0
            continue
        if answer == MISS:
            hands[role], miss = miss, hands[role]
            deal.took_miss = role
            state[C.S_MISS], state[C.S_MISS_TAKER] = 0, role
        deal.stood.add(role)
        state[C.S_STOOD] |= 1 << role
        state[C.S_N_STOOD] = len(deal.stood)
        if k == 5:
            state[C.S_PACK] = pack.left
            mask = call("exchange", role, np.array(hands[role], dtype=np.int64), state)
            if not (0 <= mask < 1 << k and bin(mask).count("1") <= pack.left):
                raise PolicyError(f"exchange {mask}")
            changed = [hands[role][i] for i in range(k) if (mask >> i) & 1]
            for i in range(k):
                if (mask >> i) & 1:
                    hands[role][i] = pack.deal()
            deal.exchanges.append((role, changed, [hands[role][i] for i in range(k) if (mask >> i) & 1]))
            state[C.S_EXCHANGED + role] = len(changed)
            state[C.S_PACK] = pack.left
    state[C.S_DECLARED], state[C.S_DEALER_CHOICE] = n, 0

    if len(deal.stood) == 1 and dealer_passed:
        deal.take(next(iter(deal.stood)), deal.pool)
        deal.ending = "stakes given up"
        return deal

    standers = [t % n for t in range(1, n + 1) if t % n in deal.stood]

    # Five-card: flushes sweep the board.
    if k == 5:
        flushes = [(laws.flush(hands[r]), -j, r) for j, r in enumerate(standers) if laws.flush(hands[r])]
        if flushes:
            deal.sweeper = max(flushes)[2]
            deal.take(deal.sweeper, deal.pool)
            for r in standers:
                if r != deal.sweeper and not (rules.pam_exempt and laws.pam in hands[r]):
                    deal.looed.add(r)
                    deal.pay(r, loo)
                    deal.carried_on += loo
            deal.ending = "flush"
            return deal

    # The play.
    share = deal.pool // k
    leader = standers[0]
    n_played = 0
    for trick_no in range(k):
        order_ = standers[standers.index(leader) :] + standers[: standers.index(leader)]
        trick = []
        state[C.S_TRICK], state[C.S_TRICK_START], state[C.S_LEADER] = trick_no, n_played, leader
        state[C.S_BEST] = state[C.S_WINNING] = -1
        for role in order_:
            hand = hands[role]
            cards = [c for _, c in trick]
            legal = laws.legal(hand, cards)
            forced = laws.forced_lead([c for c in hand]) if trick_no == 0 and not trick else None
            if forced is not None:
                i = forced
            elif len(legal) == 1:
                i = legal[0]
            else:
                state[C.S_SEAT], state[C.S_ROLE] = seat(role), role
                state[C.S_LEGAL] = sum(1 << j for j in legal)
                i = call("card", role, np.array(hand, dtype=np.int64), table.played, state)
                if i not in legal:
                    raise PolicyError(f"card {i}")
            card = hand[i]
            hand[i] = -1
            trick.append((role, card))
            table.played[n_played] = (card, role)
            n_played += 1
            w, _ = laws.winning([c for _, c in trick])
            state[C.S_BEST], state[C.S_WINNING] = trick[w][1], trick[w][0]
            state[C.S_N_PLAYED] = n_played
        w, _ = laws.winning([c for _, c in trick])
        leader = trick[w][0]
        deal.tricks.append(trick)
        deal.winners.append(leader)
        deal.take(leader, share)
        state[C.S_TRICKS + leader] += 1

    # Looes.
    for r in standers:
        if r not in deal.winners:
            deal.looed.add(r)
            deal.pay(r, loo)
            deal.carried_on += loo
    return deal


# -- runs on the engine's streams ---------------------------------------------------------------------


def simulate_deals(rules, policies, n, seed, chunk_size=4096, clean=False) -> list[Deal]:
    """Independent deals ``0 .. n-1`` on the engine's streams (deal ``g`` dealt by seat ``g % players``)."""
    rules = get_rules(rules)
    seats = seat_policies(rules, policies)
    keys = chunk_keys(seed, 0, -(-n // chunk_size), GAME.n_streams)
    deals = []
    for g in range(n):
        deck_rng, seat_rngs = streams(keys[g // chunk_size], g % chunk_size, rules.players)
        deals.append(play_deal(rules, g % rules.players, 0 if clean else rules.stake, Pack(deck_rng), seat_rngs, seats))
    return deals


@dataclass
class Session:
    """A session: the first dealer, its deals, and the pool left on the table."""

    first_dealer: int
    deals: list
    pool_left: int

    def money(self, players) -> list[int]:
        """Each seat's money over the session."""
        total = [0] * players
        for d in self.deals:
            for r, m in d.money.items():
                total[(d.dealer + r) % players] += m
        return total

    def record(self, players) -> dict:
        """The engine's per-session row."""
        row = {
            "first_dealer": self.first_dealer,
            "pool_left": self.pool_left,
            "largest_pool": max(d.pool for d in self.deals),
        }
        row.update({f"money_{s}": m for s, m in enumerate(self.money(players))})
        return row


def play_session(rules, deck_rng, seat_rngs, policies, on_deal=None) -> Session:
    """The deals of a session, the deal passing left from the first dealer; ``on_deal(deal)`` as each ends."""
    rules = get_rules(rules)
    first = reference_cut_for_deal(deck_rng, rules.players, CUT_ORDER)
    carry, deals = 0, []
    for d in range(rules.session_deals):
        deal = play_deal(rules, (first + d) % rules.players, carry, Pack(deck_rng), seat_rngs, policies)
        deals.append(deal)
        if on_deal is not None:
            on_deal(deal)
        carry = deal.carried_on
    return Session(first, deals, carry)


def play_games(rules, policies, n, seed, chunk_size=None) -> list[Session]:
    """Sessions ``0 .. n-1`` on the engine's streams."""
    rules = get_rules(rules)
    chunk_size = chunk_size or GAME.chunk_size["games"]
    seats = seat_policies(rules, policies)
    keys = chunk_keys(seed, 0, -(-n // chunk_size), GAME.n_streams)
    out = []
    for g in range(n):
        deck_rng, seat_rngs = streams(keys[g // chunk_size], g % chunk_size, rules.players)
        out.append(play_session(rules, deck_rng, seat_rngs, seats))
    return out
