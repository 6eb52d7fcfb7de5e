"""Quintet: two players split the same 25 cards into five poker hands.

Hand evaluation lives in :mod:`~quartet_solver.quintet.hands`, deals in
:mod:`~quartet_solver.quintet.deal`, arrangements and scoring in
:mod:`~quartet_solver.quintet.arrangement`, the reveal-order variant in
:mod:`~quartet_solver.quintet.reveal`; the names below are the public API.

>>> from quartet_solver import quintet
>>> quintet.evaluate("Ah Kh Qh Jh Th").category
<Category.STRAIGHT_FLUSH: 8>
"""

from .arrangement import Arrangement, score
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

__all__ = [
    "Arrangement",
    "Category",
    "DEFAULT_POINTS",
    "Deal",
    "HandValue",
    "RevealSolution",
    "card_mask",
    "compare",
    "evaluate",
    "evaluate_mask",
    "evaluate_masks",
    "hand_values",
    "hands_of",
    "mask_cards",
    "score",
    "solve_reveal",
    "strength_table",
]
