"""The expression language of proof files, parsed without eval.

Strings are parsed by `ast.parse` and then walked against a whitelist: exact literals,
declared names, `+ - * /`, `**` with a small literal exponent, parentheses, and the vector
functions `dot`/`norm2` whose arguments are linear combinations of vectors. Nothing is
executed, and size limits are enforced before any algebra so hostile input fails fast.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import ClassVar

import sympy

from proofs.terms import Vec, as_scalar, dot, gram, norm2, scalar

MAX_CHARS = 2000
MAX_NODES = 400
MAX_EXPONENT = 16
MAX_DEGREE = 32
MAX_TERMS = 20_000
MAX_LITERAL_DIGITS = 100
RELATIONS: dict[type[ast.cmpop], str] = {
    ast.LtE: "<=", ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.Eq: "==",
}
_LITERAL = re.compile(r"^(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?$")


class ExpressionError(ValueError):
    """An expression outside the grammar; the message says what and where."""


@dataclass(frozen=True)
class Names:
    """The declared names of a proof: every name used must be declared exactly once."""

    vectors: frozenset[str]
    scalars: frozenset[str]


@dataclass(frozen=True)
class Relation:
    """`lhs op rhs` with `op` among `<= < >= > ==`, both sides scalar expressions."""

    lhs: sympy.Expr
    op: str
    rhs: sympy.Expr
    text: str

    def __str__(self) -> str:
        return self.text


Value = sympy.Expr | Vec


def parse_relation(text: str, names: Names) -> Relation:
    """Parse one relation `a <= b` (exactly one comparison)."""
    tree = _parse(text)
    if not isinstance(tree, ast.Compare):
        raise ExpressionError(f"{text!r} is not a relation (expected one of <= < >= > ==)")
    if len(tree.ops) != 1:
        raise ExpressionError(f"{text!r} chains comparisons; write one relation per string")
    op = RELATIONS.get(type(tree.ops[0]))
    if op is None:
        raise ExpressionError(f"{text!r}: relation must be one of <= < >= > ==")
    walker = _Walker(text, names)
    lhs = walker.scalar(tree.left)
    rhs = walker.scalar(tree.comparators[0])
    return Relation(lhs, op, rhs, " ".join(text.split()))


def parse_scalar(text: str, names: Names) -> sympy.Expr:
    """Parse a scalar expression (e.g. a hint polynomial)."""
    return _Walker(text, names).scalar(_parse(text))


def parse_vector(text: str, names: Names) -> Vec:
    """Parse a linear combination of vectors (e.g. a hint `w - t*u`)."""
    return _Walker(text, names).vector(_parse(text))


def _parse(text: str) -> ast.expr:
    if not isinstance(text, str):
        raise ExpressionError(f"expected a string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ExpressionError(f"expression of {len(text)} characters exceeds {MAX_CHARS}")
    if "#" in text or "\\" in text:
        # Comments and line continuations are outside the grammar; they would also break the
        # whitespace-normalised text the division rule re-reads for divisors such as `x/x`.
        raise ExpressionError(f"{text!r}: comments and backslashes are not allowed")
    try:
        module = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ExpressionError(f"{text!r} is not a valid expression") from exc
    nodes = sum(1 for _ in ast.walk(module))
    if nodes > MAX_NODES:
        raise ExpressionError(f"expression has {nodes} syntax nodes, more than {MAX_NODES}")
    return module.body


class _Walker:
    """Builds SymPy scalars and `Vec`s from a whitelisted syntax tree; rejects all else."""

    def __init__(self, text: str, names: Names) -> None:
        self.text = text
        self.names = names

    def fail(self, node: ast.AST, problem: str) -> ExpressionError:
        segment = ast.get_source_segment(self.text.strip(), node) or self.text
        return ExpressionError(f"{problem} in {segment!r}")

    def scalar(self, node: ast.expr) -> sympy.Expr:
        value = self.value(node)
        if isinstance(value, Vec):
            raise self.fail(node, "a vector is used outside dot()/norm2()")
        return value

    def vector(self, node: ast.expr) -> Vec:
        value = self.value(node)
        if not isinstance(value, Vec):
            raise self.fail(node, "expected a linear combination of vectors")
        return value

    def value(self, node: ast.expr) -> Value:
        handler = self.HANDLERS.get(type(node))
        if handler is None:
            raise self.fail(node, f"{type(node).__name__} is not allowed")
        return handler(self, node)

    def constant(self, node: ast.Constant) -> Value:
        segment = ast.get_source_segment(self.text.strip(), node) or ""
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise self.fail(node, "only integer and decimal literals are allowed")
        if not _LITERAL.match(segment) or len(segment) > MAX_LITERAL_DIGITS:
            raise self.fail(node, "literal must be a plain integer or decimal")
        return as_scalar(Fraction(segment))

    def name(self, node: ast.Name) -> Value:
        if node.id in self.names.scalars:
            return scalar(node.id)
        if node.id in self.names.vectors:
            return Vec.named(node.id)
        raise self.fail(node, f"undeclared name {node.id!r}")

    def unary(self, node: ast.UnaryOp) -> Value:
        operand = self.value(node.operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.USub):
            return -operand
        raise self.fail(node, "unary operator not allowed")

    def binary(self, node: ast.BinOp) -> Value:
        left, right = self.value(node.left), self.value(node.right)
        op = node.op
        if isinstance(op, ast.Add | ast.Sub):
            if isinstance(left, Vec) != isinstance(right, Vec):
                raise self.fail(node, "cannot add a vector and a scalar")
            total = left + right if isinstance(op, ast.Add) else left - right
            if isinstance(total, Vec):
                for coeff in total.values():
                    self.bounded(node, coeff)
                return total
            return self.bounded(node, total)
        if isinstance(op, ast.Mult):
            if isinstance(left, Vec) and isinstance(right, Vec):
                raise self.fail(node, "vector times vector: use dot(a, b)")
            if isinstance(left, Vec):
                return self.scaled(node, left, right)
            if isinstance(right, Vec):
                return self.scaled(node, right, left)
            return self.bounded(node, left * right)
        if isinstance(op, ast.Div):
            if isinstance(right, Vec):
                raise self.fail(node, "division by a vector")
            if right == 0:
                raise self.fail(node, "division by zero")
            if isinstance(left, Vec):
                return self.scaled(node, left, 1 / right)
            return self.bounded(node, left / right)
        if isinstance(op, ast.Pow):
            return self.power(node, left)
        raise self.fail(node, f"operator {type(op).__name__} is not allowed")

    def power(self, node: ast.BinOp, base: Value) -> Value:
        if isinstance(base, Vec):
            raise self.fail(node, "power of a vector: use norm2(a)")
        exponent = node.right
        if not (isinstance(exponent, ast.Constant) and type(exponent.value) is int):
            raise self.fail(node, "exponent must be a literal non-negative integer")
        if not 0 <= exponent.value <= MAX_EXPONENT:
            raise self.fail(node, f"exponent must be between 0 and {MAX_EXPONENT}")
        return self.bounded(node, base**exponent.value)

    def bounded(self, node: ast.AST, expr: sympy.Expr) -> sympy.Expr:
        """Refuse expressions whose expansion would explode, judged without expanding."""
        degree, terms = _size(expr)
        if degree > MAX_DEGREE:
            raise self.fail(node, f"degree exceeds {MAX_DEGREE}")
        if terms > MAX_TERMS:
            raise self.fail(node, f"expands to more than {MAX_TERMS} terms")
        return expr

    def scaled(self, node: ast.AST, vector: Vec, factor: sympy.Expr) -> Vec:
        """`factor * vector`, refused before expanding if a coefficient would explode."""
        for coeff in vector.values():
            self.bounded(node, sympy.Mul(factor, coeff))
        return vector.scaled(factor)

    def call(self, node: ast.Call) -> Value:
        if not isinstance(node.func, ast.Name) or node.func.id not in _CALLS:
            raise self.fail(node, "only dot(a, b) and norm2(a) may be called")
        arity, function = _CALLS[node.func.id]
        if node.keywords or len(node.args) != arity:
            raise self.fail(node, f"{node.func.id} takes {arity} vector argument(s)")
        vectors = [self.vector(arg) for arg in node.args]
        first, second = vectors[0], vectors[-1]
        # dot expands every coefficient product at once: bound that sum before expanding.
        self.bounded(
            node,
            sympy.Add(
                *(sympy.Mul(a, b, gram(m, n)) for m, a in first.items() for n, b in second.items())
            ),
        )
        return function(*vectors)

    HANDLERS: ClassVar[dict[type[ast.expr], Callable[[_Walker, ast.expr], Value]]] = {
        ast.Constant: constant,
        ast.Name: name,
        ast.UnaryOp: unary,
        ast.BinOp: binary,
        ast.Call: call,
    }


def _size(expr: sympy.Expr) -> tuple[int, int]:
    """Upper bounds on (total degree, number of terms) of the expansion of `expr`."""
    if expr.is_Atom:
        return (1 if expr.is_Symbol else 0), 1
    parts = [_size(arg) for arg in expr.args]
    if expr.is_Add:
        return max(d for d, _ in parts), sum(t for _, t in parts)
    if expr.is_Mul:
        degree, terms = 0, 1
        for d, t in parts:
            degree, terms = degree + d, min(terms * t, MAX_TERMS + 1)
        return degree, terms
    if expr.is_Pow and expr.exp.is_Integer:
        d, t = parts[0]
        n = abs(int(expr.exp))
        return d * n, min(comb(n + t - 1, t - 1), MAX_TERMS + 1)  # multinomial count
    return MAX_DEGREE + 1, MAX_TERMS + 1


_CALLS: dict[str, tuple[int, Callable[..., sympy.Expr]]] = {"dot": (2, dot), "norm2": (1, norm2)}
