# C shims shared by every kernel: the inline C (``cdef extern from *``) for the
# processor's bit instructions and for what plain C lacks, each with a portable
# fallback.  Included once, first, by _core.pyx; no other .pxi holds inline C.
# Entry points: qs_popcount64, qs_ctz64 (wrapped in bits.pxi), qs_pext32 where
# QS_HAS_PEXT, qs_sad8, qs_thread_cpu_seconds, QS_PREFETCH, qs_table_alloc and
# qs_table_free, qs_u128 (exact where QS_HAVE_U128), qs_splitmix64.

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


cdef extern from *:
    """
    /* BMI2's pext where the build enables it (setup.py): the bits of x at the
       set bits of m, packed together, in one instruction */
    #if defined(__BMI2__)
    #include <immintrin.h>
    #define QS_HAS_PEXT 1
    static inline uint32_t qs_pext32(uint32_t x, uint32_t m) { return _pext_u32(x, m); }
    #else
    #define QS_HAS_PEXT 0
    static inline uint32_t qs_pext32(uint32_t x, uint32_t m) { (void)m; return x; }
    #endif
    """
    int QS_HAS_PEXT
    uint32_t qs_pext32(uint32_t x, uint32_t m) noexcept nogil


cdef extern from *:
    """
    /* The sum of the absolute differences of the eight bytes of a and b: one
       SSE2 instruction on x86-64, else a loop */
    #if defined(__SSE2__) && defined(__x86_64__)
    #include <emmintrin.h>
    static inline int qs_sad8(uint64_t a, uint64_t b) {
        return _mm_cvtsi128_si32(_mm_sad_epu8(_mm_cvtsi64_si128((long long)a),
                                              _mm_cvtsi64_si128((long long)b)));
    }
    #else
    static inline int qs_sad8(uint64_t a, uint64_t b) {
        int s = 0, i;
        for (i = 0; i < 64; i += 8) {
            int x = (int)((a >> i) & 255), y = (int)((b >> i) & 255);
            s += x > y ? x - y : y - x;
        }
        return s;
    }
    #endif
    """
    int qs_sad8(uint64_t a, uint64_t b) noexcept nogil


cdef extern from *:
    """
    /* Seconds of CPU time of the calling thread (of the process where the
       system has no per-thread clock): the solver's time limit.  A thread's
       own clock keeps a solve's limit its own when several threads solve at
       once (the process's clock runs that many times faster). */
    #include <time.h>
    static double qs_thread_cpu_seconds(void) {
    #if defined(CLOCK_THREAD_CPUTIME_ID)
        struct timespec t;
        if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0)
            return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
    #endif
        return (double)clock() / (double)CLOCKS_PER_SEC;
    }
    """
    double qs_thread_cpu_seconds() noexcept nogil


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define QS_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define QS_PREFETCH(p) ((void)0)
    #endif
    """
    void QS_PREFETCH(const void* p) noexcept nogil


cdef extern from *:
    """
    #include <stdint.h>
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Zeroed memory of ``bytes`` bytes, 128-byte aligned, for the transposition
       table; release it with qs_table_free(*raw, *raw_len).  On Linux a table of
       2 MiB or more is an anonymous mapping (zero pages until touched, like a
       large calloc) on transparent huge pages where the system allows it: its
       probes are random, and with 4 KiB pages most of them also miss the TLB. */
    static void* qs_table_alloc(size_t bytes, void** raw, size_t* raw_len) {
        void* p;
    #if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
        const size_t huge = (size_t)1 << 21;
        if (bytes >= huge) {
            size_t len = bytes + huge;
            p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p != MAP_FAILED) {
                void* a = (void*)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
                madvise(a, bytes, MADV_HUGEPAGE);
                *raw = p;
                *raw_len = len;
                return a;
            }
        }
    #endif
        p = calloc(1, bytes + 128);
        *raw = p;
        *raw_len = 0;
        if (p == NULL)
            return NULL;
        return (void*)(((uintptr_t)p + 127) & ~(uintptr_t)127);
    }
    static void qs_table_free(void* raw, size_t raw_len) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
        if (raw_len) {
            munmap(raw, raw_len);
            return;
        }
    #endif
        free(raw);
    }
    """
    void* qs_table_alloc(size_t bytes, void** raw, size_t* raw_len) noexcept nogil
    void qs_table_free(void* raw, size_t raw_len) noexcept nogil


cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__SIZEOF_INT128__)
    typedef unsigned __int128 qs_u128;
    #define QS_HAVE_U128 1
    static inline unsigned long long qs_u128_hi(qs_u128 x) { return (unsigned long long)(x >> 64); }
    static inline unsigned long long qs_u128_lo(qs_u128 x) { return (unsigned long long)x; }
    #else
    typedef long double qs_u128;
    #define QS_HAVE_U128 0
    static inline unsigned long long qs_u128_hi(qs_u128 x) { return (unsigned long long)(x / 18446744073709551616.0L); }
    static inline unsigned long long qs_u128_lo(qs_u128 x) {
        return (unsigned long long)(x - (long double)qs_u128_hi(x) * 18446744073709551616.0L);
    }
    #endif
    /* the state is a uint64_t, as the callers declare it: a pointer of another
       64-bit type is an incompatible pointer (an error from GCC 14 on) */
    static inline uint64_t qs_splitmix64(uint64_t *s) {
        uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    """
    ctypedef unsigned long long qs_u128
    int QS_HAVE_U128
    unsigned long long qs_u128_hi(qs_u128 x) noexcept nogil
    unsigned long long qs_u128_lo(qs_u128 x) noexcept nogil
    uint64_t qs_splitmix64(uint64_t *s) noexcept nogil
