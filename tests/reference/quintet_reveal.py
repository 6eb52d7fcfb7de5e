"""Exhaustive reference for Quintet's reveal-order variant (small games, k = 2, 3).

Written from the rules, sharing nothing with the package but the card layout:
groups are tuples of card indices 0..31, hands compare by
``quintet_hands.reference_key``.

A pure strategy is a split plus a reveal rule; a rule maps the opponent's
revealed groups so far (a tuple of groups) to my next group, and where it is
silent (or names a group already shown) I reveal the first group of my split,
in its listed order, not yet shown.

The best response enumerates *every* split of the cards, and for each plays the
game tree out: at each round I pick one of my remaining groups, every opponent
pure strategy still consistent with what it has shown reveals its group (a
function of my earlier reveals), the opponents are partitioned by what they
show, and each part is continued separately, since a behaviour strategy may
choose differently after different observations (perfect recall, so these
behaviour choices are exactly the pure policies).
"""

from __future__ import annotations

from collections.abc import Sequence

from reference import quintet_bruteforce as bf

Group = tuple[int, ...]
Policy = tuple[tuple[Group, ...], dict[tuple[Group, ...], Group]]  # (groups in default order, rule)


def reveal(policy: Policy, opponent_shown: Sequence[Group]) -> Group:
    """The group ``policy`` reveals after the opponent has shown ``opponent_shown``."""
    groups, rule = policy
    mine: list[Group] = []
    for r in range(len(opponent_shown) + 1):
        want = rule.get(tuple(opponent_shown[:r]))
        if want is None or want in mine:
            want = next(g for g in groups if g not in mine)
        mine.append(want)
    return mine[-1]


def play(a: Policy, b: Policy, points: Sequence[float], kickers: str = "seed") -> float:
    """First player's points when ``a`` meets ``b``: both reveal simultaneously each round."""
    shown_a: list[Group] = []
    shown_b: list[Group] = []
    total = 0.0
    for p in points:
        ga, gb = reveal(a, shown_b), reveal(b, shown_a)
        shown_a.append(ga)
        shown_b.append(gb)
        total += p * bf.win_share(ga, gb, kickers)
    return total


def best_response_value(cards: Sequence[int], opponent: Sequence[tuple[Policy, float]],
                        points: Sequence[float], kickers: str = "seed") -> float:
    """Max over every split and every adaptive reveal policy of the expected points."""
    keys: dict[Group, tuple[int, ...]] = {}

    def share(x: Group, y: Group) -> float:
        for g in (x, y):
            if g not in keys:
                keys[g] = bf.ref.reference_key(g, kickers)
        kx, ky = keys[x], keys[y]
        return 1.0 if kx > ky else 0.5 if kx == ky else 0.0

    k = len(points)
    shows: dict[tuple[int, tuple[Group, ...]], Group] = {}  # (opponent index, my reveals) -> its reveal

    def shown(j: int, mine: tuple[Group, ...]) -> Group:
        key = (j, mine)
        if key not in shows:
            shows[key] = reveal(opponent[j][0], mine)
        return shows[key]

    def value(remaining: tuple[Group, ...], mine: tuple[Group, ...], alive: tuple[int, ...]) -> float:
        r = len(mine)
        if r == k or not alive:
            return 0.0
        best = float("-inf")
        for g in remaining:
            parts: dict[Group, list[int]] = {}
            now = 0.0
            for j in alive:
                h = shown(j, mine)
                now += opponent[j][1] * points[r] * share(g, h)
                parts.setdefault(h, []).append(j)
            rest = tuple(x for x in remaining if x != g)
            total = now + sum(value(rest, mine + (g,), tuple(part)) for part in parts.values())
            best = max(best, total)
        return best

    everyone = tuple(range(len(opponent)))
    return max(value(tuple(split), (), everyone) for split in bf.unordered_splits(cards))


def expected(policy: Policy, opponent: Sequence[tuple[Policy, float]], points: Sequence[float],
             kickers: str = "seed") -> float:
    """Expected points of ``policy`` against a mixed opponent."""
    return sum(prob * play(policy, pol, points, kickers) for pol, prob in opponent)
