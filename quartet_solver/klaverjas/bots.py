"""Klaverjas bots and the views they see.

A bot implements ``choose_bid(view: BidView) -> Suit | None`` and
``choose_card(view: PlayView) -> Card``.  Views hold only what that seat may
see: its own hand, the bids, the cards played so far.

>>> from quartet_solver.klaverjas.match import play_match
>>> result = play_match([RuleBot(), RandomBot(1), RuleBot(), RandomBot(2)], seed=5, hands=2)
>>> len(result.hands)
2
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Protocol

from ..cards import Card, CardSet, Rank, Suit
from ..checks import check_seed
from ..errors import InvalidStateError
from .rules import PLAIN_ORDER, TRUMP_ORDER, Rules, card_points, seat_index, trick_roem, trick_winner
from .state import PlayState

__all__ = ["BidView", "PlayView", "Bot", "RandomBot", "RuleBot"]


@dataclass(frozen=True)
class BidView:
    """What a seat sees when it bids."""

    seat: int
    dealer: int
    hand: CardSet
    bids: tuple[tuple[int, Suit | None], ...]
    forced: bool
    rules: Rules


@dataclass(frozen=True)
class PlayView:
    """What a seat sees when it plays: its hand, the legal cards and public play.

    ``history`` is every card played so far in order, each with the index (``0..3``
    = N E S W) of the seat that played it, current trick included (the default
    ``()`` only for views built by hand before anything was played).
    """

    seat: int
    hand: CardSet
    legal: tuple[Card, ...]
    trump: Suit
    declarer: int
    leader: int
    trick: tuple[Card, ...]
    trick_leader: int
    played: CardSet           # every card played so far, current trick included
    points: tuple[int, int]
    rules: Rules
    history: tuple[tuple[int, Card], ...] = ()  # (seat index, card) of every card played, in order

    @classmethod
    def of(cls, state: PlayState) -> PlayView:
        """The view of the player to move in ``state`` (the hand must not be over)."""
        if state.is_over:
            raise InvalidStateError(f"the hand is over: nobody is to play ({state!r})")
        seat = state.to_move_index
        played = CardSet([c for _, c in state.history])
        history = tuple((seat_index(s), c) for s, c in state.history)
        return cls(seat, state.hand(seat), tuple(state.legal_cards()), state.trump, state.declarer,
                   state.leader, state.trick, (seat - len(state.trick)) % 4, played, state.points, state.rules,
                   history)


class Bot(Protocol):
    """The bot interface."""

    def choose_bid(self, view: BidView) -> Suit | None: ...

    def choose_card(self, view: PlayView) -> Card: ...


class RandomBot:
    """Passes or names a random suit (1 in 4), plays a random legal card; seeded."""

    def __init__(self, seed: int | str | None = None) -> None:
        """``seed``: ``None``, an int (numpy integers too) or a string."""
        self.rng = _random.Random(check_seed(seed))

    def choose_bid(self, view: BidView) -> Suit | None:
        if view.forced or self.rng.random() < 0.25:
            return self.rng.choice(list(Suit))
        return None

    def choose_card(self, view: PlayView) -> Card:
        return self.rng.choice(view.legal)

    def __repr__(self) -> str:
        return "RandomBot()"


def _trump_strength(hand: CardSet, suit: Suit) -> int:
    """Rough value of naming ``suit``: trump points held, plus side aces and tens."""
    value = 0
    for c in hand:
        if c.suit == suit:
            value += card_points(c, suit) + 8
        elif c.rank == Rank.ACE:
            value += 10
        elif c.rank == Rank.TEN:
            value += 4
    return value


class RuleBot:
    """A sensible rule-based player (deterministic).

    Bidding: name a suit holding the jack, or the nine and the ace, with at least
    three trumps (the strongest such suit); when forced, the strongest suit.
    Play: the playing team leads trumps while the opponents may still hold some,
    then aces; on a partner's sure trick add points (tens and aces) and roem; win
    tricks cheaply when possible; otherwise throw the card that gives away the
    fewest points and no roem.
    """

    def choose_bid(self, view: BidView) -> Suit | None:
        best, best_value = None, -1
        for suit in Suit:
            held = [c for c in view.hand if c.suit == suit]
            ranks = {c.rank for c in held}
            good = len(held) >= 3 and (Rank.JACK in ranks or {Rank.NINE, Rank.ACE} <= ranks)
            value = _trump_strength(view.hand, suit)
            if (good or view.forced) and value > best_value:
                best, best_value = suit, value
        return best

    def __repr__(self) -> str:
        return "RuleBot()"

    def choose_card(self, view: PlayView) -> Card:
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        if not view.trick:
            return self._lead(view, legal)
        return self._follow(view, legal)

    # -- leading ---------------------------------------------------------------------

    def _lead(self, view: PlayView, legal: list[Card]) -> Card:
        trump = view.trump
        my_team_plays = view.declarer % 2 == view.seat % 2
        trumps = [c for c in legal if c.suit == trump]
        outstanding = [c for c in _suit_cards(trump) if c not in view.hand and c not in view.played]
        if my_team_plays and trumps and outstanding:
            top = max(trumps, key=lambda c: TRUMP_ORDER[::-1].index(c.rank.char))
            master = all(TRUMP_ORDER.index(top.rank.char) < TRUMP_ORDER.index(o.rank.char) for o in outstanding)
            return top if master else min(trumps, key=lambda c: card_points(c, trump))
        aces = [c for c in legal if c.suit != trump and c.rank == Rank.ACE]
        if aces:
            return aces[0]
        plain = [c for c in legal if c.suit != trump] or legal
        return min(plain, key=lambda c: (card_points(c, trump), PLAIN_ORDER[::-1].index(c.rank.char)))

    # -- following -------------------------------------------------------------------

    def _follow(self, view: PlayView, legal: list[Card]) -> Card:
        trump, trick = view.trump, list(view.trick)
        last = len(trick) == 3
        winner_pos = trick_winner(trick, trump)
        partner_winning = winner_pos == len(trick) - 2
        if partner_winning and (last or self._is_master(view, trick[winner_pos])):
            keeps = [c for c in legal if trick_winner(trick + [c], trump) == winner_pos]
            pool = [c for c in keeps if c.suit != trump] or keeps or legal
            return max(pool, key=lambda c: (card_points(c, trump) + _roem_gain(trick, c, trump)))
        winning = [c for c in legal if trick_winner(trick + [c], trump) == len(trick)]
        if winning and (last or not partner_winning):
            if last:
                return max(winning, key=lambda c: card_points(c, trump) + _roem_gain(trick, c, trump)
                           - 0.1 * _power(c, trump))
            return min(winning, key=lambda c: (_power(c, trump), card_points(c, trump)))
        return min(legal, key=lambda c: (card_points(c, trump) + _roem_gain(trick, c, trump), _power(c, trump)))

    def _is_master(self, view: PlayView, card: Card) -> bool:
        """No unseen card can beat ``card`` (rough: ignores who can still follow)."""
        trump = view.trump
        unseen = [c for c in _all_cards() if c not in view.hand and c not in view.played]
        led = view.trick[0].suit
        for c in unseen:
            if trick_winner([card, c], trump) == 1 and (c.suit == led or c.suit == trump):
                return False
        return True


def _power(card: Card, trump: Suit) -> int:
    order = TRUMP_ORDER if card.suit == trump else PLAIN_ORDER
    return (100 if card.suit == trump else 0) + 8 - order.index(card.rank.char)


def _roem_gain(trick: list[Card], card: Card, trump: Suit) -> int:
    return trick_roem(trick + [card], trump) - trick_roem(trick, trump)


def _suit_cards(suit: Suit) -> list[Card]:
    return [Card(Rank(r), suit) for r in range(Rank.SEVEN, Rank.ACE + 1)]


def _all_cards() -> list[Card]:
    return [c for s in Suit for c in _suit_cards(s)]
