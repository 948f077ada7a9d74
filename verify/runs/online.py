"""Online runs (`[numeric] run = "online"`): the perceptron run to convergence, update by update.

The default run is the perceptron `perceptron.algorithms.online.run_online` (w_0 = 0, eta = 1,
update on y<w,x> <= 0, cyclic epochs). A proof may name another algorithm (`[numeric]
algorithm`): a source's (`perceptron.algorithms.sources`: its rule, sign(0), learning rate;
with a bias it runs on the augmented examples [x; 1], u extended by a 0, so `x`, `w`, `u`
and `R2` are the augmented quantities), the margin perceptron (`perceptron.algorithms.margin`,
at each of its margins `BETAS`), or a user's plug-in (`verify.runs.plugin`).

This module is the kind's one home: its quantities (`QUANTITIES`, the docs are generated
from them), the engine adapters (`run_from_engine`, `margin_updates`), the runners and the
row builders. Every value is an exact rational; columns are built once per run, from the
engine's integer form when the run has one (`IntegerRun`), never replayed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from math import gcd, lcm
from typing import TYPE_CHECKING

import numpy as np

from perceptron.algorithms.fast import (
    Problem,
    augmented,
    divided,
    integer_form,
    integer_vector,
)
from perceptron.algorithms.margin import MarginRun, run_margin
from perceptron.algorithms.sources import SOURCE_ALGORITHMS, SourceAlgorithm
from perceptron.conventions import DEFAULT, Conventions
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import radius2
from verify.runs.columns import (
    INT64_LIMIT,
    MARGIN_BLOCK,
    Column,
    Den,
    InstanceBatch,
    IntArray,
    Origin,
    VectorColumn,
    as_object,
    block_prefix,
    cached_property,
    gram_column,
    in_exact_dtype,
    int_array,
    max_abs,
    plus,
    reduced,
    run_rows,
    times,
)
from verify.runs.families import (
    DATASET,
    STREAM,
    UPDATES,
    FamilyData,
    FamilyError,
    History,
    is_atom,
)
from verify.runs.quantity import (
    Joint,
    Quantity,
    RowSet,
    RunKind,
    Runner,
    Scenario,
    margin,
    needed,
    radius_bound,
    register,
    wanted_columns,
)

if TYPE_CHECKING:  # the engine's modules load when a run is made (`engine_runner`)
    from perceptron.algorithms.trace import Trace

_ALL = ("state", "example", "update")
_EXAMPLE = ("example",)

#: The quantities of an online run: name, vector?, what it denotes, the row sets binding it;
#: every formula in proof-file syntax (`Quantity`).
QUANTITIES = (
    Quantity("w", True, "the iterate `w_t` (before the update, on update rows)", _ALL),
    Quantity("t", False, "the number of updates before `w`", _ALL),
    # newcomer 31, F6: "the learning rate" alone let a proof about other rates read as
    # checked at them (a dropped `eta > 0` held on every run)
    Quantity("eta", False, "the learning rate: 1 on every run that offers it (the built-in "
             "rules'; a plug-in's runs have none, their step is `tau`), so a statement about "
             "another rate is checked at 1 only", _ALL),
    Quantity("R2", False, "the squared radius of the dataset (no square root)", _ALL,
             "norm2(X[j])", "max"),
    Quantity("R", False, "an exact radius bound, `norm2(X[j]) <= R**2` for every j: "
             "`sqrt(R2)` when that is rational, else the least `c/q` above it, c an "
             "integer, for `R2 == p/q` in lowest terms (the sources' `R` and `D` are such "
             "bounds; no float, no irrational)", _ALL),
    Quantity("u", True, "the reference separator (planted, tight-family, the adversary's "
             "`e_1`, or an exact separator of a real dataset)", _ALL),
    Quantity("gamma_u", False, "the margin of the unnormalised u, so that "
             "`dot(w_t, u) >= t*gamma_u` and `norm2(w_t)*norm2(u) >= dot(w_t, u)**2` need "
             "no square root", _ALL, "Y[j]*dot(u, X[j])", "min"),
    Quantity("w0", True, "the initial iterate", _ALL),
    Quantity("N", False, "the number of examples, the indices of the families `X`, `Y` "
             "(the run's dataset, augmented when its algorithm has a bias)", _ALL),
    Quantity("time", False, "the time of `w` in the stream: how many examples the run had "
             "visited (epochs in order) when it made `w_t`, the visit of update t (0 for "
             "`w0`), the indices of the stream's families `XS`, `YS`, `ZS`, `IS`; no "
             "column for a plug-in's run, whose order is its own", _ALL),
    Quantity("beta", False, "the margin the update asks for, `y*dot(w, x) <= beta`: the "
             "margin perceptron's (perceptron.algorithms.margin), 0 for every other online "
             "run", _ALL),
    Quantity("mu", False, "the margin of the iterate on the data: positive exactly when "
             "`w` separates them (the last state of a run that converged); computed only "
             "for steps that name it (a pass over every example)", ("state",),
             "Y[j]*dot(w, X[j])", "min"),
    Quantity("x", True, "the example (on example rows every example of the dataset in "
             "turn; on update rows the one updated on)", ("example", "update")),
    Quantity("y", False, "the example's label, -1 or +1", ("example", "update")),
    Quantity("m", False, "by comparison of exact rationals", _EXAMPLE,
             "max(-y*dot(w, x), 0)"),
    Quantity("m_set", False, "the term of the set loss: `-y*dot(w, x)` if j is in M(w), "
             "else 0", _EXAMPLE),
    Quantity("m_sum", False, "the sum of `m` over the examples before j (0 at j = 0)",
             _EXAMPLE),
    Quantity("m_set_sum", False, "the sum of `m_set` over the examples before j", _EXAMPLE),
    Quantity("d", True, "a direction, fixed per state: the unit vector `e_q` for q the "
             "remainder of t divided by dim + 1, when that is less than dim (the "
             "dimension), else 0 (then `db == 1`, the bias direction)", _EXAMPLE),
    Quantity("db", False, "the bias part of the direction: 0 when `d` is `e_q`, else 1",
             _EXAMPLE),
    Quantity("h", False, "the step along the direction (not an integer for even t, so "
             "`h**2` is not `h`)", _EXAMPLE, "(t + 1)/2"),
    Quantity("b", False, "the bias of the iterate: 0 (runs through the origin)", _EXAMPLE),
    Quantity("J", False, "the fixed-set loss at w over the members i of M(w) before j: "
             "minus the sum of `Y[i]*(dot(w, X[i]) + b)` over them (equal to `m_set_sum`, "
             "b being 0)", _EXAMPLE),
    Quantity("J_at", False, "the same sum evaluated at the moved point: minus the sum of "
             "`Y[i]*(dot(w + h*d, X[i]) + b + h*db)`, computed from `w + h*d` itself",
             _EXAMPLE),
    Quantity("G", True, "the partial gradient over those members: minus the sum of "
             "`Y[i]*X[i]`", _EXAMPLE),
    Quantity("Gb", False, "its bias part: minus the sum of `Y[i]`", _EXAMPLE),
    Quantity("w_next", True, "the iterate after the update", ("update",), "w + tau*y*x"),
    Quantity("tau", False, "the update's step, so that `w_next` is `w + tau*y*x`: `eta` "
             "for the built-in rules, read exactly off the trace for a user's plug-in "
             "algorithm (verify.runs.plugin), whose runs have no constant `eta` or `beta`",
             ("update",)),
)


@dataclass(frozen=True)
class Update:
    """One update of an online run: iterate before, example, label, iterate after."""

    w: Vector
    x: Vector
    y: int
    w_next: Vector


@dataclass(frozen=True)
class IntegerRun:
    """An online run as the engine holds it (`perceptron.algorithms.fast`): `w_t = unit * W_t` with
    integer `W_t = W_0 + E * sum of Z[i]` over the first t updates, `x_i = rows[i] / scale`.
    Its columns are built from these integer arrays directly (`reduced`), never from
    Fractions, and nothing is replayed: the iterates are one cumulative sum."""

    problem: Problem
    indices: IntArray

    @cached_property
    def iterates(self) -> IntArray:
        """`W_0, ..., W_T` (T + 1 rows), exact: int64 when a bound allows, else object."""
        return self._partial_sums(self.indices)

    def first(self, n: int) -> IntArray:
        """`W_0, ..., W_{n-1}`, the first `n` rows of `iterates` (the same integers, the
        same dtype), from the first n - 1 updates only, unless `iterates` is made already:
        a run's first rows (`RowSet.prefix`) on data that are not separable read its first
        335 544 states, and the whole run's iterates, 9 933 892 updates of a 20 000 x 50
        file (online-history on non-separable data, bigdata31), were 4 GB of int64."""
        if n >= len(self.indices) + 1 or "iterates" in self.__dict__:
            return self.iterates[:n]
        made = self._partial_sums(self.indices[:max(n - 1, 0)], len(self.indices))
        return made[:n]

    def _partial_sums(self, indices: IntArray, updates: int | None = None) -> IntArray:
        """`W_0` and `W_0 + E * sum of Z[i]` over each prefix of `indices`, in a dtype chosen
        by the bound on a run of `updates` updates (default: `len(indices)`), so that the
        first rows are those of the whole run in its own dtype."""
        p = self.problem
        count = len(indices) if updates is None else updates
        steps = p.Z[indices]
        if steps.dtype != object and p.E == 1 and not any(p.W0) and (
                count * max(p.form.max_abs, 1) <= INT64_LIMIT):
            # from zero (then E is 1), every partial sum of T steps of entries at most |Z|
            # fits: the same integers as below, without a pass over an object row
            out = np.zeros((len(indices) + 1, p.d), dtype=np.int64)
            np.cumsum(steps, axis=0, out=out[1:])
            return out
        W0 = np.array([list(p.W0)], dtype=object)
        top = max(max_abs(W0), 0) + p.E * count * max(p.form.max_abs, 1)
        if top <= INT64_LIMIT and steps.dtype != object:
            W0, steps = W0.astype(np.int64), steps.astype(np.int64) * p.E
        else:
            steps = as_object(steps) * p.E
        return np.concatenate([W0, W0 + np.cumsum(steps, axis=0)])

    @cached_property
    def scaled(self) -> tuple[IntArray, int]:
        """`w_0, ..., w_T` as integer rows over one denominator, not reduced (`W_t * unit`):
        the same rationals as `states`, without its gcd; made once per run (the joint rows
        of its row sets read it, `joint_rows`)."""
        unit = self.problem.unit
        return times(self.iterates, unit.numerator), unit.denominator

    @cached_property
    def scaled_top(self) -> int:
        """The largest magnitude in `scaled`'s numerators."""
        return max_abs(self.scaled[0])

    def states(self, rows: slice = slice(None)) -> VectorColumn:
        """The iterates (a slice of them) as exact rationals (all of them made once: the
        state and example rows of a run share them)."""
        if rows == slice(None):
            return self._states
        unit = self.problem.unit
        made = (self.first(rows.stop) if rows.step is None and rows.stop is not None
                and rows.stop >= 0 and (rows.start or 0) >= 0 else self.iterates)
        return reduced(times(made[rows], unit.numerator), unit.denominator)

    @cached_property
    def _states(self) -> VectorColumn:
        unit = self.problem.unit
        return reduced(times(self.iterates, unit.numerator), unit.denominator)

    def examples(self, which: IntArray | None = None) -> VectorColumn:
        """The examples (those at positions `which`) as exact rationals."""
        form = self.problem.form
        return reduced(form.rows if which is None else form.rows[which], form.scale)

    def radius2(self) -> Fraction:
        """`max ||x_i||^2`, from the integers (the engine's own `R2` of them)."""
        return Fraction(self.problem.R2, self.problem.form.scale ** 2)

    def margin(self, u: Vector) -> Fraction:
        """`min_i y_i <u, x_i>`, from the integers (once per integer form and `u`)."""
        return self.problem.form.margin(tuple(u))


class LazyUpdates(Sequence[Update]):
    """A run's `count` updates, made as Fractions by `make` (once) only if someone reads them:
    the rows of an engine run are built from its integer form instead."""

    def __init__(self, count: int, make: Callable[[], Iterable[Update]]) -> None:
        self.count, self.make = count, make
        self._items: tuple[Update, ...] | None = None

    def _all(self) -> tuple[Update, ...]:
        if self._items is None:
            self._items = tuple(self.make())
        return self._items

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, k):  # type: ignore[override]
        return self._all()[k]


def _trace_updates(trace: object) -> LazyUpdates:
    """The updates of an engine run's trace."""
    return LazyUpdates(len(trace), lambda: (  # type: ignore[arg-type]
        Update(tuple(step.w_before), tuple(step.x), int(step.y), tuple(step.w_after))
        for step in trace))  # type: ignore[attr-defined]


@dataclass(frozen=True)
class OnlineUpdates:
    """What a proof's names are bound to on an online run: its data, reference u and updates (and,
    for a run of the engine, the same run as integer arrays, from which its rows are built).

    Not the run itself (that is `perceptron.algorithms.online.OnlineRun`, which drives the
    epochs): the record of its updates that proof-step names are bound to."""

    data: Dataset
    u: Vector
    updates: Sequence[Update]
    eta: Fraction = Fraction(1)
    w0: Vector | None = None
    integer: IntegerRun | None = field(default=None, compare=False, repr=False)
    beta: Fraction | None = None  # the margin perceptron's beta (None: the ordinary rule)
    #: a plug-in's run (`verify.runs.plugin`): its name and each update's step tau (None for
    #: an update not along y x); None for the built-in rules, whose tau is eta
    steps: tuple[Fraction | None, ...] | None = field(default=None, compare=False, repr=False)
    plugin: str | None = None

    @cached_property
    def constants(self) -> tuple[Fraction, Fraction]:
        """`(R2, gamma_u)`, computed once per run."""
        if self.integer is not None:
            return self.integer.radius2(), self.integer.margin(self.u)
        return radius2(self.data), margin(self.data, self.u)

    @cached_property
    def indices(self) -> IntArray:
        """The position in the dataset of the example of each update (0-based): the
        engine's own, or else each update matched to an example equal to it, the first
        visited after the last update's (equal examples: the one a cyclic run meets first)."""
        if self.integer is not None:
            return np.asarray(self.integer.indices, dtype=np.int64)
        where: dict[tuple[Vector, int], list[int]] = {}
        for j, (x, y) in enumerate(zip(self.data.X, self.data.y, strict=True)):
            where.setdefault((tuple(x), int(y)), []).append(j)
        n, last, found = max(self.data.n, 1), -1, []
        for up in self.updates:  # among equal examples, the first visited after the last
            places = where.get((tuple(up.x), int(up.y)))  # update (the engine's, in order)
            if places is None:
                raise FamilyError("an update of this run is on no example of its dataset: "
                                  "its history's families cannot be read")
            last = min(places, key=lambda p, at=last: (p - at - 1) % n)
            found.append(last)
        return np.array(found, dtype=np.int64)

    @cached_property
    def times(self) -> IntArray:
        """The time of each update in the stream (1-based visits, epochs in order): the
        first at `j_1 + 1`, each next one at the next visit of its example, since the rule
        reads only `w` and the example and `w` is unchanged in between (a visit of that
        example in between, at the same `w`, would have updated)."""
        j, n = self.indices, max(self.data.n, 1)
        if not len(j):
            return np.zeros(0, dtype=np.int64)
        steps = np.concatenate([j[:1] + 1, (j[1:] - j[:-1] - 1) % n + 1])
        return np.cumsum(steps)

    @cached_property
    def history(self) -> History:
        """Its history as families (`verify.runs.families.HISTORY`): the updates, and the
        stream up to the last update (a plug-in's run: the updates only)."""
        j = self.indices
        y = np.array([int(v) for v in self.data.y], dtype=np.int64)
        if self.plugin is not None:
            return History.of(y, j)
        def stream() -> tuple[IntArray, IntArray]:
            visits = int(self.times[-1]) if len(j) else 0
            updated = np.zeros(visits, dtype=np.int64)
            updated[self.times - 1] = 1
            return np.arange(visits, dtype=np.int64) % max(self.data.n, 1), updated
        return History.of(y, j, stream)

    def state_times(self) -> IntArray | None:
        """`time` of each state `w_0, ..., w_T` (None: a plug-in's run, no stream order)."""
        if self.plugin is not None:
            return None
        return np.concatenate([np.zeros(1, dtype=np.int64), self.times])

    def families(self) -> FamilyData:
        """Its dataset's families and its history's (made when first read)."""
        return FamilyData.of(self.data, DATASET).with_history(lambda: self.history,
                                                              self.data.X)

    @cached_property
    def u_row(self) -> VectorColumn:
        """`u` as one row, made once per run: each row set of the run repeats it
        (`VectorColumn.repeated`)."""
        return VectorColumn.of([self.u])

    @cached_property
    def w0_row(self) -> VectorColumn:
        """`w_0` as one row, made once per run, and only when read (the zero vector is a
        Fraction per coordinate)."""
        return VectorColumn.of([self.initial])

    @property
    def initial(self) -> Vector:
        """`w_0` (zero unless given)."""
        return self.w0 if self.w0 is not None else tuple(Fraction(0) for _ in self.u)

    @property
    def states(self) -> tuple[Vector, ...]:
        """`w_0, ..., w_T`."""
        if not self.updates:
            return (self.initial,)
        return (*(up.w for up in self.updates), self.updates[-1].w_next)


def run_from_engine(result: object, data: Dataset, u: Vector) -> OnlineUpdates:
    """Adapt a `perceptron.algorithms.online.run_online(..., keep_trace=True)` result.

    Reads the trace's iterate before/after, example and label of every update, and the
    learning rate and initial iterate recorded in the result's conventions.
    """
    return run_from_trace(result.trace, data, u)  # type: ignore[attr-defined]


def run_from_trace(trace: Trace, data: Dataset, u: Vector) -> OnlineUpdates:
    """`run_from_engine` of the run whose trace is `trace` (its conventions are the run's)."""
    conventions = trace.conventions
    eta = getattr(conventions, "eta", 1)
    if type(eta) is not Fraction:  # a Conventions' own is one already (immutable)
        eta = Fraction(eta)
    w0 = getattr(conventions, "w0", None)
    integer = None
    if not getattr(conventions, "bias", False) and trace.data is data:
        integer = IntegerRun(trace.problem, trace.indices)
    return OnlineUpdates(data, u, _trace_updates(trace), eta, tuple(w0) if w0 is not None else None,
                     integer)


def _constants(run: OnlineUpdates, n: int, names: Collection[str] | None = None
               ) -> tuple[dict[str, Column], dict[str, VectorColumn]]:
    """The quantities fixed for a whole run, as columns of n equal rows (those `names` asks
    for, when given)."""
    wanted = wanted_columns(names)
    scalars: dict[str, Column] = {}
    if wanted("eta"):
        scalars["eta"] = Column.constant(run.eta, n)
    if wanted("R2") or wanted("R") or wanted("gamma_u"):  # a pass over the data, once a run
        R2, gamma_u = run.constants
        if wanted("R2"):
            scalars["R2"] = Column.constant(R2, n)
        if wanted("R"):
            scalars["R"] = Column.constant(radius_bound(R2), n)
        if wanted("gamma_u"):
            scalars["gamma_u"] = Column.constant(gamma_u, n)
    if wanted("beta"):
        scalars["beta"] = Column.constant(run.beta or Fraction(0), n)
    if wanted("N"):
        scalars["N"] = Column.constant(run.data.n, n)
    vectors = {}
    if wanted("u"):
        vectors["u"] = VectorColumn.repeated(run.u_row, n)
    if wanted("w0"):  # made only when read: the zero vector is a Fraction per coordinate
        vectors["w0"] = VectorColumn.repeated(run.w0_row, n)
    return scalars, vectors


def update_rows(run: OnlineUpdates, origin: Origin,
                names: Collection[str] | None = None, limit: int | None = None
                ) -> InstanceBatch:
    """One row per update (the first `limit` only, when given: `RowSet.prefix`)."""
    n = len(run.updates) if limit is None else min(limit, len(run.updates))
    scalars, vectors = _constants(run, n, names)
    scalars["t"] = Column.counting(np.arange(n, dtype=np.int64), n - 1)
    _time(run, scalars, names, slice(0, n))
    if run.steps is None:
        scalars["tau"] = Column.constant(run.eta, n)
    elif None not in run.steps:  # a plug-in's update not along y x has no tau (no column)
        scalars["tau"] = Column.of(run.steps[:n])  # type: ignore[arg-type]
    if run.integer is not None and n:
        which = run.integer.indices[:n]
        scalars["y"] = Column.counting(run.integer.problem.form.y[which], 1)
        vectors["w"] = run.integer.states(slice(0, n))
        vectors["w_next"] = run.integer.states(slice(1, n + 1))
        vectors["x"] = run.integer.examples(which)
    else:
        updates = run.updates[:n]
        scalars["y"] = Column(np.array([up.y for up in updates], dtype=np.int64))
        vectors["w"] = VectorColumn.of([up.w for up in updates])
        vectors["w_next"] = VectorColumn.of([up.w_next for up in updates])
        vectors["x"] = VectorColumn.of([up.x for up in updates])
    return run_rows(scalars, vectors, origin, np.arange(n))


def state_rows(run: OnlineUpdates, origin: Origin,
               names: Collection[str] | None = None, limit: int | None = None
               ) -> InstanceBatch:
    """One row per state `w_t`, t = 0..T (the final iterate included; the first `limit`
    only, when given: `RowSet.prefix`); `mu` only when `names` asks for it (it costs a pass
    over every example per state, which long traces checked without a list of names,
    `verify.testing.check_run`, should not pay)."""
    states = len(run.updates) + 1
    n = states if limit is None else min(limit, states)
    scalars, vectors = _constants(run, n, names)
    scalars["t"] = Column.counting(np.arange(n, dtype=np.int64), n - 1)
    _time(run, scalars, names, slice(0, n))
    if run.integer is not None:
        vectors["w"] = run.integer.states() if n == states else \
            run.integer.states(slice(0, n))
    else:
        vectors["w"] = VectorColumn.of(run.states[:n])
    if names is not None and "mu" in names:
        scalars["mu"] = iterate_margins(run, n)
    return run_rows(scalars, vectors, origin, np.arange(n))


def _time(run: OnlineUpdates, scalars: dict[str, Column], names: Collection[str] | None,
          states: slice | IntArray) -> None:
    """`time` at the rows' states (`states`: their t), when asked for and the run has a
    stream order."""
    if names is not None and "time" not in names:
        return
    times = run.state_times()
    if times is not None:
        picked = times[states]  # increasing with t: its largest is the last state's
        scalars["time"] = Column.counting(picked, int(picked[-1]) if len(picked) else 0)


def iterate_margins(run: OnlineUpdates, n: int | None = None) -> Column:
    """`mu` per state (the first `n`, when given): `min_j y_j <w_t, x_j>`, exactly (from
    the integers when the run has them: `w_t = unit W_t`, `y_j x_j = Z_j / scale`)."""
    if run.integer is not None:
        problem = run.integer.problem
        W = run.integer.iterates if n is None else run.integer.first(n)
        # in int64 when every `<W_t, Z_j>` provably fits, else Python ints a block at a time:
        # a run's first 335 544 iterates on a 20 000 x 50 file as one object table are 16.7
        # million Python ints (about 36 bytes each with its pointer, against 8 in int64)
        exact = W.dtype != object and problem.Z.dtype != object and \
            max_abs(W) * max_abs(problem.Z) * max(problem.Z.shape[1], 1) <= INT64_LIMIT
        Z = problem.Z.astype(np.int64).T if exact else as_object(problem.Z).T
        step = max(1, MARGIN_BLOCK // max(run.data.n, 1))  # the table block by block
        lowest = np.concatenate([
            ((W[k:k + step] if exact else as_object(W[k:k + step])) @ Z).min(axis=1)
            for k in range(0, len(W), step)]) if len(W) else np.zeros(0, dtype=np.int64)
        factor = problem.unit / problem.form.scale
        return Column.of([int(m) * factor for m in lowest])
    data = run.data
    signed = [tuple(y * v for v in x) for x, y in zip(data.X, data.y, strict=True)]
    return Column.of([min(sum((a * b for a, b in zip(w, z, strict=True)), Fraction(0))
                          for z in signed) for w in run.states[:n]])


def example_rows(run: OnlineUpdates, origin: Origin,
                 names: Collection[str] | None = None) -> InstanceBatch:
    """One row per (state `w_t`, example j): loss terms, partial sums and gradients (only
    the columns `names` asks for, when given: the loss and gradient columns cost a dot
    product per row and a prefix sum over each state's examples, and most checks on example
    rows read only `w`, `x` and `y`)."""
    data = run.data
    per_state, dim, count = data.n, data.d, len(run.updates) + 1
    wanted = wanted_columns(names)
    t = np.repeat(np.arange(count, dtype=np.int64), per_state)
    j = np.arange(count * per_state, dtype=np.int64) % per_state  # 0..n-1 per state
    y = (run.integer.problem.form.y if run.integer is not None
         else np.array(data.y, dtype=np.int64))[j]
    if run.integer is not None:
        X, W = run.integer.examples(), run.integer.states()
    else:
        X, W = VectorColumn.of(data.X, dim), VectorColumn.of(run.states, dim)
    x_rows = X.take(j, every=True)
    scalars = {"t": Column.counting(t, count - 1), "y": Column.counting(y, 1)}
    _time(run, scalars, names, t)
    if wanted("h"):
        scalars["h"] = Column(t + 1, 2)
    q = np.arange(count) % (dim + 1)
    if wanted("db") or wanted("J_at"):
        db = (q == dim).astype(np.int64)
        scalars["db"] = Column(db[t])
    if wanted("b"):
        scalars["b"] = Column(np.zeros(len(t), dtype=np.int64))
    vectors = {"w": W.take(t, every=True), "x": x_rows}  # then d and G, in this order
    if wanted("d"):
        # per state: direction e_q (db = 0) for q = t mod (dim + 1) < dim, else db = 1
        axis = np.flatnonzero(q < dim)
        directions = np.zeros((count, dim), dtype=np.int64)
        directions[axis, q[axis]] = 1
        vectors["d"] = VectorColumn(directions).take(t)
    if any(wanted(n) for n in _LOSS_NAMES):
        g = gram_column(vectors["w"], x_rows)
        yg = g.num * y  # |y| = 1: no growth
        member = yg <= 0
        signed = np.where(member, -y, 0)
        if wanted("m") or wanted("m_sum"):
            loss = np.where(-yg > 0, -yg, 0)
            scalars["m"] = Column(loss, g.den)
            scalars["m_sum"] = Column(block_prefix(loss, count, per_state), g.den)
        if any(wanted(n) for n in ("m_set", "m_set_sum", "J")):
            m_set = np.where(member, -yg, 0)
            set_sum = Column(block_prefix(m_set, count, per_state), g.den)
            scalars["m_set"] = Column(m_set, g.den)
            scalars["m_set_sum"] = set_sum
            scalars["J"] = set_sum  # b = 0: the fixed-set loss at w is the sum of the set terms
        if wanted("J_at"):
            scalars["J_at"] = _moved_loss(g, X, W, t, j, q, member, y, count, per_state)
        if wanted("Gb"):
            scalars["Gb"] = Column(block_prefix(signed, count, per_state))
        if wanted("G"):
            gradient = in_exact_dtype(X.num[j], per_state * max_abs(X.num)) * signed[:, None]
            vectors["G"] = VectorColumn(block_prefix(gradient, count, per_state), X.den)
    constant_scalars, constant_vectors = _constants(run, len(t), names)
    scalars = {name: scalars[name] for name in _EXAMPLE_ORDER if name in scalars}
    return run_rows({**constant_scalars, **scalars}, {**constant_vectors, **vectors}, origin, t)


def state_count(run: OnlineUpdates) -> int:
    """The state rows `state_rows` makes of `run`, one per iterate (`RowSet.count`)."""
    return len(run.updates) + 1


def update_count(run: OnlineUpdates) -> int:
    """The update rows `update_rows` makes of `run`, one per update (`RowSet.count`)."""
    return len(run.updates)


def example_count(run: OnlineUpdates) -> int:
    """The example rows `example_rows` makes of `run` (`RowSet.count`): every example at
    every state, so a run of many updates on a large data file makes states times examples
    rows (`verify.numeric.campaign.MAX_RUN_CELLS`)."""
    return (len(run.updates) + 1) * run.data.n


#: The order of the example rows' own scalars (a counterexample lists its values in it).
_EXAMPLE_ORDER = ("t", "time", "y", "m", "m_set", "m_sum", "m_set_sum", "J", "J_at", "Gb", "h",
                  "db", "b")


#: The example rows' columns read off the dot products `<w, x_j>` (the costly ones).
_LOSS_NAMES = ("m", "m_set", "m_sum", "m_set_sum", "J", "J_at", "G", "Gb")


def _moved_loss(g: Column, X: VectorColumn, W: VectorColumn, t: IntArray, j: IntArray,
                q: IntArray, member: np.ndarray, y: IntArray, count: int,
                per_state: int) -> Column:
    """`J_at`: `-sum y_i (<w + h d, x_i> + b + h db)` over the members before j, b = 0.

    For the moved point w + h d = (2 W + (t + 1) den_W d) / (2 den_W): as d is e_q (or 0),
    `<w + h d, x_j>` is 2 <W, X_j> + (t + 1) den_W X_jq over 2 den_W den_X, read off `g` and
    one coordinate of x instead of a second table of dot products."""
    dim = X.dim
    db = (q == dim).astype(np.int64)
    steps = times(np.arange(1, count + 1, dtype=np.int64), W.den)
    along = np.zeros(len(t), dtype=X.num.dtype)  # X_jq on rows whose state has d = e_q
    moving = q[t] < dim
    along[moving] = X.num[j[moving], q[t][moving]]
    at_num = plus(times(g.num, 2), in_exact_dtype(along, max_abs(along) * max_abs(steps))
                   * in_exact_dtype(steps, max_abs(along) * max_abs(steps))[t])
    at = Column(at_num, 2 * W.den * X.den)
    # -y (<w + h d, x> + b + h db) with b = 0, over 2 * at.den: h db = (t + 1) db / 2
    at_term = plus(times(at.num, 2), times((t + 1) * db[t], at.den)) * -y
    return Column(block_prefix(np.where(member, at_term, 0), count, per_state), 2 * at.den)


# ---- rows of many runs at once -------------------------------------------------------------

#: The names the joint builders make, per row set (`JOINT`); a check that reads another (`mu`,
#: the loss and gradient columns, `w0`, a plug-in's `tau`) has its rows made run by run.
_JOINT_NAMES: dict[str, frozenset[str]] = {
    "state": frozenset({"t", "w", "eta", "R2", "R", "gamma_u", "beta", "u", "N", "time"}),
    "update": frozenset({"t", "tau", "y", "w", "w_next", "x", "eta", "R2", "R", "gamma_u",
                         "beta", "u", "N", "time"}),
    "example": frozenset({"t", "y", "w", "x", "eta", "R2", "R", "gamma_u", "beta", "u", "N",
                          "time"}),
}


def _joint(row_set: str) -> Joint:
    """How `row_set`'s rows of many engine runs are made at once (`Joint`)."""
    return Joint(_joint_count(row_set), joint_rows(row_set), _joint_magnitude, _joint_prepare)


def _joint_count(row_set: str) -> Callable[[object, Collection[str]], int | None]:
    """`Joint.count` of `row_set`: the rows its builder makes of an engine run (one with an
    integer form and the built-in update rule) whose checks read only names the joint
    builder makes; None for any other."""
    names_made = _JOINT_NAMES[row_set]
    # whether it makes every name a frozen set of names needs: asked once per run and set
    # by a campaign (`verify.numeric.campaign._Group`), the same few sets each time
    makes: dict[frozenset[str], bool] = {}

    def count(run: object, names: Collection[str]) -> int | None:
        if not isinstance(run, OnlineUpdates) or run.integer is None or run.steps is not None:
            return None
        made = makes.get(names) if isinstance(names, frozenset) else None
        if made is None:
            made = names_made.issuperset(needed(names))
            if isinstance(names, frozenset) and len(makes) < MEMO_NAMES:
                makes[names] = made
        if not made:
            return None
        updates = len(run.updates)
        rows = (updates + 1 if row_set == "state" else updates if row_set == "update"
                else (updates + 1) * run.data.n)
        return rows if rows * max(run.data.d, 1) <= JOINT_CELLS else None
    return count


#: At most this many sets of names each joint builder remembers it makes (`_joint_count`).
MEMO_NAMES = 1024
#: A run whose rows of one row set have more coordinates than this (rows x dimension) has
#: them made on its own: its builder's columns repeat its iterates and examples without
#: copying them (`VectorColumn.take`), and its Gram columns are computed on the distinct
#: vectors, where the joint builder would copy every row (128 kilobytes of int64 at this size).
#: The adversary's example rows (b + 1 states times b examples of about 3b coordinates of up
#: to 40 bits for b <= 30) were most of its checking time copied: their Gram columns in
#: limbs on every row, where alone `<x, x>` is one product per example and `<w, x>` one
#: table per run. With `campaign.ALONE` at 300, part (2) of `benchmarks/campaign.py
#: --medium`, adversary shards: 0.195 -> 0.135 CPU-s (best of 6 interleaved, 2**16 and
#: 1000 before; 2**13 to 2**15 within 3% of it; the other sources unchanged).
JOINT_CELLS = 2**14


def _joint_magnitude(run: OnlineUpdates) -> int:
    """`Joint.magnitude` of an engine run: its largest scaled iterate or example entry, or
    denominator (its constants, R2 and gamma_u, are products of these)."""
    at = run.__dict__.get(_AT)
    if at is not None:
        return at[0].magnitudes[at[1]]
    integer = run.integer
    assert integer is not None
    form = integer.problem.form
    return max(integer.scaled_top, form.max_abs, form.scale)


def _stacked(arrays: Sequence[IntArray], width: int) -> IntArray:
    """Row blocks of integers, each zero-padded to `width` columns, one under another (int64
    unless some block holds Python ints)."""
    big = any(a.dtype == object for a in arrays)
    out = np.zeros((sum(len(a) for a in arrays), width), dtype=object if big else np.int64)
    start = 0
    for block in arrays:
        out[start:start + len(block), :block.shape[1]] = block
        start += len(block)
    return out


def _over(num: IntArray, dens: Sequence[int], counts: Sequence[int]) -> tuple[IntArray, Den]:
    """Rows of several runs, each run's over its own denominator (`dens`, `counts` rows
    each), as numerators over one denominator when that is cheap: their common one, or
    their lcm up to `COMMON_DEN` with every numerator scaled to it in int64; else over a
    denominator per row. Over one, a polynomial of the batch is evaluated term by term
    (`CompiledPolynomial._evaluate`); over one per row, each term also multiplies the
    powers of every row's denominators (`_evaluate_per_row`), most of the joint rows'
    checking time before."""
    first = dens[0]
    if all(d == first for d in dens):
        return num, first
    common = lcm(*dens)
    if common <= COMMON_DEN and num.dtype != object:
        factors = [common // d for d in dens]
        if max_abs(num) * max(factors) <= INT64_LIMIT:
            scale = np.repeat(np.array(factors, dtype=np.int64), counts)
            return num * (scale[:, None] if num.ndim == 2 else scale), common
    return num, np.repeat(int_array(list(dens)), counts)


#: The largest lcm of several runs' denominators a joint column is brought to (`_over`).
COMMON_DEN = 2**16


def _vectors(blocks: Sequence[IntArray], dens: Sequence[int], counts: Sequence[int],
             width: int) -> VectorColumn:
    """A vector column of several runs' rows (`_stacked`, `_over`)."""
    return VectorColumn(*_over(_stacked(blocks, width), dens, counts))


def _per_run(values: Sequence[Fraction], counts: Sequence[int]) -> Column:
    """A run's constant on each of its rows, run after run."""
    return _per_run_pairs([(v.numerator, v.denominator) for v in values], counts)


def _per_run_pairs(values: Sequence[tuple[int, int]], counts: Sequence[int]) -> Column:
    """`_per_run` of constants given as numerators over positive denominators, in lowest
    terms (each the pair its Fraction has)."""
    return Column(*_over(np.repeat(int_array([p for p, _ in values]), counts),
                         [q for _, q in values], counts))


#: A rational as its numerator over its positive denominator, in lowest terms.
Pair = tuple[int, int]


def _pair(num: int, den: int) -> Pair:
    """`num / den` (`den > 0`) in lowest terms: the numerator and denominator of
    `Fraction(num, den)`, without making it (a joint stack makes two per run)."""
    g = gcd(num, den)  # >= 1, as den > 0 (and den itself when num is 0: 0 / 1)
    return num // g, den // g


#: Where a run prepared by `_joint_prepare` keeps its stack and its place in it (the run's
#: `__dict__`, beside its cached properties).
_AT = "_joint_stack"


@dataclass(frozen=True, eq=False)
class _Stack:
    """The integer arrays of many engine runs, stacked once (`_joint_prepare`) and read by
    the joint rows of every row set (`_stack_rows`), where each row set's builder stacked
    them again, run by run. Run k's iterates `W_0, ..., W_T` (numerators over `w_den[k]`,
    `W_t * unit` with the unit's numerator 1) are rows `first_state[k] ..` of `W`, its
    examples (numerators over `x_den[k]`) and labels rows `first_row[k] ..` of `X` and `y`,
    its `u` row k of `U` over `u_den[k]`; every array int64, zero-padded to the widest run."""

    W: IntArray
    first_state: IntArray
    updates: IntArray
    X: IntArray
    y: IntArray
    first_row: IntArray
    examples: IntArray
    U: IntArray
    widths: IntArray  # per run, its dimension (its examples' and u's)
    w_den: list[int]
    x_den: list[int]
    u_den: list[int]
    constants: list[tuple[Pair, Pair]]  # (R2, gamma_u) per run, each in lowest terms
    magnitudes: list[int]  # `_joint_magnitude` per run


def _joint_prepare(runs: Sequence[OnlineUpdates]) -> None:
    """`Joint.prepare` of the online row sets: the runs' integer arrays stacked once
    (`_Stack`) for the joint rows of every row set, their iterates made for all of them in
    one cumulative sum, and their margins `gamma_u` in one product, where each run made
    them with a dozen numpy calls and Fractions of its own, and each row set stacked them
    again (together most of the joint rows' time on the mixed sources of
    `benchmarks/campaign.py`, thousands of runs of a handful of updates).

    A run is stacked only when every integer of it is exact in int64 by a bound: from the
    zero start with the unit's numerator 1 (`W_t` the partial sums of the signed rows `Z` at
    the updated positions), int64 rows, `T max|Z| <= INT64_LIMIT // 2` for its T updates
    (each partial sum, and each first step less the run before's total, below), and
    `max|Z| sum|U| <= INT64_LIMIT` for `u = U / D` of the examples' dimension (its margins,
    as `exact_matvec` decides for one run). Any other run, or one already stacked, is left
    to its own properties, and the joint rows of a batch with such a run are made run by
    run as before (`joint_rows`)."""
    kept: list[OnlineUpdates] = []
    vectors: list[tuple[list[int], int]] = []
    seen: set[int] = set()
    for run in runs:
        integer = run.integer
        if integer is None or _AT in run.__dict__ or id(run) in seen:
            continue
        problem = integer.problem
        top = problem.form.max_abs
        if (problem.E != 1 or problem.Z.dtype == object or problem.unit.numerator != 1
                or not len(problem.Z) or any(problem.W0)
                or len(integer.indices) * max(top, 1) > INT64_LIMIT // 2):
            continue
        U, D = integer_vector(run.u)
        if len(U) != problem.Z.shape[1] or max(top, 1) * sum(map(abs, U)) > INT64_LIMIT:
            continue
        seen.add(id(run))
        kept.append(run)
        vectors.append((U, D))
    if kept:
        _stack(kept, vectors)


def _stack(runs: Sequence[OnlineUpdates], vectors: Sequence[tuple[list[int], int]]) -> None:
    """Stack `runs` (`_joint_prepare`: each within its bounds) and note each one's place."""
    integers = [run.integer for run in runs]
    problems = [integer.problem for integer in integers]  # type: ignore[union-attr]
    widths = np.array([p.Z.shape[1] for p in problems], dtype=np.int64)  # u's too
    width = int(widths.max())
    updates = np.array([len(i.indices) for i in integers], dtype=np.int64)  # type: ignore[union-attr]
    examples = np.array([len(p.Z) for p in problems], dtype=np.int64)
    first_row = np.cumsum(examples) - examples
    Z = _stacked([p.Z for p in problems], width)
    y = np.concatenate([p.form.y for p in problems])
    steps = Z[np.concatenate([i.indices for i in integers])  # type: ignore[union-attr]
              + np.repeat(first_row, updates)]
    # every run's partial sums by one cumulative sum: each run's first step less the total
    # of the run with steps before it, so every prefix is one run's own partial sum (at most
    # T max|Z| <= INT64_LIMIT // 2) and every step so changed at most INT64_LIMIT
    first_step = (np.cumsum(updates) - updates)[updates > 0]
    if len(first_step) > 1:
        totals = np.add.reduceat(steps, first_step, axis=0)
        steps[first_step[1:]] -= totals[:-1]
    states = updates + 1
    first_state = np.cumsum(states) - states
    W = np.zeros((int(states.sum()), width), dtype=np.int64)
    later = np.ones(len(W), dtype=bool)
    later[first_state] = False
    W[later] = np.cumsum(steps, axis=0)
    U = np.array([[*u, *(0,) * (width - len(u))] for u, _ in vectors], dtype=np.int64)
    margins = np.einsum("ij,ij->i", Z, np.repeat(U, examples, axis=0))
    least = np.minimum.reduceat(margins, first_row).tolist()
    tops = (np.maximum.reduceat(np.abs(W).max(axis=1), first_state).tolist() if width
            else [0] * len(runs))
    scales = [p.form.scale for p in problems]
    w_den = [p.unit.denominator for p in problems]
    X = _stacked([p.form.rows for p in problems], width)
    stack = _Stack(
        W, first_state, updates, X, y, first_row, examples, U, widths,
        w_den, scales, [D for _, D in vectors],
        [(_pair(R2, scale * scale), _pair(low, D * scale))
         for R2, scale, low, (_, D) in zip(_radii(problems, X, first_row, examples), scales,
                                           least, vectors, strict=True)],
        [max(top, p.form.max_abs, scale)
         for p, top, scale in zip(problems, tops, scales, strict=True)])
    for k, run in enumerate(runs):
        run.__dict__[_AT] = (stack, k)


def _radii(problems: Sequence[Problem], X: IntArray, first_row: IntArray,
           examples: IntArray) -> list[int]:
    """Each problem's `R2`, `max_i ||rows[i]||^2` (its examples rows `first_row ..` of the
    stacked `X`), stored in the problem (`Problem.R2`, made when first read): in one product
    for those whose `max|x|^2 d` is within int64 (as `IntegerForm.radius2` decides for one
    form), each other one's by its own."""
    known = [p.__dict__.get("R2") for p in problems]
    fits = np.array([R2 is None and p.form.max_abs ** 2 * max(p.Z.shape[1], 1) <= INT64_LIMIT
                     for p, R2 in zip(problems, known, strict=True)], dtype=bool)
    if fits.any():
        rows = np.repeat(fits, examples)
        norms = np.zeros(len(X), dtype=np.int64)
        norms[rows] = np.einsum("ij,ij->i", X[rows], X[rows])
        largest = np.maximum.reduceat(norms, first_row).tolist()
        for p, found, R2 in zip(problems, fits.tolist(), largest, strict=True):
            if found:
                p.__dict__["R2"] = R2
    return [p.R2 for p in problems]


def _segments(starts: IntArray, lengths: IntArray) -> tuple[IntArray, IntArray]:
    """The positions `starts[k] .. starts[k] + lengths[k] - 1` of every k one after another,
    and each one's offset in its segment."""
    total = int(lengths.sum())
    before = np.cumsum(lengths) - lengths
    offset = np.arange(total, dtype=np.int64) - np.repeat(before, lengths)
    return np.repeat(starts, lengths) + offset, offset


def _stack_rows(row_set: str, runs: Sequence[OnlineUpdates], origins: Sequence[Origin],
                names: Collection[str], wanted: frozenset[str]) -> InstanceBatch | None:
    """`joint_rows`' batch read off the runs' `_Stack` (all in one, `_joint_prepare`): the
    same numerators over the same denominators as its run-by-run stacking; None when some
    run is in none or in another."""
    found = runs[0].__dict__.get(_AT)
    if found is None:
        return None
    stack = found[0]
    places = []
    for run in runs:
        at = run.__dict__.get(_AT)
        if at is None or at[0] is not stack:
            return None
        places.append(at[1])
    k = np.array(places, dtype=np.int64)
    width = int(stack.widths[k].max())
    updates = stack.updates[k]
    states = updates + 1
    examples = stack.examples[k]
    w_den = [stack.w_den[i] for i in places]
    scalars: dict[str, Column] = {}
    vectors: dict[str, VectorColumn] = {}
    if row_set == "state":
        counts = states
        rows, t = _segments(stack.first_state[k], states)
        if "w" in wanted:
            vectors["w"] = VectorColumn(*_over(stack.W[rows, :width], w_den, counts))
    elif row_set == "update":
        counts = updates
        rows, t = _segments(stack.first_state[k], updates)
        at = (np.concatenate([run.integer.indices for run in runs])  # type: ignore[union-attr]
              + np.repeat(stack.first_row[k], updates))
        if "y" in wanted:
            scalars["y"] = Column.counting(stack.y[at], 1)
        if "w" in wanted:
            vectors["w"] = VectorColumn(*_over(stack.W[rows, :width], w_den, counts))
        if "w_next" in wanted:
            vectors["w_next"] = VectorColumn(*_over(stack.W[rows + 1, :width], w_den, counts))
        if "x" in wanted:
            vectors["x"] = VectorColumn(*_over(stack.X[at, :width],
                                               [stack.x_den[i] for i in places], counts))
    else:
        # row r is (state, example): the batch's states one after another, and examples
        counts = states * examples
        state_rows, _ = _segments(stack.first_state[k], states)
        example_rows, _ = _segments(stack.first_row[k], examples)
        state_of, example_of, t = _example_grid(states, examples)
        at = example_rows[example_of]
        if "y" in wanted:
            scalars["y"] = Column.counting(stack.y[at], 1)
        if "w" in wanted:
            vectors["w"] = VectorColumn(*_over(stack.W[state_rows[state_of], :width], w_den,
                                               counts))
        if "x" in wanted:
            vectors["x"] = VectorColumn(*_over(stack.X[at, :width],
                                               [stack.x_den[i] for i in places], counts))
    own = scalars
    scalars = {"t": Column.counting(t, int(updates.max()) - (row_set == "update"))}
    if row_set == "update" and "tau" in wanted:
        scalars["tau"] = _per_run([run.eta for run in runs], counts)
    scalars.update(own)
    index = np.repeat(np.arange(len(runs), dtype=np.int64), counts)  # each row's run
    if "u" in wanted:
        vectors["u"] = VectorColumn(*_over(stack.U[k[index], :width],
                                           [stack.u_den[i] for i in places], counts))
    return _joint_tail(row_set, runs, origins, names, wanted, scalars, vectors, counts, index,
                       t, examples.tolist(), [stack.constants[i] for i in places])


def _example_grid(states: IntArray, examples: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The example rows of runs with `states[k]` states and `examples[k]` examples, row r
    being (state, example) in a few numpy calls for all the runs: which state among the
    runs' states one after another, which example among their examples one after another,
    and the state's count t in its own run."""
    sizes = np.repeat(examples, states)  # rows per state
    state_of = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    example_of = (np.arange(len(state_of), dtype=np.int64)
                  - np.repeat(np.cumsum(sizes) - sizes, sizes)
                  + np.repeat(np.repeat(np.cumsum(examples) - examples, states), sizes))
    t = (np.arange(len(sizes), dtype=np.int64)
         - np.repeat(np.cumsum(states) - states, states))[state_of]
    return state_of, example_of, t


def joint_rows(row_set: str) -> Callable[[Sequence[OnlineUpdates], Sequence[Origin],
                                          Collection[str]], InstanceBatch]:
    """`Joint.build` of `row_set`: the rows of every run (each one `_joint_count` accepts),
    run after run in the order given, as one batch made from the runs' integer arrays
    stacked, a few numpy calls per run instead of a few dozen and no concatenation of
    columns afterwards. Row by row, the same exact values as the row set's own builder
    (`state_rows`, `update_rows`, `example_rows`): each run's iterates `W_t * unit` and
    examples `rows / scale` over its own denominators, unreduced, so a value's numerator and
    denominator may be a common factor larger than that builder's (a property test compares
    them as rationals, and the verdicts)."""

    def build(runs: Sequence[OnlineUpdates], origins: Sequence[Origin],
              names: Collection[str]) -> InstanceBatch:
        wanted = frozenset(needed(names))  # a sum's quantities: its column is made later
        stacked = _stack_rows(row_set, runs, origins, names, wanted)
        if stacked is not None:  # every run in one `_Stack` (`_joint_prepare`)
            return stacked
        forms = [run.integer.problem.form for run in runs]  # type: ignore[union-attr]
        updates = [len(run.updates) for run in runs]
        if row_set == "state":
            counts = [k + 1 for k in updates]
        elif row_set == "update":
            counts = updates
        else:
            counts = [(k + 1) * form.n for k, form in zip(updates, forms, strict=True)]
        width = max(max(len(run.u), form.d) for run, form in zip(runs, forms, strict=True))
        scalars: dict[str, Column] = {}
        vectors: dict[str, VectorColumn] = {}
        iterates = ([run.integer.scaled for run in runs]  # type: ignore[union-attr]
                    if wanted & {"w", "w_next"} else [])
        if row_set == "example":
            # row r is (state, example): which state of the batch's (all runs' iterates one
            # after another) and which example (all runs' examples one after another), in
            # a few numpy calls for the whole batch, not a repeat and a tile per run
            states = np.array(updates, dtype=np.int64) + 1
            examples = np.array([form.n for form in forms], dtype=np.int64)
            state_of, example_of, t = _example_grid(states, examples)
        else:
            t = np.concatenate([np.arange(c, dtype=np.int64) for c in counts])
        # the largest t, known without reading it: T, or T - 1 on update rows (a run with no
        # update has no update rows, and `count` gives no run without rows)
        scalars["t"] = Column.counting(t, max(updates) - (row_set == "update"))
        if row_set == "update":
            which = [run.integer.indices for run in runs]  # type: ignore[union-attr]
            if "tau" in wanted:
                scalars["tau"] = _per_run([run.eta for run in runs], counts)
            if "y" in wanted:
                scalars["y"] = Column.counting(np.concatenate(
                    [form.y[i] for form, i in zip(forms, which, strict=True)]), 1)
            if "w" in wanted:
                vectors["w"] = _vectors([num[:-1] for num, _ in iterates],
                                        [den for _, den in iterates], counts, width)
            if "w_next" in wanted:
                vectors["w_next"] = _vectors([num[1:] for num, _ in iterates],
                                             [den for _, den in iterates], counts, width)
            if "x" in wanted:
                vectors["x"] = _vectors(
                    [form.rows[i] for form, i in zip(forms, which, strict=True)],
                    [form.scale for form in forms], counts, width)
        elif row_set == "example":
            if "y" in wanted:
                scalars["y"] = Column.counting(
                    np.concatenate([form.y for form in forms])[example_of], 1)
            if "w" in wanted:
                vectors["w"] = VectorColumn(*_over(
                    _stacked([num for num, _ in iterates], width)[state_of],
                    [den for _, den in iterates], counts))
            if "x" in wanted:
                vectors["x"] = VectorColumn(*_over(
                    _stacked([form.rows for form in forms], width)[example_of],
                    [form.scale for form in forms], counts))
        elif "w" in wanted:
            vectors["w"] = _vectors([num for num, _ in iterates], [den for _, den in iterates],
                                    counts, width)
        index = np.repeat(np.arange(len(runs), dtype=np.int64), counts)  # each row's run
        if "u" in wanted:  # each run's one row, stacked once and picked for its rows
            rows = [run.u_row for run in runs]
            vectors["u"] = VectorColumn(*_over(_stacked([row.num for row in rows], width)[index],
                                               [row.den for row in rows], counts))  # type: ignore[misc]
        return _joint_tail(row_set, runs, origins, names, wanted, scalars, vectors, counts,
                           index, t, [form.n for form in forms])

    return build


def _joint_tail(row_set: str, runs: Sequence[OnlineUpdates], origins: Sequence[Origin],
                names: Collection[str], wanted: frozenset[str], scalars: dict[str, Column],
                vectors: dict[str, VectorColumn], counts: Sequence[int] | IntArray,
                index: IntArray, t: IntArray, examples: Sequence[int],
                constants: Sequence[tuple[Pair, Pair]] | None = None
                ) -> InstanceBatch:
    """The joint batch of `joint_rows` (or `_stack_rows`) from its rows' own columns: each
    run's constants (`constants`: their `(R2, gamma_u)`, else read off each run) on its rows,
    in the order of the row set's own builder."""
    if "eta" in wanted:
        scalars["eta"] = _per_run([run.eta for run in runs], counts)
    if wanted & {"R2", "R", "gamma_u"}:
        if constants is None:
            constants = [((R2.numerator, R2.denominator), (g.numerator, g.denominator))
                         for R2, g in (run.constants for run in runs)]
        if "R2" in wanted:
            scalars["R2"] = _per_run_pairs([R2 for R2, _ in constants], counts)
        if "R" in wanted:
            scalars["R"] = _per_run([radius_bound(Fraction(*R2)) for R2, _ in constants],
                                    counts)
        if "gamma_u" in wanted:
            scalars["gamma_u"] = _per_run_pairs([gamma for _, gamma in constants], counts)
    if "beta" in wanted:
        scalars["beta"] = _per_run([run.beta or Fraction(0) for run in runs], counts)
    if "time" in wanted and all(run.plugin is None for run in runs):
        times = [run.state_times() for run in runs]
        picked = [np.repeat(s, n) if row_set == "example" else s[:c]  # type: ignore[index]
                  for s, c, n in zip(times, counts, examples, strict=True)]
        scalars["time"] = Column.counting(np.concatenate(picked), max(
            (int(p[-1]) for p in picked if len(p)), default=0))
    if "N" in wanted:
        sizes = [run.data.n for run in runs]
        scalars["N"] = Column.counting(np.repeat(np.array(sizes, dtype=np.int64), counts),
                                       max(sizes))
    batch = InstanceBatch(scalars, vectors, tuple(origins), index, t)
    if any(is_atom(n) for n in names):  # each run's own dataset, as `RunKind.rows` reads
        batch.families = tuple(run.families() for run in runs)
    return batch


# ---- runners -------------------------------------------------------------------------------


def engine_runner(scenario: Scenario, conventions: Conventions = DEFAULT) -> OnlineUpdates:
    """The exact engine (`perceptron.algorithms.online.run_online`, its trace by
    `run_trace`), default conventions unless given.

    The last runs made (`KEPT_RUNS`) are kept with their scenario and conventions, and one
    asked again for the same scenario object under equal conventions is that run, not a
    second one: a campaign runs each scenario once per algorithm, and a source whose
    conventions are the default ones (virtue-online's: update on y<w, x> <= 0, sign(0) = +1,
    no bias, step 1) made the default run again, and its rows column by column (a run's
    columns are made once per run object and never written, `OnlineUpdates`)."""
    run_trace, small_run, _ = _engine()
    for kept, under, run in _KEPT:
        if kept is scenario and under == conventions:
            return run
    small = small_run(scenario.data, conventions, max_epochs=scenario.max_epochs)
    if small is not None and not conventions.bias:
        made = _small_updates(scenario, conventions, *small)
    else:
        # the run's trace only (`run_trace`): `run_online`'s result adds its final iterate
        # and a separation check, which no row reads
        trace = run_trace(scenario.data, conventions, max_epochs=scenario.max_epochs)
        made = run_from_trace(trace, scenario.data, scenario.u)
    _KEPT.append((scenario, conventions, made))
    if len(_KEPT) > KEPT_RUNS:
        del _KEPT[0]
    return made


@cache
def _engine() -> tuple[Callable[..., Trace],
                       Callable[..., tuple[Problem, list[int], list[int]] | None], type[Trace]]:
    """The engine's `run_trace`, `small_run` and `Trace`, imported on the first run (not when
    this module is: the engine's modules load when a run is made), and then without an
    import statement per run (a microsecond or two of each small run's)."""
    from perceptron.algorithms.online import run_trace, small_run
    from perceptron.algorithms.trace import Trace

    return run_trace, small_run, Trace


def _small_updates(scenario: Scenario, conventions: Conventions, problem: Problem,
                   indices: list[int], epochs: list[int]) -> OnlineUpdates:
    """`run_from_trace` of the trace `run_trace` makes of a small run (`small_run`: its
    problem, updated positions and their epochs), without making that trace unless an
    update is read (`LazyUpdates`), and the record and its integer run made as their
    dataclasses' own `__init__` would, without a frozen field set through
    `object.__setattr__` at a time: the campaign's mixed sources make thousands of these
    runs of a handful of updates, and the trace, the two records and their conversions were
    about a quarter of each one's engine time (`benchmarks/campaign.py --medium`)."""
    data = scenario.data
    eta = getattr(conventions, "eta", 1)
    if type(eta) is not Fraction:  # a Conventions' own is one already (immutable)
        eta = Fraction(eta)
    w0 = getattr(conventions, "w0", None)
    steps = np.array(indices, dtype=np.int64)
    integer = object.__new__(IntegerRun)
    integer.__dict__.update(problem=problem, indices=steps)
    trace = _engine()[2]
    updates = LazyUpdates(len(indices), lambda: _trace_updates(trace(
        data, conventions, steps, np.array(epochs, dtype=np.int64), problem))._all())
    run = object.__new__(OnlineUpdates)
    run.__dict__.update(data=data, u=scenario.u, updates=updates, eta=eta,
                        w0=tuple(w0) if w0 is not None else None, integer=integer, beta=None,
                        steps=None, plugin=None)
    return run


#: How many of its last runs `engine_runner` keeps: a scenario's runs of every algorithm
#: come one after another, fewer than this many of them online.
KEPT_RUNS = 8
_KEPT: list[tuple[Scenario, Conventions, OnlineUpdates]] = []


def as_source_runs(scenario: Scenario, algorithm: SourceAlgorithm) -> Scenario:
    """The scenario as `algorithm` sees it: with its bias, every x augmented by a constant 1
    and u by a 0 (same margins), so the run's x, w and u are the source's augmented ones;
    normalised, the (augmented) examples divided by the radius bound `R`, so every
    ||x|| <= 1 as the source assumes. From w_0 = 0 the run is the original one rescaled (same
    updates), and u stays: its margin `gamma_u`, like `R2`, is that of the run's own data."""
    if algorithm.bias:
        scenario = replace(scenario, data=augmented(scenario.data), u=(*scenario.u, Fraction(0)))
    if algorithm.normalised:
        scenario = replace(scenario, data=normalised(scenario.data))
    return scenario


def normalised(data: Dataset) -> Dataset:
    """`data` divided by `R` (`verify.runs.quantity.radius_bound` of its R2, rational and at
    least max ||x||), so max ||x|| <= 1 exactly; all-zero data are already within the unit
    ball. R2 and the divided data's integer form are read off `data`'s integer form."""
    form = integer_form(data)
    R = radius_bound(Fraction(form.radius2(), form.scale**2))
    if R == 0:
        return data
    # a zero stays the zero it is (no division: the adversary's rows are half zeros)
    return divided(data, R)


def source_runner(algorithm_id: str) -> Runner:
    """The online runner of a source's algorithm: its rule, sign(0), learning rate, bias."""
    algorithm = SOURCE_ALGORITHMS[algorithm_id]
    conventions = replace(algorithm.conventions(), bias=False)  # the bias is in the data
    return lambda scenario: engine_runner(as_source_runs(scenario, algorithm), conventions)


#: The margins of the margin perceptron's runs, as multiples of the scenario's R2.
BETAS: tuple[Fraction, ...] = (Fraction(0), Fraction(1, 3), Fraction(5, 2))


def _margin_updates(run: MarginRun) -> Iterator[Update]:
    """The updates of a margin run as `Update`s, replayed from w_0 = 0."""
    w = tuple(Fraction(0) for _ in range(run.data.d))
    for i in run.indices:
        x, y = run.data.X[i], run.data.y[i]
        after = tuple(a + y * b for a, b in zip(w, x, strict=True))
        yield Update(w, tuple(x), int(y), after)
        w = after


def margin_updates(run: MarginRun, u: Vector) -> OnlineUpdates:
    """A margin run as an online run: its integer form (rows built from it directly), its
    `beta`, its reference separator `u`."""
    integer = IntegerRun(run.problem, np.array(run.indices, dtype=np.int64))
    return OnlineUpdates(run.data, tuple(u), LazyUpdates(run.updates, lambda: _margin_updates(run)),
                         integer=integer, beta=run.beta)


def margin_runs(scenario: Scenario) -> tuple[OnlineUpdates, ...]:
    """The margin perceptron on the scenario at every margin `c * R2`, c in `BETAS`."""
    form = integer_form(scenario.data)
    R2 = Fraction(form.radius2(), form.scale**2)
    return tuple(margin_updates(run_margin(scenario.data, c * R2,
                                           max_epochs=scenario.max_epochs), scenario.u)
                 for c in BETAS)


#: Online algorithms of the built-in proofs beyond the sources (`verify.numeric.algorithms`
#: says on which campaign sources each runs).
ALGORITHMS: dict[str, Runner] = {
    "margin-perceptron": margin_runs,
    "orthonormal-perceptron": engine_runner,  # the ordinary perceptron, on its own source
}


def runner(algorithm: str | None) -> Runner:
    """The runner of `algorithm` (None: the default perceptron); ValueError for an algorithm
    that makes no online runs."""
    if algorithm is None:
        return engine_runner
    if algorithm in ALGORITHMS:
        return ALGORITHMS[algorithm]
    source = SOURCE_ALGORITHMS.get(algorithm)
    if source is None or source.mode != "online":
        raise ValueError(f"{algorithm} is not an online algorithm: its steps cannot bind "
                         "online rows")
    return source_runner(algorithm)


def label(origin: Origin, run: OnlineUpdates) -> Origin:
    """A margin perceptron's run names its beta (one scenario makes one run per beta)."""
    if run.beta is None:
        return origin
    return replace(origin, dataset=f"{origin.dataset} [margin perceptron, beta = {run.beta}]")


KIND = register(RunKind(
    "online",
    "The perceptron run to convergence (`run_online`: w_0 = 0, eta = 1, update on "
    "y<w,x> <= 0, cyclic epochs), or the algorithm the proof names (`[numeric] algorithm`: "
    "a source's rule and sign(0), with a bias on the augmented examples [x; 1] and u "
    "extended by a 0; the margin perceptron at each of its margins; a user's plug-in, whose "
    "runs are its own: they need not converge nor update along y x, and the audit says how "
    "many did, `verify.runs.plugin.Ran`).",
    QUANTITIES,
    (
        RowSet("state", "one row per `w_t`, t = 0..T (the final iterate included): "
               "invariants such as `t R2 - <w,w> >= 0` and the final bound "
               "`t gamma_u^2 <= R2 <u,u>`", state_rows,
               _joint("state"), count=state_count, prefix=True),
        RowSet("example", "one row per (state `w_t`, example j), every example of the "
               "dataset in order, so both signs of `y<w,x>` and the boundary occur. It "
               "contains every update event (the update at state t is the row (t, j) of its "
               "example), so a step needing only `w, x, y` is checked here rather than on "
               "update rows. Its loss and gradient quantities are taken at state `w`, with "
               "`M(w) = {j : y_j <w, x_j> <= 0}` (the update rule's non-strict set; the "
               "strict set gives the same numbers, its extra boundary terms being 0)",
               example_rows, _joint("example"), count=example_count),
        RowSet("update", "one row per update (needed only for `w_next` and `tau`)",
               update_rows, _joint("update"), updates=True, count=update_count,
               prefix=True),
    ),
    runner,
    # no `separator_read`: a run is made without its u, but on data that are not separable
    # it goes on to its epoch cap, and online-history's rows over such a run took 2.8 GB and
    # six minutes on a 2 000-example file (over 25 minutes on 20 000): data without a
    # separator stay refused for online proofs ("online runs have no separator u") until
    # such runs are made and checked in bounded memory
    laws={"update-rule": "norm2(w_next - (w + tau*y*x)) == 0"},
    label=label,
    rank=0,
    counter="t",
    fixed=frozenset({"eta", "R2", "R", "u", "gamma_u", "w0", "N", "beta"}),
    families={**DATASET, **UPDATES, **STREAM},
    history=True,
))
