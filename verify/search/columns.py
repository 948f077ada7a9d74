"""The two kinds of LP column: nonnegative terms and free equality multiples.

A certificate is a combination of columns matching `m * gap` coefficient by coefficient:
`Term`s enter with a weight >= 0 (they are nonnegative under the hypotheses), `Multiple`s of an
equality hypothesis with any sign (they vanish under the hypotheses).

Columns are built by the hundred and few end up in a certificate, so a term's square (a SymPy
object for the certificate) is built only when asked for: the LP needs only `poly`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from sympy.polys.rings import PolyElement

from verify.kernel import Sos
from verify.search.work import Work


@dataclass(frozen=True, eq=False)
class Term:
    """`prod(hypotheses[i] for i in hyps) * square`, nonnegative; `poly` is its expansion.

    `square` builds the sum-of-squares factor (None: a bare hypothesis product). `strict` marks
    a product of strict hypotheses without squares: the only kind of term that the kernel
    accepts as the strictly positive part of a certificate for a strict claim.
    """

    hyps: tuple[int, ...]
    poly: PolyElement
    strict: bool = False
    square: Callable[[], Sos] | None = None

    @cached_property
    def degree(self) -> int:
        """Total degree of `poly` (0 for the zero polynomial)."""
        return max((sum(monomial) for monomial in self.poly), default=0)

    @cached_property
    def sigma(self) -> tuple[Sos, ...]:
        """The certificate's `sigma` for this term (built on first use)."""
        return () if self.square is None else (self.square(),)


@dataclass(frozen=True)
class Multiple:
    """`monomial * e_j` for the equality hypothesis `j`; enters with a free coefficient."""

    equality: int
    monomial: PolyElement
    poly: PolyElement


Column = Term | Multiple


def charge(work: Work, poly: PolyElement) -> None:
    """Charge one built column and its terms to the work budget."""
    work.charge("candidates")
    work.charge("terms", len(poly))
