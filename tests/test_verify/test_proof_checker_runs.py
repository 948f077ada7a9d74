"""Inductions refuted by a run from their base (`verify.search.counterexamples.refuting_run`,
checked by `kernel.refute_run`): the step case's point replayed, or, when that run never
breaks the invariant, a walk to the point's state and then its example (newcomer 34 N5: the
margin perceptron's norm bound without its factor 2 was left unknown). The shared table
`cases.steps.RUNS` gives each step its expected verdict."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy
from cases.steps import RUNS, RUNS_EXPECTED

from proofs.proof_file import parse_proof
from verify import kernel
from verify.kernel import Counterexample
from verify.proof_checker import ProofReport, check_proof


@pytest.fixture(scope="module")
def checked() -> ProofReport:
    return check_proof(parse_proof(RUNS.encode(), "runs.toml"))


def by_id(report: ProofReport) -> dict[str, object]:
    return {s.step.id: s for s in report.steps}


@pytest.mark.parametrize(("step_id", "expected"), sorted(RUNS_EXPECTED.items()))
def test_each_step_gets_its_expected_verdict(checked, step_id: str, expected: str) -> None:
    report = by_id(checked)[step_id]
    if expected == "not-proved":
        assert report.status != "proved", report.message
    else:
        assert report.status == expected, report.message


def test_the_table_covers_every_step_of_the_file(checked) -> None:
    assert {s.step.id for s in checked.steps} == set(RUNS_EXPECTED)


def test_the_margin_bound_without_its_2_is_refuted_by_a_walk_that_says_its_examples(
        checked) -> None:
    """The refuting run: two updates on one example reach the point's state, the third on the
    point's own; the message names each example with its updates (not 'each on' the first),
    and the run, replayed here by hand from w = 0, breaks `norm2(w) <= t*(beta + R**2)` at
    its last state only, every update fact holding on the way."""
    report = by_id(checked)["margin-norm-without-2"]
    assert report.refutation is not None and report.run
    assert "updates: 2 on " in report.message and ", then 1 on " in report.message, \
        report.message
    assert "a walk from the base to the step case's point's state" in report.message
    assert "each on" not in report.message
    beta, radius = (report.run[0].scalars[n] for n in ("beta", "R"))
    w = (Fraction(0),) * len(report.run[0].vectors["x"])
    for t, state in enumerate(report.run[:-1]):
        x, y = state.vectors["x"], state.scalars["y"]
        assert state.vectors["w"] == w and state.scalars["t"] == t
        assert sum(a * a for a in w) <= t * (beta + radius**2)  # the invariant holds
        assert y**2 == 1 and y * sum(a * b for a, b in zip(w, x, strict=True)) <= beta
        assert sum(a * a for a in x) <= radius**2 and beta >= 0
        w = tuple(a + y * b for a, b in zip(w, x, strict=True))
    assert report.run[-1].vectors["w"] == w
    assert sum(a * a for a in w) > (len(report.run) - 1) * (beta + radius**2)
    assert len({state.vectors["x"] for state in report.run[:-1]}) > 1  # the examples vary


def test_explain_says_the_run_walks_to_the_point(tmp_path, capsys) -> None:
    """explain's 'Not alone' names the run it shows: a walk to the point's state, then the
    point's example; not 'the run made from the base on this point's example' (whose
    examples the states it prints contradict)."""
    from verify.cli import main

    path = tmp_path / "runs.toml"
    path.write_text(RUNS)
    assert main(["explain", str(path), "margin-norm-without-2"]) == 1
    out = capsys.readouterr().out
    assert ("Not alone: the run made on a walk from the base to this point's state, then on "
            "this point's example, reaches a state where the invariant fails") in out, out
    states = re.findall(r"^    state \d+: .*$", out, re.M)
    assert len(states) == 4, states


def test_a_walk_needs_a_natural_count_of_updates_and_a_vector_to_solve_for() -> None:
    """`walk` is empty (the replayed run is the only one) when the point's counter is no
    natural in 1..limit, or when no update reads a per-update vector; else one example per
    update, each moving w an equal part of the way to the point's w."""
    from verify.kernel.certificates import Point
    from verify.search.counterexamples import walk

    y = sympy.Symbol("y")
    rule = kernel.Induction("t", {"w": {}}, {"w": {"w": sympy.Integer(1), "x": y}})
    point = Counterexample({"t": Fraction(2), "y": Fraction(-1)},
                           {"w": (Fraction(-2),), "x": (Fraction(1, 2),)})
    steps = walk(rule, point)
    assert len(steps) == 2
    start = Point(Counterexample({"t": Fraction(0), "y": Fraction(-1)},
                                 {"w": (Fraction(0),), "x": (Fraction(0),)})).world
    assert steps[0](start) == {"x": (Fraction(1),)}
    for t in (Fraction(1, 2), Fraction(0), Fraction(40)):
        assert walk(rule, Counterexample({**point.scalars, "t": t}, point.vectors)) == ()
    scaling = kernel.Induction("t", {"w": {}}, {"w": {"w": sympy.Integer(2)}})
    assert walk(scaling, point) == ()
