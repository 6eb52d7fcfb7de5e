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
