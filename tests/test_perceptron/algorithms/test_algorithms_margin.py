"""`perceptron/algorithms/margin.py`: the margin perceptron against a plain Fraction loop.

The integer loop decides `y<w, x> <= beta` as `<W, Z_i> <= floor(beta s^2)`; these tests pin
that it is the textbook rule on rational data (including the boundary `y<w, x> = beta`, where
it must update), that `beta = 0` is the engine's ordinary perceptron, and the margin
perceptron's own laws: at most `(R2 + 2 beta) <u,u> / gamma_u^2` updates on separable data,
and a converged iterate with margin above `beta` on every example.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms.margin import run_margin, threshold
from perceptron.algorithms.online import run_online
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError
from perceptron.generators.hypothesis import seeded_separable, separable_data
from perceptron.geometry.linear import norm2, radius2
from verify.runs.quantity import margin


def dot(a: Vector, b: Vector) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def reference(data: Dataset, beta: Fraction, max_epochs: int) -> tuple[list[int], Vector, bool]:
    """The textbook loop in Fractions: w += y x whenever y<w, x> <= beta."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    indices: list[int] = []
    for _ in range(max_epochs):
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            if y * dot(w, x) <= beta:
                w = tuple(a + y * b for a, b in zip(w, x, strict=True))
                indices.append(i)
                updated = True
        if not updated:
            return indices, w, True
    return indices, w, False


betas = st.fractions(min_value=0, max_value=20, max_denominator=12)


@given(separable_data(max_dim=4, max_n=6), betas)
def test_the_integer_loop_is_the_textbook_rule(planted, beta: Fraction) -> None:
    run = run_margin(planted.data, beta, max_epochs=30)
    indices, w, converged = reference(planted.data, beta, 30)
    assert list(run.indices) == indices
    assert run.w == w
    assert run.converged == converged
    assert run.updates == len(indices)


@given(separable_data(max_dim=4, max_n=8))
def test_beta_zero_is_the_ordinary_perceptron(planted) -> None:
    ours = run_margin(planted.data, 0)
    engine = run_online(planted.data, keep_trace=True)
    assert ours.w == tuple(engine.w)
    assert ours.updates == engine.mistakes
    assert ours.converged == engine.converged
    assert list(ours.indices) == [int(step.index) for step in engine.trace]


@given(separable_data(max_dim=4, max_n=8), betas)
def test_at_most_r2_plus_two_beta_over_gamma_squared_updates(planted, beta: Fraction) -> None:
    run = run_margin(planted.data, beta, max_epochs=100_000)
    gamma_u = margin(planted.data, planted.u)
    bound = (radius2(planted.data) + 2 * beta) * norm2(planted.u) / gamma_u**2
    assert run.converged
    assert run.updates <= bound
    # converged: every example has a margin above beta (else it would have updated)
    assert all(y * dot(run.w, x) > beta for x, y in zip(planted.data.X, planted.data.y,
                                                         strict=True))


def test_the_boundary_updates() -> None:
    """y<w, x> == beta exactly (a non-integer beta s^2) is an update; just above it is not."""
    data = Dataset(((Fraction(1, 2), Fraction(0)), (Fraction(1, 3), Fraction(0))), (1, 1),
                   "boundary")
    # after the first update w = (1/2, 0): example 2 has y<w,x> = 1/6
    assert list(run_margin(data, Fraction(1, 6), max_epochs=1).indices) == [0, 1]
    assert list(run_margin(data, Fraction(1, 6) - Fraction(1, 10**9),
                           max_epochs=1).indices) == [0]
    assert threshold(Fraction(1, 6), 6) == 6 and threshold(Fraction(1, 7), 6) == 5


def test_a_larger_beta_updates_more_and_separates_by_more() -> None:
    data = seeded_separable(11).data
    runs = [run_margin(data, beta * radius2(data)) for beta in (0, Fraction(1, 3), 2)]
    assert [r.converged for r in runs] == [True, True, True]
    assert runs[0].updates < runs[1].updates < runs[2].updates


def test_the_integer_form_is_the_run() -> None:
    """`problem` holds the run in integers: W after the updates is s w, and `q = B + 1`."""
    data = seeded_separable(5).data
    run = run_margin(data, Fraction(3, 2))
    form = run.problem.form
    W = [0] * form.d
    for i in run.indices:
        W = [a + int(b) for a, b in zip(W, run.problem.Z[i], strict=True)]
    assert tuple(Fraction(v) * run.problem.unit for v in W) == run.w
    assert set(run.problem.q.tolist()) == {threshold(Fraction(3, 2), form.scale) + 1}


@pytest.mark.parametrize(("beta", "epochs"), [(-1, 5), (0, 0)])
def test_bad_arguments_are_one_clear_error(beta: int, epochs: int) -> None:
    with pytest.raises(DataError):
        run_margin(seeded_separable(1).data, beta, max_epochs=epochs)
