"""A campaign source of long runs on small numbers: integer data at margin 1.

Steps about states (`t R2 - <w,w> >= 0`, the final bound) and batch iterates get one row per
iterate, so the other sources, whose runs stop after a handful of updates, give them a few
thousand rows while giving steps about (state, example) pairs hundreds of thousands. Here
each dataset is a few integer points in 2 or 3 dimensions, labelled by a seeded integer
separator u with `|<u, x>| = 1` for every point (the smallest margin an integer u can have),
so the perceptron makes up to `R2 <u,u>` updates (Novikoff's bound): hundreds of iterates
per run, each with only a few examples, all in int64. The runs are long where the theorem
says they can be, which is where its inequalities are tight.

The points are found by rejection (a random integer point has `|<u, x>| = 1` rarely), which
drawn one `randint` at a time was most of a long-run campaign's time. `_margin_one` draws the
same integers from the same generator in blocks (`_draws`: the 32-bit words that `randint`
would consume, taken many at once, and its own rejection rule applied to them in numpy), so
every scenario is the one the one-at-a-time loop makes (a test replays that loop).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from perceptron.algorithms.fast import remember_integer_arrays
from perceptron.dataset import Dataset
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario

#: Coordinates drawn from [-SPAN, SPAN]; the separator's from [-U_SPAN, U_SPAN].
SPAN = 12
U_SPAN = 6
#: Points tried per point wanted before a seed gives up (`|<u, x>| = 1` is rare).
TRIES = 400


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
        wanted = rng.randint(3, 6)
        # u with no integer point at margin 1 in range: every <u, x> is a multiple of
        # gcd(u), so none is +-1 when that exceeds 1 (the rejection loop would try all
        # `TRIES * wanted` points in vain; the points of the rest are in range or not)
        points, scores = (_margin_one(rng, u, wanted) if math.gcd(*u) == 1
                          else (np.zeros((0, dim), dtype=np.int64), np.zeros(0, dtype=np.int64)))
        if not len(scores):
            continue
        name = f"unit-margin(seed={seed + i}, d={dim}, n={len(scores)})"
        data = Dataset(tuple(tuple(_EXACT[v] for v in x) for x in points.tolist()),
                       tuple(scores.tolist()), name)
        # the engine's integer form of these points, from the integers themselves
        remember_integer_arrays(data, points)
        yield Scenario(data,
                       tuple(_EXACT[v] for v in u), Origin("unit-margin", seed + i, name),
                       max_epochs, max_iterations)


#: Every coordinate as the one Fraction it is (Fractions are immutable: one object each).
_EXACT = {v: Fraction(v) for v in range(-SPAN, SPAN + 1)}


def _margin_one(rng: random.Random, u: list[int], wanted: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """The points x (rows of an int64 array) and their scores `<u, x>` = +-1 that this loop
    keeps, in order:

        for _ in range(TRIES * wanted):
            x = [rng.randint(-SPAN, SPAN) for _ in range(dim)]
            if abs(<u, x>) == 1: keep x; stop at `wanted` kept

    the same integers drawn from `rng` in blocks (`_draws`); the generator is left further
    along than the loop would leave it, which nothing reads (each scenario has its own)."""
    dim = len(u)
    tries = TRIES * wanted
    direction = np.array(u, dtype=np.int64)
    values = _draws(rng, 512)
    block = 2048
    while True:
        usable = min(len(values) // dim, tries)
        points = values[:usable * dim].reshape(usable, dim)
        scores = points @ direction
        hits = np.flatnonzero(np.abs(scores) == 1)[:wanted]
        if len(hits) == wanted or usable == tries:
            return points[hits], scores[hits]
        values = np.concatenate([values, _draws(rng, block)])
        block *= 4


#: `randint(-SPAN, SPAN)` is `-SPAN + r` for the first `r = getrandbits(BITS)` below `WIDTH`.
WIDTH = 2 * SPAN + 1
BITS = WIDTH.bit_length()


def _draws(rng: random.Random, words: int) -> np.ndarray:
    """The values of successive `rng.randint(-SPAN, SPAN)` calls that `words` 32-bit outputs of
    the generator make: `getrandbits(BITS)` is the top BITS bits of one output, and one
    `getrandbits(32 * words)` is `words` outputs, the first in the lowest bits."""
    raw = rng.getrandbits(32 * words).to_bytes(4 * words, "little")
    top = (np.frombuffer(raw, dtype="<u4") >> (32 - BITS)).astype(np.int64)
    return top[top < WIDTH] - SPAN
