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


# -- a timeout keeps the runs that finished (newcomer trial 19, §3) -----------------------------

#: The scenario the stalling plug-ins loop on: the adversary's of bound 7, in the fourth of
#: the five adversary shards of `--budget small` (planted, orthonormal, then adversary bounds
#: 1-2, 3-4, 5-6, 7-8, 9-10, two per shard).
STALLS_ON = "adversary(R2=7,gamma=1,seed=7)"


def stalls_on_one_scenario(data: Dataset, max_updates: int) -> object:
    """The perceptron, but a loop on `STALLS_ON` (the first 1 000-epoch cap of the trial's
    off-by-one plug-in in pure Python: past the guard on one scenario only)."""
    if data.name == STALLS_ON:
        while True:
            pass
    return hostile.perceptron(data, max_updates)


def doubles_and_stalls(data: Dataset, max_updates: int) -> object:
    """`hostile.doubles_its_step` (its runs break the plug-in proof's invariant), but a loop
    on `STALLS_ON`."""
    if data.name == STALLS_ON:
        while True:
            pass
    return hostile.doubles_its_step(data, max_updates)


def _reports(audit: object) -> dict[str, str]:
    """The Markdown, HTML and LaTeX reports of `audit`, their escapes of its lines undone
    (Markdown's backslashes, HTML's entities, LaTeX's `--`, `\\_` and breaks after `/`)."""
    import html as entities
    import re

    from verify.render import html, latex, markdown

    return {"md": re.sub(r"\\(.)", r"\1", markdown.render(audit)),
            "html": entities.unescape(html.render(audit)),
            "tex": latex.render(audit).replace("-{}-", "--").replace("\\_", "_")}


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_a_timeout_keeps_the_runs_that_finished() -> None:
    """The trial's plug-in ran past its guard on one adversary scenario and every step of its
    proof was "not run": the scenarios that had finished were thrown away. The shards before
    the one that timed out are now checked and counted (their 46 runs: 20 planted, 20
    orthonormal, the adversary's bounds 1-6), that shard's and the later ones' are not; the
    proof is `incomplete` (never verified), saying which scenario did not finish, why, and
    what to do; the fault is the audit's error (exit 2). The same with `--jobs` 1 and 2: the
    shards before the fault are made in any schedule (a posted timeout ends later shards'
    calls only), the later ones' verdicts dropped whether made or not."""
    import json
    import re
    from pathlib import Path

    from verify.api import audit_proofs
    from verify.audit.job import FAULT_KEPT, Unmade
    from verify.audit.report import to_json, to_text

    proof_file = Path(hostile.__file__).parent / "plug.toml"
    plugin = Plugin("p", None, stalls_on_one_scenario, seconds=0.5)
    reports = {}
    for jobs in (1, 2):
        audit = audit_proofs(proof_file, budget="small", jobs=jobs, algorithms=[plugin])
        (error,) = audit.errors
        assert error.startswith(f"plug-in p did not return within 0.5 CPU-seconds on "
                                f"{STALLS_ON} (7 examples): its process's CPU time"), error
        assert "--budget small" in error and "faster code" in error
        (proof,) = audit.proofs
        (step,) = proof.steps
        assert proof.status == "incomplete" and not audit.passed()
        assert step.numeric is not None and step.numeric.status == "held"
        assert step.numeric.instances > 0
        assert proof.unmade == (Unmade("plug-in p", f"{error}; {FAULT_KEPT}"),)
        (line,) = audit.plugins
        assert re.match(r"plug-in p: 46 online runs: 46 converged", line), line
        text = to_text(audit).splitlines()
        at = text.index(f"  plug: {error}; {FAULT_KEPT}")
        assert text[at - 1].startswith("runs not made (so not verified")
        assert f"runs not made ({error}; {FAULT_KEPT})" in audit.problems()[-1]
        reports[jobs] = json.dumps(to_json(audit))
    for name, text in _reports(audit).items():  # the same line in every report
        assert "Runs not made" in text and f"{error}; {FAULT_KEPT}" in text, name
    assert reports[1] == reports[2]


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_the_runs_before_a_timeout_are_checked_as_any_are() -> None:
    """With a smaller epoch cap the trial's buggy plug-in was a clear finding; past the guard
    on one scenario it was "not run" everywhere. The runs made before the fault are checked
    as any are, and the fault is still the audit's error. This plug-in doubles its step
    (`w + 2*y*x`): its runs are none of the induction's (`w + y*x`), so since memb32
    (newcomer 32 N6) its rows after the first update are left out, said at every update, and
    the proof is incomplete, not a finding against a true induction."""
    from pathlib import Path

    from verify.api import audit_proofs
    from verify.audit.report import to_json

    plugin = Plugin("p", None, doubles_and_stalls, seconds=0.5)
    audit = audit_proofs(Path(hostile.__file__).parent / "plug.toml", budget="small",
                         jobs=1, algorithms=[plugin])
    assert len(audit.errors) == 1 and STALLS_ON in audit.errors[0]
    (proof,) = audit.proofs
    (step,) = proof.steps
    assert proof.status == "incomplete"
    assert step.numeric is not None and step.numeric.status == "held"
    assert step.numeric.instances > 0 and step.numeric.past_unmet > 0  # the runs' starts
    report = to_json(audit)
    assert report["summary"]["findings"] == []
    moved = report["proofs"][0]["steps"][0]["numeric"]["update_map"]
    assert moved["unmet"] == moved["updates"] > 0
    assert "its runs update otherwise than its step at all" in moved["said"]


_SLEEPS_IN_A_CALL = """
import os, sys, time
from verify.runs import isolation

def code():
    with open(sys.argv[1], "w") as out:
        out.write(str(os.getpid()))
    time.sleep(60)
    return 0

isolation.call(code, 5, wall=120)
"""


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"),
                    reason="the parent-death signal is Linux's")
def test_a_call_ends_when_the_audit_is_killed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Red team 27: the call's process leads its own process group, out of the audit's, so
    an audit ended by SIGKILL or SIGTERM (`timeout`, a CI runner), which runs no clean-up,
    left a sleeping plug-in call running as an orphan (a `time.sleep(1000)` outlived
    `timeout 20 novikoff audit` by minutes). It now dies with the process that forked it."""
    import os
    import subprocess
    import sys
    import time

    marker = tmp_path / "pid"
    audit = subprocess.Popen([sys.executable, "-c", _SLEEPS_IN_A_CALL, str(marker)])
    try:
        for _ in range(400):
            if marker.exists() and marker.read_text():
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the call never started")
        child = int(marker.read_text())
    finally:
        audit.kill()
        audit.wait()
    for _ in range(100):
        try:
            with open(f"/proc/{child}/stat") as stat:
                state = stat.read().rpartition(")")[2].split()[0]
        except FileNotFoundError:
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.05)
    os.kill(child, 9)
    raise AssertionError(f"the call's process ({child}) outlived the audit that forked it")
