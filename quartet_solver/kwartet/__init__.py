"""Kwartet: the Dutch asking-and-collecting game of quartets.

Decks live in :mod:`~quartet_solver.kwartet.decks`, rule options in
:mod:`~quartet_solver.kwartet.rules`, the engine in
:mod:`~quartet_solver.kwartet.game`, exact inference in
:mod:`~quartet_solver.kwartet.knowledge`, bots in
:mod:`~quartet_solver.kwartet.bots`, the planning player in
:mod:`~quartet_solver.kwartet.planning`, written game records in
:mod:`~quartet_solver.kwartet.record`, a seat played from the console in
:mod:`~quartet_solver.kwartet.console` and bot tournaments in
:mod:`~quartet_solver.kwartet.simulate`; the names below are the public API.

>>> from quartet_solver import kwartet as kw
>>> deck = kw.Deck.standard(ranks="AKQJ")
>>> k = kw.Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
>>> k.ask(asker=1, target=2, card="Ks", success=True)
>>> k.probability(2, "Kh") + k.probability(1, "Kh") + k.probability(kw.PILE, "Kh")
1.0
>>> game = kw.Game(kw.Deck.themed(), players=4, seed=1, rules=kw.Rules())
>>> kw.play(game, [kw.InferenceBot(seed=i) for i in range(4)]).is_over
True
"""

from .bots import Bot, InferenceBot, MemoryBot, NoviceBot, View, play
from .console import ConsolePlayer
from .decks import THEMED_DECKS, Deck, Quartet
from .game import Asked, Dealt, Drew, Game, Laid, Revealed
from .knowledge import LAID, PILE, Knowledge
from .planning import OPPONENT_MODELS, REVEAL, Decision, PlanningBot
from .record import parse_events, replay_record
from .rules import Rules
from .simulate import BotStats, SimulationResult, make_bot, simulate

__all__ = [
    "Asked",
    "Bot",
    "BotStats",
    "ConsolePlayer",
    "Dealt",
    "Decision",
    "Deck",
    "Drew",
    "Game",
    "InferenceBot",
    "Knowledge",
    "LAID",
    "Laid",
    "MemoryBot",
    "NoviceBot",
    "OPPONENT_MODELS",
    "PILE",
    "PlanningBot",
    "REVEAL",
    "Quartet",
    "Revealed",
    "Rules",
    "SimulationResult",
    "THEMED_DECKS",
    "View",
    "make_bot",
    "parse_events",
    "play",
    "replay_record",
    "simulate",
]
