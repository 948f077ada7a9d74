"""The audit: built-in proofs and users' proof files, each step judged symbolically and
numerically.

Symbolically a step is decided by the proof checker (certificate or counterexample, both
re-checked by the kernel). Numerically its *statement* (hypotheses |- claim, divisions
cleared) is evaluated exactly on the rows of adversarial runs (`verify.runs`) when its
proof declares `[numeric]` (its names, or the expressions they are bound to, denote run
quantities of the declared kind and algorithm: `verify.runs.naming`) and one row set binds every
quantity of the step; otherwise it is `not-run`, with the reason. A numeric violation is
turned into a kernel counterexample and re-checked before it is reported; a step whose
violations the kernel confirmed none of has no verdict on runs either (`not-run`), its
reason saying it was run (`UNREPORTED`).

A user's proof file goes through exactly the path of a built-in proof (`verify.audit.targets`);
a file that cannot be read, a name bound to nothing a run offers, or a data file that fails
is one line in `Audit.errors`, and the other proofs are audited and reported all the same.
"""

from __future__ import annotations

import gc
import hashlib
import itertools
import os
import pickle
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal

import sympy

from perceptron.errors import DataError, each_error, printable
from perceptron.io.common import DEFAULT_LIMITS, Limits
from proofs.errors import ProofFileError
from proofs.language.expressions import Relation
from proofs.library import CANONICAL, PROOFS
from proofs.step import Induction, Proof, Step
from verify import kernel
from verify.audit import citations
from verify.audit.membership import (
    BASE,
    COUNTER,
    TRUE,
    UPDATE_MAP,
    UPDATES,
    Gaps,
    base_unchecked,
    carried,
    caveat,
    not_its_runs,
    on_its_runs,
    resting,
    started_at,
    statement,
    updates_unchecked,
    with_carried,
)
from verify.audit.membership import unchecked as unchecked_because
from verify.audit.targets import (
    DATA_SOURCE,
    FAULTS,
    Read,
    Target,
    data_scenarios,
    needs_separator,
    read,
    targets,
)
from verify.kernel import Counterexample, Judgement, atoms
from verify.kernel.algebra import normal_form
from verify.kernel.atoms import substitute
from verify.numeric import campaign
from verify.numeric.algorithms import BUILT_IN, naming, with_naming
from verify.numeric.budgets import BUDGETS, MAX_JOBS, PLUGIN_WORK
from verify.numeric.campaign import ROWS_NOT_MADE, CampaignResult, Check
from verify.numeric.executors import executor
from verify.numeric.instances import NumericVerdict
from verify.numeric.shards import (
    RealData,
    Shard,
    budget_shards,
    bundles,
    estimate,
    fewer_collections,
    longest_first,
    merge,
    real_data,
    run_shards,
)
from verify.proof_checker import (
    NeedsSearch,
    StepReading,
    StepReport,
    check_proof,
    detached,
    readings,
    recall_only,
    replay,
    statements_of,
    terms,
    with_refusals,
)
from verify.runs.columns import Instance
from verify.runs.naming import (
    Naming,
    Reading,
    binding_of,
    labelled_on_runs,
    natural_terms,
    slack_scale,
    unbound,
)
from verify.runs.plugin import Plugin, Ran, at, shared_faults
from verify.runs.quantity import Scenario
from verify.search.work import DEFAULT_BUDGET
from verify.typeset.points import mentioned

ProofStatus = Literal["verified", "has-findings", "incomplete"]
Progress = Callable[[int, int, str], None]
"""Called as `progress(done, total, message)`; units are proof steps and campaign sources."""


@dataclass(frozen=True)
class StepAudit:
    """One step: its symbolic report and its numeric verdict (None: not run, for `reason`)."""

    step: Step
    symbolic: StepReport
    numeric: NumericVerdict | None
    reason: str | None = None  # why it was not run on any run (when numeric is None)
    #: an induction's update facts on the updates of the runs it was checked on: its
    #: `instances` the updates, its `vacuous` those where an update fact fails (`UPDATES`);
    #: None when not checked (no induction, no update facts, or no row binds them)
    updates: NumericVerdict | None = None
    #: why an induction's update facts were not checked on the runs it was checked on
    #: (`membership.updates_check`: cyclic runs and kinds without a row per update, rows
    #: that do not make a quantity they read); None when checked, or no induction checked
    #: on runs
    updates_unchecked: str | None = None
    #: for a step that is no induction but imports inductions' claims (the kernel's
    #: `Statement.runs`), the audits of those inductions (`verify.typeset.statement.
    #: inductions_of`): its statement holds at the states of their runs only
    runs_of: tuple[StepAudit, ...] = ()
    #: for an induction that such a step rests on, the audits of the inductions whose
    #: invariants it carries (its runs are those where they hold at every state)
    carries: tuple[StepAudit, ...] = ()
    #: an induction's base on the rows of the runs it was checked on where its counter is
    #: 0 (`BASE`): `instances - vacuous` those rows, `violations` those where its iterated
    #: names are not at the base (their runs' rows are left out of its verdict:
    #: `NumericVerdict.outside`); None when not checked
    base: NumericVerdict | None = None
    #: why an induction's base was not checked on the runs it was checked on
    #: (`membership.started`)
    base_unchecked: str | None = None
    #: an induction's step map at each update of the runs it was checked on
    #: (`membership.map_check`): `instances` the updates, `vacuous` those where the run
    #: moves otherwise (newcomer 32 N6); None when not checked
    update_map: NumericVerdict | None = None
    #: its counter against the runs' count of updates on the rows its claim was checked on
    #: (`membership.counter_check`): `vacuous` the rows where it is not that count (red
    #: team 30 A6); None when not checked (or the counter is that count by its name)
    counter: NumericVerdict | None = None
    #: why its induction's step was not checked against the updates of the runs it was
    #: checked on, and why its counter was not checked against their count of updates
    #: (`membership.Unchecked`; memb33: said by a violation's caveat only, so a verdict that
    #: held read as checked); None when checked, nothing to check, or not checked on runs
    map_unchecked: str | None = None
    counter_unchecked: str | None = None
    #: why its induction's constants that read quantities its runs do not hold fixed were
    #: not checked to keep one value along them (adv32b O2; `membership.Unchecked`)
    constants_unchecked: str | None = None

    @property
    def unmet_base(self) -> int:
        """At how many rows where its induction's counter is 0 the iterated names are not at
        its base (newcomer 31 F7: batch runs from -u and a seeded start)."""
        return self.base.violations if self.base is not None else 0

    @property
    def starts(self) -> int:
        """How many rows of its runs have its induction's counter at 0 (its base checked)."""
        return self.base.instances - self.base.vacuous if self.base is not None else 0

    @property
    def unmet_map(self) -> int:
        """How many updates of its runs move its induction's iterated names otherwise than
        its step does (newcomer 32 N6)."""
        return self.update_map.vacuous if self.update_map is not None else 0

    @property
    def miscounted(self) -> int:
        """At how many rows of its runs its induction's counter is not the run's count of
        updates (red team 30 A6: a counter bound to `2*t`)."""
        return self.counter.vacuous if self.counter is not None else 0

    @property
    def varied(self) -> tuple[str, ...]:
        """The constants of its induction that take another value along some of its runs
        than at their first row (adv32b O2: a constant bound to a quantity that varies
        along a run); none for a step that is no induction."""
        return (self.numeric.varied if self.numeric is not None
                and isinstance(self.step.rule, Induction) else ())

    @property
    def misbound(self) -> str | None:
        """Why its runs' rows were checked at a binding of its names other than the
        proof's, so that the audit could not check it on the runs it speaks of (its proof is
        then incomplete): its runs update otherwise than its induction's step (newcomer 32
        N6), its counter is not their count of updates (memb33), or its constants change
        along them (adv32b O2); None when none of these."""
        if self.unmet_map:
            return "its runs update otherwise than its step"
        if self.miscounted:
            return "its counter is not its runs' count of updates"
        if self.varied:
            many = len(self.varied) > 1
            return (f"its constant{'s' if many else ''} {', '.join(self.varied)} "
                    f"change{'' if many else 's'} along its runs")
        return None

    @property
    def unmet_updates(self) -> int:
        """How many updates of its runs fail its induction's update facts (newcomer 19: the
        runs of a strict update `y<w,x> < 0` update on `<= 0`, and nothing said so)."""
        return self.updates.vacuous if self.updates is not None else 0

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
    def off_runs(self) -> bool:
        """Violated on runs, and an induction the kernel did not refute: its claim is about
        the runs that start, update and meet the update facts as its induction says, and
        nothing checks that these runs do (a user's algorithm, names bound to other
        quantities, an update other than the algorithm's), so the violation shows the step
        false only if they do (proved: they do not, or a trusted part is wrong)."""
        return (self.numeric is not None and self.numeric.status == "violated"
                and (isinstance(self.step.rule, Induction) or bool(self.runs_of)
                     or bool(self.step.witness))
                and self.symbolic.status != "refuted")

    @property
    def caveat(self) -> str | None:
        """What a violation on runs shows for an induction (`off_runs`), in words that claim
        nothing unchecked, as every output prints it; None for any other step (its
        violation is a counterexample)."""
        if not self.off_runs:
            return None
        if self.step.witness:  # checked at its witness (`witnessed`), not for some value
            named = ", ".join(sorted(self.step.witness))
            return (f"these rows break the claim at the proof's witness for {named}, not the "
                    f"statement, which says that some value of {named} satisfies it: another "
                    "value may, so the violation shows the witness wrong there, not the step "
                    "false")
        return caveat(self)

    @property
    def finding(self) -> bool:
        """A refuted step or a numerically violated statement."""
        violated = self.numeric is not None and self.numeric.status == "violated"
        return self.symbolic.status == "refuted" or violated


@dataclass(frozen=True)
class ProofAudit:
    """One proof (built-in, or a user's file: `file`) and the audit of each of its steps."""

    id: str
    proof: Proof
    source: str
    steps: tuple[StepAudit, ...]
    file: bool = False
    #: the runs the proof asked for that were not made, one line each with its subject (a
    #: data file of its own refused, its plug-in failed or unusable): it cannot be verified
    #: without them
    unmade: tuple[Unmade, ...] = ()
    #: its steps whose runs found violations the kernel confirmed none of (`_unreported`),
    #: one line each: two parts of this tool disagree, so it cannot be verified either
    unconfirmed: tuple[str, ...] = ()
    #: the data files its steps were run on (its `[numeric] data` and `--data`, those read),
    #: as the command line names them, with their examples' count, and the instances
    #: checked on their runs over all its steps (newcomer 19: no output said that a proof's
    #: data were run at all)
    data_files: tuple[DataFile, ...] = ()
    data_instances: int = 0

    @property
    def canonical(self) -> bool:
        """One of the built-in canonical proofs (a user's copy of one is a proof file)."""
        return self.id in CANONICAL and not self.file

    def required(self, strict: bool = False) -> bool:
        """Whether the audit passes only if this proof is verified: a canonical proof, a
        user's proof file (she asked for it), or with `strict` any proof."""
        return strict or self.file or self.canonical

    @property
    def status(self) -> ProofStatus:
        """verified: every step proved, nothing violated, every run it asked for made;
        has-findings: something failed; incomplete: neither (a step unknown, runs of its data
        files or its algorithm not made: `unmade`, violations its runs found that the kernel
        confirmed none of: `unconfirmed`, or runs that update otherwise than an induction's
        step: `StepAudit.unmet_map`, runs of another algorithm than the one it proves things
        of, on which it was checked at their starts only; newcomer 32 N6, red team 9; or
        whose counter is not their count of updates, or along which a constant changes:
        `StepAudit.misbound`)."""
        if any(s.finding for s in self.steps):
            return "has-findings"
        if all(s.symbolic.status == "proved" for s in self.steps) and not (
                self.unmade or self.unconfirmed or any(s.misbound for s in self.steps)):
            return "verified"
        return "incomplete"


@dataclass(frozen=True)
class Unmade:
    """Runs a proof asked for that were not made: why, in one line, and what the line is
    about (`subject`: `plug-in NAME`, a data file as named, `--data PATH`). Every other
    place that gives the same reason names it by its subject only, from this field, not by
    reading the line (the words before a plug-in's first colon may be half its reason:
    "plug-in p raised SystemExit: 3 on ...")."""

    subject: str
    line: str


@dataclass(frozen=True)
class DataFile:
    """A data file a proof's steps were run on: its path as named (a proof's entries joined
    to its folder, a `--data` file as given) and how many examples it has."""

    path: str
    examples: int


@dataclass(frozen=True)
class Witness:
    """A step violated on runs: its check, the scenario of its first counterexample (the one
    its verdict reports), and the proof's name on the command line (`Target.name`)."""

    check: Check
    scenario: Scenario
    target: str
    #: whether the proof needs data with a separator (`_reads_u`): its data file is then
    #: run as the audit runs one (`verify.audit.targets.scenarios_of`)
    read_u: bool = True


def _reads_u(proof: Proof, names: Naming) -> bool:
    """Whether `proof`'s runs on a data file need a separator, its names denoting `names`
    on runs (`verify.audit.targets.needs_separator`)."""
    run = proof.numeric.run if proof.numeric is not None else None
    return needs_separator(run, names.quantities_read(proof.scalars, proof.vectors))


@dataclass(frozen=True)
class Audit:
    """The whole audit, with the settings that reproduce it."""

    proofs: tuple[ProofAudit, ...]
    seed: int
    budget: str
    real_data: RealData = "not used"  # were the campaign's dataset files found (real_data)
    errors: tuple[str, ...] = ()  # proofs, data files or plug-ins refused, one line each
    refused_files: int = 0  # users' proof files that could not be audited (in `errors`)
    #: the run of each violated step's first counterexample, by `PROOF/STEP` (to shrink it)
    witnesses: Mapping[str, Witness] = field(default_factory=dict, compare=False, repr=False)
    #: the data files given to the audit (`data`): files it read, which no counterexample
    #: file may replace (`verify.audit.counterexamples.refused`)
    data: tuple[str, ...] = field(default=(), compare=False, repr=False)
    strict: bool = False  # `--strict`: every proof audited decides `passed` (not only those
    # `ProofAudit.required` names), in every rendering
    #: how the runs of each plug-in that made them ended, one line per plug-in and run kind
    #: (`verify.runs.plugin.Ran.line`): what a verdict on them is a verdict on
    plugins: tuple[str, ...] = ()
    #: the same, as numbers: `(name, kind, Ran)` in the order of `plugins` (`Ran.counts`)
    plugin_ends: tuple[tuple[str, str, Ran], ...] = ()
    #: each plug-in's budget of work (`Plugin.work`): `(name, budget, updates and iterations
    #: its runs checked made, whether the budget cut its runs)`
    plugin_work: tuple[tuple[str, int, int, bool], ...] = ()

    def _repr_html_(self) -> str:
        """Jupyter: each proof's verdict and its findings."""
        from verify.render.notebook import table

        rows = [(p.id, p.status, ", ".join(s.step.id + " (violated on runs: see its caveat)"
                                           * s.off_runs for s in p.steps if s.finding) or "-")
                for p in self.proofs]
        return table(("proof", "status", "findings"), rows, f"audit (seed {self.seed})")

    def problems(self, *, strict: bool | None = None) -> list[str]:
        """Why the audit did not pass, one line each: a refused proof or data file, a
        required proof (`passed`) not verified with its failing steps (`strict`: the
        audit's own setting unless given)."""
        lines = list(self.errors)
        for p in self.proofs:
            if p.required(self.strict if strict is None else strict) and \
                    p.status != "verified":
                steps = [f"{s.step.id} ({_verdict(s)})" for s in p.steps
                         if s.finding or s.symbolic.status != "proved"]
                steps += [f"{s.step.id} ({s.misbound})"
                          for s in p.steps if s.misbound and not s.finding
                          and s.symbolic.status == "proved"]
                steps += [f"runs not made ({each.line})" for each in p.unmade]
                steps += [f"violations on runs not confirmed ({line})" for line in p.unconfirmed]
                lines.append(f"{p.id}: {p.status}: {', '.join(steps)}")
        return lines

    def passed(self, *, strict: bool | None = None) -> bool:
        """Every canonical proof and every user's proof file audited is verified (with
        `strict`, every audited proof; the audit's own setting unless given): a user asked
        for her own proof, so it decides; and nothing asked for was refused (`errors`)."""
        strict = self.strict if strict is None else strict
        return not self.errors and all(p.status == "verified" for p in self.proofs
                                       if p.required(strict))


def _verdict(step: StepAudit) -> str:
    """A failing step's verdict in a word or two: its kernel verdict, and "violated on runs"
    whenever its runs violate it (newcomer 28 F9: an unknown bound that a real run broke read
    only "(unknown)", as if the prover had merely given up)."""
    violated = step.numeric is not None and step.numeric.status == "violated"
    status = step.symbolic.status
    said = ("violated on runs" if status == "proved" else f"{status}; violated on runs") \
        if violated else status
    return f"{said}; {step.caveat}" if step.caveat else said


class UnnamedPlugin(ValueError):
    """A plug-in was given that no proof audited names in `[numeric] algorithm`: it would
    never be called, and the audit would pass without it (red team 9)."""


def refuse_unnamed(chosen: Sequence[Target], names: Iterable[str], what: str) -> None:
    """Raise UnnamedPlugin, one line naming the first plug-in of `names` that no proof of
    `chosen` names in `[numeric] algorithm` (`what` says how the user gave it: `--algorithm`
    on the command line, `plug-in` in the API), and the others after it. Nothing is raised
    when a proof's TOML cannot be read: it may name any of them, and its fault is the
    audit's own line."""
    named: set[str | None] = set()
    for target in chosen:
        try:
            named.add(target.algorithm())
        except (OSError, ValueError, ProofFileError):
            return
    missing = [name for name in dict.fromkeys(names) if name not in named]
    if missing:
        more = f" (nor {', '.join(missing[1:])})" if missing[1:] else ""
        raise UnnamedPlugin(f"{what} {missing[0]}: no proof audited names it ([numeric] "
                            f"algorithm = \"{missing[0]}\"){more}")


def witnessed(proof: Proof, stated: kernel.Statement) -> kernel.Statement:
    """An existential step's statement as the kernel proved it: its claim with the step's
    `witness` substituted (scalars, and vectors inside every Gram symbol, at once: the
    kernel's own substitution), no name left bound. On runs the claim `exists R2: norm2(w)
    <= R2` is checked at the witness the proof gives, `norm2(w)`, evaluated on each row;
    red team 10 saw it checked at the online runs' quantity R2 (violated on 9 719 of
    13 517 rows, "false as written") or at whatever `[numeric] names` bound R2 to. The
    hypotheses name no witnessed name (the kernel refuses it), so only the claim changes."""
    step = next(s for s in proof.steps if s.id == stated.step)
    mapping = terms(dict(step.witness))
    scalars = {n: t for n, t in mapping.items() if not isinstance(t, dict)}
    vectors = {n: t for n, t in mapping.items() if isinstance(t, dict)}

    def sub(e: sympy.Expr) -> sympy.Expr:
        return substitute(e, scalars, vectors)  # type: ignore[arg-type]

    claim = stated.claim
    return replace(stated, exists=(), claim=kernel.Rel(
        sub(claim.lhs), claim.op, sub(claim.rhs), claim.text,
        tuple(sub(d) for d in claim.divisors)))


def run_audit(
    ids: Sequence[str] | None = None,
    *,
    data: Sequence[str] = (),
    seed: int = 0,
    budget: str = "default",
    guard: float | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    algorithms: Mapping[str, Plugin] | None = None,
    refused: Sequence[tuple[str, str]] = (),
    search: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    named_checked: bool = False,
) -> Audit:
    """Audit the proofs `ids`: built-in ids or proof files, mixed (all built-in proofs by
    default), each also on the data files `data` (and on its own `[numeric] data`).

    Only proofs that declare `[numeric] run = KIND` (a kind of the registry `verify.runs`:
    online, batch, single-pass, or one a user registered) are checked on runs: the
    declaration says their names are run quantities and their standing assumptions (update
    rule, `R2` the largest squared norm, ...) hold on every run of that kind's default
    algorithm (the perceptron, the batch perceptron with the oracle-optimal step, one pass),
    or of the source algorithm named by `[numeric] algorithm` (its rule, sign(0), bias: its
    own iterates), or of the user's plug-in of that name in `algorithms`
    (`verify.runs.plugin`: no plug-in runs unless given here; a fault of one is a line of
    `errors`, its proofs not verified, their steps checked on the runs of the shards before
    the fault only; one that timed out is called no more for a later shard in any process).
    `refused`: the plug-ins given that could not be used (loaded, named), as `(name,
    fault)`: each fault is a line of `errors`, and the proofs naming such a plug-in are
    audited with their steps not run on runs (not refused as naming an unknown algorithm:
    the user gave one, the line says what is wrong with it). Data files are read within
    `limits` (`perceptron.io.common.Limits`: the command line's `--max-cells` and
    `--max-scaled-bits`). A plug-in given (in `algorithms` or `refused`) that no proof audited
    names raises UnnamedPlugin (a ValueError) before any work: it would never run
    (`named_checked`: the caller refused such plug-ins already with `refuse_unnamed`, as the
    command line does before loading their code, so no proof's TOML is read a second time).
    With `jobs` > 1 the proofs, and the campaign's shards (`verify.numeric.shards`), are
    checked in that many processes; with `scheduler` (a Dask address, `tcp://HOST:PORT`) the
    shards run on that cluster's workers instead. Shards do not depend on either, and their
    verdicts are merged in shard order, so the report is the same every way. Symbolically a
    judgement whose decision the certificate store holds is checked by the kernel from the
    store (`verify.store`); `search` searches every one instead (the report is the same).
    """
    if budget not in BUDGETS:  # the command line offers these only; from the API any text
        # was an audit "at budget huge" (its verdict line said so) until a proof had runs,
        # then a KeyError (red team 29)
        raise ValueError(f"budget {budget!r} is none of the audit's: "
                         f"{', '.join(map(repr, BUDGETS))}")
    if type(seed) is not int or type(jobs) is not int or not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"seed must be an integer and jobs a whole number from 1 to "
                         f"{MAX_JOBS}, not seed "
                         f"{seed!r}, jobs {jobs!r}")
    given = [*(algorithms or {}), *(name for name, _ in refused)]
    if given and not named_checked:
        refuse_unnamed(targets(list(ids) if ids else list(PROOFS)), given, "plug-in")
    budgeted = {name: plugin if plugin.work is not None else replace(plugin, work=PLUGIN_WORK)
                for name, plugin in (algorithms or {}).items()}  # the audit's budget of each
    with shared_faults(budgeted) as plugins:
        return _run_audit(ids, data, seed, budget, guard, progress, jobs, scheduler, plugins,
                          refused, search, limits)


def _run_audit(ids: Sequence[str] | None, data: Sequence[str], seed: int, budget: str,
               guard: float | None, progress: Progress | None, jobs: int,
               scheduler: str | None, plugins: dict[str, Plugin],
               refused: Sequence[tuple[str, str]], search: bool, limits: Limits) -> Audit:
    """`run_audit`, with the plug-ins posting their timeouts where every process reads them
    (`verify.runs.plugin.shared_faults`)."""
    say = progress or (lambda _done, _total, _message: None)
    chosen = targets(list(ids) if ids else list(PROOFS))
    unusable = {name: fault for name, fault in refused if name not in BUILT_IN}

    ahead: Mapping[str, _Confirmed] = {}  # counterexamples the kernel checked as shards came
    if jobs <= 1 and scheduler is None:
        admitted = _admitted(chosen, data, plugins, unusable, limits)
        plan = _plan(admitted, budget, seed, guard, search)
        campaign_result, reports = _serially(plan, say)
    else:
        with _frozen(), fewer_collections(), executor(jobs) as local, (
                executor(scheduler=scheduler) if scheduler is not None
                else nullcontext(local)) as numeric:
            # Each proof is read by the kernel here as soon as it is loaded (`_readings`:
            # this process checks it from those readings later), and its statements go to
            # the pool (`_proof_work`: its share of the plan; with `search` its symbolic
            # check too), while this process reads the next; the shards start when every
            # proof's checks are back. This process then checks the proofs from the
            # certificate store while the pool runs the shards (`_in_parallel`).
            work: dict[str, Future[_Worked]] = {}
            read: dict[str, Readings] = {}
            # the proofs the kernel's rules refuse (not `refused`, the plug-ins refused,
            # read again below for the exit status)
            rejected: dict[str, _Part] = {}

            def submit(out: _Admitted, proof_id: str) -> None:
                proof, name = out.proofs[proof_id], out.targets[proof_id].name
                found = _readings(proof, name)
                if isinstance(found, _Part):
                    rejected[proof_id] = found
                    return
                read[proof_id] = found
                work[proof_id] = local.submit(
                    _proof_work, proof_id, proof, name, out.names[proof_id], out.plugins,
                    out.unusable, guard, search, statements_of(found))

            admitted = _admitted(chosen, data, plugins, unusable, limits, submit)
            plan = _plan(admitted, budget, seed, guard, search, {
                **rejected, **{proof_id: task.result()[0] for proof_id, task in work.items()}},
                read)
            campaign_result, reports, ahead = _in_parallel(plan, say, numeric, local, work)
    checks = plan.checks
    say(plan.total, plan.total, "done")
    cuts = _cuts(plan, campaign_result)
    faults = {**_faults(plan, campaign_result),  # why a step has no verdict on runs
              **{c.name: cuts[c.algorithm] for c in plan.checks if c.algorithm in cuts}}
    unchecked: dict[str, str] = {}
    numeric = _merged(checks, campaign_result.verdicts,
                      partial(_reading, plan=plan, names=admitted.names, reports=reports),
                      unchecked, ahead)

    audits = []
    by_name = {c.name: c for c in checks}
    for proof_id, proof in plan.proofs.items():
        found = {key: v for key, v in numeric.items() if _evaluated(v) is not None}
        steps = resting(tuple(
            not_its_runs(StepAudit(
                step, report, _labelled(_evaluated(numeric.get(
                    name := f"{proof_id}/{step.id}")), by_name.get(name)),
                _unevaluated(numeric.get(name)) if name in numeric else
                faults.get(name) or unchecked.get(name) or plan.reasons.get(name, _NO_ROWS),
                _evaluated(numeric.get(name + UPDATES)) if name in numeric else None,
                updates_unchecked(step, name, found, plan.updates),
                base=started_at(found.get(name + BASE)) if name in numeric else None,
                base_unchecked=base_unchecked(step, name, found, plan.bases, unchecked),
                update_map=found.get(name + UPDATE_MAP) if name in found else None,
                counter=found.get(name + COUNTER) if name in found else None,
                map_unchecked=unchecked_because(step, name, found, plan.maps),
                counter_unchecked=unchecked_because(step, name, found, plan.counters),
                constants_unchecked=unchecked_because(step, name, found, plan.constants)))
            for step, report in zip(proof.steps, reports[proof_id], strict=True)
        ))
        algorithm = proof.numeric.algorithm if proof.numeric is not None else None
        failed = unusable.get(algorithm or "") or campaign_result.faults.get(algorithm or "")
        if failed and any(s.numeric is not None for s in steps):  # runs before it were kept
            failed = f"{failed}; {FAULT_KEPT}"
        failed = failed or cuts.get(algorithm or "") or _idle(campaign_result, algorithm)
        audits.append(ProofAudit(proof_id, proof, _source(proof), steps,
                                 admitted.targets[proof_id].file,
                                 (*admitted.refused_data.get(proof_id, ()),
                                  *[Unmade(f"plug-in {algorithm}", failed)] * bool(failed)),
                                 tuple(f"{s.step.id}: {unchecked[n]}" for s in steps
                                       if (n := f"{proof_id}/{s.step.id}") in unchecked),
                                 tuple(admitted.files.get(proof_id, ())),
                                 sum(campaign_result.verdicts[key].instances
                                     for s in steps if (key := (f"{proof_id}/{s.step.id}",
                                                                DATA_SOURCE))
                                     in campaign_result.verdicts)))
    fault_lines = [fault for fault in campaign_result.faults.values()]
    given = {c.plugin.name: c.plugin for c in checks if c.plugin is not None}
    witnesses: dict[str, Witness] = {}
    # the steps violated on runs, as the audit says them: an induction's base check (rows
    # at counter 0 off the base, left out) and a violation said to be no finding
    # (`_not_its_runs`) are none (red team 32 F5: `--counterexamples` wrote "P/ahead base:
    # smallest failing run found" for runs that merely start elsewhere)
    violated = {f"{p.id}/{s.step.id}" for p in audits for s in p.steps
                if s.numeric is not None and s.numeric.status == "violated"}
    for name, source in sorted(campaign_result.witnesses):  # sources merged in this order
        if name in violated and name not in witnesses:  # a plug-in's fault: only runs
            # before it (`merge`)
            pid = name.rsplit("/", 1)[0]
            witnesses[name] = Witness(by_name[name], campaign_result.witnesses[(name, source)],
                                      plan.targets[pid].name,
                                      _reads_u(admitted.proofs[pid], admitted.names[pid]))
    return Audit(tuple(audits), seed, budget, real_data(plan.shards),
                 tuple([fault for _, fault in refused] + admitted.errors + plan.errors
                       + fault_lines),
                 sum(t.file for t in chosen) - sum(p.file for p in audits), witnesses=witnesses,
                 data=tuple(data),
                 plugins=tuple(ran.line(name, kind, given.get(name)) for (name, kind), ran
                               in sorted(campaign_result.plugins.items()))
                 + tuple(cuts[name] for name in sorted(cuts)),
                 plugin_work=tuple((name, budget, campaign_result.spent.get(name, 0),
                                    name in cuts)
                                   for name, budget in sorted(campaign_result.budgets.items())
                                   if name not in campaign_result.faults),
                 plugin_ends=tuple((name, kind, ran) for (name, kind), ran
                                   in sorted(campaign_result.plugins.items())))


@contextmanager
def _frozen() -> Iterator[None]:
    """Every object this process holds now (SymPy's modules and caches, the package's) left
    out of garbage collection while a pool runs (`gc.freeze`): none of it is garbage, yet each
    full collection scanned all of it again, here and in every worker forked from here. The
    default audit's collections took 1.1 CPU-seconds in its three processes, 0.7 so (0.4 with
    the youngest generation collected less often meanwhile: `fewer_collections`, as a shard
    does). Unfrozen after, so that nothing of a caller's stays uncollectable (unless she had
    frozen some)."""
    theirs = gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        if not theirs:
            gc.unfreeze()


def _idle(result: CampaignResult, algorithm: str | None) -> str | None:
    """Why a proof run on a plug-in whose every run made no update at all is not verified
    on them: its iterate never left its start, so no step about an update was tested
    (newcomer 26, F3: `<` for `<=` in the mistake test, 442 runs of w = 0, read
    `audit passed · verified`, exit 0, said only in the plug-in's line); None otherwise."""
    ran = [each for (name, _kind), each in sorted(result.plugins.items()) if name == algorithm]
    runs = sum(each.runs for each in ran)
    if algorithm is None or not runs or sum(each.idle for each in ran) < runs:
        return None
    return (f"the plug-in {algorithm}'s {runs} runs made no update at all (each stayed at its "
            "start): no run that tests a step about an update was made")


def _faults(plan: _Plan, result: CampaignResult) -> dict[str, str]:
    """`PROOF/STEP` -> its plug-in's fault, for every check of a plug-in that failed: why it
    has no verdict when no run before the fault bound it. Its verdicts on the shards before
    the fault are kept (`verify.numeric.shards.merge`: those runs were made and checked, and a
    violation there is a finding as any is; newcomer 19 §3 saw every finished run thrown
    away); the fault itself is never a verdict, and its proofs are not verified
    (`ProofAudit.unmade`)."""
    return {check.name: result.faults[check.algorithm]  # `plug-in NAME raised ...`
            for check in plan.checks if check.algorithm in result.faults}


def _cuts(plan: _Plan, result: CampaignResult) -> dict[str, str]:
    """Plug-in -> what its budget of work cut (`verify.numeric.budgets.PLUGIN_WORK`), one line,
    for every plug-in whose runs passed it: how much was checked, from which shard on
    nothing was, and how to raise it. Its runs are counted in shard order, so the cut is the
    same on any machine and for every `--jobs` (`verify.numeric.shards.merge`); its steps'
    verdicts on runs are on the shards before the cut, and its proofs are not verified
    (`ProofAudit.unmade`: incomplete, or has-findings when a run checked shows a violation)."""
    if not result.over:
        return {}
    tasks = _tasks(plan)
    out = {}
    for name, kept in result.over.items():
        shard = tasks[kept][0]
        where = f"({shard.source}, scenarios {shard.start}-{shard.stop - 1})"
        checked = (f"its steps were checked on the runs of the campaign's first {kept} of "
                   f"{len(tasks)} shards only ({result.spent.get(name, 0)} updates and "
                   f"iterations), not on shard {kept + 1} {where} nor any later one" if kept
                   else f"its steps were checked on none of its runs: those of the "
                   f"campaign's first shard {where} passed it alone, and none of the "
                   f"{len(tasks)} shards was checked")
        out[name] = (f"plug-in {name}: its runs passed the audit's budget of "
                     f"{result.budgets[name]} updates and iterations of a plug-in "
                     f"(--max-plugin-updates), so {checked}; to check more, raise it with "
                     "--max-plugin-updates N (a count of work: the same cut on any machine)")
    return out


#: What a plug-in's fault leaves of its proof's verdicts on runs, when some step has one
#: (`ProofAudit.unmade`).
FAULT_KEPT = ("its steps were checked on the runs of the campaign's shards before this "
              "scenario's, not on this shard's nor on any later one's")


_NO_ROWS = "no run of this campaign had a row of the kind its quantities need"


def _evaluated(verdict: NumericVerdict | None) -> NumericVerdict | None:
    """A step's verdict, or None when none of its rows was evaluated because its sums were
    past the work a row may take (`NumericVerdict.unevaluated`: it was not run, and
    `_unevaluated` says why)."""
    return None if verdict is None or _unevaluated(verdict) else verdict


def _labelled(verdict: NumericVerdict | None, check: Check | None) -> NumericVerdict | None:
    """`verdict` with the texts of its check's hypotheses (`Check.hypotheses`), so that a
    report can name the one false on its vacuous rows (`NumericVerdict.most_false`)."""
    if verdict is None or check is None or len(check.hypotheses) != len(verdict.false):
        return verdict
    return replace(verdict, labels=check.hypotheses)


def _unevaluated(verdict: NumericVerdict | None) -> str | None:
    """Why a step was not run when every row its runs gave was left unevaluated (its sums
    past `verify.runs.families.MAX_SPAN` indices, `ROW_CELLS` index tuples, int64, or the
    batch's work budget `WORK`; or its rows never made, a run's past
    `verify.numeric.campaign.MAX_RUN_CELLS`)."""
    if verdict is None or verdict.instances or verdict.vacuous or not verdict.unevaluated:
        return None
    what = "it was" if (verdict.reason or "").startswith(ROWS_NOT_MADE) else "its sums were"
    return (f"{what} not evaluated on any of the {verdict.unevaluated} rows of its "
            f"runs: {verdict.reason}")


@dataclass
class _Admitted:
    """The proofs that could be read, what their names denote, the scenarios of their data
    files; and one line per proof or data file refused."""

    proofs: dict[str, Proof]
    targets: dict[str, Target]
    names: dict[str, Naming]
    data: dict[str, tuple[Scenario, ...]]
    errors: list[str]
    plugins: dict[str, Plugin]  # the users' algorithms given with the audit
    unusable: Mapping[str, str] = field(default_factory=dict)  # plug-in -> why unusable
    refused_data: dict[str, list[Unmade]] = field(default_factory=dict)  # proof -> its
    # data files refused, one line each (`ProofAudit.unmade`)
    files: dict[str, list[DataFile]] = field(default_factory=dict)  # proof -> its data
    # files run (`ProofAudit.data_files`)


def _admitted(chosen: Sequence[Target], data: Sequence[str],
              plugins: Mapping[str, Plugin] | None = None,
              unusable: Mapping[str, str] | None = None, limits: Limits = DEFAULT_LIMITS,
              each: Callable[[_Admitted, str], None] | None = None) -> _Admitted:
    """Load every target, read its `[numeric] names` and its data files (and `data`); a
    target that cannot be read is left out, its fault kept as one line. A data file that
    cannot be read or run (a proof's, or one of `data`) is one line too, and the proofs are
    audited without it (the audit then fails on that line). A proof naming
    an `unusable` plug-in is admitted (its steps are not run). `each(admitted, id)` is
    called as soon as a proof is admitted (a pool starts on it while the next is read);
    the targets are then read largest file first (`_largest_first`: the proofs that take a
    worker longest start first), and everything is returned in the order of `chosen`."""
    out = _Admitted({}, {}, {}, {}, [], dict(plugins or {}), dict(unusable or {}))
    memo: dict[str, Read] = {}
    shared = []
    refused: list[Unmade] = []  # the lines of `data` refused: every proof run on them lacks
    for path in dict.fromkeys(data):  # them
        try:
            read(path, memo, limits)
            shared.append(path)
        except FAULTS as error:  # read for every proof: named as the command line gave it
            refused.extend(Unmade(f"--data {printable(path)}", f"--data {_one_line(fault, path)}")
                           for fault in each_error(error))
    out.errors.extend(each.line for each in refused)
    lines: dict[str, list[str]] = {t.id: [] for t in chosen}  # each target's, in its order
    for target in _largest_first(chosen) if each is not None else chosen:
        errors = lines[target.id]
        try:
            proof = target.load()
            names = naming(proof.numeric, proof, (*(plugins or ()), *out.unusable))
        except ProofFileError as error:
            errors.extend(_lines(with_naming(with_refusals(error), target.numeric_part()
                                             if error.file else None,
                                             (*(plugins or ()), *out.unusable)), target.name))
            continue
        except FAULTS as error:
            errors.extend(_lines(error, target.name))
            continue
        run = proof.numeric.run if proof.numeric is not None else None
        files = (*proof.numeric.data, *shared) if proof.numeric is not None else ()
        if proof.numeric is not None and refused:  # its runs were to include them (red team
            out.refused_data.setdefault(target.id, []).extend(refused)  # 19 F4: `verified`)
        scenarios: list[Scenario] = []
        read_u = _reads_u(proof, names)
        for path in files:  # every bad file is a line of its own; the proof is still
            try:            # audited, on the others (the audit fails: its errors say why)
                scenarios.extend(data_scenarios(path, run, memo, limits, read_u))
                out.files.setdefault(target.id, []).append(DataFile(path, memo[path].data.n))
            except FAULTS as error:
                said = [_data_line(fault, path, proof, target.name)
                        for fault in each_error(error)]
                errors.extend(said)
                # among its runs not made, said after its id: a built-in proof's name is its
                # id, not said twice (newcomer 26/28: "canonical-online: canonical-online:
                # bad3.csv:1: ...")
                own = f"{printable(target.id)}: "
                out.refused_data.setdefault(target.id, []).extend(
                    Unmade(printable(path), line.removeprefix(own)) for line in said)
        out.proofs[target.id], out.targets[target.id] = proof, target
        out.names[target.id], out.data[target.id] = names, tuple(scenarios)
        if each is not None:
            each(out, target.id)
    out.errors.extend(line for target in chosen for line in lines[target.id])
    ids = [t.id for t in chosen if t.id in out.proofs]
    out.proofs, out.targets = {i: out.proofs[i] for i in ids}, {i: out.targets[i] for i in ids}
    out.names, out.data = {i: out.names[i] for i in ids}, {i: out.data[i] for i in ids}
    return out


def _largest_first(chosen: Sequence[Target]) -> list[Target]:
    """`chosen`, the largest proof file first (its size in bytes standing for the work of
    planning and checking it; a file that cannot be read last, where its reading fails): the
    order in which a pool best receives the proofs, so that the longest is not the last to
    start while the other workers wait for the plan. Only an order of work: the audit's
    report keeps the order of `chosen`."""
    def size(target: Target) -> int:
        if target.text is not None:
            return len(target.text)
        try:
            return os.stat(target.name if target.file else PROOFS[target.name]).st_size
        except (OSError, KeyError):
            return 0

    return sorted(chosen, key=lambda t: -size(t))


def _lines(error: Exception, name: str) -> list[str]:
    """A refused target's errors, one line each: every independent error of a proof file
    (`ProofFileErrors`, as `novikoff check` lists them), else the one."""
    if isinstance(error, ProofFileError) and error.file:
        return error.lines()
    return [_one_line(error, name)]


def _data_line(error: Exception, path: str, proof: Proof, name: str) -> str:
    """A data file's fault in one line: one of the file as a whole (no such file, no
    examples: no line of its own to name) for a file of the proof's `[numeric] data` is
    placed at its entry in the proof file, as the loader places the entries it refuses
    (newcomer 19 saw `sub/m.toml: sub/missing.csv: no such file`, unplaced)."""
    numeric, origin = proof.numeric, proof.origin
    if (isinstance(error, DataError) and error.source == path and error.line is None
            and numeric is not None and path in numeric.data and origin is not None):
        folder = os.path.dirname(origin.file) if origin.file != "<stdin>" else ""
        entry = path[len(folder) + 1:] if folder and path.startswith(folder + os.sep) \
            else path
        placed = ProofFileError(f"numeric.data: {entry!r}: {error.problem}",
                                key="numeric.data", text=entry)
        return _lines(placed.located(origin.file, origin), name)[0]
    return _one_line(error, name)


def _one_line(error: Exception, name: str) -> str:
    """A refused target or data file in one line that names the file (once: an error that
    names it already is not prefixed with it again)."""
    if isinstance(error, OSError) and error.filename is not None:
        return f"{printable(str(error.filename))}: {error.strerror or error}"
    text, shown = " ".join(str(error).split()), printable(name)
    if (isinstance(error, ProofFileError) and error.file) or text.startswith(f"{shown}:"):
        return text
    return f"{shown}: {text}"


def _plan(admitted: _Admitted, budget: str, seed: int, guard: float | None,
          search: bool = False, parts: Mapping[str, _Part] | None = None,
          read: Mapping[str, Readings] | None = None) -> _Plan:
    """The checks of every step whose quantities a row set binds (the reason of every other
    step), and the campaign's shards: the budget's, and one per proof with data files. Each
    proof's share is `parts[id]` when a pool made it (`_proof_work`, from the kernel's
    readings `read` of its steps), else made here (and its readings with it); they are put
    together in the proofs' order either way, the readings kept for the symbolic check
    (`_Plan.read`)."""
    read = dict(read or {})
    checks: list[Check] = []
    reasons: dict[str, str] = {}
    updates: dict[str, str] = {}
    bases: dict[str, str] = {}
    maps: dict[str, str] = {}
    counters: dict[str, str] = {}
    constants: dict[str, str] = {}
    errors: list[str] = []
    proofs = dict(admitted.proofs)
    for proof_id, proof in admitted.proofs.items():
        if parts is not None:
            part = parts[proof_id]
        elif isinstance(found := _readings(proof, admitted.targets[proof_id].name), _Part):
            part = found
        else:
            read[proof_id] = found
            part = _part(proof_id, proof, admitted.targets[proof_id].name,
                         admitted.names[proof_id], admitted.plugins, admitted.unusable,
                         statements_of(found))
        if part.refused:  # every proof, run or not: a refused one is its lines, the others
            errors.extend(part.refused)  # are audited
            del proofs[proof_id]
            continue
        checks.extend(part.checks)
        reasons.update(part.reasons)
        updates.update(part.updates)
        bases.update(part.bases)
        maps.update(part.maps)
        counters.update(part.counters)
        constants.update(part.constants)
    single = {c.kind.passes for c in checks}
    shards = budget_shards(BUDGETS[budget], seed, passes=True in single,
                           runs=False in single) if checks else ()
    own = tuple(Shard(DATA_SOURCE, 0, len(found), partial(tuple, found),
                      only=frozenset({proof_id}), work=estimate(DATA_SOURCE, len(found)))
                for proof_id, found in admitted.data.items() if found and proof_id in proofs)
    return _Plan(proofs, tuple(checks), (*shards, *own), guard, reasons, errors,
                 admitted.targets, search, updates, bases, maps, counters, constants,
                 {proof_id: found for proof_id, found in read.items() if proof_id in proofs})


@dataclass(frozen=True)
class _Part:
    """One proof's share of the plan: the checks of its steps and why each other step has
    none; or, for a proof the kernel's rules refuse, its lines (`refused`)."""

    checks: tuple[Check, ...]
    reasons: Mapping[str, str]
    refused: tuple[str, ...] = ()
    #: why a checked induction's update facts are not checked on its runs
    #: (`membership.updates_check`)
    updates: Mapping[str, str] = field(default_factory=dict)
    #: why a checked induction's base is not checked on its runs (`membership.started`)
    bases: Mapping[str, str] = field(default_factory=dict)
    #: why a checked induction's step and counter are not checked on its runs
    #: (`membership.Unchecked`)
    maps: Mapping[str, str] = field(default_factory=dict)
    counters: Mapping[str, str] = field(default_factory=dict)
    constants: Mapping[str, str] = field(default_factory=dict)


#: The kernel's reading of each step of a proof, by step (`verify.proof_checker.readings`).
Readings = Mapping[str, StepReading | None]


def _readings(proof: Proof, name: str) -> Readings | _Part:
    """The kernel's reading of every step of `proof`: its statements plan the proof's checks
    on runs (`_part`) and its symbolic check decides from the same readings (`_symbolic`),
    so that the kernel reads each step once for both, not once for each (0.8-0.9 CPU-s
    per worker of the default audit when a worker read them for the plan); for a proof the
    kernel's rules refuse, its share of the plan instead: its lines, placed in its file
    (`name`: the proof as the command line names it)."""
    try:
        return readings(proof)
    except ProofFileError as error:  # refused by the kernel's rules: placed in the file
        placed = error.located(proof.origin.file, proof.origin) if proof.origin else error
        return _Part((), {}, tuple(_lines(placed, name)))


def _part(proof_id: str, proof: Proof, name: str, names: Naming,
          plugins: Mapping[str, Plugin], unusable: Mapping[str, str],
          stated: Mapping[str, kernel.Statement | None] | None = None) -> _Part:
    """`proof`'s share of the plan (`name`: the proof as the command line names it), from
    the statements of its steps (`stated`: the kernel's, `_readings`; read here if not
    given)."""
    if stated is None:
        found = _readings(proof, name)
        if isinstance(found, _Part):
            return found
        stated = statements_of(found)
    if proof.numeric is None:
        return _Part((), {f"{proof_id}/{s.id}": "the proof declares no [numeric] run"
                          for s in proof.steps})
    checks: list[Check] = []
    reasons: dict[str, str] = {}
    unchecked: dict[str, str] = {}  # why an induction's update facts are not checked
    unbased: dict[str, str] = {}  # why an induction's base is not checked
    unmapped: dict[str, str] = {}  # why its step is not checked against its runs' updates
    uncounted: dict[str, str] = {}  # why its counter is not checked against their count
    unfixed: dict[str, str] = {}  # why its constants are not checked to keep one value
    starts: dict[str, Judgement | str | None] = {}  # each induction's start, once (`started`)
    gaps: dict[tuple[str, str], Gaps] = {}  # its counter's and constants' gaps, once per rows
    for step in proof.steps:
        step_name = f"{proof_id}/{step.id}"
        if (algorithm := proof.numeric.algorithm) in unusable:
            reasons[step_name] = (f"the plug-in {algorithm} could not be used: "
                                  f"{unusable[algorithm]}")
            continue
        reason, check = _check(step_name, proof, with_carried(stated, step), names, plugins,
                               carried(stated, step))
        if check is not None:
            made, why = on_its_runs(step, check, proof, stated, names, starts, gaps)
            checks.extend(made)
            if why.base is not None:
                unbased[step_name] = why.base
            if why.updates is not None:
                unchecked[step_name] = why.updates
            if why.step is not None:
                unmapped[step_name] = why.step
            if why.counter is not None:
                uncounted[step_name] = why.counter
            if why.constants is not None:
                unfixed[step_name] = why.constants
        else:
            reasons[step_name] = reason
    return _Part(tuple(checks), reasons, updates=unchecked, bases=unbased, maps=unmapped,
                 counters=uncounted, constants=unfixed)


_Worked = tuple[_Part, tuple[StepReport, ...] | None]


def _proof_work(proof_id: str, proof: Proof, name: str, names: Naming,
                plugins: Mapping[str, Plugin], unusable: Mapping[str, str],
                guard: float | None, search: bool,
                stated: Mapping[str, kernel.Statement | None]) -> _Worked:
    """A proof's share of the plan (`_part`, from the statements of the kernel's readings
    made in the audit's process, `stated`), where it runs: a process of the local pool,
    never a Dask cluster's worker; with `search`, and unless the kernel's rules refuse the
    proof, its symbolic check detached too (`_symbolic_detached`: every judgement searched,
    which is the pool's work), else None. The shards wait on every proof's share of the
    plan: made in the pool as the proofs are read, it does not wait on this process
    planning every proof alone (only reading them: `_readings`). From the
    store, the audit's own process checks the proofs itself while the pool runs the shards
    (`_in_parallel`): the kernel checks each certificate there, once; a worker's symbolic
    check was replayed by the kernel there all the same, so it was the same kernel work
    twice, and it held the shards back."""
    part = _part(proof_id, proof, name, names, plugins, unusable, stated)
    return part, (_symbolic_detached(proof, guard, search) if search and not part.refused
                  else None)


def _check(name: str, proof: Proof, stated: kernel.Statement | None, names: Naming,
           plugins: Mapping[str, Plugin] | None = None,
           carried: Sequence[tuple[kernel.Rel, str]] = ()) -> tuple[str, Check | None]:
    """The check of one step, or why it has none; `carried` (`membership.carried`): the invariants
    its rows' runs must hold at every state up to the row's."""
    assert proof.numeric is not None
    if stated is None:
        # the kernel's error, not a refusal (a refused step refuses its proof): 1/0 at an
        # induction's base, a used claim out of context, or a use of such a step
        return "the kernel could not form its statement (see the symbolic message)", None
    if stated.exists:
        stated = witnessed(proof, stated)
    forms = [normal_form(r, r.text) for r in (*stated.hypotheses, stated.claim)]
    try:
        if names.too_large([f for f, _ in forms[:-1]], forms[-1][0]):
            return "with the [numeric] names replaced it expands to too many terms", None
        judgement, labels = labelled_on_runs(stated, names)
        along = statement(proof, kernel.Statement(name, tuple(c for c, _ in carried), tuple(
            u for _, u in carried), TRUE, stated.naturals), names).hypotheses if carried else ()
    except kernel.KernelError as error:  # a name bound to `dot(theta, theta)` as an index
        return (f"with the [numeric] names replaced it is no statement the kernel reads "
                f"({error}): a family's index and a sum's bounds must stay polynomials in "
                "scalar names, which an inner product bound to a name is not"), None
    defined = names.evaluated(judgement)
    binding = binding_of(judgement, proof.numeric.run, defined)
    if binding is None:
        return unbound(judgement, proof.numeric.run, proof.definitions, defined,
                       names.too_high) or _NO_ROWS, None
    naturals = natural_terms(stated.naturals, names, judgement, defined)
    if isinstance(naturals, str):
        return naturals, None
    plugin = (plugins or {}).get(proof.numeric.algorithm or "")
    if plugin is not None and (fixed := {s.name for s in judgement.symbols()} & {"eta", "beta"}):
        return (f"it names {', '.join(sorted(fixed))}, a constant of the built-in rules that "
                f"the plug-in {plugin.name}'s runs do not have (its steps are tau, read off "
                "each update): a step about one update may name tau instead "
                "(docs/run-quantities.md); the built-in rule's runs, which have eta, check a "
                "proof whose [numeric] names no algorithm"), None
    if plugin is not None and "time" in {s.name for s in judgement.symbols()}:
        return (f"it names time, the stream's time of an iterate, which the plug-in "
                f"{plugin.name}'s runs do not have (their order is their own)"), None
    return "", Check(name, judgement, binding, proof.numeric.algorithm, plugin, defined,
                     naturals, slack_scale(stated, judgement.claim, names), along,
                     hypotheses=labels)


@dataclass(frozen=True)
class _Plan:
    """The independent units of an audit: each proof's steps, each campaign shard; why each
    step without a check has none; the proofs refused while planning."""

    proofs: Mapping[str, Proof]
    checks: tuple[Check, ...]
    shards: tuple[Shard, ...]
    guard: float | None
    reasons: Mapping[str, str]
    errors: list[str]
    targets: Mapping[str, Target]
    search: bool = False  # every judgement searched, the certificate store not consulted
    #: why a checked induction's update facts are not checked on its runs
    #: (`membership.updates_check`)
    updates: Mapping[str, str] = field(default_factory=dict)
    #: why a checked induction's base is not checked on its runs (`membership.started`)
    bases: Mapping[str, str] = field(default_factory=dict)
    #: why a checked induction's step and counter are not checked on its runs
    #: (`membership.Unchecked`)
    maps: Mapping[str, str] = field(default_factory=dict)
    counters: Mapping[str, str] = field(default_factory=dict)
    constants: Mapping[str, str] = field(default_factory=dict)
    #: the kernel's readings of each proof's steps (`_readings`), which its symbolic check
    #: in this process decides from (`_symbolic`): kernel values, never sent to a worker
    read: Mapping[str, Readings] = field(default_factory=dict, repr=False)

    @property
    def total(self) -> int:
        """Progress units: one per step and one per shard."""
        return len(self.shards) + sum(len(p.steps) for p in self.proofs.values())


Verdicts = dict[tuple[str, str], NumericVerdict]
Reports = dict[str, tuple[StepReport, ...]]


def _serially(plan: _Plan, say: Progress) -> tuple[CampaignResult, Reports]:
    """Every unit in this process, reporting progress step by step."""
    parts = []
    done = 0
    for position, task in enumerate(_tasks(plan)):
        say(done, plan.total, f"numeric: {len(plan.checks)} statements on {_name(task)}")
        parts.append(_shard_verdicts(plan.checks, task, position))
        done += len(task)
    result = merge(parts)
    reports: Reports = {}
    for proof_id, proof in plan.proofs.items():
        def before(checked: int, step: Step, proof_id: str = proof_id, start: int = done) -> None:
            say(start + checked, plan.total, f"symbolic: {proof_id} {step.id}")

        reports[proof_id] = _symbolic(proof, plan.guard, before, plan.search,
                                      plan.read.get(proof_id))
        done += len(proof.steps)
    return result, reports


def _in_parallel(plan: _Plan, say: Progress, numeric: Executor, local: Executor,
                 work: Mapping[str, Future[_Worked]]
                 ) -> tuple[CampaignResult, Reports, Mapping[str, _Confirmed]]:
    """Campaign shards on `numeric` (the local pool, or a Dask cluster's) while this process
    checks the proofs from the certificate store (`_recalled`); a proof checked in the pool
    (`work`, with `search`) or one that needs a search (sent to `local` then) is replayed
    here as it comes back. Progress is reported as each unit finishes; shard verdicts are
    merged in shard order, and every report is the one `check_step` makes here. A step's
    counterexample that `_merged` will report is kernel-checked here as soon as the shards
    before it are back (`ahead`), not after the last shard, while the pool still works."""
    parts: dict[int, CampaignResult] = {}
    reports: Reports = {}
    proofs = plan.proofs
    # Submitted the largest estimated work first (`longest_first`), so that the longest
    # tasks do not start last and leave one worker idle at the end. (Only the submission
    # order; the verdicts are merged in shard order.)
    shipped = _Shipped.of(plan.checks)  # pickled once, not once per shard
    tasks = _tasks(plan)
    # A plug-in's tasks go in shard order instead: its timeout, posted by one task, ends the
    # calls of the later tasks only (`verify.runs.plugin.at`), so that the earlier ones are
    # made in any schedule; submitted out of order, each earlier task would wait out the
    # guard again.
    order = range(len(tasks)) if any(c.plugin is not None for c in plan.checks) \
        else longest_first(tasks)
    campaigns = {numeric.submit(_shard_verdicts, shipped, tasks[index], index): index
                 for index in order}
    ahead = _Ahead.of(plan.checks, tasks)
    symbolic: dict[Future[Any], str] = {task: proof_id for proof_id, task in work.items()
                                        if proof_id in proofs and task.result()[1] is not None}
    say(0, plan.total, f"{len(campaigns) + len(proofs)} tasks")
    pending = [*campaigns, *symbolic]  # in submission order
    done = 0

    def finished(task: Future[Any]) -> None:
        nonlocal done
        if task in symbolic:
            name = symbolic[task]
            found = task.result()  # a proof's work (`_Worked`), or its reports alone
            reports[name] = replay(proofs[name], found[1] if task in work.values() else found)
            done += len(proofs[name].steps)
        else:
            index = campaigns[task]
            parts[index] = task.result()
            name = _name(tasks[index])
            done += len(tasks[index])
            ahead.done(parts)
        say(done, plan.total, f"done: {name}")

    def poll(_index: int = 0, _step: Step | None = None) -> None:
        for task in [t for t in pending if t.done()]:
            pending.remove(task)
            finished(task)

    for proof_id, proof in proofs.items():
        if proof_id in symbolic.values():
            continue
        checked = _recalled(proof, plan.guard, poll, plan.read.get(proof_id))
        if checked is None:  # a search: the pool's work, as it always was
            task = local.submit(_symbolic_detached, proof, plan.guard, plan.search)
            symbolic[task] = proof_id
            pending.append(task)
            continue
        reports[proof_id] = checked
        done += len(proof.steps)
        say(done, plan.total, f"done: {proof_id}")
    for task in as_completed(pending):
        finished(task)
    return merge(parts[i] for i in range(len(tasks))), reports, ahead.confirmed


@dataclass(frozen=True)
class _Confirmed:
    """A counterexample on runs the kernel checked against its step's statement on runs,
    and the error it raised (None: confirmed)."""

    instance: Instance
    error: kernel.KernelError | None


@dataclass
class _Ahead:
    """Each step's counterexample that `_merged` will report, kernel-checked as soon as every
    task that could report an earlier one is back: its first over the sources in name
    order, data files' last, each source's tasks in order, as `merge` and `_merged` take
    them. The audit's own
    process does it as the tasks come back (`done`), not in the audit's serial end, after
    the last shard (where it was about 0.15 of the 0.3 CPU-seconds the audit spent after
    its last shard). `_merged` uses an outcome only for the very counterexample it
    reports, the same object (the kernel is deterministic), and checks any other itself."""

    checks: Mapping[str, Check]
    order: list[int]  # the task indices in the order their counterexamples come first
    confirmed: dict[str, _Confirmed] = field(default_factory=dict)
    taken: int = 0  # how many of `order` have been read

    @classmethod
    def of(cls, checks: Sequence[Check], tasks: Sequence[tuple[Shard, ...]]) -> _Ahead:
        return cls({c.name: c for c in checks},
                   sorted(range(len(tasks)), key=lambda i: (
                       tasks[i][0].source == DATA_SOURCE, tasks[i][0].source, i)))

    def done(self, parts: Mapping[int, CampaignResult]) -> None:
        """Read the tasks back (`parts`, by index) that every earlier one in `order` is,
        checking each step's first counterexample among them."""
        while self.taken < len(self.order) and self.order[self.taken] in parts:
            for (name, _source), verdict in parts[self.order[self.taken]].verdicts.items():
                if (verdict.counterexample is not None and name not in self.confirmed
                        and name in self.checks):
                    self.confirmed[name] = _Confirmed(verdict.counterexample, _refutation(
                        self.checks[name], verdict.counterexample))
            self.taken += 1


def _refutation(check: Check, instance: Instance) -> kernel.KernelError | None:
    """Why the kernel rejects `instance` as a counterexample of `check` on runs (None: it
    confirms it)."""
    try:
        kernel.check_counterexample(check.judgement, as_counterexample(instance))
    except kernel.KernelError as error:
        return error
    return None


def _recalled(proof: Proof, guard: float | None, before: Callable[[int, Step], None],
              read: Readings | None = None) -> tuple[StepReport, ...] | None:
    """`_symbolic(proof)` from the certificate store (from the kernel's readings `read`),
    every certificate checked by the kernel in this process; None if a step would search
    (`recall_only`)."""
    try:
        with recall_only():
            return _symbolic(proof, guard, before, read=read)
    except NeedsSearch:
        return None


def _symbolic(
    proof: Proof, guard: float | None, before: Callable[[int, Step], None] | None = None,
    search: bool = False, read: Readings | None = None,
) -> tuple[StepReport, ...]:
    """Every step of `proof` checked in order (later steps may use earlier reports); from
    the certificate store where it answers, unless `search`; from the kernel's readings of
    its steps `read` (`_readings`: the plan's) if given, else each step read as it is
    checked (`check_proof`: the same reports)."""
    progress = None if before is None else (lambda index, _total, step: before(index, step))
    # the default search budget whatever the campaign size: the findings never depend on it
    return check_proof(proof, budget=DEFAULT_BUDGET, guard=guard, progress=progress,
                       store=None if search else "shipped", read=read or {}).steps


def _symbolic_detached(proof: Proof, guard: float | None, search: bool = False
                       ) -> tuple[StepReport, ...]:
    """`_symbolic` of a proof where it runs (a worker process), detached from its kernel
    values (`replay` makes them again in the parent)."""
    return tuple(map(detached, _symbolic(proof, guard, search=search)))


def _shard_verdicts(checks: Sequence[Check] | _Shipped, task: tuple[Shard, ...],
                    position: int | None = None) -> CampaignResult:
    """One task's campaign, a shard or several alike (`_tasks`): verdicts per (check,
    source), witnesses, plug-in faults (its scenarios built where it runs); `position`, its
    index among the tasks, orders the plug-ins' posted timeouts (`verify.runs.plugin.at`)."""
    with at(position):
        return run_shards(checks.checks() if isinstance(checks, _Shipped) else checks, task)


#: Consecutive shards of one source that one task runs together (`run_shards`: the verdicts,
#: counts and counterexamples of each shard alone, merged in order; but their rows checked
#: in a few joint batches, not a few per shard). Measured on the default audit's shards in
#: one process (2026-11-28, CPU-seconds of each source's shards one per task / all in one):
#: orthonormal 1.54-1.59 / 0.99-1.15 (54 shards of tiny runs), generated 2.83-2.92 /
#: 2.20-2.45, tight 1.42-1.51 / 1.01-1.04, adversary 3.33-3.37 / 2.87-2.98; the others
#: gained nothing (margin-family lost: 1.26-1.59 / 2.40-2.44). A few tasks per source stay,
#: so that two workers share them without a long tail.
BUNDLED: Mapping[str, int] = {"orthonormal": 14, "generated": 3, "tight": 3, "adversary": 5}


def _tasks(plan: _Plan) -> list[tuple[Shard, ...]]:
    """The plan's shards as tasks, in shard order: up to `BUNDLED[source]` consecutive
    shards of one source (and the same proofs and runs) each (`bundles`: one each when a
    check runs a plug-in)."""
    return [task for source, alike in itertools.groupby(plan.shards, lambda s: s.source)
            for task in bundles(list(alike), BUNDLED.get(source, 1), plan.checks)]


@dataclass(frozen=True)
class _Shipped:
    """The checks as every shard task carries them: pickled once in the parent, unpickled
    once per worker process (`checks`). A task used to carry them as objects, so each of an
    audit's hundred shards pickled and unpickled the same SymPy judgements again, and a
    worker's memo of compiled judgements hashed them again. The bytes travel with every
    task all the same, and a process reuses only what it unpickled from the same bytes (by
    their SHA-256), so a task runs exactly the checks it was given."""

    data: bytes
    digest: str

    @classmethod
    def of(cls, checks: Sequence[Check]) -> _Shipped:
        data = pickle.dumps(tuple(checks), protocol=pickle.HIGHEST_PROTOCOL)
        return cls(data, hashlib.sha256(data).hexdigest())

    def checks(self) -> tuple[Check, ...]:
        """The checks, unpickled here once per process (the last set received is kept; a
        Dask worker's threads may race to keep theirs, each still runs its own)."""
        found = _RECEIVED.get(self.digest)
        if found is None:
            found = pickle.loads(self.data)  # the parent's own bytes
            _RECEIVED.clear()
            _RECEIVED[self.digest] = found
        return found


_RECEIVED: dict[str, tuple[Check, ...]] = {}
"""The checks this process last unpickled (`_Shipped.checks`), by the digest of their bytes."""


def _name(task: tuple[Shard, ...]) -> str:
    """A task's shards as progress messages name them."""
    return f"{task[0].source} runs {task[0].start}-{task[-1].stop - 1}"


def _numeric(
    checks: Sequence[Check], sources: Mapping[str, Iterable[Scenario]]
) -> dict[str, NumericVerdict]:
    """Merged verdict per check over all sources; violations re-checked by the kernel."""
    return _merged(checks, campaign.run_campaign(checks, sources).verdicts)


def _merged(checks: Sequence[Check], verdicts: Verdicts,
            reading: Callable[[str], Reading | None] | None = None,
            unchecked: dict[str, str] | None = None,
            ahead: Mapping[str, _Confirmed] | None = None) -> dict[str, NumericVerdict]:
    """One verdict per check, sources merged in name order, data files' last (the first
    violation merged is the one reported, and the kernel checks it on every audit: a data
    file's run, a hundred examples of fifty coordinates, had its double sums evaluated by
    the kernel in Fractions for 39 of chan-batch's 45 s, where a generated run's N = 2 is
    read in a moment; newcomer 26); violations kernel-checked, then
    read in the proof's names (`reading`: a step's `Reading`, None for checks of no proof,
    which keep the run's names). A check whose first violation the kernel cannot evaluate
    (its sums there past the kernel's work on one point, `verify.kernel.atoms.MAX_WORK`) has
    no verdict: why is put in `unchecked` (a violation is reported only kernel-checked; it
    was a traceback, exit 1: a double sum over a long run's history refuted at t = 448)."""
    merged: dict[str, NumericVerdict] = {}
    for (name, _source_name), verdict in sorted(
            verdicts.items(), key=lambda item: (item[0][0], item[0][1] == DATA_SOURCE,
                                                item[0][1])):
        merged[name] = merged.get(name, NumericVerdict.empty()).merge(verdict)
    by_name = {c.name: c for c in checks}
    for name, verdict in list(merged.items()):
        if verdict.counterexample is not None:
            check = by_name[name]
            # the kernel checks the run's instance against the statement on runs, as it
            # always did (perhaps already while the shards ran: `ahead`, this very
            # instance); only then is it renamed for the reader (nothing else reads it)
            done = (ahead or {}).get(name)
            error = done.error if done is not None and done.instance is \
                verdict.counterexample else _refutation(check, verdict.counterexample)
            if error is not None:
                del merged[name]
                if unchecked is not None:
                    unchecked[name] = _unreported(verdict, error)
                continue
            found = reading(name) if reading is not None else None
            shown = (found.point(verdict.counterexample) if found is not None
                     else _named(verdict.counterexample, check))
            merged[name] = replace(verdict, counterexample=shown)
    return merged


#: How the reason of a step starts whose runs found violations none of which is reported
#: (`_unreported`): it was run, so the reports do not say `not run` of it.
UNREPORTED = "run, but not reported: "


def _unreported(verdict: NumericVerdict, error: kernel.KernelError) -> str:
    """Why a step whose runs found violations has no verdict on runs: the kernel did not
    confirm the first, either because evaluating its sums at that point is past the
    kernel's work (`verify.kernel.atoms.MAX_WORK`: it cannot re-check it), or because it
    evaluated it and found no violation there (the run engine and the kernel disagree: a
    fault of this tool, said as one). Each is said as what it is: a rejection once read
    `cannot re-check`, and the step `not run`."""
    found = (f"{UNREPORTED}its exact evaluation found {verdict.violations} violating rows "
             f"of {verdict.instances} run instances, but the kernel ")
    if f"more than {atoms.MAX_WORK} terms" in str(error):  # atoms' own words for its limit
        return (f"{found}cannot re-check the first ({error}), and only a violation the kernel "
                "has checked is reported")
    return (f"{found}rejected the first ({error}): the run engine and the kernel disagree, a "
            "fault of this tool (please report it); only a violation the kernel has checked "
            "is reported")


def _reading(name: str, plan: _Plan, names: Mapping[str, Naming], reports: Reports
             ) -> Reading | None:
    """How step `name`'s counterexample on runs reads in its proof's names: the names its
    statement reads, as the kernel read it (`StepReport.statement`; an existential claim at
    its witness, as it is checked on runs); None when there is no statement."""
    proof_id, step_id = name.rsplit("/", 1)
    proof = plan.proofs[proof_id]
    report = next((r for r in reports[proof_id] if r.step.id == step_id), None)
    if report is None:  # an induction's base (`BASE`): read in the run's names
        return None
    stated = report.statement
    if stated is None or proof.numeric is None:
        return None
    if stated.exists:
        stated = witnessed(proof, stated)
    declared = {*proof.scalars, *proof.vectors, *proof.indexed, *proof.definitions}
    return Reading.of(names[proof_id], declared, mentioned((*stated.hypotheses, stated.claim)),
                      proof.numeric.names, proof.definitions)


def _named(instance: Instance, check: Check) -> Instance:
    """A counterexample as the proof names it: a definition evaluated on the rows is read
    under its column's symbol (`verify.runs.naming.Defined`), which the kernel has just
    checked; the reports show the proof's own name for it (checks of no proof audited: the
    audit's steps are read by `Reading`)."""
    if not check.defined:
        return instance
    shown = {d.symbol: d.name for d in check.defined}
    return replace(instance, scalars={shown.get(n, n): v for n, v in instance.scalars.items()})


def as_counterexample(instance: Instance) -> Counterexample:
    """A numeric instance in the kernel's counterexample form."""
    return Counterexample(dict(instance.scalars), dict(instance.vectors),
                          {n: dict(m) for n, m in instance.families.items()})


def _source(proof: Proof) -> str:
    """Where the proof comes from: its own `source`, else the works its steps cite."""
    return citations.proof_source(proof.source, (s.source for s in proof.steps))
