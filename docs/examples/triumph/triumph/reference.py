"""A plain-Python Triumph, one rule a line, on the random streams the kernel uses: the oracle for the engine.

The random numbers come from sims's generator (:mod:`sims.core.rng`) called from Python: they are
inputs, not rules.  The two built-in policies are written again here, so a bug in either shows as a
difference instead of being shared by both sides.
"""
from __future__ import annotations

from functools import partial

from sims.core import driver
from sims.core.rng import randint

from .game import GAME
from .play import TALLY


def rank_power(card: int, trump: int) -> int:
    """Aces high; any trump above every other card."""
    return (13 if card >> 2 == 0 else card >> 2) + (100 if card % 4 == trump else 0)


def playable(hand: list[int], led: int | None) -> list[int]:
    """Indexes of the cards he may play: the suit led if he holds it, else any card."""
    held = [i for i, c in enumerate(hand) if c is not None]
    return [i for i in held if hand[i] % 4 == led] or held


def random_card(hand, trump, led, best, rng):
    return playable(hand, led)[randint(rng, len(playable(hand, led)))]


def greedy_card(hand, trump, led, best, rng):
    def cost(i):        # lead the highest; follow with the cheapest winner, else the lowest card
        p = rank_power(hand[i], trump)
        return -p if led is None else (not (hand[i] % 4 in (led, trump) and p > rank_power(best, trump)), p)
    return min(playable(hand, led), key=cost)


POLICIES = {"random": random_card, "greedy": greedy_card}


def play_deal(rules, item, deck_rng, seat_rngs, policy="random") -> list[list[int]]:
    """[tricks, trump tricks] of each seat in deal ``item`` (dealt by seat item % players)."""
    deck, players, n = list(range(52)), rules.players, rules.cards
    for j in range(players * n + 1):
        k = j + randint(deck_rng, 52 - j)
        deck[j], deck[k] = deck[k], deck[j]
    dealer = item % players
    hands = {(dealer + 1 + r) % players: deck[r * n:(r + 1) * n] for r in range(players)}
    trump, leader = deck[players * n] % 4, (dealer + 1) % players
    tally = [[0, 0] for _ in range(players)]
    for _ in range(n):
        led, best, winner = None, None, leader
        for r in range(players):
            seat = (leader + r) % players
            i = POLICIES[policy](hands[seat], trump, led, best, seat_rngs[seat])
            card, hands[seat][i] = hands[seat][i], None
            if led is None or (card % 4 in (led, trump) and rank_power(card, trump) > rank_power(best, trump)):
                best, winner = card, seat
            led = card % 4 if led is None else led
        tally[winner][0] += 1
        tally[winner][1] += best % 4 == trump
        leader = winner
    return tally


def assert_same_deals(rules, policies, n: int, seed: int) -> None:
    """The engine's deals are the reference's (one policy name for every seat)."""
    policy = (policies or {}).get("card", "random")
    driver.assert_same_deals(GAME, rules, policies, n, seed, TALLY, partial(play_deal, policy=policy))
