"""Selection regret of the Kwartet planning player: how much win share its choice
loses, per decision, against a ground truth from many more deals.

Positions are taken from games of a default ``PlanningBot`` against three
``MemoryBot``s (4 players, classic deck): a share ``--keep`` of its decisions.  For
each position every legal ask is rolled out on ``--truth`` deals drawn and weighted
as the bot draws them; the mean rollout value of each ask is its "true" value.
Then each setting chooses an ask ``--repeats`` times from the same position with
fresh random streams, and its regret is the best true value minus the true value
of its choice.  The inference estimate's own first choice is shown for scale.

The ground truth uses the same rollout model as the bot (its opponents' policies,
its own later asks, the deal weights), so this measures what the bot loses to
sampling noise and to its shortlist of candidates, not what the model gets wrong:
a setting that lowers the regret plays better only if the model is right.

Run: python benchmarks/kwartet_regret.py [--games 40] [--keep 0.25] [--truth 20000]
     [--repeats 5] [--seed 777] [--settings JSON] [--json FILE]
``--settings`` is a JSON list of objects of ``PlanningBot`` options and attributes,
e.g. ``'[{"samples": 400}, {"samples": 1000, "candidates": 8}]'``.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from typing import Any

import numpy as np

from quartet_solver import kwartet as kw
from quartet_solver.kwartet.planning import PlanningBot

DEFAULT_SETTINGS = [
    {"samples": 400}, {"samples": 1000}, {"samples": 4000},
    {"samples": 1000, "candidates": 3}, {"samples": 1000, "candidates": 8},
    {"samples": 400, "confidence": 0.0}, {"samples": 1000, "confidence": 1.0},
]
OPTIONS = ("samples", "candidates", "diverse", "depth", "followups", "time_budget", "quartet_weight", "opponents")


def positions(games: int, seed: int, keep: float) -> list[PlanningBot]:
    """Copies of a default PlanningBot at a share ``keep`` of its decisions with a
    choice, against three MemoryBots, ready to choose."""
    out: list[PlanningBot] = []

    class Recorder(PlanningBot):
        def choose(self):
            self._update()
            if self.knowledge is not None and len(self._scores()) > 1 and self.rng.random() < keep:
                snap = copy.deepcopy(self)
                snap.__class__ = PlanningBot
                out.append(snap)
            return super().choose()

    kw.simulate([Recorder(seed=seed), "memory", "memory", "memory"], games=games, seed=seed,
                deck=kw.Deck.themed("classic"))
    return out


def truth(bot: PlanningBot, deals_n: int, seed: int) -> dict[tuple[int, int], float]:
    """The mean rollout value of every legal ask of ``bot``'s position on ``deals_n``
    deals drawn and weighted as the bot draws them."""
    b = copy.deepcopy(bot)
    b.rng.seed(seed)
    asks = [(t, c) for _, t, c in b._scores()]
    deals = b._deals(deals_n)
    value = b._values(deals, b._record(), asks, np.array(b._model, dtype=np.uint8)).mean(axis=1)
    return {a: float(x) for a, x in zip(asks, value)}


def regret(snaps: list[PlanningBot], truths: list[dict[tuple[int, int], float]], setting: dict[str, Any],
           repeats: int) -> dict[str, Any]:
    """Mean regret (win share per decision) of one setting over the positions."""
    losses = []
    t0 = time.perf_counter()
    for k, (snap, gt) in enumerate(zip(snaps, truths)):
        best = max(gt.values())
        for r in range(repeats):
            b = copy.deepcopy(snap)
            b.rng.seed(1000 * r + k)
            for name, value in setting.items():
                setattr(b, name, value)
            _, t, c = b.choose()
            losses.append(best - gt[(t, c)])
    x = np.array(losses)
    return {"setting": setting, "regret": float(x.mean()), "se": float(x.std(ddof=1) / np.sqrt(len(x))),
            "seconds": time.perf_counter() - t0}


def inference_regret(snaps: list[PlanningBot], truths: list[dict[tuple[int, int], float]]) -> float:
    """Mean regret of the inference estimate's first choice (the bot's first candidate)."""
    losses = []
    for snap, gt in zip(snaps, truths):
        _, t, c = snap._shortlist(snap._scores())[0]
        losses.append(max(gt.values()) - gt[(t, c)])
    return float(np.mean(losses))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games to take positions from (default 40)")
    ap.add_argument("--keep", type=float, default=0.25, help="share of the decisions kept (default 0.25)")
    ap.add_argument("--truth", type=int, default=20000, help="deals of the ground truth (default 20000)")
    ap.add_argument("--repeats", type=int, default=5, help="choices per setting and position (default 5)")
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--settings", help="JSON list of settings (default: samples, candidates, margins)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args()
    settings = json.loads(args.settings) if args.settings else DEFAULT_SETTINGS
    for s in settings:
        unknown = set(s) - set(OPTIONS) - {"confidence", "model_eps", "oversample", "max_oversample"}
        if unknown:
            ap.error(f"unknown setting names {sorted(unknown)}")
    t0 = time.perf_counter()
    snaps = positions(args.games, args.seed, args.keep)
    print(f"{len(snaps)} positions from {args.games} games ({time.perf_counter() - t0:.0f} s)", flush=True)
    truths = []
    for k, snap in enumerate(snaps):
        truths.append(truth(snap, args.truth, 10_000 + k))
        if (k + 1) % 20 == 0:
            print(f"  ground truth {k + 1}/{len(snaps)} ({time.perf_counter() - t0:.0f} s)", flush=True)
    base = inference_regret(snaps, truths)
    print(f"inference estimate's choice: regret {base:.5f}")
    rows = []
    for s in settings:
        row = regret(snaps, truths, s, args.repeats)
        rows.append(row)
        print(f"{json.dumps(s):45s} regret {row['regret']:.5f} ± {row['se']:.5f}  ({row['seconds']:.0f} s)",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"positions": len(snaps), "truth_deals": args.truth, "repeats": args.repeats,
                       "seed": args.seed, "inference_regret": base, "settings": rows}, f, indent=1)


if __name__ == "__main__":
    main()
