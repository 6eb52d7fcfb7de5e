"""A Ctrl-C stops a bid analysis at once, with its worker processes, from the
command line and from the library, on every executor path.

Each test starts a long analysis in its own session (a process group, as a
shell gives a command), waits until it is solving, sends SIGINT to the whole
group, as a terminal's Ctrl-C does, and checks that everything is gone within
a few seconds (once: a multi-process analysis ran on to its end, a minute or
more, the workers solving on)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg") or not os.path.isdir("/proc"),
                                reason="needs POSIX process groups and /proc")

HAND = "Jh 9h Ah Th As Ks Ad 7c"
# the most an interrupt may take to end everything: the bound leaves room for a busy machine and
# the unoptimised build of the tests, and stays far below the time the 30,000 samples take
SECONDS = 20.0
# a caller's own process pool: its workers get the Ctrl-C themselves and its shutdown is the
# caller's ``with`` block, so it gets more room
SECONDS_GIVEN_POOL = 30.0


def _group(pgid: int) -> set[int]:
    """The live (not zombie) processes of the process group ``pgid``."""
    out = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getpgid(int(entry)) != pgid:
                continue
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            out.add(int(entry))
    return out


def _default_sigint() -> None:
    """Give the child Ctrl-C's default action, as a terminal's foreground command
    has it: a shell's background job (``pytest &``) ignores SIGINT, and so would
    every process it starts."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(cmd: list[str], started: bytes, processes: int) -> tuple[int, float, str]:
    """Run ``cmd`` in a new session; once it printed ``started`` on stderr and
    its group has ``processes`` processes, send SIGINT to the group; the exit
    status, the seconds it took to end, and stderr.  Fails if any process of
    the group outlives the parent."""
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=os.path.dirname(os.path.abspath(__file__)),
                            preexec_fn=_default_sigint)
    try:
        assert proc.stderr is not None
        head = proc.stderr.readline()
        assert started in head, head + proc.stderr.read()
        deadline = time.monotonic() + 30
        while len(seen := _group(proc.pid)) < processes and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(seen) >= processes, seen
        time.sleep(0.5)                 # in the middle of the solving
        seen |= _group(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        t0 = time.monotonic()
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 30 s after SIGINT: {sorted(_group(proc.pid))}")
        took = time.monotonic() - t0
        err = (head + proc.stderr.read()).decode("utf-8", "replace")
        # the workers end with the parent (within a moment: they may be ending still)
        while (left := _group(proc.pid) & seen) and time.monotonic() - t0 < SECONDS:
            time.sleep(0.05)
        assert not left, f"processes left after the interrupt: {sorted(left)}"
        return code, took, err
    finally:
        if _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


def test_cli_bid_stops_on_ctrl_c():
    """``quartet-solver klaverjas bid`` with two worker processes: exit 130 at
    once, a one-line message and no traceback."""
    cmd = [sys.executable, "-m", "quartet_solver", "klaverjas", "bid", "--hand", HAND,
           "--samples", "60000", "--processes", "2", "--progress"]
    code, took, err = _interrupt(cmd, b"/60000 samples", processes=3)
    assert code == 130, err
    assert took < SECONDS, (took, err)
    assert "Traceback" not in err and err.rstrip().endswith("quartet-solver: interrupted"), err


LIBRARY = """
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

from quartet_solver.klaverjas import analyse_bid

mode = sys.argv[1]
said = []


def progress(done, total):
    if not said:
        said.append(print("solving", file=sys.stderr, flush=True))


try:
    if mode == "own":
        analyse_bid({hand!r}, samples=30000, processes=2, progress=progress)
    elif mode == "in-process":
        analyse_bid({hand!r}, samples=30000, processes=1, progress=progress)
    else:
        kind = ProcessPoolExecutor if mode == "process-executor" else ThreadPoolExecutor
        with kind(2) as ex:
            analyse_bid({hand!r}, samples=30000, executor=ex, progress=progress)
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
    sys.exit(130)
"""


@pytest.mark.parametrize("mode, processes", [("own", 3), ("in-process", 1), ("process-executor", 3),
                                             ("thread-executor", 1)])
def test_library_bid_stops_on_ctrl_c(mode, processes):
    """``analyse_bid`` raises KeyboardInterrupt at once on a Ctrl-C: its own
    pool's workers are ended; a given executor gets its chunks not started
    cancelled (its ``with`` block then only waits for the running ones, a
    fraction of a second)."""
    code, took, err = _interrupt([sys.executable, "-c", LIBRARY.format(hand=HAND), mode], b"solving",
                                 processes)
    assert code == 130, err
    assert took < (SECONDS_GIVEN_POOL if mode == "process-executor" else SECONDS), (took, err)
    assert err.rstrip().endswith("interrupted"), err
    if mode != "process-executor":      # a given pool's workers get the Ctrl-C too: theirs to print
        assert "Traceback" not in err, err
