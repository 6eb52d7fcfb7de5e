# Klaverjas solver, tables: the constants of the search (scores, bounds,
# search modes, meta bits, where each search feature starts) and the card
# tables of the rules (power and points by rank, roem), with the bit packing
# that the table keys use (by-power layout, pext or its table fallback).
# Cards: a uint32 mask, bit b = card index - 20 = 4 * natural rank + suit
# (natural 0..7 = 7 8 9 T J Q K A, suit 0..3 = c d h s).  Filled once at import.
# The design: docs/klaverjas_solver.md; measurements: benchmarks/DECISIONS.md.

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t


cdef enum KJSearch:
    # the searches (the ``mode`` of the functions that serve several)
    KJ_SEARCH_D = 0           # kj_search_d: the future d, both teams play for it
    KJ_SEARCH_NAT = 1         # kj_search_nat: h (KJ_MADE if made, else the nat net score)
    KJ_SEARCH_ROEM = 2        # kj_search_roem: the roem game (roem + pit to come, P minimises)


cdef enum:
    # the meta byte of a table entry (kj_boundary_meta): leader (bits 0-1),
    # the won-all flags (bits 2-3) and the search (the d search: neither bit)
    KJ_META_NAT = 16
    KJ_META_ROEM = 32


cdef enum:
    # scores
    KJ_TRICKS = 8             # tricks in a hand
    KJ_TOTAL_POINTS = 162     # card points and the last trick: what a nat team gives away
    KJ_LAST_TRICK_BONUS = 10
    KJ_STUK_ROEM = 20         # K and Q of trumps
    KJ_RUN3_ROEM = 20         # three in a row of one suit
    KJ_RUN4_ROEM = 50         # four in a row
    KJ_MADE = 30000           # the nat search's value of a made outcome (above any net score)
    # search bounds
    KJ_INF = 1000000          # beyond every value: the full window
    KJ_NO_LOWER = -32000      # an entry without a lower bound (entries hold 16-bit bounds)
    KJ_NO_UPPER = 32000       # an entry without an upper bound
    KJ_ANY_NEED = 32767       # a nat-search lower bound valid for every need
    KJ_NO_CARD = 255          # an entry without a best card
    # stuk rules (Rules.stuk)
    KJ_STUK_TRICK = 0
    KJ_STUK_HAND = 1
    KJ_STUK_OFF = 2
    # where the search features start (tricks done or left, as named)
    KJ_TWIN_MAX_DONE = 5      # twins at trick boundaries with this many tricks done or fewer
                              # (one more in the roem game)
    KJ_ESTIMATE_BEFORE_DONE = 3   # d-search nodes with fewer tricks done: kj_order_by_estimate
    KJ_PLAIN_FROM_DONE = 3    # boundaries with this many tricks done or more: kj_search_trick (default)
    KJ_KEY_TRICKS_LEFT = 5    # low cards moved in the table key with this many tricks left or more
    KJ_ROEM_TEST_TRICKS_LEFT = 3  # the nat search's roem-game tests from this many tricks left
    # table sizes
    KJ_TWIN_WAYS = 4          # slots of a twin-table bucket
    KJ_FILTER_WORDS = 4096    # 64-bit words of a presence filter (32 KiB: cache-resident)
    KJ_LAST_TWO_BITS = 10     # the two-trick table (kj_search_last_two) has 2 ** KJ_LAST_TWO_BITS entries


# trick power by natural rank (7 8 9 T J Q K A)
cdef int KJ_TRUMP_POWER[8]
cdef int KJ_PLAIN_POWER[8]
cdef int KJ_TRUMP_POINTS[8]
cdef int KJ_PLAIN_POINTS[8]
cdef int KJ_FOUR_ROEM[8]
cdef int KJ_RUN_ROEM_MAX[9]   # upper bound of run roem from n cards of one suit in runs


KJ_TRUMP_POWER[:] = [1, 2, 7, 5, 8, 3, 4, 6]
KJ_PLAIN_POWER[:] = [1, 2, 3, 7, 4, 5, 6, 8]
KJ_TRUMP_POINTS[:] = [0, 0, 14, 10, 20, 3, 4, 11]
KJ_PLAIN_POINTS[:] = [0, 0, 0, 10, 2, 3, 4, 11]
KJ_FOUR_ROEM[:] = [0, 0, 0, 100, 200, 100, 100, 100]
KJ_RUN_ROEM_MAX[:] = [0, 0, 0, 20, 50, 50, 50, 70, 100]


# 8-bit trump patterns: KJ_NATURAL_TO_POWER maps one by natural rank
# (kj_suit_pattern) to one by power (bit p - 1 for power p),
# KJ_TRUMP_PATTERN_POINTS gives the points of a by-power pattern and
# KJ_ABOVE_TOP the bits above the highest one of a pattern (all for 0)
cdef uint8_t KJ_NATURAL_TO_POWER[256]
cdef uint8_t KJ_ABOVE_TOP[256]
cdef int KJ_TRUMP_PATTERN_POINTS[256]
for _m in range(256):
    KJ_NATURAL_TO_POWER[_m] = sum(1 << (KJ_TRUMP_POWER[_r] - 1) for _r in range(8) if (_m >> _r) & 1)
    KJ_TRUMP_PATTERN_POINTS[_m] = sum(KJ_TRUMP_POINTS[_r] for _r in range(8)
                                      if (_m >> (KJ_TRUMP_POWER[_r] - 1)) & 1)
    KJ_ABOVE_TOP[_m] = 0xFF & ~((2 << (_m.bit_length() - 1)) - 1) if _m else 0xFF


# twin keys (kj_twin_key): KJ_POINTS_BY_POWER gives the points of the card of
# each power (row 1: trumps), KJ_PACK4[m << 4 | x] packs the bits of x at the
# set bits of m (4 bits) together and KJ_BITS4 counts bits
cdef int KJ_POINTS_BY_POWER[2][8]
cdef uint8_t KJ_PACK4[256]
cdef uint8_t KJ_BITS4[16]
for _r in range(8):
    KJ_POINTS_BY_POWER[0][KJ_PLAIN_POWER[_r] - 1] = KJ_PLAIN_POINTS[_r]
    KJ_POINTS_BY_POWER[1][KJ_TRUMP_POWER[_r] - 1] = KJ_TRUMP_POINTS[_r]
# KJ_POINT_BYTES[t][m]: the points of the cards of by-power pattern m, a byte
# each, from the lowest power up (row 1: trumps), for kj_twin_delta
cdef uint64_t KJ_POINT_BYTES[2][256]
for _m in range(256):
    for _t in range(2):
        KJ_POINT_BYTES[_t][_m] = sum(KJ_POINTS_BY_POWER[_t][_b] << (8 * _k)
                                     for _k, _b in enumerate(_b for _b in range(8) if (_m >> _b) & 1))
for _m in range(16):
    KJ_BITS4[_m] = bin(_m).count("1")
    _at = [_b for _b in range(4) if (_m >> _b) & 1]
    for _x in range(16):
        KJ_PACK4[(_m << 4) | _x] = sum(1 << _k for _k, _b in enumerate(_at) if (_x >> _b) & 1)


cdef inline uint32_t kj_compress8(uint32_t m, uint32_t x) noexcept nogil:
    """The bits of ``x`` at the set bits of ``m`` (8 bits), packed together."""
    if QS_HAS_PEXT:
        return qs_pext32(x, m)
    return KJ_PACK4[((m & 15) << 4) | (x & 15)] | (KJ_PACK4[(m & 0xF0) | (x >> 4)] << KJ_BITS4[m & 15])


cdef inline uint32_t kj_compress32(uint32_t m, uint32_t x) noexcept nogil:
    """The bits of ``x`` at the set bits of ``m`` (32 bits), packed together."""
    cdef uint32_t out = 0, mb
    cdef int i, k = 0
    if QS_HAS_PEXT:
        return qs_pext32(x, m)
    for i in range(4):
        mb = (m >> (8 * i)) & 0xFFu
        out |= kj_compress8(mb, (x >> (8 * i)) & 0xFFu) << k
        k += KJ_BITS4[mb & 15] + KJ_BITS4[mb >> 4]
    return out


# KJ_BY_POWER[trump][j][x]: byte j (x) of a card mask in the by-power layout of
# the twin key: bit 8 * suit + power - 1 (each suit's by-power pattern a byte)
cdef uint32_t KJ_BY_POWER[4][4][256]


cdef void kj_init_by_power() noexcept:
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
                        pw = KJ_TRUMP_POWER[nat] if su == t else KJ_PLAIN_POWER[nat]
                        v |= (<uint32_t>1) << (8 * su + pw - 1)
                KJ_BY_POWER[t][j][x] = v


kj_init_by_power()


cdef inline uint32_t kj_by_power(uint32_t* tab, uint32_t m) noexcept nogil:
    """Card mask ``m`` in the by-power layout (``tab``: KJ_BY_POWER of the trump)."""
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
