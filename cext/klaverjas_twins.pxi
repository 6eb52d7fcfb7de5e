cdef inline uint32_t kj_roem_cov(KJState* s) noexcept nogil:
    """The roem cards of a trick-boundary position: the cards still out that
    can be in a roem still to be scored (:func:`kj_roem_prospects`: the runs
    that can, the four cards of a rank whose four of a kind can, K and Q of
    trumps when stuk can).  The roem of any trick to come is that of its roem
    cards alone: a run, four of a kind or stuk takes one card of each of
    distinct players, so its cards are all in possible roem.  (The searches
    take them from :func:`kj_roem_ub_cov`, with the roem bound.)"""
    cdef uint32_t cov
    kj_roem_ub_cov(s, &cov)
    return cov


cdef inline void kj_twin_key(KJState* s, KJTwinKey* p) noexcept nogil:
    """The twin key ``p.k`` of a position at a trick boundary, given ``p.meta``
    (leader, pit flags, search) and its roem cards ``p.cov``: for each suit, the
    number of its cards still out (``k[3]``, a byte per suit) and which hands
    hold the first, second, ... of them by power (``k[0..2]``: N, E, S; W the
    rest).  In the by-power layout (:func:`kj_twlay`: bit 8 * suit + power - 1)
    the cards out are ``p.sig``, the by-power pattern of each suit's cards
    (which cards they are); a hand's cards among them, packed in that order
    (suit by suit, each by power), are its part of the key, and the counts split
    them by suit.  ``p.cpos``: the places of the roem cards among the cards out,
    packed the same way; ``p.h`` a hash of all but ``sig``.  (Three packings and
    four table look-ups per mask: paired 0.97-0.99x time against packing each
    suit apart.)

    Twins (same ``k`` and ``meta``, the same roem cards, :func:`kj_roem_cov`,
    at the same places by power) are the same game but for the points of the
    cards: a card of one and the card of the other at its place (same suit,
    same rank by power among the cards out, same holder) are legal at the same
    moments and win the same tricks, and every trick scores the same roem (that
    of its roem cards, matched to themselves) and pit.  So a line of one and its
    image in the other differ in d by at most the sum of the point differences
    of matched cards, and so do their minimax values: a twin's bounds, widened
    by that much, bound the position (sharper: the sure top trumps' share is a
    known shift, :func:`kj_twin_delta`).
    The nat search uses them at a shifted need (:func:`kj_twin_use_n`); in the
    roem game, where the points do not count, twins have the same value."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], r, v
    cdef uint32_t* lay = &KJ_TWLAY[s.trump][0][0]
    cdef uint64_t x
    r = kj_twlay(lay, rem)
    p.sig = r
    # the cards out by suit then power: each hand's of them, packed; and the
    # number of each suit's (a byte each), which splits the packed patterns
    p.k[0] = kj_compress32(r, kj_twlay(lay, s.hands[0]))
    p.k[1] = kj_compress32(r, kj_twlay(lay, s.hands[1]))
    p.k[2] = kj_compress32(r, kj_twlay(lay, s.hands[2]))
    v = r - ((r >> 1) & 0x55555555u)
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u)
    p.k[3] = (v + (v >> 4)) & 0x0F0F0F0Fu
    p.cpos = kj_compress32(r, kj_twlay(lay, p.cov)) if p.cov else 0
    # the key's words by independent products, mixed once (as kj_hash)
    x = ((<uint64_t>p.meta) * <uint64_t>0xFF51AFD7ED558CCDULL
         ^ (<uint64_t>p.k[0]) * <uint64_t>0x9E3779B97F4A7C15ULL
         ^ (<uint64_t>p.k[1]) * <uint64_t>0xC2B2AE3D27D4EB4FULL
         ^ (<uint64_t>p.k[2]) * <uint64_t>0x165667B19E3779F9ULL
         ^ (<uint64_t>p.k[3]) * <uint64_t>0xD6E8FEB86659FD93ULL)
    x ^= x >> 29
    x *= <uint64_t>0xBF58476D1CE4E5B9ULL
    x ^= x >> 32
    if p.cov:
        x ^= (<uint64_t>p.cov) * <uint64_t>0x9E3779B97F4A7C15ULL
        x ^= (<uint64_t>p.cpos) * <uint64_t>0xC2B2AE3D27D4EB4FULL
        x ^= x >> 31
    p.h = x


cdef inline int kj_twin_delta(KJState* s, uint32_t here, uint32_t there, int* shift) noexcept nogil:
    """How far the future d of twins with signatures ``here`` (this position)
    and ``there`` (its twin) can differ (:func:`kj_twin_key`): on matched lines
    (the k-th card by power of each suit matched) by ``shift`` (set here) plus
    or minus the returned amount.  Each matched pair moves d by its point
    difference, with the sign of the team that wins the trick it falls in, so
    at most by that difference; but the top trumps one team holds above the
    other team's highest (the same places in both) win for that team whatever
    the trick they fall in, so theirs move d by a known amount (``shift``).
    The points of a suit's cards out, a byte each from the lowest power up
    (KJ_PVEC), match pairs byte by byte: one SAD instruction (qs_sad8) sums
    their differences (paired 0.97x time against a loop over the pairs)."""
    cdef int su, d = 0, t, low, team = s.playing, sh = 0
    cdef uint32_t x, y
    cdef uint64_t v, w, m
    for su in range(4):
        x = (here >> (8 * su)) & 0xFFu
        y = (there >> (8 * su)) & 0xFFu
        if x == y:
            continue
        t = su == s.trump
        # the points of the matched cards, a byte each (as many in both)
        v = KJ_PVEC[t][x]
        w = KJ_PVEC[t][y]
        if t:
            # matched pairs from the low-th up: the sure trumps
            low = popcount64(x) - popcount64(kj_sure_trumps(
                s, s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], &team))
            if low < 8:
                m = ((<uint64_t>1) << (8 * low)) - 1
                # their byte sums by a product (each sum at most 62)
                sh += (<int>(((v & ~m) * <uint64_t>0x0101010101010101ULL) >> 56)
                       - <int>(((w & ~m) * <uint64_t>0x0101010101010101ULL) >> 56))
                v &= m
                w &= m
        d += qs_sad8(v, w)
    shift[0] = sh if team == s.playing else -sh
    return d


cdef inline void kj_twin_fill(KJState* s, int meta, KJTwinKey* p, uint32_t cov) noexcept nogil:
    """The twin key of a trick-boundary position in ``p`` (:func:`kj_twin_key`)
    with its roem cards ``cov`` (:func:`kj_roem_cov`; the searches have them
    from their roem bound, :func:`kj_roem_ub_cov`)."""
    p.meta = meta
    p.cov = cov
    kj_twin_key(s, p)


cdef inline int kj_twin_probe(KJState* s, int meta, KJTwinKey* p, uint32_t cov) noexcept nogil:
    """At a trick boundary: whether the twin table serves the position (three
    tricks left or more; in the roem game, ``meta`` & 32, two or more: there a
    twin's bounds are exact and stand for the position's own, paired 0.98x
    time), with its twin key in ``p`` (:func:`kj_twin_fill`) and its bucket
    prefetched.  The d and nat searches call it after the main table has
    failed to settle the position (a cut there saves the twin key; with the
    presence filters this beats overlapping the two probes: paired, 0.98-0.99x)
    and the roem game at once (it has no main-table entry there)."""
    cdef char* tb
    if s.d.tricks_done > KJ_TWIN_LAST + ((meta >> 5) & 1) or not s.twins:
        return 0
    kj_twin_fill(s, meta, p, cov)
    tb = <char*>kj_twin_bucket(s, p.h)
    QS_PREFETCH(tb)
    QS_PREFETCH(tb + 64)
    QS_PREFETCH(tb + 128)
    QS_PREFETCH(tb + KJ_TWAYS * sizeof(KJTwin) - 1)
    return 1


cdef inline KJTwin* kj_twin_bucket(KJState* s, uint64_t th) noexcept nogil:
    return &s.tw[th & s.twmask & ~(<uint64_t>(KJ_TWAYS - 1))]


cdef inline int kj_is_twin(KJState* s, KJTwin* t, KJTwinKey* p) noexcept nogil:
    """Whether slot ``t`` holds a twin of the position ``p`` (kj_twin_key)."""
    return (t.gen == s.gen and t.meta == p.meta and t.cov == p.cov and t.cpos == p.cpos
            and t.k[0] == p.k[0] and t.k[1] == p.k[1] and t.k[2] == p.k[2] and t.k[3] == p.k[3])


cdef inline int kj_twin_cut(KJState* s, KJTwinKey* p, int widen, int a, int b,
                            int* value) noexcept nogil:
    """Whether a twin's bounds settle the window ``(a, b)`` (modes D and R),
    widened by the point difference when ``widen`` (mode D; in the roem game
    twins have the same value); ``value`` is then the bound."""
    cdef KJTwin* t = kj_twin_bucket(s, p.h)
    cdef int i, dl = 0, sh = 0
    if not kj_filter_has(s.wfilt, p.h):
        return 0
    for i in range(KJ_TWAYS):
        if kj_is_twin(s, &t[i], p):
            if widen and t[i].sig != p.sig:
                dl = kj_twin_delta(s, p.sig, t[i].sig, &sh)
            else:
                dl = sh = 0
            if t[i].lo + sh - dl >= b:
                value[0] = t[i].lo + sh - dl
                return 1
            if t[i].hi + sh + dl <= a:
                value[0] = t[i].hi + sh + dl
                return 1
    return 0


cdef inline KJTwin* kj_twin_entry(KJState* s, KJTwinKey* p) noexcept nogil:
    """The twin-table entry of the position: its own slot in its bucket, else a
    fresh one (no bounds) in place of a stale slot, else of one the hash picks."""
    cdef KJTwin* b = kj_twin_bucket(s, p.h)
    cdef KJTwin* t = NULL
    cdef int w
    if kj_filter_has(s.wfilt, p.h):
        for w in range(KJ_TWAYS):
            if b[w].sig == p.sig and kj_is_twin(s, &b[w], p):
                return &b[w]
    else:
        kj_filter_set(s.wfilt, p.h)
    for w in range(KJ_TWAYS):
        if b[w].gen != s.gen:
            t = &b[w]
            break
    if t == NULL:
        t = &b[(p.h >> 40) & (KJ_TWAYS - 1)]
    t.k[0] = p.k[0]
    t.k[1] = p.k[1]
    t.k[2] = p.k[2]
    t.k[3] = p.k[3]
    t.sig = p.sig
    t.gen = s.gen
    t.meta = p.meta
    t.cov = p.cov
    t.cpos = p.cpos
    t.lo = -32000
    t.hi = 32000
    return t


cdef inline void kj_twin_store(KJState* s, KJTwinKey* p, int best, int a0, int b0) noexcept nogil:
    """Store a fail-soft result (window ``a0``, ``b0``) of mode D or R in the
    twin table (bounds merged with the position's own)."""
    cdef KJTwin* t = kj_twin_entry(s, p)
    if best > a0 and best > t.lo:
        t.lo = best
    if best < b0 and best < t.hi:
        t.hi = best


cdef inline int kj_twin_use_n(KJTwin* t, int need, int dl, int base, int* a, int* b,
                              int* value) noexcept nogil:
    """A twin's nat-search bounds for this position, whose d differs from the
    twin's by at most ``dl``: made at ``need`` here when made at ``need + dl``
    there, so the twin's lower bound proven up to ``nlo`` holds here for needs
    up to ``nlo - dl``, its upper bound from ``nhi + dl`` on; returns 1 with
    ``value`` set when they settle the window."""
    cdef int lo = -32000, hi = 32000
    if t.lo != -32000 and (t.nlo == 32767 or need + dl <= t.nlo):
        lo = t.lo if t.lo >= KJ_BIG else t.lo + base
    if t.hi != 32000 and need - dl >= t.nhi:
        hi = t.hi if t.hi >= KJ_BIG else t.hi + base
    if lo >= b[0]:
        value[0] = lo
        return 1
    if hi <= a[0]:
        value[0] = hi
        return 1
    return 0


cdef inline int kj_twin_cut_n(KJState* s, KJTwinKey* p, int need, int base, int* a, int* b,
                              int* value) noexcept nogil:
    """:func:`kj_twin_cut` for the nat search (:func:`kj_twin_use_n`, at the
    need moved by the sure trumps' shift: made at ``need`` here when made at
    ``need - shift + dl`` there)."""
    cdef KJTwin* t = kj_twin_bucket(s, p.h)
    cdef int i, dl, sh
    if not kj_filter_has(s.wfilt, p.h):
        return 0
    for i in range(KJ_TWAYS):
        if kj_is_twin(s, &t[i], p):
            if t[i].sig == p.sig:
                dl = sh = 0
            else:
                dl = kj_twin_delta(s, p.sig, t[i].sig, &sh)
            if kj_twin_use_n(&t[i], need - sh, dl, base, a, b, value):
                return 1
    return 0


cdef inline void kj_twin_store_n(KJState* s, KJTwinKey* p, int need, int dmax, int base, int best,
                                 int a0, int b0) noexcept nogil:
    """:func:`kj_store_n` for the twin table."""
    cdef KJTwin* t = kj_twin_entry(s, p)
    kj_merge_n(&t.lo, &t.hi, &t.nlo, &t.nhi, need, dmax, base, best, a0, b0)
