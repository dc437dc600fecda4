"""Show scoring speed: compile time (cold and cached), exhaustive enumeration of all
12,994,800 shows on one thread and on all threads, and ``score_shows`` over random arrays.

Issue 2 targets: enumeration >= 250 M shows/s per core, ``score_shows`` >= 50 M shows/s.
"""

from __future__ import annotations

import tempfile
import time

import numba
import numpy as np

from ...bench.timing import compile_seconds
from ..scoring import score_shows, show_distribution

NAME = "scoring"
N_SHOWS = 12_994_800
N_RANDOM = 10**7
REPEATS = 3

# Run in a fresh interpreter: the seconds of each step; first calls include compiling (or loading
# the compiled code from the cache), the second call of show_distribution is the run alone.
_COMPILE_SCRIPT = """
import json, time
marks = [time.perf_counter()]
def lap():
    marks.append(time.perf_counter())
    return marks[-1] - marks[-2]
import numpy as np
from sims.cribbage import scoring
steps = {"import": lap()}
scoring.show_distribution()
steps["first show_distribution"] = lap()
scoring.show_distribution()
steps["second show_distribution"] = lap()
scoring.score_shows(np.array([[0, 4, 8, 12]]), np.array([16]))
steps["first score_shows"] = lap()
print(json.dumps(steps))
"""
_COMPILE_STEPS = {
    "import": "import sims.cribbage.scoring (rank table, and all its package imports)",
    "first show_distribution": "show_distribution, first call (compile + run)",
    "second show_distribution": "show_distribution, second call (run only)",
    "first score_shows": "score_shows, first call on one show (compile)",
}


def compile_rows() -> list[dict]:
    """Cold: an empty numba cache directory; cached: a second interpreter reusing it."""
    with tempfile.TemporaryDirectory(prefix="sims-numba-cache-") as cache_dir:
        cold = compile_seconds(_COMPILE_SCRIPT, cache_dir)
        cached = compile_seconds(_COMPILE_SCRIPT, cache_dir)
    return [{"what": label, "cold s": cold[key], "cached s": cached[key]} for key, label in _COMPILE_STEPS.items()]


def _best_seconds(fn) -> tuple[float, float]:
    """Best wall and best process CPU seconds of ``REPEATS`` calls (CPU time discounts other
    processes competing for the cores; it includes any spinning of idle worker threads)."""
    wall = cpu = float("inf")
    for _ in range(REPEATS):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def _rate_row(what, threads, n, seconds) -> dict:
    wall, cpu = seconds
    return {
        "what": what,
        "threads": threads,
        "shows": n,
        "seconds": wall,
        "M shows/s": n / wall / 1e6,
        "M shows/s/core": n / wall / 1e6 / threads,
        "M shows/CPU-s": n / cpu / 1e6,
    }


def random_shows(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random (4-card hand, starter) deals of distinct cards, drawn with rejection."""
    rng = np.random.default_rng(seed)
    deals = rng.integers(0, 52, size=(n, 5))
    while True:
        ordered = np.sort(deals, axis=1)
        bad = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if not bad.size:
            break
        deals[bad] = rng.integers(0, 52, size=(bad.size, 5))
    return np.ascontiguousarray(deals[:, :4]), np.ascontiguousarray(deals[:, 4])


def throughput_rows() -> list[dict]:
    """Enumeration of every show (hand and crib) and ``score_shows``, on 1 thread and on all."""
    all_threads = numba.config.NUMBA_NUM_THREADS
    hands, starters = random_shows(N_RANDOM)
    show_distribution()  # compiled before timing
    score_shows(hands[:10], starters[:10])
    rows = []
    try:
        for threads in sorted({1, all_threads}):
            numba.set_num_threads(threads)
            for crib in (False, True):
                seconds = _best_seconds(lambda: show_distribution(crib=crib))
                rows.append(
                    _rate_row(f"enumerate all shows as {'crib' if crib else 'hand'}", threads, N_SHOWS, seconds)
                )
            seconds = _best_seconds(lambda: score_shows(hands, starters))
            rows.append(_rate_row("score_shows, random 4-card hands", threads, N_RANDOM, seconds))
    finally:
        numba.set_num_threads(all_threads)
    return rows


def run() -> list[dict]:
    return compile_rows() + throughput_rows()
