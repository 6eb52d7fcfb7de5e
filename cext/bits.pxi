# Bit twiddling over card masks: a card set is a uint64 (52-card layout) or a
# uint32 (32-card layout); bit i stands for the card with dense index i.

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint32_t, uint64_t


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

