"""Every step of every canonical proof file is proved, and its certificates pass the kernel.

One table (file, step id) drives the tests; each step's judgements (its rule's goals and the
side conditions of its divisions) are decided by the prover and re-checked by the kernel.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import pytest

import proofs.library
from proofs.library import CANONICAL, PROOFS, RESULTS, SOURCES, VARIANTS, load_builtin
from proofs.step import Direct, Proof, Step
from verify import kernel
from verify.kernel import algebra
from verify.proof_checker import StepReport, check_proof, check_step, statements

# The source proofs have findings (pinned in test_library_seeds.py): only ours must all prove.
OURS = (*CANONICAL, *VARIANTS, *RESULTS)

STEPS: list[tuple[str, str]] = [
    (proof_id, step.id) for proof_id in OURS for step in load_builtin(proof_id).steps
]


def test_registry_lists_every_canonical_file() -> None:
    assert set(PROOFS) == {*CANONICAL, *VARIANTS, *RESULTS, *SOURCES}
    for path in PROOFS.values():
        assert path.is_file(), path


def test_unknown_id_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="canonical-online"):
        load_builtin("no-such-proof")


@functools.cache
def checked(proof_id: str) -> dict[str, StepReport]:
    """Each canonical proof checked once, in order (later steps use earlier Theorems)."""
    report = check_proof(load_builtin(proof_id))
    return {s.step.id: s for s in report.steps}


@pytest.mark.parametrize(("proof_id", "step_id"), STEPS, ids=[f"{p}:{s}" for p, s in STEPS])
def test_step_is_proved_by_a_kernel_theorem(proof_id: str, step_id: str) -> None:
    report = checked(proof_id)[step_id]
    assert report.status == "proved", report.message
    assert isinstance(report.theorem, kernel.Theorem) and not report.vacuous
    assert report.theorem.statement == report.statement


@pytest.mark.parametrize("proof_id", OURS)
def test_every_step_has_source_and_note(proof_id: str) -> None:
    for step in load_builtin(proof_id).steps:
        assert step.source.strip(), step.id
        assert step.note.strip(), step.id


def test_batch_bound_is_the_corrected_one() -> None:
    """The batch proof ends in k gamma^2 <= R2 ||theta_0 - theta*||^2, not the seed's |M_k| sum."""
    proof = load_builtin("canonical-batch")
    assert proof.step("iterations").claim.text == "k*gamma**2 <= R2*norm2(theta0 - theta_star)"
    assert proof.step("decrease-bound").claim.text == (
        "dot(theta_star, xbar)**2/norm2(xbar) >= gamma**2/R2"
    )


def _status_table() -> dict[str, str]:
    """proofs/library/README.md's theorem table: each proof id and its `status here`."""
    rows = {}
    text = (Path(proofs.library.__file__).parent / "README.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        # cells are split at a bar with a space each side (`||x||` in a formula has none)
        cells = [cell.strip() for cell in re.split(r" \| ", line.strip().strip("|"))]
        if len(cells) == 5 and cells[1].strip("`") in PROOFS:
            rows[cells[1].strip("`")] = cells[4]
    return rows


def test_the_library_table_says_runs_only_of_proofs_that_declare_a_run() -> None:
    """Truth14: the table called `canonical-online-normalised` "proved + Coq + runs" though it
    declares no `[numeric]` run (no step of it is checked on runs). A status names `runs`
    exactly when the proof binds a run."""
    statuses = _status_table()
    assert len(statuses) >= 15
    for proof_id, status in statuses.items():
        has_run = load_builtin(proof_id).numeric is not None
        assert bool(re.search(r"\bruns\b", status)) == has_run, (proof_id, status)


def _theorem(proof: Proof) -> Step:
    return next(step for step in proof.steps if step.id == proof.main_result)


def _assumed_only(proof: Proof) -> tuple[Proof, Step]:
    """The theorem step of `proof` with every given of it and of the steps it uses,
    transitively, as its own hypotheses, and nothing else: no used claim, no rule, no hint."""
    by_id = {step.id: step for step in proof.steps}
    needed, todo = set(), [proof.main_result]
    while todo:
        if (current := todo.pop()) not in needed and current in by_id:
            needed.add(current)
            todo.extend(use.step for use in by_id[current].uses)
    givens = {h.text: h for step in proof.steps if step.id in needed for h in step.hypotheses}
    alone = dataclasses.replace(_theorem(proof), hypotheses=tuple(givens.values()), uses=(),
                                hints=(), rule=Direct())
    return dataclasses.replace(proof, steps=(alone,), theorem=alone.id), alone


@pytest.mark.parametrize("proof_id", OURS)
def test_no_theorem_assumes_its_own_conclusion(proof_id: str) -> None:
    """User finding (medium-high): canonical-online-w0's `bound-division` took its bound
    t gamma^2 <= R2 + 2 gamma n as a hypothesis, and canonical-online-normalised's
    `bound-transfer` t (s gamma_u)^2 <= 1, neither using a step: both were reported verified
    though the proof never derived them. A theorem of several steps uses some or is proved by
    a rule (an induction, a split), and the givens of it and of every step it rests on (its
    assumptions, without the claims those steps prove) do not prove it alone; its claim is
    none of its own hypotheses, in any form."""
    proof = load_builtin(proof_id)
    theorem = _theorem(proof)
    stated = statements(proof)[theorem.id]
    assert stated is not None
    assert algebra.normal_form(stated.claim, stated.claim.text) not in {
        algebra.normal_form(h, h.text) for h, origin in zip(stated.hypotheses, stated.origins,
                                                             strict=True) if origin == ""}
    if len(proof.steps) > 1:
        assert theorem.uses or not isinstance(theorem.rule, Direct), (
            f"{proof_id}: the theorem {theorem.id} uses no step and is proved by no rule")
    alone, step = _assumed_only(proof)
    assert check_step(alone, step, store=None).status != "proved", (
        proof_id, [h.text for h in step.hypotheses])
