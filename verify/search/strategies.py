"""Certificate search strategies, cheapest first; each yields exact candidate certificates.

Every candidate is exact (rationalised) but still untrusted: the prover hands each one to the
kernel and keeps looking if it is rejected. A strategy's work is charged to `ctx.work`; when
a budget runs out, `Exhausted` ends the search for certificates (never a clock).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from math import prod
from typing import TYPE_CHECKING, ClassVar

from sympy.polys.rings import PolyElement

from proofs.language.terms import Vec
from verify import kernel
from verify.kernel import Certificate, Fact, NormSquare, Product, Square
from verify.kernel import atoms as atoms_
from verify.search.equalities import equality_certificate, equality_multiples
from verify.search.lp import SCALINGS, Multiple, Term, build_lp, charge, exact_point
from verify.search.polynomials import Context, Hint, degree, rational
from verify.search.products import (
    DerivedSign,
    derived_signs,
    hypothesis_products,
    linear_products,
    multipliers,
    sign_atoms,
    sign_multipliers,
    sign_product_terms,
    sign_products,
)
from verify.search.rationalize import certificate_from_exact, certificate_from_point
from verify.search.sos import (
    common_square,
    cross_scaled_squares,
    diagonal_grams,
    difference_scaled_norms,
    dsos_squares,
    gram_minors,
    half_basis,
    hint_squares,
    ldlt_squares,
    norm_scales,
    norm_squares,
    scaled,
    scaled_squares,
    weighted,
    zero_norm_vectors,
)
from verify.search.work import Work
from verify.verdict import Stop

if TYPE_CHECKING:
    import sympy

    from verify.search.sdp.problem import Problem


class Strategy(ABC):
    """A named way of producing candidate certificates for one judgement."""

    name: ClassVar[str] = "strategy"

    def applies(self, ctx: Context) -> bool:
        """Whether the strategy can say anything about this claim kind."""
        return ctx.judgement.claim.kind != "=="

    @abstractmethod
    def candidates(self, ctx: Context) -> Iterator[Certificate]:
        """Exact (but unchecked) certificates, best first, charging `ctx.work`."""


class EqualityClaim(Strategy):
    """`gap == sum q_j e_j`: an exact linear solve; the only certificate shape for `==`."""

    name = "equality multipliers"

    def applies(self, ctx: Context) -> bool:
        return ctx.judgement.claim.kind == "=="

    def candidates(self, ctx: Context) -> Iterator[Certificate]:
        bound = max([degree(ctx.gap), *(degree(h) for h in ctx.hyps)])
        for extra in (0, 1):
            certificate = equality_certificate(ctx, bound + extra)
            if certificate is not None:
                yield certificate
                return


def _target(ctx: Context, multiplier: tuple[int, ...]) -> PolyElement:
    """`m * gap` for the multiplier `m` (a product of strict hypotheses), charged to the
    terms budget by its factors' term counts before it is expanded."""
    ctx.work.charge("terms", ctx.product_size(multiplier) * len(ctx.gap))
    if not ctx.gap:
        return ctx.ring.zero  # nothing to expand (and the multiplier is not built for it)
    return ctx.hyp_product(multiplier) * ctx.gap


class LpStrategy(Strategy):
    """Columns handed to the matching LP, for `m * gap` with each candidate multiplier `m`.

    The degree bound on all columns is the target's degree, raised (up to `max_bound`) to
    `factors` times the largest hypothesis degree so that products of hypotheses fit.
    """

    factors: ClassVar[int] = 1
    max_bound: ClassVar[int] = 4  # the cap of the raised bound (a target keeps its own degree)

    @abstractmethod
    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        """The nonnegative columns for `target`, each of degree <= `bound`."""

    def degree_bound(self, ctx: Context, target: PolyElement) -> int | None:
        """The degree bound on the columns for `target`; None skips the round."""
        return _bound(ctx, target, self.factors, self.max_bound)

    def atoms(self, ctx: Context, bound: int) -> tuple[list[Term], list[Multiple]]:
        """Columns beyond the degree bound, taken whole (none by default)."""
        del ctx, bound
        return [], []

    def multipliers(self, ctx: Context) -> list[tuple[int, ...]]:
        """The multipliers `m` tried, in order (`products.multipliers` by default)."""
        return multipliers(ctx)

    def candidates(self, ctx: Context) -> Iterator[Certificate]:
        strict = ctx.judgement.claim.kind == ">"
        for multiplier in self.multipliers(ctx):
            target = _target(ctx, multiplier)  # one round: its target, then its LP
            bound = self.degree_bound(ctx, target)
            if bound is None:
                continue
            terms = self.columns(ctx, target, bound)
            multiples = equality_multiples(ctx, bound)
            extra_terms, extra_multiples = self.atoms(ctx, bound)
            terms, multiples = [*terms, *extra_terms], [*multiples, *extra_multiples]
            lp = build_lp(target, terms, multiples, strict=strict, work=ctx.work)
            if lp is None:
                continue
            # a wide LP is solved exactly when it is small (`verify.search.lp.exact_point`), else
            # under one scaling, then the other (`verify.search.lp.equilibrate`); any other LP
            # is solved once in floats, as it always was
            scalings = SCALINGS[:1]
            if lp.wide:
                exact = exact_point(target, terms, multiples, strict=strict, work=ctx.work)
                if exact is False:
                    continue  # exactly infeasible: no float LP can do better
                if exact is not None:
                    yield certificate_from_exact(ctx, terms, multiples, *exact, multiplier)
                    continue
                scalings = SCALINGS
            for scaling in scalings:
                point = lp.solve(ctx.work, scaling)
                if point is None:
                    continue
                found = certificate_from_point(
                    ctx, target, terms, multiples, point, multiplier, strict
                )
                if found is not None:
                    yield found
                    break


def _bound(ctx: Context, target: PolyElement, factors: int, most: int) -> int:
    """`target`'s degree, raised up to `most` to `factors` times the largest hypothesis
    degree, so that products of hypotheses fit."""
    reach = max((factors * degree(h) for h in ctx.hyps), default=0)
    return max(degree(target), min(reach, most))


class LinearCombination(LpStrategy):
    """Nonnegative combinations of the hypotheses themselves (Lean's `linarith`)."""

    name = "linear combination"

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        return hypothesis_products(ctx, 1, bound)

    def atoms(self, ctx: Context, bound: int) -> tuple[list[Term], list[Multiple]]:
        """Hypotheses (and equalities, times constants) of degree above `bound`: linear
        reasoning treats their monomials as atoms, as linarith does, so `x <= a**5,
        a**5 <= 1 |- x <= 1` needs no degree bound (issue 28, item 2). Within the bound
        the columns are those of before, so no verdict below it changes."""
        top = max((degree(h) for h in ctx.hyps), default=0)
        if top <= bound:
            return [], []
        high = [t for t in hypothesis_products(ctx, 1, top) if t.degree > bound]
        multiples = [Multiple(j, ctx.ring.one, ctx.hyps[j]) for j in ctx.indices("==")
                     if degree(ctx.hyps[j]) > bound]
        return high, multiples


class HypothesisProducts(LpStrategy):
    """Products of up to three hypotheses, Gram minors, norm squares, hints (`nlinarith`)."""

    name = "hypothesis products"
    factors = 2

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        return [
            *hypothesis_products(ctx, 3, bound),
            *gram_minors(ctx, bound),
            *norm_squares(ctx, bound),
            *hint_squares(ctx, bound),
        ]


class WeightedSquares(HypothesisProducts):
    """Adds DSOS squares of the target's monomials and hypotheses times squares."""

    name = "weighted squares"

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        base = super().columns(ctx, target, bound)
        dsos = dsos_squares(ctx, target)
        if len(half_basis(ctx, target)) <= 1:  # the target's Newton box has no squares
            dsos += self.hypothesis_squares(ctx, bound, {id(t) for t in dsos})
        squares = [t for t in base if t.square is not None] + dsos
        factors = hypothesis_products(ctx, 1, bound)
        return [*base, *dsos, *weighted(ctx, squares, factors, bound)]

    @staticmethod
    def hypothesis_squares(ctx: Context, bound: int, seen: set[int]) -> list[Term]:
        """Squares over the half bases of the hypotheses, for a target too small to have
        squares of its own (the `0` of a refutation form): in `t > 0, t*t + y*y == 0 |- 0 > 0`
        the certificate `t*t + y**2 - (t*t + y*y)` needs the square `y**2` the equality
        brings, beside the product `t*t` of the strict hypothesis with itself (and likewise
        `-x*x - y*y >= 0, y > 0 |- 0 > 0` with the hypothesis as a column). Also the squares
        `(m_i ± m_j)**2` of the generators, weighted by hypotheses: the target `xy + xz + yz
        - 3xyz` (sos.ml 1643) has no square in its Newton box, yet its certificate holds
        `x*(y - z)**2`."""
        linear = sum((ctx.gens[i] ** 2 for i in ctx.used), ctx.ring.zero)
        out: list[Term] = []
        for poly in (*ctx.hyps, linear):
            for term in dsos_squares(ctx, poly):
                if term.degree <= bound and id(term) not in seen:
                    seen.add(id(term))
                    out.append(term)
        return out


class SignProducts(HypothesisProducts):
    """`hypothesis products` with the signs of products of sign-known atoms.

    An atom whose sign a hypothesis states by itself (`g > 0`, `eta > 0`, a natural's
    `t >= 0`) makes every product of such atoms a fact the kernel's product rule checks, but
    `hypothesis products` multiplies at most three hypotheses and clears at most two: with a
    learning rate the textbook steps need four (`t*eta*g` times a hypothesis) and clear three
    (`t*eta**2`). So this strategy adds the products of atoms the judgement writes as
    columns, alone and times each other hypothesis (`products.sign_product_terms`), and
    tries as multipliers the products of strictly positive atoms that carry the claim's
    monomials onto the hypotheses' (`products.sign_multipliers`). It comes after the cheaper
    strategies, so no certificate they find changes; it does nothing on a judgement without
    such products."""

    name = "sign products"

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and bool(sign_products(ctx) or sign_multipliers(ctx))

    def multipliers(self, ctx: Context) -> list[tuple[int, ...]]:
        return [(), *sign_multipliers(ctx)]

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        return [*super().columns(ctx, target, bound), *sign_product_terms(ctx, bound)]


class ScaledSquares(WeightedSquares):
    """`weighted squares` with its vector squares times the square of a monomial of scalars
    that divides the whole target (`sos.common_square`).

    `c**2*|w - x|^2 >= 0`, `norm2(c*w - c*x) >= 0` and `c**2*<w,x>**2 <= c**2*|w|^2*|x|^2`
    were unknown: the pools hold `|w - x|^2` and the Gram minor of (w, x), but no multiple of
    them by `c**2` (a hypothesis may weight a square, a square may not). This strategy adds
    those multiples as squares of their own (`|c*w - c*x|^2`, the minor of (c*w, x)), alone
    and times each hypothesis. It applies only when the gap has such a factor, and comes
    after the strategies before it, so no certificate they find changes."""

    name = "scaled squares"

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and common_square(ctx, ctx.gap) != ctx.ring.one

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        m = common_square(ctx, target)
        reach = bound - degree(m ** 2)
        pool = [*norm_squares(ctx, reach), *gram_minors(ctx, reach), *hint_squares(ctx, reach)]
        scaled = scaled_squares(ctx, pool, m, bound)
        return [*super().columns(ctx, target, bound), *scaled,
                *weighted(ctx, scaled, hypothesis_products(ctx, 1, bound), bound)]


class NormProducts(HypothesisProducts):
    """`hypothesis products` with squared norms `<v,v>` (of each vector name and each vector
    hint) and Gram minors (Cauchy–Schwarz) weighted by products of up to two inequality
    hypotheses and by the sign products the judgement writes (`sign_product_terms`).

    `eta > 0, R2 >= 0 |- 0 <= eta*R2*norm2(u)` was unknown at every budget (newcomer 28,
    F1): its certificate is the one product `[eta > 0]*[R2 >= 0]*|u|^2`, but `weighted
    squares` weights a square by one hypothesis only, `sign products` adds no squares and
    the SDP's multipliers are single hypotheses. The scalar `eta*R2*y**2` was proved only
    by the detour of clearing `eta` and squaring `y*eta`, which a Gram symbol has no
    counterpart of. This is the shape of every bound with a separator that is not
    normalised (`(eta*R2 + 2*beta)*norm2(u)`). The columns are few (factors times vectors
    and Gram minors), the strategy applies only when the judgement writes a squared norm,
    and it comes after the strategies before it, so no certificate they find changes; it
    comes before the SDP, which it spares on such steps (no shipped certificate is the
    SDP's: the store and the audit JSON are unchanged)."""

    name = "products with squared norms"

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and bool(diagonal_grams(ctx) & _written(ctx))

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        squares = [t for t in norm_squares(ctx, bound) if len(t.poly) == 1]
        squares += gram_minors(ctx, bound)
        squares += [t for t in hint_squares(ctx, bound) if isinstance(t.square and t.square(),
                                                                     NormSquare)]
        factors = [*hypothesis_products(ctx, 2, bound)]  # a copy: that list is cached
        seen = {t.hyps for t in factors}
        factors += [t for t in sign_product_terms(ctx, bound) if t.hyps not in seen]
        return [*super().columns(ctx, target, bound), *weighted(ctx, squares, factors, bound)]


class HigherDegree(WeightedSquares):
    """`weighted squares` with its columns' degree bound raised from 4 to 6, in the rounds
    where that bound was below what products of two hypotheses reach.

    `norm2(x) <= m**2*R2, dot(u, x)**2 >= m**2*g**2, R2 > 0 |- R2*dot(u, x)**2 >=
    g**2*norm2(x)` (Chan's ratio step, newcomer 29 F1) was unknown at every budget: its
    certificate `R2*[h2] + g**2*[h1]` (a product of two hypotheses, and a hypothesis weighted
    by a square) has columns of degree 5, past the bound of 4 that keeps the earlier LPs
    small, though each half alone was proved. A round whose bound this does not raise was
    already tried, and is skipped. It comes after the strategies before it, so no
    certificate they find changes, and before the SDP (no shipped certificate is the SDP's).
    """

    name = "higher-degree products"
    max_bound = 6

    def degree_bound(self, ctx: Context, target: PolyElement) -> int | None:
        bound = super().degree_bound(ctx, target)
        return bound if bound > _bound(ctx, target, self.factors, LpStrategy.max_bound) else None


class CrossScaledSquares(WeightedSquares):
    """`weighted squares` with norm squares scaled on both sides, `|c*a ± d*b|^2`
    (`sos.cross_scaled_squares`), for the scalars the target writes beside a squared norm.

    `(<w,u> + b*c)**2 <= (|w|^2 + b**2)*(|u|^2 + c**2)` (the Cauchy–Schwarz of a perceptron
    with a bias) was unknown without a hint at every budget (newcomer 27): its certificate
    is the Gram minor of (w, u) plus `|c*w - b*u|^2`, and the pools scale one vector only
    (`|w - c*u|^2`), while its SDP is over the size budget. It applies only when such
    squares exist, and comes after the strategies before it, so no certificate they find
    changes; it comes before the SDP, which it spares on such steps."""

    name = "cross-scaled norm squares"

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and bool(cross_scaled_squares(ctx, ctx.gap, degree(ctx.gap)))

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        return [*super().columns(ctx, target, bound), *cross_scaled_squares(ctx, target, bound)]


class LinearProducts(HypothesisProducts):
    """`hypothesis products` with products of four or five hypotheses, at most two of degree
    above 1 (`products.linear_products`), under a degree bound raised up to 6, for the claim
    alone and cleared of each strict hypothesis.

    Chan's ratio step as a TA first writes it (newcomer 29, probe2: `norm2(x) <= mk**2*R2,
    dot(t,x) >= mk*g, mk >= 1, g > 0, R2 > 0 |- R2*dot(t,x)**2 >= g**2*norm2(x)`) was
    unknown at every budget: its certificate `R2*[h2]**2 + 2*R2*g*[mk - 1]*[h2] +
    2*R2*g*[h2] + g**2*[h1]` (h2 = `dot(t,x) - mk*g`) holds a product of four hypotheses,
    since `mk` is signed only by its lower bound (`mk = [mk - 1] + 1`), and has degree 5.
    Chan's per-iteration decrease (newcomer 31, F5) needs five, cleared of `norm2(xb) > 0`.
    It applies only with three degree-1 inequality hypotheses; no squares are weighted (the
    strategies before tried those). It comes after the strategies before it, so no
    certificate they find changes, and before the SDP."""

    name = "products of four or five hypotheses"
    max_bound = 6

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and sum(
            1 for i in (*ctx.indices(">="), *ctx.indices(">"))
            if ctx.hyps[i] and degree(ctx.hyps[i]) == 1) >= 3

    def multipliers(self, ctx: Context) -> list[tuple[int, ...]]:
        return [(), *((i,) for i in ctx.indices(">"))]

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        return [*super().columns(ctx, target, bound), *linear_products(ctx, bound)]


class DerivedSigns(Strategy):
    """`weighted squares` (whose columns hold those of `linear combination` and `hypothesis
    products`) on the judgement with the signs `x >= 0` that its equalities give
    (`products.derived_signs`) added as hypotheses; each certificate found is rewritten
    (`_lifted`) into one of the judgement itself, which the kernel checks. (Running the four
    strategies up to `sign products` cost an unknown step 1.4-1.5x main's CPU, this one
    about 1.25x.)

    Newcomer 26's induction (F7: `(t + 1)*norm2(w) <= 2*t*R2` over the update `w + e*y*x`
    with `e*(t + 1) == 1`) was unknown at every budget: its step needs `e >= 0`, which no
    hypothesis states; it is `e = (t + 1)*e**2 - e*[e*(t + 1) - 1]`, a square times a
    hypothesis product plus a multiple of the equality. With `e >= 0` added `weighted
    squares` proves it at once. It applies only when an equality gives such a sign, after
    the strategies before it (so no certificate they find changes) and before the SDP."""

    name = "signs from equalities"
    INNER: ClassVar[tuple[Strategy, ...]] = (WeightedSquares(),)

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and bool(derived_signs(ctx))

    def candidates(self, ctx: Context) -> Iterator[Certificate]:
        signs = derived_signs(ctx)
        first = len(ctx.judgement.hypotheses)
        extra = tuple(Fact(ctx.symbols[d.gen], ">=") for d in signs)
        wide = Context(replace(ctx.judgement, hypotheses=(*ctx.judgement.hypotheses, *extra)),
                       (*ctx.scalar_hints, *ctx.vector_hints), ctx.work)
        for strategy in self.INNER:
            if strategy.applies(wide):
                for certificate in strategy.candidates(wide):
                    yield _lifted(ctx, certificate, dict(enumerate(signs, first)))


def _lifted(ctx: Context, certificate: Certificate, signs: dict[int, DerivedSign]
            ) -> Certificate:
    """`certificate`, of the judgement with the derived signs added as the hypotheses
    `signs` indexes, as one of the judgement itself, each sign rewritten in turn
    (`_lifted_sign`)."""
    facts = {i: ctx.symbols[d.gen] for i, d in signs.items()}
    for index, sign in signs.items():
        certificate = _lifted_sign(ctx, certificate, index, sign, facts)
    return certificate


def _lifted_sign(ctx: Context, certificate: Certificate, index: int, sign: DerivedSign,
                 facts: dict[int, sympy.Expr]) -> Certificate:
    """`certificate` with the hypothesis `index` (`x >= 0`, derived by `sign`) gone: a
    product holding it k times is `x**k` times the rest; for k even that is the square of
    `x**(k/2)` weighting the rest, for k odd `x**k = x**(k+1)*p/c - sign*x**k*e_j/c`
    (`DerivedSign`): the products of the sign atoms of `p` weighted by the square of
    `x**((k+1)/2)`, and a multiple of the equality. An exact identity, so the multiplier and
    the rest of the certificate are unchanged. (`facts`: the derived hypotheses' expressions,
    which the judgement's own list does not hold.)"""
    products: list[Product] = []
    linear: dict[int, sympy.Expr] = dict(certificate.linear)
    x = ctx.symbols[sign.gen]
    for product in certificate.products:
        k = product.hyps.count(index)
        if not k:
            products.append(product)
            continue
        rest = tuple(i for i in product.hyps if i != index)
        half = x ** ((k + 1) // 2)
        sigma = tuple(scaled(s, half) for s in product.sigma) or (Square(Fraction(1), half),)
        if k % 2 == 0:
            products.append(replace(product, hyps=rest, sigma=sigma))
            continue
        for coeff, combo in sign.terms:
            products.append(Product(product.coeff * coeff / sign.c,
                                    tuple(sorted((*rest, *combo))), sigma))
        squares = sum((ctx.sos(s) for s in product.sigma), ctx.ring.zero)
        value = prod((facts[i] if i in facts else ctx.judgement.hypotheses[i].expr
                      for i in rest), start=ctx.expr(squares) if product.sigma else 1)
        q = -sign.sign * rational(product.coeff / sign.c) * x ** k * value
        linear[sign.equality] = linear.get(sign.equality, 0) + q
    return replace(certificate, products=tuple(products),
                   linear=tuple(sorted(linear.items())))


class DifferenceProducts(NormProducts):
    """`hypothesis products` with the squared sums and differences of two vector names,
    `|a ± b|^2`, weighted by products of two inequality hypotheses.

    `g > 0, R > 0, R**2*norm2(th - ts) <= R**2*norm2(ts) - k*g**2 |- k*g**2 <=
    R**2*norm2(ts)` (newcomer 31's `iterations-bound`, the last step of Chan's batch bound)
    was unknown at every budget: its certificate is the hypothesis plus `[R]*[R]*|th -
    ts|^2`, and `products with squared norms` weights by two hypotheses only the norm
    squares of single names (`|ts|^2`), `weighted squares` any square by one hypothesis
    only. Without `R > 0` the step is still true (`R**2*|th - ts|^2 = |R*th - R*ts|^2`),
    so the differences are also scaled by each scalar the target writes squared beside a
    norm (`norm_scales`: `R` here), with no hypothesis weighting them.
    Few columns (two per pair of vectors, times the products of two hypotheses); it
    applies where `products with squared norms` does, with two vectors, after the strategies
    before it (no certificate they find changes) and before the SDP."""

    name = "products with squared differences"

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and len(ctx.vectors) >= 2

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        squares = [t for t in norm_squares(ctx, bound) if len(t.poly) > 1 and degree(t.poly) == 1]
        factors = [t for t in hypothesis_products(ctx, 2, bound) if len(t.hyps) == 2]
        scaled = [t for m in norm_scales(ctx, target)
                  for t in scaled_squares(ctx, squares, m, bound)]
        return [*HypothesisProducts.columns(self, ctx, target, bound),
                *weighted(ctx, squares, factors, bound), *scaled]


class UnwrittenNorms(HypothesisProducts):
    """`hypothesis products` with each equality hypothesis times the squared norm `<v,v>` of
    a vector the judgement names but never writes squared.

    An equality's multipliers are monomials in the generators the judgement writes
    (`equality_multiples`), but a Gram minor brings others: `norm2(u) == 0 |- dot(u, v)**2
    <= 0` (Cauchy–Schwarz for a vector of norm 0) and `norm2(u) == 0 |- dot(u, v) == 0`
    were unknown at every budget (newcomer 32 N3), their certificate the minor of (u, v)
    minus `<v,v>` times the equality, and `<v,v>` written nowhere. Few columns (equalities
    times vectors); it applies only where an equality and such a vector are, after the
    strategies before it (no certificate they find changes) and before the SDP."""

    name = "equalities times unwritten squared norms"

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and bool(ctx.indices("==")) and bool(_unwritten(ctx))

    def atoms(self, ctx: Context, bound: int) -> tuple[list[Term], list[Multiple]]:
        extra = []
        for j in ctx.indices("=="):
            if not ctx.hyps[j] or degree(ctx.hyps[j]) + 1 > bound:
                continue
            for norm in _unwritten(ctx):
                charge(ctx.work, len(ctx.hyps[j]))  # times one generator: as many terms
                extra.append(Multiple(j, norm, ctx.hyps[j] * norm))
        high, multiples = super().atoms(ctx, bound)
        return high, [*multiples, *extra]


def _unwritten(ctx: Context) -> list[PolyElement]:
    """The squared norms `<v,v>` of the judgement's vector names that it does not write (so
    no equality multiplier reaches them), in name order."""
    written = set(ctx.used)
    return [norm for v in ctx.vectors
            if ctx.gens.index(norm := ctx.gram_gen(v, v)) not in written]


def _written(ctx: Context) -> set[int]:
    """The generators the claim's gap and the hypotheses write (indices into `ctx.gens`):
    in refutation form the claim is `0 > 0` and the squared norm is in a hypothesis, the
    negated claim."""
    return {gen for poly in (ctx.gap, *ctx.hyps) for monomial in poly
            for gen, power in enumerate(monomial) if power}


class DegreeSixProducts(SignProducts):
    """`sign products` (products of up to three hypotheses, the sign products the judgement
    writes, its multipliers) together with squares weighted by products of two hypotheses
    or by those sign products: squared norms, Gram minors and the target's own DSOS
    squares, all under a degree bound raised up to 6, in the rounds where it is raised.

    Each earlier strategy holds one of these families, under the bound of 4 or alone, so a
    certificate that needs two of them at degree 5 or 6 was left to the SDP, whose
    multipliers are single hypotheses and whose size budget such steps exceed. Three true
    steps of newcomers 31 and 32 were unknown so (on main ea48785, default budget):
    - `<w,u> >= t*eta*g, g > 0, eta > 0, t >= 1 |- |w|^2*|u|^2 >= eta**2*g**2`: `[hP]**2 +
      det Gram(u, w) + 2*[t][hP][g][eta] + [g]**2*[eta]**2*[t - 1] + [t][t - 1]*(g*eta)**2`
      (hP the progress invariant), degree 6;
    - the bound `t*g**2 <= R**2*|u|^2` from both invariants in the case `t > 0`, no
      Cauchy–Schwarz step written: in refutation form `[hP]**2 + det Gram(u, w) +
      2*[hP][g][eta][t] + [eta]**2*[t]*[negated claim] + [hN]*|u|^2`;
    - the iteration bound from a start written `norm2(v0) == 0`, in refutation form
      `([h] + [negated claim])**2` expanded, `4*[R2]**2*det Gram(v0, vs)` and a multiple of
      the equality (the negated claim and the bound force `<v0,vs> < 0`, Cauchy–Schwarz
      forces `<v0,vs> == 0`).
    It comes after the strategies before it (no certificate they find changes) and before the
    SDP; a round whose bound is 4 or less, which the earlier strategies covered, is skipped.
    """

    name = "products and squares to degree six"
    max_bound = 6

    def applies(self, ctx: Context) -> bool:
        return Strategy.applies(self, ctx)

    def degree_bound(self, ctx: Context, target: PolyElement) -> int | None:
        bound = super().degree_bound(ctx, target)
        return bound if bound > _bound(ctx, target, self.factors, LpStrategy.max_bound) else None

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        squares = [t for t in norm_squares(ctx, bound) if len(t.poly) == 1]
        squares += [*gram_minors(ctx, bound), *dsos_squares(ctx, target)]
        factors = [*hypothesis_products(ctx, 2, bound)]  # a copy: that list is cached
        seen = {t.hyps for t in factors}
        factors += [t for t in sign_product_terms(ctx, bound) if t.hyps not in seen]
        return [*super().columns(ctx, target, bound), *weighted(ctx, squares, factors, bound)]


class DifferenceScaledNorms(HypothesisProducts):
    """`hypothesis products` with a squared norm scaled by a difference (or sum) of two
    scalars, `|(c - d)*a|^2` (`sos.difference_scaled_norms`), for the scalars the target
    writes squared beside one squared norm.

    alpha_k's optimality as a student writes it, `alpha*norm2(d) == dot(ts, d) |- -2*a*<ts,d>
    + a**2*|d|^2 >= -2*alpha*<ts,d> + alpha**2*|d|^2` (and its distance form), was unknown
    without the hint `(a - alpha)*d`: the certificate is that square plus `2*(a - alpha)`
    times the equality. It applies only when such squares exist, and comes after every other
    strategy before the SDP, so no certificate they find changes."""

    name = "norms scaled by differences"

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and bool(
            difference_scaled_norms(ctx, ctx.gap, degree(ctx.gap)))

    def columns(self, ctx: Context, target: PolyElement, bound: int) -> list[Term]:
        return [*super().columns(ctx, target, bound),
                *difference_scaled_norms(ctx, target, bound)]


class ZeroNormVectors(Strategy):
    """`equalities times unwritten squared norms` with each vector an equality says has norm
    zero (`sos.zero_norm_vectors`: `norm2(w2 - eta*w1) == 0`) added to the vector pool, as a
    vector hint would be, so that its Gram minors with the other vectors are columns.

    Two runs, one with step size eta, stay proportional; a student states it as
    `norm2(w2 - eta*w1) == 0` and concludes `dot(w2, x) == eta*dot(w1, x)`: each half, in
    refutation form, is the square of the negated claim, the Gram minor of (w2 - eta*w1, x)
    and the equality times `<x,x>`. It was unknown at every budget without the hint `w2 -
    eta*w1` (a single name of norm zero was proved already: its minors are in the pool). A
    certificate found with the added vectors is one of the judgement itself (hints change
    no hypothesis). It applies only where an equality is such a norm, and comes after every
    other strategy before the SDP, so no certificate they find changes."""

    name = "vectors of norm zero"
    INNER: ClassVar[tuple[Strategy, ...]] = (UnwrittenNorms(),)

    def applies(self, ctx: Context) -> bool:
        return super().applies(ctx) and bool(ctx.indices("==")) and bool(self._added(ctx))

    @staticmethod
    def _added(ctx: Context) -> list[Vec]:
        return [v for v in zero_norm_vectors(ctx) if v not in ctx.vector_hints]

    def candidates(self, ctx: Context) -> Iterator[Certificate]:
        wide = Context(ctx.judgement, (*ctx.scalar_hints, *ctx.vector_hints, *self._added(ctx)),
                       ctx.work)
        for strategy in self.INNER:
            if strategy.applies(wide):
                yield from strategy.candidates(wide)


class _Cleared(SignProducts):
    """`sign products` with one multiplier only (`missing_factor`'s trial)."""

    def __init__(self, multiplier: tuple[int, ...]) -> None:
        self.multiplier = multiplier

    def applies(self, ctx: Context) -> bool:
        return Strategy.applies(self, ctx)

    def multipliers(self, ctx: Context) -> list[tuple[int, ...]]:
        return [self.multiplier]


MAX_FACTOR_TRIALS = 2  # factors tried by `missing_factor`, each one LP round


def missing_factor(judgement: kernel.Judgement, hints: Sequence[Hint], work: Work
                   ) -> Stop | None:
    """For an unknown claim: a product `q` of scalars, some not known > 0, that clears the
    claim once they are (`t*eta**2` when only `t >= 0` is known: a split on t gives its case
    `t > 0`), as a `factor` stop naming `q` and those scalars; None when there is none.

    The advice must stay true, so `q` is named only when the kernel accepts a certificate of
    the judgement with `x > 0` added for exactly those scalars `x` and `q` as its multiplier:
    with those facts the search finds it (`SignProducts`). Charged to `work`, a count."""
    ctx = Context(judgement, hints, work)
    if judgement.claim.kind not in (">=", ">") or not ctx.gap:
        return None
    known = {gen: i for gen, i in sign_atoms(ctx).items()
             if judgement.hypotheses[i].kind == ">"}
    # plain names only: a family member or a sum is no fact a user adds as written
    scalars = [gen for gen in ctx.used if gen < len(ctx.scalars) and gen not in known
               and atoms_.IDENT.fullmatch(ctx.scalars[gen])
               and not _not_positive(judgement, ctx.symbols[gen])]
    if not scalars:
        return None
    extra = tuple(Fact(ctx.symbols[gen], ">") for gen in scalars)
    wide = replace(judgement, hypotheses=(*judgement.hypotheses, *extra))
    atoms = {**known, **{gen: len(judgement.hypotheses) + k for k, gen in enumerate(scalars)}}
    tried = 0
    for combo in sign_multipliers(Context(wide, hints, work), atoms):
        added = sorted({i for i in combo if i >= len(judgement.hypotheses)})
        if not added:
            continue  # clears with what is known: the search has tried it
        if tried == MAX_FACTOR_TRIALS:
            break
        tried += 1
        # exactly the facts it names, so that the advice says all it takes
        names = [extra[i - len(judgement.hypotheses)] for i in added]
        trial = replace(judgement, hypotheses=(*judgement.hypotheses, *names))
        moved = {old: len(judgement.hypotheses) + k for k, old in enumerate(added)}
        multiplier = tuple(sorted(moved.get(i, i) for i in combo))
        trial_ctx = Context(trial, hints, work)
        for certificate in _Cleared(multiplier).candidates(trial_ctx):
            try:
                kernel.check_certificate(trial, certificate)
            except kernel.KernelError:
                continue
            factor = prod((trial.hypotheses[i].expr for i in multiplier), start=1)
            return Stop("factor", names=(str(factor), *(str(f.expr) for f in names)))
    return None


def _not_positive(judgement: kernel.Judgement, symbol: sympy.Symbol) -> bool:
    """Whether a hypothesis says by itself that `symbol` is not > 0 (`t == 0`, `-t >= 0`,
    `-t > 0`: a split's case `t == 0` or `t < 0`). With `symbol > 0` added such a judgement
    is vacuous, so a certificate the kernel accepts with it says nothing, and advice to add
    that fact cannot be followed (red team 26, R1: the case `t == 0` was told to add
    `t > 0`)."""
    for fact in judgement.hypotheses:
        coeff, rest = fact.expr.as_coeff_Mul()
        if rest == symbol and (fact.kind == "==" or coeff < 0):
            return True
    return False


class ExactSos(Strategy):
    """The gap as a sum of weighted squares by exact LDL^T (no LP, no hypotheses)."""

    name = "exact sum of squares"

    def applies(self, ctx: Context) -> bool:
        return ctx.judgement.claim.kind == ">="

    def candidates(self, ctx: Context) -> Iterator[Certificate]:
        squares = ldlt_squares(ctx, ctx.gap)
        if squares:
            yield Certificate(products=(Product(Fraction(1), (), squares),))


class SemidefiniteSquares(Strategy):
    """Dense sums of squares and Positivstellensatz multipliers by SDP (`verify.search.sdp`).

    Last: it is the costliest, and every step an earlier strategy proves keeps its
    certificate. Each relaxation degree whose SDP fits `sdp_entries` is solved; when the
    rounding fails, the free block's near-zero monomials are dropped and it is solved again
    (facial reduction), at most `REDUCTIONS` times.
    """

    name = "semidefinite squares"
    LEVELS: ClassVar[int] = 3
    REDUCTIONS: ClassVar[int] = 2

    def applies(self, ctx: Context) -> bool:
        return ctx.judgement.claim.kind in (">=", ">")

    def candidates(self, ctx: Context) -> Iterator[Certificate]:
        # `m * gap` for the first `sdp_multipliers` multipliers (the budget's choice)
        for multiplier in multipliers(ctx)[:ctx.work.budget.sdp_multipliers]:
            target = _target(ctx, multiplier)
            for found in self.rounded(ctx, target, inequalities=not multiplier):
                yield replace(found, multiplier=multiplier)
                return

    def rounded(self, ctx: Context, target: PolyElement, inequalities: bool
                ) -> Iterator[Certificate]:
        """A certificate of `target >= 0` (`> 0`) from the SDPs of increasing degree; for a
        target without hypotheses, then from the sparse basis (`sparse`)."""
        import numpy as np  # the SDP's modules (NumPy, Clarabel) load with the first SDP

        from verify.search.sdp.problem import SdpUnavailable, problems

        strict = ctx.judgement.claim.kind == ">"
        found = None
        try:
            found = self.solved(ctx, problems(ctx, target, strict, self.LEVELS, inequalities))
            if found is None and not ctx.hyps:
                found = self.solved(ctx, self.sparse(ctx, target, strict))
        except SdpUnavailable as error:
            ctx.work.note(f"SDP: {error}")
        except (np.linalg.LinAlgError, ValueError, OverflowError) as error:
            ctx.work.note(f"SDP: numerical failure ({error})")
        if found is not None:
            yield found

    def solved(self, ctx: Context, candidates: Iterable[Problem]) -> Certificate | None:
        """The first problem whose point rounds to a certificate, each reduced up to
        `REDUCTIONS` times; None when none does or one is over the size budget."""
        from verify.search.sdp.problem import solve
        from verify.search.sdp.rounding import certificate as rounded
        from verify.search.sdp.rounding import small_diagonal

        for problem in candidates:
            if not ctx.work.fits_sdp(problem.entries):
                return None  # higher degrees are larger still
            for _ in range(self.REDUCTIONS + 1):
                ctx.work.check_guard("an SDP")
                point = solve(ctx, problem)
                if point is None:
                    break  # infeasible at this degree: try the next
                found = rounded(ctx, problem, point)
                if found is not None:
                    return found
                drop = small_diagonal(problem, point)
                if not drop:
                    ctx.work.note("SDP: a point was found but its rounding to exact "
                                  "rationals failed (not positive semidefinite over QQ)",
                                  Stop("rounding"))
                    break
                first = problem.blocks[0]
                kept = tuple(m for m in first.basis if m not in drop)
                problem = replace(problem, blocks=(replace(first, basis=kept),
                                                   *problem.blocks[1:]))
        return None

    @staticmethod
    def sparse(ctx: Context, target: PolyElement, strict: bool) -> list[Problem]:
        """One problem over the monomials whose square the target holds with a positive
        coefficient (`ExactSos`'s basis): its solver point is cleaner than the Newton box's
        (sos.ml 1891: four zero eigenvalues, then 1, 1, 2, 4), so the kernel of a polynomial
        with irrational zeros is found (`verify.search.sdp.face`)."""
        from verify.search.sdp.problem import Block, Problem

        basis = tuple(next(iter(m.keys())) for m in half_basis(ctx, target)
                      if target.coeff(m * m) > 0)
        if not basis:
            return []
        return [Problem(target, (Block((), ctx.ring.one, basis),), (), strict)]


STRATEGIES: tuple[Strategy, ...] = (
    EqualityClaim(),
    LinearCombination(),
    ExactSos(),
    HypothesisProducts(),
    WeightedSquares(),
    SignProducts(),
    ScaledSquares(),
    NormProducts(),
    HigherDegree(),
    CrossScaledSquares(),
    LinearProducts(),
    DerivedSigns(),
    DifferenceProducts(),
    UnwrittenNorms(),
    DegreeSixProducts(),
    DifferenceScaledNorms(),
    ZeroNormVectors(),
    SemidefiniteSquares(),
)
BEFORE_SDP: tuple[Strategy, ...] = STRATEGIES[:-1]
"""The strategies before the SDP (the costliest): a quick first pass (`prover.decide`)."""
