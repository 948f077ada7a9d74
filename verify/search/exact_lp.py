"""The matching LP solved exactly over QQ, for small LPs with wide coefficients.

A float LP cannot see a column that a certificate needs at weight `1e-34` beside others at
weight 1, however its rows and columns are scaled (`1e-34*x + y >= 1e-34 + 1` from `x >= 1,
y >= 1`: in the row of the constant the needed `-1e-34` sits beside `-1`, below any float
tolerance). When an LP has a wide coefficient (`verify.search.lp.wide`) and is small, its
feasibility problem is therefore solved exactly first: phase one of the simplex method on a
dense tableau of Fractions, with Bland's rule (the lowest index enters and, among ties, leaves),
so it terminates and gives the same vertex on any machine. Its answer is exact, so an
infeasible LP is known infeasible and no float LP is tried on those columns. The pivots are
counted against the LP iteration budget. Still untrusted: the kernel checks the certificate.

Unknowns: a weight `w_k >= 0` per `Term`, `q_j = q+_j - q-_j` per `Multiple`, and the target's
scale `c = 1 + c'`, so that `sum w_k T_k + sum q_j M_j == c * target`; for a strict claim the
strict terms' weights add up to at least 1 (the float LP's normalisation, `verify.search.lp`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from sympy.polys.rings import PolyElement

from verify.search.lp import Multiple, Term
from verify.search.polynomials import fraction
from verify.search.work import Work

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
        if pivots >= work.budget.lp_iterations:
            work.lp_iterations_used(pivots, stopped=True)
            return None
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
    work.lp_iterations_used(pivots, stopped=False)
    if -cost[-1] != 0:  # the artificials' least sum is positive: infeasible
        return False
    values = [Fraction(0)] * n_vars
    for i, v in enumerate(basis):
        if v < n_vars:
            values[v] = table[i][-1]
    c = 1 + values[scale]
    weights = [w / c for w in values[:n_terms]]
    free = [(values[n_terms + j] - values[n_terms + n_free + j]) / c for j in range(n_free)]
    return weights, free


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
