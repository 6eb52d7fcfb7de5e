"""The build settings (cext/build_config.py, shared by setup.py) and the paired
kernel benchmark that builds versions of the core with them
(benchmarks/klaverjas_ab.py)."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
import tempfile

import pytest

from project_files import ROOT, load

AB = os.path.join(ROOT, "benchmarks", "klaverjas_ab.py")
IDENTITY = os.path.join(ROOT, "benchmarks", "klaverjas_identity.py")


def _build_config():
    return load(os.path.join("cext", "build_config.py"), "build_config")


def test_build_config(monkeypatch):
    bc = _build_config()
    assert doctest.testmod(bc).failed == 0
    debug, fast = bc.compile_args(debug=True), bc.compile_args(debug=False)
    if sys.platform != "win32":
        # the tests' build turns what GCC 14 rejects into errors everywhere
        assert "-Werror=incompatible-pointer-types" in debug and "-O0" in debug
        assert not any(a.startswith("-Werror") for a in fast) and "-O3" in fast
        assert bc.pgo_use_args("/p")[0] == "-fprofile-use=/p"
    assert bc.cython_directives(debug=False)["boundscheck"] is False
    monkeypatch.setenv("QUARTET_SOLVER_PORTABLE", "1")
    assert bc.bit_instruction_args() == []


def _ab(*args: str, script: str = AB) -> subprocess.CompletedProcess:
    if not os.path.exists(script):
        pytest.skip("benchmarks/ not next to the tests")
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=900,
                          cwd=tempfile.gettempdir())


def test_ab_refuses_bad_arguments():
    """Argument errors come before any build."""
    out = _ab(ROOT)
    assert out.returncode == 2 and "at least two versions" in out.stderr
    out = _ab(ROOT, ROOT, "--deals", "0")
    assert out.returncode == 2 and "--deals" in out.stderr
    out = _ab(ROOT, "no-such-revision-xyz")
    assert out.returncode != 0 and "neither a directory nor a git revision" in out.stderr


def test_identity_refuses_bad_arguments():
    """The identity check (benchmarks/klaverjas_identity.py) shares the paired
    benchmark's builds; its argument errors come before any build too."""
    out = _ab(ROOT, script=IDENTITY)
    assert out.returncode == 2 and "at least two versions" in out.stderr
    out = _ab(ROOT, "no-such-revision-xyz", script=IDENTITY)
    assert out.returncode != 0 and "neither a directory nor a git revision" in out.stderr


@pytest.mark.slow
def test_identity_builds_and_compares():
    """Two builds of this tree (plain) give the same values and node counts."""
    pytest.importorskip("Cython")
    out = _ab(ROOT, ROOT, "--plain", "--deals", "1", script=IDENTITY)
    assert out.returncode == 0, out.stderr
    assert "equal in 2 versions" in out.stdout


@pytest.mark.slow
def test_ab_builds_and_compares():
    """Two builds of this tree (plain, to be quick) agree solve by solve and
    search the same nodes."""
    pytest.importorskip("Cython")
    out = _ab(ROOT, ROOT, "--plain", "--deals", "2")
    assert out.returncode == 0, out.stderr
    assert "8 solves (2 deals x 4 trumps)" in out.stdout and "values equal in every solve" in out.stdout
    rows = [line.split() for line in out.stdout.splitlines()[2:]]
    assert len(rows) == 2 and rows[0][5] == rows[1][5] and rows[1][6] == "1.000"


def test_import_without_a_build_says_so():
    """The package's Python files without the compiled core (a source checkout
    before any build) fail to import with a message that says what to do, not
    with Python's "circular import" hint.  ``-S``: no site packages, so an
    editable install's import hook does not find the built package instead."""
    import quartet_solver

    source = os.path.dirname(quartet_solver.__file__)
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "quartet_solver")
        for folder, _, files in os.walk(source):
            out = os.path.join(target, os.path.relpath(folder, source))
            os.makedirs(out, exist_ok=True)
            for name in files:
                if name.endswith(".py"):
                    with open(os.path.join(folder, name), "rb") as f, open(os.path.join(out, name), "wb") as g:
                        g.write(f.read())
        proc = subprocess.run([sys.executable, "-S", "-c", "import quartet_solver.klaverjas"], cwd=tmp,
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": tmp})
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: quartet_solver's compiled core (quartet_solver._core) is missing")
    assert "pip install" in last and "circular" not in proc.stderr
