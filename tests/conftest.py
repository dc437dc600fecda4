"""One Dask cluster for the tests that run on Dask workers (tests/core/test_dask.py, the Dask case of
tests/core/test_conformance.py and of tests/cribbage/odds/test_tables.py, all in the xdist group ``dask``): two
worker processes cost seconds of CPU to start and to load the games' kernels, once."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def dask_workers():
    """A client of the cluster that ``run(..., workers=2, threads=1)`` and ``sims run --workers 2 --threads 1``
    start: two single-threaded worker processes on localhost over TLS."""
    pytest.importorskip("distributed")
    from sims.core.executors import dask_client

    with dask_client(workers=2, threads=1) as c:
        yield c
