"""Build script: cythonizes ``cext/`` into the single extension ``quartet_solver._core``.

Set ``QUARTET_SOLVER_DEBUG=1`` to build with bounds checks, wrap-around and
initialisation checks turned back on, no optimisation and debug symbols (for tests).
"""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("QUARTET_SOLVER_DEBUG", "").strip() not in ("", "0", "false", "no")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}

if sys.platform == "win32":
    compile_args = ["/Od"] if DEBUG else ["/O2"]
else:
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

extensions = [
    Extension(
        "quartet_solver._core",
        sources=["cext/_core.pyx"],
        extra_compile_args=compile_args,
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["cext"],
        compile_time_env={"QS_DEBUG": DEBUG},
        force=DEBUG,
    ),
)
