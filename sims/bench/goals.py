"""Issue 36's goals, each measured figure beside its goal, the machine's load when it was measured and OpenSpiel's
games per second measured at the start of the same run (the baseline a benchmark declares as ``OPENSPIEL``: random
two-player games in OpenSpiel's C++).

Each figure is a function of the run's :class:`Baseline` returning rows made by :func:`goal_row`.  A benchmark adds
its own figures to the table by defining ``GOALS``, a list of such functions (the games' benchmarks: the commands
reaching their first game within 0.6 s, random games against OpenSpiel's, the search players ten times faster);
:func:`figures` gathers them, and ends with the one figure of no game, the wall time of the last ``make run`` (goal
60 s warm).  Figures are printed, never asserted: speed depends on the machine and on what else it is doing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

NAME = "goals"
RUN_JSON = Path(__file__).resolve().parents[2] / "data" / "reports" / "run.json"


ISSUE_START = "dec9be4"  # the commit issue 36 started from: its search players are timed beside today's


@dataclass(frozen=True)
class Baseline:
    """What every figure of one run shares: the sizes, OpenSpiel's games/s (None: not installed) and the commit
    whose code the search players' figures time in the same run (None: their recorded figures instead)."""

    openspiel: float | None
    runs: int = 5  # of each start-up, the median kept
    games: int = 1_000_000  # random games of the whole-process and kernel figures
    search_deals: int = 20_000  # deals of a searching player's figure
    before: str | None = ISSUE_START


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def goal_row(baseline: Baseline, what: str, figure, unit: str, goal: str, meets, **more) -> dict:
    """One row of the table: the figure beside its goal, whether it is met (None: cannot say), the load and the
    run's OpenSpiel baseline, then ``more`` columns."""
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


def make_run(baseline: Baseline, path: Path = RUN_JSON) -> list[dict]:
    """The wall time of the last ``make run`` (its ``run.json``), goal 60 s warm; nothing is run here."""
    if not path.is_file():
        return [goal_row(baseline, f"make run: no {path.name} of a last run", "-", "wall s", "<= 60", None)]
    details = json.loads(path.read_text(encoding="utf-8"))
    seconds = details["wall time (s)"]
    return [
        goal_row(
            baseline, f"make run of {details['generated']} (its {path.name})", seconds, "wall s", "<= 60", seconds <= 60
        )
    ]


FIGURES = [make_run]


def figures() -> list:
    """The ``GOALS`` of every benchmark that defines them, in the benchmarks' order, then :data:`FIGURES`."""
    from . import benchmarks

    return [figure for module in benchmarks()[0].values() for figure in getattr(module, "GOALS", [])] + FIGURES


def openspiel_rate() -> float | None:
    """OpenSpiel's games per second, from the benchmark that declares ``OPENSPIEL`` (a function returning them, or
    None when OpenSpiel is not installed); None when no benchmark declares one."""
    from . import benchmarks

    measures = [module.OPENSPIEL for module in benchmarks()[0].values() if hasattr(module, "OPENSPIEL")]
    return measures[0]() if measures else None


def run(baseline: Baseline | None = None) -> list[dict]:
    baseline = baseline or Baseline(openspiel_rate())
    return [row for figure in figures() for row in figure(baseline)]
