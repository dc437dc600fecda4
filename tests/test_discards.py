"""The discard optimiser: exact expectations against hand counts and brute-force enumeration."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from sims.cards import parse_cards
from sims.cli import main
from sims.cribbage import reference
from sims.cribbage.discards import analyze_discards
from sims.cribbage.policies.discard import crib_total, crib_ways, starter_total, unseen_counts
from sims.cribbage.rules import get_rules
from sims.cribbage.scoring import score_shows


def _row(frame, kept):
    """The row of ``frame`` keeping exactly these cards."""
    want = set(kept.split())
    rows = frame[[set(k.split()) == want for k in frame["kept"]]]
    assert len(rows) == 1
    return rows.iloc[0]


def test_expected_hand_four_tens_hand_count():
    # Four tens: double pair-royal 12 with any starter; a five adds four fifteens (8).
    # The pool is 52 - 6 = 46 cards with all four fives.
    frame = analyze_discards("10C 10D 10H 10S AC 2D", "dealer")
    assert _row(frame, "10C 10D 10H 10S")["hand"] == pytest.approx(12 + 8 * 4 / 46)


def test_expected_hand_flush_and_nobs_hand_count():
    # Kept JH 2H 4H 6H (KC KD thrown); pool of 46: ranks A3579 10 Q x4, 2 4 6 J x3, K x2; 9 hearts.
    # Fifteens (subset sums of 10,2,4,6 meeting the starter): A 1 way, 3 2, 5 2, 7 1, 9 2 -> 2*4*(1+2+2+1+2)=64.
    # Runs: a 3 (2-3-4) or a 5 (4-5-6): 3 points, 8 starters -> 24.  Pairs: 3 each of J,2,4,6 -> 24.
    # Nobs: 9 hearts -> 9.  Flush: 4 always + 1 with a heart -> 4*46 + 9 = 193.  Total 314.
    frame = analyze_discards("JH 2H 4H 6H KC KD", "pone")
    assert _row(frame, "JH 2H 4H 6H")["hand"] == pytest.approx(314 / 46)


@pytest.mark.parametrize("hand, n, crib", [
    ("5H 5S JD 6C", 4, True), ("JH 2H 4H 6H", 4, False), ("JH 2H 4H 6H", 4, True), ("3C 9C QC", 3, False),
    ("7D", 1, True), ("JS 2S", 2, False)])
def test_starter_total_matches_reference_scorer(hand, n, crib):
    cards = parse_cards(hand)
    dealt = cards + [c for c in parse_cards("KC KD QS AD AS") if c not in cards][: 6 - n]
    ranks, suits, _, n_pool = unseen_counts(np.asarray(dealt, dtype=np.int64))
    fast = starter_total(np.asarray(cards, dtype=np.int64), n, ranks, suits, n_pool, crib, False)
    pool = [c for c in range(52) if c not in dealt]
    assert fast == sum(reference.show_score(cards, int(s), crib=crib) for s in pool)


def _brute_crib(thrown, dealt, flush_four=False):
    """Mean crib over every completion of the crib from the unseen cards and every starter."""
    pool = [c for c in range(52) if c not in dealt]
    cribs, starters = [], []
    for extra in itertools.combinations(pool, 4 - len(thrown)):
        for s in pool:
            if s not in extra:
                cribs.append(list(thrown) + list(extra))
                starters.append(s)
    return score_shows(np.array(cribs), np.array(starters), crib=True, crib_flush_four=flush_four).mean()


@pytest.mark.parametrize("flush_four", [False, True])
def test_exact_crib_matches_brute_force_six_card(flush_four):
    # Hearts thrown so that crib flushes (with and without the starter) are in play; a jack for nobs.
    dealt = parse_cards("2H 7H JH 5C 9S KD")
    rules = get_rules("six-card").replace(crib_flush_four=flush_four)
    frame = analyze_discards(dealt, "dealer", rules=rules)
    for thrown in (["2H", "7H"], ["JH", "5C"], ["9S", "KD"]):
        ids = parse_cards(thrown)
        got = frame[frame["thrown"] == " ".join(thrown)]["crib"].iloc[0]
        assert got == pytest.approx(_brute_crib(ids, dealt, flush_four), abs=1e-12)


def test_exact_crib_matches_brute_force_three_hand():
    # Three-hand: one card thrown, the other two players' cards and the pack card complete the crib.
    dealt = parse_cards("5H JS 2C 8D QH")
    frame = analyze_discards(dealt, "eldest", rules="three-hand")
    got = frame[frame["thrown"] == "JS"]["crib"].iloc[0]
    assert got == pytest.approx(_brute_crib(parse_cards("JS"), dealt), abs=1e-12)


def test_crib_total_counts_every_way():
    dealt = np.asarray(parse_cards("AC 2C 3C 4C 5C 6C"), dtype=np.int64)
    ranks, suits, jacks, n_pool = unseen_counts(dealt)
    assert n_pool == 46 and jacks == 15 and ranks.sum() == 46 and suits[0] == 7
    ranks0, suits0 = ranks.copy(), suits.copy()
    crib_total(dealt[:2], 2, ranks, suits, jacks, n_pool, False)
    assert (ranks == ranks0).all() and (suits == suits0).all()  # counts restored
    assert crib_ways(2, 46) == 1035 * 44 and crib_ways(1, 47) == 16215 * 44


@pytest.mark.parametrize("preset, n_kept", [("five-card", 3), ("eight-card", 6)])
def test_expected_hand_other_sizes_brute_force(preset, n_kept):
    rules = get_rules(preset)
    rng = np.random.default_rng(7)
    dealt = [int(c) for c in rng.choice(52, rules.cards_dealt, replace=False)]
    frame = analyze_discards(dealt, "pone", rules=preset)
    pool = [c for c in range(52) if c not in dealt]
    for _, row in frame.head(4).iterrows():
        kept = parse_cards(row["kept"])
        assert len(kept) == n_kept
        brute = score_shows(np.array([kept] * len(pool)), np.array(pool)).mean()
        assert row["hand"] == pytest.approx(brute, abs=1e-12)


@pytest.mark.parametrize("preset, role, mine", [
    ("six-card", "dealer", True), ("six-card", "pone", False), ("five-card", "pone", False),
    ("three-hand", "dealer", True), ("three-hand", "second", False), ("three-rotation", "pone", False),
    ("four-hand", "dealer_partner", True), ("four-hand", "eldest_partner", False)])
def test_sorted_best_first_and_net_sign_by_role(preset, role, mine):
    rules = get_rules(preset)
    dealt = [int(c) for c in np.random.default_rng(3).choice(52, rules.cards_dealt, replace=False)]
    frame = analyze_discards(dealt, role, rules=preset)
    assert len(frame) == len(list(itertools.combinations(range(rules.cards_dealt), rules.throw)))
    assert (np.diff(frame["net"]) <= 0).all()
    sign = 1 if mine else -1
    assert np.allclose(frame["net"], frame["hand"] + sign * frame["crib"])
    assert (frame["crib_method"] == "exact").all()
    assert frame.attrs["role"] == role


def test_opponent_policy_random_agrees_with_exact_and_is_seeded():
    hand = "5H 5S JD 6C 4H KD"
    frame = analyze_discards(hand, "pone", opponent="random", samples=4000, seed=11)
    assert (np.diff(frame["opp_net"]) <= 0).all()
    z = (frame["opp_crib"] - frame["crib"]) / frame["opp_crib_se"]
    assert (z.abs() < 4.5).all()  # 15 throws, seeded: a random opponent has the exact crib's mean
    again = analyze_discards(hand, "pone", opponent="random", samples=4000, seed=11)
    assert again["opp_crib"].tolist() == frame["opp_crib"].tolist()
    other = analyze_discards(hand, "pone", opponent="random", samples=4000, seed=12)
    assert other["opp_crib"].tolist() != frame["opp_crib"].tolist()


@pytest.mark.parametrize("preset, role", [("three-hand", "eldest"), ("four-hand", "dealer")])
def test_opponent_policy_sampling_multi_player(preset, role):
    rules = get_rules(preset)
    dealt = [int(c) for c in np.random.default_rng(5).choice(52, rules.cards_dealt, replace=False)]
    frame = analyze_discards(dealt, role, rules=preset, opponent="random", samples=3000, seed=1)
    z = (frame["opp_crib"] - frame["crib"]) / frame["opp_crib_se"]
    assert (z.abs() < 4.5).all()


def test_a_pone_who_throws_his_worst_cards_makes_a_poorer_crib():
    # Seed 004: the pone "lays down ... the very worst in his hand"; against random throws the
    # dealer's crib comes out lower on average over his throws (seeded, 3000 deals each).
    for pone in ("hoyle", "expected_net"):
        frame = analyze_discards("5H 5S JD 6C 4H KD", "dealer", opponent=pone, samples=3000)
        assert frame["opp_crib"].mean() < frame["crib"].mean() - 0.3, pone


@pytest.mark.parametrize("hand, role, rules, message", [
    ("5H 5S JD 6C 4H", "dealer", "six-card", "six-card deals 6 cards"),
    ("5H 5S JD 6C 4H 5H", "dealer", "six-card", "duplicate card 5H"),
    ("5H 5S JD 6C 4H KD", "eldest_partner", "six-card", "unknown role"),
    ("5H 5S JD 6C 4H", "pone", "three-hand", "unknown role 'pone'"),
])
def test_bad_input(hand, role, rules, message):
    with pytest.raises(ValueError, match=message):
        analyze_discards(hand, role, rules=rules)


def test_bad_opponent_and_samples():
    with pytest.raises(ValueError, match="unknown discard policy 'nope'"):
        analyze_discards("5H 5S JD 6C 4H KD", "dealer", opponent="nope")
    with pytest.raises(ValueError, match="samples"):
        analyze_discards("5H 5S JD 6C 4H KD", "dealer", opponent="random", samples=1)


def test_cli_table_and_json(capsys):
    assert main(["discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("JD KD") and "19.960" in lines[1]
    assert main(["discard", "5H", "5S", "JD", "6C", "4H", "KD", "--pone", "--json",
                 "--opponent", "expected_net", "--samples", "200"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 15 and rows[0]["thrown"] == ["JD", "KD"] and rows[0]["kept"] == ["5H", "5S", "6C", "4H"]
    assert {"hand", "crib", "net", "crib_method", "opp_crib", "opp_crib_se", "opp_net"} <= set(rows[0])
    assert rows[0]["net"] == pytest.approx(rows[0]["hand"] - rows[0]["crib"])


@pytest.mark.parametrize("argv, message", [
    (["5H", "5S", "JD", "6C", "4H", "--dealer"], "six-card deals 6 cards"),
    (["5H", "5S", "JD", "6C", "4H", "4H", "--dealer"], "duplicate card 4H"),
    (["5H", "5S", "JD", "6C", "4H", "KD", "--dealer", "--opponent", "nope"], "unknown discard policy"),
])
def test_cli_errors_one_line_exit_2(capsys, argv, message):
    assert main(["discard", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("sims discard: error:")


@pytest.mark.parametrize("argv", [["--dealer", "--pone"], []])
def test_cli_needs_exactly_one_of_dealer_pone(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(["discard", "5H", "5S", "JD", "6C", "4H", "KD", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--dealer" in err
