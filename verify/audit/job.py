"""The audit: every built-in proof, each step judged symbolically and numerically.

Symbolically a step is decided by the proof checker (certificate or counterexample, both
re-checked by the kernel). Numerically its *statement* (hypotheses |- claim, divisions
cleared) is evaluated exactly on the rows of adversarial runs (`verify.vocabulary`) when its
proof declares `[numeric]` (its names, renamed, denote run quantities of the declared
algorithm) and every name of the step is bound; otherwise it is `not-run`. A numeric
violation is turned into a kernel counterexample and re-checked before it is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Literal

import sympy

from perceptron.algorithms.sources import SOURCE_ALGORITHMS
from proofs.language.expressions import Relation
from proofs.language.terms import gram, gram_pair, scalar
from proofs.library import CANONICAL, PROOFS, load_builtin
from proofs.step import Proof, Step
from verify import kernel
from verify.audit import citations
from verify.kernel import Counterexample, Fact, Judgement
from verify.kernel.algebra import normal_form
from verify.numeric import campaign
from verify.numeric.algorithms import OWN_ALGORITHMS
from verify.numeric.budgets import BUDGETS
from verify.numeric.campaign import Check, Scenario
from verify.numeric.executors import executor
from verify.numeric.instances import Instance, NumericVerdict
from verify.numeric.shards import RealData, Shard, budget_shards, real_data, run_shard
from verify.proof_checker import StepReport, check_step, detached, replay, statements
from verify.search.work import DEFAULT_BUDGET
from verify.vocabulary import PASS_BINDINGS, Binding, binding_for

ProofStatus = Literal["verified", "has-findings", "incomplete"]
Progress = Callable[[int, int, str], None]
"""Called as `progress(done, total, message)`; units are proof steps and campaign sources."""


@dataclass(frozen=True)
class StepAudit:
    """One step: its symbolic report and its numeric verdict (None: names not bindable)."""

    step: Step
    symbolic: StepReport
    numeric: NumericVerdict | None

    @property
    def hypotheses(self) -> tuple[kernel.Rel | Relation, ...]:
        """Every hypothesis of the kernel's statement (the step's own if it has none)."""
        stated = self.symbolic.statement
        return stated.hypotheses if stated is not None else self.step.hypotheses

    @property
    def statement(self) -> str:
        """The full statement the kernel read: naturals, runs, inherited hypotheses."""
        return self.symbolic.statement_text

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
    real_data: RealData = "not used"  # were the campaign's dataset files found (real_data)

    def _repr_html_(self) -> str:
        """Jupyter: each proof's verdict and its findings."""
        from verify.render.notebook import table

        rows = [(p.id, p.status, ", ".join(s.step.id for s in p.steps if s.finding) or "-")
                for p in self.proofs]
        return table(("proof", "status", "findings"), rows, f"audit (seed {self.seed})")

    def passed(self, *, strict: bool = False) -> bool:
        """Both canonical proofs verified (and, with `strict`, every audited proof)."""
        required = [p for p in self.proofs if strict or p.id in CANONICAL]
        return all(p.status == "verified" for p in required)


def statement(proof: Proof, stated: kernel.Statement) -> Judgement:
    """A step's statement as one judgement in the run vocabulary, divisions cleared (their
    conditions become hypotheses: the statement says nothing where they fail)."""
    forms = [normal_form(r, r.text) for r in (*stated.hypotheses, stated.claim)]
    claim, conditions = forms.pop()
    hypotheses = tuple(dict.fromkeys(
        [f for fact, side in forms for f in (*side, fact)] + list(conditions)))
    rename = proof.numeric.rename if proof.numeric is not None else (lambda name: name)

    def renamed(symbol: sympy.Symbol) -> sympy.Symbol:
        pair = gram_pair(symbol)
        return gram(*map(rename, pair)) if pair else scalar(rename(symbol.name))

    symbols = {s: renamed(s) for fact in (*hypotheses, claim) for s in fact.expr.free_symbols}
    return Judgement(
        tuple(Fact(f.expr.xreplace(symbols), f.kind) for f in hypotheses),
        Fact(claim.expr.xreplace(symbols), claim.kind),
        vectors=tuple(map(rename, proof.vectors)),
        scalars=tuple(map(rename, proof.scalars)),
    )


def binding_of(judgement: Judgement, run: str = "online") -> Binding | None:
    """The first row set of `run` binding every name used (`verify.vocabulary.BINDINGS`)."""
    names: set[str] = set()
    for symbol in judgement.symbols():
        names.update(gram_pair(symbol) or (symbol.name,))
    return binding_for(names, run)


def run_audit(
    ids: Sequence[str] | None = None,
    *,
    seed: int = 0,
    budget: str = "default",
    guard: float | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
) -> Audit:
    """Audit the proofs `ids` (all built-in proofs by default).

    Only proofs that declare `[numeric] run = "online"` (or `"batch"`) are checked on runs:
    the declaration says their names are run quantities and their standing assumptions
    (update rule, `R2` the largest squared norm, ...) hold on every run of the default
    perceptron (or of the batch perceptron with the oracle-optimal step), or of the source
    algorithm named by `[numeric] algorithm` (its rule, sign(0), bias: its own iterates).
    With `jobs` > 1 the proofs, and the campaign's shards (`verify.numeric.shards`), are
    checked in that many processes; with `scheduler` (a Dask address, `tcp://HOST:PORT`) the
    shards run on that cluster's workers instead. Shards do not depend on either, and their
    verdicts are merged in shard order, so the report is the same every way.
    """
    say = progress or (lambda _done, _total, _message: None)
    chosen = list(ids) if ids else list(PROOFS)
    proofs = {proof_id: load_builtin(proof_id) for proof_id in chosen}

    if jobs <= 1 and scheduler is None:
        plan = _plan(proofs, budget, seed, guard)
        verdicts, reports = _serially(plan, say)
    else:
        with executor(jobs) as local, (executor(scheduler=scheduler) if scheduler is not None
                                       else nullcontext(local)) as numeric:
            # With a pool, the proofs go first: it checks them while this process states
            # every step for the campaign (a few seconds of SymPy it would otherwise wait on).
            early = _submit_symbolic(local, proofs, guard) if jobs > 1 else None
            plan = _plan(proofs, budget, seed, guard)
            verdicts, reports = _in_parallel(plan, say, local, numeric, early)
    checks = plan.checks
    say(plan.total, plan.total, "done")
    numeric = _merged(checks, verdicts)

    audits = []
    for proof_id, proof in proofs.items():
        steps = tuple(
            StepAudit(step, report, numeric.get(f"{proof_id}/{step.id}"))
            for step, report in zip(proof.steps, reports[proof_id], strict=True)
        )
        audits.append(ProofAudit(proof_id, proof, _source(proof), steps))
    return Audit(tuple(audits), seed, budget, real_data(plan.shards))


def _plan(proofs: Mapping[str, Proof], budget: str, seed: int, guard: float | None) -> _Plan:
    """The checks of every step whose names are run quantities, and the campaign's shards."""
    checks: list[Check] = []
    for proof_id, proof in proofs.items():
        if proof.numeric is None:
            continue
        algorithm = proof.numeric.algorithm
        known = (*SOURCE_ALGORITHMS, *OWN_ALGORITHMS)
        if algorithm is not None and algorithm not in known:
            raise ValueError(f"{proof_id}: numeric.algorithm {algorithm!r} is no known "
                             f"algorithm (known: {', '.join(known)})")
        stated = statements(proof)
        for step in proof.steps:
            if (full := stated[step.id]) is None:
                continue
            judgement = statement(proof, full)
            binding = binding_of(judgement, proof.numeric.run)
            if binding is not None:
                checks.append(Check(f"{proof_id}/{step.id}", judgement, binding, algorithm))
    single = {c.binding in PASS_BINDINGS for c in checks}
    shards = budget_shards(BUDGETS[budget], seed, passes=True in single,
                           runs=False in single) if checks else ()
    return _Plan(proofs, tuple(checks), shards, guard)


def _submit_symbolic(pool: Executor, proofs: Mapping[str, Proof], guard: float | None
                     ) -> dict[Future[tuple[StepReport, ...]], str]:
    """Every proof's check submitted to `pool`, longest proofs first (so that no worker
    starts a long proof last)."""
    return {pool.submit(_symbolic_builtin, proof_id, guard): proof_id
            for proof_id in sorted(proofs, key=lambda p: -len(proofs[p].steps))}


@dataclass(frozen=True)
class _Plan:
    """The independent units of an audit: each proof's steps, each campaign shard."""

    proofs: Mapping[str, Proof]
    checks: tuple[Check, ...]
    shards: tuple[Shard, ...]
    guard: float | None

    @property
    def total(self) -> int:
        """Progress units: one per step and one per shard."""
        return len(self.shards) + sum(len(p.steps) for p in self.proofs.values())


Verdicts = dict[tuple[str, str], NumericVerdict]
Reports = dict[str, tuple[StepReport, ...]]


def _serially(plan: _Plan, say: Progress) -> tuple[Verdicts, Reports]:
    """Every unit in this process, reporting progress step by step."""
    parts = []
    for done, shard in enumerate(plan.shards):
        say(done, plan.total, f"numeric: {len(plan.checks)} statements on {_name(shard)}")
        parts.append(_shard_verdicts(plan.checks, shard))
    verdicts = _in_order(parts)
    done = len(plan.shards)
    reports: Reports = {}
    for proof_id, proof in plan.proofs.items():
        def before(checked: int, step: Step, proof_id: str = proof_id, start: int = done) -> None:
            say(start + checked, plan.total, f"symbolic: {proof_id} {step.id}")

        reports[proof_id] = _symbolic(proof, plan.guard, before)
        done += len(proof.steps)
    return verdicts, reports


def _in_parallel(plan: _Plan, say: Progress, local: Executor, numeric: Executor,
                 symbolic: dict[Future[tuple[StepReport, ...]], str] | None = None
                 ) -> tuple[Verdicts, Reports]:
    """Proofs on `local` (unless already submitted: `symbolic`), campaign shards on `numeric`
    (the same pool, or a Dask cluster's), reporting progress as each finishes; shard
    verdicts merged in shard order."""
    parts: dict[int, Verdicts] = {}
    reports: Reports = {}
    proofs = plan.proofs
    # Shards before proofs run here: on a cluster they start while the proofs are checked.
    # Submitted last shard first: the real datasets and the adversary's largest bounds come
    # late in shard order and cost the most, so they start first and leave no long tail.
    # (Only the submission order; the verdicts are merged in shard order.)
    campaigns = {numeric.submit(_shard_verdicts, plan.checks, plan.shards[index]): index
                 for index in reversed(range(len(plan.shards)))}
    if symbolic is None:
        symbolic = _submit_symbolic(local, proofs, plan.guard)
    say(0, plan.total, f"{len(campaigns) + len(symbolic)} tasks")
    done = 0
    for task in as_completed([*campaigns, *symbolic]):
        if task in symbolic:
            name = symbolic[task]
            reports[name] = replay(proofs[name], task.result())
            done += len(proofs[name].steps)
        else:
            index = campaigns[task]
            parts[index] = task.result()
            name = _name(plan.shards[index])
            done += 1
        say(done, plan.total, f"done: {name}")
    return _in_order(parts[i] for i in range(len(plan.shards))), reports


def _symbolic(
    proof: Proof, guard: float | None, before: Callable[[int, Step], None] | None = None
) -> tuple[StepReport, ...]:
    """Every step of `proof` checked in order (later steps may use earlier reports)."""
    reports: dict[str, StepReport] = {}
    for index, step in enumerate(proof.steps):
        if before is not None:
            before(index, step)
        # the default search budget whatever the campaign size: the findings never depend on it
        reports[step.id] = check_step(proof, step, budget=DEFAULT_BUDGET, guard=guard,
                                      earlier=reports)
    return tuple(reports.values())


def _symbolic_builtin(proof_id: str, guard: float | None) -> tuple[StepReport, ...]:
    """`_symbolic` of a built-in proof, loaded where it runs (a worker process), detached
    from its kernel values (`replay` makes them again in the parent)."""
    return tuple(map(detached, _symbolic(load_builtin(proof_id), guard)))


def _shard_verdicts(checks: Sequence[Check], shard: Shard) -> Verdicts:
    """The verdicts per (check, source) of one shard (its scenarios built where it runs)."""
    return run_shard(checks, shard).verdicts


def _in_order(parts: Iterable[Verdicts]) -> Verdicts:
    """Shard verdicts merged per (check, source), in the order given (shard order)."""
    merged: Verdicts = {}
    for part in parts:
        for key, verdict in part.items():
            merged[key] = merged.get(key, NumericVerdict.empty()).merge(verdict)
    return merged


def _name(shard: Shard) -> str:
    """A shard as progress messages name it."""
    return f"{shard.source} runs {shard.start}-{shard.stop - 1}"


def _numeric(
    checks: Sequence[Check], sources: Mapping[str, Iterable[Scenario]]
) -> dict[str, NumericVerdict]:
    """Merged verdict per check over all sources; violations re-checked by the kernel."""
    return _merged(checks, campaign.run_campaign(checks, sources).verdicts)


def _merged(
    checks: Sequence[Check], verdicts: Mapping[tuple[str, str], NumericVerdict]
) -> dict[str, NumericVerdict]:
    """One verdict per check, sources merged in name order; violations kernel-checked."""
    merged: dict[str, NumericVerdict] = {}
    for (name, _source_name), verdict in sorted(verdicts.items()):
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
    """Where the proof comes from: its own `source`, else the works its steps cite."""
    return citations.proof_source(proof.source, (s.source for s in proof.steps))
