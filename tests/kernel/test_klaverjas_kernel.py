"""The double-dummy kernel's internals against a plain minimax: the
transposition table's keys, the plain-trick and last-two-trick searches, the
roem bounds and roem games, the twin table, the search modes one at a time.

These tests reach into ``quartet_solver._core.KlaverjasKernel`` and the
private helpers of ``klaverjas.dd``; the public solver's tests are in
``tests/test_klaverjas_dd.py``.
"""

from __future__ import annotations

import contextlib
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from reference.klaverjas_minimax import minimax, minimax_of
from quartet_solver.cards import Card, Decks, Rank, Suit
from quartet_solver.klaverjas import Deal, PlayState, Rules
from quartet_solver._core import KlaverjasKernel
from quartet_solver.klaverjas.dd import _STUK, DEFAULT_TT_BITS, _kernel, _load, reaches, solve
from quartet_solver.klaverjas.rules import card_points, card_power
from klaverjas_endgames import RULESETS, check, close_endgame, random_endgame


def test_table_key_positions_are_the_same_game():
    """The table key moves zero-point cards that can be in no run down to the
    lowest ranks of their suit (by default with five or more tricks left; here
    from three).  On random trick-boundary positions where it moves some: the
    value equals the plain minimax, the key is its own key, and the position it
    describes, solved on its own table, has the same value."""
    rng = random.Random(31)
    moved = 0
    for i in range(120):
        rules = RULESETS[i % len(RULESETS)]
        st = random_endgame(rng, 3 + i % 2, extra=0, rules=rules, bias=(0.0, 0.5)[i % 2])
        kernel = KlaverjasKernel(12)
        kernel.set_key_tricks(3)
        _load(kernel, st)
        key = kernel.table_key()
        if key == [h.mask >> 20 for h in st.hands()]:
            continue
        moved += 1
        value = kernel.value()
        if len(st.tricks) == 5:
            assert value == minimax(st), repr(st)
        other = KlaverjasKernel(12)
        other.set_key_tricks(3)
        _load(other, st, hands=key)
        assert other.table_key() == key
        assert other.value() == value, repr(st)
    assert moved >= 60


@contextlib.contextmanager
def kernel_depth(name: str, tricks: int):
    """The shared kernel with its test hook ``set_<name>`` at ``tricks`` (a
    search feature used from that many tricks left on), restored afterwards."""
    kernel = _kernel(DEFAULT_TT_BITS)
    default = getattr(kernel, name)
    getattr(kernel, "set_" + name)(tricks)
    try:
        yield kernel
    finally:
        getattr(kernel, "set_" + name)(default)


@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_endgames_against_minimax_with_table_keys_at_every_depth(rules):
    """The seeded endgame check again, with dead low cards moved in the table
    key at every trick boundary (by default only with five or more tricks left)."""
    with kernel_depth("key_tricks", 1):
        rng = random.Random(500 + (zlib.crc32(str(rules).encode()) & 0xFFFF))
        for i in range(16):
            st = random_endgame(rng, 3, extra=i % 4, rules=rules, bias=(0.0, 0.5, 0.9)[i % 3])
            check(st)


@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_endgames_against_minimax_without_the_plain_trick_search(rules):
    """The seeded endgame check again, every trick searched card by card (by
    default the plain trick search takes the boundaries with five tricks left
    or fewer, so endgames this small reach the card-by-card search only then)."""
    with kernel_depth("plain_tricks", 2):
        rng = random.Random(900 + (zlib.crc32(str(rules).encode()) & 0xFFFF))
        for i in range(12):
            if i % 3 == 0:
                st = close_endgame(rng, 3, extra=i % 4, rules=rules)
            else:
                st = random_endgame(rng, 3 + (i % 4 == 1), extra=i % 4, rules=rules,
                                    bias=(0.0, 0.5, 0.9)[i % 3])
            check(st)


@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_plain_trick_search_matches_card_by_card_on_larger_positions(rules):
    """Where the minimax of the tests is too slow (five tricks left and more,
    full deals), the plain trick search (by default from five tricks left) and
    the card-by-card search, each checked against that minimax on smaller
    endgames, give the same values for every card."""
    rng = random.Random(1100 + (zlib.crc32(str(rules).encode()) & 0xFFFF))
    states = [random_endgame(rng, 5 + i % 2, extra=i % 4, rules=rules, bias=(0.0, 0.5, 0.9)[i % 3])
              for i in range(6)]
    states += [PlayState(Deal.random(seed=rng.randrange(1 << 30)), trump="cdhs"[i], declarer=i,
                         leader=rng.randrange(4), rules=rules) for i in range(2)]
    plain = [solve(st, pv=False) for st in states]
    with kernel_depth("plain_tricks", 2):
        by_card = [solve(st, pv=False) for st in states]
    assert [r.card_values for r in by_card] == [r.card_values for r in plain]
    # the two searches did differ: other trees, other node counts
    assert sum(r.nodes for r in by_card) != sum(r.nodes for r in plain)


@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_endgames_against_minimax_with_roem_tests_at_every_depth(rules):
    """The seeded endgame check again, with the nat search's roem-game tests
    (tried where the other team leads) down to two tricks left, by default only
    with three or more: endgames this small reach that code only then."""
    with kernel_depth("roem_test_tricks", 2):
        rng = random.Random(700 + (zlib.crc32(str(rules).encode()) & 0xFFFF))
        for i in range(12):
            if i % 2:
                st = close_endgame(rng, 3, extra=i % 4, rules=rules)
            else:
                st = random_endgame(rng, 3, extra=i % 4, rules=rules, bias=(0.0, 0.5, 0.9)[i % 3])
            check(st)


def _max_future_roem(st: PlayState) -> int:
    """The most roem any continuation can still score (exhaustive)."""
    if st.is_over:
        return sum(st.roem)
    return max(_max_future_roem(st.play(c)) for c in st.legal_cards())


@pytest.mark.parametrize("rules", RULESETS[:5], ids=str)
def test_roem_bound_is_an_upper_bound(rules):
    """The kernel's roem bound (one card per player per roem, never more than
    the cards allow) is never below the roem some line of play still scores,
    and it is tight when no roem is possible at all."""
    from quartet_solver.klaverjas.dd import _kernel, _load

    kernel = _kernel(10)
    rng = random.Random(4242 + len(str(rules)))
    zero_seen = 0
    for i in range(60):
        st = random_endgame(rng, 2 + i % 2, extra=i % 4, rules=rules, bias=(0.0, 0.5)[i % 2])
        _load(kernel, st)
        most = _max_future_roem(st) - sum(st.roem)
        bound = kernel.roem_bound()
        assert bound >= most, repr(st)
        zero_seen += bound == 0
    assert zero_seen > 0            # the bound often proves that no roem is left


@pytest.mark.parametrize("rules", RULESETS[:5], ids=str)
def test_roem_bound_after_play_equals_a_fresh_load(rules):
    """What roem is possible is read from the holdings once per loaded position
    (``kj_roem_holdings``) and from the cards still out after that: positions
    reached by play in the kernel get the same roem bound and twin key as the
    same positions loaded afresh, and the bound holds against exhaustive play."""
    from quartet_solver.klaverjas.dd import _kernel, _load

    played, fresh = _kernel(10), KlaverjasKernel(10)
    rng = random.Random(77 + len(str(rules)))
    for _ in range(25):
        st = random_endgame(rng, 5, extra=rng.randrange(4), rules=rules, bias=rng.choice([0.0, 0.5]))
        _load(played, st)
        while len(st.tricks) < 7:
            card = rng.choice(st.legal_cards())
            played.play(card.index - 20)
            st = st.play(card)
            _load(fresh, st)
            assert played.roem_bound() == fresh.roem_bound(), repr(st)
            if not st.trick:
                assert played.twin_key() == fresh.twin_key(), repr(st)
            if len(st.tricks) >= 6:
                assert played.roem_bound() >= _max_future_roem(st) - sum(st.roem), repr(st)


def test_two_trick_table_keeps_positions_apart():
    """The two-trick table (``kj_search_last_two``) holds bounds by exact key within a solve's
    generation (one game: the same trump and rules): positions with two tricks
    left that differ only in the pit flags or the leader get, searched one after
    the other in one generation, the values each gets in a fresh one (future d
    and roem game)."""
    rng = random.Random(606)
    kernel, fresh = KlaverjasKernel(10), KlaverjasKernel(10)

    def values(k: KlaverjasKernel, hands, leader, trump, flags, new_generation):
        k.load(hands, [], leader, trump, False, 0, -1, 100, True, 0, 0, 0, flags, 6, new_generation)
        d = k.future_d()
        k.load(hands, [], leader, trump, False, 0, -1, 100, True, 0, 0, 0, flags, 6, False)
        return d, k.roem_game()

    differ = 0
    for _ in range(150):
        cards = rng.sample(range(32), 8)
        hands = [(1 << cards[2 * i]) | (1 << cards[2 * i + 1]) for i in range(4)]
        trump = rng.randrange(4)
        variants = [(leader, trump, flags) for leader in range(4) for flags in (0, 1, 2)]
        rng.shuffle(variants)
        seen = []
        for i, (leader, t, flags) in enumerate(variants):
            same = values(kernel, hands, leader, t, flags, i == 0)
            assert same == values(fresh, hands, leader, t, flags, True), (hands, leader, t, flags)
            seen.append(same)
        differ += len(set(seen)) > 1
    assert differ > 100            # the variants mostly have different values


@settings(max_examples=40, deadline=None)
@given(seed=hst.integers(0, 2**30), tricks_left=hst.integers(2, 3), extra=hst.integers(0, 3),
       rules=hst.sampled_from(RULESETS), bias=hst.sampled_from([0.0, 0.5, 1.0]))
def test_hypothesis_endgames_against_minimax(seed, tricks_left, extra, rules, bias):
    """Value, every card value and the principal variation against plain minimax,
    and the roem bound against exhaustive play, on endgames drawn by hypothesis."""
    from quartet_solver.klaverjas.dd import _kernel, _load

    st = random_endgame(random.Random(seed), tricks_left, extra, rules, bias)
    check(st)
    kernel = _kernel(10)
    _load(kernel, st)
    assert kernel.roem_bound() >= _max_future_roem(st) - sum(st.roem)


def _roem_game(st: PlayState) -> int:
    """Plain minimax of the roem game: all roem and pit at the end of the hand,
    whoever scores it; the playing team minimises it, the other maximises."""
    return minimax_of(st, lambda end: sum(end.roem) + sum(end.result().pit), playing_maximises=False)


def _d_of(end: PlayState) -> int:
    res = end.result()
    p = end.playing_team
    return res.points[p] + res.pit[p] - res.points[1 - p] - res.pit[1 - p]


def _final_d(st: PlayState) -> int:
    """Plain minimax of the final d: the playing team's points and pit minus
    the other team's, both teams playing for them (nat plays no part)."""
    return minimax_of(st, _d_of)


def _check_two_trick_boundary(st: PlayState) -> None:
    """Every search of a two-trick boundary against plain minimaxes: the future
    d, the roem game, the value (the nat search where the hand is nat) and
    null-window tests of the value at and around it (fail-soft bounds on both
    sides)."""
    kernel = _kernel(10)
    _load(kernel, st)
    p = st.playing_team
    assert kernel.future_d() + st.points[p] - st.points[1 - p] == _final_d(st), repr(st)
    assert kernel.roem_game() == _roem_game(st) - sum(st.roem), repr(st)
    value = minimax(st)
    assert kernel.value() == value, repr(st)
    for target in (value - 1, value, value + 1, -162 - sum(st.roem), 0):
        _load(kernel, st)
        assert kernel.reaches(target) == (value >= target), (repr(st), target)


def test_two_trick_boundaries_against_minimax():
    """With two tricks left at a trick boundary every search ends in the nested
    loops of ``kj_search_last_two``.  The first six tricks here are played keeping trumps
    where the rules allow, so that the last two often need trumping,
    over-trumping and (Amsterdam) the partner's rule."""
    rng = random.Random(2718)
    for i in range(450):
        rules = RULESETS[i % len(RULESETS)]
        deal = Deal.random(seed=rng.randrange(1 << 30))
        st = PlayState(deal, trump=rng.choice("cdhs"), declarer=rng.randrange(4), leader=rng.randrange(4),
                       rules=rules)
        while len(st.tricks) < 6:
            legal = st.legal_cards()
            st = st.play(rng.choice([c for c in legal if c.suit != st.trump] or legal))
        _check_two_trick_boundary(st)


@settings(max_examples=60, deadline=None)
@given(seed=hst.integers(0, 2**30), rules=hst.sampled_from(RULESETS),
       bias=hst.sampled_from([0.0, 0.5, 1.0]))
def test_hypothesis_two_trick_boundaries_against_minimax(seed, rules, bias):
    """:func:`_check_two_trick_boundary` on endgames of biased random play (one
    team often takes every trick: pit)."""
    _check_two_trick_boundary(random_endgame(random.Random(seed), 2, 0, rules, bias))


def _roem_endgame(rng: random.Random, tricks_left: int, rules: Rules) -> PlayState:
    """A random trick-boundary endgame, where roem can still be scored if one
    of a few draws has it (the roem game is trivial otherwise)."""
    kernel = _kernel(10)
    for _ in range(8):
        st = random_endgame(rng, tricks_left, 0, rules, rng.choice([0.0, 0.5]))
        _load(kernel, st)
        if kernel.roem_bound() > 0:
            break
    return st


def _check_roem_game(st: PlayState) -> None:
    kernel = _kernel(10)
    _load(kernel, st)
    assert kernel.roem_game() == _roem_game(st) - sum(st.roem), repr(st)


@settings(max_examples=60, deadline=None)
@given(seed=hst.integers(0, 2**30), rules=hst.sampled_from(RULESETS))
def test_hypothesis_roem_game_three_tricks_against_minimax(seed, rules):
    """The roem game from three tricks left (the plain trick search, where
    the leads that can be in no roem are merged by power: kj_merge_roemless)
    against its plain minimax."""
    _check_roem_game(_roem_endgame(random.Random(seed), 3, rules))


# Three-trick boundaries where merging two leads that can be in no roem across
# another hand's card (kj_merge_roemless without the power rule) gives a wrong roem
# game: found by running such a build against the minimax (12 of 3,178 random
# positions); each is checked against the minimax.  (deal, trump, declarer,
# leader, rules, cards played)
MERGE_CASES = [
    ("N:.QJT.T9.AKT Q8.9.KJ.Q87 JT7.8.AQ87. AK9.AK7..J9", "s", "S", "W",
     Rules(variant="rotterdam", stuk="off", pit=100, tie_is_nat=False),
     "Ah Th 9h 8h As Jh 8s Js 8d 9s 9d Jd Ks Ac Qs Ts 7s 7h Qh Kd"),
    ("N:7.KT.J97.J9 AJ98.AJ.T.7 KT.Q7.K8.KT Q.98.AQ.AQ8", "c", "W", "S",
     Rules(variant="amsterdam", stuk="trick", pit=0, tie_is_nat=True),
     "7h 9h Th Jh 7d Td 8d Ad Ac Jc 7c Kc 7s Js Ts Qs Qh 8h Kh Ah"),
    ("N:.QT.J7.KQT9 Q8.9.Q9.J87 AK.J87.AT8. JT97.AK.K.A", "s", "E", "W",
     Rules(variant="rotterdam", stuk="off", pit=100, tie_is_nat=False),
     "Ac Qc 7c As 8d Kd 7d 9d Kh Qh 9h Jh Ah Th 8s 7h Jc Ks Ts Tc"),
    ("N:A987.98.T.J K.AJT7.A7.A QJT.Q.Q9.Q9 .K.KJ8.KT87", "d", "N", "W",
     Rules.named("rotterdam"),
     "7c Jc Ac Qc Ah Qh Kh 8h 7d 9d Jd Td Kd 9s Ad Qd Jh Ts 8d 9h"),
    ("N:KQ9.A..AT87 T8.Q9.JT.QJ AJ.JT7.K9.K 7.K8.AQ87.9", "s", "W", "S",
     Rules.AMSTERDAM,
     "Th Kh Ah 9h Ks Ts As 7s Kc 9c Tc Qc 9s 8s Js 8d 7h 8h Qs Qh"),
    ("N:AJ87.KJ.7.7 T.Q9.AT.KJ8 K9.T7.98.AT Q.A8.KQJ.Q9", "s", "S", "N",
     Rules(variant="rotterdam", stuk="hand", pit=100, tie_is_nat=True),
     "7c Kc Ac 9c 7h Ah Jh 9h Qs As Ts 9s 8d Jd 7d Ad Td 9d Kd 7s"),
    ("N:KT.AKT.Q87. 8.QJ9.A.A98 AJ7.7.KJ.J7 Q9.8.T9.KQT", "c", "E", "W",
     Rules(variant="rotterdam", stuk="hand", pit=37, tie_is_nat=False),
     "Qs Ts 8s Js Th Jh 7h 8h Ah Qh Jc Kc Kd 9d 8d Ad Ac 7c Qc 7d"),
    ("N:K.QT.A.AKT9 987.K7.7.J8 QJ.AJ.QJ.Q7 AT.98.KT98.", "s", "N", "N",
     Rules(variant="amsterdam", stuk="trick", pit=100, tie_is_nat=False),
     "Th 7h Ah 8h Js As Ks 7s Qs Ts Ac 9s 7d Qd 8d Ad Tc 8c Qc Kd"),
    ("N:97.KJ9.7.Q8 AQJT.8.Q8.9 .AQ7.KT9.KJ K8.T.AJ.AT7", "s", "E", "N",
     Rules(variant="rotterdam", stuk="hand", pit=37, tie_is_nat=False),
     "9s Js 7h 8s 8d Td Jd 7d Ah Th 9h 8h Kc Tc Qc 9c 7c 8c Ts Jc"),
    ("N:8.JT8.A9.A9 J.Q97.7.Q87 AK9.K.Q.KJT QT7.A.KJT8.", "c", "E", "S",
     Rules.AMSTERDAM,
     "Qd Td 9d 7d 8d Ad 7c Tc 9s Qs 8s Js Ah Jh 7h Kh Jd Ac 9h As"),
    ("N:KJ8.JT.AT.9 AQ9.Q9..AJ8 T.K8.KJ7.K7 7.A7.Q98.QT", "d", "N", "S",
     Rules.AMSTERDAM,
     "Jd 8d Ad 9h 7c Tc 9c 8c Qd Td Qh Kd Ks Qs Ts 7s Kh 7h Th As"),
    ("N:T.7.KJ7.A87 KQ.T9.QT.T9 98.AQ8.9.KQ AJ7.KJ.A8.J", "d", "N", "N",
     Rules.AMSTERDAM,
     "7h 9h 8h Kh 7s Ts Qs 9s 7d Td 9d 8d Qc Jc 8c 9c Qh Jh Jd Th"),
]


@pytest.mark.parametrize("case", MERGE_CASES)
def test_roem_game_merge_cases_against_minimax(case):
    deal, trump, declarer, leader, rules, played = case
    _check_roem_game(PlayState(deal, trump=trump, declarer=declarer, leader=leader, rules=rules)
                     .play_all(played))


@pytest.mark.slow
def test_roem_game_four_tricks_against_minimax():
    """As above from four tricks left (2 s a position for the minimax)."""
    rng = random.Random(4242)
    for i in range(24):
        _check_roem_game(_roem_endgame(rng, 4, RULESETS[i % len(RULESETS)]))


def _twin_of(st: PlayState, keep: int, rng: random.Random) -> list[int]:
    """Hands (kernel masks) of a would-be twin of the boundary position ``st``:
    in each suit, the cards of ``keep`` (a kernel mask: its roem cards) stay and
    the others give way to other cards of that suit not in ``keep``, as many,
    each card out then held by the holder of the card at its place by power."""
    hands = [set(st.hand(i)) for i in range(4)]
    for suit in Suit:
        by_power = lambda c: -card_power(c, st.trump, c.suit)  # noqa: E731
        out = sorted((c for h in hands for c in h if c.suit == suit), key=by_power)
        holders = [next(i for i in range(4) if c in hands[i]) for c in out]
        kept = [c for c in out if keep >> (c.index - 20) & 1]
        others = [Card(r, suit) for r in Rank
                  if Card(r, suit).index >= 20 and not keep >> (Card(r, suit).index - 20) & 1]
        new = sorted(kept + rng.sample(others, len(out) - len(kept)), key=by_power)
        for c, i in zip(out, holders):
            hands[i].discard(c)
        for c, i in zip(new, holders):
            hands[i].add(c)
    return [sum(1 << (c.index - 20) for c in h) for h in hands]


def _twin_pairs(seed: int, count: int = 400):
    """Twin pairs: random trick-boundary positions (three or four tricks left,
    the rule sets in turn) and a twin of each (:func:`_twin_of`, kept when its
    roem cards sit at the same places).  Yields the position, the twin's hands,
    the roem cards, the cards out of both by suit in power order (highest
    first), both positions' future d and roem game, from the searches
    without twins, and the kernel's ``(widen, shift)`` between them
    (:func:`kj_twin_delta`, the position's signature here, the twin's there)."""
    rng = random.Random(seed)
    kernel = KlaverjasKernel(12)
    kernel.set_twins(False)
    for i in range(count):
        rules = RULESETS[i % len(RULESETS)]
        st = random_endgame(rng, 3 + i % 2, extra=0, rules=rules, bias=(0.0, 0.5, 1.0)[i % 3])
        _load(kernel, st)
        key, sig, cov, cpos = kernel.twin_key()
        d_x, r_x = kernel.future_d(), kernel.roem_game()
        twin = _twin_of(st, cov, rng)
        _load(kernel, st, hands=twin)
        key_y, sig_y, cov_y, cpos_y = kernel.twin_key()
        assert key_y == key
        if (cov_y, cpos_y) != (cov, cpos):
            continue                    # the new cards can make roem, or sit elsewhere: no twin
        cards_x = [c for h in st.hands() for c in h]
        cards_y = [Card.from_index(b + 20) for b in range(32) if (twin[0] | twin[1] | twin[2] | twin[3]) >> b & 1]
        by_suit = {}
        for suit in Suit:
            by_power = lambda c: -card_power(c, st.trump, suit)  # noqa: E731
            by_suit[suit] = (sorted((c for c in cards_x if c.suit == suit), key=by_power),
                             sorted((c for c in cards_y if c.suit == suit), key=by_power))
        yield (st, twin, cov, by_suit, (d_x, r_x), (kernel.future_d(), kernel.roem_game()),
               kernel.twin_delta(sig, sig_y))


def test_twin_positions_differ_by_at_most_their_points():
    """The twin lemma behind the twin table: two trick-boundary positions with
    one twin key (for each suit, which hand holds its first, second, ... card out
    by power) and the same roem cards (the cards that can still be in a roem:
    runs, four of a kind, stuk) at the same places by power have future d values
    (the minimax of the playing team's points, roem and pit to come minus the
    other's) at most the sum of the point differences of the cards at the same
    places apart, and the same roem game (roem and pit to come) value.  Values
    from the searches without twins (checked against the plain minimax where it
    is cheap); the differences counted here from the cards.  Many pairs have
    roem cards and other cards of the same suits that differ."""
    kernel = KlaverjasKernel(12)
    kernel.set_twins(False)
    pairs = moved = mixed = roem = 0
    for st, twin, cov, by_suit, (d_x, r_x), (d_y, r_y), _ in _twin_pairs(77):
        if len(st.tricks) == 5:                                 # the reference searches themselves
            _load(kernel, st)                                   # (three tricks left: cheap there)
            assert kernel.value() == minimax(st), repr(st)
            assert r_x == _roem_game(st) - sum(st.roem), repr(st)
        delta = 0
        for xs, ys in by_suit.values():
            delta += sum(abs(card_points(a, st.trump) - card_points(b, st.trump)) for a, b in zip(xs, ys))
            if any(cov >> (x.index - 20) & 1 for x in xs) and set(xs) != set(ys):
                mixed += 1
        assert abs(d_x - d_y) <= delta, (repr(st), twin)
        assert r_y == r_x, (repr(st), twin)
        pairs += 1
        moved += d_x != d_y
        roem += r_x > 0
    assert pairs >= 150 and moved >= 40 and mixed >= 20 and roem >= 30, (pairs, moved, mixed, roem)


def test_twin_sure_trumps_shift_the_difference():
    """The sharper twin lemma of the d search's twin cut: the top trumps that
    one team holds above the other team's highest win for that team whatever
    the trick they fall in, so between twins their point differences move the
    future d by a known amount (with the sign of that team) and only the other
    cards' differences widen the bounds.  Checked on twin pairs with the sure
    trumps and the differences derived here from the cards; many pairs have a
    shift (there the bound is sharper than the plain lemma's), and in many of
    those the values differ.  The kernel's own widening and shift
    (:func:`kj_twin_delta`) must equal those derived here."""
    pairs = shifted = moved = 0
    for st, twin, cov, by_suit, (d_x, _), (d_y, _), kernel_delta in _twin_pairs(78):
        holder = {c: i for i in range(4) for c in st.hand(i)}
        shift = rest = 0
        for suit, (xs, ys) in by_suit.items():
            sure = 0
            if suit == st.trump and xs:
                team = holder[xs[0]] % 2
                while sure < len(xs) and holder[xs[sure]] % 2 == team:
                    sure += 1
                sign = 1 if team == st.playing_team else -1
                shift = sign * sum(card_points(a, st.trump) - card_points(b, st.trump)
                                   for a, b in zip(xs[:sure], ys[:sure]))
            rest += sum(abs(card_points(a, st.trump) - card_points(b, st.trump))
                        for a, b in zip(xs[sure:], ys[sure:]))
        assert shift - rest <= d_x - d_y <= shift + rest, (repr(st), twin)
        assert kernel_delta == (rest, shift), (repr(st), twin)
        pairs += 1
        shifted += shift != 0
        moved += shift != 0 and d_x != d_y
    assert pairs >= 150 and shifted >= 40 and moved >= 20, (pairs, shifted, moved)


def test_twin_key_encodes_the_holders_by_power():
    """The twin key against its definition, derived here from the cards: the
    cards out ordered by suit, then by power within the suit; ``sig`` has bit
    8 * suit + power - 1 of each (power 1-8 by the rules' card order), key part
    i (N, E, S) bit j when the j-th of them is in hand i, part 3 the number of
    cards out of each suit (a byte each), and ``cpos`` bit j when the j-th is
    a roem card.  On trick-boundary positions with two to seven tricks left,
    every trump and rule set."""
    rng = random.Random(91)
    kernel = KlaverjasKernel(12)
    for i in range(300):
        rules = RULESETS[i % len(RULESETS)]
        st = random_endgame(rng, 2 + i % 6, extra=0, rules=rules, bias=(0.0, 0.5, 1.0)[i % 3])
        _load(kernel, st)
        key, sig, cov, cpos = kernel.twin_key()
        hands = [set(st.hand(s)) for s in range(4)]
        out = []                    # (suit bit, power, holder, card bit) of the cards out
        for h, cards in enumerate(hands):
            for c in cards:
                suit_cards = [x for x in Decks.piquet() if x.suit == c.suit]
                power = 1 + sum(card_power(x, st.trump, c.suit) < card_power(c, st.trump, c.suit)
                                for x in suit_cards)
                out.append(((c.index - 20) & 3, power, h, c.index - 20))
        out.sort()
        want_sig = sum(1 << (8 * su + pw - 1) for su, pw, _, _ in out)
        want = [sum(1 << j for j, o in enumerate(out) if o[2] == h) for h in range(3)]
        want.append(sum(sum(1 for o in out if o[0] == su) << (8 * su) for su in range(4)))
        want_cpos = sum(1 << j for j, o in enumerate(out) if cov >> o[3] & 1)
        assert (key, sig, cpos) == (tuple(want), want_sig, want_cpos), repr(st)


@settings(max_examples=25, deadline=None)
@given(seed=hst.integers(0, 2**30), extra=hst.integers(0, 3), rules=hst.sampled_from(RULESETS),
       bias=hst.sampled_from([0.0, 0.5, 1.0]))
def test_twin_table_changes_no_value(seed, extra, rules, bias):
    """The solver with the twin table and without it: the same value of every
    card on endgames with four tricks left (where twins are used from three
    tricks left) and the same full-deal value."""
    rng = random.Random(seed)
    st = random_endgame(rng, 4, extra, rules, bias)
    kernel = KlaverjasKernel(14)
    values = []
    for on in (True, False):
        kernel.set_twins(on)
        _load(kernel, st)
        values.append(kernel.move_values())
    assert values[0] == values[1]
    deal = Deal.random(seed=seed)
    full = []
    for on in (True, False):
        kernel.set_twins(on)
        full.append(kernel.solve_deal(*(h.mask >> 20 for h in deal.hands), seed % 4, (seed >> 2) % 4,
                                      (seed >> 4) % 2, rules.variant == "rotterdam",
                                      _STUK[rules.stuk], rules.pit, rules.tie_is_nat))
    assert full[0] == full[1]


def test_twin_table_changes_no_full_deal_value():
    """Full deals (where the twin cut's sharper bound, the sure trumps' shift,
    fires most) with the twin table and without it: the same value, for every
    trump, in every rule set."""
    kernel = KlaverjasKernel(14)
    for i in range(48):
        rules = RULESETS[i % len(RULESETS)]
        deal = Deal.random(seed=9000 + i)
        for trump in range(4):
            full = []
            for on in (True, False):
                kernel.set_twins(on)
                full.append(kernel.solve_deal(*(h.mask >> 20 for h in deal.hands), trump, i % 4, (i >> 2) % 2,
                                              rules.variant == "rotterdam", _STUK[rules.stuk], rules.pit,
                                              rules.tie_is_nat))
            assert full[0] == full[1], (i, trump)


def test_a_limit_past_the_made_test_tells_made_from_nat():
    """With a limit, solve() first tests whether the hand is made: a stop just
    after that test leaves bounds on the right side of the made / nat divide
    (made values are 0 or more, nat ones at most -(162 + roem so far))."""
    rng = random.Random(11)
    seen = set()
    for _ in range(12):
        st = PlayState(Deal.random(seed=rng.randrange(1 << 40)), trump=rng.choice("cdhs"),
                       declarer=rng.randrange(4), leader=rng.randrange(4), rules=rng.choice(RULESETS))
        for _ in range(rng.choice([0, 5, 9])):
            st = st.play(rng.choice(st.legal_cards()))
        exact = solve(st, pv=False)
        kernel = _kernel(DEFAULT_TT_BITS)
        kernel.set_limits(None, None)
        _load(kernel, st)
        made = kernel.reaches(0)
        test_nodes = kernel.nodes             # the made test alone, as solve() runs it first
        assert made == (exact.value >= 0)
        res = solve(st, node_limit=test_nodes, pv=False)
        assert res.lower <= exact.value <= res.upper
        if res.exact or res.lower == res.upper:
            continue                          # the value took no more nodes than the test
        seen.add(made)
        if made:
            assert res.lower >= 0
        else:
            assert res.upper <= -(162 + sum(st.roem))
    assert seen == {True, False}


def test_reaches_in_the_nat_range_where_the_other_team_leads():
    """Nat-range tests of endgames at a trick boundary where the other team
    leads: the null-window search starts with a test of the roem game there (also
    with two tricks left here, see the test hook), which decides many of them."""
    with kernel_depth("roem_test_tricks", 2):
        rng = random.Random(41)
        checked = 0
        while checked < 40:
            rules = RULESETS[checked % len(RULESETS)]
            st = random_endgame(rng, 2 + checked % 2, extra=0, rules=rules, bias=rng.choice([0.0, 0.5]))
            if st.to_move_index % 2 == st.playing_team:
                continue
            value = minimax(st)
            base = -(162 + sum(st.roem))
            if value > base - 20:
                continue            # no roem to concede: nothing to decide
            for t in sorted({value - 1, value, value + 1, base - 20, base - 21, base}):
                assert reaches(st, t) == (value >= t), (t, value, repr(st))
            checked += 1
