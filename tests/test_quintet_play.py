"""Quintet deals, arrangements, scoring and the reveal-order variant."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from quartet_solver import quintet
from quartet_solver.errors import InvalidStateError, NotationError
from quartet_solver.quintet import Arrangement, Deal
from quartet_solver.quintet.matrix_game import solve_matrix_game
from quartet_solver.quintet.reveal import solve_reveal


def random_arrangement(deal: Deal, rng: random.Random) -> Arrangement:
    cards = deal.card_list()
    rng.shuffle(cards)
    return Arrangement.from_groups([cards[5 * i : 5 * i + 5] for i in range(deal.k)], deal)


def test_deal_constructors():
    d = Deal.from_removed("7c 7d 8h 9s Tc Jd Qh")
    assert d.k == 5 and len(d.cards) == 25
    assert str(d.removed) == "7c 7d 8h 9s Tc Jd Qh"
    assert Deal.parse(str(d)) == d
    assert eval(repr(d), {"Deal": Deal}) == d
    assert Deal.random(seed=5) == Deal.random(seed=5)
    assert len({Deal.random(seed=s) for s in range(20)}) == 20
    assert Deal.random(seed=1, k=2).k == 2 and len(Deal.random(seed=1, k=3).cards) == 15
    assert Deal.from_removed(Deal.random(seed=1, k=3).removed, k=3) == Deal.random(seed=1, k=3)
    masks, strengths = d.hands()
    assert len(masks) == 53130 and len(strengths) == 53130


@pytest.mark.parametrize(
    "call, error, fragment",
    [
        (lambda: Deal.parse("Ah Kh Qh Jh"), InvalidStateError, "5k cards"),
        (lambda: Deal.parse("Ah Kh Qh Jh Th ah"), NotationError, "duplicate card 'Ah'"),
        (lambda: Deal.parse("Ah Kh Qh Jh 2h"), InvalidStateError, "'2h'"),
        (lambda: Deal.from_removed("7c 7d"), InvalidStateError, "removes 7 cards, got 2"),
        (lambda: Deal.random(k=7), InvalidStateError, "k must be"),
        (lambda: Deal.parse(""), InvalidStateError, "got 0"),
    ],
)
def test_deal_errors(call, error, fragment):
    with pytest.raises(error) as info:
        call()
    assert fragment in str(info.value)


def test_arrangement_parse_format_and_check():
    deal = Deal.random(seed=2)
    arr = random_arrangement(deal, random.Random(0))
    assert Arrangement.parse(str(arr), deal) == arr
    assert eval(repr(arr), {"Arrangement": Arrangement}) == arr
    assert arr.mask == deal.mask and arr.k == 5
    other = Deal.random(seed=3)
    with pytest.raises(InvalidStateError, match="not in the deal"):
        arr.check(other)
    with pytest.raises(InvalidStateError, match="has 4 cards, not 5"):
        Arrangement.parse("Ah Kh Qh Jh / Th 9h 8h 7h 7c 7d")
    with pytest.raises(InvalidStateError, match="appears in two groups"):
        Arrangement.parse("Ah Kh Qh Jh Th / Ah 9h 8h 7h 7c")
    with pytest.raises(NotationError, match="empty group"):
        Arrangement.parse("Ah Kh Qh Jh Th / ")
    with pytest.raises(InvalidStateError, match="groups, the deal needs"):
        Arrangement.parse("Ah Kh Qh Jh Th", deal)
    groups = str(arr).split(" / ")
    with pytest.raises(InvalidStateError):
        Arrangement.parse(" / ".join(groups[:4] + [groups[4].replace(groups[4].split()[0], "7c")]), deal)


@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3, 5]))
def test_score_is_constant_sum_and_matches_pairwise_comparison(seed, k):
    rng = random.Random(seed)
    deal = Deal.random(seed=seed, k=k)
    a, b = random_arrangement(deal, rng), random_arrangement(deal, rng)
    points = tuple(range(3, 3 + k))
    x, y = quintet.score(a, b, points=points)
    assert x + y == pytest.approx(sum(points))
    expected = 0.0
    for p, ga, gb in zip(points, a.groups, b.groups):
        c = quintet.compare(ga, gb)
        expected += p if c > 0 else p / 2 if c == 0 else 0
    assert x == pytest.approx(expected)
    assert quintet.score(b, a, points=points) == (y, x)
    assert quintet.score(a, a, points=points) == (sum(points) / 2, sum(points) / 2)


def test_score_errors():
    a = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
    with pytest.raises(InvalidStateError, match="entries"):
        quintet.score(a, a, points=(3, 4, 5))
    with pytest.raises(InvalidStateError, match="same cards"):
        quintet.score(a, Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 7c"), points=(3, 4))


def test_matrix_game_against_closed_form_2x2():
    rng = np.random.default_rng(3)
    for _ in range(50):
        m = rng.integers(-5, 6, size=(2, 2)).astype(float)
        x, v = solve_matrix_game(m)
        (a, b), (c, d) = m
        lower = max(min(a, b), min(c, d))
        upper = min(max(a, c), max(b, d))
        if lower == upper:  # saddle point
            expected = lower
        else:
            expected = (a * d - b * c) / (a + d - b - c)
        assert v == pytest.approx(expected, abs=1e-9)
        assert min(np.array(x) @ m) == pytest.approx(expected, abs=1e-9)


def _reveal_normal_form_k3(win, pts):
    """Independent check: the k=3 reveal game in normal form (policies) solved as one LP."""
    k = 3
    # a policy: first group, then for each opponent first reveal, the second group (third forced)
    policies = []
    for first in range(k):
        rest = [g for g in range(k) if g != first]
        for seconds in itertools.product(rest, repeat=k):
            policies.append((first, seconds))

    def play(pa, pb):
        fa, fb = pa[0], pb[0]
        sa, sb = pa[1][fb], pb[1][fa]
        ta = ({0, 1, 2} - {fa, sa}).pop()
        tb = ({0, 1, 2} - {fb, sb}).pop()
        return pts[0] * win[fa, fb] + pts[1] * win[sa, sb] + pts[2] * win[ta, tb]

    m = np.array([[play(pa, pb) for pb in policies] for pa in policies])
    return solve_matrix_game(m)[1]


@pytest.mark.parametrize("seed", range(6))
def test_reveal_k3_matches_normal_form(seed):
    rng = random.Random(seed)
    deal = Deal.random(seed=seed, k=3)
    a, b = random_arrangement(deal, rng), random_arrangement(deal, rng)
    pts = (3, 4, 5)
    r = solve_reveal(a, b, points=pts)
    sa, sb = a.strengths(), b.strengths()
    win = np.array([[1.0 if x > y else 0.5 if x == y else 0.0 for y in sb] for x in sa])
    assert r.value == pytest.approx(_reveal_normal_form_k3(win, pts), abs=1e-7)
    orders = list(itertools.permutations(range(3)))
    fixed = np.array([[sum(pts[s] * win[pa[s], pb[s]] for s in range(3)) for pb in orders] for pa in orders])
    assert r.fixed_order_value == pytest.approx(solve_matrix_game(fixed)[1], abs=1e-7)
    assert sum(r.first_round[0].values()) == pytest.approx(1.0)


def test_reveal_symmetric_is_half():
    deal = Deal.random(seed=4)
    a = random_arrangement(deal, random.Random(1))
    r = solve_reveal(a, a)
    assert r.value == pytest.approx(12.5) and r.fixed_order_value == pytest.approx(12.5)
    assert set(r.to_dict()) >= {"value", "fixed_order_value", "gain"}


@given(st.text(alphabet=st.sampled_from(list("789TJQKA10cdhsCDHS♣♦♥♠ /,x")), max_size=80))
def test_arrangement_and_deal_parsers_never_crash(text):
    from quartet_solver.errors import QuartetError

    for parse in (Arrangement.parse, Deal.parse):
        try:
            parse(text)
        except QuartetError:
            pass


@given(st.text(max_size=40))
def test_arrangement_parser_on_arbitrary_text(text):
    from quartet_solver.errors import QuartetError

    try:
        Arrangement.parse(text)
    except QuartetError:
        pass
