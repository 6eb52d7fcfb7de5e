"""The compiled Kwartet novice-game simulator (``_core.kw_play_novice``):
its invariants, and game by game the same games as the rules engine plays
with the same random draws (``tests/reference/kwartet_novice.py``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quartet_solver import _core
from reference.kwartet_novice import novice_game


def test_fast_kernel_invariants():
    q, last, asks = _core.kw_play_novice(8, 4, 0, 0, 5000, 3, 100000)
    assert (q.sum(axis=1) == 8).all()
    assert (asks > 0).all()
    q, last, asks = _core.kw_play_novice(8, 3, 0, 1, 3000, 4, 100000)
    assert (q.sum(axis=1) <= 8).all() and (q.sum(axis=1) >= 6).all()  # 2 cards aside block <= 2 quartets
    q, last, asks = _core.kw_play_novice(8, 3, 1, 0, 3000, 4, 100000)
    assert (q.sum(axis=1) == 8).all()
    # lay order: distinct per game among players with quartets
    assert all(len(set(r[r >= 0])) == (r >= 0).sum() for r in last[:200])


@settings(max_examples=80)
@given(n_quartets=st.integers(2, 13), players=st.integers(3, 6), to_dealer=st.booleans(),
       bonus=st.booleans(), seed=st.integers(0, 2**64 - 1),
       max_asks=st.one_of(st.integers(0, 80), st.just(10**6)))
def test_fast_kernel_replays_on_engine(n_quartets, players, to_dealer, bonus, seed, max_asks):
    """Game by game, the compiled novice games equal the same games played on the
    rules engine with the same random draws (tests/reference/kwartet_novice.py):
    quartets, the order of the last lays and the number of asks, also for
    games stopped at max_asks."""
    games = 3
    q, last, asks = _core.kw_play_novice(n_quartets, players, int(to_dealer), int(bonus), games, seed,
                                         max_asks)
    for g in range(games):
        want = novice_game(n_quartets, players, to_dealer, bonus, seed, g, max_asks)
        assert (q[g].tolist(), last[g].tolist(), int(asks[g])) == want
