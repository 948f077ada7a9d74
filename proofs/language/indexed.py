"""Families and finite sums as the parser builds them: symbols whose names the kernel reads.

`y[j]` (a member of a declared family, `indexed = ["y"]`), `<w,x[j]>` (a Gram symbol of a
member of a family of vectors) and `sum(i in LO..HI where nonneg(P), pos(Q), zero(E): BODY)`
are SymPy Symbols whose names are texts in the grammar of `verify.kernel.atoms`, which reads
them back and rewrites each sum in its canonical form (linearity, its own name for the
index). Here a text only has to mean what the user wrote: the parser prints every sum's index
as a fresh name (`_i1`, `_i2`, ... never a declared one), so nothing in a body is captured
whatever the user called the index. The two spellings of the grammar (this printer, the
kernel's reader) must agree: the kernel's tests build their sums with its own constructors,
and tests/test_proofs reads proof files with sums through the kernel.

`names_in` is the language's reading of a symbol's names (a Gram symbol names its vectors, a
member its family and the names of its index, a sum everything it mentions but its index),
for the checks of declared names before the kernel sees a step.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

import sympy

from proofs.language.terms import gram_pair

_FREE: dict[str, frozenset[str]] = {}  # name of each member and sum built -> the names in it
KINDS = {">=": "nonneg", ">": "pos", "==": "zero"}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class NotPolynomial(ValueError):
    """An index, bound, filter or body that divides by something not constant."""


class TooLong(ValueError):
    """A sum whose text passes `MAX_SUM_TEXT` characters, or nested past `MAX_SUM_DEPTH`."""


#: The most characters of a sum's text (the name of the symbol built here): the kernel reads
#: no atom longer (`verify.kernel.atoms.MAX_NAME`, the same measure of the same text), so a
#: step with a longer one could only be `unknown`: bad input, refused where it is written.
MAX_SUM_TEXT = 4000

#: The most sums written one inside another (a sum in a sum's body or filter): the kernel
#: reads none nested deeper (`verify.kernel.atoms.MAX_HEIGHT`), so a step with a deeper one
#: could only be `unknown`: bad input, refused where it is written.
MAX_SUM_DEPTH = 6
_DEPTH: dict[str, int] = {}  # name of each sum built -> how many sums it nests, itself included


def text(e: sympy.Expr) -> str:
    """`e`, a polynomial over QQ, in the kernel's grammar: expanded, `c*a*b**2` terms.

    A symbol is its name; anything else is printed once per expression in a process
    (`_printed`): the built-in proofs ask 2 148 times for 169 texts (the index of a member,
    a sum's bound), and each expansion to a SymPy `Poly` took 0.2 ms, the largest share of
    reading a proof with sums (chan-batch: 0.26 of 0.4 CPU-seconds, read before the audit's
    pool has work)."""
    if type(e) is sympy.Symbol:
        return e.name
    return _printed(e)


@lru_cache(maxsize=4096)
def _printed(e: sympy.Expr) -> str:
    """`text(e)`, computed (equal expressions are the same polynomial, so the same text)."""
    e = sympy.expand(e)
    symbols = sorted(e.free_symbols, key=lambda s: s.name) or [sympy.Symbol("_")]
    try:
        poly = sympy.Poly(e, *symbols, domain="QQ")
    except sympy.polys.polyerrors.PolynomialError:
        raise NotPolynomial(f"{e} is not a polynomial") from None
    terms = sorted(("*".join(s.name if k == 1 else f"{s.name}**{k}"
                             for s, k in zip(symbols, monomial, strict=True) if k),
                    Fraction(int(c.numerator), int(c.denominator)))
                   for monomial, c in poly.terms())  # by monomial, as the kernel orders them
    out = ""
    for factors, value in terms:
        body = factors if abs(value) == 1 and factors else (
            f"{abs(value)}*{factors}" if factors else str(abs(value)))
        out += (" - " if out else "-") + body if value < 0 else (" + " if out else "") + body
    return out or "0"


def member(family: str, index: sympy.Expr) -> str:
    """The name of `family[index]` (a scalar symbol, or a vector name inside a Gram symbol)."""
    name = f"{family}[{text(index)}]"
    _FREE[name] = frozenset({family} | names_in(index))
    return name


def finite_sum(index: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr,
               filters: list[tuple[sympy.Expr, str]], body: sympy.Expr) -> sympy.Symbol:
    """The sum of `body` over the integers `index` in lo..hi where every filter holds."""
    inner = (body, *(p for p, _ in filters))
    depth = 1 + max((_depth(x.name) for e in inner for x in e.free_symbols), default=0)
    if depth > MAX_SUM_DEPTH:
        raise TooLong(f"sums nested more than {MAX_SUM_DEPTH} deep")
    where = ", ".join(f"{KINDS[kind]}({text(p)})" for p, kind in filters)
    name = (f"sum({index.name} in {text(lo)}..{text(hi)}{' where ' * bool(where)}{where}: "
            f"{text(body)})")
    if len(name) > MAX_SUM_TEXT:
        raise TooLong(f"a sum of {len(name)} characters as the kernel reads it (at most "
                      f"{MAX_SUM_TEXT})")
    inside = set().union(names_in(body), *(names_in(p) for p, _ in filters))
    _FREE[name] = frozenset(names_in(lo) | names_in(hi) | (inside - {index.name}))
    _DEPTH[name] = depth
    return sympy.Symbol(name)


def names_in(expr: sympy.Expr) -> set[str]:
    """Every name `expr` mentions (see the module docstring)."""
    return set().union(*(symbol_names(s) for s in expr.free_symbols))


def symbol_names(symbol: sympy.Symbol) -> frozenset[str]:
    """The names one symbol mentions: itself, a Gram symbol's vectors, or what a member or a
    sum the parser built mentions (a Gram symbol of members too)."""
    if pair := gram_pair(symbol):
        return frozenset(pair)
    if symbol.name.startswith("<") and symbol.name.endswith(">"):
        a, _, b = symbol.name[1:-1].partition(",")
        return _built(a) | _built(b)
    return _built(symbol.name)


_WORD = re.compile(r"#~?[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_]*")  # a placeholder `#j` too
_CALL = re.compile(r"\b(?:sum|nonneg|pos|zero)\(")
_BOUND = re.compile(r"\bsum\(([A-Za-z_][A-Za-z0-9_]*) in ")


def _built(name: str) -> frozenset[str]:
    """What a name mentions: recorded when this process built it (`member`, `finite_sum`),
    else read from its text, where a proof built in another process arrived pickled (an
    audit's worker: red team, 2026-11-28, its termwise lemmas were refused as reading
    undeclared sums). The text is the grammar above: the words of a member or a sum but the
    call words, `in`, the keyword `where` and the sums' own indices (fresh `_iK` names)."""
    if name in _FREE:
        return _FREE[name]
    if "[" not in name and not name.startswith("sum("):
        return frozenset({name})
    bound = set(_BOUND.findall(name))
    words = _WORD.findall(_CALL.sub("(", name).replace(" where (", " ("))
    _FREE[name] = frozenset(w for w in words if w not in bound and w != "in")
    return _FREE[name]


def _depth(name: str) -> int:
    """How many sums a name nests, itself included (0: not a sum), recorded or read."""
    if name in _DEPTH or not name.startswith("sum("):
        return _DEPTH.get(name, 0)
    deepest, opened = 0, []
    for match in re.finditer(r"\bsum\(|[()]", name):
        if match.group() == ")":
            opened.pop()
        else:
            opened.append(match.group() != "(")
            deepest = max(deepest, sum(opened))
    _DEPTH[name] = deepest
    return deepest
