"""Load test of the Klaverjas game server on the loopback interface.

Starts ``quartet-solver klaverjas serve --workers 2`` on 127.0.0.1 (a free port)
with a temporary database, lets ``--players`` simulated players (threads, each
with its own HTTP connection) play Daily games at once, South passing when
allowed and playing the first legal card, and reports the time of a card
request (South's card plus the computer players' replies up to South's next
turn, and the hand's double-dummy review after its last card): median, 90th
and 99th percentile, maximum.  Then it checks every finished game: its totals
are those of a replay of the stored log, and a 16-hand game is in the rankings
of its date and rules with that score (a shorter game never is).

Bounded in time: no player starts a request after ``--time-limit`` seconds;
unfinished games are reported.  Only 127.0.0.1 is used.

Run::

    python benchmarks/klaverjas_web.py                      # 50 players, 16 hands, easy
    python benchmarks/klaverjas_web.py --players 10 --hands 2 --level normal
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from quartet_solver.klaverjas.web.session import Game
from quartet_solver.klaverjas.web.storage import Storage


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


class Player(threading.Thread):
    """One simulated player: one Daily game, as fast as the server answers."""

    def __init__(self, base: str, number: int, rules: str, level: str, hands: int, deadline: float,
                 start_gate: threading.Barrier) -> None:
        super().__init__(daemon=True)
        self.base, self.number, self.rules, self.level, self.hands = base, number, rules, level, hands
        self.deadline, self.start_gate = deadline, start_gate
        self.token = f"bench-player-{number:04d}-" + "x" * 8
        self.nickname = f"bench {number}"
        self.card_times: list[float] = []
        self.other_times: list[float] = []
        self.state: dict[str, Any] | None = None
        self.error: str | None = None

    def run(self) -> None:
        try:
            self.start_gate.wait()
            with httpx.Client(base_url=self.base, timeout=600) as c:
                self._play(c)
        except Exception as exc:  # noqa: BLE001 - reported at the end
            self.error = f"{type(exc).__name__}: {exc}"

    def _post(self, c: httpx.Client, path: str, body: dict[str, Any], times: list[float]) -> dict[str, Any]:
        t = time.perf_counter()
        r = c.post(path, json=body)
        times.append(time.perf_counter() - t)
        if r.status_code not in (200, 201):
            raise RuntimeError(f"{path}: {r.status_code} {r.text[:300]}")
        return r.json()

    def _play(self, c: httpx.Client) -> None:
        state = self._post(c, "/api/games", {"mode": "daily", "rules": self.rules, "level": self.level,
                                             "token": self.token, "nickname": self.nickname,
                                             "hands": self.hands}, self.other_times)
        gid = state["id"]
        while state["phase"] != "game_over" and time.monotonic() < self.deadline:
            seq = state["seq"]
            if state["phase"] == "hand_over":
                state = self._post(c, f"/api/games/{gid}/next", {"seq": seq}, self.other_times)
            elif state["phase"] == "bidding":
                suit = None if None in state["legal"] else state["legal"][0]
                state = self._post(c, f"/api/games/{gid}/bid", {"suit": suit, "seq": seq}, self.other_times)
            else:
                state = self._post(c, f"/api/games/{gid}/play", {"card": state["legal"][0], "seq": seq},
                                   self.card_times)
            self.state = state
        self.state = state


def run(players: int, hands: int, level: str, workers: int, time_limit: float, keep: str | None) -> dict[str, Any]:
    tmp = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="klaverjas-web-bench-"))
    tmp.mkdir(parents=True, exist_ok=True)
    db = tmp / "bench.sqlite3"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(tmp / "server.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "quartet_solver", "klaverjas", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--db", str(db), "--workers", str(workers), "--quiet"],
                              stdout=log, stderr=subprocess.STDOUT, cwd=tmp)
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise SystemExit(f"the server stopped:\n{(tmp / 'server.log').read_text()[-3000:]}")
            try:
                if httpx.get(base + "/api/rankings", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start within 60 s")
            time.sleep(0.2)
        gate = threading.Barrier(players)
        stop = time.monotonic() + time_limit
        crowd = [Player(base, i, ("amsterdam", "rotterdam")[i % 2], level, hands, stop, gate) for i in range(players)]
        start = time.perf_counter()
        for p in crowd:
            p.start()
        for p in crowd:
            p.join()
        wall = time.perf_counter() - start
        report = _check(base, db, crowd, hands)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    cards = [t for p in crowd for t in p.card_times]
    others = [t for p in crowd for t in p.other_times]
    report.update({
        "players": players, "hands": hands, "level": level, "workers": workers, "cpus": os.cpu_count(),
        "wall_seconds": round(wall, 1), "requests": len(cards) + len(others),
        "requests_per_second": round((len(cards) + len(others)) / wall, 1),
        "card_requests": len(cards),
        "card_ms": {"p50": round(1000 * _percentile(cards, 0.5), 1), "p90": round(1000 * _percentile(cards, 0.9), 1),
                    "p99": round(1000 * _percentile(cards, 0.99), 1),
                    "max": round(1000 * max(cards), 1) if cards else None,
                    "mean": round(1000 * statistics.fmean(cards), 1) if cards else None},
        "other_ms": {"p50": round(1000 * _percentile(others, 0.5), 1), "p99": round(1000 * _percentile(others, 0.99), 1)},
        "database": str(db) if keep else None,
    })
    return report


def _check(base: str, db: Path, crowd: list[Player], hands: int) -> dict[str, Any]:
    """Every finished game: totals = replay of the log; in the rankings with that score (16 hands)."""
    storage = Storage(db)
    problems: list[str] = []
    finished = 0
    lists: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with httpx.Client(base_url=base, timeout=60) as c:
        for p in crowd:
            if p.error:
                problems.append(f"player {p.number}: {p.error}")
            st = p.state
            if st is None or st["phase"] != "game_over":
                continue
            finished += 1
            row = storage.game(st["id"])
            if row is None:
                problems.append(f"player {p.number}: game {st['id']} not stored")
                continue
            replayed = Game.replay(row, storage.actions(st["id"]))
            totals = (st["scores"]["totals"]["NS"], st["scores"]["totals"]["EW"])
            if replayed.totals != totals or (row.total_ns, row.total_ew) != totals:
                problems.append(f"player {p.number}: totals {totals}, replay {replayed.totals}, "
                                f"stored {(row.total_ns, row.total_ew)}")
            key = (st["date"], st["rules"])
            if key not in lists:
                lists[key] = c.get("/api/rankings", params={"date": key[0], "rules": key[1]}).json()["entries"]
            mine = [e for e in lists[key] if e["nickname"] == p.nickname]
            if hands == 16:
                if len(mine) != 1 or mine[0]["score"] != replayed.totals[0] or not st["ranked"]:
                    problems.append(f"player {p.number}: rankings entry {mine}, recomputed score {replayed.totals[0]}")
            elif mine or st["ranked"]:
                problems.append(f"player {p.number}: a {hands}-hand game is ranked")
    storage.close()
    return {"finished_games": finished, "unfinished_games": len(crowd) - finished, "problems": problems,
            "checked": f"{finished} finished games: totals = replay of the stored log"
                       + (", each in the rankings with that score" if hands == 16 else " (short games: unranked)")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=50, help="simulated players at once (default 50)")
    ap.add_argument("--hands", type=int, default=16, help="hands per game, 1..16 (default 16; fewer: unranked)")
    ap.add_argument("--level", default="easy", choices=("easy", "normal", "strong"),
                    help="the computer players' level (default easy)")
    ap.add_argument("--workers", type=int, default=2, help="server worker processes (default 2)")
    ap.add_argument("--time-limit", type=float, default=900, help="no request starts after this many seconds "
                    "(default 900)")
    ap.add_argument("--keep", metavar="DIR", help="keep the database and the server log in this directory")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args()
    if not 1 <= args.hands <= 16 or args.players < 1:
        ap.error("--hands must be 1..16 and --players at least 1")
    report = run(args.players, args.hands, args.level, args.workers, args.time_limit, args.keep)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        ms = report["card_ms"]
        print(f"{report['players']} players, {report['hands']} hands, level {report['level']}, "
              f"{report['workers']} workers on {report['cpus']} CPUs: {report['wall_seconds']} s, "
              f"{report['requests']} requests ({report['requests_per_second']}/s)")
        print(f"card request (South's card + the computer players' replies): p50 {ms['p50']} ms, "
              f"p90 {ms['p90']} ms, p99 {ms['p99']} ms, max {ms['max']} ms over {report['card_requests']}")
        print(f"other requests (new game, bids, next): p50 {report['other_ms']['p50']} ms, "
              f"p99 {report['other_ms']['p99']} ms")
        print(f"checked: {report['checked']}; unfinished: {report['unfinished_games']}")
        for problem in report["problems"]:
            print(f"PROBLEM: {problem}")
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
