"""Exact conversion and the normal form: what the kernel reads, as polynomials over QQ.

Every input is re-validated before it is looked at: numbers must be exactly `int` or
`Fraction` (no bool, no float, no subclass whose comparisons could lie), expressions trees of
SymPy's own core classes over plain symbols with exact coefficients, and a small tree walk
(`fold`) turns them into `PolyRing`/field elements or exact values. No `simplify`, `evalf` or
solver: SymPy's automatic evaluation on construction only applies identities of QQ.

Normal form of `lhs op rhs` (`gap (kind) 0`, `a <= b` read as `b - a >= 0`): `gap` is taken
in the field QQ(symbols) as `N / D`. When D is `c * prod(b_i**k_i)` for the quantities b_i the
statement divides by, the relation becomes `N / c (kind) 0` (that is, `gap * prod(b_i**k_i)`)
under the conditions `b_i**k_i > 0`; otherwise `N / lc(D) (kind) 0` under `D / lc(D) > 0`.
Where the conditions hold the multiplier is positive, so both have the same truth value. A
divisor that does not divide D (cancelled, like `x` in `x/x`) gets the condition `x > 0`:
stronger than the `x != 0` that defines the statement (divide by positive quantities).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, reduce
from math import comb
from operator import add, mul
from types import MappingProxyType
from typing import Literal, TypeVar

import sympy
from sympy.polys.domains import QQ
from sympy.polys.fields import FracElement, field
from sympy.polys.rings import PolyElement, PolyRing, ring

from verify.kernel import atoms
from verify.kernel.atoms import MAX_BITS, MAX_TERMS, KernelError, gram, gram_pair, names_of

__all__ = ["KINDS", "Fact", "KernelError", "Kind", "Rel", "gram", "gram_pair", "names_of"]
Kind = Literal[">=", ">", "=="]
KINDS: tuple[Kind, ...] = (">=", ">", "==")
MAX_EXPONENT = 64  # larger literal exponents are refused: a kernel check must stay fast
MAX_DEPTH = 100  # nor may an expression nest deeper (SymPy and `fold` recurse on it)
MAX_VALID = 1 << 16  # expressions remembered as validated (`expr`)
T = TypeVar("T")
ORIENTATION: dict[str, tuple[Kind, bool]] = {  # op: (kind, whether the gap is rhs - lhs)
    "<=": (">=", True), "<": (">", True), ">=": (">=", False), ">": (">", False),
    "==": ("==", False)}


_VALID: dict[int, sympy.Expr] = {}


@lru_cache(maxsize=1 << 14)
def symbols_of(e: sympy.Expr) -> frozenset[sympy.Symbol]:
    """The symbols of `e`: memoised (a long proof asks at every step), so, like every memo
    here, only for `e` validated (`expr`): of the core classes, equal only to an equal one."""
    return frozenset(expr(e, "an expression").free_symbols)


@dataclass(frozen=True)
class Fact:
    """`expr (kind) 0` with `expr` a polynomial over QQ in scalars and Gram symbols."""
    expr: sympy.Expr
    kind: Kind

    def __str__(self) -> str:
        return f"{self.expr} {self.kind} 0"


@dataclass(frozen=True)
class Rel:
    """`lhs op rhs` as written, divisions kept; `divisors`: each non-constant the source divides
    by (SymPy cancels `x/x`, still undefined at `x = 0`); `text`: how it is shown, its maker's word,
    read for no meaning (the Coq export prints it only where it parses back to these)."""
    lhs: sympy.Expr
    op: str
    rhs: sympy.Expr
    text: str
    divisors: tuple[sympy.Expr, ...] = ()

    def __str__(self) -> str:
        return self.text


def rational(value: object, what: str, *, nonnegative: bool = False) -> Fraction:
    """An exact `int` or `Fraction` (exact types: a subclass could lie in `<`)."""
    if type(value) is int:
        value = Fraction(value)
    elif type(value) is not Fraction or not (
        type(value.numerator) is int and type(value.denominator) is int and value.denominator > 0
    ):
        raise KernelError(f"{what} must be an int or Fraction, not {type(value).__name__}")
    if nonnegative and value < 0:
        raise KernelError(f"{what} is negative ({value}); only nonnegative multiples keep >= 0")
    return value


def items(value: object, what: str) -> tuple[object, ...]:
    """A tuple or list, copied (certificate fields are sequences; anything else is malformed)."""
    if type(value) not in (tuple, list):
        raise KernelError(f"{what} must be a tuple, not {type(value).__name__}")
    return tuple(value)  # type: ignore[arg-type]


def text(value: object, what: str) -> str:
    """An exact `str`."""
    if type(value) is not str:
        raise KernelError(f"{what} must be a str, not {type(value).__name__}")
    return value


def expr(value: object, what: str) -> sympy.Expr:
    """A SymPy expression built from the exact core classes only (a subclass could lie in
    `__eq__` or in its flags, a float would round) over plain symbols.

    Each object is walked once (issue 30: a long proof hands the kernel the same hypotheses
    at every step): SymPy expressions are immutable, which every kernel value relies on
    already (a Theorem's statement shares its expressions with the caller's), so one accepted
    is accepted again. `_VALID` holds them, so that no other object takes their `id`."""
    if type(value) is int or type(value) is Fraction:
        value = sympy.Rational((exact := rational(value, what)).numerator, exact.denominator)
    if _VALID.get(id(value)) is value:
        return value  # type: ignore[return-value]
    if not isinstance(value, sympy.Expr):
        raise KernelError(f"{what} must be a SymPy expression, not {type(value).__name__}")
    stack = [(value, 0)]  # walked here, not by recursion: a deep tree is refused, not a crash
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise KernelError(f"{what} is nested more than {MAX_DEPTH} levels deep")
        stack += [(arg, depth + 1) for arg in node.args]
        if node is sympy.S.ComplexInfinity:
            raise KernelError(f"{what} divides by zero")
        if node.is_Float:
            raise KernelError(f"{what}: float {node} (the kernel takes exact rationals only)")
        if type(node) not in atoms.CORE:
            raise KernelError(f"{what} is not a polynomial over QQ: {type(node).__name__} "
                              "is not a SymPy core class")
        if node.is_Symbol and (type(node) is not sympy.Symbol or type(node.name) is not str
                               or node != sympy.Symbol(node.name)):  # a lying name type hides
            raise KernelError(f"{what}: {node!r} is not a plain symbol (no assumptions)")
        if node.is_Symbol:  # a name, a Gram symbol, or a canonical family member or sum
            atoms.check(node, what)
    if len(_VALID) >= MAX_VALID:
        _VALID.clear()
    _VALID[id(value)] = value
    return value


def vector(value: object, what: str) -> tuple[tuple[str, sympy.Expr], ...]:
    """An explicit vector: identifier names with exact coefficients, copied out."""
    if not isinstance(value, Mapping):
        raise KernelError(f"{what} must be a Vec (names to coefficients), "
                          f"not {type(value).__name__}")
    out = []
    for name in sorted(value, key=str):
        if type(name) is not str:
            raise KernelError(f"{what}: vector name {name!r} is not a str")
        if any(n.startswith("#") for n in atoms.vector_names(name)):  # an identifier or member
            raise KernelError(f"{what}: vector {name!r} mentions a bound index")
        out.append((name, expr(value[name], f"{what} coefficient of {name}")))
    return tuple(out)


def fold(e: sympy.Expr, what: str, leaf: Callable[[sympy.Symbol], T],
         const: Callable[[Fraction], T], *, divide: bool = False) -> T:
    """Evaluate a validated `e` in a ring (or with `divide`, a field) given by its leaves.

    Only `+`, `*`, literal integer powers (negative ones only with `divide`), rationals and
    symbols are read; anything else (roots, functions, infinities) is refused.
    """
    if e.is_Rational:
        return const(Fraction(int(e.p), int(e.q)))
    if e.is_Symbol:
        return leaf(e)
    if e.is_Add or e.is_Mul:
        parts, terms, total, bits = [], 1, 0, 0  # hostile input: refused before it is made,
        for arg in e.args:  # as soon as its parts so far would make too much
            parts.append(part := fold(arg, what, leaf, const, divide=divide))
            terms, total = terms * _size(part, e.is_Add), total + _size(part, False)
            if terms > MAX_TERMS or (e.is_Add and total > MAX_TERMS):  # sums of products too
                raise KernelError(f"{what}: `{e}` would expand to more than {MAX_TERMS} terms")
            if (bits := bits + atoms.bits(part)) > MAX_BITS:  # an exact value: its size
                raise KernelError(f"{what}: `{e}` makes a number of more than {MAX_BITS} bits")
        return reduce(add if e.is_Add else mul, parts)
    if e.is_Pow and e.exp.is_Integer and abs(int(e.exp)) <= MAX_EXPONENT:
        if (n := int(e.exp)) == 0:
            return const(Fraction(1))
        if n > 0 or divide:
            base = fold(e.base, what, leaf, const, divide=divide)
            if comb(_size(base, False) + abs(n) - 1, abs(n)) > MAX_TERMS:
                raise KernelError(f"{what}: `{e}` would expand to more than {MAX_TERMS} terms")
            if abs(n) * atoms.bits(base) > MAX_BITS:
                raise KernelError(f"{what}: `{e}` makes a number of more than {MAX_BITS} bits")
            try:
                return base**n  # type: ignore[operator,no-any-return]
            except ZeroDivisionError:
                raise KernelError(f"{what}: division by zero in `{e}`") from None
    raise KernelError(f"{what} is not a polynomial over QQ: `{e}`")


def _size(value: object, adding: bool) -> int:
    """A bound on the terms `value` brings to a product (or, `adding`, to a sum's common
    denominator): products multiply term counts, sums of fractions their denominators."""
    if isinstance(value, FracElement):
        return len(value.denom) if adding else len(value.numer) * len(value.denom)
    return 1 if adding or not isinstance(value, PolyElement) else max(len(value), 1)


def polynomial_ring(symbols: tuple[sympy.Symbol, ...]
                    ) -> tuple[PolyRing, Mapping[sympy.Symbol, PolyElement]]:
    """QQ[symbols] and its generators, the caller's own: the kernel's (`_ring`, cached) is
    never handed out, its generators being dicts and its one a list a caller could change in
    place (`a` set to 1 proved a - 1 >= 0)."""
    R, *gens = ring(symbols, QQ)
    return R, MappingProxyType(dict(zip(symbols, gens, strict=True)))


_ring = lru_cache(maxsize=512)(polynomial_ring)  # the kernel's own: shared, never handed out


def expanded(symbols: tuple[sympy.Symbol, ...], e: sympy.Expr, what: str) -> PolyElement:
    """`e` in a fresh `polynomial_ring(symbols)`, sharing no coefficient with `_polynomial`."""
    return polynomial_ring(symbols)[0].from_dict({m: QQ(c.numerator, c.denominator) for m, c
                                                  in _polynomial(symbols, e, what).items()})


def _polynomial(symbols: tuple[sympy.Symbol, ...], e: sympy.Expr, what: str) -> PolyElement:
    """`e` in `_ring(symbols)`, memoised as `normal_form` is (a long proof's certificates are
    checked against the same hypotheses at every step): for the certificate check only."""
    try:
        return _expanded(symbols, e)
    except KernelError:
        return _expand(symbols, e, what)


def _expand(symbols: tuple[sympy.Symbol, ...], e: sympy.Expr, what: str = "") -> PolyElement:
    R, gens = _ring(tuple(expr(s, what) for s in symbols))  # validated: memoised
    return fold(expr(e, what), what, gens.__getitem__,
                lambda f: R(QQ(f.numerator, f.denominator)))


_expanded = lru_cache(maxsize=1 << 14)(_expand)


def reciprocal_bases(e: sympy.Expr, what: str) -> list[sympy.Expr]:
    """The bases of negative powers in `e`; a division inside a divisor is refused (memoised
    on the validated `e`, the error worded for each caller, as in `normal_form`)."""
    try:
        return list(_bases(e))
    except KernelError:
        return _reciprocal(expr(e, what), what)


def _reciprocal(e: sympy.Expr, what: str = "") -> list[sympy.Expr]:
    found: list[sympy.Expr] = []
    for node in sympy.preorder_traversal(e):
        if node.is_Pow and node.exp.is_Integer and node.exp < 0 and node.base.free_symbols:
            if _reciprocal(node.base, what):
                raise KernelError(f"{what}: division inside the divisor {node.base}")
            found.append(node.base)
    return found


@lru_cache(maxsize=1 << 14)
def _bases(e: sympy.Expr) -> tuple[sympy.Expr, ...]:
    return tuple(_reciprocal(expr(e, "")))  # validated: memoised


def _oriented(relation: Rel, what: str) -> tuple[Kind, sympy.Expr, sympy.Expr, list[sympy.Expr]]:
    """`relation` as `pos - neg (kind) 0`, and all it divides by: its text's divisors, and the
    bases of negative powers in them (`1/y` divides by y) and in each side (lhs - rhs cancels)."""
    if (op := text(relation.op, f"{what} relation")) not in ORIENTATION:
        raise KernelError(f"{what}: unknown relation {op!r}")
    kind, flipped = ORIENTATION[op]
    lhs, rhs = expr(relation.lhs, what), expr(relation.rhs, what)
    divisors = [expr(d, f"{what} divisor") for d in items(relation.divisors, f"{what} divisors")]
    divisors += [b for e in (lhs, rhs, *divisors) for b in reciprocal_bases(e, what)]
    return kind, *((rhs, lhs) if flipped else (lhs, rhs)), divisors


def normal_form(relation: Rel, what: str) -> tuple[Fact, tuple[Fact, ...]]:
    """`relation` as a polynomial fact, and the conditions (`> 0` facts) under which it is.

    Memoised on the validated parts (a proof restates the same hypotheses in every step):
    validated expressions are SymPy core trees, equal only when structurally identical, and
    `what` only words an error, which is never cached but raised again with `what`."""
    kind, pos, neg, bases = _oriented(relation, what)
    try:
        fact, conditions = _memo(kind, pos, neg, tuple(bases), "")
    except KernelError:
        return _normal(kind, pos, neg, tuple(bases), what)
    # copies: a caller changing a fact in place (`object.__setattr__`) must not change the memo
    return Fact(fact.expr, fact.kind), tuple(Fact(c.expr, c.kind) for c in conditions)


def _normal(kind: Kind, pos: sympy.Expr, neg: sympy.Expr, bases: tuple[sympy.Expr, ...],
            what: str) -> tuple[Fact, tuple[Fact, ...]]:
    if kind not in KINDS:  # validated again: called directly, `_memo` must cache no lie
        raise KernelError(f"{what}: unknown kind {kind!r}")
    pos, neg = expr(pos, what), expr(neg, what)
    bases = tuple(expr(b, what) for b in items(bases, what))
    gap = pos - neg
    symbols = sorted(set().union(gap.free_symbols, *(b.free_symbols for b in bases)),
                     key=lambda s: s.name)
    F, *gens = field(symbols or [sympy.Symbol("_")], QQ)
    table = dict(zip(symbols, gens, strict=False))

    def into(e: sympy.Expr) -> FracElement:
        return fold(e, what, table.__getitem__, lambda f: F(QQ(f.numerator, f.denominator)),
                    divide=True)

    value = into(gap)
    rest, factors, conditions = value.denom, [], []
    for base in dict.fromkeys(bases):  # a divisor's own division: among the bases too
        b, k = into(base).numer, 0
        while not b.is_ground and (split := rest.div(b))[1] == 0:
            rest, k = split[0], k + 1
        if k:  # b divides D k times
            factors.append(b**k)
        elif (b == 0) if b.is_ground else value.denom.rem(b) != 0:  # 1/0, or cancelled: x/x
            conditions.append(b)
    if rest.is_ground:  # D = rest * prod(b**k): positive where every b**k is
        conditions += factors
        scale = rest.LC
    else:  # D has a factor no divisor explains: its own condition
        scale, conditions = value.denom.LC, [value.denom * (QQ(1) / value.denom.LC), *conditions]
    return (Fact((value.numer * (QQ(1) / scale)).as_expr(), kind),
            tuple(Fact(c.as_expr(), ">") for c in dict.fromkeys(conditions)))


_memo = lru_cache(maxsize=4096)(_normal)


def evaluate(relation: Rel, what: str, value: Callable[[sympy.Symbol], Fraction]) -> bool:
    """Whether `relation` holds, as written, at a point; undefined there is an error."""
    kind, pos, neg, divisors = _oriented(relation, what)
    for divisor in divisors:
        if fold(divisor, what, value, lambda f: f, divide=True) == 0:
            raise KernelError(f"{what}: `{relation.text}` divides by {divisor} = 0 there")
    sides = [fold(e, what, value, lambda f: f, divide=True) for e in (pos, neg)]
    return holds(kind, sides[0] - sides[1])


def holds(kind: str, value: Fraction) -> bool:
    """Whether `value (kind) 0` (`kind` already validated)."""
    return value > 0 if kind == ">" else value >= 0 if kind == ">=" else value == 0
