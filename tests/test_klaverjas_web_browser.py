"""The Klaverjas browser page in a real headless Chromium (Debian's /usr/bin/chromium),
driven by Playwright against the real server (``quartet-solver klaverjas serve`` on
127.0.0.1, a free port and a temporary database).

The tests click through a hand, check the score sheet against the API, switch the
rules, reload mid-hand, play with the keyboard, click a card that is not allowed,
check the phone layout and save screenshots (desktop 1280x800, phone 360x740) to
``$KLAVERJAS_SCREENSHOTS`` (default: the test's tmp dir).  ``KLAVERJAS_WEB_URL``
runs them against a server that is already running instead.

They are skipped when /usr/bin/chromium or the playwright package is missing (CI
installs both: .ci/run).  No browser is ever downloaded (never ``playwright install``).
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from quartet_solver.klaverjas.bots import RandomBot, PlayView
from quartet_solver.klaverjas.deal import Deal
from quartet_solver.klaverjas.rules import Rules, illegal_reason
from quartet_solver.klaverjas.state import PlayState

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
PHONE_SIDEWAYS = {"width": 844, "height": 390}
TIMEOUT_MS = 90_000       # a request can wait for the computer players and the hand's review

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - CI installs it
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                       reason=f"no Chromium at {CHROMIUM} (apt-get install chromium chromium-driver; .ci/run does)"),
    pytest.mark.skipif(sync_playwright is None, reason="the playwright package is not installed (pip install playwright)"),
]


# -- the server and the browser ----------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 60) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The base URL of a running server (started here unless $KLAVERJAS_WEB_URL names one)."""
    given = os.environ.get("KLAVERJAS_WEB_URL")
    if given:
        yield given.rstrip("/")
        return
    tmp = tmp_path_factory.mktemp("klaverjas_web")
    port = _free_port()
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "quartet_solver", "klaverjas", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(tmp / "games.sqlite")],
        stdout=log, stderr=subprocess.STDOUT,
        cwd=tmp)      # not the source tree: the installed package, with its compiled core
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            log.close()
            pytest.fail(f"the server stopped (code {proc.returncode}):\n{(tmp / 'server.log').read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(base + "/", timeout=2) as resp:
                if resp.status == 200:
                    break
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the server did not answer within 60 s:\n" + (tmp / "server.log").read_text()[-3000:])
        time.sleep(0.2)
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    out = Path(os.environ.get("KLAVERJAS_SCREENSHOTS") or tmp_path / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    return out


class Page:
    """A page of the game in a fresh browser context (its own localStorage)."""

    def __init__(self, browser, base: str, viewport=DESKTOP, fast: bool = True, init: str = "") -> None:
        self.base = base
        self.errors: list[str] = []
        self.context = browser.new_context(viewport=viewport)
        # easy computer players (fast), unless the test chose otherwise
        self.context.add_init_script(
            "if (!localStorage.getItem('klaverjas.level')) localStorage.setItem('klaverjas.level', 'easy');" + init)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(base + ("/?fast=1" if fast else "/"))
        self.idle()

    def idle(self) -> None:
        """Wait until no request or replay is under way."""
        self.page.wait_for_function("document.body.dataset.idle === '1' && !!window.klaverjas.state()",
                                    timeout=TIMEOUT_MS)

    def state(self) -> dict:
        """The game's state as the API gives it now."""
        gid = self.page.evaluate("window.klaverjas.state().id")
        status, data = _get(f"{self.base}/api/games/{gid}")
        assert status == 200, data
        return data

    def shown(self) -> dict:
        """The state the page is showing."""
        return self.page.evaluate("window.klaverjas.state()")

    def click(self, selector: str) -> None:
        self.page.click(selector)
        self.idle()

    def confirm_if_asked(self) -> None:
        if self.page.is_visible("#confirm"):
            self.click("#confirm-yes")
        else:
            self.idle()

    def bid_once(self) -> None:
        """South bids by clicking: Pass when allowed, else the first suit."""
        st = self.shown()
        assert st["phase"] == "bidding" and st["to_move"] == "S"
        assert self.page.is_visible("#bidpanel")
        if None in st["legal"]:
            self.click("#bidpanel .bid.pass")
        else:   # forced: no Pass button
            assert not self.page.is_visible("#bidpanel .bid.pass")
            self.click("#bidpanel .bid:not([disabled])")

    def play_once(self) -> str:
        """South plays the first highlighted card; returns it."""
        st = self.shown()
        assert st["phase"] == "playing" and st["to_move"] == "S"
        highlighted = self.page.eval_on_selector_all("#hand .card.legal", "els => els.map(e => e.dataset.card)")
        assert sorted(highlighted) == sorted(st["legal"])
        dimmed = self.page.eval_on_selector_all("#hand .card.dimmed", "els => els.map(e => e.dataset.card)")
        assert sorted(highlighted + dimmed) == sorted(st["hand"])
        card = highlighted[0]
        self.click(f'#hand .card[data-card="{card}"]')
        return card

    def step(self) -> None:
        st = self.shown()
        if st["phase"] == "bidding":
            self.bid_once()
        elif st["phase"] == "playing":
            self.play_once()
        else:
            raise AssertionError(f"no move in phase {st['phase']}")

    def no_horizontal_scroll(self) -> None:
        width, inner = self.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width <= inner, f"horizontal scroll: the page is {width}px wide in a {inner}px window"

    def close(self) -> None:
        assert not self.errors, f"JavaScript errors: {self.errors}"
        self.context.close()


@pytest.fixture
def open_page(browser, server):
    pages: list[Page] = []

    def make(**kw) -> Page:
        p = Page(browser, server, **kw)
        pages.append(p)
        return p

    yield make
    for p in pages:
        p.close()


def _sheet_row(page, hand_no: int) -> dict:
    return page.evaluate(f"""() => {{
        const tr = document.querySelector('#sheet-body tr[data-hand="{hand_no}"]');
        const cell = t => {{
            const td = tr.querySelector('td[data-team="' + t + '"]');
            return {{score: td.querySelector('.score').textContent, detail: td.querySelector('.detail').textContent,
                     nat: !!td.querySelector('.badge.nat'), pit: !!td.querySelector('.badge.pit')}};
        }};
        return {{NS: cell('NS'), EW: cell('EW'), trump: tr.querySelector('.trump-cell').textContent}};
    }}""")


# -- the tests -------------------------------------------------------------------------------------

def test_play_a_whole_hand_by_clicking(open_page, shots):
    """Bids and cards by clicks (with the page's replay of the computer moves), then the
    score sheet and the review against the API's state, then the next hand."""
    p = open_page(fast=False)
    page = p.page
    for _ in range(15):                       # a deal where South gets to bid
        if p.shown()["phase"] == "bidding":
            break
        page.click("#btn-new")
        p.confirm_if_asked()
    assert page.text_content("#info-hand") == "Hand 1 of 16"
    shot_bidding = shot_trick = False
    for _ in range(40):
        st = p.shown()
        if st["phase"] not in ("bidding", "playing"):
            break
        if st["phase"] == "bidding" and not shot_bidding:
            page.screenshot(path=str(shots / "desktop_bidding.png"))
            shot_bidding = True
        if st["phase"] == "playing":
            # trump and who named it are always shown
            assert st["declarer"] and st["trump"]
            assert {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}[st["trump"]] in \
                page.text_content("#info-trump")
            if st["trick"] and not shot_trick:
                page.screenshot(path=str(shots / "desktop_midtrick.png"))
                shot_trick = True
            backs = page.evaluate("['N','E','W'].map(s => document.querySelectorAll('#seat-' + s + ' .back').length)")
            assert backs == [st["counts"][s] for s in "NEW"]
        p.step()
    st = p.state()
    assert st["phase"] == "hand_over" and len(st["scores"]["hands"]) == 1
    assert page.is_visible("#review")
    review_text = page.text_content("#review").lower()
    assert "double-dummy analysis: every hand seen" in review_text
    dd = page.text_content('#review [data-dd="start"]')
    assert str(abs(st["review"]["start_value"])) in dd
    losses = page.text_content('#review [data-dd="losses"]')
    teams = st["review"]["losses"]["teams"]
    assert f"N/S {teams['NS']}" in losses and f"E/W {teams['EW']}" in losses
    lost = [c for c in st["review"]["cards"] if c["loss"] > 0]
    assert page.locator("#review .losses li").count() == len(lost)
    page.screenshot(path=str(shots / "desktop_review.png"))

    row = st["scores"]["hands"][0]
    shown = _sheet_row(page, 1)
    for team in ("NS", "EW"):
        assert shown[team]["score"] == str(row["scores"][team])
        assert shown[team]["detail"] == f"{row['points'][team]} + {row['roem'][team]}"
        playing = team == ("NS" if row["declarer"] in "NS" else "EW")
        assert shown[team]["nat"] == (bool(row["nat"]) and playing)
        assert shown[team]["pit"] == (row["pit"] == team)
    assert row["declarer"] in shown["trump"]
    assert page.text_content("#total-NS") == str(st["scores"]["totals"]["NS"])
    assert page.text_content("#total-EW") == str(st["scores"]["totals"]["EW"])

    p.click("#btn-next")
    assert not page.is_visible("#review")
    assert page.text_content("#info-hand") == "Hand 2 of 16"
    assert p.state()["hand_no"] == 2
    assert page.locator("#sheet-body tr[data-hand]").count() == 1


def test_switching_the_rules_starts_a_new_game_and_is_remembered(open_page):
    p = open_page()
    page = p.page
    first = p.shown()
    assert first["rules"] == "amsterdam" and page.text_content("#btn-rules") == "Rules: Amsterdam"
    p.step()                                  # some progress: the page asks before leaving the game
    page.click("#btn-rules")
    if p.shown()["phase"] != "bidding" or p.shown()["hand_no"] > 1:
        assert page.is_visible("#confirm")
    p.confirm_if_asked()
    st = p.state()
    assert st["id"] != first["id"] and st["rules"] == "rotterdam"
    assert page.text_content("#btn-rules") == "Rules: Rotterdam"
    assert page.evaluate("localStorage.getItem('klaverjas.rules')") == "rotterdam"
    assert page.evaluate("localStorage.getItem('klaverjas.game')") == st["id"]

    page.reload()
    p.idle()
    assert p.shown()["id"] == st["id"]
    assert page.text_content("#btn-rules") == "Rules: Rotterdam"
    page.click("#btn-new")                    # a new game keeps the remembered rules
    p.confirm_if_asked()
    again = p.state()
    assert again["id"] != st["id"] and again["rules"] == "rotterdam"

    page.click("#btn-rules")                  # and back
    p.confirm_if_asked()
    assert p.state()["rules"] == "amsterdam"
    assert page.evaluate("localStorage.getItem('klaverjas.rules')") == "amsterdam"


def test_reload_mid_hand_resumes_the_game(open_page):
    p = open_page()
    page = p.page
    for _ in range(30):
        st = p.shown()
        if st["phase"] == "playing" and st["to_move"] == "S" and len(st["hand"]) <= 6 and st["trick"]:
            break
        if st["phase"] not in ("bidding", "playing"):
            p.click("#btn-next")
            continue
        p.step()
    before = p.state()
    assert before["phase"] == "playing"
    page.reload()
    p.idle()
    after = p.shown()
    assert (after["id"], after["seq"], after["hand"]) == (before["id"], before["seq"], before["hand"])
    cards = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(cards) == sorted(before["hand"])
    for t in before["trick"]:
        assert page.locator(f'#trick .slot-{t["seat"]} .card[data-card="{t["card"]}"]').count() == 1
    # the last trick, to look at, and back
    last = before["last_trick"]
    assert last and len(last["cards"]) == 4
    page.click("#btn-last")
    assert page.get_attribute("#btn-last", "aria-pressed") == "true"
    for t in last["cards"]:
        assert page.locator(f'#trick .slot-{t["seat"]} .card[data-card="{t["card"]}"]').count() == 1
    assert "last trick" in page.text_content("#trick-note").lower()
    page.click("#btn-last")
    assert page.get_attribute("#btn-last", "aria-pressed") == "false"
    for t in before["trick"]:
        assert page.locator(f'#trick .slot-{t["seat"]} .card[data-card="{t["card"]}"]').count() == 1
    p.play_once()                             # and the game goes on
    assert p.state()["seq"] > before["seq"]


def _tab_to(page, selector: str, limit: int = 80) -> str:
    """Press Tab until the focused element matches ``selector``; returns its aria-label."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement && document.activeElement.matches({json.dumps(selector)})"):
            return page.evaluate("document.activeElement.getAttribute('aria-label') || document.activeElement.textContent")
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_play(open_page):
    p = open_page()
    page = p.page
    for _ in range(20):
        st = p.shown()
        if st["phase"] == "bidding":     # bid with the keyboard too: Space on a bid button
            _tab_to(page, "#bidpanel .bid:not([disabled])")
            page.keyboard.press("Space")
            p.idle()
            continue
        if st["phase"] == "playing":
            break
        p.click("#btn-next")
    st = p.state()
    assert st["phase"] == "playing" and st["to_move"] == "S"
    page.focus("body")
    label = _tab_to(page, "#hand .card.legal")
    card = page.evaluate("document.activeElement.dataset.card")
    ranks = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "Ten", "9": "Nine", "8": "Eight", "7": "Seven"}
    suits = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
    assert label == f"{ranks[card[0]]} of {suits[card[1]]}"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused card has no visible focus"
    page.keyboard.press("Enter")
    p.idle()
    after = p.state()
    assert after["seq"] > st["seq"]
    assert card not in after["hand"]
    if after["phase"] == "playing" and after["to_move"] == "S":
        # the focus comes back to a playable card: the next card is one key press away
        assert page.evaluate("document.activeElement.matches('#hand .card.legal')")


def _expected_phrase(reason: str) -> str:
    if reason.startswith("must follow suit"):
        return "must follow suit"
    if reason == "must overtrump":
        return "overtrump"
    if reason == "must play a trump":
        return "must play a trump"
    assert reason == "may not undertrump", reason
    return "may not undertrump"


def test_clicking_a_dimmed_card_says_why(open_page, shots):
    p = open_page(viewport=PHONE)
    page = p.page
    for _ in range(80):
        st = p.shown()
        if st["phase"] in ("hand_over", "game_over"):
            p.click("#btn-next")
            continue
        if st["phase"] == "playing" and st["to_move"] == "S" and len(st["legal"]) < len(st["hand"]):
            break
        p.step()
    else:
        pytest.fail("South never had a card that was not allowed")
    st = p.state()
    card = page.eval_on_selector_all("#hand .card.dimmed", "els => els.map(e => e.dataset.card)")[0]
    assert page.get_attribute(f'#hand .card[data-card="{card}"]', "aria-disabled") == "true"
    # aria-disabled: Playwright would wait for it to be enabled; a player can click it
    page.click(f'#hand .card[data-card="{card}"]', force=True)
    p.idle()
    message = page.text_content("#message")
    assert page.is_visible("#message")
    expected = illegal_reason(card, st["hand"], [t["card"] for t in st["trick"]], st["trump"], st["rules"])
    assert expected is not None
    assert _expected_phrase(expected) in message.lower(), (expected, message)
    page.screenshot(path=str(shots / "phone_refused_card.png"))
    assert p.state()["seq"] == st["seq"]      # nothing was sent


def _positions(n: int, seed: int):
    """Random positions (both variants) with at least one card that is not allowed."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        rules = rng.choice([Rules.AMSTERDAM, Rules.ROTTERDAM])
        state = PlayState(Deal.random(seed=rng.randrange(10**9)), rng.choice("cdhs"), rng.randrange(4),
                          rng.randrange(4), rules=rules)
        bot = RandomBot(rng.randrange(10**9))
        for _ in range(rng.randrange(29)):
            state = state.play(bot.choose_card(PlayView.of(state)))
        if not state.trick:
            continue
        hand = [str(c) for c in state.hand(state.to_move)]
        legal = [str(c) for c in state.legal_cards()]
        trick = [str(c) for c in state.trick]
        for card in hand:
            if card not in legal:
                out.append({"card": card, "hand": hand, "trick": trick, "trump": state.trump.char,
                            "rules": rules.variant, "legal": legal,
                            "expected": illegal_reason(card, hand, trick, state.trump, rules)})
    return out


def test_the_page_explains_refusals_as_the_rules_do(open_page):
    """The page's reason for a refused card agrees with rules.illegal_reason, in both variants."""
    p = open_page()
    cases = _positions(400, seed=11)
    got = p.page.evaluate("""cases => cases.map(c =>
        window.klaverjas.illegalReason(c.card, c.hand, c.trick, c.trump, c.rules, c.legal))""", cases)
    for case, text in zip(cases, got):
        assert text, case
        assert _expected_phrase(case["expected"]) in text.lower(), (case, text)
    assert {c["rules"] for c in cases} == {"amsterdam", "rotterdam"}


def test_a_phone_held_sideways_shows_the_cards_without_scrolling(open_page, shots):
    p = open_page(viewport=PHONE_SIDEWAYS)
    page = p.page
    p.no_horizontal_scroll()
    for _ in range(40):
        st = p.shown()
        if st["phase"] == "playing" and st["hand"]:
            bottoms = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.getBoundingClientRect().bottom)")
            assert max(bottoms) <= PHONE_SIDEWAYS["height"], "South's cards are below the fold"
            page.screenshot(path=str(shots / "phone_sideways.png"))
            return
        if st["phase"] not in ("bidding", "playing"):
            page.click("#btn-new")
            p.confirm_if_asked()
            continue
        p.step()
    pytest.fail("no card play reached")


def test_phone_layout_and_screenshots(open_page, shots):
    p = open_page(viewport=PHONE)
    page = p.page
    p.no_horizontal_scroll()
    for _ in range(6):                        # a hand where South bids, for the picture
        if p.shown()["phase"] == "bidding":
            break
        page.click("#btn-new")
        p.confirm_if_asked()
    if p.shown()["phase"] == "bidding":
        page.screenshot(path=str(shots / "phone_bidding.png"))
        boxes = page.eval_on_selector_all("#bidpanel .bid:not([hidden])",
                                          "els => els.map(e => e.getBoundingClientRect().right)")
        assert max(boxes) <= PHONE["width"]
    shot_trick = False
    for _ in range(40):
        st = p.shown()
        if st["phase"] not in ("bidding", "playing"):
            break
        if st["phase"] == "playing":
            rights = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.getBoundingClientRect().right)")
            lefts = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.getBoundingClientRect().left)")
            assert min(lefts) >= 0 and max(rights) <= PHONE["width"], "South's cards do not fit the phone's width"
            p.no_horizontal_scroll()
            if len(st["trick"]) >= 2:             # the card that led is marked, and only it
                led = st["trick"][0]["seat"]
                assert page.locator(f"#trick .slot-{led} .led-mark").count() == 1
                assert page.locator("#trick .led-mark").count() == 1
            if st["trick"] and not shot_trick and len(st["hand"]) < 8:
                page.screenshot(path=str(shots / "phone_midtrick.png"))
                shot_trick = True
        p.step()
    assert p.shown()["phase"] == "hand_over"
    assert page.is_visible("#btn-next")
    page.screenshot(path=str(shots / "phone_review.png"))
    p.no_horizontal_scroll()
    page.click("#btn-review-hide")
    # the table after the hand: its last trick is on it, and the next hand is a click away
    assert page.is_visible("#btn-table-next") and page.is_visible("#btn-review") and not page.is_visible("#btn-last")
    page.screenshot(path=str(shots / "phone_hand_over_table.png"), full_page=True)
    hand_no = p.shown()["hand_no"]
    p.click("#btn-table-next")
    assert p.shown()["hand_no"] == hand_no + 1 and not page.is_visible("#btn-table-next")
    page.click("#btn-rankings")
    page.wait_for_function("document.querySelector('#rank-note').textContent !== 'Loading\u2026'")
    page.screenshot(path=str(shots / "phone_rankings.png"))
    p.no_horizontal_scroll()
    page.click("#rank-close")
    # the same page on a desktop screen
    page.set_viewport_size(DESKTOP)
    p.no_horizontal_scroll()
    page.screenshot(path=str(shots / "desktop_table.png"))


def test_api_errors_are_shown_not_crashed(open_page):
    # a game id that the server does not know: the page starts a new game
    p = open_page(init="localStorage.setItem('klaverjas.game', 'no-such-game-0000');")
    page = p.page
    st = p.shown()
    assert st["id"] != "no-such-game-0000"
    for _ in range(10):
        if p.shown()["phase"] == "playing" and p.shown()["to_move"] == "S":
            break
        p.step()
    st = p.state()
    body = {"error": {"type": "conflict", "message": "The game moved on (test)."}}
    page.route("**/api/games/*/play", lambda route: route.fulfill(status=409, content_type="application/json",
                                                                  body=json.dumps(body)))
    card = page.eval_on_selector_all("#hand .card.legal", "els => els.map(e => e.dataset.card)")[0]
    p.click(f'#hand .card[data-card="{card}"]')
    assert page.is_visible("#message")
    assert "The game moved on (test)." in page.text_content("#message")
    assert p.shown()["seq"] == st["seq"]
    page.unroute("**/api/games/*/play")
    p.play_once()                              # the page still works
    assert p.state()["seq"] > st["seq"]
    assert not page.is_visible("#message")


def test_double_click_applies_once(open_page):
    p = open_page()
    page = p.page
    for _ in range(10):
        if p.shown()["phase"] == "playing" and p.shown()["to_move"] == "S":
            break
        p.step()
    st = p.state()
    card = page.eval_on_selector_all("#hand .card.legal", "els => els.map(e => e.dataset.card)")[0]
    page.dblclick(f'#hand .card[data-card="{card}"]')
    p.idle()
    after = p.state()
    plays = [e for e in after["events"] if e.get("type") == "play" and e.get("seat") == "S"]
    assert [e["card"] for e in plays].count(card) == 1
    assert not p.errors


def _post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as resp:
        return json.loads(resp.read())


def test_daily_game_to_the_end_and_the_rankings(open_page, server, shots):
    """A Daily game started on the page (with a nickname that looks like HTML), played to
    the end through the API, shown as over after a reload, then in the rankings view."""
    nick = "<img src=x onerror=alert(1)>"[:24]
    p = open_page()
    page = p.page
    page.fill("#nickname", nick)
    page.press("#nickname", "Tab")
    assert page.evaluate("localStorage.getItem('klaverjas.nickname')") == nick
    token = page.evaluate("localStorage.getItem('klaverjas.token')")
    assert 16 <= len(token) <= 64
    page.click("#btn-daily")
    p.confirm_if_asked()
    st = p.state()
    assert st["mode"] == "daily" and st["nickname"] == nick and st["token"] == token and st["ranked"]
    assert "Daily" in page.text_content("#info-mode")
    gid = st["id"]
    while st["phase"] != "game_over":        # the rest of the game, quickly, through the API
        if st["phase"] == "bidding":
            st = _post(server, f"/api/games/{gid}/bid", {"suit": st["legal"][0], "seq": st["seq"]})
        elif st["phase"] == "playing":
            st = _post(server, f"/api/games/{gid}/play", {"card": st["legal"][0], "seq": st["seq"]})
        else:
            st = _post(server, f"/api/games/{gid}/next", {"seq": st["seq"]})
    page.reload()
    p.idle()
    assert p.shown()["phase"] == "game_over"
    assert page.is_visible("#review")
    assert page.text_content("#review-title") == "Game over"
    totals = st["scores"]["totals"]
    assert f"N/S {totals['NS']} \u2013 E/W {totals['EW']}" in page.text_content("#review-result")
    assert page.locator("#sheet-body tr[data-hand]").count() == 16
    assert f"The game is over: N/S {totals['NS']}, E/W {totals['EW']} in all" in page.text_content("#status")
    # the newest hand and the totals are in view in the sheet's scroll box
    in_view = page.evaluate("""() => {
        const box = document.querySelector('.sheet-wrap').getBoundingClientRect();
        const inside = el => { const r = el.getBoundingClientRect(); return r.top >= box.top - 1 && r.bottom <= box.bottom + 1; };
        return [inside(document.querySelector('#sheet-body tr[data-hand="16"]')), inside(document.querySelector('#total-NS'))];
    }""")
    assert in_view == [True, True]
    assert not page.is_visible("#btn-next")
    page.screenshot(path=str(shots / "desktop_game_over.png"))

    page.click("#btn-review-rankings")
    page.wait_for_function("document.querySelector('#rank-note').textContent !== 'Loading\u2026'")
    assert page.is_visible("#rankings")
    assert page.input_value("#rank-date") == st["date"]
    status, ranks = _get(f"{server}/api/rankings?date={st['date']}&rules=amsterdam")
    assert status == 200
    mine = [e for e in ranks["entries"] if e["nickname"] == nick]
    assert len(mine) == 1 and mine[0]["score"] == totals["NS"]
    rows = page.eval_on_selector_all("#rank-body tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert len(rows) == len(ranks["entries"])
    assert [str(mine[0]["rank"]), nick, str(totals["NS"])] in [r[:3] for r in rows]
    assert all(r[3] for r in rows)             # the time
    assert page.locator("#rankings img").count() == 0
    page.screenshot(path=str(shots / "desktop_rankings.png"))
    page.keyboard.press("Escape")
    assert not page.is_visible("#rankings")
