"""Zero-sum matrix games solved as linear programs with OR-Tools GLOP.

>>> import numpy as np
>>> x, v = solve_matrix_game(np.array([[1.0, -1.0], [-1.0, 1.0]]))   # matching pennies
>>> [round(p, 6) for p in x], round(v, 6)
([0.5, 0.5], 0.0)
"""

from __future__ import annotations

import numpy as np

from ..errors import SolverError

__all__ = ["solve_matrix_game"]


def solve_matrix_game(payoff: np.ndarray) -> tuple[list[float], float]:
    """Maximin mixed strategy of the row player and the game value.

    ``payoff[i, j]`` is what the row player gets when row ``i`` meets column ``j``.
    Solves the classic normalised LP (``min sum y`` subject to ``B^T y >= 1`` for
    the payoffs shifted positive) with GLOP, deterministic for the same input; the
    value returned is recomputed exactly as the worst column against ``x``.
    Probabilities below ``1e-12`` are dropped and the rest renormalised.
    """
    from ortools.linear_solver import pywraplp

    a = np.asarray(payoff, dtype=float)
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
