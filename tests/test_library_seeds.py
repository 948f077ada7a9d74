"""Pinned verdicts of every step of the five seed proofs (issue 6).

One shared table (pysmt `examples.py` style): every step of every seed proof with the verdict
it is expected to get. A change to the kernel, the prover or a proof file that flips any of
them fails here. Refuted steps are the audit's findings (plus `radius-centred-misreading`,
which confirms a remark); their counterexamples must pass the kernel's own check. Each
proof is checked once per session (about 20 s for all five on 2 cores).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from perceptron.source_algorithms import SOURCE_ALGORITHMS, SOURCE_VARIANTS
from proofs.proof_file import load_proof
from verify import kernel
from verify.proof_checker import ProofReport, StepReport, check_proof

SEEDS = Path(__file__).resolve().parents[1] / "proofs" / "library" / "seeds"
PROOF_IDS = ("chan-batch", "joeyonng-online", "ng-cs229", "telgarsky-online", "virtue-online")
TIME_LIMIT = 5.0

EXPECTED: tuple[tuple[str, str, str], ...] = (
    # chan-batch
    ("chan-batch", "misclassified-strict", "refuted"),
    ("chan-batch", "misclassified-strict-corrected", "proved"),
    ("chan-batch", "misclassified-max", "proved"),
    ("chan-batch", "correct-strict", "refuted"),
    ("chan-batch", "correct-strict-corrected", "proved"),
    ("chan-batch", "correct-max", "proved"),
    ("chan-batch", "misclassified-set", "refuted"),
    ("chan-batch", "misclassified-set-corrected", "proved"),
    ("chan-batch", "loss-sum", "proved"),
    ("chan-batch", "gradient-term", "proved"),
    ("chan-batch", "gradient-term-outside", "proved"),
    ("chan-batch", "batch-update", "proved"),
    ("chan-batch", "batch-average", "refuted"),
    ("chan-batch", "batch-average-corrected", "proved"),
    ("chan-batch", "scaling-g", "proved"),
    ("chan-batch", "scaling-positive", "proved"),
    ("chan-batch", "scaling-negative", "proved"),
    ("chan-batch", "scaling-zero", "proved"),
    ("chan-batch", "theorem-converges-to-theta-star", "refuted"),
    ("chan-batch", "theorem-strict-rule-stuck", "refuted"),
    ("chan-batch", "theorem-corrected", "proved"),
    ("chan-batch", "appendix-expand", "proved"),
    ("chan-batch", "appendix-expand-sum", "proved"),
    ("chan-batch", "appendix-mistake-sum", "proved"),
    ("chan-batch", "appendix-split", "proved"),
    ("chan-batch", "appendix-drop", "proved"),
    ("chan-batch", "appendix-factor", "proved"),
    ("chan-batch", "appendix-negative-if", "proved"),
    ("chan-batch", "appendix-negative-only-if", "proved"),
    ("chan-batch", "appendix-optimal-step", "proved"),
    ("chan-batch", "appendix-radius-restated", "refuted"),
    ("chan-batch", "appendix-radius-restated-corrected", "proved"),
    ("chan-batch", "appendix-ratio-equality", "refuted"),
    ("chan-batch", "appendix-ratio-equality-corrected", "proved"),
    ("chan-batch", "appendix-ratio-lower", "proved"),
    ("chan-batch", "appendix-ratio-count", "proved"),
    ("chan-batch", "appendix-step-decrease", "refuted"),
    ("chan-batch", "appendix-sum-margin", "proved"),
    ("chan-batch", "appendix-sum-norm", "proved"),
    ("chan-batch", "appendix-step-decrease-corrected", "proved"),
    ("chan-batch", "appendix-induction-base", "refuted"),
    ("chan-batch", "appendix-induction-base-corrected", "proved"),
    ("chan-batch", "appendix-induction-step", "proved"),
    ("chan-batch", "appendix-conclude", "proved"),
    ("chan-batch", "appendix-initial-distance", "proved"),
    ("chan-batch", "appendix-final", "proved"),
    ("chan-batch", "appendix-max-min-form", "refuted"),
    ("chan-batch", "appendix-max-min-form-corrected", "proved"),
    # joeyonng-online
    ("joeyonng-online", "label-square-literal", "refuted"),
    ("joeyonng-online", "label-square-literal-corrected", "proved"),
    ("joeyonng-online", "mistake-condition-strict", "refuted"),
    ("joeyonng-online", "mistake-condition-strict-corrected", "proved"),
    ("joeyonng-online", "dot-update", "proved"),
    ("joeyonng-online", "dot-margin", "proved"),
    ("joeyonng-online", "dot-unrolled", "proved"),
    ("joeyonng-online", "cauchy-schwarz", "proved"),
    ("joeyonng-online", "norm-lower-unit", "proved"),
    ("joeyonng-online", "norm-lower", "proved"),
    ("joeyonng-online", "norm-expand", "proved"),
    ("joeyonng-online", "norm-radius-equality", "refuted"),
    ("joeyonng-online", "norm-radius-equality-corrected", "proved"),
    ("joeyonng-online", "norm-drop-cross", "proved"),
    ("joeyonng-online", "norm-growth-corrected", "proved"),
    ("joeyonng-online", "norm-unrolled", "proved"),
    ("joeyonng-online", "norm-unrolled-corrected", "proved"),
    ("joeyonng-online", "combine", "proved"),
    ("joeyonng-online", "lemma", "proved"),
    # ng-cs229
    ("ng-cs229", "eq2-mistake-positive-label", "proved"),
    ("ng-cs229", "eq2-mistake-negative-label", "proved"),
    ("ng-cs229", "dot-update", "proved"),
    ("ng-cs229", "dot-update-identity", "proved"),
    ("ng-cs229", "eq3", "proved"),
    ("ng-cs229", "annotation-strict", "refuted"),
    ("ng-cs229", "annotation-strict-corrected", "proved"),
    ("ng-cs229", "annotation-arithmetic", "refuted"),
    ("ng-cs229", "annotation-arithmetic-corrected", "proved"),
    ("ng-cs229", "eq4-expand", "proved"),
    ("ng-cs229", "eq4-drop-cross", "proved"),
    ("ng-cs229", "eq4-radius", "proved"),
    ("ng-cs229", "eq5", "proved"),
    ("ng-cs229", "cauchy-schwarz", "proved"),
    ("ng-cs229", "combine-middle", "proved"),
    ("ng-cs229", "combine-chain", "proved"),
    ("ng-cs229", "theorem", "proved"),
    ("ng-cs229", "footnote-rate-rescales", "proved"),
    ("ng-cs229", "footnote-prediction-nonneg", "proved"),
    ("ng-cs229", "footnote-prediction-neg", "proved"),
    # telgarsky-online
    ("telgarsky-online", "rescale-norm", "proved"),
    ("telgarsky-online", "rescale-margin", "proved"),
    ("telgarsky-online", "relu-subgradient-active", "proved"),
    ("telgarsky-online", "relu-subgradient-inactive", "proved"),
    ("telgarsky-online", "relu-nonnegative-active", "proved"),
    ("telgarsky-online", "relu-nonnegative-inactive", "proved"),
    ("telgarsky-online", "w0-attains-zero", "proved"),
    ("telgarsky-online", "note-tie-predicts-correct", "proved"),
    ("telgarsky-online", "note-tie-updates", "proved"),
    ("telgarsky-online", "mistake-in-mt-predicted-positive", "proved"),
    ("telgarsky-online", "mistake-in-mt-predicted-negative", "proved"),
    ("telgarsky-online", "mistake-count", "proved"),
    ("telgarsky-online", "potential-identity", "proved"),
    ("telgarsky-online", "nonconvergence-first-update", "proved"),
    ("telgarsky-online", "nonconvergence-no-further-update", "proved"),
    ("telgarsky-online", "nonconvergence-margin", "proved"),
    ("telgarsky-online", "nonconvergence-distance", "proved"),
    ("telgarsky-online", "kernel-evaluation", "proved"),
    ("telgarsky-online", "kernel-evaluation-step", "proved"),
    ("telgarsky-online", "wt-as-sum", "proved"),
    ("telgarsky-online", "lower-bound", "proved"),
    ("telgarsky-online", "norm-expand", "proved"),
    ("telgarsky-online", "norm-indicator", "proved"),
    ("telgarsky-online", "norm-indicator-bound", "proved"),
    ("telgarsky-online", "norm-sum", "proved"),
    ("telgarsky-online", "norm-sum-literal", "refuted"),
    ("telgarsky-online", "norm-sum-literal-corrected", "proved"),
    ("telgarsky-online", "upper-cauchy-schwarz", "proved"),
    ("telgarsky-online", "combine-square", "proved"),
    ("telgarsky-online", "combine", "proved"),
    ("telgarsky-online", "theorem", "proved"),
    # virtue-online
    ("virtue-online", "example-point1-mistake", "proved"),
    ("virtue-online", "example-w2", "proved"),
    ("virtue-online", "example-point2-correct", "proved"),
    ("virtue-online", "example-point3-mistake", "proved"),
    ("virtue-online", "example-w3", "proved"),
    ("virtue-online", "example-point4-correct", "proved"),
    ("virtue-online", "example-point5-mistake", "proved"),
    ("virtue-online", "example-w4", "proved"),
    ("virtue-online", "example-point6-correct", "proved"),
    ("virtue-online", "part1-update", "proved"),
    ("virtue-online", "part1-margin", "proved"),
    ("virtue-online", "part1-induction", "proved"),
    ("virtue-online", "part1-norm-unsquared", "proved"),
    ("virtue-online", "part1-norm", "proved"),
    ("virtue-online", "part2-expand", "proved"),
    ("virtue-online", "part2-drop", "proved"),
    ("virtue-online", "part2-radius-equality", "refuted"),
    ("virtue-online", "part2-radius-equality-corrected", "proved"),
    ("virtue-online", "part2-induction", "proved"),
    ("virtue-online", "part3-as-written", "refuted"),
    ("virtue-online", "part3-as-written-corrected", "proved"),
    ("virtue-online", "theorem-corrected", "proved"),
    ("virtue-online", "scale-mistake-forward", "proved"),
    ("virtue-online", "scale-mistake-backward", "proved"),
    ("virtue-online", "scale-update", "proved"),
    ("virtue-online", "scale-margin", "proved"),
    ("virtue-online", "scale-radius", "proved"),
    ("virtue-online", "scale-bound", "proved"),
    ("virtue-online", "radius-centred-misreading", "refuted"),
    ("virtue-online", "radius-from-origin", "proved"),
)


@cache
def report(proof_id: str) -> ProofReport:
    """The checker's report for one seed proof (computed once per test session)."""
    return check_proof(load_proof(SEEDS / f"{proof_id}.toml"), time_limit=TIME_LIMIT)


def step_report(proof_id: str, step_id: str) -> StepReport:
    for step in report(proof_id).steps:
        if step.step.id == step_id:
            return step
    raise KeyError(f"{proof_id}: no step {step_id!r}")


@pytest.mark.parametrize("proof_id", PROOF_IDS)
def test_table_lists_every_step(proof_id: str) -> None:
    """The table pins every step of the file, in file order, and nothing else."""
    in_file = [step.id for step in load_proof(SEEDS / f"{proof_id}.toml").steps]
    in_table = [step for pid, step, _ in EXPECTED if pid == proof_id]
    assert in_table == in_file


@pytest.mark.parametrize(("proof_id", "step_id", "expected"), EXPECTED)
def test_step_verdict(proof_id: str, step_id: str, expected: str) -> None:
    step = step_report(proof_id, step_id)
    assert step.status == expected, f"{proof_id}/{step_id}: {step.message}"


@pytest.mark.parametrize(
    ("proof_id", "step_id"), [(p, s) for p, s, e in EXPECTED if e == "refuted"]
)
def test_refutation_rechecked_by_kernel(proof_id: str, step_id: str) -> None:
    """Each refuted step carries a counterexample to a decisive judgement the kernel accepts."""
    step = step_report(proof_id, step_id)
    decisive = [g for g in step.goals if g.goal.decisive and g.verdict.status == "refuted"]
    assert decisive, f"{proof_id}/{step_id} has no refuted decisive judgement"
    for goal in decisive:
        kernel.check_counterexample(goal.judgement, goal.verdict.counterexample)


@pytest.mark.parametrize(
    ("proof_id", "step_id"), [(p, s) for p, s, e in EXPECTED if e == "refuted"]
)
def test_finding_has_correction(proof_id: str, step_id: str) -> None:
    """Every finding has its corrected statement beside it, and that one is proved."""
    if step_id == "radius-centred-misreading":  # confirms the remark; its positive form:
        assert step_report(proof_id, "radius-from-origin").status == "proved"
        return
    corrected = {
        ("chan-batch", "theorem-converges-to-theta-star"): "theorem-corrected",
        ("chan-batch", "theorem-strict-rule-stuck"): "theorem-corrected",
    }.get((proof_id, step_id), f"{step_id}-corrected")
    assert step_report(proof_id, corrected).status == "proved"


@pytest.mark.parametrize(
    ("proof_id", "step_id"), [(p, s) for p, s, e in EXPECTED if e == "proved"]
)
def test_proved_steps_carry_certificates(proof_id: str, step_id: str) -> None:
    step = step_report(proof_id, step_id)
    assert step.certificates and len(step.certificates) == len(step.goals)


def test_every_step_cites_its_source() -> None:
    for index, proof_id in enumerate(PROOF_IDS):
        prefix = f"{index:03d}"  # the seed file's number
        for step in load_proof(SEEDS / f"{proof_id}.toml").steps:
            assert step.source.startswith(prefix), f"{proof_id}/{step.id}: {step.source!r}"
            assert step.note, f"{proof_id}/{step.id} has no note"


def test_source_algorithms_cover_the_seeds() -> None:
    assert set(SOURCE_ALGORITHMS) == set(PROOF_IDS)
    for algorithm in (*SOURCE_ALGORITHMS.values(), *SOURCE_VARIANTS.values()):
        conventions = algorithm.conventions()
        assert conventions.rule == algorithm.rule
        assert algorithm.first_index in (0, 1)
        assert algorithm.engine_index(algorithm.first_index) == 0


def test_source_algorithms_tie_behaviour() -> None:
    """The conventions that decide the findings: ties at w = 0."""
    chan = SOURCE_ALGORITHMS["chan-batch"].conventions()
    assert not chan.updates(0, 1) and not chan.updates(0, -1)  # M_0 empty: stuck at 0
    ng = SOURCE_ALGORITHMS["ng-cs229"].conventions()
    assert not ng.updates(0, 1) and ng.updates(0, -1)  # g(0) = +1
    for proof_id in ("joeyonng-online", "telgarsky-online", "virtue-online"):
        conventions = SOURCE_ALGORITHMS[proof_id].conventions()
        assert conventions.updates(0, 1) and conventions.updates(0, -1)
    sign0 = SOURCE_VARIANTS["virtue-online/algorithm-1-sign0"].conventions()
    assert sign0.updates(0, 1) and sign0.updates(0, -1)  # sign(0) = 0 is the 'le' rule
