"""The batch bound of `finite-sums`, read on exact batch runs (issue 31.1).

The audit runs `finite-sums` on batch runs (its families bound to the run's `X`, `Y`), its
sums evaluated on the rows (test_runs_families.py checks those values against the kernel's).
This test evaluates its statements on batch runs as the kernel evaluates a counterexample
(sums included, exactly): at every iteration of the batch perceptron with the oracle step,
the families `x`, `y` are the examples and labels (1-based), `theta` the iterate, `N` the
number of examples, `R2`, `xbar`, `mk` the run's. Then the proof's set M is the run's M_k
(the hypotheses of `xbar-norm`, which say that `xbar` and `mk` are the sums over M, hold),
and the claims of `xbar-sum-bound` and `xbar-norm` hold, with equality reached where the
members coincide."""

from __future__ import annotations

import functools
from fractions import Fraction

import pytest

from proofs.library import load_builtin
from verify import kernel
from verify.kernel.algebra import Rel, evaluate
from verify.kernel.atoms import gram
from verify.kernel.certificates import Point
from verify.numeric import campaign
from verify.proof_checker import check_proof
from verify.runs.batch import BatchRun, engine_batch_runner


@functools.cache
def statements() -> dict[str, kernel.Statement]:
    """The kernel's statements of the batch steps of `finite-sums` (every step proved)."""
    report = check_proof(load_builtin("finite-sums"))
    assert report.status == "proved"
    return {s.step.id: s.statement for s in report.steps if s.statement is not None}


def point(run: BatchRun, k: int) -> Point:
    """Iteration k of `run` as a concrete point of the proof's names."""
    data, it = run.data, run.iterations[k]
    R2, _ = run.constants
    return Point(kernel.Counterexample(
        {"N": Fraction(len(data.X)), "R2": R2, "mk": Fraction(len(it.members))},
        {"theta": tuple(it.theta), "xbar": tuple(it.xbar)},
        {"x": {Fraction(j + 1): tuple(x) for j, x in enumerate(data.X)},
         "y": {Fraction(j + 1): Fraction(y) for j, y in enumerate(data.y)}}))


def holds(relation: Rel, at: Point) -> bool:
    return evaluate(relation, relation.text, at.value)


def runs() -> list[BatchRun]:
    """Batch runs of planted data and orthonormal families (three starts each)."""
    scenarios = [*campaign.generated(7, 3), *campaign.tight(7, 3)]
    return [run for s in scenarios for run in engine_batch_runner(s) if run.iterations]


@pytest.mark.parametrize("step_id", ["xbar-sum-bound", "xbar-norm"])
def test_the_batch_bound_holds_at_every_iteration_of_batch_runs(step_id: str) -> None:
    stated = statements()[step_id]
    checked = tight = one_count_fails = 0
    for run in runs():
        for k in range(len(run.iterations)):
            at = point(run, k)
            assert all(holds(h, at) for h in stated.hypotheses), (step_id, k)
            assert holds(stated.claim, at), (step_id, k)
            checked += 1
            norm2, mk, R2 = (at.value(gram("xbar", "xbar")), len(run.iterations[k].members),
                             run.constants[0])
            tight += norm2 == mk ** 2 * R2
            one_count_fails += norm2 > mk * R2
    # 50 iterations; equality where M_k is one example of squared norm R2; and the runs tell
    # the square from the appendix's single count |M_k| R2, which fails on some of them
    assert checked >= 40 and tight >= 1 and one_count_fails >= 1


def test_the_proofs_set_is_the_runs_m_k() -> None:
    """The hypotheses `norm2(xbar) == norm2(sum(j in M, y[j]*x[j]))`, `mk == sum(j in M,
    1)` read M as the run's M_k; with `mk` off by one, the second fails."""
    stated = statements()["xbar-norm"]
    count = next(h for h in stated.hypotheses if h.text == "mk == sum(j in M, 1)")
    run = runs()[0]
    at = point(run, 0)
    assert holds(count, at)
    off = Point(kernel.Counterexample({**at.scalars, "mk": at.scalars["mk"] + 1}, at.vectors,
                                      at.families))
    assert not holds(count, off)
