"""Cards, card sets and card text, shared by all three games.

A :class:`Card` is an immutable value with a dense index ``0..51`` (rank-major:
``index = 4 * rank + suit``, ranks ``2 .. A`` = ``0 .. 12``, suits ``c d h s`` =
``0 .. 3``).  The 32-card deck (ranks 7..A) is the contiguous index range
``20..51``.  A :class:`CardSet` is a set of cards backed by a 64-bit mask whose bit
``i`` stands for the card with index ``i``.

Card text is rank then suit: ``"Th"``, ``"7c"``, ``"As"``.  Parsing also accepts
``"10h"``, upper or lower case and the suit symbols ``♣ ♦ ♥ ♠``; cards in a string
are separated by spaces and/or commas.

>>> Card.parse("10♥")
Card('Th')
>>> parse_cards("Ah, kd 7C")
[Card('Ah'), Card('Kd'), Card('7c')]
>>> hand = CardSet("Ah Kh Qh")
>>> len(hand), Card("Kh") in hand
(3, True)
>>> hand | CardSet("Jh")
CardSet('Jh Qh Kh Ah')

Rank order for play belongs to each game's rules; the order of :class:`Rank` and
the card index is only the natural, canonical order used for sorting and display.
"""

from __future__ import annotations

import enum
import random as _random
import re
import warnings
from collections.abc import Iterable, Iterator
from typing import TypeVar, Union

from . import _core
from .checks import as_int, check_seed
from .errors import ArgumentError, InvalidStateError, NotationError

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "CardSet",
    "Decks",
    "CardsLike",
    "parse_cards",
    "as_cards",
    "as_card",
    "format_cards",
    "CardMap",
    "PIQUET_OFFSET",
    "piquet_bit",
    "piquet_card",
    "piquet_mask",
    "piquet_set",
]

_RANK_CHARS = "23456789TJQKA"
_SUIT_CHARS = "cdhs"
_SUIT_SYMBOLS = "♣♦♥♠"
_SUIT_BY_TEXT = {
    **{c: i for i, c in enumerate(_SUIT_CHARS)},
    **{c.upper(): i for i, c in enumerate(_SUIT_CHARS)},
    **{c: i for i, c in enumerate(_SUIT_SYMBOLS)},
    # the white (outline) symbols are common in fonts and copied text
    **{c: i for i, c in enumerate("♧♢♡♤")},
}
_RANK_BY_TEXT = {
    **{c: i for i, c in enumerate(_RANK_CHARS)},
    **{c.lower(): i for i, c in enumerate(_RANK_CHARS) if c.isalpha()},
    "10": 8,
}
_SEPARATORS = re.compile(r"[\s,]+")
# emoji presentation selector after a suit symbol ("♠️")
_VARIATION_SELECTOR = "\ufe0f"


def _no_truth_value(self: enum.IntEnum) -> bool:
    """The truth test of the library's int enums: refused.

    Clubs, the two and the high card are 0 as ints, so ``if suit:`` would read
    clubs as "no suit"; a suit, rank or category is compared with ``None``
    instead (``if suit is None``).
    """
    raise TypeError(f"{type(self).__name__}.{self.name} has no truth value: "
                    f"test 'is None' / 'is not None' instead")


class Suit(enum.IntEnum):
    """The four suits, in the canonical order clubs, diamonds, hearts, spades.

    >>> Suit.parse("♥"), Suit.HEARTS.char, Suit.HEARTS.symbol
    (<Suit.HEARTS: 2>, 'h', '♥')

    A suit has no truth value (clubs is 0): test ``suit is None``.

    >>> bool(Suit.CLUBS)
    Traceback (most recent call last):
    ...
    TypeError: Suit.CLUBS has no truth value: test 'is None' / 'is not None' instead
    """

    __bool__ = _no_truth_value

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The one-letter text of the suit: ``c d h s``."""
        return _SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit symbol ``♣ ♦ ♥ ♠``."""
        return _SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``c d h s`` (any case) or a suit symbol."""
        if not isinstance(text, str):
            raise NotationError(f"suit must be text, got {text!r}")
        key = text.strip().replace(_VARIATION_SELECTOR, "")
        if key not in _SUIT_BY_TEXT:
            raise NotationError(f"unknown suit {text!r}")
        return cls(_SUIT_BY_TEXT[key])

    def __str__(self) -> str:
        return self.char


class Rank(enum.IntEnum):
    """The thirteen ranks in natural order, ``TWO = 0`` .. ``ACE = 12``.

    >>> Rank.parse("10"), Rank.TEN.char
    (<Rank.TEN: 8>, 'T')

    Like :class:`Suit`, a rank has no truth value (the two is 0).
    """

    __bool__ = _no_truth_value

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """The one-character text of the rank: ``2..9 T J Q K A``."""
        return _RANK_CHARS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``2..9``, ``T``/``10``, ``J Q K A`` (any case)."""
        if not isinstance(text, str):
            raise NotationError(f"rank must be text, got {text!r}")
        key = text.strip()
        if key not in _RANK_BY_TEXT:
            raise NotationError(f"unknown rank {text!r}")
        return cls(_RANK_BY_TEXT[key])

    def __str__(self) -> str:
        return self.char


class Card:
    """One playing card: an immutable, hashable value with a dense index.

    ``Card("Th")`` parses text; ``Card(Rank.TEN, Suit.HEARTS)`` builds from parts.
    There is exactly one object per card, so cards compare and hash by identity
    cheaply; ``sorted`` uses the canonical index order (rank-major).

    >>> c = Card("10h")
    >>> c, str(c), c.rank, c.suit, c.index
    (Card('Th'), 'Th', <Rank.TEN: 8>, <Suit.HEARTS: 2>, 34)
    >>> Card(Rank.ACE, Suit.SPADES) is Card("As")
    True
    >>> Card.from_index(51)
    Card('As')
    """

    __slots__ = ("_index",)
    _index: int
    _ALL: tuple[Card, ...] = ()

    def __new__(cls, text_or_rank: str | Rank | int | Card, suit: Suit | int | None = None) -> Card:
        if suit is None:
            if isinstance(text_or_rank, Card):
                return text_or_rank
            if not isinstance(text_or_rank, str):
                raise NotationError(
                    f"Card() takes card text or (rank, suit), got {text_or_rank!r}"
                )
            return cls.parse(text_or_rank)
        if isinstance(text_or_rank, str):
            rank = Rank.parse(text_or_rank)
        else:
            rank = _checked_enum(Rank, text_or_rank, "rank")
        if isinstance(suit, str):
            suit_value = Suit.parse(suit)
        else:
            suit_value = _checked_enum(Suit, suit, "suit")
        return cls._ALL[4 * rank + suit_value]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "_index", index)
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with dense index ``index`` (``0..51``)."""
        i = as_int(index)
        if i is None or not 0 <= i < 52:
            raise ArgumentError(f"card index must be an int in 0..51, got {index!r}")
        return cls._ALL[i]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``"Th"``, ``"10h"``, ``"TH"``, ``"t♥"``.

        >>> Card.parse("qS")
        Card('Qs')
        """
        if not isinstance(text, str):
            raise NotationError(f"card text must be a string, got {text!r}")
        token = text.strip().replace(_VARIATION_SELECTOR, "")
        if not token:
            raise NotationError(f"empty card text {text!r}")
        if len(token) < 2:
            raise NotationError(f"card {text!r} needs a rank and a suit")
        rank_text, suit_text = token[:-1], token[-1]
        if rank_text not in _RANK_BY_TEXT:
            raise NotationError(f"unknown rank {rank_text!r} in card {text!r}")
        if suit_text not in _SUIT_BY_TEXT:
            raise NotationError(f"unknown suit {suit_text!r} in card {text!r}")
        return cls._ALL[4 * _RANK_BY_TEXT[rank_text] + _SUIT_BY_TEXT[suit_text]]

    @property
    def index(self) -> int:
        """Dense index ``4 * rank + suit`` in ``0..51``."""
        return self._index

    @property
    def rank(self) -> Rank:
        """The rank of the card."""
        return Rank(self._index >> 2)

    @property
    def suit(self) -> Suit:
        """The suit of the card."""
        return Suit(self._index & 3)

    @property
    def mask(self) -> int:
        """The one-bit mask ``1 << index``."""
        return 1 << self._index

    def pretty(self) -> str:
        """Rank and suit symbol, e.g. ``'T♥'``."""
        return _RANK_CHARS[self._index >> 2] + _SUIT_SYMBOLS[self._index & 3]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self._index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return _RANK_CHARS[self._index >> 2] + _SUIT_CHARS[self._index & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __hash__(self) -> int:
        return self._index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index < other._index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index <= other._index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index > other._index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index >= other._index


Card._ALL = tuple(Card._make(i) for i in range(52))


_E = TypeVar("_E", bound=enum.IntEnum)


def _checked_enum(enum_type: type[_E], value: object, what: str) -> _E:
    i = as_int(value)
    if i is None:
        raise NotationError(f"{what} must be a {enum_type.__name__} or int, got {value!r}")
    try:
        return enum_type(i)
    except ValueError:
        raise NotationError(f"no {what} with value {value!r}") from None


CardsLike = Union[str, Card, "CardSet", Iterable[Union[str, Card]]]
"""Anything a function taking cards accepts: text, a card, a card set, or an
iterable of cards and/or card texts."""


def parse_cards(text: str, *, allow_empty: bool = False) -> list[Card]:
    """Parse a list of cards separated by spaces and/or commas, keeping order.

    Duplicates are kept (use :class:`CardSet` or :func:`as_cards` with
    ``distinct=True`` where a set is required).  Empty text raises
    :class:`~quartet_solver.errors.NotationError` unless ``allow_empty``.

    >>> parse_cards("10h, A♠ 7c")
    [Card('Th'), Card('As'), Card('7c')]
    >>> parse_cards("")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.NotationError: no cards in ''
    """
    if not isinstance(text, str):
        raise NotationError(f"card list must be a string, got {text!r}")
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if not tokens and not allow_empty:
        raise NotationError(f"no cards in {text!r}")
    cards = []
    for token in tokens:
        try:
            cards.append(Card.parse(token))
        except NotationError as exc:
            raise NotationError(f"{exc} (in {text!r})") from None
    return cards


def as_cards(cards: CardsLike, *, distinct: bool = False, what: str = "cards") -> list[Card]:
    """Coerce text, a card, a card set or an iterable of cards/texts to a list.

    With ``distinct=True`` a repeated card raises
    :class:`~quartet_solver.errors.NotationError` naming it; ``what`` names the
    input in messages.

    >>> as_cards(["Ah", Card("Kd")])
    [Card('Ah'), Card('Kd')]
    >>> as_cards("Ah Kd ah", distinct=True, what="hand")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.NotationError: duplicate card 'Ah' in hand 'Ah Kd ah'
    """
    if isinstance(cards, str):
        result = parse_cards(cards, allow_empty=True)
        shown = cards
    elif isinstance(cards, Card):
        return [cards]
    elif isinstance(cards, CardSet):
        return list(cards)
    else:
        try:
            items = list(cards)
        except TypeError:
            raise NotationError(f"{what} must be card text or an iterable of cards, got {cards!r}") from None
        result = []
        for item in items:
            if isinstance(item, Card):
                result.append(item)
            elif isinstance(item, str):
                result.append(Card.parse(item))
            else:
                raise NotationError(f"not a card: {item!r} in {what} {items!r}")
        shown = " ".join(str(c) for c in result)
    if distinct:
        seen: set[Card] = set()
        for card in result:
            if card in seen:
                raise NotationError(f"duplicate card '{card}' in {what} {shown!r}")
            seen.add(card)
    return result


def as_card(card: str | Card) -> Card:
    """Coerce text or a card to a :class:`Card`.

    >>> as_card("10d")
    Card('Td')
    """
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise NotationError(f"not a card: {card!r}")


_V = TypeVar("_V")


class CardMap(dict[Card, _V]):
    """A dict keyed by :class:`Card` whose lookups also take card text: the
    keys stay cards, ``m["Qh"]`` is ``m[Card("Qh")]``.

    >>> m = CardMap({Card("Qh"): 3})
    >>> m["Qh"], m["10h"] if "Th" in m else None, m.get("qh"), list(m)
    (3, None, 3, [Card('Qh')])
    >>> m["Qh "] = 4
    >>> m
    CardMap({Card('Qh'): 4})
    """

    __slots__ = ()

    def __init__(self, items: object = (), /) -> None:
        pairs = items.items() if isinstance(items, dict) else items
        super().__init__((as_card(k), v) for k, v in pairs)  # type: ignore[attr-defined]

    @staticmethod
    def _key(key: object) -> object:
        return Card.parse(key) if isinstance(key, str) else key

    def __getitem__(self, key: object) -> _V:
        return super().__getitem__(self._key(key))  # type: ignore[index]

    def __setitem__(self, key: object, value: _V) -> None:
        super().__setitem__(as_card(key), value)  # type: ignore[arg-type]

    def __delitem__(self, key: object) -> None:
        super().__delitem__(self._key(key))  # type: ignore[arg-type]

    def __contains__(self, key: object) -> bool:
        try:
            return super().__contains__(self._key(key))
        except NotationError:
            return False

    def get(self, key: object, default: object = None) -> object:  # type: ignore[override]
        try:
            return super().get(self._key(key), default)  # type: ignore[call-overload]
        except NotationError:
            return default

    def __repr__(self) -> str:
        return f"CardMap({dict.__repr__(self)})"


def format_cards(cards: CardsLike, sep: str = " ") -> str:
    """Canonical text of a sequence of cards (Card objects or card text), in the
    given order.

    >>> format_cards([Card("Ah"), Card("7c")])
    'Ah 7c'
    """
    return sep.join(str(c) for c in as_cards(cards))


def _renamed(old: str, new: str) -> None:
    warnings.warn(f"CardSet.{old} is deprecated: a CardSet never changes and {old} returned a new set, "
                  f"which is easy to drop; use hand = hand.{new}", DeprecationWarning, stacklevel=3)


class CardSet:
    """An immutable set of cards backed by a 64-bit mask (bit ``i`` = card index ``i``).

    Supports the set algebra of ``frozenset`` (``| & - ^``, comparisons for
    subset/superset), ``len``, ``in``, iteration in canonical index order, ``int``
    and hashing.  Constructed from anything :func:`as_cards` accepts; repeated
    cards are an error.

    >>> a = CardSet("Ah Kh 7c")
    >>> b = CardSet(["Kh", "Qs"])
    >>> a & b, a - b, len(a | b)
    (CardSet('Kh'), CardSet('7c Ah'), 4)
    >>> CardSet.from_mask(int(a)) == a
    True
    >>> CardSet("Ah") <= a
    True
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: CardsLike | None = None) -> None:
        mask = 0
        if cards is not None:
            if isinstance(cards, CardSet):
                mask = cards._mask
            else:
                for card in as_cards(cards, distinct=True, what="card set"):
                    mask |= 1 << card._index
        object.__setattr__(self, "_mask", mask)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """The set whose bit ``i`` is set for every card index ``i``."""
        m = as_int(mask)
        if m is None or not 0 <= m < (1 << 52):
            raise ArgumentError(f"card mask must be an int in [0, 2**52), got {mask!r}")
        result = object.__new__(cls)
        object.__setattr__(result, "_mask", m)
        return result

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse card text into a set; repeated cards raise ``NotationError``."""
        if not isinstance(text, str):
            raise NotationError(f"card set text must be a string, got {text!r}")
        return cls(text)

    @property
    def mask(self) -> int:
        """The 64-bit mask (same as ``int(self)``)."""
        return self._mask

    def cards(self) -> list[Card]:
        """The cards in canonical index order."""
        return [Card._ALL[i] for i in _core.bit_indices(self._mask)]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __len__(self) -> int:
        return _core.popcount(self._mask)

    def __bool__(self) -> bool:
        return self._mask != 0

    def __int__(self) -> int:
        return self._mask

    def __index__(self) -> int:
        return self._mask

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        if not isinstance(card, Card):
            return False
        return bool(self._mask >> card._index & 1)

    def __hash__(self) -> int:
        return hash(("CardSet", self._mask))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self._mask == other._mask

    def _other_mask(self, other: object) -> int | None:
        if isinstance(other, CardSet):
            return other._mask
        if isinstance(other, Card):
            return 1 << other._index
        return None

    def __or__(self, other: CardSet | Card) -> CardSet:
        m = self._other_mask(other)
        return NotImplemented if m is None else CardSet.from_mask(self._mask | m)

    def __and__(self, other: CardSet | Card) -> CardSet:
        m = self._other_mask(other)
        return NotImplemented if m is None else CardSet.from_mask(self._mask & m)

    def __sub__(self, other: CardSet | Card) -> CardSet:
        m = self._other_mask(other)
        return NotImplemented if m is None else CardSet.from_mask(self._mask & ~m)

    def __xor__(self, other: CardSet | Card) -> CardSet:
        m = self._other_mask(other)
        return NotImplemented if m is None else CardSet.from_mask(self._mask ^ m)

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __le__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self._mask & ~other._mask == 0

    def __lt__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self._mask != other._mask and self._mask & ~other._mask == 0

    def __ge__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return other._mask & ~self._mask == 0

    def __gt__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self._mask != other._mask and other._mask & ~self._mask == 0

    def union(self, *others: CardsLike) -> CardSet:
        """Cards in this set or any of ``others``."""
        mask = self._mask
        for other in others:
            mask |= CardSet(other)._mask
        return CardSet.from_mask(mask)

    def intersection(self, *others: CardsLike) -> CardSet:
        """Cards in this set and in every one of ``others``."""
        mask = self._mask
        for other in others:
            mask &= CardSet(other)._mask
        return CardSet.from_mask(mask)

    def difference(self, *others: CardsLike) -> CardSet:
        """Cards in this set and in none of ``others``."""
        mask = self._mask
        for other in others:
            mask &= ~CardSet(other)._mask
        return CardSet.from_mask(mask)

    def symmetric_difference(self, other: CardsLike) -> CardSet:
        """Cards in exactly one of the two sets."""
        return CardSet.from_mask(self._mask ^ CardSet(other)._mask)

    def issubset(self, other: CardsLike) -> bool:
        """True when every card of this set is in ``other``."""
        return self <= CardSet(other)

    def issuperset(self, other: CardsLike) -> bool:
        """True when every card of ``other`` is in this set."""
        return self >= CardSet(other)

    def isdisjoint(self, other: CardsLike) -> bool:
        """True when the sets share no card."""
        return self._mask & CardSet(other)._mask == 0

    def with_card(self, card: str | Card) -> CardSet:
        """A new set with ``card`` added (a CardSet never changes).

        >>> hand = CardSet("Ah")
        >>> hand.with_card("Kh"), hand
        (CardSet('Kh Ah'), CardSet('Ah'))
        """
        return CardSet.from_mask(self._mask | 1 << as_card(card)._index)

    def without_card(self, card: str | Card, *, missing_ok: bool = False) -> CardSet:
        """A new set without ``card``; a card not in the set raises
        ``InvalidStateError`` unless ``missing_ok``.

        >>> CardSet("Ah Kh").without_card("Kh")
        CardSet('Ah')
        >>> CardSet("Ah").without_card("Kh", missing_ok=True)
        CardSet('Ah')
        """
        c = as_card(card)
        if not missing_ok and not self._mask >> c._index & 1:
            raise InvalidStateError(f"card '{c}' is not in {self!r}")
        return CardSet.from_mask(self._mask & ~(1 << c._index))

    def add(self, card: str | Card) -> CardSet:
        """Deprecated: :meth:`with_card` (the name ``add`` reads as if the set changed)."""
        _renamed("add", "with_card(card)")
        return self.with_card(card)

    def remove(self, card: str | Card) -> CardSet:
        """Deprecated: :meth:`without_card`."""
        _renamed("remove", "without_card(card)")
        return self.without_card(card)

    def discard(self, card: str | Card) -> CardSet:
        """Deprecated: ``without_card(card, missing_ok=True)``."""
        _renamed("discard", "without_card(card, missing_ok=True)")
        return self.without_card(card, missing_ok=True)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (CardSet.from_mask, (self._mask,))

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"CardSet('{self}')"


class Decks:
    """The standard decks: the 32-card (7..A) deck of Quintet and Klaverjas and
    the 52-card deck.  (A Kwartet deck of quartets is ``kwartet.Deck``.)

    >>> len(Decks.piquet()), len(Decks.full())
    (32, 52)
    >>> str(Decks.piquet().cards()[0])
    '7c'
    >>> Decks.shuffled(Decks.piquet(), seed=1) == Decks.shuffled(Decks.piquet(), seed=1)
    True
    """

    PIQUET_MASK = ((1 << 32) - 1) << 20
    FULL_MASK = (1 << 52) - 1

    @staticmethod
    def piquet() -> CardSet:
        """The 32-card deck, ranks 7 8 9 T J Q K A (Quintet, Klaverjas)."""
        return CardSet.from_mask(Decks.PIQUET_MASK)

    @staticmethod
    def full() -> CardSet:
        """The 52-card deck, ranks 2..A."""
        return CardSet.from_mask(Decks.FULL_MASK)

    @staticmethod
    def of_ranks(ranks: str | Iterable[Rank]) -> CardSet:
        """All four suits of the given ranks, e.g. ``Decks.of_ranks("AKQJ")``."""
        if isinstance(ranks, str):
            text = _SEPARATORS.sub("", ranks).replace("10", "T")
            parsed = [Rank.parse(ch) for ch in text]
        else:
            try:
                items = list(ranks)
            except TypeError:
                raise NotationError(f"ranks must be text or an iterable of ranks, got {ranks!r}") from None
            parsed = [_checked_enum(Rank, r, "rank") for r in items]
        mask = 0
        for rank in parsed:
            mask |= 0xF << (4 * rank)
        return CardSet.from_mask(mask)

    @staticmethod
    def shuffled(deck: CardsLike, seed: int | str | None = None) -> list[Card]:
        """The cards of ``deck`` in a random order; deterministic for a given seed
        (:func:`check_seed`)."""
        seed = check_seed(seed)
        cards = as_cards(deck, distinct=True, what="deck")
        _random.Random(seed).shuffle(cards)
        return cards


# -- the 32-card bit layout of the kernels -------------------------------------------

PIQUET_OFFSET = 20
"""The card index of the 32-card deck's lowest card (7c): the Quintet and
Klaverjas kernels number that deck's cards ``0..31``, bit ``card.index - 20``
(rank-major from 7c to As), so a 32-card mask fits 32 bits."""


def piquet_bit(card: Card) -> int:
    """The kernels' bit of a card of the 32-card deck.

    >>> piquet_bit(Card("7c")), piquet_bit(Card("As"))
    (0, 31)
    """
    return card._index - PIQUET_OFFSET


def piquet_card(bit: int) -> Card:
    """The card of a kernel bit ``0..31``.

    >>> piquet_card(31)
    Card('As')
    """
    index = as_int(bit)
    if index is None or not 0 <= index < 32:
        raise ArgumentError(f"a piquet bit must be an int in 0..31, got {bit!r}")
    return Card._ALL[index + PIQUET_OFFSET]


def piquet_mask(cards: CardSet) -> int:
    """The kernels' 32-bit mask of cards of the 32-card deck.

    >>> piquet_mask(CardSet("7c 8c")), piquet_mask(Decks.piquet()) == 2**32 - 1
    (17, True)
    """
    return cards._mask >> PIQUET_OFFSET


def piquet_set(mask: int) -> CardSet:
    """The cards of a kernel mask (the inverse of :func:`piquet_mask`).

    >>> piquet_set(17)
    CardSet('7c 8c')
    """
    return CardSet.from_mask(mask << PIQUET_OFFSET)


def __getattr__(name: str) -> object:
    if name == "Deck":
        warnings.warn("quartet_solver.cards.Deck is now Decks (kwartet.Deck is a Kwartet deck of quartets)",
                      DeprecationWarning, stacklevel=2)
        return Decks
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
