"""The pegging advisor deals only what the laws allow (issue 34, item 2): a player who said go, or could not
lay when a count ended, held no card that fitted, and a player who can lay must.  Its deals and exact values
read from the laws alone (``infer="laws"``; tests/cribbage/test_peg_reads_play.py reads the others' cards laid
too) are checked against :mod:`tests.cribbage.lawful_play`, a plain replay of the laws of the play."""

import numpy as np
import pytest
from scipy import stats

from sims.cards import format_card, parse_card, parse_cards
from sims.cribbage.advice import hidden_deals, peg_advice
from sims.cribbage.situation import PegSituation

from .lawful_play import DEALER, PONE, lawful_deals, lawful_values, pips, random_position

ROLE = {"dealer": DEALER, "pone": PONE}

# Stacked positions, each named after the inference the laws draw from the public play.
POSITIONS = {
    # pone 3C, dealer 7S, pone 7D, dealer 8S (25); neither lays at 25 (the pone's 9H opens a new count): the
    # dealer's last card has more than 6 pips, 21 of the 42 unseen cards (the issue's example).
    "could not lay when the count ended": dict(
        hand="KH",
        played="3C 7S 7D 8S 9H JH",
        me="pone",
        starter="10H",
        thrown="AC 6H",
        laid_by="pone dealer pone dealer pone dealer",
        room=6,
        deals=21,
    ),
    # pone KC, dealer QD, pone 5C (25); the dealer says go and the pone lays on: the dealer's three cards
    # have more than 6 pips: C(26, 3).
    "go at 25": dict(
        hand="4H 2S",
        played="KC QD 5C",
        me="pone",
        starter="AD",
        thrown="3H 3S",
        laid_by="pone dealer pone",
        room=6,
        deals=2600,
    ),
    # ... and then says go again at 28: the first go, at the lower count, says more.
    "two goes in a row": dict(
        hand="2S",
        played="KC QD 5C 3D",
        me="pone",
        starter="AD",
        thrown="4H 4S",
        laid_by="pone dealer pone pone",
        room=6,
        deals=2600,
    ),
    # pone KC, dealer QD, pone 9S (29); none of the dealer's cards fits, so he leads a new count: the pone
    # could not lay at 29 either, his two cards have more than 2 pips: C(37, 2).
    "my turn with no card that fits": dict(
        hand="5H 6H 7H",
        played="KC QD 9S",
        me="dealer",
        starter="AD",
        thrown="2C 3C",
        laid_by="pone dealer pone",
        room=2,
        deals=666,
    ),
    # pone KC, dealer 9D, pone 10S (29); I, the dealer, say go and the pone lays on to 31: my own go says
    # nothing of the pone's last card, any of the 42 unseen.
    "my own go": dict(
        hand="5H 6H 7H",
        played="KC 9D 10S 2S",
        me="dealer",
        starter="AD",
        thrown="3C 3D",
        laid_by="pone dealer pone pone",
        room=0,
        deals=42,
    ),
}


def _situation(p, **options):
    return PegSituation(
        p["hand"], p["played"], p["me"], p["starter"], p["thrown"], laid_by=p["laid_by"].split(), **options
    )


def _plain(p):
    """The position in the reference's terms: card ids and role numbers."""
    return dict(
        hand=parse_cards(p["hand"]),
        played=parse_cards(p["played"]),
        me=ROLE[p["me"]],
        laid_by=[ROLE[r] for r in p["laid_by"].split()],
        starter=parse_card(p["starter"]),
        thrown=parse_cards(p["thrown"]),
    )


@pytest.mark.parametrize("name", POSITIONS)
def test_deals_are_the_lawful_ones(name):
    """The advisor's deals are exactly those with which the public cards were laid lawfully."""
    p = POSITIONS[name]
    situation = _situation(p)
    deals, _, exact = hidden_deals(situation, 100, 0)
    lawful, _ = lawful_deals(**_plain(p))
    assert exact and len(deals) == len(lawful) == p["deals"]
    assert {frozenset(int(c) for c in deal) for deal in deals} == set(lawful)
    other = 1 - ROLE[p["me"]]
    assert situation.at.room[other] == p["room"]
    assert all(pips(c) > situation.at.room[other] for deal in deals for c in deal)


def test_the_issues_example_is_worth_nothing():
    """KH makes 29; the dealer's card (more than 6 pips) does not fit: the pone pegs the go, the dealer the
    last card: 0 in every lawful deal (the advisor said -0.262 when it dealt him cards of 6 pips or fewer)."""
    p = POSITIONS["could not lay when the count ended"]
    columns, attrs = peg_advice(_situation(p), policies=(), infer="laws")
    assert attrs["method"] == "exact" and attrs["deals"] == 21
    assert columns["card"] == ["KH"] and columns["value"][0] == 0.0
    assert lawful_values(**_plain(p)) == ({parse_card("KH"): 0.0}, 21)


def test_a_later_card_that_fitted_the_go_is_refused():
    """The dealer said go at 25, so he cannot have held the 4D he lays in the next count."""
    with pytest.raises(ValueError, match="could not lay at count 25, yet he held 4D"):
        PegSituation("2S", "KC QD 5C 3H 4D", "pone", "AD", "4H 4S", laid_by="pone dealer pone pone dealer".split())


def test_exact_values_agree_with_the_laws_on_random_ends_of_play():
    """300 seeded positions played at random by the laws to my turn with two cards, the other holding at
    most one (so every later decision is forced): every card's value, and the number of deals, as the plain
    replay of the laws finds them (to 1e-9); most of them (about 60%) narrowed by a go."""
    rng = np.random.default_rng(2026)
    checked = narrowed = 0
    while checked < 300:
        p = random_position(rng)
        if p is None:
            continue
        checked += 1
        situation = PegSituation(p["hand"], p["played"], p["me"], p["starter"], p["thrown"], laid_by=p["laid_by"])
        narrowed += any(situation.at.room)
        columns, attrs = peg_advice(situation, policies=(), infer="laws")
        values, lawful = lawful_values(**p)
        assert attrs["method"] == "exact" and attrs["deals"] == lawful
        assert sorted(columns["card"]) == sorted(format_card(c) for c in values)
        for card, value in zip(columns["card"], columns["value"]):
            assert value == pytest.approx(values[parse_card(card)], abs=1e-9), (p, card)
    assert narrowed > 100


def test_sampled_deals_are_the_lawful_ones_uniformly():
    """Sampled instead of enumerated (exact_limit 0), the dealer's last card is one of the 21 lawful cards,
    each as often as the others (chi-square over 4,200 deals, p > 0.001)."""
    p = POSITIONS["could not lay when the count ended"]
    deals, _, exact = hidden_deals(_situation(p), 4200, 5, exact_limit=0)
    lawful, _ = lawful_deals(**_plain(p))
    assert not exact and {frozenset([int(d[0])]) for d in deals} <= set(lawful)
    counts = np.unique(deals[:, 0], return_counts=True)[1]
    assert len(counts) == 21 and stats.chisquare(counts).pvalue > 1e-3


def test_three_hand_deals_each_other_player_what_his_go_allows_uniformly():
    """Three-hand: role 2 says go at 24 (his 3 cards have more than 7 pips), the dealer at 28 (his 2 more
    than 3).  Over all lawful deals, uniform, the dealer holds a given card of 4 to 7 pips with chance
    2 / (a - 3 + b), and one of more than 7 pips with chance (1 - 3/a) 2 / (a - 3 + b), for a cards of
    more than 7 pips unseen and b of 4 to 7: each card's count of 20,000 sampled deals within 4.5 SE."""
    situation = PegSituation("2S", "KC QD 2H 2C AH 3C", 1, "9D", "5S", rules="three-hand", laid_by=[1, 2, 0, 1, 0, 1])
    assert situation.at.room[2] == 7 and situation.at.room[0] == 3
    samples = 20_000
    deals, left, exact = hidden_deals(situation, samples, 11)
    assert not exact and (left[0], left[2]) == (2, 3)
    dealer, role2 = deals[:, :2], deals[:, 2:5]
    assert (np.minimum(role2 // 4 + 1, 10) > 7).all() and (np.minimum(dealer // 4 + 1, 10) > 3).all()
    seen = set(situation.kept) | set(situation.played) | {situation.starter} | set(situation.thrown)
    unseen = [c for c in range(52) if c not in seen]
    a = sum(pips(c) > 7 for c in unseen)
    b = sum(3 < pips(c) <= 7 for c in unseen)
    for card in unseen:
        if pips(card) <= 3:
            assert not (dealer == card).any()
            continue
        chance = 2 / (a - 3 + b) * ((1 - 3 / a) if pips(card) > 7 else 1)
        held = (dealer == card).any(axis=1).sum()
        assert abs(held - samples * chance) < 4.5 * np.sqrt(samples * chance * (1 - chance)), format_card(card)
