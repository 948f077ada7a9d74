"""Certificates and counterexamples: the data the untrusted search hands to the kernel.

A certificate for `hypotheses |- gap (kind) 0` asserts the polynomial identity

    m * gap == sum_k a_k * prod(h_i for i in hyps_k) * sigma_k + sum_j q_j * e_j

(DESIGN.md §2). These classes only hold data; `verify.kernel` alone decides if it is valid.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from proofs.terms import Vec


@dataclass(frozen=True)
class Square:
    """`weight * poly**2` for a scalar polynomial `poly`."""

    weight: Fraction
    poly: sympy.Expr


@dataclass(frozen=True)
class NormSquare:
    """`weight * dot(vector, vector)` for an explicit vector expression."""

    weight: Fraction
    vector: Vec


@dataclass(frozen=True)
class GramMinor:
    """`weight * det(Gram(vectors))`: Cauchy–Schwarz and its higher-order relatives."""

    weight: Fraction
    vectors: tuple[Vec, ...]


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
