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
