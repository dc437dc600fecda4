"""The Loo advisor deals only what the laws allow: each position below is named after what the play shows of the
other stander's cards, and the advisor's exact values are those of the reference engine over every deal in which
he could have played as he did (:func:`tests.loo.test_advice._oracle`).  Five players, hearts trumps; the second
and third players stand; I am the second, and led the first trick."""

from math import comb

import pytest

from sims.loo.advice import advise
from sims.loo.situation import CardSituation

from .test_advice import _oracle

DECLARED = "pass play play pass pass"
POSITIONS = {
    # He trumped my 4D (and then led 5S, which I cannot follow): holding a diamond he must have followed.
    "a shown void": dict(hand="- KC 3C", played="4D 2H 5S"),
    # He followed my 9D with 4D: holding a higher diamond he must have headed the trick.
    "no card to head": dict(hand="- KC 3C", played="9D 4D"),
    # He threw 2C on my 9D: void in diamonds, and holding a trump he must have trumped (any trump wins it).
    "no trump to win": dict(hand="- KC 3C", played="9D 2C"),
    # Five-card: he has played four spades; a fifth, or Pam (JC), would have made a flush and swept the board.
    "no flush": dict(hand="- - - KC 5D", played="2S 3S 4S 3D 5S 4D 6S", rules="five-card-pam"),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_the_advisor_deals_what_the_play_allows(name):
    position = POSITIONS[name]
    situation = CardSituation(
        position["hand"],
        "7H",
        role=2,
        declared=DECLARED,
        played=position["played"],
        rules=position.get("rules", "three-card"),
    )
    frame = advise(situation, playout={"card": "greedy"}, policies=())
    expected, deals = _oracle(situation)
    shown = [c for c, r in zip(situation.played, situation.laid_by) if r == 3]  # the other stander's
    unseen = 52 - len({c for c in situation.hand if c >= 0} | set(situation.played) | {situation.trump})
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == deals
    assert deals < comb(unseen, situation.rules.cards - len(shown))  # the play ruled some deals out
    assert dict(zip(frame["choice"], frame["value"])) == pytest.approx(expected, abs=1e-12)
