"""The ``quartet-solver quintet`` commands."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from ..cards import as_cards, format_cards
from .hands import compare, evaluate


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
    ev.add_argument(
        "--kickers",
        choices=("seed", "full"),
        default="seed",
        help="tie-breaks: the seed's literal rules (default) or full poker kickers",
    )
    add_common(ev)
    ev.set_defaults(handler=_cmd_eval)
