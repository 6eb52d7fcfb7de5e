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
