"""Klaverjas deals: 32 cards (7..A), eight to each seat, in PBN-style notation.

PBN layout: ``"N:<hand> <hand> <hand> <hand>"``, hands clockwise from the named
seat, each hand ``spades.hearts.diamonds.clubs`` with ranks high to low
(``A K Q J T 9 8 7``) and ``T`` for ten; an empty suit is nothing between dots.
:meth:`Deal.parse` also reads ``10`` for the ten, lower-case ranks and the PBN
tag line ``[Deal "N:..."]``.

>>> d = Deal.random(seed=1)
>>> Deal.parse(d.pbn()) == d
True
>>> Deal.parse(d.pbn("E")) == d
True
>>> len(d.hand("N")), len(d.hand("W"))
(8, 8)
>>> Deal.daily("2026-11-29", 1) == Deal.daily("2026-11-29", 1)
True
>>> Deal.parse('[Deal "W:...AKQJ10987 akqj10987... .AKQJT987.. ..AKQJT987."]').pbn()
'N:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987'
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import re
from dataclasses import dataclass

from ..cards import Card, CardSet, CardsLike, Decks, Rank, Suit, as_cards
from ..checks import as_int
from ..errors import ArgumentError, InvalidStateError, NotationError
from .rules import SEATS, as_suit, seat_index

__all__ = ["Deal", "check_hand", "diagram", "format_hand"]

_PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_NATURAL_HIGH_FIRST = "AKQJT987"
_PBN_RANK = re.compile(r"10|.", re.DOTALL)  # a rank in a PBN hand: one character, or 10 for the ten
_DEAL_TAG = re.compile(r'\[\s*deal\s+"([^"]*)"\s*\]', re.IGNORECASE)


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
            outside = hand - Decks.piquet()
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
    def of(cls, deal: Deal | str) -> Deal:
        """``deal`` itself, or its PBN text parsed: how every function that
        takes "a Deal or its text" reads that argument.

        >>> d = Deal.random(seed=1)
        >>> Deal.of(d) is d, Deal.of(d.pbn()) == d
        (True, True)
        """
        return deal if isinstance(deal, Deal) else cls.parse(deal)

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Parse PBN: ``"N:AKQ.J9.T87. 987.AT.J.AK ..."`` (see the module docstring):
        the ten as ``T`` or ``10``, ranks in any case, optionally as the PBN tag
        line ``[Deal "N:..."]``.  Text that does not parse raises
        :class:`~quartet_solver.errors.NotationError`; a deal that parses but is
        not eight distinct cards of 7..A per seat raises
        :class:`~quartet_solver.errors.InvalidStateError`.

        >>> d = Deal.random(seed=2)
        >>> Deal.parse(f'[Deal "{d.pbn()}"]') == d
        True
        >>> Deal.parse(d.pbn().replace("T", "10")) == Deal.parse(d.pbn().lower()) == d
        True
        """
        if not isinstance(text, str):
            raise NotationError(f"deal must be PBN text, got {text!r}")
        body = text.strip()
        tag = _DEAL_TAG.fullmatch(body)
        if tag is not None:  # the PBN tag line: [Deal "N:..."]
            body = tag.group(1).strip()
        elif body[:1] == "[":
            raise NotationError(f'a PBN tag here must be [Deal "<seat>:<hands>"], got {text!r}')
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
                for rank in _PBN_RANK.findall(ranks.upper()):
                    if rank not in _NATURAL_HIGH_FIRST and rank != "10":
                        raise NotationError(f"unknown rank {rank!r} in hand {part!r} (in {text!r})")
                    cards.append(Card(Rank.parse(rank), suit))
            try:
                hands[(first + offset) % 4] = CardSet(cards)
            except NotationError as exc:
                raise NotationError(f"{exc} in hand {part!r} (in {text!r})") from None
        return cls(tuple(hands))  # type: ignore[arg-type]

    @classmethod
    def random(cls, seed: int | str | None = None) -> Deal:
        """A uniformly random deal; deterministic for a given seed."""
        cards = Decks.shuffled(Decks.piquet(), seed=seed)
        return cls(tuple(CardSet(cards[8 * i : 8 * i + 8]) for i in range(4)))  # type: ignore[arg-type]

    @classmethod
    def daily(cls, date: _dt.date | str, hand_no: int) -> Deal:
        """Hand ``hand_no`` (1..16) of the daily game of ``date``: everybody gets the
        same 16 deals on a calendar date (derived from the date with SHA-256)."""
        date = _date_value(date)
        number = as_int(hand_no)  # a numpy integer: the same text, the same deal
        if number is None or not 1 <= number <= 16:
            raise ArgumentError(f"hand_no must be 1..16, got {hand_no!r}")
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

    def stuk_holder(self, trump: Suit | str) -> str | None:
        """The seat whose hand holds both the king and the queen of ``trump``
        (stuk in one hand from the deal), or None.

        >>> d = Deal.from_hands("Kh Qh 7c 8c 9c Tc Jc Qc", "Kc Ac 7d 8d 9d Td Jd Qd",
        ...                     "Kd Ad 7h 8h 9h Th Jh Ah", "7s 8s 9s Ts Js Qs Ks As")
        >>> d.stuk_holder("h"), d.stuk_holder("s"), d.stuk_holder("c")
        ('N', 'W', None)
        """
        suit = as_suit(trump)
        king, queen = Card(Rank.KING, suit), Card(Rank.QUEEN, suit)
        for seat, hand in zip(SEATS, self.hands):
            if king in hand and queen in hand:
                return seat
        return None

    def pbn(self, first: str | int = "N") -> str:
        """PBN text with hands clockwise from ``first``."""
        start = seat_index(first)
        return f"{SEATS[start]}:" + " ".join(_pbn_hand(self.hands[(start + i) % 4]) for i in range(4))

    def pretty(self) -> str:
        """A four-hand diagram (suits with symbols)."""
        return diagram(self.hands)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"pbn": self.pbn(), "hands": {seat: str(h) for seat, h in zip(SEATS, self.hands)}}

    def __str__(self) -> str:
        return self.pbn()

    def __repr__(self) -> str:
        return f"Deal.parse('{self.pbn()}')"


def diagram(hands: tuple[CardSet, ...], middle: list[str] | None = None) -> str:
    """The four hands (N, E, S, W) as a bridge-style diagram, a suit a line
    with its symbol, high to low; ``middle``: up to four lines of text for the
    table between W and E (e.g. the current trick).

    >>> print(diagram(Deal.random(seed=1).hands).splitlines()[0].strip())
    N
    """

    def lines(hand: CardSet) -> list[str]:
        out = []
        for suit in _PBN_SUITS:
            ranks = "".join(r for r in _NATURAL_HIGH_FIRST if Card(Rank.parse(r), suit) in hand)
            out.append(f"{suit.symbol} {ranks or '-'}")
        return out

    n, e, s, w = (lines(h) for h in hands)
    table = (middle or []) + [""] * 4
    pad = " " * 14
    rows = [pad + "N"] + [pad + x for x in n]
    rows.append("W" + " " * 26 + "E")
    rows += [f"{wl:<14}{table[i]:<13}{el}".rstrip() for i, (wl, el) in enumerate(zip(w, e))]
    rows += [pad + "S"] + [pad + x for x in s]
    return "\n".join(rows)


def check_hand(hand: CardsLike, what: str = "a Klaverjas hand") -> CardSet:
    """``hand`` as a card set, checked: eight different cards of the 32-card
    deck; an error names the cards that are not.

    >>> check_hand("2c 9h Ah Th As Ks Ad 7c")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.InvalidStateError: a Klaverjas hand holds only cards 7..A: 2c is not in the 32-card deck (hand 2c 9h Ah Th As Ks Ad 7c)
    """
    cards = as_cards(hand, what=what) if not isinstance(hand, CardSet) else hand.cards()
    shown = " ".join(map(str, cards))
    outside = [c for c in cards if c not in Decks.piquet()]
    if outside:
        names = " ".join(map(str, outside))
        verb = "is" if len(outside) == 1 else "are"
        raise InvalidStateError(f"{what} holds only cards 7..A: {names} {verb} not in the 32-card deck "
                                f"(hand {shown})")
    held = CardSet(cards)
    if len(held) != len(cards):
        twice = " ".join(sorted({str(c) for c in cards if cards.count(c) > 1}))
        raise InvalidStateError(f"{what} holds each card once: {twice} given twice (hand {shown})")
    if len(held) != 8:
        raise InvalidStateError(f"{what} has 8 cards, got {len(held)} (hand {shown})")
    return held


def format_hand(cards: CardsLike) -> str:
    """A hand as players hold it: grouped by suit (spades, hearts, diamonds,
    clubs), high to low in each, the suits two spaces apart.  The text parses
    back as cards.

    Cards outside the 32-card deck (which error messages may have to show)
    come last, as given:

    >>> format_hand("7c Ah 9h Ks As Td Jh")
    'As Ks  Ah Jh 9h  Td  7c'
    >>> format_hand("2c 7c Ah")
    'Ah  7c  2c'
    """
    held = CardSet(cards)
    groups = []
    for suit in _PBN_SUITS:
        ranks = [r for r in _NATURAL_HIGH_FIRST if Card(Rank.parse(r), suit) in held]
        if ranks:
            groups.append(" ".join(r + suit.char for r in ranks))
    outside = [str(c) for c in held if c.rank < Rank.SEVEN]
    if outside:
        groups.append(" ".join(outside))
    return "  ".join(groups)


def _pbn_hand(hand: CardSet) -> str:
    return ".".join(
        "".join(r for r in _NATURAL_HIGH_FIRST if Card(Rank.parse(r), suit) in hand) for suit in _PBN_SUITS
    )


def _date_value(date: _dt.date | str) -> _dt.date:
    """The calendar date of a daily game: a date, a datetime (its date), ISO
    text or ``"today"`` (this machine's local date).

    >>> _date_value("today") == _dt.date.today(), _date_value("2026-12-03")
    (True, datetime.date(2026, 12, 3))
    """
    if isinstance(date, str) and date.strip().lower() == "today":
        return _dt.date.today()
    if isinstance(date, str):
        try:
            date = _dt.date.fromisoformat(date)
        except ValueError:
            raise NotationError(f"date must be YYYY-MM-DD or 'today', got {date!r}") from None
    if isinstance(date, _dt.datetime):
        date = date.date()  # the calendar date, whatever the time of day
    if not isinstance(date, _dt.date):
        raise NotationError(f"date must be a datetime.date or 'YYYY-MM-DD', got {date!r}")
    return date

