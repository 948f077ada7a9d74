"""The data the kernel reads. Nothing here decides anything, and the kernel re-validates every
field it reads (exact types, no subclasses): a value built elsewhere may be wrong, never lie.

A certificate for `hypotheses |- gap (kind) 0` asserts the identity of polynomials
`m * gap == sum_k a_k * prod(h_i for i in hyps_k) * sigma_k + sum_j q_j * e_j` (DESIGN.md §2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import sympy

__all__ = ["KINDS", "Certificate", "Counterexample", "Fact", "GramMinor", "Judgement",
           "KernelError", "Kind", "NormSquare", "Product", "Rel", "Sos", "Square", "gram",
           "gram_pair"]
Kind = Literal[">=", ">", "=="]
KINDS: tuple[Kind, ...] = (">=", ">", "==")
_GRAM = re.compile(r"^<([A-Za-z_][A-Za-z0-9_]*),([A-Za-z_][A-Za-z0-9_]*)>$")


class KernelError(ValueError):
    """Evidence or a statement the kernel does not accept; the message says exactly why."""


def gram(a: str, b: str) -> sympy.Symbol:
    """The Gram symbol `<a,b>` of two vector names; symmetric by sorting the pair."""
    return sympy.Symbol("<{},{}>".format(*sorted((a, b))))


def gram_pair(symbol: sympy.Symbol) -> tuple[str, str] | None:
    """The vector names of a Gram symbol, or None for a scalar symbol."""
    match = _GRAM.match(symbol.name)
    return (match.group(1), match.group(2)) if match else None


def names_of(expr: sympy.Expr) -> set[str]:
    """Every scalar and vector name `expr` mentions (vectors through Gram symbols)."""
    return {n for s in expr.free_symbols for n in (gram_pair(s) or (s.name,))}


@dataclass(frozen=True)
class Fact:
    """`expr (kind) 0` with `expr` a polynomial over QQ in scalars and Gram symbols."""
    expr: sympy.Expr
    kind: Kind

    def __str__(self) -> str:
        return f"{self.expr} {self.kind} 0"


@dataclass(frozen=True)
class Judgement:
    """`hypotheses |- claim`, with the declared vector and scalar names."""
    hypotheses: tuple[Fact, ...]
    claim: Fact
    vectors: tuple[str, ...] = ()
    scalars: tuple[str, ...] = ()

    def symbols(self) -> tuple[sympy.Symbol, ...]:
        """Every symbol occurring, in a deterministic order (scalars, then Gram symbols)."""
        found = set().union(*(f.expr.free_symbols for f in (*self.hypotheses, self.claim)))
        return tuple(sorted(found, key=lambda s: (gram_pair(s) is not None, s.name)))


@dataclass(frozen=True)
class Rel:
    """`lhs op rhs` as the user wrote it, divisions kept; `divisors`: every non-constant
    quantity the source text divides by (SymPy cancels `x/x` on construction, but the
    statement is still undefined at `x = 0`)."""
    lhs: sympy.Expr
    op: str
    rhs: sympy.Expr
    text: str
    divisors: tuple[sympy.Expr, ...] = ()

    def __str__(self) -> str:
        return self.text


VectorTerms = Mapping[str, sympy.Expr]  # an explicit vector `sum coeff * name`


@dataclass(frozen=True)
class Square:
    """`weight * poly**2` for a scalar polynomial `poly`."""
    weight: Fraction
    poly: sympy.Expr


@dataclass(frozen=True)
class NormSquare:
    """`weight * dot(vector, vector)` for an explicit vector expression."""
    weight: Fraction
    vector: VectorTerms


@dataclass(frozen=True)
class GramMinor:
    """`weight * det(Gram(vectors))`: Cauchy–Schwarz and its higher-order relatives."""
    weight: Fraction
    vectors: tuple[VectorTerms, ...]


Sos = Square | NormSquare | GramMinor


@dataclass(frozen=True)
class Product:
    """`coeff * prod(hypotheses[i] for i in hyps) * sum(sigma)`; an empty sigma means 1."""
    coeff: Fraction
    hyps: tuple[int, ...] = ()
    sigma: tuple[Sos, ...] = ()


@dataclass(frozen=True)
class Certificate:
    """A Positivstellensatz certificate; `multiplier` indexes strictly positive hypotheses."""
    products: tuple[Product, ...]
    linear: tuple[tuple[int, sympy.Expr], ...] = ()
    multiplier: tuple[int, ...] = ()


@dataclass(frozen=True)
class Counterexample:
    """Rational scalars and rational coordinate vectors (one common dimension)."""
    scalars: dict[str, Fraction]
    vectors: dict[str, tuple[Fraction, ...]]
