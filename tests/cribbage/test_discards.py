"""The discard advisor: exact expectations against hand counts and brute force, suit-equivalent rows,
distributions over the starters, crib tables side by side, and the sampled figures against the
reference engine replaying the same sampled deals."""

from __future__ import annotations

import itertools
import json
from math import comb

import numpy as np
import pytest
from numba import njit

from sims.cards import format_cards, parse_cards
from sims.core.errors import PolicyError
from sims.core.rng import chunk_keys, randint, seed_state
from sims.cribbage import literal_scoring as literal
from sims.cribbage import reference as ref
from sims.cribbage.contract import DISCARD_SIG, PEG_SIG, S_SIZE
from sims.cribbage.crib_tables import RANK_LABELS, reference_table, table_matrices
from sims.cribbage.discards import advise, analyze_discards, hand_distributions, role_index
from sims.cribbage.expectations import (
    STARTER_WORK,
    crib_total,
    crib_ways,
    starter_total,
    throw_expectations,
    unseen_counts,
)
from sims.cribbage.policies import resolve
from sims.cribbage.rules import get_rules
from sims.cribbage.scoring import score_shows
from tests.cribbage.test_scoring import SCORE_SHOWS_WORKER

EXAMPLE = "5H 5S JD 6C 4H KD"


def _row(frame, kept):
    """The row of ``frame`` keeping exactly these cards."""
    want = set(kept.split())
    rows = frame[[set(k.split()) == want for k in frame["kept"]]]
    assert len(rows) == 1
    return rows.iloc[0]


# ---------------------------------------------------------------------------- exact values


def test_expected_hand_four_tens_hand_count():
    # Four tens: double pair-royal 12 with any starter; a five adds four fifteens (8).
    # The pool is 52 - 6 = 46 cards with all four fives.
    frame = analyze_discards("10C 10D 10H 10S AC 2D", "dealer")
    row = _row(frame, "10C 10D 10H 10S")
    assert row["hand"] == pytest.approx(12 + 8 * 4 / 46)
    assert row["hand_dist"] == {12: 42, 20: 4} and (row["hand_min"], row["hand_max"]) == (12, 20)


def test_expected_hand_flush_and_nobs_hand_count():
    # Kept JH 2H 4H 6H (KC KD thrown); pool of 46: ranks A3579 10 Q x4, 2 4 6 J x3, K x2; 9 hearts.
    # Fifteens (subset sums of 10,2,4,6 meeting the starter): A 1 way, 3 2, 5 2, 7 1, 9 2 -> 2*4*(1+2+2+1+2)=64.
    # Runs: a 3 (2-3-4) or a 5 (4-5-6): 3 points, 8 starters -> 24.  Pairs: 3 each of J,2,4,6 -> 24.
    # Nobs: 9 hearts -> 9.  Flush: 4 always + 1 with a heart -> 4*46 + 9 = 193.  Total 314.
    frame = analyze_discards("JH 2H 4H 6H KC KD", "pone")
    assert _row(frame, "JH 2H 4H 6H")["hand"] == pytest.approx(314 / 46)


@pytest.mark.parametrize(
    "hand, n, crib",
    [
        ("5H 5S JD 6C", 4, True),
        ("JH 2H 4H 6H", 4, False),
        ("JH 2H 4H 6H", 4, True),
        ("3C 9C QC", 3, False),
        ("7D", 1, True),
        ("JS 2S", 2, False),
    ],
)
def test_starter_total_matches_reference_scorer(hand, n, crib):
    cards = parse_cards(hand)
    dealt = cards + [c for c in parse_cards("KC KD QS AD AS") if c not in cards][: 6 - n]
    ranks, suits, _, n_pool = unseen_counts(np.asarray(dealt, dtype=np.int64))
    fast = starter_total(
        np.asarray(cards, dtype=np.int64), n, ranks, suits, n_pool, crib, False, np.empty(STARTER_WORK, dtype=np.int64)
    )
    pool = [c for c in range(52) if c not in dealt]
    assert fast == sum(literal.show_score(cards, int(s), crib=crib) for s in pool)


def _brute_crib(thrown, dealt, flush_four=False):
    """Mean crib over every completion of the crib from the unseen cards and every starter."""
    pool = np.array([c for c in range(52) if c not in dealt], dtype=np.int64)
    extras = np.array(list(itertools.combinations(pool, 4 - len(thrown))), dtype=np.int64)
    cribs = np.repeat(
        np.hstack([np.tile(np.asarray(thrown, dtype=np.int64), (len(extras), 1)), extras]), len(pool), axis=0
    )
    starters = np.tile(pool, len(extras))
    other = (starters[:, None] != extras.repeat(len(pool), axis=0)).all(axis=1)  # the starter is not in the crib
    assert other.sum() == len(extras) * (len(pool) - extras.shape[1])
    return score_shows(cribs[other], starters[other], crib=True, crib_flush_four=flush_four).mean()


@SCORE_SHOWS_WORKER
@pytest.mark.parametrize("flush_four", [False, True])
def test_exact_crib_matches_brute_force_six_card(flush_four):
    # Hearts thrown so that crib flushes (with and without the starter) are in play; a jack for nobs.
    dealt = parse_cards("2H 7H JH 5C 9S KD")
    rules = get_rules("six-card").replace(crib_flush_four=flush_four)
    frame = analyze_discards(dealt, "dealer", rules=rules, collapse=False)
    for thrown in (["2H", "7H"], ["JH", "5C"], ["9S", "KD"]):
        ids = parse_cards(thrown)
        got = frame[frame["thrown"] == " ".join(thrown)]["crib"].iloc[0]
        assert got == pytest.approx(_brute_crib(ids, dealt, flush_four), abs=1e-12)


@SCORE_SHOWS_WORKER
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


@SCORE_SHOWS_WORKER
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


# ---------------------------------------------------------------------------- the kept hand over the starters


def test_distribution_of_the_best_keep_hand_count():
    # Dealer keeps 5H 5S 6C 4H and lays out JD KD.  Over the 46 unseen starters (hand-counted):
    #   a four or a six (3 + 3 unseen): fifteens 5-6-4 four ways 8, double-double run 4-5-6 12, two pairs 4: 24;
    #   a five (2 unseen): fifteens 5-6-4 three ways and 5-5-5: 8, triple run 9, pair-royal 6: 23;
    #   ten, jack, queen, king (4 + 3 + 4 + 3): fifteens 8, double run 6, pair 2: 16;
    #   ace, three, seven, nine (4 each): one more fifteen or a longer run: 14;
    #   two, eight (4 each): no help: 4 + 6 + 2 = 12.
    frame = analyze_discards(EXAMPLE, "dealer")
    best = frame.iloc[0]
    assert (best["thrown"], best["rank"], best["vs_best"]) == ("JD KD", 1, 0.0)
    assert best["hand_dist"] == {12: 8, 14: 16, 16: 14, 23: 2, 24: 6}
    assert (best["hand_min"], best["hand_max"]) == (12, 24)
    assert best["hand"] == pytest.approx((12 * 8 + 14 * 16 + 16 * 14 + 23 * 2 + 24 * 6) / 46)
    assert [(h["rank"], h["points"]) for h in best["helps_most"]] == [("4", 24), ("6", 24), ("5", 23)]


@pytest.mark.parametrize(
    "preset, role", [("six-card", "pone"), ("five-card", "dealer"), ("eight-card", "pone"), ("four-hand", "eldest")]
)
def test_distribution_matches_the_reference_scorer(preset, role):
    # Every row: the starters giving each score, counted with the literal scorer, and its mean is the hand.
    rules = get_rules(preset)
    dealt = [int(c) for c in np.random.default_rng(11).choice(52, rules.cards_dealt, replace=False)]
    advice = advise(dealt, role, rules)
    pool = [c for c in range(52) if c not in dealt]
    for row in advice.rows[:6]:
        kept = parse_cards(row["kept"])
        scores = [literal.show_score(kept, s) for s in pool]
        assert row["hand_dist"] == {p: scores.count(p) for p in sorted(set(scores))}
        assert (row["hand_min"], row["hand_max"]) == (min(scores), max(scores))
        assert row["hand"] == pytest.approx(np.mean(scores), abs=1e-12)
        by_rank = {r: np.mean([p for s, p in zip(pool, scores) if s >> 2 == r]) for r in {s >> 2 for s in pool}}
        top = sorted(by_rank, key=lambda r: (-by_rank[r], r))[:3]
        assert [h["rank"] for h in row["helps_most"]] == [RANK_LABELS[r] for r in top]
        assert [h["points"] for h in row["helps_most"]] == pytest.approx([by_rank[r] for r in top])


def test_hand_distributions_table():
    frame = analyze_discards(EXAMPLE, "dealer")
    table = hand_distributions(frame)
    assert list(table.index) == list(frame["thrown"]) and (table.sum(axis=1) == 46).all()
    assert table.loc["JD KD", 24] == 6 and table.loc["JD KD", 13] == 0
    assert list(table.columns) == list(range(0, 25))


# ---------------------------------------------------------------------------- rows: suit-equivalent throws, order


def test_suit_equivalent_throws_share_a_row():
    # 5H and 5S differ only where a suit can score: laying out 5H JD or 5S JD keeps no jack and no flush
    # and throws two suits, so every figure is the same and the throws share a row.  5H 4H is one suit and
    # can make a crib flush with the starter, 5S 4H cannot: their cribs differ and so do their rows.
    frame = analyze_discards(EXAMPLE, "dealer")
    assert len(frame) == 12 and frame["throws"].sum() == 15
    shared = frame.set_index("thrown")
    assert shared.loc["5H JD", "throws"] == 2 and shared.loc["5H JD", "same_as"] == "5S JD"
    assert shared.loc["5H KD", "same_as"] == "5S KD" and shared.loc["5H 6C", "same_as"] == "5S 6C"
    assert shared.loc["5H 4H", "throws"] == 1 and shared.loc["5S 4H", "throws"] == 1
    assert shared.loc["5H 4H", "crib"] > shared.loc["5S 4H", "crib"]


@pytest.mark.parametrize(
    "preset, role",
    [
        ("six-card", "dealer"),
        ("five-card", "pone"),
        ("three-hand", "second"),
        ("four-hand", "dealer_partner"),
        ("eight-card", "dealer"),
    ],
)
def test_rows_are_exactly_the_classes_of_equal_throws(preset, role):
    # Figures of every throw computed here one by one (the kernels' expected hand and crib, the kept cards'
    # points with each starter scored afresh): two throws share a row exactly when they keep and throw the
    # same ranks and agree on all of them; listed one by one, each throw shows its own figures.
    rules = get_rules(preset)
    for seed in range(3):
        dealt = [int(c) for c in np.random.default_rng(seed).choice(52, rules.cards_dealt, replace=False)]
        hand = np.asarray(dealt, dtype=np.int64)
        masks, hand_mean, crib_mean = throw_expectations(hand, rules.throw, rules.crib_flush_four, True)
        pool = np.array([c for c in range(52) if c not in dealt])
        figures, throws = {}, {}
        for mask, h, c in zip(masks, hand_mean, crib_mean):
            kept = [x for i, x in enumerate(dealt) if not (mask >> i) & 1]
            thrown = format_cards(x for i, x in enumerate(dealt) if (mask >> i) & 1)
            points = score_shows(np.array([kept] * len(pool)), pool)
            key = (
                tuple(sorted(x >> 2 for x in kept)),
                tuple(sorted(x >> 2 for x in parse_cards(thrown))),
                c,
                tuple(np.bincount(points)),
                tuple(np.bincount(pool >> 2, weights=points, minlength=13)),
            )
            figures.setdefault(key, set()).add(thrown)
            throws[thrown] = (h, c, figures[key])

        every = analyze_discards(dealt, role, rules=preset, collapse=False)
        assert len(every) == comb(rules.cards_dealt, rules.throw) == len(throws) and (every["throws"] == 1).all()
        for _, row in every.iterrows():
            h, c, same = throws[row["thrown"]]
            assert (row["hand"], row["crib"]) == (h, c)
            assert {row["thrown"], *filter(None, row["same_as"].split(", "))} == same
        rows = analyze_discards(dealt, role, rules=preset)
        assert len(rows) == len(figures) and rows["throws"].sum() == len(throws)
        for _, row in rows.iterrows():
            assert {row["thrown"], *filter(None, row["same_as"].split(", "))} == throws[row["thrown"]][2]


@pytest.mark.parametrize(
    "preset, role, mine",
    [
        ("six-card", "dealer", True),
        ("six-card", "pone", False),
        ("five-card", "pone", False),
        ("three-hand", "dealer", True),
        ("three-hand", "second", False),
        ("three-rotation", "pone", False),
        ("four-hand", "dealer_partner", True),
        ("four-hand", "eldest_partner", False),
    ],
)
def test_sorted_best_first_ranked_and_net_sign_by_role(preset, role, mine):
    rules = get_rules(preset)
    dealt = [int(c) for c in np.random.default_rng(3).choice(52, rules.cards_dealt, replace=False)]
    frame = analyze_discards(dealt, role, rules=preset)
    assert (np.diff(frame["net"]) <= 0).all()
    assert np.allclose(frame["net"], frame["hand"] + (1 if mine else -1) * frame["crib"])
    assert (frame["vs_best"] == frame["net"] - frame["net"].max()).all() and frame["vs_best"].iloc[0] == 0
    assert list(frame["rank"]) == [1 + int((frame["net"] > v).sum()) for v in frame["net"]]
    assert frame.attrs["role"] == role and frame.attrs["sort"]["column"] == "net"
    assert frame.attrs["sort"]["key"].startswith(f"net = hand {'+' if mine else '-'} crib (exact")


def test_ties_share_a_rank():
    # Listed one by one, suit-equivalent throws tie on every figure: they share the rank of the first.
    frame = analyze_discards(EXAMPLE, "dealer", collapse=False)
    ranks = frame.set_index("thrown")["rank"]
    assert ranks["5H JD"] == ranks["5S JD"] and ranks["5H 4H"] != ranks["5S 4H"]
    assert sorted(frame["rank"].value_counts().to_dict().items())[0] == (1, 1)


def test_sort_by_hand():
    frame = analyze_discards(EXAMPLE, "pone", sort="hand")
    assert (np.diff(frame["hand"]) <= 0).all() and frame.attrs["sort"] == {"column": "hand", "key": "the expected hand"}


# ---------------------------------------------------------------------------- crib tables side by side


@pytest.mark.parametrize("role, who", [("dealer", "dealer"), ("pone", "pone")])
def test_crib_tables_side_by_side(role, who):
    # Each table's value of the thrown ranks, as published; the net adds (dealer) or subtracts (pone) it. The
    # first source, the one ranking the throws, is in crib and net; the others are named.
    frame = analyze_discards(EXAMPLE, role, crib=["schell", "exact", "hessel", "self_play"])
    sign = 1 if who == "dealer" else -1
    for source, suffix in (("schell", ""), ("hessel", "_hessel"), ("self_play", "_self_play")):
        matrix = table_matrices(reference_table(source))[who]
        for _, row in frame.iterrows():
            a, b = (RANK_LABELS.index(str(c)[:-1]) for c in row["thrown"].split())
            assert row[f"crib{suffix}"] == matrix[a, b]
            assert row[f"net{suffix}"] == pytest.approx(row["hand"] + sign * matrix[a, b])
    assert (np.diff(frame["net"]) <= 0).all() and frame.attrs["sort"]["column"] == "net"
    assert [s["name"] for s in frame.attrs["crib"]] == ["schell", "exact", "hessel", "self_play"]
    exact = analyze_discards(EXAMPLE, role).set_index("thrown")
    assert frame.set_index("thrown")["crib_exact"].to_dict() == exact["crib"].to_dict()
    assert "crib_schell" not in frame and "net_schell" not in frame
    jk = frame.set_index("thrown").loc["JD KD", "crib"]
    assert jk == (3.96 if who == "dealer" else 4.77)  # Schell's J-K entries


def test_a_single_card_thrown_takes_the_tables_row_average():
    # Three-hand throws one card: the table's row for its rank, weighted by the cards of each other rank left
    # in a pack (3 of its own rank, 4 of the others), as the expected_net policy reads a table.
    frame = analyze_discards("5H JS 2C 8D QH", "dealer", rules="three-hand", crib=["exact", "schell"])
    assert frame.attrs["crib"][0]["name"] == "exact" and "crib_exact" not in frame
    matrix = table_matrices(reference_table("schell"))["dealer"]
    for _, row in frame.iterrows():
        r = RANK_LABELS.index(row["thrown"][:-1])
        want = sum((3 if s == r else 4) * matrix[r, s] for s in range(13)) / 51
        assert row["crib_schell"] == pytest.approx(want)


# ---------------------------------------------------------------------------- sampled figures


def test_opponent_policy_random_agrees_with_exact_and_is_seeded():
    frame = analyze_discards(EXAMPLE, "pone", opponent="random", samples=4000, seed=11)
    assert (np.diff(frame["net"]) <= 0).all() and frame.attrs["sort"]["column"] == "net"
    z = (frame["crib"] - frame["crib_exact"]) / frame["crib_se"]
    assert (z.abs() < 4.5).all()  # 12 rows, seeded: a random opponent has the exact crib's mean
    again = analyze_discards(EXAMPLE, "pone", crib=["random", "exact"], samples=4000, seed=11)
    assert again["crib"].tolist() == frame["crib"].tolist()
    other = analyze_discards(EXAMPLE, "pone", opponent="random", samples=4000, seed=12)
    assert other["crib"].tolist() != frame["crib"].tolist()
    second = analyze_discards(EXAMPLE, "pone", crib=["exact", "random"], samples=4000, seed=11).set_index("thrown")
    assert second["crib_random"].to_dict() == frame.set_index("thrown")["crib"].to_dict()
    assert second["crib_random_se"].to_dict() == frame.set_index("thrown")["crib_se"].to_dict()


@pytest.mark.parametrize("preset, role", [("three-hand", "eldest"), ("four-hand", "dealer")])
def test_opponent_policy_sampling_multi_player(preset, role):
    rules = get_rules(preset)
    dealt = [int(c) for c in np.random.default_rng(5).choice(52, rules.cards_dealt, replace=False)]
    frame = analyze_discards(dealt, role, rules=preset, opponent="random", samples=3000, seed=1)
    z = (frame["crib"] - frame["crib_exact"]) / frame["crib_se"]
    assert (z.abs() < 4.5).all()


def test_a_pone_who_throws_his_worst_cards_makes_a_poorer_crib():
    # Article: the pone "lays down ... the very worst in his hand"; against random throws the
    # dealer's crib comes out lower on average over his throws (seeded, 3000 deals each).
    for pone in ("hoyle", "expected_net"):
        frame = analyze_discards(EXAMPLE, "dealer", opponent=pone, samples=3000)
        assert frame["crib"].mean() < frame["crib_exact"].mean() - 0.3, pone


def _fixed(mask):
    """A discard policy for the reference engine that throws ``mask``."""
    return lambda hand, state, rules, rng, params: mask


@pytest.mark.parametrize("preset, role", [("six-card", "pone"), ("three-hand", "eldest"), ("four-hand", "dealer")])
def test_sampled_crib_and_pegging_replay_in_the_reference_engine(preset, role):
    """The advisor's sampled deals, drawn again here from the documented streams (deck: key 0, the
    others' discards: key 1, seat s's pegging: key 2 + s; item = deal number) and played by the plain-
    Python reference engine from a stacked deck with the same throws: its crib and pegging difference
    (my side's less the other side's, per opposing side) give the advisor's means exactly.  Random
    pegging draws from the seat streams, so a stream the advisor seeds differently changes the play."""
    rules = get_rules(preset)
    dealt = [int(c) for c in np.random.default_rng(8).choice(52, rules.cards_dealt, replace=False)]
    samples, seed = 25, 3
    advice = advise(dealt, role, rules, crib=["random"], pegging="random", samples=samples, seed=seed)
    me = role_index(rules, role)
    keys = chunk_keys(seed, 0, 1, 6)[0]
    random_discard = resolve("discard", "random")
    pool = [c for c in range(52) if c not in dealt]
    crib = np.zeros(len(advice.rows))
    pegging = np.zeros(len(advice.rows))
    for i in range(samples):
        deck_rng, policy_rng = np.empty(4, np.uint64), np.empty(4, np.uint64)
        seed_state(deck_rng, keys[0], i)
        seed_state(policy_rng, keys[1], i)
        top = 0

        def draw():
            nonlocal top
            pick = top + int(randint(deck_rng, len(pool) - top))
            pool[top], pool[pick] = pool[pick], pool[top]
            top += 1
            return pool[top - 1]

        hands, masks = {}, {}
        for r in range(rules.active):
            if r != me:
                hands[r] = [draw() for _ in range(rules.cards_dealt)]
                masks[r] = int(
                    random_discard.fn(
                        np.array(hands[r], dtype=np.int64),
                        np.zeros(S_SIZE, np.int64),
                        rules.to_kernel(),
                        policy_rng,
                        random_discard.params_array(),
                    )
                )
        pack = [draw() for _ in range(rules.crib_from_pack)]
        starter = draw()
        hands[me] = dealt
        for k, row in enumerate(advice.rows):
            throw = set(parse_cards(row["thrown"]))
            masks[me] = sum(1 << j for j, c in enumerate(dealt) if c in throw)
            seat_rngs = np.empty((4, 4), np.uint64)
            for s in range(4):
                seed_state(seat_rngs[s], keys[2 + s], i)
            deck = ref.stacked_deck([hands[r] for r in range(rules.active)], starter, pack)
            deal = ref.play_deal(
                rules, 0, deck, seat_rngs, {"discard": [_fixed(masks[r]) for r in range(rules.active)], "peg": "random"}
            )
            crib[k] += deal.points(0, "crib")
            sides = {deal.side(r) for r in range(rules.active)} - {deal.side(me)}
            mine = sum(deal.points(r, "pegging") for r in range(rules.active) if deal.side(r) == deal.side(me))
            theirs = sum(deal.points(r, "pegging") for r in range(rules.active) if deal.side(r) != deal.side(me))
            pegging[k] += mine - theirs / len(sides)
    assert [row["crib"] for row in advice.rows] == pytest.approx(crib / samples, abs=1e-12)
    assert [row["pegging"] for row in advice.rows] == pytest.approx(pegging / samples, abs=1e-12)
    assert [row["total"] for row in advice.rows] == pytest.approx([row["net"] + row["pegging"] for row in advice.rows])


def test_pegging_figures_and_sort_by_total():
    advice = advise(EXAMPLE, "dealer", pegging="defensive", samples=300, seed=2, sort="total")
    totals = [row["total"] for row in advice.rows]
    assert totals == sorted(totals, reverse=True) and advice.sort == "total"
    assert all(row["pegging_se"] > 0 for row in advice.rows)
    assert advice.pegging["policy"]["name"] == "defensive"
    assert advice.pegging["others_discard"]["name"] == "expected_net"
    # The exact figures do not move when sampled ones are added.
    plain = {tuple(r["thrown"]): (r["hand"], r["crib"], r["net"]) for r in advise(EXAMPLE, "dealer").rows}
    assert all(plain[tuple(r["thrown"])] == (r["hand"], r["crib"], r["net"]) for r in advice.rows)


def test_progress_bar_only_when_asked(monkeypatch, capsys):
    from sims.core import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)
    advise(EXAMPLE, "dealer", opponent="random", samples=200, progress=True)
    assert "sampling deals" in capsys.readouterr().err
    advise(EXAMPLE, "dealer", opponent="random", samples=200, progress=False)
    assert capsys.readouterr().err == ""


# ---------------------------------------------------------------------------- bad input


@njit(DISCARD_SIG)
def _throws_nothing(hand, state, rules, rng, params):
    return 0


@njit(PEG_SIG)
def _lays_a_card_it_has_not_got(hand, played, state, rules, rng, params):
    return 7


def test_an_illegal_policy_answer_is_one_line_naming_the_policy():
    with pytest.raises(PolicyError, match=r"discard policy '_throws_nothing' \(role 1\) returned mask 0 for hand"):
        advise(EXAMPLE, "dealer", opponent=_throws_nothing, samples=10)
    with pytest.raises(PolicyError, match=r"peg policy '_lays_a_card_it_has_not_got' .* chose index 7"):
        advise(EXAMPLE, "dealer", pegging=_lays_a_card_it_has_not_got, samples=10)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"hand": "5H 5S JD 6C 4H"}, "six-card deals 6 cards"),
        ({"hand": "5H 5S JD 6C 4H 5H"}, "duplicate card 5H"),
        ({"role": "eldest_partner"}, "unknown role"),
        ({"hand": "5H 5S JD 6C 4H", "role": "pone", "rules": "three-hand"}, "unknown role 'pone'"),
        ({"opponent": "nope"}, "unknown crib source 'nope'; choose from exact, schell, hessel, self_play or a discard"),
        ({"crib": ["exact", "nobody"]}, "unknown crib source 'nobody'"),
        ({"crib": ["schell", "schell"]}, "crib source 'schell' given twice"),
        ({"crib": ["exact"], "opponent": "random"}, "not both"),
        ({"opponent": "random", "samples": 1}, "samples must be an integer from 2 to 100,000"),
        ({"opponent": "random", "samples": 10**20}, "samples must be an integer from 2 to 100,000"),
        ({"role": "eldest"}, "unknown role 'eldest' for six-card; choose from dealer, pone"),
        ({"pegging": "defensive", "seed": -1}, "seed must be an integer from 0 to"),
        ({"pegging": "nope"}, "unknown peg policy 'nope'"),
        ({"sort": "crib"}, "unknown sort 'crib'"),
        ({"sort": "total"}, "needs a pegging policy"),
    ],
)
def test_bad_input(kwargs, message):
    args = {"hand": EXAMPLE, "role": "dealer", **kwargs}
    with pytest.raises(ValueError, match=message):
        analyze_discards(**args)


def test_the_answer_carries_its_question():
    advice = advise(EXAMPLE, "pone", "six-card", crib=["exact", "hessel"])
    question = json.loads(json.dumps(advice.describe()))
    assert question["hand"] == EXAMPLE.split() and question["role"] == "pone" and question["starters"] == 46
    assert question["rules"] == get_rules("six-card").to_dict() and question["throws"] == 15
    assert [s["name"] for s in question["crib"]] == ["exact", "hessel"] and question["pegging"] is None
    assert advice.frame().attrs == advice.describe()
    rows = json.loads(json.dumps(advice.to_dict()))["rows"]
    assert rows[0]["thrown"] == ["JD", "KD"] and rows[0]["same_as"] == [] and len(rows) == 12


def test_long_sampling_says_how_long_first(capsys):
    """Sampling expected to outlast ESTIMATE_SECONDS says so in one line before the bar; shorter work says nothing."""
    from sims.cribbage import discard_sampling as sampling

    sampling.say_estimate(sampling.ESTIMATE_SECONDS / 2, 4_000)
    assert capsys.readouterr().err == ""
    sampling.say_estimate(600.0, 2_000_000)
    assert capsys.readouterr().err == (
        "sims: sampling 2,000,000 deals takes about 10 min here; a progress bar follows (Ctrl-C stops it)\n"
    )
