"""Klaverjas play and scoring: hand-built scoring cases (nat, pit, stuk options, the 162
total) and a random-playout conformance test against ``tests/reference/klaverjas_rules.py``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import klaverjas_rules as ref
from quartet_solver.cards import Card, Decks, Suit
from quartet_solver.errors import IllegalActionError, NotationError
from quartet_solver.klaverjas import Deal, HandResult, PlayState, Rules, Trick

H = Suit.HEARTS
VARIANTS = ["amsterdam", "rotterdam"]
STUKS = ["trick", "hand", "off"]


def play_first_legal(state: PlayState) -> PlayState:
    while not state.is_over:
        state = state.play(state.legal_cards()[0])
    return state


def reference_result(state: PlayState) -> dict:
    played = [c for _, c in state.history]
    r = state.rules
    return ref.reference_hand_score(played, state.leader, state.trump, state.declarer,
                                    stuk=r.stuk, pit=r.pit, tie_is_nat=r.tie_is_nat)


def assert_matches_reference(state: PlayState) -> HandResult:
    res = state.result()
    exp = reference_result(state)
    assert res.points == exp["points"] == state.points
    assert res.roem == exp["roem"] == state.roem
    assert res.pit == exp["pit"]
    assert res.nat == exp["nat"]
    assert res.scores == exp["scores"] == state.scores()
    assert res.playing_team == exp["playing_team"] == state.playing_team
    assert [t.winner for t in state.tricks] == exp["winners"]
    return res


# --------------------------------------------------------------------------------------
# Pit: all eight tricks
# --------------------------------------------------------------------------------------

# Trumps hearts, N leads and holds every heart: N/S take all eight tricks. No roem can
# arise: E holds only A K Q J and S only T 9 8 7 (of spades and diamonds), W only clubs,
# and N plays the Kh and Qh in different tricks.
DEAL_PIT = Deal.from_hands(
    "Jh 9h Ah Th Kh Qh 8h 7h",
    "As Ks Qs Js Ad Kd Qd Jd",
    "Ts 9s 8s 7s Td 9d 8d 7d",
    "Ac Kc Qc Jc Tc 9c 8c 7c",
)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("declarer", ["N", "S"])
def test_pit_for_the_playing_team(variant, declarer):
    final = play_first_legal(PlayState(DEAL_PIT, "h", declarer, "N", rules=variant))
    assert all(t.winner % 2 == 0 for t in final.tricks)
    res = assert_matches_reference(final)
    assert res.points == (162, 0)
    assert res.roem == (0, 0)
    assert res.pit == (100, 0)
    assert res.nat is False
    assert res.scores == (262, 0)
    assert res.net == 262
    assert res.playing_team == 0


@pytest.mark.parametrize("declarer", ["E", "W"])
def test_pit_for_the_defenders(declarer):
    """Defenders taking all eight tricks get the pit; the playing team is nat."""
    final = play_first_legal(PlayState(DEAL_PIT, "h", declarer, "N"))
    res = assert_matches_reference(final)
    assert res.playing_team == 1
    assert res.points == (162, 0)
    assert res.pit == (100, 0)
    assert res.nat is True
    assert res.scores == (262, 0)
    assert res.net == -262
    assert res.to_dict()["playing_team"] == "EW"


@pytest.mark.parametrize("amount", [0, 50, 100, 250])
def test_pit_amount_option(amount):
    rules = Rules.AMSTERDAM.with_options(pit=amount)
    res = assert_matches_reference(play_first_legal(PlayState(DEAL_PIT, "h", "N", "N", rules=rules)))
    assert res.pit == (amount, 0)
    assert res.scores == (162 + amount, 0)
    res = assert_matches_reference(play_first_legal(PlayState(DEAL_PIT, "h", "E", "N", rules=rules)))
    assert res.nat is True
    assert res.scores == (162 + amount, 0)


@pytest.mark.parametrize("stuk, roem", [("trick", 0), ("hand", 20), ("off", 0)])
def test_pit_with_stuk_options(stuk, roem):
    """N held Kh and Qh and played them in different tricks: only stuk "hand" scores it."""
    rules = Rules.AMSTERDAM.with_options(stuk=stuk)
    res = assert_matches_reference(play_first_legal(PlayState(DEAL_PIT, "h", "N", "N", rules=rules)))
    assert res.roem == (roem, 0)
    assert res.points == (162 + roem, 0)
    assert res.scores == (262 + roem, 0)


# --------------------------------------------------------------------------------------
# Nat on a tie
# --------------------------------------------------------------------------------------

# Found by a random playout (seed 122): 81 - 81, no roem under any stuk option
# (Kh and Qh are held by different players and fall in different tricks).
TIE_DEAL = "N:T..J7.QJT87 A.AK98.AK.9 87.QJT.Q8.A KQJ9.7.T9.K"
TIE_PLAY = ("Tc 9c Ac Kc Qh 7h Ts Ah As 7s 9s 8c Kh Th Ks Jd Qd 9d 7d Ad "
            "9h Jh Js 7c 8s Qs Qc Kd Td Jc 8h 8d")


@pytest.mark.parametrize("stuk", STUKS)
@pytest.mark.parametrize("declarer", ["N", "E", "S", "W"])
def test_tie_is_nat(stuk, declarer):
    rules = Rules.AMSTERDAM.with_options(stuk=stuk)
    final = PlayState(TIE_DEAL, "h", declarer, "N", rules=rules).play_all(TIE_PLAY)
    assert final.is_over
    res = assert_matches_reference(final)
    assert res.points == (81, 81)
    assert res.roem == (0, 0)
    assert res.pit == (0, 0)
    assert res.nat is True
    playing = "NESW".index(declarer) % 2
    expected = [0, 0]
    expected[1 - playing] = 162
    assert res.scores == tuple(expected)
    assert res.net == -162


@pytest.mark.parametrize("declarer", ["N", "E"])
def test_tie_not_nat_when_option_off(declarer):
    rules = Rules.AMSTERDAM.with_options(tie_is_nat=False)
    final = PlayState(TIE_DEAL, "h", declarer, "N", rules=rules).play_all(TIE_PLAY)
    res = assert_matches_reference(final)
    assert res.nat is False
    assert res.scores == (81, 81)
    assert res.net == 0


# --------------------------------------------------------------------------------------
# Stuk options
# --------------------------------------------------------------------------------------

# N leads Kh; E holds only the Qh as trump (must play it); S must beat the K with the Jh;
# W cannot beat the jack and plays the 7h. The trick Kh Qh Jh 7h: run J-Q-K = 20, and
# K + Q of trumps from two different players in one trick.
DEAL_STUK_TRICK = Deal.from_hands(
    "Kh Ac Kc Qc Jc Tc 9c 8c",
    "Qh Ad Kd Qd Jd Td 9d 8d",
    "Jh As Ks Qs Js Ts 9s 8s",
    "7h Ah Th 9h 8h 7c 7d 7s",
)
# N holds Kh and Qh and plays them into two tricks won by E/W.
DEAL_STUK_HAND = Deal.from_hands(
    "Kh Qh Ac Kc Qc Jc Tc 9c",
    "Jh 9h Ad Kd Qd Jd Td 9d",
    "As Ks Qs Js Ts 9s 8s 7s",
    "Ah Th 8h 7h 8c 7c 8d 7d",
)


def _stuk_play(deal, opening, stuk, variant):
    rules = Rules.named(variant).with_options(stuk=stuk)
    return PlayState(deal, "h", "N", "N", rules=rules).play_all(opening)


@pytest.mark.parametrize("variant", VARIANTS)
def test_stuk_in_one_trick(variant):
    finals = {}
    for stuk in STUKS:
        state = _stuk_play(DEAL_STUK_TRICK, "Kh Qh Jh 7h", stuk, variant)
        first = state.tricks[0]
        assert first.winner == 2 and first.cards == tuple(Card(c) for c in "Kh Qh Jh 7h".split())
        assert first.roem == (40 if stuk == "trick" else 20)
        assert state.roem == ((40, 0) if stuk == "trick" else (20, 0))
        finals[stuk] = play_first_legal(state)
        assert_matches_reference(finals[stuk])
    # the same cards, so only stuk differs
    off, trick, hand = finals["off"].roem, finals["trick"].roem, finals["hand"].roem
    assert (trick[0] - off[0], trick[1] - off[1]) == (20, 0)
    assert hand == off  # nobody held both K and Q


@pytest.mark.parametrize("variant", VARIANTS)
def test_stuk_held_in_hand(variant):
    opening = "Kh Jh As 7h 9h 7s 8h Qh"
    finals = {}
    for stuk in STUKS:
        rules = Rules.named(variant).with_options(stuk=stuk)
        state = PlayState(DEAL_STUK_HAND, "h", "N", "N", rules=rules)
        after_king = state.play("Kh")
        assert after_king.roem == (0, 0)
        state = state.play_all(opening)
        assert [t.winner % 2 for t in state.tricks] == [1, 1]  # E/W take both tricks
        assert state.roem == ((20, 0) if stuk == "hand" else (0, 0))
        finals[stuk] = play_first_legal(state)
        assert_matches_reference(finals[stuk])
    off, trick, hand = finals["off"].roem, finals["trick"].roem, finals["hand"].roem
    assert trick == off
    assert (hand[0] - off[0], hand[1] - off[1]) == (20, 0)
    assert finals["hand"].points[0] - finals["off"].points[0] == 20


# --------------------------------------------------------------------------------------
# Misc state API
# --------------------------------------------------------------------------------------


def test_state_basics():
    d = Deal.random(seed=11)
    s0 = PlayState(d, trump="s", declarer="W", leader="E")
    assert s0.to_move == "E" and s0.trick_leader == "E"
    assert s0.playing_team == 1
    assert s0.points == (0, 0) and s0.roem == (0, 0)
    assert s0.history == ()
    assert s0.hands() == d.hands
    assert PlayState(d.pbn(), "s", "W", "E") == s0
    assert PlayState(d.pbn(), "♠", 3, 1) == s0
    s1 = s0.play(s0.legal_cards()[0])
    assert s1 != s0 and s1.history == (("E", s0.legal_cards()[0]),)
    assert s1.to_move == "S"
    final = play_first_legal(s0)
    assert len(final.tricks) == 8
    assert eval(repr(final), {"PlayState": PlayState}) == final  # noqa: S307
    data = final.to_dict()
    assert data["result"]["net"] == final.result().net
    assert len(data["played"]) == 32
    assert isinstance(final.tricks[0], Trick)
    assert str(final.tricks[0]).startswith("E:")


def test_bad_trump_and_seats():
    d = Deal.random(seed=11)
    with pytest.raises(NotationError):
        PlayState(d, "x", "N", "E")
    for bad_seat in ("X", 4):
        with pytest.raises(NotationError):
            PlayState(d, "h", bad_seat, "E")
        with pytest.raises(NotationError):
            PlayState(d, "h", "N", bad_seat)


# --------------------------------------------------------------------------------------
# Random-playout conformance against the reference
# --------------------------------------------------------------------------------------


def checked_playout(deal: Deal, trump: Suit, declarer: int, leader: int, rules: Rules,
                    rng: random.Random, policy: str = "random") -> PlayState:
    """Play a hand with random legal cards, checking every state against the reference."""
    state = PlayState(deal, trump, declarer, leader, rules=rules)
    seat = leader
    while not state.is_over:
        assert state.to_move_index == seat
        hand = state.hand(seat).cards()
        trick = list(state.trick)
        legal = state.legal_cards()
        assert legal, "the legal set is never empty"
        assert len(legal) == len(set(legal))
        assert set(legal) == ref.reference_legal(hand, trick, trump, rules.variant), (state, hand, trick)
        illegal = [c for c in hand if c not in legal]
        if illegal:
            bad = rng.choice(illegal)
            with pytest.raises(IllegalActionError) as info:
                state.play(bad)
            msg = str(info.value)
            assert str(bad) in msg and "NESW"[seat] in msg
        if policy == "first":
            card = legal[0]
        elif policy == "last":
            card = legal[-1]
        else:
            card = rng.choice(legal)
        state = state.play(card)
        if state.trick:
            seat = (seat + 1) % 4
        else:
            seat = state.tricks[-1].winner if not state.is_over else seat
    return state


def check_finished(state: PlayState) -> None:
    assert state.is_over and len(state.tricks) == 8
    assert len(state.history) == 32
    assert {c for _, c in state.history} == set(Decks.piquet())
    assert all(len(state.hand(s)) == 0 for s in "NESW")
    assert sum(t.points for t in state.tricks) == 162
    assert state.tricks[-1].points >= 10
    assert state.tricks[0].leader == state.leader
    for a, b in zip(state.tricks, state.tricks[1:]):
        assert b.leader == a.winner
    for t in state.tricks:
        assert t.winner == (t.leader + ref.reference_winner(t.cards, state.trump)) % 4
        if state.rules.stuk != "hand":
            assert t.roem == ref.reference_trick_roem(t.cards, state.trump, stuk=state.rules.stuk == "trick")
    card_points = [0, 0]
    for t in state.tricks:
        card_points[t.winner % 2] += t.points
    assert card_points[0] + card_points[1] == 162
    assert tuple(p - r for p, r in zip(state.points, state.roem)) == tuple(card_points)
    res = assert_matches_reference(state)
    playing, other = res.playing_team, 1 - res.playing_team
    totals = (res.points[0] + res.pit[0], res.points[1] + res.pit[1])
    assert sum(res.scores) == sum(totals) == 162 + sum(res.roem) + sum(res.pit)
    if res.nat:
        assert res.scores[playing] == 0
        assert res.scores[other] == sum(totals)
        assert totals[playing] <= totals[other]
    else:
        assert res.scores == totals
        assert totals[playing] >= totals[other]
        if state.rules.tie_is_nat:
            assert totals[playing] > totals[other]
    assert res.net == res.scores[playing] - res.scores[other]
    assert res.pit[0] == 0 or all(t.winner % 2 == 0 for t in state.tricks)
    assert res.pit[1] == 0 or all(t.winner % 2 == 1 for t in state.tricks)


def run_conformance(variant: str, stuk: str, seeds) -> None:
    for seed in seeds:
        rng = random.Random(f"{variant}/{stuk}/{seed}")
        deal = Deal.random(seed=rng.getrandbits(64))
        rules = Rules.named(variant).with_options(
            stuk=stuk, pit=rng.choice([100, 100, 50, 0]), tie_is_nat=rng.random() < 0.7)
        trump = rng.choice(list(Suit))
        policy = rng.choice(["random", "random", "random", "first", "last"])
        final = checked_playout(deal, trump, rng.randrange(4), rng.randrange(4), rules, rng, policy)
        check_finished(final)


@pytest.mark.parametrize("stuk", STUKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playout_conformance(variant, stuk):
    run_conformance(variant, stuk, range(350))  # 6 x 350 = 2100 hands


@pytest.mark.slow
@pytest.mark.parametrize("stuk", STUKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playout_conformance_large(variant, stuk):
    run_conformance(variant, stuk, range(1000, 6000))


@settings(max_examples=60)
@given(seed=st.integers(0, 2**64 - 1), variant=st.sampled_from(VARIANTS), stuk=st.sampled_from(STUKS),
       pit=st.sampled_from([0, 100, 37]), tie_is_nat=st.booleans(), trump=st.sampled_from(list(Suit)),
       declarer=st.integers(0, 3), leader=st.integers(0, 3), policy=st.sampled_from(["random", "first", "last"]))
def test_random_playout_hypothesis(seed, variant, stuk, pit, tie_is_nat, trump, declarer, leader, policy):
    rules = Rules.named(variant).with_options(stuk=stuk, pit=pit, tie_is_nat=tie_is_nat)
    rng = random.Random(seed)
    final = checked_playout(Deal.random(seed=seed), trump, declarer, leader, rules, rng, policy)
    check_finished(final)


def test_every_prefix_of_a_playout_is_consistent():
    """Replaying with play_all reaches the same states; stuk options do not change legality."""
    rng = random.Random(7)
    for k in range(20):
        deal = Deal.random(seed=1000 + k)
        variant = VARIANTS[k % 2]
        final = checked_playout(deal, H, k % 4, (k + 1) % 4, Rules.named(variant), rng)
        played = [c for _, c in final.history]
        for stuk in STUKS:
            rules = Rules.named(variant).with_options(stuk=stuk)
            again = PlayState(deal, H, k % 4, (k + 1) % 4, rules=rules).play_all(played)
            assert [t.winner for t in again.tricks] == [t.winner for t in final.tricks]
            check_finished(again)
        text = " ".join(map(str, played))
        assert PlayState(deal, H, k % 4, (k + 1) % 4, rules=Rules.named(variant)).play_all(text) == final


def test_legal_cards_in_canonical_order():
    # W to move: partner E trumped the club lead with the 8h, S discarded; W holds six
    # higher trumps and Ks 7s (Amsterdam: no undertrump, here nothing lower to undertrump).
    # Canonical order: 7s 9h Th Jh Qh Ks Kh Ah; actual: 7s Ks 9h Th Jh Qh Kh Ah.
    deal = Deal.from_hands(
        "Ac Kc Qc Jc Tc 9c 8c 7c",
        "8h 7h Ad Kd Qd Jd Td 9d",
        "As Qs Js Ts 9s 8s 8d 7d",
        "Ah Kh Jh 9h Th Qh Ks 7s",
    )
    state = PlayState(deal, "h", "N", "N").play_all("Ac 8h 8s")
    assert state.to_move == "W"
    legal = state.legal_cards()
    assert set(map(str, legal)) == {"Ah", "Kh", "Jh", "9h", "Th", "Qh", "Ks", "7s"}
    assert legal == sorted(legal)


@pytest.mark.parametrize("bad", [5, None, 3.5])
def test_play_all_of_no_cards(bad):
    """play_all() of something that is not cards raises NotationError (once: a bare TypeError)."""
    st0 = PlayState(Deal.random(seed=11), "h", "N", "E")
    with pytest.raises(NotationError, match=f"cards to play must be card text or an iterable of cards, got {bad!r}"):
        st0.play_all(bad)  # type: ignore[arg-type]
    first = st0.legal_cards()[0]
    assert st0.play_all(iter([first])) == st0.play_all(str(first)) == st0.play(first)
