"""The ``kwartet`` commands: simulate, deck, play and infer, and their errors."""

from __future__ import annotations

import json
import sys

from clirun import run


def test_commands(tmp_path):
    code, out, err = run(["kwartet", "simulate", "--games", "200", "--bots", "novice,novice,novice,novice", "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 200 and len(data["bots"]) == 4
    code, out, err = run(["kwartet", "simulate", "--games", "4", "--bots", "inference,memory,novice", "--quiet"])
    assert code == 0 and "win rate" in out
    code, out, err = run(["kwartet", "deck", "--deck", "world", "--json"])
    assert code == 0 and len(json.loads(out)["quartets"]) == 12
    code, out, err = run(["kwartet", "play", "--seed", "2", "--bots", "memory,novice,novice", "--json"])
    assert code == 0 and json.loads(out)["over"]
    code, out, err = run(["kwartet", "infer", "--asks", "8", "--json"])
    assert code == 0 and "probabilities" in json.loads(out)


def test_planning_bot_by_name():
    code, out, err = run(["kwartet", "play", "--seed", "4", "--bots", "planning,memory,inference,novice", "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["over"] and data["bots"] == ["planning", "memory", "inference", "novice"]
    code, out, err = run(["kwartet", "simulate", "--games", "2", "--bots", "planning,memory,memory", "--quiet"])
    assert code == 0 and "planning" in out


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"quartets": {"A": ["x"]}}', encoding="utf-8")
    for args in (["simulate", "--deck", str(bad)], ["simulate", "--bots", "x,y,z"], ["deck", "--deck", "zzz"],
                 ["simulate", "--games", "0"], ["infer", "--asks", "-3"], ["infer", "--seat", "9"]):
        code, out, err = run(["kwartet", *args])
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)


def test_deck_size_in_other_digits():
    from quartet_solver.cli import main

    assert main(["kwartet", "deck", "--deck", "²"]) == 2  # str.isdigit, but int() refuses it
    assert main(["kwartet", "deck", "--deck", "32"]) == 0


def test_simulate_too_many_games(capsys):
    from quartet_solver.cli import main

    assert main(["kwartet", "simulate", "--games", str(10**20), "--bots", "novice,novice,novice", "--quiet"]) == 2
    assert "too many" in capsys.readouterr().err


def test_plot_is_checked_before_the_games(monkeypatch, capsys):
    from quartet_solver.cli import main

    base = ["kwartet", "simulate", "--bots", "novice,novice,novice", "--quiet"]
    # an empty file name used to skip the plot silently
    assert main([*base, "--games", "2", "--plot", ""]) == 2
    assert "--plot needs a file name" in capsys.readouterr().err
    # without matplotlib the error comes before the games (these would be refused too)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main([*base, "--games", str(10**20), "--plot", "x.png"]) == 2
    assert "--plot needs matplotlib" in capsys.readouterr().err


def _without_time(text):
    """A ``simulate --json`` result without its timings (seconds, games per second)."""
    return {k: v for k, v in json.loads(text).items() if "second" not in k and "time" not in k}


def test_planning_bot_options():
    # the flags at the bot's defaults play as the plain name does (same seeds)
    base = ["kwartet", "play", "--seed", "6", "--bots", "planning,memory,memory,memory", "--json"]
    code, plain, err = run(base)
    assert code == 0, err
    code, same, err = run([*base, "--samples", "1000", "--diverse", "3", "--opponents", "auto"])
    assert code == 0, err
    assert json.loads(same)["log"] == json.loads(plain)["log"]
    # other values reach the bot: a smaller sample changes some choice of this game
    code, other, err = run([*base, "--samples", "5", "--candidates", "8", "--diverse", "0"])
    assert code == 0, err
    assert json.loads(other)["over"] and json.loads(other)["log"] != json.loads(plain)["log"]
    sim = ["kwartet", "simulate", "--games", "1", "--seed", "3", "--bots", "memory,planning,memory", "--quiet", "--json"]
    code, plain_sim, err = run(sim)
    assert code == 0, err
    code, same_sim, err = run([*sim, "--samples", "1000"])
    assert code == 0, err
    assert _without_time(same_sim) == _without_time(plain_sim)
    code, out, err = run(["kwartet", "simulate", "--games", "2", "--bots", "planning,memory,memory",
                          "--samples", "20", "--time-budget", "0.01", "--quiet", "--json"])
    assert code == 0, err
    assert json.loads(out)["games"] == 2


def test_planning_bot_options_bad_input():
    for args in (["play", "--bots", "memory,memory,memory", "--samples", "20"],
                 ["play", "--bots", "planning,memory,memory", "--samples", "0"],
                 ["play", "--bots", "planning,memory,memory", "--time-budget", "-1"],
                 ["simulate", "--bots", "planning,memory,memory", "--time-budget", "nan"],
                 ["play", "--bots", "planning,memory,memory", "--opponents", "psychic"],
                 ["infer", "--bots", "planning,memory,memory", "--depth", "0"]):
        code, out, err = run(["kwartet", *args])
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)
    code, out, err = run(["kwartet", "play", "--bots", "memory,memory,memory", "--samples", "20"])
    assert "--samples" in err and "planning" in err


def test_advise_reads_a_written_game_and_gives_the_planner_choice(tmp_path):
    from quartet_solver import kwartet as kw

    events = "1 asks 2 for Ks: yes; 1 asks 0 for Kh: no\n2 asks 1 for Qd: no  # a note"
    record = tmp_path / "game.txt"
    record.write_text(events.replace("; ", "\n"), encoding="utf-8")
    base = ["kwartet", "advise", "--deck", "standard:AKQJ", "--players", "3", "--hand", "Ac Ad Qc Jc Js",
            "--dealer", "0", "--samples", "200", "--seed", "5"]
    code, out, err = run([*base, "--events", events, "--json", "--probabilities"])
    assert code == 0, err
    data = json.loads(out)
    # the same decision as the library's, on the same position and seed
    deck = kw.Deck.standard("AKQJ")
    k = kw.Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    kw.replay_record(k, events)
    d = kw.PlanningBot(seed=5, samples=200).advise(k)
    assert [(r["target"], r["card"]) for r in data["candidates"]] == [(t, deck.full_name(c)) for t, c in d.candidates]
    assert [r["value"] for r in data["candidates"]] == list(d.values)
    assert [r["error"] for r in data["candidates"]] == list(d.errors)
    assert data["chosen"] == d.chosen and data["advice"]["card"] == deck.full_name(d.candidates[d.chosen][1])
    probs = k.probabilities()
    assert [r["hit_chance"] for r in data["candidates"]] == [float(probs[t, c]) for t, c in d.candidates]
    assert data["knowledge"]["deals"] == str(k.count()) and data["hand_sizes"] == list(k.hand_sizes)
    # a record file, and standard input, give the same
    code, out2, err = run([*base, "--record", str(record), "--json", "--probabilities"])
    assert code == 0, err
    assert json.loads(out2)["candidates"] == data["candidates"]
    code, out3, err = run([*base, "--record", "-", "--json", "--probabilities"], stdin=events)
    assert json.loads(out3)["candidates"] == data["candidates"]
    code, text, err = run(base + ["--events", events])
    assert code == 0 and "advice: ask player" in text and text.count("\n> ") == 1


def test_advise_in_memory_kwartet():
    """With the memory rules the middle card to turn up is a row of the advice, in
    text and JSON, as in the library's decision."""
    from quartet_solver import kwartet as kw

    deck, rules = kw.Deck.themed("classic"), kw.Rules.preset("memory")
    game = kw.Game(deck, players=4, seed=11, rules=rules)
    bots = [kw.MemoryBot(seed=i) for i in range(4)]
    for seat, bot in enumerate(bots):
        bot.start(game, seat)
    while not any(isinstance(e, kw.Revealed) for e in game.log):
        action = bots[game.to_move].choose()
        game.ask(*action[1:]) if action[0] == "ask" else game.reveal(action[1])
    me = game.to_move
    lines = []
    for e in game.log[1:]:
        if isinstance(e, kw.Asked):
            lines.append(f"{e.asker} asks {e.target} for {deck.full_name(e.card)}: {'yes' if e.hit else 'no'}")
        elif isinstance(e, kw.Laid):
            lines.append(f"{e.player} lays {deck.quartets[e.quartet].name}")
        else:
            lines.append(f"{e.player} turns up {deck.full_name(e.card)}")
    events = "; ".join(lines)
    base = ["kwartet", "advise", "--deck", "classic", "--players", "4", "--seat", str(me),
            "--hand", deck.format(game.initial_hands[me]), "--rules", "memory", "--dealer", str(game.dealer),
            "--samples", "100", "--seed", "3", "--events", events]
    code, out, err = run([*base, "--json"])
    assert code == 0, err
    data = json.loads(out)
    k = kw.Knowledge.from_game(game, me)
    d = kw.PlanningBot(seed=3, samples=100).advise(k)
    want = [{"action": "reveal", "target": None, "card": None} if a == kw.REVEAL else
            {"action": "ask", "target": a[0], "card": deck.full_name(a[1])} for a in d.candidates]
    assert [{key: r[key] for key in ("action", "target", "card")} for r in data["candidates"]] == want
    assert [r["value"] for r in data["candidates"]] == list(d.values)
    assert data["advice"] == want[d.chosen] and data["pile"] == k.pile_size
    assert {"action": "reveal", "target": None, "card": None} in want
    code, text, err = run(base)
    assert code == 0 and "turn up a middle card" in text


def test_advise_bad_input_is_one_line_and_exit_2(tmp_path):
    base = ["kwartet", "advise", "--deck", "standard:AKQJ", "--players", "3", "--samples", "20"]
    for args in (["--hand", "Ac Ad Qc Jc"],  # four cards, five dealt
                 ["--hand", "Ac Ad Qc Jc Zz"],
                 ["--hand", "Ac Ad Qc Jc Js", "--events", "1 takes Ks"],
                 ["--hand", "Ac Ad Qc Jc Js", "--events", "1 asks 2 for Ks: yes; 2 asks 0 for Ac: no"],
                 ["--hand", "Ac Ad Qc Jc Js", "--events", "5 asks 0 for Kh: no"],
                 ["--hand", "Ac Ad Qc Jc Js", "--seat", "3"],
                 ["--hand", "Ac Ad Qc Jc Js", "--record", str(tmp_path / "missing.txt")],
                 ["--hand", "Ac Ad Qc Jc Js", "--samples", "0"],
                 ["--hand", "Ac Ad Qc Jc Js", "--rules", "draw"]):
        code, out, err = run([*base, *args])
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)


def test_play_with_you_a_whole_game_typed():
    import random

    from quartet_solver import kwartet as kw

    seed, you = 4, 1
    deck = kw.Deck.themed("classic")
    # the same game as the command's: its seed, and bot i seeded seed * 31 + i
    ref = kw.Game(deck, players=3, seed=seed)
    pick = random.Random(0)

    class Typist(kw.Bot):
        def choose(self):
            asks = self._started().legal_asks()
            return ("ask", *asks[pick.randrange(len(asks))])

    bots = [Typist(seed=0) if i == you else kw.MemoryBot(seed=seed * 31 + i) for i in range(3)]
    kw.play(ref, bots)
    typed = [f"P{e.target} for {deck.full_name(e.card)}" for e in ref.log[1:]
             if isinstance(e, kw.Asked) and e.asker == you]
    stdin = "help\n" + "\n".join(typed) + "\n"
    code, out, err = run(["kwartet", "play", "--seed", str(seed), "--bots", "memory,memory,memory",
                          "--you", str(you)], stdin=stdin)
    assert code == 0, err
    assert f"quartets: {list(ref.quartets)}" in out
    assert "your turn (P1)" in out and "P1(you) asks" in out and "commands:" in out


def test_play_with_you_in_memory_kwartet():
    """``--rules memory``: the typed seat turns middle cards up by number ('reveal N')."""
    import random

    from quartet_solver import kwartet as kw

    seed, you = 6, 0
    deck, rules = kw.Deck.themed("classic"), kw.Rules.preset("memory")
    ref = kw.Game(deck, players=3, seed=seed, rules=rules)
    pick = random.Random(1)

    class Typist(kw.Bot):
        def choose(self):
            v = self._started()
            actions = [("ask", t, c) for t, c in v.legal_asks()]
            actions += [("reveal", i) for i in range(v.middle)] if v.can_reveal() else []
            return actions[pick.randrange(len(actions))]

    bots = [Typist(seed=0) if i == you else kw.MemoryBot(seed=seed * 31 + i) for i in range(3)]
    kw.play(ref, bots)
    replay = kw.Game(deck, players=3, seed=seed, rules=rules)
    typed = []
    for e in ref.log[1:]:
        if isinstance(e, kw.Asked):
            if e.asker == you:
                typed.append(f"P{e.target} for {deck.full_name(e.card)}")
            replay.ask(e.target, e.card)
        elif isinstance(e, kw.Revealed):
            position = replay._pile.index(e.card)
            if e.player == you:
                typed.append(f"reveal {position}")
            replay.reveal(position)
    assert any(line.startswith("reveal") for line in typed)
    code, out, err = run(["kwartet", "play", "--seed", str(seed), "--bots", "memory,memory,memory",
                          "--rules", "memory", "--you", str(you)], stdin="\n".join(typed) + "\n")
    assert code == 0, err
    assert f"quartets: {list(ref.quartets)}" in out and "P0(you) turns up" in out


def test_play_with_you_hint_quit_and_errors():
    base = ["kwartet", "play", "--seed", "2", "--bots", "planning,memory,memory,memory", "--samples", "100"]
    code, out, err = run([*base, "--you", "0"], stdin="hint\nprobs\nquit\n")
    assert code == 0, err
    assert "hint: ask P" in out and "consistent deals" in out and "P0 left the game" in out
    for args, stdin in ((["--you", "0"], ""),            # input ends before the game does
                        (["--you", "7"], "quit\n"),
                        (["--you", "0", "--json"], "quit\n")):
        code, out, err = run([*base, *args], stdin=stdin)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)


def test_a_bad_seed_is_reported_as_given():
    for args in (["simulate", "--games", "2", "--seed", "-1"], ["play", "--seed", "-1"],
                 ["advise", "--deck", "standard:AKQJ", "--players", "3", "--hand", "Ac Ad Qc Jc Js", "--seed", "-1"]):
        code, out, err = run(["kwartet", *args])
        assert code == 2 and "--seed must be an int >= 0, got -1" in err, (args, err)


def test_advise_refuses_a_seat_not_to_move_and_names_the_models():
    base = ["kwartet", "advise", "--deck", "standard:AKQJ", "--players", "3", "--hand", "Ac Ad Qc Jc Js",
            "--samples", "50", "--dealer", "0"]
    code, out, err = run([*base, "--events", "1 asks 2 for Ks: yes"])
    assert code == 2 and "it is player 1's turn, not player 0's" in err
    code, out, err = run([*base, "--events", "1 asks 2 for Ks: yes; 1 asks 0 for Kh: no; 2 asks 1 for Qd: no",
                          "--opponents", "MEMORY", "--json"])
    assert code == 0, err
    assert json.loads(out)["opponent_models"] == [None, "memory", "memory"]
