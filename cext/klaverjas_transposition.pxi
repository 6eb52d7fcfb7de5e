cdef inline void kj_canon(KJState* s, uint32_t* key) noexcept nogil:
    """The table key of a position at a trick boundary: the hands, with the
    zero-point cards of a suit (7 8 9, of trumps 7 8) moved down to its lowest
    ranks, in order and with their holders, when none of them can still be in a
    run (three ranks of the suit still out with three different holders).  Such
    positions are the same game: the cards keep their order against every other
    card, carry no points and make no roem.  With fewer than ``key_tricks``
    tricks left (default 5) the hands are the key: there the moves cost more
    than they save."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef uint32_t bit, todo, live
    cdef uint32_t lw = rem & 0xFFFu & ~((<uint32_t>1) << (8 + s.trump))
    cdef int su, i, r, k, nr
    key[0] = s.hands[0]
    key[1] = s.hands[1]
    key[2] = s.hands[2]
    key[3] = s.hands[3]
    if 8 - s.d.tricks_done < s.key_tricks:
        return                      # few tricks left: not worth its cost
    # suits (bit su) whose low cards are not the lowest ranks: a rank out
    # while the rank below it is not
    todo = (((lw >> 4) & ~lw) | ((lw >> 8) & ~(lw >> 4))) & 0xFu
    live = kj_live_runs(s, rem)
    while todo:
        su = ctz64(todo)
        todo &= todo - 1
        nr = 2 if su == s.trump else 3
        if live & ((<uint32_t>0x11u if nr == 2 else 0x111u) << su):
            continue
        k = 0
        for r in range(nr):
            bit = (<uint32_t>1) << (4 * r + su)
            if rem & bit:
                if r != k:
                    for i in range(4):
                        if s.hands[i] & bit:
                            key[i] ^= bit | ((<uint32_t>1) << (4 * k + su))
                            break
                k += 1


cdef inline uint64_t kj_hash(uint32_t* key, int pos) noexcept nogil:
    """Hash of a table key and ``pos`` (leader, pit flags).  The search mode is
    not hashed: the entries of every mode of one position share a bucket (one
    cache miss where the nat search reads two)."""
    cdef uint64_t x = (<uint64_t>key[0]) * <uint64_t>0x9E3779B97F4A7C15ULL
    x ^= (<uint64_t>key[1]) * <uint64_t>0xC2B2AE3D27D4EB4FULL
    x ^= (<uint64_t>key[2]) * <uint64_t>0x165667B19E3779F9ULL
    x ^= (<uint64_t>key[3]) * <uint64_t>0xD6E8FEB86659FD93ULL
    x ^= (<uint64_t>pos) * <uint64_t>0xFF51AFD7ED558CCDULL
    x ^= x >> 29
    x *= <uint64_t>0xBF58476D1CE4E5B9ULL
    x ^= x >> 32
    return x


cdef inline int kj_filter_has(uint64_t* f, uint64_t h) noexcept nogil:
    """Whether the presence filter ``f`` has the bit of hash ``h`` (its high
    bits; the tables index by the low ones).  Each table sets the bit of every
    entry it makes (:func:`kj_filter_set`) and the filters are cleared with each
    new generation, so a clear bit means that no entry of this generation has
    that hash: the probe is skipped, and with it a likely cache miss (a table
    probe that finds nothing is the common case; paired, 0.95x time for the
    main table, 0.85-0.90x more for the twin table)."""
    return <int>((f[(h >> 46) & (KJ_FILTER_WORDS - 1)] >> ((h >> 40) & 63)) & 1)


cdef inline void kj_filter_set(uint64_t* f, uint64_t h) noexcept nogil:
    f[(h >> 46) & (KJ_FILTER_WORDS - 1)] |= (<uint64_t>1) << ((h >> 40) & 63)


cdef inline KJEntry* kj_bucket(KJState* s, uint64_t h) noexcept nogil:
    """The bucket of hash ``h``: two slots, one 64-byte cache line (four slots,
    two lines, kept no more positions and took 5% longer)."""
    return &s.tt[h & s.ttmask & ~(<uint64_t>1)]


cdef inline uint64_t kj_key(KJState* s, uint32_t* key) noexcept nogil:
    """At a trick boundary: the table key of the position (:func:`kj_canon`) and
    its hash, with its bucket prefetched (the caller computes its cheap bounds
    meanwhile)."""
    cdef uint64_t h
    kj_canon(s, key)
    h = kj_hash(key, s.d.leader | (s.d.flags << 2))
    QS_PREFETCH(kj_bucket(s, h))
    return h


cdef inline KJEntry* kj_find(KJState* s, uint32_t* key, uint64_t h, int meta) noexcept nogil:
    """The entry of the position (``meta``: leader, pit flags, search mode)."""
    cdef KJEntry* e = kj_bucket(s, h)
    cdef int k
    if not kj_filter_has(s.tfilt, h):
        return NULL
    for k in range(2):
        if (e[k].gen == s.gen and e[k].meta == meta and e[k].h[0] == key[0]
                and e[k].h[1] == key[1] and e[k].h[2] == key[2] and e[k].h[3] == key[3]):
            return &e[k]
    return NULL


cdef inline KJEntry* kj_entry_for(KJState* s, uint32_t* key, uint64_t h, int meta,
                                  int depth) noexcept nogil:
    """The entry of the position, or a fresh one without bounds in its place
    (of the two slots of its bucket: a stale one, else the shallowest)."""
    cdef KJEntry* b = kj_bucket(s, h)
    cdef KJEntry* e = kj_find(s, key, h, meta)
    cdef int k
    if e != NULL:
        return e
    kj_filter_set(s.tfilt, h)
    e = b
    for k in range(2):
        if b[k].gen != s.gen:
            e = &b[k]
            break
        if b[k].depth < e.depth:
            e = &b[k]
    e.h[0] = key[0]
    e.h[1] = key[1]
    e.h[2] = key[2]
    e.h[3] = key[3]
    e.gen = s.gen
    e.meta = meta
    e.lo = -32000
    e.hi = 32000
    e.best = 255
    e.depth = depth
    return e


cdef inline void kj_store(KJState* s, uint32_t* key, uint64_t h, int meta, int lo, int hi, int best,
                          int depth) noexcept nogil:
    cdef KJEntry* e = kj_entry_for(s, key, h, meta, depth)
    if lo > e.lo:
        e.lo = lo
    if hi < e.hi:
        e.hi = hi
    if best >= 0:
        e.best = best


cdef inline int kj_narrow(KJEntry* e, int lo, int hi, int* a, int* b, int* ttbest,
                          int* value) noexcept nogil:
    """Narrow the window ``(a, b)`` by the bounds ``lo``, ``hi`` of table entry
    ``e`` and take its best card; returns 1 with ``value`` set when the bounds
    alone settle the node."""
    if lo >= b[0] or lo == hi:
        value[0] = lo
        return 1
    if hi <= a[0]:
        value[0] = hi
        return 1
    if lo > a[0]:
        a[0] = lo
    if hi < b[0]:
        b[0] = hi
    if e.best != 255:
        ttbest[0] = e.best
    return 0


cdef inline int kj_use_entry(KJEntry* e, int* a, int* b, int* ttbest, int* value) noexcept nogil:
    """:func:`kj_narrow` by the entry's own bounds."""
    return kj_narrow(e, e.lo, e.hi, a, b, ttbest, value)


cdef inline void kj_store_result(KJState* s, uint32_t* key, uint64_t h, int meta, int best, int a0,
                                 int b0, int bestc, int depth) noexcept nogil:
    """Store a fail-soft result, classified against the window actually searched
    (``a0``, ``b0``: after narrowing by the table)."""
    if best <= a0:
        kj_store(s, key, h, meta, -32000, best, bestc, depth)
    elif best >= b0:
        kj_store(s, key, h, meta, best, 32000, bestc, depth)
    else:
        kj_store(s, key, h, meta, best, best, bestc, depth)


cdef inline int kj_use_entry_n(KJEntry* e, int need, int dmax, int base, int* a, int* b,
                               int* ttbest, int* value) noexcept nogil:
    """:func:`kj_use_entry` for a nat-search entry: its bounds are of h - base
    (BIG kept as it is), the lower one valid for needs up to ``e.nlo``, the
    upper one for needs from ``e.nhi`` on."""
    cdef int lo = -32000, hi = 32000
    if e.lo != -32000 and (need if need < dmax else dmax) <= e.nlo:
        lo = e.lo if e.lo >= KJ_BIG else e.lo + base
    if e.hi != 32000 and need >= e.nhi:
        hi = e.hi if e.hi >= KJ_BIG else e.hi + base
    return kj_narrow(e, lo, hi, a, b, ttbest, value)


cdef inline void kj_store_n(KJState* s, uint32_t* key, uint64_t h, int meta, int need, int dmax,
                            int base, int best, int a0, int b0, int bestc, int depth) noexcept nogil:
    """Store a fail-soft nat-search result (see :func:`kj_use_entry_n`): a lower
    bound proven at ``need`` holds for every smaller need (for all when the hand
    can no longer be made), an upper bound for every larger one (for all from
    ``dmax`` on).  Of two bounds neither of which implies the other, the newer is
    kept."""
    cdef KJEntry* e = kj_entry_for(s, key, h, meta, depth)
    kj_merge_n(&e.lo, &e.hi, &e.nlo, &e.nhi, need, dmax, base, best, a0, b0)
    if bestc >= 0:
        e.best = bestc


cdef inline void kj_merge_n(int16_t* lo, int16_t* hi, int16_t* nlo, int16_t* nhi, int need,
                            int dmax, int base, int best, int a0, int b0) noexcept nogil:
    """Merge a fail-soft nat-search result into the bounds of a table or twin
    entry (:func:`kj_store_n`)."""
    cdef int rel = best if best >= KJ_BIG else best - base
    cdef int n_lo = 32767 if need >= dmax else need
    cdef int n_hi = need if need < dmax else dmax
    if best > a0:               # a lower bound (exact if also below b0)
        if lo[0] == -32000 or not (rel <= lo[0] and n_lo <= nlo[0]):
            lo[0] = rel
            nlo[0] = n_lo
    if best < b0:               # an upper bound
        if hi[0] == 32000 or not (rel >= hi[0] and n_hi >= nhi[0]):
            hi[0] = rel
            nhi[0] = n_hi
