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
    "ArgumentError",
    "SolverError",
]


class QuartetError(Exception):
    """Base class of every error raised by quartet_solver."""


class NotationError(QuartetError, ValueError):
    """Text that does not parse: a card, a card list (a card twice in it too), a
    deal, an arrangement."""


class IllegalActionError(QuartetError, ValueError):
    """A move, bid or question that the rules do not allow in the current state."""


class InvalidStateError(QuartetError, ValueError):
    """Input that parses but is not a valid position: wrong card counts, a
    card in two places or missing, a history no deal explains, inconsistent
    options.  A bad argument in itself (a negative count, an unknown option
    name) raises its subclass :class:`ArgumentError`."""


class ArgumentError(InvalidStateError):
    """An argument outside what a function accepts: a count, a seed, a limit, a
    time budget or an option's name, whatever the position or game it goes with.

    It derives from :class:`InvalidStateError`, which such arguments raised
    before this class existed, so ``except InvalidStateError`` still catches
    them; ``except ArgumentError`` tells a bad argument from a position that
    cannot occur.

    >>> from quartet_solver.checks import check_seed
    >>> try:
    ...     check_seed(-1)
    ... except ArgumentError as exc:
    ...     print(exc)
    seed must be an int >= 0, a string or None, got -1
    """


class SolverError(QuartetError, RuntimeError):
    """A solver could not deliver a certified answer (numerical trouble, limits hit)."""
