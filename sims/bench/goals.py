"""Issue 36's goals, each measured figure beside its goal, the machine's load when it was measured and OpenSpiel's
random cribbage games per second measured at the start of the same run (:mod:`sims.bench.openspiel`):

- ``sims play`` and ``sims simulate`` reach their first game within 0.6 s warm (timed to their end: an upper
  bound on the moment of their first game);
- ``sims play --rules six-card --games 1000000 --discard random --peg random --json`` as a whole process at
  >= 20x OpenSpiel's games per second, the kernel alone (``play_games`` in this process) at >= 25x;
- the search players ten times faster: the Loo ``expert``'s card play against ``greedy``'s on the same deals,
  ten times the ratio measured before issue 36 (:data:`LOO_BEFORE`);
- ``make run`` within 60 s warm: the wall time its last run wrote to ``data/reports/run.json``.

Each figure is a function of the run's :class:`Baseline` returning rows; :data:`FIGURES` lists them in the order of
the table.  Another benchmark module adds its own figures to the table by defining ``GOALS``, a list of such
functions (the All Fours expert's decisions per second, for one): :func:`figures` gathers them.  Figures are
printed, never asserted: speed depends on the machine and on what else it is doing.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .openspiel import games_per_second
from .startup import _sims, _timed

NAME = "goals"
RANDOM = ["--rules", "six-card", "--discard", "random", "--peg", "random"]
RUN_JSON = Path(__file__).resolve().parents[2] / "data" / "reports" / "run.json"
LOO_PRESET = "five-card-pam"
LOO_DECLARE = {"declare": "threshold", "exchange": "threshold"}
# The Loo expert's card play, deals/s as a share of greedy's on the same deals (threshold declarations and
# exchanges), measured before issue 36 on 2 cores: 2,586 / 182,253 deals/s.
LOO_BEFORE = 0.0142


@dataclass(frozen=True)
class Baseline:
    """What every figure of one run shares: the sizes, and OpenSpiel's games/s (None: not installed)."""

    openspiel: float | None
    runs: int = 5  # of each start-up, the median kept
    games: int = 1_000_000  # random games of the whole-process and kernel figures
    loo_deals: int = 20_000


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _row(baseline: Baseline, what: str, figure, unit: str, goal: str, meets, **more) -> dict:
    return {
        "what": what,
        "figure": figure,
        "unit": unit,
        "goal": goal,
        "meets": "-" if meets is None else "yes" if meets else "no",
        "load (1 min)": _load(),
        "OpenSpiel games/s": baseline.openspiel if baseline.openspiel else "not installed",
        **more,
    }


def startup(baseline: Baseline) -> list[dict]:
    """``sims play --games 1`` and ``sims simulate --deals 1``, warm, process start to end: the median wall
    seconds of ``baseline.runs`` runs (and their CPU seconds), goal 0.6 s."""
    rows = []
    for what, args in (
        ("sims play " + " ".join(RANDOM) + " --games 1", ["play", *RANDOM, "--games", "1"]),
        ("sims simulate --deals 1", ["simulate", "--deals", "1"]),
    ):
        command = _sims() + args
        subprocess.run(command, check=True, capture_output=True)  # warm: compiles the kernels if the cache is cold
        cpu, wall = zip(*(_timed(command) for _ in range(baseline.runs)))
        wall_s = statistics.median(wall)
        rows.append(
            _row(
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


def random_games(baseline: Baseline) -> list[dict]:
    """Random six-card games to 121 per second: ``sims play`` as a whole process (goal 20x OpenSpiel) and the
    kernel alone, ``play_games`` in this process after a warm call (goal 25x)."""
    from ..cribbage import play_games

    n = baseline.games
    command = _sims() + ["play", *RANDOM, "--games", str(n), "--json", "--quiet"]
    subprocess.run(_sims() + ["play", *RANDOM, "--games", "1", "--quiet"], check=True, capture_output=True)
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
            _row(
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


def loo_expert(baseline: Baseline) -> list[dict]:
    """Loo's ``expert`` card play (24 samples) against ``greedy``'s, five-card with Pam, threshold declarations
    and exchanges: deals/s, and the expert's as a share of greedy's, goal ten times :data:`LOO_BEFORE`."""
    from ..loo import simulate_deals
    from .timing import best_rate

    n = baseline.loo_deals
    rate = {
        card: best_rate(
            lambda k: simulate_deals(LOO_PRESET, {**LOO_DECLARE, "card": card}, k, seed=1), size, 1, warm=500
        )
        for card, size in (("expert", n), ("greedy", 10 * n))
    }
    share = rate["expert"] / rate["greedy"]
    return [
        _row(
            baseline,
            f"Loo {LOO_PRESET}: expert card play, as a share of greedy's deals/s",
            share,
            "share",
            f">= {10 * LOO_BEFORE:.3g} (10x {LOO_BEFORE})",
            share >= 10 * LOO_BEFORE,
            **{"deals/s": rate["expert"], "greedy deals/s": rate["greedy"]},
        )
    ]


def make_run(baseline: Baseline, path: Path = RUN_JSON) -> list[dict]:
    """The wall time of the last ``make run`` (its ``run.json``), goal 60 s warm; nothing is run here."""
    if not path.is_file():
        return [_row(baseline, f"make run: no {path.name} of a last run", "-", "wall s", "<= 60", None)]
    details = json.loads(path.read_text(encoding="utf-8"))
    seconds = details["wall time (s)"]
    return [
        _row(
            baseline, f"make run of {details['generated']} (its {path.name})", seconds, "wall s", "<= 60", seconds <= 60
        )
    ]


FIGURES = [startup, random_games, loo_expert, make_run]


def figures() -> list:
    """:data:`FIGURES`, then the ``GOALS`` of every other benchmark of this package that defines them."""
    from . import benchmarks

    return FIGURES + [figure for module in benchmarks()[0].values() for figure in getattr(module, "GOALS", [])]


def run(baseline: Baseline | None = None) -> list[dict]:
    baseline = baseline or Baseline(games_per_second())
    return [row for figure in figures() for row in figure(baseline)]
