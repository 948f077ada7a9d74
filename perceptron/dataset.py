"""A labelled dataset of exact rational vectors: the one input type of every algorithm."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
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
        for i, label in enumerate(self.y):
            if label not in (-1, 1):
                raise DataError(f"label {label!r} of example {i} is not -1 or +1", source=self.name)

    @classmethod
    def of(
        cls, X: Iterable[Iterable[object]], y: Iterable[int], name: str = "data"
    ) -> Dataset:
        """Build from anything exactly convertible to Fraction (ints, Fractions, exact strings)."""
        from perceptron.numbers import exact

        return cls(
            tuple(tuple(exact(v) for v in row) for row in X), tuple(int(v) for v in y), name
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
        return lcm(*(v.denominator for x in self.X for v in x))

    def integer_rows(self) -> list[list[int]]:
        """The features times `scale()`, as exact Python integers."""
        s = self.scale()
        return [[v.numerator * (s // v.denominator) for v in x] for x in self.X]

    def subset(self, indices: Sequence[int]) -> Dataset:
        """The examples at `indices`, in that order (orders are adversarial inputs too)."""
        return Dataset(tuple(self.X[i] for i in indices), tuple(self.y[i] for i in indices),
                       self.name)
