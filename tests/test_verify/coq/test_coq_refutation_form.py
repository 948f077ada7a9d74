"""Refutation-form evidence replayed in Coq: a claim proved because its negation contradicts
the hypotheses is re-proved by contradiction (`by_contra_ge`/`by_contra_gt`, then the
certificate's identity by `ring` and its signs by explicit lemmas down to `0 < 0`).

Tests that compile skip without coqc, like tests/test_verify/coq/test_coq_export.py. The
proof below is checked by our prover once per module; a tampered export (a sign or a
coefficient changed by hand) must be rejected by coqc, and the export as written accepted.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from cases.steps import ROOTS as SHARED_ROOTS
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.proof_file import parse_proof
from verify.cli import main
from verify.coq import export_and_check
from verify.proof_checker import check_proof

# the preamble compiled once per process, not once per test (tests/coq_preamble.py)
pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
needs_coqc = pytest.mark.skipif(
    COQC is None, reason="coqc is not on PATH (install Debian's `coq`: apt-get install coq)"
)
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit)\b")

ROOTS = SHARED_ROOTS.encode()
STEPS = ["root", "root-strict"]

CONTEXTS = b"""
title = "contexts"
scalars = ["a", "n", "b", "c", "d"]

# in each case of a split (regression: the split name c, in no hypothesis and not in the
# claim, was not bound by the theorem)
[[step]]
id = "root-in-cases"
given = ["a >= 0", "n >= 0", "n**2 <= a**2"]
claim = "n <= a"
split = { on = "c", zero = false }

# a side condition (the denominator n > 0) by contradiction
[[step]]
id = "root-side"
given = ["n >= 0", "n**2 >= 1"]
claim = "a**2/n >= 0"

# regression: a denominator cleared by a product of two conditions; the factor's text must
# nest as its proof does (SymPy printed `d * (a + b)` for a proof of `0 < (a + b) * d`)
[[step]]
id = "two-divisors"
given = ["a + b > 0", "d > 0", "c >= 0"]
claim = "c/(a + b) + c/d >= 0"
"""
CONTEXT_STEPS = ["root-in-cases", "root-side", "two-divisors"]


def checked(source: bytes, proof_id: str, steps: list[str]) -> tuple[str, object, list[object]]:
    """`source` checked by our prover: every step proved."""
    proof = parse_proof(source, f"{proof_id}.toml")
    report = check_proof(proof)
    assert [s.status for s in report.steps] == ["proved"] * len(steps)
    return proof_id, proof, list(report.steps)


@pytest.fixture(scope="module")
def roots() -> tuple[str, object, list[object]]:
    """The roots, checked once: both in refutation form."""
    found = checked(ROOTS, "roots", STEPS)
    assert all("refutation form" in s.message for s in found[2])  # type: ignore[attr-defined]
    return found


def test_refutation_form_is_exported_by_contradiction_without_a_decision_procedure(
    roots: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    run = export_and_check(tmp_path, [roots], compile=False)
    assert all(not r.startswith("not exported") for r in run.for_proof("roots").values())
    text = (tmp_path / "roots.v").read_text()
    # `>=` is refuted from `-g > 0`, `>` from `-g >= 0`: each ends in the absurd `0 < 0`
    assert "refine (by_contra_ge (a + (- (n))) ((- (a)) + n) _ _)" in text
    assert "refine (by_contra_gt (a + (- (n))) ((- (a)) + n) _ _)" in text
    assert text.count(": 0 < 0).") == 2
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))


@needs_coqc
def test_refutation_form_in_cases_and_side_conditions_compiles(tmp_path: Path) -> None:
    proof = checked(CONTEXTS, "contexts", CONTEXT_STEPS)
    run = export_and_check(tmp_path, [proof])
    assert run.for_proof("contexts") == dict.fromkeys(CONTEXT_STEPS, "checked")
    text = (tmp_path / "contexts.v").read_text()
    assert text.count("by_contra_ge") == 2  # once in each case
    assert "refine (by_contra_gt n (- (n)) _ _)" in text  # the side condition n > 0
    assert "forall (a n c : R)," in text  # the split name is bound


@needs_coqc
@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_refutation_form_compiles_and_a_tampered_export_is_rejected(
    roots: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    # compiled here, once as written and once per tampering (the per-step `checked` of
    # the pipeline is tested on the contexts and the example below)
    export_and_check(tmp_path, [roots], compile=False)
    path = tmp_path / "roots.v"
    text = path.read_text()

    def compiles(source: str) -> bool:
        return coqc_compiles(tmp_path, 'roots.v', source, COQC)  # type: ignore[arg-type]

    assert compile_inner_product(tmp_path).returncode == 0
    assert compiles(text)  # the export as written (before each tampering: not a setup error)
    # a wrong sign: the "negation" is the claim itself, so `n = - g` is not an identity
    negation = "(by_contra_ge (a + (- (n))) ((- (a)) + n) _ _)"
    assert negation in text
    assert not compiles(text.replace(negation, "(by_contra_ge (a + (- (n))) (a + (- (n))) _ _)"))
    # a wrong coefficient: 2 becomes 3 in the certificate's term and in its sign proof
    term, sign = "(2 * (a * ((- (a)) + n)))", "(int_pos 2 eq_refl)"
    assert text.count(term) == 1 and text.count(sign) == 1
    assert not compiles(text.replace(term, "(3 * (a * ((- (a)) + n)))")
                        .replace(sign, "(int_pos 3 eq_refl)"))
    # a strict term made weak: the absurd `0 < 0` then has no strict term to rest on
    strict = "(Rmult_lt_0_compat _ _ neg'1 neg'1)"
    assert text.count(strict) == 1
    assert not compiles(text.replace(strict, "(Rmult_le_pos _ _ (Rlt_le _ _ neg'1) "
                                             "(Rlt_le _ _ neg'1))"))
    assert compiles(text)


@needs_coqc
def test_norms_and_roots_example_replays_its_refutation_form_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", str(EXAMPLES / "norms-and-roots.toml"), "--json", "--coq",
                 str(tmp_path)])
    data = json.loads(capsys.readouterr().out)
    assert code == 1  # its third step is false, and refuted
    steps = {s["id"]: s for s in data["steps"]}
    assert "refutation form" in steps["norm-above-projection"]["message"]
    assert {i: s["coq"] for i, s in steps.items()} == {
        "norm-above-projection": "checked",
        "hinge-covers-the-margin": "checked",
        "root-is-not-below-its-square": "not exported: not proved by our kernel",
    }
