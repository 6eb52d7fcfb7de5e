"""The reveal-order variant: adaptive best responses and equilibria against an exhaustive reference.

tests/reference/quintet_reveal.py enumerates every split and plays the game tree out; with
2 groups it is instant, with 3 groups it takes minutes (behind ``slow``).  The fast 3-group
checks compare the package's two independent exact routes (the frontier programme and the
first-group enumeration) and check every reported value by playing the policy out with the
reference.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import quintet_bruteforce as bf
from reference import quintet_reveal as rr
from quartet_solver import quintet
from quartet_solver.errors import InvalidStateError, SolverError
from quartet_solver.quintet import Arrangement, Deal, RevealPolicy
from quartet_solver.quintet import adaptive as ad


def group(m: int) -> tuple[int, ...]:
    return tuple(bf.bits(m))


def ref_policy(pol: RevealPolicy) -> rr.Policy:
    return tuple(group(m) for m in pol.groups), {tuple(group(m) for m in p): group(g) for p, g in pol.rule}


def ref_opponent(pairs):
    return [(ref_policy(ad.as_policy(p)), q) for p, q in pairs]


def random_split(deal: Deal, rng: random.Random) -> tuple[int, ...]:
    cards = bf.bits(deal.mask)
    rng.shuffle(cards)
    return tuple(sum(1 << c for c in cards[5 * i: 5 * i + 5]) for i in range(deal.k))


def random_policy(deal: Deal, rng: random.Random, adaptive: bool) -> RevealPolicy:
    """A split with, if ``adaptive``, a random round-1 reaction to a few first groups."""
    groups = random_split(deal, rng)
    rule = {}
    if adaptive and deal.k >= 3:
        for _ in range(rng.randint(1, 3)):
            seen = random_split(deal, rng)[0]
            first = groups[0]
            rule[(seen,)] = rng.choice([g for g in groups if g != first])
    return RevealPolicy(groups, tuple(rule.items()))


def random_mix(deal, rng, n, adaptive=False):
    raw = [rng.random() + 0.05 for _ in range(n)]
    return [(random_policy(deal, rng, adaptive), r / sum(raw)) for r in raw]


def check_response(deal, opponent, points, reference=True):
    res = quintet.best_response(deal, opponent, points=points, variant="reveal")
    res.policy.check(deal)
    ref_opp = ref_opponent(opponent)
    # the reported value is what the policy scores when played out by the reference
    assert rr.expected(ref_policy(res.policy), ref_opp, points) == pytest.approx(res.value, abs=1e-9)
    assert res.value >= res.fixed_value - 1e-9
    if reference:
        expected = rr.best_response_value(bf.bits(deal.mask), ref_opp, points)
        assert res.value == pytest.approx(expected, abs=1e-9)
    return res


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4))
def test_adaptive_best_response_k2_is_exact(seed, n):
    rng = random.Random(seed)
    deal = Deal.random(seed=seed, k=2)
    res = check_response(deal, random_mix(deal, rng, n), (3, 4))
    # two groups: nothing to adapt to (the last round is forced)
    assert res.gain == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.booleans())
def test_policy_play_matches_reference(seed, n, adaptive):
    rng = random.Random(seed)
    k = rng.choice([2, 3, 4, 5])
    deal = Deal.random(seed=seed, k=k)
    pts = tuple(range(3, 3 + k))
    a, b = random_policy(deal, rng, adaptive), random_policy(deal, rng, adaptive)
    assert quintet.reveal_payoff(a, b, points=pts) == rr.play(ref_policy(a), ref_policy(b), pts)
    assert quintet.reveal_payoff(a, b, points=pts) + quintet.reveal_payoff(b, a, points=pts) == sum(pts)
    # a policy that never adapts plays exactly as its arrangement in the fixed game
    fa, fb = RevealPolicy.fixed(a.arrangement), RevealPolicy.fixed(b.arrangement)
    assert quintet.reveal_payoff(fa, fb, points=pts) == quintet.score(a.arrangement, b.arrangement, points=pts)[0]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 5))
def test_k3_two_exact_routes_agree(seed, n):
    """Fixed-order opponents: the frontier programme and the first-group enumeration."""
    rng = random.Random(seed)
    deal = Deal.random(seed=seed, k=3)
    pts = np.array([3.0, 4.0, 5.0])
    pairs = [(RevealPolicy.fixed(p.arrangement), q) for p, q in random_mix(deal, rng, n)]
    strength = ad._Strengths("seed")
    v1, f1, p1 = ad._respond_to_fixed(deal, pairs, pts, "seed", strength)
    v2, f2, p2, _ = ad._respond_k3(deal, pairs, pts, "seed", strength)
    assert v1 == pytest.approx(v2, abs=1e-9) and f1 == pytest.approx(f2, abs=1e-9)
    ref_opp = ref_opponent(pairs)
    for v, p in ((v1, p1), (v2, p2)):
        assert rr.expected(ref_policy(p), ref_opp, (3, 4, 5)) == pytest.approx(v, abs=1e-9)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4))
def test_k3_adaptive_opponent_response_is_attained_and_beats_samples(seed, n):
    rng = random.Random(seed)
    deal = Deal.random(seed=seed, k=3)
    opponent = random_mix(deal, rng, n, adaptive=True)
    res = check_response(deal, opponent, (3, 4, 5), reference=False)
    ref_opp = ref_opponent(opponent)
    for _ in range(20):  # no sampled policy does better
        assert rr.expected(ref_policy(random_policy(deal, rng, True)), ref_opp, (3, 4, 5)) <= res.value + 1e-9


@pytest.mark.parametrize("seed", [0, 7])
def test_frontier_kernel_matches_python_programme(seed):
    """The compiled programme against the package's plain Python one, row by row (k = 4, 5)."""
    rng = random.Random(seed)
    for k in (4, 5):
        deal = Deal.random(seed=seed, k=k)
        pts = np.arange(3.0, 3.0 + k)
        pairs = [(RevealPolicy.fixed(p.arrangement), q) for p, q in random_mix(deal, rng, 4)]
        strength = ad._Strengths("seed")
        trie = ad._Trie([(p.groups, q) for p, q in pairs], strength, k)
        from quartet_solver.quintet.solver import _game

        game = _game(deal, "seed")
        values = quintet.adaptive._core.quintet_reveal_values(
            game.front, trie.depth, trie.child_start, trie.child_count, trie.mass, trie.strength, pts)
        for row in range(len(game.front)):
            witness = [int(m) for m in game.core.witness(row)]
            py, _ = ad._fixed_dp(witness, strength, trie, list(pts))
            # a witness's hands are never weaker than its row (an accidental flush)
            assert py >= values[row] - 1e-9
            if [strength(m) for m in witness] == sorted(game.front[row].tolist(), reverse=True):
                assert py == pytest.approx(values[row], abs=1e-9)


def test_gain_against_the_fixed_order_equilibrium_k5():
    deal = Deal.random(seed=1)
    sol = quintet.solve(deal)
    res = quintet.best_response(deal, sol, variant="reveal")
    assert res.fixed_value == pytest.approx(sol.value, abs=1e-9)
    ref_opp = ref_opponent(sol.strategy)
    assert rr.expected(ref_policy(res.policy), ref_opp, (3, 4, 5, 6, 7)) == pytest.approx(res.value, abs=1e-9)
    assert res.value >= sol.value - 1e-9
    d = res.to_dict()
    assert d["value"] == res.value and d["policy"]["first"] and "adapting gains" in res.pretty()


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6))
def test_equilibrium_k2_certified_by_reference(seed):
    deal = Deal.random(seed=seed, k=2)
    eq = quintet.solve(deal, variant="reveal")
    assert eq.certified and eq.value == 3.5
    ref_opp = [(ref_policy(p), q) for p, q in eq.strategy]
    assert rr.best_response_value(bf.bits(deal.mask), ref_opp, (3, 4)) <= 3.5 + 1e-9


def test_equilibrium_k3_certified():
    deal = Deal.random(seed=2, k=3)
    eq = quintet.solve(deal, variant="reveal")
    assert eq.certified and eq.value == 6.0 and eq.method == "double oracle, adaptive policies"
    assert abs(sum(p for _, p in eq.strategy) - 1) < 1e-9
    # the strategy adapts: against the fixed-order equilibrium adapting gains
    assert eq.fixed_order_gain > 0.1 and any(not p.is_fixed for p, _ in eq.strategy)
    # every policy of the support, played out by the reference, scores value against the strategy
    ref_opp = [(ref_policy(p), q) for p, q in eq.strategy]
    for pol, _ in eq.strategy:
        assert rr.expected(ref_policy(pol), ref_opp, (3, 4, 5)) == pytest.approx(6.0, abs=1e-7)
    res = quintet.best_response(deal, eq, variant="reveal")
    assert res.value <= 6.0 + 1e-9
    d = eq.to_dict()
    assert d["certified"] and d["support_size"] == eq.support_size and "certified" in eq.pretty()


def test_k5_bound_is_exact_exploitability_of_fixed_mixture():
    deal = Deal.random(seed=3)
    eq = quintet.solve(deal, variant="reveal", max_iterations=3)
    assert all(p.is_fixed for p, _ in eq.strategy)
    res = quintet.best_response(deal, eq, variant="reveal")
    assert eq.exploitability == pytest.approx(res.value - eq.value, abs=1e-9)
    assert eq.exploitability <= eq.fixed_order_gain + 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("seed,adaptive", [(0, False), (1, True), (4, True)])
def test_adaptive_best_response_k3_against_reference(seed, adaptive):
    rng = random.Random(seed)
    deal = Deal.random(seed=40 + seed, k=3)
    check_response(deal, random_mix(deal, rng, 3, adaptive=adaptive), (3, 4, 5))


@pytest.mark.slow
def test_equilibrium_k3_certified_by_reference():
    deal = Deal.random(seed=2, k=3)
    eq = quintet.solve(deal, variant="reveal")
    ref_opp = [(ref_policy(p), q) for p, q in eq.strategy]
    assert rr.best_response_value(bf.bits(deal.mask), ref_opp, (3, 4, 5)) <= 6.0 + 1e-9


def test_reveal_input_errors():
    deal = Deal.random(seed=1, k=3)
    other = Deal.random(seed=2, k=3)
    with pytest.raises(InvalidStateError, match="variant must be 'fixed' or 'reveal', got 'adaptive'"):
        quintet.solve(deal, variant="adaptive")
    with pytest.raises(InvalidStateError, match="variant must be"):
        quintet.best_response(deal, "x", variant="Reveal")
    foreign = RevealPolicy(random_split(other, random.Random(1)))
    with pytest.raises(InvalidStateError, match="not in the deal"):
        quintet.best_response(deal, foreign, variant="reveal")
    with pytest.raises(InvalidStateError, match="sum to 1"):
        quintet.best_response(deal, [(RevealPolicy(random_split(deal, random.Random(1))), 0.5)], variant="reveal")
    with pytest.raises(InvalidStateError, match="progress"):
        quintet.solve(deal, variant="reveal", progress=print)
    with pytest.raises(InvalidStateError, match="tol must be"):
        quintet.solve(deal, variant="reveal", tol=0)
    groups = random_split(deal, random.Random(3))
    stranger = random_split(other, random.Random(3))[0]
    with pytest.raises(InvalidStateError, match="not one of the split's groups"):
        RevealPolicy(groups, (((groups[0],), stranger),))
    with pytest.raises(InvalidStateError, match="already revealed"):
        RevealPolicy(groups, (((stranger,), groups[0]),))
    with pytest.raises(InvalidStateError, match="has 3 groups"):
        RevealPolicy(groups, (((groups[0], groups[1], groups[2]), groups[0]),))
    deal4 = Deal.random(seed=1, k=4)
    g4 = random_split(deal4, random.Random(1))
    adaptive4 = RevealPolicy(g4, (((g4[1],), g4[2]),))
    with pytest.raises(SolverError, match="up to 3 groups"):
        quintet.best_response(deal4, adaptive4, variant="reveal")


def test_policy_text_round_trip():
    p = RevealPolicy.from_rule("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c / Ac Ad As Kc Kd",
                               {("9c 9d 9h 9s 7c",): "Ac Ad As Kc Kd"})
    assert p.choose("9c 9d 9h 9s 7c") == Arrangement.parse("Ac Ad As Kc Kd").masks[0]
    assert RevealPolicy.from_rule(p.arrangement, {tuple(k): g for k, g in p.rule}) == p
    # entries that repeat the default order are dropped
    assert RevealPolicy.from_rule(p.arrangement, {("9c 9d 9h 9s 7c",): "9c 9d 9h 9s 8c"}).is_fixed
    d = p.to_dict()
    assert d["first"] == "Ah Kh Qh Jh Th" and d["rule"][0]["reveal"] == "As Ad Ac Kd Kc"
