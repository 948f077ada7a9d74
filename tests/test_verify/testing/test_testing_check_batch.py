"""`check_batch_implementation`: a batch perceptron compared with the exact one, iteration by
iteration (newcomer nc35 K7: a step twice the optimal, one of the wrong sign and a single
iteration each left a batch proof verified as a plug-in, and `check_implementation`, the
online perceptron's check, fails a correct batch perceptron too)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from perceptron.dataset import Dataset, Vector
from verify.api import check_batch_implementation
from verify.testing.pytest_plugin import PerceptronTheory

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from examples.plugins.batch_perceptron import (  # noqa: E402
    dot,
    mistakes,
    optimal_step,
    signed_sum,
    unit_step,
)

Pairs = Iterator[tuple[tuple[int, ...], Vector]]


def _batch(data: Dataset, cap: int, theta0: Vector, theta_star: Vector, *, factor: int = 1,
           sign: int = 1, iterations: int | None = None, strict: bool = False) -> Pairs:
    """The oracle-optimal batch perceptron with one thing changed."""
    theta = tuple(theta0)
    for _ in range(cap if iterations is None else min(cap, iterations)):
        members = tuple(j for j in mistakes(data, theta)
                        if not strict or data.y[j] * dot(theta, data.X[j]) < 0)
        if not members:
            return
        xbar = signed_sum(data, members)
        alpha = factor * dot(theta_star, xbar) / dot(xbar, xbar)
        theta = tuple(t + sign * alpha * b for t, b in zip(theta, xbar, strict=True))
        yield members, theta


def twice(data: Dataset, cap: int, theta0: Vector, theta_star: Vector) -> Pairs:
    """Twice the optimal step: the bound's decrease is then 0."""
    return _batch(data, cap, theta0, theta_star, factor=2)


def against(data: Dataset, cap: int, theta0: Vector, theta_star: Vector) -> Pairs:
    """`theta - alpha xbar`: gradient ascent on the perceptron loss."""
    return _batch(data, cap, theta0, theta_star, sign=-1)


def one_pass(data: Dataset, cap: int, theta0: Vector, theta_star: Vector) -> Pairs:
    """A single iteration, whatever M_1 holds."""
    return _batch(data, cap, theta0, theta_star, iterations=1)


def strict(data: Dataset, cap: int, theta0: Vector, theta_star: Vector) -> Pairs:
    """M_k over `y<theta, x> < 0`: from theta = 0 it makes no iteration at all."""
    return _batch(data, cap, theta0, theta_star, strict=True)


def test_the_optimal_and_the_unit_step_pass_as_what_they_are() -> None:
    report = check_batch_implementation(optimal_step, count=2)
    assert report.ok, report.failures[:1]
    assert len(report.outcomes) == 2 * 2 * 3  # 2 sources x 2 scenarios x 3 starts
    assert report.summary().splitlines()[1:] == [
        "  tight      calls 6    problems 0", "  generated  calls 6    problems 0"]
    assert check_batch_implementation(unit_step, step=1, count=2).ok
    assert check_batch_implementation(unit_step, step="1", count=2, rule="le").ok


@pytest.mark.parametrize(("fit", "said"), [
    (twice, "iteration 0: step alpha_0 = 1/3 along xbar_0 (theta_1 = theta_0 + alpha_0 "
            "xbar_0), the exact run's is 1/6; 2 times it"),
    (against, "iteration 0: step alpha_0 = -1/6 along xbar_0 (theta_1 = theta_0 + alpha_0 "
              "xbar_0), the exact run's is 1/6; -1 times it"),
    (unit_step, "iteration 0: step alpha_0 = 1 along xbar_0 (theta_1 = theta_0 + alpha_0 "
                "xbar_0), the exact run's is 1/6; 6 times it"),
    (strict, "stopped after 0 iterations with M_0 non-empty; the exact run makes 1 and "
             "stops with M_1 empty"),
])
def test_a_wrong_batch_perceptron_is_caught_at_its_first_wrong_iteration(fit, said) -> None:
    report = check_batch_implementation(fit, count=2)
    assert not report.ok
    first = report.failures[0]
    assert first.problems == (said,), first.problems
    with pytest.raises(AssertionError) as caught:
        report.raise_for_violations()
    assert str(caught.value).splitlines()[1:] == [f"  - {said}"]


def test_one_iteration_only_is_caught_where_the_run_goes_on() -> None:
    report = check_batch_implementation(one_pass, count=2)
    assert not report.ok and report.outcomes[0].ok  # from 0 one iteration converges there
    assert {o.problems for o in report.failures} >= {(
        "stopped after 1 iteration with M_1 non-empty; the exact run makes 2 and stops with "
        "M_2 empty",)}


def test_the_rule_it_claims_is_the_one_compared() -> None:
    assert check_batch_implementation(strict, rule="lt", count=2).ok
    report = check_batch_implementation(optimal_step, rule="lt", count=2)
    assert "made 1 iteration; the exact run stops after 0, M_0 being empty" in {
        p for o in report.failures for p in o.problems}


def test_a_fit_that_raises_is_a_problem_of_its_calls() -> None:
    def broken(data: Dataset, cap: int, theta0: Vector, theta_star: Vector) -> Pairs:
        raise ZeroDivisionError("alpha")

    report = check_batch_implementation(broken, count=1, sources=["tight"])
    assert not report.ok and all("raised ZeroDivisionError: alpha" in o.problems[0]
                                 for o in report.outcomes)


def test_the_fixture_fails_the_test_on_a_wrong_batch_perceptron() -> None:
    theory = PerceptronTheory(0)
    assert theory.check_batch_implementation(optimal_step, count=1).ok
    with pytest.raises(AssertionError, match="is not the batch perceptron"):
        theory.check_batch_implementation(twice, count=1)


@pytest.mark.parametrize(("options", "said"), [
    ({"rule": "leq"}, "unknown rule 'leq'"),
    ({"step": 0}, "step must be 'optimal' or a positive number, not 0"),
    ({"step": Fraction(-1, 2)}, "not -1/2"),
    ({"sources": {}}, "the sources yield no scenario"),
])
def test_bad_options_are_a_value_error(options, said) -> None:
    with pytest.raises(ValueError, match=said):
        check_batch_implementation(optimal_step, **options)
