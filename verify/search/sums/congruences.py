"""The congruences a step needs (issue 31), proposed for the kernel (`Sequent.sums`): a family
member's index replaced by an equal one, `y[j]` read as `y[k]` where a hypothesis says
`j == k`, and so for every member, Gram symbol or sum that mentions `j` (`<w,x[j]>`,
`sum(l in 1..N, a[l + j])`).

Each equality hypothesis of an obligation, free of division, that is linear in some plain
name `n` with a constant coefficient (`j == k + 1`: `j := k + 1`) eliminates that name (the
first such in name order), in the order the hypotheses come: every atom of the obligation
that mentions `n` (and every atom an earlier congruence made, and every member a sum rule
of the step makes: `last` of sum(j in m..n) makes y[n]) is rewritten with `n` replaced.
Both sides of `y[j] == y[k + 1]` then meet at `y[k + 1]`. Where a sum cannot be rewritten
whole (its bound would become no natural: `n == s` for a scalar s, and sum(j in 1..n,
y[j + n])), the atoms inside its body and filters are, inside it (`within`), its bounds
kept. The kernel checks each as an instance of its schema and proves its condition
`n - k == 0` from the hypotheses; nothing here is believed. Deterministic and bounded
(`MAX_RULES` per obligation, `MAX_VISITS` atoms per equality).
"""

from __future__ import annotations

import sympy

from verify import kernel
from verify.kernel import SumRule, atoms
from verify.kernel.algebra import normal_form
from verify.search.sums.rules import eliminations, per_obligation

MAX_RULES = 24  # per obligation
MAX_VISITS = 64  # atoms looked at per equality, inside sums' bodies too


def has_members(exprs: list[sympy.Expr]) -> bool:
    """Whether any of `exprs` holds a family member (alone, in a Gram symbol or in a sum)."""
    return any(any(k == "family" for k, _ in atoms.named(e)) for e in exprs)


def propose(seq: kernel.Sequent) -> tuple[SumRule, ...]:
    """The congruences for every obligation of `seq` (each for its obligation only), after
    the sum rules it has (`seq.sums`: the atoms their right sides make are rewritten too)."""
    made = [(r.label, kernel.sums.identity(kernel.sums.frozen(r))[0].rhs) for r in seq.sums]

    def for_obligation(label: str, hyps: tuple[kernel.Rel, ...], claim: kernel.Rel,
                       naturals: set[str]) -> list[SumRule]:
        rhs = [e for of, e in made if of in ("", label)]
        return _for(label, hyps, claim, naturals, {
            s for e in rhs for s in e.free_symbols if not isinstance(atoms.structure(s),
                                                                     atoms.Sum)})
    return per_obligation(seq, for_obligation)


def _atoms(symbols: set[sympy.Symbol], name: str) -> list[sympy.Symbol]:
    """The atoms among `symbols` (members, Gram symbols with a member, sums) that mention
    `name`."""
    return sorted((s for s in symbols if atoms.structure(s) is not None
                   and name in atoms.names_of(s)), key=lambda s: s.name)


def _for(label: str, hyps: tuple[kernel.Rel, ...], claim: kernel.Rel,
         naturals: set[str], made: set[sympy.Symbol]) -> list[SumRule]:
    """The congruences one obligation needs (see the module docstring); `made`: the members
    and Gram symbols its sum rules make (the sums they make are the sum rules' own)."""
    present = set().union(made, *(e.free_symbols for r in (*hyps, claim)
                                  for e in (r.lhs, r.rhs)))
    out: list[SumRule] = []
    facts = [f for f, conditions in (normal_form(h, h.text) for h in hyps) if not conditions]
    for name, term in eliminations(facts):
        todo: list[tuple[sympy.Symbol, tuple[sympy.Expr, ...]]] = [
            (atom, ()) for atom in _atoms(present, name)]
        visits = 0
        while todo and len(out) < MAX_RULES and visits < MAX_VISITS:
            (atom, within), visits = todo.pop(0), visits + 1
            proposed = SumRule("congruence", atom, term, within, label, name)
            try:
                fact, _ = kernel.sums.identity(kernel.sums.frozen(proposed))
            except kernel.KernelError:
                fact = None
            if fact is None or atoms.bound_names(fact.rhs) - naturals:
                # refused, or a bound made no natural (the kernel would refuse the step):
                # inside a sum, its members may still be rewritten (its bounds stay)
                inside = atoms.structure(atom)
                if isinstance(inside, atoms.Sum):
                    parts = [inside.body, *(p for p, _ in inside.filters)]
                    todo += [(t, (atom, *within)) for t in _atoms(
                        set().union(*(e.free_symbols for e in parts)), name)]
                continue
            out.append(proposed)
            present |= fact.rhs.free_symbols
    return out
