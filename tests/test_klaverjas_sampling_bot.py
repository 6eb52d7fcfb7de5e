"""The players that see only their own hand: SamplingBot and the named levels."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quartet_solver import klaverjas as kj
from quartet_solver.errors import InvalidStateError
from quartet_solver.klaverjas.bots import PlayView

RULE_SETS = [kj.Rules.named(v).with_options(stuk=s, forced=f, tie_is_nat=t)
             for v, s, f, t in itertools.product(("amsterdam", "rotterdam"), ("trick", "hand", "off"),
                                                 ("forehand", "dealer"), (True, False))]


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(RULE_SETS), st.integers(0, 10**6))
def test_sampling_bots_only_play_legal_cards(rules, seed):
    """play_hand refuses an illegal bid or card from a bot: whole hands with the
    sampling bot at two or four seats, in every rule set."""
    fast = kj.SamplingBot(samples=4, bid_samples=4, seed=seed)
    mixed = [fast, kj.RandomBot(seed), kj.SamplingBot(samples=3, bid_samples=3, seed=seed + 1), kj.RuleBot()]
    for bots in (mixed, [fast] * 4):
        record = kj.play_hand(bots, kj.Deal.random(seed=seed), seed % 4, rules=rules)
        assert record.state.is_over and len(record.state.history) == 32


def test_choices_are_deterministic_for_a_seed_and_follow_the_view():
    deal = kj.Deal.random(seed=21)
    state = kj.PlayState(deal, trump="d", declarer="S", leader="W")
    state = state.play_all(state.legal_cards()[:1])
    view = PlayView.of(state)
    a = kj.SamplingBot(samples=10, seed=5).choose_card(view)
    assert a == kj.SamplingBot(samples=10, seed=5).choose_card(view)
    assert a in view.legal
    records = [kj.play_hand([kj.SamplingBot(samples=5, bid_samples=5, seed=9)] * 4, deal, "N") for _ in range(2)]
    assert records[0].state.history == records[1].state.history
    assert records[0].bidding.bids == records[1].bidding.bids


def test_the_card_chosen_is_the_best_total_over_the_samples():
    """The totals are the sums of each sample's double-dummy card values (solved
    here again, from the same deals), and the choice is the best for the
    seat's team (the playing team maximises the net, the defenders minimise)."""
    from quartet_solver.klaverjas.sampling_bot import _decision_seed

    deal = kj.Deal.random(seed=33)
    state = kj.PlayState(deal, trump="c", declarer="E", leader="N")
    for _ in range(5):
        state = state.play(state.legal_cards()[-1])
    view = PlayView.of(state)
    bot = kj.SamplingBot(samples=6, seed=2)
    totals = bot.card_totals(view)
    seed = _decision_seed(2, "card", view.seat, view.hand, [f"{kj.SEATS[s]}{c}" for s, c in view.history])
    expected = {c: 0 for c in view.legal}
    for sample in kj.sample_deals(view, 6, seed=seed):
        replay = kj.PlayState(sample, "c", "E", "N").play_all([c for _, c in view.history])
        for c, v in kj.solve(replay).card_values.items():
            expected[c] += v
    assert totals == expected
    sign = 1 if view.seat % 2 == 1 else -1          # E/W play
    best = max(sign * t for t in totals.values())
    chosen = bot.choose_card(view)
    assert sign * totals[chosen] == best
    assert chosen == next(c for c in view.legal if sign * totals[c] == best)    # the first on a tie


def test_forced_bid_names_a_suit_and_a_strong_hand_bids():
    forced = kj.BidView(1, 0, kj.CardSet("7c 8c 7d 8d 7h 8h 7s 8s"), ((1, None), (2, None), (3, None), (0, None)),
                        True, kj.Rules.AMSTERDAM)
    assert kj.SamplingBot(samples=4, bid_samples=8).choose_bid(forced) is not None
    strong = kj.BidView(1, 0, kj.CardSet("Jh 9h Ah Th As Ks Ad 7c"), (), False, kj.Rules.AMSTERDAM)
    assert kj.SamplingBot(samples=4, bid_samples=16).choose_bid(strong) == kj.Suit.HEARTS
    weak = kj.BidView(1, 0, kj.CardSet("7c 8c 7d 8d 7h 8h 7s 9s"), (), False, kj.Rules.AMSTERDAM)
    assert kj.SamplingBot(samples=4, bid_samples=16).choose_bid(weak) is None


def test_time_budget_stops_the_sampling():
    deal = kj.Deal.random(seed=8)
    view = PlayView.of(kj.PlayState(deal, trump="s", declarer="N", leader="E"))
    bot = kj.SamplingBot(samples=200, time_budget=1e-9, seed=1)
    assert bot.choose_card(view) in view.legal and bot.last_samples == 1
    bot = kj.SamplingBot(samples=7, seed=1)
    bot.choose_card(view)
    assert bot.last_samples == 7


def test_levels_and_bad_arguments():
    assert set(kj.LEVELS) == {"easy", "normal", "strong"}
    assert isinstance(kj.make_bot("easy"), kj.RuleBot)
    normal, strong = kj.make_bot("normal"), kj.make_bot("Strong ", seed=4)
    assert isinstance(normal, kj.SamplingBot) and normal.samples < strong.samples
    for bad in ("expert", None, 3):
        with pytest.raises(InvalidStateError, match="level must be one of easy, normal, strong"):
            kj.make_bot(bad)
    for kwargs in ({"samples": 0}, {"samples": 1.5}, {"bid_samples": -1}, {"time_budget": 0},
                   {"time_budget": "1"}, {"seed": -1}, {"seed": 1.5}):
        with pytest.raises(InvalidStateError):
            kj.SamplingBot(**kwargs)

