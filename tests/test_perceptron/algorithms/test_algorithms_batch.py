"""The batch perceptron: M_k under both rules, the three step rules, exact iterates; the
exact product it computes its margins with (`fast.exact_matvec`), limbed or not; and its
margins moved by the signed Gram rows with the optimal step from n-vectors
(`batch._SignedRows.moved`), which make the very run the products `Z @ xbar` made: every M_k,
alpha_k, iterate `W_k / D_k`, `xbar_k` and stop reason, against the loop as it was before (kept
here as the reference, `old_loop`), on seeded data of every path: small data in Python lists,
int64 data whose products may pass int64 (the Gram path), data of Python ints."""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from operator import mul

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms import batch, fast
from perceptron.algorithms.batch import (
    ConstantStep,
    OptimalStep,
    ScheduleStep,
    _step_rule,
    run_batch,
)
from perceptron.algorithms.fast import integer_form, integer_vector
from perceptron.dataset import Dataset
from perceptron.examples import slides_10_607
from perceptron.result import separates

F = Fraction


def vec(*values: object) -> tuple[Fraction, ...]:
    return tuple(F(v) for v in values)  # type: ignore[arg-type]


def reference(data: Dataset, alphas: list[Fraction], rule: str, steps: int
              ) -> list[tuple[tuple[int, ...], tuple[Fraction, ...]]]:
    """The batch perceptron written out in Fractions: (M_k, w_{k+1}) per iteration."""
    w = (F(0),) * data.d
    out = []
    for k in range(steps):
        margins = [y * sum(a * b for a, b in zip(w, x, strict=True))
                   for x, y in zip(data.X, data.y, strict=True)]
        M = tuple(j for j, m in enumerate(margins) if (m < 0 if rule == "lt" else m <= 0))
        if not M:
            break
        xbar = [sum((data.y[j] * data.X[j][i] for j in M), F(0)) for i in range(data.d)]
        w = tuple(a + alphas[k] * b for a, b in zip(w, xbar, strict=True))
        out.append((M, w))
    return out


def test_slides_example_constant_step() -> None:
    data = slides_10_607()
    result = run_batch(data, step=1)
    expected = reference(data, [F(1)] * 50, "le", 50)
    assert result.trace is not None
    assert [(r.M, r.w_after) for r in result.trace] == expected
    assert result.converged and result.separating and result.w == expected[-1][1]
    assert result.iterations == len(expected)
    first = result.trace[0]
    assert first.M == (0, 1, 2, 3, 4, 5)  # w_0 = 0: every margin is 0
    assert first.xbar == vec(6, 0)


def test_strict_rule_never_leaves_zero() -> None:
    """Under `< 0` the zero start makes no mistake: Chan's M_k is empty at once."""
    result = run_batch(slides_10_607(), step=1, rule="lt")
    assert (result.iterations, result.converged, result.w) == (0, True, vec(0, 0))
    assert not result.separating


@given(st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=6),
       st.lists(st.sampled_from([-1, 1]), min_size=6, max_size=6),
       st.sampled_from([F(1), F(1, 3), F(5, 2)]), st.sampled_from(["le", "lt"]))
def test_matches_the_written_out_algorithm(X: list[tuple[int, int]], labels: list[int],
                                           alpha: Fraction, rule: str) -> None:
    data = Dataset.of(X, labels[: len(X)])
    result = run_batch(data, step=alpha, rule=rule, max_iterations=20)
    expected = reference(data, [alpha] * 20, rule, 20)
    assert result.trace is not None
    got = [(r.M, r.w_after) for r in result.trace]
    assert got == expected[: len(got)]
    if result.converged:
        assert got == expected
    for record in result.trace:
        assert record.xbar == tuple(
            sum((data.y[j] * data.X[j][i] for j in record.M), F(0)) for i in range(data.d))
        assert record.w_after == tuple(a + record.alpha * b
                                       for a, b in zip(record.w_before, record.xbar, strict=True))


def test_optimal_step_moves_closer_to_theta_star() -> None:
    data = Dataset.of([(2, 1), (1, 3), (-1, -1), (-2, 1), ("1/2", "-1")], [1, 1, -1, -1, 1])
    theta = vec(3, 1)
    assert separates(data, theta)
    result = run_batch(data, step="optimal", theta_star=theta, max_iterations=200)
    assert result.converged and result.separating and result.trace is not None
    previous = None
    for record in result.trace:
        xbar, w = record.xbar, record.w_before
        alpha = sum(t * v for t, v in zip(theta, xbar, strict=True)) / sum(v * v for v in xbar)
        assert record.alpha == alpha
        dist = sum((a - t) ** 2 for a, t in zip(record.w_after, theta, strict=True))
        before = sum((a - t) ** 2 for a, t in zip(w, theta, strict=True))
        assert dist < before
        if previous is not None:
            assert before == previous
        previous = dist
    with pytest.raises(ValueError, match="theta_star"):
        run_batch(data, step="optimal")


def test_schedule_steps() -> None:
    data = slides_10_607()
    listed = run_batch(data, step=[1, F(1, 2), F(1, 3), F(1, 4)], max_iterations=10)
    from_function = run_batch(data, step=lambda k: F(1, k), max_iterations=10)
    assert listed.alphas == from_function.alphas[: len(listed.alphas)]
    assert listed.w == from_function.w or "schedule" in listed.reason
    short = run_batch(data, step=ScheduleStep([1]), max_iterations=10)
    if not short.converged:
        assert "schedule" in short.reason
    with pytest.raises(ValueError, match="positive"):
        run_batch(data, step=[0], max_iterations=3)


def test_stuck_and_cycling_runs_stop_with_a_reason() -> None:
    stuck = run_batch(Dataset.of([(1, 0), (-1, 0)], [1, 1]), step=1)
    assert not stuck.converged and stuck.iterations == 0 and "xbar_0 = 0" in stuck.reason
    cycling = run_batch(Dataset.of([(2,), (-1,), (2,), (3,)], [-1, -1, -1, -1]), step=1)
    assert not cycling.converged and cycling.reason.startswith("cycling")
    assert cycling.iterations < 1000


def test_bias_w0_and_step_objects() -> None:
    data = Dataset.of([(0,), (1,), (3,)], [-1, 1, 1])
    result = run_batch(data, step=ConstantStep(F(1, 2)), bias=True, w0=(0, F(-1, 4)))
    assert result.converged and result.separating and len(result.w) == 2
    assert separates(data, result.w)
    optimal = run_batch(data, step=OptimalStep((2, -1)), bias=True)
    assert optimal.converged and optimal.separating
    with pytest.raises(ValueError, match="coordinates"):
        run_batch(data, step=1, w0=(1, 2, 3))
    with pytest.raises(ValueError, match="positive"):
        run_batch(data, step=-1)
    with pytest.raises(ValueError, match="rule"):
        run_batch(data, step=1, rule="leq")


#: Matrices whose int64 entries reach the limb bound's edge: `top * d` near 2**46, so limbs
#: are at their narrowest (16 bits) and each limb column's sums near 2**62.
_entries = st.one_of(st.integers(-3, 3), st.integers(-(2**40), 2**40),
                     st.sampled_from([2**43 - 1, -(2**43 - 1), 2**42]))


@given(st.data())
def test_exact_matvec_limbed_is_the_python_integer_product(data: st.DataObject) -> None:
    """An int64 matrix times big integers (the batch iterates' numerators) cut into int64
    limbs equals the product in Python integers, on both sides of the limb bound."""
    n, d = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 8))
    rows = [[data.draw(_entries) for _ in range(d)] for _ in range(n)]
    vector = [data.draw(st.integers(-(2**600), 2**600) | st.sampled_from([0, 1, -(2**64)]))
              for _ in range(d)]
    matrix = np.array(rows, dtype=np.int64)
    top = max(abs(v) for row in rows for v in row)
    expected = [sum(r * v for r, v in zip(row, vector, strict=True)) for row in rows]
    got = fast.exact_matvec(matrix, vector)
    assert got == expected and all(type(v) is int for v in got)
    if 62 - (top * d).bit_length() >= fast.MIN_LIMB_BITS and max(map(abs, vector)) >= 2**63:
        assert fast._limbed_matvec(matrix, vector, 62 - (top * d).bit_length()) == expected


def test_exact_matvec_limbs_at_their_narrowest_sum_near_the_int64_edge() -> None:
    """`top * d = 2**46 - 8`: 16-bit limbs, every limb column's sum about 2**62 in magnitude,
    entries of both signs; the product is still the Python one, and through the limbs."""
    top, d = 2**43 - 1, 8
    matrix = np.array([[top] * d, [-top] * d, [top, -top] * (d // 2)], dtype=np.int64)
    vector = [2**700 - 1, -(2**700 - 1), 2**64 + 2**16 - 1, -(2**63), 1, -1, 2**16, 0]
    expected = [sum(int(r) * v for r, v in zip(row, vector, strict=True)) for row in matrix]
    assert 62 - (top * d).bit_length() == fast.MIN_LIMB_BITS
    assert fast._limbed_matvec(matrix, vector, fast.MIN_LIMB_BITS) == expected
    assert fast.exact_matvec(matrix, vector) == expected
    assert fast.exact_matvec(matrix, [2**700] * d) == [top * d * 2**700, -top * d * 2**700, 0]


@given(st.data())
def test_a_gram_past_int64_is_the_python_integer_product(data: st.DataObject) -> None:
    """The Gram of int64 rows whose products may pass int64 (`_limbed_gram`: limbs of both
    factors, recombined as Python ints) equals the product in Python integers, up to the
    largest int64 magnitudes, in every width; below the bound it stays int64."""
    n, d = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 40))
    entries = st.one_of(st.integers(-3, 3), st.integers(-(2**63 - 1), 2**63 - 1),
                        st.sampled_from([2**63 - 1, -(2**63 - 1), 2**31, -(2**40) + 1]))
    rows = [[data.draw(entries) for _ in range(d)] for _ in range(n)]
    matrix = np.array(rows, dtype=np.int64)
    top = max(abs(v) for row in rows for v in row)
    expected = [[sum(a * b for a, b in zip(r, s, strict=True)) for s in rows] for r in rows]
    got = fast.gram(matrix, top)
    assert got.tolist() == expected and all(type(v) is int for r in got.tolist() for v in r)
    assert (got.dtype == object) == (top * top * d >= 2**63)
    limbed = fast._limbed_gram(matrix, top)  # None: narrow rows keep the object product
    assert limbed is None or limbed.tolist() == expected


def test_a_gram_of_the_widest_int64_entries_through_limbs() -> None:
    """Entries of magnitude 2**63 - 1 of both signs in 300 columns: every limb product's
    column sum near its int64 bound, the Gram still the Python integers'."""
    top, d = 2**63 - 1, 300
    matrix = np.array([[top] * d, [-top] * d, [top, -top] * (d // 2)], dtype=np.int64)
    assert fast._limbed_gram(matrix, top) is not None
    assert fast.gram(matrix, top).tolist() == [[d * top * top, -d * top * top, 0],
                                               [-d * top * top, d * top * top, 0],
                                               [0, 0, d * top * top]]


@given(st.lists(st.tuples(st.integers(-(2**70), 2**70) | st.integers(-4, 4),
                          st.integers(-4, 4) | st.sampled_from([F(1, 3), F(-5, 7)])),
                min_size=1, max_size=6),
       st.lists(st.sampled_from([-1, 1]), min_size=6, max_size=6),
       st.sampled_from(["le", "lt"]), st.booleans())
def test_python_lists_and_numpy_are_the_same_run(X: list[tuple[object, object]],
                                                 labels: list[int], rule: str,
                                                 optimal: bool) -> None:
    """A small run computes its margins and xbar_k in Python lists, a large one by numpy
    (`batch.SMALL_CELLS`): forced either way, the same data give the same run, trace
    integers included, and the numpy one still matches the run written out in Fractions."""
    from perceptron.algorithms import batch

    data = Dataset.of(X, labels[: len(X)])
    step: object = "optimal" if optimal else F(2, 3)
    theta = (F(1), F(-1, 2)) if optimal else None
    runs = []
    for cells in (10**9, 0):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(batch, "SMALL_CELLS", cells)
            runs.append(run_batch(data, step=step, theta_star=theta, rule=rule,
                                  w0=(F(1, 5), -1), max_iterations=15))
    lists, numpy = runs
    assert lists.trace is not None and numpy.trace is not None
    assert (lists.iterations, lists.converged, lists.reason, lists.w, lists.separating,
            lists.alphas, lists.trace.sets) == (
        numpy.iterations, numpy.converged, numpy.reason, numpy.w, numpy.separating,
        numpy.alphas, numpy.trace.sets)
    assert lists.trace.integers is not None and numpy.trace.integers is not None
    assert lists.trace.integers.iterates == numpy.trace.integers.iterates
    assert lists.trace.integers.xbars == numpy.trace.integers.xbars
    assert lists.separating == separates(data, lists.w)
    for record in numpy.trace:  # the Fraction replay of the engine's M_k and alpha_k
        margins = [y * sum(a * b for a, b in zip(record.w_before, x, strict=True))
                   for x, y in zip(data.X, data.y, strict=True)]
        assert record.M == tuple(j for j, m in enumerate(margins)
                                 if (m < 0 if rule == "lt" else m <= 0))


def old_loop(data: Dataset, *, step: object, theta_star: object, rule: str,
             max_iterations: int, w0: tuple[Fraction, ...]) -> tuple[object, ...]:
    """`run_batch`'s loop before the Gram rows: margins moved by `Z @ xbar`, alpha from the
    d-vector `xbar` (`StepRule.alpha`), in Python ints. Returns (sets, alphas, iterates,
    xbars, converged, reason)."""
    chooser = _step_rule(step, theta_star)  # type: ignore[arg-type]
    form = integer_form(data)
    Z = form.signed().tolist()
    W, D = integer_vector(w0)
    sets, alphas, iterates, xbars = [], [], [(tuple(W), D)], []
    saved, saved_k, power, lam = (tuple(W), D), 0, 1, 0
    converged, reason, k = False, "", 0
    margins = [sum(map(mul, z, W)) for z in Z]
    while True:
        M = tuple(j for j, m in enumerate(margins) if (m < 0 if rule == "lt" else m <= 0))
        if not M:
            converged, reason = True, f"M_{k} is empty: w_{k} makes no mistake"
            break
        if k >= max_iterations:
            reason = f"iteration cap {max_iterations} reached with |M_{k}| = {len(M)}"
            break
        xbar = [sum(column) for column in zip(*(Z[j] for j in M), strict=True)]
        if not any(xbar):
            reason = (f"xbar_{k} = 0 with |M_{k}| = {len(M)}: no step can move w_{k}, "
                      "the run never converges")
            break
        alpha = chooser.alpha(k + 1, xbar, form.scale)
        assert alpha is not None
        if alpha == 0:
            reason = f"alpha_{k + 1} = 0: w_{k} would never change, the run never converges"
            break
        bs, Da = alpha.denominator * form.scale, D * alpha.numerator
        W = [wi * bs + Da * xi for wi, xi in zip(W, xbar, strict=True)]
        margins = [m * bs + Da * sum(map(mul, z, xbar)) for m, z in zip(margins, Z, strict=True)]
        D = D * bs
        g = gcd(D, *W)
        if g > 1:
            W, D = [wi // g for wi in W], D // g
            margins = [m // g for m in margins]
        k += 1
        sets.append(M)
        alphas.append(alpha)
        iterates.append((tuple(W), D))
        xbars.append(tuple(xbar))
        if iterates[-1] == saved:
            reason = (f"cycling: w_{k} equals w_{saved_k}, so the iterations repeat "
                      "forever: the run never converges")
            break
        lam += 1
        if lam == power:
            saved, saved_k, power, lam = iterates[-1], k, power * 2, 0
    return tuple(sets), tuple(alphas), tuple(iterates), tuple(xbars), converged, reason


ENTRY = (st.integers(-4, 4) | st.integers(-(2**40), 2**40) | st.integers(-(2**70), 2**70)
         | st.sampled_from([F(1, 3), F(-5, 7), F(7, 2)]))


@st.composite
def problems(draw: st.DrawFn) -> tuple[Dataset, tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Data (n <= 8, d <= 4; entries small, of 40 bits (int64 products that may overflow)
    or of 70 bits (Python ints)), a reference theta* and a start."""
    n, d = draw(st.integers(1, 8)), draw(st.integers(1, 4))
    big = draw(st.sampled_from([0, 2**40, 2**70]))
    entry = st.integers(-4, 4) | st.integers(-big, big) if big else ENTRY
    X = [tuple(draw(entry) for _ in range(d)) for _ in range(n)]
    y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
    theta = tuple(F(draw(st.integers(-5, 5)), draw(st.integers(1, 3))) for _ in range(d))
    w0 = tuple(F(draw(st.integers(-3, 3))) for _ in range(d))
    return Dataset.of(X, y), theta, w0


@given(problems(), st.sampled_from(["le", "lt"]), st.booleans(), st.booleans())
def test_gram_rows_make_the_same_run(problem: tuple[Dataset, tuple[Fraction, ...],
                                                    tuple[Fraction, ...]],
                                     rule: str, optimal: bool, small: bool) -> None:
    """Small data (Python lists) or forced to numpy (`SMALL_CELLS = 0`, so the Gram rows for
    int64 data whose `n d max_abs^2` passes 2**63): every iterate, M_k, alpha_k and xbar_k,
    and how the run ended, are the old loop's."""
    data, theta, w0 = problem
    step: object = "optimal" if optimal else F(2, 3)
    with pytest.MonkeyPatch.context() as patch:
        if not small:
            patch.setattr(batch, "SMALL_CELLS", 0)
        result = run_batch(data, step=step, theta_star=theta, rule=rule, w0=w0,
                           max_iterations=12)
    expected = old_loop(data, step=step, theta_star=theta, rule=rule, max_iterations=12, w0=w0)
    trace = result.trace
    assert trace is not None and trace.integers is not None
    assert (tuple(trace.sets), tuple(trace.alphas), trace.integers.iterates,
            trace.integers.xbars, result.converged, result.reason) == expected
    assert result.alphas == expected[1]
    W, D = expected[2][-1]
    assert result.w == tuple(F(v, D) for v in W)


def test_the_gram_path_is_taken() -> None:
    """40-bit int64 data forced to numpy keep the Gram rows (the path the property test
    compares); 70-bit data (Python ints) and data whose products fit int64 do not."""
    def gram_of(X: list[tuple[int, ...]]) -> object:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(batch, "SMALL_CELLS", 0)
            return batch._SignedRows(integer_form(Dataset.of(X, [1, -1]))).gram

    # Z = (2^40, 3), (5, -2^40): <Z0, Z1> = 5 * 2^40 - 3 * 2^40
    assert gram_of([(2**40, 3), (-5, 2**40)]) == [[2**80 + 9, 2 * 2**40],
                                                  [2 * 2**40, 25 + 2**80]]
    assert gram_of([(2**70, 3), (-5, 1)]) is None
    assert gram_of([(2, 3), (-5, 1)]) is None
    assert batch._SignedRows(integer_form(Dataset.of([(2, 3), (-5, 1)], [1, -1]))).gram == [
        [13, 7], [7, 26]]
    assert isinstance(_step_rule("optimal", (1, 1)), OptimalStep)


@given(st.integers(1, 6), st.integers(1, 5),
       st.sampled_from([4, 2**20, 2**40, 2**62, 2**63 - 1, 2**70]), st.data())
def test_a_numpy_step_is_the_python_integer_sums(n: int, d: int, top: int,
                                                 data: st.DataObject) -> None:
    """`_SignedRows.step` on numpy's rows (issue 30: xbar summed in int64 when `|M| max_abs`
    fits, else in Python ints; the products in int64 when `n d max_abs^2` fits, else by the
    Gram rows or `exact_matvec`): xbar and every `<xbar, Z[j]>` are the Python-int sums,
    and no xbar of 0 gives products."""
    X = [tuple(data.draw(st.integers(-top, top)) for _ in range(d)) for _ in range(n)]
    y = [data.draw(st.sampled_from([-1, 1])) for _ in range(n)]
    M = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch, "SMALL_CELLS", 0)
        rows = batch._SignedRows(integer_form(Dataset.of(X, y)))
    Z = [[yi * v for v in x] for x, yi in zip(X, y, strict=True)]
    xbar = [sum(Z[j][i] for j in M) for i in range(d)]
    found, moved = rows.step(M)
    assert found == xbar and all(type(v) is int for v in found)
    assert moved == ([sum(map(mul, xbar, z)) for z in Z] if any(xbar) else None)
