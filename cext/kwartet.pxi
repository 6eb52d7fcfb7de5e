# Kwartet kernels: exact card-location counting and fast random-bot games.
#
# kw_posterior: the number of assignments of the unknown cards to locations
# (opponents' hands, the side pile) that satisfy per-quartet constraints and the
# locations' unknown-slot capacities, and for every (location, card) the number
# of those with the card there.  A dynamic programme over quartets: the state is
# the count of unknown cards placed in locations 0 .. L-2 (the last location's
# count follows from the total).  Counts are exact unsigned 128-bit integers
# (GCC/Clang); they never exceed 6**48 < 2**128.
#
# kw_play_novice: whole games between NoviceBots (uniformly random target among
# the opponents holding cards, uniformly random askable card), base rules with
# the remainder to the pile or the dealer, optional bonus turn.

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset
from libc.stdint cimport int32_t, uint8_t, int64_t, uint64_t
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


DEF KW_MAXL = 6
DEF KW_TERM = 24   # per term: 4 slots x KW_MAXL locations
DEF KW_KEYS = 15625  # 5 ** KW_MAXL


def kw_posterior(int L, const int32_t[:] caps, int Q, const int32_t[:] ucount,
                 const uint8_t[:] neg, const int32_t[:] cons_q, const int32_t[:] cons_loc,
                 const uint8_t[:] cons_mask, const uint8_t[:] cons_kind):
    """Count consistent assignments (see the file comment).

    caps[L]: unknown slots per location; ucount[Q]: unknown cards per quartet
    (slots 0..ucount-1); neg[Q*4]: forbidden-location bitmask per slot;
    constraints sorted by quartet: kind 0 = "location holds >= 1 slot of mask",
    kind 1 = "location does not hold every slot of mask".
    Returns (total_hi, total_lo, num_hi[L, Q, 4], num_lo[L, Q, 4]).
    """
    if L < 1 or L > KW_MAXL:
        raise ValueError(f"kw_posterior: L must be 1..{KW_MAXL}, got {L}")
    cdef int D = L - 1
    cdef int d, l, j, q, t, k
    cdef int64_t S = 1
    cdef int64_t stride[KW_MAXL]
    for d in range(D):
        stride[d] = S
        S *= caps[d] + 1
    cdef int64_t n_cons = cons_q.shape[0]
    cdef int max_terms = 210  # C(4 + 6 - 1, 6 - 1) = 126 < 210
    cdef int64_t n_alloc = <int64_t>(Q + 1) * S
    cdef qs_u128* P = <qs_u128*>calloc(n_alloc, sizeof(qs_u128))
    cdef qs_u128* B = <qs_u128*>calloc(n_alloc, sizeof(qs_u128))
    cdef int32_t* digits = <int32_t*>malloc(max(S * max(D, 1), 1) * sizeof(int32_t))
    cdef int32_t* dsum = <int32_t*>malloc(S * sizeof(int32_t))
    cdef int32_t* nterm = <int32_t*>calloc(Q, sizeof(int32_t))
    cdef int32_t* tv = <int32_t*>calloc(<int64_t>Q * max_terms * KW_MAXL, sizeof(int32_t))
    cdef int64_t* tdelta = <int64_t*>calloc(<int64_t>Q * max_terms, sizeof(int64_t))
    cdef uint64_t* tw = <uint64_t*>calloc(<int64_t>Q * max_terms, sizeof(uint64_t))
    cdef uint64_t* twc = <uint64_t*>calloc(<int64_t>Q * max_terms * KW_TERM, sizeof(uint64_t))
    cdef int32_t* keymap = <int32_t*>malloc(KW_KEYS * sizeof(int32_t))
    cdef int32_t* T = <int32_t*>calloc(Q + 1, sizeof(int32_t))
    cdef int32_t* U = <int32_t*>calloc(Q + 1, sizeof(int32_t))
    if not (P and B and digits and dsum and nterm and tv and tdelta and tw and twc and keymap and T and U):
        free(P); free(B); free(digits); free(dsum); free(nterm); free(tv); free(tdelta); free(tw); free(twc)
        free(keymap); free(T); free(U)
        raise MemoryError("kw_posterior: out of memory")
    num_hi_arr = np.zeros((L, Q, 4), dtype=np.uint64)
    num_lo_arr = np.zeros((L, Q, 4), dtype=np.uint64)
    cdef uint64_t[:, :, :] num_hi = num_hi_arr
    cdef uint64_t[:, :, :] num_lo = num_lo_arr
    cdef qs_u128 total = 0
    cdef int64_t s, s2, a, m, target
    cdef int64_t ci, c0, c1
    cdef int combos, idx, x, key, ok, base, cap_last
    cdef int a_j[4]
    cdef int v[KW_MAXL]
    cdef int pw5[KW_MAXL]
    cdef qs_u128 val, R
    cdef qs_u128* num = NULL
    cdef uint64_t w
    cdef int32_t* dg
    cdef int32_t* dm
    try:
        with nogil:
            for k in range(KW_KEYS):
                keymap[k] = -1
            pw5[0] = 1
            for l in range(1, KW_MAXL):
                pw5[l] = pw5[l - 1] * 5
            # digits of every state
            for s in range(S):
                x = 0
                for d in range(D):
                    digits[s * D + d] = <int32_t>((s // stride[d]) % (caps[d] + 1))
                    x += digits[s * D + d]
                dsum[s] = x
            cap_last = caps[D]
            for q in range(Q):
                T[q + 1] = T[q] + ucount[q]
            for q in range(Q - 1, -1, -1):
                U[q] = U[q + 1] + ucount[q]
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
                    x = idx
                    ok = 1
                    for j in range(k):
                        a_j[j] = x % L
                        x //= L
                        if (neg[q * 4 + j] >> a_j[j]) & 1:
                            ok = 0
                    if not ok:
                        continue
                    for s in range(c0, c1):
                        if cons_kind[s] == 0:
                            x = 0
                            for j in range(k):
                                if (cons_mask[s] >> j) & 1 and a_j[j] == cons_loc[s]:
                                    x = 1
                            if not x:
                                ok = 0
                                break
                        else:
                            x = 1
                            for j in range(k):
                                if (cons_mask[s] >> j) & 1 and a_j[j] != cons_loc[s]:
                                    x = 0
                            if x:
                                ok = 0
                                break
                    if not ok:
                        continue
                    for l in range(L):
                        v[l] = 0
                    for j in range(k):
                        v[a_j[j]] += 1
                    for l in range(L):
                        if v[l] > caps[l]:
                            ok = 0
                    if not ok:
                        continue
                    key = 0
                    for l in range(L):
                        key += v[l] * pw5[l]
                    t = keymap[key]
                    if t < 0:
                        t = nterm[q]
                        nterm[q] += 1
                        keymap[key] = t
                        base = (q * max_terms + t)
                        tdelta[base] = 0
                        for l in range(L):
                            tv[base * KW_MAXL + l] = v[l]
                        for d in range(D):
                            tdelta[base] += v[d] * stride[d]
                    base = (q * max_terms + t)
                    tw[base] += 1
                    for j in range(k):
                        twc[base * KW_TERM + j * KW_MAXL + a_j[j]] += 1
                # reset the key map
                for t in range(nterm[q]):
                    base = q * max_terms + t
                    key = 0
                    for l in range(L):
                        key += tv[base * KW_MAXL + l] * pw5[l]
                    keymap[key] = -1
            # forward: P[q] over states, last location count = T[q] - dsum
            P[0] = 1
            for q in range(Q):
                for s in range(S):
                    val = P[<int64_t>q * S + s]
                    if val == 0:
                        continue
                    dg = digits + s * D
                    for t in range(nterm[q]):
                        base = q * max_terms + t
                        ok = 1
                        for d in range(D):
                            if dg[d] + tv[base * KW_MAXL + d] > caps[d]:
                                ok = 0
                                break
                        if not ok or T[q] - dsum[s] + tv[base * KW_MAXL + D] > cap_last:
                            continue
                        P[<int64_t>(q + 1) * S + s + tdelta[base]] += val * tw[base]
            # backward: B[q] = quartets q..Q-1, last location count = U[q] - dsum
            B[<int64_t>Q * S] = 1
            for q in range(Q - 1, -1, -1):
                for s in range(S):
                    val = B[<int64_t>(q + 1) * S + s]
                    if val == 0:
                        continue
                    dg = digits + s * D
                    for t in range(nterm[q]):
                        base = q * max_terms + t
                        ok = 1
                        for d in range(D):
                            if dg[d] + tv[base * KW_MAXL + d] > caps[d]:
                                ok = 0
                                break
                        if not ok or U[q + 1] - dsum[s] + tv[base * KW_MAXL + D] > cap_last:
                            continue
                        B[<int64_t>q * S + s + tdelta[base]] += val * tw[base]
            target = S - 1
            total = P[<int64_t>Q * S + target]
            # marginals
            if total != 0:
                for q in range(Q):
                    for t in range(nterm[q]):
                        base = q * max_terms + t
                        m = target - tdelta[base]
                        dm = digits + m * D
                        R = 0
                        for a in range(m + 1):
                            val = P[<int64_t>q * S + a]
                            if val == 0:
                                continue
                            dg = digits + a * D
                            ok = 1
                            for d in range(D):
                                if dg[d] > dm[d]:
                                    ok = 0
                                    break
                            if ok:
                                R += val * B[<int64_t>(q + 1) * S + m - a]
                        if R == 0:
                            continue
                        for j in range(ucount[q]):
                            for l in range(L):
                                w = twc[base * KW_TERM + j * KW_MAXL + l]
                                if w:
                                    _kw_add(&num_hi[l, q, j], &num_lo[l, q, j], R * w)
    finally:
        free(P); free(B); free(digits); free(dsum); free(nterm); free(tv); free(tdelta); free(tw); free(twc)
        free(keymap); free(T); free(U)
    return int(qs_u128_hi(total)), int(qs_u128_lo(total)), num_hi_arr, num_lo_arr


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
