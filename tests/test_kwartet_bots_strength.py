"""Regression: InferenceBot must beat MemoryBot head-to-head (and stay best in a mixed table)."""

import numpy as np

from quartet_solver import kwartet as kw
from quartet_solver.kwartet.bots import InferenceBot


def test_inference_beats_three_memory_bots():
    r = kw.simulate(["inference", "memory", "memory", "memory"], games=800, seed=7, deck=kw.Deck.themed("classic"))
    inf = r.stats[0]
    assert inf.win_ci[0] > 0.25, r.pretty()
    assert inf.win_rate > max(s.win_rate for s in r.stats[1:]), r.pretty()


def test_inference_best_in_mixed_table():
    r = kw.simulate(["inference", "memory", "novice", "novice"], games=400, seed=7, deck=kw.Deck.themed("classic"))
    assert r.stats[0].win_rate == max(s.win_rate for s in r.stats), r.pretty()


def test_inference_deterministic_for_a_seed():
    a = kw.simulate(["inference", "memory", "memory", "memory"], games=40, seed=3, deck=kw.Deck.themed("classic"))
    b = kw.simulate(["inference", "memory", "memory", "memory"], games=40, seed=3, deck=kw.Deck.themed("classic"))
    assert [s.to_dict() for s in a.stats] == [s.to_dict() for s in b.stats]


def test_collector_correction_raises_only_uncertain_odds():
    g = kw.Game(kw.Deck.themed("classic"), players=4, seed=1)
    bot = InferenceBot(seed=0)
    bot.start(g, 0)
    probs = np.array([[0.0, 1.0, 0.5, 0.25]] * 5)
    bot._hasq[1] = 1  # seat 1 asked for quartet 0
    assert bot.hit_probability(probs, 1, 0) == 0.0
    assert bot.hit_probability(probs, 1, 1) == 1.0
    assert bot.hit_probability(probs, 1, 2) > 0.9
    assert bot.hit_probability(probs, 2, 2) == 0.5
