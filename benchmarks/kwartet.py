"""Kwartet benchmarks: exact posterior time by game stage, games/s per bot type, and
the ladder of the planning player.

Run: python benchmarks/kwartet.py [--part posterior|speed|ladder|draw|all] [--games 2000]
     [--samples N] [--candidates N] [--depth N] [--diverse N] [--models auto,memory,public] [--jobs 2]
     [--seeds 2024,12,13] [--rules standard|memory|...] [--opponents memory,inference,erratic,forgetful,mixed]
     [--json FILE]
Targets: posterior <= 10 ms (4 players, 32 cards, any stage);
>= 2,000 games/s with novice bots; PlanningBot >= 40% against three memory bots and
a clear win against three inference bots (4 players, classic deck, seats rotated).

The ladder also counts how often a bot follows each of the classic tips, judged at
every ask of the bot with the exact posterior of its seat (:class:`TipCounter`):

* **bluff** ("ask the less likely holder first to hide your real target"): the bot
  asks ``t`` for ``c`` while another opponent holds ``c`` with a probability at
  least 0.25 higher; **bluff, known target**: that other opponent holds it surely.
* **saved** ("save a known-target ask"): a legal ask is a sure hit (probability 1)
  and the bot asks an uncertain one instead; counted over the asks with a sure hit
  available.
* **late game** ("late-game focus"): the asks made once all but two quartets are
  laid (or blocked by the side pile), their hit rate, and the bot's share of the
  last two quartets laid.

And, a game at a time, what the others made of what the bot showed (:func:`exposure`):
the bot's cards taken by the opponents' asks, of those the ones the public record placed
at the bot (it had taken them by a hit or turned them up), and the opponents' asks that
missed at it.

With ``--rules memory`` (memory Kwartet) the tip counts also hold the middle cards the
bot turned up (``reveals``, in the JSON).

``--part draw`` measures the draw-pile hybrid (the ``draw`` preset: 8 cards in the
draw pile): how long the exact posterior takes through the opponents' unseen draws and
how often it is out of reach, by table size; and InferenceBot with exact inference
through the draws against :class:`MemoryAfterDrawBot`, the same bot that asks as
MemoryBot from the first unseen draw on, on the same deals (``--games``, ``--seed``,
``--opponents``).

Besides the library's bots, a table may be played against :class:`ErraticBot`
(``"erratic"``, :data:`OPPONENTS`), an opponent that often asks against its hand,
against :class:`ForgetfulBot` (``"forgetful"``), a MemoryBot that misses part of the
record, or against one MemoryBot, one InferenceBot and one ErraticBot (``"mixed"``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from quartet_solver import kwartet as kw
from quartet_solver.errors import SolverError
from quartet_solver.kwartet.bots import Action, Bot
from quartet_solver.kwartet.game import Event
from quartet_solver.kwartet.simulate import BOTS, wilson

PLANNER_DEFAULTS = {k: p.default for k, p in inspect.signature(kw.PlanningBot.__init__).parameters.items()
                    if p.default is not inspect.Parameter.empty}
"""PlanningBot's keyword options and their defaults, the ladder's defaults."""


def posterior_times(deck, players, games=20, stages=(0, 10, 20, 30, 45, 60)):
    """Median / max posterior time (ms) after ``s`` asks, over games and observers."""
    rows = []
    samples = {s: [] for s in stages}
    for seed in range(games):
        g = kw.Game(deck, players=players, seed=seed)
        bots = [kw.MemoryBot(seed=seed * 10 + i) for i in range(players)]
        for s, b in enumerate(bots):
            b.start(g, s)
        for stage in stages:
            while not g.is_over and g.asks < stage:
                act = bots[g.to_move].choose()
                g.ask(act[1], act[2])
            if g.asks < stage:
                break
            k = kw.Knowledge.from_game(g, seed % players)
            t = time.perf_counter()
            k.probabilities()
            samples[stage].append((time.perf_counter() - t) * 1e3)
    for stage in stages:
        xs = samples[stage]
        if xs:
            rows.append((stage, len(xs), statistics.median(xs), max(xs)))
    return rows


def games_per_second():
    rows = []
    deck = kw.Deck.themed("classic")
    for bots, games in [
        (["novice"] * 4, 50000),
        (["memory"] * 4, 300),
        (["inference", "novice", "novice", "novice"], 100),
        (["inference"] * 4, 30),
    ]:
        r = kw.simulate(bots, games=games, seed=1, deck=deck)
        rows.append((",".join(bots), games, r.games_per_second, r.fast_path))
    r = kw.simulate(["novice"] * 4, games=300, seed=1, deck=deck, fast=False)
    rows.append(("novice x4 (Python engine)", 300, r.games_per_second, False))
    return rows


class TipCounter(Bot):
    """Wraps a bot and judges each of its asks by the classic tips (module docstring)."""

    BLUFF_GAP = 0.25

    def __init__(self, bot: Bot) -> None:
        super().__init__(seed=bot.seed)
        self.bot = bot
        self.name = bot.name
        self.game: kw.Game | None = None
        self.seat = -1
        self.c: dict[str, float] = dict.fromkeys(
            ("asks", "hits", "bluff", "bluff_known", "sure_available", "saved", "late_asks", "late_hits",
             "late_quartets", "games", "decision_seconds", "decision_max", "reveals", "lost", "lost_traced",
             "misses_at"), 0.0)

    def start(self, game: kw.Game, seat: int) -> None:
        self._tally()
        self.bot.start(game, seat)
        self.game, self.seat = game, seat

    def _tally(self) -> None:
        g = self.game
        if g is None:
            return
        self.c["games"] += 1
        lays = [e for e in g.log if isinstance(e, kw.Laid)]
        self.c["late_quartets"] += sum(1 for e in lays[-2:] if e.player == self.seat)
        for key, n in exposure(g.log, self.seat).items():
            self.c[key] += n
        self.game = None

    def finish(self) -> dict[str, float]:
        self._tally()
        return dict(self.c)

    def choose(self) -> Action:
        g = self.game
        assert g is not None
        t0 = time.perf_counter()
        action = self.bot.choose()
        dt = time.perf_counter() - t0
        self.c["decision_seconds"] += dt
        self.c["decision_max"] = max(self.c["decision_max"], dt)
        if action[0] != "ask":
            self.c["reveals"] += action[0] == "reveal"
            return action
        _, t, card = action  # type: ignore[misc]
        probs = kw.Knowledge.from_game(g, self.seat).probabilities()
        legal = g.legal_asks(self.seat)
        p = float(probs[t, card])
        c = self.c
        c["asks"] += 1
        c["hits"] += bool(g.hand(t) >> card & 1)
        others = [float(probs[u, card]) for u in g.targets(self.seat) if u != t]
        if others and max(others) >= p + self.BLUFF_GAP:
            c["bluff"] += 1
            c["bluff_known"] += max(others) == 1.0
        if any(probs[u, x] == 1.0 for u, x in legal):
            c["sure_available"] += 1
            c["saved"] += p < 1.0
        blocked = sum(1 for q in range(g.deck.n_quartets) if g.pile >> (4 * q) & 0xF and not g.rules.set_aside)
        if sum(g.quartets) + blocked >= g.deck.n_quartets - 2:
            c["late_asks"] += 1
            c["late_hits"] += bool(g.hand(t) >> card & 1)
        return action


def exposure(log: tuple[Event, ...], seat: int) -> dict[str, int]:
    """What the others made of what ``seat`` showed, from a game's public ``log``: the
    seat's cards an opponent took by asking for them (``lost``), of those the cards the
    public record placed at the seat when asked for (``lost_traced``: the seat had received
    them by a hit or turned them up), and the opponents' asks that missed at the seat
    (``misses_at``: asks spent on cards it did not hold).

    >>> log = (kw.Asked(asker=0, target=1, card=5, hit=True), kw.Asked(asker=2, target=0, card=5, hit=True),
    ...        kw.Asked(asker=3, target=0, card=6, hit=True), kw.Asked(asker=1, target=0, card=9, hit=False))
    >>> exposure(log, 0)
    {'lost': 2, 'lost_traced': 1, 'misses_at': 1}
    """
    placed: dict[int, int] = {}
    out = {"lost": 0, "lost_traced": 0, "misses_at": 0}
    for e in log:
        if isinstance(e, kw.Revealed):
            placed[e.card] = e.player
        elif isinstance(e, kw.Asked):
            if e.target == seat:
                if e.hit:
                    out["lost"] += 1
                    out["lost_traced"] += placed.get(e.card) == seat
                else:
                    out["misses_at"] += 1
            if e.hit:
                placed[e.card] = e.asker
    return out


class ErraticBot(kw.InferenceBot):
    """An opponent the planner's deal weights do not fit: :class:`~kw.InferenceBot`,
    except that on :attr:`rate` of its turns' actions it acts as :class:`~kw.NoviceBot`
    does (a random askable card of a random opponent holding cards), as a player who
    often asks against their hand would.  A ladder opponent (``"erratic"``), not part
    of the library."""

    name = "erratic"
    rate = 0.3

    def choose(self) -> Action:
        self._started()
        if self.rng.random() < self.rate:
            return kw.NoviceBot.choose(self)
        return super().choose()


class ForgetfulBot(kw.MemoryBot):
    """A player who forgets: :class:`~kw.MemoryBot`, except that it fails to record
    each other player's ask or turned-up card with probability :attr:`lapse`, as a
    person who follows the table with half an ear would.  Its own asks and the laid
    quartets it always records.  A ladder opponent (``"forgetful"``), not part of the
    library.

    >>> g = kw.Game(kw.Deck.themed("classic"), players=4, seed=1)
    >>> kw.play(g, [ForgetfulBot(seed=i) for i in range(4)]).is_over
    True
    """

    name = "forgetful"
    lapse = 0.3

    def _forgets(self, e: Event) -> bool:
        """Whether the bot fails to record ``e`` (another player's ask or turned-up card,
        with probability :attr:`lapse`; at lapse 0 it draws nothing, so it keeps
        MemoryBot's random stream)."""
        own = self.view.seat  # type: ignore[union-attr]
        other = isinstance(e, kw.Asked) and e.asker != own or isinstance(e, kw.Revealed) and e.player != own
        return other and bool(self.lapse) and self.rng.random() < self.lapse

    def _observe(self, e: Event) -> None:
        if not self._forgets(e):
            super()._observe(e)


class MemoryAfterDrawBot(kw.InferenceBot):
    """InferenceBot that gives up exact inference at the first unseen draw of another
    player and asks as MemoryBot from then on."""

    name = "inference-memory-after-draw"

    def _observe(self, e: Event) -> None:
        if isinstance(e, kw.Drew) and e.card is None:
            self.knowledge = None
        super()._observe(e)


def draw_posterior_times(games: int = 3) -> list[tuple[str, int, int, float, float]]:
    """Per table: (name, positions queried, positions out of reach, median ms, max ms)
    of seat 0's exact posterior after every event of MemoryBot games with the draw
    preset, from the first unseen draw on."""
    out = []
    for name, deck, players in [("classic 32 cards, 3 players", kw.Deck.themed("classic"), 3),
                                ("classic 32 cards, 4 players", kw.Deck.themed("classic"), 4),
                                ("classic 32 cards, 5 players", kw.Deck.themed("classic"), 5),
                                ("world 48 cards, 6 players", kw.Deck.themed("world"), 6)]:
        times: list[float] = []
        refused = 0
        for seed in range(games):
            g = kw.Game(deck, players, seed=seed, rules=kw.Rules.preset("draw"))
            kw.play(g, [kw.MemoryBot(seed=p) for p in range(players)])
            log = g.private_log(0)
            k = kw.Knowledge(deck, players, 0, g.initial_hands[0], rules=g.rules, dealer=g.dealer)
            unseen = False
            for i, ev in enumerate(log[1:], 1):
                k.apply(ev)
                unseen = unseen or (isinstance(ev, kw.Drew) and ev.card is None)
                if not unseen or (i + 1 < len(log) and isinstance(log[i + 1], kw.Laid)):
                    continue  # before the first unseen draw, or between a completion and its lay
                k2 = kw.Knowledge.from_log(deck, log[:i + 1], 0, g.initial_hands[0], rules=g.rules)
                t0 = time.perf_counter()
                try:
                    k2.probabilities()
                except SolverError:
                    refused += 1
                    continue
                times.append(time.perf_counter() - t0)
        out.append((name, len(times) + refused, refused, statistics.median(times) * 1e3 if times else 0.0,
                    max(times, default=0.0) * 1e3))
    return out


def _draw_match(job: tuple[str, str, int, int]) -> dict[str, Any]:
    bot_name, opponent, games, seed = job
    bot = kw.InferenceBot(seed=seed) if bot_name == "inference" else MemoryAfterDrawBot(seed=seed)
    t0 = time.perf_counter()
    r = kw.simulate([bot, opponent, opponent, opponent], games=games, seed=seed, deck=kw.Deck.themed("classic"),
                    rules=kw.Rules.preset("draw"))
    s = r.stats[0]
    return {"bot": bot.name, "opponent": opponent, "games": games, "seed": seed, "rules": "draw",
            "win_rate": s.win_rate, "win_ci": list(wilson(s.win_rate, games)), "quartets": s.quartets_mean,
            "seconds": time.perf_counter() - t0}


def draw_table(games: int, seed: int, opponents: tuple[str, ...], jobs: int) -> list[dict[str, Any]]:
    """InferenceBot against MemoryAfterDrawBot, three of each opponent, draw preset."""
    todo = [(b, opp, games, seed) for opp in opponents for b in ("inference", "memory-after-draw")]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(_draw_match, todo))
    return [_draw_match(j) for j in todo]


OPPONENTS: dict[str, Any] = {"erratic": ErraticBot, "forgetful": ForgetfulBot,
                             "mixed": ("memory", "inference", ErraticBot)}
"""Ladder opponents beyond the library's bots, by name: a bot for all three seats,
or three bots (``"mixed"``: a MemoryBot, an InferenceBot and an ErraticBot)."""


def _table(job: tuple[Any, ...]) -> dict[str, Any]:
    """One ladder table: ``bot`` against three ``opponent`` bots; the job is
    ``(bot, opponent, games, seed, planner options[, rules preset])``."""
    bot_name, opponent, games, seed, options, *more = job
    rules = more[0] if more else "standard"
    bot = kw.PlanningBot(seed=seed, **options) if bot_name == "planning" else kw.make_bot(bot_name, seed=seed)
    counter = TipCounter(bot)
    t0 = time.perf_counter()
    opp = OPPONENTS.get(opponent, opponent)
    others = list(opp) if isinstance(opp, tuple) else [opp] * 3
    r = kw.simulate([counter, *others], games=games, seed=seed,
                    deck=kw.Deck.themed("classic"), rules=kw.Rules.preset(rules))
    tips = counter.finish()
    s = r.stats[0]
    if bot_name == "planning" and options.get("opponents", "auto") != "auto":
        bot_name = f"planning[{options['opponents']}]"
    return {"bot": bot_name, "opponent": opponent, "games": games, "seed": seed, "options": options, "rules": rules,
            "win_rate": s.win_rate, "win_ci": list(wilson(s.win_rate, games)), "quartets": s.quartets_mean,
            "opponents_win_rate": [o.win_rate for o in r.stats[1:]], "seconds": time.perf_counter() - t0,
            "tips": tips}


def ladder(games: int = 2000, samples: int = PLANNER_DEFAULTS["samples"],
           candidates: int = PLANNER_DEFAULTS["candidates"], jobs: int = 2,
           seed: int = 2024, models: tuple[str, ...] = ("auto",),
           seeds: tuple[int, ...] | None = None, depth: int | None = None,
           diverse: int | None = None, rules: str = "standard",
           opponents: tuple[str, ...] = ("memory", "inference")) -> list[dict[str, Any]]:
    """PlanningBot (one row per opponent model in ``models``) and, for comparison,
    InferenceBot against three of each bot in ``opponents`` (default: three memory
    bots, then three inference bots; a library bot's name or one of
    :data:`OPPONENTS`), 4 players, classic deck, seats rotated.

    With several ``seeds`` (instead of the one ``seed``) every table is played once
    per seed, and the rows of each bot and table are followed by a row pooling its
    seeds (``"seed": "pooled"``).  ``depth`` and ``diverse`` set PlanningBot's
    options of those names (its defaults when ``None``); ``rules`` names the
    rules preset (:meth:`kwartet.Rules.preset`, e.g. ``"memory"``)."""
    seeds = (seed,) if not seeds else tuple(seeds)
    extra = {k: v for k, v in (("depth", depth), ("diverse", diverse)) if v is not None}
    todo = [("planning", opp, games, s, {"samples": samples, "candidates": candidates, "opponents": model, **extra},
             rules) for model in models for opp in opponents for s in seeds]
    todo += [("inference", opp, games, s, {}, rules) for opp in opponents for s in seeds]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            rows = list(pool.map(_table, todo))
    else:
        rows = [_table(j) for j in todo]
    if len(seeds) == 1:
        return rows
    out: list[dict[str, Any]] = []
    for i in range(0, len(rows), len(seeds)):
        group = rows[i:i + len(seeds)]
        out += group + [pool_rows(group)]
    return out


def pool_rows(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One row for several runs of the same bot and table (on other seeds): the
    games added up, the win rate and quartets weighted by games, the tip counts
    summed.

    >>> a = {"bot": "b", "opponent": "memory", "games": 100, "seed": 1, "options": {},
    ...      "win_rate": 0.3, "quartets": 2.0, "opponents_win_rate": [0.2, 0.2, 0.3],
    ...      "seconds": 1.0, "tips": {"asks": 10.0, "decision_max": 0.5}}
    >>> b = dict(a, games=300, seed=2, win_rate=0.5, quartets=3.0, tips={"asks": 5.0, "decision_max": 0.7})
    >>> r = pool_rows([a, b])
    >>> r["games"], r["seed"], r["win_rate"], r["quartets"], r["tips"]
    (400, 'pooled', 0.45, 2.75, {'asks': 15.0, 'decision_max': 0.7})
    """
    games = sum(r["games"] for r in rows)

    def mean(key: str) -> float:
        return sum(r[key] * r["games"] for r in rows) / games

    rate = mean("win_rate")
    tips = {k: (max if k == "decision_max" else sum)(r["tips"][k] for r in rows) for k in rows[0]["tips"]}
    return {"bot": rows[0]["bot"], "opponent": rows[0]["opponent"], "games": games, "seed": "pooled",
            "rules": rows[0].get("rules", "standard"),
            "seeds": [r["seed"] for r in rows], "options": rows[0]["options"], "win_rate": rate,
            "win_ci": list(wilson(rate, games)), "quartets": mean("quartets"),
            "opponents_win_rate": [sum(r["opponents_win_rate"][i] * r["games"] for r in rows) / games
                                   for i in range(len(rows[0]["opponents_win_rate"]))],
            "seconds": sum(r["seconds"] for r in rows), "tips": tips}


def print_ladder(rows: list[dict[str, Any]]) -> None:
    print(f"{'bot':<18} {'against 3x':<10} {'seed':>6} {'games':>6} {'win rate':>9} {'95% CI':>17} "
          f"{'quartets':>9} {'ms/decision':>12}")
    for r in rows:
        t = r["tips"]
        ms = 1e3 * t["decision_seconds"] / max(t["asks"], 1)
        print(f"{r['bot']:<18} {r['opponent']:<10} {r['seed']:>6} {r['games']:>6} {r['win_rate']:>9.4f} "
              f"[{r['win_ci'][0]:.3f}, {r['win_ci'][1]:.3f}] {r['quartets']:>9.2f} {ms:>12.1f}")
    print("\nSeed tips (per ask of the bot; the last three columns a game; see the module docstring)")
    print(f"{'bot':<18} {'against 3x':<10} {'asks':>7} {'hit rate':>9} {'bluff':>7} {'bluff@1':>8} "
          f"{'saved':>14} {'late asks':>10} {'late hits':>10} {'last-2 share':>13} "
          f"{'cards lost':>11} {'traced':>7} {'misses at':>10}")
    pooled = any(r["seed"] == "pooled" for r in rows)
    for r in rows:
        if pooled and r["seed"] != "pooled":
            continue  # a pooled ladder's tips: the pooled rows only
        t = r["tips"]
        a = max(t["asks"], 1)
        g = max(t["games"], 1)
        saved = f"{t['saved'] / max(t['sure_available'], 1):.3f} of {int(t['sure_available'])}"
        print(f"{r['bot']:<18} {r['opponent']:<10} {int(t['asks']):>7} {t['hits'] / a:>9.3f} "
              f"{t['bluff'] / a:>7.3f} {t['bluff_known'] / a:>8.3f} {saved:>14} "
              f"{t['late_asks'] / a:>10.3f} {t['late_hits'] / max(t['late_asks'], 1):>10.3f} "
              f"{t['late_quartets'] / (2 * g):>13.3f} "
              f"{t['lost'] / g:>11.2f} {t['lost_traced'] / g:>7.2f} {t['misses_at'] / g:>10.2f}")


def _seed_list(text: str) -> tuple[int, ...]:
    """``--seeds``: distinct ints separated by commas."""
    try:
        seeds = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds must be ints separated by commas, got {text!r}") from None
    if not seeds or len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"seeds must be distinct, got {text!r}")
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("posterior", "speed", "ladder", "draw", "all"), default="all")
    ap.add_argument("--games", type=int, default=2000, help="games per ladder table (default 2000)")
    ap.add_argument("--samples", type=int, default=PLANNER_DEFAULTS["samples"],
                    help=f"PlanningBot deals per decision (default {PLANNER_DEFAULTS['samples']})")
    ap.add_argument("--candidates", type=int, default=PLANNER_DEFAULTS["candidates"],
                    help=f"PlanningBot candidate asks (default {PLANNER_DEFAULTS['candidates']})")
    ap.add_argument("--depth", type=int, help="PlanningBot's own asks planned per decision (default: the bot's)")
    ap.add_argument("--diverse", type=int, help="PlanningBot's extra candidates of other quartets (default: the bot's)")
    ap.add_argument("--models", default="auto",
                    help="PlanningBot opponent models, comma-separated, one ladder row each (default auto)")
    ap.add_argument("--rules", default="standard", choices=kw.Rules.PRESETS,
                    help="the ladder's rules preset (default standard; memory: 8 memory cards)")
    ap.add_argument("--opponents", default="memory,inference",
                    help="the tables' opponents, comma-separated: bot names, erratic, forgetful or mixed (default memory,inference)")
    ap.add_argument("--jobs", type=int, default=2, help="processes for the ladder tables (default 2)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--seeds", type=_seed_list,
                    help="comma-separated seeds: every ladder table once per seed, then pooled (instead of --seed)")
    ap.add_argument("--json", metavar="FILE", help="also write the ladder as JSON")
    args = ap.parse_args()
    opponents = tuple(o.strip() for o in args.opponents.split(",") if o.strip())
    if not opponents:
        ap.error("--opponents: name at least one bot")
    for o in opponents:
        if o not in OPPONENTS and o not in BOTS:
            ap.error(f"--opponents: unknown bot {o!r} (have {', '.join([*BOTS, *OPPONENTS])})")
    if args.part in ("posterior", "all"):
        posterior_table()
    if args.part in ("speed", "all"):
        speed_table()
    if args.part in ("ladder", "all"):
        more = "".join(f", {k}={v}" for k, v in (("depth", args.depth), ("diverse", args.diverse)) if v is not None)
        print(f"\nLadder: 4 players, classic deck, {args.rules} rules, seats rotated, {args.games} games per table; "
              f"PlanningBot samples={args.samples}, candidates={args.candidates}{more}")
        models = tuple(m.strip() for m in args.models.split(",") if m.strip())
        rows = ladder(args.games, args.samples, args.candidates, args.jobs, args.seed, models, args.seeds,
                      args.depth, args.diverse, args.rules, opponents)
        print_ladder(rows)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(rows, f, indent=1)
    if args.part == "draw":
        print("Draw-pile hybrid (8 cards), seat 0's exact posterior from the first unseen draw on, MemoryBot games")
        print(f"{'table':<32} {'positions':>9} {'out of reach':>12} {'median ms':>10} {'max ms':>8}")
        for name, n, refused, med, mx in draw_posterior_times():
            print(f"{name:<32} {n:>9} {refused:>12} {med:>10.2f} {mx:>8.2f}")
        print(f"\nInferenceBot through the draws against the same bot asking as MemoryBot from the first unseen "
              f"draw on; 4 players, classic deck, draw preset, seats rotated, {args.games} games, seed {args.seed}")
        rows = draw_table(args.games, args.seed, opponents, args.jobs)
        print(f"{'bot':<30} {'against':<12} {'win rate':>9} {'95% interval':>16} {'quartets':>9} {'s':>7}")
        for r in rows:
            lo, hi = r["win_ci"]
            print(f"{r['bot']:<30} {'3 x ' + r['opponent']:<12} {r['win_rate']:>9.2%} "
                  f"{f'[{lo:.1%}, {hi:.1%}]':>16} {r['quartets']:>9.2f} {r['seconds']:>7.0f}")
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(rows, f, indent=1)


def posterior_table():
    print("Exact posterior time (ms) by game stage (asks so far), MemoryBot games")
    for name, deck, players in [
        ("classic 32 cards, 4 players", kw.Deck.themed("classic"), 4),
        ("classic 32 cards, 3 players (pile 2)", kw.Deck.themed("classic"), 3),
        ("world 48 cards, 6 players", kw.Deck.themed("world"), 6),
        ("standard 52 cards, 5 players (pile 2)", kw.Deck.standard(), 5),
    ]:
        print(f"\n{name}")
        print(f"{'asks':>6} {'n':>4} {'median ms':>10} {'max ms':>8}")
        for stage, n, med, mx in posterior_times(deck, players, games=10 if players > 4 else 20):
            print(f"{stage:>6} {n:>4} {med:>10.3f} {mx:>8.3f}")


def speed_table():
    print("\nGames per second (classic deck, 4 players, seats rotated)")
    print(f"{'bots':<40} {'games':>6} {'games/s':>10}  kernel")
    for bots, games, gps, fast in games_per_second():
        print(f"{bots:<40} {games:>6} {gps:>10,.0f}  {'compiled' if fast else 'python'}")


if __name__ == "__main__":
    main()
