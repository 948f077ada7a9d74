"""Scalars, abstract vectors and their inner products.

Vectors are dimension-free: a vector expression is a linear combination of vector names with
polynomial scalar coefficients, and `dot` expands bilinearly and symmetrically into *Gram
symbols* `<a,b>` (names sorted). After expansion every quantity is a polynomial over QQ in
scalar symbols and Gram symbols, which is all the kernel ever sees. The kernel keeps its own
`gram`/`gram_pair` (verify/kernel imports nothing of the project, and `proofs` never imports
`verify`): the two spellings of a Gram symbol must agree. The kernel's tests build their
judgements with the ones here and the kernel reads them with its own, so a disagreement fails
them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction

import sympy

Scalar = sympy.Expr
_GRAM = re.compile(r"^<([A-Za-z_][A-Za-z0-9_]*),([A-Za-z_][A-Za-z0-9_]*)>$")


def scalar(name: str) -> sympy.Symbol:
    """The scalar symbol `name` (plain symbols everywhere, so equal names mean equal symbols)."""
    return sympy.Symbol(name)


def gram(a: str, b: str) -> sympy.Symbol:
    """The Gram symbol `<a,b>` of two vector names; symmetric by sorting the pair."""
    first, second = sorted((a, b))
    return sympy.Symbol(f"<{first},{second}>")


def gram_pair(symbol: sympy.Symbol) -> tuple[str, str] | None:
    """The vector names of a Gram symbol, or None for a scalar symbol."""
    match = _GRAM.match(symbol.name)
    return (match.group(1), match.group(2)) if match else None


def as_scalar(value: object) -> sympy.Expr:
    """An exact SymPy scalar from int, Fraction or SymPy expression; floats are refused."""
    if isinstance(value, bool):
        raise TypeError("a boolean is not a scalar")
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, sympy.Expr):
        if value.has(sympy.Float):
            raise TypeError(f"float inside scalar {value}")
        return value
    raise TypeError(f"{type(value).__name__} {value!r} is not an exact scalar")


class Vec(Mapping[str, sympy.Expr]):
    """An immutable linear combination `sum coeff * name` of abstract vectors."""

    __slots__ = ("_terms",)

    def __init__(self, terms: Mapping[str, object] | None = None) -> None:
        cleaned: dict[str, sympy.Expr] = {}
        for name, coeff in (terms or {}).items():
            value = sympy.expand(as_scalar(coeff))
            if value != 0:
                cleaned[name] = value
        self._terms = dict(sorted(cleaned.items()))

    @classmethod
    def named(cls, name: str) -> Vec:
        """The vector `name` itself."""
        return cls({name: 1})

    def __getitem__(self, name: str) -> sympy.Expr:
        return self._terms[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._terms)

    def __len__(self) -> int:
        return len(self._terms)

    def __hash__(self) -> int:
        return hash(tuple(self._terms.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vec) and self._terms == other._terms

    def __add__(self, other: Vec) -> Vec:
        out = dict(self._terms)
        for name, coeff in other.items():
            out[name] = out.get(name, sympy.Integer(0)) + coeff
        return Vec(out)

    def __neg__(self) -> Vec:
        return Vec({name: -coeff for name, coeff in self.items()})

    def __sub__(self, other: Vec) -> Vec:
        return self + (-other)

    def scaled(self, factor: object) -> Vec:
        """`factor * self` for an exact scalar factor."""
        c = as_scalar(factor)
        return Vec({name: c * coeff for name, coeff in self.items()})

    def substitute(self, mapping: Mapping[str, Vec]) -> Vec:
        """Replace vector names by vector expressions (used by induction and definitions)."""
        out = Vec()
        for name, coeff in self.items():
            out = out + mapping.get(name, Vec.named(name)).scaled(coeff)
        return out

    def __repr__(self) -> str:
        if not self._terms:
            return "0"
        return " + ".join(f"({c})*{n}" for n, c in self._terms.items())


def dot(a: Vec, b: Vec) -> sympy.Expr:
    """The inner product, expanded bilinearly into Gram symbols."""
    return sympy.expand(
        sum(
            (ca * cb * gram(na, nb) for na, ca in a.items() for nb, cb in b.items()),
            sympy.Integer(0),
        )
    )


def norm2(a: Vec) -> sympy.Expr:
    """`dot(a, a)`."""
    return dot(a, a)


def gram_determinant(vectors: Iterable[Vec]) -> sympy.Expr:
    """det of the Gram matrix of `vectors`: nonnegative for real vectors (an axiom schema)."""
    vs = list(vectors)
    matrix = sympy.Matrix(len(vs), len(vs), lambda i, j: dot(vs[i], vs[j]))
    return sympy.expand(matrix.det(method="berkowitz"))
