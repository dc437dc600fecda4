"""The All Fours advisor reads the others' hands from what they did, as the play-out policies would have done it:
each position below is named after what the eldest's or the dealer's beg, answer or cards show, and the advisor's
exact values are those of an enumeration written from the laws and the policies' rules (every hand the other
player could have been dealt, kept when each card he played was one law iii allowed, when the threshold rule --
beg with trumps and trump honours held below two, give one with two or more -- makes the beg or answer he made, and
when the greedy play, in plain Python, plays each card he played), each deal played by the reference engine."""

import json

import pytest

from sims.allfours import reference as ref
from sims.allfours.advice import advise
from sims.allfours.situation import PlaySituation

from .test_advice import _oracle
from .test_advice_inferences import _lawful

PLAYOUT = {"play": "greedy"}  # and the default threshold beg and answer
STRENGTH = 2  # the threshold policies' default: trumps held plus trump honours held (A K Q J 10)

# Two-hand, the last cards of the fifth trick: every deal of the other's hidden card is played (40 or fewer).
# ``deals``: those the laws leave, and those the policies' reading of the other leaves.
POSITIONS = {
    # Spades are trumps; the eldest stood, and his five cards (KC 10H 5D 5H 2H) hold no spade: standing, his sixth
    # is a trump honour (AS 10S JS QS KS; the nine is turned up).
    "a stand shows strength in trumps": dict(
        situation=dict(hand="8S 9C", turned="9S", played="KC 7C 10H 9H 5D 3D 5H 8C 2H", role="dealer"), deals=(40, 5)
    ),
    # Diamonds are trumps; the eldest begged, and his five cards (QC 10S 7C 6H 4C) hold no diamond: begging, his
    # sixth is no trump honour (36); his greedy play leaves 13 of them.
    "a beg shows weakness in trumps": dict(
        situation=dict(
            hand="7S KD", turned="4D", played="QC 2C 10S 4S 7C 5C 6H 6C 4C", role="dealer", begged=True, gave=True
        ),
        deals=(40, 13),
    ),
    # Spades are trumps; I begged and the dealer gave one, though his five cards (JD 10H KH 5C 3H) hold no spade:
    # giving, his sixth is a trump honour (AS 10S JS QS).
    "a gift shows strength in trumps": dict(
        situation=dict(
            hand="5D 4S", turned="KS", played="QD JD 8H 10H KH 4H 5C 2C 3H", role="eldest", begged=True, gave=True
        ),
        deals=(40, 4),
    ),
    # Spades are trumps; the dealer followed KD with 4D (the greedy play takes a trick with the lowest card that
    # can, else throws the cheapest: no AD, no 2D or 3D), 5C with 9C (no 6C 7C 8C) and led JC, JD and 5H (a greedy
    # lead is the highest plain card: none above a five left).
    "greedy follows and leads show what the dealer lacks": dict(
        situation=dict(hand="3S JS", turned="10S", played="KD 4D 5C 9C JC 3C JD 3H 5H", role="eldest"),
        deals=(40, 15),
    ),
}


def _strength(cards, trump) -> int:
    return sum(1 + (ref.GAME_POINTS.get(c >> 2, 0) > 0) for c in cards if c & 3 == trump)


def _as_the_policies_would(situation, held=None):
    """Whether a hand dealt to the other player lets him play each of his cards by law iii, and make his beg or
    answer by the threshold rule and each card he played by the greedy play: the first ``held`` of these
    decisions, in the order they were made (all by default)."""
    lawful = _lawful(situation)
    other = 1 - situation.role

    def agrees(dealt):
        if not lawful(dealt):
            return False
        made = []  # whether each decision of his agrees with the policies, in order
        strong = _strength(dealt[:6], situation.trump) >= STRENGTH
        if other == 1:  # the eldest begs when weak
            made.append(strong != situation.begged)
        elif situation.begged:  # the dealer gives one when strong
            made.append(strong == situation.gave)
        hand = list(dealt)
        for k, (card, role) in enumerate(zip(situation.played, situation.laid_by)):
            if role != other:
                continue
            arrays = PlaySituation(
                hand, situation.turned, situation.played[:k], role=other, begged=situation.begged, gave=situation.gave
            ).to_state()
            i = ref.greedy_play(list(arrays.hand), arrays.played, arrays.state, arrays.rules, None, None)
            made.append(arrays.hand[i] == card)
            hand.remove(card)
        return all(made[:held])

    return agrees


@pytest.mark.parametrize("name", POSITIONS)
def test_the_advisor_reads_what_the_others_did(name):
    position = POSITIONS[name]
    situation = PlaySituation(**position["situation"])
    frame = advise(situation, playout=PLAYOUT, policies=())
    laws = advise(situation, playout=PLAYOUT, policies=(), infer="laws")
    assert frame.attrs["method"] == "exact" and "held to" not in frame.attrs["conditioned"]
    assert (laws.attrs["deals"], frame.attrs["deals"]) == position["deals"]
    expected = _oracle(situation, ref.greedy_play, _as_the_policies_would(situation))
    assert dict(zip(frame["choice"], frame["value"])) == pytest.approx(expected, abs=1e-12)


def test_where_no_deal_agrees_with_every_decision_the_longest_run_that_one_does_is_held_to():
    """The eldest led 8S holding KS, which the greedy lead (the highest plain card) never does: no deal agrees
    with his first card, so the deals are read from his stand alone (every deal agrees with it: the 10H he
    played, a trump honour, makes his strength two), and the output says so."""
    situation = PlaySituation("JH 3S", "7H", played="8S 2S QD 3D 9C AC 4H 10H KS", role="dealer")
    frame = advise(situation, playout=PLAYOUT, policies=())
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == 40
    assert frame.attrs["conditioned"].endswith(
        "only the first 1 of these 6 decisions held to (no deal agrees with more)"
    )
    expected = _oracle(situation, ref.greedy_play, _as_the_policies_would(situation, held=1))
    assert dict(zip(frame["choice"], frame["value"])) == pytest.approx(expected, abs=1e-12)


def test_sampled_deals_hold_to_the_longest_run_that_enough_deals_agree_with():
    """Sampled, the default play-outs: the eldest stood, led 2S and followed the dealer's QD with 3D; fewer than
    ``samples`` of the ``MAX_DRAWS`` rounds of deals tried agree with his 3D as the maxims' play would make it,
    so the deals kept agree with his stand and his lead."""
    situation = PlaySituation("JH 3S 4D 5C", "7H", played="2S KS QD 3D", role="dealer")
    frame = advise(situation, samples=300, policies=())
    assert frame.attrs["method"] == "rollouts" and frame.attrs["deals"] == 300
    assert frame.attrs["conditioned"].endswith(
        "300 deals kept of 6,000 tried; only the first 2 of these 3 decisions held to (fewer than 300 of the deals "
        "tried agree with more)"
    )


def test_sims_advise_reads_the_laws_alone_with_infer_laws(capsys):
    """``--infer laws`` reaches the advisor: the README's knave position, conditioned on the laws (its shown voids)
    alone, as ``advise(..., infer="laws")`` gives it."""
    from sims.cli import main

    knave = ["JH", "3S", "--turned", "7H", "--played", "KS,2S,QD,3D,9C,AC,4H,10H,8S", "--role", "dealer"]
    assert main(["advise", "--game", "allfours", "play", *knave, "--infer", "laws", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["conditioned"].startswith("the laws") and result["conditioned"].endswith("alone")
    assert [(r["choice"], r["value"]) for r in result["rows"]] == [("JH", 1.8), ("3S", 1.675)]
