"""Peer check: scikit-learn's Perceptron on identical passes gives identical weights.

scikit-learn (`Perceptron(shuffle=False, tol=None, penalty=None, eta0=1)`) runs exactly
`max_iter` epochs in order (with `tol=None` nothing stops it early), updates when
`y * (<w, x> + b) <= 0` (its perceptron loss: hinge with threshold 0), and adds `eta0 * y * x`
to `w` and `eta0 * y` to the intercept. On small integer data float64 is exact, so its `coef_`
must equal our exact iterate after the same number of epochs; our run may stop earlier at an
error-free epoch, after which scikit-learn's remaining epochs change nothing.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron.algorithms.online import run_online
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset

sklearn_linear = pytest.importorskip("sklearn.linear_model")


def sklearn_weights(X: np.ndarray, y: np.ndarray, epochs: int, intercept: bool,
                    eta0: float = 1.0) -> tuple[Fraction, ...]:
    model = sklearn_linear.Perceptron(shuffle=False, tol=None, penalty=None, eta0=eta0,
                                      max_iter=epochs, fit_intercept=intercept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: max_iter reached, as intended
        model.fit(X.astype(np.float64), y)
    w = tuple(Fraction(float(v)) for v in model.coef_[0])
    return (*w, Fraction(float(model.intercept_[0]))) if intercept else w


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(1, 4), st.integers(1, 8), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_identical_weights_to_scikit_learn(n: int, d: int, epochs: int, intercept: bool,
                                            seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = rng.integers(-5, 6, size=(n, d))
    y = rng.choice([-1, 1], size=n)
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]  # scikit-learn needs both classes
    data = Dataset.of(X.tolist(), y.tolist())
    ours = run_online(data, Conventions(bias=intercept), max_epochs=epochs, keep_trace=False)
    assert ours.w == sklearn_weights(X, y, epochs, intercept)


@pytest.mark.parametrize("intercept", [False, True])
def test_separable_and_non_separable_fixed_epochs(intercept: bool) -> None:
    rng = np.random.default_rng(7)
    X = rng.integers(-9, 10, size=(60, 5))
    u = np.array([3, -1, 2, 0, 1])
    margins = X @ u + (2 if intercept else 0)
    keep = margins != 0
    X, y = X[keep], np.sign(margins[keep])
    separable = run_online(Dataset.of(X.tolist(), y.tolist()), Conventions(bias=intercept))
    assert separable.converged and separable.separating
    assert separable.w == sklearn_weights(X, y, separable.epochs + 3, intercept)
    flipped = y.copy()
    flipped[::7] *= -1  # no longer separable
    data = Dataset.of(X.tolist(), flipped.tolist())
    for epochs in (1, 5, 20):
        ours = run_online(data, Conventions(bias=intercept), max_epochs=epochs)
        assert not ours.converged and ours.epochs == epochs
        assert ours.w == sklearn_weights(X, flipped, epochs, intercept)


def test_learning_rate_matches_eta0() -> None:
    X = np.array([[1, 2], [-3, 1], [2, -2], [0, 1]])
    y = np.array([1, -1, 1, -1])
    ours = run_online(Dataset.of(X.tolist(), y.tolist()),
                      Conventions(eta=Fraction(1, 4), bias=True), max_epochs=6)
    assert ours.w == sklearn_weights(X, y, 6, True, eta0=0.25)
