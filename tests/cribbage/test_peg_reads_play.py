"""The pegging advisor reads the other's hand from the cards he laid, as the play-out pegging would have laid them
(issue 34): each position below is named after what his cards show, and the advisor's exact values are those of
an enumeration written from the laws and the greedy pegging's rule (:mod:`tests.cribbage.lawful_play`: every
hand the other could hold that lays the public cards lawfully, kept when the greedy rule -- the card that scores
most at once, ties to the highest card -- lays each card he laid, each deal played out by the laws and that
rule)."""

import json

import numpy as np
import pytest
from scipy import stats

from sims.cards import format_card, parse_card
from sims.cribbage.advice import advise, hidden_deals, peg_advice, read_deals
from sims.cribbage.literal_scoring import peg_score

from .lawful_play import lawful_deals, lawful_values, replay
from .test_peg_lawful_deals import _plain, _situation

PLAYOUT = "greedy"

# Two-handed six-card; the other holds two cards, every lawful deal of them is enumerated.  ``deals``: those the
# laws leave, and those the greedy rule's reading of his cards leaves.
POSITIONS = {
    # The pone led 7S: a lead scores nothing, so it is his highest card (nothing above the seven of spades); at 14
    # his 6S scored nothing, so he held no ace (fifteen) and no seven (pair royal on 7S 7D).
    "a lead is the highest card held": dict(
        hand="7H 8C 4C", played="7S 7D 6S", me="dealer", laid_by="pone dealer pone", deals=(903, 120)
    ),
    # On my KC the dealer made fifteen with 5D (two, as a king's pair would, and a king is the higher card: he held
    # none); at 17 his 6D scored nothing, so he held no two (a pair on my 2S) and nothing above the six of
    # diamonds (a seven to a queen would have scored nothing too).
    "a fifteen taken, then the highest card that scored nothing": dict(
        hand="7H 8C", played="KC 5D 2S 6D", me="pone", laid_by="pone dealer pone dealer", deals=(903, 55)
    ),
}
# Earlier, three cards hidden: on my KC the dealer laid 9D and scored nothing: no five (fifteen), no king (a pair),
# nothing above the nine of diamonds.
THREE_HIDDEN = dict(hand="7H 8C 4C", played="KC 9D", me="pone", laid_by="pone dealer")
for _position in (*POSITIONS.values(), THREE_HIDDEN):
    _position.update(starter="AD", thrown="3H 3S")


def greedy(fits, count_cards):
    """The greedy pegging's rule: the card that scores most at once, ties to the highest card."""
    return max(fits, key=lambda c: (peg_score(count_cards + [c]), c))


def as_greedy_lays(held=None):
    """Whether the hands dealt let the other lay each of his cards by the greedy rule: the first ``held`` of them,
    in the order laid (all by default)."""

    def keep(hands, played, laid_by, me):
        made = []
        replay(
            hands,
            played,
            laid_by,
            me,
            watch=lambda role, fits, count_cards, card: (
                made.append(greedy(fits, count_cards) == card) if role != me else None
            ),
        )
        return all(made[:held])

    return keep


@pytest.mark.parametrize("name", POSITIONS)
def test_the_advisor_reads_what_the_other_laid(name):
    p = POSITIONS[name]
    situation = _situation(p)
    columns, attrs = peg_advice(situation, PLAYOUT, policies=())
    laws = peg_advice(situation, PLAYOUT, policies=(), infer="laws")[1]
    assert attrs["method"] == "exact" and "held to" not in attrs["conditioned"]
    assert (laws["deals"], attrs["deals"]) == p["deals"]
    assert attrs["conditioned"].endswith(f"{p['deals'][1]:,} deals kept of {p['deals'][0]:,} lawful")
    expected, deals = lawful_values(**_plain(p), keep=as_greedy_lays(), policy=greedy)
    assert deals == attrs["deals"]
    assert dict(zip(columns["card"], columns["value"])) == pytest.approx(_named(expected), abs=1e-12)


def _named(values):
    return {format_card(c): v for c, v in values.items()}


def test_a_card_that_scored_nothing_shows_no_fifteen_and_no_pair_in_hand():
    """Three cards hidden (10,660 lawful deals, every one played): the values are those of the deals the greedy
    rule keeps, none of which holds a five."""
    p = THREE_HIDDEN
    columns, attrs = peg_advice(_situation(p), PLAYOUT, policies=())
    kept = lawful_deals(**_plain(p), keep=as_greedy_lays())[0]
    assert attrs["method"] == "exact" and attrs["deals"] == len(kept) < 10660
    assert all(parse_card("5C") >> 2 not in {c >> 2 for c in deal} for deal in kept)  # no five: no fifteen
    expected = lawful_values(**_plain(p), keep=as_greedy_lays(), policy=greedy)[0]
    assert dict(zip(columns["card"], columns["value"])) == pytest.approx(_named(expected), abs=1e-12)


# The dealer's 9D on my KC scored nothing: no five, no king, nothing above the nine of diamonds; his 6D at 21
# scored nothing: no ten (thirty-one), nothing above the six of diamonds.  So his last two cards are the six of
# clubs or an ace to a four, yet by the law they have more than 4 pips (neither could be laid at 27): no deal
# agrees with both of his cards.
FALLBACK = dict(
    hand="7H 8C", played="KC 9D 2S 6D", me="pone", laid_by="pone dealer pone dealer", starter="AD", thrown="3H 3S"
)


def test_where_no_deal_agrees_with_every_card_the_longest_run_that_one_does_is_held_to():
    columns, attrs = peg_advice(_situation(FALLBACK), PLAYOUT, policies=())
    assert attrs["method"] == "exact" and attrs["deals"] == 45
    assert attrs["conditioned"].endswith(
        "45 deals kept of 465 lawful; only the first 1 of these 2 cards held to (no deal agrees with more)"
    )
    assert not lawful_deals(**_plain(FALLBACK), keep=as_greedy_lays())[0]
    expected, deals = lawful_values(**_plain(FALLBACK), keep=as_greedy_lays(held=1), policy=greedy)
    assert deals == 45
    assert dict(zip(columns["card"], columns["value"])) == pytest.approx(_named(expected), abs=1e-12)


def test_sampled_deals_are_the_agreeing_ones_uniformly():
    """Sampled (exact_limit 0), every deal kept is one the greedy rule keeps, and each of the 55 as often as the
    others (chi-square over 2,200 deals, p > 0.001), drawn in rounds of 2,200 lawful deals."""
    p = POSITIONS["a fifteen taken, then the highest card that scored nothing"]
    samples = 2_200
    deals, _, enumerated, drew, conditioned = read_deals(_situation(p), PLAYOUT, samples, 3, exact_limit=0)
    assert not enumerated and not drew and len(deals) == samples
    tried = int(conditioned.split(" deals kept of ")[1].split(" ")[0].replace(",", ""))
    assert tried % samples == 0 and samples < tried <= 20 * samples
    kept = set(lawful_deals(**_plain(p), keep=as_greedy_lays())[0])
    dealt = [frozenset(int(c) for c in d) for d in deals]
    assert set(dealt) == kept and len(kept) == 55
    counts = np.unique([sorted(d) for d in dealt], axis=0, return_counts=True)[1]
    assert stats.chisquare(counts).pvalue > 1e-3


def test_sampled_deals_hold_to_the_longest_run_enough_deals_agree_with():
    """Sampled, no deal agrees with both of the dealer's cards: the deals kept agree with his first, and the
    output says so."""
    frame = advise(_situation(FALLBACK), PLAYOUT, samples=100, seed=1, policies=(), exact_limit=0)
    assert frame.attrs["method"] == "rollouts" and frame.attrs["deals"] == 100
    assert frame.attrs["conditioned"].endswith(
        "100 deals kept of 2,000 tried; only the first 1 of these 2 cards held to (fewer than 100 of the deals "
        "tried agree with more)"
    )


def test_a_playout_that_draws_random_numbers_is_not_exact():
    """Every lawful deal enumerated, but the random pegging keeps a deal with the chance it lays his cards, and
    plays out with its own draws: sampled ("rollouts"), with a standard error."""
    p = POSITIONS["a fifteen taken, then the highest card that scored nothing"]
    columns, attrs = peg_advice(_situation(p), "random", policies=())
    assert attrs["method"] == "rollouts" and min(columns["se"]) > 0
    laws = peg_advice(_situation(p), "random", policies=(), infer="laws")
    assert laws[1]["method"] == "rollouts" and laws[1]["conditioned"].endswith("alone")


def test_the_laws_alone_deal_as_before():
    """``infer="laws"`` keeps :func:`hidden_deals`' deals: the values over every lawful deal."""
    p = POSITIONS["a fifteen taken, then the highest card that scored nothing"]
    columns, attrs = peg_advice(_situation(p), PLAYOUT, policies=(), infer="laws")
    assert attrs["deals"] == len(hidden_deals(_situation(p), 100, 0)[0]) == 903
    expected = lawful_values(**_plain(p), policy=greedy)[0]
    assert dict(zip(columns["card"], columns["value"])) == pytest.approx(_named(expected), abs=1e-12)


def test_a_bad_inference_is_one_line():
    with pytest.raises(ValueError, match="infer is one of playout, laws"):
        peg_advice(_situation(FALLBACK), PLAYOUT, policies=(), infer="hunch")


def test_a_game_the_playout_played_agrees_with_itself():
    """Two games of ``position_distilled`` self-play (which reads the score): at each of a player's turns, some
    lawful deal of the other's cards agrees with every card the other laid, as the policy saw the play then (the
    count, the goes, the scores less what was pegged since) -- the deal he held does."""
    from sims.core.table import play

    seen = []
    play(
        "cribbage",
        "six-card",
        [{"discard": "position_distilled", "peg": "position_distilled"}] * 2,
        seed=5,
        games=2,
        on_decision=lambda decided: seen.append(decided.situation) if decided.situation.DECISION == "peg" else None,
    )
    read = [read_deals(s, "position_distilled", 50, 0)[4] for s in seen if s.score and s.score != (0, 0)]
    read = [text for text in read if "as the playout pegging" in text]
    assert len(read) > 100 and not [text for text in read if "held to" in text]


def test_sims_peg_reads_the_laws_alone_with_infer_laws(capsys):
    """``--infer laws`` reaches the advisor: the README's position, every lawful deal played and none read from
    the cards the pone laid."""
    from sims.cli import main

    position = ["7H", "8C", "5D", "--played", "KS,2S,5H", "--starter", "2C", "--dealer", "--json"]
    assert main(["peg", *position, "--infer", "laws"]) == 0
    laws = json.loads(capsys.readouterr().out)
    assert main(["peg", *position]) == 0
    read = json.loads(capsys.readouterr().out)
    assert laws["conditioned"].endswith("alone") and (laws["deals"], read["deals"]) == (990, 268)
