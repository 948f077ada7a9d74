"""The audit as one self-contained HTML page: inline CSS, formulas in MathML, no scripts.

Verdicts first (proofs, findings, then every step in one table), details below with the
evidence folded (`<details>`). The page needs nothing at view time (no network, no
JavaScript): browsers render MathML natively. The layout is `templates/report.html.j2`,
the style `templates/report.css`; Jinja2 autoescapes every string, and only fragments built
here from SymPy's printers over identifiers (`formulas`, `certificates`) are marked safe.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files

from markupsafe import Markup

from verify.audit.job import Audit
from verify.audit.report import COLUMNS, PLUGIN_RUNS, UNMADE
from verify.render import evidence
from verify.render.certificates import MathML, evidence_blocks
from verify.render.evidence import (
    AuditView,
    Json,
    Layout,
    ProofView,
    StepView,
    environment,
    guarded,
    label_pieces,
    legend,
    message_pieces,
)
from verify.typeset.names import pretty, spelling
from verify.typeset.statement import Piece, heading, joined
from verify.typeset.written import MATHML as MATHML_WRITTEN
from verify.typeset.written import Printer


def formula(chunks: Sequence[str], css: str = "f") -> str:
    """One formula as MathML pieces that wrap like words (each its own `<math>`), so no
    formula is wider than the column and none needs a scroll bar."""
    return f'<span class="{css}">' + "".join(f"<math>{c}</math>" for c in chunks) + "</span>"


def statement(step: StepView, alone: bool = False) -> Markup:
    """The step as written: its run or cases, own hypotheses, what it inherits (marked,
    with a link to the step it comes from), then `⊢ claim`. `alone` (the theorem box):
    first the runs of the inductions it rests on (`Statement.context`), and after it what
    its names denote (`StepView.definitions`)."""
    st = step.statement(MATHML_WRITTEN)
    context = st.context if alone else ()
    parts = [f'<p class="run">{_words(piece)}</p>' for piece in (context, st.run) if piece]
    given_ = st.given_in_context if context else st.given
    if given_:
        given = "<span>, </span>".join(formula(g) for g in given_)
        parts.append(f'<div class="given"><span class="label">given</span> {given}</div>')
    steps = {s.id for s in step.proof.steps}
    for written_used, chunks in st.inherited:
        word, used = heading(written_used)
        name = written_used.split()[0]
        label = Markup.escape(used)
        if name in steps:  # a term-wise lemma the checker found has no section
            anchor = Markup.escape(f"{step.report_proof}--{name}")
            label = Markup(f'<a href="#{anchor}">{label}</a>')
        parts.append(f'<div class="inherited"><span class="label">{word.lower()} {label}'
                     f"</span> {formula(chunks)}</div>")
    parts.append(f'<div class="claim">{formula(st.claim)}</div>')
    if st.sets:  # the proof's sets it reads, defined where they are used
        parts.append(f'<p class="sets">{_words(st.sets)}.</p>')
    if alone and (defined := step.definitions(MATHML_WRITTEN)):
        parts.append(f'<p class="names">{_words(defined)}</p>')
    return Markup(f'<div class="statement">{"".join(parts)}</div>')


def _words(pieces: Sequence[Piece]) -> str:
    """Words and formulas on one line (`joined`): the words escaped, each formula MathML."""
    return joined(pieces, lambda t: f"<math>{t}</math>", lambda t: str(Markup.escape(t)))


def graph(proof: ProofView) -> Markup:
    """The proof's dependency graph (inline SVG, nodes linking to their steps)."""
    drawn = proof.graph()
    return Markup(f'<figure class="graph">{drawn.svg()}<figcaption>'
                  f"{Markup.escape(legend(drawn))}</figcaption></figure>")


def certificates(step: StepView) -> Markup:
    """Each judgement of the step: its hypotheses by label, its claim and, when proved, the
    certificate's identity, as one MathML table (`verify.render.certificates`)."""
    parts = []
    several = len(step.goals) > 1
    printer = Printer(MATHML_WRITTEN, spelling(step.proof))
    for goal in step.goals:
        rows = [row for block in evidence_blocks(goal.evidence, goal.pieces,
                                                       MathML(spelling(step.proof)))
                for row in (*block[0], *block[1])]
        label = _words(label_pieces(goal.goal.label, printer))
        title = (f'<p class="judgement">{label}: {Markup.escape(goal.status)}</p>'
                 if several else "")
        parts.append(f'{title}<math display="block"><mtable>{"".join(rows)}</mtable></math>')
    return Markup(f'<div class="cert">{"".join(parts)}</div>')


def message(step: StepView) -> Markup:
    """The step's symbolic message, each judgement's label typeset (`message_pieces`)."""
    return Markup(_words(message_pieces(step, Printer(MATHML_WRITTEN, spelling(step.proof)))))


def counterexample(cex: Json, names: object = None,
                   notation: Mapping[str, str] | None = None) -> Markup:
    """`name = value` items, and where a run instance came from, the step's names as its
    formulas read them (`notation`, `StepView.notation`: θ* = (0), not ts = (0))."""
    shown = names if isinstance(names, frozenset) else None
    items = "".join(f"<li>{Markup.escape(line)}</li>" for line in evidence.counterexample_lines(
        cex, shown, lambda n: pretty(n, notation).text()))
    return Markup(f'<ul class="cex">{items}</ul>')


def render(audit: Audit, failures: list[str] | None = None,
           layout: Layout | None = None) -> str:
    """The whole page (`templates/report.html.j2`); a step that cannot be typeset is shown
    as such and its message appended to `failures` (`evidence.guarded`)."""
    view = AuditView.of(audit, (layout or Layout()).coq)
    style = files("verify.render").joinpath("templates/report.css").read_text("utf-8")
    failed = [] if failures is None else failures

    def fallback(message: str) -> Markup:
        return Markup('<p class="unrendered">{}</p>').format(message)

    return environment("html").get_template("report.html.j2").render(
        view=view, summary=view.report["summary"], columns=COLUMNS, style=Markup(style),
        layout=layout or Layout(), statement=guarded(statement, fallback, failed),
        graph=graph,
        certificates=guarded(certificates, fallback, failed),
        message=guarded(message, fallback, failed),
        counterexample=guarded(counterexample, fallback, failed),
        symbolic_line=evidence.symbolic_line, numeric_line=view.numeric_line,
        tested=evidence.tested,
        plugin_runs_note=PLUGIN_RUNS, unmade_note=UNMADE)
