"""Counterexample search: concrete rational scalars and coordinate vectors, then shrinking.

Vectors are realised as coordinates in dimension 1, 2, 3 (in that order, so the first hit has
the smallest dimension). Candidate points are screened in bulk with numpy floats — on the grid
of small dyadic values this is exact arithmetic anyway — and every survivor is re-checked with
Fractions before it counts. While NumPy is not loaded, the dimension-1 screen of a judgement
with few names (at most `PYTHON_POINTS` points) computes the same floats in plain Python
(`_screen_in_python`), so a step proved without an LP or an SDP never imports NumPy (issue 30,
start-up). A found counterexample is shrunk (fewer dimensions, zeros, smaller numerators and
denominators) while it still refutes; the kernel re-checks the final one.

The screen is bounded by a count of points (`SearchBudget.points`), never by the clock: the
batches come in a fixed order from a fixed seed, and the last one is cut to what is left.

Hypotheses all linear in scalars may instead get a point from one feasibility LP
(`linear_point`): the vacuity check's quick way to "they can hold together" when the screen's
small values miss (a chain `x_k >= x_{k-1} + 1` needs `x_k >= k`, and the whole budgeted
search for a contradiction then ran, and failed, at every step of such a proof). Rounded to
nearby rationals, the point counts only once the kernel has checked it, and it can only ever
show hypotheses satisfiable (never a step vacuous), so no verdict depends on it.

Other hypotheses (Gram terms, squares, products, families, finite sums) may get a point by
greedy repair of small values (`satisfying_point`): the vacuity check's other quick way,
since on satisfiable hypotheses the whole search finds neither a certificate nor a point, so
stores nothing, and ran again at every audit. Such hypotheses are mostly satisfied by a tiny
instance: naturals 0, 1 or 2, vectors of small coordinates, each family constant (every
member equal), a sign `y**2 == 1` met by +-1, a circle `u1**2 + u2**2 == 1` met by the
Pythagorean (3/5, 4/5).

That repair starts from each of two fixed points (every scalar, family value and first
coordinate 0; then 1) and moves one unknown at a time (a scalar, a coordinate of a vector, a
family's common value or coordinate) to a value of a fixed list of small rationals: it takes
the first move, in a fixed order, that lowers (the number of failing hypotheses, their total
shortfall). When none does, a move that leaves no more hypotheses failing may be followed by
solving a failing equality or non-strict inequality `p == 0`, `p >= 0` for one scalar at
`p = 0` (a rational root of `p` as a polynomial of degree <= 2 in it): `m1 := 1` breaks
`k - kb - m1 >= 0`, then `k := 1`; `u2 := 4/5` breaks `u1**2 + u2**2 == 1`, then `u1 := 3/5`.
Values are exact, evaluated by the kernel's own evaluator (`atoms.World`, sums included);
the work is a count of points evaluated (`SearchBudget.points`, at most `REPAIR_POINTS`),
never the clock. As with the LP's, the point counts only once the kernel has checked it, and
contradictory hypotheses never get one.

A point found over the reals that values a natural off the naturals may be moved to natural
values (`natural_counterexample`, at the end: the naturals next to every root on its line),
and hypotheses' equalities may be solved for a name (`CounterexampleSearch.solved_search`).
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

import sympy
from sympy.polys.rings import PolyElement

from perceptron.numbers import to_float
from verify.kernel import Counterexample, Judgement, gram_pair
from verify.kernel.algebra import Fact, holds
from verify.kernel.atoms import IDENT, Family, KernelError, Sum, World, structure
from verify.search.polynomials import Context, PerElement, fraction, symbols_of
from verify.search.rationalize import nearby
from verify.search.shrinking import GRID, GreedyShrinker
from verify.search.work import Exhausted, SearchBudget, Work

if TYPE_CHECKING:
    import numpy as np

    from verify.kernel import Induction, Rel

SMALL_GRID = GRID[:5]
GRID_POINTS = 1 << 17
RANDOM_POINTS = 1 << 16
TOLERANCE = 1e-9
SEED = 20240611
SOLVED_POINTS = 1 << 18  # the most points `solved_search` screens per judgement
CRITICAL_POINTS = 1 << 12  # the most values `critical_search` evaluates per judgement
CRITICAL_ROUNDS = 3  # of `critical_search`'s moves, each name once per round
CRITICAL_DEGREE = 24  # a claim of higher degree in a name: its critical points are not sought
CHECKED_PER_BATCH = 16
PYTHON_POINTS = 625
"""A dimension-1 screen of at most this many points (four coordinates: `SMALL_GRID` ** 4) is
computed in plain Python floats (`_screen_in_python`, the same floats as NumPy's) while NumPy
is not loaded: for a one-step check its import (a tenth of start-up, 0.05 CPU-s) cost more
than the screen (2 ms at 625 points, against 0.1 ms with arrays). Once something has loaded
NumPy (an LP, an SDP, a larger screen, the audit), the arrays are used: a long proof screens
many steps. Either way the candidates, the counterexample and the work charged are the same
(`tests/test_verify/search/test_search_python_screen.py`), so no verdict depends on which."""


@dataclass(frozen=True)
class _Poly:
    """A fact's polynomial as a term list, evaluable in floats (bulk) and Fractions (exact)."""

    terms: tuple[tuple[Fraction, tuple[int, ...]], ...]
    kind: str
    used: frozenset[int] = frozenset()  # the generators its terms read

    def floats(self, gens: dict[int, np.ndarray], size: int) -> np.ndarray:
        """The polynomial at every point, in floats: a screen whose candidates are checked
        exactly, so an overflow (`inf`, `nan`: a coefficient beyond float range) only loses a
        candidate, and is no warning of the user's."""
        import numpy as np  # with the first screen too large for `_screen_in_python`

        total = np.zeros(size)
        with np.errstate(all="ignore"):
            for coeff, exponents in self.terms:
                term = np.full(size, to_float(coeff))
                for i, e in enumerate(exponents):
                    if e:
                        term = term * gens[i] ** e
                total += term
        return total

    def float_at(self, gens: Sequence[float]) -> float:
        """The polynomial at one point of the quick screen's grid, in Python floats, the
        operations of `floats` in its order (a square as `x * x`, as NumPy's `x ** 2` is).

        The grid's values are 0, +-1 and +-2 (`SMALL_GRID`), so every generator (a value or
        the product of two) is 0 or a signed power of two: each power and each product with
        a coefficient is exact in any float arithmetic until it overflows, where both give
        the same infinity (Python's `**` raises instead: `_power`). The sums are then the
        same additions in the same order, so the floats are NumPy's bit for bit."""
        total = 0.0
        for coeff, exponents in self.terms:
            term = to_float(coeff)
            for i, e in enumerate(exponents):
                if e:
                    term = term * _power(gens[i], e)
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


def _power(x: float, e: int) -> float:
    """`x ** e` as NumPy's array power gives it (`e >= 1`): a square is `x * x`, and an
    overflow is an infinity of the power's sign, not Python's OverflowError."""
    if e == 2:
        return x * x
    try:
        return x**e
    except OverflowError:
        return -math.inf if x < 0 and e % 2 else math.inf


T = TypeVar("T")  # a float, or an array of them


def _screen(kind: str, value: T) -> T:
    """Where `value (kind) 0` looks true in floats, at one float or elementwise on an array
    (`_screen_in_python` and the array screens read the same test): `>=` is lenient, `>` and
    `==` are strict.

    Leniency errs towards candidates (each is re-checked exactly); strictness keeps boundary
    points such as `g = 0` for `g > 0` from crowding out the real candidates.
    """
    if kind == "==":
        return abs(value) <= TOLERANCE  # type: ignore[operator, return-value]
    return value > TOLERANCE if kind == ">" else value >= -TOLERANCE  # type: ignore[operator, return-value]


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
        A judgement with family members or sums gets none: a point of this search values
        every generator as a name, and a point of the language values names only (the
        kernel refuses a value for a member or a sum), so it proposes none there; such a
        judgement is refuted on concrete sets (`verify.search.sums.worlds`).
        """
        if not all(IDENT.fullmatch(n) for n in (*self.scalars, *self.vectors)):
            return None
        if not (self.scalars or self.vectors):  # no names: one point, evaluated exactly
            work.grant("points", 1)
            empty = Counterexample({}, {})
            return empty if self.refutes(empty) else None
        n = len(self.scalars) + len(self.vectors)
        if quick and len(SMALL_GRID) ** n <= PYTHON_POINTS and "numpy" not in sys.modules:
            work.check_guard("the counterexample search")
            size = work.grant("points", len(SMALL_GRID) ** n)
            found = self._screen_in_python(n, size)
            if found is not None:
                return self.shrink(found, work) if shrink else found
            return None
        import numpy as np  # the larger screens: NumPy's arrays

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

    def _screen_in_python(self, n: int, size: int) -> Counterexample | None:
        """`_screen` of the first `size` points of `_quick_batches(n)` (its only batch:
        `SMALL_GRID` ** n points, the last coordinate varying fastest, as `np.indices`
        orders them) in dimension 1, in Python floats (`_Poly.float_at`): the same
        candidates, in the same order, so the same counterexample or None."""
        points = list(itertools.islice(itertools.product(SMALL_GRID, repeat=n), size))
        scalars = {name: k for k, name in enumerate(self.scalars)}
        vectors = {name: len(self.scalars) + k for k, name in enumerate(self.vectors)}
        *hyps, claim = self.facts
        top = max(self.gens, default=-1) + 1
        candidates = []
        for point in points:
            x = [num / den for num, den in point]
            gens = [0.0] * top
            for i, name in self.gens.items():
                if isinstance(name, str):
                    gens[i] = x[scalars[name]]
                else:  # `sum(a[k] * b[k] for k ...)` from an array of zeros
                    gens[i] = 0.0 + x[vectors[name[0]]] * x[vectors[name[1]]]
            if all(_screen(h.kind, h.float_at(gens)) for h in hyps) and not _screen(
                    claim.kind, claim.float_at(gens)):
                candidates.append(point)
        # `_screen`'s costs (exact in floats: integers and quarters) and its stable sort
        candidates.sort(key=lambda point: sum(abs(num) + den - 1 + 0.25 * (num < 0)
                                              for num, den in point))
        for point in candidates[:CHECKED_PER_BATCH]:
            cex = self._point([num for num, _ in point], [den for _, den in point], 1)
            if self.refutes(cex):
                return cex
        return None

    def _screen(self, num: np.ndarray, den: np.ndarray, x: np.ndarray, dimension: int,
                same: tuple[np.ndarray, int] | None = None,
                solve: Callable[[Counterexample, int], Counterexample | None] | None = None
                ) -> Counterexample | None:
        """The simplest point (numerators `num`, denominators `den`, float values `x`) that
        looks like a counterexample in floats and is one exactly, or None. `same`: the points
        are the screen's fixed ones (`_quick_batches`, which batch and how many), whose values
        of each fact are kept (`_memo_floats`). `solve`: the exact point of a candidate whose
        solved names' values `x` has but `num`, `den` do not (`solved_search`)."""
        import numpy as np

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
            if solve is not None and (cex := solve(cex, int(point))) is None:
                continue  # a solved name's exact value is not rational
            if self.refutes(cex):
                return cex
        return None

    # -- equalities solved for a name -----------------------------------------------------

    def solved_search(self, work: Work) -> Counterexample | None:
        """A counterexample (shrunk) where the hypotheses' equalities are made to hold by
        solving each for one scalar name, or None; a screen of its own after `search` found
        none, over the other coordinates only, in dimensions 1 and 2, on a fresh count of at
        most `SOLVED_POINTS` points (`work.fork`): so it changes no verdict `search` gives.

        The screen's points meet an equality only by chance, so a step with several misses
        the points where they all hold: red team 9's `[define] r = "sqrt(Q)"`, `nv =
        "norm(v)"` (read as `r**2 == Q`, `r >= 0`, `nv**2 == dot(v, v)`, `nv >= 0`) beside
        `norm2(z) == 1` needed r, nv, v and z all right at once; and a root off the grid
        (`(2*t - 3)*(t - 7) == 0`, t = 7) is met by none. Each equality, in order, solves for
        a scalar name that no equality before reads and that it has only as `b*x` or
        `a*x**2 + b*x` (a, b numbers; `Solve`): linear names first, then defined roots
        (`b` is 0 and `x >= 0` is a hypothesis: the nonnegative root), then other
        quadratics (each point screened twice, with either root), each kind in the search's
        order of names. The value is computed from the others in floats for the screen,
        then exactly for each candidate (`_solved`), kept only when rational, and the point
        counts only if it refutes exactly. Deterministic: a fixed seed, points counted,
        never the clock."""
        plan = self._plan()
        if not plan or not all(IDENT.fullmatch(n) for n in (*self.scalars, *self.vectors)):
            return None
        import numpy as np

        solved = {self.scalars.index(self.gens[p.generator]) for p in plan}  # type: ignore[arg-type]
        count = work.fork()
        rng = np.random.default_rng(SEED)
        both = any(way.a and not way.sign for way in plan)
        for dimension in (1, 2):
            n = len(self.scalars) + dimension * len(self.vectors)
            free = [r for r in range(n) if r not in solved]
            batches = _batches(len(free), rng, quick=False) if free else iter(
                [(np.zeros((0, 1), dtype=int), np.ones((0, 1), dtype=int))])  # one point
            for num, den in batches:
                work.check_guard("the counterexample search (equalities solved)")
                if both:  # each point twice: a quadratic's + root, then its - root
                    num, den = np.repeat(num, 2, axis=1), np.repeat(den, 2, axis=1)
                wanted = min(num.shape[1], SOLVED_POINTS - count.used["points"])
                if wanted <= 0:
                    return None
                size = count.grant("points", wanted)
                full_num = np.zeros((n, size), dtype=num.dtype)
                full_den = np.ones((n, size), dtype=den.dtype)
                full_num[free], full_den[free] = num[:, :size], den[:, :size]
                x = full_num / full_den
                self._derive(x, dimension, plan)
                found = self._screen(full_num, full_den, x, dimension,
                                     solve=lambda cex, column: self._solved(cex, plan, column))
                if found is not None:
                    return self.shrink(found, work)
        return None

    def critical_search(self, work: Work) -> Counterexample | None:
        """A counterexample at a critical point of the claim, for a judgement of scalar names
        only whose claim is an inequality, or None: from all zeros, then all ones, each name
        in turn moved to a rational near a real critical point of the claim's polynomial
        along it (the others held: floor, ceiling and a small-denominator rational of each
        root of the derivative), keeping the value that lowers the polynomial most, exactly;
        `CRITICAL_ROUNDS` rounds. The screen's grid misses a claim that fails only far from
        it or between its values (red team 23 F1: `(a - 100)**2 >= 1`, `(n - 7)**2 >= 1`,
        `(a - 7)**2 + (b - 3)**2 >= 1/4` were unknown). A claim quadratic along the name has
        its vertex `-b/2a` proposed exactly, with its floor and ceiling (`(a - 1e999)**2 >= 1`
        is beyond float range); else floats only propose (NumPy's roots);
        a point counts only if it refutes exactly; on a count of its own, at most
        `CRITICAL_POINTS` values, after every other search: it changes no verdict they give."""
        claim = self.facts[-1]
        if self.vectors or claim.kind == "==" or not claim.terms or not all(
                isinstance(n, str) and IDENT.fullmatch(n) for n in self.gens.values()):
            return None
        import numpy as np

        count = work.fork()
        for start in (Fraction(0), Fraction(1)):
            point = dict.fromkeys(self.gens, start)
            for _ in range(CRITICAL_ROUNDS):
                for i in sorted(self.gens):
                    work.check_guard("the counterexample search (critical points)")
                    along = [Fraction(0)] * (1 + max(e[i] for _, e in claim.terms))
                    for coeff, exponents in claim.terms:
                        along[exponents[i]] += coeff * math.prod(
                            point[j] ** e for j, e in enumerate(exponents) if e and j != i)
                    slope = [k * c for k, c in enumerate(along)][1:]
                    while slope and not slope[-1]:
                        slope.pop()
                    candidates = {point[i]}
                    if len(slope) == 2:  # quadratic along it: the vertex, exactly (red team
                        # 23 F1: `(a - 1e999)**2 >= 1`, past float range, had no root proposed)
                        root = -slope[0] / slope[1]
                        candidates |= {root, Fraction(math.floor(root)), Fraction(math.ceil(root))}
                    else:
                        floats = [to_float(c) for c in reversed(slope)]
                        if not slope or len(slope) > CRITICAL_DEGREE or not any(floats):
                            continue
                        if not all(map(math.isfinite, floats)):  # beyond float range: only
                            root = _lone_root(slope)  # a slope of one root, exactly
                            if root is None:
                                continue
                            floats = []
                            candidates |= {root, Fraction(math.floor(root)),
                                           Fraction(math.ceil(root))}
                        for root in np.roots(floats) if floats else ():
                            if abs(root.imag) <= 1e-9 * max(1.0, abs(root.real)) and (
                                    math.isfinite(root.real)):
                                candidates |= {Fraction(math.floor(root.real)), Fraction(
                                    math.ceil(root.real)),
                                               Fraction(root.real).limit_denominator(64)}
                    if count.used["points"] + len(candidates) > CRITICAL_POINTS:
                        return None
                    count.grant("points", len(candidates))
                    point[i] = min(sorted(candidates), key=lambda v: sum(
                        c * v ** k for k, c in enumerate(along)))
                    values = {self.gens[j]: point[j] for j in self.gens}
                    cex = Counterexample({n: values.get(n, Fraction(0))
                                          for n in self.scalars}, {})
                    if self.refutes(cex):
                        return self.shrink(cex, work)
        return None

    def _plan(self) -> list[Solve]:
        """How each equality that solves for a name does (see `solved_search`), in order."""
        *hyps, _ = self.facts
        width = next((len(m) for f in self.facts for _, m in f.terms), 0)
        unit = {i: tuple(1 if j == i else 0 for j in range(width)) for i in self.gens}
        nonnegative = {i for i in self.gens for h in hyps
                       if h.kind == ">=" and h.terms == ((Fraction(1), unit[i]),)}
        plan: list[Solve] = []
        read: set[int] = set()
        for fact in hyps:
            if fact.kind != "==":
                continue
            ways = []  # (linear 0, defined root 1, quadratic 2; the name's place; the way)
            for i in fact.used - read:
                if not isinstance(name := self.gens[i], str):
                    continue
                square = tuple(2 * e for e in unit[i])
                own = {m: c for c, m in fact.terms if m[i]}
                if not own or not set(own) <= {unit[i], square}:
                    continue  # x times another name, or x**3: not solved
                a, b = own.get(square, Fraction(0)), own.get(unit[i], Fraction(0))
                rest = tuple((c, m) for c, m in fact.terms if not m[i])
                kind = 0 if not a else 1 if not b and i in nonnegative else 2
                ways.append((kind, self.scalars.index(name), Solve(
                    i, a, b, _Poly(rest, "==", frozenset(j for _, m in rest
                                                         for j, e in enumerate(m) if e)),
                    1 if kind == 1 and a > 0 else -1 if kind == 1 else 0)))
            if ways:
                plan.append(min(ways, key=lambda w: w[:2])[2])
                read |= fact.used
        return plan

    def _derive(self, x: np.ndarray, dimension: int, plan: list[Solve]) -> None:
        """The solved names' rows of `x`, computed in floats from the others (in order)."""
        import numpy as np

        size = x.shape[1]
        gens: dict[int, np.ndarray] = {}
        for i, name in self.gens.items():
            if not isinstance(name, str):
                a, b = (self._coordinates(x, v, dimension) for v in name)
                gens[i] = sum((a[k] * b[k] for k in range(dimension)), np.zeros(size))
        signs = np.where(np.arange(size) % 2 == 0, 1.0, -1.0)  # a quadratic's two roots
        for way in plan:
            for j, name in self.gens.items():
                if isinstance(name, str):
                    gens[j] = x[self.scalars.index(name)]
            a, b = to_float(way.a), to_float(way.b)
            with np.errstate(all="ignore"):
                rest = way.rest.floats(gens, size)
                if not way.a:
                    value = -rest / b
                else:
                    root = np.sqrt(np.where((d := b * b - 4 * a * rest) >= 0, d, np.nan))
                    value = (-b + (way.sign or signs) * root) / (2 * a)
            x[self.scalars.index(self.gens[way.generator])] = value  # type: ignore[arg-type]

    def _solved(self, cex: Counterexample, plan: list[Solve], column: int
                ) -> Counterexample | None:
        """`cex` with the solved names' exact values (a quadratic's root as `_derive` took it
        at this `column`), or None where a root is irrational."""
        scalars = dict(cex.scalars)
        values: dict[int, Fraction] = {}
        for i, name in self.gens.items():
            if not isinstance(name, str):
                a, b = (cex.vectors[v] for v in name)
                values[i] = sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))
        for way in plan:
            for j, name in self.gens.items():
                if isinstance(name, str):
                    values[j] = scalars[name]
            rest = way.rest.exact(values)
            if not way.a:
                value = -rest / way.b
            else:
                discriminant = way.b * way.b - 4 * way.a * rest
                if discriminant < 0 or (root := _rational_sqrt(discriminant)) is None:
                    return None
                sign = way.sign or (1 if column % 2 == 0 else -1)
                value = (-way.b + sign * root) / (2 * way.a)
            scalars[self.gens[way.generator]] = value  # type: ignore[index]
        return Counterexample(scalars, cex.vectors)

    def _coordinates(self, x: np.ndarray, vector: str, dimension: int) -> np.ndarray:
        start = len(self.scalars) + self.vectors.index(vector) * dimension
        return x[start : start + dimension]

    def _point(self, num: Sequence[int] | np.ndarray, den: Sequence[int] | np.ndarray,
               dimension: int) -> Counterexample:
        values = [Fraction(int(n), int(d)) for n, d in zip(num, den, strict=True)]
        s = len(self.scalars)
        return Counterexample(
            dict(zip(self.scalars, values[:s], strict=True)),
            {
                v: tuple(values[s + j * dimension : s + (j + 1) * dimension])
                for j, v in enumerate(self.vectors)
            },
        )


@dataclass(frozen=True)
class Solve:
    """An equality `a*x**2 + b*x + rest == 0` (a, b numbers) solved for the name of
    `generator` (`solved_search`): `x = -rest/b` when `a` is 0, else `(-b + sign *
    sqrt(b**2 - 4*a*rest)) / (2*a)` with `sign` fixed (a defined root: the nonnegative
    one) or, when 0, alternating over the screen's columns (+ at even ones), each point
    given twice."""

    generator: int
    a: Fraction
    b: Fraction
    rest: _Poly
    sign: int


def _batches(
    n: int, rng: np.random.Generator, quick: bool
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Points in `n` coordinates as (numerators, denominators), one column per point."""
    import numpy as np

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


if TYPE_CHECKING:
    # points as (numerators, denominators, their quotients in floats), one column per point
    Batch = tuple[np.ndarray, np.ndarray, np.ndarray]


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
    import numpy as np

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
    size or iterations, or it finds none (strict facts hold with a margin: the float LP
    maximises it, up to 1). A wide coefficient (outside `2**-WIDE_BITS .. 2**WIDE_BITS`) is
    beyond what HiGHS solves (red team 26 R2: `a >= 1e20 |- a <= 1e17` was left unknown, HiGHS
    answered "Model error"): such an LP is solved exactly (`_exact_linear_point`)."""
    facts = judgement.hypotheses
    symbols = sorted(set().union(*(symbols_of(f.expr) for f in facts)), key=lambda s: s.name)
    if not facts or any(gram_pair(s) is not None for s in symbols):
        return None
    if not budget.lp_rows >= len(facts) or not budget.lp_columns > len(symbols):
        return None
    forms = [_linear(fact.expr) for fact in facts]
    if any(form is None for form in forms):
        return None
    linear = [(fact.kind, form) for fact, form in zip(facts, forms, strict=True)
              if form is not None]
    if any(_wide(v) for _, (constant, coefficients) in linear
           for v in (constant, *(c for _, c in coefficients))):
        values = _exact_linear_point(linear, symbols, budget.lp_iterations)
    else:
        values = _float_linear_point(facts, linear, symbols, budget.lp_iterations)
    if values is None:
        return None
    return Counterexample({**{name: Fraction(0) for name in judgement.scalars}, **values},
                          {name: (Fraction(0),) for name in judgement.vectors})


LinearFact = tuple[str, tuple[Fraction, tuple[tuple[sympy.Symbol, Fraction], ...]]]
"""A fact's kind and `_linear` form: `constant + sum(coefficient * symbol) (kind) 0`."""


def _wide(value: Fraction) -> bool:
    """Whether a nonzero `value` lies outside `2**-WIDE_BITS .. 2**WIDE_BITS` (bit lengths)."""
    from verify.search.lp import WIDE_BITS

    exponent = abs(value.numerator).bit_length() - value.denominator.bit_length()
    return value != 0 and not -WIDE_BITS <= exponent <= WIDE_BITS


def _float_linear_point(facts: Sequence[Fact], linear: Sequence[LinearFact],
                        symbols: Sequence[sympy.Symbol], iterations: int
                        ) -> dict[str, Fraction] | None:
    """`linear_point`'s float LP (HiGHS, at most `iterations`), its point made exact."""
    import numpy as np
    from scipy.optimize import linprog  # the search's LP solver, loaded with the search

    n, column = len(symbols), {s: k for k, s in enumerate(symbols)}
    rows, bounds, kinds = [], [], []
    for kind, (constant, coefficients) in linear:
        row = np.zeros(n + 1)
        for symbol, coeff in coefficients:
            row[column[symbol]] = float(coeff)
        row[n] = -1.0 if kind == ">" else 0.0  # a strict fact holds with the margin t
        rows.append(-row)  # fact (kind) 0: -(a x) [+ t] <= c, or a x == -c
        bounds.append(float(constant))
        kinds.append(kind)
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
        options={"maxiter": iterations, "presolve": True})
    if result.status != 0 or result.x is None or (">" in kinds and not result.x[n] > 0):
        return None  # none, or strict facts that hold with no margin
    return _exact_point(facts, symbols, [float(v) for v in result.x[:n]])


def _exact_linear_point(linear: Sequence[LinearFact], symbols: Sequence[sympy.Symbol],
                        iterations: int) -> dict[str, Fraction] | None:
    """A point of the linear facts over QQ (`verify.search.lp.phase_one`), or None when there
    is none, the tableau is over `EXACT_LP_ENTRIES` or `iterations` pivots do not settle it.

    Strict facts are made non-strict by homogenising: `a.x + c > 0` has a solution among the
    others iff `a.x + c*l >= 1` does with `l >= 1` (non-strict facts `a.x + c*l >= 0`,
    equalities `== 0`); then `x / l` is a point (scale a point of margin `e` by
    `l = max(1, 1/e)` for the converse). So one feasibility problem, phase one only; `x` is
    split into `x+ - x-` and each inequality gets a slack, all >= 0."""
    from verify.search.lp import EXACT_LP_ENTRIES, phase_one

    n, column = len(symbols), {s: k for k, s in enumerate(symbols)}
    slacks = sum(kind != "==" for kind, _ in linear) + 1  # the last one is l's: l - s == 1
    n_vars, n_rows = 2 * n + 1 + slacks, len(linear) + 1
    if n_rows * (n_vars + n_rows + 1) > EXACT_LP_ENTRIES:
        return None
    table = [[Fraction(0)] * (n_vars + n_rows + 1) for _ in range(n_rows)]
    scale, slack = 2 * n, 2 * n + 1  # l's column, then the next slack's
    for row, (kind, (constant, coefficients)) in zip(table, linear, strict=False):
        for symbol, coeff in coefficients:
            row[column[symbol]], row[n + column[symbol]] = coeff, -coeff
        row[scale] = constant
        if kind != "==":
            row[slack], slack = Fraction(-1), slack + 1
        row[-1] = Fraction(int(kind == ">"))
    table[-1][scale], table[-1][slack], table[-1][-1] = Fraction(1), Fraction(-1), Fraction(1)
    values = phase_one(table, n_vars, iterations).values
    if not values:
        return None
    return {s.name: (values[k] - values[n + k]) / values[scale] for s, k in column.items()}


#: How an LP's float point is made exact, in turn: small denominators first (LP vertices are
#: usually simple), then finer ones, then the float's own binary value.
_ROUNDINGS: tuple[Callable[[float], Fraction], ...] = (
    nearby, lambda v: Fraction(v).limit_denominator(10**12), Fraction)


def _exact_point(facts: Sequence[Fact], symbols: Sequence[sympy.Symbol],
                 floats: Sequence[float]) -> dict[str, Fraction]:
    """The first rounding of the LP's point (`_ROUNDINGS`) at which every fact holds exactly,
    else the first: red team 26 R2, `0 <= a <= 1e-6 |- 1e6*a <= 1/2` stayed unknown, its LP
    point a = 1e-6 rounded by `nearby` to 0, which the kernel rightly rejected. (Only the
    kernel's check of the point counts; this only picks which point it is shown.)"""
    first: dict[str, Fraction] | None = None
    for rounding in _ROUNDINGS:
        values = {s: rounding(v) for s, v in zip(symbols, floats, strict=True)}
        named = {s.name: v for s, v in values.items()}
        first = first or named
        exact = {s: sympy.Rational(v.numerator, v.denominator) for s, v in values.items()}
        if all(holds(f.kind, fraction(f.expr.xreplace(exact))) for f in facts):
            return named
    assert first is not None
    return first


def linear_counterexample(judgement: Judgement, budget: SearchBudget) -> Counterexample | None:
    """A point where the hypotheses hold and the claim fails, found by `linear_point` when
    they and the claim are linear in scalars (a claim `p == 0` fails at `p > 0` or at
    `p < 0`: one LP each), or None. The screen tries small rationals only, so a claim false
    only beyond them (`R2 <= 100000`, false at 100001: red team 7) stayed unknown. The point
    is rounded from floats (`nearby`) and counts only once the kernel has checked it."""
    claim = judgement.claim
    failing = {">=": [Fact(-claim.expr, ">")], ">": [Fact(-claim.expr, ">=")],
               "==": [Fact(claim.expr, ">"), Fact(-claim.expr, ">")]}[claim.kind]
    for fact in failing:
        point = linear_point(replace(judgement, hypotheses=(*judgement.hypotheses, fact)),
                             budget)
        if point is not None:
            return point
    return None


@lru_cache(maxsize=1 << 14)
def _linear(expr: sympy.Expr) -> tuple[Fraction, tuple[tuple[sympy.Symbol, Fraction], ...]] | None:
    """`expr` (an expanded polynomial, as the kernel's facts are) as a constant and the
    coefficient of each symbol, exactly; None unless it is of degree at most 1."""
    constant, coefficients = Fraction(0), []
    for term in sympy.Add.make_args(expr):
        coeff, rest = term.as_coeff_Mul()
        if rest == 1:
            constant += fraction(coeff)
        elif rest.is_Symbol:
            coefficients.append((rest, fraction(coeff)))
        else:
            return None
    return constant, tuple(coefficients)


# -- a point where hypotheses hold, by greedy repair ------------------------------------------

REPAIR_DIMENSION = 2  # of every vector and vector family
REPAIR_INDICES = range(-1, 12)  # the indices at which a family is given its common value
REPAIR_VALUES = tuple(Fraction(v) for v in (
    0, 1, -1, 2, -2, 3, "1/2", "-1/2", "3/5", "4/5", "-3/5", "-4/5", 5))
REPAIR_STARTS = (Fraction(0), Fraction(1))  # each value and first coordinate at this, in turn
REPAIR_POINTS = 3_000  # at most this many points evaluated per judgement (and within the budget)
Unknown = tuple[str, str, int]  # (sort, name, coordinate); sorts "scalars", "vectors": families
Score = tuple[int, Fraction]


def satisfying_point(judgement: Judgement, budget: SearchBudget) -> Counterexample | None:
    """A point where every hypothesis of `judgement` holds (to be kernel-checked by the
    caller), or None when the greedy repair from every start stops short or the points run
    out."""
    facts = tuple((h.expr, h.kind) for h in judgement.hypotheses)
    if not facts:
        return None
    unknowns = _unknowns(judgement)
    work = Work(budget)
    try:
        for start in REPAIR_STARTS:
            point = {u: start if u[2] == 0 else Fraction(0) for u in unknowns}
            if (found := _repair(point, unknowns, facts, work)) is not None:
                return _counterexample(found, unknowns)
    except Exhausted:
        return None
    return None


def _unknowns(judgement: Judgement) -> tuple[Unknown, ...]:
    """Every value to choose, in a fixed order: declared scalars and vectors, then the
    families (of scalars or of vectors) the hypotheses mention, one common value each."""
    scalars, vectors = set(judgement.scalars), set(judgement.vectors)
    families: dict[str, str] = {}
    seen: set[str] = set()

    def walk(expr: sympy.Expr) -> None:
        for symbol in expr.free_symbols:
            if symbol.name in seen:
                continue
            seen.add(symbol.name)
            found = structure(symbol)
            if found is None:
                if IDENT.fullmatch(symbol.name):
                    scalars.add(symbol.name)
            elif isinstance(found, tuple):
                for side in found:
                    if IDENT.fullmatch(side):
                        vectors.add(side)
                    else:
                        member = structure(sympy.Symbol(side))
                        assert isinstance(member, Family)
                        families[member.family] = "vectors"
                        walk(member.index)
            elif isinstance(found, Family):
                families.setdefault(found.family, "scalars")
                walk(found.index)
            else:
                assert isinstance(found, Sum)
                for part in (found.lo, found.hi, found.body, *(p for p, _ in found.filters)):
                    walk(part)

    for fact in judgement.hypotheses:
        walk(fact.expr)
    return (*(("scalar", n, 0) for n in sorted(scalars)),
            *(("vector", n, k) for n in sorted(vectors) for k in range(REPAIR_DIMENSION)),
            *((sort, n, k) for n, sort in sorted(families.items())
              for k in range(REPAIR_DIMENSION if sort == "vectors" else 1)))


def _world(point: dict[Unknown, Fraction], unknowns: tuple[Unknown, ...]) -> World:
    cex = _counterexample(point, unknowns)
    return World(cex.scalars, cex.vectors, cex.families, REPAIR_DIMENSION)


def _counterexample(point: dict[Unknown, Fraction], unknowns: tuple[Unknown, ...]
                    ) -> Counterexample:
    """The point as the kernel takes it: each family's common value at every index of
    `REPAIR_INDICES` (0, or the zero vector, elsewhere)."""
    scalars: dict[str, Fraction] = {}
    vectors: dict[str, list[Fraction]] = {}
    families: dict[str, dict[Fraction, Fraction | tuple[Fraction, ...]]] = {}
    for sort, name, k in unknowns:
        value = point[(sort, name, k)]
        if sort == "scalar":
            scalars[name] = value
        elif sort == "scalars":
            families[name] = {Fraction(i): value for i in REPAIR_INDICES}
        else:
            vectors.setdefault(f"{sort}:{name}", [Fraction(0)] * REPAIR_DIMENSION)[k] = value
    for key, coordinates in vectors.items():
        if key.startswith("vectors:"):
            families[key[8:]] = {Fraction(i): tuple(coordinates) for i in REPAIR_INDICES}
    return Counterexample(scalars, {k[7:]: tuple(c) for k, c in vectors.items()
                                    if k.startswith("vector:")}, families)


def _score(point: dict[Unknown, Fraction], unknowns: tuple[Unknown, ...],
           facts: tuple[tuple[sympy.Expr, str], ...], work: Work) -> Score:
    """(How many hypotheses fail, by how much in all) at `point`: one point of work. A fact
    the kernel cannot evaluate there (a sum over a non-integer range) fails by 1."""
    work.charge("points")
    if work.used["points"] > REPAIR_POINTS:
        raise Exhausted(f"point budget {REPAIR_POINTS} of the satisfying-point search exhausted")
    world = _world(point, unknowns)
    failing, short = 0, Fraction(0)
    for expr, kind in facts:
        try:
            value = world.of(expr)
        except KernelError:
            failing, short = failing + 1, short + 1
            continue
        if not holds(kind, value):
            failing, short = failing + 1, short + abs(value)
    return failing, short


def _repair(point: dict[Unknown, Fraction], unknowns: tuple[Unknown, ...],
            facts: tuple[tuple[sympy.Expr, str], ...], work: Work
            ) -> dict[Unknown, Fraction] | None:
    """`point` moved (see the module docstring) until every fact holds, or None when no move
    improves it: the first single move that lowers the score is taken; when none does, the
    first that does not raise it and is then lowered by solving an equality."""
    score = _score(point, unknowns, facts, work)
    while score[0]:
        level: list[tuple[dict[Unknown, Fraction], Score]] = []
        for moved in _moves(point, unknowns):
            found = _score(moved, unknowns, facts, work)
            if found < score:
                break
            if found[0] <= score[0]:
                level.append((moved, found))
        else:
            for moved, found in level:
                moved, found = _solved(moved, found, unknowns, facts, work)
                if found < score:
                    break
            else:
                return None
        point, score = moved, found
    return point


def _moves(point: dict[Unknown, Fraction], unknowns: tuple[Unknown, ...]
           ) -> Iterator[dict[Unknown, Fraction]]:
    """`point` with one unknown changed to another value of `REPAIR_VALUES`, in a fixed order."""
    for unknown in unknowns:
        for value in REPAIR_VALUES:
            if value != point[unknown]:
                yield {**point, unknown: value}


def _solved(point: dict[Unknown, Fraction], score: Score, unknowns: tuple[Unknown, ...],
            facts: tuple[tuple[sympy.Expr, str], ...], work: Work
            ) -> tuple[dict[Unknown, Fraction], Score]:
    """`point` with one scalar set to a rational root of a failing equality or non-strict
    inequality in it (degree at most 2 there, found from its values at -1, 0 and 1), if that
    lowers the score."""
    best = point, score
    world = _world(point, unknowns)
    for expr, kind in facts:
        try:
            if kind == ">" or holds(kind, world.of(expr)):
                continue
        except KernelError:
            continue
        for symbol in sorted(expr.free_symbols, key=lambda s: s.name):
            unknown = ("scalar", symbol.name, 0)
            if unknown not in point or sympy.degree(expr, symbol) not in (1, 2):
                continue
            for root in _roots(expr, point, unknown, unknowns, work):
                moved = {**point, unknown: root}
                if (found := _score(moved, unknowns, facts, work)) < best[1]:
                    best = moved, found
    return best


def _roots(expr: sympy.Expr, point: dict[Unknown, Fraction], unknown: Unknown,
           unknowns: tuple[Unknown, ...], work: Work) -> tuple[Fraction, ...]:
    """The rational roots of `expr` as a polynomial of degree <= 2 in `unknown` (the others
    as at `point`), read from its values at -1, 0, 1."""
    try:
        minus, zero, plus = (_world({**point, unknown: Fraction(t)}, unknowns).of(expr)
                             for t in (-1, 0, 1))
    except KernelError:
        return ()
    work.charge("points", 3)
    a, b, c = (plus + minus) / 2 - zero, (plus - minus) / 2, zero
    if a == 0:
        return () if b == 0 else (-c / b,)
    discriminant = b * b - 4 * a * c
    if discriminant < 0:
        return ()
    root = _rational_sqrt(discriminant)
    return () if root is None else ((-b + root) / (2 * a), (-b - root) / (2 * a))


def _rational_sqrt(q: Fraction) -> Fraction | None:
    """The square root of `q` >= 0 if it is rational."""
    n, d = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(n, d) if n * n == q.numerator and d * d == q.denominator else None


# -- a natural counterexample from one off the naturals --------------------------------------
#
# The search values every name as a real (a natural is only `t >= 0` to it), so it may find
# `t = 3/2` where the hypotheses `(2*t - 3)*(t - 5) == 0` hold and the claim `t <= 1` fails,
# which the kernel refuses as a refutation of a step with `t` natural; yet `t = 5` refutes it
# (red team 9). Here the names that should be natural and are not are moved, one at a time, to
# natural values along the line through the point found (every other name kept):
#
# On that line each hypothesis, and the claim, is a polynomial in the one name; its truth
# changes only at its real roots. So the values where the hypotheses hold and the claim fails
# are finitely many intervals whose ends are such roots, and the least integer >= 0 in one of
# them is 0 or 1, or next to one of its ends (its ceiling, or its floor plus 1). The candidates
# are therefore 0, 1 and the integers from floor - 1 to ceiling + 1 around every real root
# (isolated exactly, `Poly.intervals`, to width under 1/2), tried in increasing order: with a
# single such name the first that refutes is the least natural counterexample on that line,
# and when none does there is none on it (`Moved.complete`), unless a polynomial was of a
# degree beyond `NATURAL_DEGREE` (its roots are not isolated then, and nothing is claimed).
# With several such names, the candidates of each are taken given the values chosen for the
# ones before (depth first, names in order), which is no longer complete.
#
# The work is a count of candidate points evaluated (at most `NATURAL_POINTS`), never the
# clock; values are exact. The point counts only once the kernel has refuted the step with it.

NATURAL_POINTS = 512  # candidate points evaluated, at most, per point moved
NATURAL_DEGREE = 24  # a polynomial of higher degree in the name: its roots are not isolated


@dataclass(frozen=True)
class Moved:
    """The outcome: a point with every natural name natural where the hypotheses hold and
    the claim fails (or None), and whether the candidates covered every natural value of
    the line (one name moved, the judgement's only name, every root isolated)."""

    point: Counterexample | None
    complete: bool
    tried: int


def is_natural(value: Fraction) -> bool:
    """An integer >= 0."""
    return value.denominator == 1 and value >= 0


def natural_counterexample(judgement: Judgement, found: Counterexample,
                           naturals: Iterable[str]) -> Moved:
    """`found` with the names of `naturals` that it values off the naturals moved to natural
    values where it still refutes `judgement` (see the comment above); `point` is None
    when no candidate does."""
    import sympy  # here: whatever the module loads, this part needs SymPy's root isolation

    names = sorted(n for n in naturals if n in found.scalars
                   and not is_natural(found.scalars[n]))
    symbols = set().union(*(f.expr.free_symbols for f in (*judgement.hypotheses,
                                                           judgement.claim)))
    values: dict[sympy.Symbol, sympy.Rational] = {}
    for symbol in symbols:
        if symbol.name in names:
            continue
        pair = gram_pair(symbol)
        if pair is None:
            if symbol.name not in found.scalars:
                return Moved(None, False, 0)  # a member or a sum: no value here
            values[symbol] = sympy.Rational(found.scalars[symbol.name])
        else:
            a, b = (found.vectors.get(v) for v in pair)
            if a is None or b is None or len(a) != len(b):
                return Moved(None, False, 0)
            values[symbol] = sympy.Rational(sum((x * y for x, y in zip(a, b, strict=True)),
                                                Fraction(0)))
    claim = judgement.claim
    failing = {">=": (-claim.expr, ">"), ">": (-claim.expr, ">="), "==": (claim.expr, "!=")}
    facts = [(h.expr.xreplace(values), h.kind) for h in judgement.hypotheses]
    facts.append((failing[claim.kind][0].xreplace(values), failing[claim.kind][1]))
    search = _Naturals(names, {n: found.scalars[n] for n in names})
    chosen = search.first(facts, {})
    point = None if chosen is None else Counterexample(
        {**found.scalars, **chosen}, dict(found.vectors), dict(found.families))
    complete = (search.complete and len(names) == 1
                and {s.name for s in symbols} <= set(names))
    return Moved(point, complete and point is None, search.tried)


class _Naturals:
    """The depth-first search over the names' candidates (counted, exact)."""

    def __init__(self, names: list[str], start: dict[str, Fraction]) -> None:
        self.names = names
        self.start = start
        self.tried = 0
        self.complete = True  # every root isolated and no candidate left untried

    def first(self, facts: list[tuple[sympy.Expr, str]], chosen: dict[str, Fraction]
              ) -> dict[str, Fraction] | None:
        """The first natural values of the names not yet `chosen` where `facts` hold."""
        import sympy

        if len(chosen) == len(self.names):
            return chosen if all(_holds_exactly(e, k) for e, k in facts) else None
        name = self.names[len(chosen)]
        symbol = sympy.Symbol(name)
        later = {sympy.Symbol(n): sympy.Rational(self.start[n])
                 for n in self.names[len(chosen) + 1:]}
        line = [(e.xreplace(later), k) for e, k in facts]  # the line through the point
        for value in self._candidates(line, symbol):
            if self.tried >= NATURAL_POINTS:
                self.complete = False
                return None
            self.tried += 1
            at = sympy.Integer(value)
            if len(chosen) + 1 == len(self.names) and not all(
                    _holds_exactly(e.xreplace({symbol: at}), k) for e, k in line):
                continue
            found = self.first([(e.xreplace({symbol: at}), k) for e, k in facts],
                               {**chosen, name: Fraction(value)})
            if found is not None:
                return found
        return None

    def _candidates(self, line: list[tuple[sympy.Expr, str]], symbol: sympy.Symbol
                    ) -> list[int]:
        """0, 1 and the integers around every real root on the line, in increasing order."""
        import sympy

        wanted = {0, 1}
        value = self.start[symbol.name]
        wanted.update((math.floor(value), math.ceil(value)))
        for expr, _ in line:
            if symbol not in expr.free_symbols:
                continue
            poly = sympy.Poly(expr, symbol, domain=sympy.QQ)
            if poly.degree() > NATURAL_DEGREE:
                self.complete = False
                continue
            for (low, high), _ in poly.intervals(eps=sympy.Rational(1, 2)):
                wanted.update(range(math.floor(low) - 1, math.ceil(high) + 2))
        return sorted(v for v in wanted if v >= 0)


def _holds_exactly(expr: sympy.Expr, kind: str) -> bool:
    """A fact without names, exactly (`!=`: the failure of an equality)."""
    import sympy

    value = sympy.Rational(expr)
    if kind == "!=":
        return value != 0
    return holds(kind, Fraction(int(value.p), int(value.q)))



#: Updates a candidate run makes from the start before `refuting_run` gives up, and the
#: bits its state may hold (every numerator and denominator together): counts of work, never
#: a time. An update may square a value (`s := s*s` from 2 doubles its bits each time), so a
#: bound on updates alone bounds nothing (red team 21 F2: 32 such updates ran past every cap).
RUN_UPDATES = 32
RUN_BITS = 1 << 14


def per_update_names(rule: Induction) -> frozenset[str]:
    """The names an induction's update reads that are neither iterated, nor its counter,
    nor among its constants: fresh at every update (the example, its label), as the kernel
    reads them."""
    from verify.kernel.algebra import names_of

    terms = [c for t in rule.step.values()
             for c in (t.values() if isinstance(t, Mapping) else (t,))]
    read = set().union(*(names_of(e) for r in rule.update for e in (r.lhs, r.rhs, *r.divisors)),
                       *map(names_of, terms),
                       *(set(t) for t in rule.step.values() if isinstance(t, Mapping)))
    return frozenset(read - {*rule.base, *rule.step, rule.variable} - set(rule.constants))


def _bits(state: Counterexample) -> int:
    values = [*state.scalars.values(), *(x for v in state.vectors.values() for x in v)]
    return sum(v.numerator.bit_length() + v.denominator.bit_length() for v in values)


def refuting_run(rule: Induction, claim: Rel, point: Counterexample,
                 limit: int = RUN_UPDATES, naturals: frozenset[str] = frozenset()
                 ) -> tuple[Counterexample, ...] | None:
    """A run of the induction `rule` that may refute it (`kernel.refute_run` decides): the
    first of two runs from its base, made on the per-update values of `point` (the step
    case's counterexample: its example, its label; the constants its values too), in which
    the invariant `claim` fails after an update. Its last state without the per-update
    names, which no update reads there, but those among `naturals` (the kernel checks every
    natural at every state: without them a run on a natural example was rejected, "k is not
    assigned", and the false invariant left unknown: red team 26). None when, in each run,
    an update fact fails first (the run cannot go on), `limit` updates pass or the state
    outgrows `RUN_BITS`, or `point` lacks a value the run reads.

    The step case's point satisfies the invariant at a state no run may reach; replayed from
    the base on the same example, a false invariant often fails after a few updates (from
    w = 0, `norm2(w) <= t*R**2/2` fails after one update on an example of norm R). That run
    cannot reach a state the point's example does not lead to: the margin perceptron's
    `norm2(w) <= t*(beta + R**2)` (newcomer 34 N5) holds on every run of one example
    repeated (from 0, `t*norm2(x)` grows past `beta + norm2(x)` only once the update fact
    `y<w, x> <= beta` stops the run), and fails only after the updates reach a `w` at which
    another example's `y<w, x>` is beta. The second run is `walk`: to the point's own state
    (its counter's value of updates, each moving the iterated vectors an equal part of the
    way from the base to the point's), then the point's example, as the first."""
    return (_replayed(rule, claim, point, limit, naturals, ())
            or _replayed(rule, claim, point, limit, naturals, walk(rule, point, limit)))


def run_made(counter: str, iterated: Iterable[str], point: Counterexample,
             states: Sequence[Counterexample]) -> str:
    """What a run of `refuting_run` from `point` is, for every text that names it (one
    home, fix35 F2; `counter` and `iterated`, the induction's variable and the names its
    update moves, from the kernel's rule or the proof's alike): 'replayed', every update
    made on the point's example; 'walked', the walk reached the point's state (its
    counter's value of updates) and the next update was on the point's example; 'toward',
    the invariant failed on the walk before it got there (`_replayed` stops at the first
    state where it fails: that run is no replay of the point's example, nor a walk to its
    state). An example is every name of a state but the counter and the iterated ones."""
    moving = {counter, *iterated}

    def example(state: Counterexample) -> tuple[object, ...]:
        return tuple(sorted((n, v) for d in (state.scalars, state.vectors)
                            for n, v in d.items() if n not in moving))
    own = example(point)
    made = [example(state) for state in states[:-1]]
    if all(e == own for e in made):
        return "replayed"
    count = point.scalars.get(counter)
    return "walked" if made[-1] == own and count == len(made) - 1 else "toward"


def walk(rule: Induction, point: Counterexample, limit: int = RUN_UPDATES
         ) -> tuple[Callable[[World], dict[str, tuple[Fraction, ...]]], ...]:
    """The examples of a walk from the base to the state of `point` (a step case's
    counterexample): one per update, `T` of them where `T` is the point's counter (a natural,
    1 to `limit`); update k's gives each iterated vector whose update reads one per-update
    vector `p` linearly (`w + c*p + ...`, its coefficient `c` nonzero at the state) the value
    `base + k/T*(point - base)`, by solving for `p` at the state the walk is in (a callable
    of that state's world: the state is known only as the run reaches it). Empty when the
    point's counter is no such natural or no update reads a per-update vector: the walk is
    then no other run than the point's example replayed."""
    from verify.kernel.algebra import names_of

    count = point.scalars.get(rule.variable)
    fresh = per_update_names(rule)
    if count is None or count.denominator != 1 or not 1 <= count <= limit:
        return ()
    solved = {v: [n for n in term if n in fresh] for v, term in rule.step.items()
              if isinstance(term, Mapping) and v in point.vectors}
    solved = {v: names[0] for v, names in solved.items() if len(names) == 1}
    # the rest of the update must not read what is solved for (`(1 + norm2(x))*w + y*x`):
    # solved at the state's old example, the new one would move w elsewhere (adv35)
    read = set().union(*(names_of(c) for v in solved
                         for c in rule.step[v].values()))  # type: ignore[union-attr]
    solved = {v: p for v, p in solved.items() if not read & set(solved.values())}
    if not solved:
        return ()
    total = int(count)

    def update(k: int) -> Callable[[World], dict[str, tuple[Fraction, ...]]]:
        def examples(world: World) -> dict[str, tuple[Fraction, ...]]:
            from verify.kernel import run_value

            out: dict[str, tuple[Fraction, ...]] = {}
            for v, p in solved.items():
                term = rule.step[v]
                assert isinstance(term, Mapping)
                base = run_value(world, rule.base[v]) if v in rule.base else point.vectors[v]
                goal = [b + Fraction(k, total) * (e - b)
                        for b, e in zip(base, point.vectors[v], strict=True)]  # type: ignore[arg-type]
                rest = run_value(world, {n: c for n, c in term.items() if n != p})
                coefficient = world.of(term[p])
                if coefficient == 0 or p in out:
                    raise KernelError(f"no {p} moves {v} there")
                out[p] = tuple((g - r) / coefficient
                               for g, r in zip(goal, rest, strict=True))  # type: ignore[arg-type]
            return out
        return examples

    return tuple(update(k) for k in range(1, total + 1))


def _replayed(rule: Induction, claim: Rel, point: Counterexample, limit: int,
              naturals: frozenset[str],
              walked: Sequence[Callable[[World], dict[str, tuple[Fraction, ...]]]]
              ) -> tuple[Counterexample, ...] | None:
    """The run of `refuting_run` whose first updates are made on the examples `walked` gives
    (`walk`), the rest on the point's; None as there."""
    from verify.kernel import run_value
    from verify.kernel.algebra import evaluate
    from verify.kernel.certificates import Point

    def at(state: Counterexample, values: Mapping[str, object]) -> Counterexample:
        return Counterexample(
            {**state.scalars, **{n: v for n, v in values.items() if not isinstance(v, tuple)}},
            {**state.vectors, **{n: v for n, v in values.items() if isinstance(v, tuple)}},
            state.families)

    own = {n: point.vectors[n] for n in per_update_names(rule) if n in point.vectors}
    try:
        state = at(point, {rule.variable: Fraction(0)})
        world = Point(state).world
        states = [at(state, {n: run_value(world, term) for n, term in rule.base.items()})]
        for s in range(limit + 1):
            if s < len(walked):
                states[-1] = at(states[-1], walked[s](Point(states[-1]).world))
            elif walked and s == len(walked):
                if any(n in d and d[n] != mine for d, n, mine in _iterated(rule, point,
                                                                            states[-1])):
                    return None  # not at the point's state (`c = c + 1`, the point's c = 5)
                states[-1] = at(states[-1], own)
            value = Point(states[-1]).value
            if s > 0 and not evaluate(claim, "the invariant", value):
                fresh = per_update_names(rule) - naturals
                last = states[-1]
                return (*states[:-1], Counterexample(
                    {n: v for n, v in last.scalars.items() if n not in fresh},
                    {n: v for n, v in last.vectors.items() if n not in fresh},
                    {n: v for n, v in last.families.items() if n not in fresh}))
            if s == limit or not all(evaluate(r, r.text, value) for r in rule.update):
                return None
            world = Point(states[-1]).world
            states.append(at(states[-1], {rule.variable: Fraction(s + 1), **{
                n: run_value(world, term) for n, term in rule.step.items()}}))
            if _bits(states[-1]) > RUN_BITS:  # before anything is evaluated on it
                return None
    except KernelError:  # a value the run reads is missing, or a division by zero
        return None
    return None


def _iterated(rule: Induction, point: Counterexample, state: Counterexample
              ) -> Iterator[tuple[Mapping[str, object], str, object]]:
    """Each iterated name of `rule` with `state`'s value of it, beside the point's values
    (scalars or vectors, where it is): the walk reached the point's state only where every
    one the point gives is equal (a walk moves vectors only; an iterated scalar such as
    `c = c + 1` is at the walk's count of updates, maybe not at the point's value)."""
    for n in rule.step:
        if n in state.scalars:
            yield point.scalars, n, state.scalars[n]
        elif n in state.vectors:
            yield point.vectors, n, state.vectors[n]


def start_point(starts: Sequence[tuple[str, Sequence[tuple[str, object]], object]],
                point: Counterexample) -> Counterexample | None:
    """`point` moved to the start of the inductions a statement speaks of
    (`kernel.Statement.starts`): each counter 0, each name a base gives its value there (the
    bases read constants only, which the move keeps); everything else as it was. Only a
    candidate: `kernel.refute_start` checks that the hypotheses still hold and the claim
    still fails there. None when the point lacks a value a base reads.

    Newcomers 27 F5 and 31 F4: a step false at the start of the runs it speaks of (`w_0 = 0`,
    t = 0) was left unknown, its point "maybe one no run reaches", when the search's point
    was that start already, or one a move of the counter and the iterated names makes it."""
    from verify.kernel import run_value
    from verify.kernel.certificates import Point

    state = point
    try:
        for counter, base, _ in starts:
            world = Point(state).world
            values = {n: run_value(world, dict(term) if isinstance(term, tuple) else term)  # type: ignore[arg-type]
                      for n, term in base}
            values[counter] = Fraction(0)
            state = Counterexample(
                {**state.scalars, **{n: v for n, v in values.items() if not isinstance(v, tuple)}},
                {**state.vectors, **{n: v for n, v in values.items() if isinstance(v, tuple)}},
                state.families)
    except KernelError:  # a value a base reads is missing
        return None
    return state


def _lone_root(slope: Sequence[Fraction]) -> Fraction | None:
    """The root of the polynomial with coefficients `slope` (constant first), exactly, when
    it has one distinct root (its square-free part is linear: `(a - 1e400)**4 >= 1`'s slope
    is `4*(a - 10**400)**3`, beyond float range for NumPy); else None."""
    v = sympy.Symbol("v")
    part = sympy.Poly([sympy.Rational(c.numerator, c.denominator) for c in reversed(slope)],
                      v, domain="QQ").sqf_part()
    if part.degree() != 1:
        return None
    lead, constant = part.all_coeffs()
    root = -constant / lead
    return Fraction(int(root.p), int(root.q))
