"""Chunked parallel runs: a range of a job's chunks in one kernel call of its game's engine."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

import numba

from .batch import Batch
from .errors import job_policies, new_err, raise_policy_error, raised_by_policy
from .policies import load
from .rng import chunk_keys

_THREADS: ContextVar[int | None] = ContextVar("loop_threads", default=None)


@contextmanager
def loop_threads(threads: int | None):
    """Run the enclosed chunk loops on ``threads`` threads (None: ``NUMBA_NUM_THREADS``, the cores)."""
    token = _THREADS.set(threads)
    try:
        yield
    finally:
        _THREADS.reset(token)


def current_threads() -> int:
    """The threads a chunk loop runs on now: :func:`loop_threads`'s, else ``NUMBA_NUM_THREADS`` (the cores)."""
    return _THREADS.get() or numba.config.NUMBA_NUM_THREADS


def check_threads(threads, limit: int | None = None) -> int | None:
    """None (all cores) or a positive integer no larger than ``limit`` (default: the threads numba can
    run in this process, ``NUMBA_NUM_THREADS``); else a one-line error."""
    limit = limit or numba.config.NUMBA_NUM_THREADS
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    if threads is not None and threads > limit:
        raise ValueError(
            f"threads must be at most {limit} (numba runs at most NUMBA_NUM_THREADS = {limit} threads "
            f"here), got {threads:,}"
        )
    return threads


@contextmanager
def numba_threads(threads: int | None):
    """Run the enclosed chunk loops (:mod:`sims.core.driver`) and numba's parallel kernels on ``threads`` threads
    (at most the configured number)."""
    if threads is None:  # as configured: numba's thread pool is not started for nothing (0.1 s)
        yield
        return
    threads = max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS))
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        with loop_threads(threads):
            yield
    finally:
        numba.set_num_threads(previous)


def run_chunks(job, first_chunk: int, n_chunks: int, threads: int | None = None) -> Batch:
    """Play chunks first_chunk .. first_chunk + n_chunks - 1 of ``job``; an illegal answer raises PolicyError."""
    if first_chunk < 0 or n_chunks < 1 or first_chunk + n_chunks > job.n_chunks:
        raise ValueError(f"chunks {first_chunk}..{first_chunk + n_chunks - 1} are outside 0..{job.n_chunks - 1}")
    engine = load(job.engine or job.game.engine)
    keys = chunk_keys(job.seed, first_chunk, n_chunks, job.game.n_streams)
    err = new_err(n_chunks)
    with numba_threads(threads):
        with raised_by_policy(
            job_policies(job),
            f"chunks {first_chunk}..{first_chunk + n_chunks - 1}, seed {job.seed}",
            kinds=(SystemError,),
        ):  # parallel kernels: what a policy raised is the cause
            batch = engine.play_chunks(
                job, keys, first_chunk * job.chunk_size, job.chunk_items(first_chunk, n_chunks), err
            )
    raise_policy_error(job, err, engine.describe_error)
    return batch
