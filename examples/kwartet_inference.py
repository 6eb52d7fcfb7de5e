"""Exact inference in Kwartet: what player 0 knows after some asks.

Run: python examples/kwartet_inference.py
"""

from quartet_solver import kwartet as kw

deck = kw.Deck.standard(ranks="AKQJ")
k = kw.Knowledge(deck, players=3, me=0, hand="Ac Ad Qc Jc Js", dealer=0)
print(f"consistent deals after the deal: {k.count()}")
k.ask(asker=1, target=2, card="Ks", success=True)   # player 1 holds a king, got Ks from 2
k.lay(player=1, quartet="K")                        # ... and lays the kings at once
k.ask(asker=1, target=0, card="Ah", success=False)  # player 1 holds an ace, not Ah
print(k.pretty())
print("certain:", {loc: deck.format(m) for loc, m in k.certain().items()})
print("exact P(pile holds Ah) =", k.probability(kw.PILE, "Ah", exact=True))
