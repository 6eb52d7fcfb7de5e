"""How well each weighting of the posterior draws places the opponents' cards.

``PlanningBot`` draws deals uniformly from the exact posterior and resamples them by a
weight that reads how the opponents chose their asks.  This plays ``--games`` games of
an ``InferenceBot`` (seat 0) against three bots of each kind in ``--opponents`` (4
players, classic deck) and, at each of seat 0's decisions after the first ask of the
game, draws ``--draws`` uniform deals (``PlanningBot._draw``) and weighs them each way:

* ``uniform``: no weight (the exact posterior of a table of random askers);
* ``collector odds``: ``12 ** k`` per opponent, ``k`` the untraced cards it holds of the
  quartets it asked for (``"public"``);
* ``auto, per model``: the ``MemoryBot`` likelihood for the opponents ``"auto"`` plays
  as ``MemoryBot``s, the collector odds for the others;
* ``memory likelihood`` (the default, ``"auto"`` and ``"memory"``): the likelihood of
  every opponent's asks under ``MemoryBot``'s policy, eps ``PlanningBot.model_eps``;
* ``shared likelihood``: the same under the shared rollout policy.

Per weighting: the hit rate of the ask the weighted draws rate most likely to hit
(ties broken by the cards held of the quartet, then by the inference estimate) and
the Brier score of its hit chances over all legal asks; ``inference estimate`` is the
same for ``InferenceBot``'s own estimate (its choice).  All weightings are judged on
the same positions and draws, so their differences are paired.

Run: python benchmarks/kwartet_deal_fit.py [--games 250] [--opponents inference,memory]
     [--draws 4000] [--seed 2000] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

from quartet_solver import _core
from quartet_solver import kwartet as kw
from quartet_solver.kwartet.bots import _bits
from quartet_solver.kwartet.planning import PlanningBot

SCHEMES = ("inference estimate", "uniform", "collector odds", "auto, per model", "memory likelihood",
           "shared likelihood")


class _Probe(PlanningBot):
    """Plays as ``InferenceBot``; at each decision scores every weighting."""

    def __init__(self, *, seed: int, draws: int, tally: dict[str, list[tuple[float, float]]]) -> None:
        super().__init__(seed=seed, samples=draws)
        self.draws = draws
        self.tally = tally

    def choose(self) -> kw.bots.Action:
        v = self._started()
        self._update()
        if self.knowledge is not None and self._events and v.legal_asks():
            self._score(v)
        return kw.InferenceBot.choose(self)

    def chances(self, v: kw.View) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray, np.ndarray,
                                           dict[str, np.ndarray]]:
        """At the position of ``v`` (seat 0 to move): the legal asks, whether each
        hits, the inference estimate of each, the cards held of its quartet, and per
        weighting the hit chance of each ask in the weighted draws."""
        game = v._game
        deals, memory_w = self._draw(self.draws)  # the default weights, "auto"
        events = np.array(self._events, dtype=np.int32)
        n, players, nq = len(deals), v.players, v.deck.n_quartets
        ll_mem, _ = _core.kw_ask_likelihood(nq, players, v.seat, deals, events, self.model_eps,
                                            np.ones(players, dtype=np.uint8), self.rollout_odds, 0)
        ll_pub, _ = _core.kw_ask_likelihood(nq, players, v.seat, deals, events, self.model_eps,
                                            np.zeros(players, dtype=np.uint8), self.rollout_odds, 0)
        memory_like = np.array(self._model) == 1  # "auto"'s choice, made by _draw
        bits = np.arange(len(v.deck), dtype=np.uint64)
        locs = np.full((n, len(v.deck)), -2, dtype=np.int8)  # a seat, or -2: not in a hand
        for p in range(players):
            locs[((deals[:, p, None] >> bits) & np.uint64(1)).astype(bool)] = p
        collector = self._collector_counts(locs)
        log_odds = math.log(self.rollout_odds)
        weights = {
            "uniform": np.zeros(n),
            "collector odds": collector.sum(axis=1) * log_odds,
            "auto, per model": (ll_mem * memory_like).sum(axis=1) + (collector * ~memory_like).sum(axis=1) * log_odds,
            "memory likelihood": memory_w,
            "shared likelihood": ll_pub.sum(axis=1),
        }
        asks = v.legal_asks()
        truth = np.array([game.hand(t) >> c & 1 for t, c in asks], dtype=float)
        probs = self.knowledge.probabilities()
        estimate = np.array([self.hit_probability(probs, t, c) for t, c in asks])
        held = np.array([(v.hand >> (4 * (c // 4)) & 0xF).bit_count() for _, c in asks])
        at = np.array([(deals[:, t] >> np.uint64(c)) & np.uint64(1) for t, c in asks], dtype=float)
        out = {}
        for name, logw in weights.items():
            w = np.exp(logw - logw.max())
            out[name] = at @ (w / w.sum())
        return asks, truth, estimate, held, out

    def _score(self, v: kw.View) -> None:
        _, truth, estimate, held, chances = self.chances(v)

        def judge(name: str, chance: np.ndarray) -> None:
            key = np.lexsort((estimate, held, np.round(chance, 9)))
            self.tally[name].append((truth[key[-1]], float(((chance - truth) ** 2).mean())))

        judge("inference estimate", estimate)
        for name, chance in chances.items():
            judge(name, chance)


def deal_fit(games: int = 250, opponent: str = "inference", draws: int = 4000, seed: int = 2000) -> dict[str, Any]:
    """Play ``games`` games of the probe against three ``opponent`` bots; per
    weighting, its positions, hit rate (with its standard error) and Brier score."""
    tally: dict[str, list[tuple[float, float]]] = {s: [] for s in SCHEMES}
    t0 = time.perf_counter()
    for i in range(games):
        g = kw.Game(kw.Deck.themed("classic"), players=4, seed=seed + i)
        probe = _Probe(seed=seed + i, draws=draws, tally=tally)
        kw.play(g, [probe] + [kw.make_bot(opponent, seed=1000 * (seed + i) + j) for j in range(1, 4)])
    rows = []
    for name in SCHEMES:
        hits = np.array([h for h, _ in tally[name]])
        n = len(hits)
        rows.append({"weighting": name, "positions": n, "hit_rate": float(hits.mean()) if n else float("nan"),
                     "hit_rate_se": float(hits.std() / math.sqrt(n)) if n > 1 else float("nan"),
                     "brier": float(np.mean([b for _, b in tally[name]])) if n else float("nan")})
    return {"opponent": opponent, "games": games, "draws": draws, "seed": seed, "rows": rows,
            "seconds": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=250)
    ap.add_argument("--opponents", default="inference,memory", help="comma-separated bot kinds, one table each")
    ap.add_argument("--draws", type=int, default=4000, help="uniform posterior draws per position")
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--json", metavar="FILE", help="also write the tables as JSON")
    a = ap.parse_args(argv)
    tables = [deal_fit(a.games, kind.strip(), a.draws, a.seed) for kind in a.opponents.split(",") if kind.strip()]
    for t in tables:
        print(f"\nInferenceBot in seat 0 against 3 x {t['opponent']}: {t['games']} games, {t['draws']} draws a "
              f"position, seed {t['seed']} ({t['seconds']:.0f} s)")
        print(f"{'weighting':<20} {'positions':>9} {'hit rate':>9} {'± se':>7} {'brier':>7}")
        for r in t["rows"]:
            print(f"{r['weighting']:<20} {r['positions']:>9} {r['hit_rate']:>9.4f} {r['hit_rate_se']:>7.4f} "
                  f"{r['brier']:>7.4f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(tables, f, indent=1)


if __name__ == "__main__":
    main()
