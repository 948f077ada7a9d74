"""The vocabulary: which quantity of a run each name of a proof step denotes.

A proof declares `[numeric] run = "online"` or `run = "batch"`; each kind of run offers row
sets (bindings), tried in the order listed, and a step is checked on the first row set that
binds every name it uses (`binding_for`).

Online runs (`run = "online"`), the default perceptron (w_0 = 0, eta = 1, update on
y<w,x> <= 0, cyclic epochs), or the source algorithm the proof names (`[numeric] algorithm`:
its rule and sign(0); a source with a bias runs on the augmented examples [x; 1] with u
extended by a 0, so `x`, `w`, `u` and `R2` are the augmented quantities):

==========  ==========================================================================
`w`         the iterate `w_t` (before the update, on update rows)
`t`         the number of updates before `w`
`eta`       the learning rate
`R2`        `max_i ||x_i||^2` over the dataset (squared: no square root)
`R`         an exact radius bound, `||x_i|| <= R` for every i: `sqrt(R2)` when that is
            rational, else the rational `ceil(sqrt(p q)) / q` for `R2 = p/q` (the sources'
            `R`, `D` are such bounds; no float, no irrational)
`u`         the reference separator (planted, tight-family, adversary's `e_1`, or an exact
            separator of a real dataset)
`gamma_u`   `min_i y_i <u, x_i>`: the margin of the *unnormalised* u, so that
            `||w_t|| ||u|| >= <w_t, u> >= t gamma_u` needs no square root
`w0`        the initial iterate
`x`, `y`    the example and its label (`y` in {-1, +1})
`w_next`    the iterate after the update, `w_{t+1} = w_t + eta y x` (update rows only)
`tau`       (update rows only) the update's step, `w_next = w + tau y x`: `eta` for the
            built-in rules, read exactly off the trace for a user's plug-in algorithm
            (`verify.runs.plugin`), whose runs have no constant `eta` or `beta`
`beta`      the margin the update asks for, `y<w,x> <= beta`: the margin perceptron's
            (`perceptron.algorithms.margin`), 0 for every other online run
`mu`        (state rows only) `min_j y_j <w_t, x_j>`, the margin of the iterate on the data:
            positive exactly when `w_t` separates them (the last state of a run that
            converged); computed only for steps that name it (a pass over every example)
==========  ==========================================================================

Row sets of an online run, in order of preference:

- `state`: one row per `w_t`, t = 0..T (the final iterate included): invariants such as
  `t R2 - <w,w> >= 0` and the final bound `t gamma_u^2 <= R2 <u,u>`.
- `example`: one row per (state `w_t`, example j), every example of the dataset in order, so
  both signs of `y<w,x>` and the boundary occur. It contains every update event (the update
  at state t is the row (t, j) of its example), so a step needing only `w, x, y` is checked
  here rather than on update rows. Loss and gradient quantities at state `w`, with
  `M(w) = {j : y_j <w, x_j> <= 0}` (the update rule's non-strict set; the strict set gives
  the same numbers, its extra boundary terms being 0):

  ===========  =====================================================================
  `m`          `max(-y<w,x>, 0)`, by comparison of exact rationals
  `m_set`      the term of the set loss: `-y<w,x>` if j is in M(w), else 0
  `m_sum`      `sum` of `m` over the examples before j (0 at j = 0)
  `m_set_sum`  `sum` of `m_set` over the examples before j
  `d`, `db`    a direction, fixed per state: the unit vector `e_q`, `db = 0`, for
               `q = t mod (dim + 1) < dim`, else `d = 0`, `db = 1` (the bias direction)
  `h`          the step along it, `(t + 1)/2` (non-integer for even t, so h != h^2)
  `b`          the bias of the iterate: 0 (runs through the origin)
  `J`          the fixed-set loss at w over the members of M(w) before j:
               `-sum y_i (<w, x_i> + b)` (equal to `m_set_sum`, b being 0)
  `J_at`       the same sum evaluated at the moved point:
               `-sum y_i (<w + h d, x_i> + b + h db)`, computed from `w + h d` itself
  `G`, `Gb`    the partial gradient over those members: `-sum y_i x_i`, `-sum y_i`
  ===========  =====================================================================
- `update`: one row per update (needed only for `w_next`).

Batch runs (`run = "batch"`): `perceptron.algorithms.batch.run_batch` with the oracle-optimal step
for `theta_star` = the scenario's reference u, from three starts per scenario
(`verify.numeric.campaign.batch_starts`): `theta0 = 0`, `-u` and a seeded integer vector. A source
algorithm (`[numeric] algorithm`) brings its own M_k rule (Chan's is strict, `< 0`) and bias
(augmented examples, theta* extended by a 0):

==============  =======================================================================
`theta`         the iterate theta_k
`k`             the number of iterations done before theta_k
`theta0`        the initial iterate
`theta_star`    the reference separator u
`gamma`         `min_j y_j <theta_star, x_j>`
`R2`            `max_j ||x_j||^2`
`theta_next`    `theta_{k+1} = theta_k + alpha_k xbar_k`
`xbar`          `xbar_k = sum_{j in M_k} y_j x_j`, M_k = {j : y_j <theta_k, x_j> <= 0} (or
                the source's rule)
`alpha`         `alpha_k = <theta_star, xbar_k> / ||xbar_k||^2`
`mk`            `|M_k|`
`e`             `1 - alpha_k`: the perturbation from alpha_k to the unit step
`s`, `i`        `s` = the sum of `y x` over the first `i` members of M_k (in index order)
`x`, `y`        the member number `i + 1` of M_k and its label
==============  =======================================================================

Row sets: `batch-state` (one per theta_k, k = 0..K, the last with M_K empty when the run
converged), `batch-iteration` (one per iteration with M_k non-empty), `batch-member` (one
per member of each M_k).

Single-pass runs (`run = "single-pass"`, `verify.single_pass`): ONE pass of the default
perceptron (w_0 = 0, eta = 1, update on y<w,x> <= 0) over a finite sequence, on any data
(non-separable included), read for an exactly unit u and each margin gamma > 0 of the
scenario (Freund & Schapire 1999, Theorem 2):

==========  ==========================================================================
`w`, `t`    the iterate `w_t` and the number of updates before it (in the pass)
`x`, `y`    the element updated on and its label; `w_next = w + y x` (update rows)
`u`         the reference direction, `<u, u> = 1` exactly (a rational unit vector)
`gamma`     the margin asked of u
`d`         the update's deviation `max(0, gamma - y <u, x>)` (update rows)
`s`, `q`    the sums of `d` and of `d^2` over the updates before `w_t`
`rest`      the sum of `d_i^2` over the elements after the t-th update's position (the
            whole sequence at t = 0): the part of `D2` not yet seen
`skip`      the `d_i^2` of the elements passed over (no update) since the last update,
            before this one (update rows)
`D2`, `D`   `sum_i d_i^2` over the whole sequence, and its rational bound as `R` is R2's
`R2`, `R`   `max_i ||x_i||^2` and its rational radius bound (as for online runs)
==========  ==========================================================================

Row sets: `pass-state` (one per state w_t, t = 0..T, per margin) and `pass-update` (one
per update, per margin). No square root is bound: Freund and Schapire's `sqrt(t)` is
irrational but at perfect squares, so the proof squares its inequalities instead.

Cyclic runs (`run = "cyclic"`, `verify.cyclic`, issue 31): the perceptron (or the voted
perceptron, `[numeric] algorithm`) in cyclic epochs, read presentation by presentation; its
quantities are listed in `verify.cyclic`. Row sets: `cyclic-state` (one per state w_t),
`cyclic-presentation` (one per presentation), `cyclic-epoch` (one per epoch).

Every value is an exact rational; columns are built once per run (docs/design.md §3).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Literal

import numpy as np

from perceptron.algorithms.fast import Problem, exact_matvec, integer_vector
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import functional_margins, radius2
from verify.numeric.batch_integers import IntegerBatch
from verify.numeric.instances import (
    INT64_LIMIT,
    Column,
    InstanceBatch,
    IntArray,
    Origin,
    VectorColumn,
    _as_object,
    _int_array,
    _max_abs,
    gram_column,
    reduced,
)

Binding = Literal["state", "example", "update", "batch-state", "batch-iteration", "batch-member",
                  "pass-state", "pass-update", "cyclic-state", "cyclic-presentation",
                  "cyclic-epoch"]
ONLINE_STATE_NAMES = ("w", "t", "eta", "R2", "R", "u", "gamma_u", "w0", "beta")
ONLINE_EXAMPLE_NAMES = (*ONLINE_STATE_NAMES, "x", "y", "m", "m_set", "m_sum", "m_set_sum",
                        "d", "db", "h", "b", "J", "J_at", "G", "Gb")
ONLINE_UPDATE_NAMES = ("w", "w_next", "x", "y", "t", "eta", "R2", "R", "u", "gamma_u", "w0",
                       "beta", "tau")
BATCH_STATE_NAMES = ("theta", "k", "theta0", "theta_star", "gamma", "R2")
BATCH_ITERATION_NAMES = (*BATCH_STATE_NAMES, "theta_next", "xbar", "alpha", "mk", "e")
BATCH_MEMBER_NAMES = (*BATCH_ITERATION_NAMES, "s", "i", "x", "y")
PASS_STATE_NAMES = ("w", "t", "u", "gamma", "s", "q", "rest", "R2", "R", "D2", "D")
PASS_UPDATE_NAMES = (*PASS_STATE_NAMES, "x", "y", "d", "skip", "w_next")
# cyclic runs (verify.cyclic): constants of a run, then each row set's own quantities
CYCLIC_CONSTANT_NAMES = ("u", "gamma_u", "R2", "N", "w0", "T", "delta", "K", "B2")
CYCLIC_STATE_NAMES = (*CYCLIC_CONSTANT_NAMES, "w", "t", "mu", "ue", "E", "z", "S", "L")
CYCLIC_PRESENTATION_NAMES = (*CYCLIC_CONSTANT_NAMES, "w", "x", "y", "m", "w_next", "t", "n",
                             "r", "h", "ws", "mus", "k", "mu", "c", "C", "P", "a", "V", "s",
                             "Wp", "Wn", "Wz")
CYCLIC_EPOCH_NAMES = (*CYCLIC_CONSTANT_NAMES, "ws", "g", "mus", "xs", "ys", "wb", "kb", "m1",
                      "k", "far", "e")

#: The names each row set binds.
NAMES: dict[Binding, tuple[str, ...]] = {
    "state": (*ONLINE_STATE_NAMES, "mu"), "example": ONLINE_EXAMPLE_NAMES,
    "update": ONLINE_UPDATE_NAMES,
    "batch-state": BATCH_STATE_NAMES, "batch-iteration": BATCH_ITERATION_NAMES,
    "batch-member": BATCH_MEMBER_NAMES,
    "pass-state": PASS_STATE_NAMES, "pass-update": PASS_UPDATE_NAMES,
    "cyclic-state": CYCLIC_STATE_NAMES, "cyclic-presentation": CYCLIC_PRESENTATION_NAMES,
    "cyclic-epoch": CYCLIC_EPOCH_NAMES,
}
#: The row sets of each kind of run (`[numeric] run = ...`), in order of preference.
BINDINGS: dict[str, tuple[Binding, ...]] = {
    "online": ("state", "example", "update"),
    "batch": ("batch-state", "batch-iteration", "batch-member"),
    "single-pass": ("pass-state", "pass-update"),
    "cyclic": ("cyclic-state", "cyclic-presentation", "cyclic-epoch"),
}
#: The vector quantities of each kind of run; every other name it offers is a scalar (a name
#: may change sort between kinds: `d` is a direction of online runs, a deviation of passes).
VECTORS: dict[str, frozenset[str]] = {
    "online": frozenset({"w", "u", "w0", "x", "w_next", "d", "G"}),
    "batch": frozenset({"theta", "theta0", "theta_star", "theta_next", "xbar", "s", "x"}),
    "single-pass": frozenset({"w", "u", "x", "w_next"}),
    "cyclic": frozenset({"w", "u", "w0", "x", "w_next", "ws", "z", "g", "wb", "xs", "P", "a"}),
}
BATCH_BINDINGS = frozenset(BINDINGS["batch"])
PASS_BINDINGS = frozenset(BINDINGS["single-pass"])
CYCLIC_BINDINGS = frozenset(BINDINGS["cyclic"])


def binding_for(names: Collection[str], run: str = "online") -> Binding | None:
    """The first row set of `run` that binds every name (None: some name is no quantity)."""
    for binding in BINDINGS[run]:
        if set(names) <= set(NAMES[binding]):
            return binding
    return None


def offered(run: str) -> tuple[str, ...]:
    """Every quantity some row set of a `run` run binds, sorted (what a proof may name)."""
    return tuple(sorted({name for binding in BINDINGS[run] for name in NAMES[binding]}))


def radius_bound(R2: Fraction) -> Fraction:
    """The least `c / q` with `(c / q)^2 >= R2 = p / q`: `sqrt(R2)` exactly when it is
    rational (p, q coprime, so p q is a square just when both are), an upper bound else."""
    p, q = R2.numerator, R2.denominator
    root = math.isqrt(p * q)
    return Fraction(root if root * root == p * q else root + 1, q)


def margin(data: Dataset, u: Sequence[Fraction]) -> Fraction:
    """`gamma_u = min_i y_i <u, x_i>` (positive exactly when u strictly separates)."""
    return min(functional_margins(data, list(u)))


# ---- runs ----------------------------------------------------------------------------------


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
        p = self.problem
        W0 = np.array([list(p.W0)], dtype=object)
        top = max(_max_abs(W0), 0) + p.E * len(self.indices) * max(p.form.max_abs, 1)
        steps = p.Z[self.indices]
        if top <= INT64_LIMIT and steps.dtype != object:
            W0, steps = W0.astype(np.int64), steps.astype(np.int64) * p.E
        else:
            steps = _as_object(steps) * p.E
        return np.concatenate([W0, W0 + np.cumsum(steps, axis=0)])

    def states(self, rows: slice = slice(None)) -> VectorColumn:
        """The iterates (a slice of them) as exact rationals."""
        unit = self.problem.unit
        return reduced(_scaled(self.iterates[rows], unit.numerator), unit.denominator)

    def examples(self, which: IntArray | None = None) -> VectorColumn:
        """The examples (those at positions `which`) as exact rationals."""
        form = self.problem.form
        return reduced(form.rows if which is None else form.rows[which], form.scale)

    def radius2(self) -> Fraction:
        """`max ||x_i||^2`, from the integers."""
        return Fraction(self.problem.form.radius2(), self.problem.form.scale ** 2)

    def margin(self, u: Vector) -> Fraction:
        """`min_i y_i <u, x_i>`, from the integers."""
        form = self.problem.form
        U, D = integer_vector(u)
        margins = exact_matvec(form.rows, U, form.max_abs)
        return Fraction(min(m * y for m, y in zip(margins, form.y.tolist(), strict=True)),
                        D * form.scale)


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
    """What the vocabulary needs of an online run: its data, reference u and updates (and,
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
    trace = result.trace  # type: ignore[attr-defined]
    conventions = result.conventions  # type: ignore[attr-defined]
    eta = Fraction(getattr(conventions, "eta", 1))
    w0 = getattr(conventions, "w0", None)
    integer = None
    if not getattr(conventions, "bias", False) and trace.data is data:
        integer = IntegerRun(trace.problem, trace.indices)
    return OnlineUpdates(data, u, _trace_updates(trace), eta, tuple(w0) if w0 is not None else None,
                     integer)


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
    """What the vocabulary needs of a batch run: data, theta*, start and iterations (and,
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
        if self.integer is not None:
            form = self.integer.form
            U, D = integer_vector(list(self.theta_star))
            margins = exact_matvec(form.rows, U, form.max_abs)
            gamma = Fraction(min(m * y for m, y in zip(margins, form.y.tolist(), strict=True)),
                             D * form.scale)
            return Fraction(form.radius2(), form.scale ** 2), gamma
        return radius2(self.data), margin(self.data, self.theta_star)

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
    return _exact(picked, len(members) * _max_abs(picked)) * signs[:, None]


# ---- rows ----------------------------------------------------------------------------------


def _batch(scalars: dict[str, Column], vectors: dict[str, VectorColumn], origin: Origin,
           iteration: IntArray) -> InstanceBatch:
    n = len(iteration)
    return InstanceBatch(scalars, vectors, (origin,), np.zeros(n, dtype=np.int64),
                         np.asarray(iteration, dtype=np.int64))


def _constants(run: OnlineUpdates, n: int) -> tuple[dict[str, Column], dict[str, VectorColumn]]:
    """The quantities fixed for a whole run, as columns of n equal rows."""
    R2, gamma_u = run.constants
    scalars = {"eta": Column.constant(run.eta, n), "R2": Column.constant(R2, n),
               "R": Column.constant(radius_bound(R2), n),
               "gamma_u": Column.constant(gamma_u, n),
               "beta": Column.constant(run.beta or Fraction(0), n)}
    vectors = {"u": VectorColumn.constant(run.u, n), "w0": VectorColumn.constant(run.initial, n)}
    return scalars, vectors


def update_rows(run: OnlineUpdates, origin: Origin) -> InstanceBatch:
    """One row per update, named as in the table above."""
    n = len(run.updates)
    scalars, vectors = _constants(run, n)
    scalars["t"] = Column(np.arange(n, dtype=np.int64))
    if run.steps is None:
        scalars["tau"] = Column.constant(run.eta, n)
    elif None not in run.steps:  # a plug-in's update not along y x has no tau (no column)
        scalars["tau"] = Column.of(run.steps)  # type: ignore[arg-type]
    if run.integer is not None and n:
        which = run.integer.indices
        scalars["y"] = Column(run.integer.problem.form.y[which])
        vectors["w"] = run.integer.states(slice(0, n))
        vectors["w_next"] = run.integer.states(slice(1, n + 1))
        vectors["x"] = run.integer.examples(which)
    else:
        scalars["y"] = Column(np.array([up.y for up in run.updates], dtype=np.int64))
        vectors["w"] = VectorColumn.of([up.w for up in run.updates])
        vectors["w_next"] = VectorColumn.of([up.w_next for up in run.updates])
        vectors["x"] = VectorColumn.of([up.x for up in run.updates])
    return _batch(scalars, vectors, origin, np.arange(n))


def state_rows(run: OnlineUpdates, origin: Origin,
               names: Collection[str] | None = None) -> InstanceBatch:
    """One row per state `w_t`, t = 0..T (the final iterate included); `mu` only when `names`
    asks for it (it costs a pass over every example per state, which long traces checked
    without a list of names, `verify.testing.check_run`, should not pay)."""
    n = len(run.updates) + 1
    scalars, vectors = _constants(run, n)
    scalars["t"] = Column(np.arange(n, dtype=np.int64))
    vectors["w"] = (run.integer.states() if run.integer is not None
                    else VectorColumn.of(run.states))
    if names is not None and "mu" in names:
        scalars["mu"] = iterate_margins(run)
    return _batch(scalars, vectors, origin, np.arange(n))


def iterate_margins(run: OnlineUpdates) -> Column:
    """`mu` per state: `min_j y_j <w_t, x_j>`, exactly (from the integers when the run has
    them: `w_t = unit W_t`, `y_j x_j = Z_j / scale`)."""
    if run.integer is not None:
        problem = run.integer.problem
        W = _as_object(run.integer.iterates)
        lowest = (W @ _as_object(problem.Z).T).min(axis=1)
        factor = problem.unit / problem.form.scale
        return Column.of([int(m) * factor for m in lowest])
    data = run.data
    signed = [tuple(y * v for v in x) for x, y in zip(data.X, data.y, strict=True)]
    return Column.of([min(sum((a * b for a, b in zip(w, z, strict=True)), Fraction(0))
                          for z in signed) for w in run.states])


def _exact(array: IntArray, bound: int) -> IntArray:
    """`array` in a dtype whose arithmetic up to magnitude `bound` is exact."""
    return array if bound <= INT64_LIMIT and array.dtype != object else _as_object(array)


def _prefix(values: IntArray, states: int, per_state: int) -> IntArray:
    """Exclusive prefix sums within each state's block of `per_state` rows (row-major)."""
    shaped = values.reshape(states, per_state, *values.shape[1:])
    shaped = _exact(shaped, per_state * _max_abs(shaped))
    total = np.cumsum(shaped, axis=1) - shaped
    return total.reshape(values.shape)


def _scaled(array: IntArray, factor: int) -> IntArray:
    """`array * factor`, exactly."""
    return _exact(array, max(_max_abs(array), 1) * abs(factor)) * factor


def _plus(a: IntArray, b: IntArray) -> IntArray:
    """`a + b`, exactly."""
    bound = _max_abs(a) + _max_abs(b)
    return _exact(a, bound) + _exact(b, bound)


def example_rows(run: OnlineUpdates, origin: Origin) -> InstanceBatch:
    """One row per (state `w_t`, example j): loss terms, partial sums and gradients."""
    data = run.data
    per_state, dim, count = data.n, data.d, len(run.updates) + 1
    t = np.repeat(np.arange(count, dtype=np.int64), per_state)
    j = np.tile(np.arange(per_state, dtype=np.int64), count)
    y = np.array(data.y, dtype=np.int64)[j]
    if run.integer is not None:
        X, W = run.integer.examples(), run.integer.states()
    else:
        X, W = VectorColumn.of(data.X, dim), VectorColumn.of(run.states, dim)
    x_rows = X.take(j)
    g = gram_column(W.take(t), x_rows)
    yg = g.num * y  # |y| = 1: no growth
    member = yg <= 0
    m_set = np.where(member, -yg, 0)
    loss = np.where(-yg > 0, -yg, 0)
    # per state: direction e_q (db = 0) for q = t mod (dim + 1) < dim, else db = 1; h = (t+1)/2
    q = np.arange(count) % (dim + 1)
    axis = np.flatnonzero(q < dim)
    directions = np.zeros((count, dim), dtype=np.int64)
    directions[axis, q[axis]] = 1
    db = (q == dim).astype(np.int64)
    # <w + h d, x_j> for the moved point w + h d = (2 W + (t + 1) den_W d) / (2 den_W): as d is
    # e_q (or 0), it is 2 <W, X_j> + (t + 1) den_W X_jq over 2 den_W den_X, read off `g` and
    # one coordinate of x instead of a second table of dot products
    steps = _scaled(np.arange(1, count + 1, dtype=np.int64), W.den)
    along = np.zeros(len(t), dtype=X.num.dtype)  # X_jq on rows whose state has d = e_q
    moving = q[t] < dim
    along[moving] = X.num[j[moving], q[t][moving]]
    at_num = _plus(_scaled(g.num, 2), _exact(along, _max_abs(along) * _max_abs(steps))
                   * _exact(steps, _max_abs(along) * _max_abs(steps))[t])
    at = Column(at_num, 2 * W.den * X.den)
    # -y (<w + h d, x> + b + h db) with b = 0, over 2 * at.den: h db = (t + 1) db / 2
    at_term = _plus(_scaled(at.num, 2), _scaled((t + 1) * db[t], at.den)) * -y
    signed = np.where(member, -y, 0)
    gradient = _exact(X.num[j], per_state * _max_abs(X.num)) * signed[:, None]
    set_sum = Column(_prefix(m_set, count, per_state), g.den)
    scalars = {
        "t": Column(t), "y": Column(y), "m": Column(loss, g.den), "m_set": Column(m_set, g.den),
        "m_sum": Column(_prefix(loss, count, per_state), g.den), "m_set_sum": set_sum,
        "J": set_sum,  # b = 0: the fixed-set loss at w is the sum of the set terms
        "J_at": Column(_prefix(np.where(member, at_term, 0), count, per_state), 2 * at.den),
        "Gb": Column(_prefix(signed, count, per_state)),
        "h": Column(t + 1, 2), "db": Column(db[t]), "b": Column(np.zeros(len(t), dtype=np.int64)),
    }
    vectors = {"w": W.take(t), "x": x_rows, "d": VectorColumn(directions).take(t),
               "G": VectorColumn(_prefix(gradient, count, per_state), X.den)}
    constant_scalars, constant_vectors = _constants(run, len(t))
    return _batch({**constant_scalars, **scalars}, {**constant_vectors, **vectors}, origin, t)


def _batch_constants(run: BatchRun, n: int) -> tuple[dict[str, Column],
                                                      dict[str, VectorColumn]]:
    R2, gamma = run.constants
    scalars = {"R2": Column.constant(R2, n), "gamma": Column.constant(gamma, n)}
    vectors = {"theta_star": VectorColumn.constant(run.theta_star, n),
               "theta0": VectorColumn.constant(run.theta0, n)}
    return scalars, vectors


def batch_state_rows(run: BatchRun, origin: Origin) -> InstanceBatch:
    """One row per iterate theta_k, k = 0..K."""
    count = len(run.iterations) + 1
    scalars, vectors = _batch_constants(run, count)
    scalars["k"] = Column(np.arange(count, dtype=np.int64))
    vectors["theta"] = (run.integer.states() if run.integer is not None
                        else VectorColumn.of(run.states))
    return _batch(scalars, vectors, origin, np.arange(count))


def _iteration_columns(run: BatchRun) -> tuple[dict[str, Column], dict[str, VectorColumn]]:
    """The quantities of every iteration, one row each."""
    its = run.iterations
    scalars, vectors = _batch_constants(run, len(its))
    scalars["k"] = Column(np.arange(len(its), dtype=np.int64))
    if run.integer is not None:
        integer = run.integer
        alpha = scalars["alpha"] = Column.of(integer.alphas)
        # e = 1 - a/b = (b - a)/b in lowest terms: over the same common denominator as alpha
        scalars["e"] = Column(_int_array([alpha.den - v for v in alpha.num.tolist()]), alpha.den)
        scalars["mk"] = Column(np.array([len(m) for m in integer.sets], dtype=np.int64))
        vectors["theta"] = integer.states(0, integer.iterations)
        vectors["theta_next"] = integer.states(1, integer.iterations + 1)
        vectors["xbar"] = integer.xbar()
        return scalars, vectors
    scalars["alpha"] = Column.of([it.alpha for it in its])
    scalars["e"] = Column.of([1 - it.alpha for it in its])
    scalars["mk"] = Column(np.array([len(it.members) for it in its], dtype=np.int64))
    vectors["theta"] = VectorColumn.of([it.theta for it in its])
    vectors["theta_next"] = VectorColumn.of([it.theta_next for it in its])
    vectors["xbar"] = VectorColumn.of([it.xbar for it in its])
    return scalars, vectors


def batch_iteration_rows(run: BatchRun, origin: Origin) -> InstanceBatch:
    """One row per iteration (M_k non-empty)."""
    scalars, vectors = _iteration_columns(run)
    return _batch(scalars, vectors, origin, np.arange(len(run.iterations)))


def batch_member_rows(run: BatchRun, origin: Origin) -> InstanceBatch:
    """One row per member of each M_k: the partial sum before it, and the member itself."""
    sets = (run.integer.sets if run.integer is not None
            else [it.members for it in run.iterations])
    sizes = np.array([len(m) for m in sets], dtype=np.int64)
    which = np.repeat(np.arange(len(sizes)), sizes)
    members = [j for m in sets for j in m]
    X = run.examples
    terms = _member_terms(run.data, X, members)
    terms = _exact(terms, len(members) * _max_abs(terms))
    before = np.cumsum(terms, axis=0) - terms  # over all members so far, all iterations
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    partial = before - before[starts][which] if members else before  # this M_k's only
    scalars, vectors = _iteration_columns(run)
    index = np.arange(len(which))
    scalars = {name: column.take(which) for name, column in scalars.items()}
    vectors = {name: column.take(which) for name, column in vectors.items()}
    scalars["i"] = Column(index - starts[which])
    scalars["y"] = Column(np.array([run.data.y[j] for j in members], dtype=np.int64))
    vectors["s"] = VectorColumn(partial, X.den)
    vectors["x"] = X.take(np.array(members, dtype=np.int64))
    return _batch(scalars, vectors, origin, which)


_ONLINE_ROWS = {"state": state_rows, "example": example_rows, "update": update_rows}
_BATCH_ROWS = {"batch-state": batch_state_rows, "batch-iteration": batch_iteration_rows,
               "batch-member": batch_member_rows}


def rows(run: OnlineUpdates | BatchRun, binding: Binding, origin: Origin,
         names: Collection[str] | None = None) -> InstanceBatch:
    """The batch of `binding` rows of a run (possibly empty), restricted to `names`."""
    builders: dict[str, Callable[..., InstanceBatch]] = (
        _BATCH_ROWS if isinstance(run, BatchRun) else _ONLINE_ROWS)  # type: ignore[assignment]
    if binding not in builders:
        raise ValueError(f"{type(run).__name__} has no {binding!r} rows")
    batch = (state_rows(run, origin, names) if binding == "state"  # type: ignore[arg-type]
             else builders[binding](run, origin))
    if names is not None:
        keep = set(names)
        batch.scalars = {n: c for n, c in batch.scalars.items() if n in keep}
        batch.vectors = {n: c for n, c in batch.vectors.items() if n in keep}
    return batch
