"""What a run offers a proof: its quantities, its row sets, and the open registry of run kinds.

A proof declares `[numeric] run = KIND`: its names are quantities of runs of that kind. A
*run kind* (`RunKind`) says what one of its runs offers:

- its *quantities* (`Quantity`: a name, scalar or vector, what it denotes, and which row sets
  bind it), documented here once and generated into docs/run-quantities.md
  (`python -m verify.runs.docs`);
- its *row sets* (`RowSet`), in order of preference: a step is checked on the first row set
  that binds every quantity it mentions (`RunKind.binding_for`), each row set built from a
  run as exact columns (`verify.runs.columns`);
- its *runner*: how a scenario (data in an order, a reference u, where it came from) becomes
  runs of that kind, for the default algorithm or a named one (`RunKind.runner`);
- its *laws*: relations that hold on every row by definition of its quantities (the update
  rule), checked on its runs by the tests and by `verify.testing.check_run`.

The registry is open. The built-in kinds (`verify.runs.online`, `verify.runs.batch`,
`verify.runs.single_pass`, `verify.runs.cyclic`) register themselves when `verify.runs` is
imported; a user adds hers from Python (`register`) or names an installed entry point of the
group `novikoff.runs` (`entry_point`), which is loaded only then: a proof file only selects
among the kinds registered, it never makes one load or run code. Row set names are unique
across kinds, so a row set names its kind (`kind_of`).

Derived quantities are not registered: a proof binds its own names to expressions over the
base quantities (`[numeric] names`, `verify.runs.naming`).
"""

from __future__ import annotations

import difflib
import functools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from importlib.metadata import entry_points
from typing import Any

from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import functional_margins
from verify.runs.columns import InstanceBatch, Origin
from verify.runs.families import FamilyData, FamilyError, atom_reads, is_atom

#: Entry-point group of installed run kinds (loaded only by a name given to `entry_point`).
GROUP = "novikoff.runs"


@dataclass(frozen=True)
class Scenario:
    """One run to make: data in this order, a reference u, and where it came from.

    `margins`, when given, makes it a single-pass scenario (any data, u of norm exactly 1,
    read at each margin gamma > 0): only the kinds whose runs are passes read it
    (`RunKind.passes`), and they read no other. `start`, when given, is the one start of the
    runs of kinds that take starts (`RunKind.start_of`: a batch run's theta0), instead of
    their own several: a data file names it (`# theta0 = ...`), so a counterexample found
    from one start is run again from that start (`verify.audit.counterexamples`)."""

    data: Dataset
    u: Vector
    origin: Origin
    max_epochs: int = 1000
    max_iterations: int = 40
    margins: tuple[Fraction, ...] = ()
    start: Vector | None = None


#: Makes the runs of one scenario: one run, or a tuple of runs (several starts, or one per
#: parameter value of the algorithm).
Runner = Callable[[Scenario], Any]


@dataclass(frozen=True)
class Quantity:
    """A base quantity of a run kind: its name in proofs, its sort, what it denotes, and the
    row sets that bind it.

    What it denotes is said twice over, each in its own field, so that no printer has to
    guess a formula out of prose: `formula`, its definition in proof-file syntax
    (docs/proof-files.md) over the kind's quantities and its families (`w + tau*y*x`,
    `max(-y*dot(w, x), 0)` as `[define]` writes it), or, with `extreme`, the expression
    whose least (`min`) or largest (`max`) value over the examples j = 1..N it is
    (`Y[j]*dot(u, X[j])`); and `doc`, words, in which every formula is a Markdown code span
    in proof-file syntax too (`parts`). The reports typeset both with the printers that
    typeset the steps (`verify.typeset.written`), docs/run-quantities.md shows them as
    written (`verify.runs.docs`), and a test parses every one (`formulas`)."""

    name: str
    vector: bool
    doc: str
    rows: tuple[str, ...]
    #: its definition in proof-file syntax, "" when words alone say what it is
    formula: str = ""
    #: "min" or "max": it is the least or largest value of `formula` over j = 1..N
    extreme: str = ""

    def __post_init__(self) -> None:
        if self.extreme not in ("", "min", "max"):
            raise ValueError(f"quantity {self.name}: extreme is 'min' or 'max', not "
                             f"{self.extreme!r}")
        if self.extreme and not self.formula:
            raise ValueError(f"quantity {self.name}: an extreme ({self.extreme}) of no formula")
        if self.doc.count("`") % 2:
            raise ValueError(f"quantity {self.name}: its doc opens a code span it does not "
                             "close")

    def parts(self) -> tuple[tuple[bool, str], ...]:
        """`doc` as words and formulas, in order: (False, words), (True, a formula in
        proof-file syntax, a code span of the doc), each part non-empty."""
        return tuple((k % 2 == 1, part) for k, part in enumerate(self.doc.split("`")) if part)

    def formulas(self) -> tuple[str, ...]:
        """Every formula it states: its definition, then those of its doc."""
        return (*((self.formula,) if self.formula else ()),
                *(text for formula, text in self.parts() if formula))


@dataclass(frozen=True)
class RowSet:
    """A set of rows of a run (one per state, per update, ...): what a row is, and how the
    rows are built from a run: `build(run, origin, names)`, `names` the quantities the checks
    read (a builder may skip a costly column nobody reads; it may also give more)."""

    name: str
    doc: str
    build: Callable[[Any, Origin, Collection[str] | None], InstanceBatch]
    joint: Joint | None = None  # the rows of many runs at once, when the kind can
    #: one row per update of the run, the iterate before it: where an induction's update
    #: facts are checked (`verify.audit.job`: whether the runs are the induction's runs)
    updates: bool = False
    #: `count(run)`: how many rows `build` makes of `run`, known before any is made (from the
    #: run's updates, iterations, presentations, examples), so that a campaign can refuse the
    #: rows of a run too large to make (`RunKind.size`); every built-in row set has one. None:
    #: a user's row set that does not say, whose rows are always made
    count: Callable[[Any], int] | None = None
    #: whether `build` takes a fourth argument, `limit`, and then makes only the first
    #: `limit` rows of a run, each the same row as among all of them: a campaign makes and
    #: checks that many of a run whose rows are past its limit (`RunKind.rows`), not none
    prefix: bool = False
    #: how many vectors of the data's dimension each of its rows holds, beside the run's
    #: constants (`u`, `w0`): a run's first rows past the limit are made up to
    #: `verify.numeric.campaign.MAX_RUN_CELLS` coordinates in all of them (`RunKind.first`).
    #: A cyclic presentation row holds six (`w`, `w_next`, `x`, `ws`, `a`, `P`): its first
    #: 335 544 rows on a 20 000 x 50 file, one vector's worth, took a worker past 1.1 GB
    vectors: int = 1


@dataclass(frozen=True)
class Joint:
    """How a row set's rows of many small runs are made at once (a campaign of thousands of
    runs of a handful of updates each spent most of its time on each run's own columns and
    on concatenating them: a few dozen numpy calls per run and row set, for a few dozen
    rows).

    `count(run, names)`: how many rows `RowSet.build` would make of `run` when this can make
    them jointly (the same rows: a campaign's stages are cut by row counts), else None (a
    name it does not make, a run of another shape: those runs' rows are built one by one).
    `build(runs, origins, names)`: one batch of every run's rows, run after run, each row
    the same exact values as `RowSet.build` gives (each column may be over other
    denominators: a run's numerators need not be reduced, so the batch is only for
    evaluating; a counterexample is read off the rows `RowSet.build` makes)."""

    count: Callable[[Any, Collection[str]], int | None]
    build: Callable[[Sequence[Any], Sequence[Origin], Collection[str]], InstanceBatch]
    #: an upper bound on the numerators and denominators of a run's rows, up to the factors
    #: its quantities' products bring (whose runs a campaign puts in one batch: one run of
    #: big numbers would make every product of the batch exact Python ints)
    magnitude: Callable[[Any], int] = lambda _run: 0
    #: `prepare(runs)`: ready what `magnitude` and `build` read of many runs, for all of them
    #: at once (the same values); a campaign calls it with a flush's runs before it asks
    #: their magnitudes (`verify.numeric.campaign._jointly`)
    prepare: Callable[[Sequence[Any]], None] = lambda _runs: None


def needed(names: Collection[str]) -> set[str]:
    """The quantities rows must bind for `names`: its own, but for each sum or family member
    (`is_atom`), the quantities it reads (its bounds, filters, body), from which its column
    is made where the rows are checked (`family_columns`)."""
    return set(_needed(frozenset(names)))


@functools.lru_cache(maxsize=1024)
def _needed(names: frozenset[str]) -> frozenset[str]:
    """`needed`, once per set of names (a campaign asks it of every run's rows of every row
    set a check binds, with the same few sets)."""
    return frozenset({n for n in names if not is_atom(n)}.union(
        *(s | v for a in names if is_atom(a) for s, v, _ in (atom_reads(a),))))


def wanted_columns(names: Collection[str] | None) -> Callable[[str], bool]:
    """Whether a row builder must make a column: all of them when no names are given (a
    `RowSet`'s builder may skip the columns no check reads)."""
    if names is None:
        return lambda _name: True
    return frozenset(names).__contains__


@dataclass(frozen=True)
class RunKind:
    """A kind of run: its quantities, row sets (in order of preference), runner and laws.

    `runner(algorithm)` is the runner of the named algorithm (None: the kind's default run);
    it raises ValueError for an algorithm that makes no runs of this kind. `label(origin,
    run)` names one run among the several a scenario makes (a batch run's start). `passes`:
    its runs are single passes (it reads single-pass scenarios only); `any_data`: its runs
    need no separator, so a data file that is not separable is run too, with `e_1` as its
    reference u (`verify.audit.targets.scenarios_of`); `separator_read`: the quantities that
    read the separator when only its rows do, not its runs, so data that are not separable
    are run too, with `e_1` as reference u, for a proof that reads none of them
    (`verify.runs.naming.Naming.quantities_read`); None: its runs need one whatever a proof
    reads (a batch run starts at -u; online runs, whose rows on such data took gigabytes:
    `verify.runs.online.KIND`). `start_of(run)`: the start of one run,
    for kinds whose runs start where a scenario says (`Scenario.start`; None: the kind's runs
    start where they always do), so the one run of a counterexample can be made again.
    """

    name: str
    doc: str
    quantities: tuple[Quantity, ...]
    row_sets: tuple[RowSet, ...]
    runner: Callable[[str | None], Runner]
    passes: bool = False
    any_data: bool = False
    separator_read: frozenset[str] | None = None
    laws: Mapping[str, str] = field(default_factory=dict)
    label: Callable[[Origin, Any], Origin] = lambda origin, _run: origin
    rank: int = 100  # where docs and messages list it (`kinds`); a user's kind: after ours
    start_of: Callable[[Any], Vector] | None = None
    #: the families its runs offer (name: a family of vectors?), read off each run's
    #: dataset (`run.data`) and bound on every row set: `DATASET` for the built-in kinds
    families: Mapping[str, bool] = field(default_factory=dict)
    #: whether its runs offer their history too (`verify.runs.families.HISTORY`, among
    #: `families`): each run's `families()` gives its dataset's families and its history's
    history: bool = False
    #: `cut(run, row_set)`: the rows of `row_set` its runner did not make of a run it cut
    #: at its own budget (the voted perceptron's epochs past
    #: `verify.runs.cyclic.VOTED_PRESENTATIONS`), with why, said of the run (the campaign
    #: names its file); None: the run has them all
    cut: Callable[[Any, str], tuple[int, str] | None] | None = None
    #: the quantity that counts a run's updates (its iterations) before a row's state
    #: (`t`, `k`): an induction's counter, under the [numeric] names, is checked against it
    #: (`verify.audit.membership.counter_check`); None: the kind names none, and nothing
    #: checks that an induction's counter counts its runs' updates
    counter: str | None = None
    #: the quantities that keep one value along each run by the kind's own definition (its
    #: data constants: `R2`, `u`, `w0`, ...): an induction's constant bound to an expression
    #: of these alone needs no check that it keeps one value along a run; one that reads any
    #: other quantity is checked on the rows (`verify.audit.membership.fixed_gaps`; adv32b
    #: O2). Empty: every constant is checked on the rows (a user's kind unless it says)
    fixed: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        rows = {r.name for r in self.row_sets}
        names = [q.name for q in self.quantities]
        if len(set(names)) != len(names):
            raise ValueError(f"run kind {self.name}: a quantity is listed twice")
        for q in self.quantities:
            if not q.rows or not set(q.rows) <= rows:
                raise ValueError(f"run kind {self.name}: quantity {q.name} names row sets "
                                 f"{q.rows}, not among {sorted(rows)}")

    def __reduce__(self) -> tuple[Callable[[str], RunKind], tuple[str]]:
        """Pickled by name (a check travels to a worker process with its kind): the worker
        finds the kind in its own registry (a built-in one, or a user's registered again
        when her module is imported there)."""
        return kind, (self.name,)

    @cached_property
    def _names(self) -> dict[str, frozenset[str]]:
        return {r.name: frozenset(q.name for q in self.quantities if r.name in q.rows)
                for r in self.row_sets}

    @cached_property
    def _builders(self) -> dict[str, RowSet]:
        return {r.name: r for r in self.row_sets}

    @cached_property
    def row_names(self) -> frozenset[str]:
        """The names of its row sets."""
        return frozenset(self._builders)

    def names(self, row_set: str) -> frozenset[str]:
        """The quantities one row set binds."""
        return self._names[row_set]

    @cached_property
    def vectors(self) -> frozenset[str]:
        """The vector quantities (every other one is a scalar)."""
        return frozenset(q.name for q in self.quantities if q.vector)

    @cached_property
    def offered(self) -> tuple[str, ...]:
        """Every quantity some row set binds, sorted (what a proof may name)."""
        return tuple(sorted(q.name for q in self.quantities))

    def quantity(self, name: str) -> Quantity:
        """The quantity of that name (KeyError: none)."""
        return next(q for q in self.quantities if q.name == name)

    def binding_for(self, names: Collection[str], scalars: Collection[str] | None = None,
                    vectors: Collection[str] | None = None) -> str | None:
        """The first row set binding every name (None: some name is no quantity of a run of
        this kind), each of its own sort when the sorts are given (a scalar `d` is not an
        online run's direction vector `d`)."""
        if (scalars is not None and set(scalars) & self.vectors) or (
                vectors is not None and set(vectors) - self.vectors):
            return None
        wanted = set(names)
        return next((r.name for r in self.row_sets if wanted <= self._names[r.name]), None)

    def rows(self, run: Any, row_set: str, origin: Origin,
             names: Collection[str] | None = None, limit: int | None = None
             ) -> InstanceBatch:
        """The `row_set` rows of `run` (possibly none), restricted to `names`; the first
        `limit` of them only, when given (a row set that can, `RowSet.prefix`)."""
        if row_set not in self._builders:
            raise ValueError(f"a {self.name} run has no {row_set!r} rows")
        atoms = [n for n in names or () if is_atom(n)]
        needs = names
        if atoms:  # the quantities a sum reads are made too, then its column of them
            needs = needed(names or ())
        builder = self._builders[row_set]
        if limit is not None and not builder.prefix:
            raise ValueError(f"{row_set} rows are made whole, not the first {limit}")
        batch = builder.build(run, origin, needs) if limit is None else \
            builder.build(run, origin, needs, limit)  # type: ignore[call-arg]
        if atoms:  # its columns are made where the rows are checked (`family_columns`)
            data = getattr(run, "data", None)
            if data is None:
                raise FamilyError(f"a {self.name} run of type {type(run).__name__} has no "
                                  "dataset (`data`): its families cannot be read")
            # one per origin: a run's rows may name several (a single pass's, per margin)
            batch.families = ((run.families() if self.history
                               else FamilyData.of(data, self.families)),) * len(batch.origins)
        if names is not None:
            keep = set(names) | set(needs or ())  # a sum's quantities: its natural bounds
            batch.scalars = {n: c for n, c in batch.scalars.items() if n in keep}
            batch.vectors = {n: c for n, c in batch.vectors.items() if n in keep}
        return batch

    def size(self, run: Any, row_set: str) -> tuple[int, int] | None:
        """The rows `rows` would make of `run` for `row_set` (`RowSet.count`) and the
        coordinates of each (its dataset's dimension: every vector of a row has that many,
        `x`, `w`, `u` alike), before any is made: the one place a row set's size is
        computed, so that a campaign refuses every row set's rows alike
        (`verify.numeric.campaign.MAX_RUN_CELLS`). None: the row set does not count its
        rows, or the run has no dataset (`data`) to read its dimension off."""
        count = self._builders[row_set].count
        data = getattr(run, "data", None)
        if count is None or data is None:
            return None
        return count(run), max(data.d, 1)

    def prefix(self, row_set: str) -> bool:
        """Whether the first rows of `row_set` of a run can be made alone (`RowSet.prefix`)."""
        return self._builders[row_set].prefix

    def first(self, row_set: str, width: int, cells: int) -> int:
        """How many of the first rows of `row_set` of a run past the limit are made: those
        whose vectors (`RowSet.vectors`, each of `width` coordinates) hold at most `cells`
        coordinates in all; 0 for a row set made whole (`RowSet.prefix`)."""
        builder = self._builders[row_set]
        return cells // (max(width, 1) * max(builder.vectors, 1)) if builder.prefix else 0

    def joint(self, row_set: str) -> Joint | None:
        """How the rows of `row_set` of many runs are made at once (None: run by run)."""
        return self._builders[row_set].joint

    def pinned(self, scenario: Scenario, run: Any) -> Scenario:
        """The scenario that makes `run` again, alone of the runs `scenario` makes: its start
        pinned (`start_of`), or `scenario` itself for kinds whose runs start where they
        always do."""
        return scenario if self.start_of is None else replace(scenario,
                                                               start=self.start_of(run))

    def reads(self, scenario: Scenario) -> bool:
        """Whether this kind runs `scenario` (passes read single-pass scenarios only)."""
        return bool(scenario.margins) == self.passes

    def closest(self, name: str) -> str | None:
        """The quantity spelt most like `name`, if one is close."""
        near = difflib.get_close_matches(name, self.offered, n=1, cutoff=0.6)
        return near[0] if near else None


# ---- the registry ------------------------------------------------------------------------

_KINDS: dict[str, RunKind] = {}


class UnknownRunKind(KeyError):
    """No run kind of that name is registered (the message lists those that are)."""

    def __str__(self) -> str:
        return str(self.args[0])


def register(new: RunKind) -> RunKind:
    """Add a run kind to the registry (and return it). Registering the same kind again is
    harmless (a module imported twice); another kind of a taken name, or a row set name
    another kind has, is refused (ValueError): row set names say which kind a check runs on."""
    old = _KINDS.get(new.name)
    if old is not None:
        if old == new:
            return old
        raise ValueError(f"run kind {new.name!r} is already registered")
    taken = {r.name: k.name for k in _KINDS.values() for r in k.row_sets}
    for row_set in new.row_sets:
        if row_set.name in taken:
            raise ValueError(f"run kind {new.name}: row set {row_set.name!r} is already "
                             f"{taken[row_set.name]}'s (row set names are unique)")
    _KINDS[new.name] = new
    return new


def unregister(name: str) -> None:
    """Remove a run kind a user registered (tests; a built-in kind stays)."""
    if name in _BUILT_IN:
        raise ValueError(f"{name} is a built-in run kind")
    _KINDS.pop(name, None)


#: The kinds registered while `verify.runs` is imported (`seal_built_ins`).
_BUILT_IN: set[str] = set()


def seal_built_ins() -> None:
    """Record every kind registered so far as built in: `verify.runs` calls this once it has
    imported each module of its own, so a new built-in kind is one new module there."""
    _BUILT_IN.update(_KINDS)


def built_in() -> tuple[str, ...]:
    """The names of the built-in kinds, in the order the docs list them (`kinds`)."""
    return tuple(k.name for k in kinds() if k.name in _BUILT_IN)


def kinds() -> tuple[RunKind, ...]:
    """Every registered kind, by rank (the built-in kinds first), then in registration
    order."""
    return tuple(sorted(_KINDS.values(), key=lambda k: k.rank))


def kind(name: str) -> RunKind:
    """The registered kind `name`; UnknownRunKind names those registered and the closest."""
    found = _KINDS.get(name)
    if found is None:
        near = difflib.get_close_matches(name, list(_KINDS), n=1, cutoff=0.6)
        hint = f" (closest: {near[0]!r})" if near else ""
        raise UnknownRunKind(f"no run kind {name!r}{hint}; registered: "
                             f"{', '.join(k.name for k in kinds())} (a kind of your own is "
                             "registered from Python, verify.runs.register, or named as an "
                             f"entry point of {GROUP})")
    return found


def kind_of(row_set: str) -> RunKind:
    """The kind whose row set this is."""
    for candidate in _KINDS.values():
        if any(r.name == row_set for r in candidate.row_sets):
            return candidate
    raise UnknownRunKind(f"no registered run kind has {row_set!r} rows")


def entry_point(name: str) -> RunKind:
    """Load and register the installed run kind `name` (group `novikoff.runs`: a `RunKind`,
    or a function returning one). Only the user's naming it runs its code."""
    found = [e for e in entry_points(group=GROUP) if e.name == name]
    if not found:
        raise UnknownRunKind(f"no entry point {name!r} in group {GROUP}")
    loaded = found[0].load()
    made = loaded() if callable(loaded) and not isinstance(loaded, RunKind) else loaded
    if not isinstance(made, RunKind):
        raise ValueError(f"entry point {name} ({found[0].value}) is not a RunKind")
    return register(made)


# ---- data constants every kind reads -----------------------------------------------------


def radius_bound(R2: Fraction) -> Fraction:
    """The least `c / q` with `(c / q)^2 >= R2 = p / q`: `sqrt(R2)` exactly when it is
    rational (p, q coprime, so p q is a square just when both are), an upper bound else."""
    p, q = R2.numerator, R2.denominator
    root = math.isqrt(p * q)
    return Fraction(root if root * root == p * q else root + 1, q)


def margin(data: Dataset, u: Sequence[Fraction]) -> Fraction:
    """`gamma_u = min_i y_i <u, x_i>` (positive exactly when u strictly separates)."""
    return min(functional_margins(data, list(u)))
