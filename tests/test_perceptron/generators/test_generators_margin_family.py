"""`perceptron/generators/tight.py`, `margin_family`: the families tight at every margin.

For every rational rho >= 1 and squared radius R2: floor(rho) orthogonal examples of squared
norm R2, a separator with R2 <u, u>/gamma_u^2 = rho exactly, and the perceptron makes exactly
floor(rho) mistakes, in any order, with any labels, rotated or not."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms.margin import run_margin
from perceptron.dataset import Vector
from perceptron.generators.tight import margin_family
from perceptron.geometry.linear import norm2, radius2


def dot(a: Vector, b: Vector) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


rhos = st.fractions(min_value=1, max_value=30, max_denominator=9)
radii = st.sampled_from([Fraction(1), Fraction(4, 9), Fraction(2), Fraction(7, 3), Fraction(5)])


@given(rhos, radii, st.integers(0, 10**6))
def test_the_family_has_its_rho_and_the_perceptron_makes_floor_rho_mistakes(
        rho: Fraction, R2: Fraction, seed: int) -> None:
    rng = random.Random(seed)
    k = rho.numerator // rho.denominator
    labels = [rng.choice((-1, 1)) for _ in range(k)]
    family = margin_family(rho, R2=R2, labels=labels)
    data = family.data
    assert data.n == k and radius2(data) == R2
    assert all(dot(data.X[i], data.X[j]) == (R2 if i == j else 0)
               for i in range(k) for j in range(k))
    assert all(y * dot(family.u, x) == R2 for x, y in zip(data.X, data.y, strict=True))
    assert family.gamma_u == R2 and norm2(family.u) == rho * R2
    assert family.bound == rho  # R2 <u, u> / gamma_u^2
    order = list(range(k))
    rng.shuffle(order)
    run = run_margin(data.subset(order), 0, max_epochs=5)
    assert run.converged and run.updates == k == family.mistakes


def test_the_listed_rhos_at_every_radius() -> None:
    for k in range(1, 51):
        for rho in (Fraction(k), k + Fraction(1, k + 1)):
            for R2 in (Fraction(1), Fraction(2)):
                family = margin_family(rho, R2=R2)
                assert run_margin(family.data, 0, max_epochs=3).updates == k
                assert family.bound == rho


def test_a_rotation_keeps_every_inner_product() -> None:
    plain = margin_family(Fraction(7, 3), R2=Fraction(4, 9), labels=[1, -1], dim=6)
    turned = margin_family(Fraction(7, 3), R2=Fraction(4, 9), labels=[1, -1], dim=6,
                           rotation_seed=17)
    assert turned.data.X != plain.data.X
    vectors = [*plain.data.X, plain.u]
    rotated = [*turned.data.X, turned.u]
    assert [[dot(a, b) for b in vectors] for a in vectors] == \
        [[dot(a, b) for b in rotated] for a in rotated]


def test_the_exact_construction_needs_its_coordinates() -> None:
    # 1/2 is no rational square, so the completion v takes two coordinates: 1 + 2
    assert margin_family(Fraction(3, 2)).data.d == 3
    assert margin_family(Fraction(5, 4)).data.d == 2  # 1/4 = (1/2)^2: one coordinate
    assert margin_family(Fraction(3)).data.d == 3  # an integer: no completion
    assert margin_family(Fraction(3), dim=5).data.d == 5


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"rho": Fraction(1, 2)}, "at least 1"),
    ({"rho": 2, "R2": 0}, "R2 must be positive"),
    ({"rho": 2, "labels": [1]}, "needs 2 labels"),
    ({"rho": 2, "labels": [1, 0]}, "needs 2 labels"),
    ({"rho": Fraction(3, 2), "dim": 2}, "need 3 dimensions"),
])
def test_bad_parameters_are_refused(kwargs: dict[str, object], message: str) -> None:
    rho = kwargs.pop("rho")
    with pytest.raises(ValueError, match=message):
        margin_family(rho, **kwargs)  # type: ignore[arg-type]
