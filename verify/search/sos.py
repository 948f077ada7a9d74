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

from collections.abc import Iterable
from fractions import Fraction
from itertools import combinations, combinations_with_replacement

from sympy.polys.rings import PolyElement

from proofs.terms import Vec, scalar
from verify.kernel import GramMinor, NormSquare, Sos, Square
from verify.search.columns import Term
from verify.search.polynomials import Context, degree, fraction

ONE = Fraction(1)
MAX_DSOS_BASIS = 32  # pairs grow quadratically; beyond this only the lowest degrees are paired


def _terms(ctx: Context, items: Iterable[Sos], max_degree: int) -> list[Term]:
    out: list[Term] = []
    seen: set[tuple[tuple[tuple[int, ...], object], ...]] = set()
    for item in items:
        poly = ctx.sos(item)
        key = tuple(sorted(poly.items()))
        if poly and degree(poly) <= max_degree and key not in seen:
            seen.add(key)
            out.append(Term((), (item,), poly))
    return out


def vector_pool(ctx: Context) -> list[Vec]:
    """The vectors whose Gram minors are tried: every vector name, then vector hints."""
    pool = [Vec.named(name) for name in ctx.vectors]
    pool.extend(v for v in ctx.vector_hints if v not in pool)
    return pool


def gram_minors(ctx: Context, max_degree: int) -> list[Term]:
    """Gram determinants of pairs and triples from the vector pool."""
    pool = vector_pool(ctx)
    items = [GramMinor(ONE, combo) for size in (2, 3) for combo in combinations(pool, size)]
    return _terms(ctx, items, max_degree)


def norm_squares(ctx: Context, max_degree: int) -> list[Term]:
    """`|v|^2` and `|v_i ± c v_j|^2` for vector names and coefficients `c` in 1 and scalars."""
    names = [Vec.named(name) for name in ctx.vectors]
    coefficients = [1, *(scalar(name) for name in ctx.scalars)]
    items: list[Sos] = [NormSquare(ONE, v) for v in names]
    for a, b in combinations(names, 2):
        for c in coefficients:
            for sign in (1, -1):
                items.append(NormSquare(ONE, a + b.scaled(sign * c)))
                if c != 1:
                    items.append(NormSquare(ONE, b + a.scaled(sign * c)))
    return _terms(ctx, items, max_degree)


def hint_squares(ctx: Context, max_degree: int) -> list[Term]:
    """Squares of scalar hints and norm squares of vector hints."""
    items: list[Sos] = [Square(ONE, h) for h in ctx.scalar_hints]
    items.extend(NormSquare(ONE, v) for v in ctx.vector_hints)
    return _terms(ctx, items, max_degree)


def half_basis(ctx: Context, target: PolyElement) -> list[PolyElement]:
    """Monomials `m` whose square fits the target's degree in every generator (Newton bound)."""
    if not target:
        return []
    top = [max(monomial[i] for monomial in target) // 2 for i in range(len(ctx.gens))]
    half = degree(target) // 2
    basis = []
    for d in range(1, half + 1):
        for combo in combinations_with_replacement(range(len(ctx.gens)), d):
            if all(combo.count(i) <= top[i] for i in set(combo)):
                term = ctx.ring.one
                for i in combo:
                    term *= ctx.gens[i]
                basis.append(term)
    return [ctx.ring.one, *basis]


def dsos_squares(ctx: Context, target: PolyElement) -> list[Term]:
    """`m_i**2` and `(m_i ± m_j)**2` over the half basis of `target`."""
    basis = [ctx.expr(m) for m in half_basis(ctx, target)]
    items: list[Sos] = [Square(ONE, m) for m in basis]
    for a, b in combinations(basis[:MAX_DSOS_BASIS], 2):
        items.extend((Square(ONE, a + b), Square(ONE, a - b)))
    return _terms(ctx, items, degree(target))


def weighted(terms: Iterable[Term], factors: Iterable[Term], max_degree: int) -> list[Term]:
    """Products `hypothesis product * square`, for certificates like `t * |w - u|^2`."""
    out: list[Term] = []
    for factor in factors:
        if not factor.hyps:
            continue
        for term in terms:
            poly = factor.poly * term.poly
            if degree(poly) <= max_degree:
                out.append(Term(factor.hyps, term.sigma, poly))
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
