"""Kernel-level profiles with Linux ``perf``: the kernels compiled in a process, named for ``perf``.

numba's kernels are machine code that ``perf`` cannot name: a profile shows bare addresses.  ``perf`` names JIT code
from a map, ``/tmp/perf-PID.map`` (a line per function: its start and size in hex, then its name).
``python -m sims.bench.perf_map MODULE [ARG ...]`` runs a module as ``python -m MODULE ARG ...`` would and, when it
ends, writes that map for every function of every kernel compiled in the process, by its Python name
(``sims.allfours.search.solve``)::

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -g -o perf.data python -m sims.bench.perf_map sims.analysis.claims --quiet
    perf report -i perf.data --no-children --sort sym

A kernel loaded from the cache holds its machine code but not the names of its functions, so the process must
compile its kernels: an empty cache, as above (numba's, which is sims's too unless ``SIMS_CACHE_DIR`` is set:
:mod:`sims.core.cache`); its compiling shows in the profile apart, as Python and LLVM.  A
callee is named in each kernel that links it in; a function's size is the distance to the next one's start.
"""

from __future__ import annotations

import importlib.util
import os
import re
import runpy
import sys
import warnings
from pathlib import Path

from ..core.kernel import lazy_kernels

DEFINED = re.compile(r'^define [^@]*@"?([^"(]+)"?\(', re.MULTILINE)
PART = re.compile(r"(\d+)")
USAGE = "usage: python -m sims.bench.perf_map MODULE [ARG ...] (run as python -m MODULE ARG ...)"
EMPTY_CACHE = "set NUMBA_CACHE_DIR, and SIMS_CACHE_DIR if you set it, to an empty directory"
LAST_SIZE = 1 << 16  # the size given to the last function of a stretch of code (no next start to measure to)


def python_name(symbol: str) -> str:
    """numba's mangled name of a function -> its dotted Python name (``_ZN4sims3loo4play8play_outB3v12...`` ->
    ``sims.loo.play.play_out``); a prefix such as ``cpython.`` or ``cfunc.`` (numba's wrappers) is kept; any
    other symbol as it is."""
    prefix, _, mangled = symbol.rpartition("_ZN")
    if not mangled:
        return symbol
    parts, at = [], 0
    while at < len(mangled):
        number = PART.match(mangled, at)
        if number is None:  # numba's tags (B...) follow the name
            break
        length, start = int(number.group(1)), number.end()
        parts.append(mangled[start : start + length])
        at = start + length
    return prefix + ".".join(parts) if parts else symbol


def kernel_functions() -> tuple[dict[int, str], int]:
    """``({start address: Python name}, kernels whose functions cannot be named)`` for every kernel compiled in
    this process (:func:`sims.core.kernel.lazy_kernels`: every kernel that Python calls); a kernel loaded from the
    cache has no names to give."""
    starts, unnamed = {}, 0
    for kernel in lazy_kernels():
        if not kernel.compiled:
            continue
        for result in kernel.dispatcher.overloads.values():
            library = result.library
            with warnings.catch_warnings():  # numba warns that code loaded from the cache has no text to show
                warnings.simplefilter("ignore", UserWarning)
                names = DEFINED.findall(library.get_llvm_str())
            if not names:
                unnamed += 1
            for name in names:
                address = library.get_pointer_to_function(name)
                if address:
                    starts[address] = python_name(name)
    return starts, unnamed


def write_map(path: Path) -> tuple[int, int]:
    """The perf map of :func:`kernel_functions` into ``path``: ``(functions written, kernels not named)``."""
    starts, unnamed = kernel_functions()
    ordered = sorted(starts.items())
    lines = []
    for i, (start, name) in enumerate(ordered):
        gap = ordered[i + 1][0] - start if i + 1 < len(ordered) else LAST_SIZE
        lines.append(f"{start:x} {gap if gap < LAST_SIZE else LAST_SIZE:x} {name}\n")
    path.write_text("".join(lines), encoding="utf-8")
    return len(lines), unnamed


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["-h"], ["--help"]):
        print(f"{USAGE}\n\n{__doc__}")
        return 0
    if not args or args[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    module = args[0]
    try:
        found = importlib.util.find_spec(module) is not None
    except ImportError:
        found = False
    if not found:
        print(f"sims.bench.perf_map: no module named {module!r} to run", file=sys.stderr)
        return 2
    sys.argv = [module, *args[1:]]
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    try:  # the module's own exit (its status, an error) goes on as it would have: the map is written first
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        written, unnamed = write_map(path)
        note = f"; {unnamed} loaded from the cache cannot be named ({EMPTY_CACHE})"
        print(f"perf map: {written} functions -> {path}{note if unnamed else ''}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
