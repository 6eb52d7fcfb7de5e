"""Running the command line as a user does: ``python -m quartet_solver`` in a
fresh interpreter, from a neutral directory so that the source tree (which has
no compiled core) does not shadow the installed package."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def run(argv: list[str], stdin: str | None = None, timeout: float = 120) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``quartet-solver ARGV``."""
    proc = subprocess.run([sys.executable, "-m", "quartet_solver", *argv], input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=tempfile.gettempdir())
    return proc.returncode, proc.stdout, proc.stderr


def run_all(commands: dict[str, list[str]]) -> dict[str, tuple[int, str, str]]:
    """Every command at once (each interpreter start costs ~0.3 s), by name."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = {name: pool.submit(run, argv) for name, argv in commands.items()}
        return {name: f.result() for name, f in futures.items()}


def ok(results: dict[str, tuple[int, str, str]], name: str) -> str:
    """The stdout of a command that must have succeeded without a traceback."""
    code, out, err = results[name]
    assert code == 0, (name, err)
    assert "Traceback" not in err
    return out


def one_line_error(result: tuple[int, str, str]) -> str:
    """The one-line message of a command that must have failed with exit code 2."""
    code, out, err = result
    assert code == 2, (code, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]
