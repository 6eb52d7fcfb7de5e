"""Identity check of versions of the Klaverjas double-dummy kernel: for a
change that must not change the search (a refactoring, a rename, a split of
files), every version must give the same values and search the same nodes.

Builds the compiled core of each version given (a git revision, or a directory
holding a ``cext/``, e.g. ``.``) as ``benchmarks/klaverjas_ab.py`` does, loads
them all into one process, and runs one fixed list of searches with each:

- full deals under every rule variant (Amsterdam and Rotterdam, stuk per
  trick, per hand and off, a tie nat or not): the value, the nodes and the
  nodes of each phase (``solve_deal``), and for some deals each first card's
  value (``move_values``) and a principal variation;
- positions from random play, between tricks and within a trick, from the
  first trick to the last (endgames): the value, every card's value, whether
  the hand is made (``reaches``), a principal variation, and their nodes;
- the same positions again with each test hook of the kernel moved (dead low
  cards in the table key at every depth, no plain trick search, roem-game
  tests down to two tricks left, no twin table), which reach code that the
  defaults reach rarely.

Every result of every version must equal the first version's, in the same
order (the tables carry over between searches as they do in a solve, so a
node count that differs anywhere shows up).  Prints the number of searches
compared and exits non-zero at the first difference.

    python benchmarks/klaverjas_identity.py 20738e3 .          # before and after a refactoring
    python benchmarks/klaverjas_identity.py HEAD . --plain --deals 10   # quick
    QUARTET_SOLVER_PORTABLE=1 python benchmarks/klaverjas_identity.py HEAD . --plain  # no pext

Each version's ``KlaverjasKernel`` must have this one's Python methods.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from typing import Any, Iterator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from klaverjas_ab import build_kernels, parse_versions, version_arguments  # noqa: E402
from profile_training import random_hands  # noqa: E402

from quartet_solver.cards import CardSet  # noqa: E402
from quartet_solver.klaverjas import Deal, PlayState, Rules  # noqa: E402
from quartet_solver.klaverjas.dd import _load, _solve_masks  # noqa: E402

# every rule variant the kernel distinguishes
VARIANTS = [Rules.named(v).with_options(stuk=s, tie_is_nat=t)
            for v in ("amsterdam", "rotterdam") for s in ("trick", "hand", "off") for t in (True, False)]

# the kernel's test hooks: (setter, value moved to, default)
HOOKS = [("set_key_tricks", 1, 5), ("set_plain_tricks", 2, 5), ("set_roem_test_tricks", 2, 3),
         ("set_twins", False, True)]


def positions(rng: random.Random, count: int, rules: Rules) -> list[PlayState]:
    """``count`` positions of random play under ``rules``: the cards played
    so far spread from one to 31 (within and between tricks)."""
    out = []
    for i in range(count):
        st = PlayState(Deal.random(seed=rng.randrange(1 << 30)), trump="cdhs"[i % 4], declarer=i % 4,
                       leader=rng.randrange(4), rules=rules)
        for _ in range(1 + (i * 7) % 31):
            st = st.play(rng.choice(st.legal_cards()))
        out.append(st)
    return out


def searches(kernel: Any, deals: int, seed: int) -> Iterator[tuple[str, Any]]:
    """The fixed list of searches, each result with a label (run on one
    kernel; the same sequence for every version)."""
    rng = random.Random(seed)
    for rules in VARIANTS:
        for d in range(deals):
            hands = tuple(random_hands(rng))
            leader = rng.randrange(4)
            for trump in range(4):
                value = _solve_masks(kernel, hands, trump, d % 4, leader, rules)
                yield f"deal {rules} {hands} {trump}", (value, kernel.nodes, kernel.phase_nodes)
                if d % 5 == 0:
                    yield f"deal pv {rules} {hands} {trump}", kernel.pv(value)
                    deal = Deal.from_hands(*(CardSet.from_mask(h << 20) for h in hands))
                    _load(kernel, PlayState(deal, trump="cdhs"[trump], declarer=d % 4, leader=leader,
                                            rules=rules))
                    kernel.set_limits(None, None)
                    yield f"deal cards {rules} {hands} {trump}", (kernel.move_values(), kernel.nodes)
        for st in positions(rng, max(4, deals), rules):
            yield from position_searches(kernel, st, f"{rules} {st!r}")
    # the test hooks, each moved on the positions of two variants
    for name, moved, default in HOOKS:
        getattr(kernel, name)(moved)
        try:
            for rules in (VARIANTS[0], VARIANTS[8]):
                for st in positions(rng, max(4, deals // 2), rules):
                    yield from position_searches(kernel, st, f"{name} {rules} {st!r}")
        finally:
            getattr(kernel, name)(default)


def position_searches(kernel: Any, st: PlayState, label: str) -> Iterator[tuple[str, Any]]:
    """The value, the made test, every card's value and a principal variation
    of the position ``st``, with their nodes."""
    _load(kernel, st)
    kernel.set_limits(None, None)
    yield "bounds " + label, kernel.trivial_bounds()
    made = kernel.reaches(0)
    yield "made " + label, (made, kernel.nodes)
    value = kernel.value()
    yield "value " + label, (value, kernel.nodes, kernel.phase_nodes)
    yield "pv " + label, kernel.pv(value)
    _load(kernel, st)
    kernel.set_limits(None, None)
    yield "cards " + label, (kernel.move_values(), kernel.nodes)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    version_arguments(ap, 20, "random deals per rule variant, each solved for 4 trumps (and as many positions)",
                      11)
    args = parse_versions(ap, argv)
    with tempfile.TemporaryDirectory(prefix="quartet-solver-identity-") as work:
        kernels = build_kernels(args.versions, work, args.plain, args.tt_bits, prefix="kj_id")
        runs = [searches(k, args.deals, args.seed) for k in kernels]
        count = nodes = 0
        for results in zip(*runs):
            (label, first), others = results[0], results[1:]
            for spec, (other_label, other) in zip(args.versions[1:], others):
                if other_label != label or other != first:
                    raise SystemExit(f"{args.versions[0]} and {spec} differ at {label}:\n"
                                     f"  {first!r}\n  {other!r}")
            count += 1
            if isinstance(first, tuple) and len(first) >= 2 and isinstance(first[1], int):
                nodes += first[1]
    print(f"{count} searches ({len(VARIANTS)} rule variants, {args.deals} deals x 4 trumps each, "
          f"positions of random play, {len(HOOKS)} test hooks), {nodes:,} nodes: "
          f"every value, card value, line and node count equal in {len(args.versions)} versions")


if __name__ == "__main__":
    main()
