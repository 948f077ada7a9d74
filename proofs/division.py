"""Division: a quotient is admitted only after its denominator is proved strictly positive.

Certificates and the kernel speak polynomials only. A relation with non-constant
denominators is replaced by the relation multiplied through by them, which is equivalent
exactly when every denominator is positive; the checker must prove those side conditions
from the step's polynomial hypotheses before the cleared relation counts. The clearing is
computed and verified in the field QQ(symbols), never with `simplify`, so a denominator that
does not cancel is caught rather than guessed away.

Denominators are read twice: from the SymPy form (`a**-n` factors: what must be cleared)
and from the source text (every `/ d`: what the author divided by). The second catches
divisions SymPy cancels on construction, such as `x/x`, which must not become `1` for free.
SymPy keeps `1/(a*b)` as `a**-1 * b**-1`, so each factor gets its own side condition
(`a > 0`, `b > 0`): stronger than `a*b > 0`, never weaker. Divide by positive quantities:
`1/(-x)` becomes `-1/x` and then needs `x > 0`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from math import prod

import sympy
from sympy.polys.domains import QQ
from sympy.polys.fields import field

from proofs.expressions import ExpressionError, Names, Relation, parse_relation, parse_scalar


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
    for node in ast.walk(ast.parse(text, mode="eval")):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            divisor = parse_scalar(ast.get_source_segment(text, node.right) or "", names)
            if divisor.free_symbols:
                _refuse_nested(divisor)
                found[divisor] = None
    return tuple(found)


def clear(relation: Relation) -> Relation:
    """`relation` multiplied through by its SymPy denominators: polynomial on both sides.

    Equivalent to `relation` wherever every denominator is positive (the order is kept).
    """
    found = denominators(sympy.Tuple(relation.lhs, relation.rhs))
    if not found:
        return relation
    factor = prod(found, start=sympy.Integer(1))
    symbols = sorted(
        relation.lhs.free_symbols | relation.rhs.free_symbols, key=sympy.default_sort_key
    )
    ring, *_ = field(symbols, QQ)
    multiplier = ring.from_expr(factor)
    sides = []
    for side in (relation.lhs, relation.rhs):
        cleared = ring.from_expr(side) * multiplier
        if not cleared.denom.is_ground:
            raise ExpressionError(f"{relation.text!r}: denominator {cleared.denom} does not cancel")
        sides.append(cleared.as_expr())
    return Relation(sides[0], relation.op, sides[1], f"{relation.text} [times {factor}]")


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


@dataclass(frozen=True)
class Admission:
    """A judgement with its divisions cleared, and the side conditions that license it.

    `conditions` (`d > 0` for each denominator) must be proved from `context` (the
    hypotheses free of division) for `hypotheses |- claim` to stand for the original.
    The conditions are also among `hypotheses`: sound once proved, and a counterexample to
    the cleared judgement then is one to the original too.
    """

    context: tuple[Relation, ...]
    conditions: tuple[Relation, ...]
    hypotheses: tuple[Relation, ...]
    claim: Relation


def admit(hypotheses: tuple[Relation, ...], claim: Relation, names: Names) -> Admission:
    """Clear every division of `hypotheses |- claim`, collecting the positivity conditions."""
    needs = {relation: required(relation, names) for relation in (*hypotheses, claim)}
    plain = tuple(h for h in hypotheses if not needs[h])
    divided = tuple(h for h in hypotheses if needs[h])
    found: dict[sympy.Expr, None] = {}
    for relation in (*divided, claim):
        found.update(dict.fromkeys(needs[relation]))
    conditions = tuple(Relation(d, ">", sympy.Integer(0), f"{d} > 0") for d in found)
    cleared = tuple(clear(h) for h in divided)
    return Admission(plain, conditions, (*plain, *conditions, *cleared), clear(claim))
