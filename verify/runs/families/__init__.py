"""Sums and family members on a run's rows: the dataset's families (issue 31).

A run kind may offer its dataset as families (`RunKind.families`, `DATASET`: `X` the
examples, `Y` the labels, indexed 1..N); a proof binds its own families to them by name
(`[numeric] names`, `verify.runs.naming`). A judgement on runs then reads *atoms*: sums over
ranges and sets, family members, inner products reading a member (`is_atom`), which no row set
binds as a quantity. `family_columns` makes each atom's column exactly where the rows are
checked, for all the runs of a batch at once, each row reading its own run's data: numerators
over per-row denominators, int64 only where a magnitude bound proves it, Python integers
otherwise, the Gram matrix of each dataset made once (`FamilyData`). A counterexample carries
the members, so the kernel evaluates the sums there itself.

Kept apart from `verify.runs.quantity` (what a run offers) because it is one computation, the
exact evaluation of the kernel's atoms on columns, with its own arithmetic.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import weakref
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import sympy

from perceptron.dataset import Dataset
from verify.kernel.atoms import IDENT, Family, Sum, gram_pair, named, structure
from verify.runs.columns import Column, InstanceBatch, fitting, in_int64

#: The families every built-in run offers (`RunKind.families`): its dataset's examples `X`
#: (vectors, `X[j]` = x_j) and labels `Y` (`Y[j]` = y_j), j = 1..N, each run's own data (the
#: augmented examples where the run's algorithm has a bias), and 0 (the zero vector) at every
#: other index, as the kernel reads a family where a counterexample gives no member.
DATASET: Mapping[str, bool] = {"X": True, "Y": False}

#: The families of an online run's history (`verify.runs.online`, `RunKind.families`): its
#: updates `XU[k]`, `YU[k]` (the example and label updated on at update k = 1..t, so that
#: `w = w0 + eta*sum(k in 1..t, YU[k]*XU[k])` for the built-in rules), and its stream, the
#: examples visited in order (cyclic epochs), at times i = 1..`time`: `XS[i]`, `YS[i]` the
#: example and label visited at time i, `ZS[i]` = YS[i]*XS[i] (Telgarsky's x_i y_i), `IS[i]`
#: 1 when the visit at time i updated, else 0 (Telgarsky's 1[i in M_i]); each the whole run's
#: history (a row at update t reads the first t updates, or the times up to its `time`), 0
#: and the zero vector past it. A member of a vector family is an example of the run's
#: dataset times a factor (`History`), so its products are read off the dataset's Gram.
#: Single-pass runs (`verify.runs.single_pass`) offer the same families of their pass (the
#: stream its N elements in order), cyclic runs (`verify.runs.cyclic`) of their presentations
#: (the stream every presentation, epochs in order, the last epoch's too).
UPDATES: Mapping[str, bool] = {"XU": True, "YU": False}
STREAM: Mapping[str, bool] = {"XS": True, "YS": False, "ZS": True, "IS": False}
#: The family of a batch run's history (`verify.runs.batch`): `MK[i]` = |M| of iteration i =
#: 1..K (the set made at theta_{i-1}), so that `sum(i in 1..k, MK[i])` counts the members of
#: the sets before theta_k (Chan's sum of the sizes |M_i|).
SIZES: Mapping[str, bool] = {"MK": False}
#: Every history family (a run kind offers those of its runs, `RunKind.families`).
HISTORY: Mapping[str, bool] = {**UPDATES, **STREAM, **SIZES}

#: What each family denotes, in words (docs/run-quantities.md).
FAMILY_DOCS: Mapping[str, str] = {
    "X": "the examples, `X[j]` = x_j, j = 1..N",
    "Y": "the labels, `Y[j]` = y_j, j = 1..N",
    "XU": "the example updated on at update k, k = 1..T, the whole run's updates: a row "
          "reads the first t",
    "YU": "its label, so that `w = w0 + eta*sum(k in 1..t, YU[k]*XU[k])` on every row of a "
          "built-in rule's run",
    "XS": "the example visited at time i of the stream, epochs in order: "
          "`XS[i]` = `X[(i - 1) mod N + 1]`, i = 1 up to the last update's time; a row reads "
          "the times up to its `time`",
    "YS": "its label",
    "ZS": "their product `YS[i]*XS[i]`, Telgarsky's x_i y_i",
    "IS": "1 when the visit at time i updated, else 0 (Telgarsky's 1[i in M_i]), so that "
          "`sum(i in 1..time, IS[i]) = t`",
    "MK": "the size |M| of the set of iteration i, i = 1..K (made at theta_{i-1}: `MK[k + 1]` "
          "= `mk` on the iteration row of theta_k), the whole run's: a row reads the first k, "
          "`sum(i in 1..k, MK[i])` the members of the sets before theta_k",
}

#: Where a single-pass or cyclic run's families say otherwise than an online run's
#: (`FAMILY_DOCS`), per kind (docs/run-quantities.md).
KIND_FAMILY_DOCS: Mapping[str, Mapping[str, str]] = {
    "single-pass": {
        "XU": "the element updated on at update k, k = 1..T, the pass's updates: a row reads "
              "the first t",
        "YU": "its label, so that `w = sum(k in 1..t, YU[k]*XU[k])` on every row",
        "XS": "the element visited at time i of the pass: `XS[i]` = `X[i]`, i = 1..N (the "
              "whole pass); a row reads the times up to its `time`",
    },
    "cyclic": {
        "XU": "the example updated on at update k, k = 1..T, the whole run's updates: a row "
              "reads the first t",
        "YU": "its label, so that `w = w0 + sum(k in 1..t, YU[k]*XU[k])` on every row",
        "XS": "the example presented at time i, epochs in order: `XS[i]` = "
              "`X[(i - 1) mod N + 1]`, i = 1..P (every presentation of the run, its last "
              "epoch's too); a row reads the times up to its `time` (the presentations of "
              "epoch e are the times e*N + 1..e*N + N)",
        "IS": "1 when the presentation at time i updated (`m`), else 0, so that "
              "`sum(i in 1..time, IS[i]) = t` and, on presentation rows, "
              "`sum(i in 1..n, IS[i]) = t`",
    },
}

#: At most this many indices a sum ranges over on the rows of one run (the kernel's own
#: limit at one point, `verify.kernel.atoms.MAX_RANGE`).
MAX_SPAN = 2000
#: Sums nested at most this deep (the kernel's `MAX_HEIGHT`): bound index `#h` is axis h.
_AXES = 1 + 6


class FamilyError(ValueError):
    """A sum or family member that cannot be evaluated on a run's rows (one line)."""


def is_atom(name: str) -> bool:
    """Whether a symbol of a judgement on runs is a sum, a family member, or an inner
    product reading a member (the kernel's atoms that read families or bound indices), whose
    column `family_columns` makes from the run's data, not a quantity a row set binds."""
    return "[" in name or name.startswith("sum(")


def atom_reads(name: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The scalar quantities, vector quantities and families an atom reads (inside its sums'
    bounds, filters and bodies, and its members' indices)."""
    read = _named(name)
    return tuple(frozenset(n for s, n in read if s == sort)  # type: ignore[return-value]
                 for sort in ("scalar", "vector", "family"))


def _vector_member(name: str) -> bool:
    """A member of a family of vectors, named alone: a part of an inner product, no column."""
    found = structure(sympy.Symbol(name))
    return isinstance(found, Family) and (DATASET.get(found.family, False)
                                          or HISTORY.get(found.family, False))


def _named(name: str) -> set[tuple[str, str]]:
    return named(sympy.Symbol(name))


class _Families(Mapping[str, Any]):
    """A run's history families by name, each made when first read (`History.of`); which
    families there are is known without making any (`in`, iteration)."""

    def __init__(self, made: dict[str, Callable[[], Any]]) -> None:
        self.made = made
        self._values: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._values:
            self._values[name] = self.made[name]()
        return self._values[name]

    def __contains__(self, name: object) -> bool:
        return name in self.made

    def __iter__(self) -> Iterator[str]:
        return iter(self.made)

    def __len__(self) -> int:
        return len(self.made)


@dataclass(frozen=True)
class History:
    """A run's past as families over its dataset (`HISTORY`): a family of vectors as, per
    index k = 1..len, the example's position (0-based) in the dataset and an integer factor
    (its member is factor * X[position]); a family of scalars as its integer values. Made
    once per run, and only when a statement reads one of them (`FamilyData.history`)."""

    vectors: Mapping[str, tuple[np.ndarray, np.ndarray]]
    scalars: Mapping[str, np.ndarray]

    @classmethod
    def of(cls, y: np.ndarray, updates: np.ndarray,
           stream: Callable[[], tuple[np.ndarray, np.ndarray]] | None = None) -> History:
        """The families `UPDATES` and `STREAM` of a run on a dataset labelled `y` (int64):
        `updates` the position (0-based) of the example of each update, `stream()` that of
        each visit in order and 1 where the visit updated (None: no stream, a plug-in's
        run), made only when a statement reads a family of the stream: a run of 1000 epochs
        over 20 000 examples visits 2*10^7 times, and those families were about 1 GB of
        int64 made for online-history, which reads only the updates (bigdata31). Each
        factor of 1 is a broadcast 1, no array. The one home of these families, for every
        kind offering them."""
        ones = np.broadcast_to(np.int64(1), (len(updates),))
        vectors = _Families({"XU": lambda: (updates, ones)})
        scalars = _Families({
            "YU": lambda: y[updates] if len(updates) else np.zeros(0, dtype=np.int64)})
        if stream is not None:
            made = functools.cache(stream)

            def labels() -> np.ndarray:
                at = made()[0]
                return y[at] if len(at) else np.zeros(0, dtype=np.int64)

            labelled = functools.cache(labels)
            vectors.made |= {
                "XS": lambda: (made()[0], np.broadcast_to(np.int64(1), (len(made()[0]),))),
                "ZS": lambda: (made()[0], labelled())}
            scalars.made |= {"YS": labelled,
                             "IS": lambda: np.asarray(made()[1], dtype=np.int64)}
        return cls(vectors, scalars)

    def members(self, name: str, X: Sequence[Any]) -> dict[Fraction, Any]:
        """The kernel's members of one family (`X`: the dataset's examples)."""
        if name in self.vectors:
            at, factor = self.vectors[name]
            return {Fraction(k + 1): tuple(int(f) * v for v in X[int(j)])
                    for k, (j, f) in enumerate(zip(at.tolist(), factor.tolist(), strict=True))}
        return {Fraction(k + 1): Fraction(int(v)) for k, v in enumerate(self.scalars[name])}


@dataclass
class FamilyData:
    """One run's families as arrays (`X[j]` the example j = 1..count over one denominator,
    `Y[j]` its label) and as the kernel's members (`members`, for a counterexample); with
    `past`, its history too (`HISTORY`, made when first read)."""

    X: np.ndarray
    X_den: int
    Y: np.ndarray
    #: the members a counterexample gives (`members`), made only when first read: most
    #: datasets' rows give none, and a Fraction per member was a tenth of making this
    made_members: Callable[[], Mapping[str, Mapping[Fraction, Any]]] = field(
        compare=False, repr=False)
    #: the run's history (`History`) when its kind offers one, made only when read
    past: Callable[[], History] | None = field(default=None, compare=False)
    #: the dataset's families this run's extend (its Gram matrix is made once per dataset)
    base: FamilyData | None = field(default=None, compare=False, repr=False)
    examples: Sequence[Any] = field(default=(), compare=False, repr=False)

    @property
    def count(self) -> int:
        return int(self.X.shape[0])

    @cached_property
    def members(self) -> Mapping[str, Mapping[Fraction, Any]]:
        """The dataset's families as the kernel's members (`X[j]` a tuple of Fractions,
        `Y[j]` a Fraction, j = 1..count), for a counterexample."""
        return self.made_members()

    @cached_property
    def gram(self) -> np.ndarray:
        """`<X[i],X[j]>` numerators (over `X_den**2`), once per dataset."""
        if self.base is not None:
            return self.base.gram
        return _gram(self.X)

    @cached_property
    def history(self) -> History:
        """The run's history (FamilyError: its kind offers none, or this run has none)."""
        if self.past is None:
            raise FamilyError("these rows' runs offer no history: its families cannot be read")
        return self.past()

    def with_history(self, past: Callable[[], History], examples: Sequence[Any]
                     ) -> FamilyData:
        """This dataset's families and one run's history (`past`, made when first read;
        `examples`: the dataset's examples, the members of a counterexample's families)."""
        return FamilyData(self.X, self.X_den, self.Y, self._base_members, past, self,
                          examples)

    def _base_members(self) -> Mapping[str, Mapping[Fraction, Any]]:
        return self.members

    def members_read(self, read: Collection[str]) -> Mapping[str, Mapping[Fraction, Any]]:
        """The members a counterexample gives: the dataset's families, and those of the
        history that the statement reads (`read`: its names), each the whole run's."""
        if self.past is None:
            return self.members
        found = {n for n in read if n in HISTORY}
        if not found:
            return self.members
        return {**self.members, **{n: self.history.members(n, self.examples)
                                   for n in sorted(found)}}

    @classmethod
    def of(cls, data: Dataset, offered: Mapping[str, bool]) -> FamilyData:
        """The families `offered` of a run on `data` (`X`, `Y`: `DATASET`), made once per
        dataset (the runs of a scenario share it, each row set of a run reads it)."""
        key = (id(data), tuple(offered))
        found = _FAMILY_DATA.get(key)
        if found is not None and found[0] is data:
            return found[1]
        if len(_FAMILY_DATA) >= 256:
            _FAMILY_DATA.clear()
        made = cls._of(data, offered)
        _FAMILY_DATA[key] = (data, made)
        return made

    @classmethod
    def _of(cls, data: Dataset, offered: Mapping[str, bool]) -> FamilyData:
        X, den = _examples(data)

        def members() -> dict[str, dict[Fraction, Any]]:
            made: dict[str, dict[Fraction, Any]] = {}
            if "X" in offered:
                made["X"] = {Fraction(j + 1): tuple(x) for j, x in enumerate(data.X)}
            if "Y" in offered:
                made["Y"] = {Fraction(j + 1): Fraction(y) for j, y in enumerate(data.y)}
            return made
        return cls(X, den, np.array([int(y) for y in data.y], dtype=np.int64), members)


def _examples(data: Dataset) -> tuple[np.ndarray, int]:
    """The examples as numerators over their least common denominator: int64 when every
    magnitude is below `_LIMIT`, else Python ints. Read off the dataset's integer form
    (`perceptron.algorithms.fast.integer_form`: the same numerators over the same least
    common denominator, made once per dataset, which the engine's runs on it have made
    already), read-only since it is shared; a Fraction per cell was most of making a run's
    families. Made from the Fractions when there is no such form (no example or no
    coordinate, or a denominator too large for the engine)."""
    from perceptron.algorithms.fast import integer_form
    from perceptron.errors import DataError

    if data.X and data.X[0]:
        try:
            form = integer_form(data)
        except DataError:
            form = None
        if form is not None:
            rows = form.rows if form.rows.dtype != object and form.max_abs < _LIMIT \
                else form.rows.astype(object)
            view = rows.view()
            view.flags.writeable = False
            return view, form.scale
    den = math.lcm(*{v.denominator for x in data.X for v in x})
    X = np.empty((len(data.X), len(data.X[0]) if data.X else 0), dtype=object)
    X[...] = [[int(v.numerator * (den // v.denominator)) for v in x] for x in data.X]
    return _shrunk(X), den


def _gram(X: np.ndarray) -> np.ndarray:
    """`X @ X.T` exactly: int64 where the magnitudes prove every inner product fits, Python
    integers otherwise; a matrix product, never the count x count x dim array of products
    (8 GB for 1000 orthonormal examples in 1000 dimensions, red team 15 F2)."""
    if X.dtype != object and _mag(X) ** 2 * max(X.shape[1], 1) < _LIMIT:
        return X @ X.T
    return _shrunk(np.asarray(_exact(X) @ _exact(X).T, dtype=object))


_FAMILY_DATA: dict[tuple[int, tuple[str, ...]], tuple[Dataset, FamilyData]] = {}

#: Rows x indices x indices ... evaluated at once at most (a chunk of a batch's rows: its
#: runs' sums are added together, each run's rows read its own dataset).
CELLS = 1 << 21
#: Inner products of pairs of examples (`<X[I],X[J]>`: the Gram matrices of the datasets of
#: the runs of a chunk of rows, stacked, `_Rows.members_gram`) made at most: a 20 000-example
#: data file's is 4e8 of them, 3 GB of int64 and as much again stacked, which ended `audit
#: telgarsky-online --data` at a worker's 4 GB (exit 2). Past it the rows are not evaluated
#: (`FamilyError`: each run alone, then that run's rows, with the reason), before any of it
#: is made. The default audit's largest is 12 160 (190 runs of at most 8 examples).
GRAM_CELLS = 1 << 24
#: The most entries of a chunk's table of its rows' products with every example of their
#: runs (`_Rows.member_products`, rows x examples, 32 MB of int64); past it the members a
#: row reads are multiplied alone (`_Rows._read_products`).
PRODUCT_CELLS = 1 << 22

#: Index tuples one row's nested sums may range over at most (a double sum over the widest
#: range `MAX_SPAN` allows): past it a row is not evaluated (`FamilyError`, before any array
#: is made), since a six-deep sum over 30 examples took 5.4 GiB for one row (red team 13).
ROW_CELLS = MAX_SPAN**2


#: Index tuples the sums of one atom may range over on the rows of one batch (runs of a
#: shard checked together) in all, counted from each row's own ranges before any array is made
#: (`_node_costs`): the rows past it, the batch's last ones, are not evaluated, with the reason.
#: Each row's work was bounded (`ROW_CELLS`), not a step's: a double sum over a long run's
#: history ran past five minutes, and took 8 GB on 1000 orthonormal examples (red team 15).
WORK = 1 << 25
#: Index tuples the sums of one step (a judgement checked on runs) may range over on the rows
#: of one batch in all, each sum counted to its own cut (`WORK`): past it the step is not
#: evaluated on that batch, said with the reason, decided before any of its columns is made
#: (`step_work`). Each sum was bounded, not a step: one with k wide sums did k times the
#: work (four double sums over a long run's history: 37 CPU-seconds, where one took 9).
STEP_WORK = 2 * WORK


class _Wide(Exception):
    """A chunk of rows whose sums range over more than `CELLS` cells in all: made again in
    halves (`family_columns`), each row's values the same."""


def family_columns(batch: InstanceBatch, names: Collection[str]) -> dict[str, Column]:
    """The column of every atom among `names` (`is_atom`) on every row of `batch`, whose
    runs' families are `batch.families` (one `FamilyData` per origin): each value exact,
    the rows of many runs evaluated together (a few numpy calls per sum and chunk of rows,
    `CELLS`), each row's members its own run's."""
    atoms = [n for n in names if is_atom(n) and not _vector_member(n)]
    if not atoms or not len(batch):
        return {n: Column(np.zeros(0, dtype=np.int64)) for n in atoms}
    if not batch.families:
        raise FamilyError("these rows carry no dataset: their families cannot be read")
    height = max((_reading(a)[0][1].bound if _reading(a)[0][0] == "sum" else 0)
                 for a in atoms)
    cuts = {name: _cut(batch, name) for name in atoms}  # past `WORK`: rows cut..n-1
    counts = np.array([f.count for f in batch.families], dtype=np.int64)
    per_row = counts[batch.origin_index]
    parts: dict[str, list[Column]] = {n: [] for n in atoms}
    over: dict[str, list[tuple[np.ndarray, str] | None]] = {n: [] for n in atoms}
    start, n = 0, len(batch)
    while start < n:  # chunks of rows whose cells (rows x count^height) stay below CELLS
        stop = min([_chunk_stop(per_row, start, height),
                    *(c for c, _ in cuts.values() if c > start)])
        made_here = [a for a in atoms if cuts[a][0] > start]
        chunks = batch.__dict__.setdefault("_family_rows", {})
        while True:  # a sum ranging past the rows' count: the chunk in halves (`_Wide`)
            rows = chunks.get((start, stop))
            if rows is None:  # kept on the batch: its judgements share masks and inner sums
                rows = chunks[(start, stop)] = _Rows(batch, slice(start, stop))
            try:
                made = [(rows.column(name), rows.overs_of[name]) for name in made_here]
                break
            except _Wide:
                del chunks[(start, stop)]
                stop = start + (stop - start) // 2
            except FamilyError:  # past a limit on some run's rows: each run of them alone
                made = [_runs_apart(batch, start, stop, name) for name in made_here]
                break
        rows.pruned()
        made_by = dict(zip(made_here, made, strict=True))
        made = [made_by.get(name) or (  # past the work budget: not evaluated
            Column(np.zeros(stop - start, dtype=np.int64), np.ones(stop - start, dtype=np.int64)),
            (np.ones(stop - start, dtype=bool), cuts[name][1])) for name in atoms]
        for name, (column, past) in zip(atoms, made, strict=True):
            parts[name].append(column)
            over[name].append(past)
        start = stop
    skipped = batch.__dict__.setdefault("_unevaluated", {})
    for name, masks in over.items():
        joined = _overs_joined([(len(c.num), m) for c, m in zip(parts[name], masks, strict=True)])
        if joined is not None:
            skipped[name] = joined
    return {name: _joined(columns) for name, columns in parts.items()}


def _cut(batch: InstanceBatch, name: str) -> tuple[int, str]:
    """The first row of `batch` on which atom `name` is not evaluated for the work budget
    (`WORK`: its rows' index tuples in all, in row order, `_node_costs`), and why; `len(batch)`
    when every row is within it. A function of the atom and the batch alone, so the same
    whichever step makes the column, however its rows are chunked."""
    n = len(batch)
    total = _running_work(batch, name, WORK)
    past = np.flatnonzero(total > WORK) if total is not None else ()
    if not len(past):
        return n, ""
    cut = int(past[0])
    return cut, (f"the work budget: this sum's index tuples on the rows of its batch (runs "
                 f"of a shard checked together) before these pass {WORK} in all")


def _running_work(batch: InstanceBatch, name: str, within: int) -> np.ndarray | None:
    """The index tuples atom `name` ranges over on the rows of `batch`, running in row order
    (`_node_costs`); None when it is no sum, when its bound on any rows is within `within`
    (nothing to count), or when a bound passes int64 (said where the rows are made). Counted
    once per batch and atom (`_cut` and `step_work` both read it)."""
    n = len(batch)
    if _reading(name)[0][0] != "sum":
        return None
    found = _reading(name)[0][1]
    if n * _most(found, True, 1) <= within:
        return None
    nested = _linear_plan(found, functools.partial(_run_constant, batch)) is None
    if n * _most(found, nested, 1) <= within:
        return None
    counted = batch.__dict__.setdefault("_running_work", {})
    if name not in counted:
        try:
            costs = _node_costs(_Rows(batch, slice(0, n)), found, np.ones(n, dtype=object),
                                nested)
        except FamilyError:
            counted[name] = None
        else:
            counted[name] = np.cumsum(costs)
    return counted[name]  # type: ignore[no-any-return]


def step_work(batch: InstanceBatch, names: Collection[str]) -> str | None:
    """Why a step reading atoms `names` is not evaluated on `batch`: its sums together range
    over more than `STEP_WORK` index tuples on the batch's rows, each counted to its own cut
    (`_cut`); None when within it. Counted before any column is made, from the step's atoms
    and the batch alone, so the same whichever step made the columns first."""
    sums = tuple(sorted(n for n in set(names) if is_atom(n) and _reading(n)[0][0] == "sum"))
    if len(sums) * WORK <= STEP_WORK:  # each within `WORK` by its own cut
        return None
    rows = len(batch)  # each sum's work is at most its bound on every row (`_most`), and
    if sum(min(rows * _most(_reading(n)[0][1], True, 1), WORK) for n in sums) <= STEP_WORK:
        return None  # at most `WORK` by its cut: within the step's without counting them
    known = batch.__dict__.setdefault("_step_work", {})
    if sums not in known:
        work = 0
        for name in sums:
            total = _running_work(batch, name, 0)
            under = total[total <= WORK] if total is not None else ()
            work += int(under[-1]) if len(under) else 0
        known[sums] = None if work <= STEP_WORK else (
            f"the work budget of a step: its {len(sums)} sums range over {work} index tuples "
            f"on the rows of its batch (runs of a shard checked together), more than "
            f"{STEP_WORK} in all")
    return known[sums]  # type: ignore[no-any-return]


def _inner_sums(found: Any) -> list[Any]:
    """The sums read by a sum's body and filters (`Sum`s), in name order, once per sum."""
    return _inner_sums_of(found.body, found.filters)


@functools.lru_cache(maxsize=4096)
def _inner_sums_of(body: sympy.Expr, filters: tuple[tuple[sympy.Expr, str], ...]
                   ) -> list[Any]:
    inside = {s for e in (body, *(p for p, _ in filters)) for s in e.free_symbols}
    return [r[1] for r in (_reading(s.name)[0] for s in sorted(inside, key=lambda s: s.name))
            if r[0] == "sum"]


def _most(found: Any, nested: bool, outer: int) -> int:
    """The most index tuples `_node_costs` counts for a sum on one row (each range
    `MAX_SPAN`)."""
    here = outer * MAX_SPAN if nested else MAX_SPAN
    return here + sum(_most(inner, nested, here) for inner in _inner_sums(found))


def _node_costs(rows: _Rows, found: Any, outer: np.ndarray, nested: bool) -> np.ndarray:
    """Each row's index tuples for a sum (Python ints): a sum made from per-run prefix sums
    (`_linear_plan`, `by_run`; `nested` false) its own and its inner sums' ranges; any other
    the product of the ranges nested (row by row, `_Rows.sum`); a range past `MAX_SPAN`
    none (that row is not evaluated)."""
    lo, hi = (rows.whole(b, {}).astype(object) for b in (found.lo, found.hi))
    span = hi - lo + 1
    span = np.where((span > MAX_SPAN) | (span < 0), 0, span)
    here = outer * span if nested else span
    total = here.copy()
    for inner in _inner_sums(found):
        total = total + _node_costs(rows, inner, here, nested)
    return total


def _chunk_stop(per_row: np.ndarray, start: int, height: int) -> int:
    """Where the chunk of rows from `start` ends: at the first row `stop > start` at which
    `(stop + 1 - start) * widest ** height` passes `CELLS` (`widest` the largest count of
    rows `start..stop`, at least 1), else at the last row. Read by runs of rows over which
    that largest count stays the same, a few: in each the product grows with `stop`, so its
    first row past `CELLS` is `m * W > CELLS`, `m > CELLS // W`, in integers (a Python loop
    over every row was most of the work on batches of tiny runs)."""
    rest = np.maximum(per_row[start:], 1)
    running = np.maximum.accumulate(rest)
    edges = [0, *(np.flatnonzero(running[1:] != running[:-1]) + 1).tolist(), len(rest)]
    for first, end in itertools.pairwise(edges):
        rows = CELLS // int(running[first]) ** height + 1  # the fewest rows past CELLS
        at = max(first, 1, rows - 1)  # its row, past `start` and within this run
        if at < end:
            return start + at
    return start + len(rest)


def unevaluated(batch: InstanceBatch, atoms: Collection[str]) -> tuple[np.ndarray, str] | None:
    """The rows of `batch` on which one of `atoms` was not evaluated, and the first reason;
    None when every row was: a row whose own sum ranges over more than `MAX_SPAN` indices (a
    long run's history, past the kernel's own limit), and every row of a run whose rows,
    made alone, pass another limit (`ROW_CELLS`, int64 bounds: `_runs_apart`), not the
    batch's other runs, and the batch's last rows, past the work budget of one of the sums
    (`WORK`, `_cut`). Those rows are no instances of a statement reading the atoms; their
    columns hold 0 (an empty sum), which nothing else reads (`family_columns`)."""
    found = [batch.__dict__.get("_unevaluated", {}).get(a) for a in atoms]
    found = [f for f in found if f is not None]
    if not found:
        return None
    mask = found[0][0].copy()
    for other, _ in found[1:]:
        mask |= other
    return mask, found[0][1]


Over = tuple[np.ndarray, str] | None
"""Rows of a chunk not evaluated (a mask over its rows) and the first reason, or None."""


def _runs_apart(batch: InstanceBatch, start: int, stop: int, name: str) -> tuple[Column, Over]:
    """The column of atom `name` on rows start..stop-1, each run's rows made alone, and the
    rows not evaluated: a run whose own rows pass a limit (`FamilyError`) holds 0 and every
    row of it is not evaluated, with the reason; the other runs' values are those made with
    every run (each row reads its own run's data). Called only where some run of the chunk
    passed a limit: a batch of runs within them never comes here."""
    which = batch.origin_index[start:stop]
    edges = [start, *(np.flatnonzero(np.diff(which)) + 1 + start).tolist(), stop]
    columns, overs = [], []
    for a, b in itertools.pairwise(edges):
        try:
            column, past = _alone(batch, a, b, name)
        except FamilyError as error:
            column = Column(np.zeros(b - a, dtype=np.int64), np.ones(b - a, dtype=np.int64))
            past = (np.ones(b - a, dtype=bool), str(error))
        columns.append(column)
        overs.append((b - a, past))
    return _joined(columns), _overs_joined(overs)


def _alone(batch: InstanceBatch, start: int, stop: int, name: str) -> tuple[Column, Over]:
    """The column of atom `name` on rows start..stop-1 (one run's), made in halves where
    its cells pass `CELLS` (`_Wide`), and its rows whose own sums span past `MAX_SPAN`."""
    columns, overs = [], []
    while start < stop:
        end = stop
        while True:
            rows = _Rows(batch, slice(start, end))
            try:
                columns.append(rows.column(name))
                break
            except _Wide:
                end = start + (end - start) // 2
        overs.append((end - start, rows.overs_of[name]))
        start = end
    return _joined(columns), _overs_joined(overs)


def _overs_joined(overs: Sequence[tuple[int, Over]]) -> Over:
    """Consecutive parts' rows not evaluated (each part's size and its own), as one."""
    if all(past is None for _, past in overs):
        return None
    return (np.concatenate([past[0] if past is not None else np.zeros(size, dtype=bool)
                            for size, past in overs]),
            next(past[1] for _, past in overs if past is not None))


def _joined(columns: Sequence[Column]) -> Column:
    if len(columns) == 1:
        return columns[0]
    num = np.concatenate([_exact(c.num) for c in columns])
    den = np.concatenate([_exact(np.asarray(c.den)).reshape(-1) for c in columns])
    return Column(fitting(num), fitting(den))


_Value = tuple[np.ndarray, np.ndarray]  # numerators, positive denominators (row axis only)
_LIMIT = 2**62  # an int64 result is used only when a bound proves it below this


def _mag(a: np.ndarray) -> int:
    """The largest magnitude in an integer array (0 when empty)."""
    if a.size == 0:
        return 0
    if a.dtype == object:
        fitted = in_int64(a)
        if fitted is None:
            return max(map(abs, a.ravel().tolist()))
        a = fitted
    # the extremes as Python ints, not `abs` of every entry: no array allocated, and no
    # int64 overflow at -2**63 (the ufuncs' reduce: a sum's arrays are read many times)
    return max(int(np.maximum.reduce(a, axis=None)), -int(np.minimum.reduce(a, axis=None)))


def _exact(a: np.ndarray) -> np.ndarray:
    """Python ints (object dtype) unless every entry is an int64 far from overflow."""
    return a if a.dtype == object else a.astype(object)


def _mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a * b` exactly: in int64 when the factors' magnitudes prove the product fits."""
    if a.dtype != object and b.dtype != object and _mag(a) * _mag(b) < _LIMIT:
        return a * b
    return np.asarray(_exact(a) * _exact(b), dtype=object)


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a + b` exactly (int64 when the magnitudes prove the sum fits)."""
    if a.dtype != object and b.dtype != object and _mag(a) + _mag(b) < _LIMIT:
        return a + b
    return np.asarray(_exact(a) + _exact(b), dtype=object)


def _shrunk(a: np.ndarray) -> np.ndarray:
    """An object array back in int64 when every entry is far from overflow."""
    if not isinstance(a, np.ndarray):  # a 0-d object product is a Python int
        a = np.array(a, dtype=object)
    if a.dtype == object and a.size and _mag(a) < _LIMIT:
        return a.astype(np.int64)
    return a


def _ints(value: int) -> np.ndarray:
    return np.array(value, dtype=np.int64 if abs(value) < _LIMIT else object)


def _total(a: np.ndarray, axis: int) -> np.ndarray:
    """The sum along `axis` (kept, of size 1), exactly."""
    if a.dtype != object and _mag(a) * max(a.shape[axis], 1) < _LIMIT:
        return np.sum(a, axis=axis, keepdims=True)
    return np.asarray(np.sum(_exact(a), axis=axis, keepdims=True), dtype=object)


@functools.lru_cache(maxsize=8192)
def _reading(name: str) -> tuple[Any, ...]:
    """What an atom's symbol is, parsed once: ("index",), ("scalar",), ("gram", a, b),
    ("member", family, index) or ("sum", Sum), and the bound indices it reads."""
    bound = tuple(sorted(n for _, n in _named(name) if n.startswith("#")))
    if name.startswith("#"):
        return ("index",), (name,)
    if IDENT.fullmatch(name):
        return ("scalar",), ()
    pair = gram_pair(sympy.Symbol(name))
    if pair is not None:
        return ("gram", *pair), bound
    found = structure(sympy.Symbol(name))
    if isinstance(found, Family):
        return ("member", found.family, found.index), bound
    assert isinstance(found, Sum)
    return ("sum", found), bound


@dataclass(frozen=True)
class _Term:
    """One term of a sum's body (`_Linear`): `pure`, a polynomial reading only the sum's own
    index, families and the run's constants, times at most one `link`: None, a Gram
    `("gram", A, V)` of a vector member A whose index reads only the sum's own index (and the
    run's constants) with a vector V that does not read it, or `("sum", inner)`, a sum
    (`_Linear`) whose body reads the sum's index only in the V of its Gram links."""

    pure: sympy.Expr
    link: tuple[Any, ...] | None


@dataclass(frozen=True)
class _Linear:
    """A sum whose value on a row is read from per-run prefix sums (`_Rows.linear`): its
    lower bound a run's constant (so a run's rows range over one prefix), its filters read
    only its own index, families and the run's constants, each term a `_Term`."""

    found: Any
    terms: tuple[_Term, ...]


def _linear_plan(found: Any, constant: Callable[[str, str], bool]) -> _Linear | None:
    """`found` (a `Sum`) as a `_Linear`, or None when some part of it varies otherwise
    (`constant(sort, name)`: whether a scalar or vector quantity holds one value on all the
    rows of each run). A sum of sums of history vectors (the kernel's expansion of
    `norm2(w - sum(k in 1..t, YU[k]*XU[k]))`) becomes one inner product of two prefix sums
    per row: linear in t, where it was quadratic on every row."""
    own = f"#{found.bound}"

    def pure(names: Collection[tuple[str, str]]) -> bool:
        return all(sort == "family" or (sort == "bound" and name == own)
                   or (sort in ("scalar", "vector") and constant(sort, name))
                   for sort, name in names)

    if not pure(named(found.lo)) or not all(pure(named(p)) for p, _ in found.filters):
        return None
    symbols, terms = _polynomial(found.body)
    out = []
    for monomial, c in terms:
        factor: sympy.Expr = sympy.Rational(c.numerator, c.denominator)
        link: tuple[Any, ...] | None = None
        for symbol, power in zip(symbols, monomial, strict=True):
            if not power:
                continue
            if pure(_named(symbol.name)):
                factor *= symbol**power
                continue
            if power != 1 or link is not None:
                return None
            reading, _ = _reading(symbol.name)
            if reading[0] == "gram":
                sides = [v for v in reading[1:] if ("bound", own) in _vector_named(v)]
                if len(sides) != 1 or IDENT.fullmatch(sides[0]) or not pure(
                        _vector_named(sides[0])):
                    return None
                other = reading[2] if sides[0] == reading[1] else reading[1]
                link = ("gram", sides[0], other)
            elif reading[0] == "sum":
                inner = _linear_plan(reading[1], constant)
                if inner is None or not all(
                        t.link is not None and t.link[0] == "gram"
                        and pure(_vector_named(t.link[2]) - {("bound", f"#{reading[1].bound}")})
                        and IDENT.fullmatch(t.link[2]) is None
                        and ("bound", own) not in named(t.pure)
                        for t in inner.terms):
                    return None
                link = ("sum", inner)
            else:
                return None
        out.append(_Term(factor, link))
    return _Linear(found, tuple(out))


@functools.lru_cache(maxsize=4096)
def _set_reads(lo: sympy.Expr, hi: sympy.Expr, filters: tuple[tuple[sympy.Expr, str], ...]
               ) -> frozenset[str]:
    """The bound indices a sum's set (its bounds and filters) reads: its members, and so its
    mask (`_Rows.sum`), are the same at every value of any other enclosing index. So an inner
    sum's set is made once and kept (`pruned` keeps a mask keyed by no index), not again under
    each enclosing index: the batch runs' `sum(#2 ...: Y[#2]*sum(#1 ...: <X[#1],X[#2]>*Y[#1]))`
    made the same set of #1 under #2 as the top-level sums over it had made, with its
    `<X[#1],theta>` products again."""
    return frozenset(n for e in (lo, hi, *(p for p, _ in filters))
                     for sort, n in named(e) if sort == "bound")


@functools.lru_cache(maxsize=4096)
def _set_renamed(lo: sympy.Expr, hi: sympy.Expr, filters: tuple[tuple[sympy.Expr, str], ...],
                 own: int) -> tuple[tuple[sympy.Expr, str], ...] | None:
    """A sum's filters with its index `#own` written `#1`, when its set reads no other bound
    index (its bounds none, its filters no other and no inner sum): the set of
    `sum(#2 in 1..N where nonneg(-<X[#2],theta>*Y[#2]): ...)` is that of the same sum over
    #1, on another axis (`_Rows.sum` keeps one mask for both, moving the axis). Only a key:
    filters renamed to another sum's exactly are that sum's, the same members on the same
    rows; a renamed name that is no canonical one matches none, and the set is made. None
    otherwise."""
    mark = f"#{own}"
    if _set_reads(lo, hi, filters) != {mark}:
        return None
    symbols = {s for p, _ in filters for s in p.free_symbols}
    pattern = re.compile(rf"#{own}(?![0-9])")
    if any("#" in pattern.sub("", s.name) for s in symbols):
        return None
    if own == 1:
        return filters
    table = {s: sympy.Symbol(pattern.sub("#1", s.name)) for s in symbols if mark in s.name}
    return tuple((p.xreplace(table), kind) for p, kind in filters)


def _vector_named(name: str) -> frozenset[tuple[str, str]]:
    """The names a vector side of a Gram symbol reads (a row vector: itself)."""
    if IDENT.fullmatch(name):
        return frozenset({("vector", name)})
    return frozenset(_named(name))


def _run_constant(batch: InstanceBatch, sort: str, name: str) -> bool:
    """Whether a scalar or vector quantity holds one value on all the rows of each run of
    `batch` (a run's rows are contiguous), once per batch and name: so on the rows of any
    chunk too (`_linear_plan`)."""
    memo = batch.__dict__.setdefault("_run_constant", {})
    found = memo.get((sort, name))
    if found is None:
        column = (batch.scalars if sort == "scalar" else batch.vectors).get(name)
        if column is None and sort == "scalar":
            column = batch.defined.get(name)
        if column is None:
            found = False
        else:
            _, start, inverse = np.unique(batch.origin_index, return_index=True,
                                          return_inverse=True)
            found = _per_run(column, slice(None), start[inverse])
        memo[(sort, name)] = found
    return bool(found)


def _prefix_read(num: np.ndarray, den: Any, m: int, k: np.ndarray, top: np.ndarray,
                 bottom: np.ndarray) -> _Value:
    """Each row's sum of its run's terms (`num`: (m runs, span, ...) over a denominator per
    run) from index `bottom` (excluded) to `top`, read off the runs' prefix sums (`k`: each
    row's run among the m)."""
    span = num.shape[1]
    prefix = np.zeros((m, span + 1, *num.shape[2:]), dtype=num.dtype)
    if num.dtype != object and _mag(num) * span < _LIMIT:
        np.cumsum(num, axis=1, out=prefix[:, 1:])
    else:
        prefix = prefix.astype(object)
        prefix[:, 1:] = np.cumsum(_exact(num), axis=1)
    value = prefix[k, top] - prefix[k, bottom]
    den = np.broadcast_to(np.asarray(den), (m,) + (1,) * (_AXES - 1)).reshape(m)[k]
    return value, den


def _scatter(value: _Value, rows: np.ndarray, n: int, width: int | None) -> _Value:
    """Values on the rows `rows` (a mask over n) as values on all n rows: 0 over 1 elsewhere."""
    num, den = value
    den = np.asarray(den)
    if rows.all():
        return num, np.broadcast_to(den, (n,)) if den.ndim == 0 else den
    out = np.zeros((n,) if width is None else (n, width), dtype=num.dtype)
    out[rows] = num
    dens = np.ones(n, dtype=den.dtype)
    dens[rows] = den
    return out, dens


def _plus(x: _Value, y: _Value) -> _Value:
    """`x + y` of two per-row values over per-row denominators (one denominator kept when
    both are the same)."""
    (a, da), (b, db) = x, y
    if da is db or (np.shape(da) == np.shape(db) and np.array_equal(da, db)):
        return _add(a, b), da
    da_, db_ = (d[:, None] if a.ndim == 2 and np.ndim(d) == 1 else d for d in (da, db))
    return _add(_mul(a, np.asarray(db_)), _mul(b, np.asarray(da_))), _mul(np.asarray(da),
                                                                          np.asarray(db))


def _dot(x: _Value, y: _Value) -> _Value:
    """`<x, y>` on every row of two vectors per row (numerators (n, d) over per-row
    denominators), exactly."""
    (a, da), (b, db) = x, y
    width = max(a.shape[-1], b.shape[-1])
    a, b = _padded(a, width), _padded(b, width)
    return _total(_mul(a, b), -1)[..., 0], _mul(np.asarray(da), np.asarray(db))


def _merge_pieces(pieces: Sequence[tuple[_Value, str]]) -> list[tuple[_Value, str]]:
    """Pieces `<R, V>` of one V added into one (each group of runs made its own)."""
    merged: dict[str, _Value] = {}
    for (num, den), v in pieces:
        if v in merged:
            (a, da) = merged[v]
            width = max(a.shape[-1], num.shape[-1])
            merged[v] = _plus((_padded(a, width), da), (_padded(num, width), den))
        else:
            merged[v] = (num, den)
    return [(value, v) for v, value in merged.items()]


class _Rows:
    """The rows of one run as arrays: axis 0 the row, axis h the bound index `#h` of the sum
    being added (size 1 elsewhere), a trailing axis the coordinates of a vector. Every value
    is a numerator array over a positive denominator that varies with the row only, so a
    sum over an index adds numerators; int64 wherever the magnitudes prove it exact
    (`_mul`, `_add`, `_total`), Python integers elsewhere."""

    def __init__(self, batch: InstanceBatch, rows: slice) -> None:
        self._batch, self.rows = weakref.ref(batch), rows
        origin = batch.origin_index[rows]
        self.n = len(origin)
        used, local = np.unique(origin, return_inverse=True)
        data = self.data = [batch.families[int(i)] for i in used]
        shape = self._shape(self.n)
        self.which = local.astype(np.int64).reshape(shape)
        self.counts = np.array([f.count for f in data], dtype=np.int64)[local].reshape(shape)
        self.X_den = _shrunk(np.array([f.X_den for f in data], dtype=object)[local]).reshape(shape)
        self.memo: dict[tuple[str, tuple[Any, ...]], _Value] = {}
        self.masks: dict[tuple[Any, ...], np.ndarray] = {}
        self.gram: np.ndarray | None = None
        self.products: dict[str, _Value] = {}
        self.one = _ints(1)
        self.past: dict[str, tuple[np.ndarray, np.ndarray | None, np.ndarray]] = {}
        # rows whose own sum spans past `MAX_SPAN` (read as empty, not evaluated): per sum
        # (`overs`, kept with its value), per atom made (`overs_of`), and while one is made
        self.overs: dict[tuple[str, tuple[Any, ...]], tuple[np.ndarray, str]] = {}
        self.overs_of: dict[str, tuple[np.ndarray, str] | None] = {}
        self.over: tuple[np.ndarray, str] | None = None

    @property
    def batch(self) -> InstanceBatch:
        """The batch these rows are of, by a weak reference: the batch keeps its chunks
        (`family_columns`: its judgements share their masks and inner sums), and a chunk
        that held its batch made a cycle of every batch with families, each with all its
        columns freed only by the cyclic collector (the default audit's shards: about a
        quarter of a million objects, and the youngest generation's collections scanning
        them again and again, about 0.5 CPU-seconds). A chunk is read only while its batch
        is in use."""
        batch = self._batch()
        assert batch is not None, "rows read after their batch was freed"
        return batch

    def pruned(self) -> None:
        """Forget the values and masks that vary with a bound index (arrays of up to `CELLS`
        cells each): the chunk stays on its batch for the next judgement's atoms, whose
        per-row values and top-level sets are kept. Every chunk of a batch kept them all:
        a six-deep sum over 7 examples held 2.2 GB of inner arrays (red team 13)."""
        self.memo = {k: v for k, v in self.memo.items() if not k[1]}
        self.overs = {k: v for k, v in self.overs.items() if not k[1]}
        self.masks = {k: v for k, v in self.masks.items() if not k[-1]}
        # and the runs' examples and Gram matrices (runs x count x dim, runs x count^2),
        # made again if read: every chunk of 1000 examples in 1000 dimensions kept its own
        # copy, 4 GB over a batch's chunks (red team 15 F2)
        self.__dict__.pop("X", None)
        self.__dict__.pop("Y", None)
        self.gram = None
        # and the rows' products with every example (`member_products`, rows x count) and
        # the histories' families (`history`, runs x the longest history): made again if
        # read, since every chunk kept its own, so that a long run on a large data file
        # held its states times its examples in all (84 121 states of a 20 000 x 50 file's
        # run, their chunks' products 13 GB: `audit online-history --data` ended at a
        # worker's 4 GB, exit 2)
        self.products = {}
        self.past = {}

    @cached_property
    def X(self) -> np.ndarray:
        """Each run's examples (runs x count x dim, zero-padded), made when first read (a
        chunk whose sums' bounds alone are read, `_node_costs`, makes none)."""
        data = self.data
        if len(data) == 1:  # one run's: its dataset's own array, not a copy
            return data[0].X[None]
        count = max(f.count for f in data)
        dim = max(f.X.shape[1] for f in data)
        big = any(f.X.dtype == object for f in data)
        X = np.zeros((len(data), count, dim), dtype=object if big else np.int64)
        for k, f in enumerate(data):
            X[k, :f.count, :f.X.shape[1]] = f.X
        return X

    @cached_property
    def Y(self) -> np.ndarray:
        """Each run's labels (runs x count, zero-padded), made when first read."""
        Y = np.zeros((len(self.data), max(f.count for f in self.data)), dtype=np.int64)
        for k, f in enumerate(self.data):
            Y[k, :f.count] = f.Y
        return Y

    def _shape(self, size: int = 1) -> tuple[int, ...]:
        return (size,) + (1,) * (_AXES - 1)

    def _row(self, den: Any) -> np.ndarray:
        if isinstance(den, np.ndarray):
            return _shrunk(np.asarray(den[self.rows])).reshape(self._shape(self.n))
        return _ints(int(den))

    def column(self, name: str) -> Column:
        self.over = None
        num, den = self.symbol(sympy.Symbol(name), {})
        self.overs_of[name] = self.over
        num = np.broadcast_to(num, self._shape(self.n)).reshape(self.n)
        den = np.broadcast_to(den, self._shape(self.n)).reshape(self.n)
        return Column(fitting(np.array(num, dtype=object)), fitting(np.array(den, dtype=object)))

    def scalar(self, name: str) -> _Value:
        found = self.batch.scalars.get(name)
        if found is None:  # a `[define]`d name's column (`Naming.evaluated`: made first)
            found = self.batch.defined.get(name)
        if found is None:
            raise FamilyError(f"{name} is no quantity of these rows")
        num = _shrunk(np.asarray(found.num[self.rows]))
        return num.reshape(self._shape(self.n)), self._row(found.den)

    def vector(self, name: str, scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        """A vector: a row quantity, or a member `X[I]` of the examples."""
        if IDENT.fullmatch(name):
            found = self.batch.vectors.get(name)
            if found is None:
                raise FamilyError(f"{name} is no vector quantity of these rows")
            num = _shrunk(np.asarray(found.num[self.rows]))
            return num.reshape((*self._shape(self.n), num.shape[1])), self._row(found.den)
        (kind, family_name, index), _ = _reading(name)
        if kind != "member":
            raise FamilyError(f"{family_name} is no family of vectors of a run")
        at, factor, valid = self.example(family_name, index, scope)
        values = self.X[self.which, at]  # shape (..., dim): each row its own run's
        if factor is not None:
            values = _mul(values, factor[..., None])
        return np.where(valid[..., None], values, 0).astype(values.dtype, copy=False), self.X_den

    def example(self, family_name: str, index: sympy.Expr,
                scope: Mapping[str, tuple[np.ndarray, int, int]]
                ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """A member of a family of vectors as an example of each row's run: its position
        among the examples, its factor (None: 1, a member of `X`), and whether the index is
        one of the family's."""
        if family_name == "X":
            at, valid = self.index(index, scope)
            return at, None, valid
        at, factor, counts = self.history(family_name, True)
        position, valid = self.index(index, scope, counts)
        assert factor is not None
        return at[self.which, position], factor[self.which, position], valid

    def history(self, family_name: str, vector: bool
                ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """A history family (`HISTORY`) of every run of the chunk, padded to the longest:
        per run the examples' positions and factors (a family of vectors) or the values (of
        scalars, factor None), and each row's count of members."""
        found = self.past.get(family_name)
        if found is not None:
            return found
        if HISTORY.get(family_name) is not vector:
            sort = "vectors" if vector else "scalars"
            raise FamilyError(f"{family_name} is no family of {sort} of a run")
        made = [f.history for f in self.data]
        if any(family_name not in (h.vectors if vector else h.scalars) for h in made):
            raise FamilyError(f"{family_name} is no family of a run of a plug-in: its order "
                              "is its own, so its runs offer their updates, not a stream")
        if vector:
            parts = [h.vectors[family_name] for h in made]
        else:
            parts = [(h.scalars[family_name], None) for h in made]
        longest = max(1, *(len(p[0]) for p in parts))  # one zero at least, to index
        if len(parts) == 1 and len(parts[0][0]):  # one run's own arrays, not copies: a long
            a, b = parts[0]  # run's (10^7 updates) are 80 MB each, made again per chunk
            first = np.asarray(a, dtype=np.int64)[None, :]
            second = None if not vector else np.asarray(b, dtype=np.int64)[None, :]
        else:
            first = np.zeros((len(parts), longest), dtype=np.int64)
            second = None if not vector else np.zeros((len(parts), longest), dtype=np.int64)
            for k, (a, b) in enumerate(parts):
                first[k, :len(a)] = a
                if second is not None:
                    second[k, :len(a)] = b
        counts = np.array([len(p[0]) for p in parts], dtype=np.int64)[
            self.which.reshape(self.n)].reshape(self._shape(self.n))
        found = self.past[family_name] = (first, second, counts)
        return found

    def _read_products(self, vector: str, member: str,
                       scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        """`member_products` from the members read only (each row's vector times its
        `X[I]` at every index of the sum), where the table of every example would pass
        `PRODUCT_CELLS`: online-history's chunks of a run on 20 000 examples made tables of 2 000
        rows x 20 000 examples (320 MB of int64 each) for the 2 000 members a row reads at
        most (bigdata31). The same numbers: a member's factor and validity as `vector`
        reads them."""
        found = self.batch.vectors.get(vector)
        if found is None:
            raise FamilyError(f"{vector} is no vector quantity of these rows")
        num = _shrunk(np.asarray(found.num[self.rows]))
        members, _ = self.vector(member, scope)
        values = _dot_last(num.reshape((*self._shape(self.n), num.shape[1])), members)
        return values, _mul(self._row(found.den), self.X_den)

    def member_products(self, vector: str, member: str,
                        scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        """`<v,X[I]>` for a row vector v: each row's products with every example of its run
        (a matrix product per run, made once per chunk and vector), read at I."""
        table = self.products.get(vector)
        if table is None and self.n * self.X.shape[1] > PRODUCT_CELLS:
            return self._read_products(vector, member, scope)
        if table is None:
            found = self.batch.vectors.get(vector)
            if found is None:
                raise FamilyError(f"{vector} is no vector quantity of these rows")
            num = _shrunk(np.asarray(found.num[self.rows]))
            width = max(num.shape[1], self.X.shape[2])
            num, X = _padded(num, width), _padded(self.X, width)
            big = num.dtype == object or X.dtype == object or (
                _mag(num) * _mag(X) * max(width, 1) >= _LIMIT)
            which = self.which.reshape(self.n)
            if not big:  # the rows against their runs' examples, CELLS at a time
                out = _row_products(num, X, which)
            else:  # a run's rows are contiguous: one matrix product of Python ints per run
                out = np.zeros((self.n, X.shape[1]), dtype=object)
                edges = [0, *(np.flatnonzero(np.diff(which)) + 1).tolist(), self.n]
                for a, b in itertools.pairwise(edges):
                    out[a:b] = _exact(num[a:b]) @ _exact(X[which[a]].T)
            table = self.products[vector] = (out, _mul(self._row(found.den), self.X_den))
        (_, family_name, index), _ = _reading(member)
        at, factor, valid = self.example(family_name, index, scope)
        values = table[0][np.arange(self.n).reshape(self._shape(self.n)), at]
        if factor is not None:
            values = _mul(values, factor)
        return np.where(valid, values, 0).astype(values.dtype, copy=False), table[1]

    def members_gram(self, a: str, b: str, scope: Mapping[str, tuple[np.ndarray, int, int]]
                     ) -> _Value:
        """`<X[I],X[J]>`: read off each run's Gram matrix of its examples (made once per
        chunk), not multiplied out coordinate by coordinate on every row."""
        if self.gram is None:
            count = self.X.shape[1]
            if len(self.data) * count * count > GRAM_CELLS:  # before any of it is made
                raise FamilyError(
                    f"the inner products of every pair of examples of its runs' datasets "
                    f"({len(self.data)} x {count}^2 = {len(self.data) * count * count}) are "
                    f"more than the {GRAM_CELLS} its sums may read at once; check fewer "
                    "examples")
            grams = [f.gram for f in self.data]
            big = any(g.dtype == object for g in grams)
            self.gram = np.zeros((len(grams), count, count), dtype=object if big else np.int64)
            for k, g in enumerate(grams):
                self.gram[k, :g.shape[0], :g.shape[1]] = g
        (_, fa, ia), _ = _reading(a)
        (_, fb, ib), _ = _reading(b)
        (at, fat, valid), (bt, fbt, bvalid) = (self.example(fa, ia, scope),
                                               self.example(fb, ib, scope))
        values = self.gram[self.which, at, bt]
        for factor in (fat, fbt):  # a history member: an example times its factor
            if factor is not None:
                values = _mul(values, factor)
        return (np.where(valid & bvalid, values, 0).astype(values.dtype, copy=False),
                _mul(self.X_den, self.X_den))

    def index(self, index: sympy.Expr, scope: Mapping[str, tuple[np.ndarray, int, int]],
              counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Where a member's index falls among 0..count-1, and whether it is one of 1..N (or
        of 1..`counts`, a history family's)."""
        top = self.counts if counts is None else counts
        bare = scope.get(index.name) if isinstance(index, sympy.Symbol) else None
        if bare is not None:  # a bound index alone (`X[#1]`): its integers, no polynomial
            position = bare[0]
            valid = np.asarray((position >= 1) & (position <= top), dtype=bool)
            return np.where(valid, position - 1, 0).astype(np.int64, copy=False), valid
        num, den = self.poly(index, scope)
        whole = num % den == 0
        position = np.where(whole, num // den, 0)
        valid = np.asarray(whole & (position >= 1) & (position <= top), dtype=bool)
        return np.where(valid, position - 1, 0).astype(np.int64, copy=False), valid

    def symbol(self, symbol: sympy.Symbol, scope: Mapping[str, tuple[np.ndarray, int, int]]
               ) -> _Value:
        name = symbol.name
        reading, bound = _reading(name)
        if reading[0] == "index":
            return scope[name][0], self.one
        if reading[0] == "scalar":
            return self.scalar(name)
        key = (name, tuple((b, *scope[b][1:]) for b in bound))
        found = self.memo.get(key)
        if found is not None:
            self._skip(self.overs.get(key))
            return found
        if reading[0] == "gram" and all(not IDENT.fullmatch(v) for v in reading[1:]):
            value = self.members_gram(reading[1], reading[2], scope)
        elif reading[0] == "gram" and sum(bool(IDENT.fullmatch(v)) for v in reading[1:]) == 1:
            value = self.member_products(*sorted(reading[1:], key=lambda v: not IDENT.fullmatch(
                v)), scope)
        elif reading[0] == "gram":
            (a, da), (b, db) = (self.vector(v, scope) for v in reading[1:])
            width = max(a.shape[-1], b.shape[-1])
            a, b = (_padded(v, width) for v in (a, b))
            value: _Value = (_total(_mul(a, b), -1)[..., 0], _mul(da, db))
        elif reading[0] == "member" and reading[1] != "Y":  # a history's: its values
            values, _, counts = self.history(reading[1], False)
            at, valid = self.index(reading[2], scope, counts)
            value = np.where(valid, values[self.which, at], 0), self.one
        elif reading[0] == "member":
            at, valid = self.index(reading[2], scope)
            value = np.where(valid, self.Y[self.which, at], 0), self.one
        else:
            outer, self.over = self.over, None
            value = self.sum(reading[1], scope)
            if self.over is not None:
                self.overs[key] = self.over
            self.over = outer
            self._skip(self.overs.get(key))
        self.memo[key] = value
        return value

    def _skip(self, over: tuple[np.ndarray, str] | None) -> None:
        """Add rows not evaluated to those of the atom being made."""
        if over is not None:
            self.over = over if self.over is None else (self.over[0] | over[0], self.over[1])

    def sum(self, found: Any, scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        lo, hi = (self.whole(b, scope) for b in (found.lo, found.hi))
        empty = np.zeros(self._shape(), dtype=np.int64), self.one
        if not lo.size:
            return empty
        wide = hi - lo + 1 > MAX_SPAN  # a row's own sum past the limit: that row alone
        if wide.any():
            first, last = int(lo[wide].min()), int(hi[wide].max())
            self._skip((wide, f"a sum over {first}..{last} on a run's rows: at most "
                              f"{MAX_SPAN} indices"))
            hi = np.where(wide, lo - 1, hi)  # read as empty there, and not evaluated
        live = hi >= lo
        if not live.any():
            return empty
        first, last = int(lo[live].min()), int(hi[live].max())
        if not scope and last - first < MAX_SPAN and (
                made := self.by_run(found, lo, hi, live, first, last)) is not None:
            return made
        if not scope and (made := self.linear(found, lo, hi)) is not None:
            return made
        span = last - first + 1
        if span <= 0:
            return empty
        if span > MAX_SPAN and self.n > 1:  # rows' sums apart: in halves (`_Wide`)
            raise _Wide
        if span > MAX_SPAN:
            raise FamilyError(f"a sum over {first}..{last} on a run's rows: at most {MAX_SPAN} "
                              "indices")
        cells = span * math.prod(v[2] - v[1] + 1 for v in scope.values())
        if cells > ROW_CELLS:  # counted before any array of them is made
            raise FamilyError(f"nested sums over {cells} index tuples on a run's row: at most "
                              f"{ROW_CELLS}")
        if self.n > 1 and self.n * cells > CELLS:
            raise _Wide
        axis = found.bound
        shape = [1] * _AXES
        shape[axis] = span
        at = np.arange(first, last + 1, dtype=np.int64).reshape(shape)
        inner = {**scope, f"#{axis}": (at, first, last)}
        renamed = _set_renamed(found.lo, found.hi, found.filters, axis)
        if renamed is not None:  # a set of its own index alone: kept as over #1
            key: tuple[Any, ...] = (found.lo, found.hi, renamed, 1, ())
        else:
            read = _set_reads(found.lo, found.hi, found.filters)
            key = (found.lo, found.hi, found.filters, axis,
                   tuple(sorted((b, *v[1:]) for b, v in scope.items() if b in read)))
        keep = self.masks.get(key)
        if keep is None:  # the members of a set, once for every sum over it
            keep = (at >= lo.reshape(self._shape(self.n))) & (
                at <= hi.reshape(self._shape(self.n)))
            keep = self.filtered(keep, found.filters, inner)
            self.masks[key] = keep if renamed is None or axis == 1 else np.moveaxis(keep, axis, 1)
        elif renamed is not None and axis != 1:
            keep = np.moveaxis(keep, 1, axis)
        num, den = self.poly(found.body, inner)
        return _total(np.where(keep, num, 0).astype(num.dtype, copy=False), axis), den

    @cached_property
    def _runs(self) -> tuple[np.ndarray, np.ndarray]:
        """The runs among these rows and each one's first row (`np.unique` of `which`), made
        once per chunk: `by_run` asks for them at every sum of every atom."""
        return np.unique(self.which.reshape(self.n), return_index=True)

    @cached_property
    def _constant(self) -> dict[tuple[str, str], bool]:
        """Whether each run column read by a sum holds one value on all the rows of each run
        (`_per_run`), by (sort, name), filled as `by_run` reads them: a column is the same on
        every sum of the chunk, and the test compares all its rows (the batch checks asked
        it 1 316 times for a few columns per chunk)."""
        return {}

    def by_run(self, found: Any, lo: np.ndarray, hi: np.ndarray, live: np.ndarray, first: int,
               last: int) -> _Value | None:
        """A sum of no other sum whose body and filters read nothing that varies between the
        rows of a run (its families, a run's constants such as u): each run's terms made once
        over first..last, and each row's value the difference of their prefix sums at its
        bounds. A run's history sums range over up to `MAX_SPAN` times on each of its rows:
        rows x indices cells become runs x indices. None: some quantity read varies, or each
        run has one row here (`sum` adds them row by row)."""
        local = self.which.reshape(self.n)
        used, firsts = self._runs
        if len(used) == self.n:
            return None
        constant = self._constant
        for sort, name in _sum_reads(found):
            if (sort, name) not in constant:  # once per chunk, not per sum and atom
                column = (self.batch.scalars if sort == "scalar" else self.batch.vectors
                          ).get(name)
                constant[sort, name] = column is not None and _per_run(
                    column, self.rows, firsts[local])
            if not constant[sort, name]:
                return None
        sub = self.__dict__.get("_by_run")
        if sub is None:
            sub = self.__dict__["_by_run"] = _Rows(
                self.batch, np.arange(len(self.batch))[self.rows][firsts])
        span, axis = last - first + 1, found.bound
        shape = [1] * _AXES
        shape[axis] = span
        at = np.arange(first, last + 1, dtype=np.int64).reshape(shape)
        inner = {f"#{axis}": (at, first, last)}
        keep = sub.filtered(np.ones(shape, dtype=bool), found.filters, inner)
        num, den = sub.poly(found.body, inner)
        full = list(sub._shape(sub.n))
        full[axis] = span
        terms = np.broadcast_to(np.where(keep, num, 0).astype(num.dtype), full).reshape(
            sub.n, span)
        prefix = np.zeros((sub.n, span + 1), dtype=terms.dtype)
        if terms.dtype != object and _mag(terms) * span < _LIMIT:
            np.cumsum(terms, axis=1, out=prefix[:, 1:])
        else:
            prefix = prefix.astype(object)
            prefix[:, 1:] = np.cumsum(_exact(terms), axis=1)
        k = np.searchsorted(used, local)
        top = np.where(live, hi - first + 1, 0)
        bottom = np.where(live, lo - first, 0)
        value = np.where(live, prefix[k, top] - prefix[k, bottom], 0).astype(prefix.dtype)
        if isinstance(den, np.ndarray) and den.size > 1:
            den = den.reshape(sub.n)[k].reshape(self._shape(self.n))
        return _shrunk(value.reshape(self._shape(self.n))), den

    def linear(self, found: Any, lo: np.ndarray, hi: np.ndarray) -> _Value | None:
        """A top-level sum with a Gram of history vectors in its body, or a sum of such
        sums (`_linear_plan`), from per-run prefix sums: `sum(k in 1..t, YU[k]*<XU[k],w>)`
        is `<P_t, w>` with `P_t = sum(k in 1..t, YU[k]*XU[k])` a run's prefix sum, and the
        double sum of the kernel's `norm2(w - sum(...))` is `<P_t, P_t>`: d cells per row,
        where the row by row sum took t (or t^2) cells. Exact integers throughout. None:
        some part of the sum varies otherwise, or it has no vector (`by_run`, `sum`)."""
        plan = _linear_plan(found, functools.partial(_run_constant, self.batch))
        if plan is None or all(t.link is None for t in plan.terms):
            return None
        scalar, pieces = self._linear(plan, lo, hi)
        for r, v in pieces:  # a top-level sum's vectors V read no bound index: each row's
            scalar = _plus(scalar, _dot(r, self._row_vector(v)))
        num, den = scalar
        return (_shrunk(num).reshape(self._shape(self.n)),
                _shrunk(np.asarray(den)).reshape(self._shape(self.n)))

    def _flat(self, den: Any) -> np.ndarray:
        """A denominator as one entry per row of the chunk."""
        return np.broadcast_to(np.asarray(den), self._shape(self.n)).reshape(self.n)

    def _row_vector(self, name: str) -> _Value:
        """A vector reading no bound index on every row: (numerators (n, d), denominators)."""
        num, den = self.vector(name, {})
        return num.reshape(self.n, num.shape[-1]), self._flat(den)

    def _linear(self, plan: _Linear, lo: np.ndarray | None = None, hi: np.ndarray | None = None
                ) -> tuple[_Value, list[tuple[_Value, str]]]:
        """A `_Linear` sum on every row: a scalar (numerators, denominators, per row) and
        pieces `(R, V)` standing for `<R, V>` (R a vector per row, V a vector name reading
        the enclosing sum's index, read there)."""
        found = plan.found
        if lo is None or hi is None:  # an inner sum: its bounds, rows past the span
            lo, hi = (self.whole(b, {}) for b in (found.lo, found.hi))
            wide = hi - lo + 1 > MAX_SPAN
            if wide.any():
                self._skip((wide, f"a sum over {int(lo[wide].min())}..{int(hi[wide].max())} "
                                  f"on a run's rows: at most {MAX_SPAN} indices"))
                hi = np.where(wide, lo - 1, hi)
        zero = (np.zeros(self.n, dtype=np.int64), np.ones(self.n, dtype=np.int64))
        live = hi >= lo
        if not live.any():
            return zero, []
        first, last = int(lo[live].min()), int(hi[live].max())
        if last - first >= MAX_SPAN:  # runs whose lower bounds differ: in halves
            raise _Wide
        span, axis = last - first + 1, found.bound
        local = self.which.reshape(self.n)
        used, firsts = np.unique(local, return_index=True)
        top = np.where(live, hi - first + 1, 0)
        bottom = np.where(live, lo - first, 0)
        width = max(int(self.X.shape[2]), 1)
        per = CELLS // max(span * width, 1)
        groups = ([np.arange(len(used))] if len(used) <= per
                  else [np.array([g]) for g in range(len(used))])
        scalar, pieces = zero, []
        inner_made = [self._linear(t.link[1]) if t.link is not None and t.link[0] == "sum"
                      else None for t in plan.terms]
        for group in groups:
            rows = np.isin(local, used[group])
            k = np.searchsorted(used[group], local[rows])
            sub = _Rows(self.batch, np.arange(len(self.batch))[self.rows][firsts[group]])
            shape = [1] * _AXES
            shape[axis] = span
            at = np.arange(first, last + 1, dtype=np.int64).reshape(shape)
            scope = {f"#{axis}": (at, first, last)}
            keep = sub.filtered(np.ones(shape, dtype=bool), found.filters, scope)
            full = list(sub._shape(sub.n))
            full[axis] = span
            keep = np.broadcast_to(keep, full).reshape(sub.n, span)

            def read(num: np.ndarray, den: Any, k: np.ndarray = k, rows: np.ndarray = rows,
                     m: int = sub.n) -> _Value:
                return _prefix_read(num, den, m, k, top[rows], bottom[rows])

            for term, made in zip(plan.terms, inner_made, strict=True):
                pn, pd = sub.poly(term.pure, scope)
                pn = np.where(keep, np.broadcast_to(pn, full).reshape(sub.n, span), 0)
                pn = pn.astype(object if pn.dtype == object else np.int64, copy=False)
                if term.link is None:
                    scalar = _plus(scalar, _scatter(read(pn, pd), rows, self.n, None))
                    continue
                if term.link[0] == "gram":
                    _, a, v = term.link
                    vectors = [(a, v)]
                else:
                    assert made is not None
                    if made[0] is not None:  # the inner sum's scalar: times sum P
                        inside = _scatter(read(pn, pd), rows, self.n, None)
                        scalar = _plus(scalar, (_mul(inside[0], made[0][0]),
                                                _mul(inside[1], made[0][1])))
                    vectors = [(v, r) for r, v in made[1]]
                for a, other in vectors:
                    an, ad = sub.vector(a, scope)
                    an = np.broadcast_to(an, (*full, an.shape[-1])).reshape(
                        sub.n, span, an.shape[-1])
                    r = _scatter(read(_mul(pn[..., None], an), _mul(np.asarray(pd), ad)),
                                 rows, self.n, an.shape[-1])
                    if isinstance(other, str):  # R, paired with V where it is read
                        pieces.append((r, other))
                    else:  # an inner sum's piece (R', a): <R', R> on each row
                        scalar = _plus(scalar, _dot(other, r))
        folded = []
        for r, v in pieces:
            if any(s == "bound" for s, _ in _vector_named(v)):
                folded.append((r, v))
            else:  # reads no bound index: read on each row now
                scalar = _plus(scalar, _dot(r, self._row_vector(v)))
        return scalar, _merge_pieces(folded)

    def whole(self, bound: sympy.Expr, scope: Mapping[str, tuple[np.ndarray, int, int]]
              ) -> np.ndarray:
        """A sum's bound on every row, an integer (the bounds are integer polynomials in
        naturals; a row where one is not an integer is no instance of the statement, its
        natural's hypothesis false there: the sum is read as empty there)."""
        num, den = self.poly(bound, scope)
        num = np.broadcast_to(num, self._shape(self.n)).reshape(self.n)
        den = np.broadcast_to(den, self._shape(self.n)).reshape(self.n)
        whole = num % den == 0
        value = np.where(whole, num // np.where(whole, den, 1), 0)
        if value.dtype == object and _mag(value) >= _LIMIT:  # no index of a run is there
            raise FamilyError(f"a sum's bound {bound} is past 2**62 on a run's row: its "
                              "indices are no int64")
        return value.astype(np.int64)

    def filtered(self, keep: np.ndarray, filters: Sequence[tuple[sympy.Expr, str]],
                 scope: Mapping[str, tuple[np.ndarray, int, int]]) -> np.ndarray:
        """`keep` where each filter of a sum holds (`p > 0`, `p >= 0`, `p == 0`), its members
        read in `scope`: one home for a set's membership, whichever way a sum is made."""
        for p, kind in filters:
            value, _ = self.poly(p, scope)
            keep = keep & (value > 0 if kind == ">" else value >= 0 if kind == ">="
                           else value == 0)
        return keep

    def poly(self, e: sympy.Expr, scope: Mapping[str, tuple[np.ndarray, int, int]]) -> _Value:
        """A polynomial over the atoms and quantities: its terms over one denominator per
        row (each symbol's denominator to its highest power in the polynomial)."""
        symbols, terms = _polynomial(e)
        values = [self.symbol(s, scope) for s in symbols]
        degrees = [max((m[i] for m, _ in terms), default=0) for i in range(len(symbols))]
        common = math.lcm(*(c.denominator for _, c in terms)) if terms else 1
        # a factor 1 is never multiplied, nor a first term added to 0: the same integers,
        # without the two passes over the arrays each `_mul` and `_add` takes (their
        # magnitudes), which were most of a sum's work on the few rows of a small run
        den = _product(_ints(common) if common != 1 else None,
                       [d for (_, d), k in zip(values, degrees, strict=True) for _ in range(k)])
        total: np.ndarray | None = None
        for monomial, c in terms:
            coefficient = c.numerator * (common // c.denominator)
            term = _product(_ints(coefficient) if coefficient != 1 else None, [
                f for (num, d), e_i, k in zip(values, monomial, degrees, strict=True)
                for f in (*(num,) * e_i, *(d,) * (k - e_i))])
            total = term if total is None else _add(total, term)
        if total is None or total.ndim < _AXES:  # no term, or constants only: on the axes
            total = _add(np.zeros(self._shape(), dtype=np.int64),
                         total if total is not None else _ints(0))
        return total, den


def _product(first: np.ndarray | None, factors: Sequence[np.ndarray]) -> np.ndarray:
    """`first` times every factor, exactly (`_mul`); no `first` is 1."""
    out = first
    for factor in factors:
        out = factor if out is None else _mul(out, factor)
    return out if out is not None else _ints(1)


@functools.lru_cache(maxsize=4096)
def _sum_reads(found: Sum) -> tuple[tuple[str, str], ...]:
    """The run columns (scalars and vectors, by sort and name) a sum's body and filters
    read, in a fixed order: what `by_run` tests for being constant on each run. Made once
    per sum, not once per chunk (SymPy's `free_symbols` walks the whole expression)."""
    read = {pair for e in (found.body, *(p for p, _ in found.filters))
            for sym in e.free_symbols if not sym.name.startswith("#")
            for pair in _named(sym.name)}
    return tuple(sorted(pair for pair in read if pair[0] in ("scalar", "vector")))


def _per_run(column: Any, rows: slice, firsts: np.ndarray) -> bool:
    """Whether a column holds one value on all the rows of each run among `rows` (`firsts`:
    each row's first row of its run, positions within `rows`): the same numerator over the
    same denominator (a value written two ways counts as varying: the sum is then made row
    by row, as before)."""
    num = np.asarray(column.num[rows])
    if not np.array_equal(num, num[firsts]):
        return False
    den = column.den
    if isinstance(den, np.ndarray):
        d = np.asarray(den[rows])
        return bool(np.array_equal(d, d[firsts]))
    return True


def _dot_last(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`sum(a * b)` over the last axis, broadcast, exactly (int64 when a bound proves it)."""
    width = max(a.shape[-1], b.shape[-1], 1)
    a, b = _padded(a, width), _padded(b, width)
    if a.dtype != object and b.dtype != object and _mag(a) * _mag(b) * width < _LIMIT:
        return np.einsum("...d,...d->...", a, b)
    return np.asarray((_exact(a) * _exact(b)).sum(axis=-1), dtype=object)


def _row_products(num: np.ndarray, X: np.ndarray, which: np.ndarray) -> np.ndarray:
    """Each row of `num` (rows x dim, int64) times every example of its run, `X[which[r]]`
    (X: runs x count x dim), in int64 (its caller's bound proves it exact): rows x count.
    Gathered in blocks of at most `CELLS` cells: every row at once copied its run's examples
    once per row, rows x count x dim (2 592 states of a margin family's cyclic run x 50
    examples x 152 coordinates, 150 MiB, the audit's largest worker 191 -> 274 MB when
    those runs offered their history)."""
    n, count = len(num), X.shape[1]
    step = max(1, CELLS // max(count * X.shape[2], 1))
    if step >= n:
        return np.einsum("rd,rjd->rj", num, X[which])
    out = np.empty((n, count), dtype=np.result_type(num, X))
    for a in range(0, n, step):
        out[a:a + step] = np.einsum("rd,rjd->rj", num[a:a + step], X[which[a:a + step]])
    return out


def _padded(v: np.ndarray, width: int) -> np.ndarray:
    """`v` widened to `width` coordinates with zeros of its own kind: Python int 0 in an
    object array (`np.pad` writes `np.int64(0)` there, and a big Python int plus an
    `np.int64` overflows instead of staying exact)."""
    if v.shape[-1] == width:
        return v
    out = np.zeros((*v.shape[:-1], width), dtype=v.dtype)  # object zeros are Python ints
    out[..., :v.shape[-1]] = v
    return out


@functools.lru_cache(maxsize=4096)
def _polynomial(e: sympy.Expr) -> tuple[tuple[sympy.Symbol, ...],
                                        tuple[tuple[tuple[int, ...], Fraction], ...]]:
    """`e` as its symbols and (exponents, coefficient) terms (once per expression)."""
    symbols = tuple(sorted(e.free_symbols, key=lambda s: s.name))
    if not symbols:
        value = Fraction(str(sympy.Rational(e)))
        return (), (((), value),) if value else ()
    poly = sympy.Poly(e, *symbols, domain="QQ")
    return symbols, tuple((tuple(m), Fraction(int(c.numerator), int(c.denominator)))
                          for m, c in poly.terms() if c)
