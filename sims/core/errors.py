"""Illegal policy answers: the error row kernels fill, and the one-line :class:`PolicyError`.

A kernel that meets an illegal answer writes the situation into its chunk's
``err`` row and stops that chunk; the core finds the first such row and raises
:class:`PolicyError`, with the game's own words for the situation
(``describe_error`` of its engine module).  Layout of a row (int64[E_SIZE]):
``E_DECISION`` 1 + the index of the decision in ``Game.decisions`` (0: no error),
``E_SEAT``, ``E_ITEM`` (deal or game index), ``E_ANSWER`` (what the policy
returned); ``E_GAME`` onwards is the game's to use (cards in hand, count, ...).
``E_DECISION`` negated: the policy wrote past its random stream (:mod:`sims.core.streams`).
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

E_DECISION, E_SEAT, E_ITEM, E_ANSWER, E_GAME = range(5)
E_SIZE = 32


class PolicyError(ValueError):
    """A policy returned an illegal choice, raised, or wrote past its random stream."""


OVERRUN = (
    "wrote past the four words of its random stream (rng): a policy may change rng[0] to rng[3] only, "
    "through sims.core.rng's draws"
)


def overrun_text(row) -> str | None:
    """What went wrong in words if the ``err`` row records a policy that wrote past its stream, else None."""
    return OVERRUN if row[E_DECISION] < 0 else None


def new_err(n_chunks: int) -> np.ndarray:
    return np.zeros((n_chunks, E_SIZE), dtype=np.int64)


def raise_policy_error(job, err: np.ndarray, describe) -> None:
    """Raise PolicyError for the first chunk whose row records an illegal answer (none: return)."""
    bad = np.flatnonzero(err[:, E_DECISION])
    if bad.size == 0:
        return
    row = err[bad[0]]
    decision = job.game.decisions[abs(int(row[E_DECISION])) - 1].name
    seat = int(row[E_SEAT])
    policy = job.policies[decision][seat]
    raise PolicyError(
        f"{decision} policy {policy.name!r} (seat {seat}) {overrun_text(row) or describe(job, row)} "
        f"({job.item_name} {int(row[E_ITEM])}, seed {job.seed})"
    )


@contextmanager
def raised_by_policy(policies, where: str, kinds=(Exception,)):
    """Run a kernel call (or a policy's) in which a policy may raise: its exception (of ``kinds``) becomes one
    PolicyError naming the user's policies among ``policies`` (built-in ones never raise) and ``where``.  numba
    hands an exception raised inside a parallel kernel back as a SystemError whose cause is the policy's."""
    try:
        yield
    except PolicyError:
        raise
    except kinds as exc:
        cause = (exc.__cause__ or exc.__context__ or exc) if isinstance(exc, SystemError) else exc
        users = sorted({p.name for p in policies if not p.builtin})
        who = f"policy {' or '.join(repr(u) for u in users)}" if users else "a policy"
        raise PolicyError(f"{who} raised {type(cause).__name__}: {' '.join(str(cause).split())} ({where})") from None


def job_policies(job) -> list:
    """Every seat's policy of ``job``, each decision's in turn."""
    return [p for seats in job.policies.values() for p in seats]
