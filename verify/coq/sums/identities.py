"""Two of the kernel's identities of atoms in Coq (issue 31): a congruence and a swap.

**Congruence.**
The kernel's `congruence` (verify/kernel/sums.py, docs/proof-files.md) gives `A == A[n := k]`
for an atom `A` where its condition `n - k == 0` holds. Replayed here for family members and
Gram symbols (no sum): the condition, proved from the obligation's hypotheses as its side
obligation is, gives `n = k` (`Rminus_diag_uniq`); `A = A[n := k]` is then `rewrite` of `n`
by `k` and `f_equal` down to the members' indices, which are equal by `ring` (the Gram
symbol's vectors swapped by `ip_sym` where the kernel orders them the other way). A
member in the body of a sum of the fact (the kernel's congruence `within` that sum) is
replayed the same way: `rewrite` reaches under the sum's `fun`, since `n` is free there, and
rewrites `n` on both sides, which then print alike (issue 31). A congruence deeper in nested
sums, or of an inner sum, is replayed by `within` (the member, or the sum's summand at a
point, rewritten with no binder around it, then lifted out). A natural n is rewritten as the
real it is in a proof (`INR` of its `nat`); the bounds of sums read the `nat` and are left
alone, as the congruence of a member leaves them.

**Swap.**
The kernel's `swap` (verify/kernel/sums.py, docs/proof-files.md) gives `sum(j in A where F,
P(j)*sum(l in B where G, b(j, l))) == sum(l in B where G, sum(j in A where F, P(j)*b(j, l)))`
in canonical form. Replayed by the preamble's `zsum_swap` (both sides are the sum over the
product of the ranges, proved by induction on the outer range) applied to the full summand
`h u' v' = F(u') G(v') P(u') b(u', v')`, each side brought to it pointwise: the factor free of
the inner index goes inside (`zsum_factor`), the members' indices as each side prints them
made the canonical ones (`f_equal; ring`, a Gram symbol's vectors by `ip_sym`), then `ring`.
A third sum in the summand (`sum(j, sum(l, a[j]*sum(i, y[i + l + j])))`, a user's triple sum)
reads both indices: each side prints it with them exchanged, under its own `fun`, where
`replace` cannot reach, so it is made the kernel's by the preamble's `zsum_ext` at a point
(`equal_atoms`, recursively for a sum deeper still); so is a sum in a set's filter
(`y[l] >= sum(i in 1..N, a[i+l])`), then its indicator by `ring`. The other order may have
two sums in its outer body (a third sum free of the swapped index: `sum(l, sum(i, a[i+l]) *
sum(j, y[j]*z[l+j]))`): its inner one is the sum whose sets and summand are the first
order's. Not replayed (the step says `not exported`): a filter whose members (not sums) print
otherwise. Sets that are not the same in the two orders once canonical are refused, but no
swap the kernel proves has them: it renames each set's index and keeps its filters, whose
leading monomial (the kernel scales by it) that renaming keeps (index names sort before all
others, and the swapped sum's new index is never above its old one, always below an
enclosing sum's; tests/test_verify/coq/sums/test_coq_moves.py checks it on 67 of the
kernel's swaps).

Each takes the fact a kernel obligation states and the script replaying it (`Replay`, which
`verify.coq.replay.Script` is: this module does not import it, so the replay may call here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

import sympy

from verify.coq import printer
from verify.coq.printer import INDICATORS
from verify.coq.statement import Unsupported
from verify.kernel import Fact, KernelError, Rel, SumRule, atoms, sums
from verify.kernel.algebra import normal_form

__all__ = ["Replay", "candidates", "congruence", "equal_atoms", "prove_congruence",
           "prove_swap", "side_conditions", "swap"]
#: An index moved to an equal one is equal by `ring`, or by `field` where it has a fraction
#: (`2 * (1/2 * k) = k`: red team); each tactic either closes the goal or fails.
_EQUAL_INDEX = ("(f_equal; ring) | (f_equal; f_equal; ring) | (f_equal; field) | "
                "(f_equal; f_equal; field)")
CLOSE = (f"first [reflexivity | {_EQUAL_INDEX} | "
         f"(rewrite ip_sym; first [reflexivity | {_EQUAL_INDEX}])]")
U, V = sympy.Symbol("#~0"), sympy.Symbol("#0")  # the two indices, as the kernel's swap names them
NAMES = {U.name: "u'", V.name: "v'"}


class Replay(Protocol):
    """What a proof script offers the proofs here (`verify.coq.replay.Script`)."""
    conditions: Mapping[Fact, object]
    by_case: Mapping[tuple[str, Fact], object]
    case: str
    nat: dict[str, str]
    hyps: dict[Rel, str]

    def fact(self, fact: Fact) -> str: ...
    def new(self, prefix: str) -> str: ...
    def emit(self, line: str) -> None: ...
    def expr(self, e: sympy.Expr) -> str: ...


def candidates(conditions: list[Fact]) -> list[tuple[str, sympy.Expr, Fact]]:
    """`(n, k, condition)` for each condition `n - k == 0` (up to a constant factor)."""
    out = []
    for c in conditions:
        for name in sorted(c.expr.free_symbols, key=lambda s: s.name):
            if c.kind == "==" and atoms.IDENT.fullmatch(name.name) and c.expr.is_polynomial(name):
                coeffs = sympy.Poly(c.expr, name).all_coeffs()
                if len(coeffs) == 2 and coeffs[0].is_Rational:
                    out.append((name.name, sympy.expand(-coeffs[1] / coeffs[0]), c))
    return out


def side_conditions(script: Replay) -> list[Fact]:
    """The sum rules' conditions the kernel proved for the obligation at hand (in every case,
    or in this one): a congruence's `n - k == 0` among them."""
    return [*script.conditions, *(f for case, f in script.by_case if case == script.case)]


def congruence(script: Replay, fact: Fact) -> Rel | None:
    """The congruence whose identity is `fact`, proved in `script` (its relation named in
    `script.hyps`); None when `fact` is none the obligation's conditions give."""
    conditions = side_conditions(script)
    top = sorted((s for s in fact.expr.free_symbols if atoms.structure(s) is not None),
                 key=lambda s: s.name)
    # a member outside any sum, or one in the body of a sum of `fact` (`within` it)
    members: list[tuple[sympy.Symbol, tuple[sympy.Expr, ...]]] = [
        (s, ()) for s in top if not isinstance(atoms.structure(s), atoms.Sum)]
    for outer in top:
        if isinstance(found := atoms.structure(outer), atoms.Sum):
            members += [(s, (outer,)) for s in sorted(found.body.free_symbols, key=str)
                        if atoms.structure(s) is not None
                        and not isinstance(atoms.structure(s), atoms.Sum)]
    for n, k, condition in candidates(conditions):
        for member, within in members:
            try:
                relation, _ = sums.identity(sums.frozen(SumRule("congruence", member, k,
                                                                within=within, var=n)))
            except KernelError:
                continue
            if normal_form(relation, relation.text)[0] != fact:
                continue
            prove_congruence(script, relation, n, k, condition)
            return relation
    return None


def prove_congruence(script: Replay, relation: Rel, n: str, k: sympy.Expr,
                     condition: Fact, close: Callable[[str], str] | None = None) -> None:
    """`A = A[n := k]` (`relation`) from the condition `n - k == 0`, named in `script.hyps`:
    `n = k` (`Rminus_diag_uniq`), then `rewrite` of `n` and `f_equal` down to the indices
    (or `close(label of n = k)`, a tactic of the caller's). A natural n is the real `INR`
    of its `nat` in a proof, where a sum's bounds read the `nat` itself: `rewrite` changes
    the members that read n and leaves the bounds, which the congruence of a member does
    not change (the congruence of a sum, `within`, is refused where they move)."""
    known = script.fact(condition)
    equal, label = script.new("e"), script.new("s")
    script.emit(f"assert ({equal} : {script.expr(sympy.Symbol(n))} = {script.expr(k)}) "
                f"by (apply Rminus_diag_uniq; refine (zero_eq _ _ _ {known}); ring).")
    script.emit(f"assert ({label} : {script.expr(relation.lhs)} = "
                f"{script.expr(relation.rhs)}) by ("
                + (close(equal) if close else f"rewrite {equal}; {CLOSE}") + ").")
    script.hyps[relation] = label


def _parts(atom: sympy.Symbol) -> list[tuple[atoms.Sum, atoms.Sum, sympy.Expr]]:
    """A double sum's outer and inner sums and its outer body's factor free of the inner, for
    each sum of the outer body that may be the inner one: the kernel's swap takes a body with
    one sum, but its other order may have two (`sum(j, y[j]*sum(l, z[l+j]*sum(i, a[i+l])))`
    swapped is `sum(l, sum(i, a[i+l])*sum(j, y[j]*z[l+j]))`: the sum over i, free of j, is a
    factor of the new outer body)."""
    outer: atoms.Sum = atoms.structure(atom)  # type: ignore[assignment]
    return [(outer, atoms.structure(s), outer.body.xreplace({s: sympy.S.One}))  # type: ignore[misc]
            for s in sorted(outer.body.free_symbols, key=str)
            if isinstance(atoms.structure(s), atoms.Sum) and outer.body.as_powers_dict()[s] == 1]


def _full(outer: atoms.Sum, inner: atoms.Sum, factor: sympy.Expr, at: dict[str, sympy.Symbol]
          ) -> tuple[list[tuple[sympy.Expr, str]], sympy.Expr]:
    """The indicators and the summand of both indices, each index named as `at` says."""
    def moved(e: sympy.Expr) -> sympy.Expr:
        return atoms.substitute(e, at, {})
    filters = [(moved(p), k) for p, k in (*outer.filters, *inner.filters)]
    return sorted(filters, key=str), sympy.expand(moved(factor * inner.body))


def swap(script: Replay, fact: Fact) -> Rel | None:
    """The swap whose identity is `fact`, proved in `script` (its relation named in
    `script.hyps`); None when no sum of `fact` swapped gives it."""
    for atom in sorted(fact.expr.free_symbols, key=str):
        if not isinstance(atoms.structure(atom), atoms.Sum):
            continue
        try:
            relation, _ = sums.identity(sums.frozen(SumRule("swap", atom)))
        except KernelError:
            continue
        if normal_form(relation, relation.text)[0] == fact:
            prove_swap(script, relation)
            return relation
    return None


def prove_swap(script: Replay, relation: Rel) -> None:
    """A double sum `relation.lhs` is the other order `relation.rhs`, named in
    `script.hyps` (`zsum_swap` on the full summand; see the module docstring)."""
    if not (relation.rhs.is_Symbol and isinstance(atoms.structure(relation.rhs), atoms.Sum)):
        raise Unsupported("a swap whose other order is not one sum is not replayed in Coq yet")
    (first,) = _parts(relation.lhs)  # type: ignore[arg-type]  # the kernel's: one sum
    left = _full(*first, {f"#{first[0].bound}": U, f"#{first[1].bound}": V})
    # the inner sum of the other order: the one whose sets and summand are the first's (never
    # none the kernel's swap gives: module docstring)
    other = next((o for o in _parts(relation.rhs)  # type: ignore[arg-type]
                  if _full(*o, {f"#{o[0].bound}": V, f"#{o[1].bound}": U}) == left), None)
    if other is None:
        raise Unsupported("a swap whose sets are not the same in its two orders is not "
                          "replayed in Coq yet")
    nat = script.nat
    whole = "".join(f"({INDICATORS[k]} {printer.expr(p, NAMES, nat)}) * " for p, k in left[0])
    whole += printer.expr(left[1], NAMES, nat)
    label = script.new("s")
    bounds = " ".join(printer.integer(b, nat) for b in (first[0].lo, first[0].hi, first[1].lo,
                                                        first[1].hi))
    script.emit(f"assert ({label} : {script.expr(relation.lhs)} = {script.expr(relation.rhs)}).")
    script.emit(f"{{ apply (zsum_swap {bounds} (fun u' v' => {whole})).")
    _side(script, *first, "u'", "v'")
    _side(script, *other, "v'", "u'")
    script.emit("}")
    script.hyps[relation] = label


def _side(script: Replay, outer: atoms.Sum, inner: atoms.Sum, factor: sympy.Expr, x: str,
          y: str) -> None:
    """One of `zsum_swap`'s premises, `f x = zsum (fun y => h ..)`, for the side `outer`."""
    nat, own = script.nat, {f"#{outer.bound}": x}
    c = "".join(f"({INDICATORS[k]} {printer.expr(p, own, nat)}) * " for p, k in outer.filters)
    c += printer.expr(factor, own, nat)
    lo, hi, function = printer.sum_parts(inner, own, nat)
    script.emit(f"  - intros {x}. cbv beta. transitivity ({c} * zsum {lo} {hi} {function}); "
                f"[ring | apply zsum_factor; intros {y}; cbv beta].")
    both = {**own, f"#{inner.bound}": y}
    kernel = {f"#{outer.bound}": U if x == "u'" else V, f"#{inner.bound}": V if y == "v'" else U}
    replaced: set[str] = set()  # each printed atom replaced once (a filter's may be the body's)
    for p, kind in (*outer.filters, *inner.filters):  # a set's filter with a sum inside
        canon = {t.name: printer.expr(atoms.substitute(t, kernel, {}), NAMES, nat)
                 for t in p.free_symbols if atoms.structure(t) is not None}
        if printer.expr(p, both, nat) == printer.expr(atoms.substitute(p, kernel, {}), NAMES,
                                                      nat):
            continue
        for t in sorted(p.free_symbols, key=str):
            if not isinstance(atoms.structure(t), atoms.Sum):
                if t.name in canon and printer.expr(t, both, nat) != canon[t.name]:
                    raise Unsupported("a swap whose sets print otherwise in its two orders is "
                                      "not replayed in Coq yet")
                continue
            if (naive := printer.expr(t, both, nat)) != canon[t.name] and naive not in replaced:
                replaced.add(naive)
                script.emit(f"    replace {naive} with {canon[t.name]} by "
                            f"({equal_atoms(script, t, kernel, both, NAMES)}).")
        mapped = printer.expr(p, {**both, **canon}, nat)
        renamed = printer.expr(atoms.substitute(p, kernel, {}), NAMES, nat)
        if mapped != renamed:
            script.emit(f"    replace ({INDICATORS[kind]} {mapped}) with ({INDICATORS[kind]} "
                        f"{renamed}) by (first [(f_equal; ring) | (f_equal; field)]).")
    for symbol in sorted((factor * inner.body).free_symbols, key=str):
        if atoms.structure(symbol) is None:
            continue
        naive = printer.expr(symbol, both, nat)
        canon = printer.expr(atoms.substitute(symbol, kernel, {}), NAMES, nat)
        if naive != canon and naive not in replaced:
            replaced.add(naive)
            tactic = equal_atoms(script, symbol, kernel, both, NAMES)
            script.emit(f"    replace {naive} with {canon} by ({tactic}).")
    script.emit("    ring.")


def equal_atoms(script: Replay, atom: sympy.Symbol, moved: Mapping[str, sympy.Expr],
                left: Mapping[str, str], right: Mapping[str, str], prefix: str = "") -> str:
    """A tactic proving `atom` (its free indices printed by `left`) equal to `atom` with the
    indices renamed by `moved` (printed by `right`): one term whose index or filter prints
    in another order. A member or Gram symbol by `CLOSE`; a sum (the third sum of a swap's
    summand, `y[i + l + j]` read with `l` and `j` exchanged) by `zsum_ext`, at a point each
    atom of its body replaced by its own renamed print (recursively) and each indicator by
    its filter renamed (`f_equal; ring`), then `ring`: `replace` cannot reach under the
    sum's `fun`, where its own index is bound. `prefix` runs before each `ring` (a shift
    reads its indices at `x - IZR c`: `Script.zreal` makes a natural's `IZR` the real)."""
    found = atoms.structure(atom)
    if not isinstance(found, atoms.Sum):
        return f"{prefix}{CLOSE}"
    own = f"#{found.bound}"  # bound here: a swap's index may have its number (a factor's sum)
    moved, left, right = ({k: v for k, v in m.items() if k != own}  # type: ignore[misc]
                          for m in (moved, left, right))
    other = atoms.structure(atoms.substitute(atom, moved, {}))
    nat = script.nat
    if not isinstance(other, atoms.Sum) or (other.bound, other.lo, other.hi) != (
            found.bound, found.lo, found.hi):
        raise Unsupported("a sum in a swap's summand whose range moves is not replayed in Coq "
                          "yet")
    point = script.new("x")
    own = f"#{found.bound}"
    here, there = {**left, own: point}, {**right, own: point}
    steps, canon = [f"apply zsum_ext; intros {point}; cbv beta"], {}
    for symbol in sorted(set().union(found.body.free_symbols, *(
            p.free_symbols for p, _ in found.filters)), key=str):
        if atoms.structure(symbol) is None or atoms.INDEX.fullmatch(symbol.name):
            continue
        canon[symbol.name] = printer.expr(atoms.substitute(symbol, moved, {}), there, nat)
        if (naive := printer.expr(symbol, here, nat)) != canon[symbol.name]:
            steps.append(f"replace {naive} with {canon[symbol.name]} by ("
                         f"{equal_atoms(script, symbol, moved, here, there, prefix)})")
    for p, kind in found.filters:
        q = sympy.expand(atoms.substitute(p, moved, {}))
        if (q, kind) not in other.filters:
            raise Unsupported("a sum in a swap's summand whose filters the renaming rescales "
                              "is not replayed in Coq yet")
        ind = INDICATORS[kind]
        naive, renamed = (printer.expr(p, {**here, **canon}, nat),
                          printer.expr(q, there, nat))
        if naive != renamed:
            steps.append(f"replace ({ind} {naive}) with ({ind} {renamed}) by (f_equal; "
                         f"{prefix}ring)")
    return "; ".join([*steps, f"{prefix}ring"])
