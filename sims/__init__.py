"""sims: a Monte Carlo strategy lab for the card games of the period rule books.

Importing sims configures nothing: the games are found through entry points
(:mod:`sims.core.registry`) and every kernel is defined through :func:`sims.core.kernel.njit`,
which places its cache (:mod:`sims.core.cache`).
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {"load_run": "sims.core.runner", "run": "sims.core.runner", "simulate": "sims.core.api",
         "PolicyError": "sims.core.errors", "Job": "sims.core.jobs", "get_game": "sims.core.registry"}


def __getattr__(name):
    """``sims.load_run``, ``sims.run``, ``sims.simulate`` ... without importing the engine on ``import sims``."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sims' has no attribute {name!r}")
