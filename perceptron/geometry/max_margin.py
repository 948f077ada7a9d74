"""The certified maximum margin: the hard-margin SVM solved exactly and proved optimal.

Without a bias:    minimise ||w||^2  subject to  y_i <w, x_i> >= 1        for all i;
with a bias b:     minimise ||w||^2  subject to  y_i (<w, x_i> + b) >= 1  for all i
(b is not regularised). The maximum margin is then gamma = 1 / ||w||.

A result is certified optimal by the Karush–Kuhn–Tucker conditions, all checked exactly in
rationals by `MaxMarginResult.check`, independently of how the result was found:

    primal feasibility     y_i (<w, x_i> + b) >= 1 for all i,
    dual feasibility       alpha_i >= 0,
    stationarity           w = sum_i alpha_i y_i x_i   (and sum_i alpha_i y_i = 0 with a bias),
    complementary slackness  alpha_i > 0  =>  y_i (<w, x_i> + b) = 1,

which make (w, b) optimal for this convex problem, so gamma^2 = 1 / ||w||^2 exactly.

How it is found (untrusted, then exact):

1. A float Lawson–Hanson NNLS (scipy.optimize.nnls) on the least-distance form of the problem
   proposes the support vectors (with a bias: on the data augmented by a large constant
   feature, which regularises b only very weakly).
2. An exact Lawson–Hanson method in rationals starts from that support: it solves the
   support's KKT system exactly (integer p-adic lifting), drops multipliers that come out
   nonpositive, adds the most violated constraint, and repeats until the exact optimality
   test passes. The method is finite in exact arithmetic; a step cap bounds its work.
   With a bias it works on the pair constraints `<w, x_i - x_j> >= 2` (i positive, j
   negative), which are equivalent to the original ones with b eliminated.
3. Should the cap be reached, the result is the best exactly verified lower bound on gamma^2
   (from an exactly feasible separator) with `optimal=False`.

The exact solves share one work budget (`max_work`, in limb operations, `SolveBudget`), each
charged its predicted cost before it starts: data whose numbers are huge and tiny at once
(`7e9999` beside `3e-5000`) would otherwise make them run for hours. When it fires,
`WorkLimitError` (a `DataError`) says so and no margin is given, never a wrong one.

If the data are not separable (with a bias: `data.augmented()` is not), `max_margin` raises
`NotSeparableError` carrying a checked Gordan certificate.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from itertools import repeat
from operator import mul

import numpy as np

from perceptron.dataset import Dataset
from perceptron.errors import DataError, WorkLimitError
from perceptron.geometry.linear import (
    DEFAULT_SOLVE_WORK_WHY,
    SingularSystem,
    SolveBudget,
    common_denominator,
    default_solve_work,
    float_rows,
    functional_margins,
    margin2,
    margin_numerators,
    norm2,
    scaled_combination,
    scaled_matrix,
    scaled_rows,
    shared_fractions,
    solve_integer_system,
)
from perceptron.geometry.separators import Inseparable, _obvious_gordan, quick_separability

__all__ = ["MaxMarginResult", "NotSeparableError", "WorkLimitError", "exact_ldp", "max_margin"]


class NotSeparableError(DataError):
    """The data admit no separator; `certificate` is a checked Gordan certificate."""

    def __init__(self, certificate: Inseparable, *, bias: bool = False) -> None:
        self.certificate = certificate
        self.bias = bias
        what = "not separable with a bias" if bias else "not separable through the origin"
        why = f" ({certificate.reason})" if certificate.reason else ""
        super().__init__(f"data {what}{why}")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled by what it is made of (a worker's error reaches the parent whole)."""
        return (partial(NotSeparableError, bias=self.bias), (self.certificate,))


@dataclass(frozen=True)
class MaxMarginResult:
    """A maximum-margin separator with its KKT certificate, or a verified lower bound.

    `optimal=True`: (w, b) solves the hard-margin SVM and `alpha` are its multipliers, so
    `gamma2 = 1/||w||^2` is the maximum squared margin. `optimal=False`: (w, b) is an exactly
    feasible separator and `gamma2` a lower bound on the maximum squared margin (`alpha` may
    then be empty).
    """

    w: tuple[Fraction, ...]
    b: Fraction
    alpha: tuple[Fraction, ...]
    gamma2: Fraction
    optimal: bool
    bias: bool = False
    method: str = field(default="", compare=False)

    @property
    def support(self) -> tuple[int, ...]:
        """Indices with alpha_i > 0: the support vectors."""
        return tuple(i for i, a in enumerate(self.alpha) if a > 0)

    def check(self, data: Dataset) -> bool:
        """Exactly re-verify this result on `data`, trusting nothing about how it was found."""
        try:
            return self._check(data)
        except (TypeError, ValueError, ZeroDivisionError, DataError):
            return False

    def _check(self, data: Dataset) -> bool:
        w, b = self.w, self.b
        if len(w) != data.d or not set(map(type, (*w, b, self.gamma2))) <= {Fraction}:
            return False
        if not self.bias and b != 0:
            return False
        nw = norm2(w)
        if nw == 0:
            return False
        margins, md = margin_numerators(data, w, b)  # margin_i = margins[i] / md, md > 0
        if not self.optimal:
            m = Fraction(min(margins), md)
            return m > 0 and self.gamma2 > 0 and self.gamma2 <= m * m / nw
        alpha = self.alpha
        if len(alpha) != data.n or not set(map(type, alpha)) <= {Fraction}:
            return False
        an, ad = common_denominator(alpha)  # alpha_i = an[i] / ad, ad > 0
        if any(a < 0 for a in an):
            return False
        if any(m < md for m in margins):  # primal feasibility: margin_i >= 1
            return False
        if any(a and m != md for a, m in zip(an, margins, strict=True)):
            return False  # complementary slackness
        if self.bias and sum(map(mul, an, data.y)) != 0:
            return False
        # stationarity: w = sum_i alpha_i y_i x_i, in integers over a common denominator:
        # w_k = (sum_i a_i y_i xint_ik) / (ad * s)  <=>  wn_k * ad * s == wd * sum(...)
        wn, wd = common_denominator(w)
        support = [i for i, a in enumerate(an) if a]
        sums = scaled_combination(data, support, [an[i] * data.y[i] for i in support])
        left = ad * scaled_matrix(data)[0]
        if list(map(mul, wn, repeat(left))) != list(map(mul, sums, repeat(wd))):
            return False
        return self.gamma2 == 1 / nw


# ---------------------------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------------------------


def max_margin(data: Dataset, *, bias: bool = False, max_steps: int | None = 0,
               max_work: int | None = None) -> MaxMarginResult:
    """The certified hard-margin SVM of `data` (with an unregularised bias if `bias`).

    `max_steps` caps the exact Lawson–Hanson steps after the float warm start; 0 (default)
    means a generous automatic cap, None means no cap. `max_work` bounds the work of all its
    exact solves (limb operations, `SolveBudget`; None: `default_solve_work`, linear in the
    size of the data's integer form): past it `WorkLimitError` is raised and no margin is
    given. Raises `NotSeparableError` (with a Gordan certificate) when the data
    are not separable.
    """
    if bias and len(set(data.y)) < 2:
        raise DataError(
            "all examples have the same label: with a free bias every margin is possible, "
            "so there is no maximum margin (ask without a bias, or on data.augmented())"
        )
    quick = _obvious_gordan(data.augmented() if bias else data)
    if quick is not None:
        raise NotSeparableError(quick, bias=bias)
    problem = _Problem(data, bias, "maximum margin", max_work)
    warm, float_w = _float_warm_start(problem)
    if max_steps == 0:
        max_steps = 2 * (data.n + data.d) + 50
    try:
        outcome = problem.solve(warm, max_steps)
    except ArithmeticError:  # pragma: no cover - excluded by Lawson-Hanson's theory
        outcome = None
    if isinstance(outcome, Inseparable):
        raise NotSeparableError(outcome, bias=bias)
    if outcome is not None and outcome.check(data):
        return outcome
    return _lower_bound(problem, float_w, outcome)


def exact_ldp(
    data: Dataset, *, bias: bool = False, max_steps: int | None = None,
    max_work: int | None = None,
) -> MaxMarginResult | Inseparable:
    """The exact Lawson–Hanson method from a cold start: decides separability and, when
    separable, returns the certified maximum margin. Finite; slow only on large data.
    `max_work` bounds its exact solves as in `max_margin` (`WorkLimitError` past it)."""
    return _exact_ldp(_Problem(data, bias, "separability", max_work), max_steps)


def _exact_ldp(problem: _Problem, max_steps: int | None) -> MaxMarginResult | Inseparable:
    outcome = problem.solve([], max_steps)
    if outcome is None:  # pragma: no cover - only with a finite max_steps
        raise RuntimeError("exact Lawson-Hanson hit its step cap")
    return outcome


# ---------------------------------------------------------------------------------------------
# The least-distance problem over implicit generators
# ---------------------------------------------------------------------------------------------


class _Problem:
    """LDP: minimise ||w'||^2 subject to <w', v_k> >= h_k, in integer-scaled coordinates.

    Points are `xint_m = s * x_m`. A generator k is `v_k = sum_m coef_k[m] * xint_m` with a
    small sparse integer `coef_k`: without a bias, `v_i = y_i xint_i` (h = 1); with a bias,
    `v_(i,j) = xint_i - xint_j` for i positive, j negative (h = 2). Then w = s * w'.

    Lawson–Hanson runs on the NNLS form min ||E u - f||, E = [V^T; h^T], f = e_last, with
    the exact state u >= 0 on the passive set P. Its optimality test is g = E^T (f - E u) <= 0,
    g_k = h_k rho - <v_k, r>, with r = V^T u and rho = 1 - h^T u.
    """

    def __init__(self, data: Dataset, bias: bool, what: str, max_work: int | None,
                 budget: SolveBudget | None = None) -> None:
        self.data = data
        self.bias = bias
        self.s, self.rows = scaled_rows(data)
        limit, why = ((default_solve_work(self.rows), DEFAULT_SOLVE_WORK_WHY) if max_work is None
                      else (max_work, "max_work"))
        self.budget = budget or SolveBudget(limit, what=what, why=why, source=data.name)
        self.y = data.y
        self.n = data.n
        self._cols: dict[int, list[int]] = {}
        _s, matrix, big = scaled_matrix(data)  # big = max |v|
        self._np = (matrix if matrix.dtype != object and big * big * max(1, data.d) < 2**62
                    else None)
        self.pos = [i for i in range(self.n) if self.y[i] > 0]
        self.neg = [i for i in range(self.n) if self.y[i] < 0]
        # generators: points i (h = 1), or pairs (i, j) of a positive and a negative (h = 2)
        self.h = 2 if bias else 1

    # -- generators ------------------------------------------------------------------------
    def coef(self, k: object) -> tuple[tuple[int, int], ...]:
        if self.bias:
            i, j = k  # type: ignore[misc]
            return ((i, 1), (j, -1))
        return ((k, self.y[k]),)  # type: ignore[index]

    def gram_col(self, t: int) -> list[int]:
        """The column <xint_m, xint_t> of the point Gram matrix, computed once when needed."""
        col = self._cols.get(t)
        if col is None:
            if self._np is not None:
                col = (self._np @ self._np[t]).tolist()
            else:
                xt = self.rows[t]
                col = [sum(map(mul, r, xt)) for r in self.rows]
            self._cols[t] = col
        return col

    def inner(self, k: object, l_: object) -> int:
        """<v_k, v_l> from the point Gram matrix."""
        return sum(ca * cb * self.gram_col(b)[a]
                   for a, ca in self.coef(k) for b, cb in self.coef(l_))

    def normal_matrix(self, P: Sequence[object]) -> list[list[int]]:
        """E_P^T E_P = <v_k, v_l> + h_k h_l: the normal equations of the LS step on P."""
        hh = self.h * self.h
        m = [[0] * len(P) for _ in P]
        for a, k in enumerate(P):
            for b in range(a, len(P)):
                m[a][b] = m[b][a] = self.inner(k, P[b]) + hh
        return m

    def ls(self, P: Sequence[object]) -> tuple[list[int], int]:
        """The exact least-squares solution z on P: (E_P^T E_P) z = h_P."""
        return solve_integer_system(self.normal_matrix(P), [self.h] * len(P), self.budget)

    def point_coefficients(self, P: Sequence[object], un: Sequence[int]) -> dict[int, int]:
        """C with V^T u * ud = sum_m C_m xint_m."""
        c: dict[int, int] = {}
        for k, uk in zip(P, un, strict=True):
            for m, cm in self.coef(k):
                c[m] = c.get(m, 0) + cm * uk
        return {m: v for m, v in c.items() if v}

    def best(self, P: Sequence[object], un: Sequence[int], ud: int) -> tuple[object, int]:
        """The generator maximising g_k (times ud), and that value."""
        c = self.point_coefficients(P, un)
        rho = ud - self.h * sum(un)  # rho * ud
        idx = list(c)
        cv = [c[m] for m in idx]
        if idx:
            cols = [self.gram_col(t) for t in idx]
            q = [sum(map(mul, vals, cv)) for vals in zip(*cols, strict=True)]
        else:
            q = [0] * self.n
        if self.bias:
            i = min(self.pos, key=lambda t: q[t])
            j = max(self.neg, key=lambda t: q[t])
            return (i, j), self.h * rho - (q[i] - q[j])
        best_k, best_v = None, None
        for m in range(self.n):
            v = rho - self.y[m] * q[m]
            if best_v is None or v > best_v:
                best_k, best_v = m, v
        return best_k, best_v  # type: ignore[return-value]

    # -- Lawson–Hanson ----------------------------------------------------------------------
    def warm(self, P: list[object]) -> tuple[list[object], list[Fraction]]:
        """A valid starting state from a proposed passive set: LS on P with z > 0."""
        seen: set[object] = set()
        P = [k for k in P if not (k in seen or seen.add(k))]
        tries = 0
        while P and tries < 4 * len(P) + 10:
            tries += 1
            try:
                zn, zd = self.ls(P)
            except SingularSystem:
                P = self.independent(P)
                try:
                    zn, zd = self.ls(P)
                except SingularSystem:
                    P = P[:-1]
                    continue
            if all(v > 0 for v in zn):
                return P, [Fraction(v, zd) for v in zn]
            P = [k for k, v in zip(P, zn, strict=True) if v > 0]
        return [], []

    def independent(self, P: list[object]) -> list[object]:
        """A maximal subset of P (in order) whose columns (v_k, h) are independent, mod p."""
        from perceptron.geometry.linear import _PRIMES

        p = _PRIMES[1]
        cols = []
        for k in P:
            v = [0] * (len(self.rows[0]) + 1)
            for m, cm in self.coef(k):
                row = self.rows[m]
                for t, val in enumerate(row):
                    v[t] += cm * val
            v[-1] = self.h
            cols.append([x % p for x in v])
        basis: dict[int, np.ndarray] = {}
        keep = []
        for k, col in zip(P, cols, strict=True):
            vec = np.array(col, dtype=np.int64)
            for piv, bvec in basis.items():
                if vec[piv]:
                    vec = (vec - vec[piv] * bvec) % p
            nz = np.flatnonzero(vec)
            if nz.size == 0:
                continue
            piv = int(nz[0])
            vec = (vec * pow(int(vec[piv]), -1, p)) % p
            basis[piv] = vec
            keep.append(k)
        return keep

    def solve(
        self, warm: list[object], max_steps: int | None
    ) -> MaxMarginResult | Inseparable | None:
        """Exact Lawson–Hanson from `warm`; None if `max_steps` outer steps did not suffice."""
        P, u = self.warm(list(warm)) if warm else ([], [])
        steps = 0
        while True:
            un, ud = common_denominator(u) if u else ([], 1)
            k, gk = self.best(P, un, ud)
            if gk <= 0 or k in P:
                return self.finish(P, u)
            if max_steps is not None and steps >= max_steps:
                return None
            steps += 1
            P = [*P, k]
            u = [*u, Fraction(0)]
            first = True
            while True:
                zn, zd = self.ls(P)  # full column rank: guaranteed by Lawson–Hanson
                z = [Fraction(v, zd) for v in zn]
                if first and z[-1] <= 0:  # pragma: no cover - impossible in exact arithmetic
                    raise ArithmeticError("Lawson-Hanson: the entering multiplier is not positive")
                first = False
                if all(v > 0 for v in z):
                    u = z
                    break
                alpha = min(uk / (uk - zk) for uk, zk in zip(u, z, strict=True) if zk <= 0)
                u = [uk + alpha * (zk - uk) for uk, zk in zip(u, z, strict=True)]
                keep = [t for t, uk in enumerate(u) if uk > 0]
                if len(keep) == len(P):  # pragma: no cover - impossible in exact arithmetic
                    raise ArithmeticError("Lawson-Hanson made no progress")
                P = [P[t] for t in keep]
                u = [u[t] for t in keep]
                if not P:
                    break

    def finish(self, P: list[object], u: list[Fraction]) -> MaxMarginResult | Inseparable:
        """Turn the optimal NNLS state into the SVM solution, or into a Gordan certificate."""
        un, ud = common_denominator(u) if u else ([], 1)
        rho = Fraction(ud - self.h * sum(un), ud)
        c = self.point_coefficients(P, un)  # r * ud = sum_m c_m xint_m
        if rho == 0:
            lam = [Fraction(0)] * self.n
            for m, cm in c.items():
                lam[m] = Fraction(self.y[m] * cm, ud)
            return Inseparable(tuple(lam), method="exact Lawson-Hanson")
        # dual multipliers of the scaled problem: c_k = u_k / rho; alpha = s^2 * (point sums)
        # w = s * w' = s * r / rho;  alpha_m y_m = s^2 c_m / (ud * rho)
        s = self.s
        alpha = [Fraction(0)] * self.n
        for m, cm in c.items():
            alpha[m] = Fraction(self.y[m] * cm * s * s, ud) / rho
        # r * ud = sum_m c_m xint_m, w' = r / rho, w = s * w' (constraints <w', v_k> >= h_k
        # read y_k <s w', x_k> >= 1 since xint = s x); then w = sum_m alpha_m y_m x_m.
        # w_k = (sum_m c_m xint_mk) s / (ud rho): the combination in integers, then one
        # Fraction per distinct value
        idx = list(c)
        combination = scaled_combination(self.data, idx, [c[m] for m in idx])
        w = shared_fractions(combination, s * rho.denominator, ud * rho.numerator)
        b = Fraction(0)
        if self.bias:
            wn, wd = common_denominator(w)
            sc = self.s * wd
            top = min(Fraction(sum(map(mul, wn, self.rows[i])), sc) for i in self.pos)
            b = 1 - top
        nw = norm2(w)
        return MaxMarginResult(
            w=w, b=b, alpha=tuple(alpha), gamma2=1 / nw, optimal=True, bias=self.bias,
            method="exact Lawson-Hanson (KKT verified)",
        )


# ---------------------------------------------------------------------------------------------
# Float warm start and lower bounds
# ---------------------------------------------------------------------------------------------


def _float_warm_start(problem: _Problem) -> tuple[list[object], list[float] | None]:
    """Untrusted: the support proposed by a float NNLS on the least-distance form."""
    from scipy.optimize import nnls

    data = problem.data
    x = float_rows(data)
    y = np.array(data.y, dtype=float)
    radius = float(np.sqrt((x * x).sum(axis=1).max())) or 1.0
    xs = x / radius
    big = 100.0
    if problem.bias:
        xs = np.hstack([xs, np.full((data.n, 1), big)])
    a = y[:, None] * xs
    n, d = a.shape
    e = np.vstack([a.T, np.ones((1, n))])
    f = np.zeros(d + 1)
    f[-1] = 1.0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            u, _ = nnls(e, f, maxiter=50 * n + 100)
    except Exception:  # pragma: no cover - untrusted solver, any failure means no warm start
        return [], None
    if not np.all(np.isfinite(u)):
        return [], None
    r = e @ u - f
    w_float = None
    if abs(r[-1]) > 1e-300:
        w_full = -r[:-1] / r[-1] / radius
        w_float = list(w_full[: data.d])
    order = [int(i) for i in np.argsort(-u) if u[i] > 0]
    if not problem.bias:
        return order, w_float
    # Split the point multipliers into pair multipliers (a transport plan, north-west corner).
    pos = [(i, u[i]) for i in order if data.y[i] > 0]
    neg = [(j, u[j]) for j in order if data.y[j] < 0]
    pairs: list[object] = []
    pi = ni = 0
    pos = [list(t) for t in pos]
    neg = [list(t) for t in neg]
    while pi < len(pos) and ni < len(neg):
        take = min(pos[pi][1], neg[ni][1])
        pairs.append((pos[pi][0], neg[ni][0]))
        pos[pi][1] -= take
        neg[ni][1] -= take
        if pos[pi][1] <= neg[ni][1]:
            pi += 1
        else:
            ni += 1
    return pairs, w_float


def _lower_bound(
    problem: _Problem, float_w: list[float] | None, outcome: MaxMarginResult | None
) -> MaxMarginResult:
    """The best exactly verified lower bound on gamma^2 from the separators at hand."""
    data = problem.data
    candidates: list[tuple[Fraction, ...]] = []
    if outcome is not None:
        candidates.append(outcome.w)
    if float_w is not None and all(math.isfinite(v) for v in float_w):
        candidates.append(tuple(Fraction(v) for v in float_w))
    best: MaxMarginResult | None = None
    for w in candidates:
        res = _feasible_result(data, w, problem.bias)
        if res is not None and (best is None or res.gamma2 > best.gamma2):
            best = res
    if best is None:
        target = data.augmented() if problem.bias else data
        # `separability(target)`, spelled out: that module sits above this one.
        sep = quick_separability(target) or _exact_ldp(
            _Problem(target, False, "separability", None, problem.budget), None)
        if isinstance(sep, Inseparable):
            raise NotSeparableError(sep, bias=problem.bias)
        w = sep.w[: data.d]
        b = sep.w[-1] if problem.bias else Fraction(0)
        best = _feasible_result(data, w, problem.bias, b)
        assert best is not None
    return best


def _feasible_result(
    data: Dataset, w: tuple[Fraction, ...], bias: bool, b: Fraction | None = None
) -> MaxMarginResult | None:
    """(w, b) scaled to functional margin 1 if it separates strictly; b chosen best if bias."""
    if not any(w):
        return None
    if bias and b is None:
        vals = functional_margins(data, w)  # y_i <w, x_i>
        top = min(v for v, yi in zip(vals, data.y, strict=True) if yi > 0)  # min <w,x> on +
        bot = min(v for v, yi in zip(vals, data.y, strict=True) if yi < 0)  # min -<w,x> on -
        b = (bot - top) / 2
    b = b or Fraction(0)
    m = min(functional_margins(data, w, b))
    if m <= 0:
        return None
    w1 = tuple(v / m for v in w)
    b1 = b / m
    g2 = margin2(data, w1, b1)
    return MaxMarginResult(w=w1, b=b1, alpha=(), gamma2=g2, optimal=False, bias=bias,
                           method="lower bound from an exactly feasible separator")
