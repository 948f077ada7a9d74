"""Nonnegative columns built from squares, and an exact SOS decomposition by LDL^T.

* Gram minors: Cauchy–Schwarz `<a,a><b,b> - <a,b>**2 >= 0` and its 3x3 relative; the
  kernel expands them itself, so they are the cheapest way to use vector geometry.
* Norm squares `|v_i ± c v_j|^2` with monomial coefficients `c`: completions of the square
  such as `|w - t*u|^2`.
* DSOS squares `m_i**2`, `(m_i ± m_j)**2` of monomials from a half-degree basis: the
  diagonally dominant part of the SOS cone, which is linear and so fits the LP.
* Hints supplied by the user: squares of scalar hints, norm squares of vector hints.
* `ldlt_squares`: when the gap itself is a quadratic form in monomials, an exact rational
  LDL^T factorisation of one Gram matrix gives weighted squares without any LP.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import partial
from itertools import combinations, combinations_with_replacement

import sympy
from sympy.polys.rings import PolyElement

from proofs.terms import Vec, scalar
from verify.kernel import GramMinor, NormSquare, Sos, Square
from verify.search.columns import Term, charge
from verify.search.polynomials import Context, degree, fraction

ONE = Fraction(1)
MAX_DSOS_BASIS = 32  # pairs grow quadratically; beyond this only the lowest degrees are paired

Built = tuple[PolyElement, Callable[[], Sos]]


def _terms(ctx: Context, key: object, build: Callable[[], Iterable[Built]]) -> list[Term]:
    """The distinct nonzero square terms from `build`, built once per context and charged.

    Every strategy and every LP round asks for the same squares; they are expanded once.
    """
    if key not in ctx.cache:
        out: list[Term] = []
        seen: set[tuple[tuple[tuple[int, ...], object], ...]] = set()
        for poly, square in build():
            charge(ctx.work, poly)
            item_key = tuple(sorted(poly.items()))
            if poly and item_key not in seen:
                seen.add(item_key)
                out.append(Term((), poly, square=square))
        ctx.cache[key] = out
    return ctx.cache[key]  # type: ignore[return-value]


def _upto(terms: list[Term], max_degree: int) -> list[Term]:
    return [t for t in terms if t.degree <= max_degree]


def _made(item: Sos) -> Callable[[], Sos]:
    return lambda: item


def vector_pool(ctx: Context) -> list[Vec]:
    """The vectors whose Gram minors are tried: every vector name, then vector hints."""
    pool = [Vec.named(name) for name in ctx.vectors]
    pool.extend(v for v in ctx.vector_hints if v not in pool)
    return pool


def gram_minors(ctx: Context, max_degree: int) -> list[Term]:
    """Gram determinants of pairs and triples from the vector pool."""

    def build() -> Iterable[Built]:
        pool = vector_pool(ctx)
        for size in (2, 3):
            for combo in combinations(pool, size):
                yield ctx.gram_det(combo), _made(GramMinor(ONE, combo))

    return _upto(_terms(ctx, "gram minors", build), max_degree)


def _norm_square(a: str, b: str, coeff: int | sympy.Expr) -> NormSquare:
    return NormSquare(ONE, Vec.named(a) + Vec.named(b).scaled(coeff))


def norm_squares(ctx: Context, max_degree: int) -> list[Term]:
    """`|v|^2` and `|v_i ± c v_j|^2` for vector names and coefficients `c` in 1 and scalars.

    Expanded straight in the ring, `|a + c b|^2 = <a,a> + 2c<a,b> + c^2<b,b>`, without
    building the SymPy vector (only a square that ends up in a certificate is built).
    """

    def build() -> Iterable[Built]:
        names = ctx.vectors
        coefficients: list[tuple[int | sympy.Expr, PolyElement]] = [(1, ctx.ring.one)]
        coefficients += [(scalar(n), ctx.gens[ctx.index[scalar(n)]]) for n in ctx.scalars]
        for a in names:
            yield ctx.gram_gen(a, a), _made(NormSquare(ONE, Vec.named(a)))
        for a, b in combinations(names, 2):
            aa, ab, bb = ctx.gram_gen(a, a), ctx.gram_gen(a, b), ctx.gram_gen(b, b)
            for c, gen in coefficients:
                for sign in (1, -1):
                    cross = ab * gen * (2 * sign)
                    yield aa + cross + bb * gen**2, partial(_norm_square, a, b, sign * c)
                    if c != 1:
                        yield bb + cross + aa * gen**2, partial(_norm_square, b, a, sign * c)

    return _upto(_terms(ctx, "norm squares", build), max_degree)


def hint_squares(ctx: Context, max_degree: int) -> list[Term]:
    """Squares of scalar hints and norm squares of vector hints."""

    def build() -> Iterable[Built]:
        for h in ctx.scalar_hints:
            yield ctx.poly(h) ** 2, _made(Square(ONE, h))
        for v in ctx.vector_hints:
            yield ctx.vec_dot(v, v), _made(NormSquare(ONE, v))

    return _upto(_terms(ctx, "hint squares", build), max_degree)


def half_basis(ctx: Context, target: PolyElement) -> list[PolyElement]:
    """Monomials `m` whose square fits the target's degree in every generator (Newton bound)."""
    if not target:
        return []
    top = [max(monomial[i] for monomial in target) // 2 for i in range(len(ctx.gens))]
    half = degree(target) // 2
    basis = []
    for d in range(1, half + 1):
        for combo in combinations_with_replacement(range(len(ctx.gens)), d):
            ctx.work.charge("terms")  # one combination looked at
            if all(combo.count(i) <= top[i] for i in set(combo)):
                term = ctx.ring.one
                for i in combo:
                    term *= ctx.gens[i]
                basis.append(term)
    return [ctx.ring.one, *basis]


def _dsos_square(ctx: Context, a: PolyElement, b: PolyElement, sign: int) -> Square:
    return Square(ONE, ctx.expr(a) + sign * ctx.expr(b))


def dsos_squares(ctx: Context, target: PolyElement) -> list[Term]:
    """`m_i**2` and `(m_i ± m_j)**2` over the half basis of `target` (expanded in the ring)."""
    basis = half_basis(ctx, target)

    def build() -> Iterable[Built]:
        for m in basis:
            yield m**2, partial(lambda m: Square(ONE, ctx.expr(m)), m)
        for a, b in combinations(basis[:MAX_DSOS_BASIS], 2):
            square, cross = a**2 + b**2, 2 * a * b
            yield square + cross, partial(_dsos_square, ctx, a, b, 1)
            yield square - cross, partial(_dsos_square, ctx, a, b, -1)

    key = ("dsos", tuple(next(iter(m.keys())) for m in basis))
    return _upto(_terms(ctx, key, build), degree(target))


def weighted(
    ctx: Context, terms: Iterable[Term], factors: Iterable[Term], max_degree: int
) -> list[Term]:
    """Products `hypothesis product * square`, for certificates like `t * |w - u|^2`.

    The degree of a product is the sum of the degrees, so oversized products are never
    expanded; each product is expanded once per context.
    """
    memo: dict[tuple[tuple[int, ...], int], tuple[Term, Term]] = ctx.cache.setdefault(
        "weighted", {}
    )  # type: ignore[assignment]
    out: list[Term] = []
    for factor in factors:
        if not factor.hyps:
            continue
        for term in terms:
            if factor.degree + term.degree > max_degree:
                continue
            key = (factor.hyps, id(term))
            if key not in memo:  # the memo holds `term`, so its id is not reused
                poly = factor.poly * term.poly
                charge(ctx.work, poly)
                memo[key] = (term, Term(factor.hyps, poly, square=term.square))
            out.append(memo[key][1])
    return out


def ldlt_squares(ctx: Context, target: PolyElement) -> tuple[Square, ...] | None:
    """Weighted squares summing exactly to `target`, via LDL^T of one Gram matrix, or None.

    The basis keeps the monomials whose square occurs in `target` with a positive coefficient
    (a zero diagonal forces a zero row); each cross monomial is split evenly over the basis
    pairs producing it. This heuristic choice is then factorised exactly with Fractions.
    """
    basis = [m for m in half_basis(ctx, target) if target.coeff(m * m) > 0]
    n = len(basis)
    if n == 0:
        return None
    ctx.work.charge("terms", n * n)  # the Gram matrix's entries
    matrix = [[Fraction(0)] * n for _ in range(n)]
    pairs: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for i, j in combinations(range(n), 2):
        (monomial,) = (basis[i] * basis[j]).keys()
        pairs.setdefault(monomial, []).append((i, j))
    for monomial, coeff in target.items():
        value = fraction(coeff)
        square = [i for i in range(n) if next(iter((basis[i] ** 2).keys())) == monomial]
        if square:
            matrix[square[0]][square[0]] = value
        elif monomial in pairs:
            share = value / (2 * len(pairs[monomial]))
            for i, j in pairs[monomial]:
                matrix[i][j] = matrix[j][i] = share
        else:
            return None
    pivots = _ldlt(matrix)
    if pivots is None:
        return None
    squares = []
    for k, (pivot, column) in enumerate(pivots):
        if pivot:
            poly = sum((basis[i] * _qq(ctx, column[i]) for i in range(k, n)), ctx.ring.zero)
            squares.append(Square(pivot, ctx.expr(poly)))
    return tuple(squares)


def _qq(ctx: Context, value: Fraction) -> PolyElement:
    return ctx.ring.one * ctx.ring.domain(value.numerator, value.denominator)


def _ldlt(matrix: list[list[Fraction]]) -> list[tuple[Fraction, list[Fraction]]] | None:
    """`[(d_k, L[:, k])]` with `A = sum d_k L_k L_k^T`, all d_k >= 0; None if not PSD."""
    a = [row[:] for row in matrix]
    n = len(a)
    out = []
    for k in range(n):
        pivot = a[k][k]
        if pivot < 0:
            return None
        if pivot == 0:
            if any(a[k][j] for j in range(k, n)):
                return None
            out.append((pivot, [Fraction(0)] * n))
            continue
        column = [a[i][k] / pivot for i in range(n)]
        for i in range(k, n):
            for j in range(k, n):
                a[i][j] -= column[i] * pivot * column[j]
        out.append((pivot, column))
    return out
