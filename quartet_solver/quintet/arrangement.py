"""Arrangements: a player's ordered split of the deal into groups, and scoring.

An arrangement is written group by group in reveal order, groups separated by
``/``: ``"Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c / ..."``.  Position ``i`` is worth
``points[i]`` (``3, 4, 5, 6, 7`` in the standard game); the stronger hand takes
the points, an exact tie splits them.

>>> a = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
>>> b = Arrangement.parse("9c 9d 9h 9s 8c / Ah Kh Qh Jh Th")
>>> score(a, b, points=(3, 4))
(3.0, 4.0)
>>> score(a, a, points=(3, 4))
(3.5, 3.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import CardSet, CardsLike
from ..deprecation import keyword_options
from ..errors import InvalidStateError, NotationError
from .deal import Deal, check_points, default_points
from .hands import HandValue, Kickers, card_mask, evaluate_masks, hand_values, mask_cards

__all__ = ["Arrangement", "score", "ArrangementLike"]


@dataclass(frozen=True)
class Arrangement:
    """An ordered tuple of disjoint 5-card groups (32-bit Quintet masks), in reveal order."""

    masks: tuple[int, ...]

    def __post_init__(self) -> None:
        try:
            if isinstance(self.masks, (str, bytes, bytearray)):
                raise TypeError
            raw = tuple(self.masks)
        except TypeError:
            raise InvalidStateError(
                f"arrangement masks must be a sequence of 32-bit int masks, got {self.masks!r}"
            ) from None
        for i, m in enumerate(raw):
            if isinstance(m, (bool, np.bool_)) or not isinstance(m, (int, np.integer)):
                raise InvalidStateError(f"group {i + 1} of an arrangement must be an int mask, got {m!r}")
        masks = tuple(int(m) for m in raw)
        object.__setattr__(self, "masks", masks)
        if not masks:
            raise InvalidStateError("an arrangement needs at least one group")
        seen = 0
        for i, m in enumerate(masks):
            if not 0 <= m < 1 << 32 or m.bit_count() != 5:
                raise InvalidStateError(
                    f"group {i + 1} of an arrangement must have 5 cards of the 32-card deck, "
                    f"got {m.bit_count()}: '{mask_cards(m & 0xFFFFFFFF)}'"
                )
            if seen & m:
                raise InvalidStateError(
                    f"card '{mask_cards(seen & m)}' appears in two groups of the arrangement"
                )
            seen |= m

    @classmethod
    def parse(cls, text: str, deal: Deal | None = None) -> Arrangement:
        """Parse ``"g1 / g2 / ..."``; with ``deal``, check it uses exactly the deal's cards.

        >>> Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s")
        Traceback (most recent call last):
        ...
        quartet_solver.errors.InvalidStateError: group 2 of arrangement 'Ah Kh Qh Jh Th / 9c 9d 9h 9s' has 4 cards, not 5
        """
        if not isinstance(text, str):
            raise NotationError(f"arrangement must be text, got {text!r}")
        parts = [p.strip() for p in text.split("/")]
        if any(not p for p in parts):
            raise NotationError(f"empty group in arrangement {text!r}")
        masks = []
        for i, part in enumerate(parts):
            try:
                m = card_mask(part)
            except (NotationError, InvalidStateError) as exc:
                raise type(exc)(f"{exc} (group {i + 1} of arrangement {text!r})") from None
            if m.bit_count() != 5:
                raise InvalidStateError(
                    f"group {i + 1} of arrangement {text!r} has {m.bit_count()} cards, not 5"
                )
            masks.append(m)
        arrangement = cls(tuple(masks))
        if deal is not None:
            arrangement.check(deal)
        return arrangement

    @classmethod
    def from_groups(cls, groups: Sequence[CardsLike], deal: Deal | None = None) -> Arrangement:
        """From a sequence of groups, each anything :func:`card_mask` accepts."""
        if isinstance(groups, str):
            raise NotationError(f"groups must be a sequence of card groups, got text {groups!r} (use parse)")
        try:
            items = list(groups)
        except TypeError:
            raise NotationError(f"groups must be a sequence of card groups, got {groups!r}") from None
        arrangement = cls(tuple(card_mask(g) for g in items))
        if deal is not None:
            arrangement.check(deal)
        return arrangement

    def check(self, deal: Deal) -> None:
        """Raise ``InvalidStateError`` unless this arrangement uses exactly the deal's cards."""
        if not isinstance(deal, Deal):
            raise InvalidStateError(f"deal must be a Deal, got {deal!r}")
        if len(self.masks) != deal.k:
            raise InvalidStateError(
                f"arrangement '{self}' has {len(self.masks)} groups, the deal needs {deal.k}"
            )
        used = self.mask
        if used != deal.mask:
            extra, missing = used & ~deal.mask, deal.mask & ~used
            why = []
            if extra:
                why.append(f"uses '{mask_cards(extra)}' not in the deal")
            if missing:
                why.append(f"leaves out '{mask_cards(missing)}'")
            raise InvalidStateError(f"arrangement '{self}' " + " and ".join(why))

    @property
    def k(self) -> int:
        """Number of groups."""
        return len(self.masks)

    @property
    def mask(self) -> int:
        """All cards used."""
        result = 0
        for m in self.masks:
            result |= m
        return result

    @property
    def groups(self) -> tuple[CardSet, ...]:
        """The groups as card sets, in reveal order."""
        return tuple(mask_cards(m) for m in self.masks)

    @keyword_options
    def strengths(self, *, kickers: Kickers = "seed") -> tuple[int, ...]:
        """Hand strengths of the groups, in reveal order."""
        return tuple(int(s) for s in evaluate_masks(np.array(self.masks, dtype=np.uint32), kickers=kickers))

    @keyword_options
    def values(self, *, kickers: Kickers = "seed") -> tuple[HandValue, ...]:
        """Hand values of the groups, in reveal order."""
        table = hand_values(kickers=kickers)
        return tuple(table[s] for s in self.strengths(kickers=kickers))

    def reordered(self, order: Sequence[int]) -> Arrangement:
        """The same groups revealed in another order: ``order[i]`` is the group shown ``i``-th."""
        try:
            if isinstance(order, (str, bytes, bytearray)):
                raise TypeError
            items = list(order)  # an iterator is read once
        except TypeError:
            raise InvalidStateError(f"order must be a sequence of group indices, got {order!r}") from None
        ints = all(isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_)) for i in items)
        if not ints or sorted(int(i) for i in items) != list(range(self.k)):
            raise InvalidStateError(f"order {items!r} is not a permutation of 0..{self.k - 1}")
        return Arrangement(tuple(self.masks[int(i)] for i in items))

    @keyword_options
    def pretty(self, *, kickers: Kickers = "seed") -> str:
        """One line per group: cards and hand value."""
        return "\n".join(
            f"{i + 1}. {_group_text(m)}  ({v})" for i, (m, v) in enumerate(zip(self.masks, self.values(kickers=kickers)))
        )

    @keyword_options
    def to_dict(self, *, kickers: Kickers = "seed") -> dict[str, object]:
        """JSON-ready form."""
        return {
            "text": str(self),
            "groups": [_group_text(m) for m in self.masks],
            "hands": [str(v) for v in self.values(kickers=kickers)],
        }

    def __str__(self) -> str:
        return " / ".join(_group_text(m) for m in self.masks)

    def __repr__(self) -> str:
        return f"Arrangement.parse('{self}')"


def _group_text(mask: int) -> str:
    # highest card first reads like a poker hand
    return " ".join(str(c) for c in reversed(mask_cards(mask).cards()))


ArrangementLike = Arrangement | str


def as_arrangement(value: ArrangementLike, deal: Deal | None = None) -> Arrangement:
    """Coerce text or an :class:`Arrangement`, checking it against ``deal`` if given."""
    if isinstance(value, Arrangement):
        if deal is not None:
            value.check(deal)
        return value
    if isinstance(value, str):
        return Arrangement.parse(value, deal)
    raise NotationError(f"not an arrangement: {value!r}")


def matched_pair(
    a: ArrangementLike, b: ArrangementLike, points: Sequence[float] | None, what: str = "arrangements"
) -> tuple[Arrangement, Arrangement, tuple[float, ...]]:
    """Coerce two arrangements of the same cards and their points vector (default for ``k``)."""
    a = as_arrangement(a)
    b = as_arrangement(b)
    if a.k != b.k:
        raise InvalidStateError(f"{what} have {a.k} and {b.k} groups: '{a}' vs '{b}'")
    if a.mask != b.mask:
        raise InvalidStateError(f"{what} are not made of the same cards: '{a}' vs '{b}'")
    return a, b, check_points(default_points(a.k) if points is None else points, a.k)


@keyword_options
def score(
    a: ArrangementLike,
    b: ArrangementLike,
    *, points: Sequence[float] | None = None,
    kickers: Kickers = "seed",
) -> tuple[float, float]:
    """Points of both players when arrangement ``a`` meets ``b``; ties split the points.

    ``points`` defaults to ``(3, 4, 5, 6, 7)`` for five groups (``3 .. k + 2`` for ``k``).
    Both arrangements must have as many groups as ``points`` has entries and be made
    of the same cards.
    """
    a, b, pts = matched_pair(a, b, points)
    first = second = 0.0
    for p, sa, sb in zip(pts, a.strengths(kickers=kickers), b.strengths(kickers=kickers)):
        if sa > sb:
            first += p
        elif sa < sb:
            second += p
        else:
            first += p / 2
            second += p / 2
    return first, second
