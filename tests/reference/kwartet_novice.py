"""Slow reference of the compiled novice-game simulator (``_core.kw_play_novice``).

The compiled simulator plays whole games between NoviceBots with its own
random stream (splitmix64).  This reference draws the same random numbers in
the same order, but plays every game on the rules engine
(:class:`quartet_solver.kwartet.Game`): the engine deals the hands, lays the
quartets, passes the turns (bonus turns included) and ends the game, so any
difference from the compiled games is a rules difference, not a difference of
chance.

Per game, in the order the compiled simulator uses them:

* the deal: a Fisher-Yates shuffle of the card indices (``j = r % (i + 1)`` for
  ``i`` from the top down), then cards dealt one at a time from seat 0 (left of
  the dealer, the last seat); the remainder to the pile or to the dealer;
* each ask: ``r % (number of opponents holding cards)`` picks the target among
  them in seat order, then ``r % (number of askable cards)`` the card among the
  askable ones by index.
"""

from __future__ import annotations

from quartet_solver.kwartet import Deck, Game, Laid, Rules

MASK64 = (1 << 64) - 1


class SplitMix64:
    """The splitmix64 generator (Steele, Lea and Flood), 64-bit outputs."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def novice_game(n_quartets: int, players: int, to_dealer: bool, bonus: bool, seed: int, g: int,
                max_asks: int) -> tuple[list[int], list[int], int]:
    """Game ``g`` of ``kw_play_novice(n_quartets, players, to_dealer, bonus, ..., seed,
    max_asks)`` played on the engine: (quartets per seat, the lay number of each
    seat's last quartet or -1, asks or -1 when stopped at ``max_asks``)."""
    rng = SplitMix64(seed * 0x100000001B3 + g * 0x9E3779B97F4A7C15 + 1)
    n = 4 * n_quartets
    deck_order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng.next() % (i + 1)
        deck_order[i], deck_order[j] = deck_order[j], deck_order[i]
    dealer = players - 1
    each = n // players
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(each * players):
        hands[(dealer + 1 + i) % players].append(deck_order[i])
    rest = deck_order[each * players:]
    pile: list[int] = []
    if to_dealer:
        hands[dealer] += rest
    else:
        pile = rest
    deck = Deck.standard("23456789TJQKA"[:n_quartets])
    rules = Rules(remainder="dealer" if to_dealer else "pile", bonus_turn=bonus)
    game = Game(deck, players=players, rules=rules, dealer=dealer,
                hands=[[deck.card_name(c) for c in h] for h in hands],
                pile=[deck.card_name(c) for c in pile])
    while not game.is_over:
        if game.asks >= max_asks:
            break
        targets = game.targets()
        target = targets[rng.next() % len(targets)]
        mask = game.askable_mask()
        askable = [c for c in range(n) if mask >> c & 1]
        game.ask(target, askable[rng.next() % len(askable)])
    laid = [-1] * players
    lays = [e for e in game.log if isinstance(e, Laid)]
    for k, e in enumerate(lays):
        laid[e.player] = k
    asks = game.asks if game.is_over else -1
    return list(game.quartets), laid, asks
