"""The Kwartet game engine: deal, asks, lay-downs, the end and the winner.

Seats are ``0 .. players - 1`` clockwise; the deal starts left of the dealer,
who is seat ``players - 1`` unless given, so seat 0 asks first by default.
Cards are deck indices (see :mod:`~quartet_solver.kwartet.decks`), card sets
are bitmasks.  Every public happening is appended to :attr:`Game.log` as an
event value (:class:`Dealt`, :class:`Laid`, :class:`Asked`, :class:`Drew`,
:class:`Revealed`); the log can be replayed on the same deal
(:meth:`Game.replay`) or fed to :class:`~quartet_solver.kwartet.knowledge.Knowledge`.

>>> from quartet_solver.kwartet import Deck
>>> g = Game(Deck.standard("AKQ"), players=3, seed=7)
>>> g.hand_sizes, g.to_move
((4, 4, 4), 0)
>>> target, card = g.legal_asks()[0]
>>> ev = g.ask(target, card)
>>> ev.asker, type(ev).__name__
(0, 'Asked')
>>> g.ask(g.to_move, card)
Traceback (most recent call last):
...
quartet_solver.errors.IllegalActionError: player ... cannot ask themselves for ...
"""

from __future__ import annotations

import copy
import itertools
import random as _random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Union

from ..checks import as_int, check_seed
from ..deprecation import keyword_options
from ..errors import IllegalActionError, InvalidStateError
from .decks import CardLike, Deck
from .rules import Rules, check_players

__all__ = ["Game", "Dealt", "Laid", "Asked", "Drew", "Revealed", "Event", "QUARTET_BITS", "askable_mask"]

QUARTET_BITS = 0xF


@dataclass(frozen=True)
class Dealt:
    """The deal: dealer seat, hand sizes by seat, pile size (cards are hidden)."""

    dealer: int
    hand_sizes: tuple[int, ...]
    pile: int

    def to_dict(self) -> dict[str, Any]:
        return {"event": "dealt", "dealer": self.dealer, "hand_sizes": list(self.hand_sizes), "pile": self.pile}


@dataclass(frozen=True)
class Laid:
    """``player`` laid down quartet ``quartet`` (index)."""

    player: int
    quartet: int

    def to_dict(self) -> dict[str, Any]:
        return {"event": "laid", "player": self.player, "quartet": self.quartet}


@dataclass(frozen=True)
class Asked:
    """``asker`` asked ``target`` for ``card``; ``hit`` says whether it was handed over."""

    asker: int
    target: int
    card: int
    hit: bool

    def to_dict(self) -> dict[str, Any]:
        return {"event": "asked", "asker": self.asker, "target": self.target, "card": self.card, "hit": self.hit}


@dataclass(frozen=True)
class Drew:
    """``player`` drew the top card of the draw pile; ``card`` is ``None`` in the
    public log (only the drawer sees it)."""

    player: int
    card: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"event": "drew", "player": self.player, "card": self.card}


@dataclass(frozen=True)
class Revealed:
    """Memory Kwartet: ``player`` turned up ``card`` from the middle and took it."""

    player: int
    card: int

    def to_dict(self) -> dict[str, Any]:
        return {"event": "revealed", "player": self.player, "card": self.card}


Event = Union[Dealt, Laid, Asked, Drew, Revealed]


def askable_mask(hand: int, n_quartets: int) -> int:
    """Mask of the cards a player holding ``hand`` may ask for: the cards of the
    quartets it holds a card of, less the cards it holds.

    >>> bin(askable_mask(0b0001_0011, 2))
    '0b11101100'
    """
    m = 0
    for q in range(n_quartets):
        if hand >> (4 * q) & QUARTET_BITS:
            m |= QUARTET_BITS << (4 * q)
    return m & ~hand


class Game:
    """A game of Kwartet in progress.

    ``Game(deck, players, seed, rules)`` shuffles and deals; ``hands`` (one
    card list per seat, plus ``pile``) deals given cards instead.  Actions:
    :meth:`ask` and (memory Kwartet) :meth:`reveal`; the game lays quartets,
    passes turns, draws cards and detects the end by itself.
    """

    @keyword_options
    def __init__(
        self,
        deck: Deck,
        players: int = 4,
        *,
        seed: int | str | None = None,
        rules: Rules | None = None,
        dealer: int | None = None,
        hands: Sequence[Iterable[CardLike] | str] | None = None,
        pile: Iterable[CardLike] | str | None = None,
    ) -> None:
        if not isinstance(deck, Deck):
            raise InvalidStateError(f"deck must be a kwartet.Deck, got {deck!r}")
        players = check_players(players)
        seed = check_seed(seed)
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise InvalidStateError(f"rules must be a kwartet.Rules, got {rules!r}")
        if dealer is None:
            dealer = players - 1
        d = as_int(dealer)
        if d is None or not 0 <= d < players:
            raise InvalidStateError(f"dealer must be a seat in 0..{players - 1}, got {dealer!r}")
        dealer = d
        self.deck = deck
        self.players = players
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        n = len(deck)
        sizes, pile_size = rules.deal_sizes(n, players, dealer)
        if hands is None and pile is not None:
            raise InvalidStateError(f"pile {pile!r} given without hands: a pile is dealt only with given hands")
        if hands is None:
            order = list(range(n))
            _random.Random(seed).shuffle(order)
            pile_list = order[: rules.set_aside]
            rest = order[rules.set_aside:]
            hand_masks = [0] * players
            each = (n - rules.set_aside) // players
            for k in range(each * players):
                hand_masks[(dealer + 1 + k) % players] |= 1 << rest[k]
            leftover = rest[each * players:]
            if rules.remainder == "dealer":
                for c in leftover:
                    hand_masks[dealer] |= 1 << c
            else:
                pile_list = pile_list + leftover
        else:
            if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
                raise InvalidStateError(f"hands must give one hand per seat ({players}), got {hands!r}")
            given = hands
            hands = list(itertools.islice(hands, players + 1))
            if len(hands) != players:
                raise InvalidStateError(f"hands must give one hand per seat ({players}), got {given!r}")
            hand_masks = [deck.mask(h) if not (isinstance(h, str) and not h.strip()) else 0 for h in hands]
            pmask = 0 if pile is None or (isinstance(pile, str) and not pile.strip()) else deck.mask(pile)
            seen = 0
            for m in [*hand_masks, pmask]:
                if seen & m:
                    raise InvalidStateError(f"card(s) {deck.format(seen & m)!r} dealt twice")
                seen |= m
            if seen != deck.full_mask:
                raise InvalidStateError(f"the deal misses card(s) {deck.format(deck.full_mask & ~seen)!r}")
            got = [m.bit_count() for m in hand_masks]
            if got != sizes or pmask.bit_count() != pile_size:
                raise InvalidStateError(
                    f"hand sizes {got} and pile {pmask.bit_count()} do not match the rules' deal "
                    f"{sizes} and pile {pile_size}"
                )
            pile_list = [i for i in range(n) if pmask >> i & 1]
            _random.Random(seed).shuffle(pile_list)
        self._hands = hand_masks
        self._pile = pile_list  # draw from the end
        self._initial = (tuple(hand_masks), tuple(pile_list))
        self._owner = [-1] * deck.n_quartets
        self._laid: list[list[int]] = [[] for _ in range(players)]
        self._last_lay = [-1] * players
        self._lay_count = 0
        self._history: list[Event] = [Dealt(dealer, tuple(sizes), len(pile_list))]
        self._free_misses = 0
        self._asks = 0
        self._over = False
        self._turn = (dealer + 1) % players
        for p in range(players):
            self._lay_all(p)
        self._check_over()
        self._start_turn()

    # -- public state --------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat whose turn it is (meaningless once :attr:`is_over`)."""
        return self._turn

    @property
    def is_over(self) -> bool:
        """True when every quartet that can still be completed is laid."""
        return self._over

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Number of cards in each hand (public)."""
        return tuple(m.bit_count() for m in self._hands)

    @property
    def pile_size(self) -> int:
        """Cards in the side pile / draw pile / memory middle."""
        return len(self._pile)

    @property
    def asks(self) -> int:
        """Number of asks made so far (the game length)."""
        return self._asks

    def hand(self, player: int) -> int:
        """The hand of ``player`` as a card mask (hidden information!)."""
        return self._hands[self._seat(player)]

    def hand_names(self, player: int) -> list[str]:
        """The card names in the hand of ``player``."""
        return self.deck.names(self.hand(player))

    @property
    def pile(self) -> int:
        """The pile as a card mask (hidden information)."""
        m = 0
        for c in self._pile:
            m |= 1 << c
        return m

    @property
    def laid(self) -> tuple[tuple[int, ...], ...]:
        """Quartet indices laid by each player, in laying order."""
        return tuple(tuple(q) for q in self._laid)

    @property
    def laid_mask(self) -> int:
        """Mask of all laid cards."""
        m = 0
        for q, o in enumerate(self._owner):
            if o >= 0:
                m |= QUARTET_BITS << (4 * q)
        return m

    @property
    def quartets(self) -> tuple[int, ...]:
        """Number of quartets laid by each player."""
        return tuple(len(q) for q in self._laid)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seat(s): most quartets, ties to the player who completed their
        last quartet earlier; several seats only when still tied (e.g. all on 0)."""
        counts = self.quartets
        best = max(counts)
        tied = [p for p in range(self.players) if counts[p] == best]
        if best == 0 or len(tied) == 1:
            return tuple(tied)
        first = min(self._last_lay[p] for p in tied)
        return tuple(p for p in tied if self._last_lay[p] == first)

    @property
    def winner(self) -> int | None:
        """The single winner, or ``None`` while tied or not over."""
        w = self.winners
        return w[0] if self._over and len(w) == 1 else None

    @property
    def log(self) -> tuple[Event, ...]:
        """The public event log (drawn cards hidden)."""
        return tuple(Drew(e.player) if isinstance(e, Drew) else e for e in self._history)

    def private_log(self, player: int) -> tuple[Event, ...]:
        """The log as ``player`` saw it (their own drawn cards shown)."""
        p = self._seat(player)
        return tuple(Drew(e.player) if isinstance(e, Drew) and e.player != p else e for e in self._history)

    @property
    def initial_hands(self) -> tuple[int, ...]:
        """The dealt hands (masks) after the deal, before any lay."""
        return self._initial[0]

    def is_out(self, player: int) -> bool:
        """True when ``player`` has no cards and cannot get any (no draw/memory pile left)."""
        p = self._seat(player)
        return self._hands[p] == 0 and not (self._pile and self.rules.set_aside)

    # -- actions -------------------------------------------------------------------

    def legal_asks(self, player: int | None = None) -> list[tuple[int, int]]:
        """All legal ``(target, card)`` asks of ``player`` (default: the player to move)."""
        p = self._turn if player is None else self._seat(player)
        if self._over:
            return []
        hand = self._hands[p]
        cards = self._askable(hand)
        out: list[tuple[int, int]] = []
        for t in range(self.players):
            if t != p and self._hands[t]:
                out.extend((t, c) for c in cards)
        return out

    def askable_mask(self, player: int | None = None) -> int:
        """Mask of the cards ``player`` may ask for (held quartets minus held cards)."""
        p = self._turn if player is None else self._seat(player)
        return askable_mask(self._hands[p], self.deck.n_quartets)

    def targets(self, player: int | None = None) -> list[int]:
        """Opponents that may be asked (those holding cards)."""
        p = self._turn if player is None else self._seat(player)
        return [t for t in range(self.players) if t != p and self._hands[t]]

    def can_reveal(self) -> bool:
        """Memory Kwartet: may the player to move turn up a middle card?"""
        return not self._over and bool(self.rules.memory) and bool(self._pile)

    def _askable(self, hand: int) -> list[int]:
        out = []
        for q in range(self.deck.n_quartets):
            h = hand >> (4 * q) & QUARTET_BITS
            if h:
                for j in range(4):
                    if not h >> j & 1:
                        out.append(4 * q + j)
        return out

    def ask(self, target: int, card: CardLike) -> Asked:
        """The player to move asks ``target`` for ``card``; returns the :class:`Asked` event.

        Raises :class:`~quartet_solver.errors.IllegalActionError` when the game is
        over, the target is the asker, out, or not a seat, the asker holds no card of
        the quartet, or already holds the card.
        """
        if self._over:
            raise IllegalActionError(f"the game is over; cannot ask {target!r} for {card!r}")
        p = self._turn
        c = self.deck.card(card)
        name = self.deck.full_name(c)
        t = as_int(target)
        if t is None or not 0 <= t < self.players:
            raise IllegalActionError(f"player {p} asks {target!r} for {name!r}: no such player (0..{self.players - 1})")
        target = t
        hand = self._hands[p]
        if target == p:
            raise IllegalActionError(f"player {p} cannot ask themselves for {name!r}")
        if not self._hands[target]:
            raise IllegalActionError(f"player {p} asks player {target} for {name!r}, but player {target} is out")
        q = c // 4
        if not hand >> (4 * q) & QUARTET_BITS:
            raise IllegalActionError(
                f"player {p} asks for {name!r} but holds no card of quartet {self.deck.quartets[q].name!r}"
                f" (hand: {self.deck.format(hand)!r})"
            )
        if hand >> c & 1:
            raise IllegalActionError(f"player {p} asks for {name!r} but holds it already")
        self._asks += 1
        hit = bool(self._hands[target] >> c & 1)
        ev = Asked(p, target, c, hit)
        self._history.append(ev)
        if hit:
            self._hands[target] &= ~(1 << c)
            self._hands[p] |= 1 << c
            self._lay_all(p)
            self._check_over()
            if not self._over and (not self._hands[p] or not self._can_act(p)):
                self._end_turn()
        else:
            if self.rules.draw_pile and self._pile:
                self._draw(p)
                self._check_over()
            if not self._over:
                if self._free_misses > 0:
                    self._free_misses -= 1
                    if not self._hands[p]:
                        self._end_turn()
                else:
                    self._end_turn()
        return ev

    def reveal(self, position: int = 0) -> Revealed:
        """Memory Kwartet: turn up middle card number ``position`` and take it; the
        turn passes."""
        if not self.can_reveal():
            raise IllegalActionError(
                f"player {self._turn} cannot reveal a middle card (memory={self.rules.memory}, "
                f"middle={len(self._pile)}, over={self._over})"
            )
        at = as_int(position)
        if at is None or not 0 <= at < len(self._pile):
            raise IllegalActionError(f"no middle card at position {position!r} (0..{len(self._pile) - 1})")
        position = at
        p = self._turn
        c = self._pile.pop(position)
        self._hands[p] |= 1 << c
        ev = Revealed(p, c)
        self._history.append(ev)
        self._lay_all(p)
        self._check_over()
        if not self._over:
            self._end_turn()
        return ev

    # the fields that play changes (replay puts them back when it fails)
    _PLAY_STATE = ("_hands", "_pile", "_owner", "_laid", "_last_lay", "_lay_count", "_history",
                   "_free_misses", "_asks", "_over", "_turn")

    def replay(self, events: Iterable[Event]) -> Game:
        """Apply the actions of a public log (asks and reveals) to this game, checking
        that every consequence (hits, lays, draws) matches; returns ``self``.  A log
        that does not fit raises and leaves the game as it was.

        >>> from quartet_solver.kwartet import Deck, NoviceBot, play
        >>> g = play(Game(Deck.themed(), players=4, seed=3), [NoviceBot(seed=i) for i in range(4)])
        >>> h = Game(Deck.themed(), players=4, seed=3).replay(g.log)
        >>> h.log == g.log and h.quartets == g.quartets
        True
        """
        if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
            raise InvalidStateError(f"replay needs a list of events, got {events!r}")
        saved = {name: copy.deepcopy(getattr(self, name)) for name in self._PLAY_STATE}
        try:
            return self._replay(events)
        except BaseException:
            for name, value in saved.items():
                setattr(self, name, value)
            raise

    def _replay(self, events: Iterable[Event]) -> Game:
        start = len(self._history)
        for i, ev in enumerate(events):
            if i < start:
                if self._public(self._history[i]) != ev:
                    raise InvalidStateError(f"event {i} {ev!r} does not match this game's {self._history[i]!r}")
                continue
            if i < len(self._history):
                if self._public(self._history[i]) != ev:
                    raise InvalidStateError(f"event {i} {ev!r} does not match the replayed {self._history[i]!r}")
                continue
            if isinstance(ev, Asked):
                if ev.asker != self._turn:
                    raise InvalidStateError(f"event {i} {ev!r}: it is player {self._turn}'s turn")
                got = self.ask(ev.target, ev.card)
                if got != ev:
                    raise InvalidStateError(f"event {i} {ev!r} replays as {got!r}")
            elif isinstance(ev, Revealed):
                pos = self._pile.index(ev.card) if ev.card in self._pile else -1
                if pos < 0 or ev.player != self._turn:
                    raise InvalidStateError(f"event {i} {ev!r} cannot be replayed here")
                self.reveal(pos)
            else:
                raise InvalidStateError(f"event {i} {ev!r} is not a consequence of the replayed actions")
        return self

    # -- internals -----------------------------------------------------------------

    @staticmethod
    def _public(ev: Event) -> Event:
        return Drew(ev.player) if isinstance(ev, Drew) else ev

    def _seat(self, player: int) -> int:
        p = as_int(player)
        if p is None or not 0 <= p < self.players:
            raise InvalidStateError(f"no player {player!r} (seats 0..{self.players - 1})")
        return p

    def _lay_all(self, p: int) -> None:
        hand = self._hands[p]
        for q in range(self.deck.n_quartets):
            if hand >> (4 * q) & QUARTET_BITS == QUARTET_BITS:
                self._hands[p] &= ~(QUARTET_BITS << (4 * q))
                self._owner[q] = p
                self._laid[p].append(q)
                self._last_lay[p] = self._lay_count
                self._lay_count += 1
                self._history.append(Laid(p, q))
                if self.rules.bonus_turn and len(self._history) > 1 and p == self._turn and self._asks:
                    self._free_misses += 1

    def _draw(self, p: int) -> None:
        c = self._pile.pop()
        self._hands[p] |= 1 << c
        self._history.append(Drew(p, c))
        self._lay_all(p)

    def _check_over(self) -> None:
        if self._over:
            return
        if all(o >= 0 for o in self._owner):
            self._over = True
            return
        if not self.rules.set_aside:
            pile = self.pile
            for q, o in enumerate(self._owner):
                if o < 0 and not pile >> (4 * q) & QUARTET_BITS:
                    return
            self._over = True  # only quartets blocked by the side pile are left

    def _can_act(self, p: int) -> bool:
        hand = self._hands[p]
        if not hand:
            return bool(self.rules.set_aside and self._pile)
        return any(t != p and self._hands[t] for t in range(self.players)) or (
            bool(self.rules.memory) and bool(self._pile)
        )

    def _start_turn(self) -> None:
        """Make sure the player to move can act (skipping players who cannot)."""
        for _ in range(self.players + 1):
            if self._over:
                return
            p = self._turn
            if self._can_act(p):
                if not self._hands[p] and self.rules.draw_pile:
                    self._draw(p)
                    self._check_over()
                    if self._over:
                        return
                    if not self._hands[p] or not self._can_act(p):
                        self._turn = (p + 1) % self.players  # nobody left to ask
                        continue
                return
            self._turn = (p + 1) % self.players
        # nobody can act: the remaining cards are stuck
        self._over = True

    def _end_turn(self) -> None:
        self._free_misses = 0
        self._turn = (self._turn + 1) % self.players
        self._start_turn()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary: rules, deal sizes, quartets, winners and the public log."""
        return {
            "deck": self.deck.name,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "over": self._over,
            "asks": self._asks,
            "quartets": list(self.quartets),
            "winners": list(self.winners),
            "log": [e.to_dict() for e in self.log],
        }

    def __repr__(self) -> str:
        return (
            f"<kwartet.Game {self.deck.name!r} players={self.players} seed={self.seed!r} "
            f"hands={list(self.hand_sizes)} quartets={list(self.quartets)}{' over' if self._over else ''}>"
        )
