"""The ``quartet-solver`` command line (also ``python -m quartet_solver``).

One subcommand group per game plus a ``cards`` utility group::

    quartet-solver cards "10h, A♠ kd"
    quartet-solver quintet eval "Ah Kh Qh Jh Th"
    quartet-solver quintet solve --seed 1 --json

Conventions: every command that prints a result takes ``--json`` and then
prints exactly one JSON document on standard output (``klaverjas serve``, which
runs a server, does not); bad input exits with status 2 and a one-line
message on standard error (no traceback); long work reports progress on
standard error unless ``--quiet``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from . import __version__
from .cards import CardSet, parse_cards
from .errors import QuartetError

PROG = "quartet-solver"

Handler = Callable[[argparse.Namespace], Any]


class UsageError(Exception):
    """Raised by the parser instead of printing usage and exiting."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message}")


def _emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    if getattr(args, "json", False):
        print(json.dumps(payload, ensure_ascii=False, sort_keys=False))
    else:
        print(text)


# -- cards ---------------------------------------------------------------------


def _cmd_cards(args: argparse.Namespace) -> int:
    cards = parse_cards(" ".join(args.cards))
    if args.set:
        cset = CardSet(cards)
        cards = list(cset)
    payload = {"cards": [str(c) for c in cards], "count": len(cards)}
    _emit(args, payload, " ".join(str(c) for c in cards))
    return 0


# -- parser --------------------------------------------------------------------


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (exposed for documentation and tests)."""
    parser = _Parser(
        prog=PROG,
        description="Solve and analyse Quintet, Klaverjas and Kwartet.",
        epilog="Run '%(prog)s GROUP --help' for the commands of a group. "
        "Every command that prints a result accepts --json.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    groups = parser.add_subparsers(dest="group", metavar="GROUP", parser_class=_Parser)

    cards = groups.add_parser(
        "cards",
        help="parse card text and print it in canonical notation",
        description="Parse cards (accepts '10h', upper case, suit symbols, commas) and print "
        "them in canonical notation, e.g. 'Th As 7c'.",
    )
    cards.add_argument("cards", nargs="+", help="card text, e.g. '10h, A♠ kd'")
    cards.add_argument("--set", action="store_true", help="require distinct cards; print them sorted")
    _add_common(cards)
    cards.set_defaults(handler=_cmd_cards)

    from .quintet import cli as quintet_cli

    quintet = groups.add_parser(
        "quintet",
        help="Quintet: hand evaluation, equilibria and best responses",
        description="Quintet: both players split the same 25 cards into five poker hands "
        "worth 3, 4, 5, 6 and 7 points. Evaluate and compare hands, solve a deal "
        "(certified equilibrium), compute best responses.",
    )
    quintet_cli.register(quintet, _add_common)

    from .klaverjas import cli as klaverjas_cli
    from .kwartet import cli as kwartet_cli

    klaverjas = groups.add_parser(
        "klaverjas",
        help="Klaverjas: the Dutch four-player trick-taking game",
        description="Klaverjas (Amsterdam and Rotterdam rules): play and score hands and "
        "16-hand matches with bots.",
    )
    klaverjas_cli.register(klaverjas, _add_common)
    kwartet = groups.add_parser(
        "kwartet",
        help="Kwartet: the Dutch asking-and-collecting game of quartets",
        description="Kwartet: simulate games between bots and infer who holds which card.",
    )
    kwartet_cli.register(kwartet, _add_common)
    return parser


def _json_error(kind: str, message: str) -> None:
    print(json.dumps({"error": {"type": kind, "message": message}}, ensure_ascii=False))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status.

    An error of the library ends the command with status 2 and a message on
    stderr; with ``--json`` stdout also gets it as a JSON document
    (``{"error": {"type": ..., "message": ...}}``), so a program reading
    stdout always gets JSON."""
    parser = build_parser()
    args = None
    try:
        args = parser.parse_args(argv)
        handler: Handler | None = getattr(args, "handler", None)
        if handler is None:
            sub = {"quintet": "quintet", "klaverjas": "klaverjas", "kwartet": "kwartet"}.get(
                args.group or ""
            )
            if sub is None:
                raise UsageError(f"{PROG}: error: no group given (see '{PROG} --help')")
            raise UsageError(f"{PROG} {sub}: error: no command given (see '{PROG} {sub} --help')")
        return int(handler(args) or 0)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        # the arguments did not parse: --json anywhere among them (or a prefix of it,
        # which argparse takes for it) asks for JSON
        given = sys.argv[1:] if argv is None else argv
        if any(len(a) >= 3 and "--json".startswith(a.split("=", 1)[0]) for a in given):
            _json_error("UsageError", str(exc).partition(": error: ")[2] or str(exc))
        return 2
    except QuartetError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        if getattr(args, "json", False):
            _json_error(type(exc).__name__, str(exc))
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        if getattr(args, "json", False):
            _json_error("KeyboardInterrupt", "interrupted")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
