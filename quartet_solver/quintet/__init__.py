"""Quintet: two players split the same 25 cards into five poker hands.

Hand evaluation lives in :mod:`quartet_solver.quintet.hands`; the names below
are the public API.

>>> from quartet_solver import quintet
>>> quintet.evaluate("Ah Kh Qh Jh Th").category
<Category.STRAIGHT_FLUSH: 8>
"""

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

__all__ = [
    "Category",
    "HandValue",
    "card_mask",
    "compare",
    "evaluate",
    "evaluate_mask",
    "evaluate_masks",
    "hand_values",
    "hands_of",
    "mask_cards",
    "strength_table",
]
