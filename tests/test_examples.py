"""The scripts in examples/ run against the installed package (small sizes),
and what they print holds together; several of them assert their own claims
(the Klaverjas one: the principal variation played out scores the value, and a
best card keeps it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

CASES = {
    "klaverjas_dd.py": ["3", "24"],
    "kwartet_inference.py": [],
    "kwartet_ladder.py": ["10"],
    "quintet_hands.py": ["7c 8c 9c Tc Jc Qh Qd Qs As"],
    "quintet_solve.py": ["2"],
}


def run(name: str, args: list[str], tmp_path: Path) -> str:
    script = EXAMPLES / name
    if not script.exists():
        pytest.skip("examples/ not next to the tests")
    result = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                            timeout=600, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_every_example_is_covered():
    if not EXAMPLES.exists():
        pytest.skip("examples/ not next to the tests")
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_example_runs(name, tmp_path):
    assert run(name, CASES[name], tmp_path).strip()


def test_klaverjas_example_agrees_with_the_solver(tmp_path):
    from quartet_solver import klaverjas as kj

    out = run("klaverjas_dd.py", ["5", "16"], tmp_path)
    deal = kj.Deal.random(seed=5)
    value = kj.solve_deal(deal, "h", declarer="N", leader="E")
    assert f"N/S net {value:+d} (" in out
    assert re.search(rf"played out: .* net {re.escape(f'{value:+d}')}$", out, re.M)
    table = kj.dd_table(deal, leader="E")
    assert table.pretty() in out
    p = kj.par(deal, dealer="N")
    assert f"par: {p.declarer} names {p.trump} " in out
    assert re.search(r"^recommended: (pass|[cdhs])$", out, re.M)
