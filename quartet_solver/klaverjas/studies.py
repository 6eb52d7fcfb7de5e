"""Studies over many random deals: which hands make a good trump suit.

:func:`bid_study` solves random deals double dummy (:func:`~.batch.dd_tables`,
the dealer's left leading) and looks at every seat's hand x every trump with
that seat's team playing: the features of the hand for that trump (jack, nine,
ace, the number of trumps, aces and tens outside) against the outcome (made or
nat, the net score, pit).  It reports P(made) and the mean net by trump
holding with 95% confidence intervals, and checks two pieces of bidding
advice against the data.

The outcomes are **double dummy**: every hand is seen and both teams play
perfectly, so they say what the cards are worth, not what players who see
only their own hand get out of them.

>>> study = bid_study(4, seed=1, processes=1)
>>> study.cases, len(study.advice)
(64, 2)
>>> print(study.pretty().splitlines()[0])
Bidding study: 4 random deals (seed 1), ...
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..checks import as_int
from ..errors import ArgumentError
from ..figures import pyplot, save_figure
from .analysis import _rules
from .batch import _dd_batch, _random_masks
from .rules import Rules, seat_index

__all__ = ["GroupStats", "AdviceCheck", "BidStudy", "bid_study", "hand_features"]

# kernel bits of a card: 4 * rank + suit, ranks 7 8 9 T J Q K A = 0..7, suits c d h s = 0..3
_NINE, _TEN, _JACK, _ACE = 2, 3, 4, 7
HOLDINGS = ("J+9", "J, no 9", "9+A, no J", "9, no J or A", "no J or 9")
"""The trump holding classes of :func:`bid_study`, strongest first."""
TRUMP_COUNTS = ("0", "1", "2", "3", "4", "5+")
"""The trump count buckets of :func:`bid_study`."""
POSITIONS = ("1st (leads)", "2nd", "3rd (leader's partner)", "4th (dealer)")
Z95 = 1.959963984540054


@dataclass(frozen=True)
class GroupStats:
    """One group of cases: how many, P(made) and the mean net of the playing
    team with 95% confidence half-widths, P(pit).  The intervals are
    clustered by deal (the cases of one deal are not independent) and use the
    normal approximation."""

    label: str
    n: int
    p_made: float
    p_made_ci: float
    mean_net: float
    mean_net_ci: float
    p_pit: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (an empty group's numbers as None)."""

        def num(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {"label": self.label, "n": self.n, "p_made": num(self.p_made), "p_made_ci95": num(self.p_made_ci),
                "mean_net": num(self.mean_net), "mean_net_ci95": num(self.mean_net_ci), "p_pit": num(self.p_pit)}

    def row(self, width: int = 26) -> str:
        """A text row: label, n, P(made) and mean net with their intervals, P(pit)."""
        if self.n == 0:
            return f"  {self.label:<{width}}{0:>8}"
        return (f"  {self.label:<{width}}{self.n:>8,}   {self.p_made:6.3f} ±{self.p_made_ci:5.3f}"
                f"   {self.mean_net:+7.1f} ±{self.mean_net_ci:5.1f}   {self.p_pit:6.3f}")


_HEADER = f"  {'':<26}{'n':>8}   {'P(made) ±95%':>13}   {'mean net ±95%':>14}   {'P(pit)':>6}"


@dataclass(frozen=True)
class AdviceCheck:
    """A piece of bidding advice, the groups of cases that test it, and the
    verdict the numbers give (``supported``, ``contradicted`` or ``mixed``),
    with the reason in words."""

    advice: str
    groups: tuple[GroupStats, ...]
    verdict: str
    reason: str

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"advice": self.advice, "groups": [g.to_dict() for g in self.groups], "verdict": self.verdict,
                "reason": self.reason}


@dataclass(frozen=True)
class BidStudy:
    """The outcome of :func:`bid_study`: the groups by trump holding (alone
    and x the number of trumps), by aces outside and by position for the
    suits the first advice picks, and the checks of the advice."""

    deals: int
    seed: int | str | None
    rules: Rules
    cases: int
    by_holding: tuple[GroupStats, ...]
    by_holding_count: tuple[tuple[str, str, GroupStats], ...]  # (holding, trump count, stats)
    by_side_aces: tuple[GroupStats, ...]
    by_side_tens: tuple[GroupStats, ...]
    by_position: tuple[GroupStats, ...]
    advice: tuple[AdviceCheck, ...]
    seconds: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "study": "bids", "analysis": "double-dummy (every hand seen)", "deals": self.deals, "seed": self.seed,
            "rules": self.rules.to_dict(), "cases": self.cases, "pass_counts_as": 0,
            "by_holding": [g.to_dict() for g in self.by_holding],
            "by_holding_and_trumps": [{"holding": h, "trumps": c, **g.to_dict()} for h, c, g in self.by_holding_count],
            "by_side_aces": [g.to_dict() for g in self.by_side_aces],
            "by_side_tens": [g.to_dict() for g in self.by_side_tens],
            "by_position": [g.to_dict() for g in self.by_position],
            "advice": [a.to_dict() for a in self.advice], "seconds": self.seconds,
        }

    def pretty(self) -> str:
        """The tables and the advice checks as text."""
        out = [
            f"Bidding study: {self.deals:,} random deals (seed {self.seed}), {self.rules.variant} rules; "
            f"every seat's hand x every trump with that seat's team playing ({self.cases:,} cases), "
            "the dealer's left leading.",
            "Outcomes are DOUBLE DUMMY (every hand seen, perfect play by both teams), not what players "
            "who see only their own hand get; net is the playing team's score minus the other team's "
            "(a pass counts as 0); 95% intervals clustered by deal.",
            "",
            "By trump holding:",
            _HEADER,
            *(g.row() for g in self.by_holding),
            "",
            "By trump holding x number of trumps:",
            _HEADER,
        ]
        out += [g.row() for _, _, g in self.by_holding_count if g.n]
        out += ["", "Suits the first advice picks (J, or 9+A, and 3+ trumps), by aces outside trumps:", _HEADER,
                *(g.row() for g in self.by_side_aces),
                "", "The same suits by tens outside trumps:", _HEADER, *(g.row() for g in self.by_side_tens),
                "", "The same suits by the seat's place in the bidding (the first seat leads):", _HEADER,
                *(g.row() for g in self.by_position), ""]
        for check in self.advice:
            out += [f"Advice: \"{check.advice}\"", _HEADER, *(g.row() for g in check.groups),
                    f"  -> {check.verdict}: {check.reason}", ""]
        out.append(f"({self.seconds:.1f} s)")
        return "\n".join(out)

    def plot(self, path: str) -> None:
        """A bar chart (PNG or any format matplotlib writes, by the file's
        suffix): P(made) and the mean net by trump holding x number of
        trumps, with 95% error bars (groups of fewer than 30 cases left out).
        Needs matplotlib (the ``plot`` extra)."""
        plt = pyplot()
        fig, axes = plt.subplots(2, 1, figsize=(9, 7.5), sharex=True)
        counts = TRUMP_COUNTS
        width = 0.8 / len(HOLDINGS)
        x = np.arange(len(counts))
        cells = {(h, c): g for h, c, g in self.by_holding_count}
        drawn = False
        for k, holding in enumerate(HOLDINGS):
            shown = [(i, cells[(holding, c)]) for i, c in enumerate(counts) if cells[(holding, c)].n >= 30]
            if not shown:
                continue
            drawn = True
            xs = x[[i for i, _ in shown]] + (k - (len(HOLDINGS) - 1) / 2) * width
            groups = [g for _, g in shown]
            axes[0].bar(xs, [g.p_made for g in groups], width, yerr=[g.p_made_ci for g in groups],
                        capsize=2, label=holding)
            axes[1].bar(xs, [g.mean_net for g in groups], width, yerr=[g.mean_net_ci for g in groups],
                        capsize=2, label=holding)
        axes[0].set_ylabel("P(made)")
        axes[0].set_ylim(0, 1.25)
        axes[0].set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
        if drawn:
            axes[0].legend(title="trump holding", fontsize=8, ncol=3, loc="upper left")
        axes[1].set_ylabel("mean net (playing team)")
        axes[1].axhline(0, color="black", linewidth=0.8)
        axes[1].set_xticks(x, counts)
        axes[1].set_xlabel("number of trumps in the hand")
        fig.suptitle(f"Klaverjas: the hand's trump holding against the double-dummy outcome\n"
                     f"{self.deals:,} random deals, {self.cases:,} hand x trump cases, 95% intervals")
        fig.tight_layout()
        save_figure(fig, path, dpi=110)




def hand_features(masks: np.ndarray) -> dict[str, np.ndarray]:
    """Features of hands (kernel masks, :func:`~quartet_solver.cards.piquet_mask`) for each trump:
    arrays of shape ``masks.shape + (4,)``, the last axis the trump (c, d,
    h, s): ``jack``, ``nine``, ``ace``, ``ten`` (held in trumps),
    ``trumps`` (how many), ``side_aces`` and ``side_tens`` (outside trumps).

    >>> from quartet_solver.klaverjas import Deal
    >>> hand = Deal.random(seed=1).hands[0]
    >>> from quartet_solver.cards import piquet_mask
    >>> f = hand_features(np.array([piquet_mask(hand)]))
    >>> int(f["trumps"][0].sum()), int(f["side_aces"][0, 0] + f["ace"][0, 0]) == sum(c.rank.char == "A" for c in hand)
    (8, True)
    """
    m = np.asarray(masks, dtype=np.int64)[..., None]
    suit = np.arange(4)

    def held(rank: int) -> np.ndarray:
        return ((m >> (4 * rank + suit)) & 1).astype(bool)

    trumps = sum(((m >> (4 * r + suit)) & 1) for r in range(8))
    aces = held(_ACE)
    tens = held(_TEN)
    return {"jack": held(_JACK), "nine": held(_NINE), "ace": aces, "ten": tens,
            "trumps": np.asarray(trumps, dtype=np.int64),
            "side_aces": aces.sum(axis=-1, keepdims=True) - aces,
            "side_tens": tens.sum(axis=-1, keepdims=True) - tens}


def _group(label: str, chosen: np.ndarray, net: np.ndarray, pit: np.ndarray, deal: np.ndarray,
           deals: int) -> GroupStats:
    """The stats of the cases ``chosen`` (a boolean mask over the flat cases),
    their intervals clustered by deal: var(mean) = G/(G-1) * sum over deals
    of (sum of x - mean)^2 / n^2, with G the deals that have a case."""
    n = int(chosen.sum())
    if n == 0:
        return GroupStats(label, 0, math.nan, math.nan, math.nan, math.nan, math.nan)
    ids = deal[chosen]
    clusters = int(np.count_nonzero(np.bincount(ids, minlength=deals)))

    def mean_ci(x: np.ndarray) -> tuple[float, float]:
        mean = float(x.mean())
        if clusters < 2:
            return mean, 0.0
        sums = np.bincount(ids, weights=x - mean, minlength=deals)
        var = clusters / (clusters - 1) * float((sums * sums).sum()) / (n * n)
        return mean, Z95 * math.sqrt(max(var, 0.0))

    values = net[chosen].astype(np.float64)
    p, p_ci = mean_ci((values >= 0).astype(np.float64))
    mean, mean_ci95 = mean_ci(values)
    return GroupStats(label, n, p, p_ci, mean, mean_ci95, float(pit[chosen].mean()))


def bid_study(
    deals: int,
    seed: int | str | None = None,
    rules: Rules | str = Rules.AMSTERDAM,
    client: Any = None,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    dealer: str | int = "N",
) -> BidStudy:
    """Solve ``deals`` random deals double dummy (deal ``i`` the ``i``-th of
    :func:`~.batch.random_deals` for ``seed``; ``None`` draws a fresh seed,
    which the result reports) with the dealer's left leading, and relate each
    seat's hand x trump, with that seat's team playing, to the outcome
    (:class:`BidStudy`).  ``client``, ``processes`` and ``progress`` go to
    :func:`~.batch.dd_tables`.  The dealer only fixes the seats' places: the
    deals are random.

    The advice checked:

    1. *Choose trump with the jack, or the nine and the ace, and at least
       three trumps*: the suits it picks, against the suits with the honours
       but fewer trumps, and the long suits without them.  Supported when the
       picked suits are made more often and score more than both, and more
       than a pass (0).
    2. *Pass a hand that only looks good in a suit without the jack or the
       nine*: hands with no suit that the first advice picks, but a suit of
       three or more cards with its ace or ten and neither the jack nor the
       nine (the "good-looking" suit: the longest such, then the one with the
       most card points); playing that suit against passing (0).
    """
    started = time.perf_counter()
    number = as_int(deals)
    if number is None or number < 1:
        raise ArgumentError(f"a study needs a number of random deals >= 1, got {deals!r}")
    rules = _rules(rules)
    d = seat_index(dealer)
    leader = (d + 1) % 4
    nets, pits, key = _dd_batch(number, leader, rules, client, processes, seed, progress, pit=True)
    assert key is not None      # random deals always have a seed
    n = len(nets)
    masks = np.array([_random_masks(key, i) for i in range(n)], dtype=np.int64)   # (deal, seat)
    f = hand_features(masks)                                                       # (deal, seat, trump)
    team = np.arange(4) % 2
    net = np.transpose(nets, (0, 2, 1))[:, team, :]                                # (deal, seat, trump)
    pit = np.transpose(pits, (0, 2, 1))[:, team, :]
    deal_id = np.broadcast_to(np.arange(n)[:, None, None], net.shape)
    position = np.broadcast_to(((np.arange(4) - leader) % 4)[None, :, None], net.shape)
    jack, nine, ace, count = f["jack"], f["nine"], f["ace"], f["trumps"]
    holding = np.select([jack & nine, jack, nine & ace, nine], [0, 1, 2, 3], default=4)
    bucket = np.minimum(count, 5)
    flat = {"net": net.ravel(), "pit": pit.ravel(), "deal": deal_id.ravel()}

    def group(label: str, chosen: np.ndarray) -> GroupStats:
        return _group(label, np.asarray(chosen).ravel(), flat["net"], flat["pit"], flat["deal"], n)

    by_holding = tuple(group(h, holding == k) for k, h in enumerate(HOLDINGS))
    by_count = tuple((h, c, group(f"{h}, {c} trump{'s' if c != '1' else ''}", (holding == k) & (bucket == j)))
                     for k, h in enumerate(HOLDINGS) for j, c in enumerate(TRUMP_COUNTS))
    honours = jack | (nine & ace)
    picked = honours & (count >= 3)
    side = np.minimum(f["side_aces"], 3)
    by_aces = tuple(group(f"{a}{'+' if a == 3 else ''} ace{'s' if a != 1 else ''} outside", picked & (side == a))
                    for a in range(4))
    tens = np.minimum(f["side_tens"], 3)
    by_tens = tuple(group(f"{a}{'+' if a == 3 else ''} ten{'s' if a != 1 else ''} outside", picked & (tens == a))
                    for a in range(4))
    by_position = tuple(group(p, picked & (position == k)) for k, p in enumerate(POSITIONS))
    advice = (_check_first(group, picked, honours, count, jack), _check_second(group, f, picked, net))
    return BidStudy(n, key, rules, int(net.size), by_holding, by_count, by_aces, by_tens, by_position, advice,
                    time.perf_counter() - started)


def _above(a: GroupStats, b: GroupStats, what: str) -> bool:
    """``a``'s ``what`` (``p_made`` or ``mean_net``) above ``b``'s by more
    than their intervals together (a rough test: the groups share deals)."""
    ci = {"p_made": "p_made_ci", "mean_net": "mean_net_ci"}[what]
    gap = getattr(a, what) - getattr(b, what)
    return bool(a.n and b.n and gap > math.hypot(getattr(a, ci), getattr(b, ci)))


def _check_first(group: Callable[[str, np.ndarray], GroupStats], picked: np.ndarray, honours: np.ndarray,
                 count: np.ndarray, jack: np.ndarray) -> AdviceCheck:
    chosen = group("picked: J or 9+A, 3+ trumps", picked)
    short = group("J or 9+A, 1-2 trumps", honours & (count < 3))
    long_ = group("3+ trumps, no J, no 9+A", ~honours & (count >= 3))
    with_jack = group("  of which with the J", picked & jack)
    nine_ace = group("  of which 9+A, no J", picked & ~jack)
    groups = (chosen, with_jack, nine_ace, short, long_)
    hands = float(picked.any(axis=-1).mean())
    better = all(_above(chosen, other, w) for other in (short, long_) for w in ("p_made", "mean_net"))
    positive = chosen.mean_net - chosen.mean_net_ci > 0
    lines = (f"{hands:.0%} of hands have such a suit; the picked suits are made {chosen.p_made:.0%} of the time for a mean net of {chosen.mean_net:+.0f}, "
             f"against {short.p_made:.0%} / {short.mean_net:+.0f} with the honours but fewer trumps and "
             f"{long_.p_made:.0%} / {long_.mean_net:+.0f} for long suits without them; "
             f"9+A without the J is made {nine_ace.p_made:.0%} (mean {nine_ace.mean_net:+.0f}) against "
             f"{with_jack.p_made:.0%} ({with_jack.mean_net:+.0f}) with the J")
    if better and positive:
        verdict = "supported"
    elif not better and not positive:
        verdict = "contradicted"
    else:
        verdict = "mixed"
    return AdviceCheck("choose trump with the jack, or the nine and the ace, and at least three trumps",
                       groups, verdict, lines)


def _check_second(group: Callable[[str, np.ndarray], GroupStats], f: dict[str, np.ndarray],
                  picked: np.ndarray, net: np.ndarray) -> AdviceCheck:
    count, jack, nine = f["trumps"], f["jack"], f["nine"]
    looks = (count >= 3) & (f["ace"] | f["ten"]) & ~jack & ~nine              # (deal, seat, trump)
    only = looks & ~picked.any(axis=-1, keepdims=True)
    # the good-looking suit of a hand: the longest, then the most card points (A 11, T 10)
    score = np.where(only, count * 100 + f["ace"] * 11 + f["ten"] * 10, -1)
    best = np.argmax(score, axis=-1)[..., None]
    chosen = only & (np.arange(4) == best)
    played = group("its good-looking suit played", chosen)
    four = group("  of which 4+ cards", chosen & (count >= 4))
    with_jack = group("(compare: 3+ with the J)", picked & jack)
    beats_pass = played.mean_net - played.mean_net_ci > 0
    loses = played.mean_net + played.mean_net_ci < 0
    hands = int(only.any(axis=-1).sum())
    reason = (f"{hands:,} of {only.shape[0] * only.shape[1]:,} hands only look good in such a suit; played, "
              f"it is made {played.p_made:.0%} of the time for a mean net of {played.mean_net:+.0f} "
              f"(4+ cards: {four.p_made:.0%}, {four.mean_net:+.0f}), against a pass's 0")
    verdict = "supported" if loses else "contradicted" if beats_pass else "mixed"
    return AdviceCheck("pass a hand that only looks good in a suit without the jack or the nine",
                       (played, four, with_jack), verdict, reason)

