"""Klaverjas deals: 32 cards (7..A), eight to each seat, in PBN-style notation.

PBN layout: ``"N:<hand> <hand> <hand> <hand>"``, hands clockwise from the named
seat, each hand ``spades.hearts.diamonds.clubs`` with ranks high to low
(``A K Q J T 9 8 7``) and ``T`` for ten; an empty suit is nothing between dots.

>>> d = Deal.random(seed=1)
>>> Deal.parse(d.pbn()) == d
True
>>> Deal.parse(d.pbn("E")) == d
True
>>> len(d.hand("N")), len(d.hand("W"))
(8, 8)
>>> Deal.daily("2026-11-29", 1) == Deal.daily("2026-11-29", 1)
True
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from dataclasses import dataclass

from ..cards import Card, CardSet, CardsLike, Deck, Rank, Suit, as_int
from ..errors import InvalidStateError, NotationError
from .rules import SEATS, seat_index

__all__ = ["Deal"]

_PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_NATURAL_HIGH_FIRST = "AKQJT987"


@dataclass(frozen=True)
class Deal:
    """Four hands of eight cards, by seat ``N E S W`` (immutable, hashable)."""

    hands: tuple[CardSet, CardSet, CardSet, CardSet]

    def __post_init__(self) -> None:
        if isinstance(self.hands, (str, CardSet)):
            raise InvalidStateError(f"a Klaverjas deal has 4 hands, got {self.hands!r} (use Deal.parse for PBN)")
        try:
            hands = tuple(CardSet(h) for h in self.hands)
        except TypeError:
            raise InvalidStateError(f"a Klaverjas deal has 4 hands (N, E, S, W), got {self.hands!r}") from None
        object.__setattr__(self, "hands", hands)
        if len(hands) != 4:
            raise InvalidStateError(f"a Klaverjas deal has 4 hands, got {len(hands)}")
        seen = CardSet()
        for seat, hand in zip(SEATS, hands):
            if len(hand) != 8:
                raise InvalidStateError(f"{seat} has {len(hand)} cards, not 8: '{hand}'")
            outside = hand - Deck.piquet()
            if outside:
                raise InvalidStateError(f"{seat} holds '{outside}', not in the 32-card deck (7..A)")
            twice = hand & seen
            if twice:
                raise InvalidStateError(f"card '{twice}' is dealt twice (again to {seat})")
            seen = seen | hand

    @classmethod
    def from_hands(cls, north: CardsLike, east: CardsLike, south: CardsLike, west: CardsLike) -> Deal:
        """A deal from the four hands, in seat order N, E, S, W."""
        return cls((CardSet(north), CardSet(east), CardSet(south), CardSet(west)))

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Parse PBN: ``"N:AKQ.J9.T87. 987.AT.J.AK ..."`` (see the module docstring)."""
        if not isinstance(text, str):
            raise NotationError(f"deal must be PBN text, got {text!r}")
        body = text.strip()
        if len(body) < 2 or body[1] != ":" or body[0].upper() not in SEATS:
            raise NotationError(f"PBN deal must start with a seat and ':' (e.g. 'N:'), got {text!r}")
        first = seat_index(body[0])
        parts = body[2:].split()
        if len(parts) != 4:
            raise NotationError(f"PBN deal needs 4 hands after '{body[:2]}', got {len(parts)} in {text!r}")
        hands: list[CardSet] = [CardSet()] * 4
        for offset, part in enumerate(parts):
            suits = part.split(".")
            if len(suits) != 4:
                raise NotationError(f"hand {part!r} needs 4 suits separated by dots (in {text!r})")
            cards = []
            for suit, ranks in zip(_PBN_SUITS, suits):
                for ch in ranks.upper():
                    if ch not in _NATURAL_HIGH_FIRST:
                        raise NotationError(f"unknown rank {ch!r} in hand {part!r} (in {text!r})")
                    cards.append(Card(Rank.parse(ch), suit))
            try:
                hands[(first + offset) % 4] = CardSet(cards)
            except NotationError as exc:
                raise NotationError(f"{exc} in hand {part!r} (in {text!r})") from None
        return cls(tuple(hands))  # type: ignore[arg-type]

    @classmethod
    def random(cls, seed: int | str | None = None) -> Deal:
        """A uniformly random deal; deterministic for a given seed."""
        cards = Deck.shuffled(Deck.piquet(), seed=seed)
        return cls(tuple(CardSet(cards[8 * i : 8 * i + 8]) for i in range(4)))  # type: ignore[arg-type]

    @classmethod
    def daily(cls, date: _dt.date | str, hand_no: int) -> Deal:
        """Hand ``hand_no`` (1..16) of the daily game of ``date``: everybody gets the
        same 16 deals on a calendar date (derived from the date with SHA-256)."""
        date = _date_value(date)
        number = as_int(hand_no)  # a numpy integer: the same text, the same deal
        if number is None or not 1 <= number <= 16:
            raise InvalidStateError(f"hand_no must be 1..16, got {hand_no!r}")
        hand_no = number
        digest = hashlib.sha256(f"klaverjas-daily:{date.isoformat()}:{hand_no}".encode()).digest()
        return cls.random(int.from_bytes(digest[:8], "big"))

    def hand(self, seat: str | int) -> CardSet:
        """The hand of a seat."""
        return self.hands[seat_index(seat)]

    def seat_of(self, card: str | Card) -> str:
        """The seat holding ``card``."""
        c = card if isinstance(card, Card) else Card.parse(card)
        for seat, hand in zip(SEATS, self.hands):
            if c in hand:
                return seat
        raise InvalidStateError(f"card '{c}' is not in the deal")

    def pbn(self, first: str | int = "N") -> str:
        """PBN text with hands clockwise from ``first``."""
        start = seat_index(first)
        return f"{SEATS[start]}:" + " ".join(_pbn_hand(self.hands[(start + i) % 4]) for i in range(4))

    def pretty(self) -> str:
        """A four-hand diagram (suits with symbols)."""

        def lines(hand: CardSet) -> list[str]:
            out = []
            for suit in _PBN_SUITS:
                ranks = "".join(r for r in _NATURAL_HIGH_FIRST if Card(Rank.parse(r), suit) in hand)
                out.append(f"{suit.symbol} {ranks or '-'}")
            return out

        n, e, s, w = (lines(h) for h in self.hands)
        pad = " " * 14
        rows = [pad + "N"] + [pad + x for x in n]
        rows.append("W" + " " * 26 + "E")
        rows += [f"{wl:<27}{el}" for wl, el in zip(w, e)]
        rows += [pad + "S"] + [pad + x for x in s]
        return "\n".join(rows)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"pbn": self.pbn(), "hands": {seat: str(h) for seat, h in zip(SEATS, self.hands)}}

    def __str__(self) -> str:
        return self.pbn()

    def __repr__(self) -> str:
        return f"Deal.parse('{self.pbn()}')"


def _pbn_hand(hand: CardSet) -> str:
    return ".".join(
        "".join(r for r in _NATURAL_HIGH_FIRST if Card(Rank.parse(r), suit) in hand) for suit in _PBN_SUITS
    )


def _date_value(date: _dt.date | str) -> _dt.date:
    """The calendar date of a daily game: a date, a datetime (its date) or ISO text."""
    if isinstance(date, str):
        try:
            date = _dt.date.fromisoformat(date)
        except ValueError:
            raise NotationError(f"date must be YYYY-MM-DD, got {date!r}") from None
    if isinstance(date, _dt.datetime):
        date = date.date()  # the calendar date, whatever the time of day
    if not isinstance(date, _dt.date):
        raise NotationError(f"date must be a datetime.date or 'YYYY-MM-DD', got {date!r}")
    return date

