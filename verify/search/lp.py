"""The coefficient-matching feasibility LP (untrusted, floating point, HiGHS).

Unknowns: a weight >= 0 per `Term`, a free value per `Multiple`, and a scale `c >= 1` on the
target, so the system `sum w_k T_k + sum q_j M_j - c * target == 0` is homogeneous and any
positive solution can be scaled; for strict claims the strict terms must add up to >= 1.
Minimising the total weight favours sparse supports, which round to rationals more easily.

The solve is bounded by work, not time: an LP over the size budget is not attempted, and HiGHS
runs its serial dual simplex under an iteration limit (`maxiter`) with no time limit, so the
same input gives the same point whatever the load.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix
from sympy.polys.rings import PolyElement

from verify.search.columns import Multiple, Term
from verify.search.work import Work

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
    index: dict[tuple[int, ...], int] = {}
    rows: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    for k, poly in enumerate(columns):
        for monomial, coeff in poly.items():
            rows.append(index.setdefault(monomial, len(index)))
            cols.append(k)
            data.append(float(coeff))
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
