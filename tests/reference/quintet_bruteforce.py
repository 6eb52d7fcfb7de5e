"""Exhaustive references for small Quintet games (k = 2, 3), independent of the package.

Hand comparison uses tests/reference/quintet_hands.py (keys from the rules); arrangements are
enumerated with itertools.  Cards are 32-layout indices 0..31 (bit i of a Quintet mask).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from reference import quintet_hands as ref


def bits(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


def unordered_splits(cards: Sequence[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every split of ``cards`` into groups of 5 (each split once)."""
    cards = sorted(cards)
    if not cards:
        yield ()
        return
    first, rest = cards[0], cards[1:]
    for others in itertools.combinations(rest, 4):
        group = (first, *others)
        remaining = [c for c in rest if c not in others]
        for tail in unordered_splits(remaining):
            yield (group, *tail)


def ordered_arrangements(cards: Sequence[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every ordered arrangement (split x reveal order)."""
    for split in unordered_splits(cards):
        yield from itertools.permutations(split)


def win_share(a: tuple[int, ...], b: tuple[int, ...], kickers: str = "seed") -> float:
    ka, kb = ref.reference_key(a, kickers), ref.reference_key(b, kickers)
    return 1.0 if ka > kb else 0.5 if ka == kb else 0.0


def payoff(a, b, points, kickers: str = "seed") -> float:
    """First player's points when ordered arrangement ``a`` meets ``b``."""
    return sum(p * win_share(x, y, kickers) for p, x, y in zip(points, a, b))


def best_response_value(cards, opponent, points, kickers: str = "seed") -> float:
    """max over every ordered arrangement of the expected points against
    ``opponent`` = [(ordered arrangement, probability), ...]."""
    keys: dict[tuple[int, ...], tuple[int, ...]] = {}

    def key(group):
        g = tuple(sorted(group))
        if g not in keys:
            keys[g] = ref.reference_key(g, kickers)
        return keys[g]

    # per (position, own hand key): expected share against the opponent
    opp = [[(key(arr[i]), prob) for arr, prob in opponent] for i in range(len(points))]
    cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def gain(i, k):
        if (i, k) not in cache:
            total = 0.0
            for ok, prob in opp[i]:
                total += prob * (1.0 if k > ok else 0.5 if k == ok else 0.0)
            cache[(i, k)] = points[i] * total
        return cache[(i, k)]

    best = float("-inf")
    for split in unordered_splits(cards):
        ks = [key(g) for g in split]
        for order in itertools.permutations(range(len(split))):
            value = sum(gain(i, ks[order[i]]) for i in range(len(split)))
            if value > best:
                best = value
    return best
