"""Benchmarks: ``python -m sims.bench [NAME ...] [--json] [--page FILE]`` (``make bench``).

A benchmark is a module that defines ``NAME`` and ``run() -> list[dict]``, declared in the entry-point group
``sims.benchmarks`` (``NAME = "package.module"``): the shared ones of this package (the goals table, peak memory) and
each game's own, which live with the game (in its ``bench`` package or module).
Every row is one measurement: a ``what`` label and its figures (seconds, shows per second, ...).  Figures are
printed, never asserted: speed depends on the machine and on whatever else it is doing.  ``--page`` also writes
them into the documentation's performance page (``make bench``: ``docs/performance.md``), between its two markers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

from ..core.registry import benchmark_entries

PAGE_BEGIN, PAGE_END = "<!-- bench: begin -->", "<!-- bench: end -->"
GOALS = "goals"  # the benchmark whose table heads the page (sims.bench.goals.NAME)


def benchmarks() -> tuple[dict, dict]:
    """``({NAME: module}, {entry name: import error})`` for the modules the entry points ``sims.benchmarks`` declare
    (:func:`sims.core.registry.benchmark_entries`)."""
    found, broken = {}, {}
    for entry in benchmark_entries():
        try:
            module = entry.load()
        except Exception as exc:  # one broken benchmark must not stop the others
            broken[entry.name] = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
            continue
        if hasattr(module, "NAME") and hasattr(module, "run"):
            found[module.NAME] = module
    return dict(sorted(found.items())), broken


def format_figure(value) -> str:
    """Integers with thousands separators; floats to 4 significant figures (no exponent below 1e6)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"


def format_table(rows: list[dict]) -> str:
    """Rows as an aligned text table; columns are every key in order of first appearance."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    cells = [[format_figure(row.get(c, "")) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]

    def line(values):
        return "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(values, widths)))

    return "\n".join([line(columns), line(["-" * w for w in widths])] + [line(r) for r in cells])


def machine() -> str:
    """The machine the figures were measured on, in a line."""
    import numba

    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numba {numba.__version__}"
    )


def page_text(results: dict, when: str, on: str) -> str:
    """The measured part of the performance page: when and where, then each benchmark's table, the goals'
    (:mod:`sims.bench.goals`: each figure beside its goal, the load and the OpenSpiel baseline of the run) first."""
    parts = [f"Measured {when} on {on}.", ""]
    for name in sorted(results, key=lambda name: name != GOALS):
        parts += [f"### {name}", "", "```text", format_table(results[name]), "```", ""]
    return "\n".join(parts)


def write_page(path, results: dict, when: str | None = None, on: str | None = None) -> None:
    """Put the figures into the page ``path`` between :data:`PAGE_BEGIN` and :data:`PAGE_END`, the rest of the
    page as it was; a page without the two markers is a one-line error, and is left as it was."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    head, begin, rest = text.partition(PAGE_BEGIN)
    _, end, tail = rest.partition(PAGE_END)
    if not (begin and end):
        raise ValueError(f"{path}: no {PAGE_BEGIN} ... {PAGE_END} markers to write the figures between")
    when = when or datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    body = page_text(results, when, on or machine())
    path.write_text(f"{head}{PAGE_BEGIN}\n{body}{PAGE_END}{tail}", encoding="utf-8")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, as the sims command line does
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def main(argv=None) -> int:
    found, broken = benchmarks()
    parser = _Parser(prog="python -m sims.bench", description="Run benchmarks and print their figures.")
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"benchmarks to run (default all: {', '.join(found)})")
    parser.add_argument("--json", action="store_true", help="print {NAME: rows} as JSON")
    parser.add_argument(
        "--page",
        metavar="FILE",
        help="also write the figures into this Markdown page, between its "
        f"markers {PAGE_BEGIN} and {PAGE_END} (make bench: docs/performance.md)",
    )
    args = parser.parse_args(argv)
    if args.page and not (Path(args.page).is_file() and PAGE_BEGIN in Path(args.page).read_text(encoding="utf-8")):
        parser.error(f"{args.page}: no page with a {PAGE_BEGIN} marker to write the figures after")  # before the work
    unknown = [n for n in args.names if n not in found]
    if unknown:
        parser.error(
            f"unknown benchmark {unknown[0]!r} (known: {', '.join(found)}"
            + (f"; not importable: {', '.join(broken)})" if broken else ")")
        )
    if not args.names:
        for name, error in broken.items():
            sys.stderr.write(f"python -m sims.bench: error: benchmark {name} not importable: {error}\n")
    results = {}
    for name in args.names or list(found):
        results[name] = found[name].run()
        if not args.json:
            print(f"== {name}\n{format_table(results[name])}\n", flush=True)
    if args.json:
        print(json.dumps(results, indent=2))
    if args.page:
        write_page(args.page, results)
    return 1 if broken and not args.names else 0
