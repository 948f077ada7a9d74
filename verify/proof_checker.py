"""Checking a whole proof: every step's judgements decided, re-checked by the kernel, combined.

A step is proved only when every one of its judgements is (its rule's, and the side
conditions of its divisions) and every step it uses is proved; it is refuted when a decisive
judgement is refuted (its counterexample is one to the step itself); otherwise it is unknown.
The prover already consults the kernel; the checker asks the kernel again, so no bug in the
search can make this report say proved or refuted without evidence that checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from time import perf_counter

from proofs.judgement import Judgement
from proofs.normal_form import fact_of
from proofs.step import Goal, Proof, Step
from verify import kernel
from verify.certificate import Certificate, Counterexample
from verify.prover import decide
from verify.verdict import Status, Verdict

Progress = Callable[[int, int, Step], None]
"""Called as `progress(index, total, step)` before each step is checked."""


@dataclass(frozen=True)
class GoalReport:
    """One judgement of a step and its verdict."""

    goal: Goal
    judgement: Judgement
    verdict: Verdict


@dataclass(frozen=True)
class StepReport:
    """The combined outcome of one step."""

    step: Step
    status: Status
    message: str
    seconds: float
    goals: tuple[GoalReport, ...]

    @property
    def certificates(self) -> tuple[Certificate, ...]:
        """The certificates of the proved judgements, in order."""
        return tuple(
            g.verdict.certificate for g in self.goals if g.verdict.certificate is not None
        )

    @property
    def counterexample(self) -> Counterexample | None:
        """The counterexample that refutes the step, if it is refuted."""
        for g in self.goals:
            refutes = g.goal.decisive and g.verdict.counterexample is not None
            if self.status == "refuted" and refutes:
                return g.verdict.counterexample
        return None


@dataclass(frozen=True)
class ProofReport:
    """Every step's outcome; the proof is proved only when all its steps are."""

    title: str
    steps: tuple[StepReport, ...]

    @property
    def status(self) -> Status:
        """proved if every step is, refuted if any is, else unknown."""
        statuses = {s.status for s in self.steps}
        if statuses <= {"proved"}:
            return "proved"
        return "refuted" if "refuted" in statuses else "unknown"

    @property
    def seconds(self) -> float:
        """Total time spent deciding."""
        return sum(s.seconds for s in self.steps)


def check_proof(
    proof: Proof, *, time_limit: float = 5.0, progress: Progress | None = None
) -> ProofReport:
    """Decide every step of `proof`, each within `time_limit` seconds."""
    done: dict[str, StepReport] = {}
    for index, step in enumerate(proof.steps):
        if progress is not None:
            progress(index, len(proof.steps), step)
        done[step.id] = check_step(proof, step, time_limit=time_limit, earlier=done)
    return ProofReport(proof.title, tuple(done.values()))


def check_step(
    proof: Proof,
    step: Step,
    *,
    time_limit: float = 5.0,
    earlier: dict[str, StepReport] | None = None,
) -> StepReport:
    """Decide the judgements of one step and combine them; `earlier` holds used steps."""
    start = perf_counter()
    deadline = start + time_limit
    reports: list[GoalReport] = []
    for goal in proof.goals(step):
        judgement = judgement_of(proof, goal)
        remaining = deadline - perf_counter()
        if remaining <= 0:
            verdict = Verdict("unknown", None, None, f"time limit {time_limit:g}s reached", 0.0)
        else:
            verdict = _decide(proof, step, goal, judgement, remaining)
        reports.append(GoalReport(goal, judgement, verdict))
        if verdict.status == "refuted" and goal.decisive:
            break
    status, message = _combine(step, reports, earlier or {})
    return StepReport(step, status, message, perf_counter() - start, tuple(reports))


def _decide(
    proof: Proof, step: Step, goal: Goal, judgement: Judgement, time_limit: float
) -> Verdict:
    """Decide `judgement`, trying it first without the hypotheses inherited through `uses`.

    Those only weaken the statement (they are there for soundness), but they enlarge the
    search; a certificate from fewer hypotheses, re-indexed, is one for all of them. Only a
    proof is taken from the smaller judgement: refuting it would not refute the step.
    """
    inherited = proof.inherited(step)
    keep = tuple(i for i, h in enumerate(goal.hypotheses) if h not in inherited)
    if len(keep) < len(goal.hypotheses):
        start = perf_counter()
        core = replace(judgement, hypotheses=tuple(judgement.hypotheses[i] for i in keep))
        found = decide(core, hints=step.hints, time_limit=time_limit / 2)
        if found.certificate is not None:
            return confirmed(judgement, replace(found, certificate=reindexed(found.certificate,
                                                                             keep)))
        time_limit -= perf_counter() - start
    return confirmed(judgement, decide(judgement, hints=step.hints, time_limit=time_limit))


def reindexed(certificate: Certificate, keep: tuple[int, ...]) -> Certificate:
    """`certificate` for hypotheses `keep[i]` of a larger judgement instead of `i`."""
    return Certificate(
        tuple(replace(p, hyps=tuple(keep[i] for i in p.hyps)) for p in certificate.products),
        tuple((keep[j], q) for j, q in certificate.linear),
        tuple(keep[i] for i in certificate.multiplier),
    )


def judgement_of(proof: Proof, goal: Goal) -> Judgement:
    """The kernel's form of `goal`: facts `gap (kind) 0`."""
    return Judgement(
        tuple(fact_of(h) for h in goal.hypotheses),
        fact_of(goal.claim),
        vectors=proof.vectors,
        scalars=proof.scalars,
    )


def confirmed(judgement: Judgement, verdict: Verdict) -> Verdict:
    """`verdict` if the kernel accepts its evidence, else unknown saying what was rejected."""
    try:
        if verdict.certificate is not None:
            kernel.check_certificate(judgement, verdict.certificate)
        if verdict.counterexample is not None:
            kernel.check_counterexample(judgement, verdict.counterexample)
    except kernel.KernelError as error:
        return Verdict("unknown", None, None, f"kernel rejected: {error}", verdict.seconds)
    return verdict


def _combine(
    step: Step, reports: list[GoalReport], earlier: dict[str, StepReport]
) -> tuple[Status, str]:
    for report in reports:
        if report.goal.decisive and report.verdict.status == "refuted":
            return "refuted", _labelled(report, len(reports))
    unproved = [r for r in reports if r.verdict.status != "proved"]
    if unproved:
        return "unknown", "; ".join(_labelled(r, len(reports)) for r in unproved)
    pending = [n for n in step.uses if (used := earlier.get(n)) is None or used.status != "proved"]
    if pending:
        return "unknown", f"proved from unproved step(s) {', '.join(pending)}"
    if len(reports) == 1:
        return "proved", reports[0].verdict.message
    return "proved", f"{len(reports)} judgements proved: " + ", ".join(
        r.goal.label for r in reports
    )


def _labelled(report: GoalReport, count: int) -> str:
    message = report.verdict.message
    if report.goal.label == "step" and report.verdict.status == "refuted":
        message = f"invariant is not inductive ({message})"
    return message if count == 1 else f"{report.goal.label}: {message}"
