"""The Sphinx documentation builds without warnings, with its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
FIGURES = ("klaverjas_deal.svg", "klaverjas_bid.svg", "quintet_equilibrium.svg", "kwartet_probabilities.svg")


def test_sphinx_build_is_clean(tmp_path):
    for module in ("sphinx", "myst_parser", "furo", "matplotlib"):
        pytest.importorskip(module)
    if not (DOCS / "conf.py").exists():
        pytest.skip("docs/ not next to the tests")
    out = tmp_path / "html"
    result = subprocess.run(
        # -W: a warning fails the build; -E: read every page, whatever a previous build left
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html", str(DOCS), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,  # keep the source tree (no compiled core) off sys.path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for page in ("index", "tutorial", "guides/klaverjas_bid", "rules/klaverjas", "benchmarks"):
        assert (out / f"{page}.html").exists(), page
    # the figures are drawn from the library by docs/_ext/figures.py and embedded
    images = {p.name for p in (out / "_images").iterdir()}
    assert set(FIGURES) <= images, sorted(images)
    assert "klaverjas_bid.svg" in (out / "guides" / "klaverjas_bid.html").read_text(encoding="utf-8")
