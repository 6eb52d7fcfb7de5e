"""Sphinx configuration for quartet_solver."""

import sys
from pathlib import Path

import quartet_solver

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "quartet_solver"
author = "quartet_solver contributors"
copyright = "quartet_solver contributors"
release = quartet_solver.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "myst_parser",
    "figures",  # _ext/figures.py: the figures, drawn from the library at build time
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_generated"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"
nitpicky = False
# the games share class names (Deal, Rules): unqualified type hints are ambiguous
suppress_warnings = ["myst.header", "ref.python"]

html_theme = "furo"
html_title = f"quartet_solver {release}"
html_theme_options = {
    "light_css_variables": {"color-brand-primary": "#2f6fb0", "color-brand-content": "#2f6fb0"},
    "dark_css_variables": {"color-brand-primary": "#7fb0e6", "color-brand-content": "#7fb0e6"},
}
html_static_path = ["_static"]
html_css_files = ["custom.css"]
pygments_style = "default"
pygments_dark_style = "monokai"
