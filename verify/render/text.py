"""`novikoff explain`: one proof step, its evidence, written for a person to follow.

A certificate is an identity of polynomials; the kernel checks it mechanically, but a reader
wants to see *why* the claim follows. So the identity is written out as a sum of bracketed
hypotheses with their coefficients (`2 * [h2: -y⟨w,x⟩ >= 0]`), squares and squared norms,
and equality hypotheses with their polynomial multipliers; a counterexample is written with
its numbers plugged into every hypothesis and the claim, showing each one hold and the claim
fail. Everything shown is exact and has passed the kernel (`verify.proof_checker`).

Names print as the step's statement prints them in the reports (θ*, x̄, R², γ, x₁, after the
proof's `[notation]`), and formulas the author wrote print as written (`w + y·x`, not SymPy's
`w + x·y`): one notation across a step, its certificate and `explain`. `explanation` is the
same content as data (`novikoff explain --json`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from proofs.language.expressions import Relation
from proofs.language.terms import gram_pair
from proofs.library import PROOFS, load_builtin
from proofs.step import Induction, Proof, Step
from verify.kernel import (
    Certificate,
    Counterexample,
    Fact,
    Judgement,
    KernelError,
    Statement,
    atoms,
)
from verify.kernel.algebra import holds, normal_form
from verify.kernel.certificates import Point
from verify.proof_checker import GoalReport, StepReport, check_step, refutes_nothing
from verify.render.certificates import TEXT, Identity, Text, assignments, labels
from verify.search.counterexamples import run_made
from verify.search.work import DEFAULT_BUDGET, SearchBudget
from verify.typeset import written
from verify.typeset.indices import readable
from verify.typeset.names import spelling
from verify.typeset.statement import heading, statement, statements_of
from verify.uses import used_as


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


def builtin_steps(proof_ids: Iterable[str] | None = None) -> list[Located]:
    """Every step of every built-in proof (of those of `proof_ids`), in library order."""
    found = []
    for proof_id in PROOFS if proof_ids is None else proof_ids:
        proof = load_builtin(proof_id)
        found.extend(Located(proof_id, proof, step) for step in proof.steps)
    return found


def locate(query: str, steps: list[Located] | None = None) -> Located:
    """The step named `PROOF/STEP`, or a bare `STEP` unique across the built-in proofs.

    Raises UnknownStep listing the candidates when the id is ambiguous, or close matches
    when it names nothing.
    """
    proof_id, _, step_id = query.strip().rpartition("/")
    if steps is None:  # a named proof's steps are all that can match (each proof parses)
        steps = builtin_steps(None if not proof_id else [proof_id] if proof_id in PROOFS
                              else [])
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
                    guard: float | None = None) -> dict[str, StepReport]:
    """Check the step after the steps it uses (transitively), so `uses` can be honoured:
    every report by step id, the step's own among them (its statement is read through
    theirs: `explain`)."""
    done: dict[str, StepReport] = {}
    proof = located.proof

    def visit(step: Step) -> None:
        if step.id not in done:
            for used in step.uses:
                visit(proof.step(used.step))
            done[step.id] = check_step(proof, step, budget=budget, guard=guard, earlier=done)

    visit(located.step)
    return done


# -- text of polynomials, facts, certificates (the shared printer, in its text notation) ------


polynomial = TEXT.polynomial
fact = TEXT.fact


def number(value: Fraction | int) -> str:
    """An exact rational as `p` or `p/q`."""
    return TEXT.number(Fraction(value))


def certificate_lines(judgement: Judgement, value: Certificate, notation: Text = TEXT
                      ) -> list[str]:
    """The identity `m * (claim) = sum ...`, one summand per line (`Identity` in `notation`)."""
    return Identity(judgement, value).lines(notation)


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


def refutation_form(report: GoalReport) -> bool:
    """Whether the evidence is in refutation form: `0 > 0` to prove, the claim's negation
    its last hypothesis (not one of the judgement's own)."""
    evidence = report.evidence
    return bool(evidence.hypotheses) and evidence.claim.kind == ">" and \
        evidence.claim.expr == 0 and evidence.hypotheses[-1] not in report.judgement.hypotheses


def contradiction(report: GoalReport, notation: Text = TEXT, claim: str | None = None
                  ) -> str | None:
    """For evidence in refutation form (the negated claim among the hypotheses, `0 > 0` to
    prove; `verify.proof_checker`), the argument by contradiction in words; else None.
    `claim` is the claim as written (default: its polynomial form).

    The identity alone reads `0 = (terms >= 0, one > 0)`, which is a proof only once a
    student sees that its last hypothesis is the claim's failure.
    """
    evidence = report.evidence
    if report.verdict.certificate is None or not refutation_form(report):
        return None
    negated = labels(evidence)[-1], notation.fact(evidence.hypotheses[-1])
    claim = claim or notation.fact(report.judgement.claim)
    return (f"assume the claim {claim} fails, i.e. {negated[0]}: {negated[1]}; then, with "
            "the hypotheses, every term on the right of the identity is >= 0 and one is > 0, "
            "while the left side is a multiple of 0: 0 = (right side) > 0, a contradiction. "
            "So the claim holds.")


# -- counterexamples with the numbers plugged in ----------------------------------------------


def _values(cex: Counterexample, symbols: Iterable[sympy.Symbol]) -> dict[sympy.Symbol, Fraction]:
    """Each symbol's exact value at the counterexample, as the kernel evaluates it (a Gram
    symbol from the vectors, a sum over its concrete set); a symbol it cannot value there
    (a name the point does not give) is left out."""
    try:
        point = Point(cex)
    except KernelError:
        return {}
    out: dict[sympy.Symbol, Fraction] = {}
    for symbol in symbols:
        try:
            out[symbol] = point.value(symbol)
        except KernelError:
            continue
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


def as_written(text: str, names: written.Printer,
               author: Mapping[str, str] | None = None) -> str:
    """A relation's text typeset in plain Unicode (`verify.typeset.written`); a text the
    kernel made (`claim [t := t + 1, w := w + x*y]`) has its formula and each substituted
    term typeset, a term the author wrote (`author`, name -> text) as written."""
    formula, bracket, rest = text.partition(" [")
    author = author or {}
    try:
        shown = names.relation(formula)
        if bracket:
            parts = [p.partition(" := ") for p in rest.removesuffix("]").split(", ")]
            terms = [(n, (t != "0" and author.get(n)) or t) for n, _, t in parts]
            shown += " [" + ", ".join(f"{names.expression(n)} := {names.expression(t)}"
                                      for n, t in terms) + "]"
        return shown
    except (ValueError, SyntaxError):  # not a formula of the proof-file grammar: as it is
        return text


@dataclass(frozen=True)
class Plugged:
    """One relation at a counterexample: both sides evaluated exactly (None: undefined)."""

    text: str
    left: Fraction | None
    op: str
    right: Fraction | None

    @property
    def holds(self) -> bool | None:
        """Whether it holds there (the kernel's `holds`); None when a side is undefined."""
        if self.left is None or self.right is None:
            return None
        sign, kind = _AS_GAP[self.op]
        return holds(kind, sign * (self.left - self.right))

    def line(self) -> str:
        """`text:  a op b  holds|FAILS`."""
        if self.left is None or self.right is None:
            return f"{self.text}:  undefined here (a denominator is 0)"
        op = written.TEXT.op(self.op)
        return (f"{self.text}:  {number(self.left)} {op} {number(self.right)}  "
                f"{'holds' if self.holds else 'FAILS'}")


def plugged(relation: Relation, values: dict[sympy.Symbol, Fraction],
            names: written.Printer | None = None) -> Plugged:
    """`relation` at `values`, written as typeset by `names` (as in its text without)."""
    text = relation.text if names is None else as_written(relation.text, names)
    return Plugged(text, _evaluate(relation.lhs, values), relation.op,
                   _evaluate(relation.rhs, values))


@dataclass(frozen=True)
class Refuting:
    """A counterexample on the step's own names, with the statement evaluated at it."""

    scalars: dict[str, object]
    vectors: dict[str, object]
    grams: list[tuple[str, Fraction]]  # ⟨a,b⟩ as printed, value
    hypotheses: list[Plugged] | None  # None: the obligation is a side condition
    claim: Plugged | None


def refuting(report: GoalReport, cex: Counterexample, notation: Text = TEXT,
             names: written.Printer | None = None) -> Refuting:
    """The counterexample's values on the names the step uses, and every hypothesis and the
    claim as written evaluated at it."""
    hypotheses, claim = report.goal.written or ((), None)
    relations = (*hypotheses, *((claim,) if claim is not None else ()))
    symbols: set[sympy.Symbol] = set()
    for relation in relations:
        symbols |= relation.lhs.free_symbols | relation.rhs.free_symbols
    if claim is None:  # a side condition has no text: its names are the judgement's (nc35
        # K1: `b > 0` broken at b = 0 printed a point with no value at all)
        judgement = report.goal.judgement
        for each in (*judgement.hypotheses, judgement.claim):
            symbols |= each.expr.free_symbols
    values = _values(cex, symbols)
    used = set().union(*(atoms.names_of(s) for s in symbols))
    grams = sorted((s for s in values if gram_pair(s) is not None), key=lambda s: s.name)
    return Refuting(
        {n: v for n, v in cex.scalars.items() if n in used},
        {n: v for n, v in cex.vectors.items() if n in used},
        [(notation.polynomial(s), values[s]) for s in grams],
        None if claim is None else [plugged(h, values, names) for h in hypotheses],
        None if claim is None else plugged(claim, values, names))


def counterexample_lines(report: GoalReport, cex: Counterexample, notation: Text = TEXT,
                         names: written.Printer | None = None, why_not: str = "",
                         start: bool = False) -> list[str]:
    """The counterexample's numbers, then every hypothesis and the claim evaluated at it; a
    point of a goal that is not decisive is said to refute nothing, and why (`why_not`,
    `verify.proof_checker.refutes_nothing`), unless it is the start that refutes the step
    (`start`: `StepReport.start`, the kernel's `refute_start`)."""
    found = refuting(report, cex, notation, names)
    lines = ["  counterexample at the start of the runs the step speaks of (exact; re-checked "
             "by the kernel: every counter 0, the iterated names at their base, the state of "
             "the run of no update; names the step does not use are left out):"] if start else [
        "  counterexample (exact; re-checked by the kernel; names the step does not "
             "use are left out):"] if report.goal.decisive else [
        "  a point where the hypotheses hold and the claim fails (exact; names the step does "
        f"not use are left out); it refutes nothing: {why_not}:"]
    if found.scalars:
        lines.append("    " + ", ".join(assignments(found.scalars, {}, show=notation.name)))
    if found.vectors:
        lines.append("    " + ", ".join(assignments({}, found.vectors,  # type: ignore[arg-type]
                                                    show=notation.name)))
    if cex.families:
        lines.append("    " + ", ".join(assignments({}, {}, show=notation.name,
                                                    families=cex.families)))
    if found.grams:
        lines.append("    so " + ", ".join(f"{g} = {number(v)}" for g, v in found.grams))
    if found.claim is None or found.hypotheses is None:  # a side condition's obligation
        return lines
    lines.append("  the statement's hypotheses, as written, at these numbers:")
    lines += [f"    {p.line()}" for p in found.hypotheses] or ["    (none)"]
    lines.append("  the claim, as written, at these numbers:")
    lines.append(f"    {found.claim.line()}")
    return lines


# -- the whole explanation ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Style:
    """The notation of one proof: certificates (`Text`) and written formulas (`Printer`)."""

    notation: Text
    names: written.Printer
    author: Mapping[str, Mapping[str, str]]  # an induction's `base`/`step` as written
    step: Step
    by_run: str = ""  # the judgement whose point a refuting run was made from (`run_from`)
    run: tuple[Counterexample, ...] = ()  # that run's states, from the base (`StepReport.run`)
    #: the inductions whose invariants an induction carries, in `uses` order (`verify.uses.
    #: used_as`, kind `carried`): the kernel marks each as `invariant`, after its own
    carriers: tuple[str, ...] = ()
    #: the step each fact of the statement comes from, by its kernel form: a used step's
    #: claim, or a hypothesis that step brought (`StepReport.statement.origins`)
    whose: Mapping[Fact, str] = field(default_factory=dict)

    @classmethod
    def of(cls, located: Located, report: StepReport | None = None,
           reports: Mapping[str, StepReport] | None = None) -> _Style:
        proof, rule = located.proof, located.step.rule
        carriers: tuple[str, ...] = ()
        if isinstance(rule, Induction) and report is not None \
                and report.statement is not None and reports is not None:
            carriers = tuple(u.statement.step for u in used_as(
                located.step, report.statement, statements_of(reports.values()), proof)
                if u.kind == "carried")
        return cls(Text(spelling(proof)), written.Printer(written.TEXT, spelling(proof)),
                   rule.written if isinstance(rule, Induction) else {}, located.step,
                   report.run_from if report is not None and report.run else "",
                   report.run if report is not None else (), carriers,
                   _whose(report.statement) if report is not None else {})

    def origins(self, report: GoalReport) -> dict[Fact, str]:
        """Where each hypothesis of `report`'s obligation comes from, by its kernel mark, an
        invariant another induction's claim carried in (red team 31: every `invariant` read
        as the step's own) named `invariant of ID`: the kernel marks the step's own first,
        then one per carried claim, in `uses` order (`carriers`)."""
        marks = []
        seen = 0
        for fact, mark in zip(report.judgement.hypotheses, report.goal.origins, strict=True):
            if mark == "invariant":
                if 0 < seen <= len(self.carriers):
                    mark = f"invariant of {self.carriers[seen - 1]}"
                seen += 1
            elif mark in _WHOSE and self.whose.get(fact):  # nc35 K3: a used step's claim
                # read `[claim]`, as if the step assumed its own claim
                mark = f"{_WHOSE[mark]} {self.whose[fact]}"
            marks.append(mark)
        return dict(zip(report.judgement.hypotheses, marks, strict=True))

    def refutes(self, report: GoalReport) -> bool:
        """Whether `report`'s point refutes the step: a decisive goal's, or the one moved to
        the start of the runs (`GoalReport.start`)."""
        return report.goal.decisive or report.start

    def why_not(self, report: GoalReport) -> str:
        """Why a point of `report`'s goal, which is not decisive, refutes nothing alone
        (and, for an induction refuted by a run, that the run made from it does)."""
        alone = refutes_nothing(self.step, report.goal, report.verdict.counterexample)
        point, rule = report.verdict.counterexample, self.step.rule
        made = {"replayed": "from the base on this point's example",
                "walked": "on a walk from the base to this point's state, then on this "
                          "point's example,",
                "toward": "on a walk from the base toward this point's state"}[
            run_made(rule.variable, rule.step, point, self.run)] if (
                report.goal.label == self.by_run and point is not None and self.run) else ""
        before = " before it gets there" if made.startswith("on a walk from the base toward") \
            else ""
        return (f"{alone}. Not alone: the run made {made} reaches a state where the invariant "
                f"fails{before}, and that run refutes the step (its status above; its states "
                "after this point)" if made else alone)

    def run_lines(self, report: GoalReport) -> list[str]:
        """The refuting run made from `report`'s point, state by state from the base (none
        for another judgement): a student read of the run only its updates' examples
        (newcomer 27, F4)."""
        if report.goal.label != self.by_run or not self.run:
            return []
        lines = ["  the run that refutes the step, from the base, state by state (the kernel "
                 "checked each: the update facts hold at each update, the invariant fails at "
                 "the last):"]
        for k, state in enumerate(self.run):
            shown = assignments(state.scalars, state.vectors,  # type: ignore[arg-type]
                                show=self.notation.name)
            lines.append(f"    state {k}: {', '.join(shown)}")
        return lines

    def claim(self, report: GoalReport) -> str | None:
        """The obligation's claim as written (an induction's base or step substituted)."""
        goal_written = report.goal.written
        if goal_written is None:
            return None
        author = self.author.get(report.goal.label.split(":")[0], {})
        return as_written(goal_written[1].text, self.names, author)


#: how a kernel mark of a fact a used step brought reads, before that step's id
_WHOSE = {"claim": "claim of", "inherited": "hypothesis of"}


def _whose(stated: Statement | None) -> dict[Fact, str]:
    """The step each hypothesis of `stated` comes from (none for the step's own), keyed by
    its kernel form, as the obligations' hypotheses are: the first such step wins, as in
    the statement's order."""
    found: dict[Fact, str] = {}
    if stated is None:
        return found
    for relation, origin in zip(stated.hypotheses, stated.origins, strict=True):
        if origin:
            try:
                fact = normal_form(relation, relation.text)[0]
            except KernelError:
                continue
            found.setdefault(fact, origin)
    return found


def statement_lines(located: Located, reports: Mapping[str, StepReport]) -> list[str]:
    """The step's statement as the kernel read it and the reports typeset it, in plain
    Unicode: its run or cases, its naturals and own hypotheses, each inherited fact marked
    with the step it comes from, its claim (`reports`: `check_with_uses`)."""
    st = statement(located.proof, located.step, written.TEXT,
                   reports[located.step.id].statement, statements_of(reports.values()))
    lines = ["statement:"]
    if st.run:
        lines.append("  " + "".join(text for _, text in st.run))
    if st.given:
        lines.append("  given " + ", ".join(" ".join(g) for g in st.given))
    lines += [f"  {word.lower()} {used}: {' '.join(chunks)}"
              for (word, used), chunks in ((heading(u), c) for u, c in st.inherited)]
    lines.append("  " + " ".join(st.claim))
    if st.sets:
        lines.append("  " + "".join(text for _, text in st.sets) + ".")
    return lines


def _judgement_lines(judgement: Judgement, origin: dict[Fact, str], shown: str,
                     notation: Text) -> list[str]:
    """A judgement's hypotheses, labelled as its certificate indexes them, and its claim."""
    lines = ["  hypotheses (each a polynomial compared with 0; where it comes from):"]
    names = labels(judgement)
    for n, h in zip(names, judgement.hypotheses, strict=True):
        mark = origin.get(h) or ("the claim's negation" if h not in origin else "")
        lines.append(f"    {n}: {notation.fact(h)}" + (f"    [{mark}]" if mark else ""))
    if not names:
        lines.append("    (none)")
    lines.append(f"  claim: {shown}{notation.fact(judgement.claim)}")
    return lines


def _certificate_lines(judgement: Judgement, value: Certificate, notation: Text) -> list[str]:
    """The identity and the argument that turns it into the judgement's claim."""
    return ["  certificate (an identity of polynomials, checked exactly by the kernel):",
            *certificate_lines(judgement, value, notation),
            "  why it proves the claim: " + why(judgement, value)]


def _goal_lines(report: GoalReport, several: bool, style: _Style) -> list[str]:
    judgement, verdict = report.evidence, report.verdict
    notation = style.notation
    lines = [f"judgement {report.goal.label}: {report.status}"] if several else []
    origin = style.origins(report)
    written_claim = style.claim(report)
    shown = f"{written_claim}    i.e.  " if written_claim is not None else ""
    lines += _judgement_lines(judgement, origin, shown, notation)
    if refutation_form(report):  # newcomer 28: "claim: t <= ...    i.e.  0 > 0" read as
        # if the claim meant 0 > 0; 0 > 0 is the goal its negation must lead to
        lines[-1] = (f"  claim: {shown}{notation.fact(report.judgement.claim)}    (proved in "
                     f"refutation form: its negation is {labels(judgement)[-1]}, and the goal "
                     f"is {notation.fact(judgement.claim)})")
    if verdict.halves is not None:
        lines.append("  proved by antisymmetry: the claim's polynomial is >= 0 and <= 0, so it "
                     "is 0; one certificate for each half:")
        for number, (half, value) in enumerate(report.pieces, 1):
            sign = 1 if number == 1 else -1
            wanted = Fact(sign * judgement.claim.expr, ">=")
            refuting = half.claim != wanted
            lines.append(f"  half {number}: {notation.fact(wanted)}" + (
                ", in refutation form (its negation among the hypotheses leads to 0 > 0)"
                if refuting else ""))
            negation = {h: "the half's negation" for h in half.hypotheses if h not in origin}
            lines += ["  " + line for line in (
                *_judgement_lines(half, origin | negation, "", notation),
                *_certificate_lines(half, value, notation))]
    elif verdict.certificate is not None:
        lines += _certificate_lines(judgement, verdict.certificate, notation)
        if (argument := contradiction(report, notation, style.claim(report))) is not None:
            lines.append("  by contradiction: " + argument)
    elif verdict.counterexample is not None:
        lines += counterexample_lines(report, verdict.counterexample, notation, style.names,
                                      style.why_not(report),
                                      report.start)
        lines += style.run_lines(report)
    else:
        lines.append(f"  no certificate or counterexample found: {verdict.message}")
    return lines


def explain(located: Located, reports: Mapping[str, StepReport]) -> str:
    """The step, its source and note, and each judgement with its evidence (`reports`: the
    step's and those of the steps it uses, `check_with_uses`)."""
    step, report = located.step, reports[located.step.id]
    style = _Style.of(located, report, reports)
    lines = [f"{located.full_id}  ({located.proof.title})",
             f"status: {report.status} — {report.message}"]
    if step.source:
        lines.append(f"source: {step.source}")
    if step.note:
        lines.append(f"note: {step.note}")
    if step.uses:
        lines.append(f"uses the claims of: {', '.join(map(str, step.uses))}")
    lines += statement_lines(located, reports)
    if report.vacuity_reason is not None:
        lines.append(f"WARNING: vacuous — {report.vacuity_reason} (a kernel-checked "
                     "certificate), so the statement says nothing of any instance beyond that")
    several = len(report.goals) > 1
    for goal in report.goals:
        lines.append("")
        lines += _goal_lines(goal, several, style)
    return readable("\n".join(lines))


def _plugged_json(p: Plugged) -> dict[str, object]:
    return {"text": p.text, "left": None if p.left is None else str(p.left), "op": p.op,
            "right": None if p.right is None else str(p.right), "holds": p.holds}


def _half_json(number: int, half: Judgement, value: Certificate, judgement: Judgement,
               origin: dict[Fact, str], notation: Text) -> dict[str, object]:
    """One half of an equality proved by antisymmetry, as `explain` prints it."""
    wanted = Fact((1 if number == 1 else -1) * judgement.claim.expr, ">=")
    return {"inequality": notation.fact(wanted), "refutation_form": half.claim != wanted,
            "hypotheses": [{"label": n, "fact": notation.fact(h),
                            "origin": origin.get(h, "the half's negation") or "own"}
                           for n, h in zip(labels(half), half.hypotheses, strict=True)],
            "certificate": [line.strip() for line in certificate_lines(half, value, notation)],
            "why": why(half, value)}


def _goal_json(report: GoalReport, style: _Style) -> dict[str, object]:
    judgement, verdict, notation = report.evidence, report.verdict, style.notation
    origin = style.origins(report)
    out: dict[str, object] = {
        "label": report.goal.label, "status": report.status,
        "hypotheses": [{"label": n, "fact": notation.fact(h),
                        "origin": origin.get(h, "negated claim") or "own"}
                       for n, h in zip(labels(judgement), judgement.hypotheses, strict=True)],
        "claim": notation.fact(report.judgement.claim),
        "claim_as_written": style.claim(report),
        "certificate": None, "why": None, "contradiction": None, "counterexample": None,
        "halves": None, "message": verdict.message,
    }
    if verdict.halves is not None:  # antisymmetry: one certificate per inequality
        out["halves"] = [_half_json(number, half, value, judgement, origin, notation)
                         for number, (half, value) in enumerate(report.pieces, 1)]
    elif verdict.certificate is not None:
        out["certificate"] = [line.strip() for line in
                              certificate_lines(judgement, verdict.certificate, notation)]
        out["why"] = why(judgement, verdict.certificate)
        out["contradiction"] = contradiction(report, notation, style.claim(report))
    elif verdict.counterexample is not None:
        found = refuting(report, verdict.counterexample, notation, style.names)
        out["counterexample"] = {
            "refutes": style.refutes(report),
            "refutes_nothing": None if style.refutes(report) else style.why_not(report),
            "scalars": {n: str(Fraction(v)) for n, v in found.scalars.items()},  # type: ignore[arg-type]
            "vectors": {n: [str(Fraction(x)) for x in v]  # type: ignore[attr-defined]
                        for n, v in found.vectors.items()},
            "names": {n: notation.name(n) for n in (*found.scalars, *found.vectors)},
            "gram": {g: str(v) for g, v in found.grams},
            "hypotheses": None if found.hypotheses is None else [
                _plugged_json(p) for p in found.hypotheses],
            "claim": None if found.claim is None else _plugged_json(found.claim),
        }
    return out


def explanation(located: Located, reports: Mapping[str, StepReport]) -> dict[str, object]:
    """What `explain` prints, as data (`novikoff explain --json`): the step, its statement
    typeset, and per judgement its hypotheses, claim, certificate lines and the argument
    (with the contradiction spelled out in refutation form) or its counterexample; for an
    induction refuted by a run (no judgement is: its step case's point refutes nothing
    alone), `refuted_by_run`, the run's states from the start."""
    from verify.render.json import contradictory, counterexample

    step, report = located.step, reports[located.step.id]
    style = _Style.of(located, report, reports)
    return _readable({
        "step": located.full_id, "proof_title": located.proof.title,
        "status": report.status, "message": report.message,
        "source": step.source or None, "note": step.note or None,
        "uses": [str(u) for u in step.uses],
        "statement": [line.strip() for line in statement_lines(located, reports)[1:]],
        "vacuous": report.vacuous, "vacuity": report.vacuity_reason,
        "contradictory": contradictory(report),
        "judgements": [_goal_json(goal, style) for goal in report.goals],
        **({"refuted_by_run": [counterexample(state) for state in report.run]}
           if report.run else {}),
    })


def _readable(value: object) -> Any:
    """`value` with its strings' canonical sums as a proof file writes them (`readable`)."""
    if isinstance(value, str):
        return readable(value)
    if isinstance(value, dict):
        return {k: _readable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_readable(v) for v in value]
    return value
