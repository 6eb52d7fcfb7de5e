# Klaverjas kernels: the exact double-dummy solver (all hands visible).
#
# Cards: a uint32 mask, bit b = card index - 20, so b = 4 * natural + suit with
# natural 0..7 = 7 8 9 T J Q K A and suit 0..3 = c d h s.
#
# Objective: the net score of the playing team P (RULES.md): with
#   d = P total - other total (cards + last trick + roem + pit),
# the hand is made iff d > thr (thr = 0 when a tie is nat, -1 otherwise) and then
# net = d; otherwise net = -(162 + all roem + pit).  Any made outcome beats any nat
# outcome for P, so (proofs in the module docstring of quartet_solver.klaverjas.dd):
#   1. D = minimax value of the ADDITIVE future d (mode D, "search_d");
#   2. if acc_d + D > thr the value is acc_d + D;
#   3. else the value is the minimax of h = BIG if made else -(162 + roem + pit)
#      (mode N, "search_n", absolute values, its TT key includes acc_d and the
#      roem so far).
# Both searches are fail-soft alpha-beta with one transposition table of bounds
# (probed at trick boundaries only), cheap upper/lower bounds and move ordering.

from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libc.stdint cimport int16_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.time cimport clock, clock_t, CLOCKS_PER_SEC

cdef enum:
    KJ_INF = 1000000
    KJ_BIG = 30000            # mode N value of a made outcome
    KJ_STUK_TRICK = 0
    KJ_STUK_HAND = 1
    KJ_STUK_OFF = 2

# trick power by natural rank (7 8 9 T J Q K A)
cdef int KJ_TPOW[8]
cdef int KJ_PPOW[8]
cdef int KJ_TPTS[8]
cdef int KJ_PPTS[8]
cdef int KJ_FOUR[8]
cdef int KJ_RUN[256]          # run roem of an 8-bit natural-rank pattern of one suit
cdef int KJ_RUNUB[9]          # upper bound of run roem from n cards of one suit
cdef int KJ_HAS3[256]         # the pattern holds 3 consecutive ranks
cdef int KJ_WIN3[256]         # window starts w (0..5): ranks w, w+1, w+2 all in the pattern
cdef int KJ_BAD[256]          # window starts w with >= 2 of the pattern's ranks in w..w+2
cdef uint32_t KJ_EXP[64]      # ranks covered by a set of window starts

KJ_TPOW[:] = [1, 2, 7, 5, 8, 3, 4, 6]
KJ_PPOW[:] = [1, 2, 3, 7, 4, 5, 6, 8]
KJ_TPTS[:] = [0, 0, 14, 10, 20, 3, 4, 11]
KJ_PPTS[:] = [0, 0, 0, 10, 2, 3, 4, 11]
KJ_FOUR[:] = [0, 0, 0, 100, 200, 100, 100, 100]
KJ_RUNUB[:] = [0, 0, 0, 20, 50, 50, 50, 70, 100]


cdef void _kj_init_tables() noexcept nogil:
    cdef int p, n, best, run
    for p in range(256):
        best = 0
        run = 0
        for n in range(8):
            if p & (1 << n):
                run += 1
                if run > best:
                    best = run
            else:
                run = 0
        KJ_RUN[p] = 50 if best >= 4 else (20 if best == 3 else 0)
        KJ_HAS3[p] = 1 if best >= 3 else 0
        KJ_WIN3[p] = 0
        KJ_BAD[p] = 0
        for n in range(6):
            run = (p >> n) & 7
            if run == 7:
                KJ_WIN3[p] |= 1 << n
            if run == 3 or run == 5 or run == 6 or run == 7:
                KJ_BAD[p] |= 1 << n
    for p in range(64):
        KJ_EXP[p] = 0
        for n in range(6):
            if p & (1 << n):
                KJ_EXP[p] |= <uint32_t>(7 << n)

_kj_init_tables()


cdef inline uint32_t kj_suit_pattern(uint32_t m, int suit) noexcept nogil:
    """8-bit natural-rank pattern of one suit of a card mask."""
    cdef uint32_t y = (m >> suit) & 0x11111111u
    y = (y | (y >> 3)) & 0x03030303u
    y = (y | (y >> 6)) & 0x000F000Fu
    y = (y | (y >> 12)) & 0xFFu
    return y


ctypedef struct KJEntry:
    uint32_t h[4]
    int16_t accd
    int16_t acct
    int16_t lo
    int16_t hi
    uint16_t gen
    uint8_t meta
    uint8_t best
    uint8_t depth
    uint8_t pad[3]


ctypedef struct KJUndo:
    uint32_t tmask
    int led, win_pos, win_pow, hi_trump, tpts, leader, ntrick, accd, acct, flags, tricks_done, tcard


ctypedef struct KJState:
    uint32_t hands[4]
    int trump, rotterdam, stuk_mode, stuk_seat, pit, thr, playing
    uint32_t trumpmask, stukmask
    int pts[32]
    int tpow[32]              # 1..8 for trumps, 0 otherwise
    int ppow[32]              # plain power by rank, 1..8
    uint32_t trump_above[9]   # trumps with power > p
    int trump_of_pow[9]       # card bit of the trump with power p (1..8)
    uint32_t plain_above[32]  # cards of any suit whose plain power beats card c's
    # the trick in progress
    int tcard[4]
    int ntrick, leader, led, win_pos, win_pow, hi_trump, tpts
    uint32_t tmask
    # accumulated score: acc d for P (cards + roem + pit), all roem + pit so far
    int accd, acct, flags, tricks_done
    # transposition table
    KJEntry* tt
    uint64_t ttmask
    uint16_t gen
    # limits
    uint64_t nodes, node_limit
    clock_t deadline
    int has_deadline, aborted
    uint64_t phase_nodes[3]   # nodes spent: made test, exact d, nat search


cdef inline int kj_power(KJState* s, int c) noexcept nogil:
    if s.tpow[c]:
        return 100 + s.tpow[c]
    if (c & 3) == s.led:
        return s.ppow[c]
    return 0


cdef inline uint32_t kj_legal(KJState* s, uint32_t hand) noexcept nogil:
    cdef int n = s.ntrick
    cdef uint32_t follow, trumps, higher, others, r
    if n == 0:
        return hand
    follow = hand & (0x11111111u << s.led)
    if s.led == s.trump:
        if follow:
            higher = follow & s.trump_above[s.hi_trump]
            return higher if higher else follow
        return hand
    if follow:
        return follow
    trumps = hand & s.trumpmask
    if not trumps:
        return hand
    higher = trumps & s.trump_above[s.hi_trump]
    if s.rotterdam:
        return higher if higher else trumps
    others = hand & ~s.trumpmask
    if n >= 2 and s.win_pos == n - 2:       # partner winning
        if s.hi_trump == 0:
            return hand
        r = others | higher
        return r if r else hand
    if s.hi_trump == 0:
        return trumps
    if higher:
        return higher
    return others if others else hand


cdef inline int kj_trick_roem(KJState* s, uint32_t m) noexcept nogil:
    cdef int r = 0, suit, n
    for suit in range(4):
        r += KJ_RUN[kj_suit_pattern(m, suit)]
    n = 0
    while n < 8:
        if m == (<uint32_t>0xF) << (4 * n):
            r += KJ_FOUR[n]
            break
        n += 1
    if s.stuk_mode == KJ_STUK_TRICK and (m & s.stukmask) == s.stukmask:
        r += 20
    return r


cdef inline void kj_play(KJState* s, int seat, int c, KJUndo* u) noexcept nogil:
    cdef uint32_t bit = (<uint32_t>1) << c
    cdef int pw, winner, team, taken, roem, pitb, sign
    u.tmask = s.tmask
    u.led = s.led
    u.win_pos = s.win_pos
    u.win_pow = s.win_pow
    u.hi_trump = s.hi_trump
    u.tpts = s.tpts
    u.leader = s.leader
    u.ntrick = s.ntrick
    u.accd = s.accd
    u.acct = s.acct
    u.flags = s.flags
    u.tricks_done = s.tricks_done
    u.tcard = s.tcard[s.ntrick]
    s.hands[seat] &= ~bit
    if s.stuk_mode == KJ_STUK_HAND and seat == s.stuk_seat and (bit & s.stukmask) and not (s.hands[seat] & s.stukmask):
        s.acct += 20
        s.accd += 20 if (seat & 1) == s.playing else -20
    if s.ntrick == 0:
        s.led = c & 3
        s.win_pos = 0
        s.win_pow = kj_power(s, c)
    else:
        pw = kj_power(s, c)
        if pw > s.win_pow:
            s.win_pow = pw
            s.win_pos = s.ntrick
    if s.tpow[c] > s.hi_trump:
        s.hi_trump = s.tpow[c]
    s.tcard[s.ntrick] = c
    s.tmask |= bit
    s.tpts += s.pts[c]
    s.ntrick += 1
    if s.ntrick == 4:
        winner = (s.leader + s.win_pos) & 3
        team = winner & 1
        s.tricks_done += 1
        taken = s.tpts + (10 if s.tricks_done == 8 else 0)
        roem = kj_trick_roem(s, s.tmask)
        s.flags &= (1 << team)
        pitb = s.pit if (s.tricks_done == 8 and (s.flags & (1 << team))) else 0
        sign = 1 if team == s.playing else -1
        s.accd += sign * (taken + roem + pitb)
        s.acct += roem + pitb
        s.leader = winner
        s.ntrick = 0
        s.tmask = 0
        s.tpts = 0
        s.hi_trump = 0
        s.win_pow = 0
        s.win_pos = 0


cdef inline void kj_undo(KJState* s, int seat, int c, KJUndo* u) noexcept nogil:
    s.hands[seat] |= (<uint32_t>1) << c
    s.tmask = u.tmask
    s.led = u.led
    s.win_pos = u.win_pos
    s.win_pow = u.win_pow
    s.hi_trump = u.hi_trump
    s.tpts = u.tpts
    s.leader = u.leader
    s.ntrick = u.ntrick
    s.accd = u.accd
    s.acct = u.acct
    s.flags = u.flags
    s.tricks_done = u.tricks_done
    s.tcard[u.ntrick] = u.tcard      # the roem bound reads the trick's cards


cdef inline int kj_roem_ub(KJState* s, uint32_t rem) noexcept nogil:
    """An upper bound of the roem still to be scored from the cards ``rem``."""
    # a roem takes cards of distinct players (a trick's cards count for their players)
    cdef int ub = 0, suit, n, i, wins
    cdef uint32_t p, q
    cdef uint32_t hm[4]
    hm[0] = s.hands[0]
    hm[1] = s.hands[1]
    hm[2] = s.hands[2]
    hm[3] = s.hands[3]
    for i in range(s.ntrick):
        hm[(s.leader + i) & 3] |= (<uint32_t>1) << s.tcard[i]
    rem = hm[0] | hm[1] | hm[2] | hm[3]
    for suit in range(4):
        p = kj_suit_pattern(rem, suit)
        wins = KJ_WIN3[p]
        if wins:
            wins &= ~(KJ_BAD[kj_suit_pattern(hm[0], suit)] | KJ_BAD[kj_suit_pattern(hm[1], suit)]
                      | KJ_BAD[kj_suit_pattern(hm[2], suit)] | KJ_BAD[kj_suit_pattern(hm[3], suit)])
            if wins:
                ub += KJ_RUNUB[popcount64(KJ_EXP[wins])]
    for n in range(3, 8):
        q = (<uint32_t>0xF) << (4 * n)
        if (rem & q) == q and popcount64(hm[0] & q) == 1 and popcount64(hm[1] & q) == 1 \
                and popcount64(hm[2] & q) == 1:
            ub += KJ_FOUR[n]
    if s.stuk_mode == KJ_STUK_TRICK and (rem & s.stukmask) == s.stukmask:
        for i in range(4):
            if (hm[i] & s.stukmask) == s.stukmask:
                break
        else:
            ub += 20
    elif s.stuk_mode == KJ_STUK_HAND and s.stuk_seat >= 0 and (s.hands[s.stuk_seat] & s.stukmask):
        ub += 20                # the holder has still to play the second of K, Q
    return ub


cdef inline int kj_points_of(KJState* s, uint32_t m) noexcept nogil:
    cdef int t = 0
    while m:
        t += s.pts[ctz64(m)]
        m &= m - 1
    return t


cdef inline int kj_check_limits(KJState* s) noexcept nogil:
    s.nodes += 1
    if s.node_limit and s.nodes > s.node_limit:
        s.aborted = 1
    elif s.has_deadline and (s.nodes & 1023) == 0 and clock() > s.deadline:
        s.aborted = 1
    return s.aborted


cdef inline uint64_t kj_hash(KJState* s, int meta, int accd, int acct) noexcept nogil:
    cdef uint64_t x = (<uint64_t>s.hands[0]) * <uint64_t>0x9E3779B97F4A7C15ULL
    x ^= (<uint64_t>s.hands[1]) * <uint64_t>0xC2B2AE3D27D4EB4FULL
    x ^= (<uint64_t>s.hands[2]) * <uint64_t>0x165667B19E3779F9ULL
    x ^= (<uint64_t>s.hands[3]) * <uint64_t>0xD6E8FEB86659FD93ULL
    x ^= (<uint64_t>(meta | ((accd & 0xFFFF) << 8) | (<uint64_t>(acct & 0xFFFF) << 24))) * <uint64_t>0xFF51AFD7ED558CCDULL
    x ^= x >> 29
    x *= <uint64_t>0xBF58476D1CE4E5B9ULL
    x ^= x >> 32
    return x


cdef inline KJEntry* kj_find(KJState* s, uint64_t h, int meta, int accd, int acct) noexcept nogil:
    cdef uint64_t i = h & s.ttmask
    cdef KJEntry* e
    cdef int k
    for k in range(2):
        e = &s.tt[i ^ k]
        if (e.gen == s.gen and e.meta == meta and e.h[0] == s.hands[0] and e.h[1] == s.hands[1]
                and e.h[2] == s.hands[2] and e.h[3] == s.hands[3] and e.accd == accd and e.acct == acct):
            return e
    return NULL


cdef inline void kj_store(KJState* s, uint64_t h, int meta, int accd, int acct, int lo, int hi,
                          int best, int depth) noexcept nogil:
    cdef uint64_t i = h & s.ttmask
    cdef KJEntry* e = kj_find(s, h, meta, accd, acct)
    if e != NULL:
        if lo > e.lo:
            e.lo = lo
        if hi < e.hi:
            e.hi = hi
        if best >= 0:
            e.best = best
        return
    # slot i: deepest wins; slot i ^ 1: always replaced
    e = &s.tt[i]
    if e.gen == s.gen and e.depth > depth:
        e = &s.tt[i ^ 1]
    e.h[0] = s.hands[0]
    e.h[1] = s.hands[1]
    e.h[2] = s.hands[2]
    e.h[3] = s.hands[3]
    e.accd = accd
    e.acct = acct
    e.lo = lo
    e.hi = hi
    e.gen = s.gen
    e.meta = meta
    e.best = best if best >= 0 else 255
    e.depth = depth



cdef inline uint32_t kj_merge(KJState* s, uint32_t own, uint32_t legal) noexcept nogil:
    """Drop legal cards equivalent to a kept one: 0-point cards of one suit in
    the same hand with no card of another hand (or of the trick) between them,
    that can be in no roem with cards of the other hands."""
    cdef uint32_t oth = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.tmask) & ~own
    cdef uint32_t lp, op, need, btw
    cdef int su, r, w, prev, safe
    cdef uint32_t low = legal & 0xFFFu & ~(s.trumpmask & 0xF00u)
    if (low & (low - 1)) == 0:
        return legal
    for su in range(4):
        lp = kj_suit_pattern(legal, su) & (0x3u if su == s.trump else 0x7u)
        if popcount64(lp) < 2:
            continue
        op = kj_suit_pattern(oth, su)
        prev = -1
        for r in range(3):
            if not (lp & (1u << r)):
                continue
            safe = 1
            w = r - 2 if r >= 2 else 0
            while w <= r:
                need = (7u << w) & ~(1u << r)
                if (op & need) == need:
                    safe = 0
                    break
                w += 1
            if not safe:
                continue
            if prev >= 0:
                btw = ((1u << r) - 1) & ~((1u << (prev + 1)) - 1)
                if (op & btw) == 0:
                    legal &= ~((<uint32_t>1) << (4 * r + su))
                    continue
            prev = r
    return legal

cdef inline int kj_order(KJState* s, uint32_t legal, int ttbest, int* out, int mode) noexcept nogil:
    """Legal cards in search order (best guess first); returns their number."""
    cdef int scores[8]
    cdef int cnt = 0, c, sc, pw, i, j, tmp, n = s.ntrick
    cdef int partner_win = n >= 2 and s.win_pos == n - 2
    cdef int r, pside = ((s.leader + n) & 1) == s.playing
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    while legal:
        c = ctz64(legal)
        legal &= legal - 1
        if c == ttbest:
            sc = 100000
        elif n == 0:
            # leading: a card no remaining card of its suit beats first, then low cards
            if s.tpow[c]:
                sc = 500 + s.pts[c] if not (rem & s.trump_above[s.tpow[c]]) else -s.tpow[c] - s.pts[c]
            else:
                sc = (300 + s.pts[c]) if not (rem & (0x11111111u << (c & 3)) & s.plain_above[c]) else -s.ppow[c] - s.pts[c]
        else:
            if s.tpow[c]:
                pw = 100 + s.tpow[c]
            elif (c & 3) == s.led:
                pw = s.ppow[c]
            else:
                pw = 0
            if partner_win:
                sc = (200 + s.pts[c] * 4 - pw) if pw <= s.win_pow else (pw > 100) * -50 + s.pts[c]
            elif pw > s.win_pow:
                sc = 1000 + s.pts[c] * 2 - pw
            else:
                sc = -s.pts[c] * 4 - pw
            if n == 3:
                # the last card of a trick: its roem is known
                r = kj_trick_roem(s, s.tmask | ((<uint32_t>1) << c))
                if r:
                    if mode == 0:
                        sc += 8 * r if (partner_win or pw > s.win_pow) else -8 * r
                    else:
                        sc += -8 * r if pside else 8 * r
        # insertion sort, descending
        i = cnt
        while i > 0 and scores[i - 1] < sc:
            scores[i] = scores[i - 1]
            out[i] = out[i - 1]
            i -= 1
        scores[i] = sc
        out[i] = c
        cnt += 1
    return cnt


cdef inline void kj_future_bounds(KJState* s, int* dmin, int* dmax, int* rub_out, int* pit_o) noexcept nogil:
    """Bounds of the future d (P minus other) from a trick boundary, an upper bound
    of the roem still to come, and the pit the other team may still take."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int rp = kj_points_of(s, rem) + 10
    cdef int rub = kj_roem_ub(s, rem)
    cdef int p = s.playing
    cdef int pp = s.pit if (s.flags >> p) & 1 else 0
    cdef int po = s.pit if (s.flags >> (1 - p)) & 1 else 0
    cdef int pw, c, team = -1, t, sure = 0
    cdef uint32_t bit
    # the highest remaining trumps held by one team all win for it (whatever the
    # trick they fall in), so their points are that team's and the other takes no pit
    pw = 8
    while pw >= 1:
        c = s.trump_of_pow[pw]
        bit = (<uint32_t>1) << c
        pw -= 1
        if not (rem & bit):
            continue
        t = 0 if (s.hands[0] | s.hands[2]) & bit else 1
        if team < 0:
            team = t
        elif t != team:
            break
        sure += s.pts[c]
    if team >= 0:
        if team == p:
            po = 0
            dmax[0] = rp + rub + pp
            dmin[0] = -(rp + rub) + 2 * sure
        else:
            pp = 0
            dmax[0] = rp + rub - 2 * sure
            dmin[0] = -(rp + rub + po)
    else:
        dmax[0] = rp + rub + pp
        dmin[0] = -(rp + rub + po)
    rub_out[0] = rub
    pit_o[0] = po


cdef inline void kj_last_trick(KJState* s, int* accd, int* acct) noexcept nogil:
    """Final acc d and roem when every seat holds one card (a trick boundary)."""
    cdef KJUndo u[4]
    cdef int i, seat
    cdef int cards[4]
    for i in range(4):
        seat = (s.leader + i) & 3
        cards[i] = ctz64(s.hands[seat])
        kj_play(s, seat, cards[i], &u[i])
    accd[0] = s.accd
    acct[0] = s.acct
    i = 3
    while i >= 0:
        kj_undo(s, (u[0].leader + i) & 3, cards[i], &u[i])
        i -= 1


cdef int kj_search_d(KJState* s, int alpha, int beta) noexcept nogil:
    """Minimax of the future d (P's view) from the current position, fail-soft."""
    cdef int n = s.ntrick, seat, maxi, cnt, i, c, v, best, bestc = -1, delta, before
    cdef int a0, b0, dmin, dmax, xub, po, meta = 0, ttbest = -1, a = alpha, b = beta, depth = 0
    cdef uint64_t h = 0
    cdef KJEntry* e = NULL
    cdef KJUndo u
    cdef int moves[8]
    if kj_check_limits(s):
        return 0
    if n == 0:
        if s.tricks_done == 8:
            return 0
        if s.tricks_done == 7:
            kj_last_trick(s, &dmin, &xub)
            return dmin - s.accd
        kj_future_bounds(s, &dmin, &dmax, &xub, &po)
        if dmax <= a:
            return dmax
        if dmin >= b:
            return dmin
        meta = s.leader | (s.flags << 2)
        depth = 8 - s.tricks_done
        h = kj_hash(s, meta, 0, 0)
        e = kj_find(s, h, meta, 0, 0)
        if e != NULL:
            if e.lo >= b:
                return e.lo
            if e.hi <= a:
                return e.hi
            if e.lo == e.hi:
                return e.lo
            if e.lo > a:
                a = e.lo
            if e.hi < b:
                b = e.hi
            if e.best != 255:
                ttbest = e.best
    a0 = a
    b0 = b
    seat = (s.leader + n) & 3
    maxi = (seat & 1) == s.playing
    cnt = kj_order(s, kj_merge(s, s.hands[seat], kj_legal(s, s.hands[seat])), ttbest, moves, 0)
    best = -KJ_INF if maxi else KJ_INF
    for i in range(cnt):
        c = moves[i]
        before = s.accd
        kj_play(s, seat, c, &u)
        delta = s.accd - before
        v = delta + kj_search_d(s, a - delta, b - delta)
        kj_undo(s, seat, c, &u)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                bestc = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                bestc = c
                if best < b:
                    b = best
        if a >= b:
            break
    if n == 0:
        # classify against the window actually searched (narrowed by the TT)
        a = a0
        b = b0
        if best <= a:
            kj_store(s, h, meta, 0, 0, -32000, best, bestc, depth)
        elif best >= b:
            kj_store(s, h, meta, 0, 0, best, 32000, bestc, depth)
        else:
            kj_store(s, h, meta, 0, 0, best, best, bestc, depth)
    return best


cdef int kj_search_n(KJState* s, int alpha, int beta) noexcept nogil:
    """Minimax of h = BIG if the hand is made else the (negative) net when nat;
    absolute values, fail-soft."""
    cdef int n = s.ntrick, seat, maxi, cnt, i, c, v, best, bestc = -1
    cdef int a0, b0, dmin, dmax, xub, po, meta = 0, ttbest = -1, a = alpha, b = beta, depth = 0
    cdef int need, base, lo_b, hi_b, kaccd = 0, kacct = 0, off = 0, elo, ehi
    cdef uint64_t h = 0
    cdef KJEntry* e = NULL
    cdef KJEntry* ed
    cdef KJUndo u
    cdef int moves[8]
    if kj_check_limits(s):
        return 0
    if n == 0:
        if s.tricks_done == 8:
            return KJ_BIG if s.accd > s.thr else -(162 + s.acct)
        if s.tricks_done == 7:
            kj_last_trick(s, &dmin, &xub)
            return KJ_BIG if dmin > s.thr else -(162 + xub)
        kj_future_bounds(s, &dmin, &dmax, &xub, &po)
        base = -(162 + s.acct)
        if s.accd + dmin > s.thr:
            return KJ_BIG
        need = s.thr - s.accd
        # made-ness already settled by the mode-D table?
        meta = s.leader | (s.flags << 2)
        ed = kj_find(s, kj_hash(s, meta, 0, 0), meta, 0, 0)
        if ed != NULL and ed.lo > need:
            return KJ_BIG
        xub += po                   # the playing team never takes the pit when nat
        if xub == 0:
            # no roem or pit left: h is base or BIG, decided by a mode-D test
            if dmax <= need or (ed != NULL and ed.hi <= need):
                return base
            v = kj_search_d(s, need, need + 1)
            if s.aborted:
                return 0
            return KJ_BIG if v > need else base
        # bounds: h in [base - xub, base] or BIG
        lo_b = base - xub
        hi_b = base if (dmax <= need or (ed != NULL and ed.hi <= need)) else KJ_BIG
        if hi_b <= a:
            return hi_b
        if lo_b >= b:
            return lo_b
        meta |= 16
        depth = 8 - s.tricks_done
        if dmax <= need:
            # never made below: h = base - future roem (and pit), whatever acc d and
            # the roem so far are; keyed without them, stored relative to base
            kaccd = -32768
            kacct = 0
            off = base
        else:
            kaccd = s.accd
            kacct = s.acct
        h = kj_hash(s, meta, kaccd, kacct)
        e = kj_find(s, h, meta, kaccd, kacct)
        if e != NULL:
            elo = e.lo if e.lo == -32000 else e.lo + off
            ehi = e.hi if e.hi == 32000 else e.hi + off
            if elo >= b:
                return elo
            if ehi <= a:
                return ehi
            if elo == ehi:
                return elo
            if elo > a:
                a = elo
            if ehi < b:
                b = ehi
            if e.best != 255:
                ttbest = e.best
        if ttbest < 0 and ed != NULL and ed.best != 255:
            ttbest = ed.best
    a0 = a
    b0 = b
    seat = (s.leader + n) & 3
    maxi = (seat & 1) == s.playing
    cnt = kj_order(s, kj_merge(s, s.hands[seat], kj_legal(s, s.hands[seat])), ttbest, moves, 1)
    best = -KJ_INF if maxi else KJ_INF
    for i in range(cnt):
        c = moves[i]
        kj_play(s, seat, c, &u)
        v = kj_search_n(s, a, b)
        kj_undo(s, seat, c, &u)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                bestc = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                bestc = c
                if best < b:
                    b = best
        if a >= b:
            break
    if n == 0:
        a = a0
        b = b0
        if best <= a:
            kj_store(s, h, meta, kaccd, kacct, -32000, best - off, bestc, depth)
        elif best >= b:
            kj_store(s, h, meta, kaccd, kacct, best - off, 32000, bestc, depth)
        else:
            kj_store(s, h, meta, kaccd, kacct, best - off, best - off, bestc, depth)
    return best


cdef int kj_mtdf_d(KJState* s, int lower, int upper, int guess) noexcept nogil:
    """Exact future d by MTD(f): null-window tests from ``guess``, knowing
    ``lower <= d < upper``."""
    cdef int g = guess, beta, r
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.tmask
    cdef int top = kj_points_of(s, rem) + 10 + kj_roem_ub(s, rem) + s.pit + 1
    if upper > top:
        upper = top
    while lower < upper:
        # bisection on the remaining interval, fail-soft results narrow it further
        beta = lower + (upper - lower + 1) // 2
        if beta <= lower:
            beta = lower + 1
        r = kj_search_d(s, beta - 1, beta)
        if s.aborted:
            return 0
        if r < beta:
            upper = r
        else:
            lower = r
        g = r
    return lower


cdef int kj_mtdf_n(KJState* s, int lower, int upper, int guess) noexcept nogil:
    """Exact h by MTD(f) (see :func:`kj_mtdf_d`); the nat value is below BIG."""
    cdef int g, beta, r
    # first test: is h above the nat value with no further roem?
    g = -(162 + s.acct)
    while lower < upper:
        beta = g + 1 if g == lower else g
        r = kj_search_n(s, beta - 1, beta)
        if s.aborted:
            return 0
        if r < beta:
            upper = r
        else:
            lower = r
        g = r
    return lower


cdef int kj_value(KJState* s) noexcept nogil:
    """Exact net score of the playing team from the current position."""
    cdef int need, v
    if s.tricks_done == 8:
        if s.accd > s.thr:
            return s.accd
        return -(162 + s.acct)
    cdef uint64_t n0 = s.nodes
    need = s.thr - s.accd
    v = kj_search_d(s, need, need + 1)
    s.phase_nodes[0] += s.nodes - n0
    n0 = s.nodes
    if s.aborted:
        return 0
    if v > need:
        v = kj_mtdf_d(s, v, KJ_INF, v)
        s.phase_nodes[1] += s.nodes - n0
        return s.accd + v
    v = kj_mtdf_n(s, -KJ_INF, KJ_BIG, v)
    s.phase_nodes[2] += s.nodes - n0
    return v


cdef class KlaverjasKernel:
    """Search state of the Klaverjas double-dummy solver (internal; see
    :mod:`quartet_solver.klaverjas.dd`).  ``tt_bits``: the transposition table has
    ``2 ** tt_bits`` entries of 32 bytes."""

    cdef KJState s
    cdef readonly int tt_bits

    def __cinit__(self, int tt_bits=18):
        if tt_bits < 4 or tt_bits > 30:
            raise ValueError(f"tt_bits must be 4..30, got {tt_bits}")
        memset(&self.s, 0, sizeof(KJState))
        self.tt_bits = tt_bits
        self.s.tt = <KJEntry*>calloc((<size_t>1) << tt_bits, sizeof(KJEntry))
        if self.s.tt == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.s.ttmask = ((<uint64_t>1) << tt_bits) - 1
        self.s.gen = 0

    def __dealloc__(self):
        free(self.s.tt)

    cdef void _new_generation(self) noexcept nogil:
        if self.s.gen == 65535:
            memset(self.s.tt, 0, (self.s.ttmask + 1) * sizeof(KJEntry))
            self.s.gen = 0
        self.s.gen += 1

    cdef void _setup(self, int trump, int rotterdam, int stuk_mode, int stuk_seat, int pit,
                     int tie_is_nat, int playing) noexcept nogil:
        cdef KJState* s = &self.s
        cdef int c, nat, suit, p
        s.trump = trump
        s.rotterdam = rotterdam
        s.stuk_mode = stuk_mode
        s.stuk_seat = stuk_seat
        s.pit = pit
        s.thr = 0 if tie_is_nat else -1
        s.playing = playing
        s.trumpmask = 0x11111111u << trump
        s.stukmask = ((<uint32_t>1) << (4 * 5 + trump)) | ((<uint32_t>1) << (4 * 6 + trump))
        for c in range(32):
            nat = c >> 2
            suit = c & 3
            if suit == trump:
                s.tpow[c] = KJ_TPOW[nat]
                s.pts[c] = KJ_TPTS[nat]
            else:
                s.tpow[c] = 0
                s.pts[c] = KJ_PPTS[nat]
            s.ppow[c] = KJ_PPOW[nat]
        for c in range(32):
            s.plain_above[c] = 0
            for p in range(32):
                if KJ_PPOW[p >> 2] > KJ_PPOW[c >> 2]:
                    s.plain_above[c] |= (<uint32_t>1) << p
        for c in range(32):
            if s.tpow[c]:
                s.trump_of_pow[s.tpow[c]] = c
        for p in range(9):
            s.trump_above[p] = 0
            for c in range(32):
                if s.tpow[c] > p:
                    s.trump_above[p] |= (<uint32_t>1) << c
        s.nodes = 0
        s.aborted = 0
        s.phase_nodes[0] = s.phase_nodes[1] = s.phase_nodes[2] = 0

    cdef void _load_position(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int leader,
                             int accd, int acct, int flags, int tricks_done) noexcept nogil:
        cdef KJState* s = &self.s
        s.hands[0] = h0
        s.hands[1] = h1
        s.hands[2] = h2
        s.hands[3] = h3
        s.leader = leader
        s.ntrick = 0
        s.tmask = 0
        s.tpts = 0
        s.hi_trump = 0
        s.win_pow = 0
        s.win_pos = 0
        s.led = 0
        s.accd = accd
        s.acct = acct
        s.flags = flags
        s.tricks_done = tricks_done

    def load(self, hands, trick, int leader, int trump, bint rotterdam, int stuk_mode, int stuk_seat,
             int pit, bint tie_is_nat, int playing, int accd, int acct, int flags, int tricks_done,
             bint new_generation=True):
        """Set up a position: ``hands`` four 32-bit masks (cards still held, the
        cards of ``trick`` excluded), ``trick`` the card bits of the trick in progress
        (its leader is ``leader``), ``accd`` = P's points minus the other's so far,
        ``acct`` = all roem so far, ``flags`` bit t = team t won every trick so far."""
        cdef KJUndo u
        cdef int c, seat, i
        cdef uint32_t hs[4]
        for i in range(4):
            hs[i] = hands[i]
        self._setup(trump, rotterdam, stuk_mode, stuk_seat, pit, tie_is_nat, playing)
        if new_generation:
            self._new_generation()
        # put the trick's cards back into their hands, then play them
        trick = list(trick)
        for i, c in enumerate(trick):
            hs[(leader + i) & 3] |= (<uint32_t>1) << c
        self._load_position(hs[0], hs[1], hs[2], hs[3], leader, accd, acct, flags, tricks_done)
        for i, c in enumerate(trick):
            seat = (leader + i) & 3
            # stuk "hand" was already scored by the caller: undo the kernel's scoring
            kj_play(&self.s, seat, c, &u)
            self.s.accd = u.accd
            self.s.acct = u.acct

    def set_limits(self, node_limit=None, time_limit=None):
        """Stop the next searches after ``node_limit`` nodes or ``time_limit`` seconds."""
        self.s.nodes = 0
        self.s.aborted = 0
        self.s.phase_nodes[0] = self.s.phase_nodes[1] = self.s.phase_nodes[2] = 0
        self.s.node_limit = 0 if node_limit is None else max(1, int(node_limit))
        self.s.has_deadline = time_limit is not None
        if time_limit is not None:
            self.s.deadline = clock() + <clock_t>(float(time_limit) * CLOCKS_PER_SEC)

    @property
    def nodes(self):
        return self.s.nodes

    @property
    def phase_nodes(self):
        """Nodes spent since :meth:`set_limits` in the made test, the exact d
        search and the nat search."""
        return (self.s.phase_nodes[0], self.s.phase_nodes[1], self.s.phase_nodes[2])

    @property
    def aborted(self):
        return bool(self.s.aborted)

    @property
    def to_move(self):
        return (self.s.leader + self.s.ntrick) & 3

    def trivial_bounds(self):
        """``(lower, upper)``: cheap bounds of the exact value of the position."""
        cdef KJState* s = &self.s
        cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.tmask
        cdef int rp, rub, pp, po, hi, lo
        if s.tricks_done == 8:
            v = s.accd if s.accd > s.thr else -(162 + s.acct)
            return v, v
        rp = kj_points_of(s, rem) + 10
        rub = kj_roem_ub(s, rem)
        pp = s.pit if (s.flags >> s.playing) & 1 else 0
        po = s.pit if (s.flags >> (1 - s.playing)) & 1 else 0
        hi = s.accd + rp + rub + pp
        if hi <= s.thr:
            hi = -(162 + s.acct)
        lo = -(162 + s.acct + rub + po)
        if s.accd - (rp + rub + po) > s.thr:
            lo = s.accd - (rp + rub + po)
        return lo, hi

    def finished(self):
        return self.s.tricks_done == 8

    def legal(self):
        """Legal card bits of the player to move, ascending."""
        cdef uint32_t m = kj_legal(&self.s, self.s.hands[(self.s.leader + self.s.ntrick) & 3])
        out = []
        while m:
            out.append(ctz64(m))
            m &= m - 1
        return out

    def value(self):
        """Exact net score of the playing team (meaningless if :attr:`aborted`)."""
        cdef int v
        with nogil:
            v = kj_value(&self.s)
        return v

    def move_values(self):
        """``[(card bit, exact value after it)]`` for the legal cards; stops early
        (shorter list) when a limit is hit."""
        cdef KJUndo u
        cdef int seat = (self.s.leader + self.s.ntrick) & 3
        cdef int c, v
        out = []
        for c in self.legal():
            kj_play(&self.s, seat, c, &u)
            with nogil:
                v = kj_value(&self.s)
            kj_undo(&self.s, seat, c, &u)
            if self.s.aborted:
                break
            out.append((c, v))
        return out

    def play(self, int c):
        """Play card bit ``c`` (must be legal) for the player to move."""
        cdef KJUndo u
        if c not in self.legal():
            raise ValueError(f"card bit {c} is not legal here")
        kj_play(&self.s, (self.s.leader + self.s.ntrick) & 3, c, &u)

    def pv(self, int value):
        """A principal variation from the current position whose value is ``value``:
        card bits to the end of the hand (the position is restored afterwards)."""
        cdef KJUndo undo[32]
        cdef int seats[32]
        cdef int cards[32]
        cdef int depth = 0, c, v, seat, found
        while self.s.tricks_done < 8 and not self.s.aborted:
            seat = (self.s.leader + self.s.ntrick) & 3
            found = 0
            for c in self.legal():
                kj_play(&self.s, seat, c, &undo[depth])
                with nogil:
                    v = kj_value(&self.s)
                if v == value and not self.s.aborted:
                    seats[depth] = seat
                    cards[depth] = c
                    depth += 1
                    found = 1
                    break
                kj_undo(&self.s, seat, c, &undo[depth])
            if not found:
                break
        out = [cards[i] for i in range(depth)]
        while depth > 0:
            depth -= 1
            kj_undo(&self.s, seats[depth], cards[depth], &undo[depth])
        return out

    def solve_deal(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int trump, int leader,
                   int playing, bint rotterdam=False, int stuk_mode=0, int pit=100,
                   bint tie_is_nat=True):
        """Exact net score of a full deal (hands as 32-bit masks) for the team
        ``playing``; ``leader`` leads trick 1."""
        cdef int stuk_seat = -1, i, v
        cdef uint32_t hs[4]
        cdef uint32_t sm = ((<uint32_t>1) << (20 + trump)) | ((<uint32_t>1) << (24 + trump))
        hs[0] = h0
        hs[1] = h1
        hs[2] = h2
        hs[3] = h3
        if stuk_mode == KJ_STUK_HAND:
            for i in range(4):
                if (hs[i] & sm) == sm:
                    stuk_seat = i
        with nogil:
            self._setup(trump, rotterdam, stuk_mode, stuk_seat, pit, tie_is_nat, playing)
            self._new_generation()
            self._load_position(h0, h1, h2, h3, leader, 0, 0, 3, 0)
            v = kj_value(&self.s)
        return v
