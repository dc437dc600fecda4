"""One deal of Loo and one session of deals with the pool carried over: the njit kernels.

A deal (Mottoes "Three-Card Loo", "Five-Card Loo"; Sections 87-96 §96; docs/rules.md, Loo):

1. The dealer stakes; on a deal with nothing carried over, a *single* (no miss,
   everyone plays) or, under ``single = stake-all``, everyone stakes.
2. The cards, one at a time from the dealer's left: three each and the miss as the
   last hand of each round, or five each; the next card is turned for trump.
3. Declarations from the dealer's left: play, take the miss (three-card; the miss is
   then gone) or pass (five-card: stand, exchanging cards from the pack, or throw
   up).  Nobody standing before the dealer: he takes the pool.  One standing: the
   dealer plays or gives up the stakes, and the stander takes the pool.
4. Five-card: the best flush among the standers sweeps the pool; every other
   stander but the holder of Pam is looed.
5. The play: the first stander on the dealer's left leads (the forced leads of
   :func:`sims.loo.tricks.forced_lead`), the others follow and head
   (:func:`sims.loo.tricks.legal_mask`); each trick takes its share of the pool.
6. A stander who took no trick is looed: he pays the stake (limited loo), or what
   the pool held up to ``loo_limit`` (unlimited), into the next pool.

Money is conserved: the players' gains (``out[:, O_MONEY]``) add up to what the pool
held over from before less what it carries to the next deal.  :func:`play_deal`
shuffles as it deals (a Fisher-Yates step per card, so five-card exchanges draw from
the same shuffled pack); :func:`play_dealt` plays a stacked deck.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..core.cut import cut_for_deal
from ..core.errors import E_ANSWER, E_DECISION, E_GAME, E_SEAT
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I64_1
from ..core.rng import randint
from ..core.streams import overrun, own_stream, stream_intact
from .contract import (
    MAX_CARDS,
    MAX_PLAYS,
    MAX_SEATS,
    MISS,
    PASS,
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
    CardFn,
    DecideFn,
    is_legal_card,
    is_legal_declaration,
    is_legal_exchange,
    popcount,
)
from .rules import (
    CUT_ORDER,
    R_CARDS,
    R_LOO_LIMIT,
    R_PAM_CIVIL,
    R_PAM_EXEMPT,
    R_PAM_TRUMPS,
    R_PLAYERS,
    R_ROUNDS,
    R_STAKE,
    R_STAKE_ALL,
    R_UNLIMITED,
)
from .tricks import flush_value, forced_lead, legal_mask, pam_of, power, suit_of

# What each player (by role) made of a deal.
OUTCOMES = ("money", "won", "stood", "miss", "looed", "tricks", "swept")
O_MONEY, O_WON, O_STOOD, O_MISS, O_LOOED, O_TRICKS, O_SWEPT = range(7)
N_OUT = len(OUTCOMES)

# The deal as a whole: the money held over into its pool (carry), the pool played for (carry and the stakes), what
# it carries on into the next pool (the looes; the next dealer's stake is not in it), the standers, a single?,
# how it ended, the dealer's seat.
INFO = ("carry", "pool", "carried_on", "standers", "single", "ending", "dealer")
I_CARRY, I_POOL, I_NEXT, I_STANDERS, I_SINGLE, I_ENDING, I_DEALER = range(7)
N_INFO = len(INFO)
ENDINGS = ("played", "dealer takes the pool", "stakes given up", "flush")
END_PLAYED, END_DEALER_TAKES, END_GIVEN_UP, END_FLUSH = range(4)

POLICY_ERROR = -1
D_DECLARE, D_EXCHANGE, D_CARD = range(3)  # the decisions, in the order of the Game record
N_DECISIONS = 3

# ``err`` beyond the core's columns (sims.core.errors): the situation of an illegal answer.
E_ROLE, E_LEGAL, E_TRUMP, E_PACK, E_MISS_OPEN, E_N_CARDS, E_CARDS = range(E_GAME, E_GAME + 7)

MISS_ROW = MAX_SEATS  # row of ``hands`` holding the miss

# ``given`` (:func:`play_given`): declarations and exchanges by order of declaring, then the cards of the play.
GIVEN_DECLARE, GIVEN_EXCHANGE, GIVEN_CARDS = 0, MAX_SEATS, 2 * MAX_SEATS
NOTHING_GIVEN = np.full(GIVEN_CARDS, -1, dtype=np.int64)

# The players, as a deal takes them: each decision's policies by seat, and every seat's parameters with their
# offsets (:meth:`sims.core.jobs.Job.kernel_policies`).
DECIDES = types.UniTuple(DecideFn, MAX_SEATS)
CARDS = types.UniTuple(CardFn, MAX_SEATS)
PLAYERS = types.Tuple((types.Tuple((DECIDES, DECIDES, CARDS)), F64_1, I64_1))


@njit(cache=True)
def new_work(rules):
    """Scratch for a deal: the deck and its cursor (next card, cards shuffled), hands by role (the miss in row
    MISS_ROW), the hands as dealt, the policy state, the cards played (card, role), each trick's winner, the
    standers in order."""
    k = rules[R_CARDS]
    deck = np.arange(52, dtype=np.int64)
    cursor = np.zeros(2, dtype=np.int64)
    hands = np.full((MAX_SEATS + 1, k), -1, dtype=np.int64)
    dealt = np.full((MAX_SEATS, k), -1, dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    played = np.full((MAX_PLAYS, 2), -1, dtype=np.int64)
    winners = np.full(MAX_CARDS, -1, dtype=np.int64)
    seq = np.zeros(MAX_SEATS, dtype=np.int64)
    return deck, cursor, hands, dealt, state, played, winners, seq


@njit(cache=True, inline="always")
def next_card(deck, cursor, deck_rng):
    """The next card of the pack; a card not yet shuffled is drawn now (one Fisher-Yates step)."""
    k = cursor[0]
    if k >= cursor[1]:
        j = k + randint(deck_rng, 52 - k)
        deck[k], deck[j] = deck[j], deck[k]
        cursor[1] = k + 1
    cursor[0] = k + 1
    return deck[k]


@njit(cache=True, refcounts=False)
def _error(err, decision, seat, role, answer, legal, state, hand):
    err[E_DECISION] = 1 + decision
    err[E_SEAT] = seat
    err[E_ANSWER] = answer
    err[E_ROLE] = role
    err[E_LEGAL] = legal
    err[E_TRUMP] = state[S_TRUMP]
    err[E_PACK] = state[S_PACK]
    err[E_MISS_OPEN] = state[S_MISS]
    err[E_N_CARDS] = hand.shape[0]
    for i in range(hand.shape[0]):
        err[E_CARDS + i] = hand[i]
    return POLICY_ERROR


@njit(cache=True, inline="always")
def _pay(out, role, amount):
    """The player in ``role`` pays ``amount`` into the pool (a stake or a looe)."""
    out[role, O_MONEY] -= amount


@njit(cache=True, inline="always")
def _take(out, role, amount):
    """The player in ``role`` takes ``amount`` out of the pool."""
    out[role, O_MONEY] += amount
    out[role, O_WON] += amount


@njit(cache=True, refcounts=False)
def play_deal(rules, dealer, carry, deck_rng, seat_rngs, players, out, info, err, work):
    """Shuffle (as the cards are dealt) and play one deal; returns the next pool's carry-over, or POLICY_ERROR."""
    deck, cursor = work[0], work[1]
    for i in range(52):
        deck[i] = i
    cursor[0] = 0
    cursor[1] = 0
    return play_dealt(rules, dealer, carry, deck_rng, seat_rngs, players, out, info, err, work)


@njit(cache=True, refcounts=False)
def play_dealt(rules, dealer, carry, deck_rng, seat_rngs, players, out, info, err, work):
    """Play one deal from the pack in ``work`` (stacked: set ``work[1]`` to (0, 52)) with ``carry`` money held
    over in the pool, the seats played by ``players`` (:data:`PLAYERS`); fills ``out[role, O_*]`` and
    ``info[I_*]``; returns the carry-over to the next pool, or POLICY_ERROR with the situation in ``err``."""
    return play_given(rules, dealer, carry, deck_rng, seat_rngs, players, out, info, err, work, NOTHING_GIVEN)


@njit(cache=True, refcounts=False)
def play_given(rules, dealer, carry, deck_rng, seat_rngs, players, out, info, err, work, given):
    """:func:`play_dealt` with some decisions given rather than asked (the advisor's play-outs replay the
    decisions already taken and the one advised): ``given[GIVEN_DECLARE + t]`` the declaration of the t-th
    player to declare and ``given[GIVEN_EXCHANGE + t]`` his exchange (-1: ask), ``given[GIVEN_CARDS + k]``
    the k-th card of the play (a card the player holds and may play)."""
    (declare_fns, exchange_fns, card_fns), params, poff = players
    deck, cursor, hands, dealt, state, played, winners, seq = work
    n, k, stake = rules[R_PLAYERS], rules[R_CARDS], rules[R_STAKE]
    out[:, :] = 0
    info[:] = 0
    info[I_CARRY] = carry
    info[I_DEALER] = dealer

    # Stakes, and whether this is a single.
    clean = carry == 0
    single = clean and rules[R_STAKE_ALL] == 0
    miss_dealt = k == 3 and not single
    pool = carry + stake
    _pay(out, 0, stake)
    if clean and rules[R_STAKE_ALL] != 0:
        for r in range(1, n):
            _pay(out, r, stake)
            pool += stake
    info[I_POOL] = pool
    info[I_SINGLE] = single

    # The deal: one card at a time from the dealer's left, the miss as the last hand of each round.
    for c in range(k):
        for t in range(1, n + 1):
            hands[t % n, c] = next_card(deck, cursor, deck_rng)
        if miss_dealt:
            hands[MISS_ROW, c] = next_card(deck, cursor, deck_rng)
    trump = next_card(deck, cursor, deck_rng)
    trump_suit = trump & 3
    pam = pam_of(trump_suit, k, rules[R_PAM_TRUMPS] != 0)
    for r in range(n):
        for c in range(k):  # no row copy: no reference counting
            dealt[r, c] = hands[r, c]
    share = pool // k
    loo = min(pool, rules[R_LOO_LIMIT]) if rules[R_UNLIMITED] else stake

    state[:] = 0
    state[S_DEALER] = dealer
    state[S_PLAYERS] = n
    state[S_TRUMP] = trump
    state[S_TRUMP_SUIT] = trump_suit
    state[S_PAM] = pam
    state[S_POOL] = pool
    state[S_SHARE] = share
    state[S_LOO] = loo
    state[S_STAKE] = stake
    state[S_SINGLE] = single
    state[S_MISS] = miss_dealt
    state[S_MISS_TAKER] = -1
    state[S_PACK] = 52 - cursor[0] if k == 5 else 0
    state[S_LEADER] = -1
    state[S_BEST] = -1
    state[S_WINNING] = -1
    for r in range(MAX_SEATS):
        state[S_EXCHANGED + r] = -1

    # Declarations, from the dealer's left round to the dealer.
    stood = 0
    n_stood = 0
    dealer_passed = False
    for t in range(1, n + 1):
        role = t % n
        seat = (dealer + role) % n
        state[S_SEAT] = seat
        state[S_ROLE] = role
        state[S_DECLARED] = t - 1
        answer = 1
        if not single:
            if role == 0 and n_stood == 0:  # nobody stands: the dealer takes the pool
                _take(out, 0, pool)
                info[I_ENDING] = END_DEALER_TAKES
                info[I_NEXT] = 0
                return 0
            state[S_DEALER_CHOICE] = role == 0 and n_stood == 1
            if given[GIVEN_DECLARE + t - 1] >= 0:
                answer = given[GIVEN_DECLARE + t - 1]
            else:
                own = params[poff[seat * 3 + D_DECLARE] : poff[seat * 3 + D_DECLARE + 1]]
                answer = declare_fns[seat](hands[role], state, rules, own_stream(seat_rngs, seat), own)
                if not stream_intact(seat_rngs, seat):
                    overrun(err, 1 + D_DECLARE, seat)
                    return POLICY_ERROR
            if not is_legal_declaration(answer, state):
                return _error(err, D_DECLARE, seat, role, answer, 0, state, hands[role])
        if answer == PASS:
            dealer_passed = role == 0
            continue
        if answer == MISS:
            for c in range(k):
                hands[role, c], hands[MISS_ROW, c] = hands[MISS_ROW, c], hands[role, c]
            state[S_MISS] = 0
            state[S_MISS_TAKER] = role
            out[role, O_MISS] = 1
        stood |= 1 << role
        n_stood += 1
        out[role, O_STOOD] = 1
        state[S_STOOD] = stood
        state[S_N_STOOD] = n_stood
        if k == 5:  # five-card: a stander changes what cards he will for cards from the pack
            state[S_PACK] = 52 - cursor[0]
            if given[GIVEN_EXCHANGE + t - 1] >= 0:
                mask = given[GIVEN_EXCHANGE + t - 1]
            else:
                own = params[poff[seat * 3 + D_EXCHANGE] : poff[seat * 3 + D_EXCHANGE + 1]]
                mask = exchange_fns[seat](hands[role], state, rules, own_stream(seat_rngs, seat), own)
                if not stream_intact(seat_rngs, seat):
                    overrun(err, 1 + D_EXCHANGE, seat)
                    return POLICY_ERROR
            if not is_legal_exchange(mask, k, state[S_PACK]):
                return _error(err, D_EXCHANGE, seat, role, mask, 0, state, hands[role])
            for c in range(k):
                if (mask >> c) & 1:
                    hands[role, c] = next_card(deck, cursor, deck_rng)
            state[S_EXCHANGED + role] = popcount(mask)
            state[S_PACK] = 52 - cursor[0]
    state[S_DECLARED] = n
    state[S_DEALER_CHOICE] = 0
    info[I_STANDERS] = n_stood

    # One stander and the dealer gives up the stakes: the stander takes the pool without play.
    if n_stood == 1 and dealer_passed:
        for r in range(n):
            if (stood >> r) & 1:
                _take(out, r, pool)
        info[I_ENDING] = END_GIVEN_UP
        info[I_NEXT] = 0
        return 0

    # The standers in order from the dealer's left.
    m = 0
    for t in range(1, n + 1):
        if (stood >> (t % n)) & 1:
            seq[m] = t % n
            m += 1

    carried_on = 0
    # Five-card: the best flush sweeps the board (ties to the elder hand); the other standers are looed,
    # except the holder of Pam (``pam_exempt``).
    if k == 5:
        sweeper, best = -1, -1
        for j in range(m):
            v = flush_value(hands[seq[j]], trump_suit, pam)
            if v > best:
                sweeper, best = seq[j], v
        if sweeper >= 0:
            _take(out, sweeper, pool)
            out[sweeper, O_SWEPT] = 1
            for j in range(m):
                role = seq[j]
                holds_pam = False
                for c in range(k):
                    holds_pam |= hands[role, c] == pam
                if role != sweeper and not (holds_pam and rules[R_PAM_EXEMPT] != 0):
                    out[role, O_LOOED] = 1
                    _pay(out, role, loo)
                    carried_on += loo
            info[I_ENDING] = END_FLUSH
            info[I_NEXT] = carried_on
            return carried_on

    # The play.
    civil = rules[R_PAM_CIVIL] != 0
    lead = 0
    n_played = 0
    for trick in range(k):
        state[S_TRICK] = trick
        state[S_TRICK_START] = n_played
        state[S_LEADER] = seq[lead]
        led, led_suit, best_power, winner = -1, -1, -1, -1
        state[S_BEST] = -1
        state[S_WINNING] = -1
        for j in range(m):
            role = seq[(lead + j) % m]
            seat = (dealer + role) % n
            hand = hands[role]
            legal = legal_mask(hand, led, best_power, trump_suit, pam, civil)
            i = forced_lead(hand, trump_suit, pam) if trick == 0 and j == 0 else -1
            if GIVEN_CARDS + n_played < given.shape[0]:  # a card given: held and legal, else an error
                i = 0
                while i < hand.shape[0] and hand[i] != given[GIVEN_CARDS + n_played]:
                    i += 1
                if not is_legal_card(i, legal):
                    return _error(err, D_CARD, seat, role, i, legal, state, hand)
            elif i < 0:
                if popcount(legal) == 1:
                    i = 0
                    while not (legal >> i) & 1:
                        i += 1
                else:
                    state[S_SEAT] = seat
                    state[S_ROLE] = role
                    state[S_LEGAL] = legal
                    own = params[poff[seat * 3 + D_CARD] : poff[seat * 3 + D_CARD + 1]]
                    i = card_fns[seat](hand, played, state, rules, own_stream(seat_rngs, seat), own)
                    if not stream_intact(seat_rngs, seat):
                        overrun(err, 1 + D_CARD, seat)
                        return POLICY_ERROR
                    if not is_legal_card(i, legal):
                        return _error(err, D_CARD, seat, role, i, legal, state, hand)
            card = hand[i]
            hand[i] = -1
            played[n_played, 0] = card
            played[n_played, 1] = role
            n_played += 1
            if j == 0:
                led = card
                led_suit = suit_of(card, trump_suit, pam)
            p = power(card, led_suit, trump_suit, pam)
            if p > best_power:
                best_power, winner = p, role
                state[S_BEST] = card
                state[S_WINNING] = role
            state[S_N_PLAYED] = n_played
        out[winner, O_TRICKS] += 1
        _take(out, winner, share)
        state[S_TRICKS + winner] += 1
        winners[trick] = winner
        for j in range(m):
            if seq[j] == winner:
                lead = j

    # Looes: a stander who took no trick pays into the next pool.
    for j in range(m):
        role = seq[j]
        if out[role, O_TRICKS] == 0:
            out[role, O_LOOED] = 1
            _pay(out, role, loo)
            carried_on += loo
    info[I_ENDING] = END_PLAYED
    info[I_NEXT] = carried_on
    return carried_on


@njit(cache=True, refcounts=False)
def play_session(rules, deck_rng, seat_rngs, players, log_out, log_info, err, work):
    """A session: cut for deal, then ``session_rounds`` rounds of deals, the deal passing to the left and the
    pool carried from deal to deal.  Deal ``d`` writes ``log_out[d]`` (by role) and ``log_info[d]``.  Returns
    the money left in the pool at the end, or POLICY_ERROR."""
    n = rules[R_PLAYERS]
    first = cut_for_deal(deck_rng, n, work[0], CUT_ORDER)
    carry = 0
    for d in range(rules[R_ROUNDS] * n):
        dealer = (first + d) % n
        carry = play_deal(rules, dealer, carry, deck_rng, seat_rngs, players, log_out[d], log_info[d], err, work)
        if carry == POLICY_ERROR:
            return POLICY_ERROR
    return carry
