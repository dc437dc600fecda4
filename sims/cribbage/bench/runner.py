"""Runner overhead: greedy six-card deals through the bare kernel (one ``run_chunks`` call), through the
runner writing the run store locally, and through the runner on a 2-worker Dask LocalCluster.

Issue 5 aims: runner overhead <= 5% of the bare kernel.  Wall seconds on a shared machine
swing by tens of percent, so CPU seconds (this process plus, on Dask, the workers) are
given too: the runner's overhead is extra CPU work.  ``python -m sims.cribbage.bench.runner N``
runs the same measurements at N deals (e.g. 10000000 for the 10^7-deal figure).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numba

from ...core.chunks import run_chunks
from ...core.executors import dask_client
from ...core.jobs import Job
from ...core.runner import run as run_batches

NAME = "runner"
N_DEALS = 300_000
REPEATS = 3  # interleaved; the best of each is kept (the machine is shared)


def _cpu(client=None) -> float:
    workers = sum(client.run(time.process_time).values()) if client is not None else 0.0
    return time.process_time() + workers


def _timed(fn, *args, cpu_client=None, **kwargs) -> tuple[float, float]:
    """(wall, cpu) seconds of ``fn(*args, **kwargs)``."""
    wall, cpu = time.perf_counter(), _cpu(cpu_client)
    fn(*args, **kwargs)
    return time.perf_counter() - wall, _cpu(cpu_client) - cpu


def _job(n):
    return Job.make("cribbage", "deals", "six-card", {"discard": "greedy", "peg": "greedy"}, n, seed=1)


def run_job(job):
    return run_chunks(job, 0, job.n_chunks)


def run(n_deals: int = N_DEALS) -> list[dict]:
    job = _job(n_deals)
    threads = numba.get_num_threads()
    run_job(_job(10))  # load the cache
    bare, local, dask = [], [], []
    with tempfile.TemporaryDirectory(prefix="sims-bench-runner-") as tmp:
        start = time.perf_counter()
        with dask_client(workers=2, threads=1) as client:
            run_batches(_job(10), client=client, progress=False)
            startup = time.perf_counter() - start
            for r in range(REPEATS):
                bare.append(_timed(run_job, job))
                local.append(_timed(run_batches, job, Path(tmp) / f"local{r}", progress=False))
                dask.append(
                    _timed(run_batches, job, Path(tmp) / f"dask{r}", client=client, progress=False, cpu_client=client)
                )
    wall, cpu = (min(t[i] for t in bare) for i in (0, 1))

    def row(what, times):
        best_wall, best_cpu = (min(t[i] for t in times) for i in (0, 1))
        return {
            "what": what,
            "deals": n_deals,
            "wall s": best_wall,
            "deals/s": n_deals / best_wall,
            "wall vs bare %": 100 * (best_wall / wall - 1),
            "cpu s": best_cpu,
            "cpu vs bare %": 100 * (best_cpu / cpu - 1),
        }

    return [
        row(f"bare kernel, {threads} numba threads", bare),
        row(f"runner, local, {threads} threads, run store on disk", local),
        row("runner, Dask LocalCluster 2 workers x 1 thread", dask),
        {"what": "Dask LocalCluster start + warm-up (not in the row above)", "wall s": startup},
    ]


if __name__ == "__main__":  # pragma: no cover
    from ...bench import format_table

    print(format_table(run(int(sys.argv[1]) if len(sys.argv) > 1 else N_DEALS)))
