"""Build script: cythonizes ``cext/`` into the single extension ``quartet_solver._core``.

Set ``QUARTET_SOLVER_DEBUG=1`` to build with bounds checks, wrap-around and
initialisation checks turned back on, no optimisation and debug symbols (for tests).

On an x86-64 Linux machine whose processor has the BMI1, BMI2 and POPCNT
instructions, and runs BMI2's ``pext`` fast (Intel; AMD from Zen 3), the build
uses them (the kernels gather bits with ``pext`` and count them with ``popcnt``).
The build is for the machine it runs on: set ``QUARTET_SOLVER_PORTABLE=1`` to
leave them out, e.g. to build a wheel for other machines.
"""

import os
import platform
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0", "false", "no")


DEBUG = _flag("QUARTET_SOLVER_DEBUG")

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
