"""Campaigns: check proof steps exactly on every update of many adversarial runs.

A campaign takes checks (a judgement with its binding, `verify.vocabulary`) and sources of
scenarios (a dataset in a fixed order, a reference separator u, and the origin that reproduces
it), runs the perceptron on each scenario, binds every update (or state) of the run to the
judgement's names, and evaluates all rows exactly and vectorised (`verify.numeric.instances`).
Verdicts are aggregated per check and source, with the time spent evaluating, so the throughput in
exact instances per second is measured, not guessed.

Sources (each named in the report, each seeded, the seed printed in every origin):
`generated` (planted separable data, `perceptron.generators.hypothesis`), `tight` (orthonormal
families, `perceptron.generators.tight`), `adversary` (`perceptron.generators.adversary`), `orders`
(most-mistakes orders, `perceptron.generators.orders`) and `real` (iris setosa-vs-rest, sonar's
first epochs, small Coq benchmark sets, each with a bias coordinate 1 prepended and an exact
separator as u); and the sources of the cyclic runs (issue 31, `verify.cyclic`, run by their
own algorithms only): `separable-epochs`, `inseparable` and `inseparable-long` (data that are
not separable, with a Gordan certificate; the long ones at 10^4 epochs) and `margin-family`
(tight at every margin, `perceptron.generators.tight.margin_family`).

Every scenario is run online (`runner`) when a check binds online rows, and as a batch run
with the oracle-optimal step (`batch_runner`, from three starts, `batch_starts`) when a check
binds batch rows. Checks are grouped by the algorithm they name (`Check.algorithm`, a
`perceptron.algorithms.sources` id, None for the default perceptron): each group's rows come
from runs of its own algorithm only, so runs of different algorithms are never mixed.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from math import lcm
from pathlib import Path
from typing import Never

from perceptron.algorithms.sources import SOURCE_ALGORITHMS, SourceAlgorithm
from perceptron.conventions import DEFAULT, Conventions
from perceptron.dataset import Dataset, Vector
from perceptron.generators.adversary import OnlineAdversary, rational_squares
from perceptron.generators.hypothesis import seeded_separable
from perceptron.generators.orders import MistakeCounter, most_mistakes
from perceptron.generators.tight import margin_family, orthonormal
from perceptron.geometry.linear import radius2
from proofs.language.terms import Vec, dot, norm2, scalar
from verify.kernel import Fact, Judgement
from verify.numeric.algorithms import OWN_ALGORITHMS, cyclic_runs, runs_by_default
from verify.numeric.instances import CompiledJudgement, InstanceBatch, NumericVerdict, Origin
from verify.runs.plugin import Plugin, PluginFault, steps_of
from verify.vocabulary import (
    BATCH_BINDINGS,
    CYCLIC_BINDINGS,
    PASS_BINDINGS,
    BatchRun,
    Binding,
    OnlineUpdates,
    batch_run_from_engine,
    radius_bound,
    rows,
)

#: Magnitude under which a run's rows are grouped with others for int64 evaluation.
SMALL = 2**20


@dataclass(frozen=True)
class Check:
    """A judgement to check numerically, which rows bind its names, and of which algorithm's
    runs (a `SOURCE_ALGORITHMS` or `verify.numeric.algorithms.OWN_ALGORITHMS` id, or the
    name of a user's `plugin`; None: the default perceptron)."""

    name: str
    judgement: Judgement
    binding: Binding
    algorithm: str | None = None
    plugin: Plugin | None = None  # the user's algorithm of that name (`verify.runs.plugin`)


def canonical_checks() -> tuple[Check, ...]:
    """The Block–Novikoff steps in squared form (no square root anywhere)."""
    w, x, w_next, u = (Vec.named(n) for n in ("w", "x", "w_next", "u"))
    y, t, R2, gamma_u = (scalar(n) for n in ("y", "t", "R2", "gamma_u"))
    step = w + x.scaled(y)
    update_facts = (Fact(y**2 - 1, "=="), Fact(-y * dot(w, x), ">="),
                    Fact(R2 - norm2(x), ">="))
    norm_bound = Fact(t * R2 - norm2(w), ">=")
    lower_bound = Fact(dot(w, u) - t * gamma_u, ">=")
    return (
        Check("norm-growth", Judgement(update_facts, Fact(norm2(w) + R2 - norm2(step), ">="),
                                       ("w", "x"), ("y", "R2")), "example"),
        Check("update-rule", Judgement((), Fact(norm2(w_next - step), "=="),
                                       ("w", "w_next", "x"), ("y",)), "update"),
        Check("norm-invariant", Judgement((Fact(t, ">="),), norm_bound, ("w",), ("t", "R2")),
              "state"),
        Check("lower-bound", Judgement((Fact(t, ">="),), lower_bound, ("w", "u"),
                                       ("t", "gamma_u")), "state"),
        Check("final-bound", Judgement(
            (Fact(t, ">="), Fact(R2, ">="), Fact(gamma_u, ">"), norm_bound, lower_bound),
            Fact(R2 * norm2(u) - t * gamma_u**2, ">="), ("w", "u"), ("t", "R2", "gamma_u")),
            "state"),
    )


def wrong_norm_growth() -> Check:
    """The norm-growth step without its R2 term: false, for testing refutation."""
    w, x = Vec.named("w"), Vec.named("x")
    y, R2 = scalar("y"), scalar("R2")
    hyps = (Fact(y**2 - 1, "=="), Fact(-y * dot(w, x), ">="), Fact(R2 - norm2(x), ">="))
    claim = Fact(norm2(w) - norm2(w + x.scaled(y)), ">=")
    return Check("norm-growth-without-R2", Judgement(hyps, claim, ("w", "x"), ("y", "R2")),
                 "update")


@dataclass(frozen=True)
class Scenario:
    """One run to make: data in this order, a reference u, and where it came from."""

    data: Dataset
    u: Vector
    origin: Origin
    max_epochs: int = 1000
    max_iterations: int = 40
    #: margins gamma > 0 of a single-pass scenario (`verify.numeric.passes`: any data, a unit
    #: u); only single-pass checks read such a scenario, and they read no other
    margins: tuple[Fraction, ...] = ()


#: Runs the perceptron on a scenario and returns its updates in vocabulary form (or several
#: runs: an algorithm with a parameter, such as the margin perceptron's beta).
Runner = Callable[[Scenario], OnlineUpdates | tuple[OnlineUpdates, ...]]
#: Runs the batch perceptron on a scenario (possibly from several starts).
BatchRunner = Callable[[Scenario], tuple[BatchRun, ...]]


def engine_runner(scenario: Scenario, conventions: Conventions = DEFAULT) -> OnlineUpdates:
    """The exact engine (`perceptron.algorithms.online.run_online`), default conventions unless
    given."""
    from perceptron.algorithms.online import run_online
    from verify.vocabulary import run_from_engine

    result = run_online(scenario.data, conventions, max_epochs=scenario.max_epochs,
                        keep_trace=True)
    return run_from_engine(result, scenario.data, scenario.u)


def as_source_runs(scenario: Scenario, algorithm: SourceAlgorithm) -> Scenario:
    """The scenario as `algorithm` sees it: with its bias, every x augmented by a constant 1
    and u by a 0 (same margins), so the run's x, w and u are the source's augmented ones;
    normalised, the (augmented) examples divided by the vocabulary's radius `R`, so every
    ||x|| <= 1 as the source assumes. From w_0 = 0 the run is the original one rescaled (same
    updates), and u stays: its margin `gamma_u`, like `R2`, is that of the run's own data."""
    if algorithm.bias:
        scenario = replace(scenario, data=scenario.data.augmented(), u=(*scenario.u, Fraction(0)))
    if algorithm.normalised:
        scenario = replace(scenario, data=normalised(scenario.data))
    return scenario


def normalised(data: Dataset) -> Dataset:
    """`data` divided by `R` (`verify.vocabulary.radius_bound` of its R2, rational and at least
    max ||x||), so max ||x|| <= 1 exactly; all-zero data are already within the unit ball."""
    R = radius_bound(radius2(data))
    if R == 0:
        return data
    # a zero stays the zero it is (no division: the adversary's rows are half zeros)
    return Dataset(tuple(tuple(v / R if v else v for v in x) for x in data.X), data.y, data.name)


def source_runner(algorithm_id: str) -> Runner:
    """The online runner of a source's algorithm: its rule, sign(0), learning rate, bias."""
    algorithm = SOURCE_ALGORITHMS[algorithm_id]
    conventions = replace(algorithm.conventions(), bias=False)  # the bias is in the data
    return lambda scenario: engine_runner(as_source_runs(scenario, algorithm), conventions)


def batch_starts(scenario: Scenario) -> tuple[Vector, ...]:
    """theta0 = 0 (the theorem's start), -u (opposite the separator) and a seeded integer
    vector in [-9, 9]^d (seed: the scenario's, so its origin reproduces it)."""
    rng = random.Random(scenario.origin.seed or 0)
    return (tuple(Fraction(0) for _ in scenario.u), tuple(-v for v in scenario.u),
            tuple(Fraction(rng.randint(-9, 9)) for _ in scenario.u))


def engine_batch_runner(scenario: Scenario, rule: str = "le") -> tuple[BatchRun, ...]:
    """`perceptron.algorithms.batch.run_batch` with the oracle-optimal step for theta* = u, per
    start, updating over M_k = {j : y_j <theta_k, x_j> <= 0} (or `< 0` with `rule="lt"`)."""
    from perceptron.algorithms.batch import run_batch

    return tuple(
        batch_run_from_engine(
            run_batch(scenario.data, step="optimal", theta_star=scenario.u, w0=start, rule=rule,
                      max_iterations=scenario.max_iterations),
            scenario.data, scenario.u, start)
        for start in batch_starts(scenario))


def source_batch_runner(algorithm_id: str) -> BatchRunner:
    """The batch runner of a source's algorithm: its M_k rule and bias, the optimal step."""
    algorithm = SOURCE_ALGORITHMS[algorithm_id]
    if algorithm.mode != "batch" or algorithm.step != "optimal":
        raise ValueError(f"{algorithm_id} is not a batch perceptron with the optimal step")
    return lambda scenario: engine_batch_runner(as_source_runs(scenario, algorithm),
                                                algorithm.rule)


def engine_mistake_counter() -> MistakeCounter:
    """Mistakes of the default engine run (for order search)."""
    from perceptron.generators.orders import engine_mistakes

    return engine_mistakes


# ---- sources -------------------------------------------------------------------------------


def generated(seed: int, count: int) -> Iterator[Scenario]:
    """Planted separable data, scenario i drawn from seed `seed + i`."""
    for i in range(count):
        planted = seeded_separable(seed + i)
        yield Scenario(planted.data, planted.u, Origin("generated", seed + i, planted.data.name))


def tight(seed: int, count: int) -> Iterator[Scenario]:
    """Orthonormal families with random labels, sizes 1..8, scales and rational rotations."""
    rng = random.Random(seed)
    for i in range(count):
        n = rng.randint(1, 8)
        labels = [rng.choice((-1, 1)) for _ in range(n)]
        scale = Fraction(rng.randint(1, 9), rng.choice((1, 1, 2, 3)))
        dim = n + rng.randint(0, 2)
        rotation = rng.randrange(10**6) if rng.random() < 0.5 else None
        family = orthonormal(labels, scale=scale, dim=dim, rotation_seed=rotation)
        yield Scenario(family.data, family.u, Origin("tight", seed + i, family.data.name))


#: (R2, gamma) families of the adversary: the bound R2/gamma^2 is b for each b.
ADVERSARY_SHAPES: tuple[Callable[[int], tuple[Fraction, Fraction]], ...] = (
    lambda b: (Fraction(b), Fraction(1)),
    lambda b: (Fraction(b, 4), Fraction(1, 2)),
    lambda b: (Fraction(9 * b), Fraction(3)),
    lambda b: (Fraction(4 * b, 9), Fraction(2, 3)),
)


def adversary(seed: int, bounds: Sequence[int] = tuple(range(1, 51)),
              sweeps: int = len(ADVERSARY_SHAPES)) -> Iterator[Scenario]:
    """The online adversary for every bound value b, sweeping the shapes (labels seeded)."""
    for k in range(sweeps):
        shape = ADVERSARY_SHAPES[k % len(ADVERSARY_SHAPES)]
        for b in bounds:
            R2, gamma = shape(b)
            run_seed = seed + 1000 * k + b
            played = OnlineAdversary(R2, gamma, seed=run_seed).play()
            yield Scenario(played.data, played.u,
                           Origin("adversary", run_seed, played.data.name))


def orders(seed: int, count: int, counter: MistakeCounter | None = None) -> Iterator[Scenario]:
    """For small planted datasets, the order found with the most mistakes."""
    count_mistakes = counter or engine_mistake_counter()
    for i in range(count):
        planted = seeded_separable(seed + i, max_n=6, max_dim=3)
        found = most_mistakes(planted.data, mistakes=count_mistakes, seed=seed + i)
        yield Scenario(planted.data.subset(found.order), planted.u,
                       Origin("orders", seed + i, planted.data.name, found.order))


def _bench_data() -> Path:
    """Where the benchmark sets are (bench-data/README.md): `NOVIKOFF_BENCH_DATA`, else
    `shared/bench-data/coqperceptron` beside the checkout (which may not exist: a source
    skips a missing file and the audit reports `real_data`). The one place the tests, the
    benchmarks and the audit's real sources all look; no machine's absolute path."""
    if chosen := os.environ.get("NOVIKOFF_BENCH_DATA"):
        return Path(chosen)
    return Path(__file__).resolve().parents[3] / "shared" / "bench-data" / "coqperceptron"


#: The benchmark sets' folder (`_bench_data`).
BENCH_DATA = _bench_data()


@dataclass(frozen=True)
class RealSet:
    """A real dataset: its file, how to relabel it, and the online run's epoch cap."""

    file: str
    name: str
    max_epochs: int = 1000
    max_iterations: int = 40


#: iris: the file labels setosa +1 and the rest -1. Sonar: its first epochs only.
REAL_SETS = (
    RealSet("iris_data_set", "iris setosa-vs-rest"),
    RealSet("rocks_and_mines", "sonar (first 3 epochs)", max_epochs=3, max_iterations=20),
    RealSet("vec50_1.dat", "coq vec50_1"),
    RealSet("feat100_1.dat", "coq feat100_1"),
)


def with_bias(data: Dataset, name: str) -> Dataset:
    """The examples with a constant 1 prepended, as the benchmark runs them."""
    return Dataset(tuple((Fraction(1), *x) for x in data.X), data.y, name)


def real(seed: int, orders_per_set: int, sets: Sequence[RealSet] = REAL_SETS,
         directory: Path = BENCH_DATA) -> Iterator[Scenario]:
    """Real data, bias prepended, u an exact separator (`perceptron.geometry.separability`).

    Per set, the file order and then `orders_per_set - 1` orders shuffled with seeds
    `seed + 1, ...`. A set whose file is missing is skipped (the report counts runs).
    """
    from perceptron.geometry.separability import separability
    from perceptron.io.loaders import load

    for spec in sets:
        path = directory / spec.file
        if not path.is_file():
            continue
        data = with_bias(load(path), spec.name)
        found = separability(data)
        if not found.separable:
            continue
        for k in range(orders_per_set):
            order = None if k == 0 else _shuffled(data.n, seed + k)
            yield Scenario(data if order is None else data.subset(order), found.w,
                           Origin("real", seed + k if order else None, spec.name, order),
                           spec.max_epochs, spec.max_iterations)


def _shuffled(n: int, seed: int) -> tuple[int, ...]:
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return tuple(order)


# ---- the cyclic runs' sources (issue 31, verify.cyclic) ------------------------------------
# Run in cyclic epochs and read presentation by presentation, by the algorithms that name
# them only (`verify.numeric.algorithms`): `separable-epochs` (planted separable data),
# `inseparable` (data with a Gordan certificate, in turn xor in the plane, parity on the
# cube's vertices, flipped planted labels surrounding the origin, flipped planted labels),
# `inseparable-long` (xor and surrounding data at 10^4 epochs) and `margin-family` (the
# families tight at every margin). Scenario i is drawn from seed + i, so shards cut them by
# offsetting the seed.

#: Epochs of the short runs of data that are not separable, and of the long ones.
SHORT_EPOCHS = 60
LONG_EPOCHS = 10_000

#: rho = R^2/gamma^2 of the margin families: 1, 3/2, 2, 7/3, 3, 13/4, ..., 49, 2451/50, 50.
RHOS: tuple[Fraction, ...] = tuple(sorted(
    {Fraction(k) for k in range(1, 51)} | {k + Fraction(1, k + 1) for k in range(1, 50)}))
#: The squared radii of the margin families (squares and not: 2 and 7/3 need more coordinates).
RADII2: tuple[Fraction, ...] = (Fraction(1), Fraction(4, 9), Fraction(2), Fraction(7, 3))


def separable_epochs(seed: int, count: int) -> Iterator[Scenario]:
    """Planted separable data, scenario i from seed + i."""
    for i in range(count):
        planted = seeded_separable(seed + i)
        name = f"planted(seed={seed + i})"
        yield Scenario(Dataset(planted.data.X, planted.data.y, name), planted.u,
                       Origin("separable-epochs", seed + i, name))


def _xor(rng: random.Random) -> tuple[Dataset, Vector, str]:
    """Xor in the plane: (a, b), (-a, -b) labelled +1 and (a, -b), (-a, b) labelled -1,
    positive integers a, b, in a random order."""
    a, b = rng.randint(1, 4), rng.randint(1, 4)
    points = [((a, b), 1), ((-a, -b), 1), ((a, -b), -1), ((-a, b), -1)]
    rng.shuffle(points)
    data = Dataset(tuple(tuple(Fraction(v) for v in p) for p, _ in points),
                   tuple(y for _, y in points))
    return data, (Fraction(1), Fraction(0)), f"xor(a={a}, b={b})"


def _parity(rng: random.Random) -> tuple[Dataset, Vector, str]:
    """Parity on the vertices of the cube [-a, a]^3 (label: the product of the signs)."""
    a = rng.randint(1, 3)
    points = [((i * a, j * a, k * a), i * j * k) for i in (-1, 1) for j in (-1, 1)
              for k in (-1, 1)]
    rng.shuffle(points)
    data = Dataset(tuple(tuple(Fraction(v) for v in p) for p, _ in points),
                   tuple(y for _, y in points))
    return data, (Fraction(1), Fraction(0), Fraction(0)), f"parity(a={a})"


def _noisy(rng: random.Random, surround: bool) -> tuple[Dataset, Vector, str]:
    """Integer points in [-6, 6]^d (d = 2 or 3) labelled by a planted integer u, a few labels
    flipped, drawn until the data are not separable (and, with `surround`, until their signed
    examples surround the origin)."""
    from verify.cyclic import gordan, surrounding

    for attempt in range(1000):
        dim = rng.choice((2, 3))
        u = [0] * dim
        while not any(u):
            u = [rng.randint(-3, 3) for _ in range(dim)]
        n = rng.randint(5, 9)
        X: list[tuple[Fraction, ...]] = []
        y: list[int] = []
        while len(X) < n:
            x = [rng.randint(-6, 6) for _ in range(dim)]
            score = sum(a * b for a, b in zip(u, x, strict=True))
            if score:
                X.append(tuple(Fraction(v) for v in x))
                y.append(1 if score > 0 else -1)
        for j in rng.sample(range(n), rng.randint(1, max(1, n // 3))):
            y[j] = -y[j]
        data = Dataset(tuple(X), tuple(y))
        if surround and surrounding(data) is None:
            continue
        if any(gordan(data)):  # a Gordan certificate: not separable (cached for the runs)
            what = "surrounding" if surround else "not separable"
            return data, tuple(Fraction(v) for v in u), f"noisy {what}(d={dim}, n={n}, " \
                f"draw {attempt})"
    raise AssertionError("no inseparable draw in 1000 attempts")


def _family(i: int, rng: random.Random) -> tuple[Dataset, Vector, str]:
    """The i-th family of data that are not separable: xor, parity, noisy surrounding the
    origin, noisy."""
    kind = i % 4
    if kind == 0:
        return _xor(rng)
    if kind == 1:
        return _parity(rng)
    return _noisy(rng, kind == 2)


def inseparable(seed: int, count: int, *, epochs: int = SHORT_EPOCHS,
                source: str = "inseparable", kinds: tuple[int, ...] = (0, 1, 2, 3)
                ) -> Iterator[Scenario]:
    """`count` data sets that are not separable, scenario i from seed + i, of the family
    `kinds[(seed + i) % len(kinds)]`, run for `epochs` epochs."""
    for i in range(count):
        rng = random.Random(seed + i)
        data, u, what = _family(kinds[(seed + i) % len(kinds)], rng)
        name = f"{what}, seed {seed + i}"
        yield Scenario(Dataset(data.X, data.y, name), u, Origin(source, seed + i, name), epochs)


def inseparable_long(seed: int, count: int) -> Iterator[Scenario]:
    """Xor and planted data surrounding the origin, in turn, run for `LONG_EPOCHS` epochs."""
    return inseparable(seed, count, epochs=LONG_EPOCHS, source="inseparable-long",
                       kinds=(0, 2))


def margin_families(seed: int, count: int) -> Iterator[Scenario]:
    """Families tight at every margin: scenario i has rho = RHOS[(seed + i) % len(RHOS)] and
    squared radius RADII2[((seed + i) // len(RHOS)) % len(RADII2)], its labels, order,
    extra dimensions and rotation drawn from seed + i."""
    for i in range(count):
        index = seed + i
        rng = random.Random(index)
        rho = RHOS[index % len(RHOS)]
        R2 = RADII2[(index // len(RHOS)) % len(RADII2)]
        k = rho.numerator // rho.denominator
        labels = [rng.choice((-1, 1)) for _ in range(k)]
        need = k * len(rational_squares(R2)) + len(rational_squares((rho - k) * R2))
        dim = need + rng.randint(0, 2)
        rotation = rng.randrange(10**6) if dim <= 8 and rng.random() < 0.5 else None
        family = margin_family(rho, R2=R2, labels=labels, dim=dim, rotation_seed=rotation)
        order = list(range(k))
        rng.shuffle(order)
        data = family.data.subset(order)
        yield Scenario(data, family.u, Origin("margin-family", index, family.data.name,
                                              tuple(order)))


# ---- running -------------------------------------------------------------------------------


@dataclass
class CampaignResult:
    """Verdicts per (check, source), instance counts and timings; the scenario of each
    verdict's counterexample (`witnesses`, to shrink it), and the first fault of each user's
    plug-in (`faults`: its checks then have no verdicts, a fault is never one)."""

    verdicts: dict[tuple[str, str], NumericVerdict] = field(default_factory=dict)
    runs: dict[str, int] = field(default_factory=dict)
    witnesses: dict[tuple[str, str], Scenario] = field(default_factory=dict)
    faults: dict[str, str] = field(default_factory=dict)
    evaluation_seconds: float = 0.0
    total_seconds: float = 0.0

    @property
    def instances(self) -> int:
        """Instances checked, summed over checks."""
        return sum(v.instances for v in self.verdicts.values())

    @property
    def rate(self) -> float:
        """Exact instances checked per second of evaluation (for reporting only)."""
        return self.instances / self.evaluation_seconds if self.evaluation_seconds else 0.0

    def record(self, check: str, source: str, verdict: NumericVerdict) -> None:
        """Merge a verdict into the (check, source) total."""
        key = (check, source)
        self.verdicts[key] = self.verdicts.get(key, NumericVerdict.empty()).merge(verdict)

    def lines(self) -> list[str]:
        """One printable line per (check, source)."""
        out = []
        for (check, source), v in sorted(self.verdicts.items()):
            slack = "-" if v.min_slack is None else str(v.min_slack)
            out.append(f"{check:<24} {source:<10} {v.status:<9} instances={v.instances:<8} "
                       f"vacuous={v.vacuous:<6} violations={v.violations:<4} "
                       f"min_slack={slack}")
        return out


def run_campaign(checks: Sequence[Check], sources: Mapping[str, Iterable[Scenario]], *,
                 runner: Runner = engine_runner, batch_runner: BatchRunner = engine_batch_runner,
                 batch_rows: int = 20_000) -> CampaignResult:
    """Run every scenario of every source once per algorithm, and check every check on the
    rows of its own algorithm's runs (`runner`, `batch_runner`: the default algorithm's)."""
    start = time.perf_counter()
    result = CampaignResult()
    groups: dict[str | None, _Group] = {}
    for check in checks:
        if check.algorithm not in groups:
            groups[check.algorithm] = _Group.of(check.algorithm, runner, batch_runner,
                                                check.plugin)
        groups[check.algorithm].add(check)
    for source, scenarios in sources.items():
        pending_rows = 0
        result.runs.setdefault(source, 0)
        for scenario in scenarios:
            result.runs[source] += 1
            for group in groups.values():
                if group.accepts(source):
                    pending_rows += group.collect(scenario)
            if pending_rows >= batch_rows:
                for group in groups.values():
                    group.flush(source, result)
                pending_rows = 0
        for group in groups.values():
            group.flush(source, result)
    for algorithm, group in groups.items():
        if group.fault is not None and algorithm is not None:
            result.faults[algorithm] = group.fault
            for check, _ in group.compiled:
                for key in [k for k in result.verdicts if k[0] == check.name]:
                    del result.verdicts[key]
                    result.witnesses.pop(key, None)
    result.total_seconds = time.perf_counter() - start
    return result


@dataclass
class _Group:
    """The checks of one algorithm, its runners, and the rows collected for them."""

    runner: Runner
    batch_runner: BatchRunner
    compiled: list[tuple[Check, CompiledJudgement]] = field(default_factory=list)
    names: dict[Binding, set[str]] = field(default_factory=dict)
    pending: dict[Binding, list[InstanceBatch]] = field(default_factory=dict)
    source_filter: Callable[[str], bool] = runs_by_default  # the sources it runs
    plugin: Plugin | None = None  # a user's algorithm: its faults end its runs (`fault`)
    cyclic: Callable[[Scenario], tuple[object, ...]] | None = None  # its cyclic runs
    fault: str | None = None
    scenarios: dict[Origin, Scenario] = field(default_factory=dict)  # of the pending rows

    @classmethod
    def of(cls, algorithm: str | None, runner: Runner, batch_runner: BatchRunner,
           plugin: Plugin | None = None) -> _Group:
        """The group of `algorithm` (None: the given default runners)."""
        if algorithm is None:
            return cls(runner, batch_runner, cyclic=cyclic_runs)
        if plugin is not None:
            return cls(partial(_plugin_run, plugin), _no_runs(algorithm, "batch"),
                       plugin=plugin)
        if algorithm in OWN_ALGORITHMS:
            own = OWN_ALGORITHMS[algorithm]
            return cls(own.runner or runner, _no_runs(algorithm, "batch"),
                       source_filter=own.accepts, cyclic=own.cyclic)
        mode = SOURCE_ALGORITHMS[algorithm].mode
        return cls(source_runner(algorithm) if mode == "online" else _no_runs(algorithm, "online"),
                   source_batch_runner(algorithm) if mode == "batch"
                   else _no_runs(algorithm, "batch"))

    def accepts(self, source: str) -> bool:
        """Whether this group's algorithm runs the scenarios of `source` (a plug-in that
        failed runs nothing more)."""
        return self.fault is None and self.source_filter(source)

    def add(self, check: Check) -> None:
        """Compile `check` and note the names its binding must provide."""
        judgement = CompiledJudgement.compile(check.judgement)
        self.compiled.append((check, judgement))
        self.names.setdefault(check.binding, set()).update(judgement.names)
        self.pending.setdefault(check.binding, [])

    def collect(self, scenario: Scenario) -> int:
        """Run the scenario with this group's algorithm; keep its rows; return their count.
        A plug-in's fault is kept (`fault`) and its pending rows dropped."""
        if self.plugin is None:
            return self._collect(scenario)
        try:
            return self._collect(scenario)
        except PluginFault as fault:
            self.fault = str(fault)
            for parts in self.pending.values():
                parts.clear()
            return 0

    def _collect(self, scenario: Scenario) -> int:
        """`collect`, faults raised."""
        if scenario.margins:
            return self._collect_pass(scenario)
        cyclic = self._collect_cyclic(scenario)
        online = sorted(b for b in self.names
                        if b not in BATCH_BINDINGS | PASS_BINDINGS | CYCLIC_BINDINGS)
        batch = sorted(b for b in self.names if b in BATCH_BINDINGS)
        runs: list[tuple[OnlineUpdates | BatchRun, Sequence[Binding]]] = []
        if online:
            made = self.runner(scenario)
            runs.extend((run, online) for run in (made if isinstance(made, tuple) else (made,)))
        if batch:
            runs.extend((run, batch) for run in self.batch_runner(scenario))
        for run, _ in runs:
            self.scenarios[_origin(scenario.origin, run)] = scenario
            if self.plugin is not None and "tau" in self.names.get("update", ()):
                steps_of(self.plugin.name, run)  # type: ignore[arg-type]
        return cyclic + self._keep((binding, rows(run, binding, _origin(scenario.origin, run),
                                                  self.names[binding]))
                                   for run, bindings in runs for binding in bindings)

    def _collect_cyclic(self, scenario: Scenario) -> int:
        """The scenario's cyclic runs (`verify.cyclic`), their rows for the cyclic checks
        only."""
        from verify import cyclic

        bindings = sorted(b for b in self.names if b in CYCLIC_BINDINGS)
        if not bindings or self.cyclic is None:
            if bindings:
                raise ValueError("this algorithm makes no cyclic runs: its steps cannot bind "
                                 "cyclic rows")
            return 0
        made = self.cyclic(scenario)
        self.scenarios[scenario.origin] = scenario
        return self._keep((binding, cyclic.rows(run, binding, scenario.origin,  # type: ignore[arg-type]
                                                self.names[binding]))
                          for run in made for binding in bindings)

    def _collect_pass(self, scenario: Scenario) -> int:
        """A single-pass scenario: one pass of the default perceptron, its rows read at
        every margin, for the single-pass checks only (`verify.single_pass`)."""
        from verify import single_pass

        bindings = sorted(b for b in self.names if b in PASS_BINDINGS)
        if not bindings:
            return 0
        run = single_pass.run_pass(scenario.data, scenario.u, scenario.margins)
        return self._keep((binding, single_pass.rows(run, binding, scenario.origin,
                                                     self.names[binding]))
                          for binding in bindings)

    def _keep(self, parts: Iterable[tuple[Binding, InstanceBatch]]) -> int:
        """Keep the non-empty row batches for their bindings; return how many rows."""
        count = 0
        for binding, part in parts:
            if len(part):
                self.pending[binding].append(part)
                count += len(part)
        return count

    def flush(self, source: str, result: CampaignResult) -> None:
        """Check the collected rows (`_flush`); note the scenario of a new counterexample."""
        _flush(self.pending, self.compiled, source, result, self.scenarios)
        self.scenarios.clear()


def _plugin_run(plugin: Plugin, scenario: Scenario) -> OnlineUpdates:
    """A user's algorithm on a scenario, within the campaign's limit: as many updates as
    `max_epochs` cyclic epochs could make (`verify.runs.plugin` caps it further)."""
    return plugin.run(scenario.data, scenario.u, scenario.max_epochs * scenario.data.n)


def _no_runs(algorithm: str, kind: str) -> Callable[[Scenario], Never]:
    """A runner for a run kind the algorithm does not have: binding to it is an error."""
    def refuse(_scenario: Scenario) -> Never:
        raise ValueError(f"{algorithm} is not a {kind} algorithm: its steps cannot bind {kind}"
                         " rows")
    return refuse


def _origin(origin: Origin, run: OnlineUpdates | BatchRun) -> Origin:
    """A batch run's origin names its start, since one scenario makes several batch runs (and
    a margin perceptron's run its beta)."""
    if not isinstance(run, BatchRun):
        if run.beta is None:
            return origin
        return replace(origin, dataset=f"{origin.dataset} [margin perceptron, beta = {run.beta}]")
    start = ("0" if not any(run.theta0) else "-u" if run.theta0 == tuple(-v for v in run.theta_star)
             else "(" + ", ".join(map(str, run.theta0)) + ")")  # the seeded start, in full
    return replace(origin, dataset=f"{origin.dataset} [batch, theta0 = {start}]")


def _flush(pending: dict[Binding, list[InstanceBatch]],
           compiled: Sequence[tuple[Check, CompiledJudgement]], source: str,
           result: CampaignResult, scenarios: Mapping[Origin, Scenario] | None = None) -> None:
    """Check the accumulated rows of each binding, and clear them.

    Rows of small magnitude are checked together in int64. Larger runs are checked one by one:
    concatenated, their columns would share the lcm of all their denominators, and numerators
    of thousands of digits would make every row slow. A judgement that several checks state
    (a step copied into another proof by `uses = ["PROOF/STEP"]` states its source's
    judgement) is evaluated once per batch, its verdict recorded for each.
    """
    t0 = time.perf_counter()
    for binding, parts in pending.items():
        small = [p for p in parts if p.magnitude() < SMALL]
        groups = [[p] for p in parts if p.magnitude() >= SMALL]
        for group in _segments(small) + groups:
            batch = InstanceBatch.concat(group)
            evaluated: dict[Judgement, NumericVerdict] = {}
            for check, judgement in compiled:
                if check.binding == binding:
                    verdict = evaluated.get(check.judgement)
                    if verdict is None:
                        verdict = evaluated[check.judgement] = judgement.check(batch)
                    result.record(check.name, source, verdict)
                    _witness(result, (check.name, source), verdict, scenarios or {})
        parts.clear()
    result.evaluation_seconds += time.perf_counter() - t0


def _witness(result: CampaignResult, key: tuple[str, str], verdict: NumericVerdict,
             scenarios: Mapping[Origin, Scenario]) -> None:
    """Keep the scenario of the first counterexample of `key` (the one its verdict keeps)."""
    found = verdict.counterexample
    if key in result.witnesses or found is None or found.provenance is None:
        return
    if (scenario := scenarios.get(found.provenance.origin)) is not None:
        result.witnesses[key] = scenario


def _segments(parts: Sequence[InstanceBatch]) -> list[list[InstanceBatch]]:
    """Consecutive runs of `parts` whose concatenation stays below `SMALL` in magnitude.

    Concatenated columns share the lcm of their denominators, so runs of small numbers over
    different denominators (the adversary's shapes: R2 = b/4, 4b/9, ...) can make one
    concatenation whose numerators overflow int64, and every row of it is then checked with
    Python ints. Cutting where the common magnitude would reach `SMALL` keeps each
    concatenation in int64; the rows keep their order, so the verdicts merged over the
    segments (counts, minimum slack, first violation) are those of the whole.
    """
    out: list[list[InstanceBatch]] = []
    current: list[InstanceBatch] = []
    dens: dict[tuple[bool, str], int] = {}
    tops: dict[tuple[bool, str], int] = {}
    for part in parts:
        columns = {**{(False, n): c for n, c in part.scalars.items()},
                   **{(True, n): c for n, c in part.vectors.items()}}
        for attempt in (0, 1):
            joined = {k: lcm(dens.get(k, 1), c.den) for k, c in columns.items()}
            scaled = {k: max(tops.get(k, 0) * (joined[k] // dens.get(k, 1)),
                             c.magnitude * (joined[k] // c.den)) for k, c in columns.items()}
            if not current or all(max(joined[k], scaled[k]) < SMALL for k in columns) or attempt:
                break
            out.append(current)
            current, dens, tops = [], {}, {}
        current.append(part)
        dens.update(joined)
        tops.update(scaled)
    if current:
        out.append(current)
    return out


def evaluate_only(checks: Sequence[Check], batches: Mapping[Binding, InstanceBatch]
                  ) -> tuple[int, float]:
    """Instances checked and seconds taken, on prepared batches (the vectorised throughput)."""
    compiled = [(c, CompiledJudgement.compile(c.judgement)) for c in checks]
    t0 = time.perf_counter()
    instances = 0
    for check, judgement in compiled:
        instances += judgement.check(batches[check.binding]).instances
    return instances, time.perf_counter() - t0


