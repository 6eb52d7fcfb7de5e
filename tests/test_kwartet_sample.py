"""Knowledge.sample: exactly uniform over the posterior (chi-square against brute-force
enumeration of whole deals), every sample consistent with the log, typed errors."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from reference.kwartet_posterior import brute_deals
from quartet_solver.errors import InvalidStateError
from quartet_solver.kwartet import LAID, PILE, Deck, Game, Knowledge, MemoryBot, NoviceBot, Rules
from quartet_solver.kwartet.game import Asked, Laid, Revealed


def _prefix(deck, players, seed, rules, steps):
    """A game between memory and novice bots, stopped after ``steps`` actions."""
    rng = random.Random(seed)
    g = Game(deck, players=players, seed=seed, rules=rules)
    bots = [rng.choice([NoviceBot, MemoryBot])(seed=seed * 10 + i) for i in range(players)]
    for s, b in enumerate(bots):
        b.start(g, s)
    for _ in range(steps):
        if g.is_over:
            break
        act = bots[g.to_move].choose()
        if act[0] == "ask":
            g.ask(act[1], act[2])
        else:
            g.reveal(act[1])
    return g


def chi2_pvalue(stat: float, df: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty; fine for df >= 5)."""
    if df <= 0:
        return 1.0
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def initial_deal(where: np.ndarray, log, players: int) -> tuple[list[int], int]:
    """Undo the public moves of ``log`` on the locations now: the dealt hands and pile."""
    loc = [int(x) for x in where]
    for ev in reversed(log[1:]):
        if isinstance(ev, Laid):
            for c in range(4 * ev.quartet, 4 * ev.quartet + 4):
                assert loc[c] == LAID
                loc[c] = ev.player
        elif isinstance(ev, Asked) and ev.hit:
            assert loc[ev.card] == ev.asker
            loc[ev.card] = ev.target
        elif isinstance(ev, Revealed):
            assert loc[ev.card] == ev.player
            loc[ev.card] = PILE
    assert LAID not in loc
    hands = [0] * players
    pile = 0
    for c, x in enumerate(loc):
        if x == PILE:
            pile |= 1 << c
        else:
            hands[x] |= 1 << c
    return hands, pile


def check_consistent(g: Game, me: int, deals: np.ndarray) -> None:
    """Every sampled deal replays the game's public log exactly and keeps ``me``'s hand."""
    log = g.private_log(me)
    for row in deals:
        hands, pile = initial_deal(row, log, g.players)
        assert hands[me] == g.initial_hands[me]
        h = Game(g.deck, players=g.players, seed=1, rules=g.rules, dealer=g.dealer,
                 hands=[g.deck.names(m) for m in hands], pile=g.deck.names(pile))
        h.replay(log)  # raises when a consequence (hit, miss, lay) differs


CASES = [
    (Deck.standard("AKQ"), 3, Rules(), 4),
    (Deck.standard("AKQJ"), 3, Rules(), 6),
    (Deck.standard("AKQJ"), 3, Rules(remainder="dealer"), 5),
    (Deck.standard("AKQJ"), 4, Rules(), 3),
    (Deck.standard("AKQJ"), 3, Rules(memory=4), 4),
    (Deck.standard("AKQJ"), 3, Rules(bonus_turn=True), 8),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_sample_uniform_against_bruteforce(case):
    """Chi-square of whole-deal frequencies against the brute-force enumeration of the
    posterior (fixed seeds), on games small enough to list every consistent deal."""
    deck, players, rules, steps = CASES[case]
    tested = 0
    for seed in range(case * 100, case * 100 + 40):
        g = _prefix(deck, players, seed, rules, steps)
        me = seed % players
        k = Knowledge.from_game(g, me)
        deals = brute_deals(len(deck), g.private_log(me), me, g.initial_hands[me])
        assert len(deals) == k.count()
        if not 20 <= len(deals) <= 3000:
            continue
        n = 20 * len(deals)
        got = k.sample(n, seed=seed)
        assert got.shape == (n, len(deck)) and got.dtype == np.int8
        counts = Counter(map(tuple, got.tolist()))
        assert set(counts) <= set(deals), "a sampled deal is not consistent"
        expect = n / len(deals)
        stat = sum((counts.get(d, 0) - expect) ** 2 / expect for d in deals)
        p = chi2_pvalue(stat, len(deals) - 1)
        assert p > 1e-4, (case, seed, len(deals), stat, p)
        tested += 1
        if tested == 2:
            break
    assert tested >= 1


def test_sample_marginals_match_probabilities():
    g = _prefix(Deck.themed("classic"), 4, 11, Rules(), 25)
    k = Knowledge.from_game(g, 2)
    deals = k.sample(20000, seed=3)
    probs = k.probabilities()
    for loc in range(g.players):
        freq = (deals == loc).mean(axis=0)
        assert np.abs(freq - probs[loc]).max() < 0.02
    laid = np.array([g.laid_mask >> c & 1 for c in range(len(g.deck))], dtype=bool)
    assert ((deals == LAID) == laid[None, :]).all()


@pytest.mark.parametrize("rules,players", [(Rules(), 4), (Rules(), 3), (Rules(remainder="dealer"), 5),
                                           (Rules(bonus_turn=True), 4), (Rules(memory=8), 3)])
def test_every_sample_consistent_in_full_games(rules, players):
    """Every sampled deal of a 32-card game replays the public log (hits, misses, lays)."""
    for seed in range(3):
        g = _prefix(Deck.themed("classic"), players, seed, rules, 10 + 12 * seed)
        me = seed % players
        deals = Knowledge.from_game(g, me).sample(40, seed=seed)
        check_consistent(g, me, deals)
        # the true deal's current locations are the same kind of object
        assert ((deals >= LAID) & (deals < players)).all()


def test_sample_deterministic_and_errors():
    k = Knowledge(Deck.standard("AKQJ"), players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    a, b = k.sample(50, seed=7), k.sample(50, seed=7)
    assert (a == b).all()
    assert not (a == k.sample(50, seed=8)).all()
    assert (k.sample(5, seed="text") == k.sample(5, seed="text")).all()
    assert k.sample(0, seed=1).shape == (0, 16)
    assert k.sample(np.int64(3)).shape == (3, 16)
    for bad in (-1, 1.5, True, "3", None, 10**7):
        with pytest.raises(InvalidStateError, match="n must be"):
            k.sample(bad)  # type: ignore[arg-type]
    for bad_seed in (-1, 1.5, [1]):
        with pytest.raises(InvalidStateError, match="seed"):
            k.sample(3, seed=bad_seed)  # type: ignore[arg-type]


def test_sample_with_nothing_unknown():
    """When every card is known (a 3-player game of 12 cards after traced asks) the
    one deal comes back n times."""
    g = _prefix(Deck.standard("AKQ"), 3, 5, Rules(), 40)
    k = Knowledge.from_game(g, 0)
    deals = k.sample(4, seed=1)
    if k.count() == 1:
        assert (deals == deals[0]).all()
    check_consistent(g, 0, deals)
