"""The compiled likelihood of the opponents' asks under their policy models
(``_core.kw_ask_likelihood``, the deal weights and model evidence of
:class:`~quartet_solver.kwartet.PlanningBot`) against the slow reference
``memory_log_likelihood`` / ``memory_ask_terms`` of
``tests/reference/kwartet_rollout.py``, which deals the game again from the hands
it undoes the events to, replays it on the engine and asks a real
:class:`~quartet_solver.kwartet.MemoryBot` in each asker's seat for its best asks
(or rates them with the reference's shared rollout policy).

The events are those a :class:`~quartet_solver.kwartet.PlanningBot` in seat ``me``
collects (``PlanningBot._events``), the deals the true one and deals drawn from
``me``'s posterior (:meth:`~quartet_solver.kwartet.Knowledge.sample`), turned into
masks as ``PlanningBot._deals`` does.  On the true deal of a game of MemoryBots
every ask is among the asks MemoryBot rates best, so no eps term may appear.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from reference.kwartet_rollout import event_tuples, memory_ask_terms, memory_log_likelihood, novice_ask_terms
from quartet_solver import _core
from quartet_solver.kwartet import (Asked, Deck, Game, InferenceBot, Knowledge, Laid, MemoryBot, NoviceBot,
                                    PlanningBot, Rules)
from quartet_solver.kwartet.knowledge import PILE

RANKS = "23456789TJQKA"
TOL = 1e-9
EPS_VALUES = (0.01, 0.5)

decks = st.one_of(
    st.integers(3, 13).map(lambda n: Deck.standard(RANKS[:n])),
    st.sampled_from(["AKQJT9", "AKQJ"]).map(Deck.standard),
    st.sampled_from(["classic", "nature", "world"]).map(Deck.themed),
)
rules = st.builds(Rules, remainder=st.sampled_from(["pile", "dealer"]), bonus_turn=st.booleans())
memory_rules = st.builds(Rules, memory=st.integers(1, 8), bonus_turn=st.booleans())
bot_kinds = st.sampled_from([NoviceBot, InferenceBot, MemoryBot])


def _play(deck: Deck, players: int, game_rules: Rules, dealer: int, kinds: list[type], seed: int,
          steps: int) -> Game:
    """A game between the given bots (one class per seat) after at most ``steps``
    actions (asks, and in memory Kwartet middle cards turned up)."""
    g = Game(deck, players=players, seed=seed, rules=game_rules, dealer=dealer)
    bots = [kind(seed=seed * 10 + i) for i, kind in enumerate(kinds)]
    for s, b in enumerate(bots):
        b.start(g, s)
    for _ in range(steps):
        if g.is_over:
            break
        action = bots[g.to_move].choose()
        if action[0] == "ask":
            g.ask(action[1], action[2])
        else:
            g.reveal(action[1])
    return g


def _events(g: Game, me: int) -> np.ndarray:
    """The events a PlanningBot in seat ``me`` collects (the same as the game's log)."""
    bot = PlanningBot(seed=me, samples=4, opponents="memory")
    bot.start(g, me)
    bot._update()
    assert bot._events == event_tuples(g.log)
    return np.array(bot._events, dtype=np.int32).reshape(-1, 4)


def _true_deal(g: Game) -> np.ndarray:
    return np.array([[g.hand(p) for p in range(g.players)] + [g.pile]], dtype=np.uint64)


def _sampled_deals(g: Game, me: int, k: int, seed: int) -> np.ndarray:
    """``k`` deals from seat ``me``'s posterior, as masks (as ``PlanningBot._deals``)."""
    players = g.players
    locs = Knowledge.from_game(g, me).sample(k, seed=seed)
    weights = np.left_shift(np.uint64(1), np.arange(len(g.deck), dtype=np.uint64))
    deals = np.zeros((k, players + 1), dtype=np.uint64)
    for p in range(players):
        deals[:, p] = np.where(locs == p, weights, np.uint64(0)).sum(axis=1, dtype=np.uint64)
    deals[:, players] = np.where(locs == PILE, weights, np.uint64(0)).sum(axis=1, dtype=np.uint64)
    # The posterior does not use the fact that the game went on: with a small deck
    # and a large side pile, a drawn pile may block every quartet, a deal on which the
    # game would have ended at once.  Those deals are left out (a memory middle
    # blocks nothing).
    if g.asks and not g.rules.memory:
        laid_at_deal = {e.quartet for e in g.log[: next(i for i, e in enumerate(g.log) if isinstance(e, Asked))]
                        if isinstance(e, Laid)}
        open_quartets = [q for q in range(g.deck.n_quartets) if q not in laid_at_deal]
        keep = [i for i, row in enumerate(deals.tolist())
                if not all(row[players] >> (4 * q) & 15 for q in open_quartets)]
        deals = deals[keep] if keep else _true_deal(g)
    return deals


def _lik(nq, players, me, deals, events, eps, model=None, odds=12.0, memory=0):
    """``kw_ask_likelihood`` (every seat a MemoryBot unless ``model`` says otherwise)."""
    if model is None:
        model = np.ones(players, dtype=np.uint8)
    return _core.kw_ask_likelihood(nq, players, me, deals, events, eps, model, odds, memory)


def _kernel(g: Game, me: int, deals: np.ndarray, events: np.ndarray, eps: float) -> np.ndarray:
    """The total log-likelihood of the other seats' asks, every seat a MemoryBot
    (memory Kwartet where the game's rules say so)."""
    ll, _ = _lik(g.deck.n_quartets, g.players, me, deals, events, eps, memory=int(bool(g.rules.memory)))
    assert ll.dtype == np.float64 and ll.shape == (len(deals), g.players) and not ll[:, me].any()
    return ll.sum(axis=1)


def _terms(g: Game, me: int, deal: np.ndarray, events: np.ndarray, model=None) -> list[tuple[int, bool, int]]:
    row = [int(x) for x in deal]
    return memory_ask_terms(g.deck, g.players, me, row[:-1], row[-1], events.tolist(), rules=g.rules,
                            dealer=g.dealer, model=model)


def _novice_terms(g: Game, me: int, deal: np.ndarray, events: np.ndarray) -> list:
    row = [int(x) for x in deal]
    return novice_ask_terms(g.deck, g.players, me, row[:-1], row[-1], events.tolist(), rules=g.rules,
                            dealer=g.dealer)


def _value(terms: list[tuple[int, bool, int]], eps: float) -> float:
    return sum(math.log(1.0 / ties) if best else math.log(eps) for _, best, ties in terms)


def _compare(g: Game, me: int, deals: np.ndarray, events: np.ndarray, eps_values) -> list[list]:
    """Kernel and reference on every deal and eps; returns the reference terms per deal."""
    all_terms = [_terms(g, me, deal, events) for deal in deals]
    for eps in eps_values:
        got = _kernel(g, me, deals, events, eps)
        assert got.dtype == np.float64 and got.shape == (len(deals),)
        want = [_value(terms, eps) for terms in all_terms]
        for i, deal in enumerate(deals):
            assert abs(got[i] - want[i]) <= TOL, (eps, i, deal.tolist(), events.tolist(), got[i], want[i],
                                                  all_terms[i])
    # by seat, with some seats playing the shared rollout policy instead
    model = [(p + len(events)) % 2 for p in range(g.players)]
    mixed_terms = [_terms(g, me, deal, events, model) for deal in deals]
    ll, misses = _lik(g.deck.n_quartets, g.players, me, deals, events, eps_values[0],
                      np.array(model, dtype=np.uint8), memory=int(bool(g.rules.memory)))
    assert misses.dtype == np.int32 and misses.shape == (len(deals), g.players)
    for i, terms in enumerate(mixed_terms):
        for p in range(g.players):
            mine = [t for t in terms if int(events[t[0]][1]) == p]
            assert misses[i, p] == sum(not best for _, best, _ in mine), (i, p, terms)
            assert abs(ll[i, p] - _value(mine, eps_values[0])) <= TOL, (i, p, ll[i].tolist(), terms)
    # by seat, with some seats playing NoviceBot's random asks and the others the two other policies
    model = [(p + len(events)) % 3 for p in range(g.players)]
    mixed_terms = [_terms(g, me, deal, events, model) for deal in deals]
    novice_terms = [_novice_terms(g, me, deal, events) for deal in deals]
    ll, misses = _lik(g.deck.n_quartets, g.players, me, deals, events, eps_values[0],
                      np.array(model, dtype=np.uint8), memory=int(bool(g.rules.memory)))
    for i in range(len(deals)):
        for p in range(g.players):
            if model[p] == 2:
                mine_n = [prob for j, prob in novice_terms[i] if int(events[j][1]) == p]
                want = sum(math.log(eps_values[0]) if prob is None else math.log(prob) for prob in mine_n)
                assert misses[i, p] == sum(prob is None for prob in mine_n), (i, p, novice_terms[i])
            else:
                mine = [t for t in mixed_terms[i] if int(events[t[0]][1]) == p]
                want = _value(mine, eps_values[0])
                assert misses[i, p] == sum(not best for _, best, _ in mine), (i, p, mixed_terms[i])
            assert abs(ll[i, p] - want) <= TOL, (i, p, model, ll[i].tolist(), want)
    # the reference's function itself (not just its terms) on the first deal
    row = [int(x) for x in deals[0]]
    eps = eps_values[0]
    assert abs(memory_log_likelihood(g.deck, g.players, me, row[:-1], row[-1], events.tolist(), eps,
                                     rules=g.rules, dealer=g.dealer) - _value(all_terms[0], eps)) <= TOL
    return all_terms


@settings(max_examples=100, deadline=None, derandomize=True)
@given(steps=st.integers(0, 70), me=st.integers(0, 3), game_seed=st.integers(0, 10**6),
       sample_seed=st.integers(0, 2**32 - 1))
def test_memory_bots(steps, me, game_seed, sample_seed):
    """Four MemoryBots with the classic deck: on the true deal every opponent ask is
    among MemoryBot's best asks (no eps term: the likelihood does not depend on eps
    and is the sum of log(1 / ties)); on deals from ``me``'s posterior the kernel
    matches the reference."""
    deck = Deck.themed("classic")
    g = _play(deck, 4, Rules(), 3, [MemoryBot] * 4, game_seed, steps)
    events = _events(g, me)
    true = _true_deal(g)
    terms = _compare(g, me, true, events, EPS_VALUES)[0]
    assert all(best for _, best, _ in terms), terms
    opponent_asks = sum(1 for e in events if e[0] == 0 and e[1] != me)
    assert len(terms) == opponent_asks
    got = [float(_kernel(g, me, true, events, eps)[0]) for eps in (0.01, 0.5, 1.0)]
    assert max(got) - min(got) <= TOL
    assert abs(got[0] + sum(math.log(ties) for _, _, ties in terms)) <= TOL
    deals = _sampled_deals(g, me, 6, sample_seed)
    _compare(g, me, deals, events, EPS_VALUES)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(deck=decks, players=st.integers(3, 6), game_rules=rules, dealer_at=st.integers(0, 5),
       kinds=st.lists(bot_kinds, min_size=6, max_size=6), steps=st.integers(0, 60), me_at=st.integers(0, 5),
       game_seed=st.integers(0, 10**6), sample_seed=st.integers(0, 2**32 - 1),
       eps=st.floats(1e-6, 1.0))
def test_mixed_bots(deck, players, game_rules, dealer_at, kinds, steps, me_at, game_seed, sample_seed, eps):
    """Novice, inference and memory bots (asks MemoryBot would not make: eps terms),
    3-6 players, any deck, the remainder aside or with the dealer, the bonus turn,
    ``me`` any seat: the true deal and deals from ``me``'s posterior, at eps 0.01, 0.5
    and one drawn from (0, 1]."""
    me = me_at % players
    g = _play(deck, players, game_rules, dealer_at % players, kinds[:players], game_seed, steps)
    events = _events(g, me)
    deals = np.concatenate([_true_deal(g), _sampled_deals(g, me, 4, sample_seed)])
    all_terms = _compare(g, me, deals, events, EPS_VALUES + (eps,))
    # every action on the true deal was legal: NoviceBot's policy could have taken it
    assert all(prob is not None and prob > 0 for _, prob in _novice_terms(g, me, deals[0], events))
    # the seats that are MemoryBots make only best asks on the true deal
    for j, best, _ in all_terms[0]:
        if kinds[events[j, 1]] is MemoryBot:
            assert best, (j, all_terms[0])


@settings(max_examples=80, deadline=None, derandomize=True)
@given(deck=decks, players=st.integers(3, 6), game_rules=memory_rules,
       kinds=st.lists(bot_kinds, min_size=6, max_size=6), steps=st.integers(0, 80), me_at=st.integers(0, 5),
       game_seed=st.integers(0, 10**6), sample_seed=st.integers(0, 2**32 - 1))
def test_memory_kwartet(deck, players, game_rules, kinds, steps, me_at, game_seed, sample_seed):
    """Memory Kwartet: the middle cards the bots turned up are events too (``memory=1``);
    on the true deal and on deals from ``me``'s posterior the kernel matches the
    reference, which asks a real MemoryBot whether it would turn a card up; a
    MemoryBot's asks and cards turned up are never misses on the true deal."""
    if len(deck) - game_rules.memory < players:
        return  # too few cards for the middle and a card each
    me = me_at % players
    g = _play(deck, players, game_rules, players - 1, kinds[:players], game_seed, steps)
    events = _events(g, me)
    deals = np.concatenate([_true_deal(g), _sampled_deals(g, me, 3, sample_seed)])
    all_terms = _compare(g, me, deals, events, EPS_VALUES)
    for j, best, _ in all_terms[0]:
        if kinds[events[j, 1]] is MemoryBot:
            assert best, (j, all_terms[0])
    if any(e[0] == 2 and e[1] != me for e in events):
        event("an opponent turned a card up")


def _small_game(asks: list[tuple[int, int]]) -> Game:
    """Deck Q K A, three players, seat 2 deals: seat 0 holds Qc Qd Qh Kc, seat 1 Qs Kd
    Kh Ac, seat 2 Ks Ad Ah As; then the given asks (target, card)."""
    g = Game(Deck.standard("AKQ"), players=3, hands=[[0, 1, 2, 4], [3, 5, 6, 8], [7, 9, 10, 11]], pile=[])
    for t, c in asks:
        g.ask(t, c)
    return g


def test_worked_example():
    """A game worked out by hand.  Seat 0 asks seat 1 for Qs (best: the quartet it
    holds three of, from either opponent: 2 ties), lays the queens, asks seat 2 for
    Ks (6 ties: three kings from two seats), seat 1 for Kd (4: the two kings left, two
    seats), seat 1 for Kh (2), lays the kings and is out; seat 1 asks seat 2, the only
    seat with cards, for Ad (3 ties), Ah (2), As (1) and the game ends."""
    g = _small_game([(1, 3), (2, 7), (1, 5), (1, 6), (2, 9), (2, 10), (2, 11)])
    assert g.is_over and g.quartets == (2, 1, 0)
    events = _events(g, 2)
    deal = _true_deal(g)
    for me, ties in [(2, [2, 6, 4, 2, 3, 2, 1]), (0, [3, 2, 1]), (1, [2, 6, 4, 2])]:
        want = -math.log(math.prod(ties))
        assert [t for _, best, t in _terms(g, me, deal[0], events)] == ties
        assert abs(memory_log_likelihood(g.deck, 3, me, [0, 0, 0], 0, events.tolist(), 0.5) - want) <= TOL
        for eps in EPS_VALUES:
            assert abs(_kernel(g, me, deal, events, eps)[0] - want) <= TOL


def test_worked_example_eps():
    """Seat 0 asks seat 2 for Kd first, not one of the queens it holds three of: an
    eps term; seat 1 then asks seat 0 for Qc (score 0.5, the kings it holds two of
    would be preferred): another one."""
    g = _small_game([(2, 5), (0, 0)])
    events = _events(g, 2)
    deal = _true_deal(g)
    assert [best for _, best, _ in _terms(g, 2, deal[0], events)] == [False, False]
    for eps in EPS_VALUES + (1.0,):
        assert abs(_kernel(g, 2, deal, events, eps)[0] - 2 * math.log(eps)) <= TOL
        assert abs(memory_log_likelihood(g.deck, 3, 2, [int(x) for x in deal[0, :3]], 0, events.tolist(), eps)
                   - 2 * math.log(eps)) <= TOL
        assert abs(_kernel(g, 0, deal, events, eps)[0] - math.log(eps)) <= TOL


def test_worked_example_novice():
    """NoviceBot's policy, by hand: seat 0 asks seat 1 for Qs with four askable cards
    (Qs and three kings) and two seats to ask, 1/8; lays the queens; asks seat 2 for
    Ks with three askable kings, 1/6.  Seats 1 and 2 weigh these the same; in seat
    0's own view its asks are not weighed."""
    g = _small_game([(1, 3), (2, 7)])
    events = _events(g, 2)
    deal = _true_deal(g)
    novice = np.full(3, 2, dtype=np.uint8)
    for me in (1, 2):
        ll, misses = _lik(3, 3, me, deal, events, 0.5, novice)
        assert abs(ll[0, 0] + math.log(48)) <= TOL and not misses.any() and not ll[0, 1:].any()
    ll, _ = _lik(3, 3, 0, deal, events, 0.5, novice)
    assert not ll.any()


def test_no_events_and_no_deals():
    """No events: 0 for every deal; no deals: an empty result."""
    g = Game(Deck.standard("AKQJ"), players=4, seed=1)
    deals = np.concatenate([_true_deal(g)] * 3)
    none = np.zeros((0, 4), dtype=np.int32)
    assert _kernel(g, 0, deals, none, 0.5).tolist() == [0.0] * 3
    assert _kernel(g, 0, deals[:0], _events(g, 0), 0.5).shape == (0,)


def _good_args() -> tuple:
    g = _play(Deck.standard("AKQJ"), 4, Rules(), 3, [NoviceBot] * 4, 3, 6)
    return g.deck.n_quartets, g.players, 0, _true_deal(g), _events(g, 0), 0.5


def test_bad_input():
    """Bad sizes, shapes and dtypes, unknown event kinds, out-of-range fields and eps
    outside (0, 1] raise ValueError."""
    nq, players, me, deals, events, eps = _good_args()
    assert events.shape[0] > 0
    _lik(nq, players, me, deals, events, eps)

    with pytest.raises(ValueError):  # a model for too few seats
        _lik(nq, players, me, deals, events, eps, np.ones(players - 1, dtype=np.uint8))
    with pytest.raises(ValueError):  # an unknown model
        _lik(nq, players, me, deals, events, eps, np.full(players, 3, dtype=np.uint8))
    for odds in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError):
            _lik(nq, players, me, deals, events, eps, None, odds)

    def bad(**kw):
        args = dict(nq=nq, players=players, me=me, deals=deals, events=events, eps=eps)
        args.update(kw)
        with pytest.raises(ValueError):
            _lik(args["nq"], args["players"], args["me"], args["deals"], args["events"], args["eps"])

    # sizes
    bad(nq=0)
    bad(nq=14)
    bad(players=1)
    bad(players=7)
    bad(me=-1)
    bad(me=players)
    # shapes
    bad(deals=deals[:, :-1])
    bad(deals=np.concatenate([deals, deals[:, :1]], axis=1))
    bad(events=events[:, :3])
    bad(events=np.concatenate([events, events[:, :1]], axis=1))
    bad(players=players - 1)  # the deals then have one column too many
    # dtypes (deals uint64, events int32)
    bad(deals=deals.astype(np.int64))
    bad(events=events.astype(np.int64))
    # eps
    for e in (0.0, -0.1, 1.0 + 1e-12, 2.0, float("nan"), float("inf"), -float("inf")):
        bad(eps=e)

    def with_event(row):
        return np.concatenate([events, np.array([row], dtype=np.int32)])

    # event kinds
    for kind in (-1, 2, 3):
        bad(events=with_event((kind, 0, 1, 0)))
    # ask fields: asker, target, card * 2 + hit
    for row in [(0, -1, 1, 0), (0, players, 1, 0), (0, 0, -1, 0), (0, 0, players, 0), (0, 0, 1, -1),
                (0, 0, 1, 8 * nq), (0, 0, 1, 8 * nq + 1)]:
        bad(events=with_event(row))
    # lay fields: player, quartet
    for row in [(1, -1, 0, 0), (1, players, 0, 0), (1, 0, -1, 0), (1, 0, nq, 0)]:
        bad(events=with_event(row))
    # the last valid fields are accepted
    _lik(nq, players, me, deals, with_event((0, players - 1, 0, 8 * nq - 1)), eps)
    _lik(nq, players, me, deals, with_event((1, players - 1, nq - 1, 0)), eps)
    # a bad event is rejected even with no deals to weigh
    bad(deals=deals[:0], events=with_event((2, 0, 0, 0)))


def test_reference_rejects_bad_eps():
    nq, players, me, deals, events, _ = _good_args()
    for e in (0.0, 1.5, float("nan")):
        with pytest.raises(ValueError):
            memory_log_likelihood(Deck.standard("AKQJ"), players, me, [0] * players, 0, [], e)
