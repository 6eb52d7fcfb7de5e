"""Slow, obviously-correct references that the tests cross-check the package against.

Each module is written straight from the rules, favours clarity over speed and
shares no code with the package beyond its card and deal types:

- ``klaverjas_rules``: legality, tricks, roem and scoring as plain if-chains.
- ``klaverjas_minimax``: plain minimax (no pruning) over small endgames.
- ``klaverjas_sampling``: every original deal consistent with a seat's view, by enumeration.
- ``kwartet_posterior``: the exact posterior of small Kwartet games, by enumerating deals.
- ``kwartet_novice``: the novice game, move by move, for the compiled simulator.
- ``quintet_hands``: Quintet hand evaluation from the rules.
- ``quintet_bruteforce``: exhaustive small Quintet games (2 and 3 groups).
- ``quintet_reveal``: the reveal-order variant's best responses, every split played out.
"""
