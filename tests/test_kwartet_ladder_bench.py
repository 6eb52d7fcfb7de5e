"""The planner's ladder (benchmarks/kwartet.py --part ladder) over several seeds: each
seed's rows are the single-seed ladder's, and the pooled row adds them up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from project_files import ROOT, load

SCRIPT = os.path.join(ROOT, "benchmarks", "kwartet.py")
SMALL = {"games": 6, "samples": 8, "candidates": 3, "jobs": 1}


def _module():
    return load(os.path.join("benchmarks", "kwartet.py"), "kwartet_bench")


def test_pooled_rows_add_up_the_seeds():
    m = _module()
    rows = m.ladder(**SMALL, seeds=(5, 6))
    assert [(r["bot"], r["opponent"], r["seed"]) for r in rows] == [
        (bot, opp, seed) for bot in ("planning", "inference") for opp in ("memory", "inference")
        for seed in (5, 6, "pooled")]
    singles = {s: m.ladder(**SMALL, seed=s) for s in (5, 6)}
    for i in range(0, len(rows), 3):
        a, b, pooled = rows[i:i + 3]
        for r in (a, b):
            same = next(x for x in singles[r["seed"]] if (x["bot"], x["opponent"]) == (r["bot"], r["opponent"]))
            assert (r["win_rate"], r["quartets"], r["tips"]["asks"]) == (
                same["win_rate"], same["quartets"], same["tips"]["asks"])
        assert pooled["games"] == 12 and pooled["seeds"] == [5, 6]
        assert pooled["win_rate"] == pytest.approx((a["win_rate"] + b["win_rate"]) / 2)
        wins = pooled["win_rate"] * 12
        lo, hi = pooled["win_ci"]
        assert lo <= pooled["win_rate"] <= hi and (lo < hi or wins in (0, 12))
        assert pooled["tips"]["asks"] == a["tips"]["asks"] + b["tips"]["asks"]
        assert pooled["tips"]["decision_max"] == max(a["tips"]["decision_max"], b["tips"]["decision_max"])


def test_one_seed_has_no_pooled_row():
    rows = _module().ladder(**SMALL, seeds=(7,))
    assert len(rows) == 4 and all(r["seed"] == 7 for r in rows)


def test_cli_seeds():
    if not os.path.exists(SCRIPT):
        pytest.skip("benchmarks/kwartet.py not next to the tests")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "ladder.json")
        run = subprocess.run([sys.executable, SCRIPT, "--part", "ladder", "--games", "4", "--samples", "8",
                              "--jobs", "1", "--seeds", "1,2", "--json", out],
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr
        rows = json.load(open(out, encoding="utf-8"))
        assert sum(r["seed"] == "pooled" for r in rows) == 4
        assert "pooled" in run.stdout
    for bad in ("1,x", "3,3", ""):
        run = subprocess.run([sys.executable, SCRIPT, "--part", "ladder", "--seeds", bad],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and "--seeds" in run.stderr


def test_depth_and_diverse_reach_the_planner():
    rows = _module().ladder(**SMALL, seeds=(7,), depth=2, diverse=1)
    planning = [r for r in rows if r["bot"] == "planning"]
    assert len(planning) == 2
    assert all(r["options"]["depth"] == 2 and r["options"]["diverse"] == 1 for r in planning)
    assert all("depth" not in r["options"] and "diverse" not in r["options"] for r in rows if r["bot"] == "inference")


def test_ladder_defaults_are_the_planners():
    m = _module()
    bot = m.kw.PlanningBot()
    assert m.PLANNER_DEFAULTS["samples"] == bot.samples and m.PLANNER_DEFAULTS["candidates"] == bot.candidates
    assert m.PLANNER_DEFAULTS["diverse"] == bot.diverse and m.PLANNER_DEFAULTS["depth"] == bot.depth


def test_memory_rules_reach_the_games():
    """``rules="memory"``: every table is played under memory Kwartet, whose games
    have middle cards turned up (the bots' ``reveals``), and the rows say so."""
    m = _module()
    rows = m.ladder(**SMALL, seeds=(3,), rules="memory")
    assert all(r["rules"] == "memory" for r in rows)
    assert all(r["tips"]["reveals"] > 0 for r in rows)
    standard = m.ladder(**SMALL, seeds=(3,))
    assert all(r["rules"] == "standard" and r["tips"]["reveals"] == 0 for r in standard)


def _off_best_share(m, rate: float, games: int = 6) -> tuple[int, int]:
    """Asks of four ``ErraticBot``s at ``rate`` that InferenceBot's scores rate below
    the best at that decision, and all their asks."""
    kw = m.kw
    off = total = 0
    for gs in range(games):
        g = kw.Game(kw.Deck.themed("classic"), players=4, seed=gs)
        bots = [m.ErraticBot(seed=10 * gs + i) for i in range(4)]
        for b in bots:
            b.rate = rate
        for seat, b in enumerate(bots):
            b.start(g, seat)
        while not g.is_over:
            b = bots[g.to_move]
            b._update()
            scores = {(t, c): s for s, t, c in b._scores()}
            kind, t, c = b.choose()
            assert kind == "ask" and (t, c) in scores  # a legal ask
            off += scores[(t, c)] < max(scores.values())
            total += 1
            g.ask(t, c)
    return off, total


def test_erratic_opponent():
    """The ladder's ``"erratic"`` opponent asks as InferenceBot does, except on about
    ``rate`` of its asks, where it asks at random (and then mostly below the best)."""
    m = _module()
    assert _off_best_share(m, 0.0)[0] == 0
    off, total = _off_best_share(m, 1.0)
    assert off > total / 2
    off, total = _off_best_share(m, m.ErraticBot.rate)
    assert 0.4 * m.ErraticBot.rate * total < off < m.ErraticBot.rate * total
    row = m._table(("inference", "erratic", 4, 3, {}))
    assert row["opponent"] == "erratic" and row["games"] == 4 and len(row["opponents_win_rate"]) == 3


def _forgetful_game(m, lapse: float, seed: int) -> tuple[list, int, int]:
    """The log of a game of four ``ForgetfulBot``s at ``lapse``, and how many of the
    other players' asks they recorded, of how many they saw."""
    kw = m.kw
    seen = kept = 0

    class Counted(m.ForgetfulBot):
        def _forgets(self, e):
            nonlocal seen, kept
            forgets = super()._forgets(e)
            if isinstance(e, kw.Asked) and e.asker != self.view.seat:
                seen += 1
                kept += not forgets
            return forgets

    bots = [Counted(seed=10 * seed + i) for i in range(4)]
    for b in bots:
        b.lapse = lapse
    g = kw.play(kw.Game(kw.Deck.themed("classic"), players=4, seed=seed), bots)
    return list(g.log), kept, seen


def test_forgetful_opponent():
    """The ladder's ``"forgetful"`` opponent is MemoryBot when it forgets nothing, and
    records about ``1 - lapse`` of the other players' asks."""
    m = _module()
    kw = m.kw
    for seed in range(3):
        log, kept, seen = _forgetful_game(m, 0.0, seed)
        same = kw.play(kw.Game(kw.Deck.themed("classic"), players=4, seed=seed),
                       [kw.MemoryBot(seed=10 * seed + i) for i in range(4)])
        assert log == list(same.log) and kept == seen > 0
        assert _forgetful_game(m, 1.0, seed)[1] == 0
    kept = seen = 0
    for seed in range(6):
        _, k, s = _forgetful_game(m, m.ForgetfulBot.lapse, seed)
        kept, seen = kept + k, seen + s
    assert 0.5 * seen < kept < 0.85 * seen
    row = m._table(("inference", "forgetful", 4, 3, {}))
    assert row["opponent"] == "forgetful" and row["games"] == 4 and len(row["opponents_win_rate"]) == 3


def test_mixed_table():
    """``"mixed"``: the table is the bot against one MemoryBot, one InferenceBot and
    one ErraticBot, in that order (seats rotated)."""
    m = _module()
    row = m._table(("inference", "mixed", 8, 3, {}))
    assert row["opponent"] == "mixed" and row["games"] == 8 and len(row["opponents_win_rate"]) == 3
    same = m.kw.simulate([m.kw.InferenceBot(seed=3), "memory", "inference", m.ErraticBot], games=8, seed=3,
                         deck=m.kw.Deck.themed("classic"))
    assert row["win_rate"] == same.stats[0].win_rate
    assert row["opponents_win_rate"] == [o.win_rate for o in same.stats[1:]]


def test_opponents_choose_the_tables():
    """``opponents`` names the tables: both bots against three of each, in order,
    the library's bots by name and the ladder's own (``"erratic"``)."""
    rows = _module().ladder(**SMALL, seeds=(4,), opponents=("erratic", "novice"))
    assert [(r["bot"], r["opponent"]) for r in rows] == [
        ("planning", "erratic"), ("planning", "novice"), ("inference", "erratic"), ("inference", "novice")]
    if not os.path.exists(SCRIPT):
        return
    run = subprocess.run([sys.executable, SCRIPT, "--part", "ladder", "--opponents", "memory,nobody"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "nobody" in run.stderr and "erratic" in run.stderr


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["standard", "memory"]), seat=st.integers(0, 3))
def test_exposure_counts_conserve_cards(seed: int, rules: str, seat: int) -> None:
    """``exposure``'s cards lost, checked by conservation over the whole game: a seat's
    cards are those dealt, taken by its hits and turned up by it, and every one of them
    leaves by an opponent's hit or in a laid quartet.  Traced losses are among the
    losses and never outnumber the cards the seat got in sight of all; every miss is
    at one seat."""
    m = _module()
    kw = m.kw
    g = kw.play(kw.Game(kw.Deck.themed("classic"), players=4, seed=seed, rules=kw.Rules.preset(rules)),
                [kw.MemoryBot(seed=seed + i) for i in range(4)])
    x = m.exposure(g.log, seat)
    took = sum(1 for e in g.log if isinstance(e, kw.Asked) and e.asker == seat and e.hit)
    shown = sum(1 for e in g.log if isinstance(e, kw.Revealed) and e.player == seat)
    dealt = bin(g.initial_hands[seat]).count("1")
    assert x["lost"] == dealt + took + shown - 4 * g.quartets[seat]
    assert 0 <= x["lost_traced"] <= min(x["lost"], took + shown)
    misses = [m.exposure(g.log, p)["misses_at"] for p in range(4)]
    assert sum(misses) == sum(1 for e in g.log if isinstance(e, kw.Asked) and not e.hit) and misses[seat] == x["misses_at"]


def test_draw_part_compares_the_bots_on_the_same_deals():
    """--part draw: InferenceBot through the draws against MemoryAfterDrawBot, which gives
    up exact inference at the first unseen draw (and so asks as MemoryBot from there)."""
    from quartet_solver import kwartet as kw

    m = _module()
    rows = m.draw_table(4, 3, ("memory",), 1)
    assert [(r["bot"], r["opponent"], r["games"]) for r in rows] == [
        ("inference", "memory", 4), ("inference-memory-after-draw", "memory", 4)]
    assert all(0 <= r["win_rate"] <= 1 and r["win_ci"][0] <= r["win_rate"] <= r["win_ci"][1] for r in rows)
    game = kw.Game(kw.Deck.themed("classic"), 4, seed=1, rules=kw.Rules.preset("draw"))
    exact, fallback = kw.InferenceBot(seed=1), m.MemoryAfterDrawBot(seed=1)
    kw.play(game, [exact, fallback, kw.MemoryBot(seed=2), kw.MemoryBot(seed=3)])
    assert exact.knowledge is not None and fallback.knowledge is None
