"""How sims defines a kernel: numba's ``njit``, with the on-disk cache placed by :mod:`sims.core.cache`.

Every module of sims, and of a game in its own distribution, takes ``njit`` from here
instead of from numba (``from sims.core.kernel import njit``); it accepts exactly what
``numba.njit`` accepts.  Before numba sees the function it is claimed for the cache
(:func:`sims.core.cache.claim`), so a ``cache=True`` kernel is cached by the sources its
module reaches, whatever was imported first; a test checks that no module of sims takes
``njit`` from numba.  Importing this module configures nothing.

The engines take policies as first-class functions, a numba feature still called
experimental, whose warning would greet every compilation and every run: defining a
kernel here also silences that one warning category, as sims always has (the feature
works and is cached).
"""
from __future__ import annotations

import inspect
import warnings

import numba
from numba.core.errors import NumbaExperimentalFeatureWarning

from .cache import claim


def njit(*args, **options):
    """``numba.njit`` for sims kernels: ``@njit``, ``@njit(cache=True)``, ``@njit(SIG, cache=True, ...)``,
    ``njit(SIG, cache=True)(function)``."""
    if args and inspect.isfunction(args[0]):
        return njit(*args[1:], **options)(args[0])
    compile_ = numba.njit(*args, **options)

    def define(function):
        claim(function)
        warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
        return compile_(function)

    return define
