"""Klaverjas rules: legality (Amsterdam and Rotterdam), trick winner, roem, card points,
rule presets and options, illegal-move messages and deals (PBN, random, daily).

Every example of the rules (quartet_solver.klaverjas.rules) is a hand-built unit test here; each
legality case is checked against the package AND against the independent reference
``tests/reference/klaverjas_rules.py``.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import klaverjas_rules as ref
from quartet_solver.cards import Card, CardSet, Decks, Suit
from quartet_solver.errors import IllegalActionError, InvalidStateError, NotationError, QuartetError
from quartet_solver.klaverjas import Deal, PlayState, Rules
from quartet_solver.klaverjas import rules as kr

H = Suit.HEARTS


def cards(text: str) -> list[Card]:
    return [Card(t) for t in text.split()]


def legal(hand: str, trick: str, trump: Suit = H, variant: str = "amsterdam") -> set[str]:
    """Legal cards per the package, checked to agree with the reference."""
    h, t = cards(hand), cards(trick)
    got = kr.legal_cards(h, t, trump, rules=Rules.named(variant))
    expected = ref.reference_legal(h, t, trump, variant)
    assert set(got) == expected, (hand, trick, variant)
    assert len(got) == len(set(got))
    assert set(got) <= set(h)
    return {str(c) for c in got}


def S(text: str) -> set[str]:
    return set(text.split())


# --------------------------------------------------------------------------------------
# Legality: both variants
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["amsterdam", "rotterdam"])
class TestBothVariants:
    def test_leader_may_play_anything(self, variant):
        assert legal("Ac 7h Jd 9s", "", variant=variant) == S("Ac 7h Jd 9s")

    def test_must_follow_plain_suit(self, variant):
        assert legal("Ac 7c Jh Ks", "Tc", variant=variant) == S("Ac 7c")

    def test_must_follow_plain_suit_even_with_trump_in_trick(self, variant):
        # an opponent trumped, but I can follow: following is all that is asked (any club)
        assert legal("7c Kc Jh", "Tc Ah", variant=variant) == S("7c Kc")

    def test_must_follow_plain_suit_partner_winning(self, variant):
        assert legal("8d 9d Jh 7s", "Ad 7d", variant=variant) == S("8d 9d")

    def test_trumps_led_must_beat_highest_trump(self, variant):
        # second seat, an opponent led the 9 of trumps: only the jack beats it
        assert legal("Jh Ah 7h As", "9h", variant=variant) == S("Jh")

    def test_trumps_led_must_overtrump_even_partner(self, variant):
        # third seat: partner (trick[-2]) led the 9, an opponent discarded
        assert legal("Jh Ah 7h As", "9h 7s", variant=variant) == S("Jh")

    def test_trumps_led_beat_the_highest_of_several(self, variant):
        # fourth seat: Q led, partner played A, opponent played T -> must beat the ace
        assert legal("9h Kh 8h Ac", "Qh Ah Th", variant=variant) == S("9h")
        # trump order J 9 A T K Q 8 7: several higher trumps, any of them
        assert legal("Jh 9h Kh Ac", "Qh Th", variant=variant) == S("Jh 9h")

    def test_trumps_led_cannot_beat_play_lower_trump(self, variant):
        assert legal("9h 7h Ac", "Jh", variant=variant) == S("9h 7h")
        assert legal("Kh Qh Ac Ad", "Ah 8s Jh", variant=variant) == S("Kh Qh")

    def test_trumps_led_no_trumps_anything(self, variant):
        assert legal("Ac Kd 7s", "Jh", variant=variant) == S("Ac Kd 7s")
        assert legal("Ac Kd 7s", "7h Ah", variant=variant) == S("Ac Kd 7s")

    def test_cannot_follow_no_trump_anything(self, variant):
        assert legal("Ad 8s 9s", "Ac", variant=variant) == S("Ad 8s 9s")
        assert legal("Ad 8s 9s", "Ac Jh", variant=variant) == S("Ad 8s 9s")

    def test_trump_suit_of_plain_lead_irrelevant(self, variant):
        # the same with spades as trumps
        assert legal("Js As Ac 7d", "9s", trump=Suit.SPADES, variant=variant) == S("Js")
        assert legal("7s Qs Kd", "Ac", trump=Suit.SPADES, variant=variant) == S("7s Qs")


# --------------------------------------------------------------------------------------
# Legality: Amsterdam, cannot follow a plain-suit lead
# --------------------------------------------------------------------------------------


class TestAmsterdam:
    def test_opponent_winning_must_trump(self):
        # second seat: the leader (an opponent) is winning with the Ac
        assert legal("7h Qh Kd 8s", "Ac") == S("7h Qh")

    def test_opponent_winning_must_trump_any_trump_fourth_seat(self):
        # fourth seat: partner played 7c (trick[-2]), an opponent wins with Ac
        assert legal("7h Jh Kd", "Kc 7c Ac") == S("7h Jh")

    def test_opponent_winning_must_overtrump(self):
        # third seat: partner led Ac, opponent trumped with Th: the Ah beats it (J 9 A T ...)
        assert legal("Ah Kh 8s 9d", "Ac Th") == S("Ah")

    def test_opponent_winning_must_overtrump_several(self):
        assert legal("Jh 9h Qh 8s", "Ac Th") == S("Jh 9h")

    def test_cannot_overtrump_must_discard_no_undertrump(self):
        assert legal("Kh 8s 9d", "Ac Th") == S("8s 9d")
        assert legal("Ah 9h 8s", "Ac Jh") == S("8s")

    def test_only_lower_trumps_may_undertrump(self):
        assert legal("Kh 7h", "Ac Th") == S("Kh 7h")
        assert legal("9h", "Ac Jh") == S("9h")

    def test_partner_trump_overtrumped_by_opponent(self):
        # fourth seat: partner (trick[-2]) trumped with 9h, opponent overtrumped with Jh
        assert legal("Ah 8s", "Ac 9h Jh") == S("8s")
        # partner trumped Th, opponent overtrumped with 9h: must beat the 9
        assert legal("Jh Ah 8s", "Ac Th 9h") == S("Jh")

    def test_partner_winning_plain_anything(self):
        # third seat: partner led the Ac and wins it
        assert legal("Jh 8s 9d", "Ac 7d") == S("Jh 8s 9d")
        # fourth seat: partner's Tc beats the leader's Kc, the last opponent discarded
        assert legal("Jh 7h 8s", "Kc Tc 7d") == S("Jh 7h 8s")

    def test_partner_winning_only_trumps_anything(self):
        assert legal("Jh 7h", "Ac 7d") == S("Jh 7h")

    def test_partner_winning_trump_no_undertrump(self):
        # fourth seat: partner trumped with 9h and wins; the Ah would undertrump it
        assert legal("Jh Ah 8s", "Kc 9h 7c") == S("Jh 8s")
        assert legal("Ah Kh 8s 7d", "Kc 9h 7c") == S("8s 7d")

    def test_partner_winning_trump_only_lower_trumps(self):
        assert legal("Ah 7h", "Kc 9h 7c") == S("Ah 7h")

    def test_partner_winning_trump_higher_trump_and_lower_trumps_only(self):
        # holding a higher trump, the lower ones are undertrumps and forbidden
        assert legal("Jh Ah 7h", "Kc 9h 7c") == S("Jh")

    def test_second_seat_is_never_partner_winning(self):
        # with one card in the trick the leader is an opponent
        assert legal("Jh 8s", "Ac") == S("Jh")


# --------------------------------------------------------------------------------------
# Legality: Rotterdam
# --------------------------------------------------------------------------------------


class TestRotterdam:
    def test_must_trump_even_over_partner(self):
        assert legal("7h Jh 8s", "Ac 7d", variant="rotterdam") == S("7h Jh")

    def test_must_overtrump_partner(self):
        assert legal("Jh Ah 8s", "Kc 9h 7c", variant="rotterdam") == S("Jh")

    def test_must_undertrump_partner(self):
        assert legal("Ah 8s", "Kc 9h 7c", variant="rotterdam") == S("Ah")

    def test_must_overtrump_opponent(self):
        assert legal("Ah Kh 8s", "Ac Th", variant="rotterdam") == S("Ah")

    def test_cannot_overtrump_must_undertrump(self):
        assert legal("Kh 8s 9d", "Ac Th", variant="rotterdam") == S("Kh")
        # the same position in Amsterdam forbids the undertrump
        assert legal("Kh 8s 9d", "Ac Th") == S("8s 9d")

    def test_no_trumps_anything(self):
        assert legal("8s 9d", "Ac Th", variant="rotterdam") == S("8s 9d")


# --------------------------------------------------------------------------------------
# Trick winner and card points
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "trick, trump, winner",
    [
        ("Ac Tc Kc 7c", H, 0),         # highest of the suit led
        ("Kc Tc Ac 7c", H, 2),
        ("Tc Kc Qc Jc", H, 0),         # plain order A T K Q J 9 8 7: ten beats king
        ("Jc 9c 8c 7c", H, 0),         # jack is just a plain card outside trumps
        ("7c Ad As Ah", Suit.CLUBS, 0),  # the led 7 is the only trump
        ("7c Ad As Ac", Suit.SPADES, 2),  # a trump wins
        ("Ac 7h Tc Jc", H, 1),         # the lowest trump beats the plain ace
        ("Ac 7h 8h Tc", H, 2),
        ("Ah 9h Th Kh", H, 1),         # trump order J 9 A T K Q 8 7
        ("9h Ah Jh Th", H, 2),
        ("Qh Kh 8h 7h", H, 1),
        ("7d Ad", H, 1),               # partial tricks too
        ("7d", H, 0),
        ("8d Ac 9s Ks", H, 0),         # nobody followed or trumped: the leader wins
    ],
)
def test_trick_winner(trick, trump, winner):
    assert ref.reference_winner(cards(trick), trump) == winner
    assert kr.trick_winner(cards(trick), trump) == winner


def test_trick_winner_empty_trick():
    with pytest.raises(InvalidStateError):
        kr.trick_winner([], H)


@pytest.mark.parametrize("trump", list(Suit))
def test_card_points_tables(trump):
    trump_pts = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
    plain_pts = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    total = 0
    for card in Decks.piquet():
        expected = trump_pts[card.rank.char] if card.suit == trump else plain_pts[card.rank.char]
        assert kr.card_points(card, trump) == expected == ref.points_of(card, trump), card
        total += expected
    assert total == 152 == kr.TOTAL_CARD_POINTS
    assert kr.LAST_TRICK_BONUS == 10


def test_card_order_data():
    assert kr.TRUMP_ORDER == "J9ATKQ87"
    assert kr.PLAIN_ORDER == "ATKQJ987"


# --------------------------------------------------------------------------------------
# Roem
# --------------------------------------------------------------------------------------

ROEM_CASES = [
    # runs of 3 and 4 in one suit, natural order 7 8 9 T J Q K A
    ("7c 8c 9c Ad", H, 20),
    ("9c Tc Jc Ad", H, 20),
    ("Qs Ks As 7d", H, 20),
    ("7c 8c 9c Tc", H, 50),
    ("Jd Qd Kd Ad", H, 50),
    ("7c 8c Tc Jc", H, 0),          # gap
    ("Ac 7c 8c 9d", H, 0),          # no wrap-around: A is not below 7
    ("Kc Ac 7c 8d", H, 0),
    ("7c 8c 9d Td", H, 0),          # two suits
    ("7c 9c 8c Ad", H, 20),         # play order does not matter
    # runs in trumps use the natural order too: 9-T-J is a run, J-9-A is not
    ("9h Th Jh 7c", H, 20),
    ("Jh 9h Ah 7c", H, 0),
    ("8h 9h Th Jh", H, 50),
    # four of a kind
    ("Jc Jd Jh Js", H, 200),
    ("Ac Ad Ah As", H, 100),
    ("Tc Td Th Ts", H, 100),
    ("Kc Kd Kh Ks", Suit.CLUBS, 100),   # no stuk: the queen of trumps is missing
    ("Qc Qd Qh Qs", H, 100),
    ("7c 7d 7h 7s", H, 0),
    ("8c 8d 8h 8s", H, 0),
    ("9c 9d 9h 9s", H, 0),
    # stuk: K and Q of trumps in one trick
    ("Kh Qh 7c 9d", H, 20),
    ("Kh 7c Qh 9d", H, 20),
    ("Kc Qc 7h 9d", H, 0),          # K and Q of a plain suit are nothing
    ("Qh Kh Jh 7c", H, 40),         # Q-K-J of trumps: run 20 + stuk 20
    ("Qh Kh Ah 7c", H, 40),
    ("Th Jh Qh Kh", H, 70),         # run of 4 with stuk
    ("Jh Qh Kh Ah", H, 70),
    ("Kh Qh Ks Qs", Suit.SPADES, 20),  # only the trump pair counts
    ("Ks Qs Kh Qh", H, 20),
    ("Ad Kd Qd Js", Suit.DIAMONDS, 40),
    ("Ad 9d 8c 7s", H, 0),
]


@pytest.mark.parametrize("trick, trump, roem", ROEM_CASES)
def test_trick_roem(trick, trump, roem):
    assert ref.reference_trick_roem(cards(trick), trump) == roem
    assert kr.trick_roem(cards(trick), trump) == roem


@pytest.mark.parametrize("trick, trump, roem", ROEM_CASES)
def test_trick_roem_without_stuk(trick, trump, roem):
    c = cards(trick)
    has_stuk = Card("K" + trump.char) in c and Card("Q" + trump.char) in c
    expected = roem - 20 if has_stuk else roem
    assert ref.reference_trick_roem(c, trump, stuk=False) == expected
    assert kr.trick_roem(c, trump, stuk=False) == expected


def test_roem_table_constants():
    assert kr.RUN_ROEM == {3: 20, 4: 50}
    assert kr.STUK_ROEM == 20
    assert kr.FOUR_OF_A_KIND_ROEM["J"] == 200


@settings(max_examples=300)
@given(st.lists(st.sampled_from(Decks.piquet().cards()), min_size=4, max_size=4, unique=True),
       st.sampled_from(list(Suit)), st.booleans())
def test_trick_roem_matches_reference(trick, trump, stuk):
    assert kr.trick_roem(trick, trump, stuk=stuk) == ref.reference_trick_roem(trick, trump, stuk=stuk)
    assert kr.trick_winner(trick, trump) == ref.reference_winner(trick, trump)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(Decks.piquet().cards()), min_size=1, max_size=12, unique=True),
       st.integers(0, 3), st.sampled_from(list(Suit)), st.sampled_from(["amsterdam", "rotterdam"]))
def test_legal_cards_match_reference(cards_, trick_len, trump, variant):
    trick_len = min(trick_len, len(cards_) - 1)
    trick, hand = cards_[:trick_len], cards_[trick_len:]
    got = kr.legal_cards(hand, trick, trump, rules=Rules.named(variant))
    assert got, "a non-empty hand always has a legal card"
    assert set(got) == ref.reference_legal(hand, trick, trump, variant)


# --------------------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------------------


def test_seats_and_teams():
    assert kr.SEATS == ("N", "E", "S", "W")
    assert [kr.team_of(s) for s in "NESW"] == [0, 1, 0, 1]
    assert [kr.partner(s) for s in "NESW"] == [2, 3, 0, 1]
    assert kr.seat_index("w") == 3 and kr.seat_name(1) == "E"
    for bad in ("X", 4, -1, True, None, ""):
        with pytest.raises(NotationError):
            kr.seat_index(bad)


# --------------------------------------------------------------------------------------
# Rules presets and options
# --------------------------------------------------------------------------------------


def test_rules_presets_and_defaults():
    a, r = Rules.AMSTERDAM, Rules.ROTTERDAM
    assert a.variant == "amsterdam" and r.variant == "rotterdam"
    assert Rules() == a
    for preset in (a, r):
        assert preset.stuk == "trick"
        assert preset.pit == 100
        assert preset.tie_is_nat is True
        assert preset.forced == "forehand"
    assert r == a.with_options(variant="rotterdam")
    assert str(a) == "amsterdam" and str(r) == "rotterdam"
    assert a.to_dict() == {"variant": "amsterdam", "stuk": "trick", "pit": 100,
                           "tie_is_nat": True, "forced": "forehand"}


@pytest.mark.parametrize("name, variant", [("amsterdam", "amsterdam"), ("Rotterdam", "rotterdam"),
                                           (" ROTTERDAM ", "rotterdam"), ("AMSTERDAM", "amsterdam")])
def test_rules_named(name, variant):
    assert Rules.named(name).variant == variant
    assert Rules.named(Rules.ROTTERDAM) is Rules.ROTTERDAM


@pytest.mark.parametrize("name", ["utrecht", "", "amsterdamx", "rot"])
def test_rules_named_unknown(name):
    with pytest.raises(InvalidStateError, match="unknown rules"):
        Rules.named(name)


def test_rules_with_options():
    r = Rules.AMSTERDAM.with_options(stuk="off", pit=50, tie_is_nat=False, forced="dealer")
    assert (r.variant, r.stuk, r.pit, r.tie_is_nat, r.forced) == ("amsterdam", "off", 50, False, "dealer")
    assert Rules.AMSTERDAM.stuk == "trick"  # frozen preset unchanged
    assert "stuk=off" in str(r)
    with pytest.raises(AttributeError):
        Rules.AMSTERDAM.pit = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "utrecht"},
        {"stuk": "always"},
        {"stuk": True},
        {"forced": "anyone"},
        {"pit": -1},
        {"pit": 1.5},
        {"pit": True},
        {"pit": "100"},
        {"tie_is_nat": 1},
        {"tie_is_nat": "yes"},
    ],
)
def test_rules_bad_options(options):
    with pytest.raises(InvalidStateError):
        Rules(**options)
    with pytest.raises(InvalidStateError):
        Rules.AMSTERDAM.with_options(**options)


def test_rules_unknown_option():
    with pytest.raises(InvalidStateError, match="unknown rules option"):
        Rules.AMSTERDAM.with_options(colour="red")


def test_playstate_rules_by_name():
    d = Deal.random(seed=5)
    assert PlayState(d, "h", "N", "E", rules="rotterdam").rules == Rules.ROTTERDAM
    with pytest.raises(InvalidStateError):
        PlayState(d, "h", "N", "E", rules="utrecht")


# --------------------------------------------------------------------------------------
# Illegal-move messages (hand-built positions, played through PlayState)
# --------------------------------------------------------------------------------------

# trump hearts, N leads; N holds all the clubs.
DEAL_UNDERTRUMP = Deal.from_hands(
    "Ac Kc Qc Jc Tc 9c 8c 7c",
    "Jh 7h Ad Kd Qd Jd Td 9d",
    "Ah 8h As Ks Qs Js Ts 9s",
    "Kh 9h Th Qh 8d 7d 8s 7s",
)
DEAL_OVERTRUMP = Deal.from_hands(
    "Ac Kc Qc Jc Tc 9c 8c 7c",
    "8h 7h Ad Kd Qd Jd Td 9d",
    "Ah Kh As Ks Qs Js Ts 9s",
    "Jh 9h Th Qh 8d 7d 8s 7s",
)


def start(deal, variant="amsterdam", leader="N"):
    return PlayState(deal, trump="h", declarer="N", leader=leader, rules=variant)


def check_illegal(state, card, reason):
    seat = state.to_move
    with pytest.raises(IllegalActionError) as info:
        state.play(card)
    msg = str(info.value)
    assert card in msg, msg
    assert seat in msg, msg
    assert reason in msg, msg
    return msg


def test_message_must_follow_suit():
    st0 = start(DEAL_UNDERTRUMP, leader="E").play("Ad")
    # S has no diamonds; W holds 8d 7d and must follow
    assert set(map(str, st0.legal_cards())) == S("Ah 8h")  # S must trump
    st1 = st0.play("8h")
    msg = check_illegal(st1, "8s", "must follow suit")
    assert "diamonds" in msg
    assert st1.to_move == "W"


def test_message_must_play_a_trump():
    st0 = start(DEAL_UNDERTRUMP).play("Ac")
    assert st0.to_move == "E"
    assert set(map(str, st0.legal_cards())) == S("Jh 7h")
    msg = check_illegal(st0, "Ad", "must play a trump")
    assert msg.startswith("E may not play Ad")


def test_message_must_overtrump():
    st0 = start(DEAL_OVERTRUMP).play_all("Ac 8h")
    assert st0.to_move == "S"
    assert set(map(str, st0.legal_cards())) == S("Ah Kh")
    check_illegal(st0, "As", "must overtrump")
    st1 = st0.play("Kh")
    assert st1.to_move == "W"
    assert set(map(str, st1.legal_cards())) == S("Jh 9h Th")  # the ten beats the king
    check_illegal(st1, "Qh", "must overtrump")
    check_illegal(st1, "8d", "must overtrump")


def test_message_may_not_undertrump_opponent():
    st0 = start(DEAL_UNDERTRUMP).play_all("Ac Jh")
    assert st0.to_move == "S"
    assert set(map(str, st0.legal_cards())) == S("As Ks Qs Js Ts 9s")
    check_illegal(st0, "8h", "may not undertrump")
    check_illegal(st0, "Ah", "may not undertrump")


def test_message_may_not_undertrump_partner():
    st0 = start(DEAL_UNDERTRUMP).play_all("Ac Jh 9s")
    assert st0.to_move == "W"
    assert set(map(str, st0.legal_cards())) == S("8d 7d 8s 7s")
    check_illegal(st0, "Kh", "may not undertrump")


def test_rotterdam_must_undertrump_partner():
    st0 = start(DEAL_UNDERTRUMP, "rotterdam").play_all("Ac Jh")
    # S: an opponent trumped with the jack; Rotterdam: S must undertrump
    assert set(map(str, st0.legal_cards())) == S("Ah 8h")
    check_illegal(st0, "As", "must play a trump")
    st1 = st0.play("8h")
    assert set(map(str, st1.legal_cards())) == S("Kh 9h Th Qh")
    check_illegal(st1, "8d", "must play a trump")


def test_message_card_not_in_hand():
    st0 = start(DEAL_UNDERTRUMP)
    check_illegal(st0, "Ah", "not in the hand")


def test_message_trumps_led_must_overtrump():
    st0 = start(DEAL_OVERTRUMP, leader="S").play("Kh")
    assert st0.to_move == "W"
    assert set(map(str, st0.legal_cards())) == S("Jh 9h Th")  # the ten beats the king
    check_illegal(st0, "Qh", "must overtrump")
    check_illegal(st0, "8s", "must follow suit (hearts)")


def test_illegal_reason_function():
    h = cards("Ah Kh 8s 9d")
    assert kr.illegal_reason(Card("Ah"), h, cards("Ac Th"), H) is None
    assert kr.illegal_reason(Card("Kh"), h, cards("Ac Th"), H) == "must overtrump"
    assert kr.illegal_reason(Card("7d"), h, cards("Ac Th"), H) == "the card is not in the hand"
    assert kr.illegal_reason(Card("8s"), cards("8s 7c"), cards("Ac"), H) == "must follow suit (clubs)"


def test_play_is_pure_and_play_after_end():
    st0 = start(DEAL_UNDERTRUMP)
    st1 = st0.play("Ac")
    assert st0.trick == () and st1.trick == (Card("Ac"),)
    assert len(st0.hand("N")) == 8 and len(st1.hand("N")) == 7
    with pytest.raises(AttributeError):
        st0.leader = 2  # type: ignore[misc]
    final = st0
    while not final.is_over:
        final = final.play(final.legal_cards()[0])
    assert final.legal_cards() == []
    with pytest.raises(IllegalActionError):
        final.play("Ac")
    with pytest.raises(InvalidStateError):
        final.to_move  # noqa: B018
    with pytest.raises(InvalidStateError):
        st1.result()


# --------------------------------------------------------------------------------------
# Deals: PBN, random, daily
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("first", ["N", "E", "S", "W", "n", 2])
def test_pbn_round_trip_every_seat(seed, first):
    d = Deal.random(seed=seed)
    text = d.pbn(first)
    assert text[0] == kr.seat_name(first)
    assert Deal.parse(text) == d
    assert Deal.parse(text.lower()) == d
    assert Deal.parse("  " + text + "\n") == d
    assert Deal.parse(repr(d)[len("Deal.parse('"):-2]) == d


def test_pbn_layout():
    d = Deal.from_hands(
        "As Ks Qs Js Ts 9s 8s 7s",
        "Ah Kh Qh Jh Th 9h 8h 7h",
        "Ad Kd Qd Jd Td 9d 8d 7d",
        "Ac Kc Qc Jc Tc 9c 8c 7c",
    )
    assert d.pbn() == "N:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987"
    assert d.pbn("W") == "W:...AKQJT987 AKQJT987... .AKQJT987.. ..AKQJT987."
    assert Deal.parse("E:.AKQJT987.. ..AKQJT987. ...AKQJT987 AKQJT987...") == d
    assert str(d) == d.pbn()
    assert d.seat_of("Tc") == "W"
    assert d.hand("S") == CardSet("Ad Kd Qd Jd Td 9d 8d 7d")


def test_deal_union_is_the_deck():
    for seed in range(10):
        d = Deal.random(seed=seed)
        union = CardSet()
        for h in d.hands:
            assert len(h) == 8
            union = union | h
        assert union == Decks.piquet()


GOOD = "N:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987"


@pytest.mark.parametrize(
    "text, error, fragment",
    [
        ("AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987", NotationError, "seat"),
        ("X:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987", NotationError, "X:AKQ"),
        ("", NotationError, "''"),
        ("N:AKQJT987... .AKQJT987.. ..AKQJT987.", NotationError, "got 3"),
        (GOOD + " ...", NotationError, "got 5"),
        ("N:AKQJT987.. .AKQJT987.. ..AKQJT987. ...AKQJT987", NotationError, "AKQJT987.."),
        ("N:AKQJT98X... .AKQJT987.. ..AKQJT987. ...AKQJT987", NotationError, "'X'"),
        ("N:AKQJT986... .AKQJT987.. ..AKQJT987. ...AKQJT987", NotationError, "'6'"),
        ("N:AKQJ1T98... .AKQJT987.. ..AKQJT987. ...AKQJT987", NotationError, "'1'"),
        ("N:AKQJT9877... .AKQJT98.. ..AKQJT987. ...AKQJT987", NotationError, "AKQJT9877"),  # dup
        ("N:AKQJT98... .AKQJT9877.. ..AKQJT987. ...AKQJT987", NotationError, "AKQJT9877"),
        ("N:AKQJT987.7.. .AKQJT98.. ..AKQJT987. ...AKQJT987", InvalidStateError, "N has 9 cards"),
        ("N:AKQJT98... .AKQJT987.. ..AKQJT987. ...AKQJT987", InvalidStateError, "N has 7 cards"),
        ("N:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT98", InvalidStateError, "W has 7 cards"),
        ("N:AKQJT987... .AKQJT987.. ..AKQJT987. ..7.AKQJT98", InvalidStateError, "dealt twice"),
        ("N:AKQJT987... AKQJT987... ..AKQJT987. ...AKQJT987", InvalidStateError, "dealt twice"),
    ],
)
def test_pbn_parse_errors(text, error, fragment):
    with pytest.raises(error) as info:
        Deal.parse(text)
    assert fragment in str(info.value), str(info.value)


@pytest.mark.parametrize("value", [None, 42, b"N:", ["N:"]])
def test_pbn_parse_not_text(value):
    with pytest.raises(NotationError):
        Deal.parse(value)  # type: ignore[arg-type]


def test_deal_from_hands_errors():
    with pytest.raises(InvalidStateError, match="not 8"):
        Deal.from_hands("As Ks", "Ah Kh Qh Jh Th 9h 8h 7h", "Ad Kd Qd Jd Td 9d 8d 7d", "Ac Kc Qc Jc Tc 9c 8c 7c")
    with pytest.raises(InvalidStateError, match="32-card deck"):
        Deal.from_hands("As Ks Qs Js Ts 9s 8s 2s", "Ah Kh Qh Jh Th 9h 8h 7h",
                        "Ad Kd Qd Jd Td 9d 8d 7d", "Ac Kc Qc Jc Tc 9c 8c 7c")
    with pytest.raises(InvalidStateError, match="twice"):
        Deal.from_hands("As Ks Qs Js Ts 9s 8s 7s", "As Kh Qh Jh Th 9h 8h 7h",
                        "Ad Kd Qd Jd Td 9d 8d 7d", "Ac Kc Qc Jc Tc 9c 8c 7c")
    with pytest.raises(InvalidStateError, match="4 hands"):
        Deal(("As Ks Qs Js Ts 9s 8s 7s",))  # type: ignore[arg-type]


def test_seat_of_missing_card():
    with pytest.raises(InvalidStateError, match="not in the deal"):
        Deal.random(seed=1).seat_of("2c")


def test_random_deal_determinism():
    for seed in (0, 1, 12345, 2**40, "abc"):
        assert Deal.random(seed=seed) == Deal.random(seed=seed)
    deals = {Deal.random(seed=s).pbn() for s in range(50)}
    assert len(deals) == 50
    assert Deal.random(seed="abc") != Deal.random(seed="abd")
    for bad in (True, 1.5, [1]):
        with pytest.raises(InvalidStateError):
            Deal.random(seed=bad)  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=2**64))
def test_random_deal_is_valid(seed):
    d = Deal.random(seed=seed)
    assert Deal.parse(d.pbn()) == d
    assert hash(Deal.parse(d.pbn("S"))) == hash(d)


def test_daily_determinism_and_distinct():
    date = dt.date(2026, 11, 29)
    deals = [Deal.daily(date, n) for n in range(1, 17)]
    assert deals == [Deal.daily("2026-11-29", n) for n in range(1, 17)]
    assert len(set(deals)) == 16
    other = [Deal.daily("2026-11-30", n) for n in range(1, 17)]
    assert not set(deals) & set(other)
    assert Deal.daily(dt.date(2024, 2, 29), 16) == Deal.daily("2024-02-29", 16)


@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2200, 12, 31)))
@settings(max_examples=30)
def test_daily_sixteen_deals_differ(date):
    deals = [Deal.daily(date, n) for n in range(1, 17)]
    assert len(set(deals)) == 16
    assert deals[0] == Deal.daily(date.isoformat(), 1)


@pytest.mark.parametrize("hand_no", [0, 17, -1, True, 1.0, "1", None])
def test_daily_bad_hand_number(hand_no):
    with pytest.raises(InvalidStateError, match="1..16"):
        Deal.daily("2026-01-01", hand_no)  # type: ignore[arg-type]


@pytest.mark.parametrize("date", ["2026-13-01", "yesterday", "", "2026/01/01", 20260101, None])
def test_daily_bad_date(date):
    with pytest.raises(NotationError):
        Deal.daily(date, 1)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# Fuzz: Deal.parse on arbitrary text raises only QuartetError subclasses
# --------------------------------------------------------------------------------------

PBN_ALPHABET = "NESWnesw:.AKQJT98765432akqjtx10 \t\n♠♥"


def _parse_or_quartet_error(text):
    try:
        d = Deal.parse(text)
    except QuartetError:
        return None
    assert Deal.parse(d.pbn()) == d
    return d


@given(st.text())
@settings(max_examples=300)
def test_fuzz_deal_parse_arbitrary_text(text):
    _parse_or_quartet_error(text)


@given(st.text(alphabet=PBN_ALPHABET, max_size=80))
@settings(max_examples=300)
def test_fuzz_deal_parse_pbn_like_text(text):
    _parse_or_quartet_error(text)


@given(st.integers(0, 2**32), st.sampled_from("NESW"), st.data())
@settings(max_examples=200)
def test_fuzz_deal_parse_mutated_pbn(seed, first, data):
    text = Deal.random(seed=seed).pbn(first)
    i = data.draw(st.integers(0, len(text) - 1))
    op = data.draw(st.sampled_from(["delete", "insert", "replace", "swap"]))
    ch = data.draw(st.sampled_from(PBN_ALPHABET))
    if op == "delete":
        mutated = text[:i] + text[i + 1:]
    elif op == "insert":
        mutated = text[:i] + ch + text[i:]
    elif op == "replace":
        mutated = text[:i] + ch + text[i + 1:]
    else:
        j = data.draw(st.integers(0, len(text) - 1))
        chars = list(text)
        chars[i], chars[j] = chars[j], chars[i]
        mutated = "".join(chars)
    _parse_or_quartet_error(mutated)


def test_daily_datetime_uses_the_calendar_date():
    morning = dt.datetime(2026, 11, 29, 9, 0)
    evening = dt.datetime(2026, 11, 29, 21, 30)
    assert Deal.daily(morning, 1) == Deal.daily(evening, 1) == Deal.daily(dt.date(2026, 11, 29), 1)


def test_message_rotterdam_must_overtrump():
    st0 = start(DEAL_OVERTRUMP, "rotterdam").play_all("Ac 8h")
    assert set(map(str, st0.legal_cards())) == S("Ah Kh")
    check_illegal(st0, "As", "must overtrump")
    # W: the opponent S overtrumped W's partner with the Kh; W must beat it
    st1 = st0.play("Kh")
    assert set(map(str, st1.legal_cards())) == S("Jh 9h Th")
    check_illegal(st1, "8d", "must overtrump")
    check_illegal(st1, "Qh", "must overtrump")


def test_legal_cards_and_trick_roem_take_card_text_and_refuse_nonsense():
    """Card text is parsed (once: a string was taken as its characters, so
    legal_cards("7c 8c", ...) answered ['7', 'c', ' ', '8', 'c']); anything
    that is not cards, a card twice, a card both in the hand and the trick, a
    complete trick and a trick of more than 4 cards are refused."""
    hand, trick = "7h Jh 8c 9d", "Ac 7s"
    assert kr.legal_cards(hand, trick, Suit.HEARTS) == kr.legal_cards(cards(hand), cards(trick), Suit.HEARTS)
    assert kr.legal_cards(hand, "", Suit.HEARTS) == cards(hand)
    assert kr.trick_roem("Qd Kd Jd", Suit.DIAMONDS) == kr.trick_roem(cards("Qd Kd Jd"), Suit.DIAMONDS) == 40
    with pytest.raises(NotationError, match="card 'x' needs a rank and a suit"):
        kr.legal_cards(["x"], [], Suit.HEARTS)  # type: ignore[list-item]
    with pytest.raises(NotationError, match="must be card text or an iterable of cards"):
        kr.legal_cards(cards(hand), 5, Suit.HEARTS)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="duplicate card '7h' in hand"):
        kr.legal_cards("7h 7h", "Ac", Suit.HEARTS)
    with pytest.raises(InvalidStateError, match="7h is both in the hand and in the trick"):
        kr.legal_cards("7h 8c", "Ac 7h", Suit.HEARTS)
    with pytest.raises(InvalidStateError, match="is complete"):
        kr.legal_cards("7h", "Ac Kc Qc Jc", Suit.HEARTS)
    with pytest.raises(InvalidStateError, match="at most 4 cards, got 5"):
        kr.trick_roem("7c 8c 9c Tc Jc", Suit.HEARTS)
    with pytest.raises(NotationError, match="duplicate card '7c' in trick"):
        kr.trick_roem(cards("7c 7c 9c"), Suit.HEARTS)


def test_trump_given_as_text_or_out_of_range():
    """The trump suit as text is parsed (once: "h" matched no card, so every card
    was plain and legal_cards('7h 8c', '7s', 'h') let a player who must trump
    discard 8c, and card_points(Jh, 'h') was 2, not 20); a suit value that is no
    suit is refused (7 made every card plain, silently)."""
    assert kr.legal_cards("7h 8c", "7s", "h") == kr.legal_cards("7h 8c", "7s", H) == [Card("7h")]
    assert kr.legal_cards("7h 8c", "7s", 2) == [Card("7h")]  # a suit's value, as before
    assert kr.card_points(Card("Jh"), "h") == 20 and kr.card_points(Card("Jh"), "♥") == 20
    assert kr.card_power(Card("7h"), "h", "c") == 101
    assert kr.trick_winner(cards("Ac 7h"), "h") == 1
    assert kr.trick_roem("Kh Qh", "h") == 20
    assert kr.illegal_reason(Card("8c"), cards("7h 8c"), cards("7s"), "h") == "must play a trump"
    for bad in (7, -1, "x", None, True, 2.0):
        with pytest.raises(NotationError, match=f"trump must be a Suit, c/d/h/s or 0..3, got {bad!r}"):
            kr.legal_cards("7h 8c", "7s", bad)  # type: ignore[arg-type]
        with pytest.raises(NotationError, match="trump must be"):
            kr.card_points(Card("Jh"), bad)  # type: ignore[arg-type]
        with pytest.raises(NotationError, match="trump must be"):
            kr.trick_roem("Kh Qh", bad)  # type: ignore[arg-type]


def test_rules_functions_take_card_text_and_rules_names():
    """legal_cards() takes a preset name as it takes Rules (once: a bare
    AttributeError); trick_winner(), card_points() and illegal_reason() take card
    text (once: an AttributeError, and illegal_reason('Jh', 'Jh 7c', '', ...) found
    'Jh' as a substring and then hit an IndexError)."""
    assert kr.legal_cards("7h 9h 8c", "7s Ts", H, rules="rotterdam") == kr.legal_cards("7h 9h 8c", "7s Ts", H,
                                                                                 rules=Rules.ROTTERDAM)
    with pytest.raises(InvalidStateError, match="unknown rules 'utrecht'"):
        kr.legal_cards("7h", "", H, rules="utrecht")
    with pytest.raises(InvalidStateError, match="rules must be a Rules or a preset name, got 5"):
        kr.legal_cards("7h", "", H, rules=5)  # type: ignore[arg-type]
    assert kr.trick_winner("Ac Tc 7h", H) == 2
    assert kr.card_points("Jh", H) == 20
    assert kr.illegal_reason("Jh", "Jh 7c", "", H) is None
    with pytest.raises(NotationError, match="card 'h' needs a rank and a suit"):
        kr.illegal_reason("h", "Jh 7c", "", H)  # parsed, not found as a substring
    assert kr.illegal_reason("7c", "Jh 7c", "Ah", H) == "must follow suit (hearts)"
    with pytest.raises(InvalidStateError, match="at most 4 cards"):
        kr.trick_winner("7c 8c 9c Tc Jc", H)


def test_numpy_integers_where_ints_are_taken():
    """Seats, seeds, hand numbers and the pit amount take numpy integers (once
    refused: 'unknown seat np.int64(1)', 'seed must be an int', ...)."""
    np = pytest.importorskip("numpy")
    assert kr.seat_index(np.int64(1)) == 1 and type(kr.seat_index(np.int64(1))) is int
    d = Deal.random(seed=5)
    assert PlayState(d, "h", np.int64(0), np.int8(1)) == PlayState(d, "h", "N", "E")
    assert Deal.random(np.int64(5)) == d
    assert Deal.daily("2026-11-29", np.int64(3)) == Deal.daily("2026-11-29", 3)
    rules = Rules(pit=np.int64(50))
    assert rules == Rules(pit=50) and type(rules.pit) is int
    with pytest.raises(NotationError, match="seat index must be 0..3"):
        kr.seat_index(np.int64(4))


@pytest.mark.parametrize("hands", [5, None, 1.5])
def test_deal_of_no_hands(hands):
    """Deal(hands) that is not four hands raises InvalidStateError (once: a bare TypeError)."""
    with pytest.raises(InvalidStateError, match="a Klaverjas deal has 4 hands"):
        Deal(hands)  # type: ignore[arg-type]
    d = Deal.random(seed=2)
    assert Deal(list(d.hands)) == Deal(iter(d.hands)) == d  # type: ignore[arg-type]


def test_cards_outside_the_32_card_deck_are_refused():
    from quartet_solver.klaverjas import rules as r
    for call in (lambda: r.card_points("2c", "h"), lambda: r.trick_winner("2c 3c", "h"),
                 lambda: r.card_power("2c", "h", "c"), lambda: r.legal_cards("2h Ah", "3h", "h"),
                 lambda: r.illegal_reason("2h", "2h Ah", "7c", "h"), lambda: r.trick_roem("2c 3c 4c", "h")):
        with pytest.raises(InvalidStateError, match="not in the 32-card Klaverjas deck"):
            call()
