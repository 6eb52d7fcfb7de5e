# Klaverjas solver, move ordering: which cards to search, in which order.
# Merges of interchangeable cards (low cards in no possible run; in the roem
# game any cards in no possible roem); the rules of kj_order_moves (a one-line
# intent each, in the code); killers (the card that last cut at the same place
# of a trick, tried first); the staged order (the first card alone, the rest
# ordered only if it does not cut); the d search's estimate to the end of the
# trick.  Invariant: ordering never changes a value, only the nodes.  Entry
# points: kj_merge_low, kj_merge_roemless, kj_order_staged, kj_killer_slot,
# kj_order_by_estimate.

cdef inline uint32_t kj_merge_low(KJState* s, uint32_t own, uint32_t legal) noexcept nogil:
    """Drop legal cards equivalent to a kept one: 0-point cards of one suit in
    the same hand with no card of another hand (or of the trick) between them,
    that are in no run that can still be scored (:func:`kj_roem_holdings`)."""
    return kj_merge_low_at(s, own, legal, s.dyn.trick_cards)


cdef inline uint32_t kj_merge_low_at(KJState* s, uint32_t own, uint32_t legal,
                                     uint32_t trick_cards) noexcept nogil:
    """:func:`kj_merge_low` with the trick's cards ``trick_cards`` given."""
    cdef uint32_t oth = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | trick_cards) & ~own
    cdef uint32_t lp, op, btw, live, lv
    cdef int su, r, prev
    cdef uint32_t low = legal & 0xFFFu & ~(s.trump_cards & 0xF00u)
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


cdef inline uint32_t kj_merge_roemless(KJState* s, uint32_t own, uint32_t legal, uint32_t trick_cards,
                                       uint32_t dead) noexcept nogil:
    """The roem game's merge (:func:`kj_search_roem`, where card points do not
    count): of the legal cards that can be in no roem (``dead``), keep one of
    each run of a suit in power order with no card of another hand (or of the
    trick) between them, the lowest.  Such cards win and lose the same tricks
    and make the same roem (none), so they are the same move; a card that can
    be in no roem never can again, so a trick boundary's ``dead`` holds to the
    end of the trick.  (The plain merge, :func:`kj_merge_low`, takes zero-point
    cards alone, for the searches where points count.)"""
    cdef uint32_t cand = legal & dead, c, x, b, above, nb, drop = 0
    cdef uint32_t* lay
    cdef int q
    if not (cand & ((cand >> 4) | (cand >> 8) | (cand >> 12) | (cand >> 16) | (cand >> 20)
                    | (cand >> 24) | (cand >> 28))):
        return legal                # no two of one suit
    # by-power layout (kj_by_power): bit 8 * suit + power - 1
    lay = &KJ_BY_POWER[s.trump][0][0]
    c = kj_by_power(lay, cand)
    x = c | kj_by_power(lay, (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | trick_cards) & ~own)
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
        legal &= ~((<uint32_t>1) << s.card_of_power[q >> 3][(q & 7) + 1])
    return legal


cdef inline int kj_top_of_suit(KJState* s, uint32_t m) noexcept nogil:
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
    cdef int* of_pow = s.card_of_power[s.trump]
    cdef int pw = 8
    while pw > 1 and not ((rem >> of_pow[pw]) & 1):
        pw -= 1
    return of_pow[pw]


cdef inline int kj_can_beat(KJState* s, uint32_t oh, int pw) noexcept nogil:
    """Whether hand ``oh``, still to play to the trick, holds a card that may
    beat power ``pw`` (for move ordering only)."""
    cdef uint32_t fol = oh & (<uint32_t>0x11111111u << s.dyn.led_suit)
    cdef int c
    if pw > 100:
        if s.dyn.led_suit != s.trump and fol:
            return 0
        return (oh & s.trump_above[pw - 100]) != 0
    if fol:
        while fol:
            c = ctz64(fol)
            fol &= fol - 1
            if s.plain_power[c] > pw:
                return 1
        return 0
    return (oh & s.trump_cards) != 0


cdef inline int kj_order_moves(KJState* s, uint32_t legal, int first, int* out, int mode,
                               int second) noexcept nogil:
    """Legal cards in search order, ``first`` then ``second`` if legal (the
    killer, :func:`kj_killer_slot`, and the table's best card: in a search from a
    new window the card that cut last is the better guess), then by the rules
    below (``mode``: the search, KJ_SEARCH_*: roem is the trick winner's gain
    in the d search, the playing team's loss in the others); returns their
    number."""
    cdef int scores[8]
    cdef int cnt = 0, c, sc, pw, i, j, tmp, n = s.dyn.in_trick
    cdef int partner_win = n >= 2 and s.dyn.win_pos == n - 2
    cdef int r, pside = ((s.dyn.leader + n) & 1) == s.playing_team
    cdef uint32_t rem, rc = 0, part = 0, opp = 0, oh, sm, ruff = 0, last = 0
    cdef int bp = 0, toptr = -1
    cdef int tops[4]
    if (legal & (legal - 1)) == 0:
        out[0] = ctz64(legal)
        return 1
    rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    if n == 3:
        rc = kj_roem_fourth_cards(s)
    elif n == 0:
        part = s.hands[s.dyn.leader ^ 2]
        opp = s.hands[s.dyn.leader ^ 1] | s.hands[s.dyn.leader ^ 3]
        tops[0] = tops[1] = tops[2] = tops[3] = -1
        for i in range(1, 4, 2):
            # the suits this opponent can ruff (bit j of the fold: it holds suit j)
            oh = s.hands[s.dyn.leader ^ i]
            if oh & s.trump_cards:
                sm = oh | (oh >> 16)
                sm |= sm >> 8
                sm |= sm >> 4
                ruff |= <uint32_t>0x11111111u * (~sm & 0xFu)
    if partner_win and n == 2:
        last = s.hands[(s.dyn.leader + 3) & 3]
        bp = kj_can_beat(s, last, s.dyn.win_power)
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
            if s.trump_power[c]:
                if not (rem & s.trump_above[s.trump_power[c]]):
                    sc = 500 + s.points[c]
                else:
                    if toptr < 0:
                        toptr = kj_top_trump(s, rem)
                    # a low trump to the partner's top trump, else the lowest
                    sc = (150 + s.points[c]) if (part >> toptr) & 1 else -s.trump_power[c] - s.points[c]
                if not (opp & s.trump_cards):
                    # it pulls no trump: after the plain top cards
                    sc = 250 + s.points[c] if sc >= 500 else sc - 300
            else:
                sm = rem & (<uint32_t>0x11111111u << (c & 3))
                if not (sm & s.plain_above[c]):
                    sc = 300 + s.points[c]
                else:
                    if tops[c & 3] < 0:
                        tops[c & 3] = kj_top_of_suit(s, sm)
                    # a low card to the partner's top card, else the lowest
                    sc = ((200 + s.points[c]) if (part >> tops[c & 3]) & 1
                          else -s.plain_power[c] - s.points[c])
                if ruff & sm:
                    # the other team ruffs it: late, and not with points
                    sc -= 150 + 4 * s.points[c]
        else:
            pw = kj_trick_power(s, c, s.dyn.led_suit)
            if bp:
                # the last hand can beat the partner's card: win for sure, or play low
                if pw > s.dyn.win_power and not kj_can_beat(s, last, pw):
                    sc = 1000 + s.points[c] * 2 - pw
                else:
                    sc = -s.points[c] * 4 - pw
            elif partner_win:
                # the partner wins: points to it, not over it (a trump least)
                sc = ((200 + s.points[c] * 4 - pw) if pw <= s.dyn.win_power
                      else (pw > 100) * -50 + s.points[c])
            elif pw > s.dyn.win_power:
                # the other team wins: take the trick, cheaply
                sc = 1000 + s.points[c] * 2 - pw
            else:
                # it cannot win: the lowest and no points
                sc = -s.points[c] * 4 - pw
            if (rc >> c) & 1:
                # the last card of a trick: its roem is known
                r = kj_trick_roem(s, s.dyn.trick_cards | ((<uint32_t>1) << c))
                if r:
                    if mode == KJ_SEARCH_D:
                        sc += 8 * r if (partner_win or pw > s.dyn.win_power) else -8 * r
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


cdef inline int kj_pick_first(uint32_t legal, int first, int second) noexcept nogil:
    """The card to search alone before the others are ordered: ``first``, else
    ``second``, when it is legal and not the only legal card; else -1."""
    cdef int c = first if first >= 0 and (legal >> first) & 1 else second
    if c >= 0 and (legal >> c) & 1 and (legal & (legal - 1)):
        return c
    return -1


cdef inline int kj_order_staged(KJState* s, uint32_t legal, int first, int second, int* out, int mode,
                                uint32_t* rest) noexcept nogil:
    """The search order in two stages: ``first`` (else ``second``) alone when it
    is legal, with the other legal cards left in ``rest``, for the caller to
    search only if that card does not cut (most nodes cut on it; the searches
    order them by :func:`kj_order_moves`, the plain trick search does not);
    else all the legal cards in the order of kj_order_moves for the search
    ``mode`` (``rest`` empty).  Returns the number of cards put in ``out``."""
    cdef int c = kj_pick_first(legal, first, second)
    if c >= 0:
        out[0] = c
        rest[0] = legal & ~((<uint32_t>1) << c)
        return 1
    rest[0] = 0
    return kj_order_moves(s, legal, first, out, mode, second)


cdef inline int8_t* kj_killer_slot(KJState* s, int i, int seat, int led, int win_power) noexcept nogil:
    """The killer slot of the ``i``-th card of a trick (led suit ``led``, winning
    power so far ``win_power``): the card that last cut a search at the same
    place of a trick, by tricks done, seat to play, led suit and winning card
    (for a lead, ``led`` is the suit led to the trick before).  It is tried
    first, then the table's best card if there is one.  The winning card is
    its power (:func:`kj_trick_power`): plain 1-8 and trump 101-108 take the
    slots 1-7, 0 and 13-15, 8-12."""
    if i == 0:
        win_power = 0
    return &s.killers[s.dyn.tricks_done][i][seat][led][(win_power & 7) | ((win_power >> 3) & 8)]


cdef inline int kj_estimate_leaf(KJState* s, KJTrick* t) noexcept nogil:
    """:func:`kj_estimate_card` of the complete trick ``t`` (its cards still in
    the hands): its d for P (from the node being ordered), and from the trick
    boundary after it the middle of the cheap bounds of the future d
    (:func:`kj_future_bounds`: the points left count alike on both sides and
    so does the roem bound, so their middle is that of the sure trumps and
    the pit, moved by a stuk "hand" still to come), or the last trick exactly
    (:func:`kj_score_last_trick`)."""
    cdef uint32_t tm = t.trick_cards
    cdef uint32_t rem = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & ~tm
    cdef int winner = (s.dyn.leader + t.win_pos) & 3, team = winner & 1, done1 = s.dyn.tricks_done + 1
    cdef int won_all1 = s.dyn.won_all & (1 << team), p = s.playing_team
    cdef int taken = t.trick_points + kj_trick_roem(s, tm)
    # points still in the hands after the trick
    cdef int hand_points1 = s.dyn.hand_points - (t.trick_points - s.dyn.trick_points)
    cdef int v, sd, bonus, w8, total, top, sure, pits, pit_playing, pit_other, points_left, dmax, dmin
    if done1 == KJ_TRICKS:
        taken += KJ_LAST_TRICK_BONUS + (s.pit if won_all1 else 0)
    v = t.stuk_diff + (taken if team == p else -taken)
    if done1 == KJ_TRICKS:
        return v
    sd = kj_stuk_to_come(s, tm)
    if done1 == KJ_TRICKS - 1:
        w8 = kj_last_team(s, rem, winner, won_all1, &bonus)
        total = hand_points1 + KJ_LAST_TRICK_BONUS + bonus
        return v + sd + (total if w8 == p else -total)
    sure = KJ_TRUMP_PATTERN_POINTS[kj_sure_trumps(s, rem, &top)]
    pits = kj_pit_teams(won_all1, top)
    pit_playing = s.pit if (pits >> p) & 1 else 0
    pit_other = s.pit if (pits >> (1 - p)) & 1 else 0
    points_left = hand_points1 + KJ_LAST_TRICK_BONUS
    dmax = points_left + pit_playing - (2 * sure if top == 1 - p else 0)
    dmin = -(points_left + pit_other) + (2 * sure if top == p else 0)
    return v + (dmin + dmax) // 2 + sd


cdef inline int kj_estimate_card(KJState* s, KJTrick* t, int i, int alpha, int beta) noexcept nogil:
    """An estimate of the future d for move ordering (:func:`kj_order_by_estimate`):
    fail-soft alpha-beta over the rest of the trick ``t`` from its ``i``-th card
    (kept as :func:`kj_search_trick` keeps it: the hands unchanged), values from
    the node being ordered, the complete trick valued by :func:`kj_estimate_leaf`.
    Each position counts as a node.  An instance per card, nested by the
    compiler as :func:`kj_trick_follow` is."""
    cdef int seat, maxi, c, best, a = alpha, b = beta, v
    cdef uint32_t legal
    cdef KJTrick u
    if kj_check_limits(s):
        return 0
    if i == 4:
        return kj_estimate_leaf(s, t)
    seat = (s.dyn.leader + i) & 3
    maxi = (seat & 1) == s.playing_team
    legal = kj_trick_legal(s, t, seat, i)
    best = -KJ_INF if maxi else KJ_INF
    while legal:
        c = ctz64(legal)
        legal &= legal - 1
        u = t[0]
        kj_trick_play(s, &u, seat, c, i)
        if i == 3:
            v = kj_estimate_card4(s, &u, a, b)
        elif i == 2:
            v = kj_estimate_card3(s, &u, a, b)
        else:
            v = kj_estimate_card2(s, &u, a, b)
        if kj_alphabeta_take(maxi, v, &best, &a, &b):
            break
    return best


cdef int kj_estimate_card2(KJState* s, KJTrick* t, int alpha, int beta) noexcept nogil:
    return kj_estimate_card(s, t, 2, alpha, beta)


cdef int kj_estimate_card3(KJState* s, KJTrick* t, int alpha, int beta) noexcept nogil:
    return kj_estimate_card(s, t, 3, alpha, beta)


cdef int kj_estimate_card4(KJState* s, KJTrick* t, int alpha, int beta) noexcept nogil:
    return kj_estimate_card(s, t, 4, alpha, beta)


cdef inline int kj_estimate_trick(KJState* s, KJTrick* t, int i, int alpha, int beta) noexcept nogil:
    """:func:`kj_estimate_card` from the ``i``-th card (1-4) of the trick ``t``."""
    if i == 1:
        return kj_estimate_card(s, t, 1, alpha, beta)
    if i == 2:
        return kj_estimate_card2(s, t, alpha, beta)
    if i == 3:
        return kj_estimate_card3(s, t, alpha, beta)
    return kj_estimate_card4(s, t, alpha, beta)


cdef int kj_order_by_estimate(KJState* s, uint32_t legal, int maxi, int* out) noexcept nogil:
    """The cards ``legal`` of a node of the ``d`` search in search order, by
    their estimate to the end of the trick (:func:`kj_estimate_trick`), the
    best for the side to move first.  For the nodes where ordering well pays
    most: those with a wide window (principal variation nodes: a card found
    better than the first is searched again with a wide window), and those
    with fewer than ``KJ_ESTIMATE_BEFORE_DONE`` tricks done (the largest
    subtrees); both are few.  The killer goes before them
    (:func:`kj_search_d`), alone: the others are estimated only when it does
    not cut.  The estimate keeps the trick apart from the state, as the plain
    trick search does.  Returns the number of cards put in ``out``."""
    cdef int sc[32]
    cdef int cnt = 0, c, i, n = s.dyn.in_trick, seat = (s.dyn.leader + s.dyn.in_trick) & 3
    cdef KJTrick t, u
    if (legal & (legal - 1)) == 0:
        out[0] = ctz64(legal)
        return 1
    # the trick so far, from the state (its d is in the state's already)
    t.led_suit = s.dyn.led_suit
    t.top_trump = s.dyn.top_trump
    t.win_pos = s.dyn.win_pos
    t.win_power = s.dyn.win_power
    t.trick_points = s.dyn.trick_points
    t.trick_cards = s.dyn.trick_cards
    t.stuk_diff = t.stuk_roem = 0
    while legal:
        c = ctz64(legal)
        legal &= legal - 1
        u = t
        kj_trick_play(s, &u, seat, c, n)
        sc[c] = kj_estimate_trick(s, &u, n + 1, -KJ_INF, KJ_INF)
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
