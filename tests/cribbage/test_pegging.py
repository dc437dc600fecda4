"""The play (issue 2, must-have 5): what the card just laid scores."""

import numpy as np
import pytest

from sims.cards import parse_cards
from sims.cribbage import literal_scoring as literal
from sims.cribbage.pegging import card_value, peg_points, peg_points_kernel, points_if_laid


def test_mottoes_ace_five_three_two_four():
    """Mottoes: "your adversary playing an ace, you a five, he a three, you a two, then he a
    four -- he counts five for the sequence"; the count is then fifteen, two more."""
    cards = "AS 5H 3D 2C 4S"
    assert literal.peg_items(parse_cards(cards)) == [("fifteen", 2), ("run of 5", 5)]
    assert peg_points(cards) == 7
    assert [peg_points(cards.split()[:i]) for i in range(1, 6)] == [0, 0, 0, 0, 7]


def test_mottoes_pairs_royal_in_play_seven_seven_seven():
    """Mottoes: a seven and another "entitles you to score two points"; a third seven, "he marks
    six"; "your playing a fourth is a double pair-royal, and entitles you to twelve points"."""
    sevens = ["7H", "7C", "7D", "7S"]
    assert [peg_points(sevens[:i]) for i in range(1, 5)] == [0, 2, 6, 12]


def test_a_pair_needs_consecutive_cards():
    assert peg_points("7H 8C 7D") == 0
    assert peg_points("7H 7C 8D 8S") == 2
    assert peg_points("QH KH") == 0  # a king does not pair a queen


@pytest.mark.parametrize(
    "cards, points",
    [
        ("KH 5C", 2),  # fifteen
        ("KH QC JD AS", 2),  # thirty-one
        ("KH QC 5D AS", 0),  # 26: nothing
        ("KH QC 6D 5S", 2),  # thirty-one
        ("5H 5C 5D KS 6S", 2),  # thirty-one by the six, nothing more
        ("KH KC KD AS", 2),  # thirty-one
        ("5C JH 8D 8S", 4),  # thirty-one and a pair
        ("KH QD 6C 3H 2S", 2),  # thirty-one with no run (3, 2 and 6 are not a sequence)
        ("8H 7C", 2),  # fifteen
        ("9H 9C 9D 4S", 2),  # 31
        ("TH 5C KD AS", 0),
    ],
)
def test_fifteen_and_thirty_one(cards, points):
    assert peg_points(cards) == points


def test_fifteen_and_pairs_combine():
    assert peg_points("AC 7H 7S") == 2 + 2  # fifteen and a pair
    assert peg_points("5H 5S 5D") == 2 + 6  # fifteen and a pair-royal
    assert peg_points("5H KC 5S 5D") == 2  # 25: a pair (the king parts the first five)


def test_count_past_thirty_one_raises():
    with pytest.raises(ValueError, match="past thirty-one"):
        peg_points("KH QC JD 2S")
    with pytest.raises(ValueError, match="no cards"):
        peg_points("")
    with pytest.raises(ValueError, match="'5X'"):
        peg_points("5X")


@pytest.mark.parametrize(
    "cards, points",
    [
        ("3H 4C 5D", 3),
        ("5H 3C 4D", 3),
        ("4H 5C 3D", 3),  # a run in any order
        ("6H 3C 5D 4S", 4),
        ("2C 6H 3C 5D 4S", 5),  # longest run of the last cards
        ("AH 3C 2D", 3),
        ("JH QC KD", 3),
        ("QH KC AD", 0),  # ace is low: no K-A wrap
        ("3H 4C 4D 5S", 0),  # a pair breaks the run
        ("3H 4C 5D 5S", 2),  # pair, no run (5 repeats)
        ("3H 4C 5D 5S 6C", 0),  # last four hold a pair; last 3 no run
        ("3H 4C 5D 6S 4D", 3),  # 4 repeats: only the last three run
        ("2H 3C 4D 3S", 0),
        ("2H 3C 4D 3S 5C", 3),
        ("2H 3C 4D 9S 5C", 0),  # the nine breaks it
        ("4H 2C 3D 5S 6C 7S", 6 + 0),  # run of six, count 27
    ],
)
def test_runs(cards, points):
    assert peg_points(cards) == points


@pytest.mark.parametrize(
    "cards, plain, bath",
    [
        ("2H 4H 6H", 0, 3),  # Rules of Cribbage, rule 11: "the party playing the third scores three"
        ("2H 4H 6H 8H", 0, 4),  # "if the adversary play a fourth of the same suit ... four"
        ("2H 4H 6H 8H TH", 0, 5),  # count 30
        ("AH 2H 3H", 3, 6),  # a run and a flush both score
        ("2H 4C 6H 8H", 0, 0),  # the clubs break the succession
        ("2C 4H 6H 8H", 0, 3),
        ("2H 4H", 0, 0),
    ],
)
def test_bath_flush(cards, plain, bath):
    assert peg_points(cards) == plain
    assert peg_points(cards, bath=True) == bath


def random_counts(seed, n):
    """``n`` random legal counts: cards dealt one by one until the next would pass thirty-one."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        deck = rng.permutation(52)
        # small decks of few ranks make pairs, runs and flushes common
        if rng.random() < 0.5:
            deck = deck[(deck >> 2) < rng.integers(4, 9)]
        cards, count = [], 0
        for card in deck.tolist():
            if count + card_value(card) > 31:
                break
            cards.append(card)
            count += card_value(card)
        yield cards


@pytest.mark.parametrize("bath", [False, True])
def test_kernel_matches_reference_on_random_plays(bath):
    checked = scored = 0
    for cards in random_counts(11 + bath, 4000):
        seq = np.array([-1, -1] + cards + [-1], dtype=np.int64)  # a window into a longer record
        for end in range(1, len(cards) + 1):
            expected = literal.peg_score(cards[:end], bath)
            assert peg_points_kernel(seq, 2, 2 + end, bath) == expected, (cards[:end], bath)
            # the same card weighed without being laid: the slot after the count is not read
            seq[2 + end - 1], last = -9, seq[2 + end - 1]
            assert points_if_laid(seq, 2, 2 + end - 1, last, bath) == expected, (cards[:end], bath)
            seq[2 + end - 1] = last
            if end >= 2:
                start = end // 2  # a later count starting mid-record
                assert peg_points_kernel(seq, 2 + start, 2 + end, bath) == literal.peg_score(cards[start:end], bath)
            checked += 1
            scored += expected > 0
    assert checked > 20_000 and scored > 4_000
