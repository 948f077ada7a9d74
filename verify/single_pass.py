"""Single-pass runs: the run kind of Freund and Schapire's non-separable bound.

Freund & Schapire (1999, Theorem 2) bound the mistakes of ONE pass of the online perceptron
over a finite sequence (x_i, y_i), i = 1..N, on any data: for a unit u and a margin
gamma > 0, with deviations `d_i = max(0, gamma - y_i <u, x_i>)`, the pass makes t mistakes
with `t gamma^2 <= (R + D)^2`, `R^2 >= max ||x_i||^2`, `D^2 >= sum_i d_i^2`. Its quantities
(partial sums of d over the updates, the d^2 of the elements not yet seen) are not those of
an online run to convergence, so they are a run kind of their own (`[numeric] run =
"single-pass"`): the names are listed in `verify.vocabulary` beside the other kinds, and this
module runs the pass and builds its rows.

A pass is run once by the exact engine (w_0 = 0, eta = 1, update on y<w,x> <= 0, one epoch);
its rows are read for every margin the scenario lists (the updates do not depend on gamma,
only d, s, q, the tail sums and D do). Everything is an exact rational: `R` and `D` are the
vocabulary's rational radius bounds of R2 and D2 (`verify.vocabulary.radius_bound`).
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
from verify.vocabulary import PASS_BINDINGS, Binding, IntegerRun, radius_bound


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


def _at(run: SinglePass, gamma: Fraction, origin: Origin, binding: Binding) -> InstanceBatch:
    """The `binding` rows of `run` at margin `gamma`."""
    sums = run.sums(gamma)
    T = run.mistakes
    t = np.arange(T if binding == "pass-update" else T + 1, dtype=np.int64)
    n = len(t)
    R2, D2 = run.R2, sums.D2
    scalars = {
        "t": Column(t), "gamma": Column.constant(gamma, n), "R2": Column.constant(R2, n),
        "R": Column.constant(radius_bound(R2), n), "D2": Column.constant(D2, n),
        "D": Column.constant(radius_bound(D2), n),
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


def rows(run: SinglePass, binding: Binding, origin: Origin,
         names: Collection[str] | None = None) -> InstanceBatch:
    """The `binding` rows of `run` for every margin (one block per margin, in order),
    restricted to `names`."""
    if binding not in PASS_BINDINGS:
        raise ValueError(f"a single pass has no {binding!r} rows")
    batch = InstanceBatch.concat([_at(run, gamma, origin, binding) for gamma in run.margins])
    if names is not None:
        keep = set(names)
        batch.scalars = {n: c for n, c in batch.scalars.items() if n in keep}
        batch.vectors = {n: c for n, c in batch.vectors.items() if n in keep}
    return batch
