"""Peak memory of runs by size: games, deals and board-position tables without per-item rows keep memory flat.

Each size runs ``sims run ... --quiet`` (``sims odds --build --deals N --quiet`` for a ``table``; for a
``position`` table, ``sims odds --position`` on five-card with N deals at each of the zone's 3,280 positions)
in a fresh process, which reports its own peak resident set size (``ru_maxrss``).  ``python -m
sims.bench.memory games 100000 1000000`` (or ``table 100000 1000000``, ``position 25 250``) measures chosen
sizes; ``python -m sims.bench memory`` the default ones (small, for ``make bench``).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time

NAME = "memory"
DEFAULT = (
    ("games", 100_000),
    ("games", 1_000_000),
    ("deals", 1_000_000),
    ("deals", 10_000_000),
    ("table", 100_000),
    ("table", 1_000_000),
    ("position", 25),
    ("position", 250),
)
POSITION_DEALS = 20_000  # the baseline deals of a ``position`` table


CHILD = (
    "import resource, sys\nfrom sims.cli import main\nassert main(sys.argv[1:]) == 0\n"
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
)


def measure(kind: str, n: int) -> dict:
    """Peak RSS in a fresh process of one ``sims run`` of ``n`` random six-card deals or games, of the
    six-card board-position table (``kind`` ``table``) from ``n`` deals of expected_net + defensive, or of the
    five-card position players' table (``position``) with ``n`` deals at each position of their zone."""
    with tempfile.TemporaryDirectory(prefix="sims-bench-memory-") as tmp:
        argv = {
            "table": ["odds", "--build", "--deals", str(n)],
            "position": [
                "odds",
                "--position",
                "--rules",
                "five-card",
                "--deals",
                str(POSITION_DEALS),
                "--per-position",
                str(n),
            ],
        }.get(kind)
        argv = argv or ["run", f"--{kind}", str(n), "--out", f"{tmp}/run"]
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", CHILD, *argv, "--quiet"], check=True, capture_output=True, text=True
        )
        seconds = time.perf_counter() - start
    peak_kb = int(out.stdout.strip().splitlines()[-1])
    what = {
        "table": "six-card board-position table, deals",
        "position": "five-card position players' table, deals a position",
    }.get(kind, f"random six-card {kind}")
    return {"what": what, "n": n, "peak RSS MB": peak_kb / 1024, "wall s": seconds}


def run(sizes=DEFAULT) -> list[dict]:
    return [measure(kind, n) for kind, n in sizes]


if __name__ == "__main__":  # pragma: no cover
    from . import format_table

    kind, *sizes = sys.argv[1:] or ["games", "100000"]
    print(format_table(run([(kind, int(s)) for s in sizes])))
