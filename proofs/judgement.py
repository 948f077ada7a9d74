"""Judgements: hypotheses and a claim, each a polynomial compared with zero.

`Fact(expr, ">=")` means `expr >= 0`. Every relation of a proof is normalised to this form
(`a <= b` becomes `b - a >= 0`), so the kernel only ever meets three kinds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import sympy

from proofs.terms import gram_pair

Kind = Literal[">=", ">", "=="]
KINDS: tuple[Kind, ...] = (">=", ">", "==")


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
