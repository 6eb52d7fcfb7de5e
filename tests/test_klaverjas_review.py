"""``klaverjas.review``: the double-dummy review of a played hand.

The review identity (final net = DD value at the start - the playing team's
losses + the other team's) on many random hands, the per-card properties,
cross-checks against fresh solves and the plain minimax of
tests/reference/klaverjas_minimax.py, the JSON round trip of the input, bad input and
the ``klaverjas review`` command.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.klaverjas_minimax import minimax

from quartet_solver import klaverjas as kj
from quartet_solver.errors import InvalidStateError, NotationError, QuartetError, SolverError
from quartet_solver.klaverjas.dd import solve

RULES = [kj.Rules.named(name).with_options(stuk=stuk)
         for name in ("amsterdam", "rotterdam") for stuk in ("trick", "hand", "off")]
RULE_IDS = [f"{r.variant}-{r.stuk}" for r in RULES]


def _bots(kind: str, seed: int) -> list:
    if kind == "rule":
        return [kj.RuleBot()] * 4
    if kind == "random":
        return [kj.RandomBot(seed * 4 + i) for i in range(4)]
    return [kj.RuleBot(), kj.RandomBot(seed), kj.RuleBot(), kj.RandomBot(seed + 1)]  # mixed


def _hand(seed: int, kind: str = "rule", rules: kj.Rules = kj.Rules.AMSTERDAM, dealer: int = 0,
          number: int = 1) -> kj.HandRecord:
    return kj.play_hand(_bots(kind, seed), kj.Deal.random(seed=f"review:{seed}"), dealer, rules=rules, number=number)


def _check_review(record: kj.HandRecord, rv: kj.HandReview) -> None:
    """Every property a review must have."""
    final = record.state
    playing = final.playing_team
    assert rv.record == record
    assert len(rv.cards) == 32
    assert [(c.seat, c.card) for c in rv.cards] == list(final.history)
    # the review identity
    assert rv.final_net == record.result.net == final.result().net
    assert rv.final_net == rv.start_value - rv.team_losses[playing] + rv.team_losses[1 - playing]
    assert rv.team_loss(playing) == rv.team_losses[playing]
    assert rv.team_losses == (rv.seat_losses[0] + rv.seat_losses[2], rv.seat_losses[1] + rv.seat_losses[3])
    assert rv.start_value == rv.cards[0].value_before
    # the bidding: the DD value of the contract bid is its entry in par's DD table
    assert rv.start_value == rv.par.table.net(final.trump, playing)
    per_seat = [0, 0, 0, 0]
    for i, c in enumerate(rv.cards):
        assert c.trick == i // 4 + 1
        assert c.playing == (kj.SEATS.index(c.seat) % 2 == playing)
        values = dict(c.card_values)
        assert values[c.card] == c.value_after
        best = max(values.values()) if c.playing else min(values.values())
        assert c.value_before == best
        assert set(c.best_cards) == {card for card, v in values.items() if v == best}
        assert c.loss >= 0
        assert c.loss == (c.value_before - c.value_after if c.playing else c.value_after - c.value_before)
        assert (c.loss == 0) == (c.card in c.best_cards)
        nxt = rv.cards[i + 1].value_before if i < 31 else rv.final_net
        assert c.value_after == nxt            # the same position, solved twice
        per_seat[kj.SEATS.index(c.seat)] += c.loss
    assert rv.seat_losses == tuple(per_seat)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["rule", "random", "mixed"]),
       rules=st.sampled_from(RULES), dealer=st.integers(0, 3))
def test_review_identity_on_random_hands(seed, kind, rules, dealer):
    record = _hand(seed, kind, rules, dealer)
    _check_review(record, kj.review(record))


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_value_after_matches_a_fresh_solve(rules):
    """The value after a card, read from the solve before it, is the value of
    a separate solve of the position after it (another table size, so no
    shared table entries)."""
    record = _hand(11, "random", rules, dealer=2)
    rv = kj.review(record)
    state = kj.PlayState(record.state.deal, record.state.trump, record.state.declarer, record.state.leader,
                         rules=rules)
    for i, c in enumerate(rv.cards[:-1]):
        state = state.play(c.card)
        if i % 3 == 0:
            assert solve(state, pv=False, tt_bits=12).value == c.value_after


@pytest.mark.parametrize("seed", range(8))
def test_endgame_values_match_minimax(seed):
    """With three tricks left, the review's values are the plain minimax's."""
    rules = RULES[seed % len(RULES)]
    record = _hand(seed, ["rule", "random", "mixed"][seed % 3], rules, dealer=seed % 4)
    rv = kj.review(record)
    state = kj.PlayState(record.state.deal, record.state.trump, record.state.declarer, record.state.leader,
                         rules=rules).play_all([c for _, c in record.state.history[:20]])
    assert len(state.tricks) == 5
    for c in rv.cards[20:24]:                   # the lead of trick 6 and the three cards after it
        assert c.value_before == minimax(state)
        state = state.play(c.card)
    assert rv.cards[23].value_after == minimax(state)


def test_json_round_trip_of_the_input():
    for seed, kind, rules in ((1, "rule", RULES[0]), (2, "random", RULES[4]), (3, "mixed", RULES[2])):
        record = _hand(seed, kind, rules, dealer=seed % 4, number=seed + 4)
        rv = kj.review(record)
        data = json.loads(json.dumps(record.to_dict()))
        assert kj.review(kj.HandRecord.from_dict(data)) == rv
        assert kj.review(data) == rv
        out = json.loads(json.dumps(rv.to_dict()))
        assert out["analysis"].startswith("double-dummy")
        assert out["number"] == seed + 4 and out["final_net"] == record.result.net
        assert out["start_value"] == rv.start_value and len(out["cards"]) == 32
        assert out["losses"]["teams"] == dict(zip(("NS", "EW"), rv.team_losses))
        assert out["bidding"]["par"]["net"] == rv.par.net
        assert [c["loss"] for c in out["cards"]] == [c.loss for c in rv.cards]


def test_reviews_of_a_match():
    result = kj.play_match([kj.RuleBot()] * 4, seed=5, hands=3)
    for record in result.hands:
        _check_review(record, kj.review(record))


def test_pretty_marks_every_loss():
    record = _hand(4, "random", RULES[1], dealer=1)
    rv = kj.review(record)
    text = rv.pretty()
    lines = text.splitlines()
    assert lines[0].startswith("Double-dummy review (every hand seen) of hand 1")
    trick_lines = [ln for ln in lines if ln[:5].strip()[:-1].isdigit() and ln.strip()[1] == "."]
    assert len(trick_lines) == 8
    assert sum(ln.count("; best ") for ln in trick_lines) == sum(1 for c in rv.cards if c.loss > 0)
    for c in rv.cards:
        if c.loss > 0:
            assert f"{c.seat}:{c.card} (-{c.loss}; best " in text
    assert "par (double dummy)" in text and f"final net {rv.final_net:+d}" in text
    assert str(rv) == text


def test_results_are_frozen():
    rv = kj.review(_hand(6))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rv.start_value = 0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rv.cards[0].loss = 5  # type: ignore[misc]
    assert rv.seat_loss("N") == rv.seat_losses[0] and rv.team_loss("ew") == rv.team_losses[1]
    with pytest.raises(InvalidStateError):
        rv.team_loss("NE")


@pytest.mark.parametrize("bad", ["hand.json", None, 42, [1, 2], b"{}", 3.5])
def test_bad_input_types(bad):
    with pytest.raises(InvalidStateError, match="HandRecord"):
        kj.review(bad)


def test_bad_mappings():
    data = _hand(7).to_dict()
    with pytest.raises(InvalidStateError, match="result"):
        kj.review({**data, "result": {**data["result"], "scores": [162, 0]}})
    with pytest.raises(InvalidStateError, match="missing"):
        kj.review({k: v for k, v in data.items() if k != "tricks"})
    bad_card = json.loads(json.dumps(data))
    bad_card["tricks"][0]["cards"][0] = "Xh"
    with pytest.raises(NotationError):
        kj.review(bad_card)
    swapped = json.loads(json.dumps(data))
    t = swapped["tricks"]
    t[0]["cards"][0], t[7]["cards"][3] = t[7]["cards"][3], t[0]["cards"][0]
    with pytest.raises(QuartetError):           # an illegal or foreign card, or a wrong trick claim
        kj.review(swapped)
    short = json.loads(json.dumps(data))
    short["tricks"] = short["tricks"][:7]
    with pytest.raises(InvalidStateError):
        kj.review(short)


def test_node_limit():
    record = _hand(8)
    assert kj.review(record, node_limit=10**9) == kj.review(record)
    with pytest.raises(SolverError, match="node limit"):
        kj.review(record, node_limit=1)
    for bad in (0, -3, "many", 2.5):
        with pytest.raises(InvalidStateError, match="node_limit"):
            kj.review(record, node_limit=bad)


# -- the command --------------------------------------------------------------------------

