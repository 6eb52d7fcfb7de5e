"""Optimal Quintet play: exact best responses and a certified equilibrium.

Quintet is a symmetric constant-sum simultaneous game: both players split the
same cards into ``k`` hands and order them; the value is half the points.

**Best response.**  Against a mixed opponent each (hand strength, position) has a
fixed expected gain, so only the multiset of a split's strengths matters, and a
split whose sorted strengths are componentwise ``>=`` another's weakly dominates
it.  The compiled core enumerates the *Pareto frontier* of sorted strength
vectors over all splits of the deal exactly (flush hands per suit, then a
memoised partition of the remaining rank multiset), once per deal; a best
response is then the best frontier split under its best assignment to positions.

**Equilibrium.**  Double oracle / column generation: the restricted symmetric
matrix game over the arrangements found so far is solved as an LP (GLOP), the
exact best response against its solution is added, until no arrangement gains
more than ``tol`` over half the points.  The reported ``exploitability`` comes
from one final exact best response against the returned strategy.

Which equilibrium: equilibria are not unique.  The returned one is the GLOP
solution of the final restricted game, whose columns are generated
deterministically (first column: the best response to a uniform opponent over
weights proportional to hand strength), so the same deal, points and options give
the same strategy on every run.

>>> deal = Deal.random(seed=11, k=2)
>>> sol = solve(deal)
>>> round(sol.value, 9), sol.exploitability < 1e-9
(3.5, True)
"""

from __future__ import annotations

import itertools
import math
import numbers
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Union, cast, overload

import numpy as np

from .. import _core
from ..checks import as_int
from ..deprecation import keyword_options
from ..errors import ArgumentError, InvalidStateError, SolverError
from .adaptive import RevealEquilibrium, RevealResponse, adaptive_best_response, check_variant, solve_reveal_variant
from .arrangement import Arrangement, as_arrangement
from .deal import Deal, check_points, default_points
from .hands import Kickers, hand_values, strength_table
from .matrix_game import IncrementalMatrixGame

__all__ = ["Solution", "solve", "best_response", "frontier", "Opponent"]

Opponent = Union[Arrangement, str, Sequence[tuple[Union[Arrangement, str], float]], "Solution"]
Progress = Callable[[int, float, int], None]
MAX_ITERATIONS = 100_000


# -- the per-deal game: frontier and best responses ---------------------------


class _Game:
    """Frontier of a deal (computed once) and exact best responses over it."""

    def __init__(self, deal: Deal, kickers: Kickers) -> None:
        self.deal = deal
        self.kickers = kickers
        self.n_classes = len(hand_values(kickers=kickers))
        t0 = time.perf_counter()
        self.core = _core.QuintetFrontier(deal.mask, strength_table(kickers=kickers))
        self.front = np.asarray(self.core.frontier())  # (n, k) uint16, strengths descending
        self.frontier_seconds = time.perf_counter() - t0

    def arrangement(self, row: int, perm: Sequence[int]) -> Arrangement:
        """Frontier split ``row`` with its ``perm[i]``-th strongest hand at position ``i``."""
        hands = self.core.witness(row)  # k 32-bit masks, strongest first
        return Arrangement(tuple(int(hands[j]) for j in perm))

    def best_response(self, weights: np.ndarray) -> tuple[float, Arrangement]:
        """Max over all arrangements of ``sum_i weights[i, strength at i]``."""
        w = np.ascontiguousarray(weights, dtype=np.float64)
        value, row, perm = _core.quintet_frontier_best_response(self.front, w)
        return float(value), self.arrangement(row, perm)


_GAMES: dict[tuple[int, str], _Game] = {}


def _game(deal: Deal, kickers: Kickers) -> _Game:
    key = (deal.mask, kickers)
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 64:
            _GAMES.clear()
        game = _GAMES[key] = _Game(deal, kickers)
    return game


@keyword_options
def frontier(deal: Deal | str, *, kickers: Kickers = "seed") -> np.ndarray:
    """The Pareto frontier of sorted (descending) hand-strength vectors of a deal.

    Every split of the deal is weakly dominated by a row of this array (shape
    ``(n, k)``, ``uint16``), and no row dominates another.
    """
    deal = Deal.of(deal)
    return _game(deal, _check_kickers(kickers)).front.copy()


def _check_kickers(kickers: str) -> Kickers:
    if kickers == "seed":
        return "seed"
    if kickers == "full":
        return "full"
    raise ArgumentError(f"kickers must be 'seed' or 'full', got {kickers!r}")


# -- weights and payoffs --------------------------------------------------------


def _weights(strengths: np.ndarray, probs: np.ndarray, points: np.ndarray, n_classes: int) -> np.ndarray:
    """``w[i, s]`` = expected points at position ``i`` for own strength ``s``
    against opponents with strength rows ``strengths`` (one per arrangement)."""
    k = len(points)
    delta = np.zeros((k, n_classes + 1))
    for i in range(k):
        np.add.at(delta[i], strengths[:, i], 0.5 * probs)
        np.add.at(delta[i], strengths[:, i] + 1, 0.5 * probs)
    return np.cumsum(delta[:, :n_classes], axis=1) * points[:, None]


def _payoffs(rows: np.ndarray, cols: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Payoff matrix of arrangements (strength rows) against arrangements."""
    a = rows[:, None, :].astype(np.int32)
    b = cols[None, :, :].astype(np.int32)
    share = (a > b) + 0.5 * (a == b)
    return share @ points


def _best_pure(game: _Game, pts: np.ndarray) -> tuple[Arrangement, float]:
    """The exact max-min pure arrangement and its guaranteed points.

    Candidates: every frontier split under every order (a split dominated
    componentwise is never better against any opponent, so the max-min is among
    them).  Pure double oracle: keep the opponent arrangements found so far,
    pick the candidate whose worst case against them is best (an upper bound),
    compute its exact guarantee with a best response (a lower bound), and add that
    response until the bounds meet.
    """
    k = game.deal.k
    total = float(pts.sum())
    perms = np.array(list(itertools.permutations(range(k))), dtype=np.intp)
    cand = game.front.astype(np.int32)[:, perms].reshape(-1, k)  # (rows * k!, k), position order
    worst = np.full(cand.shape[0], np.inf)
    best_arr, best_value = None, -np.inf
    for _ in range(10_000):
        i = int(np.argmax(worst)) if np.isfinite(worst).any() else 0
        row, perm = divmod(i, len(perms))
        arr = game.arrangement(row, perms[perm])
        opp_value, opp = game.best_response(
            _weights(cand[i][None, :], np.array([1.0]), pts, game.n_classes)
        )
        guaranteed = total - opp_value
        if guaranteed > best_value + 1e-12:
            best_arr, best_value = arr, guaranteed
        if worst[i] <= best_value + 1e-9:
            break
        b = np.array(opp.strengths(kickers=game.kickers), dtype=np.int32)
        worst = np.minimum(worst, ((cand > b) + 0.5 * (cand == b)) @ pts)
    else:  # pragma: no cover - bounded by the number of distinct opponent vectors
        raise SolverError("best pure arrangement search did not converge")
    if best_arr is None:  # pragma: no cover - the loop always evaluates a candidate
        raise SolverError("no pure arrangement evaluated")
    return best_arr, float(best_value)


# -- results ----------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """A certified equilibrium of a Quintet deal.

    ``strategy`` lists arrangements with probabilities (summing to 1), most likely
    first; ``value`` is the first player's expected points (half the total);
    ``exploitability`` = best-response value against ``strategy`` minus
    ``value``, from one final exact best response (``>= 0``, ``~0`` at an
    equilibrium).  ``pure`` is a best pure arrangement (exact max-min over all
    arrangements) and ``pure_value`` the points it guarantees against every
    reply; ``pure_loss = value - pure_value``.
    """

    deal: Deal
    points: tuple[float, ...]
    kickers: Kickers
    strategy: list[tuple[Arrangement, float]]
    value: float
    exploitability: float
    best_response: Arrangement
    iterations: int
    columns: int
    frontier_size: int
    pure: Arrangement
    pure_value: float
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def pure_loss(self) -> float:
        """What the best pure arrangement found gives up against the equilibrium value."""
        return self.value - self.pure_value

    @property
    def support_size(self) -> int:
        """Number of arrangements played with positive probability."""
        return len(self.strategy)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "deal": str(self.deal),
            "removed": str(self.deal.removed),
            "points": list(self.points),
            "kickers": self.kickers,
            "value": self.value,
            "exploitability": self.exploitability,
            "strategy": [{"arrangement": str(a), "probability": p, "hands": [str(v) for v in a.values(kickers=self.kickers)]}
                         for a, p in self.strategy],
            "support_size": self.support_size,
            "iterations": self.iterations,
            "columns": self.columns,
            "frontier_size": self.frontier_size,
            "best_pure": {"arrangement": str(self.pure), "guaranteed": self.pure_value, "loss": self.pure_loss},
            "timings": dict(self.timings),
        }

    def pretty(self) -> str:
        """Human-readable summary."""
        lines = [
            f"deal: {self.deal}  (removed: {self.deal.removed})",
            f"value: {self.value:.6f} of {sum(self.points):g} points; "
            f"exploitability: {self.exploitability:.3g}",
            f"equilibrium ({self.support_size} arrangements, {self.iterations} iterations, "
            f"{self.timings.get('total', 0.0):.2f} s):",
        ]
        for arr, p in self.strategy:
            lines.append(f"  {p:8.5f}  {arr}")
        lines.append(f"best pure arrangement: {self.pure}  guarantees {self.pure_value:.4f} "
                     f"(loses {self.pure_loss:.4f} against the equilibrium value)")
        return "\n".join(lines)


# -- solving -------------------------------------------------------------------------


def _probability(p: object) -> float:
    """A probability as a float; a bool or text is not one (TypeError)."""
    if isinstance(p, (bool, np.bool_, str, bytes, bytearray)):
        raise TypeError(f"not a probability: {p!r}")
    return float(cast(float, p))


def _mixed(opponent: Opponent, deal: Deal) -> list[tuple[Arrangement, float]]:
    if isinstance(opponent, Solution):
        pairs = list(opponent.strategy)
    elif isinstance(opponent, (Arrangement, str)):
        pairs = [(as_arrangement(opponent, deal), 1.0)]
    else:
        try:
            pairs = [(as_arrangement(a, deal), _probability(p)) for a, p in opponent]
        except (TypeError, ValueError, OverflowError):
            raise InvalidStateError(
                f"opponent must be an arrangement or a list of (arrangement, probability), got {opponent!r}"
            ) from None
    if not pairs:
        raise InvalidStateError("opponent strategy is empty")
    probs = np.array([p for _, p in pairs])
    if np.any(~np.isfinite(probs)) or np.any(probs < 0) or not abs(probs.sum() - 1.0) < 1e-9:
        raise InvalidStateError(f"opponent probabilities must be >= 0 and sum to 1, got {probs.tolist()}")
    for arr, _ in pairs:
        arr.check(deal)
    return pairs


@overload
def best_response(deal: Deal | str, opponent: Opponent, *, points: Sequence[float] | None = ...,
                  kickers: Kickers = ..., variant: Literal["fixed"] = ...) -> tuple[Arrangement, float]: ...
@overload
def best_response(deal: Deal | str, opponent: object, *, points: Sequence[float] | None = ...,
                  kickers: Kickers = ..., variant: Literal["reveal"]) -> RevealResponse: ...
@overload
def best_response(deal: Deal | str, opponent: object, *, points: Sequence[float] | None = ...,
                  kickers: Kickers = ..., variant: str = ...) -> tuple[Arrangement, float] | RevealResponse: ...


@keyword_options
def best_response(
    deal: Deal | str,
    opponent: object,
    *,
    points: Sequence[float] | None = None,
    kickers: Kickers = "seed",
    variant: str = "fixed",
) -> tuple[Arrangement, float] | RevealResponse:
    """An exact best response to a pure or mixed opponent, and its expected points.

    ``opponent`` is an arrangement (text or :class:`Arrangement`), a list of
    ``(arrangement, probability)`` pairs, or a :class:`Solution`.

    ``variant="reveal"``: the reveal-order variant's exact *adaptive* best
    response (a :class:`~quartet_solver.quintet.adaptive.RevealResponse` with the
    value and the policy); the opponent may then also use reveal policies or be a
    :class:`~quartet_solver.quintet.adaptive.RevealEquilibrium`.  See
    :func:`~quartet_solver.quintet.adaptive.adaptive_best_response`.

    >>> deal = Deal.parse("Ah Kh Qh Jh Th 9c 9d 9h 9s 8c")
    >>> arr, value = best_response(deal, "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c", points=(3, 4))
    >>> str(arr), value
    ('9s 9h 9d 9c 8c / Ah Kh Qh Jh Th', 4.0)
    >>> best_response(deal, "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c", points=(3, 4), variant="reveal").value
    4.0
    """
    if check_variant(variant) == "reveal":
        return adaptive_best_response(deal, opponent, points=points, kickers=kickers)
    deal = Deal.of(deal)
    pts = np.array(check_points(default_points(deal.k) if points is None else points, deal.k))
    game = _game(deal, _check_kickers(kickers))
    pairs = _mixed(cast(Opponent, opponent), deal)
    strengths = np.array([a.strengths(kickers=kickers) for a, _ in pairs], dtype=np.int64)
    probs = np.array([p for _, p in pairs])
    value, arr = game.best_response(_weights(strengths, probs, pts, game.n_classes))
    return arr, value


@overload
def solve(deal: Deal | str, *, points: Sequence[float] | None = ..., kickers: Kickers = ..., tol: float = ...,
          max_iterations: int = ..., progress: Progress | None = ...,
          variant: Literal["fixed"] = ...) -> Solution: ...
@overload
def solve(deal: Deal | str, *, points: Sequence[float] | None = ..., kickers: Kickers = ..., tol: float = ...,
          max_iterations: int = ..., progress: Progress | None = ...,
          variant: Literal["reveal"]) -> RevealEquilibrium: ...
@overload
def solve(deal: Deal | str, *, points: Sequence[float] | None = ..., kickers: Kickers = ..., tol: float = ...,
          max_iterations: int = ..., progress: Progress | None = ...,
          variant: str = ...) -> Solution | RevealEquilibrium: ...


@keyword_options
def solve(
    deal: Deal | str,
    *,
    points: Sequence[float] | None = None,
    kickers: Kickers = "seed",
    tol: float = 1e-9,
    max_iterations: int = MAX_ITERATIONS,
    progress: Progress | None = None,
    variant: str = "fixed",
) -> Solution | RevealEquilibrium:
    """A certified equilibrium of the deal (double oracle with an exact oracle).

    ``variant="reveal"`` solves the reveal-order variant instead and returns a
    :class:`~quartet_solver.quintet.adaptive.RevealEquilibrium` (see
    :func:`~quartet_solver.quintet.adaptive.solve_reveal_variant`; ``progress``
    is not supported there: an :class:`~quartet_solver.errors.ArgumentError`).  ``max_iterations`` left at its default means 100,000
    here and the variant's own defaults there.

    ``progress(iteration, gain, columns)`` is called after every best response.
    Raises :class:`~quartet_solver.errors.SolverError` if ``max_iterations`` is
    reached before the best response gains at most ``tol`` (relative to the
    points, at least 1), and :class:`~quartet_solver.errors.ArgumentError`
    for a ``tol`` that is not a finite number > 0 (the certificate is checked in
    floating point, so 0 cannot be met), ``max_iterations`` below 1 or a
    ``progress`` that is not callable.

    >>> solve(Deal.random(seed=11, k=2), tol=0)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: tol must be a finite number > 0, got 0
    """
    if check_variant(variant) == "reveal":
        if progress is not None:
            raise ArgumentError("progress is not supported with variant='reveal'")
        return solve_reveal_variant(deal, points=points, kickers=kickers, tol=tol,
                                    max_iterations=None if max_iterations is MAX_ITERATIONS else max_iterations)
    t_start = time.perf_counter()
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not (0 < tol and math.isfinite(tol)):
        raise ArgumentError(f"tol must be a finite number > 0, got {tol!r}")
    if (as_int(max_iterations) or 0) < 1:
        raise ArgumentError(f"max_iterations must be a positive int, got {max_iterations!r}")
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be a callable or None, got {progress!r}")
    deal = Deal.of(deal)
    kickers = _check_kickers(kickers)
    pts = np.array(check_points(default_points(deal.k) if points is None else points, deal.k))
    total = float(pts.sum())
    half = total / 2.0
    game = _game(deal, kickers)
    timings = {"frontier": game.frontier_seconds, "lp": 0.0, "oracle": 0.0}

    # first column: best response to "stronger is better" (weights proportional to strength)
    ramp = np.arange(game.n_classes, dtype=float) / max(game.n_classes - 1, 1)
    t0 = time.perf_counter()
    _, first = game.best_response(pts[:, None] * ramp[None, :])
    timings["oracle"] += time.perf_counter() - t0
    columns = [first]
    keys = {first.masks}
    rows = np.array([first.strengths(kickers=kickers)], dtype=np.int64)
    lp = IncrementalMatrixGame(offset=1.0)
    lp.add(row=[half], col=[half])

    iterations = 0
    while True:
        iterations += 1
        t0 = time.perf_counter()
        probs_list, _ = lp.solve()
        timings["lp"] += time.perf_counter() - t0
        probs = np.array(probs_list)
        support = probs > 0
        t0 = time.perf_counter()
        br_value, br = game.best_response(_weights(rows[support], probs[support], pts, game.n_classes))
        timings["oracle"] += time.perf_counter() - t0
        gain = br_value - half
        if progress is not None:
            progress(iterations, gain, len(columns))
        if gain <= tol * max(total, 1.0):
            break
        if br.masks in keys:
            raise SolverError(
                f"best response '{br}' is already a column but gains {gain:.3g}: "
                "the LP solution is not accurate enough"
            )
        if iterations >= max_iterations:
            raise SolverError(f"no certified equilibrium after {iterations} iterations (gain {gain:.3g})")
        columns.append(br)
        keys.add(br.masks)
        new = np.array([br.strengths(kickers=kickers)], dtype=np.int64)
        rows = np.vstack([rows, new])
        col = _payoffs(rows, new, pts)[:, 0]
        lp.add(row=total - col, col=col)

    order = np.argsort(-probs, kind="stable")
    strategy = [(columns[i], float(probs[i])) for i in order if probs[i] > 0]
    t0 = time.perf_counter()
    pure, pure_value = _best_pure(game, pts)
    timings["pure"] = time.perf_counter() - t0
    timings["total"] = time.perf_counter() - t_start
    return Solution(
        deal=deal,
        points=tuple(float(p) for p in pts),
        kickers=kickers,
        strategy=strategy,
        value=half,
        exploitability=max(gain, 0.0),
        best_response=br,
        iterations=iterations,
        columns=len(columns),
        frontier_size=int(game.front.shape[0]),
        pure=pure,
        pure_value=float(pure_value),
        timings=timings,
    )
