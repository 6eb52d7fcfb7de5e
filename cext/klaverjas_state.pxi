# Klaverjas solver, state: the records of the search (table entries, the
# state, undo, a trick in progress, a twin key), the rules of play (trick
# power, legality, a trick's roem), playing a card and taking it back, and the
# node and time limits.  Invariant: kj_undo restores exactly what kj_play
# changed (KJDyn is saved whole), so a search leaves the state as it found it.
# Entry points: kj_play, kj_undo, kj_legal, kj_check_limits.

# The records of the search: the three tables' entries, the state and its
# undo record, a trick in progress and a twin key.  Layouts are tuned (an
# entry is 32 bytes, two to a cache line): change them with a benchmark.

ctypedef struct KJEntry:
    # a transposition-table entry: bounds of a position's value in one search
    uint32_t key[4]           # the table key (kj_table_key)
    int16_t lo_need_max       # nat-search entries: lo holds for needs <= lo_need_max,
    int16_t hi_need_min       # hi for needs >= hi_need_min (kj_table_cut_nat)
    int16_t lo                # lower bound (KJ_NO_LOWER: none)
    int16_t hi                # upper bound (KJ_NO_UPPER: none)
    uint16_t generation       # the solve that made it (older ones are empty)
    uint8_t meta              # leader, pit flags, search (kj_boundary_meta, KJ_META_*)
    uint8_t best_card         # the card that was best or cut (KJ_NO_CARD: none)
    uint8_t tricks_left       # of the position: the replacement keeps the deeper
    uint8_t pad[3]


ctypedef struct KJTwin:
    # a twin-table entry: bounds of the future d of a position (the nat search:
    # of h, the roem game: of the roem to come), found by its twin key
    uint32_t key[4]           # the twin key (kj_twin_key)
    uint32_t cards_out        # which cards are out, by-power layout (kj_twin_key)
    int16_t lo
    int16_t hi
    uint16_t generation
    uint8_t meta              # leader, pit flags, search (kj_boundary_meta, KJ_META_*)
    uint8_t pad
    int16_t lo_need_max       # nat-search entries: as in KJEntry
    int16_t hi_need_min
    uint32_t roem_cards       # the roem cards (kj_roem_cards) and their places (kj_twin_key)
    uint32_t roem_places


ctypedef struct KJTwoEntry:
    # a two-trick-table entry: bounds of the last two tricks' value of a
    # position (kj_search_last_two) less the acc_diff (d search) or the acc_roem
    # (roem game): that part depends on the position alone
    uint64_t key              # kj_last_two_slot
    int16_t lo
    int16_t hi
    uint16_t generation
    uint16_t pad


ctypedef struct KJDyn:
    # the part of the state that a card changes (saved whole for undo)
    int in_trick              # cards played to the trick in progress (0: a trick boundary)
    int leader                # seat that led the trick in progress (at a boundary: leads next)
    int led_suit              # suit led (at a boundary: the one led to the trick before)
    int win_pos               # place in the trick of the card winning it so far
    int win_power             # its trick power (kj_trick_power)
    int top_trump             # the highest trump power in the trick (0: none)
    int trick_points          # card points in the trick
    uint32_t trick_cards      # the trick's cards
    int acc_diff              # playing team minus other team so far (cards, last trick, roem, pit)
    int acc_roem              # all roem and pit so far, both teams
    int won_all               # bit t: team t has won every trick so far (the pit)
    int tricks_done           # complete tricks (8: the hand is over)
    int hand_points           # points of the cards still in the hands


ctypedef struct KJUndo:
    KJDyn dyn
    int trick_card


ctypedef struct KJState:
    uint32_t hands[4]         # cards still held, by seat (the trick's cards not)
    # the rules and the contract
    int trump, rotterdam, stuk_mode, stuk_seat, pit
    int nat_max               # the largest final acc_diff that is nat (0: a tie is nat, else -1)
    int playing_team          # 0: N-S, 1: E-W
    uint32_t trump_cards, stuk_cards
    # the roem the loaded position's holdings leave possible (kj_roem_holdings)
    uint32_t runs_possible, fours_possible
    int stuk_possible
    # card tables for this trump (KlaverjasKernel._setup)
    int points[32]
    int trump_power[32]       # 1..8 for trumps, 0 otherwise
    int plain_power[32]       # plain power by rank, 1..8
    int power_by_led[4][32]   # kj_trick_power by led suit and card
    uint32_t trump_above[9]   # trumps with power > p
    uint32_t plain_above[32]  # cards of any suit whose plain power beats card c's
    int card_of_power[4][9]   # card bit of each suit's card with power p (1..8; trump power for trumps)
    # the trick in progress (its cards) and the rest of the changing state
    int trick_card[4]
    KJDyn dyn
    # where the searches use what (tricks left or done; test hooks move them)
    int key_tricks_left       # low cards moved in the table key with this many tricks left or more
    int roem_test_tricks_left # roem-game tests in the nat search with this many tricks left or more
    int plain_from_done       # kj_search_trick at boundaries with this many tricks done or more
    # transposition table (its key: kj_table_key) and twin table (kj_twin_key)
    KJEntry* table
    uint64_t table_mask
    KJTwin* twin_table        # used unless use_twins is 0
    uint64_t twin_mask
    int use_twins
    uint16_t generation       # of the solve: entries of older ones are empty
    # limits
    uint64_t nodes, node_limit
    uint64_t next_check       # node count of the next look at the limits (kj_check_limits_now)
    double deadline           # qs_thread_cpu_seconds() at which to stop
    int has_deadline, aborted
    uint64_t phase_nodes[2]   # nodes spent: the d search, the nat search
    # the two-trick table (kj_search_last_two; 16 KiB: cache-resident), by generation
    KJTwoEntry last_two[1 << KJ_LAST_TWO_BITS]
    # presence filters of the two tables (kj_filter_has): a bit per class of
    # hashes, set when an entry of this generation is made for one of them
    uint64_t table_filter[KJ_FILTER_WORDS]
    uint64_t twin_filter[KJ_FILTER_WORDS]
    # killers (kj_killer_slot): by tricks done, place in the trick, seat, led suit
    # and winning card so far, the card that last cut a search there
    int8_t killers[8][4][4][4][16]


ctypedef struct KJTrick:
    # a trick in progress in the plain trick search and the estimate (the
    # hands are not changed): the fields of KJDyn of the same names, and the
    # stuk "hand" its cards score (in acc_diff and acc_roem)
    int led_suit, top_trump, win_pos, win_power, trick_points, stuk_diff, stuk_roem
    uint32_t trick_cards


ctypedef struct KJTwinKey:
    # a position's twin key (kj_twin_key), its hash, the cards out, its roem
    # cards (kj_roem_cards) and their places, its meta (kj_boundary_meta)
    uint64_t hash
    uint32_t key[4]
    uint32_t cards_out
    uint32_t roem_cards
    uint32_t roem_places
    int meta


cdef inline int kj_boundary_meta(KJState* s) noexcept nogil:
    """The position part of a table entry's meta byte at a trick boundary: the
    leader (bits 0-1) and the won-all flags (bits 2-3); the searches add their
    bit (KJ_META_NAT, KJ_META_ROEM)."""
    return s.dyn.leader | (s.dyn.won_all << 2)


cdef inline int kj_nat_net(int acc_roem) noexcept nogil:
    """The net score of a nat hand for the playing team, whose other team
    takes all the card points and every roem and pit (``acc_roem``)."""
    return -(KJ_TOTAL_POINTS + acc_roem)


cdef inline int kj_trick_power(KJState* s, int c, int led) noexcept nogil:
    """Trick power of card ``c`` when suit ``led`` was led (0: it cannot win):
    100 + trump power for a trump, plain power in the led suit (a table)."""
    return s.power_by_led[led][c]


cdef inline void kj_trick_add_card(KJState* s, int c, int i, int* led, int* top_trump, int* win_power,
                              int* win_pos) noexcept nogil:
    """Card ``c`` played as the ``i``-th of a trick: update its led suit, highest
    trump and winning card."""
    cdef int pw
    if i == 0:
        led[0] = c & 3
    pw = kj_trick_power(s, c, led[0])
    if pw > win_power[0]:
        win_power[0] = pw
        win_pos[0] = i
    if s.trump_power[c] > top_trump[0]:
        top_trump[0] = s.trump_power[c]


cdef inline int kj_plays_second_stuk(KJState* s, int seat, uint32_t bit, uint32_t rest) noexcept nogil:
    """Stuk "hand": whether ``seat`` playing card ``bit`` (``rest``: its other
    cards) plays the second of its K, Q of trumps, which scores the 20."""
    return (s.stuk_mode == KJ_STUK_HAND and seat == s.stuk_seat and (bit & s.stuk_cards) != 0
            and (rest & s.stuk_cards) == 0)


cdef inline uint32_t kj_legal_at(KJState* s, uint32_t hand, int n, int led, int top_trump,
                                 int win_pos) noexcept nogil:
    """Legal cards of ``hand`` as the ``n``-th card of a trick (led suit ``led``,
    highest trump power ``top_trump``, winning card at position ``win_pos``)."""
    cdef uint32_t follow, trumps, higher, others, r
    if n == 0:
        return hand
    follow = hand & (0x11111111u << led)
    if led == s.trump:
        if follow:
            higher = follow & s.trump_above[top_trump]
            return higher if higher else follow
        return hand
    if follow:
        return follow
    trumps = hand & s.trump_cards
    if not trumps:
        return hand
    higher = trumps & s.trump_above[top_trump]
    if s.rotterdam:
        return higher if higher else trumps
    others = hand & ~s.trump_cards
    if n >= 2 and win_pos == n - 2:       # partner winning
        if top_trump == 0:
            return hand
        r = others | higher
        return r if r else hand
    if top_trump == 0:
        return trumps
    if higher:
        return higher
    return others if others else hand


cdef inline uint32_t kj_legal(KJState* s, uint32_t hand) noexcept nogil:
    """Legal cards of ``hand`` for the seat to play next to the trick in progress
    (:func:`kj_legal_at`; any card at a trick boundary)."""
    return kj_legal_at(s, hand, s.dyn.in_trick, s.dyn.led_suit, s.dyn.top_trump, s.dyn.win_pos)


cdef inline int kj_trick_roem(KJState* s, uint32_t m) noexcept nogil:
    """Roem of a complete trick (4 cards).  Bit 4 * rank + suit: the same suit's
    next rank is 4 bits up, so runs are ANDs of shifted masks."""
    cdef int r = 0, c
    cdef uint32_t run3 = m & (m >> 4) & (m >> 8)
    if run3:
        r = KJ_RUN4_ROEM if run3 & (m >> 12) else KJ_RUN3_ROEM
    else:
        c = ctz64(m)
        if (c & 3) == 0 and m == (<uint32_t>0xF) << c:
            r = KJ_FOUR_ROEM[c >> 2]     # four of a kind
    if s.stuk_mode == KJ_STUK_TRICK and (m & s.stuk_cards) == s.stuk_cards:
        r += KJ_STUK_ROEM
    return r


cdef inline uint32_t kj_roem_fourth_cards(KJState* s) noexcept nogil:
    """With three cards in the trick: the cards whose play as the fourth can make
    roem (a suit with two cards in the trick, the fourth of a kind, stuk)."""
    cdef uint32_t tm = s.dyn.trick_cards, out = 0, sm
    cdef int suit, c = ctz64(tm)
    for suit in range(4):
        sm = tm & (<uint32_t>0x11111111u << suit)
        if sm & (sm - 1):
            out |= <uint32_t>0x11111111u << suit
    if (tm | ((<uint32_t>0xF) << (c & ~3))) == ((<uint32_t>0xF) << (c & ~3)):
        out |= (<uint32_t>0xF) << (c & ~3)
    if s.stuk_mode == KJ_STUK_TRICK and (tm & s.stuk_cards):
        out |= s.stuk_cards
    return out


cdef inline void kj_play(KJState* s, int seat, int c, KJUndo* u) noexcept nogil:
    """Play card ``c`` (legal: not checked) of ``seat``, the seat to play, into
    the trick in progress, saving what it changes in ``u`` for
    :func:`kj_undo`.  Scores as the rules do: a second stuk "hand" card at
    once; the fourth card completes the trick, which goes to its winner with
    its points, its roem, the last trick's bonus and the pit (a team that won
    every trick), in acc_diff (the playing team's view) and acc_roem; the
    winner leads next."""
    cdef uint32_t bit = (<uint32_t>1) << c
    cdef int winner, team, taken, roem, pitb, sign
    u.dyn = s.dyn
    u.trick_card = s.trick_card[s.dyn.in_trick]
    s.hands[seat] &= ~bit
    s.dyn.hand_points -= s.points[c]
    if kj_plays_second_stuk(s, seat, bit, s.hands[seat]):
        s.dyn.acc_roem += KJ_STUK_ROEM
        s.dyn.acc_diff += KJ_STUK_ROEM if (seat & 1) == s.playing_team else -KJ_STUK_ROEM
    kj_trick_add_card(s, c, s.dyn.in_trick, &s.dyn.led_suit, &s.dyn.top_trump, &s.dyn.win_power,
                      &s.dyn.win_pos)
    s.trick_card[s.dyn.in_trick] = c
    s.dyn.trick_cards |= bit
    s.dyn.trick_points += s.points[c]
    s.dyn.in_trick += 1
    if s.dyn.in_trick == 4:
        winner = (s.dyn.leader + s.dyn.win_pos) & 3
        team = winner & 1
        s.dyn.tricks_done += 1
        taken = s.dyn.trick_points + (KJ_LAST_TRICK_BONUS if s.dyn.tricks_done == KJ_TRICKS else 0)
        roem = kj_trick_roem(s, s.dyn.trick_cards)
        s.dyn.won_all &= (1 << team)
        pitb = s.pit if (s.dyn.tricks_done == KJ_TRICKS and (s.dyn.won_all & (1 << team))) else 0
        sign = 1 if team == s.playing_team else -1
        s.dyn.acc_diff += sign * (taken + roem + pitb)
        s.dyn.acc_roem += roem + pitb
        s.dyn.leader = winner
        s.dyn.in_trick = 0
        s.dyn.trick_cards = 0
        s.dyn.trick_points = 0
        s.dyn.top_trump = 0
        s.dyn.win_power = 0
        s.dyn.win_pos = 0


cdef inline void kj_undo(KJState* s, int seat, int c, KJUndo* u) noexcept nogil:
    """Take back card ``c`` of ``seat`` played by :func:`kj_play` with ``u``
    (the last card played: undo in the reverse order of play)."""
    s.hands[seat] |= (<uint32_t>1) << c
    s.dyn = u.dyn
    s.trick_card[u.dyn.in_trick] = u.trick_card      # the roem bound reads the trick's cards


cdef inline int kj_points_of(KJState* s, uint32_t m) noexcept nogil:
    """The card points of the cards ``m``."""
    cdef int t = 0
    while m:
        t += s.points[ctz64(m)]
        m &= m - 1
    return t


cdef inline void kj_arm_limits(KJState* s) noexcept nogil:
    """Set when :func:`kj_check_limits` next looks at the limits: past the node
    limit, and every 1024 nodes for the clock."""
    s.next_check = 0xFFFFFFFFFFFFFFFFULL
    if s.aborted:
        s.next_check = 0
        return
    if s.node_limit:
        s.next_check = s.node_limit + 1
    if s.has_deadline and (s.nodes | 1023) + 1 < s.next_check:
        s.next_check = (s.nodes | 1023) + 1


cdef int kj_check_limits_now(KJState* s) noexcept nogil:
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
    if s.nodes >= s.next_check:
        return kj_check_limits_now(s)
    return 0
