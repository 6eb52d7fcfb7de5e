"""Exact double-dummy solver for Klaverjas (all four hands visible).

The objective is the **net score** of the playing team (the rules:
:mod:`quartet_solver.klaverjas.rules`): its score minus the other team's after
pit and nat; the playing team maximises it, the other team minimises it.
Every position can be solved: the start of a hand, between tricks or in the
middle of a trick.

>>> from quartet_solver.klaverjas import Deal, PlayState
>>> st = PlayState(Deal.random(seed=7), trump="s", declarer="N", leader="E")
>>> res = solve(st)
>>> res.value == solve_deal(st.deal, "s", declarer="N", leader="E")
True
>>> res.value == min(res.card_values.values())      # E/W (defenders) to move
True
>>> after = solve(st.play(res.best_cards[0]))
>>> after.value == res.value and len(res.pv) == 32
True

How it works, in short: the net score splits into the minimax of the score
difference ``d`` (exact when the hand is made), the minimax of a made-or-nat
value ``h`` where it is nat, and the *roem game*, which bounds ``h`` cheaply;
all three are fail-soft alpha-beta searches with a transposition table, a
table of *twins* (positions equal but for the card points), cheap bounds,
move ordering by killers and estimates, and dedicated searches of the last
tricks, in the compiled kernel (``cext/klaverjas_*.pxi``).  The whole
description, with the proofs of the decomposition and the limits, is the
guide "The Klaverjas double-dummy solver: how it works"
(``docs/klaverjas_solver.md``).
"""

from __future__ import annotations

import numbers
import threading
import time
from dataclasses import dataclass, field

from .._core import KlaverjasKernel
from ..cards import Card, CardMap, Suit, piquet_bit, piquet_card, piquet_mask
from ..checks import as_int, check_optional_int
from ..deprecation import keyword_options
from ..errors import ArgumentError, InvalidStateError
from .deal import Deal
from .rules import SEATS, Rules, as_suit, seat_index
from .state import PlayState, stuk_seat

__all__ = ["DDResult", "solve", "solve_deal", "reaches", "is_made", "DEFAULT_TT_BITS"]

DEFAULT_TT_BITS = 18
"""The default transposition table holds ``2 ** 18`` entries of 32 bytes (8 MiB);
the twin table beside it ``2 ** 14`` of 40 bytes (640 KiB)."""

_STUK = {"trick": 0, "hand": 1, "off": 2}
_LOCAL = threading.local()  # one kernel (and transposition table) per thread


def _kernel(tt_bits: int) -> KlaverjasKernel:
    """This thread's kernel with a table of ``2 ** tt_bits`` entries (made on
    first use)."""
    # checked before the look-up: 18.0 would find the kernel of 18
    bits = as_int(tt_bits)
    if bits is None or not 4 <= bits <= 30:
        raise ArgumentError(f"tt_bits must be an int in 4..30 (a table of 2 ** tt_bits entries), "
                                f"got {tt_bits!r}")
    tt_bits = bits
    kernels = getattr(_LOCAL, "kernels", None)
    if kernels is None:
        kernels = _LOCAL.kernels = {}
    kernel = kernels.get(tt_bits)
    if kernel is None:
        try:
            kernel = kernels[tt_bits] = KlaverjasKernel(tt_bits)
        except MemoryError:
            raise ArgumentError(f"tt_bits={tt_bits}: no memory for a table of 2 ** {tt_bits} entries "
                                f"(the default is {DEFAULT_TT_BITS})") from None
    return kernel


def _check_limits(node_limit: object, time_limit: object) -> None:
    """A node limit is a positive int, a time limit a number of seconds >= 0
    (0: stop at the first look at the clock); None is no limit.

    >>> _check_limits(-1, None)
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: node_limit must be a positive int or None, got -1
    """
    check_optional_int(node_limit, "node_limit", low=1)
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real)
                                   or not 0 <= float(time_limit) < float("inf")):
        raise ArgumentError(f"time_limit must be a number of seconds >= 0 or None, got {time_limit!r}")


#: The largest pit bonus the solver takes: its tables hold 16-bit scores, and
#: with this pit every score stays far inside them.
MAX_DD_PIT = 10_000

# more than any net score: 162 card points, the roem (under 1,000) and the pit
_SCORE_BOUND = 2 * MAX_DD_PIT


def _check_dd_rules(rules: Rules) -> Rules:
    """``rules`` if the solver can play them (a pit of at most :data:`MAX_DD_PIT`).

    >>> _check_dd_rules(Rules(pit=10**6))
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: the double-dummy solver takes a pit of at most 10,000 (its tables hold 16-bit scores), got pit=1000000
    """
    if rules.pit > MAX_DD_PIT:
        raise ArgumentError(f"the double-dummy solver takes a pit of at most {MAX_DD_PIT:,} "
                                f"(its tables hold 16-bit scores), got pit={rules.pit}")
    return rules


@dataclass(frozen=True)
class DDResult:
    """Outcome of :func:`solve`.

    ``value``: net score of the playing team under optimal play by both teams;
    ``card_values``: the value after each legal card of the player to move
    (a :class:`~quartet_solver.cards.CardMap`: ``card_values["Qh"]`` works);
    ``best_cards``: the cards reaching ``value``; ``pv``: a principal variation
    (cards to the end of the hand); ``exact`` is False when a node or time limit
    stopped the search, and then ``lower <= value <= upper`` are what is known
    and ``card_values`` holds only the cards solved before the stop.  With a
    limit the value is searched first (it costs a fraction of every card's
    value), so a stop after it still gives ``lower == value == upper``;
    otherwise ``value`` is the midpoint of the bounds.
    """

    value: int
    card_values: CardMap[int]
    best_cards: list[Card]
    pv: list[Card]
    nodes: int
    seconds: float
    exact: bool = True
    lower: int = 0
    upper: int = 0
    to_move: str = ""
    playing_team: str = ""
    extra: dict[str, object] = field(default_factory=dict, repr=False)
    legal_count: int = field(default=0, repr=False)

    def pretty(self) -> str:
        """The value, the value of each legal card (best first, ``*`` marks the
        best) and the principal variation, as text.

        >>> st = PlayState(Deal.random(seed=7), "h", "N", "E")
        >>> text = solve(st).pretty()
        >>> text.splitlines()[0].startswith("value (net for the playing team): ")
        True
        """
        cost = f"{self.nodes} nodes, {self.seconds * 1000:.1f} ms"
        if self.exact:
            lines = [f"value (net for the playing team): {self.value:+d}  (exact; {cost})"]
        elif self.lower == self.upper:
            lines = [f"value (net for the playing team): {self.value:+d}  (exact; a limit stopped the search "
                     f"of the cards' values; {cost})"]
        else:
            side = ", so the hand is made" if self.lower >= 0 else ", so the hand is nat" if self.upper < 0 else ""
            lines = [f"value (net for the playing team): between {self.lower:+d} and {self.upper:+d}{side}  "
                     f"(a limit stopped the search; {cost})"]
        if not self.exact and self.card_values:
            lines.append(f"exact values of the cards solved before the stop "
                         f"({len(self.card_values)} of {self.legal_count}):")
        mover, best = self.to_move, set(self.best_cards)
        if self.card_values:
            aim = "maximise" if SEATS.index(mover) % 2 == ("NS", "EW").index(self.playing_team) else "minimise"
            lines.append(f"value of each card for {mover} ({mover}'s team {aim}s the playing team's net; "
                         f"* = best for {mover}):")
        for card, value in sorted(self.card_values.items(), key=lambda cv: (-cv[1], cv[0].index)):
            lines.append(f"  {card}: {value:+d}{'  *' if card in best else ''}")
        if self.pv:
            lines.append("principal variation: " + " ".join(map(str, self.pv)))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "value": self.value,
            "exact": self.exact,
            "lower": self.lower,
            "upper": self.upper,
            "to_move": self.to_move,
            "playing_team": self.playing_team,
            "card_values": {str(c): v for c, v in self.card_values.items()},
            "best_cards": [str(c) for c in self.best_cards],
            "pv": [str(c) for c in self.pv],
            "nodes": self.nodes,
            "seconds": self.seconds,
        }

    def __repr__(self) -> str:
        cards = " ".join(f"{c}={v}" for c, v in self.card_values.items())
        best = " ".join(map(str, self.best_cards))
        bound = "" if self.exact else f", bounds=[{self.lower}, {self.upper}] (limit hit)"
        return (f"DDResult(value={self.value}{bound}, to_move={self.to_move!r}, best=[{best}], "
                f"cards=[{cards}], nodes={self.nodes}, seconds={self.seconds:.4f})")


def _load(kernel: KlaverjasKernel, state: PlayState, new_generation: bool = True,
          hands: list[int] | None = None) -> None:
    """Load ``state`` into ``kernel`` (``hands``: other card masks for the
    hands, in the kernel's bit layout, for tests)."""
    rules = _check_dd_rules(state.rules)
    playing = state.playing_team
    tricks = state.tricks
    flags = 0
    for team in (0, 1):
        if all(t.winner % 2 == team for t in tricks):
            flags |= 1 << team
    points, roem = state.points, state.roem
    kernel.load(
        [piquet_mask(h) for h in state.hands()] if hands is None else hands,
        [piquet_bit(c) for c in state.trick],
        seat_index(state.trick_leader),
        int(state.trump),
        rules.variant == "rotterdam",
        _STUK[rules.stuk],
        stuk_seat(state.deal, state.trump, rules),
        rules.pit,
        rules.tie_is_nat,
        playing,
        points[playing] - points[1 - playing],
        roem[0] + roem[1],
        flags,
        len(tricks),
        new_generation,
    )


@keyword_options
def solve(
    state: PlayState,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
    tt_bits: int = DEFAULT_TT_BITS,
    pv: bool = True,
) -> DDResult:
    """Solve ``state`` exactly: its value, the value of every legal card and a
    principal variation.  ``node_limit`` / ``time_limit`` (seconds of the
    calling thread's CPU time, so solves in several threads at once each have
    their own) stop the search early (``exact=False``, with bounds ``lower``,
    ``upper``).
    With a limit the search goes in the order that leaves the most behind a
    stop: first whether the hand is made (a null-window test, usually a small
    part of the cost; after it ``lower >= 0`` if made, else ``upper`` is at
    most ``-(162 + roem so far)``), then the exact value (``lower == upper``),
    then each card's value.  This order costs more nodes than the cards'
    values alone (150 random positions, with a limit that stops nothing:
    1.03x at the median, 1.08x on average).  ``pv=False`` skips the principal
    variation (faster).

    >>> from quartet_solver.klaverjas import Deal, PlayState
    >>> st = PlayState(Deal.random(seed=3), trump="h", declarer="N", leader="E")
    >>> r = solve(st.play(st.legal_cards()[0]))
    >>> r.exact, len(r.card_values) == len(st.play(st.legal_cards()[0]).legal_cards())
    (True, True)
    >>> solve(st, node_limit=10).exact
    False
    """
    if not isinstance(state, PlayState):
        raise ArgumentError(f"solve() needs a PlayState, got {type(state).__name__}")
    if state.is_over:
        raise InvalidStateError(f"the hand is over: nothing to solve ({state!r})")
    _check_limits(node_limit, time_limit)
    start = time.perf_counter()
    kernel = _kernel(tt_bits)
    _load(kernel, state)
    kernel.set_limits(node_limit, time_limit)
    seat = kernel.to_move
    maxi = seat % 2 == state.playing_team
    lower, upper = kernel.trivial_bounds()
    known = None
    if node_limit is not None or time_limit is not None:
        # what a stop leaves should say as much as it can: first whether the
        # hand is made (one null-window test, a fraction of the value's cost),
        # then the value, then the cards' values
        made = kernel.reaches(0)
        if not kernel.aborted:
            if made:
                lower = max(lower, 0)           # made outcomes are worth 0 or more
            else:                               # nat ones at most -(162 + roem so far)
                upper = min(upper, -(162 + sum(state.roem)))
            known = kernel.value()
            if kernel.aborted:
                known = None
    values = {piquet_card(bit): v for bit, v in kernel.move_values()}
    searched = kernel.nodes
    legal = state.legal_cards()
    exact = len(values) == len(legal) and not kernel.aborted
    if exact:
        lower = upper = max(values.values()) if maxi else min(values.values())
    elif known is not None:
        lower = upper = known
    elif values:
        if maxi:
            lower = max(lower, max(values.values()))
        else:
            upper = min(upper, min(values.values()))
    value = (lower + upper) // 2            # the value when known, else the midpoint
    best = [c for c in legal if values.get(c) == value] if lower == upper else []
    line: list[Card] = []
    if exact and pv:
        first = best[0]
        kernel.play(piquet_bit(first))
        line = [first] + [piquet_card(b) for b in kernel.pv(value)]
        if kernel.aborted or len(line) != 32 - 4 * len(state.tricks) - len(state.trick):
            line = line[:1]
        searched = kernel.nodes
    return DDResult(
        value=value,
        card_values=CardMap({c: values[c] for c in legal if c in values}),
        best_cards=best,
        pv=line,
        nodes=searched,
        seconds=time.perf_counter() - start,
        exact=exact,
        lower=lower,
        upper=upper,
        to_move=SEATS[seat],
        playing_team=("NS", "EW")[state.playing_team],
        legal_count=len(legal),
    )


def reaches(state: PlayState, target: int, *, tt_bits: int = DEFAULT_TT_BITS) -> bool:
    """Whether the playing team's exact net score from ``state`` (any position,
    mid-trick included) is at least ``target`` under optimal play by both teams.

    One null-window search answers it, where the exact value takes a search
    with a wide window (and, when the hand is nat, several tests), so it is
    usually much cheaper than :func:`solve`; a ``target`` close to the value
    costs the most.  :func:`is_made` is ``reaches(state, 0)``.

    >>> from quartet_solver.klaverjas import Deal, PlayState
    >>> st = PlayState(Deal.random(seed=3), trump="h", declarer="N", leader="E")
    >>> v = solve(st, pv=False).value
    >>> reaches(st, v), reaches(st, v + 1)
    (True, False)
    """
    if not isinstance(state, PlayState):
        raise ArgumentError(f"reaches() needs a PlayState, got {type(state).__name__}")
    goal = as_int(target)
    if goal is None:
        raise ArgumentError(f"target must be an int (a net score), got {target!r}")
    target = goal
    if state.is_over:
        return state.result().net >= target
    kernel = _kernel(tt_bits)
    kernel.set_limits(None, None)
    _load(kernel, state)
    # every net score lies within +-_SCORE_BOUND, so a target beyond is answered
    # as that bound would be (and fits the core's C int)
    return bool(kernel.reaches(max(-_SCORE_BOUND, min(_SCORE_BOUND, target))))


def is_made(state: PlayState, *, tt_bits: int = DEFAULT_TT_BITS) -> bool:
    """Whether the playing team makes the hand (is not nat) under optimal play
    by both teams: made hands score at least 0 and nat ones at most -162, so
    this is ``reaches(state, 0)`` (the question a contract solver answers, and
    the cheapest one).

    >>> from quartet_solver.klaverjas import Deal, PlayState
    >>> st = PlayState(Deal.random(seed=3), trump="h", declarer="N", leader="E")
    >>> is_made(st) == (solve(st, pv=False).value >= 0)
    True
    """
    return reaches(state, 0, tt_bits=tt_bits)


@keyword_options
def solve_deal(
    deal: Deal | str,
    trump: str | Suit,
    declarer: str | int,
    leader: str | int,
    *,
    rules: Rules | str = Rules.AMSTERDAM,
    tt_bits: int = DEFAULT_TT_BITS,
) -> int:
    """The exact net score of the playing team for a full deal (fast path: the
    value only, no per-card values, no principal variation).

    >>> d = Deal.random(seed=7)
    >>> v = solve_deal(d, "h", declarer="N", leader="E")
    >>> v == solve(PlayState(d, "h", "N", "E"), pv=False).value
    True
    """
    deal = Deal.of(deal)
    rules = Rules.named(rules)
    kernel = _kernel(tt_bits)
    return _solve_masks(kernel, tuple(piquet_mask(h) for h in deal.hands), int(as_suit(trump)),
                        seat_index(declarer), seat_index(leader), rules)


def _solve_masks(kernel: KlaverjasKernel, hands: tuple[int, ...], trump: int, declarer: int,
                 leader: int, rules: Rules) -> int:
    """:meth:`KlaverjasKernel.solve_deal` for a full deal given as the four
    hands' kernel masks (:func:`~quartet_solver.cards.piquet_mask`) and seat indices; the position
    stays loaded, so :meth:`KlaverjasKernel.pv` can follow."""
    _check_dd_rules(rules)
    kernel.set_limits(None, None)
    return kernel.solve_deal(*hands, trump, leader, declarer % 2, rules.variant == "rotterdam",
                             _STUK[rules.stuk], rules.pit, rules.tie_is_nat)


def _solve_deal_line(state: PlayState, *, tt_bits: int = DEFAULT_TT_BITS,
                     line_from: int | None = None) -> tuple[int, list[Card]]:
    """The value of a full deal (``state`` at its start) and a principal
    variation, which reuses the transposition table of the solve (cheaper than
    :func:`solve`, which also values every first card).  With ``line_from``,
    the line is only made when the value is at least that (else it is empty).

    >>> st = PlayState(Deal.random(seed=3), "c", "N", "E")
    >>> value, line = _solve_deal_line(st)
    >>> value == solve_deal(st.deal, "c", "N", "E") and st.play_all(line).result().net == value
    True
    >>> _solve_deal_line(st, line_from=value + 1) == (value, [])
    True
    """
    if state.history:
        raise InvalidStateError("_solve_deal_line needs the start of a hand")
    kernel = _kernel(tt_bits)
    kernel.set_limits(None, None)
    _load(kernel, state)
    value = kernel.value()
    if line_from is not None and value < line_from:
        return value, []
    _load(kernel, state, new_generation=False)
    line = [piquet_card(b) for b in kernel.pv(value)]
    return value, line


def _deal_value_pit(hands: tuple[int, ...], trump: int, declarer: int, leader: int, rules: Rules,
                    pit_from: int, *, tt_bits: int = DEFAULT_TT_BITS) -> tuple[int, bool]:
    """The value of a full deal (``hands``: the four hands as kernel masks,
    bits of :func:`~quartet_solver.cards.piquet_bit`) and whether a principal variation takes all eight
    tricks for the playing team, which is looked for only when the value is at
    least ``pit_from``.  The lean path of :func:`~.analysis.analyse_bid`: no
    :class:`PlayState`, the line from the solve's own table, followed in the
    kernel until the other team wins a trick.

    >>> d = Deal.random(seed=3)
    >>> masks = tuple(piquet_mask(h) for h in d.hands)
    >>> _deal_value_pit(masks, 0, 0, 1, Rules.AMSTERDAM, 0)[0] == solve_deal(d, "c", "N", "E")
    True
    """
    kernel = _kernel(tt_bits)
    value = _solve_masks(kernel, hands, trump, declarer, leader, rules)
    if value < pit_from:
        return value, False
    return value, kernel.pv_sweeps(value, declarer % 2)
