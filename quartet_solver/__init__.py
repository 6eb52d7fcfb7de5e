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
from .cards import Card, CardSet, Decks, Rank, Suit, parse_cards
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
    "Decks",
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


def __getattr__(name: str) -> object:
    if name == "Deck":
        import warnings

        warnings.warn("quartet_solver.Deck is now quartet_solver.Decks (kwartet.Deck is a Kwartet deck of "
                      "quartets)", DeprecationWarning, stacklevel=2)
        return Decks
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
