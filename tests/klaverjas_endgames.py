"""Klaverjas endgames for the double-dummy tests: random and close positions
(2-4 tricks left, often mid-trick) from random play of random deals, a
biased player that makes one team win tricks so that pit and close scores
(nat) are common, and the rule sets the tests run under."""

from __future__ import annotations

import random


from reference.klaverjas_minimax import card_values as ref_card_values
from quartet_solver.klaverjas import Deal, PlayState, Rules
from quartet_solver.klaverjas.dd import DDResult, solve
from quartet_solver.klaverjas.rules import card_power

RULESETS = [
    Rules.AMSTERDAM,
    Rules.ROTTERDAM,
    Rules.AMSTERDAM.with_options(stuk="hand"),
    Rules.ROTTERDAM.with_options(stuk="hand"),
    Rules.AMSTERDAM.with_options(stuk="off"),
    Rules.ROTTERDAM.with_options(stuk="off", tie_is_nat=False),
    Rules.AMSTERDAM.with_options(tie_is_nat=False),
    Rules.AMSTERDAM.with_options(pit=0),
    Rules.ROTTERDAM.with_options(pit=37, stuk="hand", tie_is_nat=False),
]


def biased_play(state: PlayState, rng: random.Random, favour: int, bias: float) -> PlayState:
    """Play one card: with probability ``bias`` the team ``favour`` plays its
    strongest card and the other team its weakest, else a random legal card."""
    legal = state.legal_cards()
    if rng.random() < bias:
        led = state.trick[0].suit if state.trick else None
        key = lambda c: card_power(c, state.trump, led if led is not None else c.suit)  # noqa: E731
        pick = max(legal, key=key) if state.to_move_index % 2 == favour else min(legal, key=key)
    else:
        pick = rng.choice(legal)
    return state.play(pick)


def random_endgame(rng: random.Random, tricks_left: int, extra: int, rules: Rules, bias: float) -> PlayState:
    deal = Deal.random(seed=rng.randrange(1 << 30))
    st = PlayState(deal, trump=rng.choice("cdhs"), declarer=rng.randrange(4), leader=rng.randrange(4), rules=rules)
    favour = rng.randrange(2)
    for _ in range(4 * (8 - tricks_left) + extra):
        st = biased_play(st, rng, favour, bias)
    return st


def close_endgame(rng: random.Random, tricks_left: int, extra: int, rules: Rules) -> PlayState:
    """A random endgame where the playing team's lead is small (nat matters)."""
    best = None
    for _ in range(12):
        st = random_endgame(rng, tricks_left, extra, rules, bias=rng.choice([0.0, 0.3]))
        p = st.playing_team
        gap = abs(st.points[p] - st.points[1 - p])
        if best is None or gap < best[0]:
            best = (gap, st)
    return best[1]


def check(st: PlayState) -> DDResult:
    res = solve(st)
    ref = ref_card_values(st)
    assert res.exact
    assert res.card_values == ref, repr(st)
    maxi = st.to_move_index % 2 == st.playing_team
    assert res.value == (max(ref.values()) if maxi else min(ref.values()))
    assert set(res.best_cards) == {c for c, v in ref.items() if v == res.value}
    # the principal variation is legal and reaches the value
    end = st.play_all(res.pv)
    assert end.is_over and end.result().net == res.value, repr(st)
    return res
