"""Money is conserved (issue 11, must-have 5): in every deal what the players paid and took adds up to
what the pool held over less what it carries on; in every session the seats' money and the pool left on
the table add up to nothing.  Checked on millions of random deals from the kernels' exact totals, deal by
deal on per-deal records, and in the results' own check."""

import numpy as np
import pytest

from sims.loo import PRESETS, play_games, simulate_deals
from sims.loo.engine import role_names

RANDOM = {"declare": "random", "exchange": "random", "card": "random"}
ALWAYS = {"declare": "always", "exchange": "keep", "card": "random"}


def test_two_million_random_deals_conserve_money():
    result = simulate_deals("three-card", RANDOM, 2_000_000, seed=1)
    money = result.money()
    assert money["conserved"] and money["carried_in"] == 2_000_000 * 3
    assert result.summary["money"]["conserved"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_table_size_conserves_money(preset):
    """3 to 10 players, random and always-standing play: 40,000 deals each (2.56 million in all)."""
    for players in range(3, 11):
        rules = PRESETS[preset].replace(players=players)
        for policies in (RANDOM, ALWAYS):
            assert simulate_deals(rules, policies, 40_000, seed=players).money()["conserved"], (players, policies)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("clean", [False, True])
def test_money_is_conserved_deal_by_deal(preset, clean):
    rules = PRESETS[preset].replace(players=7)
    rec = simulate_deals(rules, RANDOM, 50_000, seed=5, records=True, clean=clean).records
    paid = sum(rec[f"{role}_money"] for role in role_names(7))
    assert (paid == rec["carry"] - rec["carried_on"]).all()
    assert (rec["carry"] == (0 if clean else rules.stake)).all()
    # What was taken from the pool is the whole pool, unless the deal ended in nobody's favour.
    taken = sum(rec[f"{role}_won"] for role in role_names(7))
    assert (taken == rec["pool"]).all()


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [3, 5, 10])
def test_sessions_conserve_money(preset, players):
    rules = PRESETS[preset].replace(players=players)
    for policies in (RANDOM, ALWAYS):
        result = play_games(rules, policies, 300, seed=players, records=True)
        assert result.money()["conserved"]
        games = result.games
        seats = games[[f"money_{s}" for s in range(players)]].sum(axis=1)
        assert (seats + games["pool_left"] == 0).all()


def test_unlimited_pools_stay_within_the_loo_limit():
    """Ten players always standing loo seven a deal: the unlimited pool climbs to the looe cap at once."""
    rules = PRESETS["three-card-unlimited"].replace(players=10, loo_limit=300)
    result = play_games(rules, ALWAYS, 50, seed=1, records=True)
    assert result.money()["conserved"]
    largest = result.games["largest_pool"]
    assert largest.max() <= 3 + 9 * 300 and largest.min() > 300
    assert np.isclose(
        result.pool_by_deal()["pool"].iloc[-1], 3 + 300 * result.summary["deal"]["carried_on"]["mean"] / 300, rtol=0.2
    )
