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

import functools
import importlib
import inspect
import warnings

import numba
import numpy as np
from numba.core import typeinfer, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.typing.typeof import typeof_impl

from .cache import claim


def njit(*args, refcounts: bool = True, reads: tuple[str, ...] = (), **options):
    """``numba.njit`` for sims kernels: ``@njit``, ``@njit(cache=True)``, ``@njit(SIG, cache=True, ...)``,
    ``njit(SIG, cache=True)(function)``.  With explicit types, a :class:`LazyKernel`: compiled (or loaded from
    the cache) at its first use, not when its module is imported.

    ``refcounts=False``: compiled without numba's reference counting (its two atomic operations on every array
    argument and view), for a hot kernel that allocates nothing and keeps no array it is given.  numba
    compiles what such a kernel calls in the same way unless told otherwise, so every other kernel is told
    (``_nrt=True``): one that allocates still compiles when a kernel without reference counting calls it first.

    A kernel without explicit types compiles once per argument types its callers pass, constants counted as
    their type, and the arrays named in ``reads`` (arguments it never writes) as read-only arrays
    (:func:`_one_per_type`)."""
    if args and inspect.isfunction(args[0]):
        return njit(*args[1:], refcounts=refcounts, reads=reads, **options)(args[0])
    jit = numba.njit(_nrt=refcounts, **options)

    def define(function):
        claim(function)
        warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
        if args:
            (signatures,) = args
            if reads:
                raise TypeError(f"{function.__qualname__}: reads is for a kernel without explicit types")
            return LazyKernel(jit, signatures if isinstance(signatures, list) else [signatures], function)
        return _one_per_type(jit(function), reads)

    return define


def _one_per_type(dispatcher, reads=()):
    """``dispatcher``, compiled for a call from another kernel with constants as their type: ``f(x, 0)`` and
    ``f(x, n)`` run the one ``f(array, int64)``.  numba would compile ``f`` for each constant argument (typed
    ``Literal[int](0)``, ``Literal[bool](True)``), over again for every kernel ``f`` calls in turn: a third of
    the specialisations of the games' kernels, each compiled in full.  The constant still reaches the machine
    code when LLVM inlines the call.  numba types such a call by asking the dispatcher for a call template for
    the arguments' types (``Dispatcher.get_call_template``); here it is asked with the constants' types.

    The arguments named in ``reads`` are asked for as read-only arrays: a policy sees the game's arrays
    read-only and the engine that owns them does not, and a helper both call would otherwise compile twice
    (numba passes a writable array where a read-only one is typed; typing refuses a write to it)."""
    template = dispatcher.get_call_template
    names = list(inspect.signature(dispatcher.py_func).parameters)
    unknown = set(reads) - set(names)
    if unknown:
        raise TypeError(f"{dispatcher.py_func.__qualname__} has no argument {sorted(unknown)[0]!r} to read")

    def typed(name, arg):
        arg = types.unliteral(arg)
        return arg.copy(readonly=True) if name in reads and isinstance(arg, types.Array) else arg

    def get_call_template(args, kws):
        named = [*names, *[None] * len(args)]
        return template(tuple(map(typed, named, args)), {k: typed(k, v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def read_only(array):
    """A read-only view of ``array``, for Python to call a kernel with what a policy sees: the kernel then runs
    the specialisation its policy callers compiled (read-only arrays, :mod:`sims.core.kernel_types`), not one
    more of its own."""
    view = array.view()
    view.flags.writeable = False
    return view


class LazyKernel:
    """A kernel with explicit types (a policy, a chunk loop, an advice or benchmark loop): compiled, or loaded
    from the cache, at its first use - a call from Python, or the compilation of a kernel that calls it -
    rather than when its module is imported, so that importing a game (a command that never runs the
    kernel, a test collection) costs no compilation.  :func:`lazy_kernels` lists them for ``sims compile``,
    which compiles them now.  Attributes are the numba dispatcher's (``signatures``, ``stats``, ``py_func``)."""

    def __init__(self, jit, signatures, function):
        self._jit, self._signatures, self._function = jit, signatures, function
        self._compiling = self._compiled = None
        self._entries = {}  # argument types (:func:`_types_key`) -> the machine code numba ran for them
        functools.update_wrapper(self, function)
        _LAZY.append(self)

    @property
    def dispatcher(self):
        """The numba dispatcher, compiled (or loaded) the first time it is asked for, as ``numba.njit(SIG)``
        compiles it: under numba's compiler lock, which a thread may take again - a recursive kernel asks for
        its own dispatcher while it compiles, and gets it."""
        if self._compiled is None:
            with global_compiler_lock:
                if self._compiling is None:
                    self._compiling = self._jit(self._function)
                    try:
                        with typeinfer.register_dispatcher(self._compiling):
                            for signature in self._signatures:
                                self._compiling.compile(signature)
                    except BaseException:
                        self._compiling = None
                        raise
                    self._compiling.disable_compile()
                    self._compiled = self._compiling
                return self._compiling
        return self._compiled

    @property
    def compiled(self) -> bool:
        """Whether the kernel has compiled, or loaded from the cache, yet."""
        return self._compiled is not None

    def __call__(self, *args):
        """The kernel run on ``args``, as numba's dispatcher runs it.  The dispatcher types every argument on
        every call, and typing a tuple of policies (first-class functions) takes milliseconds, often more than
        the kernel: so a call whose arguments have the types of an earlier call (:func:`_types_key`) runs the
        machine code the dispatcher chose then, which it would choose again; any other goes to the
        dispatcher, its errors included."""
        try:
            key = _types_key(args)
        except _Untyped:
            return self.dispatcher(*args)
        entry = self._entries.get(key)
        if entry is not None:
            return entry(*args)
        dispatcher = self.dispatcher
        result = dispatcher(*args)
        if len(dispatcher.overloads) == 1 and len(self._entries) < MAX_ENTRIES:
            (compiled,) = dispatcher.overloads.values()
            self._entries[key] = compiled.entry_point
        return result

    def __getattr__(self, name):  # only for names the instance lacks: the dispatcher's
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __reduce__(self):  # pickled by reference, as a function is
        return _defined, (self.__module__, self.__qualname__)


_LAZY: list[LazyKernel] = []
MAX_ENTRIES = 64  # argument types remembered a kernel (a kernel is called with one or two)
INT64 = (-(2**63), 2**63)  # a Python int in this range numba types int64 (else uint64, or refuses it)


class _Untyped(Exception):
    """An argument whose numba type :func:`_types_key` does not read from its Python type."""


def _types_key(value):
    """A key that gives numba's type of ``value`` (``numba.typeof``) and nothing else: an array's dtype,
    dimensions, layout and flags, a number's type (an int's range), a tuple's items, a kernel itself (a
    first-class function is typed by its object); :class:`_Untyped` for any other value."""
    kind = type(value)
    if kind is np.ndarray:
        flags = value.flags
        return ("a", value.dtype, value.ndim, flags.c_contiguous, flags.f_contiguous, flags.writeable, flags.aligned)
    if kind is tuple:
        return ("t", *map(_types_key, value))
    if kind is int:
        return ("i", INT64[0] <= value < INT64[1])
    if kind is bool or kind is float:
        return (kind,)
    if isinstance(value, np.generic):
        return ("n", value.dtype)
    if isinstance(value, Dispatcher | LazyKernel):
        return ("f", value)
    raise _Untyped


@typeof_impl.register(LazyKernel)
def _typeof_lazy_kernel(kernel, context):
    """A kernel that calls a :class:`LazyKernel` types the call as one to its dispatcher (compiled now)."""
    return typeof_impl(kernel.dispatcher, context)


def _defined(module: str, name: str):
    return getattr(importlib.import_module(module), name)


def lazy_kernels() -> tuple[LazyKernel, ...]:
    """Every :class:`LazyKernel` defined so far, in the order of definition (``sims compile`` compiles those
    that importing a module defines)."""
    return tuple(_LAZY)
