"""The online adversary and the tight families: the Novikoff bound is reached exactly."""

from __future__ import annotations

from fractions import Fraction
from math import floor, gcd, isqrt

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms.fast import _integer_form, integer_form
from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.generators.adversary import (
    OnlineAdversary,
    _scan_two_squares,
    _two_squares,
    rational_squares,
    sum_of_squares,
)
from perceptron.generators.hypothesis import _over_common, seeded_separable
from perceptron.generators.tight import orthonormal, rational_rotation
from perceptron.geometry.linear import dot, radius2
from verify.numeric.campaign import ADVERSARY_SHAPES


def _two_squares_by_scan(n: int) -> tuple[int, int] | None:
    """The plain scan `_two_squares` replaced: `a` from `isqrt(n)` down while 2 a^2 >= n."""
    a = isqrt(n)
    while 2 * a * a >= n:
        root = isqrt(n - a * a)
        if root * root == n - a * a:
            return a, root
        a -= 1
    return None


def test_two_squares_equals_the_plain_scan_on_every_small_n() -> None:
    # the reductions (by 4 and by p^2, p = 3 mod 4) and the mod-16 filter give the same
    # pair, the largest a, as the scan: every n below 20 000, where all the cases occur
    for n in range(20_000):
        assert _two_squares(n) == _two_squares_by_scan(n) == _scan_two_squares(n), n


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from([1, 2, 3, 6, 7, 21, 77, 23]))
def test_two_squares_equals_the_plain_scan(n: int, scale: int) -> None:
    # scaled by factors the reduction divides out (2, 3, 7, 11, 23), and unscaled
    for m in (n, n * scale * scale, n * scale):
        assert _two_squares(m) == _two_squares_by_scan(m)


def test_sum_of_squares_remembered_answers_are_the_computed_ones() -> None:
    first = [sum_of_squares(n) for n in range(3000)]
    sum_of_squares.cache_clear()
    assert [sum_of_squares(n) for n in range(3000)] == first
    with pytest.raises(ValueError):
        sum_of_squares(-1)


def test_sum_of_squares_uses_the_fewest_squares() -> None:
    for n in range(0, 3000):
        parts = sum_of_squares(n)
        assert sum(p * p for p in parts) == n and all(p > 0 for p in parts)
    assert len(sum_of_squares(7)) == 4 and len(sum_of_squares(6)) == 3
    assert len(sum_of_squares(25)) == 1 and len(sum_of_squares(13)) == 2


@given(st.fractions(min_value=0, max_value=10**6, max_denominator=10**4))
def test_rational_squares_sum_exactly(q: Fraction) -> None:
    parts = rational_squares(q)
    assert len(parts) <= 4 and sum(p * p for p in parts) == q


@pytest.mark.parametrize("shape", range(len(ADVERSARY_SHAPES)))
def test_adversary_reaches_the_floor_for_every_bound_1_to_50(shape: int) -> None:
    for b in range(1, 51):
        R2, gamma = ADVERSARY_SHAPES[shape](b)
        played = OnlineAdversary(R2, gamma, seed=b).play()
        assert played.bound == b
        assert played.mistakes == b


def test_adversary_reaches_the_floor_of_a_fractional_bound() -> None:
    for R2, gamma in ((Fraction(7, 2), 1), (Fraction(10), Fraction(3, 2)), (Fraction(50), 7)):
        played = OnlineAdversary(R2, gamma, seed=1).play()
        assert played.mistakes == floor(Fraction(R2) / Fraction(gamma) ** 2)


@pytest.mark.parametrize("b", [1, 2, 5, 17])
def test_adversary_keeps_its_promises_and_forces_every_mistake(b: int) -> None:
    """Exactly: ||x||^2 = R2, y<u,x> = gamma, y<w_t,x> = 0 and w_{t+1} = w_t + y x."""
    R2, gamma = Fraction(3 * b, 4), Fraction(1, 2)  # bound 3b
    played = OnlineAdversary(R2, gamma, seed=b).play()
    assert played.mistakes == 3 * b
    assert radius2(played.data) == R2
    for t, (x, y) in enumerate(zip(played.data.X, played.data.y, strict=True)):
        w, w_next = played.iterates[t], played.iterates[t + 1]
        assert dot(x, x) == R2
        assert y * dot(played.u, x) == gamma
        assert y * dot(w, x) == 0
        assert w_next == tuple(a + y * c for a, c in zip(w, x, strict=True))


def test_adversary_answers_any_learner_and_refuses_when_no_mistake_is_allowed() -> None:
    adversary = OnlineAdversary(4, 1)
    w = {0: Fraction(1), 1: Fraction(2), 3: Fraction(-1)}
    move = adversary.respond(w, dimension=4)
    assert move is not None
    x, y = move
    assert sum(v * w.get(i, 0) for i, v in x.items()) * y == 0
    assert sum(v * v for v in x.values()) == 4 and y * x[0] == 1
    assert adversary.respond({0: Fraction(1)}, dimension=1) is None  # w = u: never wrong


def test_adversary_rejects_impossible_promises() -> None:
    with pytest.raises(ValueError):
        OnlineAdversary(1, 2)
    with pytest.raises(ValueError):
        OnlineAdversary(1, 0)


def test_rational_rotation_is_exactly_orthogonal() -> None:
    q = rational_rotation(5, seed=3)
    for i in range(5):
        for j in range(5):
            assert dot(q[i], q[j]) == (1 if i == j else 0)
    assert any(v.denominator > 1 for row in q for v in row)


@pytest.mark.parametrize("rotation", [None, 11])
def test_orthonormal_family_reports_gamma2_one_over_n(rotation: int | None) -> None:
    labels = [1, -1, -1, 1, 1, -1, 1]
    family = orthonormal(labels, dim=9, rotation_seed=rotation)
    n = len(labels)
    assert family.gamma2 == Fraction(1, n)
    assert family.bound == n == family.mistakes
    assert family.R2 == 1 == radius2(family.data)
    assert min(y * dot(family.u, x) for x, y in zip(family.data.X, labels, strict=True)) == 1
    scaled = orthonormal(labels, scale=Fraction(5, 3))
    assert scaled.gamma2 == Fraction(25, 9 * n) and scaled.bound == n


def _played_by_respond(adversary: OnlineAdversary, max_rounds: int | None = None
                       ) -> tuple[list[dict[int, Fraction]], list[int]]:
    """The game written out: the perceptron's iterate kept whole and `respond` asked each
    round (what `play` does without forming the iterates)."""
    w: dict[int, Fraction] = {}
    dimension = 1
    examples, labels = [], []
    while max_rounds is None or len(examples) < max_rounds:
        move = adversary.respond(w, dimension)
        if move is None:
            break
        x, y = move
        examples.append(x)
        labels.append(y)
        dimension = max(dimension, max(x) + 1)
        w = {i: v for i in w.keys() | x.keys()
             if (v := w.get(i, Fraction(0)) + y * x.get(i, Fraction(0)))}
    return examples, labels


@pytest.mark.parametrize(("R2", "gamma", "seed", "rounds"), [
    *[(*ADVERSARY_SHAPES[k](b), seed, None) for k in range(len(ADVERSARY_SHAPES))
      for b in (1, 2, 7, 23) for seed in (b, 1000 * k + b, None)],
    (Fraction(7, 3), Fraction(1, 5), 4, 9), (Fraction(10), Fraction(3, 7), 11, None),
    (Fraction(5), Fraction(2), 2, None), (Fraction(4), Fraction(2), 3, None)])
def test_play_is_respond_to_the_perceptron(R2: Fraction, gamma: Fraction, seed: int | None,
                                           rounds: int | None) -> None:
    """`play` makes the examples and labels that `respond` to the perceptron's iterates makes
    (same draws of the labels), and its iterates are that perceptron's."""
    played = OnlineAdversary(R2, gamma, seed=seed).play(rounds)
    examples, labels = _played_by_respond(OnlineAdversary(R2, gamma, seed=seed), rounds)
    d = played.data.d
    assert played.data.y == tuple(labels)
    assert played.data.X == tuple(tuple(x.get(i, 0) for i in range(d)) for x in examples)
    w = [Fraction(0)] * d
    for t, (x, y) in enumerate(zip(played.data.X, labels, strict=True)):
        assert played.iterates[t] == tuple(w)
        w = [a + y * c for a, c in zip(w, x, strict=True)]
    assert played.iterates[-1] == tuple(w) and len(played.iterates) == played.mistakes + 1


def _step_in_fractions(adversary: OnlineAdversary, a: Fraction, perp2: Fraction
                       ) -> tuple[Fraction, Fraction, tuple[int, ...], int] | None:
    """`OnlineAdversary._step` as it was first written, in Fractions (`pull = a gamma /
    perp2`, `||f||^2 = R2 - gamma^2 - pull^2 perp2`), drawing the label from the
    adversary's generator as it does: the reference its integer step is compared with."""
    g2 = adversary.gamma**2
    if perp2 == 0:
        if a > 0:
            return None
        fresh2, pull = adversary.R2 - g2, Fraction(0)
    else:
        pull = a * adversary.gamma / perp2
        fresh2 = adversary.R2 - g2 - pull * pull * perp2
    if fresh2 < 0:
        return None
    squares = sum_of_squares(fresh2.numerator * fresh2.denominator)
    labels = adversary._labels
    return pull, fresh2, squares, 1 if labels is None else labels.choice((-1, 1))


# small: the squares of `||f||^2` are found by search (`sum_of_squares`), in both steps
_RATIONAL = st.builds(Fraction, st.integers(-12, 12), st.integers(1, 6))


@given(R2=st.builds(Fraction, st.integers(1, 60), st.integers(1, 6)),
       gamma=st.builds(Fraction, st.integers(1, 6), st.integers(1, 6)),
       a=_RATIONAL, perp2=_RATIONAL.map(abs), seed=st.none() | st.integers(0, 10**6))
def test_the_integer_step_is_the_fraction_step(R2: Fraction, gamma: Fraction, a: Fraction,
                                               perp2: Fraction, seed: int | None) -> None:
    """`_step` (in integers, `_integer_step`) answers any `a` and `||w_perp||^2 >= 0` as
    the Fraction formulas do: the same pull, `||f||^2`, squares and label, or None, both
    reduced; from unreduced numerators and denominators too."""
    if gamma * gamma > R2:
        R2 = gamma * gamma
    mine, theirs = (OnlineAdversary(R2, gamma, seed=seed) for _ in range(2))
    expected = _step_in_fractions(theirs, a, perp2)
    assert mine._step(a, perp2) == expected
    again = OnlineAdversary(R2, gamma, seed=seed)._integer_step(
        3 * a.numerator, 3 * a.denominator, 7 * perp2.numerator, 7 * perp2.denominator)
    assert again == (None if expected is None else (
        expected[0].numerator, expected[0].denominator, expected[1].numerator,
        expected[1].denominator, *expected[2:]))


def _played_in_fractions(adversary: OnlineAdversary, max_rounds: int | None = None
                         ) -> tuple[tuple[tuple[Fraction, ...], ...], tuple[int, ...]]:
    """`play` as it was first written: `w_perp = s P` with P a dict of Fractions, each
    example's coordinates a Fraction product (`-y pull s` times P's), made dense at the
    end, and each round's scalars Fractions (`_step_in_fractions`): the reference the
    integer `play` is compared with."""
    zero = Fraction(0)
    a, perp2, s, P = zero, zero, Fraction(1), {}
    dimension = 1
    examples: list[dict[int, Fraction]] = []
    labels: list[int] = []
    while max_rounds is None or len(examples) < max_rounds:
        step = _step_in_fractions(adversary, a, perp2)
        if step is None:
            break
        pull, fresh2, squares, y = step
        fresh = {max(dimension, 1) + k: v for k, v in enumerate(rational_squares(fresh2))}
        assert tuple(fresh.values()) == tuple(Fraction(v, fresh2.denominator) for v in squares)
        x = {0: y * adversary.gamma}
        if pull:
            c = -y * pull * s
            x.update({i: c * v for i, v in P.items()})
        x.update({i: y * v for i, v in fresh.items()})
        examples.append(x)
        labels.append(y)
        dimension = max(dimension, max(x) + 1)
        if pull:
            keep = 1 - pull
            s, perp2 = keep * s, keep * keep * perp2
            if not s:
                s, P = Fraction(1), {}
        P.update({i: v / s for i, v in fresh.items()})
        perp2 += fresh2
        a += adversary.gamma
    return tuple(tuple(x.get(i, zero) for i in range(dimension)) for x in examples), \
        tuple(labels)


def _assert_integer_play(R2: Fraction, gamma: Fraction, seed: int | None,
                         rounds: int | None) -> None:
    played = OnlineAdversary(R2, gamma, seed=seed).play(rounds)
    X, y = _played_in_fractions(OnlineAdversary(R2, gamma, seed=seed), rounds)
    assert (played.data.X, played.data.y) == (X, y)
    assert all(type(v) is Fraction for x in played.data.X for v in x)
    assert played.u == (Fraction(1), *(Fraction(0),) * (played.data.d - 1))
    # the integer form it keeps for the engine is the one its Fractions give
    kept, parsed = integer_form(played.data), _integer_form(played.data)
    assert (kept.scale, kept.max_abs, kept.bias) == (parsed.scale, parsed.max_abs, parsed.bias)
    assert kept.rows.dtype == parsed.rows.dtype
    assert np.array_equal(kept.rows, parsed.rows) and np.array_equal(kept.y, parsed.y)


@pytest.mark.parametrize("shape", range(len(ADVERSARY_SHAPES)))
def test_integer_play_is_the_fraction_play_on_the_campaign_shapes(shape: int) -> None:
    """The examples computed in integers are exactly the Fraction products of the first
    `play`, for every bound of the campaign's shapes up to 50 on a few seeds (50: scales
    beyond int64), and the integer form kept is `integer_form`'s of them."""
    for b in (*range(1, 31), 37, 44, 50):
        _assert_integer_play(*ADVERSARY_SHAPES[shape](b), 1000 * shape + b, None)


_POSITIVE = st.builds(Fraction, st.integers(1, 400), st.integers(1, 60))


@given(R2=_POSITIVE, gamma=_POSITIVE, seed=st.none() | st.integers(0, 10**6),
       rounds=st.none() | st.integers(1, 12))
def test_integer_play_is_the_fraction_play(R2: Fraction, gamma: Fraction, seed: int | None,
                                           rounds: int | None) -> None:
    """The same on any radius and margin (a pull of exactly 1, which resets P, included when
    drawn), at most 60 rounds (R2 / gamma^2 rounds are played)."""
    if gamma * gamma > R2 or R2 / (gamma * gamma) > 60:
        R2 = gamma * gamma * min(max(R2 / (gamma * gamma), 1), 60)
    _assert_integer_play(R2, gamma, seed, rounds)


def test_scaled_dataset_refuses_a_scale_that_is_not_the_least() -> None:
    from perceptron.algorithms.fast import scaled_dataset

    data = scaled_dataset([[1, 2], [3, 0]], 4, (1, -1), "d")
    assert data.X == ((Fraction(1, 4), Fraction(1, 2)), (Fraction(3, 4), Fraction(0)))
    with pytest.raises(ValueError, match="least common denominator"):
        scaled_dataset([[2, 4]], 4, (1,), "d")


@given(rows=st.integers(1, 4).flatmap(lambda d: st.lists(
           st.lists(st.integers(-(10**25), 10**25) | st.integers(-6, 6), min_size=d,
                    max_size=d), min_size=1, max_size=4)),
       common=st.integers(1, 10**22) | st.sampled_from((1, 2, 6, 12, 2**70)),
       factor=st.sampled_from((1, 2, 3, 10**9, 2**64)))
def test_least_dataset_is_the_scaled_dataset_over_the_least_denominator(
        rows: list[list[int]], common: int, factor: int) -> None:
    """`least_dataset(rows, common)` (the generators' one reduction) is the dataset of
    `rows / common` with the integer form `scaled_dataset` gives over their least common
    denominator: the same Fractions, scale, rows, dtype and bound, whatever common factor
    the rows and `common` share, beyond int64 too."""
    from perceptron.algorithms.fast import least_dataset, scaled_dataset

    y = tuple(1 if k % 2 else -1 for k in range(len(rows)))
    scaled = [[v * factor for v in row] for row in rows]
    data = least_dataset(scaled, common * factor, y, "d")
    assert data.X == tuple(tuple(Fraction(v, common) for v in row) for row in rows)
    g = gcd(common, *[v for row in rows for v in row])
    expected = integer_form(scaled_dataset([[v // g for v in row] for row in rows],
                                           common // g, y, "d"))
    form = integer_form(data)
    assert (form.scale, form.max_abs, form.rows.dtype) == (
        expected.scale, expected.max_abs, expected.rows.dtype)
    assert form.rows.tolist() == expected.rows.tolist()
    with pytest.raises(ValueError, match="positive"):
        least_dataset(rows, 0, y, "d")


_INT64_EDGES = st.sampled_from((0, 1, -1, 2**63 - 1, -(2**63 - 1), -(2**63), 2**63, 2**62,
                                -(2**62), 3 * 2**40))


@given(cells=st.lists(st.integers(-(10**6), 10**6) | _INT64_EDGES, min_size=1, max_size=6),
       width=st.integers(1, 40), common=st.integers(1, 10**22) | st.sampled_from(
           (1, 2, 6, 2**62, 2**63, 2**70)),
       factor=st.sampled_from((1, 2, 3, 10**9, 2**40, 2**64)), zeros=st.booleans())
def test_least_dataset_of_a_large_table_is_the_one_of_python_ints(
        cells: list[int], width: int, common: int, factor: int, zeros: bool) -> None:
    """A table of more than `LEAST_CELLS` cells whose entries fit int64 is reduced by numpy
    (`_least_table`), others as Python ints: the same dataset either way (Fractions, scale,
    rows, dtype and bound), at the edges of int64 (-2**63 and 2**63 go to Python ints) and
    when every entry is 0 (g is then `common`, past int64 too)."""
    from perceptron.algorithms import fast

    flat = [0] * len(cells) if zeros else cells
    n = -(-(fast.LEAST_CELLS + 1) // width)
    rows = [[flat[(i * width + j) % len(flat)] * factor for j in range(width)]
            for i in range(n)]
    y = tuple(1 if k % 2 else -1 for k in range(n))
    made = fast.least_dataset(rows, common * factor, y, "d")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fast, "LEAST_CELLS", 10**9)  # the Python ints' reduction
        expected = fast.least_dataset(rows, common * factor, y, "d")
    assert made.X == expected.X == tuple(tuple(Fraction(v, common * factor) for v in row)
                                         for row in rows)
    form, wanted = integer_form(made), integer_form(expected)
    assert (form.scale, form.max_abs, form.rows.dtype) == (
        wanted.scale, wanted.max_abs, wanted.rows.dtype)
    assert form.rows.tolist() == wanted.rows.tolist()


_RATIONALS = st.one_of(st.fractions(max_denominator=7),
                       st.builds(Fraction, st.integers(-(10**30), 10**30),
                                 st.integers(1, 10**20)))


_CELLS = st.tuples(st.integers(-(10**30), 10**30), st.integers(1, 10**20)) | st.tuples(
    st.integers(-3, 3), st.integers(1, 7))


@given(st.integers(1, 6).flatmap(lambda dim: st.tuples(
    st.lists(st.integers(-(10**20), 10**20) | st.integers(-3, 3), min_size=dim, max_size=dim),
    st.lists(_CELLS, min_size=dim, max_size=dim))))
def test_planted_inner_sign_is_the_fraction_sign(pair: tuple[list[int], list[tuple[int, int]]]
                                                 ) -> None:
    """`planted` labels by the sign of `<u, x>` computed in integers (`_over_common`: x as
    drawn, a numerator and a denominator per coordinate, over the lcm of the draw's
    denominators, with other examples beside it): the sign of the sum of Fractions, zero
    included, at any size; and each row over that lcm is the example."""
    u, x = pair

    def sign(v: int | Fraction) -> int:
        return (v > 0) - (v < 0)

    exact = sum((a * Fraction(p, q) for a, (p, q) in zip(u, x, strict=True)), Fraction(0))
    others = [[(p, q + 2) for p, q in x], [(-p, q) for p, q in x], [(0, q) for _, q in x]]
    common, rows = _over_common([x, *others])
    assert common > 0
    assert [sign(sum(a * v for a, v in zip(u, row, strict=True))) for row in rows] == [
        sign(exact), sign(sum((a * Fraction(p, q) for a, (p, q) in zip(u, others[0],
                                                                          strict=True)),
                              Fraction(0))), -sign(exact), 0]
    assert [[Fraction(v, common) for v in row] for row in rows] == [
        [Fraction(p, q) for p, q in each] for each in (x, *others)]


def _planted_in_fractions(seed: int, max_dim: int = 8, max_n: int = 12
                          ) -> tuple[tuple[tuple[Fraction, ...], ...], tuple[int, ...],
                                     tuple[Fraction, ...]]:
    """The planted distribution as it was written before its integer form: a Fraction per
    drawn coordinate, signs by sums of Fractions (the reference of `planted`)."""
    import random

    rng = random.Random(seed)
    draw = rng.randint

    def vector(dim: int, bound: int, den: int) -> tuple[Fraction, ...]:
        return tuple(Fraction(draw(-bound, bound), draw(1, den)) for _ in range(dim))

    dim = draw(1, max_dim)
    u = vector(dim, 3, 1)
    if not any(u):
        u = (Fraction(1), *u[1:])
    bound = (3, 100, 10**6, 10**12)[draw(0, 3)]
    den = (1, 1, 2, 7)[draw(0, 3)]
    X: list[tuple[Fraction, ...]] = []
    for _ in range(draw(1, max_n)):
        kind = draw(0, 5)
        if kind == 0 and X:
            X.append(X[draw(0, len(X) - 1)])
        elif kind == 1:
            axis = draw(0, dim - 1)
            X.append(tuple(Fraction(draw(1, bound)) if k == axis else Fraction(0)
                           for k in range(dim)))
        else:
            X.append(vector(dim, bound, den))
    signs = [(s > 0) - (s < 0) for s in (dot(u, x) for x in X)]
    kept = tuple(x for x, sign in zip(X, signs, strict=True) if sign)
    labels = tuple(sign for sign in signs if sign)
    return (kept, labels, u) if kept else ((u,), (1,), u)


def _assert_form_of_its_fractions(data: Dataset) -> None:
    """The integer form a generator hands the engine is the one its Fractions give."""
    kept, parsed = integer_form(data), _integer_form(data)
    assert (kept.scale, kept.max_abs, kept.bias) == (parsed.scale, parsed.max_abs, parsed.bias)
    assert kept.rows.dtype == parsed.rows.dtype
    assert np.array_equal(kept.rows, parsed.rows) and np.array_equal(kept.y, parsed.y)


def test_planted_data_are_the_fraction_draws() -> None:
    """`planted` draws integers and makes its data over their least common denominator: the
    same examples, labels and separator as a Fraction per draw, on seeds of every magnitude
    (beyond int64 included) and denominator, on the campaign's and the orders' limits; and
    the integer form it hands the engine is the one those Fractions give."""
    for seed in (*range(400), *range(20_000, 20_400, 3)):
        for limits in ({}, {"max_n": 6, "max_dim": 3}):
            drawn = seeded_separable(seed, **limits)
            assert (drawn.data.X, drawn.data.y, drawn.u) == _planted_in_fractions(seed, **limits)
            _assert_form_of_its_fractions(drawn.data)


@given(labels=st.lists(st.sampled_from((-1, 1)), min_size=1, max_size=8),
       scale=st.builds(Fraction, st.integers(1, 40), st.sampled_from((1, 2, 3, 7, 12))),
       extra=st.integers(0, 3), rotation=st.none() | st.integers(0, 10**6))
def test_orthonormal_data_are_the_fraction_cells(labels: list[int], scale: Fraction,
                                                 extra: int, rotation: int | None) -> None:
    """`orthonormal` makes its examples as integers over their least common denominator:
    cell (i, j) is `scale` times the rotation's entry (a numerator over its row's
    denominator, of either sign), exactly, and the integer form it hands the engine is the
    one its Fractions give."""
    family = orthonormal(labels, scale=scale, dim=len(labels) + extra, rotation_seed=rotation)
    rows = (rational_rotation(len(labels) + extra, rotation)[:len(labels)]
            if rotation is not None else
            [[Fraction(int(i == j)) for j in range(len(labels) + extra)]
             for i in range(len(labels))])
    assert family.data.X == tuple(tuple(scale * v for v in row) for row in rows)
    assert family.data.y == tuple(labels)
    # u = sum y_i e_i, rotated: the sum of the rotation's rows, signed (its Fractions
    # remembered across families, `tight._fraction`: equal to the ones summed here)
    assert family.u == tuple(sum((y * row[k] for y, row in zip(labels, rows, strict=True)),
                                 Fraction(0)) for k in range(len(labels) + extra))
    _assert_form_of_its_fractions(family.data)


def test_a_scaled_dataset_is_the_dataset_of_its_fractions() -> None:
    """The dataset `scaled_dataset` makes (its Fractions made when first read) is the
    `Dataset` of those Fractions: equal both ways, the same hash, repr, size and scale, a
    pickle of it equal, and a copy by `dataclasses.replace`, a subset and the augmented
    data as the plain dataset's; its size is read without making its Fractions."""
    import dataclasses
    import pickle

    from perceptron.algorithms.fast import scaled_dataset

    data = scaled_dataset([[1, 2, 0], [3, 0, -5]], 4, (1, -1), "d")
    assert "X" not in data.__dict__ and (data.n, data.d) == (2, 3)
    assert "X" not in data.__dict__
    plain = Dataset(data.X, (1, -1), "d")
    assert data == plain and plain == data and hash(data) == hash(plain)
    assert repr(data) == repr(plain) and data.scale() == plain.scale() == 4
    assert data != Dataset(data.X, (1, 1), "d") and data != Dataset(data.X, (1, -1), "e")
    assert pickle.loads(pickle.dumps(data)) == plain
    copy = dataclasses.replace(data, name="e")
    assert (copy.X, copy.n, copy.d, copy.name) == (plain.X, 2, 3, "e")
    assert data.subset([1, 0]) == plain.subset([1, 0])
    assert data.augmented() == plain.augmented()
    with pytest.raises(DataError, match="is not -1 or"):
        scaled_dataset([[1]], 1, (2,), "d")
    with pytest.raises(DataError, match="2 examples but 1 labels"):
        scaled_dataset([[1], [2]], 1, (1,), "d")


def test_a_campaign_run_makes_no_fraction_of_the_generated_data() -> None:
    """The engine's run of a planted, tight or adversary scenario, and the rows a campaign
    checks on it, read the integer form its generator handed over, not its Fractions
    (making them was most of drawing a scenario)."""
    from verify.numeric.campaign import canonical_checks, generated, run_campaign, tight
    from verify.numeric.shards import adversary_shards

    sources = {"generated": list(generated(20_000, 30)), "tight": list(tight(30_000, 30)),
               "adversary": [s for shard in adversary_shards(40_000, range(1, 6))
                             for s in shard.scenarios()]}
    result = run_campaign(canonical_checks(), sources)
    assert result.instances > 0 and all(v.violations == 0 for v in result.verdicts.values())
    for scenarios in sources.values():
        assert all("X" not in s.data.__dict__ for s in scenarios)


def test_seeded_planted_data_are_labelled_by_the_planted_separator() -> None:
    """Every kept example has `y <u, x> > 0` by Fractions, on seeds whose data mix
    fractions, ties and magnitudes beyond int64."""
    for seed in range(400):
        planted_data = seeded_separable(seed)
        for x, y in zip(planted_data.data.X, planted_data.data.y, strict=True):
            assert y * dot(planted_data.u, x) > 0


@given(seed=st.integers(0, 2**64), ranges=st.lists(
    st.tuples(st.integers(-(10**13), 10**13), st.integers(0, 10**13) | st.integers(0, 9)),
    min_size=1, max_size=40))
def test_randint_of_is_randint(seed: int, ranges: list[tuple[int, int]]) -> None:
    """`randint_of(rng)` draws what `rng.randint` draws, range after range (one value wide,
    a power of two wide, beyond 32 bits), and leaves the generator where it leaves it."""
    import random

    from perceptron.generators.hypothesis import randint_of

    fast, slow = random.Random(seed), random.Random(seed)
    draw = randint_of(fast)
    for lo, width in ranges:
        assert draw(lo, lo + width) == slow.randint(lo, lo + width)
    assert fast.getstate() == slow.getstate()
    with pytest.raises(ValueError, match="empty range"):
        draw(1, 0)


def test_seeded_planted_data_are_planted_on_randint() -> None:
    """`seeded_separable` is `planted` on the seeded generator's own `randint`, named by its
    seed (the campaign's `generated` source), on the campaign's and the orders' limits."""
    import random

    from perceptron.generators.hypothesis import planted

    for seed in (*range(300), *range(20_000, 20_350, 7)):
        for limits in ({}, {"max_n": 6, "max_dim": 3}):
            fast = seeded_separable(seed, **limits)
            slow = planted(random.Random(seed).randint, **limits)
            assert (fast.data.X, fast.data.y, fast.u) == (slow.data.X, slow.data.y, slow.u)
            assert fast.data.name == f"planted(seed={seed})"
