"""A study over random Quintet deals: how mixed the equilibrium is, and what
common habits of arranging the hands lose against a best response.

For each deal :func:`quintet_study` solves the equilibrium (its support
size) and plays each habit against the opponent's best response to it (the
opponent knows the habit, not the cards' order where the habit shuffles):
the loss is the equilibrium value (half the points) minus what the habit
still gets.  The habits (:data:`HABITS`):

* ``greedy, strongest at 7 and 6``: the strongest hand the cards make, then
  the strongest of the rest, and so on, the strongest in the 7-point place,
  the next in the 6-point place, ... (a common way to play);
* ``greedy split, shuffled``: the same hands in a uniformly random order;
* ``best split, strongest at 7 and 6``: the split of the best pure
  arrangement, sorted the same way;
* ``best split, shuffled``: the split of the best pure arrangement in a
  uniformly random order;
* ``top equilibrium arrangement``: always the arrangement the equilibrium
  plays most;
* ``max-min pure arrangement``: the best pure arrangement (exact max-min),
  which loses the least a pure arrangement can.

>>> study = quintet_study(2, seed=1, processes=1)
>>> study.deals, len(study.losses), study.support_size.shape
(2, 6, (2,))
>>> bool((study.losses >= -1e-9).all())
True
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..checks import as_int, check_seed
from ..chunks import Slots, check_client, check_processes, check_progress, chunk_size, map_chunks, worker_count
from ..errors import ArgumentError
from ..figures import pyplot, save_figure
from ..klaverjas.batch import MAX_DEALS, _deal_seed
from .arrangement import Arrangement
from .deal import Deal
from .hands import hands_of
from .solver import best_response, solve

__all__ = ["HABITS", "QuintetStudy", "quintet_study", "greedy_split"]

HABITS = (
    "greedy, strongest at 7 and 6",
    "greedy split, shuffled",
    "best split, strongest at 7 and 6",
    "best split, shuffled",
    "top equilibrium arrangement",
    "max-min pure arrangement",
)
"""The habits of :func:`quintet_study`, in the order of its ``losses`` rows."""
Z95 = 1.959963984540054


def greedy_split(deal: Deal | str) -> Arrangement:
    """The greedy split: the strongest 5-card hand of the deal, then the
    strongest of the cards left, and so on; the strongest hand in the last
    (7-point) place, the weakest in the first.

    >>> deal = Deal.parse("Ah Kh Qh Jh Th 9c 9d 9h 9s 8c")
    >>> str(greedy_split(deal))
    '9s 9h 9d 9c 8c / Ah Kh Qh Jh Th'
    """
    left, groups = Deal.of(deal).mask, []
    while left:
        masks, strengths = hands_of(left)
        best = int(masks[int(np.argmax(strengths))])
        groups.append(best)
        left &= ~best
    return Arrangement(tuple(reversed(groups)))


def _sorted(arrangement: Arrangement) -> Arrangement:
    """The same hands, weakest in the first place, strongest in the last."""
    order = np.argsort(arrangement.strengths(), kind="stable")
    return arrangement.reordered([int(i) for i in order])


def _shuffled(arrangement: Arrangement) -> list[tuple[Arrangement, float]]:
    """All orders of the hands, equally likely."""
    orders = list(itertools.permutations(range(arrangement.k)))
    return [(arrangement.reordered(o), 1.0 / len(orders)) for o in orders]


def _deal_row(deal: Deal) -> tuple[float, ...]:
    """Support size, value, then the loss of each habit, for one deal."""
    sol = solve(deal)
    total = float(sum(sol.points))
    greedy = greedy_split(deal)
    habits: list[Any] = [_sorted(greedy), _shuffled(greedy), _sorted(sol.pure), _shuffled(sol.pure),
                         sol.strategy[0][0]]
    losses = [sol.value - (total - best_response(deal, h)[1]) for h in habits]
    losses.append(sol.pure_loss)
    return (float(sol.support_size), sol.value, *losses)


def _study_chunk(part: tuple[int, int, int | str]) -> tuple[int, list[tuple[float, ...]]]:
    start, count, seed = part
    return start, [_deal_row(Deal.random(_deal_seed(seed, i))) for i in range(start, start + count)]


@dataclass(frozen=True, eq=False)
class QuintetStudy:
    """The outcome of :func:`quintet_study`: per deal the equilibrium's
    ``support_size`` and ``value``, and ``losses[habit, deal]`` (rows in the
    order of :data:`HABITS`): the equilibrium value minus what the habit
    gets against a best response."""

    deals: int
    seed: int | str
    support_size: np.ndarray
    value: np.ndarray
    losses: np.ndarray
    seconds: float

    def habit_stats(self) -> list[dict[str, float | str]]:
        """Per habit: the mean loss with its 95% half-width (normal
        approximation), the median and largest loss, P(loss > 0)."""
        out: list[dict[str, float | str]] = []
        for name, row in zip(HABITS, self.losses):
            n = len(row)
            sd = float(row.std(ddof=1)) if n > 1 else 0.0
            out.append({"habit": name, "mean_loss": float(row.mean()), "ci95": Z95 * sd / math.sqrt(n),
                        "median_loss": float(np.median(row)), "max_loss": float(row.max()),
                        "p_loses": float((row > 1e-9).mean())})
        return out

    def support_counts(self) -> dict[int, int]:
        """How many deals have each support size."""
        sizes, counts = np.unique(self.support_size, return_counts=True)
        return {int(s): int(c) for s, c in zip(sizes, counts)}

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        s = self.support_size
        return {"study": "quintet", "deals": self.deals, "seed": self.seed,
                "support_size": {"mean": float(s.mean()), "median": float(np.median(s)), "min": int(s.min()),
                                 "max": int(s.max()), "counts": {str(k): v for k, v in self.support_counts().items()}},
                "habits": self.habit_stats(), "seconds": self.seconds}

    def pretty(self) -> str:
        """Text: the support sizes and the habits' losses."""
        s = self.support_size
        total = float(self.value[0] * 2) if len(self.value) else 0.0
        lines = [f"Quintet study: {self.deals:,} random deals (seed {self.seed}); the value is half the "
                 f"{total:g} points, {total / 2:g}.",
                 f"equilibrium support size: mean {s.mean():.1f}, median {np.median(s):g}, "
                 f"min {s.min()}, max {s.max()}; pure (1): {int((s == 1).sum())} deals",
                 "",
                 "what each habit loses against a best response (points per deal, of the value):",
                 f"  {'habit':<36}{'mean ±95%':>16}{'median':>9}{'max':>8}{'P(loses)':>10}"]
        for h in self.habit_stats():
            lines.append(f"  {h['habit']:<36}{h['mean_loss']:>9.3f} ±{h['ci95']:5.3f}{h['median_loss']:>9.2f}"
                         f"{h['max_loss']:>8.2f}{h['p_loses']:>10.2f}")
        lines.append(f"({self.seconds:.1f} s)")
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """The support sizes (a histogram) and each habit's mean loss with its
        95% interval (bars), into an image file (needs matplotlib)."""
        plt = pyplot()
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [1, 1.4]})
        left.hist(self.support_size, bins=np.arange(0, int(self.support_size.max()) + 6, 5), color="tab:blue",
                  edgecolor="white")
        left.set_xlabel("equilibrium support size (arrangements)")
        left.set_ylabel("deals")
        stats = self.habit_stats()
        y = np.arange(len(stats))
        right.barh(y, [cast(float, h["mean_loss"]) for h in stats], xerr=[cast(float, h["ci95"]) for h in stats],
                   capsize=3, color="tab:red")
        right.set_yticks(y, [cast(str, h["habit"]) for h in stats])
        right.invert_yaxis()
        right.set_xlabel("mean points lost against a best response")
        fig.suptitle(f"Quintet: {self.deals:,} random deals, 95% intervals")
        fig.tight_layout()
        save_figure(fig, path, dpi=110)


def quintet_study(
    deals: int,
    seed: int | str | None = None,
    client: Any = None,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> QuintetStudy:
    """Solve ``deals`` random standard deals (deal ``i`` is the ``i``-th of
    :func:`~.batch.random_deals` for ``seed``; ``None`` draws a fresh seed)
    and measure the habits (module docstring) on each (:class:`QuintetStudy`).
    ``client``, ``processes`` and ``progress`` as for :func:`~.batch.solve_many`.
    """
    started = time.perf_counter()
    n = as_int(deals)
    if n is None or not 1 <= n <= MAX_DEALS:
        raise ArgumentError(f"a study needs a number of deals 1..{MAX_DEALS:,}, got {deals!r}")
    key = check_seed(seed)
    if key is None:     # a fresh seed, reported with the result
        key = random.SystemRandom().randrange(1 << 63)
    workers = worker_count(check_client(client), check_processes(processes), n, parallel_from=4)
    check_progress(progress)
    rows: list[tuple[float, ...]] = [()] * n
    slots = Slots(n)

    def done(result: tuple[int, Sequence[tuple[float, ...]]]) -> None:
        start, chunk = result
        slots.take(start, len(chunk))
        rows[start : start + len(chunk)] = chunk
        if progress is not None:
            progress(slots.count, n)

    size = chunk_size(n, workers, 2)
    parts = ((start, min(size, n - start), key) for start in range(0, n, size))
    map_chunks(_study_chunk, parts, (), done, client, workers)
    slots.check()
    table = np.array(rows, dtype=np.float64)
    return QuintetStudy(n, key, table[:, 0].astype(np.int64), table[:, 1], table[:, 2:].T.copy(),
                        time.perf_counter() - started)
