"""Build settings of the compiled core, shared by ``setup.py`` and the paired
benchmark ``benchmarks/klaverjas_ab.py`` (which builds several versions of the
core the same way).

>>> "-O3" in compile_args(debug=False) and "-O0" in compile_args(debug=True)
True
>>> cython_directives(debug=True)["boundscheck"]
True
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys


def flag(name: str, default: str = "") -> bool:
    """Whether the environment variable ``name`` is set to something other than
    empty, 0, false or no (``default`` when unset)."""
    return os.environ.get(name, default).strip() not in ("", "0", "false", "no")


def cython_directives(debug: bool) -> dict[str, object]:
    """Cython compiler directives: bounds, wrap-around and initialisation checks
    only in the debug build."""
    return {
        "language_level": 3,
        "boundscheck": debug,
        "wraparound": debug,
        "initializedcheck": debug,
        "cdivision": not debug,
        "embedsignature": True,
    }


def bit_instruction_args() -> list[str]:
    """Compiler flags for the bit instructions of this machine's processor (BMI1,
    BMI2 and POPCNT, where ``pext`` runs fast: Intel, AMD from Zen 3); none when it
    lacks one, runs ``pext`` slowly (AMD before Zen 3), cannot be read, or
    ``QUARTET_SOLVER_PORTABLE`` is set."""
    if flag("QUARTET_SOLVER_PORTABLE") or sys.platform == "win32":
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


# what GCC 14 and later reject by default: errors in the debug build (the
# tests' build) wherever the compiler is older, so no such code gets in
STRICT_C_ARGS = ["-Werror=incompatible-pointer-types", "-Werror=implicit-function-declaration",
                 "-Werror=int-conversion", "-Werror=implicit-int"]


def compile_args(debug: bool) -> list[str]:
    """Compiler flags of the core: optimised (and the bit instructions), or for
    debugging (and with :data:`STRICT_C_ARGS`)."""
    if sys.platform == "win32":
        return ["/Od"] if debug else ["/O2"]
    return (["-O0", "-g"] + STRICT_C_ARGS if debug else ["-O3"]) + bit_instruction_args()


def is_gcc(command: list[str]) -> bool:
    """Whether the compiler ``command`` is GCC (clang also answers to ``gcc``)."""
    try:
        out = subprocess.run([command[0], "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError, IndexError):
        return False
    text = out.stdout.lower()
    return out.returncode == 0 and "clang" not in text and ("gcc" in text or "free software" in text)


def pgo_generate_args(profile_dir: str) -> tuple[list[str], list[str]]:
    """Compile and link flags of GCC's instrumented build (profiles to ``profile_dir``)."""
    return ([f"-fprofile-generate={profile_dir}", "-fprofile-update=single"],
            [f"-fprofile-generate={profile_dir}"])


def pgo_use_args(profile_dir: str) -> list[str]:
    """Compile flags of GCC's build guided by the profiles in ``profile_dir`` (code
    the training did not run is optimised as without a profile)."""
    return [f"-fprofile-use={profile_dir}", "-fprofile-partial-training", "-Wno-missing-profile"]
