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
        quartet_solver.CardSet("Ah").remove("Kd")
