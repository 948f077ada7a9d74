"""The audit's fast paths against slow exact references, at the edges where they could differ:
int64 overflow boundaries, the adversary's huge rationals, Fractions with large denominators.

Each fast path must give the same exact numbers as the plain computation it replaces: the
batch engine's recorded integer iterates (the Fraction replay of its trace), example rows'
`J_at` (Fractions from the definition), repeated rows' magnitudes (every row read),
row-wise products near 2^63 (Python integers), compiled polynomials (Fractions), and the
fraction-free elimination of the tight families' rotations (Fraction Gauss-Jordan), and the
orthonormal families built in integers (rotation rows and separator as Fractions).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from math import lcm

import numpy as np
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import perceptron.algorithms.batch as batch_engine
from perceptron.algorithms.batch import OptimalStep, run_batch
from perceptron.algorithms.fast import _integer_form, integer_form
from perceptron.dataset import Dataset
from perceptron.generators.adversary import OnlineAdversary
from perceptron.generators.tight import _eliminate, orthonormal, rational_rotation
from verify.numeric import campaign
from verify.numeric.instances import CompiledPolynomial
from verify.runs.batch import batch_starts, engine_batch_runner
from verify.runs.columns import (
    INT64_LIMIT,
    Column,
    InstanceBatch,
    Origin,
    VectorColumn,
    gram_column,
    int_array,
    max_abs,
)
from verify.runs.online import OnlineUpdates, engine_runner, example_rows
from verify.runs.quantity import Scenario

# ---- batch runs: the engine's recorded integers are its Fraction iterates ---------------------


def _adversary_data(bound: int, shape: int) -> tuple[Dataset, tuple[Fraction, ...]]:
    R2, gamma = campaign.ADVERSARY_SHAPES[shape](bound)
    played = OnlineAdversary(R2, gamma, seed=bound).play()
    return played.data, played.u


def test_batch_trace_integers_are_the_fraction_iterates() -> None:
    cases = [_adversary_data(b, s) for b, s in ((3, 1), (6, 3), (9, 2))]
    cases += [(sc.data, sc.u) for sc in campaign.generated(5, 3)]
    for data, u in cases:
        for start in batch_starts(Scenario(data, u, Origin("t", 7))):
            result = run_batch(data, step="optimal", theta_star=u, w0=start, max_iterations=12)
            trace = result.trace
            assert trace is not None and trace.integers is not None
            recorded = trace.integers
            # the slow reference: the trace rebuilt in Fractions, no scaling
            fractions = [trace.w0, *(record.w_after for record in trace)]
            assert len(recorded.iterates) == len(fractions) == len(trace) + 1
            for (W, D), w in zip(recorded.iterates, fractions, strict=True):
                assert tuple(Fraction(v, D) for v in W) == w
            for xbar, record in zip(recorded.xbars, trace, strict=True):
                assert tuple(Fraction(v, recorded.form.scale) for v in xbar) == record.xbar


def test_engine_batch_runner_shares_one_step_rule_across_its_starts(monkeypatch) -> None:
    """The runner makes one `OptimalStep` per scenario (theta* = u for every start), and its
    runs are those of a fresh `step="optimal"` per start: the same iterates, sets, steps and
    description (the description written once per rule, read by every run)."""
    made: list[OptimalStep] = []

    class Counted(OptimalStep):
        def __init__(self, theta_star: object) -> None:
            super().__init__(theta_star)  # type: ignore[arg-type]
            made.append(self)

    monkeypatch.setattr(batch_engine, "OptimalStep", Counted)
    data, u = _adversary_data(6, 3)
    scenario = Scenario(data, u, Origin("t", 7), max_iterations=12)
    for rule in ("le", "lt"):
        made.clear()
        runs = engine_batch_runner(scenario, rule)
        assert len(made) == 1 and len(runs) == len(batch_starts(scenario)) == 3
        for run, start in zip(runs, batch_starts(scenario), strict=True):
            fresh = run_batch(data, step="optimal", theta_star=u, w0=start, rule=rule,
                              max_iterations=12)
            assert fresh.trace is not None and fresh.trace.integers is not None
            assert run.theta0 == start and run.theta_star == u
            assert run.integer is not None
            assert run.integer.sets == tuple(fresh.trace.sets)
            assert run.integer.alphas == tuple(fresh.trace.alphas)
            assert run.integer.fractions(-1) == fresh.w
        shared = made[0]
        assert shared.describe() is shared.describe()  # written once
        assert shared.describe() == OptimalStep(u).describe() == fresh.step


# ---- example rows: J_at from its definition ---------------------------------------------------


def _j_at_reference(run: OnlineUpdates) -> list[Fraction]:
    """`J_at` row by row from its definition (docs/run-quantities.md), in Fractions."""
    data = run.data
    dim = data.d
    out = []
    for t, w in enumerate(run.states):
        q = t % (dim + 1)
        h = Fraction(t + 1, 2)
        d = [Fraction(int(k == q)) for k in range(dim)]
        db = 1 if q == dim else 0
        moved = [a + h * b for a, b in zip(w, d, strict=True)]
        total = Fraction(0)
        for x, y in zip(data.X, data.y, strict=True):
            out.append(total)
            if y * sum((a * b for a, b in zip(w, x, strict=True)), Fraction(0)) <= 0:
                total -= y * (sum((a * b for a, b in zip(moved, x, strict=True)), Fraction(0))
                              + h * db)
    return out


def test_example_rows_j_at_is_its_definition_on_huge_rationals() -> None:
    scenarios = [Scenario(*_adversary_data(b, s), Origin("t"))
                 for b, s in ((4, 1), (7, 3))]
    scenarios += list(campaign.generated(2, 2)) + list(campaign.tight(4, 2))
    for scenario in scenarios:
        run = engine_runner(scenario)
        batch = example_rows(run, Origin("t"))
        column = batch.scalars["J_at"]
        got = [column.value(i) for i in range(len(column))]
        assert got == _j_at_reference(run)


# ---- magnitudes of repeated rows ----------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_magnitude_of_taken_rows_reads_every_row(data: st.DataObject) -> None:
    big = data.draw(st.booleans())
    entries = st.integers(-(2**70), 2**70) if big else st.integers(-(2**62), 2**62)
    n = data.draw(st.integers(1, 5))
    rows = data.draw(st.lists(st.lists(entries, min_size=2, max_size=2), min_size=n,
                              max_size=n))
    base = VectorColumn.of([[Fraction(v) for v in r] for r in rows])
    index = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=12)))
    taken = base.take(index)
    again = taken.take(np.array(data.draw(st.lists(st.integers(0, len(index) - 1),
                                                   min_size=1, max_size=12))))
    for column in (taken, again):
        assert column.magnitude == max(abs(int(v)) for v in column.num.ravel())


# ---- products and polynomials at the int64 boundary --------------------------------------------


def test_row_products_around_two_to_the_63() -> None:
    # a single coordinate whose square is just below, at and just above 2^63 - 1
    root = 3037000499  # root^2 < 2^63 - 1 < (root + 1)^2
    for values in ([root], [root + 1], [-(root + 1)], [root, 1], [2**40, 2**23]):
        column = VectorColumn(np.array([[v, 0] for v in values], dtype=np.int64))
        got = gram_column(column, column)
        expected = [v * v for v in values]
        assert [int(v) for v in got.num] == expected
        assert (got.num.dtype == object) == (max(expected) > INT64_LIMIT)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_compiled_polynomial_is_the_fraction_value(data: st.DataObject) -> None:
    a, b = sympy.symbols("a b")
    exprs = [a**2 - 2 * a * b + 3, sympy.Integer(5), a, 7 * b**3 - a / 3, a * b,
             sympy.Rational(2, 3) * a**2 * b + sympy.Integer(1) / 7]
    expr = data.draw(st.sampled_from(exprs))
    edge = st.sampled_from([0, 1, -1, 2**31, -(2**31), 2**62, -(2**62), 2**63 - 1,
                            -(2**63 - 1), 2**64, 3037000499, -3037000500])
    values = st.one_of(edge, st.integers(-(2**66), 2**66))
    n = data.draw(st.integers(1, 6))
    den_a = data.draw(st.sampled_from([1, 3, 2**40 + 1]))
    den_b = data.draw(st.sampled_from([1, 7, 2**61 - 1]))
    A = [Fraction(data.draw(values), den_a) for _ in range(n)]
    B = [Fraction(data.draw(values), den_b) for _ in range(n)]
    batch = InstanceBatch({"a": Column.of(A), "b": Column.of(B)}, {}, (Origin("t"),),
                          np.zeros(n, dtype=np.int64), np.arange(n, dtype=np.int64))
    nums, den = CompiledPolynomial.compile(expr).evaluate(batch)
    before = [column.num.copy() for column in batch.scalars.values()]
    got = [Fraction(int(v), den) for v in nums]
    expected = [Fraction(str(expr.subs({a: sympy.Rational(x.numerator, x.denominator),
                                        b: sympy.Rational(y.numerator, y.denominator)})))
                for x, y in zip(A, B, strict=True)]
    assert got == expected
    assert len(nums) == n
    # values may share the columns' arrays: evaluating must not have written into them
    assert all(np.array_equal(c.num, old) for c, old in zip(batch.scalars.values(), before,
                                                            strict=True))
    if nums.dtype != object:
        assert max_abs(nums) <= INT64_LIMIT


# ---- tight families: fraction-free elimination --------------------------------------------------


def _fraction_solve(a: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    """Gauss-Jordan in Fractions (the reference)."""
    n = len(a)
    rows = [list(a[i]) + list(b[i]) for i in range(n)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        p = rows[col][col]
        rows[col] = [v / p for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [v - f * w for v, w in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]


def _solve(a: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    """`a^-1 b` by `_eliminate` on `[a | b]`, each row scaled to integers (which leaves the
    solution alone)."""
    rows: list[list[int]] = []
    for i in range(len(a)):
        row = [Fraction(v) for v in (*a[i], *b[i])]
        den = lcm(*(v.denominator for v in row))
        rows.append([v.numerator * (den // v.denominator) for v in row])
    return [[Fraction(v, den) for v in nums] for nums, den in _eliminate(rows)]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_fraction_free_solve_is_the_fraction_solution(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 5))
    k = data.draw(st.integers(1, 3))
    entry = st.builds(Fraction, st.integers(-9, 9), st.sampled_from([1, 2, 3, 10**12 + 39]))
    a = [[data.draw(entry) for _ in range(n)] for _ in range(n)]
    if sympy.Matrix(a).det() == 0:
        a = [[a[i][j] + (n * 10**13 if i == j else 0) for j in range(n)] for i in range(n)]
    b = [[data.draw(entry) for _ in range(k)] for _ in range(n)]
    x = _solve(a, b)
    assert x == _fraction_solve(a, b)
    # the law: a x = b
    assert [[sum((a[i][m] * x[m][j] for m in range(n)), Fraction(0)) for j in range(k)]
            for i in range(n)] == b


def test_rotations_are_exactly_orthogonal() -> None:
    for dim in (1, 2, 5, 10):
        for seed in (0, 3):
            Q = rational_rotation(dim, seed)
            assert all(sum((Q[i][m] * Q[j][m] for m in range(dim)), Fraction(0)) == (i == j)
                       for i in range(dim) for j in range(dim))


def test_rotations_are_the_cayley_transform_of_their_drawn_skew_matrix() -> None:
    """`rational_rotation` eliminates in integers; the reference draws the same skew `A`
    and solves `(I + A) Q = I - A` in Fractions."""
    for dim in (1, 2, 3, 7, 14):
        for seed in (0, 5, 999_999):
            rng = random.Random(seed)
            skew = [[Fraction(0)] * dim for _ in range(dim)]
            for i in range(dim):
                for j in range(i + 1, dim):
                    v = Fraction(rng.randint(-2, 2))
                    skew[i][j], skew[j][i] = v, -v
            plus = [[int(i == j) + skew[i][j] for j in range(dim)] for i in range(dim)]
            minus = [[int(i == j) - skew[i][j] for j in range(dim)] for i in range(dim)]
            assert rational_rotation(dim, seed) == _fraction_solve(plus, minus)


@settings(max_examples=60, deadline=None)
@given(labels=st.lists(st.sampled_from([-1, 1]), min_size=1, max_size=8),
       extra=st.integers(0, 3), rotation=st.none() | st.integers(0, 10**6),
       scale=st.builds(Fraction, st.integers(1, 9), st.sampled_from([1, 2, 7, 10**12 + 39])))
def test_orthonormal_families_are_the_plain_fraction_construction(
        labels: list[int], extra: int, rotation: int | None, scale: Fraction) -> None:
    """The family summed in integers is exactly `x_i = scale * e_i`, `u = sum y_i e_i` with
    the e_i the rotation's rows (or the unit vectors), computed in Fractions."""
    dim = len(labels) + extra
    basis = (rational_rotation(dim, rotation) if rotation is not None
             else [[Fraction(int(i == j)) for j in range(dim)] for i in range(dim)])
    family = orthonormal(labels, scale=scale, dim=dim, rotation_seed=rotation)
    assert family.data.X == tuple(tuple(scale * v for v in basis[i])
                                  for i in range(len(labels)))
    assert family.u == tuple(sum((y * basis[i][k] for i, y in enumerate(labels)), Fraction(0))
                             for k in range(dim))
    assert all(type(v) is Fraction for v in family.u)
    assert (family.gamma_u, family.R2) == (scale, scale * scale)


# ---- the unit-margin source: integers drawn in blocks are the one-at-a-time loop's --------


def _unit_margin_one_at_a_time(seed: int, count: int) -> list[Scenario]:
    """The source as it was first written: one `randint` per coordinate, one point at a
    time, every seed's `TRIES * wanted` points tried (a u whose entries share a factor
    too)."""
    from verify.numeric.unit_margin import SPAN, TRIES, U_SPAN

    out = []
    for i in range(count):
        rng = random.Random(seed + i)
        dim = rng.choice((2, 3))
        u = [0] * dim
        while not any(u):
            u = [rng.randint(-U_SPAN, U_SPAN) for _ in range(dim)]
        points: list[tuple[Fraction, ...]] = []
        labels: list[int] = []
        wanted = rng.randint(3, 6)
        for _ in range(TRIES * wanted):
            x = [rng.randint(-SPAN, SPAN) for _ in range(dim)]
            score = sum(a * b for a, b in zip(u, x, strict=True))
            if abs(score) == 1:
                points.append(tuple(Fraction(v) for v in x))
                labels.append(score)
                if len(points) == wanted:
                    break
        if not points:
            continue
        name = f"unit-margin(seed={seed + i}, d={dim}, n={len(points)})"
        out.append(Scenario(Dataset(tuple(points), tuple(labels), name),
                            tuple(Fraction(v) for v in u), Origin("unit-margin", seed + i, name),
                            400, 200))
    return out


def test_unit_margin_scenarios_are_the_one_at_a_time_loops() -> None:
    """Same scenarios as the loop, and the integer form each remembers for the engine is
    the one its Fractions give."""
    from verify.numeric.unit_margin import unit_margin

    for seed, count in ((0, 60), (50_000, 60), (987_654, 40)):
        fast = list(unit_margin(seed, count))
        slow = _unit_margin_one_at_a_time(seed, count)
        assert fast == slow
        assert 0 < len(fast) < count  # some seeds give no scenario (gcd(u) > 1), most do
        for scenario in fast:  # the integer form it remembers is the one its Fractions give
            given_form, parsed = integer_form(scenario.data), _integer_form(scenario.data)
            assert (given_form.scale, given_form.max_abs, given_form.bias) == (
                parsed.scale, parsed.max_abs, parsed.bias)
            assert given_form.rows.dtype == parsed.rows.dtype
            assert np.array_equal(given_form.rows, parsed.rows)
            assert np.array_equal(given_form.y, parsed.y)


@given(st.integers(0, 2**32), st.integers(1, 40))
@settings(max_examples=30)
def test_block_draws_are_successive_randints(seed: int, words: int) -> None:
    from verify.numeric.unit_margin import SPAN, _draws

    drawn = _draws(random.Random(seed), words).tolist()
    rng = random.Random(seed)
    assert drawn == [rng.randint(-SPAN, SPAN) for _ in drawn]
    # and the words left over after the last value are ones `randint` rejects
    after = random.Random(seed)
    after.getrandbits(32 * words)
    rest = random.Random(seed)
    for _ in drawn:
        rest.randint(-SPAN, SPAN)
    for _ in range(words):  # the rejected words at the end of the block, if any
        if rest.getstate() == after.getstate():
            break
        assert rest.getrandbits(5) >= 2 * SPAN + 1
    assert rest.getstate() == after.getstate()


@given(st.lists(st.integers(-2**70, 2**70), min_size=0, max_size=12), st.integers(1, 2**66))
@settings(max_examples=60)
def test_reduced_columns_keep_their_true_magnitude(values: list[int], den: int) -> None:
    from verify.runs.columns import reduced

    width = 2 if len(values) % 2 == 0 else 1
    fits = all(abs(v) <= INT64_LIMIT for v in values)
    num = np.array(values, dtype=np.int64 if fits else object).reshape(-1, width)
    column = reduced(num, den)
    assert column.magnitude == max_abs(column.num)  # preset, and the rows' own largest
    assert column.dtype == (np.int64 if max_abs(column.num) <= INT64_LIMIT else object)


def test_online_rows_preset_magnitudes_are_the_rows_own() -> None:
    """The row builders set some columns' magnitudes without reading them (update counts,
    labels, states taken once per example, reduced iterates): each is the largest
    |numerator| its rows hold, on short and long runs, with a bias and normalised."""
    from verify.numeric.unit_margin import unit_margin
    from verify.runs.online import source_runner, state_rows, update_rows

    scenarios = [*unit_margin(50_000, 6), *campaign.generated(3, 3), *campaign.tight(5, 3)]
    for scenario in scenarios:
        for run in (engine_runner(scenario), source_runner("joeyonng-online")(scenario),
                    source_runner("telgarsky-online")(scenario)):
            for rows in (state_rows, update_rows, example_rows):
                batch = rows(run, scenario.origin)
                for column in (*batch.scalars.values(), *batch.vectors.values()):
                    assert column.magnitude == max_abs(column.num)


def test_online_iterates_are_the_fraction_replay() -> None:
    """A run's integer iterates (cumulative sums in int64 from a zero start, the general
    path otherwise) are its trace's Fraction iterates over `unit`, never wrapped: on long
    integer runs, planted and tight data, a learning rate that is no unit, a nonzero start,
    and steps beyond int64."""
    from perceptron.algorithms.online import run_online
    from perceptron.conventions import DEFAULT, Conventions
    from verify.numeric.unit_margin import unit_margin
    from verify.runs.online import IntegerRun

    huge = Dataset(((Fraction(2**62), Fraction(1)), (Fraction(1), Fraction(-3))), (1, -1),
                   "huge")
    datasets = [sc.data for sc in (*unit_margin(50_000, 8), *campaign.generated(3, 3),
                                   *campaign.tight(5, 2))]
    cases = [(data, DEFAULT) for data in datasets]
    cases += [(datasets[0], Conventions(eta=Fraction(3))),
              (datasets[1], Conventions(eta=Fraction(2, 7))),
              (datasets[2], Conventions(w0=(Fraction(1, 2),) * datasets[2].d)),
              (huge, DEFAULT)]
    paths = set()
    for data, conventions in cases:
        result = run_online(data, conventions, max_epochs=50, keep_trace=True)
        assert result.trace is not None
        integer = IntegerRun(result.trace.problem, result.trace.indices)
        W = integer.iterates
        paths.add(W.dtype == object)
        unit = integer.problem.unit
        expected = [up.w_before for up in result.trace] + [result.w]
        assert [tuple(unit * int(v) for v in row) for row in W.tolist()] == expected
    assert paths == {False, True}  # both dtypes met


# ---- Gram products split into int64 limbs --------------------------------------------------------


def _entries(bits: int) -> st.SearchStrategy[int]:
    """Integers of magnitude below 2^bits, their extremes included."""
    top = 2**bits - 1
    return st.one_of(st.integers(-top, top), st.sampled_from([top, -top, 0, 1, -1]))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_limb_products_are_the_python_int_products(data: st.DataObject) -> None:
    """`_limb_products` (int64 limbs) gives exactly the dot products and tables of Python
    ints, whatever the magnitudes and dimension, on int64 inputs and on Python-int ones."""
    from verify.runs.columns import _limb_products, _row_sums

    dim = data.draw(st.integers(1, 40))
    bits_a, bits_b = data.draw(st.integers(1, 200)), data.draw(st.integers(1, 200))
    n, m = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 5))
    a = np.array(data.draw(st.lists(st.lists(_entries(bits_a), min_size=dim, max_size=dim),
                                    min_size=n, max_size=n)), dtype=object).reshape(n, dim)
    b = np.array(data.draw(st.lists(st.lists(_entries(bits_b), min_size=dim, max_size=dim),
                                    min_size=m, max_size=m)), dtype=object).reshape(m, dim)
    rows_b = b[np.arange(n) % m]
    top_a, top_b = max_abs(a), max(max_abs(b), max_abs(rows_b))
    table = _limb_products(a, b.T, dim, top_a, top_b, np.matmul)
    assert table.tolist() == [[sum(x * y for x, y in zip(r, s, strict=True)) for s in b.tolist()]
                              for r in a.tolist()]
    expected = [sum(x * y for x, y in zip(r, s, strict=True))
                for r, s in zip(a.tolist(), rows_b.tolist(), strict=True)]
    assert _limb_products(a, rows_b, dim, top_a, top_b, _row_sums).tolist() == expected
    if top_a <= INT64_LIMIT and top_b <= INT64_LIMIT:  # the int64 inputs `_row_products` splits
        got = _limb_products(a.astype(np.int64), rows_b.astype(np.int64), dim, top_a, top_b,
                             _row_sums)
        assert got.tolist() == expected


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_gram_columns_are_the_python_int_dot_products(data: st.DataObject) -> None:
    """Gram columns on every path (int64, int64 limbs, Python ints, a table of distinct
    products) hold the exact dot products, in int64 exactly when every one fits."""
    dim = data.draw(st.integers(1, 6))
    bits = data.draw(st.sampled_from([10, 31, 40, 62, 63, 90]))
    base_rows = data.draw(st.integers(1, 20))  # from 17 on, a table is made of limbs
    rows = [data.draw(st.lists(_entries(bits), min_size=dim, max_size=dim))
            for _ in range(2 * base_rows)]
    fits = bits <= 63
    base_a = VectorColumn(np.array(rows[:base_rows], dtype=np.int64 if fits else object))
    base_b = VectorColumn(np.array(rows[base_rows:], dtype=np.int64 if fits else object))
    # every pair of base rows once (a table) and some rows as they are
    index_a = np.repeat(np.arange(base_rows), base_rows)
    index_b = np.tile(np.arange(base_rows), base_rows)
    for a, b in ((base_a.take(index_a), base_b.take(index_b)), (base_a, base_b)):
        got = gram_column(a, b)
        expected = [sum(int(x) * int(y) for x, y in zip(a.num[i], b.num[i], strict=True))
                    for i in range(len(a))]
        assert [int(v) for v in got.num] == expected
        assert (got.num.dtype == object) == any(abs(v) > INT64_LIMIT for v in expected)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_concatenated_columns_inherit_true_magnitudes(data: st.DataObject) -> None:
    """A concatenation's magnitude and largest denominator, filled in from its parts' own,
    are the largest its rows hold (parts empty or not, magnitudes read or not)."""
    from verify.runs.columns import den_top, run_rows

    parts = []
    for _ in range(data.draw(st.integers(1, 4))):
        n = data.draw(st.integers(0, 4))
        bits = data.draw(st.sampled_from([5, 40, 70]))
        dtype = object if bits > 62 else np.int64
        scalar = Column(np.array(data.draw(st.lists(_entries(bits), min_size=n, max_size=n)),
                                 dtype=dtype), data.draw(st.integers(1, 9)))
        vector = VectorColumn(np.array(
            data.draw(st.lists(st.lists(_entries(bits), min_size=2, max_size=2), min_size=n,
                               max_size=n)), dtype=dtype).reshape(n, 2),
            data.draw(st.integers(1, 9)))
        part = run_rows({"a": scalar}, {"v": vector}, Origin("t"), np.arange(n))
        if data.draw(st.booleans()):
            part.magnitude()  # read: the concatenation inherits it
        parts.append(part)
    joined = InstanceBatch.concat(parts)
    for column in (joined.scalars["a"], joined.vectors["v"]):
        assert column.magnitude == max_abs(column.num)
        assert column.den_max == den_top(column.den)


def test_concatenated_rows_of_long_runs_are_the_padded_parts() -> None:
    """The rows of long runs of 2 and 3 coordinates, concatenated as a campaign does: every
    vector column the rows of each run padded and stacked in order (the state rows' own
    iterates, the example rows' taken ones, the update rows' slices)."""
    from verify.numeric.unit_margin import unit_margin
    from verify.runs.columns import _unify
    from verify.runs.online import state_rows, update_rows

    runs = [(engine_runner(sc), sc.origin) for sc in unit_margin(50_000, 40)]
    assert {run.data.d for run, _ in runs} == {2, 3}
    for rows in (state_rows, update_rows, example_rows):
        parts = [rows(run, origin) for run, origin in runs]
        joined = InstanceBatch.concat(parts)
        for name, column in joined.vectors.items():
            dim = max(p.vectors[name].dim for p in parts)
            expected = np.concatenate(_unify([p.vectors[name].padded(dim).num for p in parts]))
            assert column.num.dtype == expected.dtype == np.int64
            assert column.num.tolist() == expected.tolist()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_joined_gram_columns_are_those_of_the_joined_vectors(data: st.DataObject) -> None:
    """A concatenation's Gram column, joined from its parts' own (each computed on the
    smaller columns its rows were taken from, in its own dtype), is row by row the Gram
    column of the joined vectors as rationals: parts of other dimensions (zero-padded),
    other denominators, taken rows, empty parts, values past int64; and int64 only where
    every value fits."""
    from verify.runs.columns import run_rows

    parts = []
    for _ in range(data.draw(st.integers(1, 4))):
        n = data.draw(st.integers(0, 4))
        dim = data.draw(st.integers(1, 3))
        bits = data.draw(st.sampled_from([5, 31, 40, 70]))
        dtype = object if bits > 62 else np.int64

        def vector(rows: int, dim: int = dim, bits: int = bits, dtype: type = dtype
                   ) -> VectorColumn:
            return VectorColumn(np.array(data.draw(st.lists(
                st.lists(_entries(bits), min_size=dim, max_size=dim), min_size=rows,
                max_size=rows)), dtype=dtype).reshape(rows, dim), data.draw(st.integers(1, 9)))

        v = vector(n)
        if n and data.draw(st.booleans()):  # rows taken from a smaller column, as a run's
            base = vector(data.draw(st.integers(1, 3)))
            v = base.take(np.array(data.draw(st.lists(st.integers(0, len(base) - 1),
                                                      min_size=n, max_size=n)), dtype=np.intp))
        parts.append(run_rows({}, {"v": v, "z": vector(n)}, Origin("t"), np.arange(n)))
    joined = InstanceBatch.concat(parts)
    rows = [(*p.vectors["v"].row(i), *[Fraction(0)] * (3 - p.vectors["v"].dim))
            for p in parts for i in range(len(p))]
    width = joined.vectors["v"].dim  # read before the joined numerators are made
    assert [(*joined.vectors["v"].row(i), *[Fraction(0)] * (3 - width))
            for i in range(len(joined))] == rows
    for a, b in (("v", "v"), ("v", "z"), ("z", "z")):
        got = joined.column(sympy.Symbol(f"<{a},{b}>"))
        expected = gram_column(joined.vectors[a], joined.vectors[b])
        assert len(got) == len(expected) == len(joined)
        assert [got.value(i) for i in range(len(got))] == \
            [expected.value(i) for i in range(len(expected))]
        if got.num.dtype != object:
            assert max_abs(got.num) <= INT64_LIMIT
        assert got.magnitude == max_abs(got.num)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_compiled_polynomial_over_per_row_denominators_is_the_fraction_value(
        data: st.DataObject) -> None:
    """`CompiledPolynomial.evaluate` on columns with a denominator per row (rows of several
    runs concatenated), beside one with a common denominator: each row's value over its own
    denominator is the Fraction value, in int64 only when it fits; the columns' arrays
    (their powers shared between polynomials, `Column.scaled_power`) are never written, and
    a second polynomial over the same batch is right too."""
    a, b, c = sympy.symbols("a b c")
    exprs = [a**2 - 2 * a * b + 3, a, 7 * b**3 - a / 3, a * b * c, c**2 * a - b,
             sympy.Rational(2, 3) * a**2 * b + sympy.Integer(1) / 7, a**3 + b**2 + c]
    first, second = data.draw(st.sampled_from(exprs)), data.draw(st.sampled_from(exprs))
    edge = st.sampled_from([0, 1, -1, 2**31, -(2**31), 2**62, 2**63 - 1, 3037000499])
    values = st.one_of(edge, st.integers(-(2**40), 2**40), st.integers(-9, 9))
    dens = st.sampled_from([1, 2, 3, 5, 2**20 + 7, 2**40 + 1, 2**62 + 3, 2**64 + 1])
    n = data.draw(st.integers(1, 6))
    columns, fractions = {}, {}
    for name in ("a", "b", "c"):
        per_row = data.draw(st.booleans()) or name == "a"
        den_list = ([data.draw(dens) for _ in range(n)] if per_row else [data.draw(dens)] * n)
        nums = [data.draw(values) for _ in range(n)]
        fractions[name] = [Fraction(p, q) for p, q in zip(nums, den_list, strict=True)]
        num_array = int_array(nums)
        if per_row:
            den_array = int_array(den_list)
            columns[name] = Column(num_array, den_array)
        else:
            columns[name] = Column(num_array, den_list[0])
    batch = InstanceBatch(columns, {}, (Origin("t"),), np.zeros(n, dtype=np.int64),
                          np.arange(n, dtype=np.int64))
    before = {k: (col.num.copy(), np.copy(col.den)) for k, col in columns.items()}
    for expr in (first, second):
        nums, den = CompiledPolynomial.compile(expr).evaluate(batch)
        got = [Fraction(int(v), int(den[i]) if isinstance(den, np.ndarray) else den)
               for i, v in enumerate(nums)]
        expected = [Fraction(str(expr.subs({sympy.Symbol(k): sympy.Rational(
            fractions[k][i].numerator, fractions[k][i].denominator) for k in "abc"})))
            for i in range(n)]
        assert got == expected
        if nums.dtype != object:
            assert max_abs(nums) <= INT64_LIMIT
    for k, col in columns.items():
        assert np.array_equal(col.num, before[k][0]) and np.array_equal(col.den, before[k][1])


@settings(max_examples=80, deadline=None)
@given(st.integers(7, 11), st.integers(1, 6), st.floats(0, 0.7), st.randoms(use_true_random=False))
def test_fraction_free_solve_in_int64_is_the_python_loop(n: int, spread: int, zeros: float,
                                                         rng: random.Random) -> None:
    """From `INT64_ELIMINATION` rows on, `_eliminate` runs in int64 when Hadamard's bound
    allows (`_fits_int64`): the same integers as its Python loop, through row swaps (zeros
    on the diagonal) and rows already eliminated; past the bound, the Python loop."""
    from perceptron.generators import tight

    rows = [[0 if rng.random() < zeros else rng.randint(-spread, spread)
             for _ in range(2 * n)] for _ in range(n)]
    if sympy.Matrix([row[:n] for row in rows]).det() == 0:
        rows = [[v + (spread + 1) * n * (i == j) for j, v in enumerate(row)]
                for i, row in enumerate(rows)]
    assert n >= tight.INT64_ELIMINATION
    python = tight.INT64_ELIMINATION
    tight.INT64_ELIMINATION = n + 1
    try:
        expected = _eliminate(rows)
    finally:
        tight.INT64_ELIMINATION = python
    if tight._fits_int64(rows):
        assert tight._eliminate_int64(rows) == expected
    assert _eliminate(rows) == expected
    assert all(type(v) is int for nums, den in expected for v in (*nums, den))


def _cayley(dim: int, seed: int, spread: int) -> list[list[Fraction]]:
    """The rotation of `seed` in Fractions: the skew `A` drawn with `randint` itself,
    `(I + A) Q = I - A` solved by Fraction Gauss-Jordan."""
    rng = random.Random(seed)
    skew = [[Fraction(0)] * dim for _ in range(dim)]
    for i in range(dim):
        for j in range(i + 1, dim):
            v = Fraction(rng.randint(-spread, spread))
            skew[i][j], skew[j][i] = v, -v
    plus = [[int(i == j) + skew[i][j] for j in range(dim)] for i in range(dim)]
    minus = [[int(i == j) - skew[i][j] for j in range(dim)] for i in range(dim)]
    return _fraction_solve(plus, minus) if dim else []


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 10**6)), max_size=8),
       st.sampled_from([1, 2, 2, 6, 2**20, 2**20 + 1, 2**40]))
def test_rotations_made_together_are_each_alone(specs: list[tuple[int, int]],
                                                spread: int) -> None:
    """`rotations_rows` eliminates the systems of many rotations as one padded int64 array
    (dimensions 0 to 12 mixed: padding rows under every smaller one; those past Hadamard's
    bound, dimensions 11-12 at spread 2 and any past 2^20, by themselves in Python ints):
    each rotation's rows and denominator are the Fraction Cayley transform of the skew
    drawn with `randint`, in Python ints, and the rows `_eliminate` gives it alone."""
    from perceptron.generators.tight import _skew_values, rotations_rows

    together = rotations_rows(specs, spread)
    assert len(together) == len(specs)
    for (dim, seed), rows in zip(specs, together, strict=True):
        assert [[Fraction(v, den) for v in nums] for nums, den in rows] == _cayley(
            dim, seed, spread)
        assert all(type(v) is int for nums, den in rows for v in (*nums, den))
        values = iter(_skew_values(dim, seed, spread))
        upper = [[next(values) if j > i else 0 for j in range(dim)] for i in range(dim)]
        skew = [[upper[i][j] - upper[j][i] for j in range(dim)] for i in range(dim)]
        assert rows == _eliminate([[int(i == j) + skew[i][j] for j in range(dim)]
                                   + [int(i == j) - skew[i][j] for j in range(dim)]
                                   for i in range(dim)])


def test_families_made_together_are_each_made_alone() -> None:
    """`orthonormal_families` (the tight source's shards: rotations together) gives each
    family as the plain Fraction construction on its rotation (`_cayley`): examples
    `scale * Q_i`, separator `sum y_i Q_i`, name, bound quantities."""
    from perceptron.generators.tight import orthonormal_families

    rng = random.Random(11)
    specs = []
    for _ in range(40):
        n = rng.randint(1, 8)
        specs.append(([rng.choice((-1, 1)) for _ in range(n)],
                      Fraction(rng.randint(1, 9), rng.choice((1, 2, 3))), n + rng.randint(0, 2),
                      rng.randrange(10**6) if rng.random() < 0.6 else None))
    for (labels, scale, dim, seed), family in zip(specs, orthonormal_families(specs),
                                                  strict=True):
        basis = (_cayley(dim, seed, 2) if seed is not None
                 else [[Fraction(int(i == j)) for j in range(dim)] for i in range(dim)])
        assert family.data.X == tuple(tuple(scale * v for v in basis[i])
                                      for i in range(len(labels)))
        assert family.data.y == tuple(labels)
        assert family.u == tuple(sum((y * basis[i][k] for i, y in enumerate(labels)),
                                     Fraction(0)) for k in range(dim))
        assert (family.gamma_u, family.R2) == (scale, scale * scale)
        assert family.data.name == (f"orthonormal(n={len(labels)},scale={scale},dim={dim},"
                                    f"rotation={seed})")


def test_the_int64_bound_is_twice_the_product_of_the_squared_row_norms() -> None:
    """`_fits_int64`: `2 prod ||row||^2 <= 2^63 - 1`, every row nonzero (a zero row has no
    solution: left to the Python loop, which raises)."""
    from perceptron.generators.tight import _fits_int64

    assert _fits_int64([[1, 0, 3], [0, 1, 0]])
    assert not _fits_int64([[1, 0, 3], [0, 0, 0]])
    assert _fits_int64([[2**15, 0], [0, 2**15]])  # 2 * 2^30 * 2^30 = 2^61
    assert not _fits_int64([[2**16, 0], [0, 2**15]])  # 2 * 2^32 * 2^30 = 2^63


def test_fraction_free_solve_with_swapped_pivots_and_rows_already_eliminated() -> None:
    """Bareiss' exact divisions hold through row swaps (a zero on the diagonal) and for rows
    whose entry in the pivot's column is already 0 (scaled, not combined): the Fraction
    solution, for a 4 x 4 system needing both."""
    a = [[0, 2, 0, 1], [3, 0, 0, 0], [0, 0, 0, 5], [1, 0, 7, 0]]
    b = [[1, 0], [0, 2], [3, -1], [0, 4]]
    a_ = [[Fraction(v) for v in row] for row in a]
    b_ = [[Fraction(v) for v in row] for row in b]
    assert _solve(a_, b_) == _fraction_solve(a_, b_)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, 2, 7, 2**40 + 1, 2**63 - 1, 2**63, 2**70 + 3]),
                          st.integers(0, 4)), min_size=1, max_size=6))
def test_joined_denominators_are_each_parts_repeated(parts: list[tuple[int, int]]) -> None:
    """Parts over different common denominators joined (`_concat_dens` repeats them in one
    call): per row, each part's denominator, in the dtype of each part's own `den_column`
    unified (int64 unless one passes int64), the same array as joining those columns."""
    from verify.runs.columns import _concat_dens, _unify, den_column

    columns = [Column(np.zeros(n, dtype=np.int64), den) for den, n in parts]
    joined = _concat_dens(columns)
    if all(den == parts[0][0] for den, _ in parts):
        assert joined == parts[0][0]
        return
    expected = np.concatenate(_unify([den_column(den, n) for den, n in parts]))
    assert joined.dtype == expected.dtype and joined.tolist() == expected.tolist()
    assert all(type(v) is int for v in joined.tolist())


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(-2**70, 2**70), st.integers(1, 2**70)), min_size=1,
                max_size=12),
       st.integers(1, 2**70), st.booleans(), st.booleans())
def test_a_column_in_lowest_terms_has_the_same_rationals(
        rows: list[tuple[int, int]], common: int, per_row: bool, factor: bool) -> None:
    """`lowest_terms` divides out common factors (the denominator and every numerator's
    gcd, or each row's own): the same Fractions row by row, positive denominators, no
    common factor left, int64 wherever the values fit."""
    from verify.runs.columns import den_at, lowest_terms

    scale = 6**20 if factor else 1
    nums = int_array([n * scale for n, _ in rows])
    den = (int_array([d * scale for _, d in rows]) if per_row else common * scale)
    column = Column(nums, den)
    low = lowest_terms(column)
    n = len(rows)
    assert [low.value(i) for i in range(n)] == [column.value(i) for i in range(n)]
    assert all(den_at(low.den, i) > 0 for i in range(n))
    if per_row:
        assert all(math.gcd(int(low.num[i]), den_at(low.den, i)) == 1 for i in range(n))
    else:
        assert math.gcd(low.den, *low.num.tolist()) == 1
    for array in (low.num, low.den):
        if isinstance(array, np.ndarray):
            assert (array.dtype == object) == (max_abs(array) > INT64_LIMIT)


def test_the_adversarys_gram_columns_are_checked_in_int64() -> None:
    """The online adversary's `<w, x>` and `<x, x>` on a run's example rows: numerators of
    dozens of bits over the square of its data's denominator, which has most of their
    factors; in lowest terms (`InstanceBatch.column`) they fit int64 and the norm-growth
    step is evaluated there, not in Python ints."""
    played = OnlineAdversary(Fraction(30), Fraction(1), seed=40_029).play()
    run = engine_runner(Scenario(played.data, played.u, Origin("adversary", 40_029)))
    batch = example_rows(run, Origin("adversary", 40_029))
    assert played.data.scale().bit_length() > 32  # its examples' common denominator
    growth = next(c for c in campaign.canonical_checks() if c.name == "norm-growth")
    compiled = campaign._compiled(growth)
    for symbol in compiled.claim.symbols:
        assert batch.column(symbol).num.dtype == np.int64
    values, _ = compiled.claim.evaluate(batch)
    assert values.dtype == np.int64
    assert compiled.check(batch).status == "held"


def test_python_int_dot_products_read_a_repeated_row_once_a_block_at_a_time(
        monkeypatch) -> None:
    """Bigdata30: margin-perceptron's state checks on the 262 984 state rows of one run on a
    20 000 x 50 file peaked at 1 001 MB in one process (857 MB after this change): `<u, w>`
    with a separator past int64 made the repeated `u` on every row and every `w` a Python
    int, all at once. The products are now made a block of rows at a time, the repeated row
    read once and never repeated: the same exact values, on either side, in blocks of any
    size."""
    from verify.runs import columns

    rng = np.random.default_rng(30)
    w = VectorColumn(rng.integers(-10**6, 10**6, size=(97, 5)).astype(np.int64), 3)
    single = VectorColumn.of([[Fraction(3**41 + k, 7) for k in range(5)]])
    want = [sum((Fraction(int(x), 3) * y for x, y in zip(w.num[i], single.row(0),
                                                         strict=True)), Fraction(0))
            for i in range(97)]
    for block in (columns.OBJECT_BLOCK, 5, 7, 1):
        monkeypatch.setattr(columns, "OBJECT_BLOCK", block)
        for first_u in (True, False):
            u = VectorColumn.repeated(single, 97)
            got = gram_column(u, w) if first_u else gram_column(w, u)
            assert [got.value(i) for i in range(97)] == want
            assert u._num is None  # the repetitions never made
        both = gram_column(w, VectorColumn(w.num.astype(object) * 3**40, 3))
        assert [both.value(i) for i in range(97)] == [
            sum((Fraction(int(x), 3) * Fraction(int(x) * 3**40, 3) for x in w.num[i]),
                Fraction(0)) for i in range(97)]


# ---- squared norms of vector combinations: one combination, not six Gram columns ------------


def _gram_symbol(a: str, b: str) -> sympy.Symbol:
    return sympy.Symbol(f"<{a},{b}>")


def _norm2(combination: dict[str, sympy.Expr]) -> sympy.Expr:
    """`<L, L>` of `L = sum c_v v`, expanded into Gram symbols (each pair once, sorted)."""
    names = sorted(combination)
    return sympy.expand(sum(combination[a] * combination[b] * _gram_symbol(*sorted((a, b)))
                            for a in names for b in names))


def test_square_forms_are_found_only_for_squares() -> None:
    from verify.numeric.instances import square_form
    from verify.runs.naming import law

    tau, y, s = sympy.symbols("tau y s")
    rule = law("online", "update-rule")
    found = square_form(CompiledPolynomial.compile(rule.claim.expr))
    assert found is not None and found[0] == 1
    assert sorted(name for name, _ in found[1]) == ["w", "w_next", "x"]
    assert square_form(CompiledPolynomial.compile(
        -_norm2({"a": sympy.Rational(2, 3), "b": -tau * y}))) is not None
    for not_square in (_gram_symbol("a", "a") + _gram_symbol("b", "b"),  # no cross term
                       _gram_symbol("a", "a") - _gram_symbol("b", "b"),
                       2 * _gram_symbol("a", "a"),  # sqrt(2) is no rational
                       _norm2({"a": sympy.Integer(1), "b": tau}) + s,  # a scalar term
                       _norm2({"a": sympy.Integer(1), "b": tau}) + tau * _gram_symbol("a", "b"),
                       s * _gram_symbol("a", "a"),  # no constant square to start from
                       _gram_symbol("a", "a") ** 2):
        assert square_form(CompiledPolynomial.compile(sympy.expand(not_square))) is None


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_square_form_values_are_the_fraction_values(data: st.DataObject) -> None:
    """The update rule's squared norm (and a rational-coefficient one, negated) evaluated as
    one combination is the Fraction value of its expansion on every row, int64 or not, over
    common or per-row denominators, on rows where the combination is zero and where not."""
    from verify.numeric.instances import _evaluate_square, square_form

    tau, y = sympy.symbols("tau y")
    expr = data.draw(st.sampled_from([
        _norm2({"w_next": sympy.Integer(1), "w": sympy.Integer(-1), "x": -tau * y}),
        -_norm2({"w": sympy.Rational(2, 3), "x": -tau * y}),
    ]))
    poly = CompiledPolynomial.compile(expr)
    n = data.draw(st.integers(1, 5))
    dim = data.draw(st.integers(1, 3))
    values = st.one_of(st.sampled_from([0, 1, -1, 2**20, 2**31 - 1, 3037000499, 2**62]),
                       st.integers(-(2**66), 2**66))
    dens = st.sampled_from([1, 2, 3, 7, 2**20 + 7, 2**40 + 1])
    per_row = data.draw(st.booleans())
    den_w = [data.draw(dens) for _ in range(n)] if per_row else [data.draw(dens)] * n
    den_x = [data.draw(dens) for _ in range(n)] if per_row else [data.draw(dens)] * n
    ys = [data.draw(st.sampled_from([-1, 1])) for _ in range(n)]
    taus = [Fraction(data.draw(st.integers(1, 5)), data.draw(st.sampled_from([1, 2, 3])))
            for _ in range(n)]
    W = [[Fraction(data.draw(values), den_w[i]) for _ in range(dim)] for i in range(n)]
    X = [[Fraction(data.draw(values), den_x[i]) for _ in range(dim)] for i in range(n)]
    # on some rows w_next is the update's own w + tau y x: there L is zero
    exact = [data.draw(st.booleans()) for _ in range(n)]
    W_next = [[w + taus[i] * ys[i] * x for w, x in zip(W[i], X[i], strict=True)] if exact[i]
              else [Fraction(data.draw(values), den_w[i]) for _ in range(dim)]
              for i in range(n)]

    def vectors(rows: list[list[Fraction]]) -> VectorColumn:
        if not per_row:
            return VectorColumn.of(rows)
        dens_ = [lcm(*(v.denominator for v in row)) for row in rows]
        num = [[v.numerator * (d // v.denominator) for v in row]
               for row, d in zip(rows, dens_, strict=True)]
        return VectorColumn(np.array(num, dtype=object if max_abs(np.array(
            num, dtype=object)) > INT64_LIMIT else np.int64), int_array(dens_))

    batch = InstanceBatch({"tau": Column.of(taus), "y": Column.of([Fraction(v) for v in ys])},
                          {"w": vectors(W), "w_next": vectors(W_next), "x": vectors(X)},
                          (Origin("t"),), np.zeros(n, dtype=np.int64),
                          np.arange(n, dtype=np.int64))

    def dot(a: list[Fraction], b: list[Fraction]) -> Fraction:
        return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))

    rows = {"w": W, "w_next": W_next, "x": X}
    expected = []
    for i in range(n):
        point = {tau: sympy.Rational(taus[i].numerator, taus[i].denominator), y: ys[i]}
        for symbol in expr.free_symbols:
            pair = symbol.name[1:-1].split(",") if symbol.name.startswith("<") else None
            if pair is not None:
                value = dot(rows[pair[0]][i], rows[pair[1]][i])
                point[symbol] = sympy.Rational(value.numerator, value.denominator)
        expected.append(Fraction(str(expr.subs(point))))
    nums, den = poly.evaluate(batch)
    got = [Fraction(int(v), int(den[i]) if isinstance(den, np.ndarray) else den)
           for i, v in enumerate(nums)]
    assert got == expected
    if nums.dtype != object:
        assert max_abs(nums) <= INT64_LIMIT
    square = square_form(poly)
    assert square is not None
    direct = _evaluate_square(square, batch)
    if direct is not None:  # the combination, where a bound proves it in int64
        assert direct[0] is nums or np.array_equal(direct[0], nums)


def test_small_engine_runs_are_the_trace_records() -> None:
    """`engine_runner`'s record of a small run, made without its trace, is the record
    `run_from_trace` makes of `run_trace`'s trace: every field, the integer run, and the
    updates read as Fractions; under default and other conventions (a step, a start, the
    other zero rule), and the bias's runs left to the trace."""
    import dataclasses

    from perceptron.algorithms.online import run_trace
    from perceptron.conventions import DEFAULT, Conventions
    from verify.runs.online import _KEPT, run_from_trace

    scenarios = [*campaign.generated(11, 12), *campaign.tight(13, 8)]
    kinds = [DEFAULT, Conventions(eta=Fraction(2, 7)), Conventions(rule="lt"),
             Conventions(bias=True)]
    names = {f.name for f in dataclasses.fields(OnlineUpdates)}
    checked = 0
    for scenario in scenarios:
        kinds_here = [*kinds, Conventions(w0=(Fraction(1, 3),) * scenario.data.d)]
        for conventions in kinds_here:
            _KEPT.clear()
            made = engine_runner(scenario, conventions)
            trace = run_trace(scenario.data, conventions, max_epochs=scenario.max_epochs)
            expected = run_from_trace(trace, scenario.data, scenario.u)
            assert set(vars(made)) >= names
            for name in names - {"updates", "integer"}:
                assert getattr(made, name) == getattr(expected, name), name
            assert (made.integer is None) == (expected.integer is None)
            if made.integer is not None:
                ours, theirs = made.integer.problem, expected.integer.problem  # type: ignore[union-attr]
                assert (ours.W0, ours.E, ours.unit, ours.form.scale) == (
                    theirs.W0, theirs.E, theirs.unit, theirs.form.scale)
                for array in ("Z", "q"):
                    assert np.array_equal(getattr(ours, array), getattr(theirs, array))
                assert np.array_equal(made.integer.indices,
                                      expected.integer.indices)  # type: ignore[union-attr]
                assert np.array_equal(made.integer.iterates,
                                      expected.integer.iterates)  # type: ignore[union-attr]
                checked += 1
            assert len(made.updates) == len(expected.updates)
            assert list(made.updates) == list(expected.updates)
    assert checked >= len(scenarios)
