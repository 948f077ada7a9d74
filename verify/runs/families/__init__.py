"""Sums and family members on a run's rows: the dataset's families (issue 31).

A run kind may offer its dataset as families (`RunKind.families`, `DATASET`: `X` the
examples, `Y` the labels, indexed 1..N); a proof binds its own families to them by name
(`[numeric] names`, `verify.runs.naming`). A judgement on runs then reads *atoms*: sums over
ranges and sets, family members, inner products reading a member (`is_atom`), which no row set
binds as a quantity. `family_columns` makes each atom's column exactly where the rows are
checked, for all the runs of a batch at once, each row reading its own run's data: numerators
over per-row denominators, int64 only where a magnitude bound proves it, Python integers
otherwise, the Gram matrix of each dataset made once (`FamilyData`). A counterexample carries
the members, so the kernel evaluates the sums there itself.

Kept apart from `verify.runs.quantity` (what a run offers) because it is one computation, the
exact evaluation of the kernel's atoms on columns, with its own arithmetic.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import sympy

from perceptron.dataset import Dataset
from verify.kernel.atoms import IDENT, Family, Sum, gram_pair, named, structure
from verify.runs.columns import Column, InstanceBatch, fitting, in_int64

#: The families every built-in run offers (`RunKind.families`): its dataset's examples `X`
#: (vectors, `X[j]` = x_j) and labels `Y` (`Y[j]` = y_j), j = 1..N, each run's own data (the
#: augmented examples where the run's algorithm has a bias), and 0 (the zero vector) at every
#: other index, as the kernel reads a family where a counterexample gives no member.
DATASET: Mapping[str, bool] = {"X": True, "Y": False}

#: At most this many indices a sum ranges over on the rows of one run (the kernel's own
#: limit at one point, `verify.kernel.atoms.MAX_RANGE`).
MAX_SPAN = 2000
#: Sums nested at most this deep (the kernel's `MAX_HEIGHT`): bound index `#h` is axis h.
_AXES = 1 + 6


class FamilyError(ValueError):
    """A sum or family member that cannot be evaluated on a run's rows (one line)."""


def is_atom(name: str) -> bool:
    """Whether a symbol of a judgement on runs is a sum, a family member, or an inner
    product reading a member (the kernel's atoms that read families or bound indices), whose
    column `family_columns` makes from the run's data, not a quantity a row set binds."""
    return "[" in name or name.startswith("sum(")


def atom_reads(name: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The scalar quantities, vector quantities and families an atom reads (inside its sums'
    bounds, filters and bodies, and its members' indices)."""
    read = _named(name)
    return tuple(frozenset(n for s, n in read if s == sort)  # type: ignore[return-value]
                 for sort in ("scalar", "vector", "family"))


def _vector_member(name: str) -> bool:
    """A member of a family of vectors, named alone: a part of an inner product, no column."""
    found = structure(sympy.Symbol(name))
    return isinstance(found, Family) and DATASET.get(found.family, False)


def _named(name: str) -> set[tuple[str, str]]:
    return named(sympy.Symbol(name))


@dataclass
class FamilyData:
    """One run's families as arrays (`X[j]` the example j = 1..count over one denominator,
    `Y[j]` its label) and as the kernel's members (`members`, for a counterexample)."""

    X: np.ndarray
    X_den: int
    Y: np.ndarray
    members: Mapping[str, Mapping[Fraction, Any]]

    @property
    def count(self) -> int:
        return int(self.X.shape[0])

    @cached_property
    def gram(self) -> np.ndarray:
        """`<X[i],X[j]>` numerators (over `X_den**2`), once per dataset."""
        return _total(_mul(self.X[:, None, :], self.X[None, :, :]), -1)[..., 0]

    @classmethod
    def of(cls, data: Dataset, offered: Mapping[str, bool]) -> FamilyData:
        """The families `offered` of a run on `data` (`X`, `Y`: `DATASET`), made once per
        dataset (the runs of a scenario share it, each row set of a run reads it)."""
        key = (id(data), tuple(offered))
        found = _FAMILY_DATA.get(key)
        if found is not None and found[0] is data:
            return found[1]
        if len(_FAMILY_DATA) >= 256:
            _FAMILY_DATA.clear()
        made = cls._of(data, offered)
        _FAMILY_DATA[key] = (data, made)
        return made

    @classmethod
    def _of(cls, data: Dataset, offered: Mapping[str, bool]) -> FamilyData:
        den = math.lcm(*{v.denominator for x in data.X for v in x})
        X = np.empty((len(data.X), len(data.X[0]) if data.X else 0), dtype=object)
        X[...] = [[int(v.numerator * (den // v.denominator)) for v in x] for x in data.X]
        members: dict[str, dict[Fraction, Any]] = {}
        if "X" in offered:
            members["X"] = {Fraction(j + 1): tuple(x) for j, x in enumerate(data.X)}
        if "Y" in offered:
            members["Y"] = {Fraction(j + 1): Fraction(y) for j, y in enumerate(data.y)}
        return cls(_shrunk(X), den, np.array([int(y) for y in data.y], dtype=np.int64),
                   members)


_FAMILY_DATA: dict[tuple[int, tuple[str, ...]], tuple[Dataset, FamilyData]] = {}

#: Rows x indices x indices ... evaluated at once at most (a chunk of a batch's rows: its
#: runs' sums are added together, each run's rows read its own dataset).
CELLS = 1 << 21
#: Index tuples one row's nested sums may range over at most (a double sum over the widest
#: range `MAX_SPAN` allows): past it a row is not evaluated (`FamilyError`, before any array
#: is made), since a six-deep sum over 30 examples took 5.4 GiB for one row (red team 13).
ROW_CELLS = MAX_SPAN**2


class _Wide(Exception):
    """A chunk of rows whose sums range over more than `CELLS` cells in all: made again in
    halves (`family_columns`), each row's values the same."""


def family_columns(batch: InstanceBatch, names: Collection[str]) -> dict[str, Column]:
    """The column of every atom among `names` (`is_atom`) on every row of `batch`, whose
    runs' families are `batch.families` (one `FamilyData` per origin): each value exact,
    the rows of many runs evaluated together (a few numpy calls per sum and chunk of rows,
    `CELLS`), each row's members its own run's."""
    atoms = [n for n in names if is_atom(n) and not _vector_member(n)]
    if not atoms or not len(batch):
        return {n: Column(np.zeros(0, dtype=np.int64)) for n in atoms}
    if not batch.families:
        raise FamilyError("these rows carry no dataset: their families cannot be read")
    height = max((_reading(a)[0][1].bound if _reading(a)[0][0] == "sum" else 0)
                 for a in atoms)
    counts = np.array([f.count for f in batch.families], dtype=np.int64)
    per_row = counts[batch.origin_index]
    parts: dict[str, list[Column]] = {n: [] for n in atoms}
    start, n = 0, len(batch)
    while start < n:  # chunks of rows whose cells (rows x count^height) stay below CELLS
        stop = _chunk_stop(per_row, start, height)
        chunks = batch.__dict__.setdefault("_family_rows", {})
        while True:  # a sum ranging past the rows' count: the chunk in halves (`_Wide`)
            rows = chunks.get((start, stop))
            if rows is None:  # kept on the batch: its judgements share masks and inner sums
                rows = chunks[(start, stop)] = _Rows(batch, slice(start, stop))
            try:
                made = [rows.column(name) for name in atoms]
                break
            except _Wide:
                del chunks[(start, stop)]
                stop = start + (stop - start) // 2
        rows.pruned()
        for name, column in zip(atoms, made, strict=True):
            parts[name].append(column)
        start = stop
    return {name: _joined(columns) for name, columns in parts.items()}


def _chunk_stop(per_row: np.ndarray, start: int, height: int) -> int:
    """Where the chunk of rows from `start` ends: at the first row `stop > start` at which
    `(stop + 1 - start) * widest ** height` passes `CELLS` (`widest` the largest count of
    rows `start..stop`, at least 1), else at the last row. Read by runs of rows over which
    that largest count stays the same, a few: in each the product grows with `stop`, so its
    first row past `CELLS` is `m * W > CELLS`, `m > CELLS // W`, in integers (a Python loop
    over every row was most of the work on batches of tiny runs)."""
    rest = np.maximum(per_row[start:], 1)
    running = np.maximum.accumulate(rest)
    edges = [0, *(np.flatnonzero(running[1:] != running[:-1]) + 1).tolist(), len(rest)]
    for first, end in itertools.pairwise(edges):
        rows = CELLS // int(running[first]) ** height + 1  # the fewest rows past CELLS
        at = max(first, 1, rows - 1)  # its row, past `start` and within this run
        if at < end:
            return start + at
    return start + len(rest)


def _joined(columns: Sequence[Column]) -> Column:
    if len(columns) == 1:
        return columns[0]
    num = np.concatenate([_exact(c.num) for c in columns])
    den = np.concatenate([_exact(np.asarray(c.den)).reshape(-1) for c in columns])
    return Column(fitting(num), fitting(den))


_Value = tuple[np.ndarray, np.ndarray]  # numerators, positive denominators (row axis only)
_LIMIT = 2**62  # an int64 result is used only when a bound proves it below this


def _mag(a: np.ndarray) -> int:
    """The largest magnitude in an integer array (0 when empty)."""
    if a.size == 0:
        return 0
    if a.dtype == object:
        fitted = in_int64(a)
        if fitted is None:
            return max(map(abs, a.ravel().tolist()))
        a = fitted
    # the extremes as Python ints, not `abs` of every entry: no array allocated, and no
    # int64 overflow at -2**63 (the ufuncs' reduce: a sum's arrays are read many times)
    return max(int(np.maximum.reduce(a, axis=None)), -int(np.minimum.reduce(a, axis=None)))


def _exact(a: np.ndarray) -> np.ndarray:
    """Python ints (object dtype) unless every entry is an int64 far from overflow."""
    return a if a.dtype == object else a.astype(object)


def _mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a * b` exactly: in int64 when the factors' magnitudes prove the product fits."""
    if a.dtype != object and b.dtype != object and _mag(a) * _mag(b) < _LIMIT:
        return a * b
    return np.asarray(_exact(a) * _exact(b), dtype=object)


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a + b` exactly (int64 when the magnitudes prove the sum fits)."""
    if a.dtype != object and b.dtype != object and _mag(a) + _mag(b) < _LIMIT:
        return a + b
    return np.asarray(_exact(a) + _exact(b), dtype=object)


def _shrunk(a: np.ndarray) -> np.ndarray:
    """An object array back in int64 when every entry is far from overflow."""
    if not isinstance(a, np.ndarray):  # a 0-d object product is a Python int
        a = np.array(a, dtype=object)
    if a.dtype == object and a.size and _mag(a) < _LIMIT:
        return a.astype(np.int64)
    return a


def _ints(value: int) -> np.ndarray:
    return np.array(value, dtype=np.int64 if abs(value) < _LIMIT else object)


def _total(a: np.ndarray, axis: int) -> np.ndarray:
    """The sum along `axis` (kept, of size 1), exactly."""
    if a.dtype != object and _mag(a) * max(a.shape[axis], 1) < _LIMIT:
        return np.sum(a, axis=axis, keepdims=True)
    return np.asarray(np.sum(_exact(a), axis=axis, keepdims=True), dtype=object)


@functools.lru_cache(maxsize=8192)
def _reading(name: str) -> tuple[Any, ...]:
    """What an atom's symbol is, parsed once: ("index",), ("scalar",), ("gram", a, b),
    ("member", family, index) or ("sum", Sum), and the bound indices it reads."""
    bound = tuple(sorted(n for _, n in _named(name) if n.startswith("#")))
    if name.startswith("#"):
        return ("index",), (name,)
    if IDENT.fullmatch(name):
        return ("scalar",), ()
    pair = gram_pair(sympy.Symbol(name))
    if pair is not None:
        return ("gram", *pair), bound
    found = structure(sympy.Symbol(name))
    if isinstance(found, Family):
        return ("member", found.family, found.index), bound
    assert isinstance(found, Sum)
    return ("sum", found), bound


class _Rows:
    """The rows of one run as arrays: axis 0 the row, axis h the bound index `#h` of the sum
    being added (size 1 elsewhere), a trailing axis the coordinates of a vector. Every value
    is a numerator array over a positive denominator that varies with the row only, so a
    sum over an index adds numerators; int64 wherever the magnitudes prove it exact
    (`_mul`, `_add`, `_total`), Python integers elsewhere."""

    def __init__(self, batch: InstanceBatch, rows: slice) -> None:
        self.batch, self.rows = batch, rows
        origin = batch.origin_index[rows]
        self.n = len(origin)
        used, local = np.unique(origin, return_inverse=True)
        data = self.data = [batch.families[int(i)] for i in used]
        count = max(f.count for f in data)
        dim = max(f.X.shape[1] for f in data)
        big = any(f.X.dtype == object for f in data)
        X = np.zeros((len(data), count, dim), dtype=object if big else np.int64)
        Y = np.zeros((len(data), count), dtype=np.int64)
        for k, f in enumerate(data):
            X[k, :f.count, :f.X.shape[1]] = f.X
            Y[k, :f.count] = f.Y
        self.X, self.Y = X, Y
        shape = self._shape(self.n)
        self.which = local.astype(np.int64).reshape(shape)
        self.counts = np.array([f.count for f in data], dtype=np.int64)[local].reshape(shape)
        self.X_den = _shrunk(np.array([f.X_den for f in data], dtype=object)[local]).reshape(shape)
        self.memo: dict[tuple[str, tuple[Any, ...]], _Value] = {}
        self.masks: dict[tuple[Any, ...], np.ndarray] = {}
        self.gram: np.ndarray | None = None
        self.products: dict[str, _Value] = {}
        self.one = _ints(1)

    def pruned(self) -> None:
        """Forget the values and masks that vary with a bound index (arrays of up to `CELLS`
        cells each): the chunk stays on its batch for the next judgement's atoms, whose
        per-row values and top-level sets are kept. Every chunk of a batch kept them all:
        a six-deep sum over 7 examples held 2.2 GB of inner arrays (red team 13)."""
        self.memo = {k: v for k, v in self.memo.items() if not k[1]}
        self.masks = {k: v for k, v in self.masks.items() if not k[-1]}

    def _shape(self, size: int = 1) -> tuple[int, ...]:
        return (size,) + (1,) * (_AXES - 1)

    def _row(self, den: Any) -> np.ndarray:
        if isinstance(den, np.ndarray):
            return _shrunk(np.asarray(den[self.rows])).reshape(self._shape(self.n))
        return _ints(int(den))

    def column(self, name: str) -> Column:
        num, den = self.symbol(sympy.Symbol(name), {})
        num = np.broadcast_to(num, self._shape(self.n)).reshape(self.n)
        den = np.broadcast_to(den, self._shape(self.n)).reshape(self.n)
        return Column(fitting(np.array(num, dtype=object)), fitting(np.array(den, dtype=object)))

    def scalar(self, name: str) -> _Value:
        found = self.batch.scalars.get(name)
        if found is None:
            raise FamilyError(f"{name} is no quantity of these rows")
        num = _shrunk(np.asarray(found.num[self.rows]))
        return num.reshape(self._shape(self.n)), self._row(found.den)

    def vector(self, name: str, scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        """A vector: a row quantity, or a member `X[I]` of the examples."""
        if IDENT.fullmatch(name):
            found = self.batch.vectors.get(name)
            if found is None:
                raise FamilyError(f"{name} is no vector quantity of these rows")
            num = _shrunk(np.asarray(found.num[self.rows]))
            return num.reshape((*self._shape(self.n), num.shape[1])), self._row(found.den)
        (kind, family_name, index), _ = _reading(name)
        if kind != "member" or family_name != "X":
            raise FamilyError(f"{family_name} is no family of vectors of a run")
        at, valid = self.index(index, scope)
        values = self.X[self.which, at]  # shape (..., dim): each row its own run's
        return np.where(valid[..., None], values, 0).astype(self.X.dtype, copy=False), self.X_den

    def member_products(self, vector: str, member: str,
                        scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        """`<v,X[I]>` for a row vector v: each row's products with every example of its run
        (a matrix product per run, made once per chunk and vector), read at I."""
        table = self.products.get(vector)
        if table is None:
            found = self.batch.vectors.get(vector)
            if found is None:
                raise FamilyError(f"{vector} is no vector quantity of these rows")
            num = _shrunk(np.asarray(found.num[self.rows]))
            width = max(num.shape[1], self.X.shape[2])
            num, X = _padded(num, width), _padded(self.X, width)
            big = num.dtype == object or X.dtype == object or (
                _mag(num) * _mag(X) * max(width, 1) >= _LIMIT)
            which = self.which.reshape(self.n)
            if not big:  # every row at once, against its run's examples
                out = np.einsum("rd,rjd->rj", num, X[which])
            else:  # a run's rows are contiguous: one matrix product of Python ints per run
                out = np.zeros((self.n, X.shape[1]), dtype=object)
                edges = [0, *(np.flatnonzero(np.diff(which)) + 1).tolist(), self.n]
                for a, b in itertools.pairwise(edges):
                    out[a:b] = _exact(num[a:b]) @ _exact(X[which[a]].T)
            table = self.products[vector] = (out, _mul(self._row(found.den), self.X_den))
        (_, family_name, index), _ = _reading(member)
        if family_name != "X":
            raise FamilyError(f"{family_name} is no family of vectors of a run")
        at, valid = self.index(index, scope)
        values = table[0][np.arange(self.n).reshape(self._shape(self.n)), at]
        return np.where(valid, values, 0).astype(table[0].dtype, copy=False), table[1]

    def members_gram(self, a: str, b: str, scope: Mapping[str, tuple[np.ndarray, int, int]]
                     ) -> _Value:
        """`<X[I],X[J]>`: read off each run's Gram matrix of its examples (made once per
        chunk), not multiplied out coordinate by coordinate on every row."""
        if self.gram is None:
            count = self.X.shape[1]
            grams = [f.gram for f in self.data]
            big = any(g.dtype == object for g in grams)
            self.gram = np.zeros((len(grams), count, count), dtype=object if big else np.int64)
            for k, g in enumerate(grams):
                self.gram[k, :g.shape[0], :g.shape[1]] = g
        (_, fa, ia), _ = _reading(a)
        (_, fb, ib), _ = _reading(b)
        if fa != "X" or fb != "X":
            raise FamilyError(f"{fa if fa != 'X' else fb} is no family of vectors of a run")
        (at, valid), (bt, bvalid) = self.index(ia, scope), self.index(ib, scope)
        values = self.gram[self.which, at, bt]
        return (np.where(valid & bvalid, values, 0).astype(self.gram.dtype, copy=False),
                _mul(self.X_den, self.X_den))

    def index(self, index: sympy.Expr, scope: Mapping[str, tuple[np.ndarray, int, int]]
              ) -> tuple[np.ndarray, np.ndarray]:
        """Where a member's index falls among 0..count-1, and whether it is one of 1..N."""
        num, den = self.poly(index, scope)
        whole = num % den == 0
        position = np.where(whole, num // den, 0)
        valid = np.asarray(whole & (position >= 1) & (position <= self.counts), dtype=bool)
        return np.where(valid, position - 1, 0).astype(np.int64, copy=False), valid

    def symbol(self, symbol: sympy.Symbol, scope: Mapping[str, tuple[np.ndarray, int, int]]
               ) -> _Value:
        name = symbol.name
        reading, bound = _reading(name)
        if reading[0] == "index":
            return scope[name][0], self.one
        if reading[0] == "scalar":
            return self.scalar(name)
        key = (name, tuple((b, *scope[b][1:]) for b in bound))
        found = self.memo.get(key)
        if found is not None:
            return found
        if reading[0] == "gram" and all(not IDENT.fullmatch(v) for v in reading[1:]):
            value = self.members_gram(reading[1], reading[2], scope)
        elif reading[0] == "gram" and sum(bool(IDENT.fullmatch(v)) for v in reading[1:]) == 1:
            value = self.member_products(*sorted(reading[1:], key=lambda v: not IDENT.fullmatch(
                v)), scope)
        elif reading[0] == "gram":
            (a, da), (b, db) = (self.vector(v, scope) for v in reading[1:])
            width = max(a.shape[-1], b.shape[-1])
            a, b = (_padded(v, width) for v in (a, b))
            value: _Value = (_total(_mul(a, b), -1)[..., 0], _mul(da, db))
        elif reading[0] == "member":
            if reading[1] != "Y":
                raise FamilyError(f"{reading[1]} is no family of scalars of a run")
            at, valid = self.index(reading[2], scope)
            value = np.where(valid, self.Y[self.which, at], 0), self.one
        else:
            value = self.sum(reading[1], scope)
        self.memo[key] = value
        return value

    def sum(self, found: Any, scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        lo, hi = (self.whole(b, scope) for b in (found.lo, found.hi))
        empty = np.zeros(self._shape(), dtype=np.int64), self.one
        if not lo.size:
            return empty
        first, last = int(lo.min()), int(hi.max())
        span = last - first + 1
        if span <= 0:
            return empty
        if span > MAX_SPAN:
            raise FamilyError(f"a sum over {first}..{last} on a run's rows: at most {MAX_SPAN} "
                              "indices")
        cells = span * math.prod(v[2] - v[1] + 1 for v in scope.values())
        if cells > ROW_CELLS:  # counted before any array of them is made
            raise FamilyError(f"nested sums over {cells} index tuples on a run's row: at most "
                              f"{ROW_CELLS}")
        if self.n > 1 and self.n * cells > CELLS:
            raise _Wide
        axis = found.bound
        shape = [1] * _AXES
        shape[axis] = span
        at = np.arange(first, last + 1, dtype=np.int64).reshape(shape)
        inner = {**scope, f"#{axis}": (at, first, last)}
        key = (found.lo, found.hi, found.filters, axis,
               tuple(sorted((b, *v[1:]) for b, v in scope.items())))
        keep = self.masks.get(key)
        if keep is None:  # the members of a set, once for every sum over it
            keep = (at >= lo.reshape(self._shape(self.n))) & (
                at <= hi.reshape(self._shape(self.n)))
            for p, kind in found.filters:
                value, _ = self.poly(p, inner)
                keep = keep & (value > 0 if kind == ">" else value >= 0 if kind == ">="
                               else value == 0)
            self.masks[key] = keep
        num, den = self.poly(found.body, inner)
        return _total(np.where(keep, num, 0).astype(num.dtype, copy=False), axis), den

    def whole(self, bound: sympy.Expr, scope: Mapping[str, tuple[np.ndarray, int, int]]
              ) -> np.ndarray:
        """A sum's bound on every row, an integer (the bounds are integer polynomials in
        naturals; a row where one is not an integer is no instance of the statement, its
        natural's hypothesis false there: the sum is read as empty there)."""
        num, den = self.poly(bound, scope)
        num = np.broadcast_to(num, self._shape(self.n)).reshape(self.n)
        den = np.broadcast_to(den, self._shape(self.n)).reshape(self.n)
        whole = num % den == 0
        value = np.where(whole, num // np.where(whole, den, 1), 0)
        if value.dtype == object and _mag(value) >= _LIMIT:  # no index of a run is there
            raise FamilyError(f"a sum's bound {bound} is past 2**62 on a run's row: its "
                              "indices are no int64")
        return value.astype(np.int64)

    def poly(self, e: sympy.Expr, scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        """A polynomial over the atoms and quantities: its terms over one denominator per
        row (each symbol's denominator to its highest power in the polynomial)."""
        symbols, terms = _polynomial(e)
        values = [self.symbol(s, scope) for s in symbols]
        degrees = [max((m[i] for m, _ in terms), default=0) for i in range(len(symbols))]
        common = math.lcm(*(c.denominator for _, c in terms)) if terms else 1
        # a factor 1 is never multiplied, nor a first term added to 0: the same integers,
        # without the two passes over the arrays each `_mul` and `_add` takes (their
        # magnitudes), which were most of a sum's work on the few rows of a small run
        den = _product(_ints(common) if common != 1 else None,
                       [d for (_, d), k in zip(values, degrees, strict=True) for _ in range(k)])
        total: np.ndarray | None = None
        for monomial, c in terms:
            coefficient = c.numerator * (common // c.denominator)
            term = _product(_ints(coefficient) if coefficient != 1 else None, [
                f for (num, d), e_i, k in zip(values, monomial, degrees, strict=True)
                for f in (*(num,) * e_i, *(d,) * (k - e_i))])
            total = term if total is None else _add(total, term)
        if total is None or total.ndim < _AXES:  # no term, or constants only: on the axes
            total = _add(np.zeros(self._shape(), dtype=np.int64),
                         total if total is not None else _ints(0))
        return total, den


def _product(first: np.ndarray | None, factors: Sequence[np.ndarray]) -> np.ndarray:
    """`first` times every factor, exactly (`_mul`); no `first` is 1."""
    out = first
    for factor in factors:
        out = factor if out is None else _mul(out, factor)
    return out if out is not None else _ints(1)


def _padded(v: np.ndarray, width: int) -> np.ndarray:
    """`v` widened to `width` coordinates with zeros of its own kind: Python int 0 in an
    object array (`np.pad` writes `np.int64(0)` there, and a big Python int plus an
    `np.int64` overflows instead of staying exact)."""
    if v.shape[-1] == width:
        return v
    out = np.zeros((*v.shape[:-1], width), dtype=v.dtype)  # object zeros are Python ints
    out[..., :v.shape[-1]] = v
    return out


@functools.lru_cache(maxsize=4096)
def _polynomial(e: sympy.Expr) -> tuple[tuple[sympy.Symbol, ...],
                                        tuple[tuple[tuple[int, ...], Fraction], ...]]:
    """`e` as its symbols and (exponents, coefficient) terms (once per expression)."""
    symbols = tuple(sorted(e.free_symbols, key=lambda s: s.name))
    if not symbols:
        value = Fraction(str(sympy.Rational(e)))
        return (), (((), value),) if value else ()
    poly = sympy.Poly(e, *symbols, domain="QQ")
    return symbols, tuple((tuple(m), Fraction(int(c.numerator), int(c.denominator)))
                          for m, c in poly.terms() if c)
