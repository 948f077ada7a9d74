"""`verify/numeric/passes.py`: the single-pass sources, and how a campaign routes them.

Single-pass scenarios are read by single-pass checks only, and those read nothing else; a
false statement about passes (Novikoff's bound without D, on non-separable data) is found.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs.language.terms import Vec, dot, norm2, scalar
from verify.kernel import Fact, Judgement
from verify.numeric import campaign, passes
from verify.numeric.campaign import Check, run_campaign
from verify.runs.quantity import radius_bound
from verify.runs.single_pass import run_pass


def test_unit_near_is_exactly_unit_and_near() -> None:
    for direction in ([Fraction(1), Fraction(2), Fraction(-2)], [Fraction(-3), Fraction(0)],
                      [Fraction(1, 7)] * 5, [Fraction(0), Fraction(0), Fraction(-1)]):
        u = passes.unit_near(direction)
        assert sum(c * c for c in u) == 1
        norm = sum(float(c) ** 2 for c in direction) ** 0.5
        assert all(abs(float(a) - float(b) / norm) < 0.01 for a, b in zip(u, direction,
                                                                          strict=True))
    with pytest.raises(ValueError, match="zero vector"):
        passes.unit_near([Fraction(0), Fraction(0)])


@pytest.mark.parametrize("make", [passes.noisy, passes.adversarial, passes.tight])
def test_planted_sources_are_seeded_per_scenario(make) -> None:
    """Scenario i of a source drawn from seed is scenario 0 drawn from seed + i (shards
    cut the sources by offsetting the seed)."""
    whole = list(make(10, 3))
    assert [s.origin.seed for s in whole] == [10, 11, 12]
    assert list(make(12, 1)) == whole[2:]
    for s in whole:
        assert sum(c * c for c in s.u) == 1 and s.margins and min(s.margins) > 0


def test_noisy_data_are_not_separable_at_any_margin() -> None:
    for scenario in passes.noisy(0, 10):
        run = run_pass(scenario.data, scenario.u, scenario.margins)
        assert all(run.sums(g).D2 > 0 for g in scenario.margins)
        assert all(run.bound_holds(g) for g in scenario.margins)


def test_the_adversarial_order_is_a_permutation_that_costs_mistakes() -> None:
    more = 0
    for scenario in passes.adversarial(0, 8):
        order = scenario.origin.order
        assert order is not None and sorted(order) == list(range(scenario.data.n))
        drawn = next(passes.noisy(scenario.origin.seed, 1))
        assert drawn.data.subset(order).X == scenario.data.X
        ordered = run_pass(scenario.data, scenario.u, scenario.margins).mistakes
        plain = run_pass(drawn.data, drawn.u, drawn.margins).mistakes
        more += ordered > plain
    assert more >= 6  # chosen against the pass: more mistakes than the drawn order, mostly


def test_tight_passes_attain_the_bound_at_every_margin_from_the_true_one() -> None:
    for scenario in passes.tight(0, 12):
        run = run_pass(scenario.data, scenario.u, scenario.margins)
        k = scenario.data.n
        assert run.mistakes == k
        for gamma in scenario.margins:
            bound = (radius_bound(run.R2) + radius_bound(run.sums(gamma).D2)) ** 2
            assert run.mistakes * gamma**2 == bound


def test_real_prefixes_skip_missing_files(tmp_path) -> None:
    assert list(passes.real_prefix(0, 2, directory=tmp_path)) == []


def test_real_prefixes_when_the_data_are_there() -> None:
    if not (campaign.BENCH_DATA / "iris_data_set").is_file():
        pytest.skip("benchmark data not available")
    found = list(passes.real_prefix(0, 2, sets=(("iris_data_set", "iris", 40),)))
    assert [s.data.n for s in found] == [40, 40]
    assert found[0].origin.order == tuple(range(40)) and found[1].origin.seed == 1
    for s in found:
        assert sum(c * c for c in s.u) == 1 and all(g > 0 for g in s.margins)
        assert all(x[0] == 1 for x in s.data.X)  # the bias coordinate


def _novikoff_without_D() -> Check:
    """t gamma^2 <= R^2 at every state: Novikoff's bound, false without D on noisy data."""
    t, gamma, R = scalar("t"), scalar("gamma"), scalar("R")
    return Check("novikoff-without-D", Judgement(
        (Fact(gamma, ">"),), Fact(R**2 - t * gamma**2, ">="), ("w",), ("t", "gamma", "R")),
        "pass-state")


def _norm_growth_online() -> Check:
    w, x = Vec.named("w"), Vec.named("x")
    y, R2 = scalar("y"), scalar("R2")
    return Check("norm-growth", Judgement(
        (Fact(-y * dot(w, x), ">="), Fact(R2 - norm2(x), ">=")),
        Fact(norm2(w) + R2 - norm2(w + x.scaled(y)), ">="), ("w", "x"), ("y", "R2")), "example")


def test_single_pass_checks_read_single_pass_scenarios_only() -> None:
    checks = [_novikoff_without_D(), _norm_growth_online()]
    result = run_campaign(checks, {"noisy": passes.noisy(0, 3),
                                   "generated": campaign.generated(0, 3)})
    assert set(result.verdicts) == {("novikoff-without-D", "noisy"), ("norm-growth", "generated")}
    found = result.verdicts[("novikoff-without-D", "noisy")]
    assert found.status == "violated" and found.counterexample is not None
    assert found.counterexample.provenance.origin.source == "noisy"


def test_the_proof_binds_every_step_and_its_bound_is_met_with_equality() -> None:
    """Every step of nonseparable-freund-schapire but the root lemma (about any two reals)
    binds single-pass rows; on the tight families the final bound has slack exactly 0, with
    D > 0 at the margins above the true one."""
    from proofs.library import load_builtin
    from verify.audit.job import binding_of, statement
    from verify.proof_checker import statements

    proof = load_builtin("nonseparable-freund-schapire")
    stated = statements(proof)
    checks = []
    for step in proof.steps:
        judgement = statement(proof, stated[step.id])
        binding = binding_of(judgement, "single-pass")
        assert (binding is None) == (step.id == "root"), step.id
        if binding is not None:
            checks.append(Check(step.id, judgement, binding))
    result = run_campaign(checks, {"tight-pass": passes.tight(0, 6)})
    for check in checks:
        verdict = result.verdicts[(check.name, "tight-pass")]
        assert verdict.status == "held" and verdict.instances > verdict.vacuous, check.name
    assert result.verdicts[("bound", "tight-pass")].min_slack == 0
