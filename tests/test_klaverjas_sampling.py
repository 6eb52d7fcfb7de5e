"""Klaverjas deal sampling from one seat's view (``quartet_solver.klaverjas.sampling``):
the forbidden-set lemma behind it, the constraints inferred from each rule, exact
counts and uniform draws against brute force, and the errors."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.klaverjas_sampling import all_consistent_deals, replays
from quartet_solver.cards import Card, CardSet, Decks, Suit
from quartet_solver.errors import InvalidStateError
from quartet_solver.klaverjas import (
    Deal,
    PlayState,
    PlayView,
    RuleBot,
    Rules,
    bidding_weight,
    consistent,
    constraints,
    sample_deals,
)
from quartet_solver.klaverjas.rules import _legal, _winner
from quartet_solver.klaverjas.sampling import MAX_DEALS

C = Card
PIQUET = Decks.piquet().cards()

# every rules preset and every combination of the options
ALL_RULES = [
    Rules(variant=v, stuk=s, forced=f, tie_is_nat=t, pit=p)
    for v, s, f, t, p in itertools.product(("amsterdam", "rotterdam"), ("trick", "hand", "off"),
                                           ("forehand", "dealer"), (True, False), (0, 100))
] + [Rules.AMSTERDAM, Rules.ROTTERDAM]
VARIANTS = [Rules.AMSTERDAM, Rules.ROTTERDAM]


def cs(text: str) -> CardSet:
    return CardSet(text)


# -- PlayView.history ---------------------------------------------------------------------------


def test_playview_history_lists_every_card_with_its_seat():
    state = PlayState(Deal.random(seed=4), trump="d", declarer="W", leader="S")
    rng = random.Random(4)
    for _ in range(9):
        state = state.play(rng.choice(state.legal_cards()))
    view = PlayView.of(state)
    assert view.history == tuple(("NESW".index(s), c) for s, c in state.history)
    assert len(view.history) == 9 and view.history[0][0] == 2
    assert CardSet([c for _, c in view.history]) == view.played
    fresh = PlayView.of(PlayState(Deal.random(seed=4), trump="d", declarer="W", leader="S"))
    assert fresh.history == ()
    # built by hand without a history: the default
    hand_built = PlayView(0, fresh.hand, fresh.legal, fresh.trump, 3, 2, (), 2, CardSet(), (0, 0), Rules.AMSTERDAM)
    assert hand_built.history == ()


# -- the lemma: c legal in K ∪ U  iff  c legal in K and no u in U makes it illegal in K ∪ {u} -------


def _check_lemma(rng: random.Random, rules: Rules) -> None:
    deck = PIQUET[:]
    rng.shuffle(deck)
    trump = Suit(rng.randrange(4))
    t = rng.randrange(1, 4)
    trick, rest = deck[:t], deck[t:]
    # bias towards the interesting cases: hands short in the suit led, rich in trumps
    if rng.random() < 0.6:
        rest.sort(key=lambda c: (c.suit == trick[0].suit) - (c.suit == trump) + rng.random() * 1.5)
    k, u = rng.randrange(1, 5), rng.randrange(0, 6)
    known, unknown = rest[:k], rest[k:k + u]
    card = known[0]
    whole = card in _legal(known + unknown, trick, trump, rules)
    parts = card in _legal(known, trick, trump, rules) and all(
        card in _legal(known + [x], trick, trump, rules) for x in unknown)
    assert whole == parts, (rules, trump, trick, known, unknown)


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_forbidden_set_lemma_by_brute_force(rules):
    rng = random.Random(str(rules))
    for _ in range(600):
        _check_lemma(rng, rules)


@settings(max_examples=300)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(VARIANTS))
def test_forbidden_set_lemma_hypothesis(seed, rules):
    _check_lemma(random.Random(seed), rules)


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_lemma_exhaustive_on_small_hands(rules):
    """Every trick of 1..3 cards from a mini deck (trumps 7 9 J A, the suit led
    7 9 A, another suit 7 A) and every hand of up to 3 other cards (4 after a
    one-card trick): legal iff no single extra card forbids it."""
    mini = [C(x) for x in "7h 9h Jh Ah 7c 9c Ac 7d Ad".split()]
    trump = Suit.HEARTS
    checked = 0
    for t in (1, 2, 3):
        for trick in itertools.permutations(mini, t):
            rest = [c for c in mini if c not in trick]
            for size in (1, 2, 3, 4) if t == 1 else (1, 2, 3):
                for hand in itertools.combinations(rest, size):
                    legal = _legal(list(hand), list(trick), trump, rules)
                    for card in hand:
                        others = [x for x in hand if x is not card]
                        by_one = all(card in _legal([card, x], list(trick), trump, rules) for x in others)
                        assert (card in legal) == by_one, (trick, hand, card)
                        checked += 1
    assert checked > 50_000


# -- positions -----------------------------------------------------------------------------------


def random_position(seed: int, rules: Rules, plays: int) -> PlayView:
    """A view after ``plays`` random legal cards from a random deal."""
    rng = random.Random(seed)
    state = PlayState(Deal.random(seed=seed), trump=Suit(seed % 4), declarer=rng.randrange(4),
                      leader=rng.randrange(4), rules=rules)
    for _ in range(plays):
        state = state.play(rng.choice(state.legal_cards()))
    return PlayView.of(state)


def shown_failures(view: PlayView) -> list[str]:
    """Plays by seats other than the viewer that did not follow, trump or overtrump
    (written from the rule book, without the sampler)."""
    out, trick = [], []
    for seat, card in view.history:
        if trick and seat != view.seat:
            is_trump = card.suit == view.trump
            if card.suit != trick[0].suit:
                out.append("did not trump" if not is_trump else "trumped")
            if is_trump and any(c.suit == view.trump for c in trick) and not _beats(card, trick, view.trump):
                out.append("did not overtrump")
        trick.append(card)
        if len(trick) == 4:
            trick = []
    return out


def _beats(card: Card, trick: list[Card], trump: Suit) -> bool:
    return _winner(trick + [card], trump) == len(trick)


@functools.lru_cache(maxsize=None)
def endgames(variant: str, with_failure: bool, wanted: int = 4) -> tuple[tuple[PlayView, tuple[Deal, ...]], ...]:
    """Endgames (two or three tricks left) with their brute-force consistent deals;
    with ``with_failure`` only positions where some other seat showed out of the suit
    led and did not trump or did not overtrump."""
    rules = Rules.named(variant)
    found = []
    for seed in range(with_failure * 1000 + (variant == "rotterdam") * 5000, 20_000):
        view = random_position(seed, rules, 21 + seed % 5)
        failures = shown_failures(view)
        if with_failure and not ({"did not trump", "did not overtrump"} & set(failures)):
            continue
        deals = all_consistent_deals(view)
        if not 20 <= len(deals) <= 400:
            continue
        found.append((view, tuple(deals)))
        if len(found) == wanted:
            break
    assert len(found) == wanted
    return tuple(found)


# -- against brute force -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["amsterdam", "rotterdam"])
@pytest.mark.parametrize("with_failure", [False, True])
def test_count_and_support_match_brute_force(variant, with_failure):
    for view, deals in endgames(variant, with_failure):
        c = constraints(view)
        assert c.count == len(deals), view
        drawn = sample_deals(view, 200, seed=11)
        assert set(drawn) <= set(deals)
        assert all(replays(d, view) and consistent(d, view) for d in drawn[:40])
        # no consistent deal gives a seat a card the constraints exclude
        for s in range(4):
            if s != view.seat:
                held = CardSet()
                for d in deals:
                    held = held | (d.hands[s] & c.unknown)
                assert held <= c.allowed(s)


def chi_square_critical(df: int, z: float = 3.719) -> float:
    """Upper critical value of chi-square with ``df`` degrees of freedom by the
    Wilson-Hilferty approximation (Wilson and Hilferty 1931:
    (X/df)^(1/3) ~ normal(1 - 2/(9 df), 2/(9 df))); z = 3.719 is the standard
    normal quantile for an upper tail of 1e-4 (any normal table)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


@pytest.mark.parametrize("variant", ["amsterdam", "rotterdam"])
def test_draws_are_uniform_chi_square(variant):
    positions = endgames(variant, True)[:3] + endgames(variant, False)[:1]
    for i, (view, deals) in enumerate(positions):
        per_cell = 40
        draws = sample_deals(view, per_cell * len(deals), seed=100 + i)
        freq = Counter(draws)
        assert set(freq) <= set(deals)
        stat = sum((freq[d] - per_cell) ** 2 / per_cell for d in deals)
        df = len(deals) - 1
        assert stat < chi_square_critical(df), (variant, i, len(deals), stat, chi_square_critical(df))
        # and not suspiciously perfect (lower tail 1e-4)
        assert stat > chi_square_critical(df, z=-3.719), (variant, i, stat)


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 31), rules=st.sampled_from(ALL_RULES))
def test_every_drawn_deal_replays(seed, plays, rules):
    view = random_position(seed, rules, plays)
    c = constraints(view)
    assert c.count >= 1
    deals = sample_deals(view, 3, seed=seed)
    assert len(deals) == 3
    for d in deals:
        assert consistent(d, view) and replays(d, view)
        assert d.hands[view.seat] == view.hand | CardSet([x for s, x in view.history if s == view.seat])
        for s in range(4):
            assert not (d.hands[s] & c.excluded[s] & c.unknown) or s == view.seat


def test_the_true_deal_is_consistent_and_allowed():
    for seed in range(30):
        rng = random.Random(seed)
        rules = VARIANTS[seed % 2]
        deal = Deal.random(seed=seed)
        state = PlayState(deal, trump=Suit(seed % 4), declarer=seed % 4, leader=(seed + 1) % 4, rules=rules)
        for _ in range(seed % 31):
            state = state.play(rng.choice(state.legal_cards()))
        view = PlayView.of(state)
        assert consistent(deal, view)
        c = constraints(view)
        for s in range(4):
            if s != view.seat:
                assert state.hand(s) <= c.allowed(s)
                assert len(state.hand(s)) == c.sizes[s]


# -- inferences on hand-made histories -------------------------------------------------------------------

# deal A: E holds no club and no heart
DEAL_A = Deal.from_hands("Ac Kc Qc Jc 7d 8d As Ks", "9d Td Jd Qd Kd Qs Js Ts",
                         "Tc 9c 8c Jh 9h Ah 9s 8s", "7c Th Kh Qh 8h 7h 7s Ad")
# deal B: S holds no club and no heart
DEAL_B = Deal.from_hands("Ac Kc Qc Jh 9h Ah As 7s", "Jc Tc 9c Th Kh Qs Js Ts",
                         "7d 8d 9d Td Jd Qd Ks 9s", "8c 7c Kd Ad Qh 8h 7h 8s")
# deal C: E and S hold no club; the trumps above the ace (J, 9) are N's
DEAL_C = Deal.from_hands("Ac Kc Qc Jc Jh 9h As Ks", "Ah 8h 9d Td Jd Js Ts 9s",
                         "7h Qh Kh 7d 8d Qd Kd Ad", "Tc 9c 8c 7c Th Qs 8s 7s")
# deal D: S holds two spades and six trumps below the nine
DEAL_D = Deal.from_hands("As Ks Qs Ac Kc Qc Jc 7d", "9h Jh Js Ts 9s 9d Td Jd",
                         "8s 7s 7h 8h Qh Kh Th Ah", "Tc 9c 8c 7c 8d Qd Kd Ad")


def view_after(deal: Deal, plays: str, rules: Rules, trump: str = "h") -> PlayView:
    return PlayView.of(PlayState(deal, trump, "N", "N", rules=rules).play_all(plays))


def unknown_of(view: PlayView, cards: str) -> CardSet:
    """The cards among ``cards`` the viewer has not seen."""
    return cs(cards) - view.hand - view.played


CLUBS = "7c 8c 9c Tc Jc Qc Kc Ac"
HEARTS = "7h 8h 9h Th Jh Qh Kh Ah"


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_discard_while_opponent_wins_without_trump(rules):
    view = view_after(DEAL_A, "Ac 9d", rules)           # E shows out of clubs, N wins
    c = constraints(view)
    # Amsterdam: E had to trump; Rotterdam: E had to trump as well
    assert c.excluded[1] == unknown_of(view, CLUBS) | unknown_of(view, HEARTS)
    assert c.excluded[0] == CardSet() and c.excluded[3] == CardSet()
    assert [(x.seat, x.card, x.trick_no) for x in c.inferences] == [(1, C("9d"), 1)]
    assert c.count == math.comb(13, 7) * math.comb(15, 7)


def test_amsterdam_discard_on_partner_shows_only_the_void():
    view = view_after(DEAL_B, "Ac Jc 7d", Rules.AMSTERDAM)   # N (S's partner) wins: S may discard
    c = constraints(view)
    assert c.excluded[2] == unknown_of(view, CLUBS)          # no club; trumps still possible
    assert not c.excluded[2] & unknown_of(view, HEARTS)
    assert c.excluded[1] == CardSet()                        # E followed


def test_rotterdam_discard_on_partner_shows_no_trumps():
    view = view_after(DEAL_B, "Ac Jc 7d", Rules.ROTTERDAM)   # Rotterdam: S had to trump if it could
    c = constraints(view)
    assert c.excluded[2] == unknown_of(view, CLUBS) | unknown_of(view, HEARTS)


def test_amsterdam_not_overtrumping_shows_no_higher_trump():
    view = view_after(DEAL_C, "Ac Ah 7d", Rules.AMSTERDAM)   # E trumps, S discards: S cannot overtrump
    c = constraints(view)
    assert unknown_of(view, "Jh 9h") == cs("Jh 9h")
    assert c.excluded[2] == unknown_of(view, CLUBS) | cs("Jh 9h")   # lower trumps allowed
    assert c.excluded[1] == unknown_of(view, CLUBS)                 # E trumped as it had to
    assert c.allowed(2) >= unknown_of(view, "7h Qh Kh")
    assert consistent(DEAL_C, view)


def test_rotterdam_undertrump_shows_no_higher_trump_only():
    view = view_after(DEAL_C, "Ac Ah 7h", Rules.ROTTERDAM)   # S undertrumps: no J/9, non-trumps possible
    c = constraints(view)
    assert c.excluded[2] == unknown_of(view, CLUBS) | cs("Jh 9h")
    assert c.allowed(2) >= unknown_of(view, "7d 8d Qd Kd Ad")
    with pytest.raises(Exception):   # the same undertrump is illegal in Amsterdam (S holds diamonds)
        view_after(DEAL_C, "Ac Ah 7h", Rules.AMSTERDAM)


def test_amsterdam_undertrump_shows_only_lower_trumps():
    # W discards twice on N's spades; then E trumps N's ace of clubs with the nine and S,
    # out of clubs and holding only trumps below the nine, undertrumps
    view = view_after(DEAL_D, "As Js 8s 8d Ks 9s 7s Qd Ac 9h 7h", Rules.AMSTERDAM)
    assert view.seat == 3
    c = constraints(view)
    lower = cs("8h Qh Kh Th Ah")
    assert c.allowed(2) == lower and c.sizes[2] == 5
    assert c.excluded[2] == c.unknown - lower
    assert c.excluded[1] == unknown_of(view, CLUBS)          # E trumped: only the club void
    assert c.count == math.comb(7, 5)                        # E takes 5 of its 7 possible cards
    deals = sample_deals(view, 50, seed=3)
    assert all(d.hands[2] == DEAL_D.hands[2] for d in deals)


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_trump_lead_not_overtrumped_shows_no_higher_trump(rules):
    view = view_after(DEAL_C, "9h 8h", rules)                # E cannot beat the nine: no Jh
    c = constraints(view)
    assert c.excluded[1] == cs("Jh")
    view = view_after(DEAL_C, "9h Ah", rules)                # the ace is below the nine too
    assert constraints(view).excluded[1] == cs("Jh")


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_trump_lead_discard_shows_no_trumps(rules):
    view = view_after(DEAL_B, "Jh Th 7d", rules)             # S shows out of trumps
    c = constraints(view)
    assert c.excluded[2] == unknown_of(view, HEARTS) == cs("9h Ah Kh")
    assert c.excluded[1] == CardSet()                        # nothing beats the jack


def test_amsterdam_partner_trump_discard_allows_any_trump():
    # N leads a spade, E (void) trumps with the ace, S follows, W (E's partner, void)
    # discards: Amsterdam lets W keep higher and lower trumps; Rotterdam does not
    deal = Deal.from_hands("As Ks Qs Js Ts 9s 8s 7c", "Ah 7h 9d Td Jd Qd Kd Ad",
                           "7s 8c 9c Tc Jc Qc Kc Ac", "Jh 9h Th Kh Qh 8h 7d 8d")
    view = view_after(deal, "As Ah 7s 7d", Rules.AMSTERDAM)
    assert view.seat == 1                                  # E won with the trump
    c = constraints(view)
    spades = "7s 8s 9s Ts Js Qs Ks As"
    assert c.excluded[3] == unknown_of(view, spades)
    with pytest.raises(Exception):
        view_after(deal, "As Ah 7s 7d", Rules.ROTTERDAM)   # Rotterdam: W must overtrump


# -- errors ------------------------------------------------------------------------------------------------


def hand_view(seat: int, hand: str, history: list[tuple[int, str]], trick_leader: int,
              trump: Suit = Suit.HEARTS, rules: Rules = Rules.AMSTERDAM) -> PlayView:
    """A PlayView built by hand (leader N, declarer N)."""
    hist = tuple((s, C(c)) for s, c in history)
    n_trick = len(hist) % 4
    trick = tuple(c for _, c in hist[len(hist) - n_trick:])
    return PlayView(seat, cs(hand), (), trump, 0, 0, trick, trick_leader, CardSet([c for _, c in hist]),
                    (0, 0), rules, hist)


def test_no_card_can_go_anywhere():
    # everybody shows out of clubs on N's ace; N holds no other club
    view = hand_view(0, "As Ks Qs Js Ts 9s 8s", [(0, "Ac"), (1, "7d"), (2, "8d"), (3, "9d")], 0)
    assert constraints(view).count == 0
    with pytest.raises(InvalidStateError, match="no consistent deal: 7c can be held by none of E, S, W"):
        sample_deals(view, 5, seed=1)


def test_seats_that_cannot_fit_their_cards():
    # E and W both show out of clubs and trumps; only 7 cards are left for their 14
    view = hand_view(0, "As Ks Qs Js Ts 9s 8s", [(0, "Ac"), (1, "7d"), (2, "7c"), (3, "8d")], 0)
    assert constraints(view).count == 0
    with pytest.raises(InvalidStateError, match=r"no consistent deal: E\+W hold 14 unknown cards but only 7"):
        sample_deals(view, 1)


def test_a_seat_contradicting_its_own_later_play():
    # E shows out of clubs, then plays a club
    view = hand_view(2, "8d 9d Td Jd Qd Kd Ad", [(0, "Ac"), (1, "7d"), (2, "7c"), (3, "8c"), (0, "Kc"),
                                                 (1, "Tc")], 0)
    with pytest.raises(InvalidStateError, match="no consistent deal: E played 7d"):
        sample_deals(view, 1)


def test_viewer_history_inconsistent_with_its_hand():
    # S discarded 9s on a club lead while holding the nine of clubs
    view = hand_view(2, "9c 8s 7s 8d Jd Qd Ad", [(0, "Ac"), (1, "9d"), (2, "9s"), (3, "7c"), (0, "Kd"),
                                                 (1, "Td")], 0)
    with pytest.raises(InvalidStateError, match="history inconsistent with the hand: S played 9s"):
        sample_deals(view, 1)


@pytest.fixture(scope="module")
def view12() -> PlayView:
    return random_position(12, Rules.AMSTERDAM, 13)


@pytest.mark.parametrize("n", [0, -1, 1.5, "3", True, None, MAX_DEALS + 1])
def test_bad_n(view12, n):
    with pytest.raises(InvalidStateError, match="n must be an int"):
        sample_deals(view12, n)


def test_bad_arguments(view12):
    state = PlayState(Deal.random(seed=1), "h", "N", "E")
    for bad in (state, None, "view", Deal.random(seed=1)):
        with pytest.raises(InvalidStateError, match="view must be a klaverjas PlayView"):
            sample_deals(bad, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="seed"):
        sample_deals(view12, 1, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="weight must be"):
        sample_deals(view12, 1, weight=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="weight must return"):
        sample_deals(view12, 1, weight=lambda d: 2.0)
    with pytest.raises(InvalidStateError, match="deal must be"):
        consistent("N:...", view12)  # type: ignore[arg-type]


def test_views_inconsistent_with_their_history(view12):
    v = view12
    played_card = v.history[0][1]
    cases = {
        "both played and in the viewer's hand": replace(v, hand=v.hand | played_card, played=v.played),
        "holds": replace(v, hand=CardSet(v.hand.cards()[1:])),
        "does not match view.played": replace(v, history=v.history[:-1]),
        "build the view with PlayView.of": replace(v, history=()),
        "is played twice": replace(v, history=v.history[:-1] + (v.history[0],)),
        "was to play": replace(v, history=((v.history[1][0], v.history[0][1]),) + v.history[1:]),
        "not the viewer": replace(v, seat=(v.seat + 1) % 4),
        "must be (seat": replace(v, history=(("N", played_card),) + v.history[1:]),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidStateError, match=message.replace("(", r"\(")):
            sample_deals(bad, 1)


def test_determinism_and_exact_n(view12):
    a = sample_deals(view12, 25, seed=5)
    assert a == sample_deals(view12, 25, seed=5)
    assert a != sample_deals(view12, 25, seed=6)
    assert sample_deals(view12, 4, seed="abc") == sample_deals(view12, 4, seed="abc")
    for n in (1, 7, 250):
        assert len(sample_deals(view12, n)) == n
    mine = view12.hand | CardSet([c for s, c in view12.history if s == view12.seat])
    assert all(d.hands[view12.seat] == mine for d in a)
    assert len(set(a)) > 20   # thousands of consistent deals: draws differ


def test_first_lead_and_lone_card():
    state = PlayState(Deal.random(seed=9), "s", "E", "N")
    view = PlayView.of(state)
    assert constraints(view).count == math.factorial(24) // math.factorial(8) ** 3
    deals = sample_deals(view, 3, seed=0)
    assert all(d.hand("N") == Deal.random(seed=9).hand("N") for d in deals)
    rng = random.Random(2)
    for _ in range(31):
        state = state.play(rng.choice(state.legal_cards()))
    last = PlayView.of(state)
    assert constraints(last).count == 1
    assert sample_deals(last, 2, seed=1) == [Deal.random(seed=9)] * 2


# -- weighting ------------------------------------------------------------------------------------------------


def test_weight_keeps_only_weighted_deals():
    view, deals = endgames("amsterdam", False)[0]
    target = deals[0]
    other = next(s for s in range(4) if s != view.seat)
    keep = lambda d: 1.0 if d.hands[other] == target.hands[other] else 0.0  # noqa: E731
    drawn = sample_deals(view, 20, seed=1, weight=keep)
    assert all(d.hands[other] == target.hands[other] for d in drawn)
    with pytest.raises(InvalidStateError, match="keeps too few"):
        sample_deals(view, 1, seed=1, weight=lambda d: 0.0)


def test_weighted_frequencies_follow_the_weight():
    view, deals = endgames("rotterdam", True)[0]
    weights = {d: (1.0 if i % 2 else 0.25) for i, d in enumerate(deals)}
    total = sum(weights.values())
    n = 40 * len(deals)
    freq = Counter(sample_deals(view, n, seed=2, weight=weights.__getitem__))
    stat = sum((freq[d] - n * w / total) ** 2 / (n * w / total) for d, w in weights.items())
    assert stat < chi_square_critical(len(deals) - 1)


def test_bidding_weight():
    deal = Deal.random(seed=1)
    bids = [(1, None), (2, None), (3, Suit.HEARTS)]
    w = bidding_weight(bids, dealer=0, model=RuleBot(), viewer=1, epsilon=0.25)
    bot = RuleBot()
    from quartet_solver.klaverjas import BidView
    expected = 1.0
    for i, (s, b) in enumerate(bids):
        if s != 1 and bot.choose_bid(BidView(s, 0, deal.hands[s], tuple(bids[:i]), False, Rules.AMSTERDAM)) != b:
            expected *= 0.25
    assert w(deal) == expected
    with pytest.raises(InvalidStateError):
        bidding_weight([(2, None)], dealer=0, model=RuleBot())       # E bids first
    with pytest.raises(InvalidStateError):
        bidding_weight(bids, dealer=0, model=RuleBot(), epsilon=0)
    # a model that names hearts exactly when holding the jack: W named hearts
    jack = lambda v: Suit.HEARTS if C("Jh") in v.hand else None  # noqa: E731
    view = random_position(0, Rules.AMSTERDAM, 5)
    assert C("Jh") not in view.hand | view.played and view.seat != 3
    w = bidding_weight([(1, None), (2, None), (3, Suit.HEARTS)], dealer=0, model=jack, viewer=view.seat,
                       epsilon=1e-9)
    drawn = sample_deals(view, 30, seed=4, weight=w)
    assert all(C("Jh") in d.hands[3] for d in drawn)


# -- the safety net ----------------------------------------------------------------------------------------------


def test_safety_net_rejects_inconsistent_hands_and_redraws(monkeypatch):
    from quartet_solver.klaverjas import sampling

    view = view_after(DEAL_A, "Ac 9d", Rules.AMSTERDAM)
    sampler = sampling._Sampler(view)
    truth = tuple(PlayState(DEAL_A, "h", "N", "N").play_all("Ac 9d").hand(s).mask for s in range(4))
    assert sampler.replay_ok(truth)
    swapped = list(truth)   # give E a club: its discard of 9d becomes illegal
    swapped[1], swapped[0] = (truth[1] - C("Td").mask) | C("Kc").mask, (truth[0] - C("Kc").mask) | C("Td").mask
    assert not sampler.replay_ok(swapped)
    assert not consistent(sampler.deal(swapped), view) and consistent(sampler.deal(truth), view)
    # every other draw rejected: still n deals, the same for a seed
    real = sampling._Sampler.replay_ok
    flip = itertools.cycle([False, True])
    monkeypatch.setattr(sampling._Sampler, "replay_ok", lambda self, cur: next(flip) and real(self, cur))
    deals = sample_deals(view, 10, seed=3)
    assert len(deals) == 10 and all(consistent(d, view) for d in deals)
    monkeypatch.setattr(sampling._Sampler, "replay_ok", lambda self, cur: False)
    with pytest.raises(InvalidStateError, match="the replay rejects them"):
        sample_deals(view, 1, seed=3)
