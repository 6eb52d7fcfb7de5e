"""Brute-force reference for Kwartet inference: enumerate every deal consistent
with the observer's hand, replay the public log on it, keep the deals that
reproduce the log exactly, and count where each card is now.

Obviously correct and slow; only for tiny decks.
"""

from __future__ import annotations

from fractions import Fraction

from quartet_solver.kwartet.game import Asked, Dealt, Drew, Laid, Revealed


def _complete(hand: int, nq: int) -> set[int]:
    return {q for q in range(nq) if hand >> (4 * q) & 0xF == 0xF}


def replay_ok(hands: list[int], pile: int, log, nq: int, draws: list[int] | None = None
              ) -> tuple[list[int], int] | None:
    """Replay ``log`` (after its Dealt event) on a deal; the final hands/pile or None.
    In a draw-pile game ``draws`` are the cards the pile yields, in order (``pile``,
    the rest, is never drawn)."""
    hands = list(hands)
    events = list(log[1:])
    nxt = 0
    i = 0
    # immediate lays after the deal
    initial_lays = set()
    while i < len(events) and isinstance(events[i], Laid):
        initial_lays.add((events[i].player, events[i].quartet))
        i += 1
    expect = {(p, q) for p in range(len(hands)) for q in _complete(hands[p], nq)}
    if expect != initial_lays:
        return None
    for p, q in initial_lays:
        hands[p] &= ~(0xF << (4 * q))
    while i < len(events):
        e = events[i]
        i += 1
        if isinstance(e, Asked):
            q = e.card // 4
            a, t = e.asker, e.target
            if not hands[a] >> (4 * q) & 0xF or hands[a] >> e.card & 1:
                return None
            has = bool(hands[t] >> e.card & 1)
            if has != e.hit:
                return None
            if not has:
                continue
            hands[t] &= ~(1 << e.card)
            hands[a] |= 1 << e.card
            receiver = a
        elif isinstance(e, Revealed):
            if not pile >> e.card & 1:
                return None
            pile &= ~(1 << e.card)
            hands[e.player] |= 1 << e.card
            q = e.card // 4
            receiver = e.player
        elif isinstance(e, Drew) and draws is not None:
            got = draws[nxt]
            nxt += 1
            if e.card is not None and e.card != got:
                return None
            hands[e.player] |= 1 << got
            q = got // 4
            receiver = e.player
        elif isinstance(e, Laid):
            return None  # lays only follow a completion (handled below)
        else:
            raise ValueError(f"brute force does not handle {e!r}")
        complete = hands[receiver] >> (4 * q) & 0xF == 0xF
        laid_next = i < len(events) and isinstance(events[i], Laid) and events[i] == Laid(receiver, q)
        if complete != laid_next:
            return None
        if complete:
            hands[receiver] &= ~(0xF << (4 * q))
            i += 1
    assert draws is None or nxt == len(draws)
    return hands, pile


def brute_posterior(n_cards: int, log, me: int, my_hand: int):
    """(count, {(location, card): count}) with location = seat or 'pile'."""
    d: Dealt = log[0]
    sizes = list(d.hand_sizes)
    players = len(sizes)
    nq = n_cards // 4
    rest = [c for c in range(n_cards) if not my_hand >> c & 1]
    others = [p for p in range(players) if p != me]
    caps = {p: sizes[p] for p in others}
    if d.pile:
        caps["pile"] = d.pile
    assert sum(caps.values()) == len(rest)
    counts: dict[tuple[object, int], int] = {}
    total = 0
    for assign in _assignments(len(rest), caps):
        hands = [0] * players
        hands[me] = my_hand
        pile = 0
        for c, loc in zip(rest, assign):
            if loc == "pile":
                pile |= 1 << c
            else:
                hands[loc] |= 1 << c
        out = replay_ok(hands, pile, log, nq)
        if out is None:
            continue
        total += 1
        fh, fp = out
        for p in range(players):
            for c in range(n_cards):
                if fh[p] >> c & 1:
                    counts[(p, c)] = counts.get((p, c), 0) + 1
        for c in range(n_cards):
            if fp >> c & 1:
                counts[("pile", c)] = counts.get(("pile", c), 0) + 1
    return total, counts


def _assignments(n: int, caps: dict):
    """Every way to give n cards (in order) to locations with these capacities."""
    locs = list(caps)
    left = dict(caps)
    cur: list[object] = []

    def rec(i):
        if i == n:
            yield tuple(cur)
            return
        for loc in locs:
            if left[loc]:
                left[loc] -= 1
                cur.append(loc)
                yield from rec(i + 1)
                cur.pop()
                left[loc] += 1

    yield from rec(0)


def brute_probabilities(n_cards: int, log, me: int, my_hand: int):
    """Exact probability table as {(location, card): Fraction} plus the count."""
    total, counts = brute_posterior(n_cards, log, me, my_hand)
    return total, {k: Fraction(v, total) for k, v in counts.items()} if total else {}


def _places_now(hands: list[int], pile: int, n_cards: int) -> tuple[int, ...]:
    """Each card's location: seat, -1 for the pile, -2 for a laid card."""
    where = [-2] * n_cards
    for c in range(n_cards):
        if pile >> c & 1:
            where[c] = -1
        for p, hand in enumerate(hands):
            if hand >> c & 1:
                where[c] = p
    return tuple(where)


def brute_deals(n_cards: int, log, me: int, my_hand: int) -> list[tuple[int, ...]]:
    """Every deal consistent with the log, as the tuple of each card's location now
    (seat, -1 for the pile, -2 for a laid card), in enumeration order."""
    d: Dealt = log[0]
    sizes = list(d.hand_sizes)
    players = len(sizes)
    nq = n_cards // 4
    rest = [c for c in range(n_cards) if not my_hand >> c & 1]
    caps = {p: sizes[p] for p in range(players) if p != me}
    if d.pile:
        caps["pile"] = d.pile
    out = []
    for assign in _assignments(len(rest), caps):
        hands = [0] * players
        hands[me] = my_hand
        pile = 0
        for c, loc in zip(rest, assign):
            if loc == "pile":
                pile |= 1 << c
            else:
                hands[loc] |= 1 << c
        res = replay_ok(hands, pile, log, nq)
        if res is None:
            continue
        out.append(_places_now(*res, n_cards))
    return out


def brute_draw_deals(n_cards: int, log, me: int, my_hand: int) -> list[tuple[int, ...]]:
    """Every deal of a draw-pile game consistent with ``log`` as player ``me`` saw it
    (their own draws shown), as the tuple of each card's location now (seat, -1 for
    the pile, -2 for a laid card).

    A deal here is the dealt hands, the cards drawn so far in their order, and the
    set of cards still in the pile: every shuffle of the pile is equally likely, and
    each such deal stands for the same number of shuffles, so they are equally
    likely too."""
    d: Dealt = log[0]
    sizes = list(d.hand_sizes)
    players = len(sizes)
    nq = n_cards // 4
    drawn = [e for e in log[1:] if isinstance(e, Drew)]
    mine = 0
    for e in drawn:
        if e.card is not None:
            mine |= 1 << e.card
    rest = [c for c in range(n_cards) if not (my_hand | mine) >> c & 1]
    caps: dict[object, int] = {p: sizes[p] for p in range(players) if p != me}
    for i, e in enumerate(drawn):
        if e.card is None:
            caps[("draw", i)] = 1
    left = d.pile - len(drawn)
    if left:
        caps["pile"] = left
    assert sum(caps.values()) == len(rest)
    out = []
    for assign in _assignments(len(rest), caps):
        hands = [0] * players
        hands[me] = my_hand
        pile = 0
        seq = [e.card for e in drawn]
        for c, loc in zip(rest, assign):
            if loc == "pile":
                pile |= 1 << c
            elif isinstance(loc, tuple):
                seq[loc[1]] = c
            else:
                hands[loc] |= 1 << c
        res = replay_ok(hands, pile, log, nq, seq)
        if res is None:
            continue
        out.append(_places_now(*res, n_cards))
    return out
