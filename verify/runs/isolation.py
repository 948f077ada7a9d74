"""Running a stranger's code apart: each call in a child process, under a CPU-time guard.

A plug-in (`verify.runs.plugin`) is code the user gave, which the campaign calls on every
scenario. Called in the audit's own process, a crash (a segfault in an extension module,
`os._exit`) would end the audit with no word of which plug-in did it (under `--jobs` a pool
worker's death breaks the whole pool), and a loop that `SIGALRM` cannot interrupt (one in C,
one that catches whatever the alarm raises) would hang it. So `call` runs each call in a
child forked for it (where the system forks, POSIX): the child runs the code and writes its
answer, plain data, to a pipe. The guard is the child's own CPU time, `seconds` of it (an
`ITIMER_PROF` timer in the child, whose signal ends it, and behind it `RLIMIT_CPU`, which a
child that handles the signal cannot raise past its hard limit): CPU seconds do not depend
on what else the machine runs, so whether a call is stopped is the same under any load (the
wall clock decided it before, and a loaded machine turned a finding into an exit 2). A
second guard, `wall` seconds of wall clock (much larger), only ends a child blocked outside
the CPU (sleeping, waiting on input), which never spends its CPU seconds. Whatever happens
to the child is then an answer here:

- `Fault`: the code raised an error whose message says it all (a `PluginFault`);
- `Raised`: it raised anything else (a `SystemExit` of any code, a `KeyboardInterrupt` it
  raised itself, a `MemoryError` included): its type and message in a few words;
- `Died`: the child ended without answering (killed by a signal, or exited): how;
- `TimedOut`: it did not answer within `seconds` of its CPU time, or `wall` seconds of wall
  clock (`TimedOut.clock` says which; the child is killed);
- `Stopped`: `stop`, asked while it runs, gave a reason to give up (the child is killed).

What the code prints goes to standard error: the audit's standard output is its report
(`--json` is read by programs), and a plug-in's debugging `print` must not break it. Its
file descriptor 1 (a write to it from C or `os.write`) goes there too, for the duration of
the code, in a child and in this process (loading a plug-in's module runs its top level
here). A child's descriptors 1 and 2 are a pipe the parent reads as it waits: the first
`OUTPUT_SHOWN` bytes of a call are passed on, the rest counted and said in one line
(`_Output`), so a call printing 300 MB costs 64 KiB of standard error, not 300 MB. In this
process descriptors 1 and 2 are such a pipe too while the code runs, emptied by a thread
(`_output_to_stderr`), with the same cap.

A child process is no sandbox: it runs as the user, with the user's files, network and
processes. It keeps a crash, a hang and the audit's own descriptors apart, nothing else; a
plug-in can still write to the audit's standard output (`/proc/PPID/fd/1`, the terminal),
to any file the user can, or start a process that outlives the audit. Give `--algorithm`
only code you would run yourself.

The child ignores SIGINT: a Ctrl-C, which the terminal sends to the whole process group, is
the parent's to act on; the parent is interrupted as usual (KeyboardInterrupt) and kills
the child on its way out. Every call starts from the state the parent had when it forked,
so no call sees another's side effects: what a plug-in returns on a scenario cannot depend
on which scenarios the same process ran before (shards, `--jobs`).

The answer travels as a pickle of plain values (ints, strings, tuples, lists, `Fraction`);
it is read back by an unpickler that admits no other class, so reading it runs no code.

Where the system has no `fork` (or with `apart=False`, for a debugger), the call runs in
this process under `SIGPROF` after `seconds` of the process's CPU time and `SIGALRM` after
`wall` seconds (main thread only) with the same answers but `Died`, which
cannot be caught there (the process is gone). `KeyboardInterrupt` there is told apart by
the signal: a SIGINT that arrives while the code runs is the user's Ctrl-C and interrupts;
one the code raises itself is `Raised`.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import pickle
import select
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, NoReturn, TypeVar

from perceptron.errors import printable

try:  # POSIX (where the system forks): imported here, not in each child (a fork per call)
    import resource
except ImportError:  # pragma: no cover - not POSIX
    resource = None  # type: ignore[assignment]

T = TypeVar("T")

#: Whether calls can run in a child process here.
CAN_FORK = hasattr(os, "fork")
#: Seconds between two questions to `stop` while a child runs.
POLL = 0.2


class Fault(Exception):
    """An error whose message says it all: raised by the code, raised again by `call`."""


class Raised(Exception):
    """The code raised something else: its type and message, in a few words."""


class Died(Exception):
    """The child process ended without answering: how (a signal, an exit status)."""


class TimedOut(Exception):
    """The code did not answer within its seconds: `clock` is "cpu" (its CPU time, the
    guard) or "wall" (the wall clock's, a guard against a call blocked outside the CPU)."""

    def __init__(self, clock: str = "cpu") -> None:
        super().__init__(clock)
        self.clock = clock


class Stopped(Exception):
    """`stop` gave this reason to give up while the code ran."""


#: The wall-clock guard of a call given none, as a multiple of its CPU seconds: generous, so
#: that a call busy on the CPU meets its CPU guard first on any machine short of one whose
#: load gives it less than a tenth of a core.
WALL_FACTOR = 10


def call(code: Callable[[], T], seconds: float, *, wall: float | None = None,
         apart: bool = True, stop: Callable[[], str | None] | None = None) -> T:
    """`code()`'s value, computed in a child process (`apart` and the system forks) or in
    this one, within `seconds` of CPU time and `wall` seconds of wall clock (default
    `WALL_FACTOR` times `seconds`); raises `Fault`, `Raised`, `Died`, `TimedOut` or
    `Stopped` (module docstring). The value must be plain data (see `_Plain`)."""
    wall = WALL_FACTOR * seconds if wall is None else wall
    if apart and CAN_FORK:
        return _in_child(code, seconds, wall, stop or (lambda: None))
    return _here(code, seconds, wall)


def described(error: BaseException) -> str:
    """An exception in a few words: its type, and its message when it has one, on one line
    and printable (`perceptron.errors.printable`): red team 31 B3, a plug-in's message
    `"\\x1b[2K\\r\\x1b[32mall verified"` erased the audit's line and printed a green "all
    verified" where the audit failed (the message may quote whatever its code read)."""
    try:
        text = " ".join(str(error).split())
    except BaseException:  # a message that cannot even be made: the type alone
        text = ""
    kind = printable(type(error).__name__)
    return printable(f"{kind}: {text}"[:200]) if text else kind


# ---- in a child process ---------------------------------------------------------------------


def _in_child(code: Callable[[], T], seconds: float, wall: float,
              stop: Callable[[], str | None]) -> T:
    """`call` in a child forked for it: its answer read from a pipe, its end judged.

    A Ctrl-C that arrives while `os.fork` runs its handlers (logging's, ...) would be raised
    there and lost ("exception ignored"), and the parent would wait for the child. So SIGINT
    is blocked in this thread across the fork, and, since another thread of the process
    (pytest-xdist's, a Dask worker's) may receive it all the same, held (`_HeldInterrupt`):
    it interrupts the parent once it is inside the `try` that ends the child."""
    _flush()  # what this process printed is not printed again by the child
    read_end, write_end = os.pipe()
    out_read, out_write = os.pipe()
    held = _HeldInterrupt()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    parent = os.getpid()
    try:
        with warnings.catch_warnings():  # Python 3.12+ warns when threads exist; the child
            warnings.simplefilter("ignore", DeprecationWarning)  # only runs the code, exits
            pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        held.release()
        for end in (read_end, write_end, out_read, out_write):
            os.close(end)
        raise
    if pid == 0:
        os.close(read_end)
        os.close(out_read)
        _child(code, write_end, out_write, mask, seconds, parent)
    with contextlib.suppress(OSError):  # as the child does: either may run first
        os.setpgid(pid, pid)
    status: int | None = None
    cpu = 0.0
    output = _Output(out_read)
    try:
        os.close(write_end)
        os.close(out_write)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        held.release()  # a Ctrl-C meanwhile raises here
        payload, status, cpu = _collect(read_end, pid, wall, stop, output)
        if status is None:
            status, cpu = _reaped(pid, 0)
    finally:
        os.close(read_end)
        if status is None:  # timed out, stopped or interrupted: the child goes too
            _end(pid)
        _end_group(pid)  # and whatever it started, which no guard of its own counts
        output.close()
    try:
        kind, value = _Plain(io.BytesIO(payload)).load()
    except Exception:  # nothing, or part of an answer: the child died first
        if _out_of_cpu(status, cpu, seconds):
            raise TimedOut("cpu") from None
        raise Died(_death(status)) from None
    if kind == "value":
        return value  # type: ignore[no-any-return]
    raise (Fault if kind == "fault" else Raised)(value)


class _HeldInterrupt:
    """SIGINT's handler replaced, in the main thread, by one that only notes the signal,
    until `release` puts the handler back and delivers a noted signal to it (a
    KeyboardInterrupt by default) where the caller chose. In any other thread, or where the
    handler was not set from Python, nothing is replaced: only the main thread is ever
    interrupted, and a handler we could not restore is not ours to replace."""

    def __init__(self) -> None:
        self.noted = False
        self.previous: Any = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)
            if previous is not None:
                self.previous = previous
                signal.signal(signal.SIGINT, self._note)

    def _note(self, number: int, frame: object) -> None:
        self.noted = True

    def release(self) -> None:
        if self.previous is None:
            return
        signal.signal(signal.SIGINT, self.previous)
        self.previous = None
        if self.noted:
            signal.raise_signal(signal.SIGINT)


def _child(code: Callable[[], Any], write_end: int, out_write: int, mask: Any,
           seconds: float, parent: int) -> NoReturn:
    """In the child: run the code, write its answer, exit (never returns, never runs the
    parent's clean-up: `os._exit`). SIGINT is ignored (a Ctrl-C is the parent's to act on),
    then the parent's signal mask restored; the CPU guard set (`_cpu_guard`). Its
    descriptors 1 and 2 are the output pipe (`out_write`) the parent passes on to its
    standard error, at most `OUTPUT_SHOWN` bytes (`_Output`)."""
    status = 70
    try:
        os.setpgid(0, 0)  # its own process group: whatever it starts ends with it (`_end`)
        _die_with(parent)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _cpu_guard(seconds)
        for descriptor in (1, 2):
            with contextlib.suppress(OSError):
                os.dup2(out_write, descriptor)
        os.close(out_write)
        # Python's streams too, whatever they were (a test's capture): one stream on the pipe
        # (never closed: the child exits with it)
        stream = open(2, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                      closefd=False)
        sys.stdout = sys.stderr = stream
        try:
            answer: tuple[str, Any] = ("value", code())
        except Fault as fault:
            answer = ("fault", str(fault))
        except BaseException as error:  # whatever the code raised is its answer
            answer = ("raised", described(error))
        try:
            payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as error:  # not plain data
            payload = pickle.dumps(("raised", described(error)))
        _flush()  # what the code printed
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        status = 0
    finally:
        os._exit(status)


def _cpu_guard(seconds: float) -> None:
    """In the child: end it after `seconds` of its CPU time (a fresh count: a forked child's
    starts at 0). `ITIMER_PROF`'s SIGPROF, whose default action ends the process, at
    `seconds`; behind it `RLIMIT_CPU` (whole seconds): SIGXCPU a second later, SIGKILL a
    second after that, a limit the code cannot raise (it can lower its hard limit only),
    for code that handles or blocks the signals."""
    for number in (signal.SIGPROF, signal.SIGXCPU):
        signal.signal(number, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    if resource is None:  # pragma: no cover - not POSIX
        return
    soft = math.ceil(seconds) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:  # lower already: kept (it cannot be raised)
        soft = min(soft, hard)
    else:
        hard = soft + 1
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _out_of_cpu(status: int | None, cpu: float, seconds: float) -> bool:
    """Whether a child that ended without answering was ended by the CPU guard: by its
    signals (SIGPROF, SIGXCPU), or by SIGKILL once its CPU time reached the guard (the
    `RLIMIT_CPU` hard limit, for code that handled the others)."""
    if status is None or not os.WIFSIGNALED(status):
        return False
    number = os.WTERMSIG(status)
    return number in (signal.SIGPROF, signal.SIGXCPU) or (
        number == signal.SIGKILL and cpu >= seconds)


def _reaped(pid: int, options: int) -> tuple[int | None, float]:
    """`os.wait4`: the child's status (None: it has not ended, with `os.WNOHANG`) and the
    CPU seconds it used (user and system)."""
    done, status, usage = os.wait4(pid, options)
    if not done:
        return None, 0.0
    return status, usage.ru_utime + usage.ru_stime


def _collect(read_end: int, pid: int, wall: float, stop: Callable[[], str | None],
             output: _Output) -> tuple[bytes, int | None, float]:
    """Everything the child writes until it closes the pipe or exits (its status and CPU
    seconds then, else None and 0), its output passed on meanwhile (`output`); `TimedOut`
    ("wall") past `wall` seconds, `Stopped` when `stop` gives a reason (asked every `POLL`
    seconds). A process the code started may hold the pipe open after the child has
    answered and exited: the child's exit ends the answer too (red team 5: it was a false
    "did not return within 60 s")."""
    chunks: list[bytes] = []
    deadline = time.monotonic() + wall
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimedOut("wall")
        ready, _, _ = select.select([read_end, *output.ends()], [], [], min(left, POLL))
        if not ready:
            status, cpu = _reaped(pid, os.WNOHANG)
            if status is not None:  # what it wrote is in the pipe: it could not exit before
                return b"".join([*chunks, *_available(read_end)]), status, cpu
            if (reason := stop()) is not None:
                raise Stopped(reason)
            continue
        if output.end in ready:
            output.read()
        if read_end not in ready:
            continue
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            return b"".join(chunks), None, 0.0
        chunks.append(chunk)


def _available(read_end: int) -> Iterator[bytes]:
    """What the pipe holds now, read without waiting."""
    while select.select([read_end], [], [], 0)[0]:
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            return
        yield chunk


#: Bytes of a child's output (descriptors 1 and 2) passed on to standard error per call.
OUTPUT_SHOWN = 1 << 16
#: Chunks read from a child's output pipe once it has answered (at most 16 MiB).
DRAINED = 256


class _Output:
    """A call's output, read from its pipe as it comes (so it never blocks on a full pipe):
    the first `OUTPUT_SHOWN` bytes written to standard error (`to`: descriptor 2, or, while
    the call runs in this process with descriptor 2 on the pipe, a duplicate of the real
    one), the rest counted and left out, then one line saying how many bytes were (a
    plug-in printing 300 MB a call once made gigabytes of standard error)."""

    def __init__(self, end: int, to: int | None = 2) -> None:
        self.end: int | None = end
        self.to = to  # None: descriptor 2 was closed, nothing is shown
        self.shown = 0
        self.left_out = 0
        self.line_open = False  # what was shown ends inside a line

    def ends(self) -> list[int]:
        """The pipe, while it is open."""
        return [] if self.end is None else [self.end]

    def read(self) -> None:
        """One chunk of the pipe, passed on or counted; the pipe closed at its end."""
        if self.end is None:
            return
        chunk = os.read(self.end, 1 << 16)
        if not chunk:
            os.close(self.end)
            self.end = None
            return
        shown = chunk[: max(0, OUTPUT_SHOWN - self.shown)]
        self.shown += len(shown)
        self.left_out += len(chunk) - len(shown)
        if shown and self.to is not None:
            self.line_open = not shown.endswith(b"\n")
            if self.to == 2:  # not while this process's own streams lead into the pipe:
                _flush()  # the reading thread would wait on the pipe it has to empty
            with contextlib.suppress(OSError):
                _write_all(self.to, shown)

    def pump(self, stop: threading.Event) -> None:
        """Read the pipe until it ends, or, once `stop` is set, until it is empty (at most
        `DRAINED` more chunks: a process the code started may hold it open and write on):
        the thread that empties it while the code runs in this process."""
        after = 0
        while self.end is not None and after < DRAINED:
            ready = select.select([self.end], [], [], POLL)[0]
            if stop.is_set():
                if not ready:
                    return
                after += 1
            if ready:
                self.read()

    def close(self) -> None:
        """What the child left in the pipe (read without waiting, and at most `DRAINED`
        chunks: a process it started may hold the pipe open, and write on), then the pipe
        closed and the line on what was left out."""
        for _ in range(DRAINED):
            if self.end is None or not select.select([self.end], [], [], 0)[0]:
                break
            self.read()
        more = ""
        if self.end is not None:
            more = "at least " if select.select([self.end], [], [], 0)[0] else ""
            os.close(self.end)
            self.end = None
        if self.left_out:
            with contextlib.suppress(Exception):
                print(("\n" if self.line_open else "") + f"novikoff: {more}{self.left_out} more "
                      f"bytes of a plug-in call's output left out (the first {OUTPUT_SHOWN} "
                      "bytes of each call are shown)", file=sys.stderr, flush=True)


def _write_all(descriptor: int, data: bytes) -> None:
    """All of `data` written to `descriptor`."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]


#: Linux's `prctl` option that sends the caller a signal when its parent ends.
PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """Have the child killed when the audit that forked it ends, where the system can say so
    (Linux). The child leads its own process group (so `_end_group` can end what it
    starts), which also takes it out of the audit's: a `timeout`, a CI runner or a terminal
    that ends the audit with SIGTERM or SIGKILL runs none of the parent's clean-up, and a
    plug-in sleeping or blocked on input (no CPU spent, so no CPU guard) lived on as an
    orphan, one per job, holding whatever memory it had (red team 27: a `time.sleep(1000)`
    plug-in outlived `timeout 20 novikoff audit` by minutes). The thread that forked the
    child waits for it (`_collect`), so the parent's death is the audit's."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the audit ended before the request took effect
        os._exit(70)


def _end(pid: int) -> None:
    """Kill the child and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _end_group(pid: int) -> None:
    """Kill what is left of the child's process group (it leads its own: `_child`): the
    processes a plug-in started. The CPU guard is the child's own (a timer and
    `RLIMIT_CPU` count one process), so a process it forked went on spinning after the call
    was reported stopped, and could outlive the audit (red team 20). Linux does not give a
    new process the number of a process group that still has members, so the group is the
    child's even once the child is reaped."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _death(status: int | None) -> str:
    """How a child ended without answering, in words."""
    if status is not None and os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"killed its process ({name}: {signal.strsignal(number)})"
    code = os.waitstatus_to_exitcode(status) if status is not None else "unknown"
    return f"ended its process (exit status {code})"


def _flush() -> None:
    """Flush this process's standard streams (a closed one is no matter)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


class _Plain(pickle.Unpickler):
    """Reads back plain data only: built-in values and `Fraction`, no other class (so no
    code runs while an answer is read)."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("fractions", "Fraction"):
            return Fraction
        raise pickle.UnpicklingError(f"{module}.{name} is not plain data")


# ---- in this process ------------------------------------------------------------------------


def _here(code: Callable[[], T], seconds: float, wall: float) -> T:
    """`call` in this process: `SIGPROF` after `seconds` of the process's CPU time and
    `SIGALRM` after `wall` seconds (main thread only), and a KeyboardInterrupt told apart
    by the signal (`_CtrlC`)."""
    ctrl_c = _CtrlC()
    try:
        with _alarm(seconds, wall), ctrl_c, _output_to_stderr():
            return code()
    except Fault:
        raise
    except _Alarm as alarm:
        raise TimedOut(alarm.clock) from None
    except BaseException as error:  # the code's, whatever it is (but a real Ctrl-C)
        if isinstance(error, KeyboardInterrupt) and ctrl_c.pressed:
            raise
        raise Raised(described(error)) from None


@contextmanager
def _output_to_stderr() -> Iterator[None]:
    """While the code runs in this process (a plug-in's module loaded, a call with
    `apart=False`), `sys.stdout` points at standard error, and descriptors 1 and 2 at a pipe
    that a thread empties as a child's is emptied (`_Output`): the first `OUTPUT_SHOWN`
    bytes passed on to standard error, the rest counted and said in one line. So a module
    that prints 300 MB when it is imported costs 64 KiB here too. The descriptors are put
    back after; one that cannot be duplicated (closed) is left alone."""
    _flush()
    read_end, write_end = os.pipe()
    saved: dict[int, int] = {}
    for descriptor in (1, 2):
        with contextlib.suppress(OSError):
            saved[descriptor] = os.dup(descriptor)
            os.dup2(write_end, descriptor)
    os.close(write_end)
    output = _Output(read_end, to=saved.get(2))
    stop = threading.Event()
    reader = threading.Thread(target=output.pump, args=(stop,), daemon=True,
                              name="novikoff-plugin-output")
    reader.start()
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        _flush()
        for descriptor, duplicate in saved.items():
            os.dup2(duplicate, descriptor)
        stop.set()
        reader.join()
        for duplicate in saved.values():
            os.close(duplicate)
        output.close()


class _Alarm(BaseException):
    """A guard went off, `clock` says which ("cpu" or "wall"; a BaseException, so that the
    code's own `except Exception` does not swallow it)."""

    def __init__(self, clock: str) -> None:
        super().__init__(clock)
        self.clock = clock


#: The in-process guards: each clock's timer and its signal.
_TIMERS = (("cpu", "ITIMER_PROF", "SIGPROF"), ("wall", "ITIMER_REAL", "SIGALRM"))


@contextmanager
def _alarm(seconds: float, wall: float) -> Iterator[None]:
    """Raise `_Alarm` in this thread after `seconds` of the process's CPU time (SIGPROF) or
    `wall` seconds (SIGALRM) (main thread only; elsewhere, or without the signals, no
    guard: Python cannot interrupt another thread)."""
    if threading.current_thread() is not threading.main_thread() or \
            not all(hasattr(signal, name) for _, _, name in _TIMERS):
        yield
        return

    def expiring(clock: str) -> Callable[[int, object], None]:
        def expire(_signum: int, _frame: object) -> None:
            raise _Alarm(clock)
        return expire

    limits = {"cpu": seconds, "wall": wall}
    previous = []
    for clock, timer, name in _TIMERS:
        number = getattr(signal, name)
        previous.append((number, signal.signal(number, expiring(clock))))
        signal.setitimer(getattr(signal, timer), limits[clock])
    try:
        yield
    finally:
        for _, timer, _name in _TIMERS:
            signal.setitimer(getattr(signal, timer), 0)
        for number, handler in previous:
            signal.signal(number, handler)


class _CtrlC:
    """While entered (main thread only), a SIGINT is noted (`pressed`) before it raises
    KeyboardInterrupt as Python's own handler does: so a KeyboardInterrupt that the code
    raises itself is told from the user's Ctrl-C."""

    def __init__(self) -> None:
        self.pressed = False
        self._previous: Any = None

    def _note(self, _signum: int, _frame: object) -> None:
        self.pressed = True
        raise KeyboardInterrupt

    def __enter__(self) -> _CtrlC:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
