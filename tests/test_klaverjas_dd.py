"""The Klaverjas double-dummy solver against a plain minimax, and its consistency.

Endgames (2-4 tricks left, often mid-trick) come from random play of random
deals; a biased player makes one team win tricks so that pit and close scores
(nat) are common.  The reference is tests/reference/klaverjas_minimax.py (no pruning, no TT,
straight on top of PlayState).
"""

from __future__ import annotations

import random
import threading
import time
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from reference.klaverjas_minimax import card_values as ref_card_values
from reference.klaverjas_minimax import minimax
from quartet_solver.cards import Card, Decks, Suit
from quartet_solver.errors import InvalidStateError
from quartet_solver.klaverjas import Deal, PlayState, Rules
from quartet_solver.klaverjas.dd import DEFAULT_TT_BITS, is_made, reaches, solve, solve_deal
from klaverjas_endgames import RULESETS, check, close_endgame, random_endgame


@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_random_endgames_against_minimax(rules):
    rng = random.Random(zlib.crc32(str(rules).encode()) & 0xFFFF)
    for i in range(40):
        tricks_left = 2 if i % 2 else 3
        st = random_endgame(rng, tricks_left, extra=i % 4, rules=rules, bias=(0.0, 0.5, 0.9)[i % 3])
        check(st)


@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_close_endgames_against_minimax(rules):
    rng = random.Random(1000 + (zlib.crc32(str(rules).encode()) & 0xFFFF))
    for i in range(25):
        st = close_endgame(rng, 2 + i % 2, extra=i % 4, rules=rules)
        check(st)


@pytest.mark.parametrize("rules", [Rules.AMSTERDAM, Rules.ROTTERDAM.with_options(stuk="hand")], ids=str)
def test_four_trick_endgames_against_minimax(rules):
    rng = random.Random(77)
    for i in range(6):
        st = random_endgame(rng, 4, extra=(i * 3) % 4 + 1, rules=rules, bias=0.5)
        check(st)


def test_pit_positions_against_minimax():
    """Endgames where one team has won every trick so far (pit still possible)."""
    rng = random.Random(8)
    checked = 0
    while checked < 30:
        rules = RULESETS[checked % len(RULESETS)]
        st = random_endgame(rng, 2 + checked % 2, extra=checked % 4, rules=rules, bias=1.0)
        if len({t.winner % 2 for t in st.tricks}) == 1:
            check(st)
            checked += 1


def test_mid_trick_values_after_deeper_searches():
    """Regression: searching a card's subtree must leave the trick in progress
    intact for the next card (the roem bound reads the trick's cards)."""
    rules = Rules.AMSTERDAM.with_options(pit=0)
    st = PlayState("N:J.JT8.QJT.9 Q.AKQ9.K.J7 K9.7.98.AK8 AT87..A7.QT", trump="h", declarer="W",
                   leader="E", rules=rules).play_all("7c Ac Qc 9c 8d 7d Td Kd Th Ah 7h Ad Kh 9d 7s Jh"
                                                     " 8h 9h 8c Tc Qh")
    check(st)
    check(st.play("9s"))


def test_tiny_transposition_table_is_still_exact():
    """Bounded memory: a 16-entry table (constant replacement) gives the same values."""
    rng = random.Random(12)
    for i in range(12):
        rules = RULESETS[i % len(RULESETS)]
        st = random_endgame(rng, 3, extra=i % 4, rules=rules, bias=0.5)
        assert solve(st, tt_bits=4).card_values == solve(st).card_values == ref_card_values(st)
    deal = Deal.random(seed=4)
    assert solve_deal(deal, "h", "N", "E", tt_bits=10) == solve_deal(deal, "h", "N", "E")


def test_pit_and_nat_values_occur():
    """The random endgames do reach pit and nat outcomes (the tests are not vacuous)."""
    rng = random.Random(5)
    nat = pit = made = 0
    for i in range(60):
        st = random_endgame(rng, 2, extra=0, rules=Rules.AMSTERDAM, bias=0.9 if i % 2 else 0.0)
        res = solve(st)
        end = st.play_all(res.pv).result()
        nat += end.nat
        made += not end.nat
        pit += any(end.pit)
    assert nat and made and pit


def test_solve_deal_matches_solve_and_consistency():
    rng = random.Random(11)
    for i in range(4):
        deal = Deal.random(seed=rng.randrange(1 << 30))
        rules = RULESETS[i % len(RULESETS)]
        st = PlayState(deal, trump="cdhs"[i], declarer=i, leader=(i + 1) % 4, rules=rules)
        res = solve(st)
        assert res.value == solve_deal(deal, "cdhs"[i], declarer=i, leader=(i + 1) % 4, rules=rules)
        maxi = st.to_move_index % 2 == st.playing_team
        assert res.value == (max if maxi else min)(res.card_values.values())
        # playing a best card keeps the value, along the whole principal variation
        line = st
        for card in res.pv[:9]:
            line = line.play(card)
            assert solve(line, pv=False).value == res.value
        assert line.play_all(res.pv[9:]).result().net == res.value


def _relabel(deal: Deal, perm: dict[Suit, Suit]) -> Deal:
    return Deal(tuple(
        [Card(c.rank, perm[c.suit]) for c in hand] for hand in deal.hands))  # type: ignore[arg-type]


def test_values_invariant_under_relabelling_non_trump_suits():
    rng = random.Random(3)
    for i in range(6):
        deal = Deal.random(seed=rng.randrange(1 << 30))
        trump = Suit(i % 4)
        others = [s for s in Suit if s != trump]
        shuffled = others[:]
        rng.shuffle(shuffled)
        perm = {trump: trump, **dict(zip(others, shuffled))}
        rules = RULESETS[i]
        v1 = solve_deal(deal, trump, declarer="N", leader="E", rules=rules)
        v2 = solve_deal(_relabel(deal, perm), trump, declarer="N", leader="E", rules=rules)
        assert v1 == v2


def test_limits_give_bounds():
    st = PlayState(Deal.random(seed=21), trump="d", declarer="E", leader="S")
    exact = solve(st, pv=False)
    res = solve(st, node_limit=500)
    assert not res.exact
    assert res.lower <= exact.value <= res.upper
    assert res.card_values.items() <= exact.card_values.items()
    # the nodes searched before the stop: past the limit, short of the whole solve
    assert 500 < res.nodes < exact.nodes
    some = solve(st, node_limit=exact.nodes // 2)
    assert not some.exact and exact.nodes // 2 < some.nodes < exact.nodes
    assert some.card_values.items() <= exact.card_values.items()
    # with a limit the value comes first: past its cost, a stop keeps it exact
    kept = 0
    limit = 1000
    while limit < 4 * exact.nodes:
        res = solve(st, node_limit=limit)
        assert res.lower <= exact.value <= res.upper
        assert res.card_values.items() <= exact.card_values.items()
        assert set(res.best_cards) <= set(exact.best_cards)
        if res.lower == res.upper:
            assert res.value == exact.value
            kept += not res.exact
        limit *= 2
    assert kept >= 1      # some limit stopped the card values but not the value
    res = solve(st, time_limit=0.0)
    assert not res.exact and res.lower <= exact.value <= res.upper


def test_the_time_limit_is_the_calling_threads_cpu_time():
    """The clock of the time limit runs only while the solving thread runs:
    another thread's work does not count (a process clock would run twice as
    fast with two threads solving), and no time or node limit is too large
    to hold."""
    from quartet_solver._core import kj_thread_cpu_seconds

    def burn() -> None:
        end = time.thread_time() + 0.3
        while time.thread_time() < end:
            pass

    before = kj_thread_cpu_seconds()
    worker = threading.Thread(target=burn)
    worker.start()
    worker.join()                           # this thread only waits
    assert kj_thread_cpu_seconds() - before < 0.1
    st = PlayState(Deal.random(seed=4), trump="h", declarer="N", leader="E")
    exact = solve(st, pv=False)
    hour = solve(st, time_limit=3600.0, pv=False)
    assert hour.exact and hour.card_values == exact.card_values
    for huge in (1e13, 1e300):              # once overflowed the deadline: a stop at once
        res = solve(st, time_limit=huge, pv=False)
        assert res.exact and res.card_values == exact.card_values and res.nodes == hour.nodes
    for huge_nodes in (2 ** 62, 2 ** 64 - 1, 2 ** 64, 10 ** 30):   # 2 ** 64 on: an OverflowError once
        res = solve(st, node_limit=huge_nodes, pv=False)
        assert res.exact and res.card_values == exact.card_values and res.nodes == hour.nodes


def test_bad_limits_and_table_sizes_are_refused():
    st = PlayState(Deal.random(seed=21), trump="d", declarer="E", leader="S")
    for bad in (0, -1, 1.5, True, "100"):
        with pytest.raises(InvalidStateError, match=f"node_limit must be a positive int or None, got {bad!r}"):
            solve(st, node_limit=bad)
    for bad in (-0.5, float("nan"), float("inf"), "1", False):
        with pytest.raises(InvalidStateError, match="time_limit must be a number of seconds"):
            solve(st, time_limit=bad)
    solve_deal(st.deal, "d", "E", "S", tt_bits=18)    # the kernel of 18 exists: 18.0 must not find it
    for bad in (0, 3, 31, 2.0, None, 18.0):
        with pytest.raises(InvalidStateError, match="tt_bits must be an int in 4..30"):
            solve(st, tt_bits=bad)
        with pytest.raises(InvalidStateError, match="tt_bits must be an int in 4..30"):
            solve_deal(st.deal, "d", "E", "S", tt_bits=bad)
    assert solve(st, node_limit=1).exact is False and solve(st, time_limit=0).exact is False


def test_numpy_integers_are_limits_targets_and_sizes():
    """numpy numbers (what arrays hold) are accepted wherever an int or a number
    of seconds is, with the same results as plain ones."""
    import numpy as np

    from quartet_solver.klaverjas import analyse_bid, dd_table

    st = PlayState(Deal.random(seed=21), trump="d", declarer="E", leader="S")
    exact = solve(st, pv=False)
    assert solve(st, pv=False, tt_bits=np.int64(DEFAULT_TT_BITS)).card_values == exact.card_values
    assert solve(st, pv=False, node_limit=np.int64(10 ** 9), time_limit=np.int32(3600)).card_values == \
        exact.card_values
    assert solve(st, node_limit=np.uint8(1)).exact is False
    assert reaches(st, np.int64(exact.value)) and not reaches(st, np.int16(exact.value + 1))
    table = dd_table(st.deal, "S", rules=Rules())
    assert table.net("d", np.int64(1)) == table.net("d", "EW") == exact.value
    for bad in (np.float64(2.0), np.bool_(True)):
        with pytest.raises(InvalidStateError, match="target must be an int"):
            reaches(st, bad)
    hand = "Jh 9h Ah Th As Ks Ad 7c"
    assert analyse_bid(hand, samples=np.int64(3), seed=1, processes=np.int8(1)).stats == \
        analyse_bid(hand, samples=3, seed=1, processes=1).stats


def test_finished_hand_and_result_object():
    st = PlayState(Deal.random(seed=2), trump="c", declarer="N", leader="E")
    while len(st.tricks) < 7:
        st = st.play(st.legal_cards()[0])
    res = solve(st)
    data = res.to_dict()
    assert data["value"] == res.value and data["exact"] is True
    assert "DDResult(value=" in repr(res)
    end = st.play_all(res.pv)
    with pytest.raises(InvalidStateError):
        solve(end)


def _targets(st: PlayState, value: int, rng: random.Random) -> list[int]:
    """Targets around the value and at the edges of the made and nat ranges."""
    base = -(162 + sum(st.roem))
    edges = [value - 1, value, value + 1, 0, -1, 1, base, base + 1, base - 1, base - 20, base - 21]
    return edges + [rng.randrange(-560, 330) for _ in range(4)]


@settings(max_examples=40, deadline=None)
@given(seed=hst.integers(0, 2**30), tricks_left=hst.integers(2, 3), extra=hst.integers(0, 3),
       rules=hst.sampled_from(RULESETS), bias=hst.sampled_from([0.0, 0.5, 1.0]))
def test_reaches_against_minimax(seed, tricks_left, extra, rules, bias):
    """``reaches(st, t)`` (one null-window test) is ``minimax value >= t`` for
    targets in the made range, the nat range and between them."""
    rng = random.Random(seed)
    st = random_endgame(rng, tricks_left, extra, rules, bias)
    value = minimax(st)
    for t in _targets(st, value, rng):
        assert reaches(st, t) == (value >= t), (t, value, repr(st))
    assert is_made(st) == (not st.play_all(solve(st).pv).result().nat)


def test_reaches_on_full_deals_and_finished_hands():
    rng = random.Random(31)
    for i in range(6):
        deal = Deal.random(seed=rng.randrange(1 << 30))
        rules = RULESETS[i % len(RULESETS)]
        st = PlayState(deal, trump="cdhs"[i % 4], declarer=i % 4, leader=(i + 3) % 4, rules=rules)
        value = solve_deal(deal, st.trump, declarer=i % 4, leader=(i + 3) % 4, rules=rules)
        for t in _targets(st, value, rng):
            assert reaches(st, t) == (value >= t), (t, value)
        assert is_made(st) == (value >= 0)
        # targets beyond any score (past a C long once: an OverflowError)
        for t in (10_001, 10 ** 30, -10_001, -(10 ** 30)):
            assert reaches(st, t) == (value >= t)
    end = st.play_all(solve(st).pv)
    net = end.result().net
    assert reaches(end, net) and not reaches(end, net + 1) and is_made(end) == (not end.result().nat)


def test_the_largest_pit_is_exact_and_a_larger_one_refused():
    """Scores stay inside the tables' 16-bit values up to MAX_DD_PIT (checked
    against the minimax on endgames whose pit is still open); a larger pit is
    refused by every entry point (once: silently wrong values, e.g. +1000000
    for +1000182)."""
    from quartet_solver.klaverjas import analyse_bid, dd_table, par
    from quartet_solver.klaverjas.dd import MAX_DD_PIT

    rules = Rules.AMSTERDAM.with_options(pit=MAX_DD_PIT)
    rng = random.Random(17)
    pits = tried = 0
    while tried < 15:
        st = PlayState(Deal.random(seed=rng.randrange(1 << 40)), trump=rng.choice("cdhs"),
                       declarer=rng.randrange(4), leader=rng.randrange(4), rules=rules)
        for _ in range(20 + rng.randrange(2)):
            st = st.play(rng.choice(st.legal_cards()))
        if len({t.winner % 2 for t in st.tricks}) != 1:
            continue                        # the pit is gone: not the case looked for
        tried += 1
        value = solve(st, pv=False).value
        assert value == minimax(st)
        assert reaches(st, value) and not reaches(st, value + 1)     # beyond 10,000 too
        pits += abs(value) > MAX_DD_PIT
    assert pits >= 1                        # some best line takes the pit
    big = Rules.AMSTERDAM.with_options(pit=MAX_DD_PIT + 1)
    deal = Deal.random(seed=5)
    st = PlayState(deal, trump="h", declarer="N", leader="E", rules=big)
    calls = [lambda: solve(st), lambda: reaches(st, 0), lambda: is_made(st),
             lambda: solve_deal(deal, "h", "N", "E", rules=big), lambda: dd_table(deal, "E", rules=big),
             lambda: par(deal, "N", rules=big),
             lambda: analyse_bid(deal.hands[1], seat="E", dealer="N", samples=200, rules=big, processes=2)]
    for call in calls:
        with pytest.raises(InvalidStateError, match="a pit of at most 10,000"):
            call()


def test_reaches_errors():
    st = PlayState(Deal.random(seed=2), trump="c", declarer="N", leader="E")
    for bad in (1.5, "10", True, None):
        with pytest.raises(InvalidStateError, match="target"):
            reaches(st, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="PlayState"):
        reaches(st.deal, 0)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_many_endgames_against_minimax_slow(rules):
    rng = random.Random(99 + (zlib.crc32(str(rules).encode()) & 0xFFFF))
    for i in range(300):
        if i % 3 == 0:
            st = close_endgame(rng, 2 + i % 2, extra=i % 4, rules=rules)
        else:
            st = random_endgame(rng, 2 + (i % 7 == 0) + (i % 2), extra=i % 4, rules=rules,
                                bias=(0.0, 0.5, 0.9)[i % 3])
        check(st)


def test_card_values_take_card_text_as_a_key():
    """``card_values["Qh"]`` once raised KeyError: the keys are Cards, lookups
    also take card text (any spelling); a card that is not a key is still a
    KeyError, and bad text a NotationError naming it."""
    from quartet_solver import klaverjas as kj
    from quartet_solver.errors import NotationError

    st = PlayState(Deal.random(seed=11), trump="h", declarer="N", leader="E")
    res = solve(st)
    assert res.card_values and all(isinstance(c, Card) for c in res.card_values)
    for card, value in res.card_values.items():
        assert res.card_values[str(card)] == value == res.card_values[str(card).lower()]
        assert str(card) in res.card_values and res.card_values.get(str(card)) == value
    missing = next(c for c in Decks.piquet() if c not in res.card_values)
    assert str(missing) not in res.card_values and res.card_values.get(str(missing)) is None
    with pytest.raises(KeyError):
        res.card_values[str(missing)]
    with pytest.raises(NotationError, match="2c|'Zz'"):
        res.card_values["Zz"]
    assert kj.Card is Card
