"""Kwartet rule options: the standard game and its variants (see :class:`Rules`).

The rules as this package implements them, every ambiguity settled and every
option that changes them, are written out in ``docs/rules/kwartet.md``.

>>> Rules().to_dict()
{'remainder': 'pile', 'bonus_turn': False, 'draw_pile': 0, 'memory': 0}
>>> Rules.preset("bonus")
Rules(bonus_turn=True)
>>> Rules(draw_pile=4, memory=4)
Traceback (most recent call last):
...
quartet_solver.errors.InvalidStateError: draw_pile and memory are exclusive variants, got draw_pile=4, memory=4
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..checks import as_int, check_int
from ..errors import InvalidStateError

__all__ = ["Rules", "MIN_PLAYERS", "MAX_PLAYERS"]

MIN_PLAYERS = 3
MAX_PLAYERS = 6


@dataclass(frozen=True)
class Rules:
    """Frozen rule options; the defaults are the standard game.

    ``remainder``
        ``"pile"``: cards left over by the deal lie face down aside and take no
        part (their quartets can never be completed; the game ends when every
        other quartet is laid); ``"dealer"``: the dealer takes them.
    ``bonus_turn``
        every quartet a player completes during their turn earns one free miss: a
        later miss in that turn (or the miss whose draw completed it) uses one up
        instead of ending the turn.
    ``draw_pile``
        Go Fish hybrid: this many cards (plus the deal's remainder) form a face-down
        draw pile; after a miss the asker draws one card (seen only by them); a player
        whose hand is empty draws at the start of their turn.
    ``memory``
        memory Kwartet: this many cards (plus the remainder) lie face down in the
        middle; instead of asking, a player may turn one up and take it into hand (the
        turn then passes).  A player whose hand is empty must do so while any are left.
    """

    remainder: str = "pile"
    bonus_turn: bool = False
    draw_pile: int = 0
    memory: int = 0

    def __post_init__(self) -> None:
        if self.remainder not in ("pile", "dealer"):
            raise InvalidStateError(f"remainder must be 'pile' or 'dealer', got {self.remainder!r}")
        if not isinstance(self.bonus_turn, bool):
            raise InvalidStateError(f"bonus_turn must be a bool, got {self.bonus_turn!r}")
        for name in ("draw_pile", "memory"):
            v = getattr(self, name)
            object.__setattr__(self, name, check_count(v, name))
        if self.draw_pile and self.memory:
            raise InvalidStateError(
                f"draw_pile and memory are exclusive variants, got draw_pile={self.draw_pile}, memory={self.memory}"
            )
        if (self.draw_pile or self.memory) and self.remainder == "dealer":
            raise InvalidStateError("with a draw pile or memory cards the remainder goes to the pile, not the dealer")

    PRESETS = ("standard", "dealer", "bonus", "draw", "memory")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named preset: ``standard``, ``dealer`` (dealer takes the remainder),
        ``bonus`` (bonus turn), ``draw`` (draw pile of 8), ``memory`` (8 memory cards).
        """
        table = {
            "standard": cls(),
            "dealer": cls(remainder="dealer"),
            "bonus": cls(bonus_turn=True),
            "draw": cls(draw_pile=8),
            "memory": cls(memory=8),
        }
        if not isinstance(name, str) or name.strip().lower() not in table:
            raise InvalidStateError(f"unknown Kwartet rules preset {name!r} (have {', '.join(table)})")
        return table[name.strip().lower()]

    @property
    def set_aside(self) -> int:
        """Cards put in the pile before the deal (draw pile or memory cards)."""
        return self.draw_pile or self.memory

    def deal_sizes(self, n_cards: int, players: int, dealer: int = 0) -> tuple[list[int], int]:
        """Hand sizes (by seat) and pile size for a deal of ``n_cards`` cards.

        >>> Rules().deal_sizes(32, 3)
        ([10, 10, 10], 2)
        >>> Rules(remainder="dealer").deal_sizes(32, 3, dealer=2)
        ([10, 10, 12], 0)
        """
        players = check_players(players)
        n_cards = check_count(n_cards, "n_cards")
        seat = as_int(dealer)
        if seat is None or not 0 <= seat < players:
            raise InvalidStateError(f"dealer must be a seat in 0..{players - 1}, got {dealer!r}")
        dealer = seat
        dealt = n_cards - self.set_aside
        if dealt < players:
            raise InvalidStateError(
                f"{n_cards} cards with {self.set_aside} set aside cannot be dealt to {players} players"
            )
        each, rest = divmod(dealt, players)
        sizes = [each] * players
        if self.remainder == "dealer":
            sizes[dealer] += rest
            return sizes, 0
        return sizes, rest + self.set_aside

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __repr__(self) -> str:
        changed = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) != f.default
        ]
        return f"Rules({', '.join(changed)})"


def check_players(players: object) -> int:
    """Validate a player count (3..6)."""
    n = as_int(players)
    if n is None or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidStateError(f"Kwartet is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {players!r}")
    return n


def check_count(value: object, what: str) -> int:
    """Validate a count: an int >= 0 (numpy integers accepted, bools not); returns an int.

    >>> check_count(3, "pile")
    3
    >>> check_count(2.5, "pile")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.ArgumentError: pile must be an int >= 0, got 2.5
    """
    return check_int(value, what, low=0)
