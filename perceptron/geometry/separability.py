"""Linear separability through the origin, decided with an exact certificate either way.

Either a rational `w` with `y_i <w, x_i> > 0` for every example (`Separable`), or a Gordan
certificate: rational `lam >= 0`, not all zero, with `sum_i lam_i y_i x_i = 0`
(`Inseparable`). By Gordan's theorem exactly one of the two exists, so each certificate
proves its answer. For separability with a bias, ask about `data.augmented()`.

The quick answers (`perceptron.geometry.separators`) come first; when they do not settle it
the exact Lawson–Hanson method of `perceptron.geometry.max_margin` decides, so the answer is
never undecided.
"""

from __future__ import annotations

from perceptron.dataset import Dataset
from perceptron.geometry.max_margin import exact_ldp
from perceptron.geometry.separators import Inseparable, Separable, quick_separability

__all__ = ["Inseparable", "Separable", "separability"]


def separability(data: Dataset) -> Separable | Inseparable:
    """Decide whether some `w` has `y_i <w, x_i> > 0` for all i, with a checked certificate."""
    found = quick_separability(data)
    if found is not None:
        return found
    outcome = exact_ldp(data, bias=False, max_steps=None)
    if isinstance(outcome, Inseparable):
        return outcome
    return Separable(outcome.w, method="exact Lawson-Hanson")
