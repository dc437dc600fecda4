"""The strong policies' short cuts choose what the full computation chooses: the one-pass throws of
expected_hand / expected_net / expected_peg (and their kept-rank sums), and distilled's pruning of the
expected reply (a card is dropped only when its value without the reply is below another card's exact value)."""
from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest

from sims.cribbage.contract import S_CRIB_MINE, S_ROLE, S_SIZE, S_STARTER, S_THROWN, split_throw
from sims.cribbage.crib_tables import PARAMS_SIZE
from sims.cribbage.expectations import table_crib_value, throw_expectations
from sims.cribbage.policies import discard as D, distilled, distilled_play_outs, resolve
from sims.cribbage.rules import get_rules
from sims.cribbage.tables import rank_points

SHIPPED = np.asarray(distilled.distilled_policy().params)


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
    for name, crib_table, kept_table in (("expected_hand", False, False), ("expected_net", True, False),
                                         ("expected_peg", True, True)):
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
