"""Engine speed: deals/s and games/s per preset with random and greedy policies on 1 and all
threads, the random two-player games against OpenSpiel's C++ cribbage measured in the same run
(:mod:`sims.bench.openspiel`; the ratio is left out when OpenSpiel is not installed), and the
engine's compile time cold and cached.

Aims (issue 20): random two-player games to 121 at >= 20x OpenSpiel and >= 1,000,000 greedy
six-card deals/s on 2 cores.
"""

from __future__ import annotations

import os
import tempfile

import numba

from ..cribbage import PRESETS, play_games, simulate_deals
from .openspiel import games_per_second
from .timing import best_rate, compile_seconds

NAME = "engine"
DEALS = 200_000
GAMES = 10_000
AIM_DEALS, AIM_GAMES = 2_000_000, 100_000
REPEATS = 3

_COMPILE_SCRIPT = """
import json, time
t0 = time.perf_counter()
from sims.cribbage import simulate_deals, play_games
t1 = time.perf_counter()
simulate_deals("six-card", {"discard": "greedy", "peg": "greedy"}, 10, seed=0)
t2 = time.perf_counter()
play_games("six-card", {"discard": "greedy", "peg": "greedy"}, 2, seed=0)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "deals kernel": t2 - t1, "games kernel": t3 - t2}))
"""


def _best_rate(fn, n) -> float:
    return best_rate(fn, n, REPEATS, warm=1000)


def run() -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        cold, cached = compile_seconds(_COMPILE_SCRIPT, cache), compile_seconds(_COMPILE_SCRIPT, cache)
    for step in cold:
        rows.append({"what": f"compile: {step} (s)", "cold": cold[step], "cached": cached[step]})
    all_threads = numba.config.NUMBA_NUM_THREADS
    openspiel = games_per_second()
    rows.append(
        {
            "what": f"OpenSpiel cribbage random (1 process, {os.cpu_count()} cores)",
            "games/s": openspiel if openspiel else "not installed",
        }
    )
    for name in PRESETS:
        for policy in ("random", "greedy"):
            policies = {"discard": policy, "peg": policy}
            for threads in sorted({1, all_threads}):
                deals = _best_rate(lambda n: simulate_deals(name, policies, n, seed=1, threads=threads), DEALS)
                games = _best_rate(lambda n: play_games(name, policies, n, seed=1, threads=threads), GAMES)
                row = {"what": f"{name} {policy}", "threads": threads, "deals/s": deals, "games/s": games}
                if openspiel and name == "six-card" and policy == "random":
                    row["x OpenSpiel games"] = games / openspiel
                rows.append(row)
    # The aims at a size where the per-call work (jobs, batches, data frames: tens of ms) no longer counts
    greedy, random = {"discard": "greedy", "peg": "greedy"}, {"discard": "random", "peg": "random"}
    deals = _best_rate(lambda n: simulate_deals("six-card", greedy, n, seed=1, threads=all_threads), AIM_DEALS)
    rows.append({"what": f"six-card greedy deals, {AIM_DEALS:,} a call", "threads": all_threads, "deals/s": deals})
    games = _best_rate(lambda n: play_games("six-card", random, n, seed=1, threads=all_threads), AIM_GAMES)
    row = {"what": f"six-card random games, {AIM_GAMES:,} a call", "threads": all_threads, "games/s": games}
    if openspiel:
        row["x OpenSpiel games"] = games / openspiel
    rows.append(row)
    return rows
