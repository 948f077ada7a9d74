"""`perceptron/geometry/inner_radius.py`: how deeply the signed examples surround the origin.

The defining property, checked exactly on many directions: where delta^2 is returned,
min_i y_i <w, x_i> <= 0 and (min_i y_i <w, x_i>)^2 >= delta^2 ||w||^2 for every w (the cycling
theorem's hypothesis), and some direction attains it; where None, some w != 0 has every
y_i <w, x_i> >= 0 (the data have a separable part) or the dimension is not handled."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.dataset import Dataset
from perceptron.geometry.inner_radius import inner_radius2, rational_below_root

XOR = Dataset.of([[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1])
PARITY = Dataset.of([list(p) for p in itertools.product((-1, 1), repeat=3)],
                    [p[0] * p[1] * p[2] for p in itertools.product((-1, 1), repeat=3)])


def least_margin(data: Dataset, w: tuple[Fraction, ...]) -> Fraction:
    return min(y * sum((a * b for a, b in zip(w, x, strict=True)), Fraction(0))
               for x, y in zip(data.X, data.y, strict=True))


def test_xor_and_parity() -> None:
    assert inner_radius2(XOR) == 1  # mu(w) = -(|w1| + |w2|), mu^2 >= ||w||^2
    assert inner_radius2(PARITY) == Fraction(1, 3)  # a regular tetrahedron about 0


def test_data_with_a_separable_part_have_none() -> None:
    assert inner_radius2(Dataset.of([[1, 0], [0, 1]], [1, 1])) is None  # separable
    # not separable, but w = (0, 1) classifies every example with margin >= 0: the origin is
    # on the hull's boundary
    assert inner_radius2(Dataset.of([[1, 0], [-1, 0], [0, 1]], [1, 1, 1])) is None
    # a flat hull: every signed example on one line
    assert inner_radius2(Dataset.of([[1, 1], [-2, -2]], [1, 1])) is None
    assert inner_radius2(Dataset.of([[1, 0, 0, 0]], [1])) is None  # dimension 4
    assert inner_radius2(Dataset.of([[2], [-3]], [1, 1])) == 4  # dimension 1
    assert inner_radius2(Dataset.of([[2], [3]], [1, 1])) is None


@given(st.integers(0, 10**6))
def test_the_radius_bounds_every_direction(seed: int) -> None:
    rng = random.Random(seed)
    dim = rng.choice((2, 3))
    n = rng.randint(dim + 1, 8)
    data = Dataset.of([[rng.randint(-5, 5) for _ in range(dim)] for _ in range(n)],
                      [rng.choice((-1, 1)) for _ in range(n)])
    found = inner_radius2(data)
    directions = [tuple(Fraction(rng.randint(-9, 9)) for _ in range(dim)) for _ in range(40)]
    if found is None:
        return
    for w in directions:
        mu = least_margin(data, w)
        assert mu <= 0 and mu * mu >= found * sum(v * v for v in w)


def test_the_radius_is_attained_on_a_facet_normal() -> None:
    # the square with corners (+-1, +-1) signed: its facets are at distance 1
    square = Dataset.of([[1, 1], [1, -1], [-1, 1], [-1, -1]], [1, 1, 1, 1])
    assert inner_radius2(square) == 1
    assert least_margin(square, (Fraction(1), Fraction(0))) ** 2 == 1


@pytest.mark.parametrize("q", [Fraction(0), Fraction(1), Fraction(2), Fraction(1, 3),
                               Fraction(10**6 + 1, 7)])
def test_the_rational_root_is_a_close_lower_bound(q: Fraction) -> None:
    r = rational_below_root(q)
    assert r >= 0 and r * r <= q < (r + Fraction(1, 1000)) ** 2


def test_a_negative_square_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        rational_below_root(Fraction(-1))
