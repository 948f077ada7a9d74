"""Every step of every canonical proof file is proved, and its certificates pass the kernel.

One table (file, step id) drives the tests; each step's judgements (its rule's goals and the
side conditions of its divisions) are decided by the prover and re-checked by the kernel.
"""

from __future__ import annotations

import pytest

from proofs.library import CANONICAL, PROOFS, SOURCES, VARIANTS, load_builtin
from verify import kernel
from verify.proof_checker import judgement_of
from verify.prover import decide

TIME_LIMIT = 10.0  # per judgement; every step takes well under a second today

OURS = (*CANONICAL, *VARIANTS)  # the source proofs have findings: tests/test_library_seeds.py

STEPS: list[tuple[str, str]] = [
    (proof_id, step.id) for proof_id in OURS for step in load_builtin(proof_id).steps
]


def test_registry_lists_every_canonical_file() -> None:
    assert set(PROOFS) == {*CANONICAL, *VARIANTS, *SOURCES}
    for path in PROOFS.values():
        assert path.is_file(), path


def test_unknown_id_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="canonical-online"):
        load_builtin("no-such-proof")


@pytest.mark.parametrize(("proof_id", "step_id"), STEPS, ids=[f"{p}:{s}" for p, s in STEPS])
def test_step_is_proved_and_kernel_checked(proof_id: str, step_id: str) -> None:
    proof = load_builtin(proof_id)
    step = proof.step(step_id)
    for goal in proof.goals(step):
        judgement = judgement_of(proof, goal)
        verdict = decide(judgement, hints=step.hints, time_limit=TIME_LIMIT)
        assert verdict.status == "proved", f"{goal.label}: {verdict.message}"
        assert verdict.certificate is not None
        kernel.check_certificate(judgement, verdict.certificate)


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
