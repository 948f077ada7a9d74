"""A batch run as integers: the iterates `theta_k = W_k / D_k` exactly as the engine computed
them (`perceptron.algorithms.batch.run_batch` records them in its trace), from which the
audit's batch rows are built.

The vocabulary needs every iterate, every `xbar_k` and every member's partial sum. Replaying
them with a Fraction per coordinate was half of the audit's numeric time (profile: 3.4 M
Fraction constructions), and replaying them in integers still did the run's work twice; so
the engine keeps each iterate as an integer vector over one integer and each `xbar_k` as an
integer vector over the examples' common denominator, and the columns are built from those
integers (`verify.vocabulary.reduced`: the same numerators, denominator and dtype
`VectorColumn.of` makes of the same rationals). Fractions are made only if someone reads
`fractions` (tests, printing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from perceptron.algorithms.fast import IntegerForm, integer_vector
from perceptron.algorithms.trace import BatchIntegers
from perceptron.dataset import Vector
from verify.runs.columns import VectorColumn, reduced


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
        """The iterates `theta_first .. theta_{stop-1}` as one exact column."""

        W, D = self.W[first:stop], self.D[first:stop]
        if not W:
            return _EMPTY
        common = lcm(*D) if D else 1
        return reduced(_rows([[w * (common // d) for w in row] for row, d in zip(W, D,
                                                                                strict=True)],
                             len(W), len(W[0])), common)

    def xbar(self) -> VectorColumn:
        """Every `xbar_k` as one exact column."""

        if not self.xbars:
            return _EMPTY
        return reduced(_rows([list(v) for v in self.xbars], len(self.xbars), self.form.d),
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


#: No rows: what `VectorColumn.of([])` makes (no width, denominator 1).
_EMPTY = VectorColumn(np.empty((0, 0), dtype=np.int64), 1)


def _rows(values: list[list[int]], n: int, width: int) -> np.ndarray:
    """An n x width integer matrix: int64 when every entry fits, else Python ints."""
    big = any(abs(v) > 2**63 - 1 for row in values for v in row)
    array = np.empty((n, width), dtype=object if big else np.int64)
    if n and width:
        array[...] = values
    return array
