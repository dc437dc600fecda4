"""The terminal seat alone (:mod:`sims.core.duel`), on situations built by hand: what it shows, how it reads an
answer, a hint, and what it tells of the other players' decisions (whole games: tests/cli/test_duel.py)."""

from __future__ import annotations

import pytest

from sims.allfours.duel import View as AllFoursView
from sims.allfours.situation import BegSituation, PlaySituation
from sims.cards import parse_card, parse_cards
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
PEG = PegSituation(
    "7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C", thrown="QD 3C", score=(12, 20), rules="six-card-61"
)


def test_match_reads_cards_in_any_spelling_and_order_and_words():
    labels = ["4S 10H", "4S 5D", "pass", "take the miss", "-"]
    assert match("10h 4s", labels) == "4S 10H"
    assert match("TH,4♠", labels) == "4S 10H"
    assert match(" PASS ", labels) == "pass"
    assert match("miss", labels, {"miss": "take the miss"}) == "take the miss"
    assert match("none", labels, {"none": "-"}) == "-"
    assert match("4S", labels) is None  # one card of a pair is not the pair
    assert match("9Z", labels) is None


def test_the_peg_decision_shows_the_count_the_cards_laid_and_the_legal_cards_numbered():
    seat, out = seat_with(CribbageView(names), ["2"])
    assert seat.choose(PEG) == "8C"  # the second legal card, in hand order
    text = "".join(out)
    assert "laid: KS (seat 1) 2S (you) 5H (seat 1)" in text
    assert "count 17" in text and "starter 2C; you laid out QD 3C" in text
    assert "deal 1: you deal: the crib is yours; score: you 12, seat 1 20 (game 61)" in text
    assert "1) 7H  2) 8C  3) 5D" in text


def test_an_illegal_entry_is_one_line_and_the_question_is_asked_again():
    seat, out = seat_with(CribbageView(names), ["9D", "8c"])
    assert seat.choose(PEG) == "8C"  # a card named in lower case
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
    assert out == [
        "deal 1: seat 1 deals: the crib is theirs; no score kept\n",  # the deal, first seen
        "the starter: 2C\n",
        "seat 1 lays 5H: count 15; seat 1 pegs 2 for fifteen 2 (you 0, seat 1 2)\n",
    ]


def test_a_knave_turned_up_is_his_heels():
    """Mottoes: "if a knave be turned up, the dealer marks two", told with the starter."""
    seat, out = seat_with(CribbageView(names), [])
    seat.observe(PegSituation("5H 4S 2C 6C", "", role="pone", starter="JD", rules="six-card-61"), "5H")
    assert out == [
        "deal 1: you deal: the crib is yours; no score kept\n",
        "the starter: JD\n",
        "you peg 2 for his heels 2 (you 2, seat 1 0)\n",
        "seat 1 lays 5H: count 5\n",
    ]


def test_who_says_go_and_the_go_when_nobody_can_lay():
    """Mottoes: a player who cannot lay under thirty-one says go; when nobody can, the last player takes the end
    hole (1) and the count begins anew."""
    seat, out = seat_with(CribbageView(names), [])
    rules = dict(starter="2C", rules="six-card-61")
    seat.observe(PegSituation("KS 5H 4S 6C", "", role="pone", **rules), "KS")
    seat.observe(PegSituation("QH 9D 8D 7D", "KS", role="dealer", **rules), "QH")
    seat.observe(PegSituation("5H 4S 6C", "KS QH", role="pone", **rules), "5H")
    # At 25 you (the dealer) hold 9D 8D 7D: none fits, so you say go, and the pone lays on.
    seat.observe(PegSituation("4S 6C", "KS QH 5H", role="pone", **rules), "4S")
    # At 29 neither can lay: the pone, who laid last, takes the go; you lead anew.
    seat.observe(PegSituation("9D 8D 7D", "KS QH 5H 4S", role="dealer", **rules), "9D")
    assert out[2:] == [
        "seat 1 lays KS: count 10\n",
        "you lay QH: count 20\n",
        "seat 1 lays 5H: count 25\n",
        "you say go\n",
        "seat 1 lays 4S: count 29\n",
        "seat 1 pegs 1 for go 1 (you 0, seat 1 1)\n",
        "you lay 9D: count 9\n",
    ]


def first_fitting(hand, played, state, rules, rng, params):
    """Lay the first card in hand that fits the count."""
    from sims.cribbage.contract import S_COUNT

    return next(i for i, c in enumerate(hand) if c >= 0 and state[S_COUNT] + min((c >> 2) + 1, 10) <= 31)


def test_at_the_end_of_a_deal_the_last_card_each_show_and_the_crib_are_told_with_their_points():
    """A deal of the reference engine from a stacked pack (each throws his first two cards, lays the first card
    that fits): the last card of all, then the shows, eldest first, the dealer, the crib turned up (Mottoes)."""
    import numpy as np

    from sims.cribbage import reference as ref

    # You deal: AD 6C go to the crib, you keep JH 2S 9D 5D; the pone throws 7C QD and keeps KS 5H 4S 3C; 2C turned.
    # The play: KS JH 5H 2S 4S make 31 (2 to the pone); you lead 9D anew, the pone 3C, you 5D, the last card (1).
    deck = ref.stacked_deck([parse_cards("AD 6C JH 2S 9D 5D"), parse_cards("7C QD KS 5H 4S 3C")], parse_card("2C"))
    deal = ref.play_deal(
        "six-card-61",
        0,
        deck,
        np.zeros((4, 4), dtype=np.uint64),
        {"discard": lambda hand, state, rules, rng, params: 0b11, "peg": first_fitting},
    )
    seat, out = seat_with(CribbageView(names), [])
    seat.dealt(deal)
    assert out == [
        "the starter: 2C\n",
        "you peg 1 for last card 1 (you 1, seat 1 0)\n",
        # K 5 4 3 with the 2: fifteens K5 and K32 (4), the run 2-3-4-5 (4).
        "seat 1 shows KS 5H 4S 3C with 2C: seat 1 pegs 8 for 2 fifteens 4, run of 4 4 (you 1, seat 1 8)\n",
        # J 2 9 5 with the 2: fifteen J5 (2), the pair of deuces (2); the knave is not the starter's suit.
        "you show JH 2S 9D 5D with 2C: you peg 4 for fifteen 2, pair 2 (you 5, seat 1 8)\n",
        # 7 Q A 6 with the 2: fifteen 7-6-2 (2).
        "the crib shows 7C QD AD 6C with 2C: you peg 2 for fifteen 2 (you 7, seat 1 8)\n",
    ]


def test_all_fours_the_beg_and_a_trick_taken():
    seat, out = seat_with(AllFoursView(lambda s: "you" if s == 1 else f"seat {s}"), ["beg"], seat=1)
    assert seat.choose(BegSituation("2C 5D 9H KS 3S 4C", "7H", score=(6, 8))) == "beg"
    assert "hearts are trumps" in "".join(out) and "1) stand  2) beg" in "".join(out)
    out.clear()
    # Seat 0 deals; the eldest (seat 1) led KH, seat 0 plays QH: the king takes the trick.  The king was not
    # told (as a card the laws force is laid unasked), so it is told first, as forced.
    seat.observe(PlaySituation("QH 3C 4D 5S 6S 7S", "7H", played="KH", role="dealer"), "QH")
    assert "".join(out) == "you play KH (forced)\nseat 0 plays QH: the trick to you\n"


def test_loo_the_exchange_is_told_by_its_number_of_cards_only():
    seat, out = seat_with(LooView(names), [])
    situation = ExchangeSituation("AS 5H 9C 2C 3D", "2H", role="eldest", dealer=0, carry=0, rules="five-card-pam")
    seat.observe(situation, "9C 2C 3D")
    # The session's first deal: which, and the dealer's stake into the pool (five-card: a stake of 5).
    assert "".join(out) == (
        "deal 1 of 50: you deal; trump 2H\nyou pay 5 for the dealer's stake\nthe pool holds 5\nseat 1 changes 3 cards\n"
    )


def test_loo_the_card_decision_shows_the_trick_and_the_last_card_of_a_trick_is_told_with_its_taker():
    # Hearts are trumps; seat 2 led the king: the five is the only heart held, so it is played unasked.
    situation = CardSituation("AS 5H 9C", "2H", role=3, declared="pass,play,play,pass,miss", played="KH", dealer=0)
    seat, out = seat_with(LooView(lambda s: "you" if s == 3 else f"seat {s}"), [], seat=3)
    assert seat.choose(situation) == "5H"
    assert "this trick: KH (seat 2)" in "".join(out) and "5H: your only legal choice" in "".join(out)
    assert "seat 2 plays KH (forced)" in "".join(out)  # a card not told was played unasked
    seat.observe(situation, "5H")
    out.clear()
    last = CardSituation("QH 5C 9D", "2H", role=0, declared="pass,play,play,pass,miss", played="KH 5H", dealer=0)
    seat.observe(last, "QH")
    # The trick's share of the pool (6, three tricks) to its winner.
    assert "".join(out) == "seat 0 plays QH: the trick to seat 2\nseat 2 takes 2 for trick 1, its share of 6\n"


def test_all_fours_one_card_can_count_all_fours():
    """Law vi: the knave, the only trump out, with no counting cards elsewhere, is high, low, jack and game; each
    trick is told, the last included, and each point with who took it and the count for game."""
    import numpy as np

    from sims.allfours import reference as ref
    from sims.allfours.stacked import stacked_deck

    deck = stacked_deck(["2C 3C 4C 5C 6C 7C", "JH 8C 9C 2D 3D 4D"], ["5H"])
    hand = ref.play_hand(
        "two-hand", 0, ref.Pack(stacked=deck), np.zeros((4, 4), dtype=np.uint64), {"beg": "stand", "play": "greedy"}
    )
    seat, out = seat_with(AllFoursView(names), [])
    seat.dealt(hand)
    assert out[:2] == ["hand 1: you deal\n", "turned up 5H\n"]
    assert sum(": the trick to " in line for line in out) == 6
    assert out[-5:] == [
        "high JH: the highest trump in play: seat 1 scores 1 for high 1 (you 0, seat 1 1)\n",
        "low JH: the lowest trump in play, dealt to seat 1: seat 1 scores 1 for low 1 (you 0, seat 1 2)\n",
        "jack JH: won in a trick by seat 1: seat 1 scores 1 for jack 1 (you 0, seat 1 3)\n",
        "game, counting tens 10, aces 4, kings 3, queens 2, knaves 1: you 0, seat 1 1: seat 1 scores 1 for game 1 "
        "(you 0, seat 1 4)\n",
        "hand 1 is over: you 0, seat 1 4\n",
    ]
