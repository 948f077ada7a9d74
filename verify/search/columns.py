"""The two kinds of LP column: nonnegative terms and free equality multiples.

A certificate is a combination of columns matching `m * gap` coefficient by coefficient:
`Term`s enter with a weight >= 0 (they are nonnegative under the hypotheses), `Multiple`s of an
equality hypothesis with any sign (they vanish under the hypotheses).
"""

from __future__ import annotations

from dataclasses import dataclass

from sympy.polys.rings import PolyElement

from verify.kernel import Sos


@dataclass(frozen=True)
class Term:
    """`prod(hypotheses[i] for i in hyps) * sum(sigma)`, nonnegative; `poly` is its expansion.

    `strict` marks a product of strict hypotheses without squares: the only kind of term that
    the kernel accepts as the strictly positive part of a certificate for a strict claim.
    """

    hyps: tuple[int, ...]
    sigma: tuple[Sos, ...]
    poly: PolyElement
    strict: bool = False


@dataclass(frozen=True)
class Multiple:
    """`monomial * e_j` for the equality hypothesis `j`; enters with a free coefficient."""

    equality: int
    monomial: PolyElement
    poly: PolyElement


Column = Term | Multiple
