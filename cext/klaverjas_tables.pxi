from libc.string cimport memset
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t


cdef enum:
    KJ_INF = 1000000
    KJ_BIG = 30000            # mode N value of a made outcome
    KJ_STUK_TRICK = 0
    KJ_STUK_HAND = 1
    KJ_STUK_OFF = 2
    KJ_TWAYS = 4              # slots of a twin-table bucket
    KJ_TWIN_LAST = 5          # twins at trick boundaries with this many tricks done or fewer
                              # (one more in the roem game)
    KJ_FILTER_WORDS = 4096    # 64-bit words of a presence filter (32 KiB: cache-resident)
    KJ_EST_TRICKS = 3         # d-search nodes of the first tricks: kj_order_by_estimate
    KJ_PLAIN_TRICKS = 3       # boundaries from this many tricks done: kj_trick_plain (default)
    KJ_TWO_BITS = 10          # the two-trick table (kj_two) has 2 ** KJ_TWO_BITS entries


# trick power by natural rank (7 8 9 T J Q K A)
cdef int KJ_TPOW[8]
cdef int KJ_PPOW[8]
cdef int KJ_TPTS[8]
cdef int KJ_PPTS[8]
cdef int KJ_FOUR[8]
cdef int KJ_RUNUB[9]          # upper bound of run roem from n ranks of one suit


KJ_TPOW[:] = [1, 2, 7, 5, 8, 3, 4, 6]
KJ_PPOW[:] = [1, 2, 3, 7, 4, 5, 6, 8]
KJ_TPTS[:] = [0, 0, 14, 10, 20, 3, 4, 11]
KJ_PPTS[:] = [0, 0, 0, 10, 2, 3, 4, 11]
KJ_FOUR[:] = [0, 0, 0, 100, 200, 100, 100, 100]
KJ_RUNUB[:] = [0, 0, 0, 20, 50, 50, 50, 70, 100]


# 8-bit trump patterns: KJ_NAT2POW maps one by natural rank (kj_suit_pattern) to
# one by power (bit p - 1 for power p), KJ_POWPTS gives the points of a by-power
# pattern and KJ_ABOVE the bits above the highest one of a pattern (all for 0)
cdef uint8_t KJ_NAT2POW[256]
cdef uint8_t KJ_ABOVE[256]
cdef int KJ_POWPTS[256]
for _m in range(256):
    KJ_NAT2POW[_m] = sum(1 << (KJ_TPOW[_r] - 1) for _r in range(8) if (_m >> _r) & 1)
    KJ_POWPTS[_m] = sum(KJ_TPTS[_r] for _r in range(8) if (_m >> (KJ_TPOW[_r] - 1)) & 1)
    KJ_ABOVE[_m] = 0xFF & ~((2 << (_m.bit_length() - 1)) - 1) if _m else 0xFF


# twin keys (kj_twin_key): KJ_POWPT gives the points of the card of each power
# (row 1: trumps), KJ_CMP4[m << 4 | x] packs the bits of x at the set bits of m
# (4 bits) together and KJ_POP4 counts bits
cdef int KJ_POWPT[2][8]
cdef uint8_t KJ_CMP4[256]
cdef uint8_t KJ_POP4[16]
for _r in range(8):
    KJ_POWPT[0][KJ_PPOW[_r] - 1] = KJ_PPTS[_r]
    KJ_POWPT[1][KJ_TPOW[_r] - 1] = KJ_TPTS[_r]
# KJ_PVEC[t][m]: the points of the cards of by-power pattern m, a byte each,
# from the lowest power up (row 1: trumps), for kj_twin_delta
cdef uint64_t KJ_PVEC[2][256]
for _m in range(256):
    for _t in range(2):
        KJ_PVEC[_t][_m] = sum(KJ_POWPT[_t][_b] << (8 * _k)
                              for _k, _b in enumerate(_b for _b in range(8) if (_m >> _b) & 1))
for _m in range(16):
    KJ_POP4[_m] = bin(_m).count("1")
    _at = [_b for _b in range(4) if (_m >> _b) & 1]
    for _x in range(16):
        KJ_CMP4[(_m << 4) | _x] = sum(1 << _k for _k, _b in enumerate(_at) if (_x >> _b) & 1)


cdef inline uint32_t kj_compress8(uint32_t m, uint32_t x) noexcept nogil:
    """The bits of ``x`` at the set bits of ``m`` (8 bits), packed together."""
    if QS_HAS_PEXT:
        return qs_pext32(x, m)
    return KJ_CMP4[((m & 15) << 4) | (x & 15)] | (KJ_CMP4[(m & 0xF0) | (x >> 4)] << KJ_POP4[m & 15])


cdef inline uint32_t kj_compress32(uint32_t m, uint32_t x) noexcept nogil:
    """The bits of ``x`` at the set bits of ``m`` (32 bits), packed together."""
    cdef uint32_t out = 0, mb
    cdef int i, k = 0
    if QS_HAS_PEXT:
        return qs_pext32(x, m)
    for i in range(4):
        mb = (m >> (8 * i)) & 0xFFu
        out |= kj_compress8(mb, (x >> (8 * i)) & 0xFFu) << k
        k += KJ_POP4[mb & 15] + KJ_POP4[mb >> 4]
    return out


# KJ_TWLAY[trump][j][x]: byte j (x) of a card mask in the by-power layout of
# the twin key: bit 8 * suit + power - 1 (each suit's by-power pattern a byte)
cdef uint32_t KJ_TWLAY[4][4][256]


cdef void kj_init_twlay() noexcept:
    cdef int t, j, x, b, c, nat, su, pw
    cdef uint32_t v
    for t in range(4):
        for j in range(4):
            for x in range(256):
                v = 0
                for b in range(8):
                    if (x >> b) & 1:
                        c = 8 * j + b
                        nat = c >> 2
                        su = c & 3
                        pw = KJ_TPOW[nat] if su == t else KJ_PPOW[nat]
                        v |= (<uint32_t>1) << (8 * su + pw - 1)
                KJ_TWLAY[t][j][x] = v


kj_init_twlay()


cdef inline uint32_t kj_twlay(uint32_t* tab, uint32_t m) noexcept nogil:
    """Card mask ``m`` in the by-power layout (``tab``: KJ_TWLAY of the trump)."""
    return (tab[m & 0xFFu] | tab[256 + ((m >> 8) & 0xFFu)] | tab[512 + ((m >> 16) & 0xFFu)]
            | tab[768 + (m >> 24)])


cdef inline uint32_t kj_suit_pattern(uint32_t m, int suit) noexcept nogil:
    """8-bit natural-rank pattern of one suit of a card mask."""
    if QS_HAS_PEXT:
        return qs_pext32(m, (<uint32_t>0x11111111u) << suit)
    cdef uint32_t y = (m >> suit) & 0x11111111u
    y = (y | (y >> 3)) & 0x03030303u
    # the four 2-bit fields (bytes 0-3) gathered into bits 24-31 by one product
    return (y * <uint32_t>0x01041040u) >> 24
