"""``sims compile``: compile and cache every game's kernels now (before a test run, a cluster or a talk).

Each game compiles in its own process, side by side, into the kernel cache (see
:mod:`sims.core.cache`); later processes, Dask workers included, load the kernels from there.
"""
from __future__ import annotations

COMMAND = "compile"
HELP = "compile and cache the kernels of every game (or of those named), one process per game"
EXAMPLES = [   # the foot of --help (tests/cli/test_help.py parses each)
    "sims compile                     # every game's kernels, one process per game",
    "sims compile cribbage --jobs 1",
]


def add_arguments(parser):
    from .common import positive

    parser.add_argument("games", nargs="*", metavar="GAME", help="games to compile (default all)")
    parser.add_argument("--jobs", type=positive, default=None, help="processes at once (default: the cores)")


def _compile(name: str) -> tuple[str, float]:
    """Import every module of the game's package (its kernels compile on import, or load from the cache), then
    compile its lazy kernels."""
    import importlib
    import pkgutil
    import time

    from ..core.registry import get_game

    start = time.perf_counter()
    from ..core.kernel import compile_lazy

    package = importlib.import_module(get_game(name).engine.rpartition(".")[0])
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
    compile_lazy(package.__name__)
    return name, time.perf_counter() - start


def run(args) -> dict:
    import os
    from concurrent.futures import ProcessPoolExecutor

    from ..core import registry
    from ..core.registry import get_game

    names = args.games or registry.names()
    for name in names:
        get_game(name)      # unknown games: one line, before any process starts
    with ProcessPoolExecutor(max_workers=args.jobs or os.cpu_count() or 1) as pool:
        seconds = dict(pool.map(_compile, names))
    return {"compiled": seconds}


def render(result: dict) -> str:
    return "\n".join(f"{name}: {seconds:.1f} s" for name, seconds in result["compiled"].items())
