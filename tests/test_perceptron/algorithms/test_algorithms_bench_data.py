"""Peer data: the exact-rational datasets of the Coq-verified perceptron benchmark.

Every `vec*`, `feat*` and `Z*` file, with the benchmark's constant-1 bias feature (ours is
appended last, theirs prepended: a permutation of coordinates) and labels 0/1 -> -1/+1, must
converge to a w that separates every vector exactly. All of them take under 2 s together.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from perceptron.algorithms.online import run_online
from perceptron.conventions import Conventions
from perceptron.io.loaders import load
from perceptron.result import separates
from verify.numeric.campaign import BENCH_DATA

BENCH = BENCH_DATA
FILES = sorted(p.name for p in BENCH.glob("*")
               if p.name.startswith(("vec", "feat", "Z")) and p.suffix == ".dat") \
    if BENCH.is_dir() else []

pytestmark = pytest.mark.skipif(not BENCH.is_dir(), reason=f"benchmark data not at {BENCH}")


def test_all_files_are_there() -> None:
    assert len(FILES) == 22, FILES


@pytest.mark.parametrize("name", FILES)
def test_converges_to_an_exact_separator(name: str) -> None:
    data = load(BENCH / name)
    result = run_online(data, Conventions(bias=True), keep_trace=False)
    assert result.converged, result.reason
    assert result.separating
    assert separates(data, result.w)
    assert len(result.w) == data.d + 1


def test_small_file_against_the_fraction_reference() -> None:
    """feat100_1: the integer engine, the Fraction engine and a Fraction check agree."""
    data = load(BENCH / "feat100_1.dat")
    fast = run_online(data, Conventions(bias=True), keep_trace=False)
    exact = run_online(data, Conventions(bias=True), keep_trace=False, engine="exact")
    assert (fast.mistakes, fast.epochs, fast.w) == (exact.mistakes, exact.epochs, exact.w)
    one = Fraction(1)
    assert all(y * sum(a * b for a, b in zip(fast.w, (*x, one), strict=True)) > 0
               for x, y in zip(data.X, data.y, strict=True))


def test_iris_setosa_against_the_rest_is_separable() -> None:
    """In `iris_data_set` the first 50 flowers (setosa) have label 1, the others 0."""
    data = load(BENCH / "iris_data_set")
    assert (data.n, data.d) == (150, 4)
    assert data.y == (1,) * 50 + (-1,) * 100
    assert data.X[0] == (Fraction(51, 10), Fraction(7, 2), Fraction(7, 5), Fraction(1, 5))
    result = run_online(data, Conventions(bias=True))
    assert result.converged and result.separating and separates(data, result.w)


def test_rocks_and_mines_loads() -> None:
    data = load(BENCH / "rocks_and_mines")
    assert (data.n, data.d) == (208, 60)
    assert data.y.count(1) == 97 and data.y.count(-1) == 111
    assert data.X[0][0] == Fraction(1, 50)
    result = run_online(data, Conventions(bias=True), max_epochs=20, keep_trace=False)
    assert result.epochs <= 20  # never hangs; whether it converges is not the point here
