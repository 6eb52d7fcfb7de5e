"""Every database access of the Klaverjas game server, in this one module.

The server keeps its games in SQLite (WAL mode) in one file, so that several
worker processes can share it.  Another database can replace this module: the
rest of the server only calls :class:`Storage`'s methods and reads the plain
:class:`GameRow` and :class:`Action` records it returns.

Tables
------
``games``
    One row per game: ``id``, the player's ``token``, ``mode`` (``daily`` or
    ``new``), the Daily ``date``, ``rules``, ``level``, the server-side secret
    ``seed`` of a New game (never sent to a client), ``nickname``, the number of
    ``hands``, ``created_at`` and ``finished_at`` (Unix seconds), the ``ranked``
    flag and the final totals ``total_ns``/``total_ew`` (set when the game is
    finished, recomputed by the server from the log).
``actions``
    Every action of a game in order: ``(game_id, seq)`` is the primary key, so
    two processes can never store two different actions at one ``seq``;
    ``hand_no``, ``seat``, ``kind`` (``bid``, ``play`` or ``next``), ``value``
    (a suit letter or ``pass``, a card such as ``Th``, empty for ``next``) and
    ``created_at``.
``rankings`` (a view)
    The ranked, finished Daily games with their N/S score.

Connections: one per thread (a file database; ``busy_timeout`` lets processes
wait for each other's writes), or one shared connection behind a lock for
``:memory:`` (a single process only).

>>> st = Storage(":memory:")
>>> row = GameRow(id="g1", token="t" * 16, mode="daily", date="2026-12-03", rules="amsterdam",
...               level="easy", seed=None, nickname="Anna", hands=16, created_at=0.0)
>>> st.create_game(row, [Action(0, 1, "E", "bid", "pass", 0.0)])
>>> st.game("g1").nickname, [a.value for a in st.actions("g1")]
('Anna', ['pass'])
>>> st.append_actions("g1", 1, [Action(1, 1, "S", "bid", "h", 1.0)])
True
>>> st.append_actions("g1", 1, [Action(1, 1, "S", "bid", "s", 1.0)])  # seq 1 is taken
False
>>> st.close()
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Action", "Finish", "GameRow", "Storage", "default_db_path", "BUSY_TIMEOUT_MS"]

BUSY_TIMEOUT_MS = 30_000
"""How long a connection waits for another process's write lock (milliseconds)."""

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    token       TEXT NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('daily', 'new')),
    date        TEXT,
    rules       TEXT NOT NULL,
    level       TEXT NOT NULL,
    seed        TEXT,
    nickname    TEXT,
    hands       INTEGER NOT NULL DEFAULT 16,
    created_at  REAL NOT NULL,
    finished_at REAL,
    ranked      INTEGER NOT NULL DEFAULT 0,
    total_ns    INTEGER,
    total_ew    INTEGER
);
CREATE INDEX IF NOT EXISTS games_by_day ON games (date, rules, ranked);
CREATE INDEX IF NOT EXISTS games_by_token ON games (token, date, rules);
-- at most one ranked game per player, day and rule set, whatever the processes do
CREATE UNIQUE INDEX IF NOT EXISTS games_one_ranked ON games (token, date, rules) WHERE ranked = 1;
CREATE TABLE IF NOT EXISTS actions (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    hand_no    INTEGER NOT NULL,
    seat       TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
    kind       TEXT NOT NULL CHECK (kind IN ('bid', 'play', 'next')),
    value      TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS rankings AS
    SELECT id, token, date, rules, nickname, total_ns AS score, total_ew AS score_ew, finished_at
    FROM games
    WHERE mode = 'daily' AND ranked = 1 AND finished_at IS NOT NULL;
"""


@dataclass(frozen=True)
class GameRow:
    """A row of the ``games`` table."""

    id: str
    token: str
    mode: str
    date: str | None
    rules: str
    level: str
    seed: str | None
    nickname: str | None
    hands: int
    created_at: float
    finished_at: float | None = None
    ranked: bool = False
    total_ns: int | None = None
    total_ew: int | None = None


@dataclass(frozen=True)
class Action:
    """A row of the ``actions`` table (without the game id): action number ``seq``
    (0, 1, ...) of the game, in hand ``hand_no``, by ``seat``."""

    seq: int
    hand_no: int
    seat: str
    kind: str
    value: str
    created_at: float = 0.0


@dataclass(frozen=True)
class Finish:
    """What :meth:`Storage.append_actions` records when the actions end the game:
    the final totals (N/S, E/W) recomputed from the log and whether the game may
    be ranked (a 16-hand Daily game; it is ranked only if no other game of its
    token, date and rules is ranked yet)."""

    total_ns: int
    total_ew: int
    rankable: bool
    finished_at: float


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/quartet-solver/klaverjas.sqlite3`` (default
    ``~/.local/share/quartet-solver/klaverjas.sqlite3``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "quartet-solver" / "klaverjas.sqlite3"


def _row(r: sqlite3.Row) -> GameRow:
    return GameRow(id=r["id"], token=r["token"], mode=r["mode"], date=r["date"], rules=r["rules"],
                   level=r["level"], seed=r["seed"], nickname=r["nickname"], hands=r["hands"],
                   created_at=r["created_at"], finished_at=r["finished_at"], ranked=bool(r["ranked"]),
                   total_ns=r["total_ns"], total_ew=r["total_ew"])


class Storage:
    """The games database (see the module docstring).

    ``path``: a file (created with its directory when missing) or ``":memory:"``
    (one process only: not for ``serve --workers N``).  Thread-safe: every
    thread gets its own connection to a file.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        self.memory = self.path == ":memory:"
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        self._shared: sqlite3.Connection | None = None
        self._shared_lock = threading.RLock()
        if self.memory:
            self._shared = self._open()
        else:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        with self._conn() as conn:
            self._create_schema(conn)

    # -- connections ---------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not self.memory:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        with self._all_lock:
            self._all.append(conn)
        return conn

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection (for ``:memory:``: the shared one, locked)."""
        if self._shared is not None:
            with self._shared_lock:
                yield self._shared
            return
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
        yield conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``: the write lock at once, so
        what it reads stays true until the commit)."""
        with self._conn() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        """Create the tables when missing (every statement ``IF NOT EXISTS``, so
        worker processes starting together do not mind each other)."""
        conn.executescript("BEGIN IMMEDIATE;" + _SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")

    def close(self) -> None:
        """Close every connection this object opened."""
        with self._all_lock:
            conns, self._all = self._all, []
        for conn in conns:
            try:
                conn.close()
            except sqlite3.Error:  # pragma: no cover - closing twice
                pass
        self._shared = None
        self._local = threading.local()

    # -- games ---------------------------------------------------------------------------

    def create_game(self, game: GameRow, actions: Sequence[Action] = ()) -> None:
        """Store a new game and its first actions (the computer players' bids
        before South's turn) in one transaction."""
        with self._write() as conn:
            conn.execute(
                "INSERT INTO games (id, token, mode, date, rules, level, seed, nickname, hands, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.id, game.token, game.mode, game.date, game.rules, game.level, game.seed, game.nickname,
                 game.hands, game.created_at))
            self._insert(conn, game.id, actions)

    def game(self, game_id: str) -> GameRow | None:
        """The game's row, or ``None``."""
        with self._conn() as conn:
            r = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if r is None else _row(r)

    def actions(self, game_id: str, since: int = 0) -> list[Action]:
        """The game's actions with ``seq >= since``, in order."""
        with self._conn() as conn:
            rows = conn.execute("SELECT seq, hand_no, seat, kind, value, created_at FROM actions "
                                "WHERE game_id = ? AND seq >= ? ORDER BY seq", (game_id, since)).fetchall()
        return [Action(r["seq"], r["hand_no"], r["seat"], r["kind"], r["value"], r["created_at"]) for r in rows]

    def game_and_actions(self, game_id: str, since: int = 0) -> tuple[GameRow | None, list[Action]]:
        """:meth:`game` and :meth:`actions` read in one transaction (a consistent snapshot)."""
        with self._conn() as conn:
            conn.execute("BEGIN")
            try:
                r = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
                rows = conn.execute("SELECT seq, hand_no, seat, kind, value, created_at FROM actions "
                                    "WHERE game_id = ? AND seq >= ? ORDER BY seq", (game_id, since)).fetchall()
            finally:
                conn.execute("COMMIT")
        if r is None:
            return None, []
        return _row(r), [Action(x["seq"], x["hand_no"], x["seat"], x["kind"], x["value"], x["created_at"])
                         for x in rows]

    def append_actions(self, game_id: str, expected_seq: int, actions: Sequence[Action],
                       finish: Finish | None = None) -> bool:
        """Store ``actions`` (numbered from ``expected_seq``) if the game has exactly
        ``expected_seq`` actions now, and with ``finish`` mark the game finished
        (totals, ranked flag) in the same transaction.  ``False`` (and nothing
        stored) when another request stored an action first."""
        try:
            with self._write() as conn:
                count = conn.execute("SELECT count(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
                if count != expected_seq:
                    raise _Conflict
                self._insert(conn, game_id, actions)
                if finish is not None:
                    self._finish(conn, game_id, finish)
        except (_Conflict, sqlite3.IntegrityError):
            return False
        return True

    @staticmethod
    def _insert(conn: sqlite3.Connection, game_id: str, actions: Sequence[Action]) -> None:
        conn.executemany(
            "INSERT INTO actions (game_id, seq, hand_no, seat, kind, value, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, a.seq, a.hand_no, a.seat, a.kind, a.value, a.created_at) for a in actions])

    @staticmethod
    def _finish(conn: sqlite3.Connection, game_id: str, finish: Finish) -> None:
        row = conn.execute("SELECT token, date, rules, finished_at FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None or row["finished_at"] is not None:
            raise _Conflict
        ranked = finish.rankable and conn.execute(
            "SELECT 1 FROM games WHERE token = ? AND date = ? AND rules = ? AND ranked = 1 AND id != ?",
            (row["token"], row["date"], row["rules"], game_id)).fetchone() is None
        conn.execute("UPDATE games SET finished_at = ?, ranked = ?, total_ns = ?, total_ew = ? WHERE id = ?",
                     (finish.finished_at, int(ranked), finish.total_ns, finish.total_ew, game_id))

    def has_ranked(self, token: str, date: str, rules: str) -> bool:
        """Whether a finished game of this token, date and rules is ranked."""
        with self._conn() as conn:
            return conn.execute("SELECT 1 FROM games WHERE token = ? AND date = ? AND rules = ? AND ranked = 1",
                                (token, date, rules)).fetchone() is not None

    def rankings(self, date: str, rules: str, limit: int = 1000) -> list[dict[str, object]]:
        """The ranked Daily games of ``date`` and ``rules``, best N/S score first
        (ties: the earlier finish first, the same rank): ``rank``, ``nickname``,
        ``score`` (N/S), ``score_ew``, ``finished_at`` (Unix seconds), ``game``."""
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT id, nickname, score, score_ew, finished_at, "
                "RANK() OVER (ORDER BY score DESC) AS rank "
                "FROM rankings WHERE date = ? AND rules = ? ORDER BY score DESC, finished_at, id LIMIT ?",
                (date, rules, limit)).fetchall()
        return [{"rank": r["rank"], "nickname": r["nickname"], "score": r["score"], "score_ew": r["score_ew"],
                 "finished_at": r["finished_at"], "game": r["id"]} for r in rows]

    def count_games(self) -> int:
        """The number of games stored."""
        with self._conn() as conn:
            return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


class _Conflict(Exception):
    """Another request stored an action first (the transaction is rolled back)."""


def now() -> float:
    """The time stored with a row (Unix seconds)."""
    return time.time()
