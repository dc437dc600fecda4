"""``expected_peg``: expected_net plus the pegging the kept ranks are worth, and the fit of its table."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sims.cards import parse_cards
from sims.cribbage.contract import S_CRIB_MINE, S_ROLE, S_SIZE, S_STARTER, S_THROWN
from sims.cribbage.crib_tables import PARAMS_SIZE, named_tables as crib_tables
from sims.cribbage.discards import analyze_discards
from sims.cribbage.policies import resolve
from sims.cribbage.policies.discard import N_KEPT, expected_net_discard, expected_peg_discard, kept_index
from sims.cribbage.policies.kept_pegging import SHRINK, fit_kept, kept_play_outs, kept_table, named_tables
from sims.cribbage.rules import get_rules
from sims.cribbage.simulate import simulate_deals

RNG = np.array([1, 2, 3, 4], dtype=np.uint64)


def _state(dealer: bool):
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE], state[S_CRIB_MINE] = (0, 1) if dealer else (1, 0)
    state[S_STARTER] = state[S_THROWN] = state[S_THROWN + 1] = -1
    return state


def _params(kept_values=None):
    kept_values = np.zeros(2 * N_KEPT) if kept_values is None else kept_values
    return np.concatenate([crib_tables()["schell"], kept_values])


def _kept(hand, mask):
    return sorted(c for i, c in enumerate(hand) if not (mask >> i) & 1)


def test_kept_index_numbers_every_multiset_of_four_ranks_once():
    seen = set()
    for ranks in itertools.combinations_with_replacement(range(13), 4):
        index = kept_index(np.array([r << 2 for r in ranks], dtype=np.int64))
        assert 0 <= index < N_KEPT
        seen.add(index)
    assert len(seen) == N_KEPT == 1820


def test_kept_index_is_blind_to_suits_and_order():
    a = kept_index(np.array(parse_cards("5H JS 5D 2C"), dtype=np.int64))
    b = kept_index(np.array(parse_cards("2S 5C JH 5S"), dtype=np.int64))
    assert a == b
    assert a != kept_index(np.array(parse_cards("5H JS 5D 3C"), dtype=np.int64))


@pytest.mark.parametrize("dealer", [True, False])
def test_an_empty_kept_table_throws_as_expected_net(dealer):
    rules = get_rules("six-card").to_kernel()
    rng = np.random.default_rng(7)
    for _ in range(300):
        hand = rng.choice(52, 6, replace=False).astype(np.int64)
        assert expected_peg_discard(hand, _state(dealer), rules, RNG.copy(), _params()) == expected_net_discard(
            hand, _state(dealer), rules, RNG.copy(), np.array(crib_tables()["schell"])
        )


@pytest.mark.parametrize("preset", ["eight-card", "three-hand"])
def test_other_than_two_players_keeping_four_throws_as_expected_net(preset):
    rules = get_rules(preset)
    rng = np.random.default_rng(8)
    favour = 50.0 * rng.standard_normal(2 * N_KEPT)  # would change every choice it touched
    kernel, schell = rules.to_kernel(), np.array(crib_tables()["schell"])
    for _ in range(40):
        hand = rng.choice(52, rules.cards_dealt, replace=False).astype(np.int64)
        assert expected_peg_discard(hand, _state(True), kernel, RNG.copy(), _params(favour)) == expected_net_discard(
            hand, _state(True), kernel, RNG.copy(), schell
        )


def test_the_table_of_ones_role_decides_the_throw():
    """A large value on the pone's 2-3-J-J: the pone keeps those cards, the dealer throws as expected_net."""
    hand = np.array(parse_cards("5H 5S JD JC 2C 3C"), dtype=np.int64)
    favour = np.zeros(2 * N_KEPT)
    favour[N_KEPT + kept_index(np.array(parse_cards("2C 3C JD JC"), dtype=np.int64))] = 100.0
    rules = get_rules("six-card").to_kernel()
    as_pone = expected_peg_discard(hand, _state(False), rules, RNG.copy(), _params(favour))
    as_dealer = expected_peg_discard(hand, _state(True), rules, RNG.copy(), _params(favour))
    assert _kept(hand, as_pone) == sorted(parse_cards("2C 3C JD JC"))
    assert as_dealer == expected_net_discard(hand, _state(True), rules, RNG.copy(), np.array(crib_tables()["schell"]))
    assert _kept(hand, as_dealer) != _kept(hand, as_pone)


def test_fit_kept_is_the_shrunk_mean_less_the_role_mean():
    samples = {
        "role": np.array([0, 0, 0, 1, 1]),
        "kept": np.array([5, 5, 9, 5, 7]),
        "net": np.array([4.0, 2.0, -3.0, 1.0, -1.0]),
    }
    v = fit_kept(samples, shrink=2.0)
    dealer_mean, pone_mean = 1.0, 0.0
    assert v[5] == pytest.approx((6.0 - 2 * dealer_mean) / (2 + 2))
    assert v[9] == pytest.approx((-3.0 - dealer_mean) / (1 + 2))
    assert v[N_KEPT + 5] == pytest.approx((1.0 - pone_mean) / 3)
    assert v[N_KEPT + 7] == pytest.approx(-1.0 / 3)
    assert np.count_nonzero(v) == 4


def test_play_outs_are_the_engines_deals():
    """Seat 0 throwing at random against expected_net: the same deals as simulate_deals plays, seed for seed,
    on one thread or two."""
    n = 5000
    one = kept_play_outs("six-card", n, seed=11, threads=1)
    two = kept_play_outs("six-card", n, seed=11, threads=2)
    for key in one:
        np.testing.assert_array_equal(one[key], two[key])
    rec = simulate_deals(
        "six-card", {"discard": ["random", "expected_net"], "peg": "distilled"}, n, 11, records=True
    ).records
    assert (rec["dealer"].to_numpy() == one["role"]).all()  # seat 0 deals the even deals
    sign = np.where(one["role"] == 0, 1, -1)
    np.testing.assert_array_equal(one["net"], sign * (rec["dealer_pegging"] - rec["pone_pegging"]).to_numpy())
    assert len(np.unique(one["kept"])) > 1000


def test_bad_rules_and_counts_are_refused():
    for preset in ("eight-card", "three-hand"):
        with pytest.raises(ValueError, match="two-handed play keeping four"):
            kept_play_outs(preset, 10)
    with pytest.raises(ValueError):
        kept_play_outs("six-card", 0)


def test_the_shipped_table_by_crib_table_name():
    tables = named_tables()
    assert set(tables) == set(crib_tables())
    for name, values in tables.items():
        assert len(values) == PARAMS_SIZE + 2 * N_KEPT
        assert values[:PARAMS_SIZE] == crib_tables()[name]
    assert resolve("discard", "expected_peg:table=hessel").params[:PARAMS_SIZE] == crib_tables()["hessel"]


def test_the_shipped_table_agrees_with_a_fresh_fit():
    """A fit on other deals (600,000, seed 99) correlates with the shipped one (40,000,000, seed 3) over the
    hands kept 150 times or more; both put a pair of fives kept by the pone above four picture cards."""
    shipped = np.array(named_tables()["schell"][PARAMS_SIZE:])
    samples = kept_play_outs("six-card", 600_000, seed=99)
    fresh = fit_kept(samples, SHRINK)
    n = np.bincount(samples["role"] * N_KEPT + samples["kept"], minlength=2 * N_KEPT)
    often = n >= 150  # measured: 1,431 hands, correlation 0.957
    assert often.sum() > 1000
    assert np.corrcoef(shipped[often], fresh[often])[0, 1] > 0.85
    table = kept_table(shipped).set_index(["role", "kept"])["pegging"]
    assert len(table) == 2 * N_KEPT
    assert table["pone", "55JQ"] > table["pone", "TJQK"]


def test_expected_peg_scores_more_than_expected_net():
    """Seeded, paired: 2 x 20,000 deals with the seats exchanged, both pegging by distilled; the gain over
    200,000 deals was +0.055 +- 0.006 a deal, so +0.02 is about 3.5 standard errors of 20,000 below it."""
    sides = []
    for seats in (["expected_peg", "expected_net"], ["expected_net", "expected_peg"]):
        rec = simulate_deals("six-card", {"discard": seats, "peg": "distilled"}, 20_000, 7, records=True).records
        sides.append(np.where(rec["dealer"] == 0, 1, -1) * (rec["dealer_total"] - rec["pone_total"]).to_numpy())
    gain = (sides[0] - sides[1]) / 2
    assert gain.mean() > 0.02


@pytest.mark.parametrize(
    "hand, role",
    [
        ("5H 5S JD 6C 4H KD", "dealer"),
        ("AH 2S 3D 9C TH KD", "pone"),
        ("7H 8S 8D 9C QH KD", "dealer"),
        ("2H 4S 6D 8C TH QD", "pone"),
    ],
)
def test_the_table_agrees_with_the_advisors_pegging_for_one_hand(hand, role):
    """Two estimators of the same thing: the table (any hand of these ranks, dealt at random) against
    ``sims discard --pegging distilled`` (this very hand, 4,000 sampled deals a throw, standard error
    about 0.04).  Measured: correlation 0.975-0.983 over the 15 throws, centred values within 0.19."""
    advice = analyze_discards(hand, role, pegging="distilled", samples=4000, collapse=False)
    section = 0 if role == "dealer" else N_KEPT
    shipped = named_tables()["schell"][PARAMS_SIZE:]
    table = np.array([shipped[section + kept_index(np.array(parse_cards(k), dtype=np.int64))] for k in advice["kept"]])
    sampled = advice["pegging"].to_numpy()
    assert np.corrcoef(table, sampled)[0, 1] > 0.9
    assert np.abs((table - table.mean()) - (sampled - sampled.mean())).max() < 0.3
