"""Names print as written in every report format, and a proof's cited sources are whole."""

from __future__ import annotations

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
