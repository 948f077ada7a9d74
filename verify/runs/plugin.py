"""Users' own algorithms, online or batch, run by the campaign as the built-in ones are.

The contract (docs/proof-files.md, "Your own algorithm"): an online plug-in is a Python
function

    def my_rule(data: Dataset, max_updates: int) -> Iterable[update]

that receives the data as exact rationals (`data.X`: tuples of `Fraction`, `data.y`: labels
-1/+1, in the order of the run) and returns the run's updates in order, each the index of the
example updated on and the iterate after the update: a pair `(index, w_after)` or the engine's
own record (`perceptron.algorithms.trace.UpdateRecord`, read for `.index` and `.w_after`).
The run starts at `w_0 = 0`; every coordinate is an `int` or a `Fraction` (a float is not
exact and is refused). The plug-in makes at most `max_updates` updates (the campaign's limit
for the scenario: its epoch cap times the number of examples, at most `MAX_UPDATES`) and stops
there, as the built-in engines stop at their epoch cap.

The trace becomes an online run (`verify.runs.online.OnlineUpdates`),
so every row set, campaign source and check works on it unchanged. Its form is checked (the
faults below), not that it is the perceptron's run nor one to convergence: a plug-in may stop
early (the passive-aggressive example does) and update off `y x` (a second-order rule). How
each run ended is counted (`Ran`: converged, cut at its limit, stopped before both; updates
not along `y x`) and said beside the verdicts, which are verdicts on those runs.

One name is a plug-in's own: `tau`, the step of an update, `w_next = w + tau y x`,
recovered exactly from the trace (for the built-in runs `tau = eta`). `eta` and `beta` (the
built-in rules' constants) mean nothing for a rule the package does not know: a step that
names them on a plug-in's runs is a fault (bind them with `[numeric] names` instead).

Faults are never verdicts. Each call runs in a child process of its own
(`verify.runs.isolation`: a crash ends the child, not the audit; every call starts from the
state after the import). A plug-in that raises (anything: a `SystemExit` of any code and a
`KeyboardInterrupt` it raises itself are its faults too; a real Ctrl-C still interrupts the
audit), kills its process, returns something that is not such a trace, returns more than
`max_updates` updates (a generator that never ends is read only that far: deterministic),
returns a coordinate past `MAX_VALUE_BITS` or a trace past `MAX_TRACE_BITS`, or
does not return within `seconds` of its process's CPU time (a guard against a loop, never a
budget: the child is killed; CPU seconds, so the same under any load of the machine), or
within `wall` seconds of wall clock (a far larger guard, only against a call blocked outside
the CPU: sleeping, waiting on input) raises `PluginFault`, one line naming the plug-in and
the fault (a timeout's with a remedy). The
campaign stops running that plug-in and the audit reports the line (exit 2); the runs of the
shards before the one that failed (in shard order) are checked as usual, the rest are not,
so its proofs cannot be verified (`incomplete`, or `has-findings` when a run made shows a
violation); every other proof is reported as usual. A timeout is posted where every process
of the audit reads it (`shared_faults`), so the plug-in is called no more in any later shard
(`at`) or worker. Importing the
plug-in's module runs in the process itself (once), under `SIGPROF` (the process's CPU
time) and `SIGALRM` (the wall clock's) in the main thread.

The guards bound one call, not an audit: all of a plug-in's runs in one audit make at most
`work` updates and iterations (`verify.numeric.budgets.PLUGIN_WORK` unless the audit is told
otherwise, `--max-plugin-updates`), a count, never seconds. They are counted in shard order:
the first shard whose runs pass it and every later one are not checked
(`verify.numeric.shards.merge`), and the audit says so; each task posts its count so far on
the audit's board (`post_spent`) so that a later task whose own runs and the posted counts
before it pass the budget makes no more (`spent_before`): its runs would be dropped anyway.

Parameters: `--param KEY=VALUE` after an `--algorithm` (or `Plugin.parse(text, params)`)
calls the function as `my_rule(data, max_updates, KEY=VALUE, ...)`, each value a `Fraction`
read strictly from an integer, `p/q` or a finite decimal (`1/2`, `-3`, `0.25`; no exponent,
no float, no `nan`): exact in, exact out. A key that is not an identifier, a value that is
not such a rational, a key given twice or one the function does not take is a `PluginFault`
before anything runs.

A batch plug-in (for a proof whose `[numeric] run` is `"batch"`: the proof says which kind
a plug-in it names makes, `CONTRACTS`) is called as `my_rule(data, max_iterations, theta0,
theta_star, **params)` from each start of the built-in batch runs
(`verify.runs.batch.batch_starts`) and returns per iteration the examples it updated over
(a non-empty set of indices, `M_k`) and the iterate after: `(members, theta_after)`, or the
engine's `BatchRecord` (read for `.M` and `.w_after`). The trace becomes a batch run
(`verify.runs.batch.BatchRun`), each iteration's step `alpha` read exactly off it
(`theta_after = theta + alpha xbar`, `xbar` the sum of `y x` over the members; an iteration
with no such rational step is a fault), so every batch row set checks it.

No plug-in code runs unless asked for: `Plugin.parse` reads the command line's
`--algorithm`, and entry points (group `novikoff.algorithms`) are looked up only by a name
given there. A proof's `[numeric] algorithm` only selects among the plug-ins given.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import shlex
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import partial
from importlib.metadata import entry_points
from itertools import islice
from math import lcm
from pathlib import Path
from typing import Any, TypeVar

from perceptron.dataset import Dataset, Vector
from verify.runs import isolation
from verify.runs.batch import BatchRun, Iteration, batch_starts
from verify.runs.online import LazyUpdates, OnlineUpdates, Update
from verify.runs.quantity import Runner, Scenario

#: How a plug-in is called, per kind of run it makes (`verify.runs.online`,
#: `verify.runs.batch`): its arguments as shown in a fault, and values to check a signature
#: against (a proof's `[numeric] run` says which kind a plug-in it names makes).
CONTRACTS: dict[str, tuple[str, tuple[Any, ...]]] = {
    "online": ("data, max_updates", (None, 0)),
    "batch": ("data, max_iterations, theta0, theta_star", (None, 0, (), ())),
}
#: The kinds of run a plug-in may make.
KINDS = tuple(CONTRACTS)
#: Entry-point group of installed plug-ins (looked up only by a name given on the command line).
GROUP = "novikoff.algorithms"
#: The most updates any plug-in run may return, whatever the scenario's epoch cap.
MAX_UPDATES = 100_000
#: CPU-time guard per call, in CPU seconds of the call's process: generous, a guard against a
#: loop, never a verdict; CPU time, not the wall clock's, so that whether a call is stopped
#: does not depend on the machine's load (newcomer trial 19: an audit ended in a finding or
#: in exit 2 by the load of a shared machine).
SECONDS = 60.0
#: Wall-clock guard per call, in seconds: only against a call blocked outside the CPU
#: (sleeping, waiting on input), which never spends its CPU seconds; ten times those, so that
#: a call busy on the CPU meets the CPU guard first unless the load leaves it less than a
#: tenth of a core.
WALL_SECONDS = 600.0
#: What to do about a call past its CPU seconds, said in its fault.
REMEDY = ("to stay within it: --budget small (fewer, smaller scenarios), fewer epochs in the "
          "plug-in, or faster code")
#: The most bits one coordinate a plug-in returns may take (numerator and denominator
#: together: about 19 700 decimal digits), and all the coordinates of one call's trace. Past
#: them the run is a fault, found in the plug-in's child before the value is sent: exact
#: checks on a number of millions of digits (`Fraction(10)**3_000_000`) would keep the audit
#: computing for ever (the `--max-scaled-bits` idea, for what a plug-in returns).
MAX_VALUE_BITS = 1 << 16
MAX_TRACE_BITS = 1 << 30

Algorithm = Callable[..., Iterable[Any]]  # (data, max_updates, **params)
T = TypeVar("T")
#: A parameter's value as written: an integer, `p/q` or a finite decimal (ASCII digits only).
RATIONAL = re.compile(r"[+-]?[0-9]+(?:/[0-9]+|\.[0-9]+)?", re.ASCII)


class PluginFault(isolation.Fault):
    """A plug-in failed: one line naming it and the fault (never a verdict)."""


@dataclass(frozen=True)
class Plugin:
    """A user's algorithm: the name proofs select it by (`[numeric] algorithm`), where it is
    loaded from (`spec`, `MODULE:FUNCTION` or `FILE.py:FUNCTION`; None for a function given
    through the API) and the function, loaded once per process."""

    name: str
    spec: str | None = None
    function: Algorithm | None = field(default=None, compare=False)
    seconds: float = SECONDS  # CPU seconds of each call (`SECONDS`)
    wall: float = WALL_SECONDS  # wall-clock seconds of each call (`WALL_SECONDS`)
    params: tuple[tuple[str, Fraction], ...] = ()  # keyword arguments of every call
    #: each call in a child process of its own (`verify.runs.isolation`); False: in the
    #: process running the campaign (a debugger sees it, a crash ends that process)
    isolated: bool = True
    #: a folder every process of one audit reads, where the plug-in's timeout is posted
    #: (`shared_faults`): once it has timed out anywhere, no process calls it again
    board: str | None = field(default=None, compare=False)
    #: the most updates and iterations its runs may make in one audit (None: an audit gives
    #: it `verify.numeric.budgets.PLUGIN_WORK`, a campaign run alone none): counted in shard
    #: order, the shard that passes it and every later one are not checked
    #: (`verify.numeric.shards.merge`)
    work: int | None = None

    @classmethod
    def parse(cls, text: str, params: Iterable[str] = ()) -> Plugin:
        """`[NAME=]MODULE:FUNCTION`, `[NAME=]FILE.py:FUNCTION`, or the NAME of an installed
        entry point; NAME defaults to the function's name, `_` read as `-`; `params` are
        `KEY=VALUE` texts (`parameters`). Loads it (so a spelling mistake is found before
        the audit starts) and checks that it takes the parameters; raises PluginFault."""
        given = parameters(params, f"--algorithm {text}")
        name, spec = cls.named(text), text.rpartition("=")[2]
        if not spec:
            raise PluginFault(f"--algorithm {text}: give MODULE:FUNCTION, FILE.py:FUNCTION or "
                              "an installed entry point's name after NAME=")
        if ":" not in spec:
            found = [e for e in entry_points(group=GROUP) if e.name == spec]
            if not found:
                raise PluginFault(f"--algorithm {text}: no entry point {spec!r} in group "
                                  f"{GROUP} (give MODULE:FUNCTION or FILE.py:FUNCTION)")
            spec = found[0].value
        plugin = cls(name, spec, params=given)
        plugin.takes(plugin.load())
        return plugin

    @staticmethod
    def malformed(text: str) -> str | None:
        """What is wrong with `--algorithm TEXT` as written, read without loading anything
        (None: well formed): `check` takes the text without loading its code, so a spelling
        the audit could never load must be refused there, not passed as a known name.
        `[NAME=]MODULE:FUNCTION`, `[NAME=]FILE.py:FUNCTION` or `[NAME=]ENTRY-POINT`: NAME an
        algorithm id as `[numeric] algorithm` writes it, MODULE a dotted Python name,
        FUNCTION a Python name."""
        from proofs.step import STEP_ID  # the id `[numeric] algorithm` is read as

        name, equals, spec = text.rpartition("=")
        given = f"--algorithm {text!r}: "
        if equals and not name:
            return given + "the NAME before '=' is empty (give NAME=MODULE:FUNCTION)"
        if name and not STEP_ID.fullmatch(name):
            return (given + f"{name!r} is no algorithm id ([a-z0-9-]+, as [numeric] "
                    "algorithm names it)")
        if not spec.strip():
            return (given + "give MODULE:FUNCTION, FILE.py:FUNCTION or an installed entry "
                    "point's name" + (" after NAME=" if equals else ""))
        if ":" not in spec:
            return None if spec == spec.strip() else (
                given + f"the entry point's name {spec!r} has spaces around it")
        where, _, attribute = spec.rpartition(":")
        if not attribute.isidentifier():
            return given + f"FUNCTION {attribute!r} after the last ':' is not a Python name"
        if where.endswith(".py") and where.strip() == where and len(where) > 3:
            return None
        if not all(part.isidentifier() for part in where.split(".")):
            return (given + f"MODULE {where!r} before the last ':' is neither a dotted "
                    "Python module name nor a FILE.py path")
        return None

    @staticmethod
    def named(text: str) -> str:
        """The name `--algorithm TEXT` gives its plug-in, whether or not it can be loaded:
        NAME of `NAME=...`, else the function's name with `_` read as `-`, else the entry
        point's name."""
        name, _, spec = text.rpartition("=")
        return name or (spec.rpartition(":")[2].replace("_", "-") if ":" in spec else spec)

    @classmethod
    def of(cls, name: str, function: Algorithm, params: Iterable[str] = ()) -> Plugin:
        """A function given through the API (pickled by reference to reach a worker)."""
        if not callable(function):
            raise PluginFault(f"plug-in {name}: {function!r} is not callable")
        plugin = cls(name, None, function, params=parameters(params, f"plug-in {name}"))
        plugin.takes(function)
        return plugin

    def takes(self, function: Algorithm, kind: str | None = None) -> None:
        """PluginFault unless `function` can be called as a plug-in making runs of `kind`
        (`CONTRACTS`; None: of either kind, the proofs say which it makes), with the
        parameters (a function whose signature Python cannot read is given the benefit of
        the doubt: a wrong call is then its fault at run time)."""
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):
            return
        keys = "".join(f", {k}={v}" for k, v in self.params)
        kinds = (kind,) if kind is not None else KINDS
        first: TypeError | None = None
        for each in kinds:
            try:
                signature.bind(*CONTRACTS[each][1], **dict(self.params))
                return
            except TypeError as error:
                first = first or error
        calls = [f"({CONTRACTS[k][0]}{keys})" + (
            f" ({'an' if k[0] in 'aeiou' else 'a'} {k} algorithm)" if len(kinds) > 1 else "")
            for k in kinds]
        raise PluginFault(f"plug-in {self.name} cannot be called with {' nor '.join(calls)}: "
                          f"{first}") from None

    def options(self) -> str:
        """The command-line options that give this plug-in (`--algorithm ... --param ...`),
        quoted for a shell; for a plug-in given by a function, a note that none does."""
        if self.spec is None:
            return f"(the plug-in {self.name} given through the API)"
        return " ".join(["--algorithm", shlex.quote(f"{self.name}={self.spec}"), *(
            f"--param {shlex.quote(f'{k}={v}')}" for k, v in self.params)])

    def load(self) -> Algorithm:
        """The function (imported here on first use: a worker imports it by `spec`)."""
        if self.function is not None:
            return self.function
        assert self.spec is not None
        where, _, attribute = self.spec.rpartition(":")
        def find() -> Any:
            if where.endswith(".py") and (problem := _not_a_file(where)) is not None:
                raise PluginFault(f"plug-in {self.name} ({self.spec}) cannot be loaded: "
                                  f"{where}: {problem}")
            try:
                module = _module(where)
            except ModuleNotFoundError as error:
                if (file := _beside(where, error)) is None:
                    raise
                raise PluginFault(
                    f"plug-in {self.name} ({self.spec}) cannot be loaded: no module named "
                    f"{where!r} on Python's path (the `novikoff` command does not put the "
                    f"working directory there); the file {file} is here: give it as "
                    f"{self.name}={file}:{attribute}, or set PYTHONPATH") from None
            if not hasattr(module, attribute):  # named by the user's file, not the module's
                raise PluginFault(f"plug-in {self.name} ({self.spec}) cannot be loaded: "
                                  f"{where} defines no {attribute!r}")
            return getattr(module, attribute)

        # importing runs the module's code: any failure there is the plug-in's fault; it runs
        # in this process, which keeps the module (each call's child starts from it)
        function = self._calling(find,
                                 f"({self.spec}) cannot be loaded: {{}}",
                                 f"({self.spec}) did not load within {{}}",
                                 apart=False)
        if not callable(function):
            raise PluginFault(f"plug-in {self.name} ({self.spec}): {attribute} is not callable")
        object.__setattr__(self, "function", function)
        return function

    def source_file(self) -> str | None:
        """The file the plug-in's module was loaded from (`FILE.py` as given, else the
        module's `__file__` once `load` has imported it); None for a function given through
        the API, a module not loaded, or one without a file."""
        if self.spec is None:
            return None
        where = self.spec.rpartition(":")[0]
        if where.endswith(".py"):
            return where
        found = getattr(sys.modules.get(where), "__file__", None)
        return found if isinstance(found, str) else None

    def __getstate__(self) -> dict[str, Any]:
        """A loaded spec travels as its spec (the worker imports it), a function by reference."""
        state = dict(self.__dict__)
        if self.spec is not None:
            state["function"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def run(self, data: Dataset, u: Vector, max_updates: int) -> OnlineUpdates:
        """The plug-in's run on `data` as an online run; raises PluginFault (at once, when
        it timed out already in this audit: `posted`)."""
        function = self.load()
        cap = limit(max_updates)
        if (posted := self.posted()) is not None:
            raise PluginFault(posted)
        items = self._calling(lambda: self._read(data, function(data, cap, **dict(self.params)),
                                                 cap),
                              f"raised {{}} on {data.name}",
                              f"did not return within {{}} on {data.name} "
                              f"({data.n} examples)",
                              f"{{}} while running on {data.name}")
        updates, steps = _trace(data, items)
        return OnlineUpdates(data, tuple(u), LazyUpdates(len(updates), lambda: updates),
                             steps=steps, plugin=self.name)

    def _calling(self, code: Callable[[], T], failed: str, slow: str, died: str = "{}", *,
                 apart: bool | None = None) -> T:
        """`code()`, the plug-in's own code, run by `verify.runs.isolation.call`: in a child
        process (`isolated`, unless `apart` says otherwise) or in this one, within `seconds`
        of CPU time and `wall` of wall clock. Whatever goes wrong is a `PluginFault` naming
        the plug-in: `failed` with what it raised put in (a `SystemExit` of any code and a
        `KeyboardInterrupt` it raises itself included: they are its way of failing, not the
        user's wish to stop the audit; a real Ctrl-C still interrupts), `died` with how its
        process ended put in, or `slow` past either guard, the guard put in (`_guard`),
        which is posted (`post`) so that no process of the audit calls it again; a child
        still running when another process posts that is ended, with the posted fault."""
        try:
            return isolation.call(code, self.seconds, wall=self.wall,
                                  apart=self.isolated if apart is None else apart,
                                  stop=self.posted)
        except PluginFault:
            raise
        except isolation.Fault as fault:  # a PluginFault raised in the child
            raise PluginFault(str(fault)) from None
        except isolation.Raised as error:
            raise PluginFault(f"plug-in {self.name} {failed.format(error)}") from None
        except isolation.Died as death:
            raise PluginFault(f"plug-in {self.name} {died.format(death)}") from None
        except isolation.Stopped as posted:
            raise PluginFault(str(posted)) from None
        except isolation.TimedOut as out:
            within, meaning = self._guard(out.clock, apart is False)
            fault = f"plug-in {self.name} {slow.format(within)}: {meaning}"
            self.post(fault)
            raise PluginFault(fault) from None

    def _guard(self, clock: str, loading: bool) -> tuple[str, str]:
        """The guard that went off, in words, and what it means: `60 CPU-seconds` and what
        counted and what to do, or `600 s of wall clock` and what it guards against."""
        if clock == "wall":
            return (f"{self.wall:g} s of wall clock", "a guard against a call blocked outside "
                    f"the CPU (sleeping, waiting on input), which spends none of its "
                    f"{self.seconds:g} CPU-seconds")
        whose = "the audit's process" if loading else "its process"
        return (f"{self.seconds:g} CPU-seconds", f"{whose}'s CPU time, the same under any "
                "load" + ("" if loading else f"; {REMEDY}"))

    def _key(self) -> str:
        """The plug-in's name as its postings' file names start (`_posting`)."""
        return hashlib.sha256(self.name.encode("utf-8", "surrogatepass")).hexdigest()[:24]

    def _posting(self) -> Path | None:
        """Where this plug-in's timeout is posted by a task at the current position (`at`;
        None: no board): one file per position, `-1` for a call at no position."""
        if self.board is None:
            return None
        position = _POSITION.get()
        return Path(self.board) / f"{self._key()}.{-1 if position is None else position}.fault"

    def posted(self) -> str | None:
        """The fault posted for this plug-in by any process of the audit that stops a call
        here: one posted by a task before this one in the audit's order (`at`), or, at no
        position, any (the first in order, if several)."""
        if self.board is None:
            return None
        position = _POSITION.get()
        try:
            names = os.listdir(self.board)
        except OSError:  # no board here: a Dask worker on another machine
            return None
        key, found = self._key(), []
        for name in names:  # `KEY.POSITION.fault`; a `.part` being written is not one yet
            parts = name.split(".")
            if (len(parts) == 3 and parts[0] == key and parts[2] == "fault"
                    and re.fullmatch(r"-?[0-9]+", parts[1])):
                at = int(parts[1])
                if position is None or at < position:
                    found.append((at, name))
        for _, name in sorted(found):
            try:
                return (Path(self.board) / name).read_text(encoding="utf-8")
            except OSError:
                continue
        return None

    def post(self, fault: str) -> None:
        """Post `fault` for every process of the audit at this task's position (`at`: it
        ends the calls of the tasks after this one; the first one posted at a position
        stays: written aside, then linked into place, which fails when one is there)."""
        where = self._posting()
        if where is None:
            return
        try:
            handle, aside = tempfile.mkstemp(dir=where.parent, suffix=".part")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(fault)
            try:
                os.link(aside, where)
            finally:
                os.unlink(aside)
        except OSError:  # posted already, or no board here: the fault still ends this call
            pass

    def _spent_posting(self) -> Path | None:
        """Where the work this plug-in's runs made in the task at the current position is
        posted (`post_spent`; None: no board, or no position)."""
        position = _POSITION.get()
        if self.board is None or position is None:
            return None
        return Path(self.board) / f"{self._key()}.{position}.spent"

    def post_spent(self, spent: int) -> None:
        """Post the updates and iterations this task's runs of the plug-in made so far, for
        the later tasks' `spent_before`: after each run while it runs and at its end (what a
        task stopped by `spent_before` made before it stopped): each a lower bound of what
        the task makes, so a later task running beside it stops as soon as the two pass
        the budget, not after making a budget's worth itself."""
        where = self._spent_posting()
        if where is None:
            return
        try:
            handle, aside = tempfile.mkstemp(dir=where.parent, suffix=".part")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(str(spent))
            os.replace(aside, where)
        except OSError:  # no board here: the merge still cuts where the budget says
            pass

    def spent_before(self) -> int:
        """The updates and iterations posted by the tasks before this one in the audit's
        order (`at`), finished or running: a lower bound of what those tasks make, since
        every task's count is at least 0 and only grows. When it and this task's own count
        pass `work`, the merge will drop this task's runs of the plug-in whatever the others
        make (`verify.numeric.shards.merge`), so they need not be made; 0 with no board or
        no position."""
        where = self._spent_posting()
        if where is None:
            return 0
        position, key, total = _POSITION.get() or 0, self._key(), 0
        try:
            names = os.listdir(where.parent)
        except OSError:
            return 0
        for name in names:  # `KEY.POSITION.spent`; a `.part` being written is not one yet
            parts = name.split(".")
            if (len(parts) == 3 and parts[0] == key and parts[2] == "spent"
                    and parts[1].isdigit() and int(parts[1]) < position):
                try:
                    total += int((where.parent / name).read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
        return total

    def run_batch(self, data: Dataset, theta_star: Vector, theta0: Vector,
                  max_iterations: int) -> BatchRun:
        """The plug-in's batch run on `data` from `theta0` (`theta_star` the reference
        separator, for a step that needs it, as the oracle-optimal one does) as a batch run
        (`verify.runs.batch.BatchRun`); raises PluginFault (at once, when it timed out
        already in this audit)."""
        function = self.load()
        cap = limit(max_iterations)
        if (posted := self.posted()) is not None:
            raise PluginFault(posted)
        start, star = tuple(theta0), tuple(theta_star)
        items = self._calling(
            lambda: self._read_batch(data, function(data, cap, start, star,
                                                    **dict(self.params)), cap),
            f"raised {{}} on {data.name}",
            f"did not return within {{}} on {data.name} ({data.n} examples)",
            f"{{}} while running on {data.name}")
        return BatchRun(data, star, start, self._iterations(data, start, items))

    def _read_batch(self, data: Dataset, returned: Iterable[Any], cap: int
                    ) -> list[tuple[tuple[int, ...], Vector]]:
        """What a batch plug-in returned, read into plain exact values (in its child, as
        `_read`): at most `cap` iterations, each the examples it updated over (a non-empty
        set of indices, kept in index order) and `theta_after` of `data.d` ints or Fractions."""
        items = list(islice(self._iterable(returned, "iterations", data), cap + 1))
        if len(items) > cap:
            raise PluginFault(f"plug-in {self.name} returned more than {cap} iterations on "
                              f"{data.name} (its limit: max_iterations)")
        out: list[tuple[tuple[int, ...], Vector]] = []
        for k, item in enumerate(items):
            members, after = self._batch_parts(k, item)
            members = tuple(members)
            if not members or not all(isinstance(j, int) and not isinstance(j, bool)
                                      and 0 <= j < data.n for j in members):
                # each fault names the scenario, as the others do (newcomer 29: the line
                # for an empty M_k said which iteration but not on which data)
                raise PluginFault(f"plug-in {self.name}: iteration {k} on {data.name} updates "
                                  f"over " + f"{members!r}"[:200] + ", not a non-empty set "
                                  f"of indices 0..{data.n - 1}")
            if len(set(members)) != len(members):
                raise PluginFault(f"plug-in {self.name}: iteration {k} on {data.name} names "
                                  "an example twice")
            out.append((tuple(sorted(int(j) for j in members)),
                        self._vector(data, f"iteration {k}'s theta_after", after)))
        self._within(data, (after for _, after in out))
        return out

    def _batch_parts(self, k: int, item: Any) -> tuple[Any, Any]:
        """`(members, theta_after)` of a pair or of a `BatchRecord`-like object."""
        if hasattr(item, "M") and hasattr(item, "w_after"):
            return item.M, item.w_after
        if isinstance(item, tuple) and len(item) == 2 and all(isinstance(p, Iterable)
                                                              for p in item):
            return item
        raise PluginFault(f"plug-in {self.name}: iteration {k} is {item!r}"[:200]
                          + ", not (members, theta_after) nor a BatchRecord")

    def _iterations(self, data: Dataset, theta0: Vector,
                    items: Iterable[tuple[tuple[int, ...], Vector]]) -> tuple[Iteration, ...]:
        """The iterations of a batch trace read (`_read_batch`), each with its step `alpha`,
        `theta_after = theta + alpha xbar` exactly (PluginFault when there is none: the
        batch kind's quantities are defined by that update)."""
        theta = theta0
        out = []
        for k, (members, after) in enumerate(items):
            xbar = _signed_sum(data, members)
            alpha = _step(theta, after, xbar, 1)
            if alpha is None or not any(xbar):
                raise PluginFault(f"plug-in {self.name}: iteration {k} on {data.name} is not "
                                  "theta + alpha xbar for a rational alpha (xbar, the sum of "
                                  "y x over its members, is " + ("zero)" if not any(xbar) else
                                                                 "not along theta_after - theta)"))
            out.append(Iteration(theta, members, xbar, alpha, after))
            theta = after
        return tuple(out)

    def _vector(self, data: Dataset, what: str, value: Any) -> Vector:
        """`value` as `data.d` exact rationals; PluginFault naming `what` otherwise."""
        value = tuple(value)
        if len(value) != data.d:
            raise PluginFault(f"plug-in {self.name}: {what} has {len(value)} coordinates, "
                              f"the data {data.d}")
        for i, v in enumerate(value):
            if not _exact(v):
                raise PluginFault(f"plug-in {self.name}: {what} has coordinate {i} = "
                                  f"{repr(v)[:80]}, a {type(v).__name__}, not an int or a "
                                  "Fraction (exact)")
        vector = tuple(Fraction(v) for v in value)
        for i, v in enumerate(vector):
            if _bits(v) > MAX_VALUE_BITS:
                raise PluginFault(f"plug-in {self.name}: {what} has coordinate {i} of "
                                  f"{_bits(v)} bits, more than the limit of {MAX_VALUE_BITS} "
                                  "(numerator and denominator)")
        return vector

    def _within(self, data: Dataset, vectors: Iterable[Vector]) -> None:
        """PluginFault when the coordinates of one call's trace take more than
        `MAX_TRACE_BITS` bits in all (each is within `MAX_VALUE_BITS`: `_vector`)."""
        total = sum(_bits(v) for vector in vectors for v in vector)
        if total > MAX_TRACE_BITS:
            raise PluginFault(f"plug-in {self.name}: its trace on {data.name} takes {total} "
                              f"bits, more than the limit of {MAX_TRACE_BITS}")

    def _iterable(self, returned: object, what: str, data: Dataset) -> Iterator[Any]:
        """An iterator over what the plug-in returned, or a PluginFault saying it returned no
        iterable: reading it was said as the plug-in having raised `TypeError: 'NoneType'
        object is not iterable`, which it had not (red team 27: a plug-in returning None)."""
        try:
            return iter(returned)  # type: ignore[call-overload, no-any-return]
        except TypeError:
            said = " ".join(repr(returned).split())[:60]
            raise PluginFault(f"plug-in {self.name} returned {said} on {data.name}, not an "
                              f"iterable of {what}") from None

    def _read(self, data: Dataset, returned: Iterable[Any], cap: int
              ) -> list[tuple[int, Vector]]:
        """What the plug-in returned, read into plain exact values: at most `cap` updates,
        each an example's index and `w_after` of `data.d` ints or Fractions (PluginFault
        otherwise). Reading it runs the plug-in's code (a generator, its objects' methods):
        it is called inside `_calling`."""
        items = list(islice(self._iterable(returned, "updates", data), cap + 1))
        if len(items) > cap:
            raise PluginFault(f"plug-in {self.name} returned more than {cap} updates on "
                              f"{data.name} (its limit: max_updates)")
        out: list[tuple[int, Vector]] = []
        for k, item in enumerate(items):
            index, after = self._parts(k, item)
            if not (isinstance(index, int) and not isinstance(index, bool)
                    and 0 <= index < data.n):
                raise PluginFault(f"plug-in {self.name}: update {k} names example {index!r}, "
                                  f"not an index 0..{data.n - 1}")
            out.append((int(index), self._vector(data, f"update {k}'s w_after", after)))
        self._within(data, (after for _, after in out))
        return out

    def _parts(self, k: int, item: Any) -> tuple[Any, Any]:
        """`(index, w_after)` of a pair or of an `UpdateRecord`-like object."""
        if hasattr(item, "index") and hasattr(item, "w_after") and item.w_after is not None:
            return item.index, item.w_after
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Iterable):
            return item
        raise PluginFault(f"plug-in {self.name}: update {k} is {item!r}"[:200]
                          + ", not (index, w_after) nor an UpdateRecord")


def parameters(texts: Iterable[str], what: str) -> tuple[tuple[str, Fraction], ...]:
    """`KEY=VALUE` texts read strictly: KEY an identifier given once, VALUE an exact
    rational as written (`RATIONAL`: `3`, `-1/2`, `0.25`); PluginFault naming the text."""
    out: dict[str, Fraction] = {}
    for given in texts:
        text = str(given)[:80]  # as shown in a fault (a value may be long)
        key, equals, value = str(given).partition("=")
        if not equals or not key.isidentifier() or not key.isascii():
            raise PluginFault(f"{what}: --param {text!r} is not KEY=VALUE with KEY a name")
        if not value.strip():
            raise PluginFault(f"{what}: --param {text!r} gives {key} no value (write "
                              f"{key}=VALUE, VALUE an exact rational such as 1/2 or 0.25)")
        if not RATIONAL.fullmatch(value):
            raise PluginFault(f"{what}: --param {text!r}: {value[:40]!r} is not an exact rational "
                              "(an integer, p/q or a finite decimal such as 1/2 or 0.25)")
        if key in out:
            raise PluginFault(f"{what}: --param {key} given twice")
        try:
            out[key] = Fraction(value)
        except ZeroDivisionError:
            raise PluginFault(f"{what}: --param {text!r} divides by zero") from None
        except ValueError:  # more digits than Python converts
            raise PluginFault(f"{what}: --param {key}: {len(value)} characters, too long "
                              "a number") from None
    return tuple(out.items())


def _trace(data: Dataset, items: Iterable[tuple[int, Vector]]
           ) -> tuple[tuple[Update, ...], tuple[Fraction | None, ...]]:
    """The updates of a trace read (`Plugin._read`), and each one's step `tau` when
    `w_after - w_before` is `tau y x` exactly (else None)."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    updates: list[Update] = []
    steps: list[Fraction | None] = []
    for index, after in items:
        x, y = data.X[index], data.y[index]
        updates.append(Update(w, x, y, after))
        steps.append(_step(w, after, x, y))
        w = after
    return tuple(updates), tuple(steps)


def _bits(value: Fraction) -> int:
    """The bits of an exact value: its numerator's and its denominator's."""
    return value.numerator.bit_length() + value.denominator.bit_length()


def _exact(value: object) -> bool:
    """An int (not a bool) or a Fraction: a value exact arithmetic can decide with."""
    return isinstance(value, Fraction) or (isinstance(value, int) and not isinstance(value, bool))


def _step(w: Vector, after: Vector, x: Vector, y: int) -> Fraction | None:
    """`tau` with `after = w + tau y x` exactly, or None (no such tau: another kind of
    update, such as a second-order one). Read off one coordinate where `x` is not zero
    (`t = tau y` there), then `delta == t x` checked on every coordinate in integers, as
    `d.num t.den v.den == t.num v.num d.den` (denominators are positive), without a
    Fraction made and reduced per coordinate. The same `tau` as the projection
    `y <delta, x> / ||x||^2` when there is one (then every coordinate gives it), at less
    than half the cost: this runs on every update of every call (a fifth of the CPU of
    the passive-aggressive example's audit went here)."""
    delta = [a - b for a, b in zip(after, w, strict=True)]
    c = next((i for i, v in enumerate(x) if v), None)
    if c is None:  # x = 0: only a step that changes nothing is along it
        return Fraction(0) if not any(delta) else None
    t = delta[c] / x[c]
    tn, td = t.numerator, t.denominator
    if all(d.numerator * td * v.denominator == tn * v.numerator * d.denominator
           for d, v in zip(delta, x, strict=True)):
        return t / y
    return None


def _signed_sum(data: Dataset, members: Sequence[int]) -> Vector:
    """`xbar = sum_{j in members} y_j x_j`, exactly: each coordinate summed in integers over
    the least common denominator of its terms and reduced once (a sum of Fractions reduces
    at every term; this runs on every iteration of every batch call)."""
    out = []
    for c in range(data.d):
        terms = [(data.y[j], data.X[j][c]) for j in members]
        common = lcm(*(v.denominator for _, v in terms))
        out.append(Fraction(sum(y * v.numerator * (common // v.denominator) for y, v in terms),
                            common))
    return tuple(out)


def _not_a_file(where: str) -> str | None:
    """Why the plug-in file `where` cannot be read (None: it is a regular file): missing,
    or something else, looked at without opening it (a named pipe would block the reader,
    `/dev/zero` never end), a link followed to what it names."""
    from proofs.proof_file import file_kind

    try:
        mode = os.stat(where).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as error:
        return f"cannot read it ({error.strerror or error})"
    if stat.S_ISREG(mode):
        return None
    return f"is {file_kind(mode)}, not a regular file: a plug-in is a .py file or a module"


def _beside(where: str, error: ModuleNotFoundError) -> str | None:
    """The file of the working directory that the dotted name `where`, not found on
    Python's path (`error`), names (`mine` -> `mine.py`, `a.b` -> `a/b.py`), or None: a
    user who writes `mine:fit` beside `mine.py` gets the spelling that loads it (nc35 K5)."""
    if error.name is None or not (where == error.name or where.startswith(error.name + ".")):
        return None  # a module the plug-in imports is missing, not the plug-in's own
    file = where.replace(".", "/") + ".py"
    return file if Path(file).is_file() else None


def _module(where: str) -> Any:
    """A module by dotted name, or a `.py` file by path (loaded once per process)."""
    if not where.endswith(".py"):
        return importlib.import_module(where)
    path = Path(where).resolve()
    key = f"novikoff_plugin_{abs(hash(str(path)))}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{where}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[key]
        raise
    return module


#: The position in the audit's order of the task this thread runs (`at`), or None.
_POSITION: ContextVar[int | None] = ContextVar("novikoff_plugin_position", default=None)


@contextmanager
def at(position: int | None) -> Iterator[None]:
    """Calls made inside are those of the audit's task at `position` (its index in shard
    order): a timeout they post ends the calls of later tasks only, and only one posted by
    an earlier task ends theirs (`Plugin.posted`). The runs of every task before the first
    whose plug-in failed are then made in any schedule, however many processes run the
    tasks and in whatever order: the audit keeps their verdicts and drops the later tasks'
    (`verify.numeric.shards.merge`), so what it reports is the same for every `--jobs`."""
    token = _POSITION.set(position)
    try:
        yield
    finally:
        _POSITION.reset(token)


@contextmanager
def shared_faults(given: Mapping[str, Plugin]) -> Iterator[dict[str, Plugin]]:
    """The plug-ins `given`, posting their timeouts to a folder that every process of one
    audit reads (removed at the end): the guard's seconds are then spent about once per
    plug-in and audit, not once per shard (a shard before the one that posted still runs,
    `at`: the audit sends a plug-in's shards in order, so at most `--jobs` are under way),
    and a call of a later shard running elsewhere when the fault is posted is ended with
    it. Only timeouts travel so: every other fault is deterministic and cheap, found again
    by each shard, so the fault the audit reports (the first in shard order) is the same
    for every `--jobs`."""
    if not given:
        yield {}
        return
    with tempfile.TemporaryDirectory(prefix="novikoff-plugin-faults-") as folder:
        yield {name: replace(plugin, board=folder) for name, plugin in given.items()}


def plugins(given: Iterable[Plugin | str] | dict[str, Algorithm] | None,
            reserved: Iterable[str] = ()) -> dict[str, Plugin]:
    """The plug-ins given (command-line texts, `Plugin`s, or names mapped to functions), by
    name; a name given twice or one of `reserved` (the built-in algorithms') raises
    PluginFault: a plug-in never stands in for a built-in algorithm."""
    reserved = set(reserved)
    if given is None:
        return {}
    items = ([Plugin.of(n, f) for n, f in given.items()] if isinstance(given, dict) else
             [g if isinstance(g, Plugin) else Plugin.parse(g) for g in given])
    out: dict[str, Plugin] = {}
    for plugin in items:
        if plugin.name in reserved:
            raise PluginFault(f"plug-in name {plugin.name!r} is a built-in algorithm's: "
                              "choose another (NAME=MODULE:FUNCTION)")
        if plugin.name in out:
            raise PluginFault(f"plug-in name {plugin.name!r} given twice")
        out[plugin.name] = plugin
    return out


def runner(plugin: Plugin, kind: str) -> Runner:
    """The campaign's runner of `plugin` for runs of `kind` (ValueError: a kind plug-ins
    do not make; PluginFault: its function cannot be called so)."""
    if kind not in CONTRACTS:
        raise ValueError(f"{plugin.name} is a plug-in, which makes {' or '.join(KINDS)} runs: "
                         f"its steps cannot bind {kind} rows")
    plugin.takes(plugin.load(), kind)
    return partial(_online_run if kind == "online" else _batch_runs, plugin)


def _online_run(plugin: Plugin, scenario: Scenario) -> OnlineUpdates:
    """A user's online algorithm on a scenario, within the campaign's limit: as many updates
    as `max_epochs` cyclic epochs could make (`Plugin.run` caps it further: `limit`)."""
    return plugin.run(scenario.data, scenario.u, _asked(scenario))


def _asked(scenario: Scenario) -> int:
    """The updates the campaign allows an online plug-in on `scenario`: as many as
    `max_epochs` cyclic epochs could make (before `limit`)."""
    return scenario.max_epochs * scenario.data.n


def limit(asked: int) -> int:
    """The most updates (iterations) a plug-in's call may return when `asked` are allowed:
    never more than `MAX_UPDATES`."""
    return min(asked, MAX_UPDATES)


def _batch_runs(plugin: Plugin, scenario: Scenario) -> tuple[BatchRun, ...]:
    """A user's batch algorithm on a scenario, from each start of the built-in batch runs
    (`verify.runs.batch.batch_starts`: 0, -u, a seeded one), at most `max_iterations`."""
    return tuple(plugin.run_batch(scenario.data, scenario.u, start, scenario.max_iterations)
                 for start in batch_starts(scenario))


def steps_of(name: str, run: object) -> None:
    """PluginFault when an update of a plug-in's online trace is not along `y x` (it has no
    step `tau`), for a step that reads `tau` (other runs: nothing to check)."""
    if not isinstance(run, OnlineUpdates) or run.steps is None:
        return
    for k, tau in enumerate(run.steps):
        if tau is None:
            raise PluginFault(f"plug-in {name}: update {k} on {run.data.name} is not along "
                              "y x, so it has no step tau (a step of the proof reads tau)")


@dataclass(frozen=True)
class Ran:
    """How a plug-in's runs of one kind ended, counted over an audit's campaign (summed over
    its shards in any order: the same for every `--jobs`), said beside the verdicts
    (`line`). The contract cannot make more of it a fault: a plug-in may stop before it
    converges (the passive-aggressive example, whose losses only tend to 0, stops after 3
    epochs), and its updates need not be along `y x` (a second-order rule's are not). So
    the audit says what its runs were, and a verdict on them is a verdict on those runs:
    `converged`, the last iterate classifies every example (`classifies`); `cut`, the run
    made as many updates (iterations) as it was allowed, `limit`, as a built-in run stops at
    its epoch cap; `stopped`, neither. `unstepped`: updates of an online run not along `y x`
    of the example they name (no step `tau`). `tied`: converged runs whose last iterate has
    examples on its boundary (`<w, x> = 0`), classified only under a sign(0) convention;
    `idle`: runs that made no update or iteration at all (newcomer 23: a plug-in that never
    updated read "69 converged (the last iterate classifies every example) ... each of its 0
    updates along y x", its w = 0 classifying nothing but by sign(0)). `made_twice`: runs
    made a second time on their scenario (a task's first of each kind: the audit's runs are
    the same on every machine only if the plug-in's are), `otherwise` of them coming out
    otherwise (red team 27 F6: two audits of a plug-in that drew random numbers counted 1157
    and 941 instances, and nothing said why). `negative` and `zero`: updates of an online run
    along `y x` with a negative step `tau` (`w - |tau| y x`: the label forgotten on a
    `y = -1` example, or a negative rate; newcomer 28 F2: every update of a rate bound to
    -1/10 was said to be "along y x", and an update fact such as `eta > 0` cannot see a rate
    bound to a constant) and with step 0 (w unchanged): "along y x" is said only of a
    positive step, the perceptron's direction. For a batch run `updates` counts its
    iterations, and `negative` and `zero` those whose step `alpha` along `xbar` is negative
    (`theta - |alpha| xbar`: gradient ascent on the perceptron loss) or 0 (newcomer 32 N1: a
    batch plug-in with that sign error passed the audit, every step about an iteration
    vacuous on its runs, and nothing said its steps went against `xbar`)."""

    runs: int = 0
    converged: int = 0
    cut: int = 0
    stopped: int = 0
    updates: int = 0
    unstepped: int = 0
    tied: int = 0
    idle: int = 0
    made_twice: int = 0
    otherwise: int = 0
    negative: int = 0
    zero: int = 0

    def __add__(self, other: Ran) -> Ran:
        return Ran(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def counts(self, name: str, kind: str) -> dict[str, object]:
        """What `line` says, as numbers (`summary.plugin_run_counts` in the audit's JSON;
        newcomer 23 L3: a test suite could read the counts only by parsing the sentence).
        For a batch run `updates` counts its iterations and `updates_negative_step`,
        `updates_zero_step` those with a step `alpha` below 0 or equal to 0, as the sentence
        says them; `updates_not_along_yx` is null there (a batch step is read along `xbar`,
        or the run is a fault)."""
        online = kind == "online"
        return {"plugin": name, "kind": kind, "runs": self.runs,
                "converged": self.converged, "cut_at_limit": self.cut,
                "stopped_before_converging": self.stopped, "sign0_only": self.tied,
                "no_update": self.idle, "updates": self.updates,
                "updates_not_along_yx": self.unstepped if online else None,
                "updates_negative_step": self.negative,
                "updates_zero_step": self.zero,
                "made_twice": self.made_twice, "otherwise_when_made_again": self.otherwise}

    def line(self, name: str, kind: str, plugin: Plugin | None = None) -> str:
        """`plug-in mine (m.py:fit, eta = 1/2): 120 online runs: 52 converged, ...`: one line,
        naming what ran (newcomer 21: a handout said neither the code nor its parameters)."""
        steps = "iterations" if kind == "batch" else "updates"
        tied = (f"; {self.tied} of them only under a sign(0) convention, examples on its "
                "boundary" if self.tied else "")
        # newcomer 28: a margin perceptron's one-pass runs read "45 converged", its own rule
        # still updating there; converged is the perceptron's end, said as such
        ends = [f"{self.converged} converged (the last iterate classifies every example{tied}, "
                "where the perceptron stops; a rule that asks more, such as a margin, may not "
                "stop there)",
                f"{self.cut} cut at their limit (max_{steps})",
                f"{self.stopped} stopped before converging and before their limit",
                *([f"{self.idle} made no {steps[:-1]} at all"] if self.idle else [])]
        what = [] if plugin is None else [*([plugin.spec] if plugin.spec else []), *(
            f"{key} = {value}" for key, value in plugin.params)]
        named = f"{name} ({', '.join(what)})" if what else name
        line = (f"plug-in {named}: {self.runs} {kind} run{'s' * (self.runs != 1)}: "
                + ", ".join(ends))
        if kind == "online" and self.updates:
            n = self.updates
            line += "".join((
                *([f"; {self.unstepped} of {n} updates not along y x of the example they "
                   "name"] if self.unstepped else []),
                *([f"; {self.negative} of {n} updates against y x of the example they name "
                   "(a negative step tau, w - |tau| y x: not the perceptron's direction, as "
                   "with a forgotten label or a negative rate)"] if self.negative else []),
                *([f"; {self.zero} of {n} updates with step 0 (w unchanged)"]
                  if self.zero else []),
            )) or f"; each of its {n} updates along y x of its example"
        elif kind == "online" and self.idle < self.runs:  # all idle: said once, above
            line += "; no update at all"
        elif kind == "batch" and self.updates:  # newcomer 32 N1: a step against xbar
            n = self.updates
            line += "".join((
                *([f"; {self.negative} of {n} iterations against xbar (a negative step "
                   "alpha, theta - |alpha| xbar: gradient ascent on the perceptron loss, not "
                   "the batch perceptron's direction, as with a sign error in the step)"]
                  if self.negative else []),
                *([f"; {self.zero} of {n} iterations with step 0 (theta unchanged)"]
                  if self.zero else []),
            ))
        if self.otherwise:
            line += (f"; NOT DETERMINISTIC: of {self.made_twice} runs made twice on the same "
                     f"scenario, {self.otherwise} came out otherwise the second time, so another "
                     "audit of it may make other runs, count other instances and reach "
                     "another verdict")
        return line


def ran(run: object, scenario: Scenario) -> Ran:
    """How one of a plug-in's runs on `scenario` ended (`Ran`): an online run (made within
    `limit` of `_asked` updates) or a batch run (within `limit` of `max_iterations`)."""
    if isinstance(run, OnlineUpdates):
        made, cap = len(run.updates), limit(_asked(scenario))
        last = run.updates[made - 1].w_next if made else tuple(
            Fraction(0) for _ in range(run.data.d))
        steps = run.steps or ()
        updates, unstepped = made, sum(tau is None for tau in steps)
        negative = sum(tau is not None and tau < 0 for tau in steps)
        zero = sum(tau is not None and tau == 0 for tau in steps)
    elif isinstance(run, BatchRun):
        made, cap = len(run.iterations), limit(scenario.max_iterations)
        last, updates, unstepped = run.states[-1], made, 0
        negative = sum(it.alpha < 0 for it in run.iterations)
        zero = sum(it.alpha == 0 for it in run.iterations)
    else:
        return Ran()
    idle = int(made == 0)
    if classifies(run.data, last):
        tied = int(any(sum((a * b for a, b in zip(last, x, strict=True)), Fraction(0)) == 0
                       for x in run.data.X))
        return Ran(1, 1, 0, 0, updates, unstepped, tied, idle, negative=negative, zero=zero)
    return Ran(1, 0, *((1, 0) if made >= cap else (0, 1)), updates, unstepped, 0, idle,
               negative=negative, zero=zero)


def same_runs(made: object, again: object) -> bool:
    """Whether two calls of a plug-in's runner on one scenario made the same runs (a tuple
    of batch runs, or one online run): field by field, a lazy sequence of updates or
    iterations (`LazyUpdates`, equal only to itself) item by item."""
    def fields_of(run: object) -> tuple[object, ...]:
        return tuple(tuple(v) if isinstance(v := getattr(run, f.name), Sequence) else v
                     for f in fields(run) if f.compare)  # type: ignore[arg-type]

    runs, others = (made, again) if isinstance(made, tuple) else ((made,), (again,))
    return (isinstance(others, tuple) and len(runs) == len(others)
            and all(type(a) is type(b) and fields_of(a) == fields_of(b)
                    for a, b in zip(runs, others, strict=True)))


def classifies(data: Dataset, w: Vector) -> bool:
    """Whether `w` classifies every example of `data` under one sign(0): `y <w, x> < 0` for
    none, and the examples on its boundary (`<w, x> = 0`) all of one label. Every rule the
    online and batch kinds cover updates on an example it misclassifies, whatever it asks
    beyond (a margin, a hinge loss), so a run that converged ends at such a `w`; the
    perceptron's own, `y <w, x> > 0` for every example, is one."""
    tied: set[int] = set()
    for x, y in zip(data.X, data.y, strict=True):
        s = sum((a * b for a, b in zip(w, x, strict=True)), Fraction(0))
        if s == 0:
            tied.add(int(y))
            if len(tied) > 1:
                return False
        elif (s > 0) != (y > 0):
            return False
    return True


def work_of(run: object) -> int:
    """The work one of a plug-in's runs counts against its budget (`Plugin.work`): its
    updates (an online run) or iterations (a batch run)."""
    if isinstance(run, OnlineUpdates):
        return len(run.updates)
    if isinstance(run, BatchRun):
        return len(run.iterations)
    return 0
