"""Quintet deals: the cards both players hold.

A standard deal is 25 cards of the 32-card deck (7..A): seven cards are removed
from both players' decks.  The library also supports the generalised game with
``k`` groups from ``5k`` cards (``k = 1 .. 6``), so small games can be checked
exhaustively.

>>> deal = Deal.from_removed("7c 7d 8h 9s Tc Jd Qh")
>>> deal.k, len(deal.cards), str(deal.removed)
(5, 25, '7c 7d 8h 9s Tc Jd Qh')
>>> Deal.random(seed=3) == Deal.random(seed=3)
True
>>> Deal.parse("Ah Kh Qh Jh Th 9c 9d 9h 9s 8c").k
2
"""

from __future__ import annotations

import math
import random as _random
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..cards import Card, CardSet, CardsLike, Decks, format_cards
from ..checks import check_seed
from ..deprecation import keyword_options
from ..errors import ArgumentError, InvalidStateError
from .hands import DECK32_MASK, Kickers, card_mask, hands_of, mask_cards

__all__ = ["Deal", "DEFAULT_POINTS", "default_points"]

DEFAULT_POINTS: tuple[int, ...] = (3, 4, 5, 6, 7)
"""Points of the five positions in the standard game."""

MAX_GROUPS = 6  # 6 groups use 30 of the 32 cards


def _check_k(k: object) -> int:
    """``k`` as an int in ``1 .. MAX_GROUPS`` (numpy integers too; not a bool)."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or not 1 <= k <= MAX_GROUPS:
        raise ArgumentError(f"k must be in 1..{MAX_GROUPS}, got {k!r}")
    return int(k)


def default_points(k: int) -> tuple[int, ...]:
    """Points for ``k`` groups: ``(3, 4, 5, 6, 7)`` for the standard game, else ``3 .. k + 2``.

    >>> default_points(5), default_points(3)
    ((3, 4, 5, 6, 7), (3, 4, 5))
    """
    return tuple(range(3, 3 + _check_k(k)))


@dataclass(frozen=True)
class Deal:
    """The ``5k`` cards both players hold (immutable, hashable).

    ``mask`` is the 32-bit Quintet mask (see :func:`quintet.card_mask
    <quartet_solver.quintet.hands.card_mask>`).
    """

    mask: int

    def __post_init__(self) -> None:
        if isinstance(self.mask, (bool, np.bool_)) or not isinstance(self.mask, (int, np.integer)):
            raise InvalidStateError(f"deal mask must be an int, got {self.mask!r}")
        object.__setattr__(self, "mask", int(self.mask))  # a numpy integer: a plain int
        if not 0 <= self.mask <= DECK32_MASK:
            raise InvalidStateError(f"deal mask must be in [0, 2**32), got {self.mask!r}")
        n = self.mask.bit_count()
        if n == 0 or n % 5 or n // 5 > MAX_GROUPS:
            raise InvalidStateError(
                f"a Quintet deal has 5k cards (k = 1..{MAX_GROUPS}), got {n}: '{mask_cards(self.mask)}'"
            )

    @classmethod
    def of(cls, deal: Deal | CardsLike) -> Deal:
        """``deal`` itself, or its cards (text or a card list) parsed: how every
        function that takes "a Deal or its text" reads that argument.

        >>> d = Deal.random(seed=1)
        >>> Deal.of(d) is d, Deal.of(str(d)) == d
        (True, True)
        """
        return deal if isinstance(deal, Deal) else cls.parse(deal)

    @classmethod
    def parse(cls, cards: CardsLike) -> Deal:
        """A deal from its cards (text or cards): 25 for the standard game, ``5k`` in general."""
        return cls(card_mask(cards))

    @classmethod
    @keyword_options
    def from_removed(cls, removed: CardsLike, *, k: int = 5) -> Deal:
        """The deal left after removing ``32 - 5k`` cards (7 in the standard game)."""
        k = _check_k(k)
        gone = card_mask(removed)
        need = 32 - 5 * k
        if gone.bit_count() != need:
            raise InvalidStateError(
                f"a {k}-group deal removes {need} cards, got {gone.bit_count()}: '{mask_cards(gone)}'"
            )
        return cls(DECK32_MASK & ~gone)

    @classmethod
    @keyword_options
    def random(cls, seed: int | str | None = None, *, k: int = 5) -> Deal:
        """A uniformly random deal of ``5k`` cards; deterministic for a given seed
        (an int, numpy integers too, or a string)."""
        k = _check_k(k)
        chosen = _random.Random(check_seed(seed)).sample(range(32), 5 * k)
        return cls(sum(1 << i for i in chosen))

    @property
    def k(self) -> int:
        """Number of groups (5 in the standard game)."""
        return self.mask.bit_count() // 5

    @property
    def cards(self) -> CardSet:
        """The cards of the deal."""
        return mask_cards(self.mask)

    @property
    def removed(self) -> CardSet:
        """The cards of the 32-card deck not in the deal."""
        return Decks.piquet() - self.cards

    def card_list(self) -> list[Card]:
        """The cards in canonical order."""
        return list(self.cards)

    @keyword_options
    def hands(self, *, kickers: Kickers = "seed") -> tuple[np.ndarray, np.ndarray]:
        """All 5-card hands of the deal: ``(masks, strengths)``."""
        return hands_of(self.mask, kickers=kickers)

    def default_points(self) -> tuple[int, ...]:
        """The points of the positions for this deal's ``k``."""
        return default_points(self.k)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"cards": str(self), "removed": str(self.removed), "k": self.k}

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Deal.parse('{self}')"


def check_points(points: object, k: int) -> tuple[float, ...]:
    """Validate a points vector for ``k`` groups (finite numbers >= 0, with a finite sum).

    Text, bytes, mappings and sets are not sequences of numbers here (``"345"``
    would otherwise read as ``(3, 4, 5)``, and a set has no order), nor are bools
    or strings as entries.

    >>> check_points("345", 3)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: points must be a sequence of numbers, got '345'
    """
    try:
        if isinstance(points, (str, bytes, bytearray, Mapping, AbstractSet)):
            raise TypeError
        items = tuple(cast(Iterable[Any], points))  # not iterable: TypeError
        if any(isinstance(p, (bool, np.bool_, str, bytes, bytearray)) for p in items):
            raise TypeError
        values = tuple(float(p) for p in items)  # an int beyond the floats: OverflowError
    except (TypeError, ValueError, OverflowError):
        raise ArgumentError(f"points must be a sequence of numbers, got {points!r}") from None
    if len(values) != k:
        raise ArgumentError(f"points {points!r} has {len(values)} entries for a {k}-group game")
    if any(not np.isfinite(p) or p < 0 for p in values):
        raise ArgumentError(f"points must be finite and >= 0, got {points!r}")
    if not math.isfinite(sum(values)):
        raise ArgumentError(f"points must have a finite sum, got {points!r}")
    return values
