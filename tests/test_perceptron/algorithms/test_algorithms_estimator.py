"""`perceptron.ExactPerceptron` (issue 17): a scikit-learn classifier on the exact engine.

scikit-learn's own estimator checks (with `max_iter=10`: every check passes with the
default 1000 too, measured in 205 s, most of it three fits of 1000 epochs on float data
that scikit-learn's accuracy check uses); agreement with scikit-learn's `Perceptron` where
its float arithmetic is exact (integer data); the exact weights are the engine's; DataFrames
are accepted wherever arrays are.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.linear_model import Perceptron
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptron import ExactPerceptron
from perceptron.algorithms.estimator import _float
from perceptron.algorithms.online import iterate_updates, run_online
from perceptron.conventions import Conventions
from perceptron.errors import DataError

F = Fraction
XOR = (np.array([[0, 0], [1, 1], [0, 1], [1, 0]]), np.array(["a", "a", "b", "b"]))


@parametrize_with_checks([ExactPerceptron(max_iter=10)])
def test_scikit_learn_estimator_checks(estimator: ExactPerceptron, check: object) -> None:
    check(estimator)  # type: ignore[operator]


def peer(**params: object) -> Perceptron:
    return Perceptron(shuffle=False, tol=None, penalty=None, eta0=1, **params)


def integer_data(seed: int, n: int, d: int, classes: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.RandomState(seed)
    return rng.randint(-5, 6, size=(n, d)), rng.randint(0, classes, size=n)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize(("seed", "classes"), [(0, 2), (1, 2), (2, 3), (3, 4)])
def test_same_weights_as_scikit_learn_on_integer_data(seed: int, classes: int,
                                                      fit_intercept: bool) -> None:
    """On integers scikit-learn's float arithmetic is exact: the weights must be equal,
    converged or not (non-separable data run all `max_iter` epochs, cycles included)."""
    X, y = integer_data(seed, 30, 3, classes)
    for max_iter in (1, 7, 40):
        ours = ExactPerceptron(fit_intercept=fit_intercept, max_iter=max_iter).fit(X, y)
        theirs = peer(fit_intercept=fit_intercept, max_iter=max_iter).fit(X, y)
        assert np.array_equal(ours.coef_, theirs.coef_)
        assert np.array_equal(ours.intercept_, theirs.intercept_)
        assert np.array_equal(ours.classes_, theirs.classes_)
        assert np.array_equal(ours.predict(X), theirs.predict(X))
        assert np.array_equal(ours.decision_function(X), theirs.decision_function(X))


@pytest.mark.parametrize("max_iter", [1, 2, 3, 4, 7])
def test_a_cycling_run_still_makes_max_iter_epochs(max_iter: int) -> None:
    """XOR cycles from epoch 2: the engine proves it and stops; the estimator runs the epochs
    left, so the weights are those after exactly max_iter epochs, as scikit-learn's."""
    X, y = XOR
    ours = ExactPerceptron(max_iter=max_iter).fit(X, y)
    theirs = peer(max_iter=max_iter).fit(X, y)
    assert ours.n_iter_ == max_iter
    assert np.array_equal(ours.coef_, theirs.coef_)
    assert np.array_equal(ours.intercept_, theirs.intercept_)


def test_exact_weights_are_the_engines() -> None:
    X = np.array([[0.1, 2.0], [-0.3, -1.0], [0.2, 0.5], [-1.5, 0.25]])
    y = np.array([1, 0, 1, 0])
    fitted = ExactPerceptron(eta0="1/3").fit(X, y)
    run = run_online((X, np.where(y == 1, 1, -1)), Conventions(bias=True, eta=F(1, 3)))
    assert run.converged and fitted.n_iter_ == run.epochs
    assert (*fitted.coef_exact_[0], fitted.intercept_exact_[0]) == run.w
    assert all(isinstance(v, Fraction) for v in fitted.coef_exact_.ravel())
    assert fitted.coef_[0].tolist() == [float(v) for v in run.w[:2]]
    scores = fitted.exact_decision_function(X)
    assert [s[0] for s in scores] == [sum((F(a) * b for a, b in zip(x, run.w, strict=False)),
                                          run.w[2]) for x in X.tolist()]


def test_zero_score_is_the_first_class_and_signs_survive_rounding() -> None:
    fitted = ExactPerceptron(fit_intercept=False).fit([[1], [-1]], ["neg", "pos"])
    assert fitted.coef_exact_[0, 0] == -1
    assert fitted.predict([[0]]).tolist() == ["neg"]  # score 0: classes_[0], as scikit-learn
    assert fitted.decision_function([[0]]).tolist() == [0.0]
    assert _float(F(1, 10**400)) > 0 > _float(F(-1, 10**400)) and _float(F(0)) == 0


def test_multiclass_ties_go_to_the_first_class() -> None:
    fitted = ExactPerceptron(fit_intercept=False, max_iter=1).fit(
        [[1, 0], [0, 1], [-1, -1]], [0, 1, 2])
    scores = fitted.exact_decision_function([[0, 0]])
    assert scores == [[0, 0, 0]] and fitted.predict([[0, 0]]).tolist() == [0]


def test_partial_fit_is_one_epoch_from_the_current_weights() -> None:
    X, y = integer_data(5, 20, 3, 3)
    incremental = ExactPerceptron()
    for _ in range(6):
        incremental.partial_fit(X, y, classes=[0, 1, 2])
    batch = ExactPerceptron(max_iter=6).fit(X, y)
    assert np.array_equal(incremental.coef_exact_, batch.coef_exact_)
    assert np.array_equal(incremental.intercept_exact_, batch.intercept_exact_)
    assert incremental.n_iter_ == 1


def test_partial_fit_errors() -> None:
    X, y = integer_data(6, 10, 2, 2)
    with pytest.raises(ValueError, match="classes must be passed"):
        ExactPerceptron().partial_fit(X, y)
    fitted = ExactPerceptron().partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match="not in classes"):
        fitted.partial_fit(X, y + 5)
    with pytest.raises(ValueError, match="differs"):
        fitted.partial_fit(X, y, classes=[0, 2])


@pytest.mark.parametrize(("params", "words"), [
    ({"shuffle": True}, "shuffle"), ({"max_iter": 0}, "max_iter"), ({"eta0": 0}, "eta0"),
    ({"eta0": -1}, "eta0"),
])
def test_bad_parameters(params: dict[str, object], words: str) -> None:
    X, y = XOR
    with pytest.raises(ValueError, match=words):
        ExactPerceptron(**params).fit(X, y)


def test_one_class_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 classes"):
        ExactPerceptron().fit([[1, 2], [3, 4]], [1, 1])


# -- DataFrames wherever arrays go -------------------------------------------------------------


def test_estimator_takes_dataframes() -> None:
    pd = pytest.importorskip("pandas")
    X, y = integer_data(7, 15, 3, 2)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    from_frame = ExactPerceptron().fit(frame, pd.Series(y))
    from_array = ExactPerceptron().fit(X, y)
    assert from_frame.feature_names_in_.tolist() == ["a", "b", "c"]
    assert np.array_equal(from_frame.coef_exact_, from_array.coef_exact_)
    assert np.array_equal(from_frame.predict(frame), from_array.predict(X))


def test_run_online_takes_dataframes_and_pairs() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [1.5, 2.0, -1.0], "b": [0.1, 3.0, -2.0]})
    labels = pd.Series([1, 1, -1])
    reference = run_online((frame.to_numpy(), labels.to_numpy()))
    assert run_online((frame, labels)) == reference
    assert run_online([frame, labels.tolist()]).w == reference.w
    assert len(list(iterate_updates((frame, labels)))) == reference.mistakes
    from verify import check_run

    assert check_run((frame, labels), reference).ok
    with pytest.raises(TypeError, match=r"frame\.drop\(columns=LABEL\)"):
        run_online(frame)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a ndarray"):
        run_online(frame.to_numpy())  # type: ignore[arg-type]
    missing = pd.DataFrame({"a": pd.array([1, None, 2], dtype="Int64")})
    with pytest.raises(DataError, match=r"not a (finite )?number"):
        run_online((missing, labels))


def test_perceptron_imports_without_scikit_learn() -> None:
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "import perceptron, perceptron.algorithms.online, perceptron.io.loaders\n"
        "try:\n    perceptron.ExactPerceptron\n"
        "except ImportError as e:\n    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert "needs scikit-learn" in done.stdout and done.stderr == ""
