"""One deal of any variant, and one whole game: the njit kernels.

A deal (docs/rules.md, Mottoes, Rules of Cribbage, Sections 87-96): shuffle; deal; discards,
eldest first round to the dealer; the crib completed from the pack where the
variant says so; the starter cut, a jack being "two for his heels" to the
dealer at once; the play (go and thirty-one, the player left of the last
player leading the next count, a single count in two-handed five-card, the
last card 1); the show in counting order, eldest first round to the dealer,
then the crib.  A game ends the instant a side reaches the target, during the
play or in the middle of the show.

The kernels score into ``scores[side]`` and into ``comp[role, component]``;
they return the winning side, ``NO_WINNER`` or ``POLICY_ERROR`` (with the
situation written into ``err`` for the Python layer to report).
"""

from __future__ import annotations

import numpy as np

from ..cards import format_cards
from ..core.cut import cut_for_deal
from ..core.errors import E_ANSWER, E_DECISION, E_GAME, E_SEAT
from ..core.kernel import njit
from ..core.rng import randint, seed_state
from ..core.streams import overran, overrun, own_stream, seat_streams, stream_intact
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
    is_legal_play,
    is_valid_throw,
    split_throw,
)
from .pegging import MAX_COUNT, card_value, count_points, pattern_points
from .rules import (
    CUT_ORDER,
    R_ACTIVE,
    R_BATH,
    R_CRIB_FLUSH_FOUR,
    R_DEALT,
    R_FROM_PACK,
    R_KEPT,
    R_ONE_COUNT,
    R_PARTNERS,
    R_PLAYERS,
    R_TARGET,
    R_THREE_FOR_LAST,
    R_THROW,
)
from .scoring import JACK, show_points

# Points by where they come from: the show of the hand and of the crib; the play (fifteens, thirty-one,
# pairs, runs, Bath flushes); the go (end hole and last card); his heels.  ``pegging`` is play + go and
# ``total`` everything.  Three for last (five-card) is a game-start score, in the game record only.
COMPONENTS = ("hand", "crib", "play", "go", "heels", "pegging", "total")
C_HAND, C_CRIB, C_PLAY, C_GO, C_HEELS, C_PEGGING, C_TOTAL = range(7)
N_COMP = len(COMPONENTS)
MAX_SEATS = 4

# The play's position (``at`` in :func:`play_out`); A_ROOM packs each role's room (``S_ROOM``), ROOM_BITS a role.
A_COUNT, A_START, A_N_PLAYED, A_GO_MASK, A_TURN, A_LAST, A_ROOM, A_SIZE = range(8)
ROOM_BITS, ROOM_MASK = 5, 31

NO_WINNER = -1
POLICY_ERROR = -2

# The deal's own loops (play_deal, play_dealt, play_out) only read and write arrays their callers own and allocate
# nothing, so they are compiled without reference counting (refcounts=False, sims.core.kernel.njit): numba's atomic
# increments and decrements for every array argument and view were a fifth of a random deal's time.

# ``err`` when a policy answers illegally (sims.core.errors): the count, then the cards in hand.
E_COUNT, E_N_CARDS, E_CARDS = E_GAME, E_GAME + 1, E_GAME + 2
ERR_DISCARD, ERR_PEG = 1, 2  # 1 + the decision's place in GAME.decisions

# Game record columns.
G_FIRST_DEALER, G_WINNER, G_DEALS = 0, 1, 2
G_SCORE = 3  # final score of side s at G_SCORE + s
G_FIRST_DEAL = G_SCORE + 4  # points side s made in the first deal at G_FIRST_DEAL + s
G_COLS = G_FIRST_DEAL + 4
MAX_DEALS = 10_000  # every deal scores at least the last card, so games end long before


def describe_illegal(rules, row) -> str:
    """An illegal discard or card in words (an ``err`` row), with the cards the policy held."""
    cards = format_cards(int(x) for x in row[E_CARDS : E_CARDS + row[E_N_CARDS]] if x >= 0)
    answer = int(row[E_ANSWER])
    if row[E_DECISION] == ERR_DISCARD:
        return (
            f"returned mask {answer} for hand {cards}: it must name exactly {rules.throw} of the "
            f"{rules.cards_dealt} cards"
        )
    return (
        f"chose index {answer} with count {int(row[E_COUNT])} and cards {cards} in hand: it must pick a card "
        f"still held that keeps the count within 31"
    )


@njit(cache=True)
def new_work(rules):
    """Scratch arrays for :func:`play_deal`: deck, hands dealt, kept, in play, thrown, crib, played, policy
    state, and the play's position."""
    deck = np.empty(52, dtype=np.int64)
    hands = np.empty((MAX_SEATS, rules[R_DEALT]), dtype=np.int64)
    kept = np.empty((MAX_SEATS, rules[R_KEPT]), dtype=np.int64)
    in_play = np.empty((MAX_SEATS, rules[R_KEPT]), dtype=np.int64)
    thrown = np.full((MAX_SEATS, 2), -1, dtype=np.int64)
    crib = np.empty(4, dtype=np.int64)
    played = np.empty(rules[R_ACTIVE] * rules[R_KEPT], dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    at = np.zeros(A_SIZE, dtype=np.int64)
    return deck, hands, kept, in_play, thrown, crib, played, state, at


@njit(cache=True)
def deal_buffers(rules):
    """A thread's buffers for playing deals: :func:`new_work`, the deck's and each seat's random states
    (:func:`seed_streams`; the seats' guarded, :mod:`sims.core.streams`), the scores by side and the points by
    role and component."""
    return (
        new_work(rules),
        np.empty(4, dtype=np.uint64),
        seat_streams(MAX_SEATS),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros((MAX_SEATS, N_COMP), dtype=np.int64),
    )


@njit(cache=True, reads=("state", "played"))
def play_out_buffers(state, played):
    """What a player's play-outs from his decision (``state``, the cards ``played``) work in: the cards each
    seat threw (his own from ``state``, the others' unknown), a copy of the cards played, the state and the
    position :func:`play_out` fills, the scores by side and the points by role and component."""
    thrown = np.full((MAX_SEATS, 2), -1, dtype=np.int64)
    role = state[S_ROLE]
    thrown[role, 0], thrown[role, 1] = state[S_THROWN], state[S_THROWN + 1]
    return (
        thrown,
        np.empty(played.shape[0], dtype=np.int64),
        np.zeros(S_SIZE, dtype=np.int64),
        np.zeros(A_SIZE, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros((MAX_SEATS, N_COMP), dtype=np.int64),
    )


@njit(cache=True, reads=("rules",))
def net_pegging(rules, comp, role, start):
    """``start`` plus the pegging (play and go) of ``role``'s side less each opposing side's share: what a player
    nets from a play, mine less his (with three players each opponent's half; partners share a side)."""
    active, partners = rules[R_ACTIVE], rules[R_PARTNERS] != 0
    opp_sides = 1 if partners else active - 1
    net = start
    for r in range(active):
        if r == role or (partners and r % 2 == role % 2):
            net += comp[r, C_PEGGING]
        else:
            net -= comp[r, C_PEGGING] / opp_sides
    return net


@njit(cache=True, inline="always")
def side_of(rules, seat):
    """Partners (seats opposite) share a side; otherwise each seat is its own side."""
    return seat & 1 if rules[R_PARTNERS] else seat


@njit(cache=True, inline="always")
def after(x, k, m):
    """``(x + k) % m`` for ``0 <= x, k < m`` without a division: the seat ``k`` places after seat ``x``, the
    player in role ``k`` from the dealer ``x``."""
    y = x + k
    return y - m if y >= m else y


@njit(cache=True, inline="always")
def _fill_state(state, rules, role, seat, dealer, scores, starter, position, thrown_row):
    _fill_deal(state, rules, dealer, starter)
    _fill_turn(state, rules, role, seat, dealer, scores, position, thrown_row)


@njit(cache=True, inline="always")
def _fill_deal(state, rules, dealer, starter):
    """What a policy sees that stays the same for a whole play."""
    state[S_DEALER] = dealer
    state[S_ACTIVE] = rules[R_ACTIVE]
    state[S_STARTER] = starter
    state[S_TARGET] = rules[R_TARGET]


@njit(cache=True, inline="always")
def _fill_turn(state, rules, role, seat, dealer, scores, position, thrown_row):
    """What a policy sees that changes from turn to turn (the play writes the rest once, :func:`_fill_deal`):
    the ``position`` of the play is (count, where the count began, cards laid, go mask, room), ``room``
    packing each role's room (:func:`widen_room`), of which the others' are shown."""
    count, count_start, n_played, go_mask, room = position
    state[S_SEAT] = seat
    state[S_ROLE] = role
    state[S_COUNT] = count
    state[S_COUNT_START] = count_start
    state[S_N_PLAYED] = n_played
    mine = side_of(rules, seat)
    state[S_MY_SCORE] = scores[mine]
    best = 0
    sides = 2 if rules[R_PARTNERS] else rules[R_PLAYERS]
    for s in range(sides):
        if s != mine and scores[s] > best:
            best = scores[s]
    state[S_OPP_SCORE] = best
    state[S_CRIB_MINE] = 1 if side_of(rules, dealer) == mine else 0
    state[S_GO_MASK] = go_mask
    state[S_THROWN] = thrown_row[0]
    state[S_THROWN + 1] = thrown_row[1]
    for r in range(MAX_SEATS):
        state[S_ROOM + r] = 0 if r == role else (room >> (ROOM_BITS * r)) & ROOM_MASK


@njit(cache=True, inline="always")
def widen_room(room, role, count):
    """``room`` (ROOM_BITS a role) once the player in ``role`` could not lay at ``count``: his room is at
    least what the count left, as none of his cards fitted."""
    shift = ROOM_BITS * role
    return (room & ~(ROOM_MASK << shift)) | (max((room >> shift) & ROOM_MASK, MAX_COUNT - count) << shift)


@njit(cache=True, inline="always")
def _score(rules, scores, comp, dealer, role, component, points, check_target):
    """Peg ``points`` for the player in ``role``; True if his side has reached the target."""
    seat = after(dealer, role, rules[R_PLAYERS])
    side = side_of(rules, seat)
    scores[side] += points
    comp[role, component] += points
    if component == C_PLAY or component == C_GO:
        comp[role, C_PEGGING] += points
    comp[role, C_TOTAL] += points
    return check_target and scores[side] >= rules[R_TARGET]


# The play keeps, for each role, the lowest value among the cards still held (NONE_HELD when none) in 6 bits of one
# integer, ``lows``: a player can play when his lowest card fits the count, one comparison, where looking through
# his cards for one that fits was a branch per card at every turn and every go.
LOW_BITS, LOW_MASK, NONE_HELD = 6, 63, MAX_COUNT + 1


@njit(cache=True, inline="always")
def _lowest(hand):
    """The lowest value of the cards still held in ``hand`` (-1 once laid), NONE_HELD if none.  A laid card counts
    NONE_HELD by arithmetic (its value is 0, its sign bit adds NONE_HELD), not by a branch on which cards are laid,
    which was mispredicted at every other card."""
    low = NONE_HELD
    for i in range(hand.shape[0]):
        low = min(low, card_value(hand[i]) + ((hand[i] >> 63) & NONE_HELD))
    return low


@njit(cache=True, inline="always")
def _can_play(lows, role, count):
    return count + ((lows >> (LOW_BITS * role)) & LOW_MASK) <= MAX_COUNT


@njit(cache=True)
def _policy_error(err, kind, seat, answer, count, cards):
    err[E_DECISION] = kind
    err[E_SEAT] = seat
    err[E_ANSWER] = answer
    err[E_COUNT] = count
    err[E_N_CARDS] = cards.shape[0]
    for i in range(cards.shape[0]):
        err[E_CARDS + i] = cards[i]
    return POLICY_ERROR


@njit(cache=True, refcounts=False, reads=("rules",))
def play_out(rules, dealer, scores, check_target, starter, cards, state, at, seat_rngs, pegs, comp, err):
    """The play from the position ``at`` (``A_*``: count, where it began, cards laid, go mask, turn, last
    player) to its end, scoring as it goes; returns the winning side, NO_WINNER or POLICY_ERROR.

    The ``cards`` are ``(in_play, played, thrown)``: ``in_play[role]`` the cards not yet laid (-1 once laid),
    the cards ``played`` in order, the two each role ``thrown`` to the crib; the ``pegs`` are each seat's
    pegging policy, the parameters and their offsets (``(peg_fns, params, poff)``).  A player who can play must; when
    nobody can, the last player scores the go (1; thirty-one scored 2 as it was made), the count
    restarts and the player on his left leads; the last card of all scores 1.  Rollout policies call
    this from any position to finish a play with a base policy.
    """
    in_play, played, thrown = cards
    peg_fns, params, poff = pegs
    players, n = rules[R_PLAYERS], rules[R_ACTIVE]
    bath = rules[R_BATH] != 0
    count, count_start, n_played = at[A_COUNT], at[A_START], at[A_N_PLAYED]
    go_mask, turn, last, room = at[A_GO_MASK], at[A_TURN], at[A_LAST], at[A_ROOM]
    remaining = 0
    lows = 0
    for r in range(n):
        for i in range(in_play.shape[1]):
            remaining += in_play[r, i] >= 0
        lows |= _lowest(in_play[r]) << (LOW_BITS * r)
    winner = NO_WINNER
    _fill_deal(state, rules, dealer, starter)
    while remaining > 0:
        hand = in_play[turn]
        if _can_play(lows, turn, count):
            seat = after(dealer, turn, players)
            position = (count, count_start, n_played, go_mask, room)
            _fill_turn(state, rules, turn, seat, dealer, scores, position, thrown[turn])
            own = params[poff[2 * seat + 1] : poff[2 * seat + 2]]
            i = peg_fns[seat](hand, played, state, rules, own_stream(seat_rngs, seat), own)
            if not is_legal_play(hand, i, count):
                if not overran(seat_rngs, players, err, ERR_PEG):  # a stream written past is told first
                    _policy_error(err, ERR_PEG, seat, i, count, hand)
                return POLICY_ERROR
            card = hand[i]
            hand[i] = -1
            lows = (lows & ~(LOW_MASK << (LOW_BITS * turn))) | (_lowest(hand) << (LOW_BITS * turn))
            points = count_points(count + card_value(card)) + pattern_points(played, count_start, n_played, card, bath)
            played[n_played] = card
            n_played += 1
            count += card_value(card)
            remaining -= 1
            last = turn
            if points and _score(rules, scores, comp, dealer, turn, C_PLAY, points, check_target):
                winner = side_of(rules, after(dealer, turn, players))
                break
            if count == MAX_COUNT:  # thirty-one ends the count; its 2 are in ``points``
                count, count_start, go_mask = 0, n_played, 0
                if rules[R_ONE_COUNT]:
                    break
                turn = after(last, 1, n)
                continue
            turn = after(turn, 1, n)
            continue
        go_mask |= 1 << turn
        room = widen_room(room, turn, count)
        anyone = False
        for r in range(n):
            anyone |= _can_play(lows, r, count)
        if anyone:
            turn = after(turn, 1, n)
            continue
        # Nobody can play: the end hole to the last player, then a new count led from his left.
        for r in range(n):
            room = widen_room(room, r, count)
        if _score(rules, scores, comp, dealer, last, C_GO, 1, check_target):
            winner = side_of(rules, after(dealer, last, players))
            break
        count, count_start, go_mask = 0, n_played, 0
        if rules[R_ONE_COUNT]:  # two-handed five-card: one count only, cards left are not played
            break
        turn = after(last, 1, n)
    # The guards once the play is over, not after every card (at every card they took 5-9% of a random game): the
    # words a policy may write past its stream are its own row's (sims.core.streams).
    if overran(seat_rngs, players, err, ERR_PEG):
        return POLICY_ERROR
    if winner == NO_WINNER and count > 0 and _score(rules, scores, comp, dealer, last, C_GO, 1, check_target):
        winner = side_of(rules, after(dealer, last, players))  # the last card of all
    at[A_COUNT], at[A_START], at[A_N_PLAYED] = count, count_start, n_played
    at[A_GO_MASK], at[A_TURN], at[A_LAST], at[A_ROOM] = go_mask, turn, last, room
    return winner


@njit(cache=True, inline="always")
def lay_candidate(rules, state, buf, card, at):
    """Lay ``card``, a candidate for the decision in ``state``, on the cards played ``buf`` as :func:`play_out`
    would, and set ``at`` to the position after it (thirty-one ends the count): True if that ends the play
    (thirty-one in a game of one count).  What the card scores is the caller's to peg."""
    count, start, n, role = state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED], state[S_ROLE]
    buf[n] = card
    then = count + card_value(card)
    at[A_COUNT], at[A_START], at[A_N_PLAYED] = then, start, n + 1
    at[A_GO_MASK], at[A_TURN], at[A_LAST] = state[S_GO_MASK], after(role, 1, rules[R_ACTIVE]), role
    room = 0
    for r in range(MAX_SEATS):
        room |= state[S_ROOM + r] << (ROOM_BITS * r)
    at[A_ROOM] = room  # the others' rooms as the decision shows them (its player's own is not shown)
    if then == MAX_COUNT:
        at[A_COUNT], at[A_START], at[A_GO_MASK] = 0, n + 1, 0
        return rules[R_ONE_COUNT] != 0
    return False


@njit(cache=True)
def seed_streams(keys, c, i, deck_rng, seat_rngs):
    """The random states of item ``i`` of chunk ``c``: the deck's from key 0, each seat's from key 1 + seat."""
    seed_state(deck_rng, keys[c, 0], i)
    for s in range(MAX_SEATS):
        seed_state(seat_rngs[s], keys[c, 1 + s], i)


@njit(cache=True, inline="always")
def fresh_deal(rules, keys, c, i, dealer, buffers, policies, params, poff, err):
    """Item ``i`` of chunk ``c`` as a deal on its own, in ``buffers`` (:func:`deal_buffers`): its streams seeded
    (:func:`seed_streams`), no score and no points yet, then :func:`play_deal` with ``dealer`` dealing, the
    ``policies`` (discards, pegs) and no target; what that returns."""
    work, deck_rng, seat_rngs, scores, comp = buffers
    seed_streams(keys, c, i, deck_rng, seat_rngs)
    scores[:] = 0
    comp[:, :] = 0
    return play_deal(rules, dealer, scores, False, deck_rng, seat_rngs, policies, params, poff, comp, err, work)


@njit(cache=True)
def shuffle(rules, deck_rng, deck):
    """The shuffle: only the cards the deal needs are drawn (partial Fisher-Yates)."""
    for i in range(52):
        deck[i] = i
    for i in range(rules[R_ACTIVE] * rules[R_DEALT] + rules[R_FROM_PACK] + 1):
        j = i + randint(deck_rng, 52 - i)
        deck[i], deck[j] = deck[j], deck[i]


@njit(cache=True, refcounts=False)
def play_deal(rules, dealer, scores, check_target, deck_rng, seat_rngs, policies, params, poff, comp, err, work):
    """Shuffle, then play one deal with ``dealer`` dealing, the ``policies`` (discards, pegs); returns the
    winning side, NO_WINNER or POLICY_ERROR."""
    shuffle(rules, deck_rng, work[0])
    return play_dealt(rules, dealer, scores, check_target, seat_rngs, policies, params, poff, comp, err, work)


@njit(cache=True, refcounts=False)
def play_dealt(rules, dealer, scores, check_target, seat_rngs, policies, params, poff, comp, err, work):
    """Play one deal from the deck in ``work[0]``: the hands by role from the dealer, then the cards the
    crib takes from the pack, then the starter (:func:`play_deal` shuffles it; rule-book replays stack it)."""
    discard_fns, peg_fns = policies
    deck, hands, kept, in_play, thrown, crib, played, state, _ = work
    players, n = rules[R_PLAYERS], rules[R_ACTIVE]
    dealt, k, n_kept = rules[R_DEALT], rules[R_THROW], rules[R_KEPT]

    # The deal.
    pos = 0
    for r in range(n):
        for c in range(dealt):
            hands[r, c] = deck[pos]
            pos += 1

    # Laying out for the crib, eldest first (Mottoes: "the left-hand player throws out first").
    n_crib = 0
    for t in range(n):
        role = after(t, 1, n)
        seat = after(dealer, role, players)
        thrown[role, 0] = -1
        thrown[role, 1] = -1
        _fill_state(state, rules, role, seat, dealer, scores, -1, (0, 0, 0, 0, 0), thrown[role])
        own = params[poff[2 * seat] : poff[2 * seat + 1]]
        mask = discard_fns[seat](hands[role], state, rules, own_stream(seat_rngs, seat), own)
        if not stream_intact(seat_rngs, seat):
            overrun(err, ERR_DISCARD, seat)
            return POLICY_ERROR
        if not is_valid_throw(mask, dealt, k):
            return _policy_error(err, ERR_DISCARD, seat, mask, 0, hands[role])
        split_throw(hands[role], mask, kept[role], thrown[role])
        for i in range(k):
            crib[n_crib] = thrown[role, i]
            n_crib += 1
    for _ in range(rules[R_FROM_PACK]):
        crib[n_crib] = deck[pos]
        n_crib += 1
        pos += 1
    starter = deck[pos]
    for r in range(n):
        for i in range(n_kept):
            in_play[r, i] = kept[r, i]

    # His heels: a jack turned up is two to the dealer at once.
    if starter >> 2 == JACK and _score(rules, scores, comp, dealer, 0, C_HEELS, 2, check_target):
        return side_of(rules, dealer)

    # The play, from its opening: the eldest leads to an empty count.
    at = work[8]
    at[:] = 0
    at[A_TURN], at[A_LAST] = 1 % n, -1
    cards, pegs = (in_play, played, thrown), (peg_fns, params, poff)
    winner = play_out(rules, dealer, scores, check_target, starter, cards, state, at, seat_rngs, pegs, comp, err)
    if winner != NO_WINNER:
        return winner

    # The show: eldest first round to the dealer, then the crib.
    for t in range(1, n + 1):
        role = t if t < n else 0
        points = show_points(kept[role], n_kept, starter, False, False)
        if points and _score(rules, scores, comp, dealer, role, C_HAND, points, check_target):
            return side_of(rules, after(dealer, role, players))
    points = show_points(crib, 4, starter, True, rules[R_CRIB_FLUSH_FOUR] != 0)
    if points and _score(rules, scores, comp, dealer, 0, C_CRIB, points, check_target):
        return side_of(rules, dealer)
    return NO_WINNER


@njit(cache=True, refcounts=False)
def play_game(rules, deck_rng, seat_rngs, policies, params, poff, scores, comp, err, work, row, log):
    """A whole game: cut for deal, three for last, deals passing left until a side reaches the target; the
    ``policies`` are the discards' and the pegs'.

    Keeps the score by side in ``scores``; writes the game record into ``row`` (``G_*`` columns) and, when
    ``log`` has rows, each deal's dealer and the scores after it.  Returns the winning side or POLICY_ERROR.
    """
    players = rules[R_PLAYERS]
    scores[:] = 0
    first = cut_for_deal(deck_rng, players, work[0], CUT_ORDER)
    row[:] = 0
    row[G_FIRST_DEALER] = first
    if rules[R_THREE_FOR_LAST]:  # Rules of Cribbage, rule 10: the non-dealer scores three at the start of the game
        scores[side_of(rules, (first + 1) % players)] += 3
    for s in range(MAX_SEATS):
        row[G_FIRST_DEAL + s] = -scores[s]  # the first deal's points: the scores after it, less these
    dealer = first
    winner = NO_WINNER
    deals = 0
    while winner == NO_WINNER and deals < MAX_DEALS:
        comp[:, :] = 0
        winner = play_deal(rules, dealer, scores, True, deck_rng, seat_rngs, policies, params, poff, comp, err, work)
        if winner == POLICY_ERROR:
            return POLICY_ERROR
        if deals == 0:
            for s in range(MAX_SEATS):
                row[G_FIRST_DEAL + s] += scores[s]
        if deals < log.shape[0]:
            log[deals, 0] = dealer
            for s in range(MAX_SEATS):
                log[deals, 1 + s] = scores[s]
        deals += 1
        dealer = after(dealer, 1, players)
    row[G_WINNER] = winner
    row[G_DEALS] = deals
    for s in range(MAX_SEATS):
        row[G_SCORE + s] = scores[s]
    return winner
