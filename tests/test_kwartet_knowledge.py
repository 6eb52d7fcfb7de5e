"""Kwartet exact inference: the posterior equals brute-force enumeration."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from reference.kwartet_posterior import brute_posterior
from quartet_solver.errors import IllegalActionError, InvalidStateError, QuartetError
from quartet_solver.kwartet import PILE, Deck, Game, Knowledge, MemoryBot, NoviceBot, Rules
from quartet_solver.kwartet.game import Asked, Revealed


def _random_prefix(deck, players, seed, rules=None, bots="novice"):
    """A game played by random/memory bots stopped after a random number of steps."""
    rng = random.Random(seed)
    g = Game(deck, players=players, seed=seed, rules=rules or Rules())
    kinds = [NoviceBot, MemoryBot]
    bl = [(NoviceBot if bots == "novice" else rng.choice(kinds))(seed=seed * 10 + i) for i in range(players)]
    for s, b in enumerate(bl):
        b.start(g, s)
    steps = rng.randrange(0, 25)
    for _ in range(steps):
        if g.is_over:
            break
        act = bl[g.to_move].choose()
        if act[0] == "ask":
            g.ask(act[1], act[2])
        else:
            g.reveal(act[1])
    return g


def _check_against_brute(g: Game, me: int):
    k = Knowledge.from_game(g, me)
    log = g.private_log(me)
    total, counts = brute_posterior(len(g.deck), log, me, g.initial_hands[me])
    assert k.count() == total
    probs = k.probabilities(exact=True)
    fl = k.probabilities()
    for loc_row, loc in [(p, p) for p in range(g.players)] + [(g.players, "pile")]:
        for c in range(len(g.deck)):
            expect = Fraction(counts.get((loc, c), 0), total)
            assert probs[loc_row, c] == expect, (loc, c, g.log)
            assert fl[loc_row, c] == pytest.approx(float(expect), abs=1e-12)
    # the true position has positive probability
    for p in range(g.players):
        for c in range(len(g.deck)):
            if g.hand(p) >> c & 1:
                assert probs[p, c] > 0
    return k


CASES = [
    (Deck.standard("AKQ"), 3, Rules()),          # 4 each, no pile
    (Deck.standard("AKQJ"), 3, Rules()),         # 5 each, pile of 1
    (Deck.standard("AKQJ"), 3, Rules(remainder="dealer")),
    (Deck.standard("AKQJ"), 4, Rules()),         # 4 each
    (Deck.standard("AKQJ"), 3, Rules(memory=4)),  # 4 each + middle of 4
]


def _brute_cases(case, n):
    deck, players, rules = CASES[case]
    for seed in range(case * 1000, case * 1000 + n):
        g = _random_prefix(deck, players, seed, rules, bots="mixed" if seed % 2 else "novice")
        _check_against_brute(g, seed % players)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_posterior_equals_bruteforce(case):
    _brute_cases(case, 30 if case < 3 else 6)


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(CASES)))
def test_posterior_equals_bruteforce_many(case):
    _brute_cases(case, 200)


def _sum_checks(k: Knowledge, g: Game):
    probs = k.probabilities()
    laid = k.laid_mask
    for c in range(len(g.deck)):
        col = probs[:, c].sum()
        if laid >> c & 1:
            assert col == 0
        else:
            assert col == pytest.approx(1.0, abs=1e-12)
    sizes = list(g.hand_sizes) + [g.pile_size]
    for loc in range(g.players + 1):
        assert probs[loc].sum() == pytest.approx(sizes[loc], abs=1e-9)
    # the truth is never excluded
    for p in range(g.players):
        for c in range(len(g.deck)):
            if g.hand(p) >> c & 1:
                assert probs[p, c] > 0


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_sums_and_expected_counts_large_decks(players):
    deck = Deck.themed(48) if players == 6 else Deck.themed(32)
    for seed in range(4):
        g = Game(deck, players=players, seed=seed)
        bots = [MemoryBot(seed=i) for i in range(players)]
        for s, b in enumerate(bots):
            b.start(g, s)
        steps = 0
        while not g.is_over and steps < 40:
            act = bots[g.to_move].choose()
            g.ask(act[1], act[2])
            steps += 1
            if steps % 10 == 0:
                k = Knowledge.from_game(g, steps // 10 % players)
                _sum_checks(k, g)


def test_contract_example():
    deck = Deck.standard(ranks="AKQJ")
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    assert k.probabilities().shape == (4, 16)
    k.ask(asker=1, target=2, card="Ks", success=True)
    assert k.probability(1, "Ks") == 1.0
    k.lay(player=1, quartet="K")
    assert k.probabilities()[:, deck.card("Kh")].sum() == 0
    k.ask(asker=1, target=0, card="Ah", success=False)
    assert k.certain()[1] == 1 << deck.card("As")
    assert k.probability(PILE, "Ah", exact=True) == Fraction(1, 5)


def test_exact_counts_do_not_overflow_big_deals():
    # 52 cards, 6 players: 44 unknown cards over 5 hands and a pile of 4
    deck = Deck.standard()
    g = Game(deck, players=6, seed=3)
    k = Knowledge.from_game(g, 0)
    sizes = list(g.hand_sizes)
    from math import factorial

    unknown = 52 - sizes[0]
    free = factorial(unknown)
    for s in sizes[1:] + [g.pile_size]:
        free //= factorial(s)
    assert 0 < k.count() <= free
    assert k.count() > 2**64  # beyond 64-bit: the 128-bit path is exercised
    _sum_checks(k, g)


def test_knowledge_errors():
    deck = Deck.standard("AKQJ")
    with pytest.raises(InvalidStateError, match="must hold 5 cards"):
        Knowledge(deck, players=3, me=0, hand="Ac Ad")
    with pytest.raises(InvalidStateError, match="3-6 players"):
        Knowledge(deck, players=2, me=0, hand="Ac Ad")
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    with pytest.raises(IllegalActionError, match="themselves"):
        k.ask(1, 1, "Ks", True)
    k0 = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js")  # the dealer is seat 2: seat 0 moves first
    with pytest.raises(IllegalActionError, match="holds no card"):
        k0.ask(0, 1, "Ks", True)
    with pytest.raises(IllegalActionError, match="holds it"):
        k0.ask(0, 1, "Ac", True)
    with pytest.raises(IllegalActionError, match="out of turn: it is player 1's turn"):
        k.ask(0, 1, "Ah", True)
    with pytest.raises(InvalidStateError, match="denied"):
        k.ask(1, 0, "Ac", False)
    with pytest.raises(QuartetError):
        k.ask(1, 2, "Xx", True)
    k2 = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    with pytest.raises(InvalidStateError, match="lays"):
        k2.lay(1, "A")
    k3 = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    k3.ask(1, 2, "Kh", False)
    k3.ask(2, 1, "Kh", False)
    k3.ask(0, 1, "Qh", False)
    k3.ask(1, 2, "Ks", False)
    k3.ask(2, 1, "Ks", False)
    # Kh and Ks are in the pile... both: impossible with a pile of one
    with pytest.raises(InvalidStateError, match="no deal"):
        k3.count()
    # a draw follows a miss (by the asker) or starts the turn of a player without cards
    k4 = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    with pytest.raises(IllegalActionError, match="draws out of turn"):
        k4.draw(2)
    k4.ask(1, 2, "Kh", False)
    k4.draw(1)  # unseen: the one card aside is now player 1's
    assert k4.hand_sizes == (5, 6, 5) and k4.pile_size == 0
    with pytest.raises(InvalidStateError, match="own draw must name the card"):
        k4.draw(0)


def test_speed_target_smoke():
    import time

    deck = Deck.themed(32)
    g = Game(deck, players=4, seed=11)
    bots = [MemoryBot(seed=i) for i in range(4)]
    for s, b in enumerate(bots):
        b.start(g, s)
    for _ in range(20):
        if g.is_over:
            break
        act = bots[g.to_move].choose()
        g.ask(act[1], act[2])
    k = Knowledge.from_game(g, 0)
    t = time.perf_counter()
    for _ in range(10):
        k._cache = None
        k.probabilities()
    assert (time.perf_counter() - t) / 10 < 0.05  # target 10 ms; generous for shared CI


def test_asked_events_round_trip():
    g = _random_prefix(Deck.standard("AKQJ"), 3, 5)
    k = Knowledge.from_log(g.deck, g.log, 1, g.initial_hands[1])
    assert np.array_equal(k.probabilities(), Knowledge.from_game(g, 1).probabilities())
    assert all(isinstance(e, Asked) or True for e in g.log)


def test_knowledge_checks_rules_hand_sizes_and_pile():
    deck = Deck.standard("AKQJ")
    hand = "Ac Ad Qc Jc Js"
    with pytest.raises(InvalidStateError, match="rules must be a kwartet.Rules"):
        Knowledge(deck, 3, 0, hand, rules="dealer")  # type: ignore[arg-type]
    for bad in ("a", 1.5, True):
        with pytest.raises(InvalidStateError, match="dealer must be a seat"):
            Knowledge(deck, 3, 0, hand, dealer=bad)  # type: ignore[arg-type]
    for bad in ("555", 5):
        with pytest.raises(InvalidStateError, match="hand_sizes must be a list"):
            Knowledge(deck, 3, 0, hand, hand_sizes=bad)  # type: ignore[arg-type]
    # a float used to be cut to an int (5.7 -> 5), None and text crashed, True counted as 1
    for bad in ([5.7, 5.2, 5.1], [None, 5, 5], ["5", "5", "5"], [True, 7, 7]):
        with pytest.raises(InvalidStateError, match="a hand size must be an int >= 0"):
            Knowledge(deck, 3, 0, hand, hand_sizes=bad)  # type: ignore[list-item]
    for bad in ("x", 1.9):
        with pytest.raises(InvalidStateError, match="pile must be an int >= 0"):
            Knowledge(deck, 3, 0, hand, hand_sizes=[5, 5, 5], pile=bad)  # type: ignore[arg-type]
    # a pile without hand sizes used to be ignored silently
    with pytest.raises(InvalidStateError, match="pile 7 without hand_sizes"):
        Knowledge(deck, 3, 0, hand, pile=7)
    k = Knowledge(deck, 3, 0, hand, hand_sizes=np.array([5, 5, 5]), pile=np.int64(1))
    assert k.hand_sizes == (5, 5, 5) and k.pile_size == 1
    assert Knowledge(deck, 3, 0, hand, pile=1).count() == k.count()


def test_ask_success_must_be_a_bool():
    deck = Deck.standard("AKQJ")
    for bad in ("no", None, 2, float("nan")):
        k = Knowledge(deck, 3, 0, "Ac Ad Qc Jc Js", dealer=0)
        with pytest.raises(InvalidStateError, match="success must be a bool"):
            k.ask(1, 2, "Ks", bad)  # type: ignore[arg-type]
        assert k.events == []
    k = Knowledge(deck, 3, 0, "Ac Ad Qc Jc Js", dealer=0)
    k.ask(1, 2, "Ks", np.bool_(False))
    assert k.events == [Asked(1, 2, k.deck.card("Ks"), False)]


def test_rejected_events_change_nothing():
    deck = Deck.standard("AKQJ")
    hand = "Ac Ad Qc Jc Js"
    fresh = Knowledge(deck, 3, 0, hand, dealer=0)
    before = (fresh.count(), fresh.probabilities())
    bad_events = [
        lambda k: k.ask(0, 1, "Ks", False),  # I hold no king: was logged anyway
        lambda k: k.ask(1, 2, "Ac", True),  # I hold Ac: left a constraint behind (2688 -> 1964 deals)
        lambda k: k.ask(1, 0, "Ah", True),
        lambda k: k.lay(1, "A"),
        lambda k: k.lay(0, "K"),
        lambda k: k.reveal(1, "Ac"),
        lambda k: k.draw(0, "Qc"),
    ]
    for bad in bad_events:
        k = Knowledge(deck, 3, 0, hand, dealer=0)
        k.ask(1, 2, "Ks", False)
        ref = Knowledge(deck, 3, 0, hand, dealer=0)
        ref.ask(1, 2, "Ks", False)
        with pytest.raises(QuartetError):
            bad(k)
        assert k.events == ref.events and k.hand_sizes == ref.hand_sizes and k.pile_size == ref.pile_size
        assert k.count() == ref.count()
        assert np.array_equal(k.probabilities(), ref.probabilities())
        assert k.certain() == ref.certain()
    # and the cached answer of the state before the rejected event stays right
    with pytest.raises(QuartetError):
        fresh.ask(1, 2, "Ac", True)
    assert fresh.count() == before[0] and np.array_equal(fresh.probabilities(), before[1])


def test_from_log_and_from_game_check_their_arguments():
    deck = Deck.standard("AKQJ")
    for bad in (None, 5, "log"):
        with pytest.raises(InvalidStateError, match="log must be a list of events"):
            Knowledge.from_log(deck, bad, 0, "Ac Ad Qc Jc Js")  # type: ignore[arg-type]
    from quartet_solver.kwartet import Dealt

    with pytest.raises(InvalidStateError, match="hand_sizes must be a list"):
        Knowledge.from_log(deck, [Dealt(2, "555", 1)], 0, "Ac Ad Qc Jc Js")  # type: ignore[arg-type]
    g = Game(deck, players=3, seed=1)
    for bad in (5, -1, True, "0"):
        with pytest.raises(InvalidStateError, match="me must be a seat in 0..2"):
            Knowledge.from_game(g, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="game must be a kwartet.Game"):
        Knowledge.from_game(None, 0)  # type: ignore[arg-type]


def test_numpy_integers_are_seats_cards_and_masks():
    """numpy integers (what arrays hold) are accepted wherever an int is, and come
    out as plain ints: the same inference as with ints."""
    deck = Deck.themed()
    g = Game(deck, np.int64(3), seed=5, dealer=np.int32(2))
    assert type(g.players) is int and type(g.dealer) is int
    assert (g.players, g.dealer) == (3, 2)
    k = Knowledge.from_game(g, np.int64(1))
    ref = Knowledge.from_game(g, 1)
    assert type(k.me) is int and np.array_equal(k.probabilities(), ref.probabilities())
    hand = g.initial_hands[0]
    by_mask = Knowledge(deck, np.int8(3), np.int16(0), np.uint64(hand), dealer=2)
    assert by_mask.count() == Knowledge(deck, 3, 0, hand, dealer=2).count()
    # events with numpy seats and card indices
    a = Knowledge(deck, 3, 0, hand, dealer=2)
    b = Knowledge(deck, 3, 0, hand, dealer=2)
    c = next(c for c in range(len(deck)) if not hand >> c & 1 and hand >> (4 * (c // 4)) & 0xF)
    a.ask(0, 1, c, False)
    b.ask(np.int64(0), np.int8(1), np.int32(c), False)
    assert a.events == b.events and a.count() == b.count()
    assert deck.card(np.int64(3)) == 3 and type(deck.card(np.int64(3))) is int
    assert deck.quartet(np.uint8(1)) == 1 and Deck.themed(np.int64(40)) == Deck.themed(40)
    assert Rules(memory=np.int64(4)) == Rules(memory=4) and type(Rules(memory=np.int64(4)).memory) is int
    for bad in (np.float64(1.0), True, "1"):
        with pytest.raises(InvalidStateError, match="me must be a seat"):
            Knowledge(deck, 3, bad, hand)  # type: ignore[arg-type]


def test_variant_events_are_checked_against_the_rules():
    """With the rules known, a reveal needs memory cards and a draw a draw pile;
    the refused event changes nothing.  Without rules both are accepted (the
    variant is unknown)."""
    deck = Deck.standard("AKQJ")
    g = Game(deck, 3, seed=2, rules=Rules())          # 16 cards to 3: one aside
    hand = g.initial_hands[0]
    k = Knowledge(deck, 3, 0, hand, rules=Rules())
    assert k.pile_size == 1
    before = (k.count(), k.probabilities().copy())
    outside = next(c for c in range(16) if not hand >> c & 1)
    with pytest.raises(InvalidStateError, match="no memory cards"):
        k.reveal(1, outside)
    with pytest.raises(InvalidStateError, match="no draw pile"):
        k.draw(0, outside)
    assert k.events == [] and k.count() == before[0] and np.array_equal(k.probabilities(), before[1])
    with pytest.raises(InvalidStateError, match="no memory cards"):
        Knowledge.from_log(deck, [g.log[0], Revealed(1, outside)], 0, hand, rules=Rules())
    # the variant unknown: the reveal is taken (the card was aside)
    free = Knowledge(deck, 3, 0, hand, dealer=0)
    free.reveal(1, outside)
    assert free.events == [Revealed(1, outside)]
    # in a memory game the game's own reveals replay
    m = Game(deck, 3, seed=2, rules=Rules(memory=4))
    m.reveal(0)
    assert Knowledge.from_game(m, 1).events[-1] == m.log[-1]
