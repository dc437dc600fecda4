"""The Loo ``expert``'s card play is a fixed function of its position and its stream: a hash of every choice it
makes, and of the stream it leaves behind, over fixed seeds, recorded before its search was made faster (issue
36).  A faster search must choose the same cards from the same draws, so that every figure of the claims report
that plays Loo experts stays the same; the hash of whole deals of experts checks the same through the engine."""

import hashlib

import numpy as np
import pandas as pd

from sims.core.rng import chunk_keys, seed_state
from sims.loo import simulate_deals
from sims.loo.policies.expert import expert_card
from sims.loo.reference import Laws
from sims.loo.rules import get_rules
from sims.loo.situation import CardSituation
from tests.loo.plays import play_by_the_laws

POSITIONS = 2_000
SAMPLES = 24.0  # the expert's default
EXPERT = {"declare": "expert", "exchange": "expert", "card": "expert"}
THRESHOLD = {"declare": "threshold", "exchange": "threshold", "card": "greedy"}
# Recorded with the search as it was before issue 36 (commit dec9be4).
POSITIONS_SHA256 = "fc271e8e6789aaf212fdeea481784c4e781afba6060972b2baad472680e5118b"
DEALS_SHA256 = "37da45399de171af441196da7b928545d31c5e138edb6425a994d89e235e710c"


def positions(seed: int):
    """Random positions of three-card and five-card loo (with Pam), two to five standers, at any trick, reached
    by random play under the laws, where the player to play may play either of two cards or more."""
    rng = np.random.default_rng(seed)
    players = 5
    order = [t % players for t in range(1, players + 1)]
    while True:
        rules = get_rules("three-card" if rng.random() < 0.5 else "five-card-pam")
        k = rules.cards
        deck = rng.permutation(52).tolist()
        hands = [deck[i * k : (i + 1) * k] for i in range(players)]
        trump = deck[players * k + (k == 3) * k]
        laws = Laws.of_deal(rules, trump)
        standers = sorted(
            rng.choice(players, int(rng.integers(2, players + 1)), replace=False).tolist(), key=order.index
        )
        if k == 5 and any(laws.flush(hands[r]) for r in standers):
            continue
        declared = ["play" if r in standers else "pass" for r in order]
        stop = int(rng.integers(len(standers) * (k - 1)))
        held, played, _, r, legal = play_by_the_laws(rng, laws, hands, standers, stop)
        if len(legal) > 1:
            yield CardSituation(held[r], trump, role=r, declared=declared, played=played, rules=rules)


def positions_digest(n: int = POSITIONS) -> str:
    """The hash of the expert's choice and its stream's state after it in each of ``n`` positions."""
    digest = hashlib.sha256()
    rng = np.empty(4, dtype=np.uint64)
    params = np.array([SAMPLES])
    key = chunk_keys(36, 0, 1, 1)[0, 0]
    for i, situation in zip(range(n), positions(seed=36)):
        seed_state(rng, key, i)
        s = situation.to_state()
        choice = expert_card(s.hand, s.played, s.state, s.rules, rng, params)
        digest.update(np.array([choice], dtype=np.int64).tobytes() + rng.tobytes())
    return digest.hexdigest()


def deals_digest(n: int = 1_500) -> str:
    """The hash of every record of deals of five experts, and of an expert among four threshold players."""
    digest = hashlib.sha256()
    for preset in ("three-card", "five-card-pam"):
        for policies in (EXPERT, {d: [EXPERT[d]] + [THRESHOLD[d]] * 4 for d in EXPERT}):
            records = simulate_deals(preset, policies, n, seed=36, records=True).records
            digest.update(pd.util.hash_pandas_object(records, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def test_the_expert_chooses_as_it_did_in_each_position():
    assert positions_digest() == POSITIONS_SHA256


def test_deals_of_experts_are_as_they_were():
    assert deals_digest() == DEALS_SHA256
