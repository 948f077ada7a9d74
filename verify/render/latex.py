"""The audit as a standalone LaTeX document (pdflatex, base packages only).

Verdicts first (the proofs' table, the findings, every step's verdicts in one table), then
each proof's steps with their statements typeset, and the certificates typeset as the
identities they assert (`verify.render.certificates`) in an appendix. The layout is
`templates/report.tex.j2` (delimiters `<< >>` and `<% %>`, which LaTeX never uses).
Text from proof files is escaped character by character, so no command, group,
math shift or comment can come from a proof file; characters outside ASCII become their
LaTeX spelling or, failing that, a visible `?`.
"""

from __future__ import annotations

import unicodedata

from verify.audit.job import Audit
from verify.audit.report import COLUMNS
from verify.render import evidence, formulas
from verify.render.certificates import LATEX, evidence_blocks
from verify.render.evidence import AuditView, Json, Raw, StepView, environment, guarded

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
PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[utf8]{inputenc}
\usepackage{amsmath,amssymb}
\usepackage[margin=1.8cm]{geometry}
\usepackage{longtable}
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


def statement(step: StepView) -> Raw:
    """The step as written: its hypotheses, then ⊢ claim, in display math."""
    parts = formulas.statement_latex(step.audit)
    given = ", \\quad ".join(parts[:-1])
    return Raw(r"\[ " + (given + r" \quad " if given else "") + parts[-1] + r" \]")


def certificates(step: StepView) -> Raw:
    """Each judgement of the step typeset: its hypotheses by label and its claim in one
    paragraph, then, when proved, the certificate's identity (`verify.render.certificates`)
    as an `align*` block."""
    blocks = []
    several = len(step.goals) > 1
    for goal in step.goals:
        title = (f"\\emph{{{escape(goal.goal.label)}: {goal.verdict.status}}}. "
                 if several else "")
        for given, rows in evidence_blocks(goal.evidence, goal.pieces, LATEX):
            blocks.append(title + ", \\quad ".join(f"${row.replace('&', '')}$"
                                                   for row in given))
            title = ""
            if rows:
                blocks.append("\\begin{align*}\n" + " \\\\\n".join(rows)
                              + "\n\\end{align*}")
    return Raw("\n".join(blocks))


def counterexample(cex: Json, names: object = None) -> Raw:
    """`name = value` items in typewriter type, and where a run instance came from."""
    shown = names if isinstance(names, frozenset) else None
    return Raw(code("; ".join(evidence.counterexample_lines(cex, shown))))


def render(audit: Audit, failures: list[str] | None = None) -> str:
    """The whole document (`templates/report.tex.j2`); a step that cannot be typeset is
    shown as such and its message appended to `failures` (`evidence.guarded`)."""
    view = AuditView.of(audit)
    template = environment("latex", escape).get_template("report.tex.j2")
    failed = [] if failures is None else failures

    def fallback(message: str) -> Raw:
        return Raw(rf"\emph{{{escape(message)}}}")

    return template.render(
        view=view, summary=view.report["summary"], columns=COLUMNS, preamble=Raw(PREAMBLE),
        statement=guarded(statement, fallback, failed),
        certificates=guarded(certificates, fallback, failed),
        counterexample=guarded(counterexample, fallback, failed),
        code=lambda text: Raw(code(text)), symbolic_line=evidence.symbolic_line,
        numeric_line=evidence.numeric_line)
