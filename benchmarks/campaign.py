"""Campaign throughput: exact inequality instances checked per second, and a full campaign.

Prints measured figures only (no asserts on time). Run: `python benchmarks/campaign.py
[--tiny | --medium] [--jobs N | --scheduler tcp://HOST:PORT | --dask-local N]
[--instances N]` (`--tiny`: toy sizes, the test suite's smoke run; `--jobs`: local
processes, default 1; `--scheduler`: a Dask cluster's workers; `--dask-local`: a Dask
`LocalCluster` of N one-thread worker processes started here; `--instances`: only a campaign
of long runs until N instances are checked, below).
(1) vectorised evaluation of the canonical steps on ~10^6 prepared int64 rows;
(2) a full canonical campaign over the sources generated, tight and adversary (seeds printed),
    in shards (`verify.numeric.shards`), several alike shards per task (`_per_task`), on the
    chosen executor: its throughput per worker (instances per worker CPU-second, runs and
    rows included) and overall (per second of wall time), and the time a campaign of 10^8
    instances would take at that rate (extrapolated);
(3) the source a campaign of 10^8 instances would use: long runs on integer data at margin 1
    (`verify.numeric.unit_margin`), in shards on the chosen executor, run by the engine's
    compiled loop once a worker's long runs have checked `shards.COMPILE_AFTER` instances
    (loaded once per worker, counted in its time; its Python loop before), with the same
    throughput figures and extrapolation as (2);
(4) the time to refute the norm-growth step without its R2 term and shrink the counterexample.

`--instances N` runs a campaign instead of the parts above: the long runs of (3), seeds
50000, 50001, ... in shards of `CAMPAIGN_SHARD` seeds, until at least N instances of the
canonical checks are checked (the shards merged in seed order: the campaign is the first
shards whose instances reach N, the same whatever executes them), printing the instances so
far and the rates as shards complete, then the totals, the verdicts and the counterexample of
every violated step (none is expected: the canonical steps are theorems).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify.numeric.campaign import (
    SMALL,
    CampaignResult,
    Check,
    Runner,
    canonical_checks,
    evaluate_only,
    generated,
    run_campaign,
    tight,
    wrong_norm_growth,
)
from verify.numeric.executors import Inline, executor
from verify.numeric.instances import CompiledJudgement, Shrinker
from verify.numeric.shards import (
    adversary_shards,
    generated_shards,
    merge,
    run_shard,
    run_sharded,
    tight_shards,
    unit_margin_shards,
)
from verify.runs import kind_of
from verify.runs.columns import InstanceBatch
from verify.runs.online import engine_runner

#: The campaign the throughput is extrapolated to.
TARGET_INSTANCES = 10**8


def _runner() -> tuple[Runner, str]:
    try:
        import perceptron.algorithms.online  # noqa: F401
    except ImportError:
        sys.path.insert(0, "tests/test_verify/numeric")
        from test_numeric_campaign import reference_run

        return reference_run, "reference loop (engine not installed)"
    return engine_runner, "perceptron.algorithms.online.run_online"


def prepared_batches(runner: Runner, target_rows: int, bindings: Sequence[str],
                     count: int = 400) -> dict[str, InstanceBatch]:
    """Rows of small planted runs for every binding the checks use, repeated up to
    `target_rows` per binding (all int64)."""
    parts: dict[str, list[InstanceBatch]] = {binding: [] for binding in bindings}
    for scenario in generated(seed=1, count=count):
        run = runner(scenario)
        for binding, bucket in parts.items():
            batch = kind_of(binding).rows(run, binding, scenario.origin)
            if len(batch) and batch.magnitude() < SMALL:
                bucket.append(batch)
    out = {}
    for binding, bucket in parts.items():
        once = InstanceBatch.concat(bucket)
        copies = max(1, target_rows // len(once))
        out[binding] = InstanceBatch.concat([once] * copies)
    return out


@dataclass(frozen=True)
class Size:
    """How much each part of the benchmark does."""

    rows: int = 1_000_000
    planted: int = 400
    generated: int = 3500
    tight: int = 2600
    adversary_bounds: int = 30
    sweeps: int = 23
    unit_margin: int = 20_000


FULL = Size()
TINY = Size(rows=2000, planted=10, generated=5, tight=5, adversary_bounds=3, sweeps=1,
            unit_margin=10)
#: A tenth of the full campaign: enough to measure a worker's throughput in a minute or two.
MEDIUM = Size(rows=200_000, planted=100, generated=350, tight=260, adversary_bounds=30,
              sweeps=2, unit_margin=2000)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="toy sizes (a smoke run)")
    parser.add_argument("--medium", action="store_true", help="a tenth of the full campaign")
    parser.add_argument("--jobs", type=int, default=1, help="local processes (default 1)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the campaign on this Dask scheduler's workers")
    parser.add_argument("--dask-local", type=int, metavar="N",
                        help="start a Dask LocalCluster of N one-thread worker processes "
                             "here and run the campaign on it")
    parser.add_argument("--instances", type=int, metavar="N",
                        help="only a campaign of long runs until N instances are checked")
    args = parser.parse_args(argv)
    for flag, value in (("--instances", args.instances), ("--jobs", args.jobs),
                        ("--dask-local", args.dask_local)):
        if value is not None and value < 1:
            parser.error(f"{flag} must be at least 1, not {value}")
    cpu = _cpu_seconds()
    with _scheduler(args.scheduler, args.dask_local) as scheduler:
        if args.instances is not None:
            checked = campaign_of(args.instances, args.jobs, scheduler).instances
        else:
            parts(TINY if args.tiny else MEDIUM if args.medium else FULL, args.jobs, scheduler)
    if args.scheduler is None:  # a remote cluster's processes are not this one's children
        spent = _cpu_seconds() - cpu
        print(f"CPU time: {spent:.1f} s, this process and its local worker processes (all "
              "exited by now; shards discarded in flight included)"
              + (f": {checked / spent:,.0f} instances per CPU-second"
                 if args.instances is not None and spent else ""))


def _cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and of its child processes that have
    exited and been waited for: the local workers' share of the machine, beside the worker
    time (wall) the rates are computed from."""
    import resource

    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                         resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@contextmanager
def _scheduler(address: str | None, local: int | None) -> Iterator[str | None]:
    """The Dask scheduler to use: `address`, or that of a LocalCluster of `local` one-thread
    worker processes started for the campaign (None: local processes)."""
    if local is None:
        yield address
        return
    from distributed import LocalCluster

    with LocalCluster(n_workers=local, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        print(f"Dask LocalCluster: {local} worker process(es), one thread each, at "
              f"{cluster.scheduler_address}")
        yield cluster.scheduler_address


def parts(size: Size, jobs: int, scheduler: str | None) -> None:
    """Parts (1) to (4) of the module docstring, at `size`."""
    runner, runner_name = _runner()
    print(f"runner: {runner_name}")
    checks = canonical_checks()
    batches = prepared_batches(runner, size.rows, sorted({c.binding for c in checks}),
                               size.planted)
    assert all(c.num.dtype == np.int64 for b in batches.values() for c in b.scalars.values())
    instances, seconds = evaluate_only(checks, batches)
    print(f"(1) vectorised: {instances} exact instances of {len(checks)} steps in "
          f"{seconds:.3f} s = {instances / seconds:,.0f} instances/s "
          f"(ratio to the 10^6/s target: {instances / seconds / 1e6:.2f})")

    shards = (*generated_shards(20_000, size.generated),
              *tight_shards(30_000, size.tight),
              *adversary_shards(40_000, range(1, size.adversary_bounds + 1), size.sweeps))
    where = f"Dask at {scheduler}" if scheduler else f"{jobs} local process(es)"
    print(f"(2) full canonical campaign, {len(shards)} shards on {where}, seeds: generated "
          "20000.., tight 30000.., adversary 40000..")
    with executor(jobs, scheduler) as pool:
        workers = _workers(pool, jobs)
        result, wall = run_sharded(checks, shards, pool, _per_task(len(shards), workers))
        for line in result.lines():
            print("   ", line)
        _throughput(result, wall, workers)
        print(f"(3) long runs at margin 1: {size.unit_margin} seeds from {LONG_SEED}, in "
              f"shards of {LONG_SHARD}")
        long, wall = run_sharded(checks, unit_margin_shards(LONG_SEED, size.unit_margin,
                                                            LONG_SHARD, compiled=True), pool)
        _throughput(long, wall, workers)

    wrong = wrong_norm_growth()
    t0 = time.perf_counter()
    refuted = run_campaign([wrong], {"tight": tight(seed=8, count=20)}, runners={"online": runner})
    verdict = refuted.verdicts[(wrong.name, "tight")]
    shrunk = Shrinker(CompiledJudgement.compile(wrong.judgement)).shrink(verdict.counterexample)
    elapsed = time.perf_counter() - t0
    print(f"(4) wrong step '{wrong.name}': {verdict.status}, {verdict.violations} violations; "
          f"shrunk to {shrunk} in {elapsed:.3f} s")


def _per_task(shards: int, workers: int) -> int:
    """Shards per task of part (2) (`verify.numeric.shards.bundles`): as many as leave each
    worker `TASKS_PER_WORKER` tasks, so a task checks the rows of several shards together
    and the workers still share the work. The verdicts and counts are the same whatever it
    is (`run_shards`); only a task's fixed costs are shared by more instances. Part (3)'s
    shards, of 200 long runs each, gained nothing measurable bundled (2000 seeds, per task
    1, 2 and 10: 2.0-2.5 M instances per CPU-second each, within the noise)."""
    return max(1, shards // (TASKS_PER_WORKER * workers))


#: Tasks per worker in part (2) (`_per_task`).
TASKS_PER_WORKER = 4
#: Seeds per shard of part (3): a fraction of a second to a few seconds of work each.
LONG_SHARD = 200
#: Seeds per shard of an `--instances` campaign (about 400 000 instances each).
CAMPAIGN_SHARD = 500
#: The first seed of the long runs (parts (3) and `--instances`).
LONG_SEED = 50_000


def campaign_of(target: int, jobs: int, scheduler: str | None) -> CampaignResult:
    """The long-run campaign of at least `target` instances (`--instances`; module
    docstring), on `jobs` local processes or the workers of a Dask `scheduler`."""
    checks = canonical_checks()
    where = f"Dask at {scheduler}" if scheduler else f"{jobs} local process(es)"
    print(f"campaign of at least {target:,} instances: long runs at margin 1, seeds from "
          f"{LONG_SEED} in shards of {CAMPAIGN_SHARD}, on {where}")
    with executor(jobs, scheduler) as pool:
        workers = _workers(pool, jobs)
        start = time.perf_counter()
        done, wall, discarded = _until(checks, target, pool, workers, start)
    result = merge(done)
    seeds = len(done) * CAMPAIGN_SHARD
    violations = sum(v.violations for v in result.verdicts.values())
    print(f"total: {result.instances:,} instances, {sum(result.runs.values()):,} runs "
          f"(seeds {LONG_SEED}..{LONG_SEED + seeds - 1}, {len(done)} shards); wall {wall:.1f} "
          f"s on {workers} worker(s), worker time {result.total_seconds:.1f} s wall "
          f"(evaluation {result.evaluation_seconds:.1f} s of it), {result.cpu_seconds:.1f} "
          f"CPU-s; {discarded} shard(s) in flight beyond the target discarded")
    print(f"rates: {result.instances / result.cpu_seconds:,.0f} instances per worker CPU-second "
          f"(runs, rows and checks), {result.instances / wall:,.0f} instances/s overall")
    for line in result.lines():
        print("   ", line)
    for (check, source), verdict in sorted(result.verdicts.items()):
        if verdict.counterexample is not None:
            print(f"    counterexample of {check} on {source}: {verdict.counterexample}")
    print(f"violations: {violations}")
    return result


def _until(checks: Sequence[Check], target: int, pool: Executor, workers: int,
           start: float) -> tuple[list[CampaignResult], float, int]:
    """Shards of long runs submitted a few per worker ahead, their results taken in seed
    order until their instances reach `target`; those results, the wall time then, and how
    many shards were still in flight (cancelled or left to finish unread). Inline, a shard
    runs when it is submitted: one at a time, none ahead."""
    ahead = 1 if isinstance(pool, Inline) else 2 * workers + 2
    task = partial(run_shard, tuple(checks))  # picklable by reference, for any executor
    pending: list[Future[CampaignResult]] = []
    done: list[CampaignResult] = []
    instances = worker_seconds = 0.0
    next_seed = LONG_SEED
    report = max(1, workers * 2)
    while instances < target:
        while len(pending) < ahead:
            shard = unit_margin_shards(next_seed, CAMPAIGN_SHARD, CAMPAIGN_SHARD,
                                       compiled=True)[0]
            pending.append(pool.submit(task, shard))
            next_seed += CAMPAIGN_SHARD
        part = pending.pop(0).result()
        done.append(part)
        instances += part.instances
        worker_seconds += part.cpu_seconds
        if len(done) % report == 0 or instances >= target:
            elapsed = time.perf_counter() - start
            print(f"    {int(instances):,} instances after {len(done)} shards, {elapsed:.1f} s: "
                  f"{instances / worker_seconds:,.0f} per worker CPU-second, "
                  f"{instances / elapsed:,.0f}/s overall", flush=True)
    wall = time.perf_counter() - start
    for future in pending:
        future.cancel()
    return done, wall, len(pending)


def _throughput(result: CampaignResult, wall: float, workers: int) -> None:
    """Instances, time, and the rates per worker and overall, extrapolated to 10^8."""
    per_worker = result.instances / result.cpu_seconds
    overall = result.instances / wall
    # the evaluation is timed by the wall clock (`CampaignResult.evaluation_seconds`): a part
    # of the worker's wall time, not of its CPU time, which on a loaded machine is less
    print(f"    {result.instances} instances, {result.runs} runs; wall {wall:.2f} s on "
          f"{workers} worker(s), worker time {result.total_seconds:.2f} s wall (evaluation "
          f"{result.evaluation_seconds:.2f} s of it), {result.cpu_seconds:.2f} CPU-s")
    print(f"    throughput: {per_worker:,.0f} instances per worker CPU-second (runs, rows and "
          "checks), "
          f"{overall:,.0f} instances/s overall; 10^8 instances: "
          f"{TARGET_INSTANCES / per_worker:,.0f} worker CPU-seconds, "
          f"{TARGET_INSTANCES / overall / 3600:.2f} h wall at this overall rate (extrapolated)")


def _workers(pool: object, jobs: int) -> int:
    """Workers behind an executor: a Dask client's count, else the local processes."""
    client = getattr(pool, "_client", None)
    if client is not None:
        return len(client.scheduler_info()["workers"])
    return max(1, jobs)


if __name__ == "__main__":
    main()
