"""Issue 29: reports a lecturer hands out. Every built-in proof, alone and together, in
every format: the theorem is the first formula; LaTeX has no overfull box wider than 1pt
(pdflatex, when installed); no HTML formula is wider than the content column (measured in
a real browser: Playwright driving Debian's chromium, when installed); the canonical-online
handout is at most 10 pages without its appendix, the summary one page; the dependency
graph has an edge for every `uses`."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from proofs.library import PROOFS, load_builtin
from proofs.step import Proof
from verify.audit.job import Audit
from verify.proof_checker import statements
from verify.render import latex, markdown
from verify.render.evidence import AuditView, Layout
from verify.typeset.names import spelling
from verify.typeset.statement import Statement, statement
from verify.typeset.written import LATEX, MATHML, TEXT, Format, Printer

ROOT = Path(__file__).resolve().parents[3]
BROWSER_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def audit(small_audit: Audit) -> Audit:
    """Every built-in proof, with the small campaign (`tests/conftest.py`, made once)."""
    return small_audit


@pytest.fixture(scope="module")
def whole(small_audit_documents: dict[str, tuple[str, list[str]]]) -> dict[str, str]:
    """The whole audit in each format (`html.render(audit)`, ...; `tests/conftest.py`, made
    once)."""
    return {fmt: document for fmt, (document, _) in small_audit_documents.items()}


Handouts = Callable[[str], dict[str, tuple[str, list[str]]]]


@pytest.fixture(scope="module")
def handouts(small_audit_handouts: Handouts) -> Handouts:
    """One proof's handout in each format, with its failures (`tests/conftest.py`, each made
    once: `latex.render(_only(audit, proof_id))`, ...)."""
    return small_audit_handouts


def _only(audit: Audit, proof_id: str) -> Audit:
    return dataclasses.replace(audit, proofs=tuple(p for p in audit.proofs if p.id == proof_id))


def _typeset(proof: Proof, step_id: str, fmt: Format) -> Statement:
    """The step's statement as the kernel reads it, typeset in `fmt`."""
    stated = statements(proof)
    return statement(proof, proof.step(step_id), fmt, stated[step_id], stated)


# -- the theorem first --------------------------------------------------------------------------


@pytest.mark.parametrize("proof_id", list(PROOFS))
def test_the_theorem_is_the_first_formula_of_every_handout(handouts: Handouts, proof_id: str):
    # latex.render(_only(audit, proof_id)), and html, markdown: made once (tests/conftest.py)
    alone = {fmt: document for fmt, (document, _) in handouts(proof_id).items()}
    proof = load_builtin(proof_id)
    claim_tex = " ".join(_typeset(proof, proof.main_result, LATEX).claim)
    claim_mml = _typeset(proof, proof.main_result, MATHML).claim[0]
    tex = alone["latex"]
    first_display = re.search(r"\\\[|\\begin\{multline\*\}", tex)
    assert first_display and tex.index(claim_tex.split(" ")[0]) <= first_display.end() + 40
    assert tex.index("Theorem") < first_display.start() < tex.index(r"\section")
    page = alone["html"]
    first_math = page.index("<math>")
    assert page.index('class="theorem') < first_math < page.index('class="step ')
    assert page.index(claim_mml) < page.index('class="step ')
    md = alone["markdown"]
    first_block = md[md.index("```math") + len("```math\n"):]
    assert first_block.startswith(claim_tex[:20])


def test_the_full_audit_leads_with_the_theorems(audit: Audit, whole: dict[str, str]):
    page = whole["html"]
    assert page.index('id="theorems"') < page.index('id="findings"') < page.index('id="summary"')
    assert page.count('class="theorem ') == len(audit.proofs)
    view = AuditView.of(audit)
    chan = next(p for p in view.proofs if p.audit.id == "virtue-online")
    assert chan.verdict == "refuted" and chan.corrected is not None  # the fix beside it
    assert f'href="#{chan.corrected.anchor}"' in page


def test_a_statement_is_typeset_as_written_not_in_normal_form():
    proof = load_builtin("chan-batch")
    claim = "".join(_typeset(proof, "batch-average-corrected", LATEX).claim)
    assert r"\frac" in claim and r"\alpha" in claim and r"\theta" not in claim
    assert claim.replace(" ", "") != r"\vdash0=0"
    online = load_builtin("canonical-online")
    run = _typeset(online, "norm-growth", LATEX).run
    words = "".join(text for kind, text in run if kind == "text")
    assert words.startswith("for every run from") and "of updates" in words
    assert "after" in words and "updates" in words


def _words(pieces) -> str:
    return "".join(text for _, text in pieces)


def test_the_theorem_is_stated_for_the_runs_its_inductions_are_about():
    """Newcomer 27, F2: canonical-online's theorem box read `given t ∈ ℕ, ⟨u,u⟩ = 1; From
    norm-growth: ‖w‖² ≤ tR²; ... ⊢ tγ_u² ≤ R²`, the runs only in the step boxes below. Its
    two inductions are over one run (from w = 0, w ← w + yx): the theorem holds after t
    updates of every run each of whose updates has both inductions' update facts, and it
    says so, each fact with the induction that assumed it, t natural by `after t updates`."""
    proof = load_builtin("canonical-online")
    st = _typeset(proof, "bound-unit", TEXT)
    words = _words(st.context)
    assert words.startswith("For every run from w = 0 of updates w ← w + y·x, each with ")
    assert "y² = 1, y·⟨w, x⟩ ≤ 0, ‖x‖² ≤ R² (norm-growth), y·⟨u, x⟩ ≥ γ_u (lower-bound)" \
        in words
    assert words.endswith(", after t updates (the runs of the inductions norm-growth, "
                          "lower-bound, whose claims it rests on):")
    assert ("t ∈ ℕ",) in st.given and st.given_in_context == (("⟨u, u⟩", "= 1"),)
    # nothing the kernel did not assume: the update facts are exactly the inductions'
    printer = Printer(TEXT, spelling(proof))
    facts = [printer.relation(f.text) for s in ("norm-growth", "lower-bound")
             for f in proof.step(s).rule.hypotheses]
    between = words[words.index("each with ") + 10:words.index(", after t updates")]
    assert between.replace(" (norm-growth)", "").replace(" (lower-bound)", "") == ", ".join(
        facts)
    # an induction's own box keeps its run; a step resting on no induction has no context
    assert _typeset(proof, "norm-growth", TEXT).context == ()
    assert _typeset(proof, "cauchy-schwarz", TEXT).context == ()


def test_inductions_over_parts_of_one_run_give_that_run():
    """nonseparable-freund-schapire's theorem rests on five inductions over one pass, each
    moving some of w, s, q, rest (started and updated alike where two move the same name):
    a run moving all four at once is a run of each, so the theorem is stated for it, each
    update fact once, tagged with the inductions that assumed it."""
    proof = load_builtin("nonseparable-freund-schapire")
    st = _typeset(proof, proof.main_result, TEXT)
    words = _words(st.context)
    assert words.startswith("For every run from w = 0, s = 0, q = 0, rest = D2 of updates "
                            "w ← w + y·x, s ← s + d, q ← q + d², rest ← rest − skip − d², "
                            "each with d ≥ 0, ")
    assert "‖x‖² ≤ R2 (norm-growth), skip ≥ 0 (unseen-accounting)," in words
    assert words.count("d ≥ 0,") == 1 and ("t ∈ ℕ",) not in st.given_in_context


def test_inductions_over_different_runs_are_not_merged_into_one_run():
    """cycling-inseparable's theorem rests on inductions counting epochs (e) and updates
    within an epoch (r): no run is one of both, so each is described with its own runs,
    and the counters stay among the naturals."""
    proof = load_builtin("cycling-inseparable")
    st = _typeset(proof, proof.main_result, TEXT)
    words = _words(st.context)
    assert words.startswith("Its facts from inductions hold on their runs: "
                            "epoch-starts-bounded for every run from ws = w₀ of updates")
    assert "after e updates;" in words and words.endswith("after r updates.")
    assert st.given_in_context == st.given and ("e ∈ ℕ",) in st.given


ONE_RUN = """
title = "two inductions"
theorem = "both"
vectors = ["w", "x", "u"]
scalars = ["t", "y", "g", "s"]
naturals = ["t"]

[[step]]
id = "progress"
claim = "dot(w, u) >= t*g"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y*dot(u, x) >= g"]
constants = ["u", "g"]

[[step]]
id = "count"
claim = "s == t"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + 1" }

[[step]]
id = "both"
uses = ["progress", "count"]
claim = "dot(w, u) >= s*g"
"""


def _parsed(text: str) -> Proof:
    from proofs.proof_file import parse_proof

    return parse_proof(text.encode(), "one.toml")


def test_inductions_moving_different_names_alike_are_one_run():
    from verify.typeset.statement import one_run

    proof = _parsed(ONE_RUN)
    stated = statements(proof)
    assert one_run((stated["progress"], stated["count"]))
    words = _words(_typeset(proof, "both", TEXT).context)
    assert words.startswith("For every run from w = 0, s = 0 of updates w ← w + y·x, "
                            "s ← s + 1, each with y·⟨u, x⟩ ≥ g (progress), after t updates "
                            "(the runs of the inductions progress, count, whose claims it "
                            "rests on):")


THIRD = """
[[step]]
id = "from-one"
claim = "s == t + 1"
[step.induction]
variable = "t"
base = { s = "1" }
step = { s = "s + 1" }

[[step]]
id = "all"
uses = ["progress", "count", "from-one"]
claim = "dot(w, u) >= s*g"
"""


@pytest.mark.parametrize(("text", "uses"), [
    # a third induction starts s at 1, count at 0: no run is one of both
    (ONE_RUN + THIRD, ("progress", "count", "from-one")),
    # progress holds s fixed (it reads s, does not move it), count moves it
    (ONE_RUN.replace('claim = "dot(w, u) >= t*g"', 'claim = "dot(w, u) >= t*g - s"'),
     ("progress", "count")),
])
def test_runs_that_differ_are_not_one_run(text: str, uses: tuple[str, ...]):
    from verify.typeset.statement import one_run

    proof = _parsed(text)
    stated = statements(proof)
    assert not one_run(tuple(stated[n] for n in uses))
    theorem = "all" if "from-one" in uses else "both"
    words = _words(_typeset(proof, theorem, TEXT).context)
    assert words.startswith("Its facts from inductions hold on their runs: progress for every")


def test_the_theorem_box_says_what_its_names_denote_on_runs(handouts: Handouts):
    """Newcomer 27, F2: no handout defined w, t, u, γ_u, R. The theorem box gives each name
    it reads that is a quantity of the proof's run kind the registry's words for it
    (`Quantity.doc`, the text docs/run-quantities.md is generated from); in every format,
    in the theorem box only (the step boxes below do not repeat it)."""
    from verify.runs.online import QUANTITIES

    doc = {q.name: q.doc for q in QUANTITIES}
    alone = {fmt: document for fmt, (document, _) in handouts("canonical-online").items()}
    words = "Its names denote quantities of online runs (docs/run-quantities.md): "
    for fmt, document in alone.items():
        assert document.count(words) == 1, fmt
        start = document.index(words)
        assert start < document.index("The proof"), fmt
        defined = document[start:document.index("Source", start)]
        for phrase in ("the number of updates before", "the reference separator (planted",
                       "the squared radius of the dataset (no square root)", "the example (on"):
            assert phrase in defined, (fmt, phrase)
        # the registry's formulas, in proof-file syntax, typeset as the steps are: no
        # ASCII (`max_i ||x_i||^2`), no proof-file syntax (`norm2(X[j])`) left as words
        for ascii_ in ("max_i", "‖x_i‖", "<u, x_i>", "||", "norm2", "dot(", ">=", r"w\_t"):
            assert ascii_ not in defined, (fmt, ascii_)
        assert doc["t"].startswith("the number of updates before")
    tex = alone["latex"]
    assert r"$\max_{j} \lVert {x}_{j} \rVert^{2}$" in tex
    # the margin's remark was a chain the printer could not read, left as text with
    # escaped underscores (`‖w\_t‖ ‖u‖ ≥ ⟨w\_t, u⟩`): now two relations, typeset
    assert (r"$\langle w_{t}, u \rangle \ge t\,\gamma_{u}$ and $\lVert w_{t} \rVert^{2}\,"
            r"\lVert u \rVert^{2} \ge \langle w_{t}, u \rangle^{2}$ need no square root") in tex
    page = alone["html"]
    box = page[page.index('class="theorem'):page.index('id="proof-')]
    assert box.index("For every run from") < box.index('class="given"') < box.index(
        'class="claim"') < box.index('class="names"')
    assert "t</mi><mo>&#x2208;</mo>" not in box.replace("<mi>t</mi><mo>∈", "")


def test_the_handout_is_written_for_a_student_not_for_the_tool(handouts: Handouts):
    """Newcomer 27, F6, each asserted on the canonical-online handout as rendered."""
    alone = {fmt: document for fmt, (document, _) in handouts("canonical-online").items()}
    tex, page, md = alone["latex"], alone["html"], alone["markdown"]
    # the proof's header names the documents cited, not `Chan; not in the seed; Ng; ...`
    for document in alone.values():
        assert "sources: Chan, Ng, Virtue, Joeyonng" in document
        assert "; not in the seed;" not in document
    # seed and budget are said once, at the end, not in the result line
    assert "· seed 3 · budget small" not in page and "(seed 3, budget small)." in page
    assert "· seed 3 · budget small" not in md and md.rstrip().endswith(
        "*Generated by novikoff audit (seed 3, budget small).*")
    assert re.search(r" · \d+ findings?\n\n\*\*Theorem\*\*", md)  # its own paragraph
    assert "; seed 3; budget small." not in tex and "(seed 3, budget small).}" in tex
    # a judgement's label is typeset, not Python (`denominator gamma_u**2 > 0`)
    assert r"\emph{denominator $\gamma_{u}^{2} > 0$: proved}" in tex
    assert r"&\text{denominator }\gamma_{u}^{2} > 0\text{: proved}" in md
    assert "judgements proved: main, denominator <math>" in page
    for document in alone.values():
        assert "denominator gamma_u**2" not in document
    # `dot(0*d, d)`, the zero vector's idiom, reads ⟨0, d⟩, not ⟨0d, d⟩
    assert r"h\,\langle 0, d \rangle" in tex and r"\langle 0\,d" not in tex
    # a quotation opens with an opening quote in LaTeX
    assert "`Re-defining the loss'" in tex and "'Re-defining the loss'" not in tex
    # the graph: its heading may not stay alone at a page's foot; its edges are drawn
    # before (so under) the boxes, from the box's foot to the next box's head
    assert "\\filbreak\n\\section{The proof}" in tex
    picture = tex[tex.index(r"\begin{tikzpicture}"):tex.index(r"\end{tikzpicture}")]
    assert picture.index(r"\draw[->,gray] (") < picture.index(r"\node[")
    assert ".south)" not in picture and ".north)" not in picture


def test_a_not_run_badge_says_not_run_in_words(audit: Audit):
    """Newcomer 27, F6: the HTML badge read `runs: not-run`, the JSON's status word."""
    from verify.render import html

    page = html.render(_only(audit, "canonical-online-w0"))
    assert '<span class="badge not-run">runs: not run</span>' in page
    assert "runs: not-run" not in page
    # newcomer 28 (Low): the Markdown still read "numeric – not-run"
    text = markdown.render(_only(audit, "canonical-online-w0"))
    assert "numeric – not run" in text and "not-run" not in text


def test_a_quote_that_opens_is_an_opening_quote_in_latex():
    assert latex.escape("Chan, 'Re-defining the loss': x") == "Chan, `Re-defining the loss': x"
    assert latex.escape('say "hi" (\'x\'), the seeds\' bound, it\'s') == (
        "say ``hi'' (`x'), the seeds' bound, it's")


def test_the_zero_vector_idiom_reads_zero():
    printer = Printer(TEXT)
    assert printer.relation("J_at == J + h*dot(0*d, d)") == "J_at = J + h·⟨0, d⟩"
    assert printer.expression("2*d + 0*w") == "2d + 0"


def test_minus_never_prints_as_plus_minus(whole: dict[str, str]):
    page = whole["html"]
    assert "<mo>+</mo><mo>&#x2212;</mo>" not in page
    assert "<mo>+</mo><mn>&#x2212;" not in page
    assert "<mo>+</mo><mrow><mo>&#x2212;</mo>" not in page


# -- the dependency graph ------------------------------------------------------------------------


def test_the_graph_of_canonical_online_has_an_edge_for_every_use(audit: Audit,
                                                                 handouts: Handouts):
    view = AuditView.of(_only(audit, "canonical-online"))
    (proof,) = view.proofs
    uses = {(u.step, s.id) for s in proof.audit.proof.steps for u in s.uses}
    assert uses and set(proof.graph().edges) == uses
    svg = proof.graph().svg()
    assert svg.count('class="edge use"') == len(uses)
    assert all(f'href="#canonical-online--{s.id}"' in svg for s in proof.audit.proof.steps)
    mermaid = proof.graph().mermaid()
    assert mermaid.count(" --> ") == len(uses)
    tex = handouts("canonical-online")["latex"][0]  # latex.render(_only(audit, ...))
    assert tex.count(r"\draw[->,gray] (") == len(uses)


def test_the_graph_of_a_source_shows_its_findings_and_what_rests_on_them(audit: Audit):
    view = AuditView.of(_only(audit, "chan-batch"))
    graph = view.proofs[0].graph()
    findings = {p.node.id for p in graph.placed if p.node.finding}
    assert findings
    affected = {p.node.id for p in graph.placed if p.affected}
    for a, b in graph.edges:
        if a in findings or a in affected:
            assert b in affected
    assert graph.corrections  # a finding points to its corrected step


# -- LaTeX: no overfull boxes, page counts -------------------------------------------------------


def _pdflatex(source: str, folder: Path, name: str) -> tuple[int, list[float]]:
    """Pages and the overfull boxes' excess (pt) of `source` compiled twice: the first pass
    in draft mode (it writes the .aux and .out files the second reads, and no PDF)."""
    (folder / f"{name}.tex").write_text(source, encoding="utf-8")
    for mode in (["-draftmode"], []):
        done = subprocess.run(["pdflatex", *mode, "-interaction=nonstopmode", "-halt-on-error",
                               f"{name}.tex"], cwd=folder, capture_output=True, timeout=300)
        assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]
    log = (folder / f"{name}.log").read_text(errors="replace")
    pages = int(re.search(r"Output written on .*?\((\d+) pages?", log, re.S).group(1))
    boxes = [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide", log)]
    return pages, boxes


needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                                    reason="pdflatex is not installed (apt-get install "
                                    "texlive-latex-extra)")


#: The handouts pdflatex compiles in every run: the full audit, which holds every proof's
#: statements, and the handouts with the widest formulas (sums, the canonical proof); the
#: others (3-6 s each) run with `-m slow`, which .ci/run runs too.
EVERY_RUN = ("canonical-online", "chan-batch", "telgarsky-online")  # the rest: `-m slow`


@needs_pdflatex
@pytest.mark.parametrize("proof_id", [
    p if p in EVERY_RUN else pytest.param(p, marks=pytest.mark.slow) for p in [*PROOFS, "all"]])
def test_latex_has_no_overfull_box_in_any_handout_or_the_full_audit(
        handouts: Handouts, whole: dict[str, str], tmp_path: Path, proof_id: str):
    """Each handout, and the full audit ("all"), one test each."""
    source = whole["latex"] if proof_id == "all" else handouts(proof_id)["latex"][0]
    _, boxes = _pdflatex(source, tmp_path, proof_id)
    assert not [b for b in boxes if b > 1], proof_id


@needs_pdflatex
def test_latex_data_files_and_plug_in_runs_make_no_overfull_box(tmp_path: Path):
    """The reports' data files (a path is one long word: a temporary folder's, here deeper)
    and a plug-in's runs, full and `--summary`: no box past the margin."""
    from cases.plugins import hostile

    from verify.api import audit_proofs

    deep = tmp_path / "a_folder_whose_name_is_long" / "and-another-one-inside-it-as-long"
    deep.mkdir(parents=True)
    (deep / "the_lecturers_own_examples_with_a_long_name.csv").write_text(
        "# u = 1, 0\n1,2,1\n2,-1,1\n-1,1,-1\n")
    proof = deep / "plug.toml"
    proof.write_text((Path(hostile.__file__).parent / "plug.toml").read_text().replace(
        'algorithm = "p"', 'algorithm = "p"\ndata = ["the_lecturers_own_examples_with_a_'
        'long_name.csv"]'))
    audit = audit_proofs(proof, budget="small", algorithms={"p": hostile.perceptron})
    assert audit.proofs[0].data_files and audit.plugins
    for summary in (False, True):
        source = latex.render(audit, layout=Layout(summary=summary))
        assert "Data files run" in source and "Runs of plug-ins" in source
        _, boxes = _pdflatex(source, tmp_path, f"data{summary}")
        assert not [b for b in boxes if b > 1], summary


@needs_pdflatex
def test_the_canonical_online_handout_and_the_summary_are_short(audit: Audit, tmp_path: Path):
    alone = _only(audit, "canonical-online")
    pages, _ = _pdflatex(latex.render(alone, layout=Layout(appendix=False)), tmp_path, "h")
    assert pages <= 10
    pages, _ = _pdflatex(latex.render(audit, layout=Layout(summary=True)), tmp_path, "s")
    assert pages == 1


# -- HTML: measured in a browser -----------------------------------------------------------------


def _browser():
    sync = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    return sync.sync_playwright, chromium


MEASURE = """() => {
  const main = document.querySelector('main'), cs = getComputedStyle(main);
  const left = main.getBoundingClientRect().left + parseFloat(cs.paddingLeft);
  const column = main.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  let widest = 0, where = '';
  for (const m of document.querySelectorAll('math, svg')) {
    const b = m.getBoundingClientRect();
    if (b.right - left > widest) {
      widest = b.right - left; where = (m.closest('section,article') || {}).id || '';
    }
  }
  return {column, widest, where, scroll: document.documentElement.scrollWidth,
          viewport: window.innerWidth};
}"""


@pytest.mark.slow  # one of the suite's longest end-to-end checks: run by `-m slow`
def test_no_html_formula_is_wider_than_the_column(handouts: Handouts, whole: dict[str, str],
                                                 tmp_path: Path):
    sync_playwright, chromium = _browser()
    pages = {"all": whole["html"],  # and html.render(_only(audit, "canonical-online")):
             "canonical-online": handouts("canonical-online")["html"][0]}
    shots = (ROOT / "docs" / "images") if os.environ.get("NOVIKOFF_SCREENSHOTS") else tmp_path
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
        for width in (1100, 800):
            page = browser.new_page(viewport={"width": width, "height": 1000})
            for name, text in pages.items():
                path = tmp_path / f"{name}.html"
                path.write_text(text, encoding="utf-8")
                page.goto(path.as_uri())
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                found = page.evaluate(MEASURE)
                assert found["widest"] <= found["column"] + 0.5, (name, width, found)
                assert found["scroll"] <= found["viewport"], (name, width, found)
                if name == "canonical-online" and width == 1100:
                    page.evaluate("document.querySelectorAll('details').forEach("
                                  "d => d.open = false)")
                    shots.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(shots / "handout-canonical-online.png"),
                                    clip={"x": 0, "y": 0, "width": width, "height": 1500})
            page.close()
        browser.close()


def test_the_text_audit_shows_a_counterexample_with_its_values(audit: Audit):
    """Issue 29.5: not "counterexample (dimension-1 screen)" alone, and only the step's names
    (a family's members by their index: the step reads the label y[j], issue 31)."""
    from verify.audit.report import to_text

    text = to_text(_only(audit, "chan-batch")).splitlines()
    at = text.index(next(line for line in text if "chan-batch/misclassified-strict:" in line))
    assert text[at + 2].strip() in (
        f"counterexample: {first}, {second}, y[0] = 1, every other member 0"
        for first, second in (("g = 0", "j = 0"), ("j = 0", "g = 0")))


def test_an_approximate_number_reads_approximately_in_latex():
    """Newcomer 31, F3: `least slack ~-4.38358642e+24` was typeset with `\\textasciitilde{}`,
    a raised tilde before the minus sign; it is the approximation sign. A tilde that is no
    approximation (a home folder) stays a tilde."""
    assert latex.escape("least slack ~-4.38358642e+24 (exact: 25 digits; see --json)") == (
        r"least slack $\approx$-4.38358642e+24 (exact: 25 digits; see -{}-json)")
    assert latex.escape("bound ~1.5e+3") == r"bound $\approx$1.5e+3"
    assert latex.escape("~/x and a~b") == r"\textasciitilde{}/x and a\textasciitilde{}b"


def test_a_counterexample_line_ends_its_sentence_in_latex(whole: dict[str, str]):
    """Newcomer 31, F11: in the LaTeX findings "Counterexample: R = 1; η = 1 Violated on a
    run: ..." ran together in one paragraph, where "What is wrong" and "On runs" end with a
    period. Every counterexample line ends its sentence (a period, never two) or its
    paragraph (`\\par`, the statements' section)."""
    lines = [line for line in whole["latex"].splitlines()
             if line.startswith((r"\textbf{Counterexample:}", r"\textbf{Violated on a run:}",
                                 "Counterexample: ", "Violated on a run: "))]
    ended = [line for line in lines if line.endswith(".") and not line.endswith("..")]
    assert len(ended) >= 4 and all(line in ended or line.endswith(r"\par") for line in lines), [
        line for line in lines if line not in ended and not line.endswith(r"\par")]
