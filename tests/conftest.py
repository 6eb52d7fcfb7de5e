"""Shared test configuration: hypothesis profiles; a real dask.distributed
cluster (a LocalCluster of two worker processes) for the tests that run work
on one."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="module")
def dask_client():
    """A client of a LocalCluster of two worker processes (one thread each),
    shared by the tests of a module (skipped without dask.distributed).

    The scheduler runs in a thread of the test process and draws from the
    global ``random`` module; closing it with the module keeps it from
    running beside the later modules' hypothesis tests, which check that
    nothing else touches that state while they draw examples."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address="127.0.0.1:0", host="127.0.0.1")
    with cluster, distributed.Client(cluster) as c:
        yield c
