"""Products of inequality hypotheses, like the degree-2 products of Lean's `nlinarith`.

A product of hypotheses `h_i >= 0` is nonnegative, so it is a free LP column; products of
strict hypotheses without squares are also the strictly positive terms strict claims need.
Multipliers `m` (products of strict hypotheses) let a claim be cleared of a positive factor,
as in `t > 0, t*(R**2 - t*g**2) >= 0  |-  R**2 - t*g**2 >= 0`.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from verify.search.columns import Term
from verify.search.polynomials import Context, degree


def inequality_indices(ctx: Context) -> tuple[int, ...]:
    """Indices of the `>=` and `>` hypotheses, in order."""
    return tuple(sorted(ctx.indices(">=") + ctx.indices(">")))


def hypothesis_products(ctx: Context, max_factors: int, max_degree: int) -> list[Term]:
    """Products of up to `max_factors` inequality hypotheses (with repetition), 1 included.

    Products whose degree exceeds `max_degree` are left out: they could only cancel against
    other high-degree terms, which the LP rarely finds and which blow up its size.
    """
    strict = set(ctx.indices(">"))
    terms: list[Term] = []
    for count in range(max_factors + 1):
        for combo in combinations_with_replacement(inequality_indices(ctx), count):
            poly = ctx.hyp_product(combo)
            if poly and degree(poly) <= max_degree:
                terms.append(Term(combo, (), poly, strict=all(i in strict for i in combo)))
    return terms


def multipliers(ctx: Context, max_factors: int = 2) -> list[tuple[int, ...]]:
    """Candidate multipliers: 1, then each strict hypothesis, then products of two."""
    strict = ctx.indices(">")
    out: list[tuple[int, ...]] = []
    for count in range(max_factors + 1):
        out.extend(combinations_with_replacement(strict, count))
    return out
