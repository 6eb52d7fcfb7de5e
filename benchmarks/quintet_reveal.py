"""Quintet's reveal-order variant: what adapting gains, and what the solver certifies.

1. Gain of adapting, over ``--deals`` random 5-group deals: the exact adaptive best
   response against the fixed-order equilibrium (``solve``), minus the value (half
   the points).  0 on a deal would make that equilibrium one of the variant too.
2. Timings over the first ``--timed`` deals (median and max): the adaptive best
   response alone (frontier already computed by ``solve``) and from a cold start
   (frontier included); the variant's ``solve(variant="reveal")`` (fixed-order
   solve, double oracle of fixed arrangements against adaptive replies, exact
   certificate), with the certified exploitability bound it reaches.
3. With ``--k3-deals N``: certified equilibria of N random 3-group deals (double
   oracle over adaptive policies): exploitability, iterations, support, time.

Usage: python benchmarks/quintet_reveal.py [--deals 50] [--timed 20] [--k3-deals 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from quartet_solver import quintet
from quartet_solver.errors import SolverError
from quartet_solver.quintet import solver as quintet_solver


def _stats(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.4g}  max {max(xs):.4g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--timed", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--k3-deals", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    gains, br_warm, br_cold, cert_s, bounds, rows = [], [], [], [], [], []
    for seed in range(args.first_seed, args.first_seed + args.deals):
        deal = quintet.Deal.random(seed=seed)
        sol = quintet.solve(deal)
        t0 = time.perf_counter()
        res = quintet.best_response(deal, sol, variant="reveal")
        warm = time.perf_counter() - t0
        gain = res.value - sol.value
        gains.append(gain)
        row = {"seed": seed, "gain": gain, "support": sol.support_size, "frontier": sol.frontier_size,
               "br_seconds": warm}
        if seed < args.first_seed + args.timed:
            br_warm.append(warm)
            quintet_solver._GAMES.clear()
            t0 = time.perf_counter()
            quintet.best_response(deal, sol, variant="reveal")
            br_cold.append(time.perf_counter() - t0)
            quintet_solver._GAMES.clear()
            t0 = time.perf_counter()
            eq = quintet.solve(deal, variant="reveal")
            cert_s.append(time.perf_counter() - t0)
            bounds.append(eq.exploitability)
            row.update({"certificate_seconds": cert_s[-1], "bound": eq.exploitability,
                        "bound_support": eq.support_size, "iterations": eq.iterations})
        rows.append(row)

    k3 = []
    for seed in range(args.first_seed, args.first_seed + args.k3_deals):
        deal = quintet.Deal.random(seed=seed, k=3)
        t0 = time.perf_counter()
        try:
            eq = quintet.solve(deal, variant="reveal")
            k3.append({"seed": seed, "seconds": time.perf_counter() - t0, "exploitability": eq.exploitability,
                       "iterations": eq.iterations, "support": eq.support_size,
                       "fixed_order_gain": eq.fixed_order_gain})
        except SolverError as exc:
            k3.append({"seed": seed, "seconds": time.perf_counter() - t0, "error": str(exc)})
        if not args.json:
            print(f"3-group seed {seed}: {k3[-1]}", flush=True)

    if args.json:
        print(json.dumps({"deals": rows, "k3": k3}))
        return
    n = len(gains)
    if n == 0:
        _print_k3(k3)
        return
    print(f"gain of adapting against the fixed-order equilibrium, {n} random 5-group deals (of 25 points):")
    print(f"  mean {statistics.mean(gains):.4f}  min {min(gains):.4f}  max {max(gains):.4f}  "
          f"deals with gain > 1e-9: {sum(g > 1e-9 for g in gains)} of {n}")
    print(f"timings over {len(br_warm)} deals, seconds:")
    print(f"  adaptive best response (frontier cached)     {_stats(br_warm)}")
    print(f"  adaptive best response (cold, with frontier) {_stats(br_cold)}")
    print(f"  solve(variant='reveal') with certificate     {_stats(cert_s)}")
    print(f"certified exploitability bound of solve(variant='reveal'), {len(bounds)} 5-group deals:")
    print(f"  median {statistics.median(bounds):.4f}  min {min(bounds):.4f}  max {max(bounds):.4f}  "
          f"(the fixed-order equilibrium on the same deals: median "
          f"{statistics.median(gains[:len(bounds)]):.4f}, max {max(gains[:len(bounds)]):.4f})")
    _print_k3(k3)


def _print_k3(k3: list[dict[str, object]]) -> None:
    if k3:
        ok: list[dict[str, float]] = [r for r in k3 if "error" not in r]  # type: ignore[misc]
        print(f"3-group deals, certified equilibria of the variant: {len(ok)} of {len(k3)}")
        if ok:
            print(f"  exploitability max {max(r['exploitability'] for r in ok):.3g}; "
                  f"seconds {_stats([r['seconds'] for r in ok])}; "
                  f"iterations {_stats([r['iterations'] for r in ok])}; "
                  f"support {_stats([r['support'] for r in ok])}; "
                  f"fixed-order gain {_stats([r['fixed_order_gain'] for r in ok])}")
        for r in k3:
            if "error" in r:
                print(f"  seed {r['seed']}: {r['error']} ({r['seconds']:.1f} s)")


if __name__ == "__main__":
    main()
