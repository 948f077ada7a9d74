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
from typing import Any

import numpy as np

from perceptron.conventions import DEFAULT, Conventions
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError
from perceptron.fast import (
    DualEngine,
    PrimalEngine,
    Problem,
    dual_from_primal,
    exact_combination,
    integer_arrays,
    separates_integer,
)
from perceptron.inputs import as_dataset
from perceptron.numbers import exact
from perceptron.result import RunResult
from perceptron.trace import IntegerReplay, StreamTrace, Trace, UpdateRecord, example_as_run

#: Called after every epoch with (epoch, total updates so far).
Progress = Callable[[int, int], None]

ENGINES = ("auto", "primal", "dual", "exact")


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


class _Cycle:
    """Brent's cycle detection on the states at the start of epochs."""

    def __init__(self, engine: object, epoch: int) -> None:
        self.saved = engine.state()  # type: ignore[attr-defined]
        self.saved_epoch = epoch
        self.power = 1
        self.lam = 0

    def repeats(self, engine: object, epoch: int) -> int | None:
        """The earlier epoch whose starting state the current state repeats, if found."""
        if engine.same_state(self.saved):  # type: ignore[attr-defined]
            return self.saved_epoch
        self.lam += 1
        if self.lam == self.power:
            self.saved = engine.state()  # type: ignore[attr-defined]
            self.saved_epoch = epoch
            self.power *= 2
            self.lam = 0
        return None


class EpochDriver:
    """Cyclic epochs of any engine (`run_epoch()`, `state()`, `same_state()`): iterate it for
    `(epoch, updated positions)`; stops on an error-free epoch, the cap, or a repeated state.

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
        cycle = _Cycle(self.engine, 1)
        for epoch in range(1, self.max_epochs + 1):
            if epoch > 1:
                earlier = cycle.repeats(self.engine, epoch)
                if earlier is not None:
                    self.reason = (
                        f"cycling: the {self.state_name} at the start of epoch {epoch} equals "
                        f"the one at the start of epoch {earlier}, so the epochs repeat with "
                        f"period {epoch - earlier} forever, each with updates: the run never "
                        "converges")
                    break
            updated = self.engine.run_epoch()
            self.epochs = epoch
            self.mistakes += len(updated)
            yield epoch, updated
            if not updated:
                self.converged = True
                self.reason = f"epoch {epoch} made no update"
                break
        else:
            self.reason = (f"epoch cap {self.max_epochs} reached without an error-free epoch"
                           if self.max_epochs else "epoch cap 0: no epoch was run")


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
                chosen = PrimalEngine(self.problem)
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
    Series: `perceptron.inputs`), taken exactly.

    `engine`: `"auto"`/`"primal"` (the integer engine of `perceptron.fast`), `"dual"` (its
    Gram form: faster when `d` is much larger than `n` and there are many epochs), or `"exact"`
    (the Fraction reference). All give identical results.
    """
    data = as_dataset(data, what="run_online")
    run = OnlineRun(data, conventions, max_epochs=max_epochs, engine=engine)
    indices: list[np.ndarray] = []
    epochs: list[np.ndarray] = []
    for epoch, updated in run:
        if keep_trace and updated:
            indices.append(np.array(updated, dtype=np.int64))
            epochs.append(np.full(len(updated), epoch, dtype=np.int64))
        if progress is not None:
            progress(epoch, run.mistakes)
    trace = None
    if keep_trace:
        trace = Trace(data, conventions,
                      np.concatenate(indices) if indices else np.zeros(0, dtype=np.int64),
                      np.concatenate(epochs) if epochs else np.zeros(0, dtype=np.int64))
    return RunResult(run.mistakes, run.epochs, run.converged, run.reason, run.w(), conventions,
                     trace, run.separating(), run.tiers)


def run_arrays(X: np.ndarray, y: np.ndarray, conventions: Conventions = DEFAULT, *,
               max_epochs: int = 1000, progress: Progress | None = None) -> RunResult:
    """`run_online` for data that are integer numpy arrays already (labels -1/+1): the same
    engine and result, without making a Fraction per entry first (no trace: there is no
    Dataset to rebuild it from)."""
    problem = Problem.of_form(integer_arrays(X, y, bias=conventions.bias), conventions)
    engine = PrimalEngine(problem)
    driver = EpochDriver(engine, max_epochs)
    for epoch, _ in driver:
        if progress is not None:
            progress(epoch, driver.mistakes)
    W = engine.integer_w()
    return RunResult(driver.mistakes, driver.epochs, driver.converged, driver.reason,
                     problem.to_rational(W), conventions, None,
                     separates_integer(problem.form, W), tuple(engine.tiers_used))


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

