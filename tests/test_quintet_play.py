"""Quintet deals, arrangements, scoring and the reveal-order variant."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from quartet_solver import quintet
from quartet_solver.errors import InvalidStateError, NotationError, SolverError
from quartet_solver.quintet import Arrangement, Deal
from quartet_solver.quintet.matrix_game import IncrementalMatrixGame, solve_matrix_game
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


def test_deal_accepts_numpy_integers():
    # a numpy integer mask, k or seed was refused ("must be an int") or, for the seed,
    # raised random's bare TypeError
    deal = Deal.random(seed=1, k=2)
    for mask in (np.uint32(deal.mask), np.int64(deal.mask)):
        same = Deal(mask)
        assert same == deal and hash(same) == hash(deal) and type(same.mask) is int
    assert Deal.random(seed=np.int64(1), k=np.int8(2)) == deal
    removed = "7c 7d 8h 9s Tc Jd Qh"
    assert Deal.from_removed(removed, k=np.int64(5)) == Deal.from_removed(removed)
    with pytest.raises(InvalidStateError, match="deal mask must be an int, got np.True_"):
        Deal(np.bool_(True))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [float("nan"), 1.5, True, [1], (1, 2), b"x"])
def test_deal_random_refuses_seeds_that_are_not_int_or_text(seed):
    # a NaN seed gave a different deal in every process (random hashes a float NaN by
    # its id); a list or tuple raised random's bare TypeError
    with pytest.raises(InvalidStateError, match="seed must be an int >= 0, a string or None, got "):
        Deal.random(seed=seed, k=2)  # type: ignore[arg-type]


def test_default_points_checks_k():
    # default_points(-1) was () and default_points(1.5) a bare TypeError
    from quartet_solver.quintet.deal import default_points

    assert default_points(np.int8(3)) == (3, 4, 5)  # type: ignore[arg-type]
    for bad in (-1, 0, 7, 1.5, True, None):
        with pytest.raises(InvalidStateError, match=f"k must be in 1..6, got {bad!r}"):
            default_points(bad)  # type: ignore[arg-type]


def test_points_must_be_numbers_with_a_finite_sum():
    a = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
    b = Arrangement.parse("9c 9d 9h 9s 8c / Ah Kh Qh Jh Th")
    # text was read character by character ("34" as (3, 4)), bytes as their byte
    # values, a dict as its keys, bools as 0 and 1, an int beyond the floats raised a
    # bare OverflowError, and (1e308, 1e308) ended in a SolverError from the LP
    for bad in ("34", b"\x03\x04", {3: 1, 4: 1}, (True, True), ("3", "4"), (10**400, 1)):
        with pytest.raises(InvalidStateError, match="points must be a sequence of numbers"):
            quintet.score(a, b, points=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="points must have a finite sum"):
        quintet.score(a, b, points=(1e308, 1e308))
    with pytest.raises(InvalidStateError, match="points must have a finite sum"):
        solve_reveal(a, b, points=(1e308, 1e308))
    assert quintet.score(a, b, points=np.array([3, 4], dtype=np.int8)) == (3.0, 4.0)


@pytest.mark.parametrize(
    "masks, fragment",
    [
        ((0b11111 + 0.5, 0b11111 << 5), "group 1 of an arrangement must be an int mask, got 31.5"),
        ((float("nan"), 0b11111), "group 1 of an arrangement must be an int mask, got nan"),
        ((0b11111, float("inf")), "group 2 of an arrangement must be an int mask, got inf"),
        ((True, 0b11111), "group 1 of an arrangement must be an int mask, got True"),
        (None, "must be a sequence of 32-bit int masks, got None"),
        (31, "must be a sequence of 32-bit int masks, got 31"),
        ("31", "must be a sequence of 32-bit int masks, got '31'"),
    ],
)
def test_arrangement_masks_must_be_ints(masks, fragment):
    # a float mask was truncated silently (31.5 played as 31), NaN and inf raised a bare
    # ValueError/OverflowError, None or an int a bare TypeError
    with pytest.raises(InvalidStateError) as info:
        Arrangement(masks)  # type: ignore[arg-type]
    assert fragment in str(info.value)


def test_arrangement_accepts_numpy_masks():
    arr = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
    for masks in (np.array(arr.masks, dtype=np.uint32), (np.int64(arr.masks[0]), np.uint32(arr.masks[1]))):
        same = Arrangement(masks)  # type: ignore[arg-type]
        assert same == arr and all(type(m) is int for m in same.masks)


def test_arrangement_deal_argument_and_groups_are_checked():
    arr = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
    # a deal given as text (or None to check) raised a bare AttributeError ('str' has no 'k')
    with pytest.raises(InvalidStateError, match="deal must be a Deal, got 'Ah Kh'"):
        Arrangement.parse(str(arr), deal="Ah Kh")  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="deal must be a Deal, got None"):
        arr.check(None)  # type: ignore[arg-type]
    # groups that are not iterable raised a bare TypeError
    with pytest.raises(NotationError, match="groups must be a sequence of card groups, got None"):
        Arrangement.from_groups(None)  # type: ignore[arg-type]


def test_reordered_checks_the_order():
    arr = Arrangement.parse("Ah Kh Qh Jh Th / 9c 9d 9h 9s 8c")
    flipped = Arrangement.parse("9c 9d 9h 9s 8c / Ah Kh Qh Jh Th")
    assert arr.reordered(np.array([1, 0])) == flipped
    # an iterator was consumed by the check and then built an empty arrangement
    # ("needs at least one group")
    assert arr.reordered(iter([1, 0])) == flipped
    # bools were taken as indices; floats, None, an int or mixed types raised bare TypeErrors
    for bad in ((True, False), (1.0, 0.0), [1, "a"], [0, 0]):
        with pytest.raises(InvalidStateError, match="is not a permutation of 0..1"):
            arr.reordered(bad)  # type: ignore[arg-type]
    for bad in (None, 1, "10"):
        with pytest.raises(InvalidStateError, match="order must be a sequence of group indices"):
            arr.reordered(bad)  # type: ignore[arg-type]


def test_matrix_game_input_errors():
    # text, complex entries, ragged rows and ints beyond the floats raised bare
    # ValueError/TypeError/OverflowError from numpy's conversion
    for bad in ([["a"]], [[1j, 1], [1, 1]], [[1], [1, 2]], [[10**400, 1], [1, 1]]):
        with pytest.raises(SolverError, match="payoff matrix must be an array of real numbers"):
            solve_matrix_game(bad)  # type: ignore[arg-type]
    # an offset that is not a finite number: a bare ValueError/TypeError, or NaN accepted
    for bad_offset in ("x", None, float("nan"), float("inf")):
        with pytest.raises(SolverError, match="offset must be a finite number"):
            IncrementalMatrixGame(offset=bad_offset)  # type: ignore[arg-type]
    g = IncrementalMatrixGame(offset=1.0)
    with pytest.raises(SolverError, match="payoffs must be real numbers"):
        g.add(row=["a"], col=["a"])
    # a NaN payoff was reported as "needs 1 consistent payoffs" (nan != nan)
    with pytest.raises(SolverError, match=r"payoffs must be finite, got row \[nan\]"):
        g.add(row=[float("nan")], col=[float("nan")])
    g.add(row=[0.0], col=[0.0])
    assert g.solve() == ([1.0], 0.0)
