"""Relations to facts: every `lhs op rhs` becomes `gap (kind) 0` with a polynomial gap.

The kernel only knows `>=`, `>` and `==` against zero, so `a <= b` is stored as `b - a >= 0`.
Only polynomial gaps are admitted here; a quotient by a non-constant denominator must first be
justified (its denominator proved positive) by the division rule, which lives elsewhere.
"""

from __future__ import annotations

import sympy

from proofs.expressions import ExpressionError, Relation
from proofs.judgement import Fact, Kind

_ORIENTATION: dict[str, tuple[Kind, bool]] = {
    # op: (kind, whether the gap is rhs - lhs)
    "<=": (">=", True),
    "<": (">", True),
    ">=": (">=", False),
    ">": (">", False),
    "==": ("==", False),
}


def fact_of(relation: Relation) -> Fact:
    """The fact `gap (kind) 0` equivalent to `relation`; refuses non-polynomial gaps."""
    if relation.op not in _ORIENTATION:
        raise ExpressionError(f"{relation.text!r}: unknown relation {relation.op!r}")
    kind, flipped = _ORIENTATION[relation.op]
    gap = relation.rhs - relation.lhs if flipped else relation.lhs - relation.rhs
    _, denominator = sympy.fraction(sympy.together(gap))
    if denominator.free_symbols:
        raise ExpressionError(
            f"{relation.text!r} divides by {denominator}, which is not a constant; "
            "prove the denominator positive and use the division rule"
        )
    return Fact(sympy.expand(gap), kind)
