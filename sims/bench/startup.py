"""Start-up: a warm ``sims discard`` (kernels cached) from process start to exit, the median of
several runs in CPU (user + sys) and wall seconds, against issue 13's baseline of 1.47 s CPU
(aim: half of it), and the floor every numba program pays, ``python -c "import numpy, numba"``.
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time

NAME = "startup"
RUNS = 7
BASELINE_CPU = 1.47     # seconds, a warm ``sims discard`` when issue 13 was filed
DISCARD = ["discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer"]


def _sims() -> list[str]:
    """The ``sims`` console script beside this interpreter, else ``python -m sims``."""
    script = os.path.join(os.path.dirname(sys.executable), "sims")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "sims"]


def _timed(command: list[str]) -> tuple[float, float]:
    """CPU (user + sys, the child's) and wall seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def _row(what: str, command: list[str]) -> dict:
    subprocess.run(command, check=True, capture_output=True)   # compiles the kernels if the cache is cold
    cpu, wall = zip(*(_timed(command) for _ in range(RUNS)))
    return {"what": what, "runs": RUNS, "cpu s": statistics.median(cpu), "wall s": statistics.median(wall)}


def run() -> list[dict]:
    discard = _row(f"sims {' '.join(DISCARD)} (warm)", _sims() + DISCARD)
    discard["x baseline cpu"] = discard["cpu s"] / BASELINE_CPU
    return [discard, _row("sims --help", _sims() + ["--help"]),
            _row("floor: python -c 'import numpy, numba'", [sys.executable, "-c", "import numpy, numba"])]
