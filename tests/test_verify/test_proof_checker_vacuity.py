"""A step proved only because its hypotheses contradict says which hypotheses do, and where
each comes from (helper finding, session 27: a step that `uses` two case lemmas inherits
both case conditions, `t*g - n >= 0` from one and `t*g - n < 0` from the other, and is
then proved vacuously; the outputs said only "the hypotheses are contradictory", and the
`check` summary line counted it as any proved step). The hypotheses named are those the
kernel-checked vacuity certificate reads, so they alone cannot hold together; a step whose
inherited conditions meet (`>= 0` and `<= 0`: at `t*g == n`) is not vacuous and is not
called so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cases.inductions import CARRIES_NEVER_UPDATES, NEVER_UPDATES
from cases.vacuity import TWO_CASES

from proofs.proof_file import parse_proof
from verify.cli import main
from verify.proof_checker import ProofReport, StepReport, check_proof

#: The contradiction needs a product of hypotheses: a > 0 and b > 0 give a*b > 0.
PRODUCT = """title = "a product"
scalars = ["a", "b", "t"]

[[step]]
id = "pos"
given = ["a > 0", "b > 0"]
claim = "a + b > 0"

[[step]]
id = "neg"
given = ["a*b < 0"]
claim = "a*b <= 0"

[[step]]
id = "both"
uses = ["pos", "neg"]
claim = "t**3 >= 5"
"""

REASON = "the hypotheses are contradictory: "


def _check(text: str) -> ProofReport:
    return check_proof(parse_proof(text.encode(), "vacuity.toml"))


def _step(report: ProofReport, step: str) -> StepReport:
    return next(s for s in report.steps if s.step.id == step)


def test_two_case_lemmas_used_together_name_both_conditions() -> None:
    report = _check(TWO_CASES.format(op="<"))
    both = _step(report, "both")
    assert both.status == "proved" and both.vacuous
    assert both.contradictory == (("t*g - n >= 0", "a hypothesis of far"),
                                  ("t*g - n < 0", "a hypothesis of near"))
    assert both.vacuity_reason == (f"{REASON}t*g - n >= 0 (a hypothesis of far) and "
                                   "t*g - n < 0 (a hypothesis of near) cannot hold together")
    assert both.message.startswith(f"VACUOUS: {both.vacuity_reason}; ")
    # the lemmas themselves are not vacuous: each case holds somewhere
    assert not _step(report, "far").vacuous and not _step(report, "near").vacuous


def test_a_contradiction_that_needs_a_product_of_hypotheses() -> None:
    both = _step(_check(PRODUCT), "both")
    assert both.status == "proved" and both.vacuous
    assert both.vacuity is not None
    # no linear combination of a > 0, b > 0, a*b < 0 is contradictory: a product is read
    # (in a term, or as the multiplier a*b > 0 of the claim -1 >= 0)
    assert (len(both.vacuity.multiplier) >= 2
            or any(len(p.hyps) >= 2 for p in both.vacuity.products))
    assert both.contradictory == (("a > 0", "a hypothesis of pos"),
                                  ("b > 0", "a hypothesis of pos"),
                                  ("a*b < 0", "a hypothesis of neg"))
    assert both.vacuity_reason == (f"{REASON}a > 0 (a hypothesis of pos), b > 0 (a hypothesis "
                                   "of pos) and a*b < 0 (a hypothesis of neg) cannot hold "
                                   "together")


def test_case_conditions_that_meet_are_not_called_contradictory() -> None:
    """`t*g - n >= 0` and `t*g - n <= 0` hold together where t*g == n: the step is proved
    there (its claim), and nothing may say that it is vacuous."""
    report = _check(TWO_CASES.format(op="<="))
    assert [s.status for s in report.steps] == ["proved"] * 3
    for step in report.steps:
        assert not step.vacuous and step.vacuity is None
        assert step.contradictory == () and step.vacuity_reason is None
        assert "VACUOUS" not in step.message


def test_a_given_and_a_used_claim_named_as_such() -> None:
    both = _step(_check("""title = "T"
scalars = ["x"]
[[step]]
id = "square"
claim = "x**2 - 2*x + 1 >= 0"
[[step]]
id = "both"
uses = ["square"]
given = ["x**2 < 2*x - 1"]
claim = "x == 7"
"""), "both")
    assert both.contradictory == (("x**2 < 2*x - 1", "given"),
                                  ("x**2 - 2*x + 1 >= 0", "square's claim"))


def test_an_induction_names_the_invariant_and_update_facts() -> None:
    """Red team 10's induction: the invariant |w|^2 <= 0 with an update on y<w, x> < 0."""
    (report,) = _check(NEVER_UPDATES).steps
    assert report.vacuous
    assert ("norm2(w) <= 0", "its invariant") in report.contradictory
    assert ("y*dot(w, x) < 0", "an update fact") in report.contradictory
    assert report.vacuity_reason is not None
    assert ("norm2(w) <= 0 (its invariant)" in report.vacuity_reason
            and "no update leaves a state where its invariant holds, so the step claims at "
            "most its invariant at the start state" in report.vacuity_reason
            and report.vacuity_reason.endswith("(nothing, if its own hypotheses contradict)"))


def test_a_carried_invariant_that_makes_an_induction_vacuous_is_named_as_the_carried() -> None:
    """memb33: `b` (`t >= 0`) carries `a`'s invariant `norm2(w) <= 0`, which no update on
    y<w, x> < 0 keeps; `b`'s vacuity read "norm2(w) <= 0 (the invariant) ... no update leaves
    a state where the invariant holds, so the step claims at most the invariant at the start
    state", as if `norm2(w) <= 0` were `b`'s own claim. It now names whose invariant each
    is: `a`'s, which `b` carries, makes `b` claim its own at the start state only."""
    a, b = _check(CARRIES_NEVER_UPDATES).steps
    assert a.vacuous and b.vacuous
    assert ("norm2(w) <= 0", "the invariant of a it carries") in b.contradictory
    assert not any(where == "its invariant" for _, where in b.contradictory)
    assert b.vacuity_reason is not None
    assert b.vacuity_reason.startswith(
        "the update step's hypotheses (the step's, its invariant, the invariant of a it "
        "carries and the update facts) are contradictory: ")
    assert "norm2(w) <= 0 (the invariant of a it carries)" in b.vacuity_reason
    assert ("no update leaves a state where the invariant of a holds, so the step claims at "
            "most its invariant at the start state") in b.vacuity_reason
    assert ("norm2(w) <= 0", "its invariant") in a.contradictory


def test_every_output_names_them_and_the_summary_counts_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.toml"
    path.write_text(TWO_CASES.format(op="<"), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(3 proved (1 of them vacuous), 0 refuted, 0 unknown;" in out
    assert "VACUOUS: the hypotheses are contradictory: t*g - n >= 0 (a hypothesis of far)" in out

    assert main(["check", str(path), "--json"]) == 0
    steps = {s["id"]: s for s in json.loads(capsys.readouterr().out)["steps"]}
    assert steps["both"]["contradictory"] == [
        {"hypothesis": "t*g - n >= 0", "from": "a hypothesis of far"},
        {"hypothesis": "t*g - n < 0", "from": "a hypothesis of near"}]
    assert steps["far"]["contradictory"] is None

    assert main(["explain", str(path), "both"]) == 0
    assert "WARNING: vacuous — the hypotheses are contradictory: t*g - n >= 0" in (
        capsys.readouterr().out)
    assert main(["explain", str(path), "both", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["contradictory"][1]["from"] == (
        "a hypothesis of near")

    assert main(["audit", str(path), "--json"]) == 0
    (proof,) = json.loads(capsys.readouterr().out)["proofs"]
    symbolic = {s["id"]: s["symbolic"] for s in proof["steps"]}
    assert symbolic["both"]["contradictory"][0]["hypothesis"] == "t*g - n >= 0"
    assert symbolic["near"]["contradictory"] is None
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    assert "vacuous (1 proved, but saying nothing, each for the reason given):" in out
    assert "two/both: the hypotheses are contradictory: t*g - n >= 0" in out
    # a one-proof handout's headline: "verified" never alone when a step proves nothing
    document = tmp_path / "two.md"
    assert main(["audit", str(path), "--markdown", str(document)]) == 0
    text = document.read_text(encoding="utf-8")
    assert ("This proof file is verified: every step is proved, 1 of them vacuously (saying "
            "nothing, for the reason each gives)") in text
    assert "3 proved (1 of them vacuous)" in text
