"""Solve a Quintet deal, play the equilibrium against a naive arrangement, and
look at the reveal-order variant.

Usage: python examples/quintet_solve.py [seed]
"""

from __future__ import annotations

import sys

from quartet_solver import quintet


def main(seed: int) -> None:
    deal = quintet.Deal.random(seed=seed)
    sol = quintet.solve(deal)
    print(sol.pretty())

    # the best pure arrangement is predictable: a best reply exploits it
    pure = sol.pure
    reply, reply_value = quintet.best_response(deal, pure)
    print(f"\nagainst '{pure}' the best reply scores {reply_value:.2f} of 25:\n{reply.pretty()}")
    expected = sum(p * quintet.score(arr, pure)[0] for arr, p in sol.strategy)
    print(f"the equilibrium scores {expected:.3f} against it on average (guaranteed >= 12.5)")

    # the variant: two different splits from the equilibrium support, revealed
    # group by group with the order chosen round by round
    splits = {}
    for arr, _ in sol.strategy:
        splits.setdefault(frozenset(arr.masks), arr)
    if len(splits) > 1:
        first, second = list(splits.values())[:2]
        r = quintet.solve_reveal(first, second)
        print(f"\nreveal-order variant, split of '{first}' against split of '{second}':")
        print(f"  round by round {r.value:.3f}, fixed order {r.fixed_order_value:.3f} (gain {r.gain:+.3f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
