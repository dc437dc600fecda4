"""Strategy policies: expected_hand, expected_net, exact_net, hoyle (discard) and defensive (pegging)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sims.cards import parse_cards
from sims.cribbage import literal_scoring as literal
from sims.cribbage import reference as ref
from sims.cribbage.contract import (
    ROLE_NAMES,
    S_COUNT,
    S_COUNT_START,
    S_CRIB_MINE,
    S_GO_MASK,
    S_N_PLAYED,
    S_ROLE,
    S_SIZE,
    S_STARTER,
    S_THROWN,
    is_valid_throw,
)
from sims.cribbage.crib_tables import PARAMS_SIZE, named_tables, reference_table, table_matrices, table_params
from sims.cribbage.discards import analyze_discards, crib_is_mine, role_index
from sims.cribbage.play import COMPONENTS
from sims.cribbage.policies import discard as discard_policies
from sims.cribbage.policies import pegging as peg_policies
from sims.cribbage.policies import resolve
from sims.cribbage.policies.builtin import greedy_peg
from sims.cribbage.rules import PRESETS, get_rules
from sims.cribbage.simulate import simulate_deals

DISCARDS = ("expected_hand", "expected_net", "exact_net", "hoyle")
RNG_STATE = np.array([1, 2, 3, 4], dtype=np.uint64)


def _discard_state(role, mine):
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE] = role
    state[S_CRIB_MINE] = int(mine)
    state[S_STARTER] = state[S_THROWN] = state[S_THROWN + 1] = -1
    return state


def _throw(name, hand, preset, role):
    rules = get_rules(preset)
    policy = resolve("discard", name)
    me = role_index(rules, role)
    return policy.fn(
        np.asarray(hand, dtype=np.int64),
        _discard_state(me, crib_is_mine(rules, me)),
        rules.to_kernel(),
        RNG_STATE.copy(),
        policy.params_array(),
    )


def _thrown(hand, mask):
    return {c for i, c in enumerate(hand) if (mask >> i) & 1}


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("name", DISCARDS)
def test_discard_policies_return_legal_masks(preset, name):
    rules = get_rules(preset)
    rng = np.random.default_rng(hash((preset, name)) % 2**32)
    for role in ("dealer", "eldest") if rules.active > 2 else ("dealer", "pone"):
        for _ in range(6 if name == "exact_net" else 20):
            hand = rng.choice(52, rules.cards_dealt, replace=False)
            assert is_valid_throw(_throw(name, hand, preset, role), rules.cards_dealt, rules.throw)


@pytest.mark.parametrize(
    "preset, role",
    [
        ("six-card", "dealer"),
        ("six-card", "pone"),
        ("five-card", "pone"),
        ("three-hand", "second"),
        ("four-hand", "dealer_partner"),
    ],
)
def test_expected_hand_and_exact_net_pick_the_optimisers_best(preset, role):
    rules = get_rules(preset)
    rng = np.random.default_rng(17)
    for _ in range(4):
        hand = [int(c) for c in rng.choice(52, rules.cards_dealt, replace=False)]
        frame = analyze_discards(hand, role, rules=preset, collapse=False)
        by_thrown = {frozenset(parse_cards(t)): i for i, t in enumerate(frame["thrown"])}
        pick = by_thrown[frozenset(_thrown(hand, _throw("expected_hand", hand, preset, role)))]
        assert frame["hand"][pick] == pytest.approx(frame["hand"].max())
        pick = by_thrown[frozenset(_thrown(hand, _throw("exact_net", hand, preset, role)))]
        assert frame["net"][pick] == pytest.approx(frame["net"].max())


def test_reference_tables_and_params():
    schell = table_matrices(reference_table("schell"))
    assert schell["dealer"][4, 4] == 8.79 and schell["pone"][4, 4] == 9.37  # 5-5, from the published table
    assert (schell["dealer"] == schell["dealer"].T).all()
    params = table_params(reference_table("hessel"))
    assert params.shape == (PARAMS_SIZE,) and params[169 + 10 * 13 + 10] == 6.56  # J-J into the opponent's crib
    assert resolve("discard", "expected_net").params == named_tables()["schell"]
    with pytest.raises(ValueError, match="unknown crib table source"):
        reference_table("nobody")
    with pytest.raises(ValueError, match="lacks the dealer entry"):
        table_params(reference_table("schell").iloc[1:])


def _net_with_table(table, hand, role):
    policy = discard_policies.expected_net_policy(table)
    mine = role == "dealer"
    return policy.fn(
        np.asarray(hand, dtype=np.int64),
        _discard_state(0 if mine else 1, mine),
        get_rules("six-card").to_kernel(),
        RNG_STATE.copy(),
        policy.params_array(),
    )


def test_expected_net_uses_the_table_in_params():
    hand = parse_cards("5H 5S JD 6C 4H KD")
    zero = np.zeros(PARAMS_SIZE)
    assert _net_with_table(zero, hand, "dealer") == _throw("expected_hand", hand, "six-card", "dealer")
    # A table that prizes a king and a four in one's own crib, and fears nothing else.
    prize = zero.copy()
    prize[12 * 13 + 3] = prize[3 * 13 + 12] = 50.0
    assert _thrown(hand, _net_with_table(prize, hand, "dealer")) == set(parse_cards("4H KD"))
    # The same entry in the pone table is a crib to avoid: the pone keeps those cards.
    fear = zero.copy()
    fear[169 + 12 * 13 + 3] = fear[169 + 3 * 13 + 12] = 50.0
    assert _thrown(hand, _net_with_table(fear, hand, "pone")) != set(parse_cards("4H KD"))
    # A published table as a DataFrame gives the registered default.
    assert discard_policies.expected_net_policy(reference_table("schell")) == resolve("discard", "expected_net")
    with pytest.raises(ValueError, match="needs 338 finite values"):
        discard_policies.expected_net_policy(np.zeros(169))


def test_expected_net_with_schell_prefers_the_dealers_fives():
    # With Schell's table the dealer keeps 5-5-6-4 (hand 15.96) and throws J-K; the pone too.
    hand = parse_cards("5H 5S JD 6C 4H KD")
    for role in ("dealer", "pone"):
        assert _thrown(hand, _throw("expected_net", hand, "six-card", role)) == set(parse_cards("JD KD"))


def _hoyle_slow(hand, role, preset):
    """The reading of the Article in the hoyle docstring: the optimiser's exact crib (itself checked
    against brute force), best for the crib's owner and worst otherwise; ties by the points kept."""
    rules = get_rules(preset)
    mine = crib_is_mine(rules, role_index(rules, role))
    frame = analyze_discards(hand, role, rules=preset, collapse=False)
    keys = [
        ((1 if mine else -1) * row.crib, literal.show_score(parse_cards(row.kept), None)) for row in frame.itertuples()
    ]
    return set(parse_cards(frame["thrown"][max(range(len(keys)), key=keys.__getitem__)]))


@pytest.mark.parametrize(
    "preset, role",
    [
        ("five-card", "dealer"),
        ("five-card", "pone"),
        ("six-card", "dealer"),
        ("six-card", "pone"),
        ("three-hand", "dealer"),
        ("four-hand", "eldest"),
    ],
)
def test_hoyle_matches_the_literal_reading(preset, role):
    rules = get_rules(preset)
    rng = np.random.default_rng(23)
    for _ in range(5):
        hand = [int(c) for c in rng.choice(52, rules.cards_dealt, replace=False)]
        assert _thrown(hand, _throw("hoyle", hand, preset, role)) == _hoyle_slow(hand, role, preset)


def test_hoyle_article_dealer_lays_down_his_best_cards():
    # Article (five-card): the dealer "lays down the two best cards he can for his crib" — the two
    # fives — and keeps "a nine and two sixes", which "makes six".
    hand = parse_cards("5H 5D 9C 6S 6D")
    assert _thrown(hand, _throw("hoyle", hand, "five-card", "dealer")) == set(parse_cards("5H 5D"))
    # "his antagonist lays down the other two, the very worst": never the fives into the dealer's crib.
    assert not _thrown(hand, _throw("hoyle", hand, "five-card", "pone")) & set(parse_cards("5H 5D"))


# ---------------------------------------------------------------------------- pegging: defensive


def _peg(policy, hand, played, count_start=0, role=1, go_mask=0, params=None, preset="six-card"):
    hand = np.asarray([c if isinstance(c, int) else parse_cards([c])[0] for c in hand], dtype=np.int64)
    rules = get_rules(preset)
    seq = parse_cards(played) if played else []
    buf = np.zeros(rules.active * rules.kept, dtype=np.int64)
    buf[: len(seq)] = seq
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE] = role
    state[S_COUNT] = sum(min((c >> 2) + 1, 10) for c in seq[count_start:])
    state[S_COUNT_START] = count_start
    state[S_N_PLAYED] = len(seq)
    state[S_GO_MASK] = go_mask
    state[S_STARTER] = state[S_THROWN] = state[S_THROWN + 1] = -1
    p = np.asarray(peg_policies.DEFAULT_PARAMS if params is None else params, dtype=np.float64)
    return int(policy(hand, buf, state, rules.to_kernel(), RNG_STATE.copy(), p)), hand


def _card(hand, i):
    return parse_cards([int(hand[i])])[0] if i >= 0 else None


def test_defensive_avoids_leaving_twenty_one():
    # Count 16 (10C, 6D); the five would leave 21 for any ten-card to make 31; greedy lays it (highest).
    i, hand = _peg(peg_policies.defensive_peg, ["5C", "2C", -1, -1], "10C 6D")
    assert hand[i] == parse_cards("2C")[0]
    j, _ = _peg(greedy_peg, ["5C", "2C", -1, -1], "10C 6D")
    assert j == 0


def test_defensive_does_not_lead_a_five():
    i, hand = _peg(peg_policies.defensive_peg, ["5H", "3C", "2D", "AS"], "")
    assert hand[i] != parse_cards("5H")[0]
    j, _ = _peg(greedy_peg, ["5H", "3C", "2D", "AS"], "")
    assert j == 0


def test_defensive_takes_points_first():
    i, hand = _peg(peg_policies.defensive_peg, ["5H", "2C", "9D", -1], "10C")
    assert hand[i] == parse_cards("5H")[0]  # fifteen two, though a five or ten may answer


def test_defensive_last_player_comes_close_to_thirty_one():
    # Sections 87-96: the opponent (dealer, role 0) has said go; we lay the highest card that fits ...
    i, hand = _peg(peg_policies.defensive_peg, ["2C", "9D", "4H", -1], "KC QD", go_mask=1)
    assert hand[i] == parse_cards("9D")[0]
    # ... unless another card scores now: J after K Q is a run of three.
    i, hand = _peg(peg_policies.defensive_peg, ["9D", "JH", "2C", -1], "KC QD", go_mask=1)
    assert hand[i] == parse_cards("JH")[0]


def test_defensive_leads_from_a_pair():
    hand = ["3H", "2C", "9D", "9S"]
    i, arr = _peg(peg_policies.defensive_peg, hand, "")
    assert arr[i] >> 2 == 8  # a nine, hoping to answer a paired nine with a pair-royal
    j, arr = _peg(peg_policies.defensive_peg, hand, "", params=(1.0, 0.5, 0.0))
    assert arr[j] >> 2 != 8  # without the bonus the low cards are safer


def test_expected_best_reply_matches_enumeration():
    # 10 unseen cards, the replier holds 3: three cards score 2, one scores 5, the rest nothing.
    points = np.array([2, 5], dtype=np.int64)
    mult = np.array([3, 1], dtype=np.int64)
    got = peg_policies.expected_best(points, mult, 2, 10, 3)
    values = [2, 2, 2, 5, 0, 0, 0, 0, 0, 0]
    want = np.mean([max(values[a] for a in combo) for combo in itertools.combinations(range(10), 3)])
    assert got == pytest.approx(want)


def assert_same_deals_as_reference(preset, policies, n, seed):
    """The engine's per-deal points by role and component equal the plain-Python reference engine's on
    the same random streams (``sims.cribbage.reference``), which calls the same njit policies with
    the state it builds itself: a policy shown a different state, or an engine that mishandles its
    answer, changes a deal."""
    rules = get_rules(preset)
    fast = simulate_deals(rules, policies, n, seed, records=True).records
    slow = ref.simulate_deals(rules, policies, n, seed)
    columns = [[f"{role}_{c}" for c in COMPONENTS] for role in ROLE_NAMES[rules.active]]
    assert len(fast) == len(slow) == n
    for g, deal in enumerate(slow):
        got = np.array([fast.loc[g, names].to_numpy(dtype=np.int64) for names in columns])
        assert np.array_equal(got, deal.components()), (preset, g, got.tolist(), deal.components().tolist())


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("discard", DISCARDS)
def test_policies_play_as_the_reference_engine_plays_them(preset, discard):
    # Every strategy discard with defensive pegging, in every variant: legal (the engine raises PolicyError
    # on an illegal answer) and the same deals, point for point, as the reference engine.
    assert_same_deals_as_reference(preset, {"discard": discard, "peg": "defensive"}, 40, seed=3)


def test_expected_net_self_play_shows_match_expert_figures():
    # Published expert averages per deal (shared/data/README.md; sims.cribbage.lab.tournament's LITERATURE): hand
    # 7.9-8.1 for either player, dealer's crib 4.6-5.0.  20,000 seeded deals: each mean must lie within four of
    # its standard errors (about 0.03) of the published range.
    result = simulate_deals("six-card", {"discard": "expected_net", "peg": "defensive"}, n_deals=20_000, seed=2)
    table = result.table().set_index(["role", "component"])
    for (role, component), (low, high) in {
        ("dealer", "hand"): (7.9, 8.1),
        ("pone", "hand"): (7.9, 8.1),
        ("dealer", "crib"): (4.6, 5.0),
    }.items():
        mean, se = table.loc[(role, component), ["mean", "se"]]
        assert 0 < se < 0.05
        assert low - 4 * se <= mean <= high + 4 * se, (role, component, mean, se)


def test_defensive_outpegs_greedy_in_six_card():
    # Seeded: defensive at seat 0, greedy at seat 1, the same discards; each seat deals half the deals.
    result = simulate_deals(
        "six-card", {"discard": "expected_net", "peg": ["defensive", "greedy"]}, n_deals=20_000, seed=5
    )
    seats = result.seat_table().set_index(["seat", "component"])
    diff = seats.loc[(0, "pegging"), "mean"] - seats.loc[(1, "pegging"), "mean"]
    se = float(np.hypot(seats.loc[(0, "pegging"), "se"], seats.loc[(1, "pegging"), "se"]))
    assert diff > 3 * se, (diff, se)


def test_reply_pair_run_matches_the_pegging_scorer():
    # Fast table of pair/run replies against peg_points_kernel on random counts (no fifteens: subtract them).
    from sims.cribbage.pegging import peg_points_kernel

    rng = np.random.default_rng(31)
    for _ in range(400):
        length = int(rng.integers(1, 7))
        seq = rng.choice(52, length + 1, replace=False).astype(np.int64)
        seq[:length] = np.sort(seq[:length]) if rng.random() < 0.3 else seq[:length]  # runs more often
        packed = peg_policies.reply_pair_run(seq, 0, length)
        out = [(packed >> (4 * r)) & 15 for r in range(13)]  # four bits a rank
        assert packed >> 52 == 0
        for r in range(13):
            reply = np.append(seq[:length], r * 4 + int(rng.integers(4)))
            if reply[-1] in seq[:length]:
                continue
            count = sum(min((c >> 2) + 1, 10) for c in reply)
            want = peg_points_kernel(reply, 0, length + 1, False) - (2 if count in (15, 31) else 0)
            assert out[r] == want, (seq[:length], r)


def test_reply_pair_run_after_four_of_a_rank():
    # Four threes laid together (count 12): no fifth three can pair them, and the fours' bits are untouched
    # (a fifth card's 20 points would not fit in the three's four bits).
    threes = np.array([8, 9, 10, 11], dtype=np.int64)
    packed = peg_policies.reply_pair_run(threes, 0, 4)
    assert packed == 0


def test_defensive_keep_close_is_a_switch():
    # The pone (role 1) is the last player: the dealer (role 0) has said go.  Keeping close he lays
    # the nine (count 29); without the rule (keep_close 0, registered as defensive_no_close) the two.
    no_close = resolve("peg", "defensive_no_close")
    assert no_close.fn is peg_policies.defensive_peg.dispatcher and no_close.params[3] == 0.0
    assert resolve("peg", "defensive").params[3] == 1.0
    i, hand = _peg(peg_policies.defensive_peg, ["2C", "9D", "4H", -1], "KC QD", go_mask=1)
    j, _ = _peg(peg_policies.defensive_peg, ["2C", "9D", "4H", -1], "KC QD", go_mask=1, params=no_close.params)
    assert (hand[i], hand[j]) == tuple(parse_cards("9D 2C"))
    # Points now still come first, and with a reply possible the switch changes nothing.
    j, hand = _peg(peg_policies.defensive_peg, ["9D", "JH", "2C", -1], "KC QD", go_mask=1, params=no_close.params)
    assert hand[j] == parse_cards("JH")[0]
    i, hand = _peg(peg_policies.defensive_peg, ["2C", "9D", "4H", -1], "KC QD")
    j, _ = _peg(peg_policies.defensive_peg, ["2C", "9D", "4H", -1], "KC QD", params=no_close.params)
    assert i == j
