"""Each seed source's algorithm, run in the engine, reproduces that source's own iterates.

The audit checks a source's steps on runs of the source's algorithm (`[numeric] algorithm`,
`verify.runs.online.source_runner`): its rule at y<w,x> = 0, its sign(0), its bias and its
indexing. These tests pin that the runs are the source's: the 10-607 worked example, Ng's
g(0) = +1 (no update on a positive tie), Telgarsky's update on a correctly predicted tie,
joeyonng's augmented run, Chan's strict M_k (stuck at θ^(0) = 0), and that a campaign keeps
the runs of different algorithms apart.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from perceptron.algorithms.online import run_online
from perceptron.algorithms.sources import SOURCE_ALGORITHMS, SOURCE_VARIANTS
from perceptron.dataset import Dataset
from perceptron.geometry.linear import radius2
from proofs.errors import ProofFileError
from proofs.language.terms import Vec, dot, scalar
from proofs.proof_file import parse_proof
from verify.kernel import Fact, Judgement
from verify.numeric.campaign import Check, generated, run_campaign
from verify.runs.batch import source_batch_runner
from verify.runs.columns import Origin
from verify.runs.online import engine_runner, source_runner
from verify.runs.quantity import Scenario, margin, radius_bound


def dataset(rows: list[tuple[tuple[int, ...], int]], name: str) -> Dataset:
    return Dataset(tuple(tuple(Fraction(v) for v in x) for x, _ in rows),
                   tuple(y for _, y in rows), name)


def scenario(rows: list[tuple[tuple[int, ...], int]], u: tuple[int, ...]) -> Scenario:
    return Scenario(dataset(rows, "example"), tuple(Fraction(v) for v in u), Origin("test"))


#: The 10-607 worked example ("Perceptron Algorithm: Example"): six points, one pass.
VIRTUE_EXAMPLE = [((-1, 2), -1), ((1, 0), 1), ((1, 1), 1), ((-1, 0), -1), ((-1, -2), -1),
                  ((1, -1), 1)]


def iterates(run_id: str, rows: list[tuple[tuple[int, ...], int]],
             u: tuple[int, ...]) -> tuple[tuple[Fraction, ...], ...]:
    """w_0 (engine index) and every iterate after an update, from the source's runner."""
    return source_runner(run_id)(scenario(rows, u)).states


def test_virtue_worked_example_iterates_and_indexing() -> None:
    """θ^(1) = 0, then (1,-2), (2,-1), (3,1): the slide's w_1..w_4, mistakes on points 1, 3, 5."""
    algorithm = SOURCE_ALGORITHMS["virtue-online"]
    run = source_runner("virtue-online")(scenario(VIRTUE_EXAMPLE, (1, 1)))
    shown = {1: (0, 0), 2: (1, -2), 3: (2, -1), 4: (3, 1)}
    for k, w in shown.items():
        assert run.states[algorithm.engine_index(k)] == tuple(map(Fraction, w))
    assert [VIRTUE_EXAMPLE.index((tuple(map(int, up.x)), up.y)) for up in run.updates] == [0, 2, 4]
    # the worked example's own reading (predict positive iff w.x >= 0) makes the same updates
    worked = SOURCE_VARIANTS["virtue-online/worked-example"].conventions()
    result = run_online(dataset(VIRTUE_EXAMPLE, "example"), worked, max_epochs=10)
    assert result.w == (Fraction(3), Fraction(1)) and result.mistakes == 3


def test_ng_does_not_update_on_a_positive_tie() -> None:
    """g(0) = +1: a positive example with θ^T x = 0 is predicted correctly; the default
    (update on y<w,x> <= 0) updates on it."""
    rows = [((1, 0), 1), ((0, 1), -1)]
    ng = iterates("ng-cs229", rows, (1, -1))
    assert ng[:2] == ((Fraction(0), Fraction(0)), (Fraction(0), Fraction(-1)))
    default = run_online(dataset(rows, "tie"), max_epochs=10, keep_trace=True)
    assert default.trace is not None and default.trace[0].index == 0  # updated on (1,0), +1
    assert ng[1] != tuple(default.trace[0].w_after)
    assert SOURCE_ALGORITHMS["ng-cs229"].engine_index(1) == 0  # θ^(1) = 0 is the initial


def test_telgarsky_updates_on_a_correctly_predicted_tie() -> None:
    """w' = w + xy 1[<w, -xy> >= 0]: at w_0 = 0 a positive example is predicted +1 (correct)
    and still updates, so updates include non-mistakes; w_i is indexed by examples."""
    algorithm = SOURCE_ALGORITHMS["telgarsky-online"]
    conventions = algorithm.conventions()
    assert conventions.predict(0) == 1 and conventions.updates(0, 1)
    run = source_runner("telgarsky-online")(scenario([((1, 0), 1), ((2, 0), 1)], (1, 0)))
    # normalised by R = 2: the examples are (1/2, 0) and (1, 0)
    assert run.states == ((Fraction(0), Fraction(0)), (Fraction(1, 2), Fraction(0)))
    assert algorithm.counts == "examples" and algorithm.engine_index(2) == 2


def test_normalised_runs_are_in_the_unit_ball() -> None:
    """A normalised source (Telgarsky assumes ||x_i|| <= 1) runs on the data divided by the
    rational radius bound: every ||x||^2 <= 1 (R2 <= 1, R <= 1), the same updates as the
    unscaled run, and gamma_u the margin of u on the scaled data."""
    normalised = [a for a in SOURCE_ALGORITHMS if SOURCE_ALGORITHMS[a].normalised]
    assert normalised == ["telgarsky-online"]
    for algorithm in normalised:
        for planted in generated(5, 20):
            run = source_runner(algorithm)(planted)
            assert all(sum(v * v for v in x) <= 1 for x in run.data.X)
            assert radius_bound(radius2(run.data)) <= 1
            assert all(sum(v * v for v in up.x) <= 1 for up in run.updates)
            R = radius_bound(radius2(planted.data))
            assert margin(run.data, run.u) == margin(planted.data, planted.u) / R
            plain = engine_runner(planted, SOURCE_ALGORITHMS[algorithm].conventions())
            assert [tuple(v / R for v in w) for w in plain.states] == list(run.states)
    # irrational radius: ||(1, 1)|| = sqrt 2, divided by the rational bound R = ceil(sqrt 2) = 2
    run = source_runner("telgarsky-online")(scenario([((1, 1), 1), ((-1, 0), -1)], (1, 1)))
    assert run.data.X == ((Fraction(1, 2), Fraction(1, 2)), (Fraction(-1, 2), Fraction(0)))


def test_joeyonng_runs_on_augmented_examples_from_w1_zero() -> None:
    """ŵ_1 = 0, x̂ = [x; 1], ŵ* = [u; 0]: the run's x and u carry the bias coordinate."""
    run = source_runner("joeyonng-online")(scenario([((2, 1), 1), ((-1, -1), -1)], (1, 1)))
    assert run.initial == (Fraction(0),) * 3
    assert run.u == (Fraction(1), Fraction(1), Fraction(0))
    assert run.updates[0].x == (Fraction(2), Fraction(1), Fraction(1))
    assert SOURCE_ALGORITHMS["joeyonng-online"].engine_index(1) == 0


def test_chan_strict_batch_is_stuck_at_zero() -> None:
    """M_k = {y g < 0}: from θ^(0) = 0 the set is empty and the run never moves; from the
    other starts it moves with the optimal step alpha_k on the augmented examples."""
    runs = source_batch_runner("chan-batch")(scenario([((1, 0), 1), ((-1, 1), -1)], (2, -1)))
    at_zero = runs[0]
    assert not any(at_zero.theta0) and at_zero.iterations == ()
    moved = [run for run in runs[1:] if run.iterations]
    assert moved and all(len(run.theta0) == 3 for run in runs)
    for run in moved:
        for it in run.iterations:
            xbar2 = sum(v * v for v in it.xbar)
            along = sum(a * b for a, b in zip(run.theta_star, it.xbar, strict=True))
            assert it.alpha == along / xbar2


def test_radius_bound_is_exact_when_rational() -> None:
    assert radius_bound(Fraction(9, 4)) == Fraction(3, 2)
    bound = radius_bound(Fraction(2))
    assert bound * bound >= 2 and bound == 2


def test_campaign_keeps_algorithms_apart() -> None:
    """The same statement on update rows: 'a positive example updates only when <w,x> < 0'
    holds on Ng's runs (g(0) = +1) and is violated on the default perceptron's."""
    w, x = Vec.named("w"), Vec.named("x")
    y = scalar("y")
    claim = Judgement((Fact(y - 1, "=="),), Fact(-dot(w, x), ">"), ("w", "x"), ("y",))
    checks = [Check("default", claim, "update"), Check("ng", claim, "update", "ng-cs229")]
    result = run_campaign(checks, {"generated": generated(seed=5, count=20)})
    assert result.verdicts[("ng", "generated")].status == "held"
    assert result.verdicts[("default", "generated")].status == "violated"


PROOF = b"""
title = "t"
vectors = ["th", "x"]
scalars = ["y"]
[numeric]
run = "online"
names = { th = "w" }
%s
[[step]]
id = "s"
given = ["y*dot(th, x) <= 0"]
claim = "y*dot(th, x) <= 0"
"""


def test_numeric_table_names_the_algorithm() -> None:
    proof = parse_proof(PROOF % b'algorithm = "ng-cs229"', "p.toml")
    assert proof.numeric is not None and proof.numeric.algorithm == "ng-cs229"
    default = parse_proof(PROOF % b"", "p.toml").numeric
    assert default is not None and default.algorithm is None
    with pytest.raises(ProofFileError, match=r"numeric\.algorithm"):
        parse_proof(PROOF % b'algorithm = "Not An Id"', "p.toml")
    with pytest.raises(ProofFileError, match="algorithm"):
        parse_proof(PROOF % b"algorithm = 3", "p.toml")
