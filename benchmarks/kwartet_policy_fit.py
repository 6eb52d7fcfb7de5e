"""How well the planner's rollout policies explain real bots' asks.

``PlanningBot`` plays its opponents in the rollouts with one of two policies, and
weighs its deals by how likely the opponents' asks are under them, so the closer a
policy comes to what a kind of bot actually asks, the closer the rollouts come to
the real game.  This plays ``--games`` games of four bots of each kind in
``--bots`` (4 players, classic deck) and checks every ask against the asks each
policy rates best, on the true deal:

* ``memory`` and ``shared``: the compiled policies of the rollouts
  (``_core.kw_ask_likelihood``'s misses: an ask not among the policy's best);
* ``share of hand sizes``, ``share of untraced cards`` and ``untraced + forced``:
  a Python replica of the shared policy's chance (the seat's share of the places
  that may hold the card, its odds multiplied by the collector odds when the seat
  asked for the quartet) counting the places three ways: the seats' hand sizes;
  their untraced cards (the hand size less the cards the public record traces to
  the seat); and the latter with the cards an ask forces (a seat that asked in a
  quartet, and has lost no card of it since, holds one of the quartet's cards
  that could be there; when only one could and none is traced to it, that card is
  its).  The replica counting the places as the compiled policy does
  (:data:`COMPILED`) gives the same misses as the compiled one.

Per policy: the share of asks that are not among its best ("misfit") and the mean
number of asks tied with the one made where it is among them.

Run: python benchmarks/kwartet_policy_fit.py [--games 300] [--bots memory,inference]
     [--seed 1000] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

from quartet_solver import _core
from quartet_solver import kwartet as kw
from quartet_solver.kwartet.game import Asked, Laid
from quartet_solver.kwartet.planning import PlanningBot, likelihood_event

ODDS = PlanningBot.rollout_odds
EPS = PlanningBot.model_eps
REPLICAS = ("share of hand sizes", "share of untraced cards", "untraced + forced")
COMPILED = "share of hand sizes"
"""The replica that counts the places as the compiled shared policy does."""


def _events(game: kw.Game) -> np.ndarray:
    rows = [likelihood_event(e) for e in game.log]
    return np.array([r for r in rows if r is not None], dtype=np.int32).reshape(-1, 4)


def compiled_fit(game: kw.Game, model: int) -> tuple[int, int, float]:
    """(asks, misses, sum of log ties over the fitting asks) of the compiled
    policy ``model`` (1 MemoryBot's, 0 the shared one) over every seat's asks."""
    n, nq = game.players, game.deck.n_quartets
    deal = np.array([[game.hand(p) for p in range(n)] + [game.pile]], dtype=np.uint64)
    events = _events(game)
    asks = misses = 0
    ties = 0.0
    for me, seats in ((0, range(1, n)), (1, (0,))):
        ll, miss = _core.kw_ask_likelihood(nq, n, me, deal, events, EPS, np.full(n, model, np.uint8), ODDS)
        for p in seats:
            made = int(((events[:, 0] == 0) & (events[:, 1] == p)).sum())
            asks += made
            misses += int(miss[0, p])
            ties += -(float(ll[0, p]) - int(miss[0, p]) * math.log(EPS))
    return asks, misses, ties


def replica_fit(game: kw.Game, variant: str) -> tuple[int, int, float]:
    """(asks, misses, sum of log ties) of the replica ``variant`` (see the module
    docstring), replaying ``game`` from its deal."""
    n, nq = game.players, game.deck.n_quartets
    hands = list(game.initial_hands)
    pile = game.pile
    holder = [-1] * (4 * nq)
    notat = [0] * (4 * nq)
    hasq = [0] * n
    commit = [0] * n
    untraced = variant != "share of hand sizes"
    forced = variant == "untraced + forced"
    asks = misses = 0
    ties = 0.0
    for e in game.log:
        if isinstance(e, Laid):
            hands[e.player] &= ~(0xF << (4 * e.quartet))
            for c in range(4 * e.quartet, 4 * e.quartet + 4):
                holder[c] = -2
            for p in range(n):
                hasq[p] &= ~(1 << e.quartet)
                commit[p] &= ~(1 << e.quartet)
            continue
        if not isinstance(e, Asked):
            continue
        a = e.asker
        seen = list(holder)
        if forced:
            for t in range(n):
                for q in range(nq):
                    cs = range(4 * q, 4 * q + 4)
                    if t == a or not commit[t] >> q & 1 or any(seen[c] == t for c in cs):
                        continue
                    cand = [c for c in cs if seen[c] == -1 and not hands[a] >> c & 1 and not notat[c] >> t & 1]
                    if len(cand) == 1:
                        seen[cand[0]] = t
        size = [hands[p].bit_count() - (sum(1 for c in range(4 * nq) if seen[c] == p) if untraced else 0)
                for p in range(n)]
        keys = {}
        askable = [c for c in range(4 * nq)
                   if not hands[a] >> c & 1 and hands[a] >> (4 * (c // 4)) & 0xF]
        for c in askable:
            held = (hands[a] >> (4 * (c // 4)) & 0xF).bit_count()
            den = sum(size[l] for l in range(n) if l != a and hands[l] and not notat[c] >> l & 1)
            den += pile.bit_count()
            for t in range(n):
                if t == a or not hands[t]:
                    continue
                if seen[c] == t:
                    sc = 1.0
                elif seen[c] >= 0 or notat[c] >> t & 1 or den <= 0:
                    sc = 0.0
                else:
                    sc = size[t] / den
                    if hasq[t] >> (c // 4) & 1 and sc < 1.0:
                        sc = sc * ODDS / (sc * ODDS + 1.0 - sc)
                keys[(t, c)] = (sc, held)
        best = max(keys.values())
        asks += 1
        if keys[(e.target, e.card)] == best:
            ties += math.log(sum(1 for k in keys.values() if k == best))
        else:
            misses += 1
        q = e.card // 4
        hasq[a] |= 1 << q
        commit[a] |= 1 << q
        if e.hit:
            hands[e.target] &= ~(1 << e.card)
            hands[a] |= 1 << e.card
            holder[e.card] = a
            notat[e.card] = 0
            commit[e.target] &= ~(1 << q)
        else:
            notat[e.card] |= 1 << e.target | 1 << a
    return asks, misses, ties


def measure(kind: str, games: int, seed: int) -> list[dict[str, Any]]:
    """One row per policy for ``games`` games of four ``kind`` bots."""
    totals: dict[str, list[float]] = {name: [0, 0, 0.0] for name in ("memory", "shared", *REPLICAS)}
    for g in range(games):
        game = kw.Game(kw.Deck.themed("classic"), players=4, seed=seed + g)
        kw.play(game, [kw.make_bot(kind, seed=10 * (seed + g) + i) for i in range(4)])
        for name, model in (("memory", 1), ("shared", 0)):
            got = compiled_fit(game, model)
            totals[name] = [x + y for x, y in zip(totals[name], got)]
        for name in REPLICAS:
            got = replica_fit(game, name)
            totals[name] = [x + y for x, y in zip(totals[name], got)]
    rows = []
    for name, (asks, misses, ties) in totals.items():
        fits = asks - misses
        rows.append({"bots": kind, "policy": name, "asks": int(asks), "misfit": misses / asks,
                     "mean_tied": math.exp(ties / fits) if fits else None})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--bots", default="memory,inference")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows = [r for kind in args.bots.split(",") for r in measure(kind.strip(), args.games, args.seed)]
    print(f"{'bots':10} {'policy':24} {'asks':>6} {'misfit':>7} {'tied (geo. mean)':>17}")
    for r in rows:
        tied = "-" if r["mean_tied"] is None else f"{r['mean_tied']:.2f}"
        print(f"{r['bots']:10} {r['policy']:24} {r['asks']:6d} {r['misfit']:7.3f} {tied:>17}")
    print(f"({time.perf_counter() - t0:.0f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"games": args.games, "seed": args.seed, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
