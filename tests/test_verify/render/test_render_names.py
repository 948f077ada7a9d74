"""Names print as written in every report format, and a proof's cited sources are whole."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import sympy

from proofs.language.terms import gram
from proofs.library import PROOFS, load_builtin
from verify.audit.citations import cited, document, proof_source
from verify.render import formulas


@pytest.mark.parametrize(("name", "expected"), [
    ("R2", r"R^{2}"),  # the squared radius: neither R_2 (122 times once) nor the word R2
    ("D2", r"D^{2}"),
    ("w0", r"w_{0}"),  # a lowercase letter and digits: an index
    ("x1", r"x_{1}"),
    ("kxx", r"\mathrm{kxx}"),
    ("gamma", r"\gamma"),
    ("gamma_u", r"\gamma_{u}"),
    ("theta0", r"\theta_{0}"),
    ("theta_star", r"\theta^{*}"),
    ("xbar", r"\bar{x}"),
    ("w_k", r"w_{k}"),
    ("x", "x"),
    ("eta_", r"\mathrm{eta\_}"),  # red team 19 F7: `\mathrm{eta_}` is no TeX (pdflatex fails)
    ("R2_", r"\mathrm{R2\_}"),
])
def test_names_print_by_rule_in_latex(name: str, expected: str) -> None:
    """Issue 29: `xbar` x̄, `theta_star` θ*, `R2` R², `gamma` γ, `_k` a subscript."""
    assert formulas.name_latex(name) == expected
    assert formulas.latex(sympy.Symbol(name)) == expected


def test_r2_is_a_square_and_never_a_subscript() -> None:
    expr = sympy.Symbol("R2") * gram("w", "x") - sympy.Symbol("R2a")
    text = formulas.latex(expr)
    assert "R_{2}" not in text and "R^{2}" in text and r"\mathrm{R2a}" in text
    element = ET.fromstring(f"<math>{formulas.mathml(expr)}</math>")
    assert not list(element.iter("msub"))
    (square,) = element.iter("msup")
    assert [e.text for e in square] == ["R", "2"]
    assert "R2a" in [e.text for e in element.iter("mi")]


def test_a_proof_files_notation_renames_before_the_rules() -> None:
    from verify.typeset.names import pretty

    notation = {"ts": "theta_star", "xb": "xbar"}
    assert pretty("ts", notation).text() == "θ*" and pretty("xb", notation).text() == "x̄"
    assert formulas.latex(gram("ts", "xb"), notation) == (
        r"\left\langle \theta^{*}, \bar{x} \right\rangle")
    proof = load_builtin("chan-batch")
    assert proof.notation["ts"] == "theta_star"


def test_mathml_subscripts_only_where_an_underscore_is_written() -> None:
    element = ET.fromstring(f"<math>{formulas.mathml(sympy.Symbol('gamma_u'))}</math>")
    (sub,) = element.iter("msub")
    assert [e.text for e in sub.iter("mi")] == ["\u03b3", "u"]


def test_a_citation_is_not_cut_inside_a_formula() -> None:
    # regression: the proof source read "not in the seed: the seed's two cases skip y<w"
    assert document("not in the seed: the seed's two cases skip y<w,x> = 0") == "not in the seed"
    assert document("y<w,x> = 0 on the boundary") == "y<w,x> = 0 on the boundary"
    assert document("corrects Chan, Lecture 17, appendix") == "corrects Chan"
    assert document("Joeyonng, Lemma 38.1 proof (Cauchy–Schwarz)") == "Joeyonng"
    assert document("M = {y<w,x> < 0}, then (a, b)") == "M = {y<w,x> < 0}"
    assert cited(["Ng, CS229 notes §1, inequality (3); Virtue, Theorem 0.1 proof; "
                  "Joeyonng, Lemma 38.1", "Ng, (4)", "001 x, 'a': b; versus [y^2 = 1]"]) == [
        "Ng", "Virtue", "Joeyonng", "001 x"]


def test_a_proof_source_given_whole_stays_whole() -> None:
    assert proof_source("Chan, Lecture 17, y<w,x>", ["Ng, a"]) == "Chan, Lecture 17, y<w,x>"


@pytest.mark.parametrize("proof_id", list(PROOFS))
def test_builtin_proof_sources_name_documents_not_fragments(proof_id: str) -> None:
    proof = load_builtin(proof_id)
    source = proof_source(proof.source, (s.source for s in proof.steps))
    assert source
    for part in source.split("; "):
        assert part.count("<") == part.count(">") and part.count("(") == part.count(")")


# -- review F6: no two names print alike; a square only where the proof says so -------------

TWINS = b'''
title = "twins"
scalars = ["x1", "x_1", "R2", "gamma"]

[[step]]
id = "s"
given = ["x1 >= x_1"]
claim = "x1 - x_1 >= 0"

[[step]]
id = "r"
claim = "R2 >= 0"
'''


def _statement_text(proof: object, step_id: str, fmt: object) -> str:
    from verify.typeset.statement import statement

    st = statement(proof, proof.step(step_id), fmt, None, {})  # type: ignore[attr-defined]
    return " ".join([*(c for g in st.given for c in g), *st.claim])


def test_names_the_rules_print_alike_print_as_written_in_every_format() -> None:
    """Regression (review F6): with scalars `x1` and `x_1` both declared, both printed as x₁
    (`given x₁ ≥ x₁ ⊢ x₁ − x₁ ≥ 0`). The proof's spelling prints the colliding names as
    written, in text, LaTeX and MathML, statements and certificates alike; the others keep
    their rules (γ)."""
    from proofs.proof_file import parse_proof
    from verify.render.certificates import Latex, MathML, Text
    from verify.typeset.names import spelling
    from verify.typeset.written import LATEX, MATHML, TEXT

    proof = parse_proof(TWINS, "twins.toml")
    names = spelling(proof)
    assert names.written == {"x1", "x_1"}
    assert Text(names).name("x1") == "x1" and Text(names).name("x_1") == "x_1"
    assert Text(names).name("gamma") == "γ"
    assert _statement_text(proof, "s", TEXT) == "x1 ≥ x_1 ⊢ x1 − x_1 ≥ 0"
    latex_text = _statement_text(proof, "s", LATEX)
    assert r"\mathrm{x1}" in latex_text and r"\mathrm{x\_1}" in latex_text
    assert "x_{1}" not in latex_text
    mathml_text = _statement_text(proof, "s", MATHML)
    assert ">x1<" in mathml_text and ">x_1<" in mathml_text and "<msub>" not in mathml_text
    x1, x_1 = sympy.Symbol("x1"), sympy.Symbol("x_1")
    assert Latex(names).polynomial(x1 - x_1) == formulas.latex(x1 - x_1, names)
    assert formulas.latex(x1 - x_1, names) != formulas.latex(x1 - x_1)  # the rules collide
    assert "<msub>" not in MathML(names).polynomial(x1 - x_1)
    assert len({Text(names).name(n) for n in (*proof.scalars, *proof.vectors)}) == 4


def test_a_name_that_reads_as_a_member_of_a_family_prints_as_written() -> None:
    """`x1` next to a family `x` would print as x₁, as the member x[1] does."""
    from verify.typeset.names import distinct

    names = distinct(["x", "x1", "w1"], {}, families=["x"])
    assert names.written == {"x1"}
    assert formulas.name_latex("w1", names) == "w_{1}"


def test_r2_reads_as_a_square_only_where_the_proof_binds_it_to_runs() -> None:
    """Regression (review F6): a plain scalar `R2` (any real) printed as R², so a refutation
    of `R2 >= 0` showed `R² = -1`. It prints as written (never R₂) unless the proof's
    `[numeric]` leaves it the run quantity max ||x_i||², as the built-in proofs do."""
    from proofs.proof_file import parse_proof
    from verify.render.certificates import Text
    from verify.typeset.names import spelling
    from verify.typeset.written import TEXT

    plain = spelling(parse_proof(TWINS, "twins.toml"))
    assert Text(plain).name("R2") == "R2" and formulas.latex(sympy.Symbol("R2"), plain) == (
        r"\mathrm{R2}")
    assert _statement_text(parse_proof(TWINS, "twins.toml"), "r", TEXT) == "⊢ R2 ≥ 0"
    bound = load_builtin("canonical-online")
    assert Text(spelling(bound)).name("R2") == "R²"
    assert _statement_text(bound, "norm-growth", TEXT).count("R²") >= 1


def test_a_name_bound_to_runs_reads_as_a_square_only_if_its_run_kind_provides_it() -> None:
    """Review finding: `E2` (or a `D2` of an online run) in a proof bound to runs printed as
    E², though no run gives it (the audit says so: it is no quantity of the run), so a
    refutation of `E2 >= 0` read `⊢ E² ≥ 0`."""
    from proofs.proof_file import parse_proof
    from verify.render.certificates import Text
    from verify.typeset.names import spelling

    text = (b'title = "e2"\nscalars = ["R2", "D2", "E2"]\n[numeric]\nrun = "online"\n'
            b'[[step]]\nid = "bad"\nclaim = "E2 + D2 + R2 >= 0"\n')
    names = Text(spelling(parse_proof(text, "e2.toml")))
    assert [names.name(n) for n in ("R2", "D2", "E2")] == ["R²", "D2", "E2"]
    passes = Text(spelling(parse_proof(text.replace(b'"online"', b'"single-pass"'), "p.toml")))
    assert [passes.name(n) for n in ("R2", "D2", "E2")] == ["R²", "D²", "E2"]


def test_the_squares_typesetting_knows_are_the_run_kinds_squared_quantities() -> None:
    """`RUN_SQUARES` (written out so that printing loads no runs) is what each built-in kind
    of run provides: every quantity named by a capital then 2."""
    from verify.runs import quantity
    from verify.typeset.names import RUN_SQUARES

    provided = {k.name: frozenset(q.name for q in k.quantities
                                  if re.fullmatch(r"[A-Z]2", q.name))
                for k in quantity.kinds() if k.name in quantity.built_in()}
    assert provided == RUN_SQUARES


def test_a_notation_that_reads_as_another_declared_name_is_refused_where_it_is() -> None:
    """Regression (review F6): `[notation] a = "b"` with `b` declared printed `a >= b` as
    `b ≥ b`. Refused, at the notation's line, as is a reading two notations share."""
    from proofs.errors import ProofFileError
    from proofs.proof_file import parse_proof

    head = b'title = "nt"\nscalars = ["a", "b", "c"]\n[[step]]\nid = "s"\ngiven = ["a >= b"]\n' \
        b'claim = "a - b >= 0"\n'
    for table, said in ((b'[notation]\na = "b"\n', "nt.toml:8:1: notation reads 'a' as 'b', "
                         "another declared name: the two would print alike"),
                        (b'[notation]\na = "gamma"\nc = "gamma"\n', "nt.toml:9:1: notation "
                         "reads 'c' as 'gamma', as it reads 'a': the two would print alike")):
        with pytest.raises(ProofFileError) as caught:
            parse_proof(head + table, "nt.toml")
        assert str(caught.value).startswith(said)


SQUARE_BY_NOTATION = """
title = "notation of a square"
vectors = ["v"]
scalars = ["k", "Q", "P"]
naturals = ["k"]

[numeric]
run = "online"
names = { v = "w", k = "t", Q = "R2", P = "t*R2" }

[notation]
Q = "R2"
P = "D2"

[[step]]
id = "growth"
given = ["norm2(v) <= k*Q", "P == k*Q"]
claim = "norm2(v) <= P + Q"
"""


def test_a_name_bound_to_a_square_reads_as_one_through_its_notation(tmp_path) -> None:
    """Red team 9: `Q` bound to the run quantity R2 (`[numeric] names = { Q = "R2" }`) and
    renamed `[notation] Q = "R2"` printed R2 in the Markdown, HTML and LaTeX: only a name
    left unbound was a square. It is R² now; `P`, bound to `t*R2` (a product, no squared
    quantity of the run) and renamed `D2`, still prints as written."""
    from proofs.proof_file import parse_proof
    from verify.api import audit_proofs
    from verify.render import html, latex, markdown
    from verify.render.certificates import Text
    from verify.typeset.names import spelling

    names = Text(spelling(parse_proof(SQUARE_BY_NOTATION.encode(), "square.toml")))
    assert [names.name(n) for n in ("Q", "P")] == ["R²", "D2"]
    proof = tmp_path / "square.toml"
    proof.write_text(SQUARE_BY_NOTATION, encoding="utf-8")
    audit = audit_proofs(proof, budget="small")
    written, page, tex = markdown.render(audit), html.render(audit), latex.render(audit)
    assert r"R^{2}" in written and r"\mathrm{R2}" not in written
    assert r"R^{2}" in tex and r"\mathrm{R2}" not in tex
    assert "<msup><mi>R</mi><mn>2</mn></msup>" in page and "<mi>R2</mi>" not in page
    assert r"\mathrm{D2}" in written and r"\mathrm{D2}" in tex


@pytest.mark.parametrize(("left", "right", "dotted"), [
    ("k", "gam", True), ("gam", "k", True), ("k", "t", False), ("k", "gamma", False),
])
def test_a_product_with_a_name_of_several_letters_has_a_visible_dot(
        left: str, right: str, dotted: bool) -> None:
    """Newcomer trial 19: `k*gam` was set with MathML's invisible times, and a browser drew
    it as one word, `kgam`. A name of several letters beside a factor gets a visible dot,
    in both MathML printers (SymPy expressions, and statements as written); one-letter
    names (`gamma` is γ) keep the invisible product."""
    from verify.typeset.written import MathML, Printer

    expr = sympy.Symbol(left) * sympy.Symbol(right)
    shown = [formulas.mathml(expr), Printer(MathML()).expression(f"{left}*{right}")]
    for text in shown:
        assert ("&#x22C5;" in text) == dotted and ("&#x2062;" in text) != dotted, text
        ET.fromstring(f"<math>{text}</math>")


def test_a_square_whose_base_is_another_name_prints_as_written() -> None:
    """Red team 23 F2: with `R` and `R2` both declared, `R2` printed R², as `R**2` does, so
    the built-in Freund–Schapire handout read "R² ≤ R²" (a hypothesis `R2 <= R**2`) and a
    user's refuted `R2 <= R**2` read "⊢ R² ≤ R²". F3: a free scalar `pi` printed π, so a
    refuted `pi > 3` read "⊢ π > 3"."""
    from verify.render.certificates import Text
    from verify.typeset.names import distinct, spelling
    from verify.typeset.written import TEXT

    names = distinct(["R", "R2", "D2", "pi"], {}, squares=["R2", "D2"])
    assert names.written == {"R2"} and Text(names).name("D2") == "D²"
    assert Text(names).name("pi") == "pi" and formulas.name_latex("pi") == r"\mathrm{pi}"
    proof = load_builtin("nonseparable-freund-schapire")
    assert "R" in proof.scalars and Text(spelling(proof)).name("R2") == "R2"
    texts = [_statement_text(proof, s.id, TEXT) for s in proof.steps]
    assert not [t for t in texts if "R² ≤ R²" in t or "D² ≤ D²" in t]


#: (written, LaTeX, plain text): a power's base that is not a name, number, member or plain
#: call is bracketed, and a plain-text exponent that is not one is too (newcomer 27, F9:
#: `\frac{R}{\gamma}^{2}` read as R²/γ, so a handout's proved `k <= (R/gamma)**2` read false)
POWERS = [
    ("(R/gamma)**2", r"\left(\frac{R}{\gamma}\right)^{2}", "(R/γ)²"),
    ("(a**2/b)**3", r"\left(\frac{a^{2}}{b}\right)^{3}", "(a²/b)³"),
    ("norm2(v)**2", r"\left(\lVert v \rVert^{2}\right)^{2}", "(‖v‖²)²"),
    ("sqrt(a)**2", r"\left(\sqrt{a}\right)^{2}", "(√(a))²"),
    ("(a**2)**3", r"\left(a^{2}\right)^{3}", "(a²)³"),
    ("2**(1/2)", r"2^{\frac{1}{2}}", "2^(1/2)"),
    ("a**(b/c)", r"a^{\frac{b}{c}}", "a^(b/c)"),
    # bare where nothing can be misread
    ("dot(a, b)**2", r"\langle a, b \rangle^{2}", "⟨a, b⟩²"),
    ("y[j]**2", r"{y}_{j}^{2}", "y[j]²"),
    ("R**2/gamma**2", r"\frac{R^{2}}{\gamma^{2}}", "R²/γ²"),
]


@pytest.mark.parametrize(("written", "latex", "text"), POWERS)
def test_a_power_reads_as_the_formula_written(written: str, latex: str, text: str) -> None:
    from verify.typeset.written import LATEX, MATHML, TEXT, Printer

    assert Printer(LATEX).expression(written) == latex
    assert Printer(TEXT).expression(written) == text
    mathml = Printer(MATHML).expression(written)
    bracketed = latex.startswith(r"\left(")
    assert mathml.startswith("<msup><mrow><mo>(</mo>") == bracketed, mathml


@pytest.mark.parametrize(("written", "latex", "text"), [
    ("sum(j in 1..N, y[j])*sum(l in 1..N, x[l])",
     r"\left(\sum_{j=1}^{N} {y}_{j}\right)\,\sum_{l=1}^{N} {x}_{l}",
     "(Σ_{j ∈ 1..N} y[j])·Σ_{l ∈ 1..N} x[l]"),
    ("sum(j in 1..N, y[j])*c", r"\left(\sum_{j=1}^{N} {y}_{j}\right)\,c",
     "(Σ_{j ∈ 1..N} y[j])·c"),
    ("c*sum(j in 1..N, y[j])", r"c\,\sum_{j=1}^{N} {y}_{j}", "c·Σ_{j ∈ 1..N} y[j]"),
])
def test_a_sum_before_another_factor_is_bracketed(written: str, latex: str, text: str) -> None:
    """Newcomer 27, F10: a product of two sums was typeset as if it were a double sum."""
    from verify.typeset.written import LATEX, TEXT, Printer

    assert Printer(LATEX).expression(written) == latex
    assert Printer(TEXT).expression(written) == text


def test_every_formula_of_the_run_registry_typesets_in_every_format() -> None:
    """What a run quantity denotes (`verify.render.evidence.denoted`) is typeset by the
    printers of the steps, from the registry's proof-file syntax (`Quantity.formula`, the
    code spans of `Quantity.doc`): every formula is one math piece in LaTeX, MathML and
    text, none left as words, and no word holds the ASCII the docs were written in."""
    import verify.runs  # noqa: F401  (registers the built-in kinds)
    from verify.render.evidence import denoted, run_spelling
    from verify.runs.quantity import kinds
    from verify.typeset.written import LATEX, MATHML, TEXT

    for fmt in (LATEX, MATHML, TEXT):
        for run_kind in kinds():
            for q in run_kind.quantities:
                pieces = denoted(q, fmt, run_spelling(run_kind))
                maths = [text for kind, text in pieces if kind == "math"]
                words = "".join(text for kind, text in pieces if kind == "text")
                assert len(maths) == len(q.formulas()), (run_kind.name, q.name, pieces)
                assert not re.search(r"[<>|^_*`]", words), (run_kind.name, q.name, words)
                if fmt is MATHML:
                    for math in maths:
                        ET.fromstring(f"<math>{math}</math>")  # well-formed


@pytest.mark.parametrize(("name", "latex", "text"), [
    # a least value over the examples: the operator, then the expression, members x_j
    ("gamma_u", r"\min_{j} {y}_{j}\,\langle u, {x}_{j} \rangle", "min_j y[j]·⟨u, x[j]⟩"),
    ("R2", r"\max_{j} \lVert {x}_{j} \rVert^{2}", "max_j ‖x[j]‖²"),
    ("w_next", r"w + \tau\,y\,x", "w + τ·y·x"),
    ("m", r"\operatorname{max}\left(- y\,\langle w, x \rangle, 0\right)", "max(−y·⟨w, x⟩, 0)"),
])
def test_a_run_quantitys_definition_reads_as_the_steps_do(name: str, latex: str,
                                                         text: str) -> None:
    import verify.runs  # noqa: F401
    from verify.render.evidence import denoted
    from verify.runs.quantity import kind
    from verify.typeset.written import LATEX, TEXT

    q = kind("online").quantity(name)
    assert denoted(q, LATEX)[0] == ("math", latex)
    assert denoted(q, TEXT)[0] == ("math", text)
    # the families named alone are the families, X and Y, not their members' x and y
    N = kind("online").quantity("N")
    assert ("math", "X") in denoted(N, TEXT) and ("math", "Y") in denoted(N, TEXT)


def test_a_run_quantity_and_the_square_of_another_print_apart() -> None:
    """Red team 23 F2 in the registry's words: the online radius bound's doc printed both
    `R**2` and the quantity `R2` as R², `‖x_i‖ ≤ R ... √(R²) when that is rational`, so
    that √(R²) read as R. The kind's names are spelt as a proof's are (`run_spelling`):
    R2 as written beside R, a square only where no base prints alike (cyclic runs' B2)."""
    import verify.runs  # noqa: F401
    from verify.render.evidence import denoted, run_spelling
    from verify.runs.quantity import kind
    from verify.typeset.written import LATEX, TEXT

    online = kind("online")
    maths = [t for k, t in denoted(online.quantity("R"), TEXT, run_spelling(online))
             if k == "math"]
    assert maths[:4] == ["‖x[j]‖² ≤ R²", "√(R2)", "c/q", "R2 = p/q"]
    single = kind("single-pass")
    assert ("math", r"\mathrm{R2}") in denoted(single.quantity("D"), LATEX, run_spelling(single))
    cyclic = kind("cyclic")
    assert denoted(cyclic.quantity("T"), TEXT, run_spelling(cyclic)) == [
        ("math", "(3N − 1)·R²/2")]


def test_an_extreme_over_the_examples_is_an_operator_in_every_format() -> None:
    """`Printer.extreme`: LaTeX's \\min (its own spacing: `\\mathrm{min}_{j} {y}_{j}`
    set min_jy_j as one word in the handout's PDF), MathML's function application, and
    a body of several terms bracketed, as a product's factor would be."""
    from verify.typeset.written import LATEX, MATHML, TEXT, Printer

    assert Printer(LATEX).extreme("min", "j", "a + b") == r"\min_{j} \left(a + b\right)"
    assert Printer(TEXT).extreme("max", "j", "norm2(v)") == "max_j ‖v‖²"
    page = Printer(MATHML).extreme("min", "j", "a*b")
    assert page.startswith("<mrow><msub><mi>min</mi><mi>j</mi></msub><mo>&#x2061;</mo>")
    ET.fromstring(f"<math>{page}</math>")
