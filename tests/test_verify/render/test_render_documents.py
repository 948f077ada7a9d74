"""Markdown, HTML and LaTeX renderings of an audit: content, determinism, escaping."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
import sympy

from proofs.language.terms import gram, scalar
from verify.audit.job import Audit, run_audit
from verify.render import formulas, html, latex, markdown
from verify.typeset.statement import joined

IDS = ["joeyonng-online", "canonical-online-w0"]
HOSTILE = ("<script>alert(1)</script> \\input{/etc/passwd} $x^2$ 50% & ``` | [a](javascript:x) "
           "θ ≤ ‖w‖ x̄ ∇ ⊆ ☃ 中 10⁶ runs, p. 10½, x₁₀, n³, ™ ǚ ① µ \\end{document}")


@pytest.fixture(scope="module")
def audit() -> Audit:
    return run_audit(IDS, budget="small", seed=4)


@pytest.fixture(scope="module")
def hostile(audit: Audit) -> Audit:
    """The audit with a stranger's title, source and notes."""
    proof = audit.proofs[0]
    steps = tuple(dataclasses.replace(s, step=dataclasses.replace(s.step, note=HOSTILE,
                                                                  source=HOSTILE))
                  for s in proof.steps)
    changed = dataclasses.replace(proof, proof=dataclasses.replace(proof.proof, title=HOSTILE),
                                  source=HOSTILE, steps=steps)
    return dataclasses.replace(audit, proofs=(changed, *audit.proofs[1:]))


class _Balance(HTMLParser):
    VOID = frozenset({"meta", "br", "hr", "img", "input", "link", "mspace"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, f"unbalanced </{tag}>"


def test_gram_symbols_print_as_angle_brackets():
    expr = scalar("y") * gram("x", "w") - scalar("gamma")
    assert r"\left\langle w, x \right\rangle" in formulas.latex(expr)
    element = ET.fromstring(f"<math>{formulas.mathml(expr)}</math>")
    assert ["\u27e8", ",", "\u27e9"] == [e.text for e in element.iter("mo")][:3]
    assert "<w,x>" not in formulas.mathml(expr)


def test_formulas_refuse_names_that_are_not_identifiers():
    with pytest.raises(ValueError, match="not an identifier"):
        formulas.mathml(sympy.Symbol("<script>"))


def test_html_is_self_contained_balanced_and_shows_every_finding(audit: Audit):
    page = html.render(audit)
    checker = _Balance()
    checker.feed(page)
    assert checker.open == []
    assert "script" not in checker.tags and "link" not in checker.tags
    assert not re.search(r"(src=|url\(|@import|https?://)", page)
    for math in re.findall(r"<math.*?</math>", page, flags=re.S):
        ET.fromstring(math)  # well-formed MathML
    assert page.count("<math") > 50
    assert 'class="finding"' in page and "Corrected step" in page
    findings = [s for p in audit.proofs for s in p.steps if s.finding]
    assert page.count('<article class="finding">') == len(findings)
    assert "<details>" in page and "symbolic certificate" in page
    assert "mistake-condition-strict-corrected" in page


def _apart(line: str) -> bool:
    """Whether every `$formula$` of `line` has a space (or punctuation) on each side."""
    parts = line.split("$")
    before = [parts[i - 1] for i in range(1, len(parts), 2)]
    after = [parts[i + 1] for i in range(1, len(parts) - 1, 2)]
    return all(not b or b[-1] in " (" for b in before) and all(
        not a or a[0] in " ,.:;)" for a in after)


def test_words_and_formulas_are_apart_in_latex_and_markdown(audit: Audit):
    """Newcomer trial, item 9: the escapes fold whitespace and dropped it at the edges of a
    run's words, so `from$w = 0$`, `updating$w ...$when`, `after$t$updates`, `sign of$t$`
    (the PDF read "fromw = 0 ... aftertupdates")."""
    assert joined([("text", "from "), ("math", "w"), ("text", " after ")], "<{}>".format,
                  latex.escape) == "from <w> after "
    assert joined([("text", "  "), ("math", "t"), ("text", ", ")], "<{}>".format,
                  markdown.escape) == " <t>, "
    for text in (markdown.render(audit), latex.render(audit)):
        runs = [line for line in text.splitlines()
                if line.startswith(("for every run from", "by cases on the sign of"))]
        assert len(runs) >= 4
        assert all(_apart(line) for line in runs), [r for r in runs if not _apart(r)]
        assert "for every run from $w = 0$ of updates $w" in text


def test_markdown_has_the_summary_findings_and_every_step(audit: Audit):
    text = markdown.render(audit)
    lines = text.splitlines()
    assert "| proof | verdict | proved | refuted | unknown | numeric | instances | violations |" \
        in lines
    for proof in audit.proofs:
        assert all(f"#### {s.step.id}: symbolic " in text for s in proof.steps)
        assert all(f"| {s.step.id} | " in text for s in proof.steps)  # the steps' table
    assert text.count("```math") >= sum(len(p.steps) for p in audit.proofs)
    assert text.count("<details>") == text.count("</details>") == len(audit.proofs)


def test_markdown_puts_every_verdict_before_any_detail(audit: Audit):
    # issue 17: the verdicts were far down a 7 491-line document; issue 29: the theorems
    # come first (one line each), then every verdict, then the details
    lines = markdown.render(audit).splitlines()
    first_detail = next(i for i, line in enumerate(lines) if line.startswith("## ")
                        and "in detail" in line)
    theorems = [i for i, line in enumerate(lines) if line.startswith("**Theorem (")]
    assert len(theorems) == len(audit.proofs) and max(theorems) < 80
    for proof in audit.proofs:
        row = next(i for i, line in enumerate(lines) if line.startswith(f"| {proof.id} | "))
        assert max(theorems) < row < first_detail and proof.status in lines[row]
        for step in proof.steps:
            row = next(i for i, line in enumerate(lines)
                       if line.startswith(f"| {step.step.id} | "))
            assert row < first_detail and step.symbolic.status in lines[row]
    found = [s for p in audit.proofs for s in p.steps if s.finding]
    assert found and all(any(line.startswith(f"| {p.id} / {s.step.id} | ") for line in
                             lines[:first_detail]) for p in audit.proofs for s in p.steps
                         if s.finding)


def test_certificates_are_typeset_in_every_format(audit: Audit):
    proved = sum(s.symbolic.status == "proved" for p in audit.proofs for s in p.steps)
    text = markdown.render(audit)
    assert text.count(r"\mathrm{claim} &=") >= proved
    document = latex.render(audit)
    assert document.count(r"\mathrm{claim} &=") >= proved
    assert document.count(r"\begin{align*}") >= proved
    assert r"\texttt{(1) * claim" not in document  # no raw ASCII certificates
    page = html.render(audit)
    assert page.count("<mtable>") >= proved and "<pre>" not in page
    for rendered in (text, document, page):
        assert "R_{2}" not in rendered and "<msub><mi>R</mi><mn>2</mn>" not in rendered


def _latex_balanced(document: str) -> None:
    body = re.sub(r"\\[\\{}$%&#_]", "", document)  # escaped characters and \\ line breaks
    depth = 0
    for char in body:
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0
    assert depth == 0
    assert body.count("$") % 2 == 0
    environments = re.findall(r"\\(begin|end)\{([a-z*]+)\}", body)
    stack: list[str] = []
    for kind, name in environments:
        if kind == "begin":
            stack.append(name)
        else:
            assert stack.pop() == name
    assert stack == []


def test_latex_is_balanced_and_has_the_appendix(audit: Audit):
    document = latex.render(audit)
    _latex_balanced(document)
    assert document.count(r"\end{document}") == 1
    assert r"\appendix" in document and r"\section{Certificates and counterexamples}" in document


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_latex_compiles(hostile: Audit, tmp_path: Path):
    (tmp_path / "audit.tex").write_text(latex.render(hostile), encoding="utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                           "-no-shell-escape", "audit.tex"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert (tmp_path / "audit.pdf").stat().st_size > 10_000
    assert "(/etc/passwd" not in (tmp_path / "audit.log").read_text(errors="replace")


def test_hostile_text_is_neutralised_in_every_format(hostile: Audit):
    page = html.render(hostile)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    checker = _Balance()
    checker.feed(page)
    assert "script" not in checker.tags and checker.open == []

    text = markdown.render(hostile)
    assert "<script>" not in text and r"\<script\>" in text
    assert "[a](" not in text and r"\[a\](javascript:x)" in text  # no link
    assert "$x^2$" not in text.replace(r"\$x^2\$", "")  # no math (the text's own: `$x$`)

    document = latex.render(hostile)
    _latex_balanced(document)
    assert r"\input" not in document and r"\end{document}" not in document[:-20]
    assert r"\textbackslash{}input\{/etc/passwd\}" in document
    assert r"\$x\textasciicircum{}2\$ 50\% \&" in document
    assert r"$\theta$ $\le$ $\|$w$\|$" in document


def test_renderings_are_deterministic(audit: Audit):
    again = run_audit(IDS, budget="small", seed=4)
    for render in (html.render, markdown.render, latex.render):
        assert render(again) == render(audit)


def test_cli_writes_every_format_and_keeps_stderr_to_the_time_line(tmp_path: Path):
    files = {fmt: tmp_path / f"audit.{ext}" for fmt, ext in
             (("html", "html"), ("markdown", "md"), ("latex", "tex"))}
    args = [arg for fmt, path in files.items() for arg in (f"--{fmt}", str(path))]
    done = subprocess.run(
        [sys.executable, "-m", "verify", "audit", "--only", "canonical-online-w0",
         "--budget", "small", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("audit passed in ")
    assert "canonical-online-w0" in done.stdout
    for path in files.values():
        assert "canonical-online-w0" in path.read_text(encoding="utf-8")


def test_non_ascii_survives_in_latex() -> None:
    """Issue 29.2: every character of the built-in proofs' notes and sources, and strangers'
    characters, reach LaTeX as themselves, an accent command, a math symbol, or their code
    point: never dropped, never "?" (x̄'s macron and ∇, ⊆ once printed "?")."""
    library = Path(__file__).resolve().parents[3] / "proofs" / "library"
    used = {c for path in library.rglob("*.toml") for c in path.read_text() if not c.isascii()}
    for char in sorted(used | set("x̄ŵ∇⊆☃中θ‖")):
        assert "?" not in latex.escape(f"a{char}"), (char, hex(ord(char)))
    assert latex.escape("x̄ ŵ") == r"\={x} ŵ"
    assert latex.escape("☃") == r"\textsf{[U+2603]}"


@pytest.mark.parametrize(("text", "typeset"), [
    ("10⁶ runs", r"10\textsuperscript{6} runs"),
    ("p. 10½", r"p. 10\,1/2"),
    ("2¼", r"2\,1/4"),
    ("n³", r"n\textsuperscript{3}"),
    ("x₁₀", r"x\textsubscript{1}\textsubscript{0}"),
    ("10⁻¹", r"10\textsuperscript{-}\textsuperscript{1}"),
    ("™ ﬁ µ", r"\textsuperscript{TM} fi $\mu$"),
    ("ǚ ①", r"\v{\"{u}} (1)"),
    ("ș ǆ", r"\textsf{[U+0219]} \textsf{[U+01C6]}"),
    ("--budget small", "-{}-budget small"),
    ("a---b", "a-{}-{}-b"),
    ("1–-2", "1--{}-2"),
    # newcomer 32 N7: a message's code span, `y[1]`, was typeset with two opening quotes
    ("a sum give, `y[1]`", r"a sum give, \textasciigrave{}y[1]\textasciigrave{}"),
])
def test_latex_never_changes_a_number_nor_drops_a_character(text: str, typeset: str) -> None:
    """Red team 21 F4: user text was folded to ASCII by NFKD with the rest dropped, so
    `10⁶ runs` was typeset `106 runs` and `p. 10½` `p. 1012`. A superscript or subscript
    stays one, a fraction is `n/d` after a thin space, and what cannot be said whole is its
    code point (`ș` was `s`, its comma dropped). Polish: two ASCII hyphens are TeX's
    en-dash ligature, so an option a user copies (`--budget`) was typeset `–budget`; each
    hyphen before another is closed with `{}`."""
    assert latex.escape(text) == typeset


@pytest.mark.parametrize(("numeric", "said"), [
    ({"status": "violated", "instances": 251, "violations": 131, "min_slack": "-2"},
     "violated on 131 of 251 run instances, least slack -2"),
    ({"status": "held", "instances": 251, "violations": 0, "vacuous": 3, "min_slack": "0"},
     "held on 251 run instances (3 vacuous: hypotheses false), least slack 0"),
    ({"status": "not-run", "instances": 0, "violations": 0, "min_slack": None,
      "reason": "why"}, "not run: why"),
    # the 90 digits of chan-batch's least slack, one unbreakable word, widened the whole
    # HTML report past an 800-pixel window: abbreviated past 24 digits, kept in the JSON
    ({"status": "violated", "instances": 7, "violations": 1,
      "min_slack": f"-{4 * 10**46 + 7}/{10**45 + 3}"},
     "violated on 1 of 7 run instances, least slack ~-40 (exact: 47/46 digits; see --json)"),
])
def test_a_steps_runs_in_words(numeric: dict[str, object], said: str) -> None:
    """Regression (issue 27 acceptance check, bug 13): "violated on 251 run instances, 131
    violations" read as if all 251 were violated."""
    from verify.render.evidence import numeric_line

    assert numeric_line({"numeric": numeric}) == said


def test_a_counterexample_uses_the_proofs_notation_in_every_format() -> None:
    """Newcomer 21 M1: beside a formula in θ* and γ, the counterexample read `gam = 1, ts =
    (1)`, the file's raw names, while `explain` wrote the notation. Every format now writes
    the names as the formulas do; a step's note is escaped, not typeset (L4), and the HTML's
    step section labels it as the others do."""
    trial = Path(__file__).resolve().parents[2] / "cases" / "trial21" / "sums.toml"
    audit = run_audit([str(trial)], budget="small")
    md, tex, page = markdown.render(audit), latex.render(audit), html.render(audit)
    assert md.count("c = 0; γ = 1; θ\\* = (1)") == 2 and "ts = (1)" not in md
    assert tex.count(r"$c$ \texttt{= 0;} $\gamma$ \texttt{= 1;} $\theta^{*}$ \texttt{= (1)}") == 3
    assert "gam = 1" not in tex and "ts = (1)" not in tex
    assert page.count('<ul class="cex"><li>c = 0</li><li>γ = 1</li><li>θ* = (1)</li></ul>') == 2
    assert "<li>ts = (1)</li>" not in page
    assert (r"of it\_\{j\} \#1 \$x\$ \textless{}b\textgreater{} \textbackslash{}emph" in tex
            and '<span class="label">Note:</span> one update gains' in page.split(
                'class="step ')[1])


def test_a_badge_counts_the_instances_tested_not_the_vacuous(tmp_path: Path) -> None:
    """Newcomer 33 F1: a step whose hypothesis `norm2(u) == 2` fails on most runs held on
    the few where it holds; the HTML badge said `runs: held on 261 instances` and the
    Markdown heading `held (261)`, as if every one of them tested the claim. Both now count
    the instances tested beside the vacuous ones, as the detail line and the JSON do."""
    from verify.audit.report import to_json

    proof = tmp_path / "unit.toml"
    proof.write_text('''title = "unit separator"
vectors = ["w", "x", "u"]
scalars = ["y", "t", "g"]
naturals = ["t"]

[[step]]
id = "down"
claim = "dot(w, u) >= t*g"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y*dot(u, x) >= g"]
constants = ["u", "g"]

[[step]]
id = "sq"
uses = ["down"]
given = ["norm2(u) == 2", "g > 0"]
claim = "t**2*g**2 <= 2*norm2(w)"
hints = ["w - dot(w, u)*u"]

[numeric]
run = "online"
names = { g = "gamma_u" }
''')
    audit = run_audit([str(proof)], budget="small")
    numeric = {s["id"]: s["numeric"] for s in to_json(audit)["proofs"][0]["steps"]}["sq"]
    n, v = numeric["instances"], numeric["vacuous"]
    assert numeric["status"] == "held" and 0 < v < n
    page, md = html.render(audit), markdown.render(audit)
    assert f"runs: held on {n - v} of {n} instances, {v} vacuous" in page
    assert f"✅ held ({n - v} of {n} instances, {v} vacuous)" in md
