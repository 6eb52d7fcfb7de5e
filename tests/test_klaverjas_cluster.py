"""Analyses on a real dask.distributed cluster (a LocalCluster of two worker
processes) give the same results as a local run with the same seed."""

from __future__ import annotations

import pytest

from quartet_solver import klaverjas as kj

distributed = pytest.importorskip("distributed")


@pytest.fixture
def client(dask_client):
    """The session's LocalCluster of two worker processes (conftest.py)."""
    return dask_client


def test_bid_analysis_on_a_cluster_equals_the_local_run(client):
    hand = "Jh 9h Ah Th As Ks Ad 7c"
    submitted = []

    class Recording:            # the client, counting the chunks it is given
        def submit(self, fn, *args, **kwargs):
            future = client.submit(fn, *args, pure=False, **kwargs)
            submitted.append(future)
            return future

    remote = kj.analyse_bid(hand, seat="E", dealer="N", samples=200, seed=3, executor=Recording(), processes=2)
    local = kj.analyse_bid(hand, seat="E", dealer="N", samples=200, seed=3, processes=1)
    assert remote.stats == local.stats
    assert (remote.recommended, remote.runner_up, remote.margin, remote.margin_ci95) == \
           (local.recommended, local.runner_up, local.margin, local.margin_ci95)
    # the chunks ran as the cluster's tasks, on its worker processes
    assert len(submitted) > 1 and all(isinstance(f, distributed.Future) for f in submitted)
    assert all(f.status == "finished" for f in submitted)
    workers = {w for f in submitted for w in client.who_has([f]).get(f.key, ())}
    assert workers and workers <= set(client.scheduler_info()["workers"])
