"""The two readings of the Article's discard advice that claims 5a and 5b test: the pone's "very worst in his hand"
as the cards worth least to the dealer's crib (``hoyle``) or to his own hand (``hoyle_hand``); the dealer's
"two best cards he can for his crib" is the same in both."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sims.cards import parse_cards
from sims.core.kernel import read_only
from sims.cribbage import get_rules, literal_scoring
from sims.cribbage.contract import S_CRIB_MINE, S_ROLE, S_SIZE, S_STARTER, S_THROWN
from sims.cribbage.expectations import throw_expectations
from sims.cribbage.policies import resolve

RNG_STATE = np.array([1, 2, 3, 4], dtype=np.uint64)


def throw(name: str, hand: list[int], preset: str, dealer: bool) -> set[int]:
    """The cards policy ``name`` lays out from ``hand`` as dealer (his crib) or pone (two players)."""
    rules, policy = get_rules(preset), resolve("discard", name)
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE], state[S_CRIB_MINE] = (0, 1) if dealer else (1, 0)
    state[S_STARTER] = state[S_THROWN] = state[S_THROWN + 1] = -1
    mask = policy.fn(
        np.asarray(hand, dtype=np.int64), state, rules.to_kernel(), RNG_STATE.copy(), policy.params_array()
    )
    return {c for i, c in enumerate(hand) if (mask >> i) & 1}


def expected_hand(kept: list[int], dealt: list[int]) -> float:
    """The kept cards' show averaged over every starter the player has not seen (slow reference scoring)."""
    starters = [c for c in range(52) if c not in dealt]
    return sum(literal_scoring.show_score(kept, s) for s in starters) / len(starters)


HANDS = [
    ("five-card", "7C 8D 8H 9S KC"),
    ("five-card", "5H 5D 9C 6S 6D"),
    ("six-card", "5H 5S JD 6C 4H KD"),
    ("six-card", "AC 2D 3H 9S 10C QD"),
]


@pytest.mark.parametrize("preset, cards", HANDS)
def test_the_pone_keeps_his_best_hand_under_the_own_hand_reading(preset, cards):
    hand = parse_cards(cards)
    thrown = throw("hoyle_hand", hand, preset, dealer=False)
    n_throw = get_rules(preset).throw
    best = max(expected_hand([c for c in hand if c not in t], hand) for t in itertools.combinations(hand, n_throw))
    assert expected_hand([c for c in hand if c not in thrown], hand) == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("preset", ["five-card", "six-card"])
def test_the_dealer_is_the_same_under_both_readings(preset):
    rng = np.random.default_rng(4)
    for _ in range(6):
        hand = [int(c) for c in rng.choice(52, get_rules(preset).cards_dealt, replace=False)]
        assert throw("hoyle_hand", hand, preset, dealer=True) == throw("hoyle", hand, preset, dealer=True)


def test_the_readings_part_where_the_crib_and_the_hand_pull_apart():
    """Six-card pone with 5H 5S JD 6C 4H KD: for his hand he keeps the fives with the 4 and 6 (a run and
    fifteens) and gives the dealer J K; spoiling the crib instead, he keeps his fives out of it and his throw
    has the lowest exact crib of the fifteen (the optimiser's kernel, itself checked against brute force)."""
    hand = parse_cards("5H 5S JD 6C 4H KD")
    assert throw("hoyle_hand", hand, "six-card", dealer=False) == set(parse_cards("JD KD"))
    spoiled = throw("hoyle", hand, "six-card", dealer=False)
    masks, _, crib = throw_expectations(read_only(np.asarray(hand, dtype=np.int64)), 2, False, True)
    by_cards = {frozenset(c for i, c in enumerate(hand) if (m >> i) & 1): v for m, v in zip(masks, crib, strict=True)}
    assert by_cards[frozenset(spoiled)] == pytest.approx(crib.min())
    assert by_cards[frozenset(spoiled)] < by_cards[frozenset(parse_cards("JD KD"))]
    assert not spoiled & set(parse_cards("5H 5S"))
