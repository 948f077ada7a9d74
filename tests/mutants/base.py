"""The cyclic float64 perceptron written once, with one hook per decision a bug can hide in.

Each buggy perceptron of `bugs.py` overrides one hook, so the table's mutants differ from the
textbook in exactly the line their docstring names, and the loop itself is not copied 44 times.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

Result = tuple[np.ndarray, int, list[np.ndarray]]


class Textbook:
    """The perceptron: cyclic epochs of `w += eta y x` on `y <w, x> <= 0`, stopping after an
    epoch without an update; returns `(w, mistakes, iterates)`."""

    eta = 1.0

    def __call__(self, X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
        X, y = self.prepare(X, y)
        w = self.initial(X.shape[1])
        iterates, mistakes, counts = self.start_iterates(w), 0, []
        for _ in self.epochs(epochs):
            at_start, updated = w.copy(), 0
            for i in self.order(len(y)):
                fired = self.fires(at_start if self.stale else w, X[i], y[i])
                if fired:
                    w = self.step(w, X[i], y[i], y[i - 1])
                    iterates.append(self.record(w))
                    updated += 1
                mistakes += self.count(fired)
            mistakes = self.epoch_total(mistakes, updated)
            counts.append(updated)
            if self.stop(counts):
                break
        self.finish(X, y)
        return self.result(w, mistakes, iterates)

    stale = False  # decide an epoch's updates on the w it started with

    def prepare(self, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return X, y

    def initial(self, d: int) -> np.ndarray:
        return np.zeros(d)

    def start_iterates(self, w: np.ndarray) -> list[np.ndarray]:
        return [w.copy()]

    def epochs(self, epochs: int) -> Iterable[int]:
        return range(epochs)

    def order(self, n: int) -> Iterable[int]:
        return range(n)

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return bool(label * (w @ x) <= 0)

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return w + self.eta * label * x

    def record(self, w: np.ndarray) -> np.ndarray:
        return w.copy()

    def count(self, fired: bool) -> int:
        """Mistakes added by one visit."""
        return int(fired)

    def epoch_total(self, mistakes: int, updated: int) -> int:
        """The mistake count at the end of an epoch."""
        return mistakes

    def stop(self, counts: list[int]) -> bool:
        return counts[-1] == 0

    def finish(self, X: np.ndarray, y: np.ndarray) -> None:
        """After the epochs: nothing to undo."""

    def result(self, w: np.ndarray, mistakes: int, iterates: list[np.ndarray]) -> Result:
        return w, mistakes, iterates


class Augmented(Textbook):
    """The textbook on `[X, 1]`: a bias learned as the last weight (correct)."""

    def prepare(self, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.hstack([X, np.ones((len(X), 1))]), y


def sign(score: float, at_zero: int) -> int:
    """`sign(score)` with `sign(0) = at_zero`."""
    return 1 if score > 0 else -1 if score < 0 else at_zero
