"""A sum rule inside a sum's body in Coq: the kernel's `within`, by extensionality (issue 31).

The kernel (verify/kernel/sums.py) applies a rule to a sum or atom `B` inside the body or
the filters of enclosing sums `A_1, ..., A_m` (innermost first): if `B == E` wherever the
rule's conditions hold, and they mention no index, then `A_1 == A_1[B := E]` read
canonically, and so on out to the outermost sum `A_m`, the identity's left side. Replayed
level by level:

- level 0: `forall (the outer indices free in B), B = E`, proved by the rule's own replay at
  the top of `B` (`Script.prove_sum` for `empty`, `last`, `skip`, `count`, `split`, `shift`
  (`ranges`); `prove_swap`; `prove_congruence` for a member, and for a sum with its summand
  at a point, `zsum_ext`, each member and inner sum rewritten there), each outer index a real
  variable, named as the sum binding it prints it (`j'2`), so each level's statement prints
  the text its enclosing sum's body holds;
- level k: `forall (the indices still free), A_k = R_k` with `R_k` the kernel's canonical
  reading of `A_k` with `A_{k-1}` replaced by `R_{k-1}` (in its body and its filters):
  `linear.combine` splits the raw sum into those canonical sums (`zsum_combine`), the first
  point's body and indicators rewritten by level k - 1 there (an indicator then read as the
  rewrite leaves it: two sets whose conditions are written otherwise, `y[j+c] >= 0` and
  `y[j+s] >= 0` under `c == s`); with no canonical sum left (`R_k = 0`), `zsum_ext` (the
  preamble's extensionality of a sum) makes it the sum of 0, `zsum_zero`. A filter the rule
  leaves constant (`sum(l in 1..0, a[l+j]) >= 0` is `0 >= 0`) is dropped by the kernel where
  it holds and makes the sum 0 where it fails: its indicator at the point is its value, 1 or
  0 (`linear.constants`: the preamble's `ind_*_in`, `ind_*_out`, the sign by computation);
  one it makes another filter, or a multiple of another, is one indicator, 0 or 1
  (`ind_*_01`, `ind_*_scale`), and one it makes a multiple of its canonical form is that
  (`ind_*_scale`; `linear._indicators`).

A congruence of a whole sum whose canonical form moves (`_equal_atoms`) is replayed too: its
bounds by `zsum_bounds` (their equality over Z from the congruence's over R, `eq_IZR`), a
filter the substitution rescales by `ind_*_scale`, one it leaves constant by its value (the
image 0 where it fails), two it makes one by a case on the indicator (`ind_*_01`).

The levels' right sides are recomputed with the kernel's constructors (the rule's at the top
of a copy of `B` whose free indices are fresh names, then `atoms.finite_sum` up the chain)
and the export is refused unless the outermost is the kernel's identity. Not replayed (the
step says `not exported`): a rule the replay does not prove at the top either (a shift
`ranges` refuses), a congruence of a sum whose image is no single sum or whose moved bound
is not linear, and a canonical sum whose inner sums print otherwise at the point than the
raw sum's (its index renamed).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Protocol

import sympy

from verify.coq import printer
from verify.coq.printer import INDICATORS
from verify.coq.statement import Unsupported
from verify.coq.sums import identities, linear, ranges
from verify.kernel import Fact, KernelError, Rel, SumRule, atoms, sums
from verify.kernel.algebra import normal_form

__all__ = ["TOP", "Scope", "inside", "top_rules"]

#: The rules `Script.prove_sum` proves at the top of a sum (a level 0 reuses it).
TOP = ("empty", "last", "count", "skip", "split", "shift")


class Scope(identities.Replay, Protocol):
    """What a proof script offers here besides `identities.Replay` (`replay.Script`)."""
    facts: dict[Fact, str]
    nonzero: set[sympy.Expr]
    indent: str

    def given(self, fact: Fact) -> bool: ...
    def zreal(self) -> str: ...
    def prove_sum(self, rule: str, at: sympy.Expr, s: atoms.Sum, relation: Rel,
                  conditions: tuple[Fact, ...]) -> None: ...


def inside(script: Scope, fact: Fact) -> Rel | None:
    """The rule inside a sum's body whose identity is `fact`, its conditions proved by the
    kernel for this obligation; proved in `script` (its relation named in `script.hyps`).
    None when no rule inside a sum of `fact` gives it."""
    for rule in _candidates(script, fact):
        try:
            relation, conditions = sums.identity(sums.frozen(rule))
        except KernelError:
            continue
        if normal_form(relation, relation.text)[0] == fact and all(
                map(script.given, conditions)):
            _prove(script, rule, relation)
            return relation
    return None


def _candidates(script: Scope, fact: Fact) -> Iterator[SumRule]:
    """Every rule the replay could prove inside the body of a sum of `fact`: the rules at
    the top of an inner sum, its swap, and a congruence of a member or an inner sum from a
    condition `n - k == 0` the kernel proved, outermost sums first; last a congruence of a
    whole sum of the fact (a member in its body and one in its filter moved at once)."""
    equal = identities.candidates(identities.side_conditions(script))
    others = ranges.sums_in(fact.expr)  # a split's parts, a shift's image
    todo = [(s, ()) for s in sorted(fact.expr.free_symbols, key=str)
            if isinstance(atoms.structure(s), atoms.Sum)]
    tops = [top for top, _ in todo]
    while todo:
        atom, within = todo.pop(0)
        found: atoms.Sum = atoms.structure(atom)  # type: ignore[assignment]
        chain = (atom, *within)
        for part in (found.body, *(p for p, _ in found.filters)):
            for t in sorted(part.free_symbols, key=str):
                inner = atoms.structure(t)
                if isinstance(inner, atoms.Sum):
                    todo.append((t, chain))
                    yield from (SumRule(rule, t, at, chain)
                                for rule, at in top_rules(inner, others))
                    yield SumRule("swap", t, sympy.Integer(0), chain)
                if inner is not None and not atoms.INDEX.fullmatch(t.name):
                    yield from (SumRule("congruence", t, k, chain, var=n) for n, k, _ in equal)
    for top in tops:  # last (its replay refuses a sum whose bounds move, `_equal_atoms`): a
        # congruence of a whole sum of the fact, a member in its body and its filter at once
        yield from (SumRule("congruence", top, k, (), var=n) for n, k, _ in equal)


def top_rules(s: atoms.Sum, others: Sequence[sympy.Symbol] = ()
              ) -> list[tuple[str, sympy.Expr]]:
    """The rules `Script.prove_sum` proves at the top of the sum `s`, and their arguments:
    a split or shift only where its result is among the sums `others` (`ranges.moves`)."""
    return [(rule, sympy.Integer(at)) for rule, at in (
        ("empty", 0), ("last", 0), ("count", 0),
        *(("skip", k) for k in range(-len(s.filters), len(s.filters))))] + ranges.moves(s, others)


def _free(e: sympy.Expr) -> list[str]:
    """The bound indices free in `e` (of the sums around it), innermost first."""
    return sorted((n for n in atoms.names_of(e) if atoms.INDEX.fullmatch(n)),
                  key=lambda n: (len(n), n))


def _binders(indices: list[str]) -> str:
    """`forall j'2 j'3 : R, ` for free indices (their names as a sum binding them prints)."""
    if not indices:
        return ""
    return f"forall {' '.join(printer.expr(sympy.Symbol(i)) for i in indices)} : R, "


def _at_top(rule: SumRule) -> tuple[Rel, tuple[Fact, ...]]:
    """The rule at the top of its target, every free index of the target a fresh name for
    the kernel (which states no rule of a sum with a free index), then named back: `B == E`
    with the outer indices free, and the rule's conditions."""
    free = _free(rule.target)
    taken = atoms.names_of(rule.target) | atoms.names_of(rule.at)
    fresh = {}
    for index in free:
        name = f"coq_free_{index[1:]}"
        while name in taken:
            name += "_"
        fresh[index] = name
    moved = atoms.substitute(rule.target, {i: sympy.Symbol(n) for i, n in fresh.items()}, {})
    try:
        relation, conditions = sums.identity(sums.frozen(SumRule(
            rule.rule, moved, rule.at, (), var=rule.var)))
        back = {n: sympy.Symbol(i) for i, n in fresh.items()}
        rhs = atoms.substitute(relation.rhs, back, {})
    except KernelError as error:
        raise Unsupported(f"the rule {rule.rule} inside a sum's body: {error}") from None
    if any(atoms.names_of(c.expr) & set(fresh.values()) for c in conditions):
        raise Unsupported(f"the rule {rule.rule} inside a sum's body has a condition on an "
                          "index")  # the kernel refuses it too: never proved
    return Rel(rule.target, "==", rhs, f"{rule.target} == {rhs}"), conditions


def _prove(script: Scope, rule: SumRule, relation: Rel) -> None:
    """Emit the levels (module docstring); the last one is `relation`."""
    inner, conditions = _at_top(rule)
    levels = [(inner.lhs, inner.rhs)]  # each level's sum and its right side, innermost first
    for outer in rule.within:
        o: atoms.Sum = atoms.structure(outer)  # type: ignore[assignment]
        swap = dict([levels[-1]])  # in its body and filters, as the kernel's `within`
        levels.append((outer, atoms.finite_sum(sympy.Symbol(f"#{o.bound}"), o.lo, o.hi, [
            (p.xreplace(swap), kind) for p, kind in o.filters], o.body.xreplace(swap))))
    if levels[-1] != (relation.lhs, relation.rhs):
        raise Unsupported(f"the rule {rule.rule} inside a sum's body is not the kernel's "
                          "identity once lifted out of the sums")
    for condition in conditions:  # derived here, before the blocks: each level reads them
        script.fact(condition)
    label = _level_zero(script, rule, inner, conditions)
    for k in range(1, len(levels)):
        label = _level(script, levels[k], levels[k - 1], label)
    script.hyps[relation] = label


def _block(script: Scope, indices: list[str], statement: str) -> tuple[str, tuple[object, ...]]:
    """Open `assert (h : forall indices, statement). { intros indices.`: its label and the
    script's state to restore once the block is closed (`_close`)."""
    label = script.new("w")
    script.emit(f"assert ({label} : {_binders(indices)}{statement}).")
    names = " ".join(printer.expr(sympy.Symbol(i)) for i in indices)
    script.emit("{" + (f" intros {names}." if names else ""))
    saved = (dict(script.facts), dict(script.hyps), set(script.nonzero), script.indent)
    script.indent += "  "
    return label, saved


def _close(script: Scope, saved: tuple[object, ...]) -> None:
    script.facts, script.hyps, script.nonzero, script.indent = saved  # type: ignore[assignment]
    script.emit("}")


def _level_zero(script: Scope, rule: SumRule, inner: Rel, conditions: tuple[Fact, ...]) -> str:
    """`forall (free indices), B = E` by the rule's replay at the top of `B`."""
    label, saved = _block(script, _free(inner.lhs), f"{script.expr(inner.lhs)} = "
                          f"{script.expr(inner.rhs)}")
    target = atoms.structure(rule.target)
    if rule.rule in TOP:
        assert isinstance(target, atoms.Sum)
        script.prove_sum(rule.rule, rule.at, target, inner, conditions)
    elif rule.rule == "swap":
        identities.prove_swap(script, inner)
    elif rule.rule == "congruence" and isinstance(target, atoms.Sum):
        substitution = {rule.var: rule.at}
        if atoms.substitute(rule.target, substitution, {}) != inner.rhs:
            raise Unsupported("a congruence of a sum whose image, its free indices named "
                              "back, is not the kernel's is not replayed in Coq yet")
        identities.prove_congruence(script, inner, rule.var, rule.at, conditions[0],
                                    lambda equal: _equal_atoms(script, rule.target, substitution,
                                                               equal))
    elif rule.rule == "congruence":
        identities.prove_congruence(script, inner, rule.var, rule.at, conditions[0])
    else:
        raise Unsupported(f"the rule {rule.rule} is not replayed in Coq yet")
    script.emit(f"exact {script.hyps[inner]}.")
    _close(script, saved)
    return label


def _level(script: Scope, level: tuple[sympy.Expr, sympy.Expr],
           below: tuple[sympy.Expr, sympy.Expr], lemma: str) -> str:
    """`forall (free indices), A_k = R_k` from the level below (`lemma`), see the module
    docstring."""
    outer, total = level
    o: atoms.Sum = atoms.structure(outer)  # type: ignore[assignment]
    index = f"#{o.bound}"
    swap = dict([below])
    body, filters = o.body.xreplace(swap), [(p.xreplace(swap), k) for p, k in o.filters]
    # a filter the rule left constant (an emptied sum in a set's condition): the kernel drops
    # it where it holds and reads the sum as 0 where it fails; its indicator is replaced by
    # its value at the point (`linear.constants`)
    kept = [(p, k) for p, k in filters if not sympy.expand(p).is_Rational]
    fails = any(atoms.finite_sum(sympy.Symbol(index), o.lo, o.hi, [(p, k)], sympy.Integer(1))
                == 0 for p, k in filters if sympy.expand(p).is_Rational)
    split = () if fails else tuple((k, a) for k, a in linear.terms(
        sympy.Symbol(index), o.lo, o.hi, kept, body, total) if k != 0)  # 0: no summand
    if fails and total != 0:
        raise Unsupported("the kernel's reading of a sum whose filter fails is not 0")
    if any(len(atoms.structure(a).filters) > len(kept) for _, a in split):  # type: ignore[union-attr]
        raise Unsupported("a rule inside a sum's filter that the kernel's canonical sums read "
                          "with more filters is not replayed in Coq yet")  # never: it drops
    indices = _free(outer)
    lo, hi = printer.integer(o.lo, script.nat), printer.integer(o.hi, script.nat)
    _check_inner_sums(script, index, split)
    label, saved = _block(script, indices, f"{script.expr(outer)} = {script.expr(total)}")
    below_free = _free(below[0])

    def rewrite(point: str) -> str:
        args = " ".join(point if i == index else printer.expr(sympy.Symbol(i))
                        for i in below_free)
        return f"rewrite ({lemma}{' ' + args if args else ''}); "

    if split:
        linear.combine(script, index, o.filters, split, {}, lo, hi, rewrite, swap)
    else:  # nothing left to sum: the kernel's reading is 0
        point = script.new("x")
        fixed = linear.constants(script, index, o.filters, {}, point, swap)
        script.emit(f"transitivity (zsum {lo} {hi} (fun _ => 0)); [apply zsum_ext; intros "
                    f"{point}; cbv beta; {rewrite(point)}{fixed}ring | apply zsum_zero].")
    _close(script, saved)
    return label


def _check_inner_sums(script: Scope, index: str, split: linear.Terms) -> None:
    """Refuse a canonical sum of the split whose inner sums print otherwise at a point than
    the raw sum's (its index renamed `#h`, the terms of an index in another order): `ring`
    would read them as two unknowns, and `linear.combine` replaces members only."""
    point: Mapping[str, str] = {index: "x'"}
    for _, atom in split:
        found: atoms.Sum = atoms.structure(atom)  # type: ignore[assignment]
        own = f"#{found.bound}"
        if own == index:
            continue
        for symbol in found.body.free_symbols:
            if isinstance(atoms.structure(symbol), atoms.Sum) and printer.expr(
                    symbol, {own: "x'"}, script.nat) != printer.expr(
                    atoms.substitute(symbol, {own: sympy.Symbol(index)}, {}), point,
                    script.nat):
                raise Unsupported("a sum inside a sum's body read at another index name is "
                                  "not replayed in Coq yet")


def _equal_atoms(script: Scope, atom: sympy.Symbol, substitution: Mapping[str, sympy.Expr],
                 equal: str) -> str:
    """A tactic proving `atom = atom[n := k]` (either way round: `replace` asks for the image
    first) from `equal : n = k`: a member by `rewrite` and `f_equal` down to its index; a
    sum by `zsum_ext`, at a point each indicator, member and inner sum of its body replaced
    by its own congruence, then `ring`. Where the kernel's canonical form moves: bounds that
    read n are made the image's by `zsum_bounds` (their equality over Z from `equal` over R,
    `eq_IZR`); a filter the substitution rescales is the image's by the preamble's
    `ind_*_scale`, one it leaves constant is its value (`linear.constant_indicator`; the
    image is 0 where it fails, `zsum_zero`), and two filters it makes one are one indicator,
    0 or 1 (`ind_*_01`: `ring` does not know an indicator's square)."""
    moved = atoms.substitute(atom, substitution, {})
    found = atoms.structure(atom)
    if not isinstance(found, atoms.Sum):
        return f"rewrite {equal}; {identities.CLOSE}"
    other = atoms.structure(moved) if moved.is_Symbol else None
    if moved != 0 and not isinstance(other, atoms.Sum):
        raise Unsupported("a congruence of a sum whose image is no single sum is not replayed "
                          "in Coq yet")
    nat = script.nat
    point = script.new("x")
    at = {f"#{found.bound}": point}
    lo, hi = printer.integer(found.lo, nat), printer.integer(found.hi, nat)
    steps: list[str] = []
    for p, kind in found.filters:  # each raw filter: its value, or the image's filter it is
        image = sympy.expand(atoms.substitute(p, substitution, {}))
        ind, text = INDICATORS[kind], printer.expr(p, at, nat)
        if image.is_Rational:
            bit, tactic = linear.constant_indicator(kind, Fraction(int(image.p), int(image.q)),
                                                    text, f"rewrite ?{equal}; field")
            steps.append(f"replace ({ind} {text}) with {bit} by ({tactic})")
    pointwise = [f"intros {point}; cbv beta", *steps]
    if moved == 0:  # a filter fails: nothing to sum
        return (f"rewrite (zsum_ext {lo} {hi} _ (fun _ => 0)); [rewrite zsum_zero; reflexivity"
                f" | {'; '.join([*pointwise, 'ring'])}]")
    assert isinstance(other, atoms.Sum)
    if any(sympy.Poly(b, *b.free_symbols or [sympy.Symbol("_")]).total_degree() > 1
           for b in (other.lo, other.hi)) and (other.lo, other.hi) != (found.lo, found.hi):
        raise Unsupported("a congruence of a sum whose bound is not linear is not replayed in "
                          "Coq yet")
    there = {f"#{other.bound}": point}
    matched: dict[tuple[sympy.Expr, str], int] = {}
    for p, kind in found.filters:
        image = sympy.expand(atoms.substitute(p, substitution, {}))
        if image.is_Rational:
            continue
        ind, text = INDICATORS[kind], printer.expr(p, at, nat)
        q, factor = _image_filter(image, kind, other, f"#{found.bound}")
        matched[(q, kind)] = matched.get((q, kind), 0) + 1
        canon = printer.expr(q, there, nat)
        tactic = linear.same_indicator(kind, factor, f"rewrite ?{equal}")
        pointwise.append(f"replace ({ind} {text}) with ({ind} {canon}) by ({tactic})")
    if set(matched) != set(other.filters):
        raise Unsupported("a congruence of a sum whose image has a filter of none of its own is "
                          "not replayed in Coq yet")
    for symbol in sorted(found.body.free_symbols, key=str):
        if atoms.structure(symbol) is None or atoms.INDEX.fullmatch(symbol.name):
            continue
        image = atoms.substitute(symbol, substitution, {})
        if image == symbol:
            continue
        pointwise.append(f"replace {printer.expr(symbol, at, nat)} with "
                         f"{printer.expr(image, at, nat)} by ("
                         f"{_equal_atoms(script, symbol, substitution, equal)})")
    for (q, kind), count in matched.items():  # two filters made one: its indicator is 0 or 1
        if count > 1:
            ind = INDICATORS[kind]
            pointwise.append(f"destruct ({ind}_01 {printer.expr(q, there, nat)}) as [{point}e | "
                             f"{point}e]; rewrite {point}e")
    tactic = f"apply zsum_ext; {'; '.join([*pointwise, 'ip_canon; ring'])}"
    if (other.lo, other.hi) == (found.lo, found.hi):
        return tactic
    lo2, hi2 = printer.integer(other.lo, nat), printer.integer(other.hi, nat)
    return (f"rewrite (zsum_bounds {lo} {hi} {lo2} {hi2} _) by (apply eq_IZR; {script.zreal()}; "
            f"rewrite ?{equal}; ring); {tactic}")


def _image_filter(p: sympy.Expr, kind: str, other: atoms.Sum, index: str
                  ) -> tuple[sympy.Expr, sympy.Expr]:
    """The filter `q` of the canonical sum `other` that a raw filter `p` (about `index`) is,
    and the constant `r` with q = r*p (the kernel scales a filter to lead with 1, by a
    positive number, any nonzero one for `==`)."""
    for q, own in other.filters:
        named = sympy.expand(atoms.substitute(q, {f"#{other.bound}": sympy.Symbol(index)}, {}))
        r = sympy.cancel(named / p)
        if own == kind and r.is_Rational and r != 0 and (r > 0 or kind == "=="):
            return q, r
    raise Unsupported("a congruence of a sum whose filter is no multiple of one of its image's "
                      "is not replayed in Coq yet")
