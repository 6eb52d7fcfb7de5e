"""The bit kernels of the compiled extension quartet_solver._core."""

from __future__ import annotations

import importlib

from hypothesis import given
from hypothesis import strategies as st

U64 = st.integers(min_value=0, max_value=2**64 - 1)


def _core():
    return importlib.import_module("quartet_solver._core")


def _indices_by_loop(x: int) -> tuple[int, ...]:
    out = []
    i = 0
    while x:
        if x & 1:
            out.append(i)
        x >>= 1
        i += 1
    return tuple(out)


def test_module_imports_as_quartet_solver_core():
    core = _core()
    assert core.__name__ == "quartet_solver._core"
    import quartet_solver

    assert quartet_solver._core is core
    assert callable(core.popcount) and callable(core.bit_indices)


def test_edges():
    core = _core()
    assert core.popcount(0) == 0
    assert core.bit_indices(0) == ()
    assert core.popcount(1) == 1
    assert core.bit_indices(1) == (0,)
    assert core.popcount(2**63) == 1
    assert core.bit_indices(2**63) == (63,)
    assert core.popcount(2**64 - 1) == 64
    assert core.bit_indices(2**64 - 1) == tuple(range(64))
    assert core.bit_indices(0b1010) == (1, 3)
    assert core.popcount(0b1011) == 3
    assert core.bit_indices((1 << 52) - 1) == tuple(range(52))


@given(U64)
def test_popcount_matches_int_bit_count(x):
    assert _core().popcount(x) == x.bit_count() == bin(x).count("1")


@given(U64)
def test_bit_indices_matches_plain_loop(x):
    got = _core().bit_indices(x)
    assert isinstance(got, tuple)
    assert got == _indices_by_loop(x)
    assert all(type(i) is int for i in got)
    assert sum(1 << i for i in got) == x
    assert len(got) == x.bit_count()


@given(st.lists(st.integers(min_value=0, max_value=63), unique=True))
def test_bit_indices_of_built_mask_are_sorted_positions(positions):
    mask = 0
    for p in positions:
        mask |= 1 << p
    assert _core().bit_indices(mask) == tuple(sorted(positions))
    assert _core().popcount(mask) == len(positions)
