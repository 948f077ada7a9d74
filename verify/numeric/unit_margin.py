"""A campaign source of long runs on small numbers: integer data at margin 1.

Steps about states (`t R2 - <w,w> >= 0`, the final bound) and batch iterates get one row per
iterate, so the other sources, whose runs stop after a handful of updates, give them a few
thousand rows while giving steps about (state, example) pairs hundreds of thousands. Here
each dataset is a few integer points in 2 or 3 dimensions, labelled by a seeded integer
separator u with `|<u, x>| = 1` for every point (the smallest margin an integer u can have),
so the perceptron makes up to `R2 <u,u>` updates (Novikoff's bound): hundreds of iterates
per run, each with only a few examples, all in int64. The runs are long where the theorem
says they can be, which is where its inequalities are tight.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

from perceptron.dataset import Dataset
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario

#: Coordinates drawn from [-SPAN, SPAN]; the separator's from [-U_SPAN, U_SPAN].
SPAN = 12
U_SPAN = 6


def unit_margin(seed: int, count: int, *, max_epochs: int = 400,
                max_iterations: int = 200) -> Iterator[Scenario]:
    """`count` scenarios; scenario i is drawn from `random.Random(seed + i)` (so shards cut it
    by offsetting the seed, as `generated`)."""
    for i in range(count):
        rng = random.Random(seed + i)
        dim = rng.choice((2, 3))
        u = [0] * dim
        while not any(u):
            u = [rng.randint(-U_SPAN, U_SPAN) for _ in range(dim)]
        points: list[tuple[Fraction, ...]] = []
        labels: list[int] = []
        wanted = rng.randint(3, 6)
        for _ in range(400 * wanted):  # rejection: |<u, x>| = 1 is rare but never impossible
            x = [rng.randint(-SPAN, SPAN) for _ in range(dim)]
            score = sum(a * b for a, b in zip(u, x, strict=True))
            if abs(score) == 1:
                points.append(tuple(Fraction(v) for v in x))
                labels.append(score)
                if len(points) == wanted:
                    break
        if not points:  # u with no integer point at margin 1 in range (all even, say)
            continue
        name = f"unit-margin(seed={seed + i}, d={dim}, n={len(points)})"
        yield Scenario(Dataset(tuple(points), tuple(labels), name),
                       tuple(Fraction(v) for v in u), Origin("unit-margin", seed + i, name),
                       max_epochs, max_iterations)
