"""The part of a judgement its certificate search may look at: the names the claim reaches.

A step's verdict must depend only on the step (issue 28, item 4): declaring more scalars in
the file, or adding hypotheses about names the claim never meets, must not change what the
search tries or how much of its budget it spends. Hypotheses are linked through the names
they share (a Gram symbol `<a,b>` mentions the vectors a and b, a sum or a family member every
name inside it: `verify.kernel.atoms.named`); the certificate search sees
only the hypotheses linked to the claim (and hints), and the ring of only their names.

Why nothing provable is lost when the claim has names: if the hypotheses outside the claim's
part are satisfiable, they constrain variables that occur nowhere else, so any point of the
claim's part extends to a point of the whole, and the claim follows from its part alone (the
Positivstellensatz then has a certificate over the part). If they are contradictory the step
is vacuous; that is not searched for (a user's step is not meant to be vacuous). A claim
without names (`0 > 0`, the refutation form and the vacuity check) is searched part by part,
each with its own budget: a product of independent sets is empty only if one factor is.

Counterexamples are searched on the whole judgement, as before: a point must satisfy every
hypothesis.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import sympy

from proofs.language.terms import Vec
from verify.kernel import Certificate, Judgement, Product, atoms
from verify.search.polynomials import symbols_of

Name = tuple[str, str]  # ("scalar" | "vector" | "family", name)


def names(symbols: Iterable[sympy.Symbol]) -> frozenset[Name]:
    """The names behind `symbols`: a Gram symbol names its two vectors, a sum or a family
    member every name inside it (the kernel's reading, `atoms.named`)."""
    return frozenset(found for symbol in symbols for found in atoms.named(symbol))


@lru_cache(maxsize=1 << 14)
def names_in(expr: sympy.Expr) -> frozenset[Name]:
    """`names` of the symbols of `expr`, once per expression (see `symbols_of`)."""
    return names(symbols_of(expr))


def hint_names(hints: Sequence[sympy.Expr | Vec]) -> frozenset[Name]:
    """The names a hint mentions: its vectors and the scalars of its coefficients."""
    out: set[Name] = set()
    for hint in hints:
        if isinstance(hint, Vec):
            out |= {found for v in hint for found in atoms.named(atoms.gram(v, v))}
            for coeff in hint.values():
                out |= names(coeff.free_symbols)
        else:
            out |= names(hint.free_symbols)
    return frozenset(out)


@dataclass(frozen=True)
class Part:
    """A judgement restricted to some hypotheses; `kept[i]` is the index of its hypothesis i
    in the whole judgement."""

    judgement: Judgement
    kept: tuple[int, ...]

    def lift(self, certificate: Certificate) -> Certificate:
        """The same certificate with hypothesis indices of the whole judgement."""
        k = self.kept
        return Certificate(
            products=tuple(Product(p.coeff, tuple(k[i] for i in p.hyps), p.sigma)
                           for p in certificate.products),
            linear=tuple((k[j], q) for j, q in certificate.linear),
            multiplier=tuple(k[i] for i in certificate.multiplier),
        )


def parts(judgement: Judgement, hints: Sequence[sympy.Expr | Vec] = ()) -> list[Part]:
    """The parts whose certificates are searched (see the module docstring), in order."""
    hyp_names = [names_in(h.expr) for h in judgement.hypotheses]
    seed = names_in(judgement.claim.expr) | hint_names(hints)
    constant = tuple(i for i, found in enumerate(hyp_names) if not found)
    mentioning: dict[Name, list[int]] = {}  # the hypotheses mentioning each name
    for i, found in enumerate(hyp_names):
        for name in found:
            mentioning.setdefault(name, []).append(i)
    if seed:
        return [_part(judgement, _reach(seed, hyp_names, mentioning), constant)]
    groups: list[set[int]] = []
    left = [i for i, found in enumerate(hyp_names) if found]
    while left:
        group = _reach(hyp_names[left[0]], hyp_names, mentioning)
        groups.append(group)
        left = [i for i in left if i not in group]
    if len(groups) <= 1:
        return [Part(judgement, tuple(range(len(judgement.hypotheses))))]
    return [_part(judgement, group, constant) for group in groups]


def _reach(seed: frozenset[Name], hyp_names: list[frozenset[Name]],
           mentioning: dict[Name, list[int]]) -> set[int]:
    """The hypotheses linked to `seed` through shared names (transitively), each name
    followed once (a chain of k hypotheses is k steps, not k passes over all of them)."""
    reached: set[Name] = set(seed)
    todo = list(seed)
    kept: set[int] = set()
    while todo:
        for i in mentioning.get(todo.pop(), ()):
            if i not in kept:
                kept.add(i)
                todo += [name for name in hyp_names[i] - reached]
                reached |= hyp_names[i]
    return kept


def _part(judgement: Judgement, group: set[int], constant: tuple[int, ...]) -> Part:
    """The judgement on the hypotheses `group` and the constant ones, in their order."""
    kept = tuple(sorted(group | set(constant)))
    hypotheses = tuple(judgement.hypotheses[i] for i in kept)
    used = names_in(judgement.claim.expr).union(*(names_in(h.expr) for h in hypotheses))
    return Part(
        Judgement(hypotheses, judgement.claim,
                  tuple(v for v in judgement.vectors if ("vector", v) in used),
                  tuple(s for s in judgement.scalars if ("scalar", s) in used)),
        kept,
    )
