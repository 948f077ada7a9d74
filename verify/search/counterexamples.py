"""Counterexample search: concrete rational scalars and coordinate vectors, then shrinking.

Vectors are realised as coordinates in dimension 1, 2, 3 (in that order, so the first hit has
the smallest dimension). Candidate points are screened in bulk with numpy floats — on the grid
of small dyadic values this is exact arithmetic anyway — and every survivor is re-checked with
Fractions before it counts. A found counterexample is shrunk (fewer dimensions, zeros, smaller
numerators and denominators) while it still refutes; the kernel re-checks the final one.

The screen is bounded by a count of points (`SearchBudget.points`), never by the clock: the
batches come in a fixed order from a fixed seed, and the last one is cut to what is left.

Hypotheses all linear in scalars may instead get a point from one feasibility LP
(`linear_point`): the vacuity check's quick way to "they can hold together" when the screen's
small values miss (a chain `x_k >= x_{k-1} + 1` needs `x_k >= k`, and the whole budgeted
search for a contradiction then ran, and failed, at every step of such a proof). Rounded to
nearby rationals, the point counts only once the kernel has checked it, and it can only ever
show hypotheses satisfiable (never a step vacuous), so no verdict depends on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy
from sympy.polys.rings import PolyElement

from perceptron.numbers import to_float
from verify.kernel import Counterexample, Judgement, gram_pair
from verify.kernel.algebra import holds
from verify.search.polynomials import Context, PerElement, fraction, symbols_of
from verify.search.rationalize import nearby
from verify.search.shrinking import GRID, GreedyShrinker
from verify.search.work import SearchBudget, Work

SMALL_GRID = GRID[:5]
GRID_POINTS = 1 << 17
RANDOM_POINTS = 1 << 16
TOLERANCE = 1e-9
SEED = 20240611
CHECKED_PER_BATCH = 16


@dataclass(frozen=True)
class _Poly:
    """A fact's polynomial as a term list, evaluable in floats (bulk) and Fractions (exact)."""

    terms: tuple[tuple[Fraction, tuple[int, ...]], ...]
    kind: str
    used: frozenset[int] = frozenset()  # the generators its terms read

    def floats(self, gens: dict[int, np.ndarray], size: int) -> np.ndarray:
        total = np.zeros(size)
        for coeff, exponents in self.terms:
            term = np.full(size, to_float(coeff))
            for i, e in enumerate(exponents):
                if e:
                    term = term * gens[i] ** e
            total += term
        return total

    def exact(self, gens: dict[int, Fraction]) -> Fraction:
        total = Fraction(0)
        for coeff, exponents in self.terms:
            term = coeff
            for i, e in enumerate(exponents):
                if e:
                    term *= gens[i] ** e
            total += term
        return total


def _terms(poly: PolyElement) -> tuple[tuple[tuple[Fraction, tuple[int, ...]], ...],
                                      frozenset[int]]:
    """`poly`'s terms with `Fraction` coefficients, and the generators it uses."""
    terms = tuple((fraction(c), m) for m, c in poly.items())
    return terms, frozenset(i for _, m in terms for i, e in enumerate(m) if e)


_read = PerElement(_terms)


MEMO_POINTS = 1 << 12  # the screen's values of a fact are kept for batches up to this size
_FLOATS: dict[tuple[object, ...], tuple[np.ndarray, object, np.ndarray]] = {}


def _memo_floats(fact: _Poly, gens: dict[int, np.ndarray], size: int,
                 where: tuple[np.ndarray, int, int, object]) -> np.ndarray:
    """`fact`'s float values at the screen's fixed points `where` (batch, how many,
    dimension, which generator each name is), computed once per process: the steps of a
    proof screen the same points against the hypotheses they share. The batch and the terms
    (one tuple per ring element, `_read`) are held with the values, so that their `id`s,
    in the key, stay their own; the values are read-only."""
    batch, *rest = where
    key = (id(batch), *rest, id(fact.terms))
    known = _FLOATS.get(key)
    if known is None or known[0] is not batch or known[1] is not fact.terms:
        if len(_FLOATS) >= 1 << 12:
            _FLOATS.clear()
        values = fact.floats(gens, size)
        values.flags.writeable = False
        known = _FLOATS[key] = batch, fact.terms, values
    return known[2]


def _screen(kind: str, value: np.ndarray) -> np.ndarray:
    """Where `value (kind) 0` looks true in floats: `>=` is lenient, `>` and `==` are strict.

    Leniency errs towards candidates (each is re-checked exactly); strictness keeps boundary
    points such as `g = 0` for `g > 0` from crowding out the real candidates.
    """
    if kind == "==":
        return np.abs(value) <= TOLERANCE
    return value > TOLERANCE if kind == ">" else value >= -TOLERANCE


class CounterexampleSearch:
    """Searches and shrinks counterexamples for one judgement (deterministic: fixed seeds)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        kinds = [h.kind for h in ctx.judgement.hypotheses]
        polys = [_read(p) for p in (*ctx.hyps, ctx.gap)]
        self.facts = [_Poly(terms, kind, found) for (terms, found), kind
                      in zip(polys, [*kinds, ctx.judgement.claim.kind], strict=True)]
        used = set().union(*(found for _, found in polys))
        self.gens = {i: gram_pair(ctx.symbols[i]) or ctx.symbols[i].name for i in sorted(used)}
        self.scalars = ctx.scalars
        self.vectors = ctx.vectors
        self.layout = (tuple(self.gens.items()), self.scalars, self.vectors)  # gens from points

    # -- exact side -------------------------------------------------------------------------

    def refutes(self, cex: Counterexample) -> bool:
        """Exactly: every hypothesis holds and the claim fails."""
        values: dict[int, Fraction] = {}
        for i, name in self.gens.items():
            if isinstance(name, str):
                values[i] = cex.scalars[name]
            else:
                a, b = (cex.vectors[v] for v in name)
                values[i] = sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))
        *hyps, claim = self.facts
        return all(holds(h.kind, h.exact(values)) for h in hyps) and not holds(
            claim.kind, claim.exact(values)
        )

    def shrink(self, cex: Counterexample, work: Work | None = None) -> Counterexample:
        """The shared greedy shrinker (`verify.search.shrinking`), on counterexamples that
        refute this judgement; `work` only adds the guard."""
        return _Refuting(self, work).shrink(cex)

    # -- bulk screening ---------------------------------------------------------------------

    def search(self, work: Work, *, quick: bool = False, shrink: bool = True
               ) -> Counterexample | None:
        """A counterexample (shrunk unless `shrink` is false), or None when none was found
        among the points searched.

        Each batch is charged to `work.points`; `Exhausted` is raised when none are left.
        """
        if not (self.scalars or self.vectors):  # no names: one point, evaluated exactly
            work.grant("points", 1)
            empty = Counterexample({}, {})
            return empty if self.refutes(empty) else None
        rng = np.random.default_rng(SEED)
        for dimension in (1,) if quick else (1, 2, 3):
            n = len(self.scalars) + dimension * len(self.vectors)
            batches = _quick_batches(n) if quick else _valued(_batches(n, rng, quick=False))
            for num, den, x in batches:
                work.check_guard("the counterexample search")
                size = work.grant("points", num.shape[1])
                same = (x, size) if quick and size <= MEMO_POINTS else None  # the same points
                found = self._screen(num[:, :size], den[:, :size], x[:, :size], dimension, same)
                if found is not None:
                    return self.shrink(found, work) if shrink else found
        return None

    def _screen(self, num: np.ndarray, den: np.ndarray, x: np.ndarray, dimension: int,
                same: tuple[np.ndarray, int] | None = None) -> Counterexample | None:
        """The simplest point (numerators `num`, denominators `den`, float values `x`) that
        looks like a counterexample in floats and is one exactly, or None. `same`: the points
        are the screen's fixed ones (`_quick_batches`, which batch and how many), whose values
        of each fact are kept (`_memo_floats`)."""
        size = num.shape[1]
        gens: dict[int, np.ndarray] = {}
        for i, name in self.gens.items():
            if isinstance(name, str):
                gens[i] = x[self.scalars.index(name)]
            else:
                a, b = (self._coordinates(x, v, dimension) for v in name)
                gens[i] = sum((a[k] * b[k] for k in range(dimension)), np.zeros(size))
        left = np.arange(size)  # the points every fact so far holds at
        *hyps, claim = self.facts

        def floats(fact: _Poly) -> np.ndarray:  # its values at the points left
            if same is None:  # the generators it reads, at those points
                return fact.floats({i: gens[i] if left.size == size else gens[i][left]
                                    for i in fact.used}, left.size)
            values = _memo_floats(fact, gens, size, (*same, dimension, self.layout))
            return values if left.size == size else values[left]

        for fact in hyps:
            holds = _screen(fact.kind, floats(fact))
            if not holds.any():  # no point left: the other facts need not be evaluated
                return None
            if not holds.all():  # the later facts are evaluated at the points left only
                left = left[holds]
        candidates = left[~_screen(claim.kind, floats(claim))]
        if candidates.size == 0:
            return None
        near, below = num[:, candidates], den[:, candidates]  # the simplest first
        costs = (np.abs(near) + below - 1 + 0.25 * (near < 0)).sum(axis=0)
        for point in candidates[np.argsort(costs, kind="stable")][:CHECKED_PER_BATCH]:
            cex = self._point(num[:, point], den[:, point], dimension)
            if self.refutes(cex):
                return cex
        return None

    def _coordinates(self, x: np.ndarray, vector: str, dimension: int) -> np.ndarray:
        start = len(self.scalars) + self.vectors.index(vector) * dimension
        return x[start : start + dimension]

    def _point(self, num: np.ndarray, den: np.ndarray, dimension: int) -> Counterexample:
        values = [Fraction(int(n), int(d)) for n, d in zip(num, den, strict=True)]
        s = len(self.scalars)
        return Counterexample(
            dict(zip(self.scalars, values[:s], strict=True)),
            {
                v: tuple(values[s + j * dimension : s + (j + 1) * dimension])
                for j, v in enumerate(self.vectors)
            },
        )


def _batches(
    n: int, rng: np.random.Generator, quick: bool
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Points in `n` coordinates as (numerators, denominators), one column per point."""
    grids = (SMALL_GRID,) if quick else (SMALL_GRID, GRID)
    for grid in grids:
        values = np.array(grid).T
        if len(grid) ** n <= GRID_POINTS:
            index = np.indices((len(grid),) * n).reshape(n, -1)
        else:
            index = rng.integers(0, len(grid), size=(n, GRID_POINTS >> (2 if quick else 0)))
        yield values[0][index], values[1][index]
    if not quick:
        yield (
            rng.integers(-6, 7, size=(n, RANDOM_POINTS)),
            rng.integers(1, 5, size=(n, RANDOM_POINTS)),
        )


Batch = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Points as (numerators, denominators, their quotients in floats), one column per point."""


def _valued(batches: Iterator[tuple[np.ndarray, np.ndarray]]) -> Iterator[Batch]:
    """Each batch with its points' float values (the screen's inputs)."""
    for num, den in batches:
        yield num, den, num / den


@lru_cache(maxsize=32)
def _quick_batches(n: int) -> tuple[Batch, ...]:
    """The dimension-1 screen's points for `n` coordinates, built once per size (read-only),
    with their float values (dividing them was a tenth of the symbolic side's time).

    They come from a fresh generator with the fixed seed, so every judgement with `n`
    coordinates screens the same points, whether or not they were built for an earlier one.
    """
    out = tuple(_valued(_batches(n, np.random.default_rng(SEED), quick=True)))
    for batch in out:
        for array in batch:
            array.flags.writeable = False
    return out


class _Refuting(GreedyShrinker[Counterexample]):
    """Shrinks while the counterexample still refutes the search's judgement."""

    def __init__(self, search: CounterexampleSearch, work: Work | None) -> None:
        self.search = search
        self.work = work

    def fails(self, point: Counterexample) -> bool:
        return self.search.refutes(point)

    def rebuild(self, point: Counterexample, scalars: dict[str, Fraction],
                vectors: dict[str, tuple[Fraction, ...]]) -> Counterexample:
        return Counterexample(scalars, vectors)

    def guard(self) -> None:
        if self.work is not None:
            self.work.check_guard("shrinking a counterexample")


def linear_point(judgement: Judgement, budget: SearchBudget) -> Counterexample | None:
    """A point (scalars; every vector 0 in dimension 1) that an LP finds for the hypotheses
    of `judgement`, or None when one is not linear in scalars, the LP is over the budget's
    size, or it finds none (strict facts hold with a margin: the LP maximises it, up to 1)."""
    from scipy.optimize import linprog  # the search's LP solver, loaded with the search

    facts = judgement.hypotheses
    symbols = sorted(set().union(*(symbols_of(f.expr) for f in facts)), key=lambda s: s.name)
    if not facts or any(gram_pair(s) is not None for s in symbols):
        return None
    if not budget.lp_rows >= len(facts) or not budget.lp_columns > len(symbols):
        return None
    n, column = len(symbols), {s: k for k, s in enumerate(symbols)}
    rows, bounds, kinds = [], [], []
    for fact in facts:
        if (form := _linear(fact.expr)) is None:
            return None
        constant, coefficients = form
        row = np.zeros(n + 1)
        for symbol, coeff in coefficients:
            row[column[symbol]] = coeff
        row[n] = -1.0 if fact.kind == ">" else 0.0  # a strict fact holds with the margin t
        rows.append(-row)  # fact (kind) 0: -(a x) [+ t] <= c, or a x == -c
        bounds.append(constant)
        kinds.append(fact.kind)
    inequality = [k != "==" for k in kinds]
    a, b = np.array(rows), np.array(bounds)
    cost = np.zeros(n + 1)
    cost[n] = -1.0  # maximise the margin
    result = linprog(
        cost, A_ub=a[inequality] if any(inequality) else None,
        b_ub=b[inequality] if any(inequality) else None,
        A_eq=-a[[not i for i in inequality]] if not all(inequality) else None,
        b_eq=-b[[not i for i in inequality]] if not all(inequality) else None,
        bounds=[(None, None)] * n + [(0.0, 1.0)], method="highs-ds",
        options={"maxiter": budget.lp_iterations, "presolve": True})
    if result.status != 0 or result.x is None or (">" in kinds and not result.x[n] > 0):
        return None  # none, or strict facts that hold with no margin
    values = {s.name: nearby(float(v)) for s, v in zip(symbols, result.x, strict=False)}
    return Counterexample({**{name: Fraction(0) for name in judgement.scalars}, **values},
                          {name: (Fraction(0),) for name in judgement.vectors})


@lru_cache(maxsize=1 << 14)
def _linear(expr: sympy.Expr) -> tuple[float, tuple[tuple[sympy.Symbol, float], ...]] | None:
    """`expr` (an expanded polynomial, as the kernel's facts are) as a constant and the
    coefficient of each symbol, in floats; None unless it is of degree at most 1."""
    constant, coefficients = 0.0, []
    for term in sympy.Add.make_args(expr):
        coeff, rest = term.as_coeff_Mul()
        if rest == 1:
            constant += float(coeff)
        elif rest.is_Symbol:
            coefficients.append((rest, float(coeff)))
        else:
            return None
    return constant, tuple(coefficients)
