"""The two answers to "is it separable through the origin?", each with an exact certificate.

Either a rational `w` with `y_i <w, x_i> > 0` for every example (`Separable`), or a Gordan
certificate: rational `lam >= 0`, not all zero, with `sum_i lam_i y_i x_i = 0`
(`Inseparable`). By Gordan's theorem exactly one of the two exists, so each certificate
proves its answer. For separability with a bias, ask about `data.augmented()`.

The search is untrusted: a float LP (scipy's HiGHS) proposes, its answer is turned into
rationals (the exact binary value of the floats for `w`; the optimal basis solved exactly
for `lam`) and checked exactly. If that fails the exact Lawson–Hanson method of
`perceptron.geometry.max_margin` decides (`perceptron.geometry.separability`), so the answer is
never undecided. This module sits below the maximum margin, whose exact solver returns these
certificates: that is why the decision itself lives one layer up.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from perceptron.dataset import Dataset
from perceptron.geometry.linear import (
    SingularSystem,
    common_denominator,
    float_rows,
    functional_margins,
    scaled_combination,
    scaled_rows,
    solve_integer_system,
)

__all__ = ["Inseparable", "Separable", "quick_separability"]


@dataclass(frozen=True)
class Separable:
    """A strict separator through the origin: `y_i <w, x_i> > 0` for all i."""

    w: tuple[Fraction, ...]
    method: str = field(default="", compare=False)

    separable = True

    def check(self, data: Dataset) -> bool:
        """Exactly: `w` has the data's dimension and classifies every example strictly."""
        if len(self.w) != data.d or not all(type(v) is Fraction for v in self.w):
            return False
        return all(m > 0 for m in functional_margins(data, self.w))


@dataclass(frozen=True)
class Inseparable:
    """A Gordan certificate: `lam >= 0`, not all zero, `sum_i lam_i y_i x_i = 0`."""

    lam: tuple[Fraction, ...]
    reason: str = field(default="", compare=False)
    method: str = field(default="", compare=False)

    separable = False

    def check(self, data: Dataset) -> bool:
        """Exactly: one nonnegative multiplier per example, not all zero, summing to 0."""
        if len(self.lam) != data.n or not all(type(v) is Fraction for v in self.lam):
            return False
        if any(v < 0 for v in self.lam) or not any(v > 0 for v in self.lam):
            return False
        ln, _ = common_denominator(self.lam)
        support = [i for i, v in enumerate(ln) if v]
        coef = [ln[i] * data.y[i] for i in support]
        return not any(scaled_combination(data, support, coef))


def quick_separability(data: Dataset) -> Separable | Inseparable | None:
    """An answer without the exact solver: an obvious Gordan certificate, or the float LP's
    answer once it checks exactly; None when neither settles it."""
    quick = _obvious_gordan(data)
    if quick is not None:
        return quick
    try:
        found = _float_lp(data)
    except Exception:  # pragma: no cover - the float solver is untrusted, in every way
        found = None
    if found is not None and found.check(data):
        return found
    return None


def _obvious_gordan(data: Dataset) -> Inseparable | None:
    """A zero example, or one point with both labels: a certificate with one or two entries.
    Its reason counts examples from 1, as every data message and the certificate's
    `lambda_i` do (newcomer 28: "examples 0 and 3 are the same point" two lines above
    "lambda_1 = 1, lambda_4 = 1")."""
    zero = Fraction(0)
    one = Fraction(1)
    seen: dict[tuple[int, ...], int] = {}
    _, rows = scaled_rows(data)
    for i, (row, yi) in enumerate(zip(rows, data.y, strict=True)):
        x = tuple(row)
        if not any(x):
            lam = [zero] * data.n
            lam[i] = one
            return Inseparable(tuple(lam), reason=f"example {i + 1} is the zero vector",
                               method="zero vector")
        j = seen.get(x)
        if j is not None and data.y[j] != yi:
            lam = [zero] * data.n
            lam[i] = lam[j] = one
            return Inseparable(
                tuple(lam), method="opposite duplicates",
                reason=f"examples {j + 1} and {i + 1} are the same point with opposite labels")
        seen.setdefault(x, i)
    return None


def _float_lp(data: Dataset) -> Separable | Inseparable | None:
    """Untrusted: HiGHS on `y_i <w, x_i> >= 1` (rows scaled), else on its Farkas dual."""
    from scipy.optimize import linprog

    x = float_rows(data)
    y = np.array(data.y, dtype=float)
    a = y[:, None] * x
    # A row may be 0 in float though not exactly (`float_rows` scales `1e309` to 500 bits,
    # and `1` beside it underflows): it stays 0 rather than 0/0 = NaN with numpy's
    # RuntimeWarning on the user's terminal. Any float trouble here is harmless: the LP only
    # proposes, and its separator (every margin) or its Gordan support is checked exactly.
    with np.errstate(all="ignore"):
        norms = np.linalg.norm(a, axis=1)
        norms[norms == 0] = 1.0
        a = a / norms[:, None]
    n, d = a.shape
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # Feasibility with a bounded box keeps the LP bounded; the answer is rescaled anyway.
        res = linprog(np.zeros(d), A_ub=-a, b_ub=-np.ones(n), bounds=[(None, None)] * d,
                      method="highs")
    if res.status == 0 and res.x is not None:
        w = tuple(Fraction(float(v)) for v in res.x)
        return _simplify_separator(data, w)
    if res.status != 2:
        return None
    # Farkas / Gordan: u >= 0, A^T u = 0, sum u = 1.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dual = linprog(np.zeros(n), A_eq=np.vstack([a.T, np.ones((1, n))]),
                       b_eq=np.concatenate([np.zeros(d), [1.0]]), bounds=[(0, None)] * n,
                       method="highs")
    if dual.status != 0 or dual.x is None:
        return None
    support = [i for i in np.argsort(-dual.x) if dual.x[i] > 1e-12]
    lam = _exact_gordan_on_support(data, support)
    return None if lam is None else Inseparable(lam, method="HiGHS basis, solved exactly")


def _simplify_separator(data: Dataset, w: tuple[Fraction, ...]) -> Separable:
    """Prefer a separator with small denominators when one close to the float answer works."""
    scale = max(abs(v) for v in w) or Fraction(1)
    for digits in (10**3, 10**6, 10**9):
        cand = tuple((v / scale).limit_denominator(digits) for v in w)
        if any(cand) and all(m > 0 for m in functional_margins(data, cand)):
            return Separable(cand, method="HiGHS, rounded")
    return Separable(w, method="HiGHS, exact binary value")


def _exact_gordan_on_support(data: Dataset, support: list[int]) -> tuple[Fraction, ...] | None:
    """Solve `sum_{i in S} lam_i y_i x_i = 0, sum lam_i = 1` exactly on the LP's support."""
    if not support:
        return None
    _, rows = scaled_rows(data)
    cols = [[data.y[i] * v for v in rows[i]] + [1] for i in support]  # one column per i in S
    m = len(support)
    # Equations: rows of the (d+1) x m matrix with columns `cols`; choose m independent ones.
    eqs = [[cols[j][k] for j in range(m)] for k in range(data.d + 1)]
    chosen = _independent_rows(eqs, m, must=data.d)
    if chosen is None:
        return None
    a = [eqs[k] for k in chosen]
    b = [1 if k == data.d else 0 for k in chosen]
    try:
        num, den = solve_integer_system(a, b)
    except SingularSystem:
        return None
    lam = [Fraction(0)] * data.n
    for i, v in zip(support, num, strict=True):
        lam[i] = Fraction(v, den)
    return tuple(lam)


def _independent_rows(eqs: list[list[int]], m: int, must: int) -> list[int] | None:
    """`m` rows of `eqs` that are independent (exactly, in Fractions), including row `must`."""
    order = [must] + [k for k in range(len(eqs)) if k != must]
    basis: list[tuple[int, list[Fraction]]] = []  # (pivot column, reduced row)
    chosen: list[int] = []
    for k in order:
        row = [Fraction(v) for v in eqs[k]]
        for col, brow in basis:
            if row[col]:
                f = row[col]
                row = [r - f * b for r, b in zip(row, brow, strict=True)]
        piv = next((c for c, v in enumerate(row) if v), None)
        if piv is None:
            continue
        inv = 1 / row[piv]
        basis.append((piv, [v * inv for v in row]))
        chosen.append(k)
        if len(chosen) == m:
            return chosen
    return None
