"""Single-pass runs: the run kind of Freund and Schapire's non-separable bound.

Freund & Schapire (1999, Theorem 2) bound the mistakes of ONE pass of the online perceptron
over a finite sequence (x_i, y_i), i = 1..N, on any data: for a unit u and a margin
gamma > 0, with deviations `d_i = max(0, gamma - y_i <u, x_i>)`, the pass makes t mistakes
with `t gamma^2 <= (R + D)^2`, `R^2 >= max ||x_i||^2`, `D^2 >= sum_i d_i^2`. Its quantities
(partial sums of d over the updates, the d^2 of the elements not yet seen) are not those of
an online run to convergence, so they are a run kind of their own (`[numeric] run =
"single-pass"`): this module is its one home, its quantities (`QUANTITIES`), the pass and its
rows.

A pass is run once by the exact engine (w_0 = 0, eta = 1, update on y<w,x> <= 0, one epoch);
its rows are read for every margin the scenario lists (the updates do not depend on gamma,
only d, s, q, the tail sums and D do). Everything is an exact rational: `R` and `D` are the
rational radius bounds of R2 and D2 (`verify.runs.quantity.radius_bound`). No square root is
bound: Freund and Schapire's `sqrt(t)` is irrational but at perfect squares, so the proof
squares its inequalities instead.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

import numpy as np

from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import functional_margins, radius2
from verify.runs.columns import Column, InstanceBatch, IntArray, Origin, VectorColumn, int_array
from verify.runs.families import DATASET, STREAM, UPDATES, FamilyData, History
from verify.runs.online import IntegerRun
from verify.runs.quantity import Quantity, RowSet, RunKind, Runner, radius_bound, register

_BOTH = ("pass-state", "pass-update")
_UPDATE = ("pass-update",)

#: The quantities of a single pass: name, vector?, what it denotes, the row sets binding it;
#: every formula in proof-file syntax (`Quantity`).
QUANTITIES = (
    Quantity("w", True, "the iterate `w_t`", _BOTH),
    Quantity("t", False, "the number of updates before `w` (in the pass)", _BOTH),
    Quantity("u", True, "the reference direction, `dot(u, u) == 1` exactly (a rational unit "
             "vector)", _BOTH),
    Quantity("gamma", False, "the margin asked of u", _BOTH),
    Quantity("s", False, "the sum of `d` over the updates before `w_t`", _BOTH),
    Quantity("q", False, "the sum of `d**2` over the updates before `w_t`", _BOTH),
    Quantity("rest", False, "the sum of the elements' `d**2` after the t-th update's "
             "position (the whole sequence at t = 0): the part of `D2` not yet seen", _BOTH),
    Quantity("R2", False, "", _BOTH, "norm2(X[j])", "max"),
    Quantity("R", False, "its rational radius bound (as for online runs)", _BOTH),
    Quantity("D2", False, "the sum of every element's `d**2`, over the whole sequence",
             _BOTH),
    Quantity("D", False, "its rational bound, as `R` is `R2`'s", _BOTH),
    Quantity("N", False, "the number of elements of the sequence, the indices of the "
             "families `X`, `Y`", _BOTH),
    Quantity("time", False, "the time of `w` in the pass: the position (1-based) of the "
             "element of update t (0 at t = 0), the indices of the stream's "
             "families `XS`, `YS`, `ZS`, `IS`", _BOTH),
    Quantity("x", True, "the element updated on", _UPDATE),
    Quantity("y", False, "its label", _UPDATE),
    Quantity("d", False, "the update's deviation", _UPDATE, "max(0, gamma - y*dot(u, x))"),
    Quantity("skip", False, "the sum of the `d**2` of the elements passed over (no update) "
             "since the last update, before this one", _UPDATE),
    Quantity("w_next", True, "the iterate after the update", _UPDATE, "w + y*x"),
)

@dataclass(frozen=True)
class SinglePass:
    """One pass of the perceptron over `data` in its order, read for a unit `u` and each of
    `margins`: the positions of the updates and the iterates (as the engine's integers)."""

    data: Dataset
    u: Vector
    margins: tuple[Fraction, ...]
    positions: tuple[int, ...]
    integer: IntegerRun

    @property
    def mistakes(self) -> int:
        """t at the end of the pass."""
        return len(self.positions)

    @cached_property
    def states(self) -> VectorColumn:
        """The iterates `w_0, ..., w_T`, exactly (built once from the engine's integers)."""
        return self.integer.states()

    @cached_property
    def functional(self) -> tuple[tuple[int, ...], int]:
        """`y_i <u, x_i>` for every element of the sequence, as numerators over one
        common denominator."""
        margins = functional_margins(self.data, list(self.u))
        den = math.lcm(*(m.denominator for m in margins))
        return tuple(m.numerator * (den // m.denominator) for m in margins), den

    @cached_property
    def R2(self) -> Fraction:
        """`max_i ||x_i||^2`."""
        return radius2(self.data)

    @cached_property
    def _sums(self) -> dict[Fraction, PassSums]:
        return {}

    @cached_property
    def times(self) -> IntArray:
        """`time` of each state `w_0, ..., w_T`: 0, then each update's position, 1-based."""
        return np.concatenate([np.zeros(1, dtype=np.int64),
                               np.array(self.positions, dtype=np.int64) + 1])

    @cached_property
    def history(self) -> History:
        """Its history as families (`verify.runs.families.HISTORY`): the updates, and the
        stream of the whole pass (its N elements in order)."""
        y = np.array([int(v) for v in self.data.y], dtype=np.int64)

        def stream() -> tuple[np.ndarray, np.ndarray]:
            updated = np.zeros(self.data.n, dtype=np.int64)
            updated[list(self.positions)] = 1
            return np.arange(self.data.n, dtype=np.int64), updated
        return History.of(y, np.array(self.positions, dtype=np.int64), stream)

    def families(self) -> FamilyData:
        """Its dataset's families and its history's (made when first read)."""
        return FamilyData.of(self.data, DATASET).with_history(lambda: self.history,
                                                              self.data.X)

    def deviations(self, gamma: Fraction) -> tuple[tuple[int, ...], int]:
        """`d_i = max(0, gamma - y_i <u, x_i>)`, exactly: numerators over one denominator."""
        margins, den = self.functional
        a, b = gamma.numerator, gamma.denominator
        return tuple(max(0, a * den - m * b) for m in margins), den * b

    def sums(self, gamma: Fraction) -> PassSums:
        """The partial sums of this pass at margin `gamma` (computed once per margin)."""
        if gamma not in self._sums:
            self._sums[gamma] = PassSums.of(*self.deviations(gamma), self.positions)
        return self._sums[gamma]

    def bound_holds(self, gamma: Fraction) -> bool:
        """Freund–Schapire's final bound on this pass, decided exactly:
        `t gamma^2 <= (R + D)^2` with the rational radius bounds R and D."""
        D = radius_bound(self.sums(gamma).D2)
        return self.mistakes * gamma**2 <= (radius_bound(self.R2) + D) ** 2


@dataclass(frozen=True)
class PassSums:
    """Per update k (0-based) and per state t = 0..T: the sums the proof names, as integer
    numerators: `d`, `s` over `den`, the squares `q`, `rest`, `skip`, `D2` over `den**2`.

    `s[t]`, `q[t]`: the sums of d and d^2 over the first t updates; `rest[t]`: the d^2 of the
    elements after the t-th update's position (all of them at t = 0); `skip[k]`: the d^2 of
    the elements passed over between update k - 1 and update k; `d[k]`: the update's own."""

    den: int
    d: tuple[int, ...]
    skip: tuple[int, ...]
    s: tuple[int, ...]
    q: tuple[int, ...]
    rest: tuple[int, ...]
    total: int

    @property
    def D2(self) -> Fraction:
        """`sum_i d_i^2` over the whole sequence."""
        return Fraction(self.total, self.den**2)

    def value(self, name: str, k: int) -> Fraction:
        """Entry k of `d`, `skip`, `s`, `q` or `rest`, as a Fraction."""
        den = self.den if name in ("d", "s") else self.den**2
        return Fraction(getattr(self, name)[k], den)

    @classmethod
    def of(cls, deviations: Sequence[int], den: int, positions: Sequence[int]) -> PassSums:
        """The sums over a pass that updates at `positions` (increasing), the deviations
        being `deviations[i] / den`."""
        squares = [v * v for v in deviations]
        after = [0] * (len(squares) + 1)  # after[i] = sum of squares[i:]
        for i in range(len(squares) - 1, -1, -1):
            after[i] = after[i + 1] + squares[i]
        d: list[int] = []
        skip: list[int] = []
        s, q, rest = [0], [0], [after[0]]
        previous = -1
        for k, p in enumerate(positions):
            if p <= previous:
                raise ValueError(f"update positions must increase, not {p} after {previous}")
            d.append(deviations[p])
            skip.append(after[previous + 1] - after[p])
            s.append(s[k] + deviations[p])
            q.append(q[k] + squares[p])
            rest.append(after[p + 1])
            previous = p
        return cls(den, tuple(d), tuple(skip), tuple(s), tuple(q), tuple(rest), after[0])


def run_pass(data: Dataset, u: Vector, margins: Sequence[Fraction]) -> SinglePass:
    """The exact engine's single pass over `data` (default conventions, one epoch)."""
    from perceptron.algorithms.online import run_online
    from perceptron.conventions import DEFAULT

    if sum(v * v for v in u) != 1:
        raise ValueError(f"u must be a unit vector exactly, not one of squared norm "
                         f"{sum(v * v for v in u)}")
    if not margins or min(margins) <= 0:
        raise ValueError("a single pass needs margins gamma > 0")
    result = run_online(data, replace(DEFAULT, bias=False), max_epochs=1, keep_trace=True)
    trace = result.trace
    integer = IntegerRun(trace.problem, trace.indices)
    return SinglePass(data, tuple(u), tuple(margins), tuple(int(i) for i in trace.indices),
                      integer)


# ---- rows ----------------------------------------------------------------------------------


def _at(run: SinglePass, gamma: Fraction, origin: Origin, binding: str) -> InstanceBatch:
    """The `binding` rows of `run` at margin `gamma`."""
    sums = run.sums(gamma)
    T = run.mistakes
    t = np.arange(T if binding == "pass-update" else T + 1, dtype=np.int64)
    n = len(t)
    R2, D2 = run.R2, sums.D2
    scalars = {
        "t": Column(t), "gamma": Column.constant(gamma, n), "R2": Column.constant(R2, n),
        "R": Column.constant(radius_bound(R2), n), "D2": Column.constant(D2, n),
        "D": Column.constant(radius_bound(D2), n), "N": Column.constant(run.data.n, n),
        "time": Column(run.times[t]),
        "s": _column(sums.s, t, sums.den), "q": _column(sums.q, t, sums.den**2),
        "rest": _column(sums.rest, t, sums.den**2),
    }
    vectors = {"u": VectorColumn.constant(run.u, n), "w": run.states.take(t)}
    if binding == "pass-update":  # a pass updates at least once: w_0 = 0 errs on anything
        which = np.array(run.positions, dtype=np.int64)
        scalars["y"] = Column(run.integer.problem.form.y[which].astype(np.int64))
        scalars["d"] = _column(sums.d, t, sums.den)
        scalars["skip"] = _column(sums.skip, t, sums.den**2)
        vectors["x"] = run.integer.examples(which)
        vectors["w_next"] = run.states.take(t + 1)
    here = replace(origin, dataset=f"{origin.dataset} [gamma = {gamma}]")
    return InstanceBatch(scalars, vectors, (here,), np.zeros(n, dtype=np.int64), t)


def _column(numerators: Sequence[int], t: IntArray, den: int) -> Column:
    """The entries `t` of `numerators`, over `den`."""
    return Column(int_array([numerators[k] for k in t.tolist()]), den)


def state_rows(run: SinglePass, origin: Origin,
               names: Collection[str] | None = None) -> InstanceBatch:
    """One row per state w_t, t = 0..T, for every margin (one block per margin, in order)."""
    return InstanceBatch.concat([_at(run, gamma, origin, "pass-state") for gamma in run.margins])


def update_rows(run: SinglePass, origin: Origin,
                names: Collection[str] | None = None) -> InstanceBatch:
    """One row per update, for every margin (one block per margin, in order)."""
    return InstanceBatch.concat([_at(run, gamma, origin, "pass-update")
                                 for gamma in run.margins])


def runner(algorithm: str | None) -> Runner:
    """One pass of the default perceptron (no other algorithm makes single passes)."""
    if algorithm is not None:
        raise ValueError(f"{algorithm}: single passes are runs of the default perceptron only")
    return lambda scenario: run_pass(scenario.data, scenario.u, scenario.margins)


KIND = register(RunKind(
    "single-pass",
    "ONE pass of the default perceptron (w_0 = 0, eta = 1, update on y<w,x> <= 0) over a "
    "finite sequence, on any data (non-separable included), read for an exactly unit u and "
    "each margin gamma > 0 of the scenario (Freund & Schapire 1999, Theorem 2). No square "
    "root is bound: Freund and Schapire's `sqrt(t)` is irrational but at perfect squares, so "
    "the proof squares its inequalities instead.",
    QUANTITIES,
    (
        RowSet("pass-state", "one row per state w_t, t = 0..T, per margin", state_rows,
               count=lambda run: (run.mistakes + 1) * len(run.margins)),
        RowSet("pass-update", "one row per update, per margin", update_rows, updates=True,
               count=lambda run: run.mistakes * len(run.margins)),
    ),
    runner,
    passes=True,
    laws={"update-rule": "norm2(w_next - (w + y*x)) == 0"},
    rank=2,
    counter="t",
    fixed=frozenset({"u", "gamma", "R2", "R", "D2", "D", "N"}),
    families={**DATASET, **UPDATES, **STREAM},
    history=True,
))
