"""A Kwartet game record as a person writes it down: one public event a line.

::

    1 asks 2 for Ks: yes      # an ask and its answer (yes/no, hit/miss)
    P1 asks P0 Kh no          # seats by number, with or without a P
    P1(memory) asks P2(novice) for K: Kh: yes   # the lines of ``kwartet play``
    2 asks 0 for Composers: Bach, no
    1 lays K                  # a quartet laid down (name, rank text, or index)
    2 turns up Qh             # memory Kwartet: a middle card turned up and taken
    2 draws a card            # the draw-pile game: a draw you did not see
    0 draws Js                # ... and one you saw (your own)

Lines may also be separated by ``;``; ``#`` starts a comment.  Cards and quartets
are named as the deck names them (:meth:`~.decks.Deck.card`,
:meth:`~.decks.Deck.quartet`).  :func:`parse_events` reads the text into event
values; :func:`replay_record` feeds them to a :class:`~.knowledge.Knowledge`,
naming the line of an event that is illegal or contradicts what came before.

>>> from quartet_solver.kwartet import Deck, Knowledge
>>> deck = Deck.standard("AKQJ")
>>> parse_events(deck, "1 asks 2 for Ks: yes; 1 lays K")
[Asked(asker=1, target=2, card=11, hit=True), Laid(player=1, quartet=2)]
>>> parse_events(deck, "P1(memory) asks P2(novice) for K: Ks: yes")
[Asked(asker=1, target=2, card=11, hit=True)]
>>> k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
>>> replay_record(k, "1 asks 2 for Ks: yes\\n1 asks 0 for Kh: no")
>>> len(k.events), k.hand_sizes
(2, (5, 6, 4))
"""

from __future__ import annotations

import re

from ..errors import InvalidStateError, NotationError, QuartetError
from .decks import Deck
from .game import Asked, Drew, Event, Laid, Revealed
from .knowledge import Knowledge

__all__ = ["parse_events", "replay_record"]

_SEAT = r"[Pp]?(\d{1,3})(?:\([^()]*\))?"  # "P2(novice)", as kwartet play prints a seat
_ASK = re.compile(rf"^{_SEAT}\s+asks\s+{_SEAT}\s+(?:for\s+)?(.+?)(?:\s*[:,]\s*|\s+)(yes|no|hit|miss)$", re.I)
_LAY = re.compile(rf"^{_SEAT}\s+lays\s+(?:down\s+)?(.+?)$", re.I)
_REVEAL = re.compile(rf"^{_SEAT}\s+(?:turns\s+up|reveals)\s+(.+?)$", re.I)
_DRAW = re.compile(rf"^{_SEAT}\s+draws(?:\s+(a\s+card|.+?))?$", re.I)
_HIT = {"yes": True, "hit": True, "no": False, "miss": False}


def _lines(text: str) -> list[tuple[int, str]]:
    """The non-empty events of ``text`` with their line numbers (from 1), comments cut."""
    if not isinstance(text, str):
        raise NotationError(f"a Kwartet record must be text, got {text!r}")
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        for part in line.split(";"):
            part = " ".join(part.split())
            if part:
                out.append((number, part))
    return out


def _event(deck: Deck, number: int, line: str) -> Event:
    m = _ASK.match(line)
    try:
        if m:
            return Asked(int(m[1]), int(m[2]), deck.card(m[3]), _HIT[m[4].lower()])
        m = _LAY.match(line)
        if m:
            return Laid(int(m[1]), deck.quartet(m[2]))
        m = _REVEAL.match(line)
        if m:
            return Revealed(int(m[1]), deck.card(m[2]))
        m = _DRAW.match(line)
        if m:
            seen = m[2] is not None and " ".join(m[2].split()).lower() != "a card"
            return Drew(int(m[1]), deck.card(m[2]) if seen else None)
    except NotationError as exc:
        raise NotationError(f"line {number} ({line!r}): {exc}") from None
    raise NotationError(
        f"line {number} ({line!r}): not an event; write 'A asks T for CARD: yes' (or no), 'P lays QUARTET', "
        f"'P turns up CARD' or 'P draws' (a card you saw: 'P draws CARD')"
    )


def parse_events(deck: Deck, text: str) -> list[Event]:
    """The events of a written record (see the module docstring), in order.

    Raises :class:`~quartet_solver.errors.NotationError` naming the line that is not
    an event or names a card or quartet the deck lacks.  Seats are not checked here
    (the record does not say how many play); :func:`replay_record` checks them.

    >>> parse_events(Deck.themed(), "P2 asks P0 Bach miss  # a bluff?")
    [Asked(asker=2, target=0, card=4, hit=False)]
    >>> parse_events(Deck.themed(), "2 takes Bach")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.NotationError: line 1 ('2 takes Bach'): not an event; write 'A asks T for CARD: yes' (or no), 'P lays QUARTET', 'P turns up CARD' or 'P draws' (a card you saw: 'P draws CARD')
    """
    if not isinstance(deck, Deck):
        raise InvalidStateError(f"deck must be a kwartet.Deck, got {deck!r}")
    return [_event(deck, number, line) for number, line in _lines(text)]


def replay_record(knowledge: Knowledge, text: str) -> None:
    """Feed the events of a written record to ``knowledge``, in order.

    An event that does not parse, is illegal, or contradicts the earlier ones
    raises (:class:`~quartet_solver.errors.NotationError`,
    :class:`~quartet_solver.errors.IllegalActionError` or
    :class:`~quartet_solver.errors.InvalidStateError`) with its line number; the
    events before it stay applied, that one and the later ones are not.
    """
    if not isinstance(knowledge, Knowledge):
        raise InvalidStateError(f"knowledge must be a kwartet.Knowledge, got {knowledge!r}")
    events = [(number, line, _event(knowledge.deck, number, line)) for number, line in _lines(text)]
    for number, line, event in events:
        try:
            knowledge.apply(event)
        except QuartetError as exc:
            raise type(exc)(f"line {number} ({line!r}): {exc}") from None
