"""Old spellings that keep working for a while, with a ``DeprecationWarning``
that names the new one.

:func:`keyword_options` lets a function whose options became keyword-only
still take them by position (in their old order), and says how to call it now.

>>> import warnings
>>> @keyword_options
... def solve(deal, *, points=(3, 4), seed=None):
...     return deal, points, seed
>>> solve("d", points=(1, 2))
('d', (1, 2), None)
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     solve("d", (1, 2), 7)
('d', (1, 2), 7)
>>> print(caught[0].message)
solve() takes its options by keyword: solve(..., points=..., seed=...)
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["keyword_options"]

_F = TypeVar("_F", bound=Callable[..., Any])


def keyword_options(func: _F) -> _F:
    """``func`` (whose options are keyword-only) taking them by position too,
    in the order they are declared, with a ``DeprecationWarning``."""
    params = inspect.signature(func).parameters.values()
    positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    options = [p.name for p in params if p.kind == p.KEYWORD_ONLY]
    name = func.__qualname__.removesuffix(".__init__")

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if len(args) > positional:
            extra = args[positional:]
            if len(extra) > len(options):
                raise TypeError(f"{name}() takes {positional} positional arguments and its options by keyword, "
                                f"got {len(args)} positional arguments")
            given = options[:len(extra)]
            warnings.warn(f"{name}() takes its options by keyword: {name}(..., "
                          f"{', '.join(f'{o}=...' for o in given)})", DeprecationWarning, stacklevel=2)
            for option, value in zip(given, extra):
                if option in kwargs:
                    raise TypeError(f"{name}() got multiple values for argument {option!r}")
                kwargs[option] = value
            args = args[:positional]
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
