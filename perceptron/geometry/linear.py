"""Exact data geometry: radius, margins, and exact integer linear algebra.

Everything here is exact: Fractions and Python integers. Floats never enter a result.

- `radius2(data)`: R^2 = max_i ||x_i||^2, measured from the origin.
- `margin2(data, w, b)`: the signed squared margin of the separator (w, b),
  sign(m) * m^2 / ||w||^2 with m = min_i y_i (<w, x_i> + b).

The second half is the exact linear algebra that the certificate searches use: a linear
system over the integers is solved exactly by p-adic (Dixon) lifting with numpy doing the
arithmetic modulo a prime and Python integers holding the lifted solution; small or
awkward systems use Fraction elimination. A solver's answer is exact by construction, and
every certificate built from one is checked exactly again by its own `check`.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from fractions import Fraction
from functools import reduce
from operator import attrgetter, mul

import numpy as np

from perceptron.dataset import Dataset
from perceptron.errors import DataError, WorkLimitError

__all__ = [
    "SingularSystem",
    "common_denominator",
    "dot",
    "float_rows",
    "functional_margins",
    "int_dot",
    "margin2",
    "margin_numerators",
    "norm2",
    "radius2",
    "scaled_combination",
    "scaled_matrix",
    "scaled_products",
    "scaled_rows",
    "shared_fractions",
    "solve_integer_system",
]


# ---------------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------------


def dot(u: Sequence[Fraction], v: Sequence[Fraction]) -> Fraction:
    """The exact inner product of two equally long vectors."""
    if len(u) != len(v):
        raise ValueError(f"vectors of lengths {len(u)} and {len(v)}")
    return _frac_dot(u, v)


def norm2(v: Sequence[Fraction]) -> Fraction:
    """The exact squared Euclidean norm."""
    return _frac_dot(v, v)


def radius2(data: Dataset) -> Fraction:
    """R^2 = max_i ||x_i||^2, exactly (for a bias, pass `data.augmented()`)."""
    s, rows = scaled_rows(data)
    return Fraction(max(int_dot(x, x) for x in rows), s * s)


_SCALED: dict[int, tuple[weakref.ref[Dataset], int, list[list[int]]]] = {}


def scaled_rows(data: Dataset) -> tuple[int, list[list[int]]]:
    """`(s, rows)` with `rows[i] = s * x_i` integral: `data.scale()` and
    `data.integer_rows()`, computed once per dataset object (do not mutate the rows)."""
    key = id(data)
    hit = _SCALED.get(key)
    if hit is not None and hit[0]() is data:
        return hit[1], hit[2]
    s, matrix, _top = scaled_matrix(data)
    rows = matrix.tolist() if data.d else [[] for _ in range(data.n)]
    _SCALED[key] = (weakref.ref(data, lambda _r, key=key: _SCALED.pop(key, None)), s, rows)
    return s, rows


def scaled_matrix(data: Dataset) -> tuple[int, np.ndarray, int]:
    """`(s, M, top)`: `scaled_rows` as an n x d array (int64 when every entry fits, else an
    object array of Python ints) and `top = max |M_ij|`.

    It is the run's integer form (`perceptron.algorithms.fast.integer_form`: one home for
    the computation, and a loader hands it over without a pass over the cells' Fractions);
    data whose common denominator that form refuses (more than `MAX_SCALE_BITS` bits) are
    scaled here from their Fractions, as before."""
    from perceptron.algorithms.fast import integer_form

    if data.d == 0:  # no cells: the least common denominator of nothing is 1
        return 1, np.zeros((data.n, 0), dtype=np.int64), 0
    try:
        form = integer_form(data)
    except DataError:
        hit = _SCALED.get(id(data))
        s, rows = (hit[1], hit[2]) if hit is not None and hit[0]() is data else (
            data.scale(), data.integer_rows())
        matrix = np.empty((data.n, data.d), dtype=object)
        matrix[:] = rows
        return s, matrix, max((abs(v) for r in rows for v in r), default=0)
    return form.scale, form.rows, form.max_abs


def scaled_combination(data: Dataset, indices: Sequence[int], coefficients: Sequence[int]
                       ) -> list[int]:
    """`sum_k coefficients[k] * s x_(indices[k])` exactly, as Python ints (d of them): numpy
    in int64 when a bound proves no entry or partial sum overflows, Python ints beyond
    (`perceptron.algorithms.fast.exact_combination`)."""
    from perceptron.algorithms.fast import exact_combination

    if not indices:
        return [0] * data.d
    _s, matrix, top = scaled_matrix(data)
    return exact_combination(coefficients, matrix[list(indices)], top)


def float_rows(data: Dataset) -> np.ndarray:
    """The features as a float array, up to one positive common factor (untrusted uses only:
    warm starts and float LPs, whose answers are direction-invariant and re-checked exactly).

    The factor is 1 when every feature and the common denominator fit a float. Data such as
    `1e308` (whose squares overflow) or `1e-400` (which underflows to 0) are scaled first:
    the integer rows `s * x_i` are shifted so that the largest entry has about 500 bits,
    which never overflows, not even in a squared norm.
    """
    s, matrix, top_value = scaled_matrix(data)
    if matrix.dtype != object and s.bit_length() <= 500:  # int64 to float64: correctly rounded
        return matrix.astype(np.float64) / float(s)
    s, rows = scaled_rows(data)
    top = top_value.bit_length()  # bits of max |v|
    if top <= 500 and s.bit_length() <= 500:
        return np.array(rows, dtype=np.float64) / float(s)
    shift = max(top - 500, 0)
    return np.array([[_shifted(v, shift) for v in x] for x in rows], dtype=np.float64)


def _shifted(v: int, shift: int) -> float:
    """`v / 2**shift` as a float (`v` has at most `shift + 500` bits, so it fits)."""
    return float(v >> shift) if v >= 0 else -float(-v >> shift)


def margin2(data: Dataset, w: Sequence[object], b: object = 0) -> Fraction:
    """The signed squared geometric margin of the separator (w, b) on `data`.

    With m = min_i y_i (<w, x_i> + b), returns m^2 / ||w||^2 when m >= 0 and -m^2 / ||w||^2
    when m < 0 (some example is strictly misclassified). `w` must not be zero.
    """
    from perceptron.numbers import exact

    wv = tuple(exact(v) for v in w)
    bv = exact(b)
    if len(wv) != data.d:
        raise DataError(f"separator has {len(wv)} coordinates, data has {data.d} features")
    nw = norm2(wv)
    if nw == 0:
        raise DataError("the zero vector is not a separator: its margin is undefined")
    m = min(functional_margins(data, wv, bv))
    return (m * m / nw) if m >= 0 else -(m * m / nw)


def functional_margins(
    data: Dataset, w: Sequence[Fraction], b: Fraction = Fraction(0)
) -> list[Fraction]:
    """The exact values y_i (<w, x_i> + b), one per example, in integer arithmetic."""
    numerators, den = margin_numerators(data, w, b)
    return [Fraction(m, den) for m in numerators]


def margin_numerators(
    data: Dataset, w: Sequence[Fraction], b: Fraction = Fraction(0)
) -> tuple[list[int], int]:
    """`(M, D)` with `y_i (<w, x_i> + b) == M[i] / D` exactly and `D > 0` (not reduced): the
    functional margins without a Fraction per example, for comparisons of all of them."""
    wn, wd = common_denominator(w)
    s = scaled_matrix(data)[0]
    # y_i (<w, x_i> + b) = y_i (<wn, xint_i> + b * wd * s) / (wd * s)
    den = wd * s
    bden = b * den
    bn, bd = bden.numerator, bden.denominator
    products = scaled_products(data, wn)
    return [yi * (p * bd + bn) for p, yi in zip(products, data.y, strict=True)], den * bd


def scaled_products(data: Dataset, vector: Sequence[int]) -> list[int]:
    """`<vector, s x_i>` for every example, exactly, as Python ints: one numpy product in
    int64 when a bound proves no partial sum overflows (`max |s x_ik| * sum_k |vector_k| <
    2**63`), else a C-level sum of Python-int products per example (cutting a million big
    coordinates into int64 limbs cost more than the few products it saves)."""
    _s, matrix, top = scaled_matrix(data)
    if top == 0:  # every entry 0 (or none): no int64 cast of a vector past 2**63 (red team 33)
        return [0] * data.n
    l1 = sum(map(abs, vector))
    if matrix.dtype != object and top * l1 < 2**63 and data.d:
        return (matrix @ np.array(vector, dtype=np.int64)).tolist()
    return [int_dot(vector, x) for x in scaled_rows(data)[1]]


# ---------------------------------------------------------------------------------------------
# Exact helpers over the integers
# ---------------------------------------------------------------------------------------------


def int_dot(u: Sequence[int], v: Sequence[int]) -> int:
    """The inner product of two integer vectors, as a Python int (a C-level sum of products:
    the exact core of `dot` once a common denominator is out)."""
    return sum(map(mul, u, v))


def _frac_dot(u: Sequence[Fraction], v: Sequence[Fraction]) -> Fraction:
    un, ud = common_denominator(u)
    vn, vd = (un, ud) if v is u else common_denominator(v)
    return Fraction(int_dot(un, vn), ud * vd)


_COMMON: dict[int, tuple[tuple[object, ...], tuple[int, ...], int]] = {}


def common_denominator(v: Sequence[Fraction]) -> tuple[Sequence[int], int]:
    """(numerators, D) with v[i] == numerators[i] / D and D > 0 the least common denominator.

    Remembered for the last few tuples, by identity (a separator's norm, margins and checks
    read the same million-coordinate `w` several times; held here, so that its `id` stays
    its own)."""
    if type(v) is not tuple:
        return _common(v)
    known = _COMMON.get(id(v))
    if known is None or known[0] is not v:
        if len(_COMMON) >= 8:
            _COMMON.clear()
        numerators, den = _common(v)
        known = _COMMON[id(v)] = (v, tuple(numerators), den)
    return known[1], known[2]


_NUMERATOR = attrgetter("numerator")
_DENOMINATOR = attrgetter("denominator")


def _common(v: Sequence[object]) -> tuple[list[int], int]:
    if not v:
        return [], 1
    # ints and Fractions as they are, read by C-level maps (a Python loop over the entries
    # was most of `novikoff bound` on a million features); anything else exact by `Fraction`
    if set(map(type, v)) <= {int, Fraction}:
        exact: Sequence[object] = v
    else:
        exact = [q if type(q) is int or type(q) is Fraction else Fraction(q) for q in v]
    dens = list(map(_DENOMINATOR, exact))
    distinct = set(dens)
    den = math.lcm(*distinct)
    numerators = map(_NUMERATOR, exact)
    if den == 1:
        return list(numerators), 1
    factor = {q: den // q for q in distinct}  # a few distinct denominators: one division each
    return list(map(mul, numerators, map(factor.__getitem__, dens))), den


def shared_fractions(numerators: Sequence[int], factor: int, denominator: int
                     ) -> tuple[Fraction, ...]:
    """The Fractions `numerators[k] * factor / denominator`, one object made per distinct
    numerator and shared (a million coordinates of a separator of small-integer data take a
    few thousand values; a Fraction built per coordinate was seconds)."""
    table = {v: Fraction(v * factor, denominator) for v in set(numerators)}
    return tuple(map(table.__getitem__, numerators))


def integer_gram(rows: Sequence[Sequence[int]]) -> list[list[int]]:
    """The exact Gram matrix <r_i, r_j> of integer rows (numpy int64 when it cannot overflow)."""
    n = len(rows)
    if n == 0:
        return []
    d = len(rows[0])
    big = max((abs(v) for r in rows for v in r), default=0)
    if d == 0:
        return [[0] * n for _ in range(n)]
    if big * big * d < 2**62:
        a = np.array(rows, dtype=np.int64)
        return (a @ a.T).tolist()
    return [[int_dot(rows[i], rows[j]) for j in range(n)] for i in range(n)]


# ---------------------------------------------------------------------------------------------
# Exact linear systems over the integers
# ---------------------------------------------------------------------------------------------


class SingularSystem(ArithmeticError):
    """The matrix is singular (or singular modulo every prime tried: caller must not assume)."""


def _is_prime(m: int) -> bool:
    if m < 2:
        return False
    if m % 2 == 0:
        return m == 2
    f = 3
    while f * f <= m:
        if m % f == 0:
            return False
        f += 2
    return True


def _primes_below(top: int, count: int) -> tuple[int, ...]:
    out = []
    m = top - 1
    while len(out) < count:
        if _is_prime(m):
            out.append(m)
        m -= 1
    return tuple(out)


#: Primes below 2^25: products of two residues fit in 50 bits, sums of 4096 of them in int64.
_PRIMES = _primes_below(2**25, 4)
_P_BITS = 25


#: The work budget of the exact solves of one computation (one maximum margin, one
#: separability decision), in limb operations as `solve_integer_system` charges them (an
#: upper estimate: about 3 * 10^9 of them per CPU-second on the busy 2-core machine where it
#: was measured): this many per number of the data (a cell), and at least `SOLVE_WORK_FLOOR`.
#: The benchmark's hardest files, Z3200 and Z12800 (100 x 1000 cells over denominators up
#: to 3200 and 12800), charge 2.8 and 3.5 * 10^10 of their 10^11; every other benchmark file and
#: built-in example under 2^23. A 1.6 KB file of 200 cells such as `7e9999` and `3e-5000`,
#: whose solves would take hours, is stopped at the floor (2^32, about 1.5 CPU-seconds).
SOLVE_WORK_PER_CELL = 2**20
SOLVE_WORK_FLOOR = 2**32


def default_solve_work(rows: Sequence[Sequence[int]]) -> int:
    """The default budget of the exact solves on data whose integer form is `rows`: linear in
    the number of cells, so what a file may ask of the solver grows with what it holds, not
    with how large its numbers are (a few huge numbers are a few cells), never below the
    floor that small data need."""
    cells = sum(map(len, rows))
    return max(SOLVE_WORK_FLOOR, SOLVE_WORK_PER_CELL * cells)


#: How a budget of `default_solve_work` is said when it fires.
DEFAULT_SOLVE_WORK_WHY = "2^20 per number of the data, at least 2^32"


class SolveBudget:
    """Work allowed to the exact linear solves of one computation, in limb operations.

    Why: the exact elimination makes about n^3 operations on integers that grow up to the
    Hadamard bound's size, each quadratic in their limbs; a small file of huge and tiny
    numbers makes them millions of bits, and the solve would run for hours. Each piece of
    work is charged before it is done (`solve_integer_system`), so a budget that would be
    exceeded fires before the work, and the same input stops at the same piece on any
    machine (a count, never a clock).
    """

    def __init__(self, limit: int, *, what: str = "the exact solve", why: str = "max_work",
                 source: str | None = None) -> None:
        self.limit = limit
        self.why = why
        self.what = what
        self.source = source
        self.spent = 0

    def charge(self, cost: int) -> None:
        """Count `cost`; raise `WorkLimitError` (spending nothing) when it would pass the limit."""
        if self.spent + cost > self.limit:
            raise WorkLimitError(
                f"{self.what} not computed: its exact linear algebra would pass its work limit "
                f"of {self.limit} limb operations ({self.why}): the numbers of these data are "
                f"too large, or too many digits apart, to solve exactly, and no result is "
                f"given; no command-line option raises the limit (in Python: max_work= of "
                f"max_margin or exact_ldp)",
                source=self.source)
        self.spent += cost


def _limbs_squared(bits: int) -> int:
    """The cost of one operation on numbers of `bits` bits: quadratic in 64-bit limbs (CPython's
    gcd and division, which every Fraction operation makes)."""
    limbs = bits // 64 + 1
    return limbs * limbs


def _padic_cost(a: Sequence[Sequence[int]], b: Sequence[int]) -> int:
    """The predicted work of the p-adic solve in limb operations: an inverse mod p (n^3 machine
    operations), one digit of 25 bits per n^2 products up to Hadamard's bound `h` on the
    solution's size (the columns' bit sizes summed, each its largest entry's plus log2 n),
    then n reconstructions quadratic in h's limbs."""
    n = len(a)
    spread = n.bit_length()
    h = sum(max(abs(r[j]).bit_length() for r in a) + spread for j in range(n))
    h += max(abs(v).bit_length() for v in b) + spread
    return n**3 + n * n * (h // _P_BITS + 1) + n * _limbs_squared(h)


def _padic_path(a: Sequence[Sequence[int]], b: Sequence[int]) -> bool:
    """Whether `solve_integer_system` lifts p-adically (large systems of machine integers)."""
    n = len(a)
    if n <= 24 or n > 4096:
        return False
    big_a = max(abs(v) for r in a for v in r)
    big_b = max(abs(v) for v in b)
    return big_a * n * (_PRIMES[0] + 1) < 2**62 and big_b < 2**62


def solve_integer_system(
    a: Sequence[Sequence[int]], b: Sequence[int], budget: SolveBudget | None = None
) -> tuple[list[int], int]:
    """Solve A x = b exactly for square integer A: returns (numerators, D) with x = num / D.

    Raises `SingularSystem` when A is singular. (With the modular method a matrix that is
    singular modulo every prime tried is reported singular too; that never yields a wrong
    solution, only a refusal, and it has probability about n / 2^25 per prime.) With a
    `budget`, each piece of work is charged before it is done (the p-adic solve at once, the
    Fraction elimination pivot by pivot, by the sizes its numbers have reached), and
    `WorkLimitError` is raised instead of doing a piece that would exceed it.
    """
    n = len(a)
    if any(len(r) != n for r in a) or len(b) != n:
        raise ValueError("solve_integer_system needs a square system")
    if n == 0:
        return [], 1
    big_a = max(abs(v) for r in a for v in r)
    if big_a == 0:
        raise SingularSystem("zero matrix")
    if not _padic_path(a, b):
        return _solve_fraction(a, b, budget)
    if budget is not None:
        budget.charge(_padic_cost(a, b))
    return _solve_padic(a, b)


def _solve_fraction(a: Sequence[Sequence[int]], b: Sequence[int],
                    budget: SolveBudget | None = None) -> tuple[list[int], int]:
    """Gauss–Jordan elimination in Fractions with the sparsest available pivot.

    With a `budget`, each pivot's row operations are charged before they are done: one
    Fraction multiply-and-subtract per entry of each row updated, each quadratic in the limbs
    of the pivot row's largest entry and the row's factor (the sizes the numbers have reached,
    so data whose Fractions cancel, as a common denominator does, are charged what they cost).
    """
    n = len(a)
    m = [[Fraction(v) for v in row] + [Fraction(bv)] for row, bv in zip(a, b, strict=True)]
    for k in range(n):
        piv = None
        for r in range(k, n):
            if m[r][k] != 0 and (piv is None or _size(m[r][k]) < _size(m[piv][k])):
                piv = r
        if piv is None:
            raise SingularSystem(f"singular at column {k}")
        m[k], m[piv] = m[piv], m[k]
        pk = m[k]
        if budget is not None:
            top = max(map(_size, pk)) + _size(pk[k])
            cost = (n + 1) * _limbs_squared(top)
            cost += sum((n + 1) * _limbs_squared(top + _size(m[r][k]))
                        for r in range(n) if r != k and m[r][k] != 0)
            budget.charge(cost)
        inv = 1 / pk[k]
        pk = m[k] = [v * inv for v in pk]
        for r in range(n):
            if r != k and m[r][k] != 0:
                f = m[r][k]
                row = m[r]
                m[r] = [rv - f * pv for rv, pv in zip(row, pk, strict=True)]
    return common_denominator([m[i][n] for i in range(n)])


def _size(q: Fraction) -> int:
    return q.numerator.bit_length() + q.denominator.bit_length()


def _inverse_mod(a: np.ndarray, p: int) -> np.ndarray | None:
    """A^-1 mod p by Gauss–Jordan on [A | I] in int64, or None if A is singular mod p."""
    n = a.shape[0]
    m = np.concatenate([a % p, np.eye(n, dtype=np.int64)], axis=1)
    for k in range(n):
        nz = np.flatnonzero(m[k:, k])
        if nz.size == 0:
            return None
        r = k + int(nz[0])
        if r != k:
            m[[k, r]] = m[[r, k]]
        inv = pow(int(m[k, k]), -1, p)
        m[k, k:] = (m[k, k:] * inv) % p
        col = m[:, k].copy()
        col[k] = 0
        rows = np.flatnonzero(col)
        if rows.size:
            m[rows, k:] = (m[rows, k:] - np.outer(col[rows], m[k, k:])) % p
    return m[:, n:]


def _log2_norm(v: Sequence[int]) -> float:
    s = sum(x * x for x in v)
    return 0.5 * math.log2(s) if s else float("-inf")


def _solve_padic(a: Sequence[Sequence[int]], b: Sequence[int]) -> tuple[list[int], int]:
    """Dixon's p-adic lifting: A^-1 mod p once, then one matrix–vector product per digit."""
    n = len(a)
    an = np.array(a, dtype=np.int64)
    for p in _PRIMES:
        c = _inverse_mod(an, p)
        if c is not None:
            break
    else:
        raise SingularSystem("singular modulo every prime tried")
    # Hadamard: |det A| <= prod ||col_j||; Cramer numerators <= ||b|| prod_{l != j} ||col_l||.
    cols = [_log2_norm([a[i][j] for i in range(n)]) for j in range(n)]
    if any(c_ == float("-inf") for c_ in cols):
        raise SingularSystem("zero column")
    log_det = sum(cols)
    log_b = _log2_norm(b)
    log_num = log_det + max(log_b, 0.0) - min(cols) if log_b != float("-inf") else 0.0
    if log_b == float("-inf"):
        return [0] * n, 1
    need_bits = log_det + log_num + 4 + 1e-9 * (log_det + log_num) + 8
    k = max(1, math.ceil(need_bits / math.log2(p)))
    r = np.array(b, dtype=np.int64)
    digits = np.empty((k, n), dtype=np.int64)
    for i in range(k):
        x = (c @ (r % p)) % p
        digits[i] = x
        r = (r - an @ x) // p
    # Combine the digits x = sum_i digits[i] * p^i by pairwise (divide and conquer) products.
    level = [row for row in digits.tolist()]
    step = p
    while len(level) > 1:
        nxt = []
        for t in range(0, len(level) - 1, 2):
            lo, hi = level[t], level[t + 1]
            nxt.append([u + v * step for u, v in zip(lo, hi, strict=True)])
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
        step = step * step
    values = level[0]
    modulus = p**k
    num_bound = 2 ** math.ceil(log_num + 1)
    den_bound = 2 ** math.ceil(log_det + 1)
    half = modulus // 2
    den = 1
    nums: list[int] = []
    for j, v in enumerate(values):
        t = (v * den) % modulus
        if t > half:
            t -= modulus
        if abs(t) <= num_bound:
            nums.append(t)
            continue
        rec = _rational_reconstruction(t % modulus, modulus, num_bound, max(1, den_bound // den))
        if rec is None:  # pragma: no cover - excluded by the Hadamard bound
            raise SingularSystem("rational reconstruction failed")
        num, extra = rec
        den *= extra
        nums = [q * extra for q in nums]
        nums.append(num)
        assert len(nums) == j + 1
    g = reduce(math.gcd, nums, den)
    if g > 1:
        nums = [q // g for q in nums]
        den //= g
    return nums, den


def _rational_reconstruction(
    u: int, m: int, num_bound: int, den_bound: int
) -> tuple[int, int] | None:
    """The fraction n/d with n == d u (mod m), |n| <= num_bound, 0 < d <= den_bound."""
    r0, r1 = m, u % m
    t0, t1 = 0, 1
    while r1 > num_bound:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
    if t1 == 0 or abs(t1) > den_bound:
        return None
    if t1 < 0:
        r1, t1 = -r1, -t1
    return r1, t1
