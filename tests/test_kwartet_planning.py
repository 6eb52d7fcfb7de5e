"""PlanningBot: legal in every rule option, deterministic for a seed, typed errors,
and its rollout kernel's bookkeeping."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.kwartet_rollout import memory_ask_terms, memory_log_likelihood, novice_ask_terms
from quartet_solver import _core
from quartet_solver import kwartet as kw
from quartet_solver.errors import InvalidStateError
from quartet_solver.kwartet import Deck, Game, PlanningBot, Rules, play, simulate


class Checked(PlanningBot):
    """A PlanningBot that checks each of its actions against the game's legal ones."""

    def choose(self):  # type: ignore[no-untyped-def]
        action = super().choose()
        g = self.view._game  # type: ignore[union-attr]
        if action[0] == "ask":
            assert (action[1], action[2]) in g.legal_asks(), (action, g.legal_asks())
        else:
            assert g.can_reveal() and 0 <= action[1] < g.pile_size
        return action


RULES = [Rules(), Rules(remainder="dealer"), Rules(bonus_turn=True), Rules(draw_pile=8), Rules(memory=8),
         Rules(bonus_turn=True, remainder="dealer"), Rules(bonus_turn=True, memory=4)]


@pytest.mark.parametrize("rules", RULES, ids=repr)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_never_illegal(rules, players):
    for seed in range(2):
        g = Game(Deck.themed("classic"), players=players, seed=seed, rules=rules)
        bots = [Checked(seed=seed + i, samples=6, candidates=4, depth=1 + i) if i % 2 == 0
                else kw.InferenceBot(seed=i) for i in range(players)]
        play(g, bots)
        assert g.is_over


def test_standard_deck_six_players_and_bonus():
    g = Game(Deck.standard("AKQJT9"), players=6, seed=3, rules=Rules(bonus_turn=True))
    play(g, [Checked(seed=i, samples=4) for i in range(6)])
    assert g.is_over


def test_deterministic_for_a_seed_and_recorded():
    def run():
        g = Game(Deck.themed("classic"), players=4, seed=9)
        bots = [PlanningBot(seed=5, samples=10), kw.MemoryBot(seed=1), kw.MemoryBot(seed=2), kw.MemoryBot(seed=3)]
        play(g, bots)
        return g.log, bots[0]
    (log_a, a), (log_b, b) = run(), run()
    assert log_a == log_b
    assert a.decisions > 0 and a.rollouts > 0
    d = a.last_decision
    assert d is not None and 0 <= d.chosen < len(d.candidates) == len(d.values) == len(d.prior)
    assert set(d.to_dict()) == {"candidates", "prior", "values", "errors", "rollouts", "seconds", "chosen"}


def test_time_budget_runs_rounds():
    g = Game(Deck.themed("classic"), players=4, seed=2)
    bot = PlanningBot(seed=1, samples=4, time_budget=0.02)
    play(g, [bot, kw.MemoryBot(seed=1), kw.MemoryBot(seed=2), kw.MemoryBot(seed=3)])
    assert bot.rollouts > 0


def test_simulate_and_make_bot_know_planning():
    assert isinstance(kw.make_bot("planning", seed=1), PlanningBot)
    r = simulate(["planning", "memory", "novice"], games=3, seed=1, deck=Deck.standard("AKQJT9"))
    assert [s.name for s in r.stats] == ["planning", "memory", "novice"]


@pytest.mark.parametrize("options,match", [
    ({"samples": 0}, "samples"), ({"samples": 2.5}, "samples"), ({"candidates": True}, "candidates"),
    ({"time_budget": 0}, "time_budget"), ({"time_budget": float("nan")}, "time_budget"),
    ({"time_budget": "1"}, "time_budget"), ({"quartet_weight": -1}, "quartet_weight"),
    ({"seed": -3}, "seed"), ({"opponents": "greedy"}, "opponents"), ({"opponents": 1}, "opponents"),
    ({"depth": 0}, "depth"), ({"depth": 1.5}, "depth"), ({"followups": 0}, "followups"),
    ({"followups": "3"}, "followups"), ({"diverse": -1}, "diverse"), ({"diverse": 1.5}, "diverse"),
    ({"diverse": True}, "diverse"),
])
def test_bad_options(options, match):
    with pytest.raises(InvalidStateError, match=match):
        PlanningBot(**options)


def test_opponent_models():
    assert kw.OPPONENT_MODELS == ("auto", "memory", "public", "novice")
    assert PlanningBot(seed=1).opponents == "auto" and PlanningBot(seed=1).opponent_models == ()
    assert "opponents" not in repr(PlanningBot(seed=1))
    assert "opponents='memory'" in repr(PlanningBot(seed=1, opponents="Memory"))
    for model in kw.OPPONENT_MODELS:
        g = Game(Deck.themed("classic"), players=4, seed=4)
        bot = Checked(seed=2, samples=20, opponents=model)
        play(g, [kw.MemoryBot(seed=1), bot, kw.InferenceBot(seed=3), kw.NoviceBot(seed=4)])
        assert g.is_over and bot.decisions > 0
        models = bot.opponent_models
        assert models[1] is None and len(models) == 4 and set(models) <= {None, "memory", "public", "novice"}
        if model != "auto":
            assert models == (model, None, model, model)


def test_auto_tells_random_askers_apart():
    """``"auto"`` models NoviceBots as random askers once they have asked a while, and
    never MemoryBots or InferenceBots; the random-asker model needs a lead of more
    than ``novice_prior`` in log evidence, the others win ties (MemoryBot's first)."""
    from quartet_solver.kwartet.planning import _pick_model

    for kind, steps in ((kw.NoviceBot, 40), (kw.MemoryBot, 18), (kw.InferenceBot, 18)):
        seen = 0
        for seed in range(8):
            g = _classic_game(seed, steps, [kind] * 4)
            if g.is_over:
                continue
            bot = PlanningBot(seed=seed, samples=50)
            bot.start(g, g.to_move)
            bot._update()
            bot._deals(50)
            others = [m for p, m in enumerate(bot.opponent_models) if p != g.to_move]
            if kind is kw.NoviceBot:
                assert others == ["novice"] * 3, (seed, others)
            else:
                assert "novice" not in others, (kind, seed, others)
            seen += 1
        assert seen >= 5, kind
    assert _pick_model(np.array([-3.0, -3.0, -3.0]), 1.0) == 1
    assert _pick_model(np.array([-3.0, -2.0, -3.0]), 1.0) == 0
    assert _pick_model(np.array([-3.0, -4.0, -2.0]), 1.0) == 1  # a lead of 1: not more
    assert _pick_model(np.array([-3.0, -4.0, -1.9]), 1.0) == 2
    assert _pick_model(np.array([-3.0, -4.0, -2.9]), 0.0) == 2


def _classic_game(seed: int, steps: int, kinds: list[type]) -> Game:
    """A 4-player classic-deck game of bots of ``kinds`` (one per seat) after
    ``steps`` asks, or over sooner."""
    g = Game(Deck.themed("classic"), players=4, seed=seed)
    bots = [kind(seed=i) for i, kind in enumerate(kinds)]
    for i, b in enumerate(bots):
        b.start(g, i)
    while not g.is_over and g.asks < steps:
        g.ask(*bots[g.to_move].choose()[1:])
    return g


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60),
       model=st.sampled_from(["auto", "memory", "public", "novice"]))
def test_weighted_deals_fit_the_position(seed, steps, model):
    """The deals the bot rolls out on, whatever their weights, are deals of the
    position: its own hand, the hand sizes, the laid cards nowhere, the rest dealt
    once; and on them every ask so far replays (the likelihood kernel's replay
    finds the hits where they were)."""
    g = _classic_game(seed, steps, [kw.MemoryBot] * 4)
    if g.is_over:
        return
    me = g.to_move
    bot = PlanningBot(seed=seed, samples=30, opponents=model)
    bot.start(g, me)
    bot._update()
    deals = bot._deals(30)
    assert deals.shape == (30, 5)
    laid = sum(0xF << (4 * q) for q in range(8) if any(q in qs for qs in g.laid))
    for row in deals.tolist():
        assert row[me] == g.hand(me)
        assert [m.bit_count() for m in row[:4]] == list(g.hand_sizes) and row[4] == 0
        union = 0
        for m in row:
            assert not union & m
            union |= m
        assert union == g.deck.full_mask & ~laid


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), steps=st.integers(4, 50), me=st.integers(0, 3),
       kinds=st.lists(st.sampled_from([kw.MemoryBot, kw.InferenceBot, kw.NoviceBot]), min_size=4, max_size=4),
       model=st.sampled_from(["auto", "memory", "public", "novice"]))
def test_deal_weights(seed, steps, me, kinds, model):
    """The log weight of each uniform draw: with ``"auto"``, ``"memory"`` and
    ``"novice"`` the sum over the opponents of the log-likelihood of their asks under
    NoviceBot's policy for an opponent modelled as a random asker, else under
    MemoryBot's (the reference replays the deal on the engine with real MemoryBots,
    or counts the legal asks), also where ``"auto"`` gives an opponent the shared
    policy in the rollouts; with ``"public"`` log(12) per untraced card an opponent
    holds of a quartet it asked for, counted here from the events."""
    g = _classic_game(seed, steps, kinds)
    if g.is_over:
        return
    bot = PlanningBot(seed=seed, samples=4, opponents=model)
    bot.start(g, me)
    bot._update()
    deals, logw = bot._draw(3)
    events = [tuple(int(x) for x in e) for e in bot._events]
    asked = [0] * 4  # quartets each seat asked for, and not laid since
    traced = {}  # card -> seat that publicly received it
    for e in g.log:
        if isinstance(e, kw.Asked):
            asked[e.asker] |= 1 << (e.card // 4)
            if e.hit:
                traced[e.card] = e.asker
        elif isinstance(e, kw.Laid):
            for p in range(4):
                asked[p] &= ~(1 << e.quartet)
    for row, w in zip(deals.tolist(), logw.tolist()):
        if model == "public":
            want = math.log(12.0) * sum(
                1 for p in range(4) if p != me for c in range(32)
                if asked[p] >> (c // 4) & 1 and c not in traced and row[p] >> c & 1)
        else:
            log_eps = math.log(bot.model_eps)
            mem = memory_ask_terms(g.deck, 4, me, row[:4], row[4], events)
            nov = novice_ask_terms(g.deck, 4, me, row[:4], row[4], events)
            want = 0.0
            for p in range(4):
                if p == me:
                    continue
                if bot.opponent_models[p] == "novice":
                    want += sum(log_eps if pr is None else math.log(pr) for j, pr in nov if events[j][1] == p)
                else:
                    want += sum(-math.log(ties) if best else log_eps for j, best, ties in mem if events[j][1] == p)
            if model == "memory" and "novice" not in bot.opponent_models:
                assert want == pytest.approx(memory_log_likelihood(g.deck, 4, me, row[:4], row[4], events,
                                                                   bot.model_eps), abs=1e-9)
        assert w == pytest.approx(want, abs=1e-9), (row, events)
    if model in ("memory", "novice", "public"):
        assert bot.opponent_models == tuple(None if p == me else model for p in range(4))


def test_choose_before_start():
    with pytest.raises(InvalidStateError, match="not been started"):
        PlanningBot(seed=1).choose()


def _kernel(deals, cand, quartets=(0, 0, 0), last=(-1, -1, -1), lay_count=0, nq=3, bonus=0, free=0):
    n = 4 * nq
    return _core.kw_rollouts(
        nq, 3, 0, np.array(deals, dtype=np.uint64), np.array(quartets, dtype=np.int32),
        np.array(last, dtype=np.int32), lay_count, np.full(n, -1, dtype=np.int8), np.zeros(n, dtype=np.uint8),
        np.zeros(3, dtype=np.uint32), np.array([t for t, _ in cand], dtype=np.int32),
        np.array([c for _, c in cand], dtype=np.int32), bonus, free, 12.0, 1, 10_000)


def test_rollout_kernel_outcomes():
    # 3 quartets of 4 cards (bits 0-11); seat 0 holds 0,1,2 and asks seat 1 for card 3
    d = Deck.standard("AKQ")
    hands = [d.mask("Ac Ad Ah"), d.mask("As Kc Kd Kh"), d.mask("Ks Qc Qd Qh Qs")]
    deals = [[*hands, 0]]
    share, quart = _kernel(deals, [(1, d.card("As")), (2, d.card("As"))])
    # the hit completes the aces at once: 1 quartet at least, and the first lay wins ties
    assert quart[0, 0] >= 1
    assert share.shape == quart.shape == (2, 1)
    assert 0.0 <= share.min() and share.max() <= 1.0
    # a miss at seat 2 passes the turn; seat 1 asks seat 0 or 2 next, the game still ends
    assert 0 <= quart[1, 0] <= 3


def test_rollout_kernel_bad_shapes():
    with pytest.raises(ValueError):
        _core.kw_rollouts(3, 3, 5, np.zeros((1, 4), dtype=np.uint64), np.zeros(3, dtype=np.int32),
                          np.zeros(3, dtype=np.int32), 0, np.zeros(12, dtype=np.int8), np.zeros(12, dtype=np.uint8),
                          np.zeros(3, dtype=np.uint32), np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32),
                          0, 0, 12.0, 1, 100)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(cards=st.integers(1, 52), players=st.integers(2, 6), deals=st.integers(1, 5), data=st.data())
def test_location_masks(cards, players, deals, data):
    """The planner's deal masks, card by card: each seat's mask holds the cards at that
    seat, the last one the pile's; laid cards are in none."""
    from quartet_solver.kwartet.knowledge import LAID, PILE
    from quartet_solver.kwartet.planning import _masks

    places = list(range(players)) + [PILE, LAID]
    locs = np.array(data.draw(st.lists(st.lists(st.sampled_from(places), min_size=cards, max_size=cards),
                                       min_size=deals, max_size=deals)), dtype=np.int8)
    got = _masks(locs, players)
    assert got.dtype == np.uint64 and got.shape == (deals, players + 1)
    for i in range(deals):
        want = [sum(1 << c for c in range(cards) if locs[i, c] == p) for p in list(range(players)) + [PILE]]
        assert [int(x) for x in got[i]] == want


def test_one_candidate_asks_the_inference_choice():
    """With one candidate there is nothing to compare: every ask has the best
    inference estimate of its position (never the pass that cannot hit)."""

    class One(PlanningBot):
        def choose(self):  # type: ignore[no-untyped-def]
            self._update()
            best = max(s for s, _, _ in self._scores()) if self.knowledge is not None else None
            action = super().choose()
            if best is not None:
                prior = {(t, c): s for s, t, c in self._scores()}
                assert prior[(action[1], action[2])] == best, (action, best)
            return action

    for seed in range(3):
        g = Game(Deck.themed("classic"), players=4, seed=seed)
        bots = [One(seed=seed, samples=8, candidates=1)] + [kw.MemoryBot(seed=seed + i) for i in range(1, 4)]
        play(g, bots)
        assert g.is_over


class _Recorded:
    """``_core.kw_rollouts`` that keeps every call's inputs and outputs."""

    def __init__(self, real):  # type: ignore[no-untyped-def]
        self.real, self.calls = real, []

    def __call__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        out = self.real(*args, **kwargs)
        self.calls.append((args, out))
        self.options = kwargs
        return out


@pytest.mark.parametrize("rules", [Rules(), Rules(bonus_turn=True), Rules(remainder="dealer"), Rules(memory=4)],
                         ids=repr)
@pytest.mark.parametrize("players", [3, 4])
def test_next_ask_is_one_choice_per_information_set(monkeypatch, rules, players):
    """``PlanningBot._follow`` (the asks after a hit, ``depth`` > 1): the deals it
    returns are those where the ask hits (less those where the game ends), and
    its values there are the rollouts of one next ask, the same on every such deal
    (the bot cannot tell them apart), rolled out from those deals with the hit
    applied."""
    from quartet_solver.kwartet import planning
    from quartet_solver.kwartet.planning import _after_hit, _Record

    followed = lays = 0
    for seed in range(8):
        g = Game(Deck.themed("classic"), players=players, seed=seed, rules=rules)
        bots = [PlanningBot(seed=seed, samples=40)] + [kw.MemoryBot(seed=i) for i in range(players - 1)]
        for s, b in enumerate(bots):
            b.start(g, s)
        while not g.is_over:
            bot = bots[g.to_move]
            if g.to_move == 0 and bot.knowledge is not None:
                bot._update()
                deals = bot._deals(40)
                asks = [(t, c) for _, t, c in bot._shortlist(bot._scores())]
                free = bot._free_misses(0)
                record = _Record(np.array(bot._holder, np.int8), np.array(bot._notat, np.uint8),
                                 np.array(bot._hasq, np.uint32), np.array(bot._quartets, np.int32),
                                 np.array(bot._last_lay, np.int32), bot._lay_count, free)
                model = np.array(bot._model, dtype=np.uint8)
                for t, c in asks:
                    if (t, c) == kw.REVEAL:
                        continue  # a card turned up ends the turn: nothing follows
                    rec = _Recorded(_core.kw_rollouts)
                    monkeypatch.setattr(planning._core, "kw_rollouts", rec)
                    out = bot._follow(deals, t, c, asks, g.hand(0), list(g.hand_sizes), record, model, 1)
                    monkeypatch.undo()
                    hit = np.flatnonzero((deals[:, t] >> np.uint64(c)) & np.uint64(1))
                    if out is None:
                        assert len(rec.calls) == 0
                        continue
                    idx, values = out
                    assert len(rec.calls) == 1
                    args, (share, quart) = rec.calls[0]
                    assert set(idx.tolist()) <= set(hit.tolist()) and len(idx) > 0
                    want, r2 = _after_hit(deals[idx], 0, t, c, record, rules.bonus_turn)
                    assert args[3].tolist() == want.tolist()
                    assert all(np.array_equal(x, y) for x, y in zip(
                        args[4:10], (r2.quartets, r2.last, r2.lay_count, r2.holder, r2.notat, r2.hasq)))
                    assert args[12] == int(rules.bonus_turn) and args[13] == r2.free
                    assert rec.options == {"memory": int(bool(rules.memory))}
                    nxt = list(zip(args[10].tolist(), args[11].tolist()))
                    assert nxt and all(a in asks and a[1] != c and a != kw.REVEAL for a in nxt)
                    rows = (share + bot.quartet_weight / g.deck.n_quartets * quart).tolist()
                    assert values.tolist() in rows
                    followed += 1
                    if r2.lay_count > bot._lay_count:
                        lays += 1
                        if g.pile == 0 or rules.memory:  # the game ends only when the last quartet is laid
                            assert len(idx) == len(hit) or sum(g.quartets) + 1 == g.deck.n_quartets
                    else:
                        assert idx.tolist() == hit.tolist()
            action = bot.choose()
            g.ask(action[1], action[2]) if action[0] == "ask" else g.reveal(action[1])
    assert followed > 20 and lays > 0


def test_diverse_candidates_add_other_quartets():
    """``diverse`` adds, after the usual candidates (the pass included), the
    best-estimated ask of each quartet not yet among them; none with one candidate."""
    seen = 0
    for seed in range(6):
        g = Game(Deck.themed("classic"), players=4, seed=seed)
        bots = [PlanningBot(seed=seed, samples=10, diverse=0)] + [kw.MemoryBot(seed=i) for i in range(3)]
        for s, b in enumerate(bots):
            b.start(g, s)
        while not g.is_over:
            bot = bots[g.to_move]
            if g.to_move == 0:
                bot._update()
                scored = bot._scores()
                plain = bot._shortlist(scored)
                bot.diverse = 3
                wide = bot._shortlist(scored)
                bot.candidates = 1
                assert len(bot._shortlist(scored)) == 1
                bot.candidates, bot.diverse = 5, 0
                extra = wide[len(plain):]
                assert wide[:len(plain)] == plain and len(extra) <= 3
                quartets = {c // 4 for s, _, c in plain if s > 0}
                for s, t, c in extra:
                    assert s > 0 and c // 4 not in quartets
                    best = max(x[0] for x in scored if x[2] // 4 == c // 4)
                    assert s == best
                    quartets.add(c // 4)
                seen += len(extra)
            _, t, c = bot.choose()
            g.ask(t, c)
    assert seen > 0


def test_memory_kwartet_turning_up_a_card_is_a_candidate():
    """Memory Kwartet: while the middle holds cards, turning one up is a candidate,
    the first (the baseline the others must beat) exactly where InferenceBot would
    turn one up; the planner's games run to the end with cards turned up."""
    first = later = turned = 0
    for seed in range(6):
        g = Game(Deck.themed("classic"), players=4, seed=seed, rules=Rules(memory=8))
        bots = [PlanningBot(seed=seed, samples=30)] + [kw.MemoryBot(seed=i) for i in range(3)]
        for s, b in enumerate(bots):
            b.start(g, s)
        while not g.is_over:
            if g.to_move == 0 and g.can_reveal() and g.legal_asks():
                bot = bots[0]
                bot._update()
                bot._deals(30)
                short = bot._shortlist(bot._scores())
                asks = [(t, c) for _, t, c in short]
                assert asks.count(kw.REVEAL) == 1
                inference = kw.InferenceBot(seed=1)
                inference.start(g, 0)
                would = inference.choose()[0] == "reveal"
                assert (asks[0] == kw.REVEAL) == would
                first += would
                later += not would
            action = bots[g.to_move].choose()
            if action[0] == "ask":
                g.ask(action[1], action[2])
            else:
                turned += g.to_move == 0
                g.reveal(action[1])
        assert sum(g.quartets) == g.deck.n_quartets  # every quartet can be completed: none is blocked
    assert first > 0 and later > 0 and turned > 0
