"""The discard through the same situation / Player / advise API (issue 19, item 3); the replay against
the kernel is in tests/cribbage/test_peg_replay.py."""

import pytest

from sims.cribbage.advice import Player, advise
from sims.cribbage.contract import S_MY_SCORE, S_OPP_SCORE, S_ROLE, S_STARTER, S_THROWN
from sims.cribbage.discards import advise as discard_advice
from sims.cribbage.situation import DiscardSituation, PegSituation

HAND = "5H 5S JD 6C 4H KD"


def test_state_before_the_starter():
    s = DiscardSituation(HAND, role="pone", score=(95, 110))
    state = s.to_state().state
    assert state[S_ROLE] == 1 and state[S_STARTER] == -1 and state[S_THROWN] == state[S_THROWN + 1] == -1
    assert (state[S_MY_SCORE], state[S_OPP_SCORE]) == (95, 110)


@pytest.mark.parametrize(
    "facts, message",
    [
        (dict(hand="5H 5S JD 6C 4H"), "deals 6 cards"),
        (dict(hand="5H 5S JD 6C 4H 5H"), "duplicate card 5H"),
        (dict(hand=HAND, score=(121, 3)), "0..120"),
        (dict(hand=HAND, role="second"), "unknown role"),
    ],
)
def test_bad_discard_situations(facts, message):
    with pytest.raises(ValueError, match=message):
        DiscardSituation(**facts)


def test_advise_is_the_discard_advisor_with_each_policys_throw():
    s = DiscardSituation(HAND, role="dealer", score=(95, 110))
    frame = advise(s, policies=("greedy", "expected_net", "hoyle"))
    assert len(frame) == 15  # every throw, one row each
    same = discard_advice(HAND, "dealer", score=(95, 110), sort="win", collapse=False).frame()
    assert frame["thrown"].tolist() == same["thrown"].tolist()
    assert frame["win"].tolist() == same["win"].tolist()
    for name in ("greedy", "expected_net", "hoyle"):
        thrown = Player(name, decision="discard").choose(s)
        assert name in frame.set_index("thrown").loc[thrown, "chosen_by"]
    # As the pone, the score is given mine first: the advisor's dealer-pone order is swapped.
    pone = advise(DiscardSituation(HAND, role="pone", score=(110, 95)), policies=())
    assert pone.attrs["score"]["dealer"] == 95 and pone.attrs["score"]["pone"] == 110


def test_a_policy_answers_only_its_own_decision():
    with pytest.raises(ValueError, match="discard policy; this is a peg decision"):
        Player("greedy", decision="discard").choose(PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C"))
