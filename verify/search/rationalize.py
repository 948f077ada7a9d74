"""From an approximate LP point to an exact certificate (or nothing).

The LP's answer is only a guide to *which* columns to use. On that support the matching
system `sum x_k column_k == target` is solved exactly over QQ; unknowns the system leaves free
take the LP's values rounded to nearby small fractions. The result is exact by construction,
checked here for nonnegativity, and then still re-checked by the kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from sympy import QQ
from sympy.polys.matrices import DomainMatrix
from sympy.polys.rings import PolyElement

from verify.kernel import Certificate, Product
from verify.search.lp import LpPoint, Multiple, Term, shifted
from verify.search.polynomials import Context, fraction

SUPPORT_TOLERANCE = 1e-7
MAX_DENOMINATOR = 10_000


def nearby(value: float) -> Fraction:
    """A small-denominator fraction near `value` (LP vertices are usually simple rationals)."""
    return Fraction(value).limit_denominator(MAX_DENOMINATOR)


def exact_solution(
    columns: Sequence[PolyElement], target: PolyElement, guess: Sequence[Fraction] | None
) -> list[Fraction] | None:
    """Exact `x` with `sum x_k * columns_k == target`, or None if there is none.

    Unknowns without a pivot are set from `guess` (zero without one), so an underdetermined
    system still yields the solution closest in spirit to the LP's.
    """
    monomials: dict[tuple[int, ...], int] = {}
    for poly in (*columns, target):
        for monomial in poly:
            monomials.setdefault(monomial, len(monomials))
    n = len(columns)
    rows: dict[int, dict[int, object]] = {}
    for k, poly in enumerate(columns):
        for monomial, coeff in poly.items():
            rows.setdefault(monomials[monomial], {})[k] = coeff
    for monomial, coeff in target.items():
        rows.setdefault(monomials[monomial], {})[n] = coeff
    reduced, pivots = DomainMatrix(rows, (len(monomials), n + 1), QQ).rref()
    if n in pivots:
        return None
    values = [Fraction(0) if guess is None else guess[k] for k in range(n)]
    table = reduced.rep
    for row, pivot in enumerate(pivots):
        entries = table.get(row, {})
        value = fraction(entries[n]) if n in entries else Fraction(0)
        for k, coeff in entries.items():
            if k not in (pivot, n) and k not in pivots:
                value -= fraction(coeff) * values[k]
        values[pivot] = value
    return values


def linear_part(
    ctx: Context, multiples: Sequence[Multiple], values: Sequence[Fraction]
) -> tuple[tuple[int, object], ...]:
    """Group the values of equality multiples into one polynomial `q_j` per equality."""
    grouped: dict[int, PolyElement] = {}
    for multiple, value in zip(multiples, values, strict=True):
        if value:
            term = multiple.monomial * QQ(value.numerator, value.denominator)
            grouped[multiple.equality] = grouped.get(multiple.equality, ctx.ring.zero) + term
    return tuple((j, ctx.expr(q)) for j, q in sorted(grouped.items()) if q)


def certificate_from_point(
    ctx: Context,
    target: PolyElement,
    terms: Sequence[Term],
    multiples: Sequence[Multiple],
    point: LpPoint,
    multiplier: tuple[int, ...],
    strict: bool,
) -> Certificate | None:
    """Round an LP point `(term weights, multiple values, scale)` to an exact certificate."""
    import numpy as np  # loaded with the LP that gave the point

    weights, exponents = point.weights, point.exponents
    # a guess is the LP's ratio to the target's scale, un-scaled exactly (`LpPoint`)
    shifts = [e - exponents[-1] for e in exponents[:-1]]
    top = max(float(np.max(np.abs(weights), initial=0.0)), 1.0)
    supports = [SUPPORT_TOLERANCE * top]
    if any(exponents):
        # a scaled LP's unknowns differ in scale by their columns' (`x >= 0, y >= 1e30 |-
        # x*y + y >= 1e30` needs `y - 1e30` at 4.9e-4 beside `x*(y - 1e30)` at 8.4e6 and `x`
        # at 2.7e10): a relative cut can drop a needed column, so every nonzero one is tried
        supports.append(0.0)
    for cut in supports:
        found = _on_support(ctx, target, terms, multiples, point, shifts, cut, multiplier,
                            strict)
        if found is not None:
            return found
    return None


def _on_support(
    ctx: Context,
    target: PolyElement,
    terms: Sequence[Term],
    multiples: Sequence[Multiple],
    point: LpPoint,
    shifts: Sequence[int],
    cut: float,
    multiplier: tuple[int, ...],
    strict: bool,
) -> Certificate | None:
    """The exact certificate on the columns whose LP value exceeds `cut` in magnitude (with
    the multiples so chosen, then with all of them), or None."""
    weights, free, scale, _ = point
    chosen = [k for k, w in enumerate(weights) if w > cut]
    used = [k for k, q in enumerate(free) if abs(q) > cut]
    for free_set in (used, list(range(len(multiples)))):
        columns = [terms[k].poly for k in chosen] + [multiples[k].poly for k in free_set]
        guess = [shifted(nearby(weights[k] / scale), shifts[k]) for k in chosen]
        guess += [shifted(nearby(free[k] / scale), shifts[len(terms) + k]) for k in free_set]
        values = exact_solution(columns, target, guess)
        if values is None:
            continue
        term_values = values[: len(chosen)]
        if any(v < 0 for v in term_values):
            continue
        if strict and not any(
            v > 0 and terms[k].strict for k, v in zip(chosen, term_values, strict=True)
        ):
            continue
        products = tuple(
            Product(v, terms[k].hyps, terms[k].sigma)
            for k, v in zip(chosen, term_values, strict=True)
            if v > 0
        )
        linear = linear_part(ctx, [multiples[k] for k in free_set], values[len(chosen) :])
        return Certificate(products=products, linear=linear, multiplier=multiplier)
    return None


def certificate_from_exact(
    ctx: Context,
    terms: Sequence[Term],
    multiples: Sequence[Multiple],
    weights: Sequence[Fraction],
    free: Sequence[Fraction],
    multiplier: tuple[int, ...],
) -> Certificate:
    """The certificate of an exact LP point (`verify.search.lp.exact_point`): no rounding needed."""
    products = tuple(Product(w, terms[k].hyps, terms[k].sigma)
                     for k, w in enumerate(weights) if w > 0)
    return Certificate(products=products, linear=linear_part(ctx, multiples, free),
                       multiplier=multiplier)
