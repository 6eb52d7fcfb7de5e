"""``ConsolePlayer``: a seat whose asks are typed, and ``kwartet play --you``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quartet_solver import kwartet as kw
from quartet_solver.errors import InvalidStateError
from quartet_solver.kwartet import Deck, Game, Rules
from quartet_solver.kwartet.console import ConsolePlayer, GameLeft
from test_kwartet_draw_inference import play_to_unseen_draw

DECKS = {"classic": Deck.themed("classic"), "world": Deck.themed("world"), "AKQJ": Deck.standard("AKQJ"),
         "standard": Deck.standard()}


class FirstActionBot(kw.Bot):
    """A fixed pick among the legal asks and, in memory Kwartet, the middle cards:
    what a scripted person types."""

    def __init__(self, pick: random.Random) -> None:
        super().__init__(seed=0)
        self.pick = pick

    def choose(self):
        v = self._started()
        actions = [("ask", t, c) for t, c in v.legal_asks()]
        if v.can_reveal():
            actions += [("reveal", i) for i in range(v.middle)]
        return actions[self.pick.randrange(len(actions))]


def _typed(deck: Deck, t: int, c: int, style: random.Random) -> str:
    """An ask as a person may type it."""
    card = style.choice([deck.full_name(c), deck.names(1 << c)[0]])
    return style.choice([f"{t} {card}", f"P{t} for {card}", f"p{t}  {card}"])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), deck=st.sampled_from(sorted(DECKS)), players=st.integers(3, 6),
       seat=st.integers(0, 5), noise=st.integers(0, 10**6))
def test_typed_asks_play_the_game_they_name(seed, deck, players, seat, noise):
    """A whole game with one seat typed, noise (commands, bad lines) between the asks,
    is the game a bot making the same asks plays."""
    d = DECKS[deck]
    seat %= players
    if players * 2 > len(d):
        return
    ref = Game(d, players=players, seed=seed)
    ref_bots = [FirstActionBot(random.Random(seed)) if i == seat else kw.MemoryBot(seed=i) for i in range(players)]
    kw.play(ref, ref_bots)
    asks = [(e.target, e.card) for e in ref.log[1:] if isinstance(e, kw.Asked) and e.asker == seat]
    style = random.Random(noise)
    lines = []
    for t, c in asks:
        for _ in range(style.randrange(3)):
            lines.append(style.choice(["", "help", "probs", "blah", f"{t} Nothing", f"{seat} {d.full_name(c)}",
                                       d.full_name(c)]))
        lines.append(_typed(d, t, c, style))
    feed = iter(lines)
    shown: list[str] = []
    game = Game(d, players=players, seed=seed)
    bots = [ConsolePlayer(seed=1, read=lambda prompt: next(feed), write=shown.append) if i == seat
            else kw.MemoryBot(seed=i) for i in range(players)]
    kw.play(game, bots)
    assert game.log == ref.log
    assert next(feed, None) is None  # every typed line was read


def test_hint_and_probs_show_the_planner_and_the_posterior():
    game = Game(DECKS["classic"], players=4, seed=5)
    typed = iter(["hint", "probs", "quit"])
    shown: list[str] = []
    me = ConsolePlayer(seed=2, read=lambda prompt: next(typed), write=shown.append, samples=100)
    me.start(game, game.to_move)
    with pytest.raises(GameLeft, match="left the game"):
        me.choose()
    advice = kw.PlanningBot(seed=2, samples=100).advise(kw.Knowledge.from_game(game, game.to_move))
    t, c = advice.candidates[advice.chosen]
    assert f"hint: ask P{t} for {game.deck.full_name(c)}" in "\n".join(shown)
    assert kw.Knowledge.from_game(game, game.to_move).pretty() in shown


def test_input_that_ends_is_an_error():
    game = Game(DECKS["classic"], players=3, seed=1)
    me = ConsolePlayer(seed=0, read=lambda prompt: (_ for _ in ()).throw(EOFError()), write=lambda s: None)
    me.start(game, game.to_move)
    with pytest.raises(InvalidStateError, match="input ended"):
        me.choose()


def test_bad_lines_say_what_is_wrong():
    game = Game(DECKS["classic"], players=3, seed=3)
    seat = game.to_move
    hand = game.hand(seat)
    held = next(c for c in range(32) if hand >> c & 1)
    foreign_q = next(q for q in range(8) if not hand >> (4 * q) & 0xF)
    asks = game.legal_asks(seat)
    t, c = asks[0]
    typed = iter(["2 Pizza", f"{t} {game.deck.full_name(held)}", f"{t} {game.deck.full_name(4 * foreign_q)}",
                  f"{seat} {game.deck.full_name(c)}", "hello there friend", f"{t} {game.deck.full_name(c)}"])
    shown: list[str] = []
    me = ConsolePlayer(seed=0, read=lambda prompt: next(typed), write=shown.append)
    me.start(game, seat)
    assert me.choose() == ("ask", t, c)
    out = "\n".join(shown)
    assert "unknown card 'Pizza'" in out and "yourself" in out and "you hold no card of" in out
    assert f"P{seat} may not be asked" in out and "not an ask" in out


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), deck=st.sampled_from(["classic", "AKQJ", "world"]), players=st.integers(3, 5),
       seat=st.integers(0, 4), memory=st.integers(1, 8), noise=st.integers(0, 10**6))
def test_memory_kwartet_typed_reveals_play_the_game_they_name(seed, deck, players, seat, memory, noise):
    """Memory Kwartet: typed asks and 'reveal N' lines (with hints and bad lines in
    between) play the game a bot making the same choices plays."""
    d = DECKS[deck]
    seat %= players
    if players * 2 + memory > len(d):
        return
    rules = Rules(memory=memory)
    ref = Game(d, players=players, seed=seed, rules=rules)
    ref_bots = [FirstActionBot(random.Random(seed)) if i == seat else kw.MemoryBot(seed=i) for i in range(players)]
    kw.play(ref, ref_bots)
    style = random.Random(noise)
    lines = []
    # replay the reference to learn the middle positions of the seat's reveals
    replay = Game(d, players=players, seed=seed, rules=rules)
    for e in ref.log[1:]:
        if isinstance(e, kw.Asked):
            if e.asker == seat:
                lines.append(style.choice(["", "help", "reveal 99", "hint"]))
                lines.append(_typed(d, e.target, e.card, style))
            replay.ask(e.target, e.card)
        elif isinstance(e, kw.Revealed):
            position = replay._pile.index(e.card)
            if e.player == seat:
                lines.append(style.choice(["", "blah", "reveal 99"]))
                lines.append(style.choice([f"reveal {position}", f"turn up {position}", f"REVEAL {position}"]))
            replay.reveal(position)
    feed = iter(lines)
    shown: list[str] = []
    game = Game(d, players=players, seed=seed, rules=rules)
    bots = [ConsolePlayer(seed=1, read=lambda prompt: next(feed), write=shown.append, samples=20) if i == seat
            else kw.MemoryBot(seed=i) for i in range(players)]
    kw.play(game, bots)
    assert game.log == ref.log
    assert next(feed, None) is None


def test_reveal_where_there_is_no_middle():
    game = Game(DECKS["classic"], players=3, seed=3)
    seat = game.to_move
    t, c = game.legal_asks(seat)[0]
    typed = iter(["reveal", f"{t} {game.deck.full_name(c)}"])
    shown: list[str] = []
    me = ConsolePlayer(seed=0, read=lambda prompt: next(typed), write=shown.append)
    me.start(game, seat)
    assert me.choose() == ("ask", t, c)
    assert "no middle cards" in "\n".join(shown)


def test_hint_in_a_draw_pile_game_is_the_inference_choice():
    """With a draw pile the planner has no rollouts; the hint names the ask the inference
    bot rates likeliest, by the exact posterior through the others' unseen draws."""
    game = play_to_unseen_draw(Game(DECKS["classic"], players=4, seed=7, rules=kw.Rules.preset("draw")))
    typed = iter(["hint", "quit"])
    shown: list[str] = []
    me = ConsolePlayer(seed=2, read=lambda prompt: next(typed), write=shown.append)
    me.start(game, 0)
    with pytest.raises(GameLeft, match="left the game"):
        me.choose()
    text = "\n".join(shown)
    assert "asks as the inference bot (exact posterior)" in text
    ref = kw.InferenceBot(seed=0)
    ref.start(game, 0)
    ref._update()
    best = max(s for s, _, _ in ref._scores())
    lines = [line for line in shown if "estimated hit chance" in line]
    assert lines[0].startswith(">") and float(lines[0].rsplit(" ", 1)[1]) == round(best, 2)
    hinted = next(line for line in shown if line.startswith("hint: ask P"))
    t = int(hinted.split("P", 1)[1].split(" ", 1)[0])
    card = game.deck.card(hinted.split(" for ", 1)[1])
    assert (t, card) in game.legal_asks()
