"""What people read: Klaverjas hands, positions, par and the CLI's text output."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from quartet_solver import klaverjas as kj
from quartet_solver.cards import Card, CardSet, Decks, Rank, Suit, parse_cards
from quartet_solver.errors import IllegalActionError
from quartet_solver.klaverjas.deal import format_hand

_SUIT_ORDER = "shdc"
_HIGH_FIRST = "AKQJT987"


@settings(max_examples=200, deadline=None)
@given(st.sets(st.sampled_from(Decks.piquet().cards()), max_size=32))
def test_hands_are_grouped_by_suit_high_to_low(cards):
    text = format_hand(cards)
    assert CardSet(parse_cards(text)) == CardSet(cards) if text else not cards
    groups = text.split("  ") if text else []
    suits = [g.split()[0][1] for g in groups]
    assert suits == sorted(set(suits), key=_SUIT_ORDER.index)      # each suit once, s h d c
    for group in groups:
        ranks = [c[0] for c in group.split()]
        assert ranks == sorted(ranks, key=_HIGH_FIRST.index)
        assert len({c[1] for c in group.split()}) == 1


def test_an_illegal_card_shows_the_hand_grouped():
    st_ = kj.PlayState(kj.Deal.random(seed=3), trump="h", declarer="N", leader="E")
    try:
        st_.play("Jd")
    except IllegalActionError as exc:
        assert "(hand Ks Qs  Qh 8h  Qd Td  Jc Tc;" in str(exc)
    else:
        raise AssertionError("Jd is not in E's hand")


def test_position_text_shows_the_cards_left_and_the_trick():
    deal = kj.Deal.random(seed=3)
    state = kj.PlayState(deal, trump="h", declarer="N", leader="E").play_all("8h Kh")
    text = state.pretty({parse_cards("Jh")[0]: "!"})
    assert "E: 8h" in text and "S: Kh" in text
    assert text.splitlines()[-1] == "W to play; legal: Jh!"
    # the diagram holds exactly the cards still held, each in its seat's suit line
    shown = set()
    for symbol, ranks in re.findall(r"([♠♥♦♣]) ([AKQJT987]+)", "\n".join(text.splitlines()[1:-1])):
        shown |= {Card(Rank.parse(r), Suit.parse(symbol)) for r in ranks}
    assert shown == set().union(*(h.cards() for h in state.hands())) and len(shown) == 30


def test_par_reads_as_text():
    deal = kj.Deal.random(seed=7)
    p = kj.par(deal, dealer="N")
    text = str(p)
    assert text == p.pretty()
    first = text.splitlines()[0]
    assert first.startswith(f"par (double dummy): {p.declarer} names ") and f"net {p.net:+d}" in first
    assert p.table.pretty() in text
    assert [b for _, b in p.bids_by()] == list(p.bids)
    assert p.bids_by()[0][0] == "E"                       # the dealer's left bids first


def test_forced_bids_are_marked():
    b = kj.BiddingState("W")
    for _ in range(4):
        b = b.bid("pass")
    b = b.bid("d")
    assert b.was_forced and b.to_dict()["bids"][-1] == {"seat": "N", "bid": "d", "forced": True}
    assert not kj.BiddingState("W").bid("d").was_forced
    assert "forced" not in kj.BiddingState("W").bid("d").to_dict()["bids"][0]
    # a game where some hand is forced shows it in its text
    result = kj.play_match([kj.RandomBot(s) for s in range(4)], seed=4)
    forced = [h for h in result.hands if h.bidding.was_forced]
    assert forced and all("(forced: all four passed)" in h.pretty() for h in forced)
    assert all("forced" not in h.pretty() for h in result.hands if not h.bidding.was_forced)

