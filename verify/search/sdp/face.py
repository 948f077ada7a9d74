"""Facial reduction by the Gram matrix's kernel, for sums of squares with irrational zeros.

Peyrl–Parrilo rounding needs a Gram matrix in the interior of the PSD cone. A polynomial with
a real zero `p*` has none: every Gram matrix `Q` has `Q v(p*) == 0` (`v` the monomials), and
when `p*` is irrational (sos.ml 1891 vanishes where `w**3 + w**2 + 2w + 1 == 0`) so do its
conjugates, so the kernel is a rational subspace that no choice of monomials removes
(`rounding.small_diagonal` only drops monomials). When the solver's point shows a clear gap
in its spectrum, the kernel (the eigenvectors below the gap) is recovered exactly as a
rational subspace (reduced row echelon form, entries rounded to small denominators), and the
Gram matrix is sought in its orthogonal complement: `Q = P' R P`, `P` an exact rational basis
of the range. `R` is rounded, projected exactly onto the affine space of matrices whose
`(Pz)' R (Pz)` is the target, and factored by exact LDL^T. A wrong guess of the kernel only
makes the projection infeasible or `R` indefinite: no certificate, never a wrong one (and the
kernel re-checks every certificate anyway).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from sympy import QQ
from sympy.polys.matrices import DomainMatrix
from sympy.polys.rings import PolyElement

from verify.kernel import Square
from verify.search.polynomials import Context
from verify.search.sdp.problem import Block
from verify.search.sos import ldlt

KERNEL_FLOOR = 1e-6  # relative: eigenvalues below it span the kernel ...
RANGE_FLOOR = 1e-3  # ... and only when every other one is above this: a clear gap
KERNEL_DENOMINATOR = 64  # the kernel's exact basis: entries with small denominators
MAX_UNKNOWNS = 80  # entries of R (a range of 12): the exact projection is cubic in them


def _kernel_rows(gram: np.ndarray) -> list[list[Fraction]] | None:
    """An exact rational basis (reduced row echelon form) of the numerical kernel, when the
    spectrum has a clear gap; None otherwise."""
    values, vectors = np.linalg.eigh(gram)
    top = max(float(values.max(initial=0.0)), 1.0)
    small = values < KERNEL_FLOOR * top
    if not small.any() or small.all() or (values[~small] < RANGE_FLOOR * top).any():
        return None
    kernel = vectors[:, small].T.copy()
    rows, cols = kernel.shape
    pivot_row = 0
    for col in range(cols):  # Gauss-Jordan in floats, largest pivot first
        if pivot_row == rows:
            break
        best = pivot_row + int(np.argmax(np.abs(kernel[pivot_row:, col])))
        if abs(kernel[best, col]) < 1e-7:
            continue
        kernel[[pivot_row, best]] = kernel[[best, pivot_row]]
        kernel[pivot_row] /= kernel[pivot_row, col]
        for r in range(rows):
            if r != pivot_row:
                kernel[r] -= kernel[r, col] * kernel[pivot_row]
        pivot_row += 1
    return [[Fraction(float(x)).limit_denominator(KERNEL_DENOMINATOR) if abs(x) > 1e-7
             else Fraction(0) for x in row] for row in kernel[:pivot_row]]


def face_squares(ctx: Context, block: Block, gram: np.ndarray, rest: PolyElement,
                 denominator: int) -> tuple[Square, ...] | None:
    """Squares summing exactly to `rest` in the face the solver's kernel marks, or None."""
    if not rest or gram.size == 0:
        return None
    kernel = _kernel_rows(gram)
    if kernel is None:
        return None
    n = len(block.basis)
    exact = DomainMatrix([[QQ(x.numerator, x.denominator) for x in row] for row in kernel],
                         (len(kernel), n), QQ)
    range_rows = exact.nullspace().to_Matrix().tolist()  # rows v with K v == 0
    m = len(range_rows)
    unknowns = m * (m + 1) // 2
    if m == 0 or unknowns > MAX_UNKNOWNS:
        return None
    ctx.work.charge("terms", unknowns * len(rest))
    monomials = [ctx.ring.zero.new({mono: QQ(1)}) for mono in block.basis]
    basis = [sum((QQ(int(c.p), int(c.q)) * z for c, z in zip(row, monomials, strict=True) if c),
                 ctx.ring.zero) for row in range_rows]
    left = np.linalg.pinv(np.array([[float(c) for c in row] for row in range_rows]).T)
    numeric = left @ gram @ left.T  # R with P' R P closest to the solver's Q
    pairs = [(i, j) for i in range(m) for j in range(i, m)]
    columns = [(basis[i] * basis[j]) * (1 if i == j else 2) for i, j in pairs]
    rows: dict[tuple[int, ...], int] = {}
    for poly in (*columns, rest):
        for mono in poly:
            rows.setdefault(mono, len(rows))
    a = [[QQ(0)] * unknowns for _ in rows]
    for k, poly in enumerate(columns):
        for mono, coeff in poly.items():
            a[rows[mono]][k] = coeff
    c = [QQ(0)] * len(rows)
    for mono, coeff in rest.items():
        c[rows[mono]] = coeff
    start = [QQ(round(numeric[i, j] * denominator), denominator) for i, j in pairs]
    solved = _nearest(a, c, start)
    if solved is None:
        return None
    matrix = [[Fraction(0)] * m for _ in range(m)]
    for (i, j), value in zip(pairs, solved, strict=True):
        matrix[i][j] = matrix[j][i] = Fraction(int(value.p), int(value.q))  # type: ignore[attr-defined]
    pivots = ldlt(matrix)
    if pivots is None:
        return None
    squares = []
    for k, (pivot, column) in enumerate(pivots):
        if pivot:
            form = sum((QQ(x.numerator, x.denominator) * basis[k + t]
                        for t, x in enumerate(column[k:]) if x), ctx.ring.zero)
            squares.append(Square(pivot, ctx.expr(form)))
    return tuple(squares)


def _nearest(a: list[list[object]], c: list[object], start: list[object]
             ) -> list[object] | None:
    """The point of `{r : a r == c}` nearest `start` (exact), or None when it is empty."""
    rows, cols = len(a), len(start)
    augmented = DomainMatrix([[*row, value] for row, value in zip(a, c, strict=True)],
                             (rows, cols + 1), QQ)
    reduced, pivots = augmented.rref()
    if cols in pivots:
        return None  # inconsistent: no Gram matrix in this face gives the target
    kept = reduced.to_Matrix()[: len(pivots), :]
    a_full = DomainMatrix.from_Matrix(kept[:, :cols]).convert_to(QQ)
    c_full = DomainMatrix.from_Matrix(kept[:, cols:]).convert_to(QQ)
    point = DomainMatrix([[x] for x in start], (cols, 1), QQ)
    y = (a_full * a_full.transpose()).lu_solve(c_full - a_full * point)
    return (point + a_full.transpose() * y).to_Matrix().T.tolist()[0]
