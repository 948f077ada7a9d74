"""A batch run as integers: the iterates `theta_k = W_k / D_k` replayed exactly as the engine
computes them (`perceptron.batch.run_batch`), from which the audit's batch rows are built.

The engine records only `M_k` and `alpha_k`; the vocabulary needs every iterate, every
`xbar_k` and every member's partial sum. Replaying them with a Fraction per coordinate was
half of the audit's numeric time (profile: 3.4 M Fraction constructions). Here each iterate
is an integer vector over one integer, each `xbar_k` an integer vector over the examples'
common denominator, and the columns are built from those integers (`verify.vocabulary.
reduced`: the same numerators, denominator and dtype `VectorColumn.of` makes of the same
rationals). Fractions are made only if someone reads `fractions` (tests, printing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm

import numpy as np

from perceptron.algorithms.fast import IntegerForm, exact_combination, integer_vector
from perceptron.dataset import Vector
from verify.numeric.instances import VectorColumn, reduced


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
    def replay(cls, form: IntegerForm, theta0: Sequence[Fraction],
               sets: Sequence[tuple[int, ...]], alphas: Sequence[Fraction]) -> IntegerBatch:
        """The iterates from `theta0` under the recorded sets and steps, in the engine's own
        integer arithmetic (`w + alpha * xbar_int / s` with `w = W / D`, `alpha = a / b`)."""
        W0, D = integer_vector(list(theta0))
        W = list(W0)
        y = form.y.tolist()
        s = form.scale
        iterates, denominators, xbars = [tuple(W)], [D], []
        for members, alpha in zip(sets, alphas, strict=True):
            coefficients = [0] * form.n
            for j in members:
                coefficients[j] = y[j]
            xbar = exact_combination(coefficients, form.rows, form.max_abs)
            a, b = alpha.numerator, alpha.denominator
            W = [wi * b * s + D * a * xi for wi, xi in zip(W, xbar, strict=True)]
            D = D * b * s
            g = gcd(D, *W)
            W, D = [wi // g for wi in W], D // g
            iterates.append(tuple(W))
            denominators.append(D)
            xbars.append(tuple(int(v) for v in xbar))
        return cls(form, tuple(iterates), tuple(denominators), tuple(xbars), tuple(sets),
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
