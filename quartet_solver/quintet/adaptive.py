"""The reveal-order variant as a game: adaptive best responses and its equilibrium.

In Quintet's harder variant each player splits the cards into ``k`` face-down
groups and, round by round, picks which remaining group to reveal, after seeing
every earlier reveal.  Round ``r`` is worth ``points[r]`` whichever group is
shown in it (the same points, tie splits and kickers as the fixed-order game).
A player knows its own split and the groups revealed so far, not the opponent's
remaining split.

A pure strategy is a :class:`RevealPolicy`: a split and a rule giving the group to
reveal next as a function of the opponent's groups revealed so far (the player's
own earlier reveals follow from the rule).  An :class:`Arrangement` is the policy
that ignores what it sees.

**Best response against committed arrangements.**  When the opponent mixes over
ordered arrangements its reveals do not depend on mine, and what it has shown
narrows its support to the arrangements with that prefix.  For one split of mine
the best adaptive play is a dynamic programme over (the opponent's revealed
prefix, my remaining groups).  Its value depends only on my hands' strengths and
rises with each of them under a fixed rule, so the best split is among the rows
of the deal's Pareto frontier (see :mod:`~quartet_solver.quintet.solver`); the
compiled core evaluates every row.  Exact for every ``k``.

**Best response against adaptive opponents** (``k <= 3``).  With three groups
the opponent's only free choice after round 0 is round 1, a function of my first
group (its exact cards); round 2 is forced.  So the best response enumerates my
first group (every 5-card subset of the deal), and for each the frontier of the
remaining ten cards' pairs (the opponent no longer reacts to them), with the
round-1 order chosen per opponent first group seen.  With ``k <= 2`` nothing can
adapt.  For ``k >= 4`` an exact response to adaptive opponents is not available
(it would have to enumerate the cards of my first ``k - 2`` groups).

**Equilibrium.**  The game is symmetric, so its value is half the points.
``k <= 3``: double oracle over pure policies on both sides with the exact oracle
above, starting from the fixed-order equilibrium's arrangements; it stops when
the exact best response gains at most ``tol``: a certified equilibrium.
``k >= 4``: our side is restricted to mixtures of fixed arrangements, whose
exact adaptive best response the frontier programme gives; a double oracle
between fixed arrangements (rows) and adaptive replies (columns) lowers the
certified exploitability ``best response - value`` as far as it gets in
``max_iterations``; the result is an upper bound on how far the strategy is
from an equilibrium, not necessarily 0.

>>> deal = Deal.random(seed=2, k=3)
>>> eq = solve_reveal_variant(deal)
>>> eq.value, eq.exploitability <= 1e-9, eq.method
(6.0, True, 'double oracle, adaptive policies')
>>> br = adaptive_best_response(deal, eq)
>>> abs(br.value - 6.0) <= 1e-9
True
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

import numpy as np

from .. import _core
from ..cards import as_int
from ..deprecation import keyword_options
from ..errors import ArgumentError, InvalidStateError, SolverError
from .arrangement import Arrangement, _group_text
from .deal import Deal, check_points, default_points
from .hands import Kickers, evaluate_masks, hand_values, hands_of, strength_table
from .matrix_game import IncrementalMatrixGame, solve_matrix_game

if TYPE_CHECKING:  # solver imports this module lazily; the other way only for types
    from .solver import Solution

__all__ = [
    "RevealPolicy",
    "RevealResponse",
    "RevealEquilibrium",
    "adaptive_best_response",
    "solve_reveal_variant",
    "reveal_payoff",
    "check_variant",
]

VARIANTS = ("fixed", "reveal")
EXTRA_COLUMNS = 4  # k = 3 double oracle: policies added per iteration beyond the best response


def check_variant(variant: object) -> str:
    """``variant`` as one of ``"fixed"`` (the default game) or ``"reveal"``.

    >>> check_variant("reveal")
    'reveal'
    >>> check_variant("adaptive")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: variant must be 'fixed' or 'reveal', got 'adaptive'
    """
    if isinstance(variant, str) and variant in VARIANTS:
        return variant
    raise ArgumentError(f"variant must be 'fixed' or 'reveal', got {variant!r}")


# -- pure strategies ----------------------------------------------------------------


def _result_head(deal: Deal, points: Sequence[float], kickers: Kickers) -> dict[str, object]:
    """The fields every reveal-variant result's ``to_dict`` starts with."""
    return {"deal": str(deal), "points": list(points), "kickers": kickers, "variant": "reveal"}


def _as_mask_tuple(value: object, what: str) -> tuple[int, ...]:
    if isinstance(value, str):
        if not value.strip():
            return ()
        return Arrangement.parse(value).masks
    try:
        items: tuple[object, ...] = tuple(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidStateError(f"{what} must be groups (text 'g1 / g2' or int masks), got {value!r}") from None
    out: list[int] = []
    for m in items:
        if isinstance(m, str):
            out.extend(Arrangement.parse(m).masks)
        elif isinstance(m, (int, np.integer)) and not isinstance(m, (bool, np.bool_)):
            out.append(int(m))
        else:
            raise InvalidStateError(f"{what} must hold int masks or group text, got {value!r}")
    return tuple(out)


@dataclass(frozen=True)
class RevealPolicy:
    """A pure strategy of the reveal-order variant: a split and an adaptive reveal rule.

    ``groups`` are the split's 5-card groups (32-bit masks) in the *default*
    reveal order; ``rule`` lists ``(opponent's revealed groups so far, group I
    reveal next)`` for the histories where the policy departs from that order
    (entries that repeat the default or concern the forced last round are
    dropped).  The player's own earlier reveals follow from the rule, so the
    opponent's reveals are the whole history.

    >>> p = RevealPolicy.from_rule(
    ...     "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c / Ac Ad As Kc Kd",
    ...     {("9c 9d 9h 9s 7c",): "Ac Ad As Kc Kd"})
    >>> str(Arrangement((p.first,)))
    'Ah Kh Qh Jh Th'
    >>> str(Arrangement((p.choose(["9c 9d 9h 9s 7c"]),)))
    'As Ad Ac Kd Kc'
    >>> str(Arrangement((p.choose(["Ac Ad As Kc Kd"]),)))
    '9s 9h 9d 9c 8c'
    >>> p.is_fixed, RevealPolicy.fixed(p.arrangement).is_fixed
    (False, True)
    """

    groups: tuple[int, ...]
    rule: tuple[tuple[tuple[int, ...], int], ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.groups, (str, bytes)) or not isinstance(self.groups, Iterable):
            raise InvalidStateError(f"a reveal policy's groups must be a list of card masks, got {self.groups!r}")
        arr = Arrangement(tuple(self.groups))  # validates masks and disjointness
        object.__setattr__(self, "groups", arr.masks)
        k = len(arr.masks)
        raw: dict[tuple[int, ...], int] = {}
        try:
            entries = list(self.rule)
            for key, group in entries:
                prefix = _as_mask_tuple(key, "a rule's history")
                named = _as_mask_tuple([group] if not isinstance(group, str) else group, "a rule's group")
                if len(named) != 1:
                    raise InvalidStateError(f"a rule entry must name one group, got {group!r}")
                raw[prefix] = named[0]
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InvalidStateError):
                raise
            raise InvalidStateError(f"rule must be (history, group) pairs, got {self.rule!r}") from None
        for prefix, g in raw.items():
            if len(prefix) >= k:
                raise InvalidStateError(
                    f"rule history '{' / '.join(_group_text(m) for m in prefix)}' has {len(prefix)} groups; "
                    f"a {k}-group game has rounds 0..{k - 1}"
                )
            if g not in arr.masks:
                raise InvalidStateError(f"rule names group '{_group_text(g)}', not one of the split's groups '{arr}'")
        # normalise: keep only entries that depart from the default, in a canonical order
        kept: dict[tuple[int, ...], int] = {}
        for prefix in sorted(raw, key=lambda p: (len(p), p)):
            mine = _own_reveals(arr.masks, raw, prefix)
            g = raw[prefix]
            if g in mine:
                raise InvalidStateError(
                    f"rule reveals '{_group_text(g)}' after history "
                    f"'{' / '.join(_group_text(m) for m in prefix)}', but it was already revealed"
                )
            remaining = [m for m in arr.masks if m not in mine]
            if len(prefix) < k - 1 and g != remaining[0]:
                kept[prefix] = g
        object.__setattr__(self, "rule", tuple(sorted(kept.items(), key=lambda e: (len(e[0]), e[0]))))

    @classmethod
    def fixed(cls, arrangement: Arrangement | str) -> RevealPolicy:
        """The policy that reveals ``arrangement``'s groups in their order, whatever it sees."""
        arr = arrangement if isinstance(arrangement, Arrangement) else Arrangement.parse(arrangement)
        return cls(arr.masks)

    @classmethod
    def from_rule(cls, groups: Arrangement | str | Sequence[int],
                  rule: Mapping[object, object] | None = None) -> RevealPolicy:
        """From groups (default order) and a mapping ``history -> group``; histories and
        groups as text (``"g1 / g2"``) or int masks (tuples)."""
        masks = groups.masks if isinstance(groups, Arrangement) else _as_mask_tuple(groups, "groups")
        if rule is not None and not isinstance(rule, Mapping):
            raise InvalidStateError(f"rule must be a mapping history -> group, got {rule!r}")
        return cls(masks, tuple((rule or {}).items()))  # type: ignore[arg-type]

    @property
    def k(self) -> int:
        """Number of groups."""
        return len(self.groups)

    @property
    def arrangement(self) -> Arrangement:
        """The split in default order (what the policy plays when the rule is silent)."""
        return Arrangement(self.groups)

    @property
    def is_fixed(self) -> bool:
        """True when the policy never departs from its default order."""
        return not self.rule

    @property
    def first(self) -> int:
        """The group revealed in round 0."""
        return self.choose(())

    def rule_dict(self) -> dict[tuple[int, ...], int]:
        """The rule as a dict ``opponent prefix -> group`` (int masks)."""
        return dict(self.rule)

    def choose(self, opponent_revealed: Iterable[int] | str) -> int:
        """The group (mask) revealed next, after the opponent has revealed these groups."""
        prefix = _as_mask_tuple(opponent_revealed, "opponent_revealed")
        if len(prefix) >= self.k:
            raise InvalidStateError(f"{len(prefix)} groups revealed already; the game has {self.k} rounds")
        rule = dict(self.rule)
        mine = _own_reveals(self.groups, rule, prefix)
        return _next(self.groups, rule, prefix, mine)

    def check(self, deal: Deal) -> None:
        """Raise ``InvalidStateError`` unless the split uses exactly the deal's cards."""
        self.arrangement.check(deal)

    @keyword_options
    def to_dict(self, *, kickers: Kickers = "seed") -> dict[str, object]:
        """JSON-ready form."""
        return {
            "groups": [_group_text(m) for m in self.groups],
            "hands": [str(v) for v in self.arrangement.values(kickers=kickers)],
            "first": _group_text(self.first),
            "rule": [{"opponent_revealed": [_group_text(m) for m in p], "reveal": _group_text(g)}
                     for p, g in self.rule],
        }

    @keyword_options
    def pretty(self, *, kickers: Kickers = "seed") -> str:
        """The split, then one line per rule entry."""
        lines = [f"split (default order): {self.arrangement}"]
        for prefix, g in self.rule:
            lines.append(f"  after opponent shows {' | '.join(_group_text(m) for m in prefix)}: reveal {_group_text(g)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        extra = f" (+{len(self.rule)} adaptive rule entries)" if self.rule else ""
        return f"{self.arrangement}{extra}"


def _next(groups: tuple[int, ...], rule: Mapping[tuple[int, ...], int], prefix: tuple[int, ...],
          mine: Sequence[int]) -> int:
    g = rule.get(prefix)
    if g is not None and g not in mine:
        return g
    for m in groups:
        if m not in mine:
            return m
    raise InvalidStateError("no group left to reveal")  # pragma: no cover - guarded by callers


def _own_reveals(groups: tuple[int, ...], rule: Mapping[tuple[int, ...], int], prefix: tuple[int, ...]) -> list[int]:
    """My groups revealed in rounds 0..len(prefix)-1 when the opponent showed ``prefix``."""
    mine: list[int] = []
    for r in range(len(prefix)):
        mine.append(_next(groups, rule, prefix[:r], mine))
    return mine


PolicyLike = Union[RevealPolicy, Arrangement, str]


def as_policy(value: object, deal: Deal | None = None) -> RevealPolicy:
    """A :class:`RevealPolicy` from a policy, an arrangement or arrangement text."""
    if isinstance(value, RevealPolicy):
        policy = value
    elif isinstance(value, Arrangement):
        policy = RevealPolicy.fixed(value)
    elif isinstance(value, str):
        policy = RevealPolicy.fixed(Arrangement.parse(value))
    else:
        raise InvalidStateError(f"not a reveal policy or arrangement: {value!r}")
    if deal is not None:
        policy.check(deal)
    return policy


def play_out(a: RevealPolicy, b: RevealPolicy) -> tuple[list[int], list[int]]:
    """The groups both policies reveal, round by round, when they meet."""
    if a.k != b.k:
        raise InvalidStateError(f"policies have {a.k} and {b.k} groups")
    ra: list[int] = []
    rb: list[int] = []
    for _ in range(a.k):
        ga, gb = a.choose(tuple(rb)), b.choose(tuple(ra))
        ra.append(ga)
        rb.append(gb)
    return ra, rb


@keyword_options
def reveal_payoff(a: PolicyLike, b: PolicyLike, *, points: Sequence[float] | None = None,
                  kickers: Kickers = "seed") -> float:
    """First player's points when policy ``a`` meets policy ``b`` (arrangements allowed).

    >>> a = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
    >>> reveal_payoff(a, "9c 9d 9h 9s 8c / Ah Kh Qh Jh Th", points=(3, 4))
    3.0
    """
    pa, pb = as_policy(a), as_policy(b)
    if pa.arrangement.mask != pb.arrangement.mask:
        raise InvalidStateError(f"policies are not made of the same cards: '{pa}' vs '{pb}'")
    pts = check_points(default_points(pa.k) if points is None else points, pa.k)
    ra, rb = play_out(pa, pb)
    sa = evaluate_masks(np.array(ra, dtype=np.uint32), kickers=kickers)
    sb = evaluate_masks(np.array(rb, dtype=np.uint32), kickers=kickers)
    return float(sum(p * (1.0 if x > y else 0.5 if x == y else 0.0) for p, x, y in zip(pts, sa, sb)))


class _Strengths:
    """Strength of a group mask, memoised."""

    def __init__(self, kickers: Kickers) -> None:
        self.kickers = kickers
        self.memo: dict[int, int] = {}

    def __call__(self, mask: int) -> int:
        s = self.memo.get(mask)
        if s is None:
            s = self.memo[mask] = int(evaluate_masks(np.array([mask], dtype=np.uint32), kickers=self.kickers)[0])
        return s

    def payoff(self, a: RevealPolicy, b: RevealPolicy, pts: Sequence[float]) -> float:
        ra, rb = play_out(a, b)
        total = 0.0
        for p, x, y in zip(pts, ra, rb):
            sx, sy = self(x), self(y)
            total += p * (1.0 if sx > sy else 0.5 if sx == sy else 0.0)
        return total


# -- results -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RevealResponse:
    """An exact adaptive best response in the reveal-order variant.

    ``value``: expected points of ``policy`` against the opponent;
    ``fixed_value``: the best a fixed arrangement (no adapting) gets against the
    same opponent; ``gain = value - fixed_value`` is what adapting is worth.
    ``policy.first`` is the first group and ``policy.choose(revealed)`` the rule
    for later rounds.
    """

    deal: Deal
    points: tuple[float, ...]
    kickers: Kickers
    value: float
    fixed_value: float
    policy: RevealPolicy
    method: str
    seconds: float = 0.0

    @property
    def gain(self) -> float:
        """Points gained by adapting the reveal order over the best fixed arrangement."""
        return self.value - self.fixed_value

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            **_result_head(self.deal, self.points, self.kickers),
            "value": self.value,
            "fixed_value": self.fixed_value,
            "gain": self.gain,
            "method": self.method,
            "policy": self.policy.to_dict(kickers=self.kickers),
            "seconds": self.seconds,
        }

    def pretty(self) -> str:
        """Human-readable summary."""
        return "\n".join([
            f"deal: {self.deal}",
            f"adaptive best response: {self.value:.6f} of {sum(self.points):g} points "
            f"(best fixed arrangement {self.fixed_value:.6f}, adapting gains {self.gain:.6f})",
            f"first group: {_group_text(self.policy.first)}",
            self.policy.pretty(kickers=self.kickers),
        ])


@dataclass(frozen=True)
class RevealEquilibrium:
    """A strategy of the reveal-order variant with its certified exploitability.

    ``strategy``: pure policies with probabilities (most likely first);
    ``value``: half the points (the game is symmetric); ``exploitability``:
    exact adaptive best response against ``strategy`` minus ``value`` (``<= tol``
    means a certified equilibrium); ``fixed_order_gain``: what the exact adaptive
    best response gains against the fixed-order equilibrium (0 means that
    equilibrium is already one of the variant).
    """

    deal: Deal
    points: tuple[float, ...]
    kickers: Kickers
    strategy: list[tuple[RevealPolicy, float]]
    value: float
    exploitability: float
    fixed_order_gain: float
    best_response: RevealPolicy
    method: str
    iterations: int
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def certified(self) -> bool:
        """True when the exploitability is at most ``1e-9`` of the points (at least 1)."""
        return bool(self.exploitability <= 1e-9 * max(sum(self.points), 1.0))

    @property
    def support_size(self) -> int:
        """Number of policies played with positive probability."""
        return len(self.strategy)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            **_result_head(self.deal, self.points, self.kickers),
            "value": self.value,
            "exploitability": self.exploitability,
            "certified": self.certified,
            "fixed_order_gain": self.fixed_order_gain,
            "method": self.method,
            "iterations": self.iterations,
            "strategy": [{"probability": p, **pol.to_dict(kickers=self.kickers)} for pol, p in self.strategy],
            "support_size": self.support_size,
            "timings": dict(self.timings),
        }

    def pretty(self) -> str:
        """Human-readable summary."""
        lines = [
            f"deal: {self.deal}",
            f"reveal-order variant, value {self.value:.6f} of {sum(self.points):g} points; "
            f"exploitability {self.exploitability:.3g} ({'certified' if self.certified else 'bound'}; {self.method})",
            f"adapting gains {self.fixed_order_gain:.6f} against the fixed-order equilibrium",
            f"strategy ({self.support_size} policies, {self.iterations} iterations, "
            f"{self.timings.get('total', 0.0):.2f} s):",
        ]
        for pol, p in self.strategy:
            lines.append(f"  {p:8.5f}  {pol}")
        return "\n".join(lines)


# -- the opponent -----------------------------------------------------------------------


def _opponent_pairs(opponent: object, deal: Deal) -> list[tuple[RevealPolicy, float]]:
    from .solver import Solution, _probability  # noqa: F811

    if isinstance(opponent, RevealEquilibrium):
        pairs = list(opponent.strategy)
    elif isinstance(opponent, Solution):
        pairs = [(RevealPolicy.fixed(a), p) for a, p in opponent.strategy]
    elif isinstance(opponent, (RevealPolicy, Arrangement, str)):
        pairs = [(as_policy(opponent), 1.0)]
    else:
        try:
            pairs = [(as_policy(a), _probability(p)) for a, p in opponent]  # type: ignore[attr-defined]
        except (TypeError, ValueError, OverflowError):
            raise InvalidStateError(
                "opponent must be a policy, an arrangement or a list of (policy or arrangement, probability), "
                f"got {opponent!r}"
            ) from None
    if not pairs:
        raise InvalidStateError("opponent strategy is empty")
    probs = np.array([p for _, p in pairs])
    if np.any(~np.isfinite(probs)) or np.any(probs < 0) or not abs(probs.sum() - 1.0) < 1e-9:
        raise InvalidStateError(f"opponent probabilities must be >= 0 and sum to 1, got {probs.tolist()}")
    for pol, _ in pairs:
        pol.check(deal)
    return [(pol, float(p)) for pol, p in pairs if p > 0]


# -- best response against committed arrangements (any k) ------------------------------


class _Trie:
    """The opponent's reveal prefixes, breadth first (arrays for the compiled core)."""

    def __init__(self, arrangements: Sequence[tuple[tuple[int, ...], float]], strength: _Strengths, k: int) -> None:
        self.k = k
        index: dict[tuple[int, ...], int] = {(): 0}
        masses: dict[tuple[int, ...], float] = {(): 1.0}
        levels: list[list[tuple[int, ...]]] = [[()]]
        for r in range(k):
            nxt: dict[tuple[int, ...], float] = {}
            for masks, p in arrangements:
                key = masks[: r + 1]
                nxt[key] = nxt.get(key, 0.0) + p
            masses.update(nxt)
            levels.append(sorted(nxt))
        nodes = [n for level in levels for n in level]
        index = {n: i for i, n in enumerate(nodes)}
        self.nodes = nodes
        self.index = index
        self.children: dict[tuple[int, ...], list[tuple[int, ...]]] = {n: [] for n in nodes}
        for n in nodes[1:]:
            self.children[n[:-1]].append(n)
        nn = len(nodes)
        self.depth = np.array([len(n) for n in nodes], dtype=np.int32)
        self.child_start = np.zeros(nn, dtype=np.int32)
        self.child_count = np.zeros(nn, dtype=np.int32)
        for n in nodes:
            ch = self.children[n]
            if ch:
                self.child_start[index[n]] = index[ch[0]]
                self.child_count[index[n]] = len(ch)
        self.mass = np.array([masses[n] for n in nodes], dtype=np.float64)
        self.strength = np.array([strength(n[-1]) if n else 0 for n in nodes], dtype=np.uint16)
        self.masses = masses


def _fixed_dp(groups: Sequence[int], strength: _Strengths, trie: _Trie,
              pts: Sequence[float]) -> tuple[float, dict[tuple[int, ...], int]]:
    """Best adaptive value of one split against the trie, and its rule (prefix -> group)."""
    k = len(groups)
    sv = [strength(g) for g in groups]
    memo: dict[tuple[tuple[int, ...], int], tuple[float, int]] = {}

    def value(node: tuple[int, ...], rem: int) -> float:
        key = (node, rem)
        if key in memo:
            return memo[key][0]
        children = trie.children[node]
        r = len(node)
        best, arg = -math.inf, -1
        if not children or rem == 0:
            memo[key] = (0.0, -1)
            return 0.0
        for g in range(k):
            if not rem >> g & 1:
                continue
            val = 0.0
            for c in children:
                s = int(trie.strength[trie.index[c]])
                share = 1.0 if sv[g] > s else 0.5 if sv[g] == s else 0.0
                val += trie.masses[c] * pts[r] * share + value(c, rem & ~(1 << g))
            if val > best:
                best, arg = val, g
        memo[key] = (best, arg)
        return best

    full = (1 << k) - 1
    total = value((), full)
    rule: dict[tuple[int, ...], int] = {}

    def walk(node: tuple[int, ...], rem: int) -> None:
        if rem == 0 or not trie.children[node]:
            return
        g = memo[(node, rem)][1]
        rule[node] = groups[g]
        for c in trie.children[node]:
            walk(c, rem & ~(1 << g))

    walk((), full)
    return total, rule


def _default_order(groups: Sequence[int], rule: Mapping[tuple[int, ...], int], trie: _Trie) -> tuple[int, ...]:
    """The groups in the order played along the opponent's most likely line."""
    node: tuple[int, ...] = ()
    order: list[int] = []
    while len(order) < len(groups):
        g = rule.get(node)
        if g is None or g in order:
            g = next(m for m in groups if m not in order)
        order.append(g)
        ch = trie.children.get(node, [])
        if not ch:
            order.extend(m for m in groups if m not in order)
            break
        node = max(ch, key=lambda c: (trie.masses[c], c))
    return tuple(order)


def _respond_to_fixed(deal: Deal, pairs: Sequence[tuple[RevealPolicy, float]], pts: np.ndarray,
                      kickers: Kickers, strength: _Strengths) -> tuple[float, float, RevealPolicy]:
    from .solver import _game, _weights

    game = _game(deal, kickers)
    arrangements = [(pol.groups, p) for pol, p in pairs]
    trie = _Trie(arrangements, strength, deal.k)
    values = _core.quintet_reveal_values(np.ascontiguousarray(game.front), trie.depth, trie.child_start,
                                         trie.child_count, trie.mass, trie.strength,
                                         np.ascontiguousarray(pts, dtype=np.float64))
    row = int(np.argmax(values))
    groups = [int(m) for m in game.core.witness(row)]
    value, rule = _fixed_dp(groups, strength, trie, [float(p) for p in pts])
    if value < float(values[row]) - 1e-9:  # pragma: no cover - the witness realises the row
        raise SolverError("internal error: the frontier witness scores below its row")
    policy = RevealPolicy(_default_order(groups, rule, trie), tuple(rule.items()))
    strengths = np.array([[strength(m) for m in pol.groups] for pol, _ in pairs], dtype=np.int64)
    probs = np.array([p for _, p in pairs])
    fixed_value, _ = game.best_response(_weights(strengths, probs, pts, game.n_classes))
    return float(value), float(fixed_value), policy


# -- best response against adaptive opponents (k = 3) ------------------------------------------


class _Pairs:
    """Every first group of a 3-group deal with the frontier of the other ten cards' pairs."""

    def __init__(self, deal: Deal, kickers: Kickers) -> None:
        self.masks, strengths = hands_of(deal.mask, kickers=kickers)
        self.strengths = strengths.astype(np.int64)
        table = strength_table(kickers=kickers)
        self.table = table
        self.deal = deal
        idx, a, b = [], [], []
        for i, m in enumerate(self.masks.tolist()):
            front = np.asarray(_core.QuintetFrontier(deal.mask & ~int(m), table).frontier()).astype(np.int64)
            idx.extend([i] * len(front))
            a.extend(front[:, 0].tolist())
            b.extend(front[:, 1].tolist())
        self.idx = np.array(idx, dtype=np.intp)
        self.a = np.array(a, dtype=np.intp)
        self.b = np.array(b, dtype=np.intp)

    def witness(self, i: int, a: int, b: int) -> tuple[int, int]:
        core = _core.QuintetFrontier(self.deal.mask & ~int(self.masks[i]), self.table)
        front = np.asarray(core.frontier())
        row = int(np.flatnonzero((front[:, 0] == a) & (front[:, 1] == b))[0])
        hands = core.witness(row)
        return int(hands[0]), int(hands[1])


_PAIRS: dict[tuple[int, str], _Pairs] = {}


def _pairs(deal: Deal, kickers: Kickers) -> _Pairs:
    key = (deal.mask, kickers)
    if key not in _PAIRS:
        if len(_PAIRS) > 16:
            _PAIRS.clear()
        _PAIRS[key] = _Pairs(deal, kickers)
    return _PAIRS[key]


def _share_table(s: int, n_classes: int) -> np.ndarray:
    """share[x] of a hand of strength x against strength s."""
    x = np.arange(n_classes)
    return (x > s) + 0.5 * (x == s)


def _respond_k3(deal: Deal, pairs: Sequence[tuple[RevealPolicy, float]], pts: np.ndarray,
                kickers: Kickers, strength: _Strengths,
                extra: int = 0) -> tuple[float, float, RevealPolicy, list[RevealPolicy]]:
    """Exact best response for k = 3; ``extra`` more policies: the best ones with
    other first groups (columns for the double oracle)."""
    n_classes = len(hand_values(kickers=kickers))
    P = _pairs(deal, kickers)
    opp = [(pol, p, pol.first) for pol, p in pairs]
    classes = sorted({h0 for _, _, h0 in opp})
    # round 0
    w0 = np.zeros(n_classes)
    for _, p, h0 in opp:
        w0 += p * pts[0] * _share_table(strength(h0), n_classes)
    t0 = w0[P.strengths]  # per first group

    def later(first: int | None) -> tuple[np.ndarray, np.ndarray]:
        """Per class: weights of rounds 1 and 2 when my first group is ``first``
        (None: a group no opponent rule names)."""
        w1 = np.zeros((len(classes), n_classes))
        w2 = np.zeros((len(classes), n_classes))
        for pol, p, h0 in opp:
            c = classes.index(h0)
            h1 = pol.choose((first,)) if first is not None else _default_second(pol)
            h2 = next(m for m in pol.groups if m != h0 and m != h1)
            w1[c] += p * pts[1] * _share_table(strength(h1), n_classes)
            w2[c] += p * pts[2] * _share_table(strength(h2), n_classes)
        return w1, w2

    def score(rows: np.ndarray, w1: np.ndarray, w2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a, b = P.a[rows], P.b[rows]
        ab = w1[:, a] + w2[:, b]
        ba = w1[:, b] + w2[:, a]
        adaptive = np.maximum(ab, ba).sum(axis=0)
        fixed = np.maximum(ab.sum(axis=0), ba.sum(axis=0))
        base = t0[P.idx[rows]]
        return base + adaptive, base + fixed

    keys = {int(key[0]) for pol, _, _ in opp for key, _ in pol.rule if len(key) == 1}
    key_of_row = np.isin(P.masks[P.idx], np.array(sorted(keys), dtype=P.masks.dtype)) if keys else \
        np.zeros(len(P.idx), dtype=bool)
    adaptive = np.empty(len(P.idx))
    fixed = np.empty(len(P.idx))
    plain = np.flatnonzero(~key_of_row)
    w1d, w2d = later(None)
    if len(plain):
        adaptive[plain], fixed[plain] = score(plain, w1d, w2d)
    weights: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for m in sorted(keys):
        rows = np.flatnonzero(P.masks[P.idx] == m)
        if len(rows):
            weights[m] = later(m)
            adaptive[rows], fixed[rows] = score(rows, *weights[m])
    def build(row: int) -> tuple[float, RevealPolicy]:
        i = int(P.idx[row])
        g0 = int(P.masks[i])
        g1, g2 = P.witness(i, int(P.a[row]), int(P.b[row]))
        w1, w2 = weights.get(g0, (w1d, w2d))
        s1, s2 = strength(g1), strength(g2)
        rule: dict[tuple[int, ...], int] = {(): g0}
        value = float(t0[i])
        for c, h0 in enumerate(classes):
            first_ab = w1[c, s1] + w2[c, s2]
            first_ba = w1[c, s2] + w2[c, s1]
            rule[(h0,)] = g1 if first_ab >= first_ba else g2
            value += max(first_ab, first_ba)
        if value < float(adaptive[row]) - 1e-9:  # pragma: no cover - the witness realises the row
            raise SolverError("internal error: the witness split scores below its frontier row")
        top = max(opp, key=lambda e: (e[1], e[2]))[2]
        second = rule[(top,)]
        order = (g0, second, g2 if second == g1 else g1)
        return value, RevealPolicy(order, tuple(rule.items()))

    best = int(np.argmax(adaptive))
    value, policy = build(best)
    more: list[RevealPolicy] = []
    if extra:
        firsts = {int(P.idx[best])}
        for row in np.argsort(-adaptive, kind="stable").tolist():
            if len(more) >= extra:
                break
            if int(P.idx[row]) not in firsts:
                firsts.add(int(P.idx[row]))
                more.append(build(int(row))[1])
    return value, float(fixed.max()), policy, more


def _default_second(pol: RevealPolicy) -> int:
    """The opponent's round-1 group when my first group is one its rule does not name."""
    return next(m for m in pol.groups if m != pol.first)


# -- public entry points -----------------------------------------------------------------------


def _check_kickers(kickers: object) -> Kickers:
    from .solver import _check_kickers as check

    return check(kickers)  # type: ignore[arg-type]


def adaptive_best_response(
    deal: Deal | str,
    opponent: object,
    *,
    points: Sequence[float] | None = None,
    kickers: Kickers = "seed",
) -> RevealResponse:
    """The exact adaptive best response of the reveal-order variant, and its value.

    ``opponent``: a policy or arrangement, a list of ``(policy or arrangement,
    probability)``, a fixed-order :class:`~quartet_solver.quintet.solver.Solution`
    or a :class:`RevealEquilibrium`.  Exact for every ``k`` when every opponent
    policy is a fixed arrangement, and for ``k <= 3`` in general; an adaptive
    opponent with ``k >= 4`` raises :class:`~quartet_solver.errors.SolverError`.

    >>> deal = Deal.random(seed=3, k=3)
    >>> from quartet_solver.quintet.solver import solve
    >>> br = adaptive_best_response(deal, solve(deal))
    >>> round(br.fixed_value, 9), round(br.value, 9), br.gain > 0
    (6.0, 6.45, True)
    """
    t0 = time.perf_counter()
    deal = Deal.of(deal)
    kickers = _check_kickers(kickers)
    pts = np.array(check_points(default_points(deal.k) if points is None else points, deal.k))
    pairs = _opponent_pairs(opponent, deal)
    strength = _Strengths(kickers)
    value, fixed_value, policy, method = _respond(deal, pairs, pts, kickers, strength)
    return RevealResponse(deal, tuple(float(p) for p in pts), kickers, float(value), float(fixed_value), policy, method,
                          time.perf_counter() - t0)


def _respond(deal: Deal, pairs: Sequence[tuple[RevealPolicy, float]], pts: np.ndarray, kickers: Kickers,
             strength: _Strengths, extra: list[RevealPolicy] | None = None
             ) -> tuple[float, float, RevealPolicy, str]:
    """Exact adaptive best response: value, best fixed value, policy, method; with
    ``extra`` (k = 3 only) a list that receives more good policies."""
    k = deal.k
    if k <= 2 or all(pol.is_fixed for pol, _ in pairs):
        fixed_pairs = [(RevealPolicy.fixed(_effective_order(pol)), p) for pol, p in pairs]
        value, fixed_value, policy = _respond_to_fixed(deal, fixed_pairs, pts, kickers, strength)
        return value, fixed_value, policy, "frontier dynamic programme"
    if k == 3:
        value, fixed_value, policy, more = _respond_k3(deal, pairs, pts, kickers, strength,
                                                       extra=EXTRA_COLUMNS if extra is not None else 0)
        if extra is not None:
            extra.extend(more)
        return value, fixed_value, policy, "first-group enumeration"
    raise SolverError(
        f"an exact best response to adaptive opponents is implemented for up to 3 groups; this deal has {k} "
        f"and {sum(not pol.is_fixed for pol, _ in pairs)} of the opponent's policies adapt"
    )


def _effective_order(pol: RevealPolicy) -> Arrangement:
    """A policy that cannot adapt (fixed, or k <= 2) as the arrangement it plays."""
    return Arrangement((pol.first, *[m for m in pol.groups if m != pol.first]))


def _check_solve_options(tol: object, max_iterations: object) -> tuple[float, int]:
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not (0 < float(tol) and math.isfinite(tol)):
        raise ArgumentError(f"tol must be a finite number > 0, got {tol!r}")
    n = as_int(max_iterations)
    if n is None or n < 1:
        raise ArgumentError(f"max_iterations must be a positive int, got {max_iterations!r}")
    return float(tol), int(n)


def solve_reveal_variant(
    deal: Deal | str,
    *,
    points: Sequence[float] | None = None,
    kickers: Kickers = "seed",
    tol: float = 1e-9,
    max_iterations: int | None = None,
) -> RevealEquilibrium:
    """A strategy of the reveal-order variant and its certified exploitability.

    ``k <= 3``: a certified equilibrium (exploitability ``<= tol`` of the points)
    or :class:`~quartet_solver.errors.SolverError` after ``max_iterations``
    (default 500).  ``k >= 4``: the best mixture of fixed arrangements found in
    ``max_iterations`` (default 30) rounds against adaptive replies, with its
    exact exploitability (a bound, see the module text).
    """
    from .solver import solve as solve_fixed

    t_start = time.perf_counter()
    deal = Deal.of(deal)
    kickers = _check_kickers(kickers)
    default_iterations = 500 if deal.k <= 3 else 30
    tol, max_iter = _check_solve_options(tol, default_iterations if max_iterations is None else max_iterations)
    pts = np.array(check_points(default_points(deal.k) if points is None else points, deal.k))
    total = float(pts.sum())
    half = total / 2.0
    strength = _Strengths(kickers)
    t0 = time.perf_counter()
    fixed = solve_fixed(deal, points=tuple(pts), kickers=kickers, variant="fixed")
    timings = {"fixed_order": time.perf_counter() - t0, "oracle": 0.0, "lp": 0.0}
    start = [(RevealPolicy.fixed(a), p) for a, p in fixed.strategy]
    t0 = time.perf_counter()
    gain0 = _respond(deal, start, pts, kickers, strength)[0] - half
    timings["oracle"] += time.perf_counter() - t0
    if deal.k <= 3:
        strategy, exploit, br, iterations, method = _double_oracle_symmetric(
            deal, start, pts, kickers, strength, tol, max_iter, timings)
    else:
        strategy, exploit, br, iterations, method = _double_oracle_fixed_rows(
            deal, fixed, pts, kickers, strength, max_iter, timings)
    timings["total"] = time.perf_counter() - t_start
    return RevealEquilibrium(deal, tuple(float(p) for p in pts), kickers, strategy, float(half),
                             float(max(exploit, 0.0)), float(max(gain0, 0.0)), br, method, iterations, timings)


def _double_oracle_symmetric(deal: Deal, start: Sequence[tuple[RevealPolicy, float]], pts: np.ndarray,
                             kickers: Kickers, strength: _Strengths, tol: float, max_iter: int,
                             timings: dict[str, float]
                             ) -> tuple[list[tuple[RevealPolicy, float]], float, RevealPolicy, int, str]:
    total = float(pts.sum())
    half = total / 2.0
    pool: list[RevealPolicy] = []
    seen: set[RevealPolicy] = set()
    lp = IncrementalMatrixGame(offset=1.0)
    plist = [float(p) for p in pts]

    def add(pol: RevealPolicy) -> None:
        row = [strength.payoff(pol, q, plist) for q in pool] + [half]
        lp.add(row=row, col=[total - x for x in row[:-1]] + [half])
        pool.append(pol)
        seen.add(pol)

    for pol, _ in start:
        if pol not in seen:
            add(pol)
    iterations = 0
    while True:
        iterations += 1
        t0 = time.perf_counter()
        probs, _ = lp.solve()
        timings["lp"] += time.perf_counter() - t0
        support = [(pool[i], p) for i, p in enumerate(probs) if p > 0]
        t0 = time.perf_counter()
        more: list[RevealPolicy] = []
        value, _, br, _ = _respond(deal, support, pts, kickers, strength, extra=more)
        timings["oracle"] += time.perf_counter() - t0
        gain = value - half
        if gain <= tol * max(total, 1.0):
            break
        if br in seen:
            raise SolverError(f"best response '{br}' is already a column but gains {gain:.3g}: "
                              "the LP solution is not accurate enough")
        if iterations >= max_iter:
            raise SolverError(f"no certified equilibrium of the reveal variant after {iterations} iterations "
                              f"(gain {gain:.3g})")
        for pol in [br, *more]:
            if pol not in seen:
                add(pol)
    order = sorted(range(len(pool)), key=lambda i: -probs[i])
    strategy = [(pool[i], float(probs[i])) for i in order if probs[i] > 0]
    return strategy, gain, br, iterations, "double oracle, adaptive policies"


def _double_oracle_fixed_rows(deal: Deal, fixed: Solution, pts: np.ndarray, kickers: Kickers,
                              strength: _Strengths, max_iter: int, timings: dict[str, float]
                              ) -> tuple[list[tuple[RevealPolicy, float]], float, RevealPolicy, int, str]:
    """Rows: fixed arrangements; columns: adaptive replies.  Keeps the row mixture
    with the smallest exact exploitability seen."""
    from .solver import _game, _weights

    total = float(pts.sum())
    half = total / 2.0
    plist = [float(p) for p in pts]
    game = _game(deal, kickers)
    rows: list[RevealPolicy] = [RevealPolicy.fixed(a) for a, _ in fixed.strategy]
    row_set = set(rows)
    cols: list[RevealPolicy] = []
    col_set: set[RevealPolicy] = set()
    matrix = np.zeros((len(rows), 0))
    best: tuple[float, list[tuple[RevealPolicy, float]], RevealPolicy] | None = None
    x = np.array([p for _, p in fixed.strategy])
    iterations = 0
    while iterations < max_iter:
        iterations += 1
        support = [(rows[i], float(x[i])) for i in range(len(rows)) if x[i] > 0]
        t0 = time.perf_counter()
        value, _, br, _ = _respond(deal, support, pts, kickers, strength)
        timings["oracle"] += time.perf_counter() - t0
        exploit = value - half
        if best is None or exploit < best[0]:
            best = (exploit, sorted(support, key=lambda e: -e[1]), br)
        if exploit <= 1e-9 * max(total, 1.0):
            break
        new_col = br not in col_set
        if new_col:
            cols.append(br)
            col_set.add(br)
            matrix = np.hstack([matrix, np.array([[strength.payoff(r, br, plist)] for r in rows])])
        # row oracle: a fixed arrangement against the columns' mixture, each column
        # acting on an unseen arrangement by its default order
        t0 = time.perf_counter()
        y, _ = solve_matrix_game(total - matrix.T)
        col_pol = [cols[j] for j in range(len(cols)) if y[j] > 0]
        col_p = np.array([y[j] for j in range(len(cols)) if y[j] > 0])
        strengths = np.array([[strength(m) for m in c.groups] for c in col_pol], dtype=np.int64)
        _, cand = game.best_response(_weights(strengths, col_p, pts, game.n_classes))
        new_row = RevealPolicy.fixed(cand)
        if new_row not in row_set:
            rows.append(new_row)
            row_set.add(new_row)
            matrix = np.vstack([matrix, np.array([[strength.payoff(new_row, c, plist) for c in cols]])])
        elif not new_col:
            timings["lp"] += time.perf_counter() - t0
            break
        x = np.array(solve_matrix_game(matrix)[0])
        timings["lp"] += time.perf_counter() - t0
    assert best is not None
    exploit, strategy, br = best
    return strategy, exploit, br, iterations, "double oracle, fixed arrangements against adaptive replies"
