"""A term-wise use's premise derived from the used step's theorem (newcomer 31, F8).

A step that sums a used claim term-wise needs that claim at every member of the set: the
export states it quantified over the members (`termwise.premise`) and derives the kernel's
summed claim from it (`termwise.derive`). Taken as a premise of the theorem, it was the one
link coqc did not check: that the used claim holds at each member. Here the proof derives it
instead, so the theorem is closed over it. Where the opening applies the used theorems (the
naturals still their `nat`s: `Rules.apply_uses`) the proof asserts the premise and proves it
by the used step's own theorem applied at each member: `intros` of each level's integer `z`,
its bounds `lo <= z <= hi` and the set's filters as written, outermost level first, then
the used theorem at `IZR z` (each level's index) and the using step's names. Each premise of
the used theorem that reads an index is a membership fact of its level (the kernel's
`summed` admits no other: `index >= lo`, `index <= hi` or a filter, equal in normal form),
obtained from its bound (`IZR_le` of the integer bound, read as reals) or from the filter as
written, through their common normal form by one bridge lemma each way, the identities by
`ring`; every other premise is a hypothesis the kernel kept in the using step's statement,
in context by its label. The theorem's line then says plain `checked`.

`plan` refuses (`Unsupported`) what it cannot derive so: the used step not exported, an
induction or an existential claim, a theorem that itself takes a claim at every member, a
binder the using step does not bind as the used one does, a bound that is not linear. The
premise then stays a premise and the line says it is assumed; so it does when coqc rejects
the derivation (`verify.coq.export_and_check` exports the step again with the premise).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

import sympy

from proofs.step import Proof
from verify.coq.printer import expr, name
from verify.coq.replay import CLAIM_LEMMA, HYP_LEMMA, Script, constant, identity
from verify.coq.statement import Exported, Level, Termwise, Unsupported
from verify.coq.sums.termwise import fact_ratio, premise
from verify.kernel import Rel, atoms
from verify.kernel.algebra import normal_form

__all__ = ["Derivation", "plan"]

#: Reads `IZR` of an integer bound as the real it is, a natural's `Z.of_nat n` as `INR n`
#: (before the opening makes the natural an opaque real).
_AS_REALS = "rewrite ?plus_IZR, ?minus_IZR, ?mult_IZR, ?opp_IZR, <- ?INR_IZR_INZ"


def _reads(relation: Rel) -> set[str]:
    """Every name a relation reads, its divisors included (as the kernel's `summed` reads
    a hypothesis when it decides whether it mentions the index)."""
    return set().union(*(atoms.names_of(e) for e in (relation.lhs, relation.rhs,
                                                      *relation.divisors)))


def _members(level: Level) -> tuple[Rel, ...]:
    """The level's membership facts as the kernel's `summed` states them: `index >= lo`,
    `index <= hi` (as `hi - index >= 0`), then its filters."""
    j = sympy.Symbol(level.index)
    return (Rel(j - level.lo, ">=", sympy.Integer(0), f"{level.index} >= {level.lo}"),
            Rel(level.hi - j, ">=", sympy.Integer(0), f"{level.index} <= {level.hi}"),
            *level.filters)


@dataclass(frozen=True)
class Derivation:
    """How one premise at every member is derived: the summed claim it stands for, its
    `Termwise`, the used step's exported theorem, and each of that theorem's premises in
    order, as (level, membership fact) for one that reads an index (innermost level 0),
    or None for a hypothesis of the using step (in context by its label when applied)."""

    relation: Rel
    termwise: Termwise
    used: Exported
    premises: tuple[tuple[int, int] | None, ...]

    def needs(self) -> tuple[Rel, ...]:
        """The used theorem's premises the using step must have in context."""
        return tuple(h for h, m in zip(self.used.hypotheses, self.premises, strict=True)
                     if m is None)

    def ready(self, script: Script) -> bool:
        """Whether every hypothesis the used theorem takes is in context."""
        return all(h in script.hyps for h in self.needs())

    def emit(self, proof: Proof, script: Script, label: str, intros: Mapping[str, str]
             ) -> None:
        """Assert the premise as `label` (the naturals their `nat`s, `intros`) and prove
        it by the used theorem at each member (module doc)."""
        levels = self.termwise.levels
        real = {n: f"(INR {nat})" for n, nat in intros.items()}
        script.emit(f"assert ({label} : {premise(proof, self.termwise, real, intros)}).")
        script.emit("{")
        script.indent += "  "
        member = dict(real)
        given: dict[tuple[int, int], str] = {}  # (level, membership fact) -> its label
        bounds: dict[int, str] = {}
        names = []
        for i in reversed(range(len(levels))):  # the premise's order: outermost first
            z, hz = script.new("z"), script.new("hz")
            member[levels[i].index] = f"(IZR {z})"
            bounds[i] = hz
            names += [z, hz]
            for k in range(len(levels[i].filters)):
                given[(i, 2 + k)] = script.new("w")
                names.append(given[(i, 2 + k)])
        script.emit(f"intros {' '.join(names)}.")
        canonical: dict[tuple[int, int], str] = {}
        for at in dict.fromkeys(m for m in self.premises if m is not None):
            canonical[at] = self._canonical(script, at, member, bounds, given, intros)
        args = []
        for v in self.used.variables:
            index = next((lv.index for lv in levels if lv.index == v), None)
            if index is not None:
                args.append(member[index])
            elif v in self.used.naturals:
                args.append(intros[v])
            else:
                args.append(real.get(v, name(v)))
        holes = []
        for h, at in zip(self.used.hypotheses, self.premises, strict=True):
            if at is None:
                args.append(script.hyps[h])
            else:
                args.append("_")
                holes.append((h, canonical[at]))
        script.emit(f"refine ({self.used.theorem} {' '.join(args)}).")
        for h, fact in holes:  # each membership premise, from its canonical fact
            script.emit(f"- {_bridge(h, fact, member, intros, claim=True)}.")
        script.indent = script.indent[:-2]
        script.emit("}")
        script.quantified[self.relation] = label

    def _canonical(self, script: Script, at: tuple[int, int], member: Mapping[str, str],
                   bounds: Mapping[int, str], given: Mapping[tuple[int, int], str],
                   intros: Mapping[str, str]) -> str:
        """Assert the normal form `p (kind) 0` of one membership fact at this member: from
        the integer bound (`IZR_le`, read as reals) or the filter as written."""
        i, k = at
        relation = _members(self.termwise.levels[i])[k]
        fact = normal_form(relation, relation.text)[0]
        label = script.new("c")
        statement = _prop(fact.expr, fact.kind, member, intros)
        if k < 2:  # a bound: `IZR lo <= IZR z` or `IZR z <= IZR hi`, from `lo <= z <= hi`
            ratio = fact_ratio(fact.expr, relation)
            f = constant(ratio)
            side = "proj1" if k == 0 else "proj2"
            script.emit(f"assert ({label} : {statement}) by (refine (fact_le _ _ {f.text} _ "
                        f"{f.proof} _ (IZR_le _ _ ({side} {bounds[i]}))); {_AS_REALS}; ring).")
        else:
            bridge = _bridge(relation, given[at], member, intros, claim=False)
            script.emit(f"assert ({label} : {statement}) by ({bridge}).")
        return label


def _prop(p: sympy.Expr, kind: str, member: Mapping[str, str], intros: Mapping[str, str]
          ) -> str:
    text = expr(p, member, intros)
    return {">=": f"0 <= {text}", ">": f"0 < {text}", "==": f"{text} = 0"}[kind]


def _bridge(relation: Rel, label: str, member: Mapping[str, str], intros: Mapping[str, str],
            claim: bool) -> str:
    """The tactic from `label` to `relation`'s normal form (`claim=False`: `label` proves the
    relation) or from its normal form `label` to the relation (`claim=True`: the goal)."""
    fact = normal_form(relation, relation.text)[0]
    ratio = fact_ratio(fact.expr, relation)  # r * gap == p: positive, or an equality's
    f = constant(abs(ratio))
    if claim:
        lemma = CLAIM_LEMMA[relation.op] if ratio > 0 else "claim_eq_rev"
    else:
        lemma = HYP_LEMMA[relation.op] if ratio > 0 else "fact_eq_rev"
    target = expr(fact.expr, member, intros)
    return (f"refine ({lemma} _ _ {f.text} _ {f.proof} _ {label}); ip_canon; "
            f"{identity(relation.text, f.text, target)}")


def plan(relation: Rel, termwise: Termwise, used: Exported | None, kept: Collection[Rel],
         bound: Collection[str], naturals: Collection[str]) -> Derivation:
    """How the using step derives `relation`'s premise (the used claim at every member)
    from the used step's theorem; `kept` are the relations the using step has in context
    (its hypotheses and the claims its uses derive), `bound` the names its theorem binds,
    `naturals` those bound as `nat`. `Unsupported` says why it cannot (module doc)."""
    what = f"the claim of {termwise.used} at every member"
    if used is None or used.theorem is None or used.claim is None:
        raise Unsupported(f"{what}: {termwise.used} is not exported")
    if used.induction or used.exists or used.run is not None:
        raise Unsupported(f"{what}: its theorem is an induction's or existential")
    if any(h in used.termwise for h in used.hypotheses):
        raise Unsupported(f"{what}: its theorem takes a claim at every member as a premise")
    levels = termwise.levels
    indices = {level.index for level in levels}
    for v in used.variables:
        if v in indices:
            if v in used.naturals:
                raise Unsupported(f"{what}: its index {v} is a natural there")
        elif (v in used.naturals and v not in naturals) or v not in bound:
            raise Unsupported(f"{what}: its theorem binds {v} otherwise")
    for level in levels:
        for b in (level.lo, level.hi):
            if sympy.Poly(b, *b.free_symbols or [sympy.Symbol("_")]).total_degree() > 1:
                raise Unsupported(f"{what}: a bound that is not linear")
    premises: list[tuple[int, int] | None] = []
    for h in used.hypotheses:
        reads = _reads(h)
        i = next((i for i, level in enumerate(levels) if level.index in reads), None)
        if i is None:
            if h not in kept:
                raise Unsupported(f"{what}: its premise {h.text!r} is not in context")
            premises.append(None)
            continue
        form = normal_form(h, h.text)
        k = next((k for k, m in enumerate(_members(levels[i]))
                  if normal_form(m, m.text) == form), None)
        if k is None or form[1]:
            raise Unsupported(f"{what}: its premise {h.text!r} is no membership fact")
        premises.append((i, k))
    return Derivation(relation, termwise, used, tuple(premises))
