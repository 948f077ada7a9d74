"""`novikoff explain`: one proof step, its evidence, written for a person to follow.

A certificate is an identity of polynomials; the kernel checks it mechanically, but a reader
wants to see *why* the claim follows. So the identity is written out as a sum of bracketed
hypotheses with their coefficients (`2 * [h2: -y⟨w,x⟩ >= 0]`), squares and squared norms,
and equality hypotheses with their polynomial multipliers; a counterexample is written with
its numbers plugged into every hypothesis and the claim, showing each one hold and the claim
fail. Everything shown is exact and has passed the kernel (`verify.proof_checker`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import sympy

from proofs.language.expressions import Relation
from proofs.language.terms import gram_pair
from proofs.library import PROOFS, load_builtin
from proofs.step import Proof, Step
from verify.kernel import Certificate, Counterexample, Fact, Judgement
from verify.kernel.algebra import holds
from verify.proof_checker import GoalReport, StepReport, check_step
from verify.render.certificates import TEXT, Identity, assignments, labels
from verify.search.work import DEFAULT_BUDGET, SearchBudget


class UnknownStep(ValueError):
    """A step id that names no built-in step, or more than one (the message lists which)."""


@dataclass(frozen=True)
class Located:
    """A built-in step with the proof it belongs to."""

    proof_id: str
    proof: Proof
    step: Step

    @property
    def full_id(self) -> str:
        """`PROOF/STEP`."""
        return f"{self.proof_id}/{self.step.id}"


def builtin_steps() -> list[Located]:
    """Every step of every built-in proof, in library order."""
    found = []
    for proof_id in PROOFS:
        proof = load_builtin(proof_id)
        found.extend(Located(proof_id, proof, step) for step in proof.steps)
    return found


def locate(query: str, steps: list[Located] | None = None) -> Located:
    """The step named `PROOF/STEP`, or a bare `STEP` unique across the built-in proofs.

    Raises UnknownStep listing the candidates when the id is ambiguous, or close matches
    when it names nothing.
    """
    steps = builtin_steps() if steps is None else steps
    proof_id, _, step_id = query.strip().rpartition("/")
    matches = [s for s in steps
               if s.step.id == step_id and (not proof_id or s.proof_id == proof_id)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        listed = ", ".join(s.full_id for s in matches)
        raise UnknownStep(f"step {query!r} is in {len(matches)} proofs: {listed}; "
                          "write PROOF/STEP")
    if proof_id and proof_id not in PROOFS:
        close = difflib.get_close_matches(proof_id, list(PROOFS), n=3, cutoff=0.6)
        hint = (f"close matches: {', '.join(close)}" if close
                else f"built-in proofs: {', '.join(PROOFS)}")
        raise UnknownStep(f"no built-in proof {proof_id!r} (in {query!r}); {hint}")
    among = [s for s in steps if not proof_id or s.proof_id == proof_id]
    names = [s.full_id for s in among] + sorted({s.step.id for s in among})
    close = difflib.get_close_matches(query, names, n=6, cutoff=0.6)
    hint = (f"close matches: {', '.join(close)}" if close
            else f"list the steps with `novikoff audit --only PROOF`; built-in proofs: "
            f"{', '.join(PROOFS)}")
    raise UnknownStep(f"no built-in step {query!r}; {hint}")


def check_with_uses(located: Located, *, budget: SearchBudget = DEFAULT_BUDGET,
                    guard: float | None = None) -> StepReport:
    """Check the step after the steps it uses (transitively), so `uses` can be honoured."""
    done: dict[str, StepReport] = {}
    proof = located.proof

    def visit(step: Step) -> StepReport:
        if step.id not in done:
            for used in step.uses:
                visit(proof.step(used.step))
            done[step.id] = check_step(proof, step, budget=budget, guard=guard, earlier=done)
        return done[step.id]

    return visit(located.step)


# -- text of polynomials, facts, certificates (the shared printer, in its text notation) ------


polynomial = TEXT.polynomial
fact = TEXT.fact


def number(value: Fraction | int) -> str:
    """An exact rational as `p` or `p/q`."""
    return TEXT.number(Fraction(value))


def certificate_lines(judgement: Judgement, value: Certificate) -> list[str]:
    """The identity `m * (claim) = sum ...`, one summand per line (`Identity` in `TEXT`)."""
    return Identity(judgement, value).lines(TEXT)


def why(judgement: Judgement, value: Certificate) -> str:
    """The one-paragraph argument that turns the identity into the claim."""
    divide = (" The multiplier on the left is a product of strictly positive hypotheses, so "
              "dividing by it keeps the sign." if value.multiplier else "")
    if judgement.claim.kind == "==":
        return ("where the hypotheses hold every [e] is 0, so the right side is 0 and the "
                "claim's polynomial is 0." + divide)
    strict = (" One term has a positive coefficient and only strict hypotheses, so it is > 0 "
              "and the right side is > 0." if judgement.claim.kind == ">" else "")
    return ("where the hypotheses hold every [h] is >= 0, every [e] is 0, coefficients, "
            "squares and squared norms are >= 0, so the right side is >= 0." + strict + divide)


# -- counterexamples with the numbers plugged in ----------------------------------------------


def _values(cex: Counterexample, symbols: Iterable[sympy.Symbol]) -> dict[sympy.Symbol, Fraction]:
    """Each scalar and Gram symbol's exact value at the counterexample."""
    out: dict[sympy.Symbol, Fraction] = {}
    for symbol in symbols:
        pair = gram_pair(symbol)
        if pair is None:
            if symbol.name in cex.scalars:
                out[symbol] = Fraction(cex.scalars[symbol.name])
        elif pair[0] in cex.vectors and pair[1] in cex.vectors:
            a, b = cex.vectors[pair[0]], cex.vectors[pair[1]]
            out[symbol] = sum((Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True)),
                              Fraction(0))
    return out


def _evaluate(expr: sympy.Expr, values: dict[sympy.Symbol, Fraction]) -> Fraction | None:
    """`expr` at `values`, exactly; None when a division by zero leaves it undefined."""
    result = expr.xreplace({s: sympy.Rational(v.numerator, v.denominator)
                            for s, v in values.items()})
    if not result.is_Rational:
        return None
    return Fraction(int(result.p), int(result.q))


#: `a op b` read as `sign * (a - b) (kind) 0`, the kernel's reading of a relation, so that
#: whether it holds is decided by the kernel's one `holds`.
_AS_GAP: dict[str, tuple[int, str]] = {"<=": (-1, ">="), "<": (-1, ">"), ">=": (1, ">="),
                                       ">": (1, ">"), "==": (1, "==")}


def plugged(relation: Relation, values: dict[sympy.Symbol, Fraction]) -> str:
    """`text:  a op b  holds|FAILS` with both sides evaluated exactly."""
    left, right = _evaluate(relation.lhs, values), _evaluate(relation.rhs, values)
    if left is None or right is None:
        return f"{relation.text}:  undefined here (a denominator is 0)"
    sign, kind = _AS_GAP[relation.op]
    verdict = "holds" if holds(kind, sign * (left - right)) else "FAILS"
    return f"{relation.text}:  {number(left)} {relation.op} {number(right)}  {verdict}"


def counterexample_lines(report: GoalReport, cex: Counterexample) -> list[str]:
    """The counterexample's numbers, then every hypothesis and the claim evaluated at it."""
    hypotheses, claim = report.goal.written or ((), None)
    relations = (*hypotheses, *((claim,) if claim is not None else ()))
    symbols: set[sympy.Symbol] = set()
    for relation in relations:
        symbols |= relation.lhs.free_symbols | relation.rhs.free_symbols
    values = _values(cex, symbols)
    used = {name for s in symbols for name in (gram_pair(s) or (s.name,))}
    scalars = {n: v for n, v in cex.scalars.items() if n in used}
    vectors = {n: v for n, v in cex.vectors.items() if n in used}
    lines = ["  counterexample (exact; re-checked by the kernel; names the step does not "
             "use are left out):"]
    if scalars:
        lines.append("    " + ", ".join(assignments(scalars, {})))
    if vectors:
        lines.append("    " + ", ".join(assignments({}, vectors)))
    grams = sorted((s for s in values if gram_pair(s) is not None), key=lambda s: s.name)
    if grams:
        lines.append("    so " + ", ".join(f"{polynomial(s)} = {number(values[s])}"
                                           for s in grams))
    if claim is None:  # an obligation that is not the statement itself (a side condition)
        return lines
    lines.append("  the statement's hypotheses, as written, at these numbers:")
    lines += [f"    {plugged(h, values)}" for h in hypotheses] or ["    (none)"]
    lines.append("  the claim, as written, at these numbers:")
    lines.append(f"    {plugged(claim, values)}")
    return lines


# -- the whole explanation ---------------------------------------------------------------------


def _judgement_lines(judgement: Judgement, origin: dict[Fact, str], shown: str) -> list[str]:
    """A judgement's hypotheses, labelled as its certificate indexes them, and its claim."""
    lines = ["  hypotheses (each a polynomial compared with 0; where it comes from):"]
    names = labels(judgement)
    for n, h in zip(names, judgement.hypotheses, strict=True):
        lines.append(f"    {n}: {fact(h)}" + (f"    [{origin[h]}]" if origin.get(h) else ""))
    if not names:
        lines.append("    (none)")
    lines.append(f"  claim: {shown}{fact(judgement.claim)}")
    return lines


def _certificate_lines(judgement: Judgement, value: Certificate) -> list[str]:
    """The identity and the argument that turns it into the judgement's claim."""
    return ["  certificate (an identity of polynomials, checked exactly by the kernel):",
            *certificate_lines(judgement, value),
            "  why it proves the claim: " + why(judgement, value)]


def _goal_lines(report: GoalReport, several: bool) -> list[str]:
    judgement, verdict = report.evidence, report.verdict
    lines = [f"judgement {report.goal.label}: {verdict.status}"] if several else []
    origin = dict(zip(report.judgement.hypotheses, report.goal.origins, strict=True))
    written = report.goal.written
    shown = f"{written[1].text}    i.e.  " if written is not None else ""
    lines += _judgement_lines(judgement, origin, shown)
    if verdict.halves is not None:
        lines.append("  proved by antisymmetry: the claim's polynomial is >= 0 and <= 0, so it "
                     "is 0; one certificate for each half:")
        for number, (half, value) in enumerate(report.pieces, 1):
            sign = 1 if number == 1 else -1
            wanted = Fact(sign * judgement.claim.expr, ">=")
            refuting = half.claim != wanted
            lines.append(f"  half {number}: {fact(wanted)}" + (
                ", in refutation form (its negation among the hypotheses leads to 0 > 0)"
                if refuting else ""))
            negation = {h: "the half's negation" for h in half.hypotheses if h not in origin}
            lines += ["  " + line for line in (*_judgement_lines(half, origin | negation, ""),
                                               *_certificate_lines(half, value))]
    elif verdict.certificate is not None:
        lines += _certificate_lines(judgement, verdict.certificate)
    elif verdict.counterexample is not None:
        lines += counterexample_lines(report, verdict.counterexample)
    else:
        lines.append(f"  no certificate or counterexample found: {verdict.message}")
    return lines


def explain(located: Located, report: StepReport) -> str:
    """The step, its source and note, and each judgement with its evidence."""
    step = located.step
    lines = [f"{located.full_id}  ({located.proof.title})",
             f"status: {report.status} — {report.message}"]
    if step.source:
        lines.append(f"source: {step.source}")
    if step.note:
        lines.append(f"note: {step.note}")
    if step.uses:
        lines.append(f"uses the claims of: {', '.join(map(str, step.uses))}")
    lines.append(f"statement: {report.statement_text}")
    if report.vacuity_reason is not None:
        lines.append(f"WARNING: vacuous — {report.vacuity_reason} (a kernel-checked "
                     "certificate), so the statement says nothing of any instance beyond that")
    several = len(report.goals) > 1
    for goal in report.goals:
        lines.append("")
        lines += _goal_lines(goal, several)
    return "\n".join(lines)
