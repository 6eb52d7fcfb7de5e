/* Klaverjas in the browser: the page of `quartet-solver klaverjas serve`.
 *
 * The server deals, runs the computer players, checks every move and keeps the
 * score (docs/klaverjas_web_api.md); this page shows the state it returns and
 * sends South's bids and cards.  Everything is built with DOM calls and
 * textContent: no user data ever goes through innerHTML.
 */
(function () {
  "use strict";

  // -- constants -------------------------------------------------------------------
  var SEATS = ["N", "E", "S", "W"];                       // clockwise
  var SEAT_NAME = { N: "North", E: "East", S: "South", W: "West" };
  var SUIT = {
    c: { name: "clubs", one: "club", sym: "\u2663", red: false },
    d: { name: "diamonds", one: "diamond", sym: "\u2666", red: true },
    h: { name: "hearts", one: "heart", sym: "\u2665", red: true },
    s: { name: "spades", one: "spade", sym: "\u2660", red: false }
  };
  var HAND_SUIT_ORDER = ["s", "h", "c", "d"];             // colours alternate
  var RANK_NAME = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", "9": "Nine", "8": "Eight", "7": "Seven" };
  var RANK_TEXT = { A: "A", K: "K", Q: "Q", J: "J", T: "10", "9": "9", "8": "8", "7": "7" };
  var TRUMP_ORDER = "J9ATKQ87";
  var PLAIN_ORDER = "ATKQJ987";
  var RULE_NAME = { amsterdam: "Amsterdam", rotterdam: "Rotterdam" };
  var LEVELS = ["easy", "normal", "strong"];
  var KEY = { token: "klaverjas.token", game: "klaverjas.game", rules: "klaverjas.rules",
              level: "klaverjas.level", nickname: "klaverjas.nickname" };
  var TOKEN_RE = /^[A-Za-z0-9_-]{16,64}$/;
  var TIPS = [
    "Name trumps when you hold the jack, or the nine and the ace, and at least three trumps: the jack and nine alone are worth 34 points and take two tricks.",
    "When your team chose trumps, lead trumps to draw the opponents' trumps, then cash the aces of the other suits.",
    "When your partner is sure to win a trick, put your tens and aces on it, and any card that completes a run for roem.",
    "When the opponents are winning a trick, do not complete a run that gives them roem.",
    "Going nat costs everything: pass a hand that only looks good in a suit without the jack or the nine.",
    "The last trick is worth 10 extra points: keep a winner for the end."
  ];

  var params = new URLSearchParams(window.location.search);
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var FAST = params.get("fast") === "1";
  var DELAY = FAST ? { bid: 0, play: 0, trick: 0 } :
    (reduceMotion ? { bid: 150, play: 150, trick: 700 } : { bid: 420, play: 380, trick: 1100 });

  // -- state -----------------------------------------------------------------------
  var game = null;          // the last state from the server
  var busy = false;         // a request or a replay is under way
  var showLast = false;     // the "last trick" view
  var sheetRows = -1;       // rows on the score sheet when it was last drawn
  var reviewHidden = false; // the review panel was put aside to look at the table
  var trickMsg = "";        // what the last finished trick did
  var pendingConfirm = null;
  var focusReview = false;  // the review panel just opened: move the focus there
  var rankingsOpener = null;
  var messageTimer = null;
  var refocus = false;      // a move was made from the hand or the bid buttons: focus the next control there

  // -- small helpers ---------------------------------------------------------------
  function $(id) { return document.getElementById(id); }

  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        if (k === "text") node.textContent = v;
        else if (k === "class") node.className = v;
        else node.setAttribute(k, v === true ? "" : String(v));
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function store(key, value) {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch (e) { /* private mode: nothing is remembered */ }
  }

  function load(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }

  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  function teamOf(seat) { return seat === "N" || seat === "S" ? "NS" : "EW"; }
  function teamText(team) { return team === "NS" ? "N/S" : "E/W"; }
  function nextSeat(seat) { return SEATS[(SEATS.indexOf(seat) + 1) % 4]; }
  function who(seat) { return seat === "S" ? "You" : (seat === "N" ? "North (partner)" : SEAT_NAME[seat]); }
  function whoShort(seat) { return seat === "S" ? "You" : SEAT_NAME[seat]; }
  function rank(card) { return card.charAt(0); }
  function suit(card) { return card.charAt(1); }
  function cardName(card) { return RANK_NAME[rank(card)] + " of " + SUIT[suit(card)].name; }
  function cardShort(card) { return SUIT[suit(card)].sym + RANK_TEXT[rank(card)]; }
  function suitLabel(s) { return SUIT[s].sym + " " + SUIT[s].name; }
  function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n); }

  function newToken() {
    var alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    var out = "";
    for (var i = 0; i < bytes.length; i++) out += alphabet.charAt(bytes[i] & 63);
    return out;
  }

  function token() {
    var t = load(KEY.token);
    if (!t || !TOKEN_RE.test(t)) { t = newToken(); store(KEY.token, t); }
    return t;
  }

  function chosenRules() {
    var r = load(KEY.rules);
    return r === "rotterdam" ? "rotterdam" : "amsterdam";
  }

  function chosenLevel() {
    var l = load(KEY.level);
    return LEVELS.indexOf(l) >= 0 ? l : "normal";
  }

  function nickname() {
    return (load(KEY.nickname) || "").trim().slice(0, 24);
  }

  // -- the rules, client side: only to explain why a card is not allowed ------------
  function trumpPower(card, trump) { return suit(card) === trump ? 8 - TRUMP_ORDER.indexOf(rank(card)) : 0; }

  function power(card, trump, led) {
    if (suit(card) === trump) return 100 + trumpPower(card, trump);
    if (suit(card) === led) return 8 - PLAIN_ORDER.indexOf(rank(card));
    return 0;
  }

  function trickWinner(cards, trump) {   // index of the card winning so far
    var best = 0;
    for (var i = 1; i < cards.length; i++) {
      if (power(cards[i], trump, suit(cards[0])) > power(cards[best], trump, suit(cards[0]))) best = i;
    }
    return best;
  }

  /* Why `card` may not be played (null if it may): the legal cards come from the
   * server; this only puts the rule into words (the same cases as rules.py). */
  function illegalReason(card, hand, trick, trump, rules, legal) {
    if (legal.indexOf(card) >= 0) return null;
    if (!trick.length) return "You may lead any card.";
    var led = suit(trick[0]);
    var ledText = led === trump ? "trumps (" + suitLabel(led) + ")" : suitLabel(led);
    var hasLed = hand.some(function (c) { return suit(c) === led; });
    if (hasLed && suit(card) !== led) {
      return "You must follow suit: " + ledText + " were led and you have " + (led === trump ? "a trump" : "one") + ".";
    }
    var trumpsInTrick = trick.filter(function (c) { return suit(c) === trump; });
    var highest = 0, highCard = null;
    trumpsInTrick.forEach(function (c) {
      if (trumpPower(c, trump) > highest) { highest = trumpPower(c, trump); highCard = c; }
    });
    var allTrumps = legal.length > 0 && legal.every(function (c) { return suit(c) === trump; });
    if (led === trump) {
      return "Trumps were led: you must overtrump, with a trump higher than the " + cardName(highCard) +
        " if you can, even over your partner.";
    }
    var why = rules === "rotterdam"
      ? " (Rotterdam rules: when you cannot follow suit you always trump, even when your partner is winning)"
      : " (Amsterdam rules: the opponents are winning this trick)";
    if (allTrumps) {
      var canOver = highest > 0 && legal.some(function (c) { return trumpPower(c, trump) > highest; });
      if (suit(card) === trump || canOver) {
        return "You cannot follow " + suitLabel(led) + ", so you must overtrump: play a trump higher than the " +
          cardName(highCard) + why + ".";
      }
      return "You cannot follow " + suitLabel(led) + ", so you must play a trump" + why + ".";
    }
    return "You may not undertrump: the " + cardName(highCard) + " is the highest trump in the trick and you " +
      "hold another card. Play a higher trump or another suit.";
  }

  // -- the API ---------------------------------------------------------------------
  function ApiError(message, status, type) {
    this.message = message; this.status = status; this.type = type;
  }

  function api(method, path, body) {
    var opts = { method: method, headers: { "Accept": "application/json" } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (resp) {
      return resp.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (!resp.ok) {
          var err = data && data.error ? data.error : {};
          throw new ApiError(err.message || ("The server answered " + resp.status + "."), resp.status, err.type || "");
        }
        if (data === null) throw new ApiError("The server sent an answer this page cannot read.", resp.status, "");
        return data;
      });
    }, function () {
      throw new ApiError("Cannot reach the server. Check the connection and try again.", 0, "network");
    });
  }

  function showMessage(text, kind) {
    var m = $("message");
    clear(m);
    if (!text) { m.hidden = true; return; }
    m.className = "message " + (kind || "error");
    m.appendChild(el("span", { text: text }));
    var close = el("button", { type: "button", class: "ctl small", "aria-label": "Close the message", text: "\u00d7" });
    close.addEventListener("click", function () { showMessage(""); });
    m.appendChild(close);
    m.hidden = false;
    clearTimeout(messageTimer);
    if (kind === "info") messageTimer = setTimeout(function () { showMessage(""); }, 7000);
  }

  function setBusy(flag) {
    busy = flag;
    document.body.setAttribute("data-idle", flag ? "0" : "1");
    document.body.setAttribute("aria-busy", flag ? "true" : "false");
    var controls = document.querySelectorAll("button.ctl, .bid, #hand .card");
    for (var i = 0; i < controls.length; i++) {
      var c = controls[i];
      if (c.id === "rank-close" || c.id === "rank-load" || c.id === "btn-rankings" ||
          c.id === "btn-review-hide" || c.id === "confirm-no" || c.closest(".message")) continue;
      if (flag) { c.disabled = true; c.setAttribute("data-busy", "1"); }
    }
    if (!flag) render();
  }

  // -- talking to the server -------------------------------------------------------
  async function request(method, path, body, opts) {
    if (busy) return null;
    setBusy(true);
    showMessage("");
    var state = null;
    try {
      state = await api(method, path, body);
    } catch (err) {
      showMessage(err.type === "stale_seq"
        ? "The game moved on in another tab or window; the table now shows where it stands."
        : err.message || String(err));
      if (game && opts && opts.resync) {
        try { state = await api("GET", "/api/games/" + encodeURIComponent(game.id)); } catch (e2) { state = null; }
      }
      if (!state) { setBusy(false); return null; }
    }
    try {
      await receive(state, opts && opts.replay);
    } catch (err) {
      showMessage("Something went wrong while showing the game: " + (err && err.message ? err.message : err));
      game = state;
    }
    setBusy(false);
    return state;
  }

  async function receive(state, replay) {
    var old = game;
    showLast = false;
    if (replay && !FAST && old && state.id === old.id) await playback(old, state);
    if (old && old.id === state.id && old.hand_no === state.hand_no) {
      var fresh = (state.events || []).slice((old.events || []).length);
      fresh.forEach(function (ev) { if (ev.type === "trick") trickMsg = trickText(ev, true); });
    }
    game = state;
    if (state.id) store(KEY.game, state.id);
    if (state.token && TOKEN_RE.test(state.token)) store(KEY.token, state.token);
    if (state.phase === "hand_over" || state.phase === "game_over") {
      if (!old || old.phase !== state.phase || old.hand_no !== state.hand_no) { reviewHidden = false; focusReview = true; }
    }
  }

  function startGame(mode, rules) {
    var body = { mode: mode, rules: rules || chosenRules(), level: chosenLevel(), token: token() };
    var nick = nickname();
    if (nick) body.nickname = nick;
    trickMsg = "";
    return request("POST", "/api/games", body);
  }

  function fromKeyboardArea() {
    var a = document.activeElement;
    return !!(a && a.closest && (a.closest("#hand") || a.closest("#bidpanel")));
  }

  function bid(s) {
    if (!game) return;
    refocus = fromKeyboardArea();
    request("POST", "/api/games/" + encodeURIComponent(game.id) + "/bid",
            { suit: s, seq: game.seq }, { replay: true, resync: true });
  }

  function play(card) {
    if (!game) return;
    refocus = fromKeyboardArea();
    trickMsg = "";
    request("POST", "/api/games/" + encodeURIComponent(game.id) + "/play",
            { card: card, seq: game.seq }, { replay: true, resync: true });
  }

  function nextHand() {
    if (!game) return;
    refocus = true;
    trickMsg = "";
    request("POST", "/api/games/" + encodeURIComponent(game.id) + "/next",
            { seq: game.seq }, { replay: true, resync: true });
  }

  // -- replaying the computer players' moves ---------------------------------------
  function sameEvent(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  async function playback(old, state) {
    var events = state.events || [];
    var base;
    var d;
    if (old.hand_no === state.hand_no) {
      var before = old.events || [];
      if (before.length > events.length) return;
      for (var i = 0; i < before.length; i++) if (!sameEvent(before[i], events[i])) return;
      base = before.length;
      d = view(old);
    } else {
      base = 0;
      d = view(state);
      d.bidding = []; d.trump = null; d.declarer = null; d.trick = [];
      d.counts = { N: 8, E: 8, S: 8, W: 8 };
      d.to_move = nextSeat(state.dealer);
      d.phase = "bidding";
      d.hand = state.hand.slice();
    }
    if (base >= events.length) return;
    d.interactive = false;
    d.legal = [];
    for (var k = base; k < events.length; k++) {
      var ev = events[k];
      if (ev.type === "bid") {
        d.bidding = d.bidding.concat([{ seat: ev.seat, bid: ev.bid, forced: ev.forced }]);
        if (ev.bid && ev.bid !== "pass") {
          d.trump = ev.bid; d.declarer = ev.seat; d.phase = "playing"; d.to_move = nextSeat(state.dealer);
        } else {
          d.to_move = nextSeat(ev.seat);
        }
        d.note = "";
        drawTable(d);
        if (ev.seat !== "S") await sleep(DELAY.bid);
      } else if (ev.type === "play") {
        if (!d.trick.length) d.note = "";
        d.trick = d.trick.concat([{ seat: ev.seat, card: ev.card }]);
        if (ev.seat === "S") d.hand = d.hand.filter(function (c) { return c !== ev.card; });
        else d.counts[ev.seat] = Math.max(0, (d.counts[ev.seat] || 0) - 1);
        d.to_move = d.trick.length < 4 ? nextSeat(ev.seat) : null;
        drawTable(d);
        if (ev.seat !== "S" || d.trick.length === 4) await sleep(DELAY.play);
      } else if (ev.type === "trick") {
        d.winner = ev.winner;
        d.note = trickText(ev);
        trickMsg = trickText(ev, true);
        drawTable(d);
        await sleep(DELAY.trick);
        d.winner = null; d.trick = []; d.to_move = ev.winner;
        drawTable(d);
      }
    }
  }

  function trickText(t, past) {
    var text;
    if (past) {   // beside the next trick: the trick that was just won
      text = whoShort(t.winner) + " won the last trick: " + t.points + " points";
    } else {
      text = whoShort(t.winner) + (t.winner === "S" ? " win" : " wins") + " the trick: " + t.points + " points";
    }
    if (t.roem) text += " + " + t.roem + " roem for " + teamText(teamOf(t.winner));
    return text + ".";
  }

  // -- drawing -----------------------------------------------------------------------
  function view(state) {     // what the table shows: a state, or a moment of a replay
    return {
      phase: state.phase, hand: (state.hand || []).slice(), legal: (state.legal || []).slice(),
      counts: Object.assign({ N: 0, E: 0, S: 0, W: 0 }, state.counts || {}),
      trick: (state.trick || []).slice(), bidding: (state.bidding || []).slice(),
      trump: state.trump || null, declarer: state.declarer || null, dealer: state.dealer,
      to_move: state.to_move, rules: state.rules, interactive: true, winner: null, note: ""
    };
  }

  function sortHand(cards, trump) {
    var order = HAND_SUIT_ORDER.slice();
    if (trump) {   // trumps on the left, the colours still alternating where possible
      order = [trump].concat(order.filter(function (s) { return s !== trump; }));
      var rest = order.slice(1);
      if (SUIT[rest[0]].red === SUIT[trump].red) { var t = rest[0]; rest[0] = rest[1]; rest[1] = t; }
      order = [trump].concat(rest);
    }
    return cards.slice().sort(function (a, b) {
      var sa = order.indexOf(suit(a)), sb = order.indexOf(suit(b));
      if (sa !== sb) return sa - sb;
      var ord = suit(a) === trump ? TRUMP_ORDER : PLAIN_ORDER;
      return ord.indexOf(rank(a)) - ord.indexOf(rank(b));
    });
  }

  function cardFace(card, tag, attrs) {
    var s = SUIT[suit(card)];
    var node = el(tag, Object.assign({ class: "card " + (s.red ? "red" : "black") + " suit-" + suit(card),
                                       "data-card": card }, attrs || {}));
    node.appendChild(el("span", { class: "corner", "aria-hidden": "true" },
                        el("span", { class: "r", text: RANK_TEXT[rank(card)] }),
                        el("span", { class: "s", text: s.sym })));
    node.appendChild(el("span", { class: "pip", "aria-hidden": "true", text: s.sym }));
    return node;
  }

  function drawSeats(d) {
    ["N", "E", "W", "S"].forEach(function (seat) {
      var box = $("seat-" + seat);
      box.classList.toggle("to-move", d.to_move === seat && (d.phase === "bidding" || d.phase === "playing"));
      box.classList.toggle("winner", d.winner === seat);
      box.querySelector(".dealer").hidden = d.dealer !== seat;
      var dealerChip = box.querySelector(".dealer");
      dealerChip.title = "Dealer";
      var backs = box.querySelector(".backs");
      if (backs) {
        clear(backs);
        var n = d.counts[seat] || 0;
        for (var i = 0; i < n; i++) backs.appendChild(el("span", { class: "back" }));
        box.setAttribute("aria-label", who(seat) + ": " + n + (n === 1 ? " card" : " cards"));
      }
      var bubble = box.querySelector(".bubble");
      var text = "", cls = "bubble", label = "";
      if (d.phase === "bidding") {
        var bids = d.bidding.filter(function (b) { return b.seat === seat; });
        if (bids.length) {
          var last = bids[bids.length - 1];
          if (last.bid === "pass" || last.bid === null) { text = "Pass"; label = who(seat) + " passed"; }
          else { text = SUIT[last.bid].sym; cls += " suit-" + last.bid; label = who(seat) + " chose " + SUIT[last.bid].name; }
        }
      } else if (d.declarer === seat && d.trump) {
        text = SUIT[d.trump].sym;
        cls += " trump-chip suit-" + d.trump;
        label = who(seat) + " chose " + SUIT[d.trump].name + " as trumps";
      }
      bubble.hidden = !text;
      bubble.textContent = text;
      bubble.className = cls;
      if (label) { bubble.setAttribute("title", label); bubble.setAttribute("aria-label", label); }
      else { bubble.removeAttribute("title"); bubble.removeAttribute("aria-label"); }
    });
  }

  function drawTrick(d) {
    var trickBox = $("trick");
    var cards = d.trick, winner = d.winner, note = d.note || "";
    trickBox.classList.toggle("reviewing", !!d.lastView);
    ["N", "E", "S", "W"].forEach(function (seat) {
      var slot = trickBox.querySelector(".slot-" + seat);
      clear(slot);
      var played = cards.filter(function (t) { return t.seat === seat; })[0];
      if (played) {
        var led = cards.length > 1 && cards[0].seat === seat;   // who led the trick
        var face = cardFace(played.card, "div", { role: "img", "aria-label": whoShort(seat) + ": " +
                                                  cardName(played.card) + (led ? " (led)" : "") });
        if (winner === seat) face.classList.add("win");
        if (led) face.appendChild(el("span", { class: "led-mark", "aria-hidden": "true", text: "led" }));
        slot.appendChild(face);
      }
    });
    $("trick-note").textContent = note;
    $("trick-note").hidden = !note;
  }

  function drawHand(d) {
    var handBox = $("hand");
    clear(handBox);
    var cards = sortHand(d.hand, d.trump);
    var myTurn = d.interactive && d.to_move === "S" && d.phase === "playing";
    var prevSuit = null;
    cards.forEach(function (card) {
      var legal = myTurn && d.legal.indexOf(card) >= 0;
      var btn = cardFace(card, "button", {
        type: "button",
        "aria-label": cardName(card) + (legal ? "" : ", not playable now"),
        "aria-disabled": legal ? "false" : "true"
      });
      btn.classList.add(legal ? "legal" : (myTurn ? "dimmed" : "waiting"));
      if (prevSuit && prevSuit !== suit(card)) btn.classList.add("gap");
      prevSuit = suit(card);
      if (busy) btn.disabled = true;
      btn.addEventListener("click", function () { onCard(card); });
      handBox.appendChild(btn);
    });
    handBox.setAttribute("aria-label", "Your cards (" + cards.length + ")");
  }

  function drawBidding(d) {
    var panel = $("bidpanel");
    var bidding = d.phase === "bidding";
    panel.hidden = !bidding;
    if (!bidding) return;
    var myTurn = d.interactive && d.to_move === "S";
    var buttons = panel.querySelectorAll(".bid");
    for (var i = 0; i < buttons.length; i++) {
      var b = buttons[i];
      var key = b.getAttribute("data-bid");
      var value = key === "pass" ? null : key;
      var allowed = myTurn && d.legal.some(function (x) { return x === value; });
      if (key === "pass") b.hidden = myTurn && !allowed;  // no Pass when South must name trumps
      b.disabled = busy || !allowed;
    }
    var so = $("bids-so-far");
    clear(so);
    if (!d.bidding.length) {
      so.appendChild(el("span", { text: whoShort(nextSeat(d.dealer)) + " bid" + (nextSeat(d.dealer) === "S" ? "" : "s") + " first." }));
    } else {
      so.appendChild(el("span", { class: "muted", text: "Bids: " }));
      d.bidding.forEach(function (b, i) {
        var text = whoShort(b.seat) + " ";
        if (b.bid === "pass" || b.bid === null) text += b.seat === "S" ? "pass" : "passes";
        else text += (b.seat === "S" ? "choose " : "chooses ") + suitLabel(b.bid) + (b.forced ? " (forced)" : "");
        so.appendChild(el("span", { class: "bid-item", text: text + (i < d.bidding.length - 1 ? ", " : "") }));
      });
    }
  }

  function drawStatus(d) {
    var text;
    var s = $("status");
    if (!game) { s.textContent = "Loading\u2026"; return; }
    if (d.phase === "bidding") {
      if (d.to_move === "S" && d.interactive) {
        var forced = d.legal.length && d.legal.indexOf(null) < 0;
        text = forced ? "Everybody passed: you must choose trumps." : "Your turn: choose trumps or pass.";
      } else text = whoShort(d.to_move) + " is bidding\u2026";
    } else if (d.phase === "playing") {
      if (d.to_move === "S" && d.interactive) {
        text = d.trick.length ? "Your turn: play a highlighted card." : "Your lead: play any card.";
      } else text = d.to_move ? whoShort(d.to_move) + " is playing\u2026" : "";
    } else if (d.phase === "hand_over" || d.phase === "game_over") {
      var rows = game.scores && game.scores.hands || [];
      var row = rows[rows.length - 1];
      var last = row ? "N/S " + row.scores.NS + ", E/W " + row.scores.EW + (row.nat ? " (nat)" : "") : "";
      if (d.phase === "hand_over") {
        text = "The hand is over" + (last ? ": " + last + "." : ".");
      } else {
        var final = game.scores ? game.scores.totals : { NS: 0, EW: 0 };
        text = "The game is over: N/S " + final.NS + ", E/W " + final.EW + " in all" +
          (last ? " (the last hand " + last + ")." : ".");
      }
    }
    if (trickMsg && d.interactive && d.phase === "playing") text = trickMsg + " " + text;
    s.textContent = text || "";
  }

  function drawInfo() {
    var g = game;
    $("info-hand").textContent = g ? "Hand " + g.hand_no + " of " + g.hands : "Hand \u2013 of 16";
    var trumpBox = $("info-trump");
    clear(trumpBox);
    if (g && g.trump) {
      var s = SUIT[g.trump];
      trumpBox.appendChild(document.createTextNode("Trumps "));
      trumpBox.appendChild(el("span", { class: "sym " + (s.red ? "red" : "black"), text: s.sym }));
      trumpBox.appendChild(document.createTextNode(" " + s.name + " \u00b7 chosen by " + whoShort(g.declarer)));
      trumpBox.appendChild(el("span", { class: "long", text: " (" + teamText(teamOf(g.declarer)) + " play)" }));
    } else {
      trumpBox.appendChild(document.createTextNode("Trumps: not chosen yet"));
    }
    var mode = $("info-mode");
    if (g) {
      var m = g.mode === "daily" ? "Daily " + (g.date || "") + (g.ranked ? "" : " (unranked)") : "New game";
      mode.textContent = m + " \u00b7 " + RULE_NAME[g.rules] + " \u00b7 " + g.level +
        " \u00b7 dealer " + whoShort(g.dealer);
    } else mode.textContent = "";
    var totals = g && g.scores ? g.scores.totals : { NS: 0, EW: 0 };
    $("info-totals").textContent = "N/S " + totals.NS + " \u2013 E/W " + totals.EW;
    $("btn-rules").textContent = "Rules: " + RULE_NAME[g ? g.rules : chosenRules()];
    $("btn-rules").title = "Switch to " + RULE_NAME[(g ? g.rules : chosenRules()) === "amsterdam" ? "rotterdam" : "amsterdam"] +
      " rules (starts a new game)";
  }

  function badge(kind) { return el("span", { class: "badge " + kind, text: kind }); }

  function drawSheet() {
    var body = $("sheet-body");
    clear(body);
    var rows = game && game.scores ? game.scores.hands : [];
    rows.forEach(function (h) {
      var tr = el("tr", { "data-hand": h.hand_no });
      tr.appendChild(el("th", { scope: "row", text: String(h.hand_no) }));
      var s = SUIT[h.trump];
      tr.appendChild(el("td", { class: "trump-cell" },
        el("span", { class: "sym " + (s.red ? "red" : "black"), "aria-label": s.name, text: s.sym }),
        " " + h.declarer));
      ["NS", "EW"].forEach(function (team) {
        var td = el("td", { "data-team": team });
        td.appendChild(el("span", { class: "score", text: String(h.scores[team]) }));
        var playing = teamOf(h.declarer) === team;
        if (h.nat && playing) td.appendChild(badge("nat"));
        if (h.pit === team) td.appendChild(badge("pit"));
        td.appendChild(el("span", { class: "detail", text: h.points[team] + " + " + h.roem[team] }));
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    if (!rows.length) {
      body.appendChild(el("tr", {}, el("td", { colspan: "4", class: "muted", text: "No hands played yet." })));
    }
    var totals = game && game.scores ? game.scores.totals : { NS: 0, EW: 0 };
    $("total-NS").textContent = String(totals.NS);
    $("total-EW").textContent = String(totals.EW);
    if (rows.length !== sheetRows) {  // a new hand on the sheet: show the newest row
      sheetRows = rows.length;
      var wrap = $("sheet").parentNode;
      wrap.scrollTop = wrap.scrollHeight;
    }
  }

  function drawReview() {
    var overlay = $("review");
    var g = game;
    var over = g && (g.phase === "hand_over" || g.phase === "game_over");
    overlay.hidden = !over || reviewHidden;
    $("btn-review").hidden = !over || !reviewHidden;
    // looking at the table after a hand: the next hand is one click away there too
    $("btn-table-next").hidden = !(g && g.phase === "hand_over" && reviewHidden);
    if (!over) return;
    var gameOver = g.phase === "game_over";
    var row = g.scores.hands[g.scores.hands.length - 1];
    $("review-title").textContent = gameOver ? "Game over" : "Hand " + g.hand_no + " of " + g.hands + " is over";
    var result = $("review-result");
    clear(result);
    if (row) {
      var playing = teamOf(row.declarer);
      var line = (gameOver ? "Hand " + row.hand_no + ": " : "") + whoShort(row.declarer) + " chose " + suitLabel(row.trump) + ". ";
      if (row.nat) line += teamText(playing) + " went nat: " + teamText(playing === "NS" ? "EW" : "NS") + " score everything. ";
      else line += teamText(playing) + " made it. ";
      if (row.pit) line += teamText(row.pit) + " took all eight tricks (pit). ";
      result.appendChild(el("p", { text: line }));
      var tbl = el("table", { class: "sheet mini" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "" }), el("th", { scope: "col", text: "Points" }),
                              el("th", { scope: "col", text: "Roem" }), el("th", { scope: "col", text: "Score" }))));
      var tb = el("tbody");
      ["NS", "EW"].forEach(function (team) {
        tb.appendChild(el("tr", { "data-team": team }, el("th", { scope: "row", text: teamText(team) + (team === "NS" ? " (you)" : "") }),
          el("td", { text: String(row.points[team]) }), el("td", { text: String(row.roem[team]) }),
          el("td", { class: "score", text: String(row.scores[team]) })));
      });
      tbl.appendChild(tb);
      result.appendChild(tbl);
      if (!gameOver) {
        var tt = g.scores.totals;
        result.appendChild(el("p", { class: "legend", text: "Game total after " + g.hand_no + " of " + g.hands +
          " hands: N/S " + tt.NS + " \u2013 E/W " + tt.EW + "." }));
      }
    }
    if (gameOver) {
      var t = g.scores.totals;
      var verdict = t.NS > t.EW ? "You and North win the game" : t.NS < t.EW ? "West and East win the game" : "The game is a draw";
      result.insertBefore(el("p", { class: "verdict", text: verdict + ": N/S " + t.NS + " \u2013 E/W " + t.EW + "." }), result.firstChild);
      if (g.mode === "daily") {
        result.insertBefore(el("p", { class: "legend", text: g.ranked ? "This daily game counts for today's rankings." :
          "You already finished today's daily game with these rules: this one is not ranked." }),
          result.firstChild.nextSibling);
      }
    }
    var body = $("review-body");
    clear(body);
    body.appendChild(reviewSection(g.review));
    $("btn-next").hidden = gameOver;
    $("btn-review-rankings").hidden = !gameOver;
    $("btn-review-new").hidden = !gameOver;
    $("btn-next").disabled = busy;
    $("btn-review-new").disabled = busy;
    $("btn-review-new").classList.toggle("primary", gameOver);
  }

  function reviewSection(rv) {
    var box = el("section", { class: "dd", "aria-label": "double-dummy analysis: every hand seen" });
    box.appendChild(el("h3", { text: "Double-dummy analysis: every hand seen" }));
    if (!rv) {
      box.appendChild(el("p", { class: "muted", text: "The analysis of this hand is not available." }));
      return box;
    }
    var team = rv.playing_team;
    box.appendChild(el("p", { class: "legend", text: "Hindsight with all cards face up, both teams playing perfectly: " +
      "a card that lost points was not always a mistake for a player who saw only their own hand. " +
      "Values are net: the score of the team that chose trumps minus the other team's." }));
    var vals = el("dl", { class: "dd-values" });
    vals.appendChild(el("dt", { text: "Double-dummy value of the hand (net)" }));
    vals.appendChild(el("dd", { "data-dd": "start", text: signed(rv.start_value) + " for " + teamText(team) }));
    vals.appendChild(el("dt", { text: "Net scored" }));
    vals.appendChild(el("dd", { text: signed(rv.final_net) + " for " + teamText(team) }));
    var losses = rv.losses && rv.losses.teams ? rv.losses.teams : { NS: 0, EW: 0 };
    vals.appendChild(el("dt", { text: "Points lost by each team" }));
    vals.appendChild(el("dd", { "data-dd": "losses", text: "N/S " + losses.NS + ", E/W " + losses.EW }));
    var par = rv.bidding && rv.bidding.par;
    if (par && par.declarer && par.trump && SUIT[par.trump]) {
      vals.appendChild(el("dt", { text: "Best bidding, every hand seen" }));
      vals.appendChild(el("dd", { text: whoShort(par.declarer) + " chooses " + suitLabel(par.trump) + ": " +
        signed(par.net) + " for " + teamText(teamOf(par.declarer)) }));
    }
    box.appendChild(vals);
    var lost = (rv.cards || []).filter(function (c) { return c.loss > 0; });
    if (!lost.length) {
      box.appendChild(el("p", { text: "Every card was a best card." }));
    } else {
      var list = el("ul", { class: "losses" });
      lost.forEach(function (c) {
        var li = el("li", { "data-team": c.team });
        li.appendChild(el("span", { class: "loss", text: "\u2212" + c.loss }));
        li.appendChild(document.createTextNode(" trick " + c.trick + ": " + whoShort(c.seat) + " played "));
        li.appendChild(miniCard(c.card));
        if (c.best_cards && c.best_cards.length) {
          li.appendChild(document.createTextNode("; best "));
          c.best_cards.forEach(function (b, i) {
            if (i) li.appendChild(document.createTextNode(" "));
            li.appendChild(miniCard(b));
          });
        }
        list.appendChild(li);
      });
      box.appendChild(el("h4", { text: "Cards that lost points" }));
      box.appendChild(list);
    }
    if (rv.deal) box.appendChild(dealView(rv.deal));
    return box;
  }

  function miniCard(card) {
    var s = SUIT[suit(card)];
    return el("span", { class: "mini-card " + (s.red ? "red" : "black"), title: cardName(card), text: cardShort(card) });
  }

  function dealView(pbn) {   // "N:S.H.D.C E... S... W..."
    var m = /^([NESW]):(.*)$/.exec(pbn.trim());
    var wrap = el("details", { class: "deal" }, el("summary", { text: "The whole deal" }));
    if (!m) return wrap;
    var first = SEATS.indexOf(m[1]);
    var hands = m[2].trim().split(/\s+/);
    var grid = el("div", { class: "deal-grid" });
    hands.forEach(function (h, i) {
      var seat = SEATS[(first + i) % 4];
      var box = el("div", { class: "deal-hand deal-" + seat }, el("strong", { text: who(seat) }));
      var parts = h.split(".");
      ["s", "h", "d", "c"].forEach(function (s, j) {
        var ranks = (parts[j] || "").split("").map(function (r) { return RANK_TEXT[r] || r; }).join(" ");
        box.appendChild(el("div", {}, el("span", { class: "sym " + (SUIT[s].red ? "red" : "black"), text: SUIT[s].sym }),
          " " + (ranks || "\u2013")));
      });
      grid.appendChild(box);
    });
    wrap.appendChild(grid);
    return wrap;
  }

  function drawTable(d) {
    var focused = document.activeElement;
    var inHand = !!(focused && focused.closest && focused.closest("#hand"));
    var focusCard = inHand ? focused.getAttribute("data-card") : null;
    var hadFocus = inHand || !!(focused && focused.closest && focused.closest("#bidpanel"));
    drawSeats(d);
    drawTrick(d);
    drawHand(d);
    drawBidding(d);
    drawStatus(d);
    if ((hadFocus || refocus) && d.interactive) {   // keyboard play: stay in the hand
      refocus = false;
      var handBox = $("hand");
      var target = (focusCard && handBox.querySelector('[data-card="' + focusCard + '"]')) ||
        handBox.querySelector(".card.legal");
      if (d.phase === "bidding" && d.to_move === "S") target = document.querySelector("#bidpanel .bid:not([disabled])");
      if (target && !target.disabled) target.focus();
    }
    var lastBtn = $("btn-last");
    lastBtn.disabled = busy || !(game && game.last_trick && game.last_trick.cards && game.last_trick.cards.length);
    // after the hand the table shows its last trick already
    lastBtn.hidden = d.phase === "bidding" || d.phase === "hand_over" || d.phase === "game_over";
    lastBtn.setAttribute("aria-pressed", showLast ? "true" : "false");
    lastBtn.textContent = showLast ? "Back to the trick" : "Last trick";
  }

  function render() {
    drawInfo();
    drawSheet();
    if (!game) {
      drawStatus({});
      return;
    }
    var d = view(game);
    d.interactive = !busy;
    if (showLast && game.last_trick && game.last_trick.cards) {
      var lt = game.last_trick;
      d.trick = lt.cards.filter(function (c) { return c && typeof c === "object"; });
      d.winner = lt.winner;
      d.lastView = true;
      d.note = "Last trick \u2014 " + trickText(lt);
    } else if ((game.phase === "hand_over" || game.phase === "game_over") && game.last_trick && game.last_trick.cards) {
      d.trick = game.last_trick.cards.filter(function (c) { return c && typeof c === "object"; });
      d.winner = game.last_trick.winner;
      d.note = "Last trick \u2014 " + trickText(game.last_trick);
    }
    drawTable(d);
    drawReview();
    updateInert();
    if (focusReview && !busy && !$("review").hidden) {
      focusReview = false;
      var first = $("btn-next").hidden ? $("btn-review-new") : $("btn-next");
      first.disabled = false;
      first.focus();
    }
    var ctl = document.querySelectorAll("button.ctl");
    for (var i = 0; i < ctl.length; i++) {
      if (ctl[i].getAttribute("data-busy")) { ctl[i].removeAttribute("data-busy"); ctl[i].disabled = false; }
    }
    $("btn-last").disabled = !(game.last_trick && game.last_trick.cards && game.last_trick.cards.length);
    document.body.setAttribute("data-phase", game.phase);
    document.body.setAttribute("data-seq", String(game.seq));
  }

  // -- what the controls do ----------------------------------------------------------
  function onCard(card) {
    if (busy || !game) return;
    if (game.phase === "bidding") { showMessage("First choose trumps or pass.", "info"); return; }
    if (game.phase !== "playing") { showMessage("The hand is over.", "info"); return; }
    if (game.to_move !== "S") { showMessage("Wait: it is " + whoShort(game.to_move) + "'s turn.", "info"); return; }
    if (showLast) { showLast = false; render(); }
    var trick = (game.trick || []).map(function (t) { return t.card; });
    var reason = illegalReason(card, game.hand, trick, game.trump, game.rules, game.legal || []);
    if (reason) {
      showMessage(cardName(card) + ": " + reason.charAt(0).toLowerCase() + reason.slice(1), "info");
      return;
    }
    play(card);
  }

  function inProgress() {
    return game && game.phase !== "game_over" && (game.hand_no > 1 || game.phase !== "bidding");
  }

  function confirmThen(text, yesText, action) {
    if (!inProgress()) { action(); return; }
    pendingConfirm = action;
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yesText;
    $("confirm").hidden = false;
    $("confirm-yes").focus();
  }

  function closeConfirm() {
    pendingConfirm = null;
    $("confirm").hidden = true;
  }

  function updateInert() {   // an open panel keeps the keyboard inside it
    var review = !$("review").hidden, ranks = !$("rankings").hidden;
    document.querySelector(".topbar").inert = review || ranks;
    document.querySelector("main.layout").inert = review || ranks;
    $("review").inert = ranks;
  }

  function closeRankings() {
    $("rankings").hidden = true;
    updateInert();
    var back = rankingsOpener && !rankingsOpener.hidden ? rankingsOpener : $("btn-rankings");
    rankingsOpener = null;
    if (back) back.focus();
  }

  function otherRules(r) { return r === "amsterdam" ? "rotterdam" : "amsterdam"; }

  function openRankings() {
    var overlay = $("rankings");
    rankingsOpener = document.activeElement;
    overlay.hidden = false;
    updateInert();
    var today = new Date().toISOString().slice(0, 10);
    $("rank-date").value = (game && game.mode === "daily" && game.date) || (game && game.date) || today;
    $("rank-rules").value = game ? game.rules : chosenRules();
    loadRankings();
    $("rank-date").focus();
  }

  function loadRankings() {
    var body = $("rank-body");
    var note = $("rank-note");
    var date = $("rank-date").value;
    var rules = $("rank-rules").value;
    clear(body);
    note.textContent = "Loading\u2026";
    var q = "?rules=" + encodeURIComponent(rules) + (date ? "&date=" + encodeURIComponent(date) : "");
    api("GET", "/api/rankings" + q).then(function (data) {
      clear(body);
      var entries = data.entries || [];
      entries.forEach(function (e) {
        body.appendChild(el("tr", {}, el("td", { text: String(e.rank) }),
          el("td", { class: "nick", text: e.nickname ? String(e.nickname) : "anonymous" }),
          el("td", { text: String(e.score) }), el("td", { text: formatTime(e.finished_at) })));
      });
      note.textContent = entries.length ? "Daily games of " + (data.date || date) + ", " + RULE_NAME[data.rules || rules] +
        " rules: N/S score, first finished game of each player." : "No finished daily games for this day and rule set yet.";
    }, function (err) {
      note.textContent = "";
      showMessage(err.message || String(err));
    });
  }

  function formatTime(t) {
    if (t === null || t === undefined || t === "") return "";
    var d = typeof t === "number" ? new Date(t * 1000) : new Date(String(t));
    if (isNaN(d.getTime())) return String(t);
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function wire() {
    $("btn-daily").addEventListener("click", function () {
      confirmThen("Leave this game and start today's daily game?", "Yes, start", function () { startGame("daily"); });
    });
    $("btn-new").addEventListener("click", function () {
      confirmThen("Leave this game and start a new one?", "Yes, start", function () { startGame("new"); });
    });
    $("btn-rules").addEventListener("click", function () {
      var to = otherRules(game ? game.rules : chosenRules());
      confirmThen("Switch to " + RULE_NAME[to] + " rules? This starts a new game.", "Yes, switch", function () {
        store(KEY.rules, to);
        startGame(game && game.mode === "daily" ? "daily" : "new", to);
      });
    });
    $("confirm-yes").addEventListener("click", function () {
      var action = pendingConfirm;
      closeConfirm();
      if (action) action();
    });
    $("confirm-no").addEventListener("click", closeConfirm);
    var level = $("sel-level");
    level.value = chosenLevel();
    level.addEventListener("change", function () {
      store(KEY.level, level.value);
      if (game && game.level !== level.value) {
        showMessage("The computer players will be " + level.value + " from the next game you start.", "info");
      }
    });
    var nick = $("nickname");
    nick.value = nickname();
    nick.addEventListener("change", function () {
      var v = nick.value.trim().slice(0, 24);
      nick.value = v;
      store(KEY.nickname, v || null);
    });
    var buttons = document.querySelectorAll("#bidpanel .bid");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].addEventListener("click", function (ev) {
        var key = ev.currentTarget.getAttribute("data-bid");
        if (!busy) bid(key === "pass" ? null : key);
      });
    }
    $("btn-last").addEventListener("click", function () { showLast = !showLast; render(); });
    $("btn-next").addEventListener("click", nextHand);
    $("btn-table-next").addEventListener("click", nextHand);
    $("btn-review-hide").addEventListener("click", function () { reviewHidden = true; render(); $("btn-review").focus(); });
    $("btn-review").addEventListener("click", function () { reviewHidden = false; render(); $("btn-next").focus(); });
    $("btn-review-new").addEventListener("click", function () { startGame("new"); });
    $("btn-review-rankings").addEventListener("click", openRankings);
    $("btn-rankings").addEventListener("click", openRankings);
    $("rank-load").addEventListener("click", loadRankings);
    $("rank-close").addEventListener("click", closeRankings);
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") {
        if (!$("rankings").hidden) closeRankings();
        else if (!$("confirm").hidden) closeConfirm();
      }
    });
    $("tip").textContent = TIPS[Math.floor(Math.random() * TIPS.length)];
  }

  async function boot() {
    wire();
    render();
    var id = load(KEY.game);
    if (id) {
      setBusy(true);
      try {
        game = await api("GET", "/api/games/" + encodeURIComponent(id));
        if (game.token && TOKEN_RE.test(game.token)) store(KEY.token, game.token);
        if (game.phase === "game_over") reviewHidden = false;
        setBusy(false);
        return;
      } catch (err) {
        setBusy(false);
        if (err.status !== 404 && err.status !== 400 && err.status !== 403) {
          showMessage(err.message + " (the game could not be loaded)");
          $("status").textContent = "Reload the page to try again.";
          return;
        }
        store(KEY.game, null);
      }
    }
    await startGame("daily");
  }

  window.klaverjas = {
    state: function () { return game; },
    busy: function () { return busy; },
    illegalReason: illegalReason
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
