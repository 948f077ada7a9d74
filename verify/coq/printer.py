"""Printing for Coq: names, polynomials in Gram symbols, vectors and relations as written.

Two printers. `expr` prints the kernel's SymPy polynomials (Gram symbol `<a,b>` as `ip a b`).
`Written` prints a relation from its *source text*, so a theorem reads as the user wrote it
(`ip (vadd w (vscal y x)) (vadd w (vscal y x)) <= ip w w + R2`), optionally with names
substituted (induction obligations). Relations built in code have no source text to read;
they fall back to `expr`. Every number is printed exactly (`p / q`), never as a float.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from fractions import Fraction

import sympy

from proofs.language.expressions import ExpressionError, Names, Relation, parse_relation
from verify.kernel import Rel, gram_pair

#: Coq keywords and every global name an exported proof refers to: a proof's own names are
#: renamed `name'` when they would shadow one (a proof-file name never contains `'`).
_RESERVED_TEXT = """_ as at cofix else end exists exists2 fix for forall fun if IF in let match mod
    return then using where with Prop SProp Set Type R V Z S O ip vadd vscal det2 det3 IZR
    INR pow Rlt_0_1 Rlt_le Rmult_le_pos Rmult_lt_0_compat Rplus_le_le_0_compat Rle_refl
    eq_refl pow2_ge_0 ip_pos nz_of_factor gram2_nonneg gram3_nonneg int_nonneg int_pos rat_nonneg
    rat_pos
    add_pos_nonneg sum_ge sum_gt sum_eq ge_of_eq0 lin0 replay_ge replay_gt replay_eq fact_le
    fact_lt fact_ge fact_gt fact_eq claim_le claim_lt claim_ge claim_gt claim_eq
    nz_of_pow_pos trichotomy dichotomy nz_solve ip_db ip_sym True False and or not nat
    S_INR pos_INR Rle_ge IH nz_mul_l nz_mul_r Rgt_not_eq
    by_contra_ge by_contra_gt"""
RESERVED = frozenset(_RESERVED_TEXT.split())

COQ_OP = {"<=": "<=", "<": "<", ">=": ">=", ">": ">", "==": "="}


def name(text: str) -> str:
    """A proof's name as a Coq identifier that shadows nothing the proofs use."""
    return f"{text}'" if text in RESERVED else text


def ident(step_id: str) -> str:
    """The Coq theorem name of a step id (`[a-z0-9-]+`)."""
    return "step_" + step_id.replace("-", "_")


def number(value: Fraction) -> str:
    """An exact rational: `3`, `(- 3)`, `(3 / 2)`, `(- (3 / 2))`."""
    magnitude = abs(value)
    text = (
        str(magnitude.numerator)
        if magnitude.denominator == 1
        else f"({magnitude.numerator} / {magnitude.denominator})"
    )
    return f"(- {text})" if value < 0 else text


def expr(e: sympy.Expr) -> str:
    """A SymPy polynomial or rational function in scalars and Gram symbols, for Coq."""
    if e.is_Rational:
        return number(Fraction(int(e.p), int(e.q)))
    if e.is_Symbol:
        pair = gram_pair(e)
        return f"(ip {name(pair[0])} {name(pair[1])})" if pair else name(e.name)
    if e.is_Add:
        return "(" + " + ".join(expr(t) for t in e.as_ordered_terms()) + ")"
    if e.is_Mul:
        coeff, factors = e.as_coeff_mul()
        top = [expr(f) for f in factors if not _reciprocal(f)]
        bottom = [expr(1 / f) for f in factors if _reciprocal(f)]
        if coeff.is_Rational and abs(coeff) != 1:
            top.insert(0, number(Fraction(int(abs(coeff).p), int(abs(coeff).q))))
        text = " * ".join(top) if top else "1"
        if bottom:
            text = f"{text} / ({' * '.join(bottom)})"
        return f"(- ({text}))" if coeff < 0 else f"({text})"
    if e.is_Pow and e.exp.is_Integer:
        if e.exp < 0:
            return f"(1 / {expr(1 / e)})"
        return f"({expr(e.base)} ^ {int(e.exp)})"
    raise ExpressionError(f"cannot print {e} for Coq")


def _reciprocal(factor: sympy.Expr) -> bool:
    return bool(factor.is_Pow and factor.exp.is_Integer and factor.exp < 0)


def vector(v: Mapping[str, sympy.Expr], zero_of: str) -> str:
    """A linear combination `vadd (vscal c a) ...`; the zero vector as `vscal 0 zero_of`."""
    terms = [
        name(n) if c == 1 else f"(vscal {expr(c)} {name(n)})" for n, c in v.items()
    ]
    if not terms:
        return f"(vscal 0 {name(zero_of)})"
    text = terms[-1]
    for term in reversed(terms[:-1]):
        text = f"(vadd {term} {text})"
    return text


class Written:
    """Relations printed from their source text, with optional substitutions of names."""

    def __init__(
        self,
        names: Names,
        scalars: Mapping[str, str] | None = None,
        vectors: Mapping[str, str] | None = None,
    ) -> None:
        self.names = names
        self.scalars = dict(scalars or {})
        self.vectors = dict(vectors or {})
        self.text = ""

    def relation(self, relation: Rel) -> tuple[str, str, str] | None:
        """`(lhs, op, rhs)` printed from the text, or None when the text is not the source
        (a relation the kernel built, like an induction's substituted invariant)."""
        try:
            parsed = parse_relation(relation.text, self.names)
            if (parsed.lhs, parsed.op, parsed.rhs) != (relation.lhs, relation.op, relation.rhs):
                return None
        except ExpressionError:
            return None
        self.text = relation.text.strip()
        tree = ast.parse(self.text, mode="eval").body
        if not isinstance(tree, ast.Compare):
            return None
        return self.value(tree.left)[0], COQ_OP[relation.op], self.value(tree.comparators[0])[0]

    def value(self, node: ast.expr) -> tuple[str, bool]:
        """The Coq text of `node` and whether it is a vector."""
        if isinstance(node, ast.Constant):
            literal = ast.get_source_segment(self.text, node) or str(node.value)
            return number(Fraction(literal)), False
        if isinstance(node, ast.Name):
            if node.id in self.names.vectors:
                return self.vectors.get(node.id, name(node.id)), True
            return self.scalars.get(node.id, name(node.id)), False
        if isinstance(node, ast.UnaryOp):
            text, is_vector = self.value(node.operand)
            if isinstance(node.op, ast.UAdd):
                return text, is_vector
            return (f"(vscal (-1) {text})", True) if is_vector else (f"(- {text})", False)
        if isinstance(node, ast.BinOp):
            return self.binary(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [self.value(a)[0] for a in node.args]
            first, second = args[0], args[-1]
            return f"(ip {first} {second})", False
        raise ExpressionError(f"cannot print {ast.dump(node)} for Coq")

    def binary(self, node: ast.BinOp) -> tuple[str, bool]:
        (left, lv), (right, rv) = self.value(node.left), self.value(node.right)
        op = node.op
        if isinstance(op, ast.Pow):
            return f"({left} ^ {right})", False
        if isinstance(op, ast.Add | ast.Sub):
            if lv:
                other = right if isinstance(op, ast.Add) else f"(vscal (-1) {right})"
                return f"(vadd {left} {other})", True
            return f"({left} {'+' if isinstance(op, ast.Add) else '-'} {right})", False
        if isinstance(op, ast.Mult):
            if lv:
                return f"(vscal {right} {left})", True
            if rv:
                return f"(vscal {left} {right})", True
            return f"({left} * {right})", False
        if isinstance(op, ast.Div):
            if lv:
                return f"(vscal (1 / {right}) {left})", True
            return f"({left} / {right})", False
        raise ExpressionError(f"cannot print operator {type(op).__name__} for Coq")


def names_in(relation: Rel | Relation, source: Names) -> set[str]:
    """Every declared name a relation mentions, in its SymPy form or its source text."""
    found: set[str] = set()
    for side in (relation.lhs, relation.rhs):
        for symbol in side.free_symbols:
            found.update(gram_pair(symbol) or (symbol.name,))
    try:
        tree = ast.parse(relation.text.strip(), mode="eval")
    except SyntaxError:
        return found
    declared = source.vectors | source.scalars
    found.update(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in declared)
    return found
