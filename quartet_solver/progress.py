"""Progress of long runs on a stream (standard error by default): the count
done, the rate and the time left, e.g. ``1234/60000 samples  411/s  ETA 2m23s``.

On a terminal the line is rewritten in place (``\\r``) at most every 0.2 s;
elsewhere (a log file, a pipe) a new line is written at most every 5 s, so a
log does not fill up with carriage returns.  The last count is always shown.

>>> import io
>>> out = io.StringIO()
>>> times = iter([0.0, 1.0, 1.1, 3.0])        # the clock: a start and three updates
>>> with Progress(60000, stream=out, interval=1.0, clock=lambda: next(times)) as bar:
...     bar(400)        # 1.0 s after the start
...     bar(500)        # too soon after the last line: not shown
...     bar(1234)
>>> print(out.getvalue(), end="")
400/60000 samples  400/s  ETA 2m29s
1234/60000 samples  411/s  ETA 2m23s

A :class:`Progress` is itself a ``progress(done, total)`` callback, as
:func:`quartet_solver.klaverjas.analyse_bid` takes one.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

__all__ = ["Progress", "format_duration", "format_progress"]


def format_duration(seconds: float) -> str:
    """A short duration: ``45s``, ``2m25s``, ``1h02m``.

    >>> format_duration(45.4), format_duration(145), format_duration(3725)
    ('45s', '2m25s', '1h02m')
    """
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def format_progress(done: int, total: int, elapsed: float, unit: str = "samples") -> str:
    """One progress line: the count, and once there is a rate, the rate and the
    time left at that rate.

    >>> format_progress(1234, 60000, 3.0)
    '1234/60000 samples  411/s  ETA 2m23s'
    >>> format_progress(3, 50, 2.0, "hands"), format_progress(0, 50, 0.0, "hands")
    ('3/50 hands  1.5/s  ETA 31s', '0/50 hands')
    """
    line = f"{done}/{total} {unit}"
    if done <= 0 or elapsed <= 0:
        return line
    rate = done / elapsed
    shown = f"{rate:.1f}" if rate < 10 else f"{rate:.0f}"
    return f"{line}  {shown}/s  ETA {format_duration(max(0, total - done) / rate)}"


class Progress:
    """Progress output for ``total`` units of work: call it with the count done
    (and optionally the total), as chunks finish; use it as a context manager so
    that the terminal line is ended when the work ends or is interrupted.

    ``enabled=False`` shows nothing (``--quiet``).  ``interval`` is the least
    time between two lines (default: 0.2 s on a terminal, 5 s elsewhere); the
    count reaching the total is always shown.
    """

    def __init__(self, total: int, unit: str = "samples", *, stream: TextIO | None = None,
                 enabled: bool = True, interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty()) if isatty is not None else False
        self.interval = interval if interval is not None else 0.2 if self.tty else 5.0
        self._clock = clock
        self._start = clock()
        self._last: float | None = None
        self._open = False              # a terminal line is waiting for its end

    def __call__(self, done: int, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        if not self.enabled:
            return
        now = self._clock()
        if done < self.total and self._last is not None and now - self._last < self.interval:
            return
        self._last = now
        line = format_progress(done, self.total, now - self._start, self.unit)
        if self.tty:
            # the trailing spaces clear what is left of a longer previous line
            self.stream.write(f"\r{line}   ")
            self._open = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the terminal line, if one is open."""
        if self._open:
            self.stream.write("\n")
            self.stream.flush()
            self._open = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
