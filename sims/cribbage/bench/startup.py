"""Start-up: each command, from process start to exit with the kernel cache warm, against its goal (issue 19
item 7 and issue 20: ``sims --version`` and ``sims policies`` within 0.5 s; ``sims discard``, the position-aware
``sims peg``, ``sims simulate --deals 1``, a Python process's first simulated deal and its first position-aware
decision within 1.0 s),
beside ``import sims`` and the floor every numba program pays, ``python -c "import numpy, numba"``.

Each row is the median of several runs, in CPU (user + sys of the child) and wall seconds; the goals are wall
seconds on 2 quiet cores.  On a shared machine wall time swings with the others' load (the first row gives the
load average), so CPU is the steadier figure.  ``simulate --deals 1`` is timed to its end, an upper bound on the
time to its first deal.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

from ...bench.goals import goal_row
from ...bench.timing import sims_command, timed

NAME = "startup"
RANDOM = ["--rules", "six-card", "--discard", "random", "--peg", "random"]  # the goals' random games
RUNS = 5
DISCARD = ["discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer"]
PEG = [
    "peg",
    "7H",
    "8C",
    "5D",
    "--played",
    "KS,2S,5H",
    "--starter",
    "2C",
    "--dealer",
    "--thrown",
    "QD,3C",
    "--score",
    "97-104",
]
# Prints the CPU and the clock at the decision: the row is timed to the decision, not to the process's exit.
FIRST_DECISION = (
    "import time; from sims.cribbage.advice import Player; from sims.cribbage.situation import "
    "PegSituation; Player('position_distilled').choose(PegSituation('7H 8C 5D', 'KS 2S 5H', "
    "role='dealer', starter='2C', thrown='QD 3C', score=(97, 104))); "
    "print(time.process_time(), time.time())"
)
# A Python process's first simulated deal, timed to the moment simulate_deals returns it.
FIRST_DEAL = (
    "import time; from sims.cribbage import simulate_deals; simulate_deals('six-card', None, 1); "
    "print(time.process_time(), time.time())"
)
# numba's own start (its typing and lowering registries, which import scipy.linalg) with one cached kernel, the
# objects frozen before the exit as the command line does
KERNEL_FLOOR = "import gc; from sims.cribbage.tables import pip_value; pip_value(3); gc.freeze()"


def commands() -> list[tuple[str, list[str], float | None]]:
    """``(what, command, goal in wall seconds or None)`` of each row; a command whose last line is its CPU
    seconds and clock (:data:`FIRST_DECISION`) is timed to that moment."""
    sims, python = sims_command(), [sys.executable, "-c"]
    return [
        ("sims --version", sims + ["--version"], 0.5),
        ("sims --help", sims + ["--help"], None),
        ("sims policies", sims + ["policies"], 0.5),
        (f"sims {' '.join(DISCARD)}", sims + DISCARD, 1.0),
        (f"sims {' '.join(PEG)}", sims + PEG, 1.0),
        ("sims simulate --deals 1 (to its end)", sims + ["simulate", "--deals", "1"], 1.0),
        (
            "python: first simulated deal (simulate_deals('six-card', None, 1)), to its return",
            python + [FIRST_DEAL],
            1.0,
        ),
        ("python -c 'import sims'", python + ["import sims"], None),
        (
            "python: first position-aware decision (Player('position_distilled').choose), to the decision",
            python + [FIRST_DECISION],
            1.0,
        ),
        ("floor: python -c 'import numpy, numba'", python + ["import numpy, numba"], None),
        (
            "floor with one cached kernel: python -c 'from sims.cribbage.tables import pip_value; pip_value(3)'",
            python + [KERNEL_FLOOR],
            None,
        ),
    ]


def _row(what: str, command: list[str], goal: float | None, runs: int = RUNS) -> dict:
    subprocess.run(command, check=True, capture_output=True)  # compiles the kernels if the cache is cold
    cpu, wall = zip(*(timed(command) for _ in range(runs)))
    row = {
        "what": what,
        "runs": runs,
        "cpu s": statistics.median(cpu),
        "wall s": statistics.median(wall),
        "goal wall s": goal if goal is not None else "-",
    }
    row["meets"] = "-" if goal is None else "yes" if row["wall s"] <= goal else "no"
    return row


def run(runs: int = RUNS) -> list[dict]:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    rows = [_row(what, command, goal, runs) for what, command, goal in commands()]
    return [{"what": f"{os.cpu_count()} cores, load average {load} (1, 5, 15 min) before the runs"}, *rows]


def first_game(baseline) -> list[dict]:
    """Issue 36's start-up goal in the goals table (:mod:`sims.bench.goals` gathers :data:`GOALS`): ``sims play
    --games 1`` and ``sims simulate --deals 1``, warm, process start to end: the median wall seconds of
    ``baseline.runs`` runs (and their CPU seconds), goal 0.6 s."""
    rows = []
    for what, args in (
        ("sims play " + " ".join(RANDOM) + " --games 1", ["play", *RANDOM, "--games", "1"]),
        ("sims simulate --deals 1", ["simulate", "--deals", "1"]),
    ):
        command = sims_command() + args
        subprocess.run(command, check=True, capture_output=True)  # warm: compiles the kernels if the cache is cold
        cpu, wall = zip(*(timed(command) for _ in range(baseline.runs)))
        wall_s = statistics.median(wall)
        rows.append(
            goal_row(
                baseline,
                f"{what}: start to first game (to its end)",
                wall_s,
                "wall s",
                "<= 0.6",
                wall_s <= 0.6,
                **{"cpu s": statistics.median(cpu)},
            )
        )
    return rows


GOALS = [first_game]
