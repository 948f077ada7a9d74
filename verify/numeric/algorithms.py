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

The algorithms of the cyclic runs (issue 31; how each is run is `verify.runs.cyclic`'s):

- `cyclic-perceptron`: the ordinary perceptron in cyclic epochs, read presentation by
  presentation, on the cyclic runs' sources (`verify.numeric.campaign`): planted separable
  data and data that are not separable (run for many epochs); and on users' data files.
- `margin-family-perceptron`: the same runs on the families tight at every margin only
  (source `margin-family`), whose proof's update facts (`<w, x> = 0` at each update, every
  example at margin gamma_u on u) are the family's: other data would falsify its invariants'
  premises, not its theorem.
- `cycling-perceptron`: the same runs on the data that are not separable, and, where the
  data surround the origin, runs from a start far out: the cycling theorem's epochs that
  start far from the origin, which runs from 0 on these data never reach.
- `voted-perceptron`: the voted perceptron's own runs (`perceptron.algorithms.voted`), with
  its list of vectors and counts, for a number of epochs past the perceptron's convergence,
  on the planted separable data and the data that are not separable; and on users' data
  files.

A source that some algorithm names (`EXCLUSIVE_SOURCES`) is run by that algorithm only: the
default perceptron and the seed sources' algorithms never see it, so adding it leaves every
other proof's instances as they were. An algorithm may also run shared sources (`also`: the
users' data files), which stay every algorithm's.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from perceptron.algorithms.sources import SOURCE_ALGORITHMS
from proofs.definitions import parse_definitions
from proofs.errors import ProofFileError, ProofFileErrors, Source, raise_all
from proofs.step import Proof, RunBinding
from verify.runs.naming import Naming
from verify.runs.plugin import KINDS as PLUGIN_KINDS


@dataclass(frozen=True)
class OwnAlgorithm:
    """An algorithm of a built-in proof and the campaign sources it runs on (None: every
    source no algorithm claims for itself)."""

    id: str
    description: str
    sources: frozenset[str] | None = None
    skips: frozenset[str] = frozenset()  # sources it does not run (with `sources` None)
    also: frozenset[str] = frozenset()  # shared sources it runs besides its own `sources`

    def accepts(self, source: str) -> bool:
        """Whether this algorithm runs the scenarios of `source`."""
        if self.sources is not None:
            return source in self.sources or source in self.also
        return source not in EXCLUSIVE_SOURCES and source not in self.skips


#: The sources of the cyclic runs (`verify.numeric.campaign`).
CYCLIC_SOURCES = frozenset({"separable-epochs", "inseparable", "inseparable-long"})

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
    "cyclic-perceptron": OwnAlgorithm(
        "cyclic-perceptron",
        "the ordinary perceptron in cyclic epochs until an epoch without an update (or the "
        "epoch cap), read presentation by presentation (run kind `cyclic`)",
        CYCLIC_SOURCES,
        also=frozenset({"data"}),
    ),
    "margin-family-perceptron": OwnAlgorithm(
        "margin-family-perceptron",
        "the ordinary perceptron in cyclic epochs on the families tight at every margin "
        "(source `margin-family`; run kind `cyclic`)",
        frozenset({"margin-family"}),
    ),
    "cycling-perceptron": OwnAlgorithm(
        "cycling-perceptron",
        "the ordinary perceptron in cyclic epochs on data that are not separable, from 0 and, "
        "where the data surround the origin, from a start far out (run kind `cyclic`)",
        frozenset({"inseparable", "inseparable-long"}),
        also=frozenset({"data"}),
    ),
    "voted-perceptron": OwnAlgorithm(
        "voted-perceptron",
        "the voted perceptron of Freund & Schapire (1999), for three times the perceptron's "
        "epochs to convergence plus two (at most the epoch cap and 200), with its list of "
        "vectors and counts (run kind `cyclic`)",
        frozenset({"separable-epochs", "inseparable"}),
        also=frozenset({"data"}),
    ),
}

#: Sources run only by the algorithms that name them.
EXCLUSIVE_SOURCES: frozenset[str] = frozenset(
    source for algorithm in OWN_ALGORITHMS.values() for source in algorithm.sources or ())


def runs_by_default(source: str) -> bool:
    """Whether the default perceptron and the seed sources' algorithms run `source`."""
    return source not in EXCLUSIVE_SOURCES


# ---- a proof's [numeric] table resolved: its kind, algorithm and names ---------------------
# Here, below the audit, so that `novikoff check` refuses what the audit would refuse of the
# table, in the same words, without loading the audit (newcomer 19 saw `run = "onlin"` pass
# `check` and fail the audit; issue 30: `check` loads no audit).

#: The algorithms the package knows; a user's plug-in may not take one of their names.
BUILT_IN = (*SOURCE_ALGORITHMS, *OWN_ALGORITHMS)


def naming(numeric: RunBinding | None, proof: Proof, plugins: Collection[str] = ()) -> Naming:
    """What the proof's names denote on runs (none bound: every name as itself); raises
    ProofFileError for an expression of no run quantities, an unknown algorithm (`plugins`:
    the users' algorithms given with the audit), or a plug-in asked for runs of a kind
    plug-ins do not make (online and batch runs only)."""
    if numeric is None:
        return Naming("online", {}, {})
    named = _naming(numeric, proof.vectors, proof.origin, plugins, proof.indexed)
    if not proof.definitions:
        return named
    try:
        definitions = parse_definitions(proof.definitions, proof.names)
    except ProofFileError:  # read when the proof was loaded; none evaluated rather than guessed
        return named
    return named.defining(definitions)


def _naming(numeric: RunBinding, vectors: Sequence[str], origin: Source | None,
            plugins: Collection[str], indexed: Sequence[str] | None = None) -> Naming:
    """`naming`, for a proof's `[numeric]` binding, its vectors, its file (`origin`,
    which places the errors) and its families (`indexed`; None: not known)."""
    errors: list[ProofFileError] = []  # independent: all of them at once
    if numeric.algorithm in plugins and numeric.run not in PLUGIN_KINDS:
        errors.append(ProofFileError(
            f"numeric.algorithm {numeric.algorithm!r} is a plug-in, which makes "
            f"{' or '.join(PLUGIN_KINDS)} runs, not {numeric.run!r} ones", key="numeric.run",
            text=numeric.run))
    if numeric.algorithm is not None and numeric.algorithm not in (*BUILT_IN, *plugins):
        given = f"; plug-ins given: {', '.join(plugins)}" if plugins else ""
        near = difflib.get_close_matches(numeric.algorithm, [*BUILT_IN, *plugins], n=1,
                                         cutoff=0.6)
        errors.append(ProofFileError(
            f"numeric.algorithm {numeric.algorithm!r} is no known algorithm"
            f"{f'; did you mean {near[0]!r}?' if near else ''} (known: "
            f"{', '.join(BUILT_IN)}{given}; a plug-in runs only when given: --algorithm "
            f"{numeric.algorithm}=MODULE:FUNCTION on the command line, algorithms="
            f"{{{numeric.algorithm!r}: plugin}} in the API)", key="numeric.algorithm",
            text=numeric.algorithm))
    try:
        named = Naming.of(numeric, vectors, indexed)
    except ProofFileError as error:
        errors.extend(error.errors)
    if not errors:
        return named
    if origin is None:
        raise_all(errors)
    # placed as the loader does, and in file order (ends35: a table's `names` before its
    # `algorithm` had their errors said algorithm first, in the order the checks ran)
    raise_all(in_file_order([e.located(origin.file, origin) for e in errors]))
    raise AssertionError("unreachable")


def in_file_order(errors: Sequence[ProofFileError]) -> list[ProofFileError]:
    """`errors` by their place in the file (line, then column; unplaced first), ties in
    the order found: the one order a proof file's errors are said in."""
    return sorted(errors, key=lambda e: (e.line or 0, e.column or 0))


def with_naming(error: ProofFileError,
                part: tuple[RunBinding, tuple[str, ...], Source] | None,
                plugins: Collection[str]) -> ProofFileError:
    """A proof file's errors and, when its `[numeric]` run kind and names read on their own
    (`part`: `proofs.proof_file.numeric_part`), the errors of what they denote on runs
    (`_naming`), together in file order: one run reports both."""
    if part is None:
        return error
    numeric, vectors, origin = part
    try:
        _naming(numeric, vectors, origin, plugins)
    except ProofFileError as named:
        said = {e.key for e in error.errors if e.key} | {(e.line, e.column) for e in error.errors}
        more = [e for e in named.errors if e.key not in said and (e.line, e.column) not in said]
        return ProofFileErrors(in_file_order([*error.errors, *more]))
    return error


