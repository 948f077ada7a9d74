"""From an approximate LP point to an exact certificate (or nothing).

The LP's answer is only a guide to *which* columns to use. On that support the matching
system `sum x_k column_k == target` is solved exactly over QQ; unknowns the system leaves free
take the LP's values rounded to nearby small fractions. The result is exact by construction,
checked here for nonnegativity, and then still re-checked by the kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from sympy import QQ
from sympy.polys.matrices import DomainMatrix
from sympy.polys.rings import PolyElement

from verify.kernel import Certificate, Product
from verify.search.lp import Multiple, Term
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
    point: tuple[np.ndarray, np.ndarray, float],
    multiplier: tuple[int, ...],
    strict: bool,
) -> Certificate | None:
    """Round an LP point `(term weights, multiple values, scale)` to an exact certificate."""
    weights, free, scale = point
    top = max(float(np.max(np.abs(weights), initial=0.0)), 1.0)
    chosen = [k for k, w in enumerate(weights) if w > SUPPORT_TOLERANCE * top]
    used = [k for k, q in enumerate(free) if abs(q) > SUPPORT_TOLERANCE * top]
    for free_set in (used, list(range(len(multiples)))):
        columns = [terms[k].poly for k in chosen] + [multiples[k].poly for k in free_set]
        guess = [nearby(weights[k] / scale) for k in chosen]
        guess += [nearby(free[k] / scale) for k in free_set]
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
