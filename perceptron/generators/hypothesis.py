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
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
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


def _inner_sign(a: Vector, b: Vector) -> int:
    """The sign of `<a, b>` (-1, 0 or 1), exactly, in Python integers: the sum over the
    least common multiple L of the products' denominators, `sum p_k q_k (L / (r_k s_k))`
    for `a_k = p_k / r_k`, `b_k = q_k / s_k`, has the sign of `<a, b>` (L > 0). The same
    sign as the sum of Fractions, without a Fraction (two gcds) per coordinate: drawing
    the data was most of a planted scenario's cost."""
    dens = [p.denominator * q.denominator for p, q in zip(a, b, strict=True)]
    common = lcm(*dens)
    total = sum(p.numerator * q.numerator * (common // d)
                for p, q, d in zip(a, b, dens, strict=True))
    return (total > 0) - (total < 0)


def _vector(draw: Draw, dim: int, bound: int, den: int) -> Vector:
    return tuple(Fraction(draw(-bound, bound), draw(1, den)) for _ in range(dim))


def planted(draw: Draw, *, max_dim: int = MAX_DIM, max_n: int = MAX_N,
            name: str = "planted") -> Planted:
    """Draw a planted separator u, then examples labelled by `sign <u, x>` (0 dropped); the
    dataset is named `name`."""
    dim = draw(1, max_dim)
    u = _vector(draw, dim, 3, 1)
    if not any(u):
        u = (Fraction(1), *u[1:])
    bound = MAGNITUDES[draw(0, len(MAGNITUDES) - 1)]
    den = (1, 1, 2, 7)[draw(0, 3)]
    X: list[Vector] = []
    for _ in range(draw(1, max_n)):
        kind = draw(0, 5)
        if kind == 0 and X:  # a duplicate
            X.append(X[draw(0, len(X) - 1)])
        elif kind == 1:  # an axis example: orthogonal to the other axes, ties y<w,x> = 0
            axis = draw(0, dim - 1)
            X.append(tuple(Fraction(draw(1, bound)) if k == axis else Fraction(0)
                           for k in range(dim)))
        else:
            X.append(_vector(draw, dim, bound, den))
    signs = [_inner_sign(u, x) for x in X]
    kept = [x for x, sign in zip(X, signs, strict=True) if sign]
    labels = tuple(sign for sign in signs if sign)
    if not kept:
        kept, labels = [u], (1,)  # <u, u> > 0
    return Planted(Dataset(tuple(kept), labels, name), u)


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
