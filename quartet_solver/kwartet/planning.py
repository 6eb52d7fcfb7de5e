"""A Kwartet player that looks ahead: determinized rollouts over deals sampled from
the exact posterior.

For each decision :class:`PlanningBot` draws deals from its
:class:`~.knowledge.Knowledge` (:meth:`~.knowledge.Knowledge.sample`, exactly
uniform, then reweighted for how players choose their asks, see below), shortlists
its candidate asks, and plays every candidate on every deal to the end of the game
in the compiled core (``cext/kwartet_rollout.pxi``).  It picks the candidate with the
best mean outcome: its share of the win, plus a small weight on its quartets.  With
``depth`` >= 2 the bot's own next asks after a hit are planned the same way, once per
information set (see :class:`PlanningBot`), before the rollout policy takes over.

What an ask tells the others is modelled, not assumed away: in the rollouts every
seat sees only its own hand and the public record (who received which card, who
denied it, who asked for which quartet), as :class:`~.bots.MemoryBot` does, and
asks with it.  So a card the planner takes is a card the others know it holds and
will ask it for, and a quartet it asks in is one they guess it collects.  This is
the cheaper approximation of the opponents' knowledge of the planner's hand (their
exact posterior, one :class:`~.knowledge.Knowledge` per opponent and rollout step,
would cost a thousand times more); it is exact for MemoryBot opponents.

The opponent model (option ``opponents``): an opponent is modelled as a MemoryBot
(it plays MemoryBot's policy in the rollouts), with the shared policy on the
public record, which ranks a card at a seat by the seat's share of the places the
card may be in, or as a random asker (NoviceBot's policy: any legal ask alike).
By default (``"auto"``) each opponent's model is chosen again at every decision by
the evidence of its asks: the mean, over the uniform posterior draws, of their
likelihood under each policy; the most likely model is used, the random asker
only with a lead of :attr:`PlanningBot.novice_prior`.  Early in a game, when the
evidence cannot tell the models apart, every opponent is a MemoryBot.

The deals: the posterior treats "``p`` asked for a card of ``q``" as only "``p``
holds at least one card of ``q``", but players choose their asks by their hands.
So the bot draws uniform deals and resamples ``samples`` of them by weight: with
``"auto"`` and ``"memory"``, the likelihood of every opponent's asks under
MemoryBot's policy on the deal (``1 / ties`` for an ask among the ``ties`` asks
MemoryBot rates best, :attr:`PlanningBot.model_eps` for any other;
``_core.kw_ask_likelihood`` replays the public record on the deal), also for an
opponent that ``"auto"`` plays with the shared policy in the rollouts: MemoryBot's
habit of asking in the quartet it holds most of is what places a player's cards,
and it places InferenceBot's cards better than the collector odds do.  An opponent
modelled as a random asker weighs a deal by NoviceBot's likelihood instead (``1 /``
its legal asks then, nearly the same on every deal: its asks tell little).  With
``"public"``, :attr:`PlanningBot.rollout_odds` ** ``k`` per opponent, ``k`` the number
of cards it holds, in the deal, of the quartets it has asked for and that are not
traced (the same odds factor per card that :class:`~.bots.InferenceBot` applies).

>>> from quartet_solver.kwartet import Deck, Game, MemoryBot, play
>>> g = Game(Deck.themed(), players=4, seed=5)
>>> bots = [PlanningBot(seed=1, samples=8), MemoryBot(seed=2), MemoryBot(seed=3), MemoryBot(seed=4)]
>>> play(g, bots).is_over
True
>>> bots[0].decisions > 0
True
"""

from __future__ import annotations

import random as _random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from ..checks import as_int, check_choice, check_int, check_seconds
from ..deprecation import keyword_options
from ..errors import ArgumentError, InvalidStateError
from .bots import REVEAL_BELOW, Action, InferenceBot, View
from .decks import Deck
from .game import Asked, Dealt, Event, Laid, Revealed, askable_mask
from .knowledge import MAX_SAMPLES, PILE, Knowledge
from .rules import Rules, check_count

__all__ = ["PlanningBot", "Decision", "OPPONENT_MODELS", "REVEAL"]

REVEAL = (-1, -1)
"""The candidate ``(target, card)`` of a :class:`Decision` that turns up a middle card
instead of asking (memory Kwartet)."""


OPPONENT_MODELS = ("auto", "memory", "public", "novice")
"""How the planner models its opponents (the ``opponents`` option of
:class:`PlanningBot`): ``"memory"`` as :class:`~.bots.MemoryBot`, ``"public"`` as the
shared rollout policy on the public record, ``"novice"`` as :class:`~.bots.NoviceBot`
(random asks), ``"auto"`` each opponent, at every decision, by the model under which
its asks so far are the most likely."""

_MODEL_CODE = {"public": 0, "memory": 1, "novice": 2}
"""The policy codes of the rollout kernel (``kw_rollouts``' and ``kw_ask_likelihood``'s ``model``)."""

_MODEL_NAME = {code: name for name, code in _MODEL_CODE.items()}


@dataclass(frozen=True)
class Decision:
    """One decision of a :class:`PlanningBot`: the candidate asks ``(target, card)``
    (in memory Kwartet :data:`REVEAL`, ``(-1, -1)``, for turning up a middle card),
    their prior hit chances (the :class:`~.bots.InferenceBot` estimate; 1 for a card
    turned up, which the player surely gets), their mean
    rollout values, the rollouts run from the position (deals x candidates; the
    follow-up rollouts of ``depth`` >= 2 count in :attr:`PlanningBot.rollouts` only),
    the seconds taken, the chosen index, and the
    standard error of each mean value over the deals it was rolled out on.  The
    candidates are rolled out on the same deals with the same random streams, so the
    choice, which compares them deal by deal (:meth:`PlanningBot._select`), tells
    them apart more finely than these errors alone suggest."""

    candidates: tuple[tuple[int, int], ...]
    prior: tuple[float, ...]
    values: tuple[float, ...]
    rollouts: int
    seconds: float
    chosen: int
    errors: tuple[float, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "candidates": [list(c) for c in self.candidates],
            "prior": list(self.prior),
            "values": list(self.values),
            "errors": list(self.errors),
            "rollouts": self.rollouts,
            "seconds": self.seconds,
            "chosen": self.chosen,
        }


def _logsumexp(x: np.ndarray) -> np.ndarray:
    """log(sum(exp(x))) down the first axis, per column."""
    top = x.max(axis=0)
    return top + np.log(np.exp(x - top).sum(axis=0))


def _pick_model(evidence: np.ndarray, novice_prior: float) -> int:
    """The policy code of the most likely model by its log ``evidence`` (MemoryBot's,
    the shared, NoviceBot's): MemoryBot's unless another is ahead, NoviceBot's only
    when ahead of both by more than ``novice_prior``."""
    mem, pub, nov = (float(x) for x in evidence)
    if nov > max(mem, pub) + novice_prior:
        return _MODEL_CODE["novice"]
    return _MODEL_CODE["memory"] if mem >= pub else _MODEL_CODE["public"]


def _masks(locs: np.ndarray, players: int) -> np.ndarray:
    """Card locations ``[deal, card]`` (a seat or :data:`~.knowledge.PILE`) as masks
    ``[deal, seat]``, the pile last; laid cards are in no mask.

    >>> _masks(np.array([[0, 1, PILE, 0]], dtype=np.int8), 2).tolist()
    [[9, 2, 4]]
    """
    where = np.arange(players + 1, dtype=np.int16)
    where[players] = PILE
    onehot = locs[:, None, :] == where[None, :, None]  # [deal, place, card]
    packed = np.packbits(onehot, axis=2, bitorder="little")
    out = np.zeros(onehot.shape[:2] + (8,), dtype=np.uint8)
    out[:, :, : packed.shape[2]] = packed
    return out.view("<u8")[:, :, 0].astype(np.uint64)


def likelihood_event(e: Event) -> tuple[int, int, int, int] | None:
    """An event as a row of ``_core.kw_ask_likelihood``'s ``events``: ``(0, asker,
    target, 2 * card + hit)`` for an ask, ``(1, player, quartet, 0)`` for a lay,
    ``(2, player, card, 0)`` for a middle card turned up (memory Kwartet), ``None``
    for any other event.

    >>> likelihood_event(Asked(asker=1, target=2, card=5, hit=True)), likelihood_event(Laid(player=0, quartet=3))
    ((0, 1, 2, 11), (1, 0, 3, 0))
    >>> likelihood_event(Revealed(player=2, card=7))
    (2, 2, 7, 0)
    """
    if isinstance(e, Asked):
        return (0, e.asker, e.target, 2 * e.card + int(e.hit))
    if isinstance(e, Laid):
        return (1, e.player, e.quartet, 0)
    if isinstance(e, Revealed):
        return (2, e.player, e.card, 0)
    return None


@dataclass(frozen=True)
class _Record:
    """The public record as the rollouts keep it (the arrays of ``kw_rollouts``):
    each card's traced holder, the seats known not to hold it, the quartets each
    seat has asked for, the quartets laid and each seat's last lay, the lays so
    far and the free misses of the seat to move."""

    holder: np.ndarray
    notat: np.ndarray
    hasq: np.ndarray
    quartets: np.ndarray
    last: np.ndarray
    lay_count: int
    free: int


def _after_hit(deals: np.ndarray, me: int, t: int, c: int, record: _Record,
               bonus: bool) -> tuple[np.ndarray, _Record]:
    """The rollout inputs after seat ``me`` asked seat ``t`` for card ``c`` and got
    it: the deals (rows as for ``kw_rollouts``, ``t`` holding ``c`` in each) with
    the card moved and a quartet it completes laid, and the public record after
    the hit, as the rollouts keep it.

    >>> rec = _Record(np.full(4, -1, np.int8), np.array([0, 0, 6, 0], np.uint8),
    ...               np.zeros(2, np.uint32), np.zeros(2, np.int32), np.full(2, -1, np.int32), 0, 0)
    >>> d, r = _after_hit(np.array([[1, 6, 0]], dtype=np.uint64), 0, 1, 2, rec, False)
    >>> d.tolist(), r.holder.tolist(), r.notat.tolist(), r.hasq.tolist()
    ([[5, 2, 0]], [-1, -1, 0, -1], [0, 0, 0, 0], [1, 0])
    >>> d, r = _after_hit(np.array([[11, 20, 0]], dtype=np.uint64), 0, 1, 2, rec, True)
    >>> d.tolist(), r.holder.tolist(), r.quartets.tolist(), r.last.tolist(), r.lay_count, r.free
    ([[0, 16, 0]], [-2, -2, -2, -2], [1, 0], [0, -1], 1, 1)
    """
    q = c // 4
    bit = np.uint64(1 << c)
    d2 = deals.copy()
    d2[:, t] &= ~bit
    d2[:, me] |= bit
    holder, notat, hasq = record.holder.copy(), record.notat.copy(), record.hasq.copy()
    holder[c] = me
    notat[c] = 0
    hasq[me] |= 1 << q
    quartets, last, lay_count, free = record.quartets, record.last, record.lay_count, record.free
    full = np.uint64(0xF << (4 * q))
    if len(d2) and int(d2[0, me] & full) == int(full):  # the same own hand on every deal
        d2[:, me] &= ~full
        holder[4 * q:4 * q + 4] = -2
        hasq &= np.uint32(~(1 << q) & 0xFFFFFFFF)
        quartets, last = quartets.copy(), last.copy()
        quartets[me] += 1
        last[me] = lay_count
        lay_count += 1
        free += int(bonus)
    return d2, _Record(holder, notat, hasq, quartets, last, lay_count, free)


class _PositionView(View):
    """A seat's view of a real game, built from that player's :class:`~.knowledge.Knowledge`
    (the other hands unknown), with the player to move: what :meth:`PlanningBot.advise` plays from."""

    __slots__ = ("_knowledge", "_rules", "_events")

    def __init__(self, knowledge: Knowledge) -> None:
        if not isinstance(knowledge, Knowledge):
            raise InvalidStateError(f"knowledge must be a kwartet.Knowledge, got {knowledge!r}")
        k = knowledge
        rules = k._variant if k._variant is not None else Rules()
        me = k.me
        hand = k.hand
        for q in range(k.deck.n_quartets):
            if hand >> (4 * q) & 0xF == 0xF:
                raise InvalidStateError(
                    f"player {me} holds all of quartet {k.deck.quartets[q].name!r}: lay it down first (Knowledge.lay)")
        if k.laid_mask == k.deck.full_mask:
            raise InvalidStateError("the game is over: every quartet is laid")
        if k.is_over:
            raise InvalidStateError("the game is over: nobody can ask, or a card of every open quartet "
                                    "lies in the side pile")
        middle = bool(rules.memory) and k.pile_size > 0
        if not hand and not middle:
            raise InvalidStateError(f"player {me} has no cards, so has no ask")
        if not middle and not any(n for p, n in enumerate(k.hand_sizes) if p != me):
            raise InvalidStateError(f"no opponent of player {me} holds cards, so player {me} has no ask")
        if k.to_move != me:
            raise InvalidStateError(f"it is player {k.to_move}'s turn, not player {me}'s: the planner advises "
                                    f"the player to move")
        self._knowledge = k
        self._rules = rules
        # the log as a game keeps it: the deal first
        self._events: list[Event] = [Dealt(k.dealer, k._dealt[1], k._dealt[2]), *k.events]
        self.seat = me

    @property
    def deck(self) -> Deck:
        return self._knowledge.deck

    @property
    def players(self) -> int:
        return self._knowledge.players

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def hand(self) -> int:
        return self._knowledge.hand

    @property
    def initial_hand(self) -> int:
        return self._knowledge._dealt[0]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._knowledge.hand_sizes

    @property
    def dealer(self) -> int:
        return self._knowledge.dealer

    def targets(self) -> list[int]:
        return [t for t, n in enumerate(self.hand_sizes) if t != self.seat and n]

    def askable(self) -> int:
        return askable_mask(self.hand, self.deck.n_quartets)

    def legal_asks(self) -> list[tuple[int, int]]:
        mask = self.askable()
        cards = [c for c in range(len(self.deck)) if mask >> c & 1]
        return [(t, c) for t in self.targets() for c in cards]

    def can_reveal(self) -> bool:
        return bool(self._rules.memory) and self._knowledge.pile_size > 0

    @property
    def middle(self) -> int:
        return self._knowledge.pile_size

    def events_since(self, start: int) -> list[Event]:
        start = check_count(start, "start")
        return list(self._events[start:])

    @property
    def n_events(self) -> int:
        return len(self._events)

    def knowledge_at_deal(self) -> Knowledge:
        return self._knowledge.at_deal()


class PlanningBot(InferenceBot):
    """Plans each ask by determinized rollouts over deals sampled from the posterior
    (see the module docstring).

    Keyword-only options:

    ``samples``
        deals per round (default 1000); every candidate is rolled out on each.
    ``candidates``
        the most asks compared (default 5): the best by the inference estimate, at
        most two targets per card, plus an ask that cannot hit in a quartet the bot
        has already asked in (a pass that tells nothing new) when there is one and
        there are at least two candidates; with one, the bot asks as the inference
        estimate ranks.
    ``depth``
        the bot's own asks planned per decision (default 1): with 2 or more, on the
        deals where a candidate hits, the bot's next ask is chosen among the other
        candidates still legal (at most ``followups``, default 3) by rolling them out
        from those deals with the hit applied, and so on ``depth - 1`` asks deep; the
        next ask is one choice for all those deals (one information set), not one
        per deal.  A hit keeps the turn, so this replaces the shared rollout policy
        where the bot itself asks next.
    ``followups``
        the most next asks compared after a hit, with ``depth`` >= 2 (default 3).
    ``diverse``
        extra candidates beyond ``candidates`` (default 3, an int >= 0; 0 compares
        only the usual candidates): the best-estimated ask of each quartet not yet
        among them, at most this many (with ``candidates`` >= 2).  A wider search is
        worth most where the rollouts play the opponents as they play
        (:class:`~.bots.MemoryBot` opponents); how each setting plays against each
        kind of opponent is in ``docs/kwartet_planning.md``.
    ``time_budget``
        seconds per decision, or ``None`` (default): one round.  With a budget the
        bot runs rounds of ``samples`` fresh deals until the budget is spent (at
        least one), so how many depends on the machine and the choices are no longer
        reproducible from the seed alone; without one, the same seed and game give
        the same play.
    ``quartet_weight``
        weight of the bot's own quartets (a fraction of the deck's quartets) next to
        its win share in a rollout's value (default 0.25; it breaks the ties of
        positions that win or lose either way).
    ``opponents``
        how the opponents are modelled, one of :data:`OPPONENT_MODELS`: ``"auto"``
        (default) models each opponent, at every decision, as a
        :class:`~.bots.MemoryBot`, with the shared public-record policy or as a
        random asker (:class:`~.bots.NoviceBot`), whichever makes its asks so far the
        most likely (the mean likelihood over the uniform posterior draws; a
        MemoryBot while the first two are level, a random asker only when that model
        leads by more than :attr:`novice_prior` in log evidence);
        ``"memory"``, ``"public"`` and ``"novice"`` fix the model for every opponent.
        A MemoryBot-modelled opponent plays MemoryBot's policy in the rollouts, a
        random asker NoviceBot's.  With ``"auto"``, ``"memory"`` and ``"novice"`` the
        deals are weighted by the likelihood of every opponent's asks under its
        model (MemoryBot's policy for one played with the shared policy), with
        ``"public"`` by the collector odds (see the module's docstring).

    In memory Kwartet (:attr:`~.rules.Rules.memory`) turning up a middle card is a
    candidate (:data:`REVEAL`) of every decision where it is legal, the first where
    InferenceBot would turn one up (its best estimate below 0.3); in the rollouts a
    seat turns one up when its policy has no ask or rates its best below that (the
    rule of MemoryBot and InferenceBot), and the deal weights read the opponents'
    choices to turn one up.  A draw pile (whose draws the others do not see) and an
    unavailable posterior fall back to :class:`~.bots.InferenceBot`'s choice.
    :attr:`decisions` counts the planned decisions, :attr:`last_decision` holds the
    last (a :class:`Decision`), :attr:`rollouts` the rollouts run in this game.
    """

    name = "planning"

    rollout_odds = 12.0
    """The collector odds factor of the rollout policy and of the deal weights with ``"public"``."""

    oversample = 4
    """Uniform deals drawn per deal kept, in one batch (see :meth:`_deals`)."""

    max_oversample = 16
    """The most uniform deals drawn per deal kept, in all batches."""

    model_eps = 0.01
    """The likelihood of an ask a MemoryBot would not make, in the deal weights (``"auto"``, ``"memory"``)."""

    confidence = 0.5
    """Standard errors by which a candidate must beat the inference choice (see :meth:`_select`)."""

    novice_prior = 1.0
    """With ``"auto"``: the log evidence by which the random-asker model must lead both others
    to be chosen (a prior of e to 1 against it: a player who asks against its hand now and
    then is still a player who reads the table)."""

    @keyword_options
    def __init__(self, *, seed: int | str | None = None, samples: int = 1000, candidates: int = 5,
                 time_budget: float | None = None, quartet_weight: float = 0.25,
                 opponents: str = "auto", depth: int = 1, followups: int = 3, diverse: int = 3) -> None:
        super().__init__(seed=seed)
        # a decision draws up to oversample x samples deals in one call of Knowledge.sample
        self.samples = check_int(samples, "samples", low=1, high=MAX_SAMPLES // self.oversample)
        self.candidates = check_int(candidates, "candidates", low=1)
        self.time_budget = check_seconds(time_budget, "time_budget")
        if isinstance(quartet_weight, bool) or not isinstance(quartet_weight, (int, float, np.integer, np.floating)) or not (
                0 <= float(quartet_weight) < float("inf")):
            raise ArgumentError(f"quartet_weight must be a number >= 0, got {quartet_weight!r}")
        self.quartet_weight = float(quartet_weight)
        self.opponents = check_choice(opponents, "opponents", OPPONENT_MODELS)
        self.depth = check_int(depth, "depth", low=1)
        self.followups = check_int(followups, "followups", low=1)
        self.diverse = check_count(diverse, "diverse")
        self.decisions = 0
        self.rollouts = 0
        self.last_decision: Decision | None = None

    def __repr__(self) -> str:
        budget = "" if self.time_budget is None else f", time_budget={self.time_budget!r}"
        model = "" if self.opponents == "auto" else f", opponents={self.opponents!r}"
        return (f"PlanningBot(seed={self.seed!r}, samples={self.samples}, candidates={self.candidates}"
                f"{budget}{model}, depth={self.depth}, followups={self.followups}, diverse={self.diverse})")

    @property
    def opponent_models(self) -> tuple[str | None, ...]:
        """How the bot models each seat in the current game: ``"memory"``,
        ``"public"`` or ``"novice"`` (see :data:`OPPONENT_MODELS`), ``None`` for its
        own seat; empty before :meth:`start`.

        >>> from quartet_solver.kwartet import Deck, Game
        >>> bot = PlanningBot(seed=1)
        >>> bot.start(Game(Deck.themed(), players=3, seed=2), 0)
        >>> bot.opponent_models
        (None, 'memory', 'memory')
        """
        if self.view is None:
            return ()
        return tuple(None if p == self.view.seat else _MODEL_NAME[m] for p, m in enumerate(self._model))

    def _begin(self, view: View) -> None:
        super()._begin(view)
        n = view.players
        self._quartets = [0] * n
        self._last_lay = [-1] * n
        self._lay_count = 0
        self._turn_lays = 0  # lays and misses of the current turn of the player to move
        self._turn_misses = 0
        self._turn_player = -1
        self._events: list[tuple[int, int, int, int]] = []  # asks and lays, for kw_ask_likelihood
        # each seat's rollout policy, a _MODEL_CODE (see OPPONENT_MODELS); the bot's own seat the shared one
        start = _MODEL_CODE["memory" if self.opponents == "auto" else self.opponents]
        self._model = [0 if p == view.seat else start for p in range(n)]
        # log evidence (up to a constant) of MemoryBot's, the shared and NoviceBot's policy, by seat
        self._evidence = np.zeros((3, n))
        self.decisions = 0
        self.rollouts = 0
        self.last_decision = None

    def _observe(self, e: Event) -> None:
        super()._observe(e)
        row = likelihood_event(e)
        if row is not None:
            self._events.append(row)
        if isinstance(e, Laid):
            self._quartets[e.player] += 1
            self._last_lay[e.player] = self._lay_count
            self._lay_count += 1
            if e.player == self._turn_player:
                self._turn_lays += 1
        elif isinstance(e, Asked):
            if e.asker != self._turn_player:
                self._turn_player, self._turn_lays, self._turn_misses = e.asker, 0, 0
            if not e.hit:
                if self._free_misses(e.asker):
                    self._turn_misses += 1  # a free miss used: the turn goes on
                else:
                    self._turn_player = -1  # the turn is over
        elif isinstance(e, Revealed):
            self._turn_player = -1  # a card turned up ends the turn (its lay earns nothing)

    def _free_misses(self, seat: int) -> int:
        """Free misses left in ``seat``'s current turn under the bonus-turn rule."""
        if self._turn_player != seat or not self.view or not self.view.rules.bonus_turn:
            return 0
        return max(0, self._turn_lays - self._turn_misses)

    # -- candidates and deals -------------------------------------------------------

    def _shortlist(self, scored: list[tuple[float, int, int]]) -> list[tuple[float, int, int]]:
        """The candidate asks (prior, target, card), best first (see the class docstring)."""
        v = self.view
        assert v is not None
        hand = v.hand
        ranked = sorted(
            scored,
            key=lambda x: (round(x[0], 9), (hand >> (4 * (x[2] // 4)) & 0xF).bit_count(),
                           self._public_q >> (x[2] // 4) & 1, -x[1], -x[2]),
            reverse=True,
        )
        out: list[tuple[float, int, int]] = []
        per_card: dict[int, int] = {}
        for s, t, c in ranked:
            if len(out) >= self.candidates:
                break
            if s <= 0.0 or per_card.get(c, 0) >= 2:
                continue
            per_card[c] = per_card.get(c, 0) + 1
            out.append((s, t, c))
        # a pass: an ask that cannot hit, in a quartet already asked in; it never
        # displaces the first candidate (the inference estimate's choice)
        for s, t, c in ranked:
            if s == 0.0 and self._public_q >> (c // 4) & 1:
                if len(out) < self.candidates:
                    out.append((s, t, c))
                elif len(out) >= 2:
                    out[-1] = (s, t, c)
                break
        if not out:
            out = ranked[: self.candidates]
        if self.diverse and self.candidates >= 2:
            seen = {c // 4 for s, _, c in out if s > 0.0}
            extra = 0
            for s, t, c in ranked:
                if extra >= self.diverse:
                    break
                if s > 0.0 and c // 4 not in seen:
                    seen.add(c // 4)
                    out.append((s, t, c))
                    extra += 1
        if v.can_reveal():
            # turning up a middle card: first where InferenceBot would, else last
            reveal = (1.0, *REVEAL)
            if not ranked or ranked[0][0] < REVEAL_BELOW:
                out.insert(0, reveal)
            else:
                out.append(reveal)
        return out

    def _draw(self, draw: int) -> tuple[np.ndarray, np.ndarray]:
        """``draw`` uniform posterior deals as masks (row: the hand of each seat, then
        the pile) and their log weights (see :meth:`_deals`); with ``"auto"``, updates
        which policy each opponent plays in the rollouts."""
        v = self.view
        assert v is not None and self.knowledge is not None
        players = v.players
        locs = self.knowledge.sample(draw, seed=self.rng.getrandbits(64))
        deals = _masks(locs, players)
        logw = np.zeros(draw, dtype=np.float64)
        if self._events and self.opponents != "public":
            events = np.array(self._events, dtype=np.int32)
            nq = v.deck.n_quartets
            memory = int(bool(v.rules.memory))

            def loglik(code: int) -> np.ndarray:
                return _core.kw_ask_likelihood(nq, players, v.seat, deals, events, self.model_eps,
                                               np.full(players, code, dtype=np.uint8), self.rollout_odds,
                                               memory)[0]

            if self.opponents != "auto":
                # a fixed model weighs every opponent's asks by its own likelihood
                logw += loglik(_MODEL_CODE[self.opponents]).sum(axis=1)
                return deals, logw
            # each opponent's rollout policy: the one under which its asks are the most likely
            # (MemoryBot's on a tie, NoviceBot's only when ahead by more than novice_prior)
            ll_mem, ll_nov = loglik(_MODEL_CODE["memory"]), loglik(_MODEL_CODE["novice"])
            self._evidence[0] = _logsumexp(ll_mem)
            self._evidence[1] = _logsumexp(loglik(_MODEL_CODE["public"]))
            self._evidence[2] = _logsumexp(ll_nov)
            self._model = [0 if p == v.seat else _pick_model(self._evidence[:, p], self.novice_prior)
                           for p in range(players)]
            # an opponent's asks weigh the deals by MemoryBot's policy, also where the shared
            # policy plays it in the rollouts (they place its cards better than the collector
            # odds); by NoviceBot's where that one plays it
            novice = np.array(self._model) == _MODEL_CODE["novice"]
            logw += np.where(novice, ll_nov, ll_mem).sum(axis=1)
            return deals, logw
        # "public": collector odds per untraced card held of a quartet an opponent asked for
        counts = self._collector_counts(locs)
        for p in range(players):
            if counts[:, p].any():
                logw += counts[:, p] * np.log(self.rollout_odds)
        return deals, logw

    def _collector_counts(self, locs: np.ndarray) -> np.ndarray:
        """Per deal of card locations ``locs`` (``[deal, card]``, as
        :meth:`~.knowledge.Knowledge.sample` gives them) and per opponent, how many
        untraced cards it holds of the quartets it has asked for (``[deal, seat]``; 0
        for the bot's own seat)."""
        v = self.view
        assert v is not None
        counts = np.zeros((len(locs), v.players), dtype=np.int64)
        for p in range(v.players):
            if p == v.seat or not self._hasq[p]:
                continue
            cols = [c for c in range(len(v.deck)) if self._hasq[p] >> (c // 4) & 1 and self._holder[c] < 0]
            if cols:
                counts[:, p] = (locs[:, cols] == p).sum(axis=1)
        return counts

    def _deals(self, n: int) -> np.ndarray:
        """``n`` deals drawn from the posterior and resampled by weight, as masks (row:
        the hand of each seat, then the pile).

        With ``"auto"`` and ``"memory"`` a deal weighs the likelihood of every
        opponent's asks under MemoryBot's policy (``_core.kw_ask_likelihood``); with
        ``"public"``, :attr:`rollout_odds` per untraced card an opponent holds of a
        quartet it asked for.
        Batches of :attr:`oversample` x ``n`` uniform deals are drawn until the
        weights' effective sample size reaches ``n`` / 4 or :attr:`max_oversample`
        x ``n`` deals are drawn."""
        parts, logws = [], []
        total = 0
        while True:
            deals, logw = self._draw(self.oversample * n)
            parts.append(deals)
            logws.append(logw)
            total += len(deals)
            lw = np.concatenate(logws)
            w = np.exp(lw - lw.max())
            self._ess = float(w.sum() ** 2 / (w * w).sum())
            if self._ess >= n / 4 or total >= self.max_oversample * n:
                break
        deals = parts[0] if len(parts) == 1 else np.concatenate(parts)
        cum = np.cumsum(w)
        u = np.array([self.rng.random() for _ in range(n)]) * cum[-1]
        idx = np.minimum(np.searchsorted(cum, u, side="right"), total - 1)
        return deals[idx]

    # -- the decision ------------------------------------------------------------------

    def _select(self, value: np.ndarray) -> int:
        """The chosen candidate from the rollout values ``[candidate, deal]``: the one
        with the best mean among those whose paired advantage over the first (the
        inference estimate's choice) exceeds :attr:`confidence` standard errors; the
        first when none does."""
        n = value.shape[1]
        if n < 2 or self.confidence <= 0:
            return int(np.argmax(value.mean(axis=1)))
        diff = value - value[0]
        mean = diff.mean(axis=1)
        se = diff.std(axis=1, ddof=1) / np.sqrt(n)
        ok = mean > self.confidence * se
        ok[0] = True
        return int(np.argmax(np.where(ok, mean, -np.inf)))

    def _record(self) -> _Record:
        """The public record of the game now, as the rollouts keep it."""
        assert self.view is not None
        return _Record(np.array(self._holder, dtype=np.int8), np.array(self._notat, dtype=np.uint8),
                       np.array(self._hasq, dtype=np.uint32), np.array(self._quartets, dtype=np.int32),
                       np.array(self._last_lay, dtype=np.int32), self._lay_count, self._free_misses(self.view.seat))

    def _values(self, deals: np.ndarray, record: _Record, asks: list[tuple[int, int]],
                model: np.ndarray) -> np.ndarray:
        """The rollout values ``[ask, deal]`` of the bot's first asks ``asks`` on
        ``deals`` from ``record``: its win share plus :attr:`quartet_weight` x its
        quartets / the deck's quartets."""
        v = self.view
        assert v is not None
        nq = v.deck.n_quartets
        share, quart = _core.kw_rollouts(
            nq, v.players, v.seat, deals, record.quartets, record.last, record.lay_count, record.holder,
            record.notat, record.hasq, np.array([t for t, _ in asks], dtype=np.int32),
            np.array([c for _, c in asks], dtype=np.int32), int(v.rules.bonus_turn), record.free,
            self.rollout_odds, self.rng.getrandbits(64), 10_000, model, memory=int(bool(v.rules.memory)))
        return share + self.quartet_weight / nq * quart

    def _deepen(self, val: np.ndarray, deals: np.ndarray, asks: list[tuple[int, int]], hand: int,
                sizes: list[int], record: _Record, model: np.ndarray, levels: int) -> None:
        """Replace, for each ask ``k`` of ``asks``, its rollout values ``val[k]`` on
        the deals where it hits by those of the bot's best next ask there
        (:meth:`_follow`), ``levels`` asks deep."""
        for k, (t, c) in enumerate(asks):
            if t < 0:
                continue  # a card turned up: the turn passes
            follow = self._follow(deals, t, c, asks, hand, sizes, record, model, levels)
            if follow is not None:
                val[k, follow[0]] = follow[1]

    def _follow(self, deals: np.ndarray, t: int, c: int, asks: list[tuple[int, int]], hand: int,
                sizes: list[int], record: _Record, model: np.ndarray,
                levels: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The bot's next ask after asking ``t`` for ``c`` and getting it, chosen once
        for all the deals where that happens (they are one information set: the bot
        sees the same hit on each): the indices of those deals in ``deals`` and the
        chosen ask's rollout values on them, or ``None`` where nothing is rolled out.

        The next asks are the other ``asks`` still legal after the hit (at most
        :attr:`followups`), each rolled out from the deals with the hit applied
        (:func:`_after_hit`) and, ``levels - 1`` asks deeper, followed again; the
        best is chosen as at the root (:meth:`_select`).  Deals on which the hit ends
        the game, or the bot's turn, are left out: their rollouts stand."""
        v = self.view
        assert v is not None
        me, players, nq = v.seat, v.players, v.deck.n_quartets
        bonus = v.rules.bonus_turn
        q = c // 4
        new_hand = hand | 1 << c
        if (new_hand >> (4 * q)) & 0xF == 0xF:
            new_hand &= ~(0xF << (4 * q))
        new_sizes = list(sizes)
        new_sizes[t] -= 1
        new_sizes[me] = new_hand.bit_count()
        if not new_hand or not any(new_sizes[o] for o in range(players) if o != me):
            return None  # the turn passes
        nxt = [(t2, c2) for t2, c2 in asks
               if t2 >= 0 and new_sizes[t2] > 0 and not new_hand >> c2 & 1
               and new_hand >> (4 * (c2 // 4)) & 0xF][: self.followups]
        if not nxt:
            return None
        idx = np.flatnonzero((deals[:, t] >> np.uint64(c)) & np.uint64(1))
        if not len(idx):
            return None
        d2, r2 = _after_hit(deals[idx], me, t, c, record, bonus)
        if r2.lay_count > record.lay_count and not v.rules.memory:
            # a lay: the game is over where every quartet is laid or has a card in the pile
            pile = d2[:, players]
            blocked = sum((((pile >> np.uint64(4 * qq)) & np.uint64(0xF)) != 0).astype(int) for qq in range(nq))
            go_on = blocked + int(r2.quartets.sum()) < nq
            idx, d2 = idx[go_on], d2[go_on]
            if not len(idx):
                return None
        v2 = self._values(d2, r2, nxt, model)
        self.rollouts += v2.size
        if levels > 1:
            self._deepen(v2, d2, nxt, new_hand, new_sizes, r2, model, levels - 1)
        return idx, v2[self._select(v2)]

    def choose(self) -> Action:
        v = self._started()
        self._update()
        if self.knowledge is None or v.rules.draw_pile:
            return super().choose()
        scored = self._scores()
        if not scored and not v.can_reveal():
            raise InvalidStateError(f"seat {v.seat} has no legal action")
        if len(scored) + v.can_reveal() == 1:
            return self._action(scored[0][1:] if scored else REVEAL)
        t0 = time.perf_counter()
        first = self._deals(self.samples)
        short = self._shortlist(scored)
        if len(short) == 1:
            return self._action(short[0][1:])
        decision = self._decide(short, first, t0)
        return self._action(decision.candidates[decision.chosen])

    def _action(self, ask: tuple[int, int]) -> Action:
        """The action of a candidate ``(target, card)``: an ask, or a middle card
        turned up (:data:`REVEAL`; which one is chance, their order being unknown)."""
        if ask == REVEAL:
            assert self.view is not None
            return ("reveal", self.rng.randrange(self.view.middle))
        return ("ask", ask[0], ask[1])

    def _decide(self, short: list[tuple[float, int, int]], first: np.ndarray, t0: float) -> Decision:
        """Roll out the candidates ``short`` on the deals ``first`` (and, with a time
        budget, fresh rounds of deals until it is spent); the decision, also kept as
        :attr:`last_decision`."""
        v = self.view
        assert v is not None
        asks = [(t, c) for _, t, c in short]
        model = np.array(self._model, dtype=np.uint8)
        record = self._record()
        rounds = []
        deals = first
        while True:
            val = self._values(deals, record, asks, model)
            if self.depth >= 2:
                self._deepen(val, deals, asks, v.hand, list(v.hand_sizes), record, model, self.depth - 1)
            rounds.append(val)
            if self.time_budget is None or time.perf_counter() - t0 >= self.time_budget:
                break
            deals = self._deals(self.samples)
        value = np.concatenate(rounds, axis=1)  # [candidate, deal]
        n = value.shape[1]
        values = value.mean(axis=1)
        errors = value.std(axis=1, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(len(short))
        best = self._select(value)
        self.decisions += 1
        self.rollouts += n * len(short)
        self.last_decision = Decision(
            tuple(asks), tuple(s for s, _, _ in short), tuple(float(x) for x in values),
            n * len(short), time.perf_counter() - t0, best, tuple(float(x) for x in errors))
        return self.last_decision

    def advise(self, knowledge: Knowledge) -> Decision:
        """The ask this bot would make now in the seat of ``knowledge``'s observer,
        whose turn it is: a position of a real game, given by what that player knows
        (their dealt hand and the public events, see :class:`~.knowledge.Knowledge`).

        The bot starts afresh on the position (any game it was playing is ended), reads
        the events as it would have seen them in play, and decides as :meth:`choose`
        does, from the same seed the same decision; every candidate is rolled out, also
        when only one ask is legal.  The candidates' ``values`` are the bot's mean
        rollout outcome: its share of the win plus :attr:`quartet_weight` x its
        quartets / the deck's quartets.

        Raises :class:`~quartet_solver.errors.InvalidStateError` for a position the
        planner cannot take: it is not the observer's turn, the observer has no action
        (no cards or nobody to ask, and no middle card to turn up), the game is over (by
        what the observer can know), a complete quartet is still
        in the observer's hand, or exact inference is unavailable.

        With a draw pile (the rules', or draws in the record) the rollouts, which have
        no draws, are not run: the decision is the :class:`~.bots.InferenceBot` ask that
        :meth:`choose` makes there, the candidates valued by their estimated hit chance
        (``values`` equal to ``prior``, ``rollouts`` 0).

        >>> from quartet_solver.kwartet import Deck, Knowledge
        >>> k = Knowledge(Deck.standard("AKQJ"), players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=1)
        >>> k.ask(asker=2, target=1, card="Ks", success=True)   # player 2 moves first
        >>> k.ask(asker=2, target=1, card="Kh", success=False)  # a miss: player 0's turn
        >>> d = PlanningBot(seed=1, samples=200).advise(k)
        >>> [(target, k.deck.full_name(card)) for target, card in d.candidates]
        [(2, 'J: Jd'), (2, 'J: Jh'), (2, 'A: Ah'), (2, 'A: As'), (2, 'Q: Qd')]
        >>> d.chosen, round(d.values[d.chosen], 3)
        (4, 0.309)
        """
        view = _PositionView(knowledge)
        self.rng = _random.Random(self.seed)
        self._begin(view)
        self._update()
        if view.rules.draw_pile or knowledge._turns.seen_draw:
            return self._advise_without_rollouts()
        if self.knowledge is None:
            raise InvalidStateError(f"exact inference is unavailable for player {view.seat}'s position")
        scored = self._scores()
        t0 = time.perf_counter()
        first = self._deals(self.samples)
        return self._decide(self._shortlist(scored), first, t0)

    def _advise_without_rollouts(self) -> Decision:
        """The inference bot's ask (what :meth:`choose` plays with a draw pile), its
        candidates valued by their estimated hit chance; no rollouts."""
        t0 = time.perf_counter()
        scored = self._scores()
        short = self._shortlist(scored)
        action = self._pick(scored)
        assert len(action) == 3  # a draw-pile game has no middle cards to turn up
        candidates = [(t, c) for _, t, c in short]
        prior = [s for s, _, _ in short]
        picked = (action[1], action[2])
        if picked not in candidates:
            estimate = next(s for s, t, c in scored if (t, c) == picked)
            candidates.insert(0, picked)
            prior.insert(0, estimate)
        decision = Decision(tuple(candidates), tuple(prior), tuple(prior), 0, time.perf_counter() - t0,
                            candidates.index(picked), (0.0,) * len(candidates))
        self.last_decision = decision
        return decision
