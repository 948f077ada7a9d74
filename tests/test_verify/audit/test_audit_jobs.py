"""`--jobs`: the same report from one process or several."""

from __future__ import annotations

import dataclasses
import gc
import subprocess
import sys
from collections.abc import Iterable

import pytest

from verify.audit.job import Verdicts, _frozen, _merged, _numeric, run_audit
from verify.audit.report import to_json
from verify.cli.audit import store_note
from verify.numeric import campaign
from verify.numeric.shards import YOUNG_OBJECTS, Shard, merge
from verify.runs.quantity import Scenario

IDS = ["canonical-online", "virtue-online"]


class Recorder:
    """Collects progress calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, str]] = []

    def __call__(self, done: int, total: int, message: str) -> None:
        self.calls.append((done, total, message))

    def check(self) -> None:
        done = [d for d, _, _ in self.calls]
        totals = {t for _, t, _ in self.calls}
        assert len(totals) == 1 and done == sorted(done) and done[-1] == totals.pop()


def test_one_and_two_processes_give_the_same_report():
    serial, parallel = Recorder(), Recorder()
    one = to_json(run_audit(IDS, budget="small", seed=5, progress=serial, jobs=1))
    two = to_json(run_audit(IDS, budget="small", seed=5, progress=parallel, jobs=2))
    assert one == two
    assert one["summary"]["numeric"]["instances"] > 0  # the campaign sources ran too
    serial.check()
    parallel.check()
    assert serial.calls[-1][1] == parallel.calls[-1][1]


def test_a_pool_runs_with_the_heap_frozen_and_leaves_nothing_of_its_own_frozen():
    """`_frozen`: what the process holds is out of the collector's scans while a pool runs
    (its workers fork with it frozen), and unfrozen after, an error included; a caller's own
    freeze is hers and stays. (A serial audit's shard has frozen this process for good:
    `verify.numeric.shards._settled`; restored after.)"""
    theirs = gc.get_freeze_count()
    gc.unfreeze()
    try:
        with _frozen():
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() == 0
        with pytest.raises(ZeroDivisionError), _frozen():
            print(1 / 0)
        assert gc.get_freeze_count() == 0
        gc.freeze()
        with _frozen():
            pass
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        if theirs:
            gc.freeze()


def test_while_a_pool_runs_the_collector_scans_less_and_is_as_it_was_after():
    """Issue 30: during a pool's audit this process's heap is frozen and its youngest
    generation collected every `YOUNG_OBJECTS` allocations (seen from its progress calls);
    the process's threshold is its own again after."""
    before, seen = gc.get_threshold(), set()
    run_audit(IDS[:1], budget="small", jobs=2, progress=lambda _d, _t, said: seen.add(
        (said, gc.get_threshold()[0] >= YOUNG_OBJECTS, gc.get_freeze_count() > 0)))
    assert {(young, frozen) for said, young, frozen in seen if said != "done"} == {(True, True)}
    assert gc.get_threshold() == before


def test_sources_checked_apart_merge_to_the_joint_verdicts():
    checks = [*campaign.canonical_checks(), campaign.wrong_norm_growth()]

    def sources() -> dict[str, Iterable[Scenario]]:
        return {"tight": campaign.tight(1, 6), "adversary": campaign.adversary(1, (1, 2, 3)),
                "generated": campaign.generated(1, 6)}

    joint = _numeric(checks, sources())
    apart: Verdicts = {}
    for name, scenarios in sources().items():
        apart.update(campaign.run_campaign(checks, {name: scenarios}).verdicts)
    assert _merged(checks, apart) == joint
    assert joint[campaign.wrong_norm_growth().name].status == "violated"


def test_counterexamples_checked_ahead_are_the_ones_merged_reports(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While the shards run, the audit's process kernel-checks each step's counterexample as
    soon as every task that could report an earlier one is back (`_Ahead`); `_merged` then
    reuses that outcome for that very instance only, and checks any other itself: the
    verdicts are those it makes alone."""
    from verify.audit import job

    checks = [*campaign.canonical_checks(), campaign.wrong_norm_growth()]
    wrong = campaign.wrong_norm_growth().name
    made = {"tight": campaign.tight(1, 6), "adversary": campaign.adversary(1, (1, 2, 3)),
            "generated": campaign.generated(1, 6)}
    tasks = [(Shard(name, 0, 1, tuple),) for name in made]  # in shard order
    parts = {i: campaign.run_campaign(checks, {name: made[name]})
             for i, name in enumerate(made)}
    first = parts[1].verdicts[(wrong, "adversary")].counterexample  # the first by name
    assert first is not None
    ahead = job._Ahead.of(checks, tasks)
    ahead.done({0: parts[0], 2: parts[2]})  # the adversary's task, first by name, not back
    assert ahead.confirmed == {}
    ahead.done(parts)
    assert set(ahead.confirmed) == {wrong} and ahead.confirmed[wrong].error is None
    assert ahead.confirmed[wrong].instance is first
    verdicts = merge(parts[i] for i in range(len(tasks))).verdicts
    calls = []
    checked = job.kernel.check_counterexample
    monkeypatch.setattr(job.kernel, "check_counterexample",
                        lambda *a: calls.append(a) or checked(*a))
    assert _merged(checks, verdicts, ahead=ahead.confirmed) == _merged(checks, verdicts)
    assert len(calls) == 1  # the second `_merged` alone
    other = {wrong: dataclasses.replace(ahead.confirmed[wrong], instance=dataclasses.replace(
        ahead.confirmed[wrong].instance))}  # equal, not the same object: checked again
    assert _merged(checks, verdicts, ahead=other) == _merged(checks, verdicts)
    assert len(calls) == 3


def test_jobs_must_be_positive():
    done = subprocess.run([sys.executable, "-m", "verify", "audit", "--jobs", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "jobs" in done.stderr


def test_shipped_checks_are_the_checks_of_the_bytes_received():
    """A shard task carries its checks pickled once (`_Shipped`); a worker keeps the last set
    it unpickled, and only a task carrying the same bytes gets that set again."""
    from verify.audit.job import _Shipped

    canonical = campaign.canonical_checks()
    first, again = _Shipped.of(canonical), _Shipped.of(canonical)
    other = _Shipped.of([campaign.wrong_norm_growth()])
    assert first.checks() == canonical
    assert again.checks() is first.checks()  # the same bytes: unpickled once
    assert other.checks() == (campaign.wrong_norm_growth(),)
    assert first.checks() == canonical and first.checks() is not other.checks()


def test_two_processes_read_the_largest_file_first_and_report_in_the_order_given(tmp_path):
    """With a pool the proofs are read largest file first (`_largest_first`), so that the
    longest reaches a worker first; the report keeps the order given: the proofs, and the
    refused files' lines, which a larger file would otherwise put first."""
    from verify.audit.job import _largest_first
    from verify.audit.targets import targets

    small, large = tmp_path / "small.toml", tmp_path / "large.toml"
    small.write_text("[proof\n")  # unreadable TOML, each in a line of its own
    large.write_text("# padding\n" * 200 + "[proof\n")
    chosen = [str(small), "canonical-online-w0", str(large), "canonical-online"]
    order = [t.name for t in _largest_first(targets(chosen))]
    assert order.index(str(large)) < order.index(str(small))
    assert order.index("canonical-online") < order.index("canonical-online-w0")
    one, two = (run_audit(chosen, budget="small", jobs=jobs) for jobs in (1, 2))
    assert [p.id for p in two.proofs] == ["canonical-online-w0", "canonical-online"]
    assert two.errors == one.errors and len(two.errors) == 2
    assert str(small) in two.errors[0] and str(large) in two.errors[1]
    assert to_json(one) == to_json(two)


def test_recall_only_refuses_a_search_and_changes_no_report():
    """Within `recall_only` a check answered by the store is `check_step`'s own report, and
    one that would search raises `NeedsSearch` (the audit then checks it in its pool)."""
    import pytest

    from proofs.library import load_named
    from verify.proof_checker import NeedsSearch, check_proof, recall_only

    proof = load_named("canonical-online-w0")
    with recall_only():
        recalled = check_proof(proof)
        with pytest.raises(NeedsSearch):
            check_proof(proof, store=None)  # no store: every judgement is a search
    def seen(report):  # what every output prints of a step (not its seconds)
        return [(s.status, s.message, s.recalled, s.searched, s.vacuity, s.certificates)
                for s in report.steps]

    assert seen(recalled) == seen(check_proof(proof))
    assert check_proof(proof, store=None).steps[0].status == "proved"  # searches outside it


SEARCHED = """
title = "a proof the certificate store does not hold"
vectors = ["w", "x"]
scalars = ["y", "R2"]

[numeric]
run = "online"

[[step]]
id = "growth"
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2"]
claim = "norm2(w + y*x) <= norm2(w) + R2 + 1"
"""


def test_a_proof_that_needs_a_search_gets_the_same_report_from_the_pool(tmp_path):
    """With a pool, the audit's own process checks the proofs from the store; a proof with a
    judgement the store does not hold is searched in the pool and replayed by the kernel
    here: the same report as from one process, with its search noted."""
    path = tmp_path / "searched.toml"
    path.write_text(SEARCHED)
    chosen = [str(path), "canonical-online-w0"]
    one, two = (run_audit(chosen, budget="small", jobs=jobs) for jobs in (1, 2))
    assert to_json(one) == to_json(two)
    searched, built_in = two.proofs
    assert searched.status == "verified" and searched.steps[0].symbolic.searched
    assert searched.steps[0].symbolic.theorem is not None  # made again by the kernel here
    assert built_in.status == "verified" and not any(s.symbolic.searched
                                                      for s in built_in.steps)


def test_with_search_the_pool_searches_and_the_report_is_the_same():
    """`search`: every judgement searched, in the pool with its proof's share of the plan,
    and replayed by the kernel here; the report is the one from one process."""
    one, two = (run_audit(["canonical-online-w0"], budget="small", jobs=jobs, search=True)
                for jobs in (1, 2))
    assert to_json(one) == to_json(two)
    (proof,) = two.proofs
    assert proof.status == "verified" and not any(s.symbolic.recalled for s in proof.steps)
    assert all(s.symbolic.theorem is not None for s in proof.steps)


def test_shards_bundled_per_task_give_the_report_of_one_shard_per_task(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit runs up to `BUNDLED[source]` consecutive shards of a source in one task
    (their rows checked together; 7% of the default audit's CPU). The report must be the
    one of each shard in a task of its own, in one process and in two, and the tasks the
    shards in order, each of one source and within its cap."""
    from verify.audit import job

    progress = Recorder()
    bundled = to_json(run_audit(IDS, budget="small", seed=5, jobs=2, progress=progress))
    progress.check()
    plan = job._plan(job._admitted(job.targets(IDS), []), "small", 5, None)
    tasks = job._tasks(plan)
    assert [s for task in tasks for s in task] == list(plan.shards)
    assert all(len({s.source for s in task}) == 1
               and len(task) <= job.BUNDLED.get(task[0].source, 1) for task in tasks)
    assert any(len(task) > 1 for task in tasks)  # something was bundled here
    # a plug-in's fault ends its task's runs, which must then be one shard's
    plugged = dataclasses.replace(plan, checks=(
        dataclasses.replace(plan.checks[0], plugin=object()), *plan.checks[1:]))
    assert all(len(task) == 1 for task in job._tasks(plugged))
    monkeypatch.setattr(job, "BUNDLED", {})
    assert all(len(task) == 1 for task in job._tasks(plan))
    for jobs in (1, 2):
        assert to_json(run_audit(IDS, budget="small", seed=5, jobs=jobs)) == bundled


SUMS_OF_VECTORS = '''title = "sums of vectors, {name}"
vectors = ["th", "x"]
scalars = ["y", "k", "j"]
naturals = ["k"]
indexed = ["x", "y"]
[[step]]
id = "sq"
claim = "norm2(th - sum(j in 1..k, y[j]*x[j])) >= 0"
[[step]]
id = "squares"
claim = "sum(j in 1..k, y[j]**2) >= 0"
'''


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_proof_files_with_sums_are_checked_in_workers_as_in_one_process(tmp_path):
    """A user's proof with sums, audited beside another proof with two processes: the worker
    unpickles the proof, whose sums the parser's registry of names does not know there, and
    the term-wise facts' proof (a new `Proof`, validated) refused them as undeclared; the
    `ProofFileErrors` then could not be unpickled either, and the audit ended in a traceback
    (`BrokenProcessPool`). Both found 2026-11-28; the report is now the one-process one."""
    files = []
    for name in ("a.toml", "b.toml"):
        (path := tmp_path / name).write_text(SUMS_OF_VECTORS.replace("{name}", name))
        files.append(str(path))
    one = to_json(run_audit(files, budget="small", jobs=1))
    audit = run_audit(files, budget="small", jobs=2)
    two = to_json(audit)
    assert one == two
    # newcomer 21, L3: the store holds the built-in proofs only, so the files' searches are
    # counted apart, without a first reason ("nothing to store" of a step then proved)
    searched = sum(len(s.symbolic.searched) for p in audit.proofs for s in p.steps)
    assert store_note(audit, False) == (
        f"certificate store: 0 judgements from the store, {searched} of proof files searched "
        "(the store holds the built-in proofs' judgements only)") and searched > 0
    assert [s["symbolic"]["status"] for p in two["proofs"] for s in p["steps"]] == [
        "proved"] * 4


UNDEFINED_AT_BASE = """
title = "a statement the kernel cannot form: 1/t at an induction's base t = 0"
vectors = ["w", "x"]
scalars = ["t", "y", "R2"]

[numeric]
run = "online"

[[step]]
id = "growth"
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2"]
claim = "norm2(w + y*x) <= norm2(w) + R2"

[[step]]
id = "reciprocal"
claim = "1/t >= 0"
[step.induction]
variable = "t"
base = {}
step = {}
"""


def test_a_step_whose_statement_the_kernel_cannot_form_is_not_said_refused(tmp_path):
    """Helper audspeed: such a step was not run on runs "because a use was refused", but no
    use was (a refused step refuses its whole proof): the kernel could not form its
    statement, `1/t` at t = 0 dividing by zero. Said so, the same with one job or two."""
    path = tmp_path / "undefined.toml"
    path.write_text(UNDEFINED_AT_BASE)
    one, two = (run_audit([str(path)], budget="small", jobs=jobs) for jobs in (1, 2))
    assert to_json(one) == to_json(two)
    step = two.proofs[0].steps[1]
    assert step.numeric is None and step.reason == (
        "the kernel could not form its statement (see the symbolic message)")
    assert step.symbolic.message == "`1/t >= 0 [t := 0]` divides by zero"  # no use refused
    assert two.proofs[0].steps[0].numeric is not None  # the other step ran
