"""sims: a Monte Carlo strategy lab for the card games of the period rule books."""
import sys


def _quiet_interrupt(signum, frame):   # Ctrl-C while the command line starts: one line, status 130
    sys.stderr.write("sims: interrupted\n")
    import os

    os._exit(130)


if sys.orig_argv[1:3] == ["-m", "sims"] or sys.orig_argv[1:2] and sys.orig_argv[1].endswith("/sims"):
    import _signal   # the C module: nothing else to import before Ctrl-C is handled (sims.cli.main takes over)

    _signal.signal(_signal.SIGINT, _quiet_interrupt)

import importlib  # noqa: E402

__version__ = "0.1.0"

_LAZY = {"load_run": "sims.core.runner", "run": "sims.core.runner", "simulate": "sims.core.api",
         "PolicyError": "sims.core.errors", "Job": "sims.core.jobs", "get_game": "sims.core.registry"}


def __getattr__(name):
    """``sims.load_run``, ``sims.run``, ``sims.simulate`` ... without importing the engine on ``import sims``."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sims' has no attribute {name!r}")


def _configure_numba() -> None:
    """Cache sims's kernels by source-tree hash (:mod:`sims.core.cache`); ignore numba's warning that
    first-class functions (the policies) are experimental: the feature works and is cached."""
    import warnings
    from pathlib import Path

    from numba.core.errors import NumbaExperimentalFeatureWarning

    from .core.cache import install

    warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
    install(Path(__file__).parent)


class _BeforeKernels:
    """An import finder that configures numba as the first module of sims beyond the command line's entry
    is imported, before any kernel is defined: ``import sims`` and ``import sims.cli`` leave numba alone,
    so that the command line imports it inside its Ctrl-C handler."""

    LIGHT = {"sims.__main__", "sims.cli", "sims.core", "sims.core.cache"}   # the entry and the cache itself

    def find_spec(self, name, path=None, target=None):
        if name.startswith("sims.") and name not in self.LIGHT:
            sys.meta_path.remove(self)
            try:
                _configure_numba()
            except BaseException:   # e.g. Ctrl-C while numba loads: configure at the next import
                sys.meta_path.insert(0, self)
                raise
        return None


sys.meta_path.insert(0, _BeforeKernels())
