"""The audit as Markdown (GitHub flavour), verdicts first: the proofs' table, the findings'
table and every step's verdicts come before any detail; statements, certificates and
counterexamples follow, folded per proof (`<details>`).

The layout is the template `templates/report.md.j2`. Formulas and certificates are LaTeX in
```math blocks (`verify.render.certificates`); text from proof files is escaped (every
printed value, unless the renderer built it: `evidence.Raw`) so it can neither open HTML
nor change the Markdown structure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial

from verify.audit.job import Audit
from verify.audit.report import PLUGIN_RUNS, UNMADE
from verify.proof_checker import GoalReport
from verify.render import evidence
from verify.render.certificates import Latex, evidence_blocks
from verify.render.evidence import (
    AuditView,
    Json,
    Layout,
    ProofView,
    Raw,
    StepView,
    environment,
    guarded,
    label_pieces,
    legend,
)
from verify.typeset.names import pretty, spelling
from verify.typeset.statement import heading, joined
from verify.typeset.written import LATEX as WRITTEN
from verify.typeset.written import Printer, lines

BUDGET = 80
"""Plain-text characters a displayed line holds before it breaks."""

_SPECIAL = re.compile(r"([\\`*_{}\[\]|~$<>&#])")
SYMBOL = {"proved": "✅", "refuted": "❌", "unknown": "❔", "held": "✅", "violated": "❌",
          "not-run": "–", "verified": "✅", "has-findings": "❌", "incomplete": "❔"}


def escape(text: str) -> str:
    """`text` on one line, with the characters that could open HTML, math, links, emphasis,
    code, headings or table cells backslash-escaped."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def fenced(text: str, info: str = "") -> str:
    """A code block whose fence is longer than any backtick run inside `text`."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def status(value: str) -> Raw:
    """A status with its symbol: `✅ proved`."""
    return Raw(f"{SYMBOL.get(value, '')} {escape(value)}".strip())


def numeric_cell(report: Json) -> Raw:
    """The numeric verdict in a table cell: status, and the instances it rests on
    (`evidence.tested`: violations of them, or those not vacuous beside the vacuous)."""
    numeric = report["numeric"]
    if numeric["status"] == "not-run":  # words, as the HTML and LaTeX say it (newcomer 28:
        return Raw(f"{SYMBOL['not-run']} not run")  # "numeric – not-run", a status key)
    return Raw(f"{status(numeric['status'])} ({escape(evidence.tested(numeric))})")


def _math(chunks: Sequence[str], widths: Sequence[int] | None = None) -> str:
    """One formula as LaTeX, broken into `aligned` rows at its top-level terms when long."""
    if widths is None or sum(widths) + len(widths) <= BUDGET:
        return " ".join(chunks)
    rows = [" ".join(line) for line in lines(chunks, widths, BUDGET - 10)]
    return r"\begin{aligned}&" + r" \\ &\quad ".join(rows) + r"\end{aligned}"


def statement(step: StepView, alone: bool = False) -> Raw:
    """The step as written: its run or cases and hypotheses in words and inline math,
    what it inherits (marked), then ⊢ claim in a ```math block. `alone` (the theorem box):
    first the runs of the inductions it rests on (`Statement.context`), and after it what
    its names denote (`StepView.definitions`)."""
    st = step.statement(WRITTEN)
    context = st.context if alone else ()
    parts = [joined(piece, lambda t: f"${t}$", escape) for piece in (context, st.run) if piece]
    given = st.given_in_context if context else st.given
    if given:
        parts.append("*Given* " + ", ".join(f"${_math(g)}$" for g in given) + ".")
    parts += [f"*{word} {escape(used)}:* ${_math(chunks)}$."
              for (word, used), chunks in ((heading(u), c) for u, c in st.inherited)]
    block = fenced(_math(st.claim, st.widths), "math")
    sets = [joined(st.sets, lambda t: f"${t}$", escape) + "."] if st.sets else []
    defined = step.definitions(WRITTEN) if alone else ()
    names = [joined(defined, lambda t: f"${t}$", escape)] if defined else []
    return Raw("\n\n".join([*parts, block, *sets, *names]))


def claim(step: StepView, seen: set[tuple[str, str]] | None = None) -> Raw:
    """The claim alone, inline."""
    sets = step.claim_sets(WRITTEN, seen)  # its sets defined, once in a document
    return Raw("$" + " ".join(step.statement(WRITTEN).claim).replace(r"\vdash ", "", 1) + "$"
               + (" (" + joined(sets, lambda t: f"${t}$", escape) + ")" if sets else "")
               + (" " + escape(step.invariant.strip()) if step.invariant else ""))


def graph(proof: ProofView) -> Raw:
    """The dependency graph as a Mermaid flowchart (GitHub draws it)."""
    drawn = proof.graph()
    return Raw(fenced(drawn.mermaid(), "mermaid") + "\n\n" + escape(legend(drawn, marked=True)))


def _judgement(goal: GoalReport, several: bool, notation: Latex) -> str:
    """One judgement as an `aligned` block on one line: its hypotheses by label, its claim,
    then the certificate's identity (`verify.render.certificates`)."""
    label = "".join(t if kind == "math" else rf"\text{{{_tex_text(t)}}}" for kind, t in
                    label_pieces(goal.goal.label, Printer(WRITTEN, notation.names)))
    rows = [rf"&{label}\text{{: {goal.status}}}"] if several else []
    rows += [row for block in evidence_blocks(goal.evidence, goal.pieces, notation)
             for row in (*block[0], *block[1])]
    return r"\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}"


def _tex_text(text: str) -> str:
    """`text` inside `\\text{}` of a formula: TeX's special characters escaped (a label the
    printer could not read keeps the kernel's `_`, `#`, `<`)."""
    return re.sub(r"([_#%&$^{}])", r"\\\1", text.replace("\\", "/"))


def evidence_math(step: StepView) -> Raw:
    """One ```math block: one line per judgement the step needed (hypotheses by label,
    claim, and the certificate when proved), names as in the statement."""
    several = len(step.goals) > 1
    notation = Latex(spelling(step.proof))
    rows = [_judgement(goal, several, notation) for goal in step.goals]
    body = " \\\\\n".join(rows)
    return Raw(fenced(r"\begin{gathered}" + body + r"\end{gathered}", "math"))


def counterexample(cex: Json, names: object = None,
                   notation: Mapping[str, str] | None = None) -> str:
    """`name = value; ...` and where a run instance came from (escaped when printed), the
    step's names as its formulas read them (`notation`, `StepView.notation`: θ* = (0))."""
    shown = names if isinstance(names, frozenset) else None
    return "; ".join(evidence.counterexample_lines(
        cex, shown, lambda n: pretty(n, notation).text()))


def render(audit: Audit, failures: list[str] | None = None,
           layout: Layout | None = None) -> str:
    """The whole document (`templates/report.md.j2`); a step that cannot be typeset is
    shown as such and its message appended to `failures` (`evidence.guarded`)."""
    env = environment("markdown", escape)
    template = env.get_template("report.md.j2")
    view = AuditView.of(audit, (layout or Layout()).coq)
    steps = [s for p in view.proofs for s in p.steps]
    failed = [] if failures is None else failures

    def fallback(message: str) -> Raw:
        return Raw(f"*{escape(message)}*")

    text = template.render(
        view=view, summary=view.report["summary"], columns=evidence_columns(),
        status=status, numeric_cell=numeric_cell, layout=layout or Layout(),
        statement=guarded(statement, fallback, failed),
        claim=guarded(partial(claim, seen=set()), fallback, failed),  # sets defined once
        graph=guarded(graph, fallback, failed),
        evidence_math=guarded(evidence_math, fallback, failed),
        counterexample=guarded(counterexample, fallback, failed),
        symbolic_line=evidence.symbolic_line, numeric_line=view.numeric_line,
        refuted=sum(s.report["symbolic"]["status"] == "refuted" for s in steps),
        plugin_runs_note=PLUGIN_RUNS, unmade_note=UNMADE,
    )
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"


def evidence_columns() -> tuple[str, ...]:
    """The counted columns of the proofs' table."""
    from verify.audit.report import COLUMNS

    return COLUMNS
