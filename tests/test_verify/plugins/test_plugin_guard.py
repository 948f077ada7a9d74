"""A plug-in call's guard counts CPU seconds, not the wall clock's (newcomer trial 19, §3).

The guard was 60 s of wall clock, so whether an audit ended in a finding or in exit 2 (a
plug-in that "did not return") depended on the load of the machine. It is now the CPU time
of the call's process; a far larger wall-clock guard only ends a call blocked outside the
CPU (sleeping, waiting on input). The fault says which guard, and for the CPU's what to do.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from cases.plugins import hostile

from perceptron.dataset import Dataset
from verify.runs import isolation
from verify.runs.plugin import SECONDS, WALL_SECONDS, Plugin, PluginFault

DATA = Dataset.of([[1, 2], [2, -1], [-1, 1]], [1, 1, -1], "three")
U = (Fraction(1), Fraction(0))
CPU_FAULT = (r"^plug-in p did not return within 0\.5 CPU-seconds on three \(3 examples\): "
             r"its process's CPU time, the same under any load; to stay within it: "
             r"--budget small \(fewer, smaller scenarios\), fewer epochs in the plug-in, or faster "
             r"code$")


@pytest.mark.parametrize("isolated", [True, False])
def test_wall_clock_beyond_the_cpu_seconds_is_no_fault(isolated: bool) -> None:
    """A call that takes 1.5 s of wall clock and little CPU returns its trace under a guard
    of 1 CPU-second (the wall-clock guard of 1 s ended it before), in a child process and
    in the audit's own."""
    plugin = Plugin("p", None, hostile.sleeps_a_while, seconds=1, wall=30, isolated=isolated)
    assert len(plugin.run(DATA, U, 5).updates) == 1


@pytest.mark.parametrize("isolated", [True, False])
def test_a_loop_is_stopped_by_its_cpu_seconds(isolated: bool) -> None:
    """With a wall-clock guard far away, the CPU's ends it, and says what counted and the
    remedy (in the audit's own process too: `SIGPROF` there)."""
    plugin = Plugin("p", None, hostile.loops_forever, seconds=0.5, wall=300,
                    isolated=isolated)
    with pytest.raises(PluginFault, match=CPU_FAULT):
        plugin.run(DATA, U, 5)


def test_a_loop_that_ignores_the_cpu_signals_is_stopped_by_the_hard_limit() -> None:
    """SIGPROF and SIGXCPU ignored: `RLIMIT_CPU`'s hard limit (SIGKILL) ends it, and its
    death is the CPU guard's, not "killed its process (SIGKILL)"."""
    plugin = Plugin("p", None, hostile.ignores_the_cpu_guard, seconds=0.5, wall=300)
    with pytest.raises(PluginFault, match=CPU_FAULT):
        plugin.run(DATA, U, 5)


def test_a_sleeper_is_stopped_by_the_wall_clock_and_told_so() -> None:
    plugin = Plugin("p", None, hostile.sleeps_forever, seconds=0.5, wall=1)
    with pytest.raises(PluginFault, match=r"^plug-in p did not return within 1 s of wall "
                                          r"clock on three \(3 examples\): a guard against a "
                                          r"call blocked outside the CPU \(sleeping, waiting "
                                          r"on input\), which spends none of its 0\.5 "
                                          r"CPU-seconds$"):
        plugin.run(DATA, U, 5)


def test_the_guards_and_their_clocks() -> None:
    """The defaults (60 CPU-seconds, 600 s of wall clock), and `isolation.call`'s wall
    guard by default ten times its CPU seconds; `TimedOut.clock` says which went off."""
    assert (Plugin("p").seconds, Plugin("p").wall) == (SECONDS, WALL_SECONDS) == (60.0, 600.0)
    with pytest.raises(isolation.TimedOut) as out:
        isolation.call(lambda: hostile.loops_forever(None, 0), 0.3)
    assert out.value.clock == "cpu"
    with pytest.raises(isolation.TimedOut) as out:
        isolation.call(lambda: hostile.sleeps_forever(None, 0), 30, wall=0.3)
    assert out.value.clock == "wall"


def _starts_a_sleeper() -> int:
    """A plug-in's code that starts a process of its own, which would sleep for ever."""
    import os
    import time

    pid = os.fork()
    if pid == 0:  # the process it started: no guard of the call's counts its time
        while True:
            time.sleep(1)
    return pid


def test_what_a_call_starts_ends_with_it() -> None:
    """Red team 20: the CPU guard (a timer, `RLIMIT_CPU`) counts the call's own process, and
    only that process was killed: one it forked went on (spinning or sleeping) after the
    call was over, and could outlive the audit. The call's process leads its own process
    group, and the whole group is killed when the call ends, however it ends."""
    import os
    import time

    started = isolation.call(_starts_a_sleeper, 5)
    for _ in range(100):  # killed at once; reaped by init in its own time (a zombie till then)
        try:
            with open(f"/proc/{started}/stat") as stat:
                state = stat.read().rpartition(")")[2].split()[0]
        except FileNotFoundError:
            break
        if state in ("Z", "X"):
            break
        time.sleep(0.05)
    else:
        os.kill(started, 9)
        raise AssertionError(f"the process the call started ({started}) still runs")
