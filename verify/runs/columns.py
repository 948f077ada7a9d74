"""Exact columns: the quantities of many runs as numerator arrays over common denominators.

A run kind (`verify.runs.quantity`) builds its rows as columns: one numerator array per
quantity with one positive common denominator (`Column`, `VectorColumn` for coordinate
vectors), in numpy int64 when a magnitude bound computed with Python integers proves every
value fits, otherwise in numpy object arrays of Python ints. No float is ever formed. A batch
of such rows (`InstanceBatch`) is what `verify.numeric.instances` evaluates judgements on;
each row keeps where it came from (`Origin`, `Provenance`) so a violation names its run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any, Generic, Self, TypeVar, overload

import numpy as np
import sympy

from proofs.language.terms import gram_pair
from verify.kernel.atoms import named

_T = TypeVar("_T")


class cached_property(Generic[_T]):
    """`functools.cached_property` without its lock: the value is computed at the first
    read and stored in the instance's `__dict__`, where later reads find it first (a
    non-data descriptor), and where a builder may store a value it knows (`Column.counting`).

    Python 3.11's takes a lock at every first read (3.12 dropped it); a long-run campaign
    makes about twenty columns per run whose magnitudes and denominators are each read
    once, and that lock was a few percent of its time. Columns are never shared between
    threads while being filled."""

    def __init__(self, method: Callable[[Any], _T]) -> None:
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Self: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> _T | Self:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.method(instance)
        return value


#: int64 is used only when every intermediate magnitude is provably below this.
INT64_LIMIT = 2**63 - 1
IntArray = np.ndarray
#: A column's positive denominator: one for every row (a run's own columns), or one per row
#: (an array: rows of several runs concatenated, each over its own denominators).
Den = int | IntArray


def den_top(den: Den) -> int:
    """The largest denominator of a column (1 when it has no rows)."""
    if isinstance(den, np.ndarray):
        return int(np.maximum.reduce(den)) if den.size else 1
    return den


def den_at(den: Den, i: int) -> int:
    """Row `i`'s denominator."""
    return int(den[i]) if isinstance(den, np.ndarray) else den


def den_rows(den: Den, rows: np.ndarray) -> Den:
    """The denominators of the rows selected by an index array."""
    return den[rows] if isinstance(den, np.ndarray) else den


def den_product(a: Den, b: Den) -> Den:
    """Row-wise products of two columns' denominators, exactly (int64 only when it fits)."""
    if not isinstance(a, np.ndarray) and not isinstance(b, np.ndarray):
        return a * b
    if den_top(a) * den_top(b) > INT64_LIMIT:
        a = as_object(a) if isinstance(a, np.ndarray) else a
        b = as_object(b) if isinstance(b, np.ndarray) else b
    return a * b


def den_column(den: Den, n: int) -> IntArray:
    """`n` rows' denominators as an array (int64 when each fits)."""
    if isinstance(den, np.ndarray):
        return den
    return np.full(n, den, dtype=np.int64 if den <= INT64_LIMIT else object)


#: The most entries of a table of margins (iterates by examples) made at once: a reader of
#: every iterate's margin on every example (`mu`, `min_j y_j <w, x_j>`) computes them block
#: by block and keeps its minimum, since the whole table of a long run on a large data file
#: (T + 1 states by N examples) does not fit in memory.
MARGIN_BLOCK = 2**20


def int_array(values: Sequence[int]) -> IntArray:
    """A 1-D array of exact integers: int64 when each fits, object (Python ints) otherwise."""
    if not values or (max(values) <= INT64_LIMIT and min(values) >= -INT64_LIMIT):
        return np.array(values, dtype=np.int64)
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def int_matrix(ints: Sequence[Sequence[int]], n: int, width: int) -> IntArray:
    """An n x width matrix of exact integers: int64 when each fits, object otherwise."""
    if n and width:
        # numpy's own conversion (`in_int64`): a third of the time of scanning the rows in
        # Python first
        array = in_int64(ints)
        if array is None:
            array = np.empty((n, width), dtype=object)
            array[...] = ints
        return array.reshape(n, width)
    return np.empty((n, width), dtype=np.int64)


def max_abs(array: np.ndarray) -> int:
    """The largest magnitude in an integer array, as a Python int (0 when empty)."""
    if array.size == 0:
        return 0
    if array.dtype == object:  # compared in int64 when every entry fits (`in_int64`)
        fitted = in_int64(array)
        array = fitted if fitted is not None else array
    # the extremes, not `abs` of every entry: on object arrays (Python ints) that would
    # allocate a second array of big integers just to compare them (the ufuncs' own reduce,
    # not `array.max()`: the audit calls this on hundreds of thousands of small arrays)
    return max(abs(int(np.maximum.reduce(array, axis=None))),
               abs(int(np.minimum.reduce(array, axis=None))))


def in_int64(array: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray | None:
    """Python ints (an object array, or rows of them) in int64, or None when some entry is
    past `INT64_LIMIT`: numpy's own conversion, which refuses an integer past int64
    (OverflowError) rather than wrapping it, and -2**63 refused here (`int_array`'s rule).
    About a third of the time of comparing the Python ints themselves (`max_abs`,
    `fitting`, `int_matrix`)."""
    try:
        out = np.array(array, dtype=np.int64)
    except OverflowError:
        return None
    if out.size and int(np.minimum.reduce(out, axis=None)) < -INT64_LIMIT:
        return None
    return out


def as_object(array: np.ndarray) -> np.ndarray:
    """The same integers as Python ints in an object array (never overflows)."""
    # astype(object) makes Python ints of int64 entries, at any shape (an empty matrix too:
    # assigning `tolist()` of a 0 x d array to it failed to broadcast)
    return array if array.dtype == object else array.astype(object)


@dataclass(frozen=True)
class Column:
    """Exact rationals `num[i] / den` over a positive denominator: one common to every row,
    or one per row (`Den`)."""

    num: IntArray
    den: Den = 1

    @classmethod
    def of(cls, values: Iterable[int | Fraction]) -> Column:
        """The column of `values` (ints or Fractions), over their least common denominator."""
        items = list(values)
        den = lcm(*{v.denominator for v in items})
        return cls(int_array([v.numerator * (den // v.denominator) for v in items]), den)

    @classmethod
    def constant(cls, value: int | Fraction, n: int) -> Column:
        """The same value on `n` rows (its magnitude known without reading them)."""
        num = value.numerator
        big = abs(num) > INT64_LIMIT
        column = cls(np.full(n, num, dtype=object if big else np.int64), value.denominator)
        if n:
            column.__dict__["magnitude"] = abs(num)  # fills the cached property
        return column

    @classmethod
    def counting(cls, num: IntArray, top: int) -> Column:
        """Integers whose largest magnitude `top` the caller knows exactly, never by reading
        them (a run's update counts 0..T, its labels +-1): a row builder's own columns,
        whose magnitudes every check of a batch reads."""
        column = cls(num)
        column.__dict__["magnitude"] = top if len(num) else 0  # fills the cached property
        return column

    def __len__(self) -> int:
        return len(self.num)

    def value(self, i: int) -> Fraction:
        """Row `i` as a Fraction."""
        return Fraction(int(self.num[i]), den_at(self.den, i))

    def take(self, rows: np.ndarray) -> Column:
        """The rows selected by an index array."""
        return Column(self.num[rows], den_rows(self.den, rows))

    @cached_property
    def magnitude(self) -> int:
        """The largest |numerator| (computed once: every polynomial over a batch reads it)."""
        return max_abs(self.num)

    @cached_property
    def den_max(self) -> int:
        """The largest denominator (the common one, or the largest of the rows')."""
        return den_top(self.den)

    def den_power(self, exponent: int, in_int64: bool) -> int | IntArray:
        """`den ** exponent`: a Python int for a common denominator, else per row (int64 when
        the caller has proved it fits), each power computed once per column."""
        if not isinstance(self.den, np.ndarray):
            return self.den ** exponent
        key = (in_int64, -1 - exponent)  # beside the numerators' powers, apart from them
        cache = self._powers
        if key not in cache:
            den = self.den if in_int64 else as_object(self.den)
            cache[key] = (np.ones(len(den), dtype=np.int64 if in_int64 else object)
                          if exponent == 0 else
                          den if exponent == 1 else self.den_power(exponent - 1, in_int64) * den)
        return cache[key]

    def scaled_power(self, exponent: int, den_exponent: int, in_int64: bool) -> IntArray:
        """`num ** exponent * den ** den_exponent` row by row, for a column with a
        denominator per row (in int64 when the caller has proved it fits), made once per
        column and pair of exponents: a polynomial over rows of several runs puts each
        term over `prod den ** degree`, and the terms of the polynomials of a batch repeat
        these few products."""
        if den_exponent == 0:
            return self.power(exponent, in_int64)
        if exponent == 0:
            return self.den_power(den_exponent, in_int64)  # type: ignore[return-value]
        key = (in_int64, exponent, den_exponent)
        cache = self._powers
        if key not in cache:
            cache[key] = self.power(exponent, in_int64) * self.den_power(den_exponent, in_int64)
        return cache[key]

    @cached_property
    def _powers(self) -> dict[tuple[int, ...], IntArray]:
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
                              else as_object(np.ones(len(self.num), dtype=np.int64)))
            elif exponent == 1:
                cache[key] = self.num if in_int64 else as_object(self.num)
            else:
                cache[key] = self.power(exponent - 1, in_int64) * self.power(1, in_int64)
        return cache[key]


class VectorColumn:
    """Rows of exact coordinate vectors `num[i, :] / den`, zero-padded to one dimension.

    `source`, when set, says the rows were taken from a smaller column: row i is
    `source[0]`'s row `source[1][i]` (`take`, `constant`). Gram columns use it to compute
    each distinct dot product once (`gram_column`): on a run's example rows, `<x, x>` has one
    value per example and `<w, w>` one per state, not one per (state, example) row. Such a
    column holds no numerators of its own until something reads `num` (a row set of states x
    examples repeats each iterate once per example: materialised, the repetitions of a
    thousand-dimensional run took hundreds of megabytes that the Gram columns never read).

    `parts`, when set, says the rows are those of several columns one after another, each
    zero-padded to the widest (`InstanceBatch.concat`): joined only when `num` is read. A
    joined batch's Gram columns past int64 are its parts' joined (`InstanceBatch.column`),
    which never read the joined vectors.
    """

    def __init__(self, num: IntArray | None, den: Den = 1,
                 source: tuple[VectorColumn, np.ndarray] | None = None,
                 parts: Sequence[VectorColumn] | None = None) -> None:
        if num is None and source is None and parts is None:
            raise ValueError("a vector column needs its numerators, a source or its parts")
        self._num = num
        self.den = den
        self.source = source
        self._parts = tuple(parts) if parts is not None else None

    def __repr__(self) -> str:
        return f"VectorColumn({self.num!r}, {self.den})"

    @classmethod
    def of(cls, rows: Sequence[Sequence[int | Fraction]], dim: int | None = None) -> VectorColumn:
        """Rows of rationals (ints or Fractions), zero-padded to `dim` (default: longest)."""
        width = dim if dim is not None else max((len(r) for r in rows), default=0)
        den = lcm(*{v.denominator for r in rows for v in r})
        ints = [[v.numerator * (den // v.denominator) for v in r] + [0] * (width - len(r))
                for r in rows]
        return cls(int_matrix(ints, len(rows), width), den)

    @classmethod
    def constant(cls, row: Sequence[int | Fraction], n: int) -> VectorColumn:
        """The same vector on `n` rows (built once; the repetitions only when read)."""
        return cls.repeated(cls.of([row]), n)

    @classmethod
    def repeated(cls, single: VectorColumn, n: int) -> VectorColumn:
        """The one row of `single` on `n` rows (the repetitions only when read): a run's
        constant vector made once (`single`, read but never written) and repeated by every
        row set of the run that binds it."""
        column = cls(None, single.den, (single, np.zeros(n, dtype=np.intp)))
        column.__dict__["magnitude"] = single.magnitude if n else 0  # every row is that one
        return column

    @property
    def num(self) -> IntArray:
        """The numerators, one row per vector (a taken column's made on first reading)."""
        if self._num is None:
            if self._parts is not None:
                dim = self.dim
                self._num = np.concatenate(_unify([c.padded(dim).num for c in self._parts]),
                                           axis=0)
            else:
                base, index = self.source  # type: ignore[misc]
                self._num = base.num[index]
        return self._num

    def __len__(self) -> int:
        if self._num is not None:
            return self._num.shape[0]
        if self._parts is not None:
            return sum(map(len, self._parts))
        return len(self.source[1])  # type: ignore[index]

    @property
    def dim(self) -> int:
        """The common (padded) dimension."""
        if self._num is not None:
            return self._num.shape[1]
        if self._parts is not None:
            return max(c.dim for c in self._parts)
        return self.source[0].dim  # type: ignore[index]

    @property
    def dtype(self) -> np.dtype:
        """The numerators' dtype (int64 or object), known without making them."""
        if self._num is not None:
            return self._num.dtype
        if self._parts is not None:
            types = [c.dtype for c in self._parts]
            return np.dtype(object) if any(t.kind == "O" for t in types) else \
                np.result_type(*types)
        return self.source[0].dtype  # type: ignore[index]

    def padded(self, dim: int) -> VectorColumn:
        """The same vectors with zero coordinates appended up to `dim`."""
        if dim == self.dim:
            return self
        if self._num is None and self._parts is not None:
            return VectorColumn(None, self.den, parts=[c.padded(dim) for c in self._parts])
        if self.source is not None:
            base, index = self.source
            return VectorColumn(None, self.den, (base.padded(dim), index))
        extra = np.zeros((len(self), dim - self.dim), dtype=self.num.dtype)
        return VectorColumn(np.concatenate([self.num, extra], axis=1), self.den)

    def row(self, i: int) -> tuple[Fraction, ...]:
        """Row `i` as exact coordinates."""
        if self._num is None and self._parts is None:
            base, index = self.source  # type: ignore[misc]
            return base.row(int(index[i]))
        if self._num is None:  # joined: the row of the part that holds it, padded
            assert self._parts is not None
            for part in self._parts:
                if i < len(part):
                    return (*part.row(i), *(Fraction(0),) * (self.dim - part.dim))
                i -= len(part)
            raise IndexError("row out of range")
        den = den_at(self.den, i)
        return tuple(Fraction(int(v), den) for v in self._num[i])

    @cached_property
    def den_max(self) -> int:
        """The largest denominator (the common one, or the largest of the rows')."""
        return den_top(self.den)

    @cached_property
    def magnitude(self) -> int:
        """The largest |numerator| (computed once per column): for rows taken from another
        column, the largest over the source rows they repeat (every row is some source row,
        so this is the same number), which reads each source row once instead of every copy
        (a run's example rows repeat each iterate once per example)."""
        if self._parts is not None:  # joined: the largest of its parts' (padding is 0)
            return max((c.magnitude for c in self._parts if len(c)), default=0)
        if self.source is not None:
            base, index = self.source
            if len(index) == 0:
                return 0
            present = np.zeros(len(base), dtype=bool)
            present[index] = True
            return base.magnitude if present.all() else max_abs(base.num[present])
        return max_abs(self.num)

    def between(self, start: int, stop: int) -> VectorColumn:
        """Rows `start` to `stop - 1`: views of the numerators (a taken column's rows stay
        taken, a joined column's are joined first), for checking a large batch a slice at a
        time (`InstanceBatch.between`)."""
        where = slice(start, stop)
        if self._num is None and self._parts is None:
            base, index = self.source  # type: ignore[misc]
            return VectorColumn(None, den_rows(self.den, where), (base, index[where]))
        return VectorColumn(self.num[where], den_rows(self.den, where))

    def take(self, rows: np.ndarray, *, every: bool = False) -> VectorColumn:
        """The rows selected by an index array (remembering where they were taken from; the
        numerators themselves only made when read). `every`: the caller knows that `rows`
        takes every row at least once (a run's states, one per example), so the magnitude
        is this column's, without marking which rows were taken."""
        rows = np.asarray(rows)
        if rows.dtype == bool:
            rows = np.flatnonzero(rows)
        if self.source is not None:
            base, index = self.source
            taken = VectorColumn(None, den_rows(self.den, rows), (base, index[rows]))
        else:
            taken = VectorColumn(None, den_rows(self.den, rows), (self, rows))
        if every:
            taken.__dict__["magnitude"] = self.magnitude  # fills the cached property
        return taken


def gram_column(a: VectorColumn, b: VectorColumn) -> Column:
    """The row-wise exact dot products `<a_i, b_i>`; int64 only when `d*|a|*|b|` fits.

    When both columns were taken from smaller ones (`VectorColumn.source`), each distinct
    product is computed once on those and the rows picked from them: the same integers (and
    the same dtype: int64 exactly when every value fits) with far fewer big-integer products.
    """
    common = not isinstance(a.den, np.ndarray) and not isinstance(b.den, np.ndarray)
    if common and a.source is not None and b.source is not None:
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


def lowest_terms(column: Column) -> Column:
    """The same rationals with their common factors divided out: a common denominator and
    every numerator by their gcd, a denominator per row with its own numerator by theirs.

    A Gram column's numerators are sums of products over the product of its vectors'
    denominators, and those often share most of it: the online adversary's `<w, x>` and
    `<x, x>` on its example rows are 56 to 80-bit numerators over 52 to 77-bit
    denominators that reduce to 5-bit numerators over denominators of a few bits
    (`<x, x> = R2`), so every polynomial reading them was evaluated in Python ints (and
    a large common denominator, raised to the degree of the other terms, pushed int64
    columns there too); in lowest terms they fit int64 and are checked there
    (`CompiledPolynomial.evaluate` decides by the magnitudes). The values are the same,
    so is every verdict, count and least slack (a Fraction, in lowest terms anyway)."""
    num, den = column.num, column.den
    if isinstance(den, np.ndarray):
        if not len(den) or column.den_max == 1:
            return column
        g = np.gcd(num, den)  # >= 1: every denominator is positive
        return Column(fitting(num // g), fitting(den // g))
    if den == 1 or not len(num):
        return column
    g = (math.gcd(den, *num.tolist()) if num.dtype == object
         else math.gcd(den, int(np.gcd.reduce(num))))
    if g == 1:
        return column
    # g is the denominator itself when every numerator is 0: past int64 it cannot divide an
    # int64 array (numpy raises), so those are divided as Python ints (`reduced` alike)
    return Column(fitting((num if g <= INT64_LIMIT else as_object(num)) // g), den // g)


def _fits(a: VectorColumn, b: VectorColumn) -> bool:
    """Whether every `<a_i, b_i>` is computed in int64 (`_row_products`' first case): a
    joined batch's Gram column is then one product of its joined vectors, else its parts'
    joined (`InstanceBatch.column`: each part's in int64 when its own values allow, read
    off the smaller columns its rows were taken from, as a run's own rows are)."""
    return (a.dtype != object and b.dtype != object
            and max(a.dim, b.dim) * a.magnitude * b.magnitude <= INT64_LIMIT)


def _row_products(a: VectorColumn, b: VectorColumn) -> Column:
    """`<a_i, b_i>` row by row."""
    dim = max(a.dim, b.dim)
    top_a, top_b = a.magnitude, b.magnitude
    bound = dim * top_a * top_b
    a, b = a.padded(dim), b.padded(dim)
    # `dtype`, not `num.dtype`: a repeated row's repetitions are made only where read
    if a.dtype != object and b.dtype != object and bound <= INT64_LIMIT:
        num = np.einsum("ij,ij->i", a.num, b.num)
    elif not dim:
        num = int_array([0] * len(a))
    elif a.dtype != object and b.dtype != object:
        # int64 entries whose products overflow: split into limbs by numpy's own shifts, a
        # few int64 einsums, no Python int per entry
        num = fitting(_limb_products(a.num, b.num, dim, top_a, top_b, _row_sums))
    else:
        # Python ints (splitting them into limbs would cost more Python-int work than it
        # saves), a block of rows at a time (`_object_row_sums`)
        num = fitting(_object_row_sums(a, b, dim))
    return Column(num, den_product(a.den, b.den))


#: `_object_row_sums` makes Python ints of at most this many entries of its columns at once.
OBJECT_BLOCK = 2**18


def _single(column: VectorColumn) -> IntArray | None:
    """The one row every row of `column` is (a run's constant vector repeated on its rows,
    `VectorColumn.repeated`), without making the repetitions; None: not such a column."""
    if column._num is None and column.source is not None and len(column.source[0]) == 1:
        return column.source[0].num[0]
    return None


def _object_row_sums(a: VectorColumn, b: VectorColumn, dim: int) -> IntArray:
    """`<a_i, b_i>` in Python ints, `OBJECT_BLOCK` entries of rows at a time, a repeated
    row (`_single`) read once. One einsum of both columns made Python ints whole held
    every entry of both as an int object at once (the repeated `u` made on every row, `w`
    as 13 million Python ints on the 262 984 state rows of a margin perceptron's run on a
    20 000 x 50 file, with a separator past int64): margin-perceptron's state checks alone
    on that run peaked at 1 001 MB, 857 MB with the products made so (ru_maxrss, one
    process; the rest is the checks' other columns)."""
    row = _single(b)
    if row is None and (row := _single(a)) is not None:
        a, b = b, a  # the repeated one second
    step = max(1, OBJECT_BLOCK // max(dim, 1))
    out = np.empty(len(a), dtype=object)
    for k in range(0, len(a), step):
        block = as_object(a.num[k:k + step])
        out[k:k + step] = block @ as_object(row) if row is not None else np.einsum(
            "ij,ij->i", block, as_object(b.num[k:k + step]))
    return out


def _products(a: VectorColumn, b: VectorColumn) -> Column:
    """Every `<a_i, b_j>` as a len(a) x len(b) table of numerators (over `a.den * b.den`)."""
    dim = max(a.dim, b.dim)
    top_a, top_b = a.magnitude, b.magnitude
    bound = dim * top_a * top_b
    a, b = a.padded(dim), b.padded(dim)
    if not dim or (a.num.dtype != object and b.num.dtype != object and bound <= INT64_LIMIT):
        return Column(a.num.astype(np.int64) @ b.num.T.astype(np.int64), a.den * b.den)
    _, limbs_a, limbs_b = _limb_plan(top_a, top_b, dim)
    if 4 * (len(a) * limbs_a + len(b) * limbs_b) <= len(a) * len(b):
        # every entry split once into limbs, the table a few int64 products of them, instead
        # of len(a) * len(b) * dim products of Python ints (when the splitting, Python ints
        # too, is the smaller work)
        return Column(_limb_products(a.num, b.num.T, dim, top_a, top_b, np.matmul),
                      a.den * b.den)
    return Column(as_object(a.num) @ as_object(b.num).T, a.den * b.den)


#: The widest limb `_limb_products` splits integers into.
LIMB_BITS = 31


def _row_sums(a: IntArray, b: IntArray) -> IntArray:
    """`<a_i, b_i>` for every row i (the caller has proved that int64 holds them)."""
    return np.einsum("ij,ij->i", a, b)


def _limb_products(a: IntArray, b: IntArray, dim: int, top_a: int, top_b: int,
                   product: Callable[[IntArray, IntArray], IntArray]) -> IntArray:
    """`product(a, b)` exactly (`np.matmul` or `_row_sums`: sums of `dim` products; `top_a`,
    `top_b` bound the entries' magnitudes), as an object array of Python ints, computed in
    int64.

    Each integer is split into limbs of k bits, `v = sum_l v_l 2^(k l)`: every limb but the
    top one in [0, 2^k) (`(v >> k l) & (2^k - 1)`, floor shifts), the top one `v >> k (L-1)`
    of magnitude at most 2^k. The result is `sum_s 2^(k s) P_s`, where `P_s` sums the
    products of the limb pairs `(l, m)` with `l + m = s`: at most `min(La, Lb)` pairs of
    `dim` products each below `2^(2k)` in magnitude, so k is chosen for that to fit int64,
    and no value is ever rounded. The `P_s` are then combined in Python ints (Horner)."""
    k, count_a, count_b = _limb_plan(top_a, top_b, dim)
    limbs_a, limbs_b = _limbs(a, count_a, k), _limbs(b, count_b, k)
    sums: list[IntArray | None] = [None] * (len(limbs_a) + len(limbs_b) - 1)
    for i, x in enumerate(limbs_a):
        for j, y in enumerate(limbs_b):
            part = product(x, y)
            sums[i + j] = part if sums[i + j] is None else sums[i + j] + part
    total = as_object(sums[-1])  # type: ignore[arg-type]
    for part in reversed(sums[:-1]):
        total = (total << k) + as_object(part)  # type: ignore[arg-type]
    return total


def _limb_plan(top_a: int, top_b: int, dim: int) -> tuple[int, int, int]:
    """The limb width k of `_limb_products` (the widest up to `LIMB_BITS` for which
    `min(La, Lb) * dim * 4^k` fits int64) and the limb counts La, Lb of integers of
    magnitude at most `top_a`, `top_b` (every magnitude below 2^(k L))."""
    bits_a, bits_b = max(top_a, 1).bit_length(), max(top_b, 1).bit_length()
    k = LIMB_BITS
    while k > 1 and min(-(-bits_a // k), -(-bits_b // k)) * max(dim, 1) * 4**k > INT64_LIMIT:
        k -= 1
    return k, -(-bits_a // k), -(-bits_b // k)


def _limbs(values: IntArray, count: int, k: int) -> list[IntArray]:
    """`values` as `count` int64 limbs of k bits, lowest first (`_limb_products`: every
    magnitude below 2^(k count)): the top limb signed, the others in [0, 2^k)."""
    mask = (1 << k) - 1
    out = []
    rest = values
    for _ in range(count - 1):
        out.append((rest & mask).astype(np.int64, copy=False))
        rest = rest >> k
    out.append(rest.astype(np.int64))
    return out


def _fitted(column: Column) -> Column:
    """The column in int64 when every value fits (as row-wise products give it)."""
    return Column(fitting(column.num), column.den)


def fitting(num: IntArray) -> IntArray:
    """Exact integers in int64 when every one fits, else as they are (Python ints): the
    array `int_array` makes of the same values, without a Python loop over them."""
    if num.dtype == object:
        fitted = in_int64(num)
        return fitted if fitted is not None else num
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
    top = max_abs(num)
    if num.dtype == object and top <= INT64_LIMIT:
        num = num.astype(np.int64)
    elif num.dtype != object and top > INT64_LIMIT:
        num = as_object(num)
    column = VectorColumn(num, den)
    column.__dict__["magnitude"] = top  # fills the cached property: read once, here
    return column


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
    #: the members of the run's families, where the statement reads a sum or a member
    #: (`verify.runs.families.family_columns`): the kernel evaluates those at the instance
    families: dict[str, dict[Fraction, Fraction | tuple[Fraction, ...]]] = field(
        default_factory=dict)

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
    # The columns of `[define]`d names evaluated on these rows (`verify.runs.naming.Defined`,
    # by its symbol), made by the checks that read them: apart from `scalars`, which are the
    # run's own quantities (the same in every batch concatenated).
    defined: dict[str, Column] = field(default_factory=dict, repr=False)
    # The batches this one concatenates (`concat`), in order: a Gram column past int64 is
    # computed on each of them and joined (`column`), not on the joined vectors.
    parts: tuple[InstanceBatch, ...] = field(default=(), repr=False)
    # The members of each origin's families (`Instance.families`), when its rows have
    # columns of sums or members (`verify.runs.families.family_columns`); else empty.
    # (`verify.runs.families.FamilyData`: arrays, and the members a counterexample gives)
    families: tuple[Any, ...] = field(default=(), repr=False)

    def __len__(self) -> int:
        return len(self.iteration)

    def magnitude(self) -> int:
        """The largest numerator or denominator in any column: how costly rows are to check."""
        columns = [*self.scalars.values(), *self.vectors.values()]
        # a common denominator is its own largest (no cached property to fill for it)
        return max((max(c.magnitude, c.den if type(c.den) is int else c.den_max)
                    for c in columns), default=0)

    def column(self, symbol: sympy.Symbol) -> Column:
        """The column bound to a scalar or Gram symbol (Gram columns computed once)."""
        pair = gram_pair(symbol)
        if pair is None:
            found = self.scalars.get(symbol.name)
            if found is None:  # not `or`: a column of no rows is false
                found = self.defined.get(symbol.name)
            if found is None:
                raise KeyError(f"no scalar {symbol.name!r} bound in this batch")
            return found
        if pair not in self._grams:
            for name in pair:
                if name not in self.vectors:
                    raise KeyError(f"no vector {name!r} bound in this batch")
            a, b = self.vectors[pair[0]], self.vectors[pair[1]]
            self._grams[pair] = (_concat_columns([part.column(symbol) for part in self.parts])
                                 if self.parts and not _fits(a, b)
                                 else lowest_terms(gram_column(a, b)))
        return self._grams[pair]

    def provenance(self, i: int) -> Provenance:
        """Provenance of row `i`."""
        return Provenance(self.origins[int(self.origin_index[i])], int(self.iteration[i]))

    def instance(self, i: int, names: Iterable[str] | None = None) -> Instance:
        """Row `i` as an Instance (restricted to `names` when given)."""
        keep = set(names) if names is not None else None
        scalars = {n: c.value(i) for n, c in (*self.scalars.items(), *self.defined.items())
                   if keep is None or n in keep}
        atoms = [n for n in scalars if "[" in n or n.startswith("sum(")]
        if not atoms:
            return Instance(scalars, {n: v.row(i) for n, v in self.vectors.items()
                                      if keep is None or n in keep}, self.provenance(i))
        read = {n for a in atoms for _, n in named(sympy.Symbol(a))}
        for name in atoms:  # a sum's value is its members', which the kernel reads
            del scalars[name]
        scalars |= {n: c.value(i) for n, c in self.scalars.items() if n in read}
        families = (self.families[int(self.origin_index[i])].members_read(read)
                    if self.families else {})
        vectors = {n: v.row(i) for n, v in self.vectors.items()
                   if keep is None or n in keep or n in read}
        width = max((len(v) for v in vectors.values()), default=0)

        def padded(v: Any) -> Any:  # a run's own examples, as wide as the padded rows
            return v + (Fraction(0),) * (width - len(v)) if isinstance(v, tuple) else v
        return Instance(scalars, vectors, self.provenance(i),
                        {n: {j: padded(v) for j, v in m.items()} for n, m in families.items()})

    def between(self, start: int, stop: int) -> InstanceBatch:
        """Rows `start` to `stop - 1`, the same rows (views of their columns, the same
        origins and families), without the values, masks and columns computed on this
        batch: what a check computes on a slice is dropped with it
        (`verify.numeric.campaign.verdicts` checks a large part's rows a slice at a time)."""
        where = slice(start, stop)
        return InstanceBatch({n: c.take(where) for n, c in self.scalars.items()},  # type: ignore[arg-type]
                             {n: v.between(start, stop) for n, v in self.vectors.items()},
                             self.origins, self.origin_index[where], self.iteration[where],
                             families=self.families)

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
        joined = cls(scalars, vectors, tuple(origins), np.concatenate(index_parts),
                     np.concatenate([b.iteration for b in batches]), parts=tuple(batches))
        if all(b.families for b in batches):
            joined.families = tuple(f for b in batches for f in b.families)
        return joined

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


def times(num: IntArray, factor: int) -> IntArray:
    """`num * factor` exactly, staying in int64 only when the product provably fits."""
    if factor == 1:
        return num
    if num.dtype != object and max(max_abs(num), 1) * abs(factor) <= INT64_LIMIT:
        return num * np.int64(factor)
    return as_object(num) * factor


def in_exact_dtype(array: IntArray, bound: int) -> IntArray:
    """`array` in a dtype whose arithmetic up to magnitude `bound` is exact."""
    return array if bound <= INT64_LIMIT and array.dtype != object else as_object(array)


def plus(a: IntArray, b: IntArray) -> IntArray:
    """`a + b`, exactly."""
    bound = max_abs(a) + max_abs(b)
    return in_exact_dtype(a, bound) + in_exact_dtype(b, bound)


def block_prefix(values: IntArray, blocks: int, per_block: int) -> IntArray:
    """Exclusive prefix sums within each block of `per_block` consecutive rows (row-major):
    per state of a run, the sums over the examples before each one."""
    shaped = values.reshape(blocks, per_block, *values.shape[1:])
    shaped = in_exact_dtype(shaped, per_block * max_abs(shaped))
    total = np.cumsum(shaped, axis=1) - shaped
    return total.reshape(values.shape)


def _unify(arrays: Sequence[IntArray]) -> list[IntArray]:
    """Arrays of one dtype: object if any is object."""
    if any(a.dtype == object for a in arrays):
        return [as_object(a) for a in arrays]
    return list(arrays)


def _concat_dens(columns: Sequence[Column] | Sequence[VectorColumn]) -> Den:
    """The denominators of concatenated columns: their common one when they have one, else
    one per row. Not their lcm: runs over different denominators (the adversary's shapes,
    planted data) would share numerators scaled to it, and numerators of small runs scaled
    past int64 would make every row of the concatenation slow."""
    dens = [c.den for c in columns]
    first = dens[0]
    if not any(isinstance(d, np.ndarray) for d in dens):
        if all(d == first for d in dens):
            return first
        # one repeat of the parts' dens, not an array per part joined (a campaign joins
        # 17 000 parts in 2 000 batches, and `np.full` per part was a third of the join);
        # the same integers in the same dtype as `den_column` of each part, unified
        big = max(dens) > INT64_LIMIT
        return np.repeat(np.array(dens, dtype=object if big else np.int64),
                         [len(c) for c in columns])
    parts = [den_column(c.den, len(c)) for c in columns]
    return np.concatenate(_unify(parts)) if parts else first


def _concat_columns(columns: Sequence[Column]) -> Column:
    return _known(Column(np.concatenate(_unify([c.num for c in columns])),
                         _concat_dens(columns)), columns)


def _concat_vectors(columns: Sequence[VectorColumn]) -> VectorColumn:
    """The rows of `columns` one after another (`VectorColumn.parts`: joined when read)."""
    return _known(VectorColumn(None, _concat_dens(columns), parts=columns), columns)


_C = TypeVar("_C", Column, VectorColumn)


def _known(joined: _C, columns: Sequence[Column] | Sequence[VectorColumn]) -> _C:
    """`joined`, the concatenation of `columns`, with its magnitude and largest denominator
    filled in (cached properties) when every part knows its own: the largest of theirs, the
    same numbers without reading the rows again (a campaign reads every part's before
    choosing which to concatenate, `verify.numeric.campaign.verdicts`)."""
    present = [c for c in columns if len(c)]  # an empty part's den is no row's
    if not present:
        return joined
    for name in ("magnitude", "den_max"):
        known = [c.__dict__.get(name) for c in present]
        if None not in known:
            joined.__dict__[name] = max(known)
    return joined


def run_rows(scalars: dict[str, Column], vectors: dict[str, VectorColumn], origin: Origin,
             iteration: IntArray) -> InstanceBatch:
    """The rows of one run: its columns, one origin, each row's iteration inside the run."""
    n = len(iteration)
    return InstanceBatch(scalars, vectors, (origin,), np.zeros(n, dtype=np.int64),
                         np.asarray(iteration, dtype=np.int64))
