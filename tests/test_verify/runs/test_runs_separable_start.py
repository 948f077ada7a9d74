"""The cycling theorem's separable case (`canonical-online-w0`, issue 31), read on runs that
start far from the origin.

The audit checks the steps `separable-*` on the online runs of the default perceptron, which
all start at w0 = 0: there the w0 terms of their statements are 0. This test evaluates the
kernel's statements of those steps (hypotheses, the imported claims of `lower-bound` and
`norm-growth` included, and claims) exactly, as the kernel evaluates a counterexample, at
every state of the perceptron run in cyclic epochs from two starts far out on planted
separable data: along -u (against the separator) and along (1, ..., 1). Every hypothesis
holds at every state (no step is vacuous there), every claim holds, and the runs are ones
where the start matters: states outside the ball `gamma_u^2 ||w||^2 <= 2 R2^2 <u, u>` that
the bound gives from 0, and more updates than the run from 0 makes."""

from __future__ import annotations

import functools
from fractions import Fraction
from math import ceil, isqrt

import pytest

from perceptron.generators.hypothesis import seeded_separable
from proofs.library import load_builtin
from verify import kernel
from verify.kernel.algebra import Rel, evaluate
from verify.kernel.atoms import gram
from verify.kernel.certificates import Point
from verify.proof_checker import check_proof
from verify.runs.cyclic import CyclicRun, perceptron_cyclic

STEPS = ("separable-cross", "separable-cross-w0", "separable-lower-scaled",
         "separable-updates-bound", "separable-iterates-bounded")


@functools.cache
def statements() -> dict[str, kernel.Statement]:
    """The kernel's statements of the w0 variant's steps (every step proved)."""
    report = check_proof(load_builtin("canonical-online-w0"))
    assert report.status == "proved"
    return {s.step.id: s.statement for s in report.steps if s.statement is not None}


@functools.cache
def runs() -> tuple[tuple[CyclicRun, CyclicRun], ...]:
    """(the run from 0, a run from a start far out) on planted separable data, two starts
    each: -2 ceil(R2/gamma_u) u (norm at least twice the bound's R2 |u|/gamma_u, against u)
    and 3 (isqrt(R2) + 1) (1, ..., 1); at most 5000 epochs (each converges well before)."""
    found = []
    for seed in range(8):
        planted = seeded_separable(seed)
        near = perceptron_cyclic(planted.data, planted.u, 1000)
        c = ceil(near.R2 / near.gamma_u)
        starts = (tuple(-2 * c * v for v in planted.u),
                  tuple(Fraction(3 * (isqrt(ceil(near.R2)) + 1)) for _ in planted.u))
        found.extend((near, perceptron_cyclic(planted.data, planted.u, 5000, start))
                     for start in starts)
    return tuple(found)


def states(run: CyclicRun) -> list[Point]:
    """Every state w_t of `run` (t = 0..T) as a point of the proof's names."""
    s = run.form.scale
    rows = [0, *(int(p) + 1 for p in run.update_positions)]
    common = {"R2": run.R2, "gamma_u": run.gamma_u}
    vectors = {"u": tuple(run.u), "w0": tuple(run.w0)}
    return [Point(kernel.Counterexample(
        {**common, "t": Fraction(t)},
        {**vectors, "w": tuple(Fraction(int(v), s) for v in run.W[row])}))
        for t, row in enumerate(rows)]


def holds(relation: Rel, at: Point) -> bool:
    return evaluate(relation, relation.text, at.value)


def test_the_runs_start_far_out_and_converge() -> None:
    """The runs are separable (gamma_u > 0) and converge (an epoch without an update), from
    a start outside the ball the bound gives from 0, after more updates than from 0."""
    outside = longer = 0
    for near, far in runs():
        assert far.gamma_u > 0 and far.start is not None
        assert not any(far.mistakes[-far.data.n:])  # the last epoch updates nothing
        U = sum(v * v for v in far.u)
        w0 = sum(v * v for v in far.w0)
        outside += far.gamma_u ** 2 * w0 > 2 * far.R2 ** 2 * U
        longer += sum(far.mistakes) > sum(near.mistakes)
    assert outside >= 8 and longer >= 12


@pytest.mark.parametrize("step_id", STEPS)
def test_the_separable_case_holds_at_every_state_from_a_start_far_out(step_id: str) -> None:
    stated = statements()[step_id]
    checked = 0
    for _, far in runs():
        for at in states(far):
            assert all(holds(h, at) for h in stated.hypotheses), (step_id, far.data.name)
            assert holds(stated.claim, at), (step_id, far.data.name)
            checked += 1
    assert checked >= 2000


def test_the_bound_from_zero_fails_on_these_runs() -> None:
    """The w0 term is needed: the claim with w0 := 0 (gamma_u^2 ||w||^2 <= 2 R2^2 <u, u>) is
    false at states of these runs after their first update, where the stated one holds."""
    failing = 0
    for _, far in runs():
        U = sum(v * v for v in far.u)
        for t, at in enumerate(states(far)):
            w = at.value(gram("w", "w"))
            failing += t >= 1 and far.gamma_u ** 2 * w > 2 * far.R2 ** 2 * U
    assert failing >= 100
