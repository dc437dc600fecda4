"""sims: a Monte Carlo strategy lab for the card games of the period rule books.

Importing sims configures nothing: the games are found through entry points
(:mod:`sims.core.registry`) and every kernel is defined through :func:`sims.core.kernel.njit`,
which places its cache (:mod:`sims.core.cache`).  The one exception is the command line's own
process (``sims`` or ``python -m sims``), where Ctrl-C is turned into one line from the first moment.
"""

import sys


def _quiet_interrupt(signum, frame):  # Ctrl-C while the command line starts: one line, status 130
    sys.stderr.write("sims: interrupted\n")
    import os

    os._exit(130)


if sys.orig_argv[1:3] == ["-m", "sims"] or sys.orig_argv[1:2] and sys.orig_argv[1].endswith("/sims"):
    import _signal  # the C module: nothing else to import before Ctrl-C is handled (sims.cli.main takes over)

    _signal.signal(_signal.SIGINT, _quiet_interrupt)

import importlib  # noqa: E402

__version__ = "0.1.0"

_LAZY = {
    "load_run": "sims.core.runner",
    "run": "sims.core.runner",
    "simulate": "sims.core.api",
    "PolicyError": "sims.core.errors",
    "Job": "sims.core.jobs",
    "get_game": "sims.core.registry",
}


def __getattr__(name):
    """``sims.load_run``, ``sims.run``, ``sims.simulate`` ... without importing the engine on ``import sims``."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sims' has no attribute {name!r}")
