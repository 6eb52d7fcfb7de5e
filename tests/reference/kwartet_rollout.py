"""Slow reference of the compiled Kwartet rollouts (``_core.kw_rollouts``), the
lookahead of :class:`quartet_solver.kwartet.PlanningBot`.

From one position (seat ``me`` to move) and a list of fully known deals, the
compiled kernel plays each candidate first ask and then the rest of the game with
one policy for every seat, and reports ``me``'s win share and quartets.  This
module plays the same games move by move on plain Python sets and lists, written
from the rules (``docs/rules/kwartet.md``, base rules: a side pile or the
dealer's remainder, optionally the bonus turn) and from the policy as the kernel's
file comment states it:

* every seat sees its own hand and the public record (who received each card,
  which seats are known not to hold it, which quartets each seat has asked for);
* a card's chance at seat ``t``: 1 if it was traced to ``t``, 0 if traced to
  another seat or ``t`` is known not to hold it, else ``t``'s share of the cards
  of the places that may hold it (the other seats with cards that are not known
  not to hold it, and the side pile), its odds multiplied by the collector odds
  when ``t`` has asked for the quartet;
* the highest chance wins, then the quartet the asker holds most of, then a
  random tie-break: asks are visited card by card (ascending), target by target
  (ascending), and the ``k``-th equal ask replaces the choice when the next draw
  of the stream is divisible by ``k`` (reservoir sampling).

In memory Kwartet (``memory``) the pile is the middle: the seat to move may turn
up a middle card and take it instead of asking (the turn then passes), and must
when it has no cards; a policy does so when it has no ask or its best ask rates
below 0.3 (a chance, or MemoryBot's score), as MemoryBot and InferenceBot do.  The
card turned up is the ``k``-th lowest of the middle, ``k`` the stream's next draw
modulo the middle's size (after the draws of the policy's tie-breaks).

A seat may instead play as :class:`~quartet_solver.kwartet.MemoryBot` does
(``model[p] == 1``; :class:`~quartet_solver.kwartet.PlanningBot` with
``opponents="memory"``): a card scores 1 when traced at the target, 0 when traced
elsewhere or denied by the target, else 0.5, plus 0.25 when the target asked for
its quartet; the best score wins, then the quartet the asker holds most of, then
one the asker has asked for itself, then a random tie-break among the equal asks,
visited target by target (ascending), card by card (ascending).

Random numbers come from a splitmix64 stream, a fresh one per (deal, candidate),
seeded ``seed ^ ((i + 1) * 0x9E3779B97F4A7C15 mod 2**64)`` for deal ``i``: the
same draws as the kernel's, so the results compare exactly (the chances are
computed with the same floating-point operations in the same order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .kwartet_novice import MASK64, SplitMix64

GOLDEN = 0x9E3779B97F4A7C15
UNKNOWN = -1  # holder: nobody is publicly known to hold the card
LAID = -2  # holder: the card's quartet is laid
REVEAL_BELOW = 0.3  # a policy turns up a middle card when its best ask rates below this


def deal_stream(seed: int, i: int) -> SplitMix64:
    """The random stream of deal ``i`` (one fresh copy per candidate)."""
    return SplitMix64(seed ^ (((i + 1) * GOLDEN) & MASK64))


def cards_of(q: int) -> range:
    """The four cards of quartet ``q``."""
    return range(4 * q, 4 * q + 4)


def card_set(mask: int) -> set[int]:
    """The cards of a bitmask."""
    return {c for c in range(mask.bit_length()) if mask >> c & 1}


def seat_set(mask: int) -> set[int]:
    """The seats of a bitmask of seats."""
    return card_set(mask)


def win_shares(quartets: list[int], last_lay: list[int]) -> list[Fraction]:
    """Each seat's share of the win: most quartets wins, a tie goes to the tied
    player who completed their last quartet earlier, players still tied (also when
    nobody has a quartet) share the win."""
    players = range(len(quartets))
    best = max(quartets)
    winners = [p for p in players if quartets[p] == best]
    if best > 0:
        earliest = min(last_lay[p] for p in winners)
        winners = [p for p in winners if last_lay[p] == earliest]
    return [Fraction(1, len(winners)) if p in winners else Fraction(0) for p in players]


@dataclass
class Table:
    """One rollout's game: the cards, the lays, the turn and the public record."""

    n_quartets: int
    hands: list[set[int]]
    pile: set[int]
    quartets: list[int]  # quartets laid by each seat
    last_lay: list[int]  # number of each seat's last lay (-1: none yet)
    lay_count: int  # lays so far
    holder: list[int]  # per card: the seat it was publicly traced to, UNKNOWN or LAID
    not_at: list[set[int]]  # per card: seats publicly known not to hold it
    asked_for: list[set[int]]  # per seat: quartets it has asked for (not yet laid)
    turn: int
    free_misses: int
    bonus: bool
    middle: bool = False  # memory Kwartet: the pile is the middle, its cards may be turned up
    over: bool = False
    log: list[tuple[int, int, int, bool]] = field(default_factory=list)  # (asker, target, card, hit)

    @property
    def players(self) -> int:
        return len(self.hands)

    def can_ask(self, p: int) -> bool:
        """Seat ``p`` can ask: it holds cards and another seat does too."""
        return bool(self.hands[p]) and any(self.hands[t] for t in range(self.players) if t != p)

    def can_act(self, p: int) -> bool:
        """Seat ``p`` can act: it can ask, or turn up a middle card."""
        return (self.middle and bool(self.pile)) or self.can_ask(p)

    def completable(self) -> list[int]:
        """The quartets that can still be completed: not laid, all four cards in
        hands (or, in memory Kwartet, in the middle)."""
        reachable = set().union(*self.hands) | (self.pile if self.middle else set())
        return [q for q in range(self.n_quartets) if all(c in reachable for c in cards_of(q))]

    def pass_turn(self) -> None:
        """The turn goes to the next seat clockwise that can act; the game is over
        when none can."""
        self.free_misses = 0
        for step in range(1, self.players + 1):
            seat = (self.turn + step) % self.players
            if self.can_act(seat):
                self.turn = seat
                return
        self.over = True

    def ask(self, target: int, card: int) -> bool:
        """The seat to move asks ``target`` for ``card``; returns whether it hit."""
        p = self.turn
        q = card // 4
        assert not self.over and target != p and self.hands[target], (p, target, card)
        assert card not in self.hands[p] and any(c in self.hands[p] for c in cards_of(q)), (p, card)
        hit = card in self.hands[target]
        self.log.append((p, target, card, hit))
        self.asked_for[p].add(q)
        if not hit:
            self.not_at[card] |= {target, p}
            if self.free_misses > 0:
                self.free_misses -= 1
            else:
                self.pass_turn()
            return False
        self.hands[target].remove(card)
        self.take(card)
        if not self.completable():
            self.over = True
        elif not self.hands[p] or not self.can_act(p):
            self.pass_turn()
        return True

    def take(self, card: int) -> None:
        """The seat to move takes ``card`` in sight of all, laying the quartet it
        completes."""
        p = self.turn
        q = card // 4
        self.hands[p].add(card)
        self.holder[card] = p
        self.not_at[card] = set()
        if all(c in self.hands[p] for c in cards_of(q)):
            self.hands[p] -= set(cards_of(q))
            self.quartets[p] += 1
            self.last_lay[p] = self.lay_count
            self.lay_count += 1
            for c in cards_of(q):
                self.holder[c] = LAID
            for asked in self.asked_for:
                asked.discard(q)
            if self.bonus:
                self.free_misses += 1

    def reveal(self, rng: SplitMix64) -> int:
        """Memory Kwartet: the seat to move turns up a middle card (the ``k``-th
        lowest, ``k`` the stream's next draw modulo the middle's size) and takes it;
        the turn passes.  Returns the card."""
        assert not self.over and self.middle and self.pile, (self.turn, self.pile)
        card = sorted(self.pile)[rng.next() % len(self.pile)]
        self.pile.remove(card)
        self.log.append((self.turn, -1, card, True))
        self.take(card)
        if not self.completable():
            self.over = True
        else:
            self.pass_turn()
        return card


def hit_chance(table: Table, p: int, t: int, card: int, odds: float) -> float:
    """The policy's chance, seen from seat ``p``, that seat ``t`` holds ``card``."""
    h = table.holder[card]
    if h == t:
        return 1.0
    if h >= 0 or t in table.not_at[card]:
        return 0.0
    places = sum(len(table.hands[s]) for s in range(table.players)
                 if s != p and table.hands[s] and s not in table.not_at[card])
    places += len(table.pile)
    if places == 0:
        return 0.0
    chance = len(table.hands[t]) / places
    if card // 4 in table.asked_for[t] and chance < 1.0:
        chance = chance * odds / (chance * odds + 1.0 - chance)
    return chance


def asks_open(table: Table) -> tuple[list[int], list[int]]:
    """What the seat to move may ask: the cards of the quartets it holds, not its own
    (ascending), and the other seats with cards (ascending)."""
    p = table.turn
    hand = table.hands[p]
    askable = [c for c in range(4 * table.n_quartets)
               if c not in hand and any(d in hand for d in cards_of(c // 4))]
    return askable, [t for t in range(table.players) if t != p and table.hands[t]]


def policy_ask(table: Table, odds: float, rng: SplitMix64) -> tuple[int, int] | None:
    """The policy's ask ``(target, card)`` for the seat to move (None: no ask)."""
    return policy_choice(table, odds, rng)[0]


def policy_choice(table: Table, odds: float, rng: SplitMix64) -> tuple[tuple[int, int] | None, float]:
    """The policy's ask for the seat to move and its chance (None and -1: no ask)."""
    p = table.turn
    hand = table.hands[p]
    askable, targets = asks_open(table)
    choice = None
    best_chance, best_held, ties = -1.0, -1, 0
    for card in askable:
        held = sum(1 for d in cards_of(card // 4) if d in hand)
        for t in targets:
            chance = hit_chance(table, p, t, card, odds)
            if chance > best_chance or (chance == best_chance and held > best_held):
                choice, best_chance, best_held, ties = (t, card), chance, held, 1
            elif chance == best_chance and held == best_held:
                ties += 1
                if rng.next() % ties == 0:
                    choice = (t, card)
    return choice, best_chance


def memory_score(table: Table, t: int, card: int) -> float:
    """MemoryBot's score of asking seat ``t`` for ``card``."""
    h = table.holder[card]
    if h == t:
        return 1.0
    if h >= 0 or t in table.not_at[card]:
        return 0.0
    return 0.75 if card // 4 in table.asked_for[t] else 0.5


def memory_policy_ask(table: Table, rng: SplitMix64) -> tuple[int, int] | None:
    """MemoryBot's ask ``(target, card)`` for the seat to move (None: no ask)."""
    return memory_policy_choice(table, rng)[0]


def memory_policy_choice(table: Table, rng: SplitMix64) -> tuple[tuple[int, int] | None, float]:
    """MemoryBot's ask for the seat to move and its score (None and -1: no ask)."""
    p = table.turn
    hand = table.hands[p]
    askable, targets = asks_open(table)
    choice = None
    best_key: tuple[float, int, int] | None = None
    ties = 0
    for t in targets:
        for card in askable:
            held = sum(1 for d in cards_of(card // 4) if d in hand)
            own = 1 if card // 4 in table.asked_for[p] else 0
            key = (memory_score(table, t, card), held, own)
            if best_key is None or key > best_key:
                choice, best_key, ties = (t, card), key, 1
            elif key == best_key:
                ties += 1
                if rng.next() % ties == 0:
                    choice = (t, card)
    return choice, (-1.0 if best_key is None else best_key[0])


def novice_policy_choice(table: Table, rng: SplitMix64) -> tuple[tuple[int, int] | None, bool]:
    """NoviceBot's action for the seat to move: (the ask, False), (None, True) to
    turn up a middle card, or (None, False) when it has no ask.  With an ask open
    and a middle holding cards it turns one up when the stream's next draw is
    divisible by 5; else the next draw modulo the number of other seats holding
    cards picks the target (in seat order), the next modulo the number of askable
    cards the card (ascending)."""
    askable, targets = asks_open(table)
    if not askable or not targets:
        return None, False
    if table.middle and table.pile and rng.next() % 5 == 0:
        return None, True
    target = targets[rng.next() % len(targets)]
    return (target, askable[rng.next() % len(askable)]), False


def act(table: Table, model: int, odds: float, rng: SplitMix64) -> bool:
    """The seat to move plays its policy (``model`` 1: MemoryBot's, 2: NoviceBot's,
    else the shared one): its ask, or in memory Kwartet a middle card turned up when
    it has no ask or its best ask rates below :data:`REVEAL_BELOW` (NoviceBot: see
    :func:`novice_policy_choice`).  False when it cannot act."""
    if model == 2:
        choice, turns_up = novice_policy_choice(table, rng)
    else:
        choice, rating = memory_policy_choice(table, rng) if model == 1 else policy_choice(table, odds, rng)
        turns_up = rating < REVEAL_BELOW
    if table.middle and table.pile and (choice is None or turns_up):
        table.reveal(rng)
        return True
    if choice is None:
        return False
    table.ask(*choice)
    return True


def play_out(nq: int, players: int, me: int, deal: list[int], quartets0: list[int], last0: list[int],
             lay_count0: int, holder0: list[int], notat0: list[int], hasq0: list[int], first: tuple[int, int],
             bonus: bool, free0: int, odds: float, rng: SplitMix64, max_asks: int,
             model: list[int] | None = None, then: tuple[tuple[int, int], ...] = (),
             memory: bool = False) -> Table:
    """One rollout: seat ``me`` asks ``first`` (target, card) on ``deal`` (the hand
    masks by seat, then the pile; in memory Kwartet a target of -1 turns up a
    middle card instead), then the asks ``then`` (each by the seat to move), then
    every seat plays its policy (``model[p]``: 0 or no model the shared policy, 1
    MemoryBot's, 2 NoviceBot's) until the game is over or ``max_asks`` actions (the forced ones
    not counted but the first) are made; the final table."""
    table = Table(
        n_quartets=nq,
        hands=[card_set(deal[p]) for p in range(players)],
        pile=card_set(deal[players]),
        quartets=list(quartets0[:players]),
        last_lay=list(last0[:players]),
        lay_count=lay_count0,
        holder=list(holder0[:4 * nq]),
        not_at=[seat_set(m) for m in notat0[:4 * nq]],
        asked_for=[card_set(m) for m in hasq0[:players]],
        turn=me,
        free_misses=free0,
        bonus=bool(bonus),
        middle=bool(memory),
    )
    if first[0] == -1:
        table.reveal(rng)
    else:
        table.ask(*first)
    for ask in then:
        table.ask(*ask)
    asks = 1
    while not table.over and asks < max_asks:
        if not act(table, 0 if model is None else model[table.turn], odds, rng):
            break
        asks += 1
    return table


def rollouts(nq: int, players: int, me: int, deals: list[list[int]], quartets0: list[int], last0: list[int],
             lay_count0: int, holder0: list[int], notat0: list[int], hasq0: list[int], cand_t: list[int],
             cand_c: list[int], bonus: bool, free0: int, odds: float, seed: int, max_asks: int,
             model: list[int] | None = None, memory: bool = False) -> tuple[list[list[float]], list[list[int]]]:
    """``kw_rollouts`` with the same arguments as lists (``model`` and ``memory``
    optional, as there): (share[k][i], quartets[k][i]) of seat ``me`` after
    candidate ``k`` on deal ``i``."""
    share = [[0.0] * len(deals) for _ in cand_t]
    quartets = [[0] * len(deals) for _ in cand_t]
    for i, deal in enumerate(deals):
        for k, first in enumerate(zip(cand_t, cand_c)):
            table = play_out(nq, players, me, deal, quartets0, last0, lay_count0, holder0, notat0, hasq0,
                             first, bonus, free0, odds, deal_stream(seed, i), max_asks, model,
                             memory=memory)
            share[k][i] = float(win_shares(table.quartets, table.last_lay)[me])
            quartets[k][i] = table.quartets[me]
    return share, quartets


# -- the likelihood of the opponents' asks under MemoryBot's policy ----------------------
#
# Reference of ``_core.kw_ask_likelihood`` (the deal weights of
# ``PlanningBot(opponents="memory")``).  Deliberately built on the real engine and
# the real bot, not on the tables above: the hands dealt are found by undoing the
# events on plain sets, the game is dealt again from them with ``Game(hands=...)``
# (which lays dealt quartets at once, as the real deal did), the events are
# replayed on it with ``Game.ask`` (which must reproduce every hit and lay, in
# order), and at each ask of a seat other than ``me`` a real ``MemoryBot`` in the
# asker's seat, started on that game and reading its log as it does in play,
# rates the asks it could make.

import math  # noqa: E402

from quartet_solver.kwartet import Deck, Game, MemoryBot, Rules  # noqa: E402
from quartet_solver.kwartet.game import Asked, Laid, Revealed  # noqa: E402

ASK = 0  # event kind: (ASK, asker, target, 2 * card + hit)
LAY = 1  # event kind: (LAY, player, quartet, 0)
REVEAL = 2  # event kind, memory Kwartet: (REVEAL, player, card, 0)


def event_tuples(log: tuple) -> list[tuple[int, int, int, int]]:
    """A game's public log as likelihood events (the Dealt event dropped)."""
    out = []
    for e in log:
        if isinstance(e, Asked):
            out.append((ASK, e.asker, e.target, 2 * e.card + int(e.hit)))
        elif isinstance(e, Laid):
            out.append((LAY, e.player, e.quartet, 0))
        elif isinstance(e, Revealed):
            out.append((REVEAL, e.player, e.card, 0))
    return out


def dealt_hands(current_hands: list[int], events: list[tuple[int, int, int, int]]) -> list[set[int]]:
    """The hands as dealt: the current hands with the events undone, last first
    (a lay gives the quartet back to its layer, a hit gives the card back to the
    seat that was asked, a card turned up goes back to the middle; misses change
    no hand)."""
    hands = [card_set(int(m)) for m in current_hands]
    for kind, p, x, y in reversed(events):
        if kind == REVEAL:
            assert x in hands[p], ("the player does not hold the card it turned up", p, x)
            hands[p].remove(x)
        elif kind == LAY:
            quartet = set(cards_of(x))
            assert not quartet & set().union(*hands), ("laid cards still in a hand", p, x)
            hands[p] |= quartet
        elif y % 2 == 1:  # a hit: ``p`` received card y // 2 from seat ``x``
            card = y // 2
            assert card in hands[p], ("the asker does not hold the card it received", p, card)
            hands[p].remove(card)
            hands[x].add(card)
    return hands


def memory_best_asks(bot: MemoryBot) -> tuple[dict[tuple[int, int], tuple[float, int, int]], set[tuple[int, int]]]:
    """Every ask (target, card) the MemoryBot could make now with its rating (the key
    of ``MemoryBot._pick`` without the random tie-break: score, cards of the quartet
    held, whether the bot asked for the quartet itself), and the asks rated best."""
    v = bot.view
    assert v is not None
    bot._update()
    hand = v.hand
    keys = {}
    for score, t, c in bot._scores():
        q = c // 4
        keys[(t, c)] = (round(score, 9), (hand >> (4 * q) & 15).bit_count(), bot._public_q >> q & 1)
    best = max(keys.values()) if keys else None
    return keys, {a for a, k in keys.items() if k == best}


def public_best_asks(game: Game, bot: MemoryBot, odds: float) -> set[tuple[int, int]]:
    """The asks (target, card) the shared rollout policy rates best for the seat to
    move of ``game`` (its chance, then the cards of the quartet held), with the
    public record kept by ``bot`` (any seat's MemoryBot: the record is public)."""
    return public_best_rated(game, bot, odds)[0]


def public_best_rated(game: Game, bot: MemoryBot, odds: float) -> tuple[set[tuple[int, int]], float]:
    """:func:`public_best_asks` and their chance (-1 when there is no ask)."""
    bot._update()
    n = game.players
    table = Table(
        n_quartets=game.deck.n_quartets,
        hands=[card_set(game.hand(p)) for p in range(n)],
        pile=card_set(game.pile),
        quartets=[0] * n, last_lay=[-1] * n, lay_count=0,
        holder=[h if h >= 0 else (LAID if h == -2 else UNKNOWN) for h in bot._holder],
        not_at=[seat_set(m) for m in bot._notat],
        asked_for=[card_set(m) for m in bot._hasq],
        turn=game.to_move, free_misses=0, bonus=False,
    )
    p = game.to_move
    hand = table.hands[p]
    keys = {}
    for t, card in game.legal_asks(p):
        held = sum(1 for d in cards_of(card // 4) if d in hand)
        keys[(t, card)] = (hit_chance(table, p, t, card, odds), held)
    best = max(keys.values()) if keys else None
    return {a for a, k in keys.items() if k == best}, (-1.0 if best is None else best[0])


def memory_ask_terms(deck: Deck, players: int, me: int, current_hands: list[int], pile: int,
                     events: list[tuple[int, int, int, int]], *, rules: Rules | None = None,
                     dealer: int | None = None, model: list[int] | None = None,
                     odds: float = 12.0) -> list[tuple[int, bool, int]]:
    """For each ask of a seat other than ``me`` in ``events``: (event index, whether
    the ask is among MemoryBot's best asks at that moment, how many asks are).

    ``current_hands`` (masks, one per seat) and ``pile`` (mask) are the deal now;
    ``rules`` and ``dealer`` those of the game (default: the standard rules, the
    last seat deals), needed only to deal and replay it on the engine.

    In memory Kwartet a middle card turned up by a seat other than ``me`` is a
    term too, (index, whether the bot would turn one up then, 1): it does when it
    has no ask or its best ask rates below :data:`REVEAL_BELOW`; and an ask fits
    only where the best asks rate at least that while the middle holds cards."""
    events = [tuple(int(x) for x in e) for e in events]
    hands = dealt_hands(current_hands, events)
    middle = card_set(int(pile)) | {x for kind, _, x, _ in events if kind == REVEAL}
    game = Game(deck, players=players, rules=rules, dealer=dealer,
                hands=[sorted(h) for h in hands], pile=sorted(middle))
    assert not game.rules.draw_pile, "no draw pile"
    bots = {}
    for seat in range(players):
        if seat != me:
            bots[seat] = MemoryBot(seed=seat)
            bots[seat].start(game, seat)
    terms = []
    for j, (kind, p, x, y) in enumerate(events):
        if kind == LAY:
            # laid by the engine itself: at the deal or right after the hit that completed it
            assert event_tuples(game.log)[j] == (LAY, p, x, 0), (j, game.log)
            continue
        assert kind in (ASK, REVEAL), (j, kind)
        # every earlier event was reproduced, nothing more
        assert event_tuples(game.log) == events[:j], (j, game.log)
        assert not game.is_over and game.to_move == p, (j, game.to_move, p)
        rating = None
        if p != me:
            if model is None or model[p] == 1:
                keys, best = memory_best_asks(bots[p])
                rating = max(keys.values())[0] if keys else -1.0
            else:
                best, rating = public_best_rated(game, bots[p], odds)
        turns_up = game.can_reveal() and rating is not None and rating < REVEAL_BELOW
        if kind == REVEAL:
            if p != me:
                terms.append((j, turns_up, 1))
            game.reveal(game._pile.index(x))
            continue
        target, card, hit = x, y // 2, y % 2
        if p != me:
            terms.append((j, (target, card) in best and not turns_up, len(best)))
        assert game.ask(target, card).hit == bool(hit), (j, "the deal does not reproduce the hit/miss")
    assert event_tuples(game.log) == events, game.log
    return terms


def memory_log_likelihood(deck: Deck, players: int, me: int, current_hands: list[int], pile: int,
                          events: list[tuple[int, int, int, int]], eps: float, *, rules: Rules | None = None,
                          dealer: int | None = None) -> float:
    """``kw_ask_likelihood`` for one deal: the sum, over the asks of the seats
    other than ``me``, of log(1 / ties) when the ask is one of the ``ties`` asks a
    MemoryBot in the asker's seat rates best, else log(eps) (see
    :func:`memory_ask_terms` for the arguments)."""
    if not 0.0 < eps <= 1.0:
        raise ValueError(f"eps must be in (0, 1], got {eps!r}")
    total = 0.0
    for _, among_best, ties in memory_ask_terms(deck, players, me, current_hands, pile, events, rules=rules,
                                                dealer=dealer):
        total += math.log(1.0 / ties) if among_best else math.log(eps)
    return total


def novice_ask_terms(deck: Deck, players: int, me: int, current_hands: list[int], pile: int,
                     events: list[tuple[int, int, int, int]], *, rules: Rules | None = None,
                     dealer: int | None = None) -> list[tuple[int, Fraction | None]]:
    """For each action of a seat other than ``me`` in ``events``: (event index, the
    probability NoviceBot gives it then, None for an action it could not take), the
    game dealt and replayed on the engine as in :func:`memory_ask_terms`.

    NoviceBot picks every legal ask alike (the engine's ``legal_asks``), and in memory
    Kwartet, while it may turn up a middle card, does so one time in five (always
    when it has no ask)."""
    events = [tuple(int(x) for x in e) for e in events]
    hands = dealt_hands(current_hands, events)
    middle = card_set(int(pile)) | {x for kind, _, x, _ in events if kind == REVEAL}
    game = Game(deck, players=players, rules=rules, dealer=dealer,
                hands=[sorted(h) for h in hands], pile=sorted(middle))
    terms: list[tuple[int, Fraction | None]] = []
    for j, (kind, p, x, y) in enumerate(events):
        if kind == LAY:
            continue
        assert not game.is_over and game.to_move == p, (j, game.to_move, p)
        legal = game.legal_asks(p)
        if kind == REVEAL:
            if p != me:
                terms.append((j, Fraction(1, 5) if legal else Fraction(1)))
            game.reveal(game._pile.index(x))
            continue
        target, card, hit = x, y // 2, y % 2
        if p != me:
            rest = Fraction(4, 5) if game.can_reveal() else Fraction(1)
            terms.append((j, rest / len(legal) if (target, card) in legal else None))
        assert game.ask(target, card).hit == bool(hit), (j, "the deal does not reproduce the hit/miss")
    assert event_tuples(game.log) == events, game.log
    return terms
