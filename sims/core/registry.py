"""The games: whatever the installed distributions register in the entry-point group ``sims.games``.

A distribution lists its games in its ``pyproject.toml``, as pytest plugins and Dask's
comm backends do::

    [project.entry-points."sims.games"]
    mygame = "mygame.game:GAME"                # name = "module:attribute" of a Game

and the core never names a game.  A game's record is imported when it is first asked
for, so listing the games (``sims --help``) imports no game and compiles no kernel.

The default game (a run spec or a Python call that names none) is chosen the same way,
by metadata: the one entry of the group ``sims.default_game``, whose name is the game's
(the ``sims`` distribution declares one; a distribution that only adds a game declares
none).  No entry, or entries from several distributions naming different games, means
no default: a game must then be named.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from importlib.metadata import EntryPoint

from .metadata import entry_points
from .protocol import Game

GROUP = "sims.games"
DEFAULT_GROUP = "sims.default_game"
CLAIMS_GROUP = "sims.claims"  # the packages of the games' period claims: the claims report's sections
BENCH_GROUP = "sims.benchmarks"  # the benchmark modules, shared and each game's: python -m sims.bench runs them


@cache
def registered() -> dict[str, EntryPoint]:
    """The registered games' entry points by name (sorted), read once per process; an entry whose package is
    not installed (metadata left behind) is left out."""
    return {
        ep.name: ep
        for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name)
        if _installed(ep.module.partition(".")[0])
    }


def _installed(top: str) -> bool:
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return False


def claims_by_game() -> dict[str, str]:
    """The packages of the games' period claims by game (entry points ``sims.claims``, ``game = "package"``),
    sorted by game; an entry whose package is not installed is left out.  They run simulations and define no
    kernels."""
    entries = sorted(entry_points(group=CLAIMS_GROUP), key=lambda ep: ep.name)
    return {ep.name: ep.value for ep in entries if _installed(ep.value.partition(".")[0])}


def claims_packages() -> list[str]:
    """The packages of :func:`claims_by_game`, in its order."""
    return list(claims_by_game().values())


def benchmark_entries() -> list[EntryPoint]:
    """The benchmarks' entry points (``sims.benchmarks``, ``NAME = "module"``), by name, loaded by whoever runs them
    (:func:`sims.bench.benchmarks`, which reports one that cannot be imported)."""
    return sorted(entry_points(group=BENCH_GROUP), key=lambda ep: ep.name)


def names() -> list[str]:
    return list(registered())


@cache
def default_name() -> str | None:
    """The game named by the ``sims.default_game`` entry points, when they agree on one registered game."""
    chosen = {ep.name for ep in entry_points(group=DEFAULT_GROUP)}
    return chosen.pop() if len(chosen) == 1 and chosen <= set(registered()) else None


@cache
def _load(name: str) -> Game:
    from .foreign import call_foreign

    ep = registered()[name]
    dist = getattr(ep, "dist", None)
    game = call_foreign(
        ep.load, f"game {name} = {ep.value!r} ({dist.name if dist else 'unknown distribution'}) cannot be loaded"
    )
    if not isinstance(game, Game) or game.name != name:
        raise ValueError(f"the entry point {name} = {ep.value!r} in {GROUP} is not a Game named {name!r}")
    return game


def get_game(game: str | Game | None = None) -> Game:
    """A registered game by name (None: the default game), or the Game given; else a one-line error."""
    if isinstance(game, Game):
        return game
    known = ", ".join(names()) or f"none (no installed distribution registers {GROUP} entry points)"
    name = default_name() if game is None else game
    if name is None:
        raise ValueError(f"no game given and no default game is declared; games: {known}")
    if name not in registered():
        raise ValueError(f"unknown game {name!r}; games: {known}")
    return _load(name)
