"""The sum rules: identities between finite sums, stated and checked by the kernel.

Each is an axiom schema valid for EVERY finite set, the empty one included, wherever its
conditions hold (docs/proof-files.md says the same for users). For S = sum(j in lo..hi where
F, body) (`atoms`: lo, hi integers, F the filters, j bound):

- `empty`: S == 0 when lo - hi - 1 >= 0 (hi < lo: no integer between them).
- `last`: S == sum(j in lo..hi - 1 where F, body) + body(hi) when hi - lo >= 0 and every
  filter holds at hi: lo..hi is lo..hi - 1 and hi, and hi is a member.
- `skip` (at = k): S == sum(j in lo..hi - 1 where F, body) when hi - lo >= 0 and filter k
  fails at hi (`p >= 0` fails as -p > 0, `p > 0` as -p >= 0, `p == 0` as p > 0, or with
  at = -k - 1 as -p > 0): hi is no member.
- `split` (at = m): S == sum over lo..m + sum over m + 1..hi when m - lo + 1 >= 0 and
  hi - m >= 0 (m between lo - 1 and hi: the two ranges partition lo..hi).
- `shift` (at = c): S == sum(j in lo + c..hi + c where F(j - c), body(j - c)), always
  (j -> j + c is a bijection of the integers).
- `count`: sum(j in lo..hi, 1) == hi - lo + 1 when hi - lo + 1 >= 0.
- `swap`: S == sum(l in B where G, sum(j in lo..hi where F, P(j)*b(j, l))) when body =
  P(j)*sum(l in B where G, b(j, l)), its only sum, and G free of j (bounds always are): one
  sum over the product set, in either order. A set depending on j (l <= j) is refused.
- `congruence` (var = n, at = k) of any member, Gram symbol or sum A: A == A[n := k] when
  n - k == 0 (an atom is a function of its names' values; substitution captures nothing).

A named vector sum (`VectorSum`) is a definition, not an identity between sums: a fresh vector
name S standing for sum(j in lo..hi where F, v_j) (v_j an explicit vector, its coefficients
and members reading j). In every model where the bounds are integers (the rules want their
names natural) the sum is a vector of the model's space, and by bilinearity `<S, w> =
sum(j, <v_j, w>)` for every vector w free of j, `<S, T> = sum(l in T's set, <S, u_l>)` for
another named sum T = sum(l, u_l), S itself included (`definitions`). An obligation may
assume these facts when S is a name it does not otherwise read: any model of it extends to
one of its facts by taking S to be the sum, and the claim, free of S, holds there.

Linearity and alpha-equivalence are in the sums' canonical form itself (`atoms.finite_sum`),
and the inner product of vector sums is expanded by bilinearity where a statement is read
(`<sum v_j, w> = sum <v_j, w>`), so neither is a rule here. A rule may rewrite a sum inside
the body or filters of others (`within`, innermost first): if B == E wherever conditions C
hold, and C mentions no index, then for every member of an enclosing sum A, B == E there, so
A == A with B replaced by E. Bounds and split points must be integers: `rules` requires the
names they mention to be naturals, in the statement and in every fact made here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import sympy

from verify.kernel import algebra, atoms
from verify.kernel.algebra import Fact, KernelError, Rel

__all__ = ["MAX_MEMBERS", "RULES", "SumRule", "VectorSum"]
RULES = ("empty", "last", "skip", "split", "shift", "count", "swap", "congruence")
ZERO = sympy.Integer(0)


@dataclass(frozen=True)
class SumRule:
    """One identity of a step's sums: `rule` (one of RULES) of the sum `target`, with its
    argument `at` (a split point, a shift, a filter's number), rewritten inside the sums
    `within` (innermost first) when the target is inside their bodies; for the obligation
    labelled `label` only ("": every one that mentions the sum)."""
    rule: str
    target: sympy.Expr
    at: sympy.Expr = ZERO
    within: tuple[sympy.Expr, ...] = ()
    label: str = ""
    var: str = ""  # congruence: the scalar name replaced by `at`


ONE = sympy.Integer(1)
MAX_MEMBERS = 8  # of a named sum's body: <S, T> reads |body S| x |body T| Gram symbols


@dataclass(frozen=True)
class VectorSum:
    """The fresh vector `name` standing for sum(`index` in lo..hi where filters, body), `body`
    an explicit vector (member names and coefficients may read `index`)."""
    name: str
    index: str
    lo: sympy.Expr
    hi: sympy.Expr
    filters: tuple[tuple[sympy.Expr, str], ...]
    body: tuple[tuple[str, sympy.Expr], ...]


def frozen_sum(value: object) -> VectorSum:
    """`value` rebuilt from exact, validated values; KernelError unless its name and index
    are identifiers, its parts do not read its name, nor its bounds its index."""
    if type(value) is not VectorSum:
        raise KernelError("a named vector sum must be a VectorSum")
    parts = [[algebra.items(e, what) for e in algebra.items(getattr(value, what), what)]
             for what in ("filters", "body")]
    if any(len(e) != 2 for part in parts for e in part) or len(parts[1]) > MAX_MEMBERS:
        raise KernelError(f"a named sum's filters and members are pairs, at most {MAX_MEMBERS} "
                          "members (its facts pair every member with every other)")
    out = VectorSum(algebra.text(value.name, "a sum's name"), algebra.text(value.index, "index"),
                    algebra.expr(value.lo, "a bound"), algebra.expr(value.hi, "a bound"), tuple(
        (algebra.expr(p, "a filter"), algebra.text(k, "a filter's kind")) for p, k in parts[0]),
        tuple((algebra.text(v, "a member"), algebra.expr(c, "a coefficient"))
              for v, c in parts[1]))
    if not (atoms.IDENT.fullmatch(out.name) and atoms.IDENT.fullmatch(out.index)) or any(
            n == out.name or n.startswith("#") for n in reads(out)) or out.index in (
            atoms.names_of(out.lo) | atoms.names_of(out.hi)) or not out.body or any(
            k not in atoms.KINDS for _, k in out.filters):
        raise KernelError(f"the vector sum {out.name!r} is not a fresh identifier over a sum "
                          "of vectors whose bounds do not read its index")
    inner(out, {out.name: ONE})  # its reading is well formed
    return out


def reads(s: VectorSum) -> set[str]:
    """Every name S's sum reads (its index among them)."""
    return set().union(*(atoms.vector_names(v) | atoms.names_of(c) for v, c in s.body), *(
        atoms.names_of(p) for p, _ in s.filters), atoms.names_of(s.lo), atoms.names_of(s.hi))


def members(s: VectorSum, j: sympy.Symbol
             ) -> tuple[list[tuple[sympy.Expr, str]], dict[str, sympy.Expr]]:
    """S's filters and body with its index renamed `j` (a member `x[index]` too)."""
    fresh, body = {s.index: j}, {}
    for v, c in s.body:
        found = atoms.structure(sympy.Symbol(v))
        key = atoms.vector_name(found.family, atoms.substitute(found.index, fresh, {})) if (
            isinstance(found, atoms.Family)) else v
        body[key] = body.get(key, ZERO) + atoms.substitute(c, fresh, {})
    return [(atoms.substitute(p, fresh, {}), k) for p, k in s.filters], body


def inner(s: VectorSum, w: atoms.Vector) -> sympy.Expr:
    """`<S, w>` read by bilinearity: the sum over S's set of `<v_j, w>`, S's index renamed
    `#~0` first (no canonical name has it), so a name free in `w` is never captured."""
    filters, body = members(s, j := sympy.Symbol("#~0"))
    return atoms.finite_sum(j, s.lo, s.hi, filters, atoms.dot(body, w))


def definitions(named: tuple[VectorSum, ...], vectors: set[str]) -> tuple[Fact, ...]:
    """The facts `<S, w> == ...` of each named sum S with each of `vectors`, and with each
    named sum T (itself included) as the sum over T's set of `<S, u_l>`, l renamed `#~1`."""
    out = []
    for k, s in enumerate(named):
        out += [Fact(sympy.expand(atoms.gram(s.name, w) - inner(s, {w: ONE})), "==")
                for w in sorted(vectors)]
        for t in named[k:]:
            filters, body = members(t, j := sympy.Symbol("#~1"))
            reading = atoms.finite_sum(j, t.lo, t.hi, filters, inner(s, body))
            out.append(Fact(sympy.expand(atoms.gram(s.name, t.name) - reading), "=="))
    return tuple(out)


def frozen(rule: object) -> SumRule:
    """`rule` rebuilt from exact, validated values (read once), and checked to be an
    instance of its schema; KernelError otherwise."""
    if type(rule) is not SumRule or type(rule.target) is not sympy.Symbol or type(
            rule.target.name) is not str:
        raise KernelError("a sum rule must be a SumRule of a sum")
    out = SumRule(algebra.text(rule.rule, "a sum rule"), sympy.Symbol(rule.target.name),
                  algebra.expr(rule.at, "a sum rule's argument"),
                  tuple(algebra.expr(w, "a sum rule's enclosing sum")
                        for w in algebra.items(rule.within, "a sum rule's enclosing sums")),
                  algebra.text(rule.label, "a sum rule's obligation"),
                  algebra.text(rule.var, "a congruence's name"))
    identity(out)
    return out


def identity(rule: SumRule) -> tuple[Rel, tuple[Fact, ...]]:
    """The fact a rule `frozen` made states (`lhs == rhs`, lhs a sum of the statement) and
    its conditions: copies, as at every exit of a memo (a caller may change them in place)."""
    rel, facts = _identity(rule.rule, rule.target, rule.at, rule.within, rule.var)
    return Rel(rel.lhs, rel.op, rel.rhs, rel.text), tuple(Fact(f.expr, f.kind) for f in facts)


@lru_cache(maxsize=4096)
def _identity(name: str, target: sympy.Symbol, at: sympy.Expr, within: tuple[sympy.Expr, ...],
              var: str) -> tuple[Rel, tuple[Fact, ...]]:
    if not isinstance(s := atoms.structure(target), atoms.Sum) and (s is None or name != (
            "congruence")):  # a congruence rewrites any atom, every other rule a sum
        raise KernelError(f"a sum rule rewrites a sum, not {target} (congruence: any atom)")
    j, one = sympy.Symbol(f"#{getattr(s, 'bound', 0)}"), sympy.Integer(1)

    def part(lo: sympy.Expr, hi: sympy.Expr) -> sympy.Expr:
        return atoms.finite_sum(j, lo, hi, s.filters, s.body)

    def at_(e: sympy.Expr, value: sympy.Expr) -> sympy.Expr:
        return atoms.substitute(e, {j.name: value}, {})

    conditions = [(s.hi - s.lo, ">=")] if isinstance(s, atoms.Sum) else []
    if name == "congruence" and atoms.IDENT.fullmatch(var):
        rhs, conditions = atoms.substitute(target, {var: at}, {}), [(sympy.Symbol(var) - at,
                                                                     "==")]
    elif name == "empty":
        rhs, conditions = ZERO, [(s.lo - s.hi - 1, ">=")]
    elif name == "last":
        rhs = part(s.lo, s.hi - 1) + at_(s.body, s.hi)
        conditions += [(at_(p, s.hi), kind) for p, kind in s.filters]
    elif name == "skip":
        if not (at.is_Integer and -len(s.filters) <= int(at) < len(s.filters)):
            raise KernelError(f"skip: {target} has no filter {at}")
        p, kind = s.filters[int(at) if at >= 0 else -int(at) - 1]
        p = at_(p, s.hi)
        rhs = part(s.lo, s.hi - 1)
        conditions.append((p, ">") if kind == "==" and at >= 0 else (-p, ">" if kind != ">"
                                                                     else ">="))
    elif name == "split":
        rhs, conditions = part(s.lo, at) + part(at + 1, s.hi), [(at - s.lo + 1, ">="),
                                                                (s.hi - at, ">=")]
    elif name == "shift":
        moved = sympy.Symbol("#~0")  # no canonical name has it: a fresh index
        rhs, conditions = atoms.finite_sum(moved, s.lo + at, s.hi + at, [
            (at_(p, moved - at), kind) for p, kind in s.filters], at_(s.body, moved - at)), []
    elif name == "count" and s.body == one and not s.filters:
        rhs, conditions = s.hi - s.lo + 1, [(s.hi - s.lo + 1, ">=")]
    elif name == "swap" and len(inner := [f for f in s.body.free_symbols if isinstance(
            atoms.structure(f), atoms.Sum)]) == 1 and s.body.as_powers_dict()[inner[0]] == 1:
        t: atoms.Sum = atoms.structure(inner[0])  # type: ignore[assignment]
        if any(j.name in atoms.names_of(p) for p, _ in t.filters):  # each: none may cancel
            raise KernelError(f"swap: the inner set of {target} depends on the outer index")
        a, b = sympy.Symbol("#~0"), sympy.Symbol("#0")  # fresh: substitution's own are #~h, h > 0
        ab = {j.name: a, f"#{t.bound}": b}
        inside = atoms.finite_sum(a, s.lo, s.hi, [(atoms.substitute(p, ab, {}), k) for p, k in
                                                  s.filters], atoms.substitute(
            s.body.xreplace({inner[0]: t.body}), ab, {}))
        rhs, conditions = atoms.finite_sum(b, t.lo, t.hi, [
            (atoms.substitute(p, ab, {}), k) for p, k in t.filters], inside), []
    else:
        raise KernelError(f"no sum rule {name!r} for {target} (rules: {', '.join(RULES)})")
    facts = tuple(Fact(sympy.expand(algebra.expr(c, f"a condition of {name}")), kind)
                  for c, kind in conditions)  # refuses a bound index free in a condition
    lhs = target
    for outer in within:
        o = atoms.structure(outer) if outer.is_Symbol else None
        if not isinstance(o, atoms.Sum):
            raise KernelError(f"{name}: {outer} is not a sum it can rewrite inside")
        swap = {lhs: rhs}
        rhs = atoms.finite_sum(sympy.Symbol(f"#{o.bound}"), o.lo, o.hi, [
            (p.xreplace(swap), kind) for p, kind in o.filters], o.body.xreplace(swap))
        lhs = outer
    atoms.check(lhs, f"the sum rule {name}")  # the outermost sum is closed
    return Rel(lhs, "==", rhs, f"{lhs} == {rhs} [sum rule {name}]"), facts
