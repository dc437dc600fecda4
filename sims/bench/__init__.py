"""Benchmarks: ``python -m sims.bench [NAME ...] [--json]`` (``make bench``).

Each module of this package that defines ``NAME`` and ``run() -> list[dict]`` is a
benchmark.  Every row is one measurement: a ``what`` label and its figures
(seconds, shows per second, ...).  Figures are printed, never asserted: speed
depends on the machine and on whatever else it is doing.
"""
from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys


def benchmarks() -> tuple[dict, dict]:
    """``({NAME: module}, {module name: import error})`` for the modules of this package."""
    found, broken = {}, {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"{__name__}.{info.name}")
        except Exception as exc:  # one broken benchmark must not stop the others
            broken[info.name] = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
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


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, as the sims command line does
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def main(argv=None) -> int:
    found, broken = benchmarks()
    parser = _Parser(prog="python -m sims.bench", description="Run benchmarks and print their figures.")
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"benchmarks to run (default all: {', '.join(found)})")
    parser.add_argument("--json", action="store_true", help="print {NAME: rows} as JSON")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in found]
    if unknown:
        parser.error(f"unknown benchmark {unknown[0]!r} (known: {', '.join(found)}"
                     + (f"; not importable: {', '.join(broken)})" if broken else ")"))
    if not args.names:
        for name, error in broken.items():
            sys.stderr.write(f"python -m sims.bench: error: module {name} not importable: {error}\n")
    results = {}
    for name in args.names or list(found):
        results[name] = found[name].run()
        if not args.json:
            print(f"== {name}\n{format_table(results[name])}\n", flush=True)
    if args.json:
        print(json.dumps(results, indent=2))
    return 1 if broken and not args.names else 0
