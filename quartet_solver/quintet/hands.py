"""Quintet hand evaluation: categories, hand values, single and batch evaluation.

Quintet ranks 5-card poker hands from the 32-card deck (7..A) with its own
hierarchy: a **flush beats a full house**, the ace also plays as a six
(``A-7-8-9-T`` is a straight with high card ``T``), and by default ties are broken
by the rules as written (two high-card hands compare only their highest
card; trips, full houses and quads compare only the rank of the set).  Under
these rules the 201,376 hands fall into exactly 296 strength classes; with
``kickers="full"`` (ordinary poker tie-breaks) into 840.

The rules as this package implements them, every ambiguity settled and every
option that changes them, are written out in ``docs/rules/quintet.md``.

>>> v = evaluate("Ah Kh Qh Jh Th")
>>> v.category, str(v)
(<Category.STRAIGHT_FLUSH: 8>, 'straight flush, A')
>>> evaluate("Ah Kh Jh 9h 8h") > evaluate("Ac Ad As Kc Kd")   # flush beats full house
True
>>> evaluate("As Kd 9c 8h 7s") == evaluate("Ac Qd Jh 8c 7d")   # high card: only the ace counts
True
>>> evaluate("As Kd 9c 8h 7s", kickers="full") > evaluate("Ac Qd Jh 8c 7d", kickers="full")
True

Card masks (the layout used by :func:`card_mask`, :func:`evaluate_masks` and the
solver): bit ``i`` stands for the card ``4 * r + s`` where ``r`` is the rank
counted from the seven (``7 = 0 .. A = 7``) and ``s`` the suit (``c d h s`` =
``0..3``); equivalently ``i = card.index - 20``
(:func:`quartet_solver.cards.piquet_bit`), the layout of every 32-card kernel.

Strengths are dense class numbers, ``0`` for the weakest class, larger =
stronger, equal = exact tie; they depend only on the rules and the tie-break
mode, so they are stable between runs and versions.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, cast

import numpy as np

from .. import _core
from ..cards import (PIQUET_OFFSET, Card, CardSet, CardsLike, Decks, Rank, _no_truth_value, as_cards, piquet_bit,
                     piquet_mask, piquet_set)
from ..deprecation import keyword_options
from ..errors import ArgumentError, InvalidStateError

__all__ = [
    "Category",
    "HandValue",
    "Kickers",
    "evaluate",
    "evaluate_mask",
    "evaluate_masks",
    "compare",
    "card_mask",
    "mask_cards",
    "hands_of",
    "strength_table",
    "hand_values",
    "DECK32_MASK",
    "N_HANDS",
]

Kickers = Literal["seed", "full"]
KICKER_MODES: tuple[str, ...] = ("seed", "full")

DECK32_MASK = 0xFFFFFFFF
"""Mask of the whole 32-card deck in the Quintet layout."""

N_HANDS = 201_376
"""Number of 5-card hands from 32 cards, C(32, 5)."""

_RANK32 = "789TJQKA"
_MODE_ID = {"seed": 0, "full": 1}


class Category(enum.IntEnum):
    """Hand categories in Quintet order (flush above full house).

    Like :class:`~quartet_solver.cards.Suit`, a category has no truth value
    (the high card is 0).
    """

    __bool__ = _no_truth_value

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FULL_HOUSE = 5
    FLUSH = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """Lower-case name as used in text: ``'full house'``."""
        return self.name.lower().replace("_", " ")


@dataclass(frozen=True, eq=False, slots=True)
class HandValue:
    """The value of a Quintet hand: ordered like the game, ``==`` means an exact tie.

    ``strength`` is the dense class number (larger = stronger), ``ranks`` the
    tie-break ranks that define the class, highest priority first, and
    ``kickers`` the tie-break mode.  Values of different modes do not compare.

    >>> v = evaluate("Ah Kh Jh 9h 8h")
    >>> v.category.label, v.ranks, v.strength
    ('flush', (<Rank.ACE: 12>, <Rank.KING: 11>, ...), 270)
    """

    strength: int
    category: Category
    ranks: tuple[Rank, ...]
    kickers: str = "seed"

    def __str__(self) -> str:
        return f"{self.category.label}, " + "-".join(r.char for r in self.ranks)

    def __repr__(self) -> str:
        extra = "" if self.kickers == "seed" else f", kickers={self.kickers!r}"
        return f"<HandValue {str(self)!r} strength={self.strength}{extra}>"

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "text": str(self),
            "category": self.category.name.lower(),
            "ranks": [r.char for r in self.ranks],
            "strength": self.strength,
            "kickers": self.kickers,
        }

    def _key(self, other: object) -> int:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare HandValue with {type(other).__name__}")
        if other.kickers != self.kickers:
            raise TypeError(
                f"cannot compare hand values of tie-break modes {self.kickers!r} and {other.kickers!r}"
            )
        return other.strength

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.kickers == other.kickers and self.strength == other.strength

    def __hash__(self) -> int:
        return hash((self.kickers, self.strength))

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < self._key(other)

    def __le__(self, other: HandValue) -> bool:
        return self.strength <= self._key(other)

    def __gt__(self, other: HandValue) -> bool:
        return self.strength > self._key(other)

    def __ge__(self, other: HandValue) -> bool:
        return self.strength >= self._key(other)


class _Tables:
    """Per-mode lookup: colex rank -> strength, and one HandValue per class."""

    def __init__(self, kickers: str) -> None:
        keys, _ = _core.quintet_all_keys(kickers == "full")
        classes, inverse = np.unique(keys, return_inverse=True)
        self.table: np.ndarray = inverse.astype(np.uint16)
        self.table.flags.writeable = False
        self.values: tuple[HandValue, ...] = tuple(
            _decode(int(key), strength, kickers) for strength, key in enumerate(classes)
        )


def _decode(key: int, strength: int, kickers: str) -> HandValue:
    category = Category(key >> 20)
    ranks = []
    for shift in (16, 12, 8, 4, 0):
        nibble = key >> shift & 0xF
        if nibble:
            ranks.append(Rank(nibble - 1 + Rank.SEVEN))
    return HandValue(strength, category, tuple(ranks), kickers)


_TABLE_CACHE: dict[str, _Tables] = {}


def _mode(kickers: str) -> _Tables:
    tables = _TABLE_CACHE.get(kickers) if isinstance(kickers, str) else None
    if tables is None:
        if not isinstance(kickers, str) or kickers not in KICKER_MODES:
            raise ArgumentError(f"kickers must be one of {KICKER_MODES}, got {kickers!r}")
        kickers = KICKER_MODES[KICKER_MODES.index(kickers)]  # a str subclass (np.str_): the plain str
        tables = _TABLE_CACHE[kickers] = _Tables(kickers)
        _core.quintet_register_mode(_MODE_ID[kickers], tables.table, tables.values, Card)
    return tables


@keyword_options
def strength_table(*, kickers: Kickers = "seed") -> np.ndarray:
    """The read-only ``uint16`` table: colex rank of a 5-card mask -> strength."""
    return _mode(kickers).table


@keyword_options
def hand_values(*, kickers: Kickers = "seed") -> tuple[HandValue, ...]:
    """Every strength class of a mode, weakest first (``hand_values()[s].strength == s``).

    >>> len(hand_values()), len(hand_values(kickers="full"))
    (296, 840)
    >>> str(hand_values()[-1])
    'straight flush, A'
    """
    return _mode(kickers).values


def card_mask(cards: CardsLike) -> int:
    """The 32-bit Quintet mask of distinct cards from the 32-card deck.

    >>> card_mask("7c"), card_mask("As"), hex(card_mask("7c 7d 7h 7s"))
    (1, 2147483648, '0xf')
    >>> card_mask("2c")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.InvalidStateError: card '2c' is not in the 32-card Quintet deck (7..A) in '2c'
    """
    if isinstance(cards, CardSet):
        outside = cards - Decks.piquet()
        if outside:
            raise InvalidStateError(
                f"cards '{outside}' are not in the 32-card Quintet deck (7..A) in '{cards}'"
            )
        return piquet_mask(cards)
    items = as_cards(cards, distinct=True, what="cards")
    mask = 0
    for card in items:
        if card.index < PIQUET_OFFSET:
            shown = cards if isinstance(cards, str) else " ".join(map(str, items))
            raise InvalidStateError(
                f"card '{card}' is not in the 32-card Quintet deck (7..A) in {shown!r}"
            )
        mask |= 1 << piquet_bit(card)
    return mask


def mask_cards(mask: int) -> CardSet:
    """The cards of a 32-bit Quintet mask (inverse of :func:`card_mask`).

    >>> mask_cards(card_mask("Ah Kd"))
    CardSet('Kd Ah')
    """
    if isinstance(mask, (bool, np.bool_)) or not isinstance(mask, (int, np.integer)):
        raise InvalidStateError(f"mask must be an int, got {mask!r}")
    mask = int(mask)
    if not 0 <= mask <= DECK32_MASK:
        raise InvalidStateError(f"Quintet mask must be in [0, 2**32), got {mask!r}")
    return piquet_set(mask)


def _hand_mask(cards: CardsLike) -> int:
    mask = card_mask(cards)
    n = mask.bit_count()
    if n != 5:
        shown = cards if isinstance(cards, str) else " ".join(map(str, as_cards(cards)))
        raise InvalidStateError(f"a Quintet hand has 5 cards, got {n}: {shown!r}")
    return mask


@keyword_options
def evaluate(cards: CardsLike, *, kickers: Kickers = "seed") -> HandValue:
    """The :class:`HandValue` of five distinct cards from the 32-card deck.

    Accepts card text, or a list/tuple/iterable of cards or card texts.

    >>> evaluate("Ah 7c 8d 9s Th")          # the ace plays as a six
    <HandValue 'straight, T' strength=219>
    >>> evaluate("Ah Kh Qh Jh")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.InvalidStateError: a Quintet hand has 5 cards, got 4: 'Ah Kh Qh Jh'
    """
    value = _core.quintet_lookup(cards, _MODE_ID.get(kickers, -1) if isinstance(kickers, str) else -1)
    if value is not None:
        return value
    tables = _mode(kickers)
    return tables.values[tables.table[_core.quintet_colex5(_hand_mask(cards))]]


@keyword_options
def evaluate_mask(mask: int, *, kickers: Kickers = "seed") -> int:
    """Strength of one 32-bit hand mask (five bits set).

    >>> evaluate_mask(card_mask("Ah Kh Qh Jh Th")) == len(hand_values()) - 1
    True
    """
    tables = _mode(kickers)
    if isinstance(mask, (bool, np.bool_)) or not isinstance(mask, (int, np.integer)):
        raise InvalidStateError(f"hand mask must be an int, got {mask!r}")
    if not 0 <= int(mask) <= DECK32_MASK or int(mask).bit_count() != 5:
        raise InvalidStateError(f"hand mask must be a 32-bit int with 5 bits set, got {mask!r}")
    return int(_core.quintet_eval_mask(int(mask), tables.table))


def _index_text(flat_index: int, shape: tuple[int, ...]) -> str:
    """The index of the entry at ``flat_index`` of an array of ``shape``, as
    text: ``3``, or ``(1, 2)`` for a 2-D array.

    >>> _index_text(5, (2, 3)), _index_text(5, (6,))
    ('(1, 2)', '5')
    """
    if len(shape) <= 1:
        return str(flat_index)
    return "(" + ", ".join(str(int(i)) for i in np.unravel_index(flat_index, shape)) + ")"


@keyword_options
def evaluate_masks(masks: Iterable[int] | np.ndarray, *, kickers: Kickers = "seed") -> np.ndarray:
    """Batch strengths of 32-bit hand masks; the result has the input's shape (int32).

    >>> m = [card_mask("Ah Kh Qh Jh Th"), card_mask("Ac Ad As Kc Kd")]
    >>> evaluate_masks(m).tolist() == [evaluate(c).strength for c in ("Ah Kh Qh Jh Th", "Ac Ad As Kc Kd")]
    True
    >>> evaluate_masks([0b111])
    Traceback (most recent call last):
    ...
    quartet_solver.errors.InvalidStateError: hand mask at index 0 has 3 cards, not 5: 7
    """
    tables = _mode(kickers)
    try:
        arr = np.asarray(masks)
    except ValueError:  # a ragged nesting of lists
        raise InvalidStateError(f"hand masks must be an array of integers, got {masks!r}") from None
    if arr.dtype == object or arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        if arr.size == 0:
            arr = arr.astype(np.uint32)
        else:
            raise InvalidStateError(f"hand masks must be integers, got dtype {arr.dtype}")
    shape = arr.shape
    flat = arr.ravel()
    if flat.dtype != np.uint32:
        if flat.size and (flat.min() < 0 or flat.max() > DECK32_MASK):
            where = int(np.flatnonzero((flat < 0) | (flat > DECK32_MASK))[0])
            raise InvalidStateError(
                f"hand mask at index {_index_text(where, shape)} is outside the 32-card layout: "
                f"{int(flat[where])}"
            )
        flat = flat.astype(np.uint32)
    flat = np.ascontiguousarray(flat)
    out = np.empty(flat.shape[0], dtype=np.int32)
    bad = _core.quintet_eval_masks(flat, tables.table, out)
    if bad >= 0:
        value = int(flat[bad])
        raise InvalidStateError(
            f"hand mask at index {_index_text(bad, shape)} has {value.bit_count()} cards, not 5: {value}"
        )
    return out.reshape(shape)


@keyword_options
def compare(a: CardsLike | HandValue, b: CardsLike | HandValue, *, kickers: Kickers = "seed") -> int:
    """``1`` if hand ``a`` beats ``b``, ``-1`` if it loses, ``0`` for an exact tie.

    >>> compare("Ah Kh Jh 9h 8h", "Ac Ad As Kc Kd")
    1
    >>> compare("As Kd 9c 8h 7s", "Ac Qd Jh 8c 7d")
    0

    A :class:`HandValue` keeps its own tie-break mode; values of two modes do not
    compare (:class:`~quartet_solver.errors.InvalidStateError`).
    """
    va = a if isinstance(a, HandValue) else evaluate(a, kickers=kickers)
    vb = b if isinstance(b, HandValue) else evaluate(b, kickers=kickers)
    if va.kickers != vb.kickers:
        raise InvalidStateError(
            f"cannot compare hand values of tie-break modes {va.kickers!r} and {vb.kickers!r}: {va!r} vs {vb!r}"
        )
    return (va > vb) - (va < vb)


@keyword_options
def hands_of(cards: CardsLike | int, *, kickers: Kickers = "seed") -> tuple[np.ndarray, np.ndarray]:
    """All 5-card subsets of a card set with their strengths, in one call.

    ``cards`` is anything :func:`card_mask` accepts, or a 32-bit mask.  Returns
    ``(masks, strengths)``: a ``uint32`` array of hand masks and an ``int32``
    array of strengths.

    >>> masks, strengths = hands_of("7c 8c 9c Tc Jc Qc")
    >>> len(masks), int(strengths.max()) == evaluate("8c 9c Tc Jc Qc").strength
    (6, True)
    """
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
        mask = int(cards)
        if not 0 <= mask <= DECK32_MASK:
            raise InvalidStateError(f"Quintet mask must be in [0, 2**32), got {cards!r}")
    else:
        mask = card_mask(cast(CardsLike, cards))    # a bool: card_mask raises
    masks = _core.quintet_subsets5(mask)
    return masks, evaluate_masks(masks, kickers=kickers)

