"""quartet_solver: solvers and analysis for Quintet, Klaverjas and Kwartet.

>>> import quartet_solver
>>> from quartet_solver import Card, CardSet
>>> CardSet("Ah Kh") | CardSet("Qh")
CardSet('Qh Kh Ah')
"""

from . import errors

try:
    from . import _core
except ImportError as exc:  # a source checkout without a build, or a build for another Python
    from importlib.util import find_spec as _find_spec

    _why = "is missing" if _find_spec(f"{__name__}._core") is None else f"does not load ({exc})"
    raise ImportError(
        f"quartet_solver's compiled core (quartet_solver._core) {_why}. It is built when the "
        "package is installed: run 'pip install .' (a C compiler is needed), or "
        "'pip install -e .' to import from this source folder."
    ) from None
from .cards import Card, CardSet, Deck, Rank, Suit, parse_cards
from .errors import (
    ArgumentError,
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
    "ArgumentError",
    "SolverError",
]
