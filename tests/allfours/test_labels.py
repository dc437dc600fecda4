"""Each count of a hand (``sims.allfours.play.EVENTS``) counts what its label says: stacked hands whose counts
are known by hand, and the closed forms of the knave and the trumps in play.

Hands are given by role (the dealer first, then the eldest), as in tests/allfours/test_laws.py.
"""

import math

import pytest

from sims.allfours import play_stacked, simulate_deals, stacked_deck
from sims.allfours.play import EVENTS
from sims.allfours.rules import PRESETS

from tests.allfours.helpers import script

STAND = {"beg": "stand"}
RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def short_pack_deck():
    """Six hearts turned in a row (the first turn and five runs, a knave among them) leave four cards, too few
    for another round: the same dealer deals again from a new pack in id order, and the eldest begs again."""
    clubs, diamonds, spades = ([f"{r}{s}" for r in RANKS] for s in "CDS")
    return stacked_deck(
        [clubs + diamonds[:8], diamonds[8:] + spades + ["2H", "3H", "4H"]],
        ["10H", "JH", "QH", "KH", "AH", "9H"],
        then=[range(52)],
    )


def test_every_label_is_defined_in_the_analyst_page_and_the_rules():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = "".join(
        (root / "docs" / page).read_text(encoding="utf-8") for page in ("getting-started/analyst.md", "rules.md")
    )
    for label in EVENTS:
        assert f"`{label}`" in text, label


def test_begs_counts_every_beg_a_new_deal_begged_again():
    """Begged in the first deal, the pack runs short, begged again in the new deal: 2 begs, 1 redeal."""
    hand = play_stacked("two-hand", 1, short_pack_deck(), {"beg": "beg", "answer": "run", "play": "random"})
    assert hand.events["begs"] == 2 and hand.events["redeals"] == 1


def test_rounds_run_counts_rounds_not_hands():
    """Five rounds run in the first deal (JH QH KH AH 9H turned), one in the new deal (5S): 6 rounds, one hand."""
    hand = play_stacked("two-hand", 1, short_pack_deck(), {"beg": "beg", "answer": "run", "play": "random"})
    assert hand.events["rounds run"] == 6 and hand.runs == 1


def test_knaves_turned_running_leaves_out_the_first_turn():
    """The knave of hearts turned in the first run counts; a knave turned up at the deal does not (it is the
    dealer's ``turned`` point, not a card turned running the cards)."""
    hand = play_stacked("two-hand", 1, short_pack_deck(), {"beg": "beg", "answer": "run", "play": "random"})
    assert hand.events["knaves turned running"] == 1
    deck = stacked_deck(["2C 3C 4C 5C 6C 7C", "8D 9D 10D 2H QD KD"], ["JS"])
    turned_up = play_stacked("two-hand", 1, deck, STAND)
    assert turned_up.points["dealer"]["turned"] == 1 and turned_up.events["knaves turned running"] == 0
    ran = play_stacked(
        "two-hand",
        0,
        stacked_deck(["2C 3C 4C 5C 6C 7C 8C 9C 10C", "8D 9D 10D QD KD AD QC KC AC"], ["5H", "JS"]),
        {"beg": "beg", "answer": "run"},
    )
    assert ran.events["knaves turned running"] == 1 and ran.events["rounds run"] == 1


def test_game_tied_on_points_leaves_out_nothing_to_reckon():
    """No counting card in play: 'nothing to reckon', not 'game tied on points' (both sides reckon 0)."""
    deck = stacked_deck(["2C 3C 4C 5D 6D 7D", "8C 9C 2H 3S 4S 5S"], ["6H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "random"})
    assert hand.events["nothing to reckon"] == 1 and hand.events["game tied on points"] == 0


def test_game_tied_on_points_counts_equal_totals_above_nothing():
    """Each side takes one ten and nothing else that counts: 10 to 10."""
    deck = stacked_deck(["10D 3C 4C 5C 6S 7S", "10C 2C 2D 8S 9S 3H"], ["4H"])
    policies = {**STAND, "play": [script("3C 10D 4C 5C 6S 7S"), script("10C 2D 8S 9S 2C 3H")]}
    hand = play_stacked("two-hand", 0, deck, policies)
    assert hand.events["game tied on points"] == 1 and hand.events["nothing to reckon"] == 0


def test_one_card_all_fours_is_the_knave_alone():
    """Law vi's example: the eldest's knave is the only trump and the only counting card: all fours, one trump,
    one card all fours, the knave in play, one trump in play."""
    deck = stacked_deck(["2C 3C 4C 5D 6D 7D", "JH 8C 9C 2S 3S 4S"], ["5H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "random"})
    assert {
        k: hand.events[k]
        for k in ("all fours", "all fours, one trump", "one card all fours", "knave in play", "trumps in play")
    } == dict.fromkeys(
        ("all fours", "all fours, one trump", "one card all fours", "knave in play", "trumps in play"), 1
    )


def test_all_fours_with_one_trump_but_a_ten_beside_it_is_not_one_card():
    """The eldest holds the knave (the only trump) and the ten of clubs and takes every trick: all four points
    with one trump, but game is reckoned 11 (the knave and the ten), so not one card all fours."""
    deck = stacked_deck(["2C 3C 4C 5D 6D 7D", "JH 10C 9C 2S 3S 4S"], ["5H"])
    hand = play_stacked(
        "two-hand", 0, deck, {**STAND, "play": [script("2C 3C 4C 5D 6D 7D"), script("10C JH 9C 2S 3S 4S")]}
    )
    assert hand.points["eldest"]["total"] == 4
    assert hand.events["all fours, one trump"] == 1 and hand.events["all fours"] == 1
    assert hand.events["one card all fours"] == 0


def test_trumps_and_knave_in_play_count_the_cards_dealt_not_the_pack():
    """Hearts trumps: the dealer's 2H and the eldest's six hearts are in play (7 trumps); the knave of hearts is
    in the pack, and the turned 3H is not in play."""
    deck = stacked_deck(["2H 3C 4C 5D 6D 7S", "AH KH QH 9H 8H 7H"], ["3H"])
    hand = play_stacked("two-hand", 0, deck, {**STAND, "play": "random"})
    assert hand.events["trumps in play"] == 7 and hand.events["knave in play"] == 0


@pytest.mark.parametrize("preset, dealt", [("two-hand", 12), ("four-hand", 24)])
def test_knave_and_trumps_in_play_match_the_closed_form(preset, dealt):
    """Without begging every hand is played on the first card turned.  The knave of trumps is in play unless
    it is the card turned (4 in 52), and then it is one of the 51 others, ``dealt`` of them in play:
    P = 48/52 * dealt/51.  The trumps in play: 12 of the 51 other cards are trumps, E = dealt * 12/51."""
    n = 100_000
    rules = PRESETS[preset].replace(begging=False)
    result = simulate_deals(rules, {"play": "random"}, n, seed=2101)
    events = result.summary["events_per_hand"]
    p = 48 / 52 * dealt / 51
    assert abs(events["knave in play"]["mean"] - p) < 4 * math.sqrt(p * (1 - p) / n)
    trumps = events["trumps in play"]
    assert abs(trumps["mean"] - dealt * 12 / 51) < 4 * trumps["se"]
    assert events["begs"]["mean"] == 0 and events["rounds run"]["mean"] == 0
