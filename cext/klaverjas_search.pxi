# Klaverjas solver, the main searches.  The net score splits (made/nat,
# docs/klaverjas_solver.md): kj_search_d, the minimax of the additive future
# d (one principal variation search from the made threshold up, fails low
# when nat); kj_search_nat, the minimax of h = KJ_MADE if made else the nat
# net score; kj_search_roem, the roem game (roem + pit to come, the playing
# team minimises), which bounds h cheaply; kj_mtdf_nat, MTD(f) on h with
# roem-game tests first.  All are fail-soft alpha-beta; tables at trick
# boundaries only.  Entry points: kj_value, kj_has_value, kj_reaches.

cdef int kj_search_d(KJState* s, int alpha, int beta) noexcept nogil:
    """Minimax of the future d (the playing team's score to come minus the
    other's) from the current position, fail-soft; both teams play for d."""
    cdef int n = s.dyn.in_trick, seat, maxi, cnt, i, c, v, best, best_card = -1, delta, before
    cdef int a0, b0, dmin, dmax, roem_max, pit_other, meta = 0, table_best = -1, a = alpha, b = beta
    cdef int tricks_left = 0, twin = 0, est = 0
    cdef uint64_t h = 0, two_key = 0
    cdef KJEntry* e = NULL
    cdef KJTwoEntry* two_slot = NULL
    cdef KJTwinKey twin_key
    cdef KJUndo u
    cdef uint32_t key[4]
    cdef int moves[8]
    cdef int8_t* killer = NULL
    cdef uint32_t rest = 0, legal, roem_cards = 0
    if kj_check_limits(s):
        return 0
    if n == 0:
        if s.dyn.tricks_done == KJ_TRICKS:
            return 0
        if s.dyn.tricks_done == KJ_TRICKS - 1:
            kj_score_last_trick(s, &dmin, &roem_max)
            return dmin - s.dyn.acc_diff
        meta = kj_boundary_meta(s)
        if s.dyn.tricks_done < KJ_TRICKS - 2:
            h = kj_table_key_hash(s, key)
        else:
            # the two-trick table first: a hit saves the cheap bounds too
            two_slot = kj_last_two_slot(s, KJ_SEARCH_D, &two_key)
            if kj_last_two_cut(s, two_slot, two_key, s.dyn.acc_diff, a + s.dyn.acc_diff, b + s.dyn.acc_diff,
                               &v):
                return v - s.dyn.acc_diff
        kj_future_bounds(s, &dmin, &dmax, &roem_max, &pit_other, a, b, &roem_cards)
        if roem_max >= 0 and dmax <= a:
            return dmax
        if roem_max >= 0 and dmin >= b:
            return dmin
        if s.dyn.tricks_done == KJ_TRICKS - 2:
            return kj_search_last_two(s, a + s.dyn.acc_diff, b + s.dyn.acc_diff, KJ_SEARCH_D, two_slot,
                                      two_key) - s.dyn.acc_diff
        tricks_left = KJ_TRICKS - s.dyn.tricks_done
        e = kj_table_find(s, key, h, meta)
        if e != NULL and kj_table_cut(e, &a, &b, &table_best, &v):
            return v
        twin = kj_twin_probe(s, meta, &twin_key, roem_cards if roem_max >= 0 else kj_roem_cards(s))
        # a twin's bounds, widened by the point difference (kj_twin_key)
        if twin and kj_twin_cut(s, &twin_key, 1, a, b, &v):
            return v
    a0 = a
    b0 = b
    seat = (s.dyn.leader + n) & 3
    maxi = (seat & 1) == s.playing_team
    if n == 0 and s.dyn.tricks_done >= s.plain_from_done:
        # five tricks left or fewer: the plain trick search is cheaper, though
        # it searches more nodes
        cnt = 0
        best = kj_search_trick(s, a + s.dyn.acc_diff, b + s.dyn.acc_diff, KJ_SEARCH_D, table_best,
                               &best_card) - s.dyn.acc_diff
        if s.aborted:
            return 0
    else:
        killer = kj_killer_slot(s, n, seat, s.dyn.led_suit, s.dyn.win_power)
        legal = kj_merge_low(s, s.hands[seat], kj_legal(s, s.hands[seat]))
        if b - a > 1 or s.dyn.tricks_done < KJ_ESTIMATE_BEFORE_DONE:
            c = kj_pick_first(legal, killer[0], -1)
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
            cnt = kj_order_staged(s, legal, killer[0], table_best, moves, KJ_SEARCH_D, &rest)
        best = -KJ_INF if maxi else KJ_INF
    i = 0
    while i < cnt:
        c = moves[i]
        before = s.dyn.acc_diff
        kj_play(s, seat, c, &u)
        delta = s.dyn.acc_diff - before
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
                best_card = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                best_card = c
                if best < b:
                    b = best
        if a >= b:
            if killer != NULL:
                killer[0] = c
            break
        i += 1
        if i == cnt and rest:
            if est:
                cnt += kj_order_by_estimate(s, rest, maxi, moves + cnt)
            else:
                cnt += kj_order_moves(s, rest, table_best, moves + cnt, KJ_SEARCH_D, -1)
            rest = 0
    if n == 0:
        kj_table_store_result(s, key, h, meta, best, a0, b0, best_card, tricks_left)
        if twin:
            kj_twin_store(s, &twin_key, best, a0, b0)
    return best


cdef int kj_search_nat(KJState* s, int alpha, int beta) noexcept nogil:
    """Minimax of h = KJ_MADE if the hand is made else the (negative) net score
    when nat, from the current position; absolute values, fail-soft.  It is
    searched only where the hand is nat (kj_value): h - base (base the nat
    score so far) depends on the position and on the need only."""
    cdef int n = s.dyn.in_trick, seat, maxi, cnt, i, c, v, best, best_card = -1
    cdef int a0, b0, dmin, dmax, roem_max, pit_other, meta = 0, table_best = -1, a = alpha, b = beta
    cdef int tricks_left = 0, need = 0, base = 0, lo_b, hi_b, twin = 0, nat_top
    cdef uint64_t h = 0
    cdef KJEntry* e = NULL
    cdef KJEntry* d_entry
    cdef KJTwinKey twin_key
    cdef KJUndo u
    cdef uint32_t key[4]
    cdef int moves[8]
    cdef int8_t* killer = NULL
    cdef uint32_t rest = 0, roem_cards = 0
    if kj_check_limits(s):
        return 0
    if n == 0:
        if s.dyn.tricks_done == KJ_TRICKS:
            return KJ_MADE if s.dyn.acc_diff > s.nat_max else kj_nat_net(s.dyn.acc_roem)
        if s.dyn.tricks_done == KJ_TRICKS - 1:
            kj_score_last_trick(s, &dmin, &roem_max)
            return KJ_MADE if dmin > s.nat_max else kj_nat_net(roem_max)
        meta = kj_boundary_meta(s)
        if s.dyn.tricks_done < KJ_TRICKS - 2:
            h = kj_table_key_hash(s, key)
        kj_future_bounds(s, &dmin, &dmax, &roem_max, &pit_other, KJ_INF, -KJ_INF, &roem_cards)
        base = kj_nat_net(s.dyn.acc_roem)
        if s.dyn.acc_diff + dmin > s.nat_max:
            return KJ_MADE
        roem_max += pit_other       # the playing team never takes the pit when nat
        # bounds: h in [base - roem_max, nat_top] or KJ_MADE, nat_top the most a
        # nat outcome can be.  The cheap ones go first, at two tricks left too:
        # h >= b holds made or not when b <= base - roem_max, and h <= a when
        # a >= nat_top and no line makes the hand (no table probe, made test or
        # kj_search_last_two then)
        lo_b = base - roem_max
        if lo_b >= b:
            return lo_b
        need = s.nat_max - s.dyn.acc_diff
        # nat_top: base, less a stuk "hand" still to come (nat, it goes to the
        # other team too)
        nat_top = base - KJ_STUK_ROEM if kj_stuk_to_come(s) else base
        if dmax <= need:
            # no line makes the hand, so h = base - R, R the roem game's value
            # from here (cheaper to search)
            if nat_top <= a:
                return nat_top
            v = kj_search_roem(s, base - b, base - a)
            if s.aborted:
                return 0
            return base - v
        if s.dyn.tricks_done == KJ_TRICKS - 2:
            return kj_search_last_two(s, a, b, KJ_SEARCH_NAT, NULL, 0)
        # made-ness already settled by the d search's entry?
        d_entry = kj_table_find(s, key, h, meta)
        if d_entry != NULL and d_entry.lo > need:
            return KJ_MADE
        hi_b = nat_top if d_entry != NULL and d_entry.hi <= need else KJ_MADE
        if hi_b <= a:
            return hi_b
        if roem_max == 0 or a >= nat_top:
            # h is base or KJ_MADE when no roem or pit is left; and with a >= nat_top,
            # the most a nat outcome can be (after roem on the line of a test
            # h >= b near the root's base), only a made hand gets above a: that
            # test is the made test, which the d search answers with its own
            # table
            if hi_b == nat_top:
                return nat_top
            v = kj_search_d(s, need, need + 1)
            if s.aborted:
                return 0
            return KJ_MADE if v > need else nat_top
        meta |= KJ_META_NAT
        tricks_left = KJ_TRICKS - s.dyn.tricks_done
        # h - base (KJ_MADE kept) depends on the position and on need only, and does
        # not grow with need: one entry per position holds a lower bound valid up
        # to one need and an upper bound valid from one need on (for need >= dmax
        # the hand can no longer be made, so every such need is alike)
        e = kj_table_find(s, key, h, meta)
        if e != NULL and kj_table_cut_nat(e, need, dmax, base, &a, &b, &table_best, &v):
            return v
        twin = kj_twin_probe(s, meta, &twin_key, roem_cards)
        if twin and kj_twin_cut_nat(s, &twin_key, need, base, &a, &b, &v):
            return v
        if table_best < 0 and d_entry != NULL and d_entry.best_card != KJ_NO_CARD:
            table_best = d_entry.best_card
        if (b - a == 1 and b <= base and (s.dyn.leader & 1) != s.playing_team
                and KJ_TRICKS - s.dyn.tricks_done >= s.roem_test_tricks_left):
            # the other team leads: a test of the roem game (h >= base - R) may
            # show h >= b for all its cards at once, and it is cheaper than the
            # h search; where the playing team leads or with two tricks left it
            # does not pay (roem_test_tricks_left: KJ_ROEM_TEST_TRICKS_LEFT,
            # lower in tests)
            v = kj_search_roem(s, base - b, base - b + 1)
            if s.aborted:
                return 0
            if v <= base - b:
                return base - v
    a0 = a
    b0 = b
    seat = (s.dyn.leader + n) & 3
    maxi = (seat & 1) == s.playing_team
    if n == 0 and s.dyn.tricks_done >= s.plain_from_done:
        cnt = 0
        best = kj_search_trick(s, a, b, KJ_SEARCH_NAT, table_best, &best_card)
        if s.aborted:
            return 0
    else:
        killer = kj_killer_slot(s, n, seat, s.dyn.led_suit, s.dyn.win_power)
        cnt = kj_order_staged(s, kj_merge_low(s, s.hands[seat], kj_legal(s, s.hands[seat])), killer[0],
                              table_best, moves, KJ_SEARCH_NAT, &rest)
        best = -KJ_INF if maxi else KJ_INF
    i = 0
    while i < cnt:
        c = moves[i]
        kj_play(s, seat, c, &u)
        v = kj_search_nat(s, a, b)
        kj_undo(s, seat, c, &u)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                best_card = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                best_card = c
                if best < b:
                    b = best
        if a >= b:
            if killer != NULL:
                killer[0] = c
            break
        i += 1
        if i == cnt and rest:
            cnt += kj_order_moves(s, rest, table_best, moves + cnt, KJ_SEARCH_NAT, -1)
            rest = 0
    if n == 0:
        kj_table_store_nat(s, key, h, meta, need, dmax, base, best, a0, b0, best_card, tricks_left)
        if twin:
            kj_twin_store_nat(s, &twin_key, need, dmax, base, best, a0, b0)
    return best


cdef int kj_search_roem(KJState* s, int alpha, int beta) noexcept nogil:
    """The roem game: minimax of the future roem + pit (whoever scores it), which
    the playing team minimises and the other maximises, fail-soft.  Nobody plays
    for the hand here; its value bounds the nat outcome (see :func:`kj_value`)."""
    cdef int n = s.dyn.in_trick, seat, maxi, cnt, i, c, v, best, best_card = -1, delta, before
    cdef int a0, b0, roem_max, meta = 0, table_best = -1, a = alpha, b = beta, tricks_left = 0, fd, ft
    cdef int twin = 0
    cdef uint64_t h = 0, two_key = 0
    cdef KJTwoEntry* two_slot = NULL
    cdef KJEntry* e = NULL
    cdef KJTwinKey twin_key
    cdef KJUndo u
    cdef uint32_t key[4]
    cdef int moves[8]
    cdef int8_t* killer = NULL
    cdef uint32_t rest = 0, roem_cards = 0, legal
    if kj_check_limits(s):
        return 0
    if n == 0:
        if s.dyn.tricks_done == KJ_TRICKS:
            return 0
        if s.dyn.tricks_done == KJ_TRICKS - 1:
            kj_score_last_trick(s, &fd, &ft)
            return ft - s.dyn.acc_roem
        if b <= 0:
            return 0
        if b <= KJ_STUK_ROEM and kj_stuk_to_come(s):
            return KJ_STUK_ROEM     # a stuk "hand" still to come: sure roem
        meta = kj_boundary_meta(s) | KJ_META_ROEM
        roem_max = kj_roem_bound_cards(s, &roem_cards) + kj_pit_to_come(s)
        if roem_max <= a or roem_max == 0:
            return roem_max
        tricks_left = KJ_TRICKS - s.dyn.tricks_done
        # twins score the same roem and pit on matched lines: the same value.
        # Where the twin table serves, it alone holds the roem game's bounds
        # (the position's own entry would add nothing)
        twin = kj_twin_probe(s, meta, &twin_key, roem_cards)
        if twin:
            if kj_twin_cut(s, &twin_key, 0, a, b, &v):
                return v
        else:
            h = kj_table_key_hash(s, key)
            e = kj_table_find(s, key, h, meta)
            if e != NULL and kj_table_cut(e, &a, &b, &table_best, &v):
                return v
    a0 = a
    b0 = b
    seat = (s.dyn.leader + n) & 3
    maxi = (seat & 1) != s.playing_team
    if n == 0 and s.dyn.tricks_done == KJ_TRICKS - 2:
        cnt = 0
        two_slot = kj_last_two_slot(s, KJ_SEARCH_ROEM, &two_key)
        if kj_last_two_cut(s, two_slot, two_key, s.dyn.acc_roem, a + s.dyn.acc_roem, b + s.dyn.acc_roem,
                           &v):
            best = v - s.dyn.acc_roem
        else:
            best = kj_search_last_two(s, a + s.dyn.acc_roem, b + s.dyn.acc_roem, KJ_SEARCH_ROEM, two_slot,
                                      two_key) - s.dyn.acc_roem
            if s.aborted:
                return 0
    elif n == 0 and s.dyn.tricks_done >= s.plain_from_done:
        cnt = 0
        best = kj_search_trick(s, a + s.dyn.acc_roem, b + s.dyn.acc_roem, KJ_SEARCH_ROEM, table_best,
                               &best_card, ~roem_cards) - s.dyn.acc_roem
        if s.aborted:
            return 0
    else:
        killer = kj_killer_slot(s, n, seat, s.dyn.led_suit, s.dyn.win_power)
        legal = kj_merge_low(s, s.hands[seat], kj_legal(s, s.hands[seat]))
        if n == 0:
            legal = kj_merge_roemless(s, s.hands[seat], legal, 0, ~roem_cards)
        cnt = kj_order_staged(s, legal, killer[0], table_best, moves, KJ_SEARCH_ROEM, &rest)
        best = -KJ_INF if maxi else KJ_INF
    i = 0
    while i < cnt:
        c = moves[i]
        before = s.dyn.acc_roem
        kj_play(s, seat, c, &u)
        delta = s.dyn.acc_roem - before
        v = delta + kj_search_roem(s, a - delta, b - delta)
        kj_undo(s, seat, c, &u)
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                best_card = c
                if best > a:
                    a = best
        else:
            if v < best:
                best = v
                best_card = c
                if best < b:
                    b = best
        if a >= b:
            if killer != NULL:
                killer[0] = c
            break
        i += 1
        if i == cnt and rest:
            cnt += kj_order_moves(s, rest, table_best, moves + cnt, KJ_SEARCH_ROEM, -1)
            rest = 0
    if n == 0:
        if twin:
            kj_twin_store(s, &twin_key, best, a0, b0)
        else:
            kj_table_store_result(s, key, h, meta, best, a0, b0, best_card, tricks_left)
    return best


cdef int kj_mtdf_nat(KJState* s, int upper) noexcept nogil:
    """Exact h of a nat position with ``h <= upper`` by MTD(f): null-window
    tests down from ``upper``.  Each test ``h >= x`` is first tried as the
    test ``R <= base - x`` of the roem game, which is cheaper to search and
    suffices (``h >= base - R``, see :func:`kj_value`)."""
    cdef int g = upper, lower = -KJ_INF, beta, r, base = kj_nat_net(s.dyn.acc_roem)
    while lower < upper:
        beta = g + 1 if g == lower else g
        r = kj_search_roem(s, base - beta, base - beta + 1)
        if s.aborted:
            return 0
        if r <= base - beta:
            lower = base - r if base - r < upper else upper
            g = lower
            continue
        r = kj_search_nat(s, beta - 1, beta)
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
    if s.dyn.tricks_done == KJ_TRICKS:
        if s.dyn.acc_diff > s.nat_max:
            return s.dyn.acc_diff
        return kj_nat_net(s.dyn.acc_roem)
    cdef uint64_t n0 = s.nodes
    # one principal variation search of D from the made threshold up: it fails
    # low when the hand is nat, else it is exact
    need = s.nat_max - s.dyn.acc_diff
    v = kj_search_d(s, need, KJ_INF)
    s.phase_nodes[0] += s.nodes - n0
    n0 = s.nodes
    if s.aborted:
        return 0
    if v > need:
        return s.dyn.acc_diff + v
    # nat: the value is base - (roem + pit to come), base = kj_nat_net(roem so
    # far), so at most base.  Whatever the other team does, the playing team
    # can hold the roem to the roem game's value R (and a made hand is worth
    # even more), so the value is at least base - R: a test of the roem game
    # often settles a test of h (kj_mtdf_nat)
    v = kj_mtdf_nat(s, kj_nat_net(s.dyn.acc_roem))
    s.phase_nodes[1] += s.nodes - n0
    return v


cdef int kj_has_value(KJState* s, int value) noexcept nogil:
    """Whether ``value`` is the exact net score of the position.  A made value
    is ``acc_diff + D``, so two null-window tests of ``D`` decide it."""
    cdef int tf
    if s.dyn.tricks_done == KJ_TRICKS or value <= s.nat_max:
        return kj_value(s) == value
    tf = value - s.dyn.acc_diff
    if kj_search_d(s, tf - 1, tf) < tf:
        return 0
    return kj_search_d(s, tf, tf + 1) <= tf


cdef int kj_reaches(KJState* s, int x) noexcept nogil:
    """Whether the exact net score is at least ``x``: one null-window test.
    Made outcomes are worth ``acc_diff + D > nat_max`` and nat ones at most
    ``base = kj_nat_net(acc_roem)``, so above ``nat_max`` it is a test of
    ``D``, between ``base`` and ``nat_max`` the made test, and from ``base``
    down a test of ``h`` (see :func:`kj_value`)."""
    cdef int t
    if s.dyn.tricks_done == KJ_TRICKS:
        return kj_value(s) >= x
    if x > s.nat_max:
        t = x - s.dyn.acc_diff
        return kj_search_d(s, t - 1, t) >= t
    if x > kj_nat_net(s.dyn.acc_roem):
        t = s.nat_max - s.dyn.acc_diff
        return kj_search_d(s, t, t + 1) > t
    return kj_search_nat(s, x - 1, x) >= x
