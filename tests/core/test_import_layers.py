"""The import structure, read from the sources (:mod:`sims.core.sources`, ``ast``): the core names no game; the
shared parts above it (the command line, the benchmarks' runner, timing and goals table, the analysis) name none
in their code and import none (a game's own commands, benchmarks, claims and notebook helpers are the game's); no
module of the repository imports one that imports it back, and every kernel is defined through
:func:`sims.core.kernel.njit` (so it gets sims's cache).  Imports inside functions count as much as those
at the top; in the core, so do dotted strings (``"sims.x.y:attr"``, the form imported on first use)."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from sims.core import registry, sources

SIMS = frozenset({"sims"})
CORE_MAY_IMPORT = {"sims", "sims.cards", "sims.stats"}  # the version; the cards and statistics every game shares


def game_packages() -> dict[str, str]:
    """Registered games of sims by name -> their package (``sims.x`` of ``sims.x.game:GAME``)."""
    packages = {name: ep.value.partition(":")[0].rpartition(".")[0] for name, ep in registry.registered().items()}
    return {name: package for name, package in packages.items() if package.startswith("sims.")}


def core_modules():
    return [m for m in sources.modules("sims") if m == "sims.core" or m.startswith("sims.core.")]


ROOT = Path(__file__).resolve().parents[2]


def in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def modules_under(folder: Path, name: str) -> list[str]:
    """The modules of the package in ``folder`` named ``name``, walked through links (``sims/analysis`` is a link
    to the top-level ``analysis/``), ``__main__`` left out."""
    found = []
    for here, dirs, files in os.walk(folder, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d.isidentifier())
        package = (name, *Path(here).relative_to(folder).parts)
        found += [
            ".".join(package if f == "__init__.py" else (*package, f[:-3]))
            for f in sorted(files)
            if f.endswith(".py") and f[:-3].isidentifier() and f != "__main__.py"
        ]
    return found


SHARED = ("sims.cli", "sims.bench", "sims.analysis")  # above the core, below or beside the games: no game in them


def shared_modules():
    """The modules of :data:`SHARED` (the analysis through its link, :func:`modules_under`)."""
    return [m for m in modules_under(ROOT / "sims", "sims") if any(in_package(m, p) for p in SHARED)]


def games_named_in_code(path, names) -> list[str]:
    """The games ``path``'s code names: a string that is a game's name or a dotted path into its package (its
    ``"cribbage"``, ``"sims.loo.advice"``), or a variable or attribute so named (docstrings and help, prose
    for the reader, may give a game as an example)."""
    dotted = re.compile(r"^(sims\.)?(" + "|".join(names) + r")([.:]|$)", re.IGNORECASE)
    found = []
    for node in ast.walk(ast.parse(path.read_bytes())):
        text = (
            node.value
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            else node.id
            if isinstance(node, ast.Name)
            else node.attr
            if isinstance(node, ast.Attribute)
            else None
        )
        if text is not None and dotted.match(text.strip()):
            found.append(f"line {node.lineno}: {text.strip()!r}")
    return found


def graph(strings=False) -> dict[str, list[str]]:
    return {m: sources.imports(m, SIMS, strings) for m in sources.modules("sims")}


def cycles(edges: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
                on.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_three_games_are_registered_and_the_default_is_declared_by_metadata():
    assert set(game_packages()) >= {"cribbage", "allfours", "loo"}
    assert registry.default_name() in registry.names()


@pytest.mark.parametrize("module", core_modules())
def test_the_core_imports_only_the_core(module):
    """Nothing in sims.core imports (or names in a string) a game, the command line or analysis."""
    outside = [
        m
        for m in sources.imports(module, frozenset({"sims", "analysis"}), strings=True)
        if not m.startswith("sims.core") and m not in CORE_MAY_IMPORT
    ]
    assert outside == []


def test_the_core_sources_name_no_game():
    names = re.compile(r"\b(" + "|".join(registry.names()) + r")\b", re.IGNORECASE)
    mentions = [
        f"{m}: {hit.group(0)}"
        for m in core_modules()
        for hit in [names.search(sources.module_file(m).read_text())]
        if hit
    ]
    assert mentions == []


def test_the_shared_parts_are_walked_whole():
    """The sentinel for the tests below: the command line, the benchmarks' shared modules and the analysis."""
    shared = shared_modules()
    assert {"sims.cli.advise", "sims.bench", "sims.bench.goals", "sims.analysis.report"} <= set(shared)
    assert {"sims.analysis.claims.command", "sims.analysis.advisor_widget"} <= set(shared)


@pytest.mark.parametrize("module", shared_modules())
def test_the_shared_parts_import_no_game(module):
    """Nothing in sims.cli, sims.bench or sims.analysis imports (or names in a dotted string) a game's package: a
    game's parts come from its ``Game``, its own commands, benchmarks and claims from the entry points
    ``sims.commands``, ``sims.benchmarks`` and ``sims.claims``, its notebook helpers are its own."""
    games = tuple(game_packages().values())
    assert [m for m in sources.imports(module, SIMS, strings=True) if m.startswith(games)] == []


@pytest.mark.parametrize("module", shared_modules())
def test_the_shared_parts_name_no_game_in_their_code(module):
    assert games_named_in_code(sources.module_file(module), registry.names()) == []


def test_the_game_name_finder_finds_names_in_code_and_not_in_prose(tmp_path):
    """The sentinel for the test above."""
    (tmp_path / "m.py").write_text(
        '"""Cribbage, for one."""\nif game == "cribbage": import x\n'
        'HELP = "a game such as loo"\nf = get("sims.loo.duel")\nallfours.go()\n'
    )
    assert games_named_in_code(tmp_path / "m.py", ["cribbage", "loo", "allfours"]) == [
        "line 2: 'cribbage'",
        "line 4: 'sims.loo.duel'",
        "line 5: 'allfours'",
    ]


def built_imports(path) -> list[int]:
    """The lines of ``path`` that import a module whose name the code builds from strings (an f-string, a ``+``,
    a ``%``): a part of a game found by its module's name rather than declared."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_bytes()))
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
        and node.args
        and isinstance(node.args[0], (ast.JoinedStr, ast.BinOp))
    ]


@pytest.mark.parametrize("module", core_modules() + shared_modules())
def test_the_core_and_the_shared_parts_import_no_module_by_a_built_name(module):
    assert built_imports(sources.module_file(module)) == []


def test_the_built_import_finder_finds_them(tmp_path):
    """The sentinel for the test above."""
    (tmp_path / "m.py").write_text(
        'import importlib\nimportlib.import_module(f"{p}.record")\n'
        'import_module(rules + ".duel")\nimportlib.import_module(game.engine)\n'
    )
    assert built_imports(tmp_path / "m.py") == [2, 3]


def test_no_import_cycles_among_the_modules_of_sims():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    """The sentinel for the test above: two modules importing each other are found."""
    assert cycles({"a": ["b"], "b": ["c", "a"], "c": []}) == [["a", "b"]]


@pytest.mark.parametrize("game,package", sorted(game_packages().items()))
def test_a_game_imports_no_other_game_nor_the_command_line(game, package):
    """A game imports no other game, nor the command line but in its own commands (``package.commands``, which
    are command-line modules and use the command line's shared arguments and tables), nor the benchmarks' shared
    parts but in its own benchmarks (``package.bench``, which use their timing and the goals table's rows)."""
    others = tuple(p for g, p in game_packages().items() if g != game)
    bad = {
        m: [
            i
            for i in imports
            if i.startswith(others)
            or (i.startswith("sims.cli") and not in_package(m, f"{package}.commands"))
            or (in_package(i, "sims.bench") and not in_package(m, f"{package}.bench"))
        ]
        for m, imports in graph().items()
        if m == package or m.startswith(package + ".")
    }
    assert {m: i for m, i in bad.items() if i} == {}


@pytest.mark.parametrize("game,package", sorted(game_packages().items()))
def test_a_games_benchmarks_and_notebook_helpers_stand_above_it(game, package):
    """A game's benchmarks (``package.bench``) and notebook helpers (``package.notebook``) use the game; nothing
    else of the game imports them (nor names them in a dotted string)."""
    above = (f"{package}.bench", f"{package}.notebook")
    bad = {
        m: [i for i in imports if any(in_package(i, a) for a in above)]
        for m, imports in graph(strings=True).items()
        if in_package(m, package) and not any(in_package(m, a) for a in above)
    }
    assert {m: i for m, i in bad.items() if i} == {}


LAB = "sims.cribbage.lab"  # the offline builders of cribbage's shipped tables
LAB_RUNNERS = ("sims.cribbage.commands", "sims.cribbage.claims", "sims.cribbage.bench")  # they run or time them


def test_cribbage_imports_its_offline_builders_only_in_the_commands_that_run_them():
    """The builders (self-play crib tables, distillation, the board-position tables, tournaments) are apart from
    the rules, the engine, the policies and the advisors: nothing of cribbage outside ``lab`` imports it (nor
    names it in a dotted string), but the commands and the claims that run a builder and the benchmarks that time
    one."""
    bad = {
        m: [i for i in imports if in_package(i, LAB)]
        for m, imports in graph(strings=True).items()
        if in_package(m, "sims.cribbage") and not any(in_package(m, p) for p in (LAB, *LAB_RUNNERS))
    }
    assert {m: i for m, i in bad.items() if i} == {}


def takes_njit_from_numba(path) -> bool:
    tree = ast.parse(path.read_bytes())
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "numba"
            and any(a.name in ("njit", "jit") for a in node.names)
        ):
            return True
        if (
            isinstance(node, ast.Attribute)
            and node.attr in ("njit", "jit")
            and isinstance(node.value, ast.Name)
            and node.value.id == "numba"
        ):
            return True
    return False


def test_every_kernel_of_sims_is_defined_through_sims_core_kernel():
    direct = [
        m for m in sources.modules("sims") if m != "sims.core.kernel" and takes_njit_from_numba(sources.module_file(m))
    ]
    assert direct == []


def test_the_numba_njit_finder_sees_both_spellings(tmp_path):
    (tmp_path / "a.py").write_text("from numba import njit\n")
    (tmp_path / "b.py").write_text("import numba\nf = numba.njit(cache=True)(lambda: 1)\n")
    (tmp_path / "c.py").write_text("from sims.core.kernel import njit\n")
    assert [takes_njit_from_numba(tmp_path / f) for f in ("a.py", "b.py", "c.py")] == [True, True, False]


def outside_games() -> dict[str, str]:
    """Registered games from other distributions by name -> their top-level package."""
    return {
        name: ep.value.split(".")[0] for name, ep in registry.registered().items() if not ep.value.startswith("sims.")
    }


@pytest.mark.parametrize("game", sorted(outside_games()) or [pytest.param("none", marks=pytest.mark.skip)])
def test_a_game_of_another_distribution_uses_only_the_core(game):
    """The worked example (docs/examples) is written against the core alone: no other game, no command line."""
    top = outside_games()[game]
    used = {i for m in sources.modules(top) for i in sources.imports(m, frozenset({"sims", top}), strings=True)}
    assert (
        sorted(i for i in used if i.startswith("sims") and not i.startswith("sims.core") and i not in CORE_MAY_IMPORT)
        == []
    )


def test_a_game_whose_package_is_missing_is_not_listed(monkeypatch):
    """Metadata left behind by an uninstalled distribution names a package that is not there: not a game."""
    from importlib.metadata import EntryPoint

    stale = EntryPoint("ghost", "no_such_package_xyz.game:GAME", registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [stale] if group == registry.GROUP else [])
    registry.registered.cache_clear()
    try:
        assert registry.names() == []
        with pytest.raises(ValueError, match="unknown game 'ghost'"):
            registry.get_game("ghost")
    finally:
        registry.registered.cache_clear()


# ---- the whole repository: sims with analysis (sims.analysis), and the example distributions of docs/examples ----

BOTTOM = ("sims.cards", "sims.stats")  # what everything stands on: they import no module of sims


def example_packages() -> dict[str, Path]:
    """The packages of the example distributions (docs/examples/<distribution>/<package>), by name."""
    return {init.parent.name: init.parent for init in sorted(ROOT.glob("docs/examples/*/*/__init__.py"))}


def repository_graph() -> dict[str, list[str]]:
    """Every module of the repository's packages -> the modules of those packages it imports (read with ast)."""
    packages = {"sims": ROOT / "sims", **example_packages()}
    tops = frozenset(packages)
    return {m: sources.imports(m, tops) for name, folder in packages.items() for m in modules_under(folder, name)}


def test_the_repository_graph_reads_analysis_the_bottom_and_the_examples():
    """The sentinel for the tests below: the walk reaches analysis through its link, and the examples."""
    edges = repository_graph()
    assert {
        "sims.cards",
        "sims.stats",
        "sims.analysis.claims.model",
        "sims.analysis.report",
        "sims.loo.claims.laws",
        "triumph.game",
        "policy_plugin",
    } <= set(edges)
    assert "sims.loo.claims.base" in edges["sims.loo.claims.laws"]  # a relative import, resolved


def test_no_import_circle_anywhere_in_the_repository():
    """No module imports, at the top or inside a function, one that imports it back (through any chain)."""
    for name, folder in example_packages().items():
        assert sources.package_root(name) == folder.resolve(), f"{name} is not installed from {folder}"
    assert cycles(repository_graph()) == []


@pytest.mark.parametrize("module", BOTTOM)
def test_the_bottom_modules_import_nothing_of_sims(module):
    """The cards and the statistics import no other module of sims, nor name one in a string."""
    assert sources.imports(module, frozenset({"sims", "analysis"}), strings=True) == []


def test_nothing_below_analysis_imports_it():
    """The games, the core, the command line and the benchmarks never import the analysis (it stands on them),
    but for each game's claims, which stand on the analysis's claim record, report and plots, and each game's
    notebook helpers (``package.notebook``), which stand on its notebook parts; the analysis imports neither the
    command line nor the benchmarks."""
    claims = registry.claims_packages()
    assert {"sims.cribbage.claims", "sims.allfours.claims", "sims.loo.claims"} <= set(claims)
    above_it = (*claims, *(f"{package}.notebook" for package in game_packages().values()))
    edges = {m: sources.imports(m, SIMS, strings=True) for m in modules_under(ROOT / "sims", "sims")}
    below = {
        m: [i for i in imports if i.startswith("sims.analysis")]
        for m, imports in edges.items()
        if not m.startswith("sims.analysis") and not any(in_package(m, package) for package in above_it)
    }
    above = {
        m: [i for i in imports if i.startswith(("sims.cli", "sims.bench"))]
        for m, imports in edges.items()
        if m.startswith("sims.analysis")
    }
    assert {m: i for m, i in {**below, **above}.items() if i} == {}
