"""Simulate many Kwartet games between bots: win rates, quartets, game length.

Bots are given by name (``"novice"``, ``"memory"``, ``"inference"``, ``"planning"``), class or
instance, one per seat; with ``rotate=True`` (the default) bot ``i`` sits in
seat ``(i + g) % players`` in game ``g``, so every bot plays every seat equally.
Games between novice bots under the base rules (side pile or dealer remainder,
bonus turn) run in a compiled kernel with its own random stream; everything
else runs through :class:`~quartet_solver.kwartet.game.Game`.

>>> r = simulate(["novice"] * 4, games=200, seed=1)
>>> r.games, round(sum(s.win_rate for s in r.stats), 6)
(200, 1.0)
>>> r2 = simulate(["inference", "novice", "novice"], games=4, seed=2, deck=Deck.standard("AKQJT9"))
>>> [s.name for s in r2.stats]
['inference', 'novice', 'novice']
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from .. import _core
from ..checks import check_int
from ..deprecation import keyword_options
from ..errors import InvalidStateError
from .bots import Bot, InferenceBot, MemoryBot, NoviceBot, check_bots, play
from .decks import Deck
from .game import Game
from .planning import PlanningBot
from .rules import Rules, check_count, check_players

__all__ = ["simulate", "SimulationResult", "BotStats", "BOTS", "make_bot", "wilson"]

BOTS: dict[str, type[Bot]] = {
    "novice": NoviceBot, "memory": MemoryBot, "inference": InferenceBot, "planning": PlanningBot,
}
BotSpec = Union[str, type, Bot]


@keyword_options
def make_bot(spec: BotSpec, *, seed: int | None = None) -> Bot:
    """A bot from a name, a :class:`~.bots.Bot` subclass or an instance.

    >>> make_bot("memory", seed=1)
    MemoryBot(seed=1)
    """
    if isinstance(spec, Bot):
        check_bots([spec])
        return spec
    if isinstance(spec, str):
        key = spec.strip().lower()
        if key not in BOTS:
            raise InvalidStateError(f"unknown bot {spec!r} (have {', '.join(BOTS)})")
        return BOTS[key](seed=seed)
    if isinstance(spec, type) and issubclass(spec, Bot):
        if spec.choose is Bot.choose:
            raise InvalidStateError(f"bot class {spec.__name__} does not implement choose()")
        return spec(seed=seed)
    raise InvalidStateError(f"not a bot: {spec!r}")


def bot_seed(seed: int, index: int) -> int:
    """The seed :func:`simulate` gives the bot it makes from the ``index``-th spec of a
    run with ``seed`` (a bot passed as an instance keeps its own).

    >>> bot_seed(2, 1)
    2019
    """
    return seed * 1009 + index


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed in ``n`` trials.

    >>> [round(x, 3) for x in wilson(0.5, 100)]
    [0.404, 0.596]
    """
    if n <= 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class BotStats:
    """Results of one bot (one entry of the ``bots`` list) over all games."""

    name: str
    games: int
    wins: float  # ties shared: 1/k to each of k tied winners
    win_rate: float
    win_ci: tuple[float, float]  # 95% Wilson interval
    quartets_mean: float
    quartets_ci: tuple[float, float]  # 95% normal interval of the mean
    quartet_hist: tuple[int, ...]  # games ending with 0, 1, 2, ... quartets

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_ci": list(self.win_ci),
            "quartets_mean": self.quartets_mean,
            "quartets_ci": list(self.quartets_ci),
            "quartet_hist": list(self.quartet_hist),
        }


@dataclass(frozen=True)
class SimulationResult:
    """Outcome of :func:`simulate`.  The game length (``asks_mean``,
    ``asks_median``, ``asks_p90``) is that of the finished games (0 when none
    finished); ``unfinished`` counts the games stopped at ``max_asks``."""

    deck: str
    players: int
    rules: Rules
    games: int
    seed: int
    rotate: bool
    stats: tuple[BotStats, ...]
    asks_mean: float
    asks_median: float
    asks_p90: float
    unfinished: int
    seconds: float
    fast_path: bool

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "games": self.games,
            "seed": self.seed,
            "rotate": self.rotate,
            "bots": [s.to_dict() for s in self.stats],
            "asks": {"mean": self.asks_mean, "median": self.asks_median, "p90": self.asks_p90},
            "unfinished": self.unfinished,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "fast_path": self.fast_path,
        }

    def pretty(self) -> str:
        """A text table of the results."""
        lines = [
            f"{self.games} games, deck {self.deck!r}, {self.players} players, {self.rules!r}, seed {self.seed}"
            f"{', seats rotated' if self.rotate else ''}",
            f"{'seat':>4} {'bot':<10} {'win rate':>9} {'95% CI':>17} {'quartets':>9} {'95% CI':>15}  quartet counts 0,1,2,...",
        ]
        for i, s in enumerate(self.stats):
            lines.append(
                f"{i:>4} {s.name:<10} {s.win_rate:>9.3f} [{s.win_ci[0]:.3f}, {s.win_ci[1]:.3f}] "
                f"{s.quartets_mean:>9.2f} [{s.quartets_ci[0]:.2f}, {s.quartets_ci[1]:.2f}]  "
                + " ".join(str(x) for x in s.quartet_hist)
            )
        lines.append(
            f"game length (asks): mean {self.asks_mean:.1f}, median {self.asks_median:.0f}, 90th pct {self.asks_p90:.0f}"
            + (f"; {self.unfinished} unfinished" if self.unfinished else "")
        )
        lines.append(f"{self.seconds:.2f} s, {self.games_per_second:,.0f} games/s{' (compiled kernel)' if self.fast_path else ''}")
        return "\n".join(lines)


def _shares(quartets: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Win shares per game and seat (ties: most quartets, then earlier last lay)."""
    best = quartets.max(axis=1, keepdims=True)
    tied = quartets == best
    lastm = np.where(tied, last, np.iinfo(np.int32).max)
    first = lastm.min(axis=1, keepdims=True)
    win = tied & ((best == 0) | (lastm == first))
    return win / win.sum(axis=1, keepdims=True)


@keyword_options
def simulate(
    bots: Sequence[BotSpec],
    *,
    games: int = 1000,
    seed: int = 0,
    deck: Deck | None = None,
    rules: Rules | None = None,
    rotate: bool = True,
    progress: Callable[[int, int], None] | None = None,
    max_asks: int = 100_000,
    fast: bool = True,
) -> SimulationResult:
    """Play ``games`` games between ``bots`` (one per seat, 3-6) and collect statistics.

    ``seed`` fixes everything (deals and the bots' choices); ``progress(done, total)``
    is called now and then.  ``fast=False`` forces the Python engine.
    """
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise InvalidStateError(f"bots must be a list of bots, one per seat, got {bots!r}")
    players = check_players(len(bots))
    games = check_int(games, "games", low=1)
    seed = check_int(seed, "seed", low=0)
    max_asks = check_count(max_asks, "max_asks")
    deck = Deck.themed() if deck is None else deck
    if not isinstance(deck, Deck):
        raise InvalidStateError(f"deck must be a kwartet.Deck, got {deck!r}")
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidStateError(f"rules must be a kwartet.Rules, got {rules!r}")
    for flag, value in (("rotate", rotate), ("fast", fast)):
        if not isinstance(value, bool):
            raise InvalidStateError(f"{flag} must be a bool, got {value!r}")
    if progress is not None and not callable(progress):
        raise InvalidStateError(f"progress must be a function progress(done, total) or None, got {progress!r}")
    n = players
    names = []
    instances: list[Bot] = []
    for i, spec in enumerate(bots):
        b = make_bot(spec, seed=bot_seed(seed, i))
        instances.append(b)
        names.append(b.name)
    check_bots(instances)
    try:
        quartets = np.zeros((games, n), dtype=np.int32)  # by bot index
        last = np.full((games, n), -1, dtype=np.int32)
        asks = np.zeros(games, dtype=np.int64)
    except (ValueError, MemoryError):
        raise InvalidStateError(f"games={games} is too many to keep the results of in memory") from None
    unfinished = 0
    t0 = time.perf_counter()
    use_fast = (
        fast and all(type(b) is NoviceBot for b in instances) and not rules.draw_pile and not rules.memory
    )
    if use_fast:
        chunk = 20000
        done = 0
        while done < games:
            m = min(chunk, games - done)
            q, la, a = _core.kw_play_novice(
                deck.n_quartets, n, 1 if rules.remainder == "dealer" else 0, int(rules.bonus_turn), m,
                (seed * 0x9E3779B1 + done) & 0xFFFFFFFFFFFFFFFF, min(max_asks, 1 << 62),   # 2 ** 62: none
            )
            g_idx = np.arange(done, done + m)
            for i in range(n):
                seat = (i + g_idx) % n if rotate else np.full(m, i)
                quartets[done:done + m, i] = q[np.arange(m), seat]
                last[done:done + m, i] = la[np.arange(m), seat]
            asks[done:done + m] = a
            done += m
            if progress:
                progress(done, games)
        unfinished = int((asks < 0).sum())
    else:
        step = max(1, games // 100)
        for g in range(games):
            r = g % n if rotate else 0
            seat_bot = [(s - r) % n for s in range(n)]  # bot index in each seat
            game = Game(deck, players=n, seed=seed * 1_000_003 + g, rules=rules)
            play(game, [instances[seat_bot[s]] for s in range(n)], max_asks=max_asks)
            if not game.is_over:
                unfinished += 1
            qs = game.quartets
            for s in range(n):
                quartets[g, seat_bot[s]] = qs[s]
                last[g, seat_bot[s]] = game._last_lay[s]
            asks[g] = game.asks if game.is_over else -1     # as the fast path: unfinished games apart
            if progress and ((g + 1) % step == 0 or g + 1 == games):
                progress(g + 1, games)
    seconds = time.perf_counter() - t0
    shares = _shares(quartets, last)
    stats = []
    for i in range(n):
        wins = float(shares[:, i].sum())
        rate = wins / games
        qm = float(quartets[:, i].mean())
        qsd = float(quartets[:, i].std(ddof=1)) if games > 1 else 0.0
        half = 1.96 * qsd / math.sqrt(games)
        hist = np.bincount(quartets[:, i], minlength=deck.n_quartets + 1)
        stats.append(
            BotStats(names[i], games, wins, rate, wilson(rate, games), qm, (qm - half, qm + half),
                     tuple(int(x) for x in hist))
        )
    valid = asks[asks >= 0] if (asks >= 0).any() else np.zeros(1)
    return SimulationResult(
        deck=deck.name,
        players=n,
        rules=rules,
        games=games,
        seed=seed,
        rotate=rotate,
        stats=tuple(stats),
        asks_mean=float(valid.mean()),
        asks_median=float(np.median(valid)),
        asks_p90=float(np.percentile(valid, 90)),
        unfinished=unfinished,
        seconds=seconds,
        fast_path=use_fast,
    )
