"""One Dask cluster for the tests that run on Dask workers (tests/core/test_dask.py, the Dask case of
tests/core/test_conformance.py and of tests/cribbage/odds/test_tables.py, all in the xdist group ``dask``): two
worker processes cost seconds of CPU to start and to load the games' kernels, once.

The cluster stops as soon as the run leaves the group's tests, not when the session ends: idle, its two worker
processes, their nannies and the scheduler still take about 4.6 s of CPU every 30 s (heartbeats and memory
monitors), which the other tests of a two-core run would pay for minutes.  A later test that asks for it (a run
without xdist, in collection order) starts it again."""

from __future__ import annotations

import contextlib

import pytest

GROUP = "dask"
_cluster = contextlib.ExitStack()
_client = []


@pytest.fixture
def dask_workers():
    """A client of the cluster that ``run(..., workers=2, threads=1)`` and ``sims run --workers 2 --threads 1``
    start: two single-threaded worker processes on localhost over TLS."""
    pytest.importorskip("distributed")
    if not _client:
        from sims.core.executors import dask_client

        _client.append(_cluster.enter_context(dask_client(workers=2, threads=1)))
    return _client[0]


def _in_group(item) -> bool:
    marker = item.get_closest_marker("xdist_group")
    return marker is not None and GROUP in (*marker.args[:1], marker.kwargs.get("name"))


def pytest_runtest_teardown(item, nextitem):
    """Stop the cluster after the last test of the group (the next test is outside it, or there is none)."""
    if _client and (nextitem is None or not _in_group(nextitem)):
        _client.clear()
        _cluster.close()
