"""A Klaverjas player that sees only its own hand: sampling plus double dummy.

:class:`SamplingBot` keeps the :class:`~quartet_solver.klaverjas.bots.Bot`
protocol.  For a card it draws deals consistent with everything it has seen
(:func:`~quartet_solver.klaverjas.sampling.sample_deals`: exactly uniform over
the deals in which every card played so far was legal), solves each from the
current position double dummy with every legal card's value, and plays the card
with the best total over the samples for its team (ties: the first in the
canonical card order).  For a bid it does what
:func:`~quartet_solver.klaverjas.analysis.analyse_bid` does: it deals the
unseen cards at random, solves each sample for every trump with its team
playing, and names the best trump when its mean net is positive (when forced,
the best trump whatever its mean).

Sampling plus double dummy assumes that after this card everybody sees every
hand (*strategy fusion*): it overrates lines that need a guess later, and it
never plays a card for what it tells the partner.  It is still a strong player
against rule-based bots (see ``benchmarks/klaverjas_players.py``).

The levels a game offers by name are in :data:`LEVELS` and made by
:func:`make_bot`: ``easy`` (the rule-based :class:`~quartet_solver.klaverjas.bots.RuleBot`),
``normal`` and ``strong`` (sampling bots with more samples).

>>> from quartet_solver.klaverjas import PlayState, Deal, PlayView
>>> bot = SamplingBot(samples=8, seed=1)
>>> st = PlayState(Deal.random(seed=4), trump="h", declarer="N", leader="E")
>>> card = bot.choose_card(PlayView.of(st))
>>> card in st.legal_cards(), card == SamplingBot(samples=8, seed=1).choose_card(PlayView.of(st))
(True, True)
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from ..cards import Card, Suit
from ..checks import check_int, check_seconds, check_seed
from ..deprecation import keyword_options
from ..errors import ArgumentError
from .analysis import analyse_bid
from .bots import BidView, Bot, PlayView, RuleBot
from .dd import solve
from .rules import SEATS
from .sampling import sample_deals
from .state import PlayState

__all__ = ["SamplingBot", "LEVELS", "make_bot"]

MIN_SAMPLES = 1
"""The fewest samples a decision is made on, also when the time budget runs out."""


def _decision_seed(seed: int | str, *parts: object) -> int:
    """A 64-bit seed for one decision from the bot's seed and what it sees: the
    same seed and the same view give the same choice, in any process."""
    text = ":".join([str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class SamplingBot:
    """Plays by sampling the hidden cards and solving each sample double dummy.

    ``samples``: deals drawn per card decision; ``bid_samples``: per bid (every
    trump is solved on each); ``time_budget``: seconds per decision after which
    no more samples are solved (at least :data:`MIN_SAMPLES`; ``None``: no
    budget, so the choice depends only on the seed and the view); ``seed``: an
    int ``>= 0`` or a string (``None``: a fresh choice each time).
    """

    @keyword_options
    def __init__(self, *, samples: int = 20, bid_samples: int = 24, time_budget: float | None = None,
                 seed: int | str | None = 0, name: str | None = None) -> None:
        n = check_int(samples, "samples", low=1, high=10_000)
        nb = check_int(bid_samples, "bid_samples", low=1, high=10_000)
        self.samples, self.bid_samples = n, nb
        self.time_budget = check_seconds(time_budget, "time_budget")
        self.seed = check_seed(seed)
        self.name = name
        self.last_samples = 0
        self._fresh = 0

    def _seed_for(self, *parts: object) -> int:
        if self.seed is None:
            self._fresh += 1
            return _decision_seed(f"{time.time_ns()}:{id(self)}:{self._fresh}", *parts)
        return _decision_seed(self.seed, *parts)

    # -- bidding ----------------------------------------------------------------------

    def choose_bid(self, view: BidView) -> Suit | None:
        """Name the trump with the best mean double-dummy net over sampled deals
        when that mean is positive (when forced: the best trump), else pass."""
        seed = self._seed_for("bid", view.seat, view.dealer, view.hand, view.bids)
        res = analyse_bid(view.hand, seat=view.seat, dealer=view.dealer, samples=self.bid_samples,
                          rules=view.rules, seed=seed, processes=1)
        if res.recommended != "pass":
            return Suit.parse(res.recommended)
        if view.forced:
            return Suit.parse(max(res.stats, key=lambda s: s.mean).trump)
        return None

    # -- play -------------------------------------------------------------------------

    def card_totals(self, view: PlayView) -> dict[Card, int]:
        """Each legal card's total double-dummy net for the playing team over
        the sampled deals; the number of deals solved (fewer than
        :attr:`samples` when the time budget ran out) is left in
        :attr:`last_samples`."""
        start = time.perf_counter()
        seed = self._seed_for("card", view.seat, view.hand, [f"{SEATS[s]}{c}" for s, c in view.history])
        deals = sample_deals(view, self.samples, seed=seed)
        played = [c for _, c in view.history]
        totals = {c: 0 for c in view.legal}
        used = 0
        for deal in deals:
            state = PlayState(deal, view.trump, view.declarer, view.leader, rules=view.rules).play_all(played)
            res = solve(state, pv=False)
            for c in view.legal:
                totals[c] += res.card_values[c]
            used += 1
            if (self.time_budget is not None and used >= MIN_SAMPLES
                    and time.perf_counter() - start > self.time_budget):
                break
        self.last_samples = used
        return totals

    def choose_card(self, view: PlayView) -> Card:
        """The legal card with the best total over the samples for this seat's
        team (the first in card order on a tie); a single legal card at once."""
        if len(view.legal) == 1:
            return view.legal[0]
        totals = self.card_totals(view)
        sign = 1 if view.seat % 2 == view.declarer % 2 else -1
        return max(view.legal, key=lambda c: (sign * totals[c], -c.index))

    def __repr__(self) -> str:
        if self.name:
            return f"SamplingBot({self.name!r})"
        budget = "" if self.time_budget is None else f", time_budget={self.time_budget}"
        return f"SamplingBot(samples={self.samples}, bid_samples={self.bid_samples}{budget}, seed={self.seed!r})"


@dataclass(frozen=True)
class Level:
    """A named strength of the computer players."""

    name: str
    description: str
    samples: int | None        # None: the rule-based bot
    bid_samples: int | None


LEVELS: dict[str, Level] = {
    "easy": Level("easy", "rule-based: sensible rules of thumb, no look at the hidden cards", None, None),
    "normal": Level("normal", "sampling + double dummy, 12 deals per card", 12, 16),
    "strong": Level("strong", "sampling + double dummy, 40 deals per card", 40, 48),
}
"""The levels a game offers, by name."""


@keyword_options
def make_bot(level: str = "normal", *, seed: int | str | None = 0) -> Bot:
    """A computer player of a named level (:data:`LEVELS`).

    >>> make_bot("easy"), make_bot("strong", seed=3)
    (RuleBot(), SamplingBot('strong'))
    """
    if not isinstance(level, str) or level.strip().lower() not in LEVELS:
        raise ArgumentError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    spec = LEVELS[level.strip().lower()]
    if spec.samples is None or spec.bid_samples is None:
        return RuleBot()
    return SamplingBot(samples=spec.samples, bid_samples=spec.bid_samples, seed=seed, name=spec.name)
