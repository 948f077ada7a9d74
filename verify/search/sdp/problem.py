"""The Gram-matrix problem of one claim, and its numeric solution by Clarabel.

For a claim `p >= 0` (or `p > 0`) under inequalities `g_i >= 0` and equalities `e_j == 0`:

    p - eps  ==  z0' Q0 z0  +  sum_b g_b * (zb' Qb zb)  +  sum_j q_j * e_j,   Q0, Qb PSD,

where `g_b` runs over the inequality hypotheses and (while few) their pairwise products, each
`z` is a vector of monomials of the judgement's own generators and `q_j` are free
polynomials; `eps` is 0 for `>=` and is maximised (up to 1) for `>`. The relaxation degree
`D` (even) bounds every term: `z0` has degree <= D/2, `zb` <= (D - deg g_b)/2. Without
hypotheses `z0` is pruned to the Newton half box of `p` (each generator's exponent at most
half its largest in `p`, total degree between half the least and half the largest).

Determinism: the problem is built in a fixed order from the judgement alone, Clarabel runs
single-threaded under an iteration limit (`sdp_iterations`) with no time limit, and the size
(`sdp_entries`, Gram entries over all blocks) is checked before solving; so a point, and the
verdict the exact rounding draws from it, is the same on any machine. The solver is untrusted:
a failed or inaccurate solve only means no certificate.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np
from sympy.polys.rings import PolyElement

from verify.search.polynomials import Context, degree
from verify.search.work import TimeCap

Monomial = tuple[int, ...]
MAX_PAIRED = 6  # products of two hypotheses are blocks only while there are this few
SQRT2 = math.sqrt(2.0)

try:  # optional: without it the search has no dense sums of squares (README, "Set-up")
    import clarabel
except ImportError:  # pragma: no cover - exercised by monkeypatching in the tests
    clarabel = None


class SdpUnavailable(Exception):
    """The conic solver is not installed, or failed on this problem (the message says)."""


@dataclass(frozen=True)
class Block:
    """`factor * z' Q z`: `hyps` index the hypotheses whose product is `factor`."""

    hyps: tuple[int, ...]
    factor: PolyElement
    basis: tuple[Monomial, ...]

    @property
    def entries(self) -> int:
        """The unknowns of its Gram matrix (upper triangle)."""
        n = len(self.basis)
        return n * (n + 1) // 2


@dataclass(frozen=True)
class Problem:
    """The blocks (the first is `Q0`, without hypotheses), equality multiples, the target."""

    target: PolyElement
    blocks: tuple[Block, ...]
    multiples: tuple[tuple[int, Monomial], ...]  # (equality index, monomial of q_j)
    strict: bool

    @property
    def entries(self) -> int:
        return sum(b.entries for b in self.blocks) + len(self.multiples)


@dataclass(frozen=True)
class Point:
    """The solver's answer: a Gram matrix per block, the multiples' values, and eps."""

    grams: tuple[np.ndarray, ...]
    multiples: np.ndarray
    eps: float


def monomials(ctx: Context, max_degree: int, min_degree: int = 0) -> list[Monomial]:
    """Exponent tuples in the judgement's used generators, degree in [min, max], graded."""
    width = len(ctx.gens)
    out: list[Monomial] = []
    for d in range(max(min_degree, 0), max_degree + 1):
        for combo in combinations_with_replacement(ctx.used, d):
            exponent = [0] * width
            for i in combo:
                exponent[i] += 1
            out.append(tuple(exponent))
    return out


def _newton_box(ctx: Context, target: PolyElement) -> list[Monomial]:
    """The half basis of a hypothesis-free target: a square's monomials must fit it."""
    if not target:
        return []
    top = [max(m[i] for m in target) // 2 for i in range(len(ctx.gens))]
    low = min(sum(m) for m in target)
    return [m for m in monomials(ctx, degree(target) // 2, (low + 1) // 2)
            if all(e <= t for e, t in zip(m, top, strict=True))]


def problems(ctx: Context, target: PolyElement, strict: bool, levels: int,
             inequalities: bool = True) -> Iterator[Problem]:
    """The problems of increasing relaxation degree, `levels` of them (the budget's choice);
    without `inequalities`, only the free block and the equality multiples: the shape
    `m * p == sigma + sum q_j e_j` of a target already multiplied by strict hypotheses, whose
    exact rounding hypothesis blocks would only spoil (their weights trade off against the
    multiples', and rounding each apart leaves a residue no block absorbs)."""
    ineq = [i for i in range(len(ctx.hyps)) if ctx.judgement.hypotheses[i].kind != "=="
            and ctx.hyps[i] and inequalities]
    eqs = [j for j in ctx.indices("==") if ctx.hyps[j]]
    factors: list[tuple[tuple[int, ...], PolyElement]] = [((i,), ctx.hyps[i]) for i in ineq]
    if len(ineq) <= MAX_PAIRED:
        factors += [((i, k), ctx.hyps[i] * ctx.hyps[k])
                    for i, k in combinations_with_replacement(ineq, 2) if i != k]
    top = max([degree(target), *(degree(f) for _, f in factors), 1])
    start = top + top % 2
    for level in range(levels):
        bound = start + 2 * level
        if not factors and not eqs:
            if level:
                return  # a hypothesis-free target has one Newton box
            basis = _newton_box(ctx, target - 1 if strict else target)
            if not basis:  # a constant target (`|- 0 >= 0`): no square to round, and the
                return  # free block, dropped empty, left `rounding` no block 0 (IndexError)
        else:
            basis = monomials(ctx, bound // 2)
        blocks = [Block((), ctx.ring.one, tuple(basis))]
        for hyps, factor in factors:
            room = bound - degree(factor)
            if room >= 0:
                blocks.append(Block(hyps, factor, tuple(monomials(ctx, room // 2))))
        multiples = tuple((j, m) for j in eqs
                          for m in monomials(ctx, bound - degree(ctx.hyps[j])))
        yield Problem(target, tuple(b for b in blocks if b.basis), multiples, strict)


def solve(ctx: Context, problem: Problem) -> Point | None:
    """Clarabel's point for `problem`, or None when it reports the problem infeasible.

    Raises `SdpUnavailable` when Clarabel is missing or fails outright (bad numerics)."""
    if clarabel is None:
        raise SdpUnavailable("the SDP solver clarabel is not installed (pip install clarabel)")
    from scipy import sparse  # when an SDP is solved: a step the LP proves never loads it

    rows: dict[Monomial, int] = {}
    for monomial in problem.target:
        rows.setdefault(monomial, len(rows))
    entries: list[tuple[int, int, float]] = []  # (row monomial index, column, value)
    column = 0
    offsets = []
    for block in problem.blocks:
        offsets.append(column)
        n = len(block.basis)
        for j in range(n):
            for i in range(j + 1):
                scale = 1.0 if i == j else SQRT2  # svec: off-diagonals scaled by sqrt 2
                product = tuple(a + b for a, b in zip(block.basis[i], block.basis[j],
                                                      strict=True))
                for monomial, coeff in block.factor.items():
                    key = tuple(a + b for a, b in zip(product, monomial, strict=True))
                    entries.append((rows.setdefault(key, len(rows)), column,
                                    scale * float(coeff)))
                column += 1
    first_multiple = column
    for j, m in problem.multiples:
        for monomial, coeff in ctx.hyps[j].items():
            key = tuple(a + b for a, b in zip(m, monomial, strict=True))
            entries.append((rows.setdefault(key, len(rows)), column, float(coeff)))
        column += 1
    eps_column = column
    n_vars = column + 1
    constant = rows.setdefault((0,) * len(ctx.gens), len(rows))
    entries.append((constant, eps_column, 1.0))
    ctx.work.charge("terms", len(entries))
    m_eq = len(rows)
    r, c, v = zip(*entries, strict=True) if entries else ((), (), ())
    a_eq = sparse.csc_matrix((v, (r, c)), shape=(m_eq, n_vars))
    b_eq = np.zeros(m_eq)
    for monomial, coeff in problem.target.items():
        b_eq[rows[monomial]] = float(coeff)
    # eps: 0 <= eps <= 1 when strict, eps == 0 otherwise
    eps_rows = sparse.csc_matrix(([-1.0, 1.0], ([0, 1], [eps_column] * 2)), shape=(2, n_vars))
    eps_b = np.array([0.0, 1.0 if problem.strict else 0.0])
    psd = [sparse.csc_matrix((-np.ones(b.entries), (np.arange(b.entries),
                                                     np.arange(o, o + b.entries))),
                             shape=(b.entries, n_vars))
           for b, o in zip(problem.blocks, offsets, strict=True)]
    a = sparse.vstack([a_eq, eps_rows, *psd]).tocsc()
    b = np.concatenate([b_eq, eps_b, *(np.zeros(blk.entries) for blk in problem.blocks)])
    cones = [clarabel.ZeroConeT(m_eq), clarabel.NonnegativeConeT(2),
             *(clarabel.PSDTriangleConeT(len(blk.basis)) for blk in problem.blocks)]
    q = np.zeros(n_vars)
    q[eps_column] = -1.0 if problem.strict else 0.0
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.max_iter = ctx.work.budget.sdp_iterations
    settings.max_threads = 1
    settings.chordal_decomposition_enable = False
    if (left := ctx.work.seconds_left()) is not None:  # only --time-limit is a clock: one
        settings.time_limit = left  # solve overran a 2 s cap by seconds (red team 17 F3)
    try:
        solution = clarabel.DefaultSolver(sparse.csc_matrix((n_vars, n_vars)), q, a, b, cones,
                                          settings).solve()
    except Exception as error:  # an untrusted solver may fail in any way
        raise SdpUnavailable(f"the SDP solver failed: {error}") from error
    status = str(solution.status)
    if "MaxTime" in status:  # the guard's seconds ran out inside the solver
        raise TimeCap("time cap reached during an SDP")
    if "Infeasible" in status:
        return None
    x = np.asarray(solution.x, dtype=float)
    if x.shape != (n_vars,) or not np.all(np.isfinite(x)):
        raise SdpUnavailable(f"the SDP solver returned no usable point ({status})")
    grams = tuple(_unpack(x[o : o + blk.entries], len(blk.basis))
                  for blk, o in zip(problem.blocks, offsets, strict=True))
    return Point(grams, x[first_multiple:eps_column], float(x[eps_column]))


def _unpack(svec: np.ndarray, n: int) -> np.ndarray:
    """The symmetric matrix of a Clarabel svec (upper triangle by columns, sqrt 2 scaled)."""
    matrix = np.zeros((n, n))
    k = 0
    for j in range(n):
        for i in range(j + 1):
            value = svec[k] if i == j else svec[k] / SQRT2
            matrix[i, j] = matrix[j, i] = value
            k += 1
    return matrix
