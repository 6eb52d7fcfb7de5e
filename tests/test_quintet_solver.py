"""Quintet best responses and equilibria against exhaustive references (k = 2, 3)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import quintet_bruteforce as bf
from quartet_solver import quintet
from quartet_solver.errors import InvalidStateError
from quartet_solver.quintet import Arrangement, Deal
from quartet_solver.quintet.solver import best_response, frontier, solve


def cards_of(deal: Deal) -> list[int]:
    return bf.bits(deal.mask)


def as_groups(arr: Arrangement) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(bf.bits(m)) for m in arr.masks)


def random_mixed(deal: Deal, rng: random.Random, n: int, denominator: int = 0):
    cards = cards_of(deal)
    out = []
    for _ in range(n):
        rng.shuffle(cards)
        out.append(Arrangement(tuple(sum(1 << c for c in cards[5 * i : 5 * i + 5]) for i in range(deal.k))))
    if denominator:
        cuts = sorted(rng.sample(range(1, denominator), n - 1)) if n > 1 else []
        probs = [(b - a) / denominator for a, b in zip([0, *cuts], [*cuts, denominator])]
    else:
        raw = [rng.random() + 0.01 for _ in range(n)]
        probs = [r / sum(raw) for r in raw]
    return list(zip(out, probs))


def reference_expected(deal, arrangement, opponent, points):
    return sum(p * bf.payoff(as_groups(arrangement), as_groups(o), points) for o, p in opponent)


@settings(max_examples=40)
@given(st.integers(0, 10**6), st.integers(1, 4))
def test_best_response_k2_is_exact(seed, n):
    rng = random.Random(seed)
    deal = Deal.random(seed=seed, k=2)
    points = (3, 4)
    opponent = random_mixed(deal, rng, n)
    arr, value = best_response(deal, opponent, points=points)
    arr.check(deal)
    expected = bf.best_response_value(cards_of(deal), [(as_groups(o), p) for o, p in opponent], points)
    assert value == pytest.approx(expected, abs=1e-9)
    assert reference_expected(deal, arr, opponent, points) == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize("seed", [1, 2])
def test_best_response_k3_is_exact(seed):
    rng = random.Random(seed)
    deal = Deal.random(seed=100 + seed, k=3)
    points = (3, 4, 5)
    opponent = random_mixed(deal, rng, 3)
    arr, value = best_response(deal, opponent, points=points)
    expected = bf.best_response_value(cards_of(deal), [(as_groups(o), p) for o, p in opponent], points)
    assert value == pytest.approx(expected, abs=1e-9)
    assert reference_expected(deal, arr, opponent, points) == pytest.approx(value, abs=1e-9)


def _brute_frontier(deal: Deal, kickers: str = "seed") -> set[tuple[int, ...]]:
    vectors = set()
    for split in bf.unordered_splits(cards_of(deal)):
        masks = [sum(1 << c for c in g) for g in split]
        vectors.add(tuple(sorted(quintet.evaluate_masks(masks, kickers=kickers).tolist(), reverse=True)))
    front = set()
    for v in vectors:
        if not any(u != v and all(a >= b for a, b in zip(u, v)) for u in vectors):
            front.add(v)
    return front


@pytest.mark.parametrize("seed,k", [(s, 2) for s in range(8)] + [(s, 3) for s in range(2)])
def test_frontier_equals_brute_force_pareto_set(seed, k):
    deal = Deal.random(seed=seed, k=k)
    got = {tuple(int(x) for x in row) for row in frontier(deal)}
    assert got == _brute_frontier(deal)


@pytest.mark.parametrize("seed", range(4))
def test_frontier_full_kickers_equals_brute_force(seed):
    deal = Deal.random(seed=50 + seed, k=2)
    got = {tuple(int(x) for x in row) for row in frontier(deal, kickers="full")}
    assert got == _brute_frontier(deal, "full")


def test_solve_full_kickers_k2_certified():
    deal = Deal.random(seed=9, k=2)
    sol = solve(deal, points=(3, 4), kickers="full")
    br = bf.best_response_value(cards_of(deal), [(as_groups(a), p) for a, p in sol.strategy], (3, 4), "full")
    assert br - 3.5 == pytest.approx(sol.exploitability, abs=1e-7) and sol.exploitability <= 1e-7


def test_best_response_matches_cp_sat_model():
    """Generic OR-Tools exact-cover model as a cross-check (k = 2: CP-SAT does not
    prove optimality for k = 3 within minutes)."""
    from ortools.sat.python import cp_model

    for seed in range(5):
        rng = random.Random(seed)
        deal = Deal.random(seed=200 + seed, k=2)
        points = (3, 4)
        opponent = random_mixed(deal, rng, 3, denominator=8)
        _, value = best_response(deal, opponent, points=points)
        masks, strengths = deal.hands()
        opp = [(o.strengths(), p) for o, p in opponent]
        model = cp_model.CpModel()
        x = {}
        objective = []
        for h, (m, s) in enumerate(zip(masks.tolist(), strengths.tolist())):
            for i in range(2):
                w = sum(p * points[i] * (1.0 if s > os[i] else 0.5 if s == os[i] else 0.0) for os, p in opp)
                x[h, i] = model.NewBoolVar(f"x{h}_{i}")
                objective.append(round(w * 16) * x[h, i])  # weights are multiples of 1/16
        for i in range(2):
            model.AddExactlyOne(x[h, i] for h in range(len(masks)))
        for c in cards_of(deal):
            model.AddExactlyOne(x[h, i] for h, m in enumerate(masks.tolist()) if m >> c & 1 for i in range(2))
        model.Maximize(sum(objective))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 2
        solver.parameters.max_time_in_seconds = 120
        assert solver.Solve(model) == cp_model.OPTIMAL
        assert value == pytest.approx(solver.ObjectiveValue() / 16, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_solve_k2_certified_by_exhaustive_best_response(seed):
    deal = Deal.random(seed=seed, k=2)
    sol = solve(deal, points=(3, 4))
    assert sol.value == 3.5
    assert sum(p for _, p in sol.strategy) == pytest.approx(1.0)
    for arr, _ in sol.strategy:
        arr.check(deal)
    br = bf.best_response_value(cards_of(deal), [(as_groups(a), p) for a, p in sol.strategy], (3, 4))
    assert br - 3.5 == pytest.approx(sol.exploitability, abs=1e-7)
    assert sol.exploitability <= 1e-7
    # the best pure arrangement's guarantee is exact
    worst = min(
        bf.payoff(as_groups(sol.pure), opp, (3, 4)) for opp in bf.ordered_arrangements(cards_of(deal))
    )
    assert sol.pure_value == pytest.approx(worst, abs=1e-9)


def test_solve_k2_value_matches_full_matrix_game():
    """Solve the whole 252 x 252 game of one deal as one LP: value 3.5 and the same
    exploitability certificate from the other side."""
    from quartet_solver.quintet.matrix_game import solve_matrix_game

    deal = Deal.random(seed=42, k=2)
    arrangements = list(bf.ordered_arrangements(cards_of(deal)))
    m = np.array([[bf.payoff(a, b, (3, 4)) for b in arrangements] for a in arrangements])
    _, value = solve_matrix_game(m)
    assert value == pytest.approx(3.5, abs=1e-7)
    sol = solve(deal, points=(3, 4))
    rows = {a: i for i, a in enumerate(arrangements)}
    x = np.zeros(len(arrangements))
    for arr, p in sol.strategy:
        x[rows[as_groups(arr)]] += p
    assert (x @ m).min() == pytest.approx(3.5 - sol.exploitability, abs=1e-7)
    # the best pure arrangement is the exact max-min of the whole game
    assert sol.pure_value == pytest.approx(m.min(axis=1).max(), abs=1e-9)


@pytest.mark.parametrize("seed", [3])
def test_solve_k3_certified_by_exhaustive_best_response(seed):
    deal = Deal.random(seed=seed, k=3)
    sol = solve(deal, points=(3, 4, 5))
    br = bf.best_response_value(cards_of(deal), [(as_groups(a), p) for a, p in sol.strategy], (3, 4, 5))
    assert br - 6.0 == pytest.approx(sol.exploitability, abs=1e-7)
    assert sol.exploitability <= 1e-7


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_solve_k3_many_deals(seed):
    test_solve_k3_certified_by_exhaustive_best_response(seed)


def test_solve_k5_is_certified_and_deterministic():
    deal = Deal.random(seed=7)
    sol = solve(deal)
    assert sol.value == 12.5 and 0 <= sol.exploitability <= 1e-7
    again = solve(deal)
    assert [(str(a), p) for a, p in again.strategy] == [(str(a), p) for a, p in sol.strategy]
    # the strategy's exploitability recomputed independently of the solve loop
    _, br_value = best_response(deal, sol.strategy)
    assert br_value - 12.5 == pytest.approx(sol.exploitability, abs=1e-9)
    # symmetric: the strategy against itself scores half
    expected_self = sum(
        p * q * quintet.score(a, b)[0] for a, p in sol.strategy for b, q in sol.strategy
    )
    assert expected_self == pytest.approx(12.5, abs=1e-9)
    assert sol.pure_value <= 12.5 + 1e-9
    d = sol.to_dict()
    assert d["value"] == 12.5 and len(d["strategy"]) == sol.support_size


def test_solver_input_errors():
    deal = Deal.random(seed=1, k=2)
    with pytest.raises(InvalidStateError, match="entries"):
        solve(deal, points=(3, 4, 5))
    with pytest.raises(InvalidStateError, match="sum to 1"):
        best_response(deal, [(Arrangement.from_groups([deal.card_list()[:5], deal.card_list()[5:]]), 0.5)])
    with pytest.raises(InvalidStateError):
        best_response(deal, "Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
    with pytest.raises(InvalidStateError, match="kickers"):
        solve(deal, kickers="poker")
    # once: a SolverError ("not accurate enough") after the search, or one iteration run anyway
    for bad_tol in (0, 0.0, -1e-9, float("nan"), float("inf"), "1e-9", True, None):
        with pytest.raises(InvalidStateError, match=f"tol must be a finite number > 0, got {bad_tol!r}"):
            solve(deal, tol=bad_tol)  # type: ignore[arg-type]
    for bad_it in (0, -5, 2.0, True, None):
        with pytest.raises(InvalidStateError, match=f"max_iterations must be a positive int, got {bad_it!r}"):
            solve(deal, max_iterations=bad_it)  # type: ignore[arg-type]
    assert solve(deal, tol=np.float64(1e-9), max_iterations=np.int64(1000)).value == solve(deal).value


@pytest.mark.parametrize("seed", range(3))
def test_k5_frontier_rows_are_real_and_dominate_random_splits(seed):
    """k = 5 is too big to enumerate; check both directions on samples: every row is
    realised by real cards with exactly its strengths, and random splits (and greedy
    ones) are all weakly dominated by some row."""
    from quartet_solver.quintet.solver import _game

    deal = Deal.random(seed=seed)
    game = _game(deal, "seed")
    front = game.front.astype(np.int64)
    for row in range(len(front)):
        hands = game.core.witness(row)
        assert sum(hands) == deal.mask and all(int(h).bit_count() == 5 for h in hands)
        assert np.bitwise_or.reduce(np.array(hands, dtype=np.uint32)) == deal.mask
        assert sorted(quintet.evaluate_masks(hands).tolist(), reverse=True) == front[row].tolist()
    rng = np.random.default_rng(seed)
    cards = np.array(cards_of(deal))
    splits = np.array([rng.permutation(cards) for _ in range(20_000)]).reshape(-1, 5, 5)
    masks = np.bitwise_or.reduce(np.left_shift(1, splits).astype(np.uint32), axis=2)
    vectors = -np.sort(-quintet.evaluate_masks(masks), axis=1)
    dominated = (front[None, :, :] >= vectors[:, None, :]).all(axis=2).any(axis=1)
    assert dominated.all()
    # greedy splits (repeatedly one of the strongest hands left) are dominated too
    for _ in range(60):
        left, strengths = deal.mask, []
        while left:
            hand_masks, hand_strengths = quintet.hands_of(left)
            top = np.argsort(-hand_strengths, kind="stable")[: int(rng.integers(1, 4))]
            pick = int(rng.choice(top))
            strengths.append(int(hand_strengths[pick]))
            left &= ~int(hand_masks[pick])
        vector = sorted(strengths, reverse=True)
        assert (front >= np.array(vector)).all(axis=1).any(), vector
    # no row dominates another
    geq = (front[:, None, :] >= front[None, :, :]).all(axis=2)
    assert geq.sum() == len(front)


def test_solve_refuses_a_progress_that_is_not_callable():
    # raised a bare TypeError ('int' object is not callable) after the frontier was built
    with pytest.raises(InvalidStateError, match="progress must be a callable or None, got 5"):
        solve(Deal.random(seed=1, k=2), progress=5)  # type: ignore[arg-type]


def test_best_response_probabilities_must_be_numbers():
    deal = Deal.parse("Ah Kh Qh Jh Th 9c 9d 9h 9s 8c")
    a = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
    b = Arrangement.parse("9c 9d 9h 9s 8c / Ah Kh Qh Jh Th")
    # "1" and True were taken as probability 1; 10**400 raised a bare OverflowError
    for bad in ("1", True, 10**400):
        with pytest.raises(InvalidStateError, match="list of \\(arrangement, probability\\)"):
            best_response(deal, [(a, bad)], points=(3, 4))
    assert best_response(deal, [(a, np.float32(0.5)), (b, np.float64(0.5))], points=(3, 4))[1] == 3.75

