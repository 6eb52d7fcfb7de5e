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

    def __init__(self, dealer: str | int, rules: Rules | str = Rules.AMSTERDAM,
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
            "bids": [{"seat": SEATS[s], "bid": suit.char if suit else "pass"} for s, suit in self.bids],
        }
        if self.is_over:
            data.update(declarer=self.declarer, trump=self.trump.char, leader=self.leader)
        return data

    def __repr__(self) -> str:
        bids = " ".join(suit.char if suit else "pass" for _, suit in self.bids)
        return f"<BiddingState dealer={SEATS[self.dealer]} bids='{bids}'>"
