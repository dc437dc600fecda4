"""Policy registry: built-in policies by name, and user policies passed in as njit functions.

>>> from numba import njit
>>> from sims.cribbage.policies import PEG_SIG, resolve
>>> @njit(PEG_SIG)
... def lowest(hand, played, state, rules, rng, params):
...     best = -1
...     for i in range(hand.shape[0]):
...         if hand[i] >= 0 and state[5] + min((hand[i] >> 2) + 1, 10) <= 31:
...             if best < 0 or hand[i] < hand[best]:
...                 best = i
...     return best
>>> resolve("peg", lowest).name
'lowest'
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba.core.registry import CPUDispatcher

from .base import DISCARD_SIG, PEG_SIG, PolicyError, S_SIZE  # noqa: F401  (re-exported)
from .builtin import greedy_discard, greedy_peg, random_discard, random_peg

KINDS = {"discard": DISCARD_SIG, "peg": PEG_SIG}


@dataclass(frozen=True)
class Policy:
    """A named njit policy of one kind with its parameter vector."""

    name: str
    kind: str
    fn: CPUDispatcher = field(repr=False, compare=False)
    params: tuple = ()

    def params_array(self) -> np.ndarray:
        return np.asarray(self.params, dtype=np.float64)

    def describe(self) -> dict:
        return {"name": self.name, "params": list(self.params)}


REGISTRY: dict[str, dict[str, Policy]] = {"discard": {}, "peg": {}}


def register(kind: str, name: str, fn, params=()) -> Policy:
    """Make ``fn`` available by ``name``; returns the Policy."""
    policy = _as_policy(kind, fn, name, params)
    REGISTRY[kind][name] = policy
    return policy


def _as_policy(kind, fn, name, params):
    sig = KINDS[kind]
    if not isinstance(fn, CPUDispatcher):
        raise ValueError(f"{kind} policy {name!r} must be an @njit function with signature {sig}")
    if sig.args not in fn.signatures:
        try:
            fn.compile(sig.args)
        except Exception as exc:  # numba raises many types; the user needs one line
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ValueError(f"{kind} policy {name!r} does not compile for {sig}: {first}") from None
    return Policy(name, kind, fn, tuple(float(p) for p in params))


def resolve(kind: str, spec, params=None) -> Policy:
    """A Policy from a registered name, a Policy, or a user's njit function."""
    if kind not in KINDS:
        raise ValueError(f"unknown policy kind {kind!r}")
    if isinstance(spec, Policy):
        policy = spec
    elif isinstance(spec, str):
        try:
            policy = REGISTRY[kind][spec]
        except KeyError:
            names = ", ".join(sorted(REGISTRY[kind]))
            raise ValueError(f"unknown {kind} policy {spec!r}; choose from {names}") from None
    else:
        policy = _as_policy(kind, spec, getattr(spec, "__name__", "user"), ())
    if policy.kind != kind:
        raise ValueError(f"policy {policy.name!r} is a {policy.kind} policy, not a {kind} policy")
    if params is not None:
        policy = Policy(policy.name, kind, policy.fn, tuple(float(p) for p in params))
    return policy


register("discard", "random", random_discard)
register("discard", "greedy", greedy_discard)
register("peg", "random", random_peg)
register("peg", "greedy", greedy_peg)

from . import discard, pegging  # noqa: E402,F401  (registers expected_hand, expected_net, exact_net, hoyle, defensive)
