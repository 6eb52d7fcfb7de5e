"""Solve a Klaverjas deal double dummy: the value of every opening lead, a
principal variation played out, a position in the middle of a trick, the DD
table with the par bidding, and the bid value of one hand from sampled deals.

Usage: python examples/klaverjas_dd.py [seed] [samples]
"""

from __future__ import annotations

import sys

from quartet_solver import klaverjas as kj


def main(seed: int, samples: int) -> None:
    deal = kj.Deal.random(seed=seed)
    print(deal.pretty())

    # the start of the hand: hearts trumps, N/S play, E leads
    st = kj.PlayState(deal, trump="h", declarer="N", leader="E")
    res = kj.solve(st)
    print(f"\nhearts, N/S playing, E to lead: N/S net {res.value:+d} "
          f"({res.nodes:,} nodes, {res.seconds * 1e3:.1f} ms)")
    for card, value in sorted(res.card_values.items(), key=lambda cv: cv[1]):
        best = "  <- best for E" if card in res.best_cards else ""
        print(f"  E leads {card}: N/S net {value:+d}{best}")

    # the principal variation is optimal play by both teams: played out, it
    # scores exactly the value
    final = st.play_all(res.pv)
    result = final.result()
    print(f"principal variation: {' '.join(map(str, res.pv[:8]))} ...")
    print(f"  played out: points N/S {final.points[0]}, E/W {final.points[1]}, "
          f"roem {final.roem}, net {result.net:+d}")
    assert result.net == res.value

    # any position can be solved, mid-trick too: after E's best lead and one
    # more card, the value is unchanged as long as both play a best card
    mid = st.play(res.pv[0]).play(res.pv[1])
    res_mid = kj.solve(mid)
    print(f"after {res.pv[0]} {res.pv[1]} ({mid.to_move} to play): net {res_mid.value:+d}, "
          f"best {' '.join(map(str, res_mid.best_cards))}")
    assert res_mid.value == res.value

    # every trump x playing team, and the bidding when everybody sees all cards
    table = kj.dd_table(deal, leader="E")
    print("\n" + table.pretty())
    p = kj.par(deal, dealer="N")
    print(f"par: {p.declarer} names {p.trump} after {' '.join(p.bids[:-1]) or 'no passes'}; "
          f"net {p.net:+d} for the playing team")

    # the bid value of E's hand: the other 24 cards dealt at random
    hand = deal.hand("E")
    bid = kj.analyse_bid(hand, seat="E", dealer="N", samples=samples, seed=seed,
                         progress=lambda done, total: print(f"\r  {done}/{total} deals",
                                                            end="", file=sys.stderr))
    print(file=sys.stderr)
    print(f"\nbid value of E's hand {hand}, {samples} sampled deals:\n{bid.pretty()}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1,
         int(sys.argv[2]) if len(sys.argv) > 2 else 200)
