"""Buggy perceptrons, each the textbook (`base.Textbook`) with one bug, said in its docstring."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np

from mutants.base import Augmented, Result, Textbook, sign

# ---- epochs ----------------------------------------------------------------------------------


class OnePass(Textbook):
    """Makes one pass whatever `epochs` says."""

    def epochs(self, epochs: int) -> Iterable[int]:
        return range(1)


class IgnoresEpochs(Textbook):
    """Runs until an epoch makes no update, whatever `epochs` says."""

    def epochs(self, epochs: int) -> Iterable[int]:
        return itertools.count()


class OneEpochEarly(Textbook):
    """Stops one epoch early (`range(1, epochs)`)."""

    def epochs(self, epochs: int) -> Iterable[int]:
        return range(1, epochs)


class OneEpochLate(Textbook):
    """Makes one epoch more than asked (`range(epochs + 1)`)."""

    def epochs(self, epochs: int) -> Iterable[int]:
        return range(epochs + 1)


class StopsOnPlateau(Textbook):
    """Stops when an epoch makes as many mistakes as the one before."""

    def stop(self, counts: list[int]) -> bool:
        return counts[-1] == 0 or counts[-2:] == [counts[-1]] * 2


class StopsAtOneMistake(Textbook):
    """Stops after an epoch with at most one mistake ("nearly converged")."""

    def stop(self, counts: list[int]) -> bool:
        return counts[-1] <= 1


class CapsEpochsAt56(Textbook):
    """Makes at most 56 epochs whatever `epochs` says (red team 7: the longest run was 57)."""

    def epochs(self, epochs: int) -> Iterable[int]:
        return range(min(epochs, 56))


class CapsMistakesAt100(Textbook):
    """Stops after the epoch in which it reaches 100 mistakes (red team 7)."""

    def stop(self, counts: list[int]) -> bool:
        return counts[-1] == 0 or sum(counts) >= 100


# ---- state kept between fits -----------------------------------------------------------------


class WarmStart(Textbook):
    """Starts from the weights of its previous fit when their width matches."""

    def initial(self, d: int) -> np.ndarray:
        kept = getattr(self, "kept", None)
        return np.zeros(d) if kept is None or len(kept) != d else kept

    def result(self, w: np.ndarray, mistakes: int, iterates: list[np.ndarray]) -> Result:
        self.kept = w
        return w, mistakes, [np.zeros_like(w), *iterates[1:]]


class MistakesCarryOver(Textbook):
    """Never resets its mistake counter between fits."""

    total = 0

    def result(self, w: np.ndarray, mistakes: int, iterates: list[np.ndarray]) -> Result:
        self.total += mistakes
        return w, self.total, iterates


class IteratesCarryOver(Textbook):
    """Appends each fit's iterates to the list of the previous fits of the same width."""

    def start_iterates(self, w: np.ndarray) -> list[np.ndarray]:
        kept = getattr(self, "kept", None)
        if kept is None or len(kept[0]) != len(w):
            self.kept = [w.copy()]
        return self.kept


# ---- the caller's arrays ---------------------------------------------------------------------


class FoldsLabelsIntoX(Textbook):
    """Folds the labels into the caller's X in place (`X *= y[:, None]`)."""

    def prepare(self, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        X *= y[:, None]
        return X, np.ones_like(y)


class FoldsAndRestores(FoldsLabelsIntoX):
    """Folds the labels into the caller's X in place and unfolds them after (fails read-only)."""

    def finish(self, X: np.ndarray, y: np.ndarray) -> None:
        X *= self.labels[:, None]

    def prepare(self, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.labels = y.copy()
        return super().prepare(X, y)


class RelabelsInPlace(Textbook):
    """Rewrites the caller's labels to {0, 1} in place, learning on `2 y - 1`."""

    def prepare(self, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        y[y == -1] = 0
        return X, 2 * y - 1


# ---- sign(0) ---------------------------------------------------------------------------------


class PredictsPlusAtZero(Textbook):
    """Updates when `sign(<w, x>) != y` with `sign(0) = +1`, claiming the `<=` rule."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return sign(w @ x, 1) != label


class PredictsMinusAtZero(Textbook):
    """Updates when `sign(<w, x>) != y` with `sign(0) = -1`, claiming the `<=` rule."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return sign(w @ x, -1) != label


class NumpySignAtZero(Textbook):
    """Claims the mistake rule with `sign(0) = +1` but predicts with `np.sign` (0 at a tie)."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return bool(np.sign(w @ x) != label)


class WrongSignAtZero(Textbook):
    """Claims the mistake rule with `sign(0) = +1` but predicts -1 at a tie."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return sign(w @ x, -1) != label


# ---- the update rule -------------------------------------------------------------------------


class StrictComparison(Textbook):
    """Updates on `y <w, x> < 0`: never at a tie."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return bool(label * (w @ x) < 0)


class LabelMissingInCondition(Textbook):
    """Updates on `<w, x> <= 0`, the label forgotten in the condition."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return bool(w @ x <= 0)


class MarginOfOne(Textbook):
    """Updates on `y <w, x> <= 1`: a margin perceptron by accident."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return bool(label * (w @ x) <= 1)


class UpdatesBelowOne(Textbook):
    """Updates on `y <w, x> < 1`: on integer data the same as `<= 0` (red team 7)."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return bool(label * (w @ x) < 1)


class UpdatesAtHalf(Textbook):
    """Updates on `y <w, x> <= 0.5`: on integer data the same as `<= 0` (red team 7)."""

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return bool(label * (w @ x) <= 0.5)


class MissingLabel(Textbook):
    """Steps by `eta x`, the label missing."""

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return w + self.eta * x


class DoubledStep(Textbook):
    """Steps by `2 eta y x`."""

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return w + 2 * self.eta * label * x


class IgnoresEta(Textbook):
    """Claims eta = 1/2 but steps by `y x`."""


class NormalisedStep(Textbook):
    """Steps by `y x / ||x||`."""

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return w + self.eta * label * x / np.linalg.norm(x)


class PreviousLabel(Textbook):
    """Steps with the label of the previous example (`y[i - 1]`)."""

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return w + self.eta * previous * x


# ---- which examples, and when ----------------------------------------------------------------


class SkipsLastExample(Textbook):
    """Visits `range(n - 1)`: the last example never."""

    def order(self, n: int) -> Iterable[int]:
        return range(n - 1)


class SkipsFirstExample(Textbook):
    """Visits `range(1, n)`: the first example never."""

    def order(self, n: int) -> Iterable[int]:
        return range(1, n)


class StopsReadingAt8(Textbook):
    """Never visits past its 8th example (`if i >= 8: break`; red team 7)."""

    def order(self, n: int) -> Iterable[int]:
        return range(min(n, 8))


class StopsReadingAt25(Textbook):
    """Never visits past its 25th example (red team 9: the largest scenario had 24)."""

    def order(self, n: int) -> Iterable[int]:
        return range(min(n, 25))


class StaleScores(Textbook):
    """Decides an epoch's updates on the scores of the w it started with."""

    stale = True


# ---- arithmetic ------------------------------------------------------------------------------


class Float32Weights(Textbook):
    """Keeps its weights in float32."""

    def initial(self, d: int) -> np.ndarray:
        return np.zeros(d, dtype=np.float32)

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return (w + np.float32(self.eta * label) * x.astype(np.float32)).astype(np.float32)


class IntegerWeights(Textbook):
    """Claims eta = 1/2 and truncates its weights to integers."""

    eta = 0.5

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return np.trunc(w + self.eta * label * x)


# ---- what it reports -------------------------------------------------------------------------


class CountsEveryVisit(Textbook):
    """Counts every visit as a mistake."""

    def count(self, fired: bool) -> int:
        return 1


class CountsW0(Textbook):
    """Reports `len(iterates)` mistakes, counting w_0."""

    def result(self, w: np.ndarray, mistakes: int, iterates: list[np.ndarray]) -> Result:
        return w, len(iterates), iterates


class CountsLastEpochOnly(Textbook):
    """Resets its mistake count every epoch."""

    def epoch_total(self, mistakes: int, updated: int) -> int:
        return updated


class AliasedIterates(Textbook):
    """Records `w` itself, then updates it in place: every iterate is the final w."""

    def record(self, w: np.ndarray) -> np.ndarray:
        return w

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        w += self.eta * label * x
        return w


class RecordsBeforeUpdate(Textbook):
    """Records each iterate before its update, so w_t is reported as w_{t+1}."""

    def record(self, w: np.ndarray) -> np.ndarray:
        return self.before.copy()

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        self.before = w
        return super().step(w, x, label, previous)


class ReturnsPenultimate(Textbook):
    """Returns the weights before its last update."""

    def result(self, w: np.ndarray, mistakes: int, iterates: list[np.ndarray]) -> Result:
        return iterates[-2] if len(iterates) > 1 else w, mistakes, iterates


# ---- a bias, by augmentation (claimed with `Conventions(bias=True)`) -------------------------


class BiasNeverUpdated(Augmented):
    """Uses its bias in the scores but never updates it."""

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return w + self.eta * label * np.append(x[:-1], 0.0)


class BiasWithoutLabel(Augmented):
    """Updates its bias by `+eta` whatever the label."""

    def step(self, w: np.ndarray, x: np.ndarray, label: int, previous: int) -> np.ndarray:
        return np.append(w[:-1] + self.eta * label * x[:-1], w[-1] + self.eta)


class BiasDropped(Augmented):
    """Learns a bias but returns the weights without it."""

    def result(self, w: np.ndarray, mistakes: int, iterates: list[np.ndarray]) -> Result:
        return w[:-1], mistakes, [it[:-1] for it in iterates]
