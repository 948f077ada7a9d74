"""The polynomial ring of one judgement, in which the search builds and compares candidates.

Everything is expanded once into `sympy.polys.rings` elements over QQ (dicts from exponent
tuples to exact rationals), so building hundreds of LP columns costs microseconds each and the
exact re-solve after the LP works on the same dictionaries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, permutations
from math import prod
from typing import Generic, TypeVar

import sympy
from sympy import QQ
from sympy.polys.rings import PolyElement, PolyRing, ring

from proofs.language.terms import Vec, gram
from verify.kernel import GramMinor, Judgement, NormSquare, Product, Sos, Square, gram_pair
from verify.search.work import DEFAULT_BUDGET, Work

Hint = sympy.Expr | Vec
T = TypeVar("T")


class PerElement(Generic[T]):
    """`compute(poly)` once per ring element: the steps of a proof share the elements of
    their hypotheses (`expanded`), and nothing in the search changes one in place. Each is
    held with its value, so that no other element takes its `id` (at most `size` of them)."""

    def __init__(self, compute: Callable[[PolyElement], T], size: int = 1 << 13) -> None:
        self.compute, self.size = compute, size
        self.known: dict[int, tuple[PolyElement, T]] = {}

    def __call__(self, poly: PolyElement) -> T:
        known = self.known.get(id(poly))
        if known is None or known[0] is not poly:
            if len(self.known) >= self.size:
                self.known.clear()
            known = self.known[id(poly)] = poly, self.compute(poly)
        return known[1]


degree = PerElement(lambda poly: max((sum(m) for m in poly), default=0))
"""Total degree; 0 for the zero polynomial."""


def fraction(value: object) -> Fraction:
    """A ring coefficient (or float-free number) as a `Fraction`."""
    return Fraction(int(value.numerator), int(value.denominator))  # type: ignore[attr-defined]


def rational(value: Fraction) -> sympy.Rational:
    """A `Fraction` as a SymPy rational."""
    return sympy.Rational(value.numerator, value.denominator)


@lru_cache(maxsize=256)
def ring_of(symbols: tuple[sympy.Symbol, ...]) -> tuple[PolyRing, tuple[PolyElement, ...]]:
    """QQ[symbols] and its generators, made once per tuple of symbols (each step of a proof
    over the same names searches in the same ring)."""
    R, *gens = ring(symbols, QQ)
    return R, tuple(gens)


@lru_cache(maxsize=1 << 14)
def expanded(R: PolyRing, expr: sympy.Expr) -> PolyElement:
    """`expr` expanded in `R`, once per process: every step of a long proof restates the
    hypotheses of the steps it uses (nothing in the search changes a ring element in place)."""
    return R.from_expr(sympy.sympify(expr))


@lru_cache(maxsize=1 << 14)
def symbols_of(expr: sympy.Expr) -> frozenset[sympy.Symbol]:
    """The symbols of `expr`, once per process (SymPy recomputes them at every call)."""
    return frozenset(expr.free_symbols)


class Context:
    """The ring of a judgement (scalars, every Gram symbol of its vectors, hint symbols)."""

    def __init__(
        self, judgement: Judgement, hints: Sequence[Hint] = (), work: Work | None = None
    ) -> None:
        self.judgement = judgement
        self.work = work if work is not None else Work(DEFAULT_BUDGET)
        self.scalar_hints = tuple(h for h in hints if not isinstance(h, Vec))
        self.vector_hints = tuple(h for h in hints if isinstance(h, Vec))
        # only the names the judgement and its hints mention: the file's other declarations
        # must not change the ring, the half basis or the work charged (issue 28, item 4)
        vectors: set[str] = set()
        scalars: set[str] = set()
        found: set[sympy.Symbol] = set().union(
            *map(symbols_of, (h.expr for h in (*judgement.hypotheses, judgement.claim))))
        for hint in self.scalar_hints:
            found |= hint.free_symbols
        for vec in self.vector_hints:
            vectors |= set(vec)
            for coeff in vec.values():
                found |= coeff.free_symbols
        for symbol in found:
            pair = gram_pair(symbol)
            vectors |= set(pair) if pair else set()
            scalars |= set() if pair else {symbol.name}
        self.vectors = tuple(sorted(vectors))
        self.scalars = tuple(sorted(scalars))
        grams = {gram(a, b) for a, b in combinations_with_replacement(self.vectors, 2)}
        # a Gram-named symbol spelt unsorted (`<b,a>`) is its own generator, as in the kernel
        grams |= {symbol for symbol in found if gram_pair(symbol) is not None}
        symbols = [sympy.Symbol(name) for name in self.scalars] + sorted(grams, key=str)
        self.ring, gens = ring_of(tuple(symbols))
        self.gens = list(gens)
        self.symbols: tuple[sympy.Symbol, ...] = tuple(symbols)
        # generators by symbol and by (sorted) vector pair: dict lookups, not `tuple.index`
        # (which compared SymPy symbols one by one: millions of `__eq__` calls per proof)
        self.index: dict[sympy.Symbol, int] = {s: i for i, s in enumerate(symbols)}
        self._grams: dict[tuple[str, str], PolyElement] = {
            (a, b): self.gens[self.index[gram(a, b)]]
            for a, b in combinations_with_replacement(self.vectors, 2)
        }
        self._dots: dict[tuple[Vec, Vec], PolyElement] = {}
        self._hyp_products: dict[tuple[int, ...], PolyElement] = {(): self.ring.one}
        self.cache: dict[object, object] = {}  # columns reused across strategies and rounds
        self.used = tuple(  # generators occurring in the judgement or its hints
            i for i, s in enumerate(symbols) if s in found
        )
        self._polys: dict[sympy.Expr, PolyElement] = {}
        self.hyps = tuple(self.poly(h.expr) for h in judgement.hypotheses)
        self.gap = self.poly(judgement.claim.expr)

    def poly(self, expr: sympy.Expr) -> PolyElement:
        """`expr` expanded in the ring (memoised: vector coefficients repeat a lot)."""
        if expr not in self._polys:
            self._polys[expr] = expanded(self.ring, expr)
        return self._polys[expr]

    def expr(self, poly: PolyElement) -> sympy.Expr:
        """A ring element back as a SymPy expression (for certificates)."""
        return poly.as_expr(*self.symbols)

    def indices(self, kind: str) -> tuple[int, ...]:
        """Indices of the hypotheses of one kind (`>=`, `>` or `==`)."""
        return tuple(i for i, h in enumerate(self.judgement.hypotheses) if h.kind == kind)

    def gram_gen(self, a: str, b: str) -> PolyElement:
        """The generator of the Gram symbol `<a,b>` (symmetric)."""
        return self._grams[(a, b) if a <= b else (b, a)]

    def vec_dot(self, a: Vec, b: Vec) -> PolyElement:
        """`dot(a, b)` in the ring, expanded bilinearly like `proofs.language.terms.dot`
        (memoised)."""
        key = (a, b)
        if key not in self._dots:
            total = self.ring.zero
            for name_a, coeff_a in a.items():
                for name_b, coeff_b in b.items():
                    total += self.poly(coeff_a) * self.poly(coeff_b) * self.gram_gen(
                        name_a, name_b
                    )
            self._dots[key] = total
        return self._dots[key]

    def dot_size(self, a: Vec, b: Vec) -> int:
        """The terms of `vec_dot(a, b)` before like terms merge (one product of coefficient
        terms per pair of names): an upper bound on its size and on the multiplications
        expanding it, known without expanding it."""
        return sum(len(self.poly(x)) * len(self.poly(y)) for x in a.values() for y in b.values())

    def gram_size(self, vectors: Sequence[Vec]) -> int:
        """The terms of `gram_det(vectors)` before like terms merge: one product of entries
        per permutation, each entry counted by `dot_size` (as the parser's `expansion_size`
        counts a file's expressions). The Laplace expansion multiplies at most about twice
        this many pairs of terms, so a column charged this count before it is built costs no
        more than its charge, even when it cancels to 0 (red team 16 F1: the determinant of
        three dependent hints, identically 0, had cost minutes and was charged nothing)."""
        n = len(vectors)
        sizes = [[self.dot_size(a, b) for b in vectors] for a in vectors]
        return sum(prod(sizes[i][p[i]] for i in range(n)) for p in permutations(range(n)))

    def product_size(self, hyps: Iterable[int]) -> int:
        """The terms of `hyp_product(hyps)` before like terms merge (the product of its
        factors' counts): what expanding it may cost, known before expanding it."""
        return prod(len(self.hyps[i]) for i in hyps)

    def gram_det(self, vectors: Sequence[Vec]) -> PolyElement:
        """Determinant of the Gram matrix of `vectors` (Laplace expansion; n <= 3 here)."""
        matrix = [[self.vec_dot(a, b) for b in vectors] for a in vectors]
        return _det(matrix, self.ring.one)

    def sos(self, item: Sos) -> PolyElement:
        """The expansion of one sum-of-squares item, as the kernel will compute it."""
        if isinstance(item, Square):
            base = self.poly(item.poly) ** 2
        elif isinstance(item, NormSquare):
            base = self.vec_dot(item.vector, item.vector)
        elif isinstance(item, GramMinor):
            base = self.gram_det(item.vectors)
        else:  # pragma: no cover - Sos is a closed union
            raise TypeError(f"unknown square {item!r}")
        return base * QQ(item.weight.numerator, item.weight.denominator)

    def product(self, product: Product) -> PolyElement:
        """The expansion of one certificate product, coefficient included."""
        value = self.hyp_product(product.hyps)
        if product.sigma:
            value *= sum((self.sos(s) for s in product.sigma), self.ring.zero)
        return value * QQ(product.coeff.numerator, product.coeff.denominator)

    def hyp_product(self, hyps: Iterable[int]) -> PolyElement:
        """`prod(hypotheses[i])` in the ring (memoised by prefix: products share factors)."""
        combo = tuple(hyps)
        if combo not in self._hyp_products:  # one factor: the hypothesis itself (1 * h is h)
            self._hyp_products[combo] = self.hyps[combo[0]] if len(combo) == 1 else (
                self.hyp_product(combo[:-1]) * self.hyps[combo[-1]])
        return self._hyp_products[combo]

    def monomials(self, max_degree: int) -> Iterator[PolyElement]:
        """Monomials in the generators used by the judgement, of degree <= `max_degree`, made
        one at a time: their count is a binomial coefficient in the generators, so the
        caller charges each to the work budget before the next is made (red team 23 F7: the
        whole list, made before the first was charged, took 20 GB for a one-step file)."""
        width = len(self.gens)
        for d in range(max_degree + 1):
            for combo in combinations_with_replacement(self.used, d):
                exponents = [0] * width
                for i in combo:
                    exponents[i] += 1
                yield self.ring.term_new(tuple(exponents), QQ(1))


def _det(matrix: list[list[PolyElement]], one: PolyElement) -> PolyElement:
    if not matrix:
        return one
    total = one * 0
    for j, entry in enumerate(matrix[0]):
        minor = [row[:j] + row[j + 1 :] for row in matrix[1:]]
        sign = 1 if j % 2 == 0 else -1
        total += sign * entry * _det(minor, one)
    return total
