# Exact Pareto frontier of a Quintet deal's splits, and best responses over it.
#
# A split of the deal's 5k cards into k hands matters only through the multiset
# of its hand strengths, and a split whose sorted strengths are componentwise >=
# another's weakly dominates it.  The frontier (the non-dominated sorted vectors)
# is computed exactly:
#
#   phase 1: each suit contributes no flush hand or one 5-card hand of that suit
#            (two would need 10 cards of one suit; there are 8);
#   phase 2: the remaining cards are split as a RANK MULTISET (8 counts 0..4) into
#            rank hands, each scored as a non-flush hand; the frontier of every
#            count vector is memoised; the hand holding the lowest present rank is
#            chosen first, so each multiset split is met once.
#
# Exactness: every real split is such a path with the same strengths (its
# flushes in phase 1, the rest in phase 2); every path is realised by real cards
# (flush cards first, then any card of each rank), whose hands are never weaker
# than the path says (an accidental flush only helps).  So the path frontier
# equals the split frontier, and the best path is an exact best response.
#
# Vectors: strengths sorted descending, 10 bits per field, field i at bit
# 10 * (MAXK - 1 - i), so integer order is lexicographic order and "u >= v
# componentwise" is two guarded subtractions (see vec_geq).

from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memcpy
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    NMS = 784       # 5-card rank multisets over 8 ranks with counts <= 4
    MAXK = 6        # 6 groups use 30 of the 32 cards
    MAXOPT = 64     # flush options per suit: at most C(8, 5) = 56

# Componentwise >= by guarded subtraction, done separately on alternate fields so
# that each field has 10 free bits above it for the guard: values up to 1023 work
# (the full-kicker mode has 840 classes).
cdef uint64_t VMASK_A = 0, VMASK_B = 0, VGUARD_A = 0, VGUARD_B = 0
cdef uint32_t NIB_HIGH = 0x88888888u

cdef uint32_t MS_PACK[NMS]      # nibble-packed rank counts of each multiset
cdef uint8_t MS_COUNT[NMS][8]
cdef uint32_t MS_MASK[NMS]      # a non-flush 32-bit hand with these ranks
cdef int MS_BYMIN[9]            # multisets with lowest rank r: [MS_BYMIN[r], MS_BYMIN[r + 1])


cdef void _init_multisets() noexcept nogil:
    cdef int i, r, q, n = 0, lowest, suit
    cdef int counts[8]
    cdef int a, b, c, d, e
    global VMASK_A, VMASK_B, VGUARD_A, VGUARD_B
    for i in range(MAXK):
        if i % 2 == 0:
            VMASK_A |= (<uint64_t>1023) << (10 * i)
            VGUARD_A |= (<uint64_t>1024) << (10 * i)
        else:
            VMASK_B |= (<uint64_t>1023) << (10 * i)
            VGUARD_B |= (<uint64_t>1024) << (10 * i)
    # enumerate sorted rank tuples a <= b <= c <= d <= e, grouped by lowest rank a
    for lowest in range(8):
        MS_BYMIN[lowest] = n
        a = lowest
        for b in range(a, 8):
            for c in range(b, 8):
                for d in range(c, 8):
                    for e in range(d, 8):
                        for r in range(8):
                            counts[r] = 0
                        counts[a] += 1
                        counts[b] += 1
                        counts[c] += 1
                        counts[d] += 1
                        counts[e] += 1
                        if counts[a] > 4 or counts[b] > 4 or counts[c] > 4 or counts[d] > 4 or counts[e] > 4:
                            continue
                        MS_PACK[n] = 0
                        MS_MASK[n] = 0
                        suit = 0
                        for r in range(8):
                            MS_COUNT[n][r] = counts[r]
                            MS_PACK[n] |= (<uint32_t>counts[r]) << (4 * r)
                            for q in range(counts[r]):
                                # consecutive suits: distinct within a rank, never all five equal
                                MS_MASK[n] |= (<uint32_t>1) << (4 * r + (suit & 3))
                                suit += 1
                        n += 1
    MS_BYMIN[8] = n


_init_multisets()


cdef inline uint64_t vec_insert(uint64_t u, uint64_t s) noexcept nogil:
    """Insert strength s into the packed descending vector u (zero-padded tail)."""
    cdef int i
    cdef uint64_t f, out = 0, carry = s
    for i in range(MAXK):
        f = (u >> (10 * (MAXK - 1 - i))) & 1023
        if carry > f:
            out |= carry << (10 * (MAXK - 1 - i))
            carry = f
        else:
            out |= f << (10 * (MAXK - 1 - i))
    return out


cdef inline bint vec_geq(uint64_t u, uint64_t v) noexcept nogil:
    """Componentwise u >= v of packed vectors."""
    return ((((u & VMASK_A) | VGUARD_A) - (v & VMASK_A)) & VGUARD_A) == VGUARD_A and \
           ((((u & VMASK_B) | VGUARD_B) - (v & VMASK_B)) & VGUARD_B) == VGUARD_B


cdef int _cmp_desc(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<uint64_t*>a)[0], y = (<uint64_t*>b)[0]
    return (x < y) - (x > y)


cdef int pareto_inplace(uint64_t* c, int n) noexcept nogil:
    """Keep the unique non-dominated vectors of c[0:n] in c[0:m], descending; return m."""
    cdef int i, j, m = 0
    cdef uint64_t v
    cdef bint dominated
    if n <= 1:
        return n
    qsort(c, n, sizeof(uint64_t), _cmp_desc)
    for i in range(n):
        v = c[i]
        if m > 0 and c[m - 1] == v:
            continue
        dominated = False
        for j in range(m):
            if vec_geq(c[j], v):
                dominated = True
                break
        if not dominated:
            c[m] = v
            m += 1
    return m


cdef struct FrontierCtx:
    int k
    uint32_t c0             # packed rank counts of the deal
    int stride[8]           # mixed-radix strides of the count-vector index
    int nstates
    int32_t* off            # memo: offset of a state's frontier in pool, or
    int32_t* cnt            #       -1 in cnt when not computed yet
    uint64_t* pool
    int64_t pool_len
    int64_t pool_cap
    uint64_t* cand[MAXK + 2]   # scratch Pareto sets, one per level
    int64_t cand_cap[MAXK + 2]
    int32_t ms_delta[NMS]
    uint16_t ms_str[NMS]       # non-flush strength of each multiset (mode dependent)
    uint16_t flush_str[256]    # strength of a one-suit hand with this 8-bit rank set
    int64_t nodes
    int oom


cdef int cand_push(FrontierCtx* x, int level, int64_t n, uint64_t v) noexcept nogil:
    cdef uint64_t* grown
    if n >= x.cand_cap[level]:
        grown = <uint64_t*>realloc(x.cand[level], (2 * x.cand_cap[level] + 1024) * sizeof(uint64_t))
        if grown == NULL:
            x.oom = 1
            return -1
        x.cand[level] = grown
        x.cand_cap[level] = 2 * x.cand_cap[level] + 1024
    x.cand[level][n] = v
    return 0


cdef inline int64_t pareto_add(FrontierCtx* x, int level, int64_t n, uint64_t v) noexcept nogil:
    """Add v to the online Pareto set x.cand[level][0:n]; return the new size."""
    cdef int64_t i, m
    cdef uint64_t* c = x.cand[level]
    for i in range(n):
        if vec_geq(c[i], v):
            return n
    m = 0
    for i in range(n):
        if not vec_geq(v, c[i]):
            c[m] = c[i]
            m += 1
    if cand_push(x, level, m, v) < 0:
        return m
    return m + 1


cdef int pool_store(FrontierCtx* x, int idx, uint64_t* v, int n) noexcept nogil:
    cdef uint64_t* grown
    if x.pool_len + n > x.pool_cap:
        grown = <uint64_t*>realloc(x.pool, (2 * (x.pool_len + n) + 4096) * sizeof(uint64_t))
        if grown == NULL:
            x.oom = 1
            x.off[idx] = 0
            x.cnt[idx] = 0
            return -1
        x.pool = grown
        x.pool_cap = 2 * (x.pool_len + n) + 4096
    memcpy(x.pool + x.pool_len, v, n * sizeof(uint64_t))
    x.off[idx] = <int32_t>x.pool_len
    x.cnt[idx] = n
    x.pool_len += n
    return 0


cdef int rank_frontier(FrontierCtx* x, uint32_t c, int idx, int level) noexcept nogil:
    """Memoised frontier of the splits of rank-count vector c into `level` rank hands."""
    cdef int r0, t, j, child, n
    cdef int64_t nc = 0
    cdef uint32_t m
    cdef uint64_t s, zero = 0
    if x.cnt[idx] >= 0:
        return 0
    x.nodes += 1
    if level == 0:
        pool_store(x, idx, &zero, 1)
        return 0
    r0 = ctz64(c) >> 2
    for t in range(MS_BYMIN[r0], MS_BYMIN[r0 + 1]):
        m = MS_PACK[t]
        if (((c | NIB_HIGH) - m) & NIB_HIGH) != NIB_HIGH:
            continue  # multiset t does not fit in c
        child = idx - x.ms_delta[t]
        rank_frontier(x, c - m, child, level - 1)
        s = x.ms_str[t]
        n = x.cnt[child]
        for j in range(n):
            nc = pareto_add(x, level, nc, vec_insert(x.pool[x.off[child] + j], s))
    pool_store(x, idx, x.cand[level], <int>nc)
    return 0


cdef class QuintetFrontier:
    """Frontier of sorted strength vectors over all splits of a deal (see above).

    ``QuintetFrontier(deal_mask, strength_table)``: a 32-bit Quintet mask with 5k
    bits (k <= 6) and the uint16 colex-rank -> strength table of a tie-break mode.
    """

    cdef FrontierCtx x
    cdef uint32_t deal_mask
    cdef int nopt[4]
    cdef uint8_t opt_mask[4][MAXOPT]
    cdef int idx0
    cdef uint64_t* front
    cdef int nfront

    def __cinit__(self):
        cdef int i
        self.x.off = NULL
        self.x.cnt = NULL
        self.x.pool = NULL
        for i in range(MAXK + 2):
            self.x.cand[i] = NULL
            self.x.cand_cap[i] = 0
        self.front = NULL

    def __dealloc__(self):
        cdef int i
        free(self.x.off)
        free(self.x.cnt)
        free(self.x.pool)
        free(self.front)
        for i in range(MAXK + 2):
            free(self.x.cand[i])

    def __init__(self, uint32_t deal_mask, const uint16_t[::1] table):
        cdef int i, r, s, a, n, b
        cdef int count[8]
        cdef int suit_ranks[4]
        cdef int ncards = popcount64(deal_mask)
        if ncards == 0 or ncards % 5 != 0 or ncards // 5 > MAXK:
            raise ValueError(f"a deal needs 5k cards (k = 1..{MAXK}), got {ncards}")
        if table.shape[0] != N_HANDS32:
            raise ValueError("strength table has the wrong size")
        self.deal_mask = deal_mask
        self.x.k = ncards // 5
        self.x.oom = 0
        for r in range(8):
            count[r] = 0
        for s in range(4):
            suit_ranks[s] = 0
        cdef uint32_t m = deal_mask
        while m:
            b = ctz64(m)
            count[b >> 2] += 1
            suit_ranks[b & 3] |= 1 << (b >> 2)
            m &= m - 1
        self.x.c0 = 0
        n = 1
        for r in range(8):
            self.x.c0 |= (<uint32_t>count[r]) << (4 * r)
            self.x.stride[r] = n
            n *= count[r] + 1
        self.x.nstates = n
        self.idx0 = n - 1
        self.x.off = <int32_t*>malloc(n * sizeof(int32_t))
        self.x.cnt = <int32_t*>malloc(n * sizeof(int32_t))
        if self.x.off == NULL or self.x.cnt == NULL:
            raise MemoryError()
        for i in range(n):
            self.x.cnt[i] = -1
        self.x.pool_len = 0
        self.x.pool_cap = 0
        self.x.nodes = 0
        for i in range(NMS):
            a = 0
            for r in range(8):
                a += MS_COUNT[i][r] * self.x.stride[r]
            self.x.ms_delta[i] = a
            self.x.ms_str[i] = table[colex5(MS_MASK[i])]
        for a in range(256):
            self.x.flush_str[a] = 0
            if POP8[a] == 5:
                # all five ranks in clubs: a flush or a straight flush
                m = 0
                for r in range(8):
                    if a >> r & 1:
                        m |= (<uint32_t>1) << (4 * r)
                self.x.flush_str[a] = table[colex5(m)]
        for s in range(4):
            self.nopt[s] = 0
            for a in range(256):
                if POP8[a] == 5 and (a & suit_ranks[s]) == a:
                    self.opt_mask[s][self.nopt[s]] = a
                    self.nopt[s] += 1
        with nogil:
            self._compute()
        if self.x.oom:
            raise MemoryError("out of memory computing the Quintet frontier")

    cdef void _combo(self, int* sel, uint32_t* c, int* idx, uint64_t* fs, int* nf) noexcept nogil:
        """Apply flush selection sel[4] (-1 = none): remaining counts, state index,
        packed flush strengths and their number."""
        cdef int s, r, a
        c[0] = self.x.c0
        idx[0] = self.idx0
        fs[0] = 0
        nf[0] = 0
        for s in range(4):
            if sel[s] < 0:
                continue
            a = self.opt_mask[s][sel[s]]
            for r in range(8):
                if a >> r & 1:
                    c[0] -= (<uint32_t>1) << (4 * r)
                    idx[0] -= self.x.stride[r]
            fs[0] = vec_insert(fs[0], self.x.flush_str[a])
            nf[0] += 1

    cdef uint64_t _with_flushes(self, uint64_t u, uint64_t fs, int nf) noexcept nogil:
        cdef int i
        for i in range(nf):
            u = vec_insert(u, (fs >> (10 * (MAXK - 1 - i))) & 1023)
        return u

    cdef void _compute(self) noexcept nogil:
        cdef int sel[4]
        cdef int a0, a1, a2, a3, nf, idx, j, top = MAXK + 1
        cdef uint32_t c
        cdef uint64_t fs
        cdef int64_t nc = 0
        for a0 in range(-1, self.nopt[0]):
            for a1 in range(-1, self.nopt[1]):
                for a2 in range(-1, self.nopt[2]):
                    for a3 in range(-1, self.nopt[3]):
                        sel[0] = a0
                        sel[1] = a1
                        sel[2] = a2
                        sel[3] = a3
                        self._combo(sel, &c, &idx, &fs, &nf)
                        if nf > self.x.k:
                            continue
                        rank_frontier(&self.x, c, idx, self.x.k - nf)
                        for j in range(self.x.cnt[idx]):
                            nc = pareto_add(&self.x, top,
                                            nc, self._with_flushes(self.x.pool[self.x.off[idx] + j], fs, nf))
        self.nfront = pareto_inplace(self.x.cand[top], <int>nc)
        self.front = <uint64_t*>malloc(max(self.nfront, 1) * sizeof(uint64_t))
        if self.front == NULL:
            self.x.oom = 1
            return
        memcpy(self.front, self.x.cand[top], self.nfront * sizeof(uint64_t))

    @property
    def k(self):
        """Number of groups."""
        return self.x.k

    @property
    def rank_states(self):
        """Number of memoised rank-count states (a measure of the work done)."""
        return self.x.nodes

    def frontier(self):
        """The frontier as an (n, k) uint16 array, rows descending, rows in
        descending lexicographic order."""
        import numpy as np
        cdef int i, j, k = self.x.k
        out = np.zeros((self.nfront, k), dtype=np.uint16)
        cdef uint16_t[:, ::1] o = out
        for i in range(self.nfront):
            for j in range(k):
                o[i, j] = (self.front[i] >> (10 * (MAXK - 1 - j))) & 1023
        return out

    def witness(self, int row):
        """Real hands (32-bit masks, strongest first) of a split realising frontier row."""
        cdef int sel[4]
        cdef int a0, a1, a2, a3, nf, idx, j, k = self.x.k
        cdef uint32_t c
        cdef uint64_t fs, target
        if row < 0 or row >= self.nfront:
            raise IndexError(f"frontier row {row} out of range 0..{self.nfront - 1}")
        target = self.front[row]
        for a0 in range(-1, self.nopt[0]):
            for a1 in range(-1, self.nopt[1]):
                for a2 in range(-1, self.nopt[2]):
                    for a3 in range(-1, self.nopt[3]):
                        sel[0] = a0
                        sel[1] = a1
                        sel[2] = a2
                        sel[3] = a3
                        self._combo(sel, &c, &idx, &fs, &nf)
                        if nf > k or self.x.cnt[idx] < 0:
                            continue
                        for j in range(self.x.cnt[idx]):
                            if self._with_flushes(self.x.pool[self.x.off[idx] + j], fs, nf) == target:
                                return self._realise(sel, c, idx, self.x.pool[self.x.off[idx] + j], k - nf)
        raise RuntimeError("internal error: no split realises a frontier row")

    cdef list _realise(self, int* sel, uint32_t c, int idx, uint64_t target, int level):
        cdef int s, r, a, t, child, j, card, q, r0
        cdef uint32_t m, hand
        cdef uint32_t avail = self.deal_mask
        cdef uint64_t rest = 0
        cdef bint found
        hands = []  # (strength, mask)
        for s in range(4):
            if sel[s] >= 0:
                a = self.opt_mask[s][sel[s]]
                hand = 0
                for r in range(8):
                    if a >> r & 1:
                        hand |= (<uint32_t>1) << (4 * r + s)
                avail &= ~hand
                hands.append((self.x.flush_str[a], hand))
        rank_hands = []
        while level > 0:
            r0 = ctz64(c) >> 2
            found = False
            for t in range(MS_BYMIN[r0], MS_BYMIN[r0 + 1]):
                m = MS_PACK[t]
                if (((c | NIB_HIGH) - m) & NIB_HIGH) != NIB_HIGH:
                    continue
                child = idx - self.x.ms_delta[t]
                if self.x.cnt[child] < 0:
                    continue
                for j in range(self.x.cnt[child]):
                    rest = self.x.pool[self.x.off[child] + j]
                    if vec_insert(rest, self.x.ms_str[t]) == target:
                        found = True
                        break
                if found:
                    rank_hands.append(t)
                    c -= m
                    idx = child
                    target = rest
                    level -= 1
                    break
            if not found:
                raise RuntimeError("internal error: cannot realise a frontier row")
        for t in rank_hands:
            hand = 0
            for r in range(8):
                for q in range(MS_COUNT[t][r]):
                    card = ctz64(avail & (<uint32_t>0xF << (4 * r)))
                    hand |= (<uint32_t>1) << card
                    avail &= ~((<uint32_t>1) << card)
            # the real hand can only be stronger than its rank score (an accidental flush)
            hands.append((self.x.ms_str[t], hand))
        if avail:
            raise RuntimeError("internal error: realised split leaves cards over")
        hands.sort(key=lambda p: -p[0])
        return [h for _, h in hands]


cdef double assign_best(const uint16_t* v, int k, const double* w, int ncls, int* perm) noexcept nogil:
    """Max over bijections entry -> position of sum w[pos, v[entry]] (subset DP).

    With perm != NULL, perm[pos] receives the entry placed at pos.
    """
    cdef double dp[64]
    cdef int arg[64]
    cdef int S, i, n, full = (1 << k) - 1
    cdef double val
    dp[0] = 0.0
    for S in range(1, full + 1):
        n = POP8[S] - 1  # entry n is placed last among the positions in S
        dp[S] = -1e300
        arg[S] = -1
        for i in range(k):
            if S >> i & 1:
                val = dp[S & ~(1 << i)] + w[i * ncls + v[n]]
                if val > dp[S]:
                    dp[S] = val
                    arg[S] = i
    if perm != NULL:
        S = full
        n = k - 1
        while S:
            i = arg[S]
            perm[i] = n
            S &= ~(1 << i)
            n -= 1
    return dp[full]


def quintet_frontier_best_response(const uint16_t[:, ::1] front, const double[:, ::1] w):
    """Best frontier row and assignment for weights w[position, strength].

    Returns (value, row, perm) where perm[position] is the index, in the row's
    descending order, of the hand placed at that position.
    """
    cdef int nrows = front.shape[0], k = front.shape[1], ncls = w.shape[1]
    cdef int i, j, best_row = -1
    cdef int perm[MAXK]
    cdef double v, best = -1e300
    if nrows == 0 or k == 0 or k > MAXK or w.shape[0] != k:
        raise ValueError("frontier and weights do not fit together")
    for i in range(nrows):
        for j in range(k):
            if front[i, j] >= ncls:
                raise ValueError("frontier strength outside the weight table")
    with nogil:
        for i in range(nrows):
            v = assign_best(&front[i, 0], k, &w[0, 0], ncls, NULL)
            if v > best:
                best = v
                best_row = i
        assign_best(&front[best_row, 0], k, &w[0, 0], ncls, perm)
    return best, best_row, [perm[j] for j in range(k)]
