"""Traces: every update of a run, stored compactly and reconstructed exactly on demand.

An online trace stores only what cannot be recomputed: for update `t` (1-based) the epoch and
the index of the example, plus the data and conventions of the run. The example, its label and
the iterates `w_{t-1}` (before) and `w_t` (after) are rebuilt exactly when asked for: in order
by `iter(trace)` (O(d) memory per step), or at random by `trace[t - 1]` / `trace.iterate(t)`,
which use the dual form `w_t = w_0 + eta * sum_i c_i y_i x_i` with the counts `c_i` of the first
`t` updates. A batch trace stores `M_k` and `alpha_k` per iteration and rebuilds `xbar_k` and
the iterates the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from perceptron.algorithms.fast import IntegerForm, Problem, exact_combination
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset, Vector

_ONE = Fraction(1)


@dataclass(frozen=True, slots=True)
class UpdateRecord:
    """Update `step` (1-based) of an online run: `w_after = w_before + eta * y * x`.

    `w_before` is `w_{step-1}`, `w_after` is `w_step`; both are None when a streaming iterator
    was asked not to keep iterates. `x` is the example as the run saw it (with the bias
    coordinate 1 appended when the run learned a bias).
    """

    step: int
    epoch: int
    index: int
    x: Vector
    y: int
    w_before: Vector | None
    w_after: Vector | None

    @property
    def label(self) -> int:
        """The example's label (same as `y`)."""
        return self.y


@dataclass(frozen=True, slots=True)
class BatchRecord:
    """Iteration `k` (1-based) of a batch run: `w_after = w_before + alpha * xbar`,
    `xbar = sum_{j in M} y_j x_j`."""

    k: int
    M: tuple[int, ...]
    xbar: Vector
    alpha: Fraction
    w_before: Vector
    w_after: Vector


def example_as_run(data: Dataset, i: int, bias: bool) -> Vector:
    """Example i as a run sees it: with the bias coordinate 1 appended when `bias`."""
    x = data.X[i]
    return (*x, _ONE) if bias else x


class IntegerReplay:
    """Exact replay in the scaled integer domain of `perceptron.algorithms.fast` (fast, and
    independent of the engine's tiers: plain Python integers)."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.rows = self.problem.form.rows
        self.W = list(self.problem.W0)

    def step(self, i: int, y: int) -> tuple[Vector, Vector]:
        """Apply the update on example i; return (w_before, w_after) as Fractions."""
        before = self.problem.to_rational(self.W)
        c = self.problem.E * y
        self.W = [w + c * int(r) for w, r in zip(self.W, self.rows[i].tolist(), strict=True)]
        return before, self.problem.to_rational(self.W)


class Trace(Sequence[UpdateRecord]):
    """The updates of an online run over a dataset: `(epoch, index)` per update.

    A `Sequence` of `UpdateRecord`s: `len(trace)` updates, `trace[t]` the record of update
    `t + 1`, iteration in order. Memory: two small integers per update.
    """

    def __init__(self, data: Dataset, conventions: Conventions, indices: Sequence[int],
                 epochs: Sequence[int], problem: Problem | None = None) -> None:
        self.data = data
        self.conventions = conventions
        self.indices = np.asarray(indices, dtype=np.int64)
        self.epochs = np.asarray(epochs, dtype=np.int64)
        if self.indices.shape != self.epochs.shape:
            raise ValueError("a trace needs one epoch per update")
        # the run's own integer form when the run had one (the same `Problem.build` of the
        # same data and conventions: building it again was a third of a short run's time)
        self._problem: Problem | None = problem

    @property
    def problem(self) -> Problem:
        """The run in integer form (built once, on first use)."""
        if self._problem is None:
            self._problem = Problem.build(self.data, self.conventions)
        return self._problem

    def __len__(self) -> int:
        return int(self.indices.shape[0])

    def __iter__(self) -> Iterator[UpdateRecord]:
        replay = IntegerReplay(self.problem)
        bias = self.conventions.bias
        for t, (i, e) in enumerate(zip(self.indices.tolist(), self.epochs.tolist(),
                                       strict=True), 1):
            y = self.data.y[i]
            before, after = replay.step(i, y)
            yield UpdateRecord(t, e, i, example_as_run(self.data, i, bias), y, before, after)

    def __getitem__(self, t):  # type: ignore[override]
        if isinstance(t, slice):
            return [self[k] for k in range(*t.indices(len(self)))]
        if t < 0:
            t += len(self)
        if not 0 <= t < len(self):
            raise IndexError(f"update {t} of a trace of {len(self)}")
        i = int(self.indices[t])
        y = self.data.y[i]
        before = self.iterate(t)
        x = example_as_run(self.data, i, self.conventions.bias)
        s = self.conventions.eta * y
        return UpdateRecord(t + 1, int(self.epochs[t]), i, x, y, before,
                            tuple(b + s * v for b, v in zip(before, x, strict=True)))

    def iterate(self, t: int) -> Vector:
        """`w_t`, the iterate after `t` updates (`w_0` for t = 0), by the dual form."""
        if not 0 <= t <= len(self):
            raise IndexError(f"iterate {t} of a trace of {len(self)} updates")
        problem = self.problem
        counts = np.bincount(self.indices[:t], minlength=problem.n)
        coefficients = [c * y * problem.E
                        for c, y in zip(counts.tolist(), problem.form.y.tolist(), strict=True)]
        combo = exact_combination(coefficients, problem.form.rows, problem.form.max_abs)
        return problem.to_rational([w + c for w, c in zip(problem.W0, combo, strict=True)])

    def iterates(self) -> Iterator[Vector]:
        """`w_0, w_1, ..., w_T` in order (O(d) memory)."""
        replay = IntegerReplay(self.problem)
        yield replay.problem.to_rational(replay.W)
        for i in self.indices.tolist():
            _, after = replay.step(i, self.data.y[i])
            yield after

    def final(self) -> Vector:
        """`w_T`, the iterate after the last update."""
        return self.iterate(len(self))

    def replay(self) -> Vector:
        """`w_T` by replaying every update in plain Fraction arithmetic, with no scaling: an
        independent check of the engine."""
        w = list(self.conventions.initial(self.data.d + self.conventions.bias))
        eta = self.conventions.eta
        for i in self.indices.tolist():
            s = eta * self.data.y[i]
            x = example_as_run(self.data, i, self.conventions.bias)
            w = [a + s * b for a, b in zip(w, x, strict=True)]
        return tuple(w)

    def per_epoch(self) -> dict[int, int]:
        """Number of updates in each epoch that had any."""
        epochs, counts = np.unique(self.epochs, return_counts=True)
        return dict(zip(epochs.tolist(), counts.tolist(), strict=True))


class StreamTrace(Sequence[UpdateRecord]):
    """The updates of one pass over a stream: the records themselves (a stream is not kept,
    so the examples that updated are stored with their positions)."""

    def __init__(self, records: Sequence[UpdateRecord]) -> None:
        self._records = tuple(records)

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, t):  # type: ignore[override]
        return self._records[t]

    def final(self, w0: Vector) -> Vector:
        """The iterate after the last update (`w0` when there was none)."""
        return self._records[-1].w_after if self._records else w0  # type: ignore[return-value]


@dataclass(frozen=True, eq=False)
class BatchIntegers:
    """A batch run's iterates as the engine computed them, `w_k = W_k / D_k` (lowest terms,
    k = 0..K), and its `xbar_k = xbars[k] / form.scale` (k = 0..K-1), over the examples in
    integer form `form`: kept so that whoever reads every iterate (the audit's batch rows,
    `verify.runs.batch.IntegerBatch`) takes them from the run instead of computing the run
    again."""

    form: IntegerForm
    iterates: tuple[tuple[tuple[int, ...], int], ...]
    xbars: tuple[tuple[int, ...], ...]


class BatchTrace(Sequence[BatchRecord]):
    """The iterations of a batch run: `M_k` and `alpha_k` per iteration; `xbar_k` and the
    iterates rebuilt exactly on demand (in Fractions, independently of the engine), and the
    engine's own integers when it recorded them (`integers`)."""

    def __init__(self, data: Dataset, bias: bool, w0: Vector,
                 sets: Sequence[tuple[int, ...]], alphas: Sequence[Fraction],
                 integers: BatchIntegers | None = None) -> None:
        self.data = data
        self.bias = bias
        self.w0 = tuple(w0)
        self.sets = tuple(sets)
        self.alphas = tuple(alphas)
        self.integers = integers

    def __len__(self) -> int:
        return len(self.sets)

    def xbar(self, k: int) -> Vector:
        """`xbar_k = sum_{j in M_k} y_j x_j` for iteration k (1-based)."""
        total = [Fraction(0)] * len(self.w0)
        for j in self.sets[k - 1]:
            y = self.data.y[j]
            total = [a + y * b for a, b in zip(total, example_as_run(self.data, j, self.bias),
                                                 strict=True)]
        return tuple(total)

    def __iter__(self) -> Iterator[BatchRecord]:
        w = self.w0
        for k, (M, alpha) in enumerate(zip(self.sets, self.alphas, strict=True), 1):
            xbar = self.xbar(k)
            after = tuple(a + alpha * b for a, b in zip(w, xbar, strict=True))
            yield BatchRecord(k, M, xbar, alpha, w, after)
            w = after

    def __getitem__(self, k):  # type: ignore[override]
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if k < 0:
            k += len(self)
        for record in self:
            if record.k == k + 1:
                return record
        raise IndexError(f"iteration {k} of a batch trace of {len(self)}")

    def final(self) -> Vector:
        """The last iterate."""
        w = self.w0
        for record in self:
            w = record.w_after
        return w
