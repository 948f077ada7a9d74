"""The batch perceptron's margins by the signed Gram rows and its optimal step from n-vectors
(`batch._SignedRows.moved`) make the very run the products `Z @ xbar` made: every M_k,
alpha_k, iterate `W_k / D_k`, `xbar_k` and the reason the run stopped, against the loop as it
was before (kept below as the reference), on seeded data of every path: small data in Python
lists, int64 data whose products may pass int64 (the Gram path), data of Python ints."""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from operator import mul

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms import batch
from perceptron.algorithms.batch import OptimalStep, _step_rule, run_batch
from perceptron.algorithms.fast import integer_form, integer_vector
from perceptron.dataset import Dataset

F = Fraction


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
