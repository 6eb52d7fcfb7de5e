"""quartet_solver: solvers and analysis for Quintet, Klaverjas and Kwartet.

>>> import quartet_solver
>>> from quartet_solver import Card, CardSet
>>> CardSet("Ah Kh") | CardSet("Qh")
CardSet('Qh Kh Ah')
"""

from . import errors
from .cards import Card, CardSet, Deck, Rank, Suit, parse_cards
from .errors import (
    IllegalActionError,
    InvalidStateError,
    NotationError,
    QuartetError,
    SolverError,
)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "errors",
    "Card",
    "CardSet",
    "Deck",
    "Rank",
    "Suit",
    "parse_cards",
    "QuartetError",
    "NotationError",
    "IllegalActionError",
    "InvalidStateError",
    "SolverError",
]
