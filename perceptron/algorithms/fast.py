"""The speed path: the perceptron on integers, in machine words while a bound proves it exact.

**Scaling.** Rational examples are multiplied by one common denominator `s` (`IntegerForm`), so
`X[i] = rows[i] / s` with integer `rows`. The iterate is kept as `w = unit * W` with an integer
vector `W` and a positive rational `unit` chosen so that `w0 = unit * W0` and the update
`w += eta * y * x` becomes `W += E * y * rows[i]` with a positive integer `E` (with `w0 = 0`:
`unit = eta / s`, `E = 1`). Since `unit / s > 0`, `y <w, x>` and `y <W, rows[i]>` have the same
sign: every decision is the decision of the rational run. Results go back to the original scale
as exact `Fraction`s.

**Arithmetic tiers, chosen before every epoch from a bound proved for the current state.**
Write `Z[i] = y_i * rows[i]`, `R2 = max ||Z[i]||^2` and `N2 = ||W||^2` at the start of the epoch.
An update only happens when `<W, Z[i]> <= 0`, so it gives
`||W + E Z[i]||^2 = ||W||^2 + 2E <W, Z[i]> + E^2 ||Z[i]||^2 <= ||W||^2 + E^2 R2` (Novikoff's
argument): during an epoch of at most `n` updates `||W||^2 <= N2 + n E^2 R2 =: B2`. Every partial
sum of a dot product `<W, Z[j]>`, in any order, is at most `sum_k |W_k Z[j]_k| <= ||W|| ||Z[j]||`
(Cauchy–Schwarz on absolute values), so every intermediate integer is below `sqrt(B2 * R2)` and
every coordinate below `sqrt(B2)`.

- `float64` when `B2 * R2 < 2**106` (and `B2, R2 < 2**106`): every value is an integer below
  `2**53`, which float64 represents exactly, and IEEE-754 addition, multiplication and fused
  multiply-add of such values are exact whenever the exact result is itself below `2**53` in
  magnitude. So BLAS computes the *exact* integer margins, whatever its summation order; float64
  is a container for exact integers here, never an approximation, and a comparison of two of
  its values is a comparison of exact integers.
- `int64` (numpy's integer matmul) when the same bound is below `2**126` (values below `2**63`).
- exact Python integers (numpy object arrays) beyond that.

Tiers only move up during a run (a downgrade would be sound but would copy the data twice).
The same bound certifies whole blocks of epochs: epoch `j` from here starts with
`||W||^2 <= N2 + j n E^2 R2`, so `certified_epochs` says how many stay in the tier, and the
compiled loop (`perceptron.algorithms.compiled`, numba) runs that many epochs in one call, examples
in their narrowest integer dtype, on exactly the tiers the epoch-by-epoch engine would choose.

**Finding mistakes.** Within an epoch the margin of example `j` depends on every earlier update,
so the loop is sequential in the mistakes but not in the examples: compute the exact margins of a
window of the next `L` examples in one matrix-vector product, take the first one that triggers an
update (`argmax` of a boolean mask), update `W`, and restart the window just after it; a window
without mistakes is skipped whole and the next window is twice as long (in Python integers, where
each product costs more than the call, the window after a mistake is about twice the distance to
it, not `L`). A small problem (`PYTHON_CELLS`) runs whole blocks of epochs on Python integers
instead, as the compiled loop does (numpy's per-call cost is most of its epoch). For small `n`
and many mistakes (many epochs, `d` much larger than `n`), `DualEngine` precomputes the signed
Gram matrix once and updates all `n` margins with one row addition per mistake
(`run_online(..., engine="dual")`; the kernel perceptron always runs this way).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, reduce
from itertools import chain
from math import gcd, lcm
from operator import add, mul

import numpy as np

from perceptron.algorithms import compiled as jit
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError

#: Squared limits: a tier is usable while (bound on every intermediate)**2 is below these.
FLOAT_LIMIT2 = 2**106
INT64_LIMIT2 = 2**126
TIERS = ("float64", "int64", "object")

#: Largest common denominator accepted (in bits): a guard against hostile data whose distinct
#: denominators multiply out to numbers too large to compute with.
MAX_SCALE_BITS = 1 << 20


# ---- integer form of a dataset --------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class IntegerForm:
    """`X[i] == rows[i] / scale` exactly; `rows` is int64 when every entry fits, else object.

    With `bias`, a last column equal to `scale` (the constant feature 1) is appended.
    """

    rows: np.ndarray
    scale: int
    y: np.ndarray
    max_abs: int
    bias: bool

    @property
    def n(self) -> int:
        """Number of examples."""
        return int(self.rows.shape[0])

    @property
    def d(self) -> int:
        """Number of columns (the bias column included)."""
        return int(self.rows.shape[1])

    def signed(self) -> np.ndarray:
        """`Z[i] = y_i * rows[i]`, in the dtype of `rows`."""
        if self.rows.dtype == object:
            return self.rows * self.y.astype(object)[:, None]
        return self.rows * self.y[:, None]

    def radius2(self) -> int:
        """`max_i ||rows[i]||^2`, exactly (computed once per form: a scenario's runs of every
        algorithm, and every row set of each, ask it of the same cached form)."""
        return self._radius2

    def margin(self, u: Vector) -> Fraction:
        """`min_i y_i <u, x_i>` exactly (`x_i = rows[i] / scale`), computed once per form and
        `u`: a scenario's runs of every algorithm on the same data and separator (the
        perceptron's, the margin perceptron's at each beta, the batch runs from each start)
        each asked it of the same cached form, a product with every example each time."""
        for kept, found in self._margins:  # the same object first: no Fraction compared
            if kept is u or kept == u:
                return found
        U, D = integer_vector(u)
        margins = exact_matvec(self.rows, U, self.max_abs)
        found = Fraction(min(m * y for m, y in zip(margins, self.y.tolist(), strict=True)),
                         D * self.scale)
        if len(self._margins) >= KEPT_MARGINS:
            del self._margins[0]
        self._margins.append((u, found))
        return found

    @cached_property
    def _margins(self) -> list[tuple[Vector, Fraction]]:
        """The margins computed, with their `u`: a list, not a dict keyed by `u`, since
        hashing a vector hashes each Fraction (a campaign's thousands of small runs spent
        more on those hashes than on the margins), and a form meets one `u` or a few."""
        return []

    @cached_property
    def signed_once(self) -> np.ndarray:
        """`signed()` made once per form (a scenario's batch runs from each start read it;
        never written)."""
        return self.signed()

    @cached_property
    def signed_gram(self) -> list[list[int]]:
        """`G[i][j] = <Z[i], Z[j]>` of the signed rows as Python ints (`gram`), made once per
        form: the batch perceptron's margins move by `G @ 1_M` per iteration, which costs
        `n |M|` additions instead of the `n d` products of `Z @ xbar`."""
        return gram(self.signed_once, self.max_abs).tolist()

    @cached_property
    def _radius2(self) -> int:
        if self.rows.dtype != object and self.max_abs**2 * max(self.d, 1) < 2**63:
            return int(np.einsum("ij,ij->i", self.rows, self.rows).max())
        return max(sum(map(mul, row, row)) for row in self.rows.tolist())


#: The most margins an integer form keeps (`IntegerForm.margin`), the latest.
KEPT_MARGINS = 8


def integer_arrays(X: np.ndarray, y: np.ndarray, *, bias: bool = False) -> IntegerForm:
    """The integer form of integer arrays `X` (n, d) and labels `y` in {-1, +1} (scale 1)."""
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise DataError(f"X must be a non-empty 2-D array, not of shape {X.shape}")
    if X.dtype.kind not in "iu" and X.dtype != object:
        raise DataError(f"X must hold integers (dtype {X.dtype}); load other data as a Dataset")
    if y.shape != (X.shape[0],) or not (np.abs(y) == 1).all():
        raise DataError("y must hold one label -1 or +1 per example")
    # -2**63 is an int64 whose magnitude is not: `y * rows` (y = -1) and every bound
    # would wrap, so such data go to Python ints like data beyond int64
    huge = (X.dtype == object or (X.dtype.kind == "u" and int(X.max()) >= 2**63)
            or (X.dtype.kind == "i" and int(X.min()) < -(2**63 - 1)))
    rows = X.astype(object) if huge else np.asarray(X, dtype=np.int64)
    if bias:
        rows = np.hstack([rows, np.ones((rows.shape[0], 1), dtype=rows.dtype)])
    return IntegerForm(rows, 1, y.astype(np.int64), max(_max_abs(rows), 1 if bias else 0), bias)


_FORMS: dict[tuple[int, bool], tuple[weakref.ref, IntegerForm]] = {}


def integer_form(data: Dataset, *, bias: bool = False) -> IntegerForm:
    """The integer form of `data` (cached per dataset object while it lives)."""
    key = (id(data), bias)
    hit = _FORMS.get(key)
    if hit is not None and hit[0]() is data:
        return hit[1]
    if bias:
        base = integer_form(data)
        # a scale beyond int64 makes the column Python ints (np.full cannot hold it in int64)
        wide = base.rows.dtype == object or base.scale >= 2**63
        column = np.full((base.n, 1), base.scale, dtype=object if wide else base.rows.dtype)
        rows = np.hstack([base.rows.astype(column.dtype), column])
        form = IntegerForm(rows, base.scale, base.y, max(base.max_abs, base.scale), True)
    else:
        form = _integer_form(data)
    _FORMS[key] = (weakref.ref(data, lambda _ref, key=key: _FORMS.pop(key, None)), form)
    return form


def _remember(data: Dataset, form: IntegerForm) -> None:
    """Cache `form` as the integer form of `data` (no bias) while `data` lives."""
    key = (id(data), False)
    _FORMS[key] = (weakref.ref(data, lambda _ref, key=key: _FORMS.pop(key, None)), form)


_AUGMENTED: dict[int, tuple[weakref.ref, Dataset]] = {}


def augmented(data: Dataset) -> Dataset:
    """`data.augmented()` (a constant 1 appended to every example), made once per dataset
    object while it lives, with its integer form taken from `data`'s: the same form its
    Fractions give (the 1s are `scale`), without a pass over them."""
    hit = _AUGMENTED.get(id(data))
    if hit is not None and hit[0]() is data:
        return hit[1]
    out = data.augmented()
    biased = integer_form(data, bias=True)
    _remember(out, IntegerForm(biased.rows, biased.scale, biased.y, biased.max_abs, False))
    key = id(data)
    _AUGMENTED[key] = (weakref.ref(data, lambda _ref, key=key: _AUGMENTED.pop(key, None)), out)
    return out


def divided(data: Dataset, factor: Fraction) -> Dataset:
    """`data` with every example divided by `factor > 0` (a zero stays the zero it is), with
    its integer form taken from `data`'s: `x = rows / scale` divided by `c / q` is
    `rows q / (scale c)`, over the least common denominator `scale c / g` for g the gcd of
    `scale c` and every `rows q` (the form its Fractions give, without a pass over them)."""
    if factor <= 0:
        raise ValueError(f"the factor must be positive, not {factor}")
    base = integer_form(data)
    q, c = factor.denominator, factor.numerator
    if q == 1:
        rows = base.rows
    elif base.rows.dtype != object and base.max_abs * q < 2**63 and q < 2**63:
        rows = base.rows * q
    else:
        rows = base.rows.astype(object) * q
    scale = base.scale * c
    g = gcd(scale, *rows.ravel().tolist())
    if g > 1:
        # beyond int64, g divides int64 rows only when they are all 0 (numpy cannot divide)
        rows = rows // g if rows.dtype == object or g < 2**63 else np.zeros_like(rows)
        scale //= g
    top = base.max_abs * q // g
    if rows.dtype == object and top < 2**63:
        rows = rows.astype(np.int64)
    out = Dataset(_rationals(rows, scale), data.y, data.name)
    if scale.bit_length() <= MAX_SCALE_BITS:  # else its Fractions' form refuses it, as ever
        _remember(out, IntegerForm(rows, scale, base.y, top, False))
    return out


def scaled_dataset(rows: Sequence[Sequence[int]], scale: int, y: Sequence[int],
                   name: str) -> Dataset:
    """The dataset of the examples `rows[i] / scale` (Python ints over their least common
    denominator: `gcd(scale, every entry) == 1`, checked), with its integer form remembered
    for the engine: the form `integer_form` builds from its Fractions (same scale, rows,
    dtype and bound), without a pass over them. A generator that computes its examples in
    integers (the online adversary) makes its dataset here instead of a Fraction per
    product and a conversion back. Its Fractions are made when first read (`ScaledDataset`),
    one per distinct integer: a campaign's runs read the integer form only."""
    flat = list(chain.from_iterable(rows))
    if scale < 1 or gcd(scale, *flat) != 1:
        raise ValueError(f"{scale} is not the least common denominator of these rows")
    return _scaled(rows, scale, max(map(abs, flat), default=0), y, name)


def least_dataset(rows: Sequence[Sequence[int]], common: int, y: Sequence[int],
                  name: str) -> Dataset:
    """The dataset of the examples `rows[i] / common`, integer rows over any positive
    common denominator, brought to their least one (`common` and every entry divided by
    their gcd), as `scaled_dataset` makes it: the one reduction the generators (planted,
    tight, the adversary) each made before `scaled_dataset`, whose check then took the
    same gcd over every entry again (a tenth of an adversary game of b = 30 rounds, ~1800
    big integers)."""
    if common < 1:
        raise ValueError(f"the common denominator must be positive, not {common}")
    if len(rows) * len(rows[0] if rows else ()) > LEAST_CELLS:
        table = _int64_table(rows)
        if table is not None:
            return _least_table(table, common, y, name)
    flat = list(chain.from_iterable(rows))
    g = gcd(common, *flat)
    top = max(map(abs, flat), default=0)
    if g > 1:  # g divides every entry: the largest magnitude over g is the reduced one's
        rows = [[v // g for v in row] for row in rows]
        common, top = common // g, top // g
    return _scaled(rows, common, top, y, name)


#: A table of more cells than this is brought to its least common denominator in int64 by
#: numpy when every entry fits (`least_dataset`): an adversary's game of b rounds has about
#: 3 b^2 cells (2 700 at b = 30), and its reduction as Python ints, a quotient per cell,
#: was a third of the game's time; the campaign's planted and tight tables (a few dozen
#: cells) cost more in numpy's calls than in Python's.
LEAST_CELLS = 256


def _int64_table(rows: Sequence[Sequence[int]]) -> np.ndarray | None:
    """`rows` as a 2-D int64 array, or None when they are not a non-empty table of
    integers whose magnitudes all fit int64 (numpy refuses an integer past int64 rather
    than wrap it; -2**63, whose magnitude does not fit, is refused here): then
    `least_dataset` takes them as Python ints, as before."""
    try:
        table = np.array(rows, dtype=np.int64)
    except (OverflowError, ValueError, TypeError):
        return None
    if table.ndim != 2 or table.size == 0:
        return None
    if int(np.minimum.reduce(table, axis=None)) < -(2**63 - 1):
        return None
    return table


def _least_table(table: np.ndarray, common: int, y: Sequence[int], name: str) -> Dataset:
    """`least_dataset` of an int64 table (`_int64_table`): the same gcd, quotients, largest
    magnitude and dataset, each by one numpy call instead of a Python pass over the cells."""
    g = gcd(common, int(np.gcd.reduce(table, axis=None)))
    if g > 1:  # g divides every entry, at most the largest of them unless they are all 0
        table = table // g if g < 2**63 else np.zeros_like(table)
        common //= g
    top = max(int(np.maximum.reduce(table, axis=None)), -int(np.minimum.reduce(table, axis=None)))
    return _dataset_of(table, common, top, y, name)


def _scaled(rows: Sequence[Sequence[int]], scale: int, top: int, y: Sequence[int],
            name: str) -> Dataset:
    """`scaled_dataset` of rows over their least common denominator `scale`, the largest
    magnitude among them `top`."""
    return _dataset_of(np.array(rows, dtype=np.int64 if top < 2**63 else object), scale, top,
                       y, name)


def _dataset_of(table: np.ndarray, scale: int, top: int, y: Sequence[int],
                name: str) -> Dataset:
    """`_scaled` of the rows already in an array (int64 when `top < 2**63`, else object)."""
    if table.ndim != 2 or table.size == 0:
        raise DataError("empty data: no examples", source=name)
    data = ScaledDataset.of(table, scale, tuple(y), name)
    _remember(data, IntegerForm(table, scale, np.array(data.y, dtype=np.int64), top, False))
    return data


class _LazyExamples:
    """`ScaledDataset.X`: the examples as Fractions (`_rationals` of its integer table),
    made at the first read and kept in the instance (a non-data descriptor: the instance's
    own `X`, once there, is found first)."""

    def __get__(self, instance: ScaledDataset | None, owner: type | None = None
                ) -> tuple[Vector, ...]:
        if instance is None:
            return self  # type: ignore[return-value]
        X = instance.__dict__["X"] = _rationals(instance._table, instance.scale())
        return X


class ScaledDataset(Dataset):
    """A `Dataset` whose examples are `table[i] / scale` (integers over their least common
    denominator; `scaled_dataset`), its Fractions made only when `X` is first read. The
    same dataset as the one of those Fractions: equal to it, the same hash and size, its
    integer form the same (`integer_form`, remembered). The online adversary's games made
    a Fraction per distinct value of tens of coordinates per round (about a third of a
    game's time), which a campaign's runs never read: they read the integer form."""

    X = _LazyExamples()  # type: ignore[assignment]
    _table: np.ndarray

    @classmethod
    def of(cls, table: np.ndarray, scale: int, y: tuple[int, ...], name: str
           ) -> ScaledDataset:
        """The dataset of `table / scale` (a 2-D integer array, `scale` their least common
        denominator) and labels `y`, checked as `Dataset` checks its own (the entries are
        integers by construction: their Fractions are exact)."""
        if len(table) != len(y):
            raise DataError(f"{len(table)} examples but {len(y)} labels", source=name)
        for i, label in enumerate(y):
            if label not in (-1, 1):
                raise DataError(f"label {label!r} of example {i} is not -1 or +1", source=name)
        data = object.__new__(cls)
        # a frozen dataclass's fields, set as its own __init__ sets them; `_scale` is the
        # cached least common denominator (`Dataset.scale`)
        data.__dict__.update(y=y, name=name, _table=table, _scale=scale)
        return data

    @property
    def n(self) -> int:
        """Number of examples (from the integers: without making the Fractions)."""
        table = self.__dict__.get("_table")  # none in a copy made by `dataclasses.replace`
        return int(table.shape[0]) if table is not None else len(self.X)

    @property
    def d(self) -> int:
        """Number of features (from the integers: without making the Fractions)."""
        table = self.__dict__.get("_table")
        return int(table.shape[1]) if table is not None else len(self.X[0])

    def __repr__(self) -> str:
        """The repr of the equal `Dataset` (what a report or a message shows of it is the
        same whichever of the two a generator made)."""
        return repr(Dataset(self.X, self.y, self.name))

    def __eq__(self, other: object) -> bool:
        """Equal to any `Dataset` of the same examples, labels and name (a dataclass's own
        equality would hold only between two of the same class)."""
        if not isinstance(other, Dataset):
            return NotImplemented
        return (self.X, self.y, self.name) == (other.X, other.y, other.name)

    __hash__ = Dataset.__hash__


def _rationals(rows: np.ndarray, scale: int) -> tuple[Vector, ...]:
    """The examples `rows / scale` as Fractions, one Fraction made per distinct integer
    (`divided`: the adversary's and the planted data's rows repeat a few values, half of
    them zeros, and a division of Fractions per cell cost more than the run made on them)."""
    n, d = rows.shape
    if d == 0:
        return ((),) * n
    values, codes = np.unique(rows, return_inverse=True)
    table = [Fraction(v, scale) for v in values.tolist()]
    cells = list(map(table.__getitem__, codes.reshape(-1).tolist()))
    return tuple(tuple(cells[i:i + d]) for i in range(0, n * d, d))


def _integer_form(data: Dataset) -> IntegerForm:
    flat = list(chain.from_iterable(data.X))
    if len(flat) <= FEW_CELLS:
        return _form_of(data, flat, None)
    # Loaders share one Fraction object per distinct value: convert each object once (ids are
    # unique here, every object being alive in `data`).
    ids = list(map(id, flat))
    by_id = dict(zip(ids, flat, strict=True))
    slot = {key: k for k, key in enumerate(by_id)}
    distinct = list(by_id.values())
    index = np.fromiter(map(slot.__getitem__, ids), dtype=np.int64, count=len(ids))
    return _form_of(data, distinct, index)


#: A dataset of at most this many cells has its integer form made cell by cell
#: (`_integer_form`): finding its distinct Fraction objects first cost more than converting
#: them all (the campaign's planted and tight datasets, a few dozen cells each).
FEW_CELLS = 256


def _form_of(data: Dataset, distinct: Sequence[Fraction], index: np.ndarray | None
             ) -> IntegerForm:
    """The integer form of `data` whose cells, row-major, are `distinct[index[k]]` (every
    distinct value used): each distinct value converted once, then gathered by index
    (`index` None: `distinct` is every cell, row-major)."""
    scale = 1
    for q in {v.denominator for v in distinct}:
        if scale % q:
            scale = lcm(scale, q)
            if scale.bit_length() > MAX_SCALE_BITS:
                raise DataError(f"the examples' common denominator has more than "
                                f"{MAX_SCALE_BITS} bits: exact arithmetic on these data is "
                                "impractical", source=data.name)
    ints = ([v.numerator for v in distinct] if scale == 1
            else [v.numerator * (scale // v.denominator) for v in distinct])
    top = max(map(abs, ints), default=0)  # no cell: examples of no feature (red team 35)
    y = np.array(data.y, dtype=np.int64)
    if top < 2**63:
        rows = np.array(ints, dtype=np.int64)
    else:
        rows = np.empty(len(ints), dtype=object)
        rows[:] = ints
    if index is not None:
        rows = rows[index]
    return IntegerForm(rows.reshape(data.n, data.d), scale, y, top, False)


def remember_integer_form(data: Dataset, distinct: Sequence[Fraction], codes: np.ndarray
                          ) -> None:
    """Cache the integer form of `data` from a loader's table: `data.X[i][j]` is
    `distinct[codes[i, j]]`. A loader that parsed each distinct cell once has these for
    free, so a run on what it loaded skips the pass over every cell's Fraction (the same
    form `integer_form` would build: same scale, rows, bound)."""
    flat = codes.reshape(-1)
    used = np.flatnonzero(np.bincount(flat, minlength=len(distinct)))  # labels drop out
    renumber = np.zeros(len(distinct), dtype=np.int64)
    renumber[used] = np.arange(len(used))
    _remember(data, _form_of(data, [distinct[k] for k in used.tolist()], renumber[flat]))


def remember_integer_arrays(data: Dataset, X: np.ndarray) -> None:
    """Cache the integer form of `data` whose coordinates are the integers `X` (n x d, any
    integer dtype; the caller made `data.X` of them): `integer_arrays`' form of `X` and the
    labels, which is the one `integer_form` builds from the Fractions (scale 1, the same
    rows, labels and bound), without a pass over them (a source of many small integer
    datasets, `verify.numeric.unit_margin`, makes its points as integers first)."""
    _remember(data, integer_arrays(X, np.array(data.y, dtype=np.int64)))


def integer_vector(w: Sequence[Fraction]) -> tuple[list[int], int]:
    """`w == W / D` with integer `W` and positive integer `D` (the least common denominator).
    Each denominator read once, and none divided when D is 1 (a Fraction's numerator and
    denominator are properties: a verifier's campaign asks this of thousands of small
    separators, mostly integers)."""
    dens = [v.denominator for v in w]
    D = lcm(*dens) if dens else 1
    if D == 1:
        return [v.numerator for v in w], 1
    return [v.numerator * (D // q) for v, q in zip(w, dens, strict=True)], D


def exact_matvec(rows: np.ndarray, vector: Sequence[int], max_abs: int | None = None) -> list[int]:
    """`rows @ vector` exactly, as Python ints: int64 when a bound allows it; an int64
    matrix and a vector of big integers in int64 limbs (`_limbed_matvec`); else object."""
    top = max_abs if max_abs is not None else _max_abs(rows)
    vec_l1 = sum(map(abs, map(int, vector)))
    if rows.dtype != object and top * vec_l1 < 2**63 and vec_l1 < 2**63:
        return (rows @ np.array(vector, dtype=np.int64)).tolist()
    if rows.dtype != object and rows.size \
            and (bits := 62 - (top * rows.shape[1]).bit_length()) >= MIN_LIMB_BITS:
        return _limbed_matvec(rows, [int(v) for v in vector], bits)
    obj = np.empty(len(vector), dtype=object)
    obj[:] = [int(v) for v in vector]
    # no copy of rows of Python ints already (the batch perceptron's, every iteration)
    return list(rows.astype(object, copy=False) @ obj) if rows.size else [0] * rows.shape[0]


#: The narrowest limbs `exact_matvec` cuts a vector into (narrower ones would be so many that
#: the object product is as fast).
MIN_LIMB_BITS = 16


def _limbed_matvec(rows: np.ndarray, vector: list[int], bits: int) -> list[int]:
    """`rows @ vector` for an int64 matrix of entries at most `top` in magnitude, `d`
    columns, and a vector of big integers, with `bits = 62 - bitlength(top * d)`: each entry
    cut into limbs of `bits` bits carrying its sign, `v = sum_k v_k 2^(bits k)`, so each
    limb column's products sum in int64 exactly (`|sum_j r_j v_jk| <= top d (2^bits - 1) <
    2^62`), and only the few limb sums of a row are recombined as Python ints. The batch
    perceptron's iterates grow to hundreds of bits on small-integer data, where the object
    product made a big-integer product per entry."""
    count = -(-max(abs(v) for v in vector).bit_length() // bits)
    mask = (1 << bits) - 1
    limbs = np.array([[(abs(v) >> (bits * k) & mask) * (1 if v >= 0 else -1)
                       for k in range(count)] for v in vector], dtype=np.int64)
    scales = np.empty(count, dtype=object)
    scales[:] = [1 << (bits * k) for k in range(count)]
    return list((rows @ limbs).astype(object) @ scales)


def exact_combination(coefficients: Sequence[int], rows: np.ndarray,
                      max_abs: int | None = None) -> list[int]:
    """`coefficients @ rows` (a combination of the rows) exactly, as Python ints."""
    top = max_abs if max_abs is not None else _max_abs(rows)
    l1 = sum(map(abs, map(int, coefficients)))
    if rows.dtype != object and top * l1 < 2**63 and l1 < 2**63:
        return (np.array(coefficients, dtype=np.int64) @ rows).tolist()
    if rows.dtype != object:  # big coefficients of int64 rows: in int64 limbs (`exact_matvec`)
        return exact_matvec(rows.T, coefficients, top)
    obj = np.empty(len(coefficients), dtype=object)
    obj[:] = [int(c) for c in coefficients]
    return list(obj @ rows.astype(object, copy=False)) if rows.size else [0] * rows.shape[1]


def _max_abs(a: np.ndarray) -> int:
    if a.size == 0:
        return 0
    if a.dtype == object:
        return max(abs(v) for v in a.flat)
    return max(int(a.max()), -int(a.min()))  # exact, even for -2**63


def separates_integer(form: IntegerForm, W: Sequence[int]) -> bool:
    """Whether `y_i <W, rows[i]> > 0` for every i, decided on exact integers."""
    margins = exact_matvec(form.rows, W, form.max_abs)
    return all(m * yi > 0 for m, yi in zip(margins, form.y.tolist(), strict=True))


# ---- the problem in integer form -------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Problem:
    """An online run in integer form: `W += E * Z[i]` whenever `<W, Z[i]> < q[i]`.

    `q[i]` is 1 when a zero margin updates example i (so `< 1` means `<= 0`) and 0 otherwise;
    `w = unit * W` in the original scale.
    """

    form: IntegerForm
    Z: np.ndarray
    q: np.ndarray
    W0: tuple[int, ...]
    E: int
    unit: Fraction

    @cached_property
    def R2(self) -> int:
        """`max_i ||rows[i]||^2` (`IntegerForm.radius2`), made when first read: a small
        run's own loop never reads it (`perceptron.algorithms.online._small_trace`), and a
        campaign reads it of thousands of such runs together (a caller that knows it
        exactly may store it here first)."""
        return self.form.radius2()

    @classmethod
    def build(cls, data: Dataset, conventions: Conventions) -> Problem:
        """Scale `data` and `conventions` to integers (see the module docstring)."""
        return cls.of_form(integer_form(data, bias=conventions.bias), conventions)

    @classmethod
    def of_form(cls, form: IntegerForm, conventions: Conventions) -> Problem:
        """The run of `conventions` on examples already in integer form."""
        if conventions.w0 is None:  # the zero start: no pass over a wide iterate's zeros
            # the largest rational dividing the one positive `step` into an integer is
            # `step` itself (`_rational_gcd([step])`), so E is 1
            return cls(form, form.signed(), _thresholds(conventions, form.y),
                       (0,) * form.d, 1, _step(conventions.eta, form.scale))
        step = conventions.eta / form.scale
        w0 = conventions.initial(form.d)
        unit = _rational_gcd([step, *(v for v in w0 if v)])
        W0 = tuple(int(v / unit) for v in w0)
        E = step / unit
        assert E.denominator == 1
        return cls(form, form.signed(), _thresholds(conventions, form.y), W0, int(E), unit)

    @property
    def n(self) -> int:
        """Number of examples."""
        return self.form.n

    @property
    def d(self) -> int:
        """Number of coordinates of the iterate."""
        return self.form.d

    def uniform_q(self) -> int | None:
        """The common threshold when every example has the same one."""
        first = int(self.q[0])
        return first if bool((self.q == first).all()) else None

    def to_rational(self, W: Sequence[int]) -> Vector:
        """`unit * W` as exact Fractions, one Fraction per distinct value (they are
        immutable): a wide iterate repeats a few small integers, and making a Fraction
        costs a gcd, so a million coordinates cost a million dictionary lookups instead."""
        p, r = self.unit.numerator, self.unit.denominator
        made: dict[int, Fraction] = {}
        values = [int(v) for v in (W.tolist() if isinstance(W, np.ndarray) else W)]
        return tuple([made[v] if v in made else made.setdefault(v, Fraction(p * v, r))
                      for v in values])


def _step(eta: Fraction, scale: int) -> Fraction:
    """`eta / scale`, the unit of a run from the zero start (`Problem.of_form`), remembered
    per learning rate and scale (`STEPS` of them): a campaign's thousands of small runs
    share a few of each, and a Fraction's division and normalisation were a sixth of
    making such a run's `Problem`. Fractions are immutable, so one serves every run."""
    key = (eta.numerator, eta.denominator, scale)
    found = _STEPS.get(key)
    if found is None:
        if len(_STEPS) >= STEPS:
            _STEPS.clear()
        found = _STEPS[key] = eta / scale
    return found


#: The most units `_step` remembers (then it starts again).
STEPS = 1024
_STEPS: dict[tuple[int, int, int], Fraction] = {}


def _thresholds(conventions: Conventions, y: np.ndarray) -> np.ndarray:
    """`Problem.q`: per example, 1 when a zero margin updates its label `y`, else 0."""
    plus, minus = (_at_zero(conventions.rule, conventions.sign_zero)
                   if type(conventions) is Conventions else
                   (int(conventions.updates_at_zero(label)) for label in (1, -1)))
    if plus == minus:  # both labels alike, unless the rule is "mistake" with sign(0) = +-1
        return np.full(len(y), plus, dtype=np.int64)
    return np.where(y == 1, plus, minus).astype(np.int64)


@cache
def _at_zero(rule: str, sign_zero: int) -> tuple[int, int]:
    """Whether a zero margin updates label +1 and label -1 (1 or 0) under `rule` and
    `sign_zero` (`Conventions.updates_at_zero`, which reads only these two), once per pair:
    asked for every run's `Problem` (a subclass, which may rule otherwise, is asked itself)."""
    conventions = Conventions(rule, sign_zero)
    return int(conventions.updates_at_zero(1)), int(conventions.updates_at_zero(-1))


def _rational_gcd(values: Sequence[Fraction]) -> Fraction:
    """The largest positive rational dividing every value into an integer."""
    common = lcm(*(v.denominator for v in values))
    g = reduce(gcd, (abs(v.numerator) * (common // v.denominator) for v in values), 0)
    return Fraction(g, common)


def certified_epochs(N2: int, growth: int, R2: int, tier: int) -> int | None:
    """How many epochs, starting from `||W||^2 = N2`, stay in `tier` by Novikoff's bound.

    Epoch `j` (0-based) starts with `||W||^2 <= N2 + j * growth` (`growth = n E^2 R2`, the
    most one epoch can add) and keeps `||W||^2 <= B2_j = N2 + (j + 1) * growth` throughout;
    the tier holds while `max(B2_j * R2, B2_j, R2)` is below its limit. So epochs
    `0 .. m - 1` are certified for the largest such `m` (at least 1 when the current epoch
    is; None when nothing bounds it: the object tier, or data that never move `W`).
    """
    if tier == 2 or growth == 0:
        return None
    limit = (FLOAT_LIMIT2, INT64_LIMIT2)[tier]
    top = (limit - 1) // max(R2, 1)  # the largest B2 allowed (B2 * R2 < limit and B2 < limit)
    epochs = (top - N2) // growth
    assert epochs >= 1, 'the tier was chosen for this epoch'
    return epochs


def _tier_for(bound2: int) -> int:
    if bound2 < FLOAT_LIMIT2:
        return 0
    return 1 if bound2 < INT64_LIMIT2 else 2


def _as_tier(a: np.ndarray, tier: int) -> np.ndarray:
    dtype = (np.float64, np.int64, object)[tier]
    if a.dtype == dtype:
        return a
    if tier == 2:
        if a.dtype == np.float64:
            a = a.astype(np.int64)
        return a.astype(object)
    return np.ascontiguousarray(a.astype(dtype))


def _ints(a: np.ndarray) -> list[int]:
    """Exact Python ints of an array of any tier."""
    if a.dtype == np.float64:
        a = a.astype(np.int64)
    return [int(v) for v in a.tolist()]


def _norm2(a: np.ndarray) -> int:
    """`sum(a_k**2)` exactly, in int64 when that provably cannot overflow."""
    if a.dtype != object and a.size:
        top = int(np.abs(a).max())  # exact: entries are integers below 2**63 in magnitude
        if top * top * a.size < 2**63:
            b = a.astype(np.int64)
            return int((b * b).sum())
    return sum(v * v for v in _ints(a))


def _max_abs_tiered(a: np.ndarray) -> int:
    """`max |a_k|` exactly for an array of any tier (float64 entries are exact integers)."""
    if a.size == 0:
        return 0
    if a.dtype == object:
        return max(abs(v) for v in a.tolist())
    return int(np.abs(a).max())


# ---- engines -------------------------------------------------------------------------------


@dataclass
class CycleState:
    """Brent's cycle detection on the states at the start of epochs: the saved state, the
    epoch it was saved at, the current power of two and the distance travelled since."""

    saved: object
    saved_epoch: int = 1
    power: int = 1
    lam: int = 0

    def repeats(self, engine: object, epoch: int) -> int | None:
        """The earlier epoch whose starting state the current state repeats, if found (the
        compiled loop does exactly this, on the same fields)."""
        if engine.same_state(self.saved):  # type: ignore[attr-defined]
            return self.saved_epoch
        self.lam += 1
        if self.lam == self.power:
            self.saved = engine.state()  # type: ignore[attr-defined]
            self.saved_epoch = epoch
            self.power *= 2
            self.lam = 0
        return None


@dataclass(frozen=True)
class Block:
    """Consecutive epochs `first_epoch, ...`: the updates of each (`counts`), the positions
    that updated in order (None when not recorded), and why the block ended: `ran` (as many
    epochs as asked), `converged` (its last epoch made no update) or `cycled` (the state at
    the start of the epoch after it repeats an earlier one: `CycleState.saved_epoch`)."""

    first_epoch: int
    counts: np.ndarray
    indices: np.ndarray | None
    status: str = "ran"


BLOCK_STATUS = ("ran", "converged", "cycled")  # indexed by the compiled kernel's status
#: Most cells `n * d` of a problem whose epochs run on Python integers (`PrimalEngine`): below
#: it numpy's per-call cost is more than the products.
PYTHON_CELLS = 128
#: Most epochs of one such block (the driver decides between blocks whether to compile).
PYTHON_BLOCK = 256


class PrimalEngine:
    """Cyclic epochs on `W`, with windows of exact margins (see the module docstring), or in
    the compiled loop (`compiled=True`: `run_block`, on the machine-integer tiers; None: not
    yet, the driver decides when, `perceptron.algorithms.online.promote_now`).
    """

    def __init__(self, problem: Problem, *, window: int | None = None,
                 compiled: bool | None = False) -> None:
        self.problem = problem
        self.compiled = compiled
        self._Zc: np.ndarray | None = None
        self._rows: list[tuple[list[int], list[int], int]] | None = None
        self._qc: np.ndarray | None = None
        self.tier = -1
        self._arrays_tier = -1
        self.tiers_used: list[str] = []
        # int64 when w0 fits (it does from 0): the first tier is chosen from ||W||^2, which
        # an int64 array computes without a Python pass over a wide iterate
        top = max(map(abs, problem.W0), default=0) if any(problem.W0) else 0
        self.W = (np.zeros(len(problem.W0), dtype=np.int64) if not top
                  else np.array(problem.W0, dtype=np.int64 if top < 2**62 else object))
        d = max(problem.d, 1)
        self.window = window or int(min(256, max(16, 6144 // d)))
        self._Z: np.ndarray = problem.Z
        self._steps: np.ndarray = problem.Z
        self._q = problem.uniform_q()

    def _prepare(self) -> int | None:
        """Choose the tier for the epoch about to start; return how many epochs from here the
        bound certifies in it (None: unbounded, exact Python integers or nothing moves)."""
        if self.tier == 2:
            return None  # exact Python integers already: nothing can overflow
        N2 = _norm2(self.W)
        self._choose_tier(N2)
        self._arrays_in_tier()
        p = self.problem
        return certified_epochs(N2, p.n * p.E * p.E * p.R2, p.R2, self.tier)

    def _choose_tier(self, N2: int) -> None:
        """The tier of an epoch starting from `||W||^2 = N2` (tiers only move up)."""
        p = self.problem
        growth = p.n * p.E * p.E * p.R2  # the most ||W||^2 can grow in one epoch
        B2 = N2 + growth
        # E itself is a value of the tier (the steps E * Z are formed in it): with R2 >= 1
        # E^2 <= B2 already, but on all-zero data (R2 = 0) nothing else bounds it
        tier = max(self.tier, _tier_for(max(B2 * p.R2, B2, p.R2, p.E * p.E)))
        if tier != self.tier:
            self.tier = tier
            self.tiers_used.append(TIERS[tier])

    def _arrays_in_tier(self) -> None:
        """`W`, `Z` and the steps in the current tier's dtype."""
        tier, p = self.tier, self.problem
        if tier != self._arrays_tier:
            self._arrays_tier = tier
            self._Z = _as_tier(p.Z, tier)
            self.W = _as_tier(self.W, tier)  # exact: the tier holds every value (no list)
            self._steps = self._Z if p.E == 1 else self._Z * (p.E if tier < 2 else int(p.E))

    def state(self) -> np.ndarray:
        """The state at the start of an epoch: the iterate `W` (a copy)."""
        return self.W.copy()

    def same_state(self, saved: np.ndarray) -> bool:
        """Whether the current state equals a saved one (exact integer comparison)."""
        return bool(np.array_equal(self.W, saved))

    def integer_w(self) -> list[int]:
        """The current `W` as Python ints."""
        return _ints(self.W)

    def run_block(self, cycle: CycleState, first_epoch: int, epochs: int,
                  record: bool) -> Block | None:
        """Up to `epochs` epochs from `first_epoch` in the compiled loop
        (`perceptron.algorithms.compiled`), with the driver's cycle detection; None when this engine
        does not run compiled (then the driver calls `run_epoch`).

        The block is cut where the Novikoff bound stops certifying the tier, so every epoch
        of it runs in the tier the epoch-by-epoch engine would choose.
        """
        if not self.compiled or not jit.AVAILABLE:
            return self._python_block(cycle, first_epoch, epochs, record)
        certified = self._prepare()
        if self.tier == 2:
            return self._python_block(cycle, first_epoch, epochs, record)
        if certified is not None:
            epochs = min(epochs, certified)
        p = self.problem
        if self._Zc is None:
            self._Zc = jit.narrowest(p.Z, p.form.max_abs)
            self._qc = np.ascontiguousarray(p.q, dtype=np.int64)
        dtype = self.W.dtype.type
        saved = np.ascontiguousarray(cycle.saved, dtype=self.W.dtype)
        state = np.array([cycle.saved_epoch, cycle.power, cycle.lam], dtype=np.int64)
        counts = np.zeros(epochs, dtype=np.int64)
        indices = np.zeros(p.n * epochs if record else 0, dtype=np.int64)
        done, status = jit.kernels()(self._Zc, self.W, dtype(p.E), self._qc, saved, state,
                                          first_epoch, epochs, counts, indices, record)
        cycle.saved, (cycle.saved_epoch, cycle.power, cycle.lam) = saved, state.tolist()
        counts = counts[:done]
        return Block(first_epoch, counts, indices[:int(counts.sum())] if record else None,
                     BLOCK_STATUS[status])

    def _python_block(self, cycle: CycleState, first_epoch: int, epochs: int,
                      record: bool) -> Block | None:
        """Up to `epochs` (at most `PYTHON_BLOCK`) epochs of a small problem (`PYTHON_CELLS`)
        on Python integers, with the driver's cycle detection, as the compiled loop makes them
        (None for a larger problem: then the driver calls `run_epoch`). numpy's per-call cost
        is most of a small epoch's time; the tiers are still chosen epoch by epoch, as
        `run_epoch` chooses them, so the run reports the same arithmetic."""
        p = self.problem
        if p.n * p.d > PYTHON_CELLS:
            return None
        if self._rows is None:
            self._rows = [(z, z if p.E == 1 else [p.E * v for v in z], q)
                          for z, q in zip(p.Z.tolist(), p.q.tolist(), strict=True)]
        W = self.integer_w()
        saved, saved_epoch, power, lam = _ints(cycle.saved), cycle.saved_epoch, cycle.power, \
            cycle.lam
        counts: list[int] = []
        indices: list[int] = []
        status = "ran"
        for epoch in range(first_epoch, first_epoch + min(epochs, PYTHON_BLOCK)):
            if epoch > 1:
                if W == saved:
                    status = "cycled"
                    break
                lam += 1
                if lam == power:
                    saved, saved_epoch, power, lam = list(W), epoch, power * 2, 0
            if self.tier != 2:
                self._choose_tier(sum(map(mul, W, W)))
            updates = 0
            for i, (z, step, q) in enumerate(self._rows):
                if sum(map(mul, W, z)) < q:
                    W = list(map(add, W, step))
                    updates += 1
                    if record:
                        indices.append(i)
            counts.append(updates)
            if not updates:
                status = "converged"
                break
        self._arrays_in_tier()
        self.W = _as_tier(np.array(W, dtype=object), self.tier)
        cycle.saved = _as_tier(np.array(saved, dtype=object), self.tier)
        cycle.saved_epoch, cycle.power, cycle.lam = saved_epoch, power, lam
        return Block(first_epoch, np.array(counts, dtype=np.int64),
                     np.array(indices, dtype=np.int64) if record else None, status)

    def run_epoch(self) -> list[int]:
        """One pass over the examples in order; returns the positions that updated."""
        self._prepare()
        Z, W, steps, n = self._Z, self.W, self._steps, self.problem.n
        uniform = self._q is not None
        # the threshold in the tier's own type (a numpy scalar compares fastest)
        if self.tier == 2:
            q = self._q if uniform else self.problem.q.astype(object)
        else:
            dtype = (np.float64, np.int64)[self.tier]
            q = dtype(self._q) if uniform else self.problem.q.astype(dtype)
        L0 = self.window
        L = L0
        # in Python integers every product costs, not the call: after a mistake the next
        # window is about twice the distance to it (the margins after it are wasted work,
        # a whole window per update when every example errs, as against the adversary)
        exact_ints = self.tier == 2
        pos = 0
        updated: list[int] = []
        while pos < n:
            end = pos + L
            t = Z[pos:end].dot(W)
            mask = t < q if uniform else t < q[pos:end]  # type: ignore[index]
            k = int(mask.argmax())
            if not mask[k]:
                pos = end
                L += L
                continue
            L = min(L0, 2 * k + 1) if exact_ints else L0
            k += pos
            W += steps[k]
            updated.append(k)
            pos = k + 1
        return updated


class DualEngine:
    """Cyclic epochs on the margins `v[j] = <W, Z[j]>` with a precomputed signed Gram matrix.

    Per update `v += E * H[k]`, where `H[k][j] = <Z[k], Z[j]>` (any positive semi-definite
    kernel works the same way: `kernel_perceptron` passes its own `H`). State: the margins,
    which determine the whole future of the run.
    """

    def __init__(self, H: np.ndarray, q: np.ndarray, v0: Sequence[int], *, E: int = 1,
                 h_max: int | None = None) -> None:
        self.n = int(H.shape[0])
        self._H = H
        self.E = int(E)
        self.h_max = h_max if h_max is not None else _max_abs(H)
        self.q = q
        uq = int(q[0]) if len(q) else 0
        self._q = uq if bool((q == uq).all()) else None
        self.v = np.array([int(v) for v in v0], dtype=object)
        self.tier = -1
        self.tiers_used: list[str] = []
        self._rows: list[np.ndarray] = []
        self.counts = np.zeros(self.n, dtype=np.int64)

    def _prepare(self) -> None:
        if self.tier == 2:
            return
        # E too is formed in the tier (H * E): nothing else bounds it when H = 0
        top = max(_max_abs_tiered(self.v) + self.n * self.E * self.h_max, self.E)
        tier = max(self.tier, 1 if top < 2**63 else 2)
        if tier != self.tier:
            self.tier = tier
            self.tiers_used.append(TIERS[tier])
            H = _as_tier(self._H, tier)
            if self.E != 1:
                H = H * self.E
            self._rows = list(H)
            self.v = _as_tier(np.array(_ints(self.v), dtype=object), tier)

    def state(self) -> np.ndarray:
        """The margins at the start of an epoch (a copy)."""
        return self.v.copy()

    def same_state(self, saved: np.ndarray) -> bool:
        """Whether the margins equal saved ones."""
        return bool(np.array_equal(self.v, saved))

    def run_epoch(self) -> list[int]:
        """One pass in order; returns the positions that updated."""
        self._prepare()
        v, rows, n = self.v, self._rows, self.n
        q = self._q if self._q is not None else self.q
        uniform = self._q is not None
        pos = 0
        updated: list[int] = []
        while pos < n:
            mask = v[pos:] < q if uniform else v[pos:] < q[pos:]
            k = int(mask.argmax())
            if not mask[k]:
                break
            k += pos
            v += rows[k]
            updated.append(k)
            pos = k + 1
        if updated:
            self.counts += np.bincount(updated, minlength=n)
        return updated


def gram(rows: np.ndarray, max_abs: int) -> np.ndarray:
    """`rows @ rows.T` exactly: float64 BLAS when every partial sum is below 2**53, int64 when
    below 2**63, beyond that int64 limbs recombined as Python ints (`_limbed_gram`, for wide
    rows) or object products (narrow rows, and rows of Python ints). Returns int64 or
    object."""
    bound = max_abs * max_abs * max(rows.shape[1], 1)
    if rows.dtype != object and bound < 2**53:
        f = rows.astype(np.float64)
        return (f @ f.T).astype(np.int64)
    if rows.dtype != object and bound < 2**63:
        return rows @ rows.T
    if rows.dtype != object and (limbed := _limbed_gram(rows, max_abs)) is not None:
        return limbed
    obj = rows.astype(object)
    return obj @ obj.T


def _limbed_gram(rows: np.ndarray, max_abs: int) -> np.ndarray | None:
    """`rows @ rows.T` exactly for an int64 matrix whose products may pass int64, as an
    object array: each entry cut into `count` limbs of `bits` bits carrying its sign, `v =
    sum_k v_k 2^(bits k)` (as `_limbed_matvec` cuts a vector), with `d (2^bits - 1)^2 <
    2^62`, so that each pair of limbs' product sums in int64 exactly, and only those
    `count (count + 1) / 2` products are recombined as Python ints. None where the object
    product costs less: its `n^2 d` big-integer products against a few object passes over
    `n^2` entries per pair of limbs (measured, CPU per Gram: 40 x 130 entries to 2**62, 1.8
    ms against 15.2; 50 x 60 to 2**30, 1.1 against 5.9; but 100 x 8 to 2**62, 6.6 against
    6.0, and 200 x 2 to 2**40, 12.9 against 4.6), so only for more than `4 count`
    columns. The batch perceptron's Gram rows of int64 data past 2**31 (the default
    audit's 50 such forms, 52 to 133 columns: 0.125 CPU-s, now 0.029)."""
    d = rows.shape[1]
    bits = (62 - max(d, 1).bit_length()) // 2
    count = max(-(-max_abs.bit_length() // bits), 1)
    if d <= 4 * count:
        return None
    magnitude, sign = np.abs(rows), np.sign(rows)  # no -2**63: int64 forms exclude it
    mask = (1 << bits) - 1
    limbs = [((magnitude >> (bits * k)) & mask) * sign for k in range(count)]
    total = np.zeros((rows.shape[0], rows.shape[0]), dtype=object)
    for i, left in enumerate(limbs):
        for j in range(i, count):  # the Gram of limbs i, j is that of j, i transposed
            part = (left @ limbs[j].T).astype(object)
            total += (part if i == j else part + part.T) * (1 << (bits * (i + j)))
    return total


def signed_gram(problem: Problem) -> np.ndarray:
    """`H[i][j] = <Z[i], Z[j]>` exactly (int64 or object)."""
    return gram(problem.Z, problem.form.max_abs)


def dual_from_primal(problem: Problem, W: Sequence[int]) -> DualEngine:
    """The Gram form of a primal run whose current iterate is `W`."""
    H = signed_gram(problem)
    v0 = exact_matvec(problem.Z, W, problem.form.max_abs)
    return DualEngine(H, problem.q, v0, E=problem.E)
