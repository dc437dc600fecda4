"""Where batches are played: this process (numba threads), or Dask workers that write their own files.

Dask: workers rebuild the job from its spec, importing each policy by ``module:name``
(built-in policies and njit functions defined in an importable module work; a function
defined in a notebook or ``__main__`` cannot be sent to a cluster), play whole batches,
write their own files into the run directory and return small summaries: the directory
must be on a filesystem that this process and every worker see at the same path.  A
local cluster listens on localhost over TLS with temporary credentials, so another user
of the machine cannot submit code to its workers.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from .chunks import current_threads, run_chunks

CLUSTER_MODULES = ("distributed", "cryptography")  # Dask's scheduler and workers; the TLS of a local cluster
CHUNKS_PER_THREAD = 32  # a batch: 32 chunks per numba thread, 0.4-1.5 s of deals or games
SCHEDULER_SECONDS = 10


def require_cluster() -> None:
    """A run on Dask needs the extra ``cluster`` (Dask distributed, and cryptography for its TLS); without it one
    line that names the extra."""
    missing = [name for name in CLUSTER_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise ValueError(
            f"a Dask cluster (--workers, --scheduler) needs {' and '.join(missing)}, not installed: "
            f"pip install 'period-card-sims[cluster]'"
        )


def default_batch_chunks(job, threads: int, workers: int = 1) -> int:
    """About a second of work per batch, and at least two batches per worker when the job allows."""
    return max(1, min(CHUNKS_PER_THREAD * threads, -(-job.n_chunks // (2 * workers))))


def local_batches(job, plan, todo, threads, writer):
    """This process: one parallel kernel call per batch; ``writer(index, batch)`` stores it (or None)."""
    for index in todo:
        batch = run_chunks(job, *plan.chunks(index), threads)
        if writer is not None:
            writer(index, batch)
        yield index, batch


_WORKER_JOBS: dict = {}
_KERNEL_LOCK = threading.Lock()  # a worker with several Python threads still runs one kernel at a time


def _worker_job(spec: dict, out: str | None):
    from .spec import job_from_spec
    from .store import fingerprint

    key = fingerprint(spec)
    if key not in _WORKER_JOBS:
        _WORKER_JOBS[key] = job_from_spec(spec, run_dir=out)
    return _WORKER_JOBS[key]


def _warm_worker(spec: dict, out: str | None) -> int:
    """Load the compiled kernels and policies once (a one-item job); returns the worker's numba threads."""
    job = _worker_job(spec, out).with_size(1)
    with _KERNEL_LOCK:
        run_chunks(job, 0, 1)
    return current_threads()


def _worker_batch(spec, index, first_chunk, n_chunks, threads, out, identity):
    """A Dask task: play one batch, write its files (when ``out``), return a small summary or the batch."""
    from .store import write_batch

    job = _worker_job(spec, out)
    start = time.perf_counter()
    with _KERNEL_LOCK:
        batch = run_chunks(job, first_chunk, n_chunks, threads)
    if out is None:
        return index, batch
    write_batch(Path(out), identity, index, first_chunk, n_chunks, batch)
    return index, {"n": batch.n, "seconds": time.perf_counter() - start}


def dask_batches(client, spec, plan, todo, threads, store):
    """Batches as Dask tasks, a few per worker in flight; workers write the files, this process reads them."""
    from distributed import as_completed

    from . import store as st

    out = str(store.path.resolve()) if store is not None else None
    identity = store.identity if store is not None else None
    window = max(2, 2 * len(client.scheduler_info().get("workers", {})))
    todo = iter(todo)
    running = as_completed()
    futures = []
    token = uuid.uuid4().hex[:8]  # fresh task keys: a resumed run never meets its cancelled tasks

    def submit() -> bool:
        index = next(todo, None)
        if index is None:
            return False
        futures.append(
            client.submit(
                _worker_batch,
                spec,
                index,
                *plan.chunks(index),
                threads,
                out,
                identity,
                key=f"sims-batch-{index}-{token}",
            )
        )
        running.add(futures[-1])
        return True

    try:
        for _ in range(window):
            if not submit():
                break
        for future in running:
            index, payload = future.result()
            if store is None:
                yield index, payload
            else:
                try:
                    yield index, store.read(plan, index)
                except st.DamagedRun as exc:
                    if not st.record_path(store.path, index).exists():
                        raise ValueError(
                            f"the files of batch {index} written by a worker are not in {store.path}: "
                            f"--out must be on a filesystem shared by this machine and the workers"
                        ) from None
                    raise exc
            submit()
    finally:
        client.cancel([f for f in futures if not f.done()], force=True)


def tls_security(ca_file=None, cert=None, key=None):
    """Dask's TLS settings (``distributed.security.Security``) for a remote ``tls://`` scheduler from the CA,
    client certificate and key files; what is not given comes from Dask's config ``distributed.comm.tls``.
    None when no file is given (Dask's config alone)."""
    from .paths import check_input_file, shown

    given = {"tls_ca_file": ca_file, "tls_client_cert": cert, "tls_client_key": key}
    given = {name: str(path) for name, path in given.items() if path is not None}
    for name, path in given.items():
        flag = f"--{name.replace('_', '-').replace('client-', '')}"
        check_input_file(path, f"{flag} {shown(path)}", limit=PEM_BYTES, what="PEM file")
    _check_pem(given)
    if not given:
        return None
    require_cluster()
    from distributed.security import Security

    return Security(require_encryption=True, **given)


PEM_BYTES = 1 << 20  # a certificate chain or a key is a few kilobytes


def _check_pem(given: dict) -> None:
    """Load the CA and the client's certificate and key as the TLS connection will, so that a file that is not
    PEM, a key that does not match its certificate, are told by name before any connection is tried."""
    import ssl

    from .paths import shown

    def told(flag, path, what, exc):
        reason = getattr(exc, "reason", None) or " ".join(str(exc).split())
        return ValueError(f"{flag} {shown(path)}: not a PEM {what} ({reason})")

    if "tls_ca_file" in given:
        try:
            ssl.create_default_context(cafile=given["tls_ca_file"])
        except (ssl.SSLError, ValueError) as exc:
            raise told("--tls-ca-file", given["tls_ca_file"], "certificate", exc) from None
    if "tls_client_cert" in given:
        try:
            ssl.create_default_context().load_cert_chain(given["tls_client_cert"], given.get("tls_client_key"))
        except (ssl.SSLError, ValueError) as exc:
            raise told("--tls-cert", given["tls_client_cert"], "certificate with its key", exc) from None


@contextmanager
def _client_within(address: str, seconds: float, security=None):
    """A Client of the scheduler at ``address``, or a one-line error when nothing answers there as Dask
    within ``seconds`` (a socket that accepts and stays silent would otherwise hold the connection open)."""
    from distributed import Client

    from .store import one_line

    if security is not None and not address.startswith("tls://"):
        raise ValueError(f"TLS certificates go with a tls:// scheduler address, not {address}")
    found = {}

    def connect():
        try:
            found["client"] = Client(address, timeout=seconds, security=security)
        except Exception as exc:  # whatever the address gives back, the user needs one line
            found["error"] = exc

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(seconds + 0.5)  # the Client's own timeout is ``seconds``; a silent socket can outlast it
    if "client" not in found:
        reason = one_line(found["error"]) if "error" in found else "no answer"
        raise ValueError(f"no Dask scheduler answered at {address} within {seconds} s ({reason})")
    with found["client"] as client:
        yield client


def check_workers(workers) -> int | None:
    """None (one per core) or a local cluster this machine can hold: 1 to four processes per core; else one line."""
    limit = 4 * (os.cpu_count() or 1)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= limit):
        raise ValueError(
            f"workers must be a whole number from 1 to {limit} (four local processes per core of this "
            f"machine), got {workers!r}; for more, start a Dask cluster and give --scheduler"
        )
    return workers


@contextmanager
def dask_client(
    workers: int | None = None, scheduler: str | None = None, client=None, threads: int | None = None, security=None
):
    """``client`` itself, or a Client of the scheduler at ``scheduler`` (over TLS with ``security``, see
    :func:`tls_security`; a one-line error within :data:`SCHEDULER_SECONDS` if nothing answers there as
    Dask), or of a LocalCluster of ``workers``
    (default: one per core) single-threaded processes on localhost over TLS with temporary credentials,
    each with ``threads`` numba threads (default: the cores shared out)."""
    if client is not None:
        yield client
        return
    require_cluster()
    if scheduler is not None:
        with _client_within(scheduler, SCHEDULER_SECONDS, security) as c:
            yield c
        return
    import logging

    from distributed import Client, LocalCluster
    from distributed.security import Security

    workers = check_workers(workers) or os.cpu_count() or 1
    per_worker = threads or max(1, (os.cpu_count() or 1) // workers)
    security = Security.temporary()
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            protocol="tls://",
            security=security,
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.ERROR,
            env={"NUMBA_NUM_THREADS": str(per_worker)},
        ) as cluster,
        Client(cluster, security=security) as c,
    ):
        c.wait_for_workers(workers)
        yield c
