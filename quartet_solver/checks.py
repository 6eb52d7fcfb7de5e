"""The checks of the arguments every game's functions take: integers, counts,
seeds, time limits, option names, worker settings.

Each check returns the value in its plain Python type (numpy integers become
ints) or raises :class:`~quartet_solver.errors.ArgumentError` with a message
that names the argument and quotes what was given.  Checks of positions and
cards (a hand of the wrong size, a card twice) belong to each game's modules
and raise :class:`~quartet_solver.errors.InvalidStateError`.

>>> import numpy as np
>>> check_int(np.int64(3), "samples", low=1)
3
>>> check_int(0, "samples", low=1, high=10)
Traceback (most recent call last):
...
quartet_solver.errors.ArgumentError: samples must be an int in 1..10, got 0
>>> check_choice("ROT", "variant", ("amsterdam", "rotterdam"), prefix=True)
'rotterdam'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

from .errors import ArgumentError

__all__ = ["as_int", "check_int", "check_optional_int", "check_seed", "check_seconds", "check_choice", "check_processes",
           "check_client", "check_progress", "check_plot_path"]

# the file formats matplotlib writes without extra packages
PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "jpg", "jpeg", "eps", "ps", "tif", "tiff", "webp", "pgf")


def as_int(value: object) -> int | None:
    """``value`` as an int when it is an integer (Python's or numpy's; not a
    bool), else None: how the library's checks read seats, counts and indices.

    >>> import numpy as np
    >>> as_int(np.int64(3)), as_int(True), as_int(3.0), as_int("3")
    (3, None, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"an int in {low:,}..{high:,}"
    if low is not None:
        return "a positive int" if low == 1 else f"an int >= {low}"
    if high is not None:
        return f"an int <= {high}"
    return "an int"


def check_int(value: object, what: str, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` checked as an int (numpy too, not a bool) in ``low..high``
    (either bound may be open).

    >>> check_int(2.0, "players", low=3, high=6)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: players must be an int in 3..6, got 2.0
    """
    n = as_int(value)
    if n is None or (low is not None and n < low) or (high is not None and n > high):
        raise ArgumentError(f"{what} must be {_range_text(low, high)}, got {value!r}")
    return n


def check_optional_int(value: object, what: str, *, low: int | None = None, high: int | None = None) -> int | None:
    """:func:`check_int` that lets ``None`` through (an unset limit).

    >>> check_optional_int(None, "node_limit", low=1) is None
    True
    >>> check_optional_int(0, "node_limit", low=1)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: node_limit must be a positive int or None, got 0
    """
    if value is None:
        return None
    n = as_int(value)
    if n is None or (low is not None and n < low) or (high is not None and n > high):
        raise ArgumentError(f"{what} must be {_range_text(low, high)} or None, got {value!r}")
    return n


def check_seed(seed: object) -> int | str | None:
    """A random seed of the library, checked: ``None``, an int ``>= 0`` (numpy
    integers too, returned as an int) or a string.  Anything else raises
    :class:`~quartet_solver.errors.ArgumentError`: :class:`random.Random`
    would crash on it or (a NaN) seed itself differently in every process, and
    it seeds itself with the absolute value of an int, so ``-7`` would give the
    stream of ``7``.

    >>> check_seed("abc"), check_seed(7)
    ('abc', 7)
    >>> check_seed(1.5)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: seed must be an int >= 0, a string or None, got 1.5
    >>> check_seed(-7)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: seed must be an int >= 0, a string or None, got -7
    """
    if seed is None or isinstance(seed, str):
        return seed
    value = as_int(seed)
    if value is None or value < 0:
        raise ArgumentError(f"seed must be an int >= 0, a string or None, got {seed!r}")
    return value


def check_seconds(value: object, what: str, *, optional: bool = True) -> float | None:
    """A positive, finite number of seconds (a time limit or budget); ``None``
    passes when ``optional``.

    >>> check_seconds(0.25, "time_budget")
    0.25
    >>> check_seconds(float("nan"), "time_budget")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: time_budget must be a positive number of seconds or None, got nan
    """
    if value is None and optional:
        return None
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    seconds = float(value) if ok else math.nan  # type: ignore[arg-type]
    if not (math.isfinite(seconds) and seconds > 0):
        tail = " or None" if optional else ""
        raise ArgumentError(f"{what} must be a positive number of seconds{tail}, got {value!r}")
    return seconds


def check_choice(value: object, what: str, choices: Sequence[str], *, prefix: bool = False) -> str:
    """One of ``choices`` by name, case-insensitive; with ``prefix`` an
    unambiguous prefix of one is enough.

    >>> check_choice("full", "kickers", ("seed", "full"))
    'full'
    >>> check_choice("fast", "kickers", ("seed", "full"))
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: kickers must be one of 'seed', 'full', got 'fast'
    """
    if isinstance(value, str):
        text = value.strip().lower()
        exact = [c for c in choices if c.lower() == text]
        if exact:
            return exact[0]
        if prefix and text:
            found = [c for c in choices if c.lower().startswith(text)]
            if len(found) == 1:
                return found[0]
    names = ", ".join(repr(c) for c in choices)
    raise ArgumentError(f"{what} must be one of {names}, got {value!r}")


def check_processes(processes: object) -> int | None:
    """``processes`` checked: ``None`` or a positive int (numpy too).

    >>> import numpy as np
    >>> check_processes(np.int32(2)), check_processes(None)
    (2, None)
    """
    return check_optional_int(processes, "processes", low=1)


def check_client(client: Any, what: str = "client") -> Any:
    """``client`` checked: ``None``, a dask.distributed ``Client`` or any
    executor with ``submit``; ``what`` names it in the error."""
    if client is not None and not callable(getattr(client, "submit", None)):
        raise ArgumentError(f"{what} must be a dask.distributed Client or an executor with submit(), "
                            f"got {client!r}")
    return client


def check_progress(progress: object) -> None:
    """``progress`` checked: ``None`` or a callable ``progress(done, total)``."""
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be a callable progress(done, total) or None, got {progress!r}")


def check_plot_path(path: object, what: str = "--plot") -> str:
    """A plot's file name, checked before the work it shows: a name whose
    extension is a format matplotlib writes, in a folder that exists.

    >>> check_plot_path("habits.png")
    'habits.png'
    >>> check_plot_path("habits.xyz")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: --plot must end in a format matplotlib writes (.png, .pdf, .svg, ...), got 'habits.xyz'
    """
    import os

    if not isinstance(path, str) or not path.strip():
        raise ArgumentError(f"{what} needs a file name, got {path!r}")
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        raise ArgumentError(f"{what} must end in a format matplotlib writes (.png, .pdf, .svg, ...), got {path!r}")
    folder = os.path.dirname(os.path.abspath(os.path.expanduser(path)))
    if not os.path.isdir(folder):
        raise ArgumentError(f"{what}: no folder {folder!r} to write {os.path.basename(path)!r} in")
    return path
