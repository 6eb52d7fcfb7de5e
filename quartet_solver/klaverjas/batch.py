"""DD tables of many deals at once: on a process pool of its own, on any
``concurrent.futures`` executor or on a dask.distributed cluster.

:func:`dd_tables` solves every trump x playing team of each deal, as
:func:`~quartet_solver.klaverjas.analysis.dd_table` does one deal, into one
integer array ``nets[deal, trump (c, d, h, s), team (0 = N/S, 1 = E/W)]``.
The deals are given, or ``n`` random ones are made from a seed: deal ``i``
is ``Deal.random(<seed>#<i>)`` (:func:`random_deals`), made in the worker
that solves it, so a million deals never sit in memory at once and the
result does not depend on where, or in what chunks, they were solved.

>>> from quartet_solver.klaverjas import Deal, dd_table
>>> deals = [Deal.random(seed=i) for i in range(3)]
>>> nets = dd_tables(deals, leader="E", processes=1)
>>> nets.shape, nets.dtype.kind
((3, 4, 2), 'i')
>>> int(nets[2, 3, 1]) == dd_table(deals[2], leader="E").net("s", "EW")
True
>>> same = dd_tables(list(random_deals(2, seed=5)), leader="E", processes=1)
>>> bool((dd_tables(2, leader="E", seed=5, processes=1) == same).all())
True
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import numpy as np

from ..cards import Decks, piquet_bit, piquet_mask
from ..checks import as_int, check_seed
from ..chunks import Slots, check_client, check_processes, check_progress, chunk_size, map_chunks, worker_count
from ..deprecation import keyword_options
from ..errors import ArgumentError
from .analysis import _SUIT_ORDER, _rules
from .dd import _deal_value_pit
from .deal import Deal
from .rules import Rules, seat_index

__all__ = ["dd_tables", "random_deals", "MAX_DEALS"]

#: The most deals :func:`dd_tables` takes in one call (its result then holds
#: 320 MB; about 80 CPU-days of solving).
MAX_DEALS = 10_000_000
_MAX_CHUNK = 32         # deals in a chunk at most: about a second of solving
_NO_PIT = 1 << 62       # a pit threshold no value reaches: no line is followed
# the 32 cards in the order Deal.random shuffles them, as kernel bits (cards.piquet_bit)
_DECK_BITS = tuple(piquet_bit(c) for c in Decks.piquet().cards())

Masks = tuple[int, int, int, int]
Progress = Callable[[int, int], None]


def _deal_seed(seed: int | str, i: int) -> str:
    """The seed of random deal ``i`` of a batch made from ``seed`` (the repr
    keeps the int 5 and the text ``"5"`` apart).

    >>> _deal_seed(5, 0), _deal_seed("5", 0)
    ('5#0', "'5'#0")
    """
    return f"{seed!r}#{i}"


def random_deals(n: int, seed: int | str) -> Iterator[Deal]:
    """The ``n`` random deals that ``dd_tables(n, seed=seed)`` solves, made one
    at a time: deal ``i`` is ``Deal.random(f"{seed!r}#{i}")``, so the first
    ``m`` deals of a larger batch are those of a smaller one.

    >>> [d.pbn()[:11] for d in random_deals(2, seed=1)] == [d.pbn()[:11] for d in random_deals(3, seed=1)][:2]
    True
    """
    count, key = _count(n), check_seed(seed)
    if count is None or key is None:
        raise ArgumentError(f"random_deals needs a count 0..{MAX_DEALS:,} and a seed, got {n!r}, {seed!r}")
    for i in range(count):
        yield Deal.random(_deal_seed(key, i))


def _random_masks(seed: int | str, i: int) -> Masks:
    """Random deal ``i`` of ``seed`` (:func:`random_deals`) as the four hands'
    kernel masks, without making a :class:`Deal` (the same shuffle).

    >>> _random_masks(3, 7) == tuple(piquet_mask(h) for h in Deal.random(_deal_seed(3, 7)).hands)
    True
    """
    bits = list(_DECK_BITS)
    _random.Random(_deal_seed(seed, i)).shuffle(bits)
    n, e, s, w = (sum(1 << b for b in bits[8 * k : 8 * k + 8]) for k in range(4))
    return n, e, s, w


def _count(n: object) -> int | None:
    count = as_int(n)
    return count if count is not None and 0 <= count <= MAX_DEALS else None


# -- running chunks anywhere ----------------------------------------------------------


# -- DD tables ------------------------------------------------------------------------


# a chunk: (first deal's number, count, the seed of random deals or None,
# the given deals' masks or None)
_Part = tuple[int, int, "int | str | None", "list[Masks] | None"]


def _tables_chunk(part: _Part, leader: int, rules: Rules, pit: bool) -> tuple[int, np.ndarray, np.ndarray]:
    """Nets (and pit flags, when ``pit``) of the chunk's deals, for every trump
    x playing team: ``(start, nets[count, 4, 2], pits[count, 4, 2])``.  Random
    deals are made here, from the seed and their numbers."""
    start, count, seed, masks = part
    nets = np.zeros((count, 4, 2), dtype=np.int32)
    pits = np.zeros((count, 4, 2), dtype=bool)
    pit_from = 162 + rules.pit - 20 if pit else _NO_PIT
    for j in range(count):
        hands = masks[j] if masks is not None else _random_masks(cast("int | str", seed), start + j)
        for t, suit in enumerate(_SUIT_ORDER):
            for team in (0, 1):
                nets[j, t, team], pits[j, t, team] = _deal_value_pit(hands, int(suit), team, leader, rules, pit_from)
    return start, nets, pits


def _deal_parts(deals: Sequence[Deal | str], size: int) -> Iterator[_Part]:
    """The given deals in chunks of ``size``, each checked and turned into
    masks only as its chunk is taken."""
    for start in range(0, len(deals), size):
        masks: list[Masks] = []
        for i in range(start, min(start + size, len(deals))):
            deal = deals[i]
            if not isinstance(deal, (Deal, str)):
                raise ArgumentError(f"deal {i} must be a klaverjas Deal or PBN text, got {deal!r}")
            n, e, s, w = (piquet_mask(h) for h in Deal.of(deal).hands)
            masks.append((n, e, s, w))
        yield start, len(masks), None, masks


def _seed_parts(total: int, seed: int | str, size: int) -> Iterator[_Part]:
    for start in range(0, total, size):
        yield start, min(size, total - start), seed, None


def _source(deals: object, seed: object) -> tuple[int, int | str | None, Sequence[Any] | None]:
    """``(count, seed, None)`` for a number of random deals (a fresh seed
    when none is given), ``(len, None, deals)`` for given ones."""
    n = as_int(deals)
    if n is not None:
        if _count(n) is None:
            raise ArgumentError(f"the number of deals must be 0..{MAX_DEALS:,}, got {deals!r}")
        key = check_seed(seed)
        return n, (_random.SystemRandom().randrange(1 << 63) if key is None else key), None
    if isinstance(deals, (str, bytes, bytearray)) or not isinstance(deals, Sequence):
        raise ArgumentError(f"deals must be a sequence of deals or a number of random deals, got {deals!r}")
    if seed is not None:
        raise ArgumentError("seed= makes random deals: give it with a number of deals, not with the deals")
    if len(deals) > MAX_DEALS:
        raise ArgumentError(f"at most MAX_DEALS = {MAX_DEALS:,} deals, got {len(deals):,}")
    return len(deals), None, deals


def _dd_batch(deals: Sequence[Deal | str] | int, leader: str | int = "E",
              rules: Rules | str = Rules.AMSTERDAM, client: Any = None, processes: int | None = None,
              seed: int | str | None = None, progress: Progress | None = None,
              pit: bool = False) -> tuple[np.ndarray, np.ndarray, int | str | None]:
    """:func:`dd_tables` with the pit flags (a principal variation takes all
    eight tricks for the playing team; all False unless ``pit``) and the seed
    of random deals (None for given ones)."""
    total, key, given = _source(deals, seed)
    lead, checked = seat_index(leader), _rules(rules)
    workers = worker_count(check_client(client), check_processes(processes), total, parallel_from=16)
    check_progress(progress)
    nets = np.zeros((total, 4, 2), dtype=np.int32)
    pits = np.zeros((total, 4, 2), dtype=bool)
    size = chunk_size(total, workers, _MAX_CHUNK)
    parts = _deal_parts(given, size) if given is not None else _seed_parts(total, cast("int | str", key), size)
    slots = Slots(total)

    def done(result: tuple[int, np.ndarray, np.ndarray]) -> None:
        start, chunk_nets, chunk_pits = result
        slots.take(start, len(chunk_nets))
        nets[start : start + len(chunk_nets)] = chunk_nets
        pits[start : start + len(chunk_nets)] = chunk_pits
        if progress is not None:
            progress(slots.count, total)

    map_chunks(_tables_chunk, parts, (lead, checked, pit), done, client, workers)
    slots.check()
    return nets, pits, key


@keyword_options
def dd_tables(
    deals: Sequence[Deal | str] | int,
    leader: str | int = "E",
    *,
    rules: Rules | str = Rules.AMSTERDAM,
    client: Any = None,
    processes: int | None = None,
    seed: int | str | None = None,
    progress: Progress | None = None,
) -> np.ndarray:
    """The double-dummy net of every trump x playing team of many deals.

    Returns an ``int32`` array of shape ``(len(deals), 4, 2)``: ``nets[i, t,
    team]`` is ``dd_table(deals[i], leader, rules).net("cdhs"[t], team)``,
    the net score of ``team`` (0 = N/S, 1 = E/W) playing with trump ``t``
    (clubs, diamonds, hearts, spades) when ``leader`` leads the first trick.

    ``deals`` is a sequence of :class:`Deal` (or PBN text), or a number ``n``
    of random deals made from ``seed`` (an int or a string; ``None`` draws a
    fresh one): deal ``i`` is the ``i``-th of :func:`random_deals`, made in the
    worker that solves it, so memory holds the result and a few chunks, not
    the deals.  The result is the same whatever runs it.

    Work goes to ``client`` if given: a dask.distributed ``Client`` or any
    executor with ``submit(fn, *args) -> future`` (``concurrent.futures``),
    planned for ``processes`` workers (default: the executor's
    ``_max_workers``, a dask client's threads, else the usable CPUs); else to
    ``processes`` worker processes of its own (default: the CPUs this process
    may run on, from 16 deals on, else in-process).  The deals go in chunks
    of at most 32 (about a second of solving), at most four chunks a worker
    in flight; ``progress(done, total)`` is called with the deals solved as
    each chunk comes back.  A worker of a dask cluster that dies mid-run has
    its chunks run again elsewhere (the scheduler's doing): each deal's
    result is taken once, and a chunk that never comes back or comes back
    twice is a :class:`~quartet_solver.errors.SolverError`.

    Ctrl-C (or any exception) stops the run as in
    :func:`~quartet_solver.klaverjas.analyse_bid`: nothing more is submitted,
    the chunks not started are cancelled, the own worker processes are
    terminated; a given client is not shut down.  Bad input raises
    :class:`~quartet_solver.errors.InvalidStateError`.

    >>> dd_tables(3, seed=1, processes=1).shape
    (3, 4, 2)
    >>> dd_tables("N:AKQJT987... ...", processes=1)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: deals must be a sequence of deals or a number of random deals, got 'N:AKQJT987... ...'
    """
    return _dd_batch(deals, leader, rules, client, processes, seed, progress)[0]
