"""The Novikoff bound: at most `R^2 / gamma^2` updates, written once for every caller.

`R^2 = max_i ||x_i||^2` and `gamma` is the margin of a unit separator; for a separator `u` of
any length with `gamma_u = min_i y_i <u, x_i> > 0`, `gamma^2 = gamma_u^2 / ||u||^2`. The tight
families, the adversary, the teaching plot, `check_run`, `check_implementation` and
`novikoff bound` all state this bound; they compute it here, so they cannot disagree.
"""

from __future__ import annotations

from fractions import Fraction

from perceptron.dataset import Dataset
from perceptron.geometry.linear import radius2
from perceptron.geometry.max_margin import NotSeparableError, max_margin

__all__ = ["NovikoffBound", "mistake_bound", "normalised_margin2", "novikoff_bound"]


def normalised_margin2(gamma_u: Fraction, u_norm2: Fraction) -> Fraction:
    """`gamma^2 = gamma_u^2 / ||u||^2`: the squared margin of the unit separator `u / ||u||`."""
    return gamma_u**2 / u_norm2


def mistake_bound(R2: Fraction, gamma2: Fraction) -> Fraction:
    """`R^2 / gamma^2`, with `gamma^2` the squared margin of a unit separator."""
    return R2 / gamma2


def margin_bound(R2: Fraction, gamma2: Fraction, beta: Fraction) -> Fraction:
    """`(R^2 + 2 beta) / gamma^2`: the updates of the margin perceptron at `beta`
    (`perceptron.algorithms.margin`; each update adds at most `R^2 + 2 beta` to `||w||^2`)."""
    return (R2 + 2 * beta) / gamma2


class NovikoffBound:
    """`gamma2` and `bound` for a record that has `R2`, `gamma_u` and `u_norm2` (fields or
    properties): the tight families, the adversary's sequences and the teaching plot's series
    inherit them instead of each writing the formula again."""

    R2: Fraction
    gamma_u: Fraction
    u_norm2: Fraction

    @property
    def gamma2(self) -> Fraction:
        """The squared margin of the unit separator `u / ||u||`: `gamma_u^2 / <u, u>`."""
        return normalised_margin2(self.gamma_u, self.u_norm2)

    @property
    def bound(self) -> Fraction:
        """Novikoff's bound `R^2 / gamma^2` on the number of updates."""
        return mistake_bound(self.R2, self.gamma2)


def novikoff_bound(data: Dataset, *, bias: bool = False) -> Fraction | None:
    """R^2 / gamma^2 for the perceptron on `data`, or None when the data are not separable.

    With `bias=True` the perceptron runs on the augmented data (a constant 1 appended), and
    the theorem applies there: R^2 and gamma^2 are those of `data.augmented()`, the bias being
    one more coordinate of the separator. gamma^2 is the certified maximum margin when the
    certificate verifies, otherwise a verified lower bound on it (so the bound is still valid,
    only possibly not the tightest).
    """
    d = data.augmented() if bias else data
    try:
        result = max_margin(d)
    except NotSeparableError:
        return None
    return mistake_bound(radius2(d), result.gamma2)
