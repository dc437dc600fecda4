"""The worked example's own parts, values computed by hand from its rules (docs/examples/triumph: the highest
trump takes the trick, else the highest card of the suit led, aces high)."""
from __future__ import annotations

import pytest

pytest.importorskip("triumph")

from triumph.advice import advise  # noqa: E402
from triumph.record import CardSituation  # noqa: E402

from sims.cards import parse_card  # noqa: E402


def situation(**facts):
    return CardSituation(rules="two-hand", **facts)


# Four tricks of two-hand played, no heart among them; hearts are trumps (2H turned): the last trick.
PLAYED = "KS 3S QC 4C JD 5D 10C 6C"


def test_leading_the_last_card_takes_the_trick_unless_the_other_holds_a_trump():
    """Unseen: 52 - AS - 8 played - 2H = 42 cards, 12 of them hearts: AS wins the trick 30 times in 42."""
    frame = advise(situation(hand="- - - - AS", turned="2H", played=PLAYED))
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == 42
    assert frame.loc[0, "choice"] == "AS" and frame.loc[0, "value"] == pytest.approx(30 / 42, abs=1e-12)
    assert frame.loc[0, "se"] == 0


def test_following_with_a_trump_in_hand_the_suit_led_must_be_followed():
    """Seat 1 follows the 9S led, holding 7S: only 7S may be played, and it cannot take the trick."""
    s = situation(hand="- - - - 7S", turned="2H", played=PLAYED + " 9S", seat=1)
    assert [c for c in s.legal()] == [parse_card("7S")]
    frame = advise(s)
    assert frame.attrs["method"] == "exact" and list(frame["value"]) == [0.0]


@pytest.mark.parametrize("facts, words", [
    (dict(hand="AS QS", turned="2H", played=PLAYED), "a player holds 1 cards, not 2"),
    (dict(hand="- - - - AS", turned="AS", played=PLAYED), "a card is given twice"),
    (dict(hand="- - - - AS", turned="2H", played=PLAYED, seat=2), "seat must be 0..1"),
])
def test_an_impossible_situation_is_one_line(facts, words):
    with pytest.raises(ValueError, match=words):
        situation(**facts)
