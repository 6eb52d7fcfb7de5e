"""Whose turn it is, read from a record's public events (``kwartet.turns.Turns`` and
``Knowledge.to_move``), against the game engine that passes the turn as it plays."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quartet_solver.errors import IllegalActionError, InvalidStateError
from quartet_solver.kwartet import (Asked, Deck, Drew, Game, Knowledge, Laid, MemoryBot, NoviceBot, PlanningBot,
                                    Revealed, Rules, play, replay_record)
from quartet_solver.kwartet.turns import Turns
from reference.kwartet_posterior import brute_deals

RULES = {
    "standard": Rules(),
    "bonus": Rules(bonus_turn=True),
    "dealer": Rules(remainder="dealer"),
    "dealer+bonus": Rules(remainder="dealer", bonus_turn=True),
    "memory": Rules(memory=4),
    "memory+bonus": Rules(memory=4, bonus_turn=True),
    "draw": Rules(draw_pile=4),
    "draw+bonus": Rules(draw_pile=4, bonus_turn=True),
}
DECKS = {"AKQJ": Deck.standard("AKQJ"), "AKQJT": Deck.standard("AKQJT"), "classic": Deck.themed("classic")}


def _replay_turns(game: Game) -> tuple[Turns, list[int], bool]:
    """Follow ``game``'s public log with a Turns, checking before every action that the
    actor is the player it names; returns it at the log's end."""
    dealt = game.log[0]
    sizes = [*dealt.hand_sizes, dealt.pile]
    laid = 0
    turns = Turns(game.players, dealt.dealer, game.rules)
    n_quartets = game.deck.n_quartets
    for ev in game.log[1:]:
        done = laid == n_quartets
        if isinstance(ev, Asked):
            assert turns.to_move(sizes, done) == ev.asker, ev
            turns.action(ev.asker, "hit" if ev.hit else "miss", sizes, done)
            if ev.hit:
                sizes[ev.target] -= 1
                sizes[ev.asker] += 1
        elif isinstance(ev, Revealed):
            assert turns.to_move(sizes, done) == ev.player, ev
            turns.action(ev.player, "reveal", sizes, done)
            sizes[-1] -= 1
            sizes[ev.player] += 1
        elif isinstance(ev, Drew):
            turns.drew(ev.player, sizes, done)
            sizes[-1] -= 1
            sizes[ev.player] += 1
        elif isinstance(ev, Laid):
            turns.laid(ev.player, sizes, done)
            sizes[ev.player] -= 4
            laid += 1
    assert sizes[:-1] == list(game.hand_sizes)
    return turns, sizes, laid == n_quartets


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), deck=st.sampled_from(sorted(DECKS)), players=st.integers(3, 6),
       rules=st.sampled_from(sorted(RULES)), asks=st.integers(0, 120), memory_bots=st.booleans())
def test_the_turn_read_from_the_log_is_the_engines(seed, deck, players, rules, asks, memory_bots):
    """Every action of a bot game is by the player the public record says is to move,
    and where the game stops, the record's player to move is the engine's."""
    d, r = DECKS[deck], RULES[rules]
    if players * 2 + r.set_aside > len(d):
        return
    game = Game(d, players, seed=seed, rules=r, dealer=seed % players)
    bots = [(MemoryBot if memory_bots and p % 2 else NoviceBot)(seed=seed + p) for p in range(players)]
    play(game, bots, max_asks=asks)
    turns, sizes, all_laid = _replay_turns(game)
    to_move = turns.to_move(sizes, all_laid)
    if not game.is_over:
        assert to_move == game.to_move
    elif to_move is None:
        pass  # over by the record too
    else:
        # over by what the record cannot show: a card of every open quartet aside
        assert not r.set_aside and game.pile_size > 0
    if r.draw_pile:
        return  # unseen draws: no exact Knowledge
    for me in range(players):
        k = Knowledge.from_game(game, me)
        if not game.is_over:
            assert k.to_move == game.to_move and not k.is_over
        elif k.is_over:
            assert game.is_over


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), asks=st.integers(0, 60), me=st.integers(0, 2))
def test_a_game_known_to_be_over_is_what_every_consistent_deal_says(seed, asks, me):
    """``Knowledge.is_over`` against brute force: every quartet laid, or on every deal
    consistent with the record (enumerated) a card of each open quartet lies aside."""
    deck = DECKS["AKQJ"]            # three players: five cards each and one aside
    game = play(Game(deck, 3, seed=seed), [NoviceBot(seed=seed + p) for p in range(3)], max_asks=asks)
    k = Knowledge.from_game(game, me)
    deals = brute_deals(len(deck), game.private_log(me), me, game.initial_hands[me])
    assert deals, game.log
    blocked = all(all(any(deal[c] == -1 for c in range(4 * q, 4 * q + 4))
                      for q in range(deck.n_quartets) if deal[4 * q] != -2) for deal in deals)
    all_laid = all(loc == -2 for loc in deals[0])
    assert k.is_over == (blocked or all_laid)
    if not game.is_over:
        assert not k.is_over


def test_out_of_turn_events_are_refused_and_change_nothing():
    deck = Deck.standard("AKQJ")
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js")  # dealer: seat 2, so seat 0 starts
    assert k.to_move == 0
    with pytest.raises(IllegalActionError, match="player 1 acts out of turn: it is player 0's turn"):
        k.ask(1, 2, "Ks", True)
    assert k.events == [] and k.count() == 2688
    k.ask(0, 1, "Ah", True)  # a hit keeps the turn
    assert k.to_move == 0
    k.ask(0, 2, "As", False)  # a miss passes it to the left
    assert k.to_move == 1
    with pytest.raises(IllegalActionError, match="out of turn"):
        k.reveal(0, "Kc")
    # the dealer moves the start
    assert Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0).to_move == 1
    with pytest.raises(InvalidStateError, match="dealer must be a seat"):
        Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=3)


def test_a_game_known_to_be_over_refuses_asks_and_advice():
    """Every open quartet blocked by the side pile ends the game; when the observer can
    tell, a further ask is refused and the planner gives no advice."""
    deck = Deck.standard("AKQJ")
    k = Knowledge(deck, players=3, me=1, hand="As Ks Kh Qc Jh")
    for event in ["0 asks 1 for As: yes", "0 lays A", "0 asks 1 for Ks: yes", "0 asks 1 for Kh: yes", "0 lays K",
                  "1 asks 2 for Qd: yes", "1 asks 2 for Qh: yes", "1 asks 2 for Qs: yes", "1 lays Q"]:
        replay_record(k, event)
    # the jacks are the one open quartet, and the one card aside must be a jack
    assert k.is_over and k.to_move == 1
    with pytest.raises(IllegalActionError, match="after the game is over"):
        k.ask(1, 2, "Jc", True)
    with pytest.raises(InvalidStateError, match="the game is over"):
        PlanningBot(seed=0, samples=20).advise(k)


def test_advice_only_for_the_player_to_move():
    deck = Deck.standard("AKQJ")
    k = Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
    k.ask(1, 2, "Ks", True)
    with pytest.raises(InvalidStateError, match="it is player 1's turn, not player 0's"):
        PlanningBot(seed=0, samples=20).advise(k)
    k.ask(1, 0, "Kh", False)
    k.ask(2, 1, "Qd", False)
    assert k.to_move == 0
    assert PlanningBot(seed=0, samples=20).advise(k).candidates
