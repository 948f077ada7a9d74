"""The audit: every built-in proof, each step judged symbolically and numerically.

Symbolically a step is decided by the proof checker (certificate or counterexample, both
re-checked by the kernel). Numerically its *statement* (hypotheses |- claim, divisions
cleared) is evaluated exactly on every update or state of adversarial runs whenever all its
names belong to the run vocabulary (`verify.vocabulary`); otherwise it is `not-run`. A
numeric violation is turned into a kernel counterexample and re-checked before it is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from proofs.division import admit
from proofs.judgement import Fact, Judgement
from proofs.library import CANONICAL, PROOFS, load_builtin
from proofs.normal_form import fact_of
from proofs.step import Proof, Step
from proofs.terms import gram, gram_pair, scalar
from verify import campaign, kernel
from verify.campaign import Check, Scenario
from verify.certificate import Counterexample
from verify.numeric import Instance, NumericVerdict
from verify.proof_checker import StepReport, check_step
from verify.vocabulary import ONLINE_STATE_NAMES, ONLINE_UPDATE_NAMES, Binding

ProofStatus = Literal["verified", "has-findings", "incomplete"]
Progress = Callable[[str], None]


@dataclass(frozen=True)
class Budget:
    """Campaign sizes: how many runs each adversarial source contributes."""

    generated: int
    tight: int
    adversary_bounds: int
    orders: int

    def sources(self, seed: int) -> dict[str, Iterable[Scenario]]:
        """The seeded sources of this budget (the seed is printed in every origin)."""
        sources: dict[str, Iterable[Scenario]] = {
            "generated": campaign.generated(seed, self.generated),
            "tight": campaign.tight(seed, self.tight),
            "adversary": campaign.adversary(
                seed, tuple(range(1, self.adversary_bounds + 1)), sweeps=1
            ),
        }
        if self.orders:
            sources["orders"] = campaign.orders(seed, self.orders)
        return sources


BUDGETS: dict[str, Budget] = {
    "small": Budget(generated=20, tight=20, adversary_bounds=10, orders=0),
    "default": Budget(generated=150, tight=150, adversary_bounds=50, orders=5),
    "large": Budget(generated=1500, tight=1500, adversary_bounds=50, orders=50),
}


@dataclass(frozen=True)
class StepAudit:
    """One step: its symbolic report and its numeric verdict (None: names not bindable)."""

    step: Step
    symbolic: StepReport
    numeric: NumericVerdict | None

    @property
    def finding(self) -> bool:
        """A refuted step or a numerically violated statement."""
        violated = self.numeric is not None and self.numeric.status == "violated"
        return self.symbolic.status == "refuted" or violated


@dataclass(frozen=True)
class ProofAudit:
    """One built-in proof and the audit of each of its steps."""

    id: str
    proof: Proof
    source: str
    steps: tuple[StepAudit, ...]

    @property
    def status(self) -> ProofStatus:
        """verified: every step proved, nothing violated; has-findings: something failed."""
        if any(s.finding for s in self.steps):
            return "has-findings"
        if all(s.symbolic.status == "proved" for s in self.steps):
            return "verified"
        return "incomplete"


@dataclass(frozen=True)
class Audit:
    """The whole audit, with the settings that reproduce it."""

    proofs: tuple[ProofAudit, ...]
    seed: int
    budget: str

    def passed(self, *, strict: bool = False) -> bool:
        """Both canonical proofs verified (and, with `strict`, every audited proof)."""
        required = [p for p in self.proofs if strict or p.id in CANONICAL]
        return all(p.status == "verified" for p in required)


def statement(proof: Proof, step: Step) -> Judgement:
    """The step's statement as one judgement, divisions cleared, in the run vocabulary."""
    admission = admit(proof.hypotheses(step), step.claim, proof.names)
    binding = proof.numeric
    rename = binding.rename if binding is not None else (lambda name: name)
    symbols = {
        symbol: gram(*map(rename, pair)) if (pair := gram_pair(symbol)) else scalar(
            rename(symbol.name))
        for relation in (*admission.hypotheses, admission.claim)
        for symbol in (relation.lhs - relation.rhs).free_symbols
    }
    return Judgement(
        tuple(Fact(f.expr.xreplace(symbols), f.kind) for f in map(fact_of, admission.hypotheses)),
        Fact(fact_of(admission.claim).expr.xreplace(symbols), fact_of(admission.claim).kind),
        vectors=tuple(map(rename, proof.vectors)),
        scalars=tuple(map(rename, proof.scalars)),
    )


def binding_of(judgement: Judgement) -> Binding | None:
    """State rows when every name is a state quantity, update rows when an update one."""
    names: set[str] = set()
    for symbol in judgement.symbols():
        names.update(gram_pair(symbol) or (symbol.name,))
    if names <= set(ONLINE_STATE_NAMES):
        return "state"
    if names <= set(ONLINE_UPDATE_NAMES):
        return "update"
    return None


def run_audit(
    ids: Sequence[str] | None = None,
    *,
    seed: int = 0,
    budget: str = "default",
    time_limit: float = 10.0,
    progress: Progress | None = None,
) -> Audit:
    """Audit the proofs `ids` (all built-in proofs by default).

    Only proofs that declare `[numeric] run = "online"` are checked on runs: the declaration
    says their names are run quantities and their standing assumptions (update rule,
    `R2` the largest squared norm, ...) hold on every run of the default perceptron.
    """
    say = progress or (lambda _message: None)
    chosen = list(ids) if ids else list(PROOFS)
    proofs = {proof_id: load_builtin(proof_id) for proof_id in chosen}

    checks: list[Check] = []
    for proof_id, proof in proofs.items():
        if proof.numeric is None:
            continue
        for step in proof.steps:
            judgement = statement(proof, step)
            binding = binding_of(judgement)
            if binding is not None:
                checks.append(Check(f"{proof_id}/{step.id}", judgement, binding))
    say(f"numeric: {len(checks)} statements on the {budget} campaign, seed {seed}")
    numeric = _numeric(checks, BUDGETS[budget].sources(seed)) if checks else {}

    audits = []
    for proof_id, proof in proofs.items():
        reports: dict[str, StepReport] = {}
        steps = []
        for index, step in enumerate(proof.steps, 1):
            say(f"symbolic: {proof_id} {index}/{len(proof.steps)} {step.id}")
            reports[step.id] = check_step(proof, step, time_limit=time_limit, earlier=reports)
            steps.append(StepAudit(step, reports[step.id], numeric.get(f"{proof_id}/{step.id}")))
        audits.append(ProofAudit(proof_id, proof, _source(proof), tuple(steps)))
    return Audit(tuple(audits), seed, budget)


def _numeric(
    checks: Sequence[Check], sources: Mapping[str, Iterable[Scenario]]
) -> dict[str, NumericVerdict]:
    """Merged verdict per check over all sources; violations re-checked by the kernel."""
    result = campaign.run_campaign(checks, sources)
    merged: dict[str, NumericVerdict] = {}
    for (name, _source_name), verdict in sorted(result.verdicts.items()):
        merged[name] = merged.get(name, NumericVerdict.empty()).merge(verdict)
    judgements = {c.name: c.judgement for c in checks}
    for name, verdict in merged.items():
        if verdict.counterexample is not None:
            kernel.check_counterexample(judgements[name], as_counterexample(verdict.counterexample))
    return merged


def as_counterexample(instance: Instance) -> Counterexample:
    """A numeric instance in the kernel's counterexample form."""
    return Counterexample(dict(instance.scalars), dict(instance.vectors))


def _source(proof: Proof) -> str:
    """Where the proof comes from: its own `source`, else the files its steps cite."""
    if proof.source:
        return proof.source
    cited = dict.fromkeys(s.source.split(",")[0].split(";")[0].strip() for s in proof.steps)
    return "; ".join(c for c in cited if c)
