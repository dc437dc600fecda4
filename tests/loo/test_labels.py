"""Loo's counts say what they count: ``carried_on`` (the looes a deal carries into the next pool, without the next
dealer's stake), ``looed of stands`` against ``looed of deals``, the number looed in a deal, and the pool by
deal of a session with its quantiles.  Stacked deals counted by hand, and exact agreement with per-deal records.
"""

import numpy as np
import pytest

from sims.loo import get_rules, play_games, simulate_deals
from sims.loo.engine import play_stacked, role_names
from sims.loo.play import INFO

from tests.loo.test_laws import THREE, replay

RANDOM = {"declare": "random", "exchange": "random", "card": "random"}


def test_carried_on_is_the_looes_without_the_next_stake():
    """The lead law of Mottoes replayed: the dealer takes no trick and is looed 3 (the stake): the deal carries on 3;
    the next pool will be that and the next dealer's stake, 6, but ``carried_on`` is the 3 alone."""
    deal = replay(THREE, ["AS 7C 9D", "5H QH 3C", "KH 4S 2D"], "2H", miss="KC KD 6S")
    assert deal.looed == {0} and deal.carried_on == 3
    assert deal.info()[INFO.index("carried_on")] == 3 and deal.carried_on + THREE.stake == 6


def test_carried_on_is_one_stake_a_looe_in_limited_loo():
    """Five players all standing on a pack in id order, nothing held over: the deal carries on the stake (3) for
    each player looed, and nothing else."""
    rules = get_rules("three-card")
    out, info, _ = play_stacked(
        rules, {"declare": "always", "exchange": "keep", "card": "greedy"}, np.arange(52, dtype=np.int64), 0, 0
    )
    looed = int(out[:, 4].sum())  # O_LOOED = 4
    assert looed >= 1 and info[INFO.index("carried_on")] == rules.stake * looed


@pytest.mark.parametrize("preset", ["three-card", "five-card-pam"])
def test_looed_of_stands_and_of_deals_match_the_records(preset):
    """By place: 'looed of stands' = deals looed / deals stood; 'looed of deals' = deals looed / all deals;
    and the number looed per deal is the records' row sums, exactly."""
    n = 20_000
    result = simulate_deals(preset, RANDOM, n, seed=21, records=True)
    rec, roles = result.records, result.summary["roles"]
    for role in role_names(result.job.rules.players):
        looed, stood = int(rec[f"{role}_looed"].sum()), int(rec[f"{role}_stood"].sum())
        assert roles[role]["looed of stands"]["rate"] == pytest.approx(looed / stood, abs=1e-15)
        assert roles[role]["looed of deals"]["rate"] == pytest.approx(looed / n, abs=1e-15)
        assert "looed" not in roles[role]
    per_deal = sum(rec[f"{role}_looed"] for role in role_names(result.job.rules.players))
    counts = per_deal.value_counts()
    table = result.looed_per_deal().set_index("looed")
    assert (table["deals"] == counts.reindex(table.index, fill_value=0)).all()
    assert sum(result.summary["looed_per_deal"].values()) == pytest.approx(1.0)


def test_pool_by_deal_quantiles_in_stakes():
    """Limited loo: the first deal of a session is a single (only the dealer's stake), so every quantile of
    deal 1 is 1 stake; every pool is a whole number of stakes, so the histogram's mean is the mean pool."""
    result = play_games("three-card", RANDOM, 2_000, seed=3)
    pools = result.pool_by_deal()
    first = pools.iloc[0]
    assert [first[q] for q in ("q25", "median", "q75", "q90", "largest")] == [1, 1, 1, 1, 1]
    assert (pools["q25"] <= pools["median"]).all() and (pools["median"] <= pools["q75"]).all()
    assert (pools["q75"] <= pools["q90"]).all() and (pools["q90"] <= pools["largest"]).all()
    h = result.batch.histograms.query("scope == 'deal number' and component == 'pool in stakes'")
    stake = get_rules("three-card").stake
    for d in (2, 10, len(pools)):
        hd = h[h["who"] == f"deal {d}"]
        assert (hd["value"] * hd["count"]).sum() * stake / hd["count"].sum() == pytest.approx(
            pools.loc[d - 1, "pool"], rel=1e-12
        )
    assert len(result.summary["pool_by_deal"]) == result.job.rules.session_deals
