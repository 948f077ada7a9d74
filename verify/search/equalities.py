"""Multipliers of equality hypotheses (the `q_j * e_j` part of a certificate), polyrith-style.

Each equality `e_j == 0` contributes free LP columns `monomial * e_j` for every monomial up to
a degree bound; for an equality claim no LP is needed at all: `gap == sum q_j e_j` is a linear
system in the unknown coefficients of the `q_j`, solved exactly over QQ.
"""

from __future__ import annotations

from verify.kernel import Certificate
from verify.search.lp import Multiple, charge
from verify.search.polynomials import Context, degree
from verify.search.rationalize import exact_solution, linear_part


def equality_multiples(ctx: Context, max_degree: int) -> list[Multiple]:
    """`monomial * e_j` for each equality hypothesis and monomial keeping degree <= bound."""
    key = ("equality multiples", max_degree)
    if key not in ctx.cache:
        out: list[Multiple] = []
        for j in ctx.indices("=="):
            equality = ctx.hyps[j]
            room = max_degree - degree(equality)
            if not equality or room < 0:
                continue
            for m in ctx.monomials(room):
                poly = equality.mul_monom(m.LM)
                charge(ctx.work, poly)
                out.append(Multiple(j, m, poly))
        ctx.cache[key] = out
    return ctx.cache[key]  # type: ignore[return-value]


def equality_certificate(ctx: Context, max_degree: int) -> Certificate | None:
    """An exact certificate `gap == sum q_j e_j` for an equality claim, or None."""
    if not ctx.gap:
        return Certificate(products=())
    multiples = equality_multiples(ctx, max_degree)
    if not multiples:
        return None
    values = exact_solution([m.poly for m in multiples], ctx.gap, guess=None)
    if values is None:
        return None
    return Certificate(products=(), linear=linear_part(ctx, multiples, values))
