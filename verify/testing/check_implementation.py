"""Checking a third-party perceptron against the exact engine and the Novikoff bound.

`check_implementation(fit)` feeds an implementation the adversarial sequences of the
campaigns (`verify.numeric.campaign`: tight orthonormal families, the online adversary's sequences,
planted separable data) and compares what it returns with `perceptron.algorithms.online.run_online`
under the conventions it claims to follow.

Each scenario is handed over as float64: a campaign's data scaled by their common
denominator to integers (with `w_0 = 0` and no bias the perceptron is scale invariant, so
this is the same run), the `protocol`'s as written (dyadic rationals such as 3/4 among them,
which float64 holds exactly: on integers every score is an integer and a wrong threshold
such as `< 1` equals `<= 0`), and the engine runs on the exact binary values of exactly
those floats, so the two always see the same data. Whether float64 arithmetic can be exact
on a scenario is decided a priori: with eta = p / 2^e and the data's common denominator s
(a power of 2 for floats), every value a perceptron forms along the exact run is an integer
multiple of `2^-e s^-2` bounded by `sqrt(T) eta R^2` (Novikoff's `||w_t||^2 <= t eta^2 R^2`
and Cauchy–Schwarz), so `T eta^2 R^4 4^e s^4 < 2^106` together with `2^e s^2 <= 2^1074` (the
quantum no finer than float64's subnormal spacing) makes every operation exact. There, any
difference from the engine is a defect of the implementation (a *problem*); elsewhere it is
a *note* with its exact size only where float64 rounding can explain it (`_Rounding` bounds
that error from the exact run's magnitudes), and a problem where it cannot.

One full call per scenario is not enough (every campaign scenario without a bias converges in
its first epoch): `verify.testing.protocol` plans the further calls (runs cut after fewer
epochs, refits of the same instance, read-only inputs) and holds the scenarios that need
many epochs. Every call gets its own copies of the arrays, checked unchanged afterwards.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import floor
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from perceptron.algorithms.online import run_online
from perceptron.algorithms.trace import Trace
from perceptron.conventions import DEFAULT, Conventions, flag
from perceptron.conventions import given as given_conventions
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.bound import mistake_bound, normalised_margin2
from perceptron.geometry.linear import dot, norm2, radius2, scaled_rows
from perceptron.numbers import beside, exact
from perceptron.result import RunResult
from verify.runs.columns import Origin
from verify.runs.isolation import described
from verify.runs.quantity import Scenario, margin
from verify.testing.check_run import TheoryReport, check_run, score_rounding
from verify.testing.check_run import about as _about
from verify.testing.protocol import (
    FULL_RUN,
    PROTOCOL,
    Call,
    budget,
    divergence,
    epochs_hint,
    plan,
    protocol,
    rate_hint,
    run_text,
    vector_text,
    w_hint,
)

#: The default sources: the campaigns' by their names, and the protocol's fixed scenarios.
SOURCES = ("tight", "adversary", "generated", PROTOCOL)
#: Up to this many numbers, a failing scenario's data are printed whole in its reproducer.
REPRODUCER_LIMIT = 400
#: Float64 is exact for a scenario when `T eta^2 R^4 4^e s^4` stays below this (see above).
FLOAT_EXACT_LIMIT = 2**106
#: ... and when its quantum `2^-e s^-2` is a multiple of float64's finest spacing 2^-1074
#: (the subnormals'), so every multiple of it below 2^53 quanta is a float: at 2^-600 the
#: scale-invariant bound above holds while the products underflow.
FLOAT_QUANTUM_LIMIT = 2**1074


@dataclass(frozen=True)
class Fitted:
    """What an implementation returns: its final weights, and optionally its number of
    mistakes (updates) and its iterates `w_0, ..., w_T` (one per update), bias last."""

    w: Sequence[object]
    mistakes: int | None = None
    iterates: Sequence[Sequence[object]] | None = None


#: float64's unit roundoff: a rounded operation's relative error is at most this.
UNIT_ROUNDOFF = Fraction(1, 2**53)
#: float64's smallest subnormal: a product that underflows is off by less than this (sums
#: and differences of floats never underflow inexactly).
SUBNORMAL = Fraction(1, 2**1074)

#: A perceptron under test: `fit(X, y, epochs)` with X float64 (n, d), y int64 in {-1, +1}.
Fit = Callable[[np.ndarray, np.ndarray, int], Any]


def as_fitted(value: object) -> Fitted:
    """Read a `fit` result: a `Fitted`, a weight vector (a row or a column is raveled, other
    2-D arrays are left for `_vector` to refuse), or a tuple `(w, mistakes)` /
    `(w, mistakes, iterates)`."""
    if isinstance(value, Fitted):
        return value
    if isinstance(value, tuple) and value and np.ndim(value[0]) >= 1:
        w, mistakes, iterates = (*value, None, None)[:3]
        return Fitted(_flat(w), _count(mistakes), iterates)
    return Fitted(_flat(value))


def _flat(w: object) -> Sequence[object]:
    """`w` raveled when it is a vector, a row or a column; as it was otherwise, for
    `_vector` to refuse (an array with two axes longer than 1 is no weight vector)."""
    array = np.asarray(w, dtype=object)
    long_axes = sum(1 for k in array.shape if k > 1)
    return np.ravel(array) if long_axes <= 1 else array  # type: ignore[return-value]


def _count(mistakes: object) -> int | None:
    if mistakes is None:
        return None
    if int(mistakes) != mistakes:  # type: ignore[call-overload]
        raise ValueError(f"a mistake count must be an integer, not {mistakes!r}")
    return int(mistakes)  # type: ignore[call-overload]


@dataclass(frozen=True)
class ScenarioOutcome:
    """One call of `fit` on a scenario: what the implementation and the exact engine did,
    and how they differ.

    `call` says which call (the full run, one cut after `epochs`, a refit of the same
    instance). `problems` fail the check; `notes` are differences on inputs where float64
    may round. `max_deviation` is `max_j |w_j - w*_j|` against the engine's `w*` (the exact
    run with the same epochs), exactly (0 when identical; None when the weights could not be
    compared, or with `theory_only`). `order_differs`: the one problem is that a legal
    perceptron run (finished where the call gave every epoch) visits the examples in another
    order than the engine's.
    """

    source: str
    origin: Origin
    dataset: str
    n: int
    d: int
    epochs: int
    float_exact: bool
    bound: Fraction | None
    engine: RunResult
    w: Vector | None
    mistakes: int | None
    max_deviation: Fraction | None
    first_iterate_difference: int | None
    theory: TheoryReport | None
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    X: np.ndarray | None = field(default=None, repr=False, compare=False)
    y: np.ndarray | None = field(default=None, repr=False, compare=False)
    call: Call = FULL_RUN
    order_differs: bool = False
    #: How many calls of `fit` this check made before this one (on the same instance).
    calls_before: int = 0
    #: What fit returned, read exactly: (w, iterates, mistakes), for a repeat to compare.
    returned: tuple[Vector | None, list[Vector] | None, int | None] | None = field(
        default=None, repr=False, compare=False)
    #: How fit was seen to keep state between fits ('' when it was not; see `_kept_state`).
    keeps_state: str = ""
    #: The learning-rate hint its final w's problem (or note) ends with (`rate_hint`), ''
    #: when none does: dropped when fit keeps state (`kept_state`).
    rate_hint: str = ""

    def kept_state(self, kept: str) -> ScenarioOutcome:
        """This call of a fit seen to keep state between fits (`kept`: how): its w read as
        another learning rate's is no longer offered (newcomer 30: a warm-started fit, whose
        w on a d = 1 scenario is a multiple of any other, was told "check it with
        conventions=Conventions(eta=8)"; the state was said only in the reproducer)."""
        instead = (f"; fit keeps state between fits ({kept}), so this w is not read as "
                   "another learning rate's")
        return replace(self, keeps_state=kept, rate_hint="", problems=tuple(
            p.replace(self.rate_hint, instead) for p in self.problems) if self.rate_hint
            else self.problems, notes=tuple(p.replace(self.rate_hint, instead)
                                           for p in self.notes) if self.rate_hint
            else self.notes)

    @property
    def ok(self) -> bool:
        """No problem found."""
        return not self.problems

    def reproducer(self, limit: int = REPRODUCER_LIMIT) -> str:
        """Python that hands the implementation this scenario's data exactly as
        `check_implementation` did (float64 written with `repr`, which round-trips), or,
        past `limit` numbers, its nonzero entries when at most `limit` (the protocol's
        256-feature scenario), else the first rows and how to regenerate the scenario."""
        if self.X is None or self.y is None:
            return f"# scenario {self.where}: data not kept"
        rows = self.X.tolist()
        sparse = self.X.size > limit and np.count_nonzero(self.X) <= limit
        shown = (rows if self.X.size <= limit or sparse
                 else rows[:max(1, limit // max(self.d, 1))])
        if sparse:
            made = [f"X = np.zeros(({self.n}, {self.d}))"]
            for i, row in enumerate(rows):
                cols = [j for j, v in enumerate(row) if v]
                if cols:
                    made.append(f"X[{i}, {cols}] = {[row[j] for j in cols]!r}")
            x_text = "\n".join(made)
        else:
            body = ",\n     ".join("[" + ", ".join(map(repr, row)) + "]" for row in shown)
            x_text = f"X = np.array([{body}])"
        lines = [x_text, f"y = np.array({self.y.tolist()!r})", f"fit(X, y, {self.epochs})"]
        if self.call.read_only:
            lines.insert(2, "X.setflags(write=False); y.setflags(write=False)")
        if self.calls_before and self.keeps_state:
            lines.insert(0, f"# check_implementation had called fit {self.calls_before} "
                            f"time(s) before this call, and fit keeps state between fits "
                            f"({self.keeps_state}): if this passes alone, that state is "
                            f"the cause")
        if len(shown) < len(rows):
            lines[0] = (f"# the first {len(shown)} of {len(rows)} rows; regenerate all with "
                        f"check_implementation(fit, sources=({self.source!r},), seed="
                        f"{self.origin.seed})\n" + lines[0])
        return "\n".join(lines)

    @property
    def identical(self) -> bool:
        """Same final weights as the exact engine, exactly."""
        return self.max_deviation == 0

    @property
    def where(self) -> str:
        """The scenario, reproducibly: source, seed and dataset."""
        seed = "" if self.origin.seed is None else f" seed={self.origin.seed}"
        return f"{self.source}{seed} {self.dataset} (n={self.n}, d={self.d}), {self.call.what}"


class _Outcome(Protocol):
    @property
    def ok(self) -> bool: ...


_O = TypeVar("_O", bound=_Outcome)


class Calls(Generic[_O]):
    """What every implementation check's report answers of its calls (`check_implementation`,
    `check_margin_implementation`, `check_batch_implementation`): one home for the verdict a
    test asserts and the calls it shows."""

    outcomes: tuple[_O, ...]

    @property
    def ok(self) -> bool:
        """No call has a problem."""
        return all(o.ok for o in self.outcomes)

    @property
    def failures(self) -> tuple[_O, ...]:
        """The calls with problems, in the order made."""
        return tuple(o for o in self.outcomes if not o.ok)


@dataclass(frozen=True)
class ImplementationReport(Calls["ScenarioOutcome"]):
    """Every scenario of `check_implementation`, with the verdict for tests."""

    implementation: str
    conventions: Conventions
    outcomes: tuple[ScenarioOutcome, ...] = field(default=())
    theory_only: bool = False

    @property
    def first_failure(self) -> ScenarioOutcome | None:
        """The first scenario with a problem."""
        return next(iter(self.failures), None)

    @property
    def simplest_failure(self) -> ScenarioOutcome | None:
        """The failing call with the fewest numbers (n * d, then n): the easiest to read;
        a real defect before a mere difference of visiting order."""
        return min(self.failures, key=lambda o: (o.order_differs, o.n * o.d, o.n),
                   default=None)

    @property
    def order_only(self) -> bool:
        """Every failure is a legal perceptron run in another visiting order than the
        engine's: the implementation is a perceptron, not a cyclic one."""
        return bool(self.failures) and all(o.order_differs for o in self.failures)

    @property
    def max_deviation(self) -> Fraction | None:
        """The largest weight deviation from the engine over all scenarios, exactly; None
        with `theory_only`, where no weights were compared (a 0 would claim they agree)."""
        if self.theory_only:
            return None
        return max((o.max_deviation for o in self.outcomes if o.max_deviation is not None),
                   default=Fraction(0))

    def by_source(self) -> dict[str, tuple[ScenarioOutcome, ...]]:
        """The outcomes grouped by source."""
        out: dict[str, list[ScenarioOutcome]] = {}
        for o in self.outcomes:
            out.setdefault(o.source, []).append(o)
        return {k: tuple(v) for k, v in out.items()}

    def summary(self) -> str:
        """One line per source: scenarios, calls, identical, float-exact, problems, max
        deviation (every count but the first counts calls: a scenario is called again cut
        after 1 epoch, on negated labels, ...).

        With `theory_only` no exact run was compared, so the headline says the theory alone
        was checked and the comparison columns (identical, max deviation) are left out:
        their zeros would read as a comparison that failed or was exact."""
        lines = [self._headline()]
        for row in self._by_source_counts():
            cells = [f"{name} {value:<4}" for name, value in zip(self._columns()[1:], row[1:],
                                                                  strict=True)]
            lines.append(f"  {row[0]:<10} " + " ".join(cells).rstrip())
        return "\n".join(lines)

    def _headline(self) -> str:
        """What was checked: against the exact perceptron, or the theory only."""
        if self.theory_only:
            return (f"{self.implementation}: the perceptron theory checked on its own "
                    f"iterates, not compared with the exact perceptron (theory_only) "
                    f"({self.conventions.describe()})")
        return f"{self.implementation} vs the exact perceptron ({self.conventions.describe()})"

    def _columns(self) -> tuple[str, ...]:
        """The table's columns; without the comparison ones under `theory_only`."""
        if self.theory_only:
            return ("source", "scenarios", "calls", "float-exact", "problems")
        return ("source", "scenarios", "calls", "identical", "float-exact", "problems",
                "max deviation")

    def _by_source_counts(self) -> list[tuple[str | int, ...]]:
        """Per source: scenarios, calls, identical, float-exact, with problems, max
        deviation (the one table `summary` and `_repr_html_` both print; `_columns` names
        them). Scenarios are told apart by their origin: newcomer 33 F5, the column
        `scenarios` counted calls, so a check of 8 tight scenarios, two of them called again
        cut after one epoch, said `tight scenarios 10`."""
        rows: list[tuple[str | int, ...]] = []
        for source, group in self.by_source().items():
            floats, problems = sum(o.float_exact for o in group), sum(not o.ok for o in group)
            scenarios = len({o.origin for o in group})
            if self.theory_only:
                rows.append((source, scenarios, len(group), floats, problems))
                continue
            worst = max((o.max_deviation for o in group if o.max_deviation is not None),
                        default=None)  # none compared (every call failed): no 0 to claim
            rows.append((source, scenarios, len(group), sum(o.identical for o in group),
                         floats, problems, "-" if worst is None else beside(worst)))
        return rows

    def _repr_html_(self) -> str:
        """Jupyter: the `summary` as a table, one row per source, then the first problem."""
        from verify.render.notebook import table

        first = self.simplest_failure
        caption = (f"{self._headline()}: "
                   + ("ok" if first is None else f"FAILS: {first.problems[0]}"))
        return table(self._columns(), self._by_source_counts(), caption)

    def raise_for_violations(self) -> None:
        """Raise an AssertionError naming the simplest failing scenario and its problems."""
        __tracebackhide__ = True  # pytest: the failure is the caller's
        first = self.simplest_failure
        if first is None:
            return
        if self.order_only:
            claim = ("visits the examples in another order than the exact perceptron's "
                     "cyclic one (check it with theory_only=True if that is intended)")
        elif self.theory_only and any(p.startswith("its iterates break the theory")
                                      for p in first.problems):
            claim = "breaks the perceptron theory on its own iterates"
        elif self.theory_only:
            # A fit returning no iterates, or a w that is not its last iterate, fails this
            # check with no iterate breaking the theory (newcomer 30: the header said so).
            claim = "fails the theory-only check of its own run"
        else:
            # the conventions are the ones it was checked under, which fit never stated
            # (newcomer 28: "it claims to be (... eta = 1 ...)" of a rate-1/2 fit)
            claim = "is not the perceptron it was checked as"
        lines = [f"{self.implementation} {claim} ({self.conventions.describe()}): "
                 f"{len(self.failures)} of {len(self.outcomes)} calls fail; simplest: "
                 f"{first.where}"]
        lines.extend(f"  - {p}" for p in first.problems)
        if not (self.order_only or self.theory_only):
            lines.extend(f"  - {hint}" for hint in [_rule_hint(self.outcomes, self.conventions),
                                                      _frozen_bias_hint(self.outcomes,
                                                                         self.conventions)]
                         if hint)
        lines.append("  reproduce with exactly the data handed over:")
        lines.extend(f"    {line}" for line in first.reproducer().splitlines())
        more = [o for o in self.failures if o is not first]
        if more:
            sources = ", ".join(sorted({o.source for o in more}))
            lines.append(f"  ({len(more)} more failing scenario{'s' if len(more) > 1 else ''}"
                         f", in: {sources})")
        raise AssertionError("\n".join(lines))


#: The other update rules a perceptron is commonly written with: `<` (ties never update) and
#: a prediction `sign(<w, x>)` compared with `y`, `sign(0)` either way.
OTHER_RULES = (("lt", 1), ("mistake", -1), ("mistake", 1))


def _rule_hint(outcomes: Sequence[ScenarioOutcome], conventions: Conventions) -> str:
    """When the implementation's final `w` is, on every call of the check, exactly the
    perceptron's under another update rule (the same data and epochs), say which, as
    `_rate_hint` does for the learning rate (newcomer 30: a predict-then-update perceptron,
    `1 if s > 0 else -1`, failed 83 of 108 calls with nothing pointing at
    `Conventions(rule="mistake", sign_zero=-1)`). Every call, not one: on the smallest
    scenarios several rules agree by chance (a one-pass fit matched `sign_zero=-1` on one).
    Run once per message, a rule dropped at its first call that disagrees."""
    called = [o for o in outcomes if o.w is not None and o.X is not None and o.y is not None]
    if not called or all(o.w == o.engine.w for o in called):
        return ""
    for rule, sign_zero in OTHER_RULES:
        other = replace(conventions, rule=rule, sign_zero=sign_zero)
        if other == conventions:
            continue
        if all(run_online(Dataset.of(o.X.tolist(), o.y.tolist()),  # type: ignore[union-attr]
                          other, max_epochs=o.epochs).w == o.w for o in called):
            said = f'rule="{rule}"' + (f", sign_zero={sign_zero}" if rule == "mistake" else "")
            return (f"on each of its {len(called)} calls its w is exactly the perceptron's "
                    f"under another rule ({other.describe()}): if that rule is intended, "
                    f"check it with conventions=Conventions({said})")
    return ""


def _frozen_bias_hint(outcomes: Sequence[ScenarioOutcome],
                       conventions: Conventions) -> str:
    """Under `Conventions(bias=True)` from `w_0 = 0`: when the implementation's bias (its
    last weight) is 0 after every call, where the exact perceptron's is not after some, say
    so (newcomer 33: a fit that never updated its bias failed 114 of 117 calls with `final w
    (8, 0)` against `(8, 1)`, nothing naming the bias). Said as what was seen, with the
    common cause conditionally, and only when its other weights moved: a fit that never
    updates at all (`y*<w,x> < 0` from 0) keeps its bias 0 for another reason."""
    if not conventions.bias or any(conventions.w0 or ()):
        return ""
    called = [o for o in outcomes if o.w]
    moved = sum(o.engine.w[-1] != 0 for o in called)
    if not moved or any(o.w[-1] != 0 for o in called):  # type: ignore[index]
        return ""
    if not any(any(o.w[:-1]) for o in called):  # type: ignore[index]
        return ""  # no weight moved at all (a `< 0` rule from 0): the bias is not the cause
    return (f"its bias (the last weight) is 0 after each of its {len(called)} calls, where "
            f"the exact perceptron's is not after {moved} of them: a bias never updated "
            f"(b += eta*y at each update) stays 0")


def check_implementation(fit: Fit, *, sources: Sequence[str] | Mapping[str, Iterable[Scenario]]
                         = SOURCES, seed: int = 0, count: int = 8,
                         conventions: Conventions = DEFAULT, max_epochs: int = 200,
                         name: str | None = None, theory_only: bool = False
                         ) -> ImplementationReport:
    """Run `fit` on adversarial sequences and compare it with the exact engine and the bound.

    `fit(X, y, epochs)` gets X float64 of shape (n, d) and y int64 in {-1, +1}, and returns
    its weight vector (bias last when `conventions.bias`), or a `Fitted` / tuple with its
    mistakes and iterates. `sources`: names among `tight`, `adversary`, `generated`,
    `protocol` (fixed data needing many epochs, refits, read-only inputs), `orders` (each
    `count` scenarios from `seed`), or a mapping of source name to
    `verify.numeric.campaign.Scenario`s. `conventions` are the ones the implementation claims (the
    engine runs under them; `w0` must be None: `fit` has no way to receive one).
    `max_epochs` caps the campaign sources' runs; the `protocol` scenarios get at least
    `verify.testing.protocol.PROTOCOL_EPOCHS` (their longest run needs 1042 epochs).

    Every scenario is fitted in full; one whose exact run needs several epochs is also cut
    after fewer (`verify.testing.protocol.plan`), and the `protocol` scenarios are fitted again
    on the same instance (labels negated, then read-only arrays).

    `theory_only=True` is for an implementation that visits the examples in another order
    (a shuffled perceptron): nothing is compared with the engine's run; its own iterates
    (which `fit` must return) must be legal perceptron updates obeying the theory, finished
    when it was given enough epochs for any order, and within `epochs * n` updates.
    """
    conventions = given_conventions(conventions)
    if conventions.w0 is not None:
        raise ValueError("fit(X, y, epochs) cannot receive w0: check with w0=None")
    theory_only = flag(theory_only, "theory_only")  # "no" compared nothing (red team 33 F9)
    chosen = chosen_sources(sources, seed, count)
    label = name or getattr(fit, "__name__", None) or repr(fit)
    outcomes = [replace(outcome, calls_before=k) for k, outcome in enumerate(
        outcome for source, scenarios in chosen.items() for scenario in scenarios
        for outcome in _scenario(fit, source, scenario, conventions, max_epochs, theory_only))]
    if not outcomes:
        # A report of no call says nothing of `fit`, yet was `ok` and passed
        # `raise_for_violations` (red team 27: a fit returning 7s "passed" with sources={}).
        raise ValueError(f"no scenario to run {label} on: the sources given ("
                         f"{', '.join(map(str, chosen)) or 'none'}, count={count}) yield none")
    report = ImplementationReport(label, conventions, tuple(outcomes), theory_only)
    simplest = report.simplest_failure
    kept = "" if simplest is None else _kept_state(fit, (outcomes[0], simplest))
    if not kept:
        return report
    return replace(report, outcomes=tuple(o.kept_state(kept) for o in outcomes))


def _kept_state(fit: Fit, calls: Sequence[ScenarioOutcome]) -> str:
    """How `fit`, called once more on the data of each of `calls` (the first call, made on
    a fresh instance, and the simplest failure), returns another result than it did then,
    or '' when it returns the same: a function of its data returns the same on the same
    data, and only a fit shown to keep state (or to be random) gets the reproducer's
    "keeps state between fits" line (newcomer 28: every failure of a stateless fit, a
    rate-1/2 perceptron or one pass, carried "if this passes alone, fit keeps state", noise
    beside the real cause). One or two more calls, made only when the check fails."""
    for k, outcome in enumerate(calls):
        if any(outcome is seen for seen in calls[:k]):
            continue
        if outcome.X is None or outcome.y is None or outcome.returned is None:
            continue
        w, iterates, mistakes = outcome.returned
        try:
            again = _read(as_fitted(fit(outcome.X.copy(), outcome.y.copy(), outcome.epochs)),
                          len(w) if w is not None else outcome.d, False, _Findings(),
                          outcome.epochs * len(outcome.y))
        except Exception as error:  # it raised now where it returned then
            return (f"called again on the data of its call {outcome.calls_before + 1}, it "
                    f"raised {type(error).__name__}")
        differs = [what for what, a, b in (("w", w, again[0]), ("iterates", iterates,
                                                                again[1]),
                                           ("mistake count", mistakes, again[2])) if a != b]
        if differs:
            said = (differs[0] if len(differs) == 1
                    else f"{', '.join(differs[:-1])} and {differs[-1]}")
            return (f"called again on the data of its call {outcome.calls_before + 1}, its "
                    f"{said} differ{'s' if len(differs) == 1 else ''} from what it "
                    f"returned then")
    return ""


def chosen_sources(sources: str | Sequence[str] | Mapping[str, Iterable[Scenario]],
                   seed: int, count: int, *, own: Sequence[str] = ()
                   ) -> dict[str, Iterable[Scenario]]:
    """The scenarios of `sources` as `check_implementation` and `check_margin_implementation`
    take them: a mapping of the caller's own, each value checked to yield `Scenario`s as it is
    read, or source names, one name alone a name (red team 35 F5: `sources="tight"` was the
    five sources t, i, g, h, t, 'unknown source(s) t, i, g, h, t'; a mapping holding anything
    but Scenarios was an AttributeError inside the check). Names in `own` are left to the
    caller (the margin check's `ties`)."""
    if isinstance(sources, Mapping):
        return {name: _scenarios(name, scenarios) for name, scenarios in sources.items()}
    names = (sources,) if isinstance(sources, str) else sources
    return builtin_sources([n for n in names if n not in own], seed, count)


def _scenarios(name: object, scenarios: object) -> Iterable[Scenario]:
    """The caller's `scenarios` of source `name`, each a `Scenario` or a TypeError."""
    if isinstance(scenarios, str) or not isinstance(scenarios, Iterable):
        raise TypeError(f"sources[{name!r}] must be Scenarios (verify.runs.Scenario), "
                        f"not {type(scenarios).__name__} {scenarios!r:.40}")

    def checked() -> Iterable[Scenario]:
        for scenario in scenarios:
            if not isinstance(scenario, Scenario):
                raise TypeError(f"sources[{name!r}] holds {type(scenario).__name__} "
                                f"{scenario!r:.40}, not a Scenario (verify.runs.Scenario)")
            yield scenario

    return checked()


def builtin_sources(names: Sequence[str], seed: int, count: int
                    ) -> dict[str, Iterable[Scenario]]:
    """The campaign sources by name, `count` scenarios each (the adversary: bounds
    `1..count`, every (R2, gamma) shape), and the fixed `protocol` scenarios."""
    from verify.numeric import campaign

    makers: dict[str, Callable[[], Iterable[Scenario]]] = {
        "tight": lambda: campaign.tight(seed, count),
        "adversary": lambda: campaign.adversary(seed, tuple(range(1, count + 1))),
        "generated": lambda: campaign.generated(seed, count),
        PROTOCOL: protocol,
        "orders": lambda: campaign.orders(seed, count),
    }
    unknown = [n for n in names if n not in makers]
    if unknown:
        raise ValueError(f"unknown source(s) {', '.join(unknown)}; use {', '.join(makers)}")
    return {n: makers[n]() for n in names}


# ---- one scenario --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Handover:
    """A scenario as the implementation gets it (floats) and as the engine gets it (their
    exact values), with its reference separator."""

    X: np.ndarray
    y: np.ndarray
    data: Dataset
    u: Vector | None
    bias: bool

    @classmethod
    def of(cls, scenario: Scenario, bias: bool, integers: bool = True) -> _Handover:
        """`integers`: scaled to integers (campaigns); else as written (the protocol's
        dyadic data, exact in float64)."""
        rows = scaled_rows(scenario.data)[1] if integers else scenario.data.X
        X = np.array([[float(v) for v in row] for row in rows], dtype=np.float64)
        y = np.array(scenario.data.y, dtype=np.int64)
        data = Dataset.of(X.tolist(), scenario.data.y, scenario.data.name)
        u = (*scenario.u, Fraction(0)) if bias else tuple(scenario.u)
        return cls(X, y, data, _still_separating(data.augmented() if bias else data, u), bias)

    def negated(self) -> _Handover:
        """The same examples with the labels negated (`-u` separates them)."""
        data = Dataset.of(self.X.tolist(), [-v for v in self.data.y],
                          f"{self.data.name} (labels negated)")
        u = None if self.u is None else tuple(-v for v in self.u)
        return _Handover(self.X, -self.y, data, u, self.bias)

    @property
    def run_data(self) -> Dataset:
        """The data as the run sees them (with the bias coordinate when one is learned)."""
        return self.data.augmented() if self.bias else self.data

    @property
    def bound(self) -> Fraction | None:
        """Novikoff's bound `R^2 ||u||^2 / gamma_u^2` (None without a separator)."""
        if self.u is None:
            return None
        run_data = self.run_data
        return mistake_bound(radius2(run_data),
                             normalised_margin2(margin(run_data, self.u), norm2(self.u)))


def _still_separating(run_data: Dataset, u: Vector) -> Vector | None:
    """`u` if it strictly separates the data handed over (rounding may break that), else a
    certified separator, else None."""
    from perceptron.geometry.max_margin import NotSeparableError, max_margin

    if margin(run_data, u) > 0:
        return u
    try:
        return max_margin(run_data).w
    except NotSeparableError:
        return None


def _float_exact(run_data: Dataset, conventions: Conventions, updates: int) -> bool:
    """Whether float64 is provably exact along the exact run (module docstring)."""
    eta = conventions.eta
    den = eta.denominator
    scale = run_data.scale()
    if den & (den - 1) or scale & (scale - 1) or eta.numerator >= 2**53:
        return False
    if den * scale**2 > FLOAT_QUANTUM_LIMIT:  # the quantum 2^-e s^-2 below float64's grid
        return False
    return (max(updates, 1) * eta**2 * radius2(run_data) ** 2 * den**2 * scale**4
            < FLOAT_EXACT_LIMIT)


@dataclass(frozen=True)
class _Rounding:
    """How far float64 rounding can move a perceptron's run on a scenario where it is not
    exact, bounded from the exact run's magnitudes.

    A float64 perceptron that makes the exact run's decisions (the same updates) has iterates
    `w~_t` with `|w~_t,j - w_t,j| <= drift` for every t and j, where, with `u = 2^-53`,
    `tiny = 2^-1074`, T the exact run's updates, W the largest `|w_t,j|` along it, X the
    largest `|x_ij|` (the bias coordinate's 1 included) and d the coordinates:
    `drift = 2 T (u W + 3 u eta X + tiny)`. Why: each update adds `eta y x_j` formed with at
    most two roundings (`eta` itself, the product; `y = +-1` is exact), so off by at most
    `3 u eta X + tiny` (underflow); the addition rounds once, by at most `u (W + drift)`
    (a sum of floats never underflows inexactly); over T updates the errors add up, and
    `T u <= 1/2` turns `drift <= T (u W + 3 u eta X + tiny) + T u drift` into the bound
    (with t updates made, the same holds with t for T). A score `y <w~_t, x>` computed in
    float64 in any order (np.dot, a loop, pairwise) is then off the exact `y <w_t, x>` by
    at most `score_t = d drift_t X + 2 d u d (W + drift_t) X + d tiny + tiny max(1, 1/eta)`
    (`score` is its largest, at t = T), and by nothing at t = 0, where `w~_0 = w_0 = 0`
    and every product is an exact zero: the drift moves it by at most `d drift_t X`; Higham's
    bound for a dot product in any order, `gamma_d sum |w~_j x_j|` with
    `gamma_d = d u / (1 - d u) <= 2 d u`, covers the rounding; `d tiny` the products that
    underflow, `tiny max(1, 1/eta)` a score scaled by `eta` that underflows to 0 (scaling
    by `y` or `eta` cannot change a sign otherwise).

    So when every score of the exact run (each visit of each epoch, t updates after the
    start) is farther than `score_t` from the threshold 0, induction on the visits shows
    that a float64 perceptron makes exactly the exact run's decisions (`flip` is then ''):
    its mistakes are the exact run's, and its weights within `drift` of the exact ones. A
    different number of mistakes or a deviation beyond `drift` is then no rounding (the
    check fails it). Otherwise `flip` names the visit where rounding may decide, and the
    differences stay notes.
    """

    drift: Fraction
    score: Fraction
    flip: str
    why: str

    @classmethod
    def of(cls, run_data: Dataset, conventions: Conventions, engine: RunResult) -> _Rounding:
        """The bounds for `engine`, the exact run on `run_data` (replayed visit by visit)."""
        eta, u, tiny, d = conventions.eta, UNIT_ROUNDOFF, SUBNORMAL, run_data.d
        X = max((abs(v) for row in run_data.X for v in row), default=Fraction(0))
        T = engine.mistakes
        assert T * u <= Fraction(1, 2) and d * u <= Fraction(1, 2), "far below any real run"
        assert isinstance(engine.trace, Trace)
        W = max((abs(a) for w_t in engine.trace.iterates() for a in w_t), default=Fraction(0))

        def drift(t: int) -> Fraction:
            return 2 * t * (u * W + 3 * u * eta * X + tiny)

        def score(t: int) -> Fraction:
            return (d * drift(t) * X + 2 * d * u * d * (W + drift(t)) * X + d * tiny
                    + tiny * max(1, 1 / eta)) if t else Fraction(0)

        w: Vector = tuple(Fraction(0) for _ in range(d))
        t, least = 0, None
        for epoch in range(1, engine.epochs + 1):
            for i, (x, y) in enumerate(zip(run_data.X, run_data.y, strict=True)):
                s = y * dot(w, x)
                if t and abs(s) <= score(t):
                    flip = (f"the exact run's score y<w_{t}, x> = {beside(s)} on example {i}"
                            f" in epoch {epoch} is within {_about(score(t))} of 0, the bound "
                            f"on float64's error of that score, so rounding may decide there")
                    return cls(drift(T), score(T), flip, "")
                if t and (least is None or abs(s) < least):
                    least = abs(s)
                if conventions.updates(s, y):
                    w = tuple(a + eta * y * b for a, b in zip(w, x, strict=True))
                    t += 1
        assert w == engine.w, "the replay is the exact run"
        why = (f"every score of the exact run past w_0 is at least "
               f"{'(none)' if least is None else _about(least)} from 0, more than "
               f"{_about(score(T))}, the bound on float64's error of a score here, so a float64 "
               f"perceptron makes the exact run's updates, its weights within "
               f"{_about(drift(T))} of the exact ones")
        return cls(drift(T), score(T), "", why)

    @property
    def drift_text(self) -> str:
        """The drift bound, in a few digits."""
        return _about(self.drift)


def _scenario(fit: Fit, source: str, scenario: Scenario, conventions: Conventions,
              max_epochs: int, theory_only: bool) -> list[ScenarioOutcome]:
    """Every call `plan` makes on one scenario, in order, on the same `fit`."""
    handed = _Handover.of(scenario, conventions.bias, integers=source != PROTOCOL)
    max_epochs = budget(source, max_epochs)
    full = run_online(handed.data, conventions, max_epochs=max_epochs)
    negated: tuple[_Handover, RunResult] | None = None
    outcomes = []
    for call in plan(source, full):
        if call.negate:
            flipped = handed.negated()
            negated = (flipped, run_online(flipped.data, conventions, max_epochs=max_epochs))
        given, run = negated if call.negate and negated else (handed, full)
        outcomes.append(_call(fit, source, scenario.origin, given, run, call, conventions,
                              max_epochs, theory_only))
    return outcomes


@dataclass
class _Findings:
    """What one call showed: `defects` fail whatever the arithmetic; `found` are differences
    from the exact run, each with its size (the largest weight deviation it stands for, or
    None for a difference of decisions: an update made or not), which fail where float64 is
    exact, and elsewhere unless `_Rounding` shows that float64 can explain them."""

    defects: list[str] = field(default_factory=list)
    found: list[tuple[str, Fraction | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rate: str = ""  # the learning-rate hint a finding ends with (`rate_hint`), if one does


def _call(fit: Fit, source: str, origin: Origin, handed: _Handover, full: RunResult,
          call: Call, conventions: Conventions, max_epochs: int, theory_only: bool
          ) -> ScenarioOutcome:
    """One call of `fit`, checked against the exact run (or, theory only, on its own)."""
    run_data = handed.run_data
    engine = (full if call.epochs is None else
              run_online(handed.data, conventions, max_epochs=call.epochs))
    bound = handed.bound
    epochs = (call.epochs if call.epochs is not None
              else _any_order_epochs(bound, max_epochs) if theory_only
              else engine.epochs if engine.converged else max_epochs)
    comparable = engine.converged or engine.epochs == epochs
    # any order of updates makes at most floor(bound) of them; the engine's order, its own
    longest = (floor(bound) if theory_only and bound is not None
               else max(engine.mistakes, full.mistakes))
    exact_floats = _float_exact(run_data, conventions, longest)
    seen = _Findings()
    X, y = handed.X.copy(), handed.y.copy()
    if call.read_only:
        X.setflags(write=False)
        y.setflags(write=False)
    fitted = None
    try:
        returned = fit(X, y, epochs)
    except Exception as error:  # the implementation's failure is the finding
        seen.defects.append(_raised(error, call))
    else:
        try:
            fitted = as_fitted(returned)
        except (ValueError, TypeError) as error:  # so is a return value it cannot read
            seen.defects.append(f"returned {_short(returned)}, which is no weight vector, "
                                f"(w, mistakes) or (w, mistakes, iterates): {error}")
    seen.defects.extend(_modified(X, handed.X, "X") + _modified(y, handed.y, "y"))
    w = iterates = mistakes = deviation = first = theory = None
    order = False
    if fitted is not None:
        w, iterates, mistakes = _read(fitted, run_data.d, conventions.bias, seen,
                                      epochs * run_data.n)
        # finished when given what the exact run needed to converge (the engine may stop
        # at the budget: the protocol's long run with a bias), or enough for any order
        finished = call.epochs is None and (epochs == _any_order_epochs(bound, None)
                                            if theory_only else engine.converged)
        if iterates is not None:
            theory = check_run(handed.data, iterates, u=handed.u, conventions=conventions,
                               finished=finished)
        if theory_only:
            _own_run(w, iterates, mistakes, theory, epochs, run_data.n, seen)
        else:
            before = len(seen.found)
            deviation, first, order = _against(w, iterates, mistakes, theory, engine, full,
                                               run_data, comparable, epochs, seen)
            assert theory is not None or not order
            more = None
            if order and not theory.ok:  # type: ignore[union-attr]
                more = _finishes(fit, handed, conventions, bound, max_epochs)
                order = more is not None
            if order:
                seen.found[before:] = [(_order_text(theory, engine, first, more, bound), None)]  # type: ignore[arg-type]
        if mistakes is not None and bound is not None and mistakes > bound:
            seen.found.append((f"made {mistakes} mistakes, more than the Novikoff bound "
                               f"R^2 ||u||^2 / gamma_u^2 = {beside(bound)} "
                               f"(at most {floor(bound)})", None))
    if not comparable and not theory_only:
        seen.notes.append(f"not compared: the data handed over are not separable, and the "
                          f"engine stopped early ({engine.reason})")
    rounding = (None if exact_floats or theory_only
                else _Rounding.of(run_data, conventions, engine))
    if (not exact_floats and (rounding is None or rounding.flip) and iterates is not None
            and theory is not None):
        seen.defects.extend(_unexplained_update(iterates, theory, run_data, conventions))
    problems = list(seen.defects)
    for text, size in seen.found:
        if exact_floats:
            problems.append(text)
        elif rounding is None:
            seen.notes.append(f"{text} (float64 is not proven exact here, and with "
                              f"theory_only no exact run bounds its rounding)")
        elif rounding.flip:
            seen.notes.append(f"{text} (float64 may round here: {rounding.flip})")
        elif size is not None and size <= rounding.drift:
            seen.notes.append(f"{text} (float64 may round here: within {rounding.drift_text}"
                              f", the bound on float64's rounding of w along the exact run)")
        else:
            said = any("no float64 rounding explains this" in p for p in problems)
            problems.append(f"{text} (no float64 rounding explains this"
                            + (", as above)" if said else f": {rounding.why})"))
    decided = exact_floats or (rounding is not None and not rounding.flip)
    return ScenarioOutcome(source, origin, handed.data.name, handed.data.n, handed.data.d,
                           epochs, exact_floats, bound, engine, w, mistakes, deviation, first,
                           theory, tuple(problems), tuple(seen.notes), handed.X, handed.y,
                           call, order and decided,
                           returned=None if fitted is None else (w, iterates, mistakes),
                           rate_hint=seen.rate)


def _unexplained_update(iterates: Sequence[Vector], theory: TheoryReport, run_data: Dataset,
                        conventions: Conventions) -> list[str]:
    """The first update of the implementation's own iterates whose exact score is farther
    above 0 than float64's error of that score can reach, if any: no rounding explains it,
    whatever the rest of the run (a check of its own iterates, so it needs no exact run).

    The score `y <w_{t-1}, x>` of its own iterate (float64 values, held exactly) computed in
    float64 in any order is off by at most `2 d u sum_j |w_j x_j| + d tiny + tiny max(1,
    1/eta)` (`_Rounding`'s bound with no drift: Higham's dot-product bound, products that
    underflow, a scaling by eta that underflows to 0), so above that it cannot be <= 0."""
    if theory.check("update-condition").status != "violated":
        return []
    eta = conventions.eta
    for t, i in enumerate(theory.examples, start=1):
        w, x, y = iterates[t - 1], run_data.X[i], run_data.y[i]
        score = y * dot(w, x)
        error = score_rounding(w, x, eta)
        if score > error:
            return [f"its update {t} is on example {i} (y = {y:+d}) with y<w_{t - 1}, x> = "
                    f"{beside(score)}, above {_about(error)}, the bound on float64's error of "
                    f"that score: no float64 rounding makes it trigger an update"]
    return []


def _any_order_epochs(bound: Fraction | None, cap: int | None) -> int:
    """Epochs enough for the perceptron in any order to converge: every epoch but the last
    makes an update, and there are at most floor(bound) of them (capped by `cap`)."""
    need = 1_000_000_000 if bound is None else floor(bound) + 1
    return need if cap is None else min(need, cap)


def _raised(error: Exception, call: Call) -> str:
    """What a fit's exception says, on one printable line (`described`: red team 31, a
    message quoting escape sequences reached the terminal raw, as a plug-in's once did)."""
    text = f"fit raised {described(error)}"
    if call.read_only:
        return (f"{text}, on read-only X and y (flags.writeable False): it writes into the "
                f"arrays it is given; work on a copy (np.array(X, dtype=float))")
    if call.repeat:
        return f"{text}, fitting again an instance that had fitted this scenario"
    return text


def _modified(now: np.ndarray, before: np.ndarray, name: str) -> list[str]:
    """A problem when `fit` wrote into the array it was handed."""
    if np.array_equal(now, before):
        return []
    at = tuple(int(k) for k in np.argwhere(now != before)[0])
    return [f"fit modified the {name} it was handed: at {name}{list(at)} it was "
            f"{before[at].item()!r}, it is now {now[at].item()!r}; it must leave its inputs alone"]


def _short(value: object, limit: int = 80) -> str:
    """A returned value in at most `limit` characters, with its type."""
    text = " ".join(repr(value).split())
    return f"{type(value).__name__} {text if len(text) <= limit else text[:limit] + '...'}"


def _vector(values: object, what: str, seen: _Findings) -> Vector | None:
    """Returned weights as exact numbers, or None with a defect when one is not a finite
    real number: NaN, an infinity, None, a complex, text (numbers are returned as numbers,
    not written), a container. Such a return is a fault of that call, never the checker's."""
    try:
        array = np.asarray(values, dtype=object)
    except (ValueError, TypeError) as error:  # a ragged nest numpy cannot lay out
        seen.defects.append(f"returned {what} that are no vector: {error}")
        return None
    if sum(1 for k in array.shape if k > 1) > 1:
        # A row (1, d) or column (d, 1) is a vector; an array with two axes longer than 1
        # is not, even if its entries read in order are the right weights (red team 27:
        # w.reshape(2, -1) passed as identical to the engine's w).
        seen.defects.append(f"returned {what} of shape {array.shape}: no vector (a vector, "
                            f"one row or one column is expected)")
        return None
    if (isinstance(values, np.ndarray) and values.dtype == np.float64
            and bool(np.isfinite(values).all())):
        # what most fits return: each entry's binary value, as `exact` reads a float64, with
        # no type dispatch per entry (about a fifth of a shuffled fit's theory-only check)
        return tuple(map(Fraction, values.ravel().tolist()))
    flat = np.ravel(array)
    out = []
    for j, v in enumerate(flat):
        try:
            if isinstance(v, (str, bytes)):
                raise ValueError(f"{v!r} is text, not a number")
            out.append(exact(v))
        except (ValueError, TypeError, ArithmeticError) as error:  # DataError among them
            said = " ".join(str(error).split())
            seen.defects.append(f"returned {what} with an entry that is no finite real "
                                f"number: at [{j}], {said[:160]}")
            return None
    return tuple(out)


def _bias_hint(width: int, d: int, bias: bool) -> str:
    """The likely reason for weights one too many or one too few: a bias the conventions do
    not claim, or claimed and not returned (newcomer 30: scikit-learn with
    `fit_intercept=True` checked without `Conventions(bias=True)` said only "returned 2
    weights; the data need 1")."""
    if not bias and width == d + 1:
        return ("; if the last is a bias, check it with conventions=Conventions(bias=True), "
                "which appends a constant 1 to every example")
    if bias and width == d - 1:
        return ("; the conventions claim a bias (Conventions(bias=True)): return it last, or "
                "check without it")
    return ""


def listed_iterates(returned: object, updates: int, defects: list[str],
                    algorithm: str = "perceptron") -> list[object] | None:
    """The iterates a fit returned, as a list of at most `updates + 1`, or None with the
    defect said in `defects`: iterates that are no iterable, that raise as they are read (a
    lazy iterable's own failure is the implementation's, review 33), or more than the
    `algorithm` can make, which updates at most once per example it is shown (`updates` =
    epochs times examples). At most `updates + 2` are read, so an endless iterable is not
    read to the end (red team 33 F6: a generator yielding w forever took 4 GB in 30 s). The
    one reader of `check_implementation` and `check_margin_implementation`."""
    try:
        listed = list(itertools.islice(returned, updates + 2))  # type: ignore[call-overload]
    except TypeError as error:
        defects.append(f"returned iterates that are no sequence: {error}")
        return None
    except Exception as error:
        defects.append(f"its iterates raised {type(error).__name__}: {error}")
        return None
    if len(listed) > updates + 1:
        defects.append(f"returned more than {updates + 1} iterates: the {algorithm} makes at "
                       f"most {updates} updates here (one per example shown, each epoch "
                       "showing each example once)")
        return None
    return listed


def _read(fitted: Fitted, d: int, bias: bool, seen: _Findings, updates: int
          ) -> tuple[Vector | None, list[Vector] | None, int | None]:
    """The final w, the iterates and the mistakes, exactly (a wrong width, a weight that is
    no finite number, are defects); the iterates as `listed_iterates` reads them."""
    w = _vector(fitted.w, "weights", seen)
    if w is not None and len(w) != d:
        seen.defects.append(f"returned {len(w)} weights; the data need {d}"
                            + (" (the bias last)" if bias else "") + _bias_hint(len(w), d, bias))
        w = None
    iterates: list[Vector] | None = None
    if fitted.iterates is not None:
        listed = listed_iterates(fitted.iterates, updates, seen.defects)
        read = ([_vector(it, f"the iterate w_{t}", seen) for t, it in enumerate(listed)]
                if listed is not None else [None])
        iterates = None if any(it is None for it in read) else read  # type: ignore[assignment]
    if iterates is not None and any(len(it) != d for it in iterates):
        seen.defects.append(f"returned iterates that do not all have {d} coordinates")
        iterates = None
    mistakes = fitted.mistakes
    if mistakes is None and iterates is not None:
        mistakes = len(iterates) - 1
    return w, iterates, mistakes


def _against(w: Vector | None, iterates: list[Vector] | None, mistakes: int | None,
             theory: TheoryReport | None, engine: RunResult, full: RunResult,
             run_data: Dataset, comparable: bool, epochs: int, seen: _Findings
             ) -> tuple[Fraction | None, int | None, bool]:
    """Compare with the exact run: `(max deviation, first differing iterate, whether the
    only difference is the order of a legal complete run)`."""
    found: list[tuple[str, Fraction | None]] = []
    deviation = first = None
    hint = ""
    if w is not None and comparable:
        deviation = max((abs(a - b) for a, b in zip(w, engine.w, strict=True)),
                        default=Fraction(0))
        if deviation:
            where = w_hint(w, full)
            seen.rate = "" if where else rate_hint(w, full)
            found.append((f"final w differs from the exact perceptron's (max deviation "
                          f"{beside(deviation)}): implementation {vector_text(w)}, exact "
                          f"{vector_text(engine.w)} ({run_text(engine)}){where or seen.rate}",
                          deviation))
    if mistakes is not None and comparable and mistakes != engine.mistakes:
        found.append((f"made {mistakes} mistakes; the exact perceptron makes "
                      f"{engine.mistakes} ({run_text(engine)})", None))
    if iterates is not None:
        assert isinstance(engine.trace, Trace)
        theirs = list(engine.trace.iterates())  # replayed once for both comparisons
        first = _first_difference(iterates, theirs)
        hint = "" if first is None else epochs_hint(iterates, full, epochs)
        apart = _apart(iterates, theirs)
        if first is not None:
            found.append((f"{_parting(first, len(iterates), engine)}: "
                          f"{hint or divergence(iterates, engine, first, run_data)}", apart))
        assert theory is not None
        if not theory.ok:
            found.append((f"its iterates break the theory: {theory.first_violation}", apart))
    violated = set() if theory is None else {c.name for c in theory.checks
                                              if c.status == "violated"}
    order = (first is not None and not hint and violated <= {"converged"}
             and len(iterates) - 1 <= epochs * run_data.n  # type: ignore[arg-type]
             and w == iterates[-1] and mistakes == len(iterates) - 1)  # type: ignore[index]
    seen.found.extend(found)
    return deviation, first, order


def _finishes(fit: Fit, handed: _Handover, conventions: Conventions, bound: Fraction | None,
              max_epochs: int) -> tuple[int, bool] | None:
    """`(epochs, finished)`: the epochs enough for any order (`_any_order_epochs`, at most
    `max_epochs`) and whether, given them, `fit` made a legal finished run (a perceptron in
    another order that needs more epochs than the cyclic one); `finished` False when it made
    a legal run cut there by `max_epochs` before the epochs the bound allows any order
    (floor(bound) + 1), which breaks nothing of the theory (newcomer 26, F4: the reversed
    order, 2018 epochs where the cap gave 1042, was said to 'break the theory:
    [converged]'); None otherwise."""
    epochs = _any_order_epochs(bound, max_epochs)
    try:
        fitted = as_fitted(fit(handed.X.copy(), handed.y.copy(), epochs))
    except Exception:  # then it is not that: the first call's findings stand
        return None
    _, iterates, _ = _read(fitted, handed.run_data.d, handed.bias, _Findings(),
                           epochs * handed.run_data.n)
    if iterates is None:
        return None
    again = check_run(handed.data, iterates, u=handed.u, conventions=conventions, finished=True)
    if again.ok:
        return epochs, True
    capped = epochs < _any_order_epochs(bound, None)
    cut = {c.name for c in again.checks if c.status == "violated"} == {"converged"}
    return (epochs, False) if capped and cut else None


def _order_text(theory: TheoryReport, engine: RunResult, t: int,
                more: tuple[int, bool] | None, bound: Fraction | None) -> str:
    """The message for a legal run in another order than the engine's (finished with `more`
    epochs, where the cyclic run's were not enough; or, `more` unfinished, cut by the cap
    before the epochs the bound allows any order)."""
    trace = engine.trace
    assert isinstance(trace, Trace)
    theirs = (f"the exact perceptron's is on example {int(trace.indices[t - 1])} (epoch "
              f"{int(trace.epochs[t - 1])})" if t <= len(trace)
              else f"the exact perceptron makes {len(trace)}")
    mine = (f"its update {t} is on example {theory.examples[t - 1]}"
            if t <= len(theory.examples) else f"it makes {t - 1} updates")
    if more is None:
        finish = "finished, given the epochs the exact run needs"
    elif more[1]:
        finish = f"unfinished after the epochs the cyclic order needs; given {more[0]} it finishes"
    else:
        finish = (f"unfinished after the epochs the cyclic order needs, and after {more[0]}, "
                  f"the most this check gives (max_epochs), fewer than the "
                  f"{_any_order_epochs(bound, None)} the bound allows any order")
    return (f"visits the examples in another order than the exact perceptron (cyclic, in "
            f"the order handed over): {mine}, {theirs}. Its own iterates are a legal "
            f"perceptron run that obeys the theory ({finish}); if the order is intended (a "
            f"shuffled perceptron), check it with check_implementation(fit, theory_only=True)")


def _own_run(w: Vector | None, iterates: list[Vector] | None, mistakes: int | None,
             theory: TheoryReport | None, epochs: int, n: int, seen: _Findings) -> None:
    """Theory only: the implementation's own run must be consistent and obey the theory."""
    if iterates is None:
        seen.defects.append("returned no iterates: theory_only=True checks the "
                            "implementation's own run; return (w, mistakes, iterates) or "
                            "verify.Fitted")
        return
    if w is not None and w != iterates[-1]:
        seen.found.append((f"its final w {vector_text(w)} is not its last iterate "
                           f"{vector_text(iterates[-1])}", None))
    if mistakes is not None and mistakes != len(iterates) - 1:
        seen.found.append((f"reports {mistakes} mistakes but returns {len(iterates) - 1} "
                           f"updates", None))
    if len(iterates) - 1 > epochs * n:
        seen.found.append((f"made {len(iterates) - 1} updates in epochs={epochs} of {n} "
                           f"examples: at most {epochs * n} are possible (one visit of each "
                           f"example per epoch)", None))
    assert theory is not None
    if not theory.ok:
        seen.found.append((f"its iterates break the theory: {theory.first_violation}", None))


def _apart(iterates: Sequence[Vector], theirs: Sequence[Vector]) -> Fraction | None:
    """The largest coordinate deviation of the iterates from the engine's (`theirs`), when
    there are as many; None when their numbers differ (a difference of decisions, not of
    rounding)."""
    if len(iterates) != len(theirs):
        return None
    return max((abs(a - b) for mine, exact_w in zip(iterates, theirs, strict=True)
                for a, b in zip(mine, exact_w, strict=True)), default=Fraction(0))


def _parting(first: int, count: int, engine: RunResult) -> str:
    """Where the implementation's `count` iterates part from the exact run's, `first` the
    first index they do not share: they stop while the exact run goes on, go on past its
    end, or leave it (newcomer 28: a one-pass fit whose iterates end at w_2 read "its
    iterates leave the exact perceptron's at w_3", an iterate it never had)."""
    if first == count:
        return (f"its iterates stop at w_{first - 1} where the exact perceptron's go on to "
                f"w_{first}")
    assert isinstance(engine.trace, Trace)
    if first == len(engine.trace) + 1:
        return (f"its iterates go on past w_{first - 1}, where the exact perceptron's end, "
                f"to w_{first}")
    return f"its iterates leave the exact perceptron's at w_{first}"


def _first_difference(iterates: Sequence[Vector], theirs: Sequence[Vector]) -> int | None:
    """The first t where the iterates differ from the engine's `w_t` (`theirs`), or where
    one sequence ends before the other; None when identical."""
    for t, (a, b) in enumerate(zip(iterates, theirs, strict=False)):
        if a != b:
            return t
    return None if len(iterates) == len(theirs) else min(len(iterates), len(theirs))
