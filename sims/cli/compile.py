"""``sims compile``: compile and cache every game's kernels now (before a test run, a cluster or a talk).

The work is cut by module, not by game, so that the processes stay busy to the end: one unit imports one
module of a game and compiles (or loads from the kernel cache of :mod:`sims.core.cache`) the kernels with
explicit types that importing it defines, which would otherwise compile at their first use
(:class:`sims.core.kernel.LazyKernel`), and what they call.  A unit starts once the
units of the modules it imports are done, so that no kernel compiles in two processes at once: it loads
theirs from the cache.  Of the units ready, the one heading the heaviest chain of sources still to compile
goes first.  Later processes, Dask workers included, load the kernels from the cache.
"""

from __future__ import annotations

HELP = "compile and cache the kernels of every game (or of those named), module by module on every core"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims compile                     # every game's kernels, on every core",
    "sims compile cribbage --jobs 1",
]


def add_arguments(parser):
    from .common import positive

    parser.add_argument("games", nargs="*", metavar="GAME", help="games to compile (default all)")
    parser.add_argument("--jobs", type=positive, default=None, help="processes at once (default: the cores)")


def units(packages: list[str]) -> dict[str, list[str]]:
    """Every module of the ``packages`` (a game's package each) but its claims (which define no kernels) and its
    benchmarks (entry points ``sims.benchmarks``, with the package that holds them: nothing a game runs needs their
    kernels), with the modules of its own package that it imports: what must be compiled before it.  Read from the
    sources (:mod:`sims.core.sources`); nothing is imported."""
    from ..core.cache import IMPORT_GRAPH, cache_root
    from ..core.registry import benchmark_entries, claims_packages
    from ..core.sources import imports, modules

    memo = cache_root() / IMPORT_GRAPH
    bench = [ep.value for ep in benchmark_entries()]
    apart = (*claims_packages(), *bench, *({b.rpartition(".")[0] for b in bench} - set(packages)))
    graph = {}
    for package in packages:
        top = package.split(".")[0]
        own = [m for m in modules(top) if within(m, package) and not any(within(m, a) for a in apart)]
        graph.update({m: [d for d in imports(m, frozenset({top}), memo=memo) if d in own] for m in own})
    return graph


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def source_bytes(module: str) -> int:
    """The size of ``module``'s source: the estimate of its work that orders the units."""
    from ..core.sources import module_file

    return module_file(module).stat().st_size


def _priorities(graph: dict[str, list[str]], weight) -> dict[str, int]:
    """Each module's ``weight`` plus the heaviest chain of modules waiting for it (list scheduling's "highest
    level first": the modules that hold the most work back go first)."""
    waiting = {m: [] for m in graph}
    for module, needs in graph.items():
        for need in needs:
            waiting[need].append(module)
    level: dict[str, int] = {}

    def of(module):
        if module not in level:
            level[module] = weight(module) + max(map(of, waiting[module]), default=0)
        return level[module]

    return {m: of(m) for m in graph}


def compile_module(module: str) -> tuple[str, float]:
    """Import ``module`` and compile (or load) the kernels with explicit types that importing it defined; the
    CPU seconds it took."""
    import importlib
    import time

    from ..core.kernel import lazy_kernels

    start = time.process_time()
    before = len(lazy_kernels())
    importlib.import_module(module)
    for kernel in lazy_kernels()[before:]:
        kernel.dispatcher  # noqa: B018 - the property compiles (or loads) the kernel
    return module, time.process_time() - start


def schedule(graph: dict[str, list[str]], work, pool, jobs: int, weight=source_bytes):
    """Run ``work(module)`` for every module of ``graph`` on ``pool``, at most ``jobs`` at once, each once the
    modules it needs are done, the ready one with the highest :func:`_priorities` by ``weight`` first; yields
    what each returns, as it finishes."""
    from concurrent.futures import FIRST_COMPLETED, wait

    priority = _priorities(graph, weight)
    done, running = set(), {}
    while len(done) < len(graph):
        ready = sorted(
            (m for m in graph if m not in done and m not in running.values() and all(d in done for d in graph[m])),
            key=priority.get,
            reverse=True,
        )
        for module in ready[: jobs - len(running)]:
            running[pool.submit(work, module)] = module
        finished, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            done.add(running.pop(future))
            yield future.result()


def run(args) -> dict:
    import os
    import time
    from concurrent.futures import ProcessPoolExecutor

    from ..core import registry
    from ..core.progress import progress_bar
    from ..core.registry import get_game

    names = args.games or registry.names()
    packages = {get_game(name).engine.rpartition(".")[0]: name for name in names}  # unknown games: one line
    graph = units(list(packages))
    jobs = args.jobs or os.cpu_count() or 1
    start, seconds = time.perf_counter(), {}
    with (
        ProcessPoolExecutor(max_workers=jobs) as pool,
        progress_bar(total=len(graph), desc="compiling", unit=" modules") as bar,
    ):
        for module, cpu in schedule(graph, compile_module, pool, jobs):
            seconds[module] = cpu
            bar.update()
    per_game = {
        name: sum(cpu for module, cpu in seconds.items() if within(module, package))
        for package, name in packages.items()
    }
    return {"wall": time.perf_counter() - start, "cpu": per_game, "modules": seconds}


def render(result: dict) -> str:
    lines = [f"{name}: {cpu:.1f} s of CPU" for name, cpu in result["cpu"].items()]
    return "\n".join([*lines, f"all games: {result['wall']:.1f} s wall"])
