"""Division as the user wrote it: what a relation divides by, read from SymPy and the text.

The kernel clears divisions and states their side conditions (`verify.kernel.algebra`); it
needs to know every quantity the author divided by. SymPy's form shows the `a**-n` factors,
but SymPy cancels some divisions on construction (`x/x` becomes `1`), which must not make
`x == 0 |- y*x/x == y` provable: so the parser records what the text divides by
(`Relation.divisors`), and refuses what the kernel could not state (a division inside a
divisor).
"""

from __future__ import annotations

import sympy

from proofs.language.expressions import ExpressionError, Relation


def denominators(expr: sympy.Basic) -> tuple[sympy.Expr, ...]:
    """The distinct non-constant denominators `base**n` of `expr` (highest power per base).

    Raises ExpressionError for a division inside a denominator: its positivity would need a
    division of its own, which the side conditions cannot express.
    """
    powers: dict[sympy.Expr, int] = {}
    for node in sympy.preorder_traversal(expr):
        if _is_reciprocal(node):
            _refuse_nested(node.base)
            powers[node.base] = max(powers.get(node.base, 0), -int(node.exp))
    return tuple(sorted((base**n for base, n in powers.items()), key=sympy.default_sort_key))


def _is_reciprocal(node: sympy.Basic) -> bool:
    return bool(node.is_Pow and node.exp.is_Integer and node.exp < 0 and node.base.free_symbols)


def _refuse_nested(denominator: sympy.Expr) -> None:
    if any(_is_reciprocal(inner) for inner in sympy.preorder_traversal(denominator)):
        raise ExpressionError(f"division inside the denominator {denominator}")


def required(relation: Relation) -> tuple[sympy.Expr, ...]:
    """The quantities that must be proved positive before `relation` may be cleared: the
    reciprocals of its SymPy form, and what its text divides by (`Relation.divisors`).

    Raises ExpressionError for a division inside a divisor."""
    found = denominators(sympy.Tuple(relation.lhs, relation.rhs))
    for divisor in relation.divisors:
        _refuse_nested(divisor)
    bases = {d.base if d.is_Pow else d for d in found}
    extra = tuple(d for d in relation.divisors if not _implied(d, bases))
    return (*found, *(d for d in extra if d not in found))


def _implied(divisor: sympy.Expr, bases: set[sympy.Expr]) -> bool:
    """Whether `divisor > 0` follows from every base in `bases` being positive."""
    for factor in sympy.Mul.make_args(divisor):
        if factor.is_Number:
            if factor <= 0:
                return False
        elif (factor.base if factor.is_Pow and factor.exp.is_Integer else factor) not in bases:
            return False
    return True
