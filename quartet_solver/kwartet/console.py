"""A person at the table: a seat played from a text console, with the planner's hints.

:class:`ConsolePlayer` is a :class:`~.bots.Bot` whose asks are typed in.  On its turn
it shows the hand, the hand sizes and the quartets laid, then reads commands:

- ``2 Bach`` or ``P2 for Composers: Bach``: ask player 2 for that card;
- ``reveal`` or ``reveal 3`` (memory Kwartet): turn up a middle card (number 3 of
  the middle, counted from 0; without a number one at random) and take it;
- ``hint``: what :class:`~.planning.PlanningBot` would ask here, with every candidate's
  exact hit chance and rollout value (:meth:`~.planning.PlanningBot.advise`);
- ``probs``: where every card is, as far as this seat can know (the exact posterior);
- ``help``; ``quit`` ends the game (:class:`GameLeft`).

``quartet-solver kwartet play --you SEAT`` seats a person this way.

>>> from quartet_solver.kwartet import Deck, Game
>>> typed = iter(["hint", "P1 for Pizza", "1 Mozart", "1 Bach"])
>>> shown = []
>>> me = ConsolePlayer(seed=1, read=lambda prompt: next(typed), write=shown.append, samples=50)
>>> g = Game(Deck.themed("classic"), players=3, seed=3)
>>> me.start(g, 0)
>>> me.choose()
('ask', 1, 4)
>>> for line in shown[:2]: print(line)
your turn (P0); your hand: Mozart, Beethoven, Amsterdam, Rotterdam, Groningen, Canal boat
cards in hand: P0 6, P1 10, P2 10; quartets: P0 1, P1 0, P2 0
>>> for line in shown[-2:]: print(line)
unknown card 'Pizza' in deck 'classic'
you hold Composers: Mozart yourself
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import InvalidStateError, NotationError
from .bots import Action, InferenceBot, View
from .game import Event, Laid
from .planning import REVEAL, PlanningBot

__all__ = ["ConsolePlayer", "GameLeft"]

HELP = """commands:
  T CARD      ask player T for CARD (e.g. "2 Bach", "P2 for Composers: Bach")
  reveal [N]  memory Kwartet: turn up middle card N (from 0; default one at random)
  hint        what the planning bot would ask here, and why
  probs       where every card is, as far as you can know
  quit        leave the game"""

_ASK = re.compile(r"^[Pp]?(\d{1,3})\s+(?:for\s+)?(.+)$", re.I)
_REVEAL = re.compile(r"^(?:reveal|turn\s+up)(?:\s+(\d{1,3}))?$", re.I)


class GameLeft(Exception):
    """The person typed ``quit``: the game ends unfinished."""


class ConsolePlayer(InferenceBot):
    """A seat whose asks a person types (see the module docstring).

    ``read(prompt)`` returns the next line typed (``EOFError`` when input ends, which
    raises :class:`~quartet_solver.errors.InvalidStateError`: the game cannot go on);
    ``write(text)`` shows a line.  The keyword options other than ``seed`` are those of
    the :class:`~.planning.PlanningBot` that gives the hints.
    """

    name = "you"

    def __init__(self, *, seed: int | str | None = None, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print, **planner: Any) -> None:
        super().__init__(seed=seed)
        self._read = read
        self._write = write
        self.hinter = PlanningBot(seed=seed, **planner)

    def _begin(self, view: View) -> None:
        super()._begin(view)
        self.quartets = [0] * view.players

    def _observe(self, e: Event) -> None:
        super()._observe(e)
        if isinstance(e, Laid):
            self.quartets[e.player] += 1

    def _show_position(self) -> None:
        v = self._started()
        deck = v.deck
        self._write(f"your turn (P{v.seat}); your hand: {deck.format(v.hand)}")
        sizes = ", ".join(f"P{p} {n}" for p, n in enumerate(v.hand_sizes))
        laid = ", ".join(f"P{p} {n}" for p, n in enumerate(self.quartets))
        middle = f"; middle: {v.middle} face down (reveal to turn one up)" if v.can_reveal() else ""
        self._write(f"cards in hand: {sizes}; quartets: {laid}{middle}")

    def _hint(self) -> None:
        if self.knowledge is None:
            self._write("no hint: exact inference is out of reach in this game")
            return
        try:
            d = self.hinter.advise(self.knowledge)
        except InvalidStateError as exc:
            self._write(f"no hint: {exc}")
            return
        deck = self.knowledge.deck
        t, c = d.candidates[d.chosen]
        what = "turn up a middle card" if (t, c) == REVEAL else f"ask P{t} for {deck.full_name(c)}"
        if not d.rollouts:
            # a draw pile: the planner's ask is the inference bot's, valued by its estimate
            self._write("the planner does not roll out draw-pile games; it asks as the inference bot "
                        "(exact posterior):")
            order = [d.chosen] + [i for i in range(len(d.candidates)) if i != d.chosen][:2]
            for i in order:
                t2, c2 = d.candidates[i]
                self._write(f"{'>' if i == d.chosen else ' '} P{t2} for {deck.full_name(c2)}: "
                            f"estimated hit chance {d.prior[i]:.2f}")
            self._write(f"hint: {what}")
            return
        probs = self.knowledge.probabilities()
        for i, ((t2, c2), value, err) in enumerate(zip(d.candidates, d.values, d.errors)):
            mark = ">" if i == d.chosen else " "
            cand = ("turn up a middle card" if (t2, c2) == REVEAL
                    else f"P{t2} for {deck.full_name(c2)}: hit chance {probs[t2, c2]:.2f}")
            self._write(f"{mark} {cand}, value {value:.3f} +- {err:.3f}")
        deals = d.rollouts // len(d.candidates)
        self._write(f"hint: {what} (value: the planner's mean share of the win "
                    f"+ {self.hinter.quartet_weight:g} x its quartet share over {deals} played-out deals)")

    def _parse(self, line: str) -> Action | None:
        """The legal action a typed line names, or ``None`` after saying what is wrong."""
        v = self._started()
        m = _REVEAL.match(line)
        if m:
            if not v.can_reveal():
                self._write("there is no middle card to turn up" if v.rules.memory
                            else "these rules have no middle cards to turn up")
                return None
            if m[1] is None:
                return ("reveal", self.rng.randrange(v.middle))
            if int(m[1]) >= v.middle:
                self._write(f"the middle holds {v.middle} cards: turn up one of 0..{v.middle - 1}")
                return None
            return ("reveal", int(m[1]))
        if not v.legal_asks():
            self._write("you have no ask: reveal a middle card (type reveal)")
            return None
        m = _ASK.match(line)
        if not m:
            self._write(f"not an ask: {line!r} (type help)")
            return None
        try:
            card = v.deck.card(m[2].strip())
        except NotationError as exc:
            self._write(str(exc))
            return None
        target = int(m[1])
        if (target, card) in v.legal_asks():
            return ("ask", target, card)
        name = v.deck.full_name(card)
        targets = ", ".join(f"P{t}" for t in v.targets())
        if v.hand >> card & 1:
            self._write(f"you hold {name} yourself")
        elif not v.askable() >> card & 1:
            self._write(f"you hold no card of {v.deck.quartets[card // 4].name}, so may not ask for {name}")
        else:
            self._write(f"P{target} may not be asked: ask one of {targets}")
        return None

    def choose(self) -> Action:
        v = self._started()
        self._update()
        if not v.legal_asks() and not v.can_reveal():
            raise InvalidStateError(f"seat {v.seat} has no legal action")
        self._show_position()
        while True:
            try:
                line = " ".join(self._read("ask> ").split())
            except EOFError:
                raise InvalidStateError("the input ended before the game did") from None
            word = line.lower()
            if not word:
                continue
            if word in ("help", "?"):
                self._write(HELP)
            elif word == "hint":
                self._hint()
            elif word in ("probs", "probabilities"):
                if self.knowledge is None:
                    self._write("exact inference is unavailable in this game")
                else:
                    self._write(self.knowledge.pretty())
            elif word in ("quit", "exit"):
                raise GameLeft(f"P{v.seat} left the game")
            else:
                action = self._parse(line)
                if action is not None:
                    return action
