"""Double-dummy review of a played hand: what each card cost its own team.

:func:`review` replays a :class:`~quartet_solver.klaverjas.match.HandRecord`
card by card and solves every position before a card *double dummy* (every
hand seen, both teams playing perfectly from there on, see
:mod:`~quartet_solver.klaverjas.dd`).  Each card gets the value of the
position before it (the value of the mover's best card), the value after it,
both as the net score of the **playing team**, and its *loss*: the points of
net the card cost its own team (0 for a best card).  Since the value after a
card is the value before the next one, and the value after the last card is
the hand's final net, the losses add up exactly (the *review identity*)::

    final net = DD value at the start - playing team's losses + other team's losses

A review is hindsight with every card face up: a loss is not always a mistake
by a player who saw only their own hand.  The bidding is set beside its
double-dummy view, :func:`~quartet_solver.klaverjas.analysis.par`.

>>> from quartet_solver.klaverjas import Deal, RuleBot, play_hand
>>> record = play_hand([RuleBot()] * 4, Deal.random(seed=5), dealer="N")
>>> rv = review(record)
>>> len(rv.cards), rv.final_net == record.result.net
(32, True)
>>> rv.final_net == rv.start_value - rv.team_loss(rv.playing_team) + rv.team_loss(1 - rv.playing_team)
True
>>> all(c.loss >= 0 for c in rv.cards) and all(c.loss == 0 for c in rv.cards if c.card in c.best_cards)
True
>>> print(rv.pretty().splitlines()[0])
Double-dummy review (every hand seen) of hand 1: dealer N, E names diamonds ♦, E/W play
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..cards import Card, Suit
from ..errors import InvalidStateError, SolverError
from .analysis import Par, par
from .dd import _check_limits, solve
from .deal import Deal
from .match import HandRecord
from .rules import SEATS, Rules, seat_index
from .state import PlayState

__all__ = ["CardReview", "HandReview", "review"]

TEAMS = ("NS", "EW")
_TEAM_TEXT = ("N/S", "E/W")


@dataclass(frozen=True)
class CardReview:
    """One card of a reviewed hand.

    ``trick`` (1..8) and ``seat`` play ``card``; ``value_before`` is the
    double-dummy value of the position before it (the value of the mover's
    best card) and ``value_after`` the value after it, both the net score of
    the playing team; ``loss`` is what the card cost its own team (``>= 0``;
    ``0`` exactly when ``card`` is one of ``best_cards``); ``card_values`` the
    value after each legal card, in canonical order.
    """

    trick: int
    seat: str
    card: Card
    value_before: int
    value_after: int
    loss: int
    best_cards: tuple[Card, ...]
    card_values: tuple[tuple[Card, int], ...]
    playing: bool          # the seat is in the playing team (which maximises the net)

    @property
    def team(self) -> str:
        """``"NS"`` or ``"EW"``: the seat's team."""
        return TEAMS[seat_index(self.seat) % 2]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"trick": self.trick, "seat": self.seat, "card": str(self.card), "team": self.team,
                "playing": self.playing, "value_before": self.value_before, "value_after": self.value_after,
                "loss": self.loss, "best_cards": [str(c) for c in self.best_cards],
                "card_values": {str(c): v for c, v in self.card_values}}


@dataclass(frozen=True)
class HandReview:
    """The double-dummy review of one played hand (see :func:`review`).

    ``cards``: a :class:`CardReview` per card, in play order; ``start_value``:
    the double-dummy value of the hand's first position (net for the playing
    team, team ``playing_team``: 0 = N/S, 1 = E/W, which ``declarer`` named
    ``trump`` for); ``final_net``: the net the hand scored;
    ``seat_losses``: the losses per seat (N, E, S, W); ``team_losses``: per
    team (N/S, E/W); ``par``: the bidding when every hand is seen.
    ``seconds`` (the time the review took) is not compared.
    """

    record: HandRecord
    cards: tuple[CardReview, ...]
    start_value: int
    final_net: int
    seat_losses: tuple[int, int, int, int]
    team_losses: tuple[int, int]
    par: Par
    seconds: float = field(default=0.0, compare=False)

    @property
    def value(self) -> int:
        """The double-dummy value at the start of play (``start_value``), net
        for the playing team."""
        return self.start_value

    @property
    def number(self) -> int:
        """The hand's number."""
        return self.record.number

    @property
    def playing_team(self) -> int:
        """``0`` if N/S named trumps, ``1`` for E/W."""
        return self.record.state.playing_team

    @property
    def declarer(self) -> str:
        """The seat that named trumps."""
        return SEATS[self.record.state.declarer]

    @property
    def trump(self) -> Suit:
        """The trump suit named."""
        return self.record.state.trump

    @property
    def deal(self) -> Deal:
        """The deal."""
        return self.record.state.deal

    @property
    def rules(self) -> Rules:
        """The rules the hand was played by."""
        return self.record.state.rules

    def seat_loss(self, seat: str | int) -> int:
        """The points of net the cards of ``seat`` cost its team."""
        return self.seat_losses[seat_index(seat)]

    def team_loss(self, team: str | int) -> int:
        """The points of net the cards of ``team`` (``"NS"``/``0`` or ``"EW"``/``1``) cost it."""
        if isinstance(team, str) and team.upper() in TEAMS:
            return self.team_losses[TEAMS.index(team.upper())]
        if isinstance(team, int) and not isinstance(team, bool) and team in (0, 1):
            return self.team_losses[team]
        raise InvalidStateError(f"team must be 'NS' or 'EW' (or 0, 1), got {team!r}")

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        playing = self.playing_team
        return {
            "value": self.value,
            "analysis": "double-dummy (every hand seen)",
            "number": self.number,
            "dealer": self.record.dealer,
            "deal": self.deal.pbn(),
            "rules": self.rules.to_dict(),
            "declarer": self.declarer,
            "trump": self.trump.char,
            "playing_team": TEAMS[playing],
            "start_value": self.start_value,
            "final_net": self.final_net,
            "losses": {"seats": dict(zip(SEATS, self.seat_losses)), "teams": dict(zip(TEAMS, self.team_losses))},
            "cards": [c.to_dict() for c in self.cards],
            "bidding": {
                "bid": {"declarer": self.declarer, "trump": self.trump.char, "playing_team": TEAMS[playing],
                        "dd_value": self.start_value,
                        "dd_value_ns": self.start_value if playing == 0 else -self.start_value},
                "par": self.par.to_dict(),
            },
            "seconds": self.seconds,
        }

    def pretty(self) -> str:
        """The review as text: a line per trick (a card that cost its team
        points is followed by ``(-loss; best ...)``), the losses per seat and
        team, the review identity and the bidding beside par.

        >>> from quartet_solver.klaverjas import Deal, RuleBot, play_hand
        >>> text = review(play_hand([RuleBot()] * 4, Deal.random(seed=5), dealer="N")).pretty()
        >>> print(text)
        Double-dummy review (every hand seen) of hand 1: dealer N, E names diamonds ♦, E/W play
          DD value at the start +80 for E/W; the hand scored net ...
          a card that cost its own team points of net: (-loss; best cards); the others were best
          1. E:... -> ...
        ...
          losses by seat: N ..., E ..., S ..., W ...; by team: N/S ..., E/W ...
          check: start +80 - E/W (playing) ... + N/S ... = final net ...
          bid: E names diamonds ♦, DD value +80 for E/W (N/S -80)
          par (double dummy): ...
        """
        playing, other = self.playing_team, 1 - self.playing_team
        team = _TEAM_TEXT[playing]
        head = (f"Double-dummy review (every hand seen) of hand {self.number}: dealer {self.record.dealer}, "
                f"{self.declarer} names {self.trump.name.lower()} {self.trump.symbol}, {team} play"
                + (" (forced: all four passed)" if self.record.bidding.was_forced else ""))
        lines = [head,
                 f"  DD value at the start {self.start_value:+d} for {team}; the hand scored net "
                 f"{self.final_net:+d} for {team}",
                 "  a card that cost its own team points of net: (-loss; best cards); the others were best"]
        tricks = self.record.state.tricks
        for i, trick in enumerate(tricks):
            shown = []
            for c in self.cards[4 * i:4 * i + 4]:
                text = f"{c.seat}:{c.card}"
                if c.loss > 0:
                    text += f" (-{c.loss}; best {' '.join(map(str, c.best_cards))})"
                shown.append(text)
            roem = f" +{trick.roem} roem" if trick.roem else ""
            lines.append(f"  {i + 1}. " + "  ".join(shown) + f"  -> {SEATS[trick.winner]} ({trick.points}{roem})")
        lines.append("  losses by seat: " + ", ".join(f"{s} {v}" for s, v in zip(SEATS, self.seat_losses))
                     + f"; by team: N/S {self.team_losses[0]}, E/W {self.team_losses[1]}")
        lines.append(f"  check: start {self.start_value:+d} - {team} (playing) {self.team_losses[playing]} "
                     f"+ {_TEAM_TEXT[other]} {self.team_losses[other]} = final net {self.final_net:+d}")
        ns = "" if playing == 0 else f" (N/S {-self.start_value:+d})"
        lines.append(f"  bid: {self.declarer} names {self.trump.name.lower()} {self.trump.symbol}, "
                     f"DD value {self.start_value:+d} for {team}{ns}")
        p = self.par
        ns = "" if seat_index(p.declarer) % 2 == 0 else f" (N/S {p.net_ns:+d})"
        lines.append(f"  {p.pretty().splitlines()[0]}{ns}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.pretty()


def review(record: HandRecord | dict[str, object], *, node_limit: int | None = None) -> HandReview:
    """The double-dummy review of a played hand (see the module docstring).

    ``record``: a :class:`~quartet_solver.klaverjas.match.HandRecord` (from
    :func:`~quartet_solver.klaverjas.match.play_hand`, a
    :class:`~quartet_solver.klaverjas.match.Match` or
    :func:`~quartet_solver.klaverjas.match.play_match`) or its
    :meth:`~quartet_solver.klaverjas.match.HandRecord.to_dict` mapping (also
    after a JSON round trip), which is replayed and checked by
    :meth:`~quartet_solver.klaverjas.match.HandRecord.from_dict`.  One exact
    :func:`~quartet_solver.klaverjas.dd.solve` per position before a card: its
    value is the card's ``value_before``, its ``card_values`` entry for the
    card played the ``value_after``.  ``node_limit`` bounds each solve; a solve
    it stops raises :class:`~quartet_solver.errors.SolverError` (a review needs
    exact values).  Anything but a record or a mapping raises
    :class:`~quartet_solver.errors.InvalidStateError`; a mapping that does not
    replay, the error of ``from_dict`` (``InvalidStateError``,
    ``NotationError`` or ``IllegalActionError``).

    >>> from quartet_solver.klaverjas import Deal, RandomBot, play_hand
    >>> record = play_hand([RandomBot(3)] * 4, Deal.random(seed=3), dealer="E")
    >>> rv = review(record.to_dict())
    >>> rv == review(record)
    True
    >>> first = rv.cards[0]
    >>> first.value_before == rv.start_value and first.value_after == rv.cards[1].value_before
    True
    >>> review("hand.json")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.InvalidStateError: review() needs a HandRecord or its to_dict() mapping, got str
    """
    if isinstance(record, dict):
        record = HandRecord.from_dict(record)
    elif not isinstance(record, HandRecord):
        raise InvalidStateError(f"review() needs a HandRecord or its to_dict() mapping, "
                                f"got {type(record).__name__}")
    final = record.state
    if not isinstance(final, PlayState) or not final.is_over:
        raise InvalidStateError(f"hand {record.number}: the record's state is not a finished hand")
    _check_limits(node_limit, None)
    start = time.perf_counter()
    net = final.result().net
    if record.result.net != net:
        raise InvalidStateError(f"hand {record.number}: the record's result has net {record.result.net}, "
                                f"but its tricks give {net}")
    playing = final.playing_team
    state = PlayState(final.deal, final.trump, final.declarer, final.leader, rules=final.rules)
    cards: list[CardReview] = []
    losses = [0, 0, 0, 0]
    for i, (seat, card) in enumerate(final.history):
        res = solve(state, node_limit=node_limit, pv=False)
        if not res.exact or card not in res.card_values:
            raise SolverError(f"hand {record.number}: the node limit ({node_limit}) stopped the solve "
                              f"before card {i + 1} ({seat}:{card}); a review needs exact values")
        before, after = res.value, res.card_values[card]
        if cards and cards[-1].value_after != before:       # the same position, solved twice
            raise SolverError(f"hand {record.number}: the value after card {i} is {cards[-1].value_after}, "
                              f"but the position solved again before card {i + 1} has {before}")
        mine = seat_index(seat) % 2 == playing
        loss = before - after if mine else after - before
        if loss < 0:
            raise SolverError(f"hand {record.number}: card {i + 1} ({seat}:{card}) has value {after}, "
                              f"better for {seat} than the position's {before}")
        losses[seat_index(seat)] += loss
        cards.append(CardReview(i // 4 + 1, seat, card, before, after, loss, tuple(res.best_cards),
                                tuple(res.card_values.items()), mine))
        state = state.play(card)
    if cards[-1].value_after != net:
        raise SolverError(f"hand {record.number}: the value after the last card is {cards[-1].value_after}, "
                          f"but the hand scored net {net}")
    seat_losses = (losses[0], losses[1], losses[2], losses[3])
    team_losses = (losses[0] + losses[2], losses[1] + losses[3])
    bidding_par = par(final.deal, record.dealer, rules=final.rules)
    return HandReview(record, tuple(cards), cards[0].value_before, net, seat_losses, team_losses, bidding_par,
                      time.perf_counter() - start)
