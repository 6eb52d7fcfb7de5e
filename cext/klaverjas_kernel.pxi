# Klaverjas solver, the Python-facing class KlaverjasKernel: one search state
# with its tables (a thread's own: quartet_solver.klaverjas.dd keeps one per
# thread), loading a position, the limits, the exact value, every card's
# value, the made test, principal variations; then, fenced off at the end,
# the test hooks.  Invariant: every method leaves the loaded position as it
# found it (or as ``play`` says).  Entry points: load, solve_deal, value,
# reaches, move_values, pv, pv_sweeps, trivial_bounds.

from libc.string cimport memset


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
        # buckets of two 32-byte slots (one cache line: kj_table_bucket)
        self.s.table = <KJEntry*>qs_table_alloc(((<size_t>1) << tt_bits) * sizeof(KJEntry), &self.tt_raw,
                                             &self.tt_raw_len)
        if self.s.table == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.s.table_mask = ((<uint64_t>1) << tt_bits) - 1
        self.tw_bits = tt_bits - 4 if tt_bits > 8 else 4
        self.s.use_twins = 1
        self.s.twin_table = <KJTwin*>qs_table_alloc(((<size_t>1) << self.tw_bits) * sizeof(KJTwin),
                                            &self.tw_raw, &self.tw_raw_len)
        if self.s.twin_table == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.s.twin_mask = ((<uint64_t>1) << self.tw_bits) - 1
        self.s.generation = 0
        self.s.key_tricks_left = KJ_KEY_TRICKS_LEFT
        self.s.roem_test_tricks_left = KJ_ROEM_TEST_TRICKS_LEFT
        self.s.plain_from_done = KJ_PLAIN_FROM_DONE

    def __dealloc__(self):
        if self.tt_raw != NULL:
            qs_table_free(self.tt_raw, self.tt_raw_len)
        if self.tw_raw != NULL:
            qs_table_free(self.tw_raw, self.tw_raw_len)

    cdef void _new_generation(self) noexcept nogil:
        """A new solve: the entries of the tables made before are empty from now
        on (cleared for real when the 16-bit generation runs out), the presence
        filters cleared and the killers forgotten."""
        if self.s.generation == 0xFFFF:
            memset(self.s.table, 0, (self.s.table_mask + 1) * sizeof(KJEntry))
            memset(self.s.twin_table, 0, (self.s.twin_mask + 1) * sizeof(KJTwin))
            memset(self.s.last_two, 0, sizeof(self.s.last_two))
            self.s.generation = 0
        self.s.generation += 1
        memset(self.s.table_filter, 0, sizeof(self.s.table_filter))
        memset(self.s.twin_filter, 0, sizeof(self.s.twin_filter))
        memset(self.s.killers, -1, sizeof(self.s.killers))

    cdef void _setup(self, int trump, int rotterdam, int stuk_mode, int stuk_seat, int pit,
                     int tie_is_nat, int playing) noexcept nogil:
        """The rules and the contract, the card tables for this trump, and no
        nodes counted yet."""
        cdef KJState* s = &self.s
        cdef int c, nat, suit, p
        s.trump = trump
        s.rotterdam = rotterdam
        s.stuk_mode = stuk_mode
        s.stuk_seat = stuk_seat
        s.pit = pit
        s.nat_max = 0 if tie_is_nat else -1
        s.playing_team = playing
        s.trump_cards = 0x11111111u << trump
        s.stuk_cards = ((<uint32_t>1) << (4 * 5 + trump)) | ((<uint32_t>1) << (4 * 6 + trump))
        for c in range(32):
            nat = c >> 2
            suit = c & 3
            if suit == trump:
                s.trump_power[c] = KJ_TRUMP_POWER[nat]
                s.points[c] = KJ_TRUMP_POINTS[nat]
            else:
                s.trump_power[c] = 0
                s.points[c] = KJ_PLAIN_POINTS[nat]
            s.plain_power[c] = KJ_PLAIN_POWER[nat]
        for c in range(32):
            s.plain_above[c] = 0
            for p in range(32):
                if KJ_PLAIN_POWER[p >> 2] > KJ_PLAIN_POWER[c >> 2]:
                    s.plain_above[c] |= (<uint32_t>1) << p
        for c in range(32):
            s.card_of_power[c & 3][s.trump_power[c] if s.trump_power[c] else s.plain_power[c]] = c
            for suit in range(4):
                s.power_by_led[suit][c] = (100 + s.trump_power[c] if s.trump_power[c]
                                   else s.plain_power[c] if (c & 3) == suit else 0)
        for p in range(9):
            s.trump_above[p] = 0
            for c in range(32):
                if s.trump_power[c] > p:
                    s.trump_above[p] |= (<uint32_t>1) << c
        s.nodes = 0
        s.aborted = 0
        kj_arm_limits(s)
        s.phase_nodes[0] = s.phase_nodes[1] = 0

    cdef void _load_position(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int leader,
                             int acc_diff, int acc_roem, int won_all, int tricks_done) noexcept nogil:
        """A trick-boundary position: the hands, the leader and the score so
        far (:class:`KJDyn`); what its holdings leave possible of roem."""
        cdef KJState* s = &self.s
        s.hands[0] = h0
        s.hands[1] = h1
        s.hands[2] = h2
        s.hands[3] = h3
        s.dyn.leader = leader
        s.dyn.in_trick = 0
        s.dyn.trick_cards = 0
        s.dyn.trick_points = 0
        s.dyn.top_trump = 0
        s.dyn.win_power = 0
        s.dyn.win_pos = 0
        s.dyn.led_suit = 0
        s.dyn.acc_diff = acc_diff
        s.dyn.acc_roem = acc_roem
        s.dyn.won_all = won_all
        s.dyn.tricks_done = tricks_done
        s.dyn.hand_points = kj_points_of(s, h0 | h1 | h2 | h3)
        kj_roem_holdings(s)

    def load(self, hands, trick, int leader, int trump, bint rotterdam, int stuk_mode, int stuk_seat,
             int pit, bint tie_is_nat, int playing, int acc_diff, int acc_roem, int won_all,
             int tricks_done, bint new_generation=True):
        """Set up a position: ``hands`` four 32-bit masks (cards still held, the
        cards of ``trick`` excluded), ``trick`` the card bits of the trick in
        progress (its leader is ``leader``), ``acc_diff`` = the playing team's
        points (cards, roem, pit) minus the other's so far, ``acc_roem`` = all
        roem so far, ``won_all`` bit t = team t won every trick so far,
        ``tricks_done`` the complete tricks."""
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
        self._load_position(hs[0], hs[1], hs[2], hs[3], leader, acc_diff, acc_roem, won_all, tricks_done)
        for i, c in enumerate(trick):
            seat = (leader + i) & 3
            # stuk "hand" was already scored by the caller: undo the kernel's scoring
            kj_play(&self.s, seat, c, &u)
            self.s.dyn.acc_diff = u.dyn.acc_diff
            self.s.dyn.acc_roem = u.dyn.acc_roem

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
        return (self.s.dyn.leader + self.s.dyn.in_trick) & 3

    def trivial_bounds(self):
        """``(lower, upper)``: cheap bounds of the exact value of the position."""
        cdef KJState* s = &self.s
        cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.dyn.trick_cards
        cdef int points_left, roem_ub, pit_playing, pit_other, hi, lo
        if s.dyn.tricks_done == KJ_TRICKS:
            v = s.dyn.acc_diff if s.dyn.acc_diff > s.nat_max else kj_nat_net(s.dyn.acc_roem)
            return v, v
        points_left = kj_points_of(s, rem) + KJ_LAST_TRICK_BONUS
        roem_ub = kj_roem_bound(s)
        pit_playing = s.pit if (s.dyn.won_all >> s.playing_team) & 1 else 0
        pit_other = s.pit if (s.dyn.won_all >> (1 - s.playing_team)) & 1 else 0
        hi = s.dyn.acc_diff + points_left + roem_ub + pit_playing
        if hi <= s.nat_max:
            hi = kj_nat_net(s.dyn.acc_roem)
        lo = kj_nat_net(s.dyn.acc_roem + roem_ub + pit_other)
        if s.dyn.acc_diff - (points_left + roem_ub + pit_other) > s.nat_max:
            lo = s.dyn.acc_diff - (points_left + roem_ub + pit_other)
        return lo, hi

    def finished(self):
        return self.s.dyn.tricks_done == KJ_TRICKS

    def legal(self):
        """Legal card bits of the player to move, ascending."""
        cdef uint32_t m = kj_legal(&self.s, self.s.hands[(self.s.dyn.leader + self.s.dyn.in_trick) & 3])
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
        cdef int seat = (self.s.dyn.leader + self.s.dyn.in_trick) & 3
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
        kj_play(&self.s, (self.s.dyn.leader + self.s.dyn.in_trick) & 3, c, &u)

    cdef int _follow_pv(self, int value, int team, KJUndo* undo, int* seats, int* cards):
        """Play a principal variation whose value is ``value`` from the current
        position (at each turn the first legal card that keeps the value), to
        the end of the hand, or (``team`` 0 or 1) until a trick is won by the
        other team; the seats and cards played go to ``seats`` and ``cards``
        (32 each).  Returns their number; :meth:`_unfollow` takes them back."""
        cdef int depth = 0, c, v, seat, found
        cdef uint32_t legal
        while self.s.dyn.tricks_done < KJ_TRICKS and not self.s.aborted:
            seat = (self.s.dyn.leader + self.s.dyn.in_trick) & 3
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
            if not found or (team >= 0 and self.s.dyn.in_trick == 0 and (self.s.dyn.leader & 1) != team):
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
        sweeps = depth > 0 and self.s.dyn.tricks_done == KJ_TRICKS and (self.s.dyn.leader & 1) == team
        self._unfollow(depth, undo, seats, cards)
        return bool(sweeps)

    def solve_deal(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int trump, int leader,
                   int playing, bint rotterdam=False, int stuk_mode=0, int pit=100,
                   bint tie_is_nat=True):
        """Exact net score of a full deal (hands as 32-bit masks) for the team
        ``playing``; ``leader`` leads trick 1."""
        cdef int stuk_seat = -1, i, v
        cdef uint32_t hs[4]
        # K and Q of trumps (bit 4 * natural rank + suit)
        cdef uint32_t sm = ((<uint32_t>1) << (4 * 5 + trump)) | ((<uint32_t>1) << (4 * 6 + trump))
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

    # ---- test hooks (internal: for tests and benchmarks) -------------------
    # They move where a search feature starts, switch the twin table off, or
    # expose a search or a key alone; the solver (quartet_solver.klaverjas.dd)
    # uses none of them.

    def set_key_tricks(self, int n):
        """Move dead low cards in the table key only with at least ``n`` tricks
        left (internal, for tests; default KJ_KEY_TRICKS_LEFT, 5).  Starts a new
        table generation."""
        self.s.key_tricks_left = n
        self._new_generation()

    @property
    def key_tricks(self):
        """See :meth:`set_key_tricks`."""
        return self.s.key_tricks_left

    def set_roem_test_tricks(self, int n):
        """Try the roem-game test where the other team leads (in the nat search)
        only with at least ``n`` tricks left (internal, for tests; default
        KJ_ROEM_TEST_TRICKS_LEFT, 3).
        Starts a new table generation."""
        self.s.roem_test_tricks_left = n
        self._new_generation()

    @property
    def roem_test_tricks(self):
        """See :meth:`set_roem_test_tricks`."""
        return self.s.roem_test_tricks_left

    def set_plain_tricks(self, int n):
        """Search the tricks by the plain trick search only at boundaries with
        at most ``n`` tricks left, and card by card before (internal, for tests;
        default 5; with 2 or fewer never, as two tricks left have a search of
        their own).  Starts a new table generation."""
        self.s.plain_from_done = KJ_TRICKS - n
        self._new_generation()

    @property
    def plain_tricks(self):
        """See :meth:`set_plain_tricks`."""
        return KJ_TRICKS - self.s.plain_from_done

    def set_twins(self, bint on):
        """Use the twin table (default) or not (internal, for tests).  Starts a
        new table generation."""
        self.s.use_twins = on
        self._new_generation()

    def twin_key(self):
        """``(key, cards_out, roem_cards, roem_places)``: :func:`kj_twin_key`,
        the roem cards (:func:`kj_roem_cards`) and their places
        (:func:`kj_twin_key`); internal, for tests; at a trick boundary."""
        cdef KJTwinKey p
        kj_twin_fill(&self.s, 0, &p, kj_roem_cards(&self.s))
        return tuple(p.key[i] for i in range(4)), p.cards_out, p.roem_cards, p.roem_places

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
            v = kj_search_roem(&self.s, -KJ_INF, KJ_INF)
        return v

    def table_key(self):
        """The four hands of the table key of the position (internal, for
        tests; meaningful at a trick boundary)."""
        cdef uint32_t key[4]
        kj_table_key(&self.s, key)
        return [key[i] for i in range(4)]

    def roem_bound(self):
        """Upper bound of the roem still to be scored (internal, for tests)."""
        cdef KJState* s = &self.s
        return kj_roem_bound(s)

def kj_thread_cpu_seconds():
    """Seconds of CPU time of the calling thread: the clock of the solver's time
    limit (:meth:`KlaverjasKernel.set_limits`; internal, for tests).

    >>> t = kj_thread_cpu_seconds()
    >>> 0 <= t <= kj_thread_cpu_seconds()
    True
    """
    return qs_thread_cpu_seconds()
