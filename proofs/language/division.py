"""Division as the user wrote it: what a relation divides by, read from SymPy and the text.

The kernel clears divisions and states their side conditions (`verify.kernel.algebra`); it
needs to know every quantity the author divided by. SymPy's form shows the `a**-n` factors,
but SymPy cancels some divisions on construction (`x/x` becomes `1`), which must not make
`x == 0 |- y*x/x == y` provable: so the source text is read too (`divisors`), and the parser
refuses what the kernel could not state (a division inside a divisor).
"""

from __future__ import annotations

import ast

import sympy

from proofs.language.expressions import (
    ExpressionError,
    Names,
    Relation,
    parse_relation,
    parse_scalar,
    source_tree,
)


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


def divisors(relation: Relation, names: Names) -> tuple[sympy.Expr, ...]:
    """Every non-constant `d` the source text of `relation` divides by.

    A relation whose text does not parse back to it (one built in code) has no source to
    read, and only its SymPy form counts.
    """
    if "/" not in relation.text:
        return ()
    try:
        if parse_relation(relation.text, names) != relation:
            return ()
    except ExpressionError:
        return ()
    text = relation.text.strip()
    found: dict[sympy.Expr, None] = {}
    for node in ast.walk(source_tree(text)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            divisor = parse_scalar(ast.get_source_segment(text, node.right) or "", names)
            if divisor.free_symbols:
                _refuse_nested(divisor)
                found[divisor] = None
    return tuple(found)


def required(relation: Relation, names: Names) -> tuple[sympy.Expr, ...]:
    """The quantities that must be proved positive before `relation` may be cleared."""
    found = denominators(sympy.Tuple(relation.lhs, relation.rhs))
    bases = {d.base if d.is_Pow else d for d in found}
    extra = tuple(d for d in divisors(relation, names) if not _implied(d, bases))
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
