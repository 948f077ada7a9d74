"""The online perceptron: cyclic epochs over a dataset, or one pass over a stream.

`run_online` makes epochs `1, 2, ...` over the examples in order, updating
`w += eta * y * x` whenever the update rule of the `Conventions` fires, and stops at the first
epoch without an update (converged), at the epoch cap, or when the iterate at the start of an
epoch repeats an earlier one: the run is deterministic, so the epochs in between then repeat
forever, each with an update, and the run provably never converges. The engine works on the
data scaled to integers, where iterates are integer vectors; on non-separable data the
perceptron's iterates stay bounded (the perceptron cycling theorem), so the states are finitely
many and a repeat must come. Repeats are found with Brent's algorithm: O(d) memory, found at
the latest about `2 * (mu + lambda)` epochs after the cycle starts.

`iterate_updates` streams the update records of the same run without keeping them (O(d)
memory beyond the data); `run_stream`/`iterate_stream` make one pass over an iterable of
`(x, y)` pairs with plain Fraction arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from operator import add, mul
from typing import Any

import numpy as np

from perceptron.algorithms import compiled
from perceptron.algorithms.fast import (
    PYTHON_CELLS,
    Block,
    CycleState,
    DualEngine,
    PrimalEngine,
    Problem,
    dual_from_primal,
    exact_combination,
    integer_arrays,
    separates_integer,
)
from perceptron.algorithms.trace import (
    IntegerReplay,
    StreamTrace,
    Trace,
    UpdateRecord,
    example_as_run,
)
from perceptron.conventions import DEFAULT, Conventions
from perceptron.conventions import given as given_conventions
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError
from perceptron.io.inputs import as_dataset
from perceptron.numbers import exact
from perceptron.result import RunResult

#: Called after every epoch with (epoch, total updates so far).
Progress = Callable[[int, int], None]

ENGINES = ("auto", "compiled", "primal", "dual", "exact")


class ExactEngine:
    """The reference engine: the textbook loop in Fraction arithmetic, no scaling, no tiers.

    Slow, and deliberately simple: the fast engines are tested against it.
    """

    def __init__(self, data: Dataset, conventions: Conventions) -> None:
        self.data = data
        self.conventions = conventions
        self.rows = [example_as_run(data, i, conventions.bias) for i in range(data.n)]
        self.w = list(conventions.initial(len(self.rows[0])))
        self.tiers_used = ["fraction"]

    def state(self) -> tuple[Fraction, ...]:
        """The iterate (immutable copy)."""
        return tuple(self.w)

    def same_state(self, saved: tuple[Fraction, ...]) -> bool:
        """Whether the iterate equals a saved one."""
        return tuple(self.w) == saved

    def run_epoch(self) -> list[int]:
        """One pass in order; the positions that updated."""
        conv, eta, updated = self.conventions, self.conventions.eta, []
        for i, (x, y) in enumerate(zip(self.rows, self.data.y, strict=True)):
            margin = y * sum(a * b for a, b in zip(self.w, x, strict=True))
            if conv.updates(margin, y):
                s = eta * y
                self.w = [a + s * b for a, b in zip(self.w, x, strict=True)]
                updated.append(i)
        return updated


#: Most multiply-adds per compiled block (a few tens of milliseconds: progress stays live).
BLOCK_WORK = 1 << 25
#: Most update positions one compiled block records (the buffer is n per epoch).
BLOCK_RECORD = 1 << 21
#: Promotion of `engine="auto"` to the compiled loop, by a deterministic estimate of the time
#: the numpy loop has spent (in about nanoseconds: `n * d` per epoch and `MISTAKE_WORK` per
#: update, measured on sonar and the hard workload of `benchmarks/engine.py`). Importing numba
#: and loading the cached loop cost about a second: the run switches once it has spent about
#: half that, so a short run never pays it and a long one at most doubles its first half second.
MISTAKE_WORK = 20_000
COMPILE_AFTER = 500_000_000


def promote_now(engine: PrimalEngine, work: int) -> bool:
    """Whether an `auto` engine switches to the compiled loop now: numba is installed and
    imported already (nothing left to pay), or the numpy loop's `work` repays importing it."""
    if not compiled.AVAILABLE:
        return False
    return compiled.loaded() or work >= COMPILE_AFTER


class EpochDriver:
    """Cyclic epochs of any engine (`run_epoch()`, `state()`, `same_state()`, and optionally
    `run_block()` for many epochs in one call): iterate it for `(epoch, updated positions)`,
    or `blocks()` for arrays; stops on an error-free epoch, the cap, or a repeated state.

    After iteration: `converged`, `reason`, `epochs`, `mistakes`.
    """

    def __init__(self, engine: ExactEngine | PrimalEngine | DualEngine, max_epochs: int, *,
                 state_name: str = "iterate") -> None:
        if max_epochs < 0:
            raise ValueError(f"max_epochs must be >= 0, not {max_epochs}")
        self.engine = engine
        self.max_epochs = max_epochs
        self.state_name = state_name
        self.converged = False
        self.reason = ""
        self.epochs = 0
        self.mistakes = 0

    def __iter__(self) -> Iterator[tuple[int, list[int]]]:
        for block in self.blocks(record=True):
            assert block.indices is not None
            ends = np.cumsum(block.counts).tolist()
            positions = block.indices.tolist()
            start = 0
            for epoch, end in enumerate(ends, block.first_epoch):
                yield epoch, positions[start:end]
                start = end

    def blocks(self, *, record: bool = True) -> Iterator[Block]:
        """The run as blocks of consecutive epochs (one epoch each unless the engine runs
        compiled); `record=False` leaves the positions that updated out."""
        engine = self.engine
        run_block = engine.run_block if isinstance(engine, PrimalEngine) else None
        span = width = 1
        if isinstance(engine, PrimalEngine):
            width = max(engine.problem.n * engine.problem.d, 1)
            span = max(1, BLOCK_WORK // width)
            if record:
                span = min(span, max(1, BLOCK_RECORD // engine.problem.n))
        cycle = CycleState(engine.state())
        epoch = 1
        auto = isinstance(engine, PrimalEngine) and engine.compiled is None
        work = 0
        while epoch <= self.max_epochs:
            block = None
            if auto and promote_now(engine, work):  # type: ignore[arg-type]
                engine.compiled, auto = True, False  # type: ignore[union-attr]
            if run_block is not None:
                block = run_block(cycle, epoch, min(span, self.max_epochs - epoch + 1), record)
            if block is None:
                block = self._one_epoch(cycle, epoch)
            if auto:  # not compiled: the numpy loop's estimate, whichever loop ran
                work += width * len(block.counts) + MISTAKE_WORK * int(block.counts.sum())
            epoch += len(block.counts)
            if len(block.counts):
                self.epochs = epoch - 1
                self.mistakes += int(block.counts.sum())
                yield block
            if block.status == "converged":
                self.converged = True
                self.reason = f"epoch {self.epochs} made no update"
                return
            if block.status == "cycled":
                self.reason = (
                    f"cycling: the {self.state_name} at the start of epoch {epoch} equals "
                    f"the one at the start of epoch {cycle.saved_epoch}, so the epochs repeat "
                    f"with period {epoch - cycle.saved_epoch} forever, each with updates: the "
                    "run never converges")
                return
        self.reason = (f"epoch cap {self.max_epochs} reached without an error-free epoch"
                       if self.max_epochs else "epoch cap 0: no epoch was run")

    def _one_epoch(self, cycle: CycleState, epoch: int) -> Block:
        """Epoch `epoch` by the engine's `run_epoch`, after the cycle check."""
        none = np.zeros(0, dtype=np.int64)
        if epoch > 1 and cycle.repeats(self.engine, epoch) is not None:
            return Block(epoch, none, none, "cycled")
        updated = self.engine.run_epoch()
        return Block(epoch, np.array([len(updated)], dtype=np.int64),
                     np.array(updated, dtype=np.int64), "ran" if updated else "converged")


class OnlineRun(EpochDriver):
    """One online run over a dataset, driven epoch by epoch (see `EpochDriver`), with the
    final iterate and the exact separation check."""

    def __init__(self, data: Dataset | tuple[Any, Any], conventions: Conventions = DEFAULT, *,
                 max_epochs: int = 1000, engine: str = "auto") -> None:
        data = as_dataset(data, what="OnlineRun")
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
        conventions.initial(data.d + conventions.bias)  # checks the length of w0
        self.data = data
        self.conventions = conventions
        self.problem: Problem | None = None
        if engine == "exact":
            chosen: ExactEngine | PrimalEngine | DualEngine = ExactEngine(data, conventions)
        else:
            self.problem = Problem.build(data, conventions)
            if engine == "dual":
                chosen = dual_from_primal(self.problem, self.problem.W0)
            else:
                fast = {"compiled": True, "primal": False}.get(engine)  # auto: None
                chosen = PrimalEngine(self.problem, compiled=fast)
        super().__init__(chosen, max_epochs,
                         state_name="margins" if engine == "dual" else "iterate")

    @property
    def tiers(self) -> tuple[str, ...]:
        """The arithmetic the engine used, in order."""
        return tuple(self.engine.tiers_used)

    def integer_w(self) -> list[int]:
        """The final `W` of the integer form (fast engines only)."""
        engine, p = self.engine, self.problem
        assert p is not None
        if isinstance(engine, DualEngine):
            coefficients = [int(c) * p.E for c in engine.counts.tolist()]
            combo = exact_combination(coefficients, p.Z, p.form.max_abs)
            return [a + b for a, b in zip(p.W0, combo, strict=True)]
        assert isinstance(engine, PrimalEngine)
        return engine.integer_w()

    def w(self) -> Vector:
        """The current (after iteration: final) iterate, exact."""
        if isinstance(self.engine, ExactEngine):
            return tuple(self.engine.w)
        assert self.problem is not None
        return self.problem.to_rational(self.integer_w())

    def separating(self) -> bool:
        """Whether the current iterate strictly separates the data (exact)."""
        if isinstance(self.engine, ExactEngine):
            w = self.engine.w
            return all(y * sum(a * b for a, b in zip(w, x, strict=True)) > 0
                       for x, y in zip(self.engine.rows, self.data.y, strict=True))
        assert self.problem is not None
        return separates_integer(self.problem.form, self.integer_w())


def run_online(data: Dataset | tuple[Any, Any], conventions: Conventions = DEFAULT, *,
               max_epochs: int = 1000, keep_trace: bool = True, engine: str = "auto",
               progress: Progress | None = None) -> RunResult:
    """Cyclic epochs of the perceptron over `data` (see the module docstring).

    `data`: a Dataset, or a pair `(X, y)` of array-likes (numpy, lists, pandas DataFrame and
    Series: `perceptron.io.inputs`), taken exactly.

    `engine`: `"auto"` (the integer engine of `perceptron.algorithms.fast`, switching to its
    compiled loop when numba is installed and the run has gone on long enough to repay importing it,
    `promote_now`), `"compiled"` (always compiled on the machine-integer tiers,
    `perceptron.algorithms.compiled`), `"primal"` (never compiled: numpy windows, or Python
    integers for a small problem), `"dual"` (its Gram form: faster when `d` is much larger than
    `n` and there are many epochs), or `"exact"` (the Fraction reference). All give identical
    results.
    """
    data = as_dataset(data, what="run_online")
    conventions = given_conventions(conventions)
    run, trace = traced_run(data, conventions, max_epochs=max_epochs, keep_trace=keep_trace,
                            engine=engine, progress=progress)
    return RunResult(run.mistakes, run.epochs, run.converged, run.reason, run.w(), conventions,
                     trace, run.separating(), run.tiers)


def traced_run(data: Dataset, conventions: Conventions = DEFAULT, *, max_epochs: int = 1000,
               keep_trace: bool = True, engine: str = "auto",
               progress: Progress | None = None) -> tuple[OnlineRun, Trace | None]:
    """The run `run_online` makes (driven to its end) and its trace (None without
    `keep_trace`), without the result's final iterate and separation check: a verifier's
    campaign reads the trace only, and for its thousands of runs of a handful of updates
    those two exact passes over the data were about a fifth of the engine's time."""
    run = OnlineRun(data, conventions, max_epochs=max_epochs, engine=engine)
    indices: list[np.ndarray] = []
    epochs: list[np.ndarray] = []
    for block in run.blocks(record=keep_trace):
        if keep_trace and block.indices is not None and len(block.indices):
            indices.append(block.indices)
            numbers = np.arange(block.first_epoch, block.first_epoch + len(block.counts))
            epochs.append(np.repeat(numbers, block.counts))
        _report(progress, block, run.mistakes)
    trace = None
    if keep_trace:
        trace = Trace(data, conventions, _joined(indices), _joined(epochs), run.problem)
    return run, trace


def run_trace(data: Dataset, conventions: Conventions = DEFAULT, *,
              max_epochs: int = 1000) -> Trace:
    """The trace `traced_run(data, conventions, max_epochs=max_epochs)` makes (engine
    `auto`), alone: what a verifier's campaign reads of its thousands of short runs.

    A small problem (`PYTHON_CELLS` cells at most) in a process that has not loaded the
    compiled loop (`compiled.loaded()`: the `auto` engine would run it there, at once)
    runs here, epochs on Python integers in one loop (`_small_trace`), without the driver,
    the engine and their blocks: the same updates in the same epochs as `_python_block`
    under `EpochDriver` (the same comparisons, cycle detection and cap; a test compares
    the traces), since those objects and their numpy arrays per block were about half a
    campaign run's engine time (the runs of `benchmarks/campaign.py --medium`'s mixed
    sources, a handful of updates each). In a process that has loaded it, a run that the
    driver's first compiled block ends is that block alone (`_one_block`). Any other run
    is `traced_run`'s."""
    found = small_run(data, conventions, max_epochs=max_epochs)
    if found is not None:
        problem, indices, epochs = found
        return Trace(data, conventions, np.array(indices, dtype=np.int64),
                     np.array(epochs, dtype=np.int64), problem)
    n, d = data.n, data.d + conventions.bias
    loaded = compiled.AVAILABLE and compiled.loaded()
    # one compiled block, the driver's first (`EpochDriver.blocks`: as many epochs)
    one_block = (loaded and max_epochs <= BLOCK_WORK // max(n * d, 1)
                 and max_epochs <= BLOCK_RECORD // max(n, 1))
    if not one_block:
        return traced_run(data, conventions, max_epochs=max_epochs)[1]  # type: ignore[return-value]
    if conventions.w0 is not None:  # the zero start has length d: nothing to check
        conventions.initial(d)  # checks the length of w0, as `OnlineRun`
    problem = Problem.build(data, conventions)
    block = _one_block(problem, max_epochs)
    if block is None:  # the run goes on past the block: the driver's, from the start
        return traced_run(data, conventions, max_epochs=max_epochs)[1]  # type: ignore[return-value]
    indices, epochs = block
    return Trace(data, conventions, indices, epochs, problem)


def small_run(data: Dataset, conventions: Conventions = DEFAULT, *, max_epochs: int = 1000
              ) -> tuple[Problem, list[int], list[int]] | None:
    """`run_trace`'s run of a small problem (`PYTHON_CELLS` cells at most) in a process that
    has not loaded the compiled loop, as its problem, the positions that updated and the
    epoch of each (`_small_trace`): what its `Trace` holds, for a caller that reads the
    integers only (a verifier's campaign of thousands of such runs makes its own record of
    them, `verify.runs.online.engine_runner`, and a trace when an update is read). None for
    any other run (`run_trace` runs it)."""
    if max_epochs < 0:
        raise ValueError(f"max_epochs must be >= 0, not {max_epochs}")
    d = data.d + conventions.bias
    if data.n * d > PYTHON_CELLS or (compiled.AVAILABLE and compiled.loaded()):
        return None
    if conventions.w0 is not None:  # the zero start has length d: nothing to check
        conventions.initial(d)  # checks the length of w0, as `OnlineRun`
    problem = Problem.build(data, conventions)
    indices, epochs = _small_trace(problem, max_epochs)
    return problem, indices, epochs


def _one_block(problem: Problem, max_epochs: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The positions that updated and their epochs, of the run of `problem` when the compiled
    engine's first block (`PrimalEngine.run_block` from epoch 1, as `EpochDriver.blocks` asks
    it in a process that has loaded the compiled loop) ends it: converged, cycled, or all
    `max_epochs` run. None when it does not (a block cut where the tier's bound stops
    certifying it, or one the engine would not run): the driver then runs on. A long-run
    campaign's runs (`verify.numeric.unit_margin`) end in it, and the driver, the run object
    and their generator were about a fifth of their engine time."""
    engine = PrimalEngine(problem, compiled=True)
    block = engine.run_block(CycleState(engine.state()), 1, max_epochs, True)
    if block is None or block.indices is None or (
            block.status == "ran" and len(block.counts) < max_epochs):
        return None
    epochs = np.repeat(np.arange(1, len(block.counts) + 1, dtype=np.int64), block.counts)
    return block.indices, epochs


def _small_trace(problem: Problem, max_epochs: int) -> tuple[list[int], list[int]]:
    """The positions that updated and the epoch of each, of the run of `problem` from `W0`
    for at most `max_epochs` cyclic epochs, stopping at the first epoch without an update or
    when the iterate at the start of an epoch repeats the one Brent's detection saved
    (`CycleState`: saved at epoch 1, then at epochs 2, 4, 8, ... after each save), as the
    driver and `PrimalEngine._python_block` do, in exact Python integers."""
    E = problem.E
    rows = [(z, z if E == 1 else [E * v for v in z], q)
            for z, q in zip(problem.Z.tolist(), problem.q.tolist(), strict=True)]
    W = list(problem.W0)
    saved, power, lam = list(W), 1, 0
    indices: list[int] = []
    epochs: list[int] = []
    for epoch in range(1, max_epochs + 1):
        if epoch > 1:
            if W == saved:
                break  # cycled: the epochs from here repeat forever
            lam += 1
            if lam == power:
                saved, power, lam = list(W), power * 2, 0
        before = len(indices)
        for i, (z, step, q) in enumerate(rows):
            if sum(map(mul, W, z)) < q:
                W = list(map(add, W, step))
                indices.append(i)
        if len(indices) == before:
            break  # converged
        epochs += [epoch] * (len(indices) - before)
    return indices, epochs


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """The blocks' arrays one after another (a short run has one block: that array)."""
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _report(progress: Progress | None, block: Block, mistakes: int) -> None:
    """`progress(epoch, updates so far)` after every epoch of a block (`mistakes`: the total
    after the block)."""
    if progress is None:
        return
    before = mistakes - int(block.counts.sum())
    for epoch, total in enumerate(np.cumsum(block.counts).tolist(), block.first_epoch):
        progress(epoch, before + total)


def run_arrays(X: np.ndarray, y: np.ndarray, conventions: Conventions = DEFAULT, *,
               max_epochs: int = 1000, progress: Progress | None = None,
               engine: str = "auto") -> RunResult:
    """`run_online` for data that are integer numpy arrays already (labels -1/+1): the same
    engine and result, without making a Fraction per entry first (no trace: there is no
    Dataset to rebuild it from). `engine`: `"auto"`, `"compiled"` or `"primal"`, as there."""
    modes = {"auto": None, "compiled": True, "primal": False}
    if engine not in modes:
        raise ValueError(f"unknown engine {engine!r}; use one of {', '.join(modes)}")
    problem = Problem.of_form(integer_arrays(X, y, bias=conventions.bias), conventions)
    engine_ = PrimalEngine(problem, compiled=modes[engine])
    driver = EpochDriver(engine_, max_epochs)
    for block in driver.blocks(record=False):
        _report(progress, block, driver.mistakes)
    W = engine_.integer_w()
    return RunResult(driver.mistakes, driver.epochs, driver.converged, driver.reason,
                     problem.to_rational(W), conventions, None,
                     separates_integer(problem.form, W), tuple(engine_.tiers_used))


def iterate_updates(data: Dataset | tuple[Any, Any], conventions: Conventions = DEFAULT, *,
                    max_epochs: int = 1000, keep_iterates: bool = True,
                    engine: str = "auto") -> Iterator[UpdateRecord]:
    """The update records of `run_online(data, conventions, max_epochs=...)`, as they happen.

    Nothing is kept: memory is O(n + d) beyond the data whether or not iterates are produced
    (`keep_iterates=False` leaves `w_before`/`w_after` None and skips building them).
    """
    data = as_dataset(data, what="iterate_updates")
    run = OnlineRun(data, conventions, max_epochs=max_epochs, engine=engine)
    replay = IntegerReplay(run.problem or Problem.build(data, conventions))
    bias = conventions.bias
    step = 0
    for epoch, updated in run:
        for i in updated:
            step += 1
            y = data.y[i]
            if keep_iterates:
                before, after = replay.step(i, y)
            else:
                before = after = None
            yield UpdateRecord(step, epoch, i, example_as_run(data, i, bias), y, before, after)


def iterate_stream(examples: Iterable[tuple[Sequence[object], int]],
                   conventions: Conventions = DEFAULT, *,
                   keep_iterates: bool = True) -> Iterator[UpdateRecord]:
    """One pass over a stream of `(x, y)` pairs (labels -1/+1), exact Fraction arithmetic.

    Records carry the stream position as `index` and epoch 1. Memory O(d).
    """
    for record in _stream(examples, conventions, keep_iterates):
        if isinstance(record, UpdateRecord):
            yield record


def run_stream(examples: Iterable[tuple[Sequence[object], int]],
               conventions: Conventions = DEFAULT, *,
               keep_trace: bool = True) -> RunResult:
    """One pass over a stream (see `iterate_stream`); `converged` means no update was made."""
    records: list[UpdateRecord] = []
    mistakes = 0
    w: Vector = ()
    seen = 0
    for record in _stream(examples, conventions, True):
        if isinstance(record, UpdateRecord):
            mistakes += 1
            if keep_trace:
                records.append(record)
        else:
            seen, w = record
    reason = f"one pass over a stream of {seen} examples, {mistakes} updates"
    return RunResult(mistakes, 1, mistakes == 0, reason, w, conventions,
                     StreamTrace(records) if keep_trace else None, None, ("fraction",))


def _stream(examples: Iterable[tuple[Sequence[object], int]], conventions: Conventions,
            keep_iterates: bool) -> Iterator[UpdateRecord | tuple[int, Vector]]:
    """Update records, then a final `(examples seen, final w)`."""
    w: list[Fraction] | None = None
    eta, bias = conventions.eta, conventions.bias
    seen = 0
    step = 0
    for i, (x_raw, y) in enumerate(examples):
        seen += 1
        x = tuple(exact(v) for v in x_raw)
        if bias:
            x = (*x, Fraction(1))
        if y not in (-1, 1) or isinstance(y, bool):
            raise DataError(f"label {y!r} of stream example {i} is not -1 or +1")
        if w is None:
            w = list(conventions.initial(len(x)))
        if len(x) != len(w):
            raise DataError(f"stream example {i} has {len(x) - bias} features, "
                            f"expected {len(w) - bias}")
        margin = y * sum(a * b for a, b in zip(w, x, strict=True))
        if conventions.updates(margin, y):
            step += 1
            before = tuple(w)
            w = [a + eta * y * b for a, b in zip(w, x, strict=True)]
            yield UpdateRecord(step, 1, i, x, y, before if keep_iterates else None,
                               tuple(w) if keep_iterates else None)
    if w is None:
        w = list(conventions.w0 or ())
    yield seen, tuple(w)

