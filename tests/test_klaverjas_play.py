"""Klaverjas bidding, bots, matches and the klaverjas CLI."""

from __future__ import annotations


import pytest
from hypothesis import given
from hypothesis import strategies as st

from quartet_solver import klaverjas as kj
from quartet_solver.cards import Suit
from quartet_solver.errors import IllegalActionError, InvalidStateError, NotationError
from quartet_solver.klaverjas.bots import BidView, PlayView


def test_bidding_first_named_suit_wins_and_forehand_leads():
    b = kj.BiddingState("S")
    assert b.to_move == "W" and b.forehand == "W"
    b = b.bid(None).bid("pass")
    assert b.to_move == "E" and not b.is_over
    b = b.bid("d")
    assert b.is_over and b.declarer == "E" and b.trump is Suit.DIAMONDS and b.leader == "W"
    with pytest.raises(IllegalActionError, match="over"):
        b.bid("h")


@pytest.mark.parametrize("forced, seat", [("forehand", "E"), ("dealer", "N")])
def test_all_pass_forces_a_choice(forced, seat):
    rules = kj.Rules.AMSTERDAM.with_options(forced=forced)
    b = kj.BiddingState("N", rules=rules)
    for _ in range(4):
        b = b.bid("pass")
    assert b.forced and b.to_move == seat and None not in b.legal_bids()
    with pytest.raises(IllegalActionError, match="must name trumps"):
        b.bid("pass")
    b = b.bid("c")
    assert b.declarer == seat and b.leader == "E"


@given(st.lists(st.sampled_from(["pass", "c", "d", "h", "s"]), min_size=0, max_size=8), st.integers(0, 3))
def test_bidding_sequences(bids, dealer):
    b = kj.BiddingState(dealer)
    for bid in bids:
        if b.is_over:
            break
        if b.forced and bid == "pass":
            with pytest.raises(IllegalActionError):
                b.bid(bid)
            bid = "s"
        b = b.bid(bid)
    if b.is_over:
        named = [(s, suit) for s, suit in b.bids if suit is not None]
        assert len(named) == 1 and kj.SEATS[named[0][0]] == b.declarer
        assert b.leader == kj.SEATS[(dealer + 1) % 4]
    else:
        assert len(b.bids) <= 4
    # the same history given to the constructor is replayed to the same state
    again = kj.BiddingState(dealer, bids=b.bids)
    assert again.bids == b.bids and again.is_over == b.is_over


def test_bidding_history_is_checked():
    """A history given to the constructor is replayed and checked like bid()
    (once: any (seat, suit) pairs were taken, e.g. a bid by seat 9)."""
    assert kj.BiddingState("N", bids=(("E", "pass"), (2, "h"))).declarer == "S"
    with pytest.raises(IllegalActionError, match="bid 1 is by W, but E is to bid"):
        kj.BiddingState("N", bids=((3, None),))
    with pytest.raises(NotationError, match="seat index must be 0..3, got 9"):
        kj.BiddingState("N", bids=((9, None),))
    with pytest.raises(IllegalActionError, match="the bidding is over"):
        kj.BiddingState("N", bids=((1, "h"), (2, "s")))
    with pytest.raises(IllegalActionError, match="may not pass"):
        kj.BiddingState("N", bids=((1, None), (2, None), (3, None), (0, None), (1, None)))
    with pytest.raises(InvalidStateError, match="bid 1 must be"):
        kj.BiddingState("N", bids=("E",))  # type: ignore[arg-type]


def test_rule_bot_bids_with_jack_or_nine_ace_and_three_trumps():
    bot = kj.RuleBot()
    from quartet_solver.cards import CardSet

    view = BidView(0, 3, CardSet("Js 8s 7s Ah Ad Kd Tc 9c"), (), False, kj.Rules.AMSTERDAM)
    assert bot.choose_bid(view) is Suit.SPADES
    view = BidView(0, 3, CardSet("9h Ah 7h Ks Qd Jd Tc 9c"), (), False, kj.Rules.AMSTERDAM)
    assert bot.choose_bid(view) is Suit.HEARTS
    weak = BidView(0, 3, CardSet("Ah Kh Qh Ts 8d 7d 8c 7c"), (), False, kj.Rules.AMSTERDAM)
    assert bot.choose_bid(weak) is None  # strong in a suit without the jack or the nine
    assert bot.choose_bid(BidView(0, 3, weak.hand, (), True, kj.Rules.AMSTERDAM)) is not None


@pytest.mark.parametrize("rules", [kj.Rules.AMSTERDAM, kj.Rules.ROTTERDAM])
def test_bots_only_play_legal_cards_and_matches_add_up(rules):
    bots = [kj.RuleBot(), kj.RandomBot(1), kj.RuleBot(), kj.RandomBot(2)]
    result = kj.play_match(bots, seed=11, rules=rules)
    assert len(result.hands) == 16
    assert [h.dealer for h in result.hands[:5]] == ["N", "E", "S", "W", "N"]
    assert result.totals == (sum(h.result.scores[0] for h in result.hands),
                             sum(h.result.scores[1] for h in result.hands))
    for h in result.hands:
        assert len(h.state.tricks) == 8
        assert h.state.leader == (kj.SEATS.index(h.dealer) + 1) % 4
        assert sum(h.result.points) - sum(h.result.roem) == 162
    again = kj.play_match([kj.RuleBot(), kj.RandomBot(1), kj.RuleBot(), kj.RandomBot(2)], seed=11, rules=rules)
    assert again.to_dict() == result.to_dict()
    assert "final:" in result.pretty()


def test_rule_bots_beat_random_bots():
    rule_team = random_team = 0
    for seed in range(6):
        r = kj.play_match([kj.RuleBot(), kj.RandomBot(seed), kj.RuleBot(), kj.RandomBot(seed + 99)], seed=seed)
        rule_team += r.totals[0]
        random_team += r.totals[1]
    assert rule_team > 1.5 * random_team


def test_daily_match_is_the_same_for_everyone():
    a = kj.play_match([kj.RuleBot()] * 4, date="2026-11-29", hands=3)
    b = kj.play_match([kj.RuleBot()] * 4, date="2026-11-29", hands=3)
    assert a.to_dict() == b.to_dict()
    assert a.hands[0].state.deal == kj.Deal.daily("2026-11-29", 1)


def test_play_view_hides_other_hands():
    st_ = kj.PlayState(kj.Deal.random(seed=4), "s", "N", "E")
    view = PlayView.of(st_)
    assert view.seat == 1 and view.hand == st_.hand("E") and set(view.legal) <= set(view.hand)
    assert not hasattr(view, "deal")


def test_match_errors():
    with pytest.raises(InvalidStateError, match="4 bots"):
        kj.play_match([kj.RuleBot()] * 3, seed=1)
    with pytest.raises(InvalidStateError, match="hands"):
        kj.play_match([kj.RuleBot()] * 4, seed=1, hands=17)
    with pytest.raises(InvalidStateError, match="not both"):
        kj.play_match([kj.RuleBot()] * 4, seed=1, date="2026-01-01")
    for bots in ([kj.RuleBot()] * 3, [kj.RuleBot()] * 5):     # 3: an IndexError once
        with pytest.raises(InvalidStateError, match=f"a Klaverjas hand needs 4 bots .*, got {len(bots)}"):
            kj.play_hand(bots, kj.Deal.random(seed=1), "N")


def test_a_clubs_bid_is_recorded_as_clubs():
    """Suit.CLUBS is 0: a truth test once wrote a clubs bid as "pass"."""
    b = kj.BiddingState("N").bid("c")
    assert b.to_dict()["bids"] == [{"seat": "E", "bid": "c"}]
    assert "bids='c'" in repr(b)
    b = kj.BiddingState("N").bid("pass").bid("pass").bid("pass").bid("pass").bid("c")
    assert [x["bid"] for x in b.to_dict()["bids"]] == ["pass"] * 4 + ["c"]


def test_match_object_step_by_step_equals_play_match():
    bots = [kj.RuleBot(), kj.RandomBot(4), kj.RuleBot(), kj.RandomBot(5)]
    m = kj.Match(bots, seed=8, hands=4, first_dealer="W")
    dealers = []
    while not m.is_over:
        record = m.play_next()
        dealers.append(record.dealer)
        assert m.totals == tuple(map(sum, zip(*(r.result.scores for r in m.records))))
    assert dealers == ["W", "N", "E", "S"]
    with pytest.raises(InvalidStateError, match="over"):
        m.play_next()
    again = kj.play_match([kj.RuleBot(), kj.RandomBot(4), kj.RuleBot(), kj.RandomBot(5)], seed=8, hands=4,
                          first_dealer="W")
    assert again.to_dict() == m.result().to_dict()


@pytest.mark.parametrize("bad", [None, 5])
def test_bidding_history_that_is_not_a_sequence(bad):
    """BiddingState(bids=...) that is not a sequence raises InvalidStateError (once: a bare TypeError)."""
    with pytest.raises(InvalidStateError, match=f"bids must be a sequence of .*, got {bad!r}"):
        kj.BiddingState("N", bids=bad)  # type: ignore[arg-type]
    assert kj.BiddingState("N", bids=iter([(1, "h")])).declarer == "E"  # type: ignore[arg-type]


def test_random_bot_seeds():
    """RandomBot takes the seeds Deal.random takes (numpy integers once raised a bare
    TypeError from random, as did a list); other seeds raise InvalidStateError."""
    np = pytest.importorskip("numpy")
    assert kj.RandomBot(np.int64(3)).rng.random() == kj.RandomBot(3).rng.random()
    assert kj.RandomBot("x").rng.random() == kj.RandomBot("x").rng.random()
    for bad in ([1], 1.5, True):
        with pytest.raises(InvalidStateError, match="seed must be an int >= 0, a string or None"):
            kj.RandomBot(bad)  # type: ignore[arg-type]


def test_play_view_of_a_finished_hand():
    """PlayView.of() a finished hand raises InvalidStateError (once: a view with no
    legal cards, on which RandomBot raised a bare IndexError and RuleBot a ValueError)."""
    st_ = kj.PlayState(kj.Deal.random(seed=4), "s", "N", "E")
    while not st_.is_over:
        st_ = st_.play(st_.legal_cards()[0])
    with pytest.raises(InvalidStateError, match="the hand is over"):
        PlayView.of(st_)


def test_match_arguments_are_checked_up_front():
    """Match() refuses seeds Deal.random refuses (once: 1.5, [1] and True were read
    as their text, silently), a bad date before the first hand (once: only at
    play_next), bots that are not bots (once: a bare TypeError or AttributeError);
    it takes numpy integers for hands and a seat index for the first dealer."""
    np = pytest.importorskip("numpy")
    bots = [kj.RuleBot()] * 4
    for seed in (1.5, [1], True):
        with pytest.raises(InvalidStateError, match="seed must be an int >= 0, a string or None"):
            kj.Match(bots, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="date must be YYYY-MM-DD or 'today', got '2026-13-01'"):
        kj.Match(bots, date="2026-13-01")
    with pytest.raises(NotationError, match="date must be a datetime.date"):
        kj.Match(bots, date=20260101)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="a Klaverjas match needs 4 bots .*, got None"):
        kj.Match(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match=r"bot N \(1\) is not a bot"):
        kj.Match([1, 2, 3, 4])  # type: ignore[list-item]
    m = kj.Match(iter(bots), seed=np.int64(3), hands=np.int64(2), first_dealer=3)  # type: ignore[arg-type]
    assert m.hands == 2 and m.first_dealer == 3
    assert m.play_all().to_dict() == kj.play_match(bots, seed=3, hands=2, first_dealer="W").to_dict()
    assert kj.Match(bots, first_dealer=" e").first_dealer == 1
    with pytest.raises(InvalidStateError, match="unknown first dealer 'X'"):
        kj.Match(bots, first_dealer="X")


def test_play_hand_arguments():
    """play_hand() takes PBN text and a preset name as PlayState does (once: a bare
    AttributeError for the text, and the bots saw the name instead of Rules) and
    refuses a hand number that is not an int >= 1 (once: kept in the record)."""
    bots = [kj.RuleBot()] * 4
    deal = kj.Deal.random(seed=6)
    seen = []

    class Watcher(kj.RuleBot):
        def choose_bid(self, view):
            seen.append(view.rules)
            return super().choose_bid(view)

    record = kj.play_hand([Watcher()] * 4, deal.pbn(), "N", rules="rotterdam")
    assert record.to_dict() == kj.play_hand(bots, deal, "N", rules=kj.Rules.ROTTERDAM).to_dict()
    assert seen and all(r == kj.Rules.ROTTERDAM for r in seen)
    for number in ("x", 0, True):
        with pytest.raises(InvalidStateError, match="hand number must be an int >= 1"):
            kj.play_hand(bots, deal, "N", number=number)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="a Klaverjas hand needs 4 bots .*, got None"):
        kj.play_hand(None, deal, "N")  # type: ignore[arg-type]


class _BadBidder(kj.RandomBot):
    def choose_bid(self, view):  # type: ignore[no-untyped-def]
        return "x"


class _BadPlayer(kj.RuleBot):
    def choose_card(self, view):  # type: ignore[no-untyped-def]
        return next(c for c in view.hand if c not in view.legal) if len(view.legal) < len(view.hand) \
            else "Zz"


def test_a_bot_that_breaks_the_rules_is_named():
    """play_hand() names the bot and its seat when its bid or card is refused
    (the error of bid() named neither)."""
    deal = kj.Deal.random(seed=4)
    with pytest.raises(NotationError, match=r"bot E \(.*\) bid 'x': unknown suit 'x'"):
        kj.play_hand([kj.RuleBot(), _BadBidder(1), kj.RuleBot(), kj.RuleBot()], deal, "N")
    bots = [_BadPlayer() for _ in range(4)]
    with pytest.raises((IllegalActionError, NotationError), match=r"bot [NESW] \(.*\) played"):
        kj.play_hand(bots, deal, "N")


def test_play_state_takes_the_trump_as_the_rules_functions_do():
    deal = kj.Deal.random(seed=4)
    by_text = kj.PlayState(deal, "h", "N", "E")
    for trump in (Suit.HEARTS, 2, "♥"):
        assert kj.PlayState(deal, trump, "N", "E").legal_cards() == by_text.legal_cards()
    with pytest.raises(NotationError, match="trump must be a Suit"):
        kj.PlayState(deal, 7, "N", "E")
