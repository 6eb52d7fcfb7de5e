"""Quintet hand evaluation throughput, side by side with poker evaluators.

All evaluators run in this one process on the same random 5-card hands from the
32-card deck.  eval7, pokerkit and treys evaluate ordinary poker (their answers
differ from Quintet's ranking; only the speed is compared).  Ratios are to eval7
per call.  Install the peers with ``pip install ".[bench]"``.

Usage: python benchmarks/quintet_eval.py [--hands N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import numpy as np

from quartet_solver import Card, quintet

DECK32 = [r + s for r in "789TJQKA" for s in "cdhs"]


def best_time(fn: Callable[[], object], repeat: int = 7) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    texts = [rng.sample(DECK32, 5) for _ in range(args.hands)]
    ours_cards = [[Card(t) for t in hand] for hand in texts]
    masks = np.array([quintet.card_mask(h) for h in ours_cards], dtype=np.uint32)
    quintet.evaluate(ours_cards[0])  # build the tables outside the timings

    rows: list[tuple[str, int, float]] = []

    def record(name: str, n: int, seconds: float) -> None:
        rows.append((name, n, n / seconds))

    evaluate = quintet.evaluate
    record("quartet_solver evaluate (per call)", len(ours_cards),
           best_time(lambda: [evaluate(h) for h in ours_cards]))
    evaluate_masks = quintet.evaluate_masks
    big = np.tile(masks, 10)
    record("quartet_solver evaluate_masks (batch)", len(big), best_time(lambda: evaluate_masks(big)))

    try:
        import eval7

        e7_cards = [[eval7.Card(t) for t in hand] for hand in texts]
        e7 = eval7.evaluate
        record("eval7 evaluate (per call)", len(e7_cards), best_time(lambda: [e7(h) for h in e7_cards]))
    except ImportError:
        print("eval7 not installed: pip install eval7")

    try:
        from pokerkit import StandardHighHand

        pk_hands = ["".join(hand) for hand in texts[:20_000]]
        record("pokerkit StandardHighHand (per call)", len(pk_hands),
               best_time(lambda: [StandardHighHand(h) for h in pk_hands], repeat=1))
    except ImportError:
        print("pokerkit not installed: pip install pokerkit")

    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        tr_hands = [[TreysCard.new(t) for t in hand] for hand in texts[:100_000]]
        tr = evaluator.evaluate
        record("treys evaluate (per call)", len(tr_hands),
               best_time(lambda: [tr(h[:2], h[2:]) for h in tr_hands], repeat=1))
    except ImportError:
        print("treys not installed: pip install treys")

    base = next((r for n, _, r in rows if n.startswith("eval7")), None)
    if args.json:
        print(json.dumps([
            {"evaluator": n, "hands": k, "hands_per_s": r, "ratio_to_eval7": (r / base if base else None)}
            for n, k, r in rows
        ], indent=2))
        return
    print(f"{'evaluator':<40} {'hands':>9} {'hands/s':>14} {'vs eval7':>9}")
    for name, n, rate in rows:
        ratio = f"{rate / base:8.2f}x" if base else "      n/a"
        print(f"{name:<40} {n:>9} {rate:>14,.0f} {ratio}")
    print("targets: batch >= 100x eval7, single call >= 1x eval7")


if __name__ == "__main__":
    main()
