"""The ``quartet-solver klaverjas`` commands."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

from ..checks import check_int, check_plot_path
from ..errors import InvalidStateError
from .bots import RandomBot, RuleBot
from .sampling_bot import make_bot
from .deal import Deal
from .match import HandRecord, play_match
from .rules import SEATS, Rules, seat_index
from .state import PlayState

BOTS = ("rule", "random", "easy", "normal", "strong")
"""The bots ``play --bots`` takes: the rule-based and random bots and the levels of
:data:`~quartet_solver.klaverjas.sampling_bot.LEVELS` (``easy`` is the rule-based bot)."""


def _bots(spec: str, seed: int | None) -> list:
    names = [s.strip().lower() for s in spec.split(",")]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4 or any(n not in BOTS for n in names):
        raise InvalidStateError(f"--bots takes one or four of {', '.join(BOTS)} separated by commas, got {spec!r}")
    if seed is not None:
        check_int(seed, "--seed", low=0)  # before the seeds derived from it
    out: list = []
    for i, name in enumerate(names):
        if name == "random":
            out.append(RandomBot(None if seed is None else seed * 4 + i))
        elif name == "rule":
            out.append(RuleBot())
        else:
            out.append(make_bot(name, seed=0 if seed is None else seed * 4 + i))
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

    totals = [0, 0]

    def progress(record: HandRecord) -> None:
        totals[0] += record.result.scores[0]
        totals[1] += record.result.scores[1]
        if not quiet:
            print(record.pretty(), flush=True)
            print(f"  totals after hand {record.number}: N/S {totals[0]}, E/W {totals[1]}", flush=True)

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


def _cmd_solve(args: argparse.Namespace) -> int:
    from .dd import solve

    deal = Deal.parse(args.deal) if args.deal is not None else None
    if deal is None:
        raise InvalidStateError("--deal is required")
    leader = args.leader or args.declarer
    state = PlayState(deal, args.trump, args.declarer, leader, rules=_rules(args))
    if args.play:
        state = state.play_all(args.play)
    if args.target is not None:
        return _answer_target(state, args)
    res = solve(state, node_limit=args.node_limit, time_limit=args.time_limit)
    if args.json:
        print(json.dumps({"state": state.to_dict(), "solution": res.to_dict()}, ensure_ascii=False))
        return 0
    best = set(res.best_cards)
    if state.history:       # the position reached: the cards left, the trick, the best card marked
        print(state.pretty({c: f"({v:+d}{'*' if c in best else ''})" for c, v in res.card_values.items()}))
    else:
        print(deal.pretty())
        print(f"trumps {state.trump.symbol}, declarer {SEATS[state.declarer]}, {state.to_move} to move")
    print(res.pretty())
    return 0


def _answer_target(state: PlayState, args: argparse.Namespace) -> int:
    """``solve --target``: whether the playing team reaches the target net score."""
    from .dd import reaches

    if args.node_limit is not None or args.time_limit is not None:
        raise InvalidStateError("--target answers exactly: it takes no --node-limit or --time-limit")
    start = time.perf_counter()
    answer = reaches(state, args.target)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"state": state.to_dict(), "target": args.target, "reaches": answer,
                          "seconds": seconds}, ensure_ascii=False))
        return 0
    verdict = "reaches" if answer else "does not reach"
    print(f"the playing team {verdict} a net score of at least {args.target:+d} "
          f"under optimal play ({seconds * 1000:.1f} ms)")
    return 0


def _cmd_table(args: argparse.Namespace) -> int:
    from .analysis import dd_table, par

    deal = Deal.parse(args.deal)
    rules = _rules(args)
    if args.dealer is not None:
        p = par(deal, args.dealer, rules=rules)
        table = p.table
        if args.leader is not None and seat_index(args.leader) != (seat_index(args.dealer) + 1) % 4:
            raise InvalidStateError(f"--leader {args.leader} with --dealer {args.dealer}: the dealer's left, "
                                    f"{SEATS[(seat_index(args.dealer) + 1) % 4]}, leads; leave out --leader")
    else:
        p, table = None, dd_table(deal, leader="E" if args.leader is None else args.leader, rules=rules)
    if args.json:
        print(json.dumps({"table": table.to_dict(), "par": p.to_dict() if p else None}, ensure_ascii=False))
        return 0
    print(deal.pretty())
    print(table.pretty() if p is None else p.pretty())
    return 0


def _cmd_bid(args: argparse.Namespace) -> int:
    from ..progress import Progress
    from .analysis import analyse_bid

    # progress on stderr: on a terminal (not with --json), always with --progress, never with --quiet
    shown = not args.quiet and (args.progress or (sys.stderr.isatty() and not args.json))
    with Progress(args.samples, "samples", enabled=shown) as progress:
        res = analyse_bid(args.hand, seat=args.seat, dealer=args.dealer, samples=args.samples,
                          rules=_rules(args), seed=args.seed, processes=args.processes, progress=progress)
    print(json.dumps(res.to_dict(), ensure_ascii=False) if args.json else res.pretty())
    return 0


def _review_records(source: str) -> tuple[list[HandRecord], bool]:
    """The hands of ``review``'s FILE (``-``: stdin): a hand record's JSON, a
    game's JSON (``play --json``) or a PBN-style file; and whether it was a game."""
    from pathlib import Path

    from ..errors import NotationError
    from .match import MatchResult

    if source == "-":
        text, name = sys.stdin.read(), "stdin"
    else:
        try:
            text, name = Path(source).read_text(encoding="utf-8"), source
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidStateError(f"cannot read {source!r}: {getattr(exc, 'strerror', None) or exc}") from None
    if not text.strip():
        raise InvalidStateError(f"{name} is empty: give the JSON of a hand or a game, or a PBN file")
    if text.lstrip().startswith("{") or source.lower().endswith(".json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"{name} is not valid JSON: {exc}") from None
        except RecursionError:
            raise NotationError(f"{name} nests its JSON too deeply to be a hand or a game") from None
        if isinstance(data, dict) and "hands" in data:
            return list(MatchResult.from_dict(data).hands), True
        return [HandRecord.from_dict(data)], False
    from .pbn import read_pbn

    records = read_pbn(text)
    if not records:
        raise InvalidStateError(f"{name} holds no hand (give the JSON of a hand or a game, or a PBN file)")
    return records, len(records) > 1


def _cmd_review(args: argparse.Namespace) -> int:
    from .hand_review import review

    records, game = _review_records(args.file)
    if args.hand is not None:
        chosen = [r for r in records if r.number == args.hand]
        if not chosen:
            raise InvalidStateError(f"no hand {args.hand} in {args.file!r} (hands: "
                                    f"{', '.join(str(r.number) for r in records)})")
        records, game = chosen[:1], False
    reviews = [review(r, node_limit=args.node_limit) for r in records]
    if args.json:
        if game:
            losses = {team: sum(rv.team_loss(team) for rv in reviews) for team in ("NS", "EW")}
            print(json.dumps({"analysis": "double-dummy (every hand seen)", "reviews": [rv.to_dict() for rv in reviews],
                              "losses": losses}, ensure_ascii=False))
        else:
            print(json.dumps(reviews[0].to_dict(), ensure_ascii=False))
        return 0
    print("\n\n".join(rv.pretty() for rv in reviews))
    if game:
        print(f"\ngame: {len(reviews)} hands; losses by team (double dummy): "
              f"N/S {sum(rv.team_losses[0] for rv in reviews)}, E/W {sum(rv.team_losses[1] for rv in reviews)}")
    return 0


def _scheduler_client(address: str | None) -> object | None:
    """A dask.distributed client of the scheduler at ``address`` (None: no client)."""
    if address is None:
        return None
    try:
        from distributed import Client
    except ImportError:
        raise InvalidStateError("--scheduler needs dask.distributed: pip install 'quartet-solver[cluster]'") from None
    try:
        return Client(address, timeout=30)
    except (OSError, TimeoutError) as exc:
        raise InvalidStateError(f"cannot reach the dask scheduler at {address!r}: {exc}") from None


def _cmd_study_bids(args: argparse.Namespace) -> int:
    from ..progress import Progress
    from ..figures import pyplot
    from .studies import bid_study

    if args.plot is not None:
        check_plot_path(args.plot)
        pyplot("--plot")    # no matplotlib: say so before the solving, not after
    client = _scheduler_client(args.scheduler)
    shown = not args.quiet and (args.progress or (sys.stderr.isatty() and not args.json))
    try:
        with Progress(args.deals, "deals", enabled=shown) as progress:
            study = bid_study(args.deals, seed=args.seed, rules=_rules(args), client=client,
                              processes=args.processes, progress=progress)
    finally:
        if client is not None:
            client.close()  # type: ignore[attr-defined]
    if args.plot is not None:
        study.plot(args.plot)
    if args.json:
        payload = study.to_dict()
        payload["plot"] = args.plot
        print(json.dumps(payload, ensure_ascii=False))
    else:
        print(study.pretty())
        if args.plot is not None:
            print(f"plot: {args.plot}")
    return 0


def _cmd_study_none(args: argparse.Namespace) -> int:
    raise InvalidStateError("give a study: 'quartet-solver klaverjas study bids --deals N' "
                            "(see 'quartet-solver klaverjas study --help')")


def _register_study(sub: argparse._SubParsersAction, add_common: Callable[[argparse.ArgumentParser], None],
                    parser_class: type) -> None:
    """The ``study`` group: studies over many random deals (``bids``)."""
    study = sub.add_parser(
        "study",
        help="studies over many random deals (double dummy)",
        description="Studies over many random deals, solved double dummy (every hand seen).",
    )
    study.set_defaults(handler=_cmd_study_none)
    kinds = study.add_subparsers(dest="study", metavar="STUDY", parser_class=parser_class)
    bids = kinds.add_parser(
        "bids",
        help="which trump holdings make the hand: P(made) and mean net by holding",
        description="Solve random deals double dummy (the dealer's left leading) and relate every "
        "seat's hand x every trump, with that seat's team playing, to the outcome: P(made) and the "
        "mean net by trump holding (jack, nine, ace, number of trumps, aces outside) with 95% "
        "intervals; check the advice 'choose trump with the jack, or the nine and the ace, and at "
        "least three trumps' and 'pass a hand that only looks good in a suit without the jack or the "
        "nine'. Outcomes are double dummy: every hand seen.",
    )
    bids.add_argument("--deals", type=int, required=True, help="number of random deals")
    bids.add_argument("--seed", type=int, help="seed of the deals (default: a fresh one, reported)")
    bids.add_argument("--scheduler", metavar="ADDRESS",
                      help="run on the dask.distributed cluster of this scheduler, e.g. tcp://10.0.0.1:8786")
    bids.add_argument("--processes", type=int,
                      help="worker processes (default: the CPUs this process may use; with --scheduler: "
                           "the cluster's threads)")
    bids.add_argument("--plot", metavar="FILE.png", help="also draw the bar chart into this file (needs matplotlib)")
    _add_progress_args(bids)
    _add_rules_args(bids)
    add_common(bids)
    bids.set_defaults(handler=_cmd_study_bids)


def _cmd_serve(args: argparse.Namespace) -> int:
    """``serve``: the browser game's server (needs the ``web`` extra)."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise InvalidStateError(f"'klaverjas serve' needs FastAPI and uvicorn ({exc.name} is missing): "
                                f'pip install ".[web]" in the project folder') from None
    from .web.app import serve
    from .web.storage import default_db_path

    if args.port is not None and not 0 <= args.port <= 65535:
        raise InvalidStateError(f"--port must be 0..65535, got {args.port}")
    db = args.db if args.db is not None else str(default_db_path())
    if not args.quiet:
        print(f"Klaverjas on http://{args.host}:{args.port}/ (database {db}, {args.workers} worker"
              f"{'s' if args.workers != 1 else ''}); Ctrl-C stops it", file=sys.stderr, flush=True)
    serve(args.host, args.port, db, workers=args.workers, log_level="warning" if args.quiet else "info")
    return 0


def _add_progress_args(p: argparse.ArgumentParser) -> None:
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--quiet", action="store_true", help="no progress output")
    shown.add_argument("--progress", action="store_true",
                       help="progress (count, rate, time left) on stderr even when it is not a terminal "
                            "(default: only on a terminal, and not with --json)")


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="amsterdam", help="amsterdam (default) or rotterdam")
    p.add_argument("--stuk", choices=("trick", "hand", "off"), help="stuk option (default: the preset's)")


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
    play.add_argument("--date", help="play the daily deals of this date (YYYY-MM-DD, or 'today')")
    play.add_argument("--hands", type=int, default=16, help="number of hands (default 16)")
    play.add_argument("--bots", default="rule", help="one bot for all seats or four (N,E,S,W): rule, random, or a level "
                      "(easy = rule, normal, strong: players that sample the hidden cards), "
                      "e.g. 'normal,rule,normal,rule'")
    _add_rules_args(play)
    play.add_argument("--quiet", action="store_true", help="print only the totals")
    add_common(play)
    play.set_defaults(handler=_cmd_play)

    show = sub.add_parser("show", help="show a deal", description="Show a deal (PBN) as a diagram.")
    show.add_argument("--deal", help="PBN deal, e.g. 'N:AKQ.J9.T87. ...'")
    show.add_argument("--seed", type=int, help="a random deal from this seed")
    add_common(show)
    show.set_defaults(handler=_cmd_show)

    solve = sub.add_parser(
        "solve",
        help="double-dummy value of a position and of every legal card",
        description="Exact double-dummy solve (all hands visible): the net score of the playing "
        "team under optimal play, the value of every legal card and a principal variation.",
    )
    solve.add_argument("--deal", required=True, help="PBN deal")
    solve.add_argument("--trump", required=True, help="trump suit: c, d, h or s")
    solve.add_argument("--declarer", required=True, help="seat that named trumps (N, E, S, W)")
    solve.add_argument("--leader", help="seat leading the first trick (default: the declarer)")
    solve.add_argument("--play", help="cards played so far, e.g. 'Jh 7h 8h 9h As'")
    solve.add_argument("--node-limit", type=int, help="stop after this many nodes (bounds)")
    solve.add_argument("--time-limit", type=float, help="stop after this many seconds (bounds)")
    solve.add_argument("--target", type=int,
                       help="only answer whether the playing team's net score reaches this "
                            "(0: is the hand made?); much faster than the exact value")
    _add_rules_args(solve)
    add_common(solve)
    solve.set_defaults(handler=_cmd_solve)

    table = sub.add_parser(
        "table",
        help="DD table: net value for every trump x playing team",
        description="Solve every trump x playing team of a deal; with --dealer also the par bidding.",
    )
    table.add_argument("--deal", required=True, help="PBN deal")
    table.add_argument("--leader", help="seat leading the first trick (default E; with --dealer the dealer's left)")
    table.add_argument("--dealer", help="also compute par with this dealer (leader = dealer's left)")
    _add_rules_args(table)
    add_common(table)
    table.set_defaults(handler=_cmd_table)

    bid = sub.add_parser(
        "bid",
        help="bid value of a hand by double-dummy sampling",
        description="Deal the unseen cards at random many times, solve each sample double dummy for "
        "every trump with this seat's team playing, and report mean net, P(nat), P(pit) per trump.",
    )
    bid.add_argument("--hand", required=True, help="the 8 cards of the hand")
    bid.add_argument("--seat", default="E", help="seat of the hand (default E)")
    bid.add_argument("--dealer", default="N", help="dealer (default N)")
    from .analysis import MAX_SAMPLES

    bid.add_argument("--samples", type=int, default=500,
                     help=f"number of samples (default 500, at most {MAX_SAMPLES:,})")
    bid.add_argument("--seed", type=int, help="seed for the sampling")
    bid.add_argument("--processes", type=int, help="worker processes (default: the CPUs this process may use)")
    _add_progress_args(bid)
    _add_rules_args(bid)
    add_common(bid)
    bid.set_defaults(handler=_cmd_bid)

    review = sub.add_parser(
        "review",
        help="double-dummy review of played hands: what each card cost",
        description="Double-dummy review (every hand seen) of played hands: for each card the value "
        "of the position before and after it (net for the playing team) and what it cost its own team; "
        "the losses per seat and team; the bidding beside par. FILE: the JSON of one hand record, "
        "a whole game's JSON ('klaverjas play --json') or a PBN-style file; '-' reads stdin.",
    )
    review.add_argument("file", metavar="FILE", help="hand or game JSON, or a PBN file; '-' for stdin")
    review.add_argument("--hand", type=int, help="review only the hand with this number")
    review.add_argument("--node-limit", type=int, help="node limit per solve (an error when it is hit)")
    add_common(review)
    review.set_defaults(handler=_cmd_review)

    _register_study(sub, add_common, type(parser))

    serve = sub.add_parser(
        "serve",
        help="run the browser game (you play South) on a web server",
        description="Run the browser Klaverjas game: you (South) and a computer partner against two "
        "computer opponents; Daily games (everybody the same deals, with rankings) and New games. "
        "The JSON API is described in docs/klaverjas_web_api.md. Needs the web extra: "
        'pip install ".[web]" in the project folder.',
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", metavar="PATH",
                       help="SQLite database file (default $XDG_DATA_HOME/quartet-solver/klaverjas.sqlite3, "
                            "else ~/.local/share/...); ':memory:' only with one worker")
    serve.add_argument("--workers", type=int, default=1, help="worker processes sharing the database (default 1)")
    serve.add_argument("--quiet", action="store_true", help="log only warnings")
    serve.set_defaults(handler=_cmd_serve)


