"""The one line a first run prints before a game's kernels compile (they are cached afterwards).

A module's kernels are cached in a folder of the kernel cache named by a hash of the sources
the module can reach (:mod:`sims.core.cache`).  While the folder of a game's engine is missing
or empty, the game's kernels have not been compiled from these sources: :func:`announce` says
so on stderr, with roughly how long it takes, before the engine is imported.
"""

from __future__ import annotations

import sys

from .cache import cache_root, kernel_dir


def is_cold(engine: str) -> bool:
    """True when the kernel cache holds nothing compiled from the present sources of module ``engine``."""
    return _empty(kernel_dir(cache_root(), (engine,)))


def _empty(folder) -> bool:
    return not (folder.is_dir() and any(folder.iterdir()))


_ANNOUNCED: set = set()  # the kernel folders this process has spoken of


def announce(game: str, engine: str, minutes: str) -> None:
    """One line on stderr when ``game``'s kernels (its module ``engine``) are about to compile for the first
    time: once a process for a kernel cache, however many jobs are made before they have compiled."""
    folder = kernel_dir(cache_root(), (engine,))
    if folder not in _ANNOUNCED and _empty(folder):
        _ANNOUNCED.add(folder)
        sys.stderr.write(
            f"sims: compiling the {game} kernels, once (about {minutes} on 2 cores; later runs load "
            f"them from {cache_root()})\n"
        )
