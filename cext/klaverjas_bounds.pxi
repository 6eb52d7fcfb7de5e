# Klaverjas solver, bounds: what the cards still out can bring, without a
# search.  The roem still possible (from the holdings, set once per loaded
# position: a roem that one player's holding rules out stays ruled out), its
# upper bound and its cards; the sure top trumps; who may still take the pit;
# a stuk "hand" still to come; the cheap bounds of the future d; the last
# trick scored directly.  Entry points: kj_roem_holdings (per loaded
# position), kj_future_bounds, kj_roem_bound_cards, kj_score_last_trick.

cdef inline void kj_roem_holdings(KJState* s) noexcept nogil:
    """At a trick boundary where a position is loaded: which roem its holdings
    leave possible (:func:`kj_roem_prospects`).  A roem takes one card of each
    of distinct players, so a run of three ranks w, w+1, w+2 of a suit is
    impossible when one player holds two of them, four of a kind when one
    holds two, stuk (per trick) when one holds K and Q.  A player's holding
    only shrinks, so while all of a roem's cards are still out (in the hands
    or the trick, counted for the players who played them) the one that held
    two still does: what is impossible here stays so, and what is possible
    stays so while its cards are out."""
    cdef uint32_t h, a, bad = 0, two = 0, c
    cdef int i
    s.stuk_possible = 1
    for i in range(4):
        h = s.hands[i]
        a = h & (h >> 4)
        bad |= a | (a >> 4) | (h & (h >> 8))
        # per rank (a nibble): two cards or more, by the nibble's bit count
        c = (h & 0x55555555u) + ((h >> 1) & 0x55555555u)
        c = (c & 0x33333333u) + ((c >> 2) & 0x33333333u)
        two |= (c + 0x66666666u) & 0x88888888u
        if (h & s.stuk_cards) == s.stuk_cards:
            s.stuk_possible = 0
    s.runs_possible = ~bad
    # bit 4 * n for each rank n >= 3 (T J Q K A) no player holds two of
    s.fours_possible = ~(two >> 3) & 0x11111000u


cdef inline uint32_t kj_live_runs(KJState* s, uint32_t m) noexcept nogil:
    """The runs that can still be scored when the cards still out are ``m``:
    bit 4 * w + suit for the ranks w, w + 1, w + 2 of a suit all in ``m``, that
    no player holds two of (:func:`kj_roem_holdings`)."""
    return m & (m >> 4) & (m >> 8) & s.runs_possible


cdef inline uint32_t kj_live_fours(KJState* s, uint32_t m) noexcept nogil:
    """The fours of a kind that can still be scored when the cards still out
    are ``m``: bit 4 * n for each rank n with all four cards in ``m``, that no
    player holds two of (:func:`kj_roem_holdings`)."""
    return m & (m >> 1) & (m >> 2) & (m >> 3) & s.fours_possible


cdef inline uint32_t kj_roem_prospects(KJState* s, uint32_t* four, int* stuk) noexcept nogil:
    """The roem that can still be scored from the cards in the hands and in the
    trick: returns the cards of the runs that can (windows of ranks w, w+1, w+2
    of a suit, all out, that no player holds two of); ``four`` gets bit 4 * n
    for each rank n whose four of a kind can (all out, no player holds two),
    ``stuk`` whether stuk can (per trick: K and Q out, not one player's; per
    hand: its holder has still to play the second).  What the holdings leave
    possible is set once per loaded position (:func:`kj_roem_holdings`)."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.dyn.trick_cards
    cdef uint32_t good = kj_live_runs(s, rem)
    four[0] = kj_live_fours(s, rem)
    stuk[0] = 0
    if s.stuk_mode == KJ_STUK_TRICK:
        stuk[0] = s.stuk_possible and (rem & s.stuk_cards) == s.stuk_cards
    elif s.stuk_mode == KJ_STUK_HAND and s.stuk_seat >= 0 and (s.hands[s.stuk_seat] & s.stuk_cards):
        stuk[0] = 1             # the holder has still to play the second of K, Q
    return good | (good << 4) | (good << 8)


cdef inline int kj_roem_bound_cards(KJState* s, uint32_t* roem_cards_o) noexcept nogil:
    """An upper bound of the roem still to be scored from the cards in the hands
    and in the trick (:func:`kj_roem_prospects`), with the roem cards in the
    hands in ``roem_cards_o`` (:func:`kj_roem_cards`): one look at the prospects serves
    the bound and the twin key."""
    cdef uint32_t four
    cdef int stuk, suit, n, ub = 0
    cdef uint32_t cards = kj_roem_prospects(s, &four, &stuk), all4 = cards
    if cards:
        for suit in range(4):
            # the number of the suit's cards in runs: a sum of bits 4 apart by a product
            ub += KJ_RUN_ROEM_MAX[(((cards >> suit) & 0x11111111u) * <uint32_t>0x11111111u) >> 28]
    while four:
        n = ctz64(four) >> 2
        four &= four - 1
        ub += KJ_FOUR_ROEM[n]
        all4 |= (<uint32_t>0xF) << (4 * n)
    if stuk:
        all4 |= s.stuk_cards
    roem_cards_o[0] = all4 & (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3])
    return ub + KJ_STUK_ROEM * stuk


cdef inline int kj_roem_bound(KJState* s) noexcept nogil:
    """:func:`kj_roem_bound_cards` without the roem cards."""
    cdef uint32_t cards
    return kj_roem_bound_cards(s, &cards)


cdef inline int kj_pit_teams(int won_all, int team) noexcept nogil:
    """The teams (bit t: team t) that may still take the pit, given ``team``,
    the holder of the highest trump still out (-1: none out): those that have
    won every trick so far (``won_all``, as ``KJDyn.won_all``), and if a trump is
    out only its holder's team (that trump wins the trick it falls in)."""
    return won_all & (3 if team < 0 else 1 << team)


cdef inline int kj_top_trump_team(KJState* s, uint32_t rem, uint32_t* tr, uint32_t* ns) noexcept nogil:
    """The team holding the highest trump of ``rem`` (cards still in the
    hands; -1: no trump), with the by-power patterns of the trumps of ``rem``
    (``tr``) and of N/S's among them (``ns``, set only when there is a trump)."""
    tr[0] = KJ_NATURAL_TO_POWER[kj_suit_pattern(rem, s.trump)]
    if not tr[0]:
        return -1
    ns[0] = KJ_NATURAL_TO_POWER[kj_suit_pattern((s.hands[0] | s.hands[2]) & rem, s.trump)]
    return 0 if (ns[0] << 1) > tr[0] else 1


cdef inline uint32_t kj_sure_trumps(KJState* s, uint32_t rem, int* team) noexcept nogil:
    """The top trumps of ``rem`` that one team (``team``; -1 when no trump is
    out) holds above the other team's highest, as a by-power pattern (bit p - 1
    for power p): they win for that team whatever the trick they fall in."""
    cdef uint32_t tr, ns
    team[0] = kj_top_trump_team(s, rem, &tr, &ns)
    if team[0] < 0:
        return 0
    return tr & KJ_ABOVE_TOP[(tr & ~ns) if team[0] == 0 else ns]


cdef inline int kj_stuk_to_come(KJState* s, uint32_t gone=0) noexcept nogil:
    """Stuk "hand" still to be scored, in the playing team's view (+20 or -20,
    as acc_diff counts it): its holder still holds K or Q of trumps (``gone``:
    cards of the hands to count as played), so it will play the second of them
    (the other one it has played or will play first)."""
    if (s.stuk_mode == KJ_STUK_HAND and s.stuk_seat >= 0
            and (s.hands[s.stuk_seat] & ~gone & s.stuk_cards)):
        return KJ_STUK_ROEM if (s.stuk_seat & 1) == s.playing_team else -KJ_STUK_ROEM
    return 0


cdef inline void kj_future_bounds(KJState* s, int* dmin, int* dmax, int* roem_ub_o, int* pit_other_o,
                                  int lazy_a=KJ_INF, int lazy_b=-KJ_INF,
                                  uint32_t* roem_cards_o=NULL) noexcept nogil:
    """Bounds ``dmin``, ``dmax`` of the future d (the playing team P minus the
    other) from a trick boundary, an upper bound of the roem still to come
    (``roem_ub_o``; its cards in ``roem_cards_o`` when given) and the pit the
    other team may still take (``pit_other_o``).  With ``lazy_a < lazy_b`` the
    roem bound is computed only when the bounds can fall outside that window
    (else ``roem_ub_o`` is -1 and the bounds are meaningless)."""
    cdef uint32_t rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int points_left = s.dyn.hand_points + KJ_LAST_TRICK_BONUS
    cdef int roem_ub, pit_playing, pit_other, pits
    cdef int p = s.playing_team
    cdef int team, sure, sd
    cdef uint32_t cards
    # the highest remaining trumps held by one team all win for it (whatever the
    # trick they fall in), so their points are that team's and the other takes no
    # pit: the run of top ones above the other team's highest
    sure = KJ_TRUMP_PATTERN_POINTS[kj_sure_trumps(s, rem, &team)]
    pits = kj_pit_teams(s.dyn.won_all, team)
    pit_playing = s.pit if (pits >> p) & 1 else 0
    pit_other = s.pit if (pits >> (1 - p)) & 1 else 0
    dmax[0] = points_left + pit_playing - (2 * sure if team == 1 - p else 0)
    dmin[0] = -(points_left + pit_other) + (2 * sure if team == p else 0)
    if lazy_a < lazy_b and dmax[0] > lazy_a and dmin[0] < lazy_b:
        roem_ub_o[0] = -1             # no cut even without roem
    else:
        roem_ub = kj_roem_bound_cards(s, &cards if roem_cards_o == NULL else roem_cards_o)
        roem_ub_o[0] = roem_ub
        # a stuk "hand" still to come (KJ_STUK_ROEM of roem_ub) is roem its
        # holder's team is sure of
        sd = kj_stuk_to_come(s)
        if sd:
            roem_ub -= KJ_STUK_ROEM
            dmax[0] += sd
            dmin[0] += sd
        dmax[0] += roem_ub
        dmin[0] -= roem_ub
    pit_other_o[0] = pit_other


cdef inline int kj_last_winner(KJState* s, uint32_t last, int leader) noexcept nogil:
    """The seat that wins the last trick when every seat plays its card of
    ``last`` (one each) and ``leader`` leads it."""
    cdef int k, pw, best = -1, w = 0, led = ctz64(s.hands[leader] & last) & 3
    for k in range(4):
        pw = kj_trick_power(s, ctz64(s.hands[k] & last), led)
        if pw > best:
            best = pw
            w = k
    return w


cdef inline int kj_last_team(KJState* s, uint32_t last, int leader, int won_all,
                             int* bonus) noexcept nogil:
    """The team that wins the last trick (:func:`kj_last_winner`), with in
    ``bonus`` its roem and the pit when that team has won every trick before
    (``won_all``)."""
    cdef int team = kj_last_winner(s, last, leader) & 1
    bonus[0] = kj_trick_roem(s, last) + (s.pit if won_all & (1 << team) else 0)
    return team


cdef inline void kj_score_last_trick(KJState* s, int* acc_diff, int* acc_roem) noexcept nogil:
    """The final ``acc_diff`` and ``acc_roem`` when every seat holds one card
    (a trick boundary): the same scoring as :func:`kj_play`."""
    cdef uint32_t last = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int bonus, team = kj_last_team(s, last, s.dyn.leader, s.dyn.won_all, &bonus)
    cdef int sd = kj_stuk_to_come(s), total = s.dyn.hand_points + KJ_LAST_TRICK_BONUS + bonus
    acc_diff[0] = s.dyn.acc_diff + sd + (total if team == s.playing_team else -total)
    acc_roem[0] = s.dyn.acc_roem + (sd if sd >= 0 else -sd) + bonus


cdef inline int kj_pit_to_come(KJState* s) noexcept nogil:
    """At a trick boundary: the pit that may still be scored (by either team:
    :func:`kj_pit_teams`), the roem game's bound of it: more of its nodes end
    at once, before their twin key."""
    cdef uint32_t tr, ns
    if not s.dyn.won_all:
        return 0
    return s.pit if kj_pit_teams(s.dyn.won_all, kj_top_trump_team(
        s, s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], &tr, &ns)) else 0
