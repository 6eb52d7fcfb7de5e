"""Slow, obviously-correct reference for ``quartet_solver.klaverjas.sampling``: every
original deal consistent with what one seat has seen, by enumeration.

For every way to give the cards the viewer has not seen to the other three seats
(each seat as many as it still holds: 8 minus the cards it played), build the
original deal (each seat's current cards plus the cards it played; the viewer's
own hand as it is) and replay the whole history with
:class:`~quartet_solver.klaverjas.state.PlayState`; keep the deal when every card
is played by the seat to move and none is illegal.  Deliberately does NOT import
``quartet_solver.klaverjas.sampling``.  Only for endgames (a few hundred
assignments at most): every candidate costs a full replay.
"""

from __future__ import annotations

from itertools import combinations

from quartet_solver.cards import CardSet, Decks
from quartet_solver.errors import IllegalActionError
from quartet_solver.klaverjas import Deal, PlayState, PlayView


def replays(deal: Deal, view: PlayView) -> bool:
    """Every card of ``view.history`` is played by the seat to move and is legal."""
    state = PlayState(deal, view.trump, view.declarer, view.leader, rules=view.rules)
    for seat, card in view.history:
        if state.to_move_index != seat:
            return False
        try:
            state = state.play(card)
        except IllegalActionError:
            return False
    return state.hand(view.seat) == view.hand


def all_consistent_deals(view: PlayView) -> list[Deal]:
    """Every original deal in which ``view.history`` was legal and the viewer holds
    its hand, by brute force (all assignments of the unseen cards, each replayed)."""
    played_by: dict[int, list] = {s: [] for s in range(4)}
    for seat, card in view.history:
        played_by[seat].append(card)
    unknown = [c for c in Decks.piquet() if c not in view.hand and c not in view.played]
    others = [s for s in range(4) if s != view.seat]
    sizes = [8 - len(played_by[s]) for s in others]
    assert sum(sizes) == len(unknown)
    deals = []
    for first in combinations(unknown, sizes[0]):
        rest = [c for c in unknown if c not in first]
        for second in combinations(rest, sizes[1]):
            third = [c for c in rest if c not in second]
            now = {view.seat: list(view.hand), others[0]: list(first), others[1]: list(second),
                   others[2]: third}
            deal = Deal(tuple(CardSet(now[s] + played_by[s]) for s in range(4)))  # type: ignore[arg-type]
            if replays(deal, view):
                deals.append(deal)
    return deals
