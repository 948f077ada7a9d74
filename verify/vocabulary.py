"""The vocabulary: which quantity of a run each name of a proof step denotes.

Online runs (one row per update; the row of update number t+1):

==========  ==========================================================================
`w`         the iterate before the update, `w_t`
`w_next`    the iterate after it, `w_{t+1} = w_t + eta y x`
`x`, `y`    the example and its label (`y` in {-1, +1})
`t`         the number of updates before this one
`eta`       the learning rate
`R2`        `max_i ||x_i||^2` over the dataset (squared: no square root)
`u`         the reference separator (planted, tight-family, adversary's `e_1`, or a
            separator found by a converged run)
`gamma_u`   `min_i y_i <u, x_i>`: the margin of the *unnormalised* u, so that
            `||w_t|| ||u|| >= <w_t, u> >= t gamma_u` needs no square root
`w0`        the initial iterate
==========  ==========================================================================

State rows (one per t = 0..T, the last being the final iterate) bind `w` to `w_t`, `t`,
`eta`, `R2`, `u`, `gamma_u`, `w0`: invariants such as `t R2 - <w,w> >= 0` and the final bound
`t gamma_u^2 <= R2 <u,u>` are checked on every state, the end of the run included.

Every value is an exact rational; columns are built once per run (DESIGN.md §3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np

from perceptron.dataset import Dataset, Vector
from perceptron.geometry import functional_margins, radius2
from verify.numeric import Column, InstanceBatch, Origin, VectorColumn

Binding = Literal["update", "state"]
ONLINE_UPDATE_NAMES = ("w", "w_next", "x", "y", "t", "eta", "R2", "u", "gamma_u", "w0")
ONLINE_STATE_NAMES = ("w", "t", "eta", "R2", "u", "gamma_u", "w0")


def margin(data: Dataset, u: Sequence[Fraction]) -> Fraction:
    """`gamma_u = min_i y_i <u, x_i>` (positive exactly when u strictly separates)."""
    return min(functional_margins(data, list(u)))


@dataclass(frozen=True)
class Update:
    """One update of an online run: iterate before, example, label, iterate after."""

    w: Vector
    x: Vector
    y: int
    w_next: Vector


@dataclass(frozen=True)
class OnlineRun:
    """What the vocabulary needs of an online run: its data, reference u and updates."""

    data: Dataset
    u: Vector
    updates: tuple[Update, ...]
    eta: Fraction = Fraction(1)
    w0: Vector | None = None

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


def run_from_engine(result: object, data: Dataset, u: Vector) -> OnlineRun:
    """Adapt a `perceptron.online.run_online(..., keep_trace=True)` result.

    Reads the trace's iterate before/after, example and label of every update, and the
    learning rate and initial iterate recorded in the result's conventions.
    """
    trace = result.trace  # type: ignore[attr-defined]
    updates = tuple(Update(tuple(step.w_before), tuple(step.x), int(step.y),
                           tuple(step.w_after)) for step in trace)
    conventions = result.conventions  # type: ignore[attr-defined]
    eta = Fraction(getattr(conventions, "eta", 1))
    w0 = getattr(conventions, "w0", None)
    return OnlineRun(data, u, updates, eta, tuple(w0) if w0 is not None else None)


def _batch(scalars: dict[str, Column], vectors: dict[str, VectorColumn], origin: Origin,
           n: int) -> InstanceBatch:
    return InstanceBatch(scalars, vectors, (origin,), np.zeros(n, dtype=np.int64),
                         np.arange(n, dtype=np.int64))


def _constants(run: OnlineRun, n: int) -> tuple[dict[str, Column], dict[str, VectorColumn]]:
    """The quantities fixed for a whole run, as columns of n equal rows."""
    scalars = {"eta": Column.constant(run.eta, n), "R2": Column.constant(radius2(run.data), n),
               "gamma_u": Column.constant(margin(run.data, run.u), n)}
    vectors = {"u": VectorColumn.constant(run.u, n), "w0": VectorColumn.constant(run.initial, n)}
    return scalars, vectors


def update_rows(run: OnlineRun, origin: Origin) -> InstanceBatch:
    """One row per update, named as in the table above."""
    n = len(run.updates)
    scalars, vectors = _constants(run, n)
    scalars["y"] = Column(np.array([up.y for up in run.updates], dtype=np.int64))
    scalars["t"] = Column(np.arange(n, dtype=np.int64))
    vectors["w"] = VectorColumn.of([up.w for up in run.updates])
    vectors["w_next"] = VectorColumn.of([up.w_next for up in run.updates])
    vectors["x"] = VectorColumn.of([up.x for up in run.updates])
    return _batch(scalars, vectors, origin, n)


def state_rows(run: OnlineRun, origin: Origin) -> InstanceBatch:
    """One row per state `w_t`, t = 0..T (the final iterate included)."""
    states = run.states
    n = len(states)
    scalars, vectors = _constants(run, n)
    scalars["t"] = Column(np.arange(n, dtype=np.int64))
    vectors["w"] = VectorColumn.of(states)
    return _batch(scalars, vectors, origin, n)


def rows(run: OnlineRun, binding: Binding, origin: Origin) -> InstanceBatch:
    """The batch of `binding` rows of a run."""
    return update_rows(run, origin) if binding == "update" else state_rows(run, origin)
