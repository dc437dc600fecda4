"""The import structure, read from the sources (:mod:`sims.core.sources`, ``ast``): the core names no game,
the command line's code names none and imports none (a game's own commands are the game's), no module of sims
imports one that imports it back, and every kernel is defined through
:func:`sims.core.kernel.njit` (so it gets sims's cache).  Imports inside functions count as much as those
at the top; in the core, so do dotted strings (``"sims.x.y:attr"``, the form imported on first use)."""
from __future__ import annotations

import ast
import re

import pytest

from sims.core import registry, sources

SIMS = frozenset({"sims"})
CORE_MAY_IMPORT = {"sims", "sims.cards", "sims.stats"}   # the version; the cards and statistics every game shares


def game_packages() -> dict[str, str]:
    """Registered games of sims by name -> their package (``sims.x`` of ``sims.x.game:GAME``)."""
    packages = {name: ep.value.partition(":")[0].rpartition(".")[0] for name, ep in registry.registered().items()}
    return {name: package for name, package in packages.items() if package.startswith("sims.")}


def core_modules():
    return [m for m in sources.modules("sims") if m == "sims.core" or m.startswith("sims.core.")]


def cli_modules():
    return [m for m in sources.modules("sims") if m == "sims.cli" or m.startswith("sims.cli.")]


def games_named_in_code(path, names) -> list[str]:
    """The games ``path``'s code names: a string that is a game's name or a dotted path into its package (its
    ``"cribbage"``, ``"sims.loo.advice"``), or a variable or attribute so named (docstrings and help, prose
    for the reader, may give a game as an example)."""
    dotted = re.compile(r"^(sims\.)?(" + "|".join(names) + r")([.:]|$)", re.IGNORECASE)
    found = []
    for node in ast.walk(ast.parse(path.read_bytes())):
        text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else \
            node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
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
    outside = [m for m in sources.imports(module, frozenset({"sims", "analysis"}), strings=True)
               if not m.startswith("sims.core") and m not in CORE_MAY_IMPORT]
    assert outside == []


def test_the_core_sources_name_no_game():
    names = re.compile(r"\b(" + "|".join(registry.names()) + r")\b", re.IGNORECASE)
    mentions = [f"{m}: {hit.group(0)}" for m in core_modules()
                for hit in [names.search(sources.module_file(m).read_text())] if hit]
    assert mentions == []


@pytest.mark.parametrize("module", cli_modules())
def test_the_command_line_imports_no_game(module):
    """Nothing in sims.cli imports (or names in a dotted string) a game's package: a game's parts come from its
    ``Game``, its own commands from the entry points ``sims.commands``."""
    games = tuple(game_packages().values())
    assert [m for m in sources.imports(module, SIMS, strings=True) if m.startswith(games)] == []


@pytest.mark.parametrize("module", cli_modules())
def test_the_command_line_names_no_game_in_its_code(module):
    assert games_named_in_code(sources.module_file(module), registry.names()) == []


def test_the_game_name_finder_finds_names_in_code_and_not_in_prose(tmp_path):
    """The sentinel for the test above."""
    (tmp_path / "m.py").write_text('"""Cribbage, for one."""\nif game == "cribbage": import x\n'
                                   'HELP = "a game such as loo"\nf = get("sims.loo.duel")\nallfours.go()\n')
    assert games_named_in_code(tmp_path / "m.py", ["cribbage", "loo", "allfours"]) == [
        "line 2: 'cribbage'", "line 4: 'sims.loo.duel'", "line 5: 'allfours'"]


def built_imports(path) -> list[int]:
    """The lines of ``path`` that import a module whose name the code builds from strings (an f-string, a ``+``,
    a ``%``): a part of a game found by its module's name rather than declared."""
    return [node.lineno for node in ast.walk(ast.parse(path.read_bytes()))
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in
            ("import_module", "__import__") and node.args and isinstance(node.args[0], (ast.JoinedStr, ast.BinOp))]


@pytest.mark.parametrize("module", core_modules() + cli_modules())
def test_the_core_and_the_command_line_import_no_module_by_a_built_name(module):
    assert built_imports(sources.module_file(module)) == []


def test_the_built_import_finder_finds_them(tmp_path):
    """The sentinel for the test above."""
    (tmp_path / "m.py").write_text('import importlib\nimportlib.import_module(f"{p}.record")\n'
                                   'import_module(rules + ".duel")\nimportlib.import_module(game.engine)\n')
    assert built_imports(tmp_path / "m.py") == [2, 3]


def test_no_import_cycles_among_the_modules_of_sims():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    """The sentinel for the test above: two modules importing each other are found."""
    assert cycles({"a": ["b"], "b": ["c", "a"], "c": []}) == [["a", "b"]]


@pytest.mark.parametrize("game,package", sorted(game_packages().items()))
def test_a_game_imports_no_other_game_nor_the_command_line(game, package):
    """A game imports no other game, nor the command line but in its own commands (``package.commands``, which
    are command-line modules and use the command line's shared arguments and tables)."""
    others = tuple(p for g, p in game_packages().items() if g != game) + ("sims.bench",)
    bad = {m: [i for i in imports if i.startswith(others) or
               (i.startswith("sims.cli") and not m.startswith(f"{package}.commands"))]
           for m, imports in graph().items() if m == package or m.startswith(package + ".")}
    assert {m: i for m, i in bad.items() if i} == {}


def takes_njit_from_numba(path) -> bool:
    tree = ast.parse(path.read_bytes())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "numba" and \
                any(a.name in ("njit", "jit") for a in node.names):
            return True
        if isinstance(node, ast.Attribute) and node.attr in ("njit", "jit") and \
                isinstance(node.value, ast.Name) and node.value.id == "numba":
            return True
    return False


def test_every_kernel_of_sims_is_defined_through_sims_core_kernel():
    direct = [m for m in sources.modules("sims") if m != "sims.core.kernel"
              and takes_njit_from_numba(sources.module_file(m))]
    assert direct == []


def test_the_numba_njit_finder_sees_both_spellings(tmp_path):
    (tmp_path / "a.py").write_text("from numba import njit\n")
    (tmp_path / "b.py").write_text("import numba\nf = numba.njit(cache=True)(lambda: 1)\n")
    (tmp_path / "c.py").write_text("from sims.core.kernel import njit\n")
    assert [takes_njit_from_numba(tmp_path / f) for f in ("a.py", "b.py", "c.py")] == [True, True, False]


def outside_games() -> dict[str, str]:
    """Registered games from other distributions by name -> their top-level package."""
    return {name: ep.value.split(".")[0] for name, ep in registry.registered().items()
            if not ep.value.startswith("sims.")}


@pytest.mark.parametrize("game", sorted(outside_games()) or [pytest.param("none", marks=pytest.mark.skip)])
def test_a_game_of_another_distribution_uses_only_the_core(game):
    """The worked example (docs/examples) is written against the core alone: no other game, no command line."""
    top = outside_games()[game]
    used = {i for m in sources.modules(top) for i in sources.imports(m, frozenset({"sims", top}), strings=True)}
    assert sorted(i for i in used if i.startswith("sims") and not i.startswith("sims.core")
                  and i not in CORE_MAY_IMPORT) == []


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
