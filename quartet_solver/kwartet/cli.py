"""The ``quartet-solver kwartet`` commands.

::

    quartet-solver kwartet simulate --bots inference,memory,novice,novice --games 1000 --seed 1
    quartet-solver kwartet deck --deck world
    quartet-solver kwartet play --seed 3 --bots inference,novice,novice --seat 0
    quartet-solver kwartet play --seed 3 --bots planning,memory,memory,memory
    quartet-solver kwartet play --seed 3 --bots planning,planning,planning,planning --you 0
    quartet-solver kwartet simulate --bots planning,memory,memory,memory --games 20 --time-budget 0.1
    quartet-solver kwartet advise --deck standard:AKQJ --players 3 --hand "Ac Ad Qc Jc Js" \\
        --dealer 0 --events "1 asks 2 for Ks: yes; 1 asks 0 for Kh: no; 2 asks 1 for Qd: no"
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Callable
from typing import Any

from ..checks import check_int, check_plot_path
from ..errors import InvalidStateError
from ..figures import pyplot, save_figure
from ..progress import Progress
from .bots import Bot, play
from .decks import THEMED_DECKS, Deck
from .console import ConsolePlayer, GameLeft
from .game import Asked, Drew, Event, Game, Laid, Revealed
from .knowledge import Knowledge
from .planning import OPPONENT_MODELS, REVEAL, PlanningBot
from .record import replay_record
from .rules import Rules
from .simulate import SimulationResult, bot_seed, make_bot, simulate


def _deck(text: str) -> Deck:
    """``classic``/``nature``/``world``/``32``/``40``/``48``, ``standard``, ``standard:AKQJ``, or a file."""
    t = text.strip()
    if t.lower() == "standard":
        return Deck.standard()
    if t.lower().startswith("standard:"):
        return Deck.standard(t.split(":", 1)[1])
    if t.lower() in THEMED_DECKS:
        return Deck.themed(t.lower())
    if t.isdecimal():  # not isdigit(): that also takes "²", which int() refuses
        return Deck.themed(int(t))
    if t.lower().endswith((".json", ".toml")):
        return Deck.from_file(t)
    raise InvalidStateError(
        f"unknown deck {text!r}: use {', '.join(THEMED_DECKS)}, 32/40/48, standard[:RANKS] or a .json/.toml file"
    )


def _rules(args: argparse.Namespace) -> Rules:
    base = Rules.preset(args.rules)
    kw = base.to_dict()
    if args.bonus_turn:
        kw["bonus_turn"] = True
    if args.dealer_takes_rest:
        kw["remainder"] = "dealer"
    return Rules(**kw)


def _bots(text: str) -> list[str]:
    names = [b.strip() for b in text.replace(" ", ",").split(",") if b.strip()]
    for b in names:
        make_bot(b)  # validates the name
    return names


PLANNER_FLAGS = ("samples", "candidates", "diverse", "depth", "opponents", "time_budget")
"""The ``PlanningBot`` options the game commands take as flags (``--time-budget`` for
``time_budget``)."""


def _planner_options(args: argparse.Namespace) -> dict[str, Any]:
    """The planner flags given on the command line, as ``PlanningBot`` options."""
    return {k: getattr(args, k) for k in PLANNER_FLAGS if getattr(args, k, None) is not None}


def _make_bots(args: argparse.Namespace, seed_of: Callable[[int], int]) -> list[Bot]:
    """The bots of ``--bots``, bot ``i`` seeded ``seed_of(i)``; every planning bot takes
    the planner flags given (the others are its defaults, so with none given it plays
    as ``make_bot("planning")`` does).  A planner flag with no planning bot in
    ``--bots`` is an error."""
    check_int(args.seed, "--seed", low=0)  # before the seeds derived from it
    names = _bots(args.bots)
    options = _planner_options(args)
    if options and not any(n.lower() == "planning" for n in names) and getattr(args, "you", None) is None:
        flags = ", ".join("--" + k.replace("_", "-") for k in options)
        raise InvalidStateError(f"planning bot options ({flags}) need a planning bot in --bots, got {args.bots!r}")
    return [PlanningBot(seed=seed_of(i), **options) if n.lower() == "planning" else make_bot(n, seed=seed_of(i))
            for i, n in enumerate(names)]


def _cmd_simulate(args: argparse.Namespace) -> int:
    deck = _deck(args.deck)
    rules = _rules(args)
    bots = _make_bots(args, lambda i: bot_seed(args.seed, i))
    if args.plot is not None:  # before the games, not after them
        check_plot_path(args.plot)
        pyplot("--plot")
    quiet = args.quiet or args.json and not args.progress
    with Progress(args.games, "games", enabled=not quiet) as progress:
        result = simulate(bots, games=args.games, seed=args.seed, deck=deck, rules=rules,
                          rotate=not args.no_rotate, progress=progress)
    if args.plot:
        _plot(result, args.plot)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(result.pretty())
        if args.plot:
            print(f"histogram written to {args.plot}")
    return 0


def _plot(result: SimulationResult, path: str) -> None:
    plt = pyplot("--plot")
    fig, ax = plt.subplots(figsize=(7, 4))
    n = len(result.stats)
    width = 0.8 / n
    for i, s in enumerate(result.stats):
        xs = [x + (i - (n - 1) / 2) * width for x in range(len(s.quartet_hist))]
        ax.bar(xs, [h / s.games for h in s.quartet_hist], width=width, label=f"seat list {i}: {s.name}")
    ax.set_xlabel("quartets at the end of the game")
    ax.set_ylabel("fraction of games")
    ax.set_title(f"Kwartet, deck {result.deck!r}, {result.players} players, {result.games} games")
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path)


def _cmd_deck(args: argparse.Namespace) -> int:
    deck = _deck(args.deck)
    if args.json:
        print(json.dumps(deck.to_dict(), ensure_ascii=False))
    else:
        print(f"{deck.name}: {len(deck)} cards, {deck.n_quartets} quartets")
        for q in deck.quartets:
            print(f"  {q.name}: {', '.join(q.cards)}")
    return 0


def _new_game(args: argparse.Namespace) -> tuple[Deck, Game, list[Bot]]:
    """The deck, a dealt game and its bots (one per seat) from the common options."""
    deck = _deck(args.deck)
    bots = _make_bots(args, lambda i: args.seed * 31 + i)
    return deck, Game(deck, players=len(bots), seed=args.seed, rules=_rules(args)), bots


def _event_line(deck: Deck, names: list[str], ev: Event) -> str | None:
    """One event of the log as the play command prints it (``None`` for the deal)."""
    if isinstance(ev, Asked):
        return f"{names[ev.asker]} asks {names[ev.target]} for {deck.full_name(ev.card)}: {'yes' if ev.hit else 'no'}"
    if isinstance(ev, Laid):
        return f"{names[ev.player]} lays {deck.quartets[ev.quartet].name}"
    if isinstance(ev, Drew):
        return f"{names[ev.player]} draws a card"
    if isinstance(ev, Revealed):
        return f"{names[ev.player]} turns up {deck.full_name(ev.card)}"
    return None


def _play_with_you(args: argparse.Namespace, deck: Deck, game: Game, bots: list[Bot]) -> int:
    """``play --you SEAT``: a person types the asks of that seat; the events are shown
    as they happen."""
    you = args.you
    if not 0 <= you < game.players:
        raise InvalidStateError(f"--you must be a seat in 0..{game.players - 1}, got {you}")
    if args.json:
        raise InvalidStateError("--you plays in the terminal; --json is not available with it")
    options = _planner_options(args)
    bots[you] = ConsolePlayer(seed=args.seed * 31 + you, **options)
    names = [f"P{i}(you)" if i == you else f"P{i}({b.name})" for i, b in enumerate(bots)]
    print(f"Kwartet, {deck.name} deck, {game.players} players; you are P{you}. Type help for the commands.")
    for seat, bot in enumerate(bots):
        bot.start(game, seat)
    shown = 1
    try:
        while not game.is_over:
            for ev in game.log[shown:]:
                line = _event_line(deck, names, ev)
                if line:
                    print(line)
            shown = len(game.log)
            act = bots[game.to_move].choose()
            if act[0] == "ask":
                game.ask(act[1], act[2])  # type: ignore[misc]
            else:
                game.reveal(act[1])
    except GameLeft as exc:
        print(f"{exc}; quartets so far: {list(game.quartets)}")
        return 0
    _print_log(deck, names, game, shown)
    return 0


def _print_log(deck: Deck, names: list[str], game: Game, start: int) -> None:
    """The events of ``game`` from index ``start`` on, then its result."""
    for ev in game.log[start:]:
        line = _event_line(deck, names, ev)
        if line:
            print(line)
    print(f"quartets: {list(game.quartets)}; winner(s): {', '.join(names[w] for w in game.winners)}; "
          f"{game.asks} asks")


def _cmd_play(args: argparse.Namespace) -> int:
    deck, game, bots = _new_game(args)
    if args.you is not None:
        return _play_with_you(args, deck, game, bots)
    play(game, bots)
    if args.json:
        out = game.to_dict()
        out["bots"] = [b.name for b in bots]
        print(json.dumps(out, ensure_ascii=False))
        return 0
    _print_log(deck, [f"P{i}({b.name})" for i, b in enumerate(bots)], game, 1)
    return 0


def _cmd_infer(args: argparse.Namespace) -> int:
    if args.asks < 0:
        raise InvalidStateError(f"--asks must be 0 or more, got {args.asks}")
    deck, game, bots = _new_game(args)
    if not 0 <= args.seat < game.players:
        raise InvalidStateError(f"--seat must be in 0..{game.players - 1}, got {args.seat}")
    for s, b in enumerate(bots):
        b.start(game, s)
    while not game.is_over and game.asks < args.asks:
        act = bots[game.to_move].choose()
        if act[0] == "ask":
            game.ask(act[1], act[2])  # type: ignore[misc]
        else:
            game.reveal(act[1])
    k = Knowledge.from_game(game, args.seat)
    if args.json:
        print(json.dumps(k.to_dict(), ensure_ascii=False))
    else:
        table = k.pretty()
        print(f"after {game.asks} asks, seen by player {args.seat} (hand: {deck.format(game.hand(args.seat))})")
        print(table)
    return 0


def _read_record(args: argparse.Namespace) -> str:
    """The written record of ``--events`` and ``--record`` (a file, or - for standard input)."""
    parts = []
    if args.record is not None:
        if args.record == "-":
            parts.append(sys.stdin.read())
        else:
            try:
                with open(args.record, encoding="utf-8") as f:
                    parts.append(f.read())
            except (OSError, UnicodeDecodeError) as exc:
                raise InvalidStateError(f"cannot read --record {args.record!r}: {exc}") from None
    if args.events is not None:
        parts.append(args.events)
    return "\n".join(parts)


def _cmd_advise(args: argparse.Namespace) -> int:
    deck = _deck(args.deck)
    rules = _rules(args)
    k = Knowledge(deck, args.players, args.seat, args.hand, rules=rules, dealer=args.dealer)
    replay_record(k, _read_record(args))
    options = _planner_options(args)
    bot = PlanningBot(seed=check_int(args.seed, "--seed", low=0), **options)
    decision = bot.advise(k)
    probs = k.probabilities()
    rows: list[dict[str, Any]] = [
        {"action": "reveal", "target": None, "card": None, "hit_chance": 1.0, "estimate": prior, "value": value,
         "error": error} if (t, c) == REVEAL else
        {"action": "ask", "target": t, "card": deck.full_name(c), "hit_chance": float(probs[t, c]), "estimate": prior,
         "value": value, "error": error}
        for (t, c), prior, value, error in zip(decision.candidates, decision.prior, decision.values, decision.errors)]
    best = rows[decision.chosen]
    if args.json:
        out: dict[str, Any] = {
            "seat": args.seat, "hand": deck.names(k.hand), "hand_sizes": list(k.hand_sizes), "pile": k.pile_size,
            "events": len(k.events),
            "advice": {"action": best["action"], "target": best["target"], "card": best["card"]},
            "candidates": rows, "chosen": decision.chosen, "rollouts": decision.rollouts,
            "seconds": decision.seconds, "opponent_models": list(bot.opponent_models),
        }
        if args.probabilities:
            out["knowledge"] = k.to_dict()
        print(json.dumps(out, ensure_ascii=False))
        return 0
    n = len(k.events)
    print(f"player {args.seat} after {n} event{'' if n == 1 else 's'} (hand: {deck.format(k.hand)}; "
          f"hand sizes {list(k.hand_sizes)})")
    if args.probabilities:
        print(k.pretty())
    reveal = any(r["action"] == "reveal" for r in rows)
    print(f"{'action' if reveal else 'ask':<36} {'hit chance':>10} {'estimate':>9} {'value':>7} {'+-':>6}")
    for i, r in enumerate(rows):
        mark = ">" if i == decision.chosen else " "
        what = "turn up a middle card" if r["action"] == "reveal" else f"P{r['target']} for {r['card']}"
        print(f"{mark} {what:<34} {r['hit_chance']:>10.3f} "
              f"{r['estimate']:>9.3f} {r['value']:>7.3f} {r['error']:>6.3f}")
    if decision.rollouts:
        print("hit chance: the exact posterior; estimate: the same, corrected for players asking in the\n"
              "quartets they collect; value: the planner's mean outcome of the ask over its played-out games\n"
              f"(its win share + {bot.quartet_weight:g} x its quartet share), +- one standard error")
        models = ", ".join(f"P{p} {m}" for p, m in enumerate(bot.opponent_models) if m is not None)
        print(f"the opponents as the planner models them from their asks: {models}")
    else:
        print("hit chance: the exact posterior (through the other players' unseen draws); estimate: the same,\n"
              "corrected for players asking in the quartets they collect. With a draw pile the planner does\n"
              "not play asks out (its rollouts have no draws): it asks as the inference bot, value = estimate")
    if reveal:
        print("a middle card turned up is surely taken (hit chance 1), and the turn passes")
    what = ("turn up a middle card" if best["action"] == "reveal"
            else f"ask player {best['target']} for {best['card']}")
    print(f"advice: {what} ({decision.rollouts} rollouts, {decision.seconds:.2f} s)")
    return 0


def _add_game_args(p: argparse.ArgumentParser, bots_default: str) -> None:
    p.add_argument("--bots", default=bots_default,
                   help=f"comma-separated bots, one per seat: novice, memory, inference, planning "
                        f"(default {bots_default})")
    p.add_argument("--deck", default="classic",
                   help="classic (32), nature (40), world (48), standard, standard:AKQJ..., or a .json/.toml file")
    _add_rules_args(p)
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    _add_planner_args(p)


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="standard", help=f"preset: {', '.join(Rules.PRESETS)}")
    p.add_argument("--bonus-turn", action="store_true", help="completing a quartet earns a free miss")
    p.add_argument("--dealer-takes-rest", action="store_true", help="the dealer takes the deal's remainder")


def _add_planner_args(p: argparse.ArgumentParser) -> None:
    d = {k: v.default for k, v in inspect.signature(PlanningBot.__init__).parameters.items()}
    about = ("options of every planning bot in --bots (default: the bot's own)" if "--bots" in p._option_string_actions
             else "options of the planner (default: the bot's own)")
    g = p.add_argument_group("planning bot", about)
    g.add_argument("--samples", type=int, help=f"deals drawn from the posterior per decision (default {d['samples']})")
    g.add_argument("--candidates", type=int, help=f"candidate asks compared per decision (default {d['candidates']})")
    g.add_argument("--diverse", type=int,
                   help=f"extra candidates: the best ask of further quartets (default {d['diverse']})")
    g.add_argument("--depth", type=int, help=f"own asks planned per decision (default {d['depth']})")
    g.add_argument("--opponents", type=str.lower, choices=OPPONENT_MODELS,
                   help=f"how the opponents are modelled (default {d['opponents']})")
    g.add_argument("--time-budget", type=float, metavar="SECONDS",
                   help="seconds per decision: rounds of --samples deals until the budget is spent, so the play "
                        "depends on the machine's speed (default: one round)")


def register(parser: argparse.ArgumentParser, add_common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the kwartet commands to the ``kwartet`` group parser."""
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(parser))
    si = sub.add_parser(
        "simulate",
        help="play many games between bots: win rates, quartets, game length",
        description="Simulate Kwartet games between bots (seats rotated) and report win rates with 95% "
        "confidence intervals, the distribution of quartets per bot and the game length.",
    )
    _add_game_args(si, "inference,memory,novice,novice")
    si.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    si.add_argument("--no-rotate", action="store_true", help="keep every bot in its seat")
    si.add_argument("--plot", metavar="FILE.png", help="write a histogram of quartets per bot (needs matplotlib)")
    si.add_argument("--quiet", action="store_true", help="no progress output")
    si.add_argument("--progress", action="store_true", help="progress output even with --json")
    add_common(si)
    si.set_defaults(handler=_cmd_simulate)

    de = sub.add_parser("deck", help="list the quartets and cards of a deck",
                        description="Show a deck: built-in themed, standard, or loaded from a JSON/TOML file.")
    de.add_argument("--deck", default="classic", help="deck name, standard[:RANKS] or a .json/.toml file")
    add_common(de)
    de.set_defaults(handler=_cmd_deck)

    pl = sub.add_parser("play", help="play one game between bots and print its log, or play one yourself",
                        description="Play one game between bots and print every ask, answer and lay; with --you, "
                        "you play a seat yourself in the terminal (type help at your turn; hint shows the "
                        "planning bot's ask, with the planner flags below).")
    _add_game_args(pl, "inference,memory,novice,novice")
    pl.add_argument("--you", type=int, metavar="SEAT",
                    help="play this seat yourself (its bot in --bots sits out)")
    add_common(pl)
    pl.set_defaults(handler=_cmd_play)

    inf = sub.add_parser("infer", help="exact card-location probabilities at a point of a bot game",
                         description="Play a bot game for --asks asks and print the exact posterior of every "
                         "card's location as seen by --seat.")
    _add_game_args(inf, "memory,memory,memory,memory")
    inf.add_argument("--asks", type=int, default=20, help="stop after this many asks (default 20)")
    inf.add_argument("--seat", type=int, default=0, help="the observer (default 0)")
    add_common(inf)
    inf.set_defaults(handler=_cmd_infer)

    ad = sub.add_parser(
        "advise", help="the planner's ask for a position of a real game",
        description="Read a game from one player's seat (the dealt hand and the public events: asks, "
        "answers, lays) and print the ask the planning bot would make there, with each candidate's exact hit "
        "chance and rollout value. The events are written one a line (or separated by ';'): "
        "'1 asks 2 for Ks: yes', '2 asks 0 for Jd: no', '1 lays K', in memory Kwartet '2 turns up Qh', with a "
        "draw pile '2 draws a card' and your own draws '0 draws Js' (there the advice is the inference bot's "
        "ask, without rollouts); seats count from 0. The events must follow the turn (the first ask is by the seat left of the dealer; a hit "
        "keeps the turn, a miss passes it left), and the advice is for --seat, which must be the player to move.",
    )
    ad.add_argument("--deck", default="classic",
                    help="classic (32), nature (40), world (48), standard, standard:AKQJ..., or a .json/.toml file")
    ad.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    ad.add_argument("--seat", type=int, default=0, help="your seat, the player to move (default 0)")
    ad.add_argument("--hand", required=True, help="the hand you were dealt, e.g. 'Ac Ad Qc Jc Js' or 'Bach, Mozart'")
    ad.add_argument("--dealer", type=int, help="the dealer's seat (default: the last seat)")
    _add_rules_args(ad)
    ad.add_argument("--events", help="the events so far, separated by ';' or new lines")
    ad.add_argument("--record", metavar="FILE", help="a file of events, one a line ('#' comments); - reads stdin")
    ad.add_argument("--probabilities", action="store_true", help="also print every card's exact location posterior")
    ad.add_argument("--seed", type=int, default=0, help="random seed of the planner (default 0)")
    _add_planner_args(ad)
    add_common(ad)
    ad.set_defaults(handler=_cmd_advise)


