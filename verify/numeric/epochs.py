"""Campaign sources of cyclic runs (`verify.runs.cyclic`, issue 31): data run in cyclic
epochs and read presentation by presentation, by the algorithms that name them only
(`verify.numeric.algorithms`).

- `separable-epochs`: planted separable data (`perceptron.generators.hypothesis`);
- `inseparable`: data with a Gordan certificate, in turn xor in the plane, parity on the
  cube's vertices, planted labels with some flipped whose signed examples surround the
  origin, and planted labels with some flipped (`SHORT_EPOCHS` epochs each);
- `inseparable-long`: xor and surrounding data at `LONG_EPOCHS` = 10^4 epochs;
- `margin-family`: the families tight at every margin (`perceptron.generators.tight.
  margin_family`) for every rho of `RHOS`.

Scenario i is drawn from seed + i, so shards cut them by offsetting the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

from perceptron.dataset import Dataset, Vector
from perceptron.generators.adversary import rational_squares
from perceptron.generators.hypothesis import seeded_separable
from perceptron.generators.tight import margin_family
from verify.runs.columns import Origin
from verify.runs.cyclic import gordan, surrounding
from verify.runs.quantity import Scenario

#: Epochs of the short runs of data that are not separable, and of the long ones.
SHORT_EPOCHS = 60
LONG_EPOCHS = 10_000

#: rho = R^2/gamma^2 of the margin families: 1, 3/2, 2, 7/3, 3, 13/4, ..., 49, 2451/50, 50.
RHOS: tuple[Fraction, ...] = tuple(sorted(
    {Fraction(k) for k in range(1, 51)} | {k + Fraction(1, k + 1) for k in range(1, 50)}))
#: The squared radii of the margin families (squares and not: 2 and 7/3 need more coordinates).
RADII2: tuple[Fraction, ...] = (Fraction(1), Fraction(4, 9), Fraction(2), Fraction(7, 3))


def separable_epochs(seed: int, count: int) -> Iterator[Scenario]:
    """Planted separable data, scenario i from seed + i."""
    for i in range(count):
        planted = seeded_separable(seed + i)
        name = f"planted(seed={seed + i})"
        yield Scenario(Dataset(planted.data.X, planted.data.y, name), planted.u,
                       Origin("separable-epochs", seed + i, name))


def _xor(rng: random.Random) -> tuple[Dataset, Vector, str]:
    """Xor in the plane: (a, b), (-a, -b) labelled +1 and (a, -b), (-a, b) labelled -1,
    positive integers a, b, in a random order."""
    a, b = rng.randint(1, 4), rng.randint(1, 4)
    points = [((a, b), 1), ((-a, -b), 1), ((a, -b), -1), ((-a, b), -1)]
    rng.shuffle(points)
    data = Dataset(tuple(tuple(Fraction(v) for v in p) for p, _ in points),
                   tuple(y for _, y in points))
    return data, (Fraction(1), Fraction(0)), f"xor(a={a}, b={b})"


def _parity(rng: random.Random) -> tuple[Dataset, Vector, str]:
    """Parity on the vertices of the cube [-a, a]^3 (label: the product of the signs)."""
    a = rng.randint(1, 3)
    points = [((i * a, j * a, k * a), i * j * k) for i in (-1, 1) for j in (-1, 1)
              for k in (-1, 1)]
    rng.shuffle(points)
    data = Dataset(tuple(tuple(Fraction(v) for v in p) for p, _ in points),
                   tuple(y for _, y in points))
    return data, (Fraction(1), Fraction(0), Fraction(0)), f"parity(a={a})"


def _noisy(rng: random.Random, surround: bool) -> tuple[Dataset, Vector, str]:
    """Integer points in [-6, 6]^d (d = 2 or 3) labelled by a planted integer u, a few labels
    flipped, drawn until the data are not separable (and, with `surround`, until their signed
    examples surround the origin)."""
    for attempt in range(1000):
        dim = rng.choice((2, 3))
        u = [0] * dim
        while not any(u):
            u = [rng.randint(-3, 3) for _ in range(dim)]
        n = rng.randint(5, 9)
        X: list[tuple[Fraction, ...]] = []
        y: list[int] = []
        while len(X) < n:
            x = [rng.randint(-6, 6) for _ in range(dim)]
            score = sum(a * b for a, b in zip(u, x, strict=True))
            if score:
                X.append(tuple(Fraction(v) for v in x))
                y.append(1 if score > 0 else -1)
        for j in rng.sample(range(n), rng.randint(1, max(1, n // 3))):
            y[j] = -y[j]
        data = Dataset(tuple(X), tuple(y))
        if surround and surrounding(data) is None:
            continue
        if any(gordan(data)):  # a Gordan certificate: not separable (cached for the runs)
            what = "surrounding" if surround else "not separable"
            return data, tuple(Fraction(v) for v in u), f"noisy {what}(d={dim}, n={n}, " \
                f"draw {attempt})"
    raise AssertionError("no inseparable draw in 1000 attempts")


def _family(i: int, rng: random.Random) -> tuple[Dataset, Vector, str]:
    """The i-th family of data that are not separable: xor, parity, noisy surrounding the
    origin, noisy."""
    kind = i % 4
    if kind == 0:
        return _xor(rng)
    if kind == 1:
        return _parity(rng)
    return _noisy(rng, kind == 2)


def inseparable(seed: int, count: int, *, epochs: int = SHORT_EPOCHS,
                source: str = "inseparable", kinds: tuple[int, ...] = (0, 1, 2, 3)
                ) -> Iterator[Scenario]:
    """`count` data sets that are not separable, scenario i from seed + i, of the family
    `kinds[(seed + i) % len(kinds)]`, run for `epochs` epochs."""
    for i in range(count):
        rng = random.Random(seed + i)
        data, u, what = _family(kinds[(seed + i) % len(kinds)], rng)
        name = f"{what}, seed {seed + i}"
        yield Scenario(Dataset(data.X, data.y, name), u, Origin(source, seed + i, name), epochs)


def inseparable_long(seed: int, count: int) -> Iterator[Scenario]:
    """Xor and planted data surrounding the origin, in turn, run for `LONG_EPOCHS` epochs."""
    return inseparable(seed, count, epochs=LONG_EPOCHS, source="inseparable-long",
                       kinds=(0, 2))


def margin_families(seed: int, count: int) -> Iterator[Scenario]:
    """Families tight at every margin: scenario i has rho = RHOS[(seed + i) % len(RHOS)] and
    squared radius RADII2[((seed + i) // len(RHOS)) % len(RADII2)], its labels, order,
    extra dimensions and rotation drawn from seed + i."""
    for i in range(count):
        index = seed + i
        rng = random.Random(index)
        rho = RHOS[index % len(RHOS)]
        R2 = RADII2[(index // len(RHOS)) % len(RADII2)]
        k = rho.numerator // rho.denominator
        labels = [rng.choice((-1, 1)) for _ in range(k)]
        need = k * len(rational_squares(R2)) + len(rational_squares((rho - k) * R2))
        dim = need + rng.randint(0, 2)
        rotation = rng.randrange(10**6) if dim <= 8 and rng.random() < 0.5 else None
        family = margin_family(rho, R2=R2, labels=labels, dim=dim, rotation_seed=rotation)
        order = list(range(k))
        rng.shuffle(order)
        data = family.data.subset(order)
        yield Scenario(data, family.u, Origin("margin-family", index, family.data.name,
                                              tuple(order)))
