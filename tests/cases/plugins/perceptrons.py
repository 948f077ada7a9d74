"""The correct perceptron as an online plug-in, and the one-step proof its audits run (shared
by `test_plugin_ends.py` and `test_plugin_work.py`, which test how a plug-in's runs ended
and the budget on a plug-in's work)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from perceptron.dataset import Dataset, Vector

#: A proof of one step bound to the plug-in `mine`'s online runs (cheap at --budget small).
PROOF = """
title = "t is a natural"
scalars = ["t"]
naturals = ["t"]
[numeric]
run = "online"
algorithm = "mine"
[[step]]
id = "count"
claim = "t >= 0"
"""


def dot(a: Vector, b: Vector) -> Fraction:
    """`<a, b>`, exactly."""
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def perceptron(data: Dataset, max_updates: int) -> Iterator[tuple[int, Vector]]:
    """The perceptron, correct: cyclic epochs until one makes no update, or `max_updates`."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    made = 0
    while made < max_updates:
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            if y * dot(w, x) <= 0 and made < max_updates:
                w = tuple(a + y * b for a, b in zip(w, x, strict=True))
                made, updated = made + 1, True
                yield i, w
        if not updated:
            return
