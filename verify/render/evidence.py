"""What the three document renderings (Markdown, HTML, LaTeX) share: the report paired with
the audit (statuses and numbers from the JSON report, certificates as data from the audit's
in-memory step reports), evidence lines in plain text, the findings a reader should look at
first, and the Jinja2 environments the templates are rendered in.

Renderers escape these strings for their format; nothing here is escaped.

The templates live in `verify/render/templates/` (package data). Every value a template
prints goes through the format's escape function (Jinja2's `finalize`, or its HTML autoescape)
unless it is `Raw`: only fragments built by the renderers from identifiers and exact numbers
(formulas, certificates) are `Raw`, never text from a proof file. So a template cannot forget
to escape a stranger's title or note.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, wraps
from typing import Any, TypeVar

import jinja2
from markupsafe import Markup

from proofs.step import IDENTIFIER, Induction, Proof, Step
from verify import kernel
from verify.audit.citations import documents
from verify.audit.job import UNREPORTED, Audit, ProofAudit, StepAudit
from verify.audit.report import (
    COLUMNS,
    ProofCounts,
    data_text,
    findings,
    headline,
    said_once,
    said_unmade,
    to_json,
)
from verify.proof_checker import GoalReport
from verify.render.certificates import brief
from verify.runs.quantity import Quantity, RunKind, UnknownRunKind
from verify.runs.quantity import kind as run_kind
from verify.typeset.graph import MARKER, WIDTH, Graph, Node, layout
from verify.typeset.indices import as_source, readable
from verify.typeset.names import RUN_SQUARES, Spelling, distinct, spelling
from verify.typeset.points import instance_lines, refuted_names
from verify.typeset.statement import (
    Piece,
    Statement,
    defined_sets,
    inductions_of,
    read_sets,
    statement,
    statements_of,
)
from verify.typeset.words import counted
from verify.typeset.written import Format, Printer

Json = dict[str, Any]
T = TypeVar("T")


@dataclass(frozen=True)
class StepView:
    """A step of the audit with its entry in the JSON report."""

    audit: StepAudit
    report: Json
    proof: Proof
    stated: Mapping[str, kernel.Statement | None]  # the proof's statements as the kernel read them

    def statement(self, fmt: Format) -> Statement:
        """The statement the kernel read, typeset in `fmt` (`verify.typeset.statement`)."""
        return statement(self.proof, self.audit.step, fmt, self.audit.symbolic.statement,
                         self.stated)

    def definitions(self, fmt: Format) -> tuple[Piece, ...]:
        """What the names of the step's statement denote, for a statement read alone (the
        theorem box): each name it reads that the proof's run kind offers (`[numeric] run`;
        the same name, or through `[numeric] names`), with the kind's own words for it
        (`verify.runs.quantity.Quantity.doc`, the one home of that text, which
        docs/run-quantities.md is generated from); () when the proof names no run kind or
        its statement reads no run quantity. A handout's theorem defined none of w, t, u,
        γ_u, R (newcomer 27, F2). Its formulas are the registry's, in proof-file syntax
        (`Quantity.formula`, the code spans of its doc), typeset as the steps are
        (`denoted`)."""
        return quantity_definitions(self.proof, self.audit.step, self.audit.symbolic.statement,
                                    self.stated, fmt)

    @property
    def invariant(self) -> str:
        """What a claim shown alone (a summary's line, a table's cell) leaves out when the
        step is an induction: its runs, whose base, updates or update facts may be where a
        refuted one is wrong (newcomer 27, F7: a correct invariant read 'refuted' beside its
        wrong update condition); empty for any other step, and for one not found false
        (a summary's theorem lines stay one page)."""
        if not isinstance(self.audit.step.rule, Induction) or not self.audit.finding:
            return ""
        return (f" (by induction on {self.audit.step.rule.variable}: an invariant of the runs "
                "its statement describes)")

    @property
    def node(self) -> Node:
        """The step as its proof's dependency graph shows it."""
        step = self.audit.step
        return Node(step.id, self.anchor, tuple(u.step for u in step.uses),
                    self.report["symbolic"]["status"], self.report["numeric"]["status"],
                    isinstance(step.rule, Induction), step.id == self.proof.main_result,
                    self.audit.finding)

    @property
    def notation(self) -> Spelling:
        """How the proof's names read (`verify.typeset.names.spelling`): its counterexamples
        are written in it, as its formulas are."""
        return spelling(self.proof)

    @property
    def names(self) -> frozenset[str]:
        """The names its counterexample is shown on: those of the obligation it refutes
        (`refuted_names`), else those of the step's statement."""
        return refuted_names(self.audit.symbolic)

    @property
    def goals(self) -> tuple[GoalReport, ...]:
        """Each judgement the step needed, as decided (in-memory: certificates as data)."""
        return self.audit.symbolic.goals

    @property
    def named(self) -> tuple[tuple[str, str], ...]:
        """The sums of vectors named as vectors to prove it (`Step.named`), said beside it:
        its certificate's facts read those names."""
        return self.audit.symbolic.step.named

    def claim_sets(self, fmt: Format, seen: set[tuple[str, str]] | None = None
                   ) -> tuple[Piece, ...]:
        """The proof's sets its claim reads, defined (`defined_sets`), for a claim shown
        alone (a summary's theorem and findings; the statement defines those it reads:
        `Statement.sets`); those of this proof in `seen` (defined above in the same
        document: the one-page summary cannot repeat them) are left out, the others added."""
        stated = self.audit.symbolic.statement
        text = stated.claim.text if stated is not None else self.audit.step.claim.text
        names = [n for n in read_sets(self.proof, [text])
                 if (self.report_proof, n) not in (seen if seen is not None else set())]
        if seen is not None:
            seen.update((self.report_proof, n) for n in names)
        return defined_sets(self.proof, names, Printer(fmt, self.notation))

    @property
    def coq(self) -> str | None:
        """With `--coq DIR`, what coqc said of the step (`verify.coq.step_text`: checked,
        rejected, not exported, not run), as the text's `coq` lines say it; else None."""
        if "coq" not in self.report:
            return None
        from verify.coq import step_text

        return step_text(self.report["coq"])

    @property
    def anchor(self) -> str:
        """A fragment id for links: `proof--step` (both are `[a-z0-9-]+` in proof files)."""
        return f"{self.report_proof}--{self.audit.step.id}"

    @property
    def report_proof(self) -> str:
        """The id of the proof the step belongs to (from its report entry)."""
        proof: str = self.report.get("proof", "")
        return proof

    @property
    def kind(self) -> str:
        """The step's headline status: `violated` on runs wins over the symbolic status."""
        status: str = ("violated" if self.report["numeric"]["status"] == "violated"
                       else self.report["symbolic"]["status"])
        return status


@dataclass(frozen=True)
class ProofView:
    """A proof of the audit with its entry in the JSON report, and its steps."""

    audit: ProofAudit
    report: Json
    steps: tuple[StepView, ...]

    @property
    def counts(self) -> list[int]:
        """The summary table's counted cells (`verify.audit.report.COLUMNS`)."""
        counts = ProofCounts.of(self.audit)
        return [getattr(counts, c) for c in COLUMNS]

    def step(self, step_id: str) -> StepView | None:
        """The step `step_id`, if the proof has one."""
        return next((s for s in self.steps if s.audit.step.id == step_id), None)

    @property
    def theorem(self) -> StepView:
        """The proof's main result (`Proof.main_result`)."""
        found = self.step(self.audit.proof.main_result)
        assert found is not None, "Proof checks that its theorem is a step"
        return found

    @property
    def corrected(self) -> StepView | None:
        """The corrected statement of the theorem, when it is a finding and has one."""
        return self.step(f"{self.theorem.audit.step.id}-corrected") if (
            self.theorem.audit.finding) else None

    @property
    def sources(self) -> str:
        """The proof's sources for its header: its own `source` when given, else the
        documents its steps cite (`verify.audit.citations.documents`), or `not given`. The
        JSON's `source` (`citations.proof_source`) keeps every first fragment."""
        return self.cited or "not given"

    @property
    def cited(self) -> str:
        """`sources`, or '' when the proof gives none and its steps cite no document."""
        return self.audit.proof.source or ", ".join(
            documents(s.step.source for s in self.audit.steps))

    @property
    def verdict(self) -> str:
        """The theorem's verdict as a reader needs it: violated on runs, else symbolic."""
        return self.theorem.kind

    def graph(self, width: float = WIDTH) -> Graph:
        """The dependency graph, laid out `width` wide (`verify.typeset.graph`)."""
        return layout([s.node for s in self.steps], width)


@dataclass(frozen=True)
class Layout:
    """Which document to write: the whole audit (one proof audited: that proof's handout),
    or with `summary` one page of theorems, verdicts, findings and vacuous steps; `appendix`
    keeps the certificates (a handout without them is shorter)."""

    summary: bool = False
    appendix: bool = True
    #: `--coq DIR`: what the Coq export and coqc said of each step (a `verify.coq.CoqRun`;
    #: None when not asked), said per step and in one line (`AuditView.coq`)
    coq: Any = None


@dataclass(frozen=True)
class Finding:
    """A refuted or violated step, and the proof's corrected step (`<id>-corrected`) if any."""

    proof: ProofView
    step: StepView
    corrected: StepView | None


@dataclass(frozen=True)
class AuditView:
    """The JSON report, every proof paired with its entry, and the findings."""

    report: Json
    proofs: tuple[ProofView, ...]
    findings: tuple[Finding, ...]
    #: with `--coq DIR`, the text's summary line of what coqc checked, after its `coq: `
    #: (`verify.coq.summary_line`); None when --coq was not given
    coq: str | None = None
    #: the line beside passed/failed (`verify.audit.report.headline`): plain words on a
    #: one-proof handout, the canonical line elsewhere
    headline: str = ""

    @classmethod
    def of(cls, audit: Audit, coq: Any = None) -> AuditView:
        """Pair `audit` with `to_json(audit)`; findings as `verify.audit.report.findings`;
        with `coq` (`Layout.coq`, a `verify.coq.CoqRun`) each step's `coq` as the JSON of
        `--coq` has it."""
        report = to_json(audit)
        if coq is not None:
            from verify.coq import annotate

            for entry in report["proofs"]:
                annotate(entry["steps"], coq.for_proof(entry["id"]))
        proofs: dict[str, ProofView] = {}
        for p, entry in zip(audit.proofs, report["proofs"], strict=True):
            stated = statements_of(s.symbolic for s in p.steps)
            proofs[p.id] = ProofView(p, entry, tuple(
                StepView(s, {**e, "proof": p.id}, p.proof, stated)
                for s, e in zip(p.steps, entry["steps"], strict=True)))
        found = []
        for proof_audit, step_audit in findings(audit):
            proof = proofs[proof_audit.id]
            step = proof.step(step_audit.step.id)
            if step is not None:
                found.append(Finding(proof, step, proof.step(f"{step.audit.step.id}-corrected")))
        line = None
        if coq is not None:
            from verify.coq import summary_line

            line = summary_line(coq).removeprefix("coq: ")
        return cls(report, tuple(proofs.values()), tuple(found), line, headline(audit))

    @property
    def vacuous(self) -> tuple[StepView, ...]:
        """The steps proved vacuously (their hypotheses contradict, or no run leaves their
        start): every format lists them, summary or not, as the terminal does, since a
        bare "proved" would say more than was shown."""
        return tuple(s for p in self.proofs for s in p.steps
                     if s.report["symbolic"]["vacuity"])

    @property
    def data(self) -> tuple[tuple[ProofView, str], ...]:
        """Each proof run on data files (its `[numeric] data`, `--data`) and those files with
        their examples and the instances their runs gave, in the words of the terminal's
        `data files run:` (`verify.audit.report.data_text`); none when no proof was (the
        JSON's `data`: newcomer 19 found the reports silent about them)."""
        return tuple((p, data_text(p.audit)) for p in self.proofs if p.audit.data_files)

    @property
    def unmade(self) -> tuple[tuple[ProofView, str], ...]:
        """Each proof's runs not made, one line each (`ProofAudit.unmade`: a data file of its
        own refused, its plug-in failed: what was kept of its runs), as the terminal's `runs
        not made` says them; none when every run asked for was made."""
        return tuple((p, each.line) for p in self.proofs for each in p.audit.unmade)

    @property
    def plugin_runs(self) -> tuple[str, ...]:
        """How the runs of each plug-in ended, one line per plug-in and run kind (the JSON's
        `summary.plugin_runs`, the terminal's `runs of plug-ins:`); none without plug-ins."""
        return tuple(said_once(line, self.unmade_said)  # a cut: said under runs not made
                     for line in self.report["summary"].get("plugin_runs", ()))

    @property
    def unmade_said(self) -> Mapping[str, str]:
        """The lines of `unmade` and their subjects (`said_unmade`), which the plug-in runs
        and the steps not run then name by their subject only (newcomer 28: a plug-in's cut
        printed once per proof, once per step and once under the plug-in)."""
        return said_unmade(p.audit for p in self.proofs)

    def numeric_line(self, step: Json) -> str:
        """`numeric_line`, a reason said under runs not made named by its subject only."""
        return numeric_line(step, self.unmade_said)


LEGEND = ("Each box is a step, each arrow goes from a step to a step that uses it. Fill: "
          "green proved, red refuted, amber unknown; border: solid checked on runs, dashed "
          "no verdict on runs (not run, or run with no violation confirmed by the kernel), "
          "thick a finding; dotted orange halo: rests on a finding; ★ the theorem, ↻ an "
          "induction.")
CORRECTIONS = (" A dashed arrow goes from a step with a finding to its corrected statement "
               "(the step named like it, ending in -corrected), which does not use it.")


def legend(graph: Graph, marked: bool = False) -> str:
    """The graph's legend: LEGEND, and what a dashed arrow is when the graph draws one
    (newcomer 28: a dashed line between `bound` and `bound-corrected` the legend never
    explained). `marked`: the Mermaid drawing, where a step resting on a finding has a
    marker after its name instead of a halo."""
    text = LEGEND.replace("dotted orange halo:", f"{MARKER.strip()} after the name:") \
        if marked else LEGEND
    return text + (CORRECTIONS if graph.corrections else "")


def quantity_definitions(proof: Proof, step: Step, stated: kernel.Statement | None,
                         statements: Mapping[str, kernel.Statement | None],
                         fmt: Format) -> tuple[Piece, ...]:
    """`StepView.definitions`: `where, on the runs of kind K it is checked on
    (docs/run-quantities.md), w is the iterate w_t; t the number of updates before w; ...`,
    the names in the order the statement (its runs first) reads them."""
    binding = proof.numeric
    if binding is None:
        return ()
    try:
        found = run_kind(binding.run)
    except UnknownRunKind:
        return ()
    offered = {q.name: q for q in found.quantities}
    words = run_spelling(found)
    texts = [h.text for h in (stated.hypotheses if stated is not None else step.hypotheses)]
    texts.append(stated.claim.text if stated is not None else step.claim.text)
    if stated is not None:  # the runs of the inductions it rests on (`runs_of`) read more
        for name in inductions_of(stated, statements):
            rule = next((s.rule for s in proof.steps if s.id == name), None)
            if isinstance(rule, Induction):
                texts[:0] = [*(f.text for f in rule.hypotheses),
                             *(" ".join(written.values()) for written in rule.written.values())]
    declared = {*proof.vectors, *proof.scalars}
    read = dict.fromkeys(n for text in texts for n in IDENTIFIER.findall(text) if n in declared)
    rank = {q: k for k, q in enumerate(offered)}  # the kind's own order: w, t, ..., x, y
    order = sorted(read, key=lambda n: rank.get(binding.names.get(n, n), len(rank)))
    printer, run_printer = Printer(fmt, spelling(proof)), Printer(fmt)
    pieces: list[Piece] = []
    for name in order:
        bound = binding.names.get(name, name)
        quantity = offered.get(bound)
        if quantity is None and IDENTIFIER.fullmatch(bound):
            continue  # no run quantity (a family, or no binding): no words for it here
        shown = printer.expression(name)
        pieces += [("text", "; " if pieces else ""), ("math", shown)]
        if bound != name and run_printer.expression(bound) != shown:
            pieces += [("text", " = "), ("math", run_printer.expression(bound))]
        if quantity is not None:
            pieces += [("text", ": "), *denoted(quantity, fmt, words)]
    if not pieces:
        return ()
    return (("text", f"Its names denote quantities of {binding.run} runs "
                     "(docs/run-quantities.md): "), *pieces, ("text", "."))


#: How the registry's formulas print the members of the dataset's families
#: (`verify.runs.families.DATASET`): `X[j]` as x_j, `Y[j]` as y_j, the sources' spelling of
#: the j-th example and label; a family named alone is its name, `X`.
MEMBERS: Mapping[str, str] = {"X": "x", "Y": "y"}


def run_spelling(run: RunKind) -> Spelling:
    """How the formulas of `run`'s quantities print its names: by the rules a proof's names
    follow (`verify.typeset.names.distinct`), so a squared quantity reads as a square only
    where the kind provides it (`RUN_SQUARES`) and no base beside it prints alike: an online
    run's `R2` is R2 where its `R**2` is R² (`sqrt(R2)` printed √(R²) beside `R**2` as R²,
    two quantities read as one)."""
    names = {*run.offered, *run.families}
    squares = RUN_SQUARES.get(run.name, frozenset())
    return distinct(names, {}, squares, run.families)


def denoted(quantity: Quantity, fmt: Format, words: Spelling | None = None) -> list[Piece]:
    """What a run quantity denotes, typeset in `fmt` as the steps are, its names spelt by
    `words` (`run_spelling` of its kind; None: by the rules alone): its definition
    (`Quantity.formula`; `min_j y_j⟨u, x_j⟩` for a least value over the examples), then its
    doc's words and formulas (`Quantity.parts`), each formula in proof-file syntax printed
    by `Printer.formula`. A formula the printer cannot read (a user's kind may write any)
    is shown as written, in its words."""
    words = words if words is not None else Spelling()
    pieces: list[Piece] = []
    if quantity.formula:
        pieces += _typeset(quantity.formula, fmt, words, quantity.extreme)
        pieces += [("text", ", ")] if quantity.doc else []
    for formula, text in quantity.parts():
        pieces += _typeset(text, fmt, words) if formula else [("text", text)]
    return pieces


def _typeset(text: str, fmt: Format, words: Spelling, extreme: str = "") -> list[Piece]:
    """`text` (proof-file syntax) as one formula, or with `extreme` (min, max) its least or
    largest value over the examples j (`Printer.extreme`); as text when it does not read.
    A family's members read as `MEMBERS` says, the family named alone as itself."""
    renames = {} if IDENTIFIER.fullmatch(text) else MEMBERS
    printer = Printer(fmt, replace(words, renames={**words.renames, **renames}))
    try:
        shown = printer.extreme(extreme, "j", text) if extreme else printer.formula(text)
    except (SyntaxError, ValueError, TypeError, KeyError, RecursionError):
        return [("text", f"{extreme}_j {text}" if extreme else text)]
    return [("math", shown)]


_LABEL_WORDS = re.compile(r"(denominator|cases?|sum rule \w+) (.+)")


def label_pieces(label: str, printer: Printer) -> tuple[Piece, ...]:
    """A judgement's label (the kernel's: `step, case t > 0`, `denominator gamma_u**2 > 0`,
    `cases: denominator R**2 > 0`) in words and formulas: each relation it names typeset as
    the statements are (`⟨xb, xb⟩ > 0`, `γ_u² > 0`), the words as they are; a relation the
    printer cannot read (a canonical sum with filters) stays as the kernel wrote it
    (newcomer 27, F6: a handout said `denominator gamma_u**2 > 0` in Python syntax)."""
    pieces: list[Piece] = []
    for part, separator in _label_parts(label):
        found = _LABEL_WORDS.fullmatch(part)
        words, relation = (found[1] + " ", found[2]) if found else ("", part)
        try:
            if not _RELATION.search(relation):
                raise ValueError("words only")
            formula = printer.relation(as_source(relation))
            pieces += [("text", words)] if words else []
            pieces.append(("math", formula))
        except (SyntaxError, ValueError, TypeError, KeyError):
            pieces.append(("text", readable(part)))
        pieces += [("text", separator)] if separator else []
    return tuple(pieces)


def message_pieces(step: StepView, printer: Printer) -> tuple[Piece, ...]:
    """The step's symbolic message (the JSON's, `2 judgements proved: main, denominator
    gamma_u**2 > 0`) with each judgement's label in it typeset (`label_pieces`)."""
    message: str = step.report["symbolic"]["message"]
    labels = sorted({g.goal.label for g in step.goals}, key=len, reverse=True)
    if not labels:
        return (("text", message),)
    pieces: list[Piece] = []
    for k, part in enumerate(re.split("(" + "|".join(map(re.escape, labels)) + ")", message)):
        pieces += label_pieces(part, printer) if k % 2 else [("text", part)] if part else []
    return tuple(pieces)


_RELATION = re.compile(r"[<>=]=?")


def _label_parts(label: str) -> list[tuple[str, str]]:
    """`label` cut at its `, ` and `: ` outside brackets, each part with the separator after
    it ('' for the last)."""
    parts, depth, start, k = [], 0, 0, 0
    while k < len(label):
        c = label[k]
        depth += (c in "([") - (c in ")]")
        if depth == 0 and label.startswith((", ", ": "), k):
            parts.append((label[start:k], label[k:k + 2]))
            start = k = k + 2
            continue
        k += 1
    return [*parts, (label[start:], "")]


def symbolic_line(step: Json) -> str:
    """`proved: <message>` and the like."""
    symbolic = step["symbolic"]
    return f"{symbolic['status']}: {symbolic['message']}"


def tested(numeric: Json) -> str:
    """The instances a verdict on runs rests on, as a badge or a table cell counts them:
    `201 of 261 instances` violated, and where hypotheses failed, the instances the claim
    was tested on beside the vacuous ones: `1 of 261 instances, 260 vacuous`. Newcomer 33
    F1: the HTML badge said `runs: held on 261 instances` and the Markdown heading `held
    (261)` for a step whose hypotheses held on one of them, the other 260 vacuous, so the
    verdict a reader's eye takes in claimed 261 tests where there was one."""
    instances, vacuous = numeric["instances"], numeric.get("vacuous") or 0
    if numeric["violations"]:
        count = f"{numeric['violations']} of {instances} instances"
    elif vacuous:
        count = f"{instances - vacuous} of {instances} instances"
    else:
        count = f"{instances} instances"
    return f"{count}, {vacuous} vacuous" if vacuous else count  # in a cell's parentheses


def numeric_line(step: Json, said: Mapping[str, str] | None = None) -> str:
    """How the statement fared on runs, in words; a reason among `said` (the lines under
    runs not made, with their subjects) by its subject only (`said_once`)."""
    numeric = step["numeric"]
    if numeric["status"] == "not-run":
        if numeric["instances"]:  # bound, and every instance vacuous
            return (f"not run: all {numeric['instances']} run instances vacuous (hypotheses "
                    "false on every one): the claim was tested on none")
        reason = numeric.get("reason", "no run instance bound its names")
        return reason if reason.startswith(UNREPORTED) else \
            "not run: " + said_once(reason, said or {})
    if numeric["violations"]:
        line = f"violated on {numeric['violations']} of {numeric['instances']} run instances"
    else:
        line = f"{numeric['status']} on {numeric['instances']} run instances"
    if numeric.get("vacuous"):
        line += f" ({numeric['vacuous']} vacuous: hypotheses false)"
    if numeric["min_slack"] is not None:  # abbreviated past 24 digits (the JSON keeps it):
        # the 90 digits of chan-batch's least slack widened the whole HTML page
        line += f", least slack {brief(Fraction(numeric['min_slack']))}"
    if numeric.get("unevaluated"):  # rows whose sums were past a row's work: not run there
        line += f"; {numeric['reason']}"
    if "caveat" in numeric:  # an induction's violation (`verify.audit.job.StepAudit.caveat`)
        line += f": {numeric['caveat']}"
    if "update_facts" in numeric:  # updates failing its update facts (`report.unmet_text`)
        line += f"; {numeric['update_facts']['said']}"
    if "update_map" in numeric:  # updates other than its step (`report.map_text`)
        line += f"; {numeric['update_map']['said']}"
    if "counter" in numeric:  # a counter that is not the count (`report.counter_text`)
        line += f"; {numeric['counter']['said']}"
    if "constants" in numeric:  # a constant that changes along a run (`constants_text`)
        line += f"; {numeric['constants']['said']}"
    if "update_map_unchecked" in numeric:  # memb33: said, never implied checked
        line += ("; its step was not checked against its runs' updates: "
                 f"{numeric['update_map_unchecked']}")
    if "counter_unchecked" in numeric:
        line += ("; its counter was not checked against its runs' count of updates: "
                 f"{numeric['counter_unchecked']}")
    if "constants_unchecked" in numeric:
        line += ("; its constants were not all checked to keep one value along its runs: "
                 f"{numeric['constants_unchecked']}")
    if "update_facts_unchecked" in numeric:  # cyclic runs and others: no row per update
        line += ("; its update facts were not checked on its runs: "
                 f"{numeric['update_facts_unchecked']}")
    if "base" in numeric:  # runs from another start (`report.base_text`)
        line += f"; {numeric['base']['said']}"
    if "base_unchecked" in numeric:
        line += f"; its base was not checked on its runs: {numeric['base_unchecked']}"
    if numeric.get("outside"):  # rows of runs none of its inductions' (`base_text`)
        line += (f"; {numeric['outside']} rows of runs that start elsewhere than a base are "
                 "left out")
    if numeric.get("past_unmet"):  # rows past a failing update (`unmet_text`, `map_text`)
        line += (f"; {numeric['past_unmet']} rows of runs after an update that fails an "
                 "induction's update facts or is not its step are left out")
    if numeric.get("varying"):  # rows past a constant's change (`constants_text`)
        line += (f"; {numeric['varying']} rows of runs past a change of an induction's "
                 f"constant ({', '.join(numeric['varied'])}) are left out")
    if numeric.get("miscounted"):  # rows at a wrong count (`counter_text`)
        line += (f"; {numeric['miscounted']} rows where an induction's counter is not the "
                 "run's count of updates are left out")
    return line


def counterexample_lines(counterexample: Json, names: Set[str] | None = None,
                         show: Callable[[str], str] = str) -> list[str]:
    """`name = value` per scalar then per vector (only `names`, when given; each step's name
    as `show` writes it), and for a run instance what it adds and where it came from
    (`verify.typeset.points.instance_lines`)."""
    return instance_lines(counterexample, names, show)


# -- templating --------------------------------------------------------------------------------


def guarded(part: Callable[..., T], fallback: Callable[[str], T],
            failures: list[str]) -> Callable[..., T]:
    """`part` (a template's typesetting of one step or counterexample), or, when it raises,
    `fallback(message)` in its place, the message appended to `failures`: one piece a
    renderer cannot typeset is shown as such and costs the reader nothing else of the
    report, and the caller still learns of it (the CLI says so and exits non-zero)."""
    @wraps(part)
    def safe(first: Any, *rest: Any) -> T:
        try:
            return part(first, *rest)
        except Exception as error:  # any defect of a renderer: reported, never hidden
            where = (f"{first.report_proof}/{first.audit.step.id}"
                     if isinstance(first, StepView) else
                     f"the graph of {first.audit.id}" if isinstance(first, ProofView)
                     else "a counterexample")
            message = f"{where} could not be rendered ({type(error).__name__}: {error})"
            failures.append(message)
            return fallback(message)
    return safe



class Raw(str):
    """Text already in the target format: printed as is."""

    __slots__ = ()


def _finalize(escape: Callable[[str], str]) -> Callable[[Any], str]:
    def finalize(value: Any) -> str:
        if isinstance(value, Raw | Markup):
            return str(value)
        return escape("" if value is None else str(value))
    return finalize


#: Delimiters that cannot clash with LaTeX's braces, percent signs and hashes.
LATEX_SYNTAX: Mapping[str, str] = {
    "block_start_string": "<%", "block_end_string": "%>",
    "variable_start_string": "<<", "variable_end_string": ">>",
    "comment_start_string": "<#", "comment_end_string": "#>",
}


@cache
def environment(fmt: str, escape: Callable[[str], str] | None = None) -> jinja2.Environment:
    """The environment of `fmt` (`html`, `markdown` or `latex`): HTML autoescapes; the
    others escape every printed value with `escape` unless it is `Raw`."""
    options: dict[str, Any] = {
        "loader": jinja2.PackageLoader("verify.render", "templates"),
        "undefined": jinja2.StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": True,
    }
    if fmt == "html":
        options["autoescape"] = True
    else:
        assert escape is not None, f"the {fmt} environment needs an escape function"
        options["autoescape"] = False
        options["finalize"] = _finalize(escape)
    if fmt == "latex":
        options.update(LATEX_SYNTAX)
    env = jinja2.Environment(**options)
    env.filters["raw"] = Raw  # a macro's output: built by the template from escaped values
    env.filters["counted"] = counted  # `1 finding`, `2 findings`
    return env
