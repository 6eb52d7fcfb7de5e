"""The ``klaverjas`` commands: solve, table, bid, review, play, game and study.

The double-dummy commands run once, all in parallel, in a module-scoped
fixture, and are checked against the library's own answers.
"""

from __future__ import annotations

import json

import pytest
from clirun import ok, run_all

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
