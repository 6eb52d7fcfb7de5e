"""Sphinx configuration for quartet_solver."""

import quartet_solver

project = "quartet_solver"
author = "quartet_solver contributors"
release = quartet_solver.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
nitpicky = False
html_theme = "alabaster"
# the games share class names (Deal, Rules): unqualified type hints are ambiguous
suppress_warnings = ["myst.header", "ref.python"]
