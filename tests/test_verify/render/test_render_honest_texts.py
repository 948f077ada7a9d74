"""Red team 4, items 2-4: the fixed sentences of the report documents are true of the audit
they describe. The intro of HTML and LaTeX says that unknown steps exist (and what unknown
means) when some do; `--no-appendix` documents never announce certificates they leave out;
a vacuous theorem, and every vacuous step, is shown as vacuous in every format, summary
included, as the terminal shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from verify.audit.job import Audit, run_audit
from verify.render import html, latex, markdown
from verify.render.evidence import Layout

#: `xx` is unknown (nothing shows x != 0); the theorem `false` is proved only because its
#: hypotheses contradict (r = sqrt(a - 5) needs a >= 5).
PROOF = """
title = "honest texts"
vectors = []
scalars = ["x", "r", "a"]

[define]
r = "sqrt(a - 5)"

[[step]]
id = "xx"
claim = "x/x == 1"

[[step]]
id = "false"
given = ["a <= 1"]
claim = "r >= 100 + a"
"""

#: One step, proved with a certificate: nothing unknown, nothing vacuous.
PLAIN = """
title = "plain"
vectors = []
scalars = ["a"]

[[step]]
id = "sq"
claim = "a**2 >= 0"
"""

RENDER = {"markdown": markdown.render, "html": html.render, "latex": latex.render}
LAYOUTS = {"full": Layout(), "no-appendix": Layout(appendix=False),
           "summary": Layout(summary=True)}


def _audit(folder: Path, text: str, name: str) -> Audit:
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return run_audit([str(path)], budget="small")


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    audit = _audit(tmp_path_factory.mktemp("honest"), PROOF, "honest")
    steps = {s.step.id: s.symbolic for s in audit.proofs[0].steps}
    assert steps["xx"].status == "unknown" and steps["false"].vacuous  # what is tested below
    return audit


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    audit = _audit(tmp_path_factory.mktemp("plain"), PLAIN, "plain")
    assert [s.symbolic.status for s in audit.proofs[0].steps] == ["proved"]
    return audit


def _text(fmt: str, audit: Audit, layout: str) -> str:
    failures: list[str] = []
    document = RENDER[fmt](audit, failures, LAYOUTS[layout])
    assert failures == []
    return " ".join(document.split())  # sentences, whatever the line breaks


@pytest.mark.parametrize("fmt", ["html", "latex"])
def test_the_intro_says_unknown_steps_exist_when_some_do(fmt: str, honest: Audit,
                                                         plain: Audit):
    with_unknown, without = _text(fmt, honest, "full"), _text(fmt, plain, "full")
    assert "or else unknown (1 step here): neither proved nor refuted" in with_unknown
    assert "whether it holds" in with_unknown
    # not every unknown step is unknown for a limit (an imported induction's claim, refused
    # facts, a failing witness): the sentence must be true of all of them
    assert "within the search's limits" not in with_unknown
    assert "unknown (" not in without
    # the sentence that was untrue with unknown steps is gone from that document only
    decided = ("Each step is decided <em>symbolically</em>: proved" if fmt == "html" else
               "refuted with a counterexample, both re-checked by an exact kernel;")
    assert decided in without and decided not in with_unknown
    for document in (with_unknown, without):
        assert "every step holds" not in document


@pytest.mark.parametrize("fmt", sorted(RENDER))
def test_no_appendix_never_announces_the_certificates_it_leaves_out(fmt: str, honest: Audit):
    full, short = _text(fmt, honest, "full"), _text(fmt, honest, "no-appendix")
    announced = {"markdown": "when proved, the certificate's identity",
                 "html": "in a certificate, h<sub>i</sub> and e<sub>i</sub>",
                 "latex": "Certificates are in the appendix."}[fmt]
    assert announced in full and announced not in short
    assert "left out of this shorter handout" in short
    assert "left out" not in full


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("fmt", sorted(RENDER))
def test_a_vacuous_theorem_is_vacuous_in_every_format_and_layout(
        fmt: str, layout: str, honest: Audit, plain: Audit):
    document = _text(fmt, honest, layout)
    # the reason names the hypotheses that contradict (the certificate reads them alone)
    reason = "the hypotheses are contradictory: a"
    theorem = {"markdown": f"✅ proved, **vacuous**: {reason}",
               "html": f'<span class="label">Vacuous:</span> {reason}',
               "latex": rf"\textbf{{proved}}, \textbf{{vacuous}}: {reason}"}[fmt]
    assert theorem in document
    assert "(given) cannot hold together" in document
    listed = {"markdown": f"- honest / false: {reason}",
              "html": f"honest / false</a>: {reason}" if layout != "summary"
              else f"<li>honest / false: {reason}",
              "latex": rf"\texttt{{honest/false}}: {reason}"}[fmt]  # one item, or run in
    assert "Vacuous (1)" in document and listed in document
    counted = ('1 proved (<a href="#vacuous">1 of them vacuous</a>)' if fmt == "html" else
               "1 proved (1 of them vacuous)")
    assert counted in document  # the summary line counts it
    assert "acuous" not in _text(fmt, plain, layout)


@pytest.mark.parametrize(("zero", "cases"), [("false", "(>= 0, < 0)"),
                                             ("true", "(> 0, = 0, < 0)")])
def test_a_split_prints_the_cases_the_kernel_proves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], zero: str, cases: str):
    """Red team 12 E: `zero = false` splits into t >= 0 and t < 0, but `explain` and the
    reports printed "(> 0, < 0)", a split that misses t = 0."""
    from verify.cli import main

    path = tmp_path / "split.toml"
    path.write_text(f'title = "T"\nscalars = ["t"]\n[[step]]\nid = "s"\nclaim = "t*t >= 0"\n'
                    f'split = {{ on = "t", zero = {zero} }}\n', encoding="utf-8")
    assert main(["explain", str(path), "s"]) == 0
    assert f"by cases on the sign of t {cases}:" in capsys.readouterr().out
    report = run_audit([str(path)], budget="small")
    for text, escape in ((markdown.render(report), markdown.escape),
                         (latex.render(report), latex.escape),
                         (html.render(report), lambda x: x.replace(">", "&gt;").replace(
                             "<", "&lt;"))):
        assert f"sign of {escape(cases)}:" in text.replace("$t$ ", "").replace(
            "<math><mi>t</mi></math> ", "")
        assert escape("(> 0, < 0)") not in text


def test_a_long_history_in_a_counterexample_is_shown_cut_saying_so() -> None:
    """Regression: a counterexample on a run of 40 000 updates printed every member of `YU`,
    a line of 580 KB in the audit's summary (a double sum refuted at t = 501 of a long
    cyclic run). Text shows the first members and the last two, and how many are left out
    and where they all are; a short family is shown whole."""
    from fractions import Fraction

    from verify.render.certificates import MEMBERS_SHOWN, assignments

    history = {Fraction(k): Fraction((-1) ** k) for k in range(1, 40_001)}
    lines = assignments({"t": 501}, {}, families={"YU": history})
    assert len(lines) == 1 + MEMBERS_SHOWN + 2
    assert lines[1] == "YU[1] = -1" and lines[-3:] == [
        "YU[39999] = -1", "YU[40000] = 1", "every other member 0"]
    assert f"... {40_000 - MEMBERS_SHOWN} more members of YU (all 40000 in the JSON report)" \
        in lines
    short = {Fraction(k): Fraction(k) for k in range(1, MEMBERS_SHOWN + 1)}
    assert len(assignments({}, {}, families={"YU": short})) == MEMBERS_SHOWN + 1


NOTED = """
title = "noted"
source = "My lecture notes, Thm 4.2"
vectors = []
scalars = ["a"]

[[step]]
id = "sq"
claim = "a**2 >= 0"
note = "divide by k when k > 0"
"""


@pytest.mark.parametrize("fmt", ["markdown", "latex"])
def test_a_theorems_source_and_note_are_apart(fmt: str, tmp_path: Path) -> None:
    """Newcomer trial 19: the theorem's source and its step's note ran together in the
    Markdown and LaTeX reports (`Source: My lecture notes, Thm 4.2. divide by k ...`), the
    note read as part of the citation. Each is its own paragraph, the note labelled."""
    audit = _audit(tmp_path, NOTED, "noted")
    failures: list[str] = []
    document = RENDER[fmt](audit, failures, Layout())
    assert failures == []
    assert "Thm 4.2. divide" not in document
    apart = "\n\nNote: " if fmt == "markdown" else "\\par\\emph{Note:} "
    assert f"Thm 4.2.{apart}divide by k when k" in document


#: A refuted theorem with a note and its corrected statement (newcomer 28's corr.toml, cut).
CORRECTED = """
title = "corrected"
theorem = "bound"
scalars = ["t", "a"]
naturals = ["t"]

[[step]]
id = "bound"
given = ["a >= 0"]
claim = "t <= a"
note = "a student's answer"

[[step]]
id = "bound-corrected"
given = ["a >= 0", "t <= a"]
claim = "t <= a + 1"
"""


@pytest.mark.parametrize("fmt", ["markdown", "latex"])
def test_a_note_and_the_corrected_statement_are_apart(fmt: str, tmp_path: Path) -> None:
    """Newcomer 28 (Low): "Note: a student's answer: eta forgotten Corrected statement
    bound-corrected (symbolic: proved):by cases ...", the note running into the corrected
    statement (Markdown and LaTeX) and no space after its colon (LaTeX); in the step's own
    section (LaTeX) "Counterexample: ... w = (2) Note: ..." ran together too."""
    audit = _audit(tmp_path, CORRECTED, "corrected")
    failures: list[str] = []
    document = RENDER[fmt](audit, failures, Layout())
    assert failures == [] and audit.proofs[0].steps[0].symbolic.status == "refuted"
    if fmt == "markdown":
        assert "Note: a student's answer\n\n*Corrected statement* bound-corrected" in document
    else:
        assert ("\\par\\emph{Note:} a student's answer\\par\n\\emph{Corrected statement} "
                "\\texttt{bound-corrected} (symbolic: \\textbf{proved}): " in document)
        assert re.search(r"\\textbf\{Counterexample:\} [^\n]*\\par\n\\emph\{Note:\} a student",
                         document)


def test_a_run_no_seed_drew_is_not_said_to_have_seed_none() -> None:
    """Newcomer 19, section 5.4: a data file's run was printed `from the data run typo.csv
    (seed None), iteration 2`, a raw Python None."""
    from verify.typeset.points import instance_lines

    def origin(seed: int | None) -> dict[str, object]:
        return {"scalars": {"k": "2"}, "vectors": {}, "origin": {
            "source": "data", "seed": seed, "dataset": "typo.csv", "order": None,
            "iteration": 2}}

    assert instance_lines(origin(None))[-1] == (
        "from the data run typo.csv (not drawn from a seed), iteration 2")
    assert instance_lines(origin(7))[-1] == "from the data run typo.csv (seed 7), iteration 2"


def test_the_text_summary_heads_unknown_steps_truly(honest: Audit):
    from verify.audit.report import to_text
    text = to_text(honest)
    assert "unknown (neither proved nor refuted; each line says why):" in text
    assert "within the limits" not in text


SET_U = '''
title = "a set U"
theorem = "positive-sum"
scalars = ["a", "j", "N"]
naturals = ["N"]
indexed = ["a"]

[sets]
U = { index = "j", range = "1..N", where = ["a[j] >= 0"] }

[[step]]
id = "positive-sum"
claim = "sum(j in U, a[j]) >= 0"
'''


def test_a_set_the_theorem_box_reads_is_defined_where_it_is_used(tmp_path) -> None:
    """The theorem box (and every statement) showed a sum over a declared set, `∑_{j ∈ D}`
    in tightness-every-margin's, `∑_{j ∈ S}` in finite-sums', with the set defined nowhere
    in the report: each format now says beside the statement what the set is, as the proof
    declares it (`[sets]`), and beside a claim shown alone (a summary's theorem)."""
    from verify.api import audit_proofs
    from verify.render import html, latex, markdown
    from verify.render.evidence import Layout

    path = tmp_path / "setu.toml"
    path.write_text(SET_U)
    audit = audit_proofs(path, budget="small")
    assert audit.proofs[0].steps[0].symbolic.status == "proved"
    md = markdown.render(audit, [])
    assert "where $U$ is the set of the integers $j$ from $1$ to $N$ with ${a}_{j} \\ge 0$." in md
    tex = latex.render(audit, [])
    assert "where $U$ is the set of the integers $j$ from $1$ to $N$ with" in tex
    page = html.render(audit, [])
    assert page.count('<p class="sets">where <math>') == 2  # the theorem box and the step
    assert "is the set of the integers" in page.split('id="theorem-setu"')[1].split("</section>")[0]
    other = tmp_path / "other.toml"
    other.write_text(SET_U.replace("a set U", "another"))
    both = audit_proofs(path, other, budget="small")  # no handout: claims alone
    for render in (markdown.render, latex.render):
        summary = render(both, [], Layout(summary=True))
        assert summary.count("(where $U$ is the set of the integers $j$ from $1$ to $N$ with") \
            == 2
    path.write_text(SET_U.replace("sum(j in U, a[j]) >= 0", "N >= 0"))
    plain = audit_proofs(path, budget="small")
    assert "is the set of" not in markdown.render(plain, [])


@pytest.mark.parametrize(("written", "shown"), [
    ("(a - 1e999)**2 >= 1", "1e999"),  # was `inf`
    ("(a - 1e-999)**2 >= 1e-999", "1e-999"),  # was `0.0`
    ("a >= 0.1234567890123456789", "0.1234567890123456789"),  # was rounded to 17 digits
    ("a >= 1e300", "1e300"),  # was `1e+300`
    ("a >= 0.5 + 2", "0.5"),
])
def test_a_decimal_is_typeset_as_written(written: str, shown: str) -> None:
    """Red team 23 F1 residual: `novikoff explain` and every report typeset a decimal
    through Python's float, stating `(a − inf)² ≥ 1` for `(a - 1e999)**2 >= 1` (the
    language reads 1e999 exactly, 10**999) and `(a − 0.0)²` for 1e-999."""
    from verify.typeset.written import LATEX, MATHML, TEXT, Printer

    for fmt in (TEXT, LATEX, MATHML):
        text = Printer(fmt).relation(written)
        assert shown in text and "inf" not in text and "0.0" not in text, (fmt, text)


WRONG_BASE = """
title = "a wrong base"
vectors = ["w", "x"]
scalars = ["t", "y", "R2"]
naturals = ["t"]

[[step]]
id = "norm-growth"
claim = "norm2(w) <= t*R2"
[step.induction]
variable = "t"
base = { w = "x" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2"]
constants = ["R2", "x"]
"""


def test_a_refuted_induction_shown_by_its_claim_says_it_is_one(tmp_path) -> None:
    """Newcomer 27, F7: the summary's findings showed a refuted induction by its claim alone,
    `‖w‖² ≤ t R²`, which is true of the perceptron: the error was in the base. Its line now
    says the claim is an invariant of the runs its statement describes; a proved one's
    line (the theorem lines of a summary) is unchanged."""
    from verify.api import audit_proofs

    wrong, right = tmp_path / "base.toml", tmp_path / "right.toml"
    wrong.write_text(WRONG_BASE)
    right.write_text(WRONG_BASE.replace('base = { w = "x" }', 'base = { w = "0*w" }'))
    audit = audit_proofs(wrong, budget="small")
    assert audit.proofs[0].steps[0].symbolic.status == "refuted"
    note = "(by induction on t: an invariant of the runs its statement describes)"
    for render in (markdown.render, latex.render):
        assert note in render(audit, layout=Layout(summary=True))
    proved = audit_proofs(right, budget="small")
    assert proved.proofs[0].steps[0].symbolic.status == "proved"
    assert note not in markdown.render(proved, layout=Layout(summary=True))


def test_the_latex_graph_draws_the_halo_its_legend_names() -> None:
    """Newcomer 28 (Low): the LaTeX legend says "thick a finding; dotted orange halo: rests on
    a finding", but a step resting on a finding was drawn `double=affected`, a double solid
    border that reads as thick. It now has a dotted orange halo, as the SVG does."""
    from verify.render.evidence import LEGEND
    from verify.typeset.graph import Node, layout

    nodes = [Node("lemma", "lemma", (), "refuted", "not-run", finding=True),
             Node("bound", "bound", ("lemma",), "proved", "not-run", theorem=True)]
    tikz = layout(nodes).tikz({"lemma": "lemma", "bound": "bound"})
    assert "dotted orange halo" in LEGEND
    assert "double" not in tikz
    (halo,) = [line for line in tikz.splitlines() if line.startswith(r"\draw[affected,dotted")]
    assert "]s_bound.north west)" in halo and "]s_bound.south east)" in halo
