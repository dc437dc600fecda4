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
only with ``sims run --allow-import``.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from .policies import PluginPolicy

GROUP = "sims.policies"
PATH = "py:"
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")
_NAME = re.compile(r"[A-Za-z_][\w-]*")


@dataclass(frozen=True)
class Declared:
    """One entry point of :data:`GROUP`, loaded: its name, its :class:`PluginPolicy` and where it comes from."""

    name: str
    spec: PluginPolicy
    entry_point: str              # "module:attribute" of the declaration
    distribution: str | None
    version: str | None


@cache
def entries() -> tuple[EntryPoint, ...]:
    """The entry points of :data:`GROUP`, sorted by name (read once per process)."""
    return tuple(sorted(entry_points(group=GROUP), key=lambda ep: (ep.name, ep.value)))


@cache
def load_entry(ep: EntryPoint) -> Declared:
    """An entry point's declaration, checked; else a one-line error naming the entry point."""
    dist = getattr(ep, "dist", None)
    where = f"{ep.name} = {ep.value!r} ({dist.name if dist else 'unknown distribution'})"
    if ep.name == "py" or not _NAME.fullmatch(ep.name):
        raise ValueError(f"plug-in policy {where}: its name must be letters, digits, _ or - (and not 'py')")
    try:
        spec = ep.load()
    except Exception as exc:   # the plug-in's own import error, whatever it is: one line
        raise ValueError(f"plug-in policy {where} cannot be loaded: {type(exc).__name__}: "
                         f"{' '.join(str(exc).split())}") from None
    if not isinstance(spec, PluginPolicy):
        raise ValueError(f"plug-in policy {where} is a {type(spec).__name__}, not a sims.core.policies.PluginPolicy")
    return Declared(ep.name, spec, ep.value, dist.name if dist else None, dist.version if dist else None)


def declared(game: str | None = None) -> list[Declared]:
    """Every plug-in policy (of ``game``), loaded."""
    found = [load_entry(ep) for ep in entries()]
    return [d for d in found if game is None or d.spec.game == game]


def find(game: str, decision: str, name: str) -> Declared | None:
    """The plug-in policy ``name`` of ``game``'s ``decision`` (only entry points of that name are loaded); None
    if there is none; a one-line error if two distributions declare it."""
    found = [d for d in (load_entry(ep) for ep in entries() if ep.name == name)
             if (d.spec.game, d.spec.decision) == (game, decision)]
    if len(found) > 1:
        raise ValueError(f"{decision} policy {name!r} is declared by several plug-ins: "
                         f"{', '.join(f'{d.entry_point} ({d.distribution})' for d in found)}")
    return found[0] if found else None


def is_path(text) -> bool:
    """``py:...``: a function named by its dotted path."""
    return isinstance(text, str) and text.startswith(PATH)


def import_path(decision: str, text: str):
    """The object that ``py:package.module.function`` names (its module imported); else a one-line error."""
    path = text[len(PATH):]
    if not _DOTTED.fullmatch(path):
        raise ValueError(f"{decision} policy {text!r}: write py:PACKAGE.MODULE.FUNCTION (a dotted path, no "
                         f"parameters)")
    module, _, attr = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{decision} policy {text!r}: cannot import it ({' '.join(str(exc).split())})") from None
