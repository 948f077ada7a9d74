"""The audit as a standalone LaTeX document (pdflatex, base packages only).

Each proof, each step's statement and status; certificates and counterexamples in an
appendix. Text from proof files is escaped character by character, so no command, group,
math shift or comment can come from a proof file; characters outside ASCII become their
LaTeX spelling or, failing that, a visible `?`.
"""

from __future__ import annotations

import unicodedata

from verify.audit import Audit
from verify.audit_report import COLUMNS, ProofCounts
from verify.render import evidence, formulas
from verify.render.evidence import AuditView, Finding, ProofView, StepView

ASCII = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%",
    "#": r"\#", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': "''",
}
UNICODE = {
    "≤": r"$\le$", "≥": r"$\ge$", "≠": r"$\neq$", "±": r"$\pm$", "·": r"$\cdot$",
    "×": r"$\times$", "⟨": r"$\langle$", "⟩": r"$\rangle$", "‖": r"$\|$", "→": r"$\to$",
    "⇒": r"$\Rightarrow$", "∈": r"$\in$", "∑": r"$\sum$", "√": r"$\surd$", "∞": r"$\infty$",
    "⊢": r"$\vdash$", "−": "-", "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``",
    "”": "''", "…": r"\dots{}", "²": r"\textsuperscript{2}", "̂": "", "\u00a0": "~",
}
PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[utf8]{inputenc}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\setlength{\parindent}{0pt}
\setlength{\parskip}{4pt}
\sloppy
\title{Audit of the perceptron convergence proofs}
\author{\texttt{novikoff audit}}
\date{}
\begin{document}
\maketitle
"""


def escape(text: str) -> str:
    """`text` as LaTeX text that typesets as written and executes nothing."""
    return "".join(_char(c) for c in " ".join(text.split()))


def _char(c: str) -> str:
    if c in ASCII:
        return ASCII[c]
    if c.isascii():
        return c
    if c in UNICODE:
        return UNICODE[c]
    name = unicodedata.name(c, "")
    for case, prefix in (("", "GREEK SMALL LETTER "), ("upper", "GREEK CAPITAL LETTER ")):
        if name.startswith(prefix):
            letter = name.removeprefix(prefix).lower().replace("lamda", "lambda")
            letter = letter.capitalize() if case else letter
            if letter.isalpha() and (not case or letter in _CAPITALS):
                return rf"$\{letter}$"
    plain = unicodedata.normalize("NFKD", c).encode("ascii", "ignore").decode()
    return "".join(map(_char, plain)) if plain else "?"


_CAPITALS = {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
             "Omega"}


def code(text: str) -> str:
    """`text` in typewriter type, breakable after operators and commas."""
    escaped = escape(text)
    for mark in ("*", "+", ",", "=="):
        escaped = escaped.replace(mark, mark + r"\allowbreak{}")
    return rf"\texttt{{{escaped}}}"


def render(audit: Audit) -> str:
    """The whole document."""
    view = AuditView.of(audit)
    summary = view.report["summary"]
    lines = [
        PREAMBLE,
        f"Result: \\textbf{{{'passed' if summary['passed'] else 'failed'}}} (both canonical "
        f"proofs verified: {'yes' if summary['passed'] else 'no'}); {summary['steps']} steps; "
        f"seed {summary['seed']}; budget {escape(summary['budget'])}. Each step is proved "
        "with a certificate or refuted with a counterexample, both re-checked by an exact "
        "kernel, and, when its names are quantities of a run, checked exactly on every "
        "update of adversarial runs. Evidence is in the appendix.",
        "",
        r"\section*{Summary}",
        r"\begin{center}\small",
        r"\begin{tabular}{ll" + "r" * len(COLUMNS) + "}",
        r"\hline",
        " & ".join(["proof", "status", *COLUMNS]) + r" \\",
        r"\hline",
    ]
    for p in view.proofs:
        counts = ProofCounts.of(p.audit)
        cells = [escape(p.audit.id), p.audit.status,
                 *(str(getattr(counts, c)) for c in COLUMNS)]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\hline", r"\end{tabular}", r"\end{center}", "",
              rf"\section*{{Findings ({len(view.findings)})}}"]
    if not view.findings:
        lines.append("None: every step holds.")
    for finding in view.findings:
        lines += _finding(finding)
    for proof in view.proofs:
        lines += _proof(proof)
    lines += [r"\appendix", r"\section{Certificates and counterexamples}",
              "Hypotheses are numbered h0, h1, \\dots{} as the certificates index them; a "
              "certificate is the identity (multiplier) $\\times$ claim $=$ the sum of the "
              "terms listed, each term a product of hypotheses and squares.", ""]
    for proof in view.proofs:
        lines += _appendix(proof)
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


def _statement(step: StepView) -> list[str]:
    parts = formulas.statement_latex(step.audit)
    given = ", \\quad ".join(f"${p}$" for p in parts[:-1])
    return [r"\begin{quote}", f"{given}\\\\" if given else "", f"${parts[-1]}$",
            r"\end{quote}"]


def _status(report: evidence.Json) -> str:
    return (f"symbolic: \\textbf{{{report['symbolic']['status']}}}; numeric: "
            f"{escape(evidence.numeric_line(report))}.")


def _finding(finding: Finding) -> list[str]:
    step, report = finding.step, finding.step.report
    lines = [rf"\subsection*{{{escape(finding.proof.audit.id)} / {escape(step.audit.step.id)}}}",
             *_statement(step),
             f"\\textbf{{What is wrong:}} symbolically {escape(evidence.symbolic_line(report))}."]
    if report["numeric"]["status"] != "not-run":
        lines.append(f"\\textbf{{On runs:}} {escape(evidence.numeric_line(report))}.")
    if report["note"]:
        lines.append(f"\\textbf{{Note:}} {escape(report['note'])}")
    cex = report["symbolic"]["counterexample"]
    if cex is not None:
        lines.append(r"\textbf{Counterexample:} "
                     + code("; ".join(evidence.counterexample_lines(cex, step.names))))
    run = report["numeric"]["counterexample"]
    if run is not None:
        lines.append(r"\textbf{Violated on a run:} "
                     + code("; ".join(evidence.counterexample_lines(run))))
    if finding.corrected is not None:
        fixed = finding.corrected
        lines += [f"\\textbf{{Corrected step}} {code(fixed.audit.step.id)} "
                  f"({_status(fixed.report)})", *_statement(fixed)]
    return [*lines, ""]


def _proof(proof: ProofView) -> list[str]:
    audit = proof.audit
    lines = [rf"\section{{{escape(audit.proof.title)}}}",
             f"{code(audit.id)}; status \\textbf{{{audit.status}}}; source: "
             f"{escape(audit.source or 'not given')}.", ""]
    for step in proof.steps:
        report = step.report
        lines += [rf"\subsection*{{{escape(step.audit.step.id)}}}", _status(report),
                  *_statement(step)]
        if report["source"]:
            lines.append(f"\\emph{{Source:}} {escape(report['source'])}\\\\")
        if report["note"]:
            lines.append(escape(report["note"]))
        lines.append("")
    return lines


def _appendix(proof: ProofView) -> list[str]:
    lines = [rf"\subsection{{{escape(proof.audit.id)}}}"]
    for step in proof.steps:
        lines.append(rf"\paragraph{{{escape(step.audit.step.id)}}}")
        body = [line for j in step.judgements for line in evidence.judgement_lines(j)]
        run = step.report["numeric"]["counterexample"]
        if run is not None:
            body += ["violated on a run:", *evidence.counterexample_lines(run)]
        lines.append("\\\\\n".join(code(line) for line in body))
        lines.append("")
    return lines
