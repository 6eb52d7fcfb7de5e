"""The ``quartet-solver quintet`` commands."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable

from ..cards import as_cards, format_cards
from ..checks import check_plot_path
from ..errors import InvalidStateError
from .arrangement import Arrangement
from .deal import Deal
from .hands import compare, evaluate
from .solver import best_response, solve


def _cmd_eval(args: argparse.Namespace) -> int:
    values = [evaluate(hand, kickers=args.kickers) for hand in args.hands]
    hands = [format_cards(as_cards(h)) for h in args.hands]
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    if args.json:
        payload: dict[str, object] = {
            "kickers": args.kickers,
            "hands": [{"cards": h, **v.to_dict()} for h, v in zip(hands, values)],
        }
        if len(values) > 1:
            payload["winners"] = winners
            payload["order"] = sorted(range(len(values)), key=lambda i: -values[i].strength)
        print(json.dumps(payload, ensure_ascii=False))
        return 0
    width = max(len(h) for h in hands)
    for i, (h, v) in enumerate(zip(hands, values)):
        mark = "  *" if len(values) > 1 and i in winners else ""
        print(f"{h:<{width}}  {v}  (strength {v.strength}){mark}")
    if len(values) == 2:
        c = compare(values[0], values[1])
        print({1: "first hand wins", -1: "second hand wins", 0: "exact tie"}[c])
    elif len(values) > 2:
        print("winner: " + ", ".join(f"hand {i + 1}" for i in winners) + (" (tie)" if len(winners) > 1 else ""))
    return 0


def _deal_from_args(args: argparse.Namespace) -> Deal:
    given = [x is not None for x in (args.deal, args.removed, args.seed)]
    if sum(given) != 1:
        raise InvalidStateError("give exactly one of --deal, --removed or --seed")
    k = 5 if args.k is None else args.k
    if args.deal is not None:
        deal = Deal.parse(args.deal)
        if args.k is not None and args.k != deal.k:
            raise InvalidStateError(f"--k {args.k} does not match the {deal.k}-group deal '{deal}'")
        return deal
    if args.removed is not None:
        return Deal.from_removed(args.removed, k=k)
    return Deal.random(seed=args.seed, k=k)


def _points(args: argparse.Namespace, deal: Deal) -> tuple[float, ...] | None:
    if args.points is None:
        return None
    try:
        return tuple(float(p) for p in args.points.replace(",", " ").split())
    except ValueError:
        raise InvalidStateError(f"--points must be numbers, got {args.points!r}") from None


def _cmd_solve(args: argparse.Namespace) -> int:
    deal = _deal_from_args(args)
    points = _points(args, deal)
    quiet = args.quiet or not sys.stderr.isatty() and not args.progress
    t0 = time.perf_counter()

    def progress(iteration: int, gain: float, columns: int) -> None:
        if not quiet and (iteration % 10 == 0 or gain <= 1e-9):
            print(
                f"\r[{time.perf_counter() - t0:7.2f} s] iteration {iteration:5d}  "
                f"columns {columns:5d}  best-response gain {max(gain, 0.0):.3e}",
                end="",
                file=sys.stderr,
                flush=True,
            )

    if args.variant == "reveal":
        if args.progress:
            raise InvalidStateError("--progress is not available with --variant reveal (its solver reports none)")
        eq = solve(deal, points=points, kickers=args.kickers, variant="reveal")
        print(json.dumps(eq.to_dict(), ensure_ascii=False) if args.json else eq.pretty())
        return 0
    sol = solve(deal, points=points, kickers=args.kickers, progress=progress)
    if not quiet:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(sol.to_dict(), ensure_ascii=False))
    else:
        print(sol.pretty())
    return 0


def _cmd_best_response(args: argparse.Namespace) -> int:
    deal = _deal_from_args(args)
    points = _points(args, deal)
    opponent: list[tuple[Arrangement, float]] = []
    for item in args.opponent:
        text, _, prob = item.partition("@")
        try:
            p = float(prob) if prob.strip() else 1.0
        except ValueError:
            p = math.nan
        if not (math.isfinite(p) and p >= 0):
            raise InvalidStateError(
                f"the probability of OPPONENT {item!r} must be a finite number >= 0, got {prob!r}"
            )
        opponent.append((Arrangement.parse(text, deal), p))
    largest = max(p for _, p in opponent)
    if not largest > 0:
        raise InvalidStateError("opponent probabilities must sum to a positive number")
    # scale by the largest first: the sum of a few huge weights would overflow to inf
    total = sum(p / largest for _, p in opponent)
    opponent = [(a, p / largest / total) for a, p in opponent]
    if args.variant == "reveal":
        res = best_response(deal, opponent, points=points, kickers=args.kickers, variant="reveal")
        print(json.dumps(res.to_dict(), ensure_ascii=False) if args.json else res.pretty())
        return 0
    arr, value = best_response(deal, opponent, points=points, kickers=args.kickers)
    if args.json:
        print(json.dumps({"deal": str(deal), "best_response": arr.to_dict(kickers=args.kickers), "value": value},
                         ensure_ascii=False))
    else:
        print(arr.pretty(kickers=args.kickers))
        print(f"expected points: {value:.6f}")
    return 0


def _cmd_study(args: argparse.Namespace) -> int:
    from ..figures import pyplot
    from ..progress import Progress
    from .studies import quintet_study

    if args.plot is not None:
        check_plot_path(args.plot)
        pyplot("--plot")    # no matplotlib: say so before the solving, not after
    shown = not args.quiet and (args.progress or (sys.stderr.isatty() and not args.json))
    with Progress(args.deals, "deals", enabled=shown) as progress:
        study = quintet_study(args.deals, seed=args.seed, processes=args.processes, progress=progress)
    if args.plot is not None:
        study.plot(args.plot)
    if args.json:
        print(json.dumps({**study.to_dict(), "plot": args.plot}, ensure_ascii=False))
    else:
        print(study.pretty())
        if args.plot is not None:
            print(f"plot: {args.plot}")
    return 0


def _add_deal_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deal", help="the 25 (5k) cards both players hold")
    p.add_argument("--removed", help="the 7 (32 - 5k) cards removed from the 32-card deck")
    p.add_argument("--seed", type=int, help="a random deal from this seed")
    p.add_argument("--k", type=int, help="groups per player for --removed/--seed (default 5)")
    p.add_argument("--points", help="points of the positions, e.g. '3 4 5 6 7' (the default)")
    _add_kickers(p)
    p.add_argument(
        "--variant",
        choices=("fixed", "reveal"),
        default="fixed",
        help="fixed: reveal orders fixed in advance (default); reveal: the round-by-round variant, "
        "each round's group chosen after seeing the earlier reveals",
    )


def _add_kickers(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--kickers",
        choices=("seed", "full"),
        default="seed",
        help="tie-breaks: the rules as written (default) or full poker kickers",
    )


def register(parser: argparse.ArgumentParser, add_common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the quintet commands to the ``quintet`` group parser."""
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(parser))
    ev = sub.add_parser(
        "eval",
        aliases=["compare"],
        help="evaluate one hand, or compare two or more",
        description="Evaluate Quintet hands (5 cards from 7..A each). With two or more hands, "
        "also say which wins; '*' marks the winner(s).",
    )
    ev.add_argument("hands", nargs="+", metavar="HAND", help="five cards, e.g. 'Ah Kh Qh Jh Th'")
    _add_kickers(ev)
    add_common(ev)
    ev.set_defaults(handler=_cmd_eval)

    so = sub.add_parser(
        "solve",
        help="certified equilibrium of a deal",
        description="Solve a Quintet deal: an equilibrium mixed strategy (arrangements with "
        "probabilities), the value and the certified exploitability (what a best response gains "
        "against it). Give the deal with exactly one of --deal, --removed or --seed.",
    )
    _add_deal_args(so)
    so_quiet = so.add_mutually_exclusive_group()
    so_quiet.add_argument("--quiet", action="store_true", help="no progress output")
    so_quiet.add_argument("--progress", action="store_true",
                          help="progress output even when stderr is not a terminal (not with --variant reveal)")
    add_common(so)
    so.set_defaults(handler=_cmd_solve)

    br = sub.add_parser(
        "best-response",
        help="exact best response to an arrangement or a mix of arrangements",
        description="Best response to the opponent's arrangement(s). Each OPPONENT is "
        "'g1 / g2 / g3 / g4 / g5', optionally followed by '@probability'.",
    )
    br.add_argument("opponent", nargs="+", metavar="OPPONENT")
    _add_deal_args(br)
    add_common(br)
    br.set_defaults(handler=_cmd_best_response)

    st = sub.add_parser(
        "study",
        help="over random deals: equilibrium support sizes and what habits lose",
        description="Solve random deals and report the equilibrium's support size and how many points "
        "common habits (greedy hands with the strongest in the 7- and 6-point places, the best split "
        "shuffled, the max-min pure arrangement, ...) lose against a best response.",
    )
    st.add_argument("--deals", type=int, required=True, help="number of random deals")
    st.add_argument("--seed", type=int, help="seed of the deals (default: a fresh one, reported)")
    st.add_argument("--processes", type=int, help="worker processes (default: the CPUs this process may use)")
    st.add_argument("--plot", metavar="FILE.png", help="also draw the figure into this file (needs matplotlib)")
    quiet = st.add_mutually_exclusive_group()
    quiet.add_argument("--quiet", action="store_true", help="no progress output")
    quiet.add_argument("--progress", action="store_true", help="progress on stderr even when it is not a terminal")
    add_common(st)
    st.set_defaults(handler=_cmd_study)
