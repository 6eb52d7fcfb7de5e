"""The Klaverjas game server's JSON API (docs/klaverjas_web_api.md), over real HTTP.

The server runs for real: ``quartet-solver klaverjas serve`` (uvicorn) in a
subprocess on 127.0.0.1, a free port and a temporary database file, and the
tests talk HTTP with httpx.  South is played through the API by a simple policy
(the first legal bid or card) or by a rule-based bot; every response of the
whole games is checked against a replay of the stored log (the same state, no
card of another hand that has not been played, no seed).  FastAPI's TestClient
is used only where a real server adds nothing (the page's placeholder).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from quartet_solver.cards import Card  # noqa: E402
from quartet_solver.klaverjas.bots import BidView, PlayView, RuleBot  # noqa: E402
from quartet_solver.klaverjas.web.session import Game, GameService, state_leaks  # noqa: E402
from quartet_solver.klaverjas.web.storage import Storage  # noqa: E402

TIMEOUT = 120.0


# -- the server ------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``quartet-solver klaverjas serve`` in a subprocess on a free port."""

    def __init__(self, db: Path, workers: int = 1) -> None:
        self.db, self.workers = db, workers
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = ""
        self.log = db.with_suffix(".log")

    def start(self) -> Server:
        port = _free_port()
        self.base = f"http://127.0.0.1:{port}"
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "quartet_solver", "klaverjas", "serve", "--host", "127.0.0.1",
                 "--port", str(port), "--db", str(self.db), "--workers", str(self.workers), "--quiet"],
                stdout=log, stderr=subprocess.STDOUT,
                cwd=self.db.parent)     # not the source tree: the installed package, with its core
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"the server stopped (code {self.proc.returncode}):\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.base + "/api/rankings", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail("the server did not answer within 60 s:\n" + self.log.read_text()[-3000:])
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("kjweb") / "games.sqlite3").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def client(server):
    with server.client() as c:
        yield c


@pytest.fixture(scope="module")
def storage(server):
    st = Storage(server.db)
    yield st
    st.close()


# -- following a game in the test: a replay of the stored log ---------------------------------

class Tracker:
    """The game as the test rebuilds it from the database, brought up to date
    before every check."""

    def __init__(self, storage: Storage, game_id: str) -> None:
        self.storage, self.id = storage, game_id
        row = storage.game(game_id)
        assert row is not None
        self.game = Game(row)

    def sync(self) -> Game:
        self.game.extend(self.storage.actions(self.id, since=self.game.seq))
        row = self.storage.game(self.id)
        assert row is not None
        self.game.row = row
        return self.game


def check_state(state: dict[str, Any], tracker: Tracker) -> None:
    """A state is the replay's, shows nothing hidden, and its score sheet adds up."""
    game = tracker.sync()
    assert state["seq"] == game.seq
    assert state_leaks(state, game) == []
    assert state == json.loads(json.dumps(game.state(ranked=state["ranked"])))
    assert "seed" not in json.dumps(state)
    rows = state["scores"]["hands"]
    for team in ("NS", "EW"):
        assert state["scores"]["totals"][team] == sum(r["scores"][team] for r in rows)
    for r in rows:
        if not r["nat"]:
            for team in ("NS", "EW"):
                bonus = 100 if r["pit"] == team else 0
                assert r["scores"][team] == r["points"][team] + r["roem"][team] + bonus


def first_legal(state: dict[str, Any], game: Game) -> tuple[str, dict[str, Any]]:
    """South's move: pass when allowed, else the first suit; the first legal card."""
    if state["phase"] == "bidding":
        return "bid", {"suit": None if None in state["legal"] else state["legal"][0]}
    return "play", {"card": state["legal"][0]}


def rule_bot(state: dict[str, Any], game: Game) -> tuple[str, dict[str, Any]]:
    """South's move by the rule-based bot (it sees only South's hand and the public play)."""
    bot = RuleBot()
    if state["phase"] == "bidding":
        b = game.bidding
        suit = bot.choose_bid(BidView(2, b.dealer, game.deal.hand("S"), b.bids, b.forced, game.rules))
        return "bid", {"suit": None if suit is None else suit.char}
    assert game.play is not None
    return "play", {"card": str(bot.choose_card(PlayView.of(game.play)))}


def post(client: httpx.Client, path: str, body: Any) -> httpx.Response:
    return client.post(path, json=body)


def new_game(client: httpx.Client, **body: Any) -> dict[str, Any]:
    r = post(client, "/api/games", body)
    assert r.status_code == 201, r.text
    return r.json()


def step(client: httpx.Client, state: dict[str, Any], policy=first_legal, game: Game | None = None,
         seq: bool = True) -> dict[str, Any]:
    """South's next move (``next`` after a hand)."""
    gid = state["id"]
    if state["phase"] == "hand_over":
        kind, body = "next", {}
    else:
        assert state["to_move"] == "S", state
        kind, body = policy(state, game)
    if seq:
        body["seq"] = state["seq"]
    r = post(client, f"/api/games/{gid}/{kind}", body)
    assert r.status_code == 200, r.text
    return r.json()


def play_to_end(client: httpx.Client, storage: Storage, state: dict[str, Any], policy=first_legal,
                until=None) -> dict[str, Any]:
    """Play South until the game is over (or ``until(state)``), checking every response."""
    tracker = Tracker(storage, state["id"])
    check_state(state, tracker)
    while state["phase"] != "game_over" and not (until and until(state)):
        state = step(client, state, policy, tracker.game)
        check_state(state, tracker)
        again = client.get(f"/api/games/{state['id']}")
        assert again.status_code == 200 and again.json() == state
    return state


def check_finished(state: dict[str, Any], storage: Storage) -> tuple[int, int]:
    """A finished game: its totals are the sum of its hands and a replay of the
    stored log (every computer player's move recomputed) gives them too."""
    assert state["phase"] == "game_over" and state["hand_no"] == state["hands"]
    rows = state["scores"]["hands"]
    assert [r["hand_no"] for r in rows] == list(range(1, state["hands"] + 1))
    totals = state["scores"]["totals"]
    assert (totals["NS"], totals["EW"]) == (sum(r["scores"]["NS"] for r in rows), sum(r["scores"]["EW"] for r in rows))
    row = storage.game(state["id"])
    assert row is not None and row.finished_at is not None
    replayed = Game.replay(row, storage.actions(state["id"]), verify_bots=row.level == "easy")
    assert replayed.totals == (totals["NS"], totals["EW"]) == (row.total_ns, row.total_ew)
    assert replayed.phase == "game_over"
    return replayed.totals


def rankings(client: httpx.Client, date: str, rules: str) -> list[dict[str, Any]]:
    r = client.get("/api/rankings", params={"date": date, "rules": rules})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["date"] == date and data["rules"] == rules
    return data["entries"]


# -- whole games ----------------------------------------------------------------------------------

TOKEN_A = "player-A-" + "a" * 16
TOKEN_B = "player-B-" + "b" * 16


@pytest.fixture(scope="module")
def daily_game(client, storage):
    """A whole Daily Amsterdam game (easy), South playing the first legal card."""
    state = new_game(client, mode="daily", rules="amsterdam", level="easy", token=TOKEN_A, nickname="Ærø 🂡 <b>&")
    assert state["ranked"] is True and state["token"] == TOKEN_A and state["nickname"] == "Ærø 🂡 <b>&"
    return play_to_end(client, storage, state, first_legal)


def test_whole_daily_game_amsterdam(daily_game, storage):
    assert daily_game["mode"] == "daily" and daily_game["rules"] == "amsterdam" and daily_game["hands"] == 16
    assert daily_game["review"]["number"] == 16
    check_finished(daily_game, storage)
    assert daily_game["ranked"] is True


def test_whole_new_game_rotterdam_rule_bot(client, storage):
    state = new_game(client, mode="new", rules="rotterdam", level="easy")
    assert state["ranked"] is False and state["date"] is None
    assert len(state["token"]) >= 16
    state = play_to_end(client, storage, state, rule_bot)
    ns, ew = check_finished(state, storage)
    assert ns + ew >= 16 * 162


def test_whole_game_normal_level(client, storage):
    """One game with the sampling players (``normal``); the first hands' computer
    moves are recomputed and must be those stored."""
    state = new_game(client, mode="new", rules="amsterdam", level="normal")
    state = play_to_end(client, storage, state, rule_bot)
    check_finished(state, storage)
    row = storage.game(state["id"])
    assert row is not None
    actions = storage.actions(state["id"])
    early = [a for a in actions if a.hand_no <= 2]
    game = Game.replay(row, early, verify_bots=True)
    game.extend(actions[len(early):])
    assert game.totals == (state["scores"]["totals"]["NS"], state["scores"]["totals"]["EW"])


def test_state_shows_only_what_south_may_see(client, storage):
    """Bidding, mid-trick and after a hand: South's cards, the played cards and,
    after the hand, its review; nothing else."""
    state = new_game(client, mode="new", level="easy")
    tracker = Tracker(storage, state["id"])
    seen_bidding = seen_trick = seen_over = False
    while not seen_over:
        check_state(state, tracker)
        game = tracker.game
        others = {str(c) for s in "NEW" for c in game.deal.hand(s)}
        played = {str(c) for _, c in game.play.history} if game.play else set()
        text = json.dumps({k: v for k, v in state.items() if k != "review"})
        for card in others - played:
            assert f'"{card}"' not in text
        seen_bidding |= state["phase"] == "bidding"
        seen_trick |= bool(state["trick"])
        if state["phase"] == "hand_over":
            seen_over = True
            assert state["review"]["deal"] == game.deal.pbn()
            assert state["hand"] == [] and state["legal"] == []
        else:
            assert state["review"] is None
        state = step(client, state, first_legal, game)
    assert seen_trick


# -- resume after a restart ---------------------------------------------------------------------

def test_resume_after_restart(tmp_path):
    db = tmp_path / "resume.sqlite3"
    srv = Server(db).start()
    try:
        with srv.client() as c:
            state = new_game(c, mode="daily", rules="rotterdam", level="easy", token=TOKEN_B)
            st = Storage(db)
            # into hand 2, some tricks played
            state = play_to_end(c, st, state, first_legal,
                                until=lambda s: s["hand_no"] == 2 and s["phase"] == "playing" and s["counts"]["S"] <= 5)
            gid = state["id"]
            before = c.get(f"/api/games/{gid}").json()
        srv.stop()
        srv.start()         # a new process on the same database
        with srv.client() as c:
            after = c.get(f"/api/games/{gid}")
            assert after.status_code == 200
            assert after.json() == before
            # a retry of the move made before the restart is still recognised
            last = st.actions(gid)
            south = [a for a in last if a.seat == "S"][-1]
            r = post(c, f"/api/games/{gid}/play", {"card": south.value, "seq": south.seq})
            assert r.status_code == 200 and r.json() == before
            state = play_to_end(c, st, after.json(), first_legal,
                                until=lambda s: s["hand_no"] == 3 and s["phase"] == "playing")
        row = st.game(gid)
        assert row is not None
        Game.replay(row, st.actions(gid), verify_bots=True)     # the computer players agree after the restart
        st.close()
    finally:
        srv.stop()


# -- idempotency and concurrency -------------------------------------------------------------------

def _to_south_card(client, storage, state):
    return play_to_end(client, storage, state, first_legal,
                       until=lambda s: s["phase"] == "playing" and len(s["legal"]) >= 1)


def test_same_play_twice_is_applied_once(client, storage):
    state = _to_south_card(client, storage, new_game(client, level="easy"))
    gid, card = state["id"], state["legal"][0]
    first = post(client, f"/api/games/{gid}/play", {"card": card, "seq": state["seq"]})
    second = post(client, f"/api/games/{gid}/play", {"card": card, "seq": state["seq"]})
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert [a.value for a in storage.actions(gid) if a.seat == "S" and a.kind == "play"] == [card]
    # without seq: the same card again is a repeat too
    third = post(client, f"/api/games/{gid}/play", {"card": card})
    assert third.status_code == 200 and third.json() == first.json()
    # an older seq with another move: refused
    now = first.json()
    if now["legal"]:
        other = post(client, f"/api/games/{gid}/play", {"card": now["legal"][0], "seq": state["seq"]})
        assert other.status_code == 409 and other.json()["error"]["type"] == "stale_seq"
        ahead = post(client, f"/api/games/{gid}/play", {"card": now["legal"][0], "seq": now["seq"] + 5})
        assert ahead.status_code == 409 and ahead.json()["error"]["type"] == "stale_seq"
    assert client.get(f"/api/games/{gid}").json() == now


def test_same_bid_and_next_twice(client, storage):
    # a bid: find a game in which South bids (E or S names trumps first otherwise)
    for _ in range(20):
        state = new_game(client, level="easy")
        if state["phase"] == "bidding":
            break
    else:
        pytest.skip("no game with South to bid in 20 deals")
    gid = state["id"]
    body = {"suit": None if None in state["legal"] else "h", "seq": state["seq"]}
    a = post(client, f"/api/games/{gid}/bid", body)
    b = post(client, f"/api/games/{gid}/bid", body)
    c = post(client, f"/api/games/{gid}/bid", {"suit": body["suit"]})
    assert a.status_code == b.status_code == c.status_code == 200
    assert a.json() == b.json() == c.json()
    assert sum(1 for x in storage.actions(gid) if x.seat == "S" and x.kind == "bid") == 1
    # next, twice
    state = play_to_end(client, storage, a.json(), first_legal, until=lambda s: s["phase"] == "hand_over")
    n1 = post(client, f"/api/games/{gid}/next", {"seq": state["seq"]})
    n2 = post(client, f"/api/games/{gid}/next", {"seq": state["seq"]})
    n3 = post(client, f"/api/games/{gid}/next", {})
    assert n1.status_code == n2.status_code == n3.status_code == 200
    assert n1.json() == n2.json() == n3.json() and n1.json()["hand_no"] == 2
    assert sum(1 for x in storage.actions(gid) if x.kind == "next") == 1


def _double_clicks(base: str, storage: Storage, clicks: int, with_seq: bool) -> None:
    """Two threads post South's card at once, ``clicks`` times: applied once each time."""
    with httpx.Client(base_url=base, timeout=TIMEOUT) as c:
        state = new_game(c, level="easy")
        gid = state["id"]
        for _ in range(clicks):
            state = play_to_end(c, storage, state, first_legal,
                                until=lambda s: s["phase"] == "playing" and bool(s["legal"]))
            card = state["legal"][-1]
            body = {"card": card, "seq": state["seq"]} if with_seq else {"card": card}
            barrier = threading.Barrier(2)
            out: list[httpx.Response] = []

            def click() -> None:
                with httpx.Client(base_url=base, timeout=TIMEOUT) as own:
                    barrier.wait()
                    out.append(own.post(f"/api/games/{gid}/play", json=body))

            threads = [threading.Thread(target=click) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert [r.status_code for r in out] == [200, 200], [r.text for r in out]
            assert out[0].json() == out[1].json()
            played = [a.value for a in storage.actions(gid)
                      if a.seat == "S" and a.kind == "play" and a.hand_no == state["hand_no"]]
            assert played.count(card) == 1
            state = out[0].json()
            if state["phase"] == "hand_over":
                state = step(c, state)
        row = storage.game(gid)
        assert row is not None
        Game.replay(row, storage.actions(gid), verify_bots=True)


def test_concurrent_double_click(server, storage):
    _double_clicks(server.base, storage, 6, with_seq=True)
    _double_clicks(server.base, storage, 6, with_seq=False)


def test_concurrent_double_click_two_workers(tmp_path):
    """Two worker processes on one database: the double click is applied once
    whichever processes get the two requests."""
    srv = Server(tmp_path / "two.sqlite3", workers=2).start()
    st = Storage(srv.db)
    try:
        _double_clicks(srv.base, st, 10, with_seq=True)
        _double_clicks(srv.base, st, 6, with_seq=False)
    finally:
        st.close()
        srv.stop()


def test_two_processes_deciding_the_same_move(tmp_path):
    """What two worker processes do (two services, each with its own cache and
    locks, on one file): the same card at once is stored once."""
    db = tmp_path / "services.sqlite3"
    one, two = GameService(Storage(db)), GameService(Storage(db))
    stored: list[bool] = []
    armed = threading.Event()
    decided = threading.Barrier(2, timeout=30)
    for service in (one, two):      # armed: both decide the move before either stores it
        def append(*args: Any, _append=service.storage.append_actions, **kw: Any) -> bool:
            if not armed.is_set():
                return _append(*args, **kw)
            if len(stored) < 2:
                decided.wait()
            ok = _append(*args, **kw)
            stored.append(ok)
            return ok
        service.storage.append_actions = append  # type: ignore[method-assign]
    for _ in range(4):
        state = one.create({"level": "easy"})
        while state["phase"] != "playing":
            state = one.move(state["id"], "bid", {"suit": None if None in state["legal"] else "s"})
        two.get(state["id"])        # both caches hold the game
        stored.clear()
        armed.set()
        body = {"card": state["legal"][0], "seq": state["seq"]}
        barrier = threading.Barrier(2)
        out: list[dict[str, Any]] = []

        def run(service: GameService) -> None:
            barrier.wait()
            out.append(service.move(state["id"], "play", body))

        threads = [threading.Thread(target=run, args=(s,)) for s in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(out) == 2 and out[0] == out[1]
        armed.clear()
        assert sorted(stored) == [False, True]      # one stored, the other found the move made
        assert [a.value for a in one.storage.actions(state["id"]) if a.seat == "S" and a.kind == "play"] \
            == [body["card"]]


# -- rankings ----------------------------------------------------------------------------------------

def test_rankings(client, storage, daily_game):
    date, rules = daily_game["date"], daily_game["rules"]
    totals = check_finished(daily_game, storage)
    entries = rankings(client, date, rules)
    mine = [e for e in entries if e["nickname"] == "Ærø 🂡 <b>&"]
    assert len(mine) == 1 and mine[0]["score"] == totals[0]
    assert mine[0]["rank"] >= 1 and mine[0]["finished_at"].endswith("Z")
    # a second attempt of the same token, date and rules: finished, but not ranked
    again = new_game(client, mode="daily", rules=rules, level="easy", token=TOKEN_A, nickname="again")
    assert again["ranked"] is False
    again = play_to_end(client, storage, again, rule_bot)
    check_finished(again, storage)
    assert again["ranked"] is False
    entries = rankings(client, date, rules)
    assert [e["nickname"] for e in entries].count("again") == 0
    assert [e for e in entries if e["nickname"] == "Ærø 🂡 <b>&"] == mine
    row = storage.game(daily_game["id"])
    assert row is not None and row.ranked and row.total_ns == mine[0]["score"]
    assert [e["score"] for e in entries] == sorted((e["score"] for e in entries), reverse=True)
    # other rules, other list; the other day: empty
    assert all(e["nickname"] != "Ærø 🂡 <b>&" for e in rankings(client, date, "rotterdam"))
    assert rankings(client, "2001-01-01", rules) == []
    # a short Daily game is never ranked
    short = new_game(client, mode="daily", rules="rotterdam", level="easy", token="short-game-" + "s" * 10, hands=1)
    assert short["ranked"] is False
    short = play_to_end(client, storage, short)
    assert short["ranked"] is False and storage.game(short["id"]).ranked is False  # type: ignore[union-attr]


def test_no_request_can_post_a_score(client, daily_game):
    gid = daily_game["id"]
    before = client.get(f"/api/games/{gid}").json()
    for path, body in [("/api/games", {"mode": "daily", "score": 9999}),
                       ("/api/games", {"mode": "daily", "totals": {"NS": 9999, "EW": 0}}),
                       (f"/api/games/{gid}/play", {"card": "As", "score": 9999}),
                       (f"/api/games/{gid}/next", {"scores": {"NS": 9999}}),
                       (f"/api/games/{gid}/bid", {"suit": None, "points": 9999})]:
        r = post(client, path, body)
        assert r.status_code == 400 and r.json()["error"]["type"] == "unknown_field", (path, r.text)
    for method, path in [("POST", "/api/rankings"), ("PUT", f"/api/games/{gid}"), ("POST", f"/api/games/{gid}"),
                         ("POST", f"/api/games/{gid}/score"), ("PATCH", f"/api/games/{gid}")]:
        r = client.request(method, path, json={"score": 9999})
        assert r.status_code in (404, 405) and "error" in r.json(), (method, path, r.text)
    assert client.get(f"/api/games/{gid}").json() == before


def test_a_method_an_endpoint_does_not_take_is_a_405(client, daily_game):
    gid = daily_game["id"]
    for method, path, allow in [("PUT", f"/api/games/{gid}", "GET"), ("DELETE", f"/api/games/{gid}", "GET"),
                                ("GET", f"/api/games/{gid}/bid", "POST"), ("GET", "/api/games", "POST"),
                                ("DELETE", "/api/rankings", "GET")]:
        r = client.request(method, path)
        assert r.status_code == 405 and r.headers["allow"] == allow, (method, path, r.text)
        assert r.json()["error"]["type"] == "method_not_allowed"
    r = client.request("POST", f"/api/games/{gid}/score")
    assert r.status_code == 404 and r.json()["error"]["type"] == "not_found"


# -- bad input ------------------------------------------------------------------------------------------

def _error(r: httpx.Response, status: int, kind: str | None = None) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"type", "message"}
    assert body["error"]["message"]
    if kind is not None:
        assert body["error"]["type"] == kind, body


def test_bad_input(client, storage):
    state = new_game(client, level="easy")
    state = _to_south_card(client, storage, state)
    gid = state["id"]
    url = f"/api/games/{gid}"

    def unchanged() -> None:
        assert client.get(url).json() == state

    hand = {Card.parse(c) for c in state["hand"]}
    tracker = Tracker(storage, gid)
    game = tracker.sync()
    east = str(game.deal.hand("E").cards()[-1] if game.play is None else game.play.hand("E").cards()[-1])
    not_legal = [c for c in state["hand"] if c not in state["legal"]]
    cases: list[tuple[str, Any, int, str | None]] = [
        ("/play", b"{bad json", 400, "invalid_json"),
        ("/play", b"[1, 2]", 400, "bad_request"),
        ("/play", b'"As"', 400, "bad_request"),
        ("/play", b'{"card": NaN}', 400, "invalid_json"),
        ("/play", b"\xff\xfe", 400, "invalid_json"),
        ("/play", {"card": state["legal"][0], "extra": 1}, 400, "unknown_field"),
        ("/play", {}, 400, "bad_request"),
        ("/play", {"card": 7}, 400, "bad_request"),
        ("/play", {"card": "Xx"}, 400, "bad_request"),
        ("/play", {"card": "2h"}, 400, "bad_request"),
        ("/play", {"card": state["legal"][0], "seq": "7"}, 400, "bad_request"),
        ("/play", {"card": state["legal"][0], "seq": -1}, 400, "bad_request"),
        ("/play", {"card": state["legal"][0], "seq": True}, 400, "bad_request"),
        ("/play", {"card": east}, 409, "illegal_move"),                   # another seat's card
        ("/bid", {"suit": "h"}, 409, "wrong_phase"),                      # a bid while playing
        ("/bid", {"suit": "x"}, 400, "bad_request"),
        ("/next", {}, 409, "wrong_phase"),                                # next in the middle of a hand
        ("/play", {"card": state["legal"][0], "seq": state["seq"] + 1}, 409, "stale_seq"),
        ("/play", b"{" + b'"card": "As", ' * 400 + b"}", 413, "too_large"),
    ]
    if not_legal:
        cases.append(("/play", {"card": not_legal[0]}, 409, "illegal_move"))
    assert Card.parse(east) not in hand
    for suffix, body, status, kind in cases:
        if isinstance(body, bytes):
            r = client.post(url + suffix, content=body, headers={"Content-Type": "application/json"})
        else:
            r = post(client, url + suffix, body)
        _error(r, status, kind)
        unchanged()
    # unknown games
    _error(client.get("/api/games/no-such-game"), 404, "not_found")
    _error(post(client, "/api/games/no-such-game/play", {"card": "As"}), 404, "not_found")
    _error(client.get("/api/games/" + "x" * 300), 404, "not_found")
    # bad new games
    for body, kind in [({"nickname": "x" * 25}, "bad_nickname"), ({"nickname": "a\u0007b"}, "bad_nickname"),
                       ({"nickname": "line\nbreak"}, "bad_nickname"), ({"nickname": 5}, "bad_nickname"),
                       ({"token": "short"}, "bad_token"), ({"token": "x" * 65}, "bad_token"),
                       ({"token": "has spaces in it!!"}, "bad_token"), ({"token": 12345678901234567}, "bad_token"),
                       ({"mode": "ranked"}, "bad_request"), ({"rules": "utrecht"}, "bad_request"),
                       ({"level": "godlike"}, "bad_request"), ({"hands": 17}, "bad_request"),
                       ({"hands": 0}, "bad_request"), ({"seed": 1}, "unknown_field")]:
        _error(post(client, "/api/games", body), 400, kind)
    _error(client.post("/api/games", content=b"x" * 5000), 413, "too_large")
    # a nickname of 24 characters of any script is fine, kept as given
    nick = "Ωμέγα 漢字 🂡 <script>&amp;"[:24]
    ok = new_game(client, level="easy", nickname=nick)
    assert ok["nickname"] == nick
    # rankings: a bad date or rules
    _error(client.get("/api/rankings", params={"date": "03-12-2026"}), 400)
    _error(client.get("/api/rankings", params={"rules": "utrecht"}), 400)
    unchanged()


def test_move_on_a_finished_game(client, storage):
    state = new_game(client, level="easy", hands=1)
    state = play_to_end(client, storage, state)
    gid = state["id"]
    last_card = [a for a in storage.actions(gid) if a.seat == "S"][-1].value
    for suffix, body in [("/play", {"card": "As"}), ("/bid", {"suit": "h"}), ("/next", {}),
                         ("/play", {"card": last_card, "seq": state["seq"]})]:
        _error(post(client, f"/api/games/{gid}{suffix}", body), 409)
        assert client.get(f"/api/games/{gid}").json() == state
    # a retry of the last card (its seq, or none): the finished state
    again = post(client, f"/api/games/{gid}/play", {"card": last_card})
    assert again.status_code == 200 and again.json() == state


# -- the page and the command line -------------------------------------------------------------------

def test_page_is_served(client):
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    static = Path(__file__).resolve().parent.parent / "quartet_solver" / "klaverjas" / "web" / "static"
    for name in ("app.js", "style.css", "rules.html"):
        if (static / name).is_file():
            assert client.get(f"/static/{name}").status_code == 200
            assert client.get(f"/{name}").status_code == 200
    _error(client.get("/static/nothing.js"), 404, "not_found")
    _error(client.get("/static/..%2Fapp.py"), 404)


def test_placeholder_page_without_static_files(tmp_path):
    """In-process (httpx's ASGI transport): a real server adds nothing here."""
    import asyncio

    from quartet_solver.klaverjas.web.app import create_app

    app = create_app(tmp_path / "p.sqlite3", static_dir=tmp_path / "none")

    async def fetch() -> tuple[httpx.Response, httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
            return await c.get("/"), await c.get("/app.js")

    page, missing = asyncio.run(fetch())
    assert page.status_code == 200 and "Klaverjas" in page.text
    _error(missing, 404)
    app.state.storage.close()


def test_serve_needs_the_web_extra(monkeypatch, capsys):
    from quartet_solver.cli import main

    monkeypatch.setitem(sys.modules, "fastapi", None)
    assert main(["klaverjas", "serve", "--port", "0"]) == 2
    assert 'pip install ".[web]"' in capsys.readouterr().err


def test_serve_refuses_memory_with_workers(capsys):
    from quartet_solver.cli import main

    assert main(["klaverjas", "serve", "--db", ":memory:", "--workers", "2"]) == 2
    assert ":memory:" in capsys.readouterr().err


def test_default_db_path(monkeypatch, tmp_path):
    from quartet_solver.klaverjas.web.storage import default_db_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "quartet-solver" / "klaverjas.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path(os.path.expanduser("~")) / ".local" / "share" / "quartet-solver" / \
        "klaverjas.sqlite3"
