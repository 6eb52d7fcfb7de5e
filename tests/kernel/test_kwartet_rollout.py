"""The compiled Kwartet rollouts (``_core.kw_rollouts``, the lookahead of
:class:`~quartet_solver.kwartet.PlanningBot`) against the slow reference
``tests/reference/kwartet_rollout.py``: rollout by rollout the same win share (the
same float) and the same quartets, on fresh deals and mid-game positions of real
games, with the inputs built as ``PlanningBot.choose`` builds them.

The seats play the shared public-record policy, or MemoryBot's
(``model``: as ``PlanningBot(opponents="memory")`` sets it, or mixed at random).
Memory Kwartet too (``memory=1``: cards face down in the middle, which the seat to
move may turn up and take instead of asking), with turning one up among the
candidates.

The reference's own rules are checked against the rules engine
(:class:`~quartet_solver.kwartet.Game`): on the position's true deal every rollout
is replayed ask by ask on a copy of the game, which must agree on the player to
move, every hit, the lays, the end and the winner; and each ask of a seat playing
MemoryBot's policy must be one of the asks a real MemoryBot in that seat rates best.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from reference.kwartet_rollout import REVEAL_BELOW, Table, deal_stream, play_out, rollouts, win_shares
from quartet_solver import _core
from quartet_solver.kwartet import Deck, Game, MemoryBot, NoviceBot, PlanningBot, Rules
from quartet_solver.kwartet.planning import _after_hit, _Record

RANKS = "23456789TJQKA"

decks = st.one_of(
    st.integers(4, 13).map(lambda n: Deck.standard(RANKS[:n])),
    st.sampled_from(["classic", "nature", "world"]).map(Deck.themed),
)
rules = st.builds(Rules, remainder=st.sampled_from(["pile", "dealer"]), bonus_turn=st.booleans())
memory_rules = st.builds(Rules, memory=st.integers(1, 8), bonus_turn=st.booleans())
odds = st.sampled_from([1.0, 12.0])
max_asks = st.one_of(st.just(10_000), st.integers(1, 12))
models = st.sampled_from(["default", "public", "memory", "novice", "mixed"])


def _act(g: Game, action: tuple) -> None:
    """Play a bot's action: an ask, or (memory Kwartet) a middle card turned up."""
    if action[0] == "ask":
        g.ask(action[1], action[2])
    else:
        g.reveal(action[1])


def _prefix(deck: Deck, players: int, game_rules: Rules, dealer: int, seed: int, steps: int) -> Game:
    """A game between memory and novice bots after at most ``steps`` actions, stopped
    before an action that would end it."""
    rng = random.Random(seed)
    g = Game(deck, players=players, seed=seed, rules=game_rules, dealer=dealer)
    bots = [rng.choice([MemoryBot, NoviceBot])(seed=seed * 10 + i) for i in range(players)]
    for s, b in enumerate(bots):
        b.start(g, s)
    for _ in range(steps):
        if g.is_over:
            break
        action = bots[g.to_move].choose()
        before = copy.deepcopy(g)
        _act(g, action)
        if g.is_over:
            return before
    return g


def _candidates(g: Game, holder: list[int], rng: random.Random, k: int) -> list[tuple[int, int]]:
    """Up to ``k`` legal asks of the player to move: a publicly sure hit, an ask that
    lays a quartet, a hit and a miss (on the true deal) where there are any, then
    random ones."""
    p = g.to_move
    legal = g.legal_asks()
    hand = g.hand(p)

    def hits(t: int, c: int) -> bool:
        return bool(g.hand(t) >> c & 1)

    def lays(t: int, c: int) -> bool:
        return hits(t, c) and (hand | 1 << c) >> (4 * (c // 4)) & 15 == 15

    groups = [[a for a in legal if holder[a[1]] == a[0]], [a for a in legal if lays(*a)],
              [a for a in legal if hits(*a)], [a for a in legal if not hits(*a)]]
    out = [rng.choice(group) for group in groups if group]
    out += rng.sample(legal, min(len(legal), k))
    out = list(dict.fromkeys(out))[:k]
    if g.can_reveal():  # memory Kwartet: turning up a middle card, somewhere among them
        out.insert(rng.randrange(len(out) + 1), (-1, -1))
    return out


def _planner_inputs(g: Game, n_deals: int, bot_seed: int) -> tuple[PlanningBot, np.ndarray]:
    """A PlanningBot started in the seat to move, up to date with the game, and the
    deals it would roll out: the true deal first, then ``n_deals - 1`` of its own."""
    me = g.to_move
    bot = PlanningBot(seed=bot_seed, samples=n_deals)
    bot.start(g, me)
    bot._update()
    true = np.array([[g.hand(p) for p in range(g.players)] + [g.pile]], dtype=np.uint64)
    deals = np.concatenate([true, bot._deals(n_deals - 1)]) if n_deals > 1 else true
    # the bot's public record is the game's
    assert bot._quartets == list(g.quartets)
    assert bot._last_lay == g._last_lay and bot._lay_count == g._lay_count
    return bot, deals


def _model(kind: str, players: int, me: int, rng: random.Random) -> list[int] | None:
    """The seats' policies: none given (the kernel's default), all the shared one,
    the opponents MemoryBot's (as PlanningBot(opponents="memory")) or NoviceBot's
    (as PlanningBot(opponents="novice")), or at random."""
    if kind == "default":
        return None
    if kind == "public":
        return [0] * players
    if kind == "memory":
        return [0 if p == me else 1 for p in range(players)]
    if kind == "novice":
        return [0 if p == me else 2 for p in range(players)]
    return [rng.randrange(3) for _ in range(players)]


def _compare(g: Game, bot: PlanningBot, deals: np.ndarray, cands: list[tuple[int, int]], free0: int,
             collector_odds: float, seed: int, limit: int, model: list[int] | None = None) -> int:
    """The kernel and the reference on the same inputs (memory Kwartet where the
    game's rules say so): equal results; the reference's rollouts on the true deal
    (row 0) replayed on the engine.  Returns the number of rollouts compared."""
    nq, players, me = g.deck.n_quartets, g.players, g.to_move
    bonus = int(g.rules.bonus_turn)
    cand_t = [t for t, _ in cands]
    cand_c = [c for _, c in cands]
    memory = bool(g.rules.memory)
    extra = () if model is None else (np.array(model, dtype=np.uint8),)
    share, quart = _core.kw_rollouts(
        nq, players, me, deals, np.array(bot._quartets, dtype=np.int32), np.array(bot._last_lay, dtype=np.int32),
        bot._lay_count, np.array(bot._holder, dtype=np.int8), np.array(bot._notat, dtype=np.uint8),
        np.array(bot._hasq, dtype=np.uint32), np.array(cand_t, dtype=np.int32), np.array(cand_c, dtype=np.int32),
        bonus, free0, collector_odds, seed, limit, *extra, memory=int(memory))
    deal_lists = [[int(x) for x in row] for row in deals]
    args = (nq, players, me)
    record = (list(bot._quartets), list(bot._last_lay), bot._lay_count, list(bot._holder), list(bot._notat),
              list(bot._hasq))
    want_share, want_quart = rollouts(*args, deal_lists, *record, cand_t, cand_c, bonus, free0, collector_odds,
                                      seed, limit, model, memory=memory)
    assert share.shape == quart.shape == (len(cands), len(deals))
    assert quart.tolist() == want_quart, (cands, quart.tolist(), want_quart)
    assert share.tolist() == want_share, (cands, share.tolist(), want_share)

    for i, deal in enumerate(deal_lists):
        for first in cands:
            table = play_out(*args, deal, *record, first, bonus, free0, collector_odds, deal_stream(seed, i),
                             limit, model, memory=memory)
            _check_rules(table, nq, limit)
            if i == 0:
                _replay_on_engine(g, table, free0, model)
    return len(cands) * len(deals)


def _check_rules(table: Table, nq: int, limit: int) -> None:
    """Facts of the rules on a finished (or truncated) reference rollout."""
    shares = win_shares(table.quartets, table.last_lay)
    assert sum(shares) == 1
    assert sum(table.quartets) <= nq
    assert len(table.log) <= max(limit, 1)
    if table.over:
        assert not table.completable() or not any(table.can_act(p) for p in range(table.players))
    else:
        assert len(table.log) == max(limit, 1)
    lays = [x for x in table.last_lay if x >= 0]
    assert len(lays) == len(set(lays)) and all(x < table.lay_count for x in lays)


def _memory_best(bot: MemoryBot) -> tuple[set[tuple[int, int]], float]:
    """The asks a MemoryBot rates best (its choice among them is random) and their
    score (-1 when it has no ask)."""
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
    """A reference rollout on the true deal, action by action on a copy of the game
    (a target of -1: a middle card turned up); a MemoryBot-model seat's actions are
    what a real MemoryBot would do (turn a card up exactly when it may and rates its
    best ask below the bar)."""
    h = copy.deepcopy(g)
    h._free_misses = free0  # the free misses the rollout starts with
    memory: dict[int, MemoryBot] = {}
    for p in range(h.players):
        if model is not None and model[p] == 1:
            memory[p] = MemoryBot(seed=p)
            memory[p].start(h, p)
    for n, (asker, target, card, hit) in enumerate(table.log):
        assert not h.is_over and h.to_move == asker, (table.log, h.log)
        if n > 0 and asker in memory:
            best, score = _memory_best(memory[asker])
            turns_up = h.can_reveal() and score < REVEAL_BELOW
            assert (target == -1) == turns_up, (n, table.log)
            assert target == -1 or (target, card) in best, (n, table.log)
        if target == -1:
            assert h.reveal(h._pile.index(card)).card == card
        else:
            assert h.ask(target, card).hit == hit
    assert h.is_over == table.over
    assert list(h.quartets) == table.quartets and h._last_lay == table.last_lay
    assert h.pile == sum(1 << c for c in table.pile)
    if not h.is_over:
        assert h.to_move == table.turn and h._free_misses == table.free_misses
    winners = set(h.winners)
    shares = win_shares(table.quartets, table.last_lay)
    assert {p for p, s in enumerate(shares) if s > 0} == winners


@settings(max_examples=60, deadline=None, derandomize=True)
@given(deck=decks, players=st.integers(3, 6), game_rules=rules, dealer_at=st.integers(0, 5),
       free0=st.integers(0, 2), collector_odds=odds, limit=max_asks, kind=models,
       seed=st.integers(0, 2**64 - 1), game_seed=st.integers(0, 10**6))
def test_fresh_deals(deck, players, game_rules, dealer_at, free0, collector_odds, limit, kind, seed, game_seed):
    """The first decision of a game: the dealt hands (the remainder aside or with the
    dealer, quartets dealt complete laid at once), every deal the planner would draw,
    any free misses."""
    g = Game(deck, players=players, seed=game_seed, rules=game_rules, dealer=dealer_at % players)
    if g.is_over:
        return
    bot, deals = _planner_inputs(g, 4, game_seed)
    rng = random.Random(game_seed)
    cands = _candidates(g, bot._holder, rng, 5)
    model = _model(kind, players, g.to_move, rng)
    assert _compare(g, bot, deals, cands, free0, collector_odds, seed, limit, model) > 0


@settings(max_examples=60, deadline=None, derandomize=True)
@given(deck=decks, players=st.integers(3, 6), game_rules=rules, dealer_at=st.integers(0, 5),
       steps=st.integers(1, 80), collector_odds=odds, limit=max_asks, kind=models,
       seed=st.integers(0, 2**64 - 1), game_seed=st.integers(0, 10**6))
def test_mid_game(deck, players, game_rules, dealer_at, steps, collector_odds, limit, kind, seed, game_seed):
    """Positions of real games after some asks of memory and novice bots, with the
    public record, lays and free misses a PlanningBot in the seat to move reads."""
    g = _prefix(deck, players, game_rules, dealer_at % players, game_seed, steps)
    if g.is_over:
        return
    bot, deals = _planner_inputs(g, 4, game_seed)
    free0 = bot._free_misses(g.to_move)
    assert free0 == g._free_misses
    rng = random.Random(game_seed)
    cands = _candidates(g, bot._holder, rng, 5)
    model = _model(kind, players, g.to_move, rng)
    assert _compare(g, bot, deals, cands, free0, collector_odds, seed, limit, model) > 0


@settings(max_examples=80, deadline=None, derandomize=True)
@given(deck=decks, players=st.integers(3, 6), game_rules=memory_rules, steps=st.integers(0, 90),
       limit=max_asks, kind=models, seed=st.integers(0, 2**64 - 1), game_seed=st.integers(0, 10**6))
def test_memory_kwartet(deck, players, game_rules, steps, limit, kind, seed, game_seed):
    """Memory Kwartet: fresh deals and positions after some actions (asks and cards
    turned up) of memory and novice bots, turning up a middle card among the
    candidates."""
    if len(deck) - game_rules.memory < players:
        return  # too few cards for the middle and a card each
    g = _prefix(deck, players, game_rules, players - 1, game_seed, steps)
    if g.is_over:
        return
    bot, deals = _planner_inputs(g, 3, game_seed)
    rng = random.Random(game_seed)
    cands = _candidates(g, bot._holder, rng, 4)
    model = _model(kind, players, g.to_move, rng)
    free0 = bot._free_misses(g.to_move)
    assert free0 == g._free_misses
    assert _compare(g, bot, deals, cands, free0, 12.0, seed, limit, model) > 0
    event("a card may be turned up" if g.can_reveal() else "the middle is empty")


def test_memory_kwartet_player_without_cards_turns_one_up():
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
                bot, deals = _planner_inputs(g, 2, seed)
                cands = _candidates(g, bot._holder, rng, 4)
                model = _model(rng.choice(["public", "memory"]), 3, g.to_move, rng)
                assert _compare(g, bot, deals, cands, g._free_misses, 12.0, seed, 10_000, model) > 0
                found += 1
                break
            _act(g, bots[g.to_move].choose())
        if found >= 5:
            break
    assert found >= 5


def test_memory_only_arguments():
    """A candidate turning up a middle card needs memory rules and a middle; a
    reveal event needs memory rules."""
    g = Game(Deck.standard("AKQJ"), players=3, seed=1, rules=Rules(memory=2))
    bot, deals = _planner_inputs(g, 3, 1)

    def run(cand_t, memory, rows=deals):
        return _core.kw_rollouts(
            4, 3, g.to_move, rows, np.zeros(3, dtype=np.int32), np.full(3, -1, dtype=np.int32), 0,
            np.array(bot._holder, dtype=np.int8), np.array(bot._notat, dtype=np.uint8), np.zeros(3, dtype=np.uint32),
            np.array(cand_t, dtype=np.int32), np.zeros(len(cand_t), dtype=np.int32), 0, 0, 12.0, 5, 100,
            memory=memory)

    assert run([-1], 1)[0].shape == (1, 3)
    for cand_t, memory in (([-1], 0), ([-2], 1), ([3], 1)):
        with pytest.raises(ValueError):
            run(cand_t, memory)
    empty = deals.copy()
    empty[:, 3] = 0
    with pytest.raises(ValueError):
        run([-1], 1, empty)
    with pytest.raises(ValueError):
        _core.kw_ask_likelihood(4, 3, 0, deals, np.array([[2, 1, 0, 0]], dtype=np.int32), 0.1,
                                np.ones(3, dtype=np.uint8), 12.0)
    with pytest.raises(ValueError):
        _core.kw_ask_likelihood(4, 3, 0, deals, np.array([[2, 1, 16, 0]], dtype=np.int32), 0.1,
                                np.ones(3, dtype=np.uint8), 12.0, 1)


def test_candidates_share_a_stream_per_deal():
    """One stream per deal, fresh for every candidate: the same candidate twice gives
    the same rollouts (also against the reference, from the largest seed)."""
    g = Game(Deck.standard("AKQJ"), players=3, seed=4)
    bot, deals = _planner_inputs(g, 3, 4)
    cands = _candidates(g, bot._holder, random.Random(4), 3)
    cands = cands + cands[:1]
    assert _compare(g, bot, deals, cands, 0, 12.0, 2**64 - 1, 10_000) == 3 * len(cands)
    share, quart = _core.kw_rollouts(
        4, 3, g.to_move, deals, np.array(bot._quartets, dtype=np.int32), np.array(bot._last_lay, dtype=np.int32),
        bot._lay_count, np.array(bot._holder, dtype=np.int8), np.array(bot._notat, dtype=np.uint8),
        np.array(bot._hasq, dtype=np.uint32), np.array([t for t, _ in cands], dtype=np.int32),
        np.array([c for _, c in cands], dtype=np.int32), 0, 0, 12.0, 7, 10_000)
    assert share[0].tolist() == share[-1].tolist() and quart[0].tolist() == quart[-1].tolist()


def test_policy_models_checked():
    """An unknown policy model, or one for too few seats, raises ValueError."""
    g = Game(Deck.standard("AKQJ"), players=3, seed=4)
    bot, deals = _planner_inputs(g, 2, 4)
    cands = _candidates(g, bot._holder, random.Random(4), 2)

    def run(*extra):
        return _core.kw_rollouts(
            4, 3, g.to_move, deals, np.array(bot._quartets, dtype=np.int32),
            np.array(bot._last_lay, dtype=np.int32), bot._lay_count, np.array(bot._holder, dtype=np.int8),
            np.array(bot._notat, dtype=np.uint8), np.array(bot._hasq, dtype=np.uint32),
            np.array([t for t, _ in cands], dtype=np.int32), np.array([c for _, c in cands], dtype=np.int32),
            0, 0, 12.0, 7, 10_000, *extra)

    run(np.array([0, 1, 1], dtype=np.uint8))
    run(np.array([2, 0, 2], dtype=np.uint8))
    for model in ([0, 3, 0], [1, 1]):
        with pytest.raises(ValueError):
            run(np.array(model, dtype=np.uint8))


def _hit_asks(g: Game, deals: np.ndarray) -> list[tuple[tuple[int, int], np.ndarray]]:
    """The legal asks of the seat to move that hit on some of ``deals`` and leave it
    to move (it keeps cards and another seat has some), each with its hit deals."""
    me, hand, sizes = g.to_move, g.hand(g.to_move), g.hand_sizes
    out = []
    for t, c in g.legal_asks():
        q = c // 4
        after = hand | 1 << c
        if after >> (4 * q) & 15 == 15:
            after &= ~(15 << (4 * q))
        if not after or not any(sizes[o] - (o == t) for o in range(g.players) if o != me):
            continue
        hit = ((deals[:, t] >> np.uint64(c)) & np.uint64(1)).astype(bool)
        if hit.any():
            out.append(((t, c), hit))
    return out


@settings(max_examples=60, deadline=None, derandomize=True)
@given(deck=decks, players=st.integers(3, 6), game_rules=rules, dealer_at=st.integers(0, 5),
       steps=st.integers(0, 60), collector_odds=odds, kind=models, seed=st.integers(0, 2**64 - 1),
       game_seed=st.integers(0, 10**6), prefer_lay=st.booleans())
def test_after_a_hit(deck, players, game_rules, dealer_at, steps, collector_odds, kind, seed, game_seed,
                     prefer_lay):
    """The planner's inputs after a hit (``planning._after_hit``, how its deeper
    asks are rolled out), a lay included: the deals and public record equal the
    reference table's after that ask, and rolling out a next ask from them gives
    the reference's rollouts with both asks forced, rollout by rollout (on the
    deals where the game goes on)."""
    g = _prefix(deck, players, game_rules, dealer_at % players, game_seed, steps)
    if g.is_over:
        return
    bot, deals = _planner_inputs(g, 6, game_seed)
    rng = random.Random(game_seed)
    hits = _hit_asks(g, deals)
    me, nq = g.to_move, deck.n_quartets
    lays = [h for h in hits if (g.hand(me) | 1 << h[0][1]) >> (4 * (h[0][1] // 4)) & 15 == 15]
    if prefer_lay and lays:
        hits = lays
    if not hits:
        return
    (t, c), hit = rng.choice(hits)
    free0 = bot._free_misses(me)
    bonus = int(g.rules.bonus_turn)
    record = _Record(np.array(bot._holder, dtype=np.int8), np.array(bot._notat, dtype=np.uint8),
                     np.array(bot._hasq, dtype=np.uint32), np.array(bot._quartets, dtype=np.int32),
                     np.array(bot._last_lay, dtype=np.int32), bot._lay_count, free0)
    d2, r2 = _after_hit(deals[hit], me, t, c, record, bool(bonus))
    args = (list(bot._quartets), list(bot._last_lay), bot._lay_count, list(bot._holder), list(bot._notat),
            list(bot._hasq))
    sub = [[int(x) for x in row] for row in deals[hit]]
    going = []
    for i, deal in enumerate(sub):
        table = play_out(nq, players, me, deal, *args, (t, c), bonus, free0, collector_odds, deal_stream(seed, i), 1)
        assert table.log == [(me, t, c, True)]
        assert [sum(1 << x for x in h) for h in table.hands] == [int(x) for x in d2[i, :players]]
        assert sum(1 << x for x in table.pile) == int(d2[i, players])
        assert table.holder == r2.holder.tolist()
        assert [sum(1 << s for s in m) for m in table.not_at] == r2.notat.tolist()
        assert [sum(1 << q for q in a) for a in table.asked_for] == r2.hasq.tolist()
        assert table.quartets == r2.quartets.tolist() and table.last_lay == r2.last.tolist()
        assert table.lay_count == r2.lay_count and table.free_misses == r2.free
        if not table.over:
            assert table.turn == me
            going.append(i)
    if not going:
        return
    hand = int(d2[0, me])
    sizes = [int(x).bit_count() for x in d2[0, :players]]
    nxt = [(t2, c2) for t2 in range(players) for c2 in range(4 * nq)
           if t2 != me and sizes[t2] and not hand >> c2 & 1 and hand >> (4 * (c2 // 4)) & 15]
    nxt = rng.sample(nxt, min(3, len(nxt)))
    model = _model(kind, players, me, rng)
    extra = () if model is None else (np.array(model, dtype=np.uint8),)
    share, quart = _core.kw_rollouts(
        nq, players, me, d2[going], r2.quartets, r2.last, r2.lay_count, r2.holder, r2.notat, r2.hasq,
        np.array([x for x, _ in nxt], dtype=np.int32), np.array([x for _, x in nxt], dtype=np.int32), bonus,
        r2.free, collector_odds, seed, 10_000, *extra)
    for k, second in enumerate(nxt):
        for j, i in enumerate(going):
            table = play_out(nq, players, me, sub[i], *args, (t, c), bonus, free0, collector_odds,
                             deal_stream(seed, j), 10_000, model, then=(second,))
            assert share[k, j] == float(win_shares(table.quartets, table.last_lay)[me])
            assert quart[k, j] == table.quartets[me]
    event("a lay" if r2.lay_count > bot._lay_count else "a hit")
