"""The congruence rule in Coq: a family member's index replaced by an equal term (issue 31).

The kernel's `congruence` (verify/kernel/sums.py, docs/proof-files.md) gives `A == A[n := k]`
for an atom `A` where its condition `n - k == 0` holds. Replayed here for family members and
Gram symbols (no sum): the condition, proved from the obligation's hypotheses as its side
obligation is, gives `n = k` (`Rminus_diag_uniq`); `A = A[n := k]` is then `rewrite` of `n`
by `k` and `f_equal` down to the members' indices, which are equal by `ring` (the Gram
symbol's vectors swapped by `ip_sym` where the kernel orders them the other way). A
congruence of a sum, or of a natural (a `nat` in Coq), is not replayed: the step says
`not exported`, never checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy

from verify.coq.statement import Unsupported
from verify.kernel import Fact, KernelError, Rel, SumRule, atoms, sums
from verify.kernel.algebra import normal_form

if TYPE_CHECKING:
    from verify.coq.replay import Script

__all__ = ["prove"]
CLOSE = ("first [reflexivity | (f_equal; ring) | (f_equal; f_equal; ring) | "
         "(rewrite ip_sym; first [reflexivity | (f_equal; ring) | (f_equal; f_equal; ring)])]")


def _candidates(conditions: list[Fact]) -> list[tuple[str, sympy.Expr, Fact]]:
    """`(n, k, condition)` for each condition `n - k == 0` (up to a constant factor)."""
    out = []
    for c in conditions:
        for name in sorted(c.expr.free_symbols, key=lambda s: s.name):
            if c.kind == "==" and atoms.IDENT.fullmatch(name.name) and c.expr.is_polynomial(name):
                coeffs = sympy.Poly(c.expr, name).all_coeffs()
                if len(coeffs) == 2 and coeffs[0].is_Rational:
                    out.append((name.name, sympy.expand(-coeffs[1] / coeffs[0]), c))
    return out


def prove(script: Script, fact: Fact) -> Rel | None:
    """The congruence whose identity is `fact`, proved in `script` (its relation named in
    `script.hyps`); None when `fact` is none the obligation's conditions give."""
    if any(isinstance(atoms.structure(s), atoms.Sum) for s in fact.expr.free_symbols):
        return None
    conditions = [f for f in script.conditions] + [f for case, f in script.by_case
                                                   if case == script.case]
    members = sorted((s for s in fact.expr.free_symbols if atoms.structure(s) is not None),
                     key=lambda s: s.name)
    for n, k, condition in _candidates(conditions):
        for member in members:
            try:
                relation, _ = sums.identity(sums.frozen(SumRule("congruence", member, k,
                                                                var=n)))
            except KernelError:
                continue
            if normal_form(relation, relation.text)[0] != fact:
                continue
            if n in script.nat:
                raise Unsupported(f"a congruence of the natural {n} is not replayed in Coq yet")
            known = script.fact(condition)
            equal, label = script.new("e"), script.new("s")
            script.emit(f"assert ({equal} : {script.expr(sympy.Symbol(n))} = {script.expr(k)}) "
                        f"by (apply Rminus_diag_uniq; refine (zero_eq _ _ _ {known}); ring).")
            script.emit(f"assert ({label} : {script.expr(relation.lhs)} = "
                        f"{script.expr(relation.rhs)}) by (rewrite {equal}; {CLOSE}).")
            script.hyps[relation] = label
            return relation
    return None
