"""Triumph in njit: a deal and a game (the items of :func:`sims.core.driver.deal_loop`), their tallies, policies."""

import numpy as np

from sims.core.errors import E_ANSWER, E_DECISION, E_GAME, E_SEAT
from sims.core.kernel import njit
from sims.core.layout import Table, Tally
from sims.core.masks import nth_bit, popcount
from sims.core.rng import randint

from .rules import MAX_SEATS, R_CARDS, R_PLAYERS, R_TARGET, S_BEST, S_LED, S_SEAT, S_SIZE, S_TRUMP, S_TURNED

RECORD = "seat_{i}_{component}"  # a record's columns: seat_0_tricks ...
TALLY = Table("seat", ("tricks", "trump_tricks"), bins=14, size=MAX_SEATS, record=RECORD)  # a deal, each seat
GAME_TALLY = Table("seat", ("tricks", "trump_tricks"), bins=16, size=MAX_SEATS, record=RECORD)  # a game, each seat
WINS = Table("side", ("won",), size=MAX_SEATS, totals="count", record=RECORD)  # a game: 1 to the seat that won
DEALS, GAMES = Tally("deal", [TALLY]), Tally("game", [GAME_TALLY, WINS])  # what an item adds up, by kind
AT, WON = TALLY.at, GAMES.row(WINS)  # WON: the first row of WINS in a game's out


@njit(cache=True, inline="always")
def power(card, trump):
    """Higher wins: any trump beats any other card; aces high (rank 0 is the ace)."""
    rank = card >> 2
    return rank + 13 * (rank == 0) + 100 * ((card & 3) == trump)


@njit(cache=True, inline="always")
def beats(card, led, trump, best):
    """Whether ``card`` (a trump or of the suit led) beats the best card so far (``best``, its power)."""
    return ((card & 3) == led or (card & 3) == trump) and power(card, trump) > best


@njit(cache=True)
def legal(hand, led):
    """Bit i set when hand[i] may be played: a card of the suit led when he holds one, else any card."""
    follow, every = 0, 0
    for i in range(hand.shape[0]):
        if hand[i] >= 0:
            every |= 1 << i
            if (hand[i] & 3) == led:
                follow |= 1 << i
    return follow if follow else every


@njit(cache=True)
def random_card(hand, state, rules, rng, params):
    """A uniformly random legal card: one draw from the seat's stream, the pick-th legal card in hand order."""
    mask = legal(hand, state[S_LED])
    return nth_bit(mask, randint(rng, popcount(mask)))


@njit(cache=True)
def greedy_card(hand, state, rules, rng, params):
    """Lead the highest card; following, take the trick as cheaply as possible, else throw the lowest card."""
    trump, led, mask = state[S_TRUMP], state[S_LED], legal(hand, state[S_LED])
    best = power(state[S_BEST], trump) if led >= 0 else 0
    choice, key = -1, 0
    for i in range(hand.shape[0]):
        if (mask >> i) & 1:
            p = power(hand[i], trump)
            k = -p if led < 0 else (p - 1000 if beats(hand[i], led, trump, best) else p)
            if choice < 0 or k < key:
                choice, key = i, k
    return choice


@njit(cache=True)
def play_deal(rules, item, deck_rng, seat_rngs, policies, params, poff, out, err):
    """Deal ``item`` (dealt by seat item % players): the deal, the tricks, each seat's tally added to ``out``;
    1 as soon as a seat has ``target`` tricks there (the play stops), -1 after an illegal card, else 0."""
    players, cards, dealer = rules[R_PLAYERS], rules[R_CARDS], item % rules[R_PLAYERS]
    deck = np.arange(52)
    for j in range(players * cards + 1):  # a partial Fisher-Yates: only the cards dealt and the turn-up
        k = j + randint(deck_rng, 52 - j)
        deck[j], deck[k] = deck[k], deck[j]
    hands = np.empty((players, cards), dtype=np.int64)
    for r in range(players):  # the eldest (r = 0) first
        hands[(dealer + 1 + r) % players] = deck[r * cards : (r + 1) * cards]
    state, trump, leader = np.empty(S_SIZE, dtype=np.int64), deck[players * cards] & 3, (dealer + 1) % players
    state[S_TRUMP], state[S_TURNED] = trump, deck[players * cards]
    for _ in range(cards):
        state[S_LED], state[S_BEST], winner = -1, -1, leader
        for r in range(players):
            seat = (leader + r) % players
            hand, state[S_SEAT] = hands[seat], seat
            i = policies[0][seat](hand, state, rules, seat_rngs[seat], params[poff[seat] : poff[seat + 1]])
            if i < 0 or i >= cards or not (legal(hand, state[S_LED]) >> i) & 1:
                err[E_DECISION], err[E_SEAT], err[E_ANSWER] = 1, seat, i
                err[E_GAME : E_GAME + cards], err[E_GAME + cards] = hand, state[S_LED]
                return -1
            card, hand[i] = hand[i], -1
            if r == 0:
                state[S_LED] = card & 3
            if r == 0 or beats(card, state[S_LED], trump, power(state[S_BEST], trump)):
                state[S_BEST], winner = card, seat
        out[winner, AT.tricks] += 1
        out[winner, AT.trump_tricks] += (state[S_BEST] & 3) == trump
        if out[winner, AT.tricks] >= rules[R_TARGET]:
            return 1
        leader = winner
    return 0


@njit(cache=True)
def play_game(rules, item, deck_rng, seat_rngs, policies, params, poff, out, err):
    """Game ``item``: deals from seat item % players round to the left until a seat has ``target`` tricks."""
    ended = 0
    while ended == 0:
        ended = play_deal(rules, item, deck_rng, seat_rngs, policies, params, poff, out, err)
        item += 1
    out[WON : WON + MAX_SEATS, 0] = out[:MAX_SEATS, AT.tricks] >= rules[R_TARGET]
    return ended
