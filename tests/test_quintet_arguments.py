"""Bad arguments of the Quintet API raise ArgumentError naming them; odd but valid
ones (a generator of points, a deal as text) work."""

from __future__ import annotations

import pytest

from quartet_solver import quintet
from quartet_solver.cards import piquet_card
from quartet_solver.errors import ArgumentError, InvalidStateError
from quartet_solver.quintet.adaptive import RevealPolicy
from quartet_solver.quintet.deal import check_points
from quartet_solver.quintet.studies import greedy_split


def test_bad_arguments_are_argument_errors():
    deal = quintet.Deal.random(seed=1, k=2)
    for call, name in [(lambda: quintet.solve(deal, tol=0), "tol"),
                       (lambda: quintet.solve(deal, max_iterations=0), "max_iterations"),
                       (lambda: quintet.solve(deal, variant="adaptive"), "variant"),
                       (lambda: quintet.solve(deal, variant="reveal", progress=print), "progress"),
                       (lambda: quintet.evaluate("Ah Kh Qh Jh Th", kickers="fast"), "kickers"),
                       (lambda: quintet.Deal.random(seed=1, k=9), "k must"),
                       (lambda: quintet.solve_many(-1), "number of deals"),
                       (lambda: quintet.score("Ah Kh Qh Jh Th", "Ah Kh Qh Jh Th", points="345"), "points"),
                       (lambda: check_points({10, 3}, 2), "points"),   # a set has no order
                       (lambda: piquet_card(32), "piquet bit")]:
        with pytest.raises(ArgumentError, match=name):
            call()
    with pytest.raises(InvalidStateError, match="list of card masks"):
        RevealPolicy(None)  # type: ignore[arg-type]
    with pytest.warns(DeprecationWarning, match="by keyword"):
        assert quintet.evaluate_mask(31, "full") == quintet.evaluate_mask(31, kickers="full")  # type: ignore[misc]


def test_points_as_a_generator_and_a_deal_as_text():
    gen = quintet.solve_many(1, seed=1, points=(x for x in (3, 4, 5, 6, 7)), processes=1)
    tup = quintet.solve_many(1, seed=1, points=(3, 4, 5, 6, 7), processes=1)
    assert gen.value.tolist() == tup.value.tolist()
    text = "Ah Kh Qh Jh Th 9c 9d 9h 9s 8c"
    assert greedy_split(text) == greedy_split(quintet.Deal.parse(text))

