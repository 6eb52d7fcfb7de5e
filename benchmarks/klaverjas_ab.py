"""Paired benchmark of versions of the Klaverjas double-dummy kernel.

Builds the compiled core of each version given (a git revision, or a directory
holding a ``cext/``, e.g. ``.`` for the work tree as it is) the way ``setup.py``
builds it (``cext/build_config.py``: the same flags, profile guided with GCC
unless ``--plain``), each as a module of its own, and loads them all into one
process.  Then every full-deal solve (random deals x 4 trumps, declarer N,
leader E) is run by every version in a random order, so a shared machine's
drift and neighbours weigh on all of them alike; the values must agree solve by
solve.  Prints per version the total and median time and the nodes, with their
ratios to the first version: a kernel change of 1-2% shows here where separate
runs of ``klaverjas_dd.py`` vary by more than that.

    python benchmarks/klaverjas_ab.py HEAD .                  # the work tree against HEAD
    python benchmarks/klaverjas_ab.py HEAD~3 HEAD --deals 500 --rules rotterdam
    python benchmarks/klaverjas_ab.py HEAD . --plain --deals 50   # quick, no profile

Each version's ``KlaverjasKernel.solve_deal`` must take the arguments of this
one (a revision from before it changed cannot be built against it).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "cext"))

from build_config import compile_args, cython_directives, is_gcc, pgo_generate_args, pgo_use_args  # noqa: E402
from profile_training import load, random_hands  # noqa: E402

from quartet_solver.klaverjas import Rules  # noqa: E402
from quartet_solver.klaverjas.dd import _solve_masks  # noqa: E402

# the build script of one version, run in its own directory (a module named NAME)
SETUP = """
import json, sys
from Cython.Build import cythonize
from setuptools import Extension, setup
extra = json.loads(sys.argv.pop())
ext = Extension({name!r}, [{name!r} + ".pyx"], extra_compile_args={args!r} + extra[0],
                extra_link_args=extra[1])
setup(ext_modules=cythonize([ext], compiler_directives={directives!r},
                            compile_time_env={{"QS_DEBUG": False}}, quiet=True))
"""


def export_sources(spec: str, dest: str) -> None:
    """Copy the ``cext/`` of ``spec`` (a directory, or a git revision of this
    repository) into ``dest``."""
    if os.path.isdir(spec):
        src = os.path.join(spec, "cext")
        if not os.path.isdir(src):
            raise SystemExit(f"{spec!r} has no cext/ directory")
        shutil.copytree(src, dest)
        return
    os.makedirs(dest)
    archive = subprocess.run(["git", "-C", ROOT, "archive", spec, "cext"], capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"{spec!r} is neither a directory nor a git revision: "
                         f"{archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", dest, "--strip-components=1"], input=archive.stdout, check=True)


def build(name: str, workdir: str, plain: bool) -> str:
    """Build the core whose sources are in ``workdir/name`` (:func:`export_sources`)
    as the module ``name``; returns its path."""
    d = os.path.join(workdir, name)
    os.rename(os.path.join(d, "_core.pyx"), os.path.join(d, name + ".pyx"))
    with open(os.path.join(d, "setup.py"), "w", encoding="utf-8") as f:
        f.write(SETUP.format(name=name, args=compile_args(debug=False),
                             directives=cython_directives(debug=False)))

    def built() -> list[str]:
        return [p for ext in ("so", "pyd") for p in glob.glob(os.path.join(d, f"{name}.*.{ext}"))]

    def compile_with(cflags: list[str], lflags: list[str]) -> str:
        for old in built():
            os.remove(old)
        out = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "--force",
                              json.dumps([cflags, lflags])], cwd=d, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"the build of {name} failed:\n{out.stdout}\n{out.stderr}")
        return built()[0]

    cc = os.environ.get("CC", "gcc").split()
    if plain or sys.platform == "win32" or not is_gcc(cc):
        return compile_with([], [])
    prof = os.path.join(d, "profile")
    path = compile_with(*pgo_generate_args(prof))
    subprocess.run([sys.executable, os.path.join(ROOT, "cext", "profile_training.py"), path], check=True,
                   stdout=subprocess.DEVNULL)
    return compile_with(pgo_use_args(prof), [])


def build_kernels(versions: list[str], work: str, plain: bool, tt_bits: int, prefix: str = "kj_ab") -> list:
    """A ``KlaverjasKernel(tt_bits)`` of each version (a git revision or a
    directory with a ``cext/``), each built in ``work`` as a module of its own
    (:func:`export_sources`, :func:`build`)."""
    names = [f"{prefix}{i}" for i in range(len(versions))]
    for spec, name in zip(versions, names):
        export_sources(spec, os.path.join(work, name))      # every version found first
    kernels = []
    for spec, name in zip(versions, names):
        t0 = time.perf_counter()
        module = load(build(name, work, plain))
        print(f"built {spec} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        kernels.append(module.KlaverjasKernel(tt_bits))
    return kernels


def compare(kernels: list, deals: int, seed: int, rules: Rules) -> list[dict]:
    """Time every solve with every kernel (random order per solve); the values
    must agree.  Per kernel: its times (s) and total nodes."""
    rng = random.Random(seed)
    cases = [(random_hands(rng), trump) for _ in range(deals) for trump in range(4)]
    out = [{"times": [], "nodes": 0} for _ in kernels]
    order = list(range(len(kernels)))
    for hands, trump in cases:
        rng.shuffle(order)
        values = {}
        for i in order:
            t0 = time.perf_counter()
            values[i] = _solve_masks(kernels[i], tuple(hands), trump, 0, 1, rules)
            out[i]["times"].append(time.perf_counter() - t0)
            out[i]["nodes"] += kernels[i].nodes
        if len(set(values.values())) != 1:
            raise SystemExit(f"the versions disagree on hands {hands}, trump {trump}: {values}")
    return out


def version_arguments(ap: argparse.ArgumentParser, deals: int, deals_help: str, seed: int) -> None:
    """The arguments of a comparison of built versions (this benchmark and
    ``klaverjas_identity.py``): the versions, ``--deals``, ``--seed``,
    ``--plain``, ``--tt-bits``."""
    ap.add_argument("versions", nargs="+", help="git revisions or directories with a cext/ (at least two)")
    ap.add_argument("--deals", type=int, default=deals, help=deals_help)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--plain", action="store_true", help="no profile-guided build (faster to build)")
    ap.add_argument("--tt-bits", type=int, default=18)


def parse_versions(ap: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The parsed arguments (:func:`version_arguments`), refused before any
    build when there are fewer than two versions or no deals."""
    args = ap.parse_args(argv)
    if len(args.versions) < 2:
        ap.error("give at least two versions")
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    return args


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    version_arguments(ap, 300, "random deals, each solved for 4 trumps", 5)
    ap.add_argument("--rules", choices=["amsterdam", "rotterdam"], default="amsterdam")
    ap.add_argument("--stuk", choices=["trick", "hand", "off"], default=None, help="default: the preset's")
    args = parse_versions(ap, argv)
    rules = Rules.named(args.rules)
    if args.stuk is not None:
        rules = rules.with_options(stuk=args.stuk)
    with tempfile.TemporaryDirectory(prefix="quartet-solver-ab-") as work:
        kernels = build_kernels(args.versions, work, args.plain, args.tt_bits)
        res = compare(kernels, args.deals, args.seed, rules)
    base = res[0]
    total0, med0 = sum(base["times"]), statistics.median(base["times"])
    print(f"{args.deals * 4} solves ({args.deals} deals x 4 trumps), {args.rules}, stuk {rules.stuk}, "
          f"{'plain' if args.plain else 'profile-guided where GCC'} builds, values equal in every solve")
    print(f"{'version':<24}{'total s':>9}{'ratio':>8}{'median ms':>11}{'ratio':>8}{'nodes':>13}{'ratio':>8}")
    for spec, r in zip(args.versions, res):
        total, med = sum(r["times"]), statistics.median(r["times"])
        print(f"{spec[:23]:<24}{total:9.3f}{total / total0:8.3f}{med * 1e3:11.3f}{med / med0:8.3f}"
              f"{r['nodes']:13d}{r['nodes'] / base['nodes']:8.3f}")


if __name__ == "__main__":
    main()
