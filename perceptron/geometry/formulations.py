"""The three formulations of the margin (seed 003, lecture 9) computed and shown equal exactly.

With z_i = y_i x_i, the lecture writes

    (1)  gamma = max_{||u|| <= 1} min_i <u, z_i>                         the max-min margin,
    (2)  min_w 1/2 ||w||^2  subject to  <w, z_i> >= 1 for all i           the minimum norm,
    (3)  min_w sup_{C > 0} 1/2 ||w||^2 + C sum_i max(0, 1 - <w, z_i>)     the hard-margin SVM,

and asks to prove them equivalent: gamma^2 = 1 / (2 * value(2)) = 1 / (2 * value(3)).

Here each is answered by computation: each formulation gets its own exact certificate of its
optimal value, a primal witness (an upper or lower bound) and a dual witness (the opposite
bound) that meet, and the three values are compared as exact rationals.

(1) lower: u = w/||w|| is feasible, so gamma >= min_i <w, z_i> / ||w||;
    upper: for weights c >= 0 summing to 1 and any ||u|| <= 1,
           min_i <u, z_i> <= <u, sum_i c_i z_i> <= ||sum_i c_i z_i||.
(2) upper: a feasible w gives value <= 1/2 ||w||^2;
    lower: weak Lagrangian duality, value >= sum_i a_i - 1/2 ||sum_i a_i z_i||^2 for a >= 0.
(3) upper: at a feasible w every hinge term is 0, so the sup over C is 1/2 ||w||^2;
    lower: for one finite C >= max_i a_i, C max(0, t) >= a_i t, so the objective is at least
           the Lagrangian, whose minimum over w is the same dual value: the sup over C is
           already attained at C = max_i a_i (the soft-margin SVM with that C is the hard one).

The formulations are the homogeneous ones of the lecture (no bias); for a bias by augmentation
pass `data.augmented()`. On data that are not separable (1) is 0, certified by a Gordan
certificate used as the weights c, and (2), (3) are infeasible (+infinity): `gamma2` is 0 for all.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from perceptron.dataset import Dataset
from perceptron.geometry.linear import common_denominator, functional_margins, norm2, scaled_rows

__all__ = ["Formulations", "MaxMin", "MinNorm", "PenalisedSVM", "three_formulations"]


def _combination(data: Dataset, weights: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """sum_i weights_i y_i x_i, exactly."""
    cn, cd = common_denominator(weights)
    s, rows = scaled_rows(data)
    support = [i for i, v in enumerate(cn) if v]
    coef = [cn[i] * data.y[i] for i in support]
    if not support:
        return (Fraction(0),) * data.d
    return tuple(
        Fraction(sum(c * v for c, v in zip(coef, col, strict=True)), cd * s)
        for col in zip(*(rows[i] for i in support), strict=True)
    )


def _valid_weights(data: Dataset, a: tuple[Fraction, ...]) -> bool:
    return len(a) == data.n and all(type(v) is Fraction and v >= 0 for v in a)


@dataclass(frozen=True)
class MaxMin:
    """(1): gamma^2 = max_{||u|| <= 1} (min_i <u, z_i>)^2, certified by u = w/||w|| and c."""

    w: tuple[Fraction, ...] | None  # None when the value is 0 (u = 0 is then the witness)
    c: tuple[Fraction, ...]  # convex weights: ||sum c_i z_i||^2 bounds gamma^2 from above
    gamma2: Fraction

    def check(self, data: Dataset) -> bool:
        if not _valid_weights(data, self.c) or sum(self.c) != 1:
            return False
        upper = norm2(_combination(data, self.c))
        if self.w is None:  # lower bound 0 from u = 0
            return self.gamma2 == 0 and upper == 0
        if len(self.w) != data.d or not any(self.w):
            return False
        m = min(functional_margins(data, self.w))
        if m <= 0:
            return False
        lower = m * m / norm2(self.w)
        return lower == upper == self.gamma2


class _HalfSquaredNorm:
    """A formulation whose optimal value is `1/2 ||w*||^2 = 1/(2 gamma^2)` (None: +infinity)."""

    value: Fraction | None

    @property
    def gamma2(self) -> Fraction:
        """`gamma^2 = 1/(2 value)`; 0 when the value is infinite (not separable)."""
        return Fraction(0) if self.value is None else 1 / (2 * self.value)


@dataclass(frozen=True)
class MinNorm(_HalfSquaredNorm):
    """(2): value = min 1/2 ||w||^2 s.t. <w, z_i> >= 1, certified by w and multipliers a."""

    w: tuple[Fraction, ...] | None  # None: infeasible
    a: tuple[Fraction, ...]  # Lagrange multipliers; or, when infeasible, a Gordan certificate
    value: Fraction | None  # None: +infinity

    def check(self, data: Dataset) -> bool:
        if not _valid_weights(data, self.a):
            return False
        combo = _combination(data, self.a)
        if self.w is None:  # infeasible: sum a_i <w, z_i> = 0 for every w, yet each >= 1
            return self.value is None and any(self.a) and not any(combo)
        if len(self.w) != data.d or min(functional_margins(data, self.w)) < 1:
            return False
        upper = norm2(self.w) / 2
        lower = sum(self.a) - norm2(combo) / 2
        return upper == lower == self.value


@dataclass(frozen=True)
class PenalisedSVM(_HalfSquaredNorm):
    """(3): value = min_w sup_C 1/2||w||^2 + C sum hinge_i(w), certified by w, a and finite C."""

    w: tuple[Fraction, ...] | None  # None: the value is +infinity
    a: tuple[Fraction, ...]
    c: Fraction | None  # a finite C at which the sup is already attained
    value: Fraction | None

    def check(self, data: Dataset) -> bool:
        if not _valid_weights(data, self.a):
            return False
        combo = _combination(data, self.a)
        if self.w is None:
            # For every w some hinge term is positive (the Gordan certificate a shows no w has
            # all <w, z_i> >= 1), so the sup over C is +infinity.
            return self.value is None and any(self.a) and not any(combo)
        if self.c is None or self.c <= 0 or any(v > self.c for v in self.a):
            return False
        if len(self.w) != data.d:
            return False
        hinge = sum(max(Fraction(0), 1 - m) for m in functional_margins(data, self.w))
        if hinge != 0:  # then the sup over C at this w would be +infinity
            return False
        upper = norm2(self.w) / 2
        lower = sum(self.a) - norm2(combo) / 2  # min_w of the Lagrangian with 0 <= a <= C
        return upper == lower == self.value


@dataclass(frozen=True)
class Formulations:
    """The three certified values; `agree` when they give the same gamma exactly."""

    max_min: MaxMin
    min_norm: MinNorm
    svm: PenalisedSVM

    @property
    def gamma2(self) -> Fraction:
        return self.max_min.gamma2

    @property
    def agree(self) -> bool:
        return self.max_min.gamma2 == self.min_norm.gamma2 == self.svm.gamma2

    def check(self, data: Dataset) -> bool:
        return (
            self.max_min.check(data)
            and self.min_norm.check(data)
            and self.svm.check(data)
            and self.agree
        )


def three_formulations(data: Dataset) -> Formulations:
    """Compute and certify (1), (2) and (3) on `data` (homogeneous: no bias)."""
    from perceptron.geometry.max_margin import NotSeparableError, max_margin

    try:
        result = max_margin(data)
    except NotSeparableError as exc:
        lam = exc.certificate.lam
        total = sum(lam)
        c = tuple(v / total for v in lam)
        return Formulations(
            MaxMin(None, c, Fraction(0)),
            MinNorm(None, lam, None),
            PenalisedSVM(None, lam, None, None),
        )
    if not result.optimal:  # pragma: no cover - only when the exact method hit its cap
        raise ArithmeticError("the maximum margin could not be certified optimal")
    w, a = result.w, result.alpha
    total = sum(a)
    value = norm2(w) / 2
    return Formulations(
        MaxMin(w, tuple(v / total for v in a), result.gamma2),
        MinNorm(w, a, value),
        PenalisedSVM(w, a, max(a), value),
    )
