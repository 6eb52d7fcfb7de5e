"""Benchmark of ``klaverjas.dd_tables``: deals per second in one process, on two
local processes and on a dask.distributed LocalCluster of two worker processes,
against a plain loop of the solver in one process; the scheduler's per-task
overhead, measured; and from these the wall time of a 100,000-deal bidding
study here and on a cluster of N machines.

    python benchmarks/klaverjas_batch.py                 # 120 deals a run
    python benchmarks/klaverjas_batch.py --deals 400 --cores 8

Every run solves the same random deals (``dd_tables(n, seed=...)``) and the
results are checked equal.  The plain loop is ``solve_deal`` for each deal x
trump x team (8 solves a deal) over deals made beforehand: what
``dd_tables(processes=1)`` costs beyond it is the batch machinery (making the
deals in the worker, chunks, the result array).

The estimate: with ``c`` the measured CPU seconds a deal (the plain loop), a
study of ``D`` deals on ``N`` machines of ``k`` cores takes about
``max(D * c / (N * k), tasks * s) + start`` where ``tasks`` is the number of
chunks ``dd_tables`` cuts the deals into for ``N * k`` workers (32 deals a chunk
at most, fewer when there are many workers), and
``s`` the scheduler's measured seconds per task (it handles tasks one at a
time), and ``start`` the cluster's start-up; the deals' features in the parent
add ``D * f`` (``f`` measured).  Machines like this one are assumed (``--cores``
to change ``k``); on a busy machine every number is slower than on an idle one.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from quartet_solver.klaverjas import Rules, dd_tables, solve_deal
from quartet_solver.chunks import chunk_size
from quartet_solver.klaverjas.batch import _MAX_CHUNK, _random_masks, random_deals


def _noop(x: int) -> int:
    return x


def plain_loop(deals: list) -> np.ndarray:
    out = np.zeros((len(deals), 4, 2), dtype=np.int32)
    for i, deal in enumerate(deals):
        for t, trump in enumerate("cdhs"):
            for team in (0, 1):
                out[i, t, team] = solve_deal(deal, trump, declarer=team, leader="E", rules=Rules.AMSTERDAM)
    return out


def timed(fn):
    t0 = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t0


def best_of(repeat: int, fn):
    """The value and the fastest (wall, this process's CPU) seconds of ``repeat`` runs."""
    best = None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        value = fn()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        best = (wall, cpu) if best is None or wall < best[0] else best
    assert best is not None
    return value, best[0], best[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=120, help="deals a run (default 120)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=2, help="runs of each, the fastest kept (default 2)")
    ap.add_argument("--tasks", type=int, default=400, help="no-op tasks to time the scheduler (default 400)")
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 1,
                    help="cores of each machine of the estimated cluster (default: this machine's)")
    ap.add_argument("--study", type=int, default=100_000, help="deals of the estimated study (default 100,000)")
    args = ap.parse_args()
    n = args.deals
    print(f"dd_tables benchmark: {n} random deals (seed {args.seed}), 8 solves a deal, leader E; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")

    deals = list(random_deals(n, args.seed))
    ref, t_plain, cpu_plain = best_of(args.repeat, lambda: plain_loop(deals))
    c = cpu_plain / n
    print(f"  {'plain loop, 1 process':<34}{n / t_plain:7.1f} deals/s   ({c * 1000:.1f} ms CPU a deal)")
    rows = []
    for procs in (1, 2):
        nets, t, cpu = best_of(args.repeat, lambda: dd_tables(n, leader="E", seed=args.seed, processes=procs))
        assert (nets == ref).all()
        if procs == 1:
            cpu_p1 = cpu
        rows.append((f"dd_tables, {procs} process{'es' if procs > 1 else ''}", t))
    t_p2 = rows[-1][1]

    import distributed

    (cluster, client), t_start = timed(lambda: (lambda cl: (cl, distributed.Client(cl)))(
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                                 host="127.0.0.1")))
    with cluster, client:
        client.submit(_noop, 0).result()                 # workers warm: the code imported
        nets, t, _ = best_of(args.repeat, lambda: dd_tables(n, leader="E", seed=args.seed, client=client))
        assert (nets == ref).all()
        rows.append(("dd_tables, LocalCluster 2 workers", t))
        for label, t in rows:
            print(f"  {label:<34}{n / t:7.1f} deals/s   (x{t_plain / t:.2f} the plain loop's rate)")
        print(f"  overhead of dd_tables in one process: x{cpu_p1 / cpu_plain:.3f} the plain loop's CPU time "
              f"(x{rows[0][1] / t_plain:.3f} its wall time)")
        # the scheduler: many no-op tasks at once (its throughput), and one at a time (a round trip)
        _, t_many = timed(lambda: client.gather(client.map(_noop, range(args.tasks), pure=False)))
        s = t_many / args.tasks

        def one_at_a_time() -> None:
            for i in range(50):
                client.submit(_noop, i, pure=False).result()

        _, t_round = timed(one_at_a_time)
        print(f"  LocalCluster start-up {t_start:.1f} s; scheduler: {s * 1000:.2f} ms a task "
              f"({args.tasks} no-op tasks at once), {t_round / 50 * 1000:.2f} ms a round trip")

    masks_rate = timed(lambda: [_random_masks(args.seed, i) for i in range(20_000)])[1] / 20_000
    d = args.study
    print(f"\nestimated wall time of a {d:,}-deal bidding study ({c * 1000:.1f} ms CPU a deal here, "
          f"{masks_rate * 1e6:.0f} us a deal for the features in the parent):")
    print(f"  here, 2 local processes, at the rate measured now  {d * t_p2 / n / 60:7.1f} min")
    for machines in (1, 4, 16, 64):
        workers = machines * args.cores
        chunk = chunk_size(d, workers, _MAX_CHUNK)
        tasks = -(-d // chunk)
        wall = max(d * c / workers, tasks * s) + d * masks_rate + t_start
        bound = "scheduler-bound" if tasks * s > d * c / workers else ""
        print(f"  {machines:>3} idle machine{'s' if machines > 1 else ' '} x {args.cores} cores "
              f"({workers:>4} workers, {tasks:,} chunks of {chunk})  {wall / 60:7.1f} min  {bound}")
    print(f"  (the scheduler caps a cluster at {1 / s:,.0f} tasks/s = {_MAX_CHUNK / s:,.0f} deals/s "
          f"with chunks of {_MAX_CHUNK}: {_MAX_CHUNK / s * c:,.0f} workers' worth)")


if __name__ == "__main__":
    main()
