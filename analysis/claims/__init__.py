"""Every period claim checked by simulation: the main job (``python -m sims.analysis.claims``).

Each game's claims live with the game, in a package registered as an entry point of the group ``sims.claims``
(``game = "package"``, the game's ``claims`` package).  A *section* of the report is a module of such a package
that defines::

    NUMBER = "9"                     # its place in the report (each game's sections have their own numbers)
    TITLE = "The game: ..."          # its heading
    def run(ctx) -> sims.analysis.report.Section: ...   # its claims, tables and figures

:func:`sections` finds them (adding a claim is adding a module); ``ctx`` is a
:class:`~sims.analysis.claims.context.Context`, which runs the simulations through
:func:`sims.core.api.simulate` at the report's size and caches them.  The claim
record and the verdict rule, with its margin of practical equivalence, are in
:mod:`sims.analysis.claims.model`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .context import ClaimUnavailable, Context, policy_label
from .model import (
    INCONCLUSIVE,
    NEGLIGIBLE,
    NOT_SUPPORTED,
    SUPPORTED,
    VERDICT_RULE,
    Claim,
    Claimed,
    Reference,
    Source,
    at_least,
    equal,
    less,
    more,
    source,
)

__all__ = [
    "INCONCLUSIVE",
    "NEGLIGIBLE",
    "NOT_SUPPORTED",
    "SUPPORTED",
    "VERDICT_RULE",
    "Claim",
    "ClaimUnavailable",
    "Claimed",
    "Context",
    "Reference",
    "Source",
    "at_least",
    "equal",
    "less",
    "more",
    "policy_label",
    "run_claims",
    "section",
    "sections",
    "source",
]


def _order(number: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in number.split("."))


def section_modules() -> list[ModuleType]:
    """Every module the games' claims packages declare (``MODULES``; the packages are the entry points of
    :func:`sims.core.registry.claims_packages`)."""
    from sims.core.registry import claims_packages

    return [module for name in claims_packages() for module in importlib.import_module(name).MODULES]


def sections() -> dict[str, ModuleType]:
    """The section modules of the games' claims packages by NUMBER, in report order."""
    found = {}
    for module in section_modules():
        if all(hasattr(module, name) for name in ("NUMBER", "TITLE", "run")):
            if module.NUMBER in found:
                raise ValueError(
                    f"sections {found[module.NUMBER].__name__} and {module.__name__} share the number {module.NUMBER}"
                )
            found[module.NUMBER] = module
    return dict(sorted(found.items(), key=lambda item: _order(item[0])))


def section(number: str) -> ModuleType:
    """One section module by its number."""
    found = sections()
    if number not in found:
        raise ValueError(f"unknown section {number!r}; sections are {', '.join(found)}")
    return found[number]


def run_claims(ctx: Context, only=None):
    """Run the sections (all, or the numbers in ``only``); returns (sections run, skipped as
    (number, title, reason)) — a section whose game or policies are not in the package yet is skipped."""
    from ..report import Section

    found = sections()
    unknown = sorted(set(only or ()) - set(found), key=_order)
    if unknown:
        raise ValueError(f"unknown section {unknown[0]!r}; sections are {', '.join(found)}")
    done, skipped = [], []
    for number, module in found.items():
        if only and number not in only:
            continue
        ctx.log(f"{number}. {module.TITLE}")
        try:
            result = module.run(ctx)
        except ClaimUnavailable as exc:
            skipped.append((number, module.TITLE, str(exc)))
            ctx.log(f"  not run: {exc}")
            continue
        if not isinstance(result, Section):
            raise TypeError(f"section {number} ({module.__name__}) must return a Section")
        done.append(result)
        ctx.forget_records()  # no later section reads another's records; their totals stay cached
    return done, skipped
