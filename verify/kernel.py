"""The trusted proof kernel: the only code that may call a step *proved* or *refuted*.

A certificate (`verify.certificate`) for `hypotheses |- claim (kind) 0` is accepted only when

    m * claim  ==  sum_k a_k * prod(h_i for i in hyps_k) * sigma_k  +  sum_j q_j * e_j

holds as an identity of polynomials over QQ in scalar and Gram symbols (DESIGN.md §2).

Why that proves the claim: take any real point where the hypotheses hold, with every Gram
symbol `<a,b>` realised as the inner product of real vectors. There each product term is >= 0
(`a_k >= 0`; each `h_i >= 0`; `sigma_k` is a sum of `w * p**2`, `w * |v|**2` and
`w * det Gram(v_1..v_n)` with `w >= 0`, all >= 0 in any real inner-product space), each `e_j`
is 0 and `m`, a product of strictly positive hypotheses, is > 0; so `claim >= 0`.

Decisions (each is what keeps the argument above valid):

- Symbols: the ring has every symbol of the judgement *and* of the certificate. A certificate
  may mention extra scalars or vectors; the identity must then hold identically in them too,
  so it still holds after realising them arbitrarily (e.g. extra vectors as 0).
- Symbols must be plain `sympy.Symbol(name)`: no assumptions, no Dummy, so one name is one
  variable and a counterexample, which assigns values by name, means the same thing.
  A symbol named `<a,b>` *is* the inner product of vectors `a` and `b`.
- Gram facts (`|v|**2 >= 0`, `det Gram(v_1..v_n) >= 0` for n <= 3) are an axiom schema: the
  kernel expands them itself from explicit vector expressions; the search never supplies
  them as polynomials. Vector names must be identifiers so Gram names cannot collide.
- `>` claims need one term that is *strictly* positive: coefficient > 0, only strict
  hypotheses, empty sigma (all other terms are >= 0, so the sum is > 0).
- `==` claims take no product terms (they would only give `>=`); the multiplier is allowed,
  since `m > 0` and `m * claim == 0` give `claim == 0`.
- Equality hypotheses appear only in `linear`, inequalities only in products, and only strict
  ones in the multiplier (a merely nonnegative `m` could be 0 and prove anything).

Exactness: numbers are `int` or `Fraction` (never bool or float), SymPy numbers must be
`Rational` (a `Float` anywhere is refused), and polynomial conversion is done here by a small
tree walk that refuses anything but `+`, `*`, literal powers 0..MAX_EXPONENT, rationals and
symbols. No `simplify`, no `evalf`, no solver: only `PolyRing` arithmetic over QQ.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache, reduce
from operator import add, mul
from typing import TypeVar

import sympy
from sympy.polys.domains import QQ
from sympy.polys.rings import PolyElement, PolyRing, ring

from proofs.judgement import KINDS, Fact, Judgement
from proofs.terms import Vec, gram, gram_pair
from verify.certificate import (
    Certificate,
    Counterexample,
    GramMinor,
    NormSquare,
    Product,
    Square,
)

MAX_EXPONENT = 64  # larger literal exponents are refused: a kernel check must stay fast
MAX_GRAM = 3  # GramMinor sizes 1..MAX_GRAM
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NONNEG: tuple[str, ...] = (">=", ">")
_STRICT: tuple[str, ...] = (">",)
_EQUAL: tuple[str, ...] = ("==",)

T = TypeVar("T")
Labelled = tuple[sympy.Expr, str]  # an expression and what it is, for error messages
Vectors = list[list[tuple[str, Labelled]]]  # vectors as (name, coefficient) lists


class KernelError(ValueError):
    """A certificate or counterexample that does not check; the message says exactly why."""


# -- exact inputs ------------------------------------------------------------------------------


def _rational(value: object, what: str, *, nonnegative: bool = False) -> Fraction:
    """An `int` or `Fraction`: bools and floats are refused, they are not exact rationals."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise KernelError(f"{what} must be an int or Fraction, not {type(value).__name__}")
    if nonnegative and value < 0:
        raise KernelError(f"{what} is negative ({value}); only nonnegative multiples keep >= 0")
    return Fraction(value)


def _items(value: object, what: str) -> Sequence[object]:
    """A tuple or list (certificate fields are sequences; anything else is malformed)."""
    if not isinstance(value, tuple | list):
        raise KernelError(f"{what} must be a tuple, not {type(value).__name__}")
    return value


def _index(value: object, facts: Sequence[Fact], kinds: tuple[str, ...], what: str) -> int:
    """A hypothesis index in range whose kind is one of `kinds` (the role decides the kind)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise KernelError(f"{what}: hypothesis index {value!r} is not an int")
    if not 0 <= value < len(facts):
        raise KernelError(f"{what}: hypothesis index {value} out of range ({len(facts)} given)")
    if facts[value].kind not in kinds:
        need = " or ".join(repr(k) for k in kinds)
        raise KernelError(f"{what}: hypothesis {value} `{facts[value]}` is not {need}")
    return value


def _expr(value: object, what: str) -> Labelled:
    """A SymPy expression (ints and Fractions are promoted); its symbols must be plain."""
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        value = sympy.Rational(value.numerator, value.denominator)
    if not isinstance(value, sympy.Expr):
        raise KernelError(f"{what} must be a SymPy expression, not {type(value).__name__}")
    for symbol in value.free_symbols:
        if type(symbol) is not sympy.Symbol or symbol != sympy.Symbol(symbol.name):
            raise KernelError(f"{what}: {symbol!r} is not a plain symbol (no assumptions)")
    return value, what


def _vector(value: object, what: str) -> list[tuple[str, Labelled]]:
    """An explicit vector expression: identifier names with exact polynomial coefficients."""
    if not isinstance(value, Vec):
        raise KernelError(f"{what} must be a Vec, not {type(value).__name__}")
    out = []
    for name, coeff in value.items():
        if not isinstance(name, str) or not _IDENTIFIER.fullmatch(name):
            raise KernelError(f"{what}: vector name {name!r} is not an identifier")
        out.append((name, _expr(coeff, f"{what} coefficient of {name}")))
    return out


def _facts(judgement: object) -> tuple[list[Fact], Fact]:
    """The hypotheses and claim of a well-formed judgement."""
    if not isinstance(judgement, Judgement):
        raise KernelError(f"expected a Judgement, not {type(judgement).__name__}")
    facts = list(_items(judgement.hypotheses, "judgement.hypotheses"))
    for fact in (*facts, judgement.claim):
        if not isinstance(fact, Fact) or fact.kind not in KINDS:
            raise KernelError(f"malformed fact {fact!r}: expected Fact(expr, kind in {KINDS})")
    return facts, judgement.claim


def _fold(
    labelled: Labelled, leaf: Callable[[sympy.Symbol], T], const: Callable[[Fraction], T]
) -> T:
    """Evaluate a polynomial expression tree in a ring given by its leaves, refusing the rest.

    With ring generators as leaves this converts to `PolyElement`; with Fractions it
    evaluates exactly. Anything not built from +, *, literal powers, rationals and symbols
    (division by a symbol, roots, functions, infinities, floats) is not a polynomial over QQ.
    """
    expr, what = labelled
    if expr.is_Float:
        raise KernelError(f"{what}: float {expr} (the kernel takes exact rationals only)")
    if expr.is_Rational:
        return const(Fraction(int(expr.p), int(expr.q)))
    if expr.is_Symbol:
        return leaf(expr)
    if expr.is_Add or expr.is_Mul:
        parts = [_fold((arg, what), leaf, const) for arg in expr.args]
        return reduce(add if expr.is_Add else mul, parts)
    if expr.is_Pow and expr.exp.is_Integer and 0 <= expr.exp <= MAX_EXPONENT:
        return _fold((expr.base, what), leaf, const) ** int(expr.exp)
    raise KernelError(f"{what} is not a polynomial over QQ: `{expr}`")


# -- certificates ------------------------------------------------------------------------------


class _Term:
    """A validated product term: coefficient, hypothesis indices, squares and Gram minors."""

    def __init__(self, k: int, product: object, facts: Sequence[Fact]) -> None:
        what = f"product {k}"
        if not isinstance(product, Product):
            raise KernelError(f"{what} must be a Product, not {type(product).__name__}")
        self.coeff = _rational(product.coeff, f"{what} coefficient", nonnegative=True)
        self.hyps = [_index(i, facts, _NONNEG, what) for i in _items(product.hyps, f"{what}.hyps")]
        self.strict = self.coeff > 0 and all(facts[i].kind == ">" for i in self.hyps)
        self.squares: list[tuple[Fraction, Labelled]] = []
        self.minors: list[tuple[Fraction, Vectors]] = []  # NormSquare(v) is GramMinor((v,))
        for n, entry in enumerate(_items(product.sigma, f"{what}.sigma")):
            where = f"{what} sigma {n}"
            if isinstance(entry, Square):
                weight = _rational(entry.weight, f"{where} weight", nonnegative=True)
                self.squares.append((weight, _expr(entry.poly, f"{where} polynomial")))
            elif isinstance(entry, NormSquare):
                weight = _rational(entry.weight, f"{where} weight", nonnegative=True)
                self.minors.append((weight, [_vector(entry.vector, f"{where} vector")]))
            elif isinstance(entry, GramMinor):
                weight = _rational(entry.weight, f"{where} weight", nonnegative=True)
                vectors = _items(entry.vectors, f"{where} vectors")
                if not 1 <= len(vectors) <= MAX_GRAM:
                    raise KernelError(f"{where}: GramMinor of {len(vectors)} vectors (1..3)")
                self.minors.append(
                    (weight, [_vector(v, f"{where} vector {i}") for i, v in enumerate(vectors)])
                )
            else:
                raise KernelError(f"{where}: {type(entry).__name__} is not a sigma entry")
        self.sigma_empty = not (self.squares or self.minors)

    def expressions(self) -> list[Labelled]:
        """Every scalar expression inside this term."""
        exprs = [e for _, e in self.squares]
        return exprs + [c for _, vs in self.minors for v in vs for _, c in v]

    def names(self) -> set[str]:
        """Every vector name inside this term."""
        return {name for _, vs in self.minors for v in vs for name, _ in v}


def _det(matrix: list[list[PolyElement]]) -> PolyElement:
    """Determinant by cofactor expansion along the first row (n <= 3, exact)."""
    if len(matrix) == 1:
        return matrix[0][0]
    return reduce(
        add,
        (
            (-1) ** j * matrix[0][j] * _det([row[:j] + row[j + 1 :] for row in matrix[1:]])
            for j in range(len(matrix))
        ),
    )


@lru_cache(maxsize=512)
def _ring(symbols: tuple[sympy.Symbol, ...]) -> tuple[PolyRing, dict[sympy.Symbol, PolyElement]]:
    """The polynomial ring QQ[symbols] and its generators (cached: rings are immutable)."""
    R, *gens = ring(symbols, QQ)
    return R, dict(zip(symbols, gens, strict=True))


def _sides(judgement: object, certificate: object) -> tuple[PolyElement, PolyElement]:
    """Validate everything, then return both sides of the identity as polynomials."""
    facts, claim = _facts(judgement)
    if not isinstance(certificate, Certificate):
        raise KernelError(f"expected a Certificate, not {type(certificate).__name__}")
    multiplier = [
        _index(i, facts, _STRICT, f"multiplier {n}")
        for n, i in enumerate(_items(certificate.multiplier, "certificate.multiplier"))
    ]
    terms = [_Term(k, p, facts) for k, p in enumerate(_items(certificate.products, "products"))]
    linear: list[tuple[int, Labelled]] = []
    for n, entry in enumerate(_items(certificate.linear, "certificate.linear")):
        if not isinstance(entry, tuple | list) or len(entry) != 2:
            raise KernelError(f"linear {n} must be a pair (equality index, polynomial)")
        index = _index(entry[0], facts, _EQUAL, f"linear {n}")
        linear.append((index, _expr(entry[1], f"linear {n} polynomial")))
    if claim.kind == "==" and terms:
        raise KernelError("an equality claim takes no product terms (they only prove >= 0)")
    if claim.kind == ">" and not any(t.strict and t.sigma_empty for t in terms):
        raise KernelError(
            "strict claim without a strictly positive term "
            "(coefficient > 0, only strict hypotheses, empty sigma)"
        )

    exprs = [_expr(f.expr, f"hypothesis {i}") for i, f in enumerate(facts)]
    exprs += [_expr(claim.expr, "claim"), *(q for _, q in linear)]
    names: set[str] = set()
    for term in terms:
        exprs += term.expressions()
        names |= term.names()
    symbols = set().union(*(e.free_symbols for e, _ in exprs))
    symbols |= {gram(a, b) for a in names for b in names}
    R, gens = _ring(tuple(sorted(symbols, key=lambda s: s.name)))

    def number(f: Fraction) -> PolyElement:
        return R(QQ(f.numerator, f.denominator))

    def poly(labelled: Labelled) -> PolyElement:
        return _fold(labelled, gens.__getitem__, number)

    def vector(v: list[tuple[str, Labelled]]) -> list[tuple[str, PolyElement]]:
        return [(name, poly(c)) for name, c in v]

    def dot(u: list[tuple[str, PolyElement]], v: list[tuple[str, PolyElement]]) -> PolyElement:
        return R.zero + sum(cu * cv * gens[gram(a, b)] for a, cu in u for b, cv in v)

    hyp = [poly(e) for e in exprs[: len(facts)]]
    lhs = reduce(mul, (hyp[i] for i in multiplier), R.one) * poly(exprs[len(facts)])
    rhs = R.zero
    for term in terms:
        sigma = R.one if term.sigma_empty else R.zero
        for weight, p in term.squares:
            sigma += number(weight) * poly(p) ** 2
        for weight, vs in term.minors:
            vecs = [vector(v) for v in vs]
            sigma += number(weight) * _det([[dot(u, v) for v in vecs] for u in vecs])
        rhs += number(term.coeff) * reduce(mul, (hyp[i] for i in term.hyps), R.one) * sigma
    for i, q in linear:
        rhs += poly(q) * hyp[i]
    return lhs, rhs


def check_certificate(judgement: Judgement, certificate: Certificate) -> None:
    """Return None if `certificate` proves `judgement`; else raise KernelError saying why."""
    lhs, rhs = _sides(judgement, certificate)
    if lhs != rhs:
        residual = str((lhs - rhs).as_expr())
        residual = residual if len(residual) <= 200 else residual[:200] + "..."
        raise KernelError(f"identity fails: m*claim - certificate = {residual}")


def is_valid(judgement: Judgement, certificate: Certificate) -> bool:
    """True exactly when `check_certificate` accepts."""
    try:
        check_certificate(judgement, certificate)
    except KernelError:
        return False
    return True


def certificate_residual(judgement: Judgement, certificate: Certificate) -> sympy.Expr:
    """`m*claim - certificate` as an expression (0 iff the identity holds); for debugging."""
    lhs, rhs = _sides(judgement, certificate)
    return (lhs - rhs).as_expr()


# -- counterexamples ---------------------------------------------------------------------------


def _holds(kind: str, value: Fraction) -> bool:
    """Whether `value (kind) 0`."""
    return value > 0 if kind == ">" else value >= 0 if kind == ">=" else value == 0


def check_counterexample(judgement: Judgement, cex: Counterexample) -> None:
    """Return None if `cex` satisfies every hypothesis and violates the claim, exactly.

    Gram symbols `<a,b>` are realised as dot products of the rational coordinate vectors,
    which must all share one dimension >= 1, so the point is a genuine real instance.
    """
    facts, claim = _facts(judgement)
    if not isinstance(cex, Counterexample):
        raise KernelError(f"expected a Counterexample, not {type(cex).__name__}")
    if not isinstance(cex.scalars, dict) or not isinstance(cex.vectors, dict):
        raise KernelError("counterexample scalars and vectors must be dicts")
    scalars = {name: _rational(v, f"scalar {name}") for name, v in cex.scalars.items()}
    vectors = {
        name: [_rational(x, f"vector {name}[{i}]") for i, x in enumerate(_items(v, name))]
        for name, v in cex.vectors.items()
    }
    dimensions = {len(v) for v in vectors.values()}
    if len(dimensions) > 1 or 0 in dimensions:
        raise KernelError(f"vectors must share one dimension >= 1, got {sorted(dimensions)}")

    def value(symbol: sympy.Symbol) -> Fraction:
        pair = gram_pair(symbol)
        if pair is None:
            if symbol.name not in scalars:
                raise KernelError(f"scalar {symbol.name} is not assigned")
            return scalars[symbol.name]
        for name in pair:
            if name not in vectors:
                raise KernelError(f"vector {name} (in {symbol.name}) is not assigned")
        a, b = vectors[pair[0]], vectors[pair[1]]
        return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))

    def evaluate(fact: Fact, what: str) -> Fraction:
        return _fold(_expr(fact.expr, what), value, lambda f: f)

    for i, fact in enumerate(facts):
        v = evaluate(fact, f"hypothesis {i}")
        if not _holds(fact.kind, v):
            raise KernelError(f"hypothesis {i} `{fact}` fails at the counterexample (value {v})")
    v = evaluate(claim, "claim")
    if _holds(claim.kind, v):
        raise KernelError(f"the claim `{claim}` holds at the counterexample (value {v})")
