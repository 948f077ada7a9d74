"""A proof decided from the kernel's readings of its steps (`proof_checker.readings`): the
audit reads each step once, plans its checks on runs from the statements and decides the
step from the same reading (issue 30: the kernel read every step twice)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from test_verify.sums.test_sums_termwise_found import REPRODUCTION

import verify.proof_checker as checker
from proofs.library import load_builtin
from proofs.proof_file import parse_proof
from proofs.step import Proof
from verify.audit import job
from verify.audit.targets import targets
from verify.proof_checker import check_proof, readings


def said(report: checker.ProofReport) -> list[tuple[str, str, str, object]]:
    """What a report says of each step: its status, message and statement."""
    return [(s.step.id, s.status, s.message, s.statement) for s in report.steps]


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[object]:
    """Count the calls of `proof_checker.NAME` (called by its module's global name)."""
    calls: list[object] = []
    original: Callable[..., Any] = getattr(checker, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(checker, name, counted)
    return calls


@pytest.mark.parametrize("proof", [
    load_builtin("canonical-online"),  # steps that use steps, `with` and an induction
    load_builtin("finite-sums"),  # sums: the sum rules proposed with the sequent
    parse_proof(REPRODUCTION, "s2.toml"),  # decided with term-wise facts found: moved
], ids=["canonical-online", "finite-sums", "termwise"])
def test_a_proof_decided_from_its_readings_says_what_it_says_without(proof: Proof) -> None:
    alone = check_proof(proof)
    assert said(check_proof(proof, read=readings(proof))) == said(alone)
    assert said(check_proof(proof, read={})) == said(alone)  # each step read anew


def test_a_step_decided_from_its_reading_is_not_read_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    proof = load_builtin("canonical-online")
    read = readings(proof)
    made, stated = counting(monkeypatch, "sequent"), []
    monkeypatch.setattr(checker.kernel, "state",
                        lambda seq, state=checker.kernel.state: stated.append(seq) or state(seq))
    report = check_proof(proof, read=read)
    assert {s.status for s in report.steps} == {"proved"}
    assert made == [] and stated == []  # the kernel's reading and its sequent, given
    check_proof(proof)
    assert len(made) == len(proof.steps)  # read here: one sequent per step


def test_a_step_whose_used_step_moved_is_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    proof = parse_proof(REPRODUCTION, "s2.toml")  # b proved with facts found; the next uses b
    read = readings(proof)
    made = counting(monkeypatch, "sequent")
    report = check_proof(proof, read=read)
    assert [s.status for s in report.steps] == ["proved", "proved"]
    assert proof.steps[1].id in [args[1].id for args in made]  # type: ignore[index]


def test_the_audit_reads_each_proof_once_for_its_plan_and_its_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made = counting(monkeypatch, "sequent")
    plan = job._plan(job._admitted(targets(["canonical-online"]), []), "small", 0, None)
    proof = plan.proofs["canonical-online"]
    assert set(plan.read["canonical-online"]) == {s.id for s in proof.steps}
    assert len(made) == len(proof.steps)  # read for the plan's statements
    reports = job._symbolic(proof, None, read=plan.read["canonical-online"])
    assert len(made) == len(proof.steps)  # decided from the same readings
    assert [r.status for r in reports] == [r.status for r in job._symbolic(proof, None)]
