"""The audit as Markdown (GitHub flavour): summary table, findings, every step.

Formulas are LaTeX in ```math blocks; text from proof files is escaped so it can neither
open HTML nor change the Markdown structure.
"""

from __future__ import annotations

import re

from verify.audit import Audit
from verify.audit_report import COLUMNS, ProofCounts
from verify.render import evidence, formulas
from verify.render.evidence import AuditView, Finding, ProofView, StepView

_SPECIAL = re.compile(r"([\\`*_{}\[\]|~$<>&])")
SYMBOL = {"proved": "✅", "refuted": "❌", "unknown": "❔", "held": "✅", "violated": "❌",
          "not-run": "–"}


def escape(text: str) -> str:
    """`text` on one line, with the characters that could open HTML, math, links, emphasis,
    code or table cells backslash-escaped (escaped text never starts a line)."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def fenced(text: str, info: str = "") -> str:
    """A code block whose fence is longer than any backtick run inside `text`."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def render(audit: Audit) -> str:
    """The whole document."""
    view = AuditView.of(audit)
    summary = view.report["summary"]
    lines = [
        "# Audit of the perceptron convergence proofs",
        "",
        f"**{'passed' if summary['passed'] else 'failed'}** (both canonical proofs verified: "
        f"{'yes' if summary['passed'] else 'no'}) · {summary['steps']} steps · seed "
        f"{summary['seed']} · budget {escape(summary['budget'])}",
        "",
        "## Summary",
        "",
        "| proof | status | " + " | ".join(COLUMNS) + " |",
        "|---|---|" + "---:|" * len(COLUMNS),
    ]
    for p in view.proofs:
        counts = ProofCounts.of(p.audit)
        cells = " | ".join(str(getattr(counts, c)) for c in COLUMNS)
        lines.append(f"| {escape(p.audit.id)} | {p.audit.status} | {cells} |")
    lines += ["", f"## Findings ({len(view.findings)})", ""]
    if not view.findings:
        lines += ["None: every step holds.", ""]
    for finding in view.findings:
        lines += _finding(finding)
    for proof in view.proofs:
        lines += _proof(proof)
    return "\n".join(lines).rstrip("\n") + "\n"


def _statement(step: StepView) -> list[str]:
    parts = formulas.statement_latex(step.audit)
    return [fenced(",\\quad ".join(parts[:-1]) + ("\\quad " if len(parts) > 1 else "")
                   + parts[-1], "math"), ""]


def _badges(report: evidence.Json) -> str:
    symbolic, numeric = report["symbolic"]["status"], report["numeric"]["status"]
    return f"{SYMBOL[symbolic]} symbolic {symbolic} · {SYMBOL[numeric]} numeric {numeric}"


def _finding(finding: Finding) -> list[str]:
    step, report = finding.step, finding.step.report
    lines = [f"### {escape(finding.proof.audit.id)} / {escape(step.audit.step.id)}", "",
             *_statement(step),
             f"- **What is wrong:** symbolically {escape(evidence.symbolic_line(report))}"]
    if report["numeric"]["status"] != "not-run":
        lines.append(f"- **On runs:** {escape(evidence.numeric_line(report))}")
    if report["note"]:
        lines.append(f"- **Note:** {escape(report['note'])}")
    cex = report["symbolic"]["counterexample"]
    if cex is not None:
        shown = evidence.counterexample_lines(cex, step.names)
        lines.append(f"- **Counterexample:** {escape('; '.join(shown))}")
    if report["numeric"]["counterexample"] is not None:
        shown = evidence.counterexample_lines(report["numeric"]["counterexample"])
        lines.append(f"- **Violated on a run:** {escape('; '.join(shown))}")
    lines.append("")
    if finding.corrected is not None:
        fixed = finding.corrected
        lines += [f"Corrected step `{fixed.audit.step.id}` ({_badges(fixed.report)}):", "",
                  *_statement(fixed)]
    return lines


def _proof(proof: ProofView) -> list[str]:
    audit = proof.audit
    lines = [f"## {escape(audit.proof.title)}", "",
             f"`{audit.id}` · **{audit.status}** · source: {escape(audit.source or 'not given')}",
             ""]
    for step in proof.steps:
        report = step.report
        lines += [f"### `{step.audit.step.id}` — {_badges(report)}", "", *_statement(step)]
        if report["source"]:
            lines.append(f"- source: {escape(report['source'])}")
        if report["note"]:
            lines.append(f"- note: {escape(report['note'])}")
        lines.append(f"- numeric: {escape(evidence.numeric_line(report))}")
        judgements = "\n".join(line for j in step.judgements
                               for line in evidence.judgement_lines(j))
        lines += ["", "<details><summary>evidence</summary>", "", fenced(judgements), "",
                  "</details>", ""]
    return lines
