"""Checking a third-party batch perceptron against the exact one.

`check_implementation` checks the online perceptron (one update per example it gets
wrong): a batch perceptron (`theta += alpha_k xbar_k`, `xbar_k` the sum of `y x` over the
examples `theta_k` gets wrong) fails it whether it is right or wrong. As a plug-in of a
batch proof (`audit_proofs(..., algorithms=...)`) a wrong one leaves the proof verified: a
step of twice the optimal size, one of the wrong sign or a single iteration makes the
steps about an iteration vacuous (their hypotheses false), never violated (newcomer nc35
K7: four wrong batch perceptrons passed `audit_proof`). `check_batch_implementation(fit)`
compares, iteration by iteration, what `fit` makes with `perceptron.algorithms.batch.
run_batch` on the same data from the same starts: each set `M_k`, each step `alpha_k`
(read exactly off the iterates, as the audit reads a plug-in's), and where the run stops.

`fit` is a batch plug-in (docs/api.md, *Your own batch algorithm*): `fit(data,
max_iterations, theta0, theta_star)` yields `(members, theta_after)` per iteration, exact
rationals, and each call runs in a child process of its own (`verify.runs.plugin`), so a
crash or a hang is a problem of that call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from perceptron.algorithms.batch import OptimalStep, run_batch
from perceptron.dataset import Vector
from perceptron.numbers import as_text, exact
from verify.runs.batch import BatchRun, batch_run_from_engine, batch_starts
from verify.runs.plugin import Algorithm, Plugin, PluginFault
from verify.runs.quantity import Scenario
from verify.testing.check_implementation import Calls, builtin_sources
from verify.typeset.words import counted

#: The campaign sources a batch perceptron is checked on by default.
BATCH_SOURCES = ("tight", "generated")


@dataclass(frozen=True)
class BatchOutcome:
    """One call: the scenario and start, the exact run's length and end, and the problems
    found (empty: every iteration as the exact run's)."""

    source: str
    name: str
    start: Vector
    iterations: int  # the exact run's
    converged: bool  # the exact run's: M_K empty at its last iterate
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """No problem."""
        return not self.problems

    def where(self) -> str:
        """The scenario and the start, as a call's problems name them."""
        return f"{self.source} {self.name}, theta0 = ({', '.join(map(as_text, self.start))})"


@dataclass(frozen=True)
class BatchReport(Calls[BatchOutcome]):
    """Every call of a `check_batch_implementation`."""

    name: str
    step: str  # the exact run's step rule, as described
    rule: str
    outcomes: tuple[BatchOutcome, ...]

    def summary(self) -> str:
        """One line per source: its calls and those with problems."""
        op = "<=" if self.rule == "le" else "<"
        lines = [f"{self.name} vs the exact batch perceptron ({self.step}, M_k = {{j : "
                 f"y_j <theta_k, x_j> {op} 0}})"]
        for source in dict.fromkeys(o.source for o in self.outcomes):
            mine = [o for o in self.outcomes if o.source == source]
            lines.append(f"  {source:<10} calls {len(mine):<4} problems "
                         f"{sum(not o.ok for o in mine)}")
        return "\n".join(lines)

    def raise_for_violations(self) -> None:
        """An AssertionError naming the first failing call and its problems."""
        if self.ok:
            return
        first = self.failures[0]
        raise AssertionError("\n".join([
            f"{self.name} is not the batch perceptron ({self.step}): {len(self.failures)} "
            f"of {len(self.outcomes)} calls fail; first: {first.where()}",
            *(f"  - {p}" for p in first.problems)]))


def check_batch_implementation(fit: Algorithm, *, step: object = "optimal",
                               rule: str = "le",
                               sources: Sequence[str] | Mapping[str, Iterable[Scenario]]
                               = BATCH_SOURCES, count: int = 4, seed: int = 0,
                               name: str | None = None) -> BatchReport:
    """Compare the batch plug-in `fit` with the exact batch perceptron on `count` scenarios
    of each source (or a mapping of your own `Scenario`s), from each of the built-in batch
    runs' starts (0, -theta_star, a seeded integer vector), at most each scenario's
    `max_iterations` iterations. `step`: `"optimal"` (the oracle-optimal
    `<theta_star, xbar>/||xbar||^2`, the built-in batch runs'), or a positive rational
    constant (`1`: the classical unit step); `rule`: `"le"` (update over `y<theta, x> <=
    0`) or `"lt"`. Sources that yield no scenario are a ValueError: a report of no call
    would say nothing of `fit`."""
    if rule not in ("le", "lt"):
        raise ValueError(f"unknown rule {rule!r}; use 'le' or 'lt'")
    if step != "optimal":
        step = exact(step)  # type: ignore[arg-type]
        if step <= 0:
            raise ValueError(f"step must be 'optimal' or a positive number, not {step}")
    label = name or getattr(fit, "__name__", "fit")
    plugin = Plugin.of(label, fit)
    chosen = sources if isinstance(sources, Mapping) else builtin_sources(
        list(sources), seed, count)
    outcomes: list[BatchOutcome] = []
    described = ("the oracle-optimal step alpha_k = <theta*, xbar_k>/||xbar_k||^2, theta* "
                 "each scenario's separator" if step == "optimal"
                 else f"constant step alpha = {as_text(step)}")  # type: ignore[arg-type]
    for source, scenarios in chosen.items():
        for scenario in scenarios:
            stepping = OptimalStep(scenario.u) if step == "optimal" else step
            for start in batch_starts(scenario):
                run = run_batch(scenario.data, step=stepping, w0=start, rule=rule,
                                max_iterations=scenario.max_iterations)
                exact_run = batch_run_from_engine(run, scenario.data, scenario.u, start)
                try:
                    theirs = plugin.run_batch(scenario.data, scenario.u, start,
                                              scenario.max_iterations)
                    problems = compare(exact_run, run.converged, theirs)
                except PluginFault as fault:
                    problems = (str(fault),)
                outcomes.append(BatchOutcome(source, scenario.data.name, start,
                                             len(exact_run.iterations), run.converged,
                                             problems))
    if not outcomes:
        raise ValueError("check_batch_implementation: the sources yield no scenario")
    return BatchReport(label, described, rule, tuple(outcomes))


def compare(exact_run: BatchRun, converged: bool, theirs: BatchRun) -> tuple[str, ...]:
    """The first iteration where `theirs` leaves `exact_run` (another set M_k, another
    step), else where it stops otherwise: one problem, since every later iterate follows
    from the first that differs."""
    mine, want = theirs.iterations, exact_run.iterations
    for k, (a, b) in enumerate(zip(want, mine, strict=False)):  # lengths compared below
        if a.members != b.members:
            return (f"iteration {k}: M_{k} = {_set(b.members)}, the exact run's is "
                    f"{_set(a.members)} (0-based example indices)",)
        if a.alpha != b.alpha:
            times = f"; {as_text(b.alpha / a.alpha)} times it" if a.alpha else ""
            return (f"iteration {k}: step alpha_{k} = {as_text(b.alpha)} along xbar_{k} "
                    f"(theta_{k + 1} = theta_{k} + alpha_{k} xbar_{k}), the exact run's is "
                    f"{as_text(a.alpha)}{times}",)
    if len(mine) < len(want):
        return (f"stopped after {counted(len(mine), 'iteration')} with M_{len(mine)} "
                f"non-empty; the exact run makes {len(want)}" + (
                    f" and stops with M_{len(want)} empty" if converged else
                    " (to its limit)"),)
    if len(mine) > len(want):
        return (f"made {counted(len(mine), 'iteration')}; the exact run stops after {len(want)}, "
                f"M_{len(want)} being empty" if converged else
                f"made {counted(len(mine), 'iteration')}, past the limit of {len(want)}",)
    return ()


def _set(members: Sequence[int]) -> str:
    """`{0, 2, 5}` (at most 8 shown)."""
    shown = ", ".join(map(str, members[:8])) + (", ..." if len(members) > 8 else "")
    return "{" + shown + "}"

