"""The integer paths of the exact geometry against the plain-Fraction computation they replace
(issue 30, item 3): common denominators, scaled rows, functional margins, row combinations and
the maximum-margin and Gordan certificates' checks, on random rational data with large
numerators and denominators, negative values and entries beyond int64, so that every tier
(int64 under a bound, int64 limbs, Python ints) and the fallback for scales the run's integer
form refuses are exercised. Each reference below is the computation spelled out in Fractions,
cell by cell, as the code did before."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from perceptron.algorithms.fast import MAX_SCALE_BITS
from perceptron.dataset import Dataset
from perceptron.geometry.linear import (
    common_denominator,
    float_rows,
    functional_margins,
    margin_numerators,
    scaled_combination,
    scaled_matrix,
    scaled_products,
    scaled_rows,
    shared_fractions,
)
from perceptron.geometry.max_margin import MaxMarginResult, NotSeparableError, max_margin
from perceptron.geometry.separators import Inseparable
from perceptron.io.csv import parse_csv

F = Fraction

#: Numerators and denominators of every size the tiers distinguish: small, near 2**31 (whose
#: products leave int64), beyond 2**63, and a few hundred bits.
big = st.one_of(st.integers(-9, 9), st.integers(-(2**31), 2**31),
                st.integers(-(2**70), 2**70), st.integers(-(2**300), 2**300))
denominator = st.one_of(st.sampled_from([1, 1, 2, 3, 7]), st.integers(1, 2**70))
rational = st.builds(F, big, denominator)


@st.composite
def datasets(draw: st.DrawFn, separable: bool = False) -> Dataset:
    """Random rational data, n in 1..6 and d in 1..5; `separable`: labelled by a hyperplane
    through the origin (points on it dropped)."""
    d = draw(st.integers(1, 5))
    n = draw(st.integers(1, 6))
    xs = draw(st.lists(st.tuples(*[rational] * d), min_size=n, max_size=n))
    if not separable:
        ys = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n))
        return Dataset(tuple(xs), tuple(ys))
    w = draw(st.tuples(*[st.integers(-3, 3)] * d))
    scores = [sum(wi * xi for wi, xi in zip(w, x, strict=True)) for x in xs]
    kept = [(x, 1 if s > 0 else -1) for x, s in zip(xs, scores, strict=True) if s != 0]
    assume(kept)
    return Dataset(tuple(x for x, _ in kept), tuple(label for _, label in kept))


# ---- the references: plain Fractions, cell by cell --------------------------------------------


def reference_common(v: list[object]) -> tuple[list[int], int]:
    qs = [F(q) for q in v]
    den = math.lcm(*(q.denominator for q in qs)) if qs else 1
    return [q.numerator * (den // q.denominator) for q in qs], den


def reference_margins(data: Dataset, w: tuple[F, ...], b: F) -> list[F]:
    return [yi * (sum(wk * xk for wk, xk in zip(w, x, strict=True)) + b)
            for x, yi in zip(data.X, data.y, strict=True)]


def reference_kkt(result: MaxMarginResult, data: Dataset) -> bool:
    """`MaxMarginResult.check` spelled out in Fractions (the optimal case)."""
    w, b, alpha = result.w, result.b, result.alpha
    if len(w) != data.d or len(alpha) != data.n or (not result.bias and b != 0):
        return False
    nw = sum(v * v for v in w)
    if nw == 0 or any(a < 0 for a in alpha):
        return False
    margins = reference_margins(data, w, b)
    if any(m < 1 for m in margins):
        return False
    if any(a > 0 and m != 1 for a, m in zip(alpha, margins, strict=True)):
        return False
    if result.bias and sum(a * yi for a, yi in zip(alpha, data.y, strict=True)) != 0:
        return False
    combination = [sum(a * yi * x[k] for a, yi, x in zip(alpha, data.y, data.X, strict=True))
                   for k in range(data.d)]
    return list(w) == combination and result.gamma2 == 1 / nw


def reference_gordan(lam: tuple[F, ...], data: Dataset) -> bool:
    return (len(lam) == data.n and all(v >= 0 for v in lam) and any(v > 0 for v in lam)
            and all(sum(v * yi * x[k] for v, yi, x in zip(lam, data.y, data.X, strict=True)) == 0
                    for k in range(data.d)))


# ---- the properties ----------------------------------------------------------------------------


@given(st.lists(st.one_of(rational, big, st.booleans()), max_size=12))
def test_common_denominator_is_the_least_one(v: list[object]) -> None:
    numerators, den = common_denominator(v)
    assert (list(numerators), den) == reference_common(v)
    numerators, den = common_denominator(tuple(v))  # the remembered path
    assert (list(numerators), den) == reference_common(v)


@given(st.lists(big, min_size=1, max_size=12), big, st.integers(1, 2**80))
def test_shared_fractions_are_the_quotients(numerators: list[int], factor: int, den: int
                                            ) -> None:
    assume(factor)
    for d in (den, -den):
        assert shared_fractions(numerators, factor, d) == tuple(
            F(v * factor, d) for v in numerators)


@given(datasets())
def test_scaled_rows_are_the_datasets_integer_rows(data: Dataset) -> None:
    s, rows = scaled_rows(data)
    assert (s, rows) == (data.scale(), data.integer_rows())
    s2, matrix, top = scaled_matrix(data)
    assert s2 == s and matrix.tolist() == rows
    assert top == max(abs(v) for r in rows for v in r)


@given(datasets())
def test_float_rows_round_the_scaled_integers_as_python_does(data: Dataset) -> None:
    """The warm start's floats (untrusted, but they pick the support a certificate starts
    from): int64 rows cast by numpy round to the floats Python's `float` gives."""
    s, rows = data.scale(), data.integer_rows()
    found = float_rows(data)
    if s.bit_length() <= 500 and max(abs(v) for r in rows for v in r).bit_length() <= 500:
        assert found.tolist() == (np.array(rows, dtype=np.float64) / float(s)).tolist()
    else:  # scaled by a power of two: every entry finite
        assert np.isfinite(found).all()


@given(datasets(), st.data())
def test_margins_products_and_combinations_are_exact(data: Dataset, draw: st.DataObject
                                                     ) -> None:
    w = draw.draw(st.tuples(*[rational] * data.d))
    b = draw.draw(rational)
    expected = reference_margins(data, w, b)
    assert functional_margins(data, w, b) == expected
    numerators, den = margin_numerators(data, w, b)
    assert den > 0 and [F(m, den) for m in numerators] == expected
    vector = draw.draw(st.lists(big, min_size=data.d, max_size=data.d))
    _, rows = scaled_rows(data)
    assert scaled_products(data, vector) == [
        sum(v * x for v, x in zip(vector, r, strict=True)) for r in rows]
    indices = draw.draw(st.lists(st.integers(0, data.n - 1), max_size=4))
    coefficients = draw.draw(st.lists(big, min_size=len(indices), max_size=len(indices)))
    assert scaled_combination(data, indices, coefficients) == [
        sum(c * rows[i][k] for c, i in zip(coefficients, indices, strict=True))
        for k in range(data.d)]


@given(datasets(separable=True), st.booleans())
def test_max_margin_agrees_with_the_fraction_kkt_check(data: Dataset, bias: bool) -> None:
    assume(not bias or len(set(data.y)) == 2)
    try:
        result = max_margin(data, bias=bias)
    except NotSeparableError as exc:  # a zero example, or separable only with a bias
        assert reference_gordan(exc.certificate.lam, data.augmented() if bias else data)
        return
    assert result.check(data)
    if result.optimal:
        assert reference_kkt(result, data)
    else:
        margins = reference_margins(data, result.w, result.b)
        assert min(margins) > 0 and result.gamma2 <= min(margins) ** 2 / sum(
            v * v for v in result.w)


@given(datasets(separable=True), st.data())
def test_a_tampered_certificate_fails_both_checks(data: Dataset, draw: st.DataObject) -> None:
    try:
        result = max_margin(data)
    except NotSeparableError:
        return
    assume(result.optimal)
    where = draw.draw(st.sampled_from(["w", "alpha", "gamma2"]))
    delta = draw.draw(rational.filter(bool))
    if where == "gamma2":
        tampered = replace(result, gamma2=result.gamma2 + delta)
    else:
        values = list(getattr(result, where))
        k = draw.draw(st.integers(0, len(values) - 1))
        values[k] += delta
        tampered = replace(result, **{where: tuple(values)})
    assert tampered.check(data) == reference_kkt(tampered, data) is False


@given(datasets(), st.data())
def test_the_gordan_check_agrees_with_fractions(data: Dataset, draw: st.DataObject) -> None:
    lam = tuple(draw.draw(st.lists(st.builds(F, st.integers(0, 2**70), denominator),
                                   min_size=data.n, max_size=data.n)))
    assert Inseparable(lam).check(data) == reference_gordan(lam, data)
    # a certificate that holds: lambda on two opposite copies of one point
    x = data.X[0]
    pair = Dataset((x, x), (1, -1))
    assert Inseparable((F(1), F(1))).check(pair) == reference_gordan((F(1), F(1)), pair)


def test_a_scale_the_run_refuses_is_read_from_the_fractions() -> None:
    """Denominators whose lcm exceeds MAX_SCALE_BITS: the run's integer form refuses them
    (DataError), the geometry scales them from the Fractions as before."""
    q = 3 ** (MAX_SCALE_BITS + 1)  # more than MAX_SCALE_BITS bits (log2 3 > 1)
    assert q.bit_length() > MAX_SCALE_BITS
    data = Dataset(((F(1, q), F(-2)), (F(5), F(1, 3))), (1, -1))
    s, matrix, top = scaled_matrix(data)
    assert s == data.scale() and matrix.tolist() == data.integer_rows()
    assert top == max(abs(v) for r in data.integer_rows() for v in r)
    w = (F(1), F(-1))
    assert functional_margins(data, w) == reference_margins(data, w, F(0))


def test_loaded_data_use_the_loaders_integer_form() -> None:
    """A loader hands its integer form over: the rows read from it are the Fractions'."""
    data = parse_csv("1/2,-3,7/3,1\n-5/6,4,0,-1\n1,1,1,1\n")
    assert scaled_rows(data) == (data.scale(), data.integer_rows())


@pytest.mark.parametrize("value", [2**31, 2**62, 2**63 - 1, 2**63, 2**100])
def test_entries_at_the_int64_edges(value: int) -> None:
    """Scaled entries around int64's limits, where the int64 product would wrap: the
    certificate checks and agrees with the Fraction reference."""
    data = Dataset(((F(value), F(1)), (F(-1), F(-value, 3))), (1, -1))
    result = max_margin(data)
    assert result.check(data)
    if result.optimal:
        assert reference_kkt(result, data)
    vector = [value, -value]
    _, rows = scaled_rows(data)
    assert scaled_products(data, vector) == [
        sum(v * x for v, x in zip(vector, r, strict=True)) for r in rows]


def test_products_with_zero_data_and_a_vector_past_int64() -> None:
    """Every example 0 (max |entry| 0, so the int64 bound `top * l1 < 2**63` held for any
    vector): a vector past 2**63 was cast to int64, an OverflowError, and check_run of a run
    on such data stepping by 2**70 was a traceback (red team 33 F1)."""
    data = Dataset(((F(0), F(0)), (F(0), F(0))), (1, -1))
    assert scaled_products(data, [2**70, -(2**70)]) == [0, 0]
    assert margin_numerators(data, (F(2**70), F(1, 3)))[0] == [0, 0]
