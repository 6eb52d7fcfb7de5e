"""Quintet: two players split the same 25 cards into five poker hands.

Hand evaluation lives in :mod:`~quartet_solver.quintet.hands`, deals in
:mod:`~quartet_solver.quintet.deal`, arrangements and scoring in
:mod:`~quartet_solver.quintet.arrangement`, equilibria and best responses in
:mod:`~quartet_solver.quintet.solver`, the reveal game of two known splits in
:mod:`~quartet_solver.quintet.reveal`, the reveal-order variant as a game in
:mod:`~quartet_solver.quintet.adaptive`; the names below are the public API.

>>> from quartet_solver import quintet
>>> quintet.evaluate("Ah Kh Qh Jh Th").category
<Category.STRAIGHT_FLUSH: 8>
>>> sol = quintet.solve(quintet.Deal.random(seed=1))
>>> sol.value, sol.exploitability < 1e-9
(12.5, True)
"""

from .adaptive import RevealEquilibrium, RevealPolicy, RevealResponse, reveal_payoff
from .arrangement import Arrangement, score
from .batch import SolveManyResult, solve_many
from .deal import DEFAULT_POINTS, Deal
from .hands import (
    Category,
    HandValue,
    card_mask,
    compare,
    evaluate,
    evaluate_mask,
    evaluate_masks,
    hand_values,
    hands_of,
    mask_cards,
    strength_table,
)
from .reveal import RevealSolution, solve_reveal
from .solver import Solution, best_response, frontier, solve

__all__ = [
    "Arrangement",
    "Category",
    "DEFAULT_POINTS",
    "Deal",
    "HandValue",
    "RevealEquilibrium",
    "RevealPolicy",
    "RevealResponse",
    "RevealSolution",
    "Solution",
    "SolveManyResult", "solve_many",  # batch.py
    "best_response",
    "card_mask",
    "compare",
    "evaluate",
    "evaluate_mask",
    "evaluate_masks",
    "frontier",
    "hand_values",
    "hands_of",
    "mask_cards",
    "reveal_payoff",
    "score",
    "solve",
    "solve_reveal",
    "strength_table",
]
