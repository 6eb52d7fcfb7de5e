"""Plain, obviously-correct minimax for Klaverjas, used only to check the solver.

No pruning, no transposition table, no cleverness: recursive max (playing team to
move) / min (other team to move) over ``PlayState.legal_cards()`` of
``PlayState.result().net`` at the end of the hand (``minimax_of``: of any score
of the finished hand, for either team).  Exponential: use it only on
positions with a few tricks left.

>>> from quartet_solver.klaverjas import Deal, PlayState
>>> st = PlayState(Deal.random(seed=1), trump="h", declarer="N", leader="E")
>>> while len(st.tricks) < 7:
...     st = st.play(st.legal_cards()[0])
>>> end = st
>>> while not end.is_over:                # one card each: a single line of play
...     end = end.play(end.legal_cards()[0])
>>> minimax(st) == end.result().net
True
"""

from __future__ import annotations

from typing import Callable

from quartet_solver.klaverjas import PlayState


def minimax_of(state: PlayState, score: Callable[[PlayState], int], playing_maximises: bool = True) -> int:
    """Minimax of ``score`` (of the finished hand) under optimal play by both
    teams: the playing team maximises it (minimises it when ``playing_maximises``
    is False), the other team does the opposite."""
    if state.is_over:
        return score(state)
    values = [minimax_of(state.play(card), score, playing_maximises) for card in state.legal_cards()]
    if (state.to_move_index % 2 == state.playing_team) == playing_maximises:
        return max(values)
    return min(values)


def minimax(state: PlayState) -> int:
    """Net score of the playing team under optimal play by both teams."""
    return minimax_of(state, lambda end: end.result().net)


def card_values(state: PlayState) -> dict:
    """``{card: minimax value after it}`` for the legal cards of the player to move."""
    return {card: minimax(state.play(card)) for card in state.legal_cards()}
