"""The reveal-order variant: groups are chosen for reveal round by round.

In Quintet's harder variant each player, having split the cards, picks which of
the remaining groups to reveal next, after seeing the earlier reveals.  Given both
players' splits, each round is a simultaneous choice, i.e. a small matrix game
whose entries are the round's points plus the value of the resulting position;
backward induction over the remaining groups solves it exactly.  The fixed-order
game (both commit to a reveal order in advance) is the ``k! x k!`` matrix game of
orders; :func:`solve_reveal` reports both values.

>>> a = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
>>> b = Arrangement.parse("9c 9d 9h 9s 8c / Ah Kh Qh Jh Th")
>>> r = solve_reveal(a, b, points=(3, 4))
>>> round(r.value, 6), round(r.fixed_order_value, 6)
(3.5, 3.5)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..deprecation import keyword_options
from .arrangement import Arrangement, ArrangementLike, matched_pair
from .hands import Kickers
from .matrix_game import solve_matrix_game

__all__ = ["RevealSolution", "solve_reveal"]


@dataclass(frozen=True)
class RevealSolution:
    """Values of the reveal-order game between two fixed splits (first player's points).

    ``value``: round-by-round choice (the variant); ``fixed_order_value``: both
    commit to an order in advance; ``first_round``: each player's equilibrium
    distribution over which group to reveal first (group text -> probability).
    """

    value: float
    fixed_order_value: float
    total: float
    first_round: tuple[dict[str, float], dict[str, float]] = field(repr=False)

    @property
    def gain(self) -> float:
        """How much the first player gains from the round-by-round choice."""
        return self.value - self.fixed_order_value

    def pretty(self) -> str:
        """The two values, the gain and each player's first-round mix, as text.

        >>> a = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
        >>> b = Arrangement.parse("9c 9d 9h 9s 8c / Ah Kh Qh Jh Th")
        >>> print(solve_reveal(a, b, points=(3, 4)).pretty())
        round-by-round reveal: 3.500000 of 7 points for the first player
        fixed reveal order:    3.500000 (gain of choosing round by round: +0.000000)
        first player's first reveal:  9s 9h 9d 9c 8c 100.0%
        second player's first reveal: 9s 9h 9d 9c 8c 100.0%
        """
        def mix(dist: dict[str, float]) -> str:
            return ", ".join(f"{g} {p:.1%}" for g, p in sorted(dist.items(), key=lambda gp: -gp[1]) if p > 0)

        return "\n".join([
            f"round-by-round reveal: {self.value:.6f} of {self.total:g} points for the first player",
            f"fixed reveal order:    {self.fixed_order_value:.6f} (gain of choosing round by round: {self.gain:+.6f})",
            f"first player's first reveal:  {mix(self.first_round[0])}",
            f"second player's first reveal: {mix(self.first_round[1])}",
        ])

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "value": self.value,
            "fixed_order_value": self.fixed_order_value,
            "gain": self.gain,
            "total": self.total,
            "first_round": {"first": self.first_round[0], "second": self.first_round[1]},
        }


@keyword_options
def solve_reveal(
    a: ArrangementLike,
    b: ArrangementLike,
    *,
    points: Sequence[float] | None = None,
    kickers: Kickers = "seed",
) -> RevealSolution:
    """Solve the reveal-order game between the splits of ``a`` and ``b`` (group order ignored)."""
    a, b, pts = matched_pair(a, b, points, what="splits")
    k = a.k
    sa, sb = a.strengths(kickers=kickers), b.strengths(kickers=kickers)
    cmp = np.array([[(x > y) - (x < y) for y in sb] for x in sa], dtype=float)
    win = (cmp + 1.0) / 2.0  # share of the position's points: 1, 0.5 or 0
    full = (1 << k) - 1

    @lru_cache(maxsize=None)
    def value(left_a: int, left_b: int) -> float:
        stage = k - left_a.bit_count()
        if stage == k:
            return 0.0
        ia = [i for i in range(k) if left_a >> i & 1]
        ib = [j for j in range(k) if left_b >> j & 1]
        m = np.array(
            [[pts[stage] * win[i, j] + value(left_a & ~(1 << i), left_b & ~(1 << j)) for j in ib] for i in ia]
        )
        if len(ia) == 1:
            return float(m[0, 0])
        return solve_matrix_game(m)[1]

    v = value(full, full)
    # first round strategies
    stage0 = np.array(
        [[pts[0] * win[i, j] + value(full & ~(1 << i), full & ~(1 << j)) for j in range(k)] for i in range(k)]
    )
    total = float(sum(pts))
    xa, _ = solve_matrix_game(stage0)
    xb, _ = solve_matrix_game(total - stage0.T)
    names_a = [str(Arrangement((m,))) for m in a.masks]
    names_b = [str(Arrangement((m,))) for m in b.masks]
    first = ({n: p for n, p in zip(names_a, xa) if p > 0}, {n: p for n, p in zip(names_b, xb) if p > 0})
    # fixed order: k! x k! game of orders
    orders = list(itertools.permutations(range(k)))
    fixed = np.array(
        [[sum(pts[s] * win[pa[s], pb[s]] for s in range(k)) for pb in orders] for pa in orders]
    )
    _, fixed_value = solve_matrix_game(fixed)
    return RevealSolution(v, fixed_value, total, first)
