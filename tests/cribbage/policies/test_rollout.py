"""The rollout pegging policy: plays in every variant as the reference engine plays it, draws only from
its own stream, sees the run greedy misses, and is stronger than greedy pegging."""

from __future__ import annotations

import numpy as np
import pytest

from sims.cards import parse_cards
from sims.core.rng import next_u64, randint
from sims.cribbage import reference as ref
from sims.cribbage.contract import S_COUNT, S_COUNT_START, S_DEALER, S_N_PLAYED, S_ROLE, S_SIZE, S_STARTER, S_THROWN
from sims.cribbage.policies import resolve, rollout
from sims.cribbage.policies.builtin import greedy_peg
from sims.cribbage.policies.pegging import DEFAULT_PARAMS as BASE_PARAMS
from sims.cribbage.policies.pegging import defensive_peg
from sims.cribbage.rules import PRESETS, get_rules
from sims.cribbage.simulate import simulate_deals
from tests.cribbage.policies.test_strategy import assert_same_deals_as_reference


@pytest.fixture(scope="module")
def few():
    """The rollout player with 4 samples (made when a test asks: making it compiles its kernel)."""
    return resolve("peg", "rollout", params=(4, rollout.DEFAULT_MARGIN))


def test_registered_with_default_samples():
    policy = resolve("peg", "rollout")
    assert policy.fn is rollout.rollout_peg.dispatcher
    assert policy.params == (float(rollout.DEFAULT_SAMPLES), rollout.DEFAULT_MARGIN)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_plays_as_the_reference_engine_plays_it(preset, few):
    # Legal in every variant (the engine raises PolicyError on an illegal card), and the same deals point
    # for point as the reference engine calling the policy with the state and the seat stream it builds
    # itself: rollouts draw from the stream, so a stream or state the engine passes wrongly changes a deal.
    assert_same_deals_as_reference(preset, {"discard": "greedy", "peg": few}, 20, seed=3)


@pytest.mark.parametrize(
    "role, active, kept, n_played, mine_left, want",
    [
        (1, 2, 4, 3, 2, [3, 0]),  # two players: the rest is the dealer's, exactly
        (0, 2, 4, 5, 1, [0, 2]),
        (1, 3, 4, 4, 2, [3, 0, 3]),  # three: turn order eldest (1), second (2), dealer (0), no go
        (1, 3, 4, 4, 1, [3, 0, 4]),  # we laid three: the others laid one between them
        (2, 4, 4, 6, 2, [3, 2, 0, 3]),  # four: roles 1 and 2 laid two, 3 and 0 one
        (1, 3, 4, 0, 4, [4, 0, 4]),
    ],
)
def test_others_left(role, active, kept, n_played, mine_left, want):
    left = np.zeros(4, dtype=np.int64)
    rollout.others_left(role, active, kept, n_played, mine_left, left)
    assert left[:active].tolist() == want
    assert left.sum() == active * kept - n_played - mine_left


def _decide(
    hand,
    played,
    count_start=0,
    role=1,
    starter="KS",
    samples=16,
    seed=1,
    policy=rollout.rollout_peg,
    margin=rollout.DEFAULT_MARGIN,
    rng=None,
):
    """The card the policy lays for the pone; "-" in ``hand`` is a card already laid.  ``rng`` (the
    seat's stream, default seeded by ``seed``) is advanced in place."""
    rules = get_rules("six-card")
    hand = np.asarray([-1 if c == "-" else parse_cards([c])[0] for c in hand], dtype=np.int64)
    seq = parse_cards(played) if played else []
    buf = np.zeros(rules.active * rules.kept, dtype=np.int64)
    buf[: len(seq)] = seq
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE], state[S_DEALER] = role, 0
    state[S_COUNT] = sum(min((c >> 2) + 1, 10) for c in seq[count_start:])
    state[S_COUNT_START], state[S_N_PLAYED] = count_start, len(seq)
    state[S_STARTER] = parse_cards([starter])[0]
    state[S_THROWN] = state[S_THROWN + 1] = -1
    rng = np.array([seed, 2, 3, 4], dtype=np.uint64) if rng is None else rng
    return hand[policy(hand, buf, state, rules.to_kernel(), rng, np.array([float(samples), margin]))]


def test_the_only_legal_card():
    assert _decide(["AC", "9D", "KH"], "KC QD 8S") == parse_cards("AC")[0]  # count 28: only the ace fits


def test_sees_the_run_that_greedy_misses():
    # The dealer has laid all his cards; count 25 after JC AH 9D AD 4H and we hold 2H 5D 3C, so the rest
    # of the play is ours alone.  The three then the two (or the two then the three) make A-4-3-2, a run of
    # four, at 30; go 1; the five leads and is the last card, 1: 6 points.  Greedy lays the five (the
    # highest, nothing scores now): 30, go 1, then 2 and 3 make 5 and the last card 1: 2 points.
    hand = ["2H", "5D", "3C", "-"]
    assert _decide(hand, "JC AH 9D AD 4H") in parse_cards("2H 3C")
    assert _decide(hand, "JC AH 9D AD 4H", policy=greedy_peg) == parse_cards("5D")[0]


def _lead_by_rollouts(hand, starter, samples, rng):
    """The card ``rollout_peg`` leads for the pone of a two-handed six-card deal (nothing laid, no throw known,
    no margin), worked out here from its module docstring with the reference engine's play: the seats'
    streams drawn first, then per sample the dealer's four cards dealt from the unseen cards by partial
    Fisher-Yates, each card led in turn and the play finished by ``defensive`` for both players; the card
    whose summed pegging (mine less the dealer's) beats defensive's own lead and every earlier card wins.
    ``rng`` is advanced as the policy advances it."""
    rules = get_rules("six-card")
    kernel_rules = rules.to_kernel()
    defensive = ref.SeatPolicy("defensive", defensive_peg, np.array(BASE_PARAMS))
    seat_rngs = np.array([[next_u64(rng) for _ in range(4)] for _ in range(4)], dtype=np.uint64)
    pool = [c for c in range(52) if c not in (*hand, starter)]
    value = [0] * len(hand)
    for _ in range(samples):
        for top in range(4):  # the dealer's cards: the first four of a partial shuffle of the pool
            pick = top + int(randint(rng, len(pool) - top))
            pool[top], pool[pick] = pool[pick], pool[top]
        for lead in range(len(hand)):

            def pone(cards, laid, state, kernel_rules, seat_rng, params, lead=lead):
                return (
                    lead
                    if state[S_N_PLAYED] == 0
                    else defensive_peg(cards, laid, state, kernel_rules, seat_rng, params)
                )

            deal = ref.Deal(rules, 0, [], kept=[pool[:4], list(hand)], thrown=[[], []], starter=starter)
            ref._the_play(
                deal,
                ref._Table(deal, [0, 0], False),
                seat_rngs,
                [defensive, ref.SeatPolicy("lead", pone, defensive.params)],
                kernel_rules,
            )
            value[lead] += deal.points(1, "pegging") - deal.points(0, "pegging")
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE], state[S_STARTER], state[S_THROWN], state[S_THROWN + 1] = 1, starter, -1, -1
    base = best = defensive_peg(
        np.array(hand), np.zeros(8, dtype=np.int64), state, kernel_rules, rng, np.array(BASE_PARAMS)
    )
    for i in range(len(hand)):
        if value[i] > value[best] and value[i] > value[base]:
            best = i
    return hand[best]


def test_draws_only_from_its_own_stream():
    # With two rollouts and no margin the lead is a close call that the draws decide.  The card is a function
    # of the seat's stream alone: the same stream state gives the same card and leaves the stream in the same
    # state (no hidden random state elsewhere), and each stream gives the card (and leaves the stream as)
    # the rollouts worked out with the reference engine's play give, so other streams give other cards.
    hand = ["5C", "6D", "9H", "KH"]
    picks = []
    for seed in range(12):
        first, second = np.array([seed, 2, 3, 4], dtype=np.uint64), np.array([seed, 2, 3, 4], dtype=np.uint64)
        card = _decide(hand, "", samples=2, margin=0.0, rng=first)
        assert _decide(hand, "", samples=2, margin=0.0, rng=second) == card
        assert first.tolist() == second.tolist() != [seed, 2, 3, 4]
        worked_out = np.array([seed, 2, 3, 4], dtype=np.uint64)
        assert card == _lead_by_rollouts(parse_cards(hand), parse_cards(["KS"])[0], 2, worked_out), seed
        assert worked_out.tolist() == first.tolist(), seed
        picks.append(card)
    assert len(set(picks)) > 1, picks  # the check above is one of streams that decide the lead


def test_beats_greedy_pegging():
    # Seeded head-to-head on the same deals and discards: rollout at seat 0, greedy at seat 1, each
    # seat dealing half the deals.  The per-deal difference of the seats' pegging (play + go) must
    # be positive by more than 3 standard errors (it is about 0.45 points with se about 0.06).
    result = simulate_deals(
        "six-card", {"discard": "expected_net", "peg": ["rollout", "greedy"]}, n_deals=3000, seed=5, records=True
    )
    rec = result.records
    seat0 = np.where(
        rec["dealer"] == 0, rec["dealer_pegging"] - rec["pone_pegging"], rec["pone_pegging"] - rec["dealer_pegging"]
    )
    se = seat0.std(ddof=1) / np.sqrt(len(seat0))
    assert seat0.mean() > 3 * se, (seat0.mean(), se)
