"""Klaverjas: the Dutch four-player trick-taking game.

Rules (Amsterdam and Rotterdam) live in :mod:`~quartet_solver.klaverjas.rules`,
deals in :mod:`~quartet_solver.klaverjas.deal`, the play of a hand in
:mod:`~quartet_solver.klaverjas.state`, bidding in
:mod:`~quartet_solver.klaverjas.bidding`, bots in :mod:`~quartet_solver.klaverjas.bots`
and 16-hand games in :mod:`~quartet_solver.klaverjas.match`.

>>> from quartet_solver import klaverjas as kj
>>> st = kj.PlayState(kj.Deal.random(seed=1), trump="h", declarer="N", leader="E")
>>> st.to_move
'E'
"""

from .bidding import BiddingState
from .bots import BidView, Bot, PlayView, RandomBot, RuleBot
from .deal import Deal
from .match import HandRecord, MatchResult, play_hand, play_match
from .rules import SEATS, Rules, legal_cards, trick_roem
from .state import HandResult, PlayState, Trick

__all__ = [
    "BidView",
    "BiddingState",
    "Bot",
    "Deal",
    "HandRecord",
    "HandResult",
    "MatchResult",
    "PlayState",
    "PlayView",
    "RandomBot",
    "RuleBot",
    "Rules",
    "SEATS",
    "Trick",
    "legal_cards",
    "play_hand",
    "play_match",
    "trick_roem",
]
