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
                charge(ctx.work, len(equality))  # a monomial multiple: the same count of terms
                poly = equality.mul_monom(m.LM)
                out.append(Multiple(j, m, poly))
        ctx.cache[key] = out
    return ctx.cache[key]  # type: ignore[return-value]


def equality_certificate(ctx: Context, max_degree: int) -> Certificate | None:
    """An exact certificate `m * gap == sum q_j e_j` for an equality claim, or None: `m` is 1,
    else one strictly positive hypothesis (a positive factor cancels: `c > 0, c*a == c*b |-
    a == b`; the kernel takes only strict hypotheses as multipliers)."""
    if not ctx.gap:
        return Certificate(products=())
    for factor in (None, *ctx.indices(">")):
        target = ctx.gap if factor is None else ctx.gap * ctx.hyps[factor]
        raised = 0 if factor is None else degree(ctx.hyps[factor])
        multiples = equality_multiples(ctx, max_degree + raised)
        if not multiples:
            return None
        values = exact_solution([m.poly for m in multiples], target, guess=None)
        if values is not None:
            return Certificate(products=(), linear=linear_part(ctx, multiples, values),
                               multiplier=() if factor is None else (factor,))
    return None
