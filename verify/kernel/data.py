"""The data the kernel reads: facts, judgements, certificates, counterexamples, Gram symbols.

These classes only hold data; nothing here decides anything. The kernel re-validates every
field it reads (exact types, no subclasses), so a value built by untrusted code can be wrong
but never lie about what it is.

A certificate for `hypotheses |- gap (kind) 0` asserts the polynomial identity

    m * gap == sum_k a_k * prod(h_i for i in hyps_k) * sigma_k + sum_j q_j * e_j

(DESIGN.md §2); `verify.kernel.certificates` alone decides whether it holds.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import sympy

Kind = Literal[">=", ">", "=="]
KINDS: tuple[Kind, ...] = (">=", ">", "==")
_GRAM = re.compile(r"^<([A-Za-z_][A-Za-z0-9_]*),([A-Za-z_][A-Za-z0-9_]*)>$")


class KernelError(ValueError):
    """Evidence or a statement the kernel does not accept; the message says exactly why."""


def gram(a: str, b: str) -> sympy.Symbol:
    """The Gram symbol `<a,b>` of two vector names; symmetric by sorting the pair."""
    first, second = sorted((a, b))
    return sympy.Symbol(f"<{first},{second}>")


def gram_pair(symbol: sympy.Symbol) -> tuple[str, str] | None:
    """The vector names of a Gram symbol, or None for a scalar symbol."""
    match = _GRAM.match(symbol.name)
    return (match.group(1), match.group(2)) if match else None


def names_of(expr: sympy.Expr) -> set[str]:
    """Every scalar name and vector name `expr` mentions (vectors through Gram symbols)."""
    return {n for s in expr.free_symbols for n in (gram_pair(s) or (s.name,))}


@dataclass(frozen=True)
class Fact:
    """`expr (kind) 0` with `expr` a polynomial over QQ in scalars and Gram symbols."""

    expr: sympy.Expr
    kind: Kind

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown relation kind {self.kind!r}")

    def __str__(self) -> str:
        return f"{self.expr} {self.kind} 0"


@dataclass(frozen=True)
class Judgement:
    """`hypotheses |- claim`, with the vector names whose Gram symbols may occur."""

    hypotheses: tuple[Fact, ...]
    claim: Fact
    vectors: tuple[str, ...] = ()
    scalars: tuple[str, ...] = field(default=())

    def symbols(self) -> tuple[sympy.Symbol, ...]:
        """Every symbol occurring, in a deterministic order (scalars, then Gram symbols)."""
        found: set[sympy.Symbol] = set()
        for fact in (*self.hypotheses, self.claim):
            found |= fact.expr.free_symbols
        return tuple(sorted(found, key=lambda s: (gram_pair(s) is not None, s.name)))

    def __str__(self) -> str:
        given = ", ".join(str(h) for h in self.hypotheses)
        return f"{given} |- {self.claim}"


VectorTerms = Mapping[str, sympy.Expr]
"""An explicit vector: a linear combination `sum coeff * name` (any mapping name -> coeff)."""


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


@dataclass(frozen=True)
class Rel:
    """`lhs op rhs` as the user wrote it, divisions kept (`op` among `<= < >= > ==`).

    `divisors` are the non-constant quantities the source text divides by, read by the
    parser: SymPy cancels `x/x` on construction, and the kernel must still see that the
    statement is undefined at `x = 0`.
    """

    lhs: sympy.Expr
    op: str
    rhs: sympy.Expr
    text: str
    divisors: tuple[sympy.Expr, ...] = ()

    def __str__(self) -> str:
        return self.text
