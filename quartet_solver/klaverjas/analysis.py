"""Double-dummy analysis of whole deals: DD tables, par bidding and bid values.

>>> from quartet_solver.klaverjas import Deal
>>> deal = Deal.random(seed=7)
>>> table = dd_table(deal, leader="E")
>>> table.net("h", "NS") == solve_deal(deal, "h", declarer="N", leader="E")
True
>>> p = par(deal, dealer="N")
>>> p.declarer in "NESW" and p.trump in "cdhs"
True
"""

from __future__ import annotations

import math
import os
import random as _random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass

from ..cards import CardSet, CardsLike, Deck, Suit, as_int
from ..errors import InvalidStateError
from .dd import _check_dd_rules, _deal_value_pit, _solve_deal_line, solve_deal
from .deal import Deal
from .rules import SEATS, Rules, as_suit, seat_index
from .state import PlayState

__all__ = ["DDTable", "Par", "BidAnalysis", "TrumpStats", "dd_table", "par", "analyse_bid"]

TEAMS = ("NS", "EW")
_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def _rules(rules: Rules | str) -> Rules:
    """The rules of an analysis, checked for the solver before any work starts."""
    return _check_dd_rules(Rules.named(rules))


def _deal(deal: Deal | str) -> Deal:
    return deal if isinstance(deal, Deal) else Deal.parse(deal)


def _team(team: str | int) -> int:
    if isinstance(team, str) and team.upper() in TEAMS:
        return TEAMS.index(team.upper())
    seat = as_int(team)
    if seat is not None and seat in (0, 1):
        return seat
    raise InvalidStateError(f"team must be 'NS' or 'EW', got {team!r}")


@dataclass(frozen=True)
class DDTable:
    """Net value of the playing team for every trump x playing team, with the raw
    points (N/S, E/W) of one optimal line (the principal variation)."""

    deal: Deal
    leader: str
    rules: Rules
    entries: dict[tuple[str, str], tuple[int, int, int]]  # (trump, team) -> (net, ns points, ew points)

    def net(self, trump: str | Suit, team: str | int) -> int:
        """Net value when ``team`` plays with ``trump``."""
        suit = as_suit(trump)
        return self.entries[(suit.char, TEAMS[_team(team)])][0]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "deal": self.deal.pbn(),
            "leader": self.leader,
            "rules": self.rules.to_dict(),
            "table": [
                {"trump": t, "playing_team": team, "net": v[0], "points": {"NS": v[1], "EW": v[2]}}
                for (t, team), v in self.entries.items()
            ],
        }

    def to_list(self) -> list[list[int]]:
        """Net values as rows per trump (c, d, h, s) and columns (NS, EW)."""
        return [[self.entries[(s.char, team)][0] for team in TEAMS] for s in _SUIT_ORDER]

    def pretty(self) -> str:
        """A text table: rows trumps, columns the playing team; net (points NS-EW)."""
        lines = [f"leader {self.leader}   {'N/S play':>22}   {'E/W play':>22}"]
        for s in _SUIT_ORDER:
            cells = []
            for team in TEAMS:
                net, ns, ew = self.entries[(s.char, team)]
                cells.append(f"{net:>+6d} ({ns:>3d}-{ew:<3d})")
            lines.append(f"  {s.symbol} {s.char}      {cells[0]:>22}   {cells[1]:>22}")
        return "\n".join(lines)


def dd_table(deal: Deal | str, leader: str | int = "E", rules: Rules | str = Rules.AMSTERDAM) -> DDTable:
    """Solve every trump x playing team of a deal (8 exact double-dummy solves)."""
    deal, rules = _deal(deal), _rules(rules)
    lead = seat_index(leader)
    entries = {}
    for suit in _SUIT_ORDER:
        for team, declarer in (("NS", 0), ("EW", 1)):
            state = PlayState(deal, suit, declarer, lead, rules)
            value, line = _solve_deal_line(state)
            final = state.play_all(line)
            entries[(suit.char, team)] = (value, final.points[0], final.points[1])
    return DDTable(deal, SEATS[lead], rules, entries)


@dataclass(frozen=True)
class Par:
    """Bidding when everybody sees all hands: each player in turn names the trump
    that is best for their team or passes, knowing how the rest will act."""

    declarer: str
    trump: str
    net: int              # net value for the playing team
    bids: tuple[str, ...]  # "pass" or a suit letter, in bidding order
    table: DDTable

    @property
    def net_ns(self) -> int:
        """The outcome as N/S's score minus E/W's."""
        return self.net if seat_index(self.declarer) % 2 == 0 else -self.net

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"declarer": self.declarer, "trump": self.trump, "net": self.net,
                "net_ns": self.net_ns, "bids": list(self.bids), "table": self.table.to_dict()}


def par(deal: Deal | str, dealer: str | int, rules: Rules | str = Rules.AMSTERDAM) -> Par:
    """The par outcome of the bidding (see :class:`Par`); the leader is the dealer's left.

    Backward induction over the four bidding turns: a player names the best trump
    for their team (by the DD table) unless passing leads to a better outcome for
    their team; when all pass, the forced player names their team's best trump.
    """
    deal, rules = _deal(deal), _rules(rules)
    d = seat_index(dealer)
    table = dd_table(deal, leader=(d + 1) % 4, rules=rules)

    def best_for(seat: int) -> tuple[int, str]:  # (net for seat's team, trump)
        team = TEAMS[seat % 2]
        return max((table.entries[(s.char, team)][0], s.char) for s in reversed(_SUIT_ORDER))

    forced = (d + 1) % 4 if rules.forced == "forehand" else d
    net_f, trump_f = best_for(forced)
    # outcome[i]: (declarer, trump, net for the declarer's team) when the first i
    # players have passed and everybody from turn i on acts optimally
    outcome: list[tuple[int, str, int]] = [(forced, trump_f, net_f)] * 5
    names = [False] * 4
    for turn in range(3, -1, -1):
        seat = (d + 1 + turn) % 4
        net, trump = best_for(seat)
        later = outcome[turn + 1]
        later_for_me = later[2] if later[0] % 2 == seat % 2 else -later[2]
        names[turn] = net >= later_for_me
        outcome[turn] = (seat, trump, net) if names[turn] else later
    declarer, trump, net = outcome[0]
    bids = []
    for turn in range(4):
        if names[turn]:
            bids.append(trump)
            break
        bids.append("pass")
    else:
        bids.append(trump)  # all passed: the forced player names trumps
    return Par(SEATS[declarer], trump, net, tuple(bids), table)


# -- bid analysis -------------------------------------------------------------------


@dataclass(frozen=True)
class TrumpStats:
    """Bid value of one trump: mean net with a 95% confidence interval, P(nat), P(pit)."""

    trump: str
    mean: float
    ci95: float
    p_nat: float
    p_pit: float
    samples: int

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"trump": self.trump, "mean": self.mean, "ci95": self.ci95, "p_nat": self.p_nat,
                "p_pit": self.p_pit, "samples": self.samples}


@dataclass(frozen=True)
class BidAnalysis:
    """Outcome of :func:`analyse_bid`: stats per trump and the recommended action.

    ``margin`` is how much better the recommended action is than the runner-up
    (the best other action: a trump, or ``"pass"``, which counts as a net of 0),
    the mean of the per-sample differences, and ``margin_ci95`` its 95%
    confidence interval.  Every trump is solved on the same samples, so this is
    the interval of the paired difference, which counts how the two actions'
    nets go together on the same deals (the trumps' own intervals cannot): a
    margin larger than ``margin_ci95`` says the choice is not sampling noise.
    """

    hand: CardSet
    seat: str
    dealer: str
    stats: tuple[TrumpStats, ...]
    recommended: str  # a suit letter, or "pass"
    seconds: float
    runner_up: str = "pass"
    margin: float = 0.0
    margin_ci95: float = 0.0

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"hand": str(self.hand), "seat": self.seat, "dealer": self.dealer,
                "stats": [s.to_dict() for s in self.stats], "recommended": self.recommended,
                "runner_up": self.runner_up, "margin": self.margin, "margin_ci95": self.margin_ci95,
                "seconds": self.seconds}

    def pretty(self) -> str:
        """Text table."""
        lines = [f"{self.seat} holds {self.hand} (dealer {self.dealer}); "
                 f"{self.stats[0].samples} double-dummy samples per trump"]
        lines.append(f"  {'trump':<6}{'mean net':>10}{'±95%':>8}{'P(nat)':>9}{'P(pit)':>9}")
        for s in self.stats:
            suit = Suit.parse(s.trump)
            lines.append(f"  {suit.symbol} {s.trump:<4}{s.mean:>10.1f}{s.ci95:>8.1f}{s.p_nat:>9.3f}{s.p_pit:>9.3f}")
        lines.append(f"recommended: {self.recommended}")
        lines.append(f"margin over {self.runner_up}: {self.margin:.1f} ± {self.margin_ci95:.1f} "
                     "(paired: the same samples for every trump)")
        return "\n".join(lines)


def _mean_ci95(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95% confidence interval
    (normal approximation; 0 for a single value).

    >>> _mean_ci95([1, 3])
    (2.0, 1.96)
    """
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def _usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system
    has one, as in a container or under ``taskset``; else all of them): the
    default number of :func:`analyse_bid`'s worker processes.

    >>> 1 <= _usable_cpus() <= (os.cpu_count() or 1)
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):    # no affinity on this system
        return os.cpu_count() or 1


def _sample_masks(hand: CardSet, seat: int, samples: int, seed: int | None) -> list[tuple[int, ...]]:
    """``samples`` deals with ``hand`` at ``seat`` and the unseen cards dealt
    uniformly at random to the other seats (deterministic for ``seed``), as the
    four hands' kernel masks (``card index - 20``): the sampling of
    :func:`analyse_bid`, which needs no :class:`Deal` (the tests check it
    against a plain sampler that builds them)."""
    unseen = [c.index - 20 for c in (Deck.piquet() - hand).cards()]
    rng = _random.Random(seed)
    own = hand.mask >> 20
    others = [s for s in range(4) if s != seat]
    out = []
    for _ in range(samples):
        rng.shuffle(unseen)
        hands = [own] * 4
        for i, s in enumerate(others):
            hands[s] = sum(1 << b for b in unseen[8 * i : 8 * i + 8])
        out.append(tuple(hands))
    return out


def _solve_chunk(deals: Sequence[tuple[int, ...]], seat: int, leader: int,
                 rules: Rules) -> list[tuple[int, ...]]:
    """Nets and pit flags for each deal (its hands as kernel masks, ``card index
    - 20``) and trump (c, d, h, s): (net_c, pit_c, net_d, ...).

    The pit flag: the playing team takes all eight tricks on a principal
    variation, taken from the solve's own table; a pit line is worth at least
    ``162 + pit - 20`` (less 20 stuk to the other team), so below that no line
    is made."""
    out = []
    for hands in deals:
        row: list[int] = []
        for suit in _SUIT_ORDER:
            net, pit = _deal_value_pit(hands, int(suit), seat, leader, rules, 162 + rules.pit - 20)
            row += [net, int(pit)]
        out.append(tuple(row))
    return out


def analyse_bid(
    hand: CardsLike,
    seat: str | int = "E",
    dealer: str | int = "N",
    samples: int = 500,
    rules: Rules | str = Rules.AMSTERDAM,
    seed: int | None = None,
    executor: Executor | None = None,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BidAnalysis:
    """The value of naming each trump with ``hand`` at ``seat``.

    The 24 unseen cards are dealt uniformly at random to the other seats
    ``samples`` times (deterministic for ``seed``); each sample is solved double
    dummy for each trump with this seat's team playing and the dealer's left
    leading.  Reports per trump the mean net score with a 95% confidence interval,
    P(nat) (the playing team goes nat under best play) and P(pit) (a principal
    variation takes all eight tricks); the recommendation is the trump with the
    best mean if that mean is positive, else ``"pass"``, and its margin over the
    runner-up comes with a paired confidence interval (:class:`BidAnalysis`).

    Work is split into chunks: ``executor`` takes any executor with
    ``submit(fn, *args) -> future`` (``concurrent.futures``, a dask.distributed
    ``Client``); else ``processes`` worker processes (default: the CPUs this
    process may run on, by its affinity mask, when ``samples >= 100``, else
    in-process).  The solver releases the GIL and each
    thread has its own kernel, so a ``ThreadPoolExecutor`` runs the chunks in
    parallel too, without starting processes (500 samples on 2 workers, in
    alternating runs: threads 1.9 s, processes 1.8-2.0 s; on a slower day
    3.0-3.8 s and 2.7-4.1 s: within the machine's noise, the same).
    ``progress(done, total)`` is called as chunks finish, with the number of
    deals solved.
    """
    started = time.perf_counter()
    cards = CardSet(hand)
    if len(cards) != 8 or cards - Deck.piquet():
        raise InvalidStateError(f"a Klaverjas hand has 8 cards of the 32-card deck, got '{cards}'")
    n_samples, n_processes = as_int(samples), as_int(processes)
    if n_samples is None or n_samples < 1:
        raise InvalidStateError(f"samples must be a positive int, got {samples!r}")
    if processes is not None and (n_processes is None or n_processes < 1):
        raise InvalidStateError(f"processes must be a positive int or None, got {processes!r}")
    samples, processes = n_samples, n_processes
    rules = _rules(rules)
    s, d = seat_index(seat), seat_index(dealer)
    leader = (d + 1) % 4
    masks = _sample_masks(cards, s, samples, seed)
    workers = processes if processes is not None else _usable_cpus() if samples >= 100 else 1
    # 32 chunks a worker (a chunk takes 1/32 of a worker's share on average):
    # the workers that finish first wait for the last chunk, so small ones
    # waste less (a sample's solves take 0.1 to 30 ms)
    chunk = max(1, math.ceil(len(masks) / (32 * max(workers, 1))))
    chunks = [masks[i : i + chunk] for i in range(0, len(masks), chunk)]
    rows: list[tuple[int, ...]] = []
    own_pool = None
    if executor is None and workers > 1:
        own_pool = executor = ProcessPoolExecutor(max_workers=workers)
    try:
        if executor is None:
            for part in chunks:
                rows += _solve_chunk(part, s, leader, rules)
                if progress is not None:
                    progress(len(rows), len(masks))
        else:
            futures = [executor.submit(_solve_chunk, part, s, leader, rules) for part in chunks]
            for future in futures:
                rows += future.result()
                if progress is not None:
                    progress(len(rows), len(masks))
    finally:
        if own_pool is not None:
            own_pool.shutdown()
    # per action, its net in each sample: the four trumps, and pass (0)
    nets = {suit.char: [r[2 * k] for r in rows] for k, suit in enumerate(_SUIT_ORDER)}
    nets["pass"] = [0] * len(rows)
    stats = []
    for k, suit in enumerate(_SUIT_ORDER):
        xs = nets[suit.char]
        n = len(xs)
        mean, ci = _mean_ci95(xs)
        stats.append(TrumpStats(suit.char, mean, ci, sum(x < 0 for x in xs) / n,
                                sum(r[2 * k + 1] for r in rows) / n, n))
    best = max(stats, key=lambda t: t.mean)
    recommended = best.trump if best.mean > 0 else "pass"
    means = {t.trump: t.mean for t in stats} | {"pass": 0.0}
    runner_up = max((a for a in means if a != recommended), key=lambda a: means[a])
    margin, margin_ci = _mean_ci95([x - y for x, y in zip(nets[recommended], nets[runner_up])])
    return BidAnalysis(cards, SEATS[s], SEATS[d], tuple(stats), recommended,
                       time.perf_counter() - started, runner_up, margin, margin_ci)
