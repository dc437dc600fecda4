"""Board position speed (issue 12): the full 121x121 table and its precision, the backward induction with
its jackknife, the position-aware players' cost where they play for the game, the position-aware table's
zone, and the distilled pegging policy's rate (aim: >= 50,000 deals/s on 2 cores)."""
from __future__ import annotations

import time

import numba

from ..cribbage.odds.direct import games_from
from ..cribbage.odds.induction import jackknife
from ..cribbage.odds.position import zone_deals
from ..cribbage.odds.table import counts_of, timing_job, win_table
from ..cribbage.policies.distilled import distilled_policy
from ..cribbage.policies.position import position_policies
from ..cribbage.simulate import simulate_deals

NAME = "odds"
TABLE_DEALS = 200_000          # enough for +-0.5 percentage points at every position of the 121 table
NEAR_HOME = [(100, 100), (110, 95), (95, 110), (115, 112), (90, 85), (85, 90)]


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run() -> list[dict]:
    from ..core.runner import play

    threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    win_table("six-card", n_deals=20_000, groups=20)          # compile
    holder = {}
    seconds = _seconds(lambda: holder.update(t=win_table("six-card", n_deals=TABLE_DEALS, groups=20)))
    table = holder["t"]
    rows.append({"what": f"six-card 121x121 table, {TABLE_DEALS:,} deals (play + induction + jackknife)",
                 "threads": threads, "seconds": seconds,
                 "largest 95% half-width (percentage points)": 100 * table.half_width * table.win_se.max()})
    job = timing_job("six-card", None, TABLE_DEALS, 0, 20)
    seconds = _seconds(lambda: holder.update(b=play(job, progress=False)[0]))
    rows.append({"what": "deal timings alone", "threads": threads, "deals/s": TABLE_DEALS / seconds})
    counts, deals = counts_of(holder["b"], 20, 121)
    seconds = _seconds(lambda: jackknife(121, counts, deals, 91, 61))
    rows.append({"what": "backward induction, 21 times (jackknife)", "seconds": seconds})

    base = {"discard": "expected_net", "peg": "defensive"}
    players = position_policies()
    for label, policies in (("expected_net + defensive", base), ("position-aware", players),
                            ("position-aware discard only", {"discard": players["discard"], "peg": "defensive"}),
                            ("position-aware pegging only", {"discard": "expected_net", "peg": players["peg"]})):
        games_from("six-card", policies, NEAR_HOME, 5)          # compile
        seconds = _seconds(lambda p=policies: holder.update(g=games_from("six-card", p, NEAR_HOME, 1000)))
        deals = float(holder["g"]["deals"].mean()) * 1000 * len(NEAR_HOME)
        rows.append({"what": f"games near home, {label} in self-play", "threads": threads,
                     "deals/s": deals / seconds})
    zone_deals("six-card-61", players, 5, 2, 0)                  # compile
    seconds = _seconds(lambda: zone_deals("six-card-61", players, 20, 20, 0))
    rows.append({"what": "position-aware table: zone of 20 points to 61, 20 deals a position",
                 "threads": threads, "deals/s": (61 * 61 - 41 * 41) * 20 / seconds})

    distilled = distilled_policy()
    for label, peg in (("defensive", "defensive"), ("distilled", distilled), ("rollout", "rollout")):
        n = 2_000 if label == "rollout" else 200_000
        simulate_deals("six-card", {"discard": "expected_net", "peg": peg}, 100, seed=1)   # compile
        seconds = _seconds(lambda p=peg, n=n: simulate_deals("six-card", {"discard": "expected_net", "peg": p}, n,
                                                             seed=1))
        rows.append({"what": f"six-card self-play expected_net + {label}", "threads": threads, "deals/s": n / seconds})
    return rows
