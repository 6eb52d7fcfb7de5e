"""Running chunks of work anywhere: in this process, on a process pool of the
library's own, or on any executor a caller gives (``concurrent.futures``, a
dask.distributed ``Client``).

The library's long analyses (bid analysis, batches of DD tables, batches of
Quintet solves) cut their work into chunks and hand them to :func:`map_chunks`:

- at most :data:`IN_FLIGHT` chunks a worker are submitted and not yet taken
  back, and each chunk is taken from its generator only when it is submitted,
  so a million-item run never holds more than a few chunks in memory;
- an exception, a Ctrl-C too, submits nothing more, cancels the chunks not
  started and propagates; the own pool's processes ignore SIGINT (a Ctrl-C on
  a terminal reaches the whole process group, and the parent decides) and are
  terminated in the middle of their chunks; a given executor is not shut down.

>>> out = []
>>> map_chunks(sum, iter([[1, 2], [3]]), (), out.append, client=None, workers=1)
>>> out
[3, 3]
"""

from __future__ import annotations

import itertools
import math
import os
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

import numpy as np

from .checks import as_int, check_client, check_processes, check_progress
from .errors import SolverError

__all__ = ["IN_FLIGHT", "usable_cpus", "worker_count", "chunk_size", "map_chunks", "check_processes",
           "check_client", "check_progress", "Slots"]

IN_FLIGHT = 4
"""Chunks submitted and not yet taken back, per worker."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system
    has one, as in a container or under ``taskset``; else all of them): the
    default number of worker processes.

    >>> 1 <= usable_cpus() <= (os.cpu_count() or 1)
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):    # no affinity on this system
        return os.cpu_count() or 1


def worker_count(client: Any, processes: int | None, total: int, parallel_from: int) -> int:
    """How many workers the chunks are planned for: ``processes`` if given;
    for a client its ``_max_workers`` (``concurrent.futures``) or the sum of
    its workers' threads (dask), else the usable CPUs; without a client the
    usable CPUs from ``parallel_from`` units of work on, else 1 (in-process).

    >>> worker_count(None, 3, 10, 100), worker_count(None, None, 10, 100)
    (3, 1)
    """
    if processes is not None:
        return processes
    if client is not None:
        hint = as_int(getattr(client, "_max_workers", None))
        nthreads = getattr(client, "nthreads", None)
        if hint is None and callable(nthreads):
            try:
                hint = sum(int(v) for v in dict(nthreads()).values())
            except Exception:   # not a dask client after all: the CPUs below
                hint = None
        return hint if hint is not None and hint > 0 else usable_cpus()
    return usable_cpus() if total >= parallel_from else 1


def chunk_size(total: int, workers: int, largest: int) -> int:
    """32 chunks a worker (the workers that finish first then wait little for
    the last chunk), at most ``largest`` units a chunk (so that a chunk is soon
    done and takes little memory).

    >>> chunk_size(10_000, 2, 32), chunk_size(100, 2, 32), chunk_size(0, 2, 32)
    (32, 2, 1)
    """
    return min(largest, max(1, math.ceil(total / (32 * workers))))


class Slots:
    """Which of ``total`` results have come back: each chunk's once, none
    lost (a chunk run again after a worker died still comes back once, as
    its future's result).

    >>> s = Slots(3)
    >>> s.take(0, 2); s.take(2, 1); s.check()
    >>> s.take(1, 1)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.SolverError: the results of items 1..1 came back twice
    """

    def __init__(self, total: int) -> None:
        self.filled = np.zeros(total, dtype=bool)
        self.count = 0

    def take(self, start: int, count: int) -> None:
        """Mark items ``start .. start + count - 1`` as come back."""
        if self.filled[start : start + count].any():
            raise SolverError(f"the results of items {start}..{start + count - 1} came back twice")
        self.filled[start : start + count] = True
        self.count += count

    def check(self) -> None:
        """Every item has come back."""
        if not self.filled.all():
            missing = int(np.flatnonzero(~self.filled)[0])
            raise SolverError(f"the result of item {missing} never came back")


def _ignore_sigint() -> None:
    """The initializer of the own pool's worker processes: the parent alone
    decides what a Ctrl-C does (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop the own pool at once: cancel the chunks not started and end the
    worker processes in the middle of theirs (a shutdown would wait for them)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.terminate()
    for p in processes:
        p.join(timeout=2)


def _run_chunks(executor: Any, fn: Callable[..., Any], parts: Iterable[Any], args: tuple[Any, ...],
                limit: int, done: Callable[[Any], None]) -> None:
    """``fn(part, *args)`` for the chunks ``parts`` on ``executor`` (anything
    with ``submit(fn, *args)`` returning a future with ``result()``), at most
    ``limit`` submitted and not yet taken back; ``done(result)`` as each
    finishes.  On any exception nothing more is submitted and the chunks not
    started are cancelled (where the futures have ``cancel()``)."""
    pending = iter(parts)
    in_flight: list[Any] = []       # oldest first
    try:
        while True:
            for part in itertools.islice(pending, limit - len(in_flight)):
                in_flight.append(executor.submit(fn, part, *args))
            if not in_flight:
                return
            if all(isinstance(f, Future) for f in in_flight):
                finished = wait(in_flight, return_when=FIRST_COMPLETED).done
                ready = [f for f in in_flight if f in finished]
            else:                   # futures of another kind: the oldest first
                ready = in_flight[:1]
            for f in ready:
                in_flight.remove(f)
                done(f.result())
    except BaseException:
        for f in in_flight:
            cancel = getattr(f, "cancel", None)
            if cancel is not None:
                cancel()
        raise


def map_chunks(fn: Callable[..., Any], parts: Iterable[Any], args: tuple[Any, ...],
               done: Callable[[Any], None], client: Any, workers: int) -> None:
    """``done(fn(part, *args))`` in this process for every part (in the order
    they finish), the parts solved on ``client`` (anything with ``submit``),
    else on a process pool of ``workers`` processes of its own, else (one
    worker) in this process.  See the module docstring for the limits and
    interrupts."""
    own_pool = None
    executor = client
    if executor is None and workers > 1:
        own_pool = executor = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    try:
        if executor is None:
            for part in parts:
                done(fn(part, *args))
        else:
            _run_chunks(executor, fn, parts, args, IN_FLIGHT * workers, done)
    except BaseException:
        if own_pool is not None:
            _stop_pool(own_pool)
        raise
    if own_pool is not None:
        own_pool.shutdown()
