"""Whose turn it is in a Kwartet game, read from its public events alone.

The game engine (:class:`~.game.Game`) passes the turn as it plays; a record of a
real game gives only the events.  :class:`Turns` follows the same rules from the
events and the public hand sizes: a hit keeps the turn (unless the asker is out
of cards or has nobody left to ask), a miss passes it to the left (unless a free
miss of the bonus-turn rule is left), a card turned up from the middle passes it,
and a player who cannot act is skipped.  Lays and draws come as their own events
after the action that caused them, so the turn's end is settled lazily, at the
next action or query, once they are in.

>>> from quartet_solver.kwartet import Rules
>>> t = Turns(players=3, dealer=2, rules=Rules())
>>> sizes = [5, 5, 5, 1]          # three hands and the side pile
>>> t.to_move(sizes, laid_all=False)
0
>>> t.action(0, "miss", sizes, laid_all=False)
>>> t.to_move(sizes, laid_all=False)
1
>>> t.action(1, "hit", [4, 6, 5, 1], laid_all=False)
>>> t.to_move([4, 6, 5, 1], laid_all=False)
1
>>> t.action(2, "miss", [4, 6, 5, 1], laid_all=False)
Traceback (most recent call last):
...
quartet_solver.errors.IllegalActionError: player 2 acts out of turn: it is player 1's turn
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import IllegalActionError
from .rules import Rules

__all__ = ["Turns"]

# what the last action left to settle at the next action or query
_BEGIN = "begin"        # the deal: the first player may be skipped
_HIT = "hit"
_MISS = "miss"
_REVEAL = "reveal"
_DRAW_WAIT = "draw"     # the player to move, out of cards, draws first (draw-pile hybrid)
_DRAWN = "drawn"        # ... and did: skipped if nobody else holds cards to ask for


@dataclass(slots=True)
class Turns:
    """The turn of a game followed from its public events (see the module docstring).

    ``rules`` may be ``None`` (the variant is unknown): the standard game's turn order
    then applies, a reveal or a draw once seen counting as memory cards or a draw pile.
    Hand sizes are passed to each call as a list by seat with the pile's size last.
    """

    players: int
    dealer: int
    rules: Rules | None
    turn: int = -1
    pending: str | None = _BEGIN
    free: int = 0
    asks: int = 0
    over: bool = False
    seen_reveal: bool = False
    seen_draw: bool = False

    def __post_init__(self) -> None:
        if self.turn < 0:
            self.turn = (self.dealer + 1) % self.players

    def copy(self) -> Turns:
        return Turns(self.players, self.dealer, self.rules, self.turn, self.pending, self.free, self.asks,
                     self.over, self.seen_reveal, self.seen_draw)

    # -- the rules in play ---------------------------------------------------------

    def _memory(self) -> bool:
        return bool(self.rules.memory) if self.rules is not None else self.seen_reveal

    def _draw_pile(self) -> bool:
        return bool(self.rules.draw_pile) if self.rules is not None else self.seen_draw

    def _bonus(self) -> bool:
        return self.rules is not None and self.rules.bonus_turn

    def _can_act(self, p: int, sizes: Sequence[int]) -> bool:
        pile = sizes[self.players]
        if not sizes[p]:
            return (self._memory() or self._draw_pile()) and pile > 0
        return any(t != p and sizes[t] for t in range(self.players)) or (self._memory() and pile > 0)

    def _start_turn(self, sizes: Sequence[int]) -> None:
        self.pending = None
        for _ in range(self.players + 1):
            p = self.turn
            if self._can_act(p, sizes):
                if not sizes[p] and self._draw_pile():
                    self.pending = _DRAW_WAIT
                return
            self.turn = (p + 1) % self.players
        self.over = True  # nobody can act: the cards left are stuck

    def _pass(self, sizes: Sequence[int]) -> None:
        self.free = 0
        self.turn = (self.turn + 1) % self.players
        self._start_turn(sizes)

    def settle(self, sizes: Sequence[int], laid_all: bool) -> None:
        """Settle what the last action left open, given the sizes after its lays and draws."""
        if laid_all:
            self.over = True
        if self.over:
            return
        pending, p = self.pending, self.turn
        if pending == _BEGIN:
            self._start_turn(sizes)
        elif pending == _HIT:
            self.pending = None
            if not sizes[p] or not self._can_act(p, sizes):
                self._pass(sizes)
        elif pending == _MISS:
            self.pending = None
            if self.free > 0:
                self.free -= 1
                if not sizes[p]:
                    self._pass(sizes)
            else:
                self._pass(sizes)
        elif pending == _REVEAL:
            self._pass(sizes)
        elif pending == _DRAWN:
            self.pending = None
            if not sizes[p] or not self._can_act(p, sizes):
                self._pass(sizes)

    def to_move(self, sizes: Sequence[int], laid_all: bool) -> int | None:
        """The seat to move, ``None`` once the game is over by its public record."""
        self.settle(sizes, laid_all)
        return None if self.over else self.turn

    # -- the events ------------------------------------------------------------------

    def action(self, player: int, kind: str, sizes: Sequence[int], laid_all: bool) -> None:
        """``player`` asks (``kind`` ``"hit"`` or ``"miss"``) or turns up a middle card
        (``"reveal"``); ``sizes`` are those before the action.  Raises
        :class:`~quartet_solver.errors.IllegalActionError` when it is not their turn."""
        if kind == _REVEAL:
            self.seen_reveal = True
        self.settle(sizes, laid_all)
        if self.over:
            raise IllegalActionError(f"player {player} acts after the game is over")
        if self.pending == _DRAW_WAIT:
            raise IllegalActionError(f"player {player} acts before player {self.turn} draws the card "
                                     f"that starts their turn")
        if player != self.turn:
            raise IllegalActionError(f"player {player} acts out of turn: it is player {self.turn}'s turn")
        if kind != _REVEAL:
            self.asks += 1
        self.pending = kind

    def drew(self, player: int, sizes: Sequence[int], laid_all: bool) -> None:
        """``player`` drew from the draw pile (after a miss, or to start a turn without
        cards); ``sizes`` are those before the draw."""
        self.seen_draw = True
        if self.pending == _MISS and player == self.turn:
            return  # the miss's own draw; the turn is settled at the next action
        self.settle(sizes, laid_all)
        if self.pending == _DRAW_WAIT and player == self.turn:
            self.pending = _DRAWN
            return
        raise IllegalActionError(
            f"player {player} draws out of turn: a card is drawn by the asker after a miss, or by the "
            f"player to move who has no cards" + ("" if self.over else f" (player {self.turn} is to move)"))

    def laid(self, player: int, sizes: Sequence[int], laid_all: bool) -> None:
        """``player`` laid a quartet; under the bonus-turn rule one completed during the
        player's own turn earns a free miss.  ``sizes`` are those before the lay."""
        if not self.asks:
            return  # a lay of the deal
        if player != self.turn and self.pending not in (None, _DRAW_WAIT):
            self.settle(sizes, laid_all)
        if self._bonus() and player == self.turn:
            self.free += 1
