"""Quintet exact equilibria of random deals: time, iterations, support, exploitability.

Each deal is solved from scratch (frontier, double oracle, final certificate, best
pure arrangement) in this one process, on one core.  Targets: median <= 2 s,
slowest of 20 <= 30 s.

Usage: python benchmarks/quintet_solve.py [--deals 20] [--first-seed 0] [--k 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from quartet_solver import quintet
from quartet_solver.quintet import solver as quintet_solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--kickers", choices=("seed", "full"), default="seed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    rows = []
    for seed in range(args.first_seed, args.first_seed + args.deals):
        deal = quintet.Deal.random(seed=seed, k=args.k)
        quintet_solver._GAMES.clear()  # no cached frontier: time the whole solve
        t0 = time.perf_counter()
        sol = quintet.solve(deal, kickers=args.kickers)
        seconds = time.perf_counter() - t0
        rows.append({
            "seed": seed,
            "seconds": seconds,
            "frontier": sol.frontier_size,
            "iterations": sol.iterations,
            "support": sol.support_size,
            "exploitability": sol.exploitability,
            "pure_loss": sol.pure_loss,
            "frontier_s": sol.timings["frontier"],
            "oracle_s": sol.timings["oracle"],
            "lp_s": sol.timings["lp"],
        })
        if not args.json:
            r = rows[-1]
            print(f"seed {seed:4d}  {seconds:7.3f} s  frontier {r['frontier']:4d}  iterations {r['iterations']:4d}"
                  f"  support {r['support']:3d}  exploitability {r['exploitability']:.1e}"
                  f"  (frontier {r['frontier_s']:.3f} s, oracle {r['oracle_s']:.3f} s, lp {r['lp_s']:.3f} s)"
                  f"  best pure loses {r['pure_loss']:.3f}")
    times = [r["seconds"] for r in rows]
    summary = {
        "deals": len(rows),
        "median_s": statistics.median(times),
        "max_s": max(times),
        "mean_s": statistics.fmean(times),
        "median_iterations": statistics.median(r["iterations"] for r in rows),
        "max_support": max(r["support"] for r in rows),
        "max_exploitability": max(r["exploitability"] for r in rows),
        "median_ratio_to_target": statistics.median(times) / 2.0,
        "max_ratio_to_target": max(times) / 30.0,
    }
    if args.json:
        print(json.dumps({"deals": rows, "summary": summary}, indent=2))
        return
    print(f"median {summary['median_s']:.3f} s (target 2 s: {summary['median_ratio_to_target']:.3f} of it), "
          f"slowest {summary['max_s']:.3f} s (target 30 s: {summary['max_ratio_to_target']:.4f} of it), "
          f"median iterations {summary['median_iterations']}, largest support {summary['max_support']}, "
          f"largest exploitability {summary['max_exploitability']:.1e}")


if __name__ == "__main__":
    main()
