"""A plain-Python Triumph, one rule a line, on the kernel's random streams (:mod:`sims.core.rng`, inputs, not
rules): the oracle for the engine.  The two policies are written again, so a bug in either shows as a difference."""

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
    def cost(i):  # lead the highest; follow with the cheapest winner, else the lowest card
        p = rank_power(hand[i], trump)
        return -p if led is None else (not (hand[i] % 4 in (led, trump) and p > rank_power(best, trump)), p)

    return min(playable(hand, led), key=cost)


POLICIES = {"random": random_card, "greedy": greedy_card}


def taker(trick, trump: int) -> int:
    """The index of the card taking ``trick`` (so far): the highest trump, else the highest of the suit led."""
    return max(range(len(trick)), key=lambda k: (trick[k] % 4 in (trick[0] % 4, trump)) * rank_power(trick[k], trump))


def play_out(hands, trump: int, leader: int, choose, tally, target: int, trick=()) -> bool:
    """Play the cards left in ``hands`` (None where played), the trick in play holding ``trick`` (laid from
    ``leader`` on); ``choose(seat, hand, trump, led, best)`` the index each plays, each trick won added to
    ``tally[seat]`` (tricks, trump tricks).  True as soon as a seat has ``target`` tricks (the play stops)."""
    trick = list(trick)
    while trick or any(c is not None for c in hands[leader]):
        while len(trick) < len(hands):
            seat = (leader + len(trick)) % len(hands)
            led, best = (trick[0] % 4, trick[taker(trick, trump)]) if trick else (None, None)
            i = choose(seat, hands[seat], trump, led, best)
            trick.append(hands[seat][i])
            hands[seat][i] = None
        leader = (leader + taker(trick, trump)) % len(hands)
        tally[leader][0] += 1
        tally[leader][1] += trick[taker(trick, trump)] % 4 == trump
        if tally[leader][0] >= target:
            return True
        trick = []
    return False


def play_deal(rules, item, deck_rng, choose, tally) -> bool:
    """Deal ``item`` (dealt by seat item % players) into ``tally``; ``choose(seat, hand, trump, led, best, turned)``
    the index each plays.  True when it ends the game."""
    deck, players, n = list(range(52)), rules.players, rules.cards
    for j in range(players * n + 1):
        k = j + randint(deck_rng, 52 - j)
        deck[j], deck[k] = deck[k], deck[j]
    hands, turned = [deck[((seat - item - 1) % players) * n :][:n] for seat in range(players)], deck[players * n]
    return play_out(hands, turned % 4, (item + 1) % players, lambda *seen: choose(*seen, turned), tally, rules.target)


def play_game(rules, item, deck_rng, choose, on_deal=None) -> list[list[int]]:
    """[tricks, trump tricks, won] of each seat in game ``item``, deals from seat item % players round to the
    left until a seat has ``target`` tricks; ``on_deal`` (if given) is called with the tally after each deal."""
    tally = [[0, 0] for _ in range(rules.players)]
    while True:
        over = play_deal(rules, item, deck_rng, choose, tally)
        if on_deal is not None:
            on_deal([list(t) for t in tally])
        if over:
            break
        item += 1
    return [[tricks, trumps, int(tricks >= rules.target)] for tricks, trumps in tally]


def deal_tally(rules, item, deck_rng, seat_rngs, policy="random") -> list[list[int]]:
    """[tricks, trump tricks] of each seat in deal ``item``, every seat playing the built-in ``policy``."""
    tally = [[0, 0] for _ in range(rules.players)]
    play_deal(rules, item, deck_rng, lambda seat, *seen: POLICIES[policy](*seen[:-1], seat_rngs[seat]), tally)
    return tally


def assert_same_deals(rules, policies, n: int, seed: int) -> None:
    """The engine's deals are the reference's (one policy name for every seat)."""
    policy = (policies or {}).get("card", "random")
    driver.assert_same_deals(GAME, rules, policies, n, seed, TALLY, partial(deal_tally, policy=policy))
