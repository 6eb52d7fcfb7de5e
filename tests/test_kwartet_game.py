"""Kwartet engine: legality checks, invariants over many random games, replay,
simulation and the fast novice kernel."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from quartet_solver.errors import IllegalActionError, InvalidStateError, NotationError
from quartet_solver.kwartet import (
    Asked,
    Bot,
    Dealt,
    Deck,
    Drew,
    Game,
    InferenceBot,
    Laid,
    MemoryBot,
    NoviceBot,
    Revealed,
    Rules,
    View,
    make_bot,
    play,
    simulate,
)

VARIANTS = {
    "standard": Rules(),
    "dealer": Rules(remainder="dealer"),
    "bonus": Rules(bonus_turn=True),
    "draw": Rules(draw_pile=6),
    "memory": Rules(memory=6),
}


def _check_invariants(g: Game):
    deck = g.deck
    n = len(deck)
    # every card is in exactly one place: a hand, the pile, or a laid quartet
    seen = g.pile
    assert seen.bit_count() == g.pile_size
    for p in range(g.players):
        h = g.hand(p)
        assert not seen & h
        seen |= h
        for q in range(deck.n_quartets):
            assert h >> (4 * q) & 0xF != 0xF  # complete quartets are laid at once
    laid = g.laid_mask
    assert not seen & laid
    assert seen | laid == deck.full_mask
    assert sum(g.quartets) * 4 == laid.bit_count()
    assert sum(g.hand_sizes) + g.pile_size + laid.bit_count() == n


def _random_game(deck, players, seed, rules, bots=NoviceBot):
    g = Game(deck, players=players, seed=seed, rules=rules)
    bl = [bots(seed=seed * 7 + i) for i in range(players)]
    for s, b in enumerate(bl):
        b.start(g, s)
    while not g.is_over:
        assert g.asks < 20000
        p = g.to_move
        assert g.hand(p) or g.pile_size  # the player to move can act
        act = bl[p].choose()
        if act[0] == "ask":
            ev = g.ask(act[1], act[2])
            assert ev.asker == p
        else:
            g.reveal(act[1])
        _check_invariants(g)
    return g


def _end_checks(g: Game):
    # the end: every quartet laid, or (side pile) only quartets blocked by the pile are left
    pile = g.pile
    for q in range(g.deck.n_quartets):
        laid = g.laid_mask >> (4 * q) & 0xF
        assert laid or pile >> (4 * q) & 0xF
    w = g.winners
    counts = g.quartets
    assert all(counts[x] == max(counts) for x in w)
    # log consistency: lays in the log match the tallies
    lays = [e for e in g.log if isinstance(e, Laid)]
    assert len(lays) == sum(counts)
    assert isinstance(g.log[0], Dealt)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_invariants(variant, players):
    deck = Deck.themed(48 if players >= 5 else 32)
    for seed in range(80):
        g = _random_game(deck, players, seed, VARIANTS[variant], bots=NoviceBot if seed % 3 else MemoryBot)
        _end_checks(g)


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_games_invariants_many(variant):
    for seed in range(2000):
        players = 3 + seed % 4
        deck = [Deck.themed(32), Deck.themed(40), Deck.themed(48), Deck.standard()][seed % 4]
        g = _random_game(deck, players, seed, VARIANTS[variant], bots=[NoviceBot, MemoryBot][seed % 2])
        _end_checks(g)


def test_deal_sizes_and_first_turn():
    g = Game(Deck.themed(32), players=3, seed=1)
    assert sum(g.hand_sizes) + g.pile_size + g.laid_mask.bit_count() == 32
    assert g.log[0] == Dealt(2, (10, 10, 10), 2)
    g = Game(Deck.themed(32), players=3, seed=1, rules=Rules(remainder="dealer"), dealer=0)
    assert g.log[0] == Dealt(0, (12, 10, 10), 0)
    assert g.to_move == 1 or g.is_over
    assert Game(Deck.themed(32), players=5, seed=1).log[0].pile == 2


def test_illegal_asks():
    deck = Deck.standard("AKQJ")
    g = Game(deck, players=3, hands=["Ac Ad Ah Kc Kd", "As Kh Ks Qc Qd", "Qh Qs Jc Jd Jh"], pile="Js")
    assert g.to_move == 0
    with pytest.raises(IllegalActionError, match="themselves"):
        g.ask(0, "As")
    with pytest.raises(IllegalActionError, match="holds no card"):
        g.ask(1, "Qs")
    with pytest.raises(IllegalActionError, match="holds it already"):
        g.ask(1, "Ac")
    with pytest.raises(IllegalActionError, match="no such player"):
        g.ask(7, "As")
    with pytest.raises(NotationError, match="Zz"):
        g.ask(1, "Zz")
    ev = g.ask(1, "As")
    assert ev == Asked(0, 1, deck.card("As"), True)
    assert g.log[-1] == Laid(0, deck.quartet("A"))
    assert g.to_move == 0  # a hit: ask again
    ev = g.ask(2, "Kh")
    assert not ev.hit and g.to_move == 1
    # player 2 goes out
    g2 = Game(deck, players=3, hands=["Ac Ad Ah Kc Kd", "Kh Ks Qc Qd Qh", "As Qs Jc Jd Jh"], pile="Js")
    g2.ask(2, "As")
    assert g2.hand_sizes[2] == 4
    with pytest.raises(IllegalActionError, match="is over"):
        over = Game(deck, players=3, hands=["Ac Ad Ah As Kc", "Kd Kh Ks Qc Qd", "Qh Qs Jc Jd Jh"], pile="Js")
        while not over.is_over:
            over.ask(*over.legal_asks()[0])
        over.ask(1, "Kc")


def test_out_player_cannot_be_asked():
    deck = Deck.standard("AKQ")
    g = Game(deck, players=3, hands=["Ac Ad Ah Kc", "As Kd Kh Ks", "Qc Qd Qh Qs"])
    # player 2 laid Q at once and is out; the deal continues
    assert g.log[1] == Laid(2, deck.quartet("Q"))
    assert g.hand_sizes[2] == 0
    with pytest.raises(IllegalActionError, match="is out"):
        g.ask(2, "As")
    g.ask(1, "As")
    assert g.quartets[0] == 1


def test_tie_break_earlier_last_quartet():
    deck = Deck.standard("AKQ")
    g = Game(deck, players=3, hands=["Kc Kd Kh Ks", "Ac Ad Ah As", "Qc Qd Qh Qs"])
    assert g.is_over and g.quartets == (1, 1, 1)
    assert g.winners == (0,) and g.winner == 0  # seat 0 laid first
    g = Game(deck, players=3, hands=["Ac Ad Ah Kc", "As Kd Kh Ks", "Qc Qd Qh Qs"])
    assert g.log[1] == Laid(2, deck.quartet("Q"))
    g.ask(1, "As")  # seat 0 lays A second
    assert g.to_move == 0
    g.ask(1, "Kd")
    g.ask(1, "Kh")
    g.ask(1, "Ks")
    assert g.is_over and g.quartets == (2, 0, 1) and g.winner == 0


def test_bad_deals():
    deck = Deck.standard("AKQJ")
    with pytest.raises(InvalidStateError, match="dealt twice"):
        Game(deck, players=3, hands=["Ac Ad Ah Kc Kd", "Ac Kh Ks Qc Qd", "Qh Qs Jc Jd Jh"], pile="Js")
    with pytest.raises(InvalidStateError, match="misses"):
        Game(deck, players=3, hands=["Ac Ad Ah Kc Kd", "As Kh Ks Qc Qd", "Qh Qs Jc Jd Jh"])
    with pytest.raises(InvalidStateError, match="3-6 players"):
        Game(deck, players=7)
    with pytest.raises(InvalidStateError):
        Rules(remainder="nobody")
    with pytest.raises(InvalidStateError):
        Rules.preset("nope")


def test_replay_and_determinism():
    for seed in range(5):
        rules = list(VARIANTS.values())[seed]
        a = _random_game(Deck.themed(32), 4, seed, rules)
        b = _random_game(Deck.themed(32), 4, seed, rules)
        assert a.log == b.log
        if not rules.draw_pile:
            c = Game(Deck.themed(32), players=4, seed=seed, rules=rules).replay(a.log)
            assert c.quartets == a.quartets and c.is_over
    g = _random_game(Deck.themed(32), 4, 1, Rules())
    bad = list(g.log)
    i = next(i for i, e in enumerate(bad) if isinstance(e, Asked))
    e = bad[i]
    bad[i] = Asked(e.asker, e.target, e.card, not e.hit)
    with pytest.raises(InvalidStateError):
        Game(Deck.themed(32), players=4, seed=1).replay(bad)


def test_draw_and_memory_events_in_log():
    g = _random_game(Deck.themed(32), 4, 3, Rules(draw_pile=6))
    draws = [e for e in g.log if isinstance(e, Drew)]
    assert draws and all(e.card is None for e in draws)
    assert any(e.card is not None for e in g.private_log(draws[0].player) if isinstance(e, Drew))
    g = _random_game(Deck.themed(32), 4, 3, Rules(memory=6))
    assert any(isinstance(e, Revealed) for e in g.log)


def test_fast_kernel_matches_engine_distribution():
    fast = simulate(["novice"] * 4, games=4000, seed=1)
    slow = simulate(["novice"] * 4, games=300, seed=1, fast=False)
    assert fast.fast_path and not slow.fast_path
    assert abs(fast.asks_mean - slow.asks_mean) < 12
    for a, b in zip(fast.stats, slow.stats):
        assert abs(a.quartets_mean - b.quartets_mean) < 0.35


def test_simulate_results_and_errors():
    r = simulate(["inference", "memory", "novice", "novice"], games=12, seed=3)
    assert [s.name for s in r.stats] == ["inference", "memory", "novice", "novice"]
    assert sum(s.wins for s in r.stats) == pytest.approx(12)
    assert all(sum(s.quartet_hist) == 12 for s in r.stats)
    assert r.to_dict()["games"] == 12 and "win rate" in r.pretty()
    r2 = simulate(["inference", "memory", "novice", "novice"], games=12, seed=3)
    assert r2.stats == r.stats
    with pytest.raises(InvalidStateError):
        simulate(["novice"] * 2, games=10)
    with pytest.raises(InvalidStateError):
        simulate(["novice", "expert", "novice"], games=10)
    with pytest.raises(InvalidStateError):
        simulate(["novice"] * 3, games=0)
    # max_asks: an int >= 0 (once: a negative one ran as 0, 2 ** 63 and more
    # raised a bare OverflowError on the fast path, a float was taken)
    for bad in (-1, 1.5, True, None):
        with pytest.raises(InvalidStateError, match=f"max_asks must be an int >= 0, got {bad!r}"):
            simulate(["novice"] * 4, games=2, max_asks=bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidStateError, match=f"max_asks must be an int >= 0, got {bad!r}"):
            play(Game(Deck.themed(32), players=4, seed=1), [NoviceBot(seed=i) for i in range(4)],
                 max_asks=bad)  # type: ignore[arg-type]
    stopped = simulate(["novice"] * 4, games=3, max_asks=0)
    assert stopped.unfinished == 3
    # the game length is that of the finished games, on both engines (the
    # Python one counted the unfinished games' asks once)
    for fast in (True, False):
        cut = simulate(["novice"] * 4, games=40, seed=5, max_asks=60, fast=fast)
        full = simulate(["novice"] * 4, games=40, seed=5, fast=fast)
        assert 0 < cut.unfinished < 40
        assert cut.asks_p90 <= 60 and cut.asks_mean < full.asks_mean
        none = simulate(["novice"] * 4, games=3, max_asks=1, fast=fast)   # no game ends in 1 ask
        assert none.unfinished == 3 and none.asks_mean == none.asks_median == 0.0   # 1.0 once (Python)
    for fast in (True, False):
        huge = simulate(["novice"] * 4, games=3, seed=2, max_asks=2 ** 70, fast=fast)
        plain = simulate(["novice"] * 4, games=3, seed=2, fast=fast)
        assert huge.unfinished == 0 and huge.stats == plain.stats


def test_inference_bot_in_every_variant():
    for name, rules in VARIANTS.items():
        for seed in range(2):
            g = Game(Deck.themed(32), players=4, seed=seed, rules=rules)
            play(g, [InferenceBot(seed=1), MemoryBot(seed=2), NoviceBot(seed=3), InferenceBot(seed=4)])
            assert g.is_over, name
            _end_checks(g)


def test_inference_beats_novice():
    r = simulate(["inference", "novice", "novice"], games=60, seed=5, deck=Deck.themed(32))
    assert r.stats[0].win_rate > 0.6
    assert np.isfinite(r.asks_mean)


def test_deal_sizes_checks_its_arguments():
    for bad in ("x", 32.5, None, -5, True):
        with pytest.raises(InvalidStateError, match="n_cards must be an int >= 0"):
            Rules().deal_sizes(bad, 3)  # type: ignore[arg-type]
    for bad in ("a", None, 1.5, True, 3, -1):
        with pytest.raises(InvalidStateError, match="dealer must be a seat in 0..2"):
            Rules().deal_sizes(32, 3, bad)  # type: ignore[arg-type]
    assert Rules(remainder="dealer").deal_sizes(np.int64(32), 3, np.int64(1)) == ([10, 12, 10], 0)


def test_game_seed_must_be_an_int_or_none():
    deck = Deck.themed(32)
    for bad in ([], 1.5, float("nan"), True):
        with pytest.raises(InvalidStateError, match="seed must be an int >= 0, a string or None"):
            Game(deck, players=4, seed=bad)  # type: ignore[arg-type]
    # a string seed deals the same every time
    assert Game(deck, players=4, seed="x").initial_hands == Game(deck, players=4, seed="x").initial_hands
    g = Game(deck, players=4, seed=np.int64(3))  # a numpy seed deals as the int
    assert g.seed == 3 and type(g.seed) is int and g.initial_hands == Game(deck, players=4, seed=3).initial_hands


def test_game_hands_as_any_iterable_and_pile_only_with_hands():
    deck = Deck.standard("AKQJ")
    hands = ["Ac Ad Ah Kc Kd", "As Kh Ks Qc Qd", "Qh Qs Jc Jd Jh"]
    g = Game(deck, players=3, hands=iter(hands), pile="Js")
    assert g.hand_sizes == (5, 5, 5) and g.pile == deck.mask("Js")
    for bad in (5, b"Ac"):
        with pytest.raises(InvalidStateError, match="one hand per seat"):
            Game(deck, players=3, hands=bad, pile="Js")  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="one hand per seat"):
        Game(deck, players=3, hands=itertools.repeat("Ac"), pile="Js")  # type: ignore[arg-type]
    # a pile without hands used to be ignored: the deal was random
    with pytest.raises(InvalidStateError, match="pile 'Js' given without hands"):
        Game(deck, players=3, seed=1, pile="Js")


def test_replay_needs_a_list_of_events():
    for bad in (None, 5):
        with pytest.raises(InvalidStateError, match="replay needs a list of events"):
            Game(Deck.themed(32), players=4, seed=1).replay(bad)  # type: ignore[arg-type]


def test_a_failed_replay_leaves_the_game_as_it_was():
    """Once the events before the misfit stayed applied (the game part-way)."""
    g = _random_game(Deck.themed(32), 4, 1, Rules())
    bad = list(g.log)
    i = max(i for i, e in enumerate(bad) if isinstance(e, Asked))      # late: many events fit first
    e = bad[i]
    bad[i] = Asked(e.asker, e.target, e.card, not e.hit)
    h = Game(Deck.themed(32), players=4, seed=1)
    before = (h.log, h.asks, h.quartets, h.to_move, h.is_over)
    with pytest.raises(InvalidStateError):
        h.replay(bad)
    assert (h.log, h.asks, h.quartets, h.to_move, h.is_over) == before
    assert h.replay(g.log).log == g.log          # and it still replays the true log


class _Scripted(NoviceBot):
    """Returns a fixed action."""

    def __init__(self, action, seed=None):
        super().__init__(seed=seed)
        self.action = action

    def choose(self):
        return self.action


def test_play_checks_game_bots_and_actions():
    deck = Deck.themed(32)
    with pytest.raises(InvalidStateError, match="game must be a kwartet.Game"):
        play(None, [NoviceBot(seed=i) for i in range(4)])  # type: ignore[arg-type]
    for bad in (None, "abcd", 4):
        with pytest.raises(InvalidStateError, match="bots must be a list"):
            play(Game(deck, players=4, seed=1), bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="not a bot: 1"):
        play(Game(deck, players=4, seed=1), [1, 2, 3, 4])  # type: ignore[list-item]
    with pytest.raises(InvalidStateError, match="does not implement choose"):
        play(Game(deck, players=4, seed=1), [Bot() for _ in range(4)])
    # one bot in every seat used to play seat 3's hand for everybody
    with pytest.raises(InvalidStateError, match="its own bot instance"):
        play(Game(deck, players=4, seed=1), [MemoryBot(seed=1)] * 4)
    for action in (("ask",), None, ("fold", 1), ("ask", 1, 2, 3), "ask"):
        with pytest.raises(InvalidStateError, match="chose"):
            play(Game(deck, players=4, seed=1), [_Scripted(action) for _ in range(4)])
    g = play(Game(deck, players=4, seed=1), (NoviceBot(seed=i) for i in range(4)))  # any iterable
    assert g.is_over


def test_bot_seed_and_start_checks():
    for bad in ([], 1.5, True):
        with pytest.raises(InvalidStateError, match="seed must be an int >= 0, a string or None"):
            NoviceBot(seed=bad)  # type: ignore[arg-type]
    assert NoviceBot(seed="x").rng.random() == NoviceBot(seed="x").rng.random()
    assert NoviceBot(seed=np.int64(4)).rng.random() == NoviceBot(seed=4).rng.random()
    for cls in (NoviceBot, MemoryBot, InferenceBot):
        with pytest.raises(InvalidStateError, match="has not been started"):
            cls(seed=1).choose()  # was a bare AssertionError
        with pytest.raises(InvalidStateError, match="no player 9"):
            cls(seed=1).start(Game(Deck.themed(32), players=4, seed=1), 9)
        with pytest.raises(InvalidStateError, match="game must be a kwartet.Game"):
            cls(seed=1).start(None, 0)  # type: ignore[arg-type]
    v = View(Game(Deck.themed(32), players=4, seed=1), 0)
    for bad in (-1, "a", None):
        with pytest.raises(InvalidStateError, match="start must be an int >= 0"):
            v.events_since(bad)  # type: ignore[arg-type]
    assert len(v.events_since(0)) == v.n_events


def test_make_bot_and_simulate_argument_checks():
    with pytest.raises(InvalidStateError, match="does not implement choose"):
        make_bot(Bot)
    with pytest.raises(InvalidStateError, match="does not implement choose"):
        simulate([Bot, "novice", "novice"], games=2)
    for bad in (None, "novice", 3):
        with pytest.raises(InvalidStateError, match="bots must be a list of bots"):
            simulate(bad, games=2)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="deck must be a kwartet.Deck"):
        simulate(["novice"] * 3, games=2, deck="classic")  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="rules must be a kwartet.Rules"):
        simulate(["novice"] * 3, games=2, rules="bonus")  # type: ignore[arg-type]
    for flag in ("rotate", "fast"):
        with pytest.raises(InvalidStateError, match=f"{flag} must be a bool, got 'no'"):
            simulate(["novice"] * 3, games=2, **{flag: "no"})  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="progress must be a function"):
        simulate(["novice"] * 3, games=2, progress=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="too many"):
        simulate(["novice"] * 3, games=10**20)
