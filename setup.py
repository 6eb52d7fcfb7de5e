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
"""

import os
import platform
import subprocess
import sys
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def _flag(name: str, default: str = "") -> bool:
    return os.environ.get(name, default).strip() not in ("", "0", "false", "no")


DEBUG = _flag("QUARTET_SOLVER_DEBUG")
PGO = not DEBUG and _flag("QUARTET_SOLVER_PGO", "1")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}


def bit_instruction_args() -> list[str]:
    """Compiler flags for the bit instructions of this machine's processor (see
    the module docstring); none when it lacks one, runs ``pext`` slowly (AMD
    before Zen 3) or cannot be read."""
    if _flag("QUARTET_SOLVER_PORTABLE") or sys.platform == "win32":
        return []
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            info = f.read()
    except OSError:
        return []
    fields: dict[str, str] = {}
    for line in info.splitlines():
        if not line.strip():
            break                       # the first processor is enough
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    flags = set(fields.get("flags", "").split())
    if not {"bmi1", "bmi2", "popcnt"} <= flags:
        return []
    vendor = fields.get("vendor_id", "")
    family = int(fields.get("cpu family", "0") or 0)
    if vendor != "GenuineIntel" and not (vendor == "AuthenticAMD" and family >= 25):
        return []
    return ["-mbmi", "-mbmi2", "-mpopcnt"]


if sys.platform == "win32":
    compile_args = ["/Od"] if DEBUG else ["/O2"]
else:
    compile_args = (["-O0", "-g"] if DEBUG else ["-O3"]) + bit_instruction_args()


def _is_gcc(command: list[str]) -> bool:
    """Whether the compiler ``command`` is GCC (clang also answers to ``gcc``)."""
    try:
        out = subprocess.run([command[0], "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError, IndexError):
        return False
    text = out.stdout.lower()
    return out.returncode == 0 and "clang" not in text and ("gcc" in text or "free software" in text)


class ProfileGuidedBuild(build_ext):
    """``build_ext`` that, with GCC, compiles twice around a training run (see the
    module docstring)."""

    def build_extensions(self) -> None:
        if not PGO or sys.platform == "win32" or not _is_gcc(self.compiler.compiler_so):
            super().build_extensions()
            return
        base = [(ext, list(ext.extra_compile_args), list(ext.extra_link_args)) for ext in self.extensions]
        with tempfile.TemporaryDirectory(prefix="quartet-solver-pgo-") as prof:
            try:
                self._compile(base, [f"-fprofile-generate={prof}", "-fprofile-update=single"],
                              [f"-fprofile-generate={prof}"])
                path = self.get_ext_fullpath("quartet_solver._core")
                subprocess.run([sys.executable, os.path.join(HERE, "cext", "profile_training.py"), path],
                               check=True, timeout=900)
                self._compile(base, [f"-fprofile-use={prof}", "-fprofile-partial-training",
                                     "-Wno-missing-profile"], [])
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
        extra_compile_args=compile_args,
    )
]

setup(
    cmdclass={"build_ext": ProfileGuidedBuild},
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["cext"],
        compile_time_env={"QS_DEBUG": DEBUG},
        force=DEBUG,
    ),
)
