"""Klaverjas: the Dutch four-player trick-taking game.

Rules (Amsterdam and Rotterdam) live in :mod:`~quartet_solver.klaverjas.rules`,
deals in :mod:`~quartet_solver.klaverjas.deal`, the play of a hand in
:mod:`~quartet_solver.klaverjas.state`, bidding in
:mod:`~quartet_solver.klaverjas.bidding`, bots in :mod:`~quartet_solver.klaverjas.bots`,
16-hand games in :mod:`~quartet_solver.klaverjas.match`, the double-dummy solver in
:mod:`~quartet_solver.klaverjas.dd` and DD tables, par and bid analysis in
:mod:`~quartet_solver.klaverjas.analysis`.

>>> from quartet_solver import klaverjas as kj
>>> st = kj.PlayState(kj.Deal.random(seed=1), trump="h", declarer="N", leader="E")
>>> st.to_move
'E'
"""

from ..cards import Card, CardMap, CardSet, Suit
from .analysis import BidAnalysis, DDTable, Par, analyse_bid, dd_table, par
from .batch import dd_tables, random_deals
from .bidding import BiddingState
from .bots import BidView, Bot, PlayView, RandomBot, RuleBot
from .dd import DDResult, is_made, reaches, solve, solve_deal
from .deal import Deal
from .match import HandRecord, Match, MatchResult, play_hand, play_match
from .pbn import read_pbn, read_pbn_deals, read_pbn_match, write_pbn
from .hand_review import CardReview, HandReview, review
from .rules import SEATS, Rules, legal_cards, trick_roem
from .sampling_bot import LEVELS, SamplingBot, make_bot
from .sampling import Constraints, bidding_weight, consistent, constraints, sample_deals
from .state import HandResult, PlayState, Trick

__all__ = [
    "BidAnalysis",
    "BidView",
    "BiddingState",
    "Bot",
    "Card",
    "CardMap",
    "CardSet",
    "DDResult",
    "DDTable",
    "Deal",
    "HandRecord",
    "HandResult",
    "Match",
    "MatchResult",
    "Par",
    "PlayState",
    "PlayView",
    "RandomBot",
    "RuleBot",
    "Rules",
    "SEATS",
    "Suit",
    "Trick",
    "analyse_bid",
    "dd_table",
    "dd_tables", "random_deals",  # batch.py
    "is_made",
    "legal_cards",
    "par",
    "play_hand",
    "play_match",
    "reaches",
    "read_pbn",
    "read_pbn_deals",
    "read_pbn_match",
    "solve",
    "solve_deal",
    "trick_roem",
    "LEVELS",
    "SamplingBot",
    "make_bot",
    "write_pbn",
    "sample_deals", "constraints", "consistent", "Constraints", "bidding_weight",  # sampling.py
    "review", "HandReview", "CardReview",  # review.py
]
