"""Plug-ins that fail in every way a stranger's code can (the newcomer trial's
bad_plugins.py, exit3.py and segfault.py): each must be one line naming it and its fault,
exit 2, the rest of the audit reported."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from fractions import Fraction
from typing import Any


def raises(data: Any, max_updates: int) -> Any:
    raise ValueError("boom from the plug-in")


def exits(data: Any, max_updates: int) -> Any:
    raise SystemExit(0)


def raises_escapes(data: Any, max_updates: int) -> Any:
    """A message that would erase the audit's line and print a green verdict of its own."""
    raise ValueError("\x1b[2K\r\x1b[32mall verified\x1b[0m\nsecond line")


def exits_3(data: Any, max_updates: int) -> Any:
    sys.exit(3)


def keyboard(data: Any, max_updates: int) -> Any:
    raise KeyboardInterrupt


def generator_exits(data: Any, max_updates: int) -> Any:
    """SystemExit while its trace is read, not when it is called."""
    yield 0, tuple(data.y[0] * v for v in data.X[0])
    raise SystemExit("done")


def memory_hog(data: Any, max_updates: int) -> Any:
    return [0] * (10**12)


def sleeps_forever(data: Any, max_updates: int) -> Any:
    time.sleep(10**6)
    return []


def loops_forever(data: Any, max_updates: int) -> Any:
    while True:
        pass


def swallows_everything(data: Any, max_updates: int) -> Any:
    """A loop that catches what an in-process guard would raise."""
    while True:
        with contextlib.suppress(BaseException):  # the point of the case
            time.sleep(10**6)


def segfault(data: Any, max_updates: int) -> Any:
    import ctypes

    ctypes.string_at(0)
    return []


def os_exit(data: Any, max_updates: int) -> Any:
    os._exit(0)


def interrupts_itself(data: Any, max_updates: int) -> Any:
    """A real SIGINT to its own process while it runs (a Ctrl-C, when the plug-in runs in
    the audit's process): the audit must stop."""
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(600):  # short sleeps: in a process with other threads (pytest-xdist's)
        time.sleep(0.1)   # the signal may reach another thread, and Python runs its handler
    return []             # in the main thread only between bytecodes, not in one long sleep


def interrupts_the_audit(data: Any, max_updates: int) -> Any:
    """A real SIGINT to the process that runs the campaign, while the plug-in runs in a
    child of it (a Ctrl-C): the audit must stop."""
    os.kill(os.getppid(), signal.SIGINT)
    time.sleep(60)
    return []


def sleeps_and_says_where(data: Any, max_updates: int) -> Any:
    """Sleeps forever after writing its process id to the file named by the environment's
    NOVIKOFF_TEST_PID_FILE (to check that no such process is left behind)."""
    with open(os.environ["NOVIKOFF_TEST_PID_FILE"], "a") as handle:
        handle.write(f"{os.getpid()}\n")
    time.sleep(10**6)
    return []


def leaves_a_sleeper(data: Any, max_updates: int) -> Any:
    """Starts a process that sleeps a minute holding every descriptor it inherited (the
    answer's pipe among them), writes its id to NOVIKOFF_TEST_PID_FILE, then answers at
    once: one update on the first example."""
    sleeper = os.fork()
    if sleeper == 0:
        time.sleep(60)
        os._exit(0)
    with open(os.environ["NOVIKOFF_TEST_PID_FILE"], "a") as handle:
        handle.write(f"{sleeper}\n")
    return [(0, tuple(data.y[0] * v for v in data.X[0]))]


def wrong_dimension(data: Any, max_updates: int) -> Any:
    return [(0, (Fraction(1),) * (data.d + 1))]


def perceptron(data: Any, max_updates: int, step: int = 1) -> Any:
    """A correct plug-in: the perceptron, cyclic epochs from w = 0 (for contrast); `step`
    other than 1 makes it a wrong one (`doubles_its_step`)."""
    w = tuple(Fraction(0) for _ in range(data.d))
    made = 0
    while made < max_updates:
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            if y * sum(a * b for a, b in zip(w, x, strict=True)) <= 0 and made < max_updates:
                w = tuple(a + step * y * b for a, b in zip(w, x, strict=True))
                made, updated = made + 1, True
                yield i, w
        if not updated:
            return


def doubles_its_step(data: Any, max_updates: int) -> Any:
    """A wrong perceptron: `w + 2 y x` at each update, so its runs are not the runs of an
    induction that updates `w + y*x` (red team 9: its proved invariant was called false)."""
    return perceptron(data, max_updates, step=2)


def perceptron_but_never_alone(data: Any, max_updates: int) -> Any:
    """The perceptron, but a fault on a shrinker's run (named PROOF--STEP) of one example."""
    if data.n == 1 and "--" in data.name:
        raise ValueError("one example")
    return perceptron(data, max_updates)


def chatty(data: Any, max_updates: int) -> Any:
    """The perceptron, printing as it goes (a lecturer's debugging lines), through Python and
    straight to file descriptor 1."""
    print("HELLO FROM PLUGIN")
    sys.stdout.flush()
    os.write(1, b"RAW WRITE\n")
    return perceptron(data, max_updates)


def huge_numbers(data: Any, max_updates: int) -> Any:
    """A first update of a million bits (red team 4's `Fraction(10)**3_000_000` kept the
    audit's exact checks computing for ever)."""
    big = Fraction(1 << 1_000_000, 3)
    return [(0, tuple(big * data.y[0] * c for c in data.X[0]))]


def many_large_numbers(data: Any, max_updates: int) -> Any:
    """Updates of 60 000-bit coordinates, each within the limit of one coordinate, as many
    as it may make."""
    big = 1 << 60_000
    return [(i % data.n, tuple(Fraction(big * (i + 1)) for _ in range(data.d)))
            for i in range(max_updates)]


def floods(data: Any, max_updates: int) -> Any:
    """The perceptron, printing 900 001 bytes first: to descriptor 1, through `print` and to
    `sys.stderr` (red team 4's printed 300 MB a call: 15 GB of standard error)."""
    os.write(1, b"y" * 300_000)
    print("z" * 300_000)
    sys.stderr.write("w" * 300_000)
    return perceptron(data, max_updates)


def ignores_the_cpu_guard(data: Any, max_updates: int) -> Any:
    """A loop that ignores the signals of the CPU guard (SIGPROF, SIGXCPU): the hard CPU
    limit, which it cannot raise, ends it (SIGKILL)."""
    for number in (signal.SIGPROF, signal.SIGXCPU):
        signal.signal(number, signal.SIG_IGN)
    while True:
        pass


def sleeps_a_while(data: Any, max_updates: int) -> Any:
    """Little CPU, much wall clock: 1.5 s in short sleeps, then one update."""
    for _ in range(15):
        time.sleep(0.1)
    return [(0, (Fraction(1), Fraction(2)))]
