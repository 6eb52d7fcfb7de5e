"""The ``klaverjas solve``, ``table`` and ``bid`` commands through
``python -m quartet_solver``, checked against the library calls they wrap.

The commands run once each, in parallel, in a module-scoped fixture (each
interpreter start costs ~0.3 s)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest

from quartet_solver import klaverjas as kj

DEAL = kj.Deal.random(seed=5).pbn()


def _first_trick() -> str:
    st = kj.PlayState(kj.Deal.parse(DEAL), trump="h", declarer="N", leader="N")
    cards = []
    for _ in range(5):              # one trick and the next lead: a mid-trick position
        cards.append(st.legal_cards()[-1])
        st = st.play(cards[-1])
    return " ".join(map(str, cards))


PLAYED = _first_trick()
BASE = ["solve", "--deal", DEAL, "--trump", "h", "--declarer", "N"]

COMMANDS = {
    "solve_text": BASE,
    "solve_json": BASE + ["--json"],
    "solve_play_json": BASE + ["--play", PLAYED, "--json"],
    "solve_limit_json": BASE + ["--node-limit", "50", "--json"],
    "target_json": BASE + ["--target", "0", "--json"],
    "target_text": BASE + ["--target", "0"],
    "target_high_json": BASE + ["--target", "400", "--json"],
    "target_with_limit": BASE + ["--target", "0", "--node-limit", "5"],
    "solve_illegal_play": BASE + ["--play", "7s"],
    "solve_bad_deal": ["solve", "--deal", "N:AKQ", "--trump", "h", "--declarer", "N"],
    "table_json": ["table", "--deal", DEAL, "--dealer", "W", "--json"],
    "table_text": ["table", "--deal", DEAL, "--leader", "S"],
    "bid_json": ["bid", "--hand", "Jh 9h Ah Th 7c 8d As Ks", "--seat", "E", "--samples", "6", "--seed", "3",
                 "--processes", "1", "--json"],
    "bid_bad_hand": ["bid", "--hand", "Jh 9h", "--samples", "6"],
}


def _run(argv: list[str]) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "quartet_solver", "klaverjas", *argv], capture_output=True,
                          text=True, timeout=300, cwd=tempfile.gettempdir())
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture(scope="module")
def results() -> dict[str, tuple[int, str, str]]:
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = dict(zip(COMMANDS, pool.map(_run, COMMANDS.values())))
    return done


def _ok_json(results, name):  # type: ignore[no-untyped-def]
    code, out, err = results[name]
    assert code == 0, err
    return json.loads(out)


def _state(play: str | None = None) -> kj.PlayState:
    st = kj.PlayState(kj.Deal.parse(DEAL), trump="h", declarer="N", leader="N")
    return st.play_all(play) if play else st


def test_solve_json_matches_the_library(results):
    data = _ok_json(results, "solve_json")
    res = kj.solve(_state())
    sol = data["solution"]
    assert sol["value"] == res.value and sol["exact"] is True
    assert sol["card_values"] == {str(c): v for c, v in res.card_values.items()}
    assert _state().play_all(" ".join(sol["pv"])).result().net == res.value


def test_solve_mid_hand_and_with_a_node_limit(results):
    data = _ok_json(results, "solve_play_json")
    assert data["state"]["played"] == PLAYED.split()
    assert data["solution"]["value"] == kj.solve(_state(PLAYED), pv=False).value
    limited = _ok_json(results, "solve_limit_json")["solution"]
    exact = kj.solve(_state(), pv=False).value
    assert limited["exact"] is False and limited["lower"] <= exact <= limited["upper"]


def test_solve_text(results):
    code, out, err = results["solve_text"]
    assert code == 0, err
    value = kj.solve(_state(), pv=False).value
    assert f"value (net for the playing team): {value:+d}" in out and "principal variation:" in out


def test_solve_target(results):
    value = kj.solve(_state(), pv=False).value
    data = _ok_json(results, "target_json")
    assert data["target"] == 0 and data["reaches"] is (value >= 0)
    assert _ok_json(results, "target_high_json")["reaches"] is False   # more than all points and roem
    code, out, err = results["target_text"]
    assert code == 0, err
    assert ("does not reach" in out) == (value < 0) and "+0" in out
    code, out, err = results["target_with_limit"]
    assert code == 2 and out == "" and "--target" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["solve_illegal_play", "solve_bad_deal", "bid_bad_hand"])
def test_bad_input_is_one_line_and_exit_2(results, name):
    code, out, err = results[name]
    assert code == 2 and out == "", err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_table_json_matches_the_library(results):
    data = _ok_json(results, "table_json")
    p = kj.par(kj.Deal.parse(DEAL), dealer="W")
    assert data["par"]["declarer"] == p.declarer and data["par"]["net"] == p.net
    nets = {(e["trump"], e["playing_team"]): e["net"] for e in data["table"]["table"]}
    assert nets == {k: v[0] for k, v in p.table.entries.items()}
    assert data["table"]["leader"] == "N"          # the dealer's left leads


def test_table_text(results):
    code, out, err = results["table_text"]
    assert code == 0, err
    table = kj.dd_table(kj.Deal.parse(DEAL), leader="S")
    assert table.pretty() in out


def test_bid_json_matches_the_library(results):
    data = _ok_json(results, "bid_json")
    a = kj.analyse_bid("Jh 9h Ah Th 7c 8d As Ks", seat="E", samples=6, seed=3, processes=1)
    assert [s["mean"] for s in data["stats"]] == [s.mean for s in a.stats]
    assert data["recommended"] == a.recommended and data["stats"][0]["samples"] == 6
