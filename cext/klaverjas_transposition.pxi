# Klaverjas solver, transposition table: bounds of positions at trick
# boundaries, one table for the three searches (an entry's meta byte tells
# them apart).  Key: the hands, dead low cards moved down (kj_table_key);
# buckets of two 32-byte entries, one cache line; a presence filter skips
# most probes that would miss.  Nat-search entries hold bounds of h - base
# valid over a range of needs.  Invariant: a bound stored is proven for its
# window.  Entry points: kj_table_key_hash, kj_table_find, kj_table_cut,
# kj_table_store_result, kj_table_cut_nat, kj_table_store_nat.

cdef inline void kj_table_key(KJState* s, uint32_t* key) noexcept nogil:
    """The table key of a position at a trick boundary: the hands, with the
    zero-point cards of a suit (7 8 9, of trumps 7 8) moved down to its lowest
    ranks, in order and with their holders, when none of them can still be in a
    run (three ranks of the suit still out with three different holders).  Such
    positions are the same game: the cards keep their order against every other
    card, carry no points and make no roem.  With fewer than
    ``key_tricks_left`` tricks left (default KJ_KEY_TRICKS_LEFT) the hands are
    the key: there the moves cost more than they save."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef uint32_t bit, todo, live
    cdef uint32_t lw = rem & 0xFFFu & ~((<uint32_t>1) << (8 + s.trump))
    cdef int su, i, r, k, nr
    key[0] = s.hands[0]
    key[1] = s.hands[1]
    key[2] = s.hands[2]
    key[3] = s.hands[3]
    if KJ_TRICKS - s.dyn.tricks_done < s.key_tricks_left:
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


cdef inline uint64_t kj_table_hash(uint32_t* key, int pos) noexcept nogil:
    """Hash of a table key and ``pos`` (:func:`kj_boundary_meta`).  The search is
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
    probe that finds nothing is the common case)."""
    return <int>((f[(h >> 46) & (KJ_FILTER_WORDS - 1)] >> ((h >> 40) & 63)) & 1)


cdef inline void kj_filter_set(uint64_t* f, uint64_t h) noexcept nogil:
    """Set the bit of hash ``h`` in the presence filter ``f`` (:func:`kj_filter_has`)."""
    f[(h >> 46) & (KJ_FILTER_WORDS - 1)] |= (<uint64_t>1) << ((h >> 40) & 63)


cdef inline KJEntry* kj_table_bucket(KJState* s, uint64_t h) noexcept nogil:
    """The bucket of hash ``h``: two slots, one 64-byte cache line."""
    return &s.table[h & s.table_mask & ~(<uint64_t>1)]


cdef inline uint64_t kj_table_key_hash(KJState* s, uint32_t* key) noexcept nogil:
    """At a trick boundary: the table key of the position (:func:`kj_table_key`) and
    its hash, with its bucket prefetched (the caller computes its cheap bounds
    meanwhile)."""
    cdef uint64_t h
    kj_table_key(s, key)
    h = kj_table_hash(key, kj_boundary_meta(s))
    QS_PREFETCH(kj_table_bucket(s, h))
    return h


cdef inline KJEntry* kj_table_find(KJState* s, uint32_t* key, uint64_t h, int meta) noexcept nogil:
    """The entry of the position (``key``, hash ``h``; ``meta``: leader, pit
    flags and search, :func:`kj_boundary_meta`) in this generation, else NULL."""
    cdef KJEntry* e = kj_table_bucket(s, h)
    cdef int k
    if not kj_filter_has(s.table_filter, h):
        return NULL
    for k in range(2):
        if (e[k].generation == s.generation and e[k].meta == meta and e[k].key[0] == key[0]
                and e[k].key[1] == key[1] and e[k].key[2] == key[2] and e[k].key[3] == key[3]):
            return &e[k]
    return NULL


cdef inline KJEntry* kj_table_entry(KJState* s, uint32_t* key, uint64_t h, int meta,
                                  int tricks_left) noexcept nogil:
    """The entry of the position, or a fresh one without bounds in its place
    (of the two slots of its bucket: a stale one, else the shallowest)."""
    cdef KJEntry* b = kj_table_bucket(s, h)
    cdef KJEntry* e = kj_table_find(s, key, h, meta)
    cdef int k
    if e != NULL:
        return e
    kj_filter_set(s.table_filter, h)
    e = b
    for k in range(2):
        if b[k].generation != s.generation:
            e = &b[k]
            break
        if b[k].tricks_left < e.tricks_left:
            e = &b[k]
    e.key[0] = key[0]
    e.key[1] = key[1]
    e.key[2] = key[2]
    e.key[3] = key[3]
    e.generation = s.generation
    e.meta = meta
    e.lo = KJ_NO_LOWER
    e.hi = KJ_NO_UPPER
    e.best_card = KJ_NO_CARD
    e.tricks_left = tricks_left
    return e


cdef inline void kj_table_store(KJState* s, uint32_t* key, uint64_t h, int meta, int lo, int hi,
                                int best_card, int tricks_left) noexcept nogil:
    """Store the bounds ``lo``, ``hi`` of the position's value and its best card
    (-1: none) in its entry (:func:`kj_table_entry`), merged with the bounds
    it has: each stored bound is proven, so the tighter of two holds."""
    cdef KJEntry* e = kj_table_entry(s, key, h, meta, tricks_left)
    if lo > e.lo:
        e.lo = lo
    if hi < e.hi:
        e.hi = hi
    if best_card >= 0:
        e.best_card = best_card


cdef inline int kj_narrow_window(KJEntry* e, int lo, int hi, int* a, int* b, int* table_best,
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
    if e.best_card != KJ_NO_CARD:
        table_best[0] = e.best_card
    return 0


cdef inline int kj_table_cut(KJEntry* e, int* a, int* b, int* table_best, int* value) noexcept nogil:
    """:func:`kj_narrow_window` by the entry's own bounds."""
    return kj_narrow_window(e, e.lo, e.hi, a, b, table_best, value)


cdef inline void kj_table_store_result(KJState* s, uint32_t* key, uint64_t h, int meta, int best, int a0,
                                 int b0, int best_card, int tricks_left) noexcept nogil:
    """Store a fail-soft result ``best`` (a value; ``best_card`` the card),
    classified against the window actually searched (``a0``, ``b0``: after
    narrowing by the table): an upper bound when it failed low, a lower one
    when it failed high, else exact."""
    if best <= a0:
        kj_table_store(s, key, h, meta, KJ_NO_LOWER, best, best_card, tricks_left)
    elif best >= b0:
        kj_table_store(s, key, h, meta, best, KJ_NO_UPPER, best_card, tricks_left)
    else:
        kj_table_store(s, key, h, meta, best, best, best_card, tricks_left)


cdef inline int kj_table_cut_nat(KJEntry* e, int need, int dmax, int base, int* a, int* b,
                               int* table_best, int* value) noexcept nogil:
    """:func:`kj_table_cut` for a nat-search entry: its bounds are of h - base
    (KJ_MADE kept as it is), the lower one valid for needs up to ``e.lo_need_max``, the
    upper one for needs from ``e.hi_need_min`` on."""
    cdef int lo = KJ_NO_LOWER, hi = KJ_NO_UPPER
    if e.lo != KJ_NO_LOWER and (need if need < dmax else dmax) <= e.lo_need_max:
        lo = e.lo if e.lo >= KJ_MADE else e.lo + base
    if e.hi != KJ_NO_UPPER and need >= e.hi_need_min:
        hi = e.hi if e.hi >= KJ_MADE else e.hi + base
    return kj_narrow_window(e, lo, hi, a, b, table_best, value)


cdef inline void kj_table_store_nat(KJState* s, uint32_t* key, uint64_t h, int meta, int need, int dmax,
                            int base, int best, int a0, int b0, int best_card,
                            int tricks_left) noexcept nogil:
    """Store a fail-soft nat-search result (see :func:`kj_table_cut_nat`): a lower
    bound proven at ``need`` holds for every smaller need (for all when the hand
    can no longer be made), an upper bound for every larger one (for all from
    ``dmax`` on).  Of two bounds neither of which implies the other, the newer is
    kept."""
    cdef KJEntry* e = kj_table_entry(s, key, h, meta, tricks_left)
    kj_merge_nat_bounds(&e.lo, &e.hi, &e.lo_need_max, &e.hi_need_min, need, dmax, base, best, a0, b0)
    if best_card >= 0:
        e.best_card = best_card


cdef inline void kj_merge_nat_bounds(int16_t* lo, int16_t* hi, int16_t* lo_need_max,
                                     int16_t* hi_need_min, int need,
                            int dmax, int base, int best, int a0, int b0) noexcept nogil:
    """Merge a fail-soft nat-search result into the bounds of a table or twin
    entry (:func:`kj_table_store_nat`)."""
    cdef int rel = best if best >= KJ_MADE else best - base
    cdef int n_lo = KJ_ANY_NEED if need >= dmax else need
    cdef int n_hi = need if need < dmax else dmax
    if best > a0:               # a lower bound (exact if also below b0)
        if lo[0] == KJ_NO_LOWER or not (rel <= lo[0] and n_lo <= lo_need_max[0]):
            lo[0] = rel
            lo_need_max[0] = n_lo
    if best < b0:               # an upper bound
        if hi[0] == KJ_NO_UPPER or not (rel >= hi[0] and n_hi >= hi_need_min[0]):
            hi[0] = rel
            hi_need_min[0] = n_hi
