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

import itertools
import math
import random as _random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

from ..cards import CardSet, CardsLike, Decks, Suit, piquet_bit, piquet_mask
from ..checks import as_int, check_client, check_progress, check_seed
from ..chunks import chunk_size, map_chunks, worker_count
from ..deprecation import keyword_options
from ..errors import ArgumentError
from .dd import _check_dd_rules, _deal_value_pit, _solve_deal_line, solve_deal
from .deal import Deal, check_hand, format_hand
from .rules import SEATS, Rules, as_suit, seat_index
from .state import PlayState

__all__ = ["DDTable", "Par", "BidAnalysis", "TrumpStats", "dd_table", "par", "analyse_bid", "MAX_SAMPLES"]

TEAMS = ("NS", "EW")
_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def _rules(rules: Rules | str) -> Rules:
    """The rules of an analysis, checked for the solver before any work starts."""
    return _check_dd_rules(Rules.named(rules))


def _team(team: str | int) -> int:
    if isinstance(team, str) and team.upper() in TEAMS:
        return TEAMS.index(team.upper())
    seat = as_int(team)
    if seat is not None and seat in (0, 1):
        return seat
    raise ArgumentError(f"team must be 'NS' or 'EW', got {team!r}")


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


@keyword_options
def dd_table(deal: Deal | str, leader: str | int = "E", *, rules: Rules | str = Rules.AMSTERDAM) -> DDTable:
    """Solve every trump x playing team of a deal (8 exact double-dummy solves)."""
    deal, rules = Deal.of(deal), _rules(rules)
    lead = seat_index(leader)
    entries = {}
    for suit in _SUIT_ORDER:
        for team, declarer in (("NS", 0), ("EW", 1)):
            state = PlayState(deal, suit, declarer, lead, rules=rules)
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
    def value(self) -> int:
        """The par outcome, net for the playing team (``net``): the value of
        the result, as every solver's result has one."""
        return self.net

    @property
    def net_ns(self) -> int:
        """The outcome as N/S's score minus E/W's."""
        return self.net if seat_index(self.declarer) % 2 == 0 else -self.net

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"value": self.value, "declarer": self.declarer, "trump": self.trump, "net": self.net,
                "net_ns": self.net_ns, "bids": list(self.bids), "table": self.table.to_dict()}

    def pretty(self) -> str:
        """The par bidding and outcome in words, then the DD table.

        >>> from quartet_solver.klaverjas import Deal
        >>> print(par(Deal.random(seed=7), dealer="N").pretty().splitlines()[0])
        par (double dummy): E names ... net ... for E/W
        """
        dealer = (seat_index(self.bids_by()[0][0]) - 1) % 4
        bids = ", ".join(f"{seat} {'passes' if bid == 'pass' else 'names ' + Suit.parse(bid).symbol}"
                         for seat, bid in self.bids_by())
        forced = len(self.bids) == 5
        team = "N/S" if seat_index(self.declarer) % 2 == 0 else "E/W"
        trump = Suit.parse(self.trump)
        head = (f"par (double dummy): {self.declarer} names {trump.name.lower()} {trump.symbol}"
                f"{' (forced: all four passed)' if forced else ''}, net {self.net:+d} for {team}")
        return "\n".join([head, f"  bidding from dealer {SEATS[dealer]}'s left: {bids}", self.table.pretty()])

    def bids_by(self) -> list[tuple[str, str]]:
        """The par bids with their seats, in bidding order (the leader bids first)."""
        first = seat_index(self.table.leader)
        seats = [SEATS[(first + i) % 4] for i in range(4)]
        if len(self.bids) == 5:
            seats.append(self.declarer)
        return list(zip(seats, self.bids))

    def __str__(self) -> str:
        return self.pretty()


@keyword_options
def par(deal: Deal | str, dealer: str | int, *, rules: Rules | str = Rules.AMSTERDAM) -> Par:
    """The par outcome of the bidding (see :class:`Par`); the leader is the dealer's left.

    Backward induction over the four bidding turns: a player names the best trump
    for their team (by the DD table) unless passing leads to a better outcome for
    their team; when all pass, the forced player names their team's best trump.
    """
    deal, rules = Deal.of(deal), _rules(rules)
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
    margin larger than ``margin_ci95`` says the choice is not sampling noise;
    otherwise it is a :attr:`close_call`.  ``seed`` and ``rules`` are the
    analysis's own, to repeat it.
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
    seed: int | str | None = None
    rules: Rules = Rules.AMSTERDAM

    @property
    def value(self) -> float:
        """The mean net of the recommended action for the hand's team (a pass
        counts as 0)."""
        return max(0.0, max(s.mean for s in self.stats))

    @property
    def close_call(self) -> bool:
        """The margin lies inside its 95% confidence interval, or there is one
        sample only (no interval at all): the samples do not tell the
        recommended action from the runner-up."""
        return self.stats[0].samples < 2 or self.margin <= self.margin_ci95

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"value": self.value, "hand": str(self.hand), "seat": self.seat, "dealer": self.dealer,
                "stats": [s.to_dict() for s in self.stats], "recommended": self.recommended,
                "runner_up": self.runner_up, "margin": self.margin, "margin_ci95": self.margin_ci95,
                "close_call": self.close_call, "seed": self.seed, "rules": self.rules.to_dict(),
                "seconds": self.seconds}

    def pretty(self) -> str:
        """Text table."""
        lines = [f"{self.seat} holds {format_hand(self.hand)} (dealer {self.dealer}); "
                 f"{self.stats[0].samples} double-dummy samples per trump"]
        lines.append(f"  {'trump':<6}{'mean net':>10}{'±95%':>8}{'P(nat)':>9}{'P(pit)':>9}")
        for s in self.stats:
            suit = Suit.parse(s.trump)
            lines.append(f"  {suit.symbol} {s.trump:<4}{s.mean:>10.1f}{s.ci95:>8.1f}{s.p_nat:>9.3f}{s.p_pit:>9.3f}")
        close = (f" — too close to call: {self.runner_up} is as good within the samples' noise"
                 if self.close_call else "")
        lines.append(f"recommended: {self.recommended}{close}")
        lines.append(f"margin over {self.runner_up}: {self.margin:.1f} ± {self.margin_ci95:.1f} "
                     "(paired: the same samples for every trump)")
        return "\n".join(lines)


def _mean_ci95(n: int, total: int, squares: int) -> tuple[float, float]:
    """The mean of ``n`` integers from their sum and their sum of squares, and
    the half-width of its 95% confidence interval (normal approximation; 0 for
    a single value).  Exact integer arithmetic up to the final division, so the
    result does not depend on the order the values came in.

    >>> _mean_ci95(2, 1 + 3, 1 * 1 + 3 * 3)
    (2.0, 1.96)
    """
    mean = total / n
    var = (n * squares - total * total) / (n * (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(max(var, 0.0) / n)


#: The action names of the running sums: the four trumps, then pass (a net of 0).
_ACTIONS = tuple(s.char for s in _SUIT_ORDER) + ("pass",)


class _BidSums:
    """Running sums of the per-sample nets of :func:`analyse_bid`'s five
    actions (the four trumps and pass, whose net is 0): the count, per action
    the sum, per pair of actions the sum of products (so the mean and interval
    of any action and of any pair's difference), per trump the nat and pit
    counts.  O(1) memory in the number of samples.

    >>> sums = _BidSums()
    >>> sums.add([(10, 0, -5, 0, 30, 1, 0, 0), (20, 0, 5, 0, 10, 0, -2, 0)])
    >>> sums.mean_ci95("c")[0], sums.mean_ci95("h", "c")[0], sums.nat[1], sums.pit[2]
    (15.0, 5.0, 1, 1)
    """

    def __init__(self) -> None:
        self.n = 0
        self.total = [0] * 5
        self.products = [[0] * 5 for _ in range(5)]
        self.nat = [0] * 4
        self.pit = [0] * 4

    def add(self, rows: Sequence[tuple[int, ...]]) -> None:
        """Add the rows of :func:`_solve_chunk`: (net_c, pit_c, net_d, ...)."""
        total, products = self.total, self.products
        for row in rows:
            nets = row[0::2]
            for a, x in enumerate(nets):
                total[a] += x
                self.nat[a] += x < 0
                self.pit[a] += row[2 * a + 1]
                pa = products[a]
                for b in range(a, 4):
                    pa[b] += x * nets[b]
            self.n += 1
        for a in range(4):                  # the products are symmetric
            for b in range(a):
                products[a][b] = products[b][a]

    def mean_ci95(self, action: str, minus: str = "pass") -> tuple[float, float]:
        """The mean and 95% interval of the net of ``action`` less that of
        ``minus`` in the same sample (by default pass: the action's own net)."""
        a, b = _ACTIONS.index(action), _ACTIONS.index(minus)
        p = self.products
        total = self.total[a] - self.total[b]
        squares = p[a][a] + p[b][b] - 2 * p[a][b]
        return _mean_ci95(self.n, total, squares)


def _sample_masks(hand: CardSet, seat: int, samples: int,
                  seed: int | str | None) -> Iterator[tuple[int, ...]]:
    """``samples`` deals with ``hand`` at ``seat`` and the unseen cards dealt
    uniformly at random to the other seats (deterministic for ``seed``), as the
    four hands' kernel masks (:func:`~quartet_solver.cards.piquet_mask`): the sampling of
    :func:`analyse_bid`, which needs no :class:`Deal` (the tests check it
    against a plain sampler that builds them).  A generator: one random stream
    made as the deals are taken, so memory does not grow with ``samples`` and
    the deals do not depend on how they are cut into chunks."""
    unseen = [piquet_bit(c) for c in (Decks.piquet() - hand).cards()]
    rng = _random.Random(seed)
    own = piquet_mask(hand)
    others = [s for s in range(4) if s != seat]
    for _ in range(samples):
        rng.shuffle(unseen)
        hands = [own] * 4
        for i, s in enumerate(others):
            hands[s] = sum(1 << b for b in unseen[8 * i : 8 * i + 8])
        yield tuple(hands)


def _chunks(deals: Iterator[tuple[int, ...]], size: int) -> Iterator[list[tuple[int, ...]]]:
    """The deals in lists of ``size`` (the last one shorter), each taken from
    the stream only when it is asked for.

    >>> [len(c) for c in _chunks(iter(range(7)), 3)]
    [3, 3, 1]
    """
    while part := list(itertools.islice(deals, size)):
        yield part


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


#: The most samples :func:`analyse_bid` takes (about a day of solving on one
#: CPU); a larger count is refused with an
#: :class:`~quartet_solver.errors.InvalidStateError`.
MAX_SAMPLES = 10_000_000
_MAX_CHUNK = 64         # samples in a chunk at most: a fraction of a second of solving


@keyword_options
def analyse_bid(
    hand: CardsLike,
    *,
    seat: str | int = "E",
    dealer: str | int = "N",
    samples: int = 500,
    rules: Rules | str = Rules.AMSTERDAM,
    seed: int | str | None = None,
    executor: Executor | None = None,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    client: Executor | None = None,
) -> BidAnalysis:
    """The value of naming each trump with ``hand`` at ``seat``.

    The 24 unseen cards are dealt uniformly at random to the other seats
    ``samples`` times (at most :data:`MAX_SAMPLES`, ten million; deterministic
    for ``seed``, an int or a string; ``None`` draws a fresh one, which the
    result reports); each sample is solved double dummy for each trump with
    this seat's team playing and the dealer's left leading.  Reports per trump the mean net score with a 95% confidence interval, P(nat)
    (the playing team goes nat under best play) and P(pit) (a principal
    variation takes all eight tricks); the recommendation is the trump with the
    best mean if that mean is positive, else ``"pass"``, and its margin over the
    runner-up comes with a paired confidence interval (:class:`BidAnalysis`).

    The samples are made lazily, from one random stream, in chunks of at most
    64: a chunk is dealt just before it is submitted, at most four chunks per
    worker are submitted and not yet finished, and the results are kept as
    running sums, so memory does not grow with ``samples``; the result is the
    same for a seed whatever the executor and the number of workers.

    Work goes to ``executor`` if given, any executor with ``submit(fn, *args)
    -> future`` (``concurrent.futures``, a dask.distributed ``Client``), with
    ``processes`` as its number of workers (``client=``, the name the other
    batch functions use, is the same option; default: its ``_max_workers``, as
    the ``concurrent.futures`` executors have, else the usable CPUs); else to
    ``processes`` worker processes of its own (default: the CPUs this process
    may run on, by its affinity mask, when ``samples >= 100``, else
    in-process).  The solver releases the GIL and each thread has its own
    kernel, so a ``ThreadPoolExecutor`` runs the chunks in parallel too,
    without starting processes.  ``progress(done, total)`` is called as chunks
    finish, with the number of deals solved.

    An exception, a ``KeyboardInterrupt`` (Ctrl-C) too, stops the analysis at
    once and propagates: the chunks not started are cancelled and no more are
    submitted; the own worker processes ignore SIGINT (the Ctrl-C of a
    terminal reaches them too) and are terminated in the middle of their
    chunks.  A given executor is not shut down: its chunks already running
    finish in the background (a fraction of a second each).
    """
    started = time.perf_counter()
    if client is not None:
        if executor is not None:
            raise ArgumentError("give the executor once: executor= or client=, not both")
        executor = client
    check_client(executor, "executor")
    check_progress(progress)
    cards = check_hand(hand)
    n_samples, n_processes = as_int(samples), as_int(processes)
    if n_samples is None or n_samples < 1:
        raise ArgumentError(f"samples must be a positive int, got {samples!r}")
    if processes is not None and (n_processes is None or n_processes < 1):
        raise ArgumentError(f"processes must be a positive int or None, got {processes!r}")
    if n_samples > MAX_SAMPLES:
        raise ArgumentError(f"samples must be at most MAX_SAMPLES = {MAX_SAMPLES:,}, got {samples!r}")
    samples, processes = n_samples, n_processes
    seed = check_seed(seed)
    if seed is None:    # a fresh seed, reported with the result: any run can be repeated
        seed = _random.SystemRandom().randrange(1 << 63)
    rules = _rules(rules)
    s, d = seat_index(seat), seat_index(dealer)
    leader = (d + 1) % 4
    workers = worker_count(executor, processes, samples, parallel_from=100)
    chunk = chunk_size(samples, workers, _MAX_CHUNK)
    parts = _chunks(_sample_masks(cards, s, samples, seed), chunk)
    sums = _BidSums()

    def done(rows: list[tuple[int, ...]]) -> None:
        sums.add(rows)
        if progress is not None:
            progress(sums.n, samples)

    map_chunks(_solve_chunk, parts, (s, leader, rules), done, executor, workers)
    n = sums.n
    stats = []
    for k, suit in enumerate(_SUIT_ORDER):
        mean, ci = sums.mean_ci95(suit.char)
        stats.append(TrumpStats(suit.char, mean, ci, sums.nat[k] / n, sums.pit[k] / n, n))
    best = max(stats, key=lambda t: t.mean)
    recommended = best.trump if best.mean > 0 else "pass"
    means = {t.trump: t.mean for t in stats} | {"pass": 0.0}
    runner_up = max((a for a in means if a != recommended), key=lambda a: means[a])
    margin, margin_ci = sums.mean_ci95(recommended, runner_up)
    return BidAnalysis(cards, SEATS[s], SEATS[d], tuple(stats), recommended,
                       time.perf_counter() - started, runner_up, margin, margin_ci, seed, rules)
