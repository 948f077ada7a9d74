"""Pinned verdicts of every step of the five seed proofs (issue 6).

One shared table (pysmt `examples.py` style): every step of every seed proof with the verdict
it is expected to get. A change to the kernel, the prover or a proof file that flips any of
them fails here. Refuted steps are the audit's findings (plus `radius-centred-misreading`,
which confirms a remark); their counterexamples must pass the kernel's own check. Each
proof is checked once per session (about 20 s for all five on 2 cores). The numeric column
pins each step's verdict on runs of the source's own algorithm (`[numeric] algorithm`), from
the shared audit at budget "small" (`small_audit`, tests/conftest.py; a violation there is a
finding on the source's own iterates, its counterexample re-checked by the kernel inside the
audit).
"""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path

import pytest

from perceptron.algorithms.sources import SOURCE_ALGORITHMS, SOURCE_VARIANTS
from proofs.proof_file import load_proof
from verify import kernel
from verify.audit.job import Audit
from verify.proof_checker import ProofReport, StepReport, check_proof

SEEDS = Path(__file__).resolve().parents[2] / "proofs" / "library" / "seeds"
PROOF_IDS = ("chan-batch", "joeyonng-online", "ng-cs229", "telgarsky-online", "virtue-online")

#: (proof, step, symbolic verdict, numeric verdict on runs of the source's own algorithm,
#: budget "small"; not-run: a name is no quantity of that run, see the seeds README).
EXPECTED: tuple[tuple[str, str, str, str], ...] = (
    # chan-batch
    ("chan-batch", "misclassified-strict", "refuted", "not-run"),
    ("chan-batch", "misclassified-strict-corrected", "proved", "not-run"),
    ("chan-batch", "misclassified-max", "proved", "not-run"),
    ("chan-batch", "correct-strict", "refuted", "not-run"),
    ("chan-batch", "correct-strict-corrected", "proved", "not-run"),
    ("chan-batch", "correct-max", "proved", "not-run"),
    ("chan-batch", "misclassified-set", "refuted", "not-run"),
    ("chan-batch", "misclassified-set-corrected", "proved", "not-run"),
    ("chan-batch", "loss-sum", "proved", "not-run"),
    ("chan-batch", "gradient-term", "proved", "held"),
    ("chan-batch", "gradient-term-outside", "proved", "held"),
    ("chan-batch", "batch-update", "proved", "held"),
    ("chan-batch", "batch-average", "refuted", "violated"),
    ("chan-batch", "batch-average-corrected", "proved", "held"),
    ("chan-batch", "scaling-g", "proved", "held"),
    ("chan-batch", "scaling-positive", "proved", "not-run"),
    ("chan-batch", "scaling-negative", "proved", "not-run"),
    ("chan-batch", "scaling-zero", "proved", "not-run"),
    ("chan-batch", "theorem-converges-to-theta-star", "refuted", "not-run"),
    ("chan-batch", "theorem-strict-rule-stuck", "refuted", "not-run"),
    ("chan-batch", "theorem-corrected", "proved", "not-run"),
    ("chan-batch", "appendix-expand", "proved", "held"),
    ("chan-batch", "appendix-expand-sum", "proved", "held"),
    ("chan-batch", "member-misclassified", "proved", "not-run"),
    ("chan-batch", "appendix-mistake-sum", "proved", "held"),
    ("chan-batch", "appendix-split", "proved", "held"),
    ("chan-batch", "appendix-drop", "proved", "held"),
    ("chan-batch", "appendix-factor", "proved", "held"),
    ("chan-batch", "appendix-negative-if", "proved", "held"),
    ("chan-batch", "appendix-negative-only-if", "proved", "held"),
    ("chan-batch", "appendix-optimal-step", "proved", "held"),
    ("chan-batch", "appendix-radius-restated", "refuted", "not-run"),
    ("chan-batch", "appendix-radius-restated-corrected", "proved", "not-run"),
    ("chan-batch", "appendix-ratio-equality", "refuted", "violated"),
    ("chan-batch", "pair", "proved", "not-run"),
    ("chan-batch", "member-label", "proved", "not-run"),
    ("chan-batch", "appendix-ratio-equality-corrected", "proved", "held"),
    ("chan-batch", "member-margin", "proved", "not-run"),
    ("chan-batch", "member-radius", "proved", "not-run"),
    ("chan-batch", "appendix-sum-radius", "proved", "held"),
    ("chan-batch", "appendix-sum-margin", "proved", "held"),
    ("chan-batch", "appendix-ratio-numerator", "proved", "held"),
    ("chan-batch", "appendix-ratio-lower", "proved", "held"),
    ("chan-batch", "appendix-ratio-count", "proved", "held"),
    ("chan-batch", "appendix-step-decrease", "refuted", "violated"),
    ("chan-batch", "appendix-sum-norm", "proved", "held"),
    ("chan-batch", "appendix-decrease-numerator", "proved", "held"),
    ("chan-batch", "appendix-step-decrease-corrected", "proved", "held"),
    ("chan-batch", "appendix-induction-base", "refuted", "held"),
    ("chan-batch", "appendix-induction-base-corrected", "proved", "held"),
    ("chan-batch", "appendix-induction-step", "proved", "held"),
    ("chan-batch", "appendix-conclude", "proved", "held"),
    ("chan-batch", "appendix-initial-distance", "proved", "held"),
    ("chan-batch", "appendix-final", "proved", "held"),
    ("chan-batch", "appendix-max-min-form", "refuted", "not-run"),
    ("chan-batch", "appendix-max-min-form-corrected", "proved", "not-run"),
    # joeyonng-online
    ("joeyonng-online", "label-square-literal", "refuted", "held"),
    ("joeyonng-online", "label-square-literal-corrected", "proved", "held"),
    ("joeyonng-online", "mistake-condition-strict", "refuted", "violated"),
    ("joeyonng-online", "mistake-condition-strict-corrected", "proved", "held"),
    ("joeyonng-online", "dot-update", "proved", "held"),
    ("joeyonng-online", "dot-margin", "proved", "held"),
    ("joeyonng-online", "dot-unrolled", "proved", "held"),
    ("joeyonng-online", "cauchy-schwarz", "proved", "not-run"),
    ("joeyonng-online", "norm-lower-unit", "proved", "held"),
    ("joeyonng-online", "norm-lower", "proved", "held"),
    ("joeyonng-online", "norm-expand", "proved", "held"),
    ("joeyonng-online", "norm-radius-equality", "refuted", "violated"),
    ("joeyonng-online", "norm-radius-equality-corrected", "proved", "held"),
    ("joeyonng-online", "norm-drop-cross", "proved", "held"),
    ("joeyonng-online", "norm-growth-corrected", "proved", "held"),
    ("joeyonng-online", "norm-unrolled", "proved", "held"),
    ("joeyonng-online", "norm-unrolled-corrected", "proved", "held"),
    ("joeyonng-online", "combine", "proved", "held"),
    ("joeyonng-online", "lemma", "proved", "held"),
    # ng-cs229
    ("ng-cs229", "eq2-mistake-positive-label", "proved", "held"),
    ("ng-cs229", "eq2-mistake-negative-label", "proved", "held"),
    ("ng-cs229", "dot-update", "proved", "held"),
    ("ng-cs229", "dot-update-identity", "proved", "held"),
    ("ng-cs229", "eq3", "proved", "held"),
    ("ng-cs229", "annotation-strict", "refuted", "not-run"),
    ("ng-cs229", "annotation-strict-corrected", "proved", "not-run"),
    ("ng-cs229", "annotation-arithmetic", "refuted", "violated"),
    ("ng-cs229", "annotation-arithmetic-corrected", "proved", "held"),
    ("ng-cs229", "eq4-expand", "proved", "held"),
    ("ng-cs229", "eq4-drop-cross", "proved", "held"),
    ("ng-cs229", "eq4-radius", "proved", "held"),
    ("ng-cs229", "eq5", "proved", "held"),
    ("ng-cs229", "cauchy-schwarz", "proved", "not-run"),
    ("ng-cs229", "combine-middle", "proved", "held"),
    ("ng-cs229", "combine-chain", "proved", "held"),
    ("ng-cs229", "theorem", "proved", "held"),
    ("ng-cs229", "footnote-rate-rescales", "proved", "held"),
    ("ng-cs229", "footnote-prediction-nonneg", "proved", "not-run"),
    ("ng-cs229", "footnote-prediction-neg", "proved", "not-run"),
    # telgarsky-online
    ("telgarsky-online", "rescale-norm", "proved", "held"),
    ("telgarsky-online", "rescale-margin", "proved", "not-run"),
    ("telgarsky-online", "relu-subgradient-active", "proved", "not-run"),
    ("telgarsky-online", "relu-subgradient-inactive", "proved", "not-run"),
    ("telgarsky-online", "relu-nonnegative-active", "proved", "not-run"),
    ("telgarsky-online", "relu-nonnegative-inactive", "proved", "not-run"),
    ("telgarsky-online", "w0-attains-zero", "proved", "not-run"),
    ("telgarsky-online", "note-tie-predicts-correct", "proved", "not-run"),
    ("telgarsky-online", "note-tie-updates", "proved", "not-run"),
    ("telgarsky-online", "mistake-in-mt-predicted-positive", "proved", "not-run"),
    ("telgarsky-online", "mistake-in-mt-predicted-negative", "proved", "not-run"),
    ("telgarsky-online", "mistake-count", "proved", "not-run"),
    ("telgarsky-online", "potential-identity", "proved", "not-run"),
    ("telgarsky-online", "nonconvergence-first-update", "proved", "not-run"),
    ("telgarsky-online", "nonconvergence-no-further-update", "proved", "not-run"),
    ("telgarsky-online", "nonconvergence-margin", "proved", "not-run"),
    ("telgarsky-online", "nonconvergence-distance", "proved", "not-run"),
    ("telgarsky-online", "kernel-evaluation", "proved", "not-run"),
    ("telgarsky-online", "kernel-evaluation-step", "proved", "not-run"),
    ("telgarsky-online", "wt-as-sum", "proved", "held"),
    ("telgarsky-online", "lower-bound", "proved", "held"),
    ("telgarsky-online", "member-margin", "proved", "not-run"),
    ("telgarsky-online", "lower-bound-as-written", "proved", "held"),  # on its history (ZS, IS)
    ("telgarsky-online", "norm-expand", "proved", "held"),
    ("telgarsky-online", "norm-indicator", "proved", "not-run"),
    ("telgarsky-online", "norm-indicator-bound", "proved", "not-run"),
    ("telgarsky-online", "norm-sum", "proved", "held"),
    ("telgarsky-online", "norm-sum-as-written", "proved", "held"),
    ("telgarsky-online", "norm-sum-literal", "refuted", "not-run"),
    ("telgarsky-online", "norm-sum-literal-corrected", "proved", "not-run"),
    ("telgarsky-online", "upper-cauchy-schwarz", "proved", "held"),
    ("telgarsky-online", "combine-square", "proved", "not-run"),
    ("telgarsky-online", "combine", "proved", "not-run"),  # inherits p from combine-square
    ("telgarsky-online", "theorem", "proved", "not-run"),
    # virtue-online
    ("virtue-online", "example-point1-mistake", "proved", "not-run"),
    ("virtue-online", "example-w2", "proved", "not-run"),
    ("virtue-online", "example-point2-correct", "proved", "not-run"),
    ("virtue-online", "example-point3-mistake", "proved", "not-run"),
    ("virtue-online", "example-w3", "proved", "not-run"),
    ("virtue-online", "example-point4-correct", "proved", "not-run"),
    ("virtue-online", "example-point5-mistake", "proved", "not-run"),
    ("virtue-online", "example-w4", "proved", "not-run"),
    ("virtue-online", "example-point6-correct", "proved", "not-run"),
    ("virtue-online", "part1-update", "proved", "held"),
    ("virtue-online", "part1-margin", "proved", "held"),
    ("virtue-online", "part1-induction", "proved", "held"),
    ("virtue-online", "part1-norm-unsquared", "proved", "not-run"),
    ("virtue-online", "part1-norm", "proved", "held"),
    ("virtue-online", "part2-expand", "proved", "held"),
    ("virtue-online", "part2-drop", "proved", "held"),
    ("virtue-online", "part2-radius-equality", "refuted", "violated"),
    ("virtue-online", "part2-radius-equality-corrected", "proved", "held"),
    ("virtue-online", "part2-induction", "proved", "held"),
    ("virtue-online", "part3-as-written", "refuted", "not-run"),
    ("virtue-online", "part3-as-written-corrected", "proved", "not-run"),
    ("virtue-online", "theorem-corrected", "proved", "held"),
    ("virtue-online", "scale-mistake-forward", "proved", "not-run"),
    ("virtue-online", "scale-mistake-backward", "proved", "not-run"),
    ("virtue-online", "scale-update", "proved", "held"),
    ("virtue-online", "scale-margin", "proved", "not-run"),
    ("virtue-online", "scale-radius", "proved", "not-run"),
    ("virtue-online", "scale-bound", "proved", "not-run"),
    ("virtue-online", "radius-centred-misreading", "refuted", "not-run"),
    ("virtue-online", "radius-from-origin", "proved", "not-run"),
)


@cache
def report(proof_id: str) -> ProofReport:
    """The checker's report for one seed proof (computed once per test session)."""
    return check_proof(load_proof(SEEDS / f"{proof_id}.toml"))


def step_report(proof_id: str, step_id: str) -> StepReport:
    for step in report(proof_id).steps:
        if step.step.id == step_id:
            return step
    raise KeyError(f"{proof_id}: no step {step_id!r}")


@pytest.mark.parametrize("proof_id", PROOF_IDS)
def test_table_lists_every_step(proof_id: str) -> None:
    """The table pins every step of the file, in file order, and nothing else."""
    in_file = [step.id for step in load_proof(SEEDS / f"{proof_id}.toml").steps]
    in_table = [step for pid, step, _, _ in EXPECTED if pid == proof_id]
    assert in_table == in_file


@pytest.mark.parametrize(("proof_id", "step_id", "expected"), [e[:3] for e in EXPECTED])
def test_step_verdict(proof_id: str, step_id: str, expected: str) -> None:
    step = step_report(proof_id, step_id)
    assert step.status == expected, f"{proof_id}/{step_id}: {step.message}"


@pytest.mark.parametrize(
    ("proof_id", "step_id"), [(p, s) for p, s, e, _ in EXPECTED if e == "refuted"]
)
def test_refutation_rechecked_by_kernel(proof_id: str, step_id: str) -> None:
    """Each refuted step carries a counterexample to a decisive judgement the kernel accepts."""
    step = step_report(proof_id, step_id)
    decisive = [g for g in step.goals if g.goal.decisive and g.verdict.status == "refuted"]
    assert decisive, f"{proof_id}/{step_id} has no refuted decisive judgement"
    for goal in decisive:
        kernel.check_counterexample(goal.judgement, goal.verdict.counterexample)


@pytest.mark.parametrize(
    ("proof_id", "step_id"), [(p, s) for p, s, e, _ in EXPECTED if e == "refuted"]
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
    ("proof_id", "step_id"), [(p, s) for p, s, e, _ in EXPECTED if e == "proved"]
)
def test_proved_steps_carry_certificates(proof_id: str, step_id: str) -> None:
    step = step_report(proof_id, step_id)
    assert step.certificates and len(step.certificates) == len(step.goals)


@pytest.fixture(scope="module")
def audit(small_audit: Audit) -> Audit:
    """The five sources as the small audit judged them (`tests/conftest.py`, made once),
    numerically on their own algorithms' runs."""
    return dataclasses.replace(
        small_audit, proofs=tuple(p for p in small_audit.proofs if p.id in PROOF_IDS))


def test_numeric_verdicts(audit: Audit) -> None:
    """Every step's numeric verdict, on runs of its source's algorithm, is the pinned one."""
    found = {
        (proof.id, step.step.id): step.numeric.status if step.numeric else "not-run"
        for proof in audit.proofs for step in proof.steps
    }
    expected = {(p, s): n for p, s, _, n in EXPECTED}
    assert found == expected


def test_numeric_runs_use_the_sources_algorithms(audit: Audit) -> None:
    """Each proof's runs are of its own source's algorithm (telgarsky-online's normalised)."""
    for proof in audit.proofs:
        binding = proof.proof.numeric
        assert binding is not None and binding.algorithm == proof.id
        assert binding.run == SOURCE_ALGORITHMS[proof.id].mode
        assert any(step.numeric is not None for step in proof.steps)


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
