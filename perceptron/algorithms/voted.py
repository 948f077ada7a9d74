"""The voted and the averaged perceptron (Freund & Schapire 1999, §2, Figure 1, and the
averaged variant their experiments compare).

Training is the online perceptron (w_0 = 0, step 1, a mistake when `y<v, x> <= 0`, the
package's rule) run for exactly `epochs` cyclic epochs, never stopped early, keeping every
prediction vector `v_1 = 0, v_2, ..., v_{k+1}` with its count `c_j`: the number of
presentations it survived, the one that created it included (Freund and Schapire's
`c := c + 1` at a correct prediction, `c_{k+1} := 1` at a mistake; `c_1` starts at 0). So the
counts add up to the presentations, `epochs * n`, and the list has one vector more than the
mistakes.

- The voted perceptron predicts `sign(sum_j c_j sign(<v_j, x>))` (a score of 0, and a vector
  with `<v_j, x> = 0`, count as neither sign: `vote` returns the score itself).
- The averaged perceptron predicts `sign(<sum_j c_j v_j, x>)`; `averaged` is that vector (not
  divided by the presentations, which does not change a sign).

Everything is exact: the data are scaled by their common denominator to integer rows `X = s x`
(`perceptron.algorithms.fast.integer_form`), the vectors are kept as the integers `V = s v`,
and a prediction is decided on integers. No SymPy here (docs/design.md §1).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from operator import add, mul

from perceptron.algorithms.fast import integer_form
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError


@dataclass(frozen=True)
class VotedRun:
    """A trained voted perceptron: its counts, the presentations that made them (the example
    presented, and whether it was a mistake), its last vector and the weighted sum of its
    vectors. The list itself is not kept (`scaled` replays it when read): one vector per
    mistake is a table of mistakes by coordinates, and 200 epochs of a 20 000 x 50 file that
    is not separable make two million of them, 4 GB as Python integers."""

    data: Dataset
    epochs: int
    scale: int
    counts: tuple[int, ...]
    presented: tuple[int, ...]
    mistakes: tuple[bool, ...]
    last: tuple[int, ...]  # the last vector `v_{k+1}` times `scale`
    weighted: tuple[int, ...]  # `sum_j c_j v_j` times `scale`, added up during training

    @cached_property
    def scaled(self) -> tuple[tuple[int, ...], ...]:
        """The vectors times `scale`, as integers, replayed from the presentations (each
        mistake adds its signed example): read on small runs only, as `vectors`."""
        Z = [[int(v) for v in row] for row in integer_form(self.data).signed().tolist()]
        W = [0] * self.data.d
        out = [tuple(W)]
        for i, wrong in zip(self.presented, self.mistakes, strict=True):
            if wrong:
                W = list(map(add, W, Z[i]))
                out.append(tuple(W))
        return tuple(out)

    @cached_property
    def vectors(self) -> tuple[Vector, ...]:
        """The prediction vectors `v_1 = 0, ..., v_{k+1}`, exact."""
        return tuple(tuple(Fraction(v, self.scale) for v in V) for V in self.scaled)

    @property
    def updates(self) -> int:
        """The number of mistakes made in training (one less than the vectors)."""
        return len(self.counts) - 1

    def averaged(self) -> Vector:
        """`sum_j c_j v_j`, the averaged perceptron's vector (up to the positive factor
        1 / (epochs * n), which no prediction depends on)."""
        return tuple(Fraction(v, self.scale) for v in self.weighted)

    def vote(self, x: Vector) -> int:
        """`sum_j c_j sign(<v_j, x>)`: the voted perceptron's score on `x`."""
        return sum(c * _sign(_dot(v, x)) for v, c in zip(self.vectors, self.counts, strict=True))

    def predict_voted(self, x: Vector) -> int:
        """The voted prediction in {-1, 0, +1} (0: a tied vote)."""
        return _sign(self.vote(x))

    def predict_averaged(self, x: Vector) -> int:
        """The averaged prediction in {-1, 0, +1} (0: `x` on the averaged hyperplane)."""
        return _sign(_dot(self.averaged(), x))


def run_voted(data: Dataset, epochs: int) -> VotedRun:
    """Train the voted perceptron on `data` for exactly `epochs` cyclic epochs (in order).

    Memory grows with the presentations (an index and a flag each, the examples' indices
    shared) and the mistakes (a count each), never with mistakes times coordinates: the
    weighted sum of the vectors is added up as each vector is retired."""
    if epochs < 1:
        raise DataError(f"epochs must be at least 1, not {epochs}")
    form = integer_form(data)
    Z = [[int(v) for v in row] for row in form.signed().tolist()]
    W = [0] * form.d
    weighted = [0] * form.d
    counts = [0]
    presented: list[int] = []
    mistakes: list[bool] = []
    indices = list(range(len(Z)))  # one int object per example, shared by its presentations
    for _ in range(epochs):
        for i, z in zip(indices, Z, strict=True):
            wrong = sum(map(mul, W, z)) <= 0
            presented.append(i)
            mistakes.append(wrong)
            if wrong:  # retire the current vector with its count, start the next at 1
                count = counts[-1]
                weighted = [a + count * w for a, w in zip(weighted, W, strict=True)]
                W = list(map(add, W, z))
                counts.append(1)
            else:
                counts[-1] += 1
    weighted = [a + counts[-1] * w for a, w in zip(weighted, W, strict=True)]
    return VotedRun(data, epochs, form.scale, tuple(counts), tuple(presented),
                    tuple(mistakes), tuple(W), tuple(weighted))


def mistakes_from(data: Dataset, start: tuple[int, ...], epochs: int) -> int:
    """The mistakes training makes in `epochs` cyclic epochs from the vector `start` (times
    the data's scale, as `VotedRun.last`), counted, nothing kept: what a run kept for fewer
    epochs than asked leaves out (`verify.runs.cyclic.voted_run`), in memory of one
    vector."""
    Z = [[int(v) for v in row] for row in integer_form(data).signed().tolist()]
    W, mistakes = list(start), 0
    for _ in range(epochs):
        for z in Z:
            if sum(map(mul, W, z)) <= 0:
                W = list(map(add, W, z))
                mistakes += 1
    return mistakes


def _dot(a: Vector, b: Vector) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def _sign(value: Fraction | int) -> int:
    return (value > 0) - (value < 0)
