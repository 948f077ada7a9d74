"""`perceptron/algorithms/voted.py`: the voted and the averaged perceptron against a plain
Fraction loop written from Freund & Schapire's Figure 1, and their laws: the counts add up to
the presentations, the vectors are the perceptron's iterates, the averaged vector is the sum of
the iterate held after every presentation, and on separable data the vote and the averaged
vector converge to separators."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms.margin import run_margin
from perceptron.algorithms.voted import run_voted
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError
from perceptron.generators.hypothesis import seeded_separable, separable_data


def dot(a: Vector, b: Vector) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def figure_one(data: Dataset, epochs: int) -> tuple[list[Vector], list[int]]:
    """Freund & Schapire (1999), Figure 1, in Fractions (a mistake when y<v, x> <= 0)."""
    v: Vector = tuple(Fraction(0) for _ in range(data.d))
    vectors, counts = [v], [0]
    for _ in range(epochs):
        for x, y in zip(data.X, data.y, strict=True):
            if y * dot(vectors[-1], x) <= 0:
                vectors.append(tuple(a + y * b for a, b in zip(vectors[-1], x, strict=True)))
                counts.append(1)
            else:
                counts[-1] += 1
    return vectors, counts


@given(separable_data(max_dim=4, max_n=6), st.integers(1, 6))
def test_the_integer_loop_is_figure_one(planted, epochs: int) -> None:
    run = run_voted(planted.data, epochs)
    vectors, counts = figure_one(planted.data, epochs)
    assert list(run.vectors) == vectors and list(run.counts) == counts
    assert sum(run.counts) == epochs * planted.data.n == len(run.presented)
    assert run.updates == sum(run.mistakes) == len(vectors) - 1


@given(separable_data(max_dim=4, max_n=6), st.integers(1, 5))
def test_the_averaged_vector_is_the_sum_of_the_iterates(planted, epochs: int) -> None:
    """sum_j c_j v_j == the sum, over the presentations, of the vector held after each."""
    run = run_voted(planted.data, epochs)
    total: Vector = tuple(Fraction(0) for _ in range(planted.data.d))
    current = run.vectors[0]
    made = 0
    for mistake in run.mistakes:
        if mistake:
            made += 1
            current = run.vectors[made]
        total = tuple(a + b for a, b in zip(total, current, strict=True))
    assert run.averaged() == total


def test_the_vectors_are_the_perceptron_iterates() -> None:
    for seed in range(12):
        data = seeded_separable(seed).data
        run = run_voted(data, 6)
        margin = run_margin(data, 0, max_epochs=6)
        assert run.updates == margin.updates
        assert run.vectors[-1] == margin.w


def test_on_separable_data_vote_and_average_converge() -> None:
    """Once the last vector separates and its count exceeds the retired ones', the vote, and
    (after enough epochs) the averaged vector, classify every example correctly."""
    for seed in range(8):
        data = seeded_separable(seed).data
        epochs = 3 * run_margin(data, 0, max_epochs=1000).epochs + 2
        run = run_voted(data, epochs)
        assert run.counts[-1] > sum(run.counts[:-1])
        for x, y in zip(data.X, data.y, strict=True):
            assert y * run.predict_voted(x) == 1
            assert y * dot(run.vectors[-1], x) > 0
        long = run_voted(data, 40 * epochs)
        assert all(y * long.predict_averaged(x) == 1
                   for x, y in zip(data.X, data.y, strict=True))


def test_a_tied_vote_and_the_hyperplane_predict_zero() -> None:
    data = Dataset.of([[1, 0], [0, 1]], [1, -1])
    run = run_voted(data, 1)  # v_2 = e_1 (count 1), v_3 = e_1 - e_2 (count 1)
    assert run.counts == (0, 1, 1)
    assert run.vote((Fraction(0), Fraction(1))) == -1
    assert run.vote((Fraction(1), Fraction(1))) == 1
    assert run.predict_averaged((Fraction(0), Fraction(0))) == 0
    assert run.predict_voted((Fraction(-1), Fraction(1))) == -1


def test_no_epoch_is_refused() -> None:
    with pytest.raises(DataError, match="epochs must be at least 1"):
        run_voted(Dataset.of([[1]], [1]), 0)
