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


@pytest.fixture(scope="session")
def dask_client():
    """A client of a LocalCluster of two worker processes (one thread each),
    shared by the tests of a session (skipped without dask.distributed)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address="127.0.0.1:0", host="127.0.0.1")
    with cluster, distributed.Client(cluster) as c:
        yield c
