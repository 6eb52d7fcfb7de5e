"""Klaverjas rules as data: seats, card order and points, rule variants, legality, roem.

Seats are ``"N" "E" "S" "W"`` (indices ``0..3``), play is clockwise N, E, S, W,
partners sit opposite: N/S against E/W.

The rules as this package implements them, every ambiguity settled and every
option that changes them, are written out in ``docs/rules/klaverjas.md``.

>>> Rules.AMSTERDAM.variant, Rules.named("rotterdam").variant
('amsterdam', 'rotterdam')
>>> card_points(Card("Jh"), trump=Suit.HEARTS), card_points(Card("Jc"), trump=Suit.HEARTS)
(20, 2)
>>> trick_roem([Card("Qh"), Card("Kh"), Card("Jh"), Card("7c")], trump=Suit.HEARTS)
40
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar, Literal, cast

from ..cards import Card, CardsLike, Rank, Suit, as_card, as_cards
from ..checks import as_int
from ..deprecation import keyword_options
from ..errors import ArgumentError, InvalidStateError, NotationError

__all__ = [
    "SEATS",
    "Seat",
    "Rules",
    "seat_index",
    "seat_name",
    "team_of",
    "partner",
    "TRUMP_ORDER",
    "PLAIN_ORDER",
    "card_points",
    "card_power",
    "trick_winner",
    "as_suit",
    "trick_roem",
    "legal_cards",
    "illegal_reason",
    "TOTAL_CARD_POINTS",
    "LAST_TRICK_BONUS",
]

SEATS = ("N", "E", "S", "W")
Seat = Literal["N", "E", "S", "W"]
TEAMS = ("NS", "EW")

# -- card order and points, as data -----------------------------------------------
TRUMP_ORDER = "J9ATKQ87"
"""Trump ranks, highest first."""
PLAIN_ORDER = "ATKQJ987"
"""Ranks of the other suits, highest first."""
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TOTAL_CARD_POINTS = 152
LAST_TRICK_BONUS = 10
RUN_ROEM = {3: 20, 4: 50}
"""Roem for a run of 3 or 4 cards of one suit in a trick (natural order 7 8 9 T J Q K A)."""
FOUR_OF_A_KIND_ROEM = {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100, "9": 0, "8": 0, "7": 0}
STUK_ROEM = 20

_TRUMP_POWER = {r: 8 - i for i, r in enumerate(TRUMP_ORDER)}  # J = 8 .. 7 = 1
_PLAIN_POWER = {r: 8 - i for i, r in enumerate(PLAIN_ORDER)}  # A = 8 .. 7 = 1


def seat_index(seat: str | int) -> int:
    """Index ``0..3`` of a seat given as ``"N" "E" "S" "W"`` (any case) or an index
    (numpy integers too).

    >>> seat_index("e"), seat_index(3)
    (1, 3)
    """
    if isinstance(seat, bool):
        raise NotationError(f"unknown seat {seat!r}")
    index = as_int(seat)
    if index is not None:
        if 0 <= index < 4:
            return index
        raise NotationError(f"seat index must be 0..3, got {seat!r}")
    if isinstance(seat, str) and seat.strip().upper() in SEATS:
        return SEATS.index(seat.strip().upper())
    raise NotationError(f"unknown seat {seat!r} (use N, E, S or W)")


def seat_name(seat: str | int) -> str:
    """The letter of a seat."""
    return SEATS[seat_index(seat)]


def team_of(seat: str | int) -> int:
    """``0`` for N/S, ``1`` for E/W."""
    return seat_index(seat) % 2


def partner(seat: str | int) -> int:
    """Index of the partner's seat."""
    return (seat_index(seat) + 2) % 4


def as_suit(suit: Suit | str | int, what: str = "trump") -> Suit:
    """``suit`` as a :class:`~quartet_solver.cards.Suit`: a Suit, its text (``c d h s``,
    a symbol) or its value ``0..3`` (numpy integers too).  Anything else raises
    :class:`~quartet_solver.errors.NotationError` naming ``what``: a suit that
    matched no card would silently make every card a plain one.

    >>> as_suit("h"), as_suit(3)
    (<Suit.HEARTS: 2>, <Suit.SPADES: 3>)
    >>> as_suit("x")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.NotationError: trump must be a Suit, c/d/h/s or 0..3, got 'x'
    """
    if isinstance(suit, Suit):
        return suit
    if isinstance(suit, str):
        try:
            return Suit.parse(suit)
        except NotationError:
            pass
    elif (index := as_int(suit)) is not None and 0 <= index <= 3:
        return Suit(index)
    raise NotationError(f"{what} must be a Suit, c/d/h/s or 0..3, got {suit!r}")


def card_points(card: Card | str, trump: Suit | str) -> int:
    """Points of a card in the play: trump ``J 9 A T K Q 8 7 = 20 14 11 10 4 3 0 0``,
    other suits ``A T K Q J 9 8 7 = 11 10 4 3 2 0 0 0``."""
    return _points(_deck_card(card), as_suit(trump))


def _points(card: Card, trump: Suit) -> int:
    """:func:`card_points` of a checked card and trump (the engine's own calls)."""
    r = card.rank.char
    return TRUMP_POINTS[r] if card.suit == trump else PLAIN_POINTS[r]


def card_power(card: Card | str, trump: Suit | str, led: Suit | str) -> int:
    """Trick-taking power: trumps ``101..108``, the suit led ``1..8``, others ``0``."""
    return _power(_deck_card(card), as_suit(trump), as_suit(led, "led suit"))


def _power(card: Card, trump: Suit, led: Suit) -> int:
    """:func:`card_power` of a checked card and suits."""
    r = card.rank.char
    if card.suit == trump:
        return 100 + _TRUMP_POWER[r]
    if card.suit == led:
        return _PLAIN_POWER[r]
    return 0


def trick_winner(cards: Sequence[Card] | str, trump: Suit | str) -> int:
    """Position (``0..len-1``) in the trick of the card that wins it so far
    (cards leader first; card text or Card objects).

    >>> trick_winner("Ac Tc 7h", Suit.HEARTS)
    2
    """
    cards = _trick_list(cards)
    if not cards:
        raise InvalidStateError("an empty trick has no winner")
    return _winner(cards, as_suit(trump))


def _winner(cards: Sequence[Card], trump: Suit) -> int:
    """:func:`trick_winner` of a checked, non-empty trick."""
    led = cards[0].suit
    powers = [_power(c, trump, led) for c in cards]
    return max(range(len(cards)), key=powers.__getitem__)


def _natural(rank: Rank) -> int:
    return int(rank) - int(Rank.SEVEN)  # 7 = 0 .. A = 7


def _deck_card(card: object, what: str = "card") -> Card:
    """``card`` (a Card or card text) checked to be one of the 32 Klaverjas cards.

    >>> _deck_card("2c")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.InvalidStateError: card 2c is not in the 32-card Klaverjas deck (7..A)
    """
    c = as_card(cast("Card | str", card))
    if c.rank < Rank.SEVEN:
        raise InvalidStateError(f"{what} {c} is not in the 32-card Klaverjas deck (7..A)")
    return c


def _card_list(cards: object, what: str) -> list[Card]:
    """``cards`` as a list of distinct cards of the 32-card deck
    (:func:`~quartet_solver.cards.as_cards`: card text parsed in order, or cards and
    card texts).

    >>> _card_list("Ah 7c", "trick")
    [Card('Ah'), Card('7c')]
    """
    out = as_cards(cast(CardsLike, cards), distinct=True, what=what)
    for c in out:
        _deck_card(c, f"{what} card")
    return out


def _trick_list(cards: object) -> list[Card]:
    """:func:`_card_list` of a trick: at most 4 cards."""
    out = _card_list(cards, "trick")
    if len(out) > 4:
        raise InvalidStateError(f"a trick has at most 4 cards, got {len(out)}: '{' '.join(map(str, out))}'")
    return out


@keyword_options
def trick_roem(cards: Sequence[Card] | str, trump: Suit | str, *, stuk: bool = True) -> int:
    """Roem of the cards of one trick: runs of 3/4 in one suit (natural order, also
    in trumps) 20/50; four jacks 200, four A/T/K/Q 100, four 7/8/9 0; with
    ``stuk``, K and Q of trumps together add 20 (also on top of a run).

    >>> trick_roem([Card(c) for c in "7c 8c 9c Tc".split()], Suit.HEARTS)
    50
    >>> trick_roem([Card(c) for c in "Jc Jd Jh Js".split()], Suit.HEARTS)
    200
    >>> trick_roem([Card(c) for c in "Kh Qh 7c 9d".split()], Suit.HEARTS)
    20
    >>> trick_roem("Qd Kd Jd", Suit.DIAMONDS)
    40
    """
    return _roem(_trick_list(cards), as_suit(trump), stuk)


def _roem(cards: Sequence[Card], trump: Suit, stuk: bool = True) -> int:
    """:func:`trick_roem` of a checked trick."""
    roem = 0
    for suit in Suit:
        naturals = sorted(_natural(c.rank) for c in cards if c.suit == suit)
        best = run = 0
        for i, n in enumerate(naturals):
            run = run + 1 if i and n == naturals[i - 1] + 1 else 1
            best = max(best, run)
        roem += RUN_ROEM.get(min(best, 4), 0) if best >= 3 else 0
    ranks = {c.rank for c in cards}
    if len(cards) == 4 and len(ranks) == 1:
        roem += FOUR_OF_A_KIND_ROEM[cards[0].rank.char]
    if stuk and Card(Rank.KING, trump) in cards and Card(Rank.QUEEN, trump) in cards:
        roem += STUK_ROEM
    return roem


# -- rule variants ------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """A Klaverjas rule set (frozen).  Presets: ``Rules.AMSTERDAM`` (default) and
    ``Rules.ROTTERDAM``; ``Rules.named("rotterdam")`` finds one by name.

    - ``variant``: ``"amsterdam"`` or ``"rotterdam"`` (how to trump when you
      cannot follow a plain-suit lead);
    - ``stuk``: ``"trick"`` (K+Q of trumps in one trick score 20 for its winner),
      ``"hand"`` (20 for the team of a player who held both, when the second is
      played) or ``"off"``;
    - ``pit``: bonus for taking all eight tricks;
    - ``tie_is_nat``: a tie between the teams makes the playing team nat;
    - ``forced``: who must name trumps when all four pass: ``"forehand"`` (left of
      the dealer) or ``"dealer"``.
    """

    variant: Literal["amsterdam", "rotterdam"] = "amsterdam"
    stuk: Literal["trick", "hand", "off"] = "trick"
    pit: int = 100
    tie_is_nat: bool = True
    forced: Literal["forehand", "dealer"] = "forehand"
    name: str = field(default="", compare=False)

    AMSTERDAM: ClassVar[Rules]
    ROTTERDAM: ClassVar[Rules]

    def __post_init__(self) -> None:
        checks = {
            "variant": ("amsterdam", "rotterdam"),
            "stuk": ("trick", "hand", "off"),
            "forced": ("forehand", "dealer"),
        }
        for attr, allowed in checks.items():
            if getattr(self, attr) not in allowed:
                raise ArgumentError(f"rules {attr} must be one of {allowed}, got {getattr(self, attr)!r}")
        pit = as_int(self.pit)
        if pit is None or pit < 0:
            raise ArgumentError(f"rules pit must be an int >= 0, got {self.pit!r}")
        object.__setattr__(self, "pit", pit)  # a numpy integer: a plain int (JSON, hashing)
        if not isinstance(self.tie_is_nat, bool):
            raise ArgumentError(f"rules tie_is_nat must be a bool, got {self.tie_is_nat!r}")

    @classmethod
    def named(cls, name: str | Rules) -> Rules:
        """The preset called ``name`` (``"amsterdam"`` or ``"rotterdam"``, any case);
        a :class:`Rules` is returned as it is, so every function taking rules reads
        them through here."""
        if isinstance(name, Rules):
            return name
        if not isinstance(name, str):
            raise ArgumentError(f"rules must be a Rules or a preset name, got {name!r}")
        key = name.strip().lower()
        presets = {"amsterdam": cls.AMSTERDAM, "rotterdam": cls.ROTTERDAM}
        if key not in presets:
            raise ArgumentError(f"unknown rules {name!r} (use 'amsterdam' or 'rotterdam')")
        return presets[key]

    def with_options(self, **options: object) -> Rules:
        """A copy with some options changed, e.g. ``Rules.AMSTERDAM.with_options(stuk="off")``."""
        try:
            return replace(self, name="", **options)  # type: ignore[arg-type]
        except TypeError as exc:
            raise ArgumentError(f"unknown rules option in {sorted(options)}: {exc}") from None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"variant": self.variant, "stuk": self.stuk, "pit": self.pit,
                "tie_is_nat": self.tie_is_nat, "forced": self.forced}

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """The rules of a :meth:`to_dict` mapping (missing options take their
        defaults; an unknown key or a bad value raises
        :class:`~quartet_solver.errors.InvalidStateError`); a preset name is also
        accepted.  Rules equal to a preset come back as that preset.

        >>> Rules.from_dict(Rules.ROTTERDAM.to_dict()) is Rules.ROTTERDAM
        True
        >>> Rules.from_dict({"variant": "amsterdam", "stuk": "hand"}).stuk
        'hand'
        """
        if isinstance(data, (str, Rules)):
            return cls.named(data)
        if not isinstance(data, dict):
            raise ArgumentError(f"rules must be a dict of options or a preset name, got {data!r}")
        known = ("variant", "stuk", "pit", "tie_is_nat", "forced")
        unknown = [k for k in data if k not in known]
        if unknown:
            raise ArgumentError(f"unknown rules option {unknown[0]!r} (options: {', '.join(known)})")
        rules = cls(**data)
        for preset in (cls.AMSTERDAM, cls.ROTTERDAM):
            if rules == preset:
                return preset
        return rules

    @classmethod
    def of_record(cls, data: dict[str, object], *, rules: Rules | str | None, what: str = "") -> Rules | None:
        """The rules of a record's mapping: its ``"rules"`` entry, which must
        agree with ``rules`` when both are given, else ``rules`` (``None`` when
        neither is).  ``what`` names the record in the error (``""``: the
        caller names it).

        >>> Rules.of_record({"rules": "rotterdam"}, rules=None, what="hand") is Rules.ROTTERDAM
        True
        >>> Rules.of_record({"rules": "rotterdam"}, rules="amsterdam", what="hand")
        Traceback (most recent call last):
        ...
        quartet_solver.errors.InvalidStateError: hand: rules rotterdam differ from the rules given (amsterdam)
        """
        chosen = None if rules is None else cls.named(rules)
        if "rules" in data:
            given = cls.from_dict(data["rules"])
            if chosen is not None and given != chosen:
                where = f"{what}: " if what else ""
                raise InvalidStateError(f"{where}rules {given} differ from the rules given ({chosen})")
            chosen = given
        return chosen

    def __str__(self) -> str:
        if self.name:
            return self.name
        return ", ".join(f"{k}={v}" for k, v in self.to_dict().items())


Rules.AMSTERDAM = Rules(name="amsterdam")
Rules.ROTTERDAM = Rules(variant="rotterdam", name="rotterdam")


# -- legality --------------------------------------------------------------------------


def _trump_power(card: Card, trump: Suit) -> int:
    return _TRUMP_POWER[card.rank.char] if card.suit == trump else 0


@keyword_options
def legal_cards(
    hand: Sequence[Card] | str, trick: Sequence[Card] | str, trump: Suit | str, *, rules: Rules | str = Rules.AMSTERDAM
) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (cards so far, leader
    first; card text or Card objects); ``rules`` a :class:`Rules` or a preset name.

    The player's partner played ``trick[-2]`` (if any): the trick is partner-won
    when that card is the current winner.

    >>> legal_cards("7h Jh 8c 9d", "Ac 7s", Suit.HEARTS)
    [Card('8c')]
    """
    hand, trick = _hand_and_trick(hand, trick)
    return _legal(hand, trick, as_suit(trump), Rules.named(rules))


def _hand_and_trick(hand: object, trick: object) -> tuple[list[Card], list[Card]]:
    """A hand and the trick it plays to, checked: distinct cards, a trick still
    open (3 cards at most), no card in both."""
    hand_cards, trick_cards = _card_list(hand, "hand"), _card_list(trick, "trick")
    if len(trick_cards) > 3:
        raise InvalidStateError(f"the trick '{' '.join(map(str, trick_cards))}' is complete: "
                                "no card can be played to it")
    both = [c for c in hand_cards if c in trick_cards]
    if both:
        raise InvalidStateError(f"{both[0]} is both in the hand and in the trick")
    return hand_cards, trick_cards


def _legal(hand: Sequence[Card], trick: Sequence[Card], trump: Suit, rules: Rules) -> list[Card]:
    """:func:`legal_cards` of a checked hand, trick, trump and rules."""
    hand = list(hand)
    if not trick:
        return hand
    led = trick[0].suit
    follow = [c for c in hand if c.suit == led]
    highest = max((_trump_power(c, trump) for c in trick if c.suit == trump), default=0)
    if led == trump:
        if follow:
            higher = [c for c in follow if _trump_power(c, trump) > highest]
            return higher or follow
        return hand
    if follow:
        return follow
    trumps = [c for c in hand if c.suit == trump]
    if not trumps:
        return hand
    higher = [c for c in trumps if _trump_power(c, trump) > highest]
    if rules.variant == "rotterdam":
        return higher or trumps
    partner_winning = len(trick) >= 2 and _winner(trick, trump) == len(trick) - 2
    others = [c for c in hand if c.suit != trump]
    if partner_winning:
        if highest == 0:
            return hand
        allowed = set(others + higher)
        return [c for c in hand if c in allowed] or hand  # only lower trumps left: any of them
    if highest == 0:
        return trumps
    return higher or others or hand


def illegal_reason(
    card: Card | str, hand: Sequence[Card] | str, trick: Sequence[Card] | str, trump: Suit | str,
    rules: Rules | str = Rules.AMSTERDAM,
) -> str | None:
    """Why ``card`` may not be played (``None`` if it may); cards as text or Card objects."""
    card = _deck_card(card)
    hand, trick = _hand_and_trick(hand, trick)
    trump = as_suit(trump)
    if card not in hand:
        return "the card is not in the hand"
    legal = _legal(hand, trick, trump, Rules.named(rules))
    if card in legal:
        return None
    led = trick[0].suit
    if any(c.suit == led for c in hand) and card.suit != led:
        return f"must follow suit ({led.name.lower()})"
    if all(c.suit == trump for c in legal):
        highest = max((_trump_power(c, trump) for c in trick if c.suit == trump), default=0)
        if card.suit == trump or highest and any(_trump_power(c, trump) > highest for c in legal):
            return "must overtrump"
        return "must play a trump"
    return "may not undertrump"
