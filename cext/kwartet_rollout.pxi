# Kwartet rollouts: the lookahead of the planning player (kwartet.PlanningBot).
#
# Purpose: from one position (the planner to move) and a batch of determinized
# deals (every hand and the side pile known), play each candidate first ask and
# then the rest of the game with a fast policy for every seat, and report the
# planner's win share and quartets.
#
# Invariants: no draw pile.  Under the base rules (side pile or dealer
# remainder, optional bonus turn) the pile never changes, so a quartet with a pile
# card is blocked for good.  In memory Kwartet (``memory``) the pile is the middle:
# instead of asking, the seat to move may turn up a middle card (one at random:
# their order is unknown) and take it, and the turn passes; a seat with no cards
# must.  A policy turns one up when it has no ask or its best ask rates below
# KWR_REVEAL_BELOW (MemoryBot's and InferenceBot's rule).  Every seat plays the
# same policy and sees only its own hand and the public record, which the rollout
# keeps exactly as MemoryBot does: each card's publicly traced holder, the seats
# publicly known not to hold it (denials, own asks), the quartets each seat has
# asked for; a card turned up is traced to its taker.  An ask thus tells the
# other seats what it tells them in the real game, and they use it: they ask a
# seat for a card it received, and favour a seat that asked for the quartet.
# The policy (_kwr_choose): a card's chance at a seat is 1 (traced there), 0
# (traced elsewhere or denied), else the seat's share of the cards of the seats
# that may hold it (pile included), its odds multiplied by collector_odds when
# the seat asked for the quartet; the best chance wins, then the quartet the
# asker holds most of, then a random tie-break.  A seat may instead play
# MemoryBot's policy (_kwr_choose_memory) or NoviceBot's random asks
# (_kwr_choose_novice), by the caller's model per seat.
#
# Entry points: kw_rollouts (and kw_ask_likelihood, the deal weights).  Deal i's
# rollouts use one random stream for every candidate (common random numbers:
# candidates are compared on the same deals and, as far as their games agree, the
# same tie-breaks).

from libc.math cimport log

DEF KWR_MAXP = 6
DEF KWR_MAXC = 52
DEF KWR_REVEAL_BELOW = 0.3  # a policy turns up a middle card when its best ask rates below this
DEF KWR_MEMORY_REVEAL_KEY = 8  # _kwr_memory_key below this: score 0, MemoryBot turns a card up


cdef struct KwrState:
    uint64_t hands[KWR_MAXP]
    uint64_t pile
    int32_t quartets[KWR_MAXP]
    int32_t last[KWR_MAXP]
    int32_t lay_count
    int32_t laid
    int32_t blocked
    int32_t free_m
    int32_t turn
    int32_t over
    int32_t middle              # memory Kwartet: the pile is the middle, its cards may be turned up
    int8_t holder[KWR_MAXC]     # publicly traced seat, -1 unknown, -2 laid
    uint8_t notat[KWR_MAXC]     # seats publicly known not to hold the card
    uint32_t hasq[KWR_MAXP]     # quartets each seat has asked for (not yet laid)


cdef inline int _kwr_can_act(KwrState* s, int players, int p) noexcept nogil:
    """Seat p can act: it can ask (it holds cards and another seat does) or turn
    up a middle card."""
    cdef int t
    if s.middle and s.pile:
        return 1
    if not s.hands[p]:
        return 0
    for t in range(players):
        if t != p and s.hands[t]:
            return 1
    return 0


cdef inline void _kwr_end_turn(KwrState* s, int players) noexcept nogil:
    cdef int k
    s.free_m = 0
    for k in range(players):
        s.turn = (s.turn + 1) % players
        if _kwr_can_act(s, players, s.turn):
            return
    s.over = 1  # nobody can act


cdef inline void _kwr_lay(KwrState* s, int players, int p, int q, int bonus) noexcept nogil:
    """Seat p lays quartet q (complete in its hand)."""
    cdef int k
    s.hands[p] &= ~((<uint64_t>15) << (4 * q))
    s.quartets[p] += 1
    s.last[p] = s.lay_count
    s.lay_count += 1
    s.laid += 1
    for k in range(4):
        s.holder[4 * q + k] = -2
    for k in range(players):
        s.hasq[k] &= ~((<uint32_t>1) << q)
    if bonus:
        s.free_m += 1


cdef inline void _kwr_ask(KwrState* s, int nq, int players, int t, int c, int bonus) noexcept nogil:
    """The seat to move asks seat t for card c (legal); the public record, lays,
    the end and the turn follow the game's rules."""
    cdef int p = s.turn
    cdef int q = c >> 2
    s.hasq[p] |= (<uint32_t>1) << q
    if (s.hands[t] >> c) & 1:
        s.hands[t] &= ~((<uint64_t>1) << c)
        s.hands[p] |= (<uint64_t>1) << c
        s.holder[c] = <int8_t>p
        s.notat[c] = 0
        if (s.hands[p] >> (4 * q)) & 15 == 15:
            _kwr_lay(s, players, p, q, bonus)
            if s.laid + s.blocked == nq:
                s.over = 1
                return
        if not s.hands[p] or not _kwr_can_act(s, players, p):
            _kwr_end_turn(s, players)
    else:
        s.notat[c] |= <uint8_t>((1 << t) | (1 << p))
        if s.free_m > 0:
            s.free_m -= 1
        else:
            _kwr_end_turn(s, players)


cdef inline void _kwr_reveal(KwrState* s, int nq, int players, uint64_t* rng) noexcept nogil:
    """Memory Kwartet: the seat to move turns up a middle card (the k-th lowest of
    the middle, k drawn uniformly from the stream) and takes it, laying a quartet it
    completes; the turn passes (the pile is not empty)."""
    cdef int p = s.turn, j, c, q
    cdef uint64_t m = s.pile
    cdef int k = <int>(qs_splitmix64(rng) % <uint64_t>popcount64(m))
    for j in range(k):
        m &= m - 1
    c = ctz64(m)
    q = c >> 2
    s.pile &= ~((<uint64_t>1) << c)
    s.hands[p] |= (<uint64_t>1) << c
    s.holder[c] = <int8_t>p
    s.notat[c] = 0
    if (s.hands[p] >> (4 * q)) & 15 == 15:
        _kwr_lay(s, players, p, q, 0)
        if s.laid + s.blocked == nq:
            s.over = 1
            return
    _kwr_end_turn(s, players)


cdef inline int _kwr_memory_key(KwrState* s, int p, int t, int c) noexcept nogil:
    """MemoryBot's preference for seat p asking seat t for card c, as one int
    (larger is better): score 1 for a card traced at the target, 0 for one traced
    elsewhere or denied by the target, else 0.5, plus 0.25 when the target asked
    for the quartet (in quarters: 4, 0, 2, 3); then the cards of the quartet p
    holds; then whether p asked for the quartet itself."""
    cdef int q = c >> 2, h = s.holder[c], sc
    if h == t:
        sc = 4
    elif h >= 0 or (s.notat[c] >> t) & 1:
        sc = 0
    else:
        sc = 3 if (s.hasq[t] >> q) & 1 else 2
    return 8 * sc + 2 * <int>popcount64((s.hands[p] >> (4 * q)) & 15) + <int>((s.hasq[p] >> q) & 1)


cdef inline uint64_t _kwr_askable(KwrState* s, int nq, int p) noexcept nogil:
    """The cards seat p may ask for: those of the quartets it holds, not its own."""
    cdef uint64_t hand = s.hands[p], askable = 0
    cdef int q
    for q in range(nq):
        if (hand >> (4 * q)) & 15:
            askable |= (<uint64_t>15) << (4 * q)
    return askable & ~hand


cdef inline int _kwr_choose_memory(KwrState* s, int nq, int players, uint64_t* rng,
                                   int* out_t, int* out_c) noexcept nogil:
    """MemoryBot's ask for the seat to move: the best _kwr_memory_key, then a
    uniform random choice; returns that key (-1: no ask)."""
    cdef int p = s.turn
    cdef uint64_t askable = _kwr_askable(s, nq, p), m, low
    cdef int t, c, key, best = -1, ties = 0
    out_t[0] = -1
    out_c[0] = -1
    for t in range(players):
        if t == p or not s.hands[t]:
            continue
        m = askable
        while m:
            low = m & (~m + 1)
            c = ctz64(m)
            m ^= low
            key = _kwr_memory_key(s, p, t, c)
            if key > best:
                best = key
                out_t[0] = t
                out_c[0] = c
                ties = 1
            elif key == best:
                ties += 1
                if qs_splitmix64(rng) % <uint64_t>ties == 0:
                    out_t[0] = t
                    out_c[0] = c
    return best


cdef inline int _kwr_targets(KwrState* s, int players, int p) noexcept nogil:
    """How many other seats than p hold cards (the seats p may ask)."""
    cdef int t, nt = 0
    for t in range(players):
        if t != p and s.hands[t]:
            nt += 1
    return nt


cdef inline int _kwr_choose_novice(KwrState* s, int nq, int players, uint64_t* rng,
                                   int* out_t, int* out_c) noexcept nogil:
    """NoviceBot's policy for the seat to move: a uniformly random other seat holding
    cards (the draw modulo their number, in seat order), then a uniformly random
    askable card (the next draw modulo their number, ascending).  Returns 1 when it
    turns up a middle card instead: while the middle holds cards and it has an ask,
    when a first draw is divisible by 5 (one time in five); out_t -1: no ask."""
    cdef int p = s.turn, t, k
    cdef uint64_t askable = _kwr_askable(s, nq, p)
    cdef int na = <int>popcount64(askable), nt = _kwr_targets(s, players, p)
    out_t[0] = -1
    out_c[0] = -1
    if nt == 0 or na == 0:
        return 0
    if s.middle and s.pile and qs_splitmix64(rng) % 5 == 0:
        return 1
    k = <int>(qs_splitmix64(rng) % <uint64_t>nt)
    for t in range(players):
        if t != p and s.hands[t]:
            if k == 0:
                out_t[0] = t
                break
            k -= 1
    k = <int>(qs_splitmix64(rng) % <uint64_t>na)
    while k:
        askable &= askable - 1
        k -= 1
    out_c[0] = ctz64(askable)
    return 0


cdef inline double _kwr_places(KwrState* s, int players, int p, int c) noexcept nogil:
    """The size of the places untraced card c may be in, seen from seat p: the
    cards of the other seats not known to lack it, and the pile (0 when traced)."""
    cdef double den = 0.0
    cdef int l
    if s.holder[c] < 0:
        for l in range(players):
            if l != p and s.hands[l] and not (s.notat[c] >> l) & 1:
                den += popcount64(s.hands[l])
        den += popcount64(s.pile)
    return den


cdef inline double _kwr_chance(KwrState* s, int t, int c, double den, double odds) noexcept nogil:
    """The shared policy's chance that seat t holds card c (den: _kwr_places)."""
    cdef int h = s.holder[c]
    cdef double sc
    if h == t:
        return 1.0
    if h >= 0 or (s.notat[c] >> t) & 1 or den <= 0.0:
        return 0.0
    sc = popcount64(s.hands[t]) / den
    if (s.hasq[t] >> (c >> 2)) & 1 and sc < 1.0:
        sc = sc * odds / (sc * odds + 1.0 - sc)
    return sc


cdef inline double _kwr_choose(KwrState* s, int nq, int players, double odds, uint64_t* rng,
                               int* out_t, int* out_c) noexcept nogil:
    """The policy's ask for the seat to move (see the file comment); returns its
    chance (-1: no ask)."""
    cdef int p = s.turn
    cdef uint64_t hand = s.hands[p], m = _kwr_askable(s, nq, p), low
    cdef int t, c, held, best_held = -1, ties = 0
    cdef double sc, best = -1.0, den
    out_t[0] = -1
    out_c[0] = -1
    while m:
        low = m & (~m + 1)
        c = ctz64(m)
        m ^= low
        held = popcount64((hand >> (4 * (c >> 2))) & 15)
        den = _kwr_places(s, players, p, c)
        for t in range(players):
            if t == p or not s.hands[t]:
                continue
            sc = _kwr_chance(s, t, c, den, odds)
            if sc > best or (sc == best and held > best_held):
                best = sc
                best_held = held
                out_t[0] = t
                out_c[0] = c
                ties = 1
            elif sc == best and held == best_held:
                ties += 1
                if qs_splitmix64(rng) % <uint64_t>ties == 0:
                    out_t[0] = t
                    out_c[0] = c
    return best


cdef inline double _kwr_share(KwrState* s, int players, int me) noexcept nogil:
    """The planner's share of the win: most quartets, ties to the earlier last lay,
    still tied (or nobody scored) shared."""
    cdef int best = 0, p, first = 1 << 30, n = 0
    for p in range(players):
        if s.quartets[p] > best:
            best = s.quartets[p]
    if best == 0:
        return 1.0 / players
    if s.quartets[me] != best:
        return 0.0
    for p in range(players):
        if s.quartets[p] == best and s.last[p] < first:
            first = s.last[p]
    if s.last[me] != first:
        return 0.0
    for p in range(players):
        if s.quartets[p] == best and s.last[p] == first:
            n += 1
    return 1.0 / n


cdef inline int _kwr_act(KwrState* s, int nq, int players, int model, double odds, int bonus,
                         uint64_t* rng) noexcept nogil:
    """The seat to move plays its policy (model 1: MemoryBot's, 2: NoviceBot's, else
    the shared one): an ask, or in memory Kwartet a middle card turned up when it
    has no ask or its best rates below KWR_REVEAL_BELOW (NoviceBot's: see
    _kwr_choose_novice).  Returns 0 when it cannot act."""
    cdef int t, c, reveal
    if model == 2:
        reveal = _kwr_choose_novice(s, nq, players, rng, &t, &c)
    elif model == 1:
        reveal = _kwr_choose_memory(s, nq, players, rng, &t, &c) < KWR_MEMORY_REVEAL_KEY
    else:
        reveal = _kwr_choose(s, nq, players, odds, rng, &t, &c) < KWR_REVEAL_BELOW
    if s.middle and s.pile and (t < 0 or reveal):
        _kwr_reveal(s, nq, players, rng)
        return 1
    if t < 0:
        return 0
    _kwr_ask(s, nq, players, t, c, bonus)
    return 1


def kw_rollouts(int nq, int players, int me, const uint64_t[:, :] deals,
                const int32_t[:] quartets0, const int32_t[:] last0, int lay_count0,
                const int8_t[:] holder0, const uint8_t[:] notat0, const uint32_t[:] hasq0,
                const int32_t[:] cand_t, const int32_t[:] cand_c, int bonus, int free0,
                double collector_odds, uint64_t seed, int64_t max_asks, const uint8_t[:] model=None,
                int memory=0):
    """Roll out every candidate first ask (cand_t[k], cand_c[k]) of seat ``me`` on
    every deal (deals[i, p]: the hand of seat p, deals[i, players]: the pile).

    Returns (share[K, N] float64, quartets[K, N] int32): the planner's win share
    and quartets at the end of each rollout (a rollout stops after max_asks
    actions).  ``model[p]`` (optional, one per seat) picks seat p's policy: 0 the
    shared public-record policy (the default for every seat), 1 MemoryBot's, 2
    NoviceBot's (random asks).
    ``memory`` (memory Kwartet): the pile is the middle, whose cards the seats may
    turn up; a candidate with cand_t[k] == -1 turns one up instead of asking.
    """
    if nq < 1 or 4 * nq > KWR_MAXC or players < 2 or players > KWR_MAXP or not 0 <= me < players:
        raise ValueError("kw_rollouts: bad sizes")
    if deals.shape[1] != players + 1 or holder0.shape[0] < 4 * nq or notat0.shape[0] < 4 * nq:
        raise ValueError("kw_rollouts: bad shapes")
    if quartets0.shape[0] < players or last0.shape[0] < players or hasq0.shape[0] < players:
        raise ValueError("kw_rollouts: bad shapes")
    if cand_t.shape[0] != cand_c.shape[0]:
        raise ValueError("kw_rollouts: candidate arrays differ in length")
    cdef int64_t N = deals.shape[0], K = cand_t.shape[0]
    targets = np.asarray(cand_t)
    if ((targets != -1) & ((targets < 0) | (targets >= players))).any():
        raise ValueError("kw_rollouts: bad candidate target")
    if (targets == -1).any() and (not memory or (N and not deals[0, players])):
        raise ValueError("kw_rollouts: a candidate turns up a middle card, but there is none")
    share_arr = np.zeros((K, N), dtype=np.float64)
    quart_arr = np.zeros((K, N), dtype=np.int32)
    cdef double[:, :] share = share_arr
    cdef int32_t[:, :] quart = quart_arr
    cdef KwrState base, s
    cdef int64_t i, k, asks
    cdef int p, q, c
    cdef uint64_t rng
    cdef uint8_t models[KWR_MAXP]
    memset(models, 0, sizeof(models))
    if model is not None:
        if model.shape[0] < players:
            raise ValueError("kw_rollouts: bad shapes")
        for p in range(players):
            if model[p] > 2:
                raise ValueError("kw_rollouts: unknown policy model")
            models[p] = model[p]
    with nogil:
        memset(&base, 0, sizeof(KwrState))
        for c in range(4 * nq):
            base.holder[c] = holder0[c]
            base.notat[c] = notat0[c]
        for p in range(players):
            base.quartets[p] = quartets0[p]
            base.last[p] = last0[p]
            base.hasq[p] = hasq0[p]
        base.lay_count = lay_count0
        base.middle = memory != 0
        base.laid = 0
        for p in range(players):
            base.laid += quartets0[p]
        for i in range(N):
            for p in range(players):
                base.hands[p] = deals[i, p]
            base.pile = deals[i, players]
            base.blocked = 0
            for q in range(nq):
                if not base.middle and (base.pile >> (4 * q)) & 15:
                    base.blocked += 1
            for k in range(K):
                s = base
                s.turn = me
                s.free_m = free0
                s.over = 0
                rng = seed ^ (<uint64_t>(i + 1) * 0x9E3779B97F4A7C15ULL)
                if cand_t[k] == -1:
                    _kwr_reveal(&s, nq, players, &rng)
                else:
                    _kwr_ask(&s, nq, players, cand_t[k], cand_c[k], bonus)
                asks = 1
                while not s.over and asks < max_asks:
                    if not _kwr_act(&s, nq, players, models[s.turn], collector_odds, bonus, &rng):
                        break
                    asks += 1
                share[k, i] = _kwr_share(&s, players, me)
                quart[k, i] = s.quartets[me]
    return share_arr, quart_arr


cdef inline int _kwr_ask_fits(KwrState* s, int nq, int players, int a, int t0, int c0, int model,
                               double odds, int* ties) noexcept nogil:
    """Whether seat a asking seat t0 for card c0 is among the asks its policy
    (model 1: MemoryBot's, 0: the shared one) rates best; ties: how many are (set
    only when it is).  The scan stops at the first ask rated above it."""
    cdef uint64_t hand = s.hands[a], askable = _kwr_askable(s, nq, a), m, low
    cdef int t, c, key, mine, held, mine_held
    cdef double sc, den, mine_sc = 0.0
    ties[0] = 0
    if model == 1:
        mine = _kwr_memory_key(s, a, t0, c0)
        for t in range(players):
            if t == a or not s.hands[t]:
                continue
            m = askable
            while m:
                low = m & (~m + 1)
                c = ctz64(m)
                m ^= low
                key = _kwr_memory_key(s, a, t, c)
                if key > mine:
                    return 0
                if key == mine:
                    ties[0] += 1
        return ties[0] > 0
    if not (askable >> c0) & 1:
        return 0
    mine_held = popcount64((hand >> (4 * (c0 >> 2))) & 15)
    if t0 != a and s.hands[t0]:
        mine_sc = _kwr_chance(s, t0, c0, _kwr_places(s, players, a, c0), odds)
    m = askable
    while m:
        low = m & (~m + 1)
        c = ctz64(m)
        m ^= low
        held = popcount64((hand >> (4 * (c >> 2))) & 15)
        den = _kwr_places(s, players, a, c)
        for t in range(players):
            if t == a or not s.hands[t]:
                continue
            sc = _kwr_chance(s, t, c, den, odds)
            if sc > mine_sc or (sc == mine_sc and held > mine_held):
                return 0
            if sc == mine_sc and held == mine_held:
                ties[0] += 1
    return ties[0] > 0


cdef inline int _kwr_rates_high(KwrState* s, int players, int a, int t, int c, int model,
                                double odds) noexcept nogil:
    """Whether seat a's policy (model 1: MemoryBot's, 0: the shared one) rates
    asking seat t for card c at or above the bar below which it turns up a middle
    card instead."""
    if model == 1:
        return _kwr_memory_key(s, a, t, c) >= KWR_MEMORY_REVEAL_KEY
    return _kwr_chance(s, t, c, _kwr_places(s, players, a, c), odds) >= KWR_REVEAL_BELOW


cdef inline int _kwr_any_high(KwrState* s, int nq, int players, int a, int model, double odds) noexcept nogil:
    """Whether seat a has an ask its policy rates at or above the reveal bar (one
    it would make rather than turn up a middle card)."""
    cdef uint64_t askable = _kwr_askable(s, nq, a), m, low
    cdef int t, c
    for t in range(players):
        if t == a or not s.hands[t]:
            continue
        m = askable
        while m:
            low = m & (~m + 1)
            c = ctz64(m)
            m ^= low
            if _kwr_rates_high(s, players, a, t, c, model, odds):
                return 1
    return 0


def kw_ask_likelihood(int nq, int players, int me, const uint64_t[:, :] deals,
                      const int32_t[:, :] events, double eps, const uint8_t[:] model, double odds,
                      int memory=0):
    """The log-likelihood of every other seat's asks in ``events`` under its policy
    model, for each deal (deals[i, p]: the hand of seat p now, deals[i, players]:
    the pile).

    ``events[j]`` is (0, asker, target, card * 2 + hit) for an ask,
    (1, player, quartet, 0) for a lay and, in memory Kwartet (``memory``), (2,
    player, card, 0) for a middle card turned up, in the game's order from the
    deal on.  There a policy turns a card up when it has no ask rated at or above
    the bar (KWR_REVEAL_BELOW, MemoryBot's score 0): a turned-up card contributes
    log(1) when the seat's policy would do so, else log(eps); an ask rated below
    the bar while the middle holds cards, log(eps).
    ``model[p]``: seat p's policy, 1 MemoryBot's, 0 the shared rollout policy
    (with collector odds ``odds``), 2 NoviceBot's.  Each deal is replayed backward
    to the hands dealt, then forward with the public record as MemoryBot keeps it;
    an ask of a seat other than ``me`` contributes log(1 / ties) when it is among
    the asks its policy rates best (ties of them), else log(eps) (a miss).  Under
    NoviceBot's policy every legal ask is equally likely: an ask contributes
    log(1 / (targets * askable cards)), plus log(4/5) while the middle holds cards
    (memory Kwartet); a card turned up log(1/5), or log(1) when the seat had no
    ask; an ask it could not make (none on a deal that fits the record), log(eps).

    Returns (loglik float64[N, players], misses int32[N, players]), by seat
    (zero for ``me``).
    """
    if nq < 1 or 4 * nq > KWR_MAXC or players < 2 or players > KWR_MAXP or not 0 <= me < players:
        raise ValueError("kw_ask_likelihood: bad sizes")
    if deals.shape[1] != players + 1 or events.shape[1] != 4 or model.shape[0] < players:
        raise ValueError("kw_ask_likelihood: bad shapes")
    if not 0.0 < eps <= 1.0:
        raise ValueError("kw_ask_likelihood: eps must be in (0, 1]")
    if not odds > 0.0 or odds == float("inf"):
        raise ValueError("kw_ask_likelihood: odds must be a positive number")
    cdef int64_t N = deals.shape[0], E = events.shape[0], i, j
    cdef int kind, a, t, c, q, k, hit, ties
    cdef uint8_t models[KWR_MAXP]
    for a in range(players):
        if model[a] > 2:
            raise ValueError("kw_ask_likelihood: unknown policy model")
        models[a] = model[a]
    for j in range(E):
        kind = events[j, 0]
        if kind == 0:
            if not (0 <= events[j, 1] < players and 0 <= events[j, 2] < players
                    and 0 <= events[j, 3] < 8 * nq):
                raise ValueError("kw_ask_likelihood: bad ask event")
        elif kind == 1:
            if not (0 <= events[j, 1] < players and 0 <= events[j, 2] < nq):
                raise ValueError("kw_ask_likelihood: bad lay event")
        elif kind == 2 and memory:
            if not (0 <= events[j, 1] < players and 0 <= events[j, 2] < 4 * nq):
                raise ValueError("kw_ask_likelihood: bad reveal event")
        else:
            raise ValueError("kw_ask_likelihood: bad event kind")
    ll_arr = np.zeros((N, players), dtype=np.float64)
    miss_arr = np.zeros((N, players), dtype=np.int32)
    cdef double[:, :] ll = ll_arr
    cdef int32_t[:, :] miss = miss_arr
    cdef double log_eps = log(eps), log_fifth = log(0.2), log_rest = log(0.8)
    cdef KwrState s
    cdef uint64_t bit, askable
    with nogil:
        for i in range(N):
            memset(&s, 0, sizeof(KwrState))
            for a in range(players):
                s.hands[a] = deals[i, a]
            s.pile = deals[i, players]
            s.middle = memory != 0
            for j in range(E - 1, -1, -1):
                if events[j, 0] == 1:
                    s.hands[events[j, 1]] |= (<uint64_t>15) << (4 * events[j, 2])
                elif events[j, 0] == 2:
                    bit = (<uint64_t>1) << events[j, 2]
                    s.hands[events[j, 1]] &= ~bit
                    s.pile |= bit
                elif events[j, 3] & 1:
                    bit = (<uint64_t>1) << (events[j, 3] >> 1)
                    s.hands[events[j, 1]] &= ~bit
                    s.hands[events[j, 2]] |= bit
            for c in range(4 * nq):
                s.holder[c] = -1
            for j in range(E):
                a = events[j, 1]
                if events[j, 0] == 1:
                    q = events[j, 2]
                    s.hands[a] &= ~((<uint64_t>15) << (4 * q))
                    for k in range(4):
                        s.holder[4 * q + k] = -2
                    for k in range(players):
                        s.hasq[k] &= ~((<uint32_t>1) << q)
                    continue
                if events[j, 0] == 2:
                    c = events[j, 2]
                    if a != me and models[a] == 2:
                        if _kwr_askable(&s, nq, a) and _kwr_targets(&s, players, a):
                            ll[i, a] += log_fifth
                    elif a != me and _kwr_any_high(&s, nq, players, a, models[a], odds):
                        miss[i, a] += 1
                        ll[i, a] += log_eps
                    bit = (<uint64_t>1) << c
                    s.pile &= ~bit
                    s.hands[a] |= bit
                    s.holder[c] = <int8_t>a
                    s.notat[c] = 0
                    continue
                t = events[j, 2]
                c = events[j, 3] >> 1
                hit = events[j, 3] & 1
                q = c >> 2
                if a != me and models[a] == 2:
                    askable = _kwr_askable(&s, nq, a)
                    if (askable >> c) & 1 and t != a and s.hands[t]:
                        ll[i, a] -= log(<double>popcount64(askable) * _kwr_targets(&s, players, a))
                        if s.middle and s.pile:
                            ll[i, a] += log_rest
                    else:
                        miss[i, a] += 1
                        ll[i, a] += log_eps
                elif a != me:
                    if s.middle and s.pile and not _kwr_rates_high(&s, players, a, t, c, models[a], odds):
                        miss[i, a] += 1
                        ll[i, a] += log_eps
                    elif _kwr_ask_fits(&s, nq, players, a, t, c, models[a], odds, &ties):
                        ll[i, a] -= log(<double>ties)
                    else:
                        miss[i, a] += 1
                        ll[i, a] += log_eps
                s.hasq[a] |= (<uint32_t>1) << q
                if hit:
                    bit = (<uint64_t>1) << c
                    s.hands[t] &= ~bit
                    s.hands[a] |= bit
                    s.holder[c] = <int8_t>a
                    s.notat[c] = 0
                else:
                    s.notat[c] |= <uint8_t>((1 << t) | (1 << a))
    return ll_arr, miss_arr
