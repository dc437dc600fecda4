"""The expert players against the advisor where it is exact (issue 34, item 3): 2,000 seeded positions at the
end of the play (:func:`tests.cribbage.lawful_play.random_position`: my two cards, his one at most, so every
decision after mine is forced and the advisor enumerates every lawful deal), kept where the best card beats
the runner-up by at least :data:`MARGIN` points.  The score is 0-0: ``position_distilled`` is then
``distilled`` (the game's zone is far), and the best card is the one of most points."""
import numpy as np
import pytest

from sims.cribbage.advice import Player, peg_advice
from sims.cribbage.situation import PegSituation

from .lawful_play import random_position

POSITIONS = 2_000
MARGIN = 0.05


@pytest.fixture(scope="module")
def decided():
    """``(best card, narrowed by a go, {policy: card})`` of each position."""
    players = {name: Player(name) for name in ("position_distilled", "distilled_end")}
    rng = np.random.default_rng(34)
    rows = []
    while len(rows) < POSITIONS:
        p = random_position(rng)
        if p is None:
            continue
        situation = PegSituation(p["hand"], p["played"], p["me"], p["starter"], p["thrown"], laid_by=p["laid_by"])
        columns, attrs = peg_advice(situation, policies=())
        assert attrs["method"] == "exact"
        if columns["value"][0] - columns["value"][1] < MARGIN:
            continue
        rows.append((columns["card"][0], any(situation.at.room),
                     {name: player.choose(situation) for name, player in players.items()}))
    return rows


@pytest.mark.xfail(strict=True, reason="distilled pegging (position_distilled outside the game's zone) lays a "
                                       "worse card in 402 of the 2,000 positions (124 of them with no go): its "
                                       "distilled tables are not exact at the end of the play; an exact end "
                                       "would change the report's figures, so it is left as it is")
def test_position_distilled_lays_a_best_card(decided):
    missed = sum(choices["position_distilled"] != best for best, _, choices in decided)
    assert missed == 0, f"{missed} of {len(decided)}"


def test_distilled_end_lays_a_best_card_wherever_no_go_narrows_the_deals(decided):
    """``distilled_end`` solves the end exactly over uniform deals of the unseen cards; a pegging policy is
    not told who laid which card, so it cannot draw the go's inference and misses only where a go narrows
    the deals (35 of the 2,000 positions; 1,219 are narrowed)."""
    missed = [narrowed for best, narrowed, choices in decided if choices["distilled_end"] != best]
    assert all(missed), f"{len(missed) - sum(missed)} misses without a go"
    assert sum(narrowed for _, narrowed, _ in decided) == 1219
