"""A policy that raises is a PolicyError wherever it is called (issue 19 item 6): asked one decision by a
:class:`Player`, in the advisors' play-outs, and in the stacked hands of All Fours and Loo (a run's chunks:
tests/core/test_conformance.py).  Each error names the policy and its exception, in one line."""

import numpy as np
import pytest

from sims.core.errors import PolicyError
from sims.core.registry import get_game
from tests.core.test_conformance import failing_policy, load


def _failing(game: str, decision: str):
    return failing_policy(load(get_game(game).decision(decision).signature))


def _situations():
    from sims.allfours import PRESETS
    from sims.allfours import situation as af
    from sims.cribbage import situation as cr
    from sims.loo import situation as loo

    thrown = PRESETS["two-hand"].replace(name="two-hand-discard", discard_to_six=True)
    return [
        ("cribbage", cr.DiscardSituation("5H 5S JD 6C 4H KD", role="dealer")),
        ("cribbage", cr.PegSituation("5H 6H 7H", "KS QS 9D AC", role="dealer", starter="2C")),
        ("allfours", af.BegSituation("2C 5D 9S KS 3S 4C", "7H")),
        ("allfours", af.AnswerSituation("2C 5D 9S KS 3S 4C", "7H")),
        ("allfours", af.PlaySituation("AH 10H 3C 4D 5S", "7H", played="KH QH")),
        ("allfours", af.DiscardSituation("AC KH 2H 3D 4D 5D 6S 9S 8S", "7H,JC", "eldest", rules=thrown)),
        ("loo", loo.DeclareSituation("AS 5H 9C", "2H", role=3, declared="pass play")),
        ("loo", loo.ExchangeSituation("AS 5H 9C JC 2D", "2H", role=1, rules="five-card-pam")),
        (
            "loo",
            loo.CardSituation(hand="- 4S 2D", trump="7H", role=3, declared="pass play play pass pass", played="9S KS"),
        ),
    ]


def _one_line(info) -> str:
    text = str(info.value)
    assert "\n" not in text and "this policy fails" in text and "'failing'" in text
    return text


@pytest.mark.parametrize("game, situation", _situations(), ids=lambda x: x if isinstance(x, str) else x.DECISION)
def test_a_player_whose_policy_raises(game, situation):
    player = get_game(game).part("advice").Player(_failing(game, situation.DECISION), decision=situation.DECISION)
    with pytest.raises(PolicyError) as info:
        player.choose(situation)
    assert f"a {situation.DECISION} decision" in _one_line(info)


@pytest.mark.parametrize(
    "game, situation",
    [s for s in _situations() if s[1].DECISION in ("peg", "play", "card")],
    ids=lambda x: x if isinstance(x, str) else x.DECISION,
)
def test_an_advisor_whose_play_out_policy_raises(game, situation):
    fn = _failing(game, situation.DECISION)
    playout = fn if game == "cribbage" else {situation.DECISION: fn}
    with pytest.raises(PolicyError) as info:
        get_game(game).part("advice").advise(situation, playout=playout, samples=10)
    assert "a play-out" in _one_line(info)


@pytest.mark.parametrize("decision", ["beg", "play"])
def test_an_all_fours_stacked_hand_whose_policy_raises(decision):
    from sims.allfours.stacked import play_stacked

    with pytest.raises(PolicyError) as info:
        play_stacked(
            "two-hand", 0, np.random.default_rng(1).permutation(52), {decision: _failing("allfours", decision)}
        )
    assert "a stacked hand" in _one_line(info)


def test_a_loo_stacked_deal_whose_card_policy_raises():
    from sims.loo.engine import play_stacked

    with pytest.raises(PolicyError) as info:
        play_stacked("three-card", {"card": _failing("loo", "card")}, np.random.default_rng(1).permutation(52))
    assert "a stacked deal" in _one_line(info)
