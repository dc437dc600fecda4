"""Cribbage under ``sims advise`` (the ``advise_command`` of its ``Game``): ``peg`` and ``discard`` are
``sims peg`` and ``sims discard`` under one roof, the same flags and the same output."""

from __future__ import annotations

DECISIONS = {
    "peg": "which card to lay in the play (as sims peg)",
    "discard": "what to lay out for the crib (as sims discard)",
}


def command(decision: str):
    """The command module of ``decision`` (only that one is imported)."""
    if decision == "peg":
        from . import peg

        return peg
    from . import discard

    return discard


def add_arguments(p, decision: str) -> None:
    command(decision).add_arguments(p)


def run(args) -> dict:
    return command(args.decision).run(args)


def render(result: dict) -> str:
    return command(result["decision"]).render(result)
