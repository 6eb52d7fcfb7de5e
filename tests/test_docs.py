"""The Sphinx documentation builds without warnings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_sphinx_build_is_clean(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    if not (DOCS / "conf.py").exists():
        pytest.skip("docs/ not next to the tests")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,  # keep the source tree (no compiled core) off sys.path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "index.html").exists()
