"""The term-wise rule in Coq: a used claim summed over a set, re-checked by coqc (issue 31).

The kernel's term-wise rule (`verify.kernel.summed`, docs/proof-files.md) turns a step's claim
about one member `j` into a claim about its sum over the integers `lo <= j <= hi` where the
set's filters hold: `sum(g) >= 0` for a claim `g >= 0` or `g > 0` (a strict claim gives only
`>= 0`: the set may be empty), `sum(g) == 0` for `g == 0`, the sum in the kernel's canonical
reading (split by linearity into coefficients free of `j` times canonical sums). Several sums
in a row (`sum = ["l in M", "j in M"]`) are one level each, the first innermost.

The exported theorem does not assume that sum. It states the used claim as written,
quantified over the members (derived from the used step's theorem, below, or a premise):
`forall z : Z, (lo <= z <= hi)%Z -> filters(IZR z) -> ... -> claim(IZR z, ...)` (outermost
level first, each filter as the set states it), and derives the
kernel's summed claim inside its proof, level by level from the innermost: the raw sum
`zsum lo hi (fun x => ind(F1 x) * ... * g x)` is `>= 0` (`= 0`) by `zsum_ge` (`zsum_eq0`),
each member's term by the indicators' lemmas (`ind_ge_nonneg`, ...: where a filter fails the
term is 0, where it holds the written filter follows from it and the premise gives the claim),
then the raw sum equals the kernel's canonical reading by `zsum_combine` (`linear`: one
canonical sum split off at a time, pointwise by `ring`, each family member and indicator of a
canonical sum first read as the raw sum's: the same term, its index printed in another order)
and `zsum_zero`. Every lemma is in the preamble, proved by induction on the length of the
range. The premise itself is derived from the used step's theorem applied at each member
(`members`), as a plain use's claim is by applying it, so the theorem is closed over it;
where that cannot be done, or coqc rejects it, it stays a premise of the theorem and the
step's line says so (`verify.coq.AT_EVERY_MEMBER`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from proofs.step import Proof, Use
from verify.coq import printer
from verify.coq.printer import INDICATORS, Written, expr, integer, kernel_relation
from verify.coq.replay import CLAIM_LEMMA, HYP_LEMMA, Script, constant, gap_of, identity
from verify.coq.statement import Level, Termwise, Unsupported
from verify.coq.sums import linear
from verify.kernel import KernelError, Rel, Statement, atoms, summed
from verify.kernel.algebra import normal_form

__all__ = ["Termwise", "derive", "fact_ratio", "names", "of_use", "premise"]


def of_use(stated: Statement, use: Use, proof: Proof) -> tuple[Rel, Termwise]:
    """The summed claim a term-wise `use` imports (the kernel's `summed`, as the checker
    applies it) and its `Termwise`; `Unsupported` when `derive` could not derive it (the
    claim then stays a premise as the kernel states it, and the step says so)."""
    from verify.proof_checker import over

    summations = over(use, proof)
    statement = stated
    for summation in summations:
        statement = summed(statement, *summation)
    levels = tuple(Level(j, lo, hi, tuple(where)) for j, lo, hi, where in summations)
    termwise = Termwise(use.step, stated.claim, levels)
    _plans(termwise, statement.claim)
    return statement.claim, termwise


def _written(proof: Proof, relation: Rel, real: Mapping[str, str],
             nat: Mapping[str, str]) -> tuple[str, str, str]:
    """A relation as written (its source text, names by `real`), or in the kernel's reading
    when it holds sums or family members."""
    parts = Written(proof.names, real).relation(relation)
    return parts if parts is not None else kernel_relation(relation, real, nat)


def premise(proof: Proof, termwise: Termwise, real: Mapping[str, str],
            nat: Mapping[str, str]) -> str:
    """The proposition in place of the summed claim (the theorem's premise, or asserted in
    its proof: `members`): the claim as written for every member of every level (outermost
    first), each index an integer `z'k`."""
    real = dict(real)
    out = "("
    for k, level in enumerate(reversed(termwise.levels)):
        z = f"z'{k}"
        real[level.index] = f"(IZR {z})"
        out += (f"forall {z} : Z, ({integer(level.lo, nat)} <= {z} <= "
                f"{integer(level.hi, nat)})%Z -> ")
        out += "".join(f"{' '.join(_written(proof, f, real, nat))} -> " for f in level.filters)
    return out + " ".join(_written(proof, termwise.claim, real, nat)) + ")"


def names(proof: Proof, termwise: Termwise) -> set[str]:
    """The declared names the premise reads (bound in the theorem), its indices excepted."""
    found: set[str] = set()
    for relation in (termwise.claim, *(f for level in termwise.levels for f in level.filters)):
        found |= printer.names_in(relation, proof.names)
    return found - {level.index for level in termwise.levels}


@dataclass(frozen=True)
class _Plan:
    """One level in the kernel's terms: the body summed (each outer index free), the
    kernel's canonical total, its filters (about the index) and its split by linearity:
    (coefficient free of the index, canonical sum) pairs whose combination is the total."""

    level: Level
    body: sympy.Expr
    total: sympy.Expr
    filters: tuple[tuple[sympy.Expr, str], ...]
    terms: tuple[tuple[sympy.Expr, sympy.Symbol], ...]


def fact_ratio(target: sympy.Expr, relation: Rel) -> Fraction:
    """The nonzero rational r with r * gap(relation) == target, where `target` is the
    relation's fact up to a constant factor."""
    gap = sympy.expand(gap_of(relation))
    ratio = sympy.cancel(sympy.expand(target) / gap) if gap != 0 else sympy.nan
    if not ratio.is_Rational or ratio == 0:
        raise Unsupported(f"{relation.text!r} is not its fact {target} up to a constant")
    return Fraction(int(ratio.p), int(ratio.q))


def _gives(p: sympy.Expr, kind: str, written: Rel) -> Fraction | None:
    """The ratio by which the canonical filter `p (kind) 0` gives the filter as `written`
    (positive; negative for an equality), or None when it is another filter."""
    if kind != normal_form(written, written.text)[0].kind:
        return None
    try:
        ratio = fact_ratio(p, written)
    except Unsupported:
        return None
    return ratio if ratio > 0 or kind == "==" else None


def _plans(termwise: Termwise, summed_claim: Rel) -> tuple[str, list[_Plan]]:
    """The claim's kind and each level's `_Plan`, innermost first, recomputed with the
    kernel's own constructors; refused unless the last total is the kernel's summed claim."""
    fact, conditions = normal_form(termwise.claim, termwise.claim.text)
    if conditions or (fact_ratio(fact.expr, termwise.claim) < 0 and fact.kind != "=="):
        raise Unsupported("a summed claim that divides, or is not its fact")
    body, plans = fact.expr, []
    for level in termwise.levels:
        j = sympy.Symbol(level.index)
        facts = []
        for relation in level.filters:
            f, cs = normal_form(relation, relation.text)
            if cs or not f.expr.free_symbols:
                raise Unsupported(f"the filter {relation.text!r} divides or is constant")
            facts.append((f.expr, f.kind))
        total = atoms.finite_sum(j, level.lo, level.hi, facts, body)
        terms = linear.terms(j, level.lo, level.hi, facts, body, total)
        filters: tuple[tuple[sympy.Expr, str], ...] = ()
        if terms:
            found = atoms.structure(terms[0][1])
            assert isinstance(found, atoms.Sum)
            filters = tuple((atoms.substitute(p, {f"#{found.bound}": j}, {}), kind)
                            for p, kind in found.filters)
            if any(all(_gives(p, k, w) is None for p, k in filters) for w in level.filters):
                raise Unsupported("a filter as written is none of the sum's filters")
        plans.append(_Plan(level, body, total, filters, tuple(terms)))
        body = total
    if sympy.expand(body - (summed_claim.lhs - summed_claim.rhs)) != 0:
        raise Unsupported("the levels do not give the kernel's summed claim")
    return fact.kind, plans


class _Deriver:
    """Emits the derivation of one summed claim into a proof `script`."""

    def __init__(self, proof: Proof, script: Script, termwise: Termwise, label: str,
                 kind: str, plans: Sequence[_Plan]) -> None:
        self.proof, self.script, self.termwise, self.premise = proof, script, termwise, label
        self.kind, self.plans = kind, plans
        self.equal = kind == "=="

    def expr(self, e: sympy.Expr, real: Mapping[str, str]) -> str:
        return expr(e, real, self.script.nat)

    def emit(self, line: str) -> None:
        self.script.emit(line)

    def level(self, i: int, real: dict[str, str], args: list[str]) -> str:
        """Assert `0 <= total` (`total = 0`) of level i at the outer points `real`;
        returns its label. `args` are the premise's arguments for the outer levels."""
        plan, script = self.plans[i], self.script
        total = self.expr(plan.total, real)
        label = script.new("t")
        self.emit(f"assert ({label} : {f'{total} = 0' if self.equal else f'0 <= {total}'}).")
        if not plan.terms:  # nothing to sum: the kernel's total is 0
            self.emit(f"{{ {'reflexivity' if self.equal else 'apply Rle_refl'}. }}")
            return label
        self.emit("{")
        script.indent += "  "
        j, lo, hi = plan.level.index, integer(plan.level.lo, script.nat), integer(
            plan.level.hi, script.nat)
        x = script.new("x")
        inner = {**real, j: x}
        factors = [f"{INDICATORS[k]} {self.expr(p, inner)}" for p, k in plan.filters]
        function = f"(fun {x} => " + "".join(f"({f}) * (" for f in factors) + self.expr(
            plan.body, inner) + ")" * len(factors) + ")"
        raw = f"(zsum {lo} {hi} {function})"
        nonneg = script.new("r")
        self.emit(f"assert ({nonneg} : {f'{raw} = 0' if self.equal else f'0 <= {raw}'}).")
        z, hz = script.new("z"), script.new("hz")
        self.emit(f"{{ apply {'zsum_eq0' if self.equal else 'zsum_ge'}. intros {z} {hz}. "
                  "cbv beta.")
        script.indent += "  "
        member = {**real, j: f"(IZR {z})"}
        facts = []
        for p, k in plan.filters:
            fact = script.new("f")
            lemma = {">=": "ind_ge", ">": "ind_gt", "==": "ind_eq"}[k]
            self.emit(f"apply {lemma}_{'zero' if self.equal else 'nonneg'}; intros {fact}.")
            facts.append((p, k, fact))
        args = [*args, z, hz, *(self.filter(w, facts, member) for w in plan.level.filters)]
        if i == 0:
            self.member(member, args)
        else:
            self.emit(f"exact {self.level(i - 1, member, args)}.")
        script.indent = script.indent[:-2]
        self.emit("}")
        self.emit(f"refine ({'zero_eq' if self.equal else 'nonneg_eq'} _ _ _ {nonneg}).")
        linear.combine(script, j, plan.filters, plan.terms, real, lo, hi)
        script.indent = script.indent[:-2]
        self.emit("}")
        return label

    def filter(self, written: Rel, facts: list[tuple[sympy.Expr, str, str]],
               member: Mapping[str, str]) -> str:
        """The set's filter as written at this member, from its indicator's case."""
        for p, k, label in facts:
            ratio = _gives(p, k, written)
            if ratio is None:
                continue
            a, op, b = _written(self.proof, written, member, self.script.nat)
            f = constant(abs(ratio))
            lemma = CLAIM_LEMMA[written.op] if ratio > 0 else "claim_eq_rev"
            target = self.expr(p, member)
            out = self.script.new("w")
            self.emit(f"assert ({out} : {a} {op} {b}) by (refine ({lemma} _ _ {f.text} _ "
                      f"{f.proof} _ {label}); ip_canon; {identity(a, b, f.text, target)}).")
            return out
        raise Unsupported(f"no filter of the sum gives {written.text!r}")

    def member(self, member: Mapping[str, str], args: list[str]) -> None:
        """The innermost term: the premise at this member, then the claim's fact."""
        claim = self.termwise.claim
        label = self.script.new("m")
        self.emit(f"pose proof ({self.premise} {' '.join(args)}) as {label}.")
        g = normal_form(claim, claim.text)[0].expr
        ratio = fact_ratio(g, claim)  # positive, or an equality's (`_plans`)
        a, _op, b = _written(self.proof, claim, member, self.script.nat)
        f = constant(abs(ratio))
        lemma = HYP_LEMMA[claim.op] if ratio > 0 else "fact_eq_rev"
        weaken = "apply Rlt_le. " if claim.op in ("<", ">") else ""
        self.emit(f"{weaken}refine ({lemma} _ _ {f.text} _ {f.proof} _ {label}); ip_canon; "
                  f"{identity(a, b, f.text, self.expr(g, member))}.")


def derive(proof: Proof, script: Script, termwise: Termwise, summed_claim: Rel,
           label: str) -> str:
    """Emit the derivation of `summed_claim` (as the kernel states it) from the premise
    `label` (see `premise`); returns the label of the summed claim."""
    try:
        kind, plans = _plans(termwise, summed_claim)
    except KernelError as error:
        raise Unsupported(f"summing {termwise.used}: {error}") from None
    deriver = _Deriver(proof, script, termwise, label, kind, plans)
    top = deriver.level(len(plans) - 1, {}, [])
    lhs, op, rhs = kernel_relation(summed_claim, nat=script.nat)
    out = script.new("s")
    if op == "=":
        script.emit(f"assert ({out} : {lhs} = {rhs}) by (refine (zero_eq _ _ _ {top}); ring).")
    else:
        script.emit(f"assert ({out} : {lhs} {op} {rhs}) by (apply Rle_ge; "
                    f"refine (nonneg_eq _ _ _ {top}); ring).")
    return out
