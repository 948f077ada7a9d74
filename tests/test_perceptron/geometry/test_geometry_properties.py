"""Properties of the exact geometry (hypothesis): scaling, redundant points, certificates that
always check, and checkers that reject tampering."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import assume, given
from hypothesis import strategies as st

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.geometry.bound import novikoff_bound
from perceptron.geometry.formulations import three_formulations
from perceptron.geometry.linear import functional_margins, margin2, radius2
from perceptron.geometry.max_margin import NotSeparableError, exact_ldp, max_margin
from perceptron.geometry.separability import Inseparable, Separable, separability

F = Fraction

coordinate = st.builds(F, st.integers(-6, 6), st.sampled_from([1, 1, 2, 3]))


@st.composite
def datasets(draw: st.DrawFn, min_n: int = 1, max_n: int = 8, separable: bool | None = None
             ) -> Dataset:
    """Small rational datasets: ties, duplicates, zero vectors and collinear points included.

    `separable=True` labels the points by a random hyperplane (dropping points on it)."""
    d = draw(st.integers(1, 3))
    n = draw(st.integers(min_n, max_n))
    xs = draw(st.lists(st.tuples(*[coordinate] * d), min_size=n, max_size=n))
    if separable:
        w = draw(st.tuples(*[st.integers(-3, 3)] * d))
        b = draw(st.integers(-2, 2))
        scores = [sum(wi * xi for wi, xi in zip(w, x, strict=True)) + b for x in xs]
        kept = [(x, 1 if s > 0 else -1) for x, s in zip(xs, scores, strict=True) if s != 0]
        assume(kept)
        return Dataset(tuple(x for x, _ in kept), tuple(label for _, label in kept))
    ys = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n))
    return Dataset(tuple(xs), tuple(ys))


def _max_margin_or_none(data: Dataset, bias: bool):
    try:
        return max_margin(data, bias=bias)
    except NotSeparableError as exc:
        assert exc.certificate.check(data.augmented() if bias else data)
        return None
    except DataError:  # a single class with a free bias: no maximum
        assert bias and len(set(data.y)) == 1
        return None


@given(datasets(), st.booleans())
def test_every_certificate_returned_checks(data: Dataset, bias: bool) -> None:
    target = data.augmented() if bias else data
    sep = separability(target)
    assert sep.check(target)
    res = _max_margin_or_none(data, bias)
    if res is not None:
        assert res.check(data)
        assert res.optimal
        assert not isinstance(sep, Inseparable)
        assert margin2(data, res.w, res.b) == res.gamma2
    elif len(set(data.y)) == 2 or not bias:
        assert isinstance(sep, Inseparable)
    f = three_formulations(target)
    assert f.check(target) and f.agree
    assert (f.gamma2 > 0) == isinstance(sep, Separable)


@given(datasets(separable=True), st.booleans())
def test_warm_and_cold_exact_searches_agree(data: Dataset, bias: bool) -> None:
    res = _max_margin_or_none(data, bias)
    if res is None:
        return
    cold = exact_ldp(data, bias=bias)
    assert cold.check(data)
    assert cold.gamma2 == res.gamma2 and cold.w == res.w and cold.b == res.b


@given(datasets(separable=True), st.booleans(),
       st.builds(F, st.integers(1, 20), st.integers(1, 7)))
def test_scaling_scales_gamma_and_keeps_the_bound(data: Dataset, bias: bool, c: Fraction) -> None:
    res = _max_margin_or_none(data, bias)
    if res is None:
        return
    scaled = Dataset(tuple(tuple(c * v for v in x) for x in data.X), data.y)
    res_c = max_margin(scaled, bias=bias)
    assert res_c.check(scaled)
    assert res_c.gamma2 == c * c * res.gamma2
    assert radius2(scaled) == c * c * radius2(data)
    if not bias:
        assert novikoff_bound(scaled) == novikoff_bound(data)
        assert radius2(scaled) / res_c.gamma2 == radius2(data) / res.gamma2


@given(datasets(separable=True), st.booleans(), st.data())
def test_a_point_beyond_the_margin_changes_nothing(data: Dataset, bias: bool, draw) -> None:
    res = _max_margin_or_none(data, bias)
    if res is None:
        return
    # a convex combination of points of one class: on the correct side, at or beyond the
    # margin (functional margin >= 1), and no farther from the origin than R
    label = draw.draw(st.sampled_from(sorted(set(data.y))))
    members = [x for x, y in zip(data.X, data.y, strict=True) if y == label]
    weights = draw.draw(st.lists(st.integers(0, 5), min_size=len(members), max_size=len(members)))
    assume(sum(weights) > 0)
    total = sum(weights)
    point = tuple(sum(F(wt, total) * x[k] for wt, x in zip(weights, members, strict=True))
                  for k in range(data.d))
    bigger = Dataset((*data.X, point), (*data.y, label))
    assert functional_margins(bigger, res.w, res.b)[-1] >= 1
    res2 = max_margin(bigger, bias=bias)
    assert res2.check(bigger)
    assert res2.gamma2 == res.gamma2
    assert radius2(bigger) == radius2(data)
    if not bias:
        assert novikoff_bound(bigger) == novikoff_bound(data)


@given(datasets(min_n=2), st.booleans(), st.data())
def test_tampered_certificates_are_rejected(data: Dataset, bias: bool, draw) -> None:
    target = data.augmented() if bias else data
    sep = separability(target)
    if isinstance(sep, Inseparable):
        nonzero = [i for i in range(data.n) if any(target.X[i])]
        if nonzero:  # a multiplier on a zero vector may change freely: it is still valid
            i = draw.draw(st.sampled_from(nonzero))
            lam = list(sep.lam)
            lam[i] += draw.draw(st.sampled_from([F(1), F(1, 3), F(7, 2)]))
            # the sum moves by a nonzero vector unless lam_i was the only weight left
            assert not replace(sep, lam=tuple(lam)).check(target) or (
                _still_gordan(target, lam))
        lam = list(sep.lam)
        j = next(k for k, v in enumerate(lam) if v)
        lam[j] = -lam[j]
        assert not replace(sep, lam=tuple(lam)).check(target)
        return
    res = _max_margin_or_none(data, bias)
    if res is None:
        return
    delta = draw.draw(st.sampled_from([F(1), F(-1, 5), F(1, 10**6)]))
    # one alpha: w no longer equals sum alpha_i y_i x_i (or alpha < 0, or slackness fails)
    i = draw.draw(st.sampled_from([k for k in range(data.n) if any(data.X[k])] or [0]))
    alpha = list(res.alpha)
    alpha[i] += delta
    if any(data.X[i]):
        assert not replace(res, alpha=tuple(alpha)).check(data)
    # one w coordinate
    k = draw.draw(st.integers(0, data.d - 1))
    w = list(res.w)
    w[k] += delta
    assert not replace(res, w=tuple(w)).check(data)
    # the claimed value
    assert not replace(res, gamma2=res.gamma2 + delta * delta).check(data)


def _still_gordan(data: Dataset, lam: list[Fraction]) -> bool:
    return Inseparable(tuple(lam)).check(data)


@given(st.lists(st.one_of(st.integers(-10**30, 10**30), coordinate,
                          st.builds(str, coordinate), st.booleans()), max_size=12))
def test_common_denominator_is_the_least_one_for_any_exact_entries(values: list) -> None:
    """Issue 30: ints and Fractions are read as they are, anything else through `Fraction`
    (a string, a bool): the same numerators and least common denominator either way."""
    from math import lcm

    from perceptron.geometry.linear import common_denominator

    exact = [F(v) for v in values]
    numerators, den = common_denominator(values)
    assert den == lcm(1, *(q.denominator for q in exact))
    assert [F(n, den) for n in numerators] == exact
    assert all(type(n) is int for n in numerators)
