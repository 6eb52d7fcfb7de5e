"""A Klaverjas game: 16 hands with the deal passing clockwise, running totals.

>>> from quartet_solver.klaverjas.bots import RuleBot
>>> result = play_match([RuleBot()] * 4, seed=1)
>>> len(result.hands), result.totals == tuple(map(sum, zip(*(h.result.scores for h in result.hands))))
(16, True)
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..checks import as_int, check_seed
from ..deprecation import keyword_options
from ..errors import ArgumentError, IllegalActionError, InvalidStateError, NotationError
from .bidding import BiddingState
from .bots import BidView, Bot, PlayView
from .deal import Deal, _date_value
from .rules import SEATS, Rules, seat_index
from .state import HandResult, PlayState, _check_claims

__all__ = ["HandRecord", "Match", "MatchResult", "play_hand", "play_match"]


@dataclass(frozen=True)
class HandRecord:
    """One played hand: its number, dealer, bidding, final play state and result."""

    number: int
    dealer: str
    bidding: BiddingState
    state: PlayState
    result: HandResult

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "deal": self.state.deal.pbn(),
            "bidding": self.bidding.to_dict(),
            "trump": self.state.trump.char,
            "declarer": SEATS[self.state.declarer],
            "leader": SEATS[self.state.leader],
            "rules": self.state.rules.to_dict(),
            "tricks": [t.to_dict() for t in self.state.tricks],
            "result": self.result.to_dict(),
        }

    @classmethod
    @keyword_options
    def from_dict(cls, data: object, *, rules: Rules | str | None = None) -> HandRecord:
        """The record of a :meth:`to_dict` mapping (also after a JSON round trip),
        rebuilt by replaying the bids and the cards of the tricks: every value the
        mapping gives (dealer, trump, declarer, leader, each trick, the result)
        must be the replay's.  ``rules`` applies when the mapping has no
        ``"rules"`` (older output; default Amsterdam).  Bad text raises
        :class:`~quartet_solver.errors.NotationError`, an illegal bid or card
        :class:`~quartet_solver.errors.IllegalActionError`, a malformed or
        inconsistent mapping :class:`~quartet_solver.errors.InvalidStateError`;
        the message names the hand and what is wrong.

        >>> import json
        >>> from quartet_solver.klaverjas.bots import RuleBot
        >>> record = play_hand([RuleBot()] * 4, Deal.random(seed=4), dealer="S")
        >>> HandRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record
        True
        >>> forged = record.to_dict()
        >>> forged["result"] = {**forged["result"], "scores": [162, 0]}
        >>> HandRecord.from_dict(forged)
        Traceback (most recent call last):
        ...
        quartet_solver.errors.InvalidStateError: hand 1: result.scores[0] is 162, but the replay gives ...
        """
        if not isinstance(data, dict):
            raise InvalidStateError(f"a hand record must be a dict (HandRecord.to_dict()), got {data!r}")
        number = as_int(data.get("number"))
        if number is None or number < 1:
            raise InvalidStateError(f"hand number must be an int >= 1, got {data.get('number')!r}")
        try:
            return cls._from_dict(data, number, rules)
        except (IllegalActionError, InvalidStateError, NotationError) as exc:
            raise type(exc)(f"hand {number}: {exc}") from None

    @classmethod
    def _from_dict(cls, data: dict[str, object], number: int, rules: Rules | str | None) -> HandRecord:
        missing = [k for k in ("dealer", "deal", "bidding", "tricks") if k not in data]
        if missing:
            raise InvalidStateError(f"missing {missing[0]!r}")
        chosen = Rules.of_record(data, rules=rules)
        bidding = BiddingState.from_dict(data["bidding"], rules=Rules.AMSTERDAM if chosen is None else chosen)
        if data["dealer"] != SEATS[bidding.dealer]:
            raise InvalidStateError(f"dealer is {data['dealer']!r}, "
                                    f"but the bidding's dealer is {SEATS[bidding.dealer]!r}")
        if not bidding.is_over:
            raise InvalidStateError("the bidding is not over: nobody named trumps")
        tricks = data["tricks"]
        if not isinstance(tricks, list) or len(tricks) != 8:
            raise InvalidStateError(f"a played hand has a list of 8 tricks, got {tricks!r}")
        state = PlayState.from_dict({"deal": data["deal"], "trump": bidding.trump.char, "declarer": bidding.declarer,
                                     "leader": bidding.leader, "rules": bidding.rules.to_dict(), "tricks": tricks})
        actual = {"trump": state.trump.char, "declarer": SEATS[state.declarer], "leader": SEATS[state.leader],
                  "result": state.result().to_dict()}
        _check_claims(data, actual, actual)
        return cls(number, SEATS[bidding.dealer], bidding, state, state.result())

    @keyword_options
    def to_pbn(self, *, event: str = "Klaverjas", date: _dt.date | str | None = None) -> str:
        """This hand as a PBN-style game (see :func:`~quartet_solver.klaverjas.pbn.write_pbn`).

        >>> from quartet_solver.klaverjas.bots import RuleBot
        >>> from quartet_solver.klaverjas.pbn import read_pbn
        >>> record = play_hand([RuleBot()] * 4, Deal.random(seed=4), dealer="S")
        >>> read_pbn(record.to_pbn()) == [record]
        True
        """
        from .pbn import write_pbn

        return write_pbn([self], event=event, date=date)

    def pretty(self) -> str:
        """Tricks and result as text."""
        r = self.result
        head = (f"hand {self.number}: dealer {self.dealer}, {SEATS[self.state.declarer]} names "
                f"{self.state.trump.name.lower()} ({self.state.trump.symbol})"
                + (" (forced: all four passed)" if self.bidding.was_forced else ""))
        lines = [head] + [f"  {i + 1}. {t}" for i, t in enumerate(self.state.tricks)]
        nat = " — NAT" if r.nat else ""
        pit = " — PIT" if any(r.pit) else ""
        lines.append(f"  points N/S {r.points[0]} E/W {r.points[1]} (roem {r.roem[0]}/{r.roem[1]}); "
                     f"score N/S {r.scores[0]} E/W {r.scores[1]}{nat}{pit}")
        return "\n".join(lines)


@dataclass(frozen=True)
class MatchResult:
    """A finished game: every hand and the totals (N/S, E/W)."""

    hands: tuple[HandRecord, ...]
    rules: Rules
    totals: tuple[int, int] = field(default=(0, 0))

    @property
    def winner(self) -> str | None:
        """``"NS"``, ``"EW"`` or ``None`` for a draw."""
        if self.totals[0] == self.totals[1]:
            return None
        return "NS" if self.totals[0] > self.totals[1] else "EW"

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"rules": self.rules.to_dict(), "hands": [h.to_dict() for h in self.hands],
                "totals": {"NS": self.totals[0], "EW": self.totals[1]}, "winner": self.winner}

    @classmethod
    def from_dict(cls, data: object) -> MatchResult:
        """The game of a :meth:`to_dict` mapping (also after a JSON round trip):
        each hand rebuilt by :meth:`HandRecord.from_dict` under the game's rules;
        the totals and the winner, when given, must be the hands' sums.

        >>> from quartet_solver.klaverjas.bots import RuleBot
        >>> result = play_match([RuleBot()] * 4, seed=1, hands=2)
        >>> MatchResult.from_dict(result.to_dict()) == result
        True
        >>> MatchResult.from_dict({**result.to_dict(), "winner": "??"})
        Traceback (most recent call last):
        ...
        quartet_solver.errors.InvalidStateError: winner is '??', but the replay gives ...
        """
        if not isinstance(data, dict):
            raise InvalidStateError(f"a match result must be a dict (MatchResult.to_dict()), got {data!r}")
        missing = [k for k in ("rules", "hands") if k not in data]
        if missing:
            raise InvalidStateError(f"match result: missing {missing[0]!r}")
        rules = Rules.from_dict(data["rules"])
        hands = data["hands"]
        if not isinstance(hands, list):
            raise InvalidStateError(f"match result: hands must be a list, got {hands!r}")
        if not 1 <= len(hands) <= 16:
            raise InvalidStateError(f"match result: a game has 1..16 hands, got {len(hands)}")
        records = tuple(HandRecord.from_dict(h, rules=rules) for h in hands)
        first = SEATS.index(records[0].dealer)
        for k, r in enumerate(records):
            if r.number != k + 1 or r.dealer != SEATS[(first + k) % 4]:
                raise InvalidStateError(
                    f"match result: hand {k + 1} must be numbered {k + 1} and dealt by {SEATS[(first + k) % 4]} "
                    f"(the deal passes to the left), got number {r.number} dealt by {r.dealer}")
        totals = (sum(r.result.scores[0] for r in records), sum(r.result.scores[1] for r in records))
        result = cls(records, rules, totals)
        _check_claims(data, {"totals": {"NS": totals[0], "EW": totals[1]}, "winner": result.winner},
                      ("totals", "winner"))
        return result

    @keyword_options
    def to_pbn(self, *, event: str = "Klaverjas", date: _dt.date | str | None = None) -> str:
        """Every hand as a PBN-style game (see :func:`~quartet_solver.klaverjas.pbn.write_pbn`)."""
        from .pbn import write_pbn

        return write_pbn(self, event=event, date=date)

    def pretty(self) -> str:
        """Every hand and the running totals."""
        out, ns, ew = [], 0, 0
        for h in self.hands:
            ns += h.result.scores[0]
            ew += h.result.scores[1]
            out.append(h.pretty() + f"\n  running total N/S {ns} E/W {ew}")
        out.append(f"final: N/S {self.totals[0]} E/W {self.totals[1]} — "
                   + ("draw" if self.winner is None else f"{self.winner} wins"))
        return "\n".join(out)


def _check_bots(bots: Sequence[Bot], what: str) -> list[Bot]:
    """``bots`` as a list of four objects with ``choose_bid`` and ``choose_card``."""
    try:
        seated = list(bots)
    except TypeError:
        raise InvalidStateError(f"a Klaverjas {what} needs 4 bots (N, E, S, W), got {bots!r}") from None
    if len(seated) != 4:
        raise InvalidStateError(f"a Klaverjas {what} needs 4 bots (N, E, S, W), got {len(seated)}")
    for seat, bot in zip(SEATS, seated):
        if not (callable(getattr(bot, "choose_bid", None)) and callable(getattr(bot, "choose_card", None))):
            raise InvalidStateError(f"bot {seat} ({bot!r}) is not a bot: it needs choose_bid() and choose_card()")
    return seated


@keyword_options
def play_hand(bots: Sequence[Bot], deal: Deal | str, dealer: str | int, *, rules: Rules | str = Rules.AMSTERDAM,
              number: int = 1) -> HandRecord:
    """Bid and play one hand with four bots (seated N, E, S, W); ``deal`` a Deal or
    PBN text, ``rules`` a Rules or a preset name, ``number`` the hand's number (>= 1)."""
    bots = _check_bots(bots, "hand")
    deal = Deal.of(deal)
    rules = Rules.named(rules)
    n = as_int(number)
    if n is None or n < 1:
        raise ArgumentError(f"hand number must be an int >= 1, got {number!r}")
    number = n
    bidding = BiddingState(dealer, rules=rules)
    while not bidding.is_over:
        seat = SEATS.index(bidding.to_move)
        view = BidView(seat, bidding.dealer, deal.hands[seat], bidding.bids, bidding.forced, rules)
        choice = bots[seat].choose_bid(view)
        try:
            bidding = bidding.bid(choice)
        except (IllegalActionError, NotationError) as exc:
            raise type(exc)(f"bot {SEATS[seat]} ({bots[seat]!r}) bid {choice!r}: {exc}") from None
    state = PlayState(deal, bidding.trump, bidding.declarer, bidding.leader, rules=rules)
    while not state.is_over:
        seat = state.to_move_index
        card = bots[seat].choose_card(PlayView.of(state))
        try:
            state = state.play(card)
        except (IllegalActionError, NotationError) as exc:
            raise type(exc)(f"bot {SEATS[seat]} ({bots[seat]!r}) played {card!r}: {exc}") from None
    return HandRecord(number, SEATS[bidding.dealer], bidding, state, state.result())


class Match:
    """A game of ``hands`` hands (16) in progress: four bots seated N, E, S, W, the
    deal passing clockwise from ``first_dealer``, running totals per team.

    Deals come from ``seed`` (``Deal.random(f"{seed}:{n}")``) or are the daily
    deals of ``date``.

    >>> from quartet_solver.klaverjas.bots import RuleBot
    >>> m = Match([RuleBot()] * 4, seed=3, hands=2)
    >>> first = m.play_next()
    >>> first.dealer, m.totals == first.result.scores, m.is_over
    ('N', True, False)
    >>> len(m.play_all().hands)
    2
    """

    @keyword_options
    def __init__(
        self,
        bots: Sequence[Bot],
        *,
        seed: int | str | None = None,
        date: _dt.date | str | None = None,
        rules: Rules | str = Rules.AMSTERDAM,
        hands: int = 16,
        first_dealer: str | int = "N",
    ) -> None:
        seated = _check_bots(bots, "match")
        if seed is not None and date is not None:
            raise ArgumentError("give a seed or a date, not both")
        seed = check_seed(seed)  # a float or a list would be read as its text
        if date is not None:
            date = _date_value(date)  # a bad date fails here, not at the first hand
        count = as_int(hands)  # numpy integers too
        if count is None or not 1 <= count <= 16:
            raise ArgumentError(f"hands must be 1..16, got {hands!r}")
        try:
            dealer = seat_index(first_dealer)
        except NotationError:
            raise ArgumentError(f"unknown first dealer {first_dealer!r}") from None
        self.bots = seated
        self.seed, self.date, self.hands = seed, date, count
        self.rules = Rules.named(rules)
        self.first_dealer = dealer
        self.records: list[HandRecord] = []

    @property
    def is_over(self) -> bool:
        """All hands played."""
        return len(self.records) == self.hands

    @property
    def totals(self) -> tuple[int, int]:
        """Running totals (N/S, E/W)."""
        return (sum(r.result.scores[0] for r in self.records), sum(r.result.scores[1] for r in self.records))

    def next_deal(self) -> Deal:
        """The deal of the next hand."""
        n = len(self.records) + 1
        if self.date is not None:
            return Deal.daily(self.date, n)
        return Deal.random(None if self.seed is None else f"{self.seed}:{n}")

    def play_next(self) -> HandRecord:
        """Bid and play the next hand; returns its record."""
        if self.is_over:
            raise InvalidStateError(f"the match is over after {self.hands} hands")
        n = len(self.records) + 1
        record = play_hand(self.bots, self.next_deal(), (self.first_dealer + n - 1) % 4, rules=self.rules, number=n)
        self.records.append(record)
        return record

    @keyword_options
    def play_all(self, *, progress: Callable[[HandRecord], None] | None = None) -> MatchResult:
        """Play the remaining hands; returns the result."""
        if progress is not None and not callable(progress):
            raise ArgumentError(f"progress must be a callable progress(record) or None, got {progress!r}")
        while not self.is_over:
            record = self.play_next()
            if progress is not None:
                progress(record)
        return self.result()

    def result(self) -> MatchResult:
        """The hands played so far and the totals."""
        return MatchResult(tuple(self.records), self.rules, self.totals)


@keyword_options
def play_match(
    bots: Sequence[Bot],
    *,
    seed: int | str | None = None,
    date: _dt.date | str | None = None,
    rules: Rules | str = Rules.AMSTERDAM,
    hands: int = 16,
    first_dealer: str | int = "N",
    progress: Callable[[HandRecord], None] | None = None,
) -> MatchResult:
    """Play a whole game with four bots seated N, E, S, W (see :class:`Match`)."""
    return Match(bots, seed=seed, date=date, rules=rules, hands=hands, first_dealer=first_dealer).play_all(progress=progress)
