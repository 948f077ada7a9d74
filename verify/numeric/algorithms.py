"""Algorithms of the built-in proofs beyond the five sources: how a campaign runs each, and on
which of its sources.

A proof's `[numeric] algorithm` names the algorithm whose runs its steps are checked on. The
seed sources' perceptrons are `perceptron.algorithms.sources.SOURCE_ALGORITHMS`; the results
added since (issue 16) bring their own rule or their own data, and are registered here:

- `margin-perceptron`: the margin perceptron (`perceptron.algorithms.margin`), updating on
  `y<w, x> <= beta`, run at each margin of `BETAS` (multiples of the scenario's `R2`, so a
  run's shape does not depend on its scale; `beta = 0` is the ordinary perceptron's run) on
  every scenario of every campaign source but the adversary's: those are built against the
  ordinary perceptron (each example chosen from its iterate), so they are no harder for the
  margin perceptron than planted data, and their exact rationals make them the campaign's
  most expensive rows (three runs each would add about 30 CPU-seconds to the audit). The
  vocabulary binds `beta` to the run's.
- `orthonormal-perceptron`: the ordinary perceptron, run only on the source `orthonormal`
  (families of orthonormal examples labelled +1, `verify.numeric.orthonormal`), where the
  Block–Novikoff bound is attained: its proof's hypotheses (`||x|| = 1`, `<u, x> = 1`) are
  the family's, so other data would only make its steps vacuous.

- `cyclic-perceptron`: the ordinary perceptron in cyclic epochs, read presentation by
  presentation (`verify.cyclic`, run kind `cyclic`), on the sources of issue 31
  (`verify.numeric.campaign`): planted separable data and data that are not separable (run for
  many epochs); and on users' data files.
- `margin-family-perceptron`: the same runs on the families tight at every margin only
  (source `margin-family`), whose proof's update facts (`<w, x> = 0` at each update, every
  example at margin gamma_u on u) are the family's: other data would falsify its invariants'
  premises, not its theorem.
- `cycling-perceptron`: the same runs on the data that are not separable, and, where the
  data surround the origin, runs from a start far out (`far_start`): the cycling theorem's
  epochs that start far from the origin, which runs from 0 on these data never reach.
- `voted-perceptron`: the voted perceptron's own runs (`perceptron.algorithms.voted`), with its
  list of vectors and counts, for a number of epochs past the perceptron's convergence
  (`voted_epochs`, at most 200), on the planted separable data and the data that are not
  separable; and on users' data files.

A source that some algorithm names (`EXCLUSIVE_SOURCES`) is run by that algorithm only: the
default perceptron and the seed sources' algorithms never see it, so adding it leaves every
other proof's instances as they were. An algorithm may also run shared sources (`also`: the
users' data files), which stay every algorithm's.

This module runs scenarios but does not import the campaign (the campaign imports it):
anything with the attributes of `verify.numeric.campaign.Scenario` will do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import numpy as np

from perceptron.algorithms.margin import MarginRun, run_margin
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import radius2
from verify.cyclic import CyclicRun, perceptron_cyclic, voted_cyclic
from verify.vocabulary import IntegerRun, LazyUpdates, OnlineUpdates, Update


class ScenarioLike(Protocol):
    """What a runner reads of a campaign scenario."""

    data: Dataset
    u: Vector
    max_epochs: int


#: A runner of several runs per scenario (one per parameter value).
Runs = Callable[[ScenarioLike], tuple[OnlineUpdates, ...]]
#: A runner of cyclic runs (`verify.cyclic`).
CyclicRuns = Callable[[ScenarioLike], tuple[CyclicRun, ...]]


@dataclass(frozen=True)
class OwnAlgorithm:
    """An algorithm of a built-in proof, its runner (None: the default perceptron's) and the
    campaign sources it runs on (None: every source no algorithm claims for itself)."""

    id: str
    description: str
    runner: Runs | None = None
    sources: frozenset[str] | None = None
    skips: frozenset[str] = frozenset()  # sources it does not run (with `sources` None)
    cyclic: CyclicRuns | None = None  # its runs of kind `cyclic` (verify.cyclic)
    also: frozenset[str] = frozenset()  # shared sources it runs besides its own `sources`

    def accepts(self, source: str) -> bool:
        """Whether this algorithm runs the scenarios of `source`."""
        if self.sources is not None:
            return source in self.sources or source in self.also
        return source not in EXCLUSIVE_SOURCES and source not in self.skips


#: The margins of the margin perceptron's runs, as multiples of the scenario's R2.
BETAS: tuple[Fraction, ...] = (Fraction(0), Fraction(1, 3), Fraction(5, 2))


def _margin_updates(run: MarginRun) -> Iterator[Update]:
    """The updates of a margin run as `Update`s, replayed from w_0 = 0."""
    w = tuple(Fraction(0) for _ in range(run.data.d))
    for i in run.indices:
        x, y = run.data.X[i], run.data.y[i]
        after = tuple(a + y * b for a, b in zip(w, x, strict=True))
        yield Update(w, tuple(x), int(y), after)
        w = after


def margin_updates(run: MarginRun, u: Vector) -> OnlineUpdates:
    """A margin run in the vocabulary's form: its integer form (rows built from it directly),
    its `beta`, its reference separator `u`."""
    integer = IntegerRun(run.problem, np.array(run.indices, dtype=np.int64))
    return OnlineUpdates(run.data, tuple(u), LazyUpdates(run.updates, lambda: _margin_updates(run)),
                         integer=integer, beta=run.beta)


def margin_runs(scenario: ScenarioLike) -> tuple[OnlineUpdates, ...]:
    """The margin perceptron on the scenario at every margin `c * R2`, c in `BETAS`."""
    R2 = radius2(scenario.data)
    return tuple(margin_updates(run_margin(scenario.data, c * R2,
                                           max_epochs=scenario.max_epochs), scenario.u)
                 for c in BETAS)


def cyclic_runs(scenario: ScenarioLike) -> tuple[CyclicRun, ...]:
    """The perceptron in cyclic epochs on the scenario, to convergence or its epoch cap."""
    return (perceptron_cyclic(scenario.data, scenario.u, scenario.max_epochs),)


def far_start(run: CyclicRun) -> Vector | None:
    """A start for the perceptron far out on data that surround the origin: an integer
    multiple of (1, ..., 1) of norm at least 2 K + 1, K = T/delta (`verify.cyclic`), so that its
    first epochs are the cycling theorem's far ones; None on other data."""
    K = run.constants["K"]
    if K <= 0 or run.form.scale != 1:
        return None
    d = run.data.d
    factor = 1
    while factor * factor * d < (2 * K + 1) ** 2:
        factor *= 2
    return tuple(Fraction(factor) for _ in range(d))


def cycling_runs(scenario: ScenarioLike) -> tuple[CyclicRun, ...]:
    """The perceptron in cyclic epochs from 0, and, on data that surround the origin, from
    a start far out (`far_start`)."""
    near = perceptron_cyclic(scenario.data, scenario.u, scenario.max_epochs)
    start = far_start(near)
    if start is None:
        return (near,)
    return (near, perceptron_cyclic(scenario.data, scenario.u, scenario.max_epochs, start))


#: The voted perceptron's runs stop after this many epochs at most (on data that are not
#: separable the perceptron never converges, and each presentation's vote costs a row).
VOTED_MAX_EPOCHS = 200


def voted_epochs(data: Dataset, max_epochs: int) -> int:
    """The voted perceptron's epochs on `data`: three times the perceptron's epochs to
    convergence plus two (so that the last vector's count overtakes the retired ones', and the
    vote and the averaged vector converge on the runs), at most `max_epochs` and
    `VOTED_MAX_EPOCHS`."""
    cap = min(max_epochs, VOTED_MAX_EPOCHS)
    run = run_margin(data, 0, max_epochs=cap)
    return min(cap, 3 * run.epochs + 2)


def voted_runs(scenario: ScenarioLike) -> tuple[CyclicRun, ...]:
    """The voted perceptron's own run on the scenario (`voted_epochs`)."""
    return (voted_cyclic(scenario.data, scenario.u,
                         voted_epochs(scenario.data, scenario.max_epochs)),)


#: The sources of the cyclic runs (verify.numeric.campaign).
CYCLIC_SOURCES = frozenset({"separable-epochs", "inseparable", "inseparable-long"})

OWN_ALGORITHMS: dict[str, OwnAlgorithm] = {
    "margin-perceptron": OwnAlgorithm(
        "margin-perceptron",
        "update on y<w, x> <= beta, at beta = c R2 for c in 0, 1/3, 5/2 (beta = 0: the "
        "ordinary perceptron), w_0 = 0, step 1, cyclic epochs",
        margin_runs,
        skips=frozenset({"adversary"}),
    ),
    "orthonormal-perceptron": OwnAlgorithm(
        "orthonormal-perceptron",
        "the ordinary perceptron on orthonormal examples labelled +1 (source `orthonormal`)",
        None,
        frozenset({"orthonormal"}),
    ),
    "cyclic-perceptron": OwnAlgorithm(
        "cyclic-perceptron",
        "the ordinary perceptron in cyclic epochs until an epoch without an update (or the "
        "epoch cap), read presentation by presentation (run kind `cyclic`)",
        sources=CYCLIC_SOURCES,
        cyclic=cyclic_runs,
        also=frozenset({"data"}),
    ),
    "margin-family-perceptron": OwnAlgorithm(
        "margin-family-perceptron",
        "the ordinary perceptron in cyclic epochs on the families tight at every margin "
        "(source `margin-family`; run kind `cyclic`)",
        sources=frozenset({"margin-family"}),
        cyclic=cyclic_runs,
    ),
    "cycling-perceptron": OwnAlgorithm(
        "cycling-perceptron",
        "the ordinary perceptron in cyclic epochs on data that are not separable, from 0 and, "
        "where the data surround the origin, from a start far out (run kind `cyclic`)",
        sources=frozenset({"inseparable", "inseparable-long"}),
        cyclic=cycling_runs,
        also=frozenset({"data"}),
    ),
    "voted-perceptron": OwnAlgorithm(
        "voted-perceptron",
        "the voted perceptron of Freund & Schapire (1999), for three times the perceptron's "
        "epochs to convergence plus two (at most the epoch cap and 200), with its list of "
        "vectors and counts (run kind `cyclic`)",
        sources=frozenset({"separable-epochs", "inseparable"}),
        cyclic=voted_runs,
        also=frozenset({"data"}),
    ),
}

#: Sources run only by the algorithms that name them.
EXCLUSIVE_SOURCES: frozenset[str] = frozenset(
    source for algorithm in OWN_ALGORITHMS.values() for source in algorithm.sources or ())


def runs_by_default(source: str) -> bool:
    """Whether the default perceptron and the seed sources' algorithms run `source`."""
    return source not in EXCLUSIVE_SOURCES
