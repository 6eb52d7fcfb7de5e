"""The planner's selection-regret benchmark (benchmarks/kwartet_regret.py) on a
few positions: its ground truth covers every legal ask, its regrets are losses
against that truth, and its command line refuses unknown settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest

from project_files import ROOT, load

SCRIPT = os.path.join(ROOT, "benchmarks", "kwartet_regret.py")


def _module():
    return load(os.path.join("benchmarks", "kwartet_regret.py"), "kwartet_regret")


def test_truth_and_regret():
    m = _module()
    snaps = m.positions(3, 5, 0.5)
    assert snaps
    truths = [m.truth(s, 300, k) for k, s in enumerate(snaps)]
    for snap, gt in zip(snaps, truths):
        game = snap.view._game
        assert not game.is_over and game.to_move == snap.view.seat
        assert set(gt) == set(game.legal_asks())
        assert all(0.0 <= x <= 1.25 for x in gt.values())
    row = m.regret(snaps, truths, {"samples": 50, "candidates": 3}, 2)
    spread = max(max(gt.values()) - min(gt.values()) for gt in truths)
    assert 0.0 <= row["regret"] <= spread and row["se"] >= 0.0
    # a setting whose only candidate is the inference choice loses what that choice loses
    one = m.regret(snaps, truths, {"samples": 50, "candidates": 1}, 1)
    assert one["regret"] == pytest.approx(m.inference_regret(snaps, truths))


def test_command_line():
    if not os.path.exists(SCRIPT):
        pytest.skip("benchmarks/ not next to the tests")
    out = subprocess.run([sys.executable, SCRIPT, "--settings", '[{"sample": 10}]'], capture_output=True,
                         text=True, timeout=300, cwd=tempfile.gettempdir())
    assert out.returncode == 2 and "unknown setting names ['sample']" in out.stderr
    path = os.path.join(tempfile.mkdtemp(), "regret.json")
    out = subprocess.run([sys.executable, SCRIPT, "--games", "2", "--keep", "0.3", "--truth", "200", "--repeats", "1",
                          "--settings", '[{"samples": 30}]', "--json", path], capture_output=True, text=True,
                         timeout=300, cwd=tempfile.gettempdir())
    assert out.returncode == 0, out.stderr
    data = json.load(open(path))
    assert data["positions"] > 0 and data["settings"][0]["setting"] == {"samples": 30}
    assert data["settings"][0]["regret"] >= 0.0
