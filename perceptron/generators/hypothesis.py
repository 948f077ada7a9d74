"""Separable data with a planted rational separator: hypothesis strategies and a seeded mirror.

One generator, `planted`, is written against a single primitive `draw(lo, hi) -> int`, so the
same distribution is available two ways without duplicated logic:

- `separable_data()` — a hypothesis strategy (hypothesis shrinks the integer draws), exported
  for users' own tests;
- `seeded_separable(seed)` — the same generator driven by `random.Random(seed)`, which
  campaigns use so that they run (and reproduce from a printed seed) without hypothesis,
  a test-only dependency. hypothesis is imported lazily, only by the strategies.

The distribution aims at the corners of the theory: dimensions 1..8, ties (examples orthogonal
to each other, so `y<w,x> = 0` happens beyond `w = 0`), duplicated examples, fractions, and
extreme magnitudes (up to 10^12, beyond int64 once squared and summed).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from operator import mul
from typing import TYPE_CHECKING

from perceptron.dataset import Dataset, Vector

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

Draw = Callable[[int, int], int]
#: Largest |numerator| per magnitude regime: small, moderate, large, extreme.
MAGNITUDES = (3, 100, 10**6, 10**12)
MAX_DIM = 8
MAX_N = 12


@dataclass(frozen=True)
class Planted:
    """Strictly separable data and a rational `u` with `y_i <u, x_i> > 0` for every i."""

    data: Dataset
    u: Vector


Cells = list[tuple[int, int]]
"""An example as drawn: a `(numerator, denominator)` pair of integers per coordinate."""


#: The Fractions of u's coordinates, -3..3 (`_cells(draw, dim, 3, 1)`), made once: immutable,
#: so shared by every planted `u` (a Fraction made per coordinate, a gcd and its checks).
_U_FRACTIONS = tuple(Fraction(a) for a in range(-3, 4))


def _over_common(X: Sequence[Cells]) -> tuple[int, list[list[int]]]:
    """The examples `X` as drawn, as integer rows over one positive common denominator
    `L`, the lcm of all their denominators: `x_k = p_k / q_k` is `p_k (L / q_k) / L`. The
    sign of `<u, x>` for an integer `u` is that of `<u, row>` (L > 0), so one lcm serves
    every example's sign and its row (an lcm and a pass per example, and another for the
    rows kept, were a tenth of a planted scenario's cost)."""
    common = lcm(*[q for x in X for _, q in x])
    if common == 1:
        return 1, [[p for p, _ in x] for x in X]
    return common, [[p * (common // q) for p, q in x] for x in X]


def _cells(draw: Draw, dim: int, bound: int, den: int) -> Cells:
    return [(draw(-bound, bound), draw(1, den)) for _ in range(dim)]


def planted(draw: Draw, *, max_dim: int = MAX_DIM, max_n: int = MAX_N,
            name: str = "planted") -> Planted:
    """Draw a planted separator u, then examples labelled by `sign <u, x>` (0 dropped); the
    dataset is named `name`.

    Each coordinate is drawn as a numerator and a denominator (`Cells`; u's denominators are
    1), and the data are made of those integers over their least common denominator
    (`perceptron.algorithms.fast.least_dataset`: the Fractions made only if read, the
    integer form handed to the engine): the same dataset as a Fraction per coordinate,
    which were most of a planted scenario's cost and which a campaign's runs never read."""
    from perceptron.algorithms.fast import least_dataset

    dim = draw(1, max_dim)
    u = [p for p, _ in _cells(draw, dim, 3, 1)]
    if not any(u):
        u[0] = 1
    bound = MAGNITUDES[draw(0, len(MAGNITUDES) - 1)]
    den = (1, 1, 2, 7)[draw(0, 3)]
    X: list[Cells] = []
    for _ in range(draw(1, max_n)):
        kind = draw(0, 5)
        if kind == 0 and X:  # a duplicate
            X.append(X[draw(0, len(X) - 1)])
        elif kind == 1:  # an axis example: orthogonal to the other axes, ties y<w,x> = 0
            axis = draw(0, dim - 1)
            X.append([(draw(1, bound), 1) if k == axis else (0, 1) for k in range(dim)])
        else:
            X.append(_cells(draw, dim, bound, den))
    common, table = _over_common(X)
    inner = [sum(map(mul, u, row)) for row in table]
    rows = [row for row, value in zip(table, inner, strict=True) if value]
    labels = tuple((value > 0) - (value < 0) for value in inner if value)
    if not rows:
        common, rows, labels = 1, [list(u)], (1,)  # <u, u> > 0
    # over the least common denominator (`least_dataset`): the one such form of these
    # rationals, whichever common denominator L they were over
    return Planted(least_dataset(rows, common, labels, name),
                   tuple([_U_FRACTIONS[a + 3] for a in u]))


def seeded_separable(seed: int, **limits: int) -> Planted:
    """The `planted` distribution driven by `random.Random(seed)` (reproducible from seed)."""
    return planted(randint_of(random.Random(seed)), **limits, name=f"planted(seed={seed})")


def randint_of(rng: random.Random) -> Draw:
    """`rng.randint`: the same integers drawn from the same generator, left in the same state.
    `randint(lo, hi)` is `lo + r` for the first `r = getrandbits(k)` below `n = hi - lo + 1`,
    k the bit length of n (CPython's `Random._randbelow_with_getrandbits`, which `randint`
    calls through `randrange`; a test compares them); this is that loop without the two calls
    and their argument checks around it, which were most of drawing a planted scenario. A
    subclass of `random.Random` (its own `random` or `getrandbits`) gets its own `randint`."""
    if type(rng) is not random.Random:
        return rng.randint
    getrandbits = rng.getrandbits

    def draw(lo: int, hi: int) -> int:
        n = hi - lo + 1
        if n <= 0:
            raise ValueError(f"empty range for randint({lo}, {hi})")
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return lo + r

    return draw


def separable_data(*, max_dim: int = MAX_DIM, max_n: int = MAX_N) -> SearchStrategy[Planted]:
    """A hypothesis strategy for `Planted` data (shrinks towards small, low-dimensional data)."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw: Callable[..., int]) -> Planted:
        return planted(lambda lo, hi: draw(st.integers(lo, hi)), max_dim=max_dim, max_n=max_n)

    return build()


def labelled_vectors(dim: int, *, bound: int = 10) -> SearchStrategy[tuple[Vector, int]]:
    """One integer example with a label, for steps about a single update."""
    from hypothesis import strategies as st

    coords = st.lists(st.integers(-bound, bound), min_size=dim, max_size=dim)
    return st.tuples(coords.map(lambda c: tuple(Fraction(v) for v in c)),
                     st.sampled_from((-1, 1)))
