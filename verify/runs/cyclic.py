"""Cyclic runs (`[numeric] run = "cyclic"`): the run kind of the theorems about epochs.

An online run (`verify.runs.online`) is read update by update; the theorems of issue 31 are
about what happens between updates: an epoch without an update (separable <=> converges),
the iterate's path inside one epoch (the cycling theorem), the voted and the averaged
perceptron's counts (every presentation counts). A cyclic run is the perceptron run in cyclic
epochs over the data in order, read presentation by presentation: which example is
presented, whether it is updated on. It runs on any data, separable or not (a scenario
without a separator has `e_1` as its reference `u`, `RunKind.any_data`).

This module is the kind's one home: its quantities (`QUANTITIES`, the docs are generated from
them), its runs (`perceptron_cyclic`, `voted_cyclic`: each replayed exactly and compared with
the algorithm's own implementation), its runners per algorithm (`ALGORITHMS`; on which
campaign sources each runs is `verify.numeric.algorithms`') and its row builders. Every value
is exact: `w_t = W_t / s` for the integer form `X = s x` of the data
(`perceptron.algorithms.fast.integer_form`).

The constants `T`, `delta`, `K`, `B2` are those of `proofs/library/cycling-inseparable.toml`:
`T = (3N - 1) R2 / 2`; `delta` a rational lower bound, to 1/1000, on the inner radius of the
signed examples' hull when it surrounds the origin (`perceptron.geometry.inner_radius`), else
0; `K = T / delta` (0 without delta); `B2 = ||w0||^2 + 2 K^2 + 2 N (N + 1) R2`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from operator import add, mul
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from perceptron.algorithms.fast import IntegerForm, integer_form, integer_vector
from perceptron.algorithms.margin import run_margin
from perceptron.algorithms.voted import VotedRun, mistakes_from, run_voted
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.inner_radius import inner_radius2, rational_below_root
from verify.runs.columns import (
    INT64_LIMIT,
    MARGIN_BLOCK,
    Column,
    InstanceBatch,
    IntArray,
    Origin,
    VectorColumn,
    as_object,
    max_abs,
    run_rows,
)
from verify.runs.families import DATASET, STREAM, UPDATES, FamilyData, History
from verify.runs.quantity import (
    Quantity,
    RowSet,
    RunKind,
    Runner,
    Scenario,
    register,
    wanted_columns,
)

if TYPE_CHECKING:
    from perceptron.geometry.separators import Inseparable, Separable

_ALL = ("cyclic-state", "cyclic-presentation", "cyclic-epoch")
_STATE = ("cyclic-state",)
_PRESENTATION = ("cyclic-presentation",)
_EPOCH = ("cyclic-epoch",)
_STATE_PRESENTATION = ("cyclic-state", "cyclic-presentation")
_PRESENTATION_EPOCH = ("cyclic-presentation", "cyclic-epoch")

#: The quantities of a cyclic run: name, vector?, what it denotes, the row sets binding it;
#: every formula in proof-file syntax (`Quantity`).
QUANTITIES = (
    # constants of a run, on every row
    Quantity("u", True, "the reference vector: a separator of the scenario, `e_1` for data "
             "without one", _ALL),
    Quantity("gamma_u", False, "at most 0 when u does not separate", _ALL,
             "Y[j]*dot(u, X[j])", "min"),
    Quantity("R2", False, "", _ALL, "norm2(X[j])", "max"),
    Quantity("N", False, "the number of examples", _ALL),
    Quantity("w0", True, "the run's start (0 but for the cycling perceptron's runs from a "
             "start far out)", _ALL),
    Quantity("T", False, "", _ALL, "(3*N - 1)*R2/2"),
    Quantity("delta", False, "a rational lower bound, to 1/1000, on the inner radius of the "
             "signed examples' hull when it surrounds the origin (data that are not "
             "separable); else 0", _ALL),
    Quantity("K", False, "0 when `delta` is 0", _ALL, "T/delta"),
    Quantity("B2", False, "", _ALL, "norm2(w0) + 2*K**2 + 2*N*(N + 1)*R2"),
    # the iterate
    Quantity("w", True, "the iterate (before the presentation, on presentation rows)",
             _STATE_PRESENTATION),
    Quantity("t", False, "the updates made before `w`", _STATE_PRESENTATION),
    Quantity("mu", False, "the margin of the row's iterate on the data", _STATE_PRESENTATION,
             "Y[j]*dot(w, X[j])", "min"),
    Quantity("time", False, "the time of `w` in the stream of presentations: the "
             "presentation (1-based) of update t (0 for `w0`), as for online runs; the "
             "indices of the stream's families `XS`, `YS`, `ZS`, `IS` (on presentation rows "
             "`n` counts every presentation before the row's)", _STATE_PRESENTATION),
    # states
    Quantity("ue", False, "the epochs the first t updates fall in", _STATE),
    Quantity("E", False, "the run's number of epochs", _STATE),
    Quantity("z", True, "the sum of `lam_j*Y[j]*X[j]` over j for a Gordan certificate of "
             "the data, the `lam_j` (perceptron.geometry.separability; all 0 when they are "
             "separable): the zero vector, computed", _STATE),
    Quantity("S", False, "the sum of `lam_j*Y[j]*dot(w, X[j])` over j, term by term",
             _STATE),
    Quantity("L", False, "the sum of the `lam_j`", _STATE),
    # presentations
    Quantity("x", True, "the example presented", _PRESENTATION),
    Quantity("y", False, "its label", _PRESENTATION),
    Quantity("m", False, "1 when the presentation is an update, else 0", _PRESENTATION),
    Quantity("w_next", True, "the iterate after the presentation", _PRESENTATION,
             "w + m*y*x"),
    Quantity("n", False, "the presentations before this one", _PRESENTATION),
    Quantity("r", False, "the updates of this epoch before this presentation",
             _PRESENTATION),
    Quantity("h", False, "the sum of `y**2*norm2(x)` over those updates", _PRESENTATION),
    Quantity("ws", True, "the iterate at the start of the epoch", _PRESENTATION_EPOCH),
    Quantity("mus", False, "the epoch's start margin", _PRESENTATION_EPOCH,
             "Y[j]*dot(ws, X[j])", "min"),
    Quantity("k", False, "the updates of the whole epoch", _PRESENTATION_EPOCH),
    Quantity("c", False, "the voted perceptron's count of its current vector (Freund & "
             "Schapire's list; read off the voted perceptron's own run where it is one)",
             _PRESENTATION),
    Quantity("C", False, "the sum of the counts `c_j` of the retired vectors", _PRESENTATION),
    Quantity("P", True, "the sum of `c_j*v_j` over the retired vectors", _PRESENTATION),
    Quantity("a", True, "the sum of the iterate held after each earlier presentation",
             _PRESENTATION),
    Quantity("V", False, "the retired vectors' vote on x: the sum of `c_j` times the sign "
             "of `dot(v_j, x)` over them", _PRESENTATION),
    Quantity("s", False, "the sign of `dot(w, x)`: 1, 0 or -1", _PRESENTATION),
    Quantity("Wp", False, "the counts of the whole list (retired and current) whose vector "
             "classifies x right", _PRESENTATION),
    Quantity("Wn", False, "the counts of the list whose vector classifies x wrong",
             _PRESENTATION),
    Quantity("Wz", False, "the counts of the list whose vector `v` has `dot(v, x) == 0`",
             _PRESENTATION),
    # epochs
    Quantity("g", True, "what the epoch adds to its start: its end is `ws + g`", _EPOCH),
    Quantity("xs", True, "the worst example of `ws`: the first `X[j]` with "
             "`Y[j]*dot(ws, X[j]) == mus`", _EPOCH),
    Quantity("ys", False, "its label", _EPOCH),
    Quantity("wb", True, "the iterate when `xs` is presented in the epoch", _EPOCH),
    Quantity("kb", False, "the epoch's updates before that presentation", _EPOCH),
    Quantity("m1", False, "1 when that presentation is an update", _EPOCH),
    Quantity("far", False, "1 when `mus <= -T`, else 0", _EPOCH),
    Quantity("e", False, "the epochs before this one", _EPOCH),
)


#: The most coordinates of a run's states (T + 1 by the data's dimension) `CyclicRun.states`
#: makes at once; past it the rows of states wanted are made a block at a time
#: (`CyclicRun.states_at`), since only the epoch rows read them then (the state and
#: presentation rows, as many or more, are past `verify.numeric.campaign.MAX_RUN_CELLS`,
#: the same number): the voted run on a 20 000 x 50 file that is not separable has two
#: million states, 800 MB of int64, and 200 epochs.
WHOLE_STATES = 2**24
#: `CyclicRun.states` adds up this many updates' steps at a time into its rows.
STATES_BLOCK = 2**14


@dataclass(frozen=True)
class CyclicRun:
    """A run in cyclic epochs, presentation by presentation: the example presented and
    whether it was updated on; the voted perceptron's list when the run is its."""

    data: Dataset
    u: Vector
    presented: tuple[int, ...]
    mistakes: tuple[int, ...]
    epochs: int
    voted: VotedRun | None = None
    start: Vector | None = None  # w0 (None: the zero vector)
    #: the run made is the first `epochs` of a run asked for more (`voted_run`: past
    #: `VOTED_PRESENTATIONS`): the epochs asked, and the updates of the others (counted, not
    #: kept); None: the run is the whole run asked for
    cut: tuple[int, int] | None = None

    @cached_property
    def w0(self) -> Vector:
        """The initial iterate."""
        return self.start if self.start is not None else tuple(Fraction(0) for _ in self.u)

    @cached_property
    def W0(self) -> list[int]:
        """`s w0`, integers (a start off the data's lattice 1/s is refused)."""
        if self.start is None:
            return [0] * self.data.d
        scaled = [v * self.form.scale for v in self.w0]
        if any(v.denominator != 1 for v in scaled):
            raise ValueError(f"w0 = {self.w0} is not a multiple of 1/{self.form.scale}")
        return [int(v) for v in scaled]

    @cached_property
    def form(self) -> IntegerForm:
        """The data as integers `X = s x` (one common scale `s`)."""
        return integer_form(self.data)

    @cached_property
    def Z(self) -> IntArray:
        """`y_j X_j`, exact."""
        return self.form.signed()

    @cached_property
    def _top(self) -> int:
        """A bound on every coordinate of every state (`|s w_0|` plus each update's)."""
        return max_abs(self.Z) * (1 + sum(self.mistakes)) + max(map(abs, self.W0), default=0)

    @cached_property
    def _steps(self) -> IntArray:
        """`Z` as the states add it up: int64 when `_top` allows, else Python ints."""
        return self.Z.astype(np.int64) if self._top <= INT64_LIMIT and \
            self.Z.dtype != object else as_object(self.Z)

    @property
    def _whole(self) -> bool:
        """Whether `states` is made whole when read (`states_at`): at most `WHOLE_STATES`
        coordinates, or made already."""
        return "states" in self.__dict__ or \
            (len(self.update_positions) + 1) * max(self.data.d, 1) <= WHOLE_STATES

    @cached_property
    def states(self) -> IntArray:
        """The iterates `s w_0, ..., s w_T`: the start and the iterate after each update
        (T + 1 rows), int64 when a bound on every partial sum allows, else Python ints. The
        rows of states, epochs and the voted list read these, not `W`: a long run on a large
        data file has far fewer updates than presentations (on 20 000 examples, 200 epochs
        are 4 000 000 presentations, and `W` of them 1.6 GB of int64 for 50 coordinates).
        Past `WHOLE_STATES` coordinates the readers that may meet such a run read
        `states_at`."""
        Z = self._steps
        which = np.array(self.presented, dtype=np.int64)[self.update_positions]
        out = np.empty((len(which) + 1, Z.shape[1]), dtype=Z.dtype)
        out[0] = np.array(self.W0, dtype=Z.dtype)
        # the partial sums into their rows a block of updates at a time: the steps gathered
        # whole, their cumulative sum and the start added made three more arrays of the
        # states' size (the first 335 544 states of a voted run on a 20 000 x 50 file, 134
        # MB each of int64, took averaged-voted from 510 to 910 MB; bigdata31)
        for a in range(0, len(which), STATES_BLOCK):
            rows = out[a + 1:a + 1 + STATES_BLOCK]
            np.cumsum(Z[which[a:a + STATES_BLOCK]], axis=0, out=rows)
            rows += out[a]
        return out

    def states_at(self, which: IntArray) -> IntArray:
        """The rows `which` of `states`, without making them all past `WHOLE_STATES`
        coordinates: then the partial sums are made a block at a time and the rows asked
        for kept (a pass over the updates per call)."""
        if self._whole:
            return self.states[which]
        Z = self._steps
        out = np.zeros((len(which), self.data.d), dtype=Z.dtype)
        added = np.array(self.presented, dtype=np.int64)[self.update_positions]  # rows of Z
        current = np.array([self.W0], dtype=Z.dtype)
        step = max(1, MARGIN_BLOCK // max(self.data.d, 1))
        for first in range(0, len(added) + 1, step):  # states first .. first + step - 1
            block = np.concatenate([current, current + np.cumsum(
                Z[added[first:first + step - 1]], axis=0)])
            inside = (which >= first) & (which < first + len(block))
            out[inside] = block[which[inside] - first]
            current = block[-1:] + Z[added[first + step - 1:first + step]]
        return out

    @cached_property
    def state_of(self) -> IntArray:
        """The state held before each presentation, and after the last (P + 1 entries): the
        updates among the presentations before it, its row of `states`."""
        m = np.array(self.mistakes, dtype=np.int64)
        return np.concatenate([[0], np.cumsum(m)]).astype(np.int64)

    @cached_property
    def W(self) -> IntArray:
        """The iterate before each presentation, and after the last (P + 1 rows, `s w`): the
        row of `states` each holds. Read by the presentation rows only, which are as many
        (`verify.numeric.campaign.MAX_RUN_CELLS` bounds them before they are made)."""
        return self.states[self.state_of]

    @cached_property
    def _int64_margins(self) -> bool:
        """Whether every `<W, Z_j>` provably fits in int64 (then computed in it)."""
        Z = self.Z
        if self._steps.dtype == object or Z.dtype == object:
            return False
        top = max_abs(self.states) if self._whole else self._top
        return top * max_abs(Z) * self.data.d <= INT64_LIMIT

    def margins(self, which: IntArray) -> Iterator[tuple[int, IntArray]]:
        """`<W, Z_j>` for the states `which` (rows of `states`) and every example j (over
        `s^2`), exact, block by block: `(first, block)`, the block's rows being those of
        `which[first:]`, each block at most `MARGIN_BLOCK` entries. Every presentation's
        iterate's margin on every example was one table of P + 1 by N (the voted run on a
        20 000 x 50 file: 4e6 by 2e4), and even the states' alone are T + 1 by N (33 000 by
        2e4 there, 5 GB of int64); a reader keeps what it needs of each block (a minimum, a
        sum, the signs)."""
        exact = self._int64_margins
        Z = self.Z.astype(np.int64) if exact else as_object(self.Z)
        step = max(1, MARGIN_BLOCK // max(self.data.n, 1))
        for first in range(0, len(which), step):
            W = self.states_at(which[first:first + step])
            yield first, (W if exact else as_object(W)) @ Z.T

    def lowest(self, which: IntArray) -> tuple[IntArray, IntArray]:
        """Per state of `which`: the least margin `min_j <W, Z_j>` (over `s^2`), and the
        first example j that has it."""
        least, where = [], []
        for _, block in self.margins(which):  # a dataset has at least one example
            at = np.argmin(block, axis=1).astype(np.int64)
            least.append(block[np.arange(len(block)), at])
            where.append(at)
        if not least:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(least), np.concatenate(where)

    @cached_property
    def R2(self) -> Fraction:
        """`max_j ||x_j||^2`."""
        return Fraction(self.form.radius2(), self.form.scale ** 2)

    @cached_property
    def gamma_u(self) -> Fraction:
        """`min_j y_j <u, x_j>` (<= 0 when u does not separate), from the integers."""
        U, D = integer_vector(self.u)
        Z = as_object(self.Z)
        return Fraction(int(min(Z @ np.array(U, dtype=object))), D * self.form.scale)

    @cached_property
    def certificate(self) -> tuple[Fraction, ...]:
        """A Gordan certificate `lam` of the data, or zeros when they are separable."""
        if self.gamma_u > 0:
            return tuple(Fraction(0) for _ in self.data.X)
        return gordan(self.data)

    @cached_property
    def constants(self) -> dict[str, Fraction]:
        """`N`, `R2`, `T`, `delta`, `K`, `B2`, `gamma_u`."""
        N, R2 = self.data.n, self.R2
        inner = surrounding(self.data) if self.gamma_u <= 0 else None
        delta = rational_below_root(inner) if inner is not None else Fraction(0)
        T = (3 * N - 1) * R2 / 2
        K = T / delta if delta > 0 else Fraction(0)
        w02 = sum((v * v for v in self.w0), Fraction(0)) if self.start is not None else 0
        return {"N": Fraction(N), "R2": R2, "T": T, "delta": delta, "K": K,
                "B2": w02 + 2 * K * K + 2 * N * (N + 1) * R2, "gamma_u": self.gamma_u}

    @cached_property
    def constant_vectors(self) -> dict[str, VectorColumn]:
        """`u` and `w0`, one row each."""
        w0 = VectorColumn(np.array([self.W0], dtype=object), self.form.scale) \
            if self.start is not None else VectorColumn(np.zeros((1, self.data.d),
                                                                 dtype=np.int64))
        return {"u": VectorColumn.of([self.u]), "w0": w0}

    @cached_property
    def squared_norms(self) -> IntArray:
        """`||X_j||^2` for every example (over `s^2`), exact."""
        rows = as_object(self.form.rows)
        return (rows * rows).sum(axis=1) if len(rows) else np.zeros(0, dtype=object)

    @property
    def P(self) -> int:
        """The number of presentations."""
        return len(self.presented)

    @cached_property
    def update_positions(self) -> IntArray:
        """The presentations that are updates."""
        return np.flatnonzero(np.array(self.mistakes, dtype=np.int64))

    @cached_property
    def times(self) -> IntArray:
        """`time` of each state `w_0, ..., w_T`: 0, then each update's presentation,
        1-based."""
        return np.concatenate([[0], self.update_positions + 1]).astype(np.int64)

    @cached_property
    def history(self) -> History:
        """Its history as families (`verify.runs.families.HISTORY`): the updates, and the
        stream of every presentation, epochs in order."""
        y = np.array([int(v) for v in self.data.y], dtype=np.int64)
        presented = np.array(self.presented, dtype=np.int64)
        return History.of(y, presented[self.update_positions], lambda: (
            presented, np.array(self.mistakes, dtype=np.int64)))

    def families(self) -> FamilyData:
        """Its dataset's families and its history's (made when first read)."""
        return FamilyData.of(self.data, DATASET).with_history(lambda: self.history,
                                                              self.data.X)


def gordan(data: Dataset) -> tuple[Fraction, ...]:
    """A Gordan certificate of `data` (`decided`), zeros when they are separable; decided once
    per examples and labels in a process (a source that draws data until they are not
    separable, and every run of the scenario, share it)."""
    return _gordan(data.X, data.y)


@lru_cache(maxsize=256)
def _gordan(X: tuple[Vector, ...], y: tuple[int, ...]) -> tuple[Fraction, ...]:
    from perceptron.geometry.separability import Inseparable

    found = decided(Dataset(X, y))
    return tuple(found.lam) if isinstance(found, Inseparable) else tuple(Fraction(0) for _ in X)


#: The certificates kept for the audit's sources (`KEPT`, written by `python -m verify.store`:
#: `verify.store.separators`), and where `decided` records the ones it had to find (None: not
#: recording).
KEPT = Path(__file__).with_name("separators.json")
RECORDED: dict[str, Separable | Inseparable] | None = None


def decided(data: Dataset) -> Separable | Inseparable:
    """`perceptron.geometry.separability(data)`, trying first the certificate kept for these
    data (`KEPT`): the campaign's sources (data drawn until they are not separable, the real
    data sets) decide the same data sets on every audit, and finding their certificates took
    SciPy's LP, whose import alone cost 0.45 CPU-seconds in each process of the audit's pool.
    A kept certificate is written as the one the LP found, so the runs (their Gordan `lam`,
    their `u`) are the same (an edited file with another valid certificate would change the
    runs, never a verdict: `python -m verify.store --check` compares the file with what the
    sources decide afresh, as tests/test_verify/store does); and it decides only once it
    checks exactly here (Gordan's theorem: either certificate proves its answer), else the
    data are decided as before."""
    from perceptron.geometry.separability import fingerprint, separability

    found = separability(data, _kept() if RECORDED is None else None)
    if RECORDED is not None:
        RECORDED[fingerprint(data)] = found
    return found


@cache
def _kept() -> dict[str, Separable | Inseparable]:
    from perceptron.geometry.separability import read_known

    try:
        return read_known(KEPT.read_text(encoding="utf-8"))
    except FileNotFoundError:  # none kept: every data set is decided as before
        return {}


def surrounding(data: Dataset) -> Fraction | None:
    """`perceptron.geometry.inner_radius.inner_radius2(data)`, once per examples and labels."""
    return _surrounding(data.X, data.y)


@lru_cache(maxsize=256)
def _surrounding(X: tuple[Vector, ...], y: tuple[int, ...]) -> Fraction | None:
    return inner_radius2(Dataset(X, y))


def perceptron_cyclic(data: Dataset, u: Vector, max_epochs: int,
                      start: Vector | None = None) -> CyclicRun:
    """The perceptron in cyclic epochs from `start` (default 0) until an epoch without an
    update (or `max_epochs`), replayed presentation by presentation and compared with the
    perceptron's own run (`run_margin(data, 0)` from 0, the exact engine from a start)."""
    run = CyclicRun(data, tuple(u), (), (), 0, start=start)
    Z = [[int(v) for v in row] for row in run.form.signed().tolist()]
    W = list(run.W0)
    mistakes: list[int] = []
    # the state at the start of each epoch, first seen at which epoch: an epoch's
    # presentations depend on nothing else, so when one repeats, the epochs since repeat
    # to the end of the run (`perceptron.algorithms.margin` reads its own run so too)
    seen: dict[tuple[int, ...], int] = {}
    epochs = 0
    while epochs < max_epochs:
        key = tuple(W)
        if (first := seen.get(key)) is not None:
            whole, part = divmod(max_epochs - epochs, epochs - first)
            cycle = mistakes[first * data.n:]
            mistakes += cycle * whole + cycle[:part * data.n]
            epochs = max_epochs
            break
        seen[key] = epochs
        epochs += 1
        row = [0] * data.n
        for j, z in enumerate(Z):  # map over operator functions: the margin perceptron's idiom
            if sum(map(mul, W, z)) <= 0:
                W = list(map(add, W, z))
                row[j] = 1
        mistakes += row
        if not any(row):
            break
    presented = list(range(data.n)) * epochs
    made, covered = _reference(data, max_epochs, start)
    replayed = [j for j, m in zip(presented[:covered * data.n], mistakes, strict=False) if m]
    if tuple(replayed) != made or (covered < epochs and start is None):
        raise RuntimeError(f"cyclic replay of {data.name} differs from the perceptron's run")
    return CyclicRun(data, tuple(u), tuple(presented), tuple(mistakes), epochs, start=start)


def _reference(data: Dataset, max_epochs: int, start: Vector | None
               ) -> tuple[tuple[int, ...], int]:
    """The examples updated on by the perceptron's own implementation, and the epochs it ran:
    the margin perceptron at beta = 0 from 0; from another start the exact engine, which stops
    early where the run cycles (a repeated state at an epoch's start: the epochs after it
    repeat, so the replay's first epochs are compared with it)."""
    from perceptron.algorithms.online import run_online
    from perceptron.conventions import DEFAULT

    if start is None:
        margin = run_margin(data, 0, max_epochs=max_epochs)
        return margin.indices, margin.epochs
    result = run_online(data, replace(DEFAULT, w0=tuple(start)), max_epochs=max_epochs,
                        keep_trace=True)
    return tuple(int(i) for i in result.trace.indices), result.epochs


def voted_cyclic(data: Dataset, u: Vector, epochs: int) -> CyclicRun:
    """The voted perceptron's own run for `epochs` epochs, with its counts; its last vector,
    and the weighted sum of its vectors when the states are made whole (`WHOLE_STATES`),
    compared with the replay's."""
    voted = run_voted(data, epochs)
    run = CyclicRun(data, tuple(u), voted.presented, tuple(map(int, voted.mistakes)), epochs,
                    voted)
    last = run.states_at(np.array([voted.updates], dtype=np.int64))[0]
    same = voted.scale == run.form.scale and tuple(map(int, last)) == voted.last
    if same and run._whole:
        weighted = np.array(voted.counts, dtype=object) @ as_object(run.states)
        same = tuple(map(int, weighted)) == voted.weighted
    if not same:
        raise RuntimeError(f"the voted perceptron's list on {data.name} is not its iterates")
    return run


# ---- rows ----------------------------------------------------------------------------------


def _column(values: IntArray, den: int) -> Column:
    """Exact integers over `den`, in int64 when they fit."""
    return Column(_fit(np.asarray(values)), den)


def _vectors(values: IntArray, den: int) -> VectorColumn:
    """Rows of exact integers over `den`, in int64 when they fit."""
    return VectorColumn(_fit(np.asarray(values)), den)


def _fit(array: IntArray) -> IntArray:
    """`array` as int64 when every entry fits, else as Python ints."""
    if array.size == 0:
        return array.astype(np.int64)
    if array.dtype == np.int64:  # not copied: a run's head's states are its first rows'
        return array
    if max_abs(array) <= INT64_LIMIT:
        return array.astype(np.int64)
    return as_object(array)


def _constants(run: CyclicRun, n: int) -> tuple[dict[str, Column], dict[str, VectorColumn]]:
    """The run's constants on `n` rows (each vector made once per run, then repeated)."""
    scalars = {name: Column.constant(value, n) for name, value in run.constants.items()}
    vectors = {name: VectorColumn.repeated(single, n)
               for name, single in run.constant_vectors.items()}
    return scalars, vectors


#: The presentation rows' columns read off the voted perceptron's list (one pass over it).
_VOTED = ("c", "C", "P", "a", "V", "s", "Wp", "Wn", "Wz")


def state_rows(run: CyclicRun, origin: Origin, names: Collection[str] | None = None,
               limit: int | None = None) -> InstanceBatch:
    """One row per state w_t, t = 0..T (the first `limit` only, when given:
    `RowSet.prefix`, each the same row as among all of them); `mu`, `ue`, `E`, `z`, `S`,
    `L` only when `names` asks for them, or without names."""
    wanted = wanted_columns(names)
    epochs = run.epochs  # the whole run's, on every row of its prefix too
    if limit is not None and limit < len(run.update_positions) + 1:
        # the states 0 .. limit - 1 are those of the presentations up to update limit - 1
        run = head(run, int(run.update_positions[limit - 2]) + 1 if limit > 1 else 0)
    s, positions = run.form.scale, run.update_positions
    n = len(positions) + 1
    every = np.arange(n, dtype=np.int64)
    scalars, vectors = _constants(run, n)
    scalars["t"] = Column(every)
    vectors["w"] = _vectors(run.states, s)
    if wanted("time"):
        scalars["time"] = Column(run.times)
    if wanted("mu"):
        scalars["mu"] = _column(run.lowest(every)[0], s * s)
    if wanted("ue") or wanted("E"):
        epoch_of = positions // run.data.n
        first = np.concatenate([[1], (np.diff(epoch_of) > 0).astype(np.int64)]) \
            if len(positions) else np.zeros(0, dtype=np.int64)
        scalars["ue"] = Column(np.concatenate([[0], np.cumsum(first)]).astype(np.int64))
        scalars["E"] = Column.constant(epochs, n)
    if wanted("z") or wanted("S") or wanted("L"):
        lam = Column.of(run.certificate)
        lam_num = np.array(lam.num, dtype=object)
        scalars["L"] = Column.constant(sum(run.certificate, Fraction(0)), n)
        # sum_j lam_j y_j x_j = (sum_j lam_num_j Z_j) / (lam.den s), from the integers
        vectors["z"] = VectorColumn.constant(
            [Fraction(int(v), lam.den * s) for v in lam_num @ as_object(run.Z)], n)
        S = [block @ lam_num for _, block in run.margins(every)]
        scalars["S"] = _column(np.concatenate(S), s * s * lam.den)
    return run_rows(scalars, vectors, origin, every)


#: What `head` carries over from the run it is the beginning of: what reads the data alone.
_OF_THE_DATA = ("form", "Z", "R2", "gamma_u", "certificate", "constants", "constant_vectors",
                "squared_norms")


def head(run: CyclicRun, presentations: int) -> CyclicRun:
    """The run's first `presentations` (its states those they hold, and the state after the
    last): what the first rows of its state and presentation rows are read off
    (`RowSet.prefix`), so that they are made without the whole run's states (the voted run on
    a 20 000 x 50 file that is not separable has two million, and 4 000 000 presentations;
    the rows of neither were made, and none was checked). It is no whole run: its epochs,
    counts and cut are the caller's to read off `run`."""
    short = replace(run, presented=run.presented[:presentations],
                    mistakes=run.mistakes[:presentations], voted=None, cut=None)
    short.__dict__.update({k: run.__dict__[k] for k in _OF_THE_DATA if k in run.__dict__})
    return short


def _epoch_index(run: CyclicRun) -> IntArray:
    return np.arange(run.P, dtype=np.int64) // run.data.n


def _within_epoch(run: CyclicRun, epochs: int | None = None
                  ) -> tuple[IntArray, IntArray, IntArray]:
    """Per presentation of the first `epochs` (all of them by default): the updates of its
    epoch before it, the sum of the squared norms of their examples (over s^2), and the
    epoch's updates."""
    N = run.data.n
    P = run.P if epochs is None else min(run.P, epochs * N)
    m = np.array(run.mistakes[:P], dtype=np.int64)
    shaped = m.reshape(-1, N)
    before = (np.cumsum(shaped, axis=1) - shaped).reshape(-1)
    norms = run.squared_norms[np.array(run.presented[:P], dtype=np.int64)] * m
    shaped_norms = norms.reshape(-1, N)
    h = (np.cumsum(shaped_norms, axis=1) - shaped_norms).reshape(-1)
    k = np.repeat(shaped.sum(axis=1), N)
    return before, h, k


def presentation_rows(run: CyclicRun, origin: Origin,
                      names: Collection[str] | None = None, limit: int | None = None
                      ) -> InstanceBatch:
    """One row per presentation (the state before it; the first `limit` only, when given:
    `RowSet.prefix`, each the same row as among all of them); `mu`, `mus` and the voted
    perceptron's quantities only when `names` asks for them, or without names."""
    wanted = wanted_columns(names)
    whole = run
    if limit is not None and limit < run.P:
        run = head(run, limit)
    s, N, P = run.form.scale, run.data.n, run.P
    which = np.array(run.presented, dtype=np.int64)
    m = np.array(run.mistakes, dtype=np.int64)
    scalars, vectors = _constants(run, P)
    scalars["m"] = Column(m)
    scalars["n"] = Column(np.arange(P, dtype=np.int64))
    scalars["y"] = Column(np.array(run.data.y, dtype=np.int64)[which])
    scalars["t"] = Column(np.concatenate([[0], np.cumsum(m)[:-1]]).astype(np.int64)
                          if P else np.zeros(0, dtype=np.int64))
    if wanted("time"):
        scalars["time"] = Column(run.times[scalars["t"].num])
    vectors["w"] = _vectors(run.W[:P], s)
    vectors["w_next"] = _vectors(run.W[1:P + 1], s)
    vectors["x"] = _vectors(run.form.rows[which], s)
    starts = _epoch_index(run) * N
    vectors["ws"] = _vectors(run.W[starts], s)
    # of the whole epochs its presentations fall in (an epoch's `k` counts all of it)
    before, h, k = (part[:P] for part in _within_epoch(whole, -(-P // N)))
    scalars["r"], scalars["k"] = Column(before), Column(k)
    scalars["h"] = _column(h, s * s)
    if wanted("mu") or wanted("mus"):  # each state's, read at the presentations holding it
        least = run.lowest(np.arange(len(run.states), dtype=np.int64))[0]
        if wanted("mu"):
            scalars["mu"] = _column(least[run.state_of[:P]], s * s)
        if wanted("mus"):
            scalars["mus"] = _column(least[run.state_of[starts]], s * s)
    if any(wanted(name) for name in _VOTED):
        _voted_columns(run, scalars, vectors, whole.voted)
    return run_rows(scalars, vectors, origin, np.arange(P))


def _voted_columns(run: CyclicRun, scalars: dict[str, Column],
                   vectors: dict[str, VectorColumn], voted: VotedRun | None) -> None:
    """The voted perceptron's quantities before each presentation, from its own list (its
    vectors and counts, `voted`, of the run `run` is all or the `head` of) where it has
    one; `a` from the iterates themselves."""
    s, P, N = run.form.scale, run.P, run.data.n
    which = np.array(run.presented, dtype=np.int64)
    m = np.array(run.mistakes, dtype=np.int64)
    # a: the sum of the iterate after each earlier presentation (P + 1 rows: a_0 = 0); it
    # and P (a sum of counts, at most P in all, times iterates) are at most P max|W|, and
    # in int64 when that fits (as Python ints, P rows of d, 36 bytes an entry against 8)
    fits = P * max(max_abs(run.W), 1) <= INT64_LIMIT and run.W.dtype != object
    kind = np.int64 if fits else object
    after = run.W[1:P + 1].astype(kind)
    a = np.concatenate([np.zeros((1, run.data.d), dtype=kind), np.cumsum(after, axis=0)])
    vectors["a"] = _vectors(a[:P], s)
    del a, after
    # the list: vector j is W[update j] (j = 0 the zero vector), counted as Freund and
    # Schapire count: c := c + 1 at a correct presentation, a new vector with c = 1 at a mistake
    c_col, C_col = np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.int64)
    P_rows = np.zeros((P, run.data.d), dtype=kind)
    V_col = np.zeros(P, dtype=object)
    Wp, Wn, Wz = (np.zeros(P, dtype=np.int64) for _ in range(3))
    s_col = np.zeros(P, dtype=np.int64)
    signs = _Signs(run)  # of s^2 y_j <v, x_j> for every vector v of the list, by blocks
    y = np.array(run.data.y, dtype=np.int64)
    retired_vote = np.zeros(N, dtype=np.int64)  # sum c_j sign(<v_j, x_i>) over retired j
    retired = np.zeros((3, N), dtype=np.int64)  # right, wrong, zero weights per example
    current, count, total = 0, 0, 0
    weighted = np.zeros(run.data.d, dtype=object)
    counts: list[int] = []
    for p in range(P):
        i = which[p]
        c_col[p], C_col[p], P_rows[p], V_col[p] = count, total, weighted, retired_vote[i]
        row = signs.row(current)
        own = row[i]  # sign of y_i <v, x_i>
        s_col[p] = own * y[i]
        weights = retired[:, i].copy()
        weights[0 if own > 0 else 1 if own < 0 else 2] += count
        Wp[p], Wn[p], Wz[p] = weights
        if m[p]:  # retire the current vector with its count
            retired_vote += count * row * y
            retired[0] += count * (row > 0)
            retired[1] += count * (row < 0)
            retired[2] += count * (row == 0)
            total += count
            weighted = weighted + count * run.states[current]
            counts.append(count)
            current, count = current + 1, 1
        else:
            count += 1
    counts.append(count)
    if voted is not None and (tuple(counts) != voted.counts if P == len(voted.presented)
                              else tuple(counts[:-1]) != voted.counts[:len(counts) - 1]):
        # a head's last count is its current vector's so far, its others are the run's
        raise RuntimeError("the voted perceptron's counts differ from its presentations")
    scalars["c"], scalars["C"] = Column(c_col), Column(C_col)
    vectors["P"] = _vectors(P_rows, s)
    scalars["V"], scalars["s"] = _column(V_col, 1), Column(s_col)
    scalars["Wp"], scalars["Wn"], scalars["Wz"] = Column(Wp), Column(Wn), Column(Wz)


class _Signs:
    """The signs of the margins of the voted perceptron's list on every example, one vector
    of the list at a time (`row`), computed a block of vectors at a time (`CyclicRun.margins`):
    its loop reads them in order, and the whole table is T + 1 by N."""

    def __init__(self, run: CyclicRun) -> None:
        self.run, self.first = run, 0
        self.block = np.zeros((0, run.data.n), dtype=np.int64)

    def row(self, k: int) -> IntArray:
        """The signs of the margins of vector k of the list (state k)."""
        if not self.first <= k < self.first + len(self.block):
            which = np.arange(k, len(self.run.states), dtype=np.int64)
            _, margins = next(self.run.margins(which))
            self.first = k
            self.block = (margins > 0).astype(np.int64) - (margins < 0).astype(np.int64)
        return self.block[k - self.first]


def epoch_rows(run: CyclicRun, origin: Origin,
               names: Collection[str] | None = None) -> InstanceBatch:
    """One row per epoch."""
    s, N = run.form.scale, run.data.n
    E = run.P // N
    starts = np.arange(E, dtype=np.int64) * N
    scalars, vectors = _constants(run, E)
    held = run.state_of[starts]  # the state at each epoch's start
    least, worst = run.lowest(held)
    met = starts + worst  # the presentation of the worst example in its epoch (data order)
    before, _, k = _within_epoch(run)
    m = np.array(run.mistakes, dtype=np.int64)
    mus = _column(least, s * s)
    ws, ends, wb = np.split(run.states_at(np.concatenate(
        [held, run.state_of[starts + N], run.state_of[met]])), 3)  # one pass at most
    vectors["ws"] = _vectors(ws, s)
    vectors["g"] = _vectors(ends - ws, s)
    vectors["wb"] = _vectors(wb, s)
    vectors["xs"] = _vectors(run.form.rows[worst], s)
    scalars["ys"] = Column(np.array(run.data.y, dtype=np.int64)[worst])
    scalars["mus"] = mus
    scalars["kb"], scalars["k"] = Column(before[met]), Column(k[starts])
    scalars["m1"] = Column(m[met])
    scalars["far"] = Column(_at_most(mus, -run.constants["T"]).astype(np.int64))
    scalars["e"] = Column(np.arange(E, dtype=np.int64))
    return run_rows(scalars, vectors, origin, np.arange(E))


def _at_most(column: Column, bound: Fraction) -> np.ndarray:
    """Rows where `column <= bound`, exactly: `num / den <= a / b` iff `num b <= a den` (both
    denominators positive), in Python ints (no Fraction per row: a long run has 10^4 epochs)."""
    den = column.den if isinstance(column.den, int) else as_object(column.den)
    return np.asarray(as_object(column.num) * bound.denominator <= bound.numerator * den,
                      dtype=bool)


# ---- runners -------------------------------------------------------------------------------


def cyclic_run(scenario: Scenario) -> CyclicRun:
    """The perceptron in cyclic epochs on the scenario, to convergence or its epoch cap."""
    return perceptron_cyclic(scenario.data, scenario.u, scenario.max_epochs)


def far_start(run: CyclicRun) -> Vector | None:
    """A start for the perceptron far out on data that surround the origin: an integer
    multiple of (1, ..., 1) of norm at least 2 K + 1, K = T/delta, so that its first epochs
    are the cycling theorem's far ones; None on other data."""
    K = run.constants["K"]
    if K <= 0 or run.form.scale != 1:
        return None
    d = run.data.d
    factor = 1
    while factor * factor * d < (2 * K + 1) ** 2:
        factor *= 2
    return tuple(Fraction(factor) for _ in range(d))


def cycling_runs(scenario: Scenario) -> tuple[CyclicRun, ...]:
    """The perceptron in cyclic epochs from 0, and, on data that surround the origin, from
    a start far out (`far_start`)."""
    near = perceptron_cyclic(scenario.data, scenario.u, scenario.max_epochs)
    start = far_start(near)
    if start is None:
        return (near,)
    return (near, perceptron_cyclic(scenario.data, scenario.u, scenario.max_epochs, start))


#: The voted perceptron's runs stop after this many epochs at most (on data that are not
#: separable the perceptron never converges, and each presentation's vote costs a row).
VOTED_MAX_EPOCHS = 200


def voted_epochs(data: Dataset, max_epochs: int) -> int:
    """The voted perceptron's epochs on `data`: three times the perceptron's epochs to
    convergence plus two (so that the last vector's count overtakes the retired ones', and the
    vote and the averaged vector converge on the runs), at most `max_epochs` and
    `VOTED_MAX_EPOCHS`."""
    cap = min(max_epochs, VOTED_MAX_EPOCHS)
    run = run_margin(data, 0, max_epochs=cap)
    return min(cap, 3 * run.epochs + 2)


#: The most presentations of the voted perceptron's run that are kept (whole epochs: the
#: first `VOTED_PRESENTATIONS // N` of them, `voted_run`): each costs an index and a flag
#: and then its rows, and a run asked for more is made for those epochs, its other epochs'
#: updates counted but not kept, and each step reading its rows says so (`cut_rows`). Its
#: list of vectors, one per mistake, was kept whole: 200 epochs of a 20 000 x 50 file that
#: is not separable made two million, and `audit averaged-voted --data` ended at a worker's
#: 4 GB (exit 2). 4 000 000 presentations (those 200 epochs) are within it.
VOTED_PRESENTATIONS = 2**22


def voted_run(scenario: Scenario) -> CyclicRun:
    """The voted perceptron's own run on the scenario (`voted_epochs`), the epochs within
    `VOTED_PRESENTATIONS` of it kept (`CyclicRun.cut`)."""
    data, u = scenario.data, scenario.u
    epochs = voted_epochs(data, scenario.max_epochs)
    kept = min(epochs, VOTED_PRESENTATIONS // max(data.n, 1))
    if kept == epochs:
        return voted_cyclic(data, u, epochs)
    if kept == 0:  # not one epoch: the run kept is its start alone
        return CyclicRun(data, tuple(u), (), (), 0, cut=(epochs, mistakes_from(
            data, (0,) * data.d, epochs)))
    run = voted_cyclic(data, u, kept)
    voted = run.voted
    assert voted is not None
    return replace(run, cut=(epochs, mistakes_from(data, voted.last, epochs - kept)))


def cut_rows(run: CyclicRun, row_set: str) -> tuple[int, str] | None:
    """The rows of `row_set` a run cut at `VOTED_PRESENTATIONS` does not have (those of the
    epochs not kept), and why; None when it has them all (`RunKind.cut`)."""
    if run.cut is None:
        return None
    asked, later = run.cut
    missing = asked - run.epochs
    rows = {"cyclic-state": later, "cyclic-presentation": missing * run.data.n,
            "cyclic-epoch": missing}.get(row_set, 0)
    if not rows:
        return None
    return rows, (f"is the voted perceptron's first {run.epochs} of its {asked} epochs (one "
                  f"run keeps at most {VOTED_PRESENTATIONS} presentations, whole epochs), so "
                  f"the {rows} {row_set} rows of the other {missing} are not made")


#: The algorithms that make cyclic runs (`verify.numeric.algorithms` says on which campaign
#: sources each runs); the default run (no algorithm named) is `cyclic_run`.
ALGORITHMS: dict[str, Runner] = {
    "cyclic-perceptron": cyclic_run,
    "margin-family-perceptron": cyclic_run,
    "cycling-perceptron": cycling_runs,
    "voted-perceptron": voted_run,
}


def runner(algorithm: str | None) -> Runner:
    """The runner of `algorithm` (None: the perceptron in cyclic epochs); ValueError for an
    algorithm that makes no cyclic runs."""
    if algorithm is None:
        return cyclic_run
    if algorithm not in ALGORITHMS:
        raise ValueError(f"{algorithm} makes no cyclic runs: its steps cannot bind cyclic rows")
    return ALGORITHMS[algorithm]


def label(origin: Origin, run: CyclicRun) -> Origin:
    """A run from a start far out names its start (a scenario of the cycling perceptron makes
    one from 0 and one from there)."""
    if run.start is None:
        return origin
    return replace(origin, dataset=f"{origin.dataset} [from w0 = {run.start[0]} (1, ..., 1)]")


KIND = register(RunKind(
    "cyclic",
    "The perceptron (w_0 = 0, or the cycling perceptron's start far out; step 1, update on "
    "y<w,x> <= 0) in cyclic epochs over the data in order until an epoch without an update "
    "or the scenario's epoch cap, read presentation by presentation; or the voted perceptron "
    "(Freund & Schapire 1999, `[numeric] algorithm = \"voted-perceptron\"`) for its own "
    "number of epochs, with its list of vectors and counts. Each run is replayed exactly and "
    "compared with the algorithm's own implementation. It runs on any data, separable or "
    "not (without a separator the reference `u` is `e_1`).",
    QUANTITIES,
    (
        RowSet("cyclic-state", "one row per state `w_t`, t = 0..T (the last iterate "
               "included)", state_rows, count=lambda run: len(run.update_positions) + 1,
               prefix=True),
        RowSet("cyclic-presentation", "one row per presentation of an example, the state "
               "before it", presentation_rows, count=lambda run: run.P, prefix=True,
               vectors=6),
        RowSet("cyclic-epoch", "one row per epoch, from its start iterate", epoch_rows,
               count=lambda run: run.P // run.data.n),
    ),
    runner,
    any_data=True,
    fixed=frozenset({"u", "gamma_u", "R2", "N", "w0", "T", "delta", "K", "B2"}),
    laws={"update-rule": "norm2(w_next - (w + m*y*x)) == 0",
          "update-when-wrong": "m*y*dot(w, x) <= 0"},
    label=label,
    rank=3,
    families={**DATASET, **UPDATES, **STREAM},
    history=True,
    cut=cut_rows,
))
