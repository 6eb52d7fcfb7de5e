"""Run the doctests of every module of the installed package and of the README."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import quartet_solver

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(quartet_solver.__path__, "quartet_solver.")
    if not name.endswith("__main__")
)


@pytest.mark.parametrize("name", ["quartet_solver", *MODULES])
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    assert result.failed == 0


def test_readme_doctests():
    readme = Path(__file__).resolve().parent.parent / "README.md"
    if not readme.exists():
        pytest.skip("README.md not next to the tests")
    result = doctest.testfile(str(readme), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
    assert result.attempted > 0


@pytest.mark.parametrize("page", sorted(p.name for p in (Path(__file__).resolve().parent.parent / "docs").glob("*.md")))
def test_docs_page_doctests(page):
    path = Path(__file__).resolve().parent.parent / "docs" / page
    result = doctest.testfile(str(path), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
