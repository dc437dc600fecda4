"""sims: a Monte Carlo strategy lab for the card games of the period rule books.

Importing sims configures nothing: the games are found through entry points
(:mod:`sims.core.registry`) and every kernel is defined through :func:`sims.core.kernel.njit`,
which places its cache (:mod:`sims.core.cache`).  The exceptions are the package's own programs
(:func:`_program`): in the command line's process (``sims`` or ``python -m sims``) Ctrl-C is turned into
one line from the first moment, and in every one (``python -m sims.analysis.claims`` too) NumPy is asked
not to hint its large arrays into transparent huge pages (``NUMPY_MADVISE_HUGEPAGE=0``, unless set): where the
kernel's huge-page ``defrag`` setting is ``madvise``, a fault in a hinted page compacts memory first, and the
first touch of a run's records (580 MB) took 5-8 s of system time, against 0.4 s unhinted (docs/performance.md).
"""

import os
import sys


def _program(argv: list[str]) -> str | None:
    """The package's program the process was started as (``argv``: :data:`sys.orig_argv`): ``"sims"`` for the
    command line (its script, or ``python -m sims``), the module for ``python -m sims.<module>``, else None."""
    if argv[1:2] == ["-m"] and argv[2:3] and (argv[2] == "sims" or argv[2].startswith("sims.")):
        return argv[2]
    return "sims" if argv[1:2] and argv[1].endswith("/sims") else None


def _quiet_interrupt(signum, frame):  # Ctrl-C while the command line starts: one line, status 130
    sys.stderr.write("sims: interrupted\n")
    os._exit(130)


_PROGRAM = _program(sys.orig_argv)
if _PROGRAM:
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")  # read when NumPy is imported, which is later
if _PROGRAM == "sims":
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
    "tune": "sims.core.tune",
}


def __getattr__(name):
    """``sims.load_run``, ``sims.run``, ``sims.simulate``, ``sims.tune`` ... without importing the engine on ``import sims``."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sims' has no attribute {name!r}")
