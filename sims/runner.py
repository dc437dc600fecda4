"""Batch runs: a job cut into batches of chunks, with progress, shards on disk, resume and Dask.

A batch is ``batch_chunks`` consecutive chunks played by one :func:`run_chunks` call
(about a second of work); it is the unit of the progress bar, of a Parquet shard, of
resume and of a Dask task.  Totals are exact integers, so the result of a run does not
depend on where or in which order its batches were played: a run resumed after a crash,
or played on a Dask cluster, gives the same numbers as one uninterrupted local run.

>>> from sims.cribbage.engine import Job
>>> job = Job.make("deals", "six-card", {"discard": "greedy", "peg": "greedy"}, 20_000, seed=1)
>>> result = run(job, out="data/runs/demo", progress=False)        # doctest: +SKIP
>>> load_run("data/runs/demo").table()                              # doctest: +SKIP

Memory: totals are merged as batches finish, so a run without per-item rows holds a few
kilobytes whatever its size; per-item rows (``records``, and the game rows that game
summaries need) take 64 bytes a deal or 96 bytes a game, held until the result is built.

Dask: workers rebuild the job from its spec and import each policy by ``module:name``
(registered policies and njit functions defined in an importable module work; a function
defined in a notebook or ``__main__`` cannot be sent to a cluster), run whole batches, write
their own shards into ``out`` and return small summaries: ``out`` must be on a filesystem
that this process and every worker see at the same path.
"""
from __future__ import annotations

import dataclasses
import math
import os
import signal
import threading
import time
import uuid
from collections import deque
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np
from tqdm.auto import tqdm

from . import io
from .cribbage.engine import ROW_ARRAYS, Batch, Job, run_chunks
from .cribbage.results import summarize

CHUNKS_PER_THREAD = 32      # a batch: 32 chunks per numba thread, 0.4-1.5 s of deals or games


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run after a finished batch; finished shards are kept."""


@dataclasses.dataclass(frozen=True)
class Plan:
    """A job cut into batches of ``batch_chunks`` consecutive chunks (the last may be shorter)."""

    job: Job
    batch_chunks: int

    @property
    def n_batches(self) -> int:
        return -(-self.job.n_chunks // self.batch_chunks)

    def chunks(self, index: int) -> tuple[int, int]:
        """(first_chunk, n_chunks) of batch ``index``."""
        first = index * self.batch_chunks
        return first, min(self.batch_chunks, self.job.n_chunks - first)

    def items(self, index: int) -> int:
        return self.job.chunk_items(*self.chunks(index))


def default_batch_chunks(job: Job, threads: int, workers: int = 1) -> int:
    """About a second of work per batch, and at least two batches per worker when the job allows."""
    return max(1, min(CHUNKS_PER_THREAD * threads, math.ceil(job.n_chunks / (2 * workers))))


class _Collector:
    """The merged Batch of a job: totals added as batches arrive, rows placed at their items (any order)."""

    def __init__(self, job: Job):
        self.job = job
        self.totals = None
        self.rows = {}

    def add(self, first_chunk: int, batch: Batch) -> None:
        totals = Batch(batch.kind, batch.n, {k: v for k, v in batch.arrays.items() if k not in ROW_ARRAYS})
        self.totals = totals if self.totals is None else self.totals.merge(totals)
        start = first_chunk * self.job.chunk_size
        for key, value in batch.arrays.items():
            if key in ROW_ARRAYS:
                if key not in self.rows:
                    self.rows[key] = np.empty((self.job.n, *value.shape[1:]), dtype=value.dtype)
                self.rows[key][start:start + batch.n] = value

    def batch(self) -> Batch:
        if self.totals is None or self.totals.n != self.job.n:
            raise ValueError(f"run is incomplete: {0 if self.totals is None else self.totals.n} of {self.job.n} "
                             f"{self.job.kind}")
        return Batch(self.totals.kind, self.totals.n, {**self.totals.arrays, **self.rows})


class RunStore:
    """A run directory: manifest, lock, shards (see :mod:`sims.io`)."""

    def __init__(self, path, job: Job):
        self.path = Path(path)
        self.job = job
        self.manifest = None
        self._lock = None

    # -- opening: refuse directories that hold something else, lock against a second writer
    def open(self) -> int | None:
        """Check the directory can hold this job; returns the batch size of an existing run, else None."""
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"output {self.path} exists and is not a directory")
        manifest_path = self.path / io.MANIFEST
        if self.path.is_dir() and not manifest_path.exists() and any(
                p.name not in (".lock", io.SHARDS) and not p.name.endswith(io.TMP_SUFFIX) for p in self.path.iterdir()):
            raise ValueError(f"output directory {self.path} is not empty and holds no sims run ({io.MANIFEST}); "
                             f"choose another --out")
        self.path.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        if manifest_path.exists():
            self.manifest = read_manifest(self.path)
            self._refuse_if_different(self.manifest, compare_batch=False)
            return self.manifest["batch_chunks"]
        return None

    def _take_lock(self):
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no protection against two writers
            return
        f = open(self.path / ".lock", "w")  # noqa: SIM115 - held open for the run: the lock lives with it
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise ValueError(f"run directory {self.path} is in use by another sims run") from None
        self._lock = f

    def close(self):
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _new_manifest(self, plan: Plan) -> dict:
        manifest = {"format": io.FORMAT, "job": io.job_spec(self.job), "batch_chunks": plan.batch_chunks,
                    "n_batches": plan.n_batches, "n_chunks": self.job.n_chunks,
                    "rng": self.job.describe()["rng"], "versions": io.versions(), "git_commit": io.git_commit(),
                    "created": datetime.now(UTC).isoformat(timespec="seconds")}
        manifest["run"] = io.fingerprint(_identity(manifest))
        return manifest

    def _refuse_if_different(self, existing: dict, compare_batch: bool):
        here = _identity(self._new_manifest(Plan(self.job, existing["batch_chunks"])))
        there = _identity(existing)
        if not compare_batch:
            here.pop("batch_chunks")
            there.pop("batch_chunks")
        diff = io.first_difference(here, there)
        if diff:
            raise ValueError(f"output directory {self.path} holds another run ({diff}); choose another --out "
                             f"or delete it")

    # -- starting: write the manifest once, list the finished batches
    def begin(self, plan: Plan) -> list[int]:
        """Write the manifest of a new run (or check the batch size of an old one); the finished batches."""
        if self.manifest is None:
            self.manifest = self._new_manifest(plan)
            (self.path / io.SHARDS).mkdir(exist_ok=True)
            io.write_json(self.path / io.MANIFEST, self.manifest)
        elif self.manifest["batch_chunks"] != plan.batch_chunks:
            raise ValueError(f"output directory {self.path} was started with batch_chunks "
                             f"{self.manifest['batch_chunks']}, not {plan.batch_chunks}; drop --batch-chunks to resume")
        io.remove_stale_temporaries(self.path)
        io.remove_stale_temporaries(self.path / io.SHARDS)
        return finished_batches(self.path, self.manifest, plan)

    def write(self, plan: Plan, index: int, batch: Batch) -> None:
        io.write_shard(self.path, index, *plan.chunks(index), batch, self.manifest["run"])

    def read(self, plan: Plan, index: int) -> Batch:
        return io.read_shard(io.shard_paths(self.path, index)[0], _expected(self.manifest, plan, index))


def _identity(manifest: dict) -> dict:
    """What must agree for a directory to be resumed: format, code version, job spec, batch size."""
    return {"format": manifest["format"], "sims": manifest["versions"].get("sims"), "job": manifest["job"],
            "batch_chunks": manifest["batch_chunks"]}


def _expected(manifest: dict, plan: Plan, index: int) -> dict:
    first, n_chunks = plan.chunks(index)
    return {"format": io.FORMAT, "run": manifest["run"], "kind": plan.job.kind, "index": index,
            "first_chunk": first, "n_chunks": n_chunks, "n": plan.items(index)}


def read_manifest(path: Path) -> dict:
    manifest = io.read_json(Path(path) / io.MANIFEST, "manifest")
    missing = [k for k in ("format", "run", "job", "batch_chunks", "versions") if k not in manifest]
    if missing or not isinstance(manifest["versions"], dict) or not isinstance(manifest["job"], dict):
        what = f"no {missing[0]!r}" if missing else "job or versions is not a table"
        raise ValueError(f"manifest {Path(path) / io.MANIFEST} is corrupt ({what})")
    if manifest["format"] != io.FORMAT:
        raise ValueError(f"{path} is a {manifest['format']!r} run directory; this sims reads {io.FORMAT!r}")
    return manifest


def finished_batches(path: Path, manifest: dict, plan: Plan) -> list[int]:
    """Indices of the batches whose shards are present, each checked (readable, right run, kind and chunks)."""
    done = []
    for index in range(plan.n_batches):
        shard = io.shard_paths(path, index)[0]
        if shard.exists():
            io.check_shard(shard, _expected(manifest, plan, index))
            done.append(index)
    return done


def load_run(path):
    """The result (DealResult or GameResult) of a finished run directory, rebuilt from its shards.

    Policies are not imported: the result carries their names and parameters only.
    """
    path = Path(path)
    if not path.is_dir():
        raise ValueError(f"run directory {path} does not exist")
    manifest = read_manifest(path)
    try:
        job = io.job_from_spec(manifest["job"], import_functions=False)
        plan = Plan(job, int(manifest["batch_chunks"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"manifest {path / io.MANIFEST} is corrupt ({io.one_line(exc)})") from None
    store = RunStore(path, job)
    store.manifest = manifest
    done = finished_batches(path, manifest, plan)
    if len(done) < plan.n_batches:
        raise ValueError(f"run {path} is incomplete ({len(done)} of {plan.n_batches} batches): rerun it to finish")
    collector = _Collector(job)
    for index in done:
        collector.add(plan.chunks(index)[0], store.read(plan, index))
    return summarize(job, collector.batch())


# ---------------------------------------------------------------- executors

def _local_batches(job, plan, todo, threads, store):
    """This process: one parallel kernel call per batch on ``threads`` numba threads."""
    for index in todo:
        batch = run_chunks(job, *plan.chunks(index), threads)
        if store is not None:
            store.write(plan, index, batch)
        yield index, batch


_WORKER_JOBS: dict[str, Job] = {}
_KERNEL_LOCK = threading.Lock()     # a worker with several Python threads still runs one kernel at a time


def _worker_job(spec: dict) -> Job:
    key = io.fingerprint(spec)
    if key not in _WORKER_JOBS:
        _WORKER_JOBS[key] = io.job_from_spec(spec)
    return _WORKER_JOBS[key]


def _warm_worker(spec: dict) -> int:
    """Load the compiled kernels and policies once (a one-item job); returns the worker's numba threads."""
    job = dataclasses.replace(_worker_job(spec), n=1, records=False, score_log=False)
    with _KERNEL_LOCK:
        run_chunks(job, 0, 1)
    return numba.get_num_threads()


def _worker_batch(spec, index, first_chunk, n_chunks, threads, out, run_id):
    """A Dask task: play one batch, write its shard (when ``out``), return a small summary or the batch."""
    job = _worker_job(spec)
    start = time.perf_counter()
    with _KERNEL_LOCK:
        batch = run_chunks(job, first_chunk, n_chunks, threads)
    if out is None:
        return index, batch
    io.write_shard(Path(out), index, first_chunk, n_chunks, batch, run_id)
    return index, {"n": batch.n, "seconds": time.perf_counter() - start}


def _dask_batches(client, spec, plan, todo, threads, store):
    """Batches as Dask tasks, a few per worker in flight; workers write the shards, this process reads them."""
    from distributed import as_completed

    out = str(store.path.resolve()) if store is not None else None
    run_id = store.manifest["run"] if store is not None else None
    window = max(2, 2 * len(client.scheduler_info().get("workers", {})))
    queue = deque(todo)
    running = as_completed()
    futures = []
    token = uuid.uuid4().hex[:8]        # fresh task keys: a resumed run never meets its cancelled tasks

    def submit():
        index = queue.popleft()
        futures.append(client.submit(_worker_batch, spec, index, *plan.chunks(index), threads, out, run_id,
                                     key=f"sims-batch-{index}-{token}"))
        running.add(futures[-1])

    try:
        for _ in range(min(window, len(queue))):
            submit()
        for future in running:
            index, payload = future.result()
            if store is None:
                yield index, payload
            else:
                try:
                    yield index, store.read(plan, index)
                except FileNotFoundError:
                    raise ValueError(f"shard of batch {index} written by a worker is not in {store.path}: --out "
                                     f"must be on a filesystem shared by this machine and the workers") from None
            if queue:
                submit()
    finally:
        client.cancel([f for f in futures if not f.done()])


@contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None, client=None,
                threads: int | None = None):
    """``client`` itself, or a Client of the scheduler at ``scheduler``, or of a LocalCluster of ``workers``
    (default: one per core) single-threaded processes listening on localhost with ``threads`` numba threads
    each (default: the cores shared out).  ``with dask_client(workers=2) as c: run(job, out, client=c)``
    reuses one cluster for several runs."""
    if client is not None:
        yield client
        return
    import logging

    from distributed import Client, LocalCluster
    if scheduler is not None:
        try:
            c = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"cannot reach the Dask scheduler at {scheduler} ({io.one_line(exc)})") from None
        with c:
            yield c
        return
    workers = workers or os.cpu_count() or 1
    per_worker = threads or max(1, (os.cpu_count() or 1) // workers)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
                      env={"NUMBA_NUM_THREADS": str(per_worker)}) as cluster, Client(cluster) as c:
        c.wait_for_workers(workers)
        yield c


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


# ---------------------------------------------------------------- the entry point

class _Executor:
    """Where batches are played: this process, or a Dask cluster started (or reached) on first use."""

    def __init__(self, job, spec, threads, workers, scheduler, client, stack):
        self.job, self.spec, self.threads, self.stack = job, spec, threads, stack
        self.dask = (workers, scheduler, client) if any(x is not None for x in (workers, scheduler, client)) else None
        self.client = None
        self.worker_threads = []

    def _connect(self):
        if self.client is None:
            self.client = self.stack.enter_context(dask_client(*self.dask, self.threads))
            self.worker_threads = list(self.client.run(_warm_worker, self.spec).values())
        return self.client

    def default_batch_chunks(self) -> int:
        if self.dask is None:
            return default_batch_chunks(self.job, self.threads or numba.get_num_threads())
        self._connect()
        return default_batch_chunks(self.job, self.threads or min(self.worker_threads, default=1),
                                    max(1, len(self.worker_threads)))

    def batches(self, plan, todo, store):
        if self.dask is None:
            return _local_batches(self.job, plan, todo, self.threads, store)
        return _dask_batches(self._connect(), self.spec, plan, todo, self.threads, store)


def run(job: Job, out=None, *, batch_chunks: int | None = None, threads: int | None = None,
        workers: int | None = None, scheduler: str | None = None, client=None, progress: bool = True,
        on_batch=None):
    """Play ``job`` in batches and return its DealResult or GameResult.

    ``out``: a run directory (manifest + Parquet shards); an existing one for the same job is
    resumed, one for another job is refused.  Without ``out`` nothing is written.
    ``threads``: numba threads (per worker on Dask).  ``workers``: start a LocalCluster of that
    many single-threaded worker processes on localhost; ``scheduler``: address of a running Dask
    scheduler; ``client``: a ``distributed.Client``.  ``on_batch(index, batch)`` is called after
    each batch is stored.  Ctrl-C stops after the batch in hand and raises :class:`RunInterrupted`.
    """
    if sum(x is not None for x in (workers, scheduler, client)) > 1:
        raise ValueError("give at most one of workers, scheduler and client")
    for name, value in (("batch_chunks", batch_chunks), ("threads", threads), ("workers", workers)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    spec = io.job_spec(job)
    if any(x is not None for x in (workers, scheduler, client)):
        io.job_from_spec(spec)   # every policy importable by the workers, else a one-line error now
    with ExitStack() as stack:
        store = None
        if out is not None:
            store = RunStore(out, job)
            stack.callback(store.close)
            existing = store.open()
            batch_chunks = batch_chunks or existing
        executor = _Executor(job, spec, threads, workers, scheduler, client, stack)
        plan = Plan(job, batch_chunks or executor.default_batch_chunks())
        done = store.begin(plan) if store is not None else []
        collector = _Collector(job)
        for index in done:
            collector.add(plan.chunks(index)[0], store.read(plan, index))
        todo = sorted(set(range(plan.n_batches)) - set(done))
        if todo:
            _play(job, plan, todo, executor.batches(plan, todo, store), store, collector, progress, on_batch)
        result = summarize(job, collector.batch())
        if store is not None:
            io.write_json(store.path / io.SUMMARY, result.summary)
        return result


def _play(job, plan, todo, batches, store, collector, progress, on_batch):
    """Consume finished batches into ``collector`` with a progress bar; stop cleanly on Ctrl-C."""
    finished = plan.n_batches - len(todo)
    bar = tqdm(total=job.n, initial=job.n - sum(plan.items(i) for i in todo), unit=f" {job.kind}",
               unit_scale=True, disable=not progress, desc=f"{job.rules.name} {job.kind}", smoothing=0.1)
    with bar, _StopOnCtrlC() as stop:
        try:
            for index, batch in batches:
                collector.add(plan.chunks(index)[0], batch)
                finished += 1
                bar.update(batch.n)
                if on_batch is not None:
                    on_batch(index, batch)
                if stop.requested:
                    break
        except Exception:
            if not stop.requested:   # Ctrl-C also reaches Dask worker processes: their failure is the stop
                raise
        finally:
            batches.close()
    if stop.requested and finished < plan.n_batches:
        kept = (f"finished shards are kept in {store.path}: run the same command again to resume"
                if store is not None else "nothing was kept (no output directory)")
        raise RunInterrupted(f"stopped after {finished} of {plan.n_batches} batches; {kept}")
