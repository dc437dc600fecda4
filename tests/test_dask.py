"""The runner on a Dask LocalCluster gives exactly the local numbers (same seed, same shards)."""
from __future__ import annotations

import numba
import pandas as pd
import pytest

from sims import io
from sims.cribbage.engine import Job, run_job
from sims.cribbage.results import summarize
from sims.runner import dask_client, load_run, run

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    """The cluster that ``run(..., workers=2, threads=1)`` and ``sims run --workers 2 --threads 1`` start."""
    with dask_client(workers=2, threads=1) as c:
        yield c


def test_local_cluster_listens_on_localhost_with_one_numba_thread_per_worker(client):
    assert client.scheduler.address.startswith("tcp://127.0.0.1:")
    workers = client.scheduler_info()["workers"]
    assert len(workers) == 2 and all(w["nthreads"] == 1 and w["host"] == "127.0.0.1" for w in workers.values())
    assert set(client.run(numba.get_num_threads).values()) == {1}


def test_dask_deals_equal_local_deals_and_shards(tmp_path, client):
    job = Job.make("deals", "six-card", {"discard": "greedy", "peg": "greedy"}, 6 * 4096 + 5, seed=21,
                   records=True)
    local = run(job, tmp_path / "local", batch_chunks=2, progress=False)
    remote = run(job, tmp_path / "dask", batch_chunks=2, client=client, progress=False)
    assert remote.summary == local.summary == summarize(job, run_job(job)).summary
    pd.testing.assert_frame_equal(remote.records, local.records)
    for index in range(4):
        for local_shard, dask_shard in zip(io.shard_paths(tmp_path / "local", index),
                                           io.shard_paths(tmp_path / "dask", index)):
            assert pd.read_parquet(local_shard).equals(pd.read_parquet(dask_shard))


def test_dask_resumes_a_local_run_and_games_match(tmp_path, client):
    job = Job.make("games", "six-card", {"discard": "greedy", "peg": "random"}, 900, seed=4)

    def stop(index, batch):
        raise RuntimeError("crash")
    with pytest.raises(RuntimeError):
        run(job, tmp_path, batch_chunks=1, progress=False, on_batch=stop)
    resumed = run(job, tmp_path, client=client, progress=False)
    reference = summarize(job, run_job(job))
    assert resumed.summary == reference.summary
    pd.testing.assert_frame_equal(load_run(tmp_path).games, reference.games)


def test_dask_without_output_directory_returns_the_batches(client):
    job = Job.make("deals", "three-hand", None, 3 * 4096, seed=2)
    assert run(job, client=client, batch_chunks=1, progress=False).summary == summarize(job, run_job(job)).summary


def test_default_batch_size_asks_the_workers(tmp_path, client):
    job = Job.make("deals", "six-card", None, 2 * 4096, seed=5)
    result = run(job, tmp_path, client=client, progress=False)
    assert result.summary == summarize(job, run_job(job)).summary
    assert io.read_json(tmp_path / io.MANIFEST, "manifest")["batch_chunks"] == 1   # two batches, one per worker
