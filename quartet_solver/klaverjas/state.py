"""The play of one Klaverjas hand: an immutable state that returns a new state per card.

>>> deal = Deal.random(seed=3)
>>> st = PlayState(deal, trump="h", declarer="N", leader="E")
>>> st.to_move, len(st.legal_cards())
('E', 8)
>>> while not st.is_over:
...     st = st.play(st.legal_cards()[0])
>>> sum(st.points) - sum(st.roem)
162
>>> len(st.tricks)
8
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..cards import Card, CardSet, Rank, Suit, as_card, as_cards
from ..deprecation import keyword_options
from ..errors import IllegalActionError, InvalidStateError, NotationError
from .deal import Deal, diagram, format_hand
from .rules import (
    LAST_TRICK_BONUS,
    SEATS,
    STUK_ROEM,
    Rules,
    _legal,
    _points,
    _roem,
    _winner,
    as_suit,
    illegal_reason,
    seat_index,
)

__all__ = ["PlayState", "Trick", "HandResult"]


@dataclass(frozen=True)
class Trick:
    """A completed trick: who led, the cards in play order, the winner, the card
    points taken (last-trick bonus included) and the roem scored in it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int
    roem: int

    @property
    def seats(self) -> tuple[str, ...]:
        """Seat letters in play order."""
        return tuple(SEATS[(self.leader + i) % 4] for i in range(len(self.cards)))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "leader": SEATS[self.leader],
            "cards": [str(c) for c in self.cards],
            "winner": SEATS[self.winner],
            "points": self.points,
            "roem": self.roem,
        }

    def __str__(self) -> str:
        played = " ".join(f"{s}:{c}" for s, c in zip(self.seats, self.cards))
        extra = f" +{self.roem} roem" if self.roem else ""
        return f"{played}  -> {SEATS[self.winner]} ({self.points}{extra})"


@dataclass(frozen=True)
class HandResult:
    """The outcome of a finished hand (team 0 = N/S, team 1 = E/W)."""

    points: tuple[int, int]   # cards + last trick + roem
    roem: tuple[int, int]
    pit: tuple[int, int]      # pit bonus per team
    scores: tuple[int, int]   # after pit and nat
    playing_team: int
    nat: bool

    @property
    def net(self) -> int:
        """Playing team's score minus the other team's (the double-dummy objective)."""
        return self.scores[self.playing_team] - self.scores[1 - self.playing_team]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"points": list(self.points), "roem": list(self.roem), "pit": list(self.pit),
                "scores": list(self.scores), "playing_team": ("NS", "EW")[self.playing_team],
                "nat": self.nat, "net": self.net}


def stuk_seat(deal: Deal, trump: Suit, rules: Rules) -> int:
    """The seat index (0..3) that scores stuk from the deal under ``rules``
    (``stuk="hand"``: the hand dealt the king and queen of trumps), else -1.

    >>> d = Deal.from_hands("Kh Qh 7c 8c 9c Tc Jc Qc", "Kc Ac 7d 8d 9d Td Jd Qd",
    ...                     "Kd Ad 7h 8h 9h Th Jh Ah", "7s 8s 9s Ts Js Qs Ks As")
    >>> by_hand = Rules.AMSTERDAM.with_options(stuk="hand")
    >>> stuk_seat(d, Suit.HEARTS, by_hand), stuk_seat(d, Suit.CLUBS, by_hand), stuk_seat(d, Suit.HEARTS, Rules.AMSTERDAM)
    (0, -1, -1)
    """
    holder = deal.stuk_holder(trump) if rules.stuk == "hand" else None
    return -1 if holder is None else SEATS.index(holder)


class PlayState:
    """A position in the play of a hand (immutable).

    ``PlayState(deal, trump, declarer, leader, rules)``: ``declarer`` named trumps
    (their team is the playing team), ``leader`` leads the first trick (the player
    left of the dealer).  :meth:`play` returns the next state; illegal cards raise
    :class:`~quartet_solver.errors.IllegalActionError` naming the card, the seat
    and the reason.
    """

    __slots__ = ("deal", "trump", "declarer", "leader", "rules", "_hands", "_trick", "_trick_leader",
                 "_tricks", "_points", "_roem", "_history", "_stuk_seat")

    @keyword_options
    def __init__(
        self,
        deal: Deal | str,
        trump: str | Suit,
        declarer: str | int,
        leader: str | int,
        *,
        rules: Rules | str = Rules.AMSTERDAM,
    ) -> None:
        self.deal = Deal.of(deal)
        self.trump = as_suit(trump)
        self.declarer = seat_index(declarer)
        self.leader = seat_index(leader)
        self.rules = Rules.named(rules)
        self._hands = tuple(h.mask for h in self.deal.hands)
        self._trick: tuple[Card, ...] = ()
        self._trick_leader = self.leader
        self._tricks: tuple[Trick, ...] = ()
        self._points = (0, 0)
        self._roem = (0, 0)
        self._stuk_seat = stuk_seat(self.deal, self.trump, self.rules)
        self._history: tuple[tuple[int, Card], ...] = ()  # set last: the state is frozen from here

    def _copy(self) -> PlayState:
        new = object.__new__(PlayState)
        for name in PlayState.__slots__:
            object.__setattr__(new, name, getattr(self, name))
        return new

    # -- queries ----------------------------------------------------------------

    @property
    def playing_team(self) -> int:
        """``0`` if N/S named trumps, ``1`` for E/W."""
        return self.declarer % 2

    @property
    def to_move_index(self) -> int:
        """Seat index of the player to move."""
        return (self._trick_leader + len(self._trick)) % 4

    @property
    def to_move(self) -> str:
        """Seat letter of the player to move."""
        if self.is_over:
            raise InvalidStateError("the hand is over: nobody is to move")
        return SEATS[self.to_move_index]

    @property
    def is_over(self) -> bool:
        """All eight tricks played."""
        return len(self._tricks) == 8

    @property
    def trick(self) -> tuple[Card, ...]:
        """Cards of the current (incomplete) trick, leader first."""
        return self._trick

    @property
    def trick_leader(self) -> str:
        """Seat that led the current trick."""
        return SEATS[self._trick_leader]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Completed tricks, in order."""
        return self._tricks

    @property
    def history(self) -> tuple[tuple[str, Card], ...]:
        """Every card played so far with its seat, in order."""
        return tuple((SEATS[s], c) for s, c in self._history)

    @property
    def points(self) -> tuple[int, int]:
        """Raw points (N/S, E/W): cards taken + last trick + roem, before pit and nat."""
        return self._points

    @property
    def roem(self) -> tuple[int, int]:
        """Roem scored so far (N/S, E/W)."""
        return self._roem

    def hand(self, seat: str | int) -> CardSet:
        """Cards a seat still holds."""
        return CardSet.from_mask(self._hands[seat_index(seat)])

    def hands(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """Cards every seat still holds."""
        return tuple(CardSet.from_mask(m) for m in self._hands)  # type: ignore[return-value]

    def legal_cards(self) -> list[Card]:
        """The cards the player to move may play, in canonical order."""
        if self.is_over:
            return []
        hand = CardSet.from_mask(self._hands[self.to_move_index]).cards()
        return _legal(hand, self._trick, self.trump, self.rules)

    # -- moves ----------------------------------------------------------------------

    def play(self, card: str | Card) -> PlayState:
        """The state after the player to move plays ``card``."""
        if self.is_over:
            raise IllegalActionError(f"cannot play {card!r}: the hand is over ({self!r})")
        c = as_card(card)
        seat = self.to_move_index
        hand = CardSet.from_mask(self._hands[seat]).cards()
        if c not in _legal(hand, self._trick, self.trump, self.rules):     # then say why
            reason = illegal_reason(c, hand, self._trick, self.trump, self.rules)
            raise IllegalActionError(
                f"{SEATS[seat]} may not play {c}: {reason} "
                f"(hand {format_hand(hand)}; trick {' '.join(map(str, self._trick)) or 'empty'}; "
                f"trumps {self.trump.char})"
            )
        new = self._copy()
        put = object.__setattr__
        put(new, "_hands", tuple(m & ~c.mask if i == seat else m for i, m in enumerate(self._hands)))
        put(new, "_history", self._history + ((seat, c),))
        trick = self._trick + (c,)
        roem = list(self._roem)
        points = list(self._points)
        if self._stuk_seat == seat:
            other = Card(Rank.QUEEN if c.rank == Rank.KING else Rank.KING, self.trump)
            if c.suit == self.trump and c.rank in (Rank.KING, Rank.QUEEN) and other not in hand:
                # the second of the pair: stuk for the holder's team
                roem[seat % 2] += STUK_ROEM
                points[seat % 2] += STUK_ROEM
        if len(trick) < 4:
            put(new, "_trick", trick)
        else:
            winner = (self._trick_leader + _winner(trick, self.trump)) % 4
            taken = sum(_points(x, self.trump) for x in trick)
            if len(self._tricks) == 7:
                taken += LAST_TRICK_BONUS
            bonus = _roem(trick, self.trump, stuk=self.rules.stuk == "trick")
            points[winner % 2] += taken + bonus
            roem[winner % 2] += bonus
            put(new, "_tricks", self._tricks + (Trick(self._trick_leader, trick, winner, taken, bonus),))
            put(new, "_trick", ())
            put(new, "_trick_leader", winner)
        put(new, "_points", (points[0], points[1]))
        put(new, "_roem", (roem[0], roem[1]))
        return new

    def play_all(self, cards: str | Iterable[str | Card]) -> PlayState:
        """Play a sequence of cards (text or cards) from this state."""
        state = self
        for c in as_cards(cards, what="cards to play"):
            state = state.play(c)
        return state

    # -- scoring ---------------------------------------------------------------------

    def result(self) -> HandResult:
        """Outcome of the finished hand: pit, nat and the final scores."""
        if not self.is_over:
            raise InvalidStateError(f"the hand is not over yet ({len(self._tricks)} of 8 tricks): {self!r}")
        won = [sum(1 for t in self._tricks if t.winner % 2 == team) for team in (0, 1)]
        pit = tuple(self.rules.pit if won[team] == 8 else 0 for team in (0, 1))
        totals = [self._points[0] + pit[0], self._points[1] + pit[1]]
        playing, other = self.playing_team, 1 - self.playing_team
        nat = totals[playing] < totals[other] or (totals[playing] == totals[other] and self.rules.tie_is_nat)
        if nat:
            scores = [0, 0]
            scores[other] = totals[0] + totals[1]
        else:
            scores = totals
        return HandResult(self._points, self._roem, pit, (scores[0], scores[1]), playing, nat)  # type: ignore[arg-type]

    def scores(self) -> tuple[int, int]:
        """Final scores (N/S, E/W) after pit and nat; the hand must be over."""
        return self.result().scores

    # -- text ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        data: dict[str, object] = {
            "deal": self.deal.pbn(),
            "trump": self.trump.char,
            "declarer": SEATS[self.declarer],
            "leader": SEATS[self.leader],
            "rules": self.rules.to_dict(),
            "played": [str(c) for _, c in self._history],
            "tricks": [t.to_dict() for t in self._tricks],
            "points": list(self._points),
            "roem": list(self._roem),
        }
        if self.is_over:
            data["result"] = self.result().to_dict()
        else:
            data["to_move"] = self.to_move
        return data

    def pretty(self, marks: dict[Card, str] | None = None) -> str:
        """The position as a person reads it: the cards each seat still holds,
        the current trick in the middle, the tricks and points so far and who
        is to move.  ``marks``: text after a card in the line of the player to
        move's legal cards (e.g. its double-dummy value).

        >>> st = PlayState(Deal.random(seed=3), trump="h", declarer="N", leader="E").play("8h")
        >>> lines = st.pretty().splitlines()
        >>> print(lines[0]); print(lines[-1])
        trumps ♥ (hearts), N/S play (N named); after 0 tricks: N/S 0, E/W 0 points
        S to play; legal: Kh Ah
        """
        middle = [f"{seat}: {card}" for seat, card in zip(
            (SEATS[(self._trick_leader + i) % 4] for i in range(4)), self._trick)]
        team = "N/S" if self.playing_team == 0 else "E/W"
        head = (f"trumps {self.trump.symbol} ({self.trump.name.lower()}), {team} play "
                f"({SEATS[self.declarer]} named); after {len(self._tricks)} tricks: "
                f"N/S {self._points[0]}, E/W {self._points[1]} points")
        lines = [head]
        if self._tricks:
            last = self._tricks[-1]
            lines.append(f"last trick: {last}")
        lines.append(diagram(self.hands(), middle))
        if self.is_over:
            r = self.result()
            lines.append(f"hand over: scores N/S {r.scores[0]}, E/W {r.scores[1]}"
                         + (" (nat)" if r.nat else ""))
        else:
            legal = self.legal_cards()
            shown = " ".join(f"{c}{(marks or {}).get(c, '')}" for c in legal)
            lines.append(f"{self.to_move} to play; legal: {shown}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        played = " ".join(str(c) for _, c in self._history)
        if self.rules == Rules.AMSTERDAM:
            rules = ""
        elif self.rules.name:
            rules = f", rules='{self.rules.name}'"
        else:
            rules = f", rules={self.rules!r}"
        text = (f"PlayState('{self.deal.pbn()}', trump='{self.trump.char}', "
                f"declarer='{SEATS[self.declarer]}', leader='{SEATS[self.leader]}'{rules})")
        return text + (f".play_all('{played}')" if played else "")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayState):
            return NotImplemented
        return (self.deal, self.trump, self.declarer, self.leader, self.rules, self._history) == (
            other.deal, other.trump, other.declarer, other.leader, other.rules, other._history)

    def __hash__(self) -> int:
        return hash((self.deal, self.trump, self.declarer, self.leader, self.rules, self._history))

    @classmethod
    def from_dict(cls, data: object) -> PlayState:
        """The state of a :meth:`to_dict` mapping, rebuilt by replaying its cards
        (``"played"``, else the cards of ``"tricks"`` trick by trick); every other
        value given (tricks, points, roem, result, to_move) must be the replay's.
        Missing ``"rules"`` means Amsterdam.  Bad text raises
        :class:`~quartet_solver.errors.NotationError`, an illegal card
        :class:`~quartet_solver.errors.IllegalActionError`, a malformed or
        inconsistent mapping :class:`~quartet_solver.errors.InvalidStateError`.

        >>> st = PlayState(Deal.random(seed=3), trump="h", declarer="N", leader="E")
        >>> st = st.play_all(st.legal_cards()[:1])
        >>> PlayState.from_dict(st.to_dict()) == st
        True
        >>> PlayState.from_dict({**st.to_dict(), "points": [0, 11]})
        Traceback (most recent call last):
        ...
        quartet_solver.errors.InvalidStateError: points[1] is 11, but the replay gives 0
        """
        if not isinstance(data, dict):
            raise InvalidStateError(f"a play state must be a dict (PlayState.to_dict()), got {data!r}")
        missing = [k for k in ("deal", "trump", "declarer", "leader") if k not in data]
        if missing:
            raise InvalidStateError(f"play state: missing {missing[0]!r}")
        rules = Rules.from_dict(data["rules"]) if "rules" in data else Rules.AMSTERDAM
        state = cls(data["deal"], data["trump"], data["declarer"], data["leader"], rules=rules)
        if "played" in data:
            state = _replay(state, data["played"], "card")
        elif "tricks" in data:
            tricks = data["tricks"]
            if not isinstance(tricks, list):
                raise InvalidStateError(f"tricks must be a list, got {tricks!r}")
            for i, trick in enumerate(tricks):
                if not isinstance(trick, dict) or "cards" not in trick:
                    raise InvalidStateError(f"trick {i + 1} must be a dict with 'cards', got {trick!r}")
                state = _replay(state, trick["cards"], f"trick {i + 1}, card")
        else:
            raise InvalidStateError("play state: missing 'played' (or 'tricks')")
        _check_claims(data, state.to_dict(), ("tricks", "points", "roem", "result", "to_move"))
        return state

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_history"):
            raise AttributeError("PlayState is immutable")
        object.__setattr__(self, name, value)



def _replay(state: PlayState, cards: object, what: str) -> PlayState:
    """``state`` after playing ``cards`` (a list of card text), an error naming
    ``what`` and the number of the card that fails."""
    if not isinstance(cards, list):
        raise InvalidStateError(f"{what.split(',')[0]}: cards must be a list of card text, got {cards!r}")
    for i, card in enumerate(cards):
        try:
            state = state.play(card)
        except (IllegalActionError, InvalidStateError, NotationError) as exc:
            raise type(exc)(f"{what} {i + 1} ({card!r}): {exc}") from None
    return state


def _check_claims(given: Mapping[str, object], actual: Mapping[str, object], keys: Iterable[str],
                  where: str = "") -> None:
    """Refuse (:class:`~quartet_solver.errors.InvalidStateError`) any of ``keys``
    given that differs from the value replayed (``actual``)."""
    for key in keys:
        if key not in given:
            continue
        name = f"{where}{key}"
        if key not in actual:
            raise InvalidStateError(f"{name} is {given[key]!r}, but the replay has no {key}")
        problem = _first_difference(given[key], actual[key], name)
        if problem is not None:
            raise InvalidStateError(problem)


def _first_difference(given: object, expected: object, where: str) -> str | None:
    """How a JSON-like value differs from the replay's (``None`` if it does not):
    keys of a dict may be missing but not unknown; lists must have the same
    length; numbers must be ints as in the replay (``True`` is not ``1``)."""
    if isinstance(expected, dict):
        if not isinstance(given, dict):
            return f"{where} is {given!r}, but the replay gives {expected!r}"
        for key in given:
            if key not in expected:
                return f"{where}: unknown key {key!r}"
            problem = _first_difference(given[key], expected[key], f"{where}.{key}")
            if problem is not None:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(given, list) or len(given) != len(expected):
            return f"{where} is {given!r}, but the replay gives {expected!r}"
        for i, (g, e) in enumerate(zip(given, expected)):
            problem = _first_difference(g, e, f"{where}[{i}]")
            if problem is not None:
                return problem
        return None
    if type(given) is not type(expected) or given != expected:
        return f"{where} is {given!r}, but the replay gives {expected!r}"
    return None
