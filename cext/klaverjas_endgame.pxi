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
