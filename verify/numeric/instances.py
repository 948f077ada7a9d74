"""Exact evaluation of a judgement over many numeric instances (docs/design.md §3).

An *instance* binds every scalar symbol of a judgement to an exact rational and every vector
name to a coordinate vector; a Gram symbol `<a,b>` is the exact dot product of its vectors.
Instances come in column batches: one numerator array per quantity with one common
denominator per column, so a polynomial over the batch is a sum of integer monomials over one
common denominator. Each polynomial is compiled once (integer coefficients, exponent tuples)
and evaluated vectorised: in numpy int64 when a magnitude bound computed with Python integers
proves that no intermediate value can overflow, otherwise in numpy object arrays of Python
ints. No float is ever formed, so every verdict, count and slack is exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from math import lcm, prod
from typing import Literal

import numpy as np
import sympy

from proofs.language.terms import gram_pair
from verify.kernel import Fact, Judgement
from verify.kernel.algebra import holds
from verify.search.shrinking import GreedyShrinker

#: int64 is used only when every intermediate magnitude is provably below this.
INT64_LIMIT = 2**63 - 1
Status = Literal["held", "violated", "not-run"]
IntArray = np.ndarray


def _int_array(values: Sequence[int]) -> IntArray:
    """A 1-D array of exact integers: int64 when each fits, object (Python ints) otherwise."""
    if all(-INT64_LIMIT <= v <= INT64_LIMIT for v in values):
        return np.array(values, dtype=np.int64)
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def _int_matrix(ints: list[list[int]], n: int, width: int) -> IntArray:
    """An n x width matrix of exact integers: int64 when each fits, object otherwise."""
    big = any(abs(v) > INT64_LIMIT for r in ints for v in r)
    array = np.empty((n, width), dtype=object if big else np.int64)
    if n and width:
        array[...] = ints
    return array


def _max_abs(array: np.ndarray) -> int:
    """The largest magnitude in an integer array, as a Python int (0 when empty)."""
    if array.size == 0:
        return 0
    # the extremes, not `abs` of every entry: on object arrays (Python ints) that would
    # allocate a second array of big integers just to compare them (the ufuncs' own reduce,
    # not `array.max()`: the audit calls this on hundreds of thousands of small arrays)
    return max(abs(int(np.maximum.reduce(array, axis=None))),
               abs(int(np.minimum.reduce(array, axis=None))))


def _as_object(array: np.ndarray) -> np.ndarray:
    """The same integers as Python ints in an object array (never overflows)."""
    # astype(object) makes Python ints of int64 entries, at any shape (an empty matrix too:
    # assigning `tolist()` of a 0 x d array to it failed to broadcast)
    return array if array.dtype == object else array.astype(object)


@dataclass(frozen=True)
class Column:
    """Exact rationals `num[i] / den` with one positive common denominator."""

    num: IntArray
    den: int = 1

    @classmethod
    def of(cls, values: Iterable[int | Fraction]) -> Column:
        """The column of `values` (ints or Fractions), over their least common denominator."""
        items = list(values)
        den = lcm(*{v.denominator for v in items})
        return cls(_int_array([v.numerator * (den // v.denominator) for v in items]), den)

    @classmethod
    def constant(cls, value: int | Fraction, n: int) -> Column:
        """The same value on `n` rows (its magnitude known without reading them)."""
        single = cls.of([value])
        column = cls(np.repeat(single.num, n), single.den)
        if n:
            column.__dict__["magnitude"] = single.magnitude  # fills the cached property
        return column

    def __len__(self) -> int:
        return len(self.num)

    def value(self, i: int) -> Fraction:
        """Row `i` as a Fraction."""
        return Fraction(int(self.num[i]), self.den)

    def take(self, rows: np.ndarray) -> Column:
        """The rows selected by an index array."""
        return Column(self.num[rows], self.den)

    @cached_property
    def magnitude(self) -> int:
        """The largest |numerator| (computed once: every polynomial over a batch reads it)."""
        return _max_abs(self.num)

    @cached_property
    def _powers(self) -> dict[tuple[bool, int], IntArray]:
        return {}

    def power(self, exponent: int, in_int64: bool) -> IntArray:
        """`num ** exponent`, in int64 (the caller has proved it fits) or as Python ints;
        each power computed once per column, since the hypotheses and claims of many
        judgements over one batch share their columns' powers."""
        key = (in_int64, exponent)
        cache = self._powers
        if key not in cache:
            if exponent == 0:
                cache[key] = (np.ones(len(self.num), dtype=np.int64) if in_int64
                              else _as_object(np.ones(len(self.num), dtype=np.int64)))
            elif exponent == 1:
                cache[key] = self.num if in_int64 else _as_object(self.num)
            else:
                cache[key] = self.power(exponent - 1, in_int64) * self.power(1, in_int64)
        return cache[key]


@dataclass(frozen=True)
class VectorColumn:
    """Rows of exact coordinate vectors `num[i, :] / den`, zero-padded to one dimension.

    `source`, when set, says the rows were taken from a smaller column: row i is
    `source[0]`'s row `source[1][i]` (`take`, `constant`). Gram columns use it to compute
    each distinct dot product once (`gram_column`): on a run's example rows, `<x, x>` has one
    value per example and `<w, w>` one per state, not one per (state, example) row.
    """

    num: IntArray
    den: int = 1
    source: tuple[VectorColumn, np.ndarray] | None = field(default=None, compare=False,
                                                           repr=False)

    @classmethod
    def of(cls, rows: Sequence[Sequence[int | Fraction]], dim: int | None = None) -> VectorColumn:
        """Rows of rationals (ints or Fractions), zero-padded to `dim` (default: longest)."""
        width = dim if dim is not None else max((len(r) for r in rows), default=0)
        den = lcm(*{v.denominator for r in rows for v in r})
        ints = [[v.numerator * (den // v.denominator) for v in r] + [0] * (width - len(r))
                for r in rows]
        return cls(_int_matrix(ints, len(rows), width), den)

    @classmethod
    def constant(cls, row: Sequence[int | Fraction], n: int) -> VectorColumn:
        """The same vector on `n` rows (built once, then repeated)."""
        single = cls.of([row])
        return cls(np.repeat(single.num, n, axis=0), single.den,
                   (single, np.zeros(n, dtype=np.intp)))

    def __len__(self) -> int:
        return self.num.shape[0]

    @property
    def dim(self) -> int:
        """The common (padded) dimension."""
        return self.num.shape[1]

    def padded(self, dim: int) -> VectorColumn:
        """The same vectors with zero coordinates appended up to `dim`."""
        if dim == self.dim:
            return self
        extra = np.zeros((len(self), dim - self.dim), dtype=self.num.dtype)
        source = None if self.source is None else (self.source[0].padded(dim), self.source[1])
        return VectorColumn(np.concatenate([self.num, extra], axis=1), self.den, source)

    def row(self, i: int) -> tuple[Fraction, ...]:
        """Row `i` as exact coordinates."""
        return tuple(Fraction(int(v), self.den) for v in self.num[i])

    @cached_property
    def magnitude(self) -> int:
        """The largest |numerator| (computed once per column): for rows taken from a smaller
        column, the largest over the source rows they repeat (every row is some source row,
        so this is the same number), which reads each source row once instead of every copy
        (a run's example rows repeat each iterate once per example)."""
        if self.source is not None:
            base, index = self.source
            if len(base) < len(index):
                present = np.zeros(len(base), dtype=bool)
                present[index] = True
                return base.magnitude if present.all() else _max_abs(base.num[present])
        return _max_abs(self.num)

    def take(self, rows: np.ndarray) -> VectorColumn:
        """The rows selected by an index array (remembering where they were taken from)."""
        rows = np.asarray(rows)
        if rows.dtype == bool:
            rows = np.flatnonzero(rows)
        base, index = self.source if self.source is not None else (self, rows)
        return VectorColumn(self.num[rows], self.den,
                            (base, index[rows] if self.source is not None else index))


def gram_column(a: VectorColumn, b: VectorColumn) -> Column:
    """The row-wise exact dot products `<a_i, b_i>`; int64 only when `d*|a|*|b|` fits.

    When both columns were taken from smaller ones (`VectorColumn.source`), each distinct
    product is computed once on those and the rows picked from them: the same integers (and
    the same dtype: int64 exactly when every value fits) with far fewer big-integer products.
    """
    if a.source is not None and b.source is not None:
        (base_a, index_a), (base_b, index_b) = a.source, b.source
        if len(index_a) == len(index_b):
            if len(base_a) == len(base_b) and (index_a is index_b
                                               or np.array_equal(index_a, index_b)):
                if len(base_a) < len(index_a):
                    return _fitted(_row_products(base_a, base_b).take(index_a))
            elif len(base_a) * len(base_b) <= len(index_a):
                table = _products(base_a, base_b)
                return _fitted(Column(table.num[index_a, index_b], table.den))
    return _row_products(a, b)


def _row_products(a: VectorColumn, b: VectorColumn) -> Column:
    """`<a_i, b_i>` row by row."""
    dim = max(a.dim, b.dim)
    bound = dim * a.magnitude * b.magnitude
    a, b = a.padded(dim), b.padded(dim)
    if a.num.dtype != object and b.num.dtype != object and bound <= INT64_LIMIT:
        num = np.einsum("ij,ij->i", a.num, b.num)
    else:
        num = _fitting((_as_object(a.num) * _as_object(b.num)).sum(axis=1)) if dim else (
            _int_array([0] * len(a)))
    return Column(num, a.den * b.den)


def _products(a: VectorColumn, b: VectorColumn) -> Column:
    """Every `<a_i, b_j>` as a len(a) x len(b) table of numerators (over `a.den * b.den`)."""
    dim = max(a.dim, b.dim)
    bound = dim * a.magnitude * b.magnitude
    a, b = a.padded(dim), b.padded(dim)
    if not dim or (a.num.dtype != object and b.num.dtype != object and bound <= INT64_LIMIT):
        return Column(a.num.astype(np.int64) @ b.num.T.astype(np.int64), a.den * b.den)
    return Column(_as_object(a.num) @ _as_object(b.num).T, a.den * b.den)


def _fitted(column: Column) -> Column:
    """The column in int64 when every value fits (as row-wise products give it)."""
    return Column(_fitting(column.num), column.den)


def _fitting(num: IntArray) -> IntArray:
    """Exact integers in int64 when every one fits, else as they are (Python ints): the
    array `_int_array` makes of the same values, without a Python loop over them."""
    if num.dtype == object and _max_abs(num) <= INT64_LIMIT:
        return num.astype(np.int64)
    return num


def reduced(num: np.ndarray, den: int) -> VectorColumn:
    """The rows `num / den` over their least common denominator, in int64 when every entry
    fits: exactly the column `VectorColumn.of` makes of the same rationals (same numerators,
    denominator and dtype), without a Fraction per entry."""
    if num.size == 0:
        g = den
    elif num.dtype == object:
        g = math.gcd(den, *num.ravel().tolist())
    else:
        g = math.gcd(den, int(np.gcd.reduce(num.ravel())))
    if g > 1:
        # g is the denominator itself when every numerator is 0: beyond int64 it cannot
        # divide an int64 array (numpy raises), and the quotients are all 0 anyway
        num = (num // g if num.dtype == object or g <= INT64_LIMIT
               else np.zeros_like(num))
        den //= g
    if num.dtype == object and _max_abs(num) <= INT64_LIMIT:
        num = num.astype(np.int64)
    elif num.dtype != object and _max_abs(num) > INT64_LIMIT:
        num = _as_object(num)
    return VectorColumn(num, den)


@dataclass(frozen=True)
class Origin:
    """Where a run came from: enough to reproduce it (source, seed, dataset, order)."""

    source: str
    seed: int | None = None
    dataset: str = ""
    order: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Provenance:
    """An instance's origin and the iteration (update or step number) inside that run."""

    origin: Origin
    iteration: int


@dataclass(frozen=True)
class Instance:
    """One exact binding of scalars and coordinate vectors, with its provenance."""

    scalars: dict[str, Fraction]
    vectors: dict[str, tuple[Fraction, ...]]
    provenance: Provenance | None = None

    @property
    def size(self) -> tuple[int, int, int]:
        """(dimension, largest |numerator|, largest denominator): smaller is simpler."""
        values = [*self.scalars.values(), *(v for vec in self.vectors.values() for v in vec)]
        dim = max((len(v) for v in self.vectors.values()), default=0)
        return (dim, max((abs(v.numerator) for v in values), default=0),
                max((v.denominator for v in values), default=1))


@dataclass
class InstanceBatch:
    """Columns of exact quantities (scalars and vectors), one row per instance.

    Provenance is stored compactly: an origin per run plus, per row, the run's index and the
    iteration inside that run.
    """

    scalars: dict[str, Column]
    vectors: dict[str, VectorColumn]
    origins: tuple[Origin, ...]
    origin_index: IntArray
    iteration: IntArray
    _grams: dict[tuple[str, str], Column] = field(default_factory=dict, repr=False)
    # Values and hypothesis masks per compiled polynomial, computed once per batch: the
    # checks of an audit share most of their hypotheses and many claims (500 polynomial
    # evaluations per batch, 153 of them distinct), and a batch's columns never change; masks
    # of whole hypothesis sets too (`CompiledJudgement._assumed`).
    _values: dict[object, tuple[IntArray, int]] = field(default_factory=dict, repr=False)
    _masks: dict[object, np.ndarray] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.iteration)

    def magnitude(self) -> int:
        """The largest numerator or denominator in any column: how costly rows are to check."""
        columns = [*self.scalars.values(), *self.vectors.values()]
        return max((max(c.magnitude, c.den) for c in columns), default=0)

    def column(self, symbol: sympy.Symbol) -> Column:
        """The column bound to a scalar or Gram symbol (Gram columns computed once)."""
        pair = gram_pair(symbol)
        if pair is None:
            if symbol.name not in self.scalars:
                raise KeyError(f"no scalar {symbol.name!r} bound in this batch")
            return self.scalars[symbol.name]
        if pair not in self._grams:
            for name in pair:
                if name not in self.vectors:
                    raise KeyError(f"no vector {name!r} bound in this batch")
            self._grams[pair] = gram_column(self.vectors[pair[0]], self.vectors[pair[1]])
        return self._grams[pair]

    def provenance(self, i: int) -> Provenance:
        """Provenance of row `i`."""
        return Provenance(self.origins[int(self.origin_index[i])], int(self.iteration[i]))

    def instance(self, i: int, names: Iterable[str] | None = None) -> Instance:
        """Row `i` as an Instance (restricted to `names` when given)."""
        keep = set(names) if names is not None else None
        return Instance(
            {n: c.value(i) for n, c in self.scalars.items() if keep is None or n in keep},
            {n: v.row(i) for n, v in self.vectors.items() if keep is None or n in keep},
            self.provenance(i),
        )

    @classmethod
    def concat(cls, batches: Sequence[InstanceBatch]) -> InstanceBatch:
        """Rows of all batches (same quantity names); vectors padded to a common dimension."""
        first = batches[0]
        origins: list[Origin] = []
        index_parts = []
        for batch in batches:
            index_parts.append(batch.origin_index + len(origins))
            origins.extend(batch.origins)
        scalars = {name: _concat_columns([b.scalars[name] for b in batches])
                   for name in first.scalars}
        vectors = {name: _concat_vectors([b.vectors[name] for b in batches])
                   for name in first.vectors}
        return cls(scalars, vectors, tuple(origins), np.concatenate(index_parts),
                   np.concatenate([b.iteration for b in batches]))

    @classmethod
    def from_instances(cls, instances: Sequence[Instance], origin: Origin) -> InstanceBatch:
        """A batch of explicit instances sharing one origin (iteration = position)."""
        scalar_names = instances[0].scalars.keys()
        vector_names = instances[0].vectors.keys()
        return cls(
            {n: Column.of([inst.scalars[n] for inst in instances]) for n in scalar_names},
            {n: VectorColumn.of([inst.vectors[n] for inst in instances]) for n in vector_names},
            (origin,),
            np.zeros(len(instances), dtype=np.int64),
            np.arange(len(instances), dtype=np.int64),
        )


def _rescaled(num: IntArray, factor: int) -> IntArray:
    """`num * factor` exactly, staying in int64 only when the product provably fits."""
    if factor == 1:
        return num
    if num.dtype != object and max(_max_abs(num), 1) * factor <= INT64_LIMIT:
        return num * np.int64(factor)
    return _as_object(num) * factor


def _unify(arrays: Sequence[IntArray]) -> list[IntArray]:
    """Arrays of one dtype: object if any is object."""
    if any(a.dtype == object for a in arrays):
        return [_as_object(a) for a in arrays]
    return list(arrays)


def _concat_columns(columns: Sequence[Column]) -> Column:
    den = lcm(*(c.den for c in columns))
    parts = _unify([_rescaled(c.num, den // c.den) for c in columns])
    return Column(np.concatenate(parts), den)


def _concat_vectors(columns: Sequence[VectorColumn]) -> VectorColumn:
    den = lcm(*(c.den for c in columns))
    dim = max(c.dim for c in columns)
    parts = _unify([_rescaled(c.padded(dim).num, den // c.den) for c in columns])
    return VectorColumn(np.concatenate(parts, axis=0), den)


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

    def evaluate(self, batch: InstanceBatch) -> tuple[IntArray, int]:
        """Numerators and one positive denominator: the exact values on every row (computed
        once per batch and polynomial; the arrays are shared, so callers never write them)."""
        cached = batch._values.get(self)
        if cached is None:
            cached = batch._values[self] = self._evaluate(batch)
        return cached

    def _evaluate(self, batch: InstanceBatch) -> tuple[IntArray, int]:
        columns = [batch.column(s) for s in self.symbols]
        n = len(batch)
        degrees, factors = self._degrees, self._factors
        dens = [c.den for c in columns]
        scale = prod(d ** k for d, k in zip(dens, degrees, strict=True))
        # term m's coefficient times prod den_j ** (degree_j - m_j): every term over `scale`
        coeffs = ([c for _, c in self.terms] if all(d == 1 for d in dens) else
                  [c * prod(dens[j] ** (degrees[j] - m[j]) for j in range(len(dens)))
                   for m, c in self.terms])
        magnitudes = [max(c.magnitude, 1) for c in columns]
        bound = sum(abs(c) * prod(magnitudes[j] ** e for j, e in term)
                    for term, c in zip(factors, coeffs, strict=True))
        exact_int64 = bound <= INT64_LIMIT and all(c.num.dtype != object for c in columns)
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
            total = np.zeros(n, dtype=np.int64) if exact_int64 else _as_object(
                np.zeros(n, dtype=np.int64))
        if constant:
            total = total + (np.int64(constant) if exact_int64 else constant)
        elif total.dtype != (np.int64 if exact_int64 else object):
            total = total.astype(np.int64 if exact_int64 else object)
        return total, self.denominator * scale


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
            min(slacks) if slacks else None, self.counterexample or other.counterexample)


@dataclass(frozen=True)
class CompiledJudgement:
    """A judgement compiled once, checked on any number of batches."""

    judgement: Judgement
    hypotheses: tuple[tuple[CompiledPolynomial, str], ...]
    claim: CompiledPolynomial

    @classmethod
    def compile(cls, judgement: Judgement) -> CompiledJudgement:
        """Compile every hypothesis and the claim (once per judgement and process: every
        shard of a campaign compiles the same checks, `_compiled_judgement`)."""
        return _compiled_judgement(cls, judgement)

    @classmethod
    def _compile(cls, judgement: Judgement) -> CompiledJudgement:
        hyps = tuple((CompiledPolynomial.compile(h.expr), h.kind) for h in judgement.hypotheses)
        return cls(judgement, hyps, CompiledPolynomial.compile(judgement.claim.expr))

    @property
    def names(self) -> frozenset[str]:
        """The scalar and vector names an instance must bind."""
        out: set[str] = set()
        for symbol in self.judgement.symbols():
            pair = gram_pair(symbol)
            out |= set(pair) if pair else {symbol.name}
        return frozenset(out)

    def assumed(self, batch: InstanceBatch) -> np.ndarray:
        """Rows where every hypothesis holds (the non-vacuous instances)."""
        return self._assumed(batch).copy()

    def _assumed(self, batch: InstanceBatch) -> np.ndarray:
        """`assumed`, computed once per batch and set of hypotheses (read-only: the steps of
        the built-in proofs share their hypotheses, 117 sets among 174 checks)."""
        key = self.hypotheses
        mask = batch._masks.get(key)
        if mask is None:
            mask = np.ones(len(batch), dtype=bool)
            for poly, kind in self.hypotheses:
                mask &= _holding(poly, kind, batch)
            batch._masks[key] = mask
        return mask

    def check(self, batch: InstanceBatch) -> NumericVerdict:
        """Evaluate every row exactly and summarise."""
        n = len(batch)
        if n == 0:
            return NumericVerdict.empty()
        assumed = self._assumed(batch)
        kind = self.judgement.claim.kind
        values, den = self.claim.evaluate(batch)
        failed = assumed & ~_holding(self.claim, kind, batch)
        held = int(np.count_nonzero(assumed))
        violations = int(np.count_nonzero(failed))
        counterexample = (_trimmed(batch.instance(int(failed.argmax()), self.names))
                          if violations else None)
        min_slack = None
        if held:
            gaps = values if held == n else values[assumed]
            low = int(np.minimum.reduce(gaps) if kind != "==" else
                      -np.maximum.reduce(abs(gaps)))
            min_slack = Fraction(low, den)
        status: Status = "violated" if violations else "held" if held else "not-run"
        return NumericVerdict(status, n, n - held, violations, min_slack, counterexample)

    def is_counterexample(self, instance: Instance) -> bool:
        """Whether one instance satisfies every hypothesis and violates the claim."""
        batch = InstanceBatch.from_instances([instance], Origin("check"))
        return self.check(batch).violations == 1


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


@lru_cache(maxsize=1024)
def _compiled_judgement(cls: type[CompiledJudgement], judgement: Judgement) -> CompiledJudgement:
    """`CompiledJudgement._compile`, memoised (a compiled judgement is immutable)."""
    return cls._compile(judgement)


def _trimmed(instance: Instance) -> Instance:
    """The instance without the zero coordinates that every one of its vectors ends with.

    Rows of several runs are checked together with their vectors zero-padded to the widest
    run's dimension, so the padding of a counterexample would depend on which runs happened
    to share its batch (how a campaign was cut into shards). Every Gram value is the same
    without those coordinates, so a counterexample is reported without them.
    """
    vectors = instance.vectors
    width = max((k + 1 for v in vectors.values() for k, c in enumerate(v) if c), default=1)
    if all(len(v) <= width for v in vectors.values()):
        return instance
    return Instance(instance.scalars, {n: v[:width] for n, v in vectors.items()},
                    instance.provenance)


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


__all__ = [
    "Column", "CompiledJudgement", "CompiledPolynomial", "Instance", "InstanceBatch",
    "NumericVerdict", "Origin", "Provenance", "Shrinker", "VectorColumn", "check",
    "gram_column", "satisfying",
]
