"""The strong policies' short cuts choose what the full computation chooses: the one-pass throws of
expected_hand / expected_net / expected_peg (and their kept-rank sums), and distilled's pruning of the
expected reply (a card is dropped only when its value without the reply is below another card's exact value),
and the parts of its expected reply: the unseen cards by rank, the table of no-holder chances, the reply itself
against every draw."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest

from sims.cribbage.contract import (
    S_COUNT,
    S_CRIB_MINE,
    S_N_PLAYED,
    S_ROLE,
    S_SIZE,
    S_STARTER,
    S_THROWN,
    seen_cards,
    split_throw,
)
from sims.cribbage.crib_tables import PARAMS_SIZE
from sims.cribbage.expectations import table_crib_value, throw_expectations
from sims.cribbage.lab import distilled_play_outs
from sims.cribbage.pegging import peg_points_kernel
from sims.cribbage.policies import discard as D
from sims.cribbage.policies import distilled, resolve
from sims.cribbage.rules import R_BATH, get_rules
from sims.cribbage.tables import rank_points

SHIPPED = np.asarray(distilled.named_tables()["shipped"])


def test_kept_net_sums_are_the_shows_over_the_starters_not_seen():
    # Each starter rank weighed by the cards of it the four kept cards leave (a fifth card of a rank: none).
    for ranks in combinations_with_replacement(range(13), 4):
        counts = np.bincount(ranks, minlength=13).astype(np.int64)
        want = 0
        for r in range(13):
            counts[r] += 1
            want += (5 - counts[r]) * rank_points(counts) if counts[r] <= 4 else 0
            counts[r] -= 1
        assert D.KEPT_NET_SUMS[D.kept_index(np.array(ranks, dtype=np.int64) << 2)] == want


def _full_values(hand, rules, mine, params, crib_table, kept_table):
    """Every throw's value computed as the policies computed it before the one-pass loop: the arrays of
    throw_expectations, then the crib table and the kept pegging added throw by throw."""
    masks, values, _ = throw_expectations(hand, rules.throw, rules.crib_flush_four, False)
    kept, thrown = np.empty(len(hand) - rules.throw, dtype=np.int64), np.empty(rules.throw, dtype=np.int64)
    for j, mask in enumerate(masks):
        split_throw(hand, mask, kept, thrown)
        if crib_table:
            crib = table_crib_value(thrown, rules.throw, params, mine)
            values[j] += crib if mine else -crib
        if kept_table:
            values[j] += params[PARAMS_SIZE + (0 if mine else D.N_KEPT) + D.kept_index(kept)]
    return masks[int(np.argmax(values))]


@pytest.mark.parametrize("preset", ["six-card", "five-card", "three-hand", "four-hand", "eight-card"])
def test_one_pass_throws_equal_the_best_of_every_throw(preset):
    rules = get_rules(preset)
    rng = np.random.default_rng(5)
    for name, crib_table, kept_table in (
        ("expected_hand", False, False),
        ("expected_net", True, False),
        ("expected_peg", True, True),
    ):
        policy = resolve("discard", name)
        params = policy.params_array()
        kept_table = kept_table and rules.active == 2 and rules.kept == 4
        for _ in range(150):
            hand = rng.choice(52, rules.cards_dealt, replace=False).astype(np.int64)
            state = np.zeros(S_SIZE, dtype=np.int64)
            state[S_ROLE] = rng.integers(rules.active)
            state[S_CRIB_MINE] = state[S_ROLE] == 0
            state[S_STARTER] = state[S_THROWN] = state[S_THROWN + 1] = -1
            got = policy.fn(hand, state, rules.to_kernel(), np.zeros(4, dtype=np.uint64), params)
            assert got == _full_values(hand, rules, bool(state[S_CRIB_MINE]), params, crib_table, kept_table)


@pytest.mark.parametrize("preset", ["six-card", "five-card"])
def test_distilled_lays_the_card_of_highest_full_value(preset):
    # Every decision of distilled's self-play, with every legal card's features (the reply included) and the
    # card it laid: the card laid has the highest value of all (decisions with a tie left out).
    s = distilled_play_outs.card_play_outs(preset, SHIPPED, 1024, seed=8)
    n_legal, laid = s["legal"][:, 0], s["legal"][:, 1]
    values = SHIPPED[distilled.P_POINTS] * s["x"][:, :, 0] + SHIPPED[distilled.P_REPLY] * s["x"][:, :, 1]
    for c in range(distilled.N_TABLES):
        values = values + SHIPPED[s["cells"][:, :, c]]
    values[np.arange(values.shape[1])[None, :] >= n_legal[:, None]] = -np.inf
    best = values.max(axis=1)
    unique = (values == best[:, None]).sum(axis=1) == 1
    assert unique.sum() > 2000
    assert np.array_equal(values[np.arange(len(laid)), laid][unique], best[unique])


def test_unseen_by_rank_counts_each_ranks_cards_not_seen():
    rng = np.random.default_rng(12)
    for _ in range(300):
        cards = rng.choice(52, int(rng.integers(0, 53)), replace=False)
        seen = sum(1 << int(c) for c in cards)
        packed = distilled.unseen_by_rank(seen)
        want = [4 - int(np.sum(cards >> 2 == r)) for r in range(13)]
        assert [(packed >> (4 * r)) & 15 for r in range(13)] == want
        assert distilled.total_unseen(packed) == 52 - len(cards)


def test_no_holder_chances_are_the_binomial_ratio():
    from math import comb

    table = distilled.NO_HOLDER
    for k in range(distilled.MAX_DRAWN + 1):
        for unseen in range(k, 53):
            for h in range(unseen + 1):
                assert table[k, unseen, h] == pytest.approx(comb(unseen - h, k) / comb(unseen, k), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("bath", [False, True])
def test_expected_reply_is_the_mean_best_reply_over_every_draw(bath):
    # The expected best reply to a card, against the mean over every pair (or single) of cards the opponent
    # may hold, drawn from the cards the player has not seen; each reply scored by the pegging scorer.
    rules = get_rules("six-card").to_kernel().copy()
    rules[R_BATH] = int(bath)
    rng = np.random.default_rng(40 + bath)
    levels, chances = np.empty(distilled.N_LEVELS, dtype=np.int64), np.empty(distilled.N_LEVELS)
    work = np.empty(distilled.WORK_SIZE, dtype=np.int64)
    checked = 0
    while checked < 60:
        deck = rng.permutation(52).astype(np.int64)
        played = deck[: int(rng.integers(0, 4))]
        count = int(sum(min((c >> 2) + 1, 10) for c in played))
        hand = np.full(4, -1, dtype=np.int64)
        hand[:2] = deck[10:12]
        if count + min((hand[0] >> 2) + 1, 10) >= 31:
            continue
        state = np.zeros(S_SIZE, dtype=np.int64)
        state[S_ROLE] = 1
        state[S_STARTER], state[S_THROWN], state[S_THROWN + 1] = deck[20], deck[21], deck[22]
        state[S_COUNT], state[S_N_PLAYED] = count, len(played)
        seen, _ = seen_cards(hand, played, state)
        their_left = int(rng.integers(1, 3))
        copy = np.zeros(8, dtype=np.int64)
        copy[: len(played)] = played
        got = distilled.card_reply(hand, 0, copy, state, rules, seen, their_left, levels, chances, work)
        unseen = [c for c in range(52) if not (seen >> c) & 1]
        seq = np.append(played, hand[0])
        after = count + min((hand[0] >> 2) + 1, 10)
        total = 0.0
        draws = list(combinations(unseen, their_left))
        for draw in draws:
            best = 0
            for c in draw:
                if after + min((c >> 2) + 1, 10) <= 31:
                    best = max(best, peg_points_kernel(np.append(seq, c), 0, len(seq) + 1, bath))
            total += best
        assert got == pytest.approx(total / len(draws), rel=1e-12, abs=1e-12)
        checked += 1
