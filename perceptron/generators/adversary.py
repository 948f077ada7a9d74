"""An online adversary that forces the perceptron into the most mistakes Novikoff allows.

Fix the reference separator `u = e_1`, a rational margin `gamma > 0` and a rational radius
bound `R2 > 0` (squared, so no square root is ever taken). Every example the adversary plays
satisfies `||x||^2 == R2` and `y <u, x> == gamma` exactly, and lies exactly on the learner's
decision boundary, `y <w, x> == 0`, which the default rule (`y<w,x> <= 0`) counts as a mistake.

**Construction.** Write the learner's iterate as `w = a e_1 + w_perp`. The adversary plays
`x = y z` with `z = gamma e_1 - (a gamma / ||w_perp||^2) w_perp + f`, where `f` lives on fresh
coordinates (zero in `w`) and `||f||^2 = R2 - gamma^2 - a^2 gamma^2 / ||w_perp||^2`; when
`w_perp = 0` it needs `a <= 0` and plays `z = gamma e_1 + f`. Then `<w, z> = 0`, `z_1 = gamma`,
`||z||^2 = R2`. The squared norm `||f||^2` is a nonnegative rational `p/q`, and
`p/q = (p q)/q^2`; by Lagrange's four-square theorem the integer `p q` is a sum of at most four
squares, so `f` has at most four rational coordinates — everything stays exact.

**Why it reaches floor(R2/gamma^2).** Against the perceptron (`w_0 = 0`, `w <- w + y x = w + z`)
every round keeps `<w_t, u> = t gamma` and, since `<w_t, z> = 0`,
`||w_t||^2 = ||w_{t-1}||^2 + R2 = t R2`; so `||w_perp||^2 = t R2 - t^2 gamma^2` and round
`t + 1` needs `||f||^2 = R2 (R2 - (t+1) gamma^2) / (R2 - t gamma^2) >= 0`, i.e.
`t + 1 <= R2 / gamma^2`. So rounds `1, ..., floor(R2/gamma^2)` all succeed (each a mistake).

**Why no adversary can do more.** Any sequence with `||x||^2 <= R2` and `y<u,x> >= gamma ||u||`
gives after `t` mistakes `t gamma ||u|| <= <w_t, u> <= ||w_t|| ||u||` and `||w_t||^2 <= t R2`
(Block–Novikoff), hence `t^2 gamma^2 <= t R2` and `t <= R2/gamma^2`; `t` is an integer.
The adversary's examples meet both inequalities with equality, which is what makes it tight.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import gcd, isqrt, lcm

from perceptron.dataset import Dataset, Vector
from perceptron.geometry.bound import NovikoffBound
from perceptron.geometry.linear import norm2

#: A sparse vector: coordinate index -> nonzero exact value (dimensions grow as play goes on).
Sparse = dict[int, Fraction]
#: The zero every absent coordinate reads as: one shared Fraction (immutable), not one made
#: per coordinate read (the audit reads some 10^5 of them per game).
_ZERO = Fraction(0)


def _is_square(n: int) -> bool:
    return n >= 0 and isqrt(n) ** 2 == n


#: Bit k set iff k is a square modulo 16 (0, 1, 4, 9): a remainder with its bit clear is no
#: square, so `_scan_two_squares` skips its `isqrt` (an exact filter, never a float).
_SQUARES_MOD_16 = (1 << 0) | (1 << 1) | (1 << 4) | (1 << 9)
#: Primes p = 3 (mod 4) `_two_squares` divides out: p | a^2 + b^2 forces p | a and p | b.
_PRIMES_3_MOD_4 = (3, 7, 11, 19, 23)


def _two_squares(n: int) -> tuple[int, int] | None:
    """`(a, b)` with `a^2 + b^2 == n`, `a >= b >= 0` and `a` the largest such, or None.

    The same answer as scanning `a` down from `isqrt(n)` (`_scan_two_squares`), found
    faster (the adversary's games ask some 2 500 of these per campaign shard set, most of
    the scan's time spent on the None answers): if 4 | a^2 + b^2 then a and b are even
    (squares are 0 or 1 mod 4), and if p | a^2 + b^2 for a prime p = 3 (mod 4) then p | a
    and p | b (-1 is no square mod p). So the solutions of `s^2 m` are exactly `s` times
    those of `m` for s made of such factors, in the same order (a -> s a is increasing,
    and `2 a^2 >= n` iff `2 a'^2 >= m`): the largest `a` of `n` is `s` times that of `m`.
    A factor p left with an odd exponent, or `m = 3 (mod 4)`, means no solution at all.
    All integer arithmetic: exact."""
    if n == 0:
        return 0, 0
    scale = 1
    while n % 4 == 0:
        n //= 4
        scale *= 2
    if n % 4 == 3:
        return None
    for p in _PRIMES_3_MOD_4:
        while n % p == 0:
            if n % (p * p):
                return None
            n //= p * p
            scale *= p
    found = _scan_two_squares(n)
    return None if found is None else (scale * found[0], scale * found[1])


def _scan_two_squares(n: int) -> tuple[int, int] | None:
    """`(a, b)` with `a^2 + b^2 == n`, `a >= b >= 0`, `a` the largest such, or None: the
    scan of `a` down from `isqrt(n)` while `2 a^2 >= n`, each remainder first filtered by
    the squares mod 16 (exact), then tested by `isqrt`."""
    a = isqrt(n)
    while 2 * a * a >= n:
        rest = n - a * a
        if (_SQUARES_MOD_16 >> (rest & 15)) & 1:
            root = isqrt(rest)
            if root * root == rest:
                return a, root
        a -= 1
    return None


def _three_square_possible(n: int) -> bool:
    """Legendre: n is a sum of three squares unless n = 4^k (8m + 7)."""
    while n and n % 4 == 0:
        n //= 4
    return n % 8 != 7


@lru_cache(maxsize=4096)
def sum_of_squares(n: int) -> tuple[int, ...]:
    """Fewest positive integers (at most four, Lagrange) whose squares sum to `n >= 0`.

    Remembered (the answer is a tuple of ints, immutable, and a function of `n` alone, so
    the cache changes no result): the adversary's games of one campaign ask the same `n`
    about twice each (1022 calls, 493 distinct, in `benchmarks/campaign.py --medium`)."""
    if n < 0:
        raise ValueError(f"{n} is negative")
    if n == 0:
        return ()
    if _is_square(n):
        return (isqrt(n),)
    two = _two_squares(n)
    if two is not None:
        return tuple(v for v in two if v)
    for squares in (3, 4):
        if squares == 3 and not _three_square_possible(n):
            continue
        a = isqrt(n)
        while a > 0:
            rest = n - a * a
            if squares == 3:
                found = _two_squares(rest)
                if found is not None:
                    return tuple(v for v in (a, *found) if v)
            elif _three_square_possible(rest):
                return (a, *sum_of_squares(rest))
            a -= 1
    raise AssertionError("unreachable: Lagrange's four-square theorem")


def rational_squares(q: Fraction) -> tuple[Fraction, ...]:
    """At most four positive rationals whose squares sum to `q >= 0` (`q = (p r)/r^2`)."""
    if q < 0:
        raise ValueError(f"{q} is negative")
    return tuple(Fraction(v, q.denominator) for v in sum_of_squares(q.numerator * q.denominator))


def _dot(a: Sparse, b: Sparse) -> Fraction:
    return sum((v * b[i] for i, v in a.items() if i in b), Fraction(0))


@dataclass(frozen=True)
class AdversarialSequence(NovikoffBound):
    """The examples an adversary played, in order, with the promises they keep.

    `u` is the reference separator `e_1`, `gamma_u = min y<u,x>` and `R2 = max ||x||^2`;
    `iterates[t]` is the perceptron's `w_t` on them.
    """

    data: Dataset
    u: Vector
    gamma_u: Fraction
    R2: Fraction

    @property
    def mistakes(self) -> int:
        """Rounds played; each one a mistake of the perceptron."""
        return self.data.n

    @property
    def u_norm2(self) -> Fraction:  # type: ignore[override]
        """`<u, u>`: 1, as `u = e_1`."""
        return norm2(self.u)

    @cached_property
    def iterates(self) -> tuple[Vector, ...]:
        """The perceptron's iterates `w_0 = 0, ..., w_n` (`w_{t+1} = w_t + y_t x_t`: every
        round is a mistake), made on first use: the audit reads only the examples."""
        w: Vector = (_ZERO,) * self.data.d
        out = [w]
        for x, y in zip(self.data.X, self.data.y, strict=True):
            w = tuple(a + c if y == 1 else a - c for a, c in zip(w, x, strict=True))
            out.append(w)
        return tuple(out)


class OnlineAdversary:
    """Forces a mistake every round while `||x||^2 <= R2` and `y<e_1, x> >= gamma` hold.

    `respond(w)` answers any learner; `play()` plays against the perceptron and records the
    sequence. Labels are drawn from `random.Random(seed)` (or all +1 when `seed` is None); they
    do not change the dynamics, since the perceptron's step `y x = z` does not depend on `y`.
    """

    def __init__(self, R2: Fraction | int, gamma: Fraction | int, *, seed: int | None = None
                 ) -> None:
        self.R2 = Fraction(R2)
        self.gamma = Fraction(gamma)
        if self.gamma <= 0 or self.gamma**2 > self.R2:
            raise ValueError("need gamma > 0 and R2 >= gamma^2 (u = e_1 has ||u|| = 1)")
        self.seed = seed
        self._labels = random.Random(seed) if seed is not None else None
        #: gamma's and R2's numerators and denominators (`_integer_step`)
        self._integers = (self.gamma.numerator, self.gamma.denominator, self.R2.numerator,
                          self.R2.denominator)

    def respond(self, w: Sparse, dimension: int) -> tuple[Sparse, int] | None:
        """An example `(x, y)` with `y<w,x> == 0`, or None when no allowed example errs.

        `dimension` is the number of coordinates used so far; fresh ones are appended.
        """
        perp = {i: v for i, v in w.items() if i != 0 and v}
        move = self._move(w.get(0, _ZERO), _dot(perp, perp), dimension)
        if move is None:
            return None
        pull, _, fresh, y = move
        z: Sparse = {0: self.gamma}
        z.update({i: -pull * v for i, v in perp.items() if pull})
        z.update(fresh)
        return {i: y * v for i, v in z.items()}, y

    def _move(self, a: Fraction, perp2: Fraction, dimension: int
              ) -> tuple[Fraction, Fraction, Sparse, int] | None:
        """Against `w = a e_1 + w_perp` with `||w_perp||^2 = perp2`: `(pull, ||f||^2, f, y)`
        (the example is `x = y (gamma e_1 - pull w_perp + f)`, `f` on the coordinates from
        `dimension` on), or None when no allowed example errs."""
        step = self._step(a, perp2)
        if step is None:
            return None
        pull, fresh2, squares, y = step
        start = max(dimension, 1)
        # `rational_squares(fresh2)`, from the squares already found
        fresh = {start + k: Fraction(v, fresh2.denominator) for k, v in enumerate(squares)}
        return pull, fresh2, fresh, y

    def _step(self, a: Fraction, perp2: Fraction
              ) -> tuple[Fraction, Fraction, tuple[int, ...], int] | None:
        """`_move` with `f` as integers: `(pull, ||f||^2, squares, y)`, f's coordinates being
        `squares[k] / q` for q the denominator of `||f||^2` (`rational_squares`)."""
        step = self._integer_step(a.numerator, a.denominator, perp2.numerator,
                                  perp2.denominator)
        if step is None:
            return None
        pull_num, pull_den, fresh_num, fresh_den, squares, y = step
        return Fraction(pull_num, pull_den), Fraction(fresh_num, fresh_den), squares, y

    def _integer_step(self, a_num: int, a_den: int, perp_num: int, perp_den: int
                      ) -> tuple[int, int, int, int, tuple[int, ...], int] | None:
        """`_step` on `a = a_num / a_den` and `perp2 = perp_num / perp_den` (positive
        denominators, not necessarily reduced), in integers: `pull = a gamma / perp2` and
        `||f||^2 = R2 - gamma^2 - pull^2 perp2 = R2 - gamma^2 - pull a gamma` (as
        `pull perp2 = a gamma`), each as its reduced numerator and denominator (the ones its
        Fraction has), the squares of `f` and the label. A round of `play` made a dozen
        Fractions here and in its own update, a gcd and a few calls each: most of a game's
        time once the examples were integers."""
        gn, gd, Rn, Rd = self._integers
        if perp_num == 0:
            if a_num > 0:
                return None
            pull_num, pull_den = 0, 1
            fresh_num, fresh_den = Rn * gd * gd - Rd * gn * gn, Rd * gd * gd
        else:
            pull_num, pull_den = a_num * gn * perp_den, a_den * gd * perp_num
            g = gcd(pull_num, pull_den)
            pull_num, pull_den = pull_num // g, pull_den // g
            under = pull_den * a_den
            fresh_num = (Rn * gd * gd - Rd * gn * gn) * under - Rd * pull_num * a_num * gn * gd
            fresh_den = Rd * gd * gd * under
        g = gcd(fresh_num, fresh_den)
        fresh_num, fresh_den = fresh_num // g, fresh_den // g
        if fresh_num < 0:
            return None
        squares = sum_of_squares(fresh_num * fresh_den)
        y = 1 if self._labels is None else self._labels.choice((-1, 1))
        return pull_num, pull_den, fresh_num, fresh_den, squares, y

    def play(self, max_rounds: int | None = None) -> AdversarialSequence:
        """Play against the perceptron (w_0 = 0, eta = 1, rule `<=`) until no mistake is
        possible (or `max_rounds`), and return the exact sequence.

        `respond` to the perceptron's iterates, without forming them: its step is
        `y x = gamma e_1 - pull w_perp + f`, so `a` grows by `gamma`, `w_perp` is scaled by
        `1 - pull` and gains `f`, and `||w_perp||^2` becomes `(1 - pull)^2 ||w_perp||^2 +
        ||f||^2` (`f` is orthogonal to it). Kept as `w_perp = s P` with a rational `s`, the
        round costs one product per coordinate of `x` (`-y pull s` times `P`), and no sum of
        squares is taken again (a test compares this with `respond` to the iterates).

        The coordinates are integers: `P` as numerators `Pn` over one denominator `Pd`, each
        example as numerators over its own denominator, all brought to their least common
        denominator at the end (`perceptron.algorithms.fast.least_dataset`, which makes one
        Fraction per distinct value and keeps this integer form for the engine), and so are
        the round's few scalars (`_integer_step`; `a` as rounds of gamma, `s` and
        `||w_perp||^2` as reduced numerators and denominators). The same exact sequence as
        a Fraction per product and scalar (a test replays that), which was most of a game's
        time: `x` has a coordinate per earlier round, so a game of b rounds made about
        b^2 / 2 products and their gcds, and each round a dozen scalar Fractions."""
        from perceptron.algorithms.fast import least_dataset

        rounds = 0  # a = rounds * gamma
        perp_num, perp_den = 0, 1  # ||w_perp||^2, reduced
        s_num, s_den = 1, 1  # s, reduced
        keys: list[int] = []  # w_perp = s * P, P[keys[k]] = Pn[k] / Pd
        Pn: list[int] = []
        Pd = 1
        dimension = 1
        g_num, g_den = self.gamma.numerator, self.gamma.denominator
        # each example over its own denominator: (den, coordinate 0, the factor of P's
        # numerators, keys and Pn as they were (both only appended to, or replaced), how
        # many of them, the first fresh coordinate, the fresh numerators)
        examples: list[tuple[int, int, int, list[int], list[int], int, int, list[int]]] = []
        labels: list[int] = []
        while max_rounds is None or len(examples) < max_rounds:
            step = self._integer_step(rounds * g_num, g_den, perp_num, perp_den)
            if step is None:
                break
            pull_num, pull_den, fresh_num, q, squares, y = step  # f's coordinates: squares / q
            start = max(dimension, 1)
            if pull_num and keys:
                # the P coordinates of x: c * P, c = -y pull s (reduced)
                c_num, c_den = -y * pull_num * s_num, pull_den * s_den
                g = gcd(c_num, c_den)
                c_num, c_den = c_num // g, c_den // g
                den = lcm(g_den, c_den * Pd, q)
                factor, taken = c_num * (den // (c_den * Pd)), len(Pn)
            else:
                den = lcm(g_den, q)
                factor, taken = 0, 0
            examples.append((den, y * g_num * (den // g_den), factor, keys, Pn, taken, start,
                             [y * v * (den // q) for v in squares]))
            labels.append(y)
            if squares:
                dimension = start + len(squares)
            if pull_num:
                # keep = 1 - pull = (pull_den - pull_num) / pull_den, reduced as pull is;
                # s and ||w_perp||^2 scaled by keep and keep^2
                keep = pull_den - pull_num
                s_num, s_den = keep * s_num, pull_den * s_den
                g = gcd(s_num, s_den)
                s_num, s_den = s_num // g, s_den // g
                perp_num, perp_den = keep * keep * perp_num, pull_den * pull_den * perp_den
                g = gcd(perp_num, perp_den)
                perp_num, perp_den = perp_num // g, perp_den // g
                if not s_num:
                    s_num, s_den, keys, Pn, Pd = 1, 1, [], [], 1
            if squares:
                # f / s: numerators over one denominator (reduced together: the lcm of their
                # own), then P brought to the lcm of its denominator and theirs
                sign = 1 if s_num > 0 else -1
                nums = [sign * v * s_den for v in squares]
                over = q * abs(s_num)
                common = gcd(over, *nums)
                nums, over = [v // common for v in nums], over // common
                both = lcm(Pd, over)
                if both != Pd:
                    up = both // Pd
                    Pn = [v * up for v in Pn]  # a new list: examples keep the old one
                    Pd = both
                keys.extend(range(start, start + len(squares)))
                Pn.extend(v * (Pd // over) for v in nums)
            perp_num, perp_den = perp_num * q + fresh_num * perp_den, perp_den * q
            g = gcd(perp_num, perp_den)
            perp_num, perp_den = perp_num // g, perp_den // g
            rounds += 1
        if not examples:
            raise ValueError("no example can be a mistake here (R2 < gamma^2)")
        total = lcm(*(example[0] for example in examples))
        rows = []
        for den, head, factor, P_keys, P_nums, taken, start, fresh in examples:
            up = total // den
            row = [0] * dimension
            row[0] = head * up
            if taken:
                m = factor * up
                # P's coordinates are consecutive: each round's fresh ones start where
                # the last round's ended (`start`), and a reset of P starts it afresh
                first = P_keys[0]
                assert P_keys[taken - 1] - first == taken - 1
                row[first:first + taken] = [m * v for v in P_nums[:taken]]
            if fresh:
                row[start:start + len(fresh)] = [v * up for v in fresh]
            rows.append(row)
        data = least_dataset(rows, total, labels,
                              f"adversary(R2={self.R2},gamma={self.gamma},seed={self.seed})")
        u = (Fraction(1), *(_ZERO,) * (dimension - 1))
        return AdversarialSequence(data, u, self.gamma, self.R2)
