"""Batch runs: a job cut into batches of chunks, with progress, a run store, resume and Dask.

A batch is ``batch_chunks`` consecutive chunks played by one kernel call (about a
second of work); it is the unit of the progress bar, of the stored files, of resume
and of a Dask task.  Totals are exact integers, so the result of a run does not
depend on where or in which order its batches were played: a run resumed after a
crash, or played on a Dask cluster, gives the same numbers as one uninterrupted run.
Planning never lists the batches: a run of 10^12 deals starts at once, and without
per-item rows its memory stays flat whatever its size.

>>> from sims.core.jobs import Job
>>> job = Job.make(None, "deals", None, None, 20_000, seed=1)   # the default game, rules and policies
>>> result = run(job, out="data/runs/demo", progress=False)        # doctest: +SKIP
>>> load_run("data/runs/demo").table()                              # doctest: +SKIP
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import ExitStack

from .batch import Batch, concat_rows
from .chunks import check_threads, current_threads
from .executors import dask_batches, dask_client, default_batch_chunks, local_batches, require_cluster
from .jobs import Job, Plan
from .policies import load
from .spec import job_from_spec, job_spec

REMOTE_THREADS = 1024  # numba threads per worker of a cluster whose machines this process cannot see


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run after a finished batch; finished batches are kept."""


def summarize(job: Job, batch):
    """The game's result object for a batch of ``job``."""
    return load(job.game.results).summarize(job, batch)


class _Collector:
    """The merged Batch of a job: totals added as batches arrive (numpy arrays: the DataFrames are made once, from
    the sums), rows kept by batch and joined in order."""

    def __init__(self):
        self.totals = None
        self.rows = {}

    def add(self, index: int, batch) -> None:
        totals = Batch(batch.kind, batch.n, batch.total_columns, batch.histogram_columns)
        self.totals = totals if self.totals is None else self.totals.merge(totals)
        if batch.rows:
            self.rows[index] = batch.rows

    @property
    def n(self) -> int:
        return 0 if self.totals is None else self.totals.n

    def batch(self):
        rows = {}
        for index in sorted(self.rows):
            for name, frame in self.rows[index].items():
                rows.setdefault(name, []).append(frame)
        if rows:
            self.totals.rows = {name: concat_rows(frames) for name, frames in rows.items()}
        return self.totals


def load_run(path, partial: bool = False):
    """The result of a run directory, rebuilt from its files, each checked.

    Parameters
    ----------
    path : str or pathlib.Path
        The run directory.
    partial : bool
        Read an unfinished run's finished batches (else an unfinished run is an error).

    Returns
    -------
    DealResult or GameResult
        The game's result; for a partial run its ``partial`` says how many batches (and items) it covers.
    """
    from . import store as st

    store, plan = st.open_run(path)
    path, job = store.path, store.job
    done = sorted(st.finished_indices(path))
    if len(done) < plan.n_batches and not partial:
        raise ValueError(
            f"run {path} is incomplete ({len(done)} of {plan.n_batches} batches): rerun it to finish, "
            f"or load it with partial=True"
        )
    if not done:
        raise ValueError(f"run {path} has no finished batch yet")
    collector = _Collector()
    for index in done:
        store.check(plan, index)
        collector.add(index, store.read(plan, index))
    result = summarize(job.with_size(collector.n), collector.batch())
    if len(done) < plan.n_batches:
        result.partial = {"batches": len(done), "of": plan.n_batches, "n": collector.n, "of_n": job.n}
    return result


class _StopOnCtrlC:
    """First Ctrl-C: finish the batch in hand, then stop; a second one stops at once."""

    def __init__(self):
        self.requested = False
        self._previous = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def _handler(self, signum, frame):
        self.requested = True
        signal.signal(signal.SIGINT, self._previous)

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


class _Executor:
    """Where batches are played: this process, or a Dask cluster started (or reached) on first use."""

    def __init__(self, job, threads, workers, scheduler, client, stack, security=None):
        self.job, self.threads, self.stack, self.security = job, threads, stack, security
        self.dask = (workers, scheduler, client) if any(x is not None for x in (workers, scheduler, client)) else None
        self.client = None
        self.worker_threads = []

    def _connect(self, spec, out):
        if self.client is None:
            from .executors import _warm_worker

            self.client = self.stack.enter_context(dask_client(*self.dask, self.threads, self.security))
            self.worker_threads = list(self.client.run(_warm_worker, spec, out).values())
        return self.client

    def default_batch_chunks(self, spec, out) -> int:
        if self.dask is None:
            return default_batch_chunks(self.job, self.threads or current_threads())
        self._connect(spec, out)
        return default_batch_chunks(
            self.job, self.threads or min(self.worker_threads, default=1), max(1, len(self.worker_threads))
        )

    def batches(self, plan, todo, store, spec):
        if self.dask is None:
            writer = (lambda index, batch: store.write(plan, index, batch)) if store is not None else None
            return local_batches(self.job, plan, todo, self.threads, writer)
        out = str(store.path.resolve()) if store is not None else None
        return dask_batches(self._connect(spec, out), spec, plan, todo, self.threads, store)


def run(
    job: Job,
    out=None,
    *,
    batch_chunks: int | None = None,
    threads: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    client=None,
    progress: bool = True,
    on_batch=None,
    security=None,
):
    """Play ``job`` in batches and return its game's result.

    ``out``: a run directory; an existing one for the same job is resumed, one for another job is
    refused.  Without ``out`` nothing is written.  ``threads``: numba threads (per worker on Dask).
    ``workers``: start a local Dask cluster of that many single-threaded processes; ``scheduler``: the
    address of a running Dask scheduler (``tls://``: ``security``, a ``distributed.security.Security``, or
    Dask's config ``distributed.comm.tls``); ``client``: a ``distributed.Client``.  ``on_batch(index,
    batch)`` is called after each batch is stored.  Ctrl-C stops after the batch in hand and raises
    :class:`RunInterrupted`.
    """
    with ExitStack() as stack:
        batch, store = play(
            job,
            out,
            stack,
            batch_chunks=batch_chunks,
            threads=threads,
            workers=workers,
            scheduler=scheduler,
            client=client,
            progress=progress,
            on_batch=on_batch,
            security=security,
        )
        result = summarize(job, batch)
        if store is not None:
            from .store import write_summary

            write_summary(store, result.summary)
        return result


def play(
    job: Job,
    out=None,
    stack: ExitStack | None = None,
    *,
    batch_chunks=None,
    threads=None,
    workers=None,
    scheduler=None,
    client=None,
    progress=True,
    on_batch=None,
    security=None,
):
    """The merged Batch of ``job`` played in batches (see :func:`run`), and its RunStore (or None)."""
    if stack is None:
        with ExitStack() as own:
            return play(
                job,
                out,
                own,
                batch_chunks=batch_chunks,
                threads=threads,
                workers=workers,
                scheduler=scheduler,
                client=client,
                progress=progress,
                on_batch=on_batch,
                security=security,
            )
    if sum(x is not None for x in (workers, scheduler, client)) > 1:
        raise ValueError("give at most one of workers, scheduler and client")
    for name, value in (("batch_chunks", batch_chunks), ("workers", workers)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    check_threads(threads, REMOTE_THREADS if scheduler is not None or client is not None else None)
    _check_memory(job)
    spec = job_spec(job)
    if any(x is not None for x in (workers, scheduler, client)):
        require_cluster()  # before anything is written
        job_from_spec(spec)  # every policy importable by the workers, else a one-line error now
    stop = stack.enter_context(_StopOnCtrlC())
    store = None
    if out is not None:
        from .store import RunStore

        store = RunStore(out, job)
        stack.callback(store.close)
        existing = store.open()
        batch_chunks = batch_chunks or existing
    executor = _Executor(job, threads, workers, scheduler, client, stack, security)
    out_dir = str(store.path.resolve()) if store is not None else None
    plan = Plan(job, batch_chunks or executor.default_batch_chunks(spec, out_dir))
    done = store.begin(plan) if store is not None else set()
    collector = _Collector()
    for index in sorted(done):
        collector.add(index, store.read(plan, index))  # type: ignore[union-attr]  # done is empty without a store
    todo = (i for i in range(plan.n_batches) if i not in done)
    if len(done) < plan.n_batches and not stop.requested:
        _play(job, plan, executor.batches(plan, todo, store, spec), collector, progress, on_batch, stop)
    if collector.n < job.n:
        _interrupted(plan, collector, store)
    return collector.batch(), store


def _check_memory(job: Job) -> None:
    """Per-item rows are held until the result is built: refuse a run whose rows cannot fit in memory."""
    if not job.records:
        return
    need = job.n * job.game.record_bytes[job.kind]
    have = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    if need > have:
        raise ValueError(
            f"keeping a row for each of {job.n:,} {job.kind} needs about {need / 2**30:,.0f} GiB, more "
            f"than this machine's {have / 2**30:,.0f} GiB: drop --records (totals and histograms "
            f"stay exact), or run fewer {job.kind}"
        )


def _progress_bar(stack: ExitStack, job: Job, initial: int):
    """The ``update`` of a progress bar over the job's items (:mod:`sims.core.progress`)."""
    from .progress import progress_bar

    return stack.enter_context(
        progress_bar(
            total=job.n,
            initial=initial,
            unit=f" {job.kind}",
            unit_scale=True,
            desc=f"{job.game.name} {job.rules.name} {job.kind}",
            smoothing=0.1,
            leave=False,
        )
    ).update


def _play(job, plan, batches, collector, progress, on_batch, stop):
    """Consume finished batches into ``collector`` with a progress bar; stop cleanly on Ctrl-C."""
    with ExitStack() as stack:
        advance = _progress_bar(stack, job, collector.n) if progress else None
        try:
            for index, batch in batches:
                collector.add(index, batch)
                if advance is not None:
                    advance(batch.n)
                if on_batch is not None:
                    on_batch(index, batch)
                if stop.requested:
                    break
        except Exception:
            if not stop.requested:  # Ctrl-C also reaches Dask worker processes: their failure is the stop
                raise
        finally:
            batches.close()


def _interrupted(plan, collector, store):
    kept = (
        f"finished batches are kept in {store.path}: run the same command again to resume"
        if store is not None
        else "nothing was kept (no output directory)"
    )
    raise RunInterrupted(f"stopped after {collector.n:,} of {plan.job.n:,} {plan.job.kind}; {kept}")
