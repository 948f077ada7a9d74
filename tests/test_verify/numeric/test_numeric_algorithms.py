"""`verify/numeric/algorithms.py` and `verify/numeric/orthonormal.py`: the runs the results
beyond the sources are checked on (issue 16), and the run quantities they bring (`beta`, `mu`).

What these pin: the margin perceptron's runs are its own (a claim true only for the ordinary
perceptron is violated on them, and `beta` is the run's), the orthonormal source is what its
proof assumes (every hypothesis of `count-at-convergence` holds at every state, so its check
at each run's final state is an assertion of the mistake count, not a vacuity), and a source
claimed by one algorithm is never run by another.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from perceptron.algorithms.online import run_online
from perceptron.geometry.linear import norm2, radius2
from proofs.language.terms import Vec, scalar
from proofs.language.terms import norm2 as norm2_term
from verify.audit.job import _admitted, _plan
from verify.audit.targets import Target
from verify.kernel import Fact, Judgement
from verify.numeric import campaign
from verify.numeric.algorithms import EXCLUSIVE_SOURCES, OWN_ALGORITHMS, runs_by_default
from verify.numeric.campaign import Check, run_campaign
from verify.numeric.orthonormal import MAX_K, orthonormal_positive
from verify.runs import kind_of
from verify.runs.columns import Origin
from verify.runs.online import BETAS, OnlineUpdates, engine_runner, margin_runs, run_from_engine


def inner(a, b) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def state_values(run: OnlineUpdates, names: set[str]) -> list[dict[str, object]]:
    batch = kind_of("state").rows(run, "state", Origin("test"), names)
    return [batch.instance(i).scalars | batch.instance(i).vectors for i in range(len(batch))]


# ---- the margin perceptron -----------------------------------------------------------------


def test_margin_runs_are_one_per_beta_and_bind_it() -> None:
    scenario = next(campaign.generated(7, 1))
    R2 = radius2(scenario.data)
    runs = margin_runs(scenario)
    assert [run.beta for run in runs] == [c * R2 for c in BETAS]
    assert BETAS[0] == 0 and len(set(BETAS)) >= 3
    for run in runs:
        values = state_values(run, {"beta", "t", "w"})
        assert {v["beta"] for v in values} == {run.beta}
        assert [v["t"] for v in values] == list(range(len(run.updates) + 1))


def test_margin_rows_from_integers_equal_rows_from_fractions() -> None:
    """The rows are built from the run's integer form; its Fraction updates say the same."""
    scenario = next(campaign.generated(3, 1))
    for run in margin_runs(scenario):
        values = state_values(run, {"w"})
        assert [v["w"] for v in values] == list(
            OnlineUpdates(run.data, run.u, tuple(run.updates)).states)


def test_beta_zero_is_the_default_run_row_for_row() -> None:
    scenario = next(campaign.generated(12, 1))
    default = engine_runner(scenario)
    zero = margin_runs(scenario)[0]
    names = {"w", "t", "R2", "gamma_u", "u"}
    assert state_values(zero, names) == state_values(default, names)


def test_a_claim_of_the_ordinary_perceptron_fails_on_margin_runs() -> None:
    """||w_t||^2 <= t R2 is Block–Novikoff's invariant; the margin perceptron's updates at
    beta > 0 break it (each adds up to R2 + 2 beta): the campaign must find a violation, which
    it can only do if the runs really update on y<w,x> <= beta."""
    w = Vec.named("w")
    t, R2 = scalar("t"), scalar("R2")
    ordinary = Check("ordinary-norm", Judgement((Fact(t, ">="),), Fact(t * R2 - norm2_term(w),
                                                                            ">="),
                                                ("w",), ("t", "R2")), "state",
                     "margin-perceptron")
    result = run_campaign([ordinary], {"generated": campaign.generated(0, 10)})
    verdict = result.verdicts[("ordinary-norm", "generated")]
    assert verdict.status == "violated"
    assert "margin perceptron, beta = " in verdict.counterexample.provenance.origin.dataset


# ---- the orthonormal source ----------------------------------------------------------------


def test_orthonormal_families_are_what_the_tightness_proof_assumes() -> None:
    sizes = set()
    for scenario in orthonormal_positive(0, 2 * MAX_K):
        data, u = scenario.data, scenario.u
        k = data.n
        sizes.add(k)
        assert set(data.y) == {1}
        assert all(inner(a, b) == (1 if i == j else 0)
                   for i, a in enumerate(data.X) for j, b in enumerate(data.X))
        assert norm2(u) == k and all(inner(u, x) == 1 for x in data.X)
        result = run_online(data, keep_trace=True)
        assert result.mistakes == k and result.converged and tuple(result.w) == tuple(u)
        # every hypothesis of count-at-convergence holds at every state (none is vacuous by
        # them): mu is an integer, and <w, u> >= k mu (alignment-lower-bound's claim, from
        # u the examples' sum, each margin at least mu); mu > 0 at the final state only
        run = run_from_engine(result, data, u)
        values = state_values(run, {"w", "t", "u", "mu"})
        for v in values:
            mu = v["mu"]
            assert mu.denominator == 1 and inner(v["w"], u) >= k * mu
        assert [v["mu"] > 0 for v in values] == [False] * k + [True]
    assert sizes == set(range(1, MAX_K + 1))


def test_mu_is_the_iterate_margin_on_both_paths() -> None:
    scenario = next(campaign.generated(21, 1))
    engine = engine_runner(scenario)
    fractions = OnlineUpdates(engine.data, engine.u, tuple(engine.updates))
    expected = [min(y * inner(w, x) for x, y in zip(engine.data.X, engine.data.y, strict=True))
                for w in fractions.states]
    assert [v["mu"] for v in state_values(engine, {"mu"})] == expected
    assert [v["mu"] for v in state_values(fractions, {"mu"})] == expected


def test_an_exclusive_source_is_run_only_by_its_algorithm() -> None:
    assert EXCLUSIVE_SOURCES == {"orthonormal", "separable-epochs", "inseparable",
                                 "inseparable-long", "margin-family"}
    assert EXCLUSIVE_SOURCES == frozenset().union(
        *(a.sources for a in OWN_ALGORITHMS.values() if a.sources is not None))
    assert not any(runs_by_default(s) for s in EXCLUSIVE_SOURCES)
    assert runs_by_default("data") and OWN_ALGORITHMS["cyclic-perceptron"].accepts("data")
    margin_algorithm = OWN_ALGORITHMS["margin-perceptron"]
    assert [margin_algorithm.accepts(s) for s in ("generated", "adversary", "orthonormal")] == [
        True, False, False]
    t = scalar("t")
    claim = Judgement((), Fact(t, ">="), (), ("t",))
    default = Check("default", claim, "state")
    ours = Check("ours", claim, "state", "orthonormal-perceptron")
    result = run_campaign([default, ours], {"orthonormal": orthonormal_positive(0, 5),
                                            "generated": campaign.generated(0, 3)})
    assert set(result.verdicts) == {("ours", "orthonormal"), ("default", "generated")}
    # k + 1 states per run, k = 1..5
    assert result.verdicts[("ours", "orthonormal")].instances == sum(k + 1 for k in range(1, 6))


def test_the_mistake_count_is_checked_not_assumed() -> None:
    """One more mistake than k at convergence is violated on every run: the final state's
    check is an assertion about the count."""
    u = Vec.named("u")
    t, mu = scalar("t"), scalar("mu")
    wrong = Check("one-more", Judgement((Fact(mu, ">"),), Fact(t - norm2_term(u) - 1, ">="),
                                        ("w", "u"), ("t", "mu")), "state",
                  "orthonormal-perceptron")
    right = Check("exact", Judgement((Fact(mu, ">"),), Fact(t - norm2_term(u), "=="),
                                     ("w", "u"), ("t", "mu")), "state", "orthonormal-perceptron")
    result = run_campaign([wrong, right], {"orthonormal": orthonormal_positive(3, 6)})
    assert result.verdicts[("one-more", "orthonormal")].status == "violated"
    exact = result.verdicts[("exact", "orthonormal")]
    assert exact.status == "held" and exact.instances - exact.vacuous == 6


def test_an_unknown_algorithm_is_refused_naming_the_known_ones(tmp_path: Path) -> None:
    text = b"""
title = "t"
vectors = ["w", "x"]
scalars = ["y", "beta"]
[numeric]
run = "online"
algorithm = "%s"
[[step]]
id = "s"
given = ["y*dot(w, x) <= beta"]
claim = "y*dot(w, x) <= beta"
"""
    for name in ("margin-perceptron", "margin-perceptrons"):
        (tmp_path / f"{name}.toml").write_bytes(text % name.encode())
    known = _admitted([Target("p", str(tmp_path / "margin-perceptron.toml"), True)], ())
    plan = _plan(known, "small", 0, None)
    assert [c.algorithm for c in plan.checks] == ["margin-perceptron"]
    unknown = _admitted([Target("p", str(tmp_path / "margin-perceptrons.toml"), True)], ())
    assert not unknown.proofs  # refused in one line naming the known ones, nothing planned
    assert len(unknown.errors) == 1 and "orthonormal-perceptron" in unknown.errors[0]
