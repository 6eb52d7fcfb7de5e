"""Exact card-location inference for Kwartet from one player's point of view.

The model: every deal is equally likely a priori;
the posterior is uniform over the deals consistent with the observer's own hand
and every public event.  A deal is consistent when replaying the public log on
it produces exactly that log:

* an ask shows the asker held at least one card of the quartet and not the card;
* a hit shows the target held the card (it then moves, publicly); a miss that
  the target did not;
* a lay shows the layer held all four; and because quartets are laid at once,
  the *absence* of a lay shows that nobody held a complete quartet after the deal
  or after receiving a card;
* hand sizes are public; the side pile is a location like a hand.

Since cards move only publicly, a deal fixes the current position of every card
and vice versa; so the posterior is computed over the current positions of the
cards whose place the observer does not know.  Every constraint concerns the
cards of one quartet, so a dynamic programme over quartets (in the compiled
core) counts the consistent deals with per-location hand-size constraints, and
forward/backward tables give every card's marginal.  Counts are **exact**
integers (128-bit in the kernel, Python ints here); probabilities are the exact
ratios rounded once to float64, or exact :class:`fractions.Fraction` values with
``exact=True``.

Covered: the standard game, the dealer taking the remainder, the bonus turn,
memory Kwartet (the middle is the pile location; a reveal is a public move), and
the draw-pile hybrid.  There an opponent's unseen draw puts a card in their hand
that the record before it does not concern, so from the first such draw on the
posterior is taken over where each card came from (a dealt hand, one of the
unseen draws, or the pile), which fixes where it is now (see
:mod:`~quartet_solver.kwartet.origins`); a deal then also says which card each
unseen draw took.  Exact inference tracks up to 16 locations: the other seats,
the pile and the unseen draws (12 unseen draws at a table of four); a position
with more raises :class:`~quartet_solver.errors.SolverError`.

>>> from quartet_solver.kwartet import Deck, PILE
>>> k = Knowledge(Deck.standard("AKQJ"), players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
>>> k.count()   # 11 unknown cards: 5 + 5 for the others, 1 aside; nobody holds all four kings
2688
>>> k.probability(1, "Ks"), k.probability(PILE, "Ks")
(0.453125, 0.09375)
>>> k.ask(asker=1, target=2, card="Ks", success=True)
>>> k.probability(1, "Ks")
1.0
>>> k.lay(player=1, quartet="K")
>>> k.ask(asker=1, target=0, card="Ah", success=False)
>>> k.count(), k.probabilities().shape
(25, (4, 16))
"""

from __future__ import annotations

import itertools
import math
import random as _random
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, NoReturn

import numpy as np

from .. import _core
from ..checks import as_int, check_int, check_seed
from ..deprecation import keyword_options
from ..errors import IllegalActionError, InvalidStateError, SolverError
from .decks import CardLike, Deck, QuartetLike
from .game import Asked, Dealt, Drew, Event, Game, Laid, Revealed
from .origins import Inconsistent, KernelProblem, origin_problem
from .rules import Rules, check_count, check_players
from .turns import Turns

__all__ = ["Knowledge", "PILE", "LAID", "MAX_SAMPLES", "MAX_WORK"]

PILE = -1
"""The location of the side pile (also the last row of :meth:`Knowledge.probabilities`)."""

LAID = -2
"""The location of a laid-down card in :meth:`Knowledge.sample`."""

MAX_SAMPLES = 1_000_000
"""The most deals one :meth:`Knowledge.sample` call draws."""

MAX_WORK = 400_000_000
"""After unseen draws: the most steps (states x quartets' count vectors x locations)
one posterior may take; beyond it the queries raise
:class:`~quartet_solver.errors.SolverError`."""

_UNKNOWN = -1
_LAID = LAID


class Knowledge:
    """What one player (``me``) can infer about every card's location.

    ``Knowledge(deck, players, me, hand)``; hand sizes follow the deal (equal
    hands, the remainder aside; pass ``rules``/``dealer`` for the dealer taking
    it, or ``hand_sizes`` and ``pile`` explicitly).  Feed the public events with
    :meth:`ask`, :meth:`lay`, :meth:`reveal`, :meth:`draw` (or :meth:`apply`),
    then query :meth:`probability`, :meth:`probabilities`, :meth:`count`,
    :meth:`certain`.  Locations are seats ``0 .. players - 1`` and :data:`PILE`.

    With ``rules`` given (as :meth:`from_game` does), the variant's own events
    are refused in other games: a reveal without memory cards, a draw without a
    draw pile.  Without them the variant is unknown and both are accepted.

    The events must follow the turn (:attr:`to_move`): the seat left of ``dealer``
    (default: the last seat) starts, a hit keeps the turn, a miss or a card turned
    up passes it to the left, players who cannot act are skipped.  An ask or a
    reveal out of turn raises :class:`~quartet_solver.errors.IllegalActionError`;
    so does an ask once a card of every open quartet certainly lies aside, which
    ends the game.  The bonus-turn rule's free misses count only with ``rules``
    given.
    """

    def __init__(
        self,
        deck: Deck,
        players: int,
        me: int,
        hand: str | Iterable[CardLike] | int,
        *,
        rules: Rules | None = None,
        dealer: int | None = None,
        hand_sizes: Iterable[int] | None = None,
        pile: int | None = None,
    ) -> None:
        if not isinstance(deck, Deck):
            raise InvalidStateError(f"deck must be a kwartet.Deck, got {deck!r}")
        players = check_players(players)
        seat = as_int(me)
        if seat is None or not 0 <= seat < players:
            raise InvalidStateError(f"me must be a seat in 0..{players - 1}, got {me!r}")
        me = seat
        # the variant's events (reveal, draw) are checked against rules given;
        # without them the variant is unknown and both are accepted
        self._variant = rules
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise InvalidStateError(f"rules must be a kwartet.Rules, got {rules!r}")
        d = players - 1 if dealer is None else as_int(dealer)
        if d is None or not 0 <= d < players:
            raise InvalidStateError(f"dealer must be a seat in 0..{players - 1}, got {dealer!r}")
        dealer = d
        if hand_sizes is None:
            sizes, pile_size = rules.deal_sizes(len(deck), players, dealer)
            if pile is not None and check_count(pile, "pile") != pile_size:
                raise InvalidStateError(
                    f"pile {pile!r} without hand_sizes: the deal of {len(deck)} cards to {players} players "
                    f"leaves {pile_size}"
                )
        else:
            if isinstance(hand_sizes, (str, bytes)) or not isinstance(hand_sizes, Iterable):
                raise InvalidStateError(f"hand_sizes must be a list of {players} ints, got {hand_sizes!r}")
            sizes = [check_count(s, "a hand size") for s in itertools.islice(hand_sizes, players + 1)]
            pile_size = len(deck) - sum(sizes) if pile is None else check_count(pile, "pile")
            if len(sizes) != players or min(sizes) < 0 or pile_size < 0 or sum(sizes) + pile_size != len(deck):
                raise InvalidStateError(
                    f"hand sizes {sizes} and pile {pile_size} do not add up to the {len(deck)} cards of the deck"
                )
        as_mask = as_int(hand)
        if as_mask is not None:
            hmask = as_mask
        elif isinstance(hand, bool):
            raise InvalidStateError(f"hand must be cards or a card mask, got {hand!r}")
        else:
            hmask = deck.mask(hand) if hand else 0
        if not 0 <= hmask <= deck.full_mask:
            raise InvalidStateError(f"hand mask {hand!r} outside the deck")
        if hmask.bit_count() != sizes[me]:
            raise InvalidStateError(
                f"player {me} must hold {sizes[me]} cards after the deal, got {hmask.bit_count()}: "
                f"{deck.format(hmask)!r}"
            )
        self.deck = deck
        self.players = players
        self.me = me
        self.dealer = dealer
        self._n = len(deck)
        self._nq = deck.n_quartets
        self._pile_loc = players
        self._sizes = list(sizes) + [pile_size]
        self._where = [_UNKNOWN] * self._n  # known location of each card, or _UNKNOWN/_LAID
        for c in range(self._n):
            if hmask >> c & 1:
                self._where[c] = me
        self._known = [0] * (players + 1)  # mask of known cards per location
        self._known[me] = hmask
        self._neg = [0] * self._n  # per unknown card: bitmask of impossible locations
        for c in range(self._n):
            self._neg[c] = 1 << me  # my hand is known exactly
        if pile_size == 0:
            for c in range(self._n):
                self._neg[c] |= 1 << self._pile_loc
        self._pos: list[list[int]] = []  # [player, mask]: player holds >= 1 card of mask
        self._noc: list[list[int]] = []  # [player, mask]: player does not hold all of mask
        self._pending = [(p, q) for p in range(players) if p != me for q in range(self._nq)]
        self._laid_mask = 0
        self._replay = False  # from an opponent's unseen draw on: the posterior over origins
        self._origins: KernelProblem | None = None  # its kernel input, from the last _solve
        self._version = 0
        self._cache: tuple[int, Any] | None = None
        self.events: list[Event] = []
        self._dealt = (hmask, tuple(sizes), pile_size)  # what the deal showed this player
        self._turns = Turns(players, dealer, self._variant)

    def at_deal(self) -> Knowledge:
        """A fresh knowledge of the same player right after the same deal (no events).

        >>> from quartet_solver.kwartet import Deck
        >>> k = Knowledge(Deck.standard("AKQJ"), players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
        >>> k.ask(asker=1, target=2, card="Ks", success=True)
        >>> k.count(), k.at_deal().count()
        (1050, 2688)
        """
        hand, sizes, pile = self._dealt
        return Knowledge(self.deck, self.players, self.me, hand, rules=self._variant, dealer=self.dealer,
                         hand_sizes=sizes, pile=pile)

    # -- construction from a game / log ---------------------------------------------

    @classmethod
    def from_game(cls, game: Game, me: int) -> Knowledge:
        """The knowledge of seat ``me`` after everything that happened in ``game``."""
        if not isinstance(game, Game):
            raise InvalidStateError(f"game must be a kwartet.Game, got {game!r}")
        seat = as_int(me)
        if seat is None or not 0 <= seat < game.players:
            raise InvalidStateError(f"me must be a seat in 0..{game.players - 1}, got {me!r}")
        me = seat
        k = cls(game.deck, game.players, me, game.initial_hands[me], rules=game.rules, dealer=game.dealer)
        for ev in game.private_log(me)[1:]:
            k.apply(ev)
        return k

    @classmethod
    def from_log(cls, deck: Deck, log: Iterable[Event], me: int, hand: str | Iterable[CardLike] | int,
                 *, rules: Rules | None = None) -> Knowledge:
        """Replay a public log (starting with its :class:`~.game.Dealt` event) for seat ``me``
        whose dealt hand was ``hand``; with ``rules``, reveals and draws are checked
        against the variant (see :class:`Knowledge`)."""
        if isinstance(log, (str, bytes)) or not isinstance(log, Iterable):
            raise InvalidStateError(f"a Kwartet log must be a list of events, got {log!r}")
        events = list(log)
        if not events or not isinstance(events[0], Dealt):
            raise InvalidStateError("a Kwartet log starts with the Dealt event")
        d = events[0]
        if isinstance(d.hand_sizes, (str, bytes)) or not isinstance(d.hand_sizes, Iterable):
            raise InvalidStateError(f"the Dealt event's hand_sizes must be a list of counts, got {d.hand_sizes!r}")
        k = cls(deck, len(d.hand_sizes), me, hand, rules=rules, dealer=d.dealer, hand_sizes=d.hand_sizes,
                pile=d.pile)
        for ev in events[1:]:
            k.apply(ev)
        return k

    def apply(self, event: Event) -> None:
        """Apply one event value from a game log."""
        if isinstance(event, Asked):
            self.ask(event.asker, event.target, event.card, event.hit)
        elif isinstance(event, Laid):
            self.lay(event.player, event.quartet)
        elif isinstance(event, Revealed):
            self.reveal(event.player, event.card)
        elif isinstance(event, Drew):
            self.draw(event.player, event.card)
        elif isinstance(event, Dealt):
            raise InvalidStateError("the Dealt event starts a log; build the Knowledge from it (from_log)")
        else:
            raise InvalidStateError(f"not a Kwartet event: {event!r}")

    # -- events --------------------------------------------------------------------------

    def _seat(self, p: object, what: str) -> int:
        seat = as_int(p)
        if seat is None or not 0 <= seat < self.players:
            raise InvalidStateError(f"{what} must be a seat in 0..{self.players - 1}, got {p!r}")
        return seat

    def _fail(self, message: str) -> NoReturn:
        raise InvalidStateError(f"{message} (inconsistent with what player {self.me} knows)")

    def _flush(self) -> None:
        for p, q in self._pending:
            if self._laid_mask >> (4 * q) & 0xF:
                continue
            qmask = 0xF << (4 * q)
            if any(self._known[loc] & qmask for loc in range(self.players + 1) if loc != p):
                continue  # a card of the quartet is known elsewhere
            s = qmask & ~self._known[p]
            if not s:
                self._fail(f"player {p} holds all of quartet {self.deck.quartets[q].name!r} without laying it")
            self._noc.append([p, s])
        self._pending = []

    def _resolve(self, c: int, loc: int) -> None:
        """Unknown card ``c`` turns out to have been at ``loc`` since the deal."""
        if self._neg[c] >> loc & 1:
            self._fail(f"card {self.deck.full_name(c)!r} cannot be at {self._loc_name(loc)}")
        bit = 1 << c
        keep = []
        for p, m in self._pos:
            if m & bit:
                if p == loc:
                    continue
                m &= ~bit
                if not m:
                    self._fail(f"player {p} held no card that could satisfy an earlier ask")
            keep.append([p, m])
        self._pos = keep
        keep = []
        for p, m in self._noc:
            if m & bit:
                if p != loc:
                    continue
                m &= ~bit
                if not m:
                    self._fail(f"player {p} held a complete quartet without laying it")
            keep.append([p, m])
        self._noc = keep
        self._where[c] = loc
        self._known[loc] |= bit

    def _move(self, c: int, src: int, dst: int) -> None:
        self._known[src] &= ~(1 << c)
        self._known[dst] |= 1 << c
        self._where[c] = dst
        self._sizes[src] -= 1
        self._sizes[dst] += 1

    def _loc_name(self, loc: int) -> str:
        return "the pile" if loc == self._pile_loc else f"player {loc}"

    def _touch(self) -> None:
        self._version += 1

    @contextmanager
    def _atomic(self) -> Iterator[None]:
        """Apply an event all or nothing: on an error (illegal, or inconsistent with what
        is known) every change is undone, so the knowledge stays that of the earlier events."""
        saved = (list(self._where), list(self._known), list(self._neg), list(self._pos), list(self._noc),
                 list(self._pending), self._laid_mask, list(self._sizes), len(self.events), self._version,
                 self._turns.copy(), self._replay)
        try:
            yield
            if self._replay:
                self._check_origins()
        except BaseException:
            (self._where, self._known, self._neg, self._pos, self._noc, self._pending,
             self._laid_mask, self._sizes, n_events, self._version, self._turns, self._replay) = saved
            del self.events[n_events:]
            raise

    def ask(self, asker: int, target: int, card: CardLike, success: bool) -> None:
        """``asker`` asked ``target`` for ``card``; ``success`` (a bool) whether it was handed over.

        An event that is illegal or inconsistent with what is known raises and changes nothing.
        """
        if not isinstance(success, (bool, np.bool_)):
            raise InvalidStateError(f"success must be a bool, got {success!r}")
        asker = self._seat(asker, "asker")
        target = self._seat(target, "target")
        c = self.deck.card(card)
        name = self.deck.full_name(c)
        if asker == target:
            raise IllegalActionError(f"player {asker} cannot ask themselves for {name!r}")
        if self._sizes[asker] == 0:
            raise IllegalActionError(f"player {asker} has no cards and cannot ask for {name!r}")
        if self._sizes[target] == 0:
            raise IllegalActionError(f"player {asker} asks player {target} for {name!r}, but player {target} is out")
        if self._where[c] == _LAID:
            raise IllegalActionError(f"card {name!r} is already laid")
        self._check_not_blocked(f"player {asker} asks for {name!r}")
        sizes = list(self._sizes)
        with self._atomic():
            self._flush()
            self.events.append(Asked(asker, target, c, bool(success)))
            self._touch()
            q = c // 4
            qmask = 0xF << (4 * q)
            # the asker holds >= 1 card of the quartet and not the card
            if self._where[c] == asker:
                raise IllegalActionError(f"player {asker} asks for {name!r} but holds it")
            if asker == self.me and not self._known[asker] & qmask:
                raise IllegalActionError(
                    f"player {asker} asks for {name!r} but holds no card of {self.deck.quartets[q].name!r}"
                )
            if self._replay:
                self._public_ask(asker, target, c, bool(success))
            else:
                self._infer_ask(asker, target, c, bool(success))
            # the turn last, so that an ask wrong in itself says what is wrong with it
            self._turns.action(asker, "hit" if success else "miss", sizes, self._all_laid())

    def _infer_ask(self, asker: int, target: int, c: int, success: bool) -> None:
        """The constraints of an ask on the cards' current places (no unseen draw yet)."""
        name = self.deck.full_name(c)
        q = c // 4
        qmask = 0xF << (4 * q)
        if self._where[c] == _UNKNOWN:
            self._neg[c] |= 1 << asker
        if not self._known[asker] & qmask:
            s = qmask & ~self._known_mask_all()
            if not s:
                self._fail(f"player {asker} asks for {name!r} but cannot hold a card of its quartet")
            self._pos.append([asker, s])
        w = self._where[c]
        if success:
            if w == _UNKNOWN:
                self._resolve(c, target)
            elif w != target:
                self._fail(f"player {target} handed over {name!r} but it is at {self._loc_name(w)}")
            self._move(c, target, asker)
            self._pending.append((asker, q))
        else:
            if w == target:
                self._fail(f"player {target} denied {name!r} but holds it")
            if w == _UNKNOWN:
                self._neg[c] |= 1 << target

    def _public_ask(self, asker: int, target: int, c: int, success: bool) -> None:
        """An ask after an unseen draw: only the public places change here (the
        posterior over origins reads the constraints from the events)."""
        name = self.deck.full_name(c)
        w = self._where[c]
        if success:
            if w != _UNKNOWN and w != target:
                self._fail(f"player {target} handed over {name!r} but it is at {self._loc_name(w)}")
            if w == _UNKNOWN:
                self._where[c] = target
                self._known[target] |= 1 << c
            self._move(c, target, asker)
        elif w == target:
            self._fail(f"player {target} denied {name!r} but holds it")

    def _all_laid(self) -> bool:
        return self._laid_mask == self.deck.full_mask

    def _blocked(self) -> bool:
        """Whether the side pile certainly blocks every open quartet (a card of each lies
        aside on every deal consistent with the events), which ends the game."""
        pile = self._sizes[self._pile_loc]
        n_open = self._nq - self._laid_mask.bit_count() // 4
        # each blocked quartet needs a card of its own aside; the middle and the draw pile block nothing
        if not 0 < n_open <= pile or self._turns.seen_reveal or self._turns.seen_draw or (
                self._variant is not None and self._variant.set_aside):
            return False
        open_q = [q for q in range(self._nq) if not self._laid_mask >> (4 * q) & 0xF]
        saved = list(self._neg)
        try:
            for q in open_q:
                cards = range(4 * q, 4 * q + 4)
                if any(self._where[c] == self._pile_loc for c in cards):
                    continue  # blocked on every deal
                for c in cards:
                    if self._where[c] == _UNKNOWN:
                        self._neg[c] |= 1 << self._pile_loc
                pr = self._problem()
                free = not pr.holders or _core.kw_count(len(pr.holders), pr.caps, self._nq, pr.ucount, pr.neg,
                                                     *pr.cons) != (0, 0)
                self._neg[:] = saved
                if free:
                    return False  # some deal leaves this quartet open to play
            return True
        finally:
            self._neg[:] = saved

    def _check_not_blocked(self, what: str) -> None:
        if self._blocked():
            raise IllegalActionError(f"{what} after the game is over: a card of every open quartet lies in the "
                                     f"side pile")

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is by the events so far (``None`` once the game is
        over by its public record).  Events out of turn raise, as in the game.

        >>> from quartet_solver.kwartet import Deck
        >>> k = Knowledge(Deck.standard("AKQJ"), players=3, me=0, hand="Ac Ad Qc Jc Js")
        >>> k.to_move                       # the dealer is the last seat
        0
        >>> k.ask(asker=0, target=1, card="Ah", success=False)
        >>> k.to_move                       # a miss passes the turn to the left
        1
        """
        return self._turns.to_move(self._sizes, self._all_laid())

    @property
    def is_over(self) -> bool:
        """Whether the game is over by what this player knows: every quartet laid,
        nobody left who can act, or a card of every open quartet certainly in the side pile."""
        return self.to_move is None or self._blocked()

    def _known_mask_all(self) -> int:
        m = self._laid_mask
        for x in self._known:
            m |= x
        return m

    def lay(self, player: int, quartet: QuartetLike) -> None:
        """``player`` laid ``quartet`` down (right after the deal or after completing it)."""
        p = self._seat(player, "player")
        q = self.deck.quartet(quartet)
        qname = self.deck.quartets[q].name
        if self._laid_mask >> (4 * q) & 0xF:
            raise IllegalActionError(f"quartet {qname!r} is already laid")
        with self._atomic():
            self._turns.laid(p, self._sizes, self._all_laid())
            if (p, q) in self._pending:
                self._pending.remove((p, q))
            self.events.append(Laid(p, q))
            self._touch()
            for c in range(4 * q, 4 * q + 4):
                w = self._where[c]
                if w == _UNKNOWN and not self._replay:
                    self._resolve(c, p)
                elif w != p and w != _UNKNOWN:
                    self._fail(f"player {p} lays {qname!r} but {self.deck.full_name(c)!r} is at {self._loc_name(w)}")
            for c in range(4 * q, 4 * q + 4):
                self._where[c] = _LAID
            self._known[p] &= ~(0xF << (4 * q))
            self._sizes[p] -= 4
            self._laid_mask |= 0xF << (4 * q)
            if self._sizes[p] < 0:
                self._fail(f"player {p} lays {qname!r} with fewer than 4 cards")

    def reveal(self, player: int, card: CardLike) -> None:
        """Memory Kwartet: ``player`` turned up ``card`` from the middle (the pile) and took it."""
        p = self._seat(player, "player")
        c = self.deck.card(card)
        if self._turns.seen_draw:
            raise InvalidStateError(f"player {p} reveals a middle card, but cards were drawn from a draw pile: "
                                    f"a game has a draw pile or memory cards, not both")
        if self._variant is not None and not self._variant.memory:
            raise InvalidStateError(f"player {p} reveals a middle card, but the rules have no memory "
                                    f"cards ({self._variant!r})")
        self._take_from_pile(p, c, Revealed(p, c), "revealed", "middle")

    def draw(self, player: int, card: CardLike | None = None) -> None:
        """Draw-pile hybrid: ``player`` drew the top card of the pile; ``card`` is the
        card when this player saw it (their own draws must name it), ``None`` for a
        draw they did not see.

        >>> from quartet_solver.kwartet import Deck, Rules
        >>> k = Knowledge(Deck.standard("AKQJ"), players=3, me=0, hand="Ac Kd Qh Jc",
        ...               rules=Rules(draw_pile=4), dealer=2)
        >>> k.ask(asker=0, target=1, card="Ad", success=False)
        >>> k.draw(0, "Js")                                     # my own draw: seen
        >>> k.ask(asker=1, target=2, card="Kh", success=False)  # so the king lies in the pile
        >>> k.probability(PILE, "Kh")
        1.0
        >>> k.draw(1)                                           # player 1's draw: unseen
        >>> k.probability(1, "Kh")                              # one of the pile's three cards
        0.3333333333333333
        >>> k.hand_sizes, k.pile_size, k.count()
        ((5, 5, 4), 2, 4095)
        """
        p = self._seat(player, "player")
        if self._variant is not None and not self._variant.draw_pile:
            raise InvalidStateError(f"player {p} draws from the pile, but the rules have no draw pile "
                                    f"({self._variant!r})")
        if self._turns.seen_reveal:
            raise InvalidStateError(f"player {p} draws from the pile, but middle cards were turned up: "
                                    f"a game has a draw pile or memory cards, not both")
        if card is None:
            if p == self.me:
                raise InvalidStateError(f"player {p} is the observer: their own draw must name the card")
            with self._atomic():
                self._turns.drew(p, self._sizes, self._all_laid())
                self._flush()
                self.events.append(Drew(p))
                self._touch()
                if self._sizes[self._pile_loc] <= 0:
                    self._fail("a card drawn from an empty pile")
                self._sizes[self._pile_loc] -= 1
                self._sizes[p] += 1
                self._replay = True
            return
        c = self.deck.card(card)
        self._take_from_pile(p, c, Drew(p, c), "drawn", "pile")

    def _take_from_pile(self, p: int, c: int, event: Revealed | Drew, verb: str, place: str) -> None:
        """Player ``p`` took card ``c`` from the pile (``event`` is logged; ``verb``
        and ``place`` word the errors: "drawn", "pile")."""
        with self._atomic():
            if isinstance(event, Revealed):
                self._turns.action(p, "reveal", self._sizes, self._all_laid())
            else:
                self._turns.drew(p, self._sizes, self._all_laid())
            self._flush()
            self.events.append(event)
            self._touch()
            w = self._where[c]
            if w == _UNKNOWN and not self._replay:
                self._resolve(c, self._pile_loc)
            elif w != self._pile_loc and w != _UNKNOWN:
                self._fail(f"{self.deck.full_name(c)!r} {verb} from the {place} but it is at {self._loc_name(w)}")
            if self._sizes[self._pile_loc] <= 0:
                self._fail(f"a card {verb} from an empty {place}")
            self._move(c, self._pile_loc, p)
            self._pending.append((p, c // 4))

    # -- queries ---------------------------------------------------------------------------

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Current hand sizes by seat."""
        return tuple(self._sizes[: self.players])

    @property
    def hand(self) -> int:
        """The observer's own hand now (mask)."""
        return self._known[self.me]

    @property
    def pile_size(self) -> int:
        """Current size of the pile."""
        return self._sizes[self._pile_loc]

    @property
    def laid_mask(self) -> int:
        """Mask of the laid cards (their probability columns are zero)."""
        return self._laid_mask

    def _loc(self, location: int) -> int:
        if location == PILE:
            return self._pile_loc
        return self._seat(location, "location")

    def _problem(self) -> KernelProblem:
        """The kernel's input for the current events (see ``cext/kwartet.pxi``)."""
        nl = self.players + 1
        # constraints, with the pending no-complete checks materialised
        noc = [list(x) for x in self._noc]
        for p, q in self._pending:
            if self._laid_mask >> (4 * q) & 0xF:
                continue
            qmask = 0xF << (4 * q)
            if any(self._known[loc] & qmask for loc in range(nl) if loc != p):
                continue
            s = qmask & ~self._known[p]
            if not s:
                self._fail(f"player {p} holds a complete quartet without laying it")
            noc.append([p, s])
        locs = [loc for loc in range(nl) if loc != self.me]
        if self._sizes[self._pile_loc] == 0:
            locs.remove(self._pile_loc)
        caps_full = [self._sizes[loc] - self._known[loc].bit_count() for loc in range(nl)]
        if any(caps_full[loc] < 0 for loc in locs):
            self._fail("a location holds more known cards than its size")
        locs.sort(key=lambda loc: caps_full[loc])  # largest capacity last (the implicit dimension)
        lidx = {loc: i for i, loc in enumerate(locs)}
        caps = np.array([caps_full[loc] for loc in locs], dtype=np.int32)
        known_all = self._known_mask_all()
        unknown = self.deck.full_mask & ~known_all
        if unknown.bit_count() != int(caps.sum()):
            self._fail(f"{unknown.bit_count()} unknown cards for {int(caps.sum())} open places")
        nq = self._nq
        ucount = np.zeros(nq, dtype=np.int32)
        neg = np.zeros(nq * 4, dtype=np.uint32)
        slot_card = np.full((nq, 4), -1, dtype=np.int64)
        slot_of = {}
        for q in range(nq):
            k = 0
            for c in range(4 * q, 4 * q + 4):
                if unknown >> c & 1:
                    slot_card[q, k] = c
                    slot_of[c] = (q, k)
                    nb = self._neg[c]
                    bits = 0
                    for loc, i in lidx.items():
                        if nb >> loc & 1:
                            bits |= 1 << i
                    neg[q * 4 + k] = bits
                    k += 1
            ucount[q] = k
        cons = []
        for kind, lst in ((0, self._pos), (1, noc)):
            for p, m in lst:
                q = (m & -m).bit_length() - 1 >> 2
                smask = 0
                for c in range(4 * q, 4 * q + 4):
                    if m >> c & 1:
                        smask |= 1 << slot_of[c][1]
                if p not in lidx:
                    if kind == 0:
                        self._fail(f"player {p} must hold a card but has no unknown places")
                    continue  # "not all at p" holds trivially
                cons.append((q, 1 << lidx[p], smask, kind))
        cons.sort()
        states = 1
        for x in caps[:-1]:
            states *= int(x) + 1
        if states * (nq + 1) > 20_000_000:
            raise SolverError(f"posterior too large: {states} states x {nq + 1} quartets")
        return KernelProblem(
            locs, caps, ucount, neg, slot_card,
            np.array([x[0] for x in cons], dtype=np.int32),
            np.array([x[1] for x in cons], dtype=np.uint32),
            np.array([x[2] for x in cons], dtype=np.uint8),
            np.array([x[3] for x in cons], dtype=np.uint8),
        )

    def _origin_problem(self, open_end: bool = False) -> KernelProblem:
        """The kernel's input over the cards' origins (after an unseen draw); with
        ``open_end`` the lays that the last event may lead to are still to come."""
        hand, sizes, pile = self._dealt
        try:
            return origin_problem(self._n, self.players, self.me, hand, sizes, pile, self.events,
                                  name=self.deck.full_name, open_end=open_end)
        except Inconsistent as e:
            self._fail(str(e))
        except OverflowError as e:
            raise SolverError(f"exact inference out of reach: {e}") from None

    def _check_origins(self) -> None:
        """Refuse an event after which no deal is consistent (the posterior over origins);
        past what exact inference tracks the event is taken as it comes (the queries
        then raise :class:`~quartet_solver.errors.SolverError`)."""
        try:
            pr = self._origin_problem(open_end=True)
            self._check_states(pr)
        except SolverError:
            return
        if pr.holders and _core.kw_count(len(pr.holders), pr.caps, self._nq, pr.ucount, pr.neg,
                                         *pr.cons) == (0, 0):
            self._fail("no deal is consistent with the events")

    def _check_states(self, pr: KernelProblem) -> None:
        """Refuse a posterior over origins beyond :data:`MAX_WORK` steps of the kernel
        (states x count vectors of the quartets x locations)."""
        states = 1
        for x in pr.caps[:-1]:
            states *= int(x) + 1
        n_loc = len(pr.holders)
        full = (1 << n_loc) - 1
        vectors = 0
        for q in range(self._nq):
            k = int(pr.ucount[q])
            ways = 1
            for j in range(k):
                ways *= (full & ~int(pr.neg[q * 4 + j])).bit_count()
            vectors += min(ways, math.comb(k + n_loc - 1, n_loc - 1))
        if states * (self._nq + 1) > 20_000_000 or states * vectors * n_loc > MAX_WORK:
            draws = sum(1 for e in self.events if isinstance(e, Drew) and e.card is None)
            raise SolverError(
                f"exact inference is out of reach after {draws} unseen draws: {states} states x {vectors} "
                f"count vectors x {n_loc} locations is past MAX_WORK ({MAX_WORK:,} steps)"
            )

    def _solve_origins(self) -> tuple[int, np.ndarray, np.ndarray]:
        """(total, num_hi, num_lo) over the current places, summed from the origins
        (the problem is kept for :meth:`sample`)."""
        pr = self._origin_problem()
        self._check_states(pr)
        self._origins = pr
        nl = self.players + 1
        hi = np.zeros((nl, self._n), dtype=np.uint64)
        lo = np.zeros((nl, self._n), dtype=np.uint64)
        if not pr.holders:
            return 1, hi, lo
        th, tl, nh, nlo = _core.kw_posterior(len(pr.holders), pr.caps, self._nq, pr.ucount, pr.neg, *pr.cons)
        total = (th << 64) | tl
        if total == 0:
            self._fail("no deal is consistent with the events")
        num = [[0] * self._n for _ in range(nl)]
        for q in range(self._nq):
            for j in range(int(pr.ucount[q])):
                c = int(pr.slot_card[q, j])
                if self._where[c] != _UNKNOWN:
                    continue  # traced: where it is now is known
                for i, holder in enumerate(pr.holders):
                    num[holder][c] += (int(nh[i, q, j]) << 64) | int(nlo[i, q, j])
        mask64 = (1 << 64) - 1
        for loc in range(nl):
            for c in range(self._n):
                if num[loc][c]:
                    hi[loc, c] = num[loc][c] >> 64
                    lo[loc, c] = num[loc][c] & mask64
        return total, hi, lo

    def _solve(self) -> tuple[int, np.ndarray, np.ndarray]:
        """(total, num_hi, num_lo) with num indexed [location, card]; cached."""
        if self._cache is not None and self._cache[0] == self._version:
            return self._cache[1]
        if self._replay:
            result = self._solve_origins()
            self._cache = (self._version, result)
            return result
        pr = self._problem()
        nl = self.players + 1
        nq = self._nq
        if not pr.holders:
            th, tl = 0, 1  # nothing unknown: exactly one deal
            nh = np.zeros((0, nq, 4), dtype=np.uint64)
            nlo = nh
        else:
            th, tl, nh, nlo = _core.kw_posterior(len(pr.holders), pr.caps, nq, pr.ucount, pr.neg, *pr.cons)
        total = (th << 64) | tl
        if total == 0:
            self._fail("no deal is consistent with the events")
        # scatter to [location, card]
        hi = np.zeros((nl, self._n), dtype=np.uint64)
        lo = np.zeros((nl, self._n), dtype=np.uint64)
        mask_valid = pr.slot_card >= 0
        cards_flat = pr.slot_card[mask_valid]
        for i, loc in enumerate(pr.holders):
            hi[loc, cards_flat] = nh[i][mask_valid]
            lo[loc, cards_flat] = nlo[i][mask_valid]
        result = (total, hi, lo)
        self._cache = (self._version, result)
        return result

    @keyword_options
    def sample(self, n: int, *, seed: int | str | None = None) -> np.ndarray:
        """``n`` deals drawn independently and exactly uniformly from the posterior, as
        an ``int8`` array of shape ``(n, len(deck))``: entry ``[i, c]`` is where card
        ``c`` is *now* in deal ``i``: a seat ``0 .. players - 1``, :data:`PILE` (-1) for
        the side pile (the memory middle, the draw pile), :data:`LAID` (-2) for a card
        laid down.

        Every consistent deal has probability ``1 / count()`` (the compiled core draws
        each quartet's placement given the later ones from the exact counts, with
        exact 128-bit integer arithmetic and rejection, so no rounding enters).  The
        same ``seed`` (``None``, an int >= 0 or a string) gives the same deals.  ``n``
        is an int in ``0 .. 1,000,000``; bad ``n`` or ``seed`` raise
        :class:`~quartet_solver.errors.InvalidStateError`.

        >>> from quartet_solver.kwartet import Deck
        >>> k = Knowledge(Deck.standard("AKQJ"), players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
        >>> k.ask(asker=1, target=2, card="Ks", success=True)
        >>> deals = k.sample(1000, seed=1)
        >>> deals.shape, deals.dtype.name
        ((1000, 16), 'int8')
        >>> bool((deals[:, k.deck.card("Ks")] == 1).all())   # player 1 took it
        True
        >>> [round(float((deals[:, k.deck.card("Ah")] == loc).mean()), 1) for loc in (1, 2, PILE)]
        [0.5, 0.4, 0.1]
        >>> k.sample(0).shape
        (0, 16)
        """
        count = check_int(n, "n", low=0, high=MAX_SAMPLES)
        seed = check_seed(seed)
        base = np.array([_LAID if w == _LAID else (PILE if w == self._pile_loc else w) for w in self._where],
                        dtype=np.int8)
        stream = _random.Random(seed).getrandbits(64)
        out = np.repeat(base[None, :], count, axis=0)
        if self._replay:
            self._solve()  # checks the events and the size of the posterior, and keeps the problem
            op = self._origins
            assert op is not None
            if not op.holders or count == 0:
                return out
            slots = _core.kw_sample(len(op.holders), op.caps, self._nq, op.ucount, op.neg, *op.cons, count, stream)
            holders = np.array([PILE if h == self._pile_loc else h for h in op.holders], dtype=np.int8)
            for q in range(self._nq):
                for j in range(int(op.ucount[q])):
                    c = int(op.slot_card[q, j])
                    if self._where[c] == _UNKNOWN:
                        out[:, c] = holders[slots[:, q, j]]
            return out
        pr = self._problem()
        if not pr.holders or count == 0:
            if not pr.holders:
                self._solve()  # checks that the one deal left is consistent
            return out
        try:
            slots = _core.kw_sample(len(pr.holders), pr.caps, self._nq, pr.ucount, pr.neg, *pr.cons, count, stream)
        except ValueError:
            self._fail("no deal is consistent with the events")
        locmap = np.array([PILE if loc == self._pile_loc else loc for loc in pr.holders], dtype=np.int8)
        qs, ks = np.nonzero(pr.slot_card >= 0)
        out[:, pr.slot_card[qs, ks]] = locmap[slots[:, qs, ks]]
        return out

    def count(self) -> int:
        """The number of deals consistent with the observer's hand and the events (exact).

        After an opponent's unseen draw a deal also says which card each unseen draw
        took (the rest of the draw pile in no order)."""
        return self._solve()[0]

    @keyword_options
    def probabilities(self, *, exact: bool = False) -> np.ndarray:
        """Shape ``(players + 1, len(deck))``: row ``p`` is seat ``p``, the last row
        (index :data:`PILE`) the pile; column ``c`` is card ``c``.  Each column of a card
        not yet laid sums to 1; laid cards have zero columns.  ``exact=True`` gives an
        object array of :class:`~fractions.Fraction`.
        """
        total, hi, lo = self._solve()
        nl = self.players + 1
        if exact:
            out = np.empty((nl, self._n), dtype=object)
            for loc in range(nl):
                for c in range(self._n):
                    out[loc, c] = Fraction((int(hi[loc, c]) << 64) | int(lo[loc, c]), total)
            for c in range(self._n):
                w = self._where[c]
                if w >= 0:
                    out[w, c] = Fraction(1)
            return out
        tf = float(total)
        if total < 1 << 53:
            probs = lo.astype(np.float64) / tf
        else:
            probs = (hi.astype(np.float64) * 18446744073709551616.0 + lo.astype(np.float64)) / tf
        for c in range(self._n):
            w = self._where[c]
            if w >= 0:
                probs[w, c] = 1.0
        return probs

    @keyword_options
    def probability(self, location: int, card: CardLike, *, exact: bool = False) -> float | Fraction:
        """Posterior probability that ``card`` is now at ``location`` (a seat or :data:`PILE`)."""
        loc = self._loc(location)
        c = self.deck.card(card)
        w = self._where[c]
        if w != _UNKNOWN:
            v = 1 if w == loc else 0
            return Fraction(v) if exact else float(v)
        total, hi, lo = self._solve()
        num = (int(hi[loc, c]) << 64) | int(lo[loc, c])
        return Fraction(num, total) if exact else num / total

    def certain(self) -> dict[int, int]:
        """Cards whose location is certain, as ``{location: mask}`` (seats and
        :data:`PILE`; only locations with at least one card)."""
        total, hi, lo = self._solve()
        out: dict[int, int] = {}
        for loc in range(self.players + 1):
            m = self._known[loc]
            for c in range(self._n):
                if self._where[c] == _UNKNOWN and (int(hi[loc, c]) << 64 | int(lo[loc, c])) == total:
                    m |= 1 << c
            if m:
                out[PILE if loc == self._pile_loc else loc] = m
        return out

    def known(self, location: int) -> int:
        """Cards publicly traced to ``location`` (plus the observer's own hand), a mask."""
        return self._known[self._loc(location)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary: deals, hand sizes, certain facts, probabilities by name."""
        probs = self.probabilities()
        names = [str(p) for p in range(self.players)] + ["pile"]
        return {
            "me": self.me,
            "deals": str(self.count()),
            "hand_sizes": list(self.hand_sizes),
            "pile": self.pile_size,
            "certain": {("pile" if loc == PILE else str(loc)): self.deck.names(m) for loc, m in self.certain().items()},
            "probabilities": {
                self.deck.full_name(c): {names[i]: float(probs[i, c]) for i in range(self.players + 1) if probs[i, c] > 0}
                for c in range(self._n)
                if not self._laid_mask >> c & 1
            },
        }

    def pretty(self) -> str:
        """A text table: one line per card not laid, probability per location."""
        probs = self.probabilities()
        head = ["card".ljust(28)] + [f"P{p}".rjust(6) for p in range(self.players)] + ["pile".rjust(6)]
        lines = [" ".join(head)]
        for c in range(self._n):
            if self._laid_mask >> c & 1:
                continue
            cells = [self.deck.full_name(c)[:28].ljust(28)]
            for loc in range(self.players + 1):
                v = probs[loc, c]
                cells.append(("1" if v == 1 else "-" if v == 0 else f"{v:.3f}").rjust(6))
            lines.append(" ".join(cells))
        lines.append(f"consistent deals: {self.count()}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<kwartet.Knowledge me={self.me} players={self.players} events={len(self.events)}>"
