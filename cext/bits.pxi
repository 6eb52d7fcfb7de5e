# Bit twiddling over card masks: a card set is a uint64 (52-card layout) or a
# uint32 (32-card layout); bit i stands for the card with dense index i.

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint32_t, uint64_t


cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__)))
    static inline int qs_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int qs_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #elif defined(__GNUC__) || defined(__clang__)
    /* x86 without the popcnt instruction enabled: the builtin would call a slow
       library routine, so count in registers (SWAR) */
    static inline int qs_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    static inline int qs_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #else
    static inline int qs_popcount64(unsigned long long x) {
        int n = 0; while (x) { x &= x - 1; n++; } return n;
    }
    static inline int qs_ctz64(unsigned long long x) {
        int n = 0; while (!(x & 1ULL)) { x >>= 1; n++; } return n;
    }
    #endif
    """
    int qs_popcount64(unsigned long long x) noexcept nogil
    int qs_ctz64(unsigned long long x) noexcept nogil


cdef inline int popcount64(uint64_t x) noexcept nogil:
    return qs_popcount64(x)


cdef inline int ctz64(uint64_t x) noexcept nogil:
    """Index of the lowest set bit; undefined for x == 0."""
    return qs_ctz64(x)


def popcount(uint64_t mask):
    """Number of set bits of a 64-bit mask.

    >>> popcount(0b1011)
    3
    """
    return popcount64(mask)


def bit_indices(uint64_t mask):
    """Indices of the set bits of a 64-bit mask, ascending, as a tuple.

    >>> bit_indices(0b1010)
    (1, 3)
    """
    cdef int n = popcount64(mask)
    cdef tuple out = PyTuple_New(n)
    cdef int k = 0
    cdef object item
    while mask:
        item = ctz64(mask)
        Py_INCREF(item)
        PyTuple_SET_ITEM(out, k, item)
        k += 1
        mask &= mask - 1
    return out

