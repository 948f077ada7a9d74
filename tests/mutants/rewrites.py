"""Correct perceptrons written in other ways than `base.Textbook`: `check_implementation`
must pass every one (a check that fails a correct rewrite is as wrong as one that passes a bug).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from mutants.base import Result, sign


def index_loops(X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
    """While-loops over indices, the epoch ended by a flag."""
    n, d = X.shape
    w, iterates, epoch = np.zeros(d), [np.zeros(d)], 0
    while epoch < epochs:
        i, clean = 0, True
        while i < n:
            if y[i] * np.dot(w, X[i]) <= 0:
                w = w + y[i] * X[i]
                iterates.append(w)
                clean = False
            i += 1
        epoch += 1
        if clean:
            break
    return w, len(iterates) - 1, iterates


def in_place(X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
    """Updates `w` in place with `np.add(..., out=w)`, recording copies."""
    w = np.zeros(X.shape[1])
    iterates = [w.copy()]
    for _ in range(epochs):
        before = len(iterates)
        for x, label in zip(X, y, strict=True):
            if label * x.dot(w) <= 0:
                np.add(w, label * x, out=w)
                iterates.append(w.copy())
        if len(iterates) == before:
            break
    return w, len(iterates) - 1, iterates


def folded(X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
    """Folds the labels into a copy, `z = y x`, and updates on `<w, z> <= 0`."""
    Z = X * y[:, None]
    w = np.zeros(X.shape[1])
    iterates, mistakes = [w], 0
    for _ in range(epochs):
        found = 0
        for z in Z:
            if w @ z <= 0:
                w = w + z
                iterates.append(w)
                found += 1
        mistakes += found
        if not found:
            break
    return w, mistakes, iterates


def predicts_with_numpy_sign(X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
    """Updates on a wrong prediction `np.sign(<w, x>) != y`: sign(0) = 0 is the `<=` rule."""
    w, iterates = np.zeros(X.shape[1]), [np.zeros(X.shape[1])]
    for _ in range(epochs):
        wrong = 0
        for x, label in zip(X, y, strict=True):
            if np.sign(w @ x) != label:
                w = w + label * x
                iterates.append(w.copy())
                wrong += 1
        if wrong == 0:
            break
    return w, len(iterates) - 1, iterates


def exact_fractions(X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
    """Pure Python on Fractions (each float taken as its exact value)."""
    rows = [[Fraction(v) for v in row] for row in X.tolist()]
    labels = y.tolist()
    w = [Fraction(0)] * len(rows[0])
    iterates = [list(w)]
    for _ in range(epochs):
        changed = False
        for row, label in zip(rows, labels, strict=True):
            if label * sum(a * b for a, b in zip(w, row, strict=True)) <= 0:
                w = [a + label * b for a, b in zip(w, row, strict=True)]
                iterates.append(list(w))
                changed = True
        if not changed:
            break
    return np.array(w, dtype=object), len(iterates) - 1, iterates  # type: ignore[return-value]


def augmented_bias(X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
    """A bias as a constant feature 1 appended to every example (claims `bias=True`)."""
    A = np.column_stack([X, np.ones(len(X))])
    w, iterates = np.zeros(A.shape[1]), [np.zeros(A.shape[1])]
    for _ in range(epochs):
        updates: list[int] = []
        for i in range(len(A)):
            if y[i] * (A[i] @ w) <= 0:
                w = w + y[i] * A[i]
                iterates.append(w.copy())
                updates.append(i)
        if not updates:
            break
    return w, len(iterates) - 1, iterates


def scalar_bias(X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
    """A separate scalar bias `b += y` beside `w += y x` (claims `bias=True`)."""
    w, b = np.zeros(X.shape[1]), 0.0
    iterates = [np.append(w, b)]
    for _ in range(epochs):
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * (w @ x + b) <= 0:
                w, b = w + label * x, b + label
                iterates.append(np.append(w, b))
                clean = False
        if clean:
            break
    return np.append(w, b), len(iterates) - 1, iterates


class HalfStepEstimator:
    """An estimator object with eta = 1/2 that resets its state at every fit (claims eta=1/2)."""

    __name__ = "HalfStepEstimator"

    def __call__(self, X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
        self.coef_ = np.zeros(X.shape[1])
        self.path_ = [self.coef_.copy()]
        for _ in range(epochs):
            count = len(self.path_)
            for x, label in zip(X, y, strict=True):
                if label * (self.coef_ @ x) <= 0:
                    self.coef_ = self.coef_ + 0.5 * label * x
                    self.path_.append(self.coef_.copy())
            if len(self.path_) == count:
                break
        return self.coef_, len(self.path_) - 1, self.path_


def mistake_rule_plus_at_zero(X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
    """Updates when `sign(<w, x>) != y` with `sign(0) = +1` (claims that mistake rule)."""
    w, iterates = np.zeros(X.shape[1]), [np.zeros(X.shape[1])]
    for _ in range(epochs):
        errors = 0
        for x, label in zip(X, y, strict=True):
            if sign(w @ x, 1) != label:
                w = w + label * x
                iterates.append(w.copy())
                errors += 1
        if not errors:
            break
    return w, len(iterates) - 1, iterates


class Shuffled:
    """A shuffled perceptron (a fresh seeded permutation every epoch): a perceptron, in
    another order than the cyclic one."""

    __name__ = "shuffled perceptron"

    def __call__(self, X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
        rng = np.random.default_rng(26)
        w, iterates = np.zeros(X.shape[1]), [np.zeros(X.shape[1])]
        for _ in range(epochs):
            updated = False
            for i in rng.permutation(len(y)):
                if y[i] * (w @ X[i]) <= 0:
                    w = w + y[i] * X[i]
                    iterates.append(w.copy())
                    updated = True
            if not updated:
                break
        return w, len(iterates) - 1, iterates
