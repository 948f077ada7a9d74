"""From the solver's float point to an exact certificate, or nothing (Peyrl–Parrilo).

* Each hypothesis block `g_b * z' Qb z`: `Qb` is factored in floats (`V sqrt(L)`, its
  negligible eigenvalues dropped) and the factor rounded to rationals, so the rounded
  block is `sum_k g_b * (l_k' z)**2`: exactly nonnegative by construction.
* The equality multiples are rounded; then everything but `Q0` is subtracted from the target
  exactly, leaving the polynomial `r` that `z0' Q0 z0` must equal.
* `Q0` is rounded and projected onto the affine space `{Q : z0' Q z0 == r}` (each monomial's
  error spread evenly over the entries producing it: the orthogonal projection), then
  factored by an exact LDL^T over QQ; a negative pivot means rounding failed.

Rounding is tried at a few denominators, coarse first (simple certificates); the caller
retries with a smaller basis (the monomials whose diagonal the solver left near zero: facial
reduction) when all fail.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from sympy import QQ
from sympy.polys.rings import PolyElement

from verify.kernel import Certificate, Product, Square
from verify.search.polynomials import Context, fraction
from verify.search.sdp.face import face_squares
from verify.search.sdp.problem import Block, Monomial, Point, Problem
from verify.search.sos import ldlt

DENOMINATORS = (1 << 4, 1 << 10, 1 << 16, 1 << 24)
EIGEN_FLOOR = 1e-9  # relative: smaller eigenvalues of a hypothesis block are dropped


def _rational(value: float, denominator: int) -> Fraction:
    return Fraction(round(value * denominator), denominator)


def _poly(ctx: Context, coefficients: dict[Monomial, Fraction]) -> PolyElement:
    return ctx.ring.zero.new({m: QQ(c.numerator, c.denominator)
                              for m, c in coefficients.items() if c})


def _times(a: Monomial, b: Monomial) -> Monomial:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _linear_form(ctx: Context, basis: tuple[Monomial, ...], column: list[Fraction]
                 ) -> PolyElement:
    return _poly(ctx, {m: c for m, c in zip(basis, column, strict=True)})


def _factored(ctx: Context, block: Block, gram: np.ndarray, denominator: int
              ) -> list[PolyElement]:
    """Rational forms `l_k' z` with `sum (l_k' z)**2` close to `z' gram z`."""
    values, vectors = np.linalg.eigh(gram)
    top = max(float(values.max(initial=0.0)), 0.0)
    forms = []
    for value, vector in zip(values, vectors.T, strict=True):
        if value <= EIGEN_FLOOR * max(top, 1.0):
            continue
        column = [_rational(x, denominator) for x in vector * np.sqrt(value)]
        if any(column):
            forms.append(_linear_form(ctx, block.basis, column))
    return forms


def certificate(ctx: Context, problem: Problem, point: Point) -> Certificate | None:
    """An exact certificate rounded from `point`, or None when no denominator works: the free
    block projected as it is, then in the face its numerical kernel marks (`face`)."""
    for free in (_project_and_factor, face_squares):
        for denominator in DENOMINATORS:
            ctx.work.charge("candidates")
            found = _attempt(ctx, problem, point, denominator, free)
            if found is not None:
                return found
    return None


FreeBlock = Callable[[Context, Block, np.ndarray, PolyElement, int], "tuple[Square, ...] | None"]


def _attempt(ctx: Context, problem: Problem, point: Point, denominator: int,
             free: FreeBlock) -> Certificate | None:
    products: list[Product] = []
    rest = problem.target
    eps = Fraction(0)
    if problem.strict:
        eps = Fraction(point.eps / 2).limit_denominator(denominator)
        if eps <= 0:
            return None
        products.append(Product(eps, (), ()))
        rest = rest - QQ(eps.numerator, eps.denominator)
    for block, gram in zip(problem.blocks[1:], point.grams[1:], strict=True):
        forms = _factored(ctx, block, gram, denominator)
        if forms:
            products.append(Product(Fraction(1), block.hyps,
                                    tuple(Square(Fraction(1), ctx.expr(f)) for f in forms)))
            rest = rest - block.factor * sum((f**2 for f in forms), ctx.ring.zero)
    linear: dict[int, PolyElement] = {}
    for (j, m), value in zip(problem.multiples, point.multiples, strict=True):
        q = _rational(float(value), denominator)
        if q:
            term = _poly(ctx, {m: q})
            linear[j] = linear.get(j, ctx.ring.zero) + term
            rest = rest - term * ctx.hyps[j]
    ctx.work.charge("terms", len(rest))
    squares = free(ctx, problem.blocks[0], point.grams[0], rest, denominator)
    if squares is None:
        return None
    if squares:
        products.insert(0, Product(Fraction(1), (), squares))
    return Certificate(products=tuple(products),
                       linear=tuple((j, ctx.expr(q)) for j, q in sorted(linear.items()) if q))


def _project_and_factor(ctx: Context, block: Block, gram: np.ndarray, rest: PolyElement,
                        denominator: int) -> tuple[Square, ...] | None:
    """Squares summing exactly to `rest` over `block.basis`, or None (see the docstring)."""
    basis = block.basis
    n = len(basis)
    if not rest:
        return ()
    if n == 0:
        return None
    pairs: dict[Monomial, list[tuple[int, int]]] = {}
    for i in range(n):
        for j in range(i, n):
            pairs.setdefault(_times(basis[i], basis[j]), []).append((i, j))
    if any(m not in pairs for m in rest):
        return None
    ctx.work.charge("terms", n * n)
    matrix = [[_rational(gram[i, j], denominator) for j in range(n)] for i in range(n)]
    for monomial, where in pairs.items():
        want = fraction(rest[monomial]) if monomial in rest else Fraction(0)
        # z' Q z's coefficient: diagonal entries once, off-diagonal pairs twice
        weights = [1 if i == j else 2 for i, j in where]
        have = sum((w * matrix[i][j] for w, (i, j) in zip(weights, where, strict=True)),
                   Fraction(0))
        if have == want:
            continue
        # the orthogonal projection in the Frobenius norm: every entry of the symmetric
        # matrix producing this monomial moves by the same amount
        shift = (want - have) / sum(weights)
        for i, j in where:
            matrix[i][j] += shift
            matrix[j][i] = matrix[i][j]
    pivots = ldlt(matrix)
    if pivots is None:
        return None
    squares = []
    for k, (pivot, column) in enumerate(pivots):
        if pivot:
            squares.append(Square(pivot, ctx.expr(_linear_form(
                ctx, basis[k:], column[k:]))))
    return tuple(squares)


def small_diagonal(problem: Problem, point: Point) -> tuple[Monomial, ...]:
    """The free block's monomials whose diagonal entry the solver left near zero: dropping
    them is the facial reduction tried when rounding fails."""
    gram = point.grams[0]
    if gram.size == 0:
        return ()
    top = max(float(np.max(np.diag(gram))), 1.0)
    return tuple(m for m, d in zip(problem.blocks[0].basis, np.diag(gram), strict=True)
                 if d < 1e-6 * top)
