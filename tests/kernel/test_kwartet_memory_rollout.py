"""Memory Kwartet in the compiled Kwartet kernels: ``_core.kw_rollouts(...,
memory=1)`` and ``_core.kw_ask_likelihood(..., memory=1)`` against the slow
reference ``tests/reference/kwartet_rollout.py``, on positions of real memory games
(cards face down in the middle; instead of asking, a player may turn one up and
take it, and the turn passes).

The rollouts must agree rollout by rollout (the same win share and quartets), with
turning up a middle card among the candidates; on the true deal every reference
rollout is replayed on the rules engine (:class:`~quartet_solver.kwartet.Game`),
which must agree on the player to move, every hit, every card turned up, the lays,
the end and the winner, and each action of a seat playing MemoryBot's policy must be
what a real :class:`~quartet_solver.kwartet.MemoryBot` in that seat would do.  The
likelihood must give the reference's terms on the true deal and on deals from the
posterior; on the true deal of a game of MemoryBots no term is a miss.
"""

from __future__ import annotations

import copy
import math
import random

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from reference.kwartet_rollout import (REVEAL_BELOW, Table, deal_stream, event_tuples, memory_ask_terms, play_out,
                                       rollouts, win_shares)
from quartet_solver import _core
from quartet_solver.kwartet import Deck, Game, InferenceBot, Knowledge, MemoryBot, NoviceBot, PlanningBot, Rules
from quartet_solver.kwartet.knowledge import PILE

RANKS = "23456789TJQKA"
TOL = 1e-9

decks = st.one_of(
    st.integers(4, 13).map(lambda n: Deck.standard(RANKS[:n])),
    st.sampled_from(["classic", "nature", "world"]).map(Deck.themed),
)
memory_rules = st.builds(Rules, memory=st.integers(1, 8), bonus_turn=st.booleans())
models = st.sampled_from(["default", "public", "memory", "mixed"])


def _game(deck: Deck, players: int, rules: Rules, seed: int) -> Game | None:
    """A memory game dealt from ``seed``, or ``None`` where the deck is too small
    for the middle and a card for every player."""
    if len(deck) - rules.memory < players:
        return None
    return Game(deck, players=players, seed=seed, rules=rules)


def _act(g: Game, action: tuple) -> None:
    if action[0] == "ask":
        g.ask(action[1], action[2])
    else:
        g.reveal(action[1])


def _prefix(g: Game, kinds: list[type], seed: int, steps: int, stop_before_end: bool = True) -> Game:
    """``g`` after at most ``steps`` actions of the given bots (one class per seat),
    stopped before an action that would end it when ``stop_before_end``."""
    bots = [kind(seed=seed * 10 + i) for i, kind in enumerate(kinds)]
    for s, b in enumerate(bots):
        b.start(g, s)
    for _ in range(steps):
        if g.is_over:
            break
        before = copy.deepcopy(g) if stop_before_end else None
        _act(g, bots[g.to_move].choose())
        if g.is_over and before is not None:
            return before
    return g


def _memory_rating(bot: MemoryBot) -> tuple[set[tuple[int, int]], float]:
    """The asks a MemoryBot rates best and their score (-1 when it has no ask)."""
    v = bot.view
    assert v is not None
    bot._update()
    keys = {(t, c): (round(s, 9), (v.hand >> (4 * (c // 4)) & 15).bit_count(), bot._public_q >> (c // 4) & 1)
            for s, t, c in bot._scores()}
    if not keys:
        return set(), -1.0
    best = max(keys.values())
    return {a for a, k in keys.items() if k == best}, best[0]


def _replay_on_engine(g: Game, table: Table, free0: int, model: list[int] | None) -> None:
    """A reference rollout on the true deal, action by action on a copy of the game."""
    h = copy.deepcopy(g)
    h._free_misses = free0
    memory: dict[int, MemoryBot] = {}
    for p in range(h.players):
        if model is not None and model[p] == 1:
            memory[p] = MemoryBot(seed=p)
            memory[p].start(h, p)
    for n, (actor, target, card, hit) in enumerate(table.log):
        assert not h.is_over and h.to_move == actor, (n, table.log, h.log)
        if n > 0 and actor in memory:
            best, score = _memory_rating(memory[actor])
            turns_up = h.can_reveal() and score < REVEAL_BELOW
            if target == -1:
                assert turns_up, (n, table.log)
            else:
                assert not turns_up and (target, card) in best, (n, table.log)
        if target == -1:
            assert h.reveal(h._pile.index(card)).card == card
        else:
            assert h.ask(target, card).hit == hit
    assert h.is_over == table.over
    assert list(h.quartets) == table.quartets and h._last_lay == table.last_lay
    assert h.pile == sum(1 << c for c in table.pile)
    if not h.is_over:
        assert h.to_move == table.turn and h._free_misses == table.free_misses
    shares = win_shares(table.quartets, table.last_lay)
    assert {p for p, s in enumerate(shares) if s > 0} == set(h.winners)


def _candidates(g: Game, rng: random.Random, k: int) -> list[tuple[int, int]]:
    """Up to ``k`` legal asks of the player to move (a hit and a miss on the true
    deal where there are any, then random ones), and turning up a middle card."""
    legal = g.legal_asks()
    hits = [a for a in legal if g.hand(a[0]) >> a[1] & 1]
    misses = [a for a in legal if not g.hand(a[0]) >> a[1] & 1]
    out = [rng.choice(group) for group in (hits, misses) if group]
    out += rng.sample(legal, min(len(legal), k))
    out = list(dict.fromkeys(out))[:k]
    if g.can_reveal():
        out.insert(rng.randrange(len(out) + 1), (-1, -1))
    return out


def _model(kind: str, players: int, me: int, rng: random.Random) -> list[int] | None:
    if kind == "default":
        return None
    if kind == "public":
        return [0] * players
    if kind == "memory":
        return [0 if p == me else 1 for p in range(players)]
    return [rng.randrange(2) for _ in range(players)]


def _compare(g: Game, n_deals: int, rng: random.Random, kind: str, seed: int, limit: int) -> tuple[int, bool]:
    """Kernel and reference on the position of ``g`` (its true deal and deals of a
    PlanningBot in the seat to move); returns the rollouts compared and whether a
    rollout on the true deal turned up a middle card."""
    nq, players, me = g.deck.n_quartets, g.players, g.to_move
    bot = PlanningBot(seed=seed % 1000, samples=n_deals)
    bot.start(g, me)
    bot._update()
    true = np.array([[g.hand(p) for p in range(players)] + [g.pile]], dtype=np.uint64)
    deals = np.concatenate([true, bot._deals(n_deals - 1)])
    cands = _candidates(g, rng, 4)
    if not cands:
        return 0, False
    model = _model(kind, players, me, rng)
    free0 = bot._free_misses(me)
    assert free0 == g._free_misses
    bonus = int(g.rules.bonus_turn)
    cand_t = [t for t, _ in cands]
    cand_c = [c for _, c in cands]
    extra = () if model is None else (np.array(model, dtype=np.uint8),)
    share, quart = _core.kw_rollouts(
        nq, players, me, deals, np.array(bot._quartets, dtype=np.int32), np.array(bot._last_lay, dtype=np.int32),
        bot._lay_count, np.array(bot._holder, dtype=np.int8), np.array(bot._notat, dtype=np.uint8),
        np.array(bot._hasq, dtype=np.uint32), np.array(cand_t, dtype=np.int32), np.array(cand_c, dtype=np.int32),
        bonus, free0, 12.0, seed, limit, *extra, memory=1)
    record = (list(bot._quartets), list(bot._last_lay), bot._lay_count, list(bot._holder), list(bot._notat),
              list(bot._hasq))
    deal_lists = [[int(x) for x in row] for row in deals]
    want_share, want_quart = rollouts(nq, players, me, deal_lists, *record, cand_t, cand_c, bonus, free0, 12.0,
                                      seed, limit, model, memory=True)
    assert quart.tolist() == want_quart, (cands, quart.tolist(), want_quart)
    assert share.tolist() == want_share, (cands, share.tolist(), want_share)
    turned = False
    for first in cands:
        table = play_out(nq, players, me, deal_lists[0], *record, first, bonus, free0, 12.0, deal_stream(seed, 0),
                         limit, model, memory=True)
        if table.over:
            assert len(table.completable()) == 0 or not any(table.can_act(p) for p in range(players))
        _replay_on_engine(g, table, free0, model)
        turned = turned or any(t == -1 for _, t, _, _ in table.log)
    return share.size, turned


@settings(max_examples=80, deadline=None, derandomize=True)
@given(deck=decks, players=st.integers(3, 6), rules=memory_rules, steps=st.integers(0, 90), kind=models,
       limit=st.one_of(st.just(10_000), st.integers(1, 12)), seed=st.integers(0, 2**64 - 1),
       game_seed=st.integers(0, 10**6))
def test_rollouts_match_the_reference(deck, players, rules, steps, kind, limit, seed, game_seed):
    """Fresh deals and positions after some actions of memory and novice bots."""
    g = _game(deck, players, rules, game_seed)
    if g is None or g.is_over:
        return
    rng = random.Random(game_seed)
    g = _prefix(g, [rng.choice([MemoryBot, NoviceBot]) for _ in range(players)], game_seed, steps)
    if g.is_over:
        return
    _, turned = _compare(g, 3, rng, kind, seed, limit)
    event("a card turned up" if turned else "no card turned up")


def test_a_player_without_cards_turns_one_up():
    """A seat whose hand is empty must turn up a middle card: positions of memory
    games where a seat has run out and the middle still holds cards."""
    found = 0
    for seed in range(400):
        g = Game(Deck.standard("AKQJT"), players=3, seed=seed, rules=Rules(memory=6))
        bots = [MemoryBot(seed=seed * 10 + i) for i in range(3)]
        for s, b in enumerate(bots):
            b.start(g, s)
        while not g.is_over:
            if 0 in g.hand_sizes and g.can_reveal():
                rng = random.Random(seed)
                assert _compare(g, 2, rng, rng.choice(["public", "memory"]), seed, 10_000)[0] > 0
                found += 1
                break
            _act(g, bots[g.to_move].choose())
        if found >= 5:
            break
    assert found >= 5


def _events(g: Game, me: int) -> np.ndarray:
    bot = PlanningBot(seed=me, samples=4, opponents="memory")
    bot.start(g, me)
    bot._update()
    assert bot._events == event_tuples(g.log)
    return np.array(bot._events, dtype=np.int32).reshape(-1, 4)


def _masks(g: Game, locs: np.ndarray) -> np.ndarray:
    weights = np.left_shift(np.uint64(1), np.arange(len(g.deck), dtype=np.uint64))
    deals = np.zeros((len(locs), g.players + 1), dtype=np.uint64)
    for p in range(g.players):
        deals[:, p] = np.where(locs == p, weights, np.uint64(0)).sum(axis=1, dtype=np.uint64)
    deals[:, g.players] = np.where(locs == PILE, weights, np.uint64(0)).sum(axis=1, dtype=np.uint64)
    return deals


def _value(terms, eps: float) -> float:
    return sum(math.log(1.0 / ties) if best else math.log(eps) for _, best, ties in terms)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(deck=decks, players=st.integers(3, 6), rules=memory_rules,
       kinds=st.lists(st.sampled_from([NoviceBot, MemoryBot, InferenceBot]), min_size=6, max_size=6),
       steps=st.integers(0, 80), me_at=st.integers(0, 5), game_seed=st.integers(0, 10**6),
       sample_seed=st.integers(0, 2**32 - 1), eps=st.sampled_from([0.01, 0.5]))
def test_likelihood_matches_the_reference(deck, players, rules, kinds, steps, me_at, game_seed, sample_seed, eps):
    """``kw_ask_likelihood(..., memory=1)`` on the true deal and deals from ``me``'s
    posterior, every seat a MemoryBot and every seat modelled at random; on the
    true deal a MemoryBot's asks and cards turned up are never misses."""
    g = _game(deck, players, rules, game_seed)
    if g is None:
        return
    me = me_at % players
    g = _prefix(g, kinds[:players], game_seed, steps, stop_before_end=False)
    events = _events(g, me)
    true = np.array([[g.hand(p) for p in range(players)] + [g.pile]], dtype=np.uint64)
    deals = np.concatenate([true, _masks(g, Knowledge.from_game(g, me).sample(3, seed=sample_seed))])
    nq = deck.n_quartets
    rng = random.Random(game_seed)
    for model in ([1] * players, [rng.randrange(2) for _ in range(players)]):
        ll, misses = _core.kw_ask_likelihood(nq, players, me, deals, events, eps, np.array(model, dtype=np.uint8),
                                             12.0, 1)
        for i, deal in enumerate(deals):
            row = [int(x) for x in deal]
            terms = memory_ask_terms(deck, players, me, row[:-1], row[-1], events.tolist(), rules=g.rules,
                                     dealer=g.dealer, model=model)
            for p in range(players):
                mine = [t for t in terms if int(events[t[0]][1]) == p]
                assert misses[i, p] == sum(not best for _, best, _ in mine), (i, p, terms)
                assert abs(ll[i, p] - _value(mine, eps)) <= TOL, (i, p, ll[i].tolist(), terms)
            if i == 0 and model == [1] * players:
                for j, best, _ in terms:
                    if kinds[events[j, 1]] is MemoryBot:
                        assert best, (j, terms)
    if any(e[0] == 2 and e[1] != me for e in events):
        event("an opponent turned a card up")


def test_memory_only_arguments():
    """A candidate turning up a middle card needs memory rules and a middle; a
    reveal event needs memory rules."""
    deck = Deck.standard("AKQJ")
    g = Game(deck, players=3, seed=1, rules=Rules(memory=2))
    bot = PlanningBot(seed=1, samples=2)
    bot.start(g, g.to_move)
    bot._update()
    deals = bot._deals(2)

    def run(cand_t, memory, rows=deals):
        return _core.kw_rollouts(
            4, 3, g.to_move, rows, np.zeros(3, dtype=np.int32), np.full(3, -1, dtype=np.int32), 0,
            np.array(bot._holder, dtype=np.int8), np.array(bot._notat, dtype=np.uint8), np.zeros(3, dtype=np.uint32),
            np.array(cand_t, dtype=np.int32), np.zeros(len(cand_t), dtype=np.int32), 0, 0, 12.0, 5, 100,
            memory=memory)

    assert run([-1], 1)[0].shape == (1, 2)
    for cand_t, memory in (([-1], 0), ([-2], 1), ([3], 1)):
        with pytest.raises(ValueError):
            run(cand_t, memory)
    empty = deals.copy()
    empty[:, 3] = 0
    with pytest.raises(ValueError):
        run([-1], 1, empty)
    events = np.array([[2, 1, 0, 0]], dtype=np.int32)
    with pytest.raises(ValueError):
        _core.kw_ask_likelihood(4, 3, 0, deals, events, 0.1, np.ones(3, dtype=np.uint8), 12.0)
    with pytest.raises(ValueError):
        _core.kw_ask_likelihood(4, 3, 0, deals, np.array([[2, 1, 16, 0]], dtype=np.int32), 0.1,
                                np.ones(3, dtype=np.uint8), 12.0, 1)
