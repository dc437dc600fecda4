"""Cribbage's notebook helpers (sims.cribbage.notebook.helpers): the exact show counts beside the published ones,
per-event pegging points against the engine's, paired differences and seat margins on common deals, and the
threshold table of the first non-dealer's preference."""

from __future__ import annotations

import numpy as np
import pytest

from sims.analysis.notebook_helpers import as_chart
from sims.cribbage.claims.measures import published_hand_counts
from sims.cribbage.notebook import helpers as cnh

GREEDY = {"discard": "greedy", "peg": "greedy"}


def test_impossible_scores_of_the_exact_distributions():
    import pandas as pd

    from sims.cribbage import show_distribution

    counts = pd.DataFrame({"hand": show_distribution(crib=False), "crib": show_distribution(crib=True)})
    assert cnh.impossible_scores(counts) == {"hand": [19, 25, 26, 27], "crib": [19, 25, 26, 27]}
    published = published_hand_counts()
    assert (published.reindex(counts.index, fill_value=0).to_numpy() == counts["hand"].to_numpy()).all()


@pytest.mark.parametrize("rules", ["five-card", "six-card", "three-hand"])
def test_peg_events_add_up_to_the_engines_go_and_pegging(rules):
    """Same seed, same deals: end hole + last card is the compiled engine's go, the sum its pegging."""
    from sims.cribbage import simulate_deals

    policies = {"discard": "greedy", "peg": "defensive"}
    events = cnh.peg_events(rules, policies, 300, 5).set_index(["role", "component"])["mean"]
    engine = simulate_deals(rules, policies, 300, 5).table().set_index(["role", "component"])["mean"]
    for role in engine.index.get_level_values("role").unique():
        assert events[role, "end hole"] + events[role, "last card"] == pytest.approx(engine[role, "go"], abs=1e-12)
        assert events[role, "pegging"] == pytest.approx(engine[role, "pegging"], abs=1e-12)


def test_paired_components_and_seat_margins():
    from sims.cribbage import simulate_deals

    a = simulate_deals("six-card", GREEDY, 500, 2, records=True)
    b = simulate_deals("six-card", GREEDY, 500, 2, records=True)
    same = cnh.paired_components(a, b)
    assert (same["estimate"] == 0).all() and (same["lo"] == 0).all()
    other = simulate_deals("six-card", GREEDY, 400, 2, records=True)
    with pytest.raises(ValueError, match="same deals"):
        cnh.paired_components(a, other)
    with pytest.raises(ValueError, match="records=True"):
        cnh.paired_components(a, simulate_deals("six-card", GREEDY, 500, 2))
    margins = cnh.seat_margins(a, seat=0).set_index("component")
    rec = a.records
    sign = np.where(rec["dealer"] == 0, 1, -1)
    assert margins.loc["total", "estimate"] == pytest.approx((sign * (rec["dealer_total"] - rec["pone_total"])).mean())
    flipped = cnh.seat_margins(a, seat=1).set_index("component")
    assert flipped.loc["total", "estimate"] == pytest.approx(-margins.loc["total", "estimate"])


def test_preference_by_threshold_keeps_thresholds_no_game_meets():
    from sims.cribbage import play_games

    games = play_games("six-card-61", GREEDY, 300, 4, records=True).games
    table = cnh.preference_by_threshold(games, [10, 60])
    assert table["n"].iloc[0] > 0 and table["n"].iloc[1] == 0 and np.isnan(table["estimate"].iloc[1])
    assert as_chart(table)["label"].tolist() == ["10+"]
