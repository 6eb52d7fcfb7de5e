"""The ``quartet-solver klaverjas`` commands."""

from __future__ import annotations

import argparse
import json

from collections.abc import Callable

from ..errors import InvalidStateError
from .bots import RandomBot, RuleBot
from .deal import Deal
from .match import play_match
from .rules import Rules

BOTS = {"rule": RuleBot, "random": RandomBot}


def _bots(spec: str, seed: int | None) -> list:
    names = [s.strip().lower() for s in spec.split(",")]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4 or any(n not in BOTS for n in names):
        raise InvalidStateError(f"--bots takes one or four of {sorted(BOTS)} separated by commas, got {spec!r}")
    out = []
    for i, name in enumerate(names):
        out.append(RandomBot(None if seed is None else seed * 4 + i) if name == "random" else RuleBot())
    return out


def _rules(args: argparse.Namespace) -> Rules:
    rules = Rules.named(args.rules)
    if args.stuk is not None:
        rules = rules.with_options(stuk=args.stuk)
    return rules


def _cmd_play(args: argparse.Namespace) -> int:
    rules = _rules(args)
    bots = _bots(args.bots, args.seed)
    quiet = args.json or args.quiet

    def progress(record) -> None:  # type: ignore[no-untyped-def]
        if not quiet:
            print(record.pretty(), flush=True)

    result = play_match(bots, seed=args.seed, date=args.date, rules=rules, hands=args.hands, progress=progress)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(f"final: N/S {result.totals[0]} E/W {result.totals[1]} — "
              + ("draw" if result.winner is None else f"{result.winner} wins"))
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    if (args.deal is None) == (args.seed is None):
        raise InvalidStateError("give exactly one of --deal or --seed")
    deal = Deal.parse(args.deal) if args.deal is not None else Deal.random(args.seed)
    if args.json:
        print(json.dumps(deal.to_dict(), ensure_ascii=False))
    else:
        print(deal.pbn())
        print(deal.pretty())
    return 0


def register(parser: argparse.ArgumentParser, add_common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the klaverjas commands to the ``klaverjas`` group parser."""
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(parser))
    play = sub.add_parser(
        "play",
        help="bots play a 16-hand game",
        description="Four bots (N, E, S, W) play a game: each hand's bidding, tricks and scores, "
        "then the totals. Deals come from --seed or are the daily deals of --date.",
    )
    play.add_argument("--seed", type=int, help="seed for the deals and the random bots")
    play.add_argument("--date", help="play the daily deals of this date (YYYY-MM-DD)")
    play.add_argument("--hands", type=int, default=16, help="number of hands (default 16)")
    play.add_argument("--bots", default="rule", help="'rule', 'random', or four of them: 'rule,random,rule,random'")
    play.add_argument("--rules", default="amsterdam", help="amsterdam (default) or rotterdam")
    play.add_argument("--stuk", choices=("trick", "hand", "off"), help="stuk option (default: the preset's)")
    play.add_argument("--quiet", action="store_true", help="print only the totals")
    add_common(play)
    play.set_defaults(handler=_cmd_play)

    show = sub.add_parser("show", help="show a deal", description="Show a deal (PBN) as a diagram.")
    show.add_argument("--deal", help="PBN deal, e.g. 'N:AKQ.J9.T87. ...'")
    show.add_argument("--seed", type=int, help="a random deal from this seed")
    add_common(show)
    show.set_defaults(handler=_cmd_show)


