"""What the cards kept are worth in the play: the table of ``expected_peg`` (the discard), fitted to play-outs.

Good players keep an eye on the play when they lay out for the crib (a pair, low cards for the go, a
hand that leaves no fifteen to an easy lead), and the pegging is a fifth of the dealer's points.
``expected_peg`` adds to ``expected_net``'s value of a throw the pegging, mine less his, that the four
ranks kept are worth in one's role (:func:`sims.cribbage.policies.discard.expected_peg_discard`).

The table is fitted by play-outs (:func:`fit_kept`): in each deal seat 0 throws uniformly at random
(so every hand of four ranks is kept as often as it is dealt), seat 1 throws by ``expected_net``, and
both peg by ``distilled``; each role's deals alternate.  A hand's value is the mean net pegging of the
deals in which those ranks were kept, less the role's mean, shrunk toward 0 by :data:`SHRINK` deals'
weight (a hand of four of a kind is kept in 4 deals of a million).  The table that ships
(``sims/cribbage/data/kept-pegging.json``, with its provenance) was fitted to six-card play; five-card
uses it as it stands.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
from numba import types

from ...core.driver import chunk_loop
from ...core.kernel import njit
from ...core.kernel_types import F64_1, I64_1, I64_2, U64_2
from ..contract import DiscardFn, PegFn
from ..crib_tables import named_tables as crib_tables
from ..play import C_PEGGING, POLICY_ERROR, deal_buffers, fresh_deal
from ..rules import get_rules
from .discard import N_KEPT, kept_index

SHRINK = 200.0  # deals' weight of the role's mean in each hand's value
DATA = ("sims.cribbage", "data/kept-pegging.json")
ROLES = ("dealer", "pone")


@njit(inline="always")
def _kept_returns_chunk(c, rules, keys, chunk_size, discard_fns, peg_fns, params, poff, kept_out, net, err):
    """Deal ``i`` of chunk ``c``, dealt by seat ``i % 2`` (so seat 0's role is ``i % 2``, 0 the dealer):
    ``kept_out[row]`` = (seat 0's role, the index of the ranks it kept), ``net[row]`` its pegging less the
    other's."""
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
    buffers = deal_buffers(rules_c)
    work, comp = buffers[0], buffers[4]
    for i in range(chunk_size):
        row = c * chunk_size + i
        if (
            fresh_deal(rules_c, keys, c, i, i % 2, buffers, (discard_fns, peg_fns), params_c, poff_c, err[c])
            == POLICY_ERROR
        ):
            break
        role = i % 2
        kept_out[row, 0], kept_out[row, 1] = role, kept_index(work[2][role])
        net[row] = comp[role, C_PEGGING] - comp[1 - role, C_PEGGING]


_kept_returns = chunk_loop(
    "_kept_returns",
    _kept_returns_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.UniTuple(DiscardFn, 4),
        types.UniTuple(PegFn, 4),
        F64_1,
        I64_1,
        I64_2,
        F64_1,
        I64_2,
    ),
)


def kept_play_outs(
    rules="six-card", n_deals: int = 1_000_000, seed: int = 0, opponent="expected_net", peg="distilled", threads=None
) -> dict:
    """``n_deals`` deals, seat 0 throwing at random against ``opponent``'s discards, both pegging by
    ``peg``: per deal seat 0's role, the index of its kept ranks, and its net pegging."""
    from ...core.chunks import numba_threads
    from ...core.errors import new_err, raise_policy_error
    from ...core.jobs import Job, check_count
    from ...core.rng import chunk_keys
    from ..engine import describe_error

    n_deals = check_count(n_deals, "the number of deals")
    given = get_rules(rules)
    if given.active != 2 or given.kept != 4:
        raise ValueError(
            f"the kept-pegging table is for two-handed play keeping four cards; {given.name} "
            f"has {given.active} players keeping {given.kept}"
        )
    job = Job.make("cribbage", "deals", given, {"discard": ["random", opponent], "peg": peg}, n_deals, seed)
    chunk = 4096
    n_chunks = -(-n_deals // chunk)
    kept = np.zeros((n_chunks * chunk, 2), dtype=np.int64)
    net = np.zeros(n_chunks * chunk)
    fns, values, poff = job.kernel_policies()
    err = new_err(n_chunks)
    with numba_threads(threads):
        _kept_returns(
            job.rules.to_kernel(),
            chunk_keys(seed, 0, n_chunks, job.game.n_streams),
            chunk,
            *fns,
            values,
            poff,
            kept,
            net,
            err,
        )
    raise_policy_error(job, err, describe_error)
    return {"role": kept[:n_deals, 0], "kept": kept[:n_deals, 1], "net": net[:n_deals]}


def fit_kept(samples: dict, shrink: float = SHRINK) -> np.ndarray:
    """The table (dealer's N_KEPT values, then the pone's): per role and hand of ranks, the mean net pegging
    less the role's mean, weighted ``n / (n + shrink)`` by the hand's ``n`` deals (module docstring)."""
    cell = samples["role"] * N_KEPT + samples["kept"]
    n = np.bincount(cell, minlength=2 * N_KEPT).astype(np.float64)
    total = np.bincount(cell, weights=samples["net"], minlength=2 * N_KEPT)
    role_mean = np.repeat([samples["net"][samples["role"] == r].mean() for r in range(2)], N_KEPT)
    return (total - n * role_mean) / (n + shrink)


def kept_table(values: np.ndarray) -> pd.DataFrame:  # noqa: F821 - pandas imported when called
    """The table as a DataFrame: role, the four ranks kept (A..K) and the value."""
    import pandas as pd

    from ...cards import RANKS

    rows = []
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    index = kept_index(np.array([a << 2, b << 2, c << 2, d << 2], dtype=np.int64))
                    for r, role in enumerate(ROLES):
                        rows.append(
                            (role, RANKS[a] + RANKS[b] + RANKS[c] + RANKS[d], float(values[r * N_KEPT + index]))
                        )
    return pd.DataFrame(rows, columns=["role", "kept", "pegging"])


def write_kept(values, provenance: dict, path=None) -> Path:
    """Write the table and how it was made (JSON); by default over the table that ships."""
    from ...core.store import write_json

    path = Path(path) if path is not None else Path(str(resources.files(DATA[0]).joinpath(DATA[1])))
    write_json(
        path,
        {"format": "sims-kept-pegging/1", "provenance": provenance, "values": [round(float(v), 5) for v in values]},
    )
    return path


@cache
def named_tables() -> dict[str, tuple]:
    """``expected_peg``'s parameter vectors by crib table: the crib table, then the kept-pegging table."""
    data = json.loads(resources.files(DATA[0]).joinpath(DATA[1]).read_text())
    if len(data["values"]) != 2 * N_KEPT:
        raise ValueError(f"{DATA[1]} holds {len(data['values'])} values, the policy takes {2 * N_KEPT}")
    return {name: crib + tuple(float(v) for v in data["values"]) for name, crib in crib_tables().items()}
