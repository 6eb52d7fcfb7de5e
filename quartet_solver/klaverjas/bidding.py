"""Bidding: from the dealer's left each player names a trump suit or passes.

The first player to name a suit ends the bidding: their team is the playing
team.  If all four pass, the player left of the dealer must name a suit (rule
option ``forced="dealer"``: the dealer must).  Whoever named trumps, the player
left of the dealer leads the first trick.

>>> b = BiddingState(dealer="N")
>>> b.to_move
'E'
>>> b = b.bid("pass").bid("pass").bid("h")
>>> b.is_over, b.declarer, b.trump.char, b.leader
(True, 'W', 'h', 'E')
"""

from __future__ import annotations

from ..cards import Suit
from ..deprecation import keyword_options
from ..errors import IllegalActionError, InvalidStateError
from .rules import SEATS, Rules, seat_index

__all__ = ["BiddingState", "PASS"]

PASS = None
"""The pass bid (``bid(None)`` or ``bid("pass")``)."""


class BiddingState:
    """The bidding of one hand (immutable): ``bid`` returns the next state."""

    __slots__ = ("dealer", "rules", "bids")
    dealer: int
    rules: Rules
    bids: tuple[tuple[int, Suit | None], ...]

    @keyword_options
    def __init__(self, dealer: str | int, *, rules: Rules | str = Rules.AMSTERDAM,
                 bids: tuple[tuple[int, Suit | None], ...] = ()) -> None:
        """``bids``: the bids so far as (seat, suit or ``None`` for a pass), replayed
        and checked as :meth:`bid` would (each by the seat to bid, legal).

        >>> BiddingState("N", bids=((1, None), (2, "h"))).declarer
        'S'
        >>> BiddingState("N", bids=((3, None),))
        Traceback (most recent call last):
        ...
        quartet_solver.errors.IllegalActionError: bid 1 is by W, but E is to bid (dealer N)
        """
        object.__setattr__(self, "dealer", seat_index(dealer))
        object.__setattr__(self, "rules", Rules.named(rules))
        object.__setattr__(self, "bids", ())
        try:
            entries = list(bids)
        except TypeError:
            raise InvalidStateError(f"bids must be a sequence of (seat, suit or None), got {bids!r}") from None
        state = self
        for i, entry in enumerate(entries):
            try:
                seat, suit = entry
            except (TypeError, ValueError):
                raise InvalidStateError(f"bid {i + 1} must be (seat, suit or None), got {entry!r}") from None
            if not state.is_over and seat_index(seat) != seat_index(state.to_move):
                raise IllegalActionError(f"bid {i + 1} is by {SEATS[seat_index(seat)]}, but {state.to_move} "
                                         f"is to bid (dealer {SEATS[self.dealer]})")
            state = state.bid(suit)
        object.__setattr__(self, "bids", state.bids)

    def _after(self, seat: int, choice: Suit | None) -> BiddingState:
        """This state with one more bid (already checked)."""
        new = object.__new__(BiddingState)
        object.__setattr__(new, "dealer", self.dealer)
        object.__setattr__(new, "rules", self.rules)
        object.__setattr__(new, "bids", self.bids + ((seat, choice),))
        return new

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("BiddingState is immutable")

    @property
    def forehand(self) -> str:
        """The player left of the dealer (bids first, leads the first trick)."""
        return SEATS[(self.dealer + 1) % 4]

    @property
    def forced(self) -> bool:
        """True when all four passed and the player to move must name a suit."""
        return len(self.bids) == 4 and all(s is None for _, s in self.bids)

    @property
    def was_forced(self) -> bool:
        """True when trumps were named because all four passed.

        >>> BiddingState("N").bid("pass").bid("pass").bid("pass").bid("pass").bid("s").was_forced
        True
        """
        return len(self.bids) == 5

    @property
    def is_over(self) -> bool:
        """A suit has been named."""
        return any(s is not None for _, s in self.bids)

    @property
    def to_move(self) -> str:
        """Seat letter of the player to bid."""
        if self.is_over:
            raise InvalidStateError("the bidding is over: nobody is to bid")
        if self.forced:
            return SEATS[(self.dealer + 1) % 4] if self.rules.forced == "forehand" else SEATS[self.dealer]
        return SEATS[(self.dealer + 1 + len(self.bids)) % 4]

    def legal_bids(self) -> list[Suit | None]:
        """The suits that may be named, plus ``None`` (pass) unless forced."""
        if self.is_over:
            return []
        return list(Suit) + ([] if self.forced else [PASS])

    def bid(self, suit: str | Suit | None) -> BiddingState:
        """The state after the player to move names ``suit`` (or passes: ``None``/``"pass"``)."""
        if self.is_over:
            raise IllegalActionError(f"the bidding is over; cannot bid {suit!r}")
        seat = self.to_move
        if suit is None or isinstance(suit, str) and suit.strip().lower() in ("pass", "p", "-"):
            choice = None
        else:
            choice = suit if isinstance(suit, Suit) else Suit.parse(suit)
        if choice is None and self.forced:
            raise IllegalActionError(f"{seat} may not pass: all four passed, {seat} must name trumps")
        return self._after(seat_index(seat), choice)

    @property
    def declarer(self) -> str:
        """The seat that named trumps."""
        return SEATS[self._final()[0]]

    @property
    def trump(self) -> Suit:
        """The trump suit named."""
        return self._final()[1]

    @property
    def leader(self) -> str:
        """Who leads the first trick: always the player left of the dealer."""
        return self.forehand

    def _final(self) -> tuple[int, Suit]:
        for seat, suit in self.bids:
            if suit is not None:
                return seat, suit
        raise InvalidStateError("the bidding is not over yet")

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        data: dict[str, object] = {
            "dealer": SEATS[self.dealer],
            "bids": [{"seat": SEATS[s], "bid": "pass" if suit is None else suit.char} for s, suit in self.bids],
        }
        if len(self.bids) == 5:        # all four passed: the last bid was forced
            data["bids"][4]["forced"] = True  # type: ignore[index]
        if self.is_over:
            data.update(declarer=self.declarer, trump=self.trump.char, leader=self.leader)
        return data

    def __repr__(self) -> str:
        bids = " ".join("pass" if suit is None else suit.char for _, suit in self.bids)
        return f"<BiddingState dealer={SEATS[self.dealer]} bids='{bids}'>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BiddingState):
            return NotImplemented
        return (self.dealer, self.rules, self.bids) == (other.dealer, other.rules, other.bids)

    def __hash__(self) -> int:
        return hash((self.dealer, self.rules, self.bids))

    @classmethod
    @keyword_options
    def from_dict(cls, data: object, *, rules: Rules | str | None = None) -> BiddingState:
        """The bidding of a :meth:`to_dict` mapping, replayed bid by bid (each by the
        seat to bid, legal).  ``rules`` applies when the mapping has no ``"rules"``
        (default Amsterdam); the declarer, trump and leader, when given, must be
        those of the replayed bids.  A bad seat or suit raises
        :class:`~quartet_solver.errors.NotationError`, a bid out of turn or after
        the end :class:`~quartet_solver.errors.IllegalActionError`, a malformed or
        inconsistent mapping :class:`~quartet_solver.errors.InvalidStateError`.

        >>> b = BiddingState("N").bid("pass").bid("h")
        >>> BiddingState.from_dict(b.to_dict()) == b
        True
        >>> BiddingState.from_dict({**b.to_dict(), "trump": "s"})
        Traceback (most recent call last):
        ...
        quartet_solver.errors.InvalidStateError: bidding: trump is 's', but the bids give 'h'
        """
        if not isinstance(data, dict):
            raise InvalidStateError(f"bidding must be a dict with 'dealer' and 'bids', got {data!r}")
        chosen = Rules.of_record(data, rules=rules, what="bidding")
        for key in ("dealer", "bids"):
            if key not in data:
                raise InvalidStateError(f"bidding: missing {key!r} (in {data!r})")
        bids = data["bids"]
        if not isinstance(bids, list):
            raise InvalidStateError(f"bidding: bids must be a list, got {bids!r}")
        entries = []
        for i, entry in enumerate(bids):
            if not isinstance(entry, dict) or "seat" not in entry or "bid" not in entry:
                raise InvalidStateError(f"bidding: bid {i + 1} must be {{'seat': ..., 'bid': ...}}, got {entry!r}")
            entries.append((entry["seat"], entry["bid"]))
        state = cls(data["dealer"], rules=Rules.AMSTERDAM if chosen is None else chosen, bids=tuple(entries))
        for key in ("declarer", "trump", "leader"):
            if key not in data:
                continue
            if not state.is_over:
                raise InvalidStateError(f"bidding: {key} is {data[key]!r}, but the bids do not end the bidding")
            actual = state.trump.char if key == "trump" else getattr(state, key)
            if data[key] != actual:
                raise InvalidStateError(f"bidding: {key} is {data[key]!r}, but the bids give {actual!r}")
        return state
