"""The project's files next to the tests (benchmarks/, cext/): their root and a
loader that imports one as a module, skipping the test when it is absent (the
tests run from an installed package without them)."""

from __future__ import annotations

import importlib.util
import os
from types import ModuleType

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def load(relpath: str, name: str) -> ModuleType:
    """The file ``relpath`` (from the project root) imported as module ``name``."""
    path = os.path.join(ROOT, relpath)
    if not os.path.exists(path):
        pytest.skip(f"{relpath} not next to the tests")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
