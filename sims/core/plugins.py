"""Policies from other distributions: the entry-point group ``sims.policies``, and functions named by path.

A distribution declares its policies in its ``pyproject.toml``::

    [project.entry-points."sims.policies"]
    lowest = "mypkg.declared:LOWEST"           # name = "module:attribute" of a PluginPolicy

where ``LOWEST`` is a :class:`sims.core.policies.PluginPolicy`: the game and decision, the njit
function (``"module:attribute"``, imported only when the policy is used), the names of its
parameters, their defaults and ranges.  The name then works wherever a built-in's does
(``--peg lowest``, ``--peg lowest:margin=2``, spec files, round robins, the Python API).  Keep
the declarations in a module that imports no numba, so that ``sims policies`` lists them fast.

A function can also be named by its dotted path, ``py:mypkg.module.function`` (:data:`PATH`): the
prefix ``py:`` cannot be read as ``NAME:PARAM=VALUE``, since a policy named ``py`` is refused.
Naming a path imports that module, which runs its code: the command line allows it, a spec file
only with ``sims run --allow-import``.  Such a function declares its parameters with :func:`declare`,
as a built-in's are declared; then ``py:mypkg.module.function:margin=2`` sets one by name, and
``sims tune`` searches them over their declared ranges.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint

from .foreign import call_foreign
from .metadata import entry_points
from .policies import DECLARATION, FunctionPolicy, PluginPolicy, Range, check_params

GROUP = "sims.policies"
PATH = "py:"
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")
_NAME = re.compile(r"[A-Za-z_][\w-]*")


@dataclass(frozen=True)
class Declared:
    """One entry point of :data:`GROUP`, loaded: its name, its :class:`PluginPolicy` and where it comes from."""

    name: str
    spec: PluginPolicy
    entry_point: str  # "module:attribute" of the declaration
    distribution: str | None
    version: str | None


@cache
def entries() -> tuple[EntryPoint, ...]:
    """The entry points of :data:`GROUP`, sorted by name (read once per process)."""
    return tuple(sorted(entry_points(group=GROUP), key=lambda ep: (ep.name, ep.value)))


def load_entry(ep: EntryPoint) -> Declared:
    """An entry point's declaration, checked; else a one-line error naming the entry point and its distribution."""
    dist = getattr(ep, "dist", None)
    return _load_entry(ep, dist.name if dist else None)


@cache
def _load_entry(ep: EntryPoint, distribution: str | None) -> Declared:
    """:func:`load_entry`, once a process; the distribution is part of the key, since two distributions' entry
    points of the same name and value are equal."""
    dist = getattr(ep, "dist", None)
    where = f"{ep.name} = {ep.value!r} ({distribution or 'unknown distribution'})"
    if ep.name == "py" or not _NAME.fullmatch(ep.name):
        raise ValueError(f"plug-in policy {where}: its name must be letters, digits, _ or - (and not 'py')")
    spec = call_foreign(ep.load, f"plug-in policy {where} cannot be loaded")
    if not isinstance(spec, PluginPolicy):
        raise ValueError(f"plug-in policy {where} is a {type(spec).__name__}, not a sims.core.policies.PluginPolicy")
    return Declared(ep.name, spec, ep.value, distribution, dist.version if dist else None)


def declared(game: str | None = None, broken=None) -> list[Declared]:
    """Every plug-in policy (of ``game``), loaded.  One that cannot be loaded raises its one-line error; with
    ``broken``, that line is passed to ``broken(line)`` instead and the others are still listed."""
    found = []
    for ep in entries():
        try:
            found.append(load_entry(ep))
        except ValueError as exc:
            if broken is None:
                raise
            broken(str(exc))
    return [d for d in found if game is None or d.spec.game == game]


def find(game: str, decision: str, name: str) -> Declared | None:
    """The plug-in policy ``name`` of ``game``'s ``decision`` (only entry points of that name are loaded); None
    if there is none; a one-line error if two distributions declare it."""
    found = [
        d
        for d in (load_entry(ep) for ep in entries() if ep.name == name)
        if (d.spec.game, d.spec.decision) == (game, decision)
    ]
    if len(found) > 1:
        raise ValueError(
            f"{decision} policy {name!r} is declared by several plug-ins: "
            f"{', '.join(f'{d.entry_point} ({d.distribution})' for d in found)}"
        )
    return found[0] if found else None


def declare(*, params, defaults, ranges, help: str = "", players=()):
    """Declare the parameters of a user's njit policy as a built-in's are declared (a
    :class:`~sims.core.policies.PolicySpec`): their names, defaults and ranges, in the order of the vector the
    function reads::

        @declare(params=("margin",), defaults=(2.0,), ranges=(at_least(0),))
        @njit(PEG_SIG)
        def careful(hand, played, state, rules, rng, params): ...

    The function then takes its defaults when named without parameters, ``py:mypkg.module.careful:margin=1``
    changes one, and ``sims tune`` searches them.  A name that is not an identifier or is given twice, a
    range that is not a :class:`~sims.core.policies.Range`, or a default outside its range is a one-line
    error when the module is imported."""
    params, defaults, ranges = tuple(params), tuple(defaults), tuple(ranges)
    where = "declared policy parameters"
    if not (len(params) == len(defaults) == len(ranges)) or not params:
        raise ValueError(f"{where}: give one default and one range for each of at least one parameter")
    for name in params:
        if not (isinstance(name, str) and name.isidentifier()) or params.count(name) > 1:
            raise ValueError(f"{where}: {name!r} is not a name (letters, digits, _) given once")
    for name, declared in zip(params, ranges):
        if not isinstance(declared, Range):
            raise ValueError(f"{where}: the range of {name!r} is a {type(declared).__name__}, not a Range")

    def attach(fn):
        py = getattr(fn, "py_func", fn)
        spec = FunctionPolicy(f"{py.__module__}:{py.__qualname__}", params, defaults, help, ranges, tuple(players))
        check_params("declared", getattr(fn, "__name__", "function"), defaults, spec)
        setattr(fn, DECLARATION, spec)
        return fn

    return attach


def is_path(text) -> bool:
    """``py:...``: a function named by its dotted path."""
    return isinstance(text, str) and text.startswith(PATH)


def import_path(decision: str, text: str):
    """The object that ``py:package.module.function`` names (its module imported); else a one-line error."""
    path = text[len(PATH) :]
    if not _DOTTED.fullmatch(path):
        raise ValueError(f"{decision} policy {text!r}: write py:PACKAGE.MODULE.FUNCTION[:PARAM=VALUE...]")
    module, _, attr = path.rpartition(".")
    where = f"{decision} policy {text!r}"
    found = call_foreign(lambda: importlib.import_module(module), f"{where}: importing {module} failed")
    if not hasattr(found, attr):
        raise ValueError(f"{where}: module {module} has no {attr}")
    return getattr(found, attr)
