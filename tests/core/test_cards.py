"""Card ids, parsing and formatting (issue 2, must-have 3)."""

import numpy as np
import pytest

from sims.cards import check_disjoint, format_card, format_cards, parse_card, parse_cards, rank_of, suit_of, value_of

FIVE_OF_HEARTS = 4 * 4 + 2  # rank 4 (five), suit 2 (hearts)


@pytest.mark.parametrize("token", ["5H", "5h", "5♥", "5♡", " 5H "])
def test_five_of_hearts_spellings(token):
    assert parse_card(token) == FIVE_OF_HEARTS


@pytest.mark.parametrize("token", ["10h", "10H", "TH", "th", "T♥"])
def test_ten_of_hearts_spellings(token):
    assert parse_card(token) == 9 * 4 + 2


@pytest.mark.parametrize(
    "token, card",
    [("AS", 3), ("as", 3), ("1S", 3), ("AC", 0), ("KS", 51), ("JD", 10 * 4 + 1), ("Q♣", 11 * 4), ("2♦", 5)],
)
def test_card_ids(token, card):
    assert parse_card(token) == card


def test_rank_suit_value():
    assert [rank_of(c) for c in (0, 3, 51)] == [0, 0, 12]
    assert [suit_of(c) for c in (0, 1, 2, 3)] == [0, 1, 2, 3]
    assert [value_of(parse_card(t)) for t in ("AS", "5H", "10D", "JC", "QH", "KS")] == [1, 5, 10, 10, 10, 10]


@pytest.mark.parametrize(
    "cards",
    [
        "5H 5C 5S JD",
        "5H,5C,5S,JD",
        "5H, 5C, 5S, JD",
        " 5h  5c,5s jd ",
        ["5H", "5C", "5S", "JD"],
        ("5♥", "5♣", "5♠", "J♦"),
        [18, 16, 19, 41],
    ],
)
def test_parse_lists_and_strings(cards):
    assert parse_cards(cards) == [18, 16, 19, 41]


def test_numpy_ids_accepted():
    assert parse_cards(np.array([0, 51], dtype=np.int64)) == [0, 51]


def test_format_uses_ten_as_the_books_write_it():
    assert format_card(36) == "10C"
    assert format_cards([18, 16, 19, 41]) == "5H 5C 5S JD"


def test_round_trip_every_card():
    deck = list(range(52))
    assert parse_cards(format_cards(deck)) == deck
    assert [parse_card(format_card(c)) for c in deck] == deck
    assert len({format_card(c) for c in deck}) == 52


@pytest.mark.parametrize(
    "text, bad", [("5X", "5X"), ("5H 5X", "5X"), ("ZH", "ZH"), ("11H", "11H"), ("5", "5"), ("H", "H"), ("5H ♥5", "♥5")]
)
def test_bad_token_is_named(text, bad):
    with pytest.raises(ValueError, match=f"'{bad}'"):
        parse_cards(text)


@pytest.mark.parametrize("ids", [[52], [-1]])
def test_bad_id_is_named(ids):
    with pytest.raises(ValueError, match=str(ids[0])):
        parse_cards(ids)


@pytest.mark.parametrize("text", ["5H 5C 5H", "5H 5h", "10H TH", "5♥ 5H"])
def test_duplicates_are_named(text):
    with pytest.raises(ValueError, match="duplicate card 5H|duplicate card 10H"):
        parse_cards(text)


def test_wrong_counts():
    assert parse_cards("5H 5C 5S JD", n=4) == [18, 16, 19, 41]
    assert parse_cards("5H 5C 5S", n=(3, 4, 6)) == [18, 16, 19]
    with pytest.raises(ValueError, match="expected 4 cards, got 5"):
        parse_cards("5H 5C 5S JD 5D", n=4)
    with pytest.raises(ValueError, match="expected 3 or 4 or 6 cards, got 5"):
        parse_cards("5H 5C 5S JD 5D", n=(3, 4, 6))
    with pytest.raises(ValueError, match="expected 1 cards, got 0"):
        parse_cards("", n=1)


def test_check_disjoint():
    check_disjoint([0, 1], [2])
    with pytest.raises(ValueError, match="duplicate card 5H"):
        check_disjoint(parse_cards("5H 5C 5S JD"), parse_cards("5D 5H"))


def test_the_kth_card_of_a_set_is_its_kth_set_bit_lowest_first():
    from sims.core.masks import nth_bit

    mask = 0b1011_0010_0000_0001_0100
    positions = [i for i in range(mask.bit_length()) if (mask >> i) & 1]
    assert [nth_bit(mask, k) for k in range(len(positions))] == positions == [2, 4, 13, 16, 17, 19]
