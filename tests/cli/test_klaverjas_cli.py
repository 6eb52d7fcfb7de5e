"""The ``klaverjas`` commands: solve, table, bid, review, play, game and study.

The double-dummy commands run once, all in parallel, in a module-scoped
fixture, and are checked against the library's own answers.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from clirun import ok, run, run_all

from quartet_solver import klaverjas as kj
from quartet_solver.cli import main

KJ_DEAL = kj.Deal.random(seed=5).pbn()


def _kj_first_trick() -> str:
    """A trick and the next lead of KJ_DEAL (a mid-trick position)."""
    st = kj.PlayState(kj.Deal.parse(KJ_DEAL), trump="h", declarer="N", leader="N")
    cards = []
    for _ in range(5):
        cards.append(st.legal_cards()[-1])
        st = st.play(cards[-1])
    return " ".join(map(str, cards))


KJ_PLAYED = _kj_first_trick()
KJ_SOLVE = ["klaverjas", "solve", "--deal", KJ_DEAL, "--trump", "h", "--declarer", "N"]
KJ_HAND = "Jh 9h Ah Th 7c 8d As Ks"

COMMANDS = {
    "kj_solve_text": KJ_SOLVE,
    "kj_solve_json": KJ_SOLVE + ["--json"],
    "kj_solve_play_json": KJ_SOLVE + ["--play", KJ_PLAYED, "--json"],
    "kj_solve_limit_json": KJ_SOLVE + ["--node-limit", "50", "--json"],
    "kj_solve_limit_text": KJ_SOLVE + ["--node-limit", "20000"],
    "kj_solve_limit_value_text": KJ_SOLVE + ["--node-limit", "100000"],
    "kj_target_json": KJ_SOLVE + ["--target", "0", "--json"],
    "kj_target_text": KJ_SOLVE + ["--target", "0"],
    "kj_target_high_json": KJ_SOLVE + ["--target", "400", "--json"],
    "kj_target_with_limit": KJ_SOLVE + ["--target", "0", "--node-limit", "5"],
    "kj_solve_illegal_play": KJ_SOLVE + ["--play", "7s"],
    "kj_solve_bad_deal": ["klaverjas", "solve", "--deal", "N:AKQ", "--trump", "h", "--declarer", "N"],
    "kj_table_json": ["klaverjas", "table", "--deal", KJ_DEAL, "--dealer", "W", "--json"],
    "kj_table_text": ["klaverjas", "table", "--deal", KJ_DEAL, "--leader", "S"],
    "kj_bid_json": ["klaverjas", "bid", "--hand", KJ_HAND, "--seat", "E", "--samples", "6", "--seed", "3",
                    "--processes", "1", "--json"],
    "kj_bid_bad_hand": ["klaverjas", "bid", "--hand", "Jh 9h", "--samples", "6"],
    "kj_bid_bad_hand_json": ["klaverjas", "bid", "--hand", "Jh 9h", "--samples", "6", "--json"],
    "kj_solve_bad_deal_json": ["klaverjas", "solve", "--deal", "N:AKQ", "--trump", "h", "--declarer", "N",
                               "--json"],
    "kj_bid_bad_samples_json": ["klaverjas", "bid", "--hand", KJ_HAND, "--samples", "many", "--json"],
}


@pytest.fixture(scope="module")
def results():
    return run_all(COMMANDS)


def _kj_state(play: str | None = None) -> kj.PlayState:
    st = kj.PlayState(kj.Deal.parse(KJ_DEAL), trump="h", declarer="N", leader="N")
    return st.play_all(play) if play else st


def test_klaverjas_solve_json_matches_the_library(results):
    data = json.loads(ok(results, "kj_solve_json"))
    res = kj.solve(_kj_state())
    sol = data["solution"]
    assert sol["value"] == res.value and sol["exact"] is True
    assert sol["card_values"] == {str(c): v for c, v in res.card_values.items()}
    assert _kj_state().play_all(" ".join(sol["pv"])).result().net == res.value


def test_klaverjas_solve_mid_hand_and_with_a_node_limit(results):
    data = json.loads(ok(results, "kj_solve_play_json"))
    assert data["state"]["played"] == KJ_PLAYED.split()
    assert data["solution"]["value"] == kj.solve(_kj_state(KJ_PLAYED), pv=False).value
    limited = json.loads(ok(results, "kj_solve_limit_json"))["solution"]
    exact = kj.solve(_kj_state(), pv=False).value
    assert limited["exact"] is False and limited["lower"] <= exact <= limited["upper"]
    assert limited["nodes"] > 50
    # text: a stop before the value is known prints the bounds
    out = ok(results, "kj_solve_limit_text")
    part = kj.solve(_kj_state(), node_limit=20000)
    assert not part.exact and part.lower < part.upper
    assert f"between {part.lower:+d} and {part.upper:+d}" in out and f"{part.nodes} nodes" in out
    # the made test comes first: after it, the bounds are on the side of 0 of the value
    assert (part.lower >= 0) == (exact >= 0) and ("so the hand is made" in out) == (exact >= 0)
    # a stop after it prints the value and the cards' values found before the stop
    out = ok(results, "kj_solve_limit_value_text")
    part = kj.solve(_kj_state(), node_limit=100000)
    assert not part.exact and part.lower == part.value == part.upper == exact and part.card_values
    assert f"value (net for the playing team): {exact:+d}  (exact; a limit stopped" in out
    assert f"({len(part.card_values)} of {len(_kj_state().legal_cards())})" in out
    assert all(f"  {c}: {v:+d}" in out for c, v in part.card_values.items())


def test_klaverjas_solve_text(results):
    out = ok(results, "kj_solve_text")
    value = kj.solve(_kj_state(), pv=False).value
    assert f"value (net for the playing team): {value:+d}" in out and "principal variation:" in out


def test_klaverjas_solve_target(results):
    value = kj.solve(_kj_state(), pv=False).value
    data = json.loads(ok(results, "kj_target_json"))
    assert data["target"] == 0 and data["reaches"] is (value >= 0)
    # more than all points and roem
    assert json.loads(ok(results, "kj_target_high_json"))["reaches"] is False
    out = ok(results, "kj_target_text")
    assert ("does not reach" in out) == (value < 0) and "+0" in out
    code, out, err = results["kj_target_with_limit"]
    assert code == 2 and out == "" and "--target" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["kj_solve_illegal_play", "kj_solve_bad_deal", "kj_bid_bad_hand"])
def test_klaverjas_bad_input_is_one_line_and_exit_2(results, name):
    code, out, err = results[name]
    assert code == 2 and out == "", err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("name, kind", [("kj_bid_bad_hand_json", "InvalidStateError"),
                                        ("kj_solve_bad_deal_json", "NotationError")])
def test_errors_with_json_are_a_json_document_on_stdout_too(results, name, kind):
    code, out, err = results[name]
    plain = results[name.removesuffix("_json")]
    assert code == 2 and err == plain[2] and "Traceback" not in err
    data = json.loads(out)
    assert data == {"error": {"type": kind, "message": err.strip().removeprefix("quartet-solver: error: ")}}


def test_usage_errors_with_json_are_json_too(results):
    code, out, err = results["kj_bid_bad_samples_json"]
    assert code == 2 and err.startswith("quartet-solver klaverjas bid: error: argument --samples")
    assert json.loads(out) == {"error": {"type": "UsageError",
                                         "message": "argument --samples: invalid int value: 'many'"}}


def test_klaverjas_table_json_matches_the_library(results):
    data = json.loads(ok(results, "kj_table_json"))
    p = kj.par(kj.Deal.parse(KJ_DEAL), dealer="W")
    assert data["par"]["declarer"] == p.declarer and data["par"]["net"] == p.net
    nets = {(e["trump"], e["playing_team"]): e["net"] for e in data["table"]["table"]}
    assert nets == {k: v[0] for k, v in p.table.entries.items()}
    assert data["table"]["leader"] == "N"          # the dealer's left leads


def test_klaverjas_table_text(results):
    out = ok(results, "kj_table_text")
    table = kj.dd_table(kj.Deal.parse(KJ_DEAL), leader="S")
    assert table.pretty() in out


def test_klaverjas_bid_json_matches_the_library(results):
    data = json.loads(ok(results, "kj_bid_json"))
    a = kj.analyse_bid(KJ_HAND, seat="E", samples=6, seed=3, processes=1)
    assert [s["mean"] for s in data["stats"]] == [s.mean for s in a.stats]
    assert data["recommended"] == a.recommended and data["stats"][0]["samples"] == 6


def test_study_bids(tmp_path, capsys):
    assert main(["klaverjas", "study", "bids", "--deals", "3", "--seed", "1", "--processes", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 3 and out["cases"] == 48 and len(out["advice"]) == 2
    assert main(["klaverjas", "study", "bids", "--deals", "0", "--processes", "1"]) == 2
    assert main(["klaverjas", "study"]) == 2
    assert "give a study" in capsys.readouterr().err
    pytest.importorskip("matplotlib")
    png = tmp_path / "bids.png"
    assert main(["klaverjas", "study", "bids", "--deals", "2", "--seed", "1", "--processes", "1",
                 "--plot", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG" and "double dummy" in capsys.readouterr().out.lower()


def _klaverjas(*argv: str) -> tuple[int, str, str]:
    return run(["klaverjas", *argv])


def _review(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    return run(["klaverjas", "review", *argv], stdin=stdin)


# -- play, show and game: bots at the table ---------------------------------------------


def test_play_and_show():
    code, out, err = _klaverjas("play", "--seed", "2", "--hands", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert len(data["hands"]) == 2 and set(data["totals"]) == {"NS", "EW"}
    code, out, _ = _klaverjas("play", "--seed", "2", "--hands", "1", "--bots", "rule,random,rule,random")
    assert code == 0 and "hand 1:" in out and "final:" in out
    deal = kj.Deal.random(seed=8)
    code, out, _ = _klaverjas("show", "--deal", deal.pbn(), "--json")
    assert code == 0 and json.loads(out)["pbn"] == deal.pbn()
    code, out, err = _klaverjas("show", "--deal", "N:AKQ")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, _, err = _klaverjas("play", "--bots", "clever")
    assert code == 2 and "--bots" in err


def test_game_shows_running_totals_and_takes_today():
    code, out, err = _klaverjas("play", "--seed", "3", "--hands", "3")
    assert code == 0, err
    result = kj.play_match([kj.RuleBot()] * 4, seed=3, hands=3)
    ns = ew = 0
    for hand in result.hands:
        ns, ew = ns + hand.result.scores[0], ew + hand.result.scores[1]
        assert f"totals after hand {hand.number}: N/S {ns}, E/W {ew}" in out
    code, out, err = _klaverjas("play", "--date", "today", "--hands", "1", "--json")
    assert code == 0, err
    today = kj.play_match([kj.RuleBot()] * 4, date=dt.date.today(), hands=1)
    assert json.loads(out)["hands"][0]["deal"] == today.hands[0].state.deal.pbn()


def test_game_with_levels():
    argv = ["klaverjas", "play", "--seed", "5", "--hands", "1", "--bots", "normal,rule,strong,easy", "--json"]
    runs = [run(argv, timeout=300) for _ in range(2)]
    assert all(code == 0 for code, _, _ in runs), runs[0][2]
    assert runs[0][1] == runs[1][1]                 # deterministic for the seed
    bots = [kj.make_bot("normal", seed=20), kj.RuleBot(), kj.make_bot("strong", seed=22), kj.RuleBot()]
    record = kj.play_match(bots, seed=5, hands=1).hands[0]
    assert json.loads(runs[0][1])["hands"][0]["tricks"] == [t.to_dict() for t in record.state.tricks]


def test_play_json_bids_end_with_the_trump():
    """Every bid of a played game as the JSON shows it, against the bidding itself."""
    for seed in range(1, 4):
        code, out, err = _klaverjas("play", "--seed", str(seed), "--json", "--quiet")
        assert code == 0, err
        for hand in json.loads(out)["hands"]:
            bids = hand["bidding"]["bids"]
            assert bids[-1]["bid"] == hand["trump"], hand["bidding"]
            assert all(x["bid"] == "pass" for x in bids[:-1])


def test_table_text_starts_with_par():
    deal = kj.Deal.random(seed=7)
    first = kj.par(deal, dealer="N").pretty().splitlines()[0]
    code, out, err = _klaverjas("table", "--deal", deal.pbn(), "--dealer", "N")
    assert code == 0 and first in out, err


def test_solve_with_play_marks_the_best_card_for_the_player_to_move():
    deal = kj.Deal.random(seed=5)
    state = kj.PlayState(deal, trump="s", declarer="E", leader="N")
    first = state.legal_cards()[0]
    state = state.play(first)
    code, out, err = _klaverjas("solve", "--deal", deal.pbn(), "--trump", "s", "--declarer", "E", "--leader", "N",
                          "--play", str(first))
    assert code == 0, err
    res = kj.solve(state)
    assert f"N: {first}" in out                          # the trick so far
    assert "E to play; legal: " in out
    for card, value in res.card_values.items():
        mark = "  *" if card in res.best_cards else ""
        assert f"  {card}: {value:+d}{mark}\n" in out
    assert "best for E" in out and "maximise" in out     # E named trumps: E/W play


# -- bid ------------------------------------------------------------------------------


def test_bid_refuses_more_than_max_samples(capsys):
    assert main(["klaverjas", "bid", "--hand", "Jh 9h Ah Th As Ks Ad 7c",
                 "--samples", "99999999999999999999"]) == 2
    err = capsys.readouterr().err
    assert "samples must be at most MAX_SAMPLES = 10,000,000, got 99999999999999999999" in err


def test_bid_progress(capsys):
    """--progress shows the count, the rate and the time left on stderr also
    when it is not a terminal; by default (not a terminal) and with --quiet
    nothing; --json has the seed and the rules."""
    args = ["klaverjas", "bid", "--hand", "Jh 9h Ah Th As Ks Ad 7c", "--samples", "6", "--seed", "3",
            "--processes", "1"]
    assert main([*args, "--progress", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["seed"] == 3 and data["rules"]["variant"] == "amsterdam" and "close_call" in data
    lines = err.splitlines()
    assert lines and lines[-1].startswith("6/6 samples  ") and "/s  ETA " in lines[-1]
    assert "\r" not in err
    for extra in ([], ["--quiet"]):
        assert main([*args, *extra]) == 0
        out, err = capsys.readouterr()
        assert err == "" and "recommended: " in out


# -- review: the double-dummy loss of every card --------------------------------------


@pytest.fixture(scope="module")
def game() -> kj.MatchResult:
    return kj.play_match([kj.RuleBot()] * 4, seed=9, hands=3)


def test_hand_file(tmp_path: Path, game):
    record = game.hands[1]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record.to_dict()), encoding="utf-8")
    code, out, err = _review([str(path)])
    assert code == 0, err
    assert out.startswith("Double-dummy review (every hand seen) of hand 2")
    assert f"final net {record.result.net:+d}" in out
    code, out, err = _review([str(path), "--json"])
    assert code == 0, err
    got = json.loads(out)
    assert got == json.loads(json.dumps(kj.review(record).to_dict())) | {"seconds": got["seconds"]}


def test_game_on_stdin(game):
    text = json.dumps(game.to_dict())
    code, out, err = _review(["-", "--json"], stdin=text)
    assert code == 0, err
    data = json.loads(out)
    assert [r["number"] for r in data["reviews"]] == [1, 2, 3]
    reviews = [kj.review(h) for h in game.hands]
    assert [r["final_net"] for r in data["reviews"]] == [h.result.net for h in game.hands]
    assert data["losses"] == {"NS": sum(r.team_losses[0] for r in reviews),
                              "EW": sum(r.team_losses[1] for r in reviews)}
    code, out, err = _review(["-", "--hand", "3", "--json"], stdin=text)
    assert code == 0, err
    assert json.loads(out)["number"] == 3
    code, out, err = _review(["-"], stdin=text)
    assert code == 0, err
    assert out.count("Double-dummy review (every hand seen)") == 3 and "game: 3 hands" in out


def test_play_output_and_pbn(tmp_path: Path):
    code, played, err = _klaverjas("play", "--seed", "4", "--hands", "2", "--json")
    assert code == 0, err
    path = tmp_path / "game.json"
    path.write_text(played, encoding="utf-8")
    code, out, err = _review([str(path), "--hand", "2"])
    assert code == 0, err
    assert out.count("Double-dummy review") == 1 and "of hand 2:" in out
    pbn = tmp_path / "game.pbn"
    match = kj.MatchResult.from_dict(json.loads(played))
    pbn.write_text(match.to_pbn(), encoding="utf-8")
    code, out, err = _review([str(pbn), "--json"])
    assert code == 0, err
    assert [r["final_net"] for r in json.loads(out)["reviews"]] == [h.result.net for h in match.hands]


def test_bad_input(tmp_path: Path, game):
    code, out, err = _review([str(tmp_path / "missing.json"), "--json"])
    assert code == 2 and "cannot read" in err
    assert json.loads(out)["error"]["type"] == "InvalidStateError"
    code, out, err = _review(["-", "--json"], stdin="{not json")
    assert code == 2 and json.loads(out)["error"]["type"] == "NotationError"
    code, out, err = _review(["-"], stdin="")
    assert code == 2 and "empty" in err
    code, out, err = _review(["-", "--hand", "7"], stdin=json.dumps(game.to_dict()))
    assert code == 2 and "no hand 7" in err
    forged = game.hands[0].to_dict()
    forged["result"] = {**forged["result"], "scores": [162, 0]}
    code, out, err = _review(["-", "--json"], stdin=json.dumps(forged))
    assert code == 2 and json.loads(out)["error"]["type"] == "InvalidStateError"


def test_review_of_deeply_nested_json_is_a_notation_error(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"a":' + "[" * 200_000, encoding="utf-8")
    code, out, err = run(["klaverjas", "review", str(deep), "--json"])
    assert code == 2 and json.loads(out)["error"]["type"] == "NotationError", err


def test_plot_paths_are_checked_before_the_work(tmp_path):
    for args in (["klaverjas", "study", "bids", "--deals", "1", "--plot", str(tmp_path / "no" / "x.png")],
                 ["quintet", "study", "--deals", "1", "--plot", str(tmp_path / "x.xyz")],
                 ["kwartet", "simulate", "--games", "1", "--plot", str(tmp_path / "no" / "x.png")]):
        code, out, err = run([*args, "--json"])
        assert code == 2 and json.loads(out)["error"]["type"] == "ArgumentError", (args, err)


def test_table_refuses_a_leader_that_is_not_the_dealers_left():
    deal = "N:J8.Q9.A98.A QT.T.QT.K97 K97.KJ8.K.J A.A7.J7.QT8"
    code, out, err = run(["klaverjas", "table", "--deal", deal, "--leader", "W", "--dealer", "N"])
    assert code == 2 and "the dealer's left, E, leads" in err


def test_an_abbreviated_json_flag_gets_json_errors_too():
    code, out, err = run(["klaverjas", "show", "--seed", "abc", "--js"])
    assert code == 2 and json.loads(out)["error"]["type"] == "UsageError"


def test_json_with_a_value_given_gets_json_errors_too():
    code, out, err = run(["klaverjas", "show", "--seed", "abc", "--json=1"])
    assert code == 2 and json.loads(out)["error"]["type"] == "UsageError"
