"""Kwartet benchmarks: exact posterior time by game stage, games/s per bot type.

Run: python benchmarks/kwartet.py
Targets: posterior <= 10 ms (4 players, 32 cards, any stage);
>= 2,000 games/s with novice bots.
"""

from __future__ import annotations

import statistics
import time

from quartet_solver import kwartet as kw


def posterior_times(deck, players, games=20, stages=(0, 10, 20, 30, 45, 60)):
    """Median / max posterior time (ms) after ``s`` asks, over games and observers."""
    rows = []
    samples = {s: [] for s in stages}
    for seed in range(games):
        g = kw.Game(deck, players=players, seed=seed)
        bots = [kw.MemoryBot(seed=seed * 10 + i) for i in range(players)]
        for s, b in enumerate(bots):
            b.start(g, s)
        for stage in stages:
            while not g.is_over and g.asks < stage:
                act = bots[g.to_move].choose()
                g.ask(act[1], act[2])
            if g.asks < stage:
                break
            k = kw.Knowledge.from_game(g, seed % players)
            t = time.perf_counter()
            k.probabilities()
            samples[stage].append((time.perf_counter() - t) * 1e3)
    for stage in stages:
        xs = samples[stage]
        if xs:
            rows.append((stage, len(xs), statistics.median(xs), max(xs)))
    return rows


def games_per_second():
    rows = []
    deck = kw.Deck.themed("classic")
    for bots, games in [
        (["novice"] * 4, 50000),
        (["memory"] * 4, 300),
        (["inference", "novice", "novice", "novice"], 100),
        (["inference"] * 4, 30),
    ]:
        r = kw.simulate(bots, games=games, seed=1, deck=deck)
        rows.append((",".join(bots), games, r.games_per_second, r.fast_path))
    r = kw.simulate(["novice"] * 4, games=300, seed=1, deck=deck, fast=False)
    rows.append(("novice x4 (Python engine)", 300, r.games_per_second, False))
    return rows


def main():
    print("Exact posterior time (ms) by game stage (asks so far), MemoryBot games")
    for name, deck, players in [
        ("classic 32 cards, 4 players", kw.Deck.themed("classic"), 4),
        ("classic 32 cards, 3 players (pile 2)", kw.Deck.themed("classic"), 3),
        ("world 48 cards, 6 players", kw.Deck.themed("world"), 6),
        ("standard 52 cards, 5 players (pile 2)", kw.Deck.standard(), 5),
    ]:
        print(f"\n{name}")
        print(f"{'asks':>6} {'n':>4} {'median ms':>10} {'max ms':>8}")
        for stage, n, med, mx in posterior_times(deck, players, games=10 if players > 4 else 20):
            print(f"{stage:>6} {n:>4} {med:>10.3f} {mx:>8.3f}")
    print("\nGames per second (classic deck, 4 players, seats rotated)")
    print(f"{'bots':<40} {'games':>6} {'games/s':>10}  kernel")
    for bots, games, gps, fast in games_per_second():
        print(f"{bots:<40} {games:>6} {gps:>10,.0f}  {'compiled' if fast else 'python'}")


if __name__ == "__main__":
    main()
