"""The njit engine against the slow reference engine (issue 3, must-have 8): identical deals and
games from the same (seed, chunk, index) streams, for every preset.

Deals: the per-deal components by role of ``simulate_deals(..., records=True)`` against
:func:`reference.simulate_deals`, which regenerates each deal from the chunk keys of
``sims.rng.chunk_keys`` (deal ``g`` dealt by seat ``g % players``).  Games: winner, final scores,
number of deals, first dealer and first-deal points.  Besides the built-in policies, a *probe*
policy pair chooses by a hash of everything the engine shows a policy (the whole state vector,
the cards laid, the hand, a draw from its stream), so any difference in what a policy sees or in
the stream position changes the deal that follows.

The reference is plain Python (about a millisecond a deal), so the sizes are the minimum the
issue allows for the random policies (2,000 deals per preset) and smaller for the rest.
"""

import numpy as np
import pytest

from sims.core.kernel import njit  # cached by every source it reaches, not its own file only
from sims.core.rng import randint
from sims.cribbage import PRESETS, play_games, simulate_deals
from sims.cribbage import reference as ref
from sims.cribbage.contract import DISCARD_SIG, PEG_SIG, S_COUNT, S_N_PLAYED, S_SIZE, is_legal_play, is_valid_throw
from sims.cribbage.play import COMPONENTS
from sims.cribbage.rules import R_THROW, get_rules
from tests.cribbage.records import records_array

N_DEALS = 2_000  # per preset, random policies (issue: >= 2,000 seeded deals of every preset)
N_GREEDY_DEALS = 300  # greedy discarding scores every throw with the literal scorer ...
N_GREEDY_EIGHT = 100  # ... 28 six-card shows per seat in eight-card
N_PROBE_DEALS = 300
N_GAMES = 200  # per preset, random policies
N_OTHER_GAMES = 20  # greedy and probe


@njit(cache=True)
def _mix(h, x):
    return (h ^ x) * 1000003 + 12345


@njit(DISCARD_SIG, cache=True)
def probe_discard(hand, state, rules, rng, params):
    """A throw chosen by a hash of the hand, the whole state and one draw from the seat's stream."""
    h = randint(rng, 1000)
    for j in range(S_SIZE):
        h = _mix(h, state[j])
    for c in hand:
        h = _mix(h, c)
    n, k = hand.shape[0], rules[R_THROW]
    valid = 0
    for m in range(1 << n):
        valid += is_valid_throw(m, n, k)
    pick = (h >> 7) % valid
    for m in range(1 << n):
        if is_valid_throw(m, n, k):
            if pick == 0:
                return m
            pick -= 1
    return -1


@njit(PEG_SIG, cache=True)
def probe_peg(hand, played, state, rules, rng, params):
    """A legal card chosen by a hash of the hand, the whole state, the cards laid and (every third
    card of the deal) a draw from the seat's stream."""
    h = randint(rng, 1000) if state[S_N_PLAYED] % 3 == 0 else 0
    for j in range(S_SIZE):
        h = _mix(h, state[j])
    for i in range(state[S_N_PLAYED]):
        h = _mix(h, played[i])
    for c in hand:
        h = _mix(h, c)
    legal = 0
    for i in range(hand.shape[0]):
        legal += is_legal_play(hand, i, state[S_COUNT])
    pick = (h >> 7) % legal
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, state[S_COUNT]):
            if pick == 0:
                return i
            pick -= 1
    return -1


POLICIES = {
    "random": {"discard": "random", "peg": "random"},
    "greedy": {"discard": "greedy", "peg": "greedy"},
    "probe": {"discard": probe_discard, "peg": probe_peg},
}


def assert_same_deals(rules, policies, n, seed):
    fast = records_array(simulate_deals(rules, policies, n, seed, records=True))
    slow = ref.simulate_deals(rules, policies, n, seed)
    assert len(slow) == n
    for g, deal in enumerate(slow):
        expected = deal.components()
        got = fast[g, : get_rules(rules).active]
        if not np.array_equal(got, expected):
            pytest.fail(
                f"{get_rules(rules).name} deal {g} (dealer seat {deal.dealer}): engine {got.tolist()} != reference "
                f"{expected.tolist()} (components {COMPONENTS}); reference pegs: " + "; ".join(map(str, deal.pegs))
            )
    return slow


def assert_same_games(rules, policies, n, seed):
    fast = play_games(rules, policies, n, seed, records=True).games
    slow = ref.play_games(rules, policies, n, seed)
    for g, game in enumerate(slow):
        row = fast.iloc[g]
        expected = game.record()
        got = {key: int(row[key]) for key in expected}
        assert got == expected, f"{get_rules(rules).name} game {g}"
    return slow


@pytest.mark.parametrize("rules", list(PRESETS))
def test_deals_match_reference_random(rules):
    deals = assert_same_deals(rules, POLICIES["random"], N_DEALS, seed=20260)
    # The sample means something: heels, gos, last cards and thirty-ones all happen.
    assert {p.what for d in deals for p in d.pegs} == {"heels", "play", "go", "last card", "hand", "crib"}
    assert any(count == 31 for d in deals for _, _, count in d.laid)


@pytest.mark.parametrize("rules", list(PRESETS))
def test_deals_match_reference_greedy(rules):
    assert_same_deals(rules, POLICIES["greedy"], N_GREEDY_EIGHT if rules == "eight-card" else N_GREEDY_DEALS, seed=77)


@pytest.mark.parametrize("rules", list(PRESETS))
def test_deals_match_reference_probe_policies(rules):
    """What a policy sees (state vector, cards laid, its stream) is the same in both engines."""
    assert_same_deals(rules, POLICIES["probe"], N_PROBE_DEALS, seed=5)


def test_deals_match_reference_per_seat_policies():
    """Per-seat lists: each seat's own policy and stream (four-hand: four different policies)."""
    mixed = {"discard": ["greedy", "random", probe_discard, "random"], "peg": [probe_peg, "greedy", "random", "greedy"]}
    assert_same_deals("four-hand", mixed, 300, seed=9)
    assert_same_deals("six-card", {"discard": ["random", "greedy"], "peg": ["greedy", probe_peg]}, 300, seed=9)


def test_deals_match_reference_across_chunks():
    """A run longer than one chunk: deal g of chunk g // chunk_size, index g % chunk_size."""
    from sims.cribbage.game import GAME

    CHUNK_DEALS = GAME.chunk_size["deals"]
    n = CHUNK_DEALS + 200
    fast = records_array(simulate_deals("six-card-61", {"discard": "random", "peg": "random"}, n, 3, records=True))
    keys = ref.chunk_keys(3, 0, 2, 5)
    for g in range(CHUNK_DEALS - 100, n):
        deck_rng, seat_rngs = ref.streams(keys[g // CHUNK_DEALS], g % CHUNK_DEALS)
        deal = ref.play_deal(
            "six-card-61",
            g % 2,
            ref.shuffled_deck(PRESETS["six-card-61"], deck_rng),
            seat_rngs,
            {"discard": "random", "peg": "random"},
        )
        assert np.array_equal(fast[g, :2], deal.components()), g


@pytest.mark.parametrize(
    "changes",
    [
        {"bath_flush": True},
        {"crib_flush_four": True},
        {"bath_flush": True, "one_count": True, "target": 31, "lurch": 21, "double_lurch": 11},
    ],
)
def test_rule_fields_match_reference(changes):
    """The options off in the presets: Bath flushes in the play (Rules of Cribbage, rule 11), the four-card
    crib flush, one count only in six-card; and games to a short target."""
    rules = PRESETS["six-card"].replace(name="custom", **changes)
    assert_same_deals(rules, POLICIES["random"], 500, seed=12)
    assert_same_deals(rules, POLICIES["greedy"], 200, seed=12)
    assert_same_games(rules, POLICIES["random"], 50, seed=12)


@pytest.mark.parametrize("rules", list(PRESETS))
def test_games_match_reference_random(rules):
    games = assert_same_games(rules, POLICIES["random"], N_GAMES, seed=31)
    # Games end in the play as well as in the show, and every side wins some.
    endings = {g.deals[-1].pegs[-1].component for g in games}
    assert "hand" in endings and endings & {"play", "go"}
    assert len({g.winner for g in games}) == PRESETS[rules].sides


@pytest.mark.parametrize("rules", list(PRESETS))
@pytest.mark.parametrize("kind", ["greedy", "probe"])
def test_games_match_reference_other_policies(rules, kind):
    assert_same_games(rules, POLICIES[kind], N_OTHER_GAMES, seed=4)
