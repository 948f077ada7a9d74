"""Issue 27 review's plug-in: the normalised perceptron, w += y x / ||x||^2 on a mistake."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any


def _dot(a: Any, b: Any) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def normalised(data: Any, max_updates: int) -> Iterator[tuple[int, tuple[Fraction, ...]]]:
    """w += y x / ||x||^2 on y<w, x> <= 0, passes until none updates."""
    w = tuple(Fraction(0) for _ in range(data.d))
    made = 0
    while made < max_updates:
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            if made >= max_updates:
                break
            if y * _dot(w, x) <= 0:
                n = _dot(x, x)
                w = tuple(a + y * b / n for a, b in zip(w, x, strict=True))
                made += 1
                updated = True
                yield i, w
        if not updated:
            return
