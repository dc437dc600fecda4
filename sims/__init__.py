"""sims: a Monte Carlo strategy lab for the card games of the period rule books."""
from __future__ import annotations

import warnings

from numba.core.errors import NumbaExperimentalFeatureWarning

# Policies are first-class numba functions; the feature works and is cached.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

__version__ = "0.1.0"

from pathlib import Path  # noqa: E402

from .core.cache import install as _install_kernel_cache  # noqa: E402

_install_kernel_cache(Path(__file__).parent)


_LAZY = {"load_run": "sims.core.runner", "run": "sims.core.runner", "simulate": "sims.core.api",
         "PolicyError": "sims.core.errors", "Job": "sims.core.jobs", "get_game": "sims.core.registry"}


def __getattr__(name):
    """``sims.load_run``, ``sims.run``, ``sims.simulate`` ... without importing the engine on ``import sims``."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sims' has no attribute {name!r}")
