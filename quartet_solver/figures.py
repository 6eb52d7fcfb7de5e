"""Figures of the studies and tournaments: matplotlib on a file-only backend,
and writing a figure with the library's errors (matplotlib is the optional
``plot`` extra)."""

from __future__ import annotations

from typing import Any

from .errors import InvalidStateError

__all__ = ["pyplot", "save_figure"]


def pyplot(what: str = "a plot") -> Any:
    """``matplotlib.pyplot`` on the Agg backend (files only), or an
    :class:`~quartet_solver.errors.InvalidStateError` saying that ``what``
    needs matplotlib and how to install it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidStateError(f"{what} needs matplotlib (pip install 'quartet-solver[plot]')") from None
    return plt


def save_figure(fig: Any, path: str, *, dpi: float | None = None) -> None:
    """Write ``fig`` to ``path`` (the format by its suffix) and close it; a file
    that cannot be written (a folder of that name, no such folder, an unknown
    format) is an :class:`~quartet_solver.errors.InvalidStateError`."""
    import matplotlib.pyplot as plt

    try:
        fig.savefig(path, dpi=dpi)
    except (OSError, ValueError) as exc:
        raise InvalidStateError(f"cannot write the plot {str(path)!r}: {exc}") from None
    finally:
        plt.close(fig)
