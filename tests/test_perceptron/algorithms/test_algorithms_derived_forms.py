"""Datasets derived from others (`fast.augmented`, `fast.divided`) get their integer form
from the original's instead of from their Fractions: it must be the form their Fractions
give (scale, rows, bound, dtype), on hostile magnitudes too (near 2^63, beyond, huge
denominators), and the derived Fractions must be the plain ones."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron.algorithms import fast
from perceptron.dataset import Dataset

INTEGERS = st.one_of(st.integers(-9, 9), st.sampled_from(
    [0, 2**31, -(2**53), 2**62, 2**63 - 1, -(2**63 - 1), 2**63, -(2**64), 3**45]))
VALUES = st.builds(Fraction, INTEGERS, st.sampled_from([1, 2, 3, 7, 2**40, 2**64 + 1]))
FACTORS = st.builds(Fraction, st.one_of(st.integers(1, 12), st.sampled_from([2**63, 3**50])),
                    st.sampled_from([1, 2, 5, 2**61 - 1]))


@st.composite
def datasets(draw: st.DrawFn) -> Dataset:
    n, d = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    X = tuple(tuple(draw(VALUES) for _ in range(d)) for _ in range(n))
    y = tuple(draw(st.sampled_from([-1, 1])) for _ in range(n))
    return Dataset(X, y, "drawn")


def _as_computed(data: Dataset) -> fast.IntegerForm:
    remembered = fast.integer_form(data)
    fast._FORMS.pop((id(data), False))
    computed = fast.integer_form(data)
    assert remembered is not computed
    assert (remembered.scale, remembered.max_abs, remembered.rows.dtype, remembered.bias) == (
        computed.scale, computed.max_abs, computed.rows.dtype, computed.bias)
    assert np.array_equal(remembered.rows, computed.rows)
    assert np.array_equal(remembered.y, computed.y)
    return computed


@settings(max_examples=80, deadline=None)
@given(datasets(), FACTORS)
def test_derived_forms_are_the_forms_of_their_fractions(data: Dataset, factor: Fraction) -> None:
    biased = fast.augmented(data)
    assert biased.X == data.augmented().X and biased.y == data.y
    assert fast.augmented(data) is biased  # made once per dataset
    _as_computed(biased)
    divided = fast.divided(data, factor)
    assert divided.X == tuple(tuple(v / factor for v in x) for x in data.X)
    _as_computed(divided)


def test_divided_wide_data_are_the_plain_quotients() -> None:
    """The adversary's wide rows (half zeros, a few distinct rationals) divided by a radius
    bound: each Fraction made once per distinct integer is the plain quotient of its cell."""
    from perceptron.generators.adversary import OnlineAdversary

    played = OnlineAdversary(Fraction(9 * 7), Fraction(3), seed=5).play()
    factor = Fraction(17, 3)
    divided = fast.divided(played.data, factor)
    assert divided.X == tuple(tuple(v / factor for v in x) for x in played.data.X)
    assert all(type(v) is Fraction for x in divided.X for v in x)
    _as_computed(divided)


@settings(max_examples=80, deadline=None)
@given(datasets(), st.data())
def test_a_forms_margin_is_the_fraction_margin_once_per_separator(data: Dataset,
                                                                  draw: st.DataObject) -> None:
    """`IntegerForm.margin(u)` is `min_i y_i <u, x_i>` of the Fractions (hostile magnitudes:
    int64 and object rows), computed once per form and `u` (the same object again)."""
    u = tuple(draw.draw(VALUES) for _ in range(data.d))
    expected = min(y * sum((a * b for a, b in zip(u, x, strict=True)), Fraction(0))
                   for x, y in zip(data.X, data.y, strict=True))
    form = fast.integer_form(data)
    found = form.margin(u)
    assert found == expected and type(found) is Fraction
    assert form.margin(tuple(u)) is found


@settings(max_examples=80, deadline=None)
@given(datasets())
def test_a_small_datasets_form_cell_by_cell_is_its_form_by_distinct_values(data: Dataset
                                                                          ) -> None:
    """A dataset of at most `FEW_CELLS` cells has its form made cell by cell: the form made
    from its distinct values and gathered (`_form_of` with an index), on hostile magnitudes
    too (near 2^63, beyond, huge denominators)."""
    few = fast._integer_form(data)
    limit = fast.FEW_CELLS
    try:
        fast.FEW_CELLS = 0
        distinct = fast._integer_form(data)
    finally:
        fast.FEW_CELLS = limit
    assert len(data.X) * data.d <= limit
    assert (few.scale, few.max_abs, few.rows.dtype, few.bias) == (
        distinct.scale, distinct.max_abs, distinct.rows.dtype, distinct.bias)
    assert few.rows.tolist() == distinct.rows.tolist()
    assert few.rows.shape == distinct.rows.shape
    assert few.y.tolist() == distinct.y.tolist()
