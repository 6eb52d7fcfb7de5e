# Quintet hand evaluation over 32-bit card masks.
#
# Layout: bit i = card 4 * r + s with r = 0 (seven) .. 7 (ace), s = c d h s.
# A 5-card mask is hashed perfectly by its colex rank
#     sum_k C(b_k, k),  b_1 < ... < b_5 the set bits, k = 1..5,
# into 0 .. C(32, 5) - 1 = 201,375.  The table maps that rank to a dense
# strength class (larger = stronger, equal = exact tie).  Tables are built once
# per tie-break mode from ``hand_key`` below, which encodes the rules.

from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t

cdef enum:
    N_HANDS32 = 201376

cdef uint32_t BINOM[33][6]


cdef void _init_binom() noexcept nogil:
    cdef int n, k
    for n in range(33):
        for k in range(6):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]


# Byte-wise colex tables.  For byte j of a mask (value v) and c set bits in the
# bytes below it, COLEX_BYTE[j][c][v] holds, in bits 0..23, the part of the colex
# rank contributed by v's bits, and in bits 24..31 the number of set bits in bytes
# 0..j, capped at 6.  So a 5-card mask's colex rank is the sum of four chained
# lookups, and the count in the last one says whether the mask has five bits.
cdef uint32_t COLEX_BYTE[4][7][256]
cdef unsigned char POP8[256]


cdef void _init_colex_bytes() noexcept nogil:
    cdef int j, c, v, p, k, total_bits
    cdef uint32_t total
    for v in range(256):
        POP8[v] = 0
        for p in range(8):
            if v >> p & 1:
                POP8[v] += 1
    for j in range(4):
        for c in range(7):
            for v in range(256):
                total = 0
                k = c
                for p in range(8):
                    if v >> p & 1:
                        k += 1
                        if k <= 5:
                            total += BINOM[8 * j + p][k]
                total_bits = c + POP8[v]
                if total_bits > 6:
                    total_bits = 6
                COLEX_BYTE[j][c][v] = total | (<uint32_t>total_bits << 24)


_init_binom()
_init_colex_bytes()


cdef inline uint32_t colex5_checked(uint32_t mask, bint* ok) noexcept nogil:
    """Colex rank of a 5-bit mask; ok is set to whether the mask has exactly five bits."""
    cdef uint32_t x0 = COLEX_BYTE[0][0][mask & 0xFF]
    cdef uint32_t x1 = COLEX_BYTE[1][x0 >> 24][(mask >> 8) & 0xFF]
    cdef uint32_t x2 = COLEX_BYTE[2][x1 >> 24][(mask >> 16) & 0xFF]
    cdef uint32_t x3 = COLEX_BYTE[3][x2 >> 24][mask >> 24]
    ok[0] = (x3 >> 24) == 5
    return ((x0 + x1 + x2 + x3) & 0xFFFFFF)


cdef inline uint32_t colex5(uint32_t mask) noexcept nogil:
    """Colex rank of a mask with exactly five bits set."""
    cdef bint ok
    return colex5_checked(mask, &ok)


# categories (must match quartet_solver.quintet.hands.Category)
cdef enum:
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FULL_HOUSE = 5
    FLUSH = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8


cdef inline int64_t _pack(int category, int* ranks, int n) noexcept nogil:
    # category in bits 20..23, then up to five 4-bit tie-break ranks (rank + 1)
    cdef int64_t key = category
    cdef int i
    for i in range(5):
        key <<= 4
        if i < n:
            key |= ranks[i] + 1
    return key


cdef int64_t hand_key(uint32_t mask, bint full) noexcept nogil:
    """Comparable key of a 5-card hand from the Quintet rules (seed or full tie-breaks).

    Ranks 0..7 stand for 7..A.  Larger key = stronger hand; equal = tie.
    """
    cdef int count[8]
    cdef int suit_bits[4]
    cdef int r, s, i, n
    cdef int rank_bits = 0
    for r in range(8):
        count[r] = 0
    for s in range(4):
        suit_bits[s] = 0
    cdef uint32_t m = mask
    cdef int b
    while m:
        b = ctz64(m)
        count[b >> 2] += 1
        rank_bits |= 1 << (b >> 2)
        suit_bits[b & 3] += 1
        m &= m - 1
    cdef bint flush = suit_bits[0] == 5 or suit_bits[1] == 5 or suit_bits[2] == 5 or suit_bits[3] == 5
    # straight: five consecutive distinct ranks, or A-7-8-9-T (ace as a six)
    cdef int straight_high = -1
    if rank_bits == 0b10001111:
        straight_high = 3
    else:
        for r in range(4, 8):
            if rank_bits == (0b11111 << (r - 4)):
                straight_high = r
    cdef int ranks[5]
    # ranks by (multiplicity desc, rank desc)
    n = 0
    cdef int mult
    for mult in range(4, 0, -1):
        for r in range(7, -1, -1):
            if count[r] == mult:
                ranks[n] = r
                n += 1
    cdef int top = ranks[0]
    if straight_high >= 0:
        ranks[0] = straight_high
        return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, ranks, 1)
    if flush:
        return _pack(FLUSH, ranks, 5)
    if count[top] == 4:
        return _pack(QUADS, ranks, 2 if full else 1)
    if count[top] == 3:
        if count[ranks[1]] == 2:
            return _pack(FULL_HOUSE, ranks, 2 if full else 1)
        return _pack(TRIPS, ranks, 3 if full else 1)
    if count[top] == 2:
        if count[ranks[1]] == 2:
            return _pack(TWO_PAIR, ranks, 3)
        return _pack(PAIR, ranks, 4 if full else 2)
    return _pack(HIGH_CARD, ranks, 5 if full else 1)


def quintet_hand_key(uint32_t mask, bint full=False):
    """Rule key of one 5-card mask (no validation; for table building and tests)."""
    return hand_key(mask, full)


def quintet_all_keys(bint full):
    """Keys of all C(32, 5) hands, indexed by colex rank, plus their masks.

    Returns ``(keys, masks)`` as Python ``array``-compatible memory (int64, uint32).
    """
    import numpy as np
    keys_arr = np.empty(N_HANDS32, dtype=np.int64)
    masks_arr = np.empty(N_HANDS32, dtype=np.uint32)
    cdef int64_t[::1] keys = keys_arr
    cdef uint32_t[::1] masks = masks_arr
    cdef int a, b, c, d, e
    cdef uint32_t mask
    with nogil:
        for e in range(4, 32):
            for d in range(3, e):
                for c in range(2, d):
                    for b in range(1, c):
                        for a in range(0, b):
                            mask = (1u << a) | (1u << b) | (1u << c) | (1u << d) | (1u << e)
                            keys[colex5(mask)] = hand_key(mask, full)
                            masks[colex5(mask)] = mask
    return keys_arr, masks_arr


def quintet_colex5(uint32_t mask):
    """Colex rank of a mask with exactly five bits set (no validation)."""
    return colex5(mask)


def quintet_eval_mask(uint32_t mask, const uint16_t[::1] table):
    """Strength of one 5-card mask; -1 if the mask does not have exactly five bits."""
    if popcount64(mask) != 5:
        return -1
    return table[colex5(mask)]


# Registered per tie-break mode (0 = seed, 1 = full) by quartet_solver.quintet.hands:
# the strength table (kept alive by QTABLE_OWNER) and one HandValue per class.
cdef const uint16_t* QTABLE[2]
cdef object QTABLE_OWNER = [None, None]
cdef object QVALUES = [None, None]
cdef object CARD_TYPE = None

QTABLE[0] = NULL
QTABLE[1] = NULL


def quintet_register_mode(int mode, const uint16_t[::1] table, tuple values, card_type):
    """Register a mode's strength table and hand values for :func:`quintet_lookup`."""
    global CARD_TYPE
    if mode < 0 or mode > 1 or table.shape[0] != N_HANDS32:
        raise ValueError("bad mode or table size")
    QTABLE_OWNER[mode] = table
    QVALUES[mode] = values
    QTABLE[mode] = &table[0]
    CARD_TYPE = card_type


def quintet_lookup(object cards, int mode):
    """HandValue of a list/tuple of five distinct Card objects of the 32-card deck.

    Returns None when this fast path does not apply (mode not registered, wrong
    type or count, a card outside the 32-card deck, a duplicate); the caller then
    takes the slow, validating path that explains the problem.
    """
    cdef Py_ssize_t i
    cdef uint32_t mask = 0
    cdef long idx
    if mode < 0 or mode > 1 or QTABLE[mode] == NULL:
        return None
    if type(cards) is list:
        if len(<list>cards) != 5:
            return None
    elif type(cards) is tuple:
        if len(<tuple>cards) != 5:
            return None
    else:
        return None
    for i in range(5):
        item = cards[i]
        if type(item) is not CARD_TYPE:
            return None
        idx = <long>item._index - 20
        if idx < 0 or idx > 31:
            return None
        mask |= 1u << idx
    if popcount64(mask) != 5:
        return None
    return (<tuple>QVALUES[mode])[QTABLE[mode][colex5(mask)]]


cdef Py_ssize_t _eval_masks(const uint32_t* masks, Py_ssize_t n, const uint16_t* table,
                            int32_t* out) noexcept nogil:
    cdef Py_ssize_t i
    cdef uint32_t r
    cdef bint ok
    for i in range(n):
        r = colex5_checked(masks[i], &ok)
        if not ok:
            return i
        out[i] = table[r]
    return -1


def quintet_eval_masks(const uint32_t[::1] masks, const uint16_t[::1] table, int32_t[::1] out):
    """Batch strengths; returns -1, or the index of the first mask without five bits."""
    if masks.shape[0] != out.shape[0]:
        raise ValueError("masks and out differ in length")
    if masks.shape[0] == 0:
        return -1
    cdef Py_ssize_t bad
    with nogil:
        bad = _eval_masks(&masks[0], masks.shape[0], &table[0], &out[0])
    return bad


def quintet_subsets5(uint32_t cards):
    """All 5-card subsets of a 32-bit card mask, in colex order of their positions.

    Returns a uint32 numpy array of masks.
    """
    import numpy as np
    cdef int bits[32]
    cdef int n = 0
    cdef uint32_t m = cards
    while m:
        bits[n] = ctz64(m)
        n += 1
        m &= m - 1
    cdef Py_ssize_t total = BINOM[n][5] if n >= 5 else 0
    out_arr = np.empty(total, dtype=np.uint32)
    if total == 0:
        return out_arr
    cdef uint32_t[::1] out = out_arr
    cdef Py_ssize_t k = 0
    cdef int a, b, c, d, e
    with nogil:
        for e in range(4, n):
            for d in range(3, e):
                for c in range(2, d):
                    for b in range(1, c):
                        for a in range(0, b):
                            out[k] = ((1u << bits[a]) | (1u << bits[b]) | (1u << bits[c])
                                      | (1u << bits[d]) | (1u << bits[e]))
                            k += 1
    return out_arr
