"""The sum rules a step's obligations need, proposed for the kernel (`Sequent.sums`).

For each obligation, every sum in it and every sum inside their bodies (rewritten there:
`within`) is looked at once, in a fixed order, and at most one rule proposed for it:

- `empty` when its range has a constant length <= 0 (the base of an induction: 1..0);
- `last` (or `skip`, when the obligation's hypotheses say a filter fails at the last member)
  when its range has a constant length, or when its upper bound is another sum's upper bound
  plus 1 or 2 (the inductive step: sum over 1..t+1 against the invariant's sum over 1..t);
  what the rule leaves (the shorter sum) is looked at in turn;
- `split` when another sum of the obligation has the same upper bound and a lower bound
  at most `MAX_PEEL` above (the first members peeled: 1..N against 2..N splits at 1), or
  when a hypothesis fixes the upper bound to a number (`N == 2`: split at 2, the rest
  empty); what it leaves is looked at in turn;
- `shift` when another sum's range is this one's moved up by a constant (0..N-1 against
  1..N: re-indexed by 1; never downwards, so two sums are not shifted into each other);
- `count` for a sum of 1 over a range;
- `swap` for a double sum whose other order is a sum of the obligation (`sum(j in A, sum(l
  in B, f))` against `sum(l in B, sum(j in A, f))`), or, inside another sum's body, whose
  other order there makes the enclosing sum one of the obligation's;
- failing all these, `empty` (or `last`) when the obligation's equalities of names
  (`eliminations`) make the range's length a constant <= 0 (or 1): `n == m` and m..n-1 (or
  m..n); the member `last` leaves, y[n], meets y[m] by a congruence (`congruences`).

A rule is proposed only when its conditions are evident (a polynomial in naturals with
nonnegative coefficients, or a hypothesis of the obligation, compared in normal form, or
such a hypothesis plus a polynomial in naturals with nonnegative coefficients: `N - 1 >= 0`
from `N >= 2`): a condition the kernel cannot prove would leave the step unknown.
Deterministic, and bounded (`MAX_RULES` per obligation).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import sympy

from verify import kernel
from verify.kernel import SumRule, atoms
from verify.kernel.algebra import Fact, normal_form

MAX_RULES = 24  # per obligation
MAX_PEEL = 2  # an upper bound at most this much above another's is peeled


def propose(seq: kernel.Sequent) -> tuple[SumRule, ...]:
    """The rules for every obligation of `seq` (each for its obligation only)."""
    return per_obligation(seq, _for)


#: What proposes the rules of one obligation: its label, hypotheses, claim and the naturals.
Proposer = Callable[[str, tuple[kernel.Rel, ...], kernel.Rel, set[str]], list[SumRule]]


def per_obligation(seq: kernel.Sequent, proposer: Proposer) -> tuple[SumRule, ...]:
    """`proposer`'s rules for every obligation of `seq` as written, in order, each once."""
    out: list[SumRule] = []
    for ob in kernel.obligations(seq):
        if ob.written is not None:
            out += proposer(ob.label, *ob.written, set(seq.naturals))
    return tuple(dict.fromkeys(out))


def has_sums(exprs: Iterable[sympy.Expr]) -> bool:
    """Whether any of `exprs` holds a sum (the only steps the rules are proposed for)."""
    return any(isinstance(atoms.structure(s), atoms.Sum) for e in exprs for s in e.free_symbols)


def _sums(e: sympy.Expr) -> list[sympy.Symbol]:
    return sorted((s for s in e.free_symbols if isinstance(atoms.structure(s), atoms.Sum)),
                  key=lambda s: s.name)


def _for(label: str, hyps: tuple[kernel.Rel, ...], claim: kernel.Rel,
         naturals: set[str]) -> list[SumRule]:
    """The rules one obligation needs (see the module docstring)."""
    facts = [f for f, conditions in (normal_form(h, h.text) for h in hyps) if not conditions]
    given, equal = set(facts), dict(eliminations(facts))
    fixed = _fixed(given)
    tops = [s for r in (*hyps, claim) for e in (r.lhs, r.rhs) for s in _sums(e)]
    uppers = {atoms.structure(s).hi for s in tops}  # type: ignore[union-attr]
    ranges = {(t.lo, t.hi) for s in tops if isinstance(t := atoms.structure(s), atoms.Sum)}
    todo: list[tuple[sympy.Symbol, tuple[sympy.Expr, ...]]] = [(s, ()) for s in
                                                              dict.fromkeys(tops)]
    seen: set[tuple[sympy.Symbol, tuple[sympy.Expr, ...]]] = set()
    out: list[SumRule] = []
    while todo and len(out) < MAX_RULES:
        atom, within = todo.pop(0)
        if (atom, within) in seen:
            continue
        seen.add((atom, within))
        s: atoms.Sum = atoms.structure(atom)  # type: ignore[assignment]
        inner = [p for p, _ in s.filters] + [s.body]
        todo += [(t, (atom, *within)) for e in inner for t in _sums(e)]
        rule = _rule(s, uppers, given, fixed, naturals) or _regrouped(s, ranges, fixed) or _swapped(
            atom, within, set(tops)) or _equated(s, equal, given)
        if rule is None:
            continue
        proposed = SumRule(rule[0], atom, rule[1], within, label)
        try:
            fact, conditions = kernel.sums.identity(kernel.sums.frozen(proposed))
        except kernel.KernelError:
            continue
        if all(_evident(c, given, naturals) for c in conditions):
            out.append(proposed)
            shorter = [t for t in _sums(fact.rhs) if atoms.structure(t) != s]
            todo += [(t, within) for t in shorter if not within]  # rewritten at the top
    return out


def _rule(s: atoms.Sum, uppers: set[sympy.Expr], given: set[Fact],
          fixed: Mapping[sympy.Symbol, sympy.Expr], naturals: set[str]
          ) -> tuple[str, sympy.Expr] | None:
    """The rule to try on one sum, and its argument, or None; `fixed`: `_fixed(given)`."""
    length = sympy.expand(s.hi - s.lo + 1)
    at_fixed = sympy.expand(length.xreplace(fixed))
    if at_fixed.is_Integer and at_fixed <= 0:
        return "empty", sympy.Integer(0)
    peel = (length.is_Integer and length <= 4) or any(
        (d := sympy.expand(s.hi - h)).is_Integer and 0 < d <= MAX_PEEL for h in uppers)
    if peel:
        return _last(s, given)
    if s.body == 1 and not s.filters:
        return "count", sympy.Integer(0)
    return None


def eliminations(facts: Sequence[Fact]) -> list[tuple[str, sympy.Expr]]:
    """`(n, k)` for each equality among `facts` that gives a plain name `n` as a term `k`: linear
    in `n` with a constant coefficient (`j - k - 1 == 0`: `j := k + 1`), the first such name
    in name order, in the order the facts come (`congruences` rewrites members by them, and
    `_equated` reads a range's length by them)."""
    out = []
    for fact in facts:
        if fact.kind != "==":
            continue
        for name in sorted(fact.expr.free_symbols, key=lambda s: s.name):
            if not atoms.IDENT.fullmatch(name.name):
                continue
            c = sympy.Poly(fact.expr, name).all_coeffs() if fact.expr.is_polynomial(name) else []
            if len(c) == 2 and c[0].is_Rational and c[0] != 0:
                out.append((name.name, sympy.expand(-c[1] / c[0])))
                break
    return out


def _equated(s: atoms.Sum, equal: dict[str, sympy.Expr], given: set[Fact]
             ) -> tuple[str, sympy.Expr] | None:
    """`empty`, or `last` (`skip`), of a range whose length the obligation's equalities make a
    constant <= 0, or one: `n == m` and `sum(j in m..n-1, ...)` (length n - m, 0 there), or
    `sum(j in m..n, ...)` (one member, peeled: its index n meets m by a congruence); the
    rule's condition (`m - n >= 0`, `n - m >= 0`) is then an equality's consequence."""
    by = {sympy.Symbol(n): k for n, k in equal.items()}
    length = sympy.expand((s.hi - s.lo + 1).xreplace(by))
    if not length.is_Integer or length > 1:
        return None
    return ("empty", sympy.Integer(0)) if length <= 0 else _last(s, given)


def _regrouped(s: atoms.Sum, ranges: set[tuple[sympy.Expr, sympy.Expr]],
               fixed: Mapping[sympy.Symbol, sympy.Expr]) -> tuple[str, sympy.Expr] | None:
    """`split` or `shift` of one sum, to meet another sum's range or an upper bound the
    hypotheses fix (`fixed`, see the module docstring), or None."""
    for lo, hi in sorted(ranges, key=str):
        low, high = sympy.expand(lo - s.lo), sympy.expand(hi - s.hi)
        if high == 0 and low.is_Integer and 0 < low <= MAX_PEEL:
            return "split", sympy.expand(lo - 1)
        if low == high and low.is_Integer and low > 0:
            return "shift", low
    value = sympy.expand(s.hi.xreplace(fixed))
    if not s.hi.is_Integer and value.is_Integer:
        return "split", value
    return None


def _swapped(atom: sympy.Symbol, within: tuple[sympy.Expr, ...], tops: set[sympy.Symbol]
             ) -> tuple[str, sympy.Expr] | None:
    """`swap` when the double sum `atom` in the other order is made of sums in `tops` (the
    obligation's), or, inside the sums `within`, when the outermost rewritten so is; else None
    (the kernel refuses it where the inner set reads the outer index)."""
    try:
        fact, _ = kernel.sums.identity(kernel.sums.frozen(SumRule("swap", atom, within=within)))
    except kernel.KernelError:
        return None
    found = set(_sums(fact.rhs))
    return ("swap", sympy.Integer(0)) if found and found <= tops - {fact.lhs} else None


def _fixed(given: set[Fact]) -> dict[sympy.Symbol, sympy.Expr]:
    """The names a hypothesis fixes to a number (`N == 2`: N -> 2), each by its first
    such hypothesis in a fixed order (of their texts: only those that may fix one are
    printed, which for a long obligation was most of the rule search's time)."""
    out: dict[sympy.Symbol, sympy.Expr] = {}
    for g in sorted((g for g in given if g.kind == "==" and len(g.expr.free_symbols) == 1
                     and g.expr.is_polynomial()), key=str):
        (name,) = g.expr.free_symbols
        poly = sympy.Poly(g.expr, name)
        if poly.degree() == 1:
            out.setdefault(name, -poly.nth(0) / poly.nth(1))
    return out


def _last(s: atoms.Sum, given: set[Fact]) -> tuple[str, sympy.Expr] | None:
    """`last` when every filter holds at the last member (or there are none), `skip` when a
    hypothesis says one fails there; None when the hypotheses do not say."""
    at_hi = [(atoms.substitute(p, {f"#{s.bound}": s.hi}, {}), kind) for p, kind in s.filters]
    if all(_scaled(Fact(p, kind), given) for p, kind in at_hi):
        return "last", sympy.Integer(0)
    for k, (p, kind) in enumerate(at_hi):
        if kind == "==":
            for at, negated in ((k, Fact(p, ">")), (-k - 1, Fact(-p, ">"))):
                if _scaled(negated, given):
                    return "skip", sympy.Integer(at)
        elif _scaled(Fact(-p, ">" if kind == ">=" else ">="), given):
            return "skip", sympy.Integer(k)
    return None


def _scaled(fact: Fact, given: set[Fact]) -> bool:
    """Whether a hypothesis says `fact`: the same up to a positive factor, or stricter
    (`p > 0` gives `p >= 0`; `p == 0` gives `p >= 0` and `-p >= 0`)."""
    for g in given:
        ratio = sympy.cancel(g.expr / fact.expr) if fact.expr != 0 else None
        if ratio is None or not ratio.is_Rational or ratio == 0:
            continue
        if (g.kind == "==" and fact.kind in (">=", "==")) or (ratio > 0 and (
                g.kind == fact.kind or (g.kind == ">" and fact.kind == ">="))):
            return True
    return False


def _evident(condition: Fact, given: set[Fact], naturals: set[str]) -> bool:
    """Whether the kernel will prove `condition`: a polynomial in naturals with nonnegative
    coefficients (`>=`), a positive constant, or a hypothesis (up to a positive factor)."""
    e = sympy.expand(condition.expr)
    if e.is_Rational:
        return bool(e > 0 or (e == 0 and condition.kind != ">"))
    if condition.kind == ">=" and _nonnegative(e, naturals):
        return True
    return _scaled(Fact(e, condition.kind), given) or _weaker(Fact(e, condition.kind), given,
                                                              naturals)


def _nonnegative(e: sympy.Expr, naturals: set[str]) -> bool:
    """Whether `e` is a polynomial in naturals with nonnegative coefficients (so >= 0)."""
    e = sympy.expand(e)
    if e.is_Rational:
        return bool(e >= 0)
    return {s.name for s in e.free_symbols} <= naturals and all(
        c >= 0 for c in sympy.Poly(e, *sorted(e.free_symbols, key=str)).coeffs())


def _weaker(condition: Fact, given: set[Fact], naturals: set[str]) -> bool:
    """Whether `condition` (`c >= 0`) is a hypothesis `g >= 0` (`> 0`, `== 0`) plus a
    polynomial in naturals with nonnegative coefficients: `N - 1 >= 0` from `N >= 2`, the
    condition of peeling the first member of 1..N when a hypothesis says N >= 2."""
    return condition.kind == ">=" and any(  # any order: the answer is the same
        _nonnegative(condition.expr - g.expr, naturals) for g in given)
