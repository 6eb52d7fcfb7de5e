"""Zero-sum matrix games solved as linear programs with OR-Tools GLOP.

>>> import numpy as np
>>> x, v = solve_matrix_game(np.array([[1.0, -1.0], [-1.0, 1.0]]))   # matching pennies
>>> [round(p, 6) for p in x], round(v, 6)
([0.5, 0.5], 0.0)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..errors import SolverError

__all__ = ["solve_matrix_game", "IncrementalMatrixGame"]


def solve_matrix_game(payoff: np.ndarray) -> tuple[list[float], float]:
    """Maximin mixed strategy of the row player and the game value.

    ``payoff[i, j]`` is what the row player gets when row ``i`` meets column ``j``.
    Solves the classic normalised LP (``min sum y`` subject to ``B^T y >= 1`` for
    the payoffs shifted positive) with GLOP, deterministic for the same input; the
    value returned is recomputed exactly as the worst column against ``x``.
    Probabilities below ``1e-12`` are dropped and the rest renormalised.
    """
    try:
        a = np.asarray(payoff, dtype=float)
    except (TypeError, ValueError, OverflowError):  # text, complex, ragged rows, huge ints
        raise SolverError(f"payoff matrix must be an array of real numbers, got {payoff!r}") from None
    if a.ndim != 2 or a.shape[0] == 0 or a.shape[1] == 0:
        raise SolverError(f"payoff matrix must be 2-D and non-empty, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise SolverError("payoff matrix has non-finite entries")
    rows, cols = a.shape
    if rows == 1:
        return [1.0], float(a[0].min())
    probs = _classic_lp(a)
    if probs is None:
        # GLOP can report ABNORMAL on tiny, nearly degenerate games; rounding away
        # the last bits of the payoffs and retrying has always been enough.
        probs = _classic_lp(np.round(a, 9))
    if probs is None:
        raise SolverError(f"GLOP did not find an optimal solution for a {rows}x{cols} game")
    probs[probs < 1e-12] = 0.0
    probs /= probs.sum()
    value = float((probs @ a).min())
    return probs.tolist(), value


def _classic_lp(a: np.ndarray) -> np.ndarray | None:
    """``min sum y`` s.t. ``B^T y >= 1``, ``y >= 0`` with ``B = a - min(a) + 1 > 0``;
    then ``x = y / sum(y)``.  Returns None unless GLOP reports an optimum."""
    from ortools.linear_solver import pywraplp

    b = a - (float(a.min()) - 1.0)
    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:  # pragma: no cover - GLOP ships with ortools
        raise SolverError("OR-Tools GLOP solver is not available")
    y = [solver.NumVar(0.0, solver.infinity(), "") for _ in range(b.shape[0])]
    for j in range(b.shape[1]):
        ct = solver.Constraint(1.0, solver.infinity())
        for i in range(b.shape[0]):
            ct.SetCoefficient(y[i], float(b[i, j]))
    objective = solver.Objective()
    for var in y:
        objective.SetCoefficient(var, 1.0)
    objective.SetMinimization()
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        return None
    probs = np.array([max(var.solution_value(), 0.0) for var in y])
    if not probs.sum() > 0:
        return None
    return probs / probs.sum()


class IncrementalMatrixGame:
    """A square matrix game that grows by one strategy at a time (column generation).

    Strategy ``i`` is both row ``i`` and column ``i``.  The LP is kept in one GLOP
    model: adding a strategy adds one variable and one constraint, and GLOP
    re-solves from its previous basis, so an iteration costs ``O(n)`` model edits
    instead of rebuilding ``n^2`` coefficients.

    >>> g = IncrementalMatrixGame(offset=2.0)
    >>> g.add(row=[0.0], col=[0.0])                     # rock vs rock
    >>> g.add(row=[1.0, 0.0], col=[-1.0, 0.0])          # paper beats rock
    >>> g.add(row=[-1.0, 1.0, 0.0], col=[1.0, -1.0, 0.0])  # scissors
    >>> x, v = g.solve()
    >>> [round(p, 6) for p in x], abs(round(v, 9))
    ([0.333333, 0.333333, 0.333333], 0.0)
    """

    def __init__(self, offset: float) -> None:
        from ortools.linear_solver import pywraplp

        self._pywraplp = pywraplp
        try:
            self.offset = float(offset)
        except (TypeError, ValueError, OverflowError):
            self.offset = float("nan")
        if not np.isfinite(self.offset):
            raise SolverError(f"offset must be a finite number, got {offset!r}")
        self.solver = pywraplp.Solver.CreateSolver("GLOP")
        if self.solver is None:  # pragma: no cover - GLOP ships with ortools
            raise SolverError("OR-Tools GLOP solver is not available")
        self.objective = self.solver.Objective()
        self.objective.SetMinimization()
        self.vars: list = []
        self.cons: list = []
        self.matrix = np.zeros((0, 0))

    @property
    def size(self) -> int:
        """Number of strategies."""
        return len(self.vars)

    def add(self, row: ArrayLike, col: ArrayLike) -> None:
        """Add a strategy: ``row[j]`` = its payoff against strategy ``j`` (the last entry
        against itself), ``col[i]`` = the payoff of strategy ``i`` against it."""
        n = self.size
        try:
            r = np.asarray(row, dtype=float)
            c = np.asarray(col, dtype=float)
        except (TypeError, ValueError, OverflowError):
            raise SolverError(f"payoffs must be real numbers, got row {row!r} and col {col!r}") from None
        if r.shape != (n + 1,) or c.shape != (n + 1,):
            raise SolverError(f"new strategy needs {n + 1} consistent payoffs, got {r.shape} and {c.shape}")
        if not (np.all(np.isfinite(r)) and np.all(np.isfinite(c))):
            raise SolverError(f"payoffs must be finite, got row {r.tolist()} and col {c.tolist()}")
        if r[n] != c[n]:
            raise SolverError(f"new strategy needs {n + 1} consistent payoffs, got {r.shape} and {c.shape}")
        if min(r.min(), c.min()) + self.offset <= 0:
            raise SolverError("payoffs plus offset must be positive")
        grown = np.empty((n + 1, n + 1))
        grown[:n, :n] = self.matrix
        grown[n, :] = r
        grown[:, n] = c
        self.matrix = grown
        y = self.solver.NumVar(0.0, self.solver.infinity(), "")
        self.objective.SetCoefficient(y, 1.0)
        for j in range(n):
            self.cons[j].SetCoefficient(y, float(r[j] + self.offset))
        ct = self.solver.Constraint(1.0, self.solver.infinity())
        for i in range(n):
            ct.SetCoefficient(self.vars[i], float(c[i] + self.offset))
        ct.SetCoefficient(y, float(c[n] + self.offset))
        self.vars.append(y)
        self.cons.append(ct)

    def solve(self) -> tuple[list[float], float]:
        """Maximin strategy of the row player and its exact value on the current matrix."""
        if self.size == 0:
            raise SolverError("the game has no strategies")
        status = self.solver.Solve()
        probs = None
        if status == self._pywraplp.Solver.OPTIMAL:
            probs = np.array([max(v.solution_value(), 0.0) for v in self.vars])
            if not probs.sum() > 0:
                probs = None
            else:
                probs /= probs.sum()
        if probs is None:
            return solve_matrix_game(self.matrix)
        probs[probs < 1e-12] = 0.0
        probs /= probs.sum()
        return probs.tolist(), float((probs @ self.matrix).min())
