"""Equilibria of many Quintet deals at once: on a process pool of its own, on
any ``concurrent.futures`` executor or on a dask.distributed cluster.

:func:`solve_many` solves each deal as :func:`~quartet_solver.quintet.solve`
does and keeps, per deal, the numbers a study needs (as numpy arrays in a
:class:`SolveManyResult`): the value, the equilibrium's support size, the
guarantee of the best pure arrangement, the exploitability and the time.

>>> from quartet_solver import quintet
>>> res = solve_many(2, seed=1, processes=1)
>>> len(res), res.value.tolist()
(2, [12.5, 12.5])
>>> deal = res.deals()[1]
>>> sol = quintet.solve(deal)
>>> int(res.support_size[1]) == sol.support_size and float(res.pure_value[1]) == sol.pure_value
True
"""

from __future__ import annotations

import importlib
import random as _random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..checks import as_int, check_seed
from ..chunks import Slots, check_client, check_processes, check_progress, chunk_size, map_chunks, worker_count
from ..deprecation import keyword_options
from ..errors import ArgumentError, InvalidStateError
from ..klaverjas.batch import MAX_DEALS, _deal_seed
from .deal import Deal, check_points
from .hands import Kickers
from .solver import _check_kickers, solve

__all__ = ["SolveManyResult", "solve_many", "random_deals"]

_MAX_CHUNK = 4          # deals in a chunk at most: a second or two of solving

Progress = Callable[[int, int], None]


def random_deals(n: int, seed: int | str) -> Iterator[Deal]:
    """The ``n`` random (standard, 25-card) deals that ``solve_many(n,
    seed=seed)`` solves, made one at a time: deal ``i`` is
    ``Deal.random(f"{seed!r}#{i}")``.

    >>> next(random_deals(1, seed=4)) == Deal.random("4#0")
    True
    """
    count, key = as_int(n), check_seed(seed)
    if count is None or not 0 <= count <= MAX_DEALS or key is None:
        raise ArgumentError(f"random_deals needs a count 0..{MAX_DEALS:,} and a seed, got {n!r}, {seed!r}")
    for i in range(count):
        yield Deal.random(_deal_seed(key, i))


@dataclass(frozen=True, eq=False)
class SolveManyResult:
    """What :func:`solve_many` keeps of each deal's solution, as arrays in
    the deals' order: ``masks`` (the deals, :attr:`Deal.mask
    <quartet_solver.quintet.Deal>`), ``value`` (half the points at an
    equilibrium), ``support_size`` (arrangements played with positive
    probability), ``pure_value`` (what the best pure arrangement guarantees
    against every reply: :attr:`Solution.pure_value
    <quartet_solver.quintet.Solution>`), ``exploitability`` and ``seconds``
    (each deal's solve, wall time in its worker); ``seed`` made the random
    deals (None for given ones)."""

    masks: np.ndarray
    value: np.ndarray
    support_size: np.ndarray
    pure_value: np.ndarray
    exploitability: np.ndarray
    seconds: np.ndarray
    seed: int | str | None = None

    def __len__(self) -> int:
        return len(self.masks)

    @property
    def pure_loss(self) -> np.ndarray:
        """What the best pure arrangement gives up against the equilibrium value."""
        return cast(np.ndarray, self.value - self.pure_value)

    def deals(self) -> list[Deal]:
        """The deals, as :class:`Deal` objects."""
        return [Deal(int(m)) for m in self.masks]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form: one list per field, the deals as text.

        >>> sorted(solve_many(1, seed=2, processes=1).to_dict())
        ['deals', 'exploitability', 'pure_value', 'seconds', 'seed', 'support_size', 'value']
        """
        return {"deals": [str(d) for d in self.deals()], "value": self.value.tolist(),
                "support_size": self.support_size.tolist(), "pure_value": self.pure_value.tolist(),
                "exploitability": self.exploitability.tolist(), "seconds": self.seconds.tolist(),
                "seed": self.seed}

    def pretty(self) -> str:
        """A summary over the deals, as text.

        >>> print(solve_many(2, seed=2, processes=1).pretty().splitlines()[0])
        2 deals solved
        """
        if not len(self):
            return "0 deals solved"
        return "\n".join([
            f"{len(self)} deals solved",
            f"value: mean {self.value.mean():.4f} (min {self.value.min():.4f}, max {self.value.max():.4f})",
            f"support size: mean {self.support_size.mean():.2f}, max {int(self.support_size.max())}",
            f"best pure arrangement gives up: mean {self.pure_loss.mean():.4f}, max {self.pure_loss.max():.4f}",
            f"exploitability: max {self.exploitability.max():.2e}",
            f"time per deal: mean {self.seconds.mean() * 1000:.1f} ms",
        ])

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per deal (needs pandas, which the
        library does not depend on: an ``ImportError`` says so)."""
        try:    # imported by name: the library has no pandas stubs to type-check against
            pd = importlib.import_module("pandas")
        except ImportError:
            raise ImportError("SolveManyResult.to_dataframe needs pandas (pip install pandas); "
                              "to_dict() gives the same columns as lists") from None
        return pd.DataFrame({"deal": [str(d) for d in self.deals()], "value": self.value,
                             "support_size": self.support_size, "pure_value": self.pure_value,
                             "exploitability": self.exploitability, "seconds": self.seconds})


# a chunk: (first deal's number, count, the seed of random deals or None, given masks or None)
_Part = tuple[int, int, "int | str | None", "list[int] | None"]


def _solve_chunk(part: _Part, points: Sequence[float] | None, kickers: Kickers) -> tuple[int, list[tuple[float, ...]]]:
    """``(start, rows)``: per deal (mask, value, support size, pure value,
    exploitability, seconds)."""
    start, count, seed, masks = part
    rows: list[tuple[float, ...]] = []
    for j in range(count):
        deal = Deal(masks[j]) if masks is not None else Deal.random(_deal_seed(cast("int | str", seed), start + j))
        t0 = time.perf_counter()
        sol = solve(deal, points=points, kickers=kickers)
        rows.append((deal.mask, sol.value, sol.support_size, sol.pure_value, sol.exploitability,
                     time.perf_counter() - t0))
    return start, rows


def _parts(total: int, seed: int | str | None, given: Sequence[Any] | None, size: int) -> Iterator[_Part]:
    for start in range(0, total, size):
        count = min(size, total - start)
        if given is None:
            yield start, count, seed, None
            continue
        masks = []
        for i in range(start, start + count):
            deal = given[i]
            if not isinstance(deal, (Deal, str)):
                raise InvalidStateError(f"deal {i} must be a quintet Deal or its cards as text, got {deal!r}")
            deal = Deal.of(deal)
            masks.append(deal.mask)
        yield start, count, None, masks


@keyword_options
def solve_many(
    deals: Sequence[Deal | str] | int,
    *, client: Any = None,
    processes: int | None = None,
    seed: int | str | None = None,
    progress: Progress | None = None,
    points: Sequence[float] | None = None,
    kickers: Kickers = "seed",
) -> SolveManyResult:
    """Solve many deals (:func:`~quartet_solver.quintet.solve` each, with
    ``points`` and ``kickers``) and keep the numbers of each solution
    (:class:`SolveManyResult`).

    ``deals`` is a sequence of :class:`Deal` (or their cards as text), or a
    number ``n`` of random standard deals made from ``seed`` (an int or a
    string; ``None`` draws a fresh one, which the result reports): deal ``i``
    is the ``i``-th of :func:`random_deals`, made in the worker that solves
    it.  The work is run as :func:`~quartet_solver.klaverjas.dd_tables` runs
    its own: on ``client`` (a dask.distributed ``Client`` or any executor
    with ``submit``) or on ``processes`` worker processes of its own (default:
    the usable CPUs from 4 deals on, else in-process), in chunks of at most
    four deals, Ctrl-C safe; ``progress(done, total)`` as chunks come back.
    Bad arguments raise :class:`~quartet_solver.errors.ArgumentError`.

    >>> solve_many(-1)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: the number of deals must be 0..10,000,000, got -1
    """
    n = as_int(deals)
    given: Sequence[Any] | None = None
    if n is not None:
        if not 0 <= n <= MAX_DEALS:
            raise ArgumentError(f"the number of deals must be 0..{MAX_DEALS:,}, got {deals!r}")
        key = check_seed(seed)
        if key is None:
            key = _random.SystemRandom().randrange(1 << 63)
        total = n
        if points is not None:
            points = check_points(points, 5)   # a tuple: a generator is read once, here
    else:
        if isinstance(deals, (str, bytes, bytearray)) or not isinstance(deals, Sequence):
            raise ArgumentError(f"deals must be a sequence of deals or a number of random deals, got {deals!r}")
        if seed is not None:
            raise ArgumentError("seed= makes random deals: give it with a number of deals, not with the deals")
        if len(deals) > MAX_DEALS:
            raise ArgumentError(f"at most {MAX_DEALS:,} deals, got {len(deals):,}")
        key, given, total = None, deals, len(deals)
    kickers = _check_kickers(kickers)
    workers = worker_count(check_client(client), check_processes(processes), total, parallel_from=4)
    check_progress(progress)
    rows: list[tuple[float, ...]] = [()] * total
    slots = Slots(total)

    def done(result: tuple[int, list[tuple[float, ...]]]) -> None:
        start, chunk = result
        slots.take(start, len(chunk))
        rows[start : start + len(chunk)] = chunk
        if progress is not None:
            progress(slots.count, total)

    parts = _parts(total, key, given, chunk_size(total, workers, _MAX_CHUNK))
    map_chunks(_solve_chunk, parts, (None if points is None else tuple(points), kickers), done, client, workers)
    slots.check()
    table = np.array(rows, dtype=np.float64).reshape(total, 6)
    return SolveManyResult(
        masks=table[:, 0].astype(np.uint32), value=table[:, 1], support_size=table[:, 2].astype(np.int64),
        pure_value=table[:, 3], exploitability=table[:, 4], seconds=table[:, 5], seed=key)
