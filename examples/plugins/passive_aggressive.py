"""The passive-aggressive algorithm (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006,
"Online passive-aggressive algorithms", JMLR 7, the basic PA update) as a plug-in of
`novikoff audit --algorithm` (docs/proof-files.md). Proof: examples/passive-aggressive.toml.

On an example with hinge loss `l = 1 - y<w, x> > 0` it moves to the closest iterate with
margin 1 on it: `w += tau y x`, `tau = l / ||x||^2` (an exact rational). Unlike the
perceptron it need not stop on separable data (the losses only tend to 0), so it makes at
most `EPOCHS` cyclic epochs, and never more than `max_updates` updates.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from perceptron.dataset import Dataset, Vector

#: Epochs at most: every state of a run satisfies the proof's invariant, so a prefix will do.
EPOCHS = 3


def dot(a: Vector, b: Vector) -> Fraction:
    """`<a, b>`, exactly."""
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def passive_aggressive(data: Dataset, max_updates: int) -> Iterator[tuple[int, Vector]]:
    """PA from `w = 0`: `(index, w_after)` per update, exact rationals."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    made = 0
    for _ in range(EPOCHS):
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            loss, norm = 1 - y * dot(w, x), dot(x, x)
            if loss > 0 and norm > 0 and made < max_updates:
                tau = loss / norm
                w = tuple(a + tau * y * b for a, b in zip(w, x, strict=True))
                made += 1
                updated = True
                yield i, w
        if not updated:
            return
