"""Rank every 5-card Quintet hand you can make from a set of cards.

Usage: python examples/quintet_hands.py "7c 8c 9c Tc Jc Qh Qd Qs As"
"""

from __future__ import annotations

import sys
from collections import Counter

from quartet_solver import quintet


def main(cards: str) -> None:
    masks, strengths = quintet.hands_of(cards)
    values = quintet.hand_values()
    print(f"{len(masks)} hands from {cards!r}")
    by_category = Counter(values[s].category for s in strengths.tolist())
    for category in sorted(by_category, reverse=True):
        print(f"  {category.label:<16} {by_category[category]:>6}")
    order = strengths.argsort()[::-1][:5]
    print("strongest:")
    for i in order:
        print(f"  {quintet.mask_cards(int(masks[i]))}  ->  {values[strengths[i]]}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "7c 8c 9c Tc Jc Qh Qd Qs As")
