"""Campaigns give the same exact results inline, in local processes and on a Dask cluster
(`verify.numeric.executors`, `verify.numeric.shards`): same instances, same order of aggregation."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from concurrent.futures import as_completed

import pytest

from verify.audit import run_audit
from verify.audit.report import to_json
from verify.numeric import campaign
from verify.numeric.budgets import BUDGETS
from verify.numeric.campaign import CampaignResult
from verify.numeric.executors import Inline, executor
from verify.numeric.shards import (
    Shard,
    adversary_shards,
    budget_shards,
    bundles,
    estimate,
    generated_shards,
    longest_first,
    merge,
    real_shards,
    run_sharded,
    tight_shards,
    unit_margin_shards,
)
from verify.numeric.unit_margin import unit_margin
from verify.runs.online import OnlineUpdates
from verify.runs.quantity import Scenario

CHECKS = (*campaign.canonical_checks(), campaign.wrong_norm_growth())


def shards() -> tuple[Shard, ...]:
    """A tiny campaign in shards of 2 scenarios (violations included, from the wrong step)."""
    return (*generated_shards(7, 5, size=2), *tight_shards(7, 5, size=2),
            *adversary_shards(7, (1, 2, 3), size=2))


def summary(result: CampaignResult) -> tuple[object, ...]:
    """Everything but the timings."""
    return (result.verdicts, result.runs)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A one-worker Dask cluster in this process (threads, no processes: starts fast)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as local:
        yield local.scheduler_address


def test_shards_make_the_same_scenarios_as_their_source():
    def key(scenarios: object) -> list[object]:
        return [(s.data, s.u, s.origin) for s in scenarios]  # type: ignore[attr-defined]

    for cut, whole in (
        (generated_shards(3, 7, size=3), campaign.generated(3, 7)),
        (tight_shards(3, 7, size=3), campaign.tight(3, 7)),
        (adversary_shards(3, range(1, 6), size=2), campaign.adversary(3, range(1, 6), 1)),
        (adversary_shards(3, (1, 2), sweeps=2, size=3), campaign.adversary(3, (1, 2), 2)),
        (unit_margin_shards(3, 7, size=3), unit_margin(3, 7)),
        (real_shards(3, 2), campaign.real(3, 2)),
    ):
        assert [s for shard in cut for s in key(shard.scenarios())] == key(whole)


def test_sharded_campaign_counts_what_the_whole_campaign_counts():
    with executor(1) as pool:
        sharded, _ = run_sharded(CHECKS, shards(), pool)
    whole = campaign.run_campaign(CHECKS, {
        "generated": campaign.generated(7, 5), "tight": campaign.tight(7, 5),
        "adversary": campaign.adversary(7, (1, 2, 3), 1)})
    assert sharded.runs == whole.runs
    for key, verdict in whole.verdicts.items():
        mine = sharded.verdicts[key]
        assert (mine.status, mine.instances, mine.vacuous, mine.violations, mine.min_slack) == (
            verdict.status, verdict.instances, verdict.vacuous, verdict.violations,
            verdict.min_slack)
    assert sharded.verdicts[("norm-growth-without-R2", "tight")].status == "violated"


def test_inline_local_processes_and_dask_agree_exactly(cluster: str):
    results = []
    for options in ({"jobs": 1}, {"jobs": 2}, {"scheduler": cluster}):
        with executor(**options) as pool:  # type: ignore[arg-type]
            results.append(run_sharded(CHECKS, shards(), pool)[0])
    inline, processes, dask = map(summary, results)
    assert inline == processes == dask
    counterexample = results[0].verdicts[("norm-growth-without-R2", "tight")].counterexample
    assert counterexample is not None  # compared above with its provenance, exactly


def test_audit_numeric_side_on_dask_gives_the_same_report(cluster: str):
    ids = ["canonical-online-w0"]  # a short proof: the test is about the campaign
    here = to_json(run_audit(ids, budget="small", seed=3, jobs=1))
    there = to_json(run_audit(ids, budget="small", seed=3, jobs=1, scheduler=cluster))
    assert here == there
    assert here["summary"]["numeric"]["instances"] > 0


def test_inline_futures_carry_results_and_errors():
    pool = Inline()
    good, bad = pool.submit(int, "4"), pool.submit(int, "x")
    assert [f.done() for f in as_completed([good, bad])] == [True, True]
    assert good.result() == 4
    with pytest.raises(ValueError):
        bad.result()


def test_budget_shards_cover_every_source_of_the_budget():
    from verify.numeric.budgets import BUDGETS

    budget = BUDGETS["small"]
    cut = budget_shards(budget, 0, size=7)
    passes = ["noisy", "adversarial", "tight-pass"]
    cyclic = ["separable-epochs", "inseparable", "margin-family"]
    assert list(dict.fromkeys(s.source for s in cut)) == ["generated", "tight", "adversary",
                                                          "orthonormal", *cyclic, *passes]
    assert list(dict.fromkeys(s.source for s in cut)) == list(budget.sources(0))
    counts: dict[str, int] = {}
    for shard in cut:
        counts[shard.source] = counts.get(shard.source, 0) + shard.stop - shard.start
    assert counts == {"generated": budget.generated, "tight": budget.tight,
                      "adversary": budget.adversary_bounds, "orthonormal": budget.orthonormal,
                      "separable-epochs": budget.separable_epochs,
                      "inseparable": budget.inseparable,
                      "margin-family": budget.margin_families,
                      **{name: budget.passes for name in passes}}
    # the shards of a source seeded per scenario make exactly the source's scenarios, in order
    for source in ("orthonormal", "inseparable", "margin-family"):
        whole = list(budget.sources(0)[source])
        pieces = [s for shard in cut if shard.source == source for s in shard.scenarios()]
        assert [s.origin for s in pieces] == [s.origin for s in whole]
        assert [s.data for s in pieces] == [s.data for s in whole]
        assert [s.max_epochs for s in pieces] == [s.max_epochs for s in whole]
    # single passes and runs to convergence can be left out (no check would read them)
    assert [s.source for s in budget_shards(budget, 0, size=7, passes=False)] == [
        s.source for s in cut if s.source not in passes]
    assert [s.source for s in budget_shards(budget, 0, size=7, runs=False)] == [
        s.source for s in cut if s.source in passes]


def test_counterexamples_do_not_depend_on_how_the_campaign_is_cut():
    wrong = campaign.wrong_norm_growth()
    found = []
    for size in (1, 4):
        with executor(1) as pool:
            result, _ = run_sharded([wrong], tight_shards(5, 8, size=size), pool)
        found.append(result.verdicts[(wrong.name, "tight")].counterexample)
    assert found[0] is not None and found[0] == found[1]
    assert len({len(v) for v in found[0].vectors.values()}) == 1  # one width, no padding


def test_shards_bundled_in_tasks_give_what_each_shard_gives():
    with executor(1) as pool:
        alone = run_sharded(CHECKS, shards(), pool)[0]
        for per_task in (2, 3, 50):
            bundled = run_sharded(CHECKS, shards(), pool, per_task)[0]
            assert summary(bundled) == summary(alone)
            assert bundled.witnesses == alone.witnesses
    assert alone.verdicts[("norm-growth-without-R2", "generated")].counterexample is not None
    assert [len(b) for b in bundles(shards(), 2, CHECKS)] == [2, 1, 2, 1, 2]
    assert [[s.source for s in b] for b in bundles(shards(), 50, CHECKS)] == [
        ["generated"] * 3, ["tight"] * 3, ["adversary"] * 2]
    # a plug-in's fault ends the runs of the rest of its task: one shard per task then
    plugged = (dataclasses.replace(CHECKS[0], plugin=object()), *CHECKS[1:])
    assert [len(b) for b in bundles(shards(), 50, plugged)] == [1] * len(shards())


def test_tasks_longest_first_by_estimated_work_ties_in_task_order():
    """`longest_first` orders by the shards' estimated work (a count set when they are cut,
    never a time), ties kept in task order; every shard of the default budget has an
    estimate, the adversary's growing with its bound."""
    tasks = [(s,) for s in shards()]
    order = longest_first(tasks)
    assert sorted(order) == list(range(len(tasks)))
    works = [tasks[i][0].work for i in order]
    assert works == sorted(works, reverse=True)
    assert all(order[k] < order[k + 1] for k in range(len(order) - 1)
               if works[k] == works[k + 1])
    assert all(s.work > 0 for s in budget_shards(BUDGETS["default"], 0))
    low, high = adversary_shards(0, range(1, 51), size=2)[::24]
    assert high.work > 10 * low.work
    assert estimate("generated", 4) == 2 * estimate("generated", 2)


@pytest.mark.parametrize(("batch_rows", "held_rows"), [(20_000, 200_000), (40, 100), (1, 1)])
def test_segments_of_a_source_check_what_their_own_campaigns_check(batch_rows: int,
                                                                   held_rows: int):
    """A source's segments in one campaign (a task's shards) end their stages as their own
    campaigns do, so their rows, checked together or whenever `held_rows` says, give the
    verdicts and the counterexamples of those campaigns merged in order."""
    cut = (*generated_shards(11, 6, size=2), *tight_shards(11, 6, size=3))
    segments = [(s.source, list(s.scenarios())) for s in cut]
    apart = merge(campaign.run_campaign(CHECKS, {source: scenarios}, batch_rows=batch_rows,
                                        held_rows=held_rows)
                  for source, scenarios in segments)
    together = campaign.run_campaign(CHECKS, segments, batch_rows=batch_rows,
                                     held_rows=held_rows)
    assert summary(together) == summary(apart)
    assert together.witnesses == apart.witnesses
    assert apart.verdicts[("norm-growth-without-R2", "tight")].violations


def test_compiled_long_run_shards_count_what_the_numpy_loop_counts(monkeypatch):
    """A long-run shard run by the engine's compiled loop (`Shard.compiled`, in a process
    whose such shards have checked `COMPILE_AFTER` instances: numba loaded in the worker,
    so the engine's `auto` mode compiles) gives the same verdicts and runs as the same
    scenarios run by the numpy loop (`engine="primal"`, whatever is loaded)."""
    from perceptron.algorithms.online import run_online
    from verify.numeric import shards
    from verify.runs.online import run_from_engine

    monkeypatch.setattr(shards, "_LONG_INSTANCES", [shards.COMPILE_AFTER])

    def numpy_loop(scenario: Scenario) -> OnlineUpdates:
        result = run_online(scenario.data, max_epochs=scenario.max_epochs, engine="primal")
        return run_from_engine(result, scenario.data, scenario.u)

    checks = campaign.canonical_checks()
    shard, = unit_margin_shards(50_000, 12, size=12, compiled=True)
    assert shard.compiled and not unit_margin_shards(50_000, 12, size=12)[0].compiled
    with executor(1) as pool:
        compiled, _ = run_sharded(checks, [shard], pool)
    plain = campaign.run_campaign(checks, {"unit-margin": unit_margin(50_000, 12)},
                                  runners={"online": numpy_loop})
    assert summary(compiled) == summary(plain)
    assert compiled.instances > 5000 and compiled.total_seconds > 0
    # the rates per worker are in CPU time (a loaded machine stretches the wall time)
    assert 0 < compiled.cpu_seconds <= compiled.total_seconds + 0.5


def test_long_run_shards_load_the_compiled_loop_after_enough_instances(monkeypatch):
    """A process loads the compiled loop for its `compiled` shards only once they have
    checked `COMPILE_AFTER` instances (a count, the same on any machine); a plain shard
    neither counts nor loads it; the verdicts are the same either way."""
    from verify.numeric import shards

    loads: list[int] = []
    monkeypatch.setattr(shards, "_long_runs_ahead", lambda: loads.append(1))
    monkeypatch.setattr(shards, "_LONG_INSTANCES", [0])
    monkeypatch.setattr(shards, "COMPILE_AFTER", 1)
    checks = campaign.canonical_checks()
    long, = unit_margin_shards(50_000, 2, size=2, compiled=True)
    plain, = unit_margin_shards(50_000, 2, size=2)
    first = shards.run_shard(checks, long)
    assert loads == [] and shards._LONG_INSTANCES == [first.instances] and first.instances > 0
    again = shards.run_shard(checks, plain)
    assert loads == [] and shards._LONG_INSTANCES == [first.instances]
    second = shards.run_shard(checks, long)
    assert loads == [1] and shards._LONG_INSTANCES == [2 * first.instances]
    assert summary(first) == summary(second) == summary(again)


def test_a_shard_collects_less_often_and_restores_the_threshold() -> None:
    """While a shard runs (a compiled long-run one or a plain one), the youngest
    generation's threshold is at least `YOUNG_OBJECTS`; the process's own is back
    afterwards, also when the shard fails."""
    import gc

    from verify.numeric import shards

    seen: list[int] = []
    real = campaign.run_campaign

    def spy(*args: object, **kwargs: object) -> campaign.CampaignResult:
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    before = gc.get_threshold()
    checks = campaign.canonical_checks()
    try:
        gc.set_threshold(900, *before[1:])
        campaign.run_campaign = spy  # type: ignore[assignment]
        long, = unit_margin_shards(50_000, 2, size=2, compiled=True)
        plain, = unit_margin_shards(50_000, 2, size=2)
        shards.run_shard(checks, long)
        assert gc.get_threshold()[0] == 900
        shards.run_shard(checks, plain)
        assert gc.get_threshold()[0] == 900
        for compiled in (True, False):
            broken = shards.Shard("unit-margin", 0, 1, lambda: iter([None]), compiled=compiled)
            with pytest.raises(AttributeError):
                shards.run_shard(checks, broken)  # type: ignore[arg-type]
            assert gc.get_threshold()[0] == 900
    finally:
        campaign.run_campaign = real  # type: ignore[assignment]
        gc.set_threshold(*before)
    assert seen == [shards.YOUNG_OBJECTS] * 4


@pytest.mark.parametrize("address", ["bogus", "http://x:1", "", "tcp://host", "tcp://h:1/x",
                                     "tcp://h:99999", "tcp://h:0", "tcp://h:\u0668\u0667"])
def test_a_scheduler_address_of_another_form_is_one_line(
        address: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 4: `--scheduler bogus` reached Dask, which raised a 59-line traceback after
    a minute; the form is read first."""
    from verify.cli import main

    with pytest.raises(SystemExit) as leaving:  # argparse's way out: a usage error
        main(["audit", "canonical-online", "--scheduler", address])
    assert leaving.value.code == 2
    err = capsys.readouterr().err
    assert err == (f"novikoff: error: argument --scheduler: {address!r} is no scheduler "
                   "address: write tcp://HOST:PORT\n")


@pytest.mark.slow
def test_an_unreachable_scheduler_is_an_os_error_naming_it() -> None:
    """Dask gives up after its connect timeout (30 s); the audit's CLI says it in one line."""
    pytest.importorskip("distributed")
    with (pytest.raises(OSError, match=r"the Dask scheduler at tcp://127\.0\.0\.1:1: "),
          executor(scheduler="tcp://127.0.0.1:1")):
        pass


def test_a_worker_ends_once_its_parent_has_ended(tmp_path) -> None:
    """Red team 4: an audit killed with SIGTERM left its pool's workers waiting for ever;
    each worker now watches its parent (`watch_parent`, the pool's initializer)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    # the parent named before the fork: a child that asked for its parent itself could be
    # asking after the parent was killed (the first version of this test failed so in CI)
    script = ("import os, sys, time\nfrom verify.numeric.executors import watch_parent\n"
              "me = os.getpid()\nchild = os.fork()\nif child == 0:\n"
              "    watch_parent(me, every=0.05)\n    time.sleep(120)\n    os._exit(0)\n"
              "print(child, flush=True)\ntime.sleep(120)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())  # type: ignore[union-attr]
    parent.send_signal(signal.SIGKILL)
    parent.wait()

    def alive() -> bool:
        try:
            with open(f"/proc/{child}/stat") as stat:
                return stat.read().rpartition(")")[2].split()[0] != "Z"  # a zombie has ended
        except FileNotFoundError:
            return False

    for _ in range(400):  # up to 20 s on a loaded machine; it takes about 0.05 s
        if not alive():
            break
        time.sleep(0.05)
    else:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the worker outlived its parent")
