"""The seats' random streams as the engines hand them to policies: four words, then guard words.

A policy draws from its seat's stream (:mod:`sims.core.rng`), the one array it is given to write.  numba checks no
index, so a policy that wrote past those four words would change the next seat's draws, or memory the engine relies
on, without a word.  The engines therefore keep seat ``s``'s stream at the head of row ``s`` of
:func:`seat_streams`, :data:`ROW` words whose other :data:`GUARD` words hold :data:`GUARD_WORD`; a policy is handed
the first four (:func:`own_stream`) and, after every call, the engine checks the rest (:func:`stream_intact`), or,
where a check at every call would cost a share of the game's time that shows (a play of many cards), every seat's
once that play is over and before it refuses an answer (:func:`overran`).  A policy that wrote anywhere up to
:data:`GUARD` words past its stream is stopped there with a :class:`sims.core.errors.PolicyError` naming it
(:func:`overrun`), and those writes land in its own row, never in another seat's stream or outside the buffer; a
guard cannot see further than its length (numba checks no index).  The words of the streams are those of the plain
``uint64[4]`` states, so every draw, and every number, is as before.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from .errors import E_DECISION, E_SEAT
from .kernel import njit

STATE_WORDS = 4  # xoshiro256**'s state (sims.core.rng.next_u64)
GUARD = 124  # words after each stream: a row is 1 KiB
ROW = STATE_WORDS + GUARD
GUARD_WORD = np.uint64(0x6A09E667F3BCC908)  # any value a careless write is unlikely to leave (not 0, not -1)


@njit(cache=True)
def seat_streams(n):
    """``n`` rows of :data:`ROW` words: the streams, zero until seeded (``seed_state(rows[s], ...)``), and their
    guards."""
    rows = np.zeros((n, ROW), dtype=np.uint64)
    rows[:, STATE_WORDS:] = GUARD_WORD
    return rows


@njit(cache=True, inline="always")
def own_stream(rows, seat):
    """The four words of seat ``seat``'s stream, as its policy is handed them."""
    return rows[seat, :STATE_WORDS]


@njit(cache=True, inline="always")
def stream_intact(rows, seat):
    """True if no word after seat ``seat``'s stream was written over (and the rows are guarded ones).  One row
    and constant bounds: LLVM checks the words eight at a time (7 ns a call; 66 ns indexing the rows)."""
    row = rows[seat]
    if row.shape[0] != ROW:
        return False
    changed = uint64(0)
    for k in range(STATE_WORDS, ROW):
        changed |= row[k] ^ GUARD_WORD
    return changed == 0


@njit(cache=True, inline="always")
def overran(rows, n, err, decision):
    """True if a policy of one of seats ``0 .. n - 1`` wrote past its stream (:func:`stream_intact`), the first
    such seat then recorded in ``err`` for ``decision`` (:func:`overrun`)."""
    for seat in range(n):
        if not stream_intact(rows, seat):
            overrun(err, decision, seat)
            return True
    return False


@njit(cache=True, refcounts=False)
def overrun(err, decision, seat):
    """Record in ``err`` that the policy of seat ``seat`` for ``decision`` (1 + its index in ``Game.decisions``,
    as ``err[E_DECISION]`` takes it) wrote past its stream: the decision is stored negated
    (:func:`sims.core.errors.overrun_text`)."""
    for k in range(err.shape[0]):
        err[k] = 0
    err[E_DECISION] = -decision
    err[E_SEAT] = seat


def guarded_call(call, rng, who: str):
    """``call(stream)`` from Python, ``stream`` a guarded copy of the ``uint64[4]`` stream ``rng`` that is copied
    back after; if the policy ``call`` runs wrote past it, a :class:`sims.core.errors.PolicyError` naming ``who``."""
    from .errors import OVERRUN, PolicyError

    rows = seat_streams(1)
    rows[0, :STATE_WORDS] = rng
    answer = call(rows[0, :STATE_WORDS])
    if not (rows[0, STATE_WORDS:] == GUARD_WORD).all():
        raise PolicyError(f"{who} {OVERRUN}")
    rng[:] = rows[0, :STATE_WORDS]
    return answer
