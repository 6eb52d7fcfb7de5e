"""The strength ladder of the Klaverjas players, in duplicate format.

Each deal is played twice with the same dealer: once with players A at N/S and
B at E/W, once with the two pairs swapping seats.  The cards' luck cancels in
the sum, so a deal's result is A's score minus B's over both tables, halved:
the mean points per hand by which A beats B, with a 95% confidence interval
(normal approximation over the deals).  Every hand is bid and played by the
bots themselves.  Deals and the bots' choices are fixed by ``--seed``.

Run::

    python benchmarks/klaverjas_players.py --deals 2000 --processes 2
    python benchmarks/klaverjas_players.py --pairs normal-easy --rules rotterdam --deals 200
    python benchmarks/klaverjas_players.py --pairs strong-normal --log ladder.jsonl   # resumable

A pairing is ``A-B`` with each side a level of ``klaverjas.LEVELS`` (``easy``,
``normal``, ``strong``) or ``random``.  ``--timing`` also reports the time per
card decision and per bid of the sampling levels and of ``SamplingBot()``
with its defaults (one process, median and 99th percentile).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from quartet_solver.klaverjas import Deal, RandomBot, Rules, SamplingBot, make_bot, play_hand

PAIRS = ("normal-easy", "easy-random", "strong-normal")


def _bot(level: str, seed: int):
    return RandomBot(seed) if level == "random" else make_bot(level, seed=seed)


def duplicate_deal(a: str, b: str, rules: str, seed: int, index: int) -> float:
    """A's score minus B's, per hand, over the two tables of one deal."""
    deal = Deal.random(f"ladder:{seed}:{index}")
    dealer = index % 4
    diff = 0
    for a_seats in (0, 1):      # A at N/S (0, 2), then at E/W (1, 3)
        bots = [_bot(a if s % 2 == a_seats else b, seed * 1_000_003 + index * 4 + s) for s in range(4)]
        scores = play_hand(bots, deal, dealer, rules=rules).result.scores
        diff += scores[a_seats] - scores[1 - a_seats]
    return diff / 2


def _chunk(args: tuple[str, str, str, int, list[int]]) -> list[float]:
    a, b, rules, seed, indices = args
    return [duplicate_deal(a, b, rules, seed, i) for i in indices]


def _logged(log: str | None, key: list[object]) -> dict[int, float]:
    """The per-deal results of earlier runs of this pairing that ``log`` holds."""
    if not log or not os.path.exists(log):
        return {}
    done = {}
    with open(log) as f:
        for line in f:
            row = json.loads(line)
            if row["key"] == key:
                done[row["index"]] = row["diff"]
    return done


def ladder(a: str, b: str, rules: str, deals: int, seed: int, processes: int,
           log: str | None = None) -> dict[str, object]:
    start = time.perf_counter()
    key: list[object] = [a, b, rules, seed]
    results = {i: d for i, d in _logged(log, key).items() if i < deals}
    todo = [i for i in range(deals) if i not in results]
    chunks = [(a, b, rules, seed, todo[i:i + 25]) for i in range(0, len(todo), 25)]
    done = len(results)
    with ProcessPoolExecutor(processes) as pool:
        for indices, part in zip((c[4] for c in chunks), pool.map(_chunk, chunks)):
            results.update(zip(indices, part))
            if log:
                with open(log, "a") as f:
                    for i, d in zip(indices, part):
                        f.write(json.dumps({"key": key, "index": i, "diff": d}) + "\n")
            done += len(part)
            rate = done / (time.perf_counter() - start)
            print(f"\r  {a} vs {b} ({rules}): {done}/{deals} deals, {rate:.2f}/s", end="", file=sys.stderr,
                  flush=True)
    print(file=sys.stderr)
    diffs = [results[i] for i in sorted(results)]
    mean = statistics.fmean(diffs)
    ci = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return {"a": a, "b": b, "rules": rules, "deals": len(diffs), "mean": mean, "ci95": ci,
            "seconds": time.perf_counter() - start}


def timing(level: str, hands: int, seed: int) -> dict[str, object]:
    """Time per card decision and per bid of a level, its two seats against easy bots."""
    card_times: list[float] = []
    bid_times: list[float] = []
    for h in range(hands):
        bots = []
        for s in range(4):
            if s % 2 == 1:
                bot = make_bot("easy")
            elif level == "default":
                bot = SamplingBot(seed=seed + s)
            else:
                bot = make_bot(level, seed=seed + s)
            if s % 2 == 0:
                choose_card, choose_bid = bot.choose_card, bot.choose_bid

                def timed_card(view, f=choose_card):
                    t = time.perf_counter()
                    out = f(view)
                    if len(view.legal) > 1:
                        card_times.append(time.perf_counter() - t)
                    return out

                def timed_bid(view, f=choose_bid):
                    t = time.perf_counter()
                    out = f(view)
                    bid_times.append(time.perf_counter() - t)
                    return out

                bot.choose_card, bot.choose_bid = timed_card, timed_bid
            bots.append(bot)
        play_hand(bots, Deal.random(f"timing:{seed}:{h}"), h % 4)

    def q(xs: list[float], p: float) -> float:
        xs = sorted(xs)
        return 1000 * xs[min(len(xs) - 1, int(p * len(xs)))]

    return {"level": level, "card_decisions": len(card_times), "card_median_ms": q(card_times, 0.5),
            "card_p99_ms": q(card_times, 0.99), "card_max_ms": q(card_times, 1.0),
            "bids": len(bid_times), "bid_median_ms": q(bid_times, 0.5), "bid_p99_ms": q(bid_times, 0.99)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=",".join(PAIRS), help=f"comma-separated A-B pairings (default {','.join(PAIRS)})")
    parser.add_argument("--rules", default="amsterdam,rotterdam", help="rule variants (default both)")
    parser.add_argument("--deals", type=int, default=2000, help="deals per pairing and variant (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timing", type=int, default=0, metavar="HANDS",
                        help="also time the sampling levels' decisions over this many hands")
    parser.add_argument("--log", metavar="FILE",
                        help="append each deal's result to FILE (JSON lines) and skip the deals it already holds, "
                             "so an interrupted run resumes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for pair in filter(None, (p.strip() for p in args.pairs.split(","))):
        a, b = pair.strip().split("-")
        for rules in args.rules.split(","):
            Rules.named(rules)
            rows.append(ladder(a, b, rules.strip(), args.deals, args.seed, args.processes, args.log))
    levels = ("normal", "default", "strong")     # default: SamplingBot() with its default samples
    times = [timing(level, args.timing, args.seed) for level in levels] if args.timing else []
    if args.json:
        print(json.dumps({"ladder": rows, "timing": times}))
        return 0
    print(f"{'A':<8}{'B':<8}{'rules':<11}{'deals':>6}{'A - B per hand':>16}{'±95%':>8}{'time':>9}")
    for r in rows:
        print(f"{r['a']:<8}{r['b']:<8}{r['rules']:<11}{r['deals']:>6}{r['mean']:>+16.1f}{r['ci95']:>8.1f}"
              f"{r['seconds']:>8.0f}s")
    for t in times:
        print(f"{t['level']}: card decision median {t['card_median_ms']:.1f} ms, p99 {t['card_p99_ms']:.1f} ms, "
              f"max {t['card_max_ms']:.1f} ms ({t['card_decisions']} decisions with a choice); "
              f"bid median {t['bid_median_ms']:.1f} ms, p99 {t['bid_p99_ms']:.1f} ms ({t['bids']} bids)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
