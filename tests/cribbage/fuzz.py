"""The kernel's deals with its work arrays kept (``play.play_deal``): the fuzz of the engine's invariants and the
position-aware player's reading of the play replay them.  One kernel for both: each copy of the deal loop compiles
the whole engine again."""

import numpy as np
import pytest
from numba import types

from sims.core import kernel
from sims.core.arrays import copy_into, copy_rows
from sims.core.errors import E_SIZE
from sims.core.jobs import Job
from sims.core.kernel_types import I64_1, I64_2, I64_3, U64_2
from sims.core.rng import chunk_keys
from sims.core.streams import seat_streams
from sims.cribbage import PRESETS
from sims.cribbage.engine import PLAYERS
from sims.cribbage.play import MAX_SEATS, N_COMP, new_work, play_deal, seed_streams

# The tests that replay the fuzz run on one pytest-xdist worker (--dist loadgroup deals other tests out one at a
# time, to both workers): the kernel compiles once, not in both workers at once.
ONE_WORKER = pytest.mark.xdist_group("cribbage-fuzz")


@kernel.njit(
    types.void(I64_1, U64_2, types.int64, types.int64, PLAYERS, I64_2, I64_3, I64_2, I64_2, I64_3, I64_3),
    cache=True,
)
def _fuzz_deals(rules, keys, n, dealers, players, decks, kept, cribs, laid, held, comps):
    """Deals 0..n-1 of chunk 0 (deal g dealt by seat g % dealers) by the ``players`` (``Job.kernel_policies()``),
    keeping the kernel's work arrays."""
    policies, params, poff = players
    active = rules[1]
    work = new_work(rules)
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(MAX_SEATS)
    scores = np.zeros(MAX_SEATS, dtype=np.int64)
    comp = np.zeros((MAX_SEATS, N_COMP), dtype=np.int64)
    err = np.zeros(E_SIZE, dtype=np.int64)
    for g in range(n):
        seed_streams(keys, 0, g, deck_rng, seat_rngs)
        scores[:] = 0
        comp[:, :] = 0
        if (
            play_deal(
                rules,
                g % dealers,
                scores,
                False,
                deck_rng,
                seat_rngs,
                policies,
                params,
                poff,
                comp,
                err,
                work,
            )
            < -1
        ):
            raise ValueError("policy error")
        copy_into(decks[g], work[0])
        copy_rows(kept[g], work[2][:active])
        copy_into(cribs[g], work[5])
        copy_into(laid[g], work[6])
        copy_rows(held[g], work[3][:active])
        copy_rows(comps[g], comp[:active])


def fuzz(rules, policies, n, seed, dealers=None):
    """The kernel's deals 0..n-1 of a run: a dict of arrays, one row per deal; deal g dealt by seat g % dealers
    (by default every seat in turn; 1: seat 0 deals every deal)."""
    r = PRESETS[rules] if isinstance(rules, str) else rules
    job = Job.make("cribbage", "deals", r, policies, n, seed)
    out = {
        "deck": np.zeros((n, 52), dtype=np.int64),
        "kept": np.zeros((n, r.active, r.kept), dtype=np.int64),
        "crib": np.zeros((n, 4), dtype=np.int64),
        "laid": np.zeros((n, r.active * r.kept), dtype=np.int64),
        "held": np.zeros((n, r.active, r.kept), dtype=np.int64),
        "comp": np.zeros((n, r.active, N_COMP), dtype=np.int64),
    }
    _fuzz_deals(
        r.to_kernel(),
        chunk_keys(seed, 0, 1, 5),
        n,
        dealers or r.players,
        job.kernel_policies(),
        out["deck"],
        out["kept"],
        out["crib"],
        out["laid"],
        out["held"],
        out["comp"],
    )
    out["n_laid"] = (out["held"] < 0).sum(axis=(1, 2))
    return out
