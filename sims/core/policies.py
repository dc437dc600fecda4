"""Policies: a game's declarative table of built-ins, user njit functions, and checked parameters.

A game lists its built-in policies as data, ``{decision: {name: PolicySpec(...)}}``,
naming each njit function by ``"module:attribute"``; :func:`resolve` imports a
policy the first time it is asked for, so no module is imported only to register
something.  Another distribution declares policies the same way, as
:class:`PluginPolicy` entry points (:mod:`sims.core.plugins`).  A user policy is an
njit function passed in directly (or named ``py:module.function``): it is compiled
once against the decision's signature, and the engine (compiled once for every
policy, see the games' ``engine`` modules) takes it as a first-class function.
A plug-in's or a user's policy carries its provenance (:func:`origin`): its module,
distribution and version, and the SHA-256 of its source.

Parameters are one float64 vector per policy.  A spec names them (``params``) and
declares what each takes (``ranges``: :data:`SWITCH` 0 or 1, :data:`COUNT` a whole
number from 1, :data:`NUMBER` any finite number), or says they form one table
(:class:`TableParams`, e.g. a 338-value crib table known by name);
:func:`check_params` refuses a vector of the wrong length, a value out of its range,
NaN, infinity or true/false, naming the policy and the parameter.
:meth:`Policy.describe` labels the values for manifests and summaries: scalars by
name, a table by its name and SHA-256.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from types import MappingProxyType

import numpy as np


def load(target: str):
    """The object a ``"module:attribute"`` (or ``"module"``) string names."""
    module, _, attr = target.partition(":")
    obj = importlib.import_module(module)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class TableParams:
    """Parameters that form one table: ``size`` values, with named tables from ``tables``
    (``"module:attribute"`` of a function returning ``{name: values}``); ``default`` names the default.
    ``names`` may declare the tables' names, so that listing them (``sims policies``) imports nothing."""

    label: str
    size: int
    tables: str
    default: str
    names: tuple[str, ...] = ()

    def named(self) -> Mapping[str, tuple]:
        return _named_tables(self.tables)

    def table_names(self) -> list[str]:
        """The tables' names: as declared, else those of :meth:`named` (which imports and reads them)."""
        return list(self.names or self.named())

    def name_of(self, values: tuple) -> str:
        """The name of a known table with exactly these values, else ``"custom"``."""
        named = self.named()
        for name, known in named.items():
            if known is values:  # a named table's own tuple: no need to compare 10^5 values
                return name
        for name, known in named.items():
            if tuple(known) == tuple(values):
                return name
        return "custom"


@cache
def _named_tables(tables: str) -> Mapping[str, tuple]:
    """``{name: values}`` of a :class:`TableParams`' function, as tuples of floats, made once a process (a table
    of the position players holds 97,066 values)."""
    return MappingProxyType({name: tuple(map(float, values)) for name, values in load(tables)().items()})


@cache
def _named_vectors(tables: str) -> Mapping[int, tuple[np.ndarray, str]]:
    """Each named table of ``tables`` as a read-only float64 vector with its SHA-256 (:func:`sha256`), by the id of
    the tuple :func:`_named_tables` keeps for the process: a policy playing a named table holds that very tuple,
    and converting its values again for each run took half of a small run's 30 ms outside the kernel."""
    vectors = {}
    for values in _named_tables(tables).values():
        vector = np.asarray(values, dtype=np.float64)
        vector.flags.writeable = False
        vectors[id(values)] = (vector, sha256(vector))
    return MappingProxyType(vectors)


@dataclass(frozen=True)
class Range:
    """The values a parameter takes: ``kind`` ``"switch"`` (0 or 1), ``"count"`` (a whole number) or
    ``"number"``, from ``low`` to ``high``."""

    kind: str
    low: float = -math.inf
    high: float = math.inf

    def text(self) -> str:
        """What the parameter takes, in words."""
        if self.kind == "switch":
            return "0 (off) or 1 (on)"
        what = "a whole number" if self.kind == "count" else "a number"
        if math.isinf(self.high):
            return what if math.isinf(self.low) else f"{what} of at least {self.low:g}"
        return f"{what} from {self.low:g} to {self.high:,.0f}"

    def holds(self, value: float) -> bool:
        if self.kind == "switch":
            return value in (0.0, 1.0)
        return self.low <= value <= self.high and (self.kind != "count" or value == int(value))


SWITCH = Range("switch", 0, 1)
COUNT = Range("count", 1, 2**31 - 1)  # kernels take counts as machine integers
NUMBER = Range("number")


def at_least(low: float) -> Range:
    return Range("number", low)


@dataclass(frozen=True)
class PolicySpec:
    """A built-in policy: its njit function, the names of its parameters (or a :class:`TableParams`), their
    defaults and what each takes (``ranges``, one :class:`Range` a parameter); ``players`` the numbers of
    players whose games it can play (empty: any).  ``fixed``, a :class:`TableParams` whose default table the
    function reads after the named parameters: not a parameter (never set, searched or stored), it lets a
    policy with numbers to tune read a table too (``Policy.params_array``)."""

    function: str
    params: tuple[str, ...] | TableParams = ()
    defaults: tuple[float, ...] = ()
    help: str = ""
    ranges: tuple[Range, ...] = ()
    players: tuple[int, ...] = ()
    fixed: TableParams | None = None

    def __post_init__(self):
        if not isinstance(self.params, TableParams) and not len(self.params) == len(self.defaults) == len(self.ranges):
            raise TypeError(f"policy {self.function}: give a default and a range for each parameter")
        if self.fixed is not None and isinstance(self.params, TableParams):
            raise TypeError(f"policy {self.function}: a fixed table follows named parameters, not another table")

    def fixed_values(self) -> tuple[float, ...]:
        """The values of the fixed table (none without one)."""
        return () if self.fixed is None else self.fixed.named()[self.fixed.default]

    @property
    def size(self) -> int:
        return self.params.size if isinstance(self.params, TableParams) else len(self.params)

    def default_params(self) -> tuple[float, ...]:
        if isinstance(self.params, TableParams):
            return self.params.named()[self.params.default]
        return tuple(float(x) for x in self.defaults)


@dataclass(frozen=True)
class PluginPolicy(PolicySpec):
    """A policy another distribution declares as an entry point of ``sims.policies``: a :class:`PolicySpec`
    (``function`` its njit function as ``"module:attribute"``) for ``game``'s ``decision``."""

    game: str = ""
    decision: str = ""

    def __post_init__(self):
        super().__post_init__()
        if not (isinstance(self.game, str) and self.game and isinstance(self.decision, str) and self.decision):
            raise TypeError(f"plug-in policy {self.function}: give the game and the decision it is for")


@dataclass(frozen=True)
class FunctionPolicy(PolicySpec):
    """The parameters a user's njit function declares (:func:`sims.core.plugins.declare`): a :class:`PolicySpec`
    whose ``function`` is that function's ``"module:qualname"`` (a script's or notebook's module is ``__main__``)."""


DECLARATION = "sims_policy"  # the attribute of a user's function that holds its FunctionPolicy


def declaration(fn) -> FunctionPolicy | None:
    """The parameters ``fn`` declares (on the dispatcher, or on the Python function under ``@njit``), else None."""
    found = getattr(fn, DECLARATION, None)
    if found is None:
        found = getattr(getattr(fn, "py_func", None), DECLARATION, None)
    return found if isinstance(found, FunctionPolicy) else None


def sha256(values) -> str:
    return hashlib.sha256(np.asarray(values, dtype="<f8").tobytes()).hexdigest()


@dataclass(frozen=True)
class Policy:
    """A named njit policy for one decision, with its parameter vector."""

    name: str
    decision: str
    fn: object = field(repr=False, compare=False)
    params: tuple = ()
    spec: PolicySpec | None = field(default=None, repr=False, compare=False)
    origin: dict | None = field(default=None, compare=False)  # a plug-in's or user's: :func:`origin`

    def __post_init__(self):
        """A sims kernel with explicit types (:class:`sims.core.kernel.LazyKernel`) is compiled, or loaded from
        the cache, when it becomes a policy: the engines take its numba dispatcher.  (Only a program that has
        imported :mod:`sims.core.kernel` holds one: a policy read from a store's spec does not import numba.)"""
        kernel = sys.modules.get(f"{__package__}.kernel")
        if kernel is not None and isinstance(self.fn, kernel.LazyKernel):
            object.__setattr__(self, "fn", self.fn.dispatcher)

    def params_array(self) -> np.ndarray:
        """The vector the function reads: the parameters, then the spec's fixed table if it has one, as a new
        float64 vector: a copy of one converted once (a table holds up to ~10^5 values, and an advisor passes
        them at every decision)."""
        return self._params_f64.copy()

    @cached_property
    def _params_f64(self) -> np.ndarray:
        if self.spec is None or self.spec.fixed is None:
            named = self._named_vector()
            return named[0] if named is not None else np.asarray(self.params, dtype=np.float64)
        return np.asarray(tuple(self.params) + self.spec.fixed_values(), dtype=np.float64)

    def _named_vector(self) -> tuple[np.ndarray, str] | None:
        """The vector and SHA-256 of the named table this policy plays (:func:`_named_vectors`), else None."""
        if self.spec is not None and isinstance(self.spec.params, TableParams):
            return _named_vectors(self.spec.params.tables).get(id(self.params))
        return None

    def __getstate__(self):
        """Pickled without the converted vector (a process that needs it converts it again)."""
        return {k: v for k, v in self.__dict__.items() if k != "_params_f64"}

    @property
    def builtin(self) -> bool:
        """A game's own policy (not a plug-in's, not a user's function)."""
        return self.spec is not None and not isinstance(self.spec, (PluginPolicy, FunctionPolicy))

    def labelled_params(self) -> dict | list:
        """Scalars by name; a table by name and SHA-256 (never its values); a user policy's as a list."""
        if self.spec is None:
            return list(self.params)
        if isinstance(self.spec.params, TableParams):
            named = self._named_vector()
            digest = named[1] if named is not None else sha256(self.params)
            return {"table": self.spec.params.name_of(self.params), "sha256": digest}
        return dict(zip(self.spec.params, self.params))

    def label(self) -> str:
        """The name, with the parameters that differ from the built-in's defaults in the form
        :func:`sims.core.jobs.parse_policy` reads (``maxims:knave=0``, ``expected_net:table=hessel``)."""
        if self.spec is None or self.params == self.spec.default_params():
            return self.name
        if isinstance(self.spec.params, TableParams):
            return f"{self.name}:table={self.spec.params.name_of(self.params)}"
        changed = [f"{k}={v:g}" for k, v, d in zip(self.spec.params, self.params, self.spec.default_params()) if v != d]
        return ":".join([self.name, *changed])

    def describe(self) -> dict:
        """Name and labelled parameters (and the label, when parameters were changed; the source of a plug-in's
        or user's policy)."""
        label = self.label()
        return {
            "name": self.name,
            "params": self.labelled_params(),
            **({"label": label} if label != self.name else {}),
            **({"source": self.origin} if self.origin is not None else {}),
        }


def check_params(decision: str, name: str, params, spec: PolicySpec | None = None) -> tuple[float, ...]:
    """A vector of finite numbers, of ``spec``'s size and each in its range (a user policy's: any size);
    else a one-line error naming the policy and the parameter."""
    if isinstance(params, (str, bytes, Mapping)) or not hasattr(params, "__iter__"):
        raise ValueError(f"{decision} policy {name!r}: params must be a list of numbers, got {params!r}")
    params = list(params)
    names = list(spec.params) if spec is not None and not isinstance(spec.params, TableParams) else []
    ranges = list(spec.ranges) if spec is not None else []
    if spec is not None and len(params) != spec.size:
        raise ValueError(f"{decision} policy {name!r} takes {spec.size} parameter(s), got {len(params)}")
    values = []
    for i, p in enumerate(params):
        label = f"parameter {names[i]!r}" if i < len(names) else f"parameter {i}"
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, float, np.integer, np.floating)):
            raise ValueError(f"{decision} policy {name!r}: {label} must be a number, got {p!r}")
        value = float(p) if not isinstance(p, int) or abs(p) < 2**1023 else math.inf
        if not math.isfinite(value):
            raise ValueError(f"{decision} policy {name!r}: {label} is {value}, not a finite number")
        if i < len(ranges) and not ranges[i].holds(value):
            raise ValueError(f"{decision} policy {name!r}: {label} takes {ranges[i].text()}, got {value:g}")
        values.append(value)
    return tuple(values)


def signature_text(decision: str, signature, arguments: str = "") -> str:
    """``peg(hand: int64[:] read-only, ...) -> int64``: a decision's signature with its arguments' names."""
    names = [a.strip() for a in arguments.split(",")] if arguments else [f"arg{i}" for i in range(len(signature.args))]

    def text(t):
        if hasattr(t, "ndim") and hasattr(t, "dtype"):
            return f"{t.dtype}[{', '.join(':' * t.ndim)}]" + ("" if t.mutable else " read-only")
        return str(t)

    args = ", ".join(f"{n}: {text(t)}" for n, t in zip(names, signature.args))
    return f"{decision}({args}) -> {signature.return_type}"


def _numba_reason(exc: Exception) -> str:
    """The line of a numba error that says what is wrong (not "Failed in nopython mode pipeline ...")."""
    text = str(exc)
    if "readonly array" in text and "setitem" in text:
        return "it writes into an array it may only read"
    if "compilation disabled" in text:
        return "it is declared (@njit(SIGNATURE)) with another signature"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    useful = [line for line in lines if not line.startswith(("Failed in", "- Resolution failure", "During:"))]
    return " ".join((useful or lines or [type(exc).__name__])[0].split())


def compile_for(decision: str, name: str, fn, signature, arguments: str = ""):
    """``fn`` (a plug-in's or user's @njit function, or a lazy sims kernel, compiled now), compiled for
    ``signature`` and returning its type; else a one-line :class:`~sims.core.errors.PolicyError` naming the
    decision's signature (``arguments`` its names)."""
    from numba.core.registry import CPUDispatcher

    from .errors import PolicyError
    from .kernel import LazyKernel

    expected = signature_text(decision, signature, arguments)
    if isinstance(fn, LazyKernel):
        fn = fn.dispatcher
    if not isinstance(fn, CPUDispatcher):
        raise PolicyError(f"{decision} policy {name!r} must be an @njit function {expected}")
    if signature.args not in fn.overloads:
        try:
            fn.compile(signature.args)
        except Exception as exc:  # numba raises many types; the user needs one line
            raise PolicyError(
                f"{decision} policy {name!r} does not compile as {expected}: {_numba_reason(exc)}"
            ) from None
    returns = fn.overloads[signature.args].signature.return_type
    if returns != signature.return_type:
        what = "returns nothing (does it always raise?)" if str(returns) == "none" else f"returns {returns}"
        raise PolicyError(f"{decision} policy {name!r} {what}; it must be {expected}")
    return fn


@cache
def _distributions() -> Mapping[str, list[str]]:
    from importlib.metadata import packages_distributions

    return packages_distributions()


def distribution_of(module: str | None) -> tuple[str | None, str | None]:
    """The installed distribution holding ``module`` and its version; (None, None) for a script, a notebook
    or a module on the path that no distribution installed."""
    from importlib.metadata import PackageNotFoundError, version

    names = _distributions().get((module or "").partition(".")[0])
    if not names:
        return None, None
    try:
        return names[0], version(names[0])
    except PackageNotFoundError:
        return names[0], None


def origin(fn, distribution: str | None = None, version: str | None = None) -> dict:
    """Where a plug-in's or user's njit function comes from: its module and name, the distribution that
    installed the module and its version (None for a script or notebook), and the SHA-256 of its source
    (of the Python function behind the dispatcher; None when Python has no source for it)."""
    py = getattr(fn, "py_func", fn)
    module = getattr(py, "__module__", None)
    if distribution is None:
        distribution, version = distribution_of(module)
    try:
        digest = hashlib.sha256(inspect.getsource(py).encode()).hexdigest()
    except (OSError, TypeError):
        digest = None
    return {
        "module": module,
        "function": getattr(py, "__qualname__", None),
        "distribution": distribution,
        "version": version,
        "sha256": digest,
    }


def named_params(decision: str, name: str, spec: PolicySpec, changes: Mapping) -> tuple[float, ...]:
    """The defaults of ``spec`` with some parameters changed by name (``{"knave": 0}``), or a named
    table chosen (``{"table": "hessel"}``); else a one-line error listing the names."""
    if isinstance(spec.params, TableParams):
        tables = spec.params.named()
        if set(changes) != {"table"} or changes["table"] not in tables:
            raise ValueError(
                f"{decision} policy {name!r} takes a table by name (table=NAME): "
                f"{', '.join(tables)}; got {dict(changes)!r}"
            )
        return tables[changes["table"]]
    unknown = sorted(set(changes) - set(spec.params))
    if unknown:
        takes = ", ".join(spec.params) or "no parameters"
        raise ValueError(f"{decision} policy {name!r} has no parameter {unknown[0]!r} (it takes {takes})")
    merged = dict(zip(spec.params, spec.default_params()), **changes)
    return check_params(decision, name, [merged[k] for k in spec.params], spec)


def spec_params(decision: str, name: str, spec: PolicySpec, params=None) -> tuple[float, ...]:
    """A declared policy's parameters: its defaults (None), a full vector, or a mapping of the parameters to
    change (:func:`named_params`)."""
    if params is None:
        return spec.default_params()
    if isinstance(params, Mapping):
        return named_params(decision, name, spec, params)
    return check_params(decision, name, params, spec)


def builtin(table: Mapping[str, Mapping[str, PolicySpec]], decision: str, name: str, params=None) -> Policy:
    """The built-in policy ``name`` of ``decision`` from a game's table, imported now; ``params`` as
    :func:`spec_params` takes them."""
    try:
        spec = table[decision][name]
    except KeyError:
        raise ValueError(
            f"unknown {decision} policy {name!r}; choose from "
            f"{', '.join(sorted(table.get(decision, {})))}, a plug-in's (sims policies) or "
            f"py:MODULE.FUNCTION"
        ) from None
    return Policy(name, decision, load(spec.function), spec_params(decision, name, spec, params), spec)


def plugin(declared, signature, arguments: str = "", params=None) -> Policy:
    """A plug-in's policy (a :class:`sims.core.plugins.Declared`), its function imported and compiled now."""
    spec, name = declared.spec, declared.name
    from .foreign import call_foreign

    fn = call_foreign(
        lambda: load(spec.function),
        f"{spec.decision} policy {name!r} ({declared.distribution}): cannot import {spec.function}",
    )
    fn = compile_for(spec.decision, name, fn, signature, arguments)
    return Policy(
        name,
        spec.decision,
        fn,
        spec_params(spec.decision, name, spec, params),
        spec,
        origin(fn, declared.distribution, declared.version),
    )


def user(decision: str, fn, signature, params=None, arguments: str = "") -> Policy:
    """A user's njit function as a policy (its name is the function's).  One that declares its parameters
    (:func:`declaration`) takes them as a built-in's do (:func:`spec_params`: None its defaults, a full vector,
    or some by name); another takes any vector of numbers (None: an empty one)."""
    name = getattr(fn, "__name__", "user")
    declared = declaration(fn)
    fn = compile_for(decision, name, fn, signature, arguments)
    if declared is not None:
        values = spec_params(decision, name, declared, params)
    elif isinstance(params, Mapping):
        raise ValueError(
            f"{decision} policy {name!r} declares no parameters, so none can be named "
            f"(declare them with sims.core.plugins.declare)"
        )
    else:
        values = check_params(decision, name, () if params is None else params)
    return Policy(name, decision, fn, values, declared, origin(fn))


def function_path(fn) -> str | None:
    """``module:qualname`` of an njit policy when another process could import it, else None."""
    py = getattr(fn, "py_func", None)
    if py is None or py.__module__ in (None, "__main__") or "<" in py.__qualname__:
        return None
    return f"{py.__module__}:{py.__qualname__}"


def import_function(decision: str, name: str, path: str | None):
    """The njit function at ``module:qualname`` (a worker rebuilding a job); else a one-line error."""
    if path is None:
        raise ValueError(
            f"{decision} policy {name!r} is not importable from a module (defined in a notebook "
            f"or script?): move it into a module that the workers can import"
        )
    try:
        return load(path)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{decision} policy {name!r}: cannot import {path} ({' '.join(str(exc).split())})") from None
