"""Readable choices and the engine's answers (each situation's ``answer`` and ``choice_of``): every legal
choice round-trips, and a malformed or illegal choice is a one-line ValueError."""

from itertools import combinations

import pytest

from sims.allfours.situation import AnswerSituation, BegSituation, PlaySituation
from sims.cards import format_cards
from sims.cribbage.situation import DiscardSituation, PegSituation
from sims.loo.situation import CardSituation, DeclareSituation, ExchangeSituation

PEG = PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C", thrown="QD 3C")
THROW = DiscardSituation("5H 5S JD 6C 4H KD", "dealer")
BEG = BegSituation("JH 2H AS 10C 7D 9S", "5H")
ANSWER = AnswerSituation("QH 4H KS 8C 3D 6S", "5H")
PLAY = PlaySituation("QH 4H KS 8C 3D", "5H", played="AS 6S 10C", role="dealer")
DECLARE = DeclareSituation("QH 5H 2S", "9H", role=4, declared="play miss pass", carry=6)  # the miss is taken
EXCHANGE = ExchangeSituation("QH 5H 2S 7C 9D", "9H", role=1, rules="five-card-pam", carry=5)
CARD = CardSituation("QH 5H 2S", "9H", role=4, declared="play pass pass play pass", carry=6, played="KH")


def test_every_throw_round_trips_in_any_order():
    for thrown in combinations(THROW.hand, 2):
        mask = THROW.answer(format_cards(reversed(thrown)))
        assert mask.bit_count() == 2 and THROW.choice_of(mask) == format_cards(thrown)


@pytest.mark.parametrize("situation", [PEG, BEG, ANSWER, PLAY, DECLARE, EXCHANGE, CARD], ids=lambda s: s.DECISION)
def test_every_legal_choice_round_trips(situation):
    from sims.cards import format_card

    labels = [c if isinstance(c, str) else format_card(c) for c in situation.legal()]
    answers = [situation.answer(label) for label in labels]
    assert len(set(answers)) == len(labels) > 1
    assert [situation.choice_of(a) for a in answers] == labels


def test_words_ignore_case_and_spaces_and_cards_their_spelling():
    assert BEG.answer(" Beg ") == 1 and ANSWER.answer("GIVE") == 1 and ANSWER.answer("Run") == 0
    assert DECLARE.answer("stand") == DECLARE.answer("play")
    untaken = DeclareSituation("QH 5H 2S", "9H", role=4, declared="play pass pass", carry=6)
    assert untaken.answer(" Take the miss") == untaken.answer("miss") == 2
    assert PEG.answer("5♦") == PEG.answer("5d") == PEG.answer("5D")
    assert EXCHANGE.answer("-") == 0 and EXCHANGE.answer("9d,qh") == EXCHANGE.answer("QH 9D") == 0b10001


@pytest.mark.parametrize(
    "situation, choice, message",
    [
        (PEG, "KH", "KH is not a legal peg here: 7H 8C 5D"),
        (PEG, "7H 8C", "a peg is one card, got '7H 8C'"),
        (PEG, "ZZ", "'ZZ' is not a peg choice: bad card 'ZZ'"),
        (PEG, 5, "a peg choice is readable cards"),
        (THROW, "5H", "six-card players lay out 2 cards for the crib, got '5H'"),
        (THROW, "5H 5H", "'5H 5H' is not a discard choice: duplicate card 5H"),
        (THROW, "5H 2C", "'5H 2C' is not a discard here"),
        (BEG, "run", "a beg here is stand or beg, got 'run'"),
        (PLAY, "KS", "KS is not a legal play here: QH 4H 8C (law iii"),  # 10C led: clubs or trumps
        (DECLARE, "miss", "a declaration here is pass or play, got 'miss'"),
        (CARD, "2S", "2S is not a legal card here: QH 5H"),
        (EXCHANGE, "QH 2C", "'QH 2C' is not an exchange here: name cards of QH 5H 2S 7C 9D"),
    ],
)
def test_illegal_or_malformed_choices_are_one_line_errors(situation, choice, message):
    with pytest.raises(ValueError) as err:
        situation.answer(choice)
    assert message in str(err.value) and "\n" not in str(err.value)
