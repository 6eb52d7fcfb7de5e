"""``PlanningBot.advise`` on positions given by a ``Knowledge``, and written game records
(``parse_events``, ``replay_record``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quartet_solver import kwartet as kw
from quartet_solver.errors import ArgumentError, IllegalActionError, InvalidStateError, NotationError, QuartetError
from quartet_solver.kwartet import Asked, Deck, Game, Knowledge, Laid, PlanningBot, Revealed, Rules
from test_kwartet_draw_inference import play_to_unseen_draw

DECKS = {"classic": Deck.themed("classic"), "world": Deck.themed("world"), "AKQJ": Deck.standard("AKQJ"),
         "standard": Deck.standard()}


def _game_to(deck: Deck, players: int, seed: int, asks: int, rules: Rules) -> tuple[Game, list[kw.Bot]]:
    """A game between memory and inference bots, stopped after ``asks`` actions (asks,
    and in memory Kwartet middle cards turned up) or at its end."""
    game = Game(deck, players=players, seed=seed, rules=rules)
    bots = [kw.MemoryBot(seed=i) if i % 2 else kw.InferenceBot(seed=i) for i in range(players)]
    for s, b in enumerate(bots):
        b.start(game, s)
    actions = 0
    while not game.is_over and actions < asks:
        action = bots[game.to_move].choose()
        if action[0] == "ask":
            game.ask(action[1], action[2])
        else:
            game.reveal(action[1])
        actions += 1
    return game, bots


def _written(deck: Deck, events: list[kw.Event], rng: random.Random) -> str:
    """The events as a person writes them, in varied but valid wordings."""
    lines = []
    for e in events:
        seat = rng.choice([lambda p: f"P{p}", str, lambda p: f"P{p}(memory)"])  # the last as kwartet play
        if isinstance(e, Asked):
            card = rng.choice([deck.full_name(e.card), deck.names(1 << e.card)[0]])
            answer = rng.choice(["yes", "hit", "Yes"] if e.hit else ["no", "miss", "NO"])
            sep = rng.choice([": ", ", ", " "])
            lines.append(f"{seat(e.asker)} asks {seat(e.target)} {rng.choice(['for ', ''])}{card}{sep}{answer}")
        elif isinstance(e, Laid):
            lines.append(f"{seat(e.player)} lays {deck.quartets[e.quartet].name}")
        elif isinstance(e, Revealed):
            card = rng.choice([deck.full_name(e.card), deck.names(1 << e.card)[0]])
            lines.append(f"{seat(e.player)} {rng.choice(['turns up', 'reveals', 'Turns Up'])} {card}")
    joiner = rng.choice(["\n", "; ", "  # a note\n"])
    return joiner.join(lines)


def _as_candidate(action: kw.Action) -> tuple[int, int]:
    """A bot's action as a decision's candidate: the ask, or :data:`kw.REVEAL`."""
    return kw.REVEAL if action[0] == "reveal" else (action[1], action[2])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), asks=st.integers(0, 45), players=st.integers(3, 5),
       deck=st.sampled_from(["classic", "world", "AKQJ"]), bonus=st.booleans(), dealer_takes=st.booleans(),
       memory=st.sampled_from([0, 0, 3, 8]), depth=st.integers(1, 2), opponents=st.sampled_from(kw.OPPONENT_MODELS))
def test_advice_is_the_decision_of_a_bot_in_play(seed, asks, players, deck, bonus, dealer_takes, memory, depth,
                                                 opponents):
    """The position seen through a Knowledge gives the very decision a fresh bot makes
    in the game itself: the same candidates, estimates, rollout values and choice
    (memory Kwartet included, where turning up a middle card is a candidate)."""
    rules = Rules(bonus_turn=bonus, remainder="dealer" if dealer_takes and not memory else "pile", memory=memory)
    game, _ = _game_to(DECKS[deck], players, seed, asks, rules)
    if game.is_over:
        return
    me = game.to_move
    options = dict(seed=seed, samples=40, depth=depth, opponents=opponents)
    in_play = PlanningBot(**options)
    in_play.start(game, me)
    action = in_play.choose()
    advice = PlanningBot(**options).advise(Knowledge.from_game(game, me))
    assert advice.candidates[advice.chosen] == _as_candidate(action)
    if in_play.last_decision is None:  # one legal action, or one candidate: play skips the rollouts
        assert advice.rollouts > 0
    else:
        d = in_play.last_decision
        assert (d.candidates, d.prior, d.values, d.chosen, d.rollouts) == (
            advice.candidates, advice.prior, advice.values, advice.chosen, advice.rollouts)
    legal = game.legal_asks(me) + ([kw.REVEAL] if game.can_reveal() else [])
    assert advice.candidates[advice.chosen] in legal
    assert (kw.REVEAL in advice.candidates) == game.can_reveal()


def test_advice_is_deterministic_and_starts_afresh():
    game, _ = _game_to(DECKS["classic"], 4, 7, 12, Rules())
    k = Knowledge.from_game(game, game.to_move)
    bot = PlanningBot(seed=3, samples=60)
    first = bot.advise(k)
    again = bot.advise(k)
    assert (first.candidates, first.values, first.chosen) == (again.candidates, again.values, again.chosen)
    assert bot.last_decision == again
    # the bot can still play a game afterwards
    g2 = Game(DECKS["classic"], players=4, seed=1)
    assert kw.play(g2, [bot, kw.MemoryBot(seed=1), kw.MemoryBot(seed=2), kw.MemoryBot(seed=3)]).is_over
    # the knowledge is only read
    assert len(k.events) == len(Knowledge.from_game(game, game.to_move).events)


def test_advice_on_a_hand_written_position():
    deck = DECKS["AKQJ"]
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=1)
    kw.replay_record(k, "2 asks 1 for Qd: no; 0 asks 2 for Qd: no; 1 asks 2 for Ks: yes; 1 asks 0 for Kh: no;"
                        "2 asks 0 for Jd: no")
    assert k.to_move == 0
    d = PlanningBot(seed=0, samples=300).advise(k)
    # player 1 surely holds Jd (the guide's reasoning): the one ask certain to hit is a candidate
    assert (1, deck.card("Jd")) in d.candidates
    assert d.candidates[d.chosen] in [(t, c) for t in (1, 2) for c in range(16)
                                      if k.hand >> (4 * (c // 4)) & 0xF and not k.hand >> c & 1]
    assert all(0.0 <= v <= 1.25 for v in d.values) and d.rollouts == 300 * len(d.candidates)


def test_advice_refuses_positions_it_cannot_take():
    deck = DECKS["AKQJ"]
    bot = PlanningBot(seed=0, samples=20)
    with pytest.raises(InvalidStateError, match="must be a kwartet.Knowledge"):
        bot.advise("Ac Ad")  # type: ignore[arg-type]
    # a draw pile is not modelled by the rollouts: the advice is the inference bot's
    game = Game(Deck.themed("classic"), players=3, seed=1, rules=Rules.preset("draw"))
    assert bot.advise(Knowledge.from_game(game, 0)).rollouts == 0
    # a complete quartet not laid down
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Ah Jc Js")
    k.ask(0, 1, "As", True)
    with pytest.raises(InvalidStateError, match="lay it down first"):
        bot.advise(k)
    # an empty hand after laying down the last quartet
    k = Knowledge(deck, players=4, me=0, hand="Ac Ad Ah Jc")
    k.ask(0, 1, "As", True)
    k.lay(0, "A")
    k.ask(0, 2, "Jd", True)
    k.ask(0, 2, "Jh", True)
    k.ask(0, 3, "Js", True)
    k.lay(0, "J")
    with pytest.raises(InvalidStateError, match="has no cards"):
        bot.advise(k)
    # unseen draws
    game = play_to_unseen_draw(Game(Deck.themed("classic"), players=3, seed=1, rules=Rules.preset("draw")),
                               kw.NoviceBot, to_move=False)
    # without the rules, the record's unseen draw still tells: exact inference goes on,
    # and the advice is the inference bot's (the rollouts have no draws)
    k = Knowledge.from_log(game.deck, game.private_log(0), 0, game.initial_hands[0])
    assert 0 < k.count()
    if k.to_move == 0:
        assert bot.advise(k).rollouts == 0


def test_advice_in_memory_kwartet():
    """Memory Kwartet: turning up a middle card is a candidate while the middle holds
    cards, and the only one for a player who has no cards left."""
    deck = DECKS["AKQJ"]
    rules = Rules(memory=4)
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Ah Jc", rules=rules, dealer=2)
    d = PlanningBot(seed=0, samples=50).advise(k)
    assert kw.REVEAL in d.candidates and d.prior[d.candidates.index(kw.REVEAL)] == 1.0
    assert d.to_dict()["candidates"][d.candidates.index(kw.REVEAL)] == [-1, -1]
    # after laying down both quartets it holds cards of, the player must turn one up
    # (out of cards, its turn passes; the others turn up a card each)
    kw.replay_record(k, "0 asks 1 for As: yes; 0 lays A; 0 asks 2 for Jd: yes; 0 asks 2 for Jh: yes;"
                        "0 asks 1 for Js: yes; 0 lays J; 1 turns up Kd; 2 turns up Qc")
    assert k.hand == 0 and k.to_move == 0
    d = PlanningBot(seed=0, samples=50).advise(k)
    assert d.candidates == (kw.REVEAL,) and d.chosen == 0
    # once the middle is empty, only asks are left
    kw.replay_record(k, "0 turns up Kc; 1 turns up Qd; 2 asks 0 for Qd: no")
    assert k.pile_size == 0 and k.hand == 1 << deck.card("Kc") and k.to_move == 0
    d = PlanningBot(seed=0, samples=50).advise(k)
    assert kw.REVEAL not in d.candidates and all(t in (1, 2) for t, _ in d.candidates)


def test_advice_when_only_one_opponent_holds_cards():
    deck = DECKS["AKQJ"]
    # player 1 ends with no cards: player 0 then may ask player 2 only
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js")
    d = PlanningBot(seed=0, samples=30).advise(k)
    assert {t for t, _ in d.candidates} <= {1, 2}


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), deck=st.sampled_from(sorted(DECKS)), players=st.integers(3, 6),
       asks=st.integers(0, 80), style=st.integers(0, 10**6), memory=st.sampled_from([0, 0, 4]))
def test_written_records_read_back_exactly(seed, deck, players, asks, style, memory):
    """A game's public log written out as text reads back as the same events, and the
    Knowledge replayed from it is the one built from the game (memory Kwartet's
    middle cards turned up included)."""
    d = DECKS[deck]
    if players * 2 + memory > len(d):
        return
    rules = Rules(memory=memory)
    game, _ = _game_to(d, players, seed, asks, rules)
    events = list(game.log[1:])
    text = _written(d, events, random.Random(style))
    assert kw.parse_events(d, text) == events
    me = seed % players
    k = Knowledge(d, players, me, game.initial_hands[me], dealer=game.dealer, rules=rules)
    kw.replay_record(k, text)
    ref = Knowledge.from_game(game, me)
    assert k.count() == ref.count() and k.hand_sizes == ref.hand_sizes and k.hand == game.hand(me)
    assert (k.probabilities() == ref.probabilities()).all()


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(["1", "P2", "0", "9", "asks", "lays", "for", "Ks", "Jd:", "yes", "no", "K", "J",
                              "Bach", ";", "\n", "#", ",", "x", "-1", "hit", "turns up", "reveals", "Qh"]),
             max_size=12).map(" ".join)))
def test_record_fuzz_parses_or_raises_typed_errors(text):
    deck = DECKS["AKQJ"]
    try:
        events = kw.parse_events(deck, text)
    except NotationError as exc:
        assert "line" in str(exc) or "must be text" in str(exc)
    else:
        assert all(isinstance(e, (Asked, Laid, Revealed)) for e in events)
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    before = k.count()
    try:
        kw.replay_record(k, text)
    except (NotationError, IllegalActionError, InvalidStateError) as exc:
        assert str(exc).startswith("line ") or "must be text" in str(exc)
    except QuartetError as exc:  # pragma: no cover - any other library error is a defect here
        pytest.fail(f"untyped failure {exc!r}")
    if not k.events:
        assert k.count() == before


def test_record_errors_name_the_line():
    deck = DECKS["AKQJ"]
    with pytest.raises(NotationError, match=r"line 2 \('1 asks 2 for Zz: yes'\)"):
        kw.parse_events(deck, "1 asks 2 for Ks: yes\n1 asks 2 for Zz: yes")
    with pytest.raises(NotationError, match="line 1"):
        kw.parse_events(deck, "1 lays Z")
    with pytest.raises(NotationError, match="must be text"):
        kw.parse_events(deck, 5)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="kwartet.Deck"):
        kw.parse_events("AKQJ", "1 lays K")  # type: ignore[arg-type]
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    with pytest.raises(InvalidStateError, match=r"line 3 .*seat in 0\.\.2"):
        kw.replay_record(k, "1 asks 2 for Ks: yes\n\n7 asks 0 for Kh: no")
    assert len(k.events) == 1  # the events before the bad line stay applied
    with pytest.raises(InvalidStateError, match=r"line 1 .*holds it"):
        kw.replay_record(k, "2 asks 0 for Ac: no")
    with pytest.raises(InvalidStateError, match="kwartet.Knowledge"):
        kw.replay_record(None, "")  # type: ignore[arg-type]


def test_decision_errors_are_the_standard_errors_of_the_values(monkeypatch):
    game, _ = _game_to(DECKS["classic"], 4, 11, 6, Rules())
    k = Knowledge.from_game(game, game.to_move)
    seen = []
    real = PlanningBot._values

    def spy(self, deals, record, asks, model):
        out = real(self, deals, record, asks, model)
        seen.append(out)
        return out

    monkeypatch.setattr(PlanningBot, "_values", spy)
    d = PlanningBot(seed=1, samples=80).advise(k)
    (value,) = seen
    assert value.shape == (len(d.candidates), 80)
    assert d.values == tuple(float(x) for x in value.mean(axis=1))
    assert d.errors == tuple(float(x) for x in value.std(axis=1, ddof=1) / 80 ** 0.5)
    assert d.to_dict()["errors"] == list(d.errors)


def test_bad_planner_arguments_raise_argument_errors():
    """Counts, limits and seeds out of range are ArgumentErrors naming the argument,
    raised when the bot is made, not at its first decision."""
    for options, name in [({"samples": 0}, "samples"), ({"samples": 250_001}, "samples"),
                          ({"candidates": 0}, "candidates"), ({"depth": 0}, "depth"), ({"diverse": -1}, "diverse"),
                          ({"time_budget": 0}, "time_budget"), ({"time_budget": float("nan")}, "time_budget"),
                          ({"quartet_weight": -1.0}, "quartet_weight"), ({"opponents": "psychic"}, "opponents")]:
        with pytest.raises(ArgumentError, match=name):
            PlanningBot(**options)
    assert PlanningBot(samples=250_000).samples == 250_000
    assert PlanningBot(time_budget=np.float32(0.5)).time_budget == 0.5
    k = Knowledge(DECKS["AKQJ"], players=3, me=0, hand="Ac Ad Qc Jc Js")
    with pytest.raises(ArgumentError, match="n must be an int in 0..1,000,000, got -1"):
        k.sample(-1)
    with pytest.raises(ArgumentError, match="games must be a positive int"):
        kw.simulate([kw.NoviceBot(), kw.NoviceBot(), kw.NoviceBot()], games=0)
    with pytest.raises(ArgumentError, match="memory must be an int >= 0"):
        Rules(memory=-1)
    with pytest.raises(InvalidStateError, match="hand_sizes must be a list of counts"):
        Knowledge.from_log(DECKS["AKQJ"], [kw.Dealt(2, None, 1)], 0, "Ac Ad Qc Jc Js")  # type: ignore[arg-type]


def test_advice_in_a_draw_pile_game_is_the_inference_bots_ask():
    """With a draw pile advise runs no rollouts: it names the ask the planner makes there,
    the inference bot's (through the other players' unseen draws), values = estimates."""
    for seed in range(3):
        game = play_to_unseen_draw(Game(Deck.themed("classic"), players=4, seed=seed, rules=Rules.preset("draw")))
        k = Knowledge.from_game(game, 0)
        d = PlanningBot(seed=seed).advise(k)
        assert d.rollouts == 0 and d.values == d.prior and set(d.errors) == {0.0}
        fresh = PlanningBot(seed=seed)
        fresh.start(game, 0)
        assert fresh.choose() == ("ask", *d.candidates[d.chosen])
        ref = kw.InferenceBot(seed=seed)
        ref.start(game, 0)
        assert ref.choose() == ("ask", *d.candidates[d.chosen])


def test_written_draws_read_back():
    deck = Deck.standard("AKQJ")
    events = kw.parse_events(deck, "0 asks 1 for Ad: no; 0 draws Js; 1 asks 2 for Kh: no; P1 draws a card; 2 draws")
    assert events[1] == kw.Drew(0, deck.card("Js")) and events[3] == kw.Drew(1) and events[4] == kw.Drew(2)
    k = Knowledge(deck, players=3, me=0, hand="Ac Kd Qh Jc", rules=Rules(draw_pile=4), dealer=2)
    kw.replay_record(k, "0 asks 1 for Ad: no\n0 draws Js\n1 asks 2 for Kh: no\n1 draws a card")
    assert k.probability(1, "Kh") == pytest.approx(1 / 3)
    with pytest.raises(NotationError, match="line 1"):
        kw.parse_events(deck, "0 draws Xx")
    with pytest.raises(IllegalActionError, match="line 1.*draws out of turn"):
        kw.replay_record(Knowledge(deck, players=3, me=0, hand="Ac Kd Qh Jc", rules=Rules(draw_pile=4), dealer=2),
                         "2 draws a card")
