"""Batch plug-ins (issue 27.3, its last point): a user's batch algorithm returns the batch
trace, `(members, theta_after)` per iteration, and is checked by the batch row sets as the
built-in batch runs are; its step `alpha` is read exactly off the trace."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from perceptron.algorithms.trace import BatchRecord
from perceptron.dataset import Dataset
from verify.api import audit_proofs
from verify.numeric import campaign
from verify.runs.batch import batch_starts, engine_batch_runner
from verify.runs.plugin import Plugin, PluginFault

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(ROOT))
from examples.plugins.batch_perceptron import optimal_step, unit_step  # noqa: E402

DATA = Dataset.of([[1, 2], [2, -1], [-1, 1]], [1, 1, -1], "three")
STAR = (Fraction(1), Fraction(0))
ZERO = (Fraction(0), Fraction(0))


def test_the_optimal_step_as_a_plug_in_is_the_built_in_batch_run() -> None:
    """The documented example against `run_batch`: the same members, steps and iterates
    from each of the three starts, on planted data of the campaign."""
    plugin = Plugin.of("ob", optimal_step)
    compared = 0
    for scenario in campaign.generated(5, 6):
        built_in = engine_batch_runner(scenario)
        mine = [plugin.run_batch(scenario.data, scenario.u, start, scenario.max_iterations)
                for start in batch_starts(scenario)]
        for ours, theirs in zip(mine, built_in, strict=True):
            assert ours.theta0 == theirs.theta0
            assert tuple(ours.iterations) == tuple(theirs.iterations)
            compared += len(ours.iterations)
    assert compared > 20  # iterations were compared, not only runs that start converged


def test_the_step_is_read_off_the_trace() -> None:
    run = Plugin.of("us", unit_step).run_batch(DATA, STAR, ZERO, 10)
    first = run.iterations[0]
    assert first.members == (0, 1, 2) and first.alpha == 1  # theta0 = 0: all wrong
    assert first.xbar == (Fraction(4), Fraction(0))  # (1,2) + (2,-1) - (-1,1)
    assert run.states[-1] == first.theta_next == (Fraction(4), Fraction(0))


def _records(data: Dataset, cap: int, theta0: Any, theta_star: Any) -> Any:
    """The engine's own record form."""
    return [BatchRecord(1, (0,), (Fraction(1), Fraction(2)), Fraction(1, 2), theta0,
                        (Fraction(1, 2), Fraction(1)))]


def _sideways(data: Dataset, cap: int, theta0: Any, theta_star: Any) -> Any:
    return [((0,), (Fraction(1), Fraction(1)))]  # xbar = (1, 2): not along it


def _no_members(data: Dataset, cap: int, theta0: Any, theta_star: Any) -> Any:
    return [((), theta0)]


def _twice(data: Dataset, cap: int, theta0: Any, theta_star: Any) -> Any:
    return [((0, 0), (Fraction(2), Fraction(4)))]


def _cancelling(data: Dataset, cap: int, theta0: Any, theta_star: Any) -> Any:
    return [((0, 4), theta0)]  # y x: (1, 2) and -(1, 2)


def _forever(data: Dataset, cap: int, theta0: Any, theta_star: Any) -> Any:
    theta = theta0
    while True:
        theta = tuple(a + b for a, b in zip(theta, data.X[0], strict=True))
        yield (0,), theta


def test_a_batch_record_is_read_for_its_members_and_iterate() -> None:
    run = Plugin.of("r", _records).run_batch(DATA, STAR, ZERO, 5)
    assert run.iterations[0].alpha == Fraction(1, 2)


@pytest.mark.parametrize(("function", "fault"), [
    (_sideways, "plug-in p: iteration 0 on five is not theta + alpha xbar for a rational "
                "alpha (xbar, the sum of y x over its members, is not along theta_after - "
                "theta)"),
    (_no_members, "plug-in p: iteration 0 on five updates over (), not a non-empty set of "
                  "indices 0..4"),
    (_twice, "plug-in p: iteration 0 on five names an example twice"),
    (_cancelling, "plug-in p: iteration 0 on five is not theta + alpha xbar for a rational "
                  "alpha (xbar, the sum of y x over its members, is zero)"),
    (_forever, "plug-in p returned more than 5 iterations on five (its limit: "
               "max_iterations)"),
])
def test_every_batch_fault_is_one_line(function, fault: str) -> None:
    five = Dataset.of([[1, 2], [2, -1], [-1, 1], [-1, -2], [-1, -2]], [1, 1, -1, -1, 1],
                      "five")
    with pytest.raises(PluginFault) as raised:
        Plugin.of("p", function).run_batch(five, STAR, ZERO, 5)
    assert fault in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.slow  # one of the suite's longest end-to-end checks: run by `-m slow`
def test_the_example_proof_is_verified_on_the_plug_in_s_runs() -> None:
    """examples/batch-unit-step.toml: every step checked on the plug-in's batch rows, none
    vacuous (alpha = 1 on every iteration), from the three starts."""
    audit = audit_proofs(EXAMPLES / "batch-unit-step.toml", budget="small",
                         algorithms={"unit-step": unit_step})
    (proof,) = audit.proofs
    assert proof.status == "verified" and not audit.errors
    for step in proof.steps:
        assert step.numeric is not None and step.numeric.status == "held"
        assert step.numeric.instances > 100 and step.numeric.vacuous == 0
    # the built-in batch runs take the oracle-optimal step: alpha = 1 on none of the rows
    # a step assumes it on (the proof's steps would all be vacuous there)
    optimal = audit_proofs(EXAMPLES / "batch-unit-step.toml", budget="small",
                           algorithms={"unit-step": optimal_step})
    first = optimal.proofs[0].steps[0].numeric
    assert first is not None and first.vacuous > 0


def test_a_plug_in_of_the_wrong_kind_is_one_line(tmp_path: Path) -> None:
    """A batch function named by an online proof (and the other way round) cannot be called
    so: a fault naming the call, not a TypeError at every scenario; a kind plug-ins do not
    make is refused with the proof."""
    online = tmp_path / "online.toml"
    online.write_text('title = "t"\nscalars = ["t"]\nnaturals = ["t"]\n[numeric]\n'
                      'run = "online"\nalgorithm = "p"\n[[step]]\nid = "count"\n'
                      'claim = "t >= 0"\n')
    audit = audit_proofs(online, budget="small", algorithms={"p": unit_step})
    assert audit.errors == ("plug-in p cannot be called with (data, max_updates): missing a "
                            "required argument: 'theta0'",)
    passes = tmp_path / "passes.toml"
    passes.write_text(online.read_text().replace('"online"', '"single-pass"'))
    audit = audit_proofs(passes, budget="small", algorithms={"p": unit_step})
    assert "is a plug-in, which makes online or batch runs, not 'single-pass' ones" in \
        audit.errors[0]
    with pytest.raises(PluginFault, match=r"\(data, max_updates, gamma=1\) \(an online "):
        Plugin.of("p", unit_step, ["gamma=1"])


@pytest.mark.slow  # one of the suite's longest end-to-end checks: run by `-m slow`
def test_the_cli_runs_the_batch_example_with_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    from verify.cli import main

    code = main(["audit", str(EXAMPLES / "batch-unit-step.toml"), "--budget", "small",
                 "--jobs", "2", "--algorithm",
                 f"{EXAMPLES / 'plugins' / 'batch_perceptron.py'}:unit_step"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "batch-unit-step              verified" in out
