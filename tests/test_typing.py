"""The package's type hints hold: mypy (configured in pyproject.toml) finds no
error in ``quartet_solver``, which ships a ``py.typed`` marker, so users' own
type checks read these hints."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_mypy_finds_no_error():
    pytest.importorskip("mypy")
    res = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Success: no issues found" in res.stdout
