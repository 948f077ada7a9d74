"""What every rendering shows: the report paired with the audit (statuses and numbers from
the JSON report, certificates as data from the audit's in-memory step reports), evidence
lines in plain text, and the findings a reader should look at first.

Renderers escape these strings for their format; nothing here is escaped.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from typing import Any

from proofs.terms import gram_pair
from verify.audit.job import Audit, ProofAudit, StepAudit
from verify.audit.report import COLUMNS, ProofCounts, findings, to_json
from verify.proof_checker import GoalReport

Json = dict[str, Any]


@dataclass(frozen=True)
class StepView:
    """A step of the audit with its entry in the JSON report."""

    audit: StepAudit
    report: Json

    @property
    def names(self) -> frozenset[str]:
        """The scalar and vector names the step's statement mentions."""
        relations = (*self.audit.hypotheses, self.audit.step.claim)
        symbols = set().union(*(r.lhs.free_symbols | r.rhs.free_symbols for r in relations))
        return frozenset(n for s in symbols for n in gram_pair(s) or (s.name,))

    @property
    def goals(self) -> tuple[GoalReport, ...]:
        """Each judgement the step needed, as decided (in-memory: certificates as data)."""
        return self.audit.symbolic.goals

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

    @classmethod
    def of(cls, audit: Audit) -> AuditView:
        """Pair `audit` with `to_json(audit)`; findings as `verify.audit.report.findings`."""
        report = to_json(audit)
        proofs = {
            p.id: ProofView(p, entry, tuple(
                StepView(s, {**e, "proof": p.id})
                for s, e in zip(p.steps, entry["steps"], strict=True)))
            for p, entry in zip(audit.proofs, report["proofs"], strict=True)
        }
        found = []
        for proof_audit, step_audit in findings(audit):
            proof = proofs[proof_audit.id]
            step = proof.step(step_audit.step.id)
            if step is not None:
                found.append(Finding(proof, step, proof.step(f"{step.audit.step.id}-corrected")))
        return cls(report, tuple(proofs.values()), tuple(found))


def symbolic_line(step: Json) -> str:
    """`proved: <message>` and the like."""
    symbolic = step["symbolic"]
    return f"{symbolic['status']}: {symbolic['message']}"


def numeric_line(step: Json) -> str:
    """How the statement fared on runs, in words."""
    numeric = step["numeric"]
    if numeric["status"] == "not-run":
        return "not run: " + numeric.get("reason", "no run instance bound its names")
    line = f"{numeric['status']} on {numeric['instances']} run instances"
    if numeric["violations"]:
        line += f", {numeric['violations']} violations"
    if numeric.get("vacuous"):
        line += f" ({numeric['vacuous']} vacuous: hypotheses false)"
    if numeric["min_slack"] is not None:
        line += f", least slack {numeric['min_slack']}"
    return line


def counterexample_lines(counterexample: Json, names: Set[str] | None = None) -> list[str]:
    """`name = value` per scalar then per vector (only `names`, when given), and where a run
    instance came from."""
    scalars = counterexample["scalars"].items()
    vectors = counterexample["vectors"].items()
    lines = [f"{n} = {value}" for n, value in scalars if names is None or n in names]
    lines += [f"{n} = ({', '.join(value)})" for n, value in vectors
              if names is None or n in names]
    origin = counterexample.get("origin")
    if origin is not None:
        order = "" if origin["order"] is None else f", order {origin['order']}"
        lines.append(f"from the {origin['source']} run {origin['dataset']} (seed "
                     f"{origin['seed']}{order}), iteration {origin['iteration']}")
    return lines
