"""Slow, obviously-correct reference evaluator for Quintet hands.

Used only by the tests, to cross-check the fast evaluator in the package. Everything here
is written straight from the rules (``quartet_solver.quintet.hands``) and favours clarity over speed.

Card encoding used by this module: an integer ``i`` in ``0..31`` with

* ``rank = i // 4``: 0 = 7, 1 = 8, 2 = 9, 3 = T, 4 = J, 5 = Q, 6 = K, 7 = A
* ``suit = i % 4``:  0 = c, 1 = d, 2 = h, 3 = s

Categories, low to high (a flush beats a full house in Quintet):
HIGH_CARD=0, PAIR=1, TWO_PAIR=2, TRIPS=3, STRAIGHT=4, FULL_HOUSE=5, FLUSH=6, QUADS=7,
STRAIGHT_FLUSH=8.

Straights are five consecutive ranks among 7..A; the ace may also play low, as a "six"
below the seven, so A-7-8-9-T is a straight whose highest card is the ten. Nothing wraps.

``reference_key(cards, kickers)`` returns a tuple ``(category, tie-breaks...)``: a larger
tuple is a stronger hand, equal tuples are an exact tie. Ranks inside the key are the rank
numbers 0..7 above. Two tie-break modes:

* ``"seed"`` (default), the literal seed rules, which deliberately look at fewer cards than
  poker does (e.g. a pair is compared by the pair and then the highest odd card only);
* ``"full"``, ordinary poker: every remaining card is compared, highest first.

>>> reference_key([28, 24, 20, 16, 12])          # Ac Kc Qc Jc Tc: ace-high straight flush
(8, 7)
>>> reference_key([28, 1, 5, 9, 13])             # Ac 7d 8d 9d Td: ace-low straight, ten high
(4, 3)
>>> reference_key([0, 1, 30, 25, 10], "seed")    # 7c 7d Ah Kd 9h: pair of sevens, ace odd card
(1, 0, 7)
>>> reference_key([0, 1, 30, 25, 10], "full")
(1, 0, 7, 6, 2)
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Iterable, Iterator

HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
TRIPS = 3
STRAIGHT = 4
FULL_HOUSE = 5
FLUSH = 6
QUADS = 7
STRAIGHT_FLUSH = 8

CATEGORY_NAMES: list[str] = [
    "high card",
    "pair",
    "two pair",
    "trips",
    "straight",
    "full house",
    "flush",
    "quads",
    "straight flush",
]

RANK_CHARS = "789TJQKA"
SUIT_CHARS = "cdhs"
DECK_SIZE = 32
HAND_SIZE = 5
ACE = 7
TEN = 3
KICKER_MODES = ("seed", "full")


def rank_of(card: int) -> int:
    """Rank number 0..7 (7 = 0, ..., A = 7) of a card index."""
    return card // 4


def suit_of(card: int) -> int:
    """Suit number 0..3 (c, d, h, s) of a card index."""
    return card % 4


def card_text(card: int) -> str:
    """Text of a card index, e.g. ``card_text(30) == 'Ah'``."""
    return RANK_CHARS[rank_of(card)] + SUIT_CHARS[suit_of(card)]


def _validated(cards: Iterable[int]) -> list[int]:
    """The cards as a list, or ValueError unless they are 5 distinct ints in 0..31."""
    hand = list(cards)
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a hand needs exactly {HAND_SIZE} cards, got {len(hand)}: {hand!r}")
    for card in hand:
        if isinstance(card, bool) or not isinstance(card, int):
            raise ValueError(f"card {card!r} is not an int in 0..{DECK_SIZE - 1}: {hand!r}")
        if not 0 <= card < DECK_SIZE:
            raise ValueError(f"card {card!r} is outside 0..{DECK_SIZE - 1}: {hand!r}")
    if len(set(hand)) != HAND_SIZE:
        raise ValueError(f"a hand needs {HAND_SIZE} distinct cards, got {hand!r}")
    return hand


def _straight_high(ranks: list[int]) -> int | None:
    """Highest card of the straight formed by five ranks, or None if they form none.

    The ranks must be five distinct rank numbers. The ace-low straight A-7-8-9-T counts
    as ten high.
    """
    distinct = sorted(set(ranks))
    if len(distinct) != HAND_SIZE:
        return None
    if distinct == list(range(distinct[0], distinct[0] + HAND_SIZE)):
        return distinct[-1]
    if distinct == [0, 1, 2, 3, ACE]:  # 7 8 9 T A: the ace plays as a six
        return TEN
    return None


def reference_key(cards: Iterable[int], kickers: str = "seed") -> tuple[int, ...]:
    """Strength key of a 5-card Quintet hand: ``(category, tie-breaks...)``.

    Keys compare like the hands: greater is stronger, equal is an exact tie.
    ``kickers`` is ``"seed"`` (literal seed tie-breaks, default) or ``"full"`` (poker).

    >>> reference_key([0, 4, 8, 12, 17])              # 7c 8c 9c Tc Jd: straight, jack high
    (4, 4)
    >>> reference_key([0, 4, 8, 12, 20])              # 7c 8c 9c Tc Qc: flush
    (6, 5, 3, 2, 1, 0)
    >>> reference_key([0, 1, 2, 4, 5])                # 777 88: full house, sevens
    (5, 0)
    >>> reference_key([0, 1, 2, 4, 5], kickers="full")
    (5, 0, 1)
    >>> reference_key([0, 1, 2, 3])
    Traceback (most recent call last):
    ...
    ValueError: a hand needs exactly 5 cards, got 4: [0, 1, 2, 3]
    """
    if kickers not in KICKER_MODES:
        raise ValueError(f"kickers must be one of {KICKER_MODES}, got {kickers!r}")
    full = kickers == "full"
    hand = _validated(cards)

    ranks = [rank_of(card) for card in hand]
    suits = [suit_of(card) for card in hand]
    is_flush = len(set(suits)) == 1
    straight_high = _straight_high(ranks)

    count = Counter(ranks)
    # Rank numbers grouped by how often they occur, each group highest first.
    quads = sorted((r for r, n in count.items() if n == 4), reverse=True)
    trips = sorted((r for r, n in count.items() if n == 3), reverse=True)
    pairs = sorted((r for r, n in count.items() if n == 2), reverse=True)
    singles = sorted((r for r, n in count.items() if n == 1), reverse=True)

    # Categories from strongest down, exactly as listed in the rules.
    if straight_high is not None and is_flush:
        return (STRAIGHT_FLUSH, straight_high)
    if quads:
        if full:
            return (QUADS, quads[0], singles[0])
        return (QUADS, quads[0])
    if is_flush:
        return (FLUSH, *sorted(ranks, reverse=True))
    if trips and pairs:
        if full:
            return (FULL_HOUSE, trips[0], pairs[0])
        return (FULL_HOUSE, trips[0])
    if straight_high is not None:
        return (STRAIGHT, straight_high)
    if trips:
        if full:
            return (TRIPS, trips[0], *singles)
        return (TRIPS, trips[0])
    if len(pairs) == 2:
        return (TWO_PAIR, pairs[0], pairs[1], singles[0])
    if pairs:
        if full:
            return (PAIR, pairs[0], *singles)
        return (PAIR, pairs[0], singles[0])
    if full:
        return (HIGH_CARD, *singles)
    return (HIGH_CARD, singles[0])


def reference_category(cards: Iterable[int]) -> int:
    """Category number 0..8 of a hand (the first element of its key)."""
    return reference_key(cards)[0]


def all_hands() -> Iterator[tuple[int, ...]]:
    """Every 5-card hand of the 32-card deck, as a sorted tuple: C(32, 5) = 201,376 of them."""
    return combinations(range(DECK_SIZE), HAND_SIZE)


def reference_strength_table(kickers: str = "seed") -> dict[tuple[int, ...], int]:
    """Map every sorted 5-tuple to its dense strength class.

    Class 0 is the weakest; classes are numbered by the sorted distinct keys, so two hands
    have the same class exactly when they tie, and a larger class is a stronger hand.
    """
    keys = {hand: reference_key(hand, kickers) for hand in all_hands()}
    class_of_key = {key: index for index, key in enumerate(sorted(set(keys.values())))}
    return {hand: class_of_key[key] for hand, key in keys.items()}
