"""The core refactor changed no cribbage number: every total, histogram and row is bit-identical to the
engine of commit 9ecc7a3 for the same seed (``tests/cribbage/golden/``, made by ``tests/cribbage/golden/make_golden.py``
run against that commit)."""

import json
from pathlib import Path

import numpy as np
import pytest

from sims.core.api import simulate
from sims.cribbage.engine import DEAL_BINS, HIST_BINS, role_names, side_names
from sims.cribbage.play import COMPONENTS, G_DEALS, G_FIRST_DEAL, G_FIRST_DEALER, G_SCORE, G_WINNER

GOLDEN = Path(__file__).parent / "golden"
CASES = json.loads((GOLDEN / "cribbage_9ecc7a3.json").read_text())["cases"]
ARRAYS = np.load(GOLDEN / "cribbage_9ecc7a3.npz")


def _grid(frame, scope, who, components=COMPONENTS):
    t = frame[frame["scope"] == scope].set_index(["who", "component"])
    return {col: np.array([[t.loc[(w, c), col] for c in components] for w in who]) for col in ("n", "sum", "sumsq")}


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "deals"], ids=lambda c: c["id"])
def test_deals_identical(case):
    old = {k.split("_", 1)[1]: ARRAYS[k] for k in ARRAYS.files if k.startswith(case["id"] + "_")}
    result = simulate(
        "cribbage", "deals", case["rules"], case["policies"], case["n"], case["seed"], records=case["records"]
    )
    rules = result.job.rules
    roles, seats = role_names(rules), [f"seat {s}" for s in range(rules.players)]
    by_role, by_seat = _grid(result.batch.totals, "role", roles), _grid(result.batch.totals, "seat", seats)
    np.testing.assert_array_equal(by_role["sum"], old["role_sums"][: len(roles)])
    np.testing.assert_array_equal(by_role["sumsq"], old["role_sumsq"][: len(roles)])
    np.testing.assert_array_equal(by_seat["sum"], old["seat_sums"][: rules.players])
    np.testing.assert_array_equal(by_seat["sumsq"], old["seat_sumsq"][: rules.players])
    np.testing.assert_array_equal(by_seat["n"][:, 0], old["seat_n"][: rules.players])
    hist = np.stack([result.histograms[r].to_numpy().T for r in roles])
    np.testing.assert_array_equal(hist, old["hist"][: len(roles), :, :HIST_BINS])
    if case["records"]:
        rec = result.records
        np.testing.assert_array_equal(rec["deal"], old["record_index"])
        for r, role in enumerate(roles):
            for k, comp in enumerate(COMPONENTS):
                np.testing.assert_array_equal(rec[f"{role}_{comp}"], old["records"][:, r, k])


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "games"], ids=lambda c: c["id"])
def test_games_identical(case):
    old = {k.split("_", 1)[1]: ARRAYS[k] for k in ARRAYS.files if k.startswith(case["id"] + "_")}
    rows = old["rows"]
    flat = simulate("cribbage", "games", case["rules"], case["policies"], case["n"], case["seed"])
    full = simulate(
        "cribbage",
        "games",
        case["rules"],
        case["policies"],
        case["n"],
        case["seed"],
        records=True,
        score_log=case["score_log"],
    )
    rules = full.job.rules
    sides = side_names(rules)
    games = full.games
    np.testing.assert_array_equal(games["game"], old["record_index"])
    for col, g in (("first_dealer", G_FIRST_DEALER), ("winner", G_WINNER), ("deals", G_DEALS)):
        np.testing.assert_array_equal(games[col], rows[:, g])
    for s in range(len(sides)):
        np.testing.assert_array_equal(games[f"score_{s}"], rows[:, G_SCORE + s])
        np.testing.assert_array_equal(games[f"first_deal_{s}"], rows[:, G_FIRST_DEAL + s])
    # The flat totals of a run without rows agree with the old rows, count for count.
    for result in (flat, full):
        for s, side in enumerate(sides):
            assert result.batch.total("side", side, "wins")[1] == int((rows[:, G_WINNER] == s).sum())
        _, deals, deals_sq = result.batch.total("game", "all", "deals")
        assert (deals, deals_sq) == (int(rows[:, G_DEALS].sum()), int((rows[:, G_DEALS] ** 2).sum()))
        first_side = rows[:, G_FIRST_DEALER] % 2 if rules.partners else rows[:, G_FIRST_DEALER]
        assert result.batch.total("first_dealer", "first dealer's side", "wins")[1] == int(
            (rows[:, G_WINNER] == first_side).sum()
        )
        losers = np.concatenate([rows[rows[:, G_WINNER] != s, G_SCORE + s] for s in range(len(sides))])
        counts = result.loser_score_counts()
        assert counts.to_dict() == dict(zip(*np.unique(losers, return_counts=True)))
        assert result.deal_count_histogram().sum() == case["n"] and rows[:, G_DEALS].max() < DEAL_BINS
    if case["score_log"]:
        log = full.score_log()
        logs = old["logs"]
        for row in log.sample(200, random_state=0).itertuples():
            i = row.game
            assert row.deal < rows[i, G_DEALS]
            assert (row.dealer, row.score_0, row.score_1) == tuple(logs[i, row.deal, :3])
        assert len(log) == int(np.minimum(rows[:, G_DEALS], logs.shape[1]).sum())
