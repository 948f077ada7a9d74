"""Certificates and counterexamples read back from their JSON form (`verify.render.json`).

Untrusted layer: what is read here only *proposes* evidence; the kernel checks it. Read
exactly and without eval: numbers are `"p/q"` strings read by `Fraction`, polynomials are
proof-file syntax (`dot(a, b)` for a Gram symbol) walked as a Python AST against a whitelist
(`+ - * /`, `**` by a small literal exponent, integer literals, names, `dot` of two names,
`atom("name")` for a sum or a family member, by the name the kernel gives it),
and every value is rebuilt in the exact types the search makes (`Vec` for vectors), so that
rendering what was read gives back the very text that was stored.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import sympy

from proofs.language.terms import Vec, gram, scalar
from verify.kernel import (
    Certificate,
    Counterexample,
    GramMinor,
    NormSquare,
    Product,
    Sos,
    Square,
)

MAX_EXPONENT = 64  # no certificate of the library squares beyond degree 16; a guard only
MAX_TEXT = 1_000_000  # characters of one polynomial (a stored file is package data, but read
# as if hostile: the bound keeps a corrupted file from costing more than it is long)


class StoreFormatError(ValueError):
    """A stored entry that is not in the JSON form of `verify.render.json`."""


def number(text: object) -> Fraction:
    """`"p/q"` or `"p"` as an exact Fraction (no floats: `"0.5"` is refused)."""
    if not isinstance(text, str) or not text or any(c in text for c in ".eE_ "):
        raise StoreFormatError(f"{text!r} is not an exact rational 'p/q'")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise StoreFormatError(f"{text!r} is not an exact rational 'p/q'") from None


def polynomial(text: object) -> sympy.Expr:
    """A polynomial in proof-file syntax as SymPy builds it from the same operations."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise StoreFormatError(f"not a polynomial: {str(text)[:80]!r}")
    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise StoreFormatError(f"not a polynomial: {text[:80]!r}") from None
    return _walk(tree, text)


_BINARY = {ast.Add: sympy.Expr.__add__, ast.Sub: sympy.Expr.__sub__,
           ast.Mult: sympy.Expr.__mul__}


def _walk(node: ast.expr, text: str) -> sympy.Expr:
    """One node of the whitelist (see the module docstring); anything else is refused."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return sympy.Integer(node.value)
    if isinstance(node, ast.Name):
        return scalar(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _walk(node.operand, text)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp):
        left = _walk(node.left, text)
        if isinstance(node.op, ast.Pow):
            exponent = node.right
            if not (isinstance(exponent, ast.Constant) and type(exponent.value) is int
                    and 0 <= exponent.value <= MAX_EXPONENT):
                raise StoreFormatError(f"{text[:80]!r}: exponent not a small literal")
            return left ** exponent.value  # type: ignore[no-any-return]
        right = _walk(node.right, text)
        if isinstance(node.op, ast.Div):
            if not right.is_Rational or right == 0:
                raise StoreFormatError(f"{text[:80]!r}: divides by a non-constant or 0")
            return left / right  # type: ignore[no-any-return]
        operation = _BINARY.get(type(node.op))
        if operation is not None:
            return operation(left, right)  # type: ignore[no-any-return]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dot"
            and len(node.args) == 2 and not node.keywords
            and all(isinstance(a, ast.Name) for a in node.args)):
        first, second = (a.id for a in node.args)  # type: ignore[attr-defined]
        return gram(first, second)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "atom" and len(node.args) == 1 and not node.keywords
            and isinstance(node.args[0], ast.Constant) and type(node.args[0].value) is str):
        return sympy.Symbol(node.args[0].value)  # a sum or a family member: the kernel reads it
    raise StoreFormatError(f"{text[:80]!r}: {type(node).__name__} is not allowed")


def vector(text: object, vectors: frozenset[str]) -> Vec:
    """A linear combination of the vector names `vectors`, coefficients polynomials in the
    other names (what `verify.render.json.vector` wrote)."""
    expr = sympy.expand(polynomial(text))
    members = {s.name for s in expr.free_symbols  # a member of a family of vectors: `x[j]`
               if s.name.partition("[")[0] in vectors and s.name.endswith("]")}
    names = [scalar(n) for n in sorted(vectors | members)]
    coefficients: dict[str, sympy.Expr] = {}
    for symbol in names:
        coefficients[symbol.name] = expr.coeff(symbol)
    rest = sympy.expand(expr - sum((c * scalar(n) for n, c in coefficients.items()),
                                   sympy.Integer(0)))
    if rest != 0 or any(c.has(*names) for c in coefficients.values()):
        raise StoreFormatError(f"{str(text)[:80]!r} is not linear in the vectors "
                               f"{sorted(vectors)}")
    return Vec(coefficients)


def _sos(data: Mapping[str, Any], vectors: frozenset[str]) -> Sos:
    kind = data.get("kind")
    if kind == "square":
        return Square(number(data["weight"]), polynomial(data["poly"]))
    if kind == "norm2":
        return NormSquare(number(data["weight"]), vector(data["vector"], vectors))
    if kind == "gram-minor":
        return GramMinor(number(data["weight"]),
                         tuple(vector(v, vectors) for v in _list(data["vectors"])))
    raise StoreFormatError(f"unknown sum-of-squares kind {kind!r}")


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise StoreFormatError(f"expected a list, not {type(value).__name__}")
    return value


def _index(value: object) -> int:
    if type(value) is not int:
        raise StoreFormatError(f"hypothesis index {value!r} is not an int")
    return value


def certificate(data: object, vectors: frozenset[str]) -> Certificate:
    """`verify.render.json.certificate` read back; `vectors` tells vector names from scalars."""
    if not isinstance(data, dict):
        raise StoreFormatError("a certificate is a JSON object")
    try:
        products = tuple(
            Product(number(p["coeff"]), tuple(_index(i) for i in _list(p["hyps"])),
                    tuple(_sos(s, vectors) for s in _list(p["sigma"])))
            for p in _list(data["products"]))
        linear = tuple((_index(t["hyp"]), polynomial(t["q"])) for t in _list(data["linear"]))
        multiplier = tuple(_index(i) for i in _list(data["multiplier"]))
    except (KeyError, TypeError) as error:
        raise StoreFormatError(f"malformed certificate: {error!r}") from None
    return Certificate(products, linear, multiplier)


def counterexample(data: object) -> Counterexample:
    """`verify.render.json.counterexample` read back (its families too, when it has some:
    a refutation on concrete sets gives the members of each family)."""
    if not isinstance(data, dict) or not isinstance(data.get("scalars"), dict) \
            or not isinstance(data.get("vectors"), dict) \
            or not isinstance(data.get("families", {}), dict):
        raise StoreFormatError("a counterexample is {'scalars': {...}, 'vectors': {...}}")
    return Counterexample(
        {str(name): number(v) for name, v in data["scalars"].items()},
        {str(name): tuple(number(x) for x in _list(v)) for name, v in data["vectors"].items()},
        {str(name): _members(members) for name, members in data.get("families", {}).items()})


def _members(data: object) -> dict[Fraction, Fraction | tuple[Fraction, ...]]:
    """A family's members read back: an index to a scalar, or to a vector's coordinates."""
    if not isinstance(data, dict):
        raise StoreFormatError("a family is {index: value}")
    return {number(index): tuple(number(x) for x in value) if isinstance(value, list)
            else number(value) for index, value in data.items()}
