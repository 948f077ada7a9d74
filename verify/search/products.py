"""Products of inequality hypotheses, like the degree-2 products of Lean's `nlinarith`.

A product of hypotheses `h_i >= 0` is nonnegative, so it is a free LP column; products of
strict hypotheses without squares are also the strictly positive terms strict claims need.
Multipliers `m` (products of strict hypotheses) let a claim be cleared of a positive factor,
as in `t > 0, t*(R**2 - t*g**2) >= 0  |-  R**2 - t*g**2 >= 0`.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from verify.search.lp import Term, charge
from verify.search.polynomials import Context, degree


def inequality_indices(ctx: Context) -> tuple[int, ...]:
    """Indices of the `>=` and `>` hypotheses, in order."""
    return tuple(sorted(ctx.indices(">=") + ctx.indices(">")))


def hypothesis_products(ctx: Context, max_factors: int, max_degree: int) -> list[Term]:
    """Products of up to `max_factors` inequality hypotheses (with repetition), 1 included.

    Products whose degree exceeds `max_degree` are left out: they could only cancel against
    other high-degree terms, which the LP rarely finds and which blow up its size.
    """
    key = ("hypothesis products", max_factors, max_degree)
    if key not in ctx.cache:
        strict = set(ctx.indices(">"))
        degrees = [degree(h) if h else -1 for h in ctx.hyps]  # -1: the zero polynomial
        terms: list[Term] = []
        for count in range(max_factors + 1):
            for combo in combinations_with_replacement(inequality_indices(ctx), count):
                # a product's degree is the sum of its factors' (zero factor: zero product),
                # so oversized products are never expanded
                if any(degrees[i] < 0 for i in combo):
                    continue
                if sum(degrees[i] for i in combo) > max_degree:
                    continue
                # charged by its factors' term counts before it is expanded: a product of
                # large hypotheses is refused by the budget, never built and then counted
                charge(ctx.work, ctx.product_size(combo))
                poly = ctx.hyp_product(combo)
                terms.append(Term(combo, poly, strict=all(i in strict for i in combo)))
        ctx.cache[key] = terms
    return ctx.cache[key]  # type: ignore[return-value]


def multipliers(ctx: Context, max_factors: int = 2) -> list[tuple[int, ...]]:
    """Candidate multipliers: 1, then each strict hypothesis, then products of two."""
    strict = ctx.indices(">")
    out: list[tuple[int, ...]] = []
    for count in range(max_factors + 1):
        out.extend(combinations_with_replacement(strict, count))
    return out
