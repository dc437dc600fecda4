"""Board position speed (issues 12 and 20): the full 121x121 table within +-0.5 percentage points, built on
this process's threads and on Dask workers (the same table, checked), for expected_net + defensive and for
expected_peg + distilled; the backward induction with its jackknife, the position-aware players' cost where
they play for the game, the position-aware table's zone, and the distilled pegging policy's rate (aim:
>= 50,000 deals/s on 2 cores)."""

from __future__ import annotations

import os
import time

import numba
import numpy as np

from ..lab.odds.build import counts_of, timing_job, win_table
from ..lab.odds.direct import games_from
from ..lab.odds.induction import jackknife
from ..lab.odds.position import zone_deals
from ..odds.layout import PLAYERS
from ..odds.table import shipped_table
from ..policies.distilled import distilled_policy
from ..policies.position import position_policies
from ..simulate import simulate_deals

NAME = "odds"
# A 121x121 table within +-0.5 percentage points at every position: the largest 95% half-width of the shipped
# 1,000,000-deal tables is 0.13-0.14 points and shrinks as 1/sqrt(deals), so 200,000 deals give about 0.3 (the
# bench prints the half-width it gets, and the largest gap to the shipped table of the same players).
TABLE_DEALS = 200_000
TABLE_SEED = 1  # other deals than the shipped tables' (seed 0), so the gap to them is a fair check
HALF_WIDTH_GOAL = 0.5  # percentage points
NEAR_HOME = [(100, 100), (110, 95), (95, 110), (115, 112), (90, 85), (85, 90)]


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _same(a, b) -> bool:
    """Two tables hold the same numbers, bit for bit (the deal model too)."""
    return all(
        np.array_equal(getattr(a, k), getattr(b, k)) for k in ("win", "win_se", "game_points", "game_points_se")
    ) and all(np.array_equal(getattr(a.model, k), getattr(b.model, k)) for k in ("rest", "hands", "cribs", "totals"))


def table_rows(players: str = "expected_peg+distilled", workers: int = 2) -> list[dict]:
    """The six-card table of ``players``' self-play from :data:`TABLE_DEALS` deals: its build time on this
    process's threads and on a local Dask cluster of ``workers`` single-threaded workers (started and warmed
    first), its largest 95% half-width, its largest gap to the shipped table, and whether the two builds are
    the same table."""
    from ...core.executors import dask_client

    policies = PLAYERS[players]
    threads = numba.config.NUMBA_NUM_THREADS
    win_table("six-card", policies, n_deals=20_000)  # compile
    holder = {}
    seconds = _seconds(lambda: holder.update(t=win_table("six-card", policies, TABLE_DEALS, TABLE_SEED)))
    table = holder["t"]
    half = 100 * table.half_width * table.win_se.max()
    gap = 100 * np.abs(table.win - shipped_table("six-card", players).win).max()
    rows = [
        {
            "what": f"six-card 121x121 table, {players}, {TABLE_DEALS:,} deals (play + induction + jackknife)",
            "threads": threads,
            "seconds": seconds,
            "largest 95% half-width (points)": half,
            f"within +-{HALF_WIDTH_GOAL}": bool(half <= HALF_WIDTH_GOAL),
            "largest gap to the shipped table (points)": gap,
        }
    ]
    with dask_client(workers=workers, threads=1) as client:
        win_table("six-card", policies, n_deals=20_000, client=client)  # the workers load the kernels
        seconds = _seconds(
            lambda: holder.update(d=win_table("six-card", policies, TABLE_DEALS, TABLE_SEED, client=client))
        )
    rows.append(
        {
            "what": f"the same table on {workers} Dask workers (1 thread each, local cluster)",
            "workers": workers,
            "seconds": seconds,
            "largest 95% half-width (points)": 100 * holder["d"].half_width * holder["d"].win_se.max(),
            "same table": _same(table, holder["d"]),
        }
    )
    return rows


def run() -> list[dict]:
    from ...core.runner import play

    threads = numba.config.NUMBA_NUM_THREADS
    rows = [
        {"what": "cores", "threads": os.cpu_count()},
        *table_rows("expected_net+defensive", 2),
        *table_rows("expected_peg+distilled", 2),
    ]
    holder = {}
    job = timing_job("six-card", None, TABLE_DEALS, 0, 20)
    seconds = _seconds(lambda: holder.update(b=play(job, progress=False)[0]))
    rows.append(
        {"what": "deal timings alone (expected_net + defensive)", "threads": threads, "deals/s": TABLE_DEALS / seconds}
    )
    counts, deals = counts_of(holder["b"], 20, 121)
    seconds = _seconds(lambda: jackknife(121, counts, deals, 91, 61))
    rows.append({"what": "backward induction, 21 times (jackknife)", "seconds": seconds})

    base = {"discard": "expected_net", "peg": "defensive"}
    players = position_policies()
    for label, policies in (
        ("expected_net + defensive", base),
        ("position-aware", players),
        ("position-aware discard only", {"discard": players["discard"], "peg": "defensive"}),
        ("position-aware pegging only", {"discard": "expected_net", "peg": players["peg"]}),
    ):
        games_from("six-card", policies, NEAR_HOME, 5)  # compile
        seconds = _seconds(lambda p=policies: holder.update(g=games_from("six-card", p, NEAR_HOME, 1000)))
        deals = float(holder["g"]["deals"].mean()) * 1000 * len(NEAR_HOME)
        rows.append({"what": f"games near home, {label} in self-play", "threads": threads, "deals/s": deals / seconds})
    zone_deals("six-card-61", players, 5, 2, 0)  # compile
    seconds = _seconds(lambda: zone_deals("six-card-61", players, 20, 20, 0))
    rows.append(
        {
            "what": "position-aware table: zone of 20 points to 61, 20 deals a position",
            "threads": threads,
            "deals/s": (61 * 61 - 41 * 41) * 20 / seconds,
        }
    )

    distilled = distilled_policy()
    for label, peg in (("defensive", "defensive"), ("distilled", distilled), ("rollout", "rollout")):
        n = 2_000 if label == "rollout" else 200_000
        simulate_deals("six-card", {"discard": "expected_net", "peg": peg}, 100, seed=1)  # compile
        seconds = _seconds(
            lambda p=peg, n=n: simulate_deals("six-card", {"discard": "expected_net", "peg": p}, n, seed=1)
        )
        rows.append({"what": f"six-card self-play expected_net + {label}", "threads": threads, "deals/s": n / seconds})
    return rows
