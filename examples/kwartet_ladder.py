"""The Kwartet bot ladder: InferenceBot vs MemoryBot vs NoviceBot, seats rotated.

Run: python examples/kwartet_ladder.py [games]   (default 1000 per table)
Prints win rates with 95% confidence intervals and the quartet-count
distribution per bot (the seed's claim: a skilled player usually ends with 3-4
of the 8 quartets, a novice often with 0).
"""

import sys

from quartet_solver import kwartet as kw

games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
tables = [
    ["inference", "memory", "novice", "novice"],
    ["inference", "memory", "memory", "memory"],
    ["memory", "novice", "novice", "novice"],
    ["inference", "novice", "novice", "novice"],
    ["novice", "novice", "novice", "novice"],
]
for bots in tables:
    result = kw.simulate(bots, games=games, seed=2024, deck=kw.Deck.themed("classic"))
    print(result.pretty())
    print()
