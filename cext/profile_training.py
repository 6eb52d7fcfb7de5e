"""The training run of the profile-guided build (see ``setup.py``).

``python cext/profile_training.py PATH`` loads the instrumented extension at
``PATH`` and runs the work whose profile then guides the optimised build: full
Klaverjas double-dummy solves (the hot searches) of random deals under each
rule variant, with a principal variation now and then.  It needs only the
extension itself and is deterministic (fixed seeds); the values are not checked
here (the tests do that).
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys

# (deals, Rotterdam, stuk mode: 0 trick, 1 hand, 2 off) per rule variant
WORK = ((24, False, 0), (8, True, 0), (8, False, 1), (4, False, 2))


def load(path: str):
    """The extension module at ``path`` (its name from the file name: ``_core``,
    or another for the builds of benchmarks/klaverjas_ab.py)."""
    spec = importlib.util.spec_from_file_location(os.path.basename(path).split(".")[0], path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the extension at {path!r}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_hands(rng: random.Random) -> list[int]:
    """Four 8-card hands as kernel masks (bit = card index - 20)."""
    bits = list(range(32))
    rng.shuffle(bits)
    return [sum(1 << b for b in bits[8 * i : 8 * i + 8]) for i in range(4)]


def train(core) -> int:
    """Run the training solves; returns the number of nodes searched."""
    kernel = core.KlaverjasKernel(18)
    rng = random.Random(20261201)
    nodes = 0
    for deals, rotterdam, stuk in WORK:
        for d in range(deals):
            hands = random_hands(rng)
            leader, playing = rng.randrange(4), rng.randrange(2)
            for trump in range(4):
                kernel.set_limits(None, None)
                value = kernel.solve_deal(*hands, trump, leader, playing, rotterdam, stuk, 100, True)
                nodes += kernel.nodes
                if d % 4 == 0:
                    kernel.pv(value)
    return nodes


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: profile_training.py PATH-OF-THE-EXTENSION")
    print(f"profile training: {train(load(sys.argv[1])):,} nodes")
