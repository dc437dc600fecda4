"""The All Fours advisor deals only what the laws allow: each position below is named after what the play shows of
the eldest's last card, and the advisor's exact values are those of an enumeration written from law iii (every
hand the eldest could have been dealt, kept when each card he played was of the suit led, a trump, or, holding
none of the suit led, any card), each deal played by the reference engine."""

import pytest

from sims.allfours import reference as ref
from sims.allfours.advice import advise
from sims.allfours.situation import PlaySituation

from .test_advice import _oracle

# Trumps are hearts.  The eldest leads KS (the dealer follows 2S) and 9C (the dealer takes it with AC); the dealer
# leads the third trick; the eldest leads 8S to the fifth: the dealer, with no spade, plays the knave of trumps or
# 6C, and the eldest's last card is one of the forty unseen -- or fewer, by what the third trick showed.
POSITIONS = {
    # He answered a club with a diamond: no club (law iii: a player holding the suit led follows it or trumps).
    "a shown void": dict(played="KS 2S 9C AC 4C 5D 3D QD 8S", deals=40 - 9),
    # He trumped the club: he may hold clubs still (law iii lets him trump instead of following).
    "trumping is no void": dict(played="KS 2S 9C AC 4C 2H QD 3D 8S", deals=40),
    # He answered a trump with a diamond: no trump left.
    "no trump on a trump led": dict(played="KS 2S 9C AC 4H 5D 3D QD 8S", deals=40 - 10),
}


def _lawful(situation):
    """Whether a hand dealt to the eldest let him play each of his cards by law iii."""

    def lawful(dealt):
        held = list(dealt)
        for k, (card, role) in enumerate(zip(situation.played, situation.laid_by)):
            if role == situation.role:
                continue
            lead = situation.played[k - 1] & 3 if k % 2 else None
            if card not in [held[i] for i in ref.legal_cards(held, lead, situation.trump, True)]:
                return False
            held.remove(card)
        return True

    return lawful


@pytest.mark.parametrize("name", POSITIONS)
def test_the_advisor_deals_what_the_play_allows(name):
    position = POSITIONS[name]
    situation = PlaySituation("JH 6C", "7H", played=position["played"], role="dealer")
    frame = advise(situation, playout={"play": "greedy"}, policies=(), infer="laws")
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == position["deals"]
    expected = _oracle(situation, ref.greedy_play, _lawful(situation))
    assert dict(zip(frame["choice"], frame["value"])) == pytest.approx(expected, abs=1e-12)


def test_a_player_void_in_three_suits_is_dealt_from_the_fourth():
    """Law iii: the eldest, who threw a spade to a club, to a diamond and to a trump (hearts), holds spades only.
    Few uniform deals fit that (1 in 26), so his two cards are drawn among the spades not seen: every deal lawful,
    five of five drawn, each lawful pair as likely as another (chi-square over 28 pairs and 300 seeds of five
    deals, p > 0.001), where the advisor, drawing uniform deals and leaving out those that break a void, used to
    stop at 'no deal fits'."""
    import itertools

    from scipy.stats import chisquare

    from sims.allfours.advice import _deal_order, hidden_deals
    from sims.cards import format_card

    situation = PlaySituation("AD 10C", "7H", played="9S KS 2C 4S 2D 5S 3H 6S", role="dealer")
    assert situation.voids == {1: frozenset({0, 1, 2})}
    places = [p for p, where in enumerate(_deal_order(2, 0)) if where in ((1, 4), (1, 5))]
    spades = [c for c in range(52) if format_card(c).endswith("S") and c not in situation.played]
    counts = dict.fromkeys(itertools.combinations(sorted(spades), 2), 0)
    for seed in range(300):
        decks, exact, _, _ = hidden_deals(situation, 5, seed, exact_limit=0)
        assert not exact and len(decks) == 5
        for deck in decks:
            counts[tuple(sorted(int(c) for c in deck[places]))] += 1
    assert len(counts) == 28 and sum(counts.values()) == 1_500
    assert chisquare(list(counts.values())).pvalue > 0.001
