"""The show (issue 2, must-haves 4 and 7): fast scorer against the reference, exhaustive
enumeration against the published counts, golden cases from the seeds, invariants."""

import csv
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sims.cards import parse_card, parse_cards
from sims.core.kernel import read_only  # the hand as the greedy discard passes it: its specialisation
from sims.cribbage import literal_scoring as literal
from sims.cribbage.scoring import (
    BINOMIAL,
    PARTS,
    SHOW_TABLE,
    SLOTS,
    flush_points,
    kept_points,
    nobs_points,
    score_show,
    score_shows,
    show_breakdown,
    show_distribution,
    show_points,
    starter_shows,
)
from sims.cribbage.tables import BASE, RANK_TABLE

N_SHOWS = 12_994_800  # C(52, 4) hands x 48 starters
COUNTS_CSV = Path(__file__).resolve().parents[2] / "data" / "reference" / "hand_score_counts.csv"
# score_shows is a parallel kernel (4-5 s to compile): the tests that call it, here and in test_discards.py, run on
# one pytest-xdist worker (--dist loadgroup deals other tests out one at a time, to both workers).
SCORE_SHOWS_WORKER = pytest.mark.xdist_group("score_shows")


def random_shows(seed, n, k):
    """``n`` random deals of ``k`` hand cards and a starter, all distinct."""
    deals = np.argsort(np.random.default_rng(seed).random((n, 52)), axis=1)[:, : k + 1]
    return np.ascontiguousarray(deals[:, :k]), np.ascontiguousarray(deals[:, k])


def show_facts(hand, starter):
    """Everything a show's score depends on: the rank multiset of all cards shown (fifteens,
    pairs, runs), whether the hand is one suit and the starter matches it (flush), nobs."""
    flush = len({c & 3 for c in hand}) == 1
    return (
        tuple(sorted(c >> 2 for c in hand + [starter])),
        flush,
        flush and (starter & 3) == (hand[0] & 3),
        any(c >> 2 == 10 and (c & 3) == (starter & 3) for c in hand),
    )


# -- (a) fast scorer against the slow reference: 100,000 random shows in total --------------------

# (hand size, crib, crib_flush_four, number of shows); the six-card hands (eight-card game) are the
# reference's slowest case, so they get fewer shows.
FAST_VS_REFERENCE = [
    (3, False, False, 20_000),
    (4, False, False, 40_000),
    (4, True, False, 20_000),
    (4, True, True, 15_000),
    (6, False, False, 5_000),
]
assert sum(case[-1] for case in FAST_VS_REFERENCE) >= 100_000


@SCORE_SHOWS_WORKER
@pytest.mark.parametrize("k, crib, crib_flush_four, n", FAST_VS_REFERENCE)
def test_fast_scorer_matches_reference(k, crib, crib_flush_four, n):
    """Every show is scored by ``score_shows``; the reference is called once per distinct
    :func:`show_facts` (shows with equal facts score alike by the rules), so this stays quick."""
    hands, starters = random_shows(1000 + k + 10 * crib + 20 * crib_flush_four, n, k)
    fast = score_shows(hands, starters, crib, crib_flush_four)
    memo = {}
    for hand, starter, points in zip(hands.tolist(), starters.tolist(), fast.tolist()):
        key = show_facts(hand, starter)
        if key not in memo:
            memo[key] = literal.show_score(hand, starter, crib, crib_flush_four)
        assert points == memo[key], (hand, starter, crib, crib_flush_four)
    assert len(memo) > n // 10  # the reference really saw thousands of different shows


def test_show_table_holds_rank_table_for_every_order_of_the_slots():
    """SHOW_TABLE at the sorted slots' combinatorial index equals RANK_TABLE for all 14**5 slot sequences (every
    order of every multiset of ranks, EMPTY among them); each multiset has its own index."""
    index = np.arange(BASE**SLOTS)
    slots = np.sort(np.stack([index // BASE ** (SLOTS - 1 - i) % BASE for i in range(SLOTS)], axis=1), axis=1)
    at = sum(BINOMIAL[slots[:, i] + i, i + 1] for i in range(SLOTS))
    assert SHOW_TABLE.shape == (comb(BASE + SLOTS - 1, SLOTS),)
    assert np.array_equal(SHOW_TABLE[at], RANK_TABLE)
    assert len(np.unique(at)) == SHOW_TABLE.shape[0]


@pytest.mark.parametrize("k", [3, 4, 6])
def test_scalar_scorer_and_discard_shows_match_reference(k):
    """``score_show`` and the kernel without a starter (``-1``, used while discarding)."""
    hands, starters = random_shows(7 + k, 300, k)
    for hand, starter in zip(hands.tolist(), starters.tolist()):
        for crib in (False, True) if k == 4 else (False,):
            assert score_show(hand, starter, crib) == literal.show_score(hand, starter, crib)
        arr = np.asarray(hand, dtype=np.int64)
        assert show_points(arr, k, -1, False, False) == literal.show_score(hand, None)


@pytest.mark.parametrize("k", [3, 4, 6])
def test_a_hand_shown_with_every_starter_scores_as_the_reference_scores_each(k):
    """``starter_shows`` (the position-aware discard's shows, each starter rank's fifteens, pairs and runs and
    each suit's flush and nobs found once) against the reference, starter by starter, on 200 random hands of
    the five-, six- and eight-card games with every card they leave as the starter; hands of one suit and
    hands with a knave among them, so that flushes and nobs are met."""
    hands, _ = random_shows(60 + k, 200, k)
    hands[:20] = [sorted(np.random.default_rng(k + i).choice(13, k, replace=False) * 4 + i % 4) for i in range(20)]
    parts = np.empty(PARTS, dtype=np.int64)
    for hand in hands:
        starters = np.array([c for c in range(52) if c not in hand], dtype=np.int64)
        out = np.full(starters.shape[0], -1, dtype=np.int64)
        starter_shows(hand, k, starters, parts, out)
        expected = [literal.show_score(hand.tolist(), int(s)) for s in starters]
        assert out.tolist() == expected, hand.tolist()
    assert all(literal.show_score(h.tolist(), None) >= k for h in hands[:20])  # flushes were met
    assert sum(bool((h >> 2 == 10).any()) for h in hands) >= 20  # and knaves, for nobs


@pytest.mark.parametrize("dealt, throw", [(5, 1), (5, 2), (6, 2), (8, 2), (5, 0)])
def test_kept_points_is_the_show_of_the_cards_kept(dealt, throw):
    """The greedy discard's inner loop: every throw of 400 random hands scores as the reference scores the
    cards it keeps without a starter (kept hands of 3, 4, 5 and 6 cards)."""
    hands, _ = random_shows(40 + dealt + throw, 400, dealt)
    for hand in hands:
        for thrown in combinations(range(dealt), throw):
            mask = sum(1 << i for i in thrown)
            kept = [int(c) for i, c in enumerate(hand) if i not in thrown]
            assert kept_points(read_only(hand), mask) == literal.show_score(kept, None), (hand.tolist(), thrown)


def test_score_shows_rejects_bad_arrays():
    with pytest.raises(ValueError, match="n x k"):
        score_shows(np.zeros(4, dtype=np.int64), np.zeros(1, dtype=np.int64))
    with pytest.raises(ValueError, match="0..51"):
        score_shows(np.array([[0, 1, 2, 52]]), np.array([3]))


@pytest.mark.parametrize(
    "hand, starter, crib, message",
    [
        ("5H 5C 5S JD 2C", "5D", False, "3 or 4 or 6 cards, got 5"),
        ("5H 5C 5S JD 2C 3C 4C", "5D", False, "got 7"),
        ("5H 5C 5S", "5D", True, "a crib has 4 cards, got 3"),
        ("5H 5C 5S JD", "5H", False, "duplicate card 5H"),
        ("5H 5C 5S JD", None, False, "starter"),
        ("5H 5X 5S JD", "5D", False, "'5X'"),
    ],
)
def test_score_show_bad_input(hand, starter, crib, message):
    with pytest.raises(ValueError, match=message):
        score_show(hand, starter, crib)


# -- (b) exhaustive enumeration of all 12,994,800 shows ------------------------------------------


def published_hand_counts():
    """The published hand-score counts (Lumetta; Wikipedia 'Cribbage statistics')."""
    with COUNTS_CSV.open() as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {int(r["score"]): int(r["hand_count"]) for r in rows}


def test_reference_file_keeps_its_source():
    head = COUNTS_CSV.read_text().splitlines()[:2]
    assert head[0].startswith("#") and "Source:" in head[1] and "Lumetta" in head[1]


@pytest.fixture(scope="module")
def hand_hist():
    return show_distribution(crib=False)


def test_hand_distribution_matches_published_counts(hand_hist):
    published = published_hand_counts()
    assert sum(published.values()) == N_SHOWS
    assert {s: int(c) for s, c in enumerate(hand_hist) if c or s in published} == published


def test_hand_distribution_total_mean_and_impossible_scores(hand_hist):
    assert hand_hist.sum() == N_SHOWS == comb(52, 4) * 48
    mean = (hand_hist * np.arange(len(hand_hist))).sum() / N_SHOWS
    assert round(mean, 4) == 4.7692
    for impossible in (19, 25, 26, 27):
        assert hand_hist[impossible] == 0
    assert hand_hist[29] == 4 and hand_hist[28] == 76 and hand_hist[30:].sum() == 0


def four_card_flushes_with_odd_starter():
    """Every four-card one-suit hand with a starter of another suit: 2,860 x 39 = 111,540 shows."""
    hands, starters = [], []
    for suit in range(4):
        for ranks in combinations(range(13), 4):
            hand = [r * 4 + suit for r in ranks]
            for starter in range(52):
                if starter & 3 != suit:
                    hands.append(hand)
                    starters.append(starter)
    return np.array(hands, dtype=np.int64), np.array(starters, dtype=np.int64)


def test_crib_distribution_loses_exactly_the_four_card_flushes(hand_hist):
    """Mottoes: "for a flush in the crib, the turned-up card must be of the same suit"."""
    crib_hist = show_distribution(crib=True)
    assert crib_hist.sum() == N_SHOWS
    hands, starters = four_card_flushes_with_odd_starter()
    assert len(hands) == 4 * comb(13, 4) * 39 == 111_540
    as_hand = score_shows(hands, starters)
    assert np.array_equal(score_shows(hands, starters, crib=True), as_hand - 4)
    expected = (
        hand_hist - np.bincount(as_hand, minlength=len(hand_hist)) + np.bincount(as_hand - 4, minlength=len(hand_hist))
    )
    assert np.array_equal(crib_hist, expected)
    points = np.arange(len(hand_hist))
    assert (hand_hist * points).sum() - (crib_hist * points).sum() == 4 * 111_540
    # the period option that allows a four-card crib flush makes the crib score like a hand
    assert np.array_equal(show_distribution(crib=True, crib_flush_four=True), hand_hist)


# -- (c) golden cases named after the seed clauses -----------------------------------------------


def breakdown(hand, starter, crib=False, crib_flush_four=False):
    result = show_breakdown(hand, starter, crib, crib_flush_four)
    assert result["total"] == score_show(hand, starter, crib, crib_flush_four)
    return result


def nonzero(components):
    return {name: points for name, points in components.items() if points}


def test_article_a_nine_and_two_sixes_makes_six():
    """Article (five-card game, three cards kept): "a nine and two sixes, that makes six; because
    there is two fifteens, and a pair" -- with a starter (a king) that adds nothing, and in hand
    alone (the kernel's starter -1)."""
    hand = "9H 6C 6D"
    assert nonzero(breakdown(hand, "KS")["components"]) == {"fifteens": 4, "pairs": 2}
    assert show_points(np.array(parse_cards(hand), dtype=np.int64), 3, -1, False, False) == 6


def test_article_and_if_a_six_chance_to_be_turned_up_twelve():
    """Article: "then you have twelve in your hand, viz. the pair royal, and three fifteens"."""
    result = breakdown("9H 6C 6D", "6S")
    assert result["total"] == 12
    assert nonzero(result["components"]) == {"pairs": 6, "fifteens": 6}


def test_article_sequences_of_four_five_and_six_with_six_turned_up():
    """Article: "the sequences in your hand make three; and the sequences of the four and five in
    your hand, added to the six turned up, make other three: there is likewise two fifteens,
    counting first with the six in your hand, and then with that turned up" = 3 + 3 + 2 + 2 = 10.
    The clause does not mention the pair of sixes, which the same seed counts two ("a pair is also
    two"), so the show is 12: runs 6, fifteens 4 (4+5+6 twice), pair 2."""
    result = breakdown("4H 5C 6D", "6S")
    assert nonzero(result["components"]) == {"runs": 6, "fifteens": 4, "pairs": 2}
    assert result["total"] == 12
    runs = sorted(cards for kind, cards, _ in result["items"] if kind == "runs")
    assert runs == sorted([tuple(parse_cards("4H 5C 6D")), tuple(parse_cards("4H 5C 6S"))])


def test_five_five_five_jack_with_a_five_turned_is_29():
    """The highest show: 5-5-5-J with the fourth five turned and the jack of its suit (nobs)."""
    result = breakdown("5H 5C 5S JD", "5D")
    assert result["total"] == 29
    assert result["components"] == {"fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1}
    items = result["items"]
    fifteens = [set(cards) for kind, cards, _ in items if kind == "fifteens"]
    five = {parse_card(t) for t in ("5H", "5C", "5S", "5D")}
    jack = parse_card("JD")
    assert sorted(map(len, fifteens)) == [2, 2, 2, 2, 3, 3, 3, 3]
    assert {frozenset(f) for f in fifteens if len(f) == 2} == {frozenset({f, jack}) for f in five}
    assert len([i for i in items if i[0] == "pairs"]) == 6
    assert [cards for kind, cards, _ in items if kind == "nobs"] == [(jack,)]
    assert score_show("5H 5C 5S JH", "5D") == 28  # no nobs: the jack is not of the starter's suit


@pytest.mark.parametrize(
    "hand, starter, crib, crib_flush_four, flush",
    [
        ("AH 3H 7H QH", "KS", False, False, 4),  # Mottoes: "as many points as there are cards"
        ("AH 3H 7H QH", "KH", False, False, 5),
        ("AH 3H 7H QH", "KS", True, False, 0),  # Mottoes: in the crib the turned-up card must match
        ("AH 3H 7H QH", "KH", True, False, 5),
        ("AH 3H 7H QH", "KS", True, True, 4),  # period option: four-card crib flush allowed
        ("AH 3H 7H", "KS", False, False, 3),  # five-card game: three cards kept
        ("AH 3H 7H", "KH", False, False, 4),
        ("AH 3H 7H QH 9H 8H", "KS", False, False, 6),  # eight-card game: six cards kept
        ("AH 3H 7H QH 9H 8H", "KH", False, False, 7),
        ("AH 3H 7H QC", "KH", False, False, 0),
    ],
)
def test_mottoes_flush(hand, starter, crib, crib_flush_four, flush):
    components = breakdown(hand, starter, crib, crib_flush_four)["components"]
    assert components["flush"] == flush
    arr = np.array(parse_cards(hand), dtype=np.int64)
    assert flush_points(arr, len(arr), parse_card(starter), crib, crib_flush_four) == flush


@pytest.mark.parametrize(
    "hand, starter, nobs",
    [
        ("JH 2C 4D 6S", "8H", 1),  # Mottoes: "the knave of the suit turned up reckons for one point"
        ("JH 2C 4D 6S", "8C", 0),
        ("JH JC 4D 6S", "8C", 1),
        ("2C 4D 6S 8D", "JH", 0),  # a knave turned up is his heels: 2 to the dealer, scored by the engine
    ],
)
def test_mottoes_nobs(hand, starter, nobs):
    assert breakdown(hand, starter)["components"]["nobs"] == nobs
    assert breakdown(hand, starter, crib=True)["components"]["nobs"] == nobs
    arr = np.array(parse_cards(hand), dtype=np.int64)
    assert nobs_points(arr, 4, parse_card(starter)) == nobs


@pytest.mark.parametrize(
    "hand, starter, total, components",
    [
        ("2C 5D 8S 9H", "KC", 4, {"fifteens": 4}),  # Mottoes: "a two, a five, and an eight"
        ("6C 6D 3S KH", "AC", 4, {"fifteens": 2, "pairs": 2}),  # Mottoes: "two sixes and a three"
        ("7C 7D 8S 9H", "KC", 12, {"fifteens": 4, "pairs": 2, "runs": 6}),  # double run
        ("7C 7D 8S 8H", "9C", 24, {"fifteens": 8, "pairs": 4, "runs": 12}),  # double-double run
        ("7C 7D 7S 8H", "9C", 21, {"fifteens": 6, "pairs": 6, "runs": 9}),  # triple run
        ("AC 2D 3S 4H", "5C", 7, {"fifteens": 2, "runs": 5}),
    ],
)
def test_hand_counted(hand, starter, total, components):
    result = breakdown(hand, starter)
    assert result["total"] == total and nonzero(result["components"]) == components


# -- (d) invariants (hypothesis) -----------------------------------------------------------------

shows = st.sampled_from([3, 4, 6]).flatmap(
    lambda k: st.lists(st.integers(0, 51), min_size=k + 1, max_size=k + 1, unique=True)
)


def split(cards):
    return cards[:-1], cards[-1]


@settings(max_examples=300, deadline=None)
@given(shows, st.permutations(range(4)), st.booleans())
def test_suit_relabelling_never_changes_a_score(cards, perm, crib):
    crib = crib and len(cards) == 5
    hand, starter = split(cards)
    relabel = [(c & ~3) | perm[c & 3] for c in cards]
    assert score_show(*split(relabel), crib) == score_show(hand, starter, crib)


@settings(max_examples=300, deadline=None)
@given(shows.flatmap(lambda c: st.tuples(st.just(c), st.permutations(c[:-1]))), st.booleans())
def test_reordering_the_hand_never_changes_a_score(cards_and_order, crib):
    cards, order = cards_and_order
    crib = crib and len(cards) == 5
    hand, starter = split(cards)
    assert score_show(list(order), starter, crib) == score_show(hand, starter, crib)


@settings(max_examples=300, deadline=None)
@given(shows, st.randoms(use_true_random=False))
def test_score_without_flush_and_nobs_depends_only_on_ranks(cards, rnd):
    """Deal the same ranks in other suits: fifteens + pairs + runs stay the same."""
    ranks = [c >> 2 for c in cards]
    suits_left = {r: rnd.sample(range(4), 4) for r in set(ranks)}
    other = [r * 4 + suits_left[r].pop() for r in ranks]

    def rank_part(cards):
        hand, starter = split(cards)
        arr = np.array(hand, dtype=np.int64)
        return (
            score_show(hand, starter)
            - flush_points(arr, len(hand), starter, False, False)
            - nobs_points(arr, len(hand), starter)
        )

    assert rank_part(other) == rank_part(cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True))
def test_crib_never_outscores_the_same_cards_as_hand(cards):
    hand, starter = split(cards)
    as_hand = score_show(hand, starter)
    assert score_show(hand, starter, crib=True) <= as_hand
    assert score_show(hand, starter, crib=True, crib_flush_four=True) == as_hand
