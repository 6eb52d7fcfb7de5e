"""Benchmark of the Klaverjas double-dummy solver: full-deal solves.

N random deals (default 1000) x 4 trumps, declarer N, leader E (``--random-seats``
for random ones), Amsterdam rules unless ``--rules``.  Prints median / p90 / p99 /
max time per solve and node counts, and where the nodes go (made test, exact d
search, nat search).  Then times the made test alone through the public API
(``is_made``: does the playing team make the hand?) on the same deals, checked
against the exact values.

    python benchmarks/klaverjas_dd.py --deals 200
    python benchmarks/klaverjas_dd.py --repeat 3   # each solve's fastest of 3 passes
    python benchmarks/klaverjas_dd.py --deals 0 --endgames 0 --bid-repeat 3   # analyse_bid only

On a shared machine a solve's time varies with the neighbours' load; with
``--repeat K`` every solve runs in K passes over all the solves (the same
values and node counts asserted each pass) and the times are each solve's
fastest, the usual way to time code apart from interference.

Also times every card's value of endgames (three tricks left) side by side with
the plain minimax of the tests (the slow reference), and ``analyse_bid``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from quartet_solver.klaverjas import Deal, PlayState, Rules
from quartet_solver.klaverjas.dd import DEFAULT_TT_BITS, _kernel, is_made, solve


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def endgames_vs_minimax(count: int, rules: Rules, seed: int) -> None:
    """Side by side with the slow reference (tests/reference/klaverjas_minimax.py: plain
    minimax, no pruning): every legal card's value of random endgames with three
    tricks left (often mid-trick), same positions, same process."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
    from reference.klaverjas_minimax import card_values as ref_card_values

    rng = random.Random(seed + 1)
    states = []
    for _ in range(count):
        st = PlayState(Deal.random(seed=rng.randrange(1 << 62)), trump=rng.choice("cdhs"),
                       declarer=rng.randrange(4), leader=rng.randrange(4), rules=rules)
        for _ in range(20 + rng.randrange(4)):
            st = st.play(rng.choice(st.legal_cards()))
        states.append(st)
    t0 = time.perf_counter()
    ours = [solve(st, pv=False).card_values for st in states]
    t_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    ref = [ref_card_values(st) for st in states]
    t_ref = time.perf_counter() - t0
    assert ours == ref, "solver and plain minimax disagree"
    print(f"{count} endgames (3 tricks left), every card's value: solver {t_ours / count * 1e3:.3f} ms, "
          f"plain minimax {t_ref / count * 1e3:.1f} ms per position -> {t_ref / t_ours:.0f}x; values equal")


def full_deals(cases: list[tuple[Deal, int, int, int]], rules: Rules, kernel,
               args: argparse.Namespace) -> None:
    """Times every full-deal solve of ``cases`` (and the made test alone on them)."""
    stuk = {"trick": 0, "hand": 1, "off": 2}[rules.stuk]
    times: list[float] = []
    for rep in range(args.repeat):
        run_times, nodes, values = [], [], []
        phases = [0, 0]
        for deal, trump, declarer, leader in cases:
            hands = [h.mask >> 20 for h in deal.hands]
            kernel.set_limits(None, None)
            t0 = time.perf_counter()
            v = kernel.solve_deal(*hands, trump, leader, declarer % 2, rules.variant == "rotterdam", stuk,
                                  rules.pit, rules.tie_is_nat)
            run_times.append(time.perf_counter() - t0)
            nodes.append(kernel.nodes)
            values.append(v)
            for i, n in enumerate(kernel.phase_nodes):
                phases[i] += n
        if rep == 0:
            first = (nodes, values)
            times = run_times
        else:
            assert (nodes, values) == first, "a pass searched other nodes or found other values"
            times = [min(a, b) for a, b in zip(times, run_times)]
    nat = sum(v < 0 for v in values)
    n = len(times)
    passes = f", each solve's fastest of {args.repeat} passes" if args.repeat > 1 else ""
    print(f"{n} full-deal solves ({args.deals} deals x 4 trumps), rules {rules}, "
          f"tt 2^{args.tt_bits}{passes}; nat under best play: {nat / n:.1%}")
    print(f"{'':8}{'median':>10}{'p90':>10}{'p99':>10}{'max':>10}{'mean':>10}")
    ms = [t * 1000 for t in times]
    print(f"{'ms':8}" + "".join(f"{x:10.3f}" for x in
                                (pct(ms, .5), pct(ms, .9), pct(ms, .99), max(ms), statistics.fmean(ms))))
    print(f"{'nodes':8}" + "".join(f"{x:10.0f}" for x in
                                   (pct(nodes, .5), pct(nodes, .9), pct(nodes, .99), max(nodes),
                                    statistics.fmean(nodes))))
    total = sum(phases) or 1
    print("nodes by phase: d search (made or not, exact d) {:.1%}, nat search {:.1%}".format(
        *(p / total for p in phases)))
    print(f"throughput: {sum(nodes) / sum(times) / 1e6:.2f} M nodes/s")
    print("targets: median <= 1 ms, p99 <= 20 ms"
          f" -> median is {pct(ms, .5):.1f}x the target, p99 {pct(ms, .99) / 20:.1f}x")
    made_ms = []
    for (deal, trump, declarer, leader), v in zip(cases, values):
        st = PlayState(deal, "cdhs"[trump], declarer, leader, rules=rules)
        t0 = time.perf_counter()
        made = is_made(st, tt_bits=args.tt_bits)
        made_ms.append((time.perf_counter() - t0) * 1000)
        assert made == (v >= 0), "is_made disagrees with the exact value"
    print(f"made test alone, is_made() (made or nat, no exact value; agrees with every value above): "
          f"median {pct(made_ms, .5):.3f} ms, p90 {pct(made_ms, .9):.3f}, p99 {pct(made_ms, .99):.3f}, "
          f"max {max(made_ms):.3f}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="amsterdam")
    ap.add_argument("--random-seats", action="store_true")
    ap.add_argument("--tt-bits", type=int, default=DEFAULT_TT_BITS)
    ap.add_argument("--repeat", type=int, default=1,
                    help="passes over the solves; each solve's time is its fastest pass")
    ap.add_argument("--endgames", type=int, default=100,
                    help="endgames (3 tricks left) timed against the plain minimax (0 skips it)")
    ap.add_argument("--bid-samples", type=int, default=500,
                    help="samples for the analyse_bid timing (0 skips it)")
    ap.add_argument("--bid-repeat", type=int, default=1,
                    help="analyse_bid runs; the time printed is the fastest (all are printed)")
    args = ap.parse_args(argv)
    if args.deals < 0:
        ap.error("--deals must be at least 0")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if args.bid_repeat < 1:
        ap.error("--bid-repeat must be at least 1")
    rules = Rules.named(args.rules)
    rng = random.Random(args.seed)
    kernel = _kernel(args.tt_bits)
    cases = []              # (deal, trump, declarer, leader) of every solve
    for _ in range(args.deals):
        deal = Deal.random(seed=rng.randrange(1 << 62))
        for trump in range(4):
            declarer, leader = (rng.randrange(4), rng.randrange(4)) if args.random_seats else (0, 1)
            cases.append((deal, trump, declarer, leader))
    if cases:
        full_deals(cases, rules, kernel, args)
    if args.endgames:
        endgames_vs_minimax(args.endgames, rules, args.seed)
    if args.bid_samples:
        from quartet_solver.chunks import usable_cpus
        from quartet_solver.klaverjas.analysis import analyse_bid

        runs, results = [], []
        for _ in range(args.bid_repeat):
            t0 = time.perf_counter()
            results.append(analyse_bid("Jh 9h Ah Th As Ks Ad 7c", seat="E", dealer="N",
                                       samples=args.bid_samples, rules=rules, seed=args.seed))
            runs.append(time.perf_counter() - t0)
        assert all(r.stats == results[0].stats for r in results), "analyse_bid runs disagree"
        each = ""
        if len(runs) > 1:
            each = f" (fastest of {len(runs)} runs: {', '.join(f'{t:.2f}' for t in runs)} s)"
        print(f"analyse_bid: {args.bid_samples} samples x 4 trumps in {min(runs):.2f} s on "
              f"{usable_cpus()} processes{each} (target 500 x 4 <= 2 s); "
              f"recommended {results[0].recommended}")


if __name__ == "__main__":
    main()
