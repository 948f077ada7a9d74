"""The smallest failing run of a step violated on runs, as a data file the user can run again.

A violation names a run of the campaign (source, seed, dataset, order, iteration). This module
hands the user that run shrunk, as a CSV file with the command that reproduces it:
`novikoff audit PROOF --data FILE` (with the `--algorithm` the audit was given). The run keeps
what made it the campaign's run besides its data, which the file names in comment lines
(`perceptron.io.header.Header`): the reference separator u (`# u = 3, -1, 1/2`; a step may
read u, gamma_u and what follows from them), a batch run's start (`# theta0 = ...`: the
campaign runs each batch scenario from three starts, the file from the one that failed),
and a single pass's unit u and margins (`# gamma = 1/4, 1`). So every candidate is judged
exactly as its file will be: made into scenarios by `targets.scenarios_of` with what the
file names, run by the exact engine (or the proof's algorithm or plug-in) and the step's
statement checked exactly on its rows (`campaign.run_campaign`). A candidate is kept only
when the step still fails on it and its u is still admissible (a separator, `y<u, x> > 0`
for every example; for a pass, a unit vector).

Shrinking is greedy and deterministic, in the order the issue asks, u following the data:
fewest examples (halves, then one at a time; u unchanged), smallest dimension (a coordinate
dropped, from u and the start too: their projections; else two coordinates merged into
their sum or difference), smallest integers (the data made integer by their common
denominator, a positive scale that keeps u a separator, then each entry tried at 0, at
half its value rounded toward 0, at its sign). Every pass repeats until nothing changes, and
the three passes repeat until none changes anything (a coordinate may drop only once the
entries are smaller), within `TRIES` candidate runs in all (the shrunk run is then the best
found, still failing), and a pass keeps one margin. Where the projection of u is no longer
admissible, the candidate's own u is tried instead: its exact separator; for a pass first
the unit vector nearest the projection's direction, then the one nearest its `sum y x`.
The file names whichever u it fails with. A candidate whose run faults
(a plug-in's fault) stops the shrinking.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import gcd, lcm
from pathlib import Path

from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError
from perceptron.io.header import NOTHING_NAMED, Header, is_unit, separates
from verify.audit.job import Audit, Witness
from verify.audit.targets import DATA_SOURCE, scenarios_of
from verify.numeric import campaign
from verify.numeric.campaign import Check
from verify.numeric.passes import unit_near
from verify.runs.columns import Instance
from verify.runs.quantity import kind
from verify.typeset.points import seed_words

#: At most this many candidate runs per violated step: a bound on the work, not on the clock.
TRIES = 400


@dataclass(frozen=True)
class Shrunk:
    """A step's smallest failing run found: its data (in run order), what its file names (the
    separator, a batch run's start, a pass's u and margins) and the failing row."""

    step: str
    data: Dataset
    instance: Instance
    tries: int
    named: Header = NOTHING_NAMED
    stopped: str | None = None  # a candidate's run faulted (a plug-in): shrinking stopped


def fails(check: Check, data: Dataset, run: str, named: Header = NOTHING_NAMED,
          read_u: bool = True) -> Instance | None:
    """The step's counterexample on `data` run as a data file naming `named` would be (no u
    named: an exact separator is found, or for a pass the unit u near the data's direction);
    None when the step holds, is vacuous, the u named is not admissible (it does not separate
    the data; for a pass, it is not a unit vector) or the data give no run of that kind
    (`read_u`: whether its proof needs a separator, `verify.audit.job.Witness.read_u`)."""
    found = _failing(check, data, run, named, read_u)
    return None if found is None else found[0]


class _Fault(Exception):
    """A candidate's run faulted (a plug-in's fault): shrinking stops there."""


def _admits(u: Vector, data: Dataset, run: str) -> bool:
    """Whether a data file may name `u` for runs of kind `run`: a unit vector for a pass
    (any data), a separator of the data for a run to convergence."""
    return (len(u) == data.d and is_unit(u)) if kind(run).passes else separates(u, data)


def _failing(check: Check, data: Dataset, run: str, named: Header, read_u: bool = True
             ) -> tuple[Instance, Header] | None:
    """`fails`, with what the file will name: the u the run was made with (a found separator,
    or the pass's own; None for data without one, whose runs need none), the start and the
    margins; `_Fault` when the run faults."""
    from perceptron.geometry.separability import Separable, separability

    separator = None
    if named.u is not None and not _admits(named.u, data, run):
        return None
    if named.u is None and not kind(run).passes:
        found = separability(data)
        separator = tuple(found.w) if isinstance(found, Separable) else None
    try:
        made = scenarios_of(data, named, separator, run, data.name, read_u)
    except DataError:
        return None
    result = campaign.run_campaign([check], {DATA_SOURCE: made})
    if result.faults:
        raise _Fault(next(iter(result.faults.values())))
    verdict = result.verdicts.get((check.name, DATA_SOURCE))
    if verdict is None or verdict.status != "violated" or verdict.counterexample is None:
        return None
    u = made[0].u if kind(run).passes else named.u or separator
    return verdict.counterexample, replace(named, u=u, margins=made[0].margins)


def _projected(named: Header, dropped: int | None) -> Header:
    """What the file names, without coordinate `dropped` (None: all kept)."""
    def drop(v: Vector | None) -> Vector | None:
        return None if v is None or dropped is None else \
            tuple(c for k, c in enumerate(v) if k != dropped)
    if dropped is None:
        return named
    return replace(named, u=drop(named.u), theta0=drop(named.theta0))


def _choices(given: Header, run: str) -> tuple[Header, ...]:
    """The u a candidate is tried with, in order: the one given (the campaign's, projected),
    for a pass also the unit vector nearest its direction (a projection of a unit vector is
    seldom one), then the candidate's own (u None)."""
    if given.u is None:
        return (given,)
    near = (replace(given, u=unit_near(given.u)),) if kind(run).passes and any(given.u) else ()
    return (given, *near, replace(given, u=None))


def shrink(check: Check, data: Dataset, run: str, tries: int = TRIES,
           named: Header = NOTHING_NAMED, read_u: bool = True) -> Shrunk | None:
    """`data` shrunk while the step still fails (None: it fails on no run of `data`, with
    the u `named` or with a u of its own), what the file names following it: u and the start
    projected as coordinates drop, or, where the projected u is not admissible (no longer a
    separator; for a pass no longer a unit vector), the data's own u, which the file then
    names (a step about u fails with the u the file names, whichever it is); for a pass,
    first the unit vector nearest the projection. A pass is then read at one margin, the
    first at which the shrunk data still fail. The passes are repeated until none finds a
    smaller failing run: a coordinate may drop only once entries are smaller, an example
    only once a coordinate is gone."""
    budget = [tries]

    def still(candidate: Dataset, given: Header) -> tuple[Instance, Header] | None:
        for choice in _choices(given, run):
            if budget[0] <= 0:
                return None
            if choice.u is not None and not _admits(choice.u, candidate, run):
                continue  # the projection is not admissible: the data's own, next
            budget[0] -= 1
            if (found := _failing(check, candidate, run, choice, read_u)) is not None:
                return found
            if choice.u is not None:
                return None  # u is admissible and the step holds: u stays the campaign's
        return None

    try:
        start = still(data, named)
    except _Fault:
        return None
    if start is None:
        return None
    best, named = start
    stopped = None
    progress = True
    while progress and budget[0] > 0 and stopped is None:
        progress = False
        for moves in (_fewer, _narrower, _smaller):
            changed = True
            while changed and budget[0] > 0 and stopped is None:
                changed = False
                for candidate, dropped in moves(data):
                    try:
                        found = still(candidate, _projected(named, dropped))
                    except _Fault as fault:
                        stopped = str(fault)
                        break
                    if found is not None:
                        data, (best, named), changed, progress = candidate, found, True, True
                        break
    for gamma in named.margins if len(named.margins) > 1 and stopped is None else ():
        try:  # a pass read at one margin: the first at which the shrunk data still fail
            found = still(data, replace(named, margins=(gamma,)))
        except _Fault as fault:
            stopped = str(fault)
            break
        if found is not None:
            best, named = found
            break
    return Shrunk(check.name, data, best, tries - budget[0], named, stopped)


def _dataset(X: Sequence[Sequence[Fraction]], y: Sequence[int], name: str) -> Dataset | None:
    """A candidate, or None when it is no dataset (no example, no coordinate)."""
    if not X or not X[0]:
        return None
    return Dataset(tuple(tuple(x) for x in X), tuple(y), name)


Candidate = tuple[Dataset, int | None]
"""A smaller dataset and the coordinate it dropped (None: every coordinate kept)."""


def _candidates(make: Callable[[], Iterator[Dataset | None]], dropped: int | None = None
                ) -> Iterator[Candidate]:
    return ((d, dropped) for d in make() if d is not None)


def _fewer(data: Dataset) -> Iterator[Candidate]:
    """The data without a half, then without one example (order kept)."""
    n = data.n

    def make() -> Iterator[Dataset | None]:
        if n > 1:
            half = n // 2
            yield _dataset(data.X[half:], data.y[half:], data.name)
            yield _dataset(data.X[:half], data.y[:half], data.name)
        for i in range(n - 1, -1, -1):
            yield _dataset(data.X[:i] + data.X[i + 1:], data.y[:i] + data.y[i + 1:], data.name)
    return _candidates(make)


def _narrower(data: Dataset) -> Iterator[Candidate]:
    """The data without one coordinate, with the one dropped (for u's projection); then
    with one coordinate merged into another (`x_j + x_k` or `x_j - x_k` at j, k dropped):
    a step that needs a long x (`tau*norm2(x) >= 1` with tau = 1/norm2(x)) fails on no
    coordinate of (-1, 1) alone, but on x_0 - x_1 = -2 (a shrinker that only drops stopped
    at dimension 2 where dimension 1 fails)."""
    for k in range(data.d - 1, -1, -1):
        candidate = _dataset([x[:k] + x[k + 1:] for x in data.X], data.y, data.name)
        if candidate is not None:
            yield candidate, k
    for k in range(data.d - 1, 0, -1):
        for j in range(k):
            for sign in (1, -1):
                merged = [(*x[:j], x[j] + sign * x[k], *x[j + 1:k], *x[k + 1:])
                          for x in data.X]
                candidate = _dataset(merged, data.y, data.name)
                if candidate is not None:
                    yield candidate, k


def _ladder(top: int) -> Iterator[int]:
    """The largest entry a proportional candidate of `_smaller` is scaled to, below `top`,
    smallest first: a geometric ladder (each about 1.5 times the one before), so entries
    near 10^6 are tried at some 35 magnitudes, not a million."""
    m = 1
    while m < top:
        yield m
        m = max(m + 1, m * 3 // 2)


def _smaller(data: Dataset) -> Iterator[Candidate]:
    """The data made integer (by their common denominator), then all entries at once made
    smaller: divided by their greatest common divisor, then scaled so the largest is 1, 2,
    3, 4, 6, 9, ... (`_ladder`, below the largest now) and rounded to integers; then each
    entry made smaller: 0, half toward 0, its sign. The moves of all entries at once come
    first because a run is often the same run at every scale (w_0 = 0 and a margin that
    scales with the data, as the margin perceptron's campaign betas do: newcomer 34 N6), so
    no entry alone can shrink while the others keep it failing: a lecturer's shrunk run kept
    entries of six digits (-925060, 804062, -437459) where (-2, 2, -1) fails the same way."""
    def make() -> Iterator[Dataset | None]:
        scale = lcm(*(v.denominator for x in data.X for v in x))
        if scale != 1:
            yield _dataset([[v * scale for v in x] for x in data.X], data.y, data.name)
        else:  # integers: all of them at once
            entries = [int(v) for x in data.X for v in x]
            if (common := gcd(*entries)) > 1:
                yield _dataset([[v / common for v in x] for x in data.X], data.y, data.name)
            top = max(map(abs, entries), default=0)  # no entries (d = 0): no ladder
            for m in _ladder(top):
                yield _dataset([[Fraction(round(v * m / top)) for v in x] for x in data.X],
                               data.y, data.name)
        for i, x in enumerate(data.X):
            for k, v in enumerate(x):
                half = Fraction(int(v / 2))
                sign = Fraction((v > 0) - (v < 0))
                for smaller in dict.fromkeys((Fraction(0), half, sign)):
                    if abs(smaller) < abs(v):
                        rows = [list(row) for row in data.X]
                        rows[i][k] = smaller
                        yield _dataset(rows, data.y, data.name)
    return _candidates(make)


def csv_text(data: Dataset, named: Header = NOTHING_NAMED) -> str:
    """The data as a CSV file `novikoff` reads: one example per line, the label last; first
    the header lines of what is `named` (`perceptron.io.header.header` reads them)."""
    return named.text() + "".join(",".join([*map(str, x), str(y)]) + "\n"
                                  for x, y in zip(data.X, data.y, strict=True))


def file_of(directory: Path, name: str) -> Path:
    """The data file a violated step `PROOF/STEP` is written to: `directory/PROOF--STEP.csv`."""
    return directory / f"{name.replace('/', '--')}.csv"


def files(audit: Audit, directory: Path) -> list[Path]:
    """Every file `shrink_all` may write (one per violated step with a run kept), known
    before any is shrunk: the command line refuses them when one is a file the audit read."""
    return [file_of(directory, name) for name in sorted(audit.witnesses)]


def read_by(audit: Audit) -> list[tuple[str, Path]]:
    """The files `audit` read that it knows itself, as what they are and their path (the
    command line's `inputs` words): each proof file audited and the files it imports, each
    proof's `[numeric] data`, the data files given (`Audit.data`), every built-in proof's
    file, and the module file of each plug-in whose runs are kept to shrink."""
    from proofs.library import PROOFS
    from proofs.proof_file import imported_files
    from verify.audit.targets import STDIN

    out: list[tuple[str, Path]] = []
    for proof in audit.proofs:
        origin = proof.proof.origin
        if proof.file and origin is not None and origin.file != STDIN:
            out.append(("a proof file given", Path(origin.file)))
            out += [(f"a proof file that {origin.file} imports", Path(path))
                    for path in imported_files(origin.file)]
        if proof.proof.numeric is not None:
            out += [(f"a data file that {proof.id} names", Path(path))
                    for path in proof.proof.numeric.data]
    out += [("a data file given", Path(name)) for name in audit.data if name != "-"]
    out += [(f"the file of the built-in proof {proof_id}", Path(path))
            for proof_id, path in PROOFS.items()]
    for witness in audit.witnesses.values():
        plugin = witness.check.plugin
        if plugin is not None and (path := plugin.source_file()) is not None:
            given = f" (--algorithm {plugin.spec})" if plugin.spec else ""
            out.append((f"the file of plug-in {plugin.name}{given}", Path(path)))
    return out


def refused(audit: Audit, directory: Path, read: Sequence[tuple[str, Path]] = ()
            ) -> str | None:
    """The one line refusing the counterexample files `shrink_all` would write into
    `directory` when one is a file the audit read (`read`, what the caller knows it read,
    and `read_by`, what the audit knows), None when none is: the one check of the command
    line and of `shrink_all` (`verify.audit.overwrites.report_clash`)."""
    from verify.audit.overwrites import report_clash

    return report_clash([("counterexamples", path) for path in files(audit, directory)],
                        [*read, *read_by(audit)], written="a counterexample file")


class Overwrite(ValueError):
    """`shrink_all` would replace a file the audit read (its one line: `refused`)."""


def shrink_all(audit: Audit, directory: Path, plugins: Sequence[str] = (),
               tries: int = TRIES) -> list[str]:
    """Shrink every violated step of `audit` and write each as `directory/PROOF--STEP.csv`
    (`file_of`; the directory made if missing; a symbolic link there is replaced, the file it
    points to left alone); one line each: the file and the command that
    reproduces it, or why there is none. `plugins`: the command-line options of each
    plug-in the audit was given (`Plugin.options`). The command repeats the audit's
    `--budget` when it was not the default (the data file's run is checked at any budget:
    the budget sizes only the campaign around it). Raises Overwrite, writing nothing, when
    a file it would write is one the audit read (`refused`: the command line's check; from
    Python there was none, and a proof's own data file could be replaced)."""
    if (clash := refused(audit, directory)) is not None:
        raise Overwrite(clash)
    directory.mkdir(parents=True, exist_ok=True)
    budget = "" if audit.budget == "default" else f" --budget {audit.budget}"
    lines = []
    for name, witness in sorted(audit.witnesses.items()):
        lines.append(_write(name, witness, directory, [*plugins, *filter(None, [budget])],
                            tries))
    for proof in audit.proofs:  # a violation with no run kept to shrink: said, not silent
        for step in proof.steps:
            name = f"{proof.id}/{step.step.id}"
            if step.numeric is not None and step.numeric.status == "violated" and \
                    name not in audit.witnesses:
                lines.append(f"{name}: violated on runs, but no data file written: the "
                             "campaign kept no run of its counterexample to shrink")
    return lines


def _write(name: str, witness: Witness, directory: Path, options: Sequence[str],
           tries: int) -> str:
    """One violated step shrunk and written (or why not); `options` end its command."""
    scenario = witness.scenario
    data = replace(scenario.data, name=name.replace("/", "--"))
    named = Header(tuple(scenario.u), scenario.start, scenario.margins)
    shrunk = shrink(witness.check, data, witness.check.kind.name, tries, named, witness.read_u)
    origin = scenario.origin
    if shrunk is None:
        return (f"{name}: its run ({origin.source}, {seed_words(origin.seed)}, {origin.dataset}) "
                "fails in the campaign but not when its data are run as a data file (in "
                "this order, with the campaign's u and start, or a u of their own): no data "
                "file written")
    path = file_of(directory, name)
    if path.is_symlink():  # the folder's file is replaced, never the file a link points to
        path.unlink()
    path.write_text(csv_text(shrunk.data, shrunk.named), encoding="utf-8")
    where = shrunk.instance.provenance
    at = f", iteration {where.iteration}" if where is not None else ""
    command = "".join(f" {p.strip()}" for p in options)
    examples = f"{shrunk.data.n} example{'s' if shrunk.data.n != 1 else ''}"
    stopped = (f"; shrinking stopped when a smaller run faulted: {shrunk.stopped}"
               if shrunk.stopped else "")
    return (f"{name}: smallest failing run found ({examples}, dimension "
            f"{shrunk.data.d}{at}; shrunk from {origin.source} {origin.dataset} in "
            f"{shrunk.tries} runs{stopped}) written to {path}; reproduce: novikoff audit "
            f"{shlex.quote(witness.target)} --data {shlex.quote(str(path))}{command}")
