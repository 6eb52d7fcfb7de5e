# Klaverjas solver, endgame searches: the plain trick search (from five tricks
# left: a trick's cards as nested loops over a KJTrick, the state updated
# once per trick, only the lead ordered) and the last-two-trick search (four
# nested loops over the first of them, the last scored directly, with a small
# two-trick table of its own).  Both serve the three searches (``mode``,
# KJ_SEARCH_*) with absolute values; their cards count as nodes.  Entry
# points: kj_search_trick, kj_search_last_two (kj_last_two_slot and
# kj_last_two_cut probe its table first).

cdef inline int kj_alphabeta_take(int maxi, int v, int* best, int* a, int* b) noexcept nogil:
    """Fail-soft alpha-beta bookkeeping of one child value ``v`` at a node of
    the maximiser (``maxi``) or the minimiser; returns whether it cuts."""
    if maxi:
        best[0] = v if v > best[0] else best[0]
        a[0] = best[0] if best[0] > a[0] else a[0]
    else:
        best[0] = v if v < best[0] else best[0]
        b[0] = best[0] if best[0] < b[0] else b[0]
    return a[0] >= b[0]


cdef inline void kj_trick_play(KJState* s, KJTrick* u, int seat, int c, int i) noexcept nogil:
    """Card ``c`` of ``seat`` played as the ``i``-th of the trick ``u`` (the
    hands unchanged; a second stuk "hand" it plays in ``u.stuk_diff``, the
    playing team's view, and ``u.stuk_roem``)."""
    cdef uint32_t bit = (<uint32_t>1) << c
    kj_trick_add_card(s, c, i, &u.led_suit, &u.top_trump, &u.win_power, &u.win_pos)
    u.trick_cards |= bit
    u.trick_points += s.points[c]
    if kj_plays_second_stuk(s, seat, bit, s.hands[seat] & ~bit):
        u.stuk_roem = KJ_STUK_ROEM
        u.stuk_diff = KJ_STUK_ROEM if (seat & 1) == s.playing_team else -KJ_STUK_ROEM


cdef inline uint32_t kj_trick_legal(KJState* s, KJTrick* t, int seat, int i) noexcept nogil:
    """The legal cards of ``seat`` as the ``i``-th card (1-3) of the trick ``t``,
    interchangeable ones merged (:func:`kj_merge_low_at`)."""
    return kj_merge_low_at(s, s.hands[seat], kj_legal_at(s, s.hands[seat], i, t.led_suit, t.top_trump,
                                                         t.win_pos), t.trick_cards)


cdef inline int kj_trick_first(KJState* s, KJTrick* t, int seat, int i, uint32_t legal,
                               int8_t** killer) noexcept nogil:
    """The first of the cards ``legal`` (not empty) to search as the ``i``-th of
    the trick ``t``: its killer (:func:`kj_killer_slot`, its slot in
    ``killer`` when there is a choice, else NULL) when legal, else the
    lowest."""
    cdef int c = -1
    killer[0] = NULL
    if legal & (legal - 1):
        killer[0] = kj_killer_slot(s, i, seat, t.led_suit, t.win_power)
        c = kj_pick_first(legal, killer[0][0], -1)
    return c if c >= 0 else ctz64(legal)


cdef inline int kj_trick_follow(KJState* s, KJTrick* t, int i, int alpha, int beta,
                                int mode) noexcept nogil:
    """The second or third card of a trick (``i`` 1 or 2) in
    :func:`kj_search_trick`: the killer (:func:`kj_killer_slot`) first, then
    the others in plain order (there, ordering them costs more than the nodes
    it saves).  An instance for each (:func:`kj_trick_second`,
    :func:`kj_trick_third`), and a function of its own for the last card
    (:func:`kj_trick_last`): so the compiler nests the three as loops in the
    lead's search, as in :func:`kj_search_last_two`, instead of a call per
    card."""
    cdef int seat = (s.dyn.leader + i) & 3, maxi, c, v, best, a = alpha, b = beta
    cdef uint32_t legal
    cdef int8_t* killer
    cdef KJTrick u
    if kj_check_limits(s):
        return 0
    maxi = ((seat & 1) == s.playing_team) != (mode == KJ_SEARCH_ROEM)
    legal = kj_trick_legal(s, t, seat, i)
    c = kj_trick_first(s, t, seat, i, legal, &killer)
    best = -KJ_INF if maxi else KJ_INF
    while True:
        legal &= ~((<uint32_t>1) << c)
        u = t[0]
        kj_trick_play(s, &u, seat, c, i)
        if i == 2:
            v = kj_trick_last(s, &u, a, b, mode)
        else:
            v = kj_trick_third(s, &u, a, b, mode)
        if s.aborted:
            return 0
        if kj_alphabeta_take(maxi, v, &best, &a, &b):
            if killer != NULL:
                killer[0] = c
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
    """The last card of a trick, as :func:`kj_trick_follow`, on to :func:`kj_trick_complete`."""
    cdef int seat = (s.dyn.leader + 3) & 3, maxi, c, v, best, a = alpha, b = beta
    cdef uint32_t legal
    cdef int8_t* killer
    cdef KJTrick u
    if kj_check_limits(s):
        return 0
    maxi = ((seat & 1) == s.playing_team) != (mode == KJ_SEARCH_ROEM)
    legal = kj_trick_legal(s, t, seat, 3)
    c = kj_trick_first(s, t, seat, 3, legal, &killer)
    best = -KJ_INF if maxi else KJ_INF
    while True:
        legal &= ~((<uint32_t>1) << c)
        u = t[0]
        kj_trick_play(s, &u, seat, c, 3)
        v = kj_trick_complete(s, &u, a, b, mode)
        if s.aborted:
            return 0
        if kj_alphabeta_take(maxi, v, &best, &a, &b):
            if killer != NULL:
                killer[0] = c
            break
        if not legal:
            break
        c = ctz64(legal)
    return best


cdef int kj_search_trick(KJState* s, int alpha, int beta, int mode, int table_best, int* best_card,
                         uint32_t dead=0) noexcept nogil:
    """Plain fail-soft alpha-beta over a trick from its boundary, for the
    boundaries with five to three tricks left (from ``KJState.plain_from_done``
    tricks done, by default ``KJ_PLAIN_FROM_DONE``; the bulk of the nodes;
    with two left, :func:`kj_search_last_two`): no state update but the
    trick's own (a :class:`KJTrick`; the hands unchanged) until
    :func:`kj_trick_complete` scores it.  Interchangeable cards are merged
    (:func:`kj_merge_low`; in the roem game the leads also by
    :func:`kj_merge_roemless`, given ``dead``).  The lead: the killer
    (:func:`kj_killer_slot`), else ``table_best``, alone first, and if it does
    not cut, the other leads in plain order (a node that its first card does
    not cut is most likely one where every card is searched); without either,
    all the leads in the order of kj_order_moves.  The other cards:
    :func:`kj_trick_follow`.

    Values are absolute: the final acc_diff (KJ_SEARCH_D), h (KJ_SEARCH_NAT,
    see :func:`kj_search_nat`) or the final acc_roem (KJ_SEARCH_ROEM, the
    other team maximises, see :func:`kj_search_roem`).  ``best_card``: the
    best lead."""
    cdef int seat = s.dyn.leader, maxi, c, v, best, a = alpha, b = beta, k = 0, cnt
    cdef uint32_t legal
    cdef int8_t* killer
    cdef uint32_t rest = 0
    cdef KJTrick t, u
    cdef int moves[8]
    if kj_check_limits(s):
        return 0
    memset(&t, 0, sizeof(KJTrick))
    maxi = ((seat & 1) == s.playing_team) != (mode == KJ_SEARCH_ROEM)
    legal = kj_merge_low_at(s, s.hands[seat], s.hands[seat], 0)
    if dead:
        # the roem game's merge, for the leads only: there a merged card saves
        # a whole trick; for the other cards it costs more than it saves
        legal = kj_merge_roemless(s, s.hands[seat], legal, 0, dead)
    killer = kj_killer_slot(s, 0, seat, s.dyn.led_suit, 0)
    cnt = kj_order_staged(s, legal, killer[0], table_best, moves, mode, &rest)
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
        kj_trick_play(s, &u, seat, c, 0)
        v = kj_trick_second(s, &u, a, b, mode)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                best_card[0] = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                best_card[0] = c
                if best < b:
                    b = best
        if a >= b:
            killer[0] = c
            break
        if k == cnt and rest:
            legal = rest            # the other leads, in plain order
            rest = 0
    return best


cdef int kj_trick_complete(KJState* s, KJTrick* t, int alpha, int beta, int mode) noexcept nogil:
    """The trick ``t`` of :func:`kj_search_trick` is complete (its cards are
    still in the hands): score it, search on from the next trick boundary with
    the search ``mode`` and put the state back (only the fields it changed).
    Values as in :func:`kj_search_trick`."""
    cdef uint32_t h0 = s.hands[0], h1 = s.hands[1], h2 = s.hands[2], h3 = s.hands[3]
    cdef uint32_t tm = t.trick_cards
    cdef int winner = (s.dyn.leader + t.win_pos) & 3
    cdef int team = winner & 1, roem = kj_trick_roem(s, tm), v
    # the fields changed below (the trick's own are all zero at a boundary)
    cdef int leader = s.dyn.leader, acc_diff = s.dyn.acc_diff, acc_roem = s.dyn.acc_roem
    cdef int won_all = s.dyn.won_all, hand_points = s.dyn.hand_points, led = s.dyn.led_suit
    cdef int acc_diff1 = acc_diff + t.stuk_diff + (t.trick_points + roem if team == s.playing_team
                                                   else -(t.trick_points + roem))
    cdef int acc_roem1 = acc_roem + t.stuk_roem + roem
    s.hands[0] = h0 & ~tm
    s.hands[1] = h1 & ~tm
    s.hands[2] = h2 & ~tm
    s.hands[3] = h3 & ~tm
    s.dyn.hand_points -= t.trick_points
    s.dyn.tricks_done += 1            # never the last trick here: no last-trick bonus, no pit
    s.dyn.won_all &= 1 << team
    s.dyn.acc_diff = acc_diff1
    s.dyn.acc_roem = acc_roem1
    s.dyn.leader = winner
    s.dyn.led_suit = t.led_suit     # the last trick's, for the killers
    if mode == KJ_SEARCH_D:
        v = acc_diff1 + kj_search_d(s, alpha - acc_diff1, beta - acc_diff1)
    elif mode == KJ_SEARCH_NAT:
        v = kj_search_nat(s, alpha, beta)
    else:
        v = acc_roem1 + kj_search_roem(s, alpha - acc_roem1, beta - acc_roem1)
    s.dyn.leader = leader
    s.dyn.led_suit = led
    s.dyn.acc_diff = acc_diff
    s.dyn.acc_roem = acc_roem
    s.dyn.won_all = won_all
    s.dyn.hand_points = hand_points
    s.dyn.tricks_done -= 1
    s.hands[0] = h0
    s.hands[1] = h1
    s.hands[2] = h2
    s.hands[3] = h3
    return v


cdef inline int kj_last_two_leaf(KJState* s, int c0, int c1, int c2, int c3, int win_pos,
                                 uint32_t all8, int sd, int mode, int roemy) noexcept nogil:
    """The value (absolute, as in :func:`kj_search_trick`) of the last two tricks
    when the seats from the leader play ``c0`` .. ``c3`` to the first of them
    (``win_pos``: the place of its winning card) and their other cards to the
    last (``all8``: the eight cards; ``sd``: the stuk "hand" still to come, in
    the playing team's view: its holder plays the second of K, Q in one of these tricks, whatever
    the order; ``roemy``: whether the eight cards hold a roem at all, else
    neither trick scores any)."""
    cdef int leader = s.dyn.leader, w7 = (leader + win_pos) & 3, team7 = w7 & 1, team8
    cdef uint32_t tm = ((<uint32_t>1) << c0) | ((<uint32_t>1) << c1) | ((<uint32_t>1) << c2) \
        | ((<uint32_t>1) << c3)
    cdef uint32_t last = all8 & ~tm
    cdef int r7 = 0, r8 = 0
    cdef int p7 = s.points[c0] + s.points[c1] + s.points[c2] + s.points[c3]
    cdef int p8 = s.dyn.hand_points - p7 + KJ_LAST_TRICK_BONUS
    cdef int fd, ft
    if roemy:
        r7 = kj_trick_roem(s, tm)
        r8 = kj_trick_roem(s, last)
        p8 += r8
    team8 = kj_last_winner(s, last, w7) & 1
    if (s.dyn.won_all & (1 << team7)) and team8 == team7:
        p8 += s.pit
        r8 += s.pit
    p7 += r7
    fd = (s.dyn.acc_diff + sd + (p7 if team7 == s.playing_team else -p7)
          + (p8 if team8 == s.playing_team else -p8))
    ft = s.dyn.acc_roem + (sd if sd >= 0 else -sd) + r7 + r8
    if mode == KJ_SEARCH_D:
        return fd
    if mode == KJ_SEARCH_ROEM:
        return ft
    return KJ_MADE if fd > s.nat_max else -(KJ_TOTAL_POINTS + ft)


cdef inline KJTwoEntry* kj_last_two_slot(KJState* s, int mode, uint64_t* two_key) noexcept nogil:
    """The two-trick table's slot of a position with two tricks left, with its
    exact key in ``two_key``: the eight cards (bits 0-31), which of them N, E
    and S hold (a byte each, packed in the order of the cards: W holds the
    rest), the leader, the pit flags and the search (``mode``: KJ_SEARCH_D or
    KJ_SEARCH_ROEM), as in a table entry's meta byte."""
    cdef uint32_t all8 = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int meta = kj_boundary_meta(s) | (KJ_META_ROEM if mode == KJ_SEARCH_ROEM else 0)
    two_key[0] = (<uint64_t>all8 | ((<uint64_t>kj_compress32(all8, s.hands[0])) << 32)
                  | ((<uint64_t>kj_compress32(all8, s.hands[1])) << 40)
                  | ((<uint64_t>kj_compress32(all8, s.hands[2])) << 48)
                  | ((<uint64_t>meta) << 56))
    return &s.last_two[(two_key[0] * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - KJ_LAST_TWO_BITS)]


cdef inline int kj_last_two_cut(KJState* s, KJTwoEntry* two_slot, uint64_t two_key, int off, int alpha,
                                int beta, int* v) noexcept nogil:
    """Whether the slot ``two_slot`` holds the position ``two_key`` with bounds
    that settle the window (values absolute: the stored ones plus ``off``), its
    value or bound then in ``v``."""
    if two_slot.key != two_key or two_slot.generation != s.generation:
        return 0
    if two_slot.lo + off >= beta or two_slot.lo == two_slot.hi:
        v[0] = two_slot.lo + off
        return 1
    if two_slot.hi + off <= alpha:
        v[0] = two_slot.hi + off
        return 1
    return 0


cdef int kj_search_last_two(KJState* s, int alpha, int beta, int mode, KJTwoEntry* two_slot,
                            uint64_t two_key) noexcept nogil:
    """Fail-soft alpha-beta over the last two tricks from their boundary (every
    hand holds two cards), values absolute as in :func:`kj_search_trick`: the
    first of them by four nested loops over the legal cards, the last scored
    directly (:func:`kj_last_two_leaf`).  Cheaper than the plain trick search
    and its table probe there; its cards count as nodes.

    The d search and the roem game keep its bounds in a small table of their
    own by exact key (:func:`kj_last_two_slot`): a position with two tricks
    left recurs often in a solve, and the table stays in the cache.  They
    probe it (:func:`kj_last_two_cut`) and pass the slot ``two_slot`` (key
    ``two_key``), where the result goes; the nat search's values depend on the
    need too, so it passes none (NULL)."""
    cdef int leader = s.dyn.leader
    cdef int s1 = (leader + 1) & 3, s2 = (leader + 2) & 3, s3 = (leader + 3) & 3
    cdef int x0 = ((leader & 1) == s.playing_team) != (mode == KJ_SEARCH_ROEM)
    cdef int x1 = not x0, x2 = x0, x3 = not x0
    cdef uint32_t l0 = s.hands[leader], l1, l2, l3
    # the trick so far after each card, as kj_trick_add_card keeps it (winning
    # place w, winning power wp or p, highest trump t), kept in locals
    cdef int c0, c1, c2, c3, led, p0, p1, p2, w1, w2, w3, wp1, wp2, t1, t2
    cdef int a0 = alpha, b0 = beta, a1, b1, a2, b2, a3, b3, v0, v1, v2, v3
    cdef int n = 0, sd = 0, roemy, off = s.dyn.acc_diff if mode == KJ_SEARCH_D else s.dyn.acc_roem
    cdef uint32_t all8 = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    if kj_check_limits(s):
        return 0
    sd = kj_stuk_to_come(s)
    # the eight cards hold a run, four of a kind or stuk that the holdings
    # leave possible (kj_roem_holdings; else no roem)
    roemy = kj_live_runs(s, all8) != 0 or kj_live_fours(s, all8) != 0 or (
        s.stuk_mode == KJ_STUK_TRICK and s.stuk_possible and (all8 & s.stuk_cards) == s.stuk_cards)
    v0 = -KJ_INF if x0 else KJ_INF
    while l0:
        c0 = ctz64(l0)
        l0 &= l0 - 1
        led = c0 & 3
        p0 = kj_trick_power(s, c0, led)
        l1 = kj_legal_at(s, s.hands[s1], 1, led, s.trump_power[c0], 0)
        a1 = a0
        b1 = b0
        v1 = -KJ_INF if x1 else KJ_INF
        while l1:
            c1 = ctz64(l1)
            l1 &= l1 - 1
            p1 = kj_trick_power(s, c1, led)
            w1 = 1 if p1 > p0 else 0
            wp1 = p1 if w1 else p0
            t1 = s.trump_power[c1] if s.trump_power[c1] > s.trump_power[c0] else s.trump_power[c0]
            l2 = kj_legal_at(s, s.hands[s2], 2, led, t1, w1)
            a2 = a1
            b2 = b1
            v2 = -KJ_INF if x2 else KJ_INF
            while l2:
                c2 = ctz64(l2)
                l2 &= l2 - 1
                p2 = kj_trick_power(s, c2, led)
                w2 = 2 if p2 > wp1 else w1
                wp2 = p2 if p2 > wp1 else wp1
                t2 = s.trump_power[c2] if s.trump_power[c2] > t1 else t1
                l3 = kj_legal_at(s, s.hands[s3], 3, led, t2, w2)
                a3 = a2
                b3 = b2
                v3 = -KJ_INF if x3 else KJ_INF
                while l3:
                    c3 = ctz64(l3)
                    l3 &= l3 - 1
                    n += 1
                    w3 = 3 if kj_trick_power(s, c3, led) > wp2 else w2
                    if kj_alphabeta_take(x3, kj_last_two_leaf(s, c0, c1, c2, c3, w3, all8, sd, mode, roemy),
                                         &v3, &a3, &b3):
                        break
                n += 1
                if kj_alphabeta_take(x2, v3, &v2, &a2, &b2):
                    break
            n += 1
            if kj_alphabeta_take(x1, v2, &v1, &a1, &b1):
                break
        n += 1
        if kj_alphabeta_take(x0, v1, &v0, &a0, &b0):
            break
    s.nodes += n
    if two_slot != NULL:
        # fail-soft: v0 is a lower bound above alpha, an upper bound below beta
        if two_slot.key != two_key or two_slot.generation != s.generation:
            two_slot.key = two_key
            two_slot.generation = s.generation
            two_slot.lo = KJ_NO_LOWER
            two_slot.hi = KJ_NO_UPPER
        if v0 > alpha:
            two_slot.lo = v0 - off
        if v0 < beta:
            two_slot.hi = v0 - off
    return v0
