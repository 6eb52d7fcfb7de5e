# Kwartet kernels: exact card-location counting and fast random-bot games.
#
# kw_posterior: the number of assignments of the unknown cards to locations
# (opponents' hands, the side pile, and in the draw-pile game the single cards
# drawn unseen) that satisfy per-quartet constraints and the locations'
# unknown-slot capacities, and for every (location, card) the number of those
# with the card there.  A dynamic programme over quartets: the state is the count
# of unknown cards placed in locations 0 .. L-2 (the last location's count
# follows from the total).  Counts are exact unsigned 128-bit integers
# (GCC/Clang); they never exceed the multinomial n! / prod(caps!), which the
# caller checks is below 2**128.
#
# kw_count: the total alone (the forward table).
#
# kw_sample: assignments drawn exactly uniformly from those kw_posterior counts,
# by sequential conditional draws backward through the forward table (same
# tables, built by _kw_build; the draws use a splitmix64 stream and rejection,
# so each is exact).
#
# kw_play_novice: whole games between NoviceBots (uniformly random target among
# the opponents holding cards, uniformly random askable card), base rules with
# the remainder to the pile or the dealer, optional bonus turn.

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset
from libc.stdint cimport int8_t, int32_t, uint8_t, int64_t, uint64_t
import numpy as np


def kw_exact_counts():
    """True when the posterior counts use exact 128-bit integers."""
    return bool(QS_HAVE_U128)


cdef inline void _kw_add(uint64_t* hi, uint64_t* lo, qs_u128 x) noexcept nogil:
    cdef uint64_t xl = qs_u128_lo(x)
    cdef uint64_t xh = qs_u128_hi(x)
    cdef uint64_t nl = lo[0] + xl
    if nl < lo[0]:
        xh += 1
    lo[0] = nl
    hi[0] += xh


DEF KW_MAXL = 16
DEF KW_TERM = 64   # per term: 4 slots x KW_MAXL locations
DEF KW_KEYS = 8192  # hash slots for a quartet's count vectors (> 2 x C(4 + 15, 4) = 7,752)


cdef struct KwTables:
    # the dynamic programme of kw_posterior / kw_sample over one posterior
    int L, D, Q, cap_last, max_terms
    int64_t S
    int64_t stride[KW_MAXL]
    qs_u128* P        # forward counts [(Q + 1) * S]
    qs_u128* B        # backward counts [(Q + 1) * S], or NULL
    int32_t* digits   # [S * D]: the count in locations 0 .. D-1 of every state
    int32_t* dsum     # [S]
    int32_t* nterm    # [Q]: distinct count vectors ("terms") of each quartet
    int32_t* tv       # [Q * max_terms * KW_MAXL]: a term's count per location
    int64_t* tdelta   # [Q * max_terms]: a term's state step
    uint64_t* tw      # [Q * max_terms]: assignments of the quartet with that term
    uint64_t* twc     # [Q * max_terms * KW_TERM]: ... with slot j at location l
    int64_t* hkey     # [KW_KEYS]: scratch hash table, count vector key (base 5) or -1
    int32_t* hval     # [KW_KEYS]: ... its term
    int32_t* T        # [Q + 1]: unknown cards of quartets before q
    int32_t* U        # [Q + 1]: unknown cards of quartets q and after


cdef void _kw_tables_free(KwTables* tb) noexcept nogil:
    free(tb.P); free(tb.B); free(tb.digits); free(tb.dsum); free(tb.nterm); free(tb.tv); free(tb.tdelta)
    free(tb.tw); free(tb.twc); free(tb.hkey); free(tb.hval); free(tb.T); free(tb.U)


cdef int _kw_tables_alloc(KwTables* tb, int L, const int32_t[:] caps, int Q, bint backward) noexcept nogil:
    """Allocate the tables; 0 when out of memory (everything freed)."""
    cdef int d
    tb.L = L
    tb.D = L - 1
    tb.Q = Q
    # a quartet's count vectors: at most C(4 + L - 1, L - 1) = C(L + 3, 4)
    tb.max_terms = (L + 3) * (L + 2) * (L + 1) * L // 24
    tb.S = 1
    for d in range(tb.D):
        tb.stride[d] = tb.S
        tb.S *= caps[d] + 1
    tb.cap_last = caps[tb.D]
    cdef int64_t n_alloc = <int64_t>(Q + 1) * tb.S
    tb.P = <qs_u128*>calloc(n_alloc, sizeof(qs_u128))
    tb.B = <qs_u128*>calloc(n_alloc, sizeof(qs_u128)) if backward else NULL
    tb.digits = <int32_t*>malloc(max(tb.S * max(tb.D, 1), 1) * sizeof(int32_t))
    tb.dsum = <int32_t*>malloc(tb.S * sizeof(int32_t))
    tb.nterm = <int32_t*>calloc(Q, sizeof(int32_t))
    tb.tv = <int32_t*>calloc(<int64_t>Q * tb.max_terms * KW_MAXL, sizeof(int32_t))
    tb.tdelta = <int64_t*>calloc(<int64_t>Q * tb.max_terms, sizeof(int64_t))
    tb.tw = <uint64_t*>calloc(<int64_t>Q * tb.max_terms, sizeof(uint64_t))
    tb.twc = <uint64_t*>calloc(<int64_t>Q * tb.max_terms * KW_TERM, sizeof(uint64_t))
    tb.hkey = <int64_t*>malloc(KW_KEYS * sizeof(int64_t))
    tb.hval = <int32_t*>malloc(KW_KEYS * sizeof(int32_t))
    tb.T = <int32_t*>calloc(Q + 1, sizeof(int32_t))
    tb.U = <int32_t*>calloc(Q + 1, sizeof(int32_t))
    if not (tb.P and (tb.B or not backward) and tb.digits and tb.dsum and tb.nterm and tb.tv and tb.tdelta
            and tb.tw and tb.twc and tb.hkey and tb.hval and tb.T and tb.U):
        _kw_tables_free(tb)
        return 0
    return 1


cdef inline int _kw_assignment_ok(int q, int k, int L, int idx, int* a_j, const uint32_t[:] neg,
                                  const uint32_t[:] cons_locs, const uint8_t[:] cons_mask,
                                  const uint8_t[:] cons_kind, int64_t c0, int64_t c1) noexcept nogil:
    """Decode assignment ``idx`` (slot j at location a_j[j]) of quartet q's k slots and
    check the forbidden locations and the quartet's constraints c0 .. c1-1 (each on a
    set of locations, cons_locs a bitmask)."""
    cdef int j, x
    cdef int64_t s
    x = idx
    for j in range(k):
        a_j[j] = x % L
        x //= L
        if (neg[q * 4 + j] >> a_j[j]) & 1:
            return 0
    for s in range(c0, c1):
        if cons_kind[s] == 0:
            x = 0
            for j in range(k):
                if (cons_mask[s] >> j) & 1 and (cons_locs[s] >> a_j[j]) & 1:
                    x = 1
            if not x:
                return 0
        else:
            x = 1
            for j in range(k):
                if (cons_mask[s] >> j) & 1 and not (cons_locs[s] >> a_j[j]) & 1:
                    x = 0
            if x:
                return 0
    return 1


cdef inline int64_t _kw_hash_slot(KwTables* tb, int64_t key) noexcept nogil:
    """The slot of ``key`` in the open-addressing table: where it is, or the empty
    slot where it goes (the table never fills: a quartet has at most 3,876 keys)."""
    cdef int64_t h = <int64_t>((<uint64_t>key * 0x9E3779B97F4A7C15ULL) >> 51)  # 13 bits
    while tb.hkey[h] >= 0 and tb.hkey[h] != key:
        h = (h + 1) & (KW_KEYS - 1)
    return h


cdef void _kw_build(KwTables* tb, const int32_t[:] caps, const int32_t[:] ucount, const uint32_t[:] neg,
                    const int32_t[:] cons_q, const uint32_t[:] cons_locs, const uint8_t[:] cons_mask,
                    const uint8_t[:] cons_kind) noexcept nogil:
    """The state digits, the terms of every quartet and the forward counts P."""
    cdef int L = tb.L, D = tb.D, Q = tb.Q, max_terms = tb.max_terms
    cdef int64_t S = tb.S
    cdef int64_t n_cons = cons_q.shape[0]
    cdef int d, l, j, q, t, k, combos, idx, x, ok, base
    cdef int64_t s, ci, c0, c1, key, h
    cdef int a_j[4]
    cdef int v[KW_MAXL]
    cdef int64_t pw5[KW_MAXL]
    cdef qs_u128 val
    cdef int32_t* dg
    for k in range(KW_KEYS):
        tb.hkey[k] = -1
    pw5[0] = 1
    for l in range(1, KW_MAXL):
        pw5[l] = pw5[l - 1] * 5
    # digits of every state
    for s in range(S):
        x = 0
        for d in range(D):
            tb.digits[s * D + d] = <int32_t>((s // tb.stride[d]) % (caps[d] + 1))
            x += tb.digits[s * D + d]
        tb.dsum[s] = x
    for q in range(Q):
        tb.T[q + 1] = tb.T[q] + ucount[q]
    for q in range(Q - 1, -1, -1):
        tb.U[q] = tb.U[q + 1] + ucount[q]
    # terms of each quartet
    ci = 0
    for q in range(Q):
        c0 = ci
        while ci < n_cons and cons_q[ci] == q:
            ci += 1
        c1 = ci
        k = ucount[q]
        combos = 1
        for j in range(k):
            combos *= L
        for idx in range(combos):
            if not _kw_assignment_ok(q, k, L, idx, a_j, neg, cons_locs, cons_mask, cons_kind, c0, c1):
                continue
            for l in range(L):
                v[l] = 0
            for j in range(k):
                v[a_j[j]] += 1
            ok = 1
            for l in range(L):
                if v[l] > caps[l]:
                    ok = 0
            if not ok:
                continue
            key = 0
            for l in range(L):
                key += v[l] * pw5[l]
            h = _kw_hash_slot(tb, key)
            if tb.hkey[h] < 0:
                t = tb.nterm[q]
                tb.nterm[q] += 1
                tb.hkey[h] = key
                tb.hval[h] = t
                base = (q * max_terms + t)
                tb.tdelta[base] = 0
                for l in range(L):
                    tb.tv[base * KW_MAXL + l] = v[l]
                for d in range(D):
                    tb.tdelta[base] += v[d] * tb.stride[d]
            t = tb.hval[h]
            base = (q * max_terms + t)
            tb.tw[base] += 1
            for j in range(k):
                tb.twc[base * KW_TERM + j * KW_MAXL + a_j[j]] += 1
        # empty the hash table (whole: removing keys one by one would cut probe chains)
        for k in range(KW_KEYS):
            tb.hkey[k] = -1
    # forward: P[q] over states, last location count = T[q] - dsum
    tb.P[0] = 1
    for q in range(Q):
        for s in range(S):
            val = tb.P[<int64_t>q * S + s]
            if val == 0:
                continue
            dg = tb.digits + s * D
            for t in range(tb.nterm[q]):
                base = q * max_terms + t
                ok = 1
                for d in range(D):
                    if dg[d] + tb.tv[base * KW_MAXL + d] > caps[d]:
                        ok = 0
                        break
                if not ok or tb.T[q] - tb.dsum[s] + tb.tv[base * KW_MAXL + D] > tb.cap_last:
                    continue
                tb.P[<int64_t>(q + 1) * S + s + tb.tdelta[base]] += val * tb.tw[base]


def kw_count(int L, const int32_t[:] caps, int Q, const int32_t[:] ucount,
             const uint32_t[:] neg, const int32_t[:] cons_q, const uint32_t[:] cons_locs,
             const uint8_t[:] cons_mask, const uint8_t[:] cons_kind):
    """The number of consistent assignments alone (kw_posterior's total, from the
    forward table only), as (total_hi, total_lo)."""
    if L < 1 or L > KW_MAXL:
        raise ValueError(f"kw_count: L must be 1..{KW_MAXL}, got {L}")
    cdef KwTables tb
    if not _kw_tables_alloc(&tb, L, caps, Q, False):
        raise MemoryError("kw_count: out of memory")
    cdef qs_u128 total = 0
    try:
        with nogil:
            _kw_build(&tb, caps, ucount, neg, cons_q, cons_locs, cons_mask, cons_kind)
            total = tb.P[<int64_t>Q * tb.S + tb.S - 1]
    finally:
        _kw_tables_free(&tb)
    return int(qs_u128_hi(total)), int(qs_u128_lo(total))


def kw_posterior(int L, const int32_t[:] caps, int Q, const int32_t[:] ucount,
                 const uint32_t[:] neg, const int32_t[:] cons_q, const uint32_t[:] cons_locs,
                 const uint8_t[:] cons_mask, const uint8_t[:] cons_kind):
    """Count consistent assignments (see the file comment).

    caps[L]: unknown slots per location (L <= 16); ucount[Q]: unknown cards per
    quartet (slots 0..ucount-1); neg[Q*4]: forbidden-location bitmask per slot;
    constraints sorted by quartet, each on a set of locations (cons_locs, a
    bitmask): kind 0 = "the set holds >= 1 slot of mask", kind 1 = "the set does
    not hold every slot of mask".
    Returns (total_hi, total_lo, num_hi[L, Q, 4], num_lo[L, Q, 4]).
    """
    if L < 1 or L > KW_MAXL:
        raise ValueError(f"kw_posterior: L must be 1..{KW_MAXL}, got {L}")
    cdef KwTables tb
    if not _kw_tables_alloc(&tb, L, caps, Q, True):
        raise MemoryError("kw_posterior: out of memory")
    num_hi_arr = np.zeros((L, Q, 4), dtype=np.uint64)
    num_lo_arr = np.zeros((L, Q, 4), dtype=np.uint64)
    cdef uint64_t[:, :, :] num_hi = num_hi_arr
    cdef uint64_t[:, :, :] num_lo = num_lo_arr
    cdef qs_u128 total = 0
    cdef int64_t S = tb.S
    cdef int D = tb.D, max_terms = tb.max_terms
    cdef int64_t s, a, m, target
    cdef int d, l, j, q, t, ok, base
    cdef qs_u128 val, R
    cdef uint64_t w
    cdef int32_t* dg
    cdef int32_t* dm
    try:
        with nogil:
            _kw_build(&tb, caps, ucount, neg, cons_q, cons_locs, cons_mask, cons_kind)
            # backward: B[q] = quartets q..Q-1, last location count = U[q] - dsum
            tb.B[<int64_t>Q * S] = 1
            for q in range(Q - 1, -1, -1):
                for s in range(S):
                    val = tb.B[<int64_t>(q + 1) * S + s]
                    if val == 0:
                        continue
                    dg = tb.digits + s * D
                    for t in range(tb.nterm[q]):
                        base = q * max_terms + t
                        ok = 1
                        for d in range(D):
                            if dg[d] + tb.tv[base * KW_MAXL + d] > caps[d]:
                                ok = 0
                                break
                        if not ok or tb.U[q + 1] - tb.dsum[s] + tb.tv[base * KW_MAXL + D] > tb.cap_last:
                            continue
                        tb.B[<int64_t>q * S + s + tb.tdelta[base]] += val * tb.tw[base]
            target = S - 1
            total = tb.P[<int64_t>Q * S + target]
            # marginals
            if total != 0:
                for q in range(Q):
                    for t in range(tb.nterm[q]):
                        base = q * max_terms + t
                        m = target - tb.tdelta[base]
                        dm = tb.digits + m * D
                        R = 0
                        for a in range(m + 1):
                            val = tb.P[<int64_t>q * S + a]
                            if val == 0:
                                continue
                            dg = tb.digits + a * D
                            ok = 1
                            for d in range(D):
                                if dg[d] > dm[d]:
                                    ok = 0
                                    break
                            if ok:
                                R += val * tb.B[<int64_t>(q + 1) * S + m - a]
                        if R == 0:
                            continue
                        for j in range(ucount[q]):
                            for l in range(L):
                                w = tb.twc[base * KW_TERM + j * KW_MAXL + l]
                                if w:
                                    _kw_add(&num_hi[l, q, j], &num_lo[l, q, j], R * w)
    finally:
        _kw_tables_free(&tb)
    return int(qs_u128_hi(total)), int(qs_u128_lo(total)), num_hi_arr, num_lo_arr


cdef inline qs_u128 _kw_below(qs_u128 bound, uint64_t* st) noexcept nogil:
    """A uniformly random integer in [0, bound), bound > 0, by rejection: draw as
    many random bits as bound has and retry above it (exact with QS_HAVE_U128)."""
    cdef uint64_t bh = qs_u128_hi(bound), bl = qs_u128_lo(bound)
    cdef uint64_t mh, ml, rh, rl
    cdef qs_u128 r
    cdef qs_u128 two64 = (<qs_u128>0xFFFFFFFFFFFFFFFFULL) + 1
    if bh == 0:
        ml = bl - 1
        ml |= ml >> 1; ml |= ml >> 2; ml |= ml >> 4; ml |= ml >> 8; ml |= ml >> 16; ml |= ml >> 32
        while True:
            rl = qs_splitmix64(st) & ml
            if rl < bl:
                return <qs_u128>rl
    mh = bh
    mh |= mh >> 1; mh |= mh >> 2; mh |= mh >> 4; mh |= mh >> 8; mh |= mh >> 16; mh |= mh >> 32
    while True:
        rh = qs_splitmix64(st) & mh
        rl = qs_splitmix64(st)
        if rh < bh or (rh == bh and rl < bl):
            r = (<qs_u128>rh) * two64 + rl
            return r


def kw_sample(int L, const int32_t[:] caps, int Q, const int32_t[:] ucount,
              const uint32_t[:] neg, const int32_t[:] cons_q, const uint32_t[:] cons_locs,
              const uint8_t[:] cons_mask, const uint8_t[:] cons_kind, int64_t n, uint64_t seed):
    """``n`` assignments drawn exactly uniformly from those kw_posterior counts.

    Backward through the forward table P: at quartet q and state s (of quartets
    0..q), a term t is drawn with weight P[q][s - t] * tw[t] (these sum to
    P[q + 1][s]), then one of the term's tw[t] slot assignments uniformly; so every
    consistent assignment has probability 1 / total.  Returns an int8 array
    [n, Q, 4]: the location (0..L-1) of each unknown slot, -1 for no slot; raises
    ValueError when no assignment is consistent.
    """
    if L < 1 or L > KW_MAXL:
        raise ValueError(f"kw_sample: L must be 1..{KW_MAXL}, got {L}")
    cdef KwTables tb
    if not _kw_tables_alloc(&tb, L, caps, Q, False):
        raise MemoryError("kw_sample: out of memory")
    out_arr = np.full((n, Q, 4), -1, dtype=np.int8)
    cdef int8_t[:, :, :] out = out_arr
    cdef int64_t S = tb.S
    cdef int D = tb.D, max_terms = tb.max_terms
    cdef int64_t i, s, a, n_cons = cons_q.shape[0]
    cdef int64_t* c_start = <int64_t*>calloc(Q + 1, sizeof(int64_t))
    cdef int d, j, q, t, ok, base, k, idx, combos, l, chosen
    cdef int a_j[4]
    cdef int v[KW_MAXL]
    cdef qs_u128 r, w, total = 0
    cdef uint64_t st = seed
    cdef uint64_t r2
    cdef int32_t* dg
    cdef int32_t* da
    if not c_start:
        _kw_tables_free(&tb)
        raise MemoryError("kw_sample: out of memory")
    try:
        with nogil:
            _kw_build(&tb, caps, ucount, neg, cons_q, cons_locs, cons_mask, cons_kind)
            total = tb.P[<int64_t>Q * S + S - 1]
            a = 0
            for q in range(Q + 1):
                while a < n_cons and cons_q[a] < q:
                    a += 1
                c_start[q] = a
            if total != 0:
                for i in range(n):
                    s = S - 1
                    for q in range(Q - 1, -1, -1):
                        r = _kw_below(tb.P[<int64_t>(q + 1) * S + s], &st)
                        dg = tb.digits + s * D
                        chosen = -1
                        for t in range(tb.nterm[q]):
                            base = q * max_terms + t
                            ok = 1
                            for d in range(D):
                                if dg[d] < tb.tv[base * KW_MAXL + d]:
                                    ok = 0
                                    break
                            if not ok:
                                continue
                            a = s - tb.tdelta[base]
                            if tb.P[<int64_t>q * S + a] == 0:
                                continue
                            if tb.T[q] - tb.dsum[a] + tb.tv[base * KW_MAXL + D] > tb.cap_last:
                                continue
                            w = tb.P[<int64_t>q * S + a] * tb.tw[base]
                            if r < w:
                                chosen = t
                                break
                            r -= w
                        # chosen >= 0: the weights sum to P[q + 1][s] > r
                        base = q * max_terms + chosen
                        s -= tb.tdelta[base]
                        # the r2-th slot assignment with this term's counts
                        r2 = <uint64_t>_kw_below(<qs_u128>tb.tw[base], &st)
                        k = ucount[q]
                        combos = 1
                        for j in range(k):
                            combos *= L
                        for idx in range(combos):
                            if not _kw_assignment_ok(q, k, L, idx, a_j, neg, cons_locs, cons_mask, cons_kind,
                                                     c_start[q], c_start[q + 1]):
                                continue
                            for l in range(L):
                                v[l] = 0
                            for j in range(k):
                                v[a_j[j]] += 1
                            ok = 1
                            for l in range(L):
                                if v[l] != tb.tv[base * KW_MAXL + l]:
                                    ok = 0
                                    break
                            if not ok:
                                continue
                            if r2 == 0:
                                for j in range(k):
                                    out[i, q, j] = <int8_t>a_j[j]
                                break
                            r2 -= 1
    finally:
        _kw_tables_free(&tb)
        free(c_start)
    if total == 0:
        raise ValueError("kw_sample: no consistent assignment")
    return out_arr


def kw_play_novice(int n_quartets, int players, int set_aside_dealer, int bonus,
                   int64_t games, uint64_t seed, int64_t max_asks):
    """Play ``games`` games between NoviceBots; returns (quartets[g, p], last_lay[g, p], asks[g]).

    ``set_aside_dealer``: 0 = the deal's remainder to the side pile, 1 = to the dealer
    (seat players - 1).  Game g is dealt from a splitmix64 stream seeded by
    ``seed`` and g.  ``asks[g] = -1`` marks a game stopped at ``max_asks``.
    """
    if n_quartets < 2 or n_quartets > 13 or players < 2 or players > 6:
        raise ValueError("kw_play_novice: bad sizes")
    quart_arr = np.zeros((games, players), dtype=np.int32)
    last_arr = np.full((games, players), -1, dtype=np.int32)
    asks_arr = np.zeros(games, dtype=np.int64)
    cdef int32_t[:, :] quart = quart_arr
    cdef int32_t[:, :] last = last_arr
    cdef int64_t[:] asks_out = asks_arr
    cdef int n = 4 * n_quartets
    cdef int deck[52]
    cdef uint64_t hands[6]
    cdef int targets[6]
    cdef uint64_t st, r, pile, hand, askable, h
    cdef int64_t g, asks
    cdef int i, j, p, t, c, q, nt, each, dealer, laid, blocked, lay_count, free_m, over, steps, cnt
    with nogil:
        for g in range(games):
            st = seed * 0x100000001B3ULL + <uint64_t>g * 0x9E3779B97F4A7C15ULL + 1
            for i in range(n):
                deck[i] = i
            for i in range(n - 1, 0, -1):
                j = <int>(qs_splitmix64(&st) % <uint64_t>(i + 1))
                c = deck[i]
                deck[i] = deck[j]
                deck[j] = c
            dealer = players - 1
            each = n // players
            for p in range(players):
                hands[p] = 0
            for i in range(each * players):
                hands[(dealer + 1 + i) % players] |= (<uint64_t>1) << deck[i]
            pile = 0
            for i in range(each * players, n):
                if set_aside_dealer:
                    hands[dealer] |= (<uint64_t>1) << deck[i]
                else:
                    pile |= (<uint64_t>1) << deck[i]
            blocked = 0
            for q in range(n_quartets):
                if (pile >> (4 * q)) & 15:
                    blocked += 1
            laid = 0
            lay_count = 0
            for p in range(players):
                for q in range(n_quartets):
                    if (hands[p] >> (4 * q)) & 15 == 15:
                        hands[p] &= ~((<uint64_t>15) << (4 * q))
                        quart[g, p] += 1
                        last[g, p] = lay_count
                        lay_count += 1
                        laid += 1
            over = laid + blocked == n_quartets
            p = 0
            asks = 0
            free_m = 0
            steps = 0
            while not over:
                hand = hands[p]
                nt = 0
                if hand:
                    for t in range(players):
                        if t != p and hands[t]:
                            targets[nt] = t
                            nt += 1
                if nt == 0:
                    free_m = 0
                    p = (p + 1) % players
                    steps += 1
                    if steps > players:
                        over = 1  # nobody can act
                    continue
                steps = 0
                askable = 0
                for q in range(n_quartets):
                    if (hand >> (4 * q)) & 15:
                        askable |= (<uint64_t>15) << (4 * q)
                askable &= ~hand
                t = targets[qs_splitmix64(&st) % <uint64_t>nt]
                cnt = popcount64(askable)
                i = <int>(qs_splitmix64(&st) % <uint64_t>cnt)
                h = askable
                for j in range(i):
                    h &= h - 1
                c = ctz64(h)
                asks += 1
                if asks > max_asks:
                    asks = -1
                    break
                if (hands[t] >> c) & 1:
                    hands[t] &= ~((<uint64_t>1) << c)
                    hands[p] |= (<uint64_t>1) << c
                    q = c >> 2
                    if (hands[p] >> (4 * q)) & 15 == 15:
                        hands[p] &= ~((<uint64_t>15) << (4 * q))
                        quart[g, p] += 1
                        last[g, p] = lay_count
                        lay_count += 1
                        laid += 1
                        if bonus:
                            free_m += 1
                        if laid + blocked == n_quartets:
                            over = 1
                            break
                    if hands[p] == 0:
                        free_m = 0
                        p = (p + 1) % players
                else:
                    if free_m > 0:
                        free_m -= 1
                    else:
                        p = (p + 1) % players
            asks_out[g] = asks
    return quart_arr, last_arr, asks_arr
