"""The games of the Klaverjas server, independent of HTTP.

A game is its deals plus its log of actions.  The deals of a Daily game are
``Deal.daily(date, n)`` (everybody gets the same cards on a calendar date), those
of a New game ``Deal.random(f"{secret}:{n}")`` with a secret seed that stays on
the server.  You play South; North (your partner), East and West are computer
players of the game's level, seeded per deal and seat
(:func:`bot_seed`): the same cards, position and level give the same choices,
for every Daily player and after a restart.

The log holds every action, South's and the computer players', numbered from 0
(``seq``).  :meth:`Game.replay` rebuilds a game from it, checking every action
(the right seat, a legal bid or card); with ``verify_bots=True`` it also
recomputes every computer player's move and checks that the log holds that move.
A state's ``seq`` is the number of actions in the log.

Hand ``n`` is dealt by N, E, S, W in turn (N deals hand 1); the bidding starts
left of the dealer; when all four pass, the player left of the dealer must name
trumps (both presets).  After hand 16 (or the game's number of hands) the game
is over and its totals are recomputed from the log.

:class:`GameService` joins games to a :class:`~.storage.Storage`: it creates
games, applies South's moves with the computer players' replies (stored before
the answer), makes moves idempotent and keeps recently used games in memory.

>>> from quartet_solver.klaverjas.web.storage import Storage
>>> service = GameService(Storage(":memory:"), today=lambda: _dt.date(2026, 12, 3))
>>> state = service.create({"mode": "daily", "level": "easy", "token": "t" * 16})
>>> state["phase"], state["hand_no"], state["dealer"], state["to_move"], len(state["hand"])
('playing', 1, 'N', 'S', 8)
>>> card = state["legal"][0]
>>> after = service.move(state["id"], "play", {"card": card, "seq": state["seq"]})
>>> after["seq"] > state["seq"], card in after["hand"]
(True, False)
>>> service.move(state["id"], "play", {"card": card, "seq": state["seq"]}) == after  # a retry
True
"""

from __future__ import annotations

import datetime as _dt
import re
import secrets
import threading
import time
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ...cards import Card, Suit
from ...errors import NotationError, QuartetError
from ..bidding import BiddingState
from ..bots import BidView, PlayView
from ..deal import Deal, format_hand
from ..hand_review import review
from ..match import HandRecord
from ..rules import SEATS, Rules, seat_index
from ..sampling_bot import LEVELS, make_bot
from ..state import PlayState
from .storage import Action, Finish, GameRow, Storage

__all__ = [
    "HANDS", "MODES", "RULES", "NICKNAME_MAX", "SOUTH",
    "GameError", "BadRequest", "NotFound", "IllegalMove", "StaleSeq", "GameOver", "Busy",
    "Game", "GameService", "bot_seed", "dealer_of", "deal_of", "state_leaks",
    "check_nickname", "check_token",
]

SOUTH = "S"
HANDS = 16
MODES = ("daily", "new")
RULES = ("amsterdam", "rotterdam")
NICKNAME_MAX = 24
TEAMS = ("NS", "EW")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_CARD_TEXT = re.compile(r"(?:[789TJQKA]|10)[cdhs]", re.IGNORECASE)
_SHOWN_CARD = re.compile(r"[2-9TJQKA][cdhs]")
_PBN = re.compile(r"[NESW]:\S*\.\S*\.")
_BAD_NICK_CATEGORIES = {"Cc", "Cs", "Zl", "Zp"}


# -- errors --------------------------------------------------------------------------------

class GameError(QuartetError):
    """A request the game refuses; ``kind`` names it and ``status`` is the HTTP
    status the API answers with.  The game is unchanged."""

    status = 400
    kind = "bad_request"

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        if kind is not None:
            self.kind = kind

    def to_dict(self) -> dict[str, object]:
        """The API's error body."""
        return {"error": {"type": self.kind, "message": str(self)}}


class BadRequest(GameError, ValueError):
    """Malformed input: a bad field, value or type (400)."""


class NotFound(GameError, LookupError):
    """No such game (404)."""

    status = 404
    kind = "not_found"


class IllegalMove(GameError, ValueError):
    """A bid or card the rules do not allow now, or not South's turn (409)."""

    status = 409
    kind = "illegal_move"


class StaleSeq(GameError):
    """The move's ``seq`` is not the game's and the move is not the one made at it (409)."""

    status = 409
    kind = "stale_seq"


class GameOver(GameError):
    """A move on a finished game (409)."""

    status = 409
    kind = "game_over"


class Busy(GameError):
    """Other requests kept changing the game (503; try again)."""

    status = 503
    kind = "busy"


# -- the deals, dealers and computer players ------------------------------------------------

def dealer_of(hand_no: int) -> str:
    """The dealer of hand ``hand_no``: N deals hand 1, then E, S, W in turn.

    >>> [dealer_of(n) for n in range(1, 6)]
    ['N', 'E', 'S', 'W', 'N']
    """
    return SEATS[(hand_no - 1) % 4]


def deal_of(row: GameRow, hand_no: int) -> Deal:
    """The deal of hand ``hand_no`` of a game: ``Deal.daily(date, n)`` for a Daily
    game, ``Deal.random(f"{secret}:{n}")`` for a New one."""
    if row.mode == "daily":
        assert row.date is not None
        return Deal.daily(row.date, hand_no)
    return Deal.random(f"{row.seed}:{hand_no}")


def bot_seed(row: GameRow, hand_no: int, seat: str) -> str:
    """The seed of the computer player at ``seat`` in hand ``hand_no``:
    ``"{mode}:{date or secret}:{rules}:{hand_no}:{seat}"`` (never sent to a client).

    >>> row = GameRow("g", "t" * 16, "daily", "2026-12-03", "amsterdam", "normal", None, None, 16, 0.0)
    >>> bot_seed(row, 3, "E")
    'daily:2026-12-03:amsterdam:3:E'
    """
    return f"{row.mode}:{row.date if row.mode == 'daily' else row.seed}:{row.rules}:{hand_no}:{seat}"


# -- input -----------------------------------------------------------------------------------

def check_token(token: object) -> str:
    """A player's token: 16-64 characters of ``[A-Za-z0-9_-]``.

    >>> check_token("abc")
    Traceback (most recent call last):
    ...
    quartet_solver.klaverjas.web.session.BadRequest: token must be 16-64 characters of A-Z, a-z, 0-9, _ and -
    """
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise BadRequest("token must be 16-64 characters of A-Z, a-z, 0-9, _ and -", "bad_token")
    return token


def check_nickname(nickname: object) -> str | None:
    """A nickname: any text of at most 24 characters without control characters,
    kept as given (``None`` or ``""``: none).

    >>> check_nickname("Añna 🂡"), check_nickname("")
    ('Añna 🂡', None)
    >>> check_nickname("a\\nb")
    Traceback (most recent call last):
    ...
    quartet_solver.klaverjas.web.session.BadRequest: nickname must not hold control characters (U+000A)
    """
    if nickname is None or nickname == "":
        return None
    if not isinstance(nickname, str):
        raise BadRequest(f"nickname must be text, got {type(nickname).__name__}", "bad_nickname")
    if len(nickname) > NICKNAME_MAX:
        raise BadRequest(f"nickname is {len(nickname)} characters; at most {NICKNAME_MAX}", "bad_nickname")
    for ch in nickname:
        if unicodedata.category(ch) in _BAD_NICK_CATEGORIES:
            raise BadRequest(f"nickname must not hold control characters (U+{ord(ch):04X})", "bad_nickname")
    return nickname


def _fields(body: object, allowed: Iterable[str]) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadRequest(f"the body must be a JSON object, got {type(body).__name__}")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})", "unknown_field")
    return body


def _choice(body: Mapping[str, Any], key: str, options: Iterable[str], default: str) -> str:
    value = body.get(key, default)
    if value is None:
        return default
    opts = tuple(options)
    if not isinstance(value, str) or value.strip().lower() not in opts:
        raise BadRequest(f"{key} must be one of {', '.join(opts)}, got {value!r}")
    return value.strip().lower()


def _int(body: Mapping[str, Any], key: str, low: int, high: int | None = None) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        upto = f"..{high}" if high is not None else " or more"
        raise BadRequest(f"{key} must be an integer {low}{upto}, got {value!r}")
    return value


def new_game_params(body: object) -> dict[str, Any]:
    """The checked fields of ``POST /api/games``: mode, rules, level, token
    (``None``: make one), nickname and hands.

    >>> new_game_params({"mode": "daily"})["rules"]
    'amsterdam'
    >>> new_game_params({"score": 3000})
    Traceback (most recent call last):
    ...
    quartet_solver.klaverjas.web.session.BadRequest: unknown field 'score' (allowed: hands, level, mode, nickname, rules, token)
    """
    body = _fields(body, ("mode", "rules", "level", "token", "nickname", "hands"))
    token = body.get("token")
    return {
        "mode": _choice(body, "mode", MODES, "new"),
        "rules": _choice(body, "rules", RULES, "amsterdam"),
        "level": _choice(body, "level", LEVELS, "normal"),
        "token": None if token is None else check_token(token),
        "nickname": check_nickname(body.get("nickname")),
        "hands": _int(body, "hands", 1, HANDS) or HANDS,
    }


def move_params(kind: str, body: object) -> tuple[str, int | None]:
    """The normalised value (a suit letter or ``pass``; a card such as ``Th``;
    ``""`` for ``next``) and the ``seq`` of a move's body.

    >>> move_params("bid", {"suit": None}), move_params("play", {"card": "10h", "seq": 4})
    (('pass', None), ('Th', 4))
    """
    if kind == "bid":
        body = _fields(body, ("suit", "seq"))
        if "suit" not in body:
            raise BadRequest("missing 'suit' (a suit letter c, d, h or s, or null to pass)")
        suit = body["suit"]
        if suit is None or suit == "pass":
            value = "pass"
        elif isinstance(suit, str) and suit.strip().lower() in ("c", "d", "h", "s"):
            value = suit.strip().lower()
        else:
            raise BadRequest(f"suit must be c, d, h, s or null (pass), got {suit!r}")
    elif kind == "play":
        body = _fields(body, ("card", "seq"))
        if "card" not in body:
            raise BadRequest("missing 'card' (e.g. \"Th\")")
        card = body["card"]
        if not isinstance(card, str) or not _CARD_TEXT.fullmatch(card.strip()):
            raise BadRequest(f"card must be a card of 7..A such as \"Th\" or \"As\", got {card!r}")
        try:
            value = str(Card.parse(card.strip()))
        except NotationError as exc:  # pragma: no cover - the pattern already checked it
            raise BadRequest(str(exc)) from None
    elif kind == "next":
        body = _fields(body, ("seq",))
        value = ""
    else:  # pragma: no cover - the app only routes these three
        raise BadRequest(f"unknown move {kind!r}")
    return value, _int(body, "seq", 0)


# -- a game ------------------------------------------------------------------------------------

def _hand_text(cards: Iterable[Card]) -> list[str]:
    """Cards as South holds them: spades, hearts, diamonds, clubs, high to low."""
    cards = list(cards)
    return format_hand(cards).split() if cards else []


class Game:
    """One game rebuilt from its log (see the module docstring).  Not thread-safe:
    change a :meth:`copy`, never a game another thread may read.

    >>> row = GameRow("g", "t" * 16, "new", None, "rotterdam", "easy", "secret", None, 1, 0.0)
    >>> game = Game(row)
    >>> game.dealer, game.to_move, game.phase
    ('N', 'E', 'bidding')
    >>> moves = game.bot_moves()
    >>> moves[0].seat, moves[0].kind, game.to_move
    ('E', 'bid', 'S')
    """

    def __init__(self, row: GameRow) -> None:
        self.row = row
        self.rules = Rules.named(row.rules)
        self.actions: list[Action] = []
        self.records: list[HandRecord] = []
        self.hand_no = 1
        self.deal = deal_of(row, 1)
        self.bidding = BiddingState(dealer_of(1), rules=self.rules)
        self.play: PlayState | None = None
        self._reviews: dict[int, dict[str, object]] = {}

    def copy(self) -> Game:
        """A copy that can be changed without changing this game (the states are immutable)."""
        new = object.__new__(Game)
        new.__dict__.update(self.__dict__)
        new.actions = list(self.actions)
        new.records = list(self.records)
        new._reviews = dict(self._reviews)
        return new

    # -- where the game is ----------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        """The number of actions so far (the next action's ``seq``)."""
        return len(self.actions)

    @property
    def dealer(self) -> str:
        return dealer_of(self.hand_no)

    @property
    def phase(self) -> str:
        """``bidding``, ``playing``, ``hand_over`` or ``game_over``."""
        if self.play is None:
            return "bidding"
        if not self.play.is_over:
            return "playing"
        return "game_over" if self.hand_no >= self.row.hands else "hand_over"

    @property
    def to_move(self) -> str | None:
        """The seat to bid or play; ``None`` after a hand."""
        if self.play is None:
            return self.bidding.to_move
        return None if self.play.is_over else self.play.to_move

    @property
    def totals(self) -> tuple[int, int]:
        """The sums of the finished hands' scores (N/S, E/W)."""
        return (sum(r.result.scores[0] for r in self.records), sum(r.result.scores[1] for r in self.records))

    # -- actions ----------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one logged action, checked: its ``seq`` and hand, the seat to
        move, the phase and the rules.  Raises :class:`GameError`, the game unchanged."""
        if action.seq != self.seq:
            raise StaleSeq(f"action {action.seq} does not follow the game's {self.seq} actions")
        phase = self.phase
        if phase == "game_over":
            raise GameOver(f"the game is over after {self.row.hands} hands")
        if action.hand_no != self.hand_no:
            raise IllegalMove(f"the action is for hand {action.hand_no}, but this is hand {self.hand_no}")
        if action.kind == "next":
            if phase != "hand_over":
                raise IllegalMove(f"the next hand is dealt only after a hand (now: {phase})", "wrong_phase")
            if action.seat != SOUTH:
                raise IllegalMove("only South asks for the next hand")
            self.hand_no += 1
            self.deal = deal_of(self.row, self.hand_no)
            self.bidding = BiddingState(self.dealer, rules=self.rules)
            self.play = None
        elif action.kind == "bid":
            if phase != "bidding":
                raise IllegalMove(f"the bidding is over (now: {phase})", "wrong_phase")
            if action.seat != self.bidding.to_move:
                raise IllegalMove(f"{self.bidding.to_move} is to bid, not {action.seat}", "not_your_turn")
            if action.value == "pass":
                if self.bidding.forced:
                    raise IllegalMove(f"{action.seat} may not pass: all four passed, "
                                      f"{action.seat} must name trumps")
                self.bidding = self.bidding.bid(None)
            else:
                self.bidding = self.bidding.bid(Suit.parse(action.value))
            if self.bidding.is_over:
                b = self.bidding
                self.play = PlayState(self.deal, b.trump, b.declarer, b.leader, rules=self.rules)
        elif action.kind == "play":
            if phase != "playing" or self.play is None:
                raise IllegalMove(f"no card can be played now (now: {phase})", "wrong_phase")
            if action.seat != self.play.to_move:
                raise IllegalMove(f"{self.play.to_move} is to play, not {action.seat}", "not_your_turn")
            card = Card.parse(action.value)
            if card not in self.play.legal_cards():
                held = card in self.play.hand(action.seat)
                why = (f"it is not allowed now (legal: {' '.join(map(str, self.play.legal_cards()))})"
                       if held else f"{action.seat} does not hold it")
                raise IllegalMove(f"{action.seat} may not play {card}: {why}")
            self.play = self.play.play(card)
            if self.play.is_over:
                self.records.append(HandRecord(self.hand_no, self.dealer, self.bidding, self.play,
                                               self.play.result()))
        else:
            raise BadRequest(f"unknown action kind {action.kind!r}")
        self.actions.append(action)

    def bot_choice(self) -> tuple[str, str, str]:
        """The computer player's move now: (seat, kind, value)."""
        seat = self.to_move
        if seat is None or seat == SOUTH:
            raise IllegalMove("no computer player is to move")
        bot = make_bot(self.row.level, seed=bot_seed(self.row, self.hand_no, seat))
        if self.play is None:
            b = self.bidding
            i = seat_index(seat)
            suit = bot.choose_bid(BidView(i, b.dealer, self.deal.hands[i], b.bids, b.forced, self.rules))
            return seat, "bid", "pass" if suit is None else suit.char
        return seat, "play", str(bot.choose_card(PlayView.of(self.play)))

    def bot_moves(self, now: float = 0.0) -> list[Action]:
        """Let the computer players move until it is South's turn or the hand is
        over; returns their actions (already applied)."""
        out: list[Action] = []
        while self.phase in ("bidding", "playing") and self.to_move != SOUTH:
            seat, kind, value = self.bot_choice()
            action = Action(self.seq, self.hand_no, seat, kind, value, now)
            self.apply(action)
            out.append(action)
        return out

    def last_south(self) -> Action | None:
        """South's last action."""
        return next((a for a in reversed(self.actions) if a.seat == SOUTH), None)

    def submit(self, kind: str, value: str, seq: int | None = None, now: float = 0.0) -> list[Action] | None:
        """Apply South's move (``kind``, normalised ``value``) and the computer
        players' replies; returns the new actions, or ``None`` when the move is a
        repeat of the move already made (nothing to apply).

        With ``seq`` (the state's ``seq`` the client saw): ``seq`` equal to the
        game's applies the move; an older ``seq`` whose action is this same move
        by South is a repeat; anything else raises :class:`StaleSeq`.  Without
        ``seq``: a move that cannot be applied but repeats South's last action of
        this hand (the same card, the same bid; ``next`` right after ``next``) is
        a repeat.  On an error the game is unchanged."""
        if seq is not None:
            if seq < self.seq:
                made = self.actions[seq]
                if made.seat == SOUTH and made.kind == kind and made.value == value:
                    return None
                raise StaleSeq(f"the game has moved on: seq {seq} is older than the game's ({self.seq}), "
                               f"and the move made at {seq} was not this one; reload the game")
            if seq > self.seq:
                raise StaleSeq(f"seq {seq} is ahead of the game's ({self.seq}); reload the game")
        start = self.seq
        try:
            self.apply(Action(start, self.hand_no, SOUTH, kind, value, now))
        except GameError:
            if seq is None and self._repeats_last(kind, value):
                return None
            raise
        return self.actions[start:start + 1] + self.bot_moves(now)

    def _repeats_last(self, kind: str, value: str) -> bool:
        last = self.last_south()
        if last is None or last.kind != kind or last.value != value:
            return False
        if kind == "next":
            return last.hand_no == self.hand_no - 1 and self.phase != "hand_over"
        return last.hand_no == self.hand_no

    @classmethod
    def replay(cls, row: GameRow, actions: Iterable[Action], *, verify_bots: bool = False) -> Game:
        """The game of ``row`` after its logged ``actions``, every one checked;
        ``verify_bots``: also recompute each computer player's move and check
        that the log holds it (a :class:`GameError` names the first that differs)."""
        game = cls(row)
        game.extend(actions, verify_bots=verify_bots)
        return game

    def extend(self, actions: Iterable[Action], *, verify_bots: bool = False) -> None:
        """Apply more logged actions (see :meth:`replay`)."""
        for a in actions:
            if verify_bots and a.seat != SOUTH:
                expected = self.bot_choice()
                if expected != (a.seat, a.kind, a.value):
                    raise GameError(f"action {a.seq}: the log has {a.seat} {a.kind} {a.value!r}, but the "
                                    f"computer player chooses {expected[1]} {expected[2]!r}", "bad_log")
            self.apply(a)

    # -- what the client sees ------------------------------------------------------------------

    def review_of(self, hand_no: int) -> dict[str, object]:
        """The double-dummy review of a finished hand (kept once computed)."""
        if hand_no not in self._reviews:
            data = review(self.records[hand_no - 1]).to_dict()
            data.pop("seconds", None)     # the state must not depend on the machine's speed
            self._reviews[hand_no] = data
        return self._reviews[hand_no]

    def events(self) -> list[dict[str, object]]:
        """The public actions of the current hand: bids, cards and finished tricks."""
        out: list[dict[str, object]] = []
        for i, (seat, suit) in enumerate(self.bidding.bids):
            ev: dict[str, object] = {"seat": SEATS[seat], "type": "bid", "bid": "pass" if suit is None else suit.char}
            if i == 4:
                ev["forced"] = True
            out.append(ev)
        if self.play is not None:
            tricks = self.play.tricks
            for i, (seat_letter, card) in enumerate(self.play.history):
                out.append({"seat": seat_letter, "type": "play", "card": str(card)})
                if i % 4 == 3:
                    t = tricks[i // 4]
                    out.append({"type": "trick", "winner": SEATS[t.winner], "points": t.points, "roem": t.roem})
        return out

    def score_rows(self) -> list[dict[str, object]]:
        """The score sheet: one row per finished hand."""
        rows = []
        for rec in self.records:
            r = rec.result
            rows.append({
                "hand_no": rec.number, "dealer": rec.dealer, "declarer": SEATS[rec.state.declarer],
                "trump": rec.state.trump.char, "forced": rec.bidding.was_forced,
                "points": {"NS": r.points[0] - r.roem[0], "EW": r.points[1] - r.roem[1]},
                "roem": {"NS": r.roem[0], "EW": r.roem[1]},
                "scores": {"NS": r.scores[0], "EW": r.scores[1]},
                "nat": r.nat, "pit": "NS" if r.pit[0] else "EW" if r.pit[1] else None,
            })
        return rows

    def state(self, ranked: bool = False) -> dict[str, object]:
        """The state a client sees (the API's state object): South's cards, the
        legal actions, the public play, the scores; never another seat's
        unplayed card, a seed or a later deal."""
        row, phase, to_move = self.row, self.phase, self.to_move
        play = self.play
        if play is None:
            hand = _hand_text(self.deal.hand(SOUTH))
            counts = {s: 8 for s in SEATS}
            legal: list[object] = []
            if to_move == SOUTH:
                legal = [s.char for s in reversed(list(Suit))] + ([] if self.bidding.forced else [None])
            trick: list[dict[str, str]] = []
            last_trick = None
        else:
            held = play.hand(SOUTH)
            hand = _hand_text(held)
            counts = {s: len(play.hand(s)) for s in SEATS}
            legal = []
            if to_move == SOUTH:
                legal = [c for c in hand if Card.parse(c) in play.legal_cards()]
            leader = seat_index(play.trick_leader)
            trick = [{"seat": SEATS[(leader + i) % 4], "card": str(c)} for i, c in enumerate(play.trick)]
            last_trick = None
            if play.tricks:
                t = play.tricks[-1]
                last_trick = {"cards": [{"seat": s, "card": str(c)} for s, c in zip(t.seats, t.cards)],
                              "winner": SEATS[t.winner], "points": t.points, "roem": t.roem}
        over = phase in ("hand_over", "game_over")
        bidding = self.bidding.to_dict()["bids"]
        return {
            "id": row.id, "token": row.token, "mode": row.mode, "date": row.date, "rules": row.rules,
            "level": row.level, "ranked": ranked, "nickname": row.nickname,
            "phase": phase, "seq": self.seq, "hand_no": self.hand_no, "hands": row.hands,
            "dealer": self.dealer, "to_move": to_move,
            "hand": hand, "legal": legal, "counts": counts,
            "bidding": bidding,
            "trump": self.bidding.trump.char if self.bidding.is_over else None,
            "declarer": self.bidding.declarer if self.bidding.is_over else None,
            "trick": trick, "last_trick": last_trick,
            "events": self.events(),
            "scores": {"hands": self.score_rows(), "totals": dict(zip(TEAMS, self.totals))},
            "review": self.review_of(self.hand_no) if over else None,
        }


def state_leaks(state: Mapping[str, Any], game: Game) -> list[str]:
    """What ``state`` shows that the client may not see, checked against the
    server's ``game`` at the same point: every card text must be South's, or
    played already in this hand, or (after the hand) in the review of the hand
    just finished; no deal text outside that review; no seed.  Empty when fine.

    >>> row = GameRow("g", "t" * 16, "new", None, "amsterdam", "easy", "secret", None, 16, 0.0)
    >>> game = Game(row); _ = game.bot_moves()
    >>> state_leaks(game.state(), game)
    []
    >>> east = str(game.deal.hand("E").cards()[0])
    >>> print(state_leaks({**game.state(), "trick": [{"seat": "E", "card": east}]}, game)[0])
    card ... at trick[0].card is neither South's nor played
    """
    problems: list[str] = []
    allowed = {str(c) for c in game.deal.hand(SOUTH)}
    if game.play is not None:
        allowed |= {str(c) for _, c in game.play.history}
    secret = game.row.seed

    def walk(value: object, where: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if isinstance(k, str) and k.lower() in ("seed", "secret"):
                    problems.append(f"a {k!r} key at {where or 'the top'}")
                if where == "" and k in ("review", "nickname", "token", "id"):
                    continue
                walk(v, f"{where}.{k}" if where else str(k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{where}[{i}]")
        elif isinstance(value, str):
            if secret and secret in value:
                problems.append(f"the secret seed at {where}")
            if _PBN.search(value):
                problems.append(f"deal text {value!r} at {where}")
            for word in re.split(r"[\s,;]+", value):
                if _SHOWN_CARD.fullmatch(word) and word not in allowed:
                    problems.append(f"card {word} at {where} is neither South's nor played")

    walk(dict(state), "")
    for key in ("token", "id", "nickname"):
        if secret and isinstance(state.get(key), str) and secret in state[key]:
            problems.append(f"the secret seed at {key}")
    rv = state.get("review")
    if rv is not None:
        if state.get("phase") not in ("hand_over", "game_over"):
            problems.append(f"a review in phase {state.get('phase')!r}")
        elif not isinstance(rv, dict) or rv.get("number") != game.hand_no or rv.get("deal") != game.deal.pbn():
            problems.append("the review is not the review of the hand just finished")
        if secret:
            walk_secret = str(rv)
            if secret in walk_secret:
                problems.append("the secret seed in the review")
    return problems


# -- the service: games, storage, locks and a cache --------------------------------------------

def _iso(t: float | None) -> str | None:
    """Unix seconds as ISO 8601 UTC text (``...Z``)."""
    if t is None:
        return None
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


class GameService:
    """Games kept in a :class:`~.storage.Storage`, independent of HTTP.

    Every method takes and returns plain JSON-ready values and raises
    :class:`GameError` for a request it refuses.  Moves are serialised per game
    in this process (a lock per game) and across processes by the storage
    (the ``(game, seq)`` primary key and a check of the game's number of
    actions in the write transaction): when another process stored a move
    first, the move is decided again on the game as stored (so a double click
    sent to two processes is applied once).  Every action is committed before
    the state is returned.

    ``today``: the date of a new Daily game (default: this machine's date);
    ``cache_size``: the games kept in memory (rebuilt from the log when needed).
    """

    def __init__(self, storage: Storage, *, today: Callable[[], _dt.date] | None = None,
                 cache_size: int = 512, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.today = today or _dt.date.today
        self.clock = clock
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()
        self._locks_lock = threading.Lock()

    # -- the cache and the locks -------------------------------------------------------------

    def _lock(self, game_id: str) -> Any:
        with self._locks_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = threading.Lock()
                self._locks[game_id] = lock
            return lock

    def _cached(self, game_id: str) -> Game | None:
        with self._cache_lock:
            game = self._cache.get(game_id)
            if game is not None:
                self._cache.move_to_end(game_id)
            return game

    def _remember(self, game: Game) -> None:
        with self._cache_lock:
            old = self._cache.get(game.id)
            if old is not None and old.seq > game.seq:
                return
            self._cache[game.id] = game
            self._cache.move_to_end(game.id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def load(self, game_id: str) -> Game:
        """The game as stored now (from the cache, brought up to date with the
        actions other processes stored, or replayed from the log)."""
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            raise NotFound(f"no game {game_id!r}")
        cached = self._cached(game_id)
        since = max(0, cached.seq - 1) if cached is not None else 0
        row, actions = self.storage.game_and_actions(game_id, since)
        if row is None:
            self._forget(game_id)
            raise NotFound(f"no game {game_id!r}")
        game: Game
        if cached is not None and cached.seq > 0 and actions and actions[0] == cached.actions[-1]:
            fresh = actions[1:]
            game = cached
            if fresh:
                game = cached.copy()
                game.extend(fresh)
            if game.row != row:
                game = game.copy() if game is cached else game
                game.row = row
        else:
            if since > 0:
                row, actions = self.storage.game_and_actions(game_id, 0)
                if row is None:  # pragma: no cover - games are never deleted
                    raise NotFound(f"no game {game_id!r}")
            game = Game.replay(row, actions)
        self._remember(game)
        return game

    def _ranked(self, row: GameRow) -> bool:
        if row.mode != "daily" or row.hands != HANDS:
            return False
        if row.finished_at is not None:
            return row.ranked
        assert row.date is not None
        return not self.storage.has_ranked(row.token, row.date, row.rules)

    def _state(self, game: Game) -> dict[str, object]:
        return game.state(ranked=self._ranked(game.row))

    # -- the API -------------------------------------------------------------------------------

    def create(self, body: object) -> dict[str, object]:
        """Start a game (``POST /api/games``); returns its state."""
        p = new_game_params(body)
        now = self.clock()
        row = GameRow(
            id=secrets.token_urlsafe(12), token=p["token"] or secrets.token_urlsafe(24), mode=p["mode"],
            date=self.today().isoformat() if p["mode"] == "daily" else None, rules=p["rules"],
            level=p["level"], seed=secrets.token_hex(16) if p["mode"] == "new" else None,
            nickname=p["nickname"], hands=p["hands"], created_at=now)
        game = Game(row)
        actions = game.bot_moves(now)
        self.storage.create_game(row, actions)
        self._remember(game)
        return self._state(game)

    def get(self, game_id: str) -> dict[str, object]:
        """The game's state (``GET /api/games/{id}``)."""
        return self._state(self.load(game_id))

    def move(self, game_id: str, kind: str, body: object) -> dict[str, object]:
        """South's ``bid``, ``play`` or ``next`` with the computer players'
        replies, stored before the state is returned (see :meth:`Game.submit`
        for the repeats that are answered without applying them)."""
        value, seq = move_params(kind, body)
        with self._lock(game_id):
            for _ in range(20):
                game = self.load(game_id)
                work = game.copy()
                now = self.clock()
                new = work.submit(kind, value, seq, now)
                if new is None:
                    return self._state(game)
                finish = None
                if work.phase == "game_over":
                    check = Game.replay(game.row, game.actions + new)      # the totals from the log
                    ns, ew = check.totals
                    finish = Finish(ns, ew, game.row.mode == "daily" and game.row.hands == HANDS, now)
                if self.storage.append_actions(game_id, game.seq, new, finish):
                    if finish is not None:
                        row = self.storage.game(game_id)
                        assert row is not None
                        work.row = row
                    self._remember(work)
                    return self._state(work)
                self._forget(game_id)       # another process stored a move first: decide again
        raise Busy("the game kept changing; try again")

    def rankings(self, date: str | None = None, rules: str | None = None) -> dict[str, object]:
        """The ranked Daily games of a date and rule set (``GET /api/rankings``)."""
        if date is None or date == "":
            day = self.today().isoformat()
        else:
            try:
                day = _dt.date.fromisoformat(date).isoformat()
            except (TypeError, ValueError):
                raise BadRequest(f"date must be YYYY-MM-DD, got {date!r}") from None
            if day != date:
                raise BadRequest(f"date must be YYYY-MM-DD, got {date!r}")
        chosen = (rules or "amsterdam").strip().lower()
        if chosen not in RULES:
            raise BadRequest(f"rules must be one of {', '.join(RULES)}, got {rules!r}")
        entries = [{"rank": e["rank"], "nickname": e["nickname"], "score": e["score"],
                    "finished_at": _iso(e["finished_at"])}  # type: ignore[arg-type]
                   for e in self.storage.rankings(day, chosen)]
        return {"date": day, "rules": chosen, "entries": entries}
