"""PBN-style files of played Klaverjas hands: write them, read them back checked.

The layout follows the Portable Bridge Notation: games separated by a blank
line, each a list of tag lines ``[Name "value"]``; the ``[Auction]`` and
``[Play]`` tags are followed by lines of bids and cards.  Comments (``;`` to the
end of the line, ``{...}``, which may span lines) and lines starting with ``%``
are ignored, as are tags not listed here.  One game::

    [Event "Klaverjas"]
    [Date "2026.11.29"]
    [Board "1"]
    [Dealer "N"]
    [Rules "amsterdam"]
    [Deal "N:J8.Q9.A98.A QT.T.QT.K97 K97.KJ8.K.J A.A7.J7.QT8"]
    [Declarer "S"]
    [Trump "H"]
    [Result "NS 197 EW 25"]
    [Points "NS 197 EW 25"]
    [Roem "NS 60 EW 0"]
    [Auction "N"]
    Pass H
    [Play "E"]
    C7 CJ CQ CA
    HT HJ H7 HQ
    C9 H8 HA H9
    DQ DK D7 DA
    DT HK DJ D8
    ST S7 SA S8
    CK S9 C8 D9
    SQ SK CT SJ

- ``Board``: the hand's number (1..); ``Dealer``: the dealer's seat;
- ``Rules`` (not standard PBN): ``amsterdam`` or ``rotterdam``, then the
  options that differ from that preset, e.g. ``"rotterdam stuk=hand pit=0
  tie_is_nat=no forced=dealer"``; a game without it is played by the Amsterdam
  rules;
- ``Deal``: PBN deal text (:meth:`~quartet_solver.klaverjas.deal.Deal.parse`),
  written clockwise from the dealer;
- ``Declarer`` and ``Trump`` (read as ``Contract`` too): who named which suit;
- ``Result``: the hand's final scores (after pit and nat) of N/S and E/W;
  ``Points`` (cards, last trick and roem, before pit and nat) and ``Roem``
  (not standard PBN) the raw points;
- ``Auction``: its value is the *dealer*; the bids follow in bidding order,
  from the dealer's left: ``Pass`` or a suit letter (``C D H S``);
- ``Play``: its value is the opening leader; then one line per trick, the
  four cards in *seat order* clockwise from the tag's seat (the PBN columns, not
  the order of play: who led a later trick follows from the play).  Cards are
  written suit first as in PBN (``HA``, ``ST`` = ten of spades); rank first
  (``Ah``, ``10s``) is read too, and so is any line breaking (the reader takes
  the cards four by four), with PBN's end mark ``*`` after the last card.

Reading replays every bid and card through
:class:`~quartet_solver.klaverjas.bidding.BiddingState` and
:class:`~quartet_solver.klaverjas.state.PlayState`, so every bid and card is
checked, and the Declarer, Trump, Result, Points and Roem tags, when given, must
be those of the replay.  Errors name the line: text that does not parse or a
game that lacks a part raises :class:`~quartet_solver.errors.NotationError`, an
illegal bid or card :class:`~quartet_solver.errors.IllegalActionError`, an
impossible deal or a tag that contradicts the play
:class:`~quartet_solver.errors.InvalidStateError`.

>>> from quartet_solver.klaverjas.bots import RuleBot
>>> from quartet_solver.klaverjas.match import play_match
>>> result = play_match([RuleBot()] * 4, seed=1, hands=2, rules="rotterdam")
>>> text = write_pbn(result, date="2026-11-29")
>>> read_pbn(text) == list(result.hands)
True
>>> read_pbn_match(text) == result
True
>>> print(text.splitlines()[5])
[Rules "rotterdam"]
>>> read_pbn(text.replace('[Result "', '[Result "NS 1 EW 2"] ;', 1))
Traceback (most recent call last):
...
quartet_solver.errors.InvalidStateError: line 10: [Result "NS 1 EW 2"] does not match the play: NS ... EW ...
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Union

from ..cards import Card, Rank, Suit
from ..errors import ArgumentError, IllegalActionError, InvalidStateError, NotationError
from .bidding import BiddingState
from .deal import Deal, _date_value
from .match import HandRecord, MatchResult
from .rules import SEATS, Rules, seat_index
from .state import PlayState

__all__ = ["read_pbn", "read_pbn_deals", "read_pbn_match", "write_pbn"]

PbnSource = Union[str, bytes, "os.PathLike[str]", IO[str], IO[bytes]]
"""What the readers take: the text itself (a ``str``), a path (``pathlib.Path``)
or an open file."""

_HEADER = "% PBN-style Klaverjas games (quartet_solver)"
_KNOWN_TAGS = {name.lower(): name for name in (
    "Event", "Site", "Date", "Board", "Dealer", "Rules", "Deal", "Declarer", "Contract", "Trump",
    "Result", "Points", "Roem", "Auction", "Play")}
_SECTIONS = ("Auction", "Play")
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]', re.DOTALL)
_NUMBER = re.compile(r"[0-9]{1,9}")
_PAIR = re.compile(r"\s*N/?S\s*[:=]?\s*([0-9]{1,9})\s*[,;]?\s*E/?W\s*[:=]?\s*([0-9]{1,9})\s*", re.IGNORECASE)
_RULE_OPTIONS = ("variant", "stuk", "pit", "tie_is_nat", "forced")
_BOOLS = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}
_ERRORS = (NotationError, InvalidStateError, IllegalActionError)


# -- writing -----------------------------------------------------------------------------


def write_pbn(
    records: MatchResult | HandRecord | Iterable[HandRecord],
    file: str | os.PathLike[str] | IO[str] | None = None,
    *,
    event: str = "Klaverjas",
    date: _dt.date | str | None = None,
) -> str:
    """The PBN-style text of played hands (a :class:`~quartet_solver.klaverjas.match.MatchResult`,
    one :class:`~quartet_solver.klaverjas.match.HandRecord` or several; see the
    module docstring for the layout); also written to ``file`` (a path or an open
    text file) when given.  ``event`` and ``date`` (a date or ``YYYY-MM-DD``; by
    default unknown, ``????.??.??``) fill the Event and Date tags.

    >>> from quartet_solver.klaverjas.bots import RuleBot
    >>> from quartet_solver.klaverjas.match import play_hand
    >>> record = play_hand([RuleBot()] * 4, Deal.random(seed=7), dealer="N")
    >>> lines = write_pbn(record).splitlines()
    >>> lines[1:5]
    ['[Event "Klaverjas"]', '[Date "????.??.??"]', '[Board "1"]', '[Dealer "N"]']
    >>> lines[lines.index('[Play "E"]') + 1]  # trick 1: the cards of E, S, W, N
    'C7 CJ CQ CA'
    """
    if isinstance(records, MatchResult):
        hands: list[HandRecord] = list(records.hands)
    elif isinstance(records, HandRecord):
        hands = [records]
    else:
        try:
            hands = list(records)
        except TypeError:
            raise InvalidStateError(f"write_pbn takes hand records or a match result, got {records!r}") from None
        for item in hands:
            if not isinstance(item, HandRecord):
                raise InvalidStateError(f"write_pbn takes hand records, got {item!r}")
    if not isinstance(event, str) or "\n" in event or "\r" in event:
        raise NotationError(f"event must be text on one line, got {event!r}")
    if file is not None and not isinstance(file, (str, os.PathLike)) and not callable(getattr(file, "write", None)):
        raise ArgumentError(f"file must be a path or an open text file, got {file!r}")
    date_text = "????.??.??" if date is None else _date_value(date).strftime("%Y.%m.%d")
    games = [_game_text(r, event, date_text) for r in hands]
    text = _HEADER + "\n" + "\n\n".join(games) + ("\n" if games else "")
    if file is not None:
        if isinstance(file, (str, os.PathLike)):
            Path(file).write_text(text, encoding="utf-8")
        else:
            file.write(text)
    return text


def _game_text(record: HandRecord, event: str, date: str) -> str:
    state, result, bidding = record.state, record.result, record.bidding
    dealer = bidding.dealer
    lines = [
        _tag("Event", event),
        _tag("Date", date),
        _tag("Board", str(record.number)),
        _tag("Dealer", SEATS[dealer]),
        _tag("Rules", _rules_text(state.rules)),
        _tag("Deal", state.deal.pbn(dealer)),
        _tag("Declarer", SEATS[state.declarer]),
        _tag("Trump", state.trump.char.upper()),
        _tag("Result", _pair_text(result.scores)),
        _tag("Points", _pair_text(result.points)),
        _tag("Roem", _pair_text(result.roem)),
        _tag("Auction", SEATS[dealer]),
    ]
    bids = ["Pass" if suit is None else suit.char.upper() for _, suit in bidding.bids]
    lines += [" ".join(bids[i : i + 4]) for i in range(0, len(bids), 4)]
    lines.append(_tag("Play", SEATS[state.leader]))
    for trick in state.tricks:
        by_seat = {(trick.leader + i) % 4: card for i, card in enumerate(trick.cards)}
        lines.append(" ".join(_card_text(by_seat[(state.leader + j) % 4]) for j in range(4)))
    return "\n".join(lines)


def _tag(name: str, value: str) -> str:
    return f'[{name} "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"]'


def _pair_text(pair: tuple[int, int]) -> str:
    return f"NS {pair[0]} EW {pair[1]}"


def _card_text(card: Card) -> str:
    return card.suit.char.upper() + card.rank.char


def _rules_text(rules: Rules) -> str:
    base = Rules.named(rules.variant).to_dict()
    options = [f"{k}={_option_text(v)}" for k, v in rules.to_dict().items() if base[k] != v]
    return " ".join([rules.variant] + options)


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# -- reading -----------------------------------------------------------------------------


def read_pbn(source: PbnSource) -> list[HandRecord]:
    """The played hands of a PBN-style file: ``source`` is the text itself (a
    ``str``), a path (``pathlib.Path``) or an open file.  Every game needs a Deal,
    a Dealer (or the Auction's value), an Auction and a Play of eight tricks;
    bids and cards are replayed and checked (see the module docstring).

    >>> from quartet_solver.klaverjas.bots import RandomBot
    >>> from quartet_solver.klaverjas.match import play_hand
    >>> record = play_hand([RandomBot(1)] * 4, Deal.random(seed=7), dealer="W", number=3)
    >>> read_pbn(write_pbn(record)) == [record]
    True
    >>> read_pbn(write_pbn(record).replace('[Auction "W"]', '[Auction "W"]\\nX'))
    Traceback (most recent call last):
    ...
    quartet_solver.errors.NotationError: line 14: bid 1 'X': unknown suit 'X'
    """
    return [_record(game, i) for i, game in enumerate(_games(_text_of(source)))]


def read_pbn_deals(source: PbnSource) -> list[Deal]:
    """The deals (the ``[Deal]`` tags) of a PBN-style file, one per game; games
    need nothing but the Deal tag, and nothing else is checked.

    >>> text = '[Deal "N:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987"]'
    >>> read_pbn_deals(text + "\\n\\n" + text.replace("N:", "E:")) [1].hand("E")
    CardSet('7s 8s 9s Ts Js Qs Ks As')
    """
    deals = []
    for game in _games(_text_of(source)):
        found = game.tags.get("Deal")
        if found is None:
            raise NotationError(f"line {game.line}: the game has no [Deal] tag")
        with _at(found[1]):
            deals.append(Deal.parse(found[0]))
    return deals


def read_pbn_match(source: PbnSource) -> MatchResult:
    """The game of a PBN-style file as a :class:`~quartet_solver.klaverjas.match.MatchResult`:
    :func:`read_pbn` of at least one hand, all under the same rules; the totals
    are the sums of the hands' scores.

    >>> read_pbn_match("")
    Traceback (most recent call last):
    ...
    quartet_solver.errors.InvalidStateError: a match needs at least one hand; the file has none
    """
    records = read_pbn(source)
    if not records:
        raise InvalidStateError("a match needs at least one hand; the file has none")
    rules = records[0].state.rules
    for record in records:
        if record.state.rules != rules:
            raise InvalidStateError(f"hand {record.number} is played by the rules '{record.state.rules}', "
                                    f"hand {records[0].number} by '{rules}': one match has one rule set")
    totals = (sum(r.result.scores[0] for r in records), sum(r.result.scores[1] for r in records))
    return MatchResult(tuple(records), rules, totals)


@dataclass
class _Game:
    """The tags and section tokens of one game, with their line numbers."""

    line: int
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    sections: dict[str, list[tuple[str, int]]] = field(default_factory=dict)


@contextmanager
def _at(line: int, what: str = "") -> Iterator[None]:
    """Errors of the library inside get ``line N:`` (and ``what``) in front, same type."""
    try:
        yield
    except _ERRORS as exc:
        raise type(exc)(f"line {line}: {what}{exc}") from None


def _text_of(source: object) -> str:
    if isinstance(source, os.PathLike):
        data: object = Path(source).read_bytes()
    elif isinstance(source, (str, bytes)):
        data = source
    elif callable(getattr(source, "read", None)):
        data = source.read()  # type: ignore[attr-defined]
    else:
        raise NotationError(f"PBN must be text, a path or a file, got {source!r}")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise NotationError(f"PBN file is not UTF-8 text: {exc}") from None
    if not isinstance(data, str):
        raise NotationError(f"PBN must be text, got {data!r}")
    return data.lstrip("\ufeff")


def _strip_comments(line: str, in_brace: bool) -> tuple[str, bool]:
    """``line`` without its comments (outside quoted values) and whether a ``{``
    comment is still open at its end."""
    out = []
    quoted = escaped = False
    for ch in line:
        if in_brace:
            in_brace = ch != "}"
        elif quoted:
            out.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == "{":
            in_brace = True
            out.append(" ")
        elif ch == ";":
            break
        else:
            out.append(ch)
            quoted = ch == '"'
    return "".join(out), in_brace


def _games(text: str) -> list[_Game]:
    """The games of a file: tags and section tokens, syntax checked."""
    games: list[_Game] = []
    game: _Game | None = None
    section: str | None = None
    in_brace, brace_line = False, 0
    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        if not in_brace and raw.startswith("%"):
            continue
        if not in_brace and not raw.strip():  # a blank line ends the game
            game, section = None, None
            continue
        was_in_brace = in_brace
        line, in_brace = _strip_comments(raw, in_brace)
        if in_brace and not was_in_brace:
            brace_line = number
        body = line.strip()
        if not body:
            continue
        if body.startswith("["):
            match = _TAG.fullmatch(body)
            if match is None:
                raise NotationError(f'line {number}: a tag line must be [Name "value"], got {raw.strip()!r}')
            name = _KNOWN_TAGS.get(match.group(1).lower(), match.group(1))
            value = re.sub(r"\\(.)", r"\1", match.group(2))
            if game is None:
                game = _Game(number)
                games.append(game)
            if name in game.tags:
                raise NotationError(f"line {number}: a second [{name}] tag in the game of line {game.line} "
                                    "(games are separated by a blank line)")
            game.tags[name] = (value, number)
            section = name if name in _SECTIONS else None
            if section is not None:
                game.sections[section] = []
        elif game is None or section is None:
            hint = ""
            looks_like_a_path = "/" in raw or "\\" in raw or raw.strip().lower().endswith((".pbn", ".txt"))
            if len(lines) == 1 and "[" not in raw and looks_like_a_path:
                hint = " (read_pbn takes the text itself: to read a file, pass a pathlib.Path)"
            raise NotationError(f"line {number}: {body[:40]!r} is not a tag, and only [Auction] and [Play] "
                                f"are followed by lines{hint}")
        else:
            game.sections[section] += [(token, number) for token in body.split()]
    if in_brace:
        raise NotationError(f"line {brace_line}: the comment opened with '{{' is not closed")
    return games


def _value(game: _Game, name: str) -> tuple[str, int] | None:
    """A tag's value and line; ``None`` when it is missing or unknown (``""``, ``"?"``)."""
    found = game.tags.get(name)
    if found is None or found[0].strip() in ("", "?"):
        return None
    return found[0].strip(), found[1]


def _seat(value: tuple[str, int], name: str) -> int:
    with _at(value[1], f"[{name}]: "):
        return seat_index(value[0])


def _record(game: _Game, index: int) -> HandRecord:
    """Replay one game into a hand record."""
    board = _value(game, "Board")
    number = index + 1
    if board is not None:
        if not _NUMBER.fullmatch(board[0]) or int(board[0]) < 1:
            raise NotationError(f"line {board[1]}: [Board] must be the hand's number (1, 2, ...), got {board[0]!r}")
        number = int(board[0])
    auction_tag, play_tag = _value(game, "Auction"), _value(game, "Play")
    dealer_tag = _value(game, "Dealer") or auction_tag
    deal_tag = _value(game, "Deal")
    for tag, name in ((deal_tag, "Deal"), (dealer_tag, "Dealer"), (auction_tag, "Auction"), (play_tag, "Play")):
        if tag is None:
            extra = " (read_pbn_deals reads deals alone)" if name != "Deal" else ""
            raise NotationError(f"line {game.line}: the game (board {number}) has no [{name}] tag{extra}")
    assert deal_tag is not None and dealer_tag is not None and auction_tag is not None and play_tag is not None
    dealer = _seat(dealer_tag, "Dealer")
    if _seat(auction_tag, "Auction") != dealer:
        raise InvalidStateError(f"line {auction_tag[1]}: [Auction] names the dealer, {SEATS[dealer]}, "
                                f"not {auction_tag[0]!r}")
    rules_tag = _value(game, "Rules")
    rules = Rules.AMSTERDAM if rules_tag is None else _parse_rules(*rules_tag)
    with _at(deal_tag[1]):
        deal = Deal.parse(deal_tag[0])

    bidding = BiddingState(dealer, rules=rules)
    tokens = _section(game, "Auction")
    for i, (token, line) in enumerate(tokens):
        with _at(line, f"bid {i + 1} {token!r}: "):
            bidding = bidding.bid(token)
    if not bidding.is_over:
        raise NotationError(f"line {auction_tag[1]}: the auction ends before anyone names trumps")

    state = PlayState(deal, bidding.trump, bidding.declarer, bidding.leader, rules=rules)
    if _seat(play_tag, "Play") != state.leader:
        raise InvalidStateError(f"line {play_tag[1]}: [Play] names the opening leader, {SEATS[state.leader]} "
                                f"(left of the dealer), not {play_tag[0]!r}")
    cards = _section(game, "Play")
    if len(cards) != 32:
        raise NotationError(f"line {play_tag[1]}: the play has {len(cards)} cards; a played hand has 32 "
                            "(8 tricks of 4 cards)")
    for t in range(8):
        columns = cards[4 * t : 4 * t + 4]
        for _ in range(4):
            token, line = columns[(state.to_move_index - state.leader) % 4]
            with _at(line, f"trick {t + 1}: "):
                state = state.play(_parse_card(token))
    result = state.result()

    declarer_tag = _value(game, "Declarer")
    if declarer_tag is not None and _seat(declarer_tag, "Declarer") != state.declarer:
        raise InvalidStateError(f"line {declarer_tag[1]}: [Declarer {declarer_tag[0]!r}] does not match the "
                                f"auction: {SEATS[state.declarer]} named trumps")
    for name in ("Trump", "Contract"):
        trump_tag = _value(game, name)
        if trump_tag is not None:
            with _at(trump_tag[1], f"[{name}]: "):
                trump = Suit.parse(trump_tag[0])
            if trump != state.trump:
                raise InvalidStateError(f"line {trump_tag[1]}: [{name} {trump_tag[0]!r}] does not match the "
                                        f"auction: trumps are {state.trump.char.upper()}")
    for name, actual in (("Result", result.scores), ("Points", result.points), ("Roem", result.roem)):
        pair_tag = _value(game, name)
        if pair_tag is None:
            continue
        pair = _PAIR.fullmatch(pair_tag[0])
        if pair is None:
            raise NotationError(f'line {pair_tag[1]}: [{name}] must be "NS <points> EW <points>", '
                                f"got {pair_tag[0]!r}")
        if (int(pair.group(1)), int(pair.group(2))) != actual:
            raise InvalidStateError(f'line {pair_tag[1]}: [{name} "{pair_tag[0]}"] does not match the play: '
                                    f"{_pair_text(actual)}")
    return HandRecord(number, SEATS[dealer], bidding, state, result)


def _section(game: _Game, name: str) -> list[tuple[str, int]]:
    """The tokens after a section tag, without a final ``*`` (PBN's end mark)."""
    tokens = list(game.sections.get(name, []))
    if tokens and tokens[-1][0] == "*":
        tokens.pop()
    return tokens


def _parse_card(token: str) -> Card:
    """A card as PBN writes it, suit first (``HA``, ``S10``), or rank first (``Ah``)."""
    text = token.replace("\ufe0f", "")
    if len(text) >= 2:
        try:
            suit = Suit.parse(text[0])
            rank = Rank.parse(text[1:])
        except NotationError:
            pass
        else:
            return Card(rank, suit)
    try:
        return Card.parse(text)
    except NotationError:
        raise NotationError(f"unknown card {token!r} (write suit and rank: HA, ST, C7)") from None


def _parse_rules(value: str, line: int) -> Rules:
    """The rules of a ``[Rules]`` tag: a preset name and ``option=value`` words."""
    base: Rules | None = None
    options: dict[str, object] = {}
    for word in re.split(r"[\s,;]+", value.strip()):
        if not word:
            continue
        key, eq, text = word.partition("=")
        key = key.lower()
        if not eq:
            if key not in ("amsterdam", "rotterdam") or base is not None:
                raise NotationError(f"line {line}: [Rules]: {word!r} is not a preset (amsterdam, rotterdam) "
                                    "or an option=value, or a second preset")
            base = Rules.named(key)
        elif key not in _RULE_OPTIONS or key in options:
            raise NotationError(f"line {line}: [Rules]: unknown or repeated option {word!r} "
                                f"(options: {', '.join(_RULE_OPTIONS)})")
        elif key == "pit":
            if not _NUMBER.fullmatch(text):
                raise NotationError(f"line {line}: [Rules]: pit must be a number, got {text!r}")
            options[key] = int(text)
        elif key == "tie_is_nat":
            if text.lower() not in _BOOLS:
                raise NotationError(f"line {line}: [Rules]: tie_is_nat must be yes or no, got {text!r}")
            options[key] = _BOOLS[text.lower()]
        else:
            options[key] = text.lower()
    rules = Rules.AMSTERDAM if base is None else base
    if options:
        with _at(line, "[Rules]: "):
            rules = Rules.from_dict({**rules.to_dict(), **options})
    return rules
