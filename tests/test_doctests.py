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


DOCS = Path(__file__).resolve().parent.parent / "docs"
# every page of the docs, in subfolders too (guides/, rules/), but not the build's own folders (_build, ...)
PAGES = sorted(
    p.relative_to(DOCS).as_posix()
    for p in DOCS.rglob("*.md")
    if not any(part.startswith(("_", ".")) for part in p.relative_to(DOCS).parts)
)
RUNNABLE = ("tutorial.md", "guides/", "rules/")  # pages whose code is the point: they must have some


@pytest.mark.parametrize("page", PAGES)
def test_docs_page_doctests(page):
    result = doctest.testfile(str(DOCS / page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
    if page.startswith(RUNNABLE):
        assert result.attempted > 0, f"{page} has no doctest"
