"""Kwartet decks: quartets of four named cards.

A :class:`Deck` is an ordered tuple of :class:`Quartet` values.  Card ``i`` of
the deck (its dense index, ``0 .. 4q - 1``) is member ``i % 4`` of quartet
``i // 4``; card sets are bitmasks over these indices (bit ``i`` = card ``i``).

Three kinds of decks:

* standard-deck Kwartet (:meth:`Deck.standard`): one quartet per rank, its
  members are the four suits; cards are asked in card notation, ``"7h"``;
* the built-in themed decks of 32, 40 and 48 cards (:meth:`Deck.themed`);
* themed decks loaded from a JSON or TOML file (:meth:`Deck.from_file`).

>>> deck = Deck.standard(ranks="AKQJ")
>>> len(deck), deck.quartet_names
(16, ('J', 'Q', 'K', 'A'))
>>> deck.card("Kh"), deck.card_name(9)
(10, 'Kd')
>>> classic = Deck.themed("classic")
>>> len(classic), classic.quartets[0].name, classic.card_name(0)
(32, 'Dutch painters', 'Rembrandt')
>>> classic.card("vermeer"), classic.card("Composers: Bach")
(1, 4)
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union, cast

from ..cards import Card, Rank, Suit
from ..checks import as_int
from ..deprecation import keyword_options
from ..errors import InvalidStateError, NotationError

__all__ = ["Quartet", "Deck", "THEMED_DECKS", "CardLike", "QuartetLike"]

CardLike = Union[int, str, Card]
"""A card of a Kwartet deck: its index, its name (or card text for standard
decks), ``"Quartet: Card"``, or a :class:`~quartet_solver.cards.Card`."""

QuartetLike = Union[int, str]
"""A quartet: its index or its name (the rank, ``"K"``, for standard decks)."""

MAX_QUARTETS = 13  # card sets are 64-bit masks; 13 quartets = 52 cards
MIN_QUARTETS = 2


@dataclass(frozen=True)
class Quartet:
    """One quartet: a name and its four card names.

    >>> Quartet("Planets", ("Mercury", "Venus", "Mars", "Jupiter")).to_dict()
    {'name': 'Planets', 'cards': ['Mercury', 'Venus', 'Mars', 'Jupiter']}
    """

    name: str
    cards: tuple[str, str, str, str]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidStateError(f"a quartet name must be non-empty text, got {self.name!r}")
        object.__setattr__(self, "name", self.name.strip())
        # a set or a table has no card order (a set's changes from run to run)
        if isinstance(self.cards, (str, bytes, Mapping, Set)) or not isinstance(self.cards, Iterable):
            raise InvalidStateError(f"quartet {self.name!r}: cards must be a list of 4 names, got {self.cards!r}")
        cards = tuple(itertools.islice(self.cards, 5))  # a fifth card is already too many
        if len(cards) != 4:
            got = len(cards) if len(cards) < 5 else "more than 4"
            raise InvalidStateError(f"quartet {self.name!r} must have exactly 4 cards, got {got}: {cards!r}")
        for c in cards:
            if not isinstance(c, str) or not c.strip():
                raise InvalidStateError(f"quartet {self.name!r}: card names must be non-empty text, got {c!r}")
        cards = tuple(c.strip() for c in cards)
        if len({_key(c) for c in cards}) != 4:  # the names the deck looks cards up by
            raise InvalidStateError(f"quartet {self.name!r} repeats a card name: {cards!r}")
        object.__setattr__(self, "cards", cards)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form ``{"name": ..., "cards": [...]}``."""
        return {"name": self.name, "cards": list(self.cards)}


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


class Deck:
    """An immutable Kwartet deck: ``q`` quartets (2..13) of four named cards.

    Build one with :meth:`standard`, :meth:`themed`, :meth:`from_dict` or
    :meth:`from_file`.  ``len(deck)`` is the number of cards.

    >>> deck = Deck.themed(40)
    >>> deck.name, len(deck), deck.n_quartets
    ('nature', 40, 10)
    >>> deck.quartet_of(deck.card("Stork")), deck.quartet("trees")
    (0, 1)
    """

    __slots__ = ("_name", "_quartets", "_standard", "_card_index", "_quartet_index", "_names")

    def __init__(self, quartets: Sequence[Quartet], name: str = "custom", *, _standard: tuple[int, ...] | None = None):
        if isinstance(quartets, (str, bytes, Mapping, Set)) or not isinstance(quartets, Iterable):
            raise InvalidStateError(f"a deck needs a list of quartets, got {quartets!r}")
        qs = tuple(itertools.islice(quartets, MAX_QUARTETS + 1))
        for q in qs:
            if not isinstance(q, Quartet):
                raise InvalidStateError(f"not a Quartet: {q!r} in deck {name!r}")
        if not MIN_QUARTETS <= len(qs) <= MAX_QUARTETS:
            got = len(qs) if len(qs) <= MAX_QUARTETS else f"more than {MAX_QUARTETS}"
            raise InvalidStateError(
                f"deck {name!r} must have {MIN_QUARTETS}..{MAX_QUARTETS} quartets, got {got}"
            )
        quartet_index: dict[str, int] = {}
        for qi, q in enumerate(qs):
            k = _key(q.name)
            if k in quartet_index:
                raise InvalidStateError(f"deck {name!r} repeats the quartet name {q.name!r}")
            quartet_index[k] = qi
        full_index: dict[str, int] = {}  # "Quartet: Card" names every card
        plain_index: dict[str, int] = {}
        ambiguous: set[str] = set()
        for qi, q in enumerate(qs):
            for j, c in enumerate(q.cards):
                idx = 4 * qi + j
                k = _key(f"{q.name}: {c}")
                if k in full_index:  # e.g. quartet "A" card "B: c" and quartet "A: B" card "c"
                    other = full_index[k]
                    raise InvalidStateError(
                        f"deck {name!r}: cards {qs[other // 4].cards[other % 4]!r} of quartet "
                        f"{qs[other // 4].name!r} and {c!r} of quartet {q.name!r} share the full name {k!r}"
                    )
                full_index[k] = idx
                k = _key(c)
                if k in plain_index:
                    ambiguous.add(k)
                plain_index.setdefault(k, idx)
        for k in ambiguous:
            del plain_index[k]  # only "Quartet: Card" names these cards
        card_index = {**plain_index, **full_index}  # a full name wins over a card named like it
        self._name = str(name)
        self._quartets = qs
        self._standard = _standard
        self._card_index = card_index
        self._quartet_index = quartet_index
        self._names = tuple(c for q in qs for c in q.cards)

    # -- construction ------------------------------------------------------------

    @classmethod
    def standard(cls, ranks: str | Iterable[Rank | int] = "23456789TJQKA") -> Deck:
        """Standard-deck Kwartet: one quartet per rank, members the suits c d h s.

        Quartets come in natural rank order (2 .. A) whatever the order of
        ``ranks``; card ``4 * i + s`` is suit ``s`` of the ``i``-th rank.

        >>> Deck.standard("7AK").cards[:5]
        ('7c', '7d', '7h', '7s', 'Kc')
        >>> len(Deck.standard())
        52
        """
        if isinstance(ranks, str):
            text = re.sub(r"[\s,]+", "", ranks).replace("10", "T")
            if not text:
                raise NotationError(f"no ranks in {ranks!r}")
            try:
                parsed = [Rank.parse(ch) for ch in text]
            except NotationError as exc:
                raise NotationError(f"{exc} in ranks {ranks!r}") from None
        elif isinstance(ranks, (bytes, Mapping, Set)) or not isinstance(ranks, Iterable):
            raise NotationError(f"ranks must be text or a list of ranks, got {ranks!r}")
        else:
            parsed = []
            for r in ranks:
                i = as_int(r)
                if i is None or not 0 <= i <= 12:
                    raise NotationError(f"not a rank: {r!r}")
                if Rank(i) in parsed:  # stops an endless iterable too
                    raise NotationError(f"repeated rank {Rank(i).char!r} in {ranks!r}")
                parsed.append(Rank(i))
        if len(set(parsed)) != len(parsed):
            raise NotationError(f"repeated rank in {ranks!r}")
        order = tuple(sorted(int(r) for r in parsed))
        quartets = [
            Quartet(Rank(r).char, tuple(Rank(r).char + s.char for s in Suit))  # type: ignore[arg-type]
            for r in order
        ]
        return cls(quartets, name="standard" if len(order) == 13 else "standard " + "".join(q.name for q in quartets),
                   _standard=order)

    @classmethod
    def themed(cls, name: str | int = "classic") -> Deck:
        """A built-in themed deck by name or size: ``"classic"`` (32 cards),
        ``"nature"`` (40) or ``"world"`` (48); ``32``, ``40``, ``48`` also work.

        >>> [len(Deck.themed(n)) for n in ("classic", "nature", "world")]
        [32, 40, 48]
        """
        size = as_int(name)
        if size is not None:
            name = size
            by_size = {len(v) * 4: k for k, v in THEMED_DECKS.items()}
            if name not in by_size:
                raise InvalidStateError(f"no built-in themed deck of {name} cards (have {sorted(by_size)})")
            name = by_size[name]
        if not isinstance(name, str):
            raise InvalidStateError(f"themed deck name must be text or a size, got {name!r}")
        key = name.strip().lower()
        if key not in THEMED_DECKS:
            raise InvalidStateError(f"no built-in themed deck {name!r} (have {', '.join(THEMED_DECKS)})")
        return cls([Quartet(q, c) for q, c in THEMED_DECKS[key]], name=key)

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "deck data") -> Deck:
        """A themed deck from ``{"name": ..., "quartets": [{"name": ..., "cards": [4 names]}, ...]}``.

        ``quartets`` may also map quartet names to card lists.

        >>> Deck.from_dict({"quartets": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2", "b3", "b4"]}}).cards[4]
        'b1'
        >>> Deck.from_dict({"quartets": [{"name": "A", "cards": ["x", "y"]}]})
        Traceback (most recent call last):
        ...
        quartet_solver.errors.InvalidStateError: deck data: quartet 'A' must have exactly 4 cards, got 2: ('x', 'y')
        """
        try:
            if not isinstance(data, Mapping):
                raise InvalidStateError(f"a deck must be a table/object, got {type(data).__name__}")
            name = data.get("name", "custom")
            if not isinstance(name, str):
                raise InvalidStateError(f"deck name must be text, got {name!r}")
            raw = data.get("quartets")
            quartets: list[Quartet] = []
            if isinstance(raw, Mapping):
                for qname, cards in raw.items():
                    quartets.append(Quartet(qname, cards))
            elif isinstance(raw, list):
                for i, item in enumerate(raw):
                    if not isinstance(item, Mapping) or "name" not in item or "cards" not in item:
                        raise InvalidStateError(f"quartet {i + 1} must have 'name' and 'cards', got {item!r}")
                    quartets.append(Quartet(item["name"], item["cards"]))
            else:
                raise InvalidStateError(f"'quartets' must be a list or a table, got {raw!r}")
            return cls(quartets, name=name)
        except InvalidStateError as exc:
            raise InvalidStateError(f"{source}: {exc}") from None

    @classmethod
    def from_file(cls, path: str | Path) -> Deck:
        """Load a themed deck from a ``.json`` or ``.toml`` file (TOML needs Python 3.11+).

        JSON: ``{"name": "...", "quartets": [{"name": "...", "cards": ["..", "..", "..", ".."]}]}``;
        TOML: ``name = "..."`` then ``[[quartets]]`` tables with ``name`` and ``cards``.
        """
        if not isinstance(path, (str, Path)):
            raise InvalidStateError(f"a deck file path must be text or a Path, got {path!r}")
        p = Path(path)
        try:
            raw = p.read_bytes()
        except ValueError:  # an embedded NUL character
            raise InvalidStateError(f"cannot read deck file {str(p)!r}: not a valid path") from None
        except OSError as exc:
            raise InvalidStateError(f"cannot read deck file {str(p)!r}: {exc.strerror or exc}") from None
        return cls.loads(raw, fmt="toml" if p.suffix.lower() == ".toml" else "json", source=str(p))

    @classmethod
    @keyword_options
    def loads(cls, text: str | bytes, *, fmt: str = "json", source: str = "deck text") -> Deck:
        """Parse deck text in ``fmt`` ``"json"`` or ``"toml"`` (see :meth:`from_file`).

        >>> Deck.loads('{"quartets": 3}')
        Traceback (most recent call last):
        ...
        quartet_solver.errors.InvalidStateError: deck text: 'quartets' must be a list or a table, got 3
        """
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise NotationError(f"{source}: not UTF-8 text") from None
        if not isinstance(text, str):
            raise NotationError(f"{source}: deck text must be str or bytes, got {type(text).__name__}")
        if fmt == "json":
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise NotationError(f"{source}: invalid JSON: {exc}") from None
        elif fmt == "toml":
            try:
                import tomllib
            except ImportError:  # Python 3.10
                raise InvalidStateError(f"{source}: TOML decks need Python 3.11+ (tomllib); use JSON") from None
            try:
                data = tomllib.loads(text)
            except (tomllib.TOMLDecodeError, RecursionError) as exc:
                raise NotationError(f"{source}: invalid TOML: {exc}") from None
        else:
            raise InvalidStateError(f"unknown deck format {fmt!r} (use 'json' or 'toml')")
        return cls.from_dict(data, source=source)

    # -- queries -----------------------------------------------------------------

    @property
    def name(self) -> str:
        """The deck's name."""
        return self._name

    @property
    def quartets(self) -> tuple[Quartet, ...]:
        """The quartets in deck order."""
        return self._quartets

    @property
    def n_quartets(self) -> int:
        """Number of quartets."""
        return len(self._quartets)

    @property
    def quartet_names(self) -> tuple[str, ...]:
        """Quartet names in deck order."""
        return tuple(q.name for q in self._quartets)

    @property
    def cards(self) -> tuple[str, ...]:
        """Card names in index order."""
        return self._names

    @property
    def is_standard(self) -> bool:
        """True for standard-deck Kwartet (quartets are ranks, cards are suits)."""
        return self._standard is not None

    @property
    def full_mask(self) -> int:
        """The mask with every card of the deck."""
        return (1 << len(self._names)) - 1

    def __len__(self) -> int:
        return len(self._names)

    def card_name(self, index: int) -> str:
        """The name of card ``index`` (``"Kh"`` in standard decks)."""
        return self._names[self.card(index)]

    def full_name(self, card: CardLike) -> str:
        """``"Quartet: Card"``, unique in any deck.

        >>> Deck.themed().full_name(5)
        'Composers: Mozart'
        """
        i = self.card(card)
        return f"{self._quartets[i // 4].name}: {self._names[i]}"

    def card(self, card: CardLike) -> int:
        """The index of a card given by index, name, ``"Quartet: Card"`` or
        (standard decks) card text such as ``"10h"`` or a :class:`Card`.

        >>> Deck.standard("KA").card("as")
        7
        >>> Deck.standard("KA").card("A: As")
        7
        >>> Deck.standard("KA").card("Qh")
        Traceback (most recent call last):
        ...
        quartet_solver.errors.NotationError: card 'Qh' is not in the deck 'standard KA'
        """
        n = len(self._names)
        if isinstance(card, bool):
            raise NotationError(f"not a card: {card!r}")
        index = as_int(card)
        if index is not None:
            if not 0 <= index < n:
                raise NotationError(f"card index {card} out of range 0..{n - 1} of deck {self._name!r}")
            return index
        if isinstance(card, Card):
            if self._standard is None:
                raise NotationError(f"card {str(card)!r} is a playing card; deck {self._name!r} is themed")
            return self._standard_index(card, str(card))
        if not isinstance(card, str):
            raise NotationError(f"not a card: {card!r}")
        if self._standard is not None:
            try:
                c = Card.parse(card)
            except NotationError:
                idx = self._card_index.get(_key(card))  # "Quartet: Card", as full_name writes it
                if idx is None:
                    raise NotationError(f"unknown card {card!r} in deck {self._name!r}") from None
                return idx
            return self._standard_index(c, card)
        idx = self._card_index.get(_key(card))
        if idx is None:
            raise NotationError(f"unknown card {card!r} in deck {self._name!r}")
        return idx

    def _standard_index(self, c: Card, shown: str) -> int:
        assert self._standard is not None
        try:
            qi = self._standard.index(int(c.rank))
        except ValueError:
            raise NotationError(f"card {shown!r} is not in the deck {self._name!r}") from None
        return 4 * qi + int(c.suit)

    def quartet(self, quartet: QuartetLike) -> int:
        """The index of a quartet given by index or name (rank text such as ``"K"``
        or ``"10"`` for standard decks).

        >>> Deck.standard("TJ").quartet("10")
        0
        """
        if isinstance(quartet, bool):
            raise NotationError(f"not a quartet: {quartet!r}")
        index = as_int(quartet)
        if index is not None:
            if not 0 <= index < len(self._quartets):
                raise NotationError(
                    f"quartet index {quartet} out of range 0..{len(self._quartets) - 1} of deck {self._name!r}"
                )
            return index
        if not isinstance(quartet, str):
            raise NotationError(f"not a quartet: {quartet!r}")
        if self._standard is not None:
            try:
                r = Rank.parse(quartet)
            except NotationError:
                raise NotationError(f"unknown quartet {quartet!r} in deck {self._name!r}") from None
            if int(r) not in self._standard:
                raise NotationError(f"quartet {quartet!r} is not in the deck {self._name!r}")
            return self._standard.index(int(r))
        idx = self._quartet_index.get(_key(quartet))
        if idx is None:
            raise NotationError(f"unknown quartet {quartet!r} in deck {self._name!r}")
        return idx

    @staticmethod
    def quartet_of(card: int) -> int:
        """The quartet index of card index ``card`` (``card // 4``)."""
        index = as_int(card)
        if index is None or index < 0:
            raise NotationError(f"not a card index: {card!r}")
        return index // 4

    def mask(self, cards: CardLike | Iterable[CardLike]) -> int:
        """The bitmask of cards given as one card, a list, or text (names separated by
        commas; standard decks also accept spaces).

        >>> bin(Deck.standard("KA").mask("Kc As"))
        '0b10000001'
        >>> Deck.themed().mask("Bach, Mozart")
        48
        """
        if isinstance(cards, (int, Card)) and not isinstance(cards, bool):
            return 1 << self.card(cards)
        if isinstance(cards, str):
            if self._standard is not None:
                items: Iterable[CardLike] = [t for t in re.split(r"[\s,]+", cards.strip()) if t]
            else:
                names = [t for t in (s.strip() for s in cards.split(",")) if t]
                if len(names) == 1 and _key(names[0]) not in self._card_index:
                    # a single themed name, or names separated by ';'
                    names = [t for t in (s.strip() for s in cards.split(";")) if t]
                items = [t for t in names]
        else:
            try:
                items = iter(cast(Iterable[CardLike], cards))   # a bool raises below
            except TypeError:
                raise NotationError(f"not cards: {cards!r}") from None
        m = 0
        for it in items:  # lazily: a card given twice stops an endless iterable
            bit = 1 << self.card(it)
            if m & bit:
                raise NotationError(f"card {self.card_name(self.card(it))!r} given twice in {cards!r}")
            m |= bit
        return m

    def names(self, mask: int) -> list[str]:
        """Card names of a mask, in index order."""
        m = as_int(mask)
        if m is None or not 0 <= m <= self.full_mask:
            raise InvalidStateError(
                f"card mask {mask!r} is not a set of cards of deck {self._name!r} (0..{self.full_mask})"
            )
        return [self._names[i] for i in range(len(self._names)) if m >> i & 1]

    def format(self, mask: int) -> str:
        """Card names of a mask joined by ``", "`` (``" "`` for standard decks).

        >>> Deck.standard("KA").format(0b10000001)
        'Kc As'
        """
        return (" " if self._standard is not None else ", ").join(self.names(mask))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, loadable with :meth:`from_dict`."""
        return {"name": self._name, "quartets": [q.to_dict() for q in self._quartets]}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deck):
            return NotImplemented
        return self._quartets == other._quartets and self._standard == other._standard

    def __hash__(self) -> int:
        return hash((self._quartets, self._standard))

    def __repr__(self) -> str:
        if self._standard is not None:
            return f"Deck.standard({''.join(Rank(r).char for r in self._standard)!r})"
        if self._name in THEMED_DECKS and self == Deck.themed(self._name):
            return f"Deck.themed({self._name!r})"
        return f"<Deck {self._name!r}: {len(self._quartets)} quartets>"


# Built-in themed decks (original content): name -> [(quartet, (4 cards)), ...]
THEMED_DECKS: dict[str, list[tuple[str, tuple[str, str, str, str]]]] = {
    "classic": [
        ("Dutch painters", ("Rembrandt", "Vermeer", "Van Gogh", "Mondriaan")),
        ("Composers", ("Bach", "Mozart", "Beethoven", "Chopin")),
        ("Dinosaurs", ("Tyrannosaurus", "Triceratops", "Stegosaurus", "Velociraptor")),
        ("Planets", ("Mercury", "Venus", "Mars", "Jupiter")),
        ("Instruments", ("Violin", "Trumpet", "Piano", "Drum")),
        ("Dutch cities", ("Amsterdam", "Rotterdam", "Utrecht", "Groningen")),
        ("Vehicles", ("Bicycle", "Tram", "Canal boat", "Train")),
        ("Cheeses", ("Gouda", "Edam", "Leerdammer", "Maasdam")),
    ],
    "nature": [
        ("Birds", ("Heron", "Stork", "Lapwing", "Oystercatcher")),
        ("Trees", ("Oak", "Beech", "Willow", "Birch")),
        ("Flowers", ("Tulip", "Daffodil", "Crocus", "Hyacinth")),
        ("Insects", ("Bee", "Ladybird", "Dragonfly", "Butterfly")),
        ("Sea life", ("Herring", "Seal", "Crab", "Jellyfish")),
        ("Farm animals", ("Cow", "Sheep", "Pig", "Goat")),
        ("Mushrooms", ("Fly agaric", "Chanterelle", "Porcini", "Morel")),
        ("Weather", ("Rain", "Snow", "Fog", "Thunder")),
        ("Seasons", ("Spring", "Summer", "Autumn", "Winter")),
        ("Reptiles", ("Adder", "Grass snake", "Sand lizard", "Tortoise")),
    ],
    "world": [
        ("Capitals", ("Paris", "Berlin", "Madrid", "Rome")),
        ("Rivers", ("Rhine", "Danube", "Nile", "Amazon")),
        ("Mountains", ("Everest", "Kilimanjaro", "Mont Blanc", "Aconcagua")),
        ("Explorers", ("Tasman", "Barentsz", "Magellan", "Cook")),
        ("Inventors", ("Huygens", "Van Leeuwenhoek", "Edison", "Tesla")),
        ("Scientists", ("Newton", "Curie", "Darwin", "Einstein")),
        ("Writers", ("Multatuli", "Vondel", "Shakespeare", "Cervantes")),
        ("Continents", ("Africa", "Asia", "Europe", "Oceania")),
        ("Oceans", ("Atlantic", "Pacific", "Indian", "Arctic")),
        ("Languages", ("Dutch", "Frisian", "Spanish", "Japanese")),
        ("Sports", ("Skating", "Football", "Korfball", "Cycling")),
        ("Dutch treats", ("Stroopwafel", "Poffertjes", "Oliebol", "Speculaas")),
    ],
}
