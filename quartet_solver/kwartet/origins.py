"""Exact inference through unseen draws in the draw-pile hybrid.

Without a draw pile, cards move only publicly, so the deal fixes where every card
is now and the posterior is taken over the cards' current places.  An opponent's
unseen draw breaks that: the drawn card joins their hand at one moment, and what
the record says of that hand *before* the draw does not apply to it.

So here the posterior is taken over each card's **origin**: the hand it was dealt
to, the single card of each unseen draw, or the pile (for the cards still in it).
A seat's hand at a moment is its dealt cards and the cards of its draws so far
(less what it gave away and laid, which the record traces), so every public event
is a constraint on the origins of one quartet's cards, on a *set* of origins:

* an ask: the asker held a card of the quartet (among their origins so far) and
  not the card asked;
* a hit: the card was in the target's hand (one of their origins so far), a miss
  that it was not;
* a lay, or the absence of one after a deal, a hit or a draw: as for the hands;
* a draw: the card drawn was still in the pile, so each card that may be in the
  pile at that moment may be that draw's card.

Every shuffle of the pile is equally likely and the cards never drawn may lie in
any order, so every assignment of the cards to these origins (the dealt hands'
sizes, one card a draw, the rest in the pile) stands for the same number of deals:
the posterior is uniform over the consistent assignments, and the same dynamic
programme over quartets counts them (each unseen draw is a location that holds one
card).  A card's current place follows from its origin: the record traces every
card that moved publicly, and an untraced card is still where its origin put it.

The observer's own draws are seen: such a card's origin is settled (it left the
pile at that draw) and it leaves the count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import factorial
from typing import NamedTuple

import numpy as np

from .game import Asked, Drew, Event, Laid, Revealed

__all__ = ["MAX_LOCATIONS", "KernelProblem", "Inconsistent", "origin_problem"]

MAX_LOCATIONS = 16
"""The compiled core's most locations: the other seats, the pile and the unseen draws."""

_UNKNOWN = -1
_LAID = -2


class Inconsistent(Exception):
    """The record contradicts itself or the observer's hand (the message says how)."""


class KernelProblem(NamedTuple):
    """The compiled core's view of a posterior: its locations in the kernel's order
    (``holders[i]`` is where the cards of kernel location ``i`` are now: a seat, or
    ``players`` for the pile), their open places, the unknown cards by quartet slot,
    and the constraints (quartet, bitmask of kernel locations, slot mask, kind) as
    four arrays.  Without unseen draws a location is a hand or the pile itself."""

    holders: list[int]
    caps: np.ndarray
    ucount: np.ndarray
    neg: np.ndarray
    slot_card: np.ndarray
    cons_q: np.ndarray
    cons_locs: np.ndarray
    cons_mask: np.ndarray
    cons_kind: np.ndarray

    @property
    def cons(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (self.cons_q, self.cons_locs, self.cons_mask, self.cons_kind)


def origin_problem(
    n_cards: int,
    players: int,
    me: int,
    hand: int,
    sizes: Sequence[int],
    pile: int,
    events: Sequence[Event],
    name: Callable[[int], str] = str,
    open_end: bool = False,
) -> KernelProblem:
    """Replay ``events`` (after the deal) as player ``me`` saw them, dealt ``hand``
    (a mask) with hand sizes ``sizes`` and ``pile`` cards in the draw pile, and
    build the origin posterior's kernel input.  ``name(card)`` words the errors.
    With ``open_end`` the last event may still be followed by the lays it leads
    to: the check that nobody holds a complete quartet after it is left out.

    Raises :class:`Inconsistent` when the record cannot have happened, and
    :class:`OverflowError` when the unseen draws need more than
    :data:`MAX_LOCATIONS` locations or the counts could pass 128 bits.

    Twelve cards, three players of three, three in the pile; player 1 misses and
    draws unseen.  The origins: that draw (one card, now with player 1), the pile's
    two cards left, and the hands dealt to players 1 and 2:

    >>> from quartet_solver.kwartet.game import Asked, Drew
    >>> pr = origin_problem(12, 3, 0, 0b0111, [3, 3, 3], 3, [Asked(1, 2, 5, False), Drew(1)])
    >>> pr.holders, pr.caps.tolist()
    ([1, 3, 1, 2], [1, 2, 3, 3])
    """
    nq = n_cards // 4
    pile_o = players  # origin: still in the pile now
    slots = [1 << s for s in range(players)]  # each seat's origins so far
    drawer: list[int] = []  # the seat of each unseen draw (origin players + 1 + k)
    cur = [_UNKNOWN] * n_cards  # where a traced card is now
    seen_drawn = 0  # cards whose draw was seen: their origin is settled
    others = 0
    for s in range(players):
        if s != me:
            others |= 1 << s
    oset = [others | 1 << pile_o] * n_cards  # the origins each card may have
    for c in range(n_cards):
        if hand >> c & 1:
            cur[c] = me
            oset[c] = 0
    pos: list[tuple[int, int]] = []  # (origins, cards): the origins hold >= 1 of the cards
    noc: list[tuple[int, int]] = []  # (origins, cards): the origins do not hold all of them
    pending: list[tuple[int, int]] = []  # (seat, quartet): no complete quartet after a receipt
    laid = 0
    n_drawn = 0

    def held(p: int, q: int) -> int:
        return sum(1 << c for c in range(4 * q, 4 * q + 4) if cur[c] == p)

    def untraced(q: int) -> int:
        return sum(1 << c for c in range(4 * q, 4 * q + 4) if cur[c] == _UNKNOWN)

    def restrict(c: int, allowed: int, what: str) -> None:
        oset[c] &= allowed
        if not oset[c]:
            raise Inconsistent(f"{name(c)!r} {what}")

    def flush() -> None:
        for p, q in pending:
            if laid >> (4 * q) & 0xF:
                continue
            if any(cur[c] not in (p, _UNKNOWN) for c in range(4 * q, 4 * q + 4)):
                continue  # a card of the quartet is traced elsewhere
            rest = untraced(q)
            if not rest:
                raise Inconsistent(f"player {p} holds a complete quartet without laying it")
            if p != me:
                noc.append((slots[p], rest))
        pending.clear()

    pending.extend((p, q) for p in range(players) for q in range(nq))
    for ev in events:
        if isinstance(ev, Laid):
            p, q = ev.player, ev.quartet
            if (p, q) in pending:
                pending.remove((p, q))
            for c in range(4 * q, 4 * q + 4):
                if cur[c] == _UNKNOWN:
                    restrict(c, slots[p], f"cannot have been with player {p}, who lays its quartet")
                elif cur[c] != p:
                    raise Inconsistent(f"player {p} lays the quartet of {name(c)!r}, which is elsewhere")
                cur[c] = _LAID
            laid |= 0xF << (4 * q)
            continue
        flush()
        if isinstance(ev, Asked):
            a, t, c = ev.asker, ev.target, ev.card
            q = c // 4
            if cur[c] == a or cur[c] == _LAID:
                raise Inconsistent(f"player {a} asks for {name(c)!r}, which they hold or which is laid")
            if cur[c] == _UNKNOWN:
                restrict(c, ~slots[a], f"is asked for by player {a} but cannot be elsewhere")
            if a != me and not held(a, q):
                rest = untraced(q)
                if not rest:
                    raise Inconsistent(f"player {a} asks for {name(c)!r} but cannot hold a card of its quartet")
                pos.append((slots[a], rest))
            if ev.hit:
                if cur[c] == _UNKNOWN:
                    restrict(c, slots[t], f"is handed over by player {t} but cannot have been there")
                elif cur[c] != t:
                    raise Inconsistent(f"player {t} hands over {name(c)!r}, which is elsewhere")
                cur[c] = a
                pending.append((a, q))
            elif cur[c] == t:
                raise Inconsistent(f"player {t} denies {name(c)!r} but holds it")
            elif cur[c] == _UNKNOWN:
                restrict(c, ~slots[t], f"is denied by player {t} but cannot be elsewhere")
        elif isinstance(ev, Drew):
            p = ev.player
            n_drawn += 1
            if n_drawn > pile:
                raise Inconsistent("a card drawn from an empty pile")
            if ev.card is not None:
                c = ev.card
                if cur[c] != _UNKNOWN or not oset[c] >> pile_o & 1:
                    raise Inconsistent(f"{name(c)!r} is drawn from the pile but cannot be there")
                cur[c] = p
                oset[c] = 0
                seen_drawn |= 1 << c
                pending.append((p, c // 4))
            else:
                k = players + 1 + len(drawer)
                drawer.append(p)
                slots[p] |= 1 << k
                for c in range(n_cards):
                    if oset[c] >> pile_o & 1:
                        oset[c] |= 1 << k
                pending.extend((p, q) for q in range(nq))
        elif isinstance(ev, Revealed):
            raise Inconsistent("a middle card turned up in a game with a draw pile")
        else:
            raise Inconsistent(f"not a Kwartet event: {ev!r}")
    if not open_end:
        flush()

    left = pile - n_drawn
    caps_o = {s: sizes[s] for s in range(players) if s != me}
    caps_o[pile_o] = left
    for k in range(len(drawer)):
        caps_o[players + 1 + k] = 1
    # the origins a seen draw's card had are settled: it was in the pile until then
    dp_cards = [c for c in range(n_cards) if not (hand | seen_drawn) >> c & 1]
    if left == 0:
        for c in dp_cards:
            oset[c] &= ~(1 << pile_o)
    for c in dp_cards:
        if not oset[c]:
            raise Inconsistent(f"{name(c)!r} can be nowhere")
    if sum(caps_o.values()) != len(dp_cards):
        raise Inconsistent(f"{len(dp_cards)} unknown cards for {sum(caps_o.values())} places")
    locs = sorted((o for o, cap in caps_o.items() if cap > 0), key=lambda o: (caps_o[o], o))
    if len(locs) > MAX_LOCATIONS:
        raise OverflowError(
            f"{len(drawer)} unseen draws need {len(locs)} locations, more than exact inference tracks "
            f"({MAX_LOCATIONS})"
        )
    bound = factorial(len(dp_cards))
    for o in locs:
        bound //= factorial(caps_o[o])
    if bound >= 1 << 128:
        raise OverflowError("the number of deals could pass 128 bits")
    lidx = {o: i for i, o in enumerate(locs)}

    def kernel_set(origins: int) -> int:
        return sum(1 << i for o, i in lidx.items() if origins >> o & 1)

    ucount = np.zeros(nq, dtype=np.int32)
    neg = np.zeros(nq * 4, dtype=np.uint32)
    slot_card = np.full((nq, 4), -1, dtype=np.int64)
    slot_of: dict[int, int] = {}
    full = (1 << len(locs)) - 1
    for c in dp_cards:
        q = c // 4
        j = int(ucount[q])
        slot_card[q, j] = c
        slot_of[c] = j
        neg[q * 4 + j] = full & ~kernel_set(oset[c])
        ucount[q] = j + 1
    cons = []
    for kind, lst in ((0, pos), (1, noc)):
        for origins, cards in lst:
            # a card drawn in sight later was in the pile when the constraint was made
            if kind == 1 and cards & seen_drawn:
                continue  # so the origins did not hold all of the cards
            cards &= ~seen_drawn
            if kind == 0 and not cards:
                raise Inconsistent("a player held no card that could satisfy an earlier ask")
            ks = kernel_set(origins)
            if not ks:
                if kind == 0:
                    raise Inconsistent("a player must hold a card but has no unknown places")
                continue
            q = (cards & -cards).bit_length() - 1 >> 2
            smask = 0
            for c in range(4 * q, 4 * q + 4):
                if cards >> c & 1:
                    smask |= 1 << slot_of[c]
            cons.append((q, ks, smask, kind))
    cons.sort()
    return KernelProblem(
        [pile_o if o == pile_o else o if o < players else drawer[o - players - 1] for o in locs],
        np.array([caps_o[o] for o in locs], dtype=np.int32),
        ucount,
        neg,
        slot_card,
        np.array([x[0] for x in cons], dtype=np.int32),
        np.array([x[1] for x in cons], dtype=np.uint32),
        np.array([x[2] for x in cons], dtype=np.uint8),
        np.array([x[3] for x in cons], dtype=np.uint8),
    )
