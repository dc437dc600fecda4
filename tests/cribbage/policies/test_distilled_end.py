"""The exact end of the play (sims.cribbage.policies.end_of_play.solve_end, end_values, distilled_end_peg):
the search agrees with a plain minimax written from the rules, and the policy plays legally everywhere."""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.kernel import read_only
from sims.cribbage import simulate_deals
from sims.cribbage.pegging import card_value, peg_points_kernel
from sims.cribbage.policies import end_of_play as D
from sims.cribbage.rules import PRESETS


def minimax(mine, his, count_cards, turn, went, last):
    """My pegging less his to the end of the play (RULES.md, the play): who can play must; nobody can:
    the go to the last player and the other leads; 31 ends the count; the last card of all scores 1."""
    count = sum(card_value(c) for c in count_cards)
    hands = [list(mine), list(his)]
    if not hands[0] and not hands[1]:
        return (1 if last == 0 else -1) if count_cards else 0
    sign = 1 if turn == 0 else -1
    options = []
    for card in set(hands[turn]):
        if count + card_value(card) > 31:
            continue
        rest = list(hands[turn])
        rest.remove(card)
        seq = count_cards + [card]
        pts = peg_points_kernel(np.array(seq, dtype=np.int64), 0, len(seq), False)
        new = (rest, hands[1]) if turn == 0 else (hands[0], rest)
        if count + card_value(card) == 31:
            v = minimax(*new, [], 1 - turn, set(), turn)
        else:
            v = minimax(*new, seq, 1 - turn, went, turn)
        options.append(sign * pts + v)
    if options:
        return max(options) if turn == 0 else min(options)
    other = 1 - turn
    if any(count + card_value(c) <= 31 for c in hands[other]):
        return minimax(*hands, count_cards, other, went | {turn}, last)
    return (1 if last == 0 else -1) + minimax(*hands, [], 1 - last, set(), last)


def test_the_search_agrees_with_minimax():
    rng = np.random.default_rng(1)
    checked = 0
    while checked < 400:
        deck = rng.permutation(52)
        n_count = int(rng.integers(0, 4))
        count_cards = [int(c) for c in deck[:n_count]]
        if sum(card_value(c) for c in count_cards) > 31:
            continue
        mine = [int(c) for c in deck[n_count : n_count + int(rng.integers(0, 3))]]
        his = [int(c) for c in deck[10 : 10 + int(rng.integers(0, 3))]]
        if not mine and not his:
            continue
        turn = int(rng.integers(0, 2))
        last = 1 - turn
        h = np.full((2, 2), -1, dtype=np.int64)
        h[0, : len(mine)], h[1, : len(his)] = mine, his
        played = np.full(16, -1, dtype=np.int64)
        played[:n_count] = count_cards
        count = sum(card_value(c) for c in count_cards)
        got = D.solve_end(h, played, n_count, 0, count, turn, 0, last, False)
        assert got == minimax(mine, his, count_cards, turn, set(), last), (mine, his, count_cards, turn)
        checked += 1


@pytest.mark.parametrize("room", [0, 6])
def test_the_end_values_average_over_the_cards_he_may_hold(room):
    # I hold 5C and KD after TH AS 9D (count 20), he holds one card: each value is the exact average over
    # the cards he may hold of the card's points and the minimax of the rest; after he could not lay with
    # ``room`` left (a player who can play must), only the unseen cards of more pips than that.
    from sims.cribbage.contract import (
        S_COUNT,
        S_COUNT_START,
        S_N_PLAYED,
        S_ROLE,
        S_ROOM,
        S_SIZE,
        S_STARTER,
        S_THROWN,
        seen_cards,
    )

    hand = np.array([4 * 4, 12 * 4 + 1, -1, -1], dtype=np.int64)  # 5C, KD
    played = np.full(8, -1, dtype=np.int64)
    played[:3] = [9 * 4 + 2, 3, 8 * 4 + 1]  # TH AS 9D
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_STARTER], state[S_THROWN], state[S_THROWN + 1] = 51, 50, 49
    state[S_N_PLAYED], state[S_ROLE], state[S_ROOM] = 3, 1, room
    state[S_COUNT] = sum(card_value(c) for c in played[:3])
    state[S_COUNT_START] = 0
    seen, mine_left = seen_cards(hand, played, state)
    values = np.zeros(4)
    D.end_values(read_only(hand), played, read_only(state), seen, 1, values)  # as the policy calls it
    expected = np.zeros(2)
    total = 0
    unseen = [c for c in range(52) if not (seen >> c) & 1 and card_value(c) > room]
    for c in unseen:
        total += 1
        for i in range(2):
            if state[S_COUNT] + card_value(hand[i]) > 31:
                continue
            seq = [int(c) for c in played[:3]] + [int(hand[i])]
            pts = peg_points_kernel(np.array(seq, dtype=np.int64), 0, 4, False)
            rest = [int(hand[1 - i])]
            if sum(card_value(x) for x in seq) == 31:
                expected[i] += pts + minimax(rest, [c], [], 1, set(), 0)
            else:
                expected[i] += pts + minimax(rest, [c], seq, 1, set(), 0)
    # 45 cards unseen; 23 of them above 6 pips: the 28 sevens to kings less TH, 9D and three kings
    assert state[S_COUNT] == 20 and total == (45 if room == 0 else 23)
    for i in range(2):
        assert values[i] == pytest.approx(expected[i] / total)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_plays_legally_in_every_variant(preset):
    """An illegal card would stop the run with a PolicyError; the registered name is the module's function."""
    result = simulate_deals(preset, {"discard": "greedy", "peg": "distilled_end"}, 200, seed=3)
    assert result.batch.n == 200 and result.summary["policies"]["peg"][0]["params"]["table"] == "shipped"
