"""The margin perceptron written as a plug-in: the contract of `novikoff audit --algorithm`
in full (docs/proof-files.md, "Your own algorithm"), checked against the built-in one
(`perceptron.algorithms.margin.run_margin`) by tests/test_verify/plugins/test_plugin.py.

Its default name, `margin-perceptron` (the function's), is the built-in's and is refused (a
plug-in never stands in for a built-in algorithm); give it one:
`novikoff audit PROOF --algorithm mp=examples/plugins/margin_perceptron.py:margin_perceptron`
runs it for the proofs whose `[numeric] algorithm` is `mp`.

`run` is the same rule with its margin as a parameter (`--param`, an exact rational):
`novikoff audit PROOF --algorithm mp=examples.plugins.margin_perceptron:run --param beta=1/2`
calls `run(data, max_updates, beta=Fraction(1, 2))`.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from perceptron.dataset import Dataset, Vector


def dot(a: Vector, b: Vector) -> Fraction:
    """`<a, b>`, exactly."""
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def margin_perceptron(data: Dataset, max_updates: int) -> Iterator[tuple[int, Vector]]:
    """The margin perceptron at `beta = R2 / 3` (`R2` the largest squared norm): `run`."""
    return run(data, max_updates, beta=max(dot(x, x) for x in data.X) / 3)


def run(data: Dataset, max_updates: int, *, beta: Fraction = Fraction(0)
        ) -> Iterator[tuple[int, Vector]]:
    """Update `w += y x` whenever `y<w, x> <= beta`, cyclic epochs from `w = 0`, until an
    epoch makes no update or `max_updates` updates are made. Yields `(index, w_after)` per
    update, exact rationals. A negative `beta` is another algorithm: refused."""
    if beta < 0:
        raise ValueError(f"the margin perceptron needs beta >= 0, not {beta}")
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    made = 0
    while made < max_updates:
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            if y * dot(w, x) <= beta and made < max_updates:
                w = tuple(a + y * b for a, b in zip(w, x, strict=True))
                made += 1
                updated = True
                yield i, w
        if not updated:
            return
