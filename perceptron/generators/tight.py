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

**Tight at every margin** (`margin_family`). For every rational `rho = R^2/gamma^2 >= 1` the
bound's integer part is attained: `k = floor(rho)` orthogonal examples of squared norm `R2`
with any labels, and the separator `u = sum_i y_i x_i + v`, `v` orthogonal to every example
with `||v||^2 = (rho - k) R2` (the completion: 0 when rho is an integer). Then
`gamma_u = y_i <u, x_i> = R2` for every i, `<u, u> = rho R2`, so
`R2 <u, u> / gamma_u^2 = rho`, and the perceptron makes exactly `k = floor(rho)` mistakes (each
example is orthogonal to the iterate when first met). Over the reals this needs
`k + 1 = ceil(rho)` dimensions (`k` when rho is an integer): one per example and one for `v`.
Exact rationals may need more, since a rational vector of squared norm `q` needs as many
coordinates as `q` needs rational squares (at most four, Lagrange): each example takes
`len(rational_squares(R2))` coordinates (one when `R2` is a rational square) and `v` takes
`len(rational_squares((rho - k) R2))`. No square root is ever taken.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm
from operator import mul

import numpy as np

from perceptron.dataset import Dataset, Vector
from perceptron.generators.adversary import rational_squares
from perceptron.generators.hypothesis import randint_of
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


def _eliminate(rows: list[list[int]]) -> list[tuple[list[int], int]]:
    """The solution `x` of `a x = b` for the integer rows `[a | b]` (`a` n x n, invertible)
    by exact Gauss–Jordan elimination, fraction-free in Bareiss' one-step form: at step k
    every other row becomes `(p_k * row - f * pivot_row) / p_{k-1}` (p_k the pivot, p_{-1}
    = 1), a division that is exact because every entry is then a minor of `[a | b]` (rows
    swapped for a nonzero pivot are a minor's rows too). Row i of `x` comes out as integer
    numerators over the last pivot, `+-det a` (nonzero, of either sign). The solution is
    unique, so these are the Fractions elimination over Fractions gives, without a Fraction
    (and its gcd) per step; nor a gcd per row per step, which dividing each row by its
    content took (a fifth of making a rotation). From `INT64_ELIMINATION` rows on, when a
    bound proves every step exact in int64, the same steps run on a numpy array
    (`_eliminate_int64`: the same integers)."""
    n = len(rows)
    if n >= INT64_ELIMINATION and _fits_int64(rows):
        return _eliminate_int64(rows)
    rows = [list(row) for row in rows]
    previous = 1
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        top = rows[col]
        p = top[col]
        for r in range(n):
            if r != col:
                f = rows[r][col]
                rows[r] = ([(p * v - f * w) // previous for v, w in zip(rows[r], top, strict=True)]
                           if f else [p * v // previous for v in rows[r]])
        previous = p
    return [(row[n:], row[i]) for i, row in enumerate(rows)]


#: Rows from which `_eliminate` runs in int64 when it can (`_eliminate_int64`): below it a
#: step's few numpy calls cost more than its Python loop over the entries (rotations of the
#: tight source, 200 each, 2026-11-29: dimension 6 51 us in Python against 47 us in numpy,
#: 8 113 against 64, 10 202 against 85).
INT64_ELIMINATION = 7


def _fits_int64(rows: Sequence[Sequence[int]]) -> bool:
    """Whether every value `_eliminate` computes on `rows` is exact in int64, by Hadamard's
    bound: each entry it holds is (up to sign) a minor of `rows`, at most `H = prod ||row||`
    in magnitude when every row is nonzero (integer rows: norms at least 1), and each step
    computes `p * v - f * w` from four such entries, so `2 H^2 <= 2^63 - 1` bounds them all.
    A zero row (no solution: the Python loop raises) is left to the Python loop."""
    return _norms_fit([sum(v * v for v in row) for row in rows])


def _norms_fit(norms2: Sequence[int]) -> bool:
    """`_fits_int64` of rows of these squared norms: `2 prod norms2 <= 2^63 - 1`, every
    norm nonzero."""
    bound = 2
    for each in norms2:
        if each == 0:
            return False
        bound *= each
        if bound > _INT64_MAX:
            return False
    return True


_INT64_MAX = 2**63 - 1


def _eliminate_int64(rows: Sequence[Sequence[int]]) -> list[tuple[list[int], int]]:
    """`_eliminate` on a numpy int64 array, when `_fits_int64(rows)`: the same pivots (the
    first nonzero one at or below the diagonal) and the same exact divisions, one array
    operation per step for every row at once instead of a Python loop over the entries.
    After step k the columns up to k are `p_k` on the diagonal and 0 elsewhere (what the
    loop computes there: `p_k * 0 // p_(k-1)` and `p_k * p_(k-1) // p_(k-1)`), and no
    later step reads them, so each step combines only the columns after its pivot's and
    the last pivot is every row's denominator, as the loop's diagonal says."""
    n = len(rows)
    M = np.array(rows, dtype=np.int64)
    previous = 1
    for col in range(n):
        pivot = col + int(np.flatnonzero(M[col:, col])[0])
        if pivot != col:
            M[[col, pivot]] = M[[pivot, col]]
        top = M[col, col + 1:].copy()
        p = int(M[col, col])
        f = M[:, col].copy()
        f[col] = 0
        M[:, col + 1:] = (p * M[:, col + 1:] - np.outer(f, top)) // previous
        M[col, col + 1:] = top
        previous = p
    return [(row, previous) for row in M[:, n:].tolist()]


def _rotation_rows(dim: int, seed: int, spread: int = 2) -> list[tuple[list[int], int]]:
    """The rows of `rational_rotation(dim, seed, spread)` as integer numerators over each
    row's denominator (`_eliminate`): the skew matrix drawn, `I + A` and `I - A` formed and
    eliminated in integers, no Fraction made (`rotations_rows`)."""
    return rotations_rows([(dim, seed)], spread)[0]


def _skew_values(dim: int, seed: int, spread: int) -> list[int]:
    """The entries above the diagonal, row by row, of the skew-symmetric `A` of the rotation
    of `seed`: `randint(-spread, spread)` of `random.Random(seed)` each (`randint_of`: its
    integers, faster). Drawing them from the generator's words at once as an array (its
    top bits below `2 spread + 1`) gave the same integers at three times the cost: a
    family's few dozen draws are fewer than an array's calls cost."""
    draw = randint_of(random.Random(seed))
    return [draw(-spread, spread) for _ in range(dim * (dim - 1) // 2)]


#: The largest spread whose systems `rotations_rows` sets in int64 (a row's squared norm, at
#: most `2 + 2 dim spread^2`, then fits it for any dimension an array can hold); past it,
#: each system by itself in Python ints.
JOINT_SPREAD = 2**20


@cache
def _upper(dim: int) -> tuple[np.ndarray, np.ndarray]:
    """The indices above the diagonal of a `dim x dim` matrix, row by row (read-only)."""
    i, j = np.triu_indices(dim, 1)
    return i, j


def rotations_rows(specs: Sequence[tuple[int, int]], spread: int = 2
                   ) -> list[list[tuple[list[int], int]]]:
    """The rows of `rational_rotation(dim, seed, spread)` for each `(dim, seed)` of `specs`
    as integer numerators over each row's denominator: the skews drawn (`_skew_values`), their
    systems `[I + A | I - A]` eliminated together, as one int64 array, when their bound
    holds; each by itself in Python integers (`_eliminate`) when not.

    The tight source rotates half its families, each of dimension 1 to 10, and eliminating
    them one by one cost a Python loop (or a dozen numpy calls) per step of each; together,
    one step is a dozen numpy calls for all of them. A system of dimension `k` is padded
    to the largest, `m`, as `[[I + A, 0 | I - A, 0], [0, I | 0, I]]`: `I + A` (A skew) has
    every leading principal minor positive, so every pivot is on the diagonal (no row swap,
    as `_eliminate` finds: its first nonzero pivot is the diagonal's); after step `k - 1`
    the padded rows are `p_(k-1)` times what they were, so every later pivot is `p_(k-1)`,
    the previous pivot too, and each later step leaves the first `k` rows as they are
    (`p v / p`, their padded columns 0): its rows and denominator are those its own
    elimination gives (a test compares them). The array is used only when Hadamard's bound
    on every padded system holds (`_norms_fit`; a padding row, of squared norm 2, doubles
    it), which bounds every value a step computes."""
    drawn = [_skew_values(dim, seed, spread) for dim, seed in specs]
    out: list[list[tuple[list[int], int]] | None] = [None] * len(specs)
    width = max((dim for dim, _ in specs), default=0)
    if len(specs) > 1 and spread <= JOINT_SPREAD:
        # every system padded to `width` ([I + A, 0 | I - A, 0] over [0, I | 0, I]), its
        # skew's entries set by one scatter for all of them
        M = np.zeros((len(specs), width, 2 * width), dtype=np.int64)
        diagonal = np.arange(width)
        M[:, diagonal, diagonal] = M[:, diagonal, width + diagonal] = 1
        upper = [_upper(dim) for dim, _ in specs]
        at = np.repeat(np.arange(len(specs)), [len(i) for i, _ in upper])
        i = np.concatenate([i for i, _ in upper])
        j = np.concatenate([j for _, j in upper])
        values = np.array([v for each in drawn for v in each], dtype=np.int64)
        M[at, i, j] = M[at, j, width + i] = values
        M[at, j, i] = M[at, i, width + j] = -values
        # Hadamard's bound on each padded system: 2 prod of its rows' squared norms
        fits = [_norms_fit(norms) for norms in np.einsum("bij,bij->bi", M, M).tolist()]
        joint = [k for k, fit in enumerate(fits) if fit and specs[k][0]]
        if len(joint) > 1:
            M = M[joint]
            previous = np.ones(len(joint), dtype=np.int64)
            for col in range(width):
                p = M[:, col, col].copy()
                assert p.all(), "every leading principal minor of I + A is positive"
                top = M[:, col, col + 1:].copy()
                f = M[:, :, col].copy()
                f[:, col] = 0
                M[:, :, col + 1:] = ((p[:, None, None] * M[:, :, col + 1:]
                                      - f[:, :, None] * top[:, None, :])
                                     // previous[:, None, None])
                M[:, col, col + 1:] = top
                previous = p
            dens = previous.tolist()
            for b, k in enumerate(joint):
                dim = specs[k][0]
                out[k] = [(nums, dens[b]) for nums in M[b, :dim, width:width + dim].tolist()]
    for k, (dim, _) in enumerate(specs):
        if out[k] is None:
            A = [[0] * dim for _ in range(dim)]
            values_k = iter(drawn[k])
            for r in range(dim):
                for c in range(r + 1, dim):
                    A[r][c] = next(values_k)
                    A[c][r] = -A[r][c]
            # (I - A)(I + A)^-1 = (I + A)^-1 (I - A): the two factors commute.
            out[k] = _eliminate([[int(r == c) + A[r][c] for c in range(dim)]
                                 + [int(r == c) - A[r][c] for c in range(dim)]
                                 for r in range(dim)])
    return out  # type: ignore[return-value]


def rational_rotation(dim: int, seed: int, spread: int = 2) -> Matrix:
    """An exactly orthogonal rational matrix: the Cayley transform of a random skew `A`."""
    return [[Fraction(v, den) for v in nums] for nums, den in _rotation_rows(dim, seed, spread)]


def orthonormal(labels: Sequence[int], *, scale: Fraction | int = 1, dim: int | None = None,
                rotation_seed: int | None = None) -> TightFamily:
    """`x_i = scale * e_i` (optionally rotated, in `dim >= n` dimensions) with `labels`.

    Rows of an orthogonal matrix are orthonormal too: rotated, the e_i are the rotation's
    first n rows. The separator `u = sum y_i e_i` is summed in integers over the rows'
    common denominator, one Fraction per coordinate (the campaign makes over a thousand of
    these families per audit, and a Fraction per product and partial sum was most of it)."""
    return orthonormal_families([(labels, scale, dim, rotation_seed)])[0]


Spec = tuple[Sequence[int], Fraction | int, int | None, int | None]
"""The arguments of one `orthonormal` family: labels, scale, dim and rotation seed."""


def orthonormal_families(specs: Sequence[Spec]) -> list[TightFamily]:
    """`[orthonormal(labels, scale=scale, dim=dim, rotation_seed=seed) for labels, scale,
    dim, seed in specs]`, the rotations made together (`rotations_rows`: the same
    integers, in a few array operations for all of them instead of an elimination each,
    most of the tight source's drawing)."""
    checked = []
    for labels, scale, dim, rotation_seed in specs:
        n = len(labels)
        width = n if dim is None else dim
        if width < n:
            raise ValueError(f"{n} orthonormal examples need dimension >= {n}")
        c = scale if type(scale) is Fraction else Fraction(scale)
        if c.numerator <= 0:  # a Fraction's denominator is positive
            raise ValueError("scale must be positive")
        checked.append((labels, c, width, rotation_seed))
    rotated = [k for k, (_, _, _, seed) in enumerate(checked) if seed is not None]
    rotations = dict(zip(rotated, rotations_rows([(checked[k][2], checked[k][3])
                                                   for k in rotated]), strict=True))
    families = []
    for k, (labels, c, width, rotation_seed) in enumerate(checked):
        rows = (rotations[k][:len(labels)] if rotation_seed is not None else
                [([int(i == j) for j in range(width)], 1) for i in range(len(labels))])
        families.append(_family(labels, c, width, rows, rotation_seed))
    return families


def _family(labels: Sequence[int], c: Fraction, width: int,
            rows: list[tuple[list[int], int]], rotation_seed: int | None) -> TightFamily:
    """The family of `orthonormal` on `rows`, the examples' directions (integer numerators
    over each row's denominator)."""
    n = len(labels)
    # the examples as integers over one denominator: cell (i, j) is p v / (q den_i) for
    # c = p / q and row i's numerators v over den_i (of either sign), so over q L, L the lcm
    # of the |den_i|, its numerator is p v (L / den_i); brought to the least common
    # denominator (the gcd of all out), the dataset's Fractions are made only if read
    # (`least_dataset`: a campaign's runs read its integer form)
    from perceptron.algorithms.fast import least_dataset

    p, q = c.numerator, c.denominator
    common = lcm(*[abs(den) for _, den in rows]) if rows else 1
    factors = [common // den for _, den in rows]
    table = [[v * (p * f) for v in nums] for (nums, _), f in zip(rows, factors, strict=True)]
    # u's numerators over L, a coordinate at a time: sum_i y_i (L / den_i) v_ik
    weights = [y * f for y, f in zip(labels, factors, strict=True)]
    tops = ([sum(map(mul, weights, column))
             for column in zip(*[nums for nums, _ in rows], strict=True)]
            if rows else [0] * width)
    u = tuple([_fraction(top, common) for top in tops])
    name = f"orthonormal(n={n},scale={c},dim={width},rotation={rotation_seed})"
    return TightFamily(least_dataset(table, q * common, labels, name), u, c,
                       _fraction(p * p, q * q))


def _fraction(top: int, den: int) -> Fraction:
    """`Fraction(top, den)`, remembered (`FRACTIONS` of them; Fractions are immutable, so
    one serves every family): the tight source's separators repeat a few values over a few
    denominators (+-1, 0 over 1 unrotated), and a Fraction made per coordinate, its gcd and
    checks, was about a tenth of making a family."""
    key = (top, den)
    found = _FRACTIONS.get(key)
    if found is None:
        if len(_FRACTIONS) >= FRACTIONS:
            _FRACTIONS.clear()
        found = _FRACTIONS[key] = Fraction(top, den)
    return found


#: The most Fractions `_fraction` remembers (then it starts again).
FRACTIONS = 4096
_FRACTIONS: dict[tuple[int, int], Fraction] = {}


def margin_family(rho: Fraction | int, *, R2: Fraction | int = 1,
                  labels: Sequence[int] | None = None, dim: int | None = None,
                  rotation_seed: int | None = None) -> TightFamily:
    """`floor(rho)` orthogonal examples of squared norm `R2` (labels `labels`, all +1 by
    default) and a separator `u` with `R2 <u, u> / gamma_u^2 = rho` exactly (module
    docstring), in `dim` dimensions (at least what the exact construction needs; the rest
    are zeros), rotated by an exact rational rotation when `rotation_seed` is given."""
    rho, R2 = Fraction(rho), Fraction(R2)
    if rho < 1:
        raise ValueError(f"rho = R^2/gamma^2 must be at least 1, not {rho}")
    if R2 <= 0:
        raise ValueError(f"R2 must be positive, not {R2}")
    k = rho.numerator // rho.denominator
    ys = [1] * k if labels is None else list(labels)
    if len(ys) != k or any(y not in (-1, 1) for y in ys):
        raise ValueError(f"rho = {rho} needs {k} labels in -1/+1, not {labels!r}")
    block = rational_squares(R2)
    completion = rational_squares((rho - k) * R2)
    need = k * len(block) + len(completion)
    width = need if dim is None else dim
    if width < need:
        raise ValueError(f"rho = {rho}, R2 = {R2} need {need} dimensions exactly, not {width}")
    zero = Fraction(0)
    X = [[zero] * width for _ in range(k)]
    u = [zero] * width
    for i, y in enumerate(ys):
        for j, v in enumerate(block):
            X[i][i * len(block) + j] = v
            u[i * len(block) + j] = y * v
    for j, v in enumerate(completion):
        u[k * len(block) + j] = v
    if rotation_seed is not None:
        Q = rational_rotation(width, rotation_seed)
        X = [[sum((Q[r][c] * row[r] for r in range(width)), zero) for c in range(width)]
             for row in X]
        u = [sum((Q[r][c] * u[r] for r in range(width)), zero) for c in range(width)]
    name = f"margin-family(rho={rho},R2={R2},dim={width},rotation={rotation_seed})"
    return TightFamily(Dataset(tuple(tuple(row) for row in X), tuple(ys), name), tuple(u), R2, R2)
