"""Engine speed: deals/s and games/s per preset with random and greedy policies on 1 and all
threads, the random two-player games against OpenSpiel's C++ cribbage measured in the same run
(:mod:`sims.cribbage.bench.openspiel`; the ratio is left out when OpenSpiel is not installed), and the
engine's compile time cold and cached.

Aims (issue 20): random two-player games to 121 at >= 20x OpenSpiel and >= 1,000,000 greedy
six-card deals/s on 2 cores.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time

import numba

from ...bench.goals import goal_row
from ...bench.timing import best_rate, compile_seconds, sims_command
from .. import PRESETS, play_games, simulate_deals
from .openspiel import games_per_second
from .startup import RANDOM

NAME = "engine"
DEALS = 200_000
GAMES = 10_000
AIM_DEALS, AIM_GAMES = 2_000_000, 100_000
REPEATS = 3
OPENSPIEL = games_per_second  # the goals table's baseline (sims.bench.goals.openspiel_rate)

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


def random_games(baseline) -> list[dict]:
    """Issue 36's goal in the goals table (:mod:`sims.bench.goals` gathers :data:`GOALS`): random six-card games
    to 121 per second, ``sims play`` as a whole process (goal 20x OpenSpiel) and the kernel alone, ``play_games``
    in this process after a warm call (goal 25x)."""
    n = baseline.games
    command = sims_command() + ["play", *RANDOM, "--games", str(n), "--json", "--quiet"]
    subprocess.run(sims_command() + ["play", *RANDOM, "--games", "1", "--quiet"], check=True, capture_output=True)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    whole = n / (time.perf_counter() - start)
    policies = {"discard": "random", "peg": "random"}
    play_games("six-card", policies, min(n, 1000), seed=0)
    start = time.perf_counter()
    play_games("six-card", policies, n, seed=0)
    kernel = n / (time.perf_counter() - start)
    rows = []
    for what, rate, goal in (
        (f"sims play {' '.join(RANDOM)} --games {n:,} --json, whole process", whole, 20),
        (f"play_games six-card random, {n:,} games, kernel alone", kernel, 25),
    ):
        ratio = rate / baseline.openspiel if baseline.openspiel else None
        rows.append(
            goal_row(
                baseline,
                what,
                ratio if ratio is not None else "-",
                "x OpenSpiel",
                f">= {goal}",
                None if ratio is None else ratio >= goal,
                **{"games/s": rate},
            )
        )
    return rows


GOALS = [random_games]
