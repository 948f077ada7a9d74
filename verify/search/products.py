"""Products of inequality hypotheses, like the degree-2 products of Lean's `nlinarith`.

A product of hypotheses `h_i >= 0` is nonnegative, so it is a free LP column; products of
strict hypotheses without squares are also the strictly positive terms strict claims need.
Multipliers `m` (products of strict hypotheses) let a claim be cleared of a positive factor,
as in `t > 0, t*(R**2 - t*g**2) >= 0  |-  R**2 - t*g**2 >= 0`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement

from verify.search.lp import Term, charge
from verify.search.polynomials import Context, degree, fraction


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
                terms.append(product_term(ctx, combo, strict))
        ctx.cache[key] = terms
    return ctx.cache[key]  # type: ignore[return-value]


def product_term(ctx: Context, combo: tuple[int, ...], strict: set[int]) -> Term:
    """The LP column of the product of the hypotheses `combo`, strict when every factor is
    (`strict`: the strict hypotheses' indices). Charged by its factors' term counts before
    it is expanded: a product of large hypotheses is refused by the budget, never built and
    then counted. The one place every family of hypothesis products makes its columns."""
    charge(ctx.work, ctx.product_size(combo))
    return Term(combo, ctx.hyp_product(combo), strict=all(i in strict for i in combo))


def multipliers(ctx: Context, max_factors: int = 2) -> list[tuple[int, ...]]:
    """Candidate multipliers: 1, then each strict hypothesis, then products of two."""
    strict = ctx.indices(">")
    out: list[tuple[int, ...]] = []
    for count in range(max_factors + 1):
        out.extend(combinations_with_replacement(strict, count))
    return out


def sign_atoms(ctx: Context) -> dict[int, int]:
    """The generators whose sign a hypothesis states by itself (`g > 0`, `eta > 0`, a
    natural's `t >= 0`, a case's `t > 0`): generator index -> that hypothesis's index, a
    strict one preferred (only strict factors may clear a claim). A product of such atoms is
    a product of hypotheses, so its sign needs no lemma: the kernel's product rule checks it.
    """
    key = "sign atoms"
    if key not in ctx.cache:
        atoms: dict[int, int] = {}
        for i in inequality_indices(ctx):
            hyp = ctx.hyps[i]
            if len(hyp) != 1:
                continue
            (monomial, coeff), = hyp.items()
            if sum(monomial) != 1 or coeff <= 0:
                continue
            gen = monomial.index(1)
            if gen not in atoms or (ctx.judgement.hypotheses[i].kind == ">"
                                    and ctx.judgement.hypotheses[atoms[gen]].kind != ">"):
                atoms[gen] = i
        ctx.cache[key] = atoms
    return ctx.cache[key]  # type: ignore[return-value]


def _combo(monomial: tuple[int, ...], atoms: dict[int, int]) -> tuple[int, ...]:
    """The hypothesis indices whose product is `monomial` (a monomial in sign atoms)."""
    return tuple(sorted(atoms[gen] for gen, power in enumerate(monomial)
                        for _ in range(power)))


def _sign_part(monomial: tuple[int, ...], atoms: dict[int, int]) -> tuple[int, ...]:
    """`monomial` with every generator that is no sign atom dropped."""
    return tuple(power if gen in atoms else 0 for gen, power in enumerate(monomial))


MAX_SIGN_FACTORS = 4  # atoms in one sign product or multiplier: t*eta**2*g is the largest met
MAX_SIGN_PRODUCTS = 8  # sign products (and as many multipliers) per judgement, first found


def sign_products(ctx: Context) -> list[tuple[int, ...]]:
    """Products of two or more sign atoms that the judgement writes: the sign-atom part of
    each monomial of its hypotheses and claim (`t*eta*g` of `<u,w> - eta*g*t >= 0`), as
    hypothesis indices, in order of first appearance. Each is a fact `t*eta*g >= 0` the
    search may multiply another hypothesis by: `dot(w,u)**2 - (t*eta*g)**2` is
    `(dot(w,u) - t*eta*g)**2 + 2*t*eta*g*(dot(w,u) - t*eta*g)`, a product of four
    hypotheses, beyond the three of `hypothesis_products` (newcomer 23, M1)."""
    atoms = sign_atoms(ctx)
    found: list[tuple[int, ...]] = []
    for poly in (*ctx.hyps, ctx.gap):
        for monomial in sorted(poly.keys()):
            part = _sign_part(monomial, atoms)
            if 2 <= sum(part) <= MAX_SIGN_FACTORS and (combo := _combo(part, atoms)) not in found:
                found.append(combo)
    return found[:MAX_SIGN_PRODUCTS]


def sign_product_terms(ctx: Context, bound: int) -> list[Term]:
    """Columns `M` and `M * h` for each sign product `M` (`sign_products`) and each
    inequality hypothesis `h` that is no sign atom, of degree <= `bound`, each charged as
    `hypothesis_products` charges its own."""
    key = ("sign products", bound)
    if key not in ctx.cache:
        strict = set(ctx.indices(">"))
        atoms = set(sign_atoms(ctx).values())
        others = [i for i in inequality_indices(ctx) if i not in atoms and ctx.hyps[i]]
        terms: list[Term] = []
        for product in sign_products(ctx):
            for combo in (product, *(tuple(sorted((*product, i))) for i in others)):
                if sum(degree(ctx.hyps[i]) for i in combo) > bound:
                    continue
                terms.append(product_term(ctx, combo, strict))
        ctx.cache[key] = terms
    return ctx.cache[key]  # type: ignore[return-value]


def sign_multipliers(ctx: Context, atoms: dict[int, int] | None = None
                     ) -> list[tuple[int, ...]]:
    """Positive factors worth clearing from the claim: monomials `q` in the strictly positive
    sign atoms (or in `atoms`, generator -> hypothesis index) such that `q` times every
    monomial of the claim's gap is a monomial some hypothesis writes, as hypothesis indices
    (a multiplier the kernel accepts: a product of strict hypotheses). `t > 0, eta > 0,
    <w,w> <= t*eta**2*R**2, t**2*eta**2*g**2 <= <w,w> |- R**2 - g**2*t >= 0` gets `t*eta**2`:
    `t*eta**2*(R**2 - g**2*t)` is the sum of the two (newcomer 23, M2): three factors,
    beyond the two of `multipliers`."""
    if atoms is None:
        atoms = {gen: i for gen, i in sign_atoms(ctx).items()
                 if ctx.judgement.hypotheses[i].kind == ">"}
    if not atoms or not ctx.gap:
        return []
    written = {m for hyp in ctx.hyps for m in hyp}
    gap = sorted(ctx.gap.keys())
    found: list[tuple[int, ...]] = []
    for first in gap[:1]:
        for monomial in sorted(written):
            q = tuple(a - b for a, b in zip(monomial, first, strict=True))
            if min(q) < 0 or any(p and gen not in atoms for gen, p in enumerate(q)):
                continue
            if not 1 <= sum(q) <= MAX_SIGN_FACTORS:
                continue
            if all(tuple(a + b for a, b in zip(m, q, strict=True)) in written for m in gap):
                combo = _combo(q, atoms)
                if combo not in found:
                    found.append(combo)
    return found[:MAX_SIGN_PRODUCTS]


def linear_products(ctx: Context, max_degree: int) -> list[Term]:
    """Products of four or five inequality hypotheses, at most two of them of degree above 1
    (the others `g > 0`, `R2 > 0`, `mk - 1 >= 0`, `<x,x> > 0`, `-<th,xb> >= 0`), of degree
    <= `max_degree`, each charged as `hypothesis_products` charges its own.

    `hypothesis_products` multiplies at most three, and `sign_product_terms` only atoms whose
    product the judgement writes. Chan's ratio step (newcomer 29, probe2: `norm2(x) <=
    mk**2*R2, dot(t,x) >= mk*g, mk >= 1, g > 0, R2 > 0 |- R2*dot(t,x)**2 >= g**2*norm2(x)`)
    needs `2*R2*g*mk*[dot(t,x) - mk*g]`, where `mk = [mk - 1] + 1` is signed only by a lower
    bound: the product `[R2]*[g]*[mk - 1]*[h2]` of four; Chan's per-iteration decrease
    (newcomer 31, F5) needs `[R]*[R]*[-<th,xb>]*[mk - 1]*[g]` and `[R]*[R]*[hP]*[hP]` (R
    signed by `R > 0`, written only squared). Degree-1 factors keep the family small and of
    low degree; the degree bound keeps it to a few hundred columns."""
    key = ("linear products", max_degree)
    if key not in ctx.cache:
        strict = set(ctx.indices(">"))
        found = [i for i in inequality_indices(ctx) if ctx.hyps[i]]
        degrees = {i: degree(ctx.hyps[i]) for i in found}
        terms: list[Term] = []
        for count in (4, 5):
            for combo in combinations_with_replacement(found, count):
                if sum(1 for i in combo if degrees[i] > 1) > 2:
                    continue
                if sum(degrees[i] for i in combo) > max_degree:
                    continue
                terms.append(product_term(ctx, combo, strict))
        ctx.cache[key] = terms
    return ctx.cache[key]  # type: ignore[return-value]


@dataclass(frozen=True)
class DerivedSign:
    """`x >= 0` from the equality `e_j`, which reads `sign*e_j == x*p - c` with `c > 0` and
    `p` a sum of products of sign atoms with positive coefficients (`terms`: coefficient,
    hypothesis indices). Then `x = (x**2*p)/c - (sign*x/c)*e_j`, a sum of squares times
    products of hypotheses plus a multiple of an equality: `x >= 0` is no hypothesis, yet a
    certificate using it as one is rewritten into one the kernel checks."""

    gen: int
    equality: int
    sign: int
    c: Fraction
    terms: tuple[tuple[Fraction, tuple[int, ...]], ...]


def derived_signs(ctx: Context) -> list[DerivedSign]:
    """The signs `x >= 0` that an equality `x*p == c` gives (`DerivedSign`), for generators
    `x` that are no sign atom: `e*(t + 1) == 1` with `t >= 0` gives `e >= 0` (newcomer 26,
    F7: a step size `e = 1/(t + 1)` written as that equality). At most one per equality."""
    key = "derived signs"
    if key not in ctx.cache:
        atoms = sign_atoms(ctx)
        found: list[DerivedSign] = []
        for j in ctx.indices("=="):
            poly = ctx.hyps[j]
            zero = (0,) * len(ctx.gens)
            constant = poly.get(zero, 0)
            if not constant:
                continue
            sign = -1 if constant > 0 else 1
            rest = [(m, sign * fraction(c)) for m, c in poly.items() if m != zero]
            for x in sorted({g for m, _ in rest for g, p in enumerate(m) if p}):
                if x in atoms or any(d.gen == x for d in found):
                    continue
                if not all(m[x] == 1 and coeff > 0 and all(
                        g == x or (p and g in atoms) or not p for g, p in enumerate(m))
                        for m, coeff in rest):
                    continue
                terms = tuple(
                    (coeff, _combo(tuple(0 if g == x else p for g, p in enumerate(m)), atoms))
                    for m, coeff in sorted(rest))
                found.append(DerivedSign(x, j, sign, -sign * fraction(constant), terms))
                break
        ctx.cache[key] = found
    return ctx.cache[key]  # type: ignore[return-value]
