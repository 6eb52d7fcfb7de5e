"""The deal-weighting benchmark (benchmarks/kwartet_deal_fit.py): its unweighted
draws give the exact posterior's hit chances, every weighting is judged on the same
positions, and its command line writes its tables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from project_files import ROOT, load
from quartet_solver import kwartet as kw

SCRIPT = os.path.join(ROOT, "benchmarks", "kwartet_deal_fit.py")


def _module():
    return load(os.path.join("benchmarks", "kwartet_deal_fit.py"), "kwartet_deal_fit")


def test_uniform_draws_give_the_exact_posterior():
    """With no weight, an ask's chance in 4,000 draws is the exact posterior
    probability within sampling error (a binomial standard error is at most 0.008);
    every weighting gives chances in [0, 1], a sure card 1 and an impossible one 0."""
    m = _module()
    checked = 0
    for seed in range(3):
        g = kw.Game(kw.Deck.themed("classic"), players=4, seed=seed)
        probe = m._Probe(seed=seed, draws=4000, tally={s: [] for s in m.SCHEMES})
        bots = [probe] + [kw.InferenceBot(seed=10 * seed + j) for j in range(1, 4)]
        for s, b in enumerate(bots):
            b.start(g, s)
        while not g.is_over:
            if g.to_move == 0 and g.asks > 3 and checked < 6 * (seed + 1):
                probe._update()
                if probe.knowledge is not None and probe._events and g.legal_asks():
                    asks, truth, estimate, held, chances = probe.chances(probe.view)
                    probs = probe.knowledge.probabilities()
                    exact = np.array([probs[t, c] for t, c in asks])
                    assert np.abs(chances["uniform"] - exact).max() < 0.05
                    assert set(chances) == set(m.SCHEMES) - {"inference estimate"}
                    for chance in chances.values():
                        assert chance.shape == truth.shape
                        assert ((chance >= -1e-12) & (chance <= 1 + 1e-12)).all()
                        assert np.allclose(chance[exact == 1.0], 1.0) and np.allclose(chance[exact == 0.0], 0.0)
                    checked += 1
            action = bots[g.to_move].choose()
            g.ask(action[1], action[2])
    assert checked >= 6


def test_command_line_writes_the_tables():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "fit.json")
        r = subprocess.run([sys.executable, SCRIPT, "--games", "3", "--draws", "300", "--opponents", "memory",
                            "--json", out], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        assert "memory likelihood" in r.stdout
        tables = json.load(open(out))
    assert len(tables) == 1 and tables[0]["opponent"] == "memory" and tables[0]["games"] == 3
    rows = tables[0]["rows"]
    assert [row["weighting"] for row in rows] == list(_module().SCHEMES)
    positions = {row["positions"] for row in rows}
    assert len(positions) == 1 and positions.pop() > 0
    for row in rows:
        assert 0.0 <= row["hit_rate"] <= 1.0 and 0.0 <= row["brier"] <= 1.0
