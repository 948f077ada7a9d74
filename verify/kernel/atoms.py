"""The atoms of the kernel's polynomials: what each variable of a judgement stands for.

Every variable is a plain SymPy Symbol whose name says exactly what it is, so a judgement,
a certificate or a stored entry means the same in any process, with no table to consult:

- `a`: a scalar name (an identifier); `<a,b>`: the inner product of two vectors (names sorted);
- `y[I]`: a *family* `y` (any function from the reals to the reals, or, inside a Gram symbol,
  to the vectors: `<w,x[I]>`) at the index `I`, a polynomial in names and bound indices;
- `sum(#h in LO..HI where nonneg(F), pos(G), zero(E): BODY)`: the sum of BODY over the
  integers j with LO <= j <= HI at which F >= 0, G > 0 and E == 0 (each read with `#h` := j):
  0 when no integer qualifies, in particular when HI < LO. LO and HI are polynomials with
  integer coefficients in plain names (the rules require those to be naturals, so the bounds
  are integers); they never mention a bound index (`sum(j in 1..j, ...)` is refused).

Names are canonical: polynomials are printed expanded, terms and factors in a fixed order
(`text`); a sum's body is split by linearity into its coefficients free of the index times
sums of what depends on it (`finite_sum`: `sum(j in S, a*y[j] + b) = a*sum(j in S, y[j]) +
b*sum(j in S, 1)` for every finite S, the empty one included), filters are scaled to a
leading coefficient 1 and sorted, and the bound index is `#h` with h one more than the
largest index bound inside (so alpha-equivalent sums have one name and an inner sum never
shadows an outer one). A name is read back by `structure`, which rebuilds it through these
constructors and refuses it unless it comes out the same: no name the constructors would not
make is ever read. `#h` names are bound: free at the top of a statement they are refused
(`check`), and substitution (`substitute`) renames a sum's own index before it enters, so no
substituted term is captured. `World` evaluates atoms exactly at a concrete point.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import comb, prod

import sympy

__all__ = ["Family", "KernelError", "Sum", "World", "bound_names", "canonical", "check", "dot",
           "family", "finite_sum", "gram", "gram_pair", "head", "named", "names_of", "structure",
           "substitute", "text", "vector_name", "vector_names"]
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
INDEX = re.compile(r"#~?[0-9]+")  # a bound index (`#~h`: renamed while a substitution enters)
_GRAM = re.compile(r"^<([A-Za-z_][A-Za-z0-9_]*),([A-Za-z_][A-Za-z0-9_]*)>$")
MAX_NAME = 4000  # characters of one atom's name (hostile input is refused, not parsed)
MAX_HEIGHT = 6  # sums nested at most this deep
MAX_RANGE = 2000  # integers a sum may range over when it is evaluated at a point
MAX_WORK = 200_000  # body evaluations one point may ask for
MAX_TERMS = 100_000  # terms an expansion may make (hostile input is refused before it is made)
MAX_BITS = 1 << 18  # bits of one exact value an evaluation may make (16 times a run's states)
KINDS = {">=": "nonneg", ">": "pos", "==": "zero"}
Vector = Mapping[str, sympy.Expr]  # an explicit vector: vector names to coefficients
Terms = tuple[tuple[Fraction, tuple[tuple[sympy.Symbol, int], ...]], ...]
CORE = (sympy.Add, sympy.Mul, sympy.Pow, sympy.Symbol, sympy.Dummy, sympy.Rational, sympy.Integer,
        *map(type, (sympy.S.Zero, sympy.S.One, sympy.S.NegativeOne, sympy.S.Half)))  # by exact type


class KernelError(ValueError):
    """Evidence or a statement the kernel does not accept; the message says exactly why."""


@dataclass(frozen=True)
class Family:
    """`family[index]`: a member of a family of scalars or vectors."""
    family: str
    index: sympy.Expr


@dataclass(frozen=True)
class Sum:
    """The sum of `body` over the integers `#bound` in lo..hi where every filter holds."""
    bound: int
    lo: sympy.Expr
    hi: sympy.Expr
    filters: tuple[tuple[sympy.Expr, str], ...]
    body: sympy.Expr


def _terms(e: sympy.Expr, what: str, memo: bool = True) -> Terms:
    """The polynomial `e` as (coefficient, ((symbol, exponent), ...)) terms, expanded."""
    if memo and all(type(n) in CORE and type(getattr(n, "name", "")) is str  # exact types:
                    for n in sympy.preorder_traversal(e)):  # equal only when identical
        return _known(e, what, False)
    if _predicted(e) > MAX_TERMS:  # SymPy would expand it first: `s := ((s + 1)**64 + 1)**64`
        raise KernelError(f"{what} would expand to more than {MAX_TERMS} terms")
    symbols = sorted(e.free_symbols, key=lambda s: s.name) or [sympy.Symbol("_")]
    try:
        poly = sympy.Poly(e, *symbols, domain="QQ")
    except sympy.polys.polyerrors.PolynomialError as error:
        raise KernelError(f"{what} is not a polynomial over QQ: {e}") from error
    return tuple((Fraction(int(c.numerator), int(c.denominator)),
                  tuple((s, k) for s, k in zip(symbols, m, strict=True) if k))
                 for m, c in poly.terms() if c)  # immutable: `_known` memoises it


_known = lru_cache(maxsize=1 << 14)(_terms)  # a proof's statements reread the same polynomials


def _predicted(e: sympy.Expr) -> int:
    """A bound on the terms of `e` expanded, capped past MAX_TERMS: a sum adds them, a
    product multiplies them, the n-th power of k terms has at most C(k + n - 1, n)."""
    if e.is_Add or e.is_Mul:
        return min((sum if e.is_Add else prod)(map(_predicted, e.args)), MAX_TERMS + 1)
    if e.is_Pow and e.exp.is_Integer and (n := int(e.exp)) > 1 and (k := _predicted(e.base)) > 1:
        return comb(k + n - 1, n) if min(k - 1, n) < 64 else MAX_TERMS + 1
    return 1


def bits(value: object) -> int:
    """The bits of an exact number (numerator and denominator); 0 for a polynomial."""
    return value.numerator.bit_length() + value.denominator.bit_length() if isinstance(
        value, Fraction) else 0


def bounded(value: Fraction, power: int = 1) -> Fraction:
    """`value ** power`, refused before it is made unless it has at most MAX_BITS bits:
    a hostile point or polynomial asks for no unbounded work."""
    if power * bits(value) > MAX_BITS:
        raise KernelError(f"evaluating this makes a number of more than {MAX_BITS} bits")
    return value**power


def _monomial(factors: tuple[tuple[sympy.Symbol, int], ...]) -> str:
    return "*".join(s.name if k == 1 else f"{s.name}**{k}" for s, k in factors)


def text(e: sympy.Expr, what: str = "a polynomial") -> str:
    """The canonical text of a polynomial over QQ: expanded, terms ordered by monomial."""
    out = ""
    for c, factors in sorted(_terms(e, what), key=lambda t: _monomial(t[1])):
        mono, size = _monomial(factors), str(abs(c))
        body = (mono if abs(c) == 1 else f"{size}*{mono}") if mono else size
        out += (" - " if out else "-") + body if c < 0 else (" + " if out else "") + body
    return out or "0"


def gram(a: str, b: str) -> sympy.Symbol:
    """The Gram symbol `<a,b>` of two vector names; symmetric by sorting the pair."""
    return sympy.Symbol("<{},{}>".format(*sorted((a, b))))


def vector_name(name: str, index: sympy.Expr) -> str:
    """The name of the member `name[index]` (a scalar, or inside a Gram symbol a vector)."""
    if not IDENT.fullmatch(name) or not all(IDENT.fullmatch(s.name) or INDEX.fullmatch(s.name)
                                            for s in index.free_symbols):
        raise KernelError(f"{name}[{index}]: a family's name is an identifier and its index a "
                          "polynomial in names and bound indices")
    return f"{name}[{text(index, f'the index of {name}')}]"


def family(name: str, index: sympy.Expr) -> sympy.Symbol:
    """The scalar `name[index]`."""
    return sympy.Symbol(vector_name(name, index))


def dot(u: Vector, v: Vector) -> sympy.Expr:
    """The inner product of two explicit vectors, in Gram symbols (bilinear, symmetric)."""
    return sympy.expand(sum((a * b * gram(m, n) for m, a in u.items() for n, b in v.items()),
                            sympy.Integer(0)))


def _bound(e: sympy.Expr, what: str) -> sympy.Expr:
    """A bound of a sum: integer coefficients, plain names only (no atom, no bound index)."""
    if not all(IDENT.fullmatch(s.name) for s in e.free_symbols) or any(
            c.denominator != 1 for c, _ in _terms(e, what)):
        raise KernelError(f"{what} `{e}` is not a polynomial with integer coefficients in "
                          "plain names (a bound of a sum may not mention a bound index)")
    return sympy.expand(e)


def _height(s: sympy.Symbol) -> int:
    found = structure(s)
    return found.bound if isinstance(found, Sum) else 0


def finite_sum(index: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr,
               filters: Iterable[tuple[sympy.Expr, str]], body: sympy.Expr) -> sympy.Expr:
    """`sum(index in lo..hi where filters, body)` in canonical form: by linearity, the
    coefficients of `body` free of `index` times canonical sums of the rest (module doc)."""
    j = index.name
    lo, hi = _bound(lo, "the lower bound"), _bound(hi, "the upper bound")
    if j in names_of(lo) | names_of(hi):
        raise KernelError(f"the set of a sum mentions its own index {j}")
    kept = []
    for p, kind in filters:
        if kind not in KINDS:
            raise KernelError(f"a filter of a sum has kind {kind!r}")
        terms = _terms(p, "a filter of a sum")
        if any(factors for _, factors in terms):
            kept.append((sympy.expand(p), kind))
        elif not _holds(kind, sum((c for c, _ in terms), Fraction(0))):
            return sympy.Integer(0)  # a constant filter that fails: no member
    total = sympy.Integer(0)
    for c, factors in _terms(body, "the body of a sum"):
        depends = sympy.Mul(*(s**k for s, k in factors if j in _names(s.name)))
        rest = sympy.Mul(*(s**k for s, k in factors if j not in _names(s.name)))
        total += sympy.Rational(c.numerator, c.denominator) * rest * _atom(
            index, lo, hi, kept, depends)
    return total


def _atom(index: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr,
          filters: list[tuple[sympy.Expr, str]], body: sympy.Expr) -> sympy.Symbol:
    """One canonical sum: the index renamed `#h` (never captured: checked), and each filter
    scaled by a positive number (any nonzero one for `==`) to lead with 1, then sorted."""
    parts = (body, *(p for p, _ in filters))
    h = 1 + max((_height(s) for e in parts for s in e.free_symbols), default=0)
    if h > MAX_HEIGHT:
        raise KernelError(f"sums nested more than {MAX_HEIGHT} deep")
    new = sympy.Symbol(f"#{h}")
    if new != index and new.name in set().union(*map(names_of, parts)):
        raise KernelError(f"renaming the index of a sum to {new} would capture a free {new}")
    kept = set()
    for p, kind in filters:
        p = substitute(p, {index.name: new}, {})
        lead = sorted(_terms(p, "a filter"), key=lambda t: _monomial(t[1]))[0][0]
        kept.add((sympy.expand(p / (abs(lead) if kind != "==" else lead)), kind))
    where = ", ".join(f"{KINDS[k]}({text(p)})" for p, k in sorted(kept, key=lambda f: (
        text(f[0]), f[1])))
    return sympy.Symbol(f"sum({new} in {text(lo)}..{text(hi)}{' where ' * bool(where)}{where}: "
                        f"{text(substitute(body, {index.name: new}, {}))})")


class _Reader:
    """A recursive-descent reader of atom names; `parts` gives an atom's pieces as read, each
    atom inside them built through the constructors (so in canonical form)."""

    def __init__(self, name: str) -> None:
        self.s, self.i = name, 0

    def eat(self, token: str) -> bool:
        if self.s.startswith(token, self.i):
            self.i += len(token)
            return True
        return False

    def expect(self, token: str) -> None:
        if not self.eat(token):
            raise KernelError(f"atom {self.s[:200]!r}: expected {token!r} at {self.i}")

    def match(self, pattern: str) -> str:
        if not (found := re.compile(pattern).match(self.s, self.i)):
            raise KernelError(f"atom {self.s[:200]!r}: unreadable at {self.i}")
        self.i = found.end()
        return found.group()

    def poly(self) -> sympy.Expr:
        e = -self.term() if self.eat("-") else self.term()
        while (sign := 1 if self.eat(" + ") else -1 if self.eat(" - ") else 0):
            e += sign * self.term()
        return e

    def term(self) -> sympy.Expr:
        if self.s[self.i:self.i + 1].isdigit():
            c = sympy.Rational(self.match(r"[0-9]+(/[0-9]+)?"))
            return c * self.factor() if self.eat("*") else c
        return self.factor()

    def factor(self) -> sympy.Expr:
        e = sympy.Integer(1)
        while True:
            e *= _build(self.parts()) ** (int(self.match(r"[0-9]+")) if self.eat("**") else 1)
            if not self.eat("*"):
                return e

    def vector(self) -> str:
        kind, *rest = self.parts()
        if kind == "family":
            return vector_name(*rest)  # type: ignore[arg-type]
        if kind != "name" or not IDENT.fullmatch(rest[0].name):  # type: ignore[attr-defined]
            raise KernelError(f"atom {self.s[:200]!r}: no vector at {self.i}")
        return rest[0].name  # type: ignore[attr-defined,no-any-return]

    def parts(self) -> tuple[object, ...]:
        """("gram", a, b), ("family", name, index), ("sum", index, lo, hi, filters, body)
        or ("name", symbol)."""
        if self.eat("<"):
            a = self.vector()
            self.expect(",")
            b = self.vector()
            self.expect(">")
            return ("gram", a, b)
        if self.eat("sum("):
            index = sympy.Symbol(self.match(INDEX.pattern + "|" + IDENT.pattern))
            self.expect(" in ")
            lo = self.poly()
            self.expect("..")
            hi, filters = self.poly(), []
            while self.eat(" where " if not filters else ", "):
                kind = {v: k for k, v in KINDS.items()}[self.match("nonneg|pos|zero")]
                self.expect("(")
                filters.append((self.poly(), kind))
                self.expect(")")
            self.expect(": ")
            body = self.poly()
            self.expect(")")
            return ("sum", index, lo, hi, tuple(filters), body)
        name = self.match(INDEX.pattern + "|" + IDENT.pattern)
        if self.eat("["):
            index = self.poly()
            self.expect("]")
            return ("family", name, index)
        return ("name", sympy.Symbol(name))


def _read(name: str) -> tuple[object, ...]:
    """The pieces of an atom's text (`_Reader.parts`), the whole text read."""
    if len(name) > MAX_NAME:
        raise KernelError(f"an atom of {len(name)} characters (at most {MAX_NAME})")
    reader = _Reader(name)
    try:
        found = reader.parts()
    except RecursionError:
        raise KernelError(f"atom {name[:80]!r} is nested too deeply") from None
    if reader.i != len(name):
        raise KernelError(f"atom {name[:200]!r}: unreadable at {reader.i}")
    return found


def _build(parts: tuple[object, ...]) -> sympy.Expr:
    kind, *rest = parts
    maker = {"gram": gram, "family": family, "sum": finite_sum}.get(kind)  # type: ignore[call-overload]
    return maker(*rest) if maker else rest[0]  # type: ignore[no-any-return,operator]


def _plain(name: str) -> bool:
    return bool(IDENT.fullmatch(name) or _GRAM.match(name) or INDEX.fullmatch(name))


def canonical(e: sympy.Expr) -> sympy.Expr:
    """`e` with each atom written in any readable form (a sum's index a user's name, its body
    any polynomial) replaced by what it stands for, in canonical form."""
    table = {s: _build(_read(s.name)) for s in e.free_symbols if not _plain(s.name)}
    return e.xreplace(table) if table else e


def structure(symbol: sympy.Symbol) -> Family | tuple[str, str] | Sum | None:
    """What a family member, Gram or sum symbol stands for; None for a plain name, a bound
    index or a Gram symbol of two names. A name that is not canonical is refused. A copy: the
    memo's own must not reach a caller, who could change it in place (`object.__setattr__`)."""
    found = _structure(symbol.name)
    return replace(found) if isinstance(found, Family | Sum) else found


@lru_cache(maxsize=65536)
def _structure(name: str) -> Family | tuple[str, str] | Sum | None:
    if _plain(name):
        return None
    parts = _read(name)
    kind, *rest = parts
    if kind == "name" or (kind == "sum" and not re.fullmatch(r"#[0-9]+", rest[0].name)) or _build(  # type: ignore[attr-defined]
            parts) != sympy.Symbol(name):
        raise KernelError(f"{name[:200]!r} is not the canonical name of what it says")
    if kind == "gram":
        return tuple(rest)  # type: ignore[return-value]
    if kind == "family":
        return Family(*rest)  # type: ignore[arg-type]
    index, lo, hi, filters, body = rest
    return Sum(int(index.name[1:]), lo, hi, filters, body)  # type: ignore[arg-type,attr-defined]


def gram_pair(symbol: sympy.Symbol) -> tuple[str, str] | None:
    """The vector names of a Gram symbol, or None for any other symbol."""
    if match := _GRAM.match(symbol.name):
        return match.group(1), match.group(2)
    found = structure(symbol)
    return found if isinstance(found, tuple) else None


@lru_cache(maxsize=65536)
def _named(name: str, vector: bool = False) -> frozenset[tuple[str, str]]:
    """Every free name an atom's name (`vector`: a vector name's) mentions, with its sort:
    "scalar", "vector", "family" or "bound" (a free index; a sum's own is not free)."""
    found = _structure(name)
    if found is None:
        pair = _GRAM.match(name)
        return frozenset({("vector", v) for v in pair.groups()} if pair else {(
            "bound" if INDEX.fullmatch(name) else "vector" if vector else "scalar", name)})
    if isinstance(found, tuple):
        return _named(found[0], True) | _named(found[1], True)
    if isinstance(found, Family):
        return frozenset({("family", found.family)} | named(found.index))
    inside = set().union(*(named(p) for p, _ in found.filters), named(found.body))
    return frozenset(named(found.lo) | named(found.hi) | (inside - {("bound", f"#{found.bound}")}))


def named(expr: sympy.Expr) -> set[tuple[str, str]]:
    """Every name `expr` mentions with its sort (`_named`), inside sums and indices too."""
    return set().union(*(_named(s.name) for s in expr.free_symbols))


@lru_cache(maxsize=65536)
def _names(name: str) -> frozenset[str]:
    return frozenset(n for _, n in _named(name))


def names_of(expr: sympy.Expr) -> set[str]:
    """Every scalar, vector and family name `expr` mentions, inside sums and indices too."""
    return set().union(*(_names(s.name) for s in expr.free_symbols))


def vector_names(name: str) -> frozenset[str]:
    """The names a vector name mentions (a member: its family and its index's names);
    refused unless it is an identifier or a canonical member."""
    if not IDENT.fullmatch(name) and not (re.match(IDENT.pattern + r"\[", name) and
                                          isinstance(_structure(name), Family)):
        raise KernelError(f"vector name {name[:200]!r} is not an identifier (nor a family "
                          "member x[i])")
    return frozenset(n for _, n in _named(name, True))


def head(name: str) -> str:
    """The declared name behind a vector name: itself, or a member's family."""
    return name if IDENT.fullmatch(name) else _structure(name).family  # type: ignore[union-attr]


def check(symbol: sympy.Symbol, what: str) -> None:
    """`symbol` may stand at the top of a statement: canonical, no bound index free in it."""
    if any(n.startswith("#") for n in _names(symbol.name)):
        raise KernelError(f"{what}: {symbol.name[:200]!r} mentions a bound index outside "
                          "its sum")


def bound_names(expr: sympy.Expr) -> set[str]:
    """The names the bounds of the sums in `expr` mention (the rules want them natural)."""
    out: set[str] = set()
    for s in expr.free_symbols:
        if isinstance(found := structure(s), Sum):
            out |= names_of(found.lo) | names_of(found.hi) | set().union(
                *map(bound_names, (found.body, *(p for p, _ in found.filters))))
    return out


def substitute(e: sympy.Expr, scalars: Mapping[str, sympy.Expr],
               vectors: Mapping[str, Vector]) -> sympy.Expr:
    """`e` with scalar names replaced by expressions and vector names by explicit vectors, at
    once, inside indices and sums too; a sum's own index is renamed `#~h` first, so no
    replacement is captured, and the sum is rebuilt in canonical form (`finite_sum`)."""
    keys = set(scalars) | set(vectors)
    table = {s: _replace(s, scalars, vectors) for s in e.free_symbols if keys & _names(s.name)}
    return e.xreplace(table) if table else e


def _replace(s: sympy.Symbol, scalars: Mapping[str, sympy.Expr],
             vectors: Mapping[str, Vector]) -> sympy.Expr:
    if s.name in scalars:
        return scalars[s.name]
    found = structure(s)
    if isinstance(found, Family):
        return family(found.family, substitute(found.index, scalars, vectors))
    if isinstance(found, Sum):
        own, temp = f"#{found.bound}", sympy.Symbol(f"#~{found.bound}")
        inner = {**{k: v for k, v in scalars.items() if k != own}, own: temp}
        return finite_sum(temp, substitute(found.lo, scalars, vectors),
                          substitute(found.hi, scalars, vectors),
                          [(substitute(p, inner, vectors), k) for p, k in found.filters],
                          substitute(found.body, inner, vectors))

    def explicit(v: str) -> Vector:  # a Gram symbol: of two names, or of members too
        if IDENT.fullmatch(v):
            return vectors.get(v, {v: sympy.Integer(1)})
        member = _structure(v)
        return {vector_name(member.family, substitute(member.index, scalars, vectors)):  # type: ignore[union-attr]
                sympy.Integer(1)}
    return dot(*map(explicit, gram_pair(s)))  # type: ignore[arg-type]


def _holds(kind: str, value: Fraction) -> bool:
    return value > 0 if kind == ">" else value >= 0 if kind == ">=" else value == 0


class World:
    """A concrete point: exact scalars, vectors of one dimension, and families (index to
    value; 0, or the zero vector, wherever not given). Evaluates every atom exactly, sums
    included, counting the work so that no point can ask for unbounded work."""

    def __init__(self, scalars: Mapping[str, Fraction], vectors: Mapping[str, tuple[Fraction, ...]],
                 families: Mapping[str, Mapping[Fraction, Fraction | tuple[Fraction, ...]]],
                 dimension: int) -> None:
        self.scalars, self.vectors, self.families = scalars, vectors, families
        self.dimension, self.work = dimension, 0

    def value(self, symbol: sympy.Symbol, env: Mapping[str, Fraction] | None = None) -> Fraction:
        """The value of a symbol here (`env`: the values of the bound indices)."""
        env, name = env or {}, symbol.name
        if name in env:
            return env[name]
        if IDENT.fullmatch(name):
            if name not in self.scalars:
                raise KernelError(f"scalar {name} is not assigned")
            return self.scalars[name]
        found = gram_pair(symbol) or structure(symbol)
        if isinstance(found, tuple):
            u, v = (self._vector(n, env, name) for n in found)
            return sum((a * b for a, b in zip(u, v, strict=True)), Fraction(0))
        if isinstance(found, Family):
            entry = self._member(found, env)
            if isinstance(entry, tuple):
                raise KernelError(f"{found.family} is a family of vectors, read as a scalar")
            return entry or Fraction(0)
        if not isinstance(found, Sum):
            raise KernelError(f"{name} is a bound index outside its sum")
        lo, hi = self.of(found.lo, env), self.of(found.hi, env)
        if lo.denominator != 1 or hi.denominator != 1 or hi - lo >= MAX_RANGE:
            raise KernelError(f"a sum over {lo}..{hi}: the bounds must be integers, at most "
                              f"{MAX_RANGE} apart")
        total = Fraction(0)
        for k in range(int(lo), int(hi) + 1):
            self.work += 1
            if self.work > MAX_WORK:
                raise KernelError(f"evaluating the sums here takes more than {MAX_WORK} terms")
            at = {**env, f"#{found.bound}": Fraction(k)}
            if all(_holds(kind, self.of(p, at)) for p, kind in found.filters):
                total = bounded(total + self.of(found.body, at))
        return total

    def of(self, e: sympy.Expr, env: Mapping[str, Fraction] | None = None) -> Fraction:
        """The value of a polynomial here."""
        total = Fraction(0)
        for c, factors in _terms(e, "a polynomial"):
            for s, power in factors:
                c = bounded(c * bounded(self.value(s, env), power))
            total = bounded(total + c)
        return total

    def vector(self, name: str) -> tuple[Fraction, ...]:
        """The coordinates of a vector or of a family member of vectors here."""
        return self._vector(name, {}, name)

    def _member(self, member: Family, env: Mapping[str, Fraction]
                ) -> Fraction | tuple[Fraction, ...] | None:
        return self.families.get(member.family, {}).get(self.of(member.index, env))

    def _vector(self, name: str, env: Mapping[str, Fraction], gram: str) -> tuple[Fraction, ...]:
        if IDENT.fullmatch(name):
            if name not in self.vectors:
                raise KernelError(f"vector {name} (in {gram}) is not assigned")
            return self.vectors[name]
        entry = self._member(_structure(name), env)  # type: ignore[arg-type]
        if entry is not None and not isinstance(entry, tuple):
            raise KernelError(f"{name} is a member of a family of scalars, read as a vector")
        return entry or (Fraction(0),) * self.dimension
