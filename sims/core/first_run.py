"""The one line a first run prints before a game's kernels compile (they are cached afterwards).

A module's kernels are cached in a folder of the kernel cache named by a hash of the sources
the module can reach (:mod:`sims.core.cache`).  While the folders of a game's engine and of its
built-in policies' modules are all missing or empty, the game's kernels have not been compiled from
these sources: :func:`announce` says so on stderr, with roughly how long it takes, before the engine
is imported.
"""

from __future__ import annotations

import sys

from .cache import cache_root, kernel_dir


def is_cold(engine: str, kernels=()) -> bool:
    """True when the kernel cache holds nothing compiled from the present sources of module ``engine``, nor of
    the modules ``kernels`` (where the game's kernels live besides: an engine may define none of its own and
    declare loops that belong to the module of the items they play)."""
    return all(_empty(kernel_dir(cache_root(), (module,))) for module in (engine, *kernels))


def _empty(folder) -> bool:
    return not (folder.is_dir() and any(folder.iterdir()))


_ANNOUNCED: set = set()  # the kernel folders this process has spoken of


def announce(game) -> None:
    """One line on stderr when ``game``'s kernels (its engine's, and its built-in policies' modules) are about
    to compile for the first time: once a process for a kernel cache, however many jobs are made before they
    have compiled."""
    policies = {spec.function.partition(":")[0] for table in game.policies.values() for spec in table.values()}
    folder = kernel_dir(cache_root(), (game.engine,))
    if folder not in _ANNOUNCED and is_cold(game.engine, sorted(policies)):
        _ANNOUNCED.add(folder)
        sys.stderr.write(
            f"sims: compiling the {game.name} kernels, once (about {game.compile_time} on 2 cores; later runs load "
            f"them from {cache_root()})\n"
        )
