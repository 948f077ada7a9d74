"""`verify.render.json`: a step's decision (what the audit's report reads) is the step's own
rendering, its fields in the order of docs/design.md §5."""

from __future__ import annotations

from proofs.library import load_builtin
from verify.proof_checker import check_step
from verify.render import json as serialize

STEP_KEYS = ["id", "status", "certificate", "counterexample", "message", "seconds",
             "statement", "vacuous", "vacuity", "contradictory", "judgements"]


def test_a_steps_decision_is_its_rendering_without_the_judgements() -> None:
    proof = load_builtin("canonical-online")
    reports: dict = {}
    for step in proof.steps[:6]:
        reports[step.id] = check_step(proof, step, earlier=reports)
        whole = serialize.step(reports[step.id])
        decided = serialize.decision(reports[step.id])
        assert list(whole) == STEP_KEYS
        assert list(decided) == ["id", "status", "certificate", "counterexample", "message",
                                 "vacuity", "contradictory"]
        assert decided == {key: whole[key] for key in decided}
