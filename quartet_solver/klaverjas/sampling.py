"""Deals consistent with what one seat has seen: exact counting and exactly uniform sampling.

A seat that sees only its own hand and the cards played so far (a
:class:`~quartet_solver.klaverjas.bots.PlayView`) knows that every card of the
play was legal.  :func:`sample_deals` draws complete original deals (all 32 cards
as dealt) uniformly from the deals in which the whole ``view.history`` was legal
under ``view.rules``; :func:`constraints` returns what the play showed about the
unseen cards and how many deals remain; :func:`consistent` checks one deal by
replaying the history with :class:`~quartet_solver.klaverjas.state.PlayState`.

>>> import math
>>> from quartet_solver.klaverjas import Deal, PlayState, PlayView
>>> deal = Deal.from_hands("Ac Kc Qc Jc 7d 8d As Ks", "9d Td Jd Qd Kd Qs Js Ts",
...                        "Tc 9c 8c Jh 9h Ah 9s 8s", "7c Th Kh Qh 8h 7h 7s Ad")
>>> st = PlayState(deal, trump="h", declarer="N", leader="N").play_all("Ac 9d")
>>> view = PlayView.of(st)                 # S to play to the first trick
>>> c = constraints(view)
>>> str(c.excluded[1])
'7c 7h 8h Th Jc Qc Qh Kc Kh'

E showed out of clubs while the opponent N won the trick, so (Amsterdam) E
holds no club and no trump either: E holds 7 of the other 13 unseen cards, N 7
of the remaining 15, W the rest:

>>> c.sizes, c.count, math.comb(13, 7) * math.comb(15, 7)
((7, 7, 0, 8), 11042460, 11042460)
>>> deals = sample_deals(view, 3, seed=1)
>>> len(deals), all(consistent(d, view) for d in deals)
(3, True)
>>> all(d.hand("S") == deal.hand("S") for d in deals)
True

**Why the draw is exactly uniform.**  Write the history as plays ``(s, c)`` of
seat ``s`` putting card ``c`` on the trick so far ``T``.  At that moment the hand
of ``s`` was ``H = K ∪ U``: ``K`` is ``c`` and the cards ``s`` played later (known
to everybody) and ``U`` the cards ``s`` still holds now (for a seat other than
the viewer: unknown cards).

*Lemma* (read off ``rules._legal``, every branch): for a trick ``T``, trumps,
rules and a card ``c`` there is a set ``F`` such that for every hand ``H``
holding ``c``: ``c`` is legal in ``H`` iff ``H ∩ F = ∅``.  The cases: nothing led,
``F = ∅``; trumps led: ``c`` a trump higher than the trick's highest trump
``F = ∅``, a lower trump ``F`` = the higher trumps, not a trump ``F`` = all
trumps; a plain suit led: ``c`` of that suit ``F = ∅``, else ``F`` holds the
suit led and also --
Rotterdam: ``c`` not a trump: every trump; ``c`` a lower trump: the higher
trumps; ``c`` a higher trump (or none in the trick): nothing more.
Amsterdam, partner winning: ``c`` a trump lower than the partner's trump: every
non-trump and the higher trumps; otherwise nothing more (the discard exemption).
Amsterdam, opponents winning, no trump in the trick: ``c`` not a trump: every
trump; with a trump in the trick: ``c`` higher: nothing more, ``c`` not a trump:
the higher trumps, ``c`` a lower trump: every non-trump and the higher trumps.
The other rule options (stuk, pit, nat, forced bidding) do not enter legality.

Hence ``c`` legal in ``K ∪ U`` iff ``c`` is legal in ``K`` and ``U ∩ F = ∅``, and
among the unknown cards ``F = {u : c illegal in K ∪ {u}}``.  The code computes
that set with the rules engine itself (no table of the cases above), so every
rule option is covered.  To save calls it tests groups first: ``c`` legal in
``K`` plus all unknown cards, or plus all unknown cards of one suit, means (by the
lemma) that no card of the group is in ``F``; only the cards of a suit that
makes ``c`` illegal are tested one by one (were the lemma false, this could only
make ``F`` smaller, which the safety net below repairs).
``tests/test_klaverjas_sampling.py`` checks the lemma by
brute force on random hands for every variant and option.  A seat's excluded set
is the union of its plays' ``F``; the viewer's own plays do not depend on the
unknown cards and are checked once.

So the consistent deals are exactly the assignments of the unknown cards to the
three other seats, each seat getting as many as it holds (8 minus the cards it
played), every card going to a seat that does not exclude it.  The cards fall
into at most seven classes by their set of allowed seats.  Choosing how many cards
of each class go to each seat (a *split*) fixes the number of assignments as the
product of the classes' multinomial coefficients; summing over splits with the
right seat totals (a small table over the remaining hand sizes, exact Python
integers) counts all consistent deals, ``N``.  The draw walks the classes in
order: the split of class ``i`` is chosen with probability ``m_i · W_{i+1} /
W_i`` (``m_i`` its multinomial coefficient, ``W_i`` the number of completions of
classes ``i..`` from the remaining hand sizes; an exact ``randrange`` over the
integer weights), then its cards are shuffled and cut into the chosen sizes (a
uniform assignment within the class).  Any one assignment comes out with
probability ``Π_i (m_i W_{i+1} / W_i) · (1 / m_i) = 1 / W_0 = 1 / N``.

Safety net: every drawn deal is checked again against the history (seat order
checked once up front; then each play of another seat, leads aside, with
``_legal`` on its hand at that moment -- exactly what ``PlayState.play`` checks)
and redrawn if
inconsistent.  Conditioning a uniform draw from a superset on the subset is
uniform on the subset, so the output stays exactly uniform over the consistent
deals even if the lemma failed for some future rule (the draw would only be
slower).  With ``weight=`` a deal is kept with probability ``weight(deal)``, so
deals come out with probability proportional to their weight
(:func:`bidding_weight` builds one from the bidding).  The ``n`` deals of one call
are independent draws.
"""

from __future__ import annotations

import numbers
import random as _random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import factorial, isnan
from typing import Union

from .. import _core
from ..cards import Card, CardSet, Decks, Suit
from ..checks import as_int, check_seed
from ..deprecation import keyword_options
from ..errors import ArgumentError, IllegalActionError, InvalidStateError, QuartetError
from .bidding import BiddingState
from .bots import BidView, Bot, PlayView
from .deal import Deal
from .rules import SEATS, Rules, _legal, _winner, illegal_reason, seat_index
from .state import PlayState

__all__ = [
    "MAX_DEALS",
    "Constraints",
    "Inference",
    "bidding_weight",
    "consistent",
    "constraints",
    "sample_deals",
]

MAX_DEALS = 1_000_000
"""The largest ``n`` :func:`sample_deals` accepts."""

_MAX_DRAWS_BASE = 10_000
_MAX_DRAWS_PER_DEAL = 1_000
_PIQUET = Decks.PIQUET_MASK
_SUIT_MASKS = tuple(sum(1 << (4 * rank + suit) for rank in range(5, 13)) for suit in range(4))


def _cards(mask: int) -> list[Card]:
    """The cards of a mask (of valid card bits: no checks), in canonical order."""
    every = Card._ALL
    return [every[i] for i in _core.bit_indices(mask)]


def _text(mask: int) -> str:
    return str(CardSet.from_mask(mask))


@dataclass(frozen=True)
class Inference:
    """What one play of a seat other than the viewer showed: playing ``card`` on
    the trick ``trick`` (the cards before it), trick number ``trick_no`` (1..8),
    ``seat`` holds none of the unknown cards ``excluded`` (holding any one of them
    would have made the card illegal)."""

    seat: int
    card: Card
    trick_no: int
    trick: tuple[Card, ...]
    excluded: CardSet

    def __str__(self) -> str:
        on = " ".join(map(str, self.trick)) or "nothing (a lead)"
        shown = f"holds none of '{self.excluded}'" if self.excluded else "nothing shown"
        return f"{SEATS[self.seat]} played {self.card} on {on} (trick {self.trick_no}): {shown}"


@dataclass(frozen=True)
class Constraints:
    """What the play so far tells the viewer ``seat`` about the unseen cards.

    - ``unknown``: the cards the viewer has not seen (held by the other seats);
    - ``sizes``: how many unknown cards each seat holds now (the viewer: 0);
    - ``excluded``: per seat, the unknown cards it cannot hold (the viewer: all);
    - ``inferences``: the plays that showed something, in order;
    - ``count``: the number of consistent original deals (0: none).
    """

    seat: int
    unknown: CardSet
    sizes: tuple[int, int, int, int]
    excluded: tuple[CardSet, CardSet, CardSet, CardSet]
    inferences: tuple[Inference, ...]
    count: int

    def allowed(self, seat: str | int) -> CardSet:
        """The unknown cards ``seat`` may hold."""
        return self.unknown - self.excluded[seat_index(seat)]


# -- the view, checked --------------------------------------------------------------------


@dataclass(frozen=True)
class _Play:
    seat: int
    card: Card
    trick: tuple[Card, ...]   # the cards before it in its trick
    trick_no: int
    known: int                # mask: the card and the cards its seat played later


def _checked_plays(view: object) -> tuple[PlayView, list[_Play], list[int]]:
    """The plays of ``view.history`` with their tricks, after checking the view;
    also the mask of cards each seat played."""
    if not isinstance(view, PlayView):
        raise InvalidStateError(f"view must be a klaverjas PlayView, got {type(view).__name__} {view!r:.80}")
    seat = as_int(view.seat)
    if seat is None or not 0 <= seat < 4:
        raise InvalidStateError(f"view.seat must be a seat index 0..3, got {view.seat!r}")
    if not isinstance(view.hand, CardSet) or not isinstance(view.played, CardSet):
        raise InvalidStateError("view.hand and view.played must be CardSets")
    if not isinstance(view.rules, Rules) or not isinstance(view.trump, Suit):
        raise InvalidStateError(f"view.rules must be Rules and view.trump a Suit, got {view.rules!r}, {view.trump!r}")
    history = view.history
    if not isinstance(history, (tuple, list)):
        raise InvalidStateError(f"view.history must be a tuple of (seat, card), got {history!r:.80}")
    if view.hand.mask & ~_PIQUET:
        raise InvalidStateError(f"the hand '{view.hand}' has cards outside the 32-card deck")
    leader = as_int(view.leader)
    if leader is None or not 0 <= leader < 4:
        raise InvalidStateError(f"view.leader must be a seat index 0..3, got {view.leader!r}")
    if len(history) > 31:
        raise InvalidStateError(f"the history has {len(history)} cards: the hand is over")
    plays: list[_Play] = []
    trick: list[Card] = []
    seen = 0
    for i, entry in enumerate(history):
        try:
            s, c = entry
        except (TypeError, ValueError):
            raise InvalidStateError(f"history entry {i + 1} must be (seat, card), got {entry!r}") from None
        s_index = as_int(s)
        if s_index is None or not 0 <= s_index < 4 or not isinstance(c, Card):
            raise InvalidStateError(f"history entry {i + 1} must be (seat index 0..3, Card), got {entry!r}")
        if not c.mask & _PIQUET or c.mask & seen:
            what = "is played twice" if c.mask & seen else "is not in the 32-card deck"
            raise InvalidStateError(f"history entry {i + 1}: {c} {what}")
        expected = (leader + len(trick)) % 4
        if s_index != expected:
            raise InvalidStateError(f"history entry {i + 1} ({c}) is by {SEATS[s_index]}, "
                                    f"but {SEATS[expected]} was to play")
        seen |= c.mask
        plays.append(_Play(s_index, c, tuple(trick), i // 4 + 1, 0))
        trick.append(c)
        if len(trick) == 4:
            leader = (leader + _winner(trick, view.trump)) % 4
            trick = []
    if seen != view.played.mask:
        raise InvalidStateError(f"view.history ('{_text(seen)}') does not match view.played ('{view.played}')"
                                + (": build the view with PlayView.of" if not history else ""))
    if tuple(trick) != tuple(view.trick) or leader != view.trick_leader:
        raise InvalidStateError(f"view.history ends in the trick '{' '.join(map(str, trick))}' led by "
                                f"{SEATS[leader]}, but view.trick is '{' '.join(map(str, view.trick))}' "
                                f"led by {view.trick_leader!r}")
    if (leader + len(trick)) % 4 != seat:
        raise InvalidStateError(f"after the history {SEATS[(leader + len(trick)) % 4]} is to play, "
                                f"not the viewer {SEATS[seat]}")
    both = view.hand.mask & seen
    if both:
        raise InvalidStateError(f"history inconsistent with the hand: '{_text(both)}' is both played and "
                                "in the viewer's hand")
    # the known cards of each play: the card and the cards its seat played later
    by_seat = [0, 0, 0, 0]
    for k in range(len(plays) - 1, -1, -1):
        p = plays[k]
        by_seat[p.seat] |= p.card.mask
        plays[k] = _Play(p.seat, p.card, p.trick, p.trick_no, by_seat[p.seat])
    played_by_viewer = bin(by_seat[seat]).count("1")
    if len(view.hand) != 8 - played_by_viewer:
        raise InvalidStateError(f"history inconsistent with the hand: {SEATS[seat]} played {played_by_viewer} "
                                f"cards, so holds {8 - played_by_viewer}, but the hand has {len(view.hand)}: "
                                f"'{view.hand}'")
    return view, plays, by_seat


# -- the counting and the draw ----------------------------------------------------------------


_Split = tuple[int, int, int]


class _Sampler:
    """Everything :func:`sample_deals` needs, computed once per view."""

    def __init__(self, view: object) -> None:
        view, plays, by_seat = _checked_plays(view)
        self.view = view
        self.by_seat = by_seat
        trump, rules, viewer = view.trump, view.rules, view.seat
        hand = view.hand.mask
        unknown = _PIQUET & ~hand & ~view.played.mask
        unknown_cards = _cards(unknown)
        excluded = [0, 0, 0, 0]
        excluded[viewer] = unknown
        inferences: list[Inference] = []
        self.checks: list[tuple[int, Card, tuple[Card, ...], int]] = []
        self.memo: dict[tuple[int, int], bool] = {}
        for p in plays:
            if p.seat == viewer:
                held = p.known | hand
                if p.card not in _legal(_cards(held), p.trick, trump, rules):
                    reason = illegal_reason(p.card, _cards(held), p.trick, trump, rules)
                    raise InvalidStateError(
                        f"history inconsistent with the hand: {SEATS[viewer]} played {p.card} on "
                        f"'{' '.join(map(str, p.trick))}' (trick {p.trick_no}) holding '{_text(held)}': {reason}")
                continue
            known = _cards(p.known)
            if p.card not in _legal(known, p.trick, trump, rules):
                reason = illegal_reason(p.card, known, p.trick, trump, rules)
                raise InvalidStateError(
                    f"no consistent deal: {SEATS[p.seat]} played {p.card} on '{' '.join(map(str, p.trick))}' "
                    f"(trick {p.trick_no}) while holding '{_text(p.known)}' (the cards it played from then "
                    f"on): {reason}")
            forbidden = 0
            # a lead is legal whatever the hand (the first line of _legal); by the lemma,
            # legal with a whole group of unknown cards added = none of them forbids it,
            # so the cards are tested one by one only within a suit that forbids it
            if p.trick and p.card not in _legal(_cards(p.known | unknown), p.trick, trump, rules):
                for suit_mask in _SUIT_MASKS:
                    group = unknown & suit_mask
                    if group and p.card not in _legal(_cards(p.known | group), p.trick, trump, rules):
                        for u in _cards(group):
                            if p.card not in _legal(_cards(p.known | u.mask), p.trick, trump, rules):
                                forbidden |= u.mask
            if forbidden:
                inferences.append(Inference(p.seat, p.card, p.trick_no, p.trick, CardSet.from_mask(forbidden)))
            excluded[p.seat] |= forbidden
            if p.trick:   # a lead is legal whatever the hand (the first line of _legal)
                self.checks.append((p.seat, p.card, p.trick, p.known))
        sizes = tuple(0 if s == viewer else 8 - bin(by_seat[s]).count("1") for s in range(4))
        self.others = [s for s in range(4) if s != viewer]
        # classes of the unknown cards by their set of allowed seats (bit j: self.others[j])
        classes: dict[int, list[Card]] = {}
        for u in unknown_cards:
            allowed = sum(1 << j for j, s in enumerate(self.others) if not u.mask & excluded[s])
            classes.setdefault(allowed, []).append(u)
        self.classes = sorted(classes.items())
        self.remaining = [sum(len(cs) for _, cs in self.classes[i:]) for i in range(len(self.classes) + 1)]
        self.table: dict[tuple[int, int, int], tuple[list[int], list[_Split], int]] = {}
        self.start = (sizes[self.others[0]], sizes[self.others[1]])
        count = 0 if 0 in classes else self._ways(0, *self.start)
        self.constraints = Constraints(
            viewer, CardSet.from_mask(unknown), sizes,  # type: ignore[arg-type]
            tuple(CardSet.from_mask(e) for e in excluded), tuple(inferences), count)  # type: ignore[arg-type]

    def _ways(self, i: int, ra: int, rb: int) -> int:
        """Assignments of classes ``i..`` with ``ra``, ``rb`` cards left for the first
        two other seats (the third gets the rest); fills ``self.table``."""
        key = (i, ra, rb)
        if key in self.table:
            return self.table[key][2]
        rc = self.remaining[i] - ra - rb
        if i == len(self.classes):
            return 1 if ra == rb == rc == 0 else 0
        mask, cards = self.classes[i]
        m = len(cards)
        cumulative: list[int] = []
        splits: list[_Split] = []
        total = 0
        for xa in range(min(m, ra) + 1 if mask & 1 else 1):
            for xb in range(min(m - xa, rb) + 1 if mask & 2 else 1):
                xc = m - xa - xb
                if xc > rc or (xc and not mask & 4):
                    continue
                rest = self._ways(i + 1, ra - xa, rb - xb)
                if rest:
                    total += factorial(m) // (factorial(xa) * factorial(xb) * factorial(xc)) * rest
                    cumulative.append(total)
                    splits.append((xa, xb, xc))
        self.table[key] = (cumulative, splits, total)
        return total

    def draw(self, rng: _random.Random) -> tuple[int, int, int, int]:
        """The current hands (masks) of a uniformly drawn consistent assignment."""
        parts = [0, 0, 0]
        ra, rb = self.start
        for i, (_, cards) in enumerate(self.classes):
            cumulative, splits, total = self.table[(i, ra, rb)]
            split = splits[0] if len(splits) == 1 else splits[bisect_right(cumulative, rng.randrange(total))]
            xa, xb, xc = split
            if xa == len(cards) or xb == len(cards) or xc == len(cards):
                j = 0 if xa else 1 if xb else 2
                for c in cards:
                    parts[j] |= c.mask
            else:
                order = cards[:]
                rng.shuffle(order)
                for j, (lo, hi) in enumerate(((0, xa), (xa, xa + xb), (xa + xb, len(cards)))):
                    for c in order[lo:hi]:
                        parts[j] |= c.mask
            ra, rb = ra - xa, rb - xb
        hands = [0, 0, 0, 0]
        hands[self.view.seat] = self.view.hand.mask
        for j, s in enumerate(self.others):
            hands[s] = parts[j]
        return hands[0], hands[1], hands[2], hands[3]

    def replay_ok(self, current: Sequence[int]) -> bool:
        """The safety net: every play of another seat legal with its hand then
        (``_legal`` of the hand at that moment, remembered per play and hand)."""
        view, memo = self.view, self.memo
        if len(memo) > 200_000:
            memo.clear()
        for i, (seat, card, trick, known) in enumerate(self.checks):
            key = (i, current[seat])
            ok = memo.get(key)
            if ok is None:
                ok = memo[key] = card in _legal(_cards(known | current[seat]), trick, view.trump, view.rules)
            if not ok:
                return False
        return True

    def deal(self, current: Sequence[int]) -> Deal:
        """The original deal: each seat's current hand plus the cards it played."""
        return Deal(tuple(CardSet.from_mask(current[s] | self.by_seat[s]) for s in range(4)))  # type: ignore[arg-type]

    def no_deal_message(self) -> str:
        """Why no deal is consistent, naming a seat or a card."""
        c = self.constraints
        notes = "; ".join(str(x) for x in c.inferences) or "nothing shown"
        for u in c.unknown:
            if all(u in c.excluded[s] for s in self.others):
                return (f"no consistent deal: {u} can be held by none of "
                        f"{', '.join(SEATS[s] for s in self.others)} ({notes})")
        for bits in range(1, 8):
            group = [s for j, s in enumerate(self.others) if bits >> j & 1]
            can = sum(1 for u in c.unknown if any(u not in c.excluded[s] for s in group))
            need = sum(c.sizes[s] for s in group)
            if can < need:
                who = "+".join(SEATS[s] for s in group)
                return (f"no consistent deal: {who} hold{'s' if len(group) == 1 else ''} {need} unknown cards but "
                        f"only {can} unknown cards may be held there ({notes})")
        return f"no consistent deal ({notes})"


# -- the public functions ------------------------------------------------------------------------


def constraints(view: PlayView) -> Constraints:
    """What ``view.history`` shows about the cards the viewer has not seen: per seat
    the unknown cards it cannot hold and how many it holds, and the number of
    consistent deals.  A history that is impossible whatever the unknown cards
    (its seat order, the viewer's own plays, a seat's play against its own later
    plays) raises :class:`~quartet_solver.errors.InvalidStateError`; a history
    the unknown cards cannot fit gives ``count == 0``.
    """
    return _Sampler(view).constraints


def consistent(deal: Deal, view: PlayView) -> bool:
    """``True`` when ``deal`` (the original deal) holds the viewer's hand as dealt
    and every card of ``view.history`` was legal in it: the history is replayed
    with :class:`~quartet_solver.klaverjas.state.PlayState` (slow and plain: the
    check of the tests)."""
    if not isinstance(deal, Deal):
        raise InvalidStateError(f"deal must be a klaverjas Deal, got {deal!r:.80}")
    view, plays, by_seat = _checked_plays(view)
    if deal.hands[view.seat].mask != view.hand.mask | by_seat[view.seat]:
        return False
    state = PlayState(deal, view.trump, view.declarer, view.leader, rules=view.rules)
    try:
        for p in plays:
            if state.to_move_index != p.seat:
                return False
            state = state.play(p.card)
    except IllegalActionError:
        return False
    return state.hand(view.seat) == view.hand


Weight = Callable[[Deal], float]


@keyword_options
def sample_deals(view: PlayView, n: int, *, seed: int | str | None = None,
                 weight: Weight | None = None) -> list[Deal]:
    """``n`` original deals (all 32 cards as dealt, the viewer's hand as dealt =
    its hand now plus the cards it played) drawn independently and exactly
    uniformly from the deals in which every card of ``view.history`` was legal
    under ``view.rules`` (see the module docstring for the argument).

    ``n``: ``1..MAX_DEALS``; ``seed``: ``None``, an int or a string
    (deterministic for a seed).  ``weight``: optional ``deal -> [0, 1]``; each
    drawn deal is kept with that probability, so deals come out with
    probability proportional to their weight (e.g. :func:`bidding_weight`).
    No consistent deal, bad arguments, or a weight that keeps too few deals
    (fewer than one in a thousand) raise
    :class:`~quartet_solver.errors.InvalidStateError`; never fewer than ``n``
    deals are returned.

    >>> from quartet_solver.klaverjas import Deal, PlayState, PlayView
    >>> st = PlayState(Deal.random(seed=2), trump="s", declarer="E", leader="N")
    >>> view = PlayView.of(st.play_all(st.legal_cards()[:1]))
    >>> deals = sample_deals(view, 5, seed=7)
    >>> len(deals), deals == sample_deals(view, 5, seed=7)
    (5, True)
    """
    count = as_int(n)
    if count is None or not 1 <= count <= MAX_DEALS:
        raise ArgumentError(f"n must be an int in 1..{MAX_DEALS:,}, got {n!r}")
    rng = _random.Random(check_seed(seed))
    if weight is not None and not callable(weight):
        raise ArgumentError(f"weight must be a callable deal -> [0, 1] or None, got {weight!r}")
    sampler = _Sampler(view)
    if sampler.constraints.count == 0:
        raise InvalidStateError(sampler.no_deal_message())
    out: list[Deal] = []
    limit = _MAX_DRAWS_BASE + _MAX_DRAWS_PER_DEAL * count
    draws = 0
    while len(out) < count:
        draws += 1
        if draws > limit:
            raise InvalidStateError(f"only {len(out)} of {count} deals kept after {limit:,} draws "
                                    f"({'the weight keeps too few deals' if weight else 'the replay rejects them'})")
        current = sampler.draw(rng)
        if not sampler.replay_ok(current):
            continue
        deal = sampler.deal(current)
        if weight is not None:
            w = weight(deal)
            if isinstance(w, bool) or not isinstance(w, numbers.Real) or isnan(w) or not 0 <= w <= 1:
                raise InvalidStateError(f"weight must return a number in [0, 1], got {w!r} for {deal}")
            if w < 1 and rng.random() >= w:
                continue
        out.append(deal)
    return out


BidModel = Union[Bot, Callable[[BidView], Union[Suit, None]]]


@keyword_options
def bidding_weight(bids: Sequence[tuple[int, Suit | None]], dealer: str | int, model: BidModel, *,
                   rules: Rules | str = Rules.AMSTERDAM, viewer: str | int | None = None,
                   epsilon: float = 0.1) -> Weight:
    """A ``weight`` for :func:`sample_deals` from the bidding: each bid of a seat
    other than ``viewer`` (its own bids do not depend on the unknown cards)
    counts ``1`` if ``model`` (a bot's ``choose_bid`` or a function of a
    :class:`~quartet_solver.klaverjas.bots.BidView`) would have made it with the
    hand of the deal, else ``epsilon``; the weight is the product.  The model:
    each player bids as ``model`` does, but with relative likelihood ``epsilon``
    otherwise (``epsilon`` in ``(0, 1]``; 1 ignores the bidding).

    >>> from quartet_solver.klaverjas import RuleBot
    >>> w = bidding_weight([(1, None), (2, Suit.HEARTS)], dealer=0, model=RuleBot(), viewer=0)
    >>> w(Deal.random(seed=1)) in (1.0, 0.1, 0.1 ** 2)
    True
    """
    if not isinstance(epsilon, numbers.Real) or isinstance(epsilon, bool) or not 0 < epsilon <= 1:
        raise ArgumentError(f"epsilon must be a number in (0, 1], got {epsilon!r}")
    choose = getattr(model, "choose_bid", model)
    if not callable(choose):
        raise InvalidStateError(f"model must be a bot or a function of a BidView, got {model!r}")
    rules = Rules.named(rules)
    skip = None if viewer is None else seat_index(viewer)
    try:
        entries = [(seat_index(s), b) for s, b in bids]
        state = BiddingState(dealer, rules=rules)
        steps: list[tuple[int, tuple[tuple[int, Suit | None], ...], bool, Suit | None]] = []
        for s, b in entries:
            if seat_index(state.to_move) != s:
                raise InvalidStateError(f"bid by {SEATS[s]}, but {state.to_move} is to bid")
            forced, before = state.forced, state.bids
            state = state.bid(b)
            steps.append((s, before, forced, state.bids[-1][1]))
    except (QuartetError, TypeError, ValueError) as exc:
        raise InvalidStateError(f"bids must be the bidding so far as (seat, suit or None): {exc}") from None
    dealer_index = seat_index(dealer)
    factor = float(epsilon)

    def weight(deal: Deal) -> float:
        w = 1.0
        for s, before, forced, actual in steps:
            if s == skip:
                continue
            if choose(BidView(s, dealer_index, deal.hands[s], before, forced, rules)) != actual:
                w *= factor
        return w

    return weight
