"""Algorithms of the built-in proofs beyond the five sources: on which campaign sources each
runs.

A proof's `[numeric] algorithm` names the algorithm whose runs its steps are checked on. The
seed sources' perceptrons are `perceptron.algorithms.sources.SOURCE_ALGORITHMS`; the results
added since (issue 16) bring their own rule or their own data. How each is run is its run
kind's business (`verify.runs.online.ALGORITHMS`); which campaign sources it runs on is the
campaign's, and is said here:

- `margin-perceptron`: the margin perceptron (`perceptron.algorithms.margin`), updating on
  `y<w, x> <= beta`, run at each margin of `verify.runs.online.BETAS` (multiples of the
  scenario's `R2`, so a run's shape does not depend on its scale; `beta = 0` is the ordinary
  perceptron's run) on every scenario of every campaign source but the adversary's: those
  are built against the ordinary perceptron (each example chosen from its iterate), so they
  are no harder for the margin perceptron than planted data, and their exact rationals make
  them the campaign's most expensive rows (three runs each would add about 30 CPU-seconds to
  the audit). The online runs bind `beta` to the run's.
- `orthonormal-perceptron`: the ordinary perceptron, run only on the source `orthonormal`
  (families of orthonormal examples labelled +1, `verify.numeric.orthonormal`), where the
  Block–Novikoff bound is attained: its proof's hypotheses (`||x|| = 1`, `<u, x> = 1`) are
  the family's, so other data would only make its steps vacuous.

A source that some algorithm names (`EXCLUSIVE_SOURCES`) is run by that algorithm only: the
default perceptron and the seed sources' algorithms never see it, so adding it leaves every
other proof's instances as they were.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OwnAlgorithm:
    """An algorithm of a built-in proof and the campaign sources it runs on (None: every
    source no algorithm claims for itself)."""

    id: str
    description: str
    sources: frozenset[str] | None = None
    skips: frozenset[str] = frozenset()  # sources it does not run (with `sources` None)

    def accepts(self, source: str) -> bool:
        """Whether this algorithm runs the scenarios of `source`."""
        if self.sources is not None:
            return source in self.sources
        return source not in EXCLUSIVE_SOURCES and source not in self.skips


OWN_ALGORITHMS: dict[str, OwnAlgorithm] = {
    "margin-perceptron": OwnAlgorithm(
        "margin-perceptron",
        "update on y<w, x> <= beta, at beta = c R2 for c in 0, 1/3, 5/2 (beta = 0: the "
        "ordinary perceptron), w_0 = 0, step 1, cyclic epochs",
        skips=frozenset({"adversary"}),
    ),
    "orthonormal-perceptron": OwnAlgorithm(
        "orthonormal-perceptron",
        "the ordinary perceptron on orthonormal examples labelled +1 (source `orthonormal`)",
        frozenset({"orthonormal"}),
    ),
}

#: Sources run only by the algorithms that name them.
EXCLUSIVE_SOURCES: frozenset[str] = frozenset(
    source for algorithm in OWN_ALGORITHMS.values() for source in algorithm.sources or ())


def runs_by_default(source: str) -> bool:
    """Whether the default perceptron and the seed sources' algorithms run `source`."""
    return source not in EXCLUSIVE_SOURCES
