"""The expression language of proof files, parsed without eval.

Strings are parsed by `ast.parse` and then walked against a whitelist: exact literals,
declared names, `+ - * /`, `**` with a small literal exponent, parentheses, and the vector
functions `dot`/`norm2` whose arguments are linear combinations of vectors. Nothing is
executed, and size limits are enforced before any algebra so hostile input fails fast.

**Resource model.** SymPy's expansion costs about a millisecond per term (and every later
stage, normal forms included, pays again per term), so the number of terms of every
expansion is *predicted* before it is done (`expansion_size`: multinomial counts for powers of
sums, products of the factors' counts, pairs of coefficients for `dot`) and refused above
`MAX_TERMS` per expression. The expressions of one proof file share a `WorkBudget` of
`MAX_FILE_TERMS` terms (carried by its `Names`, made once per file by `declare`): each parse is
charged the terms it expands and the terms of its result, so no file of a few hundred bytes
can ask for minutes of algebra.

**Identifiers** are ASCII: Python's parser folds identifiers to NFKC, so `𝐱` and `ｘ` would
silently read as `x` while reports print the text as written. Any non-ASCII character is
refused, with its position.
"""

from __future__ import annotations

import ast
import difflib
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import ClassVar

import sympy

from proofs.language import indexed
from proofs.language.terms import Vec, as_scalar, gram, scalar

MAX_CHARS = 2000
MAX_NODES = 400
MAX_EXPONENT = 16
MAX_DEGREE = 32
MAX_TERMS = 1_000
#: Terms of expansion all the expressions of one proof file may ask for together (the
#: built-in library uses at most a few hundred per file).
MAX_FILE_TERMS = 4_000
MAX_LITERAL_DIGITS = 100
#: Bits of the largest coefficient an expression's expansion may have (`coefficient_bits`):
#: a literal of `MAX_LITERAL_DIGITS` digits to the power `MAX_EXPONENT` (1 600 digits, 5 316
#: bits) fits, twice over; a power of a power of a literal does not (`((10**16)**16)**16` has
#: 4 097 digits, each further level multiplies them by 16: eight levels took 3.4 GB), nor an
#: expansion whose coefficients Python would refuse to print (4 300 digits, 14 284 bits).
MAX_COEFFICIENT_BITS = 12_000
RELATIONS: dict[type[ast.cmpop], str] = {
    ast.LtE: "<=", ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.Eq: "==",
}
#: A literal as written, read exactly by `Fraction`: an integer or decimal with an optional
#: exponent of at most three digits, accepted since files use `1e3` and `.5`; its value is
#: then at most 10**1099 (under `MAX_COEFFICIENT_BITS`), where a longer exponent is refused.
_LITERAL = re.compile(r"^(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?$")


class ExpressionError(ValueError):
    """An expression outside the grammar; the message says what and where. `segment` is the
    offending part of the text (to place it in the file), `fix` what to write instead."""

    def __init__(self, problem: str, *, segment: str | None = None,
                 fix: str | None = None) -> None:
        super().__init__(problem)
        self.segment, self.fix = segment, fix


class WorkBudget:
    """The terms of expansion one proof file may still ask for (see the module docstring).

    Mutable and shared by every parse with the same `Names`, so a file cannot escape the
    cap by spreading its work over many expressions.
    """

    def __init__(self, limit: int = MAX_FILE_TERMS) -> None:
        self.limit = limit
        self.used = 0

    def charge(self, terms: int, text: str) -> None:
        """Count `terms` more; refuse once the file's total passes the limit."""
        self.used += terms
        if self.used > self.limit:
            raise ExpressionError(
                f"{_clip(text)}: the file's expressions expand to more than {self.limit} terms "
                "in all (the limit of a proof file; split the proof or simplify the expressions)"
            )


@dataclass(frozen=True)
class IndexSet:
    """A declared set: the integers `index` from `lo` to `hi` (texts) where every relation of
    `where` (texts over the index) holds; `sum(j in M, ...)` reads it with `index := j`."""

    index: str
    lo: str
    hi: str
    where: tuple[str, ...] = ()


@dataclass(frozen=True)
class Names:
    """The declared names of a proof: every name used must be declared exactly once.
    `indexed` are the families among them (`y[j]`), `sets` the declared sets of indices.

    `budget` is the file's shared `WorkBudget` (not part of equality): a fresh one per
    `Names`, i.e. per file loaded or per proof checked.
    """

    vectors: frozenset[str]
    scalars: frozenset[str]
    budget: WorkBudget = field(default_factory=WorkBudget, compare=False, repr=False)
    indexed: frozenset[str] = frozenset()
    sets: Mapping[str, IndexSet] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Relation:
    """`lhs op rhs` with `op` among `<= < >= > ==`, both sides scalar expressions.

    `divisors`: every non-constant quantity the text divides by, read while the text is
    parsed, in the same names and scope. SymPy cancels some divisions on construction (`x/x`
    is `1`), and `x == 0 |- y*x/x == y` must not become provable: the kernel states each
    divisor's side condition. A relation carries them wherever it goes (a copy into another
    proof reads the same `Relation`), so nothing has to re-read its text under other names."""

    lhs: sympy.Expr
    op: str
    rhs: sympy.Expr
    text: str
    divisors: tuple[sympy.Expr, ...] = ()

    def __str__(self) -> str:
        return self.text


Value = sympy.Expr | Vec


Scope = Mapping[str, sympy.Symbol]
"""Names read as other symbols (a set's index read as the index of a term-wise use)."""


def parse_relation(text: str, names: Names, scope: Scope | None = None,
                   of_set: str | None = None) -> Relation:
    """Parse one relation `a <= b` (exactly one comparison); `of_set`: it is a `where` of
    that declared set (a polynomial, not reading the set itself)."""
    tree = _parse(text)
    if not isinstance(tree, ast.Compare):
        raise ExpressionError(f"{text!r} is not a relation (expected one of <= < >= > ==)")
    if len(tree.ops) != 1:
        raise ExpressionError(f"{text!r} chains comparisons; write one relation per string")
    op = RELATIONS.get(type(tree.ops[0]))
    if op is None:
        raise ExpressionError(f"{text!r}: relation must be one of <= < >= > ==")
    walker = _Walker(text, names, dict(scope or {}), polynomial=of_set is not None,
                     reading=() if of_set is None else (of_set,))
    lhs = walker.scalar(tree.left)
    rhs = walker.scalar(tree.comparators[0])
    gap = expansion_size(lhs)[1] + expansion_size(rhs)[1]
    if gap > MAX_TERMS:
        raise ExpressionError(f"{_clip(text)} expands to more than {MAX_TERMS} terms")
    names.budget.charge(walker.work + gap, text)
    return Relation(lhs, op, rhs, " ".join(text.split()), tuple(walker.divisors))


def parse_bound(text: str, names: Names) -> sympy.Expr:
    """Parse a bound of a sum (`_Walker.bound`)."""
    walker = _Walker(text, names)
    value = walker.bound(_parse(text))
    names.budget.charge(walker.work, text)
    return value


def parse_scalar(text: str, names: Names, scope: Scope | None = None) -> sympy.Expr:
    """Parse a scalar expression (e.g. a hint polynomial)."""
    return _scalar_read(text, names, scope)[0]


def parse_vector(text: str, names: Names) -> Vec:
    """Parse a linear combination of vectors (e.g. a hint `w - t*u`)."""
    return _vector_read(text, names)[0]


def parse_term(text: str, names: Names, *, vector: bool) -> tuple[Value, tuple[sympy.Expr, ...]]:
    """A term (a linear combination of vectors when `vector`, else a scalar expression) and
    every non-constant quantity its text divides by, as `Relation.divisors` records them
    for a relation: the parsed term cannot tell, SymPy has cancelled `x/x` to 1 already."""
    value, walker = _vector_read(text, names) if vector else _scalar_read(text, names)
    return value, tuple(walker.divisors)


@dataclass(frozen=True)
class VectorSumReading:
    """A sum of vectors as written (`text`) and as read: its index (a fresh name), bounds,
    filters (`gap kind 0`) and body, an explicit vector whose members may read the index."""

    text: str
    index: str
    lo: sympy.Expr
    hi: sympy.Expr
    filters: tuple[tuple[sympy.Expr, str], ...]
    body: Vec


def vector_sums(text: str, names: Names) -> tuple[VectorSumReading, ...]:
    """The sums of vectors a relation writes outside any other sum, in order, each once (by
    its text); one whose body holds another sum of vectors is left out. For a relation the
    file has read already (within its budget: reading it again costs as much)."""
    tree, out = _parse(text), {}
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop(0)
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "sum"):
            pending.extend(ast.iter_child_nodes(node))
            continue
        walker = _Walker(text, names)
        if isinstance(key := next(iter(_keys(walker.finite_sum(node))), None), str):
            index, body, filters = walker.sub_walk(walker.sums[key])
            segment = " ".join((ast.get_source_segment(text, node) or "").split())
            if isinstance(body, Vec) and not any(k.startswith("@") for k in body) and segment:
                found = walker.sums[key]
                out.setdefault(segment, VectorSumReading(segment, index.name, found.lo,
                                                         found.hi, tuple(filters), body))
    return tuple(out.values())


def _keys(value: Value) -> list[str]:
    """The one key of a vector sum read alone (`Vec.named("@K")`), else none."""
    return list(value) if isinstance(value, Vec) and len(value) == 1 and next(
        iter(value)).startswith("@") else []


def _scalar_read(text: str, names: Names, scope: Scope | None = None
                 ) -> tuple[sympy.Expr, _Walker]:
    """A scalar expression, and the walker that read it (what it divides by)."""
    walker = _Walker(text, names, dict(scope or {}))
    value = walker.scalar(_parse(text))
    names.budget.charge(walker.work + expansion_size(value)[1], text)
    return value, walker


def _vector_read(text: str, names: Names) -> tuple[Vec, _Walker]:
    """A linear combination of vectors, and the walker that read it (what it divides by)."""
    walker = _Walker(text, names)
    value = walker.vector(_parse(text))
    if any(key.startswith("@") for key in value):
        raise ExpressionError(f"{_clip(text)}: a sum of vectors may stand only inside dot() "
                              "or norm2()")
    names.budget.charge(walker.work + sum(expansion_size(c)[1] for c in value.values()), text)
    return value, walker


def _clip(text: str, limit: int = 80) -> str:
    """`text` quoted for a one-line message, cut to `limit` characters."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


_FIXITS = (
    (re.compile(r"(?<![<>=!])=(?![=<>])"),
     "use == for equality (a relation, not an assignment)"),
    (re.compile(r"(?<![<>=!])=<"), "write <= for 'less than or equal' (=< is no operator)"),
    (re.compile(r"(?<![<>=!])=>"), "write >= for 'greater than or equal' (=> is no operator)"),
    (re.compile(r"<\s*[A-Za-z_]\w*\s*,"), "write dot(w, x) for the inner product <w, x>"),
    (re.compile(r"\|\|"), "write norm2(x) for ||x||^2 (squared norms only: no roots)"),
    (re.compile(r"\^"), "use ** for powers (y**2, not y^2)"),
)


def fixit(text: str) -> str:
    """What to write instead, for the habits of other notations a student brings (issue
    29.7): `y^2`, `y**2 = 1`, `a =< b` (newcomer 19: it was told to use ==), `y*<w, x>`,
    `||x||`; "" when none applies."""
    hints = [hint for pattern, hint in _FIXITS if pattern.search(text)]
    return f": {'; '.join(hints)}" if hints else ""


def undeclared_fix(name: str, names: Names) -> str:
    """What to do about an undeclared `name`: the declared name it is likely a misspelling
    of, else where to declare it."""
    close = difflib.get_close_matches(name, sorted(names.vectors | names.scalars), n=1)
    if close:
        return f"did you mean {close[0]!r}?"
    return "declare it in scalars (or vectors)"


def source_tree(text: str) -> ast.expr:
    """The syntax tree of an expression of the language: a range `lo..hi` is read as the
    operator `>>` (otherwise refused; binding looser than `+` and tighter than `in`, as `..`
    reads; of the same width, so columns stay where they are)."""
    return ast.parse(text.strip().replace("..", ">>"), mode="eval").body


def spelt_tree(text: str) -> ast.expr:
    """`source_tree(text)` with each decimal literal kept as written, for `ast.unparse` to
    print back: it prints a float's `repr`, and `0.10000000000000001` and `0.1` are one
    float (`1e400` and `1e999` both `1e309`), where the language reads each exactly."""
    tree = source_tree(text)
    written = text.strip().replace("..", ">>")

    class Spell(ast.NodeTransformer):
        def visit_Constant(self, node: ast.Constant) -> ast.expr:
            segment = ast.get_source_segment(written, node)
            if not isinstance(node.value, float) or segment is None:
                return node
            return ast.copy_location(ast.Name(segment, ast.Load()), node)

    return Spell().visit(tree)


def _parse(text: str) -> ast.expr:
    if not isinstance(text, str):
        raise ExpressionError(f"expected a string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ExpressionError(f"expression of {len(text)} characters exceeds {MAX_CHARS}")
    if not text.isascii():
        return _refuse_non_ascii(text)
    if "#" in text or "\\" in text:
        # Comments and line continuations are outside the grammar; the whitespace-normalised
        # text a step prints would also not be what was read.
        raise ExpressionError(f"{text!r}: comments and backslashes are not allowed")
    if ">>" in text:
        raise ExpressionError(f"{_clip(text)}: '>>' is not an operator here")
    try:
        body = source_tree(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ExpressionError(f"{text!r} is not a valid expression{fixit(text)}") from exc
    nodes = sum(1 for _ in ast.walk(body))
    if nodes > MAX_NODES:
        raise ExpressionError(f"expression has {nodes} syntax nodes, more than {MAX_NODES}")
    return body


def _refuse_non_ascii(text: str) -> ast.expr:
    """One line naming the first non-ASCII character, its code point and its column."""
    column, char = next((i, c) for i, c in enumerate(text) if not c.isascii())
    name = unicodedata.name(char, "unnamed")
    folded = unicodedata.normalize("NFKC", char)
    hint = f", which Python would read as {folded!r}" if folded != char and folded.isascii() else ""
    raise ExpressionError(
        f"{_clip(text)}: non-ASCII character {char!r} (U+{ord(char):04X} {name}) at column "
        f"{column + 1}{hint}; names and operators must be ASCII"
    )


@dataclass(frozen=True)
class _VectorSum:
    """`sum(index in S, body)` whose body is a vector: walked again, with a fresh index, each
    time an inner product reads it (`_Walker.product`)."""

    index: str
    lo: sympy.Expr
    hi: sympy.Expr
    set: str | None
    body: ast.expr
    scope: tuple[tuple[str, sympy.Symbol], ...]


class _Walker:
    """Builds SymPy scalars and `Vec`s from a whitelisted syntax tree; rejects all else.

    `scope` maps the index of each enclosing sum to the fresh name printed for it; a sum of
    vectors is a `Vec` key `@K` (`sums[key]`), expanded by bilinearity inside dot/norm2.

    `polynomial`: this text is a sum's body or bound, or a declared set's range or `where`,
    where nothing divides by a term that is not constant: SymPy would cancel `j/j` to 1
    before anything sees the division, and with it the members where the sum is undefined
    (the divisor's text, read outside the sum, would name the file's `j`). `reading`: the
    declared sets whose range or `where` is being read, so that a set summed over inside its
    own (or a set's it reads) is refused, not followed for ever."""

    def __init__(self, text: str, names: Names, scope: dict[str, sympy.Symbol] | None = None,
                 fresh: list[int] | None = None, *, polynomial: bool = False,
                 reading: tuple[str, ...] = ()) -> None:
        self.text = text
        self.names = names
        self.work = 0  # predicted terms of the expansions done so far (charged to the file)
        self.scope = scope or {}
        self.fresh = fresh if fresh is not None else [0]  # shared with sub-walkers
        self.sums: dict[str, _VectorSum] = {}
        self.polynomial = polynomial
        self.reading = reading
        self.divisors: dict[sympy.Expr, None] = {}  # what the text divides by, in order

    def fail(self, node: ast.AST, problem: str, fix: str | None = None) -> ExpressionError:
        segment = ast.get_source_segment(self.text.strip(), node) or self.text
        return ExpressionError(f"{problem} in {segment!r}", segment=segment, fix=fix)

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
        if not _LITERAL.match(segment):
            raise self.fail(node, "literal must be an integer or decimal, with at most a "
                            "three-digit exponent (12, 0.5, .5, 1e3, 2.5E-4)")
        if len(segment) > MAX_LITERAL_DIGITS:
            raise self.fail(node, f"literal of {len(segment)} characters, more than the "
                            f"{MAX_LITERAL_DIGITS} a literal may have")
        return as_scalar(Fraction(segment))

    def name(self, node: ast.Name) -> Value:
        if node.id in self.scope:
            return self.scope[node.id]
        if node.id in self.names.indexed:
            raise self.fail(node, f"{node.id} is a family: write a member, {node.id}[j]")
        if node.id in self.names.scalars:
            return scalar(node.id)
        if node.id in self.names.vectors:
            return Vec.named(node.id)
        raise self.fail(node, f"undeclared name {node.id!r}", undeclared_fix(node.id, self.names))

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
            if isinstance(left, Vec) and isinstance(right, Vec):
                # Vec expands every coefficient of the sum: bound them before it does.
                for name in {*left, *right}:
                    parts = [v[name] for v in (left, right) if name in v]
                    self.expanded(node, sympy.Add(*parts))
                return left + right if isinstance(op, ast.Add) else left - right
            return self.bounded(node, left + right if isinstance(op, ast.Add) else left - right)
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
            if self.polynomial and right.free_symbols:
                raise self.fail(node, _POLYNOMIAL_SUM)
            if right.free_symbols:
                self.divisors[right] = None
            if isinstance(left, Vec):
                return self.scaled(node, left, 1 / right)
            return self.bounded(node, left / right)
        if isinstance(op, ast.Pow):
            return self.power(node, left)
        hint = "; use ** for powers (y**2, not y^2)" if isinstance(op, ast.BitXor) else (
            "; a range lo..hi stands only in sum(j in lo..hi, body)" if isinstance(
                op, ast.RShift) else "")
        raise self.fail(node, f"operator {type(op).__name__} is not allowed{hint}")

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
        """Refuse expressions whose expansion would explode, judged without expanding, and
        coefficients past `MAX_COEFFICIENT_BITS` (SymPy computes `c**n` of a constant at once,
        and the kernel expands)."""
        self.check(node, *expansion_size(expr))
        if coefficient_bits(expr) > MAX_COEFFICIENT_BITS:
            raise self.fail(node, "its expansion has coefficients of more than "
                            f"{MAX_COEFFICIENT_BITS} bits")
        return expr

    def check(self, node: ast.AST, degree: int, terms: int) -> int:
        """Refuse a predicted degree or number of terms over the caps; the terms otherwise."""
        if degree > MAX_DEGREE:
            raise self.fail(node, f"degree exceeds {MAX_DEGREE}")
        if terms > MAX_TERMS:
            raise self.fail(node, f"expands to more than {MAX_TERMS} terms")
        return terms

    def expanded(self, node: ast.AST, expr: sympy.Expr) -> None:
        """Bound an expansion about to be done, and count it as work."""
        self.work += self.check(node, *expansion_size(expr))
        self.charge_early(node)

    def charge_early(self, node: ast.AST) -> None:
        """Refuse as soon as this expression alone would pass the file's remaining budget."""
        budget = self.names.budget
        if budget.used + self.work > budget.limit:
            raise self.fail(node, f"the file's expressions expand to more than {budget.limit} "
                            "terms in all (the limit of a proof file)")

    def scaled(self, node: ast.AST, vector: Vec, factor: sympy.Expr) -> Vec:
        """`factor * vector`, refused before expanding if a coefficient would explode."""
        for coeff in vector.values():
            self.expanded(node, sympy.Mul(factor, coeff))
        return vector.scaled(factor)

    def subscript(self, node: ast.Subscript) -> Value:
        """`y[i]`: a member of a declared family at a polynomial index."""
        if not isinstance(node.value, ast.Name) or node.value.id not in self.names.indexed:
            raise self.fail(node, "only a family declared in `indexed` takes an index")
        index = self.scalar(node.slice)
        if not all(_INDEX_NAME.fullmatch(s.name) for s in index.free_symbols):
            raise self.fail(node.slice, "an index is a polynomial in scalars and sum indices "
                            "(no family member, dot, norm2 or sum inside it)")
        try:
            name = indexed.member(node.value.id, index)
        except indexed.NotPolynomial:
            raise self.fail(node, "an index is a polynomial (no division)") from None
        return Vec.named(name) if node.value.id in self.names.vectors else sympy.Symbol(name)

    def finite_sum(self, node: ast.Call) -> Value:
        """`sum(j in lo..hi, body)` or `sum(j in M, body)`: a scalar sum, or a sum of vectors
        (a `Vec` key, expanded by `product`)."""
        if (node.keywords or len(node.args) != 2 or not isinstance(node.args[0], ast.Compare)
                or len(node.args[0].ops) != 1 or not isinstance(node.args[0].ops[0], ast.In)
                or not isinstance(node.args[0].left, ast.Name)):
            raise self.fail(node, "a sum is written sum(j in lo..hi, body) or sum(j in M, body)")
        index, where = node.args[0].left.id, node.args[0].comparators[0]
        if isinstance(where, ast.Name) and where.id in self.names.sets:
            if where.id in self.reading:
                raise self.fail(where, f"set {where.id} is read inside its own range or "
                                "`where` (a set cannot be defined through itself)")
            if len(self.reading) >= MAX_SET_NESTING:
                raise self.fail(where, f"sets nested more than {MAX_SET_NESTING} deep (a "
                                "set's condition reads a set whose condition reads a set)")
            declared = self.names.sets[where.id]
            lo, hi = (self.sub(text, {}, where.id).bound(_parse(text))
                      for text in (declared.lo, declared.hi))
            named: str | None = where.id
        elif isinstance(where, ast.BinOp) and isinstance(where.op, ast.RShift):
            if index in {n.id for n in ast.walk(where) if isinstance(n, ast.Name)}:
                raise self.fail(where, f"a sum's range may not mention its own index {index}")
            lo, hi, named = self.bound(where.left), self.bound(where.right), None
        else:
            raise self.fail(where, "a sum ranges over lo..hi or a declared set (in [sets])")
        found = _VectorSum(index, lo, hi, named, node.args[1], tuple(self.scope.items()))
        walked = self.sub_walk(found)
        if isinstance(walked[1], Vec):
            key = f"@{self.new()}"
            self.sums[key] = found
            return Vec.named(key)
        return self.summed(found, lambda body: body, walked)

    def new(self) -> int:
        """A number no other name of this expression has (fresh indices, vector sums)."""
        self.fresh[0] += 1
        while f"_i{self.fresh[0]}" in self.names.vectors | self.names.scalars:
            self.fresh[0] += 1
        return self.fresh[0]

    def bound(self, node: ast.expr) -> sympy.Expr:
        """A bound of a sum: a polynomial with integer coefficients in declared scalars (the
        kernel wants them natural), no family, sum or index of an enclosing sum."""
        polynomial, self.polynomial = self.polynomial, True
        try:
            value = self.scalar(node)
        finally:
            self.polynomial = polynomial
        if not all(s.name in self.names.scalars and s.name not in self.names.indexed and
                   s not in self.scope.values() for s in value.free_symbols) or any(
                not c.is_Integer for c in sympy.Poly(value, *value.free_symbols or [
                    sympy.Symbol("_")]).coeffs()):
            raise self.fail(node, "a bound of a sum is a polynomial with integer coefficients "
                            "in declared naturals (no family, sum or enclosing index)")
        return value

    def sub(self, text: str, scope: dict[str, sympy.Symbol], declared: str) -> _Walker:
        """A walker of another text (the range or a `where` of the set `declared`) in its own
        `scope`, sharing fresh names and the budget."""
        return _Walker(text, self.names, scope, self.fresh, polynomial=True,
                       reading=(*self.reading, declared))

    def sub_walk(self, found: _VectorSum) -> tuple[sympy.Symbol, Value, list]:
        """The body of a sum walked with its index bound to a fresh name, and its filters: a
        declared set's `where` read where it is declared, its own index the only one bound
        (a name of the file it mentions stays that name, even inside a sum whose index is
        spelled the same: `sum(k in 1..N, sum(l in M, ...))` does not make M depend on k)."""
        symbol = sympy.Symbol(f"_i{self.new()}")
        filters = []
        if found.set is not None:
            declared = self.names.sets[found.set]
            for text in declared.where:
                walker = self.sub(text, {declared.index: symbol}, found.set)
                relation = walker.relation(_parse(text))
                gap = relation.lhs - relation.rhs if relation.op in (">=", ">", "==") else (
                    relation.rhs - relation.lhs)
                filters.append((gap, {"<=": ">=", "<": ">"}.get(relation.op, relation.op)))
        scope = {**dict(found.scope), found.index: symbol}
        walker = _Walker(self.text, self.names, scope, self.fresh, polynomial=True,
                         reading=self.reading)
        body = walker.value(found.body)
        self.work += walker.work
        self.sums.update(walker.sums)
        return symbol, body, filters

    def summed(self, found: _VectorSum, read: Callable[[Value], Value],
               walked: tuple[sympy.Symbol, Value, list] | None = None) -> sympy.Expr:
        """The sum over `found`'s set of `read(body)`, a scalar (`walked`: its body walked)."""
        symbol, body, filters = walked or self.sub_walk(found)
        value = read(body)
        if isinstance(value, Vec):
            raise self.fail(found.body, "a vector is used outside dot()/norm2()")
        try:
            return indexed.finite_sum(symbol, found.lo, found.hi, filters, value)
        except indexed.NotPolynomial:
            raise self.fail(found.body, _POLYNOMIAL_SUM) from None
        except indexed.TooLong as error:
            raise self.fail(found.body, str(error)) from None

    def relation(self, tree: ast.expr) -> Relation:
        """A relation of a declared set's `where`, read in this walker's scope."""
        if not isinstance(tree, ast.Compare) or len(tree.ops) != 1 or type(
                tree.ops[0]) not in RELATIONS:
            raise self.fail(tree, "a set's `where` holds relations (<= < >= > ==)")
        return Relation(self.scalar(tree.left), RELATIONS[type(tree.ops[0])],
                        self.scalar(tree.comparators[0]), self.text)

    def product(self, a: Vec, b: Vec) -> sympy.Expr:
        """`dot(a, b)`, bilinear: a sum of vectors is read term by term (its index fresh at
        each reading, so `norm2(sum(j in S, x[j]))` is a double sum over two indices)."""
        total = sympy.Integer(0)
        for ka, ca in a.items():
            for kb, cb in b.items():
                if ka in self.sums:
                    term = self.summed(self.sums[ka], lambda v, kb=kb: self.product(
                        v, Vec.named(kb)))  # type: ignore[arg-type]
                elif kb in self.sums:
                    term = self.summed(self.sums[kb], lambda v, ka=ka: self.product(
                        Vec.named(ka), v))  # type: ignore[arg-type]
                else:
                    term = gram(ka, kb)
                total += ca * cb * term
        return sympy.expand(total)

    def call(self, node: ast.Call) -> Value:
        if isinstance(node.func, ast.Name) and node.func.id == "sum":
            return self.finite_sum(node)
        if not isinstance(node.func, ast.Name) or node.func.id not in _CALLS:
            called = node.func.id if isinstance(node.func, ast.Name) else ""
            hint = (f'; define it: [define] r = "{ast.unparse(node)}", then write r'
                    if called in ("sqrt", "norm", "max", "min") else "")
            raise self.fail(node, f"only dot(a, b), norm2(a) and sum(j in S, body) may be "
                            f"called{hint}")
        arity, _ = _CALLS[node.func.id]
        if node.keywords or len(node.args) != arity:
            raise self.fail(node, f"{node.func.id} takes {arity} vector argument(s)")
        vectors = [self.vector(arg) for arg in node.args]
        first, second = vectors[0], vectors[-1]
        # dot expands every coefficient product at once: bound that sum before expanding,
        # from the coefficients' sizes (building the unexpanded sum would cost as much).
        sizes = [[expansion_size(c) for c in v.values()] for v in (first, second)]
        degree = max((da + db + 1 for da, _ in sizes[0] for db, _ in sizes[1]), default=0)
        terms = sum(ta * tb for _, ta in sizes[0] for _, tb in sizes[1])
        self.work += self.check(node, degree, terms)
        self.charge_early(node)
        return self.product(first, second)

    HANDLERS: ClassVar[dict[type[ast.expr], Callable[[_Walker, ast.expr], Value]]] = {
        ast.Constant: constant,
        ast.Name: name,
        ast.UnaryOp: unary,
        ast.BinOp: binary,
        ast.Call: call,
        ast.Subscript: subscript,
    }


def expansion_size(expr: sympy.Expr) -> tuple[int, int]:
    """Upper bounds on (total degree, number of terms) of the expansion of `expr`, predicted
    from its tree without expanding (linear in the size of the tree): a sum adds its terms'
    counts, a product multiplies them, `s**n` of a sum of `t` terms has at most
    `comb(n + t - 1, t - 1)` (the monomials of degree `n` in `t` unknowns). Counts are
    clipped just above `MAX_TERMS`, so huge predictions stay cheap to compute."""
    if expr.is_Atom:
        return (1 if expr.is_Symbol else 0), 1
    parts = [expansion_size(arg) for arg in expr.args]
    if expr.is_Add:
        return max(d for d, _ in parts), min(sum(t for _, t in parts), MAX_TERMS + 1)
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


def coefficient_bits(expr: sympy.Expr) -> int:
    """An upper bound on the bits of the numerator and of the denominator of every
    coefficient of the expansion of `expr`, predicted from its tree as `expansion_size` is:
    a rational constant counts its own, a product (or a sum: fractions over different
    denominators) adds its parts', `s**n` multiplies `s`'s by `n` and adds the multinomial
    coefficients' (at most `t**n` for `t` terms)."""
    if expr.is_Rational:
        return max(expr.p.bit_length(), expr.q.bit_length())
    if expr.is_Atom:
        return 1
    parts = [coefficient_bits(arg) for arg in expr.args]
    if expr.is_Add or expr.is_Mul:
        return sum(parts) + len(parts).bit_length()
    if expr.is_Pow and expr.exp.is_Integer:
        n = abs(int(expr.exp))
        return n * (parts[0] + expansion_size(expr.base)[1].bit_length())
    return MAX_COEFFICIENT_BITS + 1


#: How deep sets may be read inside sets' conditions: each level reads every sum of the one
#: below again (with its own index), so the text of a chain grows with the product of the
#: sums per condition; the conditions of the sources need no set at all.
MAX_SET_NESTING = 2
_POLYNOMIAL_SUM = ("the bounds, set and body of a sum are polynomials (no division inside a "
                   "sum, but by a nonzero constant)")
_INDEX_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|#~?[A-Za-z0-9_]+")  # a name, an index (#0)
"""What an index may read, as the kernel's `vector_name` does: names and sum indices (`#0`,
and `#j` where the checker reads a set's condition); no member, Gram symbol or sum."""
_CALLS: dict[str, tuple[int, None]] = {"dot": (2, None), "norm2": (1, None)}
