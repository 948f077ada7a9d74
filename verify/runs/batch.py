"""Batch runs (`[numeric] run = "batch"`): the batch perceptron with the oracle-optimal step.

Each iteration updates over the whole set M_k = {j : y_j <theta_k, x_j> <= 0} of the examples
the iterate gets wrong (or the source's rule), `theta_{k+1} = theta_k + alpha_k xbar_k` with
`xbar_k = sum_{j in M_k} y_j x_j` and the step `alpha_k` that is optimal for the reference
separator theta*.

This module is the kind's one home: its quantities (`QUANTITIES`), the engine adapter
(`batch_run_from_engine`) with the run as the engine's integers (`IntegerBatch`), the runners
and the row builders.

The rows need every iterate, every `xbar_k` and every member's partial sum. Replaying them
with a Fraction per coordinate was half of the audit's numeric time (profile: 3.4 M Fraction
constructions), and replaying them in integers still did the run's work twice; so the engine
keeps each iterate as an integer vector over one integer and each `xbar_k` as an integer
vector over the examples' common denominator, and the columns are built from those integers
(`verify.runs.columns.reduced`: the same numerators, denominator and dtype `VectorColumn.of`
makes of the same rationals). Fractions are made only if someone reads them (tests, printing).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from math import lcm

import numpy as np

from perceptron.algorithms.fast import IntegerForm, integer_vector
from perceptron.algorithms.sources import SOURCE_ALGORITHMS
from perceptron.algorithms.trace import BatchIntegers
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import radius2
from verify.runs.columns import (
    INT64_LIMIT,
    Column,
    InstanceBatch,
    IntArray,
    Origin,
    VectorColumn,
    as_object,
    in_exact_dtype,
    int_array,
    int_matrix,
    max_abs,
    reduced,
    run_rows,
)
from verify.runs.families import DATASET, SIZES, FamilyData, History
from verify.runs.online import as_source_runs
from verify.runs.quantity import (
    Quantity,
    RowSet,
    RunKind,
    Runner,
    Scenario,
    margin,
    radius_bound,
    register,
    wanted_columns,
)

_ALL = ("batch-state", "batch-iteration", "batch-member")
_STEP = ("batch-iteration", "batch-member")
_MEMBER = ("batch-member",)

#: The quantities of a batch run: name, vector?, what it denotes, the row sets binding it;
#: every formula in proof-file syntax (`Quantity`).
QUANTITIES = (
    Quantity("theta", True, "the iterate `theta_k`", _ALL),
    Quantity("k", False, "the number of iterations done before `theta_k`", _ALL),
    Quantity("theta0", True, "the initial iterate", _ALL),
    Quantity("theta_star", True, "the reference separator u", _ALL),
    Quantity("gamma", False, "", _ALL, "Y[j]*dot(theta_star, X[j])", "min"),
    Quantity("R2", False, "", _ALL, "norm2(X[j])", "max"),
    Quantity("R", False, "an exact radius bound, `norm2(X[j]) <= R**2` for every j: "
             "`sqrt(R2)` when that is rational, else the least `c/q` above it, c an "
             "integer, for `R2 == p/q` in lowest terms (as for online runs)", _ALL),
    Quantity("N", False, "the number of examples, the indices of the families `X`, `Y` "
             "being 1..N", _ALL),
    Quantity("theta_next", True, "the next iterate, `theta_k` moved by its step along "
             "`xbar`", _STEP, "theta + alpha*xbar"),
    Quantity("xbar", True, "the sum of `Y[j]*X[j]` over the j in `M_k`, the examples with "
             "`Y[j]*dot(theta, X[j]) <= 0` (or the source's rule)", _STEP),
    Quantity("alpha", False, "the step, so that `theta_next` is `theta + alpha*xbar`: the "
             "oracle-optimal `dot(theta_star, xbar)/norm2(xbar)` for the built-in runs, read "
             "exactly off the trace for a user's batch plug-in (verify.runs.plugin)", _STEP),
    Quantity("mk", False, "the number of members of `M_k`", _STEP),
    Quantity("e", False, "the perturbation from `alpha` to the unit step", _STEP,
             "1 - alpha"),
    Quantity("s", True, "the sum of `y*x` over the first `i` members of `M_k` (in index "
             "order)", _MEMBER),
    Quantity("i", False, "how many members of `M_k` come before this one", _MEMBER),
    Quantity("x", True, "the member number `i + 1` of `M_k`", _MEMBER),
    Quantity("y", False, "its label", _MEMBER),
)

# ---- the run as the engine's integers ------------------------------------------------------


@dataclass(frozen=True)
class IntegerBatch:
    """`theta_k = W[k] / D[k]` for k = 0..K (lowest terms), `xbar_k = xbars[k] / form.scale`,
    the members `sets[k]` of M_k and the steps `alphas[k]` (k = 0..K-1)."""

    form: IntegerForm
    W: tuple[tuple[int, ...], ...]
    D: tuple[int, ...]
    xbars: tuple[tuple[int, ...], ...]
    sets: tuple[tuple[int, ...], ...]
    alphas: tuple[Fraction, ...]

    @classmethod
    def of_engine(cls, integers: BatchIntegers, sets: Sequence[tuple[int, ...]],
                  alphas: Sequence[Fraction]) -> IntegerBatch:
        """The run as the engine recorded it (`perceptron.algorithms.batch.run_batch`: its
        iterates `W_k / D_k` and integer `xbar_k`), with the trace's sets and steps."""
        return cls(integers.form, tuple(W for W, _ in integers.iterates),
                   tuple(D for _, D in integers.iterates), integers.xbars, tuple(sets),
                   tuple(alphas))

    @property
    def iterations(self) -> int:
        """K, the number of iterations (of non-empty M_k)."""
        return len(self.sets)

    def ends_at(self, w: Sequence[Fraction]) -> bool:
        """Whether the last iterate is `w` (the engine's result), compared in integers."""
        W, D = integer_vector(list(w))
        return (tuple(W), D) == (self.W[-1], self.D[-1])

    def states(self, first: int = 0, stop: int | None = None) -> VectorColumn:
        """The iterates `theta_first .. theta_{stop-1}` as one exact column: rows of the
        column of every iterate (`_states`, made once per run: its state, iteration and
        member rows all read it), over their own least common denominator (`reduced` of
        those rows: the canonical numerators and denominator of the same rationals, which
        the rows scaled to the lcm of their own D make too)."""

        if not self.W[first:stop]:
            return VectorColumn.of([])
        every = self._states
        if (first, stop) in ((0, None), (0, len(self.W))):
            return every
        return reduced(every.num[first:stop], every.den)

    @cached_property
    def _states(self) -> VectorColumn:
        """Every iterate, over the lcm of the D's (`states`): the matrix of the W's, each
        row scaled by `lcm / D_k` at once, in int64 when the largest product provably fits
        (a list per row of Python products was most of this), else as Python ints; `reduced`
        makes the same column of either."""
        W, D = self.W, self.D
        common = lcm(*D)
        matrix = int_matrix(W, len(W), len(W[0]))
        if any(d != common for d in D):  # else no row to scale: as they are
            factors = [common // d for d in D]
            if matrix.dtype != object and max_abs(matrix) * max(factors) <= INT64_LIMIT:
                matrix = matrix * np.array(factors, dtype=np.int64)[:, None]
            else:
                scale = np.empty((len(factors), 1), dtype=object)
                scale[:, 0] = factors
                matrix = as_object(matrix) * scale
        return reduced(matrix, common)

    def xbar(self) -> VectorColumn:
        """Every `xbar_k` as one exact column."""

        if not self.xbars:
            return VectorColumn.of([])
        return reduced(int_matrix([list(v) for v in self.xbars], len(self.xbars), self.form.d),
                       self.form.scale)

    def examples(self) -> VectorColumn:
        """The examples as one exact column (their common denominator, `form.scale`)."""

        return reduced(self.form.rows, self.form.scale)

    def fractions(self, k: int) -> Vector:
        """`theta_k` as Fractions."""
        return tuple(Fraction(w, self.D[k]) for w in self.W[k])

    def xbar_fractions(self, k: int) -> Vector:
        """`xbar_k` as Fractions."""
        return tuple(Fraction(v, self.form.scale) for v in self.xbars[k])


# ---- runs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Iteration:
    """One batch iteration: `theta_next = theta + alpha * xbar` over the members of M_k."""

    theta: Vector
    members: tuple[int, ...]
    xbar: Vector
    alpha: Fraction
    theta_next: Vector


@dataclass(frozen=True)
class BatchRun:
    """What a proof's names are bound to on a batch run: data, theta*, start and iterations (and,
    for a run of the engine, the same run in integers, from which its rows are built)."""

    data: Dataset
    theta_star: Vector
    theta0: Vector
    iterations: Sequence[Iteration]
    integer: IntegerBatch | None = field(default=None, compare=False, repr=False)

    @property
    def states(self) -> tuple[Vector, ...]:
        """`theta_0, ..., theta_K`."""
        return (self.theta0, *(it.theta_next for it in self.iterations))

    @cached_property
    def constants(self) -> tuple[Fraction, Fraction]:
        """`(R2, gamma)`, computed once per run (every row set of the run reads them)."""
        if self.integer is not None:  # gamma once per integer form and theta* (every start)
            form = self.integer.form
            return Fraction(form.radius2(), form.scale ** 2), form.margin(tuple(self.theta_star))
        return radius2(self.data), margin(self.data, self.theta_star)

    @cached_property
    def made(self) -> dict[str, Column | VectorColumn]:
        """The iteration columns of this run made so far, by quantity (`_made`): each is
        made once, when some row set first reads it (the iteration and member rows of a run
        share them), and shared, never written."""
        return {}

    @cached_property
    def theta_star_row(self) -> VectorColumn:
        """`theta*` as one row, made once per run: each row set repeats it."""
        return VectorColumn.of([self.theta_star])

    @cached_property
    def theta0_row(self) -> VectorColumn:
        """`theta_0` as one row, made once per run: each row set repeats it."""
        return VectorColumn.of([self.theta0])

    @cached_property
    def sizes(self) -> IntArray:
        """|M_k| of each iteration k = 0..K-1."""
        sets = (self.integer.sets if self.integer is not None
                else [it.members for it in self.iterations])
        return np.array([len(m) for m in sets], dtype=np.int64)

    @cached_property
    def history(self) -> History:
        """Its history as families (`verify.runs.families.SIZES`): `MK[i]` the size of the
        set of iteration i = 1..K."""
        return History({}, {"MK": self.sizes})

    def families(self) -> FamilyData:
        """Its dataset's families and its history's (made when first read)."""
        return FamilyData.of(self.data, DATASET).with_history(lambda: self.history,
                                                              self.data.X)

    @cached_property
    def examples(self) -> VectorColumn:
        """The examples as one exact column, built once per run."""
        if self.integer is not None:
            return self.integer.examples()
        return VectorColumn.of(self.data.X, self.data.d)


class _IntegerIterations(Sequence[Iteration]):
    """The iterations of an integer batch run, made as Fractions only if someone reads them
    (compares equal to the tuple of the same iterations)."""

    def __init__(self, run: IntegerBatch) -> None:
        self.run = run
        self._items: tuple[Iteration, ...] | None = None

    def _all(self) -> tuple[Iteration, ...]:
        if self._items is None:
            run = self.run
            self._items = tuple(
                Iteration(run.fractions(k), run.sets[k], run.xbar_fractions(k), run.alphas[k],
                          run.fractions(k + 1))
                for k in range(run.iterations))
        return self._items

    def __len__(self) -> int:
        return self.run.iterations

    def __getitem__(self, k):  # type: ignore[override]
        return self._all()[k]

    def __eq__(self, other: object) -> bool:
        return self._all() == (tuple(other) if isinstance(other, Sequence) else other)

    __hash__ = None  # type: ignore[assignment]


def batch_run_from_engine(result: object, data: Dataset, theta_star: Vector,
                          theta0: Vector) -> BatchRun:
    """Adapt a `perceptron.algorithms.batch.run_batch(..., keep_trace=True)` result (no bias).

    The trace records M_k and alpha_k, and the engine's own integers: every iterate
    `W_k / D_k` and every `xbar_k` over the examples' common denominator, so the rows are
    built from the run itself, not from a second computation of it (the last iterate is
    still compared with the engine's result). A trace without them (a bias, other data) is
    replayed in Fractions.
    """
    trace = result.trace  # type: ignore[attr-defined]
    if not trace.bias and trace.data is data and trace.integers is not None:
        integer = IntegerBatch.of_engine(trace.integers, trace.sets, trace.alphas)
        if not integer.ends_at(result.w):  # type: ignore[attr-defined]
            raise RuntimeError(f"batch trace ends at {integer.fractions(-1)}, the engine at "
                               f"{result.w}")  # type: ignore[attr-defined]
        return BatchRun(data, theta_star, tuple(theta0), _IntegerIterations(integer), integer)
    X = VectorColumn.of(data.X, data.d)
    theta = tuple(theta0)
    iterations = []
    for members, alpha in zip(trace.sets, trace.alphas, strict=True):
        signed = _member_terms(data, X, members)
        xbar = tuple(Fraction(int(v), X.den) for v in signed.sum(axis=0))
        after = tuple(a + alpha * b for a, b in zip(theta, xbar, strict=True))
        iterations.append(Iteration(theta, tuple(members), xbar, alpha, after))
        theta = after
    if theta != tuple(result.w):  # type: ignore[attr-defined]
        raise RuntimeError(f"batch replay ends at {theta}, the engine at {result.w}")  # type: ignore[attr-defined]
    return BatchRun(data, theta_star, tuple(theta0), tuple(iterations))


def _member_terms(data: Dataset, X: VectorColumn, members: Sequence[int]) -> IntArray:
    """The numerators of `y_j x_j` for the members, one row each, in a dtype whose sums
    over all of them are exact."""
    picked = X.num[list(members)]
    signs = np.array([data.y[j] for j in members], dtype=np.int64)
    return in_exact_dtype(picked, len(members) * max_abs(picked)) * signs[:, None]


def _made(run: BatchRun, name: str) -> Column | VectorColumn:
    """The run's column of the iteration quantity `name`, made once per run
    (`BatchRun.made`)."""
    found = run.made.get(name)
    if found is None:
        found = run.made[name] = _make(run, name)
    return found


def _make(run: BatchRun, name: str) -> Column | VectorColumn:
    """`_made`'s column of `name`, from the run's integers when it has them."""
    integer = run.integer
    if integer is not None:
        if name == "alpha":
            return Column.of(integer.alphas)
        if name == "e":  # 1 - a/b = (b - a)/b in lowest terms: over alpha's denominator
            alpha = _made(run, "alpha")
            assert isinstance(alpha, Column)
            return Column(int_array([alpha.den - v for v in alpha.num.tolist()]), alpha.den)
        if name == "mk":
            return Column(run.sizes)
        if name == "theta":
            return integer.states(0, integer.iterations)
        if name == "theta_next":
            return integer.states(1, integer.iterations + 1)
        assert name == "xbar", name
        return integer.xbar()
    its = run.iterations
    if name == "alpha":
        return Column.of([it.alpha for it in its])
    if name == "e":
        return Column.of([1 - it.alpha for it in its])
    if name == "mk":
        return Column(run.sizes)
    if name == "theta":
        return VectorColumn.of([it.theta for it in its])
    if name == "theta_next":
        return VectorColumn.of([it.theta_next for it in its])
    assert name == "xbar", name
    return VectorColumn.of([it.xbar for it in its])


def _batch_constants(run: BatchRun, n: int, wanted: Callable[[str], bool]
                     ) -> tuple[dict[str, Column], dict[str, VectorColumn]]:
    scalars: dict[str, Column] = {}
    if wanted("R2") or wanted("gamma"):
        R2, gamma = run.constants
        if wanted("R2"):
            scalars["R2"] = Column.constant(R2, n)
        if wanted("gamma"):
            scalars["gamma"] = Column.constant(gamma, n)
    if wanted("R"):
        scalars["R"] = Column.constant(radius_bound(run.constants[0]), n)
    if wanted("N"):
        scalars["N"] = Column.constant(len(run.data.X), n)
    vectors = {}
    if wanted("theta_star"):
        vectors["theta_star"] = VectorColumn.repeated(run.theta_star_row, n)
    if wanted("theta0"):
        vectors["theta0"] = VectorColumn.repeated(run.theta0_row, n)
    return scalars, vectors


def batch_state_rows(run: BatchRun, origin: Origin,
                     names: Collection[str] | None = None) -> InstanceBatch:
    """One row per iterate theta_k, k = 0..K (only the columns `names` asks for, when
    given)."""
    wanted = wanted_columns(names)
    count = len(run.iterations) + 1
    scalars, vectors = _batch_constants(run, count, wanted)
    if wanted("k"):
        scalars["k"] = Column(np.arange(count, dtype=np.int64))
    if wanted("theta"):
        vectors["theta"] = (run.integer.states() if run.integer is not None
                            else VectorColumn.of(run.states))
    return run_rows(scalars, vectors, origin, np.arange(count))


def _iteration_columns(run: BatchRun, wanted: Callable[[str], bool]
                       ) -> tuple[dict[str, Column], dict[str, VectorColumn]]:
    """The quantities of every iteration, one row each (those `wanted`): the per-iteration
    ones made once per run (`_made`), since the member rows repeat them per member."""
    its = run.iterations
    scalars, vectors = _batch_constants(run, len(its), wanted)
    if wanted("k"):
        scalars["k"] = Column(np.arange(len(its), dtype=np.int64))
    for name in ("alpha", "e", "mk"):
        if wanted(name):
            scalars[name] = _made(run, name)  # type: ignore[assignment]
    for name in ("theta", "theta_next", "xbar"):
        if wanted(name):
            vectors[name] = _made(run, name)  # type: ignore[assignment]
    return scalars, vectors


def batch_iteration_rows(run: BatchRun, origin: Origin,
                         names: Collection[str] | None = None) -> InstanceBatch:
    """One row per iteration (M_k non-empty; only the columns `names` asks for, when
    given)."""
    scalars, vectors = _iteration_columns(run, wanted_columns(names))
    return run_rows(scalars, vectors, origin, np.arange(len(run.iterations)))


def batch_member_rows(run: BatchRun, origin: Origin,
                      names: Collection[str] | None = None) -> InstanceBatch:
    """One row per member of each M_k: the partial sum before it, and the member itself
    (only the columns `names` asks for, when given)."""
    wanted = wanted_columns(names)
    sets = (run.integer.sets if run.integer is not None
            else [it.members for it in run.iterations])
    sizes = run.sizes
    which = np.repeat(np.arange(len(sizes)), sizes)
    members = [j for m in sets for j in m]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    scalars, vectors = _iteration_columns(run, wanted)
    scalars = {name: column.take(which) for name, column in scalars.items()}
    vectors = {name: column.take(which) for name, column in vectors.items()}
    if wanted("i"):
        scalars["i"] = Column(np.arange(len(which)) - starts[which])
    if wanted("y"):
        scalars["y"] = Column(np.array([run.data.y[j] for j in members], dtype=np.int64))
    if wanted("s") or wanted("x"):
        X = run.examples
        if wanted("s"):
            terms = _member_terms(run.data, X, members)
            terms = in_exact_dtype(terms, len(members) * max_abs(terms))
            before = np.cumsum(terms, axis=0) - terms  # over all members so far, all iterations
            partial = before - before[starts][which] if members else before  # this M_k's only
            vectors["s"] = VectorColumn(partial, X.den)
        if wanted("x"):
            vectors["x"] = X.take(np.array(members, dtype=np.int64))
    return run_rows(scalars, vectors, origin, which)


def batch_member_count(run: BatchRun) -> int:
    """The member rows `batch_member_rows` makes of `run`, one per member of each M_k
    (`RowSet.count`): up to every example at every iteration."""
    return int(run.sizes.sum())


# ---- runners -------------------------------------------------------------------------------


def batch_starts(scenario: Scenario) -> tuple[Vector, ...]:
    """theta0 = 0 (the theorem's start), -u (opposite the separator) and a seeded integer
    vector in [-9, 9]^d (seed: the scenario's, so its origin reproduces it); or the one start
    the scenario names (`Scenario.start`: a data file's `# theta0 = ...`)."""
    if scenario.start is not None:
        return (scenario.start,)
    rng = random.Random(scenario.origin.seed or 0)
    return (tuple(Fraction(0) for _ in scenario.u), tuple(-v for v in scenario.u),
            tuple(Fraction(rng.randint(-9, 9)) for _ in scenario.u))


def engine_batch_runner(scenario: Scenario, rule: str = "le") -> tuple[BatchRun, ...]:
    """`perceptron.algorithms.batch.run_batch` with the oracle-optimal step for theta* = u, per
    start, updating over M_k = {j : y_j <theta_k, x_j> <= 0} (or `< 0` with `rule="lt"`).
    One step rule serves every start (theta* is u for each): its exact theta* and its
    description are made once per scenario, not once per start."""
    from perceptron.algorithms.batch import OptimalStep, run_batch

    step = OptimalStep(scenario.u)
    return tuple(
        batch_run_from_engine(
            run_batch(scenario.data, step=step, w0=start, rule=rule,
                      max_iterations=scenario.max_iterations),
            scenario.data, scenario.u, start)
        for start in batch_starts(scenario))


def source_batch_runner(algorithm_id: str) -> Runner:
    """The batch runner of a source's algorithm: its M_k rule and bias, the optimal step."""
    algorithm = SOURCE_ALGORITHMS[algorithm_id]
    if algorithm.mode != "batch" or algorithm.step != "optimal":
        raise ValueError(f"{algorithm_id} is not a batch perceptron with the optimal step")
    return lambda scenario: engine_batch_runner(as_source_runs(scenario, algorithm),
                                                algorithm.rule)


def runner(algorithm: str | None) -> Runner:
    """The runner of `algorithm` (None: the batch perceptron with the optimal step);
    ValueError for an algorithm that makes no batch runs."""
    if algorithm is None:
        return engine_batch_runner
    source = SOURCE_ALGORITHMS.get(algorithm)
    if source is None or source.mode != "batch":
        raise ValueError(f"{algorithm} is not a batch algorithm: its steps cannot bind batch "
                         "rows")
    return source_batch_runner(algorithm)


def label(origin: Origin, run: BatchRun) -> Origin:
    """A batch run's origin names its start, since one scenario makes several batch runs."""
    start = ("0" if not any(run.theta0) else "-u" if run.theta0 == tuple(-v for v in run.theta_star)
             else "(" + ", ".join(map(str, run.theta0)) + ")")  # the seeded start, in full
    return replace(origin, dataset=f"{origin.dataset} [batch, theta0 = {start}]")


KIND = register(RunKind(
    "batch",
    "`perceptron.algorithms.batch.run_batch` with the oracle-optimal step for `theta_star` = "
    "the scenario's reference u, from three starts per scenario (`batch_starts`): "
    "`theta0 = 0`, `-u` and a seeded integer vector. A source algorithm (`[numeric] "
    "algorithm`) brings its own M_k rule (Chan's is strict, `< 0`) and bias (augmented "
    "examples, theta* extended by a 0); a user's batch plug-in its own M_k and steps, from "
    "the same three starts. A data file may name one start instead (`# theta0 = 1, -2`).",
    QUANTITIES,
    (
        RowSet("batch-state", "one row per iterate theta_k, k = 0..K (the last with M_K empty "
               "when the run converged)", batch_state_rows,
               count=lambda run: len(run.iterations) + 1),
        RowSet("batch-iteration", "one row per iteration with M_k non-empty",
               batch_iteration_rows, updates=True, count=lambda run: len(run.iterations)),
        RowSet("batch-member", "one row per member of each M_k: the partial sum before it, "
               "and the member itself", batch_member_rows, count=batch_member_count),
    ),
    runner,
    laws={"update-rule": "norm2(theta_next - (theta + alpha*xbar)) == 0"},
    label=label,
    rank=1,
    counter="k",
    fixed=frozenset({"theta0", "theta_star", "gamma", "R2", "R", "N"}),
    start_of=lambda run: run.theta0,
    families={**DATASET, **SIZES},
    history=True,
))
