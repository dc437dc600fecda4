"""The runner on a Dask LocalCluster gives exactly the local numbers (same seed, same stored tables)."""

from __future__ import annotations

import json

import numba
import pandas as pd
import pytest

from sims.core import store as st
from sims.core.chunks import run_chunks
from sims.core.jobs import Job
from sims.core.runner import load_run, run, summarize

pytestmark = pytest.mark.xdist_group("dask")  # one worker of the test run starts the clusters below, once


def bare(job):
    return summarize(job, run_chunks(job, 0, job.n_chunks))


@pytest.fixture
def client(dask_workers):
    """The cluster that ``run(..., workers=2, threads=1)`` and ``sims run --workers 2 --threads 1`` start
    (tests/conftest.py: the Dask cases of the conformance and odds-table tests use it too)."""
    return dask_workers


def test_local_cluster_listens_on_localhost_over_tls_with_one_numba_thread_per_worker(client):
    assert client.scheduler.address.startswith("tls://127.0.0.1:")
    workers = client.scheduler_info()["workers"]
    assert len(workers) == 2 and all(w["nthreads"] == 1 and w["host"] == "127.0.0.1" for w in workers.values())
    assert set(client.run(numba.get_num_threads).values()) == {1}


def test_local_cluster_refuses_a_client_without_its_credentials(client):
    """Another local user holds other credentials, or none: the scheduler does not let either in."""
    from distributed import Client
    from distributed.security import Security

    with pytest.raises((OSError, TimeoutError)):
        Client(client.scheduler.address, security=Security.temporary(), timeout="3s")
    with pytest.raises((OSError, TimeoutError)):
        Client(client.scheduler.address.replace("tls://", "tcp://"), timeout="3s")


def test_dask_deals_equal_local_deals_and_stored_tables(tmp_path, client):
    job = Job.make(
        "cribbage", "deals", "six-card", {"discard": "greedy", "peg": "greedy"}, 6 * 4096 + 5, seed=21, records=True
    )
    local = run(job, tmp_path / "local", batch_chunks=2, progress=False)
    remote = run(job, tmp_path / "dask", batch_chunks=2, client=client, progress=False)
    assert remote.summary == local.summary == bare(job).summary
    pd.testing.assert_frame_equal(remote.records, local.records)
    for table in ("totals", "histograms", "deals"):
        for index in range(4):
            name = f"{table}/batch-{index:05d}.parquet"
            a, b = pd.read_parquet(tmp_path / "local" / name), pd.read_parquet(tmp_path / "dask" / name)
            pd.testing.assert_frame_equal(a, b)


def test_dask_resumes_a_local_run_and_games_match(tmp_path, client):
    job = Job.make("cribbage", "games", "six-card", {"discard": "greedy", "peg": "random"}, 900, seed=4, records=True)

    def stop(index, batch):
        raise RuntimeError("crash")

    with pytest.raises(RuntimeError):
        run(job, tmp_path, batch_chunks=1, progress=False, on_batch=stop)
    resumed = run(job, tmp_path, client=client, progress=False)
    reference = bare(job)
    assert resumed.summary == reference.summary
    pd.testing.assert_frame_equal(load_run(tmp_path).games, reference.games)


def test_dask_without_output_directory_returns_the_batches(client):
    job = Job.make("cribbage", "deals", "three-hand", None, 3 * 4096, seed=2)
    assert run(job, client=client, batch_chunks=1, progress=False).summary == bare(job).summary


def test_default_batch_size_asks_the_workers(tmp_path, client):
    job = Job.make("cribbage", "deals", "six-card", None, 2 * 4096, seed=5)
    result = run(job, tmp_path, client=client, progress=False)
    assert result.summary == bare(job).summary
    assert st.read_json(tmp_path / st.MANIFEST, "manifest")["batch_chunks"] == 1  # two batches, one per worker


def test_a_scheduler_that_does_not_answer_fails_within_the_timeout_with_one_line(tmp_path, monkeypatch):
    """The wait is :data:`sims.core.executors.SCHEDULER_SECONDS` (10 s); here 1 s (the thread that connects is
    given 5 s more), the same path in a third of the time."""
    import socket
    import time

    from sims.core import executors

    assert executors.SCHEDULER_SECONDS == 10
    monkeypatch.setattr(executors, "SCHEDULER_SECONDS", 1)
    with socket.socket() as silent:  # listens, never speaks Dask
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        job = Job.make("cribbage", "deals", "six-card", None, 100, seed=5)
        start = time.perf_counter()
        with pytest.raises(ValueError, match=f"no Dask scheduler answered at {address} within 1 s") as info:
            run(job, scheduler=address, progress=False)
        assert time.perf_counter() - start < 30 and "\n" not in str(info.value)


def test_ctrl_c_with_dask_workers_stops_at_once_with_one_line_and_keeps_the_batches(tmp_path):
    """Issue 13 (8): Ctrl-C during a run on a local cluster neither hangs nor loses the finished batches."""
    import signal
    import subprocess
    import sys
    import time

    n = 400 * 4096
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sims",
            "run",
            "--deals",
            str(n),
            "--discard",
            "greedy",
            "--peg",
            "greedy",
            "--out",
            str(tmp_path),
            "--workers",
            "2",
            "--batch-chunks",
            "1",
            "--quiet",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 600  # a loaded machine starts a cluster slowly
    while len(list(tmp_path.glob("batches/batch-*.json"))) < 2 and time.time() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("sims run --workers 2 hung after Ctrl-C")
    assert proc.returncode == 130 and len(err.strip().splitlines()) == 1, err
    assert "run the same command again to resume" in err
    done = load_run(tmp_path, partial=True).summary["n"]  # deals in the kept batches, a chunk each
    assert done % 4096 == 0 and 2 * 4096 <= done < n


@pytest.fixture(scope="module")
def tls_scheduler(tmp_path_factory):
    """A scheduler and worker that require TLS with temporary credentials, and those credentials as PEM files."""
    from distributed import LocalCluster
    from distributed.security import Security

    credentials = Security.temporary()
    tmp_path = tmp_path_factory.mktemp("tls")
    files = {}
    for name, text in (
        ("ca", credentials.tls_ca_file),
        ("cert", credentials.tls_client_cert),
        ("key", credentials.tls_client_key),
    ):
        files[name] = tmp_path / f"{name}.pem"
        files[name].write_text(text)
    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tls://",
        host="127.0.0.1",
        security=credentials,
        dashboard_address="127.0.0.1:0",
    ) as cluster:
        yield cluster.scheduler_address, files


def test_a_tls_scheduler_is_reached_with_the_certificate_flags_and_gives_the_local_numbers(
    tls_scheduler, tmp_path, capsys
):
    from sims.cli import main
    from sims.core.executors import tls_security

    address, files = tls_scheduler
    assert address.startswith("tls://127.0.0.1:")
    security = tls_security(files["ca"], files["cert"], files["key"])
    assert security.require_encryption and security.tls_client_cert == str(files["cert"])
    flags = ["--deals", "3000", "--discard", "greedy", "--peg", "greedy", "--seed", "4", "--quiet", "--json"]
    tls = ["--tls-ca-file", str(files["ca"]), "--tls-cert", str(files["cert"]), "--tls-key", str(files["key"])]
    assert main(["run", *flags, "--scheduler", address, *tls, "--out", str(tmp_path / "tls")]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert main(["run", *flags, "--out", str(tmp_path / "local")]) == 0
    assert remote == json.loads(capsys.readouterr().out)
    assert main(["verify", str(tmp_path / "tls")]) == 0


def test_a_tls_scheduler_without_credentials_is_one_line(tls_scheduler, monkeypatch):
    from sims.core import executors

    address, _ = tls_scheduler
    monkeypatch.setattr(executors, "SCHEDULER_SECONDS", 3)
    with pytest.raises(ValueError, match=f"no Dask scheduler answered at {address}") as info:
        with executors.dask_client(scheduler=address):
            pass
    assert "\n" not in str(info.value)
