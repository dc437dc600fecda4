"""The terminal seat alone (:mod:`sims.core.duel`), on situations built by hand: what it shows, how it reads an
answer, a hint, and what it tells of the other players' decisions (whole games: tests/cli/test_duel.py)."""
from __future__ import annotations

import pytest

from sims.allfours.duel import View as AllFoursView
from sims.allfours.situation import BegSituation, PlaySituation
from sims.core.duel import Quit, TerminalSeat, match
from sims.cribbage.duel import View as CribbageView
from sims.cribbage.situation import DiscardSituation, PegSituation
from sims.loo.duel import View as LooView
from sims.loo.situation import CardSituation, ExchangeSituation


def names(seat):
    return "you" if seat == 0 else f"seat {seat}"


def seat_with(view, answers, seat=0):
    """A seat reading ``answers`` in turn (then the end of the input), and the lines it wrote."""
    out, answers = [], iter(answers)

    def write(text, end="\n"):
        out.append(text + end)

    return TerminalSeat(view, seat, read=lambda: next(answers, None), write=write, echo=True), out


# The dealer (seat 0) to lay, the pone having led KS, 5H after the dealer's 2S: count 17.
PEG = PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C", thrown="QD 3C", score=(12, 20),
                   rules="six-card-61")


def test_match_reads_cards_in_any_spelling_and_order_and_words():
    labels = ["4S 10H", "4S 5D", "pass", "take the miss", "-"]
    assert match("10h 4s", labels) == "4S 10H"
    assert match("TH,4♠", labels) == "4S 10H"
    assert match(" PASS ", labels) == "pass"
    assert match("miss", labels, {"miss": "take the miss"}) == "take the miss"
    assert match("none", labels, {"none": "-"}) == "-"
    assert match("4S", labels) is None          # one card of a pair is not the pair
    assert match("9Z", labels) is None


def test_the_peg_decision_shows_the_count_the_cards_laid_and_the_legal_cards_numbered():
    seat, out = seat_with(CribbageView(names), ["2"])
    assert seat.choose(PEG) == "8C"             # the second legal card, in hand order
    text = "".join(out)
    assert "laid: KS (seat 1) 2S (you) 5H (seat 1)" in text
    assert "count 17" in text and "starter 2C; you laid out QD 3C" in text
    assert "deal 1: you deal: the crib is yours; score: you 12, seat 1 20 (game 61)" in text
    assert "1) 7H  2) 8C  3) 5D" in text


def test_an_illegal_entry_is_one_line_and_the_question_is_asked_again():
    seat, out = seat_with(CribbageView(names), ["9D", "8c"])
    assert seat.choose(PEG) == "8C"             # a card named in lower case
    lines = "".join(out).splitlines()
    told = [i for i, line in enumerate(lines) if line.startswith("not a legal choice")]
    assert len(told) == 1 and lines[told[0]] == "not a legal choice here: 9D; type 1-3, a choice as listed, ? or help"
    assert lines[told[0] - 1].startswith("your choice") and lines[told[0] + 1].startswith("your choice")


@pytest.mark.parametrize("answers, why", [(["q"], "quit"), ([], "end of input"), (["x", "quit"], "quit")])
def test_q_or_the_end_of_the_input_ends_the_game(answers, why):
    seat, _ = seat_with(CribbageView(names), answers)
    with pytest.raises(Quit, match=why):
        seat.choose(PEG)


def test_help_lists_the_commands_and_asks_again():
    seat, out = seat_with(CribbageView(names), ["help", "1"])
    assert seat.choose(PEG) == "7H"
    assert "? or hint" in "".join(out) and "q or quit" in "".join(out)


def test_a_hint_is_the_advisors_table_numbered_as_the_choices():
    """The last cards of the play: the advisor enumerates every hidden deal, so its best card is exact."""
    from sims.cribbage.advice import advise

    situation = PegSituation("7H 8C", "KS 2S 5H 5D 4C", role="dealer", starter="2C", rules="six-card-61")
    seat, out = seat_with(CribbageView(names), ["?", "1"])
    seat.choose(situation)
    best = advise(situation, samples=200, seed=1).iloc[0]["card"]
    text = "".join(out)
    assert "(exact over" in text
    row = next(line for line in text.splitlines() if line.lstrip().startswith(("1  ", "2  ")))
    number, card = row.split()[:2]
    assert card == best and ["7H", "8C"][int(number) - 1] == best


def test_one_legal_choice_is_made_without_asking():
    # Count 26: the king would pass 31, so the three is the only card to lay; nothing is read.
    situation = PegSituation("KH 3C", "KS 2S 5H 9D", role="dealer", starter="2C", rules="six-card-61")
    seat, out = seat_with(CribbageView(names), [])
    assert seat.choose(situation) == "3C"
    assert "3C: your only legal choice" in "".join(out) and "your choice" not in "".join(out)


def test_the_discard_lists_every_throw_and_reads_the_cards():
    situation = DiscardSituation("5H 5S JD 6C 4H KD", role="pone", dealer=1, score=(10, 20), rules="six-card-61")
    seat, out = seat_with(CribbageView(names), ["kd jd"])
    assert seat.choose(situation) == "JD KD"
    assert "15) 4H KD" in "".join(out) and "deal 1: seat 1 deals: the crib is theirs" in "".join(out)


def test_another_players_card_is_told_with_what_it_pegged():
    seat, out = seat_with(CribbageView(names), [])
    opponent = PegSituation("5H 9C 3D 4D", "10S", role="dealer", dealer=1, starter="2C", rules="six-card-61")
    seat.observe(opponent, "5H")
    assert out == ["deal 1: seat 1 deals: the crib is theirs; no score kept\n",     # the deal, first seen
                   "seat 1 lays 5H: count 15, pegs 2 (fifteen)\n"]


def test_at_the_next_deal_the_hands_laid_are_shown_with_the_starter():
    view = CribbageView(names)
    seat, out = seat_with(view, ["1"])
    # KS JH 5H 2S 4S make 31; the dealer leads 9D anew, the pone 3C, and the dealer lays his last card, 5D.
    last = PegSituation("5D", "KS JH 5H 2S 4S 9D 3C", role="dealer", starter="2C", rules="six-card-61")
    view.saw(last, "5D")
    seat.choose(DiscardSituation("AH 2H 3H 4H 5H 6H", role="pone", dealer=1, rules="six-card-61"))   # the next deal
    text = "".join(out)
    # The pone's K 5 4 3 with the 2: fifteens K5 and K32 (4), the run 2-3-4-5 (4).
    assert "the show: seat 1 KS 5H 4S 3C with 2C: 8" in text
    # The dealer's J 2 9 5 with the 2: fifteen J5 (2), the pair of deuces (2); the knave is not the starter's suit.
    assert "the show: you JH 2S 9D 5D with 2C: 4" in text
    assert text.index("seat 1 KS") < text.index("you JH") < text.index(": seat 1 deals")   # eldest first


def test_all_fours_the_beg_and_a_trick_taken():
    seat, out = seat_with(AllFoursView(lambda s: "you" if s == 1 else f"seat {s}"), ["beg"], seat=1)
    assert seat.choose(BegSituation("2C 5D 9H KS 3S 4C", "7H", score=(6, 8))) == "beg"
    assert "hearts are trumps" in "".join(out) and "1) stand  2) beg" in "".join(out)
    out.clear()
    # Seat 0 deals; the eldest (seat 1) led KH, seat 0 plays QH: the king takes the trick.  The king was not
    # told (as a card the laws force is laid unasked), so it is told first.
    seat.observe(PlaySituation("QH 3C 4D 5S 6S 7S", "7H", played="KH", role="dealer"), "QH")
    assert "".join(out) == "you play KH\nseat 0 plays QH: the trick to you\n"


def test_loo_the_exchange_is_told_by_its_number_of_cards_only():
    seat, out = seat_with(LooView(names), [])
    situation = ExchangeSituation("AS 5H 9C 2C 3D", "2H", role="eldest", dealer=0, rules="five-card-pam")
    seat.observe(situation, "9C 2C 3D")
    assert "".join(out) == "deal 1 of 50: you deal; trump 2H\nseat 1 changes 3 cards\n"   # a deal first seen: which


def test_loo_the_card_decision_shows_the_trick_and_the_last_card_of_a_trick_is_told_with_its_taker():
    # Hearts are trumps; seat 2 led the king: the five is the only heart held, so it is played unasked.
    situation = CardSituation("AS 5H 9C", "2H", role=3, declared="pass,play,play,pass,miss", played="KH", dealer=0)
    seat, out = seat_with(LooView(lambda s: "you" if s == 3 else f"seat {s}"), [], seat=3)
    assert seat.choose(situation) == "5H"
    assert "this trick: KH (seat 2)" in "".join(out) and "5H: your only legal choice" in "".join(out)
    seat.observe(situation, "5H")
    out.clear()
    last = CardSituation("QH 5C 9D", "2H", role=0, declared="pass,play,play,pass,miss", played="KH 5H", dealer=0)
    seat.observe(last, "QH")
    assert "".join(out) == "seat 0 plays QH: the trick to seat 2\n"


def test_all_fours_a_new_hand_tells_what_each_side_scored_in_the_last_less_the_new_knave():
    view = AllFoursView(lambda s: "you" if s == 1 else f"seat {s}")
    seat, out = seat_with(view, [], seat=1)
    seat.observe(BegSituation("2C 5D 9H KS 3S 4C", "7H", score=(3, 4)), "stand")   # seat 1, the eldest: 3, seat 0: 4
    out.clear()
    # The next hand: seat 1 deals and turns up the knave of clubs, one to him; the eldest (seat 0) has 6, seat 1 5:
    # the last hand gave seat 0 two points and seat 1 one.
    seat.observe(BegSituation("2D 5S 9C KH 3H 4D", "JC", score=(6, 5), dealer=1), "beg")
    assert out[:2] == ["hand 1 is over (high, low, jack, game): seat 0 +2, you +1\n",
                       "hand 2: you deal; turned up JC; score: seat 0 6, you 5 (game 10)\n"]
