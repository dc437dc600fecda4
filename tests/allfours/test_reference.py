"""The njit engine against the plain-Python reference engine (issue 10, must-have 4): the same hands
and games from the same (seed, chunk, index) streams, for every preset.

Hands: the points by side role and component, the events and the trump of
``simulate_deals(..., records=True)`` against :func:`reference.simulate_deals`, which regenerates
each hand from the chunk keys.  Games: winner, final scores, number of hands and first dealer.
Besides the built-in policies, *probe* policies for all four decisions choose by a hash of
everything the engine shows them (:mod:`tests.allfours_helpers`), so any difference in what a
policy sees, or in its stream, changes what follows.
"""

import numpy as np
import pytest

from sims.allfours import PRESETS, play_games, simulate_deals
from sims.allfours import reference as ref
from sims.allfours.engine import role_names
from sims.allfours.play import COMPONENTS, EVENTS
from sims.allfours.rules import get_rules
from tests.allfours.helpers import PROBES

N_DEALS = 2_000  # per preset, random policies ("thousands of hands per preset")
N_GREEDY = 500
N_PROBE = 500
N_GAMES = 200  # per preset, random policies
N_OTHER_GAMES = 30

POLICIES = {
    "random": None,
    "greedy": {"beg": "threshold", "answer": "threshold", "play": "greedy", "discard": "cheapest"},
    "maxims": {"beg": "threshold", "answer": "threshold", "play": "maxims"},
    "probe": PROBES,
}


def assert_same_deals(rules, policies, n, seed):
    rules = get_rules(rules)
    rows = simulate_deals(rules, policies, n, seed, records=True).records
    slow = ref.simulate_deals(rules, policies, n, seed)
    assert len(slow) == len(rows) == n
    roles = role_names(rules)
    fast = np.stack([rows[f"{role}_{c}"].to_numpy() for role in roles for c in COMPONENTS], axis=1)
    for g, hand in enumerate(slow):
        got = fast[g].reshape(2, len(COMPONENTS))
        events = {e: int(rows[e].iloc[g]) for e in EVENTS}
        if not np.array_equal(got, hand.components()) or events != hand.events or rows["trump"].iloc[g] != hand.trump:
            pytest.fail(
                f"{rules.name} hand {g} (dealer seat {hand.dealer}): engine {got.tolist()} {events} trump "
                f"{rows['trump'].iloc[g]} != reference {hand.components().tolist()} {hand.events} trump "
                f"{hand.trump}; scores {hand.scores}"
            )
    return slow


def assert_same_games(rules, policies, n, seed):
    fast = play_games(rules, policies, n, seed, records=True).games
    slow = ref.play_games(rules, policies, n, seed)
    for g, game in enumerate(slow):
        row = fast.iloc[g]
        expected = {
            "first_dealer": game.first_dealer,
            "winner": game.winner,
            "hands": len(game.hands),
            "score_0": game.scores[0],
            "score_1": game.scores[1],
        }
        assert {k: int(row[k]) for k in expected} == expected, f"{get_rules(rules).name} game {g}"
    return slow


@pytest.mark.parametrize("rules", list(PRESETS))
def test_deals_match_reference_random(rules):
    hands = assert_same_deals(rules, POLICIES["random"], N_DEALS, seed=20260)
    # The sample means something: begs, gifts, runs, turned knaves, ties and all fours all happen.
    happened = {e for h in hands for e, v in h.events.items() if v}
    assert {"begs", "gave one", "rounds run", "game tied on points", "all fours"} <= happened
    assert any(s.component == "turned" for h in hands for s in h.scores)


@pytest.mark.parametrize("rules", list(PRESETS))
def test_deals_match_reference_greedy(rules):
    assert_same_deals(rules, POLICIES["greedy"], N_GREEDY, seed=77)


@pytest.mark.parametrize("rules", list(PRESETS))
def test_deals_match_reference_probe_policies(rules):
    """What a policy sees (state, hand, cards played and by whom, its stream) is the same in both."""
    assert_same_deals(rules, POLICIES["probe"], N_PROBE, seed=5)


def test_deals_match_reference_maxims_and_expert():
    """Policies the reference calls as they are: the engine hands them the same views."""
    assert_same_deals("two-hand", POLICIES["maxims"], 300, seed=8)
    expert = {
        "beg": "threshold",
        "answer": "threshold",
        "play": [{"name": "expert", "params": [2, 20_000, 9]}, "maxims"],
    }
    assert_same_deals("two-hand", expert, 40, seed=8)


def test_deals_match_reference_per_seat_policies():
    mixed = {
        "beg": ["random", PROBES["beg"], "threshold", "stand"],
        "answer": [PROBES["answer"], "give", "run", "random"],
        "play": ["greedy", PROBES["play"], "random", "maxims"],
    }
    assert_same_deals("four-hand", mixed, 300, seed=9)


def test_deals_match_reference_across_chunks():
    """A run longer than one chunk: hand g of chunk g // 4096, index g % 4096."""
    n = 4096 + 150
    rows = simulate_deals("two-hand", None, n, 3, records=True).records
    keys = ref.run_keys(3, n, 4096)
    for g in range(4096 - 50, n):
        deck_rng, seat_rngs = ref.streams(keys[g // 4096], g % 4096, 2)
        hand = ref.play_hand("two-hand", g % 2, ref.Pack(deck_rng), seat_rngs)
        got = np.array([[rows[f"{r}_{c}"].iloc[g] for c in COMPONENTS] for r in ("dealer", "eldest")])
        assert np.array_equal(got, hand.components()), g


@pytest.mark.parametrize(
    "changes",
    [
        {"discard_to_six": True},
        {"game_tie": "eldest"},
        {"game_tie": "dealer"},
        {"may_trump": False},
        {"run_knaves": False},
        {"begging": False},
        {"target": 3},
        {"begs": 2},
        {"begs": 3, "discard_to_six": True},
    ],
)
def test_rule_fields_match_reference(changes):
    rules = PRESETS["two-hand"].replace(name="custom", **changes)
    assert_same_deals(rules, POLICIES["random"], 500, seed=12)
    assert_same_deals(rules, POLICIES["probe"], 200, seed=12)
    assert_same_games(rules, POLICIES["random"], 40, seed=12)


def test_discard_to_six_four_hand_matches_reference():
    rules = PRESETS["four-hand"].replace(name="custom", discard_to_six=True)
    assert_same_deals(rules, POLICIES["probe"], 300, seed=13)


@pytest.mark.parametrize("rules", list(PRESETS))
def test_games_match_reference_random(rules):
    games = assert_same_games(rules, POLICIES["random"], N_GAMES, seed=31)
    assert {g.winner for g in games} == {0, 1}
    assert {g.first_dealer for g in games} == set(range(PRESETS[rules].players))
    # Games end on every kind of point, the turned knave and the gift included.
    endings = {g.hands[-1].scores[-1].component for g in games}
    assert {"high", "low", "game"} <= endings


@pytest.mark.parametrize("rules", list(PRESETS))
@pytest.mark.parametrize("kind", ["greedy", "probe"])
def test_games_match_reference_other_policies(rules, kind):
    assert_same_games(rules, POLICIES[kind], N_OTHER_GAMES, seed=4)
