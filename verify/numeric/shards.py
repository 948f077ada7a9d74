"""Campaigns cut into shards: pieces of a source that any process or Dask worker rebuilds.

A shard names a contiguous range of one source's scenarios and a picklable recipe that makes
exactly those scenarios (same data, same u, same origins and seeds as the whole source would),
so a worker receives a few numbers, not datasets. Shards are cut by scenario count only,
never by the number of workers, and their results are merged in shard order; so a campaign
run inline, in local processes or on a Dask cluster (`verify.numeric.executors`) adds the same exact
verdicts in the same order and reports the same counts, slacks and counterexamples.

A source whose scenarios are drawn from one seed per scenario (`generated`, `orders`) is cut
by offsetting its seed; one drawn from a single stream (`tight`) replays the stream's draws
up to the shard's start without building the scenarios before it; `adversary` makes each
scenario from its position (sweep and bound); `real` is one shard (its datasets are few and
found on disk).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, partial
from typing import Literal

from perceptron.generators.adversary import OnlineAdversary
from verify.numeric import campaign
from verify.numeric.budgets import Budget
from verify.numeric.campaign import CampaignResult, Check
from verify.numeric.executors import gather
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario

#: Scenarios per shard unless asked otherwise: small enough to spread an audit's few hundred
#: runs over a few processes, large enough that each task's overhead stays small.
SHARD_SIZE = 25


#: The sources whose runs do not check a statement that reads a sum or a family member: their
#: sums are exact big-integer work (the adversary's rationals, up to 50 examples in 144
#: dimensions; the benchmark's real datasets, up to 208 examples in 1002 dimensions), 7.6 of
#: the 10.7 CPU-seconds the default audit spent on sums for about 15 000 of their rows,
#: while the other sources give every such step of the built-in proofs over 10^4 instances.
#: A count of work decided once, never a time; the other checks run there as before.
NO_FAMILIES = frozenset({"adversary", "real"})


@dataclass(frozen=True)
class Shard:
    """Scenarios `start` (inclusive) to `stop` of one source, and how to make them."""

    source: str
    start: int
    stop: int
    make: Callable[[], Iterable[Scenario]]
    reads: str | None = None  # the dataset file in `campaign.BENCH_DATA` it runs on, if any
    #: the proofs whose checks it runs (None: all): a user's data file is her proof's only
    only: frozenset[str] | None = None
    #: whether its runs are long enough that the engine's compiled loop repays importing
    #: numba in the worker, once the worker's shards of such runs have checked
    #: `COMPILE_AFTER` instances (`run_shard`; the runs are the same integers either way)
    compiled: bool = False
    #: its estimated work (`estimate`): only the order in which an audit submits its tasks
    #: (`longest_first`), never what runs, with what, or how the results are merged
    work: int = 0

    def admits(self, check: Check) -> bool:
        """Whether this shard runs `check` (named `PROOF/STEP`): one that reads a sum or a
        family member not on the sources of `NO_FAMILIES`."""
        if check.reads_families and self.source in NO_FAMILIES:
            return False
        return self.only is None or check.name.rsplit("/", 1)[0] in self.only

    def scenarios(self) -> Iterable[Scenario]:
        """The shard's scenarios, built where this is called."""
        return self.make()


RealData = Literal["present", "partial", "absent", "not used"]
"""Whether the dataset files a campaign's shards read were found: all, some, none, or no
shard reads one."""


def real_data(shards: Iterable[Shard]) -> RealData:
    """`RealData` of `shards`, looked up here in `campaign.BENCH_DATA`. A shard skips a
    missing file (the campaign is then smaller than its budget), so the audit reports this
    in its JSON and on stderr rather than passing quietly with other counts."""
    files = {s.reads for s in shards if s.reads is not None}
    found = sum((campaign.BENCH_DATA / file).is_file() for file in files)
    if not files:
        return "not used"
    return "present" if found == len(files) else "partial" if found else "absent"


#: Estimated work of one scenario of each source, in CPU-microseconds: the default audit's
#: shards run one at a time in one process (2026-11-28 at b833c8d, two rounds, load 1-2.5;
#: the adversary's per bound: `_adversary_work`). A count decided once, never a time measured
#: during a run: it orders the tasks longest first (`longest_first`) and decides nothing else.
SCENARIO_WORK: Mapping[str, int] = {
    "generated": 20_000, "tight": 10_000, "orders": 60_000, "real": 300_000,
    "unit-margin": 30_000, "orthonormal": 1_200, "separable-epochs": 5_000,
    "inseparable": 16_000, "inseparable-long": 120_000, "margin-family": 2_600,
    "noisy": 9_000, "adversarial": 14_000, "tight-pass": 4_000, "real-prefix": 30_000,
}


def estimate(source: str, scenarios: int) -> int:
    """The estimated work of `scenarios` scenarios of `source` (`SCENARIO_WORK`; a source it
    does not know, a user's data file among them, as many of the real datasets' runs)."""
    return scenarios * SCENARIO_WORK.get(source, SCENARIO_WORK["real"])


def _adversary_work(bound: int) -> int:
    """The estimated work of the adversary's run on `bound` (CPU-microseconds): b updates of
    2b-dimensional data with denominators of many bits, about 10 ms at b <= 20, 0.1-0.15 s at
    b = 40, 0.25-0.3 s at b = 49 (the fit b^4 / 20 plus 10 ms: within a factor of 2)."""
    return 10_000 + bound ** 4 // 20


def _cuts(count: int, size: int) -> Iterator[tuple[int, int]]:
    """`(start, stop)` ranges of at most `size` covering `0..count`."""
    for start in range(0, count, size):
        yield start, min(start + size, count)


def generated_shards(seed: int, count: int, size: int = SHARD_SIZE) -> list[Shard]:
    """`campaign.generated(seed, count)` in shards (scenario i is drawn from seed + i)."""
    return [Shard("generated", a, b, partial(campaign.generated, seed + a, b - a),
                  work=estimate("generated", b - a))
            for a, b in _cuts(count, size)]


def orders_shards(seed: int, count: int, size: int = SHARD_SIZE) -> list[Shard]:
    """`campaign.orders(seed, count)` in shards (scenario i searched from seed + i)."""
    return [Shard("orders", a, b, partial(campaign.orders, seed + a, b - a),
                  work=estimate("orders", b - a))
            for a, b in _cuts(count, size)]


def tight_shards(seed: int, count: int, size: int = SHARD_SIZE) -> list[Shard]:
    """`campaign.tight(seed, count)` in shards (one random stream, its draws replayed up to
    each shard's start without building those families)."""
    return [Shard("tight", a, b, partial(campaign.tight, seed, b - a, a),
                  work=estimate("tight", b - a))
            for a, b in _cuts(count, size)]


def adversary_shards(seed: int, bounds: Sequence[int], sweeps: int = 1,
                     size: int = SHARD_SIZE) -> list[Shard]:
    """`campaign.adversary(seed, bounds, sweeps)` in shards, each scenario made directly."""
    bounds = tuple(bounds)
    return [Shard("adversary", a, b, partial(_adversary_cut, seed, bounds, a, b),
                  work=sum(_adversary_work(bounds[p % len(bounds)]) for p in range(a, b)))
            for a, b in _cuts(len(bounds) * sweeps, size)]


def _adversary_cut(seed: int, bounds: tuple[int, ...], start: int, stop: int
                   ) -> Iterator[Scenario]:
    """Scenarios `start..stop` of `campaign.adversary(seed, bounds, sweeps)`: position p is
    sweep `p // len(bounds)` on bound `bounds[p % len(bounds)]`, made as that source makes
    it (same shape, same seed; a test compares the two), without playing the ones before."""
    for position in range(start, stop):
        sweep, i = divmod(position, len(bounds))
        R2, gamma = campaign.ADVERSARY_SHAPES[sweep % len(campaign.ADVERSARY_SHAPES)](bounds[i])
        run_seed = seed + 1000 * sweep + bounds[i]
        played = OnlineAdversary(R2, gamma, seed=run_seed).play()
        yield Scenario(played.data, played.u, Origin("adversary", run_seed, played.data.name))


def real_shards(seed: int, orders_per_set: int,
                sets: Sequence[campaign.RealSet] = campaign.REAL_SETS) -> list[Shard]:
    """`campaign.real(seed, orders_per_set)`, one shard per dataset (in the source's order; a
    missing file is skipped where the shard runs)."""
    if orders_per_set <= 0:
        return []
    return [Shard("real", k * orders_per_set, (k + 1) * orders_per_set,
                  partial(campaign.real, seed, orders_per_set, (spec,)), spec.file,
                  work=estimate("real", orders_per_set))
            for k, spec in enumerate(sets)]


def unit_margin_shards(seed: int, count: int, size: int = SHARD_SIZE, *,
                       compiled: bool = False) -> list[Shard]:
    """`unit_margin.unit_margin(seed, count)` in shards (scenario i from seed + i); with
    `compiled`, run by the engine's compiled loop once the worker has checked
    `COMPILE_AFTER` instances of such shards (`Shard.compiled`): a long-run campaign's
    choice, since loading it costs about half a CPU-second per worker process, more than a
    few thousand seeds save."""
    from verify.numeric.unit_margin import unit_margin

    return [Shard("unit-margin", a, b, partial(unit_margin, seed + a, b - a),
                  compiled=compiled, work=estimate("unit-margin", b - a))
            for a, b in _cuts(count, size)]


def orthonormal_shards(seed: int, count: int, size: int = SHARD_SIZE) -> list[Shard]:
    """`orthonormal.orthonormal_positive(seed, count)` in shards (scenario i from seed + i)."""
    from verify.numeric.orthonormal import orthonormal_positive

    return [Shard("orthonormal", a, b, partial(orthonormal_positive, seed + a, b - a),
                  work=estimate("orthonormal", b - a))
            for a, b in _cuts(count, size)]


def epoch_shards(budget: Budget, seed: int, size: int = SHARD_SIZE) -> list[Shard]:
    """The cyclic runs' sources (`verify.numeric.epochs`) in shards (scenario i from
    seed + i): each long run of 10^4 epochs a shard of its own."""
    from verify.numeric import epochs

    out: list[Shard] = []
    for name, count, make, per in (
            ("separable-epochs", budget.separable_epochs, epochs.separable_epochs, size),
            ("inseparable", budget.inseparable, epochs.inseparable, size),
            ("inseparable-long", budget.inseparable_long, epochs.inseparable_long, 1),
            ("margin-family", budget.margin_families, epochs.margin_families, 4 * size)):
        out += [Shard(name, a, b, partial(make, seed + a, b - a), work=estimate(name, b - a))
                for a, b in _cuts(count, per)]
    return out


def pass_shards(seed: int, count: int, prefix_orders: int, size: int = SHARD_SIZE
                ) -> list[Shard]:
    """The single-pass sources (`verify.numeric.passes`) in shards: the planted families
    by offsetting the seed (scenario i from seed + i), each real prefix set in one shard."""
    from verify.numeric import passes

    out = [Shard(name, a, b, partial(make, seed + a, b - a), work=estimate(name, b - a))
           for name, make in (("noisy", passes.noisy), ("adversarial", passes.adversarial),
                              ("tight-pass", passes.tight))
           for a, b in _cuts(count, size)]
    if prefix_orders > 0:
        out += [Shard("real-prefix", k * prefix_orders, (k + 1) * prefix_orders,
                      partial(passes.real_prefix, seed, prefix_orders, (spec,)), spec[0],
                      work=estimate("real-prefix", prefix_orders))
                for k, spec in enumerate(passes.PREFIX_SETS)]
    return out


def budget_shards(budget: Budget, seed: int, size: int = SHARD_SIZE, *, passes: bool = True,
                  runs: bool = True) -> tuple[Shard, ...]:
    """The sources of `budget.sources(seed)`, in the same order, cut into shards: those of
    runs to convergence (`runs`) and those of single passes (`passes`), since only
    single-pass checks read single-pass scenarios and only they read them."""
    out: list[Shard] = []
    if runs:
        out += [*generated_shards(seed, budget.generated, size),
                *tight_shards(seed, budget.tight, size),
                # the adversary's runs grow with the bound b (b updates of 2b-dimensional data
                # with denominators of many bits): two bounds per shard, so none is a long tail
                *adversary_shards(seed, range(1, budget.adversary_bounds + 1), 1, 2),
                *orders_shards(seed, budget.orders, max(1, size // 5)),
                *real_shards(seed, budget.real),
                *unit_margin_shards(seed, budget.unit_margin, size),
                *orthonormal_shards(seed, budget.orthonormal, size),
                *epoch_shards(budget, seed, size)]
    if passes:
        out += pass_shards(seed, budget.passes, budget.prefix_orders, max(1, size // 2))
    return tuple(out)


def run_shard(checks: Sequence[Check], shard: Shard) -> CampaignResult:
    """One shard's campaign, with the default engine (runs where it is called), on the
    checks it admits, with fewer collections of the youngest generation
    (`fewer_collections`). A `compiled` shard run by a process whose `compiled` shards have
    checked `COMPILE_AFTER` instances first loads the engine's compiled loop (once per
    process: the engine's `auto` mode then runs every block in it), and that time is
    counted in the shard's `total_seconds` and `cpu_seconds` with the rest of the worker's
    work."""
    return run_shards(checks, (shard,))


def run_shards(checks: Sequence[Check], shards: Sequence[Shard]) -> CampaignResult:
    """The campaign of several shards in one task (`bundles`: consecutive shards alike in
    source, proofs and runs), as `run_shard` runs one: the same verdicts, counts,
    counterexamples and witnesses as `merge` of each shard's `run_shard` in order (each
    shard a segment of `campaign.run_campaign`, which ends its stages as a shard's campaign
    does), but the rows of all of them checked together, a few batches per row set instead
    of a few per shard. Those per-shard batches were most of a shard's work on the mixed
    sources (small runs, a few dozen rows each; `benchmarks/campaign.py`)."""
    first = shards[0]
    assert all(_alike(first, s) for s in shards), "a bundle of unlike shards"
    start, cpu = time.perf_counter(), time.process_time()
    if first.compiled and _LONG_INSTANCES[0] >= COMPILE_AFTER:
        _long_runs_ahead()
    _settled()
    warm, warm_cpu = time.perf_counter() - start, time.process_time() - cpu
    with fewer_collections():
        result = campaign.run_campaign([c for c in checks if first.admits(c)],
                                       [(s.source, s.scenarios()) for s in shards])
    result.total_seconds += warm
    result.cpu_seconds += warm_cpu
    if first.compiled:
        _LONG_INSTANCES[0] += result.instances
    return result


def _alike(one: Shard, other: Shard) -> bool:
    """Whether two shards run the same checks the same way (`bundles`)."""
    return (one.source, one.only, one.compiled) == (other.source, other.only, other.compiled)


def bundles(shards: Sequence[Shard], per_task: int, checks: Sequence[Check]
            ) -> list[tuple[Shard, ...]]:
    """`shards` in order, cut into tasks of at most `per_task` consecutive shards alike in
    source, proofs and runs (`run_shards`); one shard per task when one of `checks` runs a
    plug-in: a plug-in's fault ends the runs of the rest of its task, so bundled, the shards
    after it in the task would make none, and what its runs made would depend on the
    bundling; one per task, each shard's result is its own. (The audit and the campaigns
    both cut their tasks here, so the rule has this one home.)"""
    if any(check.plugin is not None for check in checks):
        per_task = 1
    out: list[tuple[Shard, ...]] = []
    for shard in shards:
        if out and len(out[-1]) < per_task and _alike(out[-1][0], shard):
            out[-1] += (shard,)
        else:
            out.append((shard,))
    return out


def longest_first(tasks: Sequence[Sequence[Shard]]) -> list[int]:
    """The indices of `tasks`, the largest estimated work first (`Shard.work`, summed; ties
    in task order): the order in which a pool best receives them, so that the longest do not
    start last and leave one worker waiting on the other at the end (a list schedule's
    tail). Only an order of submission: results are merged in task order all the same."""
    return sorted(range(len(tasks)), key=lambda i: -sum(s.work for s in tasks[i]))


#: Instances a process's `compiled` shards check before it loads the engine's compiled loop
#: (`run_shard`): a count of work, never a time. Loading it (numba's import and its first
#: call, which loads the cached machine code) cost about 0.5 CPU-s, and it then saved about
#: 0.08 CPU-s per 10^6 instances of long runs at margin 1 against the engine's Python loop
#: for small problems (`perceptron.algorithms.online.run_trace`; 2000 seeds of
#: `benchmarks/campaign.py` part (3), three rounds each way): it repays itself after about
#: 6 * 10^6 instances, so a process pays at most about twice the better of the two
#: (loading at once, or never), the rent-or-buy bound. A campaign of 10^8 instances loads it
#: in its first dozen shards per worker; one of a few million never needs it.
COMPILE_AFTER = 5_000_000
#: Instances checked so far by this process's `compiled` shards.
_LONG_INSTANCES = [0]


@cache
def _settled() -> None:
    """Move every object alive in this process when its first shard starts (the imported
    modules, SymPy's among them, the checks and, in an audit run serially, its plan) out of
    the cyclic collector's sight, once (`gc.freeze`, after a collection: garbage now is
    collected, not frozen). The runs' rows and datasets trigger the collector's full passes
    (about one per dozen shards), and each scanned those objects again: about 0.7 of the
    audit's 25 CPU-seconds of shards, measured by `gc.callbacks`. Objects frozen are never
    collected as cycles (reference counting still frees the rest), and only those alive now
    are frozen; nothing a shard computes depends on it.

    The collection is of the two younger generations only: the oldest holds what survived
    the imports' own collections, a full pass over it cost 35-40 ms of CPU once per process
    (about a tenth of the mixed sources' shards of `benchmarks/campaign.py --medium`) and
    found no garbage there, in a fresh process, in the benchmark's after its part (1) and in
    the default audit's two workers (`gc.collect(2)` after `gc.collect(1)`: 0 objects); in
    a serial audit (`--jobs 1`, after the symbolic half) it found 175 small objects in 92
    ms. A cycle left in it only stays allocated, frozen, until the process ends."""
    gc.collect(1)
    gc.freeze()


@cache
def _long_runs_ahead() -> None:
    """Ready this process for many long runs, once: load the engine's compiled loop, and move
    its objects out of the cyclic collector's sight as `_settled` does the modules' (their
    full collections were about a tenth of a long-run worker's time): with the modules
    before the first shard's `_settled`, or by freezing again after it (between shards:
    what is alive then is the process's own, a shard's rows being gone)."""
    from perceptron.algorithms import compiled

    if compiled.AVAILABLE:
        compiled.kernels()
        if _settled.cache_info().currsize:
            gc.collect(1)
            gc.freeze()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The youngest generation collected after `YOUNG_OBJECTS` allocations instead of the
    process's threshold (Python's default is 700), while a shard runs: each run's rows
    allocate and free thousands of small objects (arrays, columns, dicts, Fractions), and
    the collections they triggered were about 6% of a long-run worker's time, and 0.4 of the
    default audit's 17 CPU-seconds of shards (1 353 collections, `gc.callbacks`; 5 with this
    threshold). The garbage is still collected, a little later; the threshold is the
    process's own again afterwards."""
    before = gc.get_threshold()
    gc.set_threshold(max(YOUNG_OBJECTS, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


#: The youngest generation's threshold while a shard runs (`fewer_collections`). A shard's
#: objects are freed by reference counting (its batches make no cycles: `verify.runs.families`'
#: chunks read their batch by a weak reference), so a collection only scans objects that are
#: still alive; fewer of them scan each one fewer times. The default audit's shards serially
#: (2026-11-29, load 8-12, `gc.callbacks`): 37 collections, 0.21-0.34 CPU-s at 20 000; 27,
#: 0.09 at 100 000, most of them the one at each shard's end; peak memory the same (248 MB).
YOUNG_OBJECTS = 100_000


def merge(results: Iterable[CampaignResult]) -> CampaignResult:
    """Shard results added in the order given: verdicts merged per (check, source), runs and
    seconds summed (wall and CPU seconds spent on workers, for rates only), and how plug-ins'
    runs ended; the first witness of each (check, source) and the first fault of each
    plug-in kept. A plug-in's checks keep the verdicts (witnesses, runs) of the results
    before its first fault, none from that result (`campaign.run_campaign` dropped them) or
    after it: the runs before a fault are made in every schedule, those after it may be
    stopped by its posted timeout or not (`verify.runs.plugin.at`), so the merge is the same
    whatever the processes and the order they ran in (newcomer 19 §3: a timeout once threw
    away every run, also those that had finished)."""
    total = CampaignResult()
    ended: set[str] = set()  # plug-ins whose fault came in an earlier result
    for kept, part in enumerate(results):
        # A plug-in's budget (`Plugin.work`) is spent in the order of the results: the first
        # result whose runs bring its updates and iterations past it, or that stopped because
        # they had passed it (`campaign._Group.over`: only ever that result or a later one), is
        # dropped with every later one, its fault (if any: one found after the budget was
        # passed) with it. Every result before it is under the budget, so it ran whole in every
        # schedule, and the cut is the same whatever the processes and the order they ran in.
        for plugin, spent in part.spent.items():
            if plugin in ended or plugin not in part.budgets:  # ended, or no budget
                continue
            total.budgets[plugin] = part.budgets[plugin]
            if plugin in part.over or total.spent.get(plugin, 0) + spent > part.budgets[plugin]:
                total.over[plugin] = kept
                ended.add(plugin)
            else:
                total.spent[plugin] = total.spent.get(plugin, 0) + spent
        cut = {name for plugin in ended for name in part.plugin_checks.get(plugin, ())}
        for key, verdict in part.verdicts.items():
            if key[0] not in cut:
                total.record(*key, verdict)
        for source, runs in part.runs.items():
            total.runs[source] = total.runs.get(source, 0) + runs
        for key, scenario in part.witnesses.items():
            if key[0] not in cut:
                total.witnesses.setdefault(key, scenario)
        for name, fault in part.faults.items():
            if name not in total.over:
                total.faults.setdefault(name, fault)
        for key, ran in part.plugins.items():
            if key[0] not in ended:
                total.plugins[key] = total.plugins[key] + ran if key in total.plugins else ran
        for name, checks in part.plugin_checks.items():
            total.plugin_checks[name] = total.plugin_checks.get(name, frozenset()) | checks
        ended.update(name for name in part.faults if name not in total.over)
        total.evaluation_seconds += part.evaluation_seconds
        total.total_seconds += part.total_seconds
        total.cpu_seconds += part.cpu_seconds
    return total


@dataclass(frozen=True)
class _Task:
    """A picklable call of `run_shards` (the checks travel with each task)."""

    checks: tuple[Check, ...]

    def __call__(self, shards: tuple[Shard, ...]) -> CampaignResult:
        return run_shards(self.checks, shards)


def run_sharded(checks: Sequence[Check], shards: Sequence[Shard], pool: Executor,
                per_task: int = 1) -> tuple[CampaignResult, float]:
    """Every shard on `pool`, up to `per_task` consecutive alike shards per task
    (`bundles`), merged in shard order; and the wall-clock seconds taken. The verdicts,
    counts and counterexamples are the same whatever `per_task` (`run_shards`); only the
    work per task differs.

    The merged result's `total_seconds` is the sum of the tasks' own times (worker time);
    the wall time is returned beside it, so throughput per worker and overall can both be
    stated.
    """
    start = time.perf_counter()
    result = merge(gather(pool, _Task(tuple(checks)), bundles(shards, per_task, checks)))
    return result, time.perf_counter() - start
