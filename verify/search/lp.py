"""The LP of the certificate search: its two kinds of column, and the feasibility problem.

A certificate is a combination of columns matching `m * gap` coefficient by coefficient:
`Term`s enter with a weight >= 0 (they are nonnegative under the hypotheses), `Multiple`s of an
equality hypothesis with any sign (they vanish under the hypotheses).

Columns are built by the hundred and few end up in a certificate, so a term's square (a SymPy
object for the certificate) is built only when asked for: the LP needs only `poly`.

The coefficient-matching feasibility LP is untrusted (floating point, HiGHS). Unknowns: a
weight >= 0 per `Term`, a free value per `Multiple`, and a scale `c >= 1` on the target, so
the system `sum w_k T_k + sum q_j M_j - c * target == 0` is homogeneous and any positive
solution can be scaled; for strict claims the strict terms must add up to >= 1. Minimising
the total weight favours sparse supports, which round to rationals more easily.

The solve is bounded by work, not time: an LP over the size budget is not attempted, and HiGHS
runs its serial dual simplex under an iteration limit (`maxiter`) with no time limit, so the
same input gives the same point whatever the load.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from sympy.polys.rings import PolyElement

from verify.kernel import Sos
from verify.search.polynomials import PerElement, degree
from verify.search.work import Work

# -- the columns -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Term:
    """`prod(hypotheses[i] for i in hyps) * square`, nonnegative; `poly` is its expansion.

    `square` builds the sum-of-squares factor (None: a bare hypothesis product). `strict` marks
    a product of strict hypotheses without squares: the only kind of term that the kernel
    accepts as the strictly positive part of a certificate for a strict claim.
    """

    hyps: tuple[int, ...]
    poly: PolyElement
    strict: bool = False
    square: Callable[[], Sos] | None = None

    @property
    def degree(self) -> int:
        """Total degree of `poly` (0 for the zero polynomial)."""
        return degree(self.poly)

    @cached_property
    def sigma(self) -> tuple[Sos, ...]:
        """The certificate's `sigma` for this term (built on first use)."""
        return () if self.square is None else (self.square(),)


@dataclass(frozen=True)
class Multiple:
    """`monomial * e_j` for the equality hypothesis `j`; enters with a free coefficient."""

    equality: int
    monomial: PolyElement
    poly: PolyElement


Column = Term | Multiple


def charge(work: Work, poly: PolyElement) -> None:
    """Charge one built column and its terms to the work budget."""
    work.charge("candidates")
    work.charge("terms", len(poly))


# -- the LP -----------------------------------------------------------------------------------

_floats = PerElement(lambda poly: (tuple(poly), [float(c) for c in poly.values()]))
"""A column's monomials and its coefficients in floats, in one order."""

ITERATION_LIMIT = 1  # scipy's status for "iteration limit reached"

LpPoint = tuple[np.ndarray, np.ndarray, float]


def solve_lp(
    target: PolyElement,
    terms: Sequence[Term],
    multiples: Sequence[Multiple],
    *,
    strict: bool,
    work: Work,
) -> LpPoint | None:
    """An approximate point `(weights, multiple values, scale)` of the LP, or None."""
    if strict and not any(t.strict for t in terms):
        return None
    columns = [t.poly for t in terms] + [m.poly for m in multiples] + [-target]
    covered: set[tuple[int, ...]] = set()
    for poly in columns[:-1]:
        covered.update(poly)
    n_terms, n_free = len(terms), len(multiples)
    n = n_terms + n_free + 1
    if not work.fits_lp(len(covered.union(target)), n):
        return None
    if not covered.issuperset(target):
        return None  # a row `-c * coeff == 0` with c >= 1: infeasible, no solver needed
    work.check_guard("an LP")
    from scipy.optimize import linprog  # when an LP is solved (SciPy's import is 0.6 s)
    from scipy.sparse import coo_matrix

    index: dict[tuple[int, ...], int] = {}
    rows: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    for k, poly in enumerate(columns):
        monomials, values = _floats(poly)
        rows += [index.setdefault(monomial, len(index)) for monomial in monomials]
        cols += [k] * len(values)
        data += values
    a_eq = coo_matrix((data, (rows, cols)), shape=(len(index), n)).tocsr()
    cost = np.concatenate([np.ones(n_terms), np.zeros(n_free), [0.0]])
    bounds = [(0.0, None)] * n_terms + [(None, None)] * n_free + [(1.0, None)]
    a_ub = b_ub = None
    if strict:
        a_ub = np.array([[-1.0 if t.strict else 0.0 for t in terms] + [0.0] * (n_free + 1)])
        b_ub = np.array([-1.0])
    result = linprog(
        cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=np.zeros(len(index)), bounds=bounds,
        method="highs-ds", options={"maxiter": work.budget.lp_iterations, "presolve": True},
    )
    work.lp_iterations_used(int(result.nit), stopped=result.status == ITERATION_LIMIT)
    if result.status != 0 or result.x is None:
        return None
    x = result.x
    return x[:n_terms], x[n_terms : n_terms + n_free], float(x[-1])
