"""Campaign sources of single passes (`verify.runs.single_pass`): data on which Freund and
Schapire's bound has something to say, with an exactly unit u and several margins.

Each scenario is a sequence, a rational unit vector u and margins gamma > 0; the pass is run
once and read at every margin. Four families, each seeded per scenario (scenario i from
`seed + i`, so shards cut them by offsetting the seed):

- `noisy`: planted data (integer points labelled by a rational unit u) with a fraction of
  the labels flipped: non-separable, so D > 0 for every margin;
- `adversarial`: the same kind of data in an order chosen against the perceptron: at each
  position the next element is one the current iterate misclassifies, when one is left;
- `tight`: k = m^2 orthonormal examples scaled by c, u = sum y_i e_i / m; at the margins
  gamma = a c / m with a >= 1 every d_i equals (a - 1) c / m, D = (a - 1) c, and the pass
  makes exactly k = (R + D)^2 / gamma^2 mistakes: the bound is attained (slack 0);
- `real-prefix`: the first examples of a real dataset (iris, sonar; a bias coordinate 1
  prepended), file order then shuffles, u a rational unit vector near the direction of
  `sum y_i x_i`, margins from the data's own functional margins.

A rational unit vector near any direction comes from the inverse stereographic projection
of a rational point (`unit_near`): exactly unit, whatever the float used to aim it.
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

from perceptron.dataset import Dataset, Vector
from perceptron.generators.tight import orthonormal
from perceptron.geometry.linear import functional_margins
from verify.numeric.campaign import BENCH_DATA, with_bias
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario

#: Rational unit vectors (Pythagorean), padded with zeros to the data's dimension.
UNITS: tuple[tuple[Fraction, ...], ...] = (
    (Fraction(1),),
    (Fraction(3, 5), Fraction(4, 5)),
    (Fraction(2, 3), Fraction(1, 3), Fraction(2, 3)),
    (Fraction(2, 7), Fraction(-3, 7), Fraction(6, 7)),
    (Fraction(1, 2), Fraction(1, 2), Fraction(-1, 2), Fraction(1, 2)),
)
#: Margins asked of u in the planted families (their points have integer coordinates).
MARGINS = tuple(Fraction(g) for g in ("1/4", "1/2", "1", "3/2", "2", "3", "4", "6"))


def unit_near(direction: Sequence[Fraction], denominator: int = 1000) -> Vector:
    """A rational vector of norm exactly 1 near `direction` (nonzero).

    With the pole at -e_k for the coordinate k of largest magnitude share, the direction's
    stereographic image v is rounded to rationals (denominators up to `denominator`), and
    mapped back: `(2 v, 1 - |v|^2) / (1 + |v|^2)` is a unit vector for every rational v.
    The float only aims; the result is exact and checked.
    """
    norm = math.sqrt(sum(float(c) ** 2 for c in direction))
    if norm == 0:
        raise ValueError("no direction: the zero vector")
    n = [float(c) / norm for c in direction]
    k = max(range(len(n)), key=lambda i: n[i])
    v = [Fraction(n[i] / (1 + n[k])).limit_denominator(denominator) if i != k else None
         for i in range(len(n))]
    size = sum((c * c for c in v if c is not None), Fraction(0))
    u = tuple((1 - size) / (1 + size) if c is None else 2 * c / (1 + size) for c in v)
    assert sum(c * c for c in u) == 1
    return u


def _padded(unit: Sequence[Fraction], dim: int) -> Vector:
    return (*unit, *(Fraction(0) for _ in range(dim - len(unit))))


def _planted(rng: random.Random, flips: bool) -> tuple[Dataset, Vector, str]:
    """Integer points in [-9, 9]^dim labelled by a planted unit u, some labels flipped."""
    dim = rng.choice((2, 3, 4))
    unit = _padded(rng.choice([c for c in UNITS if len(c) <= dim]), dim)
    order = list(range(dim))
    rng.shuffle(order)
    u = tuple(unit[order[i]] for i in range(dim))
    n = rng.randint(100, 400)
    rate = rng.choice((5, 10, 20, 30, 40)) if flips else 0
    X: list[Vector] = []
    y: list[int] = []
    # <u, x> times the positive lcm of u's denominators: its sign, in integers (a Fraction
    # per product was most of making these scenarios)
    common = math.lcm(*(c.denominator for c in u))
    scaled = [c.numerator * (common // c.denominator) for c in u]
    while len(X) < n:
        draws = [rng.randint(-9, 9) for _ in range(dim)]
        score = sum(map(operator.mul, scaled, draws))
        if score == 0:
            continue
        label = 1 if score > 0 else -1
        X.append(tuple(map(Fraction, draws)))
        y.append(-label if rng.randrange(100) < rate else label)
    return Dataset(tuple(X), tuple(y)), u, f"d={dim}, n={n}, {rate}% flipped"


def noisy(seed: int, count: int) -> Iterator[Scenario]:
    """Planted data with label flips, in the drawn order."""
    for i in range(count):
        data, u, what = _planted(random.Random(seed + i), True)
        name = f"noisy(seed={seed + i}, {what})"
        yield Scenario(Dataset(data.X, data.y, name), u, Origin("noisy", seed + i, name),
                       margins=MARGINS)


def against(data: Dataset) -> tuple[int, ...]:
    """An order chosen against the perceptron's single pass: at each position, the first
    remaining element the current iterate misclassifies (y<w,x> <= 0), else the remaining one
    closest to being misclassified. Exact: integer arithmetic over the common denominator
    (int64 suffices: |y<w,x>| <= n max|x|^2 d for integer rows of at most 2^20)."""
    den = math.lcm(*(c.denominator for x in data.X for c in x))
    X = np.array([[int(c * den) for c in x] for x in data.X], dtype=np.int64)
    if np.abs(X).max(initial=0) >= 2**20 or data.n * data.d >= 2**20:
        raise ValueError("against() is for small integer data")
    y = np.array(data.y, dtype=np.int64)
    w = np.zeros(data.d, dtype=np.int64)
    left = np.ones(data.n, dtype=bool)
    order: list[int] = []
    for _ in range(data.n):
        scores = np.where(left, y * (X @ w), np.iinfo(np.int64).max)
        wrong = np.flatnonzero(left & (scores <= 0))
        pick = int(wrong[0]) if len(wrong) else int(np.argmin(scores))
        left[pick] = False
        order.append(pick)
        if scores[pick] <= 0:
            w = w + y[pick] * X[pick]
    return tuple(order)


def adversarial(seed: int, count: int) -> Iterator[Scenario]:
    """Planted data with label flips in an order chosen against the pass (`against`)."""
    for i in range(count):
        data, u, what = _planted(random.Random(seed + i), True)
        order = against(data)
        name = f"adversarial(seed={seed + i}, {what})"
        ordered = data.subset(order)
        yield Scenario(Dataset(ordered.X, ordered.y, name), u,
                       Origin("adversarial", seed + i, name, order), margins=MARGINS)


def tight(seed: int, count: int) -> Iterator[Scenario]:
    """Orthonormal families of k = m^2 examples, where the bound is attained."""
    for i in range(count):
        rng = random.Random(seed + i)
        m = rng.randint(1, 6)
        k = m * m
        c = rng.choice((Fraction(1), Fraction(2), Fraction(1, 3), Fraction(5, 2)))
        labels = [rng.choice((-1, 1)) for _ in range(k)]
        family = orthonormal(labels, scale=c)  # x_i = c e_i, u = sum y_i e_i (norm m)
        X, u = family.data.X, tuple(v / m for v in family.u)
        name = f"tight(seed={seed + i}, k={k}, scale={c})"
        margins = tuple(a * c / m for a in (Fraction(1), Fraction(3, 2), Fraction(2),
                                             Fraction(3)))
        yield Scenario(Dataset(X, tuple(labels), name), u, Origin("tight-pass", seed + i, name),
                       margins=margins)


#: Real datasets read by prefix: (file, name, prefix length).
PREFIX_SETS = (("iris_data_set", "iris", 150), ("rocks_and_mines", "sonar", 120))


def real_prefix(seed: int, orders_per_set: int, sets: Sequence[tuple[str, str, int]] = PREFIX_SETS,
                directory: Path = BENCH_DATA) -> Iterator[Scenario]:
    """Prefixes of real datasets, bias 1 prepended: the file order, then seeded shuffles
    (seed + k) of the whole file before the prefix is cut. A missing file is skipped."""
    from perceptron.io.loaders import load

    for file, name, length in sets:
        path = directory / file
        if not path.is_file():
            continue
        whole = with_bias(load(path), name)
        for k in range(orders_per_set):
            order = list(range(whole.n))
            if k:
                random.Random(seed + k).shuffle(order)
            prefix = tuple(order[:length])
            data = whole.subset(prefix)
            label = f"{name} prefix {length} ({'file order' if not k else f'shuffle {seed + k}'})"
            yield read_pass(Dataset(data.X, data.y, label),
                            Origin("real-prefix", seed + k if k else None, label, prefix))


def read_pass(data: Dataset, origin: Origin, u: Vector | None = None,
              margins: Sequence[Fraction] = ()) -> Scenario:
    """One pass over `data` as it is (any data, separable or not), read for `u` (a unit
    vector; None: a rational unit u near the direction of `sum y_i x_i`) at `margins` (none:
    the quartiles of the data's own margins for that u)."""
    if u is None:
        u = unit_near([sum(data.y[i] * data.X[i][j] for i in range(data.n))
                       for j in range(data.d)])
    return Scenario(data, u, origin, margins=tuple(margins) or _quantile_margins(data, u))


def _quantile_margins(data: Dataset, u: Vector) -> tuple[Fraction, ...]:
    """Positive margins read off the data: the quartiles of the positive `y <u, x>`,
    rounded to two decimals (1/100 when none is positive)."""
    positive = sorted(m for m in functional_margins(data, u) if m > 0)
    if not positive:
        return (Fraction(1, 100),)
    picks = {positive[(len(positive) * q) // 4] for q in (1, 2, 3)}
    return tuple(sorted({max(Fraction(round(p * 100)), Fraction(1)) / 100 for p in picks}))
