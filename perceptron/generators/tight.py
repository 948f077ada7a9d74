"""Tight families: data on which the Novikoff bound is met with equality.

Orthonormal examples `x_i = c e_i` with any labels `y_i`: the perceptron (`w_0 = 0`, rule
`y<w,x> <= 0`) errs on every example of the first epoch, in any order, because each new example
is orthogonal to the current iterate; after that epoch `y_i <w, x_i> = c^2 > 0` for all i. The
unnormalised separator `u = sum y_i e_i` has margin `gamma_u = min y_i<u,x_i> = c`,
`<u,u> = n`, `R2 = c^2`, so the normalised margin is `gamma^2 = gamma_u^2/<u,u> = c^2/n`
exactly and the bound `R2/gamma^2 = n` equals the number of mistakes.

A rational rotation (Cayley transform `Q = (I - A)(I + A)^-1` of a skew-symmetric integer
`A`, exactly orthogonal) keeps every inner product, so rotated families are just as tight
while no longer axis-aligned.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from perceptron.dataset import Dataset, Vector
from perceptron.geometry.bound import NovikoffBound
from perceptron.geometry.linear import norm2

Matrix = list[list[Fraction]]


@dataclass(frozen=True)
class TightFamily(NovikoffBound):
    """A dataset with its reference separator and the exact quantities of the bound (the
    bound `R2 / gamma^2`, with `gamma^2 = c^2 / n`, is exactly the number of mistakes)."""

    data: Dataset
    u: Vector
    gamma_u: Fraction
    R2: Fraction

    @property
    def u_norm2(self) -> Fraction:  # type: ignore[override]
        """`<u, u>`."""
        return norm2(self.u)

    @property
    def mistakes(self) -> int:
        """The mistakes the perceptron makes (one per example)."""
        return self.data.n


def _solve(a: list[list[int]], b: list[list[int]]) -> Matrix:
    """`a^-1 b` for integer `a` (invertible) and `b`, by Gauss–Jordan elimination in integers.

    Each row of `[a | b]` may be scaled by any nonzero integer without changing the solution,
    so rows are combined without division and kept small by dividing out their gcd; only the
    final quotients are Fractions. Exact, and several times faster than eliminating in
    Fractions (every Fraction operation pays a gcd).
    """
    n = len(a)
    rows = [list(a[i]) + list(b[i]) for i in range(n)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        top = rows[col]
        p = top[col]
        for r in range(n):
            f = rows[r][col]
            if r != col and f != 0:
                row = [p * v - f * w for v, w in zip(rows[r], top, strict=True)]
                g = math.gcd(*row)
                rows[r] = [v // g for v in row]
    return [[Fraction(v, rows[i][i]) for v in rows[i][n:]] for i in range(n)]


def rational_rotation(dim: int, seed: int, spread: int = 2) -> Matrix:
    """An exactly orthogonal rational matrix: the Cayley transform of a random skew `A`."""
    rng = random.Random(seed)
    skew = [[0] * dim for _ in range(dim)]
    for i in range(dim):
        for j in range(i + 1, dim):
            v = rng.randint(-spread, spread)
            skew[i][j], skew[j][i] = v, -v
    plus = [[int(i == j) + skew[i][j] for j in range(dim)] for i in range(dim)]
    minus = [[int(i == j) - skew[i][j] for j in range(dim)] for i in range(dim)]
    # (I - A)(I + A)^-1 = (I + A)^-1 (I - A): the two factors commute.
    return _solve(plus, minus)


def orthonormal(labels: Sequence[int], *, scale: Fraction | int = 1, dim: int | None = None,
                rotation_seed: int | None = None) -> TightFamily:
    """`x_i = scale * e_i` (optionally rotated, in `dim >= n` dimensions) with `labels`."""
    n = len(labels)
    width = n if dim is None else dim
    if width < n:
        raise ValueError(f"{n} orthonormal examples need dimension >= {n}")
    c = Fraction(scale)
    if c <= 0:
        raise ValueError("scale must be positive")
    basis = ([[Fraction(int(i == j)) for j in range(width)] for i in range(width)]
             if rotation_seed is None else rational_rotation(width, rotation_seed))
    # Rows of an orthogonal matrix are orthonormal too; use them as the e_i.
    X = tuple(tuple(c * v for v in basis[i]) for i in range(n))
    u = tuple(sum((y * basis[i][k] for i, y in enumerate(labels)), Fraction(0))
              for k in range(width))
    name = f"orthonormal(n={n},scale={c},dim={width},rotation={rotation_seed})"
    return TightFamily(Dataset(X, tuple(labels), name), u, c, c * c)
