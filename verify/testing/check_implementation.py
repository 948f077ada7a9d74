"""Checking a third-party perceptron against the exact engine and the Novikoff bound.

`check_implementation(fit)` feeds an implementation the adversarial sequences of the
campaigns (`verify.numeric.campaign`: tight orthonormal families, the online adversary's sequences,
planted separable data) and compares what it returns with `perceptron.algorithms.online.run_online`
under the conventions it claims to follow.

Each scenario is handed over as float64: the data scaled by their common denominator to
integers (with `w_0 = 0` and no bias the perceptron is scale invariant, so this is the same
run), and the engine runs on the exact binary values of exactly those floats, so the two
always see the same data. Whether float64 arithmetic can be exact on a scenario is decided
a priori: every value a perceptron forms along the exact run is an integer multiple of
`2^-e` (eta = p / 2^e) bounded by `sqrt(T) eta R^2` (Novikoff's `||w_t||^2 <= t eta^2 R^2`
and Cauchy–Schwarz), so `T eta^2 R^4 4^e < 2^106` makes every operation exact. There, any
difference from the engine is a defect of the implementation (a *problem*); elsewhere it is
reported as a *note* with its exact size, since rounding alone can explain it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import floor
from typing import Any

import numpy as np

from perceptron.algorithms.online import run_online
from perceptron.algorithms.trace import Trace
from perceptron.conventions import DEFAULT, Conventions
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.bound import mistake_bound, normalised_margin2
from perceptron.geometry.linear import norm2, radius2, scaled_rows
from perceptron.numbers import as_text, exact
from perceptron.result import RunResult
from verify.numeric.campaign import Scenario
from verify.numeric.instances import Origin
from verify.testing.check_run import TheoryReport, check_run
from verify.vocabulary import margin

#: The default sources, by their campaign names.
SOURCES = ("tight", "adversary", "generated")
#: Up to this many numbers, a failing scenario's data are printed whole in its reproducer.
REPRODUCER_LIMIT = 400
#: Float64 is exact for a scenario when `T eta^2 R^4 4^e` stays below this (see above).
FLOAT_EXACT_LIMIT = 2**106


@dataclass(frozen=True)
class Fitted:
    """What an implementation returns: its final weights, and optionally its number of
    mistakes (updates) and its iterates `w_0, ..., w_T` (one per update), bias last."""

    w: Sequence[object]
    mistakes: int | None = None
    iterates: Sequence[Sequence[object]] | None = None


#: A perceptron under test: `fit(X, y, epochs)` with X float64 (n, d), y int64 in {-1, +1}.
Fit = Callable[[np.ndarray, np.ndarray, int], Any]


def as_fitted(value: object) -> Fitted:
    """Read a `fit` result: a `Fitted`, a weight vector (a 1-row 2-D array is raveled), or
    a tuple `(w, mistakes)` / `(w, mistakes, iterates)`."""
    if isinstance(value, Fitted):
        return value
    if isinstance(value, tuple) and value and np.ndim(value[0]) >= 1:
        w, mistakes, iterates = (*value, None, None)[:3]
        return Fitted(np.ravel(np.asarray(w, dtype=object)), _count(mistakes), iterates)
    return Fitted(np.ravel(np.asarray(value, dtype=object)))


def _count(mistakes: object) -> int | None:
    if mistakes is None:
        return None
    if int(mistakes) != mistakes:  # type: ignore[call-overload]
        raise ValueError(f"a mistake count must be an integer, not {mistakes!r}")
    return int(mistakes)  # type: ignore[call-overload]


def _text(v: Sequence[Fraction], limit: int = 8) -> str:
    shown = ", ".join(as_text(a) for a in v[:limit])
    return f"({shown}{', ...' if len(v) > limit else ''})"


@dataclass(frozen=True)
class ScenarioOutcome:
    """One scenario: what the implementation and the exact engine did, and how they differ.

    `problems` fail the check; `notes` are differences on inputs where float64 may round.
    `max_deviation` is `max_j |w_j - w*_j|` against the engine's `w*`, exactly (0 when
    identical; None when the weights could not be compared).
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

    @property
    def ok(self) -> bool:
        """No problem found."""
        return not self.problems

    def reproducer(self, limit: int = REPRODUCER_LIMIT) -> str:
        """Python that hands the implementation this scenario's data exactly as
        `check_implementation` did (float64 written with `repr`, which round-trips), or,
        past `limit` numbers, the first rows and how to regenerate the scenario."""
        if self.X is None or self.y is None:
            return f"# scenario {self.where}: data not kept"
        rows = self.X.tolist()
        shown = rows if self.X.size <= limit else rows[:max(1, limit // max(self.d, 1))]
        body = ",\n     ".join("[" + ", ".join(map(repr, row)) + "]" for row in shown)
        lines = [f"X = np.array([{body}])", f"y = np.array({self.y.tolist()!r})",
                 f"fit(X, y, {self.epochs})"]
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
        return f"{self.source}{seed} {self.dataset} (n={self.n}, d={self.d})"


@dataclass(frozen=True)
class ImplementationReport:
    """Every scenario of `check_implementation`, with the verdict for tests."""

    implementation: str
    conventions: Conventions
    outcomes: tuple[ScenarioOutcome, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """No scenario has a problem."""
        return all(o.ok for o in self.outcomes)

    @property
    def failures(self) -> tuple[ScenarioOutcome, ...]:
        """The scenarios with problems, in the order run."""
        return tuple(o for o in self.outcomes if not o.ok)

    @property
    def first_failure(self) -> ScenarioOutcome | None:
        """The first scenario with a problem."""
        return next(iter(self.failures), None)

    @property
    def simplest_failure(self) -> ScenarioOutcome | None:
        """The failing scenario with the fewest numbers (n * d, then n): the easiest to read."""
        return min(self.failures, key=lambda o: (o.n * o.d, o.n), default=None)

    @property
    def max_deviation(self) -> Fraction:
        """The largest weight deviation from the engine over all scenarios, exactly."""
        return max((o.max_deviation for o in self.outcomes if o.max_deviation is not None),
                   default=Fraction(0))

    def by_source(self) -> dict[str, tuple[ScenarioOutcome, ...]]:
        """The outcomes grouped by source."""
        out: dict[str, list[ScenarioOutcome]] = {}
        for o in self.outcomes:
            out.setdefault(o.source, []).append(o)
        return {k: tuple(v) for k, v in out.items()}

    def summary(self) -> str:
        """One line per source: scenarios, identical, float-exact, problems, max deviation."""
        lines = [f"{self.implementation} vs the exact perceptron "
                 f"({self.conventions.describe()})"]
        for source, group in self.by_source().items():
            worst = max((o.max_deviation for o in group if o.max_deviation is not None),
                        default=Fraction(0))
            lines.append(f"  {source:<10} scenarios {len(group):<4} identical "
                         f"{sum(o.identical for o in group):<4} float-exact "
                         f"{sum(o.float_exact for o in group):<4} problems "
                         f"{sum(not o.ok for o in group):<4} max deviation {as_text(worst)}")
        return "\n".join(lines)

    def raise_for_violations(self) -> None:
        """Raise an AssertionError naming the simplest failing scenario and its problems."""
        __tracebackhide__ = True  # pytest: the failure is the caller's
        first = self.simplest_failure
        if first is None:
            return
        lines = [f"{self.implementation} is not the perceptron it claims to be "
                 f"({self.conventions.describe()}): {len(self.failures)} of "
                 f"{len(self.outcomes)} scenarios fail; simplest: {first.where}"]
        lines.extend(f"  - {p}" for p in first.problems)
        lines.append("  reproduce with exactly the data handed over:")
        lines.extend(f"    {line}" for line in first.reproducer().splitlines())
        more = [o for o in self.failures if o is not first]
        if more:
            sources = ", ".join(sorted({o.source for o in more}))
            lines.append(f"  ({len(more)} more failing scenario{'s' if len(more) > 1 else ''}"
                         f", in: {sources})")
        raise AssertionError("\n".join(lines))


def check_implementation(fit: Fit, *, sources: Sequence[str] | Mapping[str, Iterable[Scenario]]
                         = SOURCES, seed: int = 0, count: int = 8,
                         conventions: Conventions = DEFAULT, max_epochs: int = 200,
                         name: str | None = None) -> ImplementationReport:
    """Run `fit` on adversarial sequences and compare it with the exact engine and the bound.

    `fit(X, y, epochs)` gets X float64 of shape (n, d) and y int64 in {-1, +1}, and returns
    its weight vector (bias last when `conventions.bias`), or a `Fitted` / tuple with its
    mistakes and iterates. `sources`: names among `tight`, `adversary`, `generated`,
    `orders` (each `count` scenarios from `seed`), or a mapping of source name to
    `verify.numeric.campaign.Scenario`s. `conventions` are the ones the implementation claims (the
    engine runs under them; `w0` must be None: `fit` has no way to receive one).
    """
    if conventions.w0 is not None:
        raise ValueError("fit(X, y, epochs) cannot receive w0: check with w0=None")
    chosen = sources if isinstance(sources, Mapping) else builtin_sources(sources, seed, count)
    label = name or getattr(fit, "__name__", None) or repr(fit)
    outcomes = [_compare(fit, source, scenario, conventions, max_epochs)
                for source, scenarios in chosen.items() for scenario in scenarios]
    return ImplementationReport(label, conventions, tuple(outcomes))


def builtin_sources(names: Sequence[str], seed: int, count: int
                    ) -> dict[str, Iterable[Scenario]]:
    """The campaign sources by name, `count` scenarios each (the adversary: bounds
    `1..count`, every (R2, gamma) shape)."""
    from verify.numeric import campaign

    makers: dict[str, Callable[[], Iterable[Scenario]]] = {
        "tight": lambda: campaign.tight(seed, count),
        "adversary": lambda: campaign.adversary(seed, tuple(range(1, count + 1))),
        "generated": lambda: campaign.generated(seed, count),
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

    @classmethod
    def of(cls, scenario: Scenario, bias: bool) -> _Handover:
        _, rows = scaled_rows(scenario.data)
        X = np.array([[float(v) for v in row] for row in rows], dtype=np.float64)
        y = np.array(scenario.data.y, dtype=np.int64)
        data = Dataset.of(X.tolist(), scenario.data.y, scenario.data.name)
        u = (*scenario.u, Fraction(0)) if bias else tuple(scenario.u)
        return cls(X, y, data, _still_separating(data.augmented() if bias else data, u))


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
    if den & (den - 1) or eta.numerator >= 2**53 or run_data.scale() != 1:
        return False
    return max(updates, 1) * eta**2 * radius2(run_data) ** 2 * den**2 < FLOAT_EXACT_LIMIT


def _compare(fit: Fit, source: str, scenario: Scenario, conventions: Conventions,
             max_epochs: int) -> ScenarioOutcome:
    bias = conventions.bias
    handed = _Handover.of(scenario, bias)
    run_data = handed.data.augmented() if bias else handed.data
    engine = run_online(handed.data, conventions, max_epochs=max_epochs)
    epochs = engine.epochs if engine.converged else max_epochs
    comparable = engine.converged or engine.epochs == max_epochs
    exact_floats = _float_exact(run_data, conventions, engine.mistakes)
    bound = (None if handed.u is None else mistake_bound(
        radius2(run_data), normalised_margin2(margin(run_data, handed.u), norm2(handed.u))))

    fitted = as_fitted(fit(handed.X.copy(), handed.y.copy(), epochs))
    defects: list[str] = []  # problems whatever the arithmetic
    found: list[str] = []  # differences, problems only where float64 is exact
    w = tuple(exact(v) for v in fitted.w)
    deviation = None
    if len(w) != run_data.d:
        defects.append(f"returned {len(w)} weights; the data need {run_data.d}"
                     + (" (the bias last)" if bias else ""))
        w = None  # type: ignore[assignment]
    elif comparable:
        deviation = max((abs(a - b) for a, b in zip(w, engine.w, strict=True)),
                        default=Fraction(0))
        if deviation:
            found.append(f"final w differs from the exact perceptron's (max deviation "
                         f"{as_text(deviation)}): implementation {_text(w)}, exact "
                         f"{_text(engine.w)}")
    iterates = ([tuple(exact(v) for v in np.ravel(np.asarray(it, dtype=object)))
                 for it in fitted.iterates] if fitted.iterates is not None else None)
    mistakes = fitted.mistakes
    if mistakes is None and iterates is not None:
        mistakes = len(iterates) - 1
    if mistakes is not None:
        if comparable and mistakes != engine.mistakes:
            found.append(f"made {mistakes} mistakes; the exact perceptron makes "
                         f"{engine.mistakes}")
        if bound is not None and mistakes > bound:
            found.append(f"made {mistakes} mistakes, more than the Novikoff bound "
                         f"R^2 ||u||^2 / gamma_u^2 = {as_text(bound)} "
                         f"(at most {floor(bound)})")
    first_difference = theory = None
    if iterates is not None:
        first_difference = _first_difference(iterates, engine)
        if first_difference is not None:
            found.append(f"its iterates leave the exact perceptron's at w_{first_difference}")
        theory = check_run(handed.data, iterates, u=handed.u, conventions=conventions)
        if not theory.ok:
            found.append(f"its iterates break the theory: {theory.first_violation}")
    notes: list[str] = []
    if not comparable:
        notes.append(f"not compared: the data handed over are not separable, and the engine "
                     f"stopped early ({engine.reason})")
    problems = defects + found if exact_floats else defects
    if not exact_floats:
        notes.extend(f"{f} (float64 may round here)" for f in found)
    return ScenarioOutcome(source, scenario.origin, handed.data.name, handed.data.n,
                           handed.data.d, epochs, exact_floats, bound, engine, w, mistakes,
                           deviation, first_difference, theory, tuple(problems), tuple(notes),
                           handed.X, handed.y)


def _first_difference(iterates: Sequence[Vector], engine: RunResult) -> int | None:
    """The first t where the iterates differ from the engine's `w_t` (or where one sequence
    ends before the other); None when identical."""
    assert isinstance(engine.trace, Trace)
    theirs = list(engine.trace.iterates())
    for t, (a, b) in enumerate(zip(iterates, theirs, strict=False)):
        if a != b:
            return t
    return None if len(iterates) == len(theirs) else min(len(iterates), len(theirs))


# ---- scikit-learn --------------------------------------------------------------------------

CLASSES = np.array([-1, 1])



class SklearnPerceptron:
    """`fit(X, y, epochs)` for scikit-learn's `Perceptron`, set up as the textbook perceptron.

    The final weights come from one `fit` (the code path users run). With `iterates=True`
    the trajectory is recorded as well, by `partial_fit` on one example at a time over the
    same epochs (an update is a visit that changes the weights): this gives the mistakes and
    every iterate, which scikit-learn does not report.
    """

    DEFAULTS: Mapping[str, object] = {"shuffle": False, "tol": None, "penalty": None,
                                      "eta0": 1, "fit_intercept": False}

    def __init__(self, *, iterates: bool = True, **params: object) -> None:
        self.iterates = iterates
        self.params = {**self.DEFAULTS, **params}
        self.__name__ = "scikit-learn Perceptron(" + ", ".join(
            f"{k}={v!r}" for k, v in self.params.items()) + ")"

    def _model(self, epochs: int) -> Any:
        from sklearn.linear_model import Perceptron

        return Perceptron(**{"max_iter": epochs, **self.params})

    def _weights(self, model: Any) -> np.ndarray:
        w = np.ravel(model.coef_)
        return np.append(w, model.intercept_) if self.params["fit_intercept"] else w

    def _fit(self, X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        """`fit`; on data with one label (which `fit` refuses), `epochs` calls of
        `partial_fit` with both classes declared, one epoch each."""
        model = self._model(epochs)
        if len(set(y.tolist())) == 2:
            return self._weights(model.fit(X, y))
        for _ in range(epochs):
            model.partial_fit(X, y, classes=CLASSES)
        return self._weights(model)

    def __call__(self, X: np.ndarray, y: np.ndarray, epochs: int) -> Fitted:
        w = self._fit(X, y, epochs)
        if not self.iterates:
            return Fitted(w)
        model = self._model(epochs)
        trajectory = [np.zeros_like(w)]
        for _ in range(epochs):
            changed = False
            for i in range(X.shape[0]):
                model.partial_fit(X[i:i + 1], y[i:i + 1], classes=CLASSES)
                now = self._weights(model)
                if not np.array_equal(now, trajectory[-1]):
                    trajectory.append(now.copy())
                    changed = True
            if not changed:
                break
        return Fitted(w, len(trajectory) - 1, trajectory)


def sklearn_fit(*, iterates: bool = True, **params: object) -> SklearnPerceptron:
    """scikit-learn's `Perceptron(shuffle=False, tol=None, penalty=None, eta0=1,
    fit_intercept=False, max_iter=epochs)` as a `fit` for `check_implementation`; `params`
    override those settings (say `eta0` to the implementation's eta, `fit_intercept=True`
    with a bias), and `iterates` records its trajectory."""
    return SklearnPerceptron(iterates=iterates, **params)
