"""Build script: cythonizes ``cext/`` into the single extension ``quartet_solver._core``.

Set ``QUARTET_SOLVER_DEBUG=1`` to build with bounds checks, wrap-around and
initialisation checks turned back on, no optimisation and debug symbols (for tests).

On an x86-64 Linux machine whose processor has the BMI1, BMI2 and POPCNT
instructions, and runs BMI2's ``pext`` fast (Intel; AMD from Zen 3), the build
uses them (the kernels gather bits with ``pext`` and count them with ``popcnt``).
The build is for the machine it runs on: set ``QUARTET_SOLVER_PORTABLE=1`` to
leave them out, e.g. to build a wheel for other machines.

With GCC the build is profile guided: it compiles the extension instrumented,
runs ``cext/profile_training.py`` on it (a few seconds of Klaverjas solves) and
compiles it again with that profile (the solver's searches run 6-8% faster;
code the training does not run is optimised as without a profile).  Set
``QUARTET_SOLVER_PGO=0`` for a single plain compile.  If a step fails (another
compiler, an old GCC), the build says so and falls back to the plain compile.

The flags live in ``cext/build_config.py``, which the paired benchmark
``benchmarks/klaverjas_ab.py`` shares to build versions of the core side by side.
"""

import os
import subprocess
import sys
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "cext"))

from build_config import (compile_args, cython_directives, flag, is_gcc,  # noqa: E402
                          pgo_generate_args, pgo_use_args)

DEBUG = flag("QUARTET_SOLVER_DEBUG")
PGO = not DEBUG and flag("QUARTET_SOLVER_PGO", "1")


class ProfileGuidedBuild(build_ext):
    """``build_ext`` that, with GCC, compiles twice around a training run (see the
    module docstring)."""

    def build_extensions(self) -> None:
        if not PGO or sys.platform == "win32" or not is_gcc(self.compiler.compiler_so):
            super().build_extensions()
            return
        base = [(ext, list(ext.extra_compile_args), list(ext.extra_link_args)) for ext in self.extensions]
        with tempfile.TemporaryDirectory(prefix="quartet-solver-pgo-") as prof:
            try:
                self._compile(base, *pgo_generate_args(prof))
                path = self.get_ext_fullpath("quartet_solver._core")
                subprocess.run([sys.executable, os.path.join(HERE, "cext", "profile_training.py"), path],
                               check=True, timeout=900)
                self._compile(base, pgo_use_args(prof), [])
            except Exception as exc:        # any failed step: the plain compile
                print(f"quartet_solver: the profile-guided build failed ({exc}); "
                      "building without a profile", file=sys.stderr)
                self._compile(base, [], [])

    def _compile(self, base: list[tuple[Extension, list[str], list[str]]], compile_extra: list[str],
                 link_extra: list[str]) -> None:
        """Compile every extension with its own flags and these extra ones."""
        for ext, cargs, largs in base:
            ext.extra_compile_args = cargs + compile_extra
            ext.extra_link_args = largs + link_extra
        self.force = True
        super().build_extensions()


extensions = [
    Extension(
        "quartet_solver._core",
        sources=["cext/_core.pyx"],
        extra_compile_args=compile_args(DEBUG),
    )
]

setup(
    cmdclass={"build_ext": ProfileGuidedBuild},
    ext_modules=cythonize(
        extensions,
        compiler_directives=cython_directives(DEBUG),
        include_path=["cext"],
        compile_time_env={"QS_DEBUG": DEBUG},
        force=DEBUG,
    ),
)
