"""Coverage: every step of both canonical proofs is checked on runs, and holds.

Each step's statement is bound to the quantities of its run kind (`verify.runs`) and evaluated
exactly on every state, (state, example) pair, update, batch iteration or batch member of
runs from the sources generated, tight and adversary, at least 10,000 instances per step and
source. Which steps bind, and which reduce to `0 == 0`, is pinned so coverage cannot shrink
silently.
"""

from __future__ import annotations

import pytest

from proofs.library import load_builtin
from verify.audit.job import binding_of, statement
from verify.numeric.campaign import Check, adversary, generated, run_campaign, tight
from verify.proof_checker import statements
from verify.runs.quantity import Scenario

PROOFS = ("canonical-online", "canonical-batch")

#: Steps whose names denote no run quantity (none: every step of both proofs binds).
#: Steps whose names are not all run quantities. xbar-norm starts its sum from a constant first
#: term (x0, y0): under the run semantics of induction its terms are distinct examples, which
#: the batch rows do not name one by one.
NOT_BINDABLE: frozenset[str] = frozenset({"canonical-batch/xbar-norm"})

#: Polynomial identities: the statement normalises to `0 == 0`, so no quantity is evaluated.
IDENTITIES = frozenset({
    "canonical-online/gradient-term", "canonical-online/gradient-term-bias",
    "canonical-batch/update-expand", "canonical-batch/step-size-expansion",
    "canonical-batch/step-size-min-value",
})

#: The norm-growth invariant, the lower-bound invariant and the final bound (squared and
#: division forms): each must be met with equality somewhere (min slack exactly 0).
TIGHT = ("canonical-online/norm-growth", "canonical-online/lower-bound",
         "canonical-online/combine", "canonical-online/bound-division-general-u")

#: (step, source) where no instance satisfies the hypotheses, and why: tight families and the
#: adversary keep every example at y<w,x> >= 0 (orthogonal or on the boundary), so a strict
#: mistake never occurs there.
VACUOUS: frozenset[tuple[str, str]] = frozenset(
    (f"canonical-online/{step}", source)
    for step in ("max-branch-misclassified", "loss-misclassified")
    for source in ("tight", "adversary")
)

MIN_INSTANCES = 10_000


def canonical_checks() -> tuple[list[Check], set[str], set[str]]:
    """The checks of both proofs, the steps that do not bind and the identities."""
    checks: list[Check] = []
    unbound: set[str] = set()
    identities: set[str] = set()
    for proof_id in PROOFS:
        proof = load_builtin(proof_id)
        assert proof.numeric is not None, proof_id
        stated = statements(proof)
        for step in proof.steps:
            name = f"{proof_id}/{step.id}"
            judgement = statement(proof, stated[step.id])
            if not judgement.symbols():
                identities.add(name)
            binding = binding_of(judgement, proof.numeric.run)
            if binding is None:
                unbound.add(name)
            else:
                checks.append(Check(name, judgement, binding))
    return checks, unbound, identities


#: The dedicated budget: scenarios per source for each group of row sets. State rows are
#: few per run (one per iterate), so the state group needs the most runs; every group reaches
#: 10,000 instances per step and source. Scenarios are built once and shared by the groups.
PLAN: dict[str, tuple[int, int, int]] = {  # group: (generated, tight, adversary sweeps)
    "state": (2500, 1900, 21),
    "example": (300, 350, 2),
    "batch": (900, 1150, 11),
}


def group_of(check: Check) -> str:
    """The PLAN group of a check's row set."""
    return "batch" if check.binding.startswith("batch") else check.binding


def coverage_scenarios() -> dict[str, list[Scenario]]:
    """The scenarios of each source, as many as the largest group needs."""
    return {
        "generated": list(generated(seed=50_000, count=max(p[0] for p in PLAN.values()))),
        "tight": list(tight(seed=60_000, count=max(p[1] for p in PLAN.values()))),
        "adversary": list(adversary(seed=70_000, bounds=range(1, 31),
                                    sweeps=max(p[2] for p in PLAN.values()))),
    }


def test_the_bindable_and_identity_steps_are_pinned() -> None:
    checks, unbound, identities = canonical_checks()
    assert unbound == NOT_BINDABLE
    assert identities == IDENTITIES
    total = sum(len(load_builtin(p).steps) for p in PROOFS)
    assert len(checks) == total - len(NOT_BINDABLE)


def test_loss_and_gradient_steps_bind_the_state_example_rows() -> None:
    checks, _, _ = canonical_checks()
    bindings = {c.name: c.binding for c in checks}
    for step in ("max-branch-correct", "loss-correct", "loss-sum-step", "gradient-sum-step",
                 "gradient-sum-bias-step"):
        assert bindings[f"canonical-online/{step}"] == "example", step
    assert bindings["canonical-batch/margin-sum"] == "batch-member"
    assert bindings["canonical-batch/iteration-decrease"] == "batch-iteration"
    assert bindings["canonical-batch/iterations"] == "batch-state"


def test_small_campaign_checks_every_step_non_vacuously() -> None:
    checks, _, _ = canonical_checks()
    result = run_campaign(checks, {"generated": generated(seed=1, count=30),
                                   "tight": tight(seed=2, count=30),
                                   "adversary": adversary(seed=3, bounds=range(1, 11), sweeps=1)})
    for check in checks:
        verdicts = [result.verdicts[(check.name, s)] for s in ("generated", "tight", "adversary")]
        assert all(v.status != "violated" for v in verdicts), check.name
        assert any(v.status == "held" for v in verdicts), check.name


@pytest.mark.slow
def test_every_step_holds_on_10000_instances_per_source_with_zero_slack_where_tight() -> None:
    checks, _, _ = canonical_checks()
    scenarios = coverage_scenarios()
    verdicts = {}
    for group, sizes in PLAN.items():
        chosen = [c for c in checks if group_of(c) == group]
        counts = dict(zip(("generated", "tight", "adversary"), sizes, strict=True))
        counts["adversary"] *= 30  # sweeps of the bounds 1..30
        sources = {name: scenarios[name][:count] for name, count in counts.items()}
        verdicts.update(run_campaign(chosen, sources).verdicts)
    assert {group_of(c) for c in checks} == set(PLAN)
    for check in checks:
        for source in ("generated", "tight", "adversary"):
            verdict = verdicts[(check.name, source)]
            assert verdict.status != "violated", (check.name, source, verdict)
            assert verdict.instances >= MIN_INSTANCES, (check.name, source, verdict.instances)
    vacuous = {(c.name, s) for c in checks for s in ("generated", "tight", "adversary")
               if verdicts[(c.name, s)].status == "not-run"}
    assert vacuous == VACUOUS, sorted(vacuous ^ VACUOUS)
    for name in TIGHT:
        for source in ("tight", "adversary"):
            assert verdicts[(name, source)].min_slack == 0, (name, source)
