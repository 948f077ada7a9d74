"""A labelled dataset of exact rational vectors: the one input type of every algorithm."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import chain
from math import lcm

from perceptron.errors import DataError

Vector = tuple[Fraction, ...]


@dataclass(frozen=True)
class Dataset:
    """Examples `X[i]` (exact rationals) with labels `y[i]` in {-1, +1}.

    Immutable so that a run, its trace and every check made on it refer to the same data.
    """

    X: tuple[Vector, ...]
    y: tuple[int, ...]
    name: str = "data"

    def __post_init__(self) -> None:
        if not self.X:
            raise DataError("empty data: no examples", source=self.name)
        if len(self.X) != len(self.y):
            raise DataError(
                f"{len(self.X)} examples but {len(self.y)} labels", source=self.name
            )
        width = len(self.X[0])
        for i, x in enumerate(self.X):
            if len(x) != width:
                raise DataError(
                    f"example {i} has {len(x)} features, expected {width}", source=self.name
                )
            if set(map(type, x)) - {Fraction}:
                raise DataError(f"example {i} is not made of exact Fractions", source=self.name)
        if any(type(label) is not int for label in self.y):
            object.__setattr__(self, "y", self._integer_labels())
        for i, label in enumerate(self.y):
            if label not in (-1, 1):
                raise DataError(f"label {label!r} of example {i} is not -1 or +1", source=self.name)

    def _integer_labels(self) -> tuple[int, ...]:
        """The labels as Python ints, each read exactly: `int()` made 1.5 the label 1 and 0.5
        the label 0, and a float label 1.0 made the run's arithmetic float (red team 33 F8);
        a boolean, or a number that is not -1 or +1, is refused."""
        from perceptron.numbers import exact

        out = []
        for i, label in enumerate(self.y):
            try:
                value = exact(label)
            except DataError as exc:
                raise DataError(f"label {label!r} of example {i}: {exc.problem}",
                                source=self.name) from None
            if value not in (-1, 1):
                raise DataError(f"label {label!r} of example {i} is not -1 or +1",
                                source=self.name)
            out.append(int(value))
        return tuple(out)

    @classmethod
    def of(
        cls, X: Iterable[Iterable[object]], y: Iterable[int], name: str = "data"
    ) -> Dataset:
        """Build from anything exactly convertible to Fraction (ints, Fractions, exact strings)."""
        from perceptron.numbers import exact

        return cls(
            tuple(tuple(exact(v) for v in row) for row in X), tuple(y), name  # type: ignore[arg-type]
        )

    @property
    def n(self) -> int:
        """Number of examples."""
        return len(self.X)

    @property
    def d(self) -> int:
        """Number of features."""
        return len(self.X[0])

    def augmented(self) -> Dataset:
        """Bias by augmentation: a constant 1 appended to every example."""
        one = Fraction(1)
        return Dataset(tuple((*x, one) for x in self.X), self.y, self.name)

    def scale(self) -> int:
        """The least common denominator of all features: `scale * x` is integral."""
        return self._scale

    @cached_property
    def _scale(self) -> int:  # once per dataset (it is immutable): a pass over every cell
        return lcm(*(v.denominator for x in self.X for v in x))

    def integer_rows(self) -> list[list[int]]:
        """The features times `scale()`, as exact Python integers."""
        s = self.scale()
        return [[v.numerator * (s // v.denominator) for v in x] for x in self.X]

    def subset(self, indices: Sequence[int]) -> Dataset:
        """The examples at `indices`, in that order (orders are adversarial inputs too)."""
        return Dataset(tuple(self.X[i] for i in indices), tuple(self.y[i] for i in indices),
                       self.name)


@dataclass(frozen=True)
class ScaledSize:
    """The size of the integer form of some rows (`Dataset.integer_rows`), predicted before
    it is built: `scale_bits` of the common denominator and `total_bits` of all the scaled
    integers. `exceeded` is set when the computation stopped early at the limit given."""

    scale_bits: int
    total_bits: int
    exceeded: bool = False


def scaled_size(X: Iterable[Iterable[Fraction]], limit: int | None = None) -> ScaledSize:
    """Predict the bits of the integer form of `X` without building it.

    Scaling by one common denominator is what makes runs fast, but a few cells with large
    distinct denominators (`1/q` for 70 distinct 13 500-bit `q`) give a scale of a million
    bits, and every small cell scaled to it becomes a million-bit integer: gigabytes from a
    few hundred kilobytes. This counts `sum over cells of bits(numerator * scale /
    denominator)` from the distinct values (each scaled integer has that many bits, give or
    take one), stopping as soon as `limit` is passed. Linear in the cells plus one `lcm`
    per distinct denominator.
    """
    cells = list(chain.from_iterable(X))
    counts = Counter(map(id, cells))  # loaders share one Fraction per distinct cell
    distinct = {id(v): v for v in cells}
    return counted_size([(distinct[key], count) for key, count in counts.items()], limit)


def counted_size(counted: Sequence[tuple[Fraction, int]], limit: int | None = None
                 ) -> ScaledSize:
    """`scaled_size` of cells given as (distinct value, how many cells hold it), in order of
    first appearance (a loader that parsed each distinct cell once has these without a pass
    over the cells)."""
    # Cells whose denominator has at most 64 bits become integers of nearly the scale's size:
    # a lower bound on the total that stops the `lcm`s (quadratic in the bits) early.
    small = sum(count for v, count in counted if v and v.denominator.bit_length() <= 64)
    scale = 1
    for v, _count in counted:
        q = v.denominator
        if scale % q:
            scale = lcm(scale, q)
            floor = max(scale.bit_length(), small * (scale.bit_length() - 64))
            if limit is not None and floor > limit:
                return ScaledSize(scale.bit_length(), floor, True)
    scale_bits = scale.bit_length()
    total = 0
    for v, count in counted:
        if v:
            total += count * (abs(v.numerator).bit_length() + scale_bits
                              - v.denominator.bit_length() + 1)
        else:
            total += count
        if limit is not None and total > limit:
            return ScaledSize(scale_bits, total, True)
    return ScaledSize(scale_bits, total)
