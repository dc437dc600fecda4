"""A plain-Python Triumph, one rule a line, on the kernel's random streams: the engine's oracle.  It seats the
kernel's own policies (:func:`seated`), so a rule the two engines read differently shows as a difference."""

from itertools import count, islice

import numpy as np

from sims.core.jobs import resolve_one
from sims.core.rng import randint

from .game import GAME


def taker(trick, trump: int) -> int:
    """The index of the card taking ``trick`` (so far): the highest trump, else the highest of the suit led (aces
    high)."""
    power = [(c % 4 in (trick[0] % 4, trump)) * ((c >> 2 or 13) + 100 * (c % 4 == trump)) for c in trick]
    return power.index(max(power))


def play_out(hands, turned: int, leader: int, choose, tally, target: int, trick=()) -> bool:
    """Play out ``hands`` (None where played), ``turned`` up, the trick in play ``trick`` (led by ``leader``), each
    seat's card by ``choose(seat, hand, trump, led, best, turned)`` (its index), each trick won added to
    ``tally[seat]`` (tricks, trump tricks).  True as soon as a seat has ``target`` tricks (the play stops)."""
    trick, trump = list(trick), turned % 4
    while trick or any(c is not None for c in hands[leader]):
        while len(trick) < len(hands):
            seat = (leader + len(trick)) % len(hands)
            led, best = (trick[0] % 4, trick[taker(trick, trump)]) if trick else (None, None)
            i = choose(seat, hands[seat], trump, led, best, turned)
            trick.append(hands[seat][i])
            hands[seat][i] = None
        leader = (leader + taker(trick, trump)) % len(hands)
        tally[leader][0] += 1
        tally[leader][1] += trick[taker(trick, trump)] % 4 == trump
        if tally[leader][0] >= target:
            return True
        trick = []
    return False


def play_game(rules, item, deck_rng, choose, on_deal=None, deals=None) -> list[list[int]]:
    """[tricks, trump tricks, won] of each seat in game ``item``: deals from seat item % players round to the left
    until a seat has ``target`` tricks (or ``deals`` are played), ``on_deal(tally)`` (if given) after each."""
    tally, players, n = [[0, 0] for _ in range(rules.players)], rules.players, rules.cards
    for deal in islice(count(item), deals):
        deck = list(range(52))
        for j in range(players * n + 1):
            k = j + randint(deck_rng, 52 - j)
            deck[j], deck[k] = deck[k], deck[j]
        hands, turned = [deck[((seat - deal - 1) % players) * n :][:n] for seat in range(players)], deck[players * n]
        over = play_out(hands, turned, (deal + 1) % players, choose, tally, rules.target)
        if on_deal is not None:
            on_deal([list(t) for t in tally])
        if over:
            break
    return [[tricks, trumps, int(tricks >= rules.target)] for tricks, trumps in tally]


def seated(fns, seat_rngs, rules, params=None):
    """``choose`` for :func:`play_out`: seat s's card by ``fns[s]`` called as the kernel calls a policy, shown the
    hand and state arrays the kernel shows it (:mod:`triumph.rules`), on the seat's stream, with ``params``."""

    def choose(seat, hand, trump, led, best, turned):
        state = np.array([trump, -1 if led is None else led, -1 if best is None else best, seat, turned])
        hand = np.array([-1 if c is None else c for c in hand])
        return fns[seat](hand, state, rules.to_kernel(), seat_rngs[seat], np.zeros(0) if params is None else params)

    return choose


def deal_tally(rules, item, deck_rng, seat_rngs, policies) -> list[list[int]]:
    """[tricks, trump tricks] of each seat in deal ``item``, every seat playing the policy named (else the default)."""
    fn = resolve_one(GAME, "card", (policies or {}).get("card", GAME.decision("card").default)).fn
    return [t[:2] for t in play_game(rules, item, deck_rng, seated([fn] * rules.players, seat_rngs, rules), deals=1)]
