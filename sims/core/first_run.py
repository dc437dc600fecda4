"""The one line a first run prints before a game's kernels compile (they are cached afterwards).

A game's kernels are cached in one folder of the kernel cache, named by a hash of the sources
they can reach (:mod:`sims.core.cache`).  While that folder is missing or empty, the game's
kernels have not been compiled from these sources: :func:`announce` says so on stderr, with
roughly how long it takes, before the game's first kernel module is imported.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .cache import SHARED, cache_root, part_key

PACKAGE = Path(__file__).resolve().parents[1]


def is_cold(game: str) -> bool:
    """True when the kernel cache holds nothing compiled from ``game``'s present sources."""
    folder = cache_root() / f"{game}-{part_key(PACKAGE, game, SHARED)}"
    return not (folder.is_dir() and any(folder.iterdir()))


def announce(game: str, minutes: str) -> None:
    """One line on stderr when ``game``'s kernels are about to compile for the first time."""
    if is_cold(game):
        sys.stderr.write(f"sims: compiling the {game} kernels, once (about {minutes} on 2 cores; later runs load "
                         f"them from {cache_root()})\n")
