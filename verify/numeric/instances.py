"""Exact evaluation of a judgement over many numeric instances (docs/design.md §3).

An *instance* binds every scalar symbol of a judgement to an exact rational and every vector
name to a coordinate vector; a Gram symbol `<a,b>` is the exact dot product of its vectors.
Instances come in column batches (`verify.runs.columns`: one numerator array per quantity
with one common denominator per column), so a polynomial over the batch is a sum of integer
monomials over one common denominator. Each polynomial is compiled once (integer
coefficients, exponent tuples) and evaluated vectorised: in numpy int64 when a magnitude
bound computed with Python integers proves that no intermediate value can overflow,
otherwise in numpy object arrays of Python ints. No float is ever formed, so every verdict,
count and slack is exact.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import isqrt, lcm, prod
from typing import Literal

import numpy as np
import sympy

from proofs.language.terms import gram, gram_pair
from verify.kernel import Fact, Judgement
from verify.kernel.algebra import holds
from verify.runs.columns import (
    INT64_LIMIT,
    Column,
    Den,
    Instance,
    InstanceBatch,
    IntArray,
    Origin,
    VectorColumn,
    as_object,
    den_column,
    den_top,
    fitting,
    max_abs,
)
from verify.runs.families import FamilyError, family_columns, is_atom, step_work, unevaluated
from verify.runs.naming import Defined, quotient_split
from verify.search.shrinking import GreedyShrinker

Status = Literal["held", "violated", "not-run"]
#: Per update-facts or update-map check (its name), each run's first update that fails its
#: hypotheses, by the run's origin (`verify.numeric.campaign.first_unmet`;
#: `CompiledJudgement.past_unmet`).
Unmet = Mapping[str, Mapping[Origin, int]]


@dataclass(frozen=True)
class CompiledPolynomial:
    """A polynomial over QQ as integer terms over one denominator, evaluated on batches.

    `value = sum(coeff * prod(s_j ** e_j)) / denominator`.
    """

    symbols: tuple[sympy.Symbol, ...]
    terms: tuple[tuple[tuple[int, ...], int], ...]
    denominator: int

    def __hash__(self) -> int:
        """Computed once: batches key their cached values and masks by the polynomial, and
        hashing its SymPy symbols anew at every lookup cost more than some evaluations."""
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.symbols, self.terms, self.denominator))

    @cached_property
    def _degrees(self) -> tuple[int, ...]:
        """The highest exponent of each symbol (its column's denominator is raised to it)."""
        return tuple(max((m[j] for m, _ in self.terms), default=0)
                     for j in range(len(self.symbols)))

    @cached_property
    def _factors(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per term, its `(symbol index, exponent)` pairs with a positive exponent."""
        return tuple(tuple((j, e) for j, e in enumerate(m) if e) for m, _ in self.terms)

    @classmethod
    def compile(cls, expr: sympy.Expr) -> CompiledPolynomial:
        """Compile once with `sympy.Poly` (refuses anything that is not a polynomial); the
        same expression is compiled once per process (`_compiled_polynomial`)."""
        return _compiled_polynomial(cls, expr)

    @classmethod
    def _compile(cls, expr: sympy.Expr) -> CompiledPolynomial:
        symbols = tuple(sorted(expr.free_symbols, key=lambda s: s.name))
        poly = sympy.Poly(expr, *symbols, domain=sympy.QQ) if symbols else None
        raw = (poly.terms() if poly is not None
               else [((), sympy.Rational(expr))] if expr != 0 else [])
        rationals = [(tuple(int(e) for e in m), Fraction(int(c.p), int(c.q))) for m, c in raw]
        den = lcm(*(c.denominator for _, c in rationals)) if rationals else 1
        terms = tuple((m, int(c * den)) for m, c in rationals)
        return cls(symbols, terms, den)

    def evaluate(self, batch: InstanceBatch) -> tuple[IntArray, Den]:
        """Numerators and a positive denominator (one for every row, or one per row when a
        column has its own per row): the exact values on every row (computed once per batch
        and polynomial; the arrays are shared, so callers never write them)."""
        cached = batch._values.get(self)
        if cached is None:
            cached = batch._values[self] = self._evaluate(batch)
        return cached

    @cached_property
    def _square(self) -> Square | None:
        """The polynomial as `sign * <L, L>` for a combination `L` of its vectors whose
        coefficients are polynomials in its scalars (`square_form`), or None."""
        return square_form(self)

    def _evaluate(self, batch: InstanceBatch) -> tuple[IntArray, Den]:
        if self._square is not None:
            found = _evaluate_square(self._square, batch)
            if found is not None:
                return found
        columns = [batch.column(s) for s in self.symbols]
        if any(isinstance(c.den, np.ndarray) for c in columns):
            return self._evaluate_per_row(columns, len(batch))
        n = len(batch)
        degrees, factors = self._degrees, self._factors
        dens = [c.den for c in columns]
        scale = prod(d ** k for d, k in zip(dens, degrees, strict=True))
        coeffs = self._coefficients(dens)
        exact_int64 = self._common_int64(columns, coeffs)
        total: IntArray | None = None
        constant = 0
        for term, c in zip(factors, coeffs, strict=True):
            if not term:
                constant += c
                continue
            product: IntArray | None = None
            for j, e in term:
                factor = columns[j].power(e, exact_int64)
                product = factor if product is None else product * factor
            assert product is not None
            if c != 1:
                product = product * (np.int64(c) if exact_int64 else c)
            total = product if total is None else total + product
        if total is None:  # a constant: one value on every row
            total = np.zeros(n, dtype=np.int64) if exact_int64 else as_object(
                np.zeros(n, dtype=np.int64))
        if constant:
            total = total + (np.int64(constant) if exact_int64 else constant)
        elif total.dtype != (np.int64 if exact_int64 else object):
            total = total.astype(np.int64 if exact_int64 else object)
        return total, self.denominator * scale

    def in_int64(self, batch: InstanceBatch) -> bool:
        """Whether `evaluate` computes this polynomial's values on `batch` in int64 (by the
        bound it proves them under), not in Python ints; a square form as its terms."""
        columns = [batch.column(s) for s in self.symbols]
        if any(isinstance(c.den, np.ndarray) for c in columns):
            return self._per_row_int64(columns)
        return self._common_int64(columns, self._coefficients([c.den for c in columns]))

    def _coefficients(self, dens: Sequence[int]) -> list[int]:
        """Each term's coefficient times `prod den_j ** (degree_j - m_j)` over the columns'
        common denominators `dens`: every term over `prod den_j ** degree_j`."""
        degrees = self._degrees
        return ([c for _, c in self.terms] if all(d == 1 for d in dens) else
                [c * prod(dens[j] ** (degrees[j] - m[j]) for j in range(len(dens)))
                 for m, c in self.terms])

    def _common_int64(self, columns: Sequence[Column], coeffs: Sequence[int]) -> bool:
        """Whether every term and sum of `_evaluate` fits int64 over columns of common
        denominators (`coeffs`: `_coefficients`), by a bound from each column's largest
        numerator, and every column is in int64."""
        magnitudes = [max(c.magnitude, 1) for c in columns]
        bound = sum(abs(c) * prod(magnitudes[j] ** e for j, e in term)
                    for term, c in zip(self._factors, coeffs, strict=True))
        return bound <= INT64_LIMIT and all(c.num.dtype != object for c in columns)

    def _per_row_int64(self, columns: Sequence[Column]) -> bool:
        """`_common_int64` for `_evaluate_per_row`: a bound on every term from the largest
        numerator and denominator of each column, and every numerator and denominator in
        int64."""
        degrees = self._degrees
        magnitudes = [max(c.magnitude, 1) for c in columns]
        tops = [c.den_max for c in columns]
        bound = sum(abs(c) * prod(magnitudes[j] ** m[j] * tops[j] ** (degrees[j] - m[j])
                                  for j in range(len(columns)))
                    for m, c in self.terms)
        return bound <= INT64_LIMIT and all(
            c.num.dtype != object and (not isinstance(c.den, np.ndarray) or c.den.dtype != object)
            for c in columns)

    def _evaluate_per_row(self, columns: Sequence[Column], n: int) -> tuple[IntArray, Den]:
        """`_evaluate` when some column has a denominator per row (rows of several runs): term
        m is `c * prod num_j ** m_j * prod den_j ** (degree_j - m_j)`, every term over the
        row's `denominator * prod den_j ** degree_j`. int64 only when a bound on every term,
        from the largest numerator and denominator of each column, proves that it fits."""
        degrees, factors = self._degrees, self._factors
        tops = [c.den_max for c in columns]
        exact_int64 = self._per_row_int64(columns)
        total: IntArray | None = None
        common = [not isinstance(c.den, np.ndarray) for c in columns]
        for (m, c), term in zip(self.terms, factors, strict=True):
            # a common denominator's power is a number: into the coefficient (at most the
            # bound, as every factor of a term is); a per-row one's with the numerators'
            # power of its column, that product made once per column (`Column.scaled_power`)
            for j, column in enumerate(columns):
                if common[j] and degrees[j] > m[j]:
                    c *= column.den_power(degrees[j] - m[j], exact_int64)  # type: ignore[operator]
            # a coefficient 1 multiplies nothing, and the first term is added to nothing
            # (the same integers, one array operation fewer each)
            value: IntArray | None = None
            for j, e in term:
                if common[j]:
                    factor = columns[j].power(e, exact_int64)
                    value = factor if value is None else value * factor
            for j, column in enumerate(columns):
                if not common[j] and degrees[j]:
                    factor = column.scaled_power(m[j], degrees[j] - m[j], exact_int64)
                    value = factor if value is None else value * factor
            if value is None or c != 1:
                coefficient = np.int64(c) if exact_int64 else c
                value = (value * coefficient if value is not None
                         else np.full(n, coefficient, dtype=np.int64 if exact_int64 else object))
            total = value if total is None else total + value
        if total is None:  # no term: 0 on every row
            total = (np.zeros(n, dtype=np.int64) if exact_int64
                     else as_object(np.zeros(n, dtype=np.int64)))
        # the rows' denominators: int64 only when the largest fits
        in_int64 = self.denominator * prod(t ** k for t, k in zip(tops, degrees, strict=True)
                                           ) <= INT64_LIMIT
        scale: IntArray | int = self.denominator if not in_int64 else np.int64(self.denominator)
        for column, k in zip(columns, degrees, strict=True):
            if k:
                scale = scale * column.den_power(k, in_int64)
        if not isinstance(scale, np.ndarray):  # every column with a per-row den has degree 0
            return total, int(scale)
        return total, scale


#: A polynomial as `sign * <L, L>`, `L` the sum of each vector times its coefficient
#: (`square_form`).
Square = tuple[int, tuple[tuple[str, "CompiledPolynomial"], ...]]


def square_form(poly: CompiledPolynomial) -> Square | None:
    """`poly` as `sign * <L, L>` with `L = sum_k c_k v_k` over its vectors `v_k` and
    coefficients `c_k` polynomials in its scalars, when it is one; else None.

    A vector identity such as the update rule, `norm2(w_next - (w + tau*y*x)) == 0`, is
    stated as that squared norm, which its normal form expands into six Gram columns and a
    polynomial of a dozen terms: each Gram column an exact product of two vector columns
    (past int64 on most joined rows of the campaign's small runs), each term a product of
    their numerators and the rows' denominators. `<L, L>` is one vector column combined
    and one product (`_evaluate_square`): the same rational on every row, since the
    expansion is an identity (checked here exactly, term by term, by SymPy: every Gram
    coefficient `Q_ab` is `sign c_a c_b`, twice that for `a != b`, and nothing else is in
    the polynomial). Found from the terms without SymPy unless every term is one Gram
    symbol times scalars and some `<a, a>` has a nonzero rational coefficient whose
    magnitude is a rational square (its `c_a`); the other coefficients are then read off
    that vector's row, `c_b = Q_ab / (2 sign c_a)`."""
    pairs = [gram_pair(s) for s in poly.symbols]
    gram = [j for j, pair in enumerate(pairs) if pair is not None]
    if not gram or not poly.terms:
        return None
    coefficients: dict[tuple[str, str], list[tuple[tuple[int, ...], int]]] = {}
    for monomial, c in poly.terms:
        present = [j for j in gram if monomial[j]]
        if len(present) != 1 or monomial[present[0]] != 1:
            return None
        a, b = sorted(pairs[present[0]])  # type: ignore[arg-type]
        coefficients.setdefault((a, b), []).append((monomial, c))
    names = sorted({name for pair in coefficients for name in pair})
    first = None
    for name in names:
        own = coefficients.get((name, name), [])
        if len(own) == 1 and not any(own[0][0][j] for j in range(len(pairs))
                                     if pairs[j] is None):
            first = name
            break
    if first is None:
        return None
    value = Fraction(coefficients[(first, first)][0][1], poly.denominator)
    sign = 1 if value > 0 else -1
    top, bottom = isqrt(abs(value.numerator)), isqrt(value.denominator)
    if top * top != abs(value.numerator) or bottom * bottom != value.denominator:
        return None

    def expression(pair: tuple[str, str]) -> sympy.Expr:
        return sympy.Add(*(sympy.Rational(c, poly.denominator) * sympy.Mul(
            *(poly.symbols[j] ** e for j, e in enumerate(monomial) if pairs[j] is None))
            for monomial, c in coefficients.get(pair, [])))

    lead = sympy.Rational(top, bottom)
    combination = {name: lead if name == first else sympy.expand(
        expression(tuple(sorted((first, name)))) / (2 * sign * lead))  # type: ignore[arg-type]
        for name in names}
    for i, a in enumerate(names):
        for b in names[i:]:
            wanted = sign * combination[a] * combination[b] * (1 if a == b else 2)
            if sympy.expand(wanted - expression((a, b))) != 0:
                return None
    return sign, tuple((name, CompiledPolynomial.compile(combination[name]))
                       for name in names if combination[name] != 0)


def _evaluate_square(square: Square, batch: InstanceBatch) -> tuple[IntArray, Den] | None:
    """`sign * <L, L>` on every row (`square_form`), `L = sum_k c_k v_k` made in int64 over
    the lcm of its terms' denominators per row: the same rationals as the polynomial's
    terms give. None (the caller evaluates the terms) when a bound on `L`'s numerators
    does not prove int64 holds them, or a column is in Python ints, a vector or scalar is
    not in the batch; `<L, L>` in Python ints on the rows where L is not zero when its
    square may pass int64 (on a run, the update rule's `L` is zero on every row)."""
    sign, parts = square
    terms = []
    for name, coefficient in parts:
        vector = batch.vectors.get(name)
        if vector is None or vector.dtype == object or any(
                s.name not in batch.scalars for s in coefficient.symbols):
            return None
        num, den = coefficient.evaluate(batch)
        if num.dtype == object or (isinstance(den, np.ndarray) and den.dtype == object):
            return None
        terms.append((num, den, vector))
    dens = [den * vector.den if den_top(den) * den_top(vector.den) <= INT64_LIMIT else None
            for _, den, vector in terms]
    common = dens[0]
    for den in dens[1:]:
        common = _lcm_rows(common, den)
    if common is None:
        return None
    # each term's numerators over the rows' lcm: |num (lcm / den) v| at most this bound
    tops = [max_abs(num) for num, _, _ in terms]
    if max(tops) * den_top(common) > INT64_LIMIT:
        return None
    factors = [num * (common // den) for (num, _, _), den in zip(terms, dens, strict=True)]
    bound = sum(max_abs(factor) * vector.magnitude
                for factor, (_, _, vector) in zip(factors, terms, strict=True))
    if bound > INT64_LIMIT:
        return None
    width = max(vector.dim for _, _, vector in terms)
    n = len(batch)
    L = np.zeros((n, width), dtype=np.int64)
    for factor, (_, _, vector) in zip(factors, terms, strict=True):
        L += factor[:, None] * vector.padded(width).num
    if width * bound * bound <= INT64_LIMIT:
        squares = np.einsum("ij,ij->i", L, L)
    else:
        nonzero = L.any(axis=1)
        squares = np.zeros(n, dtype=np.int64)
        if nonzero.any():
            squares = as_object(squares)
            big = as_object(L[nonzero])
            squares[nonzero] = np.einsum("ij,ij->i", big, big)
    values = squares if sign > 0 else -squares
    if isinstance(common, np.ndarray):
        top = den_top(common)
        common = common * common if top * top <= INT64_LIMIT else as_object(common) ** 2
        return values, common
    return values, int(common) ** 2


def _lcm_rows(a: Den | None, b: Den | None) -> Den | None:
    """The lcm of two denominators (each one per row or one for all) on every row, within
    int64: the one when both are equal (a run's iterates and examples over its scale), else
    numpy's when their product fits int64; None when that is not proved (or either is)."""
    if a is None or b is None:
        return None
    if a is b or (not isinstance(a, np.ndarray) and not isinstance(b, np.ndarray) and a == b):
        return a
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b):
        return a
    if den_top(a) * den_top(b) > INT64_LIMIT:
        return None
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.lcm(a, b)
    return lcm(a, b)


def _bound_names(symbols: Iterable[sympy.Symbol]) -> frozenset[str]:
    """The scalar and vector names a row binds to give `symbols` values: a Gram symbol
    `<a, b>` reads the vectors a and b, any other symbol its own name."""
    out: set[str] = set()
    for symbol in symbols:
        pair = gram_pair(symbol)
        out |= set(pair) if pair else {symbol.name}
    return frozenset(out)


@lru_cache(maxsize=4096)
def _compiled_polynomial(cls: type[CompiledPolynomial], expr: sympy.Expr) -> CompiledPolynomial:
    """`CompiledPolynomial._compile`, memoised: compiled polynomials are immutable, and many
    hypotheses recur across the steps of the built-in proofs."""
    return cls._compile(expr)


@dataclass(frozen=True)
class NumericVerdict:
    """The outcome of checking one judgement on instances.

    `held`: at least one instance satisfied every hypothesis and none violated the claim;
    `violated`: some instance satisfied every hypothesis and violated the claim;
    `not-run`: no instance satisfied every hypothesis, so nothing was tested.
    `min_slack` is the exact minimum of the claim's gap over non-vacuous instances (for an
    equation, minus its absolute value, so 0 means it held with equality everywhere).
    """

    status: Status
    instances: int
    vacuous: int
    violations: int
    min_slack: Fraction | None
    counterexample: Instance | None
    #: rows on which the check was not run, neither instances nor vacuous: their sums could
    #: not be evaluated within the work a row may take (`verify.runs.families.FamilyError`,
    #: decided by counting indices and cells before evaluating), and the first such reason
    unevaluated: int = 0
    reason: str | None = None
    #: rows of runs that are none of the runs its statement speaks of (an induction's, or
    #: that of an induction whose claim it imports: their start at the counter's 0 is not the
    #: induction's base, `CompiledJudgement.starts`): left out, neither instances nor vacuous
    outside: int = 0
    #: rows of runs past an update that failed the update facts of an induction whose runs
    #: they must be, or moved otherwise than its step (`CompiledJudgement.unmet`; red team
    #: 30 A4, newcomer 32 N6): left out too, neither instances nor vacuous, nor in `outside`
    past_unmet: int = 0
    #: rows of runs from the first row where a constant of an induction whose runs they must
    #: be takes another value than at the run's first row (`CompiledJudgement.fixed`; adv32b
    #: O2: a constant bound to a quantity that varies along a run): left out too, and the
    #: names of the constants that did (`varied`)
    varying: int = 0
    varied: tuple[str, ...] = ()
    #: rows where the counter of an induction whose runs they must be is not the run's count
    #: of updates (`CompiledJudgement.counted`; memb33): no state after as many updates as
    #: the counter says, so left out too, row by row
    miscounted: int = 0
    #: for each hypothesis of the judgement, in its order, the vacuous instances where it
    #: is false (a row may fail several; () when none was vacuous), and, set by the audit,
    #: the text each comes from (`verify.runs.naming.labelled_on_runs`): a report names the
    #: hypothesis its runs fail most (newcomer 34 N1: "hypotheses false" named none)
    false: tuple[int, ...] = ()
    labels: tuple[str, ...] = ()

    @staticmethod
    def empty() -> NumericVerdict:
        """The verdict of no instances at all."""
        return NumericVerdict("not-run", 0, 0, 0, None, None)

    def merge(self, other: NumericVerdict) -> NumericVerdict:
        """Both sets of instances together (the first counterexample is kept)."""
        violations = self.violations + other.violations
        slacks = [s for s in (self.min_slack, other.min_slack) if s is not None]
        checked = slacks != []
        status: Status = "violated" if violations else "held" if checked else "not-run"
        return NumericVerdict(
            status, self.instances + other.instances, self.vacuous + other.vacuous, violations,
            min(slacks) if slacks else None, self.counterexample or other.counterexample,
            self.unevaluated + other.unevaluated, self.reason or other.reason,
            self.outside + other.outside, self.past_unmet + other.past_unmet,
            self.varying + other.varying, tuple(sorted({*self.varied, *other.varied})),
            self.miscounted + other.miscounted,
            tuple(map(sum, zip(self.false, other.false, strict=True)))
            if self.false and other.false else self.false or other.false,
            self.labels or other.labels)

    def most_false(self) -> tuple[str, int] | None:
        """The hypothesis false on the most vacuous instances, as the step writes it, and on
        how many (the first in the statement's order among equals); None without labels."""
        if not self.false or len(self.labels) != len(self.false) or not any(self.false):
            return None
        most = max(range(len(self.false)), key=lambda k: (self.false[k], -k))
        return self.labels[most], self.false[most]


@dataclass(frozen=True)
class CompiledJudgement:
    """A judgement compiled once, checked on any number of batches."""

    judgement: Judgement
    hypotheses: tuple[tuple[CompiledPolynomial, str], ...]
    claim: CompiledPolynomial
    #: the `[define]`d names the judgement reads, each a column made on the batch first
    defined: tuple[tuple[Defined, tuple[tuple[CompiledPolynomial, CompiledPolynomial], ...]],
                   ...] = ()
    #: the run terms the statement's naturals denote: a row is an instance of the statement
    #: only where each is a natural number (`n in Nat` is a hypothesis: red team 10 saw
    #: `y in Nat |- y >= 0` violated on the rows of label -1)
    naturals: tuple[CompiledPolynomial, ...] = ()
    #: the numerator and denominator of the factor its claim is the written claim's gap
    #: times (`verify.runs.naming.slack_scale`), by which the least slack is divided
    scale: tuple[CompiledPolynomial, CompiledPolynomial] | None = None
    #: facts that must hold at every state of a row's run up to the row's own (an
    #: induction's carried invariants: its statement speaks of the runs where they hold at
    #: every state, so a row after a state that breaks one is no instance: `_so_far`)
    carried: tuple[tuple[CompiledPolynomial, str], ...] = ()
    #: an induction's start, each as (counter, base): at a row where the counter is 0 the
    #: base's polynomial must be 0 (the iterated names at the induction's base), else the
    #: row's run is none of the induction's runs, and its rows from there on are left out
    #: (`outside`; newcomer 31 F7: batch runs from -u made a proved induction "violated")
    starts: tuple[tuple[CompiledPolynomial, CompiledPolynomial], ...] = ()
    #: the update-facts and update-map checks (by name) of the inductions whose runs its
    #: rows must be: a run past an update that fails one is none of that induction's runs
    #: from there on, and its rows there are left out (`past_unmet`, read off `Unmet`; red
    #: team 30 A4, newcomer 32 N6)
    unmet: tuple[str, ...] = ()
    #: the counters of the inductions whose runs its rows must be, each `counter - count`
    #: (the run's count of updates: `RunKind.counter`) under the [numeric] names: a row where
    #: one is not 0 is no state after as many updates as that counter says, and is left out
    #: (`miscounted`; memb33: a counter bound to `2*t` was reported, its rows still read)
    counted: tuple[CompiledPolynomial, ...] = ()
    #: the constants of those inductions that read quantities their kind does not hold fixed
    #: along a run, each (name, gap): the gap is 0 where the constant has the value it has at
    #: the run's first row (read off the columns `FIRST`-suffixed, `_first_columns`); from the
    #: first row where it is not on, the run is none of the induction's runs (a constant
    #: keeps one value along them), and its rows are left out (`varying`; adv32b O2)
    fixed: tuple[tuple[str, CompiledPolynomial], ...] = ()

    @classmethod
    def compile(cls, judgement: Judgement, defined: Sequence[Defined] = (),
                naturals: Sequence[sympy.Expr] = (), scale: sympy.Expr | None = None,
                carried: Sequence[Fact] = (),
                starts: Sequence[tuple[Fact, Fact]] = (),
                unmet: Sequence[str] = (), counted: Sequence[sympy.Expr] = (),
                fixed: Sequence[tuple[str, sympy.Expr]] = ()) -> CompiledJudgement:
        """Compile every hypothesis and the claim, each argument of a definition the
        rows evaluate (`defined`, in file order) as a numerator and a denominator, the
        term of each natural (`naturals`: polynomials over the run's quantities) and each
        fact `carried` along the run, each start (`starts`: a counter and a base, each an
        expression `== 0`), the update-facts checks its runs must meet (`unmet`) (once per
        judgement and process: every shard of a campaign compiles the same checks,
        `_compiled_judgement`)."""
        return _compiled_judgement(cls, judgement, tuple(defined), tuple(naturals), scale,
                                   tuple(carried), tuple(starts), tuple(unmet),
                                   tuple(counted), tuple(fixed))

    @classmethod
    def _compile(cls, judgement: Judgement, defined: tuple[Defined, ...] = (),
                 naturals: tuple[sympy.Expr, ...] = (), scale: sympy.Expr | None = None,
                 carried: tuple[Fact, ...] = (),
                 starts: tuple[tuple[Fact, Fact], ...] = (),
                 unmet: tuple[str, ...] = (), counted: tuple[sympy.Expr, ...] = (),
                 fixed: tuple[tuple[str, sympy.Expr], ...] = ()) -> CompiledJudgement:
        hyps = tuple((CompiledPolynomial.compile(h.expr), h.kind) for h in judgement.hypotheses)
        parts = tuple((d, tuple(_quotient_parts(a) for a in d.args)) for d in defined)
        return cls(judgement, hyps, CompiledPolynomial.compile(judgement.claim.expr), parts,
                   tuple(CompiledPolynomial.compile(sympy.expand(n)) for n in naturals),
                   None if scale is None else _quotient_parts(scale),
                   tuple((CompiledPolynomial.compile(f.expr), f.kind) for f in carried),
                   tuple((CompiledPolynomial.compile(at.expr), CompiledPolynomial.compile(
                       base.expr)) for at, base in starts), unmet,
                   tuple(CompiledPolynomial.compile(sympy.expand(c)) for c in counted),
                   tuple((name, CompiledPolynomial.compile(sympy.expand(gap)))
                         for name, gap in fixed))

    @cached_property
    def names(self) -> frozenset[str]:
        """The scalar and vector names a row must bind: the run quantities it reads, those
        of the arguments of a definition it reads in place of the definition's own (once
        per compiled judgement: every shard of a campaign asks it of every check, and
        reading a judgement's symbols walks its SymPy trees)."""
        made = {d.symbol for d, _ in self.defined}
        symbols = {s for s in self.judgement.symbols() if s.name not in made} | {
            s for d, _ in self.defined for a in d.args for s in a.free_symbols
            if s.name not in made}
        return _bound_names(symbols)

    @cached_property
    def read(self) -> frozenset[str]:
        """The names a row must bind for the check (`names`), and those its starts read
        (each induction's counter, its iterated names and what its base reads): its rows
        are made with these (`verify.numeric.campaign`). Red team 32: a step resting on an
        induction, read on rows no other check asked for the counter, was a KeyError."""
        return self.names | _bound_names(self._start_symbols)

    @cached_property
    def _start_symbols(self) -> frozenset[sympy.Symbol]:
        """The symbols of every start's counter and base (`starts`), of every counter's gap
        (`counted`) and of every constant's (`fixed`, its first row's copies as the names
        they copy)."""
        return frozenset(s for pair in self.starts for poly in pair for s in poly.symbols) | {
            s for poly in self.counted for s in poly.symbols} | {
            first_of(s) for _, poly in self.fixed for s in poly.symbols}

    @cached_property
    def shown(self) -> frozenset[str]:
        """The names of a counterexample: `names`, and each definition's value at it (the
        kernel re-checks the defining facts there, as hypotheses)."""
        return self.names | {d.symbol for d, _ in self.defined}

    def assumed(self, batch: InstanceBatch) -> np.ndarray:
        """Rows where every hypothesis holds (the non-vacuous instances), of runs that are
        the statement's (`outside`)."""
        return self._assumed(batch) & ~self.outside(batch)

    def outside(self, batch: InstanceBatch) -> np.ndarray:
        """Rows of runs that are none of the statement's runs (`starts`): from a row where
        an induction's counter is 0 and its iterated names are not at its base on, every
        row of that run (read-only; all False without starts)."""
        key = ("starts", self.starts)
        mask = batch._masks.get(key)
        if mask is None:
            mask = batch._masks[key] = ~_so_far(self.started(batch), batch)
        return mask

    def past_unmet(self, batch: InstanceBatch, unmet: Unmet) -> np.ndarray:
        """Rows of runs past an update that failed the update facts of an induction whose
        runs they must be (`self.unmet`): a row whose iteration is later than its run's
        first such update (`unmet`: by update-facts check, each run's first failing update,
        by the run's origin). The state after that update is no state of the induction's
        runs, nor is any later one; the state before it is (the updates that reached it met
        the facts). A row-local test given `unmet`, so each slice of a batch reads it alone
        (read-only; all False without `self.unmet` or a failing update)."""
        key = ("unmet", self.unmet)
        mask = batch._masks.get(key)
        if mask is None:
            first = [min((found[origin] for name in self.unmet
                          if origin in (found := unmet.get(name, {}))), default=None)
                     for origin in batch.origins]
            if all(f is None for f in first):
                mask = np.zeros(len(batch), dtype=bool)
            else:
                top = np.array([f if f is not None else -1 for f in first], dtype=np.int64)
                firsts = top[batch.origin_index]
                mask = (firsts >= 0) & (batch.iteration > firsts)
            batch._masks[key] = mask
        return mask

    def varying(self, batch: InstanceBatch) -> np.ndarray:
        """Rows of runs from the first row (in the order of their iterations) where a
        constant of `fixed` has another value than at the run's first row of `batch` on,
        every row at that row's iteration included (one state's rows, an example row per
        example: left out whole, which only leaves out more, never makes an instance;
        ends35) (read-only; all False without `fixed`), and, under the key `("fixed names", fixed)`
        of `batch._masks`, the names of the constants that do somewhere. Cross-row: a batch
        checked a slice at a time has both read off the whole batch first, each constant's
        change read a slice at a time (`moved`, `check_in_slices`)."""
        key = ("fixed", self.fixed)
        mask = batch._masks.get(key)
        if mask is None:
            moved, names = self.moved(batch, [0, len(batch)])
            mask = batch._masks[key] = ~_so_far(~moved, batch)
            batch._masks["fixed names", self.fixed] = np.array(names, dtype=object)
        return mask

    def moved(self, batch: InstanceBatch, edges: Sequence[int]
              ) -> tuple[np.ndarray, list[str]]:
        """Rows of `batch` where a constant of `fixed` has another value than at its run's
        first row of `batch`, and the names of those that do somewhere, read on the rows
        between consecutive `edges` one slice at a time (`InstanceBatch.between`): a
        slice's copies of the first rows (`_first_columns`), its gaps' values and Gram
        columns are dropped with it (review 33 F4: on the whole batch at once they were
        what `check_in_slices` slices a batch to avoid)."""
        moved = np.zeros(len(batch), dtype=bool)
        names: list[str] = []
        if not self.fixed or not len(batch):
            return moved, names
        read = {first_of(s) for _, poly in self.fixed for s in poly.symbols}
        whole = len(edges) == 2
        for a, b in itertools.pairwise(edges):
            piece = batch if whole else batch.between(a, b)
            firsts = _first_columns(piece, read, batch, a)
            for name, poly in self.fixed:
                off = ~_holding(poly, "==", firsts)
                if off.any():
                    moved[a:b] |= off
                    if name not in names:
                        names.append(name)
        names.sort(key=[name for name, _ in self.fixed].index)
        return moved, names

    def miscounted(self, batch: InstanceBatch) -> np.ndarray:
        """Rows of `batch` where a counter of `counted` is not its run's count of updates
        (read-only; all False without `counted`): row by row, each its own state."""
        mask = np.zeros(len(batch), dtype=bool)
        for poly in self.counted:
            mask |= ~_holding(poly, "==", batch)
        return mask

    def started(self, batch: InstanceBatch) -> np.ndarray:
        """Rows of `batch` that break no start at their own state (a row where a counter is
        0 has its iterated names at that induction's base). Whether a row is outside reads
        every earlier row of its run too (`outside`, `_so_far`): a batch checked a slice at
        a time has that read off every slice's rows first, and given to each slice as its
        mask `("starts", starts)` (`check_in_slices`)."""
        held = np.ones(len(batch), dtype=bool)
        for counter, base in self.starts:
            held &= ~_holding(counter, "==", batch) | _holding(base, "==", batch)
        return held

    def _define(self, batch: InstanceBatch) -> None:
        """Make the column of each definition the judgement reads, once per batch
        (`_definition`); FamilyError, before any column is made, when its sums together
        pass the work of a step on this batch (`step_work`)."""
        if self.atoms and (why := step_work(batch, self.atoms)) is not None:
            raise FamilyError(why)
        for defined, args in self.defined:
            if defined.symbol not in batch.defined:
                batch.defined[defined.symbol] = _definition(defined.function, args, batch)
        if missing := [a for a in self.atoms if a not in batch.defined]:
            batch.defined.update(family_columns(batch, missing))

    @cached_property
    def atoms(self) -> tuple[str, ...]:
        """The sums and family members the judgement reads, its starts' bases too (a base
        `s := sum(j in 1..N, y[j]**2)`: red team 32), each a column made on the batch from
        its runs' families (`verify.runs.families.family_columns`)."""
        return tuple(sorted({s.name for s in (*self.judgement.symbols(), *self._start_symbols)
                             if is_atom(s.name)}))

    def _assumed(self, batch: InstanceBatch) -> np.ndarray:
        """`assumed`, computed once per batch and set of hypotheses (read-only: the steps of
        the built-in proofs share their hypotheses, 117 sets among 174 checks)."""
        key: tuple[object, ...] = (self.hypotheses if not (self.naturals or self.carried)
                                   else (self.hypotheses, self.naturals, self.carried))
        mask = batch._masks.get(key)
        if mask is None:
            self._define(batch)
            mask = np.ones(len(batch), dtype=bool)
            for poly, kind in self.hypotheses:
                mask &= _holding(poly, kind, batch)
            for natural in self.naturals:
                mask &= _natural(natural, batch)
            if self.carried:
                so_far = batch._masks.get(("so far", self.carried))
                mask &= so_far if so_far is not None else _so_far(self.carried_held(batch),
                                                                  batch)
            batch._masks[key] = mask
        return mask

    def carried_held(self, batch: InstanceBatch) -> np.ndarray:
        """Rows of `batch` where every carried invariant holds (at the row's own state).
        Whether a row is an instance reads them at every earlier state of its run too
        (`_so_far`): a batch checked a slice at a time has that read off every slice's rows
        first, and given to each slice as its mask `("so far", carried)` in `_masks`
        (`verify.numeric.campaign.verdicts`)."""
        self._define(batch)
        held = np.ones(len(batch), dtype=bool)
        for poly, kind in self.carried:
            held &= _holding(poly, kind, batch)
        return held

    def check(self, batch: InstanceBatch, unmet: Unmet | None = None) -> NumericVerdict:
        """Evaluate every row exactly and summarise (`unmet`: as `check_rows`)."""
        return self.check_rows(batch, unmet)[0]

    def check_rows(self, batch: InstanceBatch, unmet: Unmet | None = None
                   ) -> tuple[NumericVerdict, int | None]:
        """`check`, and the row of its counterexample (the first violation; None: none).
        `unmet`: each run's first update failing the update facts of each update-facts check
        (`past_unmet`), read where the judgement names such checks; without it none is
        known, and no row is left out for it."""
        n = len(batch)
        if n == 0:
            return NumericVerdict.empty(), None
        try:
            assumed = self._assumed(batch)
            self._define(batch)  # the hypotheses' mask may have been another judgement's
        except FamilyError as error:  # its sums past the work a row may take: not run here
            return NumericVerdict("not-run", 0, 0, 0, None, None, n, str(error)), None
        outside = self.outside(batch) if self.starts else None
        after = self.past_unmet(batch, unmet) if self.unmet and unmet else None
        if after is not None and outside is not None:
            after = after & ~outside  # counted once, as outside its base
        # each row left out is counted once, under the first of: outside, past an unmet
        # update, past a constant's change, miscounted
        gone = (outside if outside is not None else np.zeros(n, dtype=bool)) | (
            after if after is not None else False)
        moving = self.varying(batch) & ~gone if self.fixed else None
        if moving is not None:
            gone = gone | moving
        wrong = self.miscounted(batch) & ~gone if self.counted else None
        skipped, reason = 0, None
        if self.atoms and (past := unevaluated(batch, self.atoms)) is not None:
            # rows whose sums pass a limit (a row's own span, or its run's): neither
            # instances nor vacuous; read once every atom of the statement is made
            mask, reason = past
            skipped = int(np.count_nonzero(mask))
            if skipped == n:
                return NumericVerdict("not-run", 0, 0, 0, None, None, n, reason), None
            assumed = assumed & ~mask
            if outside is not None:
                outside = outside & ~mask
            if after is not None:
                after = after & ~mask
            if moving is not None:
                moving = moving & ~mask
            if wrong is not None:
                wrong = wrong & ~mask
        left = passed = moved = miscounted = 0
        varied: tuple[str, ...] = ()
        if outside is not None and (left := int(np.count_nonzero(outside))):
            assumed = assumed & ~outside
        if after is not None and (passed := int(np.count_nonzero(after))):
            assumed = assumed & ~after
        if moving is not None and (moved := int(np.count_nonzero(moving))):
            assumed = assumed & ~moving
            varied = tuple(sorted(batch._masks["fixed names", self.fixed]))
        if wrong is not None and (miscounted := int(np.count_nonzero(wrong))):
            assumed = assumed & ~wrong
        held = int(np.count_nonzero(assumed))
        instances = n - skipped - left - passed - moved - miscounted
        false = self._false(batch, assumed, [m for m in (
            mask if skipped else None, outside if left else None, after if passed else None,
            moving if moved else None, wrong if miscounted else None)
            if m is not None]) if held < instances else ()
        # the claim on the rows it decides, `assumed` (every row left out above is out of
        # it, counted once): `_claim_at`
        violations, first, min_slack = self._claim_at(batch, assumed, held) if held else (
            0, None, None)
        counterexample = (_trimmed(batch.instance(first, self.shown))
                          if first is not None else None)
        status: Status = "violated" if violations else "held" if held else "not-run"
        return (NumericVerdict(status, instances, instances - held, violations, min_slack,
                               counterexample, skipped, reason, left, passed, moved, varied,
                               miscounted, false), first)

    def _claim_at(self, batch: InstanceBatch, assumed: np.ndarray, held: int
                  ) -> tuple[int, int | None, Fraction | None]:
        """The claim on the `held` rows `assumed` of `batch` (at least one): its violations,
        the first one's row, and its least slack. Those rows are the instances whose
        hypotheses hold and that no reason left out (`check_rows`), so the claim is
        evaluated on them alone (`_narrowed`) when they are at most half of the batch, its
        values are not there already and they are Python ints (`in_int64`): on the
        campaign's mixed sources norm-growth holds on a third to a half of its rows, its
        claim in Python ints on the rows of many runs joined. In int64 a row costs less than
        taking it (measured: 2-3x the work at half the rows). On every row otherwise, its
        values kept with the batch for the checks reading it next (a claim is often a later
        step's hypothesis). The same integers either way on those rows."""
        kind = self.judgement.claim.kind
        n = len(batch)
        narrow = (2 * held <= n and self.claim not in batch._values
                  and self.claim._square is None and not self.claim.in_int64(batch))
        if narrow:
            rows = np.flatnonzero(assumed)
            at = _narrowed(batch, rows, (self.claim, *(self.scale or ())))
            values, den = self.claim.evaluate(at)
            failing = ~np.asarray(holds(kind, values), dtype=bool)
            gaps, dens, where = values, den, None
        else:
            rows, at = None, batch
            values, den = self.claim.evaluate(batch)
            failing = assumed & ~_holding(self.claim, kind, batch)
            gaps = values if held == n else values[assumed]
            dens = den[assumed] if isinstance(den, np.ndarray) and held < n else den
            where = None if held == n else assumed
        violations = int(np.count_nonzero(failing))
        first = None
        if violations:
            first = int(failing.argmax())
            if rows is not None:
                first = int(rows[first])
        if kind == "==":
            gaps = -abs(gaps)
        if self.scale is not None:
            min_slack = self._written_slack(gaps, dens, at, where)
        elif isinstance(dens, np.ndarray):
            min_slack = _least(gaps, dens)
        else:
            min_slack = Fraction(int(np.minimum.reduce(gaps)), dens)
        return violations, first, min_slack

    def _false(self, batch: InstanceBatch, assumed: np.ndarray,
               dropped: Sequence[np.ndarray]) -> tuple[int, ...]:
        """For each hypothesis, the vacuous instances of `batch` where it is false: rows
        neither `assumed` nor in a `dropped` mask (no instances), read off the masks
        `_assumed` made (`_holding` keeps each per batch)."""
        vacuous = ~assumed
        for mask in dropped:
            vacuous &= ~mask
        return tuple(int(np.count_nonzero(vacuous & ~_holding(poly, kind, batch)))
                     for poly, kind in self.hypotheses)

    def _written_slack(self, gaps: IntArray, den: Den, batch: InstanceBatch,
                       assumed: np.ndarray | None) -> Fraction | None:
        """The least slack of the claim as written on the rows `assumed` (None: every row),
        where `gaps / den` are the cleared claim's values: each divided by the clearing
        factor `a / b` at its row (`scale`), exactly, in Python integers (`a * b` may pass
        int64). A row where the factor is 0 is one where the statement is undefined (none
        among rows whose hypotheses hold, which include its denominators' conditions); it is
        left out, and None said when no row is left."""
        assert self.scale is not None
        parts = []
        for poly in self.scale:
            values, under = poly.evaluate(batch)
            if assumed is not None:
                values = values[assumed]
                under = under[assumed] if isinstance(under, np.ndarray) else under
            parts.append((np.asarray(values, dtype=object), np.asarray(under, dtype=object)))
        (a, a_den), (b, b_den) = parts  # the factor is (a / a_den) / (b / b_den)
        nums = np.asarray(gaps, dtype=object) * a_den * b
        dens = np.asarray(den, dtype=object) * a * b_den
        defined = dens != 0
        if not defined.all():
            nums, dens = nums[defined], dens[defined]
        if len(nums) == 0:
            return None
        negative = dens < 0
        nums, dens = np.where(negative, -nums, nums), np.where(negative, -dens, dens)
        if self.judgement.claim.kind == "==":
            nums = -abs(nums)
        return _least_by_denominator(nums, dens) if len(dens) > 1 else Fraction(
            int(nums[0]), int(dens[0]))

    def is_counterexample(self, instance: Instance) -> bool:
        """Whether one instance satisfies every hypothesis and violates the claim."""
        batch = InstanceBatch.from_instances([instance], Origin("check"))
        return self.check(batch).violations == 1


def _definition(function: str, args: Sequence[tuple[CompiledPolynomial, CompiledPolynomial]],
                batch: InstanceBatch) -> Column:
    """The column of `function(*args)` (`verify.runs.naming.EXACT`: `max` or `min` of two
    rational functions, each a numerator and a denominator polynomial) on every row, in
    Python integers: the two arguments compared by cross-multiplying over positive
    denominators, so no float decides which is the larger. An argument whose denominator
    is 0 at a row is read as 0 there: the definition says nothing there, and the judgement's
    condition that the denominator is nonzero (`on_runs`: divisions cleared) leaves the row
    vacuous; a negative one is a row like any other."""
    n = len(batch)
    (a, da), (b, db) = (_quotient(num, den, batch, n) for num, den in args)
    left, right = a * db, b * da
    first = np.asarray(left >= right if function == "max" else left <= right, dtype=bool)
    return Column(fitting(np.where(first, left, right)), fitting(da * db))


def _quotient_parts(arg: sympy.Expr) -> tuple[CompiledPolynomial, CompiledPolynomial]:
    """A definition's argument, a rational function, as its numerator and denominator
    polynomials (each row divides them exactly: `_quotient`)."""
    num, den = quotient_split(arg)
    return CompiledPolynomial.compile(num), CompiledPolynomial.compile(den)


def _quotient(num: CompiledPolynomial, den: CompiledPolynomial, batch: InstanceBatch, n: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """`num / den` on every row as Python-integer numerators over positive denominators
    (0 over 1 where `den` is 0)."""
    p, p_den = num.evaluate(batch)
    q, q_den = den.evaluate(batch)
    top = as_object(p) * as_object(den_column(q_den, n))
    bottom = as_object(den_column(p_den, n)) * as_object(q)
    negative = np.asarray(bottom < 0, dtype=bool)
    zero = np.asarray(bottom == 0, dtype=bool)
    top = np.where(zero, 0, np.where(negative, -top, top))
    bottom = np.where(zero, 1, np.where(negative, -bottom, bottom))
    return as_object(top), as_object(bottom)


def _narrowed(batch: InstanceBatch, rows: np.ndarray, polys: Iterable[CompiledPolynomial]
              ) -> InstanceBatch:
    """The rows `rows` (ascending indices) of `batch` with the columns `polys` read, each
    taken from `batch`'s: its scalars and defined columns, and its Gram columns as `batch`
    made them (`InstanceBatch.column`: computed there once, on every row, for the
    hypotheses that read them too). Nothing else: its values and masks are its own, and it
    lives as long as its caller's reading (`CompiledJudgement._claim_at`)."""
    scalars: dict[str, Column] = {}
    defined: dict[str, Column] = {}
    grams: dict[tuple[str, str], Column] = {}
    for poly in polys:
        for symbol in poly.symbols:
            pair = gram_pair(symbol)
            if pair is not None:
                if pair not in grams:
                    grams[pair] = batch.column(symbol).take(rows)
            elif symbol.name in batch.scalars:
                if symbol.name not in scalars:
                    scalars[symbol.name] = batch.scalars[symbol.name].take(rows)
            elif symbol.name not in defined:
                defined[symbol.name] = batch.column(symbol).take(rows)
    at = InstanceBatch(scalars, {}, batch.origins, batch.origin_index[rows],
                       batch.iteration[rows], defined=defined)
    at._grams.update(grams)
    return at


def _holding(poly: CompiledPolynomial, kind: str, batch: InstanceBatch) -> np.ndarray:
    """Rows of `batch` where `poly (kind) 0` holds, computed once per batch (read-only)."""
    key = (poly, kind)
    mask = batch._masks.get(key)
    if mask is None:
        values, _ = poly.evaluate(batch)
        # The kernel's `holds`, applied by numpy to every row at once (the denominator is
        # positive; object arrays compare to objects, hence the cast).
        mask = batch._masks[key] = np.asarray(holds(kind, values), dtype=bool)
    return mask


def check_in_slices(judgements: Sequence[CompiledJudgement], batch: InstanceBatch,
                    rows: int, unmet: Unmet | None = None
                    ) -> list[tuple[NumericVerdict, int | None]]:
    """`check_rows` of each judgement on `batch`, the batch checked `rows` rows at a time
    (`InstanceBatch.between`), each slice's verdicts merged in order: the same counts and
    least slack, the first violation's counterexample and row. What a check computes on a
    slice (its polynomials' values, masks, Gram and defined columns) is dropped with the
    slice, where on the whole batch all of it was held at once: averaged-voted's checks of
    the first 335 544 state rows of its run on a 20 000 x 50 file took a process to 885 MB
    (bigdata31). A judgement with carried invariants reads them at every earlier state of
    a row's run (`_so_far`), and so does one with starts (a run whose row at a counter's
    0 breaks the base is outside from there on): each read off every slice first
    (`carried_held`, `started`), the rows it leaves are given to each slice (the starts
    once were not: a run's rows after its first slice were counted as the induction's).
    A judgement reading sums or family members is no judgement for this: their work
    budgets count along the whole batch (`step_work`), so the caller checks it on the
    whole batch."""
    assert not any(j.atoms for j in judgements), "sums are checked on the whole batch"
    n = len(batch)
    edges = [*range(0, n, max(rows, 1)), n]
    whole: dict[tuple[object, ...], np.ndarray] = {}  # a slice's mask key -> the batch's
    for judgement in judgements:
        if judgement.carried and ("so far", judgement.carried) not in whole:
            held = np.concatenate([judgement.carried_held(batch.between(a, b))
                                   for a, b in itertools.pairwise(edges)])
            whole["so far", judgement.carried] = _so_far(held, batch)
        if judgement.starts and ("starts", judgement.starts) not in whole:
            held = np.concatenate([judgement.started(batch.between(a, b))
                                   for a, b in itertools.pairwise(edges)])
            whole["starts", judgement.starts] = ~_so_far(held, batch)
        if judgement.fixed and ("fixed", judgement.fixed) not in whole:
            # against each run's first row of the whole batch, not of a slice, read a slice
            # at a time (review 33 F4: the whole batch's gaps at once)
            moved, names = judgement.moved(batch, edges)
            whole["fixed", judgement.fixed] = ~_so_far(~moved, batch)
            whole["fixed names", judgement.fixed] = np.array(names, dtype=object)
    out = [(NumericVerdict.empty(), None) for _ in judgements]
    for a, b in itertools.pairwise(edges):
        piece = batch.between(a, b)
        piece._masks.update({key: mask if key[0] == "fixed names" else mask[a:b]
                             for key, mask in whole.items()})
        for k, judgement in enumerate(judgements):
            verdict, row = judgement.check_rows(piece, unmet)
            total, first = out[k]
            out[k] = (total.merge(verdict), first if first is not None or row is None
                      else a + row)
    return out


#: The suffix of a quantity's copy that holds its value at the first row of the row's run
#: (`_first_columns`), read by the gaps of an induction's constants (`CompiledJudgement.fixed`).
FIRST = "__first"


def first_of(symbol: sympy.Symbol) -> sympy.Symbol:
    """The symbol a `FIRST` copy copies (a Gram symbol of two copies, the pair's), or
    `symbol` itself."""
    pair = gram_pair(symbol)
    if pair is not None:
        return gram(*(n.removesuffix(FIRST) for n in pair))
    return sympy.Symbol(symbol.name.removesuffix(FIRST))


def _first_columns(batch: InstanceBatch, names: set[sympy.Symbol],
                   whole: InstanceBatch | None = None, start: int = 0) -> InstanceBatch:
    """`batch` with, for each quantity of `names` (scalars and Gram symbols, read as the
    vectors they pair), a copy suffixed `FIRST` whose every row holds its value at the first
    row of the row's run (its least iteration, then its first place), made once per batch.
    Taken columns: a vector's copy is its first rows repeated, never multiplied out.
    `batch` may be the rows of `whole` from `start` on (a slice, `CompiledJudgement.moved`):
    then the first rows are those of `whole`'s runs, taken from `whole`'s columns."""
    whole = batch if whole is None else whole
    key = ("first rows",)
    found = whole._masks.get(key)
    if found is None:
        order = np.lexsort((np.arange(len(whole)), whole.iteration, whole.origin_index))
        runs = whole.origin_index[order]
        begins = np.ones(len(order), dtype=bool)
        begins[1:] = runs[1:] != runs[:-1]
        first = np.empty(len(whole.origins), dtype=np.intp)
        first[runs[begins]] = order[begins]
        found = whole._masks[key] = first[whole.origin_index]
    rows = found[start:start + len(batch)]
    vectors = {n for s in names for n in (gram_pair(s) or ()) if n in whole.vectors}
    scalars = {s.name for s in names if gram_pair(s) is None}
    return InstanceBatch({**batch.scalars, **{n + FIRST: whole.column(sympy.Symbol(n)).take(
                                                  rows) for n in scalars}},
                         {**batch.vectors, **{n + FIRST: whole.vectors[n].take(rows)
                                              for n in vectors}},
                         batch.origins, batch.origin_index, batch.iteration,
                         defined=batch.defined, families=batch.families)


def _so_far(held: np.ndarray, batch: InstanceBatch) -> np.ndarray:
    """Rows whose run holds `held` at every row of it up to the row's own iteration (rows
    of one run share `origin_index`; a run's rows at one iteration, an example row per
    example, share its state). Red team 30: a carrier was violated at t = 2 of runs whose
    carried invariant failed at t = 1, rows of no run its statement speaks of."""
    if held.all():
        return held.copy()
    order = np.lexsort((batch.iteration, batch.origin_index))
    runs, steps = batch.origin_index[order], batch.iteration[order]
    failed = (~held[order]).astype(np.int64)
    seen = np.cumsum(failed)  # failures among the rows up to this one, all runs before too
    start = np.ones(len(order), dtype=bool)
    start[1:] = runs[1:] != runs[:-1]
    before = np.maximum.accumulate(np.where(start, seen - failed, 0))  # before this run
    # the failures of this run up to this row's iteration, every row at that iteration
    # included (the last row of each block of equal iteration carries the block's count)
    block_end = np.ones(len(order), dtype=bool)
    block_end[:-1] = (runs[1:] != runs[:-1]) | (steps[1:] != steps[:-1])
    ends = np.flatnonzero(block_end)
    upto = (seen - before)[ends][np.searchsorted(ends, np.arange(len(order)))]
    out = np.empty(len(order), dtype=bool)
    out[order] = upto == 0
    return out


def _natural(poly: CompiledPolynomial, batch: InstanceBatch) -> np.ndarray:
    """Rows of `batch` where `poly` is a natural number: its numerator is at least 0 and a
    multiple of its (positive) denominator, in integers (no float: `0.1 + 0.2` is no
    natural, and 2**53 + 1 is one)."""
    key = (poly, "in Nat")
    mask = batch._masks.get(key)
    if mask is None:
        values, den = poly.evaluate(batch)
        whole = values % den == 0 if isinstance(den, np.ndarray) or den != 1 else True
        mask = batch._masks[key] = np.asarray((values >= 0) & whole, dtype=bool)
    return mask


def _least(nums: IntArray, dens: IntArray) -> Fraction:
    """The least of the fractions `nums[i] / dens[i]` (positive denominators), exactly.

    Rows of one run share their denominator and come together, so the rows fall into a few
    runs of equal denominators (`SEGMENTS`; about six per call in the default audit): the
    least numerator of each, by one `reduceat`, then those few compared by cross-multiplying
    (positive denominators), one Fraction made of the least. Sorting every denominator
    (`_least_by_denominator`) was three times the work, and remains for rows of many."""
    edges = np.flatnonzero(dens[1:] != dens[:-1])
    if len(edges) >= SEGMENTS:
        return _least_by_denominator(nums, dens)
    starts = np.concatenate(([0], edges + 1))
    lows = np.minimum.reduceat(nums, starts).tolist()
    tops = dens[starts].tolist()
    low, den = lows[0], tops[0]
    for other, under in zip(lows, tops, strict=True):
        if other * den < low * under:
            low, den = other, under
    return Fraction(int(low), int(den))


#: `_least` compares the least numerators of at most this many runs of equal denominators.
SEGMENTS = 64


def _least_by_denominator(nums: IntArray, dens: IntArray) -> Fraction:
    """`_least` of rows in many runs of denominators: the least numerator over each distinct
    denominator, then those compared by cross-multiplying (positive denominators), one
    Fraction made of the least: a Fraction per distinct denominator (a gcd each) was most
    of this on the rows of hundreds of small runs (`benchmarks/campaign.py --medium`)."""
    distinct, firsts, which = np.unique(dens, return_index=True, return_inverse=True)
    lows = nums[firsts]  # a copy (fancy indexing), lowered to each group's least below
    np.minimum.at(lows, which, nums)
    pairs = zip(lows.tolist(), distinct.tolist(), strict=True)
    low, den = next(pairs)
    for other, under in pairs:
        if other * den < low * under:
            low, den = other, under
    return Fraction(int(low), int(den))


@lru_cache(maxsize=1024)
def _compiled_judgement(cls: type[CompiledJudgement], judgement: Judgement,
                        defined: tuple[Defined, ...] = (), naturals: tuple[sympy.Expr, ...] = (),
                        scale: sympy.Expr | None = None, carried: tuple[Fact, ...] = (),
                        starts: tuple[tuple[Fact, Fact], ...] = (),
                        unmet: tuple[str, ...] = (), counted: tuple[sympy.Expr, ...] = (),
                        fixed: tuple[tuple[str, sympy.Expr], ...] = ()
                        ) -> CompiledJudgement:
    """`CompiledJudgement._compile`, memoised (a compiled judgement is immutable)."""
    return cls._compile(judgement, defined, naturals, scale, carried, starts, unmet, counted,
                        fixed)


def _trimmed(instance: Instance) -> Instance:
    """The instance with every vector as long as its last nonzero coordinate (at least 1).

    Rows of several runs are checked together with their vectors zero-padded to the widest
    run's dimension, so the padding of a counterexample would depend on which runs happened
    to share its batch (how a campaign was cut into shards and into batches). Every Gram
    value is the same without those coordinates, so a counterexample is reported without
    them; a vector shorter than the others (a column of another dimension, or of none) is
    padded to the same length, which is what a batch of wider runs would have made of it.
    """
    vectors = instance.vectors
    members = [v for m in instance.families.values() for v in m.values() if isinstance(v, tuple)]
    width = max((k + 1 for v in (*vectors.values(), *members) for k, c in enumerate(v) if c),
                default=1)
    if all(len(v) == width for v in (*vectors.values(), *members)):
        return instance

    def cut(v: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        return v[:width] + (Fraction(0),) * (width - len(v))
    return Instance(instance.scalars, {n: cut(v) for n, v in vectors.items()},
                    instance.provenance,
                    {n: {i: cut(v) if isinstance(v, tuple) else v for i, v in m.items()}
                     for n, m in instance.families.items()})


def check(judgement: Judgement | CompiledJudgement,
          batches: Iterable[InstanceBatch]) -> NumericVerdict:
    """Check a judgement on every batch and merge the verdicts."""
    compiled = (judgement if isinstance(judgement, CompiledJudgement)
                else CompiledJudgement.compile(judgement))
    verdict = NumericVerdict.empty()
    for batch in batches:
        verdict = verdict.merge(compiled.check(batch))
    return verdict


class Shrinker:
    """Find a minimal counterexample: smallest dimension, then smallest magnitudes.

    First an exhaustive search over integer instances in increasing size (dimension 1.., every
    entry in [-m, m]) — vectorised, so the first size holding a violation gives a minimal
    integer counterexample, chosen by smallest total magnitude, then fewest negative entries.
    When that finds nothing within its budget (a violation may need fractions or size), the
    given counterexample is shrunk greedily by the one shrinker of `verify.search.shrinking`:
    coordinates are dropped and entries simplified while it stays one.
    """

    def __init__(self, judgement: CompiledJudgement, *, budget: int = 200_000,
                 max_dim: int = 3, max_magnitude: int = 3) -> None:
        self.judgement = judgement
        self.budget = budget
        self.max_dim = max_dim
        self.max_magnitude = max_magnitude
        names = judgement.judgement.symbols()
        self.vector_names = sorted({n for s in names if (p := gram_pair(s)) for n in p})
        self.scalar_names = sorted(s.name for s in names if gram_pair(s) is None)

    def shrink(self, instance: Instance | None = None) -> Instance | None:
        """A minimal counterexample (or `instance` shrunk greedily, or None if neither)."""
        found = self.search()
        if found is not None:
            return found
        return self.greedy(instance) if instance is not None else None

    def sizes(self) -> Iterable[tuple[int, int]]:
        """(dimension, magnitude) levels in increasing order."""
        for dim in range(1, self.max_dim + 1):
            for magnitude in range(1, self.max_magnitude + 1):
                yield dim, magnitude

    def search(self) -> Instance | None:
        """Exhaustive search of small integer instances, smallest size first."""
        for dim, magnitude in self.sizes():
            width = len(self.scalar_names) + dim * len(self.vector_names)
            if (2 * magnitude + 1) ** width > self.budget:
                continue
            values = np.arange(-magnitude, magnitude + 1, dtype=np.int64)
            if width == 0:  # nothing to vary (a claim that normalised to a constant): one row
                grid = np.zeros((1, 0), dtype=np.int64)
            else:
                grid = np.stack(np.meshgrid(*([values] * width), indexing="ij"),
                                axis=-1).reshape(-1, width)
            order = np.lexsort(((grid < 0).sum(axis=1), np.abs(grid).sum(axis=1)))
            batch = self._batch(grid[order], dim)
            verdict = self.judgement.check(batch)
            if verdict.counterexample is not None:
                return verdict.counterexample
        return None

    def _batch(self, grid: np.ndarray, dim: int) -> InstanceBatch:
        n = grid.shape[0]
        k = len(self.scalar_names)
        scalars = {name: Column(grid[:, j].copy()) for j, name in enumerate(self.scalar_names)}
        vectors = {name: VectorColumn(grid[:, k + j * dim: k + (j + 1) * dim].copy())
                   for j, name in enumerate(self.vector_names)}
        return InstanceBatch(scalars, vectors, (Origin("shrink", None, f"grid d={dim}"),),
                             np.zeros(n, dtype=np.int64), np.arange(n, dtype=np.int64))

    def greedy(self, instance: Instance) -> Instance:
        """Drop coordinates and simplify entries while a violation remains: the shared greedy
        shrinker of `verify.search.shrinking`."""
        return _Violating(self.judgement).shrink(instance)


class _Violating(GreedyShrinker[Instance]):
    """Shrinks while the instance still violates the compiled judgement."""

    def __init__(self, judgement: CompiledJudgement) -> None:
        self.judgement = judgement

    def fails(self, point: Instance) -> bool:
        return self.judgement.is_counterexample(point)

    def rebuild(self, point: Instance, scalars: dict[str, Fraction],
                vectors: dict[str, tuple[Fraction, ...]]) -> Instance:
        return Instance(scalars, vectors, point.provenance)


def satisfying(facts: Sequence[Fact], batch: InstanceBatch) -> np.ndarray:
    """Rows of a batch satisfying every fact (used to keep generated instances in scope)."""
    judgement = Judgement(tuple(facts), Fact(sympy.Integer(0), ">="))
    return CompiledJudgement.compile(judgement).assumed(batch)


__all__ = ["CompiledJudgement", "CompiledPolynomial", "NumericVerdict", "Shrinker", "check",
           "satisfying"]
