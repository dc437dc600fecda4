"""The position-aware players (sims.cribbage.policies.position): baseline play outside the zone, the
player's own hand told from the order of play, pegging out and defence near home, throws for the game,
their parameter vector, and bad rules."""

from __future__ import annotations

import numpy as np
import pytest

from sims.cards import parse_card, parse_cards
from sims.core.errors import PolicyError
from sims.core.kernel import read_only
from sims.cribbage import literal_scoring, play, simulate_deals
from sims.cribbage.contract import (
    S_COUNT,
    S_COUNT_START,
    S_DEALER,
    S_GO_MASK,
    S_MY_SCORE,
    S_N_PLAYED,
    S_OPP_SCORE,
    S_ROLE,
    S_SIZE,
    S_STARTER,
    S_TARGET,
    S_THROWN,
)
from sims.cribbage.odds.match import paired_match
from sims.cribbage.pegging import card_value
from sims.cribbage.policies import position
from sims.cribbage.policies.pegging import defensive_peg
from sims.cribbage.rules import get_rules
from tests.cribbage.fuzz import ONE_WORKER, fuzz


@pytest.fixture(scope="module")
def players():
    """The position-aware players, discard and peg (made when a test asks: making them compiles their kernels)."""
    return position.position_policies()


EXPERT = {"discard": "expected_net", "peg": "defensive"}
RANDOM = {"discard": "random", "peg": "random"}  # goes come in every order


def test_the_vector_has_a_section_per_preset(players):
    values = np.asarray(players["peg"].params)
    assert values.shape == (position.VECTOR_SIZE,)
    for name in position.PRESETS:
        ix = position.section(values, get_rules(name).to_kernel())
        assert ix[position.X_T] == get_rules(name).target
    assert position.section(values, get_rules("eight-card").to_kernel())[position.X_T] == -1


def test_far_from_home_they_play_as_the_baseline(players):
    # Independent deals are played from love-all, outside the zone: every deal must score exactly as
    # with expected_net + defensive.
    a = simulate_deals("six-card", players, 3000, seed=4, records=True).records
    b = simulate_deals("six-card", EXPERT, 3000, seed=4, records=True).records
    assert a.equals(b)


def test_rules_without_a_table_stop_with_a_policy_error(players):
    with pytest.raises(PolicyError, match="position"):
        simulate_deals("eight-card", players, 10, seed=1)


@ONE_WORKER
@pytest.mark.parametrize("preset", ["six-card", "five-card"])
def test_own_hand_told_from_the_order_of_play(preset):
    # Every decision of 300 deals (random pegging, so that goes come in every order): the show of the
    # cards the player really kept must be among those found, and it is almost always the only one.
    rules = get_rules(preset)
    n = 300
    deals = fuzz(rules, RANDOM, n, 3, dealers=1)
    size = 2 * rules.kept
    played, kept, n_played = deals["laid"], deals["kept"], deals["n_laid"]
    starters = deals["deck"][:, rules.active * rules.cards_dealt + rules.crib_from_pack]  # after hands and crib
    decisions = unique = 0
    shows, masks = np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64)
    kernel_rules = read_only(rules.to_kernel())
    for g in range(n):
        owners = [0 if c in kept[g, 0] else 1 for c in played[g, : n_played[g]]]
        count, start = 0, 0
        for k in range(n_played[g]):
            value = card_value(played[g, k])
            if count + value > 31:
                count, start = 0, k
            who = owners[k]
            hand = kept[g, who].copy()
            for c in played[g, :k]:
                hand[hand == c] = -1
            state = np.zeros(S_SIZE, dtype=np.int64)
            state[S_ROLE], state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED] = who, count, start, k
            state[S_STARTER] = starters[g]
            buf = np.zeros(size, dtype=np.int64)
            buf[:k] = played[g, :k]
            found = position.kept_candidates(
                read_only(hand), read_only(buf), read_only(state), kernel_rules, shows, masks
            )  # read-only, as the policy calls it
            truth = literal_scoring.show_score(kept[g, who].tolist(), int(starters[g]))
            assert truth in shows[:found], (g, k)
            mine = sum(1 << j for j in range(k) if owners[j] == who)
            assert mine in masks[:found], (g, k)
            decisions += 1
            unique += len(set(shows[:found])) == 1
            count += value
            if count == 31:
                count, start = 0, k + 1
    assert unique > 0.95 * decisions, unique / decisions


def _state(role, me, opp, played, count_start=0, starter="KS", thrown=("AH", "2H"), go_mask=0, rules="six-card"):
    seq = parse_cards(played) if played else []
    rules = get_rules(rules)
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE], state[S_DEALER] = role, 0
    state[S_MY_SCORE], state[S_OPP_SCORE], state[S_TARGET] = me, opp, rules.target
    state[S_COUNT] = sum(min((c >> 2) + 1, 10) for c in seq[count_start:])
    state[S_COUNT_START], state[S_N_PLAYED] = count_start, len(seq)
    state[S_STARTER] = parse_card(starter)
    state[S_THROWN], state[S_THROWN + 1] = parse_cards(thrown)
    state[S_GO_MASK] = go_mask
    buf = np.zeros(2 * rules.kept, dtype=np.int64)
    buf[: len(seq)] = seq
    return state, buf, rules.to_kernel()


def _peg(fn, hand, state, buf, rules, params):
    cards = np.asarray([-1 if c == "-" else parse_card(c) for c in hand], dtype=np.int64)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    return cards[fn(cards, buf.copy(), state, rules, rng, np.asarray(params, dtype=np.float64))]


def test_pegs_out_when_a_card_wins(players):
    # The dealer on 119 (two to go); the pone led a seven.  Pairing it wins the game at once.
    state, buf, rules = _state(0, 119, 100, "7D")
    pick = _peg(position.position_peg, ["7S", "KH", "2C", "9D"], state, buf, rules, players["peg"].params)
    assert pick == parse_card("7S")


def test_plays_defence_when_the_opponent_is_near_home(players):
    # The dealer (us, on 100) against a pone on 119 who needs two.  The pone led 10H, we laid 5C, he laid
    # 3D: the count is 18; the starter is 3H.  3S pairs his three for 2 but leaves 21, and any ten-card
    # makes 31 for him (sixteen of the cards we have not seen); 9C (27) or JD (28) score nothing and leave
    # him a few cards that reach 31 or pair.  Defensive takes the pair; near the end that gives the game away.
    state, buf, rules = _state(0, 100, 119, "10H 5C 3D", starter="3H")
    hand = ["3S", "9C", "JD", "-"]
    assert _peg(defensive_peg, hand, state, buf, rules, (1.0, 0.5, 0.5, 1.0)) == parse_card("3S")
    assert _peg(position.position_peg, hand, state, buf, rules, players["peg"].params) != parse_card("3S")


def test_the_position_aware_player_wins_more(players):
    # Five-card to 61 (a short game, mostly within 40 points of home): 5,000 games with the position-aware
    # player at seat 0 against expected_net + defensive, and the same games with the seats exchanged.  Its
    # rate over the pairs must beat one half by more than two standard errors of the paired games (it is
    # about 50.7%, se 0.23 points).
    result = paired_match("five-card", players, EXPERT, 5000, seed=7)
    assert result["rate"] - 2 * result["se"] > 0.5, result
    assert result["se"] < result["se_unpaired"]  # the pairing removes most of the luck of the cards


@ONE_WORKER
def test_pegged_so_far_is_the_engines_pegging():
    # At the end of each deal's play, the pegging read from the order of play with the dealer's cards
    # marked must be each player's pegging as the engine scored it.
    rules = get_rules("six-card")
    n = 300
    deals = fuzz(rules, RANDOM, n, 6, dealers=1)
    played, kept, n_played, comps = deals["laid"], deals["kept"], deals["n_laid"], deals["comp"]
    laid = read_only(played)  # as the policy sees the cards played
    for g in range(n):
        mine = sum(1 << k for k in range(n_played[g]) if played[g, k] in kept[g, 0])
        dealer, pone = position.pegged(laid[g], n_played[g], 0, mine, False)
        assert (dealer, pone) == (comps[g, 0, play.C_PEGGING], comps[g, 1, play.C_PEGGING])
