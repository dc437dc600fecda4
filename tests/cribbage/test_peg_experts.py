"""The expert players against the advisor where it is exact (issue 34, item 3): 2,000 seeded positions at the
end of the play (:func:`tests.cribbage.lawful_play.random_position`: my two cards, his one at most, so every
decision after mine is forced and the advisor enumerates every lawful deal), kept where the best card beats
the runner-up by at least :data:`MARGIN` points.  The advisor deals from the laws alone (``infer="laws"``), as
the experts read the other's hand (his goes, not which cards he chose to lay: the positions are played at
random).  The score is 0-0: ``position_distilled`` then plays as
``distilled_end`` (the game's zone is far), and the best card is the one of most points."""

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
        columns, attrs = peg_advice(situation, policies=(), infer="laws")
        assert attrs["method"] == "exact"
        if columns["value"][0] - columns["value"][1] < MARGIN:
            continue
        rows.append(
            (
                columns["card"][0],
                any(situation.at.room),
                {name: player.choose(situation) for name, player in players.items()},
            )
        )
    return rows


@pytest.mark.parametrize("policy", ["position_distilled", "distilled_end"])
def test_lays_a_best_card(decided, policy):
    """Both solve the end exactly over the lawful deals: a player who said go, or could not lay, holds only
    cards above the room the count left him (``state[S_ROOM]``), as the advisor deals them."""
    missed = [narrowed for best, narrowed, choices in decided if choices[policy] != best]
    assert not missed, f"{len(missed)} of {len(decided)} ({sum(missed)} narrowed by a go)"


def test_a_go_narrows_many_of_the_positions(decided):
    """The positions test the go's inference: 1,219 of the 2,000 are narrowed by one."""
    assert sum(narrowed for _, narrowed, _ in decided) == 1219
