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

A source that some algorithm names (`EXCLUSIVE_SOURCES`) is run by that algorithm only: the
default perceptron and the seed sources' algorithms never see it, so adding it leaves every
other proof's instances as they were.

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
from verify.vocabulary import IntegerRun, LazyUpdates, OnlineUpdates, Update


class ScenarioLike(Protocol):
    """What a runner reads of a campaign scenario."""

    data: Dataset
    u: Vector
    max_epochs: int


#: A runner of several runs per scenario (one per parameter value).
Runs = Callable[[ScenarioLike], tuple[OnlineUpdates, ...]]


@dataclass(frozen=True)
class OwnAlgorithm:
    """An algorithm of a built-in proof, its runner (None: the default perceptron's) and the
    campaign sources it runs on (None: every source no algorithm claims for itself)."""

    id: str
    description: str
    runner: Runs | None = None
    sources: frozenset[str] | None = None
    skips: frozenset[str] = frozenset()  # sources it does not run (with `sources` None)

    def accepts(self, source: str) -> bool:
        """Whether this algorithm runs the scenarios of `source`."""
        if self.sources is not None:
            return source in self.sources
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
}

#: Sources run only by the algorithms that name them.
EXCLUSIVE_SOURCES: frozenset[str] = frozenset(
    source for algorithm in OWN_ALGORITHMS.values() for source in algorithm.sources or ())


def runs_by_default(source: str) -> bool:
    """Whether the default perceptron and the seed sources' algorithms run `source`."""
    return source not in EXCLUSIVE_SOURCES
