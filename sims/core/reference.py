"""What a game's reference engine (plain Python, read against its rule book) plays with: each seat's policy
for each decision, the built-in kernels replaced by their plain-Python twins so that the engine is checked
against code written apart from it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .jobs import resolve_policies


@dataclass(frozen=True)
class SeatPolicy:
    """A seat's policy for one decision in a reference engine: a callable with the kernel's signature and
    its params."""

    name: str
    fn: object
    params: np.ndarray = field(default_factory=lambda: np.zeros(0))


def twins(kernel_module: str, *plain) -> dict[str, object]:
    """Plain-Python twins of the kernels of ``kernel_module`` that have their names, keyed as a
    :class:`~sims.core.policies.PolicySpec` names a kernel (``"module:function"``)."""
    return {f"{kernel_module}:{fn.__name__}": fn for fn in plain}


def seat_policy(policy, plain: dict) -> SeatPolicy:
    """The engine's ``policy`` (a :class:`~sims.core.policies.Policy`) for a reference engine: the twin in
    ``plain`` (:func:`twins`) of the kernel its spec names, else its own function, with its params."""
    twin = plain.get(policy.spec.function) if policy.spec is not None else None
    return SeatPolicy(policy.name, policy.fn if twin is None else twin, policy.params_array())


def seat_policies(game, rules, policies, plain: dict) -> dict[str, list[SeatPolicy]]:
    """``{decision: spec}`` as the engine takes it -> per decision, one :class:`SeatPolicy` per seat
    (:func:`seat_policy`); a decision not given plays the game's default, as in the engine."""
    return {
        decision: [seat_policy(p, plain) for p in seats]
        for decision, seats in resolve_policies(game, policies, rules.players).items()
    }
