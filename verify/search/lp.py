"""The LP of the certificate search: its two kinds of column, and the feasibility problem.

A certificate is a combination of columns matching `m * gap` coefficient by coefficient:
`Term`s enter with a weight >= 0 (they are nonnegative under the hypotheses), `Multiple`s of an
equality hypothesis with any sign (they vanish under the hypotheses).

Columns are built by the hundred and few end up in a certificate, so a term's square (a SymPy
object for the certificate) is built only when asked for: the LP needs only `poly`.

The coefficient-matching feasibility LP is untrusted (floating point, HiGHS). Unknowns: a
weight >= 0 per `Term`, a free value per `Multiple`, and a scale `c >= 1` on the target, so
the system `sum w_k T_k + sum q_j M_j - c * target == 0` is homogeneous and any positive
solution can be scaled; for strict claims the strict terms must add up to >= 1. Minimising
the total weight favours sparse supports, which round to rationals more easily.

A user's constants may lie far outside float range or span it (`x >= 1e400`, `x >= 1e-400`,
`1e20*x`): when a coefficient's magnitude is outside `2**-WIDE_BITS .. 2**WIDE_BITS`, the rows
and columns are scaled by powers of two (`equilibrate`), which is exact and reversible, so the
float LP sees entries near 1. The point is returned in the scaled unknowns together with the
columns' exponents; `verify.search.rationalize` un-scales its guesses exactly (a Fraction
times a power of two), so no float ever holds a huge or tiny number. Without a wide
coefficient nothing is scaled and the LP is the one of before, float for float.

The solve is bounded by work, not time: an LP over the size budget is not attempted, and HiGHS
runs its serial dual simplex under an iteration limit (`maxiter`) with no time limit, so the
same input gives the same point whatever the load.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Literal, NamedTuple

from sympy.polys.rings import PolyElement

from verify.kernel import Sos
from verify.search.polynomials import PerElement, degree, fraction
from verify.search.work import TimeCap, Work

if TYPE_CHECKING:
    import numpy as np

# -- the columns -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Term:
    """`prod(hypotheses[i] for i in hyps) * square`, nonnegative; `poly` is its expansion.

    `square` builds the sum-of-squares factor (None: a bare hypothesis product). `strict` marks
    a product of strict hypotheses without squares: the only kind of term that the kernel
    accepts as the strictly positive part of a certificate for a strict claim.
    """

    hyps: tuple[int, ...]
    poly: PolyElement
    strict: bool = False
    square: Callable[[], Sos] | None = None

    @property
    def degree(self) -> int:
        """Total degree of `poly` (0 for the zero polynomial)."""
        return degree(self.poly)

    @cached_property
    def sigma(self) -> tuple[Sos, ...]:
        """The certificate's `sigma` for this term (built on first use)."""
        return () if self.square is None else (self.square(),)


@dataclass(frozen=True)
class Multiple:
    """`monomial * e_j` for the equality hypothesis `j`; enters with a free coefficient."""

    equality: int
    monomial: PolyElement
    poly: PolyElement


Column = Term | Multiple


def charge(work: Work, size: int) -> None:
    """Charge one column of at most `size` terms to the work budget, before it is expanded.

    `size` is a bound known without expanding (the product of its factors' term counts:
    `Context.gram_size`, `Context.product_size`), so a column over the budget is never
    built, and one that cancels to few terms or none still pays for its expansion: the
    budget, not the clock, stops a search whatever the columns turn out to be.
    """
    work.charge("candidates")
    work.charge("terms", size)


# -- the LP -----------------------------------------------------------------------------------

WIDE_BITS = 20
"""A coefficient of magnitude outside `2**-WIDE_BITS .. 2**WIDE_BITS` makes the LP scaled."""

EQUILIBRATION_PASSES = 8
"""Alternating row and column passes of `equilibrate` (a fixed count: deterministic)."""


def _column_floats(poly: PolyElement) -> tuple[tuple[tuple[int, ...], ...], list[float], bool]:
    """A column's monomials, its coefficients in floats (in one order), and whether one is
    wide (outside `2**-WIDE_BITS .. 2**WIDE_BITS`, or beyond float range altogether: then
    its floats are placeholders, as a wide LP is only ever solved scaled)."""
    monomials = tuple(poly)
    try:
        values = [float(c) for c in poly.values()]
    except OverflowError:  # 1e400
        return monomials, [float("inf")] * len(monomials), True
    if not values:
        return monomials, values, False
    magnitudes = [abs(v) for v in values]
    return monomials, values, min(magnitudes) < _LOW or max(magnitudes) > _HIGH


_LOW, _HIGH = 2.0**-WIDE_BITS, 2.0**WIDE_BITS
_floats = PerElement(_column_floats)


def _exponent(value: Fraction) -> int:
    """`floor(log2 |value|)` up to one, from bit lengths (exact integers, no float)."""
    return abs(value.numerator).bit_length() - value.denominator.bit_length()


def shifted(value: Fraction, shift: int) -> Fraction:
    """`value * 2**shift`, exactly: a scaled LP's entries (`_equilibrated`, then rounded
    once to a float) and its point's guesses un-scaled (`verify.search.rationalize`)."""
    if shift >= 0:
        return value * (1 << shift)
    return value / (1 << -shift)


SCALINGS: tuple[str, ...] = ("mean", "max")
"""The two scalings of a wide LP, tried in this order (`equilibrate`)."""


def equilibrate(entries: Sequence[tuple[int, int, int]], n_rows: int, n_cols: int,
                scaling: str) -> tuple[list[int], list[int]]:
    """Power-of-two exponents `(rows, cols)` for the entries `(row, col, exponent)`, each to
    be scaled by `2**(rows[row] + cols[col])`: passes over the rows, then the columns
    (integers only, a fixed number of passes), each shifting a line so that

    * `mean`: the mean of its exponents is 0 (rounded down). Every entry stays visible, so a
      column needed with a weight `1e-400` next to ones of weight 1 (`x >= 1e-400 |- 2*x >=
      1e-400`) keeps a weight the LP can see;
    * `max`: its largest exponent is 0 (Ruiz's max-norm scaling). An entry far below its
      row's largest is then as negligible to the LP as it is in that row's float sum
      (`1e400*x + y >= 1e400 + 1`), where the mean leaves entries near `2**±664`.

    Neither suits every LP (measured on the wide step table of `tests/test_verify/search/
    test_search_wide.py`), so a wide LP is solved under one, then the other; the exact solve
    of `verify.search.rationalize` sees every entry either way."""
    rows, cols = [0] * n_rows, [0] * n_cols

    def shift(shifts: list[int], key: int, other: list[int], other_key: int) -> None:
        high: dict[int, int] = {}
        total: dict[int, int] = {}
        count: dict[int, int] = {}
        for entry in entries:
            i, e = entry[key], entry[2] + other[entry[other_key]]
            high[i] = max(high.get(i, e), e)
            total[i] = total.get(i, 0) + e
            count[i] = count.get(i, 0) + 1
        for i, e in high.items():
            shifts[i] = -e if scaling == "max" else -(total[i] // count[i])

    for _ in range(EQUILIBRATION_PASSES):
        shift(rows, 0, cols, 1)
        shift(cols, 1, rows, 0)
    return rows, cols


ITERATION_LIMIT = 1  # scipy's status for "iteration limit reached"


class LpPoint(NamedTuple):
    """An approximate LP point in the LP's (possibly scaled) unknowns: the weight of a column
    `k` is `weights[k] * 2**exponents[k]` and the target's scale `scale * 2**exponents[-1]`
    (all exponents 0 when the LP was not scaled)."""

    weights: np.ndarray
    free: np.ndarray
    scale: float
    exponents: tuple[int, ...]


@dataclass(frozen=True)
class Lp:
    """One matching LP, assembled (`build_lp`): its entries in floats as `(rows, cols, data)`,
    and whether a coefficient is wide (then `solve` scales it, and the strategy may solve it
    exactly first, `exact_point`)."""

    columns: tuple[PolyElement, ...]  # the terms', the multiples', then `-target`
    terms: Sequence[Term]
    n_free: int
    n_rows: int
    rows: list[int]
    cols: list[int]
    data: list[float]
    strict: bool
    wide: bool

    def solve(self, work: Work, scaling: str = SCALINGS[0]) -> LpPoint | None:
        """An approximate point of the LP, or None; `scaling` is the one a wide LP gets."""
        work.check_guard("an LP")
        import numpy as np  # with SciPy, when an LP is solved (a step without one needs neither)
        from scipy.optimize import linprog  # when an LP is solved (SciPy's import is 0.6 s)
        from scipy.sparse import coo_matrix

        n_terms, n_free = len(self.terms), self.n_free
        n = n_terms + n_free + 1
        data, exponents = self.data, (0,) * n
        if self.wide:
            data, exponents = _equilibrated(self.columns, self.rows, self.cols, self.n_rows, n,
                                            scaling)
        a_eq = coo_matrix((data, (self.rows, self.cols)), shape=(self.n_rows, n)).tocsr()
        cost = np.concatenate([np.ones(n_terms), np.zeros(n_free), [0.0]])
        bounds = [(0.0, None)] * n_terms + [(None, None)] * n_free + [(1.0, None)]
        a_ub = b_ub = None
        if self.strict:
            a_ub = np.array([[-1.0 if t.strict else 0.0 for t in self.terms]
                             + [0.0] * (n_free + 1)])
            b_ub = np.array([-1.0])
        options: dict[str, object] = {"maxiter": work.budget.lp_iterations, "presolve": True}
        if (left := work.seconds_left()) is not None:  # only --time-limit is a clock: one
            options["time_limit"] = left  # solve is handed what is left of it, as an SDP is
        result = linprog(
            cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=np.zeros(self.n_rows), bounds=bounds,
            method="highs-ds", options=options,
        )
        if (result.status == ITERATION_LIMIT and left is not None
                and int(result.nit) < work.budget.lp_iterations):  # stopped by the clock
            raise TimeCap("time cap reached during an LP")
        work.lp_iterations_used(int(result.nit), stopped=result.status == ITERATION_LIMIT)
        if result.status != 0 or result.x is None:
            return None
        x = result.x
        return LpPoint(x[:n_terms], x[n_terms : n_terms + n_free], float(x[-1]), exponents)


def build_lp(
    target: PolyElement,
    terms: Sequence[Term],
    multiples: Sequence[Multiple],
    *,
    strict: bool,
    work: Work,
) -> Lp | None:
    """The LP of `target` over the columns, or None when it is over the size budget or
    plainly infeasible (no strict term for a strict claim, a target monomial no column has)."""
    if strict and not any(t.strict for t in terms):
        return None
    columns = (*(t.poly for t in terms), *(m.poly for m in multiples), -target)
    covered: set[tuple[int, ...]] = set()
    for poly in columns[:-1]:
        covered.update(poly)
    if not work.fits_lp(len(covered.union(target)), len(columns)):
        return None
    if not covered.issuperset(target):
        return None  # a row `-c * coeff == 0` with c >= 1: infeasible, no solver needed
    index: dict[tuple[int, ...], int] = {}
    rows: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    wide = False
    for k, poly in enumerate(columns):
        monomials, values, wide_column = _floats(poly)
        wide = wide or wide_column
        rows += [index.setdefault(monomial, len(index)) for monomial in monomials]
        cols += [k] * len(values)
        data += values
    return Lp(columns, terms, len(multiples), len(index), rows, cols, data, strict, wide)


def _equilibrated(columns: Sequence[PolyElement], rows: Sequence[int], cols: Sequence[int],
                  n_rows: int, n_cols: int, scaling: str
                  ) -> tuple[list[float], tuple[int, ...]]:
    """The LP's entries scaled by powers of two (`equilibrate`), in the order of `rows` and
    `cols`, and the column exponents (the unknowns' scales).

    The bounds need no change: the system is homogeneous, so `scale >= 1` and the strict
    terms' `sum >= 1` only normalise a cone, and they normalise it as well in the scaled
    unknowns (positive multiples of the old ones)."""
    exact = [fraction(c) for poly in columns for c in poly.values()]
    entries = [(i, k, _exponent(v)) for i, k, v in zip(rows, cols, exact, strict=True)]
    row_shift, col_shift = equilibrate(entries, n_rows, n_cols, scaling)
    data = [float(shifted(v, row_shift[i] + col_shift[k]))  # one rounding, of the exact value
            for i, k, v in zip(rows, cols, exact, strict=True)]
    return data, tuple(col_shift)


# -- the same LP, exactly ----------------------------------------------------------------------
#
# `exact_point`: the matching LP solved exactly over QQ, for small LPs with wide coefficients.
#
# A float LP cannot see a column that a certificate needs at weight `1e-34` beside others at
# weight 1, however its rows and columns are scaled (`1e-34*x + y >= 1e-34 + 1` from `x >= 1,
# y >= 1`: in the row of the constant the needed `-1e-34` sits beside `-1`, below any float
# tolerance). When an LP has a wide coefficient (`Lp.wide`) and is small, its
# feasibility problem is therefore solved exactly first: phase one of the simplex method on a
# dense tableau of Fractions, with Bland's rule (the lowest index enters and, among ties, leaves),
# so it terminates and gives the same vertex on any machine. Its answer is exact, so an
# infeasible LP is known infeasible and no float LP is tried on those columns. The pivots are
# counted against the LP iteration budget. Still untrusted: the kernel checks the certificate.
#
# Unknowns: a weight `w_k >= 0` per `Term`, `q_j = q+_j - q-_j` per `Multiple`, and the target's
# scale `c = 1 + c'`, so that `sum w_k T_k + sum q_j M_j == c * target`; for a strict claim the
# strict terms' weights add up to at least 1 (the float LP's normalisation, `Lp.solve`).

EXACT_LP_ENTRIES = 6_000
"""Largest tableau (rows times columns) solved exactly; a larger wide LP gets floats only."""

ExactPoint = tuple[list[Fraction], list[Fraction]]


def exact_point(
    target: PolyElement,
    terms: Sequence[Term],
    multiples: Sequence[Multiple],
    *,
    strict: bool,
    work: Work,
) -> ExactPoint | Literal[False] | None:
    """Exact `(weights, multiple values)` with `sum w T + sum q M == target`, `w >= 0` (and a
    strict term's weight > 0 for a strict claim); False when there is none (exactly); None
    when the LP is over `EXACT_LP_ENTRIES` or the iteration budget stops it."""
    if strict and not any(t.strict for t in terms):
        return False
    index: dict[tuple[int, ...], int] = {}
    for poly in (*(t.poly for t in terms), *(m.poly for m in multiples), target):
        for monomial in poly:
            index.setdefault(monomial, len(index))
    n_terms, n_free = len(terms), len(multiples)
    # variables: w (n_terms), q+ (n_free), q- (n_free), c', then s (strict only)
    n_vars = n_terms + 2 * n_free + 1 + int(strict)
    n_rows = len(index) + int(strict)
    width = n_vars + n_rows + 1  # the artificials, then the right-hand side
    if n_rows * width > EXACT_LP_ENTRIES:
        return None
    table = [[Fraction(0)] * width for _ in range(n_rows)]
    for k, poly in enumerate(t.poly for t in terms):
        for monomial, coeff in poly.items():
            table[index[monomial]][k] = fraction(coeff)
    for j, multiple in enumerate(multiples):
        for monomial, coeff in multiple.poly.items():
            value = fraction(coeff)
            table[index[monomial]][n_terms + j] = value
            table[index[monomial]][n_terms + n_free + j] = -value
    scale = n_terms + 2 * n_free
    for monomial, coeff in target.items():
        value = fraction(coeff)
        table[index[monomial]][scale] = -value  # - c' * target ...
        table[index[monomial]][-1] = value  # ... == target (c = 1 + c')
    if strict:
        row = table[-1]
        for k, term in enumerate(terms):
            row[k] = Fraction(int(term.strict))
        row[scale + 1], row[-1] = Fraction(-1), Fraction(1)
    solved = phase_one(table, n_vars, work.budget.lp_iterations)
    work.lp_iterations_used(solved.pivots, stopped=solved.values is None)
    if solved.values is None or solved.values is False:
        return solved.values
    values = solved.values
    c = 1 + values[scale]
    weights = [w / c for w in values[:n_terms]]
    free = [(values[n_terms + j] - values[n_terms + n_free + j]) / c for j in range(n_free)]
    return weights, free


class PhaseOne(NamedTuple):
    """`phase_one`'s answer: a vertex (False: none exists; None: stopped) and pivots made."""

    values: list[Fraction] | Literal[False] | None
    pivots: int


def phase_one(table: list[list[Fraction]], n_vars: int, limit: int) -> PhaseOne:
    """A vertex `v >= 0` of `table`'s rows read as `sum(row[:n_vars] * v) == row[-1]`, by
    phase one of the simplex method with Bland's rule (the lowest index enters and, among
    ties, leaves: it terminates, on the same vertex on any machine), within `limit` pivots.

    Each row has `n_rows` zero columns before its right-hand side, the artificials' (row `i`'s
    is column `n_vars + i`); the table is changed in place."""
    n_rows, width = len(table), n_vars + len(table) + 1
    for i, row in enumerate(table):
        if row[-1] < 0:
            table[i] = row = [-v for v in row]
        row[n_vars + i] = Fraction(1)
    basis = [n_vars + i for i in range(n_rows)]
    # phase one: minimise the artificials' sum; its reduced costs are minus the row sums
    cost = [-sum((row[v] for row in table), Fraction(0)) for v in range(width)]
    for i in range(n_rows):
        cost[n_vars + i] = Fraction(0)
    pivots = 0
    while True:
        entering = next((v for v in range(width - 1) if cost[v] < 0), None)
        if entering is None:
            break
        if pivots >= limit:
            return PhaseOne(None, pivots)
        leaving = None
        for i, row in enumerate(table):
            if row[entering] > 0:
                ratio = row[-1] / row[entering]
                if leaving is None or (ratio, basis[i]) < leaving[0]:
                    leaving = ((ratio, basis[i]), i)
        if leaving is None:
            break  # unbounded below cannot happen in phase one (the sum is >= 0)
        _pivot(table, cost, leaving[1], entering)
        basis[leaving[1]] = entering
        pivots += 1
    if -cost[-1] != 0:  # the artificials' least sum is positive: infeasible
        return PhaseOne(False, pivots)
    values = [Fraction(0)] * n_vars
    for i, v in enumerate(basis):
        if v < n_vars:
            values[v] = table[i][-1]
    return PhaseOne(values, pivots)


def _pivot(table: list[list[Fraction]], cost: list[Fraction], row: int, column: int) -> None:
    """Make `column` basic in `row` (Gauss-Jordan on the tableau and the cost row)."""
    pivot_row = table[row]
    inverse = 1 / pivot_row[column]
    pivot_row[:] = [v * inverse for v in pivot_row]
    nonzero = [v for v, value in enumerate(pivot_row) if value]
    for other in (*table, cost):
        if other is pivot_row:
            continue
        factor = other[column]
        if factor:
            for v in nonzero:
                other[v] -= factor * pivot_row[v]
