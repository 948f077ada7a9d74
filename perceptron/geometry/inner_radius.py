"""How deeply data surround the origin: the inner radius of the signed examples' hull.

For data `(x_i, y_i)` let `z_i = y_i x_i`. When the origin is an interior point of the convex
hull of the `z_i`, every direction has an example against it, quantitatively:

    min_i y_i <w, x_i> <= -delta ||w||   for every w,

where `delta` is the distance from the origin to the hull's boundary (the largest ball about
the origin inside the hull): for a unit w, the point `-delta w` is in the hull, so
`-delta = <w, -delta w> >= min_i <w, z_i>`. Such data are as far from separable as data can
be, and the perceptron's iterates on them stay in a ball fixed by the data
(`proofs/library/cycling-inseparable.toml`). `delta^2` is rational: the hull is cut out by its
facets `<n, z> <= c`, and the distance of the origin to a facet's hyperplane is `c / ||n||`,
whose square `c^2 / ||n||^2` is rational for rational data.

Computed exactly, by brute force over the facets (pairs of points in the plane, triples in
space: small data only); dimensions other than 1, 2 and 3 are not handled (None).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import isqrt

from perceptron.dataset import Dataset

__all__ = ["inner_radius2", "rational_below_root"]

Point = tuple[Fraction, ...]
#: Brute force over facets: pairs in the plane, triples in space; no more points than this.
MAX_POINTS = 40


def inner_radius2(data: Dataset) -> Fraction | None:
    """`delta^2` for the signed examples `y_i x_i` of `data` when the origin is interior to
    their hull (in dimension 1, 2 or 3), else None (on the boundary, outside, a hull of lower
    dimension, or data too large or of another dimension)."""
    points = sorted({tuple(y * v for v in x) for x, y in zip(data.X, data.y, strict=True)})
    d = data.d
    if d not in (1, 2, 3) or len(points) > MAX_POINTS:
        return None
    if d == 1:
        low, high = min(p[0] for p in points), max(p[0] for p in points)
        return min(-low, high) ** 2 if low < 0 < high else None
    best: Fraction | None = None
    facets = 0
    for chosen in combinations(points, d):
        normal = _normal(chosen)
        if not any(normal):
            continue
        offset = _dot(normal, chosen[0])
        sides = {(v > offset) - (v < offset) for v in (_dot(normal, p) for p in points)}
        if sides == {-1, 0} or sides == {0}:
            pass
        elif sides == {1, 0}:
            normal, offset = tuple(-v for v in normal), -offset
        else:
            continue  # points on both sides: not a supporting hyperplane
        if sides == {0}:
            return None  # every point on one hyperplane: the hull is flat
        if offset <= 0:
            return None  # the origin is on or beyond this facet: not interior
        facets += 1
        distance2 = offset * offset / _dot(normal, normal)
        best = distance2 if best is None else min(best, distance2)
    return best if facets else None


def rational_below_root(q: Fraction, denominator: int = 1000) -> Fraction:
    """The largest `a / denominator` (integer a >= 0) with `(a / denominator)^2 <= q`: a
    rational lower bound on `sqrt(q)`, exact to within `1/denominator`."""
    if q < 0:
        raise ValueError(f"{q} is negative")
    scaled = q * denominator * denominator
    return Fraction(isqrt(scaled.numerator // scaled.denominator), denominator)


def _normal(points: Sequence[Point]) -> Point:
    """A normal of the hyperplane through `points` (d of them in dimension d = 2 or 3);
    the zero vector when they are affinely dependent."""
    if len(points) == 2:
        (a1, a2), (b1, b2) = points
        return (-(b2 - a2), b1 - a1)
    a, b, c = points
    u = tuple(q - p for p, q in zip(a, b, strict=True))
    v = tuple(q - p for p, q in zip(a, c, strict=True))
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _dot(a: Point, b: Point) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))
