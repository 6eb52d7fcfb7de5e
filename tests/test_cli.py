"""Smoke tests of the command line through ``python -m quartet_solver``.

Every command runs once, all in parallel, in a module-scoped fixture (each
interpreter start costs ~0.3 s); the tests then inspect the results.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest

from quartet_solver import klaverjas as kj

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
    "help": ["--help"],
    "help_cards": ["cards", "--help"],
    "help_quintet": ["quintet", "--help"],
    "help_klaverjas": ["klaverjas", "--help"],
    "help_kwartet": ["kwartet", "--help"],
    "cards": ["cards", "10h, A♠ kd"],
    "cards_json": ["cards", "10h, A♠ kd", "--json"],
    "eval": ["quintet", "eval", "Ah Kh Qh Jh Th"],
    "eval_json": ["quintet", "eval", "Ah Kh Qh Jh Th", "--json"],
    # Quintet: a flush beats a full house (quartet_solver.quintet.hands)
    "compare": ["quintet", "compare", "Ac Ad As Kc Kd", "Ah Kh Jh 9h 8h"],
    "compare_rev": ["quintet", "eval", "Ah Kh Jh 9h 8h", "Ac Ad As Kc Kd"],
    "compare_json": ["quintet", "compare", "Ac Ad As Kc Kd", "Ah Kh Jh 9h 8h", "--json"],
    "bad_hand": ["quintet", "eval", "Ah Kh"],
    "bad_card": ["cards", "Xh"],
    "bad_group": ["nosuchgame"],
    "no_command_quintet": ["quintet"],
    "no_command_klaverjas": ["klaverjas"],
    "no_group": [],
    "solve_bad": ["quintet", "solve", "--seed", "1", "--deal", "Ah"],
    "solve_json": ["quintet", "solve", "--seed", "1", "--k", "2", "--json"],
    "solve_text": ["quintet", "solve", "--removed", "7c 7d 8h 9s Tc Jd Qh", "--quiet"],
    "best_response": ["quintet", "best-response", "--deal", "Ah Kh Qh Jh Th 9c 9d 9h 9s 8c",
                      "--points", "3 4", "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c"],
    # Klaverjas double dummy, checked against the library calls below
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


def _run(argv):
    proc = subprocess.run(
        [sys.executable, "-m", "quartet_solver", *argv],
        capture_output=True,
        timeout=120,
        cwd=tempfile.gettempdir(),  # keep the source tree (no compiled core) off sys.path
    )
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


@pytest.fixture(scope="module")
def results():
    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = {name: pool.submit(_run, argv) for name, argv in COMMANDS.items()}
        return {name: f.result() for name, f in futures.items()}


def _ok(results, name):
    code, out, err = results[name]
    assert code == 0, (name, err)
    assert "Traceback" not in err
    return out


def test_top_level_help_mentions_the_three_games(results):
    out = _ok(results, "help").lower()
    for word in ("quintet", "klaverjas", "kwartet", "cards"):
        assert word in out


@pytest.mark.parametrize("group", ["cards", "quintet", "klaverjas", "kwartet"])
def test_group_help(results, group):
    out = _ok(results, f"help_{group}")
    assert f"quartet-solver {group}" in out  # usage line names the group
    if group == "quintet":
        assert "eval" in out


def test_cards_canonical_text(results):
    out = _ok(results, "cards")
    assert out.strip() == "Th As Kd"


def test_cards_json(results):
    doc = json.loads(_ok(results, "cards_json"))
    assert doc["cards"] == ["Th", "As", "Kd"]
    assert doc["count"] == 3


def test_quintet_eval_text(results):
    out = _ok(results, "eval")
    assert "straight flush" in out
    assert "Ah Kh Qh Jh Th" in out


def test_quintet_eval_json(results):
    doc = json.loads(_ok(results, "eval_json"))
    assert len(doc["hands"]) == 1
    hand = doc["hands"][0]
    assert hand["category"] == "straight_flush"
    assert hand["ranks"] == ["A"]
    assert isinstance(hand["strength"], int)
    assert doc["kickers"] == "seed"


def test_quintet_compare_says_which_wins(results):
    out = _ok(results, "compare")
    assert "second hand wins" in out
    out = _ok(results, "compare_rev")
    assert "first hand wins" in out


def test_quintet_compare_json(results):
    doc = json.loads(_ok(results, "compare_json"))
    cats = [h["category"] for h in doc["hands"]]
    assert cats == ["full_house", "flush"]
    assert doc["winners"] == [1]
    assert doc["order"] == [1, 0]
    assert doc["hands"][1]["strength"] > doc["hands"][0]["strength"]


@pytest.mark.parametrize(
    "name, needle",
    [
        ("bad_hand", "5 cards"),
        ("bad_card", "'X"),
        ("bad_group", "nosuchgame"),
        ("no_command_quintet", "quintet"),
        ("no_command_klaverjas", "klaverjas"),
        ("no_group", "group"),
    ],
)
def test_bad_input_exits_2_with_one_line(results, name, needle):
    code, out, err = results[name]
    assert code == 2, (name, code, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("quartet-solver")
    assert "error" in lines[0]
    assert needle in lines[0]
    assert out == ""


def test_quintet_solve_json_and_text(results):
    data = json.loads(_ok(results, "solve_json"))
    assert data["value"] == 3.5 and data["exploitability"] <= 1e-9
    assert abs(sum(s["probability"] for s in data["strategy"]) - 1) < 1e-9
    assert data["deal"] and len(data["deal"].split()) == 10
    text = _ok(results, "solve_text")
    assert "removed: 7c 7d 8h 9s Tc Jd Qh" in text and "exploitability" in text


def test_quintet_best_response_cli(results):
    out = _ok(results, "best_response")
    # copying ties both positions (3.5); swapping the groups loses the 3-point
    # position and wins the 4-point one
    assert "expected points: 4.000000" in out


def test_quintet_solve_bad_deal_arguments(results):
    code, out, err = results["solve_bad"]
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "exactly one of --deal, --removed or --seed" in err


# -- Klaverjas double dummy: solve, table, bid ------------------------------------


def _kj_state(play: str | None = None) -> kj.PlayState:
    st = kj.PlayState(kj.Deal.parse(KJ_DEAL), trump="h", declarer="N", leader="N")
    return st.play_all(play) if play else st


def test_klaverjas_solve_json_matches_the_library(results):
    data = json.loads(_ok(results, "kj_solve_json"))
    res = kj.solve(_kj_state())
    sol = data["solution"]
    assert sol["value"] == res.value and sol["exact"] is True
    assert sol["card_values"] == {str(c): v for c, v in res.card_values.items()}
    assert _kj_state().play_all(" ".join(sol["pv"])).result().net == res.value


def test_klaverjas_solve_mid_hand_and_with_a_node_limit(results):
    data = json.loads(_ok(results, "kj_solve_play_json"))
    assert data["state"]["played"] == KJ_PLAYED.split()
    assert data["solution"]["value"] == kj.solve(_kj_state(KJ_PLAYED), pv=False).value
    limited = json.loads(_ok(results, "kj_solve_limit_json"))["solution"]
    exact = kj.solve(_kj_state(), pv=False).value
    assert limited["exact"] is False and limited["lower"] <= exact <= limited["upper"]
    assert limited["nodes"] > 50
    # text: a stop before the value is known prints the bounds
    out = _ok(results, "kj_solve_limit_text")
    part = kj.solve(_kj_state(), node_limit=20000)
    assert not part.exact and part.lower < part.upper
    assert f"between {part.lower:+d} and {part.upper:+d}" in out and f"{part.nodes} nodes" in out
    # the made test comes first: after it, the bounds are on the side of 0 of the value
    assert (part.lower >= 0) == (exact >= 0) and ("so the hand is made" in out) == (exact >= 0)
    # a stop after it prints the value and the cards' values found before the stop
    out = _ok(results, "kj_solve_limit_value_text")
    part = kj.solve(_kj_state(), node_limit=100000)
    assert not part.exact and part.lower == part.value == part.upper == exact and part.card_values
    assert f"value (net for the playing team): {exact:+d}  (exact; a limit stopped" in out
    assert f"({len(part.card_values)} of {len(_kj_state().legal_cards())})" in out
    assert all(f"  {c}: {v:+d}" in out for c, v in part.card_values.items())


def test_klaverjas_solve_text(results):
    out = _ok(results, "kj_solve_text")
    value = kj.solve(_kj_state(), pv=False).value
    assert f"value (net for the playing team): {value:+d}" in out and "principal variation:" in out


def test_klaverjas_solve_target(results):
    value = kj.solve(_kj_state(), pv=False).value
    data = json.loads(_ok(results, "kj_target_json"))
    assert data["target"] == 0 and data["reaches"] is (value >= 0)
    # more than all points and roem
    assert json.loads(_ok(results, "kj_target_high_json"))["reaches"] is False
    out = _ok(results, "kj_target_text")
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
    data = json.loads(_ok(results, "kj_table_json"))
    p = kj.par(kj.Deal.parse(KJ_DEAL), dealer="W")
    assert data["par"]["declarer"] == p.declarer and data["par"]["net"] == p.net
    nets = {(e["trump"], e["playing_team"]): e["net"] for e in data["table"]["table"]}
    assert nets == {k: v[0] for k, v in p.table.entries.items()}
    assert data["table"]["leader"] == "N"          # the dealer's left leads


def test_klaverjas_table_text(results):
    out = _ok(results, "kj_table_text")
    table = kj.dd_table(kj.Deal.parse(KJ_DEAL), leader="S")
    assert table.pretty() in out


def test_klaverjas_bid_json_matches_the_library(results):
    data = json.loads(_ok(results, "kj_bid_json"))
    a = kj.analyse_bid(KJ_HAND, seat="E", samples=6, seed=3, processes=1)
    assert [s["mean"] for s in data["stats"]] == [s.mean for s in a.stats]
    assert data["recommended"] == a.recommended and data["stats"][0]["samples"] == 6
