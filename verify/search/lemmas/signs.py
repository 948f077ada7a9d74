"""Sign facts a step needs but does not state, proposed as lemmas it then uses.

A student writes the batch perceptron's step size cleared of its denominator,
`alpha*norm2(d) == dot(ts, d)`, beside `dot(ts, d) >= g` and `g > 0`, and drops the term
`2*alpha*dot(th, d)` as `<= 0` since `dot(th, d) <= 0`. That needs `alpha >= 0`, which the
hypotheses imply (alpha times a norm is positive) but no certificate over them reaches at the
search's degrees: the product `alpha * (-dot(th, d))` of a hypothesis and an unstated sign is
the whole proof. A person proves `alpha > 0` first and uses it; so does the checker. For each
squared norm `norm2(v)` and each scalar the step's obligations read, in that order, whose
positivity no hypothesis states, it proposes the lemma `norm2(v) > 0` (`s > 0`, then
`s >= 0`) under the step's own hypotheses and uses, each later lemma using the earlier ones
proved (so `R2 > 0` from `norm2(d) <= mk**2*R2` can use `norm2(d) > 0`, proved first).

Nothing here is believed. The checker (`verify.proof_checker`) proves each lemma as a step
with a share of the budget (counted work: the same lemmas on every machine), and decides the
step again with the proved ones as plain `uses`: the kernel checks each lemma's theorem and
the use, exactly as for a lemma the user wrote. The lemmas are proposed only for a direct
step (a case split or an induction reads its hypotheses per case or per update).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sympy

from proofs.language.expressions import ExpressionError, parse_relation
from proofs.step import Direct, Proof, Step, Use
from verify.kernel import Obligation, atoms
from verify.search.sums.termwise import lemma_stem

MAX_LEMMAS = 6  # lemmas tried for one step, proved or not
MARK = "-sign-"  # in a lemma's step id: `<step>-sign-<k>`


@dataclass(frozen=True)
class Subject:
    """A quantity whose sign a step may need: `text` as a proof file writes it (`norm2(d)`,
    `alpha`), and whether a hypothesis already says it is `>= 0` (then only `> 0` is
    worth proving)."""

    text: str
    weak: bool


def subjects(proof: Proof, goals: Iterable[Obligation]) -> list[Subject]:
    """The squared norms of declared vectors, then the declared scalars, that the
    obligations `goals` read and whose positivity (`x > 0`) none of their hypotheses states:
    norms first (a scalar's sign often follows from a norm's, `R2 > 0` from `norm2(d) > 0`),
    each group in the proof's order of declaration; deterministic."""
    goals = list(goals)
    read: set[sympy.Symbol] = set()
    for goal in goals:
        for fact in (*goal.judgement.hypotheses, goal.judgement.claim):
            read |= fact.expr.free_symbols
    norms = {pair[0] for s in read if (pair := atoms.gram_pair(s)) and pair[0] == pair[1]}
    positive, weak = _stated(goals)
    out = [Subject(f"norm2({v})", f"norm2({v})" in weak) for v in proof.vectors
           if v in norms and f"norm2({v})" not in positive]
    names = {s.name for s in read}
    out += [Subject(s, s in weak or s in proof.naturals) for s in proof.scalars
            if s in names and s not in positive]
    return out


def _stated(goals: Sequence[Obligation]) -> tuple[set[str], set[str]]:
    """The subjects every one of `goals` has a hypothesis `x > 0` about (first), and those
    it has `x >= 0` about (second), `x` a scalar name or a squared norm, up to a positive
    factor."""
    positive: list[set[str]] = []
    weak: list[set[str]] = []
    for goal in goals:
        strict, loose = set(), set()
        for fact in goal.judgement.hypotheses:
            text = _subject(fact.expr)
            if text is not None and fact.kind == ">":
                strict.add(text)
            elif text is not None and fact.kind == ">=":
                loose.add(text)
        positive.append(strict)
        weak.append(loose)
    return (set.intersection(*positive) if positive else set(),
            set.intersection(*weak) if weak else set())


def _subject(expr: sympy.Expr) -> str | None:
    """`expr` as a subject's text when it is a positive multiple of one scalar name or of a
    squared norm `<v,v>`; else None."""
    coeff, rest = sympy.expand(expr).as_coeff_Mul()
    if not (coeff.is_Rational and coeff > 0 and isinstance(rest, sympy.Symbol)):
        return None
    if (pair := atoms.gram_pair(rest)) is not None:
        return f"norm2({pair[0]})" if pair[0] == pair[1] else None
    return rest.name if atoms.IDENT.fullmatch(rest.name) else None


def claims(subject: Subject) -> tuple[str, ...]:
    """The lemmas to try about `subject`, strongest first: `> 0`, then `>= 0` unless a
    hypothesis states it already or it is a squared norm (`>= 0` is the kernel's own)."""
    if subject.weak or subject.text.startswith("norm2("):
        return (f"{subject.text} > 0",)
    return (f"{subject.text} > 0", f"{subject.text} >= 0")


def lemma(proof: Proof, step: Step, claim: str, k: int, before: Sequence[Use]) -> Step | None:
    """The lemma `claim` under `step`'s own hypotheses and uses, with the sign lemmas proved
    before it (`before`) used too; its id `<step>-sign-<k>` (None when that id is taken, or
    `claim` does not read back)."""
    name = f"{lemma_stem(step.id)}{MARK}{k}"
    if len(name) > 64 or any(s.id == name for s in proof.steps):
        return None
    try:
        relation = parse_relation(claim, proof.names)
    except (ExpressionError, ValueError):
        return None
    return Step(name, step.hypotheses, relation, uses=(*step.uses, *before), rule=Direct(),
                note=f"found for {step.id}: a sign it needs but does not state")


MAX_SPLITS = 2  # case splits tried for one step


def splits(proof: Proof, goals: Iterable[Obligation]) -> list[str]:
    """The scalars a case split of an unknown direct step is tried on: those read by its
    obligations that a hypothesis says are `>= 0` (or that count, `naturals`) but none says
    are `> 0`, at most `MAX_SPLITS`, in the order of declaration. `t >= 0` with `t*g**2 <=
    R**2` to prove from `t**2*g**2 <= t*R**2`: the case `t > 0` divides by t, `t == 0` is
    immediate, `t < 0` contradicts the hypothesis; no single certificate clears the factor t
    when it may be 0."""
    return [s.text for s in subjects(proof, goals)
            if s.weak and not s.text.startswith("norm2(")][:MAX_SPLITS]
