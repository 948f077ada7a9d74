"""scikit-learn's `Perceptron` through the public API: the exact perceptron, where floats are.

On the tight families and the adversary's sequences (handed over as integers, so float64 is
exact there, which the report decides a priori), scikit-learn's `coef_` is the exact
engine's `w`, its mistakes are the engine's and never exceed the bound: on both families
the bound is met exactly. A broken implementation is caught with a clear message.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import floor

import numpy as np
import pytest

from perceptron.conventions import Conventions
from verify import check_implementation, sklearn_fit

pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return check_implementation(sklearn_fit(), sources=("tight", "adversary"), count=8)


def test_sklearn_coef_is_the_exact_engines_w(report) -> None:  # type: ignore[no-untyped-def]
    report.raise_for_violations()
    assert len(report.outcomes) == 8 + 8 * 4
    for outcome in report.outcomes:
        assert outcome.float_exact, outcome.where
        assert outcome.identical and outcome.w == outcome.engine.w, outcome.where
        assert outcome.first_iterate_difference is None
        assert outcome.theory is not None and outcome.theory.ok
    assert report.max_deviation == 0


def test_sklearn_mistakes_never_exceed_the_bound_and_meet_it(report) -> None:  # type: ignore[no-untyped-def]
    for outcome in report.outcomes:
        assert outcome.bound is not None and outcome.mistakes is not None
        assert outcome.mistakes == outcome.engine.mistakes <= outcome.bound
        # tight families: n mistakes for a bound of n; the adversary: floor(R^2/gamma^2)
        assert outcome.mistakes == floor(outcome.bound), outcome.where


def test_sklearn_with_a_bias_and_another_learning_rate() -> None:
    biased = check_implementation(sklearn_fit(fit_intercept=True), sources=("tight",),
                                  count=4, conventions=Conventions(bias=True))
    biased.raise_for_violations()
    assert all(o.identical for o in biased.outcomes)
    half = check_implementation(sklearn_fit(eta0=0.5, iterates=False), sources=("adversary",),
                                count=4, conventions=Conventions(eta=F(1, 2)))
    half.raise_for_violations()
    assert all(o.identical for o in half.outcomes)


def test_sklearn_under_the_wrong_conventions_is_caught() -> None:
    strict = check_implementation(sklearn_fit(iterates=False), sources=("tight",), count=2,
                                  conventions=Conventions(rule="lt"))
    assert not strict.ok  # scikit-learn updates on ties: it is not the strict-rule perceptron


class SkipsTies:
    """A perceptron that does not update when `y <w, x> == 0`."""

    __name__ = "perceptron skipping ties"

    def __call__(self, X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        w = np.zeros(X.shape[1])
        for _ in range(epochs):
            for x, label in zip(X, y, strict=True):
                if label * (w @ x) < 0:
                    w = w + label * x
        return w


def doubled_steps(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, int]:
    """A perceptron whose update is `2 y x` while eta = 1 is claimed."""
    w, mistakes = np.zeros(X.shape[1]), 0
    for _ in range(epochs):
        for x, label in zip(X, y, strict=True):
            if label * (w @ x) <= 0:
                w, mistakes = w + 2 * label * x, mistakes + 1
    return w, mistakes


def test_an_implementation_skipping_ties_is_caught_with_a_clear_message() -> None:
    broken = check_implementation(SkipsTies(), sources=("tight", "adversary"), count=4)
    assert not broken.ok
    with pytest.raises(AssertionError, match=(
            r"^perceptron skipping ties is not the perceptron it was checked as \(update on "
            r"y\*<w,x> <= 0.*\): 20 of 20 calls fail; simplest: .*\n"
            r"  - final w differs from the exact perceptron's \(max deviation \d+\): "
            r"implementation \(0[,)].*, exact \(")):
        broken.raise_for_violations()


def test_an_implementation_doubling_its_steps_is_caught() -> None:
    broken = check_implementation(doubled_steps, sources=("adversary",), count=4)
    first = broken.first_failure
    assert first is not None
    assert first.mistakes == first.engine.mistakes  # the mistakes alone would not show it
    with pytest.raises(AssertionError, match=r"doubled_steps is not the perceptron .*\n"
                                             r"  - final w differs from the exact perceptron"):
        broken.raise_for_violations()


# ---- the trajectory is fit's run or none (newcomer 30) ------------------------------------

#: The protocol's run of 57 epochs: scikit-learn with `tol=1e-3` stops it after 6 epochs
#: (n_iter_no_change), which `partial_fit` one example at a time never does.
LONG_X = np.array([[2.0, 5.0], [-4.0, -3.0], [-5.0, -4.0]])
LONG_Y = np.array([-1, -1, 1])


def test_a_shuffled_sklearn_run_is_not_recorded_as_a_cyclic_one() -> None:
    """Its final w came from fit's shuffled run and its "iterates" from a cyclic partial_fit
    run, so theory_only printed "its final w (1, -67108863) is not its last iterate", untrue
    of scikit-learn; now refused up front, and checked on its final weights alone."""
    for setting in ({"shuffle": True, "random_state": 0}, {"early_stopping": True}):
        with pytest.raises(ValueError, match=r"^sklearn_fit\((shuffle|early_stopping)=True\) "
                                             r"cannot record scikit-learn's iterates: .*"
                                             r"pass iterates=False"):
            sklearn_fit(**setting)
    fitted = sklearn_fit(shuffle=True, random_state=0, iterates=False)(LONG_X, LONG_Y, 57)
    assert fitted.iterates is None and fitted.mistakes is None


@pytest.mark.parametrize(("params", "epochs"), [({"tol": 1e-3}, 57), ({"max_iter": 5}, 1)])
def test_a_recorded_trajectory_is_the_run_fit_made(params: dict[str, object],
                                                  epochs: int) -> None:
    """`tol` stops fit early and a `max_iter` given overrides `epochs`: the trajectory
    recorded beside fit's w was another run (57 and 1 epochs), its mistakes not fit's."""
    from sklearn.linear_model import Perceptron

    fitted = sklearn_fit(**params)(LONG_X, LONG_Y, epochs)
    theirs = Perceptron(shuffle=False, penalty=None, eta0=1, fit_intercept=False,
                        **{"tol": None, "max_iter": epochs, **params}).fit(LONG_X, LONG_Y)
    assert np.array_equal(fitted.w, theirs.coef_.ravel())
    if fitted.iterates is not None:
        assert np.array_equal(fitted.iterates[-1], fitted.w)
        assert fitted.mistakes == len(fitted.iterates) - 1
    if "max_iter" in params:  # fit's own 5 epochs (15 visits) are recorded, not 1
        assert fitted.iterates is not None and fitted.mistakes == 10  # 3, 1, 2, 2, 2



def test_scikit_learns_convergence_warning_is_said_once_per_adapter() -> None:
    """Newcomer 30 (Low): checking `sklearn_fit(tol=1e-3)` printed scikit-learn's
    ConvergenceWarning 88 times (once per call whose run max_iter cut, which the check asks
    for on purpose). It is said once, saying why, and counted; other warnings pass."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    fit = sklearn_fit(tol=1e-3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_implementation(fit, sources=("tight",))
    (said,) = caught
    assert issubclass(said.category, ConvergenceWarning) and fit.unconverged > 1
    assert "said once here, not on each of the check's calls" in str(said.message)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_implementation(sklearn_fit(), sources=("tight",))  # tol=None: nothing to say
    assert not caught
