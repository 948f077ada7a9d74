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

import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import partial

from verify.audit.job import Audit
from verify.audit.report import COLUMNS, PLUGIN_RUNS, UNMADE
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

ASCII = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%",
    "#": r"\#", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': "''",
    "`": r"\textasciigrave{}",
}
UNICODE = {
    "≤": r"$\le$", "≥": r"$\ge$", "≠": r"$\neq$", "±": r"$\pm$", "·": r"$\cdot$",
    "×": r"$\times$", "⟨": r"$\langle$", "⟩": r"$\rangle$", "‖": r"$\|$", "→": r"$\to$",
    "⇒": r"$\Rightarrow$", "∈": r"$\in$", "∑": r"$\sum$", "√": r"$\surd$", "∞": r"$\infty$",
    "⊢": r"$\vdash$", "−": "-", "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``",
    "”": "''", "…": r"\dots{}", "²": r"\textsuperscript{2}", "\u00a0": "~",
    "§": r"\S{}", "¶": r"\P{}", "★": r"$\star$", "↻": r"$\circlearrowright$",
    "←": r"$\leftarrow$", "ℕ": r"$\mathbb{N}$", "°": r"\textdegree{}", "©": r"\textcopyright{}",
    "«": r"\guillemotleft{}", "»": r"\guillemotright{}", "€": "EUR", "∇": r"$\nabla$",
    "⊆": r"$\subseteq$", "⊂": r"$\subset$", "∪": r"$\cup$", "∩": r"$\cap$", "∀": r"$\forall$",
    "∃": r"$\exists$", "¬": r"$\neg$", "∧": r"$\wedge$", "∨": r"$\vee$", "≈": r"$\approx$",
    "≡": r"$\equiv$", "∂": r"$\partial$", "⊥": r"$\perp$", "∉": r"$\notin$", "↦": r"$\mapsto$",
    "÷": r"$\div$", "\u2044": "/",
}
TITLE = "Audit of the perceptron convergence proofs"
PREAMBLE = r"""\documentclass[10pt,a4paper]{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{amsmath,amssymb}
\usepackage[margin=1.8cm]{geometry}
\usepackage{longtable,graphicx,adjustbox}
\usepackage{tikz}
\usepackage[hidelinks]{hyperref}
\definecolor{provedfill}{HTML}{DAFBE1}\definecolor{provedline}{HTML}{1A7F37}
\definecolor{refutedfill}{HTML}{FFEBE9}\definecolor{refutedline}{HTML}{CF222E}
\definecolor{unknownfill}{HTML}{FFF8C5}\definecolor{unknownline}{HTML}{9A6700}
\definecolor{affected}{HTML}{BC4C00}
\setlength{\parindent}{0pt}
\setlength{\parskip}{4pt}
\sloppy
\allowdisplaybreaks
"""


def escape(text: str) -> str:
    """`text` as LaTeX text that typesets as written and executes nothing; a long run of
    digits (an exact slack of 60 digits) may break every 16 digits and after a `/`. A letter
    with a combining accent (x̄, ŵ) keeps it; a character pdflatex has no glyph for is
    written as its code point, `[U+2603]`, never dropped or replaced by "?". A straight
    quote that opens a quotation (at the start, or after a space or an opening bracket) is
    TeX's opening quote: `'Re-defining the loss'` came out with two closing quotes (newcomer
    27, F6); any other is the closing quote or apostrophe it always was. A `~` before a number
    is the approximation `perceptron.numbers.shown` writes (`least slack ~-4.38e+24`), typeset
    as ≈: `\\textasciitilde` set it as a raised tilde before the minus (newcomer 31, F3); any
    other `~` (a path's `~/`) is the tilde it always was. A backtick is a backtick, never
    TeX's opening quote: a message's code span `y[1]` was typeset ‘y[1]‘ (newcomer 32 N7)."""
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    pieces = [_accented(c, text[i + 1]) if i + 1 < len(text) and unicodedata.combining(
        text[i + 1]) else "" if unicodedata.combining(c) else _OPENING[c]
        if c in _OPENING and (i == 0 or text[i - 1] in " ([{") else r"$\approx$"
        if c == "~" and _APPROXIMATE.match(text, i + 1) else _char(c)
        for i, c in enumerate(text)]
    out = _unligated(pieces)
    return _DIGITS.sub(lambda m: r"\allowbreak{}".join(
        m.group(0)[i:i + 16] for i in range(0, len(m.group(0)), 16)) + r"\allowbreak{}", out)


def _unligated(pieces: list[str]) -> str:
    """The pieces joined with `{}` wherever one ends in a hyphen and the next begins with
    one: TeX makes `--` an en-dash and `---` an em-dash, so `--budget`, an option a user
    copies from the page, was typeset `–budget`. A dash written as such (`–`, `—`) keeps its
    ligature."""
    out: list[str] = []
    for piece in pieces:
        if piece.startswith("-") and out and out[-1].endswith("-"):
            out.append("{}")
        if piece:
            out.append(piece)
    return "".join(out)


_DIGITS = re.compile(r"[0-9]{17,}")
#: A straight quote that opens a quotation, as TeX writes it (`escape`).
_OPENING = {"'": "`", '"': "``"}
#: What follows a `~` that stands for "approximately" (`escape`): a number, signed or not.
_APPROXIMATE = re.compile(r"-?[0-9]")
#: Combining accents and the text-mode commands that put them on a Latin letter.
_ACCENTS = {"\u0302": "^", "\u0304": "=", "\u0303": "~", "\u0301": "'", "\u0300": "`",
            "\u0307": ".", "\u0308": '"', "\u030c": "v"}


def _accented(c: str, mark: str) -> str:
    """A letter and the combining mark after it (the mark is skipped on its own)."""
    if mark in _ACCENTS and c.isascii() and c.isalpha():
        return rf"\{_ACCENTS[mark]}{{{c}}}"
    return _char(c) + _char(mark)


def _char(c: str) -> str:
    if c in ASCII:
        return ASCII[c]
    if c.isascii():
        return c
    if c in UNICODE:
        return UNICODE[c]
    if "\u00c0" <= c <= "\u017f" and c not in "×÷":  # Latin letters: T1 fonts have them
        return c
    name = unicodedata.name(c, "")
    for case, prefix in (("", "GREEK SMALL LETTER "), ("upper", "GREEK CAPITAL LETTER ")):
        if name.startswith(prefix):
            letter = name.removeprefix(prefix).lower().replace("lamda", "lambda")
            letter = letter.capitalize() if case else letter
            if letter.isalpha() and (not case or letter in _CAPITALS):
                return rf"$\{letter}$"
    return _decomposed(c)


def _decomposed(c: str) -> str:
    r"""A character with no entry of its own, from its Unicode decomposition when that says
    all of it, else its code point. Red team 21 F4: the decomposition folded to ASCII, the
    rest dropped, changed numbers: `10⁶` was typeset `106`, `p. 10½` `p. 1012`. Now a
    superscript or subscript stays one (`10\textsuperscript{6}`; `x₁₀` is
    `x\textsubscript{1}\textsubscript{0}`), a vulgar fraction is its numerator and
    denominator with a slash after a thin space (`10\,1/2`), a circled one is in
    parentheses, a compatibility form is what it stands for when each of its characters can
    be said (`ﬁ`, `™`, `µ`), a letter with accents TeX has commands for keeps them (`ǚ`);
    anything else is `[U+XXXX]`, never dropped."""
    tag, _, _ = unicodedata.decomposition(c).partition(" ")
    plain = unicodedata.normalize("NFKD", c)
    if plain == c:  # no decomposition: nothing to say it with
        return rf"\textsf{{[U+{ord(c):04X}]}}"
    letters = "".join(_char(p) for p in plain if not unicodedata.combining(p))
    marks = [p for p in plain if unicodedata.combining(p)]
    if tag == "<super>" and not marks:
        return rf"\textsuperscript{{{letters}}}"
    if tag == "<sub>" and not marks:
        return rf"\textsubscript{{{letters}}}"
    if tag == "<fraction>":  # the fraction slash U+2044 is in ASCII's place
        return r"\," + "".join("/" if p == "\u2044" else _char(p) for p in plain)
    if tag == "<circle>" and not marks:
        return f"({letters})"
    if not marks and "[U+" not in letters:  # `ﬁ`, `™`, `µ` (Greek mu), `Ａ`: said whole
        return letters
    if len(plain) == len(marks) + 1 and plain[0].isascii() and plain[0].isalpha() and all(
            m in _ACCENTS for m in marks):
        out = plain[0]
        for mark in marks:
            out = rf"\{_ACCENTS[mark]}{{{out}}}"
        return out
    return rf"\textsf{{[U+{ord(c):04X}]}}"


_CAPITALS = {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
             "Omega"}


def code(text: str) -> str:
    """`text` in typewriter type, breakable after operators and commas."""
    escaped = escape(text)
    for mark in ("*", "+", ",", "=="):
        escaped = escaped.replace(mark, mark + r"\allowbreak{}")
    return rf"\texttt{{{escaped}}}"


def breakable(text: str) -> str:
    """`text` escaped (`escape`), breakable after every `/`: a data file's path is one word
    of a page's width or more (a temporary folder's), which would run into the margin."""
    return escape(text).replace("/", r"/\allowbreak{}")


BUDGET = 80
"""Characters of plain text a display line holds at 10pt on the page (about 95 fit)."""


def display(chunks: Sequence[str], widths: Sequence[int]) -> str:
    """A displayed formula: on one line when it fits, else `multline*` broken at its
    top-level terms (`verify.typeset.written.lines`), so nothing runs off the page."""
    if sum(widths) + len(widths) <= BUDGET:
        return r"\[ " + " ".join(chunks) + r" \]"
    rows = [" ".join(line) for line in lines(chunks, widths, BUDGET - 10)]
    return "\\begin{multline*}\n" + " \\\\\n".join(rows) + "\n\\end{multline*}"


def statement(step: StepView, alone: bool = False) -> Raw:
    """The step as written: its run or cases, own hypotheses, what it inherits (marked),
    then ⊢ claim displayed (`display`). `alone` (the theorem box): first the runs of the
    inductions it rests on (`Statement.context`), and after it what its names denote
    (`StepView.definitions`)."""
    st = step.statement(WRITTEN)
    context = st.context if alone else ()
    parts = [joined(piece, lambda t: f"${t}$", escape) for piece in (context, st.run) if piece]
    given = st.given_in_context if context else st.given
    if given:
        parts.append(r"\emph{Given} " + ", ".join(f"${' '.join(g)}$" for g in given) + ".")
    # ragged right: a label `b (through c)` of two long step names is one typewriter run, whose
    # spaces do not stretch, so a justified line broken there was infeasible and the label
    # ran 9-84 pt into the margin (the voted-freund-schapire handout, the full audit)
    parts += [rf"{{\raggedright\emph{{{word} {code(used)}:}} ${' '.join(chunks)}$.\par}}"
              for (word, used), chunks in ((heading(u), c) for u, c in st.inherited)]
    # its own paragraph: the template's `Source:` and `Note:` follow on the next line, and
    # ran on in the same paragraph as the `where` sentence (newcomer 29)
    sets = ("\n" + joined(st.sets, lambda t: f"${t}$", escape) + ".\\par") if st.sets else ""
    defined = step.definitions(WRITTEN) if alone else ()
    names = ("\n\n" + joined(defined, lambda t: f"${t}$", escape) + "\\par") if defined \
        else ""
    return Raw("\n\n".join(parts) + "\n" + display(st.claim, st.widths) + sets + names)


def claim(step: StepView, seen: set[tuple[str, str]] | None = None) -> Raw:
    """The claim alone, inline (a summary line)."""
    sets = step.claim_sets(WRITTEN, seen)  # its sets defined, once in a document
    return Raw("$" + " ".join(step.statement(WRITTEN).claim[:]).replace(r"\vdash ", "", 1) + "$"
               + (" (" + joined(sets, lambda t: f"${t}$", escape) + ")" if sets else "")
               + (" " + escape(step.invariant.strip()) if step.invariant else ""))


def certificates(step: StepView) -> Raw:
    """Each judgement of the step typeset: its hypotheses by label and its claim in one
    paragraph, then, when proved, the certificate's identity (`verify.render.certificates`)
    as an `align*` block, names read as in the statement."""
    notation = Latex(spelling(step.proof))
    blocks = []
    several = len(step.goals) > 1
    printer = Printer(WRITTEN, spelling(step.proof))
    for goal in step.goals:
        label = joined(label_pieces(goal.goal.label, printer), lambda t: f"${t}$", escape)
        title = f"\\emph{{{label}: {goal.status}}}. " if several else ""
        for given, rows in evidence_blocks(goal.evidence, goal.pieces, notation):
            blocks.append(_given(title, [row.replace('&', '') for row in given]))
            title = ""
            if rows:
                blocks.append("\\begin{align*}\n" + " \\\\\n".join(rows)
                              + "\n\\end{align*}")
    return Raw("\n".join(blocks))


def _given(title: str, rows: Sequence[str]) -> str:
    """A judgement's hypotheses and claim in running text, by label. A sum's conditions stack
    under its Σ, a box TeX cannot break: such a formula is scaled down to (nearly) the line's
    width when wider (`max width` never enlarges), and the paragraph is set ragged right so
    that it starts on a line of its own rather than overflow the one before."""
    if not any(r"\sum" in row for row in rows):
        return title + ", \\quad ".join(f"${row}$" for row in rows)
    boxed = [rf"\adjustbox{{max width=0.95\linewidth}}{{${row}$}}" if r"\sum" in row
             else f"${row}$" for row in rows]
    return "{\\raggedright " + title + ", \\quad ".join(boxed) + "\\par}"


def graph(proof: ProofView) -> Raw:
    """The dependency graph as TikZ, at most the line's width (`verify.typeset.graph`)."""
    drawn = proof.graph()
    labels = {p.node.id: escape(p.label) for p in drawn.placed}
    return Raw(r"\begin{center}\adjustbox{max width=\linewidth}{%" + "\n" + drawn.tikz(labels)
               + "}\n" + r"\end{center}" + "\n{\\footnotesize " + escape(legend(drawn)) + "}\n")


def counterexample(cex: Json, names: object = None,
                   notation: Mapping[str, str] | None = None) -> Raw:
    """`name = value` items in typewriter type, and where a run instance came from; the
    step's names in math, as its formulas read them (`notation`, `StepView.notation`:
    $\theta^{*}$ = (0), not ts = (0))."""
    shown = names if isinstance(names, frozenset) else None
    written = "; ".join(evidence.counterexample_lines(cex, shown, lambda n: f"\0{n}\0"))
    pieces = [("math", pretty(part, notation).latex()) if k % 2 else ("text", part)
              for k, part in enumerate(written.split("\0")) if part]
    return Raw(joined(pieces, lambda t: f"${t}$", code))


def render(audit: Audit, failures: list[str] | None = None,
           layout: Layout | None = None) -> str:
    """The whole document (`templates/report.tex.j2`); a step that cannot be typeset is
    shown as such and its message appended to `failures` (`evidence.guarded`)."""
    view = AuditView.of(audit, (layout or Layout()).coq)
    template = environment("latex", escape).get_template("report.tex.j2")
    failed = [] if failures is None else failures

    def fallback(message: str) -> Raw:
        return Raw(rf"\emph{{{escape(message)}}}")

    return template.render(
        view=view, summary=view.report["summary"], columns=COLUMNS, layout=layout or Layout(),
        preamble=Raw(PREAMBLE), title=Raw(escape(view.proofs[0].audit.proof.title
                                                  if len(view.proofs) == 1 else TITLE)),
        statement=guarded(statement, fallback, failed), graph=guarded(graph, fallback, failed),
        certificates=guarded(certificates, fallback, failed),
        counterexample=guarded(counterexample, fallback, failed),
        code=lambda text: Raw(code(text)),
        claim=guarded(partial(claim, seen=set()), fallback, failed),  # sets defined once
        breakable=lambda text: Raw(breakable(text)), plugin_runs_note=PLUGIN_RUNS,
        unmade_note=UNMADE,
        symbolic_line=evidence.symbolic_line,
        numeric_line=view.numeric_line)
