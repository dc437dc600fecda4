"""Rule-book replays on stacked decks, each named after the law or term it checks (Sections 87-96 §91-93,
Mottoes "Laws of All-Fours", shared/RULES.md).

Hands are given by role (the dealer first, then the eldest); ``stacked_deck`` lays them out as
the dealer deals them, three at a time from the eldest, then the card(s) turned up.  Scripted
policies fix the play where the law needs it; where the law says the play does not matter,
random policies on several seeds.
"""

import pytest

from sims.allfours import play_stacked, stacked_deck
from sims.allfours.rules import PRESETS
from sims.cards import parse_cards
from sims.core.errors import PolicyError

from tests.allfours.helpers import revoke, script

DIAMONDS, HEARTS, SPADES = 1, 2, 3
STAND = {"beg": "stand"}


def card(text):
    return parse_cards(text)[0]


def taker(hand, c):
    """The role of the winner of the trick holding card ``c``."""
    for t in range(0, len(hand.tricks), 2):
        trick = hand.tricks[t : t + 2]
        if any(x == c for _, x in trick):
            return _winner(trick, hand.trump)
    raise AssertionError("card not played")


def _winner(trick, trump):
    from sims.allfours.reference import trick_winner

    return trick[trick_winner(trick, trump)][0]


# -- Sections 87-96 §91: the deal and the turned knave --------------------------------------------------


def test_s91_three_at_a_time_from_the_eldest_then_the_thirteenth_card_is_turned():
    deck = stacked_deck(["2C 3C 4C 5C 6C 7C", "8D 9D 10D JD QD KD"], ["AS"])
    assert deck[:13] == parse_cards("8D 9D 10D 2C 3C 4C JD QD KD 5C 6C 7C AS")
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "random"})
    assert hand.trump == SPADES and hand.turned == card("AS") and len(hand.tricks) == 12


def test_s91_a_knave_turned_up_scores_one_to_the_dealer():
    deck = stacked_deck(["2C 3C 4C 5C 6C 7C", "8D 9D 10D 2H QD KD"], ["JS"])
    hand = play_stacked("two-hand", 1, deck, STAND)
    assert hand.points["dealer"]["turned"] == 1 and hand.points["eldest"]["turned"] == 0


def test_rules_the_turned_knave_can_win_the_game_before_any_card_is_played():
    deck = stacked_deck(["2C 3C 4C 5C 6C 7C", "8D 9D 10D 2H QD KD"], ["JS"])
    hand = play_stacked("two-hand", 1, deck, STAND, scores=(0, 9), check_target=True)
    assert hand.winner == 1 and hand.scores == [0, 10] and hand.tricks == []


# -- law vi: one card may count all fours ---------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_law_vi_one_card_counts_all_fours(seed):
    """The eldest holds the knave and stands; the dealer has neither trump, ten, ace nor court card:
    the knave is high, low, jack and game, however the cards are played."""
    deck = stacked_deck(["2C 3C 4C 5D 6D 7D", "JH 8C 9C 2S 3S 4S"], ["5H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "random"}, seed=seed)
    assert hand.points["eldest"] == {"turned": 0, "gift": 0, "high": 1, "low": 1, "jack": 1, "game": 1, "total": 4}
    assert hand.points["dealer"]["total"] == 0
    assert hand.events["one card all fours"] == 1 and hand.events["all fours"] == 1


# -- §93 i-iv: high, low, jack and game -----------------------------------------------------------


def test_s93_ii_low_is_scored_by_its_original_holder_even_when_taken():
    """The dealer's deuce of trumps falls to the eldest's seven: the dealer still scores low."""
    deck = stacked_deck(["2H 3C 4C 5D 6D 7S", "AH KH QH 9H 8H 7H"], ["3H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": [script("2H"), script("7H")]})
    assert taker(hand, card("2H")) == 1  # taken by the eldest ...
    assert hand.points["dealer"]["low"] == 1  # ... scored by the dealer
    assert hand.points["eldest"]["high"] == 1 and hand.points["eldest"]["low"] == 0


def test_s93_iii_the_knave_won_by_the_adversary_scores_to_the_winner():
    deck = stacked_deck(["JH 6C 7C 8D 9D 6S", "AH KH 2C 3C 4D 5D"], ["3H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": [script("JH"), script("AH")]})
    assert taker(hand, card("JH")) == 1
    assert hand.points["eldest"]["jack"] == 1 and hand.points["dealer"]["jack"] == 0


def test_s93_iii_the_knave_counts_only_when_in_play():
    deck = stacked_deck(["2H 3C 4C 5D 6D 7S", "AH KH QH 9H 8H 7H"], ["3H"])  # JH stays in the pack
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "random"})
    assert hand.points["dealer"]["jack"] + hand.points["eldest"]["jack"] == 0


def test_s93_i_high_goes_to_the_holder_of_the_highest_trump_out():
    """Trumps are spades; the turned ace is not out: the eldest's king is high."""
    deck = stacked_deck(["2S 3C 4C 5D 6D 7H", "KS 8C 9C 2D 3D 4H"], ["AS"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "random"})
    assert hand.points["eldest"]["high"] == 1 and hand.points["dealer"]["low"] == 1


def test_s93_iv_game_to_the_tricks_that_reckon_most():
    """The eldest takes the dealer's ten with his ace and wins the rest: his tricks reckon 19, the
    dealer's nothing."""
    deck = stacked_deck(["10C 2C 3D 4D 5H 6H", "AC KD QD 7S 8S 9S"], ["4S"])
    script_dealer = script("10C KD QD 3D 4D 2C 5H 6H")
    script_eldest = script("AC 7S 8S 9S")  # AC takes 10C; then he leads spades
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": [script_dealer, script_eldest]})
    assert taker(hand, card("10C")) == 1
    assert hand.points["eldest"]["game"] == 1 and hand.points["dealer"]["game"] == 0


def test_s93_iv_no_game_when_nothing_is_reckoned():
    """No ace, king, queen, knave or ten in play: nobody scores game (RULES.md)."""
    deck = stacked_deck(["2C 3C 4C 5D 6D 7D", "8C 9C 2H 3S 4S 5S"], ["6H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "random"})
    assert hand.points["dealer"]["game"] + hand.points["eldest"]["game"] == 0
    assert hand.events["nothing to reckon"] == 1


@pytest.mark.parametrize("game_tie, dealer_game, eldest_game", [("none", 0, 0), ("dealer", 1, 0), ("eldest", 0, 1)])
def test_rules_game_tie_equal_totals(game_tie, dealer_game, eldest_game):
    """Each side takes one ten and nothing else that counts: game per ``game_tie``."""
    deck = stacked_deck(["10D 3C 4C 5C 6S 7S", "10C 2C 2D 8S 9S 3H"], ["4H"])
    dealer = script("3C 10D 4C 5C 6S 7S")  # 3C under 10C; 10D over 2D
    eldest = script("10C 2D 8S 9S 2C 3H")
    rules = PRESETS["two-hand"].replace(game_tie=game_tie)
    hand = play_stacked(rules, 0, deck, {**STAND, "play": [dealer, eldest]})
    assert taker(hand, card("10C")) == 1 and taker(hand, card("10D")) == 0
    assert hand.events["game tied on points"] == 1
    assert (hand.points["dealer"]["game"], hand.points["eldest"]["game"]) == (dealer_game, eldest_game)


# -- §93 v: begging -------------------------------------------------------------------------------


def test_s93_v_take_one_the_eldest_scores_one_and_the_trump_stands():
    deck = stacked_deck(["2C 3C 4C 5C 6C 7C", "8D 9D 10D 2H QD KD"], ["5S"])
    hand = play_stacked("two-hand", 0, deck, {"beg": "beg", "answer": "give"})
    assert hand.points["eldest"]["gift"] == 1 and hand.trump == SPADES and hand.runs == 0
    assert hand.events["begs"] == 1 and hand.events["gave one"] == 1


def test_s93_v_beg_run_three_times_because_the_same_suit_keeps_turning():
    """Hearts turn, then hearts, hearts again, then a spade: three runs, spades trumps, 15 cards each."""
    dealer = "2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D 6D 7D"
    eldest = "8D 9D 10D QD KD AD QC KC AC 2S 4S 5S 6S 7S 8S"
    deck = stacked_deck([dealer, eldest], ["5H", "7H", "9H", "3S"])
    hand = play_stacked("two-hand", 0, deck, {"beg": "beg", "answer": "run", "play": "random"})
    assert hand.runs == 3 and hand.events["rounds run"] == 3 and hand.trump == SPADES
    assert len(hand.tricks) == 2 * 15
    assert hand.points["eldest"]["low"] == 1 and hand.points["eldest"]["high"] == 1  # 2S .. 8S, no others


def test_rules_each_knave_turned_in_running_the_cards_scores_to_the_dealer():
    dealer = "2C 3C 4C 5C 6C 7C 8C 9C 10C"
    eldest = "8D 9D 10D QD KD AD QC KC AC"
    deck = stacked_deck([dealer, eldest], ["5H", "JS"])
    hand = play_stacked("two-hand", 0, deck, {"beg": "beg", "answer": "run"})
    assert hand.points["dealer"]["turned"] == 1 and hand.trump == SPADES
    off = play_stacked(PRESETS["two-hand"].replace(run_knaves=False), 0, deck, {"beg": "beg", "answer": "run"})
    assert off.points["dealer"]["turned"] == 0


def test_law_ii_no_person_can_beg_more_than_once_in_each_hand():
    """A beg policy that always begs is asked once: after the run, the new trump is played."""
    deck = stacked_deck(["2C 3C 4C 5C 6C 7C 8C 9C 10C", "8D 9D 10D QD KD AD QC KC AC"], ["5H", "3S"])
    hand = play_stacked("two-hand", 0, deck, {"beg": "beg", "answer": "run"})
    assert hand.events["begs"] == 1 and hand.runs == 1


def test_law_ii_except_by_mutual_agreement_a_second_beg_runs_the_cards_again():
    """begs=2: hearts turn, the eldest begs, the dealer runs (a spade turns); he begs again on spades, the
    dealer runs again (a diamond turns) and the hand is played on diamonds, twelve cards each."""
    dealer = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    eldest = "8D 9D 10D QD KD AD QH KH AH 2S 4S 5S"
    deck = stacked_deck([dealer, eldest], ["5H", "3S", "4D"])
    agreed = PRESETS["two-hand"].replace(name="second beg", begs=2)
    hand = play_stacked(agreed, 0, deck, {"beg": "beg", "answer": "run", "play": "random"})
    assert hand.events["begs"] == 2 and hand.events["rounds run"] == 2 and hand.trump == DIAMONDS
    assert len(hand.tricks) == 2 * 12 and hand.points["eldest"]["gift"] == 0
    once = play_stacked("two-hand", 0, deck, {"beg": "beg", "answer": "run", "play": "random"})
    assert once.events["begs"] == 1 and once.trump == SPADES and len(once.tricks) == 2 * 9


def test_law_ii_except_by_mutual_agreement_the_second_beg_may_be_answered_take_one():
    """The dealer holds no heart, so he runs the cards on the first beg (threshold 1); spades turn and he
    holds a spade, so on the second beg he says "take one": the eldest scores 1 and spades stand."""
    dealer = "2C 3C 4C 5C 6C 7C 8C 9C 6S"
    eldest = "8D 9D 10D QD KD AD QH KH AH"
    deck = stacked_deck([dealer, eldest], ["5H", "3S"])
    agreed = PRESETS["two-hand"].replace(name="second beg", begs=2)
    hand = play_stacked(agreed, 0, deck, {"beg": "beg", "answer": {"name": "threshold", "params": [1]}})
    assert hand.events["begs"] == 2 and hand.events["gave one"] == 1 and hand.events["rounds run"] == 1
    assert hand.points["eldest"]["gift"] == 1 and hand.trump == SPADES and len(hand.tricks) == 2 * 9


def test_law_ii_a_second_beg_goes_on_while_the_suit_begged_on_keeps_turning():
    """On the second beg (spades) a spade turns again, so the dealer runs once more: hearts, the suit first
    turned, is a change from spades and becomes trumps."""
    dealer = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D 3D 4D"
    eldest = "8D 9D 10D QD KD AD QH KH AH 2S 4S 5S 6S 7S 8S"
    deck = stacked_deck([dealer, eldest], ["5H", "3S", "9S", "6H"])
    agreed = PRESETS["two-hand"].replace(name="second beg", begs=2)
    hand = play_stacked(agreed, 0, deck, {"beg": "beg", "answer": "run", "play": "random"})
    assert hand.events["begs"] == 2 and hand.events["rounds run"] == 3 and hand.trump == HEARTS


def test_rules_a_pack_too_short_for_the_next_round_is_dealt_again_by_the_same_dealer():
    """Six hearts turned in a row (the first turn and five runs) leave four cards, too few for another
    round: the same dealer deals a new hand from a new pack (here in id order: 4C turned, then a run
    turning 5S).  The knave turned in the first run still scores to the dealer."""
    ranks = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    clubs, diamonds, spades = ([f"{r}{s}" for r in ranks] for s in "CDS")
    dealer = clubs + diamonds[:8]  # 21 cards each
    eldest = diamonds[8:] + spades + ["2H", "3H", "4H"]
    deck = stacked_deck([dealer, eldest], ["10H", "JH", "QH", "KH", "AH", "9H"], then=[range(52)])
    hand = play_stacked("two-hand", 1, deck, {"beg": "beg", "answer": "run", "play": "random"})
    assert hand.events["redeals"] == 1 and hand.events["rounds run"] == 5 + 1 and hand.events["begs"] == 2
    assert hand.runs == 1 and hand.turned == card("5S") and hand.trump == SPADES and len(hand.tricks) == 2 * 9
    assert hand.points["dealer"]["turned"] == 1


def test_rules_a_stacked_deck_without_a_further_pack_cannot_deal_again():
    ranks = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    clubs, diamonds, spades = ([f"{r}{s}" for r in ranks] for s in "CDS")
    deck = stacked_deck(
        [clubs + diamonds[:8], diamonds[8:] + spades + ["2H", "3H", "4H"]], ["10H", "JH", "QH", "KH", "AH", "9H"]
    )
    with pytest.raises(ValueError, match="stacked deck ran out"):
        play_stacked("two-hand", 0, deck, {"beg": "beg", "answer": "run"})


def test_rules_four_handed_the_eldest_begs_and_the_dealer_answers():
    """Only the dealer (seat 0 here) gives one; with seat 1 dealing, seat 1's answer (run) is used."""
    hands = ["2C 3C 4C 5C 6C 7C", "8C 9C 10C JC QC KC", "2D 3D 4D 5D 6D 7D", "8D 9D 10D JD QD KD"]
    deck = stacked_deck(hands, ["5H"])
    policies = {"beg": "beg", "answer": ["give", "run", "run", "run"], "play": "random"}
    assert play_stacked("four-hand", 0, deck, policies).events["gave one"] == 1
    ran = play_stacked("four-hand", 1, deck, policies)
    assert ran.events["gave one"] == 0 and ran.runs >= 1
    begs = {"beg": ["stand", "beg", "stand", "stand"], "answer": "give"}
    assert play_stacked("four-hand", 0, deck, begs).events["begs"] == 1  # seat 1 is eldest
    assert play_stacked("four-hand", 1, deck, begs).events["begs"] == 0  # seat 2 is eldest


def test_rules_partners_score_together():
    """Four-hand: the dealer's partner (role 2) holds the only trump; his side scores high and low."""
    hands = ["2C 3C 4C 5C 6C 7C", "8C 9C 10C JC QC KC", "2H 3D 4D 5D 6D 7D", "8D 9D 10D JD QD KD"]
    hand = play_stacked("four-hand", 0, stacked_deck(hands, ["5H"]), {**STAND, "play": "random"})
    assert hand.points["dealer's side"]["high"] == 1 and hand.points["dealer's side"]["low"] == 1


# -- law iii: follow suit or trump ----------------------------------------------------------------


def test_law_iii_a_player_holding_the_suit_led_may_trump():
    deck = stacked_deck(["2C 2H 4D 5D 6D 7D", "AC 3S 4S 5S 6S 7S"], ["9H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": [script("2H"), script("AC")]})
    assert hand.tricks[:2] == [(1, card("AC")), (0, card("2H"))] and taker(hand, card("AC")) == 0


def test_law_iii_without_may_trump_he_must_follow_suit():
    rules = PRESETS["two-hand"].replace(may_trump=False)
    deck = stacked_deck(["2C 2H 4D 5D 6D 7D", "AC 3S 4S 5S 6S 7S"], ["9H"])
    hand = play_stacked(rules, 0, deck, {**STAND, "play": [script("2H"), script("AC")]})
    assert hand.tricks[:2] == [(1, card("AC")), (0, card("2C"))]


def test_a_player_with_one_card_he_may_play_is_not_asked():
    """Holding one club, he must follow with it: the revoking policy is never asked."""
    rules = PRESETS["two-hand"].replace(may_trump=False)
    deck = stacked_deck(["2C 2H 4D 5D 6D 7D", "AC 3S 4S 5S 6S 7S"], ["9H"])
    hand = play_stacked(rules, 0, deck, {**STAND, "play": [revoke("2H"), script("AC")]})
    assert hand.tricks[:2] == [(1, card("AC")), (0, card("2C"))]


def test_law_iii_a_player_void_in_the_suit_led_plays_any_card():
    deck = stacked_deck(["2D 2H 4D 5D 6D 7D", "AC 3S 4S 5S 6S 7S"], ["9H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": [script("7D"), script("AC")]})
    assert hand.tricks[:2] == [(1, card("AC")), (0, card("7D"))]


def test_law_iii_a_revoke_from_a_user_policy_is_a_policy_error():
    rules = PRESETS["two-hand"].replace(may_trump=False)
    deck = stacked_deck(["2C 3C 2H 5D 6D 7D", "AC 3S 4S 5S 6S 7S"], ["9H"])
    with pytest.raises(
        PolicyError,
        match=r"play policy 'revoking_play' \(seat 0\) chose index 2 holding "
        r"2C 3C 2H 5D 6D 7D .* hearts trumps, clubs led: .*law iii",
    ):
        play_stacked(rules, 0, deck, {**STAND, "play": [revoke("2H"), script("AC")]})


# -- the order of scoring -------------------------------------------------------------------------


def test_rules_points_go_on_in_order_and_the_game_ends_at_the_target():
    """At 9 all, the dealer's game point never counts: the eldest's high comes first and wins."""
    deck = stacked_deck(["10C 10D 3C 4D 5S 6S", "KH 2C 2D 7S 8S 9S"], ["5H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "greedy"}, scores=(9, 9), check_target=True)
    assert hand.winner == 1 and hand.scores == [9, 10]
    assert hand.points["eldest"]["high"] == 1 and hand.points["dealer"]["game"] == 0
    free = play_stacked("two-hand", 0, deck, {**STAND, "play": "greedy"})
    assert free.points["dealer"]["game"] == 1  # what the dealer would have scored


# -- discard_to_six -------------------------------------------------------------------------------


def test_rules_discard_to_six_a_card_thrown_out_is_not_in_play():
    """After one run each keeps six; the eldest throws out his deuce of trumps, so low is his four."""
    rules = PRESETS["two-hand"].replace(discard_to_six=True)
    deck = stacked_deck(["2C 3C 4C 5C 6C 7C 8C 9C 10C", "8D 9D 10D QD KD 2S 4S QC KC"], ["5H", "3S"])
    policies = {
        "beg": "beg",
        "answer": "run",
        "play": "random",
        "discard": [script("2C 3C 4C", "discard"), script("2S 8D 9D", "discard")],
    }
    hand = play_stacked(rules, 0, deck, policies)
    assert len(hand.tricks) == 12 and hand.runs == 1
    assert card("2S") not in [c for _, c in hand.tricks]
    assert hand.points["eldest"]["low"] == 1 and hand.points["eldest"]["high"] == 1  # 4S is the only trump


def test_the_docstring_examples_hold():
    """The law vi replay in sims.allfours.stacked's docstring, and the policy table's."""
    import doctest

    from sims.allfours import policies, stacked

    for module in (stacked, policies):
        result = doctest.testmod(module)
        assert result.attempted >= 2 and result.failed == 0, module.__name__
