"""The exception hierarchy of quartet_solver.errors (its module docstring)."""

from __future__ import annotations

import pytest

import quartet_solver
from quartet_solver import errors

# (name, direct bases in declaration order) exactly as the errors module declares them
EXPECTED = {
    "QuartetError": ("Exception",),
    "NotationError": ("QuartetError", "ValueError"),
    "IllegalActionError": ("QuartetError", "ValueError"),
    "InvalidStateError": ("QuartetError", "ValueError"),
    "ArgumentError": ("InvalidStateError",),
    "SolverError": ("QuartetError", "RuntimeError"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_direct_bases_match_design(name):
    cls = getattr(errors, name)
    assert tuple(base.__name__ for base in cls.__bases__) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_same_object_from_package_and_module(name):
    assert getattr(quartet_solver, name) is getattr(errors, name)
    assert name in errors.__all__
    assert name in quartet_solver.__all__


def test_hierarchy_relations():
    base = errors.QuartetError
    assert issubclass(base, Exception)
    assert not issubclass(base, (ValueError, RuntimeError))
    for name in ("NotationError", "IllegalActionError", "InvalidStateError"):
        cls = getattr(errors, name)
        assert issubclass(cls, base)
        assert issubclass(cls, ValueError)
        assert not issubclass(cls, RuntimeError)
    assert issubclass(errors.SolverError, base)
    assert issubclass(errors.SolverError, RuntimeError)
    assert not issubclass(errors.SolverError, ValueError)
    # the four concrete errors are distinct, unrelated siblings
    leaves = [errors.NotationError, errors.IllegalActionError, errors.InvalidStateError, errors.SolverError]
    for a in leaves:
        for b in leaves:
            if a is not b:
                assert not issubclass(a, b)


@pytest.mark.parametrize(
    "name, builtin",
    [
        ("NotationError", ValueError),
        ("IllegalActionError", ValueError),
        ("InvalidStateError", ValueError),
        ("SolverError", RuntimeError),
    ],
)
def test_raised_errors_are_caught_by_base_and_builtin(name, builtin):
    cls = getattr(errors, name)
    with pytest.raises(errors.QuartetError, match="boom 'x'"):
        raise cls("boom 'x'")
    with pytest.raises(builtin):
        raise cls("boom")
    exc = cls("message text")
    assert str(exc) == "message text"
    assert exc.args == ("message text",)


def test_library_raises_its_own_errors():
    # a real raise site of the library produces the documented type
    with pytest.raises(errors.NotationError) as info:
        quartet_solver.Card.parse("Xh")
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, quartet_solver.QuartetError)
    with pytest.raises(errors.InvalidStateError):
        quartet_solver.CardSet("Ah").without_card("Kd")


def _raised(call) -> type[BaseException]:
    try:
        call()
    except errors.QuartetError as exc:
        return type(exc)
    raise AssertionError("no error raised")


def test_bad_arguments_and_impossible_states_raise_different_errors():
    from quartet_solver import klaverjas as kj
    from quartet_solver import quintet

    hand = "Jh 9h Ah Th 7c 8d As Ks"
    bad_arguments = [
        lambda: kj.Deal.random(seed=-1),
        lambda: kj.analyse_bid(hand, samples=0),
        lambda: kj.analyse_bid(hand, samples=4, processes=0),
        lambda: kj.solve(kj.PlayState(kj.Deal.random(seed=1), trump="h", declarer="N", leader="E"), node_limit=0),
        lambda: kj.Rules.named("utrecht"),
        lambda: kj.make_bot("grandmaster"),
        lambda: kj.SamplingBot(samples=0),
        lambda: kj.SamplingBot(time_budget=float("nan")),
        lambda: kj.dd_tables(-3, "N", processes=1),
        lambda: quartet_solver.CardSet.from_mask(-1),
    ]
    for call in bad_arguments:
        assert _raised(call) is errors.ArgumentError
    impossible_states = [
        lambda: kj.analyse_bid("Jh 9h Ah", samples=4),                     # three cards
        lambda: kj.Deal.parse("N:AKQJT987.... ... ... ..."),               # wrong card counts
        lambda: quintet.Deal.parse("Ah Kh"),                               # not 5k cards
        lambda: quartet_solver.CardSet("Ah").without_card("Kh"),                 # a card not in the set
    ]
    for call in impossible_states:
        kind = _raised(call)
        assert kind is not errors.ArgumentError and issubclass(kind, (errors.InvalidStateError,
                                                                      errors.NotationError))
