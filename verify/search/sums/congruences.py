"""The congruences a step needs (issue 31), proposed for the kernel (`Sequent.sums`): a family
member's index replaced by an equal one, `y[j]` read as `y[k]` where a hypothesis says
`j == k`, and so for every member, Gram symbol or sum that mentions `j` (`<w,x[j]>`,
`sum(l in 1..N, a[l + j])`).

Each equality hypothesis of an obligation, free of division, that is linear in some plain
name `n` with a constant coefficient (`j == k + 1`: `j := k + 1`) eliminates that name (the
first such in name order), in the order the hypotheses come: every atom of the obligation
that mentions `n` (and every atom an earlier congruence made) is rewritten with `n` replaced.
Both sides of `y[j] == y[k + 1]` then meet at `y[k + 1]`. The kernel checks each as an
instance of its schema and proves its condition `n - k == 0` from the hypotheses; nothing
here is believed. Deterministic and bounded (`MAX_RULES` per obligation).
"""

from __future__ import annotations

import sympy

from verify import kernel
from verify.kernel import SumRule, atoms
from verify.kernel.algebra import normal_form
from verify.search.sums.rules import per_obligation

MAX_RULES = 24  # per obligation


def has_members(exprs: list[sympy.Expr]) -> bool:
    """Whether any of `exprs` holds a family member (alone, in a Gram symbol or in a sum)."""
    return any(any(k == "family" for k, _ in atoms.named(e)) for e in exprs)


def propose(seq: kernel.Sequent) -> tuple[SumRule, ...]:
    """The congruences for every obligation of `seq` (each for its obligation only)."""
    return per_obligation(seq, _for)


def _eliminations(hyps: tuple[kernel.Rel, ...]) -> list[tuple[str, sympy.Expr]]:
    """`(n, k)` for each equality hypothesis that gives a plain name `n` as `k` (see above)."""
    out = []
    for h in hyps:
        fact, conditions = normal_form(h, h.text)
        if fact.kind != "==" or conditions:
            continue
        for name in sorted(fact.expr.free_symbols, key=lambda s: s.name):
            if not atoms.IDENT.fullmatch(name.name):
                continue
            c = sympy.Poly(fact.expr, name).all_coeffs() if fact.expr.is_polynomial(name) else []
            if len(c) == 2 and c[0].is_Rational and c[0] != 0:
                out.append((name.name, sympy.expand(-c[1] / c[0])))
                break
    return out


def _atoms(symbols: set[sympy.Symbol], name: str) -> list[sympy.Symbol]:
    """The atoms among `symbols` (members, Gram symbols with a member, sums) that mention
    `name`."""
    return sorted((s for s in symbols if atoms.structure(s) is not None
                   and name in atoms.names_of(s)), key=lambda s: s.name)


def _for(label: str, hyps: tuple[kernel.Rel, ...], claim: kernel.Rel,
         naturals: set[str]) -> list[SumRule]:
    """The congruences one obligation needs (see the module docstring)."""
    present = set().union(*(e.free_symbols for r in (*hyps, claim) for e in (r.lhs, r.rhs)))
    out: list[SumRule] = []
    for name, term in _eliminations(hyps):
        for atom in _atoms(present, name):
            proposed = SumRule("congruence", atom, term, (), label, name)
            try:
                fact, _ = kernel.sums.identity(kernel.sums.frozen(proposed))
            except kernel.KernelError:
                continue
            if atoms.bound_names(fact.rhs) - naturals or len(out) >= MAX_RULES:
                continue  # a bound made no natural: the kernel would refuse the step
            out.append(proposed)
            present |= fact.rhs.free_symbols
    return out
