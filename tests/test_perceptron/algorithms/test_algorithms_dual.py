"""The dual (kernel) perceptron: with the linear kernel it is the primal run, exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms.dual import LINEAR, PolynomialKernel, run_dual
from perceptron.algorithms.online import run_online
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset
from perceptron.examples import slides_10_607, xor

F = Fraction

rational = st.builds(F, st.integers(-9, 9), st.sampled_from([1, 2, 3, 5]))


@st.composite
def runs(draw: st.DrawFn) -> tuple[Dataset, Conventions]:
    n = draw(st.integers(1, 6))
    d = draw(st.integers(1, 3))
    X = tuple(tuple(draw(rational) for _ in range(d)) for _ in range(n))
    y = tuple(draw(st.sampled_from([-1, 1])) for _ in range(n))
    conventions = Conventions(rule=draw(st.sampled_from(["le", "lt", "mistake"])),
                              sign_zero=draw(st.sampled_from([1, 0, -1])),
                              bias=draw(st.booleans()),
                              eta=draw(st.sampled_from([F(1), F(1, 2), F(4)])))
    return Dataset(X, y), conventions


@given(runs(), st.integers(1, 15))
def test_linear_kernel_dual_equals_primal(run: tuple[Dataset, Conventions], epochs: int
                                          ) -> None:
    data, conventions = run
    primal = run_online(data, conventions, max_epochs=epochs)
    dual = run_dual(data, LINEAR, conventions, max_epochs=epochs)
    assert (dual.mistakes, dual.epochs, dual.converged, dual.separating) == (
        primal.mistakes, primal.epochs, primal.converged, primal.separating)
    assert primal.trace is not None
    assert list(dual.indices) == list(primal.trace.indices)
    assert list(dual.update_epochs) == list(primal.trace.epochs)
    assert dual.primal_w() == primal.w
    assert list(dual.trace().iterates()) == list(primal.trace.iterates())
    for x in data.X:
        score = sum(a * b for a, b in zip(primal.w, (*x, F(1)) if conventions.bias else x,
                                          strict=True))
        assert dual.decision(x) == score


def test_polynomial_kernel_separates_xor() -> None:
    data = xor()
    assert not run_online(data, Conventions(bias=True)).converged
    result = run_dual(data, PolynomialKernel(F(1), 2), Conventions(bias=True))
    assert result.converged and result.separating
    assert all(y * result.decision(x) > 0 for x, y in zip(data.X, data.y, strict=True))
    with pytest.raises(ValueError, match="linear"):
        result.primal_w()


def test_kernel_values_are_exact() -> None:
    k = PolynomialKernel(F(1, 3), 3)
    assert k((F(1, 2), F(2)), (F(2, 3), F(-1))) == (F(1, 3) + F(1, 3) - 2) ** 3
    assert LINEAR((F(1), F(2)), (F(3), F(4))) == 11
    with pytest.raises(ValueError):
        PolynomialKernel(F(-1), 2)
    with pytest.raises(ValueError):
        PolynomialKernel(F(0), 0)


def test_large_kernel_values_use_exact_integers() -> None:
    data = Dataset.of([(10**6, 1), (-(10**6), 3), (5, 10**6)], [1, -1, 1])
    result = run_dual(data, PolynomialKernel(F(7, 3), 5))
    assert result.converged and "object" in result.arithmetic
    assert all(y * result.decision(x) > 0 for x, y in zip(data.X, data.y, strict=True))


def test_kernel_rejects_a_nonzero_start() -> None:
    with pytest.raises(ValueError, match="w0"):
        run_dual(slides_10_607(), LINEAR, Conventions(w0=(1, 0)))


def test_the_former_names_of_the_dual_perceptron_still_work() -> None:
    """`perceptron.kernel_perceptron.run_kernel` (the name before the move) is `run_dual`."""
    from perceptron.algorithms import dual
    from perceptron.kernel_perceptron import KernelResult, run_kernel

    assert run_kernel is dual.run_dual and KernelResult is dual.DualResult
