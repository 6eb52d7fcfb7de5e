"""The rollout policies' fit benchmark (benchmarks/kwartet_policy_fit.py): MemoryBot's
asks are all among its compiled policy's best, the replica that counts places as the
compiled shared policy does misses exactly the same asks, and the command line writes
its rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest

from project_files import ROOT, load
from quartet_solver import kwartet as kw

SCRIPT = os.path.join(ROOT, "benchmarks", "kwartet_policy_fit.py")


def _module():
    return load(os.path.join("benchmarks", "kwartet_policy_fit.py"), "kwartet_policy_fit")


def _game(kind: str, seed: int) -> kw.Game:
    game = kw.Game(kw.Deck.themed("classic"), players=4, seed=seed)
    kw.play(game, [kw.make_bot(kind, seed=10 * seed + i) for i in range(4)])
    return game


@pytest.mark.parametrize("kind", ["memory", "inference"])
def test_replica_matches_the_compiled_policy(kind):
    m = _module()
    for seed in range(6):
        game = _game(kind, seed)
        asks, misses, ties = m.compiled_fit(game, 0)
        r_asks, r_misses, r_ties = m.replica_fit(game, m.COMPILED)
        assert asks == r_asks == sum(1 for e in game.log if isinstance(e, kw.Asked))
        assert misses == r_misses
        assert ties == pytest.approx(r_ties)
        for variant in m.REPLICAS:
            a, mi, t = m.replica_fit(game, variant)
            assert a == asks and 0 <= mi <= a and t >= 0.0


def test_memory_bots_fit_their_own_policy():
    m = _module()
    for seed in range(4):
        game = _game("memory", seed)
        asks, misses, _ = m.compiled_fit(game, 1)
        assert asks > 0 and misses == 0


def test_command_line():
    if not os.path.exists(SCRIPT):
        pytest.skip("benchmarks/ not next to the tests")
    path = os.path.join(tempfile.mkdtemp(), "fit.json")
    out = subprocess.run([sys.executable, SCRIPT, "--games", "3", "--bots", "memory", "--json", path],
                         capture_output=True, text=True, timeout=300, cwd=tempfile.gettempdir())
    assert out.returncode == 0, out.stderr
    rows = json.load(open(path))["rows"]
    assert {r["policy"] for r in rows} == {"memory", "shared", *_module().REPLICAS}
    assert next(r for r in rows if r["policy"] == "memory")["misfit"] == 0.0
