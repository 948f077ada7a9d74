"""The one shrinker: a failing point made simpler while it still fails, greedily, to a fixpoint.

A point is rational scalars and rational coordinate vectors: the kernel's `Counterexample`
(found by the symbolic search) and the numeric `Instance` (found on runs) are both points.
A subclass says what "still fails" means and how to rebuild its kind of point (the hooks
`fails` and `rebuild`, as hypothesis' shrinkers do); the moves and their order are here, once:
drop a coordinate while the vectors have more than one, then replace one value at a time by a
`simpler_values` candidate. Every accepted move strictly lowers the total `cost`, so shrinking
ends; `guard` lets a caller stop it on a clock it does not trust the answer to.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Generic, Protocol, TypeVar

#: The small values tried first, as (numerator, denominator): also the counterexample grid.
GRID = ((0, 1), (1, 1), (-1, 1), (2, 1), (-2, 1), (1, 2), (-1, 2), (3, 1), (-3, 1))

Slot = tuple[str, str, int]


class Point(Protocol):
    """Rational scalars and coordinate vectors by name."""

    @property
    def scalars(self) -> Mapping[str, Fraction]: ...

    @property
    def vectors(self) -> Mapping[str, tuple[Fraction, ...]]: ...


P = TypeVar("P", bound=Point)


def cost(value: Fraction) -> Fraction:
    """How complicated a value looks; shrinking only ever lowers the total. Exact: a float
    overflowed on a value past float range (red team 23 F1's `a = 10**999`)."""
    return abs(value.numerator) + value.denominator - 1 + Fraction(1 if value < 0 else 0, 4)


def simpler_values(value: Fraction) -> Iterator[Fraction]:
    """Candidates to replace `value`, simplest first, all strictly simpler than `value`."""
    value = Fraction(value)
    seen: set[Fraction] = set()
    pool = [Fraction(n, d) for n, d in GRID]
    pool += [Fraction(round(value)), Fraction(int(value)), -value, value / 2]
    pool += [value.limit_denominator(d) for d in (1, 2, 3, 4, 8)]
    for candidate in sorted(pool, key=cost):
        if candidate not in seen and cost(candidate) < cost(value):
            seen.add(candidate)
            yield candidate


class GreedyShrinker(ABC, Generic[P]):
    """Greedy shrinking of one kind of point; subclasses override `fails` and `rebuild`."""

    @abstractmethod
    def fails(self, point: P) -> bool:
        """Whether `point` is still a counterexample (decided exactly)."""

    @abstractmethod
    def rebuild(self, point: P, scalars: dict[str, Fraction],
                vectors: dict[str, tuple[Fraction, ...]]) -> P:
        """A point like `point` (same provenance, say) with these values."""

    def guard(self) -> None:
        """Called before every pass; may raise to stop shrinking (a wall-clock guard)."""

    def shrink(self, point: P) -> P:
        """Drop dimensions, then simplify one value at a time, until nothing changes."""
        improved = True
        while improved:
            self.guard()
            improved = False
            dimension = max((len(c) for c in point.vectors.values()), default=0)
            for k in range(dimension if dimension > 1 else 0):
                smaller = self.rebuild(point, dict(point.scalars),
                                       {v: c[:k] + c[k + 1:] for v, c in point.vectors.items()})
                if self.fails(smaller):
                    point, improved = smaller, True
                    break
            for slot, value in list(_slots(point)):
                for candidate in simpler_values(value):
                    changed = self._replace(point, slot, candidate)
                    if self.fails(changed):
                        point, improved = changed, True
                        break
        return point

    def _replace(self, point: P, slot: Slot, value: Fraction) -> P:
        where, name, k = slot
        if where == "scalar":
            return self.rebuild(point, {**point.scalars, name: value}, dict(point.vectors))
        coords = list(point.vectors[name])
        coords[k] = value
        return self.rebuild(point, dict(point.scalars), {**point.vectors, name: tuple(coords)})


def _slots(point: Point) -> Iterator[tuple[Slot, Fraction]]:
    for name, value in point.scalars.items():
        yield ("scalar", name, 0), value
    for name, coords in point.vectors.items():
        for k, value in enumerate(coords):
            yield ("vector", name, k), value
