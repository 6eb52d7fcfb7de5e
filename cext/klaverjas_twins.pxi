# Klaverjas solver, twins: positions that are the same game but for the card
# points (the same holders of each suit's cards by power, the same roem cards
# at the same places) share bounds, widened by the point difference (d
# search), at a shifted need (nat search) or as they are (roem game).  The
# twin table has buckets of four entries and a presence filter; it serves
# with three tricks left or more (two in the roem game).  Entry points:
# kj_twin_probe, kj_twin_cut, kj_twin_store, kj_twin_cut_nat, kj_twin_store_nat.

cdef inline uint32_t kj_roem_cards(KJState* s) noexcept nogil:
    """The roem cards of a trick-boundary position: the cards still out that
    can be in a roem still to be scored (:func:`kj_roem_prospects`: the runs
    that can, the four cards of a rank whose four of a kind can, K and Q of
    trumps when stuk can).  The roem of any trick to come is that of its roem
    cards alone: a run, four of a kind or stuk takes one card of each of
    distinct players, so its cards are all in possible roem.  (The searches
    take them from :func:`kj_roem_bound_cards`, with the roem bound.)"""
    cdef uint32_t cards
    kj_roem_bound_cards(s, &cards)
    return cards


cdef inline void kj_twin_key(KJState* s, KJTwinKey* p) noexcept nogil:
    """The twin key ``p.key`` of a position at a trick boundary, given
    ``p.meta`` (:func:`kj_boundary_meta` and the search's bit) and its roem
    cards ``p.roem_cards``: for each suit, the number of its cards still out
    (``key[3]``, a byte per suit) and which hands hold the first, second, ...
    of them by power (``key[0..2]``: N, E, S; W the rest).  In the by-power
    layout (:func:`kj_by_power`: bit 8 * suit + power - 1) the cards out are
    ``p.cards_out``, the by-power pattern of each suit's cards (which cards
    they are); a hand's cards among them, packed in that order (suit by suit,
    each by power), are its part of the key, and the counts split them by
    suit.  ``p.roem_places``: the places of the roem cards among the cards
    out, packed the same way; ``p.hash`` a hash of all but ``cards_out``.

    Twins (same ``key`` and ``meta``, the same roem cards, :func:`kj_roem_cards`,
    at the same places by power) are the same game but for the points of the
    cards: a card of one and the card of the other at its place (same suit,
    same rank by power among the cards out, same holder) are legal at the same
    moments and win the same tricks, and every trick scores the same roem (that
    of its roem cards, matched to themselves) and pit.  So a line of one and its
    image in the other differ in d by at most the sum of the point differences
    of matched cards, and so do their minimax values: a twin's bounds, widened
    by that much, bound the position (sharper: the sure top trumps' share is a
    known shift, :func:`kj_twin_delta`).
    The nat search uses them at a shifted need (:func:`kj_twin_entry_cut_nat`);
    in the roem game, where the points do not count, twins have the same
    value."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], r, v
    cdef uint32_t* lay = &KJ_BY_POWER[s.trump][0][0]
    cdef uint64_t x
    r = kj_by_power(lay, rem)
    p.cards_out = r
    # the cards out by suit then power: each hand's of them, packed; and the
    # number of each suit's (a byte each), which splits the packed patterns
    p.key[0] = kj_compress32(r, kj_by_power(lay, s.hands[0]))
    p.key[1] = kj_compress32(r, kj_by_power(lay, s.hands[1]))
    p.key[2] = kj_compress32(r, kj_by_power(lay, s.hands[2]))
    v = r - ((r >> 1) & 0x55555555u)
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u)
    p.key[3] = (v + (v >> 4)) & 0x0F0F0F0Fu
    p.roem_places = kj_compress32(r, kj_by_power(lay, p.roem_cards)) if p.roem_cards else 0
    # the key's words by independent products, mixed once (as kj_table_hash)
    x = ((<uint64_t>p.meta) * <uint64_t>0xFF51AFD7ED558CCDULL
         ^ (<uint64_t>p.key[0]) * <uint64_t>0x9E3779B97F4A7C15ULL
         ^ (<uint64_t>p.key[1]) * <uint64_t>0xC2B2AE3D27D4EB4FULL
         ^ (<uint64_t>p.key[2]) * <uint64_t>0x165667B19E3779F9ULL
         ^ (<uint64_t>p.key[3]) * <uint64_t>0xD6E8FEB86659FD93ULL)
    x ^= x >> 29
    x *= <uint64_t>0xBF58476D1CE4E5B9ULL
    x ^= x >> 32
    if p.roem_cards:
        x ^= (<uint64_t>p.roem_cards) * <uint64_t>0x9E3779B97F4A7C15ULL
        x ^= (<uint64_t>p.roem_places) * <uint64_t>0xC2B2AE3D27D4EB4FULL
        x ^= x >> 31
    p.hash = x


cdef inline int kj_twin_delta(KJState* s, uint32_t here, uint32_t there, int* shift) noexcept nogil:
    """How far the future d of twins whose cards out are ``here`` (this
    position) and ``there`` (its twin, both ``cards_out``) can differ (:func:`kj_twin_key`): on matched lines
    (the k-th card by power of each suit matched) by ``shift`` (set here) plus
    or minus the returned amount.  Each matched pair moves d by its point
    difference, with the sign of the team that wins the trick it falls in, so
    at most by that difference; but the top trumps one team holds above the
    other team's highest (the same places in both) win for that team whatever
    the trick they fall in, so theirs move d by a known amount (``shift``).
    The points of a suit's cards out, a byte each from the lowest power up
    (KJ_POINT_BYTES), match pairs byte by byte: one SAD instruction (qs_sad8)
    sums their differences."""
    cdef int su, d = 0, t, low, team = s.playing_team, sh = 0
    cdef uint32_t x, y
    cdef uint64_t v, w, m
    for su in range(4):
        x = (here >> (8 * su)) & 0xFFu
        y = (there >> (8 * su)) & 0xFFu
        if x == y:
            continue
        t = su == s.trump
        # the points of the matched cards, a byte each (as many in both)
        v = KJ_POINT_BYTES[t][x]
        w = KJ_POINT_BYTES[t][y]
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
    shift[0] = sh if team == s.playing_team else -sh
    return d


cdef inline void kj_twin_fill(KJState* s, int meta, KJTwinKey* p, uint32_t roem_cards) noexcept nogil:
    """The twin key of a trick-boundary position in ``p`` (:func:`kj_twin_key`)
    with its roem cards ``roem_cards`` (:func:`kj_roem_cards`; the searches
    have them from their roem bound, :func:`kj_roem_bound_cards`)."""
    p.meta = meta
    p.roem_cards = roem_cards
    kj_twin_key(s, p)


cdef inline int kj_twin_probe(KJState* s, int meta, KJTwinKey* p, uint32_t roem_cards) noexcept nogil:
    """At a trick boundary: whether the twin table serves the position (three
    tricks left or more; in the roem game, ``meta`` & KJ_META_ROEM, two or
    more: there a twin's bounds are exact and stand for the position's own),
    with its twin key in ``p`` (:func:`kj_twin_fill`) and its bucket
    prefetched.  The d and nat searches call it after the main table has
    failed to settle the position (a cut there saves the twin key) and the
    roem game at once (it has no main-table entry there)."""
    cdef char* tb
    if s.dyn.tricks_done > KJ_TWIN_MAX_DONE + ((meta & KJ_META_ROEM) != 0) or not s.use_twins:
        return 0
    kj_twin_fill(s, meta, p, roem_cards)
    tb = <char*>kj_twin_bucket(s, p.hash)
    QS_PREFETCH(tb)
    QS_PREFETCH(tb + 64)
    QS_PREFETCH(tb + 128)
    QS_PREFETCH(tb + KJ_TWIN_WAYS * sizeof(KJTwin) - 1)
    return 1


cdef inline KJTwin* kj_twin_bucket(KJState* s, uint64_t th) noexcept nogil:
    """The bucket of twin hash ``th``: KJ_TWIN_WAYS slots."""
    return &s.twin_table[th & s.twin_mask & ~(<uint64_t>(KJ_TWIN_WAYS - 1))]


cdef inline int kj_is_twin(KJState* s, KJTwin* t, KJTwinKey* p) noexcept nogil:
    """Whether slot ``t`` holds a twin of the position ``p`` (kj_twin_key)."""
    return (t.generation == s.generation and t.meta == p.meta and t.roem_cards == p.roem_cards
            and t.roem_places == p.roem_places and t.key[0] == p.key[0] and t.key[1] == p.key[1]
            and t.key[2] == p.key[2] and t.key[3] == p.key[3])


cdef inline int kj_twin_cut(KJState* s, KJTwinKey* p, int widen, int a, int b,
                            int* value) noexcept nogil:
    """Whether a twin's bounds settle the window ``(a, b)`` (the d search and the
    roem game), widened by the point difference when ``widen`` (the d search; in the roem game
    twins have the same value); ``value`` is then the bound."""
    cdef KJTwin* t = kj_twin_bucket(s, p.hash)
    cdef int i, dl = 0, sh = 0
    if not kj_filter_has(s.twin_filter, p.hash):
        return 0
    for i in range(KJ_TWIN_WAYS):
        if kj_is_twin(s, &t[i], p):
            if widen and t[i].cards_out != p.cards_out:
                dl = kj_twin_delta(s, p.cards_out, t[i].cards_out, &sh)
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
    cdef KJTwin* b = kj_twin_bucket(s, p.hash)
    cdef KJTwin* t = NULL
    cdef int w
    if kj_filter_has(s.twin_filter, p.hash):
        for w in range(KJ_TWIN_WAYS):
            if b[w].cards_out == p.cards_out and kj_is_twin(s, &b[w], p):
                return &b[w]
    else:
        kj_filter_set(s.twin_filter, p.hash)
    for w in range(KJ_TWIN_WAYS):
        if b[w].generation != s.generation:
            t = &b[w]
            break
    if t == NULL:
        t = &b[(p.hash >> 40) & (KJ_TWIN_WAYS - 1)]
    t.key[0] = p.key[0]
    t.key[1] = p.key[1]
    t.key[2] = p.key[2]
    t.key[3] = p.key[3]
    t.cards_out = p.cards_out
    t.generation = s.generation
    t.meta = p.meta
    t.roem_cards = p.roem_cards
    t.roem_places = p.roem_places
    t.lo = KJ_NO_LOWER
    t.hi = KJ_NO_UPPER
    return t


cdef inline void kj_twin_store(KJState* s, KJTwinKey* p, int best, int a0, int b0) noexcept nogil:
    """Store a fail-soft result (window ``a0``, ``b0``) of the d search or the
    roem game in the twin table (bounds merged with the position's own)."""
    cdef KJTwin* t = kj_twin_entry(s, p)
    if best > a0 and best > t.lo:
        t.lo = best
    if best < b0 and best < t.hi:
        t.hi = best


cdef inline int kj_twin_entry_cut_nat(KJTwin* t, int need, int dl, int base, int* a, int* b,
                              int* value) noexcept nogil:
    """A twin's nat-search bounds for this position, whose d differs from the
    twin's by at most ``dl``: made at ``need`` here when made at ``need + dl``
    there, so the twin's lower bound proven up to ``lo_need_max`` holds here
    for needs up to ``lo_need_max - dl``, its upper bound from ``hi_need_min +
    dl`` on; returns 1 with
    ``value`` set when they settle the window."""
    cdef int lo = KJ_NO_LOWER, hi = KJ_NO_UPPER
    if t.lo != KJ_NO_LOWER and (t.lo_need_max == KJ_ANY_NEED or need + dl <= t.lo_need_max):
        lo = t.lo if t.lo >= KJ_MADE else t.lo + base
    if t.hi != KJ_NO_UPPER and need - dl >= t.hi_need_min:
        hi = t.hi if t.hi >= KJ_MADE else t.hi + base
    if lo >= b[0]:
        value[0] = lo
        return 1
    if hi <= a[0]:
        value[0] = hi
        return 1
    return 0


cdef inline int kj_twin_cut_nat(KJState* s, KJTwinKey* p, int need, int base, int* a, int* b,
                              int* value) noexcept nogil:
    """:func:`kj_twin_cut` for the nat search (:func:`kj_twin_entry_cut_nat`, at the
    need moved by the sure trumps' shift: made at ``need`` here when made at
    ``need - shift + dl`` there)."""
    cdef KJTwin* t = kj_twin_bucket(s, p.hash)
    cdef int i, dl, sh
    if not kj_filter_has(s.twin_filter, p.hash):
        return 0
    for i in range(KJ_TWIN_WAYS):
        if kj_is_twin(s, &t[i], p):
            if t[i].cards_out == p.cards_out:
                dl = sh = 0
            else:
                dl = kj_twin_delta(s, p.cards_out, t[i].cards_out, &sh)
            if kj_twin_entry_cut_nat(&t[i], need - sh, dl, base, a, b, value):
                return 1
    return 0


cdef inline void kj_twin_store_nat(KJState* s, KJTwinKey* p, int need, int dmax, int base, int best,
                                 int a0, int b0) noexcept nogil:
    """:func:`kj_table_store_nat` for the twin table."""
    cdef KJTwin* t = kj_twin_entry(s, p)
    kj_merge_nat_bounds(&t.lo, &t.hi, &t.lo_need_max, &t.hi_need_min, need, dmax, base, best, a0, b0)
