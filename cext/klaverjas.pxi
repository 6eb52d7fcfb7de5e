# Klaverjas kernels: the exact double-dummy solver (all hands visible).
#
# Cards: a uint32 mask, bit b = card index - 20, so b = 4 * natural + suit with
# natural 0..7 = 7 8 9 T J Q K A and suit 0..3 = c d h s.
#
# Objective: the net score of the playing team P (RULES.md): with
#   d = P total - other total (cards + last trick + roem + pit),
# the hand is made iff d > thr (thr = 0 when a tie is nat, -1 otherwise) and then
# net = d; otherwise net = -(162 + all roem + pit).  Any made outcome beats any nat
# outcome for P, so (proofs in the module docstring of quartet_solver.klaverjas.dd):
#   1. D = minimax value of the ADDITIVE future d (mode D, "search_d"), by one
#      principal variation search on the window (thr - acc_d, inf): it fails
#      low when the hand is nat (at its wide-window nodes and in the first three
#      tricks the cards are ordered by an estimate to the end of the trick,
#      kj_order_by_estimate);
#   2. if acc_d + D > thr the value is acc_d + D;
#   3. else the value is the minimax of h = BIG if made else -(162 + roem + pit)
#      (mode N, "search_n", absolute values; h - base depends on the position
#      and on need = thr - acc_d only, and never grows with need, so one table
#      entry per position serves every score).  It lies between base - R and
#      base (base = -(162 + roem so far)), R the value of the roem game (mode R,
#      "search_r": future roem + pit, P minimises, nobody plays for the hand),
#      which is cheaper to search: its tests settle many values of h, and
#      where the other team leads a trick a roem-game test goes first there.
# All searches are fail-soft alpha-beta with one transposition table of bounds
# (probed at trick boundaries only; in its key, zero-point cards that can be in
# no run move down to the lowest ranks of their suit) and, with three tricks left
# or more, a twin table: positions with the same holders of each suit's cards by
# power order and the same roem cards (those still out that can be in a roem:
# kj_roem_cov) at the same places by power are the same game but for the card
# points, so a twin's bounds bound the position, widened by the point difference
# (the sure top trumps' share a known shift: kj_twin_delta) in mode D, at a
# shifted need in mode N and as they are in mode R (where the
# twin table alone holds the bounds, from two tricks left: kj_twin_key,
# kj_twin_probe), each table with a presence filter that skips most probes
# that would find nothing (kj_filter_has); cheap upper/lower bounds
# (points, roem by distinct players, top trumps of one team), interchangeable
# zero-point cards merged (in the roem game's leads, any that can be in no roem:
# kj_merge_dead) and move ordering; with five to three tricks left a
# plain search of each trick (only the lead ordered; the state updated once per
# trick), with two left nested loops over the first of them and the last scored
# directly (kj_two; in modes D and N without the table).  A killer goes first,
# before the table's best card (kj_killer).

from libc.string cimport memset
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t

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


ctypedef struct KJEntry:
    uint32_t h[4]             # the table key (kj_canon)
    int16_t nlo               # nat-search entries: lo holds for needs <= nlo,
    int16_t nhi               # hi for needs >= nhi (kj_use_entry_n)
    int16_t lo
    int16_t hi
    uint16_t gen
    uint8_t meta
    uint8_t best
    uint8_t depth
    uint8_t pad[3]


ctypedef struct KJTwin:
    # bounds of the future d of a position, found by its twin key (kj_twin_key)
    uint32_t k[4]             # the twin key
    uint32_t sig              # which cards (kj_twin_key)
    int16_t lo
    int16_t hi
    uint16_t gen
    uint8_t meta              # leader, pit flags, the search (16: nat, 32: roem game)
    uint8_t pad
    int16_t nlo               # nat-search entries: as in KJEntry
    int16_t nhi
    uint32_t cov              # the roem cards (kj_roem_cov) and their places (kj_twin_key)
    uint32_t cpos


ctypedef struct KJTwoEntry:
    # bounds of the last two tricks' value of a position (kj_two) less the acc
    # d (d search) or the roem so far (roem game): that part depends on the
    # position alone
    uint64_t key              # kj_two_entry
    int16_t lo
    int16_t hi
    uint16_t gen
    uint16_t pad


ctypedef struct KJDyn:
    # the part of the state that a card changes (saved whole for undo)
    int ntrick, leader, led, win_pos, win_pow, hi_trump, tpts
    uint32_t tmask
    # accumulated score: acc d for P (cards + roem + pit), all roem + pit so far
    int accd, acct, flags, tricks_done
    int hpts                  # points of the cards still in the hands


ctypedef struct KJUndo:
    KJDyn d
    int tcard


ctypedef struct KJState:
    uint32_t hands[4]
    int trump, rotterdam, stuk_mode, stuk_seat, pit, thr, playing
    uint32_t trumpmask, stukmask
    # the roem the loaded position's holdings leave possible (kj_roem_holdings)
    uint32_t run_ok, four_ok
    int stuk_ok
    int pts[32]
    int tpow[32]              # 1..8 for trumps, 0 otherwise
    int ppow[32]              # plain power by rank, 1..8
    int powt[4][32]           # kj_power by led suit and card
    uint32_t trump_above[9]   # trumps with power > p
    uint32_t plain_above[32]  # cards of any suit whose plain power beats card c's
    int powcard[4][9]         # card bit of each suit's card with power p (1..8; trump power for trumps)
    # the trick in progress (its cards) and the rest of the changing state
    int tcard[4]
    KJDyn d
    # transposition table (its key: kj_canon)
    int key_tricks
    int rtest_tricks          # roem-game tests in the nat search with this many tricks left or more
    int plain_from            # kj_trick_plain at boundaries with this many tricks done or more
    KJEntry* tt
    uint64_t ttmask
    KJTwin* tw                # the twin table (kj_twin_key), used unless ``twins`` is 0
    uint64_t twmask
    int twins
    uint16_t gen
    # limits
    uint64_t nodes, node_limit
    uint64_t check_at         # node count of the next look at the limits (kj_check_slow)
    double deadline           # qs_thread_cpu_seconds() at which to stop
    int has_deadline, aborted
    uint64_t phase_nodes[2]   # nodes spent: the d search, the nat search
    # the two-trick table (kj_two; 16 KiB: cache-resident), by generation
    KJTwoEntry two[1 << KJ_TWO_BITS]
    # presence filters of the two tables (kj_filter_has): a bit per class of
    # hashes, set when an entry of this generation is made for one of them
    uint64_t tfilt[KJ_FILTER_WORDS]
    uint64_t wfilt[KJ_FILTER_WORDS]
    # killers (kj_killer): by tricks done, place in the trick, seat, led suit
    # and winning card so far, the card that last cut a search there
    int8_t killer[8][4][4][4][16]


cdef inline uint32_t kj_merge_dead(KJState* s, uint32_t own, uint32_t legal, uint32_t tmask,
                                   uint32_t dead) noexcept nogil:
    """The roem game's merge (:func:`kj_search_r`, where card points do not
    count): of the legal cards that can be in no roem (``dead``), keep one of
    each run of a suit in power order with no card of another hand (or of the
    trick) between them, the lowest.  Such cards win and lose the same tricks
    and make the same roem (none), so they are the same move; a card that can
    be in no roem never can again, so a trick boundary's ``dead`` holds to the
    end of the trick.  (The plain merge, :func:`kj_merge`, takes zero-point
    cards alone, for the searches where points count.)"""
    cdef uint32_t cand = legal & dead, c, x, b, above, nb, drop = 0
    cdef uint32_t* lay
    cdef int q
    if not (cand & ((cand >> 4) | (cand >> 8) | (cand >> 12) | (cand >> 16) | (cand >> 20)
                    | (cand >> 24) | (cand >> 28))):
        return legal                # no two of one suit
    # by-power layout (kj_twlay): bit 8 * suit + power - 1
    lay = &KJ_TWLAY[s.trump][0][0]
    c = kj_twlay(lay, cand)
    x = c | kj_twlay(lay, (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | tmask) & ~own)
    b = c
    while b:
        q = ctz64(b)
        b &= b - 1
        # the next card above this one in power order, of its suit
        above = x & ((<uint32_t>0xFFu) << (q & ~7)) & ~((<uint32_t>2 << q) - 1)
        nb = above & (~above + 1)
        if nb & c:
            drop |= nb
    while drop:
        q = ctz64(drop)
        drop &= drop - 1
        legal &= ~((<uint32_t>1) << s.powcard[q >> 3][(q & 7) + 1])
    return legal


cdef inline int kj_power(KJState* s, int c, int led) noexcept nogil:
    """Trick power of card ``c`` when suit ``led`` was led (0: it cannot win):
    100 + trump power for a trump, plain power in the led suit (a table)."""
    return s.powt[led][c]


cdef inline void kj_trick_add(KJState* s, int c, int i, int* led, int* hi_trump, int* win_pow,
                              int* win_pos) noexcept nogil:
    """Card ``c`` played as the ``i``-th of a trick: update its led suit, highest
    trump and winning card."""
    cdef int pw
    if i == 0:
        led[0] = c & 3
    pw = kj_power(s, c, led[0])
    if pw > win_pow[0]:
        win_pow[0] = pw
        win_pos[0] = i
    if s.tpow[c] > hi_trump[0]:
        hi_trump[0] = s.tpow[c]


cdef inline int kj_second_stuk(KJState* s, int seat, uint32_t bit, uint32_t rest) noexcept nogil:
    """Stuk "hand": whether ``seat`` playing card ``bit`` (``rest``: its other
    cards) plays the second of its K, Q of trumps, which scores the 20."""
    return (s.stuk_mode == KJ_STUK_HAND and seat == s.stuk_seat and (bit & s.stukmask) != 0
            and (rest & s.stukmask) == 0)


cdef inline uint32_t kj_legal_at(KJState* s, uint32_t hand, int n, int led, int hi_trump,
                                 int win_pos) noexcept nogil:
    """Legal cards of ``hand`` as the ``n``-th card of a trick (led suit ``led``,
    highest trump power ``hi_trump``, winning card at position ``win_pos``)."""
    cdef uint32_t follow, trumps, higher, others, r
    if n == 0:
        return hand
    follow = hand & (0x11111111u << led)
    if led == s.trump:
        if follow:
            higher = follow & s.trump_above[hi_trump]
            return higher if higher else follow
        return hand
    if follow:
        return follow
    trumps = hand & s.trumpmask
    if not trumps:
        return hand
    higher = trumps & s.trump_above[hi_trump]
    if s.rotterdam:
        return higher if higher else trumps
    others = hand & ~s.trumpmask
    if n >= 2 and win_pos == n - 2:       # partner winning
        if hi_trump == 0:
            return hand
        r = others | higher
        return r if r else hand
    if hi_trump == 0:
        return trumps
    if higher:
        return higher
    return others if others else hand


cdef inline uint32_t kj_legal(KJState* s, uint32_t hand) noexcept nogil:
    return kj_legal_at(s, hand, s.d.ntrick, s.d.led, s.d.hi_trump, s.d.win_pos)


cdef inline int kj_trick_roem(KJState* s, uint32_t m) noexcept nogil:
    """Roem of a complete trick (4 cards).  Bit 4 * rank + suit: the same suit's
    next rank is 4 bits up, so runs are ANDs of shifted masks."""
    cdef int r = 0, c
    cdef uint32_t run3 = m & (m >> 4) & (m >> 8)
    if run3:
        r = 50 if run3 & (m >> 12) else 20
    else:
        c = ctz64(m)
        if (c & 3) == 0 and m == (<uint32_t>0xF) << c:
            r = KJ_FOUR[c >> 2]     # four of a kind
    if s.stuk_mode == KJ_STUK_TRICK and (m & s.stukmask) == s.stukmask:
        r += 20
    return r


cdef inline uint32_t kj_roem_cards(KJState* s) noexcept nogil:
    """With three cards in the trick: the cards whose play as the fourth can make
    roem (a suit with two cards in the trick, the fourth of a kind, stuk)."""
    cdef uint32_t tm = s.d.tmask, out = 0, sm
    cdef int suit, c = ctz64(tm)
    for suit in range(4):
        sm = tm & (<uint32_t>0x11111111u << suit)
        if sm & (sm - 1):
            out |= <uint32_t>0x11111111u << suit
    if (tm | ((<uint32_t>0xF) << (c & ~3))) == ((<uint32_t>0xF) << (c & ~3)):
        out |= (<uint32_t>0xF) << (c & ~3)
    if s.stuk_mode == KJ_STUK_TRICK and (tm & s.stukmask):
        out |= s.stukmask
    return out


cdef inline void kj_play(KJState* s, int seat, int c, KJUndo* u) noexcept nogil:
    cdef uint32_t bit = (<uint32_t>1) << c
    cdef int winner, team, taken, roem, pitb, sign
    u.d = s.d
    u.tcard = s.tcard[s.d.ntrick]
    s.hands[seat] &= ~bit
    s.d.hpts -= s.pts[c]
    if kj_second_stuk(s, seat, bit, s.hands[seat]):
        s.d.acct += 20
        s.d.accd += 20 if (seat & 1) == s.playing else -20
    kj_trick_add(s, c, s.d.ntrick, &s.d.led, &s.d.hi_trump, &s.d.win_pow, &s.d.win_pos)
    s.tcard[s.d.ntrick] = c
    s.d.tmask |= bit
    s.d.tpts += s.pts[c]
    s.d.ntrick += 1
    if s.d.ntrick == 4:
        winner = (s.d.leader + s.d.win_pos) & 3
        team = winner & 1
        s.d.tricks_done += 1
        taken = s.d.tpts + (10 if s.d.tricks_done == 8 else 0)
        roem = kj_trick_roem(s, s.d.tmask)
        s.d.flags &= (1 << team)
        pitb = s.pit if (s.d.tricks_done == 8 and (s.d.flags & (1 << team))) else 0
        sign = 1 if team == s.playing else -1
        s.d.accd += sign * (taken + roem + pitb)
        s.d.acct += roem + pitb
        s.d.leader = winner
        s.d.ntrick = 0
        s.d.tmask = 0
        s.d.tpts = 0
        s.d.hi_trump = 0
        s.d.win_pow = 0
        s.d.win_pos = 0


cdef inline void kj_undo(KJState* s, int seat, int c, KJUndo* u) noexcept nogil:
    s.hands[seat] |= (<uint32_t>1) << c
    s.d = u.d
    s.tcard[u.d.ntrick] = u.tcard      # the roem bound reads the trick's cards


cdef inline void kj_roem_holdings(KJState* s) noexcept nogil:
    """At a trick boundary where a position is loaded: which roem its holdings
    leave possible (:func:`kj_roem_prospects`).  A roem takes one card of each
    of distinct players, so a run of three ranks w, w+1, w+2 of a suit is
    impossible when one player holds two of them, four of a kind when one
    holds two, stuk (per trick) when one holds K and Q.  A player's holding
    only shrinks, so while all of a roem's cards are still out (in the hands
    or the trick, counted for the players who played them) the one that held
    two still does: what is impossible here stays so, and what is possible
    stays so while its cards are out."""
    cdef uint32_t h, a, bad = 0, two = 0, c
    cdef int i
    s.stuk_ok = 1
    for i in range(4):
        h = s.hands[i]
        a = h & (h >> 4)
        bad |= a | (a >> 4) | (h & (h >> 8))
        # per rank (a nibble): two cards or more, by the nibble's bit count
        c = (h & 0x55555555u) + ((h >> 1) & 0x55555555u)
        c = (c & 0x33333333u) + ((c >> 2) & 0x33333333u)
        two |= (c + 0x66666666u) & 0x88888888u
        if (h & s.stukmask) == s.stukmask:
            s.stuk_ok = 0
    s.run_ok = ~bad
    # bit 4 * n for each rank n >= 3 (T J Q K A) no player holds two of
    s.four_ok = ~(two >> 3) & 0x11111000u


cdef inline uint32_t kj_live_runs(KJState* s, uint32_t m) noexcept nogil:
    """The runs that can still be scored when the cards still out are ``m``:
    bit 4 * w + suit for the ranks w, w + 1, w + 2 of a suit all in ``m``, that
    no player holds two of (:func:`kj_roem_holdings`)."""
    return m & (m >> 4) & (m >> 8) & s.run_ok


cdef inline uint32_t kj_live_fours(KJState* s, uint32_t m) noexcept nogil:
    """The fours of a kind that can still be scored when the cards still out
    are ``m``: bit 4 * n for each rank n with all four cards in ``m``, that no
    player holds two of (:func:`kj_roem_holdings`)."""
    return m & (m >> 1) & (m >> 2) & (m >> 3) & s.four_ok


cdef inline uint32_t kj_roem_prospects(KJState* s, uint32_t* four, int* stuk) noexcept nogil:
    """The roem that can still be scored from the cards in the hands and in the
    trick: returns the cards of the runs that can (windows of ranks w, w+1, w+2
    of a suit, all out, that no player holds two of); ``four`` gets bit 4 * n
    for each rank n whose four of a kind can (all out, no player holds two),
    ``stuk`` whether stuk can (per trick: K and Q out, not one player's; per
    hand: its holder has still to play the second).  What the holdings leave
    possible is set once per loaded position (:func:`kj_roem_holdings`)."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.d.tmask
    cdef uint32_t good = kj_live_runs(s, rem)
    four[0] = kj_live_fours(s, rem)
    stuk[0] = 0
    if s.stuk_mode == KJ_STUK_TRICK:
        stuk[0] = s.stuk_ok and (rem & s.stukmask) == s.stukmask
    elif s.stuk_mode == KJ_STUK_HAND and s.stuk_seat >= 0 and (s.hands[s.stuk_seat] & s.stukmask):
        stuk[0] = 1             # the holder has still to play the second of K, Q
    return good | (good << 4) | (good << 8)


cdef inline int kj_roem_ub_cov(KJState* s, uint32_t* cov_o) noexcept nogil:
    """An upper bound of the roem still to be scored from the cards in the hands
    and in the trick (:func:`kj_roem_prospects`), with the roem cards in the
    hands in ``cov_o`` (:func:`kj_roem_cov`): one look at the prospects serves
    the bound and the twin key (paired 0.97-0.98x time)."""
    cdef uint32_t four
    cdef int stuk, suit, n, ub = 0
    cdef uint32_t cov = kj_roem_prospects(s, &four, &stuk), all4 = cov
    if cov:
        for suit in range(4):
            # the number of the suit's cards in runs: a sum of bits 4 apart by a product
            ub += KJ_RUNUB[(((cov >> suit) & 0x11111111u) * <uint32_t>0x11111111u) >> 28]
    while four:
        n = ctz64(four) >> 2
        four &= four - 1
        ub += KJ_FOUR[n]
        all4 |= (<uint32_t>0xF) << (4 * n)
    if stuk:
        all4 |= s.stukmask
    cov_o[0] = all4 & (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3])
    return ub + 20 * stuk


cdef inline int kj_roem_ub(KJState* s) noexcept nogil:
    """:func:`kj_roem_ub_cov` without the roem cards."""
    cdef uint32_t cov
    return kj_roem_ub_cov(s, &cov)


cdef inline int kj_points_of(KJState* s, uint32_t m) noexcept nogil:
    cdef int t = 0
    while m:
        t += s.pts[ctz64(m)]
        m &= m - 1
    return t


cdef inline void kj_arm_limits(KJState* s) noexcept nogil:
    """Set when :func:`kj_check_limits` next looks at the limits: past the node
    limit, and every 1024 nodes for the clock."""
    s.check_at = 0xFFFFFFFFFFFFFFFFULL
    if s.aborted:
        s.check_at = 0
        return
    if s.node_limit:
        s.check_at = s.node_limit + 1
    if s.has_deadline and (s.nodes | 1023) + 1 < s.check_at:
        s.check_at = (s.nodes | 1023) + 1


cdef int kj_check_slow(KJState* s) noexcept nogil:
    """:func:`kj_check_limits` when it is time to look at the limits."""
    if not s.aborted:
        if s.node_limit and s.nodes > s.node_limit:
            s.aborted = 1
        elif s.has_deadline and qs_thread_cpu_seconds() > s.deadline:
            s.aborted = 1
        kj_arm_limits(s)
    return s.aborted


cdef inline int kj_check_limits(KJState* s) noexcept nogil:
    """Count a node; whether a limit stops the search (one comparison unless
    it is time to look)."""
    s.nodes += 1
    if s.nodes >= s.check_at:
        return kj_check_slow(s)
    return 0


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


cdef inline uint32_t kj_merge(KJState* s, uint32_t own, uint32_t legal) noexcept nogil:
    """Drop legal cards equivalent to a kept one: 0-point cards of one suit in
    the same hand with no card of another hand (or of the trick) between them,
    that are in no run that can still be scored (:func:`kj_roem_holdings`)."""
    return kj_merge_at(s, own, legal, s.d.tmask)


cdef inline uint32_t kj_merge_at(KJState* s, uint32_t own, uint32_t legal, uint32_t tmask) noexcept nogil:
    """:func:`kj_merge` with the trick's cards ``tmask`` given."""
    cdef uint32_t oth = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | tmask) & ~own
    cdef uint32_t lp, op, btw, live, lv
    cdef int su, r, prev
    cdef uint32_t low = legal & 0xFFFu & ~(s.trumpmask & 0xF00u)
    if not (low & ((low >> 4) | (low >> 8))):
        return legal                # no two low cards of one suit
    live = kj_live_runs(s, oth | own)
    for su in range(4):
        lp = kj_suit_pattern(legal, su) & (0x3u if su == s.trump else 0x7u)
        if (lp & (lp - 1)) == 0:
            continue
        op = kj_suit_pattern(oth, su)
        lv = kj_suit_pattern(live, su)
        prev = -1
        for r in range(3):
            if not (lp & (1u << r)):
                continue
            if lv & ((2u << r) - 1):
                continue            # in a run that can still be scored
            if prev >= 0:
                btw = ((1u << r) - 1) & ~((1u << (prev + 1)) - 1)
                if (op & btw) == 0:
                    legal &= ~((<uint32_t>1) << (4 * r + su))
                    continue
            prev = r
    return legal

cdef inline int kj_top_plain(KJState* s, uint32_t m) noexcept nogil:
    """The card of ``m`` (cards of one suit, not empty) no other card of ``m``
    beats when that suit is led."""
    cdef uint32_t t = m
    cdef int c = 0
    while t:
        c = ctz64(t)
        if not (m & s.plain_above[c]):
            break
        t &= t - 1
    return c


cdef inline int kj_top_trump(KJState* s, uint32_t rem) noexcept nogil:
    """The highest trump of ``rem`` (which holds one)."""
    cdef int* of_pow = s.powcard[s.trump]
    cdef int pw = 8
    while pw > 1 and not ((rem >> of_pow[pw]) & 1):
        pw -= 1
    return of_pow[pw]


cdef inline int kj_beatable(KJState* s, uint32_t oh, int pw) noexcept nogil:
    """Whether hand ``oh``, still to play to the trick, holds a card that may
    beat power ``pw`` (for move ordering only)."""
    cdef uint32_t fol = oh & (<uint32_t>0x11111111u << s.d.led)
    cdef int c
    if pw > 100:
        if s.d.led != s.trump and fol:
            return 0
        return (oh & s.trump_above[pw - 100]) != 0
    if fol:
        while fol:
            c = ctz64(fol)
            fol &= fol - 1
            if s.ppow[c] > pw:
                return 1
        return 0
    return (oh & s.trumpmask) != 0


cdef inline int kj_order(KJState* s, uint32_t legal, int first, int* out, int mode,
                         int second) noexcept nogil:
    """Legal cards in search order, ``first`` then ``second`` if legal (the
    killer, :func:`kj_killer`, and the table's best card: in a search from a
    new window the card that cut last is the better guess), then by the rules
    below; returns their number."""
    cdef int scores[8]
    cdef int cnt = 0, c, sc, pw, i, j, tmp, n = s.d.ntrick
    cdef int partner_win = n >= 2 and s.d.win_pos == n - 2
    cdef int r, pside = ((s.d.leader + n) & 1) == s.playing
    cdef uint32_t rem, rc = 0, part = 0, opp = 0, oh, sm, ruff = 0, last = 0
    cdef int bp = 0, toptr = -1
    cdef int tops[4]
    if (legal & (legal - 1)) == 0:
        out[0] = ctz64(legal)
        return 1
    rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    if n == 3:
        rc = kj_roem_cards(s)
    elif n == 0:
        part = s.hands[s.d.leader ^ 2]
        opp = s.hands[s.d.leader ^ 1] | s.hands[s.d.leader ^ 3]
        tops[0] = tops[1] = tops[2] = tops[3] = -1
        for i in range(1, 4, 2):
            # the suits this opponent can ruff (bit j of the fold: it holds suit j)
            oh = s.hands[s.d.leader ^ i]
            if oh & s.trumpmask:
                sm = oh | (oh >> 16)
                sm |= sm >> 8
                sm |= sm >> 4
                ruff |= <uint32_t>0x11111111u * (~sm & 0xFu)
    if partner_win and n == 2:
        last = s.hands[(s.d.leader + 3) & 3]
        bp = kj_beatable(s, last, s.d.win_pow)
    while legal:
        c = ctz64(legal)
        legal &= legal - 1
        if c == first:
            sc = 100001
        elif c == second:
            sc = 100000
        elif n == 0:
            # leading: a card no remaining card of its suit beats first, then low
            # cards to the partner's top card, then other low cards; not into a
            # ruff; trumps last once the other team has none
            if s.tpow[c]:
                if not (rem & s.trump_above[s.tpow[c]]):
                    sc = 500 + s.pts[c]
                else:
                    if toptr < 0:
                        toptr = kj_top_trump(s, rem)
                    sc = (150 + s.pts[c]) if (part >> toptr) & 1 else -s.tpow[c] - s.pts[c]
                if not (opp & s.trumpmask):
                    # it pulls no trump: after the plain top cards
                    sc = 250 + s.pts[c] if sc >= 500 else sc - 300
            else:
                sm = rem & (<uint32_t>0x11111111u << (c & 3))
                if not (sm & s.plain_above[c]):
                    sc = 300 + s.pts[c]
                else:
                    if tops[c & 3] < 0:
                        tops[c & 3] = kj_top_plain(s, sm)
                    sc = (200 + s.pts[c]) if (part >> tops[c & 3]) & 1 else -s.ppow[c] - s.pts[c]
                if ruff & sm:
                    sc -= 150 + 4 * s.pts[c]
        else:
            pw = kj_power(s, c, s.d.led)
            if bp:
                # the last hand can beat the partner's card: win for sure, or play low
                if pw > s.d.win_pow and not kj_beatable(s, last, pw):
                    sc = 1000 + s.pts[c] * 2 - pw
                else:
                    sc = -s.pts[c] * 4 - pw
            elif partner_win:
                sc = (200 + s.pts[c] * 4 - pw) if pw <= s.d.win_pow else (pw > 100) * -50 + s.pts[c]
            elif pw > s.d.win_pow:
                sc = 1000 + s.pts[c] * 2 - pw
            else:
                sc = -s.pts[c] * 4 - pw
            if (rc >> c) & 1:
                # the last card of a trick: its roem is known
                r = kj_trick_roem(s, s.d.tmask | ((<uint32_t>1) << c))
                if r:
                    if mode == 0:
                        sc += 8 * r if (partner_win or pw > s.d.win_pow) else -8 * r
                    else:
                        sc += -8 * r if pside else 8 * r
        # insertion sort, descending
        i = cnt
        while i > 0 and scores[i - 1] < sc:
            scores[i] = scores[i - 1]
            out[i] = out[i - 1]
            i -= 1
        scores[i] = sc
        out[i] = c
        cnt += 1
    return cnt


cdef inline int kj_pit_teams(int flags, int team) noexcept nogil:
    """The teams (bit t: team t) that may still take the pit, given ``team``,
    the holder of the highest trump still out (-1: none out): those that have
    won every trick so far (``flags``, as ``KJDyn.flags``), and if a trump is
    out only its holder's team (that trump wins the trick it falls in)."""
    return flags & (3 if team < 0 else 1 << team)


cdef inline int kj_top_trump_team(KJState* s, uint32_t rem, uint32_t* tr, uint32_t* ns) noexcept nogil:
    """The team holding the highest trump of ``rem`` (cards still in the
    hands; -1: no trump), with the by-power patterns of the trumps of ``rem``
    (``tr``) and of N/S's among them (``ns``, set only when there is a trump)."""
    tr[0] = KJ_NAT2POW[kj_suit_pattern(rem, s.trump)]
    if not tr[0]:
        return -1
    ns[0] = KJ_NAT2POW[kj_suit_pattern((s.hands[0] | s.hands[2]) & rem, s.trump)]
    return 0 if (ns[0] << 1) > tr[0] else 1


cdef inline uint32_t kj_sure_trumps(KJState* s, uint32_t rem, int* team) noexcept nogil:
    """The top trumps of ``rem`` that one team (``team``; -1 when no trump is
    out) holds above the other team's highest, as a by-power pattern (bit p - 1
    for power p): they win for that team whatever the trick they fall in."""
    cdef uint32_t tr, ns
    team[0] = kj_top_trump_team(s, rem, &tr, &ns)
    if team[0] < 0:
        return 0
    return tr & KJ_ABOVE[(tr & ~ns) if team[0] == 0 else ns]


cdef inline int kj_stuk_to_come(KJState* s, uint32_t gone=0) noexcept nogil:
    """Stuk "hand" still to be scored, in P's d: its holder still holds K or Q
    of trumps (``gone``: cards of the hands to count as played), so it will
    play the second of them (the other one it has played or will play first)."""
    if (s.stuk_mode == KJ_STUK_HAND and s.stuk_seat >= 0
            and (s.hands[s.stuk_seat] & ~gone & s.stukmask)):
        return 20 if (s.stuk_seat & 1) == s.playing else -20
    return 0


cdef inline void kj_future_bounds(KJState* s, int* dmin, int* dmax, int* rub_out, int* pit_o,
                                  int lazy_a=KJ_INF, int lazy_b=-KJ_INF,
                                  uint32_t* cov_o=NULL) noexcept nogil:
    """Bounds of the future d (P minus other) from a trick boundary, an upper bound
    of the roem still to come, and the pit the other team may still take.  With
    ``lazy_a < lazy_b`` the roem bound is computed only when the bounds can fall
    outside that window (else ``rub_out`` is -1 and the bounds are meaningless)."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int rp = s.d.hpts + 10
    cdef int rub, pp, po, pits
    cdef int p = s.playing
    cdef int team, sure, sd
    cdef uint32_t cov
    # the highest remaining trumps held by one team all win for it (whatever the
    # trick they fall in), so their points are that team's and the other takes no
    # pit: the run of top ones above the other team's highest
    sure = KJ_POWPTS[kj_sure_trumps(s, rem, &team)]
    pits = kj_pit_teams(s.d.flags, team)
    pp = s.pit if (pits >> p) & 1 else 0
    po = s.pit if (pits >> (1 - p)) & 1 else 0
    dmax[0] = rp + pp - (2 * sure if team == 1 - p else 0)
    dmin[0] = -(rp + po) + (2 * sure if team == p else 0)
    if lazy_a < lazy_b and dmax[0] > lazy_a and dmin[0] < lazy_b:
        rub_out[0] = -1             # no cut even without roem
    else:
        rub = kj_roem_ub_cov(s, &cov if cov_o == NULL else cov_o)
        rub_out[0] = rub
        # a stuk "hand" still to come (20 of rub) is roem its holder's team
        # is sure of
        sd = kj_stuk_to_come(s)
        if sd:
            rub -= 20
            dmax[0] += sd
            dmin[0] += sd
        dmax[0] += rub
        dmin[0] -= rub
    pit_o[0] = po


cdef inline int kj_last_winner(KJState* s, uint32_t last, int leader) noexcept nogil:
    """The seat that wins the last trick when every seat plays its card of
    ``last`` (one each) and ``leader`` leads it."""
    cdef int k, pw, best = -1, w = 0, led = ctz64(s.hands[leader] & last) & 3
    for k in range(4):
        pw = kj_power(s, ctz64(s.hands[k] & last), led)
        if pw > best:
            best = pw
            w = k
    return w


cdef inline int kj_last_team(KJState* s, uint32_t last, int leader, int flags,
                             int* bonus) noexcept nogil:
    """The team that wins the last trick (:func:`kj_last_winner`), with in
    ``bonus`` its roem and the pit when that team has won every trick before
    (``flags``)."""
    cdef int team = kj_last_winner(s, last, leader) & 1
    bonus[0] = kj_trick_roem(s, last) + (s.pit if flags & (1 << team) else 0)
    return team


cdef inline void kj_last_trick(KJState* s, int* accd, int* acct) noexcept nogil:
    """Final acc d and roem total when every seat holds one card (a trick
    boundary): the same scoring as :func:`kj_play`."""
    cdef uint32_t last = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int bonus, team = kj_last_team(s, last, s.d.leader, s.d.flags, &bonus)
    cdef int sd = kj_stuk_to_come(s), total = s.d.hpts + 10 + bonus
    accd[0] = s.d.accd + sd + (total if team == s.playing else -total)
    acct[0] = s.d.acct + (sd if sd >= 0 else -sd) + bonus


ctypedef struct KJTrick:
    # a trick in progress in the plain trick search (the hands are not changed)
    int led, hi_trump, win_pos, win_pow, tpts, sdd, sdt
    uint32_t tmask


cdef int kj_trick_done(KJState* s, KJTrick* t, int alpha, int beta, int mode) noexcept nogil:
    """The trick ``t`` of :func:`kj_trick_plain` is complete (its cards are still
    in the hands): score it, search on from the next trick boundary with the
    search of ``mode`` and put the state back.  Values as in
    :func:`kj_trick_plain`."""
    cdef uint32_t h0 = s.hands[0], h1 = s.hands[1], h2 = s.hands[2], h3 = s.hands[3]
    cdef uint32_t tm = t.tmask
    cdef int winner = (s.d.leader + t.win_pos) & 3
    cdef int team = winner & 1, roem = kj_trick_roem(s, tm), v
    # the fields changed below (the trick's own are all zero at a boundary)
    cdef int leader = s.d.leader, accd = s.d.accd, acct = s.d.acct, flags = s.d.flags
    cdef int hpts = s.d.hpts, led = s.d.led
    cdef int accd1 = accd + t.sdd + (t.tpts + roem if team == s.playing else -(t.tpts + roem))
    cdef int acct1 = acct + t.sdt + roem
    s.hands[0] = h0 & ~tm
    s.hands[1] = h1 & ~tm
    s.hands[2] = h2 & ~tm
    s.hands[3] = h3 & ~tm
    s.d.hpts -= t.tpts
    s.d.tricks_done += 1            # never the last trick here: no last-trick bonus, no pit
    s.d.flags &= 1 << team
    s.d.accd = accd1
    s.d.acct = acct1
    s.d.leader = winner
    s.d.led = t.led                 # the last trick's, for the killers
    if mode == 0:
        v = accd1 + kj_search_d(s, alpha - accd1, beta - accd1)
    elif mode == 1:
        v = kj_search_n(s, alpha, beta)
    else:
        v = acct1 + kj_search_r(s, alpha - acct1, beta - acct1)
    s.d.leader = leader
    s.d.led = led
    s.d.accd = accd
    s.d.acct = acct
    s.d.flags = flags
    s.d.hpts = hpts
    s.d.tricks_done -= 1
    s.hands[0] = h0
    s.hands[1] = h1
    s.hands[2] = h2
    s.hands[3] = h3
    return v


cdef inline int kj_ab_take(int maxi, int v, int* best, int* a, int* b) noexcept nogil:
    """Fail-soft alpha-beta bookkeeping of one child value ``v`` at a node of
    the maximiser (``maxi``) or the minimiser; returns whether it cuts."""
    if maxi:
        best[0] = v if v > best[0] else best[0]
        a[0] = best[0] if best[0] > a[0] else a[0]
    else:
        best[0] = v if v < best[0] else best[0]
        b[0] = best[0] if best[0] < b[0] else b[0]
    return a[0] >= b[0]


cdef inline int kj_two_leaf(KJState* s, int c0, int c1, int c2, int c3, int win_pos,
                            uint32_t all8, int sd, int mode, int roemy) noexcept nogil:
    """The value (absolute, as in :func:`kj_trick_plain`) of the last two tricks
    when the seats from the leader play ``c0`` .. ``c3`` to the first of them
    (``win_pos``: the place of its winning card) and their other cards to the
    last (``all8``: the eight cards; ``sd``: the stuk "hand" still to come, in
    P's d: its holder plays the second of K, Q in one of these tricks, whatever
    the order; ``roemy``: whether the eight cards hold a roem at all, else
    neither trick scores any)."""
    cdef int leader = s.d.leader, w7 = (leader + win_pos) & 3, team7 = w7 & 1, team8
    cdef uint32_t tm = ((<uint32_t>1) << c0) | ((<uint32_t>1) << c1) | ((<uint32_t>1) << c2) \
        | ((<uint32_t>1) << c3)
    cdef uint32_t last = all8 & ~tm
    cdef int r7 = 0, r8 = 0
    cdef int p7 = s.pts[c0] + s.pts[c1] + s.pts[c2] + s.pts[c3]
    cdef int p8 = s.d.hpts - p7 + 10
    cdef int fd, ft
    if roemy:
        r7 = kj_trick_roem(s, tm)
        r8 = kj_trick_roem(s, last)
        p8 += r8
    team8 = kj_last_winner(s, last, w7) & 1
    if (s.d.flags & (1 << team7)) and team8 == team7:
        p8 += s.pit
        r8 += s.pit
    p7 += r7
    fd = s.d.accd + sd + (p7 if team7 == s.playing else -p7) + (p8 if team8 == s.playing else -p8)
    ft = s.d.acct + (sd if sd >= 0 else -sd) + r7 + r8
    if mode == 0:
        return fd
    if mode == 2:
        return ft
    return KJ_BIG if fd > s.thr else -(162 + ft)


cdef inline KJTwoEntry* kj_two_entry(KJState* s, int mode, uint64_t* tk) noexcept nogil:
    """The two-trick table's slot of a position with two tricks left, with
    its exact key in ``tk``: the eight cards (bits 0-31), which of them N, E
    and S hold (a byte each, packed in the order of the cards: W holds the
    rest), the leader, the pit flags and the search (``mode``: 0 the d search,
    2 the roem game)."""
    cdef uint32_t all8 = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    tk[0] = (<uint64_t>all8 | ((<uint64_t>kj_compress32(all8, s.hands[0])) << 32)
             | ((<uint64_t>kj_compress32(all8, s.hands[1])) << 40)
             | ((<uint64_t>kj_compress32(all8, s.hands[2])) << 48)
             | ((<uint64_t>(s.d.leader | (s.d.flags << 2) | (mode << 4))) << 56))
    return &s.two[(tk[0] * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - KJ_TWO_BITS)]


cdef inline int kj_two_hit(KJState* s, KJTwoEntry* te, uint64_t tk, int off, int alpha, int beta,
                           int* v) noexcept nogil:
    """Whether the slot ``te`` holds the position ``tk`` with bounds that
    settle the window (values absolute: the stored ones plus ``off``), its
    value or bound then in ``v``."""
    if te.key != tk or te.gen != s.gen:
        return 0
    if te.lo + off >= beta or te.lo == te.hi:
        v[0] = te.lo + off
        return 1
    if te.hi + off <= alpha:
        v[0] = te.hi + off
        return 1
    return 0


cdef int kj_two(KJState* s, int alpha, int beta, int mode, KJTwoEntry* te,
                uint64_t tk) noexcept nogil:
    """Fail-soft alpha-beta over the last two tricks from their boundary (every
    hand holds two cards), values absolute as in :func:`kj_trick_plain`: the
    first of them by four nested loops over the legal cards, the last scored
    directly (:func:`kj_two_leaf`).  Cheaper than the plain trick search and
    its table probe there; its cards count as nodes.

    The d search and the roem game keep its bounds in a small table of their
    own by exact key (:func:`kj_two_entry`): a position with two tricks left
    recurs often in a solve (0.88x nodes, 0.95x instructions; the probe,
    cache-resident, costs a few of them: paired 0.98-0.99x time).  They probe
    it (:func:`kj_two_hit`) and pass the slot ``te`` (key ``tk``), where the
    result goes; the nat search's values depend on the need too, so it passes
    none."""
    cdef int leader = s.d.leader
    cdef int s1 = (leader + 1) & 3, s2 = (leader + 2) & 3, s3 = (leader + 3) & 3
    cdef int x0 = ((leader & 1) == s.playing) != (mode == 2)
    cdef int x1 = not x0, x2 = x0, x3 = not x0
    cdef uint32_t l0 = s.hands[leader], l1, l2, l3
    # the trick so far after each card, as kj_trick_add keeps it (winning place
    # w, winning power wp or p, highest trump t), kept in locals: calling
    # kj_trick_add per level took 1.3% longer (paired)
    cdef int c0, c1, c2, c3, led, p0, p1, p2, w1, w2, w3, wp1, wp2, t1, t2
    cdef int a0 = alpha, b0 = beta, a1, b1, a2, b2, a3, b3, v0, v1, v2, v3
    cdef int n = 0, sd = 0, roemy, off = s.d.accd if mode == 0 else s.d.acct
    cdef uint32_t all8 = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    if kj_check_limits(s):
        return 0
    sd = kj_stuk_to_come(s)
    # the eight cards hold a run, four of a kind or stuk that the holdings
    # leave possible (kj_roem_holdings; else no roem)
    roemy = kj_live_runs(s, all8) != 0 or kj_live_fours(s, all8) != 0 or (
        s.stuk_mode == KJ_STUK_TRICK and s.stuk_ok and (all8 & s.stukmask) == s.stukmask)
    v0 = -KJ_INF if x0 else KJ_INF
    while l0:
        c0 = ctz64(l0)
        l0 &= l0 - 1
        led = c0 & 3
        p0 = kj_power(s, c0, led)
        l1 = kj_legal_at(s, s.hands[s1], 1, led, s.tpow[c0], 0)
        a1 = a0
        b1 = b0
        v1 = -KJ_INF if x1 else KJ_INF
        while l1:
            c1 = ctz64(l1)
            l1 &= l1 - 1
            p1 = kj_power(s, c1, led)
            w1 = 1 if p1 > p0 else 0
            wp1 = p1 if w1 else p0
            t1 = s.tpow[c1] if s.tpow[c1] > s.tpow[c0] else s.tpow[c0]
            l2 = kj_legal_at(s, s.hands[s2], 2, led, t1, w1)
            a2 = a1
            b2 = b1
            v2 = -KJ_INF if x2 else KJ_INF
            while l2:
                c2 = ctz64(l2)
                l2 &= l2 - 1
                p2 = kj_power(s, c2, led)
                w2 = 2 if p2 > wp1 else w1
                wp2 = p2 if p2 > wp1 else wp1
                t2 = s.tpow[c2] if s.tpow[c2] > t1 else t1
                l3 = kj_legal_at(s, s.hands[s3], 3, led, t2, w2)
                a3 = a2
                b3 = b2
                v3 = -KJ_INF if x3 else KJ_INF
                while l3:
                    c3 = ctz64(l3)
                    l3 &= l3 - 1
                    n += 1
                    w3 = 3 if kj_power(s, c3, led) > wp2 else w2
                    if kj_ab_take(x3, kj_two_leaf(s, c0, c1, c2, c3, w3, all8, sd, mode, roemy),
                                  &v3, &a3, &b3):
                        break
                n += 1
                if kj_ab_take(x2, v3, &v2, &a2, &b2):
                    break
            n += 1
            if kj_ab_take(x1, v2, &v1, &a1, &b1):
                break
        n += 1
        if kj_ab_take(x0, v1, &v0, &a0, &b0):
            break
    s.nodes += n
    if te != NULL:
        # fail-soft: v0 is a lower bound above alpha, an upper bound below beta
        if te.key != tk or te.gen != s.gen:
            te.key = tk
            te.gen = s.gen
            te.lo = -32000
            te.hi = 32000
        if v0 > alpha:
            te.lo = v0 - off
        if v0 < beta:
            te.hi = v0 - off
    return v0


cdef inline int kj_pick(uint32_t legal, int first, int second) noexcept nogil:
    """The card to search alone before the others are ordered: ``first``, else
    ``second``, when it is legal and not the only legal card; else -1."""
    cdef int c = first if first >= 0 and (legal >> first) & 1 else second
    if c >= 0 and (legal >> c) & 1 and (legal & (legal - 1)):
        return c
    return -1


cdef inline int kj_stage(KJState* s, uint32_t legal, int first, int second, int* out, int mode,
                         uint32_t* rest) noexcept nogil:
    """The search order in two stages: ``first`` (else ``second``) alone when it
    is legal, with the other legal cards left in ``rest``, for the caller to
    search only if that card does not cut (most nodes cut on it; the searches
    order them by :func:`kj_order`, the plain trick search does not); else all
    the legal cards in the order of kj_order (``rest`` empty).
    Returns the number of cards put in ``out``."""
    cdef int c = kj_pick(legal, first, second)
    if c >= 0:
        out[0] = c
        rest[0] = legal & ~((<uint32_t>1) << c)
        return 1
    rest[0] = 0
    return kj_order(s, legal, first, out, mode, second)


cdef inline int8_t* kj_killer(KJState* s, int i, int seat, int led, int win_pow) noexcept nogil:
    """The killer slot of the ``i``-th card of a trick (led suit ``led``, winning
    power so far ``win_pow``): the card that last cut a search at the same place
    of a trick, by tricks done, seat to play, led suit and winning card (for a
    lead, ``led`` is the suit led to the trick before).  It is tried first, then
    the table's best card if there is one.  The winning card is its power (:func:`kj_power`): plain
    1-8 and trump 101-108 take the slots 1-7, 0 and 13-15, 8-12."""
    if i == 0:
        win_pow = 0
    return &s.killer[s.d.tricks_done][i][seat][led][(win_pow & 7) | ((win_pow >> 3) & 8)]


cdef inline void kj_trick_put(KJState* s, KJTrick* u, int seat, int c, int i) noexcept nogil:
    """Card ``c`` of ``seat`` played as the ``i``-th of the trick ``u`` (the
    hands unchanged; a second stuk "hand" it plays in ``u.sdd``, P's d, and
    ``u.sdt``)."""
    cdef uint32_t bit = (<uint32_t>1) << c
    kj_trick_add(s, c, i, &u.led, &u.hi_trump, &u.win_pow, &u.win_pos)
    u.tmask |= bit
    u.tpts += s.pts[c]
    if kj_second_stuk(s, seat, bit, s.hands[seat] & ~bit):
        u.sdt = 20
        u.sdd = 20 if (seat & 1) == s.playing else -20


cdef inline uint32_t kj_trick_legal(KJState* s, KJTrick* t, int seat, int i) noexcept nogil:
    """The legal cards of ``seat`` as the ``i``-th card (1-3) of the trick ``t``,
    interchangeable ones merged (:func:`kj_merge_at`)."""
    return kj_merge_at(s, s.hands[seat], kj_legal_at(s, s.hands[seat], i, t.led, t.hi_trump,
                                                     t.win_pos), t.tmask)


cdef inline int kj_trick_first(KJState* s, KJTrick* t, int seat, int i, uint32_t legal,
                               int8_t** kp) noexcept nogil:
    """The first of the cards ``legal`` (not empty) to search as the ``i``-th of
    the trick ``t``: its killer (:func:`kj_killer`, its slot in ``kp`` when
    there is a choice, else NULL) when legal, else the lowest."""
    cdef int c = -1
    kp[0] = NULL
    if legal & (legal - 1):
        kp[0] = kj_killer(s, i, seat, t.led, t.win_pow)
        c = kj_pick(legal, kp[0][0], -1)
    return c if c >= 0 else ctz64(legal)


cdef inline int kj_trick_follow(KJState* s, KJTrick* t, int i, int alpha, int beta,
                                int mode) noexcept nogil:
    """The second or third card of a trick (``i`` 1 or 2) in :func:`kj_trick_plain`:
    the killer (:func:`kj_killer`) first, then the others in plain order
    (there, ordering them costs more than the nodes it saves).  An instance
    for each (:func:`kj_trick_second`, :func:`kj_trick_third`), and a function
    of its own for the last card (:func:`kj_trick_last`): so the compiler
    nests the three as loops in the lead's search, as in :func:`kj_two`,
    instead of a call per card (instructions -1.9%, paired 0.96x time, against
    one recursive function for every card; with the last card an instance of
    this one too, GCC keeps it out of line: +0.3%)."""
    cdef int seat = (s.d.leader + i) & 3, maxi, c, v, best, a = alpha, b = beta
    cdef uint32_t legal
    cdef int8_t* kp
    cdef KJTrick u
    if kj_check_limits(s):
        return 0
    maxi = ((seat & 1) == s.playing) != (mode == 2)
    legal = kj_trick_legal(s, t, seat, i)
    c = kj_trick_first(s, t, seat, i, legal, &kp)
    best = -KJ_INF if maxi else KJ_INF
    while True:
        legal &= ~((<uint32_t>1) << c)
        u = t[0]
        kj_trick_put(s, &u, seat, c, i)
        if i == 2:
            v = kj_trick_last(s, &u, a, b, mode)
        else:
            v = kj_trick_third(s, &u, a, b, mode)
        if s.aborted:
            return 0
        if kj_ab_take(maxi, v, &best, &a, &b):
            if kp != NULL:
                kp[0] = c
            break
        if not legal:
            break
        c = ctz64(legal)
    return best


cdef int kj_trick_second(KJState* s, KJTrick* t, int alpha, int beta, int mode) noexcept nogil:
    return kj_trick_follow(s, t, 1, alpha, beta, mode)


cdef int kj_trick_third(KJState* s, KJTrick* t, int alpha, int beta, int mode) noexcept nogil:
    return kj_trick_follow(s, t, 2, alpha, beta, mode)


cdef int kj_trick_last(KJState* s, KJTrick* t, int alpha, int beta, int mode) noexcept nogil:
    """The last card of a trick, as :func:`kj_trick_follow`, on to :func:`kj_trick_done`."""
    cdef int seat = (s.d.leader + 3) & 3, maxi, c, v, best, a = alpha, b = beta
    cdef uint32_t legal
    cdef int8_t* kp
    cdef KJTrick u
    if kj_check_limits(s):
        return 0
    maxi = ((seat & 1) == s.playing) != (mode == 2)
    legal = kj_trick_legal(s, t, seat, 3)
    c = kj_trick_first(s, t, seat, 3, legal, &kp)
    best = -KJ_INF if maxi else KJ_INF
    while True:
        legal &= ~((<uint32_t>1) << c)
        u = t[0]
        kj_trick_put(s, &u, seat, c, 3)
        v = kj_trick_done(s, &u, a, b, mode)
        if s.aborted:
            return 0
        if kj_ab_take(maxi, v, &best, &a, &b):
            if kp != NULL:
                kp[0] = c
            break
        if not legal:
            break
        c = ctz64(legal)
    return best


cdef int kj_trick_plain(KJState* s, int alpha, int beta, int mode, int ttbest, int* bestc,
                        uint32_t dead=0) noexcept nogil:
    """Plain fail-soft alpha-beta over a trick from its boundary, for the
    boundaries with five to three tricks left (``KJState.plain_from``, by
    default ``KJ_PLAIN_TRICKS`` tricks done; the bulk of the nodes; with two
    left, :func:`kj_two`): no state update but the trick's own (a
    :class:`KJTrick`; the hands unchanged) until :func:`kj_trick_done` scores
    it.  Interchangeable cards are merged (:func:`kj_merge`; in the roem game
    the leads also by :func:`kj_merge_dead`, given ``dead``).  The lead: the
    killer (:func:`kj_killer`), else ``ttbest``, alone first, and if it does
    not cut, the other leads in plain order (a node that its first card does
    not cut is most likely one where every card is searched: paired
    0.97-0.99x time against ordering them by :func:`kj_order`, 1.006x nodes);
    without either, all the leads in the order of kj_order.  The other cards:
    :func:`kj_trick_follow`.

    Values are absolute: the final acc d (``mode`` 0), h (``mode`` 1, see
    :func:`kj_search_n`) or the final roem total (``mode`` 2, the other team
    maximises, see :func:`kj_search_r`).  ``bestc``: the best lead."""
    cdef int seat = s.d.leader, maxi, c, v, best, a = alpha, b = beta, k = 0, cnt
    cdef uint32_t legal
    cdef int8_t* kp
    cdef uint32_t rest = 0
    cdef KJTrick t, u
    cdef int moves[8]
    if kj_check_limits(s):
        return 0
    memset(&t, 0, sizeof(KJTrick))
    maxi = ((seat & 1) == s.playing) != (mode == 2)
    legal = kj_merge_at(s, s.hands[seat], s.hands[seat], 0)
    if dead:
        # the roem game's merge, for the leads only: there a merged card saves
        # a whole trick; for the other cards it costs more than it saves
        # (paired 0.989x time, 0.984-0.988x nodes; at every card 1.004x time)
        legal = kj_merge_dead(s, s.hands[seat], legal, 0, dead)
    kp = kj_killer(s, 0, seat, s.d.led, 0)
    cnt = kj_stage(s, legal, kp[0], ttbest, moves, mode != 0, &rest)
    legal = 0
    best = -KJ_INF if maxi else KJ_INF
    while legal or k < cnt:
        if k < cnt:
            c = moves[k]
            k += 1
        else:
            c = ctz64(legal)
        legal &= ~((<uint32_t>1) << c)
        u = t
        kj_trick_put(s, &u, seat, c, 0)
        v = kj_trick_second(s, &u, a, b, mode)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                bestc[0] = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                bestc[0] = c
                if best < b:
                    b = best
        if a >= b:
            kp[0] = c
            break
        if k == cnt and rest:
            legal = rest            # the other leads, in plain order
            rest = 0
    return best


ctypedef struct KJTwinKey:
    # a position's twin key (kj_twin_key), its hash, signature, roem cards
    # (kj_roem_cov) and their places
    uint64_t h
    uint32_t k[4]
    uint32_t sig
    uint32_t cov
    uint32_t cpos
    int meta


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


cdef inline int kj_est_leaf(KJState* s, KJTrick* t) noexcept nogil:
    """:func:`kj_est_card` of the complete trick ``t`` (its cards still in
    the hands): its d for P (from the node being ordered), and from the trick
    boundary after it the middle of the cheap bounds of the future d
    (:func:`kj_future_bounds`: the points left count alike on both sides and
    so does the roem bound, so their middle is that of the sure trumps and
    the pit, moved by a stuk "hand" still to come), or the last trick exactly
    (:func:`kj_last_trick`)."""
    cdef uint32_t tm = t.tmask
    cdef uint32_t rem = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & ~tm
    cdef int winner = (s.d.leader + t.win_pos) & 3, team = winner & 1, td1 = s.d.tricks_done + 1
    cdef int flags1 = s.d.flags & (1 << team), p = s.playing
    cdef int taken = t.tpts + kj_trick_roem(s, tm)
    cdef int hp = s.d.hpts - (t.tpts - s.d.tpts)    # points still in the hands after the trick
    cdef int v, sd, bonus, w8, total, top, sure, pits, pp, po, rp, dmax, dmin
    if td1 == 8:
        taken += 10 + (s.pit if flags1 else 0)
    v = t.sdd + (taken if team == p else -taken)
    if td1 == 8:
        return v
    sd = kj_stuk_to_come(s, tm)
    if td1 == 7:
        w8 = kj_last_team(s, rem, winner, flags1, &bonus)
        total = hp + 10 + bonus
        return v + sd + (total if w8 == p else -total)
    sure = KJ_POWPTS[kj_sure_trumps(s, rem, &top)]
    pits = kj_pit_teams(flags1, top)
    pp = s.pit if (pits >> p) & 1 else 0
    po = s.pit if (pits >> (1 - p)) & 1 else 0
    rp = hp + 10
    dmax = rp + pp - (2 * sure if top == 1 - p else 0)
    dmin = -(rp + po) + (2 * sure if top == p else 0)
    return v + (dmin + dmax) // 2 + sd


cdef inline int kj_est_card(KJState* s, KJTrick* t, int i, int alpha, int beta) noexcept nogil:
    """An estimate of the future d for move ordering (:func:`kj_order_by_estimate`):
    fail-soft alpha-beta over the rest of the trick ``t`` from its ``i``-th card
    (kept as :func:`kj_trick_plain` keeps it: the hands unchanged), values from
    the node being ordered, the complete trick valued by :func:`kj_est_leaf`.
    Each position counts as a node.  An instance per card, nested by the
    compiler as :func:`kj_trick_follow` is (instructions -0.7%)."""
    cdef int seat, maxi, c, best, a = alpha, b = beta, v
    cdef uint32_t legal
    cdef KJTrick u
    if kj_check_limits(s):
        return 0
    if i == 4:
        return kj_est_leaf(s, t)
    seat = (s.d.leader + i) & 3
    maxi = (seat & 1) == s.playing
    legal = kj_trick_legal(s, t, seat, i)
    best = -KJ_INF if maxi else KJ_INF
    while legal:
        c = ctz64(legal)
        legal &= legal - 1
        u = t[0]
        kj_trick_put(s, &u, seat, c, i)
        if i == 3:
            v = kj_est_4(s, &u, a, b)
        elif i == 2:
            v = kj_est_3(s, &u, a, b)
        else:
            v = kj_est_2(s, &u, a, b)
        if kj_ab_take(maxi, v, &best, &a, &b):
            break
    return best


cdef int kj_est_2(KJState* s, KJTrick* t, int alpha, int beta) noexcept nogil:
    return kj_est_card(s, t, 2, alpha, beta)


cdef int kj_est_3(KJState* s, KJTrick* t, int alpha, int beta) noexcept nogil:
    return kj_est_card(s, t, 3, alpha, beta)


cdef int kj_est_4(KJState* s, KJTrick* t, int alpha, int beta) noexcept nogil:
    return kj_est_card(s, t, 4, alpha, beta)


cdef inline int kj_est_trick(KJState* s, KJTrick* t, int i, int alpha, int beta) noexcept nogil:
    """:func:`kj_est_card` from the ``i``-th card (1-4) of the trick ``t``."""
    if i == 1:
        return kj_est_card(s, t, 1, alpha, beta)
    if i == 2:
        return kj_est_2(s, t, alpha, beta)
    if i == 3:
        return kj_est_3(s, t, alpha, beta)
    return kj_est_4(s, t, alpha, beta)


cdef int kj_order_by_estimate(KJState* s, uint32_t legal, int maxi, int* out) noexcept nogil:
    """The cards ``legal`` of a node of the ``d`` search in search order, by
    their estimate to the end of the trick (:func:`kj_est_trick`), the best for
    the side to move first.  For the nodes where ordering well pays most: those
    with a wide window (principal variation nodes: a card found better than the
    first is searched again with a wide window), and those of the first
    ``KJ_EST_TRICKS`` tricks (the largest subtrees); both are few.  The killer
    goes before them (:func:`kj_search_d`), alone: the others are estimated only
    when it does not cut (paired 0.97-0.98x time, the same order; so estimates
    pay in the first three tricks, not only two: paired 0.97x time).  The
    estimate keeps the trick apart from the state, as the plain trick search
    does (0.96x instructions against playing each card).  Returns the number of
    cards put in ``out``."""
    cdef int sc[32]
    cdef int cnt = 0, c, i, n = s.d.ntrick, seat = (s.d.leader + s.d.ntrick) & 3
    cdef KJTrick t, u
    if (legal & (legal - 1)) == 0:
        out[0] = ctz64(legal)
        return 1
    # the trick so far, from the state (its d is in the state's already)
    t.led = s.d.led
    t.hi_trump = s.d.hi_trump
    t.win_pos = s.d.win_pos
    t.win_pow = s.d.win_pow
    t.tpts = s.d.tpts
    t.tmask = s.d.tmask
    t.sdd = t.sdt = 0
    while legal:
        c = ctz64(legal)
        legal &= legal - 1
        u = t
        kj_trick_put(s, &u, seat, c, n)
        sc[c] = kj_est_trick(s, &u, n + 1, -KJ_INF, KJ_INF)
        if not maxi:
            sc[c] = -sc[c]
        # insertion sort, descending
        i = cnt
        while i > 0 and sc[out[i - 1]] < sc[c]:
            out[i] = out[i - 1]
            i -= 1
        out[i] = c
        cnt += 1
    return cnt


cdef int kj_search_d(KJState* s, int alpha, int beta) noexcept nogil:
    """Minimax of the future d (P's view) from the current position, fail-soft."""
    cdef int n = s.d.ntrick, seat, maxi, cnt, i, c, v, best, bestc = -1, delta, before
    cdef int a0, b0, dmin, dmax, xub, po, meta = 0, ttbest = -1, a = alpha, b = beta, depth = 0
    cdef int twin = 0, est = 0
    cdef uint64_t h = 0, tk = 0
    cdef KJEntry* e = NULL
    cdef KJTwoEntry* te = NULL
    cdef KJTwinKey tw
    cdef KJUndo u
    cdef uint32_t key[4]
    cdef int moves[8]
    cdef int8_t* kp = NULL
    cdef uint32_t rest = 0, legal, cov = 0
    if kj_check_limits(s):
        return 0
    if n == 0:
        if s.d.tricks_done == 8:
            return 0
        if s.d.tricks_done == 7:
            kj_last_trick(s, &dmin, &xub)
            return dmin - s.d.accd
        meta = s.d.leader | (s.d.flags << 2)
        if s.d.tricks_done < 6:
            h = kj_key(s, key)
        else:
            # the two-trick table first: a hit saves the cheap bounds too
            te = kj_two_entry(s, 0, &tk)
            if kj_two_hit(s, te, tk, s.d.accd, a + s.d.accd, b + s.d.accd, &v):
                return v - s.d.accd
        kj_future_bounds(s, &dmin, &dmax, &xub, &po, a, b, &cov)
        if xub >= 0 and dmax <= a:
            return dmax
        if xub >= 0 and dmin >= b:
            return dmin
        if s.d.tricks_done == 6:
            return kj_two(s, a + s.d.accd, b + s.d.accd, 0, te, tk) - s.d.accd
        depth = 8 - s.d.tricks_done
        e = kj_find(s, key, h, meta)
        if e != NULL and kj_use_entry(e, &a, &b, &ttbest, &v):
            return v
        twin = kj_twin_probe(s, meta, &tw, cov if xub >= 0 else kj_roem_cov(s))
        # a twin's bounds, widened by the point difference (kj_twin_key)
        if twin and kj_twin_cut(s, &tw, 1, a, b, &v):
            return v
    a0 = a
    b0 = b
    seat = (s.d.leader + n) & 3
    maxi = (seat & 1) == s.playing
    if n == 0 and s.d.tricks_done >= s.plain_from:
        # five tricks left or fewer: the plain trick search is cheaper, though
        # it searches more nodes (against four left, instructions / nodes: here
        # -1.2% / +2.8%, in the nat search -0.2% / +0.5%, in the roem game
        # -1.5% / +1.0%; all three -2.5% / +4.1%, paired 0.95x time)
        cnt = 0
        best = kj_trick_plain(s, a + s.d.accd, b + s.d.accd, 0, ttbest, &bestc) - s.d.accd
        if s.aborted:
            return 0
    else:
        kp = kj_killer(s, n, seat, s.d.led, s.d.win_pow)
        legal = kj_merge(s, s.hands[seat], kj_legal(s, s.hands[seat]))
        if b - a > 1 or s.d.tricks_done < KJ_EST_TRICKS:
            c = kj_pick(legal, kp[0], -1)
            if c >= 0:
                # the killer alone first: the others' estimates only if it
                # does not cut
                moves[0] = c
                cnt = 1
                rest = legal & ~((<uint32_t>1) << c)
                est = 1
            else:
                cnt = kj_order_by_estimate(s, legal, maxi, moves)
        else:
            cnt = kj_stage(s, legal, kp[0], ttbest, moves, 0, &rest)
        best = -KJ_INF if maxi else KJ_INF
    i = 0
    while i < cnt:
        c = moves[i]
        before = s.d.accd
        kj_play(s, seat, c, &u)
        delta = s.d.accd - before
        if i == 0 or b - a <= 1:
            v = delta + kj_search_d(s, a - delta, b - delta)
        elif maxi:
            # a principal variation search: after the first card, prove with a
            # null window that a card is no better; search it again if it is
            v = delta + kj_search_d(s, a - delta, a + 1 - delta)
            if a < v < b and not s.aborted:
                v = delta + kj_search_d(s, v - 1 - delta, b - delta)
        else:
            v = delta + kj_search_d(s, b - 1 - delta, b - delta)
            if a < v < b and not s.aborted:
                v = delta + kj_search_d(s, a - delta, v + 1 - delta)
        kj_undo(s, seat, c, &u)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                bestc = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                bestc = c
                if best < b:
                    b = best
        if a >= b:
            if kp != NULL:
                kp[0] = c
            break
        i += 1
        if i == cnt and rest:
            if est:
                cnt += kj_order_by_estimate(s, rest, maxi, moves + cnt)
            else:
                cnt += kj_order(s, rest, ttbest, moves + cnt, 0, -1)
            rest = 0
    if n == 0:
        kj_store_result(s, key, h, meta, best, a0, b0, bestc, depth)
        if twin:
            kj_twin_store(s, &tw, best, a0, b0)
    return best


cdef int kj_search_n(KJState* s, int alpha, int beta) noexcept nogil:
    """Minimax of h = BIG if the hand is made else the (negative) net when nat;
    absolute values, fail-soft."""
    cdef int n = s.d.ntrick, seat, maxi, cnt, i, c, v, best, bestc = -1
    cdef int a0, b0, dmin, dmax, xub, po, meta = 0, ttbest = -1, a = alpha, b = beta, depth = 0
    cdef int need = 0, base = 0, lo_b, hi_b, twin = 0, nb
    cdef uint64_t h = 0
    cdef KJEntry* e = NULL
    cdef KJEntry* ed
    cdef KJTwinKey tw
    cdef KJUndo u
    cdef uint32_t key[4]
    cdef int moves[8]
    cdef int8_t* kp = NULL
    cdef uint32_t rest = 0, cov = 0
    if kj_check_limits(s):
        return 0
    if n == 0:
        if s.d.tricks_done == 8:
            return KJ_BIG if s.d.accd > s.thr else -(162 + s.d.acct)
        if s.d.tricks_done == 7:
            kj_last_trick(s, &dmin, &xub)
            return KJ_BIG if dmin > s.thr else -(162 + xub)
        meta = s.d.leader | (s.d.flags << 2)
        if s.d.tricks_done < 6:
            h = kj_key(s, key)
        kj_future_bounds(s, &dmin, &dmax, &xub, &po, KJ_INF, -KJ_INF, &cov)
        base = -(162 + s.d.acct)
        if s.d.accd + dmin > s.thr:
            return KJ_BIG
        xub += po                   # the playing team never takes the pit when nat
        # bounds: h in [base - xub, nb] or BIG, nb the most a nat outcome can
        # be.  The cheap ones go first, at two tricks left too: h >= b holds
        # made or not when b <= base - xub, and h <= a when a >= nb and no line
        # makes the hand (no table probe, made test or kj_two then: paired
        # 0.98x time, 0.97x nodes)
        lo_b = base - xub
        if lo_b >= b:
            return lo_b
        need = s.thr - s.d.accd
        # nb: base, less a stuk "hand" still to come (nat, it goes to the
        # other team too)
        nb = base - 20 if kj_stuk_to_come(s) else base
        if dmax <= need:
            # no line makes the hand, so h = base - R, R the roem game's value
            # from here (cheaper to search; nodes 0.984 in the nat search)
            if nb <= a:
                return nb
            v = kj_search_r(s, base - b, base - a)
            if s.aborted:
                return 0
            return base - v
        if s.d.tricks_done == 6:
            return kj_two(s, a, b, 1, NULL, 0)
        # made-ness already settled by the mode-D table?
        ed = kj_find(s, key, h, meta)
        if ed != NULL and ed.lo > need:
            return KJ_BIG
        hi_b = nb if ed != NULL and ed.hi <= need else KJ_BIG
        if hi_b <= a:
            return hi_b
        if xub == 0 or a >= nb:
            # h is base or BIG when no roem or pit is left; and with a >= nb,
            # the most a nat outcome can be (after roem on the line of a test
            # h >= b near the root's base), only a made hand gets above a: that
            # test is the made test, which the d search answers with its own
            # table (nodes 0.97-0.99)
            if hi_b == nb:
                return nb
            v = kj_search_d(s, need, need + 1)
            if s.aborted:
                return 0
            return KJ_BIG if v > need else nb
        meta |= 16
        depth = 8 - s.d.tricks_done
        # h - base (BIG kept) depends on the position and on need only, and does
        # not grow with need: one entry per position holds a lower bound valid up
        # to one need and an upper bound valid from one need on (for need >= dmax
        # the hand can no longer be made, so every such need is alike)
        e = kj_find(s, key, h, meta)
        if e != NULL and kj_use_entry_n(e, need, dmax, base, &a, &b, &ttbest, &v):
            return v
        twin = kj_twin_probe(s, meta, &tw, cov)
        if twin and kj_twin_cut_n(s, &tw, need, base, &a, &b, &v):
            return v
        if ttbest < 0 and ed != NULL and ed.best != 255:
            ttbest = ed.best
        if (b - a == 1 and b <= base and (s.d.leader & 1) != s.playing
                and 8 - s.d.tricks_done >= s.rtest_tricks):
            # the other team leads: a test of the roem game (h >= base - R) may
            # show h >= b for all its cards at once, and it is cheaper than the
            # h search (paired: 0.95-0.98x time, 0.96-0.97x nodes); where the
            # playing team leads or with two tricks left it does not pay
            # (rtest_tricks: 3, lower in tests)
            v = kj_search_r(s, base - b, base - b + 1)
            if s.aborted:
                return 0
            if v <= base - b:
                return base - v
    a0 = a
    b0 = b
    seat = (s.d.leader + n) & 3
    maxi = (seat & 1) == s.playing
    if n == 0 and s.d.tricks_done >= s.plain_from:
        cnt = 0
        best = kj_trick_plain(s, a, b, 1, ttbest, &bestc)
        if s.aborted:
            return 0
    else:
        kp = kj_killer(s, n, seat, s.d.led, s.d.win_pow)
        cnt = kj_stage(s, kj_merge(s, s.hands[seat], kj_legal(s, s.hands[seat])), kp[0], ttbest,
                       moves, 1, &rest)
        best = -KJ_INF if maxi else KJ_INF
    i = 0
    while i < cnt:
        c = moves[i]
        kj_play(s, seat, c, &u)
        v = kj_search_n(s, a, b)
        kj_undo(s, seat, c, &u)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                bestc = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                bestc = c
                if best < b:
                    b = best
        if a >= b:
            if kp != NULL:
                kp[0] = c
            break
        i += 1
        if i == cnt and rest:
            cnt += kj_order(s, rest, ttbest, moves + cnt, 1, -1)
            rest = 0
    if n == 0:
        kj_store_n(s, key, h, meta, need, dmax, base, best, a0, b0, bestc, depth)
        if twin:
            kj_twin_store_n(s, &tw, need, dmax, base, best, a0, b0)
    return best


cdef inline int kj_pit_to_come(KJState* s) noexcept nogil:
    """At a trick boundary: the pit that may still be scored (by either team:
    :func:`kj_pit_teams`).  A tighter bound of the roem
    game: more of its nodes end at once, before their twin key (paired
    0.98x time, 0.993x nodes)."""
    cdef uint32_t tr, ns
    if not s.d.flags:
        return 0
    return s.pit if kj_pit_teams(s.d.flags, kj_top_trump_team(
        s, s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], &tr, &ns)) else 0


cdef int kj_search_r(KJState* s, int alpha, int beta) noexcept nogil:
    """The roem game: minimax of the future roem + pit (whoever scores it), which
    the playing team minimises and the other maximises, fail-soft.  Nobody plays
    for the hand here; its value bounds the nat outcome (see :func:`kj_value`)."""
    cdef int n = s.d.ntrick, seat, maxi, cnt, i, c, v, best, bestc = -1, delta, before
    cdef int a0, b0, rmax, meta = 0, ttbest = -1, a = alpha, b = beta, depth = 0, fd, ft
    cdef int twin = 0
    cdef uint64_t h = 0, tk = 0
    cdef KJTwoEntry* te = NULL
    cdef KJEntry* e = NULL
    cdef KJTwinKey tw
    cdef KJUndo u
    cdef uint32_t key[4]
    cdef int moves[8]
    cdef int8_t* kp = NULL
    cdef uint32_t rest = 0, cov = 0, legal
    if kj_check_limits(s):
        return 0
    if n == 0:
        if s.d.tricks_done == 8:
            return 0
        if s.d.tricks_done == 7:
            kj_last_trick(s, &fd, &ft)
            return ft - s.d.acct
        if b <= 0:
            return 0
        if b <= 20 and kj_stuk_to_come(s):
            return 20               # a stuk "hand" still to come: sure roem
        meta = s.d.leader | (s.d.flags << 2) | 32
        rmax = kj_roem_ub_cov(s, &cov) + kj_pit_to_come(s)
        if rmax <= a or rmax == 0:
            return rmax
        depth = 8 - s.d.tricks_done
        # twins score the same roem and pit on matched lines: the same value.
        # Where the twin table serves, it alone holds the roem game's bounds
        # (the position's own entry would add nothing: paired, 0.95-0.98x time)
        twin = kj_twin_probe(s, meta, &tw, cov)
        if twin:
            if kj_twin_cut(s, &tw, 0, a, b, &v):
                return v
        else:
            h = kj_key(s, key)
            e = kj_find(s, key, h, meta)
            if e != NULL and kj_use_entry(e, &a, &b, &ttbest, &v):
                return v
    a0 = a
    b0 = b
    seat = (s.d.leader + n) & 3
    maxi = (seat & 1) != s.playing
    if n == 0 and s.d.tricks_done == 6:
        cnt = 0
        te = kj_two_entry(s, 2, &tk)
        if kj_two_hit(s, te, tk, s.d.acct, a + s.d.acct, b + s.d.acct, &v):
            best = v - s.d.acct
        else:
            best = kj_two(s, a + s.d.acct, b + s.d.acct, 2, te, tk) - s.d.acct
            if s.aborted:
                return 0
    elif n == 0 and s.d.tricks_done >= s.plain_from:
        cnt = 0
        best = kj_trick_plain(s, a + s.d.acct, b + s.d.acct, 2, ttbest, &bestc, ~cov) - s.d.acct
        if s.aborted:
            return 0
    else:
        kp = kj_killer(s, n, seat, s.d.led, s.d.win_pow)
        legal = kj_merge(s, s.hands[seat], kj_legal(s, s.hands[seat]))
        if n == 0:
            legal = kj_merge_dead(s, s.hands[seat], legal, 0, ~cov)    # cov: the roem cards
        cnt = kj_stage(s, legal, kp[0], ttbest, moves, 1, &rest)
        best = -KJ_INF if maxi else KJ_INF
    i = 0
    while i < cnt:
        c = moves[i]
        before = s.d.acct
        kj_play(s, seat, c, &u)
        delta = s.d.acct - before
        v = delta + kj_search_r(s, a - delta, b - delta)
        kj_undo(s, seat, c, &u)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                bestc = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                bestc = c
                if best < b:
                    b = best
        if a >= b:
            if kp != NULL:
                kp[0] = c
            break
        i += 1
        if i == cnt and rest:
            cnt += kj_order(s, rest, ttbest, moves + cnt, 1, -1)
            rest = 0
    if n == 0:
        if twin:
            kj_twin_store(s, &tw, best, a0, b0)
        else:
            kj_store_result(s, key, h, meta, best, a0, b0, bestc, depth)
    return best


cdef int kj_mtdf_n(KJState* s, int upper) noexcept nogil:
    """Exact h of a nat position with ``h <= upper`` by MTD(f): null-window
    tests down from ``upper``.  Each test ``h >= x`` is first tried as the
    test ``R <= base - x`` of the roem game, which is cheaper to search and
    suffices (``h >= base - R``, see :func:`kj_value`)."""
    cdef int g = upper, lower = -KJ_INF, beta, r, base = -(162 + s.d.acct)
    while lower < upper:
        beta = g + 1 if g == lower else g
        r = kj_search_r(s, base - beta, base - beta + 1)
        if s.aborted:
            return 0
        if r <= base - beta:
            lower = base - r if base - r < upper else upper
            g = lower
            continue
        r = kj_search_n(s, beta - 1, beta)
        if s.aborted:
            return 0
        if r < beta:
            upper = r
        else:
            lower = r
        g = r
    return lower


cdef int kj_value(KJState* s) noexcept nogil:
    """Exact net score of the playing team from the current position."""
    cdef int need, v
    if s.d.tricks_done == 8:
        if s.d.accd > s.thr:
            return s.d.accd
        return -(162 + s.d.acct)
    cdef uint64_t n0 = s.nodes
    # one principal variation search of D from the made threshold up: it fails
    # low when the hand is nat, else it is exact (cheaper than a null-window made
    # test and then null-window tests, by 15% when made, dearer by 6% when nat)
    need = s.thr - s.d.accd
    v = kj_search_d(s, need, KJ_INF)
    s.phase_nodes[0] += s.nodes - n0
    n0 = s.nodes
    if s.aborted:
        return 0
    if v > need:
        return s.d.accd + v
    # nat: the value is base - (roem + pit to come), base = -(162 + roem so
    # far), so at most base.  Whatever the other team does, the playing team
    # can hold the roem to the roem game's value R (and a made hand is worth
    # even more), so the value is at least base - R: a test of the roem game
    # often settles a test of h (kj_mtdf_n)
    v = kj_mtdf_n(s, -(162 + s.d.acct))
    s.phase_nodes[1] += s.nodes - n0
    return v


cdef int kj_has_value(KJState* s, int value) noexcept nogil:
    """Whether ``value`` is the exact net score of the position.  A made value
    is ``acc d + D``, so two null-window tests of ``D`` decide it."""
    cdef int tf
    if s.d.tricks_done == 8 or value <= s.thr:
        return kj_value(s) == value
    tf = value - s.d.accd
    if kj_search_d(s, tf - 1, tf) < tf:
        return 0
    return kj_search_d(s, tf, tf + 1) <= tf


cdef int kj_reaches(KJState* s, int x) noexcept nogil:
    """Whether the exact net score is at least ``x``: one null-window test.
    Made outcomes are worth ``acc d + D > thr`` and nat ones at most ``base =
    -(162 + roem so far)``, so above ``thr`` it is a test of ``D``, between
    ``base`` and ``thr`` the made test, and from ``base`` down a test of ``h``
    (see :func:`kj_value`)."""
    cdef int t
    if s.d.tricks_done == 8:
        return kj_value(s) >= x
    if x > s.thr:
        t = x - s.d.accd
        return kj_search_d(s, t - 1, t) >= t
    if x > -(162 + s.d.acct):
        t = s.thr - s.d.accd
        return kj_search_d(s, t, t + 1) > t
    return kj_search_n(s, x - 1, x) >= x


cdef class KlaverjasKernel:
    """Search state of the Klaverjas double-dummy solver (internal; see
    :mod:`quartet_solver.klaverjas.dd`).  ``tt_bits``: the transposition table has
    ``2 ** tt_bits`` entries of 32 bytes, the twin table ``2 ** (tt_bits - 4)`` of 40
    bytes (at least 16)."""

    cdef KJState s
    cdef void* tt_raw
    cdef size_t tt_raw_len
    cdef void* tw_raw
    cdef size_t tw_raw_len
    cdef int tw_bits
    cdef readonly int tt_bits

    def __cinit__(self, int tt_bits=18):
        if tt_bits < 4 or tt_bits > 30:
            raise ValueError(f"tt_bits must be 4..30, got {tt_bits}")
        memset(&self.s, 0, sizeof(KJState))
        self.tt_bits = tt_bits
        # buckets of two 32-byte slots (one cache line: kj_bucket)
        self.s.tt = <KJEntry*>qs_table_alloc(((<size_t>1) << tt_bits) * sizeof(KJEntry), &self.tt_raw,
                                             &self.tt_raw_len)
        if self.s.tt == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.s.ttmask = ((<uint64_t>1) << tt_bits) - 1
        self.tw_bits = tt_bits - 4 if tt_bits > 8 else 4
        self.s.twins = 1
        self.s.tw = <KJTwin*>qs_table_alloc(((<size_t>1) << self.tw_bits) * sizeof(KJTwin),
                                            &self.tw_raw, &self.tw_raw_len)
        if self.s.tw == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.s.twmask = ((<uint64_t>1) << self.tw_bits) - 1
        self.s.gen = 0
        self.s.key_tricks = 5
        self.s.rtest_tricks = 3
        self.s.plain_from = KJ_PLAIN_TRICKS

    def __dealloc__(self):
        if self.tt_raw != NULL:
            qs_table_free(self.tt_raw, self.tt_raw_len)
        if self.tw_raw != NULL:
            qs_table_free(self.tw_raw, self.tw_raw_len)

    cdef void _new_generation(self) noexcept nogil:
        if self.s.gen == 65535:
            memset(self.s.tt, 0, (self.s.ttmask + 1) * sizeof(KJEntry))
            memset(self.s.tw, 0, (self.s.twmask + 1) * sizeof(KJTwin))
            memset(self.s.two, 0, sizeof(self.s.two))
            self.s.gen = 0
        self.s.gen += 1
        memset(self.s.tfilt, 0, sizeof(self.s.tfilt))
        memset(self.s.wfilt, 0, sizeof(self.s.wfilt))
        memset(self.s.killer, -1, sizeof(self.s.killer))

    cdef void _setup(self, int trump, int rotterdam, int stuk_mode, int stuk_seat, int pit,
                     int tie_is_nat, int playing) noexcept nogil:
        cdef KJState* s = &self.s
        cdef int c, nat, suit, p
        s.trump = trump
        s.rotterdam = rotterdam
        s.stuk_mode = stuk_mode
        s.stuk_seat = stuk_seat
        s.pit = pit
        s.thr = 0 if tie_is_nat else -1
        s.playing = playing
        s.trumpmask = 0x11111111u << trump
        s.stukmask = ((<uint32_t>1) << (4 * 5 + trump)) | ((<uint32_t>1) << (4 * 6 + trump))
        for c in range(32):
            nat = c >> 2
            suit = c & 3
            if suit == trump:
                s.tpow[c] = KJ_TPOW[nat]
                s.pts[c] = KJ_TPTS[nat]
            else:
                s.tpow[c] = 0
                s.pts[c] = KJ_PPTS[nat]
            s.ppow[c] = KJ_PPOW[nat]
        for c in range(32):
            s.plain_above[c] = 0
            for p in range(32):
                if KJ_PPOW[p >> 2] > KJ_PPOW[c >> 2]:
                    s.plain_above[c] |= (<uint32_t>1) << p
        for c in range(32):
            s.powcard[c & 3][s.tpow[c] if s.tpow[c] else s.ppow[c]] = c
            for suit in range(4):
                s.powt[suit][c] = (100 + s.tpow[c] if s.tpow[c]
                                   else s.ppow[c] if (c & 3) == suit else 0)
        for p in range(9):
            s.trump_above[p] = 0
            for c in range(32):
                if s.tpow[c] > p:
                    s.trump_above[p] |= (<uint32_t>1) << c
        s.nodes = 0
        s.aborted = 0
        kj_arm_limits(s)
        s.phase_nodes[0] = s.phase_nodes[1] = 0

    cdef void _load_position(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int leader,
                             int accd, int acct, int flags, int tricks_done) noexcept nogil:
        cdef KJState* s = &self.s
        s.hands[0] = h0
        s.hands[1] = h1
        s.hands[2] = h2
        s.hands[3] = h3
        s.d.leader = leader
        s.d.ntrick = 0
        s.d.tmask = 0
        s.d.tpts = 0
        s.d.hi_trump = 0
        s.d.win_pow = 0
        s.d.win_pos = 0
        s.d.led = 0
        s.d.accd = accd
        s.d.acct = acct
        s.d.flags = flags
        s.d.tricks_done = tricks_done
        s.d.hpts = kj_points_of(s, h0 | h1 | h2 | h3)
        kj_roem_holdings(s)

    def load(self, hands, trick, int leader, int trump, bint rotterdam, int stuk_mode, int stuk_seat,
             int pit, bint tie_is_nat, int playing, int accd, int acct, int flags, int tricks_done,
             bint new_generation=True):
        """Set up a position: ``hands`` four 32-bit masks (cards still held, the
        cards of ``trick`` excluded), ``trick`` the card bits of the trick in progress
        (its leader is ``leader``), ``accd`` = P's points minus the other's so far,
        ``acct`` = all roem so far, ``flags`` bit t = team t won every trick so far."""
        cdef KJUndo u
        cdef int c, seat, i
        cdef uint32_t hs[4]
        for i in range(4):
            hs[i] = hands[i]
        self._setup(trump, rotterdam, stuk_mode, stuk_seat, pit, tie_is_nat, playing)
        if new_generation:
            self._new_generation()
        # put the trick's cards back into their hands, then play them
        trick = list(trick)
        for i, c in enumerate(trick):
            hs[(leader + i) & 3] |= (<uint32_t>1) << c
        self._load_position(hs[0], hs[1], hs[2], hs[3], leader, accd, acct, flags, tricks_done)
        for i, c in enumerate(trick):
            seat = (leader + i) & 3
            # stuk "hand" was already scored by the caller: undo the kernel's scoring
            kj_play(&self.s, seat, c, &u)
            self.s.d.accd = u.d.accd
            self.s.d.acct = u.d.acct

    def set_limits(self, node_limit=None, time_limit=None):
        """Stop the next searches after ``node_limit`` nodes or ``time_limit`` seconds
        of the calling thread's CPU time (``qs_thread_cpu_seconds``)."""
        self.s.nodes = 0
        self.s.aborted = 0
        self.s.phase_nodes[0] = self.s.phase_nodes[1] = 0
        # a limit of 2 ** 62 nodes or more is none: decades of search (and no overflow)
        self.s.node_limit = (0 if node_limit is None or int(node_limit) >= (1 << 62)
                             else max(1, int(node_limit)))
        self.s.has_deadline = time_limit is not None
        if time_limit is not None:
            self.s.deadline = qs_thread_cpu_seconds() + float(time_limit)
        kj_arm_limits(&self.s)

    def set_key_tricks(self, int n):
        """Move dead low cards in the table key only with at least ``n`` tricks
        left (internal, for tests; default 5).  Starts a new table generation."""
        self.s.key_tricks = n
        self._new_generation()

    def set_roem_test_tricks(self, int n):
        """Try the roem-game test where the other team leads (in the nat search)
        only with at least ``n`` tricks left (internal, for tests; default 3).
        Starts a new table generation."""
        self.s.rtest_tricks = n
        self._new_generation()

    def set_plain_tricks(self, int n):
        """Search the tricks by the plain trick search only at boundaries with
        at most ``n`` tricks left, and card by card before (internal, for tests;
        default 5; with 2 or fewer never, as two tricks left have a search of
        their own).  Starts a new table generation."""
        self.s.plain_from = 8 - n
        self._new_generation()

    @property
    def plain_tricks(self):
        """See :meth:`set_plain_tricks`."""
        return 8 - self.s.plain_from

    @property
    def roem_test_tricks(self):
        """See :meth:`set_roem_test_tricks`."""
        return self.s.rtest_tricks

    def set_twins(self, bint on):
        """Use the twin table (default) or not (internal, for tests).  Starts a
        new table generation."""
        self.s.twins = on
        self._new_generation()

    def twin_key(self):
        """``(key, sig, cov, cpos)``: :func:`kj_twin_key`, the roem cards
        (:func:`kj_roem_cov`) and their places (:func:`kj_twin_key`); internal,
        for tests; at a trick boundary."""
        cdef KJTwinKey p
        kj_twin_fill(&self.s, 0, &p, kj_roem_cov(&self.s))
        return tuple(p.k[i] for i in range(4)), p.sig, p.cov, p.cpos

    def twin_delta(self, uint32_t here, uint32_t there):
        """``(widen, shift)`` of :func:`kj_twin_delta` for the twin signatures
        ``here`` (the loaded position's) and ``there`` (a twin's): their future
        d differ by ``shift`` plus or minus ``widen`` (internal, for tests)."""
        cdef int sh = 0, d
        d = kj_twin_delta(&self.s, here, there, &sh)
        return d, sh

    def future_d(self):
        """The minimax value of the future d (internal, for tests; at a trick
        boundary): the playing team's points, roem and pit still to come minus
        the other team's, both teams playing for them."""
        cdef int v
        with nogil:
            v = kj_search_d(&self.s, -KJ_INF, KJ_INF)
        return v

    def roem_game(self):
        """The value of the roem game (internal, for tests; at a trick
        boundary): the roem and pit still to come, whoever scores them, which
        the playing team minimises and the other team maximises."""
        cdef int v
        with nogil:
            v = kj_search_r(&self.s, -KJ_INF, KJ_INF)
        return v

    @property
    def key_tricks(self):
        """See :meth:`set_key_tricks`."""
        return self.s.key_tricks

    def table_key(self):
        """The four hands of the table key of the position (internal, for
        tests; meaningful at a trick boundary)."""
        cdef uint32_t key[4]
        kj_canon(&self.s, key)
        return [key[i] for i in range(4)]

    def roem_bound(self):
        """Upper bound of the roem still to be scored (internal, for tests)."""
        cdef KJState* s = &self.s
        return kj_roem_ub(s)

    @property
    def nodes(self):
        return self.s.nodes

    @property
    def phase_nodes(self):
        """Nodes spent since :meth:`set_limits` in the search of d (made or not,
        and the exact d when made) and in the nat search."""
        return (self.s.phase_nodes[0], self.s.phase_nodes[1])

    @property
    def aborted(self):
        return bool(self.s.aborted)

    @property
    def to_move(self):
        return (self.s.d.leader + self.s.d.ntrick) & 3

    def trivial_bounds(self):
        """``(lower, upper)``: cheap bounds of the exact value of the position."""
        cdef KJState* s = &self.s
        cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.d.tmask
        cdef int rp, rub, pp, po, hi, lo
        if s.d.tricks_done == 8:
            v = s.d.accd if s.d.accd > s.thr else -(162 + s.d.acct)
            return v, v
        rp = kj_points_of(s, rem) + 10
        rub = kj_roem_ub(s)
        pp = s.pit if (s.d.flags >> s.playing) & 1 else 0
        po = s.pit if (s.d.flags >> (1 - s.playing)) & 1 else 0
        hi = s.d.accd + rp + rub + pp
        if hi <= s.thr:
            hi = -(162 + s.d.acct)
        lo = -(162 + s.d.acct + rub + po)
        if s.d.accd - (rp + rub + po) > s.thr:
            lo = s.d.accd - (rp + rub + po)
        return lo, hi

    def finished(self):
        return self.s.d.tricks_done == 8

    def legal(self):
        """Legal card bits of the player to move, ascending."""
        cdef uint32_t m = kj_legal(&self.s, self.s.hands[(self.s.d.leader + self.s.d.ntrick) & 3])
        out = []
        while m:
            out.append(ctz64(m))
            m &= m - 1
        return out

    def value(self):
        """Exact net score of the playing team (meaningless if :attr:`aborted`)."""
        cdef int v
        with nogil:
            v = kj_value(&self.s)
        return v

    def reaches(self, int target):
        """Whether the exact net score of the position is at least ``target``
        (meaningless if :attr:`aborted`)."""
        cdef int r
        with nogil:
            r = kj_reaches(&self.s, target)
        return bool(r)

    def move_values(self):
        """``[(card bit, exact value after it)]`` for the legal cards; stops early
        (shorter list) when a limit is hit."""
        cdef KJUndo u
        cdef int seat = (self.s.d.leader + self.s.d.ntrick) & 3
        cdef int c, v
        out = []
        for c in self.legal():
            kj_play(&self.s, seat, c, &u)
            with nogil:
                v = kj_value(&self.s)
            kj_undo(&self.s, seat, c, &u)
            if self.s.aborted:
                break
            out.append((c, v))
        return out

    def play(self, int c):
        """Play card bit ``c`` (must be legal) for the player to move."""
        cdef KJUndo u
        if c not in self.legal():
            raise ValueError(f"card bit {c} is not legal here")
        kj_play(&self.s, (self.s.d.leader + self.s.d.ntrick) & 3, c, &u)

    cdef int _follow_pv(self, int value, int team, KJUndo* undo, int* seats, int* cards):
        """Play a principal variation whose value is ``value`` from the current
        position (at each turn the first legal card that keeps the value), to
        the end of the hand, or (``team`` 0 or 1) until a trick is won by the
        other team; the seats and cards played go to ``seats`` and ``cards``
        (32 each).  Returns their number; :meth:`_unfollow` takes them back."""
        cdef int depth = 0, c, v, seat, found
        cdef uint32_t legal
        while self.s.d.tricks_done < 8 and not self.s.aborted:
            seat = (self.s.d.leader + self.s.d.ntrick) & 3
            legal = kj_legal(&self.s, self.s.hands[seat])
            found = 0
            while legal:
                c = ctz64(legal)
                legal &= legal - 1
                kj_play(&self.s, seat, c, &undo[depth])
                with nogil:
                    v = kj_has_value(&self.s, value)
                if v and not self.s.aborted:
                    seats[depth] = seat
                    cards[depth] = c
                    depth += 1
                    found = 1
                    break
                kj_undo(&self.s, seat, c, &undo[depth])
            if not found or (team >= 0 and self.s.d.ntrick == 0 and (self.s.d.leader & 1) != team):
                break
        return depth

    cdef void _unfollow(self, int depth, KJUndo* undo, int* seats, int* cards):
        """Take back the ``depth`` cards played by :meth:`_follow_pv`."""
        while depth > 0:
            depth -= 1
            kj_undo(&self.s, seats[depth], cards[depth], &undo[depth])

    def pv(self, int value):
        """A principal variation from the current position whose value is ``value``:
        card bits to the end of the hand (the position is restored afterwards)."""
        cdef KJUndo undo[32]
        cdef int seats[32]
        cdef int cards[32]
        cdef int depth = self._follow_pv(value, -1, undo, seats, cards)
        out = [cards[i] for i in range(depth)]
        self._unfollow(depth, undo, seats, cards)
        return out

    def pv_sweeps(self, int value, int team):
        """Whether the principal variation of :meth:`pv` for ``value`` takes
        all the remaining tricks for ``team`` (0: N-S, 1: E-W): it is followed
        only until the other team wins a trick (the position is restored
        afterwards)."""
        cdef KJUndo undo[32]
        cdef int seats[32]
        cdef int cards[32]
        cdef int depth = self._follow_pv(value, team, undo, seats, cards)
        sweeps = depth > 0 and self.s.d.tricks_done == 8 and (self.s.d.leader & 1) == team
        self._unfollow(depth, undo, seats, cards)
        return bool(sweeps)

    def solve_deal(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int trump, int leader,
                   int playing, bint rotterdam=False, int stuk_mode=0, int pit=100,
                   bint tie_is_nat=True):
        """Exact net score of a full deal (hands as 32-bit masks) for the team
        ``playing``; ``leader`` leads trick 1."""
        cdef int stuk_seat = -1, i, v
        cdef uint32_t hs[4]
        cdef uint32_t sm = ((<uint32_t>1) << (20 + trump)) | ((<uint32_t>1) << (24 + trump))
        hs[0] = h0
        hs[1] = h1
        hs[2] = h2
        hs[3] = h3
        if stuk_mode == KJ_STUK_HAND:
            for i in range(4):
                if (hs[i] & sm) == sm:
                    stuk_seat = i
        with nogil:
            self._setup(trump, rotterdam, stuk_mode, stuk_seat, pit, tie_is_nat, playing)
            self._new_generation()
            self._load_position(h0, h1, h2, h3, leader, 0, 0, 3, 0)
            v = kj_value(&self.s)
        return v


def kj_thread_cpu_seconds():
    """Seconds of CPU time of the calling thread: the clock of the solver's time
    limit (:meth:`KlaverjasKernel.set_limits`; internal, for tests).

    >>> t = kj_thread_cpu_seconds()
    >>> 0 <= t <= kj_thread_cpu_seconds()
    True
    """
    return qs_thread_cpu_seconds()
