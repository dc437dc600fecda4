"""Crib discard tables by self-play, and their iteration to a fixed point.

:func:`self_play_tables` deals independent two-player deals with the engine's
own deal (:func:`sims.cribbage.play.play_deal`, the same deals as
:func:`sims.cribbage.simulate.simulate_deals` for the same seed and policies),
and for every rank pair records the crib that followed when the dealer laid
those two ranks out (``to_whom = dealer``: into his own crib) and when the pone
did (``to_whom = pone``: into the opponent's crib), with standard errors.  The
pegging does not touch the crib, so the deals are pegged greedily (cheap).

:func:`iterate_tables` starts from a table (Schell's by default), plays the
``expected_net`` discard policy with it, takes the self-play table as the next
table, and repeats until the largest change of an entry is below ``tol`` or
after ``iterations`` rounds.  Every round plays the same deals (the same seed),
so a round whose policy throws exactly as the last one did returns the same
table: the iteration has a true fixed point.  Rank pairs that the policy seldom
throws (a pone almost never gives away two fives) are estimated from few deals;
each entry is shrunk toward the previous table with the weight of
``prior_deals`` deals, ``(sum + prior_deals * previous) / (n + prior_deals)``,
and a pair never thrown keeps its previous value.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import numba
import numpy as np
import pandas as pd
from numba import types

from ... import __version__
from ...core.batch import Batch, concat, total_columns
from ...core.driver import chunk_loop
from ...core.errors import E_ITEM
from ...core.jobs import Job
from ...core.kernel import njit
from ...core.kernel_types import I64_1, I64_2, I64_4, U64_2
from ...core.runner import play
from ...core.store import atomic_write, git_commit, write_json
from ...stats import mean_se
from ..crib_tables import N_RANKS, TO_WHOM, reference_table, table_params
from ..engine import PLAYERS, describe_error  # noqa: F401  (this module is an engine: the core asks it for errors)
from ..play import C_CRIB, POLICY_ERROR, deal_buffers, fresh_deal
from ..policies.discard import expected_net_policy
from .crib_tables import matrices_table, params_matrices

DEFAULT_PRIOR_DEALS = 20.0
PAIRS = [(lo, hi) for lo in range(N_RANKS) for hi in range(lo, N_RANKS)]


@njit(inline="always")
def _throw_chunk(c, rules, keys, first_item, n_items, chunk_size, players, sums, sumsq, counts, err):
    """Deals as the engine plays them (deal ``g`` dealt by seat ``g % seats``) between the ``players``
    (:data:`~sims.cribbage.engine.PLAYERS`); chunk ``c`` adds the crib to ``sums[c, role, lo, hi]`` for the
    ranks ``lo <= hi`` that the player in ``role`` threw."""
    policies, params, poff = players
    seats = rules[0]
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()  # thread-local, as in the engine
    buffers = deal_buffers(rules_c)
    work, comp = buffers[0], buffers[4]
    thrown = work[4]
    start = first_item + c * chunk_size
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        g = start + i
        if fresh_deal(rules_c, keys, c, i, g % seats, buffers, policies, params_c, poff_c, err[c]) == POLICY_ERROR:
            err[c, E_ITEM] = g
            break
        crib = comp[0, C_CRIB]
        for role in range(2):
            a, b = thrown[role, 0] >> 2, thrown[role, 1] >> 2
            lo, hi = min(a, b), max(a, b)
            sums[c, role, lo, hi] += crib
            sumsq[c, role, lo, hi] += crib * crib
            counts[c, role, lo, hi] += 1


_throw_chunks = chunk_loop(
    "_throw_chunks",
    _throw_chunk,
    types.void(I64_1, U64_2, types.int64, types.int64, types.int64, PLAYERS, I64_4, I64_4, I64_4, I64_2),
)


def play_chunks(job, keys, first_item, n_items, err) -> Batch:
    """The core's engine entry for a self-play job: the crib by the rank pair each role threw, as totals
    (``by`` = ``to_whom``, ``who`` = ``lo-hi`` ranks, component ``crib``)."""
    shape = (keys.shape[0], 2, N_RANKS, N_RANKS)
    sums, sumsq, counts = (np.zeros(shape, dtype=np.int64) for _ in range(3))
    _throw_chunks(
        job.rules.to_kernel(),
        keys,
        first_item,
        n_items,
        job.chunk_size,
        job.kernel_policies(),
        sums,
        sumsq,
        counts,
        err,
    )
    sums, sumsq, counts = sums.sum(0), sumsq.sum(0), counts.sum(0)
    who = [f"{lo}-{hi}" for lo, hi in PAIRS]
    lo, hi = np.array(PAIRS).T
    frames = [
        total_columns(to_whom, who, ["crib"], sums[k, lo, hi], sumsq[k, lo, hi], counts[k, lo, hi])
        for k, to_whom in enumerate(TO_WHOM)
    ]
    return Batch("deals", n_items, concat(frames), pd.DataFrame())


def _symmetric(upper):
    """A 13x13 matrix filled on and above the diagonal, mirrored below it."""
    return np.triu(upper) + np.triu(upper, 1).T


def _check_rules(job: Job) -> None:
    rules = job.rules
    if rules.active != 2 or rules.throw != 2 or rules.crib_from_pack:
        raise ValueError(
            f"crib tables are by the rank pair each of two players throws; {rules.name} has "
            f"{rules.active} players in a deal throwing {rules.throw} card(s) each"
        )


def _job(rules, discard, n_deals, seed) -> Job:
    job = Job.make("cribbage", "deals", rules, {"discard": discard, "peg": "greedy"}, n_deals, seed, engine=__name__)
    _check_rules(job)
    return job


def _play(job: Job, threads, progress=False):
    """Totals ``(sums, sumsq, counts)``, each ``[2 roles, 13, 13]`` upper-triangular, over the job's deals
    (played in batches by the core's runner)."""
    batch, _ = play(job, threads=threads, progress=progress)
    t = batch.totals.set_index(["scope", "who"])
    out = np.zeros((3, 2, N_RANKS, N_RANKS), dtype=np.int64)
    for k, to_whom in enumerate(TO_WHOM):
        for lo, hi in PAIRS:
            out[:, k, lo, hi] = t.loc[(to_whom, f"{lo}-{hi}"), ["sum", "sumsq", "n"]].to_numpy()
    return out[0], out[1], out[2]


def _describe(job: Job) -> dict:
    """Provenance of a self-play round; a crib table among a policy's params is named, not listed."""
    seats = [p.describe() for p in job.policies["discard"]]
    return {
        "rules": job.rules.name,
        "policies": {"discard": seats[:1] if seats[0] == seats[-1] else seats},
        "seed": job.seed,
        "n_deals": job.n,
        "chunk_size": job.chunk_size,
        "version": __version__,
        "numba": numba.__version__,
    }


def self_play_tables(
    rules="six-card",
    policies=None,
    n_deals: int = 100_000,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """The expected crib for every rank pair thrown by the dealer and by the pone, with standard errors.

    ``policies`` as for :func:`simulate_deals` (only the discard policies matter; default
    ``expected_net``).  Columns: ``card1_rank, card2_rank, to_whom, expected_crib_points, se, n,
    source``; a pair never thrown has NaN, one thrown once a NaN ``se``.  ``.attrs["provenance"]``
    says how the table was made.
    """
    job = _job(rules, (policies or {}).get("discard", "expected_net"), n_deals, seed)
    sums, sumsq, counts = _play(job, threads, progress)
    return _table(sums, sumsq, counts, "self-play", {**_describe(job), "iterations": 0})


def _table(sums, sumsq, counts, source, provenance, value=None):
    """The tidy table from upper-triangular totals; ``value`` overrides the plain means."""
    mean, se = mean_se(sums, sumsq, counts)
    if value is None:
        value = mean
    columns = {
        "expected_crib_points": {who: _symmetric(value[k]) for k, who in enumerate(TO_WHOM)},
        "se": {who: _symmetric(se[k]) for k, who in enumerate(TO_WHOM)},
        "n": {who: _symmetric(counts[k]) for k, who in enumerate(TO_WHOM)},
    }
    table = matrices_table(columns, source)
    table["n"] = table["n"].astype(np.int64)
    table.attrs["provenance"] = provenance
    return table


def iterate_tables(
    rules="six-card",
    start="schell",
    n_deals: int = 100_000,
    seed: int = 0,
    iterations: int = 5,
    tol: float = 0.05,
    prior_deals: float = DEFAULT_PRIOR_DEALS,
    threads: int | None = None,
    progress: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tables -> ``expected_net`` with them -> self-play tables -> ... (module docstring).

    ``start``: a published table's name or a table DataFrame.  Returns the last table (``se``
    and ``n`` of its own round) and the history: per round the largest and the mean absolute
    change of an entry.
    """
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
    if not (np.isfinite(tol) and tol >= 0):
        raise ValueError(f"tol must be a non-negative number, got {tol!r}")
    if not (np.isfinite(prior_deals) and prior_deals >= 0):
        raise ValueError(f"prior_deals must be a non-negative number, got {prior_deals!r}")
    table = reference_table(start) if isinstance(start, str) else start
    params = table_params(table)
    history = []
    for round_ in range(1, int(iterations) + 1):
        job = _job(rules, expected_net_policy(params), n_deals, seed)
        sums, sumsq, counts = _play(job, threads, progress)
        previous = params_matrices(params)
        prior = np.stack([np.triu(previous[who]) for who in TO_WHOM])
        weight = counts + prior_deals
        value = np.divide(sums + prior_deals * prior, weight, out=prior.copy(), where=weight > 0)
        new = np.concatenate([_symmetric(value[k]).ravel() for k in range(2)])
        change = np.abs(new - params)
        history.append(
            {"iteration": round_, "max_abs_change": float(change.max()), "mean_abs_change": float(change.mean())}
        )
        params = new
        if change.max() < tol:
            break
    iterated = {"discard": [{"name": "expected_net", "params": "the table of the round before"}]}
    provenance = {
        **_describe(job),
        "policies": iterated,
        "iterations": len(history),
        "start": start if isinstance(start, str) else "table",
        "tol": tol,
        "prior_deals": prior_deals,
        "history": history,
    }
    return _table(sums, sumsq, counts, "self-play", provenance, value=value), pd.DataFrame(history)


def write_table(table: pd.DataFrame, path) -> tuple[Path, Path]:
    """Write ``table`` as CSV (the columns of data/reference, plus ``se`` and ``n``) and its provenance
    as JSON beside it (same name, ``.json``); returns both paths.  Creates the directory."""
    path = Path(path)
    if path.suffix != ".csv":
        raise ValueError(f"the table file must end in .csv, got {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    sidecar = path.with_suffix(".json")
    provenance = {**table.attrs.get("provenance", {}), "git_commit": git_commit(), "file": path.name}
    text = StringIO()
    text.write(f"# Crib discard table by self-play (sims {__version__}); provenance in {sidecar.name}.\n")
    text.write("# Columns as sims/cribbage/data/crib_discard_tables.csv, plus se (standard error) and n (deals).\n")
    table.to_csv(text, index=False, float_format="%.4f")
    atomic_write(path, lambda f: f.write(text.getvalue().encode()))
    write_json(sidecar, provenance)
    return path, sidecar
