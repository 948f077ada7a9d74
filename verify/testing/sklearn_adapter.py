"""scikit-learn's `Perceptron` as a `fit` for `check_implementation`: the reference peer.

Kept apart from the check itself because it is an implementation under test like any other
(it only has to speak `fit(X, y, epochs)`), and because scikit-learn is imported only when
one is built.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from verify.testing.check_implementation import Fitted

CLASSES = np.array([-1, 1])

#: Settings under which `fit` makes a run that `partial_fit` on one example at a time cannot
#: record: its own shuffled order, or a validation split held out of the data.
UNFOLLOWED = ("shuffle", "early_stopping")


class SklearnPerceptron:
    """`fit(X, y, epochs)` for scikit-learn's `Perceptron`, set up as the textbook perceptron.

    The final weights come from one `fit` (the code path users run). With `iterates=True`
    the trajectory is recorded as well, by `partial_fit` on one example at a time over the
    same epochs (an update is a visit that changes the weights): this gives the mistakes and
    every iterate, which scikit-learn does not report. That costs a Python call per visit,
    so it is done only when `epochs * n <= max_visits` (every campaign scenario and all but
    the protocol's longest run, 3 x 1042 visits); above, only the final weights are returned
    (still compared exactly with the exact perceptron's).

    The trajectory is recorded only as the run `fit` made, never another one beside it: the
    check reads the final weights, the mistakes and the iterates of one `Fitted` as one run,
    so a trajectory of another run would make it print untrue things about scikit-learn
    (newcomer 30: with `shuffle=True`, "its final w is not its last iterate", the w being
    fit's shuffled run and the iterates a cyclic one). Hence `shuffle=True` and
    `early_stopping=True` (a visiting order, or a held-out split, that `partial_fit` one
    example at a time cannot follow) are refused with `iterates=True`; the recording makes
    the epochs `fit` makes (a `max_iter` given overrides `epochs`, for both); and a recording
    that does not end at `fit`'s weights (`tol` stopped `fit` early, which `partial_fit`
    never does) is dropped, leaving the final weights alone to be compared.
    """

    DEFAULTS: Mapping[str, object] = {"shuffle": False, "tol": None, "penalty": None,
                                      "eta0": 1, "fit_intercept": False}

    def __init__(self, *, iterates: bool = True, max_visits: int = 1000,
                 **params: object) -> None:
        self.iterates = iterates
        self.max_visits = max_visits
        self.params = {**self.DEFAULTS, **params}
        unfollowed = [k for k in UNFOLLOWED if self.params.get(k)]
        if iterates and unfollowed:
            raise ValueError(
                f"sklearn_fit({', '.join(f'{k}={self.params[k]!r}' for k in unfollowed)}) "
                "cannot record scikit-learn's iterates: partial_fit one example at a time "
                "visits them in the order handed over, all of them, which is not the run fit "
                "makes then; pass iterates=False to compare its final weights only")
        self.__name__ = "scikit-learn Perceptron(" + ", ".join(
            f"{k}={v!r}" for k, v in self.params.items()) + ")"
        #: how many of its `fit`s scikit-learn warned had not converged (`_fit`)
        self.unconverged = 0

    def _epochs(self, epochs: int) -> int:
        """The epochs `fit` is allowed: `epochs`, unless a `max_iter` was given."""
        given = self.params.get("max_iter")
        return epochs if given is None else int(given)  # type: ignore[call-overload]

    def _model(self, epochs: int) -> Any:
        from sklearn.linear_model import Perceptron

        return Perceptron(**{"max_iter": epochs, **self.params})

    def _weights(self, model: Any) -> np.ndarray:
        w = np.ravel(model.coef_)
        return np.append(w, model.intercept_) if self.params["fit_intercept"] else w

    def _fit(self, X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        """`fit`; on data with one label (which `fit` refuses), `epochs` calls of
        `partial_fit` with both classes declared, one epoch each."""
        model = self._model(epochs)
        if len(set(y.tolist())) == 2:
            return self._weights(self._quiet_fit(model, X, y))
        for _ in range(self._epochs(epochs)):
            model.partial_fit(X, y, classes=CLASSES)
        return self._weights(model)

    def _quiet_fit(self, model: Any, X: np.ndarray, y: np.ndarray) -> Any:
        """`model.fit(X, y)`, its ConvergenceWarning said once per adapter, not once per
        call (newcomer 30: 88 copies on standard error during one check with `tol`, whose
        runs cut at `max_iter` are made on purpose: the check cuts runs after fewer epochs,
        and compares each as the run it is). Every other warning passes as raised."""
        from sklearn.exceptions import ConvergenceWarning

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model.fit(X, y)
        for each in caught:
            if not issubclass(each.category, ConvergenceWarning):
                warnings.warn_explicit(each.message, each.category, each.filename, each.lineno)
                continue
            self.unconverged += 1
            if self.unconverged == 1:
                warnings.warn(
                    f"{self.__name__}: scikit-learn warned that fit stopped at max_iter before "
                    f"converging ({each.message}); said once here, not on each of the check's "
                    "calls where it does again (the check asks for runs cut after fewer "
                    "epochs on purpose, and compares each as the run it is; `unconverged` "
                    "counts them)", ConvergenceWarning, stacklevel=2)
        return model

    def __call__(self, X: np.ndarray, y: np.ndarray, epochs: int) -> Fitted:
        w = self._fit(X, y, epochs)
        made = self._epochs(epochs)
        if not self.iterates or made * X.shape[0] > self.max_visits:
            return Fitted(w)
        model = self._model(epochs)
        trajectory = [np.zeros_like(w)]
        for _ in range(made):
            changed = False
            for i in range(X.shape[0]):
                model.partial_fit(X[i:i + 1], y[i:i + 1], classes=CLASSES)
                now = self._weights(model)
                if not np.array_equal(now, trajectory[-1]):
                    trajectory.append(now.copy())
                    changed = True
            if not changed:
                break
        if not np.array_equal(trajectory[-1], w):
            return Fitted(w)  # not fit's run (its tol stopped it earlier): w alone is fit's
        return Fitted(w, len(trajectory) - 1, trajectory)


def sklearn_fit(*, iterates: bool = True, max_visits: int = 1000, **params: object
                ) -> SklearnPerceptron:
    """scikit-learn's `Perceptron(shuffle=False, tol=None, penalty=None, eta0=1,
    fit_intercept=False, max_iter=epochs)` as a `fit` for `check_implementation`; `params`
    override those settings (say `eta0` to the implementation's eta, `fit_intercept=True`
    with a bias), and `iterates` records its trajectory on calls of at most `max_visits`
    visits (`epochs * n`), only as the run `fit` made (`shuffle=True` and
    `early_stopping=True` need `iterates=False`: `SklearnPerceptron`)."""
    return SklearnPerceptron(iterates=iterates, max_visits=max_visits, **params)
