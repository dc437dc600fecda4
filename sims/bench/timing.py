"""How the benchmarks time: the best of repeated calls after a warm one, and compile times in a fresh
interpreter whose kernel cache starts empty."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time


def best_seconds(fn, repeats: int) -> float:
    """The fastest of ``repeats`` calls of ``fn()``, after one call that compiles (or loads) and warms it."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def best_rate(fn, n: int, repeats: int, warm: int) -> float:
    """Items a second of ``fn(n)`` at its fastest of ``repeats`` calls, after a warm call ``fn(min(n, warm))``."""
    fn(min(n, warm))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - start)
    return n / best


def compile_seconds(script: str, cache_dir: str) -> dict:
    """Run ``script`` in a new interpreter with ``cache_dir`` as the only kernel cache (a ``SIMS_CACHE_DIR``
    of the caller's would otherwise win, :func:`sims.core.cache.cache_root`); the dict its last line prints."""
    env = {key: value for key, value in os.environ.items() if key != "SIMS_CACHE_DIR"}
    env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def sims_command() -> list[str]:
    """The ``sims`` console script beside this interpreter, else ``python -m sims``."""
    script = os.path.join(os.path.dirname(sys.executable), "sims")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "sims"]


def timed(command: list[str]) -> tuple[float, float]:
    """CPU (user + sys, the child's) and wall seconds of one run, or to the moment the child prints as its last
    line (``time.process_time(), time.time()``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start, epoch = time.perf_counter(), time.time()
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if command[-1].endswith("print(time.process_time(), time.time())"):
        cpu, at = (float(x) for x in out[-2:])
        return cpu, at - epoch
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall
