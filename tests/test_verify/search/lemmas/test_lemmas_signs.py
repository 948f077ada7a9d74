"""Facts a step needs but does not state (gaps33): sign lemmas the checker proves and uses
(`verify.search.lemmas.signs`, `proof_checker._with_signs`), a case split on a scalar a
hypothesis says is >= 0 (`_with_split`), and a squared norm scaled by a difference of two
scalars (`sos.difference_scaled_norms`). Each true step of the shared table
`cases.steps.UNSTATED` was unknown on main (501b371) at the default budget and is proved
now; each false twin is refuted, never proved. What the checker found crosses processes and
is made again by the kernel (`replay`), and coqc re-checks it."""

from __future__ import annotations

import pickle
import shutil
from dataclasses import replace

import pytest
from cases.steps import UNSTATED, UNSTATED_EXPECTED

from proofs.proof_file import parse_proof
from proofs.step import CaseSplit, Direct, Induction
from verify.proof_checker import ProofReport, check_proof, detached, replay
from verify.search.lemmas import signs


@pytest.fixture(scope="module")
def checked() -> tuple[object, ProofReport]:
    proof = parse_proof(UNSTATED.encode(), "unstated.toml")
    return proof, check_proof(proof)


def by_id(report: ProofReport) -> dict[str, object]:
    return {s.step.id: s for s in report.steps}


@pytest.mark.parametrize(("step_id", "expected"), sorted(UNSTATED_EXPECTED.items()))
def test_each_step_gets_its_expected_verdict(checked, step_id: str, expected: str) -> None:
    report = by_id(checked[1])[step_id]
    if expected == "not-proved":
        assert report.status != "proved", report.message
    else:
        assert report.status == expected, report.message


def test_the_table_covers_every_step_of_the_file(checked) -> None:
    assert {s.step.id for s in checked[1].steps} == set(UNSTATED_EXPECTED)


def test_the_batch_step_is_proved_with_the_signs_it_leaves_unstated(checked) -> None:
    """alpha*|d|^2 == <ts,d> >= g > 0 makes |d|^2 > 0, then alpha > 0: each a lemma the
    kernel proved, the second using the first, both used by the step as written uses are."""
    report = by_id(checked[1])["batch-cleared"]
    assert report.message.endswith("sign facts found and proved, used as steps: norm2(d) > 0 "
                                   "(batch-cleared-sign-1); alpha > 0 (batch-cleared-sign-2)")
    lemmas = [r.step for r in report.termwise]
    assert [s.claim.text for s in lemmas] == ["norm2(d) > 0", "alpha > 0"]
    assert [u.step for u in lemmas[1].uses] == ["batch-cleared-sign-1"]
    assert all(isinstance(s.rule, Direct) and s.hypotheses == report.step.hypotheses
               for s in lemmas)
    assert [u.step for u in report.step.uses][-2:] == ["batch-cleared-sign-1",
                                                       "batch-cleared-sign-2"]
    assert report.theorem is not None and all(r.theorem is not None for r in report.termwise)


def test_a_radius_needs_the_norm_proved_first(checked) -> None:
    report = by_id(checked[1])["radius-positive"]
    claims = [r.step.claim.text for r in report.termwise]
    assert claims[0] == "norm2(d) > 0" and claims[-1] == "R2 > 0"


def test_the_split_is_said_and_how_to_write_it(checked) -> None:
    report = by_id(checked[1])["mistake-bound"]
    assert isinstance(report.step.rule, CaseSplit) and report.step.rule.text == "t"
    assert 'by cases on t, a split the checker chose (`split = { on = "t", zero = true }` ' \
           "states it)" in report.message
    assert not report.termwise


def test_the_optimal_step_needs_no_hint(checked) -> None:
    for step_id in ("step-size-optimal", "step-size-optimal-distance"):
        report = by_id(checked[1])[step_id]
        assert report.message == "certificate by norms scaled by differences"


def test_what_was_found_crosses_processes_and_the_kernel_makes_it_again(checked) -> None:
    proof, report = checked
    sent = [pickle.loads(pickle.dumps(detached(s))) for s in report.steps]
    again = {s.step.id: s for s in replay(proof, sent)}
    for step_id, expected in UNSTATED_EXPECTED.items():
        assert again[step_id].status == expected, again[step_id].message
        if expected == "proved":
            assert again[step_id].theorem is not None
    assert all(r.theorem is not None for r in again["batch-division"].termwise)


def test_a_worker_may_turn_a_direct_step_into_cases_only() -> None:
    """Replay takes the cases a report says were chosen (they leave the statement as it is),
    never another rule: a report whose step claims an induction is read as the direct step
    the file wrote, and its evidence, cases of another rule, is rejected."""
    proof = parse_proof(UNSTATED.encode(), "unstated.toml")
    only = replace(proof, steps=tuple(s for s in proof.steps if s.id == "mistake-bound"))
    report = check_proof(only).steps[0]
    forged = replace(report.step, rule=Induction("t", {}, {}))
    again = replay(only, [replace(detached(report), step=forged)])[0]
    assert again.theorem is None and again.message.startswith("kernel rejected on replay")


def test_subjects_norms_first_and_stated_signs_left_out() -> None:
    """The obligations of the step as written (a budget too small to prove anything): the
    squared norm first, then alpha; g is left out (`g > 0` is a hypothesis), and th's and
    ts's norms, which cancel in the expanded claim, are not read."""
    proof = parse_proof(UNSTATED.encode(), "unstated.toml")
    first = check_proof(replace(proof, steps=proof.steps[:1]), budget=_tiny()).steps[0]
    assert first.status == "unknown"
    found = signs.subjects(proof, [g.goal for g in first.goals])
    assert [(s.text, s.weak) for s in found] == [("norm2(d)", False), ("alpha", False)]


def _tiny():
    from verify.search.work import SearchBudget
    return SearchBudget(candidates=1, terms=1, lp_rows=1, lp_columns=1, lp_iterations=1,
                        points=1, sdp_entries=1, sdp_iterations=1)


def test_claims_and_splits() -> None:
    assert signs.claims(signs.Subject("alpha", False)) == ("alpha > 0", "alpha >= 0")
    assert signs.claims(signs.Subject("t", True)) == ("t > 0",)
    assert signs.claims(signs.Subject("norm2(d)", False)) == ("norm2(d) > 0",)


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")
def test_coqc_checks_the_lemmas_and_the_split(checked, tmp_path) -> None:
    from verify.coq import export_and_check, summary_line

    proof, report = checked
    wanted = {"batch-cleared", "mistake-bound"}
    small = replace(proof, steps=tuple(s for s in proof.steps if s.id in wanted))
    steps = [s for s in report.steps if s.step.id in wanted]
    run = export_and_check(tmp_path, [("unstated", small, steps)])
    assert all(r.startswith("checked") for r in run.results.values()), run.results
    assert "(and 2/2 sign lemmas the checker found)" in summary_line(run)
