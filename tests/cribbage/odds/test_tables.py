"""Board-position tables (sims.cribbage.odds): backward induction against hand-worked positions and a
plain recursion over the same deals, jackknife intervals, the table against whole games played on from
sample positions, the same numbers on any number of threads or Dask workers, files, and bad input."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from sims.core.kernel import njit  # cached by every source it reaches, not its own file only
from sims.cribbage import play_games
from sims.cribbage.contract import S_COUNT, S_MY_SCORE, is_legal_play
from sims.cribbage.lab.odds import timings
from sims.cribbage.lab.odds.build import win_table
from sims.cribbage.lab.odds.direct import games_from
from sims.cribbage.lab.odds.induction import jackknife, solve
from sims.cribbage.lab.odds.timings import POINTS, ROLE
from sims.cribbage.odds.layout import PLAYERS, POSITION_PLAYERS
from sims.cribbage.odds.table import read_table, shipped_path, shipped_table
from sims.cribbage.rules import get_rules
from tests.cribbage.odds.test_timings import deals, outcome

EXPERT = {"discard": "expected_net", "peg": "defensive"}


def counts_from(event_lists, target):
    counts = np.zeros((3, target + 1, target + 1), dtype=np.int64)
    for ev in event_lists:
        ev = np.ascontiguousarray(ev)
        timings.add_timings(target, ev, ev.shape[1], counts)
    return counts


def events(pairs):
    """An event list from (role, points) pairs."""
    ev = np.zeros((timings.EV_ROWS, len(pairs)), dtype=np.int64)
    for e, (role, points) in enumerate(pairs):
        ev[ROLE, e], ev[POINTS, e] = role, points
    return ev


def test_two_point_game_worked_by_hand():
    # Target 2; half the deals the pone pegs 1 and then the dealer 1, half the dealer scores 2.
    # W(1,1): the pone counts out first in deal A, the dealer in B: 1/2.  W(1,0): the dealer wins in
    # both.  W(0,1): the pone wins in A, the dealer in B.  W(0,0): A leaves both on 1 with the old pone
    # dealing: 1 - W(1,1); B wins.  Game points with a lurch below 1 (a win 1, a lurch 2): G(1,1): -1
    # in A, +1 in B; G(1,0): +1 (pone ends on 1) and +2 (pone on 0); G(0,1): -2 (dealer lurched on 0)
    # and +1; G(0,0): -G(1,1) and +2.
    counts = counts_from([events([(1, 1), (0, 1)]), events([(0, 2)])], 2)
    win, gp = solve(2, counts, 2, lurch=1, double_lurch=0, points=(1, 2, 3))
    assert win.tolist() == [[0.75, 0.5], [1.0, 0.5]]
    assert gp.tolist() == [[1.0, -0.5], [1.5, 0.0]]


def test_induction_is_the_plain_recursion_over_the_same_deals():
    # Real six-card deals, a short game to 25 so that most positions end within a deal or two; the
    # recursion plays every deal's events from every position (counting out event by event).
    _, ev, n_ev, _, _, _ = deals("six-card", 300, seed=11)
    lists = [ev[g, :, : n_ev[g]] for g in range(len(n_ev))]
    target = 25
    win, _ = solve(target, counts_from(lists, target), len(lists), lurch=0, double_lurch=0)

    @cache
    def w(d, p):
        total = 0.0
        for e in lists:
            who, have = outcome(e, target - d, target - p)
            total += 1.0 if who == 0 else 0.0 if who == 1 else 1.0 - w(p + have[1], d + have[0])
        return total / len(lists)

    for d in range(0, target, 3):
        for p in range(0, target, 4):
            assert win[d, p] == pytest.approx(w(d, p), abs=1e-12)


def test_jackknife_with_equal_groups_is_the_textbook_formula():
    rng = np.random.default_rng(1)
    lists = [
        events([(int(r), int(x)) for r, x in zip(rng.integers(0, 2, 6), rng.integers(1, 6, 6))]) for _ in range(60)
    ]
    target = 12
    counts = np.stack([counts_from(lists[g::4], target) for g in range(4)])
    win, win_se, _, _ = jackknife(target, counts, np.full(4, 15), 0, 0)
    left_out = np.stack([solve(target, counts.sum(0) - counts[g], 45, 0, 0)[0] for g in range(4)])
    textbook = np.sqrt(3 / 4 * ((left_out - left_out.mean(0)) ** 2).sum(0))
    assert np.allclose(win_se, textbook, atol=1e-12)
    assert np.array_equal(win, solve(target, counts.sum(0), 60, 0, 0)[0])


@pytest.fixture(scope="module")
def table61():
    return win_table("six-card-61", EXPERT, n_deals=60_000, seed=3, groups=10)


POSITIONS = [(0, 0), (35, 37), (50, 50), (56, 58), (58, 52), (45, 45)]


def test_table_agrees_with_games_played_on_from_sample_positions(table61):
    # The direct check: whole games from each position with the engine's own counting out, on other
    # random streams.  The difference must lie within 4 standard errors of the two estimates combined.
    direct = games_from("six-card-61", EXPERT, POSITIONS, 3000, seed=21)
    for row in direct.itertuples():
        at = table61.at(row.dealer, row.pone)
        table_se = table61.win_se[row.dealer, row.pone]
        games_se = np.sqrt(row.win * (1 - row.win) / row.games)
        assert abs(at["win"] - row.win) < 4 * np.hypot(table_se, games_se), row
        gp_se = table61.game_points_se[row.dealer, row.pone]
        assert abs(at["game_points"] - row.game_points) < 4 * np.hypot(gp_se, row.game_points_se), row


def test_first_dealer_rate_is_the_table_at_love_all(table61):
    # A whole game from the cut (sims.cribbage.play_games) is the table at (0, 0).
    games = play_games("six-card-61", EXPERT, 6000, seed=4)
    first = games.summary["first_dealer_win"]
    se = np.sqrt(first["rate"] * (1 - first["rate"]) / 6000)
    assert abs(first["rate"] - table61.win[0, 0]) < 4 * np.hypot(se, table61.win_se[0, 0])


def test_the_jackknife_standard_errors_are_the_spread_over_seeds(table61):
    assert 0 <= table61.win.min() and table61.win.max() <= 1
    # A dealer one point from home almost always wins; a pone one from home wins unless the dealer pegs
    # out or turns a jack first.
    assert table61.win[60, 30] > 0.99 and table61.win[30, 60] < 0.05
    # Eight tables from other seeds: at the open positions, the spread of their estimates over the seeds
    # must match the standard errors they report (the ratio averaged over positions, within 0.7 .. 1.4;
    # one ratio from 8 seeds alone has a relative error of about 25%).
    tables = [win_table("six-card-61", EXPERT, n_deals=15_000, seed=100 + k, groups=10) for k in range(8)]
    wins = np.stack([t.win for t in tables])
    ses = np.stack([t.win_se for t in tables])
    open_ = (table61.win > 0.1) & (table61.win < 0.9)
    ratio = wins.std(0, ddof=1)[open_] / ses.mean(0)[open_]
    assert 0.7 < ratio.mean() < 1.4, ratio.mean()


@pytest.mark.xdist_group("dask")  # the two worker processes of tests/core/test_dask.py (tests/conftest.py)
def test_same_numbers_on_one_or_two_threads_and_on_dask(dask_workers):
    one = win_table("five-card", EXPERT, n_deals=6000, seed=8, groups=4, threads=1)
    two = win_table("five-card", EXPERT, n_deals=6000, seed=8, groups=4, threads=2)
    assert np.array_equal(one.win, two.win) and np.array_equal(one.win_se, two.win_se)
    dask = win_table("five-card", EXPERT, n_deals=6000, seed=8, groups=4, client=dask_workers)
    assert np.array_equal(one.win, dask.win) and np.array_equal(one.game_points_se, dask.game_points_se)


@pytest.mark.parametrize("suffix, quantized", [(".csv", False), (".parquet", False), (".parquet", True)])
def test_files_round_trip(tmp_path, table61, suffix, quantized):
    path = table61.write(tmp_path / f"t{suffix}", quantized=quantized)
    back = read_table(path, "six-card-61")
    tol = 1e-5 if quantized or suffix == ".csv" else 0
    assert np.allclose(back.win, table61.win, atol=tol) and np.allclose(back.win_se, table61.win_se, atol=tol)
    assert np.allclose(back.game_points, table61.game_points, atol=max(tol, 1e-4 if quantized else 0))
    assert back.provenance["seed"] == 3 and back.rules == table61.rules
    assert np.array_equal(back.model.cribs, table61.model.cribs)


def test_bad_input(tmp_path, table61):
    with pytest.raises(ValueError, match="0..60"):
        table61.at(61, 3)
    with pytest.raises(ValueError, match="pone's score"):
        table61.at(3, -1)
    path = table61.write(tmp_path / "t.parquet")
    with pytest.raises(ValueError, match="made for 'six-card-61'.*target 61.*not for 'six-card'"):
        read_table(path, "six-card")
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not a board-position table"):
        read_table(tmp_path / "x.csv")
    with pytest.raises(ValueError, match="does not exist"):
        read_table(tmp_path / "none.parquet")
    with pytest.raises(ValueError, match="for two players"):
        win_table("three-hand", EXPERT, n_deals=100)
    with pytest.raises(ValueError, match="one peg policy at both seats"):
        win_table("six-card", {"discard": "expected_net", "peg": ["defensive", "greedy"]}, n_deals=100)
    with pytest.raises(ValueError, match="no table ships"):
        shipped_path(get_rules("six-card").replace(target=91))


@njit(cache=True)
def peg_by_score(hand, played, state, rules, rng, params):
    """The first card that fits, or the last one when near home: a policy that looks at the score."""
    pick = -1
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, state[S_COUNT]):
            if pick < 0 or state[S_MY_SCORE] > 40:
                pick = i
    return pick


def test_a_policy_that_looks_at_the_score_is_refused():
    with pytest.raises(ValueError, match="ignore the score"):
        win_table("six-card-61", {"discard": "expected_net", "peg": peg_by_score}, n_deals=2000, groups=2)


def test_point_and_deal_values_worked_by_hand():
    # The two-point game above: W = [[.75, .5], [1, .5]] (rows: the dealer's score).  Holding the deal at
    # (d, p) is worth W(d, p) - (1 - W(p, d)); one more point to the dealer at (0, 0) is worth 1 - .75,
    # one more to the pone costs him .75 - .5.
    from sims.cribbage.odds.table import OddsTable

    counts = counts_from([events([(1, 1), (0, 1)]), events([(0, 2)])], 2)
    win, gp = solve(2, counts, 2, lurch=1, double_lurch=0, points=(1, 2, 3))
    rules = get_rules("six-card").replace(target=2, lurch=0, double_lurch=0)
    table = OddsTable(rules, win, np.zeros_like(win), gp, np.zeros_like(gp), {"groups": 2})
    assert table.deal_values().tolist() == [[0.5, 0.5], [0.5, 0.0]]
    values = table.point_values()
    assert values[["mine", "his", "offence"]].iloc[0].tolist() == [0.25, 0.25, 0.5]


@pytest.mark.parametrize("players", [p for p in PLAYERS if p != POSITION_PLAYERS])  # tables from deal timings
@pytest.mark.parametrize("rules", ["six-card", "six-card-61", "five-card"])
def test_every_shipped_table_says_whose_it_is_and_a_fresh_build_agrees(rules, players):
    # Each shipped table's provenance names its players (both seats), its deals, seed and code version.
    table = shipped_table(rules, players)
    p = table.provenance
    assert {d: {s["name"] for s in seats} for d, seats in p["policies"].items()} == {
        d: {name} for d, name in PLAYERS[players].items()
    }
    assert (p["n"], p["seed"], p["groups"]) == (1_000_000, 0, 20) and p["version"] and p["git_commit"]
    assert table.model is not None and table.model.totals.sum() == 1_000_000
    assert shipped_path(rules, players).stat().st_size < 200_000  # small package data
    # A fresh table of the same players from other deals (seed 5, 20,000 deals) agrees with it within 4.5
    # combined standard errors at every open position (a 4.5 sigma slip has a chance of about one in 150,000 at
    # each), and everywhere within that plus 0.05 percentage points: near-certain positions turn only on rare
    # deals that 20,000 deals may not hold, where the jackknife sees no error, and the file keeps the chance to
    # 1/65535.
    fresh = win_table(rules, PLAYERS[players], n_deals=20_000, seed=5, groups=10)
    gap, se = np.abs(fresh.win - table.win), np.hypot(fresh.win_se, table.win_se)
    open_ = (table.win > 0.02) & (table.win < 0.98)
    assert (gap[open_] < 4.5 * se[open_]).all() and (gap < 4.5 * se + 5e-4).all()
    assert gap[0, 0] < 4 * se[0, 0]
