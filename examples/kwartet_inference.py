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

# The draw-pile game: another player's draw is unseen, so a card that lay in the pile may
# now be in their hand, while what they showed before the draw does not concern it.
k = kw.Knowledge(deck, players=3, me=0, hand="Ac Kd Qh Jc", rules=kw.Rules(draw_pile=4), dealer=2)
k.ask(asker=0, target=1, card="Ad", success=False)
k.draw(0, "Js")                                     # my own draw, after my miss
k.ask(asker=1, target=2, card="Kh", success=False)  # Kh is not with 1 or 2: it lies in the pile
print("\ndraw pile: P(pile holds Kh) =", k.probability(kw.PILE, "Kh", exact=True))
k.draw(1)                                           # player 1 draws one of the pile's 3 cards
print("after player 1's unseen draw: P(player 1 holds Kh) =", k.probability(1, "Kh", exact=True))
