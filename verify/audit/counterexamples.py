"""The smallest failing run of a step violated on runs, as a data file the user can run again.

A violation names a run of the campaign (source, seed, dataset, order, iteration). This module
hands the user that run shrunk, as a CSV file with the command that reproduces it:
`novikoff audit PROOF --data FILE` (with the `--algorithm` the audit was given). The run keeps
the campaign's own reference separator u (a step may read u, gamma_u and what follows from
them): the file names it in a comment line, `# u = 3, -1, 1/2`, which `verify.audit.targets`
reads as the file's separator, so every candidate is judged exactly as its file will be: made
into scenarios by `targets.scenarios_of` with that u, run by the exact engine (or the proof's
algorithm or plug-in) and the step's statement checked exactly on its rows
(`campaign.run_campaign`). A candidate is kept only when the step still fails on it and u still
separates it (`y<u, x> > 0` for every example).

Shrinking is greedy and deterministic, in the order the issue asks, u following the data:
fewest examples (halves, then one at a time; u unchanged), smallest dimension (a coordinate
dropped, from u too: its projection), smallest integers (the data made integer by their
common denominator, a positive scale that keeps u a separator, then each entry tried at 0, at
half its value rounded toward 0, at its sign). Every pass repeats until nothing changes, and
the three passes repeat until none changes anything (a coordinate may drop only once the
entries are smaller), within `TRIES` candidate runs in all (the shrunk run is then the best
found, still failing). Where the projection of u no longer separates a candidate, the
candidate's own exact separator is tried instead (the file names whichever u it fails
with). A single-pass run makes its own unit u from its data (`verify.numeric.passes`), so
its file names none. A candidate whose run faults (a plug-in's fault) stops the shrinking.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from pathlib import Path

from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError
from verify.audit.job import Audit, Witness
from verify.audit.targets import DATA_SOURCE, U_LINE, scenarios_of, separates
from verify.numeric import campaign
from verify.numeric.campaign import Check
from verify.runs.columns import Instance

#: At most this many candidate runs per violated step: a bound on the work, not on the clock.
TRIES = 400


@dataclass(frozen=True)
class Shrunk:
    """A step's smallest failing run found: its data (in run order) and the failing row."""

    step: str
    data: Dataset
    instance: Instance
    tries: int
    u: Vector | None = None  # the separator its file names (None: a single-pass run)
    stopped: str | None = None  # a candidate's run faulted (a plug-in): shrinking stopped


def fails(check: Check, data: Dataset, run: str, u: Vector | None = None) -> Instance | None:
    """The step's counterexample on `data` run as a data file would be, with `u` as its
    separator (None: an exact separator is found, as for a file that names none); None when
    the step holds, is vacuous, `u` does not separate the data or the data give no run of
    that kind."""
    found = _failing(check, data, run, u)
    return None if found is None else found[0]


class _Fault(Exception):
    """A candidate's run faulted (a plug-in's fault): shrinking stops there."""


def _failing(check: Check, data: Dataset, run: str, u: Vector | None
             ) -> tuple[Instance, Vector | None] | None:
    """`fails`, with the separator the file will name (None: the data have none to name,
    a single-pass run makes its own); `_Fault` when the run faults."""
    from perceptron.geometry.separability import Separable, separability

    if u is None:
        found = separability(data)
        separator = tuple(found.w) if isinstance(found, Separable) else None
    elif separates(u, data):
        separator = tuple(u)
    else:
        return None
    try:
        made = scenarios_of(data, separator, run, data.name)
    except DataError:
        return None
    result = campaign.run_campaign([check], {DATA_SOURCE: made})
    if result.faults:
        raise _Fault(next(iter(result.faults.values())))
    verdict = result.verdicts.get((check.name, DATA_SOURCE))
    if verdict is None or verdict.status != "violated" or verdict.counterexample is None:
        return None
    return verdict.counterexample, separator


def shrink(check: Check, data: Dataset, run: str, tries: int = TRIES,
           u: Vector | None = None) -> Shrunk | None:
    """`data` shrunk while the step still fails (None: it fails on no run of `data`, with
    `u` or with a separator of its own), the separator following it: `u` projected as
    coordinates drop, or, where that projection no longer separates the data (or `u` is
    None), the data's own exact separator, which the file then names (a step about `u`
    fails with the `u` the file names, whichever it is). The passes are repeated until none
    finds a smaller failing run: a coordinate may drop only once entries are smaller, an
    example only once a coordinate is gone."""
    budget = [tries]
    single = run == "single-pass"  # a pass makes its own u from its data: none to keep

    def still(candidate: Dataset, v: Vector | None) -> tuple[Instance, Vector | None] | None:
        for separator in dict.fromkeys((v, None) if v is not None else (None,)):
            if budget[0] <= 0:
                return None
            if separator is not None and not separates(separator, candidate):
                continue  # the projection does not separate: the data's own, next
            budget[0] -= 1
            if (found := _failing(check, candidate, run, separator)) is not None:
                return found[0], None if single else found[1]
            if separator is not None:
                return None  # u separates and the step holds: u stays the campaign's
        return None

    try:
        start = still(data, u)
    except _Fault:
        return None
    if start is None:
        return None
    best, u = start
    stopped = None
    progress = True
    while progress and budget[0] > 0 and stopped is None:
        progress = False
        for moves in (_fewer, _narrower, _smaller):
            changed = True
            while changed and budget[0] > 0 and stopped is None:
                changed = False
                for candidate, dropped in moves(data):
                    v = None if u is None else tuple(c for k, c in enumerate(u) if k != dropped)
                    try:
                        found = still(candidate, v)
                    except _Fault as fault:
                        stopped = str(fault)
                        break
                    if found is not None:
                        data, (best, u), changed, progress = candidate, found, True, True
                        break
    return Shrunk(check.name, data, best, tries - budget[0], u, stopped)


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
    """The data without one coordinate, with the one dropped (for u's projection)."""
    for k in range(data.d - 1, -1, -1):
        candidate = _dataset([x[:k] + x[k + 1:] for x in data.X], data.y, data.name)
        if candidate is not None:
            yield candidate, k


def _smaller(data: Dataset) -> Iterator[Candidate]:
    """The data made integer (by their common denominator), then each entry made smaller:
    0, half toward 0, its sign."""
    def make() -> Iterator[Dataset | None]:
        scale = lcm(*(v.denominator for x in data.X for v in x))
        if scale != 1:
            yield _dataset([[v * scale for v in x] for x in data.X], data.y, data.name)
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


def csv_text(data: Dataset, u: Vector | None = None) -> str:
    """The data as a CSV file `novikoff` reads: one example per line, the label last; first
    the separator line `# u = ...` when `u` is given (`verify.audit.targets` reads it)."""
    head = f"{U_LINE} {', '.join(map(str, u))}\n" if u is not None else ""
    return head + "".join(",".join([*map(str, x), str(y)]) + "\n"
                          for x, y in zip(data.X, data.y, strict=True))


def shrink_all(audit: Audit, directory: Path, plugins: Sequence[str] = (),
               tries: int = TRIES) -> list[str]:
    """Shrink every violated step of `audit` and write each as `directory/PROOF--STEP.csv`
    (the directory made if missing); one line each: the file and the command that
    reproduces it, or why there is none. `plugins`: the command-line options of each
    plug-in the audit was given (`Plugin.options`). The command repeats the audit's
    `--budget` when it was not the default (the data file's run is checked at any budget:
    the budget sizes only the campaign around it)."""
    directory.mkdir(parents=True, exist_ok=True)
    budget = "" if audit.budget == "default" else f" --budget {audit.budget}"
    lines = []
    for name, witness in sorted(audit.witnesses.items()):
        lines.append(_write(name, witness, directory, [*plugins, *filter(None, [budget])],
                            tries))
    return lines


def _write(name: str, witness: Witness, directory: Path, options: Sequence[str],
           tries: int) -> str:
    """One violated step shrunk and written (or why not); `options` end its command."""
    scenario = witness.scenario
    run = witness.check.kind.name
    data = replace(scenario.data, name=name.replace("/", "--"))
    u = None if run == "single-pass" else tuple(scenario.u)  # a pass makes its own
    shrunk = shrink(witness.check, data, run, tries, u)
    origin = scenario.origin
    if shrunk is None:
        return (f"{name}: its run ({origin.source}, seed {origin.seed}, {origin.dataset}) "
                "fails in the campaign but not when its data are run as a data file (in "
                "this order, with the campaign's u or one of their own): no data file "
                "written")
    path = directory / f"{data.name}.csv"
    path.write_text(csv_text(shrunk.data, shrunk.u), encoding="utf-8")
    where = shrunk.instance.provenance
    at = f", iteration {where.iteration}" if where is not None else ""
    command = "".join(f" {p.strip()}" for p in options)
    examples = f"{shrunk.data.n} example{'s' if shrunk.data.n != 1 else ''}"
    stopped = (f"; shrinking stopped when a smaller run faulted: {shrunk.stopped}"
               if shrunk.stopped else "")
    return (f"{name}: smallest failing run found ({examples}, dimension "
            f"{shrunk.data.d}{at}; shrunk from {origin.source} {origin.dataset} in "
            f"{shrunk.tries} runs{stopped}) written to {path}; reproduce: novikoff audit "
            f"{witness.target} --data {path}{command}")
