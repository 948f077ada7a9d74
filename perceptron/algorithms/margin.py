"""The margin perceptron: update `w += y x` whenever `y<w, x> <= beta`, for a margin `beta >= 0`.

Not only mistakes trigger an update: an example classified with a functional margin at most
`beta` does too, so on separable data the run stops at an iterate with margin above `beta` on
every example, after at most `(R^2 + 2 beta) / gamma^2` updates (each update adds at most
`R^2 + 2 beta` to `||w||^2`; Collobert & Bengio 2004). With `beta = 0` it is the ordinary
perceptron's rule `y<w, x> <= 0`, and its run is the engine's (`run_online` with the default
conventions; a test checks they are the same run).

The run is exact: the data are scaled by their common denominator to integer rows `X = s x`
(`perceptron.algorithms.fast.integer_form`), the iterate is kept as the integer `W = s w`
(w_0 = 0, eta = 1), and `y<w, x> <= beta` is decided as `<W, Z_i> <= beta s^2` with
`Z_i = y_i X_i`: integers against the largest integer `B = floor(beta s^2)` below the
threshold, Python integers throughout (no overflow, no float decides). Epochs are cyclic over
the examples in order, as the engine's, and the run stops at the first epoch without an update
or at the epoch cap. On few examples the loop runs on the margins `<W, Z_i>` themselves,
moved by the signed Gram rows (`IntegerForm.signed_gram`: exact integers, in float64 only
where every partial sum is below 2**53, as the engine's `gram`); and once the iterate at the
start of an epoch repeats, the rest of the run to the cap is the cycle between (`_epochs`).
No SymPy here (docs/design.md §1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import floor
from operator import add, mul

import numpy as np

from perceptron.algorithms.fast import IntegerForm, Problem, exact_combination, integer_form
from perceptron.conventions import DEFAULT
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError


@dataclass(frozen=True)
class MarginRun:
    """A run of the margin perceptron: the example updated at each update, in order, the final
    iterate, and the same run in the engine's integer form (`problem`, with its threshold
    `q = B + 1`: `W` updates on example i when `<W, Z_i> < q_i`)."""

    data: Dataset
    beta: Fraction
    indices: tuple[int, ...]
    w: Vector
    epochs: int
    converged: bool
    problem: Problem

    @property
    def updates(self) -> int:
        """The number of updates made."""
        return len(self.indices)


def threshold(beta: Fraction, scale: int) -> int:
    """`B = floor(beta s^2)`: for integer `<W, Z_i>`, `<W, Z_i> <= beta s^2` iff `<= B`."""
    return floor(Fraction(beta) * scale * scale)


def run_margin(data: Dataset, beta: Fraction | int = 0, *, max_epochs: int = 1000) -> MarginRun:
    """The margin perceptron on `data` (w_0 = 0, step 1, cyclic epochs), updating whenever
    `y<w, x> <= beta`; `beta` must be a non-negative rational (a negative one asks for
    updates only on strict mistakes beyond a margin, another algorithm)."""
    beta = Fraction(beta)
    if beta < 0:
        raise DataError(f"the margin perceptron needs beta >= 0, not {beta}")
    if max_epochs < 1:
        raise DataError(f"max_epochs must be at least 1, not {max_epochs}")
    form = integer_form(data)
    bound = threshold(beta, form.scale)
    indices, W, epochs, converged = _epochs(form, bound, max_epochs)
    base = Problem.of_form(form, DEFAULT)
    problem = replace(base, q=np.full(form.n, bound + 1, dtype=object))
    w = tuple(Fraction(v, form.scale) for v in W)
    return MarginRun(data, beta, tuple(indices), w, epochs, converged, problem)


def _epochs(form: IntegerForm, bound: int, max_epochs: int
            ) -> tuple[list[int], list[int], int, bool]:
    """Cyclic epochs of `W += Z[i]` whenever `<W, Z[i]> <= bound`, from `W = 0`, until an
    epoch without an update or `max_epochs`: the examples updated on, in order, the last
    `W`, the epochs run and whether the last made no update.

    Two exact loops, the same integers (a test pins both to the textbook loop): on few
    examples (`DUAL_EXAMPLES`) the margins `v_j = <W, Z[j]>` themselves, moved by a row of
    the signed Gram matrix at each update (a comparison per presentation instead of a
    product of `d` coordinates), and `W` made at the end from how often each example was
    updated on; else `W`. Either stops early where the run cycles (`_repeated`)."""
    n, d = form.n, form.d
    if n <= d + DUAL_EXAMPLES:
        G = form.signed_gram
        v = [0] * n
        indices: list[int] = []
        offsets: list[int] = []  # where each epoch's updates begin in `indices`
        seen: dict[tuple[int, ...], int] = {}
        epochs, converged = 0, False
        while epochs < max_epochs:
            if (first := seen.setdefault(tuple(v), epochs)) != epochs:
                indices = _repeated(indices, offsets, first, epochs, max_epochs)
                epochs = max_epochs
                break
            offsets.append(len(indices))
            epochs += 1
            for i in range(n):
                if v[i] <= bound:
                    v = list(map(add, v, G[i]))
                    indices.append(i)
            if len(indices) == offsets[-1]:
                converged = True
                break
        counts = np.bincount(np.array(indices, dtype=np.int64), minlength=n).tolist()
        return indices, exact_combination(counts, form.signed_once, form.max_abs), epochs, \
            converged
    Z = [[int(v) for v in row] for row in form.signed_once.tolist()]
    W = [0] * d
    indices = []
    starts: list[list[int]] = []  # W at the start of each epoch
    offsets = []
    seen = {}
    epochs = 0
    # `map` over `operator` functions, not generator expressions: the same Python integers,
    # at half the interpreter's cost on these few-coordinate rows (every row has len(W))
    while epochs < max_epochs:
        if (first := seen.setdefault(tuple(W), epochs)) != epochs:
            part = (max_epochs - epochs) % (epochs - first)
            return (_repeated(indices, offsets, first, epochs, max_epochs), starts[first + part],
                    max_epochs, False)
        starts.append(W)
        offsets.append(len(indices))
        epochs += 1
        for i, z in enumerate(Z):
            if sum(map(mul, W, z)) <= bound:
                W = list(map(add, W, z))
                indices.append(i)
        if len(indices) == offsets[-1]:
            return indices, W, epochs, True
    return indices, W, epochs, False


#: Most examples beyond the dimension for which the margin perceptron runs on its margins
#: (`_epochs`): an update then adds `n` Gram entries where it added `d` coordinates, and a
#: presentation compares one margin where it multiplied `d` pairs.
DUAL_EXAMPLES = 16


def _repeated(indices: list[int], offsets: list[int], first: int, epochs: int,
              max_epochs: int) -> list[int]:
    """The updates of a run to `max_epochs` whose state at the start of epoch `epochs`
    (0-based, `epochs` run so far, the updates of epoch k beginning at `offsets[k]`) is its
    state at the start of epoch `first`: an epoch's updates depend on nothing else, so the
    epochs `first .. epochs - 1` repeat to the end (each with an update: the run has not
    converged). An inseparable run to a cap of thousands of epochs was most of the margin
    runs' time, its cycle a few epochs long."""
    whole, part = divmod(max_epochs - epochs, epochs - first)
    cycle = indices[offsets[first]:]
    return indices + cycle * whole + indices[offsets[first]:offsets[first + part]]
