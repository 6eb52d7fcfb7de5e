"""The exceptions raised by quartet_solver.

Every error the library raises on purpose derives from :class:`QuartetError`, so
``except QuartetError`` catches them all.  The subclasses also derive from the
matching built-in exception, so code written against ``ValueError`` keeps working.
Messages quote the offending input and the context it was given in.

>>> from quartet_solver.cards import Card
>>> try:
...     Card.parse("Xh")
... except NotationError as exc:
...     print(exc)
unknown rank 'X' in card 'Xh'
>>> issubclass(NotationError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "QuartetError",
    "NotationError",
    "IllegalActionError",
    "InvalidStateError",
    "SolverError",
]


class QuartetError(Exception):
    """Base class of every error raised by quartet_solver."""


class NotationError(QuartetError, ValueError):
    """Text that does not parse: a card, a card list, a deal, an arrangement."""


class IllegalActionError(QuartetError, ValueError):
    """A move, bid or question that the rules do not allow in the current state."""


class InvalidStateError(QuartetError, ValueError):
    """Input that parses but is not a valid position: wrong card counts,
    duplicated or missing cards, inconsistent options."""


class SolverError(QuartetError, RuntimeError):
    """A solver could not deliver a certified answer (numerical trouble, limits hit)."""
