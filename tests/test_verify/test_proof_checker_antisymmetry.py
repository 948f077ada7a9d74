"""An equality proved by its two inequalities (issue 28.3): when ideal membership fails, the
search proves `g >= 0` and `-g >= 0` (each directly or in refutation form) and the kernel
concludes the equality from the four-item evidence; every output shows both halves."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest
import sympy
from cases.steps import EQUALITIES

from proofs.proof_file import parse_proof
from verify import kernel
from verify.cli import main
from verify.kernel import Fact, Judgement
from verify.proof_checker import ProofReport, check_proof, detached, replay
from verify.prover import decide
from verify.render import json as render_json
from verify.render import markdown
from verify.render.certificates import LATEX, MATHML, evidence_blocks
from verify.verdict import Verdict

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "verify" / "schema"
                     / "audit.schema.json").read_text())
STEPS = ("chain", "sum-of-squares-zero", "sum-of-squares-nonpositive")


@pytest.fixture(scope="module")
def checked() -> tuple[object, ProofReport]:
    proof = parse_proof(EQUALITIES.encode(), "equalities.toml")
    return proof, check_proof(proof)


def test_each_equality_is_proved_by_antisymmetry_and_replayed_by_the_kernel(
        checked: tuple[object, ProofReport]) -> None:
    proof, report = checked
    assert [s.status for s in report.steps] == ["proved"] * 3
    for step in report.steps:
        (goal,) = step.goals
        assert goal.verdict.certificate is None and goal.verdict.halves is not None
        assert step.message.startswith("by antisymmetry")
        assert len(goal.kernel_evidence) == 4 and len(step.certificates) == 2
    chain, squares, _ = report.steps
    # the chain's halves are direct; the squares' are in refutation form (0 > 0)
    assert [j.claim.kind for j, _ in chain.goals[0].pieces] == [">=", ">="]
    assert [j.claim for j, _ in squares.goals[0].pieces] == [Fact(sympy.Integer(0), ">")] * 2
    again = replay(proof, [detached(s) for s in report.steps])  # type: ignore[arg-type]
    assert all(s.theorem is not None for s in again)


def test_a_tampered_half_is_rejected_on_replay(checked: tuple[object, ProofReport]) -> None:
    proof, report = checked
    step = report.steps[0]
    (goal,) = step.goals
    first, second = goal.verdict.halves  # type: ignore[misc]
    swapped = dataclasses.replace(goal.verdict, halves=(second, first))  # wrong directions
    forged = dataclasses.replace(step, goals=(dataclasses.replace(goal, verdict=swapped),))
    (again,) = replay(proof, [detached(forged)])  # type: ignore[arg-type]
    assert again.theorem is None and again.message.startswith("kernel rejected on replay")


def test_a_verdict_has_a_certificate_or_two_halves_never_both() -> None:
    j = Judgement((), Fact(sympy.Integer(1), ">="))
    half = Verdict("proved", kernel.Certificate(products=()), None, "", 0.0, judgement=j)
    with pytest.raises(ValueError, match="certificate or two halves"):
        Verdict("proved", half.certificate, None, "", 0.0, halves=(half, half))
    with pytest.raises(ValueError, match="the judgement it proves"):
        Verdict("proved", None, None, "", 0.0,
                halves=(half, dataclasses.replace(half, judgement=None)))


def test_a_strict_hypothesis_squared_with_squares_and_an_equality_refutes() -> None:
    # t*t (the strict hypothesis times itself) + y**2 - (t*t + y*y) == 0 > 0 is absurd
    t, y = sympy.symbols("t y")
    absurd = Judgement((Fact(t * t + y * y, "=="), Fact(t, ">")), Fact(sympy.Integer(0), ">"),
                       (), ("t", "y"))
    verdict = decide(absurd)
    assert verdict.status == "proved"
    kernel.check_certificate(absurd, verdict.certificate)  # type: ignore[arg-type]


def test_check_proves_the_sum_of_squares_equality_end_to_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "eq.toml"
    path.write_text(EQUALITIES)
    assert main(["check", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    entry = data["steps"][1]
    assert entry["status"] == "proved"
    halves = entry["certificate"]["halves"]
    assert [h["claim"] for h in halves] == ["0 > 0", "0 > 0"]
    assert "-x > 0" in halves[0]["hypotheses"] and "x > 0" in halves[1]["hypotheses"]
    assert entry["judgements"][0]["halves"] == halves
    # the audit's schema takes the evidence as a step's certificate
    symbolic = {"status": "proved", "certificate": entry["certificate"],
                "counterexample": None, "message": entry["message"]}
    jsonschema.validate(symbolic, {"$ref": "#/$defs/symbolic", "$defs": SCHEMA["$defs"]})


def test_explain_and_the_documents_show_both_halves(
        checked: tuple[object, ProofReport], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "eq.toml"
    path.write_text(EQUALITIES)
    assert main(["explain", str(path), "sum-of-squares-zero"]) == 0
    text = capsys.readouterr().out
    assert "proved by antisymmetry" in text
    assert "half 1: x >= 0, in refutation form" in text and "half 2: -x >= 0" in text
    assert text.count("[the half's negation]") == 2
    assert text.count("certificate (an identity of polynomials") == 2
    goal = checked[1].steps[1].goals[0]
    math = markdown._judgement(goal, False, LATEX)
    assert math.count(r"\text{half") == 2 and math.count("&=") == 2
    blocks = evidence_blocks(goal.evidence, goal.pieces, MATHML)
    assert len(blocks) == 3 and "half 2 of the equality" in blocks[2][0][0]
    assert len(evidence_blocks(goal.evidence, goal.pieces, LATEX)[1][1]) >= 2
    assert render_json.step(checked[1].steps[1])["certificate"]["halves"]


def test_explain_json_carries_both_halves(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Each half of an antisymmetric equality in `explain --json`: its inequality, its
    hypotheses (the negation marked), its certificate lines (once lost: certificate None)."""
    path = tmp_path / "eq.toml"
    path.write_text(EQUALITIES)
    assert main(["explain", str(path), "sum-of-squares-zero", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["vacuous"] is False and report["vacuity"] is None
    halves = report["judgements"][0]["halves"]
    assert [h["inequality"] for h in halves] == ["x >= 0", "-x >= 0"]
    for half in halves:
        assert half["certificate"] and half["why"]
        assert any(h["origin"] == "the half's negation" for h in half["hypotheses"]) \
            == half["refutation_form"]


LOSS = """
title = "soft loss"
scalars = ["y", "g", "l"]

[define]
l = "max(0, -y*g)"

[[step]]
id = "correct"
given = ["y*g >= 0"]
claim = "{claim}"
"""


def test_a_half_only_the_refutation_form_proves_runs_no_sdp(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Newcomer 29, F2: `y*g >= 0 |- max(0, -y*g) == 0` took ~15 s. Its half `-l >= 0` has
    no certificate in direct form (it needs the negated claim `l > 0` as a factor), yet the
    direct search ran its SDP (6 solves, ~80% of the step) before the refutation form proved
    it with `hypothesis products`. Each half now tries every form by the strategies before
    the SDP first: proved, the same certificates, and no SDP runs. The direct half keeps its
    direct certificate, and the false twin is refuted."""
    from verify.search.strategies import SemidefiniteSquares

    solved: list[object] = []
    original = SemidefiniteSquares.candidates

    def counted(self: SemidefiniteSquares, ctx: object) -> object:
        solved.append(ctx)
        return original(self, ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(SemidefiniteSquares, "candidates", counted)
    report = check_proof(parse_proof(LOSS.format(claim="l == 0").encode(), "loss.toml"))
    (step,) = report.steps
    assert step.status == "proved", step.message
    assert step.message == ("by antisymmetry, two certificates: l >= 0 by linear combination; "
                            "-l >= 0 by hypothesis products, in refutation form (the "
                            "hypotheses contradict the negated claim l > 0)")
    assert solved == []
    twin = check_proof(parse_proof(LOSS.format(claim="l == -y*g").encode(), "loss.toml"))
    assert twin.steps[0].status == "refuted"
