"""The random play's lookup of the pick-th legal card (a byte of the hand at a time) lays the card the reference
engine lays from the same draw, for hands of any size: one to twenty cards, some laid, at every count."""

from __future__ import annotations

import numpy as np

from sims.core.rng import seed_state
from sims.cribbage.contract import EMPTY_PARAMS, S_COUNT, S_SIZE
from sims.cribbage.pegging import MAX_COUNT
from sims.cribbage.policies.builtin import random_peg
from sims.cribbage.reference import random_peg as reference_random_peg
from sims.cribbage.rules import get_rules


def test_random_peg_lays_the_reference_card_from_the_same_draw():
    rules = get_rules("six-card").to_kernel()
    gen = np.random.default_rng(20)
    state, played = np.zeros(S_SIZE, dtype=np.int64), np.empty(0, dtype=np.int64)
    tried = 0
    for size in range(1, 21):
        for _ in range(200):
            hand = gen.choice(52, size, replace=False).astype(np.int64)
            hand[gen.random(size) < 0.3] = -1
            state[S_COUNT] = gen.integers(0, MAX_COUNT + 1)
            if not any(c >= 0 and state[S_COUNT] + min((c >> 2) + 1, 10) <= MAX_COUNT for c in hand):
                continue  # the play asks a player only when he has a card to lay
            rng, reference_rng = np.empty(4, dtype=np.uint64), np.empty(4, dtype=np.uint64)
            seed_state(rng, np.uint64(gen.integers(2**63)), tried)
            reference_rng[:] = rng
            got = random_peg(hand, played, state, rules, rng, EMPTY_PARAMS)
            assert got == reference_random_peg(hand, played, state, rules, reference_rng, EMPTY_PARAMS), hand
            assert np.array_equal(rng, reference_rng)
            tried += 1
    assert tried > 2000
