"""A campaign source where the Block–Novikoff bound is attained: orthonormal examples, all +1.

Scenario i (drawn from `random.Random(seed + i)`, so shards cut the source by offsetting the
seed) has `k = 1 + i mod MAX_K` examples `x_j = e_j` of unit norm, labelled +1, embedded in
`k`, `k + 1` or `k + 2` dimensions, rotated by an exact rational rotation half of the time
(`perceptron.generators.tight.rational_rotation`: orthonormality is kept, the examples are no
longer axis-aligned), and presented in a seeded order. Its reference separator is
`u = x_1 + ... + x_k`: `gamma_u = 1`, `<u, u> = k`, `R2 = 1`, so `R2 <u,u> / gamma_u^2 = k`,
and the perceptron makes exactly k mistakes, whatever the order (`tightness-orthonormal`
proves the pieces; its numeric check counts them on these runs). Only the algorithms that name
this source run it (`verify.numeric.algorithms.EXCLUSIVE_SOURCES`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from perceptron.generators.tight import orthonormal
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario

#: Family sizes cycle through 1..MAX_K.
MAX_K = 12


def orthonormal_positive(seed: int, count: int) -> Iterator[Scenario]:
    """`count` scenarios of k orthonormal examples labelled +1 (see the module docstring)."""
    for i in range(count):
        rng = random.Random(seed + i)
        k = 1 + (seed + i) % MAX_K
        dim = k + rng.randint(0, 2)
        rotation = rng.randrange(10**6) if rng.random() < 0.5 else None
        family = orthonormal([1] * k, dim=dim, rotation_seed=rotation)
        order = list(range(k))
        rng.shuffle(order)
        data = family.data.subset(order)
        yield Scenario(data, family.u, Origin("orthonormal", seed + i, family.data.name,
                                              tuple(order)))
