"""``sims compile`` (:mod:`sims.cli.compile`): every module of a game compiled once, after the modules it imports,
the kernels with explicit types (compiled at their first use otherwise) included."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from sims.cli.compile import compile_module, schedule, units
from sims.core import kernel, sources


def test_a_module_compiles_the_lazy_kernels_its_import_defines():
    # Triumph's loops (deals, games) are made in triumph.engine but belong to triumph.play, which defines none.
    compile_module("triumph.engine")
    loops = [k for k in kernel.lazy_kernels() if k.__module__.startswith("triumph")]
    assert [k.__module__ for k in loops] == ["triumph.play"] * 2 and loops[0].compiled


def test_the_units_are_the_games_modules_with_the_modules_they_import():
    graph = units(["triumph"])
    assert set(graph) == {
        "triumph",
        "triumph.advice",
        "triumph.duel",
        "triumph.engine",
        "triumph.game",
        "triumph.play",
        "triumph.record",
        "triumph.reference",
        "triumph.rules",
        "triumph.situation",
    }
    assert set(graph["triumph.engine"]) == {"triumph.play", "triumph.rules"}
    assert graph["triumph.rules"] == []


def test_the_units_leave_out_the_games_claims_which_define_no_kernels():
    """A game's claims (the report's sections, entry points ``sims.claims``) import the analysis and matplotlib, and
    define no kernels: compiling leaves them out, and the game's other modules, its offline builders too, in.  So
    are its benchmarks (entry points ``sims.benchmarks``), whose phase kernels no game runs."""
    graph = units(["sims.cribbage", "sims.loo"])
    assert "sims.cribbage.lab.odds.timings" in graph and "sims.loo.engine" in graph
    assert [m for m in graph if ".claims" in m] == []
    assert [m for m in graph if ".bench" in m] == [] and "sims.cribbage.bench.profile" in sources.modules("sims")
    claims = [m for m in sources.modules("sims") if m.startswith(("sims.cribbage.claims", "sims.loo.claims"))]
    assert claims and not any("sims.core.kernel" in sources.imports(m, frozenset({"sims"})) for m in claims)


def test_a_module_starts_only_after_those_it_imports_and_runs_once():
    graph = {"a": [], "b": ["a"], "c": ["a"], "d": ["b", "c"], "e": []}
    started, finished, lock = [], set(), threading.Lock()

    def work(module):
        with lock:
            assert all(need in finished for need in graph[module]), (module, finished)
            started.append(module)
        time.sleep(0.01)
        with lock:
            finished.add(module)
        return module

    with ThreadPoolExecutor(2) as pool:
        order = list(schedule(graph, work, pool, 2, weight=lambda module: 1))
    assert sorted(order) == sorted(started) == sorted(graph)


def test_the_module_heading_the_heaviest_chain_goes_first():
    # One at a time: a (1) holds b (10) back, so a then b (11 in all) go before e (5); f (3) waits for both.
    graph = {"a": [], "b": ["a"], "e": [], "f": ["b", "e"]}
    weights = {"a": 1, "b": 10, "e": 5, "f": 3}
    with ThreadPoolExecutor(1) as pool:
        assert list(schedule(graph, lambda module: module, pool, 1, weight=weights.get)) == ["a", "b", "e", "f"]
