"""The ``quintet`` commands: eval, compare, solve, best-response and study.

The fast commands run once, all in parallel, in a module-scoped fixture; the
tests then inspect the results.
"""

from __future__ import annotations

import json

import pytest
from clirun import ok, run, run_all

from quartet_solver.cli import main

COMMANDS = {
    "eval": ["quintet", "eval", "Ah Kh Qh Jh Th"],
    "eval_json": ["quintet", "eval", "Ah Kh Qh Jh Th", "--json"],
    # a flush beats a full house
    "compare": ["quintet", "compare", "Ac Ad As Kc Kd", "Ah Kh Jh 9h 8h"],
    "compare_rev": ["quintet", "eval", "Ah Kh Jh 9h 8h", "Ac Ad As Kc Kd"],
    "compare_json": ["quintet", "compare", "Ac Ad As Kc Kd", "Ah Kh Jh 9h 8h", "--json"],
    "solve_bad": ["quintet", "solve", "--seed", "1", "--deal", "Ah"],
    "solve_json": ["quintet", "solve", "--seed", "1", "--k", "2", "--json"],
    "solve_text": ["quintet", "solve", "--removed", "7c 7d 8h 9s Tc Jd Qh", "--quiet"],
    "best_response": ["quintet", "best-response", "--deal", "Ah Kh Qh Jh Th 9c 9d 9h 9s 8c",
                      "--points", "3 4", "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c"],
    "reveal_solve_json": ["quintet", "solve", "--seed", "2", "--k", "3", "--variant", "reveal", "--json"],
    "reveal_solve_text": ["quintet", "solve", "--seed", "11", "--k", "2", "--variant", "reveal"],
    "reveal_br_json": ["quintet", "best-response", "--deal", "Ah Kh Qh Jh Th 9c 9d 9h 9s 8c", "--points", "3 4",
                       "--variant", "reveal", "--json", "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c"],
    "reveal_br_text": ["quintet", "best-response", "--deal", "Ah Kh Qh Jh Th 9c 9d 9h 9s 8c", "--points", "3 4",
                       "--variant", "reveal", "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c@1",
                       "9c 9d 9h 9s 8c / Ah Kh Qh Jh Th@1"],
    "reveal_bad_variant": ["quintet", "solve", "--seed", "1", "--variant", "adaptive"],
}


@pytest.fixture(scope="module")
def results():
    return run_all(COMMANDS)


def test_quintet_eval_text(results):
    out = ok(results, "eval")
    assert "straight flush" in out
    assert "Ah Kh Qh Jh Th" in out


def test_quintet_eval_json(results):
    doc = json.loads(ok(results, "eval_json"))
    assert len(doc["hands"]) == 1
    hand = doc["hands"][0]
    assert hand["category"] == "straight_flush"
    assert hand["ranks"] == ["A"]
    assert isinstance(hand["strength"], int)
    assert doc["kickers"] == "seed"


def test_quintet_compare_says_which_wins(results):
    out = ok(results, "compare")
    assert "second hand wins" in out
    out = ok(results, "compare_rev")
    assert "first hand wins" in out


def test_quintet_compare_json(results):
    doc = json.loads(ok(results, "compare_json"))
    cats = [h["category"] for h in doc["hands"]]
    assert cats == ["full_house", "flush"]
    assert doc["winners"] == [1]
    assert doc["order"] == [1, 0]
    assert doc["hands"][1]["strength"] > doc["hands"][0]["strength"]


def test_quintet_solve_json_and_text(results):
    data = json.loads(ok(results, "solve_json"))
    assert data["value"] == 3.5 and data["exploitability"] <= 1e-9
    assert abs(sum(s["probability"] for s in data["strategy"]) - 1) < 1e-9
    assert data["deal"] and len(data["deal"].split()) == 10
    text = ok(results, "solve_text")
    assert "removed: 7c 7d 8h 9s Tc Jd Qh" in text and "exploitability" in text


def test_quintet_best_response_cli(results):
    out = ok(results, "best_response")
    # copying ties both positions (3.5); swapping the groups loses the 3-point
    # position and wins the 4-point one
    assert "expected points: 4.000000" in out


def test_quintet_solve_bad_deal_arguments(results):
    code, out, err = results["solve_bad"]
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "exactly one of --deal, --removed or --seed" in err


def test_study(tmp_path, capsys):
    assert main(["quintet", "study", "--deals", "1", "--seed", "1", "--processes", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 1 and len(out["habits"]) == 6
    pytest.importorskip("matplotlib")
    png = tmp_path / "quintet.png"
    assert main(["quintet", "study", "--deals", "1", "--seed", "2", "--processes", "1", "--plot", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_quintet_reveal_solve_cli(results):
    data = json.loads(ok(results, "reveal_solve_json"))
    assert data["variant"] == "reveal" and data["value"] == 6.0
    assert data["certified"] and data["exploitability"] <= 1e-9
    assert abs(sum(s["probability"] for s in data["strategy"]) - 1) < 1e-9
    assert all(len(s["groups"]) == 3 for s in data["strategy"])
    text = ok(results, "reveal_solve_text")
    assert "reveal-order variant" in text and "certified" in text


def test_quintet_reveal_best_response_cli(results):
    data = json.loads(ok(results, "reveal_br_json"))
    # as in the fixed game: the opponent's order is known, nothing to adapt to
    assert data["value"] == 4.0 and data["fixed_value"] == 4.0 and data["gain"] == 0.0
    assert data["policy"]["first"] == "9s 9h 9d 9c 8c"
    text = ok(results, "reveal_br_text")
    assert "adaptive best response: 3.750000" in text


def test_quintet_reveal_bad_variant(results):
    code, out, err = results["reveal_bad_variant"]
    assert code == 2 and out == "" and "invalid choice: 'adaptive'" in err


def test_best_response_probability_errors(capsys):
    from quartet_solver.cli import main

    deal = ["--deal", "Ah Kh Qh Jh Th 9c 9d 9h 9s 8c"]
    a, b = "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c", "9c 9d 9h 9s 8c / Ah Kh Qh Jh Th"
    # '@x' ended in a ValueError traceback (status 1); '@inf' and '@-1' in messages about
    # [nan] or a sum of 1
    for prob in ("x", "nan", "inf", "-1"):
        assert main(["quintet", "best-response", f"{a}@{prob}", *deal]) == 2
        err = capsys.readouterr().err
        assert f"the probability of OPPONENT '{a}@{prob}' must be a finite number >= 0, got '{prob}'" in err
    # two huge weights summed to inf and normalised to (0, 0)
    assert main(["quintet", "best-response", f"{a}@1e308", f"{b}@1e308", *deal, "--json"]) == 0
    assert '"value": 3.75' in capsys.readouterr().out


def test_k_must_match_the_given_deal(capsys):
    # --k was ignored silently next to --deal: '--k 3' solved a 2-group deal
    from quartet_solver.cli import main

    deal = "Ah Kh Qh Jh Th 9c 9d 9h 9s 8c"
    assert main(["quintet", "solve", "--deal", deal, "--k", "3", "--quiet"]) == 2
    assert "--k 3 does not match the 2-group deal" in capsys.readouterr().err
    assert main(["quintet", "solve", "--deal", deal, "--k", "2", "--quiet"]) == 0
    assert "value: 3.500000" in capsys.readouterr().out
    assert main(["quintet", "solve", "--removed", "7c 7d 8h 9s Tc Jd Qh", "--quiet", "--json"]) == 0
    assert '"removed": "7c 7d 8h 9s Tc Jd Qh"' in capsys.readouterr().out


def test_the_reveal_variant_refuses_progress_on_the_command_line():
    code, out, err = run(["quintet", "solve", "--seed", "1", "--variant", "reveal", "--progress"])
    assert code == 2 and "--progress is not available with --variant reveal" in err
