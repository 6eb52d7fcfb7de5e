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


ctypedef struct KJTrick:
    # a trick in progress in the plain trick search (the hands are not changed)
    int led, hi_trump, win_pos, win_pow, tpts, sdd, sdt
    uint32_t tmask


ctypedef struct KJTwinKey:
    # a position's twin key (kj_twin_key), its hash, signature, roem cards
    # (kj_roem_cov) and their places
    uint64_t h
    uint32_t k[4]
    uint32_t sig
    uint32_t cov
    uint32_t cpos
    int meta


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
